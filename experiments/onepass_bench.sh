#!/bin/sh
# onepass_bench.sh -- issue 15 item 4: the one-read top-k (onepass,
# src/lib/onepass_spec.h) beside the default plan and the read floor, in one
# run, through the tuner (bin/tuner: every row in the results database with
# its GPU, commit and plan; no timing path of its own), then a compact table
# from that database:
#   large: |V| = 2^30, k = 1, 2^10, 2^16, 2^20, 2^22, 2^24, u32 f32 f16 bf16
#          u64 f64, UD ND CD: the paper's plan as the "default" row (dr-radix at
#          Rule 4's const 3, beta 2, on the widened copy for 16-bit keys; the
#          standalone radix select for 64-bit keys; drtopk_plan_auto runs
#          onepass for untuned 16- and 64-bit keys at this size), onepass
#          (every width read at its own width), and the read floor n x (bytes
#          per key) / the machine's streaming read bandwidth (the tuner's
#          machines.read_gbps);
#   small: n = 2^12 .. 2^24 by 4x, k = 1, 2^4, 2^7, 2^10, 2^14 (k <= n), u32 UD:
#          dr-radix, radix (its one-block path below 2^15 keys), onepass,
#          fused (kernels/small_n.cu: one launch, grid-wide barriers).
# With --peers, the modern peers (experiments/peers/run_peers.sh: CUB
# DeviceTopK, torch.topk; u32) run on the same seeded data and are imported
# (tuner --import-peers); their rows print beside ours.  Timings are
# benchmarks, never pass/fail: the exit status only says whether the tuner
# runs succeeded.
#   experiments/onepass_bench.sh [--db DB] [--bin DIR] [--gpu G] [--minutes M]
#                                [--peers] [--backend cpu]
# --backend cpu: the same sweeps on the CPU backend, sizes scaled down 2^14
# times (a check of the commands; tests/bats/experiments.bats).
set -u
cd "$(dirname "$0")/.." || exit 1
DB=${DRTOPK_DB:-db/results.sqlite}
BIN=bin
GPU=0
MINUTES=20
PEERS=0
BACKEND=cuda
while [ $# -gt 0 ]; do
    case $1 in
    --db) DB=$2; shift 2 ;;
    --bin) BIN=$2; shift 2 ;;
    --gpu) GPU=$2; shift 2 ;;
    --minutes) MINUTES=$2; shift 2 ;;
    --peers) PEERS=1; shift ;;
    --backend) BACKEND=$2; shift 2 ;;
    *) echo "onepass_bench.sh: unknown option '$1' (--db --bin --gpu --minutes --peers --backend)" >&2; exit 2 ;;
    esac
done
case $BACKEND in
cuda)
    LARGE_LOG2N=30
    LARGE_KS=1,2^10,2^16,2^20,2^22,2^24
    SMALL_NS=2^12,2^14,2^16,2^18,2^20,2^22,2^24
    SMALL_KS=1,2^4,2^7,2^10,2^14
    REPS=7 SMALL_REPS=21
    TARGET="--gpu $GPU" ;;
cpu)    # 2^14 times smaller
    LARGE_LOG2N=16
    LARGE_KS=1,2^2,2^4,2^6,2^8,2^10
    SMALL_NS=2^6,2^8,2^10
    SMALL_KS=1,2^4,2^7
    REPS=1 SMALL_REPS=1
    TARGET="--backend cpu" ;;
*) echo "onepass_bench.sh: --backend cuda|cpu, not '$BACKEND'" >&2; exit 2 ;;
esac
rc=0
# shellcheck disable=SC2086 # TARGET is two words
"$BIN/tuner" $TARGET --n "2^$LARGE_LOG2N" --k "$LARGE_KS" --dist UD,ND,CD --dtype u32,f32,f16,bf16,u64,f64 \
    --algo dr-radix,radix,onepass --alpha-span 0 --beta 2 --reps "$REPS" --no-check \
    --max-minutes "$MINUTES" --db "$DB" || rc=1
# shellcheck disable=SC2086
"$BIN/tuner" $TARGET --n "$SMALL_NS" --k "$SMALL_KS" --dist UD --dtype u32 \
    --algo dr-radix,radix,onepass,fused --alpha-span 0 --beta 2 --reps "$SMALL_REPS" --no-check \
    --max-minutes "$MINUTES" --db "$DB" || rc=1
if [ "$PEERS" = 1 ]; then
    peers=$(mktemp)
    bash experiments/peers/run_peers.sh "$peers" --log-n "$LARGE_LOG2N" --k-log4-max 12 > /dev/null 2>&1
    for p in $(echo "$SMALL_NS" | tr ',' ' '); do
        tmp=$(mktemp)
        bash experiments/peers/run_peers.sh "$tmp" --log-n "${p#2^}" --k-log4-max 7 --dists UD > /dev/null 2>&1
        cat "$tmp" >> "$peers"
        rm -f "$tmp"
    done
    "$BIN/tuner" --import-peers "$peers" --db "$DB" || rc=1
    rm -f "$peers"
