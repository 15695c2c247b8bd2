#!/bin/bash
# fig14_oracle.sh -- Figure 14 (paper 5.2): time at the oracle alpha vs at the
# auto-tuned alpha (Rule 4 with const 3, and with the tuner's fitted const) per k
# at |V| = 2^30, the oracle searched over 5 or more alphas (the sweep's 9 around
# Rule 4's; fig14_oracle.sql says why).  Verdict:
# Rule 4 with const 3 is on average within 10% of the oracle.
. "$(dirname "$0")/lib/common.sh"
exp_begin fig14_oracle "Figure 14: oracle alpha vs auto-tuned alpha (Rule 4), Dr.-radix, UD"
NEAR_ORACLE=1.10            # "performance alignment": mean slowdown within 10%
N30=$(exp_n 30)
ks=$(exp_pow2_list 0 24 2); span=4
exp_measure --n "$N30" --k "$ks" --dist UD --algo dr-radix --alpha-span $span --beta 2

plot_one() {
    exp_fetch fig14_oracle.sql \
        "no dr-radix beta 2 rows at |V| = $(exp_p2 "$N30") measured at 5 or more alphas" "n=$N30" || return 0
    data=$(exp_columns "$M_SLUG" "$rows")
    exp_plot fig14_oracle.gp "$EXP_TITLE, |V| = $(exp_p2 "$N30")" \
        "data=$data" || return 0
    res=$(printf '%s\n' "$rows" | awk -F'|' -v tol="$NEAR_ORACLE" '
        $5 != "-" { s3 += $5 / $3; ++n3; if ($5 / $3 > w3) w3 = $5 / $3 }
        $7 != "-" { sf += $7 / $3; ++nf; if ($7 / $3 > wf) wf = $7 / $3 }
        END { if (!n3) { print "Rule 4 alpha (const 3) not measured\nrule4_slowdown\t-\tRule 4 alpha (const 3) not measured"; exit }
              txt = sprintf("const 3: mean %.3fx, worst %.3fx of the oracle over %d k", s3 / n3, w3, n3)
              if (nf) txt = txt sprintf("; fitted const: mean %.3fx, worst %.3fx", sf / nf, wf)
              printf "%s\nrule4_slowdown\t%.4g\n", txt, s3 / n3 }')
    exp_settle "$res" "$(exp_rows "$rows")"
}
exp_for_machines plot_one
exp_end
