#!/usr/bin/env bats
# tuner.bats -- the tuner and its SQLite store end to end on the CPU backend
# (docs/tuning.md): schema creation, a sweep, resume after SIGINT and SIGKILL without
# lost or doubled configs, --force, bad database paths, a read-only database,
# merging databases without duplicates, the options of the algorithm table's fixed-plan
# benchmark: --alpha-span, --beta, the sweep order and the --skip-after-s rule,
# and --import-peers: the modern peers' JSON lines stored once,
# malformed lines refused by line number, merged along, schema 2 migrated.
# Also `drtopk run` planning with the tuning it loads from the database, and
# its warning when that database cannot be read, and experiments/onepass_bench.sh
# on the CPU backend; the quick and full sweeps' algorithm and
# key type lists, and --regret: the automatic plan's rows, its regret
# table, and that those rows never count as forced plans.

bats_require_minimum_version 1.5.0

TUNER="${TUNER:-$BATS_TEST_DIRNAME/../../bin/tuner}"
DRTOPK_BIN="${DRTOPK:-$BATS_TEST_DIRNAME/../../bin/drtopk}"
# A small sweep: 3 n x 3 k x up to 7 alpha x 3 beta (+ the warp-centric
# build at alpha 6..7), u32 UD only.
SMALL=(--backend cpu --n 2^10,2^12,2^13 --k 1,16,256 --reps 1 --dtype u32 --dist UD)

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

@test "a bad option gets its error and a one-line hint, not the whole usage" {
    run -2 --separate-stderr "$TUNER" --frobnicate 1
    [ "$(wc -l <<< "$stderr")" -eq 2 ] || { echo "stderr: $stderr" >&2; false; }
    [[ "$stderr" == "tuner: unknown option '--frobnicate'"$'\n'"tuner: see 'tuner --help' for the options" ]]
    run -2 --separate-stderr "$TUNER" --backend cpu --n 2^64
    [[ "$stderr" == "tuner: n 2^64 is out of range"* ]] && [ "$(wc -l <<< "$stderr")" -eq 2 ]
    # the full usage is --help's, on stdout
    run -0 "$TUNER" --help
    [[ "$output" == "usage: tuner"* ]]
}

@test "tuner creates the versioned schema in WAL mode" {
    run "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1 --db "$D/new.sqlite"
    [ "$status" -eq 0 ]
    [ "$(q "$D/new.sqlite" 'SELECT version FROM schema_version')" -eq 12 ]
    [ "$(q "$D/new.sqlite" 'PRAGMA journal_mode')" = wal ]
    for t in machines runs measurements fits choices peer_measurements claims checks batch_measurements batch_choices fit_alphas; do
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
    [ "$(q "$D/q.sqlite" "SELECT count(*) FROM fits WHERE algorithm='dr-radix'")" -eq 2 ]   # beta 1, 2
    # the decision table: one decision per grid point (n 2^10, 2^12, 2^13 x k 4^0,
    # 4^2, 4^4); a cell is stored only where a plan beats the library's plan
    # without a table, each from its grid point to the next (n 2^10 to 2^11,
    # k to the next grid k, the last as far as the gap before it)
    line=$(grep -m1 '^decision table u32 (' <<< "$output")
    cells=$(sed 's/^decision table u32 (\([0-9]*\) cells.*; \([0-9]*\) more grid points.*/\1/' <<< "$line")
    kept=$(sed 's/^decision table u32 (\([0-9]*\) cells.*; \([0-9]*\) more grid points.*/\2/' <<< "$line")
    [ "$((cells + kept))" -eq 9 ]
    [ "$(q "$D/q.sqlite" "SELECT count(*) FROM choices")" -eq "$cells" ]
    [ "$(q "$D/q.sqlite" "SELECT count(*) FROM choices WHERE log2n_min NOT IN (10, 12, 13) OR log2k_min NOT IN (0, 4, 8)
                          OR log2n_max != CASE log2n_min WHEN 10 THEN 11 WHEN 12 THEN 12 ELSE 13 END
                          OR log2k_max != log2k_min + 3")" -eq 0 ]
    # every stored cell was checked against the library's plan without a table, and
    # kept or dropped: at the cell's middle (n 3/2 of the grid's + 3, k twice the
    # grid's) and, below the sweep's largest n, at its far corner (n 5 below the
    # cell's end, k 1 below its end and at most n / 2)
    [ "$(q "$D/q.sqlite" "SELECT count(*) FROM choices WHERE status IN ('kept', 'dropped')")" -eq "$cells" ]
    [ "$(q "$D/q.sqlite" "SELECT count(*) FROM checks WHERE kind = 'heldout' AND ((n IN (1539, 6147, 12291)
                          AND k IN (2, 32, 512)) OR (n IN (4091, 8187) AND k IN (15, 255, 2045, 4093)))")" -eq \
      "$(q "$D/q.sqlite" "SELECT count(*) FROM checks")" ]
    [ "$(q "$D/q.sqlite" "SELECT count(*) FROM choices c WHERE c.log2n_min < 13 AND NOT EXISTS (SELECT 1 FROM checks h
                          WHERE h.n IN (4091, 8187) AND h.n >> c.log2n_min > 0 AND h.n >> (c.log2n_max + 1) = 0
                          AND h.k >> c.log2k_min > 0 AND h.k >> (c.log2k_max + 1) = 0)")" -eq 0 ]
    # (a cell is stored only where it beat the default by more than 2%, which the
    # CPU's timings decide: with no cell there is nothing to check, and no table)
    if [ "$cells" -gt 0 ]; then
        [[ "$output" == *"held-out check, u32 (noise "* ]]
    else
        [[ "$output" != *"held-out check, u32 (noise "* ]]
    fi
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
    # the SIGKILLed run is marked killed by the next run on this host (it stayed 'running' before)
    [ "$(q "$db" 'SELECT group_concat(status) FROM (SELECT status FROM runs ORDER BY id)')" = "interrupted,killed,done" ]
    [ "$(q "$db" 'SELECT count(*) FROM claims')" -eq 0 ]
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

@test "64-bit keys, which have no pipeline, get a decision table from their standalone plans" {
    db="$D/wide.sqlite"
    run "$TUNER" --backend cpu --n 2^12,2^14 --k 1,16 --algo radix,onepass,fused,sort-cub --reps 1 --dtype u64 \
        --dist UD --db "$db"
    [ "$status" -eq 0 ]
    # one decision per grid point (2 n x 2 k): a cell where a plan beats the size rules' plan, else kept
    line=$(grep -m1 '^decision table u64 (' <<< "$output")
    cells=$(sed 's/^decision table u64 (\([0-9]*\) cells.*; \([0-9]*\) more grid points.*/\1/' <<< "$line")
    kept=$(sed 's/^decision table u64 (\([0-9]*\) cells.*; \([0-9]*\) more grid points.*/\2/' <<< "$line")
    [ "$((cells + kept))" -eq 4 ]
    [ "$(q "$db" "SELECT count(*) FROM choices WHERE dtype = 'u64'")" -eq "$cells" ]
    # each cell a standalone plan a table entry can name (onepass, fused): no beta, no Rule 4 const
    [ "$(q "$db" "SELECT count(*) FROM choices WHERE algorithm NOT IN ('onepass', 'fused')
                  OR beta <> 0 OR rule4_const <> 0")" -eq 0 ]
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
        --alpha-span 0 --beta 2 --reps 1 --dtype u32 --db "$db"
    [ "$status" -eq 0 ]
    # 4 algorithms x 2 n x 3 k x 2 dists, one config each
    [ "$(sweep_total <(echo "$output"))" -eq 48 ]
    [ "$(q "$db" 'SELECT count(*) FROM measurements')" -eq 48 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE algorithm LIKE 'dr-%' AND beta = 2 AND alpha = $RULE4_SQL")" -eq 24 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE algorithm NOT LIKE 'dr-%' AND alpha = 0 AND beta = 0")" -eq 24 ]
    # every row carries Rule 4's alpha with const 3 and, at it, the flags of drtopk_plan_rule4's plan
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE rule4_alpha = $RULE4_SQL")" -eq 48 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE algorithm LIKE 'dr-%' AND rule4_flags = flags")" -eq 24 ]
    [ "$(q "$db" "SELECT count(*) FROM (SELECT DISTINCT algorithm, n, k, dist FROM measurements)")" -eq 48 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE status = 'ok' AND verify_ok = 1")" -eq 48 ]
    # One alpha per (dist, n, k) has no optimum to fit: no fit is stored.
    [ "$(q "$db" 'SELECT count(*) FROM fits')" -eq 0 ]
    [[ "$output" == *"fit u32 dr-radix beta=2: not fitted (no point swept over alpha)"* ]]
    [ "$(q "$db" "SELECT count(*) FROM choices WHERE beta = 2 AND rule4_const <> 3")" -eq 0 ]
}

