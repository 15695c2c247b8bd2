# stages.sh -- sourced by fig06_rule1.sh, fig07_filter.sh, fig10_beta_delegate.sh
# and fig15_delegate_build.sh (paper 4.1-4.3, 5.3): the Dr.-radix stage
# breakdown vs k at |V| = 2^30 (UD) for one plan, measured through bin/tuner with
# the plan flags that plan needs, plotted by figures/stages.gp.
# stages_run BETA FLAGS TUNER_FLAGS PREV_BETA PREV_FLAGS VERDICT_KIND
#   FLAGS, PREV_FLAGS: plan flags (-1: the default flags); PREV_*: the plan of the
#   figure before (the verdict compares with it; PREV_BETA 0: none).
#   VERDICT_KIND (the claims of figures/claims.tsv): flat-delegate (Fig 6: delegate
#   construction max/min over k <= 2^15), second (Fig 7: the previous plan's second
#   top-k over this one's), total (Fig 10: the totals), delegate (Fig 15: delegate
#   construction and totals), at the largest k both plans measured where their flags differ.
stages_run() {
    ST_BETA="$1"; ST_FLAGS="$2"; ST_TUNER="$3"; ST_PBETA="$4"; ST_PFLAGS="$5"; ST_KIND="$6"
    N30=$(exp_n 30)
    # every k the paper shows, also with --quick on a GPU (25 rows a plan, seconds); the CPU
    # backend's --quick check takes every 4th (its budget is the other figures' too)
    ks=$(exp_pow2_list 0 24 1)
    if [ "$EXP_QUICK" = 1 ] && [ "$EXP_BACKEND" = cpu ]; then ks=$(exp_pow2_list 0 24 4); fi
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
        NF < 7 { next }
        part == 0 { k = $1; cur[k] = $0; if (k > kmax) kmax = k
                    if (k <= 32768) { if (dmin == "" || $2 < dmin) dmin = $2; if ($2 > dmax) dmax = $2 } }
        part == 1 { old[$1] = $0 }
        END {
            # the comparisons: at the largest k both plans measured where their
            # flags differ (at alpha > 7 the optimized build is off: the same plan)
            kboth = ""
            if (kind != "flat-delegate") for (k in old) if ((k in cur)) {
                split(cur[k], c, "|"); split(old[k], o, "|")
                if (c[7] != o[7] && (kboth == "" || k + 0 > kboth + 0)) kboth = k }
            if (kboth != "") kmax = kboth
            split(cur[kmax], c, "|"); e = int(log(kmax) / log(2) + 0.5)
            printf "k = 2^%d: delegate %.2f, first %.2f, concat %.2f, second %.2f, total %.2f ms", e, c[2], c[3], c[4], c[5], c[6]
            if (kind == "flat-delegate") {
                if (dmin == "") { printf "\ndelegate_flat\t-\tno k <= 2^15 measured\n"; exit }
                printf "; delegate %.2f-%.2f ms for k <= 2^15\ndelegate_flat\t%.4g\n", dmin, dmax, dmax / dmin; exit
            }
            key = (kind == "second") ? "second_gain" : "total_gain"
            if (kboth == "") {
                printf "\n%s\t-\tthe previous figure'"'"'s plan is not measured at a k where the plans differ\n", key
                if (kind == "delegate") printf "delegate_gain\t-\tthe previous figure'"'"'s plan is not measured at a k where the plans differ\n"
                exit
            }
            split(old[kmax], o, "|")
            printf "; previous plan: delegate %.2f, second %.2f, total %.2f ms\n", o[2], o[5], o[6]
            if (kind == "second") printf "second_gain\t%.4g\n", o[5] / c[5]
            else printf "total_gain\t%.4g\n", o[6] / c[6]
            if (kind == "delegate") printf "delegate_gain\t%.4g\n", o[2] / c[2]
        }')
    exp_settle "$res" "$(exp_rows "$rows")"
}
