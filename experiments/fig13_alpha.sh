#!/bin/bash
# fig13_alpha.sh -- Figure 13 (paper 5.2): Dr.-radix time vs alpha at k = 2^13
# (or the nearest k measured at 3 or more alphas) for several |V| on UD, Rule 4's
# alpha marked.  Verdict (convexity): for every |V| the time falls to its
# minimum and rises after it, each step within 3% noise.
. "$(dirname "$0")/lib/common.sh"
exp_begin fig13_alpha "Figure 13: Dr.-radix time vs alpha per |V| (UD, beta 2)"
K13=$((1 << 13))
NOISE=1.03                  # a step against the trend within 3% counts as noise
MIN_ALPHAS=3                # a series of fewer alphas has no shape to judge
sizes=$(exp_pow2_list 24 30 2); span=6
[ "$EXP_BACKEND" = cpu ] && sizes="$(exp_n 28),$(exp_n 30)"
exp_measure --n "$sizes" --k $K13 --dist UD --algo dr-radix --alpha-span $span --beta 2

plot_one() {
    exp_fetch fig13_alpha.sql "no dr-radix beta 2 k measured at 3 or more alphas" "k=$K13" || return 0
    k=$(printf '%s\n' "$rows" | head -1 | cut -d'|' -f2)
    data=$(exp_data "$M_SLUG" "$(printf '%s\n' "$rows" | awk -F'|' '{ e = int(log($1) / log(2) + 0.5); print "n = 2^" e "|" $3 "|" $4 }')")
    marks="$EXP_DATA/${EXP_ID}-$M_SLUG.marks"
    printf '%s\n' "$rows" | awk -F'|' '{ ms[$1, $3] = $4; a3[$1] = $5; af[$1] = $6 }
        END { for (n in a3) if ((n, a3[n]) in ms) print a3[n], ms[n, a3[n]]; print ""; print ""
              for (n in af) if ((n, af[n]) in ms) print af[n], ms[n, af[n]]; print "NaN NaN" }' | exp_write "$marks"
    title="$EXP_TITLE"
    [ "$k" = "$K13" ] || title="$EXP_TITLE; k = $(exp_p2 "$k"), nearest measured to the paper’s 2^13"
    exp_plot fig13_alpha.gp "$title" "data=$data" "marks=$marks" \
        "nseries=$(exp_nblocks "$data")" || return 0
    res=$(printf '%s\n' "$rows" | awk -F'|' -v tol="$NOISE" -v k="$k" -v min="$MIN_ALPHAS" '
        { if ($1 != cur) { cur = $1; ns[++nn] = $1; c[nn] = 0 } ++c[nn]; ms[nn, c[nn]] = $4; al[nn, c[nn]] = $3; a3[nn] = $5 }
        END { txt = ""; n = 0; good = 0
              for (i = 1; i <= nn; ++i) { b = 1; for (j = 2; j <= c[i]; ++j) if (ms[i, j] < ms[i, b]) b = j
                  e = int(log(ns[i]) / log(2) + 0.5)
                  if (c[i] < min) { txt = txt sprintf("2^%d: %d alpha(s), too few; ", e, c[i]); continue }
                  ok = 1; ++n
                  for (j = 2; j <= b; ++j) if (ms[i, j] > ms[i, j - 1] * tol) ok = 0
                  for (j = b + 1; j <= c[i]; ++j) if (ms[i, j] * tol < ms[i, j - 1]) ok = 0
                  good += ok
                  txt = txt sprintf("2^%d: best alpha %d, Rule 4 (c=3) %d, %s; ", e, al[i, b], a3[i], ok ? "convex" : "not convex") }
              printf "k = 2^%d: %s%d of %d series with %d+ alphas convex within 3%% noise\n", log(k) / log(2) + 0.5, txt, good, n, min
              if (n) printf "convex\t%.4g\n", good / n
              else printf "convex\t-\tno |V| measured at %d or more alphas at this k\n", min }')
    exp_settle "$res" "$(exp_rows "$rows")"
}
exp_for_machines plot_one
exp_end
