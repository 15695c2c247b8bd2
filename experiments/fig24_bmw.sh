#!/bin/bash
# fig24_bmw.sh -- Figure 24 (paper 6.6): the ratio of the elements a BMW-style
# scan still evaluates one by one to Dr. Top-k's workload |D| + |C| (the sum of
# the first and second top-k's), over k at |V| = 2^30 on UD and ND.  With a GPU
# the counts are made by `tuner --bmw` (host counts of src/harness/bmw.c on the
# seeded data at Rule 4's alpha and beta 2, no timing; table counters, schema
# 7) for the machine measured; without rows the "not measured" panel.
# Claims: the mean ratio over k on UD and on ND, each not measured until counted.
. "$(dirname "$0")/lib/common.sh"
exp_begin fig24_bmw "Figure 24: BMW fully-evaluated workload over Dr. Top-k's, |V| = 2^30"
N30=$(exp_n 30)
BMW_CALL_MINUTES=8              # at most one 9-minute GPU call (run_all.sh --budget)
ks=$(exp_pow2_list 0 24 2)
# ND first, and one call may take the whole --quick budget left: the host counts
# of one distribution run at once, one k per core, and the longest (UD, k = 2^24)
# outlasts the 2-minute calls of the other figures (resumable: a rerun counts
# only what is missing)
EXP_QUICK_MINUTES=$BMW_CALL_MINUTES
exp_measure --bmw --n "$N30" --k "$ks" --dist ND,UD --algo dr-radix --alpha-span 0 --beta 2

plot_one() {
    if ! exp_has_table counters; then
        exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" \
            "this database predates table counters (schema 7): no BMW counts (run_all.sh --gpu N, or tuner --bmw)"
        return 0
    fi
    exp_fetch fig24_bmw.sql "no BMW counts on this machine (run_all.sh --gpu N counts them: tuner --bmw)" || return 0
    data=$(exp_data "$M_SLUG" "$(printf '%s\n' "$rows" | cut -d'|' -f1-3)")
    exp_plot fig24_bmw.gp "$EXP_TITLE" "data=$data" "paper_ud=$(exp_paper ratio_ud)" "paper_nd=$(exp_paper ratio_nd)" \
        "nseries=$(exp_nblocks "$data")" || return 0
    res=$(printf '%s\n' "$rows" | awk -F'|' '{ s[$1] += $3; c[$1]++; n = $4 }
        END { e = 0; while (n > 1) { n /= 2; ++e }
              txt = sprintf("at |V| = 2^%d:", e)
              for (i = 1; i <= 2; ++i) { d = (i == 1) ? "UD" : "ND"
                  txt = txt (d in s ? sprintf(" %s mean ratio %.1fx over %d k;", d, s[d] / c[d], c[d]) : sprintf(" %s never counted;", d)) }
              print txt
              for (i = 1; i <= 2; ++i) { d = (i == 1) ? "UD" : "ND"
                  if (d in s) printf "ratio_%s\t%.4g\n", tolower(d), s[d] / c[d]
                  else printf "ratio_%s\t-\t%s never counted (tuner --bmw on %s)\n", tolower(d), d, d } }')
    exp_settle "$res" "$(exp_rows "$rows")"
}
exp_for_machines plot_one
exp_end
