#!/bin/sh
# suite.sh -- the GPU test suite behind `ninja test-gpu`: the pipeline against
# the CPU reference (test_gpu), the flag radix (test_radix), every baseline
# algorithm (test_algos) and bitonic top-k (test_bitonic), each checked against
# a host reference on identical seeded data, and the pipeline captured into a
# CUDA graph (test_capture).  Totals their closing
# "N passed, N failed" lines into one such line, printed last.
#   sh tests/gpu/suite.sh [--small]       (--small: the sanitizer-sized cases)
# Environment: DRTOPK_BIN_DIR (default bin), SUITE_LOG_DIR (default: no logs).
set -u
BIN=${DRTOPK_BIN_DIR:-bin}
LOGS=${SUITE_LOG_DIR:-}
MODE=${1:-}
SUITES="test_gpu test_radix test_algos test_bitonic test_capture"
passed=0
failed=0
for s in $SUITES; do
    log=$(mktemp)
    if [ ! -x "$BIN/$s" ]; then
        echo "$s: not built (ninja $BIN/$s)"
        failed=$((failed + 1))
        continue
    fi
    t0=$(date +%s)
    # shellcheck disable=SC2086 # MODE is one optional word
    "$BIN/$s" $MODE > "$log" 2>&1
    rc=$?
    last=$(grep -E '^([A-Za-z_]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    p=$(echo "$last" | sed -n 's/^\([A-Za-z_]*: \)\{0,1\}\([0-9]*\) passed.*/\2/p')
    f=$(echo "$last" | sed -n 's/.* \([0-9][0-9]*\) failed.*/\1/p')
    if [ -z "$p" ] || [ -z "$f" ]; then
        echo "$s: no result line (exit $rc); last lines:"; tail -n 5 "$log"
        failed=$((failed + 1))
    else
        [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1   # a crash after its summary still fails
        echo "$s: $p passed, $f failed ($(($(date +%s) - t0)) s)"
        grep -E 'FAIL|not ok' "$log" | head -n 5
        passed=$((passed + p)); failed=$((failed + f))
    fi
    [ -n "$LOGS" ] && cp "$log" "$LOGS/$s${MODE:+-small}.log"
    rm -f "$log"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
