#!/bin/bash
# fig19_real_speedup.sh -- Figure 19 (paper 6.1): speedup of Dr.-assisted radix,
# bucket and bitonic top-k over the plain algorithm vs k on the real data sets
# (issue 14 stores their rows; until then the "not measured" panel).  Verdict:
# the speedup is >= 1 at every measured (data set, algorithm, k).
. "$(dirname "$0")/lib/common.sh"
exp_begin fig19_real_speedup "Figure 19: speedup of Dr.-assisted top-k on real data sets vs k"

plot_one() {
    rows=$(exp_query real_data.sql "machine=$M_ID") ||
        { exp_fail "$M_SLUG" "$M_NAME" "$M_CAPTION" "query real_data.sql failed"; return; }
    sp=$(printf '%s\n' "$rows" | awk -F'|' '$6 != "-" && $6 > 0 && $5 > 0 { print $1 " " $4 "|" $3 "|" $5 / $6 }')
    [ -n "$sp" ] || { exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" \
        "no plain and Dr.-assisted rows on real data sets yet (issue 14: drtopk dataset, experiments/datasets.sh)"; return; }
    data=$(exp_data "$M_SLUG" "$sp")
    exp_plot fig19_real_speedup.gp "$EXP_TITLE" "data=$data" \
        "nseries=$(exp_nblocks "$data")" || return 0
    res=$(printf '%s\n' "$sp" | awk -F'|' '{ s[$1] += $3; c[$1]++; if ($3 < 1) bad = 1 }
        END { for (x in s) txt = txt sprintf("%s mean %.2fx; ", x, s[x] / c[x]); printf "%s\t%s\n", txt, bad ? "not held" : "held" }')
    exp_record "$M_SLUG" "$M_NAME" "$(exp_rows "$sp")" ok "${res%%	*}" "${res##*	}"
}
exp_for_machines plot_one
exp_end
