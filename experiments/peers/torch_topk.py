#!/usr/bin/env python3
"""torch_topk.py -- the PyTorch peer of issue 4 item 6: torch.topk on the same
seeded data as drtopk (src/gen_core.h's counter-based generator, recomputed in
torch int64 arithmetic on the GPU and checked against a pure-Python copy of it),
timed like every drtopk row (CUDA events, one warm-up, median of 7; --timing
gpu, the default as the tuner's: torch.cuda._sleep holds the stream before the
start event until the topk call is enqueued, so the span is GPU time -- the
hold's length is calibrated once and doubled while the start event is found
already passed when the end event is enqueued, which is checked every
repetition (a rep that stays unprimed is counted in "unprimed"); --timing call:
events around the call on an idle stream, the host's enqueue included) and checked
with the O(n) counting rule (m = smallest returned key: count(V > m) ==
count(result > m); positions hold their keys).

torch.topk has no uint32 kernel, so the u32 keys enter as int32 key - 2^31
(the bits key ^ 2^31), an order-preserving map of the same 4 bytes.

Prints one JSON line per (dist, k) like experiments/peers/cub_topk_peer.cu
(with the GPU's "uuid" when torch reports it, and the "seed"; `tuner
--import-peers` stores them); prints {"peer":"torch_topk","skipped":...} and
exits 0 when torch or CUDA is missing.

  torch_topk.py [--log-n 30] [--dists UD,ND,CD] [--k-log4-max 12] [--reps 7]
                [--seed 1] [--ks K,K,...] [--timing gpu|call]
  --ks: these k (<= |V|) instead of 4^0 .. 4^E
"""
import argparse
import json
import sys

SEED = 1                   # the tuner's and drtopk run's default seed: same data
MASK64 = (1 << 64) - 1
GOLDEN64 = 0x9E3779B97F4A7C15
MIX_M1 = 0xBF58476D1CE4E5B9
MIX_M2 = 0x94D049BB133111EB
ND_TERM_BITS = 20
ND_TERMS = 12
ND_MEAN_U32 = 100000000
ND_SD_U32 = 10
CD_LEVELS = 4
CD_LEVEL_BITS = 8
CD_SPREAD_MASK = 15
CHUNK = 1 << 25            # elements generated per step (bounds temporaries)
SELF_CHECK = 257           # elements compared against the pure-Python generator
UUID_HEX_DIGITS = 32
HOLD_START_US = 50         # first hold before the start event: longer than a topk enqueue
HOLD_MAX_US = 100000       # doubling stops here (a call that synchronises is never primed)
CALIBRATE_CYCLES = 10 ** 7  # torch.cuda._sleep cycles timed once to convert us to cycles


def mix64_py(x):
    x ^= x >> 30
    x = (x * MIX_M1) & MASK64
    x ^= x >> 27
    x = (x * MIX_M2) & MASK64
    return x ^ (x >> 31)


def rand64_py(seed, i, r):
    key = mix64_py(seed ^ (r << 56))
    return mix64_py((key + (i + 1) * GOLDEN64) & MASK64)


