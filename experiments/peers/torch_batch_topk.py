#!/usr/bin/env python3
"""torch_batch_topk.py -- the PyTorch peer and the read floor of the batched benchmark
item 5 (experiments/batch_bench.sh): batched torch.topk (values + indices,
unsorted, largest) on the very f32 data `drtopk batch` generates (seed, dist
UD: gen_core.h's 2^24 equally spaced values in [-1, 1), recomputed in torch
int64 arithmetic through torch_topk.py's generator and checked against its
pure-Python copy), and "read the input once": torch.sum over the same input,
the floor any top-k has to pay.  Timed like every drtopk row: CUDA events,
one warm-up, median of --reps; --timing gpu (the default, as `drtopk batch`):
torch_topk.py's Timer holds the stream before the start event until the call
is enqueued, so the span is GPU time; --timing call: events around the call.

Uniform rows (shape RxC) run one torch.topk over the R x C tensor.  Segments
(shape FILE.u64, offsets) have no batched torch.topk: they are binned by
log2 length (as drtopk's LRB bins), each bin padded with -inf to its longest
segment (padding untimed) and topped with one call per bin; the time is the
sum over the bins, k clamped to each bin's width.  Every result passes the
O(n) counting check per row: m = the row's smallest returned key,
count(row > m) == count(result > m).

Prints one JSON line per (workload, peer) for `tuner --import-peers`:
peers "batch.torch_topk" and "batch.read_once", dist UD, dtype f32, n the
elements, k, "peer_version" = the workload and its shape (the config),
"timing" and "unprimed" (repetitions whose hold stayed too short).

  torch_batch_topk.py --workloads FILE.tsv [--reps 7] [--seed 1] [--timing gpu|call]
  FILE.tsv: name <tab> RxC | offsets.u64 <tab> k   (experiments/batch_bench.sh)
"""
import argparse
import json
import struct
import sys

import torch_topk as tt

def timed(timer, reps, fn):
    """Median, min, max ms of fn() over reps after one warm-up (timer:
    torch_topk.Timer); repetitions left unprimed; fn's last result."""
    ms, res, unprimed = [], None, 0
    for r in range(reps + 1):
        t, primed, res = timer.time(fn)
        if r:
            ms.append(t)
            unprimed += primed is False
    ms.sort()
    return ms[len(ms) // 2], ms[0], ms[-1], unprimed, res


def rows_ok(torch, x, vals):
    """The counting check over the rows of x (2-D) and their results."""
    m = vals.min(dim=1, keepdim=True).values
    return bool(((x > m).sum(dim=1) == (vals > m).sum(dim=1)).all().item())


def read_offsets(path):
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) % 8 or len(raw) < 8:
        sys.exit("torch_batch_topk: %s is not a file of uint64 offsets" % path)
    return list(struct.unpack("<%dQ" % (len(raw) // 8), raw))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workloads", required=True)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--seed", type=int, default=tt.SEED)
    ap.add_argument("--timing", choices=("gpu", "call"), default="gpu")
    a = ap.parse_args()
    work = [line.rstrip("\n").split("\t") for line in open(a.workloads) if line.strip()]
    try:
        import torch
    except ImportError:
        torch = None
    why = "torch not importable" if torch is None else None if torch.cuda.is_available() else "no CUDA device"
    if why:
        for name, shape, k in work:
            for peer in ("batch.torch_topk", "batch.read_once"):
                print(json.dumps({"peer": peer, "skipped": why, "peer_version": name}))
        return 0
    dev = torch.device("cuda")
    timer = tt.Timer(torch, a.timing == "gpu")
    ident = {"gpu": torch.cuda.get_device_name(0)}
    uuid = tt.gpu_uuid(torch)
    if uuid:
        ident["uuid"] = uuid
    for name, shape, k in work:
        k = int(k)
        if "x" in shape and not shape.endswith(".u64"):
            rows, cols = (int(s) for s in shape.split("x"))
            offsets = None
            n = rows * cols
        else:
            offsets = read_offsets(shape)
            n = offsets[-1]
        x = tt.gen_torch(torch, a.seed, n, "UD", "f32", dev)
        if not tt.gen_check(torch, a.seed, n, "UD", "f32", dev):
            print(json.dumps({"peer": "batch.torch_topk", **ident, "peer_version": name,
                              "error": "generator mismatch with gen_core.h"}))
            return 1
        base = {**ident, "seed": a.seed, "dist": "UD", "dtype": "f32", "n": n, "k": k, "timing": a.timing}
        if offsets is None:
            x2 = x.view(rows, cols)
            med, lo, hi, unprimed, (vals, idx) = timed(timer, a.reps, lambda: torch.topk(x2, k, dim=1, largest=True,
                                                                                          sorted=False))
            ok = rows_ok(torch, x2, vals) and bool((torch.gather(x2, 1, idx) == vals).all().item())
            config = "%s %dx%d" % (name, rows, cols)
        else:
            bins = {}
            for s in range(len(offsets) - 1):
                length = offsets[s + 1] - offsets[s]
                if length:
                    bins.setdefault(length.bit_length(), []).append(s)
            padded = []
            for b in sorted(bins):
                segs = bins[b]
                width = max(offsets[s + 1] - offsets[s] for s in segs)
                t = torch.full((len(segs), width), float("-inf"), device=dev)
                for r, s in enumerate(segs):
                    t[r, :offsets[s + 1] - offsets[s]] = x[offsets[s]:offsets[s + 1]]
                padded.append((t, min(k, width)))
            med, lo, hi, unprimed, res = timed(timer, a.reps, lambda: [torch.topk(t, kb, dim=1, largest=True,
                                                                                  sorted=False) for t, kb in padded])
            ok = all(rows_ok(torch, t, v) for (t, _), (v, _) in zip(padded, res))
            config = "%s %d segs, %d bins" % (name, len(offsets) - 1, len(padded))   # the store keeps 63 bytes
            del padded, res
        print(json.dumps({"peer": "batch.torch_topk", **base, "ms_median": round(med, 4), "ms_min": round(lo, 4),
                          "ms_max": round(hi, 4), "reps": a.reps, "verified": int(ok), "unprimed": unprimed,
                          "peer_version": ("torch %s; " % torch.__version__) + config}), flush=True)
        med, lo, hi, unprimed, total = timed(timer, a.reps, lambda: x.sum())
        print(json.dumps({"peer": "batch.read_once", **base, "ms_median": round(med, 4), "ms_min": round(lo, 4),
                          "ms_max": round(hi, 4), "reps": a.reps, "verified": 1, "unprimed": unprimed,
                          "peer_version": "torch.sum; " + config}), flush=True)
        del x
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
