#!/bin/bash
# tab1_datasets.sh -- Table 1 (paper 6): the real data sets measured on this
# machine (rows of bin/tuner --input that experiments/datasets.sh stores, the
# data set's name as the dist; lib/real_data.sh), |V|, key type and rows used,
# with what datasets.sh recorded about each (its Table 1 facts: source package,
# transformation, distinct values, ties at the k-th value for k = 2^24; from
# DRTOPK_DATASETS_DIR/table1.tsv, else the reference experiments/
# datasets_table1.tsv when |V| agrees).  Until rows exist, the "not measured"
# panel.  Verdict: held when each of the paper's three kinds of data (k-NN
# distances, graph degrees, scored posts) has rows at the paper's |V| scale
# (2^29 for k-NN, 2^30 for the others), else not held.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/real_data.sh"
exp_begin tab1_datasets "Table 1: real-world data sets"
TIES_K=16777216                 # the k whose ties the table shows (2^24, the largest of Figure 19)
facts="$RD_DIR/table1.tsv"
[ -s "$facts" ] || facts="$EXP_ROOT/experiments/datasets_table1.tsv"

plot_one() {
    exp_fetch real_data.sql "no rows on real data sets on this machine: $RD_HOWTO" || return 0
    data="$EXP_DATA/${EXP_ID}-$M_SLUG.txt"
    printf '%s\n' "$rows" | awk -F'|' -v facts="$facts" -v tk="$TIES_K" '
        BEGIN { FS = "\t"; while ((getline l < facts) > 0) { split(l, f, "\t")
                    if (f[1] == "dataset") continue
                    pkg[f[1], f[2]] = f[3]; tr[f[1], f[2]] = f[4]; dis[f[1], f[2]] = f[5]
                    if (f[6] == "largest" && f[7] == tk) ties[f[1], f[2]] = f[9] }
                FS = "|" }
        { n[$1] = $2; t[$1] = $3; c[$1]++ }
        END { printf "%-24s %11s %5s %5s %9s %8s  %-32s %s\n", "data set", "|V|", "type", "rows", "distinct",
                     "ties@2^24", "package", "transformation"
              m = 0; for (d in n) key[++m] = d
              for (i = 2; i <= m; ++i) for (j = i; j > 1 && key[j - 1] > key[j]; --j) { x = key[j]; key[j] = key[j - 1]; key[j - 1] = x }
              for (i = 1; i <= m; ++i) { d = key[i]; k2 = d SUBSEP n[d]
                  printf "%-24s %11d %5s %5d %9s %8s  %-32s %s\n", d, n[d], t[d], c[d], (k2 in dis) ? dis[k2] : "-",
                         (k2 in ties) ? ties[k2] : "-", (k2 in pkg) ? pkg[k2] : "-", (k2 in tr) ? tr[k2] : "-" } }' |
        exp_write "$data"
    exp_plot table.gp "$EXP_TITLE (ours; the paper: AN 536,870,912, CW and TR 1,073,741,824)" "data=$data" || return 0
    # the paper's three kinds at its scale: k-NN (fmnist-knn-*), degrees (graph-*), scores (tweets-*)
    res="$(tail -n +3 "$data" | awk '{ printf "%s%s (%s %s)", (NR > 1 ? ", " : ""), $1, $2, $3 }')
$(printf '%s\n' "$rows" | awk -F'|' '$1 ~ /knn/ && $2 > a { a = $2 } $1 ~ /^graph-/ && $2 > g { g = $2 } $1 ~ /^tweets-/ && $2 > t { t = $2 }
    END { printf "knn_size\t%s\tno k-NN set\ngraph_size\t%s\tno graph set\ntweets_size\t%s\tno tweet set\n",
                 a ? a : "-", g ? g : "-", t ? t : "-" }')"
    exp_settle "$res" "$(exp_rows "$rows")"
}
exp_for_machines plot_one
exp_end