fi
python3 - "$DB" "$BACKEND" "$LARGE_LOG2N" "$LARGE_KS" "$SMALL_NS" "$SMALL_KS" <<'EOF'
import sqlite3, sys
db, backend, log2n, large_ks, small_ns, small_ks = sys.argv[1:]
size = lambda s: 2 ** int(s[2:]) if s.startswith("2^") else int(s)
label = lambda v: "1" if v == 1 else "2^%d" % (v.bit_length() - 1)
large_n = 2 ** int(log2n)
large_ks = [size(s) for s in large_ks.split(",")]
small_ns = [size(s) for s in small_ns.split(",")]
small_ks = [size(s) for s in small_ks.split(",")]
con = sqlite3.connect(db)
mach = con.execute("SELECT id, name, read_gbps FROM machines WHERE backend = ? ORDER BY id DESC LIMIT 1",
                   (backend,)).fetchone()
if mach is None:
    sys.exit("onepass_bench: no %s machine in %s" % (backend, db))
mid, gpu, gbps = mach
def ms(algo, dtype, dist, n, k):
    r = con.execute("SELECT median_ms FROM measurements WHERE machine_id = ? AND algorithm = ? AND dtype = ? "
                    "AND dist = ? AND n = ? AND k = ? AND status = 'ok' ORDER BY measured_at DESC LIMIT 1",
                    (mid, algo, dtype, dist, n, k)).fetchone()
    return r[0] if r else None
def peer(name, dtype, dist, n, k):
    r = con.execute("SELECT median_ms FROM peer_measurements WHERE machine_id = ? AND peer = ? AND dtype = ? "
                    "AND dist = ? AND n = ? AND k = ? AND status = 'ok' ORDER BY id DESC LIMIT 1",
                    (mid, name, dtype, dist, n, k)).fetchone()
    return r[0] if r else None
width = {"u32": 4, "f32": 4, "f16": 2, "bf16": 2, "u64": 8, "f64": 8}
def cell(v, floor):
    if v is None: return "-"
    return "%.3f" % v + (" %.2fx" % (v / floor) if floor else "")
print("onepass bench on %s: |V| = 2^%s, median ms (x the read floor)" % (gpu, log2n))
print("%-5s %-4s %-8s " % ("dtype", "dist", "plan") + " ".join("%14s" % ("k=" + label(k)) for k in large_ks))
for dtype in ["u32", "f32", "f16", "bf16", "u64", "f64"]:
    floor = large_n * width[dtype] / (gbps * 1e6) if gbps else None
    default = "radix" if width[dtype] == 8 else "dr-radix"
    print("%-5s %-4s %-8s %14s" % (dtype, "", "floor", "%.3f" % floor if floor else "n/a"))
    for dist in ["UD", "ND", "CD"]:
        rows = [("default", lambda k: ms(default, dtype, dist, large_n, k)),
                ("onepass", lambda k: ms("onepass", dtype, dist, large_n, k))]
        if dtype == "u32":
            rows += [(p, lambda k, p=p: peer(p, dtype, dist, large_n, k)) for p in ("cub_device_topk", "torch_topk")]
        for name, f in rows:
            vals = [f(k) for k in large_ks]
            if name in ("default", "onepass") or any(v is not None for v in vals):
                print("%-5s %-4s %-8s " % (dtype, dist, name[:8]) + " ".join("%14s" % cell(v, floor) for v in vals))
print("small inputs, u32 UD, median us (best of ours marked *)")
print("%-6s %-8s " % ("n", "plan") + " ".join("%10s" % ("k=" + label(k)) for k in small_ks))
for n in small_ns:
    plans = ["dr-radix", "radix", "onepass", "fused"]
    got = {p: [ms(p, "u32", "UD", n, k) if k <= n else None for k in small_ks] for p in plans}
    for p in ("cub_device_topk", "torch_topk"):
        got[p] = [peer(p, "u32", "UD", n, k) if k <= n else None for k in small_ks]
    for p in plans + ["cub_device_topk", "torch_topk"]:
        if all(v is None for v in got[p]): continue
        cells = []
        for i, v in enumerate(got[p]):
            ours = [got[q][i] for q in plans if got[q][i] is not None]
            mark = "*" if v is not None and p in plans and v == min(ours) else " "
            cells.append("%10s" % ("-" if v is None else "%.1f%s" % (v * 1000, mark)))
        print("%-6s %-8s " % (label(n), p[:8]) + " ".join(cells))
EOF
[ $? -eq 0 ] || rc=1
exit $rc
