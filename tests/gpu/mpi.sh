#!/bin/sh
# mpi.sh -- step `mpi` of tests/gpu/run.sh (paper section 5.4, Table 2):
# bin/drtopk-mpi with the CUDA backend, in three parts; on a 4-GPU node the
# three together take about 7 minutes.
#  1. checks (pass/fail): for every key width (u32 i32 f32 f16 bf16 u64 i64
#     f64) and k in MPI_CHECK_KS, on MPI_CHECK_RANKS ranks (one GPU each
#     where the node has them), in core, the top-k values (--sorted) equal the
#     CPU reference (`drtopk run --backend cpu --sorted`) and the distributed
#     --verify passes; the run names its exchange (CUDA IPC between GPUs that
#     reach each other, else the fallback and why); on the most ranks also
#     without --sorted (the gathered parts as they come: --verify, and the
#     values as a multiset equal the reference's).  For 16-, 32- and 64-bit
#     keys also the MPI fallback (--no-ipc) and out of core (--device-cap) on
#     2 ranks; ties on four ranks sharing GPU 0 (IPC on one GPU);
#     --deterministic against `drtopk run --backend cpu --deterministic` (bits
#     sorted, positions unsorted; both exchanges, ties across ranks); a rank given
#     a GPU that does not exist ends every rank, in bounded time.
#  2. compute-sanitizer memcheck of the MPI path on small inputs, two ranks:
#     the CUDA IPC exchange in core and out of core (16-, 32-, 64-bit keys)
#     and the pinned-staging fallback (--no-ipc).
#  3. Table 2 (benchmarks, never pass/fail): |V| = 2^MPI_TABLE2_LOG_N u32, k
#     in MPI_TABLE2_KS, R = 1, 2, 4 (as many as the node has GPUs), one
#     rank per GPU, in core, every row verified and stored in $DB (table
#     multi_gpu); `drtopk run` on GPU 0 beside them; at k = 2^24 the same
#     ranks with --no-ipc (logged, not stored: the table's key has no column
#     for the exchange, so the row would replace the IPC one); out of core
#     (the paper's 2^30 sub-vectors) with MPI_TABLE2_OOC=1; a summary table
#     last (experiments/tab2_multigpu.sh draws it).
# Every mpirun's output is kept and packed into $OUT/mpi-runs.tar.gz; the
# log (stdout) has one line per check or row.
# Environment: DRTOPK_BIN_DIR (bin), DB ($OUT/results.sqlite), OUT (out/gpu-run),
#   MPI_PARTS ("checks memcheck table2"), MPI_DTYPES (every width),
#   MPI_CHECK_RANKS ("2 4" on a node of 4 GPUs or more, else "1 2"),
#   MPI_CHECK_KS ("128 2^24"), MPI_TABLE2_LOG_N (32), MPI_TABLE2_OOC (0),
#   MPI_TABLE2_KS ("128 2^20 2^24"), MPI_REPS (5).
# Expected time on 4 x H200: checks about 3.5 min, memcheck about 1 min,
# Table 2 about 2.5 min (out of core adds about 3 min).
set -u
BIN=${DRTOPK_BIN_DIR:-bin}
OUT=${OUT:-out/gpu-run}
DB=${DB:-$OUT/results.sqlite}
PARTS=${MPI_PARTS:-"checks memcheck table2"}
DTYPES=${MPI_DTYPES:-"u32 i32 f32 f16 bf16 u64 i64 f64"}
CHECK_KS=${MPI_CHECK_KS:-"128 2^24"}
TABLE2_LOG_N=${MPI_TABLE2_LOG_N:-32}
TABLE2_OOC=${MPI_TABLE2_OOC:-0}
REPS=${MPI_REPS:-5}
MPI_TIMEOUT=300       # seconds per mpirun: a hang is a failure, not a stuck machine
CHECK_N=2^25+3        # the checks' |V|: above the largest k checked, odd so slices are uneven
CHECK_CAP=2^22        # the checks' out-of-core sub-vector: several per slice
FALLBACK_DTYPES="u32 f16 u64"   # one key type per width for the fallback and out-of-core checks
MEMCHECK_N=2^16+3     # compute-sanitizer runs 10-100x slower: small inputs
TABLE2_KS=${MPI_TABLE2_KS:-"128 2^20 2^24"}
NO_IPC_K=2^24         # Table 2's k where the fallback's cost is measured beside CUDA IPC
OOC_CAP=2^30          # the paper's sub-vector (section 5.4): Table 2's out-of-core rows
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# containers often forbid the cross-memory attach Open MPI 4's shared-memory
# transport tries first (it then prints errors per message): copy through the buffer
export OMPI_MCA_btl_vader_single_copy_mechanism="${OMPI_MCA_btl_vader_single_copy_mechanism:-none}"
mkdir -p "$OUT"
fails=0
checks=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/drtopk_mpi.XXXXXX") || exit 2
mkdir -p "$tmp/runs"
# every mpirun's output goes into one archive, whatever ends the script
trap 'tar -czf "$OUT/mpi-runs.tar.gz" -C "$tmp" runs; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
if [ "$gpus" -ge 4 ]; then CHECK_RANKS=${MPI_CHECK_RANKS:-"2 4"}; else CHECK_RANKS=${MPI_CHECK_RANKS:-"1 2"}; fi
echo "mpi: $gpus GPU(s) visible; $(mpirun --version 2>&1 | head -1)"
nvidia-smi topo -m 2>/dev/null | head -$((gpus + 1))
# gpu_list R: one GPU per rank where the node has them, else all on GPU 0
gpu_list() {
    if [ "$1" -le "$gpus" ]; then seq -s, 0 $(($1 - 1)); else echo 0; fi
}

