#!/usr/bin/env bats
# plan_regret.bats -- the automatic plan's regret benchmark
# without a GPU: experiments/sql/plan_regret.sql on a hand-made database
# (auto 1.10 ms against a best forced 1.00 is 1.10; an automatic plan faster
# than every forced one is 1.00; failed, unsupported and wrong forced rows are
# ignored; rows of another commit, of a dirty tree or of another timing method
# are never mixed in; the median; the figure's rows of one commit),
# experiments/plan_regret.sh's options and its card-memory skip (a stand-in
# tuner and nvidia-smi), the script on the CPU backend at tiny sizes (with a
# tuner that has --regret), and the exp_plan_regret figure: drawn from the
# rows with its verdict from the data, "not measured" with its reason, and one
# panel per GPU model (the newest card's; the others' never drawn).

ROOT="$BATS_TEST_DIRNAME/../.."
SQL="$ROOT/experiments/sql/plan_regret.sql"
SCRIPT="$ROOT/experiments/plan_regret.sh"

setup() {
    T="$(mktemp -d)"
}

teardown() {
    rm -rf "$T"
}

# fixture DB: an empty results database of the project's schema (every
# migration applied, so of the store's version), one run.
fixture() {
    sqlite3 -bail "$1" < "$ROOT/db/schema.sql"
    sqlite3 -bail "$1" "UPDATE schema_version SET version = $(sed -n \
        's/^#define DRTOPK_STORE_SCHEMA_VERSION \([0-9]*\).*/\1/p' "$ROOT/src/harness/store.h")"
    sqlite3 -bail "$1" "INSERT INTO machines (id, uuid, name, backend) VALUES
                            (1, 'GPU-aaaaaaaa-0000-0000-0000-000000000001', 'NVIDIA Fixture A', 'cuda'),
                            (2, 'GPU-bbbbbbbb-0000-0000-0000-000000000002', 'NVIDIA Fixture B', 'cuda'),
                            (3, 'GPU-cccccccc-0000-0000-0000-000000000003', 'NVIDIA Fixture C', 'cuda');
                        INSERT INTO runs (id, run_uuid, machine_id, program, argv, git_commit, started_at, status)
                            VALUES (1, 'r1', 1, 'tuner', 'tuner --regret builtin', 'aaaaaaaaaaaa',
                                    '2026-01-01T00:00:00.000Z', 'done')"
}

# row DB MACHINE COMMIT ALGO DTYPE DIST N K MS [STATUS [VERIFY_OK [TIMING [AT [FLAGS ALPHA]]]]]: one measurement
row() {
    local ms=$9 st=${10:-ok} vok=${11:-NULL} timing=${12:-gpu} at=${13:-2026-01-01T00:00:00.000Z}
    local flags=${14:-0} alpha=${15:-0} beta=0 fa='' sa=''
    if [ "$flags" != 0 ]; then beta=2 fa=radix sa=radix; fi
    # the standalone plan a row resolved: radix for the automatic plan, onepass for the fastest forced
    # plan timed again beside it (a reference row); a test that needs the two to be one plan sets it
    case $4 in auto-*-ref) [ "$flags" != 0 ] || fa=onepass sa=onepass ;;
               auto-*) [ "$flags" != 0 ] || fa=radix sa=radix ;; esac
    sqlite3 -bail "$1" "INSERT INTO measurements (machine_id, run_id, git_commit, algorithm, first_algo, second_algo,
        dtype, dist, seed, n, k, alpha, beta, flags, sort_order, status, reps, median_ms, verified, verify_ok,
        measured_at, timing)
        VALUES ($2, 1, '$3', '$4', '$fa', '$sa', '$5', '$6', 1, $7, $8, $alpha, $beta, $flags, 'largest', '$st', 7,
                $ms, $vok IS NOT NULL, $vok, '$at', '$timing')"
}

# regret DB PART [MACHINE [DIRTY]]: plan_regret.sql's rows of PART
regret() {
    { echo ".parameter init"
      echo ".parameter set @part '$2'"
      echo ".parameter set @machine ${3:--1}"
      echo ".parameter set @dirty ${4:-0}"
      echo ".parameter set @worst_target 1.05"
      cat "$SQL"; } | sqlite3 -bail -batch -noheader -separator '|' "$1"
}

