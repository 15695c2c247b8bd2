#!/bin/sh
# mpi.sh -- step `mpi` of tests/gpu/run.sh (issue 12; paper section 5.4,
# Table 2): bin/drtopk-mpi with the CUDA backend.
#  1. checks (pass/fail): under mpirun -np 1..4 the top-k values equal the
#     single-process `drtopk run`'s and the distributed --verify passes, for
#     n not divisible by the ranks, k larger than one rank's share, all-equal
#     data, k = 1, k = n, and out of core (--device-cap); several ranks on one
#     GPU (--gpu 0), and one rank per GPU when two are visible; a rank given a
#     GPU that does not exist ends every rank non-zero, in bounded time.
#  2. Table 2 (benchmarks, never pass/fail): |V| = 2^30..2^34 (what the GPUs
#     hold), k = 128, on 1 GPU and on 2 when two are visible, in core; then out
#     of core with --device-cap on one GPU; rows go to $DB (table multi_gpu),
#     a summary table is printed last.
# Environment: DRTOPK_BIN_DIR (bin), DB ($OUT/results.sqlite), OUT (out/gpu-run),
#   MPI_LOG_N_MAX (34) the largest log2 |V| of Table 2 in core, MPI_OOC_LOG_N
#   ("31 32") the log2 |V| of the one-GPU out-of-core rows (pinned host memory:
#   4 bytes an element), MPI_REPS (5).
set -u
BIN=${DRTOPK_BIN_DIR:-bin}
OUT=${OUT:-out/gpu-run}
DB=${DB:-$OUT/results.sqlite}
LOG_N_MAX=${MPI_LOG_N_MAX:-34}
OOC_LOG_N=${MPI_OOC_LOG_N:-"31 32"}
REPS=${MPI_REPS:-5}
MPI_TIMEOUT=300       # seconds per mpirun: a hang is a failure, not a stuck machine
K_TABLE2=128          # the paper's Table 2 k
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# containers often forbid the cross-memory attach Open MPI 4's shared-memory
# transport tries first (it then prints errors per message): copy through the buffer
export OMPI_MCA_btl_vader_single_copy_mechanism="${OMPI_MCA_btl_vader_single_copy_mechanism:-none}"
mkdir -p "$OUT"
fails=0
checks=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/drtopk_mpi.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
echo "mpi: $gpus GPU(s) visible; $(mpirun --version 2>&1 | head -1)"

mpi() {
    np=$1
    shift
    timeout "$MPI_TIMEOUT" mpirun --oversubscribe -np "$np" "$BIN/drtopk-mpi" "$@"
}

# same_values REF GOT "RUN OPTIONS": both best first; equal as keys of the
# library's order (for floats -0.0 == +0.0 and every NaN is one key), so two
# correct sorts may differ in the bits they put first among equal keys
same_values() {
    cmp -s "$1" "$2" && return 0
    case $3 in *f32*) ;; *) echo "bytes differ ($(cmp "$1" "$2" 2>&1 | head -1))"; return 1 ;; esac
    python3 -c 'import sys, array, math
def keys(p):
    a = array.array("f"); a.frombytes(open(p, "rb").read())
    return ["nan" if math.isnan(x) else x + 0.0 for x in a]
r, g = keys(sys.argv[1]), keys(sys.argv[2])
bad = [i for i in range(min(len(r), len(g))) if r[i] != g[i]]
if len(r) != len(g) or bad:
    print("%d vs %d values, first difference at %s" % (len(r), len(g), bad[:1])); sys.exit(1)' "$1" "$2"
}

# check NAME RANKS "RUN OPTIONS" "EXTRA drtopk-mpi OPTIONS" (the options split into words)
# shellcheck disable=SC2086
check() {
    name=$1 ranks=$2 opts=$3 extra=$4
    "$BIN/drtopk" run --backend cuda $opts --reps 1 --sorted --output "$tmp/ref" > /dev/null 2>&1 ||
        { echo "FAIL $name: the single-process reference failed"; fails=$((fails + 1)); return; }
    for np in $ranks; do
        checks=$((checks + 1))
        rm -f "$tmp/got.values"
        if ! out=$(mpi "$np" --backend cuda $opts $extra --reps 1 --verify --output "$tmp/got" 2>&1); then
            echo "FAIL $name np=$np: $(echo "$out" | tail -3)"; fails=$((fails + 1)); continue
        fi
        if ! echo "$out" | grep -q "verify:    PASS"; then
            echo "FAIL $name np=$np: verify failed: $(echo "$out" | grep '^verify' | head -2)"; fails=$((fails + 1)); continue
        fi
        if ! why=$(same_values "$tmp/ref.values" "$tmp/got.values" "$opts"); then
            echo "FAIL $name np=$np: values differ from drtopk run: $why"; fails=$((fails + 1)); continue
        fi
        echo "ok   $name np=$np $(echo "$out" | grep '^backend:')"
    done
}

