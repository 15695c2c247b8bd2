#!/bin/sh
# run.sh -- everything one GPU-machine call does: build if
# needed (or use carried binaries), the GPU test suites against host
# references, compute-sanitizer memcheck and racecheck on the small cases, the
# mutation test (tests/gpu/mutation.sh), the pipeline benchmark (bench.sh) of
# this build and of an older one on the same GPU, the delegate build across
# alpha (experiments/delegate_sweep.sh), the tuner's quick sweep and the
# baseline-algorithm sweep into a SQLite database, the modern peers, and the
# multi-GPU / out-of-core runs of bin/drtopk-mpi (tests/gpu/mpi.sh, Table 2).
# Logs and the database go to $OUT (or out/gpu-run); a summary table is
# printed last.
#   RUN_STEPS="test py memcheck racecheck mutation bench-before bench sweep tune algos peers onepass regret figures datasets batch mpi" sh tests/gpu/run.sh
# (default: "test memcheck racecheck bench").
# Environment:
#   DRTOPK_BIN_DIR   carried programs (default bin; built with ninja if one is missing or
#                    cannot load its libraries: drtopk, tuner and drtopk-mpi load
#                    libdrtopk.so.0 from ../build or from their own folder, so carry it along)
#   GPU_PROGRAMS     the programs that must be there (default: every GPU program;
#                    "drtopk tuner" is enough for the steps bench, onepass, batch)
#   DRTOPK_BIN_TAR   a carried .tar.xz of programs (at its top or under bin/, with
#                    build/libdrtopk.so* beside bin/: tar -cJf x.tar.xz bin build/libdrtopk.so*):
#                    unpacked into $TMPDIR/drtopk-carried-bin and used as DRTOPK_BIN_DIR;
#                    mutants under its mutant/ (ninja mutants)
#   DRTOPK_BEFORE    step bench-before: an older drtopk binary, benchmarked
#                    by the same bench.sh (compare with step bench's table)
#   CCCL_PEER_INC    step peers: CCCL >= 3.2 headers for the CUB DeviceTopK
#                    peer, a folder or an nvidia-cuda-cccl wheel (.whl), or
#                    several separated by spaces (one build per CCCL version:
#                    the figures take each point's fastest); without them (or
#                    a carried cub_topk_peer) it is skipped
#   DATASETS_SRC     step datasets: the sources of experiments/datasets.sh
#                    (default out/datasets/src, made by its --sources-only)
#   ONEPASS_ARGS     step onepass: more options of experiments/onepass_bench.sh
#                    (e.g. "--sweeps small", "--sweeps large --dtypes u32,f16 --reps 3")
#   REGRET_ARGS      step regret: more options of experiments/plan_regret.sh (e.g. "--dtypes u32
#                    --n-log2 24..30", "--minutes 8"); REGRET_TUNED=1 adds --tuned (tuner --quick
#                    on the card, then the tuned plan's regret over the same grid)
#   TUNE_MINUTES (4) bounds the sweeps (step regret: its whole budget, unless REGRET_ARGS has
#                    --minutes; the grid takes longer: a rerun with the same DRTOPK_RUN_DB goes on);
#                    SANITIZER_TIMEOUT_S (240) each sanitizer run
#   RACECHECK_BATCH_SHARDS (4) processes that share test_batch --small's racecheck (the GPU is
#                    shared: about 1.2x faster than one; give it SANITIZER_TIMEOUT_S=480)
set -u
OUT=${OUT:-out/gpu-run}
BIN=${DRTOPK_BIN_DIR:-bin}
RUN_STEPS=${RUN_STEPS:-"test memcheck racecheck bench"}
SANITIZER_TIMEOUT_S=${SANITIZER_TIMEOUT_S:-240}
RACECHECK_BATCH_SHARDS=${RACECHECK_BATCH_SHARDS:-4}   # its ~1080 checks take ~420 s in one process (H200)
TUNE_MINUTES=${TUNE_MINUTES:-4}
DB=${DRTOPK_RUN_DB:-$OUT/results.sqlite}
ALGO_KS=1,4,16,64,256,1024,4096,16384,65536,262144,2^20,2^22,2^24
ALGOS=radix,dr-radix,radix-ggks,dr-radix-ggks,radix-ggks-oop,bucket,dr-bucket,bucket-oop,bitonic,dr-bitonic,sort-cub,sort-thrust,onepass,fused
GPU_PROGRAMS=${GPU_PROGRAMS:-"drtopk tuner test_gpu test_radix test_algos test_bitonic test_capture test_knn test_batch test_onepass test_small_n test_check"}
CUB_PEER_MIN_VERSION=300200      # CUB_VERSION of CCCL 3.2, the first with DeviceTopK
CUB_BATCH_MIN_VERSION=300500     # CCCL 3.5, the first with DeviceBatchedTopK (step batch)
mkdir -p "$OUT"
summary=""
add() { summary="$summary
$1"; }

if [ -n "${DRTOPK_BIN_TAR:-}" ]; then
    CARRIED=${TMPDIR:-/tmp}/drtopk-carried-bin   # outside $OUT: not fetched back
    rm -rf "$CARRIED"
    mkdir -p "$CARRIED"
    if tar -xJf "$DRTOPK_BIN_TAR" -C "$CARRIED"; then
        BIN=$CARRIED
        [ -d "$BIN/bin" ] && BIN=$BIN/bin
        add "binaries: unpacked $DRTOPK_BIN_TAR into $BIN"
    else
        echo "run.sh: cannot unpack $DRTOPK_BIN_TAR"; exit 1
    fi
fi
for p in $GPU_PROGRAMS; do
    if [ ! -x "$BIN/$p" ] || ldd "$BIN/$p" 2>/dev/null | grep -q 'not found'; then
        BIN=bin
        # shellcheck disable=SC2046 # one word per target
        ninja $(for q in $GPU_PROGRAMS; do printf 'bin/%s ' "$q"; done) > "$OUT/build.log" 2>&1 ||
            { tail -30 "$OUT/build.log"; exit 1; }
        add "binaries: built here ($BIN/$p was missing or could not load its libraries)"
        break
    fi
done
nvidia-smi -L 2>/dev/null

# suite + the case set each suite runs under a sanitizer (racecheck is slow:
# test_algos gets its reduced --tiny set there); prog:mode:N runs N processes
# of prog mode --shard I/N at once (a suite that takes --shard: the GPU is
# shared, the sanitizer's host work spreads over the CPU cores) and sums them
sanitize() {
    tool=$1; shift
    for pair in "$@"; do
        prog=${pair%%:*}; rest=${pair#*:}; mode=${rest%%:*}; shards=1
        [ "$rest" != "$mode" ] && shards=${rest#*:}
        t0=$(date +%s)
        log=$OUT/$tool-$prog.log
        if [ "$shards" -gt 1 ]; then
            i=0; pids=""
            while [ $i -lt "$shards" ]; do
                timeout "$SANITIZER_TIMEOUT_S" compute-sanitizer --tool "$tool" --error-exitcode 9 "$BIN/$prog" \
                    "$mode" --shard "$i/$shards" > "$log.$i" 2>&1 &
                pids="$pids $!"; i=$((i + 1))
            done
            rc=0
            for pid in $pids; do wait "$pid" || { r=$?; [ $r -gt $rc ] && rc=$r; }; done
            cat "$log".* > "$log" && rm -f "$log".*
            counts=$(awk '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3; n++ }
                          END { printf "%d passed, %d failed (%d of '"$shards"' shards finished)", p, f, n }' "$log")
            summ=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | sort | uniq -c | tr -s ' ' | tr '\n' ';')
        else
            timeout "$SANITIZER_TIMEOUT_S" compute-sanitizer --tool "$tool" --error-exitcode 9 "$BIN/$prog" "$mode" \
                > "$log" 2>&1
            rc=$?
            counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
            summ=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)
        fi
        label=$mode; [ "$shards" -gt 1 ] && label="$mode, $shards shards"
        add "$tool $prog $label: rc=$rc $summ | $counts ($(($(date +%s) - t0)) s)"
    done
}

# The include folder (holding cub/) of CCCL source $1 (one entry of
# CCCL_PEER_INC) -- a folder, or a wheel unpacked into $OUT/cccl-$2 -- when its
# CUB_VERSION is at least $3; else nothing.
cccl_peer_include() {
    src=$1
    [ -n "$src" ] || return 0
    case $src in
    *.whl)
        rm -rf "$OUT/cccl-$2"
        python3 -m zipfile -e "$src" "$OUT/cccl-$2" || return 0
        src=$OUT/cccl-$2 ;;
    esac
    ver=$(find "$src" -path '*/cub/version.cuh' 2>/dev/null | head -n 1)
    [ -n "$ver" ] || return 0
    v=$(sed -n 's/^#define CUB_VERSION \([0-9]*\).*/\1/p' "$ver")
    [ -n "$v" ] && [ "$v" -ge "$3" ] && dirname "$(dirname "$ver")"
}

# The CUB DeviceTopK peers: carried, or built here from each entry of
# CCCL_PEER_INC for this GPU's architecture.  Prints their paths on one line
# (none: no build) and a note for the summary.
# cub_peer [SOURCE.cu PROGRAM MIN_CUB_VERSION]: another peer (step batch).
cub_peer() {
    src_cu=${1:-experiments/peers/cub_topk_peer.cu} prog=${2:-cub_topk_peer} minv=${3:-$CUB_PEER_MIN_VERSION}
    if [ -x "$BIN/$prog" ]; then
        echo "$BIN/$prog"; echo "$prog carried"; return
    fi
    nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d '. ')
    arch=${cc:+-arch=sm_$cc}
    built="" note="" i=0
    for src in ${CCCL_PEER_INC:-}; do
        i=$((i + 1))
        inc=$(cccl_peer_include "$src" "$i" "$minv")
        if [ -z "$inc" ]; then
            note="$note; $src: no CUB >= $minv headers"
        elif "$nvcc" -O3 -std=c++17 "${arch:--arch=native}" -Isrc/lib -Isrc/harness -Itests/gpu -I"$inc" \
               --expt-relaxed-constexpr -o "$OUT/$prog-$i" "$src_cu" \
               > "$OUT/peer-build-$prog-$i.log" 2>&1; then
            built="$built $OUT/$prog-$i"; note="$note; built with $inc"
        else
            note="$note; $src: build failed ($OUT/peer-build-$prog-$i.log)"
        fi
    done
    if [ -z "$built" ]; then
        echo none; echo "$prog skipped (CCCL_PEER_INC='${CCCL_PEER_INC:-}'$note)"
    else
        echo "${built# }"; echo "$prog${note#;}"
    fi
}

