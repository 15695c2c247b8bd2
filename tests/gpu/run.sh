#!/bin/sh
# run.sh -- the one GPU-machine call of issue 3 (Dr. Top-k pipeline, paper
# sections 4-5): build if needed (or use binaries carried in DRTOPK_BIN_DIR),
# run the GPU suite, compute-sanitizer memcheck and racecheck on
# `test_gpu --small`, then the benchmark (bench.sh).  Logs go to $OUT (or
# out/gpu-run); a short summary is printed last.
# RUN_STEPS picks steps (default "test memcheck racecheck bench").
set -u
OUT=${OUT:-out/gpu-run}
BIN=${DRTOPK_BIN_DIR:-bin}
RUN_STEPS=${RUN_STEPS:-"test memcheck racecheck bench"}
SANITIZER_TIMEOUT_S=${SANITIZER_TIMEOUT_S:-240}
mkdir -p "$OUT"
if [ ! -x "$BIN/test_gpu" ] || [ ! -x "$BIN/drtopk" ]; then
    BIN=bin
    ninja bin/test_gpu bin/drtopk > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
fi
nvidia-smi -L 2>/dev/null
summary=""
add() { summary="$summary
$1"; }
for step in $RUN_STEPS; do
    t0=$(date +%s)
    case $step in
    test)
        "$BIN/test_gpu" > "$OUT/test_gpu.log" 2>&1
        add "test_gpu:  rc=$? $(tail -1 "$OUT/test_gpu.log") ($(($(date +%s) - t0)) s)"
        grep FAIL "$OUT/test_gpu.log" | head -5 ;;
    memcheck|racecheck)
        timeout "$SANITIZER_TIMEOUT_S" compute-sanitizer --tool "$step" --error-exitcode 9 "$BIN/test_gpu" --small \
            > "$OUT/$step.log" 2>&1
        rc=$?
        add "$step: rc=$rc $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$step.log" | tail -1) | $(grep -E 'passed, .* failed' "$OUT/$step.log" | tail -1) ($(($(date +%s) - t0)) s)" ;;
    bench)
        DRTOPK="$BIN/drtopk" BENCH_JSON="$OUT/bench.jsonl" sh tests/gpu/bench.sh > "$OUT/bench.log" 2>&1
        add "bench: rc=$? ($(($(date +%s) - t0)) s)"
        cat "$OUT/bench.log" ;;
    *) add "unknown step $step" ;;
    esac
done
echo "$summary"
