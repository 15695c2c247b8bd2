#!/usr/bin/env bats
# cli.bats -- behaviour of the `drtopk` command: the CPU
# reference run of the Dr. Top-k pipeline (paper sections 4-5) verified over
# types, distributions, orders and algorithms; raw file input/output; JSON;
# and every bad-argument path (exit 2, a message naming the problem).
# DRTOPK may point at another build of the binary.

bats_require_minimum_version 1.5.0

DRTOPK="${DRTOPK:-$BATS_TEST_DIRNAME/../../bin/drtopk}"

setup_file() {
    [ -x "$DRTOPK" ] || { echo "no drtopk binary at $DRTOPK (run ninja first)" >&2; return 1; }
    # hermetic: no tuning from a results database lying in the tree (tuner.bats tests that path)
    export DRTOPK_DB="$BATS_FILE_TMPDIR/no-tuning.sqlite"
}

need_python() {
    command -v python3 >/dev/null || skip "python3 not installed"
}

# usage_error PATTERN ARGS...: drtopk ARGS exits 2 with PATTERN in its message
usage_error() {
    local pattern="$1"
    shift
    run -2 --separate-stderr "$DRTOPK" "$@"
    [[ "$stderr" == *"$pattern"* ]] || { echo "stderr: $stderr" >&2; return 1; }
    [ -z "$output" ]
}

# ---- help, version ---------------------------------------------------------

@test "help lists the commands and exit codes" {
    run -0 "$DRTOPK" help
    [[ "$output" == *"run "* && "$output" == *"gen "* && "$output" == *"exit codes"* ]]
    run -0 "$DRTOPK" --help
    [[ "$output" == *"usage: drtopk <command>"* ]]
}

@test "help for run and gen, by subcommand and by --help" {
    run -0 "$DRTOPK" help run
    [[ "$output" == *"--no-skip-last-digit"* ]]
    run -0 "$DRTOPK" run --help
    [[ "$output" == *"--output PREFIX"* ]]
    run -0 "$DRTOPK" gen --help
    [[ "$output" == *"--out FILE"* ]]
}

@test "--deterministic: ties at the k-th value by smallest position, sorted equal values by position, said in JSON" {
    # FEW: few distinct values, so the k-th value has ties far past k
    run -0 "$DRTOPK" run --backend cpu --n 5000 --k 40 --dist FEW --deterministic --sorted --json --output "$T/det"
    [[ "$output" == *'"sorted": true, "deterministic": true'* ]]
    run -0 "$DRTOPK" run --backend cpu --n 5000 --k 40 --dist FEW --deterministic --sorted --output "$T/det2"
    cmp "$T/det.indices" "$T/det2.indices"
    # best first, and within equal values increasing positions
    python3 - "$T/det" <<'PYEOF'
import struct, sys
p = sys.argv[1]
v = struct.unpack("<40I", open(p + ".values", "rb").read())
i = struct.unpack("<40Q", open(p + ".indices", "rb").read())
assert all(v[j] > v[j + 1] or (v[j] == v[j + 1] and i[j] < i[j + 1]) for j in range(39)), (v, i)
PYEOF
}

@test "version prints the version and the git commit" {
    run -0 "$DRTOPK" version
    [[ "$output" =~ ^drtopk\ [0-9]+\.[0-9]+\ \(git\ [0-9a-z-]+\) ]]
}

# ---- runs on the CPU reference -----------------------------------------------

@test "README's main job: run --backend cpu --n 1000003 --k 1000 --verify passes" {
    run -0 "$DRTOPK" run --backend cpu --n 1000003 --k 1000 --verify
    [[ "$output" == *"verify:    PASS"* ]]
    [[ "$output" == *"n = 1000003"* && "$output" == *"k = 1000 largest"* ]]
    # the CPU's automatic plan: the threaded radix select
    [[ "$output" == *"plan:      standalone radix"* ]]
}