# the hand-made points on machine 1, commit A (n = 2^20, k = 16, u32):
#   UD: auto 1.10 (dr-radix), forced onepass 1.00, radix 1.30; a failed fused row, an unsupported
#       bitonic row, a sort-cub row at 0.50 whose result was wrong, a 'call' row at 0.40: 1.10
#   ND: auto 0.90, forced onepass 0.95, radix 1.20: 1.00
#   CD: auto 2.00, no usable forced row (only a failed one): no regret
#   commit B (another run): a forced onepass at 0.10 at UD (must not touch commit A) and its own
#   point: auto 1.5 vs forced 1.0; commit C-dirty: auto 5.0 vs forced 1.0
points() {
    local db=$1 A=aaaaaaaaaaaa n=1048576
    row "$db" 1 $A auto-builtin u32 UD $n 16 1.10 ok NULL gpu 2026-01-01T00:00:00.000Z 11 9
    row "$db" 1 $A dr-radix u32 UD $n 16 1.10 ok 1 gpu 2026-01-01T00:00:00.000Z 11 9
    row "$db" 1 $A onepass u32 UD $n 16 1.00
    row "$db" 1 $A radix u32 UD $n 16 1.30
    row "$db" 1 $A fused u32 UD $n 16 NULL error
    row "$db" 1 $A bitonic u32 UD $n 16 NULL unsupported
    row "$db" 1 $A sort-cub u32 UD $n 16 0.50 ok 0
    row "$db" 1 $A radix-ggks u32 UD $n 16 0.40 ok NULL call
    row "$db" 1 $A auto-builtin u32 ND $n 16 0.90
    row "$db" 1 $A onepass u32 ND $n 16 0.95
    row "$db" 1 $A radix u32 ND $n 16 1.20
    row "$db" 1 $A auto-builtin u32 CD $n 16 2.00
    row "$db" 1 $A onepass u32 CD $n 16 NULL error
    row "$db" 1 bbbbbbbbbbbb onepass u32 UD $n 16 0.10 ok NULL gpu 2026-02-01T00:00:00.000Z
    row "$db" 1 bbbbbbbbbbbb auto-builtin u32 UD $n 64 1.50 ok NULL gpu 2026-02-01T00:00:00.000Z
    row "$db" 1 bbbbbbbbbbbb onepass u32 UD $n 64 1.00 ok NULL gpu 2026-02-01T00:00:00.000Z
    row "$db" 1 cccccccccccc-dirty auto-builtin u32 UD $n 16 5.00 ok NULL gpu 2026-03-01T00:00:00.000Z
    row "$db" 1 cccccccccccc-dirty onepass u32 UD $n 16 1.00 ok NULL gpu 2026-03-01T00:00:00.000Z
}

@test "plan_regret.sql: auto over the best forced plan; faster auto is 1.00; bad rows, other commits, dirty trees, other timings left out" {
    db="$T/r.sqlite"
    fixture "$db"
    points "$db"
    run regret "$db" summary
    [ "$status" -eq 0 ]
    # commit A: 2 points (CD has no usable forced row), worst 1.10 at UD against onepass, median 1.05;
    # commit B: its own point only (1.50); the dirty commit is not there
    [ "$(grep -c . <<< "$output")" -eq 2 ]
    grep -qx "NVIDIA Fixture A|GPU-aaaaaaaa-0000-0000-0000-000000000001|bbbbbbbbbbbb|builtin|u32|1|1.500|UD|1048576|64|radix|onepass|1.500|1|-" <<< "$output"
    grep -qx "NVIDIA Fixture A|GPU-aaaaaaaa-0000-0000-0000-000000000001|aaaaaaaaaaaa|builtin|u32|2|1.100|UD|1048576|16|dr-radix a9 b2 f11|onepass|1.050|1|-" <<< "$output"
    # the latest commit first
    [ "$(head -n 1 <<< "$output" | cut -d'|' -f3)" = bbbbbbbbbbbb ]
    # the dirty tree's rows only when asked for (a check of the commands)
    run regret "$db" summary -1 1
    grep -q "|cccccccccccc-dirty|builtin|u32|1|5.000|UD|" <<< "$output"
    # the points: auto faster than every forced plan is 1.00 (ND); UD 1.10; one commit: the latest clean
    # one with rows (B), then A once B's rows are gone
    run regret "$db" points 1
    [ "$output" = "bbbbbbbbbbbb|builtin|u32|1048576|64|1.5000|UD|1" ]
    sqlite3 "$db" "DELETE FROM measurements WHERE git_commit = 'bbbbbbbbbbbb' AND k = 64"
    run regret "$db" points 1
    [ "$output" = "aaaaaaaaaaaa|builtin|u32|1048576|16|1.1000|UD|2" ]
    # the worst distribution per cell: ND at 1.00 alone
    sqlite3 "$db" "DELETE FROM measurements WHERE dist = 'UD'"
    run regret "$db" points 1
    [ "$output" = "aaaaaaaaaaaa|builtin|u32|1048576|16|1.0000|ND|1" ]
    # why a panel is empty: automatic-plan rows, of them clean, and whether a card of the model has clean ones
    run regret "$db" count 1
    [ "$output" = "2|2|1" ]
}

