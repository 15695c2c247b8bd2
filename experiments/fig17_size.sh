#!/bin/bash
# fig17_size.sh -- Figure 17 (paper 6.1): top-k time vs |V| = 2^24..2^30 at
# k = 1024 on UD for every algorithm, plain and Dr.-assisted (Rule 4 alpha,
# beta 2), sort-and-choose and the modern peers included (peers: tests/gpu/run.sh
# step peers, imported with tuner --import-peers) each at its fastest valid
# configuration per point (the minimum over its measured configurations: CCCL
# version and item-count width for CUB; the caption names them).  Verdict: at the largest
# |V|, Dr.-radix is faster than radix, Dr.-bucket than bucket, Dr.-bitonic than
# bitonic.
. "$(dirname "$0")/lib/common.sh"
exp_begin fig17_size "Figure 17: top-k time vs |V| at k = 1024 (UD), plain and Dr.-assisted"
K=1024
sizes=$(exp_pow2_list 24 30 1)
if [ "$EXP_BACKEND" = cpu ]; then sizes="$(exp_n 24),$(exp_n 27),$(exp_n 30)"; fi
exp_measure --n "$sizes" --k $K --dist UD \
    --algo radix,dr-radix,radix-ggks,dr-radix-ggks,bucket,dr-bucket,bitonic,dr-bitonic,sort-cub,sort-thrust \
    --alpha-span 0 --beta 2

plot_one() {
    exp_fetch fig17_size.sql "no UD rows at k = $K in the database" "k=$K" || return 0
    data=$(exp_data "$M_SLUG" "$rows")
    peers=$(exp_query peer_configs.sql "machine=$M_ID" "dist='UD'" "k=$K") ||
        { exp_fail "$M_SLUG" "$M_NAME" "$M_CAPTION" "query peer_configs.sql failed"; return 0; }
    peer_note=""
    if [ -n "$peers" ]; then
        peer_note=$(printf '%s\n' "$peers" | awk -F'|' '{ n = split($2, c, " ")
            printf "%s%s: fastest of %d config%s (at 2^%d: %s)", (NR > 1 ? "; " : ""), $1, n, (n > 1 ? "s" : ""),
                   log($4) / log(2) + 0.5, $3 }')
        peer_note="peers at their fastest valid configuration per point: $peer_note"
    fi
    exp_plot fig17_size.gp "$EXP_TITLE" "data=$data" "note=$peer_note" \
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
            printf "at |V| = 2^%d: %s\n", e, out
            for (i = 1; i <= 3; ++i) {
                if (e == 30 && ((a[i], nmax) in ms) && (("dr-" a[i], nmax) in ms))
                    printf "%s_x\t%.4g\n", a[i], ms[a[i], nmax] / ms["dr-" a[i], nmax]
                else printf "%s_x\t-\t%s and dr-%s not both measured at |V| = 2^30\n", a[i], a[i], a[i] }
        }')
    if [ -n "$peer_note" ]; then
        res="$(printf '%s\n' "$res" | head -1) peers: $(printf '%s\n' "$peers" | awk -F'|' '{ printf "%s%s %s ms", (NR > 1 ? ", " : ""), $3, $5 }')
$(printf '%s\n' "$res" | tail -n +2)"
    fi
    exp_settle "$res" "$(exp_rows "$rows")"
}
exp_for_machines plot_one
exp_end
