#!/bin/sh
# onepass_bench.sh -- beyond the paper: the one-read top-k (onepass,
# src/lib/onepass_spec.h) beside the default plan and the read floor, in one
# run, through the tuner (bin/tuner: every row in the results database with
# its GPU, commit and plan; no timing path of its own), then a compact table
# from that database:
#   large: |V| = 2^30, k = 1, 2^10, 2^16, 2^20, 2^22, 2^24, u32 f32 f16 bf16
#          u64 f64 (--dtypes), UD ND CD (--dists): the paper's plan as the "default" row (dr-radix at
#          Rule 4's const 3, beta 2, on the widened copy for 16-bit keys; the
#          standalone radix select for 64-bit keys; drtopk_plan_auto runs
#          onepass for untuned 16- and 64-bit keys at this size), onepass
#          (every width read at its own width), and the read floor n x (bytes
#          per key) / the machine's streaming read bandwidth (the tuner's
#          machines.read_gbps);
#   small: n = 2^12 .. 2^24 by 4x, k = 1, 2^4, 2^7, 2^10, 2^14 (k <= n), u32 UD:
#          dr-radix, radix (its one-block path below 2^15 keys), onepass,
#          fused (kernels/small_n.cu: one launch, grid-wide barriers).
#          The small sweep also measures the library's automatic plan
#          (tuner --compare: drtopk_plan_auto with this GPU's tuning).
# Every time on the GPU is the call's GPU time (tuner --timing gpu, the peers
# likewise: the stream held until the call is enqueued), so microsecond rows
# compare kernels, not launch APIs.
# With --peers, the modern peers (experiments/peers/run_peers.sh: CUB
# DeviceTopK at its fastest configuration, torch.topk) run on the same seeded
# data: at 2^30 on the large sweep's key types, distributions and k, at every
# small n and k on u32 UD; they are imported (tuner --import-peers) and their
# rows print beside ours per key type, with the small-n targets of
# experiments/NOTES.md (H200: 10 us at 2^16, 15 at 2^20, 30 at 2^24, for k <= 1024).  Timings are
# benchmarks, never pass/fail: the exit status only says whether the tuner
# runs succeeded.
#   experiments/onepass_bench.sh [--db DB] [--bin DIR] [--gpu G] [--minutes M]
#                                [--peers] [--backend cpu] [--sweeps large,small]
#                                [--dtypes u32,f32,f16,bf16,u64,f64] [--dists UD,ND,CD]
#                                [--reps R]
# --sweeps: which sweeps run (default both; the small table alone takes a few
# minutes); --dtypes, --dists: the large sweep's key types and distributions
# (the table prints those); --reps: repetitions of the large sweep (default 7).
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
SWEEPS=large,small
DTYPES=u32,f32,f16,bf16,u64,f64
DISTS=UD,ND,CD
LARGE_REPS=""
while [ $# -gt 0 ]; do
    case $1 in
    --db) DB=$2; shift 2 ;;
    --bin) BIN=$2; shift 2 ;;
    --gpu) GPU=$2; shift 2 ;;
    --minutes) MINUTES=$2; shift 2 ;;
    --peers) PEERS=1; shift ;;
    --backend) BACKEND=$2; shift 2 ;;
    --sweeps) SWEEPS=$2; shift 2 ;;
    --dtypes) DTYPES=$2; shift 2 ;;
    --dists) DISTS=$2; shift 2 ;;
    --reps) LARGE_REPS=$2; shift 2 ;;
    *) echo "onepass_bench.sh: unknown option '$1' (--db --bin --gpu --minutes --peers --backend --sweeps" \
            "--dtypes --dists --reps)" >&2; exit 2 ;;
    esac
done
# The comma list $2 (option $1) must hold only words of the list $3.
check_list() {
    opt=$1 list=$2 allowed=$3
    # shellcheck disable=SC2046 # one word per entry
    set -- $(echo "$list" | tr ',' ' ')
    [ $# -gt 0 ] || { echo "onepass_bench.sh: $opt '$list' is empty (one or more of $allowed)" >&2; exit 2; }
    for w in "$@"; do
        case ",$allowed," in *",$w,"*) ;; *)
            echo "onepass_bench.sh: $opt '$list': '$w' is not one of $allowed" >&2; exit 2 ;;
        esac
    done
}
check_list --sweeps "$SWEEPS" large,small
check_list --dtypes "$DTYPES" u32,i32,f32,f16,bf16,u64,i64,f64
check_list --dists "$DISTS" UD,ND,CD
case $LARGE_REPS in ''|*[!0-9]*|0)
    [ -z "$LARGE_REPS" ] || { echo "onepass_bench.sh: --reps '$LARGE_REPS': a positive integer" >&2; exit 2; } ;;
