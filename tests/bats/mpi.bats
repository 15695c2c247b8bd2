#!/usr/bin/env bats
# mpi.bats -- `drtopk-mpi` (paper section 5.4, Table 2) under
# `mpirun --oversubscribe -np 1..4` with the CPU backend: the top-k values are
# the single-process `drtopk run`'s for n not divisible by the ranks, k larger
# than one rank's share, ties across ranks (all-equal data), k = 1 and k = n,
# in core and out of core (--device-cap), generated or --input data; every
# result also passes the distributed exact check (--verify).  A rank that fails
# (a GPU it cannot use, a bad input file) makes every rank exit non-zero with
# one message, in bounded time.  DRTOPK / DRTOPK_MPI may point at other builds.

bats_require_minimum_version 1.5.0

DRTOPK="${DRTOPK:-$BATS_TEST_DIRNAME/../../bin/drtopk}"
DRTOPK_MPI="${DRTOPK_MPI:-$BATS_TEST_DIRNAME/../../bin/drtopk-mpi}"
MPI_TIMEOUT=60      # seconds: a hang fails the test instead of the suite

setup_file() {
    [ -x "$DRTOPK_MPI" ] || { echo "no drtopk-mpi binary at $DRTOPK_MPI (run ninja first)" >&2; return 1; }
    command -v mpirun >/dev/null || { echo "mpirun missing: ./configure.sh installs openmpi-bin" >&2; return 1; }
    export DRTOPK_DB="$BATS_FILE_TMPDIR/no-tuning.sqlite"
    # Open MPI refuses root unless told (containers and CI run as root)
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
}

mpi() {
    local np="$1"
    shift
    timeout "$MPI_TIMEOUT" mpirun --oversubscribe -np "$np" "$DRTOPK_MPI" "$@"
}

# same_as_single RANKS "RUN OPTIONS" [EXTRA drtopk-mpi OPTIONS]: for each rank
# count, the values equal the single-process run's (both best first) and
# --verify passes.
same_as_single() {
    local ranks="$1" opts="$2" extra="${3:-}" ref="$BATS_TEST_TMPDIR/ref" got="$BATS_TEST_TMPDIR/got"
    "$DRTOPK" run --backend cpu $opts --sorted --output "$ref" >/dev/null
    for np in $ranks; do
        rm -f "$got.values" "$got.indices"
        if ! out=$(mpi "$np" --backend cpu $opts $extra --verify --output "$got" 2>&1); then
            echo "np=$np $opts $extra: exit non-zero: $out" >&2
            return 1
        fi
        [[ "$out" == *"verify:    PASS"* ]] || { echo "np=$np $opts $extra: $out" >&2; return 1; }
        cmp "$ref.values" "$got.values" || { echo "np=$np $opts $extra: values differ" >&2; return 1; }
        [ "$(stat -c %s "$got.indices")" -eq "$(stat -c %s "$ref.indices")" ]
    done
}

@test "help names the MPI options" {
    run -0 mpi 1 --help
    [[ "$output" == *"--device-cap E"* && "$output" == *"--no-skip-last-digit"* ]]
}

@test "n not divisible by the ranks: same values as drtopk run, 1..4 ranks" {
    same_as_single "1 2 3 4" "--n 1001 --k 37 --dist ND"
    same_as_single "3 4" "--n 2003 --k 50 --dtype f32 --dist SPECIAL --smallest"
}

@test "k larger than one rank's share" {
    same_as_single "2 3 4" "--n 1003 --k 700 --dtype i32"
}

@test "ties across ranks: all-equal data" {
    same_as_single "1 2 3 4" "--n 1001 --k 333 --dist EQ"
}

@test "k = 1 and k = n" {
    same_as_single "1 3 4" "--n 999 --k 1 --dist CD"
    same_as_single "1 3 4" "--n 999 --k 999 --dist FEW"
}