@test "--alpha-span and --beta lists bound the sweep; the default stays Rule 4 +-3, with beta 1..2" {
    db="$D/span.sqlite"
    run "$TUNER" --backend cpu --n 2^12 --k 1,256 --algo dr-radix --alpha-span 1 --beta 3,1,3 --reps 1 \
        --dtype u32 --dist UD --db "$db"
    [ "$status" -eq 0 ]
    # k = 1: Rule 4 alpha 8 -> 7..9; k = 256: 4 -> 3..5; betas 1 and 3 (the repeated 3 once);
    # alpha 7 also with the warp-centric delegate build (flag 0x4 off)
    [ "$(q "$db" 'SELECT count(*) FROM measurements')" -eq 14 ]
    [ "$(q "$db" 'SELECT count(*) FROM measurements WHERE alpha = 7 AND flags & 4 = 0')" -eq 2 ]
    [ "$(q "$db" "SELECT group_concat(DISTINCT beta) FROM (SELECT beta FROM measurements ORDER BY beta)")" = "1,3" ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE abs(alpha - $RULE4_SQL) > 1")" -eq 0 ]
    [ "$(q "$db" "SELECT count(DISTINCT alpha) FROM measurements WHERE k = 256")" -eq 3 ]
    db2="$D/default.sqlite"
    run "$TUNER" --backend cpu --n 2^12 --k 1,256 --algo dr-radix --reps 1 --dtype u32 --dist UD --db "$db2"
    [ "$status" -eq 0 ]
    [ "$(q "$db2" "SELECT group_concat(DISTINCT beta) FROM (SELECT beta FROM measurements ORDER BY beta)")" = "1,2" ]
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
        --alpha-span 1 --beta 1,2 --reps 1 --dtype u32 --db "$db"
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
        --alpha-span 0 --beta 2 --reps 1 --skip-after-s 1e-9 --dtype u32 --db "$db"
    [ "$status" -eq 0 ]
    [[ "$output" == *"(0 unsupported, 4 skipped, 0 errors)"* ]]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE status = 'ok' AND algorithm NOT LIKE 'dr-%'")" -eq 4 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE status = 'ok' AND algorithm NOT LIKE 'dr-%' AND k = 1")" -eq 4 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE status = 'unsupported' AND error LIKE 'skipped: %' AND k = 16")" -eq 4 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE algorithm = 'dr-radix' AND status = 'ok'")" -eq 4 ]
    # A later run with a larger k skips it from the stored slow measurement.
    run "$TUNER" --backend cpu --n 2^12 --k 1,16,256 --dist UD,CD --algo radix,dr-radix,bitonic \
        --alpha-span 0 --beta 2 --reps 1 --skip-after-s 1e-9 --dtype u32 --db "$db"
    [ "$status" -eq 0 ]
    [[ "$output" == *"12 already measured, 6 to measure"* ]]
    [[ "$output" == *"(0 unsupported, 4 skipped, 0 errors)"* ]]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE k = 256 AND error LIKE 'skipped: %at k = 1 %'")" -eq 4 ]
    # With the default limit of 10 s nothing at these sizes is skipped.
    run "$TUNER" --backend cpu --n 2^12 --k 1,16,256 --dist UD --algo radix,bitonic --reps 1 --dtype u32 --db "$D/noskip.sqlite"
    [ "$status" -eq 0 ]
    [ "$(q "$D/noskip.sqlite" "SELECT count(*) FROM measurements WHERE status = 'ok'")" -eq 6 ]
}

@test "drtopk_plan_auto takes const, beta and algorithm from this machine's tuning" {
    DRTOPK="$BATS_TEST_DIRNAME/../../bin/drtopk"
    run "$TUNER" "${SMALL[@]}" --db "$D/t.sqlite"
    [ "$status" -eq 0 ]
    # n = 2^12, k = 16's cell (log2 k = 4) set to a plan unlike the library's
    # own, as the tuner stores a cell that beat it
    q "$D/t.sqlite" "DELETE FROM choices WHERE dtype = 'u32' AND 12 BETWEEN log2n_min AND log2n_max
                     AND 4 BETWEEN log2k_min AND log2k_max"
    q "$D/t.sqlite" "INSERT INTO choices (machine_id, git_commit, dtype, log2n_min, log2n_max, log2k_min, log2k_max,
                     algorithm, beta, rule4_const, mean_slowdown, worst_slowdown, points, status, fitted_at)
                     SELECT machine_id, git_commit, 'u32', 12, 12, 4, 7, 'dr-radix', 1, 1.5, 1, 1, 1, 'kept', 'now'
                     FROM measurements LIMIT 1"
    read -r beta const algo <<< "1 1.5 dr-radix"
    # the CLI loads this host's tuning from $DRTOPK_DB and passes it to drtopk_plan_auto
    DRTOPK_DB="$D/t.sqlite" run --separate-stderr "$DRTOPK" run --backend cpu --n 2^12 --k 16 --json
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    plan=$(python3 -c 'import json,sys; p = json.load(sys.stdin)["plan"]
print(p["const_source"], p["beta"], p["rule4_const"], ("dr-" if p["delegate"] else "") + p["second_algo"],
      p["tuning_db"])' <<< "$output")
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
    # a cell that chose the one-read top-k runs it standalone
    q "$D/t.sqlite" "UPDATE choices SET algorithm = 'onepass', beta = 0, status = 'kept' WHERE dtype = 'u32'"
    DRTOPK_DB="$D/t.sqlite" run "$DRTOPK" run --backend cpu --n 2^12 --k 16 --verify
    [ "$status" -eq 0 ]
    [[ "$output" == *"plan:      standalone onepass"* && "$output" == *"verify:    PASS"* ]]
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
    [[ "$output" == *"plan:      standalone radix"* ]]    # the CPU's default plan, no table
}

