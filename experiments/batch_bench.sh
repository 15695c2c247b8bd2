#!/bin/sh
# batch_bench.sh -- beyond the paper: batched and segmented top-k (`drtopk
# batch`, src/lib/batch.c, kernels/batch_topk.cu) beside batched torch.topk,
# CUB DeviceBatchedTopK (CCCL 3.5) and the read floor (torch.sum over the
# input), in one run on the same seeded f32 data (dist UD, seed 1; values +
# indices, unsorted, largest).  Workloads (token sampling
# 256 x 131072 and 256 x 262144, k 50; MoE routing 65536 x 256, k 8; ANN
# re-ranking 10000 x 10000 and 10000 x 8192, k 100; long rows 16 x 2^24 and
# 4 x 2^28, k 1024), two power-law segment-length sets (offsets files
# written here, deterministically: lengths lmin * u^(-1/alpha) capped, u from
# splitmix64): plaw-small (65536 segments of 64..8192, CUB's range) and
# plaw-large (16384 segments of 64..2^24), and sparse attention's top-k of
# index scores, k 2048 per query over the keys it sees (a row shorter than k
# gives all of them: k_s = min(k, length)): attn-prefill-128k (1024 queries
# at the end of a 131072-key context, query q seeing 130049 + q keys),
# attn-causal-8k (8192 queries from position 0: 1..8192 keys, the first 2048
# shorter than k) and attn-decode-128k (256 sequences of one query each,
# 4096..131072 keys, uniform from splitmix64).
# Every row becomes a JSON line for `tuner --import-peers` (peers batch.drtopk,
# batch.torch_topk, batch.cub_batched_topk, batch.read_once; n = elements,
# peer_version = the workload and its shape) and is stored in the results
# database with the GPU and the commit; a compact table prints last.  Every
# time is the call's GPU time (`drtopk batch` and both peers' default --timing
# gpu: the stream held until the call is enqueued; stored as timing 'gpu').  Timings
# are benchmarks, never pass/fail: the exit status says whether our runs
# succeeded and verified.
#   experiments/batch_bench.sh [--bin DIR] [--db DB] [--out DIR] [--reps R]
#                              [--backend cpu]
#   environment: CUB_BATCH_PEER (built experiments/peers/cub_batch_topk_peer;
#   several separated by spaces), PYTHON (default python3)
# --backend cpu: tiny shapes, our CLI only (a check of the commands;
# tests/bats/experiments.bats).
set -u
cd "$(dirname "$0")/.." || exit 1
DB=${DRTOPK_DB:-db/results.sqlite}
BIN=bin
OUT=out/batch-bench
REPS=7
BACKEND=cuda
PY=${PYTHON:-python3}
VERIFY_MAX_N=1073741824         # every workload (2^30 keys at most): the host check is an O(len) count, seconds
while [ $# -gt 0 ]; do
    case $1 in
    --db) DB=$2; shift 2 ;;
    --bin) BIN=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --backend) BACKEND=$2; shift 2 ;;
    *) echo "batch_bench.sh: unknown option '$1' (--db --bin --out --reps --backend)" >&2; exit 2 ;;
    esac