@test "out of core: sub-vectors of --device-cap, the carried k-th value filters" {
    same_as_single "1 2 3 4" "--n 5001 --k 37" "--device-cap 100"
    same_as_single "2 4" "--n 5001 --k 300 --dist EQ" "--device-cap 64"
    same_as_single "3" "--n 4099 --k 4099 --dtype f32 --dist ND" "--device-cap 7"
    run -0 mpi 2 --backend cpu --n 5001 --k 37 --device-cap 100 --json
    [[ "$output" =~ \"out_of_core_ranks\":\ 2 ]]
    [[ "$output" =~ \"chunks\":\ 26 ]]
    # at most k of each later sub-vector pass the filter: most are dropped
    filtered=$(echo "$output" | sed -n 's/.*"filtered": \([0-9]*\).*/\1/p')
    [ "$filtered" -gt 4000 ]
}

@test "--input: each rank reads its slice of the file" {
    "$DRTOPK" gen --n 1001 --dist ND --out "$BATS_TEST_TMPDIR/v.i32"
    same_as_single "1 3 4" "--input $BATS_TEST_TMPDIR/v.i32 --k 17"
    same_as_single "4" "--input $BATS_TEST_TMPDIR/v.i32 --k 17" "--device-cap 50"
}

@test "--json carries the ranks and the compute, reload and communication times" {
    run -0 --separate-stderr mpi 3 --backend cpu --n 3000 --k 10 --reps 2 --json
    [[ "$output" =~ ^\{\"command\":\ \"mpi\" ]]
    [[ "$output" =~ \"ranks\":\ 3 && "$output" =~ \"reps\":\ \[[0-9.]+,\ [0-9.]+\] ]]
    [[ "$output" =~ \"compute_ms\":\ [0-9.]+ && "$output" =~ \"reload_ms\":\ [0-9.]+ ]]
    [[ "$output" =~ \"comm_ms\":\ [0-9.]+ ]]
}

@test "--db stores the Table 2 row" {
    command -v sqlite3 >/dev/null || skip "sqlite3 not installed"
    local db="$BATS_TEST_TMPDIR/t2.sqlite"
    run -0 mpi 2 --backend cpu --n 4000 --k 16 --device-cap 1000 --reps 2 --db "$db"
    run -0 sqlite3 "$db" "SELECT ranks, n, k, device_cap, out_of_core, chunks, reps, total_ms > 0, \
                          comm_ms >= 0, algorithm FROM multi_gpu"
    [ "$output" = "2|4000|16|1000|1|2|2|1|1|dr-radix" ]
    run -0 sqlite3 "$db" "SELECT program, status FROM runs"
    [ "$output" = "drtopk-mpi|done" ]
}

# ---- failures: every rank out, one message, bounded time -----------------------

@test "a rank that cannot use its GPU ends every rank with one message" {
    # rank 1 alone asks for a GPU (MPMD: its own arguments); this build or machine has none to give
    if "$DRTOPK" version | grep -q "GPU usable: yes"; then skip "a GPU is usable here: tests/gpu/run.sh mpi covers it"; fi
    run --separate-stderr timeout "$MPI_TIMEOUT" mpirun --oversubscribe \
        -np 1 "$DRTOPK_MPI" --n 100 --k 5 : -np 1 "$DRTOPK_MPI" --n 100 --k 5 --backend cuda --gpu 7 : \
        -np 1 "$DRTOPK_MPI" --n 100 --k 5
    [ "$status" -ne 0 ] && [ "$status" -ne 124 ]
    [[ "$stderr" == *"rank 1 of 3 failed"* && "$stderr" == *"--backend cuda: no usable CUDA GPU"* ]]
    [ "$(grep -c 'drtopk-mpi: error' <<< "$stderr")" -eq 1 ]
}

@test "a bad input file ends every rank with one message" {
    printf 'abcdef' > "$BATS_TEST_TMPDIR/bad.u32"
    run --separate-stderr mpi 3 --input "$BATS_TEST_TMPDIR/bad.u32" --k 5
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"not a multiple of the element size"* ]]
    [ "$(grep -c 'drtopk-mpi: error' <<< "$stderr")" -eq 1 ]
    run --separate-stderr mpi 2 --input "$BATS_TEST_TMPDIR/none.u32" --k 5
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"cannot open"* ]]
}

@test "bad arguments: exit 2 with one message" {
    run --separate-stderr mpi 3 --n 100 --k 5 --device-cap 0
    [ "$status" -eq 2 ] && [[ "$stderr" == *"--device-cap must be at least 1"* ]]
    run --separate-stderr mpi 3 --n 2 --k 1
    [ "$status" -eq 2 ] && [[ "$stderr" == *"smaller than the 3 ranks"* ]]
    run --separate-stderr mpi 2 --n 100 --k 5 --gpu 0,x
    [ "$status" -eq 2 ] && [[ "$stderr" == *"--gpu"* ]]
    run --separate-stderr mpi 2 --n 100 --k 5 --dtype u64
    [ "$status" -eq 2 ] && [[ "$stderr" == *"--dtype u64: drtopk-mpi selects 32-bit keys only"* ]]
    [ "$(grep -c 'drtopk-mpi: error' <<< "$stderr")" -eq 1 ]
}

@test "a late failure prints its own message once, after rank 0's warnings" {
    # a tuning database that is not SQLite: each rank warns while planning
    # (rank 0's warning is shown); then storing into a missing directory fails
    # with a message shorter than the warning
    local junk="$BATS_TEST_TMPDIR/a-tuning-database-whose-name-is-long-enough-to-outlast-the-later-message.sqlite"
    printf 'not a database' > "$junk"
    cd "$BATS_TEST_TMPDIR"
    DRTOPK_DB="$junk" run --separate-stderr mpi 2 --backend cpu --n 1000 --k 5 --db no/t2.sqlite
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"rank 0 of 2 failed"* ]]
    [[ "$(grep -A1 'rank 0 of 2 failed' <<< "$stderr" | tail -n 1)" == *"--db: "*"directory no does not exist" ]]
    # nothing of the earlier, longer message trails the failure's
    [ "$(grep -c 'planning without it' <<< "$stderr")" -eq 1 ]
    [ "$(grep -c 'drtopk-mpi: error' <<< "$stderr")" -eq 1 ]
}