for step in $RUN_STEPS; do
    t0=$(date +%s)
    case $step in
    test)
        DRTOPK_BIN_DIR=$BIN SUITE_LOG_DIR=$OUT sh tests/gpu/suite.sh > "$OUT/suite.log" 2>&1
        add "test-gpu: rc=$? ($(($(date +%s) - t0)) s)
$(cat "$OUT/suite.log")" ;;
    py)
        # drtopk.topk from Python: the torch/CuPy suite, experiments/py_bench.py into the database (one
        # SQLite file, no -wal beside it: only a few files come back from a GPU machine), then
        # experiments/py_overhead.py; logs: python.log, py_bench.md (its table, errors and the import)
        lib=$PWD/build/libdrtopk.so     # the carried one first (beside the carried programs)
        [ -f "$BIN/libdrtopk.so" ] && lib=$(cd "$BIN" && pwd)/libdrtopk.so
        tuner=$BIN/tuner
        [ -x "$tuner" ] || { ninja bin/tuner > "$OUT/build-lib.log" 2>&1 && tuner=bin/tuner; } ||
            tail -5 "$OUT/build-lib.log"
        [ -f "$lib" ] || ninja build/libdrtopk.so >> "$OUT/build-lib.log" 2>&1 || tail -5 "$OUT/build-lib.log"
        if ! python3 -c 'import torch' 2>/dev/null; then
            add "py: skipped (python3 has no torch)"
        else
            PYTHONPATH=python DRTOPK_LIBRARY=$lib python3 tests/gpu/test_python_torch.py > "$OUT/python.log" 2>&1
            add "py test (drtopk.topk on torch/cupy): rc=$? ($(($(date +%s) - t0)) s)
