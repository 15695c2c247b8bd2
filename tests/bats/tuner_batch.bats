#!/usr/bin/env bats
# tuner_batch.bats -- `tuner --batch` (docs/tuning.md: the tuner learns the batched
# top-k's crossovers) end to end on the CPU backend, tiny sizes: every
# measurement stored with its machine, run and commit and verified, the plan
# fields decided and stored, a resume that measures nothing again, --force,
# --fit-only, the options it refuses, --merge of the new tables, and
# --emit-table compiling a batch-tuned GPU's plan into C.  Timings are never
# asserted (the CPU backend ignores the plan: its decisions are noise).

bats_require_minimum_version 1.5.0

TUNER="${TUNER:-$BATS_TEST_DIRNAME/../../bin/tuner}"
FIELDS="'tiny_max_k','warp_max_k','warp_max_len','staged_max_len','block_max_len'"

setup() {
    D="$(mktemp -d)"
}

teardown() {
    rm -rf "$D"
}

q() { sqlite3 "$1" "$2"; }

# The measurements of the sweep, from the tuner's first line.
sweep_total() { sed -n 's/.*batch sweep: \([0-9]*\) measurements.*/\1/p' <<< "$1" | head -n1; }

@test "tuner --batch sweeps both candidates of every crossover, stores every row verified, decides the plan" {
    db="$D/b.sqlite"
    run "$TUNER" --backend cpu --batch --reps 1 --db "$db"
    [ "$status" -eq 0 ]
    total=$(sweep_total "$output")
    [ "$total" -gt 0 ]
    [[ "$output" == *"batch sweep done: $total measured, 0 already stored, 0 errors, $total verified, 0 wrong results"* ]]
    [ "$(q "$db" 'SELECT version FROM schema_version')" -eq 12 ]
    [ "$(q "$db" 'SELECT count(*) FROM batch_measurements')" -eq "$total" ]
    [ "$(q "$db" "SELECT count(*) FROM batch_measurements WHERE status = 'ok' AND verified = 1 AND verify_ok = 1
                  AND median_ms > 0 AND reps = 1")" -eq "$total" ]
    # full configuration: this machine, a tuner run of this command line, the commit
    [ "$(q "$db" "SELECT count(*) FROM batch_measurements b JOIN runs r ON r.id = b.run_id
                  JOIN machines m ON m.id = b.machine_id WHERE r.program = 'tuner' AND r.argv LIKE '%--batch%'
                  AND r.status = 'done' AND b.git_commit = r.git_commit AND b.git_commit <> ''
                  AND m.backend = 'cpu'")" -eq "$total" ]
    # both candidates of each crossover at every workload, the default dtypes f32 and u64
    [ "$(q "$db" "SELECT count(*) FROM (SELECT crossover, dtype, segs, rows, len, k FROM batch_measurements
                  GROUP BY 1, 2, 3, 4, 5, 6 HAVING count(DISTINCT candidate) = 2)")" -eq "$(( total / 2 ))" ]
    [ "$(q "$db" "SELECT group_concat(DISTINCT dtype) FROM (SELECT dtype FROM batch_measurements ORDER BY dtype)")" = f32,u64 ]
    [ "$(q "$db" "SELECT count(DISTINCT segs) FROM batch_measurements")" -eq 2 ]
    [ "$(q "$db" "SELECT count(DISTINCT crossover) FROM batch_measurements WHERE crossover IN ($FIELDS)")" -eq 4 ]
    # the decided fields, each from the workloads it compared
    [ "$(q "$db" "SELECT count(*) FROM batch_choices WHERE field IN ($FIELDS) AND points > 0")" -ge 4 ]
    [[ "$output" == *"batch plan of "* ]]
    [ "$(q "$db" "SELECT value >= 1 AND value <= 65536 FROM batch_choices WHERE field = 'staged_max_len'")" -eq 1 ]
    # the filter select's crossover: its two candidates over variable segments, decided from keys of at
    # most 32 bits only (the select takes no wider ones), to a value that keeps it on (0 would turn it off)
    [ "$(q "$db" "SELECT group_concat(DISTINCT candidate) FROM (SELECT candidate FROM batch_measurements
                  WHERE crossover = 'filter_min_len' ORDER BY candidate)")" = filter,radix ]
    [ "$(q "$db" "SELECT count(*) FROM batch_measurements WHERE crossover = 'filter_min_len' AND dtype = 'u64'")" -gt 0 ]
    [ "$(q "$db" "SELECT points > 0 AND value >= 1 FROM batch_choices WHERE field = 'filter_min_len'")" -eq 1 ]
    [ "$(q "$db" "SELECT points FROM batch_choices WHERE field = 'filter_min_len'")" -eq \
      "$(q "$db" "SELECT count(*) / 2 FROM batch_measurements WHERE crossover = 'filter_min_len' AND dtype <> 'u64'")" ]
    # the u64 rows decide the 64-bit keys' fields apart from f32's
    [ "$(q "$db" "SELECT count(*) FROM batch_choices WHERE field IN ('tiny_max_k_64', 'block_max_len_64')
                  AND points > 0")" -eq 2 ]
    # every row says how it was timed: the CPU backend's host clock
    [ "$(q "$db" "SELECT count(*) FROM batch_measurements WHERE timing = 'call'")" -eq "$total" ]
}