@test "plan_regret.sql: the fastest forced plan timed again beside the automatic plan stands for it, per tuning" {
    db="$T/ref.sqlite"
    fixture "$db"
    A=aaaaaaaaaaaa n=1048576
    # the sweep's onepass row 1.00 was timed minutes earlier; timed beside the automatic plan it took 1.12
    row "$db" 1 $A onepass u32 UD $n 16 1.00
    row "$db" 1 $A radix u32 UD $n 16 1.40
    row "$db" 1 $A auto-builtin u32 UD $n 16 1.10
    row "$db" 1 $A auto-builtin-ref u32 UD $n 16 1.12
    row "$db" 1 $A auto-tuned u32 UD $n 16 1.30
    row "$db" 1 $A auto-tuned-ref u32 UD $n 16 1.00
    # a point without a reference row keeps the sweep's forced row
    row "$db" 1 $A onepass u32 UD $n 64 1.00
    row "$db" 1 $A auto-builtin u32 UD $n 64 1.20
    run regret "$db" summary
    [ "$status" -eq 0 ]
    grep -qx "NVIDIA Fixture A|GPU-aaaaaaaa-0000-0000-0000-000000000001|$A|builtin|u32|2|1.200|UD|$n|64|radix|onepass|1.100|1|-" <<< "$output"
    grep -qx "NVIDIA Fixture A|GPU-aaaaaaaa-0000-0000-0000-000000000001|$A|tuned|u32|1|1.300|UD|$n|16|radix|onepass|1.300|1|-" <<< "$output"
    run regret "$db" points 1
    grep -qx "$A|builtin|u32|$n|16|1.0000|UD|1" <<< "$output"
    # a reference row is no automatic plan and no forced plan of its own
    [ "$(grep -c '|ref' <<< "$output")" -eq 0 ]
}

@test "plan_regret.sql: where the fastest forced plan is the automatic plan itself the regret is 1.00, its two times the noise column" {
    db="$T/same.sqlite"
    fixture "$db"
    A=aaaaaaaaaaaa n=1048576
    # k 16: the automatic plan resolved onepass, the fastest forced plan; timed beside it, onepass took 1.00
    # against the automatic plan's 1.10 (one plan timed twice): regret 1.00, noise 1.10.  k 64 (no
    # reference row): onepass again, 1.05 against the sweep's 1.00.  k 256: radix resolved, onepass
    # faster: a choice the planner got wrong, 1.20
    while read -r algo k ms; do row "$db" 1 $A "$algo" u32 UD $n "$k" "$ms"; done <<'ROWS'
onepass 16 0.98
radix 16 1.40
auto-builtin 16 1.10
auto-builtin-ref 16 1.00
onepass 64 1.00
auto-builtin 64 1.05
onepass 256 1.00
auto-builtin 256 1.20
ROWS
    sqlite3 "$db" "UPDATE measurements SET first_algo = 'onepass', second_algo = 'onepass'
                   WHERE algorithm = 'auto-builtin' AND k IN (16, 64)"
    run regret "$db" summary
    [ "$status" -eq 0 ]
    grep -qx "NVIDIA Fixture A|GPU-aaaaaaaa-0000-0000-0000-000000000001|$A|builtin|u32|3|1.200|UD|$n|256|radix|onepass|1.000|1|1.100" <<< "$output"
    run regret "$db" points 1
    grep -qx "$A|builtin|u32|$n|16|1.0000|UD|1" <<< "$output"
    grep -qx "$A|builtin|u32|$n|64|1.0000|UD|1" <<< "$output"
    grep -qx "$A|builtin|u32|$n|256|1.2000|UD|1" <<< "$output"
    # with only one-plan points, the worst is 1.00 and the noise their largest ratio
    sqlite3 "$db" "DELETE FROM measurements WHERE k = 256"
    run regret "$db" summary
    grep -q "|$A|builtin|u32|2|1.000|UD|$n|.*|1.000|0|1.100$" <<< "$output"
}

