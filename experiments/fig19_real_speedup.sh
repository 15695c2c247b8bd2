#!/bin/bash
# fig19_real_speedup.sh -- Figure 19 (paper 6.1): speedup of Dr.-assisted radix,
# bucket and bitonic top-k over the plain algorithm vs k on the real data sets
# (Table 1): rows of bin/tuner --input that experiments/datasets.sh
# stores (with a GPU this script runs it on the prepared data sets:
# lib/real_data.sh); until they exist the "not measured" panel.  Verdict: the
# speedup is >= 1 at every measured (data set, algorithm, k).
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/real_data.sh"
exp_begin fig19_real_speedup "Figure 19: speedup of Dr.-assisted top-k on real data sets vs k"
rd_measure

plot_one() {
    exp_fetch real_data.sql "no rows on real data sets on this machine: $RD_HOWTO" || return 0
    sp=$(printf '%s\n' "$rows" | awk -F'|' '$7 != "-" && $7 > 0 && $6 > 0 { print $1 " " $5 "|" $4 "|" $6 / $7 }')
    [ -n "$sp" ] || { exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" \
        "no plain and Dr.-assisted rows on real data sets on this machine: $RD_HOWTO"; return; }
    data=$(exp_data "$M_SLUG" "$sp")
    exp_plot fig19_real_speedup.gp "$EXP_TITLE" "data=$data" \
        "nseries=$(exp_nblocks "$data")" || return 0
    # ours: the mean speedup per (data set, algorithm), as the paper gives them
    res=$(printf '%s\n' "$sp" | awk -F'|' '{ s[$1] += $3; c[$1]++; a = $1; sub(/^[^ ]* /, "", a); sa[a] += $3; ca[a]++ }
        END { n = 0; for (x in s) key[++n] = x
              for (i = 2; i <= n; ++i) for (j = i; j > 1 && key[j - 1] > key[j]; --j) { t = key[j]; key[j] = key[j - 1]; key[j - 1] = t }
              for (i = 1; i <= n; ++i) txt = txt sprintf("%s mean %.2fx; ", key[i], s[key[i]] / c[key[i]])
              print txt
              split("radix bucket bitonic", b, " ")
              for (i = 1; i <= 3; ++i) if (b[i] in sa) printf "%s_mean\t%.4g\n", b[i], sa[b[i]] / ca[b[i]]
                                       else printf "%s_mean\t-\tdr-%s not measured on real data\n", b[i], b[i] }')
    exp_settle "$res" "$(exp_rows "$sp")"
}
exp_for_machines plot_one
exp_end