$(grep -E '^not ok|passed, [0-9]+ failed' "$OUT/python.log" | head -n 8)"
            t1=$(date +%s)
            PYTHONPATH=python DRTOPK_LIBRARY=$lib python3 experiments/py_bench.py --jsonl "$OUT/py_bench.jsonl" \
                > "$OUT/py_bench.md" 2>&1
            rc=$?
            imported="not imported (no $tuner, and ninja bin/tuner failed: $OUT/build-lib.log)"
            if [ -x "$tuner" ] && [ -s "$OUT/py_bench.jsonl" ]; then
                if "$tuner" --import-peers "$OUT/py_bench.jsonl" --db "$DB" >> "$OUT/py_bench.md" 2>&1 &&
                    python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
assert db.execute("PRAGMA journal_mode = DELETE").fetchone()[0] == "delete"' "$DB" >> "$OUT/py_bench.md" 2>&1; then
                    imported="rows in $DB (peer_measurements, peers py.*; one file, rollback journal)"
                else
                    imported="import failed: the end of $OUT/py_bench.md"
                fi
            fi
            add "py bench (experiments/py_bench.py): rc=$rc ($(($(date +%s) - t1)) s), $imported
$(cat "$OUT/py_bench.md")"
            PYTHONPATH=python DRTOPK_LIBRARY=$lib python3 experiments/py_overhead.py > "$OUT/py_overhead.md" 2>&1
            add "py overhead (experiments/py_overhead.py): rc=$?