echo "== checks against the single-process run (CUDA backend)"
check "uneven n" "1 2 3 4" "--n 1000003 --k 1000 --dist ND" ""
check "k > one rank's share" "2 4" "--n 100003 --k 60000 --dtype i32" ""
check "ties across ranks" "1 3 4" "--n 1000001 --k 4097 --dist EQ" ""
check "k = 1" "1 4" "--n 2^20+3 --k 1 --dist CD" ""
check "k = n" "1 4" "--n 65539 --k 65539 --dtype f32 --dist SPECIAL" ""
check "out of core" "1 2 4" "--n 2^24+5 --k 1000" "--device-cap 2^20"
check "out of core, ties" "2 3" "--n 2^22+1 --k 5000 --dist FEW" "--device-cap 2^18"
check "several ranks on GPU 0" "4" "--n 2^24+1 --k 128" "--gpu 0"
if [ "$gpus" -ge 2 ]; then
    check "one rank per GPU" "2" "--n 2^26+7 --k 128 --dist ND" "--gpu 0,1"
    check "two GPUs, out of core" "2" "--n 2^26+7 --k 128" "--gpu 0,1 --device-cap 2^23"
fi
checks=$((checks + 1))
t0=$(date +%s)
if out=$(mpi 2 --backend cuda --n 2^20 --k 8 --gpu 0,99 2>&1); then
    echo "FAIL bad --gpu on rank 1: exit 0"; fails=$((fails + 1))
elif [ $(($(date +%s) - t0)) -ge "$MPI_TIMEOUT" ] || ! echo "$out" | grep -q "rank 1 of 2 failed"; then
    echo "FAIL bad --gpu on rank 1: $(echo "$out" | head -3)"; fails=$((fails + 1))
else
    echo "ok   bad --gpu on rank 1 ends every rank: $(echo "$out" | grep 'drtopk-mpi: error' | head -1)"
fi
echo "mpi checks: $((checks - fails)) passed, $fails failed"

echo "== Table 2 (k = $K_TABLE2, $REPS reps): rows into $DB"
table2() {
    np=$1
    shift
    if out=$(mpi "$np" --backend cuda --k "$K_TABLE2" --reps "$REPS" --db "$DB" --json "$@" 2> "$tmp/err"); then
        echo "row: np=$np $*: $out"
    else
        echo "row FAILED: np=$np $*: $(tail -3 "$tmp/err")"
    fi
}
log=30
while [ "$log" -le "$LOG_N_MAX" ]; do
    table2 1 --n "2^$log" --gpu 0 --device-cap 2^36
    [ "$gpus" -ge 2 ] && table2 2 --n "2^$log" --gpu 0,1 --device-cap 2^36
    log=$((log + 1))
done
# out of core on one GPU: the paper's 2^30 sub-vectors, and smaller ones
for log in $OOC_LOG_N; do
    table2 1 --n "2^$log" --gpu 0 --device-cap 2^30
    table2 1 --n "2^$log" --gpu 0 --device-cap 2^28
done
[ "$gpus" -ge 2 ] && table2 2 --n "2^33" --gpu 0,1 --device-cap 2^30

echo "== summary (medians, ms; compute/reload of the slowest rank, comm at rank 0)"
SUMMARY_SQL="SELECT m.n, m.ranks, m.gpus, m.device_cap, m.out_of_core, m.chunks, m.filtered,
    printf('%.2f', m.total_ms), printf('%.2f', m.compute_ms), printf('%.2f', m.reload_ms),
    printf('%.3f', m.comm_ms), printf('%.2f', 100.0 * m.comm_ms / m.total_ms),
    CASE WHEN m.reload_ms > 0 THEN printf('%.1f', m.n * 4.0 / m.ranks / (m.reload_ms * 1e6)) ELSE '' END,
    CASE WHEN m.link_gbps > 0 THEN printf('%.1f', m.link_gbps) ELSE '' END,
    CASE WHEN m.reload_ms > 0 THEN printf('%.2f', m.total_ms / m.reload_ms) ELSE '' END,
    (SELECT printf('%.2f', o.total_ms / m.total_ms) FROM multi_gpu o WHERE o.machine_id = m.machine_id
        AND o.git_commit = m.git_commit AND o.n = m.n AND o.k = m.k AND o.ranks = 1 AND o.out_of_core = 0),
    mc.name
  FROM multi_gpu m JOIN machines mc ON mc.id = m.machine_id WHERE m.k = $K_TABLE2
  ORDER BY m.out_of_core, m.n, m.ranks, m.device_cap DESC"
# reload GB/s: bytes of a rank's slice over its copies' own time; link GB/s: a
# copy alone (the target: reload >= 85% of it); total/reload near 1: compute
# hidden behind the copies
echo "n|ranks|gpus|device_cap|ooc|chunks|filtered|total|compute|reload|comm|comm%|reload GB/s|link GB/s|total/reload|speedup vs 1 GPU in core|gpu"
if command -v sqlite3 > /dev/null; then
    sqlite3 "$DB" "$SUMMARY_SQL"
else
    python3 -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print("|".join("" if x is None else str(x) for x in r))' \
        "$DB" "$SUMMARY_SQL"
fi
[ "$fails" -eq 0 ]