@test "tuner --batch resumes without measuring again, --force measures again, --fit-only decides again" {
    db="$D/r.sqlite"
    "$TUNER" --backend cpu --batch --reps 1 --dtype f32 --db "$db" > /dev/null 2>&1
    n=$(q "$db" 'SELECT count(*) FROM batch_measurements')
    [ "$n" -gt 0 ]
    run "$TUNER" --backend cpu --batch --reps 1 --dtype f32 --db "$db"
    [ "$status" -eq 0 ]
    [[ "$output" == *"0 measured, $n already stored"* ]]
    run "$TUNER" --backend cpu --batch --reps 1 --dtype f32 --db "$db" --force
    [ "$status" -eq 0 ]
    [[ "$output" == *"$n measured, 0 already stored"* ]]
    [ "$(q "$db" 'SELECT count(*) FROM batch_measurements')" -eq "$n" ]
    q "$db" "DELETE FROM batch_choices"
    run "$TUNER" --backend cpu --batch --fit-only --db "$db"
    [ "$status" -eq 0 ]
    [ "$(q "$db" 'SELECT count(*) FROM batch_choices')" -ge 4 ]
    [ "$(q "$db" 'SELECT count(*) FROM batch_measurements')" -eq "$n" ]
}

@test "tuner --batch refuses the main sweep's workload options" {
    run "$TUNER" --backend cpu --batch --n 2^12 --db "$D/x.sqlite"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--batch sweeps its own workloads"* ]]
    run "$TUNER" --backend cpu --batch --bmw --db "$D/x.sqlite"
    [ "$status" -eq 2 ]
}

@test "--merge copies batch measurements and choices once; --emit-table compiles a batch-tuned GPU's plan" {
    db="$D/m.sqlite"
    "$TUNER" --backend cpu --batch --reps 1 --dtype f32 --db "$D/src.sqlite" > /dev/null 2>&1
    n=$(q "$D/src.sqlite" 'SELECT count(*) FROM batch_measurements')
    c=$(q "$D/src.sqlite" 'SELECT count(*) FROM batch_choices')
    run "$TUNER" --merge "$D/src.sqlite" --db "$db"
    [ "$status" -eq 0 ]
    [[ "$output" == *"$n batch measurements, $c batch choices added"* ]]
    run "$TUNER" --merge "$D/src.sqlite" --db "$db"
    [[ "$output" == *"0 batch measurements, 0 batch choices added"* ]]
    # the plans are per CUDA GPU model: make this CPU machine one, with known choices
    q "$db" "UPDATE machines SET backend = 'cuda', name = 'Test GPU 2';
             UPDATE batch_choices SET value = 12345 WHERE field = 'staged_max_len';
             UPDATE batch_choices SET value = 7 WHERE field = 'tiny_max_k'"
    run "$TUNER" --emit-table "$D/t.c" --db "$db"
    [ "$status" -eq 0 ]
    [[ "$output" == *"1 batch plans"* ]]
    gcc -std=c11 -Wall -Wextra -Werror -I "$BATS_TEST_DIRNAME/../../src/lib" -c "$D/t.c" -o "$D/t.o"
    grep -q '{ "Test GPU 2", { .warp_max_k = ' "$D/t.c"
    grep -q '\.tiny_max_k = 7,' "$D/t.c"
    grep -q '\.staged_max_len = 12345, \.dr_min_len = 1048576, \.tiny_max_k_64 = 16,' "$D/t.c"   # untuned fields keep the defaults
    # a field this tuner does not know is refused, nothing written
    q "$db" "INSERT INTO batch_choices (machine_id, git_commit, field, value, points, decided_at)
             SELECT machine_id, git_commit, 'future_field', 1, 1, decided_at FROM batch_choices LIMIT 1"
    run "$TUNER" --emit-table "$D/t4.c" --db "$db"
    [ "$status" -eq 2 ]
    [[ "$output" == *"does not know"* ]]
    [ ! -e "$D/t4.c" ]
}