done
mkdir -p "$OUT" || exit 1
W=$OUT/workloads.tsv
TAB=$(printf '\t')
# segment_offsets KIND FILE SEGMENTS A B: segment offsets, deterministic:
#   plaw:    power-law (alpha 0.9) lengths A * u^(-1/alpha), capped at B;
#   uniform: lengths uniform in A..B;
#   causal:  the queries at the end of a B-key context, query s of SEGMENTS
#            seeing B - SEGMENTS + 1 + s keys (A unused);
# u from splitmix64 of the segment's number.
segment_offsets() {
    "$PY" - "$@" <<'EOF' || exit 1
import os, struct, sys
kind, path, segs, a, b = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
ALPHA, SEED, M = 0.9, 16, (1 << 64) - 1
def mix(x):
    x ^= x >> 30; x = (x * 0xBF58476D1CE4E5B9) & M
    x ^= x >> 27; x = (x * 0x94D049BB133111EB) & M
    return x ^ (x >> 31)
def u(s):   # (0, 1]
    return ((mix((SEED + (s + 1) * 0x9E3779B97F4A7C15) & M) >> 11) + 1) / float(1 << 53)
def length(s):
    if kind == "plaw":
        return min(b, int(a * u(s) ** (-1.0 / ALPHA)))
    if kind == "uniform":
        return min(b, a + int(u(s) * (b - a + 1)))
    return b - segs + 1 + s
off = [0]
for s in range(segs):
    off.append(off[-1] + length(s))
tmp = path + ".tmp"
with open(tmp, "wb") as f:
    f.write(struct.pack("<%dQ" % len(off), *off))
os.replace(tmp, path)
EOF
}
case $BACKEND in
cuda)
    segment_offsets plaw "$OUT/plaw-small.u64" 65536 64 8192
    segment_offsets plaw "$OUT/plaw-large.u64" 16384 64 16777216
    segment_offsets causal "$OUT/attn-prefill-128k.u64" 1024 0 131072
    segment_offsets causal "$OUT/attn-causal-8k.u64" 8192 0 8192
    segment_offsets uniform "$OUT/attn-decode-128k.u64" 256 4096 131072
    cat > "$W" <<EOF
token-131k${TAB}256x131072${TAB}50
token-262k${TAB}256x262144${TAB}50
moe${TAB}65536x256${TAB}8
ann-10000${TAB}10000x10000${TAB}100
ann-8192${TAB}10000x8192${TAB}100
long-2^24${TAB}16x16777216${TAB}1024
long-2^28${TAB}4x268435456${TAB}1024
plaw-small${TAB}$OUT/plaw-small.u64${TAB}50
plaw-large${TAB}$OUT/plaw-large.u64${TAB}50
attn-prefill-128k${TAB}$OUT/attn-prefill-128k.u64${TAB}2048
attn-causal-8k${TAB}$OUT/attn-causal-8k.u64${TAB}2048
attn-decode-128k${TAB}$OUT/attn-decode-128k.u64${TAB}2048
EOF
    TARGET="--gpu 0" ;;
cpu)
    segment_offsets plaw "$OUT/plaw-small.u64" 64 8 64
    segment_offsets plaw "$OUT/plaw-large.u64" 16 8 4096
    segment_offsets causal "$OUT/attn-causal.u64" 32 0 32
    cat > "$W" <<EOF
token${TAB}4x512${TAB}5
moe${TAB}64x16${TAB}2
plaw-small${TAB}$OUT/plaw-small.u64${TAB}5
plaw-large${TAB}$OUT/plaw-large.u64${TAB}5
attn-causal${TAB}$OUT/attn-causal.u64${TAB}8
EOF
    TARGET="--backend cpu" ;;