$(cat "$OUT/py_overhead.md")"
        fi ;;
    memcheck)
        sanitize memcheck test_gpu:--small test_radix:--small test_algos:--small test_bitonic:--small \
            test_capture:--small test_knn:--small test_batch:--small test_onepass:--small test_small_n:--small test_check:--small ;;
    racecheck)
        sanitize racecheck test_gpu:--small test_radix:--small test_algos:--tiny test_bitonic:--small \
            test_batch:--small:$RACECHECK_BATCH_SHARDS test_onepass:--tiny test_small_n:--tiny test_check:--small ;;
    mutation)
        if [ ! -d "$BIN/mutant" ] && [ "$BIN" = bin ]; then
            ninja mutants > "$OUT/build-mutants.log" 2>&1 || add "mutation: ninja mutants failed ($OUT/build-mutants.log)"
        fi
        DRTOPK_BIN_DIR=$BIN MUTATION_LOG_DIR=$OUT sh tests/gpu/mutation.sh > "$OUT/mutation.log" 2>&1
        add "mutation: rc=$? ($(($(date +%s) - t0)) s)
$(cat "$OUT/mutation.log")" ;;
    bench-before)
        if [ -z "${DRTOPK_BEFORE:-}" ] || [ ! -x "${DRTOPK_BEFORE:-}" ]; then
            add "bench-before: skipped (DRTOPK_BEFORE='${DRTOPK_BEFORE:-}' is not a program)"
        else
            DRTOPK="$DRTOPK_BEFORE" BENCH_JSON="$OUT/bench-before.jsonl" sh tests/gpu/bench.sh \
                > "$OUT/bench-before.log" 2>&1
            add "bench-before ($DRTOPK_BEFORE): rc=$? ($(($(date +%s) - t0)) s)"
            echo "== before: $DRTOPK_BEFORE"
            cat "$OUT/bench-before.log"
        fi ;;
    bench)
        DRTOPK="$BIN/drtopk" BENCH_JSON="$OUT/bench.jsonl" sh tests/gpu/bench.sh > "$OUT/bench.log" 2>&1
        add "bench: rc=$? ($(($(date +%s) - t0)) s)"
        echo "== this build: $BIN/drtopk"
        cat "$OUT/bench.log" ;;
    datasets)
        # the real inputs from carried sources (experiments/datasets.sh
        # --sources-only where the packages are); the vectors stay in out/datasets;
        # then Figure 19's runs of each into $DB (TUNE_MINUTES; a rerun goes on)
        bash experiments/datasets.sh --sources "${DATASETS_SRC:-out/datasets/src}" --drtopk "$BIN/drtopk" \
            --db "$DB" --gpu 0 --tuner "$BIN/tuner" --max-minutes "$TUNE_MINUTES" > "$OUT/datasets.log" 2>&1
        add "datasets: rc=$? ($(($(date +%s) - t0)) s)"
        cp out/datasets/table1.tsv out/datasets/manifest.tsv "$OUT/" 2>/dev/null
        tail -3 "$OUT/datasets.log" ;;
    sweep)
        DRTOPK="$BIN/drtopk" sh experiments/delegate_sweep.sh > "$OUT/sweep.log" 2>&1
        add "sweep: rc=$? ($(($(date +%s) - t0)) s)"
        cat "$OUT/sweep.log" ;;
    tune)
        "$BIN/tuner" --gpu 0 --quick --max-minutes "$TUNE_MINUTES" --db "$DB" > "$OUT/tune.log" 2>&1
        add "tune: rc=$? ($(($(date +%s) - t0)) s)"
        tail -40 "$OUT/tune.log" ;;
    algos)
        "$BIN/tuner" --gpu 0 --n 2^30 --k "$ALGO_KS" --dist UD,ND,CD --dtype u32 --algo "$ALGOS" \
            --alpha-span 0 --beta 2 --reps 7 --max-minutes "$TUNE_MINUTES" --db "$DB" > "$OUT/algos.log" 2>&1
        add "algos: rc=$? ($(($(date +%s) - t0)) s)"
        tail -5 "$OUT/algos.log" ;;
    peers)
        peer_info=$(cub_peer)
        peer=$(echo "$peer_info" | sed -n 1p)
        CUB_PEER="$peer" bash experiments/peers/run_peers.sh "$OUT/peers.jsonl" > "$OUT/peers.log" 2>&1
        rc=$?
        "$BIN/tuner" --import-peers "$OUT/peers.jsonl" --db "$DB" >> "$OUT/peers.log" 2>&1
        add "peers: rc=$rc, import rc=$? ($(($(date +%s) - t0)) s); $(echo "$peer_info" | sed -n 2p)" ;;
    onepass)    # the one-read top-k beside the default plan, the read floor and the peers
        peer_info=$(cub_peer)
        # shellcheck disable=SC2086 # ONEPASS_ARGS: several words
        CUB_PEER=$(echo "$peer_info" | sed -n 1p) sh experiments/onepass_bench.sh --bin "$BIN" --db "$DB" \
            --minutes "$TUNE_MINUTES" --peers ${ONEPASS_ARGS:-} > "$OUT/onepass.log" 2>&1
        add "onepass: rc=$? ($(($(date +%s) - t0)) s); $(echo "$peer_info" | sed -n 2p)"
        sed -n '/^onepass bench on/,$p' "$OUT/onepass.log" ;;
    regret)     # the automatic plan's regret against every forced plan over the grid
        tuned=""
        [ "${REGRET_TUNED:-0}" = 1 ] && tuned=--tuned
        # shellcheck disable=SC2086 # REGRET_ARGS: several words; tuned: one or none
        sh experiments/plan_regret.sh --bin "$BIN" --db "$DB" --minutes "$TUNE_MINUTES" $tuned ${REGRET_ARGS:-} \
            > "$OUT/regret.log" 2>&1
        add "regret: rc=$? ($(($(date +%s) - t0)) s)${tuned:+ $tuned}; log $OUT/regret.log