@test "--show N prints the first N results best first, as --output writes them" {
    need_python
    run -0 --separate-stderr "$DRTOPK" run --backend cpu --n 5000 --k 40 --dtype i32 --dist ND --smallest \
        --show 6 --output "$BATS_TEST_TMPDIR/r"
    python3 - "$output" "$BATS_TEST_TMPDIR/r" <<'EOF'
import struct, sys
out, prefix = sys.argv[1].splitlines(), sys.argv[2]
head = [l for l in out if l.startswith("result:")]
assert head == ["result:    the first 6 of 40, best first (rank: value at position)"], out
rows = [l.split() for l in out[out.index(head[0]) + 1:]]
assert len(rows) == 6 and [r[0] for r in rows] == ["%d:" % i for i in range(1, 7)], rows
vals = list(struct.unpack("<40i", open(prefix + ".values", "rb").read()))
idx = list(struct.unpack("<40Q", open(prefix + ".indices", "rb").read()))
want = sorted(zip(vals, idx))[:6]          # smallest first, ties by position
assert [(int(r[1]), int(r[3])) for r in rows] == want, (rows, want)
EOF
    # at most k lines; text only
    run -0 "$DRTOPK" run --backend cpu --n 100 --k 3 --show 50
    [[ "$output" == *"the first 3 of 3"* ]]
    run -2 --separate-stderr "$DRTOPK" run --backend cpu --n 100 --k 3 --show 5 --json
    [[ "$stderr" == *"--show prints text"* ]]
}

@test "verify passes over dtypes x distributions x orders x algorithms" {
    local fails=0
    for t in u32 i32 f32 f16 bf16 u64 i64 f64; do
        for d in UD ND CD ASC DESC FEW EQ SPECIAL; do
            for o in "" --smallest; do
                for a in dr-radix radix dr-bitonic; do
                    for k in 1 37 3001; do
                        if ! out=$("$DRTOPK" run --backend cpu --n 3001 --k "$k" --dtype "$t" --dist "$d" \
                                   --seed 5 --algo "$a" $o --verify 2>&1); then
                            echo "FAILED: --dtype $t --dist $d $o --algo $a --k $k: $out" >&2
                            fails=$((fails + 1))
                        fi
                    done
                done
            done
        done
    done
    [ "$fails" -eq 0 ]
}

@test "onepass verifies above its sample size over dtypes x distributions, and reports its workload" {
    local fails=0
    for t in u32 f32 bf16 f64; do
        for d in UD ND ASC DESC FEW EQ SPECIAL; do
            for k in 1 1000 65539; do
                if ! out=$("$DRTOPK" run --backend cpu --n 2^16+3 --k "$k" --dtype "$t" --dist "$d" \
                           --seed 7 --algo onepass --smallest --verify 2>&1); then
                    echo "FAILED: --dtype $t --dist $d --k $k: $out" >&2
                    fails=$((fails + 1))
                fi
            done
        done
    done
    [ "$fails" -eq 0 ]
    # all equal: every key ties the threshold, k of them are kept
    run -0 "$DRTOPK" run --backend cpu --n 2^16+3 --k 1000 --dist EQ --algo onepass
    [[ "$output" == *"plan:      standalone onepass"* ]]
    [[ "$output" == *"workload:  sampled 32768, sample rank "*", kept above the threshold or tied with it (ties up to k) 1000, fell back to reading V again: no"* ]]
}

@test "bad: onepass in the pipeline" {
    run -2 --separate-stderr "$DRTOPK" run --backend cpu --n 1000 --k 10 --algo dr-onepass
    [[ "$stderr" == *"onepass runs standalone only"* ]]
}

@test "plan overrides are applied and reported, and still verify" {
    need_python
    run -0 --separate-stderr "$DRTOPK" run --backend cpu --n 2^16+3 --k 100 --alpha 3 --beta 1 --no-filter \
        --no-skip-last-digit --no-shared-delegate --sorted --const 1.5 --verify --json
    python3 - "$output" <<'EOF'
import json, sys
j = json.loads(sys.argv[1])
p = j["plan"]
assert j["n"] == 65539 and j["k"] == 100, j
assert p["alpha"] == 3 and p["alpha_source"] == "user" and p["beta"] == 1, p
assert not p["filter"] and not p["skip_last_digit"] and not p["shared_delegate"] and p["sorted"], p
assert p["rule4_const"] == 1.5 and p["const_source"] == "user", p
assert j["verify"] == "PASS", j
# without filtering every qualified subrange is copied whole
assert j["delegate_len"] == 8193 and j["concat_len"] >= j["k"], j
EOF
}

