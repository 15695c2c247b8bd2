#!/usr/bin/env bats
# tuner_layers.bats -- the tuner's files form layers (options and the sweep's
# shared pieces below the modes, tuner.c's main above them): no two of its
# parts depend on each other.  tests/tuner_layers.py reads the C of tuner/ and
# holds it to three rules (its header says how):
#   1. a header X.h declares only functions and extern variables that X.c
#      defines (a shared header whose functions live in the file that
#      includes the modes is how the old circle hid from the include graph);
#   2. X.c defines for other files only what X.h declares, and declares no
#      function or extern variable itself;
#   3. the parts' include graph over `#include "..."` lines naming a header of
#      tuner/ has no cycle.
# With 1 and 2 every use of another part goes through its header, so 3 makes
# the dependencies acyclic.  Each breach below is built in a copy of tuner/ so
# that the checker is seen to catch it, and the tree before the split (from
# git history, where there is any) is seen to fail.

bats_require_minimum_version 1.5.0

ROOT="$BATS_TEST_DIRNAME/../.."
CHECK="$ROOT/tests/tuner_layers.py"

setup() {
    command -v python3 > /dev/null || skip "python3 is not installed"
    COPY="$BATS_TEST_TMPDIR/tuner"
    cp -R "$ROOT/tuner" "$COPY"
}

@test "the tuner's files are layered: the checker finds nothing" {
    run python3 "$CHECK" "$ROOT/tuner"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    # the copy the other tests break starts out as clean
    run python3 "$CHECK" "$COPY"
    [ "$status" -eq 0 ]
}

@test "a lower part that includes a mode's header closes an include circle" {
    sed -i 's/^#include "sweep.h"$/#include "sweep.h"\n#include "timed_sweep.h"/' "$COPY/measure.h"
    grep -q '#include "timed_sweep.h"' "$COPY/measure.h"
    run python3 "$CHECK" "$COPY"
    [ "$status" -eq 1 ]
    [[ "$output" == *"include circle: measure -> timed_sweep -> measure"* ]]
}

@test "a circle through .c files only is a circle too" {
    printf '#include "tuner.h"\n' >> "$COPY/options.c"
    printf '#ifndef T_H\n#define T_H\nint main(void);\n#endif\n' > "$COPY/tuner.h"
    run python3 "$CHECK" "$COPY"
    [ "$status" -eq 1 ]
    [[ "$output" == *"include circle: options -> tuner -> options"* ]]
}

@test "a shared header declaring what another file defines is refused (the old tuner.h)" {
    # options.h declares the progress line, defined in progress.c
    printf 'void tuner_progress(unsigned long done, unsigned long total, double t0_ms, const char *what, int last);\n' \
        >> "$COPY/options.h"
    run python3 "$CHECK" "$COPY"
    [ "$status" -eq 1 ]
    [[ "$output" == *"options.h: declares tuner_progress, which options.c does not define"* ]]
    # an extern variable as well
    printf 'extern double tuner_deadline_ms;\n' >> "$COPY/sweep.h"
    run python3 "$CHECK" "$COPY"
    [[ "$output" == *"sweep.h: declares tuner_deadline_ms, which sweep.c does not define"* ]]
}

@test "a definition no header of its own declares, or a prototype written by hand, is refused" {
    sed -i 's/^static void join_argv(/void join_argv(/' "$COPY/tuner.c"
    grep -q '^void join_argv(' "$COPY/tuner.c"
    sed -i 's/^#include "sweep.h"$/#include "sweep.h"\nint tuner_should_stop(void);/' "$COPY/sweep.c"
    grep -q '^int tuner_should_stop(void);' "$COPY/sweep.c"
    run python3 "$CHECK" "$COPY"
    [ "$status" -eq 1 ]
    [[ "$output" == *"tuner.c: defines join_argv for other files, but tuner.h does not declare it"* ]]
    [[ "$output" == *"sweep.c: declares tuner_should_stop itself"* ]]
    # main is every program's, a static helper its file's: neither is reported
    [[ "$output" != *"main"* ]]
    [[ "$output" != *"skip_slot"* ]]
}

@test "comments, strings and preprocessor lines do not count as declarations or includes" {
    printf '/* int fake_in_comment(void); #include "tuner.h" */\n#define FAKE_MACRO(x) int fake_macro(x);\n' >> "$COPY/sweep.h"
    printf 'static const char *const fake_text = "int fake_in_string(void);";\n' >> "$COPY/sweep.c"
    run python3 "$CHECK" "$COPY"
    [ "$status" -eq 0 ]
}

@test "the tuner before its split (tuner.h shared by tuner.c and the modes) fails the check" {
    command -v git > /dev/null && git -C "$ROOT" rev-parse --git-dir > /dev/null 2>&1 || skip "not a git checkout"
    rev=$(git -C "$ROOT" rev-list -1 HEAD -- tuner/tuner.h)
    [ -n "$rev" ] || skip "no commit removed tuner/tuner.h in this history"
    old="$BATS_TEST_TMPDIR/old"
    mkdir -p "$old"
    git -C "$ROOT" archive "$rev^" tuner | tar -x -C "$old"
    [ -f "$old/tuner/tuner.h" ]
    run python3 "$CHECK" "$old/tuner"
    [ "$status" -eq 1 ]
    [[ "$output" == *"tuner.h: declares measure_plan, which tuner.c does not define"* ]]
    [[ "$output" == *"tuner.h: declares fit_and_store, which tuner.c does not define"* ]]
}

@test "the checker refuses a missing directory with exit 2 and its usage" {
    run python3 "$CHECK" "$BATS_TEST_TMPDIR/none"
    [ "$status" -eq 2 ]
    [[ "$output" == *"usage: tuner_layers.py DIR"* ]]
}
