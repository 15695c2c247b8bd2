#!/usr/bin/env bats
# mpi.bats -- `drtopk-mpi` (paper section 5.4, Table 2) under
# `mpirun --oversubscribe -np 1..4` with the CPU backend: the top-k values are
# the single-process `drtopk run`'s for n not divisible by the ranks, k larger
# than one rank's share, ties across ranks (all-equal data), k = 1 and k = n,
# every key width, floats with NaN and -0.0, in core and out of core
# (--device-cap), generated or --input data, with and without --sorted (the
# ranks' radix select of the k-th key and rank 0's gather); --deterministic
# against drtopk run --deterministic (out of core refused); every result also
# passes the distributed exact check (--verify).  Ranks given different options or different --input files stop
# before any work, every one with exit 2 and one message naming the rank and
# the option; a rank that fails (a GPU it cannot use, a bad input file) or is
# killed ends every rank, in bounded time.  DRTOPK / DRTOPK_MPI may point at
# other builds.

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
# count, the values equal the single-process run's (both --sorted: best first)
# and --verify passes.
same_as_single() {
    local ranks="$1" opts="$2" extra="${3:-}" ref="$BATS_TEST_TMPDIR/ref" got="$BATS_TEST_TMPDIR/got"
    "$DRTOPK" run --backend cpu $opts --sorted --output "$ref" >/dev/null
    for np in $ranks; do
        rm -f "$got.values" "$got.indices"
        if ! out=$(mpi "$np" --backend cpu $opts $extra --sorted --verify --output "$got" 2>&1); then
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

@test "drtopk run's --timing is refused, saying how a repetition is timed" {
    run -2 mpi 1 --backend cpu --n 100 --k 3 --timing call
    [[ "$output" == *"--timing is drtopk run's: drtopk-mpi times each repetition by the host clock"* ]]
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

@test "every key width: same values as drtopk run, in core and out of core" {
    for t in u32 i32 f32 f16 bf16 u64 i64 f64; do
        same_as_single "1 4" "--n 3001 --k 45 --dtype $t --dist ND"
        same_as_single "3" "--n 3001 --k 200 --dtype $t --dist FEW --smallest" "--device-cap 150"
    done
}

@test "floats with NaN, -0.0 and infinities, ties across ranks, every float width and both orders" {
    for t in f32 f16 bf16 f64; do
        same_as_single "2 4" "--n 2001 --k 300 --dtype $t --dist SPECIAL"
        same_as_single "3" "--n 2001 --k 1000 --dtype $t --dist SPECIAL --smallest"
    done
}

# values FILE WIDTH: the file's values as hex words, sorted (a multiset to compare)
values() { od -An -v -t "x$2" "$1" | tr -s ' ' '\n' | sed '/^$/d' | sort; }

@test "without --sorted several ranks return the same k values in no promised order" {
    local ref="$BATS_TEST_TMPDIR/ref" got="$BATS_TEST_TMPDIR/got"
    for spec in "u32 4 ND" "f16 2 EQ" "f64 8 SPECIAL" "i64 8 FEW"; do
        set -- $spec
        "$DRTOPK" run --backend cpu --n 3001 --k 500 --dtype "$1" --dist "$3" --output "$ref" >/dev/null
        for np in 2 3 4; do
            run -0 --separate-stderr mpi "$np" --backend cpu --n 3001 --k 500 --dtype "$1" --dist "$3" --verify \
                --json --output "$got"
            [[ "$output" == *'"sorted": false'* && "$output" == *'"verify": "PASS"'* ]]
            [ "$(values "$ref.values" "$2")" = "$(values "$got.values" "$2")" ]
        done
    done
}

# indices FILE: the file's uint64 positions, sorted (a set to compare)
indices() { od -An -v -t u8 "$1" | tr -s ' ' '\n' | sed '/^$/d' | sort -n; }

@test "--deterministic: drtopk run --deterministic's bits sorted, its pairs unsorted, ties across ranks" {
    local ref="$BATS_TEST_TMPDIR/ref" got="$BATS_TEST_TMPDIR/got"
    # the delegate pipeline (dr-radix) keeps other ties than the smallest positions on FEW data: there
    # the ranks' exchange without --deterministic gives other positions, with it these
    for spec in "u32 FEW 30001 500 dr-radix largest" "f32 EQ 2001 333 auto largest" "i64 FEW 3001 45 auto largest" \
                "f16 UD 5000 300 auto largest" "bf16 SPECIAL 4001 900 auto smallest"; do
        set -- $spec
        opts="--backend cpu --n $3 --k $4 --dtype $1 --dist $2"
        [ "$6" = smallest ] && opts="$opts --smallest"
        algo=""
        [ "$5" = auto ] || algo="--algo $5"
        "$DRTOPK" run $opts --deterministic --sorted --output "$ref" >/dev/null
        for np in 1 2 3 4; do
            run -0 --separate-stderr mpi "$np" $opts $algo --deterministic --sorted --verify --json --output "$got"
            [[ "$output" == *'"deterministic": true'* && "$output" == *'"verify": "PASS"'* ]]
            cmp "$ref.values" "$got.values"
            cmp "$ref.indices" "$got.indices"
            run -0 --separate-stderr mpi "$np" $opts $algo --deterministic --output "$got"
            [ "$(indices "$ref.indices")" = "$(indices "$got.indices")" ]
        done
    done
    # without the flag, the pipeline's ties differ there (so the check above can fail)
    run -0 --separate-stderr mpi 3 --backend cpu --n 30001 --k 500 --dtype u32 --dist FEW --algo dr-radix --sorted \
        --output "$got"
    "$DRTOPK" run --backend cpu --n 30001 --k 500 --dtype u32 --dist FEW --deterministic --sorted --output "$ref" \
        >/dev/null
    ! cmp -s "$ref.indices" "$got.indices"
}

@test "k = 1 and k = n" {
    same_as_single "1 3 4" "--n 999 --k 1 --dist CD"
    same_as_single "1 3 4" "--n 999 --k 999 --dist FEW"
}

@test "one rank orders nothing without --sorted, as drtopk run; --sorted orders it best first" {
    local ref="$BATS_TEST_TMPDIR/ref" got="$BATS_TEST_TMPDIR/got" opts="--n 5000 --k 300 --dist ND"
    "$DRTOPK" run --backend cpu $opts --output "$ref" >/dev/null
    "$DRTOPK" run --backend cpu $opts --sorted --output "$ref.sorted" >/dev/null
    # the unordered selection differs from the ordered one: the check below can tell them apart
    ! cmp -s "$ref.indices" "$ref.sorted.indices"
    for extra in "" "--device-cap 700"; do
        run -0 --separate-stderr mpi 1 --backend cpu $opts $extra --verify --json --output "$got"
        [[ "$output" == *'"sorted": false'* && "$output" == *'"verify": "PASS"'* ]]
        cmp "$ref.indices" "$got.indices"     # the CPU selection's own order (by position), not best first
        run -0 --separate-stderr mpi 1 --backend cpu $opts $extra --sorted --verify --json --output "$got"
        [[ "$output" == *'"sorted": true'* && "$output" == *'"verify": "PASS"'* ]]
        cmp "$ref.sorted.values" "$got.values"
    done
    run -0 mpi 1 --backend cpu $opts
    [[ "$output" == *"select:    k = 300 largest, in no promised order (--sorted orders them)"* ]]
}

@test "out of core: sub-vectors of --device-cap, the carried k-th value filters" {
    same_as_single "1 2 3 4" "--n 5001 --k 37" "--device-cap 100"
    same_as_single "2 4" "--n 5001 --k 300 --dist EQ" "--device-cap 64"
    same_as_single "3" "--n 4099 --k 4099 --dtype f32 --dist ND" "--device-cap 7"
    run -0 mpi 2 --backend cpu --n 5001 --k 37 --device-cap 100 --json
    [[ "$output" =~ \"out_of_core_ranks\":\ 2 ]]
    [[ "$output" == *'"rank0": "out of core: the slice (2501 elements) is longer than --device-cap 100'* ]]
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

@test "in core by default, and the run says why" {
    run -0 mpi 2 --backend cpu --n 3000 --k 10
    [[ "$output" == *"0 of 2 ranks out of core"* ]]
    [[ "$output" == *"placement: rank 0 in core: the CPU backend selects the slice in host memory"* ]]
    # a cap only rank 0's longer slice exceeds: the first rank placed otherwise is named too
    run -0 mpi 2 --backend cpu --n 3001 --k 10 --device-cap 1500
    [[ "$output" == *"1 of 2 ranks out of core"* && "$output" == *"rank 1 in core"* ]]
}

@test "--json carries the ranks and the compute, reload and communication times" {
    run -0 --separate-stderr mpi 3 --backend cpu --n 3000 --k 10 --reps 2 --json
    [[ "$output" =~ ^\{\"command\":\ \"mpi\" ]]
    [[ "$output" =~ \"threshold_ms\":\ [0-9.]+ && "$output" == *'"exchange": "host"'* ]]
    [[ "$output" == *'"placement": {"rank0": "in core: '*'"other": null}'* ]]
    [[ "$output" =~ \"ranks\":\ 3 && "$output" =~ \"reps\":\ \[[0-9.]+,\ [0-9.]+\] ]]
    [[ "$output" =~ \"compute_ms\":\ [0-9.]+ && "$output" =~ \"reload_ms\":\ [0-9.]+ ]]
    [[ "$output" =~ \"comm_ms\":\ [0-9.]+ ]]
}

@test "the exchange: every rank's part to rank 0 named, the radix rounds by key width, none for one rank" {
    local zero='"cuda-ipc": 0, "cuda-aware-mpi": 0, "pinned-staging": 0}'
    run -0 --separate-stderr mpi 1 --backend cpu --n 3000 --k 10 --json
    [[ "$output" == *'"exchange": "none", "exchange_method": "none", "threshold_rounds": 0, "exchange_edges": {"host": 0, '"$zero"', "exchange_fallback": null'* ]]
    # every rank but 0 sends one part; the CPU backend moves host memory (--no-ipc changes nothing)
    for np in 2 3 4; do
        run -0 --separate-stderr mpi "$np" --backend cpu --n 3000 --k 10 --json --no-ipc
        [[ "$output" == *'"exchange": "host", "exchange_method": "radix-threshold-gather", "threshold_rounds": 4, "exchange_edges": {"host": '$((np - 1))', '"$zero"* ]]
    done
    # one 8-bit digit a round: 2 rounds for 16-bit keys, 8 for 64-bit ones
    run -0 --separate-stderr mpi 2 --backend cpu --n 3000 --k 10 --json --dtype f16
    [[ "$output" == *'"threshold_rounds": 2,'* ]]
    run -0 --separate-stderr mpi 2 --backend cpu --n 3000 --k 10 --json --dtype i64
    [[ "$output" == *'"threshold_rounds": 8,'* ]]
    run -0 mpi 1 --backend cpu --n 3000 --k 10
    [[ "$output" == *"exchange:  none: one rank, no part moves"* ]]
    run -0 mpi 3 --backend cpu --n 3000 --k 10
    [[ "$output" == *"exchange:  host (2 parts by host memory through MPI) to rank 0 at the k-th key, which a radix select of 4 rounds over the ranks' lists fixed; counting and compaction on the host"* ]]
}

@test "--db stores the Table 2 row" {
    command -v sqlite3 >/dev/null || skip "sqlite3 not installed"
    local db="$BATS_TEST_TMPDIR/t2.sqlite"
    run -0 mpi 2 --backend cpu --n 4000 --k 16 --device-cap 1000 --reps 2 --db "$db"
    run -0 sqlite3 "$db" "SELECT ranks, n, k, device_cap, out_of_core, chunks, reps, total_ms > 0, \
                          comm_ms >= 0, algorithm FROM multi_gpu"
    [ "$output" = "2|4000|16|1000|1|2|2|1|1|radix" ]   # the CPU planner's standalone radix select
    run -0 mpi 2 --backend cpu --n 4000 --k 16 --reps 1 --db "$db"
    run -0 sqlite3 "$db" "SELECT device_cap, out_of_core FROM multi_gpu WHERE reps = 1"
    [ "$output" = "0|0" ]
    run -0 sqlite3 "$db" "SELECT DISTINCT program, status FROM runs"
    [ "$output" = "drtopk-mpi|done" ]
    # how the parts reached rank 0, part of the row's key: the CPU backend's host copies, none for one rank
    run -0 mpi 1 --backend cpu --n 4000 --k 16 --reps 1 --db "$db"
    run -0 sqlite3 "$db" "SELECT ranks, exchange FROM multi_gpu WHERE reps = 1 ORDER BY ranks"
    [ "$output" = "$(printf '1|none\n2|host')" ]
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
    run --separate-stderr mpi 2 --n 1000 --k 5 --backend cpu --deterministic --device-cap 100
    [ "$status" -eq 2 ] && [[ "$stderr" == *"--deterministic is not implemented out of core"* ]]
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

# ---- ranks that disagree stop before any work ----------------------------------

# mismatch "OPTION" "RANK 0'S VALUE" "RANK 1'S VALUE": two ranks (MPMD form)
# given different values end with exit 2, one message naming rank 1 and the
# option, in bounded time
mismatch() {
    local opt="$1" a="$2" b="$3" base="--backend cpu"
    [ "$opt" = "--n" ] || base="$base --n 2000"
    [ "$opt" = "--k" ] || base="$base --k 7"
    # shellcheck disable=SC2086
    run --separate-stderr timeout "$MPI_TIMEOUT" mpirun --oversubscribe \
        -np 1 "$DRTOPK_MPI" $base $opt $a : -np 1 "$DRTOPK_MPI" $base $opt $b
    [ "$status" -eq 2 ] || { echo "$opt: exit $status: $stderr" >&2; return 1; }
    [[ "$stderr" == *"rank 1 of 2 failed"* && "$stderr" == *"every rank must be given the same $opt"* ]] ||
        { echo "$opt: $stderr" >&2; return 1; }
    [ "$(grep -c 'drtopk-mpi: error' <<< "$stderr")" -eq 1 ]
}

@test "different options on two ranks: exit 2 naming the rank and the option, never a hang" {
    mismatch --n 3000 3001
    mismatch --k 7 8
    mismatch --dtype u32 f64
    mismatch --reps 1 2
    mismatch --warmup 0 1
    mismatch --seed 1 2
    mismatch --dist UD ND
    mismatch --device-cap 100 200
    # a flag on one rank only: its value against the default
    run --separate-stderr timeout "$MPI_TIMEOUT" mpirun --oversubscribe \
        -np 1 "$DRTOPK_MPI" --backend cpu --n 2000 --k 7 : -np 1 "$DRTOPK_MPI" --backend cpu --n 2000 --k 7 --smallest
    [ "$status" -eq 2 ] && [[ "$stderr" == *"runs with --smallest 1 where rank 0 runs with --smallest 0"* ]]
    run --separate-stderr timeout "$MPI_TIMEOUT" mpirun --oversubscribe \
        -np 1 "$DRTOPK_MPI" --backend cpu --n 2000 --k 7 --sorted : -np 1 "$DRTOPK_MPI" --backend cpu --n 2000 --k 7
    [ "$status" -eq 2 ] && [[ "$stderr" == *"runs with --sorted 0 where rank 0 runs with --sorted 1"* ]]
    run --separate-stderr timeout "$MPI_TIMEOUT" mpirun --oversubscribe \
        -np 1 "$DRTOPK_MPI" --backend cpu --n 2000 --k 7 : -np 1 "$DRTOPK_MPI" --backend cpu --n 2000 --k 7 --no-ipc
    [ "$status" -eq 2 ] && [[ "$stderr" == *"runs with --no-ipc 1 where rank 0 runs with --no-ipc 0"* ]]
    run --separate-stderr timeout "$MPI_TIMEOUT" mpirun --oversubscribe \
        -np 1 "$DRTOPK_MPI" --backend cpu --n 2000 --k 7 --verify : -np 2 "$DRTOPK_MPI" --backend cpu --n 2000 --k 7
    [ "$status" -eq 2 ] && [[ "$stderr" == *"rank 1 of 3 failed"* && "$stderr" == *"the same --verify"* ]]
    run --separate-stderr timeout "$MPI_TIMEOUT" mpirun --oversubscribe \
        -np 1 "$DRTOPK_MPI" --backend cpu --n 2000 --k 7 : -np 1 "$DRTOPK_MPI" --backend cpu --n 2000 --k 7 --help
    [ "$status" -eq 2 ] && [[ "$stderr" == *"the same --help"* ]]
}

@test "one --input path holding different files on two ranks: exit 2, never wrong indices" {
    # the same relative path in two working directories stands for one path on two nodes
    mkdir -p "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b" "$BATS_TEST_TMPDIR/c"
    "$DRTOPK" gen --n 5000 --dist ND --out "$BATS_TEST_TMPDIR/a/v.u32"
    "$DRTOPK" gen --n 5000 --dist ND --seed 2 --out "$BATS_TEST_TMPDIR/b/v.u32"
    "$DRTOPK" gen --n 5001 --dist ND --out "$BATS_TEST_TMPDIR/c/v.u32"
    run --separate-stderr timeout "$MPI_TIMEOUT" mpirun --oversubscribe \
        -np 1 -wdir "$BATS_TEST_TMPDIR/a" "$DRTOPK_MPI" --input v.u32 --k 9 : \
        -np 1 -wdir "$BATS_TEST_TMPDIR/b" "$DRTOPK_MPI" --input v.u32 --k 9
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"rank 1 of 2 failed"* && "$stderr" == *"--input v.u32: this rank's file holds other data"* ]]
    [ "$(grep -c 'drtopk-mpi: error' <<< "$stderr")" -eq 1 ]
    # a different size is a different n
    run --separate-stderr timeout "$MPI_TIMEOUT" mpirun --oversubscribe \
        -np 1 -wdir "$BATS_TEST_TMPDIR/a" "$DRTOPK_MPI" --input v.u32 --k 9 : \
        -np 1 -wdir "$BATS_TEST_TMPDIR/c" "$DRTOPK_MPI" --input v.u32 --k 9
    [ "$status" -eq 2 ] && [[ "$stderr" == *"runs with --n 5001 where rank 0 runs with --n 5000"* ]]
    # the same file under both paths runs
    cp "$BATS_TEST_TMPDIR/a/v.u32" "$BATS_TEST_TMPDIR/b/v.u32"
    run -0 timeout "$MPI_TIMEOUT" mpirun --oversubscribe \
        -np 1 -wdir "$BATS_TEST_TMPDIR/a" "$DRTOPK_MPI" --input v.u32 --k 9 --verify : \
        -np 1 -wdir "$BATS_TEST_TMPDIR/b" "$DRTOPK_MPI" --input v.u32 --k 9 --verify
    [[ "$output" == *"verify:    PASS"* ]]
}

@test "a killed rank ends every rank" {
    # a run long enough to be killed in: many repetitions of a CPU top-k
    timeout "$MPI_TIMEOUT" mpirun --oversubscribe -np 3 "$DRTOPK_MPI" --backend cpu --n 2^20 --k 5 --reps 100000 \
        > "$BATS_TEST_TMPDIR/out" 2>&1 &
    local launcher=$! ranks="" tries=0
    # the ranks: drtopk-mpi processes under this launcher (timeout, then mpirun)
    while [ "$(wc -w <<< "$ranks")" -lt 3 ] && [ "$tries" -lt 100 ]; do
        sleep 0.1
        tries=$((tries + 1))
        ranks=""
        for m in $(pgrep -P "$launcher"); do
            for p in $(pgrep -P "$m"); do [ "$(cat "/proc/$p/comm" 2>/dev/null)" = drtopk-mpi ] && ranks="$ranks $p"; done
        done
    done
    [ "$(wc -w <<< "$ranks")" -eq 3 ]
    sleep 1
    set -- $ranks
    kill -9 "$2"
    local rc=0
    wait "$launcher" || rc=$?
    [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]
    for p in $ranks; do
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        ! kill -0 "$p" 2>/dev/null
    done
}
