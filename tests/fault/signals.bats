#!/usr/bin/env bats
# signals.bats -- every program that writes files, ended by SIGTERM, SIGINT or
# SIGHUP while its output's temporary file exists: it dies of that signal, no
# temporary file is left, and OUT holds what it held before (nothing lost,
# nothing half-written).

bats_require_minimum_version 1.5.0
load helpers

# elements written mid-run: enough that writing takes a while (256 MiB of u32)
BIG=2^26

setup() {
    [ -x "$DRTOPK" ] || skip "no drtopk binary at $DRTOPK (run ninja first)"
    D="$BATS_TEST_TMPDIR"
    export DRTOPK_DB="$D/no-tuning.sqlite"
}

@test "drtopk gen: SIGTERM, SIGINT and SIGHUP mid-write leave no temporary and OUT as it was" {
    for sig in TERM INT HUP; do
        echo old > "$D/big.u32"
        kill_mid_write "$sig" "$D" -- "$DRTOPK" gen --n "$BIG" --out "$D/big.u32"
        [ "$status" -eq $((128 + $(kill -l "$sig"))) ]
        no_temporaries "$D"
        [ "$(cat "$D/big.u32")" = old ]
    done
}

@test "drtopk dataset degrees --tile: SIGTERM mid-write leaves no temporary, OUT and --stats as they were" {
    printf '0 1\n1 2\n' > "$D/g.txt"
    echo old > "$D/d.u32"
    echo old > "$D/s.tsv"
    kill_mid_write TERM "$D" -- "$DRTOPK" dataset degrees --graph "$D/g.txt" --out "$D/d.u32" --tile "$BIG" \
        --stats "$D/s.tsv" --quiet
    [ "$status" -eq 143 ]
    no_temporaries "$D"
    [ "$(cat "$D/d.u32")" = old ]
    [ "$(cat "$D/s.tsv")" = old ]
}

@test "drtopk run --output: SIGTERM mid-write leaves no temporary and both outputs as they were" {
    echo old > "$D/r.values"
    echo old > "$D/r.indices"
    kill_mid_write TERM "$D" -- "$DRTOPK" run --backend cpu --n 2^22 --k 2^21 --reps 1 --warmup 0 --output "$D/r"
    [ "$status" -eq 143 ]
    no_temporaries "$D"
    [ "$(cat "$D/r.values")" = old ] && [ "$(cat "$D/r.indices")" = old ]
}

@test "drtopk batch --output: SIGTERM mid-write leaves no temporary and both outputs as they were" {
    echo old > "$D/b.values"
    kill_mid_write TERM "$D" -- "$DRTOPK" batch --backend cpu --rows 2^16 --cols 128 --k 64 --reps 1 --warmup 0 --output "$D/b"
    [ "$status" -eq 143 ]
    no_temporaries "$D"
    [ "$(cat "$D/b.values")" = old ] && [ ! -e "$D/b.indices" ]
}

@test "drtopk-mpi --output: SIGTERM mid-write leaves no temporary and both outputs as they were" {
    [ -x "$DRTOPK_MPI" ] || skip "no drtopk-mpi binary"
    echo old > "$D/m.values"
    # one rank started without mpirun (an MPI singleton), so the signal reaches it directly
    kill_mid_write TERM "$D" -- "$DRTOPK_MPI" --backend cpu --n 2^22 --k 2^21 --reps 1 --warmup 0 --output "$D/m"
    [ "$status" -eq 143 ]
    no_temporaries "$D"
    [ "$(cat "$D/m.values")" = old ] && [ ! -e "$D/m.indices" ]
}

@test "a finished write leaves OUT whole and nothing else (the cleanup handler removes only temporaries)" {
    run -0 "$DRTOPK" gen --n 1000 --out "$D/small.u32"
    [ "$(stat -c %s "$D/small.u32")" -eq 4000 ]
    no_temporaries "$D"
}
