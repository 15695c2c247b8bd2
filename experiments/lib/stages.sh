# stages.sh -- sourced by fig06_rule1.sh, fig07_filter.sh, fig10_beta_delegate.sh
# and fig15_delegate_build.sh (paper 4.1-4.3, 5.3): the Dr.-radix stage
# breakdown vs k at |V| = 2^30 (UD) for one plan, measured through bin/tuner with
# the plan flags that plan needs, plotted by figures/stages.gp.
# stages_run BETA FLAGS TUNER_FLAGS PREV_BETA PREV_FLAGS VERDICT_KIND
#   FLAGS, PREV_FLAGS: plan flags (-1: the default flags); PREV_*: the plan of the
#   figure before (the verdict compares with it; PREV_BETA 0: none).
#   VERDICT_KIND: flat-delegate (Fig 6), total (Figs 7, 10: total at the largest k
#   both plans measured below the previous plan's), delegate (Fig 15: delegate
#   construction and total there below the previous plan's).
stages_run() {
    ST_BETA="$1"; ST_FLAGS="$2"; ST_TUNER="$3"; ST_PBETA="$4"; ST_PFLAGS="$5"; ST_KIND="$6"
    N30=$(exp_n 30)
    if [ "$EXP_QUICK" = 1 ]; then ks=$(exp_pow2_list 0 24 4); else ks=$(exp_pow2_list 0 24 1); fi
    # shellcheck disable=SC2086
    exp_measure --n "$N30" --k "$ks" --dist UD --algo dr-radix --alpha-span 0 --beta "$ST_BETA" $ST_TUNER
    exp_for_machines stages_one
}

stages_one() {
    exp_fetch stages.sql \
        "no dr-radix rows at |V| = $(exp_p2 "$N30"), beta $ST_BETA with this plan's flags (run with --gpu N)" "n=$N30" "beta=$ST_BETA" "flags=$ST_FLAGS" || return 0
    data=$(exp_columns "$M_SLUG" "$rows")
    exp_plot stages.gp "$EXP_TITLE" "data=$data" || return 0
    prev=""
    if [ "$ST_PBETA" != 0 ]; then
        prev=$(exp_query stages.sql "machine=$M_ID" "n=$N30" "beta=$ST_PBETA" "flags=$ST_PFLAGS") || prev=""
    fi
    res=$(printf '%s\n--\n%s\n' "$rows" "$prev" | awk -F'|' -v kind="$ST_KIND" '
        $0 == "--" { part = 1; next }
        NF < 6 { next }
        part == 0 { k = $1; cur[k] = $0; if (k > kmax) kmax = k
                    if (k <= 32768) { if (dmin == "" || $2 < dmin) dmin = $2; if ($2 > dmax) dmax = $2 } }
        part == 1 { old[$1] = $0 }
        END {
            # the comparisons: at the largest k both plans measured
            if (kind != "flat-delegate") for (k in old) if ((k in cur) && k + 0 > kboth + 0) kboth = k
            if (kboth != "") kmax = kboth
            split(cur[kmax], c, "|"); e = int(log(kmax) / log(2) + 0.5)
            txt = sprintf("k = 2^%d: delegate %.2f, first %.2f, concat %.2f, second %.2f, total %.2f ms", e, c[2], c[3], c[4], c[5], c[6])
            if (kind == "flat-delegate") {
                if (dmin == "") { v = "not measured" }
                else { v = (dmax <= 1.25 * dmin) ? "held" : "not held"
                       txt = txt sprintf("; delegate %.2f-%.2f ms for k <= 2^15", dmin, dmax) }
            } else if (!(kmax in old)) { v = "not measured"; txt = txt "; the previous plan is not measured at this k" }
            else {
                split(old[kmax], o, "|")
                txt = txt sprintf("; previous plan: delegate %.2f, total %.2f ms", o[2], o[6])
                v = (c[6] < o[6] && (kind != "delegate" || c[2] < o[2])) ? "held" : "not held"
            }
            printf "%s\t%s\n", txt, v
        }')
    exp_record "$M_SLUG" "$M_NAME" "$(exp_rows "$rows")" ok "${res%%	*}" "${res##*	}"
}
