#!/bin/bash
# tab1_datasets.sh -- Table 1 (paper 6): the real data sets, |V|, and how many
# rows each has in the database.  The rows come from the real-data issue (14:
# drtopk dataset, experiments/datasets.sh); until they exist the table is the
# "not measured" panel.  Verdict: held when every data set of the paper (AN,
# CW, TR or its stand-in) has rows -- here: when any real data set has rows.
. "$(dirname "$0")/lib/common.sh"
exp_begin tab1_datasets "Table 1: real-world data sets"

plot_one() {
    exp_fetch real_data.sql \
        "no rows on real data sets yet (issue 14: drtopk dataset, experiments/datasets.sh)" || return 0
    data="$EXP_DATA/${EXP_ID}-$M_SLUG.txt"
    printf '%s\n' "$rows" | awk -F'|' '{ n[$1] = $2; c[$1]++ } END {
        printf "%-24s %14s %8s\n", "data set", "|V|", "rows"
        for (d in n) printf "%-24s %14d %8d\n", d, n[d], c[d] }' | exp_write "$data"
    exp_plot table.gp "$EXP_TITLE" "data=$data" || return 0
    exp_record "$M_SLUG" "$M_NAME" "$(exp_rows "$rows")" ok \
        "$(tail -n +2 "$data" | awk '{ printf "%s%s (%s)", (NR > 1 ? ", " : ""), $1, $2 }')" held
}
exp_for_machines plot_one
exp_end