@test "a fixed-plan sweep into the same database leaves the alpha fit as it was" {
    db="$D/keep.sqlite"
    run "$TUNER" "${SMALL[@]}" --db "$db"
    [ "$status" -eq 0 ]
    before=$(q "$db" "SELECT const_time || ' ' || points FROM fits WHERE algorithm = 'dr-radix' AND beta = 2")
    [ -n "$before" ]
    run "$TUNER" --backend cpu --n 2^14 --k 1,16,256 --algo radix,dr-radix --alpha-span 0 --beta 2 --reps 1 --dtype u32 --dist UD --db "$db"
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

@test "--import-peers stores each line's timing method; a line without one was timed around the call" {
    db="$D/t.sqlite"
    { peer_lines | head -n 1 | sed 's/}$/,"timing":"gpu"}/'
      peer_lines | sed -n 2p; } > "$D/timed.jsonl"
    run "$TUNER" --import-peers "$D/timed.jsonl" --db "$db"
    [ "$status" -eq 0 ]
    [ "$(q "$db" "SELECT group_concat(k || ':' || timing, ' ') FROM (SELECT * FROM peer_measurements ORDER BY k)")" = "1:gpu 16:call" ]
    echo '{"peer":"p","gpu":"X","n":8,"k":1,"dist":"UD","dtype":"u32","ms_median":1,"ms_min":1,"ms_max":1,"reps":1,"verified":1,"timing":"wall"}' > "$D/badt.jsonl"
    run "$TUNER" --import-peers "$D/badt.jsonl" --db "$db"
    [ "$status" -eq 2 ]
    [[ "$output" == *'"timing" must be "gpu" or "call", not "wall"'* ]]
}

@test "--timing: the CPU backend stores 'call', refuses gpu; a bad method exits 2 naming both" {
    db="$D/timing.sqlite"
    run "$TUNER" --backend cpu --n 2^10 --k 1,4 --algo radix --reps 1 --db "$db"
    [ "$status" -eq 0 ]
    [ "$(q "$db" "SELECT group_concat(DISTINCT timing) FROM measurements")" = call ]
    run "$TUNER" --backend cpu --timing gpu --n 2^10 --k 1 --reps 1 --db "$db"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--timing gpu needs --backend cuda"* ]]
    run "$TUNER" --gpu 0 --timing wall --n 2^10 --k 1 --db "$db"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--timing wall: gpu (the call's GPU time) or call"* ]]
    before=$(q "$db" "SELECT count(*) FROM measurements")
    run "$TUNER" --backend cpu --timing call --n 2^10 --k 16 --algo radix --reps 1 --db "$db"
    [ "$status" -eq 0 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE k = 16 AND timing = 'call'")" -gt 0 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements")" -gt "$before" ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE timing <> 'call'")" -eq 0 ]
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

# What migrations 1 and 2 made, without migrations 3 to 12: no peers, no
# claims, no checks, no multi_gpu, runs without pid and host, the choices
# table of migration 2 (one log2 k range per dtype).
make_v2() {
    q "$1" "DROP TABLE peer_measurements; DROP TABLE IF EXISTS claims; DROP TABLE IF EXISTS checks;
             DROP TABLE IF EXISTS multi_gpu; DROP TABLE IF EXISTS counters;
             DROP TABLE IF EXISTS batch_measurements; DROP TABLE IF EXISTS batch_choices; DROP TABLE IF EXISTS fit_alphas;
             ALTER TABLE choices RENAME TO choices_v5;
             CREATE TABLE choices (id INTEGER PRIMARY KEY, machine_id INTEGER NOT NULL REFERENCES machines(id),
                 git_commit TEXT NOT NULL, dtype TEXT NOT NULL, log2k_min INTEGER NOT NULL,
                 log2k_max INTEGER NOT NULL, algorithm TEXT NOT NULL, beta INTEGER NOT NULL,
                 rule4_const REAL NOT NULL, mean_slowdown REAL NOT NULL, points INTEGER NOT NULL,
                 fitted_at TEXT NOT NULL, UNIQUE (machine_id, dtype, log2k_min));
             INSERT OR IGNORE INTO choices (machine_id, git_commit, dtype, log2k_min, log2k_max, algorithm, beta,
                 rule4_const, mean_slowdown, points, fitted_at) SELECT machine_id, git_commit, dtype, log2k_min,
                 log2k_max, algorithm, beta, rule4_const, mean_slowdown, points, fitted_at FROM choices_v5;
             DROP TABLE choices_v5; UPDATE schema_version SET version = 2"
    for c in pid host; do   # (what an older build, which has no migration 4, lacks anyway)
        q "$1" "ALTER TABLE runs DROP COLUMN $c" 2>/dev/null || true
    done
    q "$1" "ALTER TABLE measurements DROP COLUMN timing" 2>/dev/null || true   # migration 8
    for c in rule4_alpha rule4_flags; do   # migration 11
        q "$1" "ALTER TABLE measurements DROP COLUMN $c" 2>/dev/null || true
    done
}

@test "a schema version 2 database is migrated to the current version with every row kept" {
    db="$D/v2.sqlite"
    "$TUNER" "${SMALL[@]}" --db "$db" >/dev/null
    make_v2 "$db"
    counts="(SELECT count(*) FROM measurements) || ' ' || (SELECT count(*) FROM fits) || ' ' ||
            (SELECT count(*) FROM choices) || ' ' || (SELECT total(median_ms) FROM measurements) || ' ' ||
            (SELECT group_concat(uuid) FROM machines) || ' ' || (SELECT group_concat(run_uuid) FROM runs)"
    before=$(q "$db" "SELECT $counts")
    [ "$(echo "$before" | awk '{print $1}')" -gt 50 ]
    peer_lines > "$D/peers.jsonl"
    run "$TUNER" --import-peers "$D/peers.jsonl" --db "$db"
    [ "$status" -eq 1 ]
    [ "$(q "$db" 'SELECT version FROM schema_version')" -eq 12 ]
    # rows of before migration 8 were timed around the call; those of before 11 get Rule 4's plan
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE timing <> 'call'")" -eq 0 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE rule4_alpha <> $RULE4_SQL")" -eq 0 ]
    # the old choices hold for every n
    [ "$(q "$db" 'SELECT count(*) FROM choices WHERE log2n_min = 0 AND log2n_max = 63')" -eq \
      "$(q "$db" 'SELECT count(*) FROM choices')" ]
    [ "$(q "$db" 'SELECT count(*) FROM peer_measurements')" -eq 4 ]
    # every old row as it was: the import's machine and run are the last ones
    q "$db" "DELETE FROM peer_measurements; DELETE FROM runs WHERE id = (SELECT max(id) FROM runs);
             DELETE FROM machines WHERE uuid = '$PEER_UUID'"
    [ "$(q "$db" "SELECT $counts")" = "$before" ]
    [ "$(q "$db" 'PRAGMA integrity_check')" = ok ]
}

# ---- --compare and the compiled-in table ---------------------------------------

@test "--compare measures the tuned and the default plan beside the best measured one, without a refit" {
    db="$D/c.sqlite"
    run "$TUNER" --backend cpu --n 2^12 --k 1,16 --dtype u32 --dist UD,ND --reps 1 --db "$db"
    [ "$status" -eq 0 ]
    table=$(q "$db" "SELECT group_concat(log2n_min || ':' || log2k_min || ':' || rule4_const || ':' || status) FROM choices")
    run "$TUNER" --backend cpu --n 2^12,2^12+3 --k 1,16 --dtype u32 --dist UD,ND --reps 1 --db "$db" --compare
    [ "$status" -eq 0 ]
    # 2 n x 2 k x 2 dists, each with the default and the tuned plan measured twice
    [[ "$output" == *"compare: 8 points; tuned slower than default beyond the noise"* ]]
    [ "$(q "$db" "SELECT count(*) FROM checks WHERE kind = 'compare'")" -eq 8 ]
    [ "$(q "$db" "SELECT count(*) FROM checks WHERE kind = 'compare' AND best_ms > 0 AND
                  best_ms <= min(tuned_ms_a, tuned_ms_b, default_ms_a, default_ms_b) AND best_config <> ''")" -eq 8 ]
    # the default plan is the one the library runs without a table (drtopk run's
    # plan there, without a database)
    while IFS='|' read -r n k alpha beta; do
        plan=$(DRTOPK_DB="$D/none.sqlite" "$BATS_TEST_DIRNAME/../../bin/drtopk" run --backend cpu --n "$n" --k "$k" --reps 1 --json |
               python3 -c 'import json, sys; p = json.load(sys.stdin)["plan"]; print(p["alpha"], p["beta"])')
        [ "$plan" = "$alpha $beta" ]
    done < <(q "$db" "SELECT DISTINCT n, k, default_alpha, default_beta FROM checks WHERE kind = 'compare'")
    [ "$(q "$db" "SELECT group_concat(log2n_min || ':' || log2k_min || ':' || rule4_const || ':' || status) FROM choices")" = "$table" ]
    run "$TUNER" --backend cpu --n 2^12 --compare --fit-only --db "$db"
    [ "$status" -eq 2 ]
}

# ---- every candidate in the sweep; the automatic plan's regret -------------------

@test "the quick sweep: dr-radix, radix, onepass and fused over u32, f32, f16 and u64; --full adds the rest and i32" {
    db="$D/lists.sqlite"
    run "$TUNER" --backend cpu --n 2^10 --k 1 --dist UD --reps 1 --no-check --db "$db"
    [ "$status" -eq 0 ]
    lists="SELECT group_concat(dtype || ':' || algorithms, ' ') FROM (SELECT dtype, group_concat(algorithm) AS algorithms
           FROM (SELECT DISTINCT dtype, algorithm FROM measurements ORDER BY dtype, algorithm) GROUP BY dtype ORDER BY dtype)"
    quick="dr-radix,fused,onepass,radix"
    [ "$(q "$db" "$lists")" = "f16:$quick f32:$quick u32:$quick u64:$quick" ]
    # the pipeline at Rule 4's alpha +-3 (k = 1: alpha 7, so 4..10) and beta 1..2
    [ "$(q "$db" "SELECT group_concat(DISTINCT beta) FROM (SELECT beta FROM measurements WHERE algorithm = 'dr-radix' ORDER BY beta)")" = "1,2" ]
    [ "$(q "$db" "SELECT min(alpha) || '..' || max(alpha) FROM measurements WHERE algorithm = 'dr-radix'")" = "4..10" ]
    run "$TUNER" --backend cpu --full --n 2^8 --k 1 --dist UD --reps 1 --no-check --db "$D/full.sqlite"
    [ "$status" -eq 0 ]
    [ "$(q "$D/full.sqlite" "SELECT group_concat(dtype) FROM (SELECT DISTINCT dtype FROM measurements ORDER BY dtype)")" = \
      "f16,f32,i32,u32,u64" ]
    # every algorithm plain, and dr- but for the standalone-only onepass and fused, for every dtype
    [ "$(q "$D/full.sqlite" "SELECT group_concat(c) FROM (SELECT count(DISTINCT algorithm) AS c FROM measurements GROUP BY dtype)")" = \
      "18,18,18,18,18" ]
    [ "$(q "$D/full.sqlite" "SELECT group_concat(DISTINCT beta) FROM (SELECT beta FROM measurements WHERE beta > 0 ORDER BY beta)")" = "1,2,3,4" ]
}

# The plan drtopk_plan_auto gives at (dtype, n, k) on the CPU backend without a
# tuning database, as "first_algo second_algo alpha beta flags" (a standalone
# plan: no first_algo), read from `drtopk run --json`.
auto_plan() {
    DRTOPK_DB="$D/none.sqlite" "$DRTOPK_BIN" run --backend cpu --dtype "$1" --n "$2" --k "$3" --json | python3 -c '
import json, sys
p = json.load(sys.stdin)["plan"]
flags = sum(bit for bit, on in ((1, p["delegate"]), (2, p["filter"]), (4, p["shared_delegate"]),
                                (8, p["skip_last_digit"]), (16, p["sorted"])) if on)
d = p["delegate"]
print(p["first_algo"] if d else "", p["second_algo"], p["alpha"] if d else 0, p["beta"] if d else 0, flags)'
}

@test "--regret builtin: the sweep without a fit, then at each point drtopk_plan_auto's plan stored and its regret printed" {
    db="$D/regret.sqlite"
    args=(--backend cpu --n 2^10,2^12 --k 1,16 --dtype u32,f16 --dist UD,ND --reps 1 --db "$db")
    run "$TUNER" "${args[@]}" --regret builtin
    [ "$status" -eq 0 ]
    forced=$(sweep_total <(echo "$output"))
    # the sweep's rows as any sweep's; no fit, no decision table
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE algorithm NOT LIKE 'auto-%'")" -eq "$forced" ]
    [ "$(q "$db" "SELECT (SELECT count(*) FROM fits) + (SELECT count(*) FROM choices)")" -eq 0 ]
    # one verified row of the automatic plan per point: 2 dtypes x 2 dists x 2 n x 2 k
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE algorithm = 'auto-builtin' AND status = 'ok' AND verify_ok = 1")" -eq 16 ]
    # each row's plan is the one drtopk_plan_auto gives there
    stored="" wanted=""
    while IFS='|' read -r dtype n k plan; do
        stored+="$dtype $n $k $plan;"
        wanted+="$dtype $n $k $(auto_plan "$dtype" "$n" "$k");"
    done < <(q "$db" "SELECT dtype, n, k, first_algo || ' ' || second_algo || ' ' || alpha || ' ' || beta || ' ' || flags
                      FROM measurements WHERE algorithm = 'auto-builtin' AND dist = 'UD' ORDER BY dtype, n, k")
    [ -n "$stored" ]
    [ "$stored" = "$wanted" ]
    # a line per point, then per dtype the summary with its worst point; the
    # worst is what the stored rows give (auto ms over the fastest forced ms,
    # 1.000 where that plan is the automatic plan itself, its ratio beside)
    [ "$(grep -cE '^(u32|f16) +(UD|ND) .*\| +[0-9.]+x(  \(one plan timed twice: [0-9.]+x\))?$' <<< "$output")" -eq 16 ]
    [ "$(grep -cE '\| +1\.000x  \(one plan timed twice: [0-9.]+x\)$' <<< "$output")" -eq \
      "$(q "$db" "SELECT count(*) FROM measurements a JOIN measurements r ON r.algorithm = 'auto-builtin-ref'
                  AND r.dtype = a.dtype AND r.dist = a.dist AND r.n = a.n AND r.k = a.k
                  WHERE a.algorithm = 'auto-builtin' AND a.second_algo = r.second_algo AND a.alpha = r.alpha
                  AND a.beta = r.beta AND a.flags = r.flags")" ]
    # the fastest forced plan timed again beside the automatic plan: one row a point, that plan's fields
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE algorithm = 'auto-builtin-ref' AND status = 'ok'")" -eq 16 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements r WHERE r.algorithm = 'auto-builtin-ref' AND r.alpha = (SELECT f.alpha
                 FROM measurements f WHERE f.algorithm NOT LIKE 'auto-%' AND f.status = 'ok' AND f.dtype = r.dtype
                 AND f.dist = r.dist AND f.n = r.n AND f.k = r.k ORDER BY f.median_ms, f.id LIMIT 1)")" -eq 16 ]
    worst=$(q "$db" "SELECT printf('%.3f', max(CASE WHEN a.second_algo = r.second_algo AND a.alpha = r.alpha
                     AND a.beta = r.beta AND a.flags = r.flags THEN 1.0 ELSE a.median_ms / min(a.median_ms, r.median_ms) END))
                     FROM measurements a JOIN measurements r ON r.algorithm = 'auto-builtin-ref' AND r.dtype = a.dtype
                     AND r.dist = a.dist AND r.n = a.n AND r.k = a.k WHERE a.algorithm = 'auto-builtin' AND a.dtype = 'u32'")
    [[ "$output" == *"regret auto-builtin u32: 8 points, worst ${worst}x at "*" n="*" k="*", median "*x* ]]
    [[ "$output" == *"regret auto-builtin f16: 8 points, worst "* ]]
    # resumed: nothing measured again, the same table
    run "$TUNER" "${args[@]}" --regret builtin
    [ "$status" -eq 0 ]
    [[ "$output" == *"the automatic plan (auto-builtin) at 16 points, 16 already measured, 0 to measure"* ]]
    [[ "$output" == *"regret auto-builtin u32: 8 points, worst ${worst}x"* ]]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE algorithm LIKE 'auto-builtin%'")" -eq 32 ]
    [ "$(q "$db" "SELECT group_concat(status) FROM runs")" = "done,done" ]
    # tuned needs this machine's tuning, which a --regret sweep does not store
    run "$TUNER" "${args[@]}" --regret tuned
    [ "$status" -eq 2 ]
    [[ "$output" == *"holds no tuning of"* ]]
    run "$TUNER" "${args[@]}" --regret fastest
    [ "$status" -eq 2 ]
    [[ "$output" == *"--regret fastest: builtin"*"or tuned"* ]]
}