@test "Rule 4 picks alpha = round((3 + log2 n - log2 k) / 2) by default" {
    need_python
    run -0 --separate-stderr "$DRTOPK" run --backend cpu --n 2^20 --k 2^10 --algo dr-radix --json
    python3 -c 'import json,sys; p=json.loads(sys.argv[1])["plan"]; assert p["alpha"] == 7 and p["alpha_source"] == "rule4" and p["const_source"] == "default", p' "$output"
}

@test "standalone and delegate algorithms are named in the plan" {
    run -0 "$DRTOPK" run --backend cpu --n 5000 --k 10 --algo bucket
    [[ "$output" == *"plan:      standalone bucket"* ]]
    run -0 "$DRTOPK" run --backend cpu --n 5000 --k 10 --algo dr-sort-cub
    [[ "$output" == *"plan:      dr-sort-cub"* && "$output" == *"first top-k sort-cub"* ]]
}

@test "k = 1 and k = n verify, n not a power of two" {
    run -0 "$DRTOPK" run --backend cpu --n 1023 --k 1 --verify
    [[ "$output" == *"PASS"* ]]
    run -0 "$DRTOPK" run --backend cpu --n 1023 --k 1023 --verify --dist FEW
    [[ "$output" == *"PASS"* ]]
}

@test "without a GPU the default backend is cpu, and the run says why" {
    "$DRTOPK" version | grep -q "CUDA GPU usable: no" || skip "a CUDA GPU is usable here"
    run -0 "$DRTOPK" run --n 1000 --k 10
    [[ "$output" == *"backend:   cpu (default: no CUDA GPU available)"* ]]
}

@test "--backend cuda without a GPU fails cleanly with exit 2" {
    "$DRTOPK" version | grep -q "CUDA GPU usable: no" || skip "a CUDA GPU is usable here"
    usage_error "no usable CUDA GPU" run --backend cuda --n 1000 --k 10
    usage_error "no usable CUDA GPU" run --gpu 0 --n 1000 --k 10
}

# ---- JSON ----------------------------------------------------------------------

@test "--json prints one valid JSON object with the expected keys, stdout only" {
    need_python
    run -0 --separate-stderr "$DRTOPK" run --backend cpu --n 2^14 --k 64 --reps 3 --verify --json
    [ -z "$stderr" ]
    echo "$output" | python3 -m json.tool >/dev/null
    python3 - "$output" <<'EOF'
import json, sys
j = json.loads(sys.argv[1])
keys = ["command", "git_commit", "backend", "gpu", "n", "k", "dtype", "order", "dist", "seed", "algo",
        "plan", "workspace_bytes", "warmup", "timing", "unprimed", "reps", "ms_median", "ms_min", "ms_max", "stage_ms_median",
        "delegate_len", "first_selected", "concat_len", "scanned_subranges", "read_gbps", "verify"]
missing = [k for k in keys if k not in j]
assert not missing, missing
assert j["n"] == 16384 and j["k"] == 64 and j["dtype"] == "u32" and j["dist"] == "UD" and j["seed"] == 1
assert j["backend"] == "cpu" and j["gpu"] is None and j["order"] == "largest" and j["algo"] == "radix"
assert len(j["reps"]) == 3 and j["ms_min"] <= j["ms_median"] <= j["ms_max"]
assert j["timing"] == "call" and j["unprimed"] == 0, j      # the default, and the CPU backend's only method
assert set(j["stage_ms_median"]) == {"delegate", "first", "concat", "second"}
# the standalone radix select: no delegate stages
assert j["delegate_len"] == 0 and j["first_selected"] == 0 and j["concat_len"] == 0
assert j["verify"] == "PASS"
# the floors are measured on a GPU only
assert j["read_floor_ms"] is None and j["launch_floor_ms"] is None
EOF
}

# ---- files: gen, --input, --output -----------------------------------------

