#!/bin/bash
# fig12_radix.sh -- Figure 12 (paper 5.1): speedup of the flag-based in-place
# radix top-k over GGKS in-place radix vs k at |V| = 2^21 on UD.  Verdict: the
# mean speedup over k is > 1 (the paper: 10.7x on average).
. "$(dirname "$0")/lib/common.sh"
exp_begin fig12_radix "Figure 12: flag-based in-place radix vs GGKS in-place radix, speedup vs k (|V| = 2^21, UD)"
N21=$(exp_n 21)
ks=$(exp_pow2_list 0 20 1)
exp_measure --n "$N21" --k "$ks" --dist UD --algo radix,radix-ggks

plot_one() {
    exp_fetch fig12_radix.sql \
        "no radix and radix-ggks rows at |V| = $(exp_p2 "$N21") (the paper's size; run with --gpu N)" "n=$N21" || return 0
    data=$(exp_columns "$M_SLUG" "$rows")
    exp_plot fig12_radix.gp "$EXP_TITLE" "data=$data" \
        "n_label=$(exp_p2 "$N21")" "paper_mean=$(exp_paper mean_speedup)" || return 0
    res=$(printf '%s\n' "$rows" | awk -F'|' '{ s += $4; ++n; if (lo == "" || $4 < lo) lo = $4; if ($4 > hi) hi = $4 }
        END { printf "mean speedup %.2fx (%.2fx-%.2fx over %d k)\nmean_speedup\t%.4g\n", s / n, lo, hi, n, s / n }')
    exp_settle "$res" "$(exp_rows "$rows")"
}
exp_for_machines plot_one
exp_end
