#!/usr/bin/env bats
# layers.bats -- the layers of the C and CUDA sources (docs/architecture.md):
# check_layers.py reads every quoted #include of the library (src/lib,
# kernels), the harness (src/harness) and the programs (src/cli, src/mpi,
# tuner); no include points up a layer and no modules include each other in a
# circle.  The checker is shown to catch both on a copy of the tree with one
# include added, so that a clean result cannot come from reading nothing.

ROOT="$BATS_TEST_DIRNAME/../.."
CHECK="$BATS_TEST_DIRNAME/check_layers.py"

setup() {
    T="$(mktemp -d)"
    mkdir -p "$T/src"
    cp -r "$ROOT/src/lib" "$ROOT/src/harness" "$ROOT/src/cli" "$ROOT/src/mpi" "$T/src/"
    cp -r "$ROOT/kernels" "$ROOT/tuner" "$ROOT/build.ninja" "$T/"
}

teardown() {
    rm -rf "$T"
}

@test "the tree: no include points up a layer, no modules include each other in a circle" {
    run python3 "$CHECK" "$ROOT"
    [ "$status" -eq 0 ] || { printf '%s\n' "$output"; false; }
    [[ "$output" =~ ^([0-9]+)\ modules ]]
    [ "${BASH_REMATCH[1]}" -gt 50 ]          # every folder of the three layers was read
}

@test "a library file that includes a harness header is caught" {
    echo '#include "store.h"' >> "$T/src/lib/plan.c"
    run python3 "$CHECK" "$T"
    [ "$status" -eq 1 ]
    grep -qx "up  src/lib/plan.c -> src/harness/store.h" <<< "$output"
}

@test "two modules that include each other are caught, also through a third" {
    echo '#include "plan.c"' >> "$T/src/lib/batch.c"       # batch -> plan
    echo '#include "errors.c"' >> "$T/src/lib/plan.c"      # plan -> errors
    echo '#include "batch.c"' >> "$T/src/lib/errors.c"     # errors -> batch
    run python3 "$CHECK" "$T"
    [ "$status" -eq 1 ]
    grep -qx "circle src/lib/batch src/lib/errors src/lib/plan" <<< "$output"
}

@test "a part named after its module (x_internal.h over x.h, x_cuda.cu) is that module, not a circle" {
    printf '#include "plan.h"\n' > "$T/src/lib/plan_internal.h"
    printf '#include "plan_internal.h"\n' > "$T/src/lib/plan.h"
    printf '#include "plan.h"\n' > "$T/src/lib/plan_cuda.cu"
    run python3 "$CHECK" "$T"
    [ "$status" -eq 0 ] || { printf '%s\n' "$output"; false; }
    # a name that only starts like another module's is a module of its own
    printf '#include "plan.h"\n' > "$T/src/lib/planet.h"
    printf '#include "planet.h"\n' >> "$T/src/lib/plan.h"
    run python3 "$CHECK" "$T"
    [ "$status" -eq 1 ]
    grep -qx "circle src/lib/plan src/lib/planet" <<< "$output"
}
