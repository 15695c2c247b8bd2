#!/usr/bin/env bats
# bad_input.bats -- inputs that claim more than they hold or are not what they
# say: each is refused with exit 2 naming the file and the byte or line (or,
# for memory the machine lacks, exit 1 before allocating), and nothing is
# written.  Degree vectors sized by one id or a size line, an IDX count, NUL
# bytes in text, gzip damage at its exact offset, a FIFO as tuner input, a
# failed --stats beside OUT, empty batches, and damaged databases given to
# run_all.sh.

bats_require_minimum_version 1.5.0

ROOT="$BATS_TEST_DIRNAME/../.."
DRTOPK="${DRTOPK:-$ROOT/bin/drtopk}"
TUNER="${TUNER:-$ROOT/bin/tuner}"

setup() {
    [ -x "$DRTOPK" ] || skip "no drtopk binary (run ninja first)"
    command -v python3 > /dev/null || skip "python3 not installed"
    D="$BATS_TEST_TMPDIR"
    export DRTOPK_DB="$D/no-tuning.sqlite"
}

# refused PATTERN... -- ARGS: drtopk ARGS exits 2 with every PATTERN on
# stderr; OUT (keep.u32 / keep.f32) keeps its old bytes and no temporary is left
refused() {
    local pats=()
    while [ "$1" != "--" ]; do pats+=("$1"); shift; done
    shift
    printf old > "$D/keep.u32"
    printf old > "$D/keep.f32"
    run -2 --separate-stderr "$DRTOPK" "$@"
    for p in "${pats[@]}"; do
        [[ "$stderr" == *"$p"* ]] || { echo "stderr lacks '$p': $stderr"; return 1; }
    done
    [ "$(cat "$D/keep.u32")" = old ] && [ "$(cat "$D/keep.f32")" = old ]
    [ -z "$(find "$D" -name '*.tmp*')" ]
}

@test "degrees: one far vertex id is inconsistent with the edges (exit 2 at its byte), not a 2 GB vector" {
    printf '0 1\n1 2\n0 500000000\n' > "$D/e.txt"
    refused "e.txt: byte 8 (line 3): inconsistent" "500000001 vertices" "3 edges" -- \
        dataset degrees --graph "$D/e.txt" --out "$D/keep.u32"
    printf '0 4000000000\n' > "$D/f.txt"
    refused "f.txt: byte 0 (line 1): inconsistent" -- dataset degrees --graph "$D/f.txt" --out "$D/keep.u32"
}

@test "degrees: a .mtx size line or a .gt header claiming 2^32 - 1 vertices is refused at its byte" {
    printf '%%%%MatrixMarket matrix coordinate pattern general\n%% c\n4294967295 4294967295 1\n1 2\n' > "$D/m.mtx"
    refused "m.mtx: byte 53 (line 3): inconsistent" "4294967295 vertices" -- \
        dataset degrees --graph "$D/m.mtx" --out "$D/keep.u32"
    python3 -c "
import struct,sys
h = bytes([0xe2,0x9b,0xbe,0x20,0x67,0x74,1,0]) + struct.pack('<Q',0) + bytes([1]) + struct.pack('<Q',4294967295)
open(sys.argv[1],'wb').write(h + struct.pack('<Q',1) + struct.pack('<I',1))" "$D/g.gt"
    refused "g.gt: byte 37: truncated" "vertex 1 of 4294967295" -- dataset degrees --graph "$D/g.gt" --out "$D/keep.u32"
}

@test "degrees: sparse ids within the bound still give the whole vector (isolated vertices are zeros)" {
    printf '0 1\n5 3000\n' > "$D/s.txt"
    run -0 "$DRTOPK" dataset degrees --graph "$D/s.txt" --out "$D/s.u32" --quiet
    [ "$(stat -c %s "$D/s.u32")" -eq $((3001 * 4)) ]
    run -0 python3 -c "import struct; v=struct.unpack('<3001I', open('$D/s.u32','rb').read()); print(v[0],v[1],v[5],v[3000],sum(v))"
    [ "$output" = "1 1 1 1 4" ]
}

@test "knn: an IDX header claiming 2^32 - 1 images in 116 bytes is truncated (exit 2), not out of memory" {
    python3 -c "
import struct,sys
open(sys.argv[1],'wb').write(bytes([0,0,8,3]) + struct.pack('>III',0xffffffff,28,28) + bytes(100))" "$D/x-idx3-ubyte"
    refused "x-idx3-ubyte: byte 116: truncated" "4294967295 vectors" -- \
        dataset knn --vectors "$D/x-idx3-ubyte" --queries 1 --out "$D/keep.f32" --backend cpu
}

@test "NUL bytes in text are refused at their byte: an edge list, a .mtx, a CSV value" {
    printf '0 1\n\0garbage\n' > "$D/n.txt"
    refused "n.txt: byte 4" "NUL byte" -- dataset degrees --graph "$D/n.txt" --out "$D/keep.u32"
    printf '%%%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 \0002\n' > "$D/n.mtx"
    refused "n.mtx: byte 57" "NUL byte" -- dataset degrees --graph "$D/n.mtx" --out "$D/keep.u32"
    printf 'a,b\n1,2\0junk\n' > "$D/n.csv"
    refused "n.csv: line 2: byte 7" "NUL byte" -- dataset scores --csv "$D/n.csv" --column b --out "$D/keep.f32"
}