def gen_py(seed, i, dist):
    """gen_core.h's drtopk_gen_bits for u32, in Python integers."""
    if dist == "UD":
        return rand64_py(seed, i, 0) >> 32
    if dist == "ND":
        mask = (1 << ND_TERM_BITS) - 1
        s = 0
        for w in range(ND_TERMS // 3):
            h = rand64_py(seed, i, w)
            s += (h & mask) + ((h >> 20) & mask) + ((h >> 40) & mask)
        c = s - (ND_TERMS // 2) * mask
        return (ND_MEAN_U32 + ((c * ND_SD_U32 + (1 << (ND_TERM_BITS - 1))) >> ND_TERM_BITS)) & 0xFFFFFFFF
    h = rand64_py(seed, i, 0)
    level = CD_LEVELS - 1
    if (h & 0xFFFFFFFF) & CD_SPREAD_MASK == 0:
        level = (h >> 4) % (CD_LEVELS - 1)
    width = 32 - CD_LEVEL_BITS * level
    r = h >> 32
    if width == 32:
        return r
    base = (0xFFFFFFFF << width) & 0xFFFFFFFF
    return base | (r & ~base & 0xFFFFFFFF)


def s64(x):
    """A uint64 constant as the int64 with the same bits."""
    return x - (1 << 64) if x >= (1 << 63) else x


def srl(x, s):
    """Logical right shift of a torch int64 tensor: the arithmetic shift
    masked to the shifted width."""
    return (x >> s) & ((1 << (64 - s)) - 1)


def rand_torch(seed, i, r):
    """drtopk_rand64 in torch int64 (wrapping) arithmetic over positions i."""
    def mix(x):
        x = x ^ srl(x, 30)
        x = x * s64(MIX_M1)
        x = x ^ srl(x, 27)
        x = x * s64(MIX_M2)
        return x ^ srl(x, 31)

    key = s64(mix64_py(seed ^ (r << 56)))
    return mix(key + (i + 1) * s64(GOLDEN64))


def gen_torch(torch, seed, n, dist, dev):
    """The same generator in torch int64 (wrapping) arithmetic."""
    def rand(i, r):
        return rand_torch(seed, i, r)

    out = torch.empty(n, dtype=torch.int32, device=dev)
    for lo in range(0, n, CHUNK):
        i = torch.arange(lo, min(n, lo + CHUNK), dtype=torch.int64, device=dev)
        if dist == "UD":
            v = srl(rand(i, 0), 32)
        elif dist == "ND":
            mask = (1 << ND_TERM_BITS) - 1
            s = torch.zeros_like(i)
            for w in range(ND_TERMS // 3):
                h = rand(i, w)
                s += (h & mask) + (srl(h, 20) & mask) + (srl(h, 40) & mask)
            c = s - (ND_TERMS // 2) * mask
            v = (ND_MEAN_U32 + ((c * ND_SD_U32 + (1 << (ND_TERM_BITS - 1))) >> ND_TERM_BITS)) & 0xFFFFFFFF
        else:
            h = rand(i, 0)
            spread = (h & CD_SPREAD_MASK) == 0
            level = torch.where(spread, torch.remainder(srl(h, 4), CD_LEVELS - 1),
                                torch.full_like(h, CD_LEVELS - 1))
            width = 32 - CD_LEVEL_BITS * level
            r = srl(h, 32)
            base = (torch.full_like(h, 0xFFFFFFFF) << width) & 0xFFFFFFFF   # 0 where width == 32
            v = base | (r & (~base & 0xFFFFFFFF))
        out[lo:lo + len(i)] = (v - (1 << 31)).to(torch.int32)
    return out


def gpu_uuid(torch):
    """GPU 0's UUID as "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (nvidia-smi's
    and drtopk's machines.uuid form), or None when torch does not report it."""
    raw = getattr(torch.cuda.get_device_properties(0), "uuid", None)
    if raw is None:
        return None
    digits = str(raw).lower().removeprefix("gpu-").replace("-", "")
    if len(digits) != UUID_HEX_DIGITS or any(c not in "0123456789abcdef" for c in digits):
        return None
    d = digits
    return f"GPU-{d[:8]}-{d[8:12]}-{d[12:16]}-{d[16:20]}-{d[20:]}"


def calibrate_sleep(torch):
    """torch.cuda._sleep cycles per microsecond on this GPU (its clock, measured)."""
    e0 = torch.cuda.Event(enable_timing=True)
    e1 = torch.cuda.Event(enable_timing=True)
    torch.cuda._sleep(CALIBRATE_CYCLES // 10)   # warm-up launch
    e0.record()
    torch.cuda._sleep(CALIBRATE_CYCLES)
    e1.record()
    e1.synchronize()
    return CALIBRATE_CYCLES / (e0.elapsed_time(e1) * 1000.0)


class Timer:
    """One repetition's events; with gpu timing the stream is held first."""

    def __init__(self, torch, gpu):
        self.torch = torch
        self.gpu = gpu
        self.cycles_per_us = calibrate_sleep(torch) if gpu else 0
        self.hold_us = HOLD_START_US

    def time(self, call):
        """(ms, primed) of call(); primed is None for --timing call."""
        torch = self.torch
        while True:
            e0 = torch.cuda.Event(enable_timing=True)
            e1 = torch.cuda.Event(enable_timing=True)
            if self.gpu:
                torch.cuda._sleep(int(self.hold_us * self.cycles_per_us))
            e0.record()
            out = call()
            e1.record()
            primed = not e0.query() if self.gpu else None   # the GPU had not reached the start yet
            e1.synchronize()
            if primed is not False or self.hold_us >= HOLD_MAX_US:
                return e0.elapsed_time(e1), primed, out
            self.hold_us *= 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log-n", type=int, default=30)
    ap.add_argument("--dists", default="UD,ND,CD")
    ap.add_argument("--k-log4-max", type=int, default=12)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--ks", default=None)
    ap.add_argument("--timing", choices=("gpu", "call"), default="gpu")
    a = ap.parse_args()
    if not 0 <= a.seed <= MASK64:
        ap.error("--seed must be in [0, 2^64)")
    try:
        import torch
    except ImportError:
        print(json.dumps({"peer": "torch_topk", "skipped": "torch not importable"}))
        return 0
    if not torch.cuda.is_available():
        print(json.dumps({"peer": "torch_topk", "skipped": "no CUDA device"}))
        return 0
    dev = torch.device("cuda")
    gpu = torch.cuda.get_device_name(0)
    ident = {"gpu": gpu}
    uuid = gpu_uuid(torch)
    if uuid:
        ident["uuid"] = uuid
    n = 1 << a.log_n
    if a.ks:
        try:
            ks = [int(x) for x in a.ks.split(",")]
        except ValueError:
            ap.error("--ks: positive integers separated by commas")
        if any(k < 1 for k in ks):
            ap.error("--ks: positive integers separated by commas")
    else:
        ks = [4 ** j for j in range(a.k_log4_max + 1)]
    ks = [k for k in ks if k <= n]
    timer = Timer(torch, a.timing == "gpu")
    for dist in a.dists.split(","):
        v = gen_torch(torch, a.seed, n, dist, dev)
        want = [gen_py(a.seed, i, dist) - (1 << 31) for i in range(min(n, SELF_CHECK))]
        if v[:len(want)].tolist() != want:
            print(json.dumps({"peer": "torch_topk", **ident, "seed": a.seed, "dist": dist,
                              "error": "generator mismatch with gen_core.h"}))
            return 1
        for k in ks:
            ms = []
            unprimed = 0
            for r in range(a.reps + 1):            # r == 0: warm-up
                t, primed, (vals, idx) = timer.time(lambda: torch.topk(v, k, largest=True, sorted=False))
                if r:
                    ms.append(t)
                    unprimed += primed is False
            m = vals.min()
            ok = int((v > m).sum().item() == (vals > m).sum().item()
                     and bool((v[idx] == vals).all().item())
                     and torch.unique(idx).numel() == k)
            ms.sort()
            print(json.dumps({"peer": "torch_topk", **ident, "seed": a.seed, "n": n, "k": k, "dist": dist,
                              "dtype": "u32",
                              "ms_median": round(ms[len(ms) // 2], 6), "ms_min": round(ms[0], 6),
                              "ms_max": round(ms[-1], 6), "reps": len(ms), "verified": ok,
                              "torch": torch.__version__, "timing": a.timing, "unprimed": unprimed}),
                  flush=True)
            del vals, idx
        del v
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
