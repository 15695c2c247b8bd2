#!/bin/sh
# mpi.sh -- step `mpi` of tests/gpu/run.sh (paper section
# 5.4, Table 2): bin/drtopk-mpi with the CUDA backend.
#  1. checks (pass/fail): under mpirun -np 1..4 the top-k values equal the
#     single-process `drtopk run`'s and the distributed --verify passes, for
#     n not divisible by the ranks, k larger than one rank's share, all-equal
#     data, k = 1, k = n, and out of core (--device-cap); several ranks on one
#     GPU (--gpu 0); on every GPU count G of 2, 4, 8 the node has: one rank per
#     GPU, two ranks per GPU, and G GPUs out of core; a rank given a GPU that
#     does not exist ends every rank non-zero, in bounded time.
#  2. Table 2 (benchmarks, never pass/fail): |V| = 2^30..2^MPI_LOG_N_MAX,
#     k = 128, on each GPU count G (1, 2, 4, 8 up to the GPUs visible), one
#     rank per GPU.  A row runs in core when a rank's slice fits its GPU;
#     otherwise drtopk-mpi streams it from pinned host memory in the paper's
#     2^30 sub-vectors, which runs only where the host holds all of V twice
#     over (else the row is skipped and says why).  Then out of core with
#     --device-cap on one GPU and on the most GPUs; rows go to $DB (table
#     multi_gpu), a summary table is printed last.
# Environment: DRTOPK_BIN_DIR (bin), DB ($OUT/results.sqlite), OUT (out/gpu-run),
#   MPI_LOG_N_MAX the largest log2 |V| of Table 2 (35 with 4 or more GPUs,
#   else 34), MPI_OOC_LOG_N ("31 32") the log2 |V| of the one-GPU out-of-core
#   rows (pinned host memory: 4 bytes an element), MPI_REPS (5).
set -u
BIN=${DRTOPK_BIN_DIR:-bin}
OUT=${OUT:-out/gpu-run}
DB=${DB:-$OUT/results.sqlite}
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
# the GPU counts of Table 2 and of the per-count checks: powers of 2 up to the
# GPUs visible, and that count itself
counts=1
g=2
while [ "$g" -le "$gpus" ]; do counts="$counts $g"; g=$((g * 2)); done
case " $counts " in *" $gpus "*) ;; *) [ "$gpus" -ge 1 ] && counts="$counts $gpus" ;; esac
if [ "$gpus" -ge 4 ]; then LOG_N_MAX=${MPI_LOG_N_MAX:-35}; else LOG_N_MAX=${MPI_LOG_N_MAX:-34}; fi
# GPU 0's memory and the host's, in bytes (what decides in core / out of core / skipped)
gpu_mem=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0 2>/dev/null)
case $gpu_mem in ''|*[!0-9]*) gpu_mem=0 ;; *) gpu_mem=$((gpu_mem * 1048576)) ;; esac
host_mem=$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) * 1024))
GPU_MEM_SHARE=90                 # % of a GPU a slice may fill (drtopk-mpi's GPU_MEM_USABLE)
HOST_MEM_SHARE=50                # % of the host the pinned slices may fill: generating V needs its pages too
# gpu_list G: "0,1,...,G-1"
gpu_list() { seq -s, 0 $(($1 - 1)); }

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
for g in $counts; do
    [ "$g" -ge 2 ] || continue
    check "one rank per GPU, $g GPUs" "$g" "--n 2^26+7 --k 128 --dist ND" "--gpu $(gpu_list "$g")"
    check "two ranks per GPU, $g GPUs" "$((2 * g))" "--n 2^25+3 --k 3000 --dist CD" "--gpu $(gpu_list "$g")"
    check "$g GPUs, out of core" "$g" "--n 2^26+7 --k 128" "--gpu $(gpu_list "$g") --device-cap 2^23"
done
checks=$((checks + 1))
t0=$(date +%s)
if out=$(mpi 2 --backend cuda --n 2^20 --k 8 --gpu 0,99 2>&1); then
    echo "FAIL bad --gpu on rank 1: exit 0"; fails=$((fails + 1))
