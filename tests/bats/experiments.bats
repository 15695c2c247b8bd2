#!/usr/bin/env bats
# experiments.bats -- experiments/run_all.sh (issue 11) without a GPU: --from-db
# on the shipped reference dump (db/reference/*.sql) in a temp folder makes a
# valid PNG and SVG per experiment and GPU, a summary that lists every
# experiment, "not measured on this machine" panels with their reason where the
# rows do not exist, index.html with every image and the paper's claims; a
# rerun gives the same data; bad options exit 2 with a message; a figure whose
# table is missing fails alone; the same sweeps run on the CPU backend build a
# fixture database that plots too.

ROOT="$BATS_TEST_DIRNAME/../.."
RUN_ALL="$ROOT/experiments/run_all.sh"

setup_file() {
    export T="$(mktemp -d)"
    # no local database: run_all.sh must load the reference dumps itself
    DRTOPK_DB="$T/none.sqlite" "$RUN_ALL" --from-db --out "$T/out" > "$T/run1.txt" 2>&1
    echo $? > "$T/run1.rc"
}

teardown_file() {
    rm -rf "$T"
}

# experiments: the names run_all.sh --list gives, one per line.
experiments() { "$RUN_ALL" --list | awk '{print $1}'; }

@test "--from-db on the reference dump exits 0 and says where the data came from" {
    [ "$(cat "$T/run1.rc")" -eq 0 ]
    grep -q "plotting the reference results shipped in db/reference/" "$T/run1.txt"
    [ -f "$T/out/data/reference.sqlite" ]
    # the database went into the output folder, not into the tracked files
    [ -z "$(git -C "$ROOT" status --porcelain -- db)" ]
}

@test "--list names every figure and table script, at least 20" {
    [ "$(experiments | wc -l)" -ge 20 ]
    for e in $(experiments); do [ -x "$ROOT/experiments/$e.sh" ]; done
}

@test "every experiment has a non-empty, valid PNG and SVG per status line" {
    n=0
    for e in $(experiments); do
        [ -s "$T/out/data/status/$e.tsv" ]
        while IFS=$'\t' read -r id slug rest; do
            png="$T/out/$id-$slug.png"
            svg="$T/out/$id-$slug.svg"
            [ -s "$png" ] && [ -s "$svg" ]
            [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]
            grep -q '<svg' "$svg" && tail -c 20 "$svg" | grep -q '</svg>'
            n=$((n + 1))
        done < "$T/out/data/status/$e.tsv"
    done
    [ "$n" -ge 20 ]
}

@test "the summary lists every experiment with rows used, GPU and status" {
    for e in $(experiments); do
        grep -Eq "^$e +(NVIDIA .+|-) +[0-9]+ +(ok|not measured|failed)" "$T/run1.txt"
    done
    grep -q "^figure  *GPU  *rows used  *status  *verdict" "$T/run1.txt"
    grep -q "experiments, 0 failed" "$T/run1.txt"
}

@test "data that cannot exist yet gives a marked not-measured panel with its reason, never data" {
    # Figure 12 needs |V| = 2^21 rows, Table 2 multi-GPU rows: no reference dump has them (a line per GPU)
    for e in fig12_radix tab2_multigpu tab1_datasets; do
        [ "$(wc -l < "$T/out/data/status/$e.tsv")" -ge 1 ]
        while IFS= read -r line; do
            [ "$(cut -f5 <<< "$line")" = "not measured" ]
            [ "$(cut -f4 <<< "$line")" -eq 0 ]
            svg="$T/out/$e-$(cut -f2 <<< "$line").svg"
            grep -q "not measured on this machine" "$svg"
            # the reason as gnuplot writes it in SVG (apostrophes typeset, XML escaped)
            grep -qF "$(cut -f8 <<< "$line" | sed "s/'/’/g; s/&/\\&amp;/g; s/</\\&lt;/g; s/>/\\&gt;/g")" "$svg"
        done < "$T/out/data/status/$e.tsv"
    done
    # a measured figure is not marked
    while IFS= read -r line; do
        [ "$(cut -f5 <<< "$line")" = ok ]
        [ "$(cut -f4 <<< "$line")" -gt 0 ]
        ! grep -q "not measured on this machine" "$T/out/fig17_size-$(cut -f2 <<< "$line").svg"
    done < "$T/out/data/status/fig17_size.tsv"
}

