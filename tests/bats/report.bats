#!/usr/bin/env bats
# report.bats -- experiments/report.sh on a database from a CPU-backend tuner
# sweep: table (a) has one row per (dist, k) and, per
# algorithm, standalone / Dr. / speedup columns with the stored medians; table
# (b) matches Rule 4 with the stored fit; machine selection, skipped cells and
# errors; the modern peers' columns (cub-topk, torch-topk) from --import-peers.

TUNER="${TUNER:-$BATS_TEST_DIRNAME/../../bin/tuner}"
REPORT="$BATS_TEST_DIRNAME/../../experiments/report.sh"
SWEEP=(--backend cpu --n 2^12 --k 256,1,16 --dist UD,ND,CD --algo radix,dr-radix,bucket,dr-bucket,sort-cub
       --alpha-span 1 --beta 1,2 --reps 1 --dtype u32)

setup_file() {
    export DB_DIR="$(mktemp -d)"
    "$TUNER" "${SWEEP[@]}" --db "$DB_DIR/sweep.sqlite" > "$DB_DIR/tuner.txt" 2>&1
}

teardown_file() {
    rm -rf "$DB_DIR"
}

setup() {
    DB="$DB_DIR/sweep.sqlite"
}

q() { sqlite3 "$1" "$2"; }

# rows SECTION: the data rows of the table under the "== SECTION" heading
# (between its dashed rule and the next blank line); head SECTION: its header.
rows() { awk -v s="== $1" 'index($0, s) == 1 {on = 1} on && /^---/ {r = 1; next} r && /^$/ {exit} r' <<< "$output"; }
head_of() { awk -v s="== $1" 'index($0, s) == 1 {on = 1} on && /^---/ {print prev; exit} {prev = $0}' <<< "$output"; }

