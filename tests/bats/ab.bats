#!/usr/bin/env bats
# ab.bats -- tests/gpu/ab.sh, the before/after timing of several drtopk builds
# on one card: the builds take turns round by round, every run is hermetic
# (no tuning database) and passes the options given, the table gives each
# build's range and plan and the later builds over the first, a failing run
# is an ERR cell and the rest goes on, and bad arguments exit 2 naming the
# input; --batch times uniform rows through `drtopk batch`.  Stub programs
# stand in for drtopk (their medians are set per stub), and the real CLI on
# the CPU backend, for run and for batch.

bats_require_minimum_version 1.5.0

ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
AB="$ROOT/tests/gpu/ab.sh"

setup() {
    cd "$ROOT"
    S="$BATS_TEST_TMPDIR"
    LOG="$S/calls"
    : > "$LOG"
}

# stub NAME MS... : a drtopk that logs its build, arguments and DRTOPK_DB, and
# answers its i-th run with the i-th MS (the last one after that; "fail"
# exits 1 with a message); `version` prints its name.
stub() {
    name=$1
    shift
    printf '%s\n' "$@" > "$S/$name.ms"
    cat > "$S/$name" <<EOF
#!/bin/sh
if [ "\$1" = version ]; then echo "drtopk stub $name"; exit 0; fi
echo "$name \$* db=\$DRTOPK_DB exists=\$([ -e "\$DRTOPK_DB" ] && echo yes || echo no)" >> "$LOG"
i=\$(grep -c "^$name " "$LOG")
ms=\$(sed -n "\${i}p" "$S/$name.ms"); [ -n "\$ms" ] || ms=\$(tail -n 1 "$S/$name.ms")
if [ "\$ms" = fail ]; then echo "drtopk: error: stub $name failed" >&2; exit 1; fi
echo "{\"command\": \"run\", \"algo\": \"fused\", \"ms_median\": \$ms, \"reps\": [\$ms]}"
EOF
    chmod +x "$S/$name"
}

@test "builds take turns round by round; the table gives each build's range, plan and ratio to the first" {
    stub base 0.100 0.120 0.200 0.210
    stub new 0.050 0.060 0.400 0.420
    run "$AB" --reps 3 --rounds 2 base="$S/base" new="$S/new" -- "f32 CD 2^26 1" "u32 UD 2^20 1024"
    [ "$status" -eq 0 ]
    [ "${lines[1]}" = "build base: drtopk stub base" ]
    [ "${lines[2]}" = "build new: drtopk stub new" ]
    [ "${lines[3]}" = "drtopk run --reps 3; rounds: 2; microseconds (lowest-highest median, plan)" ]
    [ "${lines[4]}" = "| case | base | new | new / base |" ]
    [ "${lines[6]}" = "| f32 CD 2^26 1 | 100.0-120.0 fused | 50.0-60.0 fused | 0.500 |" ]
    [ "${lines[7]}" = "| u32 UD 2^20 1024 | 200.0-210.0 fused | 400.0-420.0 fused | 2.000 |" ]
    # (bats drops the empty line after the header) the order of the runs: base, new, base, new a case
    [ "$(cut -d' ' -f1 "$LOG" | tr '\n' ' ')" = "base new base new base new base new " ]
    grep -q "^base run --dtype f32 --dist CD --n 2^26 --k 1 --reps 3 --json db=" "$LOG"
}

@test "every run is hermetic (DRTOPK_DB names no file) and takes --algo and --run-args" {
    stub a 0.010
    DRTOPK_DB="$S/ambient.sqlite" run "$AB" --algo onepass --rounds 1 --run-args "--sorted --order smallest" \
        a="$S/a" -- "u64 ND 4096 16"
    [ "$status" -eq 0 ]
    [ "${lines[2]}" = "drtopk run --algo onepass --reps 9 --sorted --order smallest; rounds: 1; microseconds (lowest-highest median, plan)" ]
    line=$(cat "$LOG")
    [[ "$line" == "a run --dtype u64 --dist ND --n 4096 --k 16 --algo onepass --reps 9 --json --sorted --order smallest db="* ]]
    [[ "$line" == *" exists=no" ]]
    [[ "$line" != *ambient* ]]
}