@test "plan_regret.sql: the median of odd and even counts, tunings and key types apart, a tuned rerun's latest plan" {
    db="$T/m.sqlite"
    fixture "$db"
    A=aaaaaaaaaaaa
    i=0
    for r in 1.00 1.30 1.10; do
        i=$((i + 1))
        row "$db" 2 $A auto-builtin f16 UD $((1 << 20)) $((1 << (2 * i))) "$r"
        row "$db" 2 $A onepass f16 UD $((1 << 20)) $((1 << (2 * i))) 1.00
    done
    # tuned at two of the points: 1.02 and 1.04 -> median 1.03; f32 apart
    row "$db" 2 $A auto-tuned f16 UD $((1 << 20)) 4 1.02
    row "$db" 2 $A auto-tuned f16 UD $((1 << 20)) 16 1.04
    row "$db" 2 $A auto-builtin f32 UD $((1 << 20)) 4 2.00
    row "$db" 2 $A onepass f32 UD $((1 << 20)) 4 1.00
    run regret "$db" summary
    grep -q "|$A|builtin|f16|3|1.300|UD|1048576|16|radix|onepass|1.100|2|-$" <<< "$output"
    grep -q "|$A|tuned|f16|2|1.040|UD|1048576|16|radix|onepass|1.030|0|-$" <<< "$output"
    grep -q "|$A|builtin|f32|1|2.000|" <<< "$output"
    # a second tuned run at the same commit resolved another plan: its latest row counts
    sqlite3 "$db" "UPDATE measurements SET algorithm = 'auto-tuned', flags = 11, alpha = 7, beta = 2,
                   first_algo = 'radix', second_algo = 'radix', median_ms = 1.50, measured_at = '2026-05-01T00:00:00.000Z'
                   WHERE algorithm = 'onepass' AND dtype = 'f32'"
    row "$db" 2 $A onepass f32 UD $((1 << 20)) 4 1.00
    row "$db" 2 $A auto-tuned f32 UD $((1 << 20)) 4 1.20 ok NULL gpu 2026-04-01T00:00:00.000Z
    run regret "$db" summary
    grep -q "|$A|tuned|f32|1|1.500|UD|1048576|4|dr-radix a7 b2 f11|onepass|1.500|1|-$" <<< "$output"
}

@test "plan_regret.sh: bad options exit 2 with a message naming the option and the fix" {
    run sh "$SCRIPT" --bogus
    [ "$status" -eq 2 ]; grep -q "unknown option '--bogus'" <<< "$output"
    run sh "$SCRIPT" --dtypes u32,x16
    [ "$status" -eq 2 ]; grep -q -- "--dtypes 'u32,x16': 'x16' is not one of" <<< "$output"
    run sh "$SCRIPT" --n-log2 12
    [ "$status" -eq 2 ]; grep -q -- "--n-log2 '12': A..B with whole numbers, e.g. 12..32" <<< "$output"
    run sh "$SCRIPT" --n-log2 20..12
    [ "$status" -eq 2 ]; grep -q "A must not be larger than B" <<< "$output"
    run sh "$SCRIPT" --algos dr-radix,auto-builtin
    [ "$status" -eq 2 ]; grep -q "name only forced ones" <<< "$output"
    run sh "$SCRIPT" --minutes 0
    [ "$status" -eq 2 ]; grep -q -- "--minutes '0': a positive number" <<< "$output"
    run sh "$SCRIPT" --reps
    [ "$status" -eq 2 ]; grep -q -- "--reps needs a value" <<< "$output"
    run sh "$SCRIPT" --bin "$T/nothing"
    [ "$status" -eq 2 ]; grep -q "$T/nothing/tuner is missing" <<< "$output"
    # a tuner without --regret is named, not run
    mkdir -p "$T/old"; printf '#!/bin/sh\necho "usage: tuner --gpu G"\n' > "$T/old/tuner"; chmod +x "$T/old/tuner"
    run sh "$SCRIPT" --bin "$T/old"
    [ "$status" -eq 2 ]; grep -q "has no --regret" <<< "$output"
}

