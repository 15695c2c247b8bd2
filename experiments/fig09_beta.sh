#!/bin/bash
# fig09_beta.sh -- Figure 9 (paper 4.3): Dr.-radix performance vs beta,
# normalized to beta = 1, (a) over k at |V| = 2^30, (b) over |V| at k = 2^25 or
# the largest k measured at two or more sizes.  Claims: beta 2 over beta 1 at
# k = 2^24 in (a), and beta 2 against the best beta at every |V| of (b).
. "$(dirname "$0")/lib/common.sh"
exp_begin fig09_beta "Figure 9: Dr.-radix performance vs beta, normalized to beta = 1 (UD)"
N30=$(exp_n 30)
ka=$(exp_pow2_list 0 24 2); sizes=$(exp_pow2_list 26 30 1)
[ "$EXP_BACKEND" = cpu ] && sizes="$(exp_n 28),$(exp_n 30)"
exp_measure --n "$N30" --k "$ka" --dist UD --algo dr-radix --alpha-span 0 --beta 1,2,3,4
exp_measure --n "$sizes" --k "$(exp_n 25)" --dist UD --algo dr-radix --alpha-span 0 --beta 1,2,3,4

plot_one() {
    exp_fetch fig09_beta.sql "no dr-radix rows with beta 1 and more on this machine" || return 0
    a=$(printf '%s\n' "$rows" | awk -F'|' -v n="$N30" '$1 == n { ms[$2, $3] = $4; if ($3 == 1) one[$2] = $4 }
            END { for (kb in ms) { split(kb, x, SUBSEP); if (x[1] in one) print "beta = " x[2] "|" x[1] "|" one[x[1]] / ms[kb] } }' |
        sort -t'|' -k1,1 -k2,2n)
    [ -n "$a" ] || { exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" "no dr-radix rows at |V| = $N30 with beta 1 and more"; return; }
    kb=$(printf '%s\n' "$rows" | awk -F'|' -v kmax=$((1 << 25)) '$3 == 1 && $2 <= kmax { ns[$2] = ns[$2] + 1 }
            END { best = 0; for (k in ns) if (ns[k] >= 2 && k + 0 > best) best = k + 0; print best }')
    b=$(printf '%s\n' "$rows" | awk -F'|' -v k="$kb" '$2 == k { ms[$1, $3] = $4; if ($3 == 1) one[$1] = $4 }
            END { for (nb in ms) { split(nb, x, SUBSEP); if (x[1] in one) print "beta = " x[2] "|" x[1] "|" one[x[1]] / ms[nb] } }' |
        sort -t'|' -k1,1 -k2,2n)
    fa=$(exp_data "$M_SLUG-a" "$a")
    fb=$(exp_data "$M_SLUG-b" "$b")
    pp=$(exp_paper_points "$M_SLUG" "$((1 << 24)) $(exp_paper beta2_a)")
    exp_plot fig09_beta.gp "$EXP_TITLE" "data_a=$fa" "data_b=$fb" "paper=$pp" \
        "na=$(exp_nblocks "$fa")" "nb=$(exp_nblocks "$fb")" "n_label=$(exp_p2 "$N30")" "kb_label=$(exp_p2 "$kb")" || return 0
    # (a): beta 2 over beta 1 at the paper's k = 2^24 (else the largest k measured);
    # (b): beta 2's speed over the best beta's at each |V|, the worst of them
    res=$(printf '%s\n--\n%s\n' "$a" "$b" | awk -F'|' -v k24=$((1 << 24)) '
        $0 == "--" { part = 1; next }
        NF < 3 { next }
        { bb = $1; sub(/beta = /, "", bb) }
        part == 0 { ra[$2, bb] = $3; if (bb == 2 && ($2 == k24 || ka == "" || ($2 > ka && ka != k24))) ka = $2 }
        part == 1 { rb[$2, bb] = $3; ns[$2] = 1 }
        END { txt = ""
              if (ka != "") txt = sprintf("(a) beta 2 %.2fx of beta 1 at k = 2^%d", ra[ka, 2], log(ka) / log(2) + 0.5)
              worst = ""
              for (n in ns) { if (!((n, 2) in rb)) continue; m = 0
                  for (x in rb) { split(x, y, SUBSEP); if (y[1] == n && rb[x] > m) m = rb[x] }
                  r = rb[n, 2] / m; if (worst == "" || r < worst) { worst = r; wn = n } }
              if (worst != "") txt = txt sprintf("; (b) beta 2 at worst %.2fx of the best beta (|V| = 2^%d)", worst, log(wn) / log(2) + 0.5)
              print (txt == "" ? "beta 2 not measured" : txt)
              if (ka != "") printf "beta2_a\t%.4g\n", ra[ka, 2]; else print "beta2_a\t-\tbeta 2 not measured at |V| = 2^30"
              if (worst != "") printf "beta2_b\t%.4g\n", worst; else print "beta2_b\t-\tno |V| sweep with beta 1 and 2 (panel b)" }')
    exp_settle "$res" "$(exp_rows "$rows")"
}
exp_for_machines plot_one
exp_end
