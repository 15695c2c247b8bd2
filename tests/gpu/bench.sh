#!/bin/sh
# bench.sh -- the pipeline's benchmark (paper Figures 6-15 setting): |V| = 2^30,
# k = 2^0, 2^2, ..., 2^24, plan from Rule 4 with const 3 and beta 2, through
# `drtopk run --backend cuda --reps 7 --json`: median total ms, per-stage ms,
# achieved GB/s (4 n bytes over the total, and over the delegate stage),
# delegate and concatenated lengths; UD u32, then ND u32 and UD f32.  The
# read-once time of 2^30 u32 (dh_dev_read_ms, in the JSON) is the floor.
# Then the heavy-tie rows: ND u32 at fixed plans that once
# blew up (alpha 8, beta 2: 21 ms at k = 2^22 on an H200), BENCH_TIES
# ("DIST:DTYPE:ALPHA:BETA" ...), k = 2^20, 2^22, 2^24, printed as a second table.
# Environment: DRTOPK (default bin/drtopk), BENCH_JSON (raw JSON lines, default
# /dev/null), BENCH_SETS ("UD:u32 ND:u32 UD:f32"), BENCH_KMAX_LOG (24).
set -u
DRTOPK=${DRTOPK:-bin/drtopk}
BENCH_JSON=${BENCH_JSON:-/dev/null}
BENCH_SETS=${BENCH_SETS:-"UD:u32 ND:u32 UD:f32"}
BENCH_KMAX_LOG=${BENCH_KMAX_LOG:-24}
BENCH_TIES=${BENCH_TIES:-"ND:u32:8:2 ND:u32:9:3"}
TIE_KS="20 22 24"
N_LOG=30
REPS=7
RULE4_CONST=3
BETA=2

[ -x "$DRTOPK" ] || { echo "bench.sh: $DRTOPK not built (ninja bin/drtopk)"; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.ties"' EXIT
for set in $BENCH_SETS; do
    dist=${set%%:*}
    dtype=${set##*:}
    p=0
    while [ "$p" -le "$BENCH_KMAX_LOG" ]; do
        if "$DRTOPK" run --backend cuda --n "2^$N_LOG" --k "2^$p" --dist "$dist" --dtype "$dtype" \
               --const "$RULE4_CONST" --beta "$BETA" --reps "$REPS" --json > "$tmp.one" 2> "$tmp.err"; then
            cat "$tmp.one" >> "$tmp"
        else
            echo "bench.sh: $dist $dtype k=2^$p failed: $(cat "$tmp.err")"
        fi
        p=$((p + 2))
    done
done
: > "$tmp.ties"
for set in $BENCH_TIES; do
    dist=$(echo "$set" | cut -d: -f1); dtype=$(echo "$set" | cut -d: -f2)
    alpha=$(echo "$set" | cut -d: -f3); beta=$(echo "$set" | cut -d: -f4)
    for p in $TIE_KS; do
        if "$DRTOPK" run --backend cuda --n "2^$N_LOG" --k "2^$p" --dist "$dist" --dtype "$dtype" \
               --alpha "$alpha" --beta "$beta" --reps "$REPS" --json > "$tmp.one" 2> "$tmp.err"; then
            cat "$tmp.one" >> "$tmp.ties"
        else
            echo "bench.sh: $dist $dtype alpha $alpha beta $beta k=2^$p failed: $(cat "$tmp.err")"
        fi
    done
done
cat "$tmp" "$tmp.ties" >> "$BENCH_JSON"
rm -f "$tmp.one" "$tmp.err"
python3 - "$tmp" "$tmp.ties" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ties = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
if not rows:
    sys.exit("bench.sh: no results")
g = rows[0]["gpu"]
floor = min(r["read_floor_ms"] for r in rows if r.get("read_floor_ms"))
gb = lambda n, ms: (4 * n / ms / 1e6) if ms else 0.0
print(f"GPU: {g['name']} ({g['uuid']}), {g['sm_count']} SMs; |V| = 2^30; plan: Rule 4 const 3, beta 2")
print(f"read-once floor of 2^30 u32 (dh_dev_read_ms): {floor:.3f} ms = {gb(2**30, floor):.0f} GB/s")
last = None
for r, fixed in [(r, False) for r in rows] + [(r, True) for r in ties]:
    key = (r["dist"], r["dtype"], fixed and (r["plan"]["alpha"], r["plan"]["beta"]))
    if key != last:
        label = f"fixed plan alpha {r['plan']['alpha']}, beta {r['plan']['beta']} (heavy ties)" if fixed else ""
        print(f"\n{r['dist']} {r['dtype']} {label}")
        print(f"{'k':>6} {'alpha':>5} {'total':>7} {'min':>7} {'deleg':>7} {'first':>7} {'concat':>7} {'second':>7}"
              f" {'GB/s':>6} {'delGB/s':>7} {'|D|':>10} {'sel':>9} {'|C|':>10} {'scanned':>9} {'xfloor':>6}")
        last = key
    s = r["stage_ms_median"]
    k = r["k"]
    print(f"{'2^%d' % (k.bit_length() - 1):>6} {r['plan']['alpha']:>5} {r['ms_median']:7.3f} {r['ms_min']:7.3f}"
          f" {s['delegate'] or 0:7.3f} {s['first'] or 0:7.3f} {s['concat'] or 0:7.3f} {s['second'] or 0:7.3f}"
          f" {gb(r['n'], r['ms_median']):6.0f} {gb(r['n'], s['delegate']):7.0f} {r['delegate_len']:>10}"
          f" {r['first_selected']:>9} {r['concat_len']:>10} {r['scanned_subranges']:>9} {r['ms_median'] / floor:6.2f}")
PY
