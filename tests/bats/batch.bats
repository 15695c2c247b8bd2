#!/usr/bin/env bats
# batch.bats -- `drtopk batch`: batched rows and segments from an
# offsets file on the CPU backend, verified over every key type, order and
# sortedness; the clamp and padding of short, empty and one-element segments
# and per-segment k checked against an independent Python oracle; the seeded
# vector of rows*cols elements equal to `drtopk gen`'s; one row equal to
# `drtopk run`; JSON; atomic outputs; and every bad-argument path (exit 2).
# DRTOPK may point at another build of the binary.

bats_require_minimum_version 1.5.0

DRTOPK="${DRTOPK:-$BATS_TEST_DIRNAME/../../bin/drtopk}"

setup_file() {
    [ -x "$DRTOPK" ] || { echo "no drtopk binary at $DRTOPK (run ninja first)" >&2; return 1; }
    export DRTOPK_DB="$BATS_FILE_TMPDIR/no-tuning.sqlite"
}

need_python() {
    command -v python3 >/dev/null || skip "python3 not installed"
}

usage_error() {
    local pattern="$1"
    shift
    run -2 --separate-stderr "$DRTOPK" "$@"
    [[ "$stderr" == *"$pattern"* ]] || { echo "stderr: $stderr" >&2; return 1; }
    [ -z "$output" ]
}

# u64file PATH N...: raw little-endian uint64 values
u64file() {
    local path="$1"
    shift
    python3 -c 'import struct,sys; open(sys.argv[1],"wb").write(struct.pack("<%dQ" % (len(sys.argv)-2), *map(int, sys.argv[2:])))' "$path" "$@"
}

@test "batch: help names the shapes, the clamp and the options" {
    run -0 "$DRTOPK" help batch
    [[ "$output" == *"--segments FILE"* && "$output" == *"--ks FILE"* && "$output" == *"index 2^64-1"* ]]
    run -0 "$DRTOPK" batch --help
    [[ "$output" == *"--warp-max-k"* ]]
    run -0 "$DRTOPK" help
    [[ "$output" == *"batch "* ]]
}

@test "batch: rows x cols verify on the CPU for every key type, order and sortedness" {
    for t in u32 i32 f32 f16 bf16 u64 i64 f64; do
        for extra in "" "--smallest" "--sorted" "--smallest --sorted"; do
            run -0 "$DRTOPK" batch --backend cpu --rows 7 --cols 1001 --k 33 --dtype "$t" --dist ND --verify $extra
            [[ "$output" == *"verify:    PASS"* ]] || { echo "$t $extra: $output" >&2; return 1; }
            [[ "$output" == *"7 rows x 1001 cols"* ]]
        done
    done
    run -0 "$DRTOPK" batch --backend cpu --rows 3 --cols 64 --k 64 --dist EQ --verify --sorted
    [[ "$output" == *"PASS"* ]]
    run -0 "$DRTOPK" batch --backend cpu --rows 5 --cols 1 --k 1 --dist SPECIAL --dtype f32 --verify
    [[ "$output" == *"PASS"* ]]
}

@test "batch --deterministic: each row's ties by smallest position, sorted equal values by position" {
    need_python
    local d="$BATS_TEST_TMPDIR"
    # FEW: the k-th value of every row has ties far past k
    "$DRTOPK" gen --n 12000 --dist FEW --seed 5 --out "$d/v.u32"
    for sorted in "" "--sorted"; do
        run -0 "$DRTOPK" batch --backend cpu --input "$d/v.u32" --cols 3000 --k 25 --deterministic $sorted --json \
            --output "$d/det"
        [[ "$output" == *'"deterministic": true'* ]]
        python3 - "$d" "${sorted:+1}" <<'EOF'
import struct, sys
d, sorted_ = sys.argv[1], sys.argv[2] == "1"
x = struct.unpack("<12000I", open(d + "/v.u32", "rb").read())
v = struct.unpack("<100I", open(d + "/det.values", "rb").read())
i = struct.unpack("<100Q", open(d + "/det.indices", "rb").read())
for r in range(4):
    row = x[3000 * r:3000 * r + 3000]
    want = sorted(range(3000), key=lambda q: (-row[q], q))[:25]   # the 25 best (value, position) pairs
    if not sorted_:
        want.sort()
    got = list(i[25 * r:25 * r + 25])
    assert got == want, (r, got, want)
    assert list(v[25 * r:25 * r + 25]) == [row[q] for q in want], r
EOF
    done
}

