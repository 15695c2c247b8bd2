#!/bin/bash
# fig22_filter_beta.sh -- Figure 22 (paper 6.2): Rule 2 filtering vs beta = 2
# delegates vs both, Dr.-radix time vs k at |V| = 2^30 (UD), with the optimized
# delegate build.  Verdict: both together are the fastest (within 3% noise)
# at every k where all three plans were measured.
. "$(dirname "$0")/lib/common.sh"
exp_begin fig22_filter_beta "Figure 22: filtering vs beta delegates vs both, Dr.-radix time vs k (UD)"
NOISE=1.03
N30=$(exp_n 30)
if [ "$EXP_QUICK" = 1 ]; then ks=$(exp_pow2_list 0 24 6); else ks=$(exp_pow2_list 0 24 2); fi
exp_measure --n "$N30" --k "$ks" --dist UD --algo dr-radix --alpha-span 0 --beta 1,2
exp_measure --n "$N30" --k "$ks" --dist UD --algo dr-radix --alpha-span 0 --beta 2 --no-filter

plot_one() {
    exp_fetch fig22_filter_beta.sql \
        "no dr-radix rows of these plans at |V| = $(exp_p2 "$N30")" "n=$N30" || return 0
    data=$(exp_data "$M_SLUG" "$rows")
    exp_plot fig22_filter_beta.gp "$EXP_TITLE, |V| = $(exp_p2 "$N30")" \
        "data=$data" "nseries=$(exp_nblocks "$data")" || return 0
    res=$(printf '%s\n' "$rows" | awk -F'|' -v tol="$NOISE" '
        { pl = ($1 ~ /^filtering only/) ? "f" : ($1 ~ /^beta/) ? "b" : "fb"; ms[pl, $2] = $3; ks[$2] = 1; if ($2 > km) km = $2 }
        END { n = 0; held = 1
              for (k in ks) if (((("f", k) in ms)) && (("b", k) in ms) && (("fb", k) in ms)) { ++n
                  if (ms["fb", k] > tol * ms["f", k] || ms["fb", k] > tol * ms["b", k]) held = 0 }
              txt = sprintf("k = 2^%d:", log(km) / log(2) + 0.5)
              split("f b fb", pls, " "); nm["f"] = "filtering"; nm["b"] = "beta"; nm["fb"] = "both"
              for (i = 1; i <= 3; ++i) txt = txt sprintf(" %s %s;", nm[pls[i]], ((pls[i], km) in ms) ? sprintf("%.2f ms", ms[pls[i], km]) : "not measured")
              printf "%s all three at %d k\t%s\n", txt, n, n ? (held ? "held" : "not held") : "not measured" }')
    exp_record "$M_SLUG" "$M_NAME" "$(exp_rows "$rows")" ok "${res%%	*}" "${res##*	}"
}
exp_for_machines plot_one
exp_end