@test "a failing run is an ERR cell with its message on stderr; the other builds and cases go on" {
    stub good 0.020
    stub bad fail
    stub flaky 0.030 fail
    run --separate-stderr "$AB" --rounds 2 good="$S/good" bad="$S/bad" flaky="$S/flaky" -- "f16 UD 4096 1" "f16 UD 8192 1"
    [ "$status" -eq 0 ]
    [ "${lines[5]}" = "| case | good | bad | flaky | bad / good | flaky / good |" ]
    [ "${lines[7]}" = "| f16 UD 4096 1 | 20.0-20.0 fused | ERR | 30.0-30.0 fused (and ERR) | - | 1.500 |" ]
    [ "${lines[8]}" = "| f16 UD 8192 1 | 20.0-20.0 fused | ERR | ERR | - | - |" ]
    [[ "$stderr" == *"ab.sh: build bad, case f16 UD 4096 1: drtopk: error: stub bad failed"* ]]
}

@test "a tree of archive.sh is found under --dir by its name" {
    mkdir -p "$S/dev/src/t1/bin"
    stub t1 0.005
    mv "$S/t1" "$S/dev/src/t1/bin/drtopk"
    run "$AB" --dir "$S/dev" --rounds 1 t1 -- "u32 UD 100 1"
    [ "$status" -eq 0 ]
    [ "${lines[5]}" = "| u32 UD 100 1 | 5.0-5.0 fused |" ]
}

@test "the real CLI: two runs of this build on the CPU backend, same plan" {
    [ -x "$ROOT/bin/drtopk" ] || skip "bin/drtopk is not built"
    run "$AB" --reps 1 --rounds 1 --run-args "--backend cpu" a="$ROOT/bin/drtopk" b="$ROOT/bin/drtopk" -- "u32 UD 1000 10"
    [ "$status" -eq 0 ]
    [[ "${lines[6]}" =~ ^\|\ u32\ UD\ 1000\ 10\ \|\ [0-9.]+-[0-9.]+\ radix\ \|\ [0-9.]+-[0-9.]+\ radix\ \|\ [0-9.]+\ \|$ ]]
}

@test "--batch: uniform rows through drtopk batch, the builds taking turns, its options from --run-args" {
    stub base 0.100 0.110
    stub new 0.080 0.090
    run "$AB" --batch --reps 5 --rounds 2 --run-args "--sorted" base="$S/base" new="$S/new" -- "bf16 UD 256 131072 50"
    [ "$status" -eq 0 ]
    grep -q "^base batch --dtype bf16 --dist UD --rows 256 --cols 131072 --k 50 --reps 5 --json --sorted db=" "$LOG"
    [ "$(cut -d' ' -f1 "$LOG" | tr '\n' ' ')" = "base new base new " ]
    [ "${lines[3]}" = "drtopk batch --reps 5 --sorted; rounds: 2; microseconds (lowest-highest median, plan)" ]
    [ "${lines[6]}" = "| bf16 UD 256 131072 50 | 100.0-110.0 fused | 80.0-90.0 fused | 0.800 |" ]
}

@test "--batch, the real CLI: two runs of this build's drtopk batch on the CPU backend" {
    [ -x "$ROOT/bin/drtopk" ] || skip "bin/drtopk is not built"
    run "$AB" --batch --reps 1 --rounds 1 --run-args "--backend cpu" a="$ROOT/bin/drtopk" b="$ROOT/bin/drtopk" -- "u32 UD 4 1000 10"
    [ "$status" -eq 0 ]
    [[ "${lines[6]}" =~ ^\|\ u32\ UD\ 4\ 1000\ 10\ \|\ [0-9.]+-[0-9.]+\ -\ \|\ [0-9.]+-[0-9.]+\ -\ \|\ [0-9.]+\ \|$ ]]
}

