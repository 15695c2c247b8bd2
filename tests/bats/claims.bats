#!/usr/bin/env bats
# claims.bats -- the verdicts of experiments/run_all.sh's figures against the
# paper's numbers (figures/claims.tsv, experiments/lib/claims.sh), each on a
# small hand-made database that holds exactly the case: a series of one point
# (Fig 13), an oracle searched over too few alphas (Fig 14), a run at another k
# than the paper's (Fig 20), two plans that are the same row (Fig 15), panel (b) (Fig 9), a
# distribution never counted (Fig 24), the summary's not-measured count, rows
# of a modified tree and unverified rows, the run drawn per GPU model, and the
# verdict words of a ratio claim.

ROOT="$BATS_TEST_DIRNAME/../.."
RUN_ALL="$ROOT/experiments/run_all.sh"
N30=1073741824
COMMIT=aaaaaaaaaaaa1111

setup() {
    T="$(mktemp -d)"
    DB="$T/db.sqlite"
    # the store's schema from the smallest reference dump, its rows deleted but
    # its schema version's (run_all.sh refuses a database without one)
    small=$(ls -S "$ROOT"/db/reference/*.sql.gz | tail -1)
    gzip -dc "$small" | sqlite3 -bail "$DB"
    for t in $(sqlite3 "$DB" "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                              AND name != 'schema_version'"); do
        sqlite3 "$DB" "DELETE FROM $t"
    done
    gpu 1 GPU-aaaa1111 "NVIDIA H100 80GB HBM3"
}

teardown() {
    rm -rf "$T"
}

# gpu ID UUID NAME: a machine and a run of it.
gpu() {
    sqlite3 "$DB" "INSERT INTO machines (id, uuid, name, backend, read_gbps, driver_version, runtime_version)
                   VALUES ($1, '$2', '$3', 'cuda', 3000, 12040, 12040);
                   INSERT INTO runs (id, run_uuid, machine_id, program, argv, git_commit, started_at, status)
                   VALUES ($1, 'run$1', $1, 'tuner', '', '$COMMIT', '2026-11-01', 'done')"
}

# row MACHINE ALGO N K ALPHA BETA FLAGS MS [DIST [COMMIT [VERIFY_OK [DATE]]]]: one timing row;
# stage times: delegate = MS / 2, the others MS / 8.
row() {
    sqlite3 "$DB" "INSERT INTO measurements (machine_id, run_id, git_commit, algorithm, first_algo, second_algo, dtype,
                   dist, seed, n, k, alpha, beta, flags, sort_order, status, reps, median_ms, ms_delegate, ms_first,
                   ms_concat, ms_second, verified, verify_ok, measured_at)
                   VALUES ($1, $1, '${10:-$COMMIT}', '$2', '', '', 'u32', '${9:-UD}', 1, $3, $4, $5, $6, $7, 'largest',
                           'ok', 3, $8, $8 / 2.0, $8 / 8.0, $8 / 8.0, $8 / 8.0, 1, ${11:-1}, '${12:-2026-11-01}T00:00:00Z')"
}

# counter MACHINE DIST K NAME VALUE: one host count of tuner --bmw.
counter() {
    sqlite3 "$DB" "INSERT INTO counters (machine_id, run_id, git_commit, algorithm, first_algo, second_algo, dtype, dist,
                   seed, n, k, alpha, beta, flags, sort_order, source, counter, value, tool_version, measured_at)
                   VALUES ($1, $1, '$COMMIT', 'dr-radix', '', '', 'u32', '$2', 1, $N30, $3, 5, 2, 11, 'largest', 'bmw',
                           '$4', $5, '', '2026-11-01T00:00:00Z')"
}

# derive: the store's columns of the rows written here (Rule 4's plan with the
# paper's const, db/schema.sql), as any database the figures read has them.
derive() {
    "$ROOT/bin/tuner" --migrate --db "$DB" > /dev/null
}

# fig ID: run one experiment on the database into $T/out.
fig() {
    derive
    DRTOPK_EXP_DB="$DB" DRTOPK_EXP_OUT="$T/out" "$ROOT/experiments/$1.sh" > "$T/$1.log" 2>&1
}

# claim ID KEY FIELD: a field of a claim line of the first machine (5 paper, 6 ours, 7 verdict).
claim() {
    awk -F'\t' -v k="$2" -v f="$3" '$2 == k { print $f; exit }' "$T/out/data/claims/$1"*.tsv
}

@test "Fig 13: a k measured at 3 alphas over all |V| together but one alpha per |V| is not measured" {
    # the old query chose k = 2^13 (3 alphas across |V|), every series one point: "convex" vacuously
    row 1 dr-radix $((1 << 24)) 8192 5 2 15 1.0
    row 1 dr-radix $((1 << 26)) 8192 6 2 15 2.0
    row 1 dr-radix $((1 << 28)) 8192 7 2 15 3.0
    fig fig13_alpha
    [[ "$(claim fig13_alpha convex 7)" == "not measured: no |V| measured at 3 or more alphas"* ]]
    grep -q "1 alpha(s), too few" "$T/out/data/status/fig13_alpha.tsv"
    # three alphas of one |V|, falling then rising: convex, the one-point series left out
    row 1 dr-radix $((1 << 28)) 8192 8 2 11 2.0
    row 1 dr-radix $((1 << 28)) 8192 9 2 11 2.5
    fig fig13_alpha
    [ "$(claim fig13_alpha convex 6)" = 1 ]
    [[ "$(claim fig13_alpha convex 7)" == reproduced* ]]
}

@test "Fig 14: the oracle is searched over 5 or more alphas; Rule 4's alpha +-1 alone is not measured" {
    # k = 1 at 2^30: Rule 4's alpha is 17 (flags 11); alpha 16..18 is the regret grid's local search
    row 1 dr-radix $N30 1 16 2 11 1.1
    row 1 dr-radix $N30 1 17 2 11 1.0
    row 1 dr-radix $N30 1 18 2 11 1.2
    fig fig14_oracle
    [ "$(cut -f5,8 "$T/out/data/status/fig14_oracle.tsv")" = "not measured	no dr-radix beta 2 rows at |V| = 2^30 measured at 5 or more alphas" ]
    [ -z "$(claim fig14 rule4_slowdown 7)" ]
    # alpha 15..19: the oracle (alpha 15) is twice as fast as Rule 4's
    row 1 dr-radix $N30 1 15 2 11 0.5
    row 1 dr-radix $N30 1 19 2 11 1.3
    fig fig14_oracle
    [ "$(claim fig14 rule4_slowdown 6)" = 2 ]
    [ "$(claim fig14 rule4_slowdown 7)" = "not reproduced" ]
}

@test "Fig 20: a run at another k than the paper's 2^19 is drawn only where none is at 2^19, and judges nothing" {
    gpu 2 GPU-bbbb2222 "NVIDIA H100 80GB HBM3"
    # workload rows (|D|, |C|) at |V| = 2^22 and 2^30 of Rule 4's plan: machine 1 at k = 2^18 (newer),
    # machine 2 at the paper's k = 2^19
    wl() {
        sqlite3 "$DB" "INSERT INTO measurements (machine_id, run_id, git_commit, algorithm, first_algo, second_algo, dtype,
                       dist, seed, n, k, alpha, beta, flags, sort_order, status, reps, median_ms, delegate_len, concat_len,
                       verified, verify_ok, measured_at)
                       VALUES ($1, $1, '$COMMIT', 'dr-radix', '', '', 'u32', 'UD', 1, $2, $3, 0, 2, 0, 'largest', 'ok', 3,
                               1.0, $4, $5, 1, 1, '$6T00:00:00Z')"
    }
    wl 1 $((1 << 22)) $((1 << 18)) 1000000 500000 2026-11-05
    wl 1 $N30 $((1 << 18)) 8000000 100000 2026-11-05
    derive
    sqlite3 "$DB" "UPDATE measurements SET alpha = rule4_alpha, flags = rule4_flags"
    fig fig20_workload_size
    [[ "$(claim fig20 share_small 7)" == "not measured: k = 2^19 not measured at 2 or more sizes (drawn at the nearest, 2^18)" ]]
    [[ "$(claim fig20 share_large 7)" == "not measured: k = 2^19 not measured at 2 or more sizes (drawn at the nearest, 2^18)" ]]
    # |D| + |C| = 3M of 2^22 keys: 71.5% against the paper's 76.06; 8.9M of 2^30: 0.83%
    wl 2 $((1 << 22)) $((1 << 19)) 2000000 1000000 2026-11-01
    wl 2 $N30 $((1 << 19)) 8800000 112000 2026-11-01
    derive
    sqlite3 "$DB" "UPDATE measurements SET alpha = rule4_alpha, flags = rule4_flags"
    fig fig20_workload_size
    [ "$(awk -F'\t' '$14 == 1 { print $12 }' "$T/out/data/status/fig20_workload_size.tsv")" = GPU-bbbb2222 ]
    [ "$(awk -F'\t' '$3 == "GPU-bbbb2222" && $2 == "share_small" { print $7 }' "$T/out/data/claims/fig20"*.tsv)" = reproduced ]
    [ "$(awk -F'\t' '$3 == "GPU-bbbb2222" && $2 == "share_large" { print $7 }' "$T/out/data/claims/fig20"*.tsv)" = reproduced ]
    # run_all's last line counts the panels drawn: machine 1's line (not measured, not drawn) is on runs.html
    run env DRTOPK_CACHE="$T/cache" "$RUN_ALL" --from-db --db "$DB" --out "$T/all" --only fig20
    [ "$status" -eq 0 ]
    [[ "${lines[-1]}" == *"0 of the 1 panels drawn and 0 of their claims not measured"* ]]
}

@test "Fig 15: where Rule 4's alpha is above 7 the two plans are one row, and nothing is compared" {
    # k = 1 at 2^30: alpha 17, the default flags are Fig 10's (11): the same row for both figures
    row 1 dr-radix $N30 1 17 2 11 1.5
    fig fig15_delegate_build
    [[ "$(claim fig15 total_gain 7)" == "not measured: the previous figure's plan is not measured at a k where the plans differ" ]]
    ! grep -q "not held\|not reproduced" "$T/out/data/status/fig15_delegate_build.tsv"
    # k = 2^24 (alpha 5): the optimized build (flags 15) against Fig 10's plan (11), 2x faster in total
    row 1 dr-radix $N30 16777216 5 2 11 4.0
    row 1 dr-radix $N30 16777216 5 2 15 2.0
    fig fig15_delegate_build
    [ "$(claim fig15 total_gain 6)" = 2 ]
    [ "$(claim fig15 total_gain 7)" = reproduced ]
}

@test "Fig 9: panel (b), where beta 2 runs at 0.46x of beta 1, makes the verdict" {
    row 1 dr-radix $N30 16777216 5 1 15 1.41
    row 1 dr-radix $N30 16777216 5 2 15 1.0
    fig fig09_beta
    [ "$(claim fig09 beta2_a 7)" = reproduced ]
    [[ "$(claim fig09 beta2_b 7)" == "not measured: "* ]]
    # (b): |V| = 2^28, k = 2^25 (alpha 3): beta 2 takes 1 / 0.46 of beta 1's time
    row 1 dr-radix $((1 << 28)) 33554432 3 1 15 1.0
    row 1 dr-radix $((1 << 28)) 33554432 3 2 15 2.1739
    row 1 dr-radix $N30 33554432 4 1 15 1.0
    row 1 dr-radix $N30 33554432 4 2 15 1.0
    fig fig09_beta
    [ "$(claim fig09 beta2_b 6)" = 0.46 ]
    [ "$(claim fig09 beta2_b 7)" = "not reproduced" ]
    grep -q "not reproduced" "$T/out/data/status/fig09_beta.tsv"
}

@test "Fig 24: a distribution never counted is not measured, never part of a held verdict; the summary counts it" {
    row 1 dr-radix $N30 1 17 2 11 1.0          # the machine has timing rows too
    for k in 1 64; do
        counter 1 UD $k bmw_evaluated 600
        counter 1 UD $k dr_workload 100
    done
    derive
    run env DRTOPK_CACHE="$T/cache" "$RUN_ALL" --from-db --db "$DB" --out "$T/out" --only fig24
    [ "$status" -eq 0 ]
    [ "$(claim fig24 ratio_ud 6)" = 6 ]
    [ "$(claim fig24 ratio_ud 7)" = reproduced ]
    [[ "$(claim fig24 ratio_nd 7)" == "not measured: ND never counted"* ]]
    grep -q "ND never counted" "$T/out/data/status/fig24_bmw.tsv"
    # the last line counts the claims not measured (here ND's), not only whole panels, of the panels drawn
    [[ "${lines[-1]}" == *"0 of the 1 panels drawn and 1 of their claims not measured"* ]]
}

@test "a ratio claim: within tolerance reproduced, outside on the same side of 1 same direction, across 1 not reproduced" {
    for ms in 10.7 2 0.5; do
        sqlite3 "$DB" "DELETE FROM measurements"
        for k in 1 2; do
            row 1 radix-ggks $((1 << 21)) $k 0 0 0 "$ms"
            row 1 radix $((1 << 21)) $k 0 0 0 1
        done
        fig fig12_radix
        case $ms in
            10.7) [ "$(claim fig12 mean_speedup 7)" = reproduced ] ;;
            2)    [ "$(claim fig12 mean_speedup 7)" = "same direction, different magnitude" ]
                  [ "$(claim fig12 mean_speedup 5)" = 10.7 ] && [ "$(claim fig12 mean_speedup 6)" = 2 ] ;;
            0.5)  [ "$(claim fig12 mean_speedup 7)" = "not reproduced" ] ;;
        esac
    done
}

@test "provenance: a panel draws one clean commit, names it with its date, and marks unverified rows" {
    for k in 1 2; do
        row 1 radix-ggks $((1 << 21)) $k 0 0 0 5 UD bbbbbbbbbbbb2222-dirty 1 2026-11-09
        row 1 radix $((1 << 21)) $k 0 0 0 1 UD bbbbbbbbbbbb2222-dirty 1 2026-11-09
    done
    fig fig12_radix
    # the dirty tree's rows draw nothing: the not-measured panel, no claim judged
    [ "$(cut -f5 "$T/out/data/status/fig12_radix.tsv")" = "not measured" ]
    [ -z "$(claim fig12 mean_speedup 7)" ]
    for k in 1 2; do
        row 1 radix-ggks $((1 << 21)) $k 0 0 0 10 UD cccccccccccc3333 NULL 2026-11-05
        row 1 radix $((1 << 21)) $k 0 0 0 1 UD cccccccccccc3333 1 2026-11-05
        row 1 radix-ggks $((1 << 21)) $k 0 0 0 2 UD dddddddddddd4444 1 2026-11-02
        row 1 radix $((1 << 21)) $k 0 0 0 1 UD dddddddddddd4444 1 2026-11-02
    done
    fig fig12_radix
    # the newest clean commit only (10x, never mixed with the older commit's 2x); one row unchecked
    [ "$(claim fig12 mean_speedup 6)" = 10 ]
    [ "$(claim fig12 mean_speedup 7)" = "reproduced, unverified" ]
    IFS=$'\t' read -r -a st < "$T/out/data/status/fig12_radix.tsv"
    [ "${st[9]}" = cccccccccccc ] && [ "${st[10]}" = 2026-11-05 ] && [ "${st[11]}" = GPU-aaaa1111 ] && [ "${st[12]}" = 0 ]
    # the caption of the drawn panel names GPU, UUID, commit and date
    grep -q "GPU-aaaa1111.*measured at commit cccccccccccc on 2026-11-05 (unverified rows)" "$T/out/fig12_radix-"*.svg
}

@test "one panel per GPU model: the newest run with the claim's rows is drawn, the others are numbers only" {
    gpu 2 GPU-bbbb2222 "NVIDIA H100 80GB HBM3"
    for k in 1 2; do
        row 1 radix-ggks $((1 << 21)) $k 0 0 0 4 UD "$COMMIT" 1 2026-11-01
        row 1 radix $((1 << 21)) $k 0 0 0 1 UD "$COMMIT" 1 2026-11-01
        row 2 radix-ggks $((1 << 21)) $k 0 0 0 8 UD "$COMMIT" 1 2026-11-03
        row 2 radix $((1 << 21)) $k 0 0 0 1 UD "$COMMIT" 1 2026-11-03
    done
    fig fig12_radix
    [ "$(awk -F'\t' '$14 == 1 { print $12 }' "$T/out/data/status/fig12_radix.tsv")" = GPU-bbbb2222 ]
    [ "$(awk -F'\t' '$14 == 0 { print $12 }' "$T/out/data/status/fig12_radix.tsv")" = GPU-aaaa1111 ]
    ls "$T/out"/fig12_radix-*bbbb2222.png
    ! ls "$T/out"/fig12_radix-*aaaa1111.png 2> /dev/null
}

@test "one panel per GPU model: a run whose every row was checked is drawn before a newer one with unchecked rows" {
    gpu 2 GPU-bbbb2222 "NVIDIA H100 80GB HBM3"
    for k in 1 2; do
        row 1 radix-ggks $((1 << 21)) $k 0 0 0 4 UD "$COMMIT" 1 2026-11-01
        row 1 radix $((1 << 21)) $k 0 0 0 1 UD "$COMMIT" 1 2026-11-01
        row 2 radix-ggks $((1 << 21)) $k 0 0 0 8 UD "$COMMIT" NULL 2026-11-03
        row 2 radix $((1 << 21)) $k 0 0 0 1 UD "$COMMIT" 1 2026-11-03
    done
    fig fig12_radix
    [ "$(awk -F'\t' '$14 == 1 { print $12 }' "$T/out/data/status/fig12_radix.tsv")" = GPU-aaaa1111 ]
    [ "$(awk -F'\t' '$14 == 0 { print $12 " " $13 }' "$T/out/data/status/fig12_radix.tsv")" = "GPU-bbbb2222 0" ]
    # the same run checked throughout: the newer is drawn again
    sqlite3 "$DB" "UPDATE measurements SET verify_ok = 1"
    fig fig12_radix
    [ "$(awk -F'\t' '$14 == 1 { print $12 }' "$T/out/data/status/fig12_radix.tsv")" = GPU-bbbb2222 ]
}

@test "a database of a schema before the figures' columns is refused with the command that updates it, then plots" {
    row 1 dr-radix $N30 1 17 2 11 1.0
    [ "$(sqlite3 "$DB" "SELECT version FROM schema_version")" -lt 11 ]
    run env DRTOPK_CACHE="$T/cache" "$RUN_ALL" --from-db --db "$DB" --out "$T/out" --only fig23
    [ "$status" -eq 2 ]
    [[ "$output" == *"tuner --migrate --db $DB"* ]]
    derive
    # Rule 4's alpha at 2^30, k = 1 with const 3 is round(16.5) = 17, its plan's flags 11 (above alpha 7)
    [ "$(sqlite3 "$DB" "SELECT rule4_alpha, rule4_flags FROM measurements")" = "17|11" ]
    run env DRTOPK_CACHE="$T/cache" "$RUN_ALL" --from-db --db "$DB" --out "$T/out" --only fig23
    [ "$status" -eq 0 ]
    grep -q "^1 " "$T/out/data/"fig23_gpus*.dat
}
