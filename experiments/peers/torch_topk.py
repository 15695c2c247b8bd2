#!/usr/bin/env python3
"""torch_topk.py -- the PyTorch peer: torch.topk on the same
seeded data as drtopk (src/harness/gen_core.h's counter-based generator,
written once below over "ops" that run it on Python integers or on torch int64
tensors: the torch path generates on the GPU, and its first and last elements
are checked against the Python-integer path, which tests/bats/experiments.bats
checks bit for bit against `drtopk gen` for every key type and distribution),
timed like every drtopk row (CUDA events, one warm-up, median of 7; --timing
gpu, the default as the tuner's: torch.cuda._sleep holds the stream before the
start event until the topk call is enqueued, so the span is GPU time -- the
hold's length is calibrated once and doubled while the start event is found
already passed when the end event is enqueued, which is checked every
repetition (a rep that stays unprimed is counted in "unprimed"); --timing call:
events around the call on an idle stream, the host's enqueue included) and checked
with the O(n) counting rule (m = smallest returned key: count(V > m) ==
count(result > m); positions hold their keys).

Key types (--dtypes): f16 bf16 f32 f64 i32 i64 are torch's
float16 bfloat16 float32 float64 int32 int64 of the same bits.  torch.topk has
no uint32 or uint64 kernel, so u32 and u64 keys enter as int32 / int64 of the
bits with the top bit flipped (key ^ 2^31, key ^ 2^63): an order-preserving map
of the same bytes (the line's "keys" field says so).  torch orders floats by
value (NaN at the top, -0.0 == +0.0 in comparisons); the benchmark data (UD,
ND, CD) holds no NaN and no -0.0, so only the timings differ from drtopk's.

Prints one JSON line per (dtype, dist, k) like experiments/peers/cub_topk_peer.cu
(with the GPU's "uuid" when torch reports it, and the "seed"; `tuner
--import-peers` stores them); prints {"peer":"torch_topk","skipped":...} and
exits 0 when torch or CUDA is missing.

  torch_topk.py [--log-n 30] [--dists UD,ND,CD] [--k-log4-max 12] [--reps 7]
                [--seed 1] [--ks K,K,...] [--timing gpu|call] [--dtypes u32,...]
  --ks: these k (<= |V|) instead of 4^0 .. 4^E; --dtypes default u32
  torch_topk.py --gen-out FILE --n N --dist D --dtype T [--seed S] [--gen-ops python|torch]
  writes elements 0..N-1 as raw little-endian bits (drtopk gen's file) and exits:
  the generator's check (tests/bats/experiments.bats)
"""
import argparse
import json
import struct
import sys

SEED = 1                   # the tuner's and drtopk run's default seed: same data
MASK64 = (1 << 64) - 1
SIGN64 = 1 << 63
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
CD_FLOAT_SHIFT = 2         # floats keep CD's nesting on positive finite values: key >> 2
CHUNK = 1 << 25            # elements generated per step (bounds temporaries)
SELF_CHECK = 257           # elements at each end compared against the Python-integer generator
UUID_HEX_DIGITS = 32
HOLD_START_US = 50         # first hold before the start event: longer than a topk enqueue
HOLD_MAX_US = 100000       # doubling stops here (a call that synchronises is never primed)
CALIBRATE_CYCLES = 10 ** 7  # torch.cuda._sleep cycles timed once to convert us to cycles
BF16_ROUND = 0x7FFF        # float32 -> bfloat16 round to nearest even: + 0x7FFF + the kept lsb
# Key types: bits per element, and the float types' significand bits (the implicit one included).
WIDTH = {"u32": 32, "i32": 32, "f32": 32, "f16": 16, "bf16": 16, "u64": 64, "i64": 64, "f64": 64}
PRECISION = {"f16": 11, "bf16": 8, "f32": 24, "f64": 53}
UNSIGNED = ("u32", "u64")  # torch has no topk for them: the top bit flipped, as the signed type


def s64(x):
    """A uint64 value as the int64 with the same bits."""
    x &= MASK64
    return x - (1 << 64) if x & SIGN64 else x


def ones(w):
    """All ones in the low w bits, as int64 (-1 for 64)."""
    return s64((1 << w) - 1)


def srl(x, s):
    """Logical right shift of an int64 (Python int or torch tensor): the
    arithmetic shift masked to the shifted width."""
    return (x >> s) & ((1 << (64 - s)) - 1)