# ncu_stub REPORT... : an Nsight Compute that logs its arguments, runs the
# program after its options (its stdout passed on) and then prints its i-th
# REPORT, metric lines separated by ';' ("-": none).
ncu_stub() {
    printf '%s\n' "$@" > "$S/ncu.reports"
    cat > "$S/ncu" <<EOF
#!/bin/sh
echo "ncu \$*" >> "$S/ncu.log"
while [ \$# -gt 0 ] && [ "\$1" != --metrics ]; do shift; done
shift 2
"\$@" || exit 1
i=\$(wc -l < "$S/ncu.log")
r=\$(sed -n "\${i}p" "$S/ncu.reports")
echo "  small_n_kernel<0, unsigned int> (132, 1, 1)x(1024, 1, 1), Context 1, Stream 7, Device 0, CC 9.0"
[ "\$r" = - ] || echo "\$r" | tr ';' '\n' | sed 's/^/    gpu__time_duration.sum  /'
EOF
    chmod +x "$S/ncu"
}

@test "--kernel: a kernel's own time under ncu, the median of its launches in any unit, never the call's" {
    stub a 0.500
    ncu_stub "usecond 12.00;usecond 10.00;usecond 11.00" "ms 0.013;nsecond 15,000" "-" "us 9.50"
    NCU="$S/ncu" run --separate-stderr "$AB" --kernel small_n --rounds 2 a="$S/a" -- "u32 UD 2^24 1024" "f16 CD 2^26 16"
    [ "$status" -eq 0 ]
    [ "${lines[2]}" = "drtopk run --reps 9; rounds: 2; microseconds of kernels matching 'small_n' under ncu (lowest-highest median, plan)" ]
    [ "${lines[5]}" = "| u32 UD 2^24 1024 | 11.0-14.0 fused |" ]
    [ "${lines[6]}" = "| f16 CD 2^26 16 | 9.5-9.5 fused (and ERR) |" ]
    [[ "$stderr" == *"ab.sh: build a, case f16 CD 2^26 16: no launch of a kernel matching 'small_n' in ncu's report"* ]]
    [ "$(head -n 1 "$S/ncu.log")" = "ncu --clock-control none --kernel-name regex:small_n --metrics gpu__time_duration.sum $S/a run --dtype u32 --dist UD --n 2^24 --k 1024 --reps 9 --json" ]
    [ "$(wc -l < "$S/ncu.log")" -eq 4 ]
    NCU="$S/none" run "$AB" --kernel small_n a="$S/a" -- "u32 UD 10 1"
    [ "$status" -eq 2 ]
    [ "$output" = "ab.sh: --kernel needs Nsight Compute: '$S/none' is not a program here (set NCU to its path)" ]
}

@test "bad arguments exit 2 naming the input and the fix" {
    stub a 0.001
    run "$AB" a="$S/a" "u32 UD 10 1"
    [ "$status" -eq 2 ]
    [ "$output" = "ab.sh: 'u32 UD 10 1' looks like a case: put -- between the builds and the cases" ]
    run "$AB" a="$S/a" --
    [ "$status" -eq 2 ]
    [[ "$output" == *"no CASE after --"* ]]
    run "$AB" -- "u32 UD 10 1"
    [ "$status" -eq 2 ]
    [[ "$output" == *"no BUILD before --"* ]]
    run "$AB" a="$S/a" -- "u32 UD 10"
    [ "$status" -eq 2 ]
    [ "$output" = "ab.sh: case 'u32 UD 10': DTYPE DIST N K, 4 words in one argument" ]
    run "$AB" --batch a="$S/a" -- "u32 UD 10 1"
    [ "$status" -eq 2 ]
    [ "$output" = "ab.sh: case 'u32 UD 10 1': DTYPE DIST ROWS COLS K, 5 words in one argument" ]
    run "$AB" --batch --algo fused a="$S/a" -- "u32 UD 4 10 1"
    [ "$status" -eq 2 ]
    [ "$output" = "ab.sh: --algo forces a plan of drtopk run; with --batch give the batched plan's options in --run-args" ]
    run "$AB" --dir "$S/none" x -- "u32 UD 10 1"
    [ "$status" -eq 2 ]
    [ "$output" = "ab.sh: build x: $S/none/src/x/bin/drtopk is not an executable drtopk (archive.sh build $S/none x -- bin/drtopk)" ]
    run "$AB" a="$S/a" a="$S/a" -- "u32 UD 10 1"
    [ "$status" -eq 2 ]
    [ "$output" = "ab.sh: build a is named twice" ]
    run "$AB" --rounds 0 a="$S/a" -- "u32 UD 10 1"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--reps and --rounds take a positive whole number, not '0'"* ]]
    run "$AB" --kernel "" a="$S/a" -- "u32 UD 10 1"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--kernel needs a kernel name's regex (e.g. small_n_kernel), not ''"* ]]
    run "$AB" --frob a="$S/a" -- "u32 UD 10 1"
    [ "$status" -eq 2 ]
    [ "$output" = "ab.sh: unknown option --frob (see the head of tests/gpu/ab.sh)" ]
    [ ! -s "$LOG" ]
}
