#!/bin/bash
# fig24_bmw.sh -- Figure 24 (paper 6.6): the ratio of the workload a BMW-style
# scan still evaluates element by element to Dr. Top-k's |D| + |C|
# (drtopk_bmw_workload, drtopk_bmw_drtopk_workload in src/harness/bmw.c; CPU
# counts, no timing) over k on UD and ND.  No program stores these counts yet
# (table bmw_workload: n, k, dist, alpha, bmw_evaluated, dr_workload); until one
# does the figure is the "not measured" panel.  Verdict: the ratio is > 1 at
# every measured point.
. "$(dirname "$0")/lib/common.sh"
exp_begin fig24_bmw "Figure 24: BMW fully-evaluated workload over Dr. Top-k's"
plot_one() {
    if ! exp_has_table bmw_workload; then
        exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" \
            "no program stores drtopk_bmw_workload counts yet (a CPU-only sweep into a table bmw_workload)"
        return 0
    fi
    exp_fetch fig24_bmw.sql "no BMW workload rows on this machine" || return 0
    data=$(exp_data "$M_SLUG" "$rows")
    exp_plot fig24_bmw.gp "$EXP_TITLE" "data=$data" \
        "nseries=$(exp_nblocks "$data")" || return 0
    res=$(printf '%s\n' "$rows" | awk -F'|' '{ s[$1] += $3; c[$1]++; if ($3 <= 1) bad = 1 }
        END { for (d in s) txt = txt sprintf("%s mean ratio %.1fx; ", d, s[d] / c[d]); printf "%s\t%s\n", txt, bad ? "not held" : "held" }')
    exp_record "$M_SLUG" "$M_NAME" "$(exp_rows "$rows")" ok "${res%%	*}" "${res##*	}"
}
exp_for_machines plot_one
exp_end