@test "table (a): one row per (dist, k), standalone, Dr. and speedup columns from the stored medians" {
    run "$REPORT" --db "$DB"
    [ "$status" -eq 0 ]
    [ "$(head_of '(a)' | tr -s ' ')" = "dist k radix dr-radix x bucket dr-bucket x sort-cub" ]
    [ "$(rows '(a)' | awk '{print $1 "/" $2}' | tr '\n' ' ')" = "UD/1 UD/16 UD/256 ND/1 ND/16 ND/256 CD/1 CD/16 CD/256 " ]
    [ "$(rows '(a)' | awk 'NF != 9' | wc -l)" -eq 0 ]
    # Every cell measured; each speedup is standalone / Dr. of its row (up to
    # the rounding of the printed ms).
    [ "$(rows '(a)' | awk '$3 !~ /^[0-9.]+$/ || $4 !~ /^[0-9.]+$/ || $5 !~ /^[0-9.]+x$/' | wc -l)" -eq 0 ]
    [ "$(rows '(a)' | awk '{ s = $3 / $4; x = $5 + 0; if (x < 0.95 * s - 0.011 || x > 1.05 * s + 0.011) print }' | wc -l)" -eq 0 ]
    # The ND k = 16 radix cells are the database's medians: standalone, and Dr.
    # at Rule 4's alpha (const 3: round((3 + 12 - 4) / 2) = 6) with beta 2.
    alone=$(q "$DB" "SELECT printf('%.3f', median_ms) FROM measurements WHERE algorithm = 'radix' AND dist = 'ND' AND k = 16")
    dr=$(q "$DB" "SELECT printf('%.3f', median_ms) FROM measurements WHERE algorithm = 'dr-radix' AND dist = 'ND'
                  AND k = 16 AND alpha = 6 AND beta = 2 AND flags & 4 = 4")
    [ "$(rows '(a)' | awk '$1 == "ND" && $2 == 16 {print $3 " " $4}')" = "$alone $dr" ]
    # The header names the machine and the commit of the measurements.
    commit=$(q "$DB" "SELECT git_commit FROM runs")
    [[ "$output" == *"CPU backend: "*"($(q "$DB" 'SELECT uuid FROM machines')), commit $commit"* ]]
    [[ "$output" == *"|V| = 2^12, u32"* ]]
}

@test "table (b): oracle alpha and Rule 4 with the stored fit and with const 3, then the fits" {
    run "$REPORT" --db "$DB"
    [ "$status" -eq 0 ]
    [ "$(head_of '(b)' | tr -s ' ')" = "dist log2 n k alpha* oracle ms alpha fit fit ms fit slow alpha c=3 c=3 ms c=3 slow" ]
    [ "$(rows '(b)' | grep -cv '^mean\|^worst')" -eq 9 ]
    [ "$(rows '(b)' | awk '!/^mean|^worst/ && NF != 11' | wc -l)" -eq 0 ]
    [ "$(rows '(b)' | tail -n2 | awk '{print $1}' | tr '\n' ' ')" = "mean worst " ]
    # alpha* is the fastest measured alpha of (dist, n, k).
    astar=$(q "$DB" "SELECT alpha FROM measurements WHERE algorithm = 'dr-radix' AND beta = 2 AND dist = 'CD' AND k = 1
                     AND flags = 11 + CASE WHEN alpha <= 7 THEN 4 ELSE 0 END ORDER BY median_ms, alpha LIMIT 1")
    [ "$(rows '(b)' | awk '$1 == "CD" && $3 == 1 {print $4}')" = "$astar" ]
    # Rule 4's alphas: with const 3 at n = 2^12, k = 1, 16, 256: 8, 6, 4; with the
    # fit, its rounding, clamped to [1, log2 n].
    [ "$(rows '(b)' | awk '$1 == "UD" {printf "%s ", $9}')" = "8 6 4 " ]
    c=$(q "$DB" "SELECT const_time FROM fits WHERE algorithm = 'dr-radix' AND beta = 2")
    want=$(awk -v c="$c" 'BEGIN { for (l = 0; l <= 8; l += 4) { a = 0.5 * (c + 12 - l); r = int(a + 0.5); if (r < 1) r = 1; if (r > 12) r = 12; printf "%d ", r } }')
    [ "$(rows '(b)' | awk '$1 == "UD" {sub(/~/, "", $6); printf "%s ", $6}')" = "$want" ]
    # The mean slowdown of the fitted const is the one the tuner stored.
    mean=$(q "$DB" "SELECT printf('%.3fx', mean_slowdown) FROM fits WHERE algorithm = 'dr-radix' AND beta = 2")
    [ "$(rows '(b)' | awk '$1 == "mean" {print $2}')" = "$mean" ]
    [ "$(head_of 'Rule 4 fits' | tr -s ' ')" = "algorithm beta const_time const_lsq const_theory C_global C_shfl mean slow worst slow points commit" ]
    [ "$(rows 'Rule 4 fits' | awk '{print $1 "/" $2}' | tr '\n' ' ')" = "dr-radix/2 dr-bucket/1 dr-bucket/2 dr-radix/1 " ]
}

@test "a commit whose hex reads as a number in SQL (1234e5678901, 123456789012) still selects its rows" {
    for c in 1234e5678901 123456789012; do
        db="$BATS_TEST_TMPDIR/num-$c.sqlite"
        cp "$DB" "$db"
        q "$db" "UPDATE measurements SET git_commit = '$c'; UPDATE fits SET git_commit = '$c'"
        run "$REPORT" --db "$db"
        [ "$status" -eq 0 ]
        [[ "$output" == *"commit $c"* ]]
        [ "$(rows '(a)' | wc -l)" -eq 9 ]
    done
}

@test "a fitted alpha outside the measured window is marked; GPU machines show driver and CUDA" {
    db="$BATS_TEST_TMPDIR/gpu.sqlite"
    cp "$DB" "$db"
    q "$db" "UPDATE fits SET const_time = 30 WHERE algorithm = 'dr-radix' AND beta = 2;
             UPDATE machines SET backend = 'cuda', name = 'NVIDIA H100 80GB HBM3', driver_version = 13000,
                                 runtime_version = 12080, c_global = 450.5, c_shfl = 30.5;
             UPDATE fits SET const_theory = 2.25"
    # a fit another tool changed: its alphas are the old const's until the store derives them anew
    run "$REPORT" --db "$db"
    [ "$(rows '(b)' | awk '$1 == "UD" {printf "%s ", $6}')" = "- - - " ]
    "$TUNER" --migrate --db "$db" > /dev/null
    run "$REPORT" --db "$db"
    [ "$status" -eq 0 ]
    [[ "$output" == *"GPU: NVIDIA H100 80GB HBM3 ("*"), driver CUDA 13.0, runtime CUDA 12.8, commit "* ]]
    # const 30 gives alpha 12 (the clamp at log2 n); the sweep measured Rule 4 (3) +-1 only.
    [ "$(rows '(b)' | awk '$1 == "UD" {printf "%s ", $6}')" = "12~ 12~ 12~ " ]
    [ "$(rows 'Rule 4 fits' | awk 'NR == 1 {print $5, $6, $7}')" = "2.250 450.5 30.5" ]
}

@test "skipped standalone configs show as skip, the default machine has the most measurements" {
    db="$BATS_TEST_TMPDIR/two.sqlite"
    "$TUNER" --backend cpu --n 2^11 --k 1,16 --dist UD --algo radix,dr-radix --alpha-span 0 --beta 2 --reps 1 \
        --skip-after-s 1e-9 --db "$db" > /dev/null 2>&1
    run "$REPORT" --db "$db"
    [ "$status" -eq 0 ]
    [ "$(rows '(a)' | awk '{print $1, $2}' | tr '\n' ' ')" = "UD 1 UD 16 " ]
    [ "$(rows '(a)' | awk '$2 == 16 {print $3, $5}')" = "skip -" ]
    [[ "$(rows '(a)' | awk '$2 == 16 {print $4}')" =~ ^[0-9.]+$ ]]
    [[ "$(rows '(a)' | awk '$2 == 1 {print $3, $4, $5}')" =~ ^[0-9.]+\ [0-9.]+\ [0-9.]+x$ ]]
    # A second machine with more measurements becomes the default; --machine picks either.
    cp "$DB" "$BATS_TEST_TMPDIR/other.sqlite"
    q "$BATS_TEST_TMPDIR/other.sqlite" "UPDATE machines SET uuid = 'cpu:other-host';
                                        UPDATE runs SET run_uuid = run_uuid || '-other'"
    "$TUNER" --merge "$BATS_TEST_TMPDIR/other.sqlite" --db "$db" > /dev/null
    run "$REPORT" --db "$db"
    [ "$status" -eq 0 ]
    [[ "$output" == *"(cpu:other-host)"* ]]
    [[ "$output" == *"|V| = 2^12"* ]]
    uuid=$(q "$db" "SELECT uuid FROM machines WHERE uuid <> 'cpu:other-host'")
    run "$REPORT" --db "$db" --machine "$uuid" --n 2^11
    [ "$status" -eq 0 ]
    [[ "$output" == *"($uuid)"* ]]
    [[ "$output" == *"|V| = 2^11"* ]]
}

@test "bad arguments and databases fail with a clear message" {
    run "$REPORT" --db "$BATS_TEST_TMPDIR/missing.sqlite"
    [ "$status" -eq 2 ]
    [[ "$output" == *"does not exist"* ]]
    run "$REPORT" --db "$DB" --machine no-such-machine
    [ "$status" -eq 2 ]
    [[ "$output" == *"no machine no-such-machine"* ]]
    run "$REPORT" --db "$DB" --machine "x'; DROP TABLE runs; --"
    [ "$status" -eq 2 ]
    [ "$(q "$DB" 'SELECT count(*) FROM runs')" -eq 1 ]
    run "$REPORT" --db "$DB" --n 2^x
    [ "$status" -eq 2 ]
    run "$REPORT" --db "$DB" --bogus
    [ "$status" -eq 2 ]
    run "$REPORT" --db "$DB" --dtype f32
    [ "$status" -eq 0 ]
    [[ "$output" == *"no standalone measurements of f32"* ]]
    # a schema before the columns the queries read: the command that brings it up to date
    old="$BATS_TEST_TMPDIR/old.sqlite"
    sqlite3 "$DB" ".backup '$old'"
    q "$old" "UPDATE schema_version SET version = 10"
    run "$REPORT" --db "$old"
    [ "$status" -eq 2 ]
    [[ "$output" == *"schema version 10"*"tuner --migrate --db $old"* ]]
}

@test "table (a): the modern peers' columns after the algorithms, for the same (dist, k, n)" {
    db="$BATS_TEST_TMPDIR/peers.sqlite"
    cp "$DB" "$db"
    # The sweep's machine as a GPU the peers name without a uuid (matched by name).
    q "$db" "UPDATE machines SET backend = 'cuda', name = 'NVIDIA H200'"
    seed=$(q "$db" "SELECT DISTINCT seed FROM measurements")
    line() {    # line PEER DIST K SEED MS VERIFIED [N]
        printf '{"peer":"%s","gpu":"NVIDIA H200","seed":%s,"n":%s,"k":%s,"dist":"%s","dtype":"u32","ms_median":%s,"ms_min":%s,"ms_max":%s,"reps":7,"verified":%s}\n' \
            "$1" "$4" "${7:-4096}" "$3" "$2" "$5" "$5" "$5" "$6"
    }
    {
        line cub_device_topk UD 1 "$seed" 0.5 1
        line cub_device_topk UD 16 "$seed" 0.25 1
        line cub_device_topk UD 16 "$((seed + 1))" 9.5 1     # another seed loses to the same seed
        line cub_device_topk ND 1 "$((seed + 1))" 0.75 1     # only another seed: marked
        line cub_device_topk CD 256 "$seed" 0.125 0          # failed the peer's check
        line cub_device_topk CD 1 "$seed" 7.5 1 8192         # another n: not in this table
        line torch_topk UD 1 "$seed" 2.5 1
        echo '{"peer":"torch_topk","skipped":"torch not importable","gpu":"NVIDIA H200"}'
    } > "$BATS_TEST_TMPDIR/peers.jsonl"
    run "$TUNER" --import-peers "$BATS_TEST_TMPDIR/peers.jsonl" --db "$db"
    [ "$status" -eq 1 ]     # the failed check
    run "$REPORT" --db "$db"
    [ "$status" -eq 0 ]
    [ "$(head_of '(a)' | tr -s ' ')" = "dist k radix dr-radix x bucket dr-bucket x sort-cub cub-topk torch-topk" ]
    [ "$(rows '(a)' | awk 'NF != 11' | wc -l)" -eq 0 ]
    [ "$(rows '(a)' | awk '{printf "%s/%s:%s,%s ", $1, $2, $10, $11}')" = \
      "UD/1:0.500,2.500 UD/16:0.250,skip UD/256:-,skip ND/1:0.750*,skip ND/16:-,skip ND/256:-,skip CD/1:-,skip CD/16:-,skip CD/256:wrong,skip " ]
    # the algorithms' cells are as without the peers
    [ "$(rows '(a)' | awk '$1 == "ND" && $2 == 16 {print $3, $4}')" = \
      "$(q "$db" "SELECT printf('%.3f', median_ms) FROM measurements WHERE algorithm = 'radix' AND dist = 'ND' AND k = 16") $(q "$db" "SELECT printf('%.3f', median_ms) FROM measurements WHERE algorithm = 'dr-radix' AND dist = 'ND' AND k = 16 AND alpha = 6 AND beta = 2 AND flags & 4 = 4")" ]
    [[ "$output" == *"* = the peer ran on another seed of the same distribution"* ]]
    # Without the peers' table: no peer columns (older schemas are refused before: "bad arguments").
    q "$db" "DROP TABLE peer_measurements"
    run "$REPORT" --db "$db"
    [ "$status" -eq 0 ]
    [ "$(head_of '(a)' | tr -s ' ')" = "dist k radix dr-radix x bucket dr-bucket x sort-cub" ]
    [[ "$output" != *"cub-topk"* ]]
}
