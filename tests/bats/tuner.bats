#!/usr/bin/env bats
# tuner.bats -- the tuner and its SQLite store end to end on the CPU backend
# (issue 5): schema creation, a sweep, resume after SIGINT and SIGKILL without
# lost or doubled configs, --force, bad database paths, a read-only database,
# merging databases without duplicates, the options of issue 4's fixed-plan
# benchmark: --alpha-span, --beta, the sweep order and the --skip-after-s rule,
# and --import-peers (issue 4 item 6): the modern peers' JSON lines stored once,
# malformed lines refused by line number, merged along, schema 2 migrated.
# Also `drtopk run` planning with the tuning it loads from the database, and
# its warning when that database cannot be read.

bats_require_minimum_version 1.5.0

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
    [ "$(q "$D/new.sqlite" 'SELECT version FROM schema_version')" -eq 3 ]
    [ "$(q "$D/new.sqlite" 'PRAGMA journal_mode')" = wal ]
    for t in machines runs measurements fits choices peer_measurements; do
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

@test "--dtype takes every key type: 16- and 64-bit keys are measured and stored" {
    db="$D/dtypes.sqlite"
    run "$TUNER" --backend cpu --n 2^10 --k 1,4 --reps 1 --dtype f16,bf16,u64,i64,f64 --db "$db"
    [ "$status" -eq 0 ]
    [ "$(q "$db" "SELECT group_concat(dtype) FROM (SELECT DISTINCT dtype FROM measurements ORDER BY dtype)")" = \
      "bf16,f16,f64,i64,u64" ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE status <> 'ok'")" -eq 0 ]
    run "$TUNER" --backend cpu --n 2^10 --k 1 --dtype f16,u16 --db "$db"
    [ "$status" -eq 2 ]
    [[ "$output" == *"u16"* ]]
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
    [[ "$output" == *"fit u32 dr-radix beta=2: not fitted (no point swept over alpha)"* ]]
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
    # the CLI loads this host's tuning from $DRTOPK_DB and passes it to drtopk_plan_auto
    DRTOPK_DB="$D/t.sqlite" run --separate-stderr "$DRTOPK" run --backend cpu --n 2^12 --k 16 --json
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    plan=$(python3 -c 'import json,sys; p = json.load(sys.stdin)["plan"]
print(p["const_source"], p["beta"], p["rule4_const"], "dr-" + p["first_algo"], p["tuning_db"])' <<< "$output")
    read -r src pbeta pconst palgo pdb <<< "$plan"
    [ "$src" = database ]
    [ "$pbeta" -eq "$beta" ]
    python3 -c "import sys; sys.exit(abs($pconst - $const) > 1e-9)"
    [ "$palgo" = "$algo" ]
    [ "$pdb" = "$D/t.sqlite" ]
    # the text output names the database
    DRTOPK_DB="$D/t.sqlite" run "$DRTOPK" run --backend cpu --n 2^12 --k 16
    [ "$status" -eq 0 ]
    [[ "$output" == *"(tuned for this machine, from $D/t.sqlite)"* ]]
    # --const wins over the tuning
    DRTOPK_DB="$D/t.sqlite" run "$DRTOPK" run --backend cpu --n 2^12 --k 16 --const 1.5 --json
    [[ "$output" == *'"rule4_const": 1.5, "const_source": "user", "tuning_db": null'* ]]
    # without the database: the paper's const and beta, and no file is created
    DRTOPK_DB="$D/none.sqlite" run "$DRTOPK" run --backend cpu --n 2^12 --k 16 --json
    [[ "$output" == *'"rule4_const": 3, "const_source": "default"'* ]]
    [ ! -e "$D/none.sqlite" ]
}

@test "drtopk run warns about a tuning database it cannot read and plans without it" {
    DRTOPK="$BATS_TEST_DIRNAME/../../bin/drtopk"
    printf 'not a database %.0s' $(seq 64) > "$D/bad.sqlite"
    DRTOPK_DB="$D/bad.sqlite" run --separate-stderr "$DRTOPK" run --backend cpu --n 2^12 --k 16 --json
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"warning: cannot read the tuning database $D/bad.sqlite: "*"not a SQLite database"* ]]
    [[ "$output" == *'"const_source": "default"'* ]]
    # a drtopk database from a newer build: the same warning with its reason
    q "$D/newer.sqlite" "CREATE TABLE schema_version (version INTEGER); INSERT INTO schema_version VALUES (99)"
    DRTOPK_DB="$D/newer.sqlite" run --separate-stderr "$DRTOPK" run --backend cpu --n 2^12 --k 16
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"warning: cannot read the tuning database $D/newer.sqlite: "*"schema version 99"* ]]
    [[ "$output" == *"(the paper's default)"* ]]
}

