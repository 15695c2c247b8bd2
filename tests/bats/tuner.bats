#!/usr/bin/env bats
# tuner.bats -- the tuner and its SQLite store end to end on the CPU backend
# (issue 5): schema creation, a sweep, resume after SIGINT and SIGKILL without
# lost or doubled configs, --force, bad database paths, a read-only database,
# merging databases without duplicates, and the options of issue 4's fixed-plan
# benchmark: --alpha-span, --beta, the sweep order and the --skip-after-s rule.

TUNER="${TUNER:-$BATS_TEST_DIRNAME/../../bin/tuner}"
# A small sweep: 3 n x 3 k x up to 7 alpha x 3 beta.
SMALL=(--backend cpu --n 2^10,2^12,2^13 --k 1,16,256 --reps 1)

setup() {
    D="$(mktemp -d)"
}

teardown() {
    rm -rf "$D"
}

q() { sqlite3 "$1" "$2"; }

# Configs in the sweep, from the tuner's first line.
sweep_total() { sed -n 's/.* \([0-9]*\) configs in the sweep.*/\1/p' "$1" | head -n1; }

duplicates() {
    q "$1" "SELECT count(*) FROM (SELECT 1 FROM measurements GROUP BY machine_id, git_commit, algorithm,
           first_algo, second_algo, dtype, dist, seed, n, k, alpha, beta, flags, sort_order HAVING count(*) > 1)"
}

@test "tuner creates the versioned schema in WAL mode" {
    run "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1 --db "$D/new.sqlite"
    [ "$status" -eq 0 ]
    [ "$(q "$D/new.sqlite" 'SELECT version FROM schema_version')" -eq 2 ]
    [ "$(q "$D/new.sqlite" 'PRAGMA journal_mode')" = wal ]
    for t in machines runs measurements fits choices; do
        [ "$(q "$D/new.sqlite" "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='$t'")" -eq 1 ]
    done
    [ "$(q "$D/new.sqlite" "SELECT backend FROM machines")" = cpu ]
}

@test "a CPU quick sweep stores every config verified, fits and choices" {
    run "$TUNER" "${SMALL[@]}" --db "$D/q.sqlite"
    [ "$status" -eq 0 ]
    total=$(sweep_total <(echo "$output"))
    [ "$total" -gt 50 ]
    [ "$(q "$D/q.sqlite" 'SELECT count(*) FROM measurements')" -eq "$total" ]
    [ "$(q "$D/q.sqlite" "SELECT count(*) FROM measurements WHERE status='ok' AND verified=1 AND verify_ok=1")" -eq "$total" ]
    [ "$(q "$D/q.sqlite" "SELECT count(*) FROM fits WHERE algorithm='dr-radix'")" -eq 3 ]
    [ "$(q "$D/q.sqlite" "SELECT min(log2k_min) || ' ' || max(log2k_max) FROM choices")" = "0 63" ]
    [ "$(q "$D/q.sqlite" "SELECT status FROM runs")" = done ]
    [[ "$output" == *"oracle vs tuned alpha"* ]]
}

# Start a slow sweep in the background; wait until it stored at least $2 rows.
start_and_wait() {
    local db="$1" rows="$2"
    "$TUNER" --backend cpu --n 2^14,2^16 --k 1,16,256 --reps 4 --db "$db" > "$D/out.txt" 2>&1 &
    PID=$!
    for _ in $(seq 1 300); do
        n=$(q "$db" 'SELECT count(*) FROM measurements' 2>/dev/null || echo 0)
        [ "${n:-0}" -ge "$rows" ] && return 0
        sleep 0.05
    done
    return 1
}

@test "killed with SIGINT and SIGKILL mid-sweep, a resume completes with nothing missing or doubled" {
    db="$D/k.sqlite"
    start_and_wait "$db" 3
    kill -INT "$PID"
    st=0; wait "$PID" || st=$?
    [ "$st" -eq 130 ]
    total=$(sweep_total "$D/out.txt")
    after_int=$(q "$db" 'SELECT count(*) FROM measurements')
    [ "$after_int" -lt "$total" ]
    [ "$(q "$db" "SELECT status FROM runs")" = interrupted ]

    start_and_wait "$db" $((after_int + 3))
    kill -9 "$PID"
    wait "$PID" || true
    after_kill=$(q "$db" 'SELECT count(*) FROM measurements')
    [ "$after_kill" -lt "$total" ]
    [ "$(q "$db" 'PRAGMA integrity_check')" = ok ]

    run "$TUNER" --backend cpu --n 2^14,2^16 --k 1,16,256 --reps 4 --db "$db"
    [ "$status" -eq 0 ]
    [[ "$output" == *"$after_kill already measured"* ]]
    [ "$(q "$db" 'PRAGMA integrity_check')" = ok ]
    [ "$(q "$db" 'SELECT count(*) FROM measurements')" -eq "$total" ]
    [ "$(duplicates "$db")" -eq 0 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE status <> 'ok'")" -eq 0 ]
    [ "$(q "$db" 'SELECT group_concat(status) FROM (SELECT status FROM runs ORDER BY id)')" = "interrupted,running,done" ]
}

