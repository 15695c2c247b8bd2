#!/usr/bin/env bats
# tuner.bats -- the tuner and its database under faults: killed (SIGKILL) mid-
# sweep and resumed, two tuners on one database, a full and a read-only file
# system (small tmpfs mounts; root only, else skipped).  Each asserts nothing
# is lost (every config stored exactly once, the database passes
# integrity_check) and nothing is left behind (no temporary, no run left
# 'running').

bats_require_minimum_version 1.5.0
load helpers

SWEEP=(--backend cpu --n 2^12,2^13,2^14 --k 1,16,256 --reps 1 --dtype u32 --dist UD,ND)

setup() {
    [ -x "$TUNER" ] || skip "no tuner binary at $TUNER (run ninja first)"
    command -v sqlite3 > /dev/null || skip "the sqlite3 shell is not installed"
    D="$BATS_TEST_TMPDIR"
    MOUNTS=()
}

teardown() {
    unmount_all
}

# q DB SQL: one value
q() { sqlite3 "$1" "$2"; }

# measured_once DB: every config of the sweep stored once, none twice
measured_once() {
    [ "$(q "$1" "SELECT count(*) FROM (SELECT 1 FROM measurements GROUP BY algorithm, dtype, dist, n, k, alpha, beta, flags HAVING count(*) > 1)")" = 0 ]
    [ "$(q "$1" "PRAGMA integrity_check")" = ok ]
}

@test "tuner: SIGKILL mid-sweep, then a rerun measures only what is missing; the killed run is marked killed" {
    "$TUNER" "${SWEEP[@]}" --db "$D/t.sqlite" > "$D/out1" 2>&1 &
    pid=$!
    until [ "$(q "$D/t.sqlite" "SELECT count(*) FROM measurements" 2>/dev/null || echo 0)" -ge 3 ]; do
        kill -0 "$pid" 2>/dev/null || { cat "$D/out1"; false; }
    done
    kill -KILL "$pid"
    wait "$pid" || true
    before=$(q "$D/t.sqlite" "SELECT count(*) FROM measurements")
    run -0 "$TUNER" "${SWEEP[@]}" --db "$D/t.sqlite"
    [[ "$output" == *"$before already measured"* ]]
    measured_once "$D/t.sqlite"
    [ "$(q "$D/t.sqlite" "SELECT status FROM runs ORDER BY id LIMIT 1")" = killed ]
    [ "$(q "$D/t.sqlite" "SELECT count(*) FROM runs WHERE status = 'running'")" = 0 ]
    no_temporaries "$D"
}

@test "tuner: two tuners on one database share the sweep: every config measured once, both runs done" {
    "$TUNER" "${SWEEP[@]}" --db "$D/t.sqlite" > "$D/a" 2>&1 &
    a=$!
    "$TUNER" "${SWEEP[@]}" --db "$D/t.sqlite" > "$D/b" 2>&1 &
    b=$!
    wait "$a" || { cat "$D/a"; false; }
    wait "$b" || { cat "$D/b"; false; }
    measured_once "$D/t.sqlite"
    run -0 "$TUNER" "${SWEEP[@]}" --db "$D/t.sqlite"
    [[ "$output" == *", 0 to measure"* ]]
    [ "$(q "$D/t.sqlite" "SELECT count(*) FROM runs WHERE status <> 'done'")" = 0 ]
}

@test "tuner: a full file system mid-sweep exits 1 naming the database; after room is made the rerun completes" {
    small_fs 32m "$D/fs"
    "$TUNER" "${SWEEP[@]}" --db "$D/fs/t.sqlite" > "$D/out" 2>&1 &
    pid=$!
    until [ "$(q "$D/fs/t.sqlite" "SELECT count(*) FROM measurements" 2>/dev/null || echo 0)" -ge 1 ]; do
        kill -0 "$pid" 2>/dev/null || { cat "$D/out"; false; }
    done
    fill_fs "$D/fs"                                  # the disk fills under the running sweep
    status=0
    wait "$pid" || status=$?
    output=$(cat "$D/out")
    [ "$status" -eq 1 ]
    [[ "$output" == *"$D/fs/t.sqlite"* ]]
    [[ "$output" == *"full"* || "$output" == *"No space left on device"* ]]
    rm -f "$D/fs/filler"
    run -0 "$TUNER" "${SWEEP[@]}" --db "$D/fs/t.sqlite"
    measured_once "$D/fs/t.sqlite"
    no_temporaries "$D/fs"
}

@test "tuner: a database on a read-only file system exits 2 with the OS reason, touching nothing" {
    small_fs 4m "$D/ro"
    "$TUNER" --backend cpu --n 2^12 --k 1 --reps 1 --dtype u32 --dist UD --db "$D/ro/t.sqlite" > /dev/null 2>&1
    sum=$(md5sum < "$D/ro/t.sqlite")
    mount -o remount,ro "$D/ro"
    run -2 "$TUNER" "${SWEEP[@]}" --db "$D/ro/t.sqlite"
    [[ "$output" == *"$D/ro/t.sqlite"* ]]
    [[ "$output" == *"read-only"* || "$output" == *"Read-only file system"* ]]
    [ "$(md5sum < "$D/ro/t.sqlite")" = "$sum" ]
}

@test "drtopk gen and dataset on a full file system: exit 1 with the path and errno text, OUT as it was, no temporary" {
    [ -x "$DRTOPK" ] || skip "no drtopk binary"
    small_fs 1m "$D/full"
    echo old > "$D/full/v.u32"
    echo old > "$D/full/d.u32"
    fill_fs "$D/full"
    run -1 "$DRTOPK" gen --n 2^20 --out "$D/full/v.u32"
    [[ "$output" == *"$D/full/v.u32"*"No space left on device"* ]]
    printf '0 1\n' > "$D/g.txt"
    run -1 "$DRTOPK" dataset degrees --graph "$D/g.txt" --out "$D/full/d.u32" --tile 2^20 --quiet
    [[ "$output" == *"$D/full/d.u32"*"No space left on device"* ]]
    [ "$(cat "$D/full/v.u32")" = old ] && [ "$(cat "$D/full/d.u32")" = old ]
    no_temporaries "$D/full"
}

@test "drtopk gen on a read-only file system: exit 1 naming the path and the OS reason" {
    [ -x "$DRTOPK" ] || skip "no drtopk binary"
    small_fs 1m "$D/rofs"
    mount -o remount,ro "$D/rofs"
    run -1 "$DRTOPK" gen --n 1000 --out "$D/rofs/v.u32"
    [[ "$output" == *"$D/rofs/v.u32"*"Read-only file system"* ]]
    no_temporaries "$D/rofs"
}