@test "verdicts come from the data: Figure 17 compares the stored medians" {
    # recompute: at |V| = 2^30, k = 1024 (UD) dr-radix vs radix in the reference database
    db="$T/out/data/reference.sqlite"
    # (the H200 run of 0593d0f2, which measured the standalone algorithms)
    ms() { sqlite3 "$db" "SELECT median_ms FROM measurements x JOIN machines m ON m.id = x.machine_id
                          WHERE m.uuid LIKE 'GPU-0593d0f2%' AND algorithm = '$1' AND dist = 'UD' AND n = 1073741824
                          AND k = 1024 AND (beta = 0 OR (beta = 2 AND alpha = 11))"; }
    r=$(ms radix); d=$(ms dr-radix)
    [ -n "$r" ] && [ -n "$d" ]
    want=$(awk -v r="$r" -v d="$d" 'BEGIN { print (d < r) ? "held" : "not held" }')
    line=$(grep -P "^fig17_size\tnvidia-h200-0593d0f2\t" "$T/out/data/status/fig17_size.tsv")
    [ "$(cut -f9 <<< "$line")" = "$want" ]
    grep -q "radix $(printf '%.2f' "$r") ms" <<< "$line"
}

@test "index.html shows every image, the paper's claim and the verdict" {
    html="$T/out/index.html"
    [ -s "$html" ]
    grep -q '</html>' "$html"
    for img in $(grep -o 'src="[^"]*"' "$html" | sed 's/src="//; s/"$//'); do
        [ -s "$T/out/$img" ]
    done
    [ "$(grep -o 'src="[^"]*png"' "$html" | wc -l)" -eq "$(cat "$T"/out/data/status/*.tsv | wc -l)" ]
    grep -q "radix 41.3, bucket 38.4, bitonic 127.0, sort 243.2 ms" "$html"
    grep -q "Fig. 17, sec. 6.1" "$html"
    ! grep -qi "http" "$html"
}

@test "a rerun is idempotent: same data, same status, no reload of the dump" {
    DRTOPK_DB="$T/none.sqlite" run "$RUN_ALL" --from-db --out "$T/out"
    [ "$status" -eq 0 ]
    ! grep -q "loading the reference" <<< "$output"
    diff <(sed -n '/^summary/,$p' "$T/run1.txt" | tail -n +2) <(sed -n '/^summary/,$p' <<< "$output" | tail -n +2)
    for f in "$T"/out/data/status/*.tsv; do
        [ -s "$f" ]
    done
    # the data files of a second output folder are byte for byte the same
    DRTOPK_DB="$T/none.sqlite" "$RUN_ALL" --from-db --out "$T/out2" --only fig04,fig17,fig13 > /dev/null
    for f in "$T"/out2/data/*.dat "$T"/out2/data/status/*.tsv; do
        cmp "$f" "$T/out/data/${f#$T/out2/data/}"
    done
}

@test "--only runs the named experiments only" {
    run "$RUN_ALL" --from-db --db "$T/out/data/reference.sqlite" --out "$T/only" --only fig13,tab3
    [ "$status" -eq 0 ]
    [ "$(grep -c '^\[' <<< "$output")" -eq 2 ]
    [ "$(ls "$T/only/data/status")" = "$(printf 'fig13_alpha.tsv\ntab3_transactions.tsv')" ]
}

@test "bad options exit 2 with a message naming the problem" {
    run "$RUN_ALL" --bogus
    [ "$status" -eq 2 ]; grep -q "unknown argument '--bogus'" <<< "$output"
    run "$RUN_ALL" --gpu x
    [ "$status" -eq 2 ]; grep -q -- "--gpu 'x'" <<< "$output"
    run "$RUN_ALL" --only fig99
    [ "$status" -eq 2 ]; grep -q "no experiment 'fig99'" <<< "$output"
    run "$RUN_ALL" --quick
    [ "$status" -eq 2 ]; grep -q -- "--quick.*--gpu" <<< "$output"
    run "$RUN_ALL" --from-db --gpu 0
    [ "$status" -eq 2 ]; grep -q -- "--from-db measures nothing" <<< "$output"
    run "$RUN_ALL" --db "$T/missing.sqlite"
    [ "$status" -eq 2 ]; grep -q "database $T/missing.sqlite does not exist" <<< "$output"
    run "$RUN_ALL" --db
    [ "$status" -eq 2 ]; grep -q -- "--db needs a value" <<< "$output"
}

@test "a missing table fails its figures alone: clear message, non-zero status, the others build" {
    cp "$T/out/data/reference.sqlite" "$T/nofits.sqlite"
    sqlite3 "$T/nofits.sqlite" "DROP TABLE fits"
    run "$RUN_ALL" --db "$T/nofits.sqlite" --out "$T/nofits" --only fig13,fig14,fig17
    [ "$status" -eq 1 ]
    grep -Eq "^fig13_alpha +NVIDIA H200 +0 +failed" <<< "$output"
    grep -Eq "^fig14_oracle +NVIDIA H200 +0 +failed" <<< "$output"
    grep -Eq "^fig17_size +NVIDIA H200 +[1-9][0-9]* +ok" <<< "$output"
    grep -q "query fig13_alpha.sql failed" "$T/nofits/data/fig13_alpha.log"
    grep -q "no such table: fits" "$T/nofits/data/fig13_alpha.log"
    [ -s "$T/nofits/fig13_alpha-nvidia-h200-0593d0f2.png" ]
}

@test "the GPU sweeps run on the CPU backend at scaled sizes and their fixture database plots" {
    [ -x "$ROOT/bin/tuner" ] || skip "bin/tuner is not built"
    run "$RUN_ALL" --gpu 0 --backend cpu --quick --db "$T/cpu.sqlite" --out "$T/cpu" --only fig04,fig06,fig09,fig22
    [ "$status" -eq 0 ]
    grep -q "the CPU backend (sizes scaled down)" <<< "$output"
    # the tuner stored rows of each plan the figures ask for, Rule 1's flags included
    [ "$(sqlite3 "$T/cpu.sqlite" "SELECT count(*) FROM measurements WHERE algorithm = 'dr-radix' AND flags = 1 AND beta = 1")" -gt 0 ]
    [ "$(sqlite3 "$T/cpu.sqlite" "SELECT count(*) FROM measurements WHERE algorithm = 'dr-radix' AND beta = 2 AND (flags & 2) = 0")" -gt 0 ]
    for e in fig04_inconsistency fig06_rule1 fig09_beta fig22_filter_beta; do
        [ "$(cut -f5 "$T/cpu/data/status/$e.tsv")" = ok ]
    done
    # resumable: a second run measures nothing new
    before=$(sqlite3 "$T/cpu.sqlite" "SELECT count(*) FROM measurements")
    run "$RUN_ALL" --gpu 0 --backend cpu --quick --db "$T/cpu.sqlite" --out "$T/cpu" --only fig04,fig06,fig09,fig22
    [ "$status" -eq 0 ]
    [ "$(sqlite3 "$T/cpu.sqlite" "SELECT count(*) FROM measurements")" -eq "$before" ]
    # and --from-db on the fixture draws the same figures
    run "$RUN_ALL" --from-db --db "$T/cpu.sqlite" --out "$T/cpu2"
    [ "$status" -eq 0 ]
}

@test "the tuner's plan-flag options store other plans, which stay out of Rule 4's fit" {
    [ -x "$ROOT/bin/tuner" ] || skip "bin/tuner is not built"
    sweep=(--backend cpu --n 2^12 --k 16,256 --dist UD --algo dr-radix --alpha-span 2 --beta 2 --reps 1)
    "$ROOT/bin/tuner" "${sweep[@]}" --db "$T/fit.sqlite" > /dev/null 2>&1
    "$ROOT/bin/tuner" "${sweep[@]}" --no-filter --no-skip-last-digit --db "$T/fit.sqlite" > /dev/null 2>&1
    # the other plans are stored beside the default ones, with their flags
    [ "$(sqlite3 "$T/fit.sqlite" "SELECT count(DISTINCT flags & 10) FROM measurements")" -eq 2 ]
    fit="SELECT const_time, const_lsq, mean_slowdown, worst_slowdown, points FROM fits ORDER BY beta"
    before=$(sqlite3 "$T/fit.sqlite" "$fit")
    [ -n "$before" ]
    # a Rule 1 plan (flags DELEGATE only) made the fastest at the largest alpha must not move the fit
    sqlite3 "$T/fit.sqlite" "UPDATE measurements SET median_ms = 1e-6
                             WHERE flags & 2 = 0 AND alpha = (SELECT max(alpha) FROM measurements)"
    "$ROOT/bin/tuner" --backend cpu --fit-only --db "$T/fit.sqlite" > /dev/null 2>&1
    [ "$(sqlite3 "$T/fit.sqlite" "$fit")" = "$before" ]
    run "$ROOT/bin/tuner" --help
    grep -q -- "--no-filter, --no-skip-last-digit, --no-shared-delegate" <<< "$output"
}
