#!/bin/sh
# run_tests.sh -- `ninja test`: the C unit tests (bin/test_unit), the public
# API's backend checks (bin/test_backend, over build/libdrtopk.so), then the
# Bats tests of the CLI (tests/bats/*.bats) and the fault suite
# (tests/fault/*.bats), every TAP line printed as its test finishes.  The Bats
# files run side by side, one more than the cores, where GNU parallel is installed (bats
# --jobs; configure.sh installs it), each file's tests in order.  Counts TAP
# "ok"/"not ok" lines (skips apart), counts a runner that crashes or fails
# without a "not ok" line as one failure, and ends with exactly "N passed, N
# failed".  Exit status is non-zero when anything failed.  Builds nothing:
# `ninja test` has built what it runs first.
cd "$(dirname "$0")/.." || exit 2

passed=0
failed=0
skipped=0
log=$(mktemp "${TMPDIR:-/tmp}/drtopk_tests.XXXXXX") || exit 2
rcfile=$(mktemp "${TMPDIR:-/tmp}/drtopk_tests_rc.XXXXXX") || exit 2
trap 'rm -f "$log" "$rcfile"' EXIT INT TERM

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

# stream NAME CMD...: run CMD, its output on the terminal as it comes and in
# $log, then tally it by its exit status.
stream() {
    name=$1
    shift
    { "$@" 2>&1; echo $? > "$rcfile"; } | tee "$log"
    tally "$name" "$(cat "$rcfile")"
}

for prog in test_unit test_backend; do
    echo "== bin/$prog"
    if [ -x "bin/$prog" ]; then
        stream "bin/$prog" "bin/$prog"
    else
        echo "bin/$prog is missing: build it with 'ninja bin/$prog'"
        failed=$((failed + 1))
    fi
done

if ls tests/bats/*.bats > /dev/null 2>&1; then
    echo "== Bats tests (tests/bats)"
    if command -v bats > /dev/null 2>&1; then
        jobs=""
        if command -v parallel > /dev/null 2>&1; then
            # one file more than the cores: the tests wait on the processes they start
            # (a 2-core run kept 1.6 cores busy with one file per core)
            jobs="--jobs $(($(nproc 2>/dev/null || echo 1) + 1)) --no-parallelize-within-files"
        fi
        # bats exits 1 when a test fails; crashes give no "not ok" line
        # shellcheck disable=SC2086 # $jobs: zero or three words
        stream bats bats --tap $jobs tests/bats tests/fault
    else
        echo "bats is not installed: the CLI tests cannot run"
        failed=$((failed + 1))
    fi
fi

[ "$skipped" -gt 0 ] && echo "($skipped skipped)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
