#!/usr/bin/env bats
# dataset.bats -- `drtopk dataset` (the paper's real inputs of
# section 6 / Table 1): each kind on small files written here (fvecs, bvecs,
# ivecs, IDX and .gz; edge list, Matrix Market, graph-tool .gt; CSV / TSV),
# values against hand computations, --tile, the output read back by `drtopk
# run --input`; every malformed input exits 2 naming the file and the byte or
# line and leaves OUT as it was; and experiments/datasets.sh on stand-in
# sources: sha256 recorded, checked on a rerun and against a reference, a
# changed file caught.

bats_require_minimum_version 1.5.0

DRTOPK="${DRTOPK:-$BATS_TEST_DIRNAME/../../bin/drtopk}"
DATASETS="$BATS_TEST_DIRNAME/../../experiments/datasets.sh"

setup_file() {
    [ -x "$DRTOPK" ] || { echo "no drtopk binary at $DRTOPK (run ninja first)" >&2; return 1; }
    export DRTOPK_DB="$BATS_FILE_TMPDIR/no-tuning.sqlite"
}

setup() {
    command -v python3 >/dev/null || skip "python3 not installed"
    D="$BATS_TEST_TMPDIR"
}

# values FILE FMT: the raw file's elements, one per line (FMT: f or I)
values() {
    python3 -c "import struct,sys; b=open(sys.argv[1],'rb').read(); print('\n'.join('%g' % x for x in struct.unpack('<%d$2' % (len(b)//4), b)))" "$1"
}

