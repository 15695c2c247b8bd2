#!/bin/sh
# mutation.sh -- the mutation test (docs/architecture.md): the pipeline's answer stays
# exact for any copy threshold at or below the k-th value, so only the
# workload counters show a rule switched off.  Runs test_gpu's counter suite
# (workload counters equal to the CPU reference's on tie-free data, the
# paper's Figures 5, 7, 8) on the unmutated build, which must pass, and on
# each mutant -- test_gpu linked against a CUDA backend built with Rule 1,
# Rule 2, Rule 3 (beta) or skip-last-digit switched off (build.ninja:
# `ninja mutants`) -- each of which must FAIL it.  First it checks the
# comparison itself without a GPU: the CPU reference against itself passes,
# and with Rule 2 or skip-last-digit off on one side fails.  Prints a table
# (rule, failed checks, verdict) and "mutation: PASS" or "mutation: FAIL";
# the exit status is 0 only on PASS.
#   sh tests/gpu/mutation.sh
# Environment: DRTOPK_BIN_DIR (default bin; mutants in $DRTOPK_BIN_DIR/mutant),
# MUTANT_DIR (overrides that), MUTATION_ARGS (default --counters; add --small
# for the short set), MUTATION_LOG_DIR (default: no logs).
set -u
BIN=${DRTOPK_BIN_DIR:-bin}
MUTANTS=${MUTANT_DIR:-$BIN/mutant}
ARGS=${MUTATION_ARGS:---counters}
LOGS=${MUTATION_LOG_DIR:-}
RULES="rule1 rule2 rule3 skip"
SELFTEST_ARGS=--small          # the CPU-only rows: the short set is enough
ok=1
table=""
row() { table="$table$(printf '%-24s %13s  %s' "$1" "$2" "$3")
"; }

# run NAME PROGRAM ARGS...: sets $nfail (failed checks, or "-" without a
# closing line) and $rc; keeps the log when asked
run() {
    name=$1; shift
    log=$(mktemp)
    "$@" > "$log" 2>&1
    rc=$?
    last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    nfail=$(echo "$last" | sed -n 's/.* \([0-9][0-9]*\) failed$/\1/p')
    [ -z "$nfail" ] && nfail=-
    [ -n "$LOGS" ] && cp "$log" "$LOGS/mutation-$name.log"
    rm -f "$log"
}

# expect NAME pass|fail PROGRAM ARGS...
expect() {
    name=$1; want=$2; shift 2
    if [ ! -x "$1" ]; then
        row "$name" - "NOT BUILT ($1)"
        ok=0
        return
    fi
    run "$name" "$@"
    if [ "$want" = pass ]; then
        if [ "$rc" -eq 0 ] && [ "$nfail" = 0 ]; then row "$name" "$nfail" "ok (passes)"
        else row "$name" "$nfail" "FAIL: must pass (exit $rc)"; ok=0; fi
    else
        if [ "$rc" -ne 0 ] && [ "$nfail" != 0 ]; then row "$name" "$nfail" "ok (caught, exit $rc)"
        elif [ "$rc" -eq 77 ]; then row "$name" "$nfail" "FAIL: not run (no GPU)"; ok=0
        else row "$name" "$nfail" "MISSED: the suite passes"; ok=0; fi
    fi
}

# shellcheck disable=SC2086 # ARGS and SELFTEST_ARGS are word lists
{
    expect selftest pass "$BIN/test_gpu" --cpu-selftest $SELFTEST_ARGS
    expect selftest-broken-filter fail "$BIN/test_gpu" --cpu-selftest=broken-filter $SELFTEST_ARGS
    expect selftest-broken-skip fail "$BIN/test_gpu" --cpu-selftest=broken-skip $SELFTEST_ARGS
    expect unmutated pass "$BIN/test_gpu" $ARGS
    for r in $RULES; do
        expect "$r" fail "$MUTANTS/test_gpu_$r" $ARGS
    done
}
printf '%-24s %13s  %s\n' rule "failed checks" verdict
printf '%s' "$table"
if [ "$ok" -eq 1 ]; then echo "mutation: PASS"; else echo "mutation: FAIL"; fi
[ "$ok" -eq 1 ]