@test "a standalone cell (fused) gets the held-out checks a pipeline cell gets, and is dropped where it loses there" {
    db="$D/standalone.sqlite"
    args=(--backend cpu --n 2^12,2^14 --k 1,16 --dtype u32 --dist UD --algo dr-radix,radix,fused --reps 1 --db "$db")
    run "$TUNER" "${args[@]}"
    [ "$status" -eq 0 ]
    # fused made 10x faster than the fastest other plan at its point wins every
    # grid point, however a busy machine disturbed the one repetition of each
    # plan; the rerun measures nothing, decides again and checks each cell at a
    # held-out point
    q "$db" "UPDATE measurements SET median_ms = (SELECT min(x.median_ms) / 10 FROM measurements x
             WHERE x.algorithm <> 'fused' AND x.dtype = measurements.dtype AND x.dist = measurements.dist
             AND x.n = measurements.n AND x.k = measurements.k) WHERE algorithm = 'fused'"
    q "$db" "UPDATE measurements SET min_ms = median_ms, max_ms = median_ms WHERE algorithm = 'fused'"
    q "$db" "DELETE FROM checks"
    run "$TUNER" "${args[@]}"
    [ "$status" -eq 0 ]
    [ "$(q "$db" "SELECT count(*) FROM choices WHERE dtype = 'u32' AND algorithm = 'fused'")" -eq 4 ]
    # each cell's middle, and the far corner of the two below the sweep's largest n (2^14 - 5)
    [ "$(q "$db" "SELECT count(*) FROM checks WHERE kind = 'heldout' AND tuned_algorithm = 'fused'")" -eq 6 ]
    [ "$(q "$db" "SELECT group_concat(k) FROM (SELECT k FROM checks WHERE n = 16379 ORDER BY k)")" = "15,255" ]
    # where the held-out points find fused 10x slower than the default plan (the stored checks, which a rerun
    # reads back rather than measures: this CPU's fused and radix selects are too close to lose by choice),
    # every fused cell is dropped
    q "$db" "UPDATE checks SET tuned_ms_a = 10 * max(default_ms_a, default_ms_b), tuned_ms_b = 10 * max(default_ms_a,
             default_ms_b) WHERE tuned_algorithm = 'fused'"
    run "$TUNER" "${args[@]}"
    [ "$status" -eq 0 ]
    [[ "$output" == *"held-out check: 6 points, 0 to measure"* ]]
    [ "$(q "$db" "SELECT group_concat(DISTINCT status) FROM choices WHERE algorithm = 'fused'")" = dropped ]
}

