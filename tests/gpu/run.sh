#!/bin/sh
# run.sh -- everything one GPU-machine call does (issues 3, 4, 5): build if
# needed (or use binaries carried in DRTOPK_BIN_DIR), the GPU test suites
# against host references, compute-sanitizer memcheck and racecheck on the
# small cases, the pipeline benchmark (bench.sh), the delegate build across
# alpha (experiments/delegate_sweep.sh), the tuner's quick sweep and
# the baseline-algorithm sweep into a SQLite database, and the modern peers.
# Logs and the database go to $OUT (or out/gpu-run); a summary is printed last.
#   RUN_STEPS="test memcheck racecheck bench sweep tune algos peers" sh tests/gpu/run.sh
# (default: "test memcheck racecheck bench").  TUNE_MINUTES bounds the sweeps.
set -u
OUT=${OUT:-out/gpu-run}
BIN=${DRTOPK_BIN_DIR:-bin}
RUN_STEPS=${RUN_STEPS:-"test memcheck racecheck bench"}
SANITIZER_TIMEOUT_S=${SANITIZER_TIMEOUT_S:-240}
TUNE_MINUTES=${TUNE_MINUTES:-4}
DB=${DRTOPK_RUN_DB:-$OUT/results.sqlite}
ALGO_KS=1,4,16,64,256,1024,4096,16384,65536,262144,2^20,2^22,2^24
ALGOS=radix,dr-radix,radix-ggks,dr-radix-ggks,radix-ggks-oop,bucket,dr-bucket,bucket-oop,bitonic,dr-bitonic,sort-cub,sort-thrust
GPU_PROGRAMS="drtopk tuner test_gpu test_radix test_algos test_bitonic test_capture"
mkdir -p "$OUT"
for p in $GPU_PROGRAMS; do
    if [ ! -x "$BIN/$p" ]; then
        BIN=bin
        ninja $(for q in $GPU_PROGRAMS; do printf 'bin/%s ' "$q"; done) > "$OUT/build.log" 2>&1 ||
            { tail -30 "$OUT/build.log"; exit 1; }
        break
    fi
done
nvidia-smi -L 2>/dev/null
summary=""
add() { summary="$summary
$1"; }
# suite + the case set each suite runs under a sanitizer (racecheck is slow:
# test_algos gets its reduced --tiny set there)
sanitize() {
    tool=$1; shift
    for pair in "$@"; do
        prog=${pair%%:*}; mode=${pair##*:}
        t0=$(date +%s)
        timeout "$SANITIZER_TIMEOUT_S" compute-sanitizer --tool "$tool" --error-exitcode 9 "$BIN/$prog" "$mode" \
            > "$OUT/$tool-$prog.log" 2>&1
        rc=$?
        add "$tool $prog $mode: rc=$rc $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$tool-$prog.log" | tail -1) | $(grep -E 'passed, .* failed' "$OUT/$tool-$prog.log" | tail -1) ($(($(date +%s) - t0)) s)"
    done
}
for step in $RUN_STEPS; do
    t0=$(date +%s)
    case $step in
    test)
        DRTOPK_BIN_DIR=$BIN SUITE_LOG_DIR=$OUT sh tests/gpu/suite.sh > "$OUT/suite.log" 2>&1
        add "test-gpu: rc=$? ($(($(date +%s) - t0)) s)
$(cat "$OUT/suite.log")" ;;
    memcheck)
        sanitize memcheck test_gpu:--small test_radix:--small test_algos:--small test_bitonic:--small \
            test_capture:--small ;;
    racecheck)
        sanitize racecheck test_gpu:--small test_radix:--small test_algos:--tiny test_bitonic:--small ;;
    bench)
        DRTOPK="$BIN/drtopk" BENCH_JSON="$OUT/bench.jsonl" sh tests/gpu/bench.sh > "$OUT/bench.log" 2>&1
        add "bench: rc=$? ($(($(date +%s) - t0)) s)"
        cat "$OUT/bench.log" ;;
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
        CUB_PEER="$BIN/cub_topk_peer" bash experiments/peers/run_peers.sh "$OUT/peers.jsonl" > "$OUT/peers.log" 2>&1
        rc=$?
        "$BIN/tuner" --import-peers "$OUT/peers.jsonl" --db "$DB" >> "$OUT/peers.log" 2>&1
        add "peers: rc=$rc, import rc=$? ($(($(date +%s) - t0)) s)" ;;
    *) add "unknown step $step" ;;
    esac
done
echo "$summary"