# mpi R ARGS...: one mpirun of drtopk-mpi; its command, exit code and output
# are also kept for the archive
mpi() {
    np=$1
    shift
    log=$tmp/runs/$(date +%H%M%S.%N).log
    timeout "$MPI_TIMEOUT" mpirun --oversubscribe -np "$np" "$BIN/drtopk-mpi" "$@" > "$log.out" 2> "$log.err"
    rc=$?
    cat "$log.out"
    cat "$log.err" >&2
    { echo "\$ mpirun --oversubscribe -np $np $BIN/drtopk-mpi $*"; echo "exit $rc"; echo "-- stdout"; cat "$log.out"
      echo "-- stderr"; cat "$log.err"; } > "$log"
    rm -f "$log.out" "$log.err"
    return $rc
}

fail() {
    echo "FAIL $*"
    fails=$((fails + 1))
}

# part NAME: whether MPI_PARTS asks for it
part() {
    case " $PARTS " in *" $1 "*) return 0 ;; *) return 1 ;; esac
}

# same_values REF GOT DTYPE: both best first; floats compared as keys of the
# library's order (-0.0 == +0.0, every NaN one key), so two correct sorts may
# differ in the bits they put first among equal keys
same_values() {
    cmp -s "$1" "$2" && return 0
    case $3 in f32|f64|f16|bf16) ;; *) echo "bytes differ ($(cmp "$1" "$2" 2>&1 | head -1))"; return 1 ;; esac
    python3 -c 'import sys, struct, math