@test "gen writes size*n bytes for every dtype" {
    for t in u32 i32 f32; do
        run -0 "$DRTOPK" gen --n 2^10+3 --dist ND --seed 9 --out "$BATS_TEST_TMPDIR/v.$t"
        [ "$(stat -c %s "$BATS_TEST_TMPDIR/v.$t")" -eq 4108 ]
    done
    for t in f16 bf16; do
        run -0 "$DRTOPK" gen --n 2^10+3 --dist ND --seed 9 --out "$BATS_TEST_TMPDIR/v.$t"
        [ "$(stat -c %s "$BATS_TEST_TMPDIR/v.$t")" -eq 2054 ]
    done
    for t in u64 i64 f64; do
        run -0 "$DRTOPK" gen --n 2^10+3 --dist ND --seed 9 --out "$BATS_TEST_TMPDIR/v.$t"
        [ "$(stat -c %s "$BATS_TEST_TMPDIR/v.$t")" -eq 8216 ]
    done
}

@test "16- and 64-bit keys: --output holds the true top-k (independent check in Python)" {
    need_python
    local t="$BATS_TEST_TMPDIR"
    for dt in f16 bf16 u64 i64 f64; do
        for d in UD ND SPECIAL FEW; do
            "$DRTOPK" gen --n 20011 --dist "$d" --seed 4 --out "$t/v.$dt"
            run -0 "$DRTOPK" run --backend cpu --input "$t/v.$dt" --k 500 --sorted --output "$t/r_$dt" --verify
            [[ "$output" == *"verify:    PASS"* ]]
            [ "$(stat -c %s "$t/r_$dt.values")" -eq $((500 * $(stat -c %s "$t/v.$dt") / 20011)) ]
            python3 - "$t" "$dt" <<'EOF'
import math, struct, sys
t, dt = sys.argv[1], sys.argv[2]
fmt = {"f16": "e", "bf16": "H", "u64": "Q", "i64": "q", "f64": "d"}[dt]
size = struct.calcsize(fmt)
def load(p, f):
    b = open(p, "rb").read()
    return list(struct.unpack("<%d%s" % (len(b) // struct.calcsize(f), f), b))
def val(x):   # bf16: the upper half of a float32
    return struct.unpack("<f", struct.pack("<I", x << 16))[0] if dt == "bf16" else x
def key(x):   # NaN above +inf, -0.0 == +0.0
    x = val(x)
    return (1, 0.0) if isinstance(x, float) and math.isnan(x) else (0, x + 0.0)
V, vals = load(t + "/v." + dt, fmt), load(t + "/r_" + dt + ".values", fmt)
idx = load(t + "/r_" + dt + ".indices", "Q")
assert len(vals) == 500 and len(idx) == 500 and len(set(idx)) == 500
raw = open(t + "/v." + dt, "rb").read()
rv = open(t + "/r_" + dt + ".values", "rb").read()
assert all(raw[i * size:(i + 1) * size] == rv[j * size:(j + 1) * size] for j, i in enumerate(idx)), "index/value mismatch"
want = sorted((key(x) for x in V), reverse=True)[:500]
assert [key(x) for x in vals] == want, "not the top 500 best first"
EOF
        done
    done
}

@test "gen is deterministic per seed and differs across seeds" {
    "$DRTOPK" gen --n 4096 --seed 3 --out "$BATS_TEST_TMPDIR/a.u32"
    "$DRTOPK" gen --n 4096 --seed 3 --out "$BATS_TEST_TMPDIR/b.u32"
    "$DRTOPK" gen --n 4096 --seed 4 --out "$BATS_TEST_TMPDIR/c.u32"
    cmp "$BATS_TEST_TMPDIR/a.u32" "$BATS_TEST_TMPDIR/b.u32"
    ! cmp -s "$BATS_TEST_TMPDIR/a.u32" "$BATS_TEST_TMPDIR/c.u32"
}

@test "run --input FILE gives the same result as generating the same data" {
    local t="$BATS_TEST_TMPDIR"
    for dt in u32 i32 f32 f16 bf16 u64 i64 f64; do
        "$DRTOPK" gen --n 20011 --dist CD --seed 11 --dtype "$dt" --out "$t/v.$dt"
        run -0 "$DRTOPK" run --backend cpu --n 20011 --k 333 --dist CD --seed 11 --dtype "$dt" --sorted \
            --output "$t/gen_$dt" --verify
        run -0 "$DRTOPK" run --backend cpu --input "$t/v.$dt" --k 333 --sorted --output "$t/file_$dt" --verify
        [[ "$output" == *"input:     $t/v.$dt: n = 20011, $dt"* ]]
        cmp "$t/gen_$dt.values" "$t/file_$dt.values"
        cmp "$t/gen_$dt.indices" "$t/file_$dt.indices"
    done
}

@test "--output files have k elements and indices point at their values" {
    need_python
    local t="$BATS_TEST_TMPDIR"
    "$DRTOPK" gen --n 50000 --dist FEW --seed 2 --out "$t/v.i32"
    run -0 "$DRTOPK" run --backend cpu --input "$t/v.i32" --k 777 --smallest --sorted --output "$t/r"
    [ "$(stat -c %s "$t/r.values")" -eq $((777 * 4)) ]
    [ "$(stat -c %s "$t/r.indices")" -eq $((777 * 8)) ]
    python3 - "$t" <<'EOF'
import struct, sys
t = sys.argv[1]
v = open(t + "/v.i32", "rb").read()
V = struct.unpack("<%di" % (len(v) // 4), v)
r = open(t + "/r.values", "rb").read()
vals = struct.unpack("<%di" % (len(r) // 4), r)
x = open(t + "/r.indices", "rb").read()
idx = struct.unpack("<%dQ" % (len(x) // 8), x)
assert len(vals) == len(idx) == 777
assert len(set(idx)) == 777, "indices repeat"
assert all(V[i] == val for i, val in zip(idx, vals)), "an index does not point at its value"
assert list(vals) == sorted(vals), "--sorted --smallest is not ascending"
assert sorted(vals) == sorted(V)[:777], "not the 777 smallest"
EOF
}

@test "--output of an unsorted largest top-k holds the right multiset (u32, independent check)" {
    need_python
    local t="$BATS_TEST_TMPDIR"
    "$DRTOPK" gen --n 2^15+1 --dist UD --seed 8 --out "$t/v.u32"
    run -0 "$DRTOPK" run --backend cpu --input "$t/v.u32" --k 1000 --output "$t/r"
    python3 - "$t" <<'EOF'
import struct, sys
t = sys.argv[1]
v = open(t + "/v.u32", "rb").read()
V = struct.unpack("<%dI" % (len(v) // 4), v)
vals = struct.unpack("<1000I", open(t + "/r.values", "rb").read())
idx = struct.unpack("<1000Q", open(t + "/r.indices", "rb").read())
assert all(V[i] == val for i, val in zip(idx, vals))
assert sorted(vals, reverse=True) == sorted(V, reverse=True)[:1000]
EOF
}

@test "--output to an unwritable place is a runtime error (exit 1) naming the path and the reason" {
    run -1 --separate-stderr "$DRTOPK" run --backend cpu --n 100 --k 5 --output "$BATS_TEST_TMPDIR/no/such/dir/r"
    [[ "$stderr" == *"cannot write '$BATS_TEST_TMPDIR/no/such/dir/r.values': No such file or directory"* ]]
    run -1 --separate-stderr "$DRTOPK" gen --n 100 --out "$BATS_TEST_TMPDIR/no/such/dir/v.u32"
    [[ "$stderr" == *"cannot write '$BATS_TEST_TMPDIR/no/such/dir/v.u32': No such file or directory"* ]]
}

# a failed PREFIX.indices left a new PREFIX.values behind
@test "--output is atomic: when PREFIX.indices cannot be written, old outputs stay as they were" {
    d="$BATS_TEST_TMPDIR/out"
    mkdir -p "$d/r.indices"
    echo old > "$d/r.values"
    run -1 --separate-stderr "$DRTOPK" run --backend cpu --n 100 --k 5 --output "$d/r"
    [ "$(cat "$d/r.values")" = old ]
    [[ "$stderr" == *"cannot write '$d/r.indices': it exists and is a directory"* ]]
    [ "$(ls "$d")" = "$(printf 'r.indices\nr.values')" ]      # no temporary file left
    # both written: the new pair replaces the old one
    rmdir "$d/r.indices"
    run -0 "$DRTOPK" run --backend cpu --n 100 --k 5 --output "$d/r"
    [ "$(stat -c %s "$d/r.values")" -eq 20 ]
    [ "$(stat -c %s "$d/r.indices")" -eq 40 ]
    [ "$(ls "$d")" = "$(printf 'r.indices\nr.values')" ]
}

@test "--output into a read-only directory says so and writes nothing" {
    d="$BATS_TEST_TMPDIR/ro"
    mkdir -p "$d"
    chmod 555 "$d"
    chmod 755 "$BATS_TEST_TMPDIR"
    if [ "$(id -u)" -eq 0 ]; then
        run -1 --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
            "$DRTOPK" run --backend cpu --n 100 --k 5 --output "$d/r"
    else
        run -1 --separate-stderr "$DRTOPK" run --backend cpu --n 100 --k 5 --output "$d/r"
    fi
    [[ "$stderr" == *"cannot write '$d/r.values': Permission denied"* ]]
    [ -z "$(ls "$d")" ]
}

@test "a FIFO as --input is refused without opening it" {
    mkfifo "$BATS_TEST_TMPDIR/v.u32"
    run -2 --separate-stderr timeout 20 "$DRTOPK" run --backend cpu --input "$BATS_TEST_TMPDIR/v.u32" --k 1
    [[ "$stderr" == *"--input: '$BATS_TEST_TMPDIR/v.u32' is a FIFO, not a regular file"* ]]
}

# ---- bad arguments: exit 2, one clear line -----------------------------------

@test "bad: no command, unknown command" {
    run -2 --separate-stderr "$DRTOPK"
    [[ "$stderr" == *"missing command"* ]]
    usage_error "unknown command 'frob'" frob
}

@test "bad: k = 0" { usage_error "--k is 0" run --n 100 --k 0; }
@test "bad: k > n is an error, never clamped" { usage_error "--k 101 is larger than n = 100" run --n 100 --k 101; }
@test "bad: n = 0" { usage_error "--n is 0" run --n 0 --k 1; }
@test "bad: missing --n" { usage_error "missing --n" run --k 1; }
@test "bad: missing --k" { usage_error "missing --k" run --n 10; }
@test "bad: unknown algo" { usage_error "unknown algorithm 'quick'" run --n 10 --k 1 --algo quick; }
@test "bad: unknown delegate algo" { usage_error "unknown algorithm 'dr-heap'" run --n 10 --k 1 --algo dr-heap; }
@test "bad: unknown dist" { usage_error "unknown distribution 'XD'" run --n 10 --k 1 --dist XD; }
@test "bad: unknown dtype" { usage_error "unknown type 'u16' (u32 i32 f32 f16 bf16 u64 i64 f64)" run --n 10 --k 1 --dtype u16; }
@test "bad: unknown backend" { usage_error "unknown backend 'tpu'" run --n 10 --k 1 --backend tpu; }
@test "bad: unknown option" { usage_error "unknown option '--frobnicate'" run --n 10 --k 1 --frobnicate; }
@test "bad: stray positional argument" { usage_error "unexpected argument 'extra'" run extra --n 10 --k 1; }
@test "bad: missing option value at the end" { usage_error "option --k needs a value" run --n 10 --k; }
@test "bad: missing option value before another option" { usage_error "option --n needs a value" run --n --k 1; }
@test "bad: empty option value" { usage_error "option --n needs a value" run --n= --k 1; }
@test "bad: value given to a flag" { usage_error "option --verify takes no value" run --n 10 --k 1 --verify=yes; }
@test "bad: junk numbers" {
    usage_error "'12x' is not a number" run --n 12x --k 1
    usage_error "'-5' is not a number" run --n 10 --k -5
    usage_error "'3^4' is not a number" run --n 3^4 --k 1
    usage_error "--n: 2^64 is out of range (at most 2^64 - 1" run --n 2^64 --k 1
    usage_error "--k: 18446744073709551616 is out of range" run --n 10 --k 18446744073709551616
    usage_error "'1e6' is not a number" run --n 1e6 --k 1
    usage_error "'x' is not a number" run --n 10 --k 1 --seed x
}
@test "bad: alpha out of range" {
    usage_error "--alpha 0 is out of range 1..24" run --n 10 --k 1 --alpha 0
    usage_error "--alpha 25 is out of range 1..24" run --n 10 --k 1 --alpha 25
}
@test "bad: beta out of range" {
    usage_error "--beta 0 is out of range 1..8" run --n 10 --k 1 --beta 0
    usage_error "--beta 9 is out of range 1..8" run --n 10 --k 1 --beta 9
}
@test "bad: const not a finite number" {
    usage_error "--const: 'abc' is not a finite number" run --n 10 --k 1 --const abc
    usage_error "--const: 'inf' is not a finite number" run --n 10 --k 1 --const inf
}
@test "bad: --timing gpu on the CPU backend, --timing of neither method" {
    usage_error "--timing gpu needs --backend cuda" run --backend cpu --n 10 --k 1 --timing gpu
    usage_error "--timing wall: gpu (the call's GPU time) or call" run --backend cpu --n 10 --k 1 --timing wall
}
@test "bad: reps 0 and warmup junk" {
    usage_error "--reps 0 is out of range" run --n 10 --k 1 --reps 0
    usage_error "--warmup: 'some' is not a non-negative integer" run --n 10 --k 1 --warmup some
}
@test "bad: delegate-only options with a standalone algorithm" {
    usage_error "--alpha applies only to the delegate pipeline" run --n 10 --k 1 --algo radix --alpha 3
    usage_error "--no-filter applies only to the delegate pipeline" run --n 10 --k 1 --algo bitonic --no-filter
}
@test "bad: missing input file" { usage_error "cannot open '$BATS_TEST_TMPDIR/none.u32'" run --input "$BATS_TEST_TMPDIR/none.u32" --k 1; }
@test "bad: input file size not a multiple of 4" {
    head -c 4001 /dev/zero > "$BATS_TEST_TMPDIR/odd.u32"
    usage_error "not a multiple of the element size 4" run --input "$BATS_TEST_TMPDIR/odd.u32" --k 1
}
@test "bad: empty input file" {
    : > "$BATS_TEST_TMPDIR/empty.f32"
    usage_error "is empty" run --input "$BATS_TEST_TMPDIR/empty.f32" --k 1
}
@test "bad: input file without a dtype extension" {
    head -c 400 /dev/zero > "$BATS_TEST_TMPDIR/v.bin"
    usage_error "cannot tell the element type" run --input "$BATS_TEST_TMPDIR/v.bin" --k 1
}
@test "bad: --input conflicting with --n, --dtype, --dist; k > file's n" {
    head -c 400 /dev/zero > "$BATS_TEST_TMPDIR/v.u32"
    usage_error "--n 99 conflicts with --input" run --input "$BATS_TEST_TMPDIR/v.u32" --n 99 --k 1
    usage_error "--dtype f32 conflicts with --input" run --input "$BATS_TEST_TMPDIR/v.u32" --dtype f32 --k 1
    head -c 401 /dev/zero > "$BATS_TEST_TMPDIR/odd.f64"
    usage_error "not a multiple of the element size 8" run --input "$BATS_TEST_TMPDIR/odd.f64" --k 1
    usage_error "--dist does not apply to --input" run --input "$BATS_TEST_TMPDIR/v.u32" --dist ND --k 1
    usage_error "--k 101 is larger than n = 100" run --input "$BATS_TEST_TMPDIR/v.u32" --k 101
}
@test "bad: gen arguments" {
    usage_error "missing --out" gen --n 10
    usage_error "missing --n" gen --out "$BATS_TEST_TMPDIR/x.u32"
    usage_error "--n is 0" gen --n 0 --out "$BATS_TEST_TMPDIR/x.u32"
    usage_error "must end in .u32 .i32 .f32 .f16 .bf16 .u64 .i64 or .f64" gen --n 10 --out "$BATS_TEST_TMPDIR/x.dat"
    usage_error "--dtype f16 conflicts with --out" gen --n 10 --dtype f16 --out "$BATS_TEST_TMPDIR/x.bf16"
    usage_error "--dtype i32 conflicts with --out" gen --n 10 --dtype i32 --out "$BATS_TEST_TMPDIR/x.u32"
    usage_error "unknown distribution 'ZZ'" gen --n 10 --dist ZZ --out "$BATS_TEST_TMPDIR/x.u32"
    [ ! -e "$BATS_TEST_TMPDIR/x.u32" ]
}
@test "bad: help for an unknown command" { usage_error "no help for unknown command 'frob'" help frob; }
