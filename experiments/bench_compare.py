#!/usr/bin/env python3
"""bench_compare.py -- the before/after table of two runs of tests/gpu/bench.sh
(their BENCH_JSON files, one JSON object per line), matched by (dist, dtype, n,
k, alpha, beta): median ms of each, the change in percent, and whether the workload counters
agree.  Both runs must come from the same GPU (checked by UUID) for the
comparison to mean anything.

    python3 experiments/bench_compare.py BEFORE.jsonl AFTER.jsonl [--limit PCT]

Prints a Markdown table and a last line with the largest |change|; exits 1
when a point is missing from one side or the GPUs differ (never because of a
timing: benchmarks are not tests).
"""
import json
import sys

COUNTERS = ("delegate_len", "first_selected", "concat_len", "scanned_subranges")


def load(path):
    rows = {}
    gpus = set()
    with open(path) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                rows[(r["dist"], r["dtype"], r["n"], r["k"], r["plan"]["alpha"], r["plan"]["beta"])] = r
                gpus.add((r["gpu"]["name"], r["gpu"]["uuid"]))
    return rows, gpus


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    before, gb = load(argv[1])
    after, ga = load(argv[2])
    ok = True
    if gb != ga:
        print(f"different GPUs: before {sorted(gb)}, after {sorted(ga)}")
        ok = False
    g = sorted(ga)[0] if ga else ("?", "?")
    print(f"GPU: {g[0]} ({g[1]})\n")
    print("| dist dtype | k | alpha, beta | before ms | after ms | change | counters |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    worst = 0.0
    for key in sorted(set(before) | set(after)):
        b, a = before.get(key), after.get(key)
        if b is None or a is None:
            print(f"| {key[0]} {key[1]} | {key[3]} | {key[4]}, {key[5]} | {'missing' if b is None else b['ms_median']} |"
                  f" {'missing' if a is None else a['ms_median']} | | |")
            ok = False
            continue
        ch = 100.0 * (a["ms_median"] - b["ms_median"]) / b["ms_median"]
        worst = max(worst, abs(ch))
        same = all(a.get(c) == b.get(c) for c in COUNTERS)
        k = key[3]
        kl = f"2^{k.bit_length() - 1}" if k & (k - 1) == 0 else str(k)
        print(f"| {key[0]} {key[1]} | {kl} | {key[4]}, {key[5]} | {b['ms_median']:.3f} | {a['ms_median']:.3f} | {ch:+.1f}% |"
              f" {'same' if same else 'DIFFER'} |")
    print(f"\nlargest |change|: {worst:.1f}%")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
