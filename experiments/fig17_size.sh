#!/bin/bash
# fig17_size.sh -- Figure 17 (paper 6.1): top-k time vs |V| = 2^24..2^30 at
# k = 1024 on UD for every algorithm, plain and Dr.-assisted (Rule 4 alpha,
# beta 2), sort-and-choose and the modern peers included (peers: tests/gpu/run.sh
# step peers, imported with tuner --import-peers).  Verdict: at the largest
# |V|, Dr.-radix is faster than radix, Dr.-bucket than bucket, Dr.-bitonic than
# bitonic.
. "$(dirname "$0")/lib/common.sh"
exp_begin fig17_size "Figure 17: top-k time vs |V| at k = 1024 (UD), plain and Dr.-assisted"
K=1024
if [ "$EXP_QUICK" = 1 ]; then sizes=$(exp_pow2_list 26 30 2); else sizes=$(exp_pow2_list 24 30 1); fi
if [ "$EXP_BACKEND" = cpu ]; then sizes="$(exp_n 24),$(exp_n 27),$(exp_n 30)"; fi
exp_measure --n "$sizes" --k $K --dist UD \
    --algo radix,dr-radix,radix-ggks,dr-radix-ggks,bucket,dr-bucket,bitonic,dr-bitonic,sort-cub,sort-thrust \
    --alpha-span 0 --beta 2

plot_one() {
    exp_fetch fig17_size.sql "no UD rows at k = $K in the database" "k=$K" || return 0
    data=$(exp_data "$M_SLUG" "$rows")
    exp_plot fig17_size.gp "$EXP_TITLE" "data=$data" \
        "nseries=$(exp_nblocks "$data")" "dashes=$(exp_dashes "$data")" || return 0
    # ours and the verdict at the largest |V|: every measured (plain, Dr.) pair
    res=$(printf '%s\n' "$rows" | awk -F'|' '
        { if ($2 > nmax) nmax = $2; ms[$1, $2] = $3 }
        END {
            e = 0; m = nmax; while (m > 1) { m /= 2; ++e }
            split("radix bucket bitonic sort-cub", a, " ")
            out = ""; held = 1; pairs = 0
            for (i = 1; i <= 4; ++i) {
                if ((a[i], nmax) in ms) out = out sprintf("%s %.2f ms; ", a[i], ms[a[i], nmax])
                if (("dr-" a[i], nmax) in ms) {
                    out = out sprintf("dr-%s %.2f ms; ", a[i], ms["dr-" a[i], nmax])
                    if ((a[i], nmax) in ms) { ++pairs; if (ms["dr-" a[i], nmax] >= ms[a[i], nmax]) held = 0 }
                }
            }
            printf "at |V| = 2^%d: %s\t%s\n", e, out, pairs ? (held ? "held" : "not held") : "not measured"
        }')
    exp_record "$M_SLUG" "$M_NAME" "$(exp_rows "$rows")" ok "${res%%	*}" "${res##*	}"
}
exp_for_machines plot_one
exp_end
