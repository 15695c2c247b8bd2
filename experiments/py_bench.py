#!/usr/bin/env python3
"""py_bench.py -- drtopk.topk from Python beside torch.topk on the GPU, timed the
same way: CUDA events around CALLS back-to-back calls from Python on one
stream (the per-call time a PyTorch program sees, Python and launch overhead
included), the median of --reps such spans; and our GPU time alone: the same
calls captured in one CUDA graph and replayed (no Python, no launch cost), so
drtopk's per-call overhead is the first time minus this one.  Workloads: the
single rows of decode-time sampling (1 x 4096, 1 x 65536 k 16, 1 x 131072
k 50), token sampling over a vocabulary (256 x 128k and 256 x 256k, k 50),
MoE routing (65536 x 256, k 8), ANN re-ranking (10000 x 8192 and
10000 x 10000, k 100) and long rows (16 x 2^24, k 1024); float32 keys
uniform in [0, 1) from torch.rand (seed --seed), largest, sorted (torch's
defaults).  Then sparse attention's top-k of index scores, k = 2048 per
query over the keys it sees (a query seeing fewer gets all of them), f32
and bf16: 1024 queries at the end of a 131072-key context (causal), 8192
causal queries from position 0, and 256 decoding sequences of 4096..131072
keys (seeded lengths).  There torch.topk takes the dense query x context
matrix with the unseen scores at -inf, as attention code calls it, and
drtopk.segmented_topk the seen scores one query after another (offsets,
no padding).  Every result is checked against torch.topk's values (for a
query, its first min(k, seen) of them).

Prints a table (microseconds per call, speed-up = torch / drtopk) and writes
one JSON line per (workload, method) to --jsonl for `tuner --import-peers`
(table peer_measurements): peers py.drtopk_topk, py.torch_topk (timing
"call") and py.drtopk_graph (timing "gpu"), dist UD, dtype f32, n = rows x
cols, k, peer_version = "<workload> RxC torch <version>", ms per call.
A workload whose call is slow gets fewer calls per span (at least
MIN_CALLS) so the whole run stays within about two minutes on an H200.

  PYTHONPATH=python python3 experiments/py_bench.py [--reps 5] [--seed 1] [--jsonl FILE] [--only NAME,...]
"""
import argparse
import functools
import json
import os
import sys

import torch

import drtopk

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
import torch_topk  # noqa: E402 -- experiments/peers: the GPU's UUID in machines.uuid form

CALLS = 200                  # back-to-back calls inside one timed span
MIN_CALLS = 10               # the fewest for a slow workload
SPAN_BUDGET_S = 0.25         # a span's target length: CALLS shrinks to fit it
WORKLOADS = [                # name, rows, cols, k
    ("decode-4k", 1, 4096, 16),
    ("decode-64k", 1, 65536, 16),
    ("decode-128k", 1, 131072, 50),
    ("sampling-128k", 256, 131072, 50),
    ("sampling-256k", 256, 262144, 50),
    ("moe", 65536, 256, 8),
    ("ann-8192", 10000, 8192, 100),
    ("ann-10000", 10000, 10000, 100),
    ("long-rows", 16, 1 << 24, 1024),
]
ATTENTION_K = 2048           # keys each query attends to (DeepSeek-style sparse attention's indexer)
ATTENTION = [                # name, queries, seen keys: (causal, context) or (uniform, lo, hi), dtype
    ("attn-prefill-128k", 1024, ("causal", 131072), torch.float32),
    ("attn-causal-8k", 8192, ("causal", 8192), torch.float32),
    ("attn-decode-128k", 256, ("uniform", 4096, 131072), torch.float32),
    ("attn-prefill-128k-bf16", 1024, ("causal", 131072), torch.bfloat16),
    ("attn-decode-128k-bf16", 256, ("uniform", 4096, 131072), torch.bfloat16),
]
DTYPE_NAMES = {torch.float32: "f32", torch.bfloat16: "bf16"}