fmt = {"f32": "f", "f64": "d", "f16": "e"}.get(sys.argv[3])
def keys(p):
    b = open(p, "rb").read()
    if fmt is None:     # bf16: the top half of an f32
        return [struct.unpack("<f", b"\0\0" + b[i:i + 2])[0] for i in range(0, len(b), 2)]
    return list(struct.unpack("<%d%s" % (len(b) // struct.calcsize(fmt), fmt), b))
r = ["nan" if math.isnan(x) else x + 0.0 for x in keys(sys.argv[1])]
g = ["nan" if math.isnan(x) else x + 0.0 for x in keys(sys.argv[2])]
bad = [i for i in range(min(len(r), len(g))) if r[i] != g[i]]
if len(r) != len(g) or bad:
    print("%d vs %d values, first difference at %s" % (len(r), len(g), bad[:1])); sys.exit(1)' "$1" "$2" "$3"
}

# exchange_ok OUT WANT: the run's exchange line names WANT (an extended
# regular expression of the ways: cuda-ipc, pinned-staging, ...), or the run
# fell back from CUDA IPC and says why (no peer access is a fact of the node,
# not a failure); prints the way, and the reason of a fallback
exchange_ok() {
    way=$(echo "$1" | sed -n 's/^exchange:  \([a-z-]*\).*/\1/p')
    why=$(echo "$1" | sed -n 's/^ *not CUDA IPC at rank \(.*\)/rank \1/p')
    echo "$way${why:+ (fallback: $why)}"
    echo "$way" | grep -Eqx "$2" || { [ "$2" = cuda-ipc ] && [ -n "$why" ]; }
}

# check NAME RANKS DTYPE "RUN OPTIONS" "EXTRA drtopk-mpi OPTIONS" EXCHANGE:
# the CPU reference of RUN OPTIONS is $tmp/ref (made by the caller);
# EXCHANGE as exchange_ok's
# shellcheck disable=SC2086
check() {
    name=$1 np=$2 dtype=$3 opts=$4 extra=$5 want=$6
    checks=$((checks + 1))
    rm -f "$tmp/got.values"
    if ! out=$(mpi "$np" --backend cuda $opts $extra --sorted --reps 1 --verify --output "$tmp/got" 2>&1); then
        fail "$name np=$np: $(echo "$out" | tail -3)"; return
    fi
    if ! echo "$out" | grep -q "verify:    PASS"; then
        fail "$name np=$np: verify failed: $(echo "$out" | grep '^verify' | head -2)"; return
    fi
    if ! why=$(same_values "$tmp/ref.values" "$tmp/got.values" "$dtype"); then
        fail "$name np=$np: values differ from the CPU reference: $why"; return
    fi
    if ! ex=$(exchange_ok "$out" "$want"); then
        fail "$name np=$np: exchange $ex, expected $want"; return
    fi
    echo "ok   $name np=$np: exchange $ex; $(echo "$out" | grep '^placement:' | cut -c12-70)"
}

# check_unsorted NAME RANKS DTYPE "RUN OPTIONS" "EXTRA drtopk-mpi OPTIONS":
# without --sorted the result comes in the gathered parts' order: --verify
# passes and its values, as a multiset of the library's keys, equal the
# reference's ($tmp/ref)
# shellcheck disable=SC2086
check_unsorted() {
    name=$1 np=$2 dtype=$3 opts=$4 extra=$5
    checks=$((checks + 1))
    rm -f "$tmp/got.values"
    if ! out=$(mpi "$np" --backend cuda $opts $extra --reps 1 --verify --output "$tmp/got" 2>&1); then
        fail "$name np=$np: $(echo "$out" | tail -3)"; return
    fi
    if ! echo "$out" | grep -q "verify:    PASS"; then
        fail "$name np=$np: verify failed: $(echo "$out" | grep '^verify' | head -2)"; return
    fi
    if ! why=$(python3 -c 'import sys, struct, math
t = sys.argv[3]
w = {"f16": 2, "bf16": 2, "u64": 8, "i64": 8, "f64": 8}.get(t, 4)
fmt = {"u32": "I", "i32": "i", "f32": "f", "f16": "e", "u64": "Q", "i64": "q", "f64": "d"}.get(t)
def keys(p):      # floats as the library orders them: -0.0 == +0.0, every NaN one key
    b = open(p, "rb").read()
    if fmt is None:   # bf16: the top half of an f32
        v = [struct.unpack("<f", b"\0\0" + b[i:i + 2])[0] for i in range(0, len(b), 2)]
    else:
        v = list(struct.unpack("<%d%s" % (len(b) // w, fmt), b))
    return sorted((1, 0.0) if isinstance(x, float) and math.isnan(x) else (0, x + 0) for x in v)
r, g = keys(sys.argv[1]), keys(sys.argv[2])
if r != g:
    print("%d vs %d values, the multisets differ" % (len(r), len(g))); sys.exit(1)' "$tmp/ref.values" "$tmp/got.values" "$dtype"); then
        fail "$name np=$np: values differ from the CPU reference: $why"; return
    fi
    echo "ok   $name np=$np (unsorted): $(echo "$out" | grep '^exchange:' | cut -c12-90)"
}

# check_det NAME RANKS "RUN OPTIONS" "EXTRA drtopk-mpi OPTIONS": with
# --deterministic the result is the CPU reference's ($tmp/ref, made with
# --deterministic --sorted) bit for bit when sorted (values and positions), and
# its positions as a set when not
# shellcheck disable=SC2086
check_det() {
    name=$1 np=$2 opts=$3 extra=$4
    checks=$((checks + 1))
    rm -f "$tmp/got.values" "$tmp/got.indices"
    if ! out=$(mpi "$np" --backend cuda $opts $extra --deterministic --sorted --reps 1 --verify --output "$tmp/got" 2>&1); then
        fail "$name np=$np: $(echo "$out" | tail -3)"; return
    fi
    if ! echo "$out" | grep -q "verify:    PASS" || ! cmp -s "$tmp/ref.values" "$tmp/got.values" ||
        ! cmp -s "$tmp/ref.indices" "$tmp/got.indices"; then
        fail "$name np=$np: not the CPU reference's bits ($(cmp "$tmp/ref.indices" "$tmp/got.indices" 2>&1 | head -1))"
        return
    fi
    if ! out=$(mpi "$np" --backend cuda $opts $extra --deterministic --reps 1 --output "$tmp/got" 2>&1) ||
        [ "$(od -An -v -t u8 "$tmp/ref.indices" | tr -s ' ' '\n' | sort -n)" != \
          "$(od -An -v -t u8 "$tmp/got.indices" | tr -s ' ' '\n' | sort -n)" ]; then
        fail "$name np=$np (unsorted): not the CPU reference's positions: $(echo "$out" | tail -2)"; return
    fi
    echo "ok   $name np=$np (sorted and unsorted): $(echo "$out" | grep '^exchange:' | cut -c12-90)"
}

# the way the lists move between GPUs of one node, and with --no-ipc
NO_IPC_WAYS="pinned-staging|cuda-aware-mpi"
in_list() { case " $2 " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

part checks && echo "== checks against the CPU reference (every key width, k in $CHECK_KS, R in $CHECK_RANKS)"
part checks && for t in $DTYPES; do
    for k in $CHECK_KS; do
        opts="--n $CHECK_N --k $k --dtype $t --dist ND"
        # shellcheck disable=SC2086
        if ! "$BIN/drtopk" run --backend cpu $opts --reps 1 --sorted --output "$tmp/ref" > /dev/null 2>&1; then
            fail "$t k=$k: the CPU reference failed"; continue
        fi
        for np in $CHECK_RANKS; do
            want=cuda-ipc
            [ "$np" -eq 1 ] && want=none
            check "$t k=$k in core" "$np" "$t" "$opts" "--gpu $(gpu_list "$np")" "$want"
        done
        np=${CHECK_RANKS##* }
        check_unsorted "$t k=$k in core" "$np" "$t" "$opts" "--gpu $(gpu_list "$np")"
        in_list "$t" "$FALLBACK_DTYPES" || continue
        check "$t k=$k in core, --no-ipc" 2 "$t" "$opts" "--gpu $(gpu_list 2) --no-ipc" "$NO_IPC_WAYS"
        check "$t k=$k out of core" 2 "$t" "$opts" "--gpu $(gpu_list 2) --device-cap $CHECK_CAP" cuda-ipc
    done
done
if part checks; then
    "$BIN/drtopk" run --backend cpu --n 2^24+1 --k 4097 --dist EQ --reps 1 --sorted --output "$tmp/ref" > /dev/null 2>&1
    check "ties, four ranks on GPU 0" 4 u32 "--n 2^24+1 --k 4097 --dist EQ" "--gpu 0" cuda-ipc
    # --deterministic: short lists (rank 0 gathers them all) and long ones (the rounds), ties across ranks
    np=${CHECK_RANKS##* }
    for spec in "u32 FEW 128" "u32 FEW 2^20" "f16 ND 4097" "u64 FEW 2^20" "f32 EQ 4097"; do
        set -- $spec
        opts="--n $CHECK_N --k $3 --dtype $1 --dist $2"
        # shellcheck disable=SC2086
        if ! "$BIN/drtopk" run --backend cpu $opts --reps 1 --deterministic --sorted --output "$tmp/ref" > /dev/null 2>&1; then
            fail "$1 $2 k=$3 deterministic: the CPU reference failed"; continue
        fi
        check_det "$1 $2 k=$3 deterministic" "$np" "$opts" "--gpu $(gpu_list "$np")"
    done
    check_det "f32 EQ k=4097 deterministic, --no-ipc" 2 "--n $CHECK_N --k 4097 --dtype f32 --dist EQ" \
        "--gpu $(gpu_list 2) --no-ipc"
    checks=$((checks + 1))
    t0=$(date +%s)
    if out=$(mpi 2 --backend cuda --n 2^20 --k 8 --gpu 0,99 2>&1); then
        fail "bad --gpu on rank 1: exit 0"
    elif [ $(($(date +%s) - t0)) -ge "$MPI_TIMEOUT" ] || ! echo "$out" | grep -q "rank 1 of 2 failed" ||
        ! echo "$out" | grep -q -- "--gpu 99 (node-local rank 1): this node shows $gpus GPU"; then
        fail "bad --gpu on rank 1: $(echo "$out" | head -3)"
    else
        echo "ok   bad --gpu on rank 1 ends every rank: $(echo "$out" | grep 'drtopk-mpi: error' | head -1)"
    fi
fi

part memcheck && echo "== compute-sanitizer memcheck of the MPI path (two ranks: CUDA IPC, and the --no-ipc fallback)"
if ! part memcheck; then
    :
elif command -v compute-sanitizer > /dev/null; then
    # KEY TYPE;EXCHANGE;OPTIONS
    for case_ in "u32;cuda-ipc;" "f16;cuda-ipc;" "u64;cuda-ipc;--device-cap 2^12" "u32;$NO_IPC_WAYS;--no-ipc --device-cap 2^12"; do
        t=${case_%%;*} rest=${case_#*;}
        want=${rest%%;*} extra=${rest#*;}
        checks=$((checks + 1))
        log=$tmp/runs/$(date +%H%M%S.%N)-memcheck.log
        # shellcheck disable=SC2086
        timeout "$MPI_TIMEOUT" mpirun --oversubscribe -np 2 compute-sanitizer --tool memcheck --error-exitcode 99 \
            "$BIN/drtopk-mpi" --backend cuda --n "$MEMCHECK_N" --k 300 --dtype "$t" --gpu "$(gpu_list 2)" --reps 2 \
            --warmup 0 --verify $extra > "$log" 2>&1
        rc=$?
        out=$(cat "$log")
        if [ "$rc" -eq 0 ] && echo "$out" | grep -q "verify:    PASS" && ! echo "$out" | grep -q "ERROR SUMMARY: [1-9]" &&
            ex=$(exchange_ok "$out" "$want"); then
            echo "ok   memcheck $t ${extra:-in core}: exchange $ex; $(echo "$out" | grep 'ERROR SUMMARY' | sort -u | tr '\n' ' ')"
        else
            fail "memcheck $t ${extra:-in core} (exit $rc, exchange $(exchange_ok "$out" "$want")): $(echo "$out" | grep -E 'ERROR|error|FAIL' | head -3)"
        fi
    done
else
    fail "memcheck: compute-sanitizer not on PATH"
fi
echo "mpi checks: $((checks - fails)) passed, $fails failed"

part table2 || { [ "$fails" -eq 0 ]; exit; }
echo "== Table 2: |V| = 2^$TABLE2_LOG_N, k in $TABLE2_KS, $REPS reps, every row verified: rows into $DB"
ranks_list="1 2"
[ "$gpus" -ge 4 ] && ranks_list="1 2 4"
# row R [--no-db] OPTIONS: one Table 2 run, stored in $DB unless --no-db
row() {
    np=$1
    shift
    store="--db $DB"
    if [ "$1" = --no-db ]; then store=""; shift; fi
    # shellcheck disable=SC2086
    if out=$(mpi "$np" --backend cuda --n "2^$TABLE2_LOG_N" --reps "$REPS" --verify $store --json \
            --gpu "$(gpu_list "$np")" "$@" 2> "$tmp/err"); then
        echo "row: np=$np $*: $out"
    else
        echo "row FAILED: np=$np $*: $(tail -3 "$tmp/err")"
    fi
}
for k in $TABLE2_KS; do
    one=$("$BIN/drtopk" run --backend cuda --gpu 0 --n "2^$TABLE2_LOG_N" --k "$k" --reps "$REPS" --json 2>&1 |
        sed -n 's/.*"ms_median": \([0-9.]*\).*/\1/p')
    echo "drtopk run, GPU 0: --n 2^$TABLE2_LOG_N --k $k: ${one:-failed} ms"
    for np in $ranks_list; do
        [ "$np" -le "$gpus" ] || continue
        row "$np" --k "$k"
        [ "$np" -gt 1 ] && [ "$k" = "$NO_IPC_K" ] && row "$np" --no-db --k "$k" --no-ipc
        [ "$TABLE2_OOC" = 1 ] && row "$np" --k "$k" --device-cap "$OOC_CAP"
    done
done

echo "== summary (medians, ms; compute/reload of the slowest rank, comm at rank 0)"
SUMMARY_SQL="SELECT m.n, m.k, m.dtype, m.ranks, m.gpus, CASE WHEN m.out_of_core THEN 'out (' || m.device_cap || ')' ELSE 'in' END,
    m.chunks, printf('%.2f', m.total_ms), printf('%.2f', m.compute_ms), printf('%.2f', m.reload_ms),
    printf('%.3f', m.comm_ms), printf('%.2f', 100.0 * m.comm_ms / m.total_ms),
    CASE WHEN m.link_gbps > 0 THEN printf('%.1f', m.link_gbps) ELSE '' END,
    (SELECT printf('%.2f', min(o.total_ms) / m.total_ms) FROM multi_gpu o WHERE o.machine_id = m.machine_id
        AND o.git_commit = m.git_commit AND o.n = m.n AND o.k = m.k AND o.dtype = m.dtype AND o.ranks = 1
        AND o.out_of_core = m.out_of_core),
    m.verify_ok, mc.name
  FROM multi_gpu m JOIN machines mc ON mc.id = m.machine_id WHERE m.n = (1 << $TABLE2_LOG_N)
  ORDER BY m.k, m.out_of_core, m.ranks"
# comm%: communication and merges over the total (target <= 5% at k = 2^24);
# speedup: one rank's total, same placement, over this row's (target >= 0.9 R)
echo "n|k|dtype|ranks|gpus|placement|chunks|total|compute|reload|comm|comm%|link GB/s|speedup vs 1 rank|verified|gpu"
if command -v sqlite3 > /dev/null; then
    sqlite3 "$DB" "$SUMMARY_SQL"
else
    python3 -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print("|".join("" if x is None else str(x) for x in r))' \
        "$DB" "$SUMMARY_SQL"
fi
[ "$fails" -eq 0 ]