class IntOps:
    """The generator on Python integers holding int64 values."""
    wrap = staticmethod(s64)

    @staticmethod
    def where(c, a, b):
        return a if c else b

    @staticmethod
    def lookup(table, i):
        return table[i]

    @staticmethod
    def float_bits(x, dtype, i):
        """The bits of float value x (a float: exact in float32 unless f64) as dtype."""
        if dtype == "f64":
            return struct.unpack("<q", struct.pack("<d", x))[0]
        f = struct.unpack("<f", struct.pack("<f", x))[0]
        if dtype == "f16":
            return struct.unpack("<H", struct.pack("<e", f))[0]
        b = struct.unpack("<I", struct.pack("<f", f))[0]
        return (b + BF16_ROUND + ((b >> 16) & 1)) >> 16 if dtype == "bf16" else b

    @staticmethod
    def to_float(x):
        return float(x)


class TorchOps:
    """The generator on torch int64 tensors (wrapping arithmetic)."""

    def __init__(self, torch):
        self.torch = torch
        self.types = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64}
        self.ints = {16: torch.int16, 32: torch.int32, 64: torch.int64}

    @staticmethod
    def wrap(x):
        return x

    def where(self, c, a, b):
        return self.torch.where(c, a, b)

    def lookup(self, table, i):
        return self.torch.tensor(table, dtype=self.torch.int64, device=i.device)[i]

    def float_bits(self, x, dtype, i):
        if dtype != "f64":
            x = x.to(self.torch.float32)        # exact: the C code's float32 value
        w = WIDTH[dtype]
        return x.to(self.types[dtype]).view(self.ints[w]).to(self.torch.int64) & ones(w)

    def to_float(self, x):
        return x.to(self.torch.float64)


def mix(o, x):
    """gen_core.h's dh_mix64 (splitmix64's finaliser)."""
    x = x ^ srl(x, 30)
    x = o.wrap(x * s64(MIX_M1))
    x = x ^ srl(x, 27)
    x = o.wrap(x * s64(MIX_M2))
    return x ^ srl(x, 31)


def rand(o, seed, i, r):
    """dh_rand64: the r-th random word of element i."""
    key = mix(IntOps, s64(seed ^ (r << 56)))
    return mix(o, o.wrap(key + o.wrap((i + 1) * s64(GOLDEN64))))


def rand_bits(o, h, seed, i, w):
    """dh_rand_bits: w random bits (64: a word of its own)."""
    return rand(o, seed, i, 1) if w == 64 else srl(h, 64 - w)