elif [ $(($(date +%s) - t0)) -ge "$MPI_TIMEOUT" ] || ! echo "$out" | grep -q "rank 1 of 2 failed" ||
    ! echo "$out" | grep -q -- "--gpu 99 (node-local rank 1): this node shows $gpus GPU"; then
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
# row NP LOG2N: one rank per GPU, in core where the slice fits the GPU, else
# streamed from pinned host memory if the host holds it, else skipped
row() {
    np=$1 log=$2
    slice=$(((1 << log) * 4 / np))
    if [ "$slice" -gt $((gpu_mem * GPU_MEM_SHARE / 100)) ] &&
        [ $(((1 << log) * 4)) -gt $((host_mem * HOST_MEM_SHARE / 100)) ]; then
        echo "row skipped: np=$np --n 2^$log: a slice of $slice bytes fits neither GPU 0 ($gpu_mem bytes)" \
            "nor, all $np together, $HOST_MEM_SHARE% of the host's $host_mem bytes"
        return
    fi
    table2 "$np" --n "2^$log" --gpu "$(gpu_list "$np")" --device-cap 2^36
}
log=30
while [ "$log" -le "$LOG_N_MAX" ]; do
    for g in $counts; do row "$g" "$log"; done
    log=$((log + 1))
done
# out of core: the paper's 2^30 sub-vectors, and smaller ones, on one GPU;
# then every GPU of the node streaming its 2^32-element slice at once
for log in $OOC_LOG_N; do
    table2 1 --n "2^$log" --gpu 0 --device-cap 2^30
    table2 1 --n "2^$log" --gpu 0 --device-cap 2^28
done
if [ "$gpus" -ge 2 ]; then
    for g in $counts; do most=$g; done
    log=$((32 + $(awk -v g="$most" 'BEGIN { print int(log(g) / log(2) + 0.5) }')))
    [ $(((1 << log) * 4)) -le $((host_mem * HOST_MEM_SHARE / 100)) ] &&
        table2 "$most" --n "2^$log" --gpu "$(gpu_list "$most")" --device-cap 2^30
fi

echo "== summary (medians, ms; compute/reload of the slowest rank, comm at rank 0)"
SUMMARY_SQL="SELECT m.n, m.ranks, m.gpus, m.device_cap, m.out_of_core, m.chunks, m.filtered,
    printf('%.2f', m.total_ms), printf('%.2f', m.compute_ms), printf('%.2f', m.reload_ms),
    printf('%.3f', m.comm_ms), printf('%.2f', 100.0 * m.comm_ms / m.total_ms),
    CASE WHEN m.reload_ms > 0 THEN printf('%.1f', m.n * 4.0 / m.ranks / (m.reload_ms * 1e6)) ELSE '' END,
    CASE WHEN m.link_gbps > 0 THEN printf('%.1f', m.link_gbps) ELSE '' END,
    CASE WHEN m.reload_ms > 0 THEN printf('%.2f', m.total_ms / m.reload_ms) ELSE '' END,
    (SELECT printf('%.2f', coalesce(min(CASE WHEN o.out_of_core = 0 THEN o.total_ms END), min(o.total_ms))
                           / m.total_ms) FROM multi_gpu o WHERE o.machine_id = m.machine_id
        AND o.git_commit = m.git_commit AND o.n = m.n AND o.k = m.k AND o.ranks = 1),
    mc.name
  FROM multi_gpu m JOIN machines mc ON mc.id = m.machine_id WHERE m.k = $K_TABLE2
  ORDER BY m.out_of_core, m.n, m.ranks, m.device_cap DESC"
# reload GB/s: bytes of a rank's slice over its copies' own time; link GB/s: a
# copy alone (the target: reload >= 85% of it); total/reload near 1: compute
# hidden behind the copies
echo "n|ranks|gpus|device_cap|ooc|chunks|filtered|total|compute|reload|comm|comm%|reload GB/s|link GB/s|total/reload|speedup vs 1 GPU (in core, else out of core)|gpu"
if command -v sqlite3 > /dev/null; then
    sqlite3 "$DB" "$SUMMARY_SQL"
else
    python3 -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print("|".join("" if x is None else str(x) for x in r))' \
        "$DB" "$SUMMARY_SQL"
fi
[ "$fails" -eq 0 ]