$(sed -n '/^plan regret/,$p' "$OUT/regret.log")" ;;
    batch)      # batched top-k beside torch.topk, CUB DeviceBatchedTopK, the read floor
        peer_info=$(cub_peer experiments/peers/cub_batch_topk_peer.cu cub_batch_topk_peer "$CUB_BATCH_MIN_VERSION")
        CUB_BATCH_PEER=$(echo "$peer_info" | sed -n 1p) sh experiments/batch_bench.sh --bin "$BIN" --db "$DB" \
            --out "$OUT/batch" > "$OUT/batch.log" 2>&1
        add "batch: rc=$? ($(($(date +%s) - t0)) s); $(echo "$peer_info" | sed -n 2p)"
        sed -n '/^batch bench on/,$p' "$OUT/batch.log" ;;
    figures)    # the paper's figures, quick sweeps into $DB (measuring 7 minutes at most,
                # the whole step under 10), then its text dump; with DRTOPK_RUN_DB kept between
                # calls each call measures what the last one left (same commit).  A node without
                # gnuplot or the sqlite3 shell measures only (plot the fetched $DB elsewhere)
        plot=""
        { command -v gnuplot && command -v sqlite3; } > /dev/null 2>&1 || plot=--measure-only
        # FIGURES_BUDGET_S: seconds of measuring in this call (run_all.sh --budget; 480 with
        # --measure-only leaves a 9-minute call room for the start and the dump);
        # FIGURES_VERIFY_EVERY: the tuner's --verify-every for the figure sweeps
        DRTOPK_EXP_VERIFY_EVERY=${FIGURES_VERIFY_EVERY:-} DRTOPK_BIN_DIR=$BIN bash experiments/run_all.sh --gpu 0 \
            --quick ${FIGURES_BUDGET_S:+--budget $FIGURES_BUDGET_S} $plot --db "$DB" --out "$OUT/figures" \
            > "$OUT/figures.log" 2>&1
        add "figures: rc=$? ($(($(date +%s) - t0)) s)${plot:+ $plot}; dump $OUT/results.sql.gz