esac
sweep() { case ",$SWEEPS," in *",$1,"*) return 0 ;; esac; return 1; }
case $BACKEND in
cuda)
    LARGE_LOG2N=30
    LARGE_KS=1,2^10,2^16,2^20,2^22,2^24
    SMALL_NS=2^12,2^14,2^16,2^18,2^20,2^22,2^24
    SMALL_KS=1,2^4,2^7,2^10,2^14
    REPS=7 SMALL_REPS=21
    TARGET="--gpu $GPU --timing gpu" ;;
cpu)    # 2^14 times smaller
    LARGE_LOG2N=16
    LARGE_KS=1,2^2,2^4,2^6,2^8,2^10
    SMALL_NS=2^6,2^8,2^10
    SMALL_KS=1,2^4,2^7
    REPS=1 SMALL_REPS=1
    TARGET="--backend cpu" ;;
*) echo "onepass_bench.sh: --backend cuda|cpu, not '$BACKEND'" >&2; exit 2 ;;
esac
REPS=${LARGE_REPS:-$REPS}
# A k list with 2^E entries as plain integers (the peers' --ks).
plain_ks() {
    echo "$1" | tr ',' '\n' | while read -r k; do
        case $k in 2^*) echo $((1 << ${k#2^})) ;; *) echo "$k" ;; esac; done | paste -sd, -
}
rc=0
if sweep large; then
    # shellcheck disable=SC2086 # TARGET is two words
    "$BIN/tuner" $TARGET --n "2^$LARGE_LOG2N" --k "$LARGE_KS" --dist "$DISTS" --dtype "$DTYPES" \
        --algo dr-radix,radix,onepass --alpha-span 0 --beta 2 --reps "$REPS" --no-check \
        --max-minutes "$MINUTES" --db "$DB" || rc=1
fi
if sweep small; then
    # shellcheck disable=SC2086
    "$BIN/tuner" $TARGET --n "$SMALL_NS" --k "$SMALL_KS" --dist UD --dtype u32 \
        --algo dr-radix,radix,onepass,fused --alpha-span 0 --beta 2 --reps "$SMALL_REPS" --no-check --compare \
        --max-minutes "$MINUTES" --db "$DB" || rc=1
fi
if [ "$PEERS" = 1 ]; then
    peers=$(mktemp)
    if sweep large; then
        bash experiments/peers/run_peers.sh "$peers" --log-n "$LARGE_LOG2N" --ks "$(plain_ks "$LARGE_KS")" \
            --dtypes "$DTYPES" --dists "$DISTS" --reps "$REPS" > /dev/null 2>&1
    fi
    small_ks=$(plain_ks "$SMALL_KS")
    sweep small && for p in $(echo "$SMALL_NS" | tr ',' ' '); do
        tmp=$(mktemp)
        # CUB with 32-bit item counts only: its fastest (docs/changelog.md, 2026-11-23)
        CUB_ITEM_BITS=32 bash experiments/peers/run_peers.sh "$tmp" --log-n "${p#2^}" --ks "$small_ks" \
            --reps "$SMALL_REPS" --dists UD > /dev/null 2>&1
        cat "$tmp" >> "$peers"
        rm -f "$tmp"
    done
    "$BIN/tuner" --import-peers "$peers" --db "$DB" || rc=1
    rm -f "$peers"
fi
python3 - "$DB" "$BACKEND" "$LARGE_LOG2N" "$LARGE_KS" "$SMALL_NS" "$SMALL_KS" "$SWEEPS" "$DTYPES" "$DISTS" <<'EOF'
import sqlite3, sys
db, backend, log2n, large_ks, small_ns, small_ks, sweeps, dtypes, dists = sys.argv[1:]
sweeps, dtypes, dists = sweeps.split(","), dtypes.split(","), dists.split(",")
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
    """The peer's fastest configuration (CUB: every build and item width, peer "cub_device_topk.i32.3.5.0"
    and the like) at this point, from the latest import that measured it."""
    point = "machine_id = ? AND (peer = ? OR peer LIKE ? || '.%') AND dtype = ? AND dist = ? AND n = ? AND k = ?"
    args = (mid, name, name, dtype, dist, n, k)
    r = con.execute("SELECT min(median_ms) FROM peer_measurements WHERE %s AND status = 'ok' AND run_id = "
                    "(SELECT max(run_id) FROM peer_measurements WHERE %s AND status = 'ok')" % (point, point),
                    args + args).fetchone()
    return r[0] if r else None
def auto(dtype, dist, n, k):
    r = con.execute("SELECT min(tuned_ms_a, tuned_ms_b) FROM checks WHERE machine_id = ? AND kind = 'compare' "
                    "AND dtype = ? AND dist = ? AND n = ? AND k = ? ORDER BY checked_at DESC LIMIT 1",
                    (mid, dtype, dist, n, k)).fetchone()
    return r[0] if r else None
def timing(table, n_values):
    q = ",".join("?" * len(n_values))
    return ",".join(r[0] for r in con.execute("SELECT DISTINCT timing FROM %s WHERE machine_id = ? AND n IN (%s)"
                                               % (table, q), (mid, *n_values))) or "-"
width = {"u32": 4, "i32": 4, "f32": 4, "f16": 2, "bf16": 2, "u64": 8, "i64": 8, "f64": 8}
def cell(v, floor):
    if v is None: return "-"
    return "%.3f" % v + (" %.2fx" % (v / floor) if floor else "")
def large_table():
    print("onepass bench on %s: |V| = 2^%s, median ms (x the read floor at the key's width); cub = CUB "
          "DeviceTopK's fastest configuration, torch = torch.topk" % (gpu, log2n))
    print("%-5s %-4s %-8s " % ("dtype", "dist", "plan") + " ".join("%14s" % ("k=" + label(k)) for k in large_ks))
    for dtype in dtypes:
        floor = large_n * width[dtype] / (gbps * 1e6) if gbps else None
        default = "radix" if width[dtype] == 8 else "dr-radix"
        print("%-5s %-4s %-8s %14s" % (dtype, "", "floor", "%.3f" % floor if floor else "n/a"))
        for dist in dists:
            rows = [("default", lambda k: ms(default, dtype, dist, large_n, k)),
                    ("onepass", lambda k: ms("onepass", dtype, dist, large_n, k))]
            rows += [(p.split("_")[0], lambda k, p=p: peer(p, dtype, dist, large_n, k))
                     for p in ("cub_device_topk", "torch_topk")]
            for name, f in rows:
                vals = [f(k) for k in large_ks]
                if name in ("default", "onepass") or any(v is not None for v in vals):
                    print("%-5s %-4s %-8s " % (dtype, dist, name) + " ".join("%14s" % cell(v, floor) for v in vals))
if "large" in sweeps:
    large_table()
# the small-input targets on the H200 (us, for k <= 1024): benchmarks to report, never pass/fail
TARGET_US = {2 ** 16: 10, 2 ** 20: 15, 2 ** 24: 30}
TARGET_K_MAX = 1024
if "small" not in sweeps:
    sys.exit(0)
print("small inputs, u32 UD, median us; timing: ours %s, peers %s (gpu: the call's GPU time, stream held; "
      "call: events around the call)" % (timing("measurements", small_ns), timing("peer_measurements", small_ns)))
print("  best = fastest of dr-radix/radix/onepass/fused (its name under it), auto = drtopk_plan_auto (tuner "
      "--compare), cub = CUB DeviceTopK's fastest configuration; target: H200, k <= %d" % TARGET_K_MAX)
print("%-6s %-8s " % ("n", "plan") + " ".join("%10s" % ("k=" + label(k)) for k in small_ks) + "  target")
plans = ["dr-radix", "radix", "onepass", "fused"]
for n in small_ns:
    got = {p: [ms(p, "u32", "UD", n, k) if k <= n else None for k in small_ks] for p in plans}
    best, which = [], []
    for i in range(len(small_ks)):
        have = [(got[p][i], p) for p in plans if got[p][i] is not None]
        best.append(min(have)[0] if have else None)
        which.append(min(have)[1] if have else "")
    rows = [("best", best), ("", which), ("auto", [auto("u32", "UD", n, k) if k <= n else None for k in small_ks])]
    rows += [(p.split("_")[0], [peer(p, "u32", "UD", n, k) if k <= n else None for k in small_ks])
             for p in ("cub_device_topk", "torch_topk")]
    for name, vals in rows:
        if all(v is None or v == "" for v in vals): continue
        cells = ["%10s" % (v if isinstance(v, str) else "-" if v is None else "%.1f" % (v * 1000)) for v in vals]
        tgt = "%4d us" % TARGET_US[n] if name == "best" and n in TARGET_US else ""
        print("%-6s %-8s " % (label(n) if name == "best" else "", name) + " ".join(cells) + "  " + tgt)
EOF
[ $? -eq 0 ] || rc=1
exit $rc