@test "--regret tuned: the plan with this machine's tuning, also a tuning of no cell (the plan without a table then runs)" {
    db="$D/tuned.sqlite"
    args=(--backend cpu --n 2^10,2^12 --k 1,16 --dtype u32 --dist UD --reps 1 --db "$db")
    run "$TUNER" "${args[@]}"
    [ "$status" -eq 0 ]
    [ "$(q "$db" "SELECT count(*) FROM fits")" -gt 0 ]
    # no cell beat the plan without a table: the tuner's verdict, not a missing tuning
    q "$db" "DELETE FROM choices"
    run "$TUNER" "${args[@]}" --regret tuned
    [ "$status" -eq 0 ]
    [[ "$output" == *"regret auto-tuned u32: 4 points, worst "* ]]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE algorithm = 'auto-tuned' AND status = 'ok'")" -eq 4 ]
    stored="" wanted=""
    while IFS='|' read -r n k plan; do
        stored+="$n $k $plan;"
        wanted+="$n $k $(auto_plan u32 "$n" "$k");"
    done < <(q "$db" "SELECT n, k, first_algo || ' ' || second_algo || ' ' || alpha || ' ' || beta || ' ' || flags
                      FROM measurements WHERE algorithm = 'auto-tuned' ORDER BY n, k")
    [ "$stored" = "$wanted" ]
}

@test "rows of the automatic plan enter neither the fit, the decision table nor --compare's best measured plan" {
    db="$D/leak.sqlite"
    args=(--backend cpu --n 2^12 --k 1,16 --dtype u32 --dist UD --reps 1 --db "$db")
    run "$TUNER" "${args[@]}" --regret builtin
    [ "$status" -eq 0 ]
    # the automatic plan, made the fastest by far, would win every cell as a candidate
    q "$db" "UPDATE measurements SET median_ms = 1e-6, min_ms = 1e-6, max_ms = 1e-6 WHERE algorithm = 'auto-builtin'"
    run "$TUNER" "${args[@]}" --fit-only
    [ "$status" -eq 0 ]
    [[ "$output" != *"auto-"* ]]
    [[ "$output" == *"decision table u32 ("* ]]
    [ "$(q "$db" "SELECT (SELECT count(*) FROM choices WHERE algorithm LIKE 'auto-%') +
                         (SELECT count(*) FROM fits WHERE algorithm LIKE 'auto-%')")" -eq 0 ]
    run "$TUNER" "${args[@]}" --compare
    [ "$status" -eq 0 ]
    [ "$(q "$db" "SELECT count(*) FROM checks WHERE kind = 'compare'")" -eq 2 ]
    [ "$(q "$db" "SELECT count(*) FROM checks WHERE kind = 'compare' AND (best_config LIKE 'auto-%' OR best_ms < 1e-3)")" -eq 0 ]
}

@test "--emit-table writes each tuned GPU's table as C that compiles, the same for the same database" {
    db="$D/e.sqlite"
    # u32 swept without onepass, f32 with it
    run "$TUNER" --backend cpu --n 2^12,2^14 --k 1,16 --dtype u32 --algo dr-radix,fused --dist UD --reps 1 --db "$db"
    [ "$status" -eq 0 ]
    run "$TUNER" --backend cpu --n 2^12,2^14 --k 1,16 --dtype f32 --dist UD --reps 1 --db "$db"
    [ "$status" -eq 0 ]
    # the table is per CUDA GPU model: make this CPU machine one
    q "$db" "UPDATE machines SET backend = 'cuda', name = 'Test \"GPU\" 1'"
    run "$TUNER" --emit-table "$D/t.c" --db "$db"
    [ "$status" -eq 0 ]
    gcc -std=c11 -Wall -Wextra -Werror -I "$BATS_TEST_DIRNAME/../../src/lib" -c "$D/t.c" -o "$D/t.o"
    grep -q '{ "Test \\"GPU\\" 1", test_gpu_1_entries,' "$D/t.c"
    # every cell of both dtypes but those the held-out check dropped, then u32's
    # catch-all with the fitted const from the smallest n its fit measured (2^12);
    # none for f32, whose sweep measured onepass: outside its cells the library's
    # own rules apply
    [ "$(grep -c '^    { DRTOPK_' "$D/t.c")" -eq "$(( $(q "$db" "SELECT count(*) FROM choices WHERE status != 'dropped'") + 1 ))" ]
    [ "$(grep -c '^    { DRTOPK_U32, 12, 63, 0, 63, DRTOPK_ALGO_RADIX, 2, ' "$D/t.c")" -eq 1 ]
    [ "$(grep -c '^    { DRTOPK_F32, [0-9]*, 63, 0, 63, ' "$D/t.c")" -eq 0 ]
    "$TUNER" --emit-table "$D/t2.c" --db "$db" > /dev/null
    cmp "$D/t.c" "$D/t2.c"
    # a model whose sweep measured neither onepass nor fused is left out, and said so
    old="$D/old.sqlite"
    run "$TUNER" --backend cpu --n 2^12,2^14 --k 1,16 --dtype u32 --algo dr-radix --dist UD --reps 1 --db "$old"
    [ "$status" -eq 0 ]
    q "$old" "UPDATE machines SET backend = 'cuda', name = 'Old GPU'"
    run "$TUNER" --emit-table "$D/t4.c" --db "$old"
    [ "$status" -eq 0 ]
    [[ "$output" == *"Old GPU (machine "*") left out: its sweep measured neither onepass nor fused"* ]]
    ! grep -q 'Old GPU' "$D/t4.c"
    [ "$(grep -c '^    { DRTOPK_' "$D/t4.c")" -eq 0 ]
    # nothing partial: a directory that does not exist, a database that does not
    run "$TUNER" --emit-table "$D/no/such/dir/t.c" --db "$db"
    [ "$status" -eq 2 ]
    [[ "$output" == *"cannot write '$D/no/such/dir/t.c': No such file or directory"* ]]
    run "$TUNER" --emit-table "$D/t3.c" --db "$D/missing.sqlite"
    [ "$status" -eq 2 ]
    [ ! -e "$D/t3.c" ] && ! compgen -G "$D/t3.c.tmp*" > /dev/null
}

# One kept cell of f32 at 2^LOG2N keys, k = 1, with a held-out point inside it, for machine UUID of db $1
# (what a sweep's decision and held-out check store, whatever this CPU's timings decide).
kept_cell() {
    q "$1" "INSERT INTO choices (machine_id, git_commit, dtype, log2n_min, log2n_max, log2k_min, log2k_max,
                algorithm, beta, rule4_const, mean_slowdown, worst_slowdown, points, status, fitted_at)
            SELECT id, 'c', 'f32', $3, $3, 0, 1, 'dr-radix', 1, 8, 1, 1, 3, 'kept', '$4' FROM machines WHERE uuid = '$2';
            INSERT INTO checks (machine_id, git_commit, kind, dtype, dist, seed, n, k, tuned_algorithm, tuned_alpha,
                tuned_beta, tuned_flags, default_alpha, default_beta, default_flags, default_ms_a, default_ms_b,
                tuned_ms_a, tuned_ms_b, checked_at)
            SELECT id, 'c', 'heldout', 'f32', 'UD', 1, (1 << $3) + 3, 1, 'dr-radix', 16, 1, 0, 0, 0, 0, 1, 1, 0.9, 0.9, '$4'
            FROM machines WHERE uuid = '$2'"
}