@test "plan_regret.sh: a size that does not fit the card is skipped with a message; k lists stop at the largest n" {
    # a stand-in tuner that records its arguments, and a 1 GiB card
    mkdir -p "$T/bin" "$T/path"
    cat > "$T/bin/tuner" <<EOF
#!/bin/sh
case " \$* " in *" --help "*) echo "  --regret builtin|tuned"; exit 0 ;; esac
echo "\$*" >> "$T/calls"
EOF
    printf '#!/bin/sh\necho "1000, NVIDIA Tiny"\n' > "$T/path/nvidia-smi"
    chmod +x "$T/bin/tuner" "$T/path/nvidia-smi"
    run env PATH="$T/path:$PATH" sh "$SCRIPT" --bin "$T/bin" --db "$T/none.sqlite" --gpu 0 --dtypes u32,u64 \
        --dists UD --n-log2 24..28 --k-max-log2 24
    [ "$status" -eq 0 ]
    # u32 2^28 is 1 GiB, x2 for the workspace: over the card; u64 2^26 and 2^28 likewise
    grep -q "u32 n = 2^28 skipped: its 1 GiB input, with as much again for the plans' workspaces, does not fit GPU 0 (NVIDIA Tiny, 0.977 GiB)" <<< "$output"
    grep -q "u64 n = 2^26 skipped" <<< "$output"
    grep -q "u64 n = 2^28 skipped" <<< "$output"
    grep -q -- "--gpu 0 --regret builtin --dtype u32 --dist UD --n 2^24,2^26 --k 2^0,2^2,2^4,2^6,2^8,2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24 --algo dr-radix,radix,onepass,fused,sort-cub --alpha-span 1 --beta 2 " "$T/calls"
    grep -q -- "--regret builtin --dtype u64 --dist UD --n 2^24 --k 2^0,.*,2^24 " "$T/calls"
    [ "$(wc -l < "$T/calls")" -eq 2 ]
    # progress lines: [i/N] per tuner run
    grep -q "plan_regret.sh: \[1/2\] regret builtin u32: n 2^24..2^26" <<< "$output"
    # --tuned: the card's tuning, then the tuned regret, with what is left of the budget
    : > "$T/calls"
    run env PATH="$T/path:$PATH" sh "$SCRIPT" --bin "$T/bin" --db "$T/none.sqlite" --dtypes f16 --dists UD,ND \
        --n-log2 12..16 --k-max-log2 10 --tuned --minutes 5
    [ "$status" -eq 0 ]
    [ "$(sed -n 2p "$T/calls" | grep -c -- "--quick --dtype f16 --dist UD,ND --max-minutes [45]\.[0-9]*")" -eq 1 ]
    sed -n 3p "$T/calls" | grep -q -- "--regret tuned --dtype f16 --dist UD,ND --n 2^12,2^14,2^16 --k 2^0,2^2,2^4,2^6,2^8,2^10 "
    grep -q "\[3/3\] regret tuned f16" <<< "$output"
    # a failing tuner run makes the exit status non-zero
    printf 'exit 1\n' >> "$T/bin/tuner"
    run env PATH="$T/path:$PATH" sh "$SCRIPT" --bin "$T/bin" --db "$T/none.sqlite" --dtypes f16 --n-log2 12..12
    [ "$status" -eq 1 ]
    grep -q "the tuner exited with status 1" <<< "$output"
}