@test "a fixed-plan sweep into the same database leaves the alpha fit as it was" {
    db="$D/keep.sqlite"
    run "$TUNER" "${SMALL[@]}" --db "$db"
    [ "$status" -eq 0 ]
    before=$(q "$db" "SELECT const_time || ' ' || points FROM fits WHERE algorithm = 'dr-radix' AND beta = 2")
    [ -n "$before" ]
    run "$TUNER" --backend cpu --n 2^14 --k 1,16,256 --algo radix,dr-radix --alpha-span 0 --beta 2 --reps 1 --db "$db"
    [ "$status" -eq 0 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE n = 16384")" -eq 6 ]
    [ "$(q "$db" "SELECT const_time || ' ' || points FROM fits WHERE algorithm = 'dr-radix' AND beta = 2")" = "$before" ]
}

# ---- --import-peers ----------------------------------------------------------

PEER_UUID=GPU-bc0980de-e367-052e-70cb-c28b0154c9a8

# Lines as experiments/peers/run_peers.sh writes them: the CUB peer with uuid,
# CCCL version and seed; torch.topk (Python's spacing) without uuid or seed, as
# before the peers printed them; one with every repetition; a blank line; a
# skipped peer.
peer_lines() {
    cat <<EOF
{"peer":"cub_device_topk","gpu":"NVIDIA H200","uuid":"$PEER_UUID","cccl":"3.5.0","seed":1,"n":1048576,"k":1,"dist":"UD","dtype":"u32","ms_median":0.5,"ms_min":0.4,"ms_max":0.6,"reps":7,"verified":1}
{"peer":"cub_device_topk","gpu":"NVIDIA H200","uuid":"$PEER_UUID","cccl":"3.5.0","seed":1,"n":1048576,"k":16,"dist":"CD","dtype":"u32","ms_median":0.75,"ms_min":0.7,"ms_max":0.8,"reps":3,"verified":1,"reps_ms":[0.7, 0.75,0.8]}

{"peer": "torch_topk", "gpu": "NVIDIA H200", "n": 1048576, "k": 4, "dist": "ND", "dtype": "u32", "ms_median": 1.25, "ms_min": 1.2, "ms_max": 1.3, "reps": 7, "verified": 0, "torch": "2.11.0+cu130"}
{"peer":"cub_device_topk","skipped":"not built (configure.sh found no CCCL >= 3.2 headers)"}
EOF
}