@test "batch: segments (empty, one element, k > length, per-segment k) match a Python oracle" {
    need_python
    local d="$BATS_TEST_TMPDIR"
    python3 -c 'import struct; open("'"$d"'/v.i32","wb").write(struct.pack("<12i", 5, -1, 5, 9, 9, 0, 3, 3, 3, -7, 2, 8))'
    u64file "$d/seg.u64" 0 0 1 5 12 12
    u64file "$d/ks.u64" 3 1 9 2 0
    for ks in "" "--ks $d/ks.u64"; do
        for sorted in "" "--sorted"; do
            run -0 "$DRTOPK" batch --backend cpu --input "$d/v.i32" --segments "$d/seg.u64" --k 3 --verify \
                --output "$d/out" $ks $sorted
            [[ "$output" == *"verify:    PASS"* ]]
            python3 - "$d" "${ks:+1}" "${sorted:+1}" <<'EOF'
import struct, sys
d, use_ks, sorted_ = sys.argv[1], sys.argv[2] == "1", sys.argv[3] == "1"
v = struct.unpack("<12i", open(d + "/v.i32", "rb").read())
seg = [0, 0, 1, 5, 12, 12]
kss = [3, 1, 9, 2, 0]
K = 3
vals = struct.unpack("<15i", open(d + "/out.values", "rb").read())
idx = struct.unpack("<15Q", open(d + "/out.indices", "rb").read())
for s in range(5):
    row = v[seg[s]:seg[s + 1]]
    ks = min(kss[s] if use_ks else K, K, len(row))
    best = sorted(range(len(row)), key=lambda i: (-row[i], i))[:ks]   # ties: smaller position
    want = best if sorted_ else sorted(best)
    got = list(idx[s * K:s * K + ks])
    assert got == want, (s, got, want)
    assert list(vals[s * K:s * K + ks]) == [row[i] for i in want], s
    assert all(i == 2**64 - 1 for i in idx[s * K + ks:(s + 1) * K]), (s, idx)
    assert all(x == 0 for x in vals[s * K + ks:(s + 1) * K]), (s, vals)
EOF
        done
    done
}

@test "batch: the seeded rows*cols vector is drtopk gen's, and one row equals drtopk run" {
    local d="$BATS_TEST_TMPDIR"
    run -0 "$DRTOPK" gen --n 6000 --dist CD --seed 9 --out "$d/v.f32"
    run -0 "$DRTOPK" batch --backend cpu --rows 3 --cols 2000 --k 50 --dtype f32 --dist CD --seed 9 --sorted \
        --output "$d/gen"
    run -0 "$DRTOPK" batch --backend cpu --input "$d/v.f32" --cols 2000 --k 50 --sorted --output "$d/file"
    [[ "$output" == *"3 rows x 2000 cols"* ]]
    cmp "$d/gen.values" "$d/file.values"
    cmp "$d/gen.indices" "$d/file.indices"
    # standalone on the CPU: one sort of V, ties by smaller position, as the batch
    run -0 "$DRTOPK" run --backend cpu --input "$d/v.f32" --k 50 --sorted --algo radix --output "$d/run"
    run -0 "$DRTOPK" batch --backend cpu --input "$d/v.f32" --cols 6000 --k 50 --sorted --output "$d/one"
    cmp "$d/run.values" "$d/one.values"
    cmp "$d/run.indices" "$d/one.indices"
}

@test "batch: --json is one object with the shape, plan and verdict" {
    need_python
    u64file "$BATS_TEST_TMPDIR/seg.u64" 0 10 10 300
    run -0 "$DRTOPK" batch --backend cpu --segments "$BATS_TEST_TMPDIR/seg.u64" --k 20 --dtype bf16 --json --verify
    python3 - "$output" <<'EOF'
import json, sys
j = json.loads(sys.argv[1])
assert j["command"] == "batch" and j["segments"] == 3 and j["n"] == 300 and j["cols"] is None, j
assert j["k"] == 20 and j["dtype"] == "bf16" and j["verify"] == "PASS" and j["sorted"] is False, j
assert j["plan"]["warp_max_k"] >= 0 and len(j["reps"]) == 1 and j["ms_median"] >= 0, j
assert j["timing"] == "call" and j["unprimed"] == 0, j      # the CPU backend's only method
assert 0 < j["enqueue_ms_median"] <= j["ms_median"], j  # the call itself, within the timed span of the same call
EOF
}