@test "--resume skips measured configs and --force measures them again" {
    db="$D/f.sqlite"
    "$TUNER" --backend cpu --n 2^10 --k 1,4 --reps 1 --db "$db" >/dev/null
    total=$(q "$db" 'SELECT count(*) FROM measurements')
    run "$TUNER" --backend cpu --n 2^10 --k 1,4 --reps 1 --db "$db"
    [ "$status" -eq 0 ]
    [[ "$output" == *"$total already measured, 0 to measure"* ]]
    run "$TUNER" --backend cpu --n 2^10 --k 1,4 --reps 1 --db "$db" --force
    [ "$status" -eq 0 ]
    [[ "$output" == *"0 already measured, $total to measure"* ]]
    [ "$(q "$db" 'SELECT count(*) FROM measurements')" -eq "$total" ]
    [ "$(q "$db" 'SELECT count(*) FROM measurements WHERE run_id = (SELECT max(id) FROM runs)')" -eq "$total" ]
}

@test "bad --db paths fail with a clear message" {
    run "$TUNER" --backend cpu --n 2^10 --k 1 --db "$D/no/such/dir/x.sqlite"
    [ "$status" -eq 2 ]
    [[ "$output" == *"directory $D/no/such/dir does not exist"* ]]
    run "$TUNER" --backend cpu --n 2^10 --k 1 --db "$D"
    [ "$status" -eq 2 ]
    [[ "$output" == *"is a directory"* ]]
    echo "not a database, only text, but longer than a SQLite header would be" > "$D/text.sqlite"
    run "$TUNER" --backend cpu --n 2^10 --k 1 --db "$D/text.sqlite"
    [ "$status" -eq 2 ]
    [[ "$output" == *"not a SQLite database"* ]]
    [ "$(cat "$D/text.sqlite")" = "not a database, only text, but longer than a SQLite header would be" ]
}

@test "a read-only database fails with a clear message and is left unchanged" {
    db="$D/ro.sqlite"
    "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1 --db "$db" >/dev/null
    before=$(q "$db" 'SELECT count(*) FROM runs')
    chmod 755 "$D"
    chmod 444 "$db"
    # root ignores file modes: drop to nobody to see what a user sees.
    if [ "$(id -u)" -eq 0 ]; then
        run setpriv --reuid=65534 --regid=65534 --clear-groups "$TUNER" --backend cpu --n 2^10 --k 1 --db "$db"
    else
        run "$TUNER" --backend cpu --n 2^10 --k 1 --db "$db"
    fi
    [ "$status" -eq 2 ]
    [[ "$output" == *"read-only"* ]]
    [ "$(q "$db" 'SELECT count(*) FROM runs')" -eq "$before" ]
}

@test "merging two databases adds each machine, run and config once" {
    a="$D/a.sqlite"; b="$D/b.sqlite"
    "$TUNER" --backend cpu --n 2^10 --k 1,4 --reps 1 --db "$a" >/dev/null
    "$TUNER" --backend cpu --n 2^10,2^11 --k 1,4 --reps 1 --db "$b" >/dev/null
    na=$(q "$a" 'SELECT count(*) FROM measurements')
    nb=$(q "$b" 'SELECT count(*) FROM measurements')
    # b's configs for n = 2^10 are a's too (same machine and commit): the other
    # machine is simulated by renaming b's copy of it.
    cp "$b" "$D/c.sqlite"
    q "$D/c.sqlite" "UPDATE machines SET uuid = 'cpu:other-host', name = 'Other CPU';
                     UPDATE runs SET run_uuid = run_uuid || '-other'"
    run "$TUNER" --merge "$b" --db "$a"
    [ "$status" -eq 0 ]
    [ "$(q "$a" 'SELECT count(*) FROM measurements')" -eq "$nb" ]
    [ "$(q "$a" 'SELECT count(*) FROM machines')" -eq 1 ]
    run "$TUNER" --merge "$D/c.sqlite" --db "$a"
    [ "$status" -eq 0 ]
    [[ "$output" == *"1 machines, 1 runs, $nb measurements"* ]]
    [ "$(q "$a" 'SELECT count(*) FROM measurements')" -eq $((2 * nb)) ]
    run "$TUNER" --merge "$D/c.sqlite" --db "$a"
    [[ "$output" == *"0 machines, 0 runs, 0 measurements, 0 fits, 0 choices added"* ]]
    [ "$(q "$a" 'SELECT count(*) FROM measurements')" -eq $((2 * nb)) ]
    [ "$(duplicates "$a")" -eq 0 ]
    [ "$(q "$a" 'PRAGMA integrity_check')" = ok ]
    [ "$(q "$a" 'PRAGMA foreign_key_check' | wc -l)" -eq 0 ]
    [ "$na" -lt "$nb" ]
    run "$TUNER" --merge "$D/missing.sqlite" --db "$a"
    [ "$status" -eq 2 ]
    [[ "$output" == *"does not exist"* ]]
}

