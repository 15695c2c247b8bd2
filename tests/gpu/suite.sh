#!/bin/sh
# suite.sh -- the GPU test suite behind `ninja test-gpu`: the pipeline against
# the CPU reference, with its workload counters and the paper's worked examples
# (test_gpu), the flag radix (test_radix), every baseline algorithm
# (test_algos) and bitonic top-k (test_bitonic), each checked against a host
# reference on identical seeded data, and the pipeline captured into a CUDA
# graph (test_capture); the k-NN distances of drtopk dataset (test_knn);
# batched and segmented top-k (test_batch); the one-read top-k against the
# CPU reference (test_onepass); the fused small-input top-k (test_small_n);
# the result checker on the device against the host one (test_check).
# Every program prints tests/gpu/gpu_test.h's lines
# ("ok N ...", "not ok N ...: why") and closes with "N passed, N failed"; this
# script totals those closing lines into one such line, printed last.  A
# program that exits non-zero after a clean closing line (a crash, no GPU:
# status 77) counts one failure.
#   sh tests/gpu/suite.sh [--small]       (--small: the sanitizer-sized cases)
# Environment: DRTOPK_BIN_DIR (default bin), SUITE_LOG_DIR (default: no logs).
set -u
BIN=${DRTOPK_BIN_DIR:-bin}
LOGS=${SUITE_LOG_DIR:-}
MODE=${1:-}
SUITES="test_gpu test_radix test_algos test_bitonic test_capture test_knn test_batch test_onepass test_small_n test_check"
FAIL_LINES=5          # "not ok" lines echoed per program (the log has them all)
passed=0
failed=0
for s in $SUITES; do
    if [ ! -x "$BIN/$s" ]; then
        echo "$s: not built (ninja $BIN/$s)"
        failed=$((failed + 1))
        continue
    fi
    log=$(mktemp)
    t0=$(date +%s)
    # shellcheck disable=SC2086 # MODE is one optional word
    "$BIN/$s" $MODE > "$log" 2>&1
    rc=$?
    last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    p=${last%% passed*}
    f=$(echo "$last" | sed -n 's/.* \([0-9][0-9]*\) failed$/\1/p')
    if [ -z "$last" ] || [ -z "$f" ]; then
        echo "$s: no result line (exit $rc); last lines:"; tail -n 5 "$log"
        failed=$((failed + 1))
    else
        [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
        echo "$s: $p passed, $f failed, exit $rc ($(($(date +%s) - t0)) s)"
        grep -E '^not ok ' "$log" | head -n "$FAIL_LINES"
        passed=$((passed + p)); failed=$((failed + f))
    fi
    [ -n "$LOGS" ] && cp "$log" "$LOGS/$s${MODE:+-small}.log"
    rm -f "$log"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