def cd_key(o, seed, i, w):
    """dh_cd_key: nested dense buckets at the top of the w-bit key range."""
    h = rand(o, seed, i, 0)
    levels = min(w // CD_LEVEL_BITS, CD_LEVELS)
    level = o.where((h & CD_SPREAD_MASK) == 0, srl(h, 4) % (levels - 1), levels - 1)
    # base: the top CD_LEVEL_BITS * level bits of the key set
    top = (1 << w) - 1
    base = o.lookup([s64(top ^ (top >> (CD_LEVEL_BITS * lv))) for lv in range(levels)], level)
    r = rand_bits(o, h, seed, i, w)
    return base | (r & ~base)


def gen_bits(o, seed, i, dist, dtype):
    """gen_core.h's dh_gen_bits for UD, ND, CD: the low WIDTH[dtype] bits
    of element(s) i, as int64 (the 64-bit types' top bit is the sign)."""
    w = WIDTH[dtype]
    p = PRECISION.get(dtype)
    if dist == "UD":
        h = rand(o, seed, i, 0)
        if p is None:
            return rand_bits(o, h, seed, i, w)
        # 2^p equally spaced values in [-1, 1): exact
        m = srl(h, 64 - p) - (1 << (p - 1))
        return o.float_bits(o.to_float(m) * 2.0 ** -(p - 1), dtype, i)
    if dist == "ND":
        mask = (1 << ND_TERM_BITS) - 1
        s = 0
        for r in range(ND_TERMS // 3):
            h = rand(o, seed, i, r)
            s = s + (h & mask) + (srl(h, 20) & mask) + (srl(h, 40) & mask)
        c = s - (ND_TERMS // 2) * mask
        if p is not None:
            return o.float_bits(o.to_float(c) * 2.0 ** -ND_TERM_BITS, dtype, i)
        # >> of int64 floors, as dh_floor_shift
        return (ND_MEAN_U32 + ((c * ND_SD_U32 + (1 << (ND_TERM_BITS - 1))) >> ND_TERM_BITS)) & ones(w)
    if dist == "CD":
        key = cd_key(o, seed, i, w)
        if p is not None:
            return srl(key, CD_FLOAT_SHIFT)
        return key ^ (s64(1 << (w - 1)) if dtype in ("i32", "i64") else 0)   # drtopk_bits_from_key_any
    raise ValueError("dist %s: UD, ND or CD" % dist)


def gen_torch(torch, seed, n, dist, dtype, dev):
    """V on the device as the tensor torch.topk ranks: dtype's bits as its
    torch type (u32, u64: the top bit flipped, as int32, int64)."""
    o = TorchOps(torch)
    w = WIDTH[dtype]
    sign = s64(1 << (w - 1))
    flip = sign if dtype in UNSIGNED else 0
    ttype = o.types.get(dtype, o.ints[w])
    out = torch.empty(n, dtype=ttype, device=dev)
    for lo in range(0, n, CHUNK):
        i = torch.arange(lo, min(n, lo + CHUNK), dtype=torch.int64, device=dev)
        b = gen_bits(o, seed, i, dist, dtype) ^ flip
        if w < 64:
            b = (b ^ sign) - sign                # sign-extend the w-bit word
        out[lo:lo + len(i)] = b.to(o.ints[w]).view(ttype)
        del i, b
    return out


def gen_check(torch, seed, n, dist, dtype, dev):
    """The device generator against the Python-integer one at both ends of V:
    the positions where a wrong wrap or shift would show."""
    o = TorchOps(torch)
    idx = sorted(set(range(min(n, SELF_CHECK))) | set(range(max(0, n - SELF_CHECK), n)))
    got = gen_bits(o, seed, torch.tensor(idx, dtype=torch.int64, device=dev), dist, dtype).tolist()
    return got == [gen_bits(IntOps, seed, i, dist, dtype) for i in idx]


def gen_out(a):
    """--gen-out: elements 0..n-1 as drtopk gen writes them (raw little-endian bits)."""
    w = WIDTH[a.dtype]
    if a.gen_ops == "torch":
        import torch
        bits = gen_bits(TorchOps(torch), a.seed, torch.arange(a.n, dtype=torch.int64), a.dist, a.dtype).tolist()
    else:
        bits = [gen_bits(IntOps, a.seed, i, a.dist, a.dtype) for i in range(a.n)]
    fmt = {16: "<H", 32: "<I", 64: "<Q"}[w]
    with open(a.gen_out, "wb") as f:
        f.write(b"".join(struct.pack(fmt, b & ((1 << w) - 1)) for b in bits))
    return 0


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


def parse_list(ap, text, allowed, what):
    items = text.split(",")
    bad = [x for x in items if x not in allowed]
    if bad:
        ap.error("%s: %s not among %s" % (what, ",".join(bad), ",".join(allowed)))
    return items


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log-n", type=int, default=30)
    ap.add_argument("--dists", default="UD,ND,CD")
    ap.add_argument("--dtypes", default="u32")
    ap.add_argument("--k-log4-max", type=int, default=12)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--ks", default=None)
    ap.add_argument("--timing", choices=("gpu", "call"), default="gpu")
    ap.add_argument("--gen-out", default=None)
    ap.add_argument("--gen-ops", choices=("python", "torch"), default="python")
    ap.add_argument("--n", type=int, default=None)
    ap.add_argument("--dist", choices=("UD", "ND", "CD"), default="UD")
    ap.add_argument("--dtype", choices=tuple(WIDTH), default="u32")
    a = ap.parse_args()
    if not 0 <= a.seed <= MASK64:
        ap.error("--seed must be in [0, 2^64)")
    if a.gen_out:
        if a.n is None or a.n < 1:
            ap.error("--gen-out needs --n N >= 1")
        return gen_out(a)
    dists = parse_list(ap, a.dists, ("UD", "ND", "CD"), "--dists")
    dtypes = parse_list(ap, a.dtypes, tuple(WIDTH), "--dtypes")
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
    for dtype in dtypes:
        keys = {"keys": "int%d of the bits ^ 2^%d (order-preserving)" % (WIDTH[dtype], WIDTH[dtype] - 1)} \
            if dtype in UNSIGNED else {}
        for dist in dists:
            if not gen_check(torch, a.seed, n, dist, dtype, dev):
                print(json.dumps({"peer": "torch_topk", **ident, "seed": a.seed, "dist": dist, "dtype": dtype,
                                  "error": "generator mismatch with gen_core.h"}))
                return 1
            v = gen_torch(torch, a.seed, n, dist, dtype, dev)
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
                                  "dtype": dtype, **keys,
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
