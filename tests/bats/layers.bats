#!/usr/bin/env bats
# layers.bats -- the library layer (src/lib, kernels/: the API, planner, rules,
# backends and the modules of paper section 5.4, out of core and the
# multi-GPU exchange) includes nothing of the harness (src/harness): a quoted
# include of a library file names a header of the library, or of the build
# (build/version.h's kind), never a harness header.  Reads sources only.

ROOT="$BATS_TEST_DIRNAME/../.."

# harness_includes TREE: "file:header" for each quoted include of a library
# file of TREE that resolves to TREE/src/harness and not to the library.
harness_includes() {
    local tree=$1 f h
    for f in "$tree"/src/lib/* "$tree"/kernels/*; do
        case "$f" in *.c|*.h|*.cu|*.cuh) ;; *) continue ;; esac
        for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
            [ -f "$tree/src/lib/$h" ] || [ -f "$tree/kernels/$h" ] && continue
            [ -f "$tree/src/harness/$h" ] && echo "${f#"$tree"/}:$h"
        done
    done
    return 0
}

@test "no library file includes a harness header" {
    run harness_includes "$ROOT"
    [ "$status" -eq 0 ]
    [ -z "$output" ] || { echo "library files that include harness headers: $output" >&2; false; }
}

@test "the check names a library file that includes a harness header" {
    local t=$BATS_TEST_TMPDIR
    mkdir -p "$t/src/lib" "$t/src/harness" "$t/kernels"
    printf '#include "drtopk.h"\n#include "util.h"\n' > "$t/kernels/x.cu"
    : > "$t/src/lib/drtopk.h"
    : > "$t/src/harness/util.h"
    run harness_includes "$t"
    [ "$output" = "kernels/x.cu:util.h" ]
}
