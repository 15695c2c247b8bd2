#!/bin/bash
# fig22_filter_beta.sh -- Figure 22 (paper 6.2): Rule 2 filtering vs beta = 2
# delegates vs both, Dr.-radix time vs k at |V| = 2^30 (UD), with the optimized
# delegate build.  Claims at the largest k all three plans measured: both over
# filtering, both over beta only, beta only over filtering (the paper: 2^24).
. "$(dirname "$0")/lib/common.sh"
exp_begin fig22_filter_beta "Figure 22: filtering vs beta delegates vs both, Dr.-radix time vs k (UD)"
N30=$(exp_n 30)
PAPER_FILTER_MS=54.2; PAPER_BETA_MS=35.9; PAPER_BOTH_MS=24.7    # Fig. 22 at k = 2^24 (V100S)
ks=$(exp_pow2_list 0 24 2)
exp_measure --n "$N30" --k "$ks" --dist UD --algo dr-radix --alpha-span 0 --beta 1,2
exp_measure --n "$N30" --k "$ks" --dist UD --algo dr-radix --alpha-span 0 --beta 2 --no-filter

plot_one() {
    exp_fetch fig22_filter_beta.sql \
        "no dr-radix rows of these plans at |V| = $(exp_p2 "$N30")" "n=$N30" || return 0
    data=$(exp_data "$M_SLUG" "$rows")
    # the paper's ms at k = 2^24 (Fig. 22, sec. 6.2: filtering 54.2, beta delegates 35.9, both 24.7)
    pp=$(exp_paper_points "$M_SLUG" "$((1 << 24)) $PAPER_FILTER_MS
$((1 << 24)) $PAPER_BETA_MS
$((1 << 24)) $PAPER_BOTH_MS")
    exp_plot fig22_filter_beta.gp "$EXP_TITLE, |V| = $(exp_p2 "$N30")" "paper=$pp" \
        "data=$data" "nseries=$(exp_nblocks "$data")" || return 0
    res=$(printf '%s\n' "$rows" | awk -F'|' '
        { pl = ($1 ~ /^filtering only/) ? "f" : ($1 ~ /^beta/) ? "b" : "fb"; ms[pl, $2] = $3; ks[$2] = 1 }
        END { n = 0; km = ""
              for (k in ks) if ((("f", k) in ms) && (("b", k) in ms) && (("fb", k) in ms)) { ++n; if (km == "" || k + 0 > km + 0) km = k }
              if (km == "") { print "the three plans never measured at one k"
                  split("both_vs_filter both_vs_beta beta_vs_filter", c, " ")
                  for (i = 1; i <= 3; ++i) printf "%s\t-\tthe three plans never measured at one k\n", c[i]; exit }
              printf "k = 2^%d (the largest of the %d k all three plans measured): filtering %.2f, beta %.2f, both %.2f ms\n",
                     log(km) / log(2) + 0.5, n, ms["f", km], ms["b", km], ms["fb", km]
              printf "both_vs_filter\t%.4g\nboth_vs_beta\t%.4g\nbeta_vs_filter\t%.4g\n",
                     ms["f", km] / ms["fb", km], ms["b", km] / ms["fb", km], ms["f", km] / ms["b", km] }')
    exp_settle "$res" "$(exp_rows "$rows")"
}
exp_for_machines plot_one
exp_end