# Rule 4's alpha with the paper's const 3, as drtopk_rule4_alpha rounds and
# clamps it (alpha in [1, min(24, ceil log2 n)]).
RULE4_SQL="max(1, min(min(24, CAST(ceil(log2(n)) AS INTEGER)), CAST(round(0.5 * (3 + log2(n) - log2(k))) AS INTEGER)))"

@test "--alpha-span 0 --beta 2: dr- at Rule 4's alpha only, standalone once per (n, k, dist)" {
    db="$D/fixed.sqlite"
    run "$TUNER" --backend cpu --n 2^12,2^13 --k 1,16,256 --dist UD,ND --algo radix,dr-radix,bitonic,dr-bucket \
        --alpha-span 0 --beta 2 --reps 1 --db "$db"
    [ "$status" -eq 0 ]
    # 4 algorithms x 2 n x 3 k x 2 dists, one config each
    [ "$(sweep_total <(echo "$output"))" -eq 48 ]
    [ "$(q "$db" 'SELECT count(*) FROM measurements')" -eq 48 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE algorithm LIKE 'dr-%' AND beta = 2 AND alpha = $RULE4_SQL")" -eq 24 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE algorithm NOT LIKE 'dr-%' AND alpha = 0 AND beta = 0")" -eq 24 ]
    [ "$(q "$db" "SELECT count(*) FROM (SELECT DISTINCT algorithm, n, k, dist FROM measurements)")" -eq 48 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE status = 'ok' AND verify_ok = 1")" -eq 48 ]
    # One alpha per (dist, n, k) has no optimum to fit: no fit is stored.
    [ "$(q "$db" 'SELECT count(*) FROM fits')" -eq 0 ]
    [[ "$output" == *"fit u32 dr-radix beta=2: not fitted (one alpha per (dist, n, k))"* ]]
    [ "$(q "$db" "SELECT count(*) FROM choices WHERE beta = 2 AND rule4_const <> 3")" -eq 0 ]
}

@test "--alpha-span and --beta lists bound the sweep; the default stays Rule 4 +-3 and beta 1..3" {
    db="$D/span.sqlite"
    run "$TUNER" --backend cpu --n 2^12 --k 1,256 --algo dr-radix --alpha-span 1 --beta 3,1,3 --reps 1 --db "$db"
    [ "$status" -eq 0 ]
    # k = 1: Rule 4 alpha 8 -> 7..9; k = 256: 4 -> 3..5; betas 1 and 3 (the repeated 3 once)
    [ "$(q "$db" 'SELECT count(*) FROM measurements')" -eq 12 ]
    [ "$(q "$db" "SELECT group_concat(DISTINCT beta) FROM (SELECT beta FROM measurements ORDER BY beta)")" = "1,3" ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE abs(alpha - $RULE4_SQL) > 1")" -eq 0 ]
    [ "$(q "$db" "SELECT count(DISTINCT alpha) FROM measurements WHERE k = 256")" -eq 3 ]
    db2="$D/default.sqlite"
    run "$TUNER" --backend cpu --n 2^12 --k 1,256 --algo dr-radix --reps 1 --db "$db2"
    [ "$status" -eq 0 ]
    [ "$(q "$db2" "SELECT group_concat(DISTINCT beta) FROM (SELECT beta FROM measurements ORDER BY beta)")" = "1,2,3" ]
    [ "$(q "$db2" "SELECT max(abs(alpha - $RULE4_SQL)) FROM measurements")" -eq 3 ]
    [ "$(q "$db2" "SELECT count(DISTINCT alpha) FROM measurements WHERE k = 256")" -eq 7 ]
    for bad in "--beta 0" "--beta 9" "--beta 1,x" "--alpha-span -1" "--skip-after-s 0"; do
        run "$TUNER" --backend cpu --n 2^10 --k 1 $bad --db "$D/bad.sqlite"
        [ "$status" -eq 2 ]
    done
}