@test "plan_regret.sh --backend cpu at tiny sizes: auto-builtin rows at every valid point, the table a line per key type" {
    [ -x "$ROOT/bin/tuner" ] || skip "bin/tuner is not built"
    "$ROOT/bin/tuner" --help 2>&1 | grep -q -- --regret || skip "bin/tuner has no --regret yet (branch tuner-regret)"
    db="$T/cpu.sqlite"
    run sh "$SCRIPT" --backend cpu --db "$db" --dtypes u32,f16 --dists UD,ND --n-log2 10..12 --k-max-log2 12 \
        --reps 1 --allow-dirty
    [ "$status" -eq 0 ]
    # every valid (dtype, dist, n, k): n 2^10 with k 1..2^10 (6), n 2^12 with k 1..2^12 (7); none with k > n
    [ "$(sqlite3 "$db" "SELECT count(*) FROM measurements WHERE algorithm = 'auto-builtin' AND status = 'ok'")" -eq $((2 * 2 * 13)) ]
    [ "$(sqlite3 "$db" "SELECT count(*) FROM measurements WHERE k > n")" -eq 0 ]
    # the forced plans beside it
    [ "$(sqlite3 "$db" "SELECT count(DISTINCT algorithm) FROM measurements WHERE algorithm NOT LIKE 'auto-%'")" -ge 4 ]
    grep -q "^plan regret on .*(cpu:" <<< "$output"
    grep -Eq "^\| builtin \| u32 \| 26 \| [0-9.]+ \| (UD|ND) 2\^1[02] " <<< "$output"
    grep -Eq "^\| builtin \| f16 \| 26 \| [0-9.]+ \| " <<< "$output"
    [ "$(grep -c '^| builtin |' <<< "$output")" -eq 2 ]
    # the table is SQL's: the worst u32 regret printed is the stored one
    worst=$(grep '^| builtin | u32 |' <<< "$output" | cut -d'|' -f5 | tr -d ' ')
    want=$(regret "$db" summary -1 1 | awk -F'|' '$4 == "builtin" && $5 == "u32" { print $7 }')
    [ -n "$want" ] && [ "$worst" = "$want" ]
    # resumable: a rerun measures nothing new
    before=$(sqlite3 "$db" "SELECT count(*) FROM measurements")
    sh "$SCRIPT" --backend cpu --db "$db" --dtypes u32,f16 --dists UD,ND --n-log2 10..12 --k-max-log2 12 --reps 1 \
        --allow-dirty > /dev/null 2>&1
    [ "$(sqlite3 "$db" "SELECT count(*) FROM measurements")" -eq "$before" ]
}

