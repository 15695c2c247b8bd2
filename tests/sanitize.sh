#!/bin/sh
# sanitize.sh -- `ninja test-sanitize`: the unit and Bats suites of `ninja test`
# (tests/run_tests.sh) run by programs built with AddressSanitizer and UBSan
# (./configure.sh --sanitize).  A finding ends the program with a report on
# stderr and a non-zero status, which fails its test.  Leaks are not checked:
# the programs exit on an error without freeing what the process ends with.
cd "$(dirname "$0")/.." || exit 2
if ! grep -q '^sanitize = yes' build/config.ninja 2>/dev/null; then
    echo "test-sanitize: this build has no sanitizers: ./configure.sh --sanitize --no-install, then ninja test-sanitize"
    echo "0 passed, 1 failed"
    exit 2
fi
# ASan's status for a finding (the programs' own are 0, 1, 2 and 128 + signal)
ASAN_FINDING_STATUS=86
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:exitcode=$ASAN_FINDING_STATUS:verify_asan_link_order=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
exec sh tests/run_tests.sh