@test "batch: --tiny-max-k and --block-max-len set the plan field of the key width; --timing is checked" {
    need_python
    run -0 "$DRTOPK" batch --backend cpu --rows 4 --cols 64 --k 3 --dtype u64 --tiny-max-k 5 --block-max-len 99 --json
    python3 - "$output" <<'EOF'
import json, sys
p = json.loads(sys.argv[1])["plan"]
assert p["tiny_max_k_64"] == 5 and p["block_max_len_64"] == 99, p
assert p["tiny_max_k"] != 5 and p["block_max_len"] != 99, p     # 32-bit keys' fields untouched
EOF
    run -0 "$DRTOPK" batch --backend cpu --rows 4 --cols 64 --k 3 --dtype f32 --tiny-max-k 5 --json
    python3 -c 'import json,sys; p = json.loads(sys.argv[1])["plan"]; assert p["tiny_max_k"] == 5 and p["tiny_max_k_64"] != 5, p' "$output"
    run -2 "$DRTOPK" batch --backend cpu --rows 4 --cols 64 --k 3 --tiny-max-k 33
    [[ "$output" == *"--tiny-max-k 33 is above 32"* ]]
    run -2 "$DRTOPK" batch --backend cpu --rows 4 --cols 64 --k 3 --timing gpu
    [[ "$output" == *"--timing gpu needs --backend cuda"* ]]
    run -2 "$DRTOPK" batch --backend cpu --rows 4 --cols 64 --k 3 --timing wall
    [[ "$output" == *"--timing wall: gpu"* ]]
}

@test "batch: a failed --output leaves nothing behind" {
    local d="$BATS_TEST_TMPDIR"
    mkdir "$d/out.indices"            # a directory where the indices file must go
    run -1 --separate-stderr "$DRTOPK" batch --backend cpu --rows 2 --cols 10 --k 3 --output "$d/out"
    [[ "$stderr" == *"--output"* ]]
    [ ! -e "$d/out.values" ]
    [ -z "$(ls "$d" | grep tmp)" ]
}

@test "batch: bad arguments exit 2 and name the problem" {
    local d="$BATS_TEST_TMPDIR"
    u64file "$d/seg.u64" 0 4 2
    u64file "$d/ok.u64" 0 4 8
    u64file "$d/ks.u64" 1
    printf 'abcdefgh' > "$d/v.u32"
    usage_error "missing --k" batch --backend cpu --rows 2 --cols 3
    usage_error "--k is 0" batch --backend cpu --rows 2 --cols 3 --k 0
    usage_error "larger than --cols 3" batch --backend cpu --rows 2 --cols 3 --k 4
    usage_error "missing the shape" batch --backend cpu --k 4
    usage_error "missing --rows" batch --backend cpu --cols 4 --k 4
    usage_error "--cols is 0" batch --backend cpu --rows 2 --cols 0 --k 1
    usage_error "does not combine with --rows" batch --backend cpu --segments "$d/ok.u64" --rows 2 --k 1
    usage_error "offsets must not decrease" batch --backend cpu --segments "$d/seg.u64" --k 1
    usage_error "holds 1 entries for 2 segments" batch --backend cpu --segments "$d/ok.u64" --ks "$d/ks.u64" --k 1
    usage_error "*.u64" batch --backend cpu --segments "$d/v.u32" --k 1
    usage_error "not a multiple of --cols 3" batch --backend cpu --input "$d/v.u32" --cols 3 --k 1
    usage_error "--rows 5 conflicts" batch --backend cpu --input "$d/v.u32" --cols 1 --rows 5 --k 1
    usage_error "past --input" batch --backend cpu --input "$d/v.u32" --segments "$d/ok.u64" --k 1
    usage_error "--dist does not apply" batch --backend cpu --input "$d/v.u32" --cols 2 --k 1 --dist ND
    usage_error "above 256" batch --backend cpu --rows 1 --cols 2 --k 1 --warp-max-k 300
    usage_error "unknown option '--alpha'" batch --backend cpu --rows 1 --cols 2 --k 1 --alpha 3
}