@test "gzip: a bad CRC, a bad length and a truncation name their exact compressed byte and the data before" {
    python3 - "$D" <<'PY'
import gzip, sys
d = sys.argv[1]
data = b''.join(b'%d %d\n' % (i, i + 1) for i in range(20000))
g = gzip.compress(data, mtime=0)
open(d + '/len', 'w').write('%d %d\n' % (len(g), len(data)))
b = bytearray(g); b[-8] ^= 0xff; open(d + '/crc.txt.gz', 'wb').write(b)
b = bytearray(g); b[-1] ^= 0xff; open(d + '/size.txt.gz', 'wb').write(b)
open(d + '/cut.txt.gz', 'wb').write(g[:len(g) // 2])
open(d + '/junk.txt.gz', 'wb').write(g + b'junk')
PY
    read -r glen dlen < "$D/len"
    refused "crc.txt.gz: compressed byte $((glen - 8)): the gzip stream is damaged (incorrect data check) after $dlen bytes" -- \
        dataset degrees --graph "$D/crc.txt.gz" --out "$D/keep.u32"
    refused "size.txt.gz: compressed byte $((glen - 4)): the gzip stream is damaged (incorrect length check)" -- \
        dataset degrees --graph "$D/size.txt.gz" --out "$D/keep.u32"
    cut=$(python3 -c "import zlib; print(len(zlib.decompressobj(31).decompress(open('$D/cut.txt.gz','rb').read())))")
    refused "truncated: the gzip stream ends at compressed byte $((glen / 2)) (the end of the file) after $cut bytes" -- \
        dataset degrees --graph "$D/cut.txt.gz" --out "$D/keep.u32"
    refused "junk.txt.gz: compressed byte $glen: trailing data" -- dataset degrees --graph "$D/junk.txt.gz" --out "$D/keep.u32"
}

@test "dataset: a --stats that cannot be written leaves an existing OUT untouched (exit 1)" {
    python3 -c "
import struct,sys
open(sys.argv[1],'wb').write(b''.join(struct.pack('<i',2)+struct.pack('<2f',i,i+1) for i in range(4)))" "$D/v.fvecs"
    echo old > "$D/o.f32"
    run -1 --separate-stderr "$DRTOPK" dataset knn --vectors "$D/v.fvecs" --queries 2 --out "$D/o.f32" --backend cpu \
        --stats /nonexistent/s.tsv --quiet
    [[ "$stderr" == *"/nonexistent/s.tsv"*"No such file or directory"* ]]
    [ "$(cat "$D/o.f32")" = old ]
    [ -z "$(find "$D" -name '*.tmp*')" ]
}

@test "tuner --input refuses a FIFO at once instead of blocking in open()" {
    [ -x "$TUNER" ] || skip "no tuner binary"
    mkfifo "$D/f.u32"
    run -2 timeout 20 "$TUNER" --backend cpu --input "$D/f.u32" --db "$D/t.sqlite"
    [[ "$output" == *"f.u32' is a FIFO, not a regular file"* ]]
}

@test "batch: --rows 0 and a --segments file of 0 segments exit 2 like run --n 0" {
    run -2 "$DRTOPK" batch --rows 0 --cols 10 --k 1 --backend cpu
    [[ "$output" == *"--rows is 0"* ]]
    python3 -c "import struct,sys; open(sys.argv[1],'wb').write(struct.pack('<Q',0))" "$D/s.u64"
    run -2 "$DRTOPK" batch --segments "$D/s.u64" --k 1 --backend cpu
    [[ "$output" == *"holds 1 offsets"* ]]
    run -2 "$DRTOPK" run --n 0 --k 1 --backend cpu
}

@test "batch: more host memory than the machine has is refused before V is generated (exit 1), not an OOM kill" {
    # V and the result slots of this many rows are twice the machine's memory
    kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
    [ -n "$kib" ] || skip "no /proc/meminfo"
    rows=$((kib * 1024 / 8))
    run -1 --separate-stderr "$DRTOPK" batch --backend cpu --rows "$rows" --cols 1 --k 1
    [[ "$stderr" == *"out of host memory: V and the result slots needs"* ]]
    [[ "$stderr" != *"generating"* ]]
}

@test "run_all.sh --from-db: an empty, text, truncated or damaged database, a schema_version of 99, a dropped table exit 2 once" {
    [ -x "$TUNER" ] || skip "no tuner binary"
    command -v sqlite3 > /dev/null || skip "the sqlite3 shell is not installed"
    run -0 "$TUNER" --backend cpu --n 2^10 --k 1 --reps 1 --dtype u32 --dist UD --db "$D/good.sqlite"
    : > "$D/empty.sqlite"
    echo hello > "$D/text.sqlite"
    head -c 20000 "$D/good.sqlite" > "$D/cut.sqlite"
    cp "$D/good.sqlite" "$D/v99.sqlite" && sqlite3 "$D/v99.sqlite" "UPDATE schema_version SET version = 99"
    cp "$D/good.sqlite" "$D/drop.sqlite" && sqlite3 "$D/drop.sqlite" "DROP TABLE fits"
    for db in empty text cut v99 drop; do
        run -2 --separate-stderr "$ROOT/experiments/run_all.sh" --from-db --db "$D/$db.sqlite" --out "$D/out-$db"
        [ "$(printf '%s\n' "$stderr" | grep -c "run_all.sh: database $D/$db.sqlite")" -eq 1 ]
    done
    [[ "$stderr" == *"lacks the table fits"* ]]
}