@test "configs of one data set run together, each data set once" {
    db="$D/order.sqlite"
    run "$TUNER" --backend cpu --n 2^12,2^11 --k 256,1,16 --dist UD,ND,CD --algo radix,dr-radix,bucket \
        --alpha-span 1 --beta 1,2 --reps 1 --db "$db"
    [ "$status" -eq 0 ]
    # In insertion order, (dist, n) changes exactly once per data set after the first.
    changes=$(q "$db" "SELECT count(*) FROM measurements a JOIN measurements b ON b.id = a.id + 1
                       WHERE a.dist <> b.dist OR a.n <> b.n")
    [ "$changes" -eq 5 ]
    # Within a data set and an algorithm, k never decreases (the skip rule needs it).
    [ "$(q "$db" "SELECT count(*) FROM measurements a JOIN measurements b ON b.id = a.id + 1
                  WHERE a.dist = b.dist AND a.n = b.n AND a.algorithm = b.algorithm AND b.k < a.k")" -eq 0 ]
}

@test "--skip-after-s: larger k of a too slow standalone algorithm are recorded as skipped, also on resume" {
    db="$D/skip.sqlite"
    # Every CPU call takes longer than a nanosecond: only the smallest k of each
    # standalone algorithm and dist is measured; dr- algorithms are never skipped.
    run "$TUNER" --backend cpu --n 2^12 --k 16,1 --dist UD,CD --algo radix,dr-radix,bitonic \
        --alpha-span 0 --beta 2 --reps 1 --skip-after-s 1e-9 --db "$db"
    [ "$status" -eq 0 ]
    [[ "$output" == *"(0 unsupported, 4 skipped, 0 errors)"* ]]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE status = 'ok' AND algorithm NOT LIKE 'dr-%'")" -eq 4 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE status = 'ok' AND algorithm NOT LIKE 'dr-%' AND k = 1")" -eq 4 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE status = 'unsupported' AND error LIKE 'skipped: %' AND k = 16")" -eq 4 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE algorithm = 'dr-radix' AND status = 'ok'")" -eq 4 ]
    # A later run with a larger k skips it from the stored slow measurement.
    run "$TUNER" --backend cpu --n 2^12 --k 1,16,256 --dist UD,CD --algo radix,dr-radix,bitonic \
        --alpha-span 0 --beta 2 --reps 1 --skip-after-s 1e-9 --db "$db"
    [ "$status" -eq 0 ]
    [[ "$output" == *"12 already measured, 6 to measure"* ]]
    [[ "$output" == *"(0 unsupported, 4 skipped, 0 errors)"* ]]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE k = 256 AND error LIKE 'skipped: %at k = 1 %'")" -eq 4 ]
    # With the default limit of 10 s nothing at these sizes is skipped.
    run "$TUNER" --backend cpu --n 2^12 --k 1,16,256 --dist UD --algo radix,bitonic --reps 1 --db "$D/noskip.sqlite"
    [ "$status" -eq 0 ]
    [ "$(q "$D/noskip.sqlite" "SELECT count(*) FROM measurements WHERE status = 'ok'")" -eq 6 ]
}

@test "drtopk_plan_auto takes const, beta and algorithm from this machine's tuning" {
    DRTOPK="$BATS_TEST_DIRNAME/../../bin/drtopk"
    run "$TUNER" "${SMALL[@]}" --db "$D/t.sqlite"
    [ "$status" -eq 0 ]
    # the choice stored for k = 16's range (log2 k = 4)
    choice=$(q "$D/t.sqlite" "SELECT beta || ' ' || rule4_const || ' ' || algorithm FROM choices
                              WHERE dtype = 'u32' AND 4 BETWEEN log2k_min AND log2k_max")
    [ -n "$choice" ]
    read -r beta const algo <<< "$choice"
    DRTOPK_DB="$D/t.sqlite" run "$DRTOPK" run --backend cpu --n 2^12 --k 16 --json
    [ "$status" -eq 0 ]
    plan=$(python3 -c 'import json,sys; p = json.load(sys.stdin)["plan"]
print(p["const_source"], p["beta"], p["rule4_const"], "dr-" + p["first_algo"])' <<< "$output")
    read -r src pbeta pconst palgo <<< "$plan"
    [ "$src" = database ]
    [ "$pbeta" -eq "$beta" ]
    python3 -c "import sys; sys.exit(abs($pconst - $const) > 1e-9)"
    [ "$palgo" = "$algo" ]
    # without the database: the paper's const and beta
    DRTOPK_DB="$D/none.sqlite" run "$DRTOPK" run --backend cpu --n 2^12 --k 16 --json
    [[ "$output" == *'"const_source": "default"'* ]]
    [ ! -e "$D/none.sqlite" ]
}
