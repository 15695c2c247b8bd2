#!/bin/sh
# run_tests.sh -- `ninja test`: the C unit tests (bin/test_unit), then the Bats
# tests of the CLI (tests/bats/*.bats) and the fault suite (tests/fault/*.bats).  Counts TAP
# "ok"/"not ok" lines of both (skips apart), counts a runner that crashes or
# fails without a "not ok" line as one failure, and ends with exactly
# "N passed, N failed".  Exit status is non-zero when anything failed.
cd "$(dirname "$0")/.." || exit 2

passed=0
failed=0
skipped=0
log=$(mktemp "${TMPDIR:-/tmp}/drtopk_tests.XXXXXX") || exit 2
trap 'rm -f "$log"' EXIT INT TERM

# tally NAME RC: add the TAP results in $log to the totals.
tally() {
    p=$(grep -c '^ok ' "$log" | tr -d ' ')
    s=$(grep '^ok ' "$log" | grep -ci '# skip' | tr -d ' ')
    f=$(grep -c '^not ok ' "$log" | tr -d ' ')
    p=$((p - s))
    if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "$1: exited with status $2 without reporting a failed test: counted as one failure"
        f=1
    elif [ "$2" -gt 1 ]; then
        echo "$1: exited with status $2 (crash?): counted as one more failure"
        f=$((f + 1))
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
}

echo "== unit tests (bin/test_unit)"
if [ -x bin/test_unit ]; then
    bin/test_unit > "$log" 2>&1
    rc=$?
    cat "$log"
    tally bin/test_unit "$rc"
else
    echo "bin/test_unit is missing: build it with 'ninja bin/test_unit'"
    failed=$((failed + 1))
fi

if ls tests/bats/*.bats > /dev/null 2>&1; then
    echo "== Bats tests (tests/bats)"
    if command -v bats > /dev/null 2>&1; then
        bats --tap tests/bats tests/fault > "$log" 2>&1
        rc=$?
        cat "$log"
        # bats exits 1 when a test fails; crashes give no "not ok" line
        tally bats "$rc"
    else
        echo "bats is not installed: the CLI tests cannot run"
        failed=$((failed + 1))
    fi
fi

[ "$skipped" -gt 0 ] && echo "($skipped skipped)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