def span_ms(fn, calls):
    """ms of `calls` back-to-back calls of fn between two CUDA events."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end)


def per_call(fn, calls, reps):
    """Median, min and max ms per call over reps spans (after one warm-up span), and every span's value."""
    span_ms(fn, calls)
    ms = sorted(span_ms(fn, calls) / calls for _ in range(reps))
    return ms[len(ms) // 2], ms[0], ms[-1], ms


def calls_for(fn):
    """CALLS, or fewer when one call is so slow that a span would pass SPAN_BUDGET_S."""
    one = span_ms(fn, 2) / 2
    return max(MIN_CALLS, min(CALLS, int(SPAN_BUDGET_S * 1e3 / max(one, 1e-6))))


def graph_of(fn, calls):
    """A CUDA graph of `calls` calls of fn (warmed up on a side stream first, as torch's capture needs)."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(calls):
            fn()
    return g


def dense_case(rows, cols, k, g):
    """A rows x cols workload: (drtopk's call, torch's call, whether drtopk's result is torch's, n, shape, its short
    form for the rows' peer_version, dtype)."""
    x = torch.rand((rows, cols), device="cuda", generator=g)
    ours, theirs = functools.partial(drtopk.topk, x, k), functools.partial(torch.topk, x, k)
    v, i = ours()
    want = torch.topk(x, k).values
    ok = torch.equal(v, want) and torch.equal(torch.gather(x, 1, i), v)
    return ours, theirs, ok, rows * cols, "%d x %d" % (rows, cols), "%dx%d" % (rows, cols), "f32"


def seen_keys(queries, rule, g):
    """The keys each query sees (int64, on the GPU): causal, the query at the end of a context (the last
    sees it all); uniform, seeded lengths in [lo, hi]."""
    if rule[0] == "causal":
        return torch.arange(rule[1] - queries + 1, rule[1] + 1, device="cuda", dtype=torch.int64)
    return torch.randint(rule[1], rule[2] + 1, (queries,), device="cuda", generator=g, dtype=torch.int64)


def attention_case(queries, rule, dtype, k, g):
    """A sparse-attention workload, as dense_case: torch.topk over the dense matrix with the unseen
    scores at -inf; drtopk.segmented_topk over the seen scores of each query in turn."""
    seen = seen_keys(queries, rule, g)
    width = int(seen.max())
    scores = torch.rand((queries, width), device="cuda", generator=g).to(dtype)
    visible = torch.arange(width, device="cuda")[None, :] < seen[:, None]
    dense = scores.masked_fill(~visible, float("-inf"))
    flat = scores[visible]                                  # row-major: each query's seen scores in turn
    offsets = torch.zeros(queries + 1, device="cuda", dtype=torch.int64)
    offsets[1:] = torch.cumsum(seen, 0)
    ours = functools.partial(drtopk.segmented_topk, flat, offsets, k)
    theirs = functools.partial(torch.topk, dense, k)
    v, i = ours()
    want = torch.topk(dense, k).values
    filled = torch.arange(k, device="cuda")[None, :] < torch.clamp(seen, max=k)[:, None]
    pos = offsets[:-1, None] + torch.clamp(i, min=0)
    ok = (torch.equal(v[filled], want[filled]) and torch.equal(flat[pos][filled], v[filled]) and
          bool((i[~filled] == -1).all()))
    shape = "%d queries, %d..%d keys" % (queries, int(seen.min()), width)
    return ours, theirs, ok, int(seen.sum()), shape, "%dq" % queries, DTYPE_NAMES[dtype]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jsonl", default=None, help="write tuner --import-peers lines here")
    ap.add_argument("--only", default="", help="comma separated workload names")
    a = ap.parse_args()
    if a.reps < 1:
        ap.error("--reps must be at least 1 (got %d)" % a.reps)
    if not torch.cuda.is_available():
        sys.exit("py_bench: no CUDA device")
    only = set(filter(None, a.only.split(",")))
    names = [w[0] for w in WORKLOADS] + [w[0] for w in ATTENTION]
    unknown = only - set(names)
    if unknown:
        ap.error("--only: unknown workloads %s (the workloads: %s)" % (",".join(sorted(unknown)), ",".join(names)))
    gpu = torch.cuda.get_device_properties(0).name
    uuid = torch_topk.gpu_uuid(torch)
    out = open(a.jsonl, "w") if a.jsonl else None
    print("py_bench on %s, torch %s: UD, largest, sorted; us per call (CUDA events around back-to-back calls, "
          "median of %d); sparse attention: drtopk.segmented_topk" % (gpu, torch.__version__, a.reps))
    print("| workload | shape | k | drtopk | torch.topk | speed-up | our GPU time (graph) | overhead |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    failed = 0
    g = torch.Generator(device="cuda").manual_seed(a.seed)
    cases = [(w[0], w[3], functools.partial(dense_case, w[1], w[2], w[3])) for w in WORKLOADS]
    cases += [(w[0], ATTENTION_K, functools.partial(attention_case, w[1], w[2], w[3], ATTENTION_K)) for w in ATTENTION]
    for name, k, case in cases:
        if only and name not in only:
            continue
        ours, theirs, ok, n, shape, tag, dtype = case(g)
        failed += not ok
        calls = min(calls_for(ours), calls_for(theirs))
        res = {"py.drtopk_topk": per_call(ours, calls, a.reps), "py.torch_topk": per_call(theirs, calls, a.reps)}
        graph = graph_of(ours, calls)
        med, lo, hi, spans = per_call(graph.replay, 1, a.reps)     # one replay = `calls` calls
        res["py.drtopk_graph"] = (med / calls, lo / calls, hi / calls, [m / calls for m in spans])
        del graph, ours, theirs
        us = {p: r[0] * 1e3 for p, r in res.items()}
        print("| %s | %s | %d | %.1f | %.1f | %.2fx | %.1f | %.1f |%s" % (
            name, shape, k, us["py.drtopk_topk"], us["py.torch_topk"], us["py.torch_topk"] / us["py.drtopk_topk"],
            us["py.drtopk_graph"], us["py.drtopk_topk"] - us["py.drtopk_graph"], "" if ok else " WRONG RESULT"))
        sys.stdout.flush()
        config = "%s %s torch %s" % (name, tag, torch.__version__)     # at most 63 bytes (the store's bound)
        for peer, (med, lo, hi, reps_ms) in res.items():
            line = {"peer": peer, "gpu": gpu, "peer_version": config,
                    "seed": a.seed, "dist": "UD", "dtype": dtype, "n": n, "k": k, "ms_median": med,
                    "ms_min": lo, "ms_max": hi, "reps": len(reps_ms), "reps_ms": reps_ms, "verified": int(ok),
                    "timing": "gpu" if peer == "py.drtopk_graph" else "call"}
            if uuid:
                line["uuid"] = uuid
            if out:
                out.write(json.dumps(line) + "\n")
        torch.cuda.empty_cache()
    if out:
        out.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
