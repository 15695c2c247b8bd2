#!/usr/bin/env bats
# plan.bats -- one planner behind every program (src/lib/plan.c, paper
# section 5.2): `drtopk run` and the local step of `drtopk-mpi` take the same
# automatic plan from the same tuning database, here one whose choice is the
# standalone onepass (a plan the size rules never give on the CPU backend, so
# a program that planned by itself would show); and asking for the pipeline
# on top of a standalone automatic plan (--algo dr-<A>, --alpha, --beta) runs
# the pipeline at Rule 4's const 3, verified; `drtopk batch` and the Python
# binding take the library's batch plan (drtopk_batch_plan_auto).  CPU
# backend; DRTOPK, DRTOPK_MPI, TUNER may point at other builds.

bats_require_minimum_version 1.5.0

DRTOPK="${DRTOPK:-$BATS_TEST_DIRNAME/../../bin/drtopk}"
DRTOPK_MPI="${DRTOPK_MPI:-$BATS_TEST_DIRNAME/../../bin/drtopk-mpi}"
TUNER="${TUNER:-$BATS_TEST_DIRNAME/../../bin/tuner}"
MPI_TIMEOUT=60      # seconds: a hang fails the test instead of the suite
N=16411             # not a power of two
K=100

setup_file() {
    for p in "$DRTOPK" "$DRTOPK_MPI" "$TUNER"; do
        [ -x "$p" ] || { echo "no binary at $p (run ninja first)" >&2; return 1; }
    done
    command -v sqlite3 >/dev/null || { echo "sqlite3 missing: ./configure.sh installs it" >&2; return 1; }
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    # this host's machine row (a one-point sweep), then a tuning whose only
    # choice for u32 is the standalone onepass, at every n and k
    export DRTOPK_DB="$BATS_FILE_TMPDIR/onepass-tuned.sqlite"
    "$TUNER" --backend cpu --n 2^12 --k 16 --dtype u32 --dist UD --algo onepass --reps 1 \
        --db "$DRTOPK_DB" >/dev/null 2>&1 || { echo "tuner could not make $DRTOPK_DB" >&2; return 1; }
    sqlite3 "$DRTOPK_DB" "DELETE FROM fits; DELETE FROM choices;
        INSERT INTO choices (machine_id, git_commit, dtype, log2n_min, log2n_max, log2k_min, log2k_max,
                             algorithm, beta, rule4_const, mean_slowdown, points, fitted_at)
            SELECT id, 'plan.bats', 'u32', 0, 63, 0, 63, 'onepass', 0, 3, 1, 1, '2026-01-01' FROM machines;"
}

# plan_of JSON: "algo delegate alpha beta const_source" of a drtopk run --json line
plan_of() {
    python3 -c 'import json, sys
j = json.loads(sys.argv[1]); p = j["plan"]
print(j["algo"], p["delegate"], p["alpha"], p["beta"], p["const_source"])' "$1"
}

@test "drtopk run takes the tuned standalone plan" {
    run -0 --separate-stderr "$DRTOPK" run --backend cpu --n $N --k $K --verify --json
    [ "$(plan_of "$output")" = "onepass False 0 0 database" ]
    [[ "$output" == *'"verify": "PASS"'* ]]
}

@test "drtopk-mpi's local step asks the same planner" {
    command -v mpirun >/dev/null || skip "mpirun not installed"
    run -0 --separate-stderr timeout "$MPI_TIMEOUT" mpirun --oversubscribe -np 2 "$DRTOPK_MPI" --backend cpu \
        --n $((2 * N)) --k $K --verify --json
    python3 -c 'import json, sys
j = json.loads(sys.argv[1])
assert j["algo"] == "onepass", j["algo"]
assert j["plan"]["first_algo"] == "onepass" and j["plan"]["alpha"] == 0, j["plan"]' "$output"
}

@test "--algo dr-radix over a standalone automatic plan runs the pipeline at Rule 4's const 3" {
    run -0 --separate-stderr "$DRTOPK" run --backend cpu --n $N --k $K --algo dr-radix --verify --json
    alpha=$(python3 -c 'import math; print(max(1, min(15, round(0.5 * (3 + math.log2(16411) - math.log2(100))))))')
    [ "$(plan_of "$output")" = "dr-radix True $alpha 2 default" ]
    [[ "$output" == *'"verify": "PASS"'* ]]
}

@test "--alpha and --beta alone ask for the pipeline too" {
    run -0 --separate-stderr "$DRTOPK" run --backend cpu --n $N --k $K --alpha 6 --beta 3 --verify --json
    [ "$(plan_of "$output")" = "dr-radix True 6 3 default" ]
    [[ "$output" == *'"verify": "PASS"'* ]]
}

@test "--algo radix over the tuned plan runs standalone" {
    run -0 --separate-stderr "$DRTOPK" run --backend cpu --n $N --k $K --algo radix --verify --json
    [ "$(plan_of "$output" | cut -d' ' -f1,2)" = "radix False" ]
}

@test "drtopk batch and the Python binding take the library's batch plan" {
    run -0 --separate-stderr "$DRTOPK" batch --backend cpu --rows 4 --cols 300 --k 7 --dtype u64 --json --verify
    [[ "$output" == *'"verify": "PASS"'* ]]
    # the same planner read through the Python binding's structs (drtopk_batch_plan_auto), field by field
    PYTHONPATH="$BATS_TEST_DIRNAME/../../python" DRTOPK_LIBRARY= python3 -c 'import ctypes, json, sys
import drtopk
got = json.loads(sys.argv[1])["plan"]
plan, prob = drtopk._Plan(), drtopk._Problem()
prob.backend, prob.segments, prob.len, prob.k = drtopk._BACKEND_CPU, 4, 300, 7
assert drtopk._library().drtopk_batch_plan_auto(ctypes.byref(plan), ctypes.byref(prob)) == 0
want = {f: getattr(plan, f) for f in got}
assert got == want, (got, want)' "$output"
}