@test "--import-peers stores each peer line once, matches the GPU by uuid, else by name" {
    db="$D/p.sqlite"
    peer_lines > "$D/peers.jsonl"
    run "$TUNER" --import-peers "$D/peers.jsonl" --db "$db"
    # a line that failed the peer's own check is stored, and the exit says so
    [ "$status" -eq 1 ]
    [[ "$output" == *"4 lines, 4 peer measurements added, 0 already stored (1 skipped peers, 0 peer errors, 1 failed the peer's check)"* ]]
    [ "$(q "$db" 'SELECT count(*) FROM peer_measurements')" -eq 4 ]
    # one machine: the torch line (no uuid) found the H200 the CUB lines created
    [ "$(q "$db" "SELECT uuid || ' ' || backend FROM machines")" = "$PEER_UUID cuda" ]
    [ "$(q "$db" 'SELECT count(DISTINCT machine_id) FROM peer_measurements')" -eq 1 ]
    [ "$(q "$db" "SELECT program || ' ' || status FROM runs")" = "tuner done" ]
    [[ "$(q "$db" 'SELECT argv FROM runs')" == *"--import-peers $D/peers.jsonl"* ]]
    [ "$(q "$db" "SELECT group_concat(peer_version || '/' || seed || '/' || verified, ' ') FROM
                  (SELECT * FROM peer_measurements WHERE status = 'ok' ORDER BY id)")" = "3.5.0/1/1 3.5.0/1/1 2.11.0+cu130/20211114/0" ]
    [ "$(q "$db" "SELECT reps_ms FROM peer_measurements WHERE k = 16")" = "[0.7,0.75,0.8]" ]
    [ "$(q "$db" "SELECT median_ms || ' ' || min_ms || ' ' || max_ms || ' ' || reps FROM peer_measurements WHERE dist = 'ND'")" = "1.25 1.2 1.3 7" ]
    [ "$(q "$db" "SELECT status || '|' || reason || '|' || dist || '|' || n FROM peer_measurements WHERE status <> 'ok'")" = "skipped|not built (configure.sh found no CCCL >= 3.2 headers)||0" ]
    # the second import adds a run but no row
    run "$TUNER" --import-peers "$D/peers.jsonl" --db "$db"
    [ "$status" -eq 1 ]
    [[ "$output" == *"4 lines, 0 peer measurements added, 4 already stored"* ]]
    [ "$(q "$db" 'SELECT count(*) FROM peer_measurements')" -eq 4 ]
    [ "$(q "$db" 'SELECT count(*) FROM runs')" -eq 2 ]
    # A GPU known by name only, never seen: a machine of that name is made.
    echo '{"peer":"torch_topk","gpu":"NVIDIA B200","n":64,"k":2,"dist":"UD","dtype":"u32","ms_median":1,"ms_min":1,"ms_max":1,"reps":1,"verified":true}' > "$D/b200.jsonl"
    run "$TUNER" --import-peers "$D/b200.jsonl" --db "$db"
    [ "$status" -eq 0 ]
    [ "$(q "$db" "SELECT uuid FROM machines WHERE name = 'NVIDIA B200'")" = "gpu-name:NVIDIA B200" ]
    [ "$(q "$db" 'PRAGMA foreign_key_check' | wc -l)" -eq 0 ]
}

@test "--import-peers refuses a malformed line by its number and writes nothing" {
    db="$D/bad.sqlite"
    "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1 --db "$db" >/dev/null
    runs=$(q "$db" 'SELECT count(*) FROM runs')
    check() {   # check LINE MESSAGE: the first two good lines, then LINE (line 3)
        { peer_lines | head -n 2; echo "$1"; } > "$D/bad.jsonl"
        run "$TUNER" --import-peers "$D/bad.jsonl" --db "$db"
        [ "$status" -eq 2 ]
        [[ "$output" == *"$D/bad.jsonl:3: $2"* ]]
        [ "$(q "$db" 'SELECT count(*) FROM peer_measurements')" -eq 0 ]
        [ "$(q "$db" 'SELECT count(*) FROM runs')" -eq "$runs" ]
        [ "$(q "$db" "SELECT count(*) FROM machines WHERE backend = 'cuda'")" -eq 0 ]
    }
    check '{"peer":"cub_device_topk","gpu":"X","n":}' "malformed JSON line"
    check '{"peer":"cub_device_topk","gpu":"X","n":8,"k":1' "malformed JSON line"
    check 'not json' "malformed JSON line: not a JSON object"
    check '{"peer":"p","gpu":"X","n":8,"k":1,"dist":"UD","dtype":"u32","ms_median":1,"ms_min":1,"ms_max":1,"reps":1}' 'missing "verified"'
    check '{"peer":"p","gpu":"X","n":8,"k":9,"dist":"UD","dtype":"u32","ms_median":1,"ms_min":1,"ms_max":1,"reps":1,"verified":1}' "need 1 <= k <= n"
    check '{"peer":"p","gpu":"X","n":8,"k":1,"dist":"XX","dtype":"u32","ms_median":1,"ms_min":1,"ms_max":1,"reps":1,"verified":1}' 'unknown dist "XX"'
    check '{"peer":"p","gpu":"X","n":-8,"k":1,"dist":"UD","dtype":"u32","ms_median":1,"ms_min":1,"ms_max":1,"reps":1,"verified":1}' '"n" must be a non-negative integer'
    check '{"peer":"p","gpu":"X","n":8,"k":1,"dist":"UD","dtype":"u32","ms_median":1,"ms_min":2,"ms_max":1,"reps":1,"verified":1}' "need ms_min <= ms_median <= ms_max"
    check '{"peer":"p","peer":"q"}' 'malformed JSON line: key "peer" twice'
    check '{"peer":"p","gpu":{"name":"X"}}' "malformed JSON line: nested object"
    run "$TUNER" --import-peers "$D/missing.jsonl" --db "$db"
    [ "$status" -eq 2 ]
    [[ "$output" == *"cannot open $D/missing.jsonl"* ]]
    : > "$D/empty.jsonl"
    run "$TUNER" --import-peers "$D/empty.jsonl" --db "$db"
    [ "$status" -eq 2 ]
    [[ "$output" == *"no peer lines"* ]]
}