@test "--emit-table takes a model's table from a sweep that verified its results, not from a newer one that did not" {
    db="$D/v.sqlite"
    # two cards of one model: the first sweep verifies results, as the tuner does by default ...
    run "$TUNER" --backend cpu --n 2^12,2^14 --k 1,16 --dtype f32 --dist UD --reps 1 --db "$db"
    [ "$status" -eq 0 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE verified = 1")" -gt 0 ]
    q "$db" "UPDATE machines SET backend = 'cuda', name = 'Same GPU', uuid = 'GPU-verified'"
    # ... the later one does not, as plan_regret.sh --tuned's quick sweep
    run "$TUNER" --backend cpu --n 2^12,2^14 --k 1,16 --dtype f32 --dist UD --reps 1 --verify-every 0 --db "$db"
    [ "$status" -eq 0 ]
    q "$db" "UPDATE machines SET backend = 'cuda', name = 'Same GPU', uuid = 'GPU-unverified' WHERE uuid != 'GPU-verified'"
    [ "$(q "$db" "SELECT count(*) FROM measurements x JOIN machines m ON m.id = x.machine_id
                  WHERE m.uuid = 'GPU-unverified' AND x.verified = 1")" -eq 0 ]
    # each with a cell of its own, the unverified one tuned later
    kept_cell "$db" GPU-verified 20 2026-01-01T00:00:00.000Z
    kept_cell "$db" GPU-unverified 22 2099-01-01T00:00:00.000Z
    run "$TUNER" --emit-table "$D/v.c" --db "$db"
    [ "$status" -eq 0 ]
    grep -q '^/\* Same GPU (machine GPU-verified)' "$D/v.c"
    grep -q '^    { DRTOPK_F32, 20, 20, 0, 1, ' "$D/v.c"
    ! grep -q 'GPU-unverified\|DRTOPK_F32, 22, 22' "$D/v.c"
    # with only the unverified sweep of the model (the other card renamed), it has no table to compile in
    q "$db" "UPDATE machines SET name = 'Other GPU' WHERE uuid = 'GPU-verified'"
    run "$TUNER" --emit-table "$D/v2.c" --db "$db"
    [ "$status" -eq 0 ]
    ! grep -q 'Same GPU' "$D/v2.c"
}

@test "the compiled-in table (src/lib/tuning_builtin.c) is what tuner --emit-table writes from db/reference" {
    TUNER="$TUNER" "$BATS_TEST_DIRNAME/../../tuner/emit_builtin.sh" "$D/builtin.c"
    cmp "$D/builtin.c" "$BATS_TEST_DIRNAME/../../src/lib/tuning_builtin.c"
}

# ---- misuse: each test failed before its fix ----------------------------------

# As a user without root's disregard of file modes: run CMD... as nobody when root.
as_user() {
    if [ "$(id -u)" -eq 0 ]; then
        setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
    else
        "$@"
    fi
}

# Configs a tuner's output says it measured itself.
measured() { sed -n 's/^tuner: [a-z-]*: \([0-9]*\) measured.*/\1/p' "$1"; }

@test "--reps beyond the limit is refused with a message, not a crash" {
    run "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1000000000 --db "$D/r.sqlite"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--reps 1000000000 is more than 100000 repetitions"* ]]
    [ ! -e "$D/r.sqlite" ]
}

@test "--gpu with --backend cpu is refused" {
    run "$TUNER" --gpu 0 --backend cpu --n 2^10 --k 1 --reps 1 --db "$D/g.sqlite"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--gpu applies only to --backend cuda"* ]]
}

@test "an empty sweep exits 2 and says why" {
    run "$TUNER" --backend cpu --n 2^4 --k 2^5,2^6 --reps 1 --db "$D/e.sqlite"
    [ "$status" -eq 2 ]
    [[ "$output" == *"sweep is empty"*"every --k is larger than every --n"* ]]
    run "$TUNER" --backend cpu --n 1 --reps 1 --db "$D/e.sqlite"
    [ "$status" -eq 2 ]
    [[ "$output" == *"sweep is empty"*"needs n >= 4"* ]]
    [ "$(q "$D/e.sqlite" "SELECT group_concat(status) FROM runs")" = "failed,failed" ]
}

@test "two tuners started together on a new database share the sweep: each config measured once" {
    db="$D/two.sqlite"
    args=(--backend cpu --n 2^14,2^16 --k 1,16,256 --reps 2 --db "$db")
    "$TUNER" "${args[@]}" > "$D/a.txt" 2>&1 & pa=$!
    "$TUNER" "${args[@]}" > "$D/b.txt" 2>&1 & pb=$!
    sa=0; wait "$pa" || sa=$?
    sb=0; wait "$pb" || sb=$?
    cat "$D/a.txt" "$D/b.txt" | grep -v '^\[' >&2 || true
    [ "$sa" -eq 0 ]
    [ "$sb" -eq 0 ]
    total=$(sweep_total "$D/a.txt")
    [ "$total" -gt 50 ]
    # together they measured each config once, and the union is complete
    [ $(( $(measured "$D/a.txt") + $(measured "$D/b.txt") )) -eq "$total" ]
    [ "$(q "$db" 'SELECT count(*) FROM measurements')" -eq "$total" ]
    [ "$(duplicates "$db")" -eq 0 ]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE status = 'ok'")" -eq "$total" ]
    [ "$(q "$db" 'SELECT count(*) FROM claims')" -eq 0 ]
    [ "$(q "$db" "SELECT group_concat(status) FROM runs")" = "done,done" ]
}

@test "a claim of a killed run is taken over; a live run's claim is left to it" {
    db="$D/claim.sqlite"
    "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1 --db "$db" >/dev/null
    total=$(q "$db" 'SELECT count(*) FROM measurements')
    # a live run (this shell) claimed one config, a dead one (pid 2^22+1 is above pid_max) another
    q "$db" "INSERT INTO runs (run_uuid, machine_id, program, argv, git_commit, started_at, status, pid, host)
             SELECT 'live', machine_id, 'tuner', '', git_commit, started_at, 'running', $$, '$(hostname)' FROM runs;
             INSERT INTO runs (run_uuid, machine_id, program, argv, git_commit, started_at, status, pid, host)
             SELECT 'dead', machine_id, 'tuner', '', git_commit, started_at, 'running', 4194305, '$(hostname)'
             FROM runs WHERE run_uuid = 'live';
             INSERT INTO claims (machine_id, run_id, git_commit, algorithm, first_algo, second_algo, dtype, dist,
                                 seed, n, k, alpha, beta, flags, sort_order, claimed_at)
             SELECT machine_id, (SELECT id FROM runs WHERE run_uuid = 'live'), git_commit, algorithm, first_algo,
                    second_algo, dtype, dist, seed, n, k, alpha, beta, flags, sort_order,
                    strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM measurements WHERE id = 1;
             INSERT INTO claims (machine_id, run_id, git_commit, algorithm, first_algo, second_algo, dtype, dist,
                                 seed, n, k, alpha, beta, flags, sort_order, claimed_at)
             SELECT machine_id, (SELECT id FROM runs WHERE run_uuid = 'dead'), git_commit, algorithm, first_algo,
                    second_algo, dtype, dist, seed, n, k, alpha, beta, flags, sort_order,
                    strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM measurements WHERE id = 2;
             DELETE FROM measurements WHERE id IN (1, 2)"
    run "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1 --db "$db"
    [ "$status" -eq 0 ]
    [[ "$output" == *"2 to measure"* ]]
    [[ "$output" == *" 1 measured "*"1 left to a concurrent tuner"* ]]
    [ "$(q "$db" 'SELECT count(*) FROM measurements')" -eq $((total - 1)) ]
    [ "$(q "$db" "SELECT status FROM runs WHERE run_uuid = 'dead'")" = killed ]
    [ "$(q "$db" "SELECT status FROM runs WHERE run_uuid = 'live'")" = running ]
    [ "$(q "$db" "SELECT count(*) FROM claims WHERE run_id = (SELECT id FROM runs WHERE run_uuid = 'live')")" -eq 1 ]
}

@test "configs stored as errors are measured again on resume" {
    db="$D/err.sqlite"
    "$TUNER" --backend cpu --n 2^10 --k 1,4 --reps 1 --db "$db" >/dev/null
    total=$(q "$db" 'SELECT count(*) FROM measurements')
    q "$db" "UPDATE measurements SET status = 'error', error = 'out of memory', median_ms = NULL WHERE id IN (1, 2)"
    run "$TUNER" --backend cpu --n 2^10 --k 1,4 --reps 1 --db "$db"
    [ "$status" -eq 0 ]
    [[ "$output" == *"$((total - 2)) already measured, 2 to measure"* ]]
    [ "$(q "$db" "SELECT count(*) FROM measurements WHERE status = 'ok'")" -eq "$total" ]
    [ "$(duplicates "$db")" -eq 0 ]
}