*) echo "batch_bench.sh: --backend cuda|cpu, not '$BACKEND'" >&2; exit 2 ;;
esac
LINES=$OUT/batch.jsonl
: > "$LINES"
rc=0
total=$(grep -c . "$W")
i=0
t0=$(date +%s)
while IFS="$TAB" read -r name shape k; do
    i=$((i + 1))
    case $shape in
    *.u64) args="--segments $shape"; n=$("$PY" -c "import os,struct,sys;f=open(sys.argv[1],'rb');f.seek(-8,2);print(struct.unpack('<Q',f.read())[0])" "$shape") ;;
    *) args="--rows ${shape%x*} --cols ${shape#*x}"; n=$((${shape%x*} * ${shape#*x})) ;;
    esac
    verify=""
    [ "$n" -le "$VERIFY_MAX_N" ] && verify=--verify
    el=$(($(date +%s) - t0))
    echo "batch_bench: [$i/$total] $name ($shape, k $k)$( [ "$i" -gt 1 ] && echo ", ETA $((el * (total - i + 1) / (i - 1))) s")" >&2
    # shellcheck disable=SC2086 # args and TARGET are several words
    if ! "$BIN/drtopk" batch $TARGET $args --k "$k" --dtype f32 --dist UD --seed 1 --reps "$REPS" $verify --json \
           > "$OUT/ours-$name.json" 2> "$OUT/ours-$name.err"; then
        rc=1
        echo "batch_bench: drtopk batch failed on $name: $(tail -1 "$OUT/ours-$name.err")" >&2
    fi
    "$PY" - "$OUT/ours-$name.json" "$name" "$shape" >> "$LINES" <<'EOF' || rc=1
import json, os, sys
path, name, shape = sys.argv[1:]
try:
    j = json.load(open(path))
except (OSError, ValueError) as e:
    print(json.dumps({"peer": "batch.drtopk", "error": "no JSON from drtopk batch: %s" % e, "peer_version": name}))
    sys.exit(1)
g = j.get("gpu") or {}
line = {"peer": "batch.drtopk", "gpu": g.get("name") or "cpu", "peer_version": "%s %s %s" % (j["git_commit"], name, os.path.basename(shape)),  # 63 bytes kept
        "seed": j["seed"], "dist": j["dist"], "dtype": j["dtype"], "n": j["n"], "k": j["k"],
        "ms_median": j["ms_median"], "ms_min": j["ms_min"], "ms_max": j["ms_max"], "reps": len(j["reps"]),
        "reps_ms": j["reps"],
        "verified": int(j.get("verify") == "PASS"), "timing": j.get("timing", "call")}
if g.get("uuid"):
    line["uuid"] = g["uuid"]
print(json.dumps(line))
sys.exit(0 if j.get("verify") in ("PASS", None) else 1)
EOF
done < "$W"
if [ "$BACKEND" = cuda ]; then
    echo "batch_bench: torch.topk and the read floor" >&2
    "$PY" experiments/peers/torch_batch_topk.py --workloads "$W" --reps "$REPS" >> "$LINES" 2> "$OUT/torch.err" ||
        echo "batch_bench: torch_batch_topk.py failed: $(tail -1 "$OUT/torch.err")" >&2
    ran=0
    for peer in ${CUB_BATCH_PEER:-}; do
        [ -x "$peer" ] || continue
        ran=1
        echo "batch_bench: $peer" >&2
        "$peer" --workloads "$W" --reps "$REPS" >> "$LINES" 2> "$OUT/cub.err" ||
            echo "batch_bench: $peer failed: $(tail -1 "$OUT/cub.err")" >&2
    done
    [ "$ran" = 1 ] || echo '{"peer":"batch.cub_batched_topk","skipped":"not built (no CCCL >= 3.5 headers: CCCL_PEER_INC)"}' >> "$LINES"
fi
if [ -n "$DB" ]; then
    "$BIN/tuner" --import-peers "$LINES" --db "$DB" >&2 || rc=1
fi
"$PY" - "$LINES" "$W" <<'EOF' || rc=1
import json, sys
lines, work = sys.argv[1:]
rows = {}
for l in open(lines):
    j = json.loads(l)
    if "ms_median" in j:
        rows[(j["peer"], j["n"], j["k"])] = j
gpu = next((j["gpu"] for j in rows.values()), "?")
print("batch bench on %s: f32 UD, values + indices unsorted, median ms (x = ours / best peer)" % gpu)
print("%-17s %-22s %5s %9s %9s %9s %9s %8s" % ("workload", "shape", "k", "ours", "torch", "CUB", "floor", "x"))
for name, shape, k in (l.rstrip("\n").split("\t") for l in open(work) if l.strip()):
    k = int(k)
    if shape.endswith(".u64"):
        import struct
        raw = open(shape, "rb").read()
        n = struct.unpack("<Q", raw[-8:])[0]
        shape = "%d segments" % (len(raw) // 8 - 1)
    else:
        r, c = (int(s) for s in shape.split("x"))
        n = r * c
    get = lambda p: rows.get((p, n, k), {}).get("ms_median")
    ours, torch, cub, floor = (get("batch." + p) for p in ("drtopk", "torch_topk", "cub_batched_topk", "read_once"))
    peers = [v for v in (torch, cub) if v]
    cell = lambda v: "%9.3f" % v if v else "%9s" % "-"
    ratio = "%8.2f" % (ours / min(peers)) if ours and peers else "%8s" % "-"
    print("%-17s %-22s %5d %s %s %s %s %s" % (name, shape, k, cell(ours), cell(torch), cell(cub), cell(floor), ratio))
EOF
exit $rc