@test "merging carries the peer rows once" {
    a="$D/a.sqlite"; b="$D/b.sqlite"
    "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1 --db "$a" >/dev/null
    peer_lines > "$D/peers.jsonl"
    "$TUNER" --import-peers "$D/peers.jsonl" --db "$b" >/dev/null || true
    run "$TUNER" --merge "$b" --db "$a"
    [ "$status" -eq 0 ]
    [[ "$output" == *"1 machines, 1 runs, 0 measurements, 0 fits, 0 choices added; 4 peer measurements added"* ]]
    [ "$(q "$a" "SELECT count(*) FROM peer_measurements p JOIN machines m ON m.id = p.machine_id
                 WHERE m.uuid = '$PEER_UUID'")" -eq 4 ]
    [ "$(q "$a" "SELECT count(*) FROM peer_measurements p JOIN runs r ON r.id = p.run_id
                 WHERE r.run_uuid = '$(q "$b" 'SELECT run_uuid FROM runs')'")" -eq 4 ]
    run "$TUNER" --merge "$b" --db "$a"
    [[ "$output" == *"0 choices added; 0 peer measurements added"* ]]
    [ "$(q "$a" 'SELECT count(*) FROM peer_measurements')" -eq 4 ]
    [ "$(q "$a" 'PRAGMA foreign_key_check' | wc -l)" -eq 0 ]
}

@test "a schema version 2 database is migrated to 3 with every row kept" {
    db="$D/v2.sqlite"
    "$TUNER" "${SMALL[@]}" --db "$db" >/dev/null
    # What migrations 1 and 2 made, without migration 3.
    q "$db" "DROP TABLE peer_measurements; UPDATE schema_version SET version = 2"
    counts="(SELECT count(*) FROM measurements) || ' ' || (SELECT count(*) FROM fits) || ' ' ||
            (SELECT count(*) FROM choices) || ' ' || (SELECT total(median_ms) FROM measurements) || ' ' ||
            (SELECT group_concat(uuid) FROM machines) || ' ' || (SELECT group_concat(run_uuid) FROM runs)"
    before=$(q "$db" "SELECT $counts")
    [ "$(echo "$before" | awk '{print $1}')" -gt 50 ]
    peer_lines > "$D/peers.jsonl"
    run "$TUNER" --import-peers "$D/peers.jsonl" --db "$db"
    [ "$status" -eq 1 ]
    [ "$(q "$db" 'SELECT version FROM schema_version')" -eq 3 ]
    [ "$(q "$db" 'SELECT count(*) FROM peer_measurements')" -eq 4 ]
    # every old row as it was: the import's machine and run are the last ones
    q "$db" "DELETE FROM peer_measurements; DELETE FROM runs WHERE id = (SELECT max(id) FROM runs);
             DELETE FROM machines WHERE uuid = '$PEER_UUID'"
    [ "$(q "$db" "SELECT $counts")" = "$before" ]
    [ "$(q "$db" 'PRAGMA integrity_check')" = ok ]
}