@test "--merge of a database into itself is refused at once, also through a hard link" {
    db="$D/self.sqlite"
    "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1 --db "$db" >/dev/null
    ln "$db" "$D/link.sqlite"
    for other in "$db" "$D/link.sqlite"; do
        SECONDS=0
        run "$TUNER" --merge "$other" --db "$db"
        [ "$status" -eq 2 ]
        [[ "$output" == *"merge: $other is this database itself"* ]]
        [ "$SECONDS" -lt 5 ]
    done
}

@test "--merge reads its source without writing it: an old schema stays old, a read-only file merges" {
    a="$D/a.sqlite"; src="$D/old.sqlite"
    "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1 --db "$a" >/dev/null
    "$TUNER" --backend cpu --n 2^11 --k 1 --reps 1 --db "$src" >/dev/null
    nsrc=$(q "$src" 'SELECT count(*) FROM measurements')
    make_v2 "$src"
    q "$src" "UPDATE machines SET uuid = 'cpu:other-host'; UPDATE runs SET run_uuid = 'other-run'" >/dev/null
    q "$src" 'PRAGMA journal_mode = DELETE' >/dev/null
    before=$(md5sum < "$src")
    chmod 755 "$D"
    chmod 444 "$src"
    mkdir "$D/w"
    cp "$a" "$D/w/a.sqlite"
    chmod -R a+rwX "$D/w"
    run as_user "$TUNER" --merge "$src" --db "$D/w/a.sqlite"
    [ "$status" -eq 0 ]
    [[ "$output" == *"1 machines, 1 runs, $nsrc measurements"* ]]
    [ "$(md5sum < "$src")" = "$before" ]
    [ "$(q "$src" 'PRAGMA journal_mode')" = delete ]
    [ "$(q "$src" 'SELECT version FROM schema_version')" -eq 2 ]
    [ ! -e "$src-wal" ]
    # a WAL database read-only in a directory this user cannot write (no -shm can be made)
    "$TUNER" --backend cpu --n 2^12 --k 1 --reps 1 --db "$D/wal.sqlite" >/dev/null
    q "$D/wal.sqlite" "UPDATE machines SET uuid = 'cpu:third-host'; UPDATE runs SET run_uuid = 'third-run'"
    chmod 444 "$D/wal.sqlite"
    [ "$(q "$D/wal.sqlite" 'PRAGMA journal_mode')" = wal ]
    run as_user "$TUNER" --merge "$D/wal.sqlite" --db "$D/w/a.sqlite"
    [ "$status" -eq 0 ]
    [[ "$output" == *"1 machines, 1 runs, "* ]]
    # an empty file is refused by name and stays empty
    : > "$D/empty.sqlite"
    run "$TUNER" --merge "$D/empty.sqlite" --db "$a"
    [ "$status" -eq 2 ]
    [[ "$output" == *"merge: $D/empty.sqlite is empty, not a drtopk database"* ]]
    [ ! -s "$D/empty.sqlite" ]
    echo "not a database, only text, but longer than a SQLite header would be" > "$D/text.sqlite"
    run "$TUNER" --merge "$D/text.sqlite" --db "$a"
    [ "$status" -eq 2 ]
    [[ "$output" == *"$D/text.sqlite is not a SQLite database"* ]]
}

@test "--merge given several times merges each in order, the same as one run each; a bad one stops there" {
    a="$D/a.sqlite"; b="$D/b.sqlite"
    "$TUNER" --backend cpu --n 2^10 --k 1,4 --reps 1 --db "$a" >/dev/null
    "$TUNER" --backend cpu --n 2^10,2^11 --k 1,4 --reps 1 --db "$b" >/dev/null
    cp "$b" "$D/c.sqlite"
    q "$D/c.sqlite" "UPDATE machines SET uuid = 'cpu:other-host', name = 'Other CPU';
                     UPDATE runs SET run_uuid = run_uuid || '-other'"
    cp "$a" "$D/one-run.sqlite"
    cp "$a" "$D/runs.sqlite"
    run "$TUNER" --merge "$b" --merge "$D/c.sqlite" --db "$D/one-run.sqlite"
    [ "$status" -eq 0 ]
    [ "$(grep -c '^merged ' <<< "$output")" -eq 2 ]
    [[ "$(sed -n 1p <<< "$output")" == "merged $b into "* ]]
    [[ "$(sed -n 2p <<< "$output")" == "merged $D/c.sqlite into "*"1 machines, 1 runs, "* ]]
    "$TUNER" --merge "$b" --db "$D/runs.sqlite" >/dev/null
    "$TUNER" --merge "$D/c.sqlite" --db "$D/runs.sqlite" >/dev/null
    [ "$(sqlite3 "$D/one-run.sqlite" .dump)" = "$(sqlite3 "$D/runs.sqlite" .dump)" ]
    [ "$(q "$D/one-run.sqlite" 'SELECT count(*) FROM fit_alphas')" -gt 0 ]
    [ "$(q "$D/one-run.sqlite" 'SELECT count(*) FROM measurements WHERE rule4_alpha = 0')" -eq 0 ]
    # the second of three is missing: the first is merged, it and the third are not
    cp "$a" "$D/stop.sqlite"
    run "$TUNER" --merge "$b" --merge "$D/missing.sqlite" --merge "$D/c.sqlite" --db "$D/stop.sqlite"
    [ "$status" -eq 2 ]
    [[ "$output" == *"$D/missing.sqlite"*"does not exist"*"(source 2 of 3: the 1 before it are merged, it and the 1 after it are not)"* ]]
    [ "$(q "$D/stop.sqlite" 'SELECT count(*) FROM machines')" -eq 1 ]
    [ "$(q "$D/stop.sqlite" 'SELECT count(*) FROM measurements')" -eq "$(q "$b" 'SELECT count(*) FROM measurements')" ]
}

@test "a damaged schema_version is reported as damaged, nothing migrated half-way" {
    db="$D/dmg.sqlite"
    "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1 --db "$db" >/dev/null
    q "$db" "UPDATE schema_version SET version = 1"
    before=$(q "$db" "SELECT group_concat(name) FROM sqlite_master")
    run "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1 --db "$db"
    [ "$status" -eq 2 ]
    [[ "$output" == *"database $db is damaged: schema_version says 1, but column "*"exists, which schema version 1 does not have; restore it from a copy"* ]]
    [ "$(q "$db" "SELECT group_concat(name) FROM sqlite_master")" = "$before" ]
    [ "$(q "$db" 'SELECT version FROM schema_version')" -eq 1 ]
    q "$db" "DELETE FROM schema_version"
    run "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1 --db "$db"
    [ "$status" -eq 2 ]
    [[ "$output" == *"database $db is damaged: its schema_version table holds 0 rows, not 1"* ]]
}

@test "a FIFO as --db or DRTOPK_DB is refused without opening it" {
    mkfifo "$D/fifo"
    run timeout 20 "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1 --db "$D/fifo"
    [ "$status" -eq 2 ]
    [[ "$output" == *"'$D/fifo' is a FIFO, not a regular file"* ]]
    DRTOPK_DB="$D/fifo" run --separate-stderr timeout 20 "$DRTOPK_BIN" run --backend cpu --n 2^12 --k 16
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"warning: cannot read the tuning database $D/fifo: '$D/fifo' is a FIFO"*"planning without it"* ]]
}

@test "drtopk run warns about a tuning database it has no permission to reach" {
    [ "$(id -u)" -eq 0 ] || [ ! -w / ] || skip "needs root (setpriv) or a non-root user"
    mkdir "$D/private"
    "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1 --db "$D/private/t.sqlite" >/dev/null
    chmod 755 "$D"
    chmod 700 "$D/private"
    DRTOPK_DB="$D/private/t.sqlite" run --separate-stderr as_user "$DRTOPK_BIN" run --backend cpu --n 2^12 --k 16
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"warning: cannot read the tuning database $D/private/t.sqlite: "*"Permission denied"* ]]
}