@test "exp_plan_regret: the heat maps of one commit per GPU, the verdict from the data; no rows or dirty rows: not measured, with why" {
    db="$T/fig.sqlite"
    fixture "$db"
    # machine A: builtin and tuned, u32 and u64, a 2 x 2 grid of cells; B: rows of a dirty tree only; C: none
    A=aaaaaaaaaaaa
    for t in u32 u64; do
        for n in 16 18; do
            for k in 0 2; do
                for d in UD ND; do
                    b=1.00 r=1.00
                    [ "$t" = u64 ] && [ "$n" = 18 ] && [ "$k" = 2 ] && [ "$d" = ND ] && r=1.25
                    row "$db" 1 $A onepass $t $d $((1 << n)) $((1 << k)) $b
                    row "$db" 1 $A auto-builtin $t $d $((1 << n)) $((1 << k)) $r
                    row "$db" 1 $A auto-tuned $t $d $((1 << n)) $((1 << k)) 1.00
                done
            done
        done
    done
    row "$db" 2 dddddddddddd-dirty auto-builtin u32 UD 65536 1 1.00
    row "$db" 2 dddddddddddd-dirty onepass u32 UD 65536 1 1.00
    row "$db" 3 $A onepass u32 UD 65536 1 1.00
    run "$ROOT/experiments/run_all.sh" --from-db --db "$db" --out "$T/out" --only exp_plan_regret
    [ "$status" -eq 0 ]
    st="$T/out/data/status/exp_plan_regret.tsv"
    [ "$(wc -l < "$st")" -eq 3 ]
    line=$(grep -P '\tNVIDIA Fixture A\t' "$st")
    # 2 tunings x 2 types x 8 points; u64's worst 1.25 is over the target: not held
    [ "$(cut -f4,5,9 <<< "$line")" = "32	ok	not held" ]
    grep -q "commit $A: builtin u32: worst 1.000 .* median 1.000, 8 points; builtin u64: worst 1.250 (ND n 2^18 k 2^2: auto radix, best onepass), median 1.000, 8 points; tuned u32" <<< "$line"
    slug=$(cut -f2 <<< "$line")
    dat="$T/out/data/exp_plan_regret-$slug.dat"
    # four panels of four cells, the worst distribution's regret per cell
    [ "$(grep -c '^"' "$dat")" -eq 4 ]
    awk '/^"builtin u64"/ { on = 1; next } /^"/ { on = 0 } on && $1 == 18 && $2 == 2 { hit = ($3 == 1.25 && $4 == "ND") }
         END { exit !hit }' "$dat"
    for f in png svg; do [ -s "$T/out/exp_plan_regret-$slug.$f" ]; done
    grep -q "measured at commit $A" "$T/out/exp_plan_regret-$slug.svg"
    if grep -q "not measured on this machine" "$T/out/exp_plan_regret-$slug.svg"; then false; fi
    # held when every worst and median is within the targets
    sqlite3 "$db" "UPDATE measurements SET median_ms = 1.04 WHERE median_ms = 1.25"
    run "$ROOT/experiments/run_all.sh" --from-db --db "$db" --out "$T/out" --only exp_plan_regret
    [ "$(grep -P '\tNVIDIA Fixture A\t' "$st" | cut -f9)" = held ]
    # B: a dirty tree's rows are never plotted, and the panel says so; C: no regret rows
    line=$(grep -P '\tNVIDIA Fixture B\t' "$st")
    [ "$(cut -f4,5 <<< "$line")" = "0	not measured" ]
    grep -q "only rows of a tuner built from a tree with uncommitted changes" <<< "$line"
    grep -q "not measured on this machine" "$T/out/exp_plan_regret-$(cut -f2 <<< "$line").svg"
    grep -q "no automatic-plan regret rows on this machine (experiments/plan_regret.sh" \
        <<< "$(grep -P '\tNVIDIA Fixture C\t' "$st")"
    # the page: the section, beside the paper's, with its target
    python3 "$BATS_TEST_DIRNAME/check_index_html.py" "$T/out/extra.html" /dev/null exp_plan_regret
    grep -q "Target (beyond the paper)" "$T/out/extra.html"
}

@test "exp_plan_regret: the newest card of a GPU model stands for it; its other cards' lines go, their panels never drawn" {
    db="$T/cards.sqlite"
    fixture "$db"
    sqlite3 -bail "$db" "INSERT INTO machines (id, uuid, name, backend) VALUES
                             (4, 'GPU-dddddddd-0000-0000-0000-000000000004', 'NVIDIA Fixture A', 'cuda'),
                             (5, 'GPU-eeeeeeee-0000-0000-0000-000000000005', 'NVIDIA Fixture A', 'cuda')"
    A=aaaaaaaaaaaa
    # machine 1 (model A) the newest regret run; 5 (model A) an older one; 4 (model A) forced rows only
    row "$db" 1 $A onepass u32 UD 65536 1 1.00 ok NULL gpu 2026-02-01T00:00:00.000Z
    row "$db" 1 $A auto-builtin u32 UD 65536 1 1.10 ok NULL gpu 2026-02-01T00:00:00.000Z
    row "$db" 5 $A onepass u32 UD 65536 1 1.00 ok NULL gpu 2026-01-01T00:00:00.000Z
    row "$db" 5 $A auto-builtin u32 UD 65536 1 1.30 ok NULL gpu 2026-01-01T00:00:00.000Z
    row "$db" 4 $A onepass u32 UD 65536 1 1.00
    row "$db" 2 $A onepass u32 UD 65536 1 1.00        # model B: forced rows only, no card with regret rows
    # count: all|clean|whether a card of the model has clean automatic-plan rows
    [ "$(regret "$db" count 4)" = "0|0|1" ]
    [ "$(regret "$db" count 2)" = "0|0|0" ]
    [ "$(regret "$db" superseded 5)" = GPU-aaaaaaaa-0000-0000-0000-000000000001 ]
    run "$ROOT/experiments/run_all.sh" --from-db --db "$db" --out "$T/out" --only exp_plan_regret
    [ "$status" -eq 0 ]
    st="$T/out/data/status/exp_plan_regret.tsv"
    # model A once, machine 1's panel; model B (no regret rows on any card) not measured, drawn
    [ "$(grep -cP '\tNVIDIA Fixture A\t' "$st")" -eq 1 ]
    [ "$(grep -P '\tNVIDIA Fixture A\t' "$st" | cut -f12)" = GPU-aaaaaaaa-0000-0000-0000-000000000001 ]
    grep -q "commit $A: builtin u32: worst 1.100" <<< "$(grep -P '\tNVIDIA Fixture A\t' "$st")"
    for u in dddddddd eeeeeeee; do
        if ls "$T/out/" | grep -q "$u"; then false; fi
    done
    slug=$(grep -P '\tNVIDIA Fixture B\t' "$st" | cut -f2)
    grep -q "not measured on this machine" "$T/out/exp_plan_regret-$slug.svg"
}
