# workload.sh -- sourced by fig20_workload_size.sh and fig21_workload_k.sh
# (paper 6.2): |D|, |C| and their sum as % of |V| from the workload counters
# the tuner stores with every dr- measurement (experiments/sql/workload.sql).
# workload_run AXIS FIX: AXIS n (Figure 20: vs |V| at the k nearest FIX that is
# measured at 2 or more sizes; its claims judged only at k = FIX, the paper's)
# or k (Figure 21: vs k at |V| = FIX).
# Verdict: the sum's share falls as |V| grows (n) or rises as k grows (k),
# first against last point.
workload_run() {
    WL_AXIS="$1"; WL_FIX="$2"
    exp_for_machines workload_one
}

workload_one() {
    exp_fetch workload.sql "no dr-radix beta 2 workload rows on this GPU" || return 0
    sel=$(printf '%s\n' "$rows" | awk -F'|' -v axis="$WL_AXIS" -v fix="$WL_FIX" '
        { r[NR] = $0; ns[$2] = ns[$2] + 1 }
        END {
            if (axis == "n") {        # the k nearest fix (log scale) measured at >= 2 sizes
                best = ""; for (k in ns) if (ns[k] >= 2) { d = log(k / fix); if (d < 0) d = -d
                    if (best == "" || d < bd || (d == bd && k + 0 < best)) { best = k + 0; bd = d } }
                fix = best
            }
            for (i = 1; i <= NR; ++i) { split(r[i], f, "|")
                if (axis == "n" && f[2] == fix) print f[1], 100 * f[3] / f[1], 100 * f[4] / f[1], 100 * (f[3] + f[4]) / f[1], fix
                if (axis == "k" && f[1] == fix) print f[2], 100 * f[3] / f[1], 100 * f[4] / f[1], 100 * (f[3] + f[4]) / f[1], fix }
        }')
    [ -n "$sel" ] || { exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" "no dr-radix beta 2 workload rows for this sweep"; return; }
    fix=$(printf '%s\n' "$sel" | head -1 | cut -d' ' -f5)
    data="$EXP_DATA/${EXP_ID}-$M_SLUG.dat"
    printf '%s\n' "$sel" | exp_write "$data"
    if [ "$WL_AXIS" = n ]; then xname='|V| (elements)'; what="k = $(exp_p2 "$fix")"; else xname='k'; what="|V| = $(exp_p2 "$fix")"; fi
    if [ "$WL_AXIS" = n ]; then
        pp="$((1 << 22)) $(exp_paper share_small)
$((1 << 30)) $(exp_paper share_large)"
    else
        pp="1 $(exp_paper share_k1)
$((1 << 24)) $(exp_paper share_k24)"
    fi
    pp=$(exp_paper_points "$M_SLUG" "$pp")
    key=left; [ "$WL_AXIS" = n ] && key=right     # the corner the curves leave free
    exp_plot workload.gp "$EXP_TITLE, $what" "data=$data" "xname=$xname" "paper=$pp" "key=$key" || return 0
    # the paper's numbers are of its k: a run drawn at another k judges nothing
    off=""
    [ "$WL_AXIS" = n ] && [ "$fix" != "$WL_FIX" ] &&
        off="k = $(exp_p2 "$WL_FIX") not measured at 2 or more sizes (drawn at the nearest, $(exp_p2 "$fix"))"
    res=$(printf '%s\n' "$sel" | awk -v axis="$WL_AXIS" -v what="$what" -v off="$off" '
        NR == 1 { x0 = $1; s0 = $4 } { x1 = $1; s1 = $4; ++n }
        END { txt = sprintf("%s: (|D| + |C|) / |V| = %.4g%% at %s = 2^%d, %.4g%% at 2^%d", what, s0, axis, log(x0) / log(2) + 0.5, s1, log(x1) / log(2) + 0.5)
              print txt }
        # the paper'"'"'s points: |V| = 2^22 and 2^30 (Fig. 20), k = 1 and 2^24 (Fig. 21)
        BEGIN { if (axis == "n") { pa = 22; pb = 30; ka = "share_small"; kb = "share_large" }
                else { pa = 0; pb = 24; ka = "share_k1"; kb = "share_k24" } }
        { e = int(log($1) / log(2) + 0.5); if (e == pa) va = $4; if (e == pb) vb = $4 }
        END { if (off != "") { printf "%s\t-\t%s\n%s\t-\t%s\n", ka, off, kb, off; exit }
              printf "%s\t%s\tnot measured at 2^%d\n%s\t%s\tnot measured at 2^%d\n", ka, va == "" ? "-" : va, pa, kb, vb == "" ? "-" : vb, pb }')
    exp_settle "$res" "$(exp_rows "$sel")"
}