@test "experiments/onepass_bench.sh stores its rows through the tuner and prints both tables" {
    command -v python3 > /dev/null || skip "python3 is missing"
    run sh "$BATS_TEST_DIRNAME/../../experiments/onepass_bench.sh" --backend cpu --db "$D/ob.sqlite"
    [ "$status" -eq 0 ]
    [[ "$output" == *"onepass bench on "*"|V| = 2^16, median ms"* ]]
    [[ "$output" == *"small inputs, u32 UD, median us; timing: ours call"* ]]
    # the small table: per n, the best of ours and the automatic plan (tuner --compare)
    [ "$(echo "$output" | grep -cE '^2\^(6|8|10) +best ')" -eq 3 ]
    [ "$(echo "$output" | grep -cE '^ +auto +[0-9]')" -eq 3 ]
    # every dtype x dist has a default and an onepass row, measured and verified where checked
    [ "$(echo "$output" | grep -cE '^(u32|f32|f16|bf16|u64|f64) +(UD|ND|CD) +(default|onepass) ')" -eq 36 ]
    [ "$(q "$D/ob.sqlite" "SELECT count(*) FROM measurements WHERE algorithm = 'onepass' AND status = 'ok'
                           AND n = 65536")" -eq 108 ]
    [ "$(q "$D/ob.sqlite" "SELECT count(*) FROM measurements WHERE verified = 1 AND verify_ok = 0")" -eq 0 ]
    run sh "$BATS_TEST_DIRNAME/../../experiments/onepass_bench.sh" --backend gpu
    [ "$status" -eq 2 ]
}

# A stand-in for both peers (CUB_PEER and PYTHON of run_peers.sh): logs its
# arguments and prints one measured line per --dtypes x --dists x --ks entry (k <= n).
fake_peer() {
    cat > "$D/fake_peer" <<'EOF'
#!/usr/bin/env python3
import json, sys
args = [a for a in sys.argv[1:] if not a.endswith(".py")]
peer = "torch_topk" if len(args) < len(sys.argv) - 1 else "cub_device_topk.i32.fake"
with open(sys.argv[0] + ".log", "a") as log:
    log.write(peer + " " + " ".join(args) + "\n")
o = dict(zip(args[::2], args[1::2]))
for t in o.get("--dtypes", "u32").split(","):
    for d in o.get("--dists", "UD,ND,CD").split(","):
        for k in (k for k in o["--ks"].split(",") if int(k) <= 2 ** int(o["--log-n"])):   # as the peers: k <= n
            print(json.dumps({"peer": peer, "gpu": "NVIDIA Fixture", "seed": 1, "n": 2 ** int(o["--log-n"]),
                              "k": int(k), "dist": d, "dtype": t, "ms_median": 1.0, "ms_min": 1.0, "ms_max": 1.0,
                              "reps": int(o.get("--reps", 7)), "verified": 1, "timing": "gpu"}))
EOF
    chmod +x "$D/fake_peer"
}

@test "onepass_bench.sh --sweeps, --dtypes, --dists: one table or the other, the peers on the large sweep's types" {
    command -v python3 > /dev/null || skip "python3 is missing"
    fake_peer
    CUB_PEER="$D/fake_peer" PYTHON="$D/fake_peer" run sh "$BATS_TEST_DIRNAME/../../experiments/onepass_bench.sh" \
        --backend cpu --db "$D/ol.sqlite" --sweeps large --dtypes u32,f16,u64 --dists ND --reps 2 --peers
    [ "$status" -eq 0 ]
    [[ "$output" == *"onepass bench on "* ]]
    [[ "$output" != *"small inputs"* ]]
    # the table holds the chosen types and distribution only, each with its floor
    [ "$(echo "$output" | grep -cE '^(u32|f16|u64) +ND +(default|onepass) ')" -eq 6 ]
    [ "$(echo "$output" | grep -cE '^[a-z0-9]+ +[A-Z]+ +(default|onepass) ')" -eq 6 ]
    [ "$(echo "$output" | grep -cE '^(u32|f16|u64) +floor ')" -eq 3 ]
    [ "$(q "$D/ol.sqlite" "SELECT count(DISTINCT dtype || dist) FROM measurements WHERE n = 65536")" -eq 3 ]
    [ "$(q "$D/ol.sqlite" "SELECT count(*) FROM measurements WHERE n < 65536")" -eq 0 ]
    [ "$(q "$D/ol.sqlite" "SELECT DISTINCT reps FROM measurements")" -eq 2 ]
    # both peers ran once, at 2^16 on those types, distribution, k and reps (CUB at both item widths);
    # every line stored with its dtype
    [ "$(grep -c '^cub_device_topk.i32.fake .*--log-n 16 --ks 1,4,16,64,256,1024 --dtypes u32,f16,u64 --dists ND --reps 2' \
        "$D/fake_peer.log")" -eq 2 ]
    [ "$(grep -c '^torch_topk .*--dtypes u32,f16,u64 --dists ND' "$D/fake_peer.log")" -eq 1 ]
    [ "$(wc -l < "$D/fake_peer.log")" -eq 3 ]
    [ "$(q "$D/ol.sqlite" "SELECT group_concat(dtype || ':' || c) FROM (SELECT dtype, count(*) c FROM peer_measurements
                            WHERE peer = 'torch_topk' GROUP BY dtype ORDER BY dtype)")" = "f16:6,u32:6,u64:6" ]
    rm -f "$D/fake_peer.log"
    # the small sweep alone: its table, no large rows, the peers on u32 UD at each small n
    CUB_PEER="$D/fake_peer" PYTHON="$D/fake_peer" run sh "$BATS_TEST_DIRNAME/../../experiments/onepass_bench.sh" \
        --backend cpu --db "$D/os.sqlite" --sweeps small --peers
    [ "$status" -eq 0 ]
    [[ "$output" != *"onepass bench on "* ]]
    [[ "$output" == *"small inputs, u32 UD, median us"* ]]
    [ "$(q "$D/os.sqlite" "SELECT count(*) FROM measurements WHERE n = 65536")" -eq 0 ]
    [ "$(grep -c -- '--dists UD' "$D/fake_peer.log")" -eq 6 ]      # 3 small n, CUB (32-bit counts) and torch
    ! grep -q -- '--dtypes' "$D/fake_peer.log"
    # bad lists name the option and the choices, before anything runs
    for bad in "--sweeps large,medium" "--dtypes u32,u128" "--dists UD,XD" "--reps 0" "--sweeps ,"; do
        # shellcheck disable=SC2086 # two words
        run sh "$BATS_TEST_DIRNAME/../../experiments/onepass_bench.sh" --backend cpu --db "$D/bad.sqlite" $bad
        [ "$status" -eq 2 ]
        [[ "$output" == *"onepass_bench.sh: ${bad%% *}"* ]]
    done
    [ ! -e "$D/bad.sqlite" ]
}

@test "--merge counts the held-out checks it adds, and none the second time" {
    "$TUNER" "${SMALL[@]}" --db "$D/q.sqlite" > /dev/null 2>&1
    # the sweep's own checks depend on its timings (a cell is checked only where
    # it beat the default): two more, made by hand, so that there always are some
    sqlite3 "$D/q.sqlite" "INSERT INTO checks (machine_id, git_commit, kind, dtype, dist, seed, n, k,
        tuned_algorithm, tuned_alpha, tuned_beta, tuned_flags, default_alpha, default_beta, default_flags,
        default_ms_a, default_ms_b, tuned_ms_a, tuned_ms_b, checked_at)
        SELECT id, 'abc', 'heldout', 'u32', 'UD', 1, 777, kk, 'dr-radix', 4, 1, 15, 0, 0, 0, 1, 1, 2, 2,
               '2026-01-01T00:00:00Z' FROM machines, (SELECT 1 AS kk UNION SELECT 2) LIMIT 2"
    n=$(q "$D/q.sqlite" 'SELECT count(*) FROM checks')
    [ "$n" -ge 2 ]
    run "$TUNER" --merge "$D/q.sqlite" --db "$D/merged-checks.sqlite"
    [ "$status" -eq 0 ]
    [[ "$output" == *", $n held-out checks added"* ]]
    [ "$(q "$D/merged-checks.sqlite" 'SELECT count(*) FROM checks')" -eq "$n" ]
    run "$TUNER" --merge "$D/q.sqlite" --db "$D/merged-checks.sqlite"
    [[ "$output" == *", 0 held-out checks added"* ]]
}