# bad PATTERN... -- ARGS: drtopk dataset ARGS exits 2, stderr holds every PATTERN, an existing
# OUT (keep.f32, keep.u32) is untouched and no temporary file is left
bad() {
    local pats=()
    while [ "$1" != "--" ]; do pats+=("$1"); shift; done
    shift
    printf 'old' > "$D/keep.f32"
    printf 'old' > "$D/keep.u32"
    run -2 --separate-stderr "$DRTOPK" dataset "$@"
    for p in "${pats[@]}"; do
        [[ "$stderr" == *"$p"* ]] || { echo "stderr lacks '$p': $stderr" >&2; return 1; }
    done
    [ "$(cat "$D/keep.f32")$(cat "$D/keep.u32")" = oldold ] || { echo "an existing OUT was changed" >&2; return 1; }
    ! ls "$D"/*.tmp.* 2>/dev/null || { echo "a temporary file was left" >&2; return 1; }
}

# fixtures ------------------------------------------------------------------

fvecs() {   # (0,0) (3,4) (1,1)
    python3 -c "
import struct,sys
open(sys.argv[1],'wb').write(b''.join(struct.pack('<i2f',2,*v) for v in [(0,0),(3,4),(1,1)]))" "$1"
}

idx() {     # 3 images of 2x2: zeros, 1 2 3 4, 255 0 0 255
    python3 -c "
import struct,sys,gzip
b=struct.pack('>I3I',0x803,3,2,2)+bytes([0,0,0,0,1,2,3,4,255,0,0,255])
(gzip.open if sys.argv[1].endswith('.gz') else open)(sys.argv[1],'wb').write(b)" "$1"
}

gt() {      # directed: 0->1, 0->2, 2->0
    python3 -c "
import struct,sys
b=bytes([0xe2,0x9b,0xbe,0x20,0x67,0x74,1,0])+struct.pack('<Q',0)+bytes([1])+struct.pack('<Q',3)
b+=struct.pack('<Q',2)+bytes([1,2])+struct.pack('<Q',0)+struct.pack('<Q',1)+bytes([0])+struct.pack('<Q',0)
open(sys.argv[1],'wb').write(b)" "$1"
}

# ---- knn ------------------------------------------------------------------------

@test "knn: L2 and squared distances of .fvecs by hand, --tile, read back by drtopk run" {
    fvecs "$D/v.fvecs"
    run -0 "$DRTOPK" dataset knn --vectors "$D/v.fvecs" --queries 2 --out "$D/d.f32" --backend cpu
    [[ "$output" == *"6 f32 elements"* ]]
    [ "$(values "$D/d.f32" f | tr '\n' ' ')" = "0 5 1.41421 5 0 3.60555 " ]
    run -0 "$DRTOPK" dataset knn --vectors "$D/v.fvecs" --queries 1 --metric sql2 --tile 7 --out "$D/s.f32" \
        --backend cpu --quiet
    [ "$(values "$D/s.f32" f | tr '\n' ' ')" = "0 25 2 0 25 2 0 " ]
    run -0 "$DRTOPK" run --backend cpu --input "$D/s.f32" --k 2 --smallest --verify
    [[ "$output" == *"PASS"* ]]
}

@test "knn: IDX plain and .gz concatenated; distances between images by hand" {
    idx "$D/a-idx3-ubyte"
    idx "$D/b-idx3-ubyte.gz"
    run -0 "$DRTOPK" dataset knn --vectors "$D/a-idx3-ubyte" --vectors "$D/b-idx3-ubyte.gz" --queries 1 \
        --metric sql2 --out "$D/d.f32" --backend cpu
    # image 0 is all zeros: squared norms 0, 1+4+9+16, 2*255^2, again
    [ "$(values "$D/d.f32" f | tr '\n' ' ')" = "0 30 130050 0 30 130050 " ]
}

@test "knn: bvecs and ivecs" {
    python3 -c "import struct;open('$D/v.bvecs','wb').write(struct.pack('<i',2)+bytes([0,3])+struct.pack('<i',2)+bytes([4,0]))"
    python3 -c "import struct;open('$D/v.ivecs','wb').write(struct.pack('<3i',2,-3,0)+struct.pack('<3i',2,0,4))"
    run -0 "$DRTOPK" dataset knn --vectors "$D/v.bvecs" --queries 1 --out "$D/b.f32" --backend cpu
    [ "$(values "$D/b.f32" f | tr '\n' ' ')" = "0 5 " ]
    run -0 "$DRTOPK" dataset knn --vectors "$D/v.ivecs" --queries 2 --out "$D/i.f32" --backend cpu
    [ "$(values "$D/i.f32" f | tr '\n' ' ')" = "0 5 5 0 " ]
}

@test "knn: truncated, wrong dimension, NaN, empty, bad magic: exit 2 with file and byte, OUT kept" {
    fvecs "$D/v.fvecs"
    head -c 30 "$D/v.fvecs" > "$D/cut.fvecs"
    bad "$D/cut.fvecs" "byte 28" "truncated" -- knn --vectors "$D/cut.fvecs" --queries 1 --out "$D/keep.f32" --backend cpu
    python3 -c "
import struct
open('$D/dim.fvecs','wb').write(struct.pack('<i2f',2,0,0)+struct.pack('<i3f',3,1,1,1))
open('$D/nan.fvecs','wb').write(struct.pack('<i2f',2,0,float('nan')))"
    bad "$D/dim.fvecs" "byte 12" "dimension 3" "expected 2" -- knn --vectors "$D/dim.fvecs" --queries 1 --out "$D/x.f32" --backend cpu
    bad "$D/nan.fvecs" "byte 8" "finite" -- knn --vectors "$D/nan.fvecs" --queries 1 --out "$D/x.f32" --backend cpu
    : > "$D/empty.fvecs"
    bad "$D/empty.fvecs" "empty" -- knn --vectors "$D/empty.fvecs" --queries 1 --out "$D/x.f32" --backend cpu
    printf 'junkjunkjunk' > "$D/x-idx3-ubyte"
    bad "$D/x-idx3-ubyte" "byte 0" "IDX magic" -- knn --vectors "$D/x-idx3-ubyte" --queries 1 --out "$D/x.f32" --backend cpu
    idx "$D/i-idx3-ubyte"
    head -c 20 "$D/i-idx3-ubyte" | gzip > "$D/t-idx3-ubyte.gz"
    bad "$D/t-idx3-ubyte.gz" "truncated" "decompressed" -- knn --vectors "$D/t-idx3-ubyte.gz" --queries 1 --out "$D/x.f32" --backend cpu
    [ ! -e "$D/x.f32" ]
}

@test "knn: usage errors exit 2 (queries, out name, tile below the size)" {
    fvecs "$D/v.fvecs"
    bad "--queries 4 is more than the 3 vectors" -- knn --vectors "$D/v.fvecs" --queries 4 --out "$D/x.f32" --backend cpu
    bad "name the file *.f32" -- knn --vectors "$D/v.fvecs" --queries 1 --out "$D/x.u32" --backend cpu
    bad "missing --queries" -- knn --vectors "$D/v.fvecs" --out "$D/x.f32"
    bad "--tile 2 is smaller than the 3 distances" -- knn --vectors "$D/v.fvecs" --queries 1 --tile 2 --out "$D/x.f32" --backend cpu
    bad "unknown metric" -- knn --vectors "$D/v.fvecs" --queries 1 --metric cos --out "$D/x.f32"
    bad "unknown kind 'pagerank'" -- pagerank --out "$D/x.f32"
    [ ! -e "$D/x.f32" ]
}

# ---- degrees -------------------------------------------------------------------------

@test "degrees: edge list with comments, both / out / in, --tile" {
    printf '# SNAP-style header\n0\t1\n1 2\n\n2 2\n0 5\n' > "$D/g.txt"
    run -0 "$DRTOPK" dataset degrees --graph "$D/g.txt" --out "$D/d.u32"
    [ "$(values "$D/d.u32" I | tr '\n' ' ')" = "2 2 3 0 0 1 " ]
    run -0 "$DRTOPK" dataset degrees --graph "$D/g.txt" --direction out --out "$D/d.u32"
    [ "$(values "$D/d.u32" I | tr '\n' ' ')" = "2 1 1 0 0 0 " ]
    run -0 "$DRTOPK" dataset degrees --graph "$D/g.txt" --direction in --tile 8 --out "$D/d.u32"
    [ "$(values "$D/d.u32" I | tr '\n' ' ')" = "0 1 2 0 0 1 0 1 " ]
    run -0 "$DRTOPK" run --backend cpu --input "$D/d.u32" --k 3 --verify
    [[ "$output" == *"PASS"* ]]
}

@test "degrees: Matrix Market and graph-tool .gt / .gt.gz" {
    printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n%% c\n4 4 3\n2 1\n3 1\n2 2\n' > "$D/s.mtx"
    run -0 "$DRTOPK" dataset degrees --graph "$D/s.mtx" --out "$D/m.u32"
    [ "$(values "$D/m.u32" I | tr '\n' ' ')" = "2 3 1 0 " ]
    gt "$D/g.gt"
    gzip -c "$D/g.gt" > "$D/h.gt.gz"
    run -0 "$DRTOPK" dataset degrees --graph "$D/g.gt" --out "$D/g.u32"
    [ "$(values "$D/g.u32" I | tr '\n' ' ')" = "3 1 2 " ]
    run -0 "$DRTOPK" dataset degrees --graph "$D/h.gt.gz" --direction out --out "$D/g.u32"
    [ "$(values "$D/g.u32" I | tr '\n' ' ')" = "2 0 1 " ]
}

@test "degrees: malformed edge list, .mtx and .gt exit 2 with file and line / byte" {
    printf '0 1\n1 two\n' > "$D/b.txt"
    bad "$D/b.txt" "line 2" "two non-negative integer" -- degrees --graph "$D/b.txt" --out "$D/keep.u32"
    printf '# nothing\n' > "$D/n.txt"
    bad "$D/n.txt" "no edges" -- degrees --graph "$D/n.txt" --out "$D/x.u32"
    printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n' > "$D/t.mtx"
    bad "$D/t.mtx" "line 3" "truncated" -- degrees --graph "$D/t.mtx" --out "$D/x.u32"
    printf '%%%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 2 1\n' > "$D/u.mtx"
    bad "$D/u.mtx" "undirected" -- degrees --graph "$D/u.mtx" --direction in --out "$D/x.u32"
    gt "$D/g.gt"
    for cut in 5 20 30 40; do
        head -c $cut "$D/g.gt" > "$D/c$cut.gt"
        bad "$D/c$cut.gt" "byte" -- degrees --graph "$D/c$cut.gt" --out "$D/x.u32"
    done
    printf 'not a graph-tool file' > "$D/m.gt"
    bad "$D/m.gt" "byte 0" "magic" -- degrees --graph "$D/m.gt" --out "$D/x.u32"
    [ ! -e "$D/x.u32" ]
}

# ---- scores ------------------------------------------------------------------------------

@test "scores: quoted CSV fields (delimiters, quotes, newlines), TSV, --tile" {
    printf 'id,text,fav\r\n1,"a, ""quoted""\nline",10\r\n2,plain,2.5\n3,"x",-7\n' > "$D/t.csv"
    run -0 "$DRTOPK" dataset scores --csv "$D/t.csv" --column fav --out "$D/s.f32"
    [ "$(values "$D/s.f32" f | tr '\n' ' ')" = "10 2.5 -7 " ]
    run -0 "$DRTOPK" dataset scores --csv "$D/t.csv" --column id --tile 5 --out "$D/s.f32"
    [ "$(values "$D/s.f32" f | tr '\n' ' ')" = "1 2 3 1 2 " ]
    printf 'a\tb\n1\t2\n3\t4\n' > "$D/t.tsv"
    run -0 "$DRTOPK" dataset scores --csv "$D/t.tsv" --column b --out "$D/s.f32"
    [ "$(values "$D/s.f32" f | tr '\n' ' ')" = "2 4 " ]
}

@test "scores: NaN, junk, empty field, field count, open quote, no column, empty file: exit 2 with line" {
    printf 'a,b\n1,2\nNaN,3\n' > "$D/nan.csv"
    bad "$D/nan.csv" "line 3" "'NaN'" "finite number" -- scores --csv "$D/nan.csv" --column a --out "$D/keep.f32"
    printf 'a,b\n1,2\n3,4x\n' > "$D/junk.csv"
    bad "$D/junk.csv" "line 3" "'4x'" -- scores --csv "$D/junk.csv" --column b --out "$D/x.f32"
    printf 'a,b\n,2\n' > "$D/blank.csv"
    bad "$D/blank.csv" "line 2" -- scores --csv "$D/blank.csv" --column a --out "$D/x.f32"
    printf 'a,b\n1,2,3\n' > "$D/fields.csv"
    bad "$D/fields.csv" "line 2" "3 fields; expected 2" -- scores --csv "$D/fields.csv" --column a --out "$D/x.f32"
    printf 'a,b\n1,"open\n2,3\n' > "$D/quote.csv"
    bad "$D/quote.csv" "line 2" "unterminated" -- scores --csv "$D/quote.csv" --column a --out "$D/x.f32"
    bad "$D/junk.csv" "no column 'c'" "'a', 'b'" -- scores --csv "$D/junk.csv" --column c --out "$D/x.f32"
    : > "$D/empty.csv"
    bad "$D/empty.csv" "empty" -- scores --csv "$D/empty.csv" --column a --out "$D/x.f32"
    bad "$D/none.csv" "cannot open" -- scores --csv "$D/none.csv" --column a --out "$D/x.f32"
    [ ! -e "$D/x.f32" ]
}

@test "stats: Table 1 facts of a tiled vector" {
    printf 's\n5\n3\n5\n1\n' > "$D/v.csv"
    run -0 "$DRTOPK" dataset scores --csv "$D/v.csv" --column s --tile 6 --out "$D/v.f32" --stats "$D/v.tsv" \
        --stats-k 1,4 --name toy
    # 5 3 5 1 5 3: three distinct; largest: 5 (x3) then 3 (x2); smallest: 1, then 4th is 5
    [ "$(sed -n 2p "$D/v.tsv")" = "$(printf 'toy\t6\t3\tlargest\t1\t5\t3')" ]
    [ "$(sed -n 3p "$D/v.tsv")" = "$(printf 'toy\t6\t3\tlargest\t4\t3\t2')" ]
    [ "$(sed -n 5p "$D/v.tsv")" = "$(printf 'toy\t6\t3\tsmallest\t4\t5\t3')" ]
}

# ---- experiments/datasets.sh on stand-in sources ---------------------------------------------

@test "datasets.sh: prepares from --sources, records sha256, checks it on a rerun, catches a changed file" {
    command -v sha256sum >/dev/null || skip "sha256sum not installed"
    S="$D/src"
    mkdir -p "$S"
    idx "$S/train-images-idx3-ubyte.gz"
    idx "$S/t10k-images-idx3-ubyte.gz"
    for g in pgp-strong-2009 as-22july06 email-Enron; do gt "$D/g.gt"; gzip -c "$D/g.gt" > "$S/$g.gt.gz"; done
    printf '"id_str","favorite_count","sentiment","text"\n"1",10,2,"a, b"\n"2",3,-1,"c"\n' > "$S/tweets.csv"
    run -0 "$DATASETS" --sources "$S" --dir "$D/out" --knn-queries 2 --tile 64 --drtopk "$DRTOPK"
    [ -f "$D/out/fmnist-knn-m2.f32" ] && [ -f "$D/out/tweets-sentiment.f32" ]
    [ "$(values "$D/out/fmnist-knn-m2.f32" f | wc -l)" -eq 12 ]
    [ "$(values "$D/out/graph-email-Enron.u32" I | wc -l)" -eq 64 ]
    [ "$(wc -l < "$D/out/manifest.tsv")" -eq 7 ]
    grep -q "^tweets-favorites	64	r-cran-dslabs	" "$D/out/table1.tsv"
    cp "$D/out/manifest.tsv" "$D/first.tsv"
    # a rerun checks the cached files; --rebuild remakes them with the same sha256
    run -0 "$DATASETS" --sources "$S" --dir "$D/out" --knn-queries 2 --tile 64 --drtopk "$DRTOPK"
    [[ "$output" == *"cached; checking the sha256"* ]]
    run -0 "$DATASETS" --sources "$S" --dir "$D/out" --knn-queries 2 --tile 64 --drtopk "$DRTOPK" --rebuild
    [[ "$output" == *"reproducible"* ]]
    cmp "$D/first.tsv" "$D/out/manifest.tsv"
    # a reference of the same recipe (made on another machine) must agree
    awk -F'\t' -v OFS='\t' '$1 == "fmnist-knn-1.f32" { $2 = "0000"; print }' "$D/out/manifest.tsv" > "$D/ref.tsv"
    DATASETS_REFERENCE="$D/ref.tsv" run -1 "$DATASETS" --sources "$S" --dir "$D/out" --knn-queries 2 --tile 64 \
        --drtopk "$DRTOPK"
    [[ "$output" == *"fmnist-knn-1.f32: sha256"*"differs from the reference 0000"* ]]
    cp "$D/out/manifest.tsv" "$D/ref.tsv"
    DATASETS_REFERENCE="$D/ref.tsv" run -0 "$DATASETS" --sources "$S" --dir "$D/out" --knn-queries 2 --tile 64 \
        --drtopk "$DRTOPK"
    [[ "$output" == *"tweets-sentiment: sha256 as the reference"* ]]
    # a prepared file changed behind the script's back: named, non-zero exit
    printf 'x' >> "$D/out/graph-as-22july06.u32"
    run -1 "$DATASETS" --sources "$S" --dir "$D/out" --knn-queries 2 --tile 64 --drtopk "$DRTOPK"
    [[ "$output" == *"graph-as-22july06.u32: sha256"* ]]
}