$(sed -n '/^summary/,$p' "$OUT/figures.log")"
        # the dump as db/reference ships it: SQL text, gzip-compressed, no timestamp in the header
        python3 -c 'import gzip, sqlite3, sys
with open(sys.argv[2], "wb") as raw, gzip.GzipFile("", "wb", 9, raw, mtime=0) as f:
    f.writelines((l + "\n").encode() for l in sqlite3.connect(sys.argv[1]).iterdump())' "$DB" "$OUT/results.sql.gz" ||
            add "figures: cannot dump $DB" ;;
    mpi)
        if [ ! -x "$BIN/drtopk-mpi" ]; then
            ninja bin/drtopk-mpi > "$OUT/build-mpi.log" 2>&1 || add "mpi: ninja bin/drtopk-mpi failed ($OUT/build-mpi.log)"
        fi
        DRTOPK_BIN_DIR=$BIN DB=$DB OUT=$OUT sh tests/gpu/mpi.sh > "$OUT/mpi.log" 2>&1
        add "mpi: rc=$? ($(($(date +%s) - t0)) s); $(grep '^mpi checks:' "$OUT/mpi.log")"
        sed -n '/^== summary/,$p' "$OUT/mpi.log" ;;
    *) add "unknown step $step" ;;
    esac
done
# both benchmarks in this call: the before/after table (same GPU)
if [ -s "$OUT/bench-before.jsonl" ] && [ -s "$OUT/bench.jsonl" ]; then
    python3 experiments/bench_compare.py "$OUT/bench-before.jsonl" "$OUT/bench.jsonl" > "$OUT/bench-compare.md" 2>&1
    add "bench before/after: rc=$? $(tail -n 1 "$OUT/bench-compare.md") ($OUT/bench-compare.md)"
fi
echo "== summary"
echo "$summary"
