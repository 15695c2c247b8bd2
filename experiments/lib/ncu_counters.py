#!/usr/bin/env python3
"""ncu_counters.py -- Table 3 (paper 6.4): the global load and store
sectors of one `drtopk run` call, from NVIDIA Nsight Compute's raw CSV
(`ncu --csv --page raw --log-file NCU.csv`), summed over the call's kernels
(the harness's data generation and streaming-read kernels excluded), as the
TSV lines `tuner --import-counters` stores:
  algorithm dtype dist seed n k alpha beta flags counter value kernels
The configuration comes from the run's --json output (its plan's alpha, beta
and flags for a dr- algorithm, 0 for a standalone one).

  ncu_counters.py NCU.csv RUN.json NCU_VERSION >> counters.tsv
Exit 1 with a message naming the file when either cannot be read."""
import csv
import json
import sys

HARNESS_KERNELS = ("gen_kernel", "read_once_kernel")   # src/harness: data generation, read floor
PLAN_FLAGS = (("delegate", 1), ("filter", 2), ("shared_delegate", 4), ("skip_last_digit", 8), ("sorted", 16))
                                # drtopk.h's DRTOPK_* plan flags, as --json names them
METRICS = {                     # ncu metric -> the counter stored (32-byte sectors)
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": "global_load_sectors",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": "global_store_sectors",
}


def fail(msg):
    print("ncu_counters.py: " + msg, file=sys.stderr)
    sys.exit(1)


def main(argv):
    if len(argv) != 4:
        fail("usage: ncu_counters.py NCU.csv RUN.json NCU_VERSION")
    ncu_path, run_path, version = argv[1:]
    try:
        with open(run_path, encoding="utf-8") as f:
            run = json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: not drtopk run's --json output: %s" % (run_path, e))
    try:
        with open(ncu_path, encoding="utf-8", errors="replace") as f:
            lines = [l for l in f if l.startswith('"')]    # ncu's own ==PROF== lines are not CSV
    except OSError as e:
        fail("%s: %s" % (ncu_path, e))
    rows = list(csv.reader(lines))
    if len(rows) < 3 or "Kernel Name" not in rows[0]:
        fail("%s: no kernel rows (was the run profiled? ncu --csv --page raw)" % ncu_path)
    head = rows[0]
    name_col = head.index("Kernel Name")
    cols = {m: head.index(m) for m in METRICS if m in head}
    if len(cols) != len(METRICS):
        fail("%s: missing metrics %s" % (ncu_path, ", ".join(sorted(set(METRICS) - set(cols)))))
    sums = {m: 0.0 for m in METRICS}
    kernels = 0
    for r in rows[2:]:                                     # rows[1]: the units
        if any(h in r[name_col] for h in HARNESS_KERNELS):
            continue
        kernels += 1
        for m, c in cols.items():
            sums[m] += float(r[c].replace(",", "") or 0)
    if kernels == 0:
        fail("%s: only harness kernels were profiled" % ncu_path)
    dr = run["algo"].startswith("dr-")
    plan = run.get("plan") or {}
    cfg = [run["algo"], run["dtype"], run.get("dist") or "", str(run.get("seed") or 0), str(run["n"]), str(run["k"]),
           str(plan.get("alpha", 0) if dr else 0), str(plan.get("beta", 0) if dr else 0),
           str(sum(bit for key, bit in PLAN_FLAGS if plan.get(key)) if dr else 0)]
    print("# tool ncu %s" % version)
    for m in sorted(METRICS):
        print("\t".join(cfg + [METRICS[m], "%.0f" % sums[m], str(kernels)]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
