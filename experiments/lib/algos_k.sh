# algos_k.sh -- sourced by fig04_inconsistency.sh and fig18_speedup.sh (paper
# 3.1, 6.1): the algorithms plain and Dr.-assisted vs k on UD, ND and CD at
# |V| = 2^30, measured through bin/tuner at fixed plans (Rule 4 alpha with const
# 3, beta 2), queried by experiments/sql/algos_k.sql, one panel per distribution.
# algos_k_run ALGOS GP MODE: MODE time (Figure 4: ms per algorithm; verdict: the
# Dr.-assisted times vary less across the distributions than the plain ones) or
# speedup (Figure 18: plain ms / Dr. ms per base algorithm; verdict: >= 1 everywhere).
algos_k_run() {
    AK_GP="$2"; AK_MODE="$3"
    AK_BASES=$(printf '%s' "$1" | tr ',' '\n' | grep -v '^dr-' | tr '\n' ' ')
    N30=$(exp_n 30)
    ks=$(exp_pow2_list 0 24 2)
    exp_measure --n "$N30" --k "$ks" --dist UD,ND,CD --algo "$1" --alpha-span 0 --beta 2
    exp_for_machines algos_k_one
}

algos_k_one() {
    exp_fetch algos_k.sql "no rows of these algorithms at |V| = $(exp_p2 "$N30")" "n=$N30" || return 0
    # keep the requested algorithms only
    rows=$(printf '%s\n' "$rows" | awk -F'|' -v b="$AK_BASES" 'BEGIN { split(b, a, " "); for (i in a) want[a[i]] = 1 }
                                                             $5 in want')
    [ -n "$rows" ] || { exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" "no rows of these algorithms at |V| = $(exp_p2 "$N30")"; return; }
    vars=()
    for d in UD ND CD; do
        sel=$(printf '%s\n' "$rows" | awk -F'|' -v d="$d" -v mode="$AK_MODE" '
            $1 != d { next }
            mode == "time" { print $2 "|" $3 "|" $4; next }
            { ms[$5, $6, $3] = $4; ks[$3] = 1; bs[$5] = 1 }
            END { if (mode != "speedup") exit
                  for (b in bs) for (k in ks) if (((b, 0, k) in ms) && ((b, 1, k) in ms))
                      print b "|" k "|" ms[b, 0, k] / ms[b, 1, k] }' | sort -t'|' -k1,1 -k2,2n)
        f=$(exp_data "$M_SLUG-$d" "$sel")
        vars+=("data_$d=$f" "dash_$d=$(exp_dashes "$f")")
        eval "n_$d=\$(exp_nblocks \"\$f\")"
    done
    exp_plot "$AK_GP" "$EXP_TITLE" "${vars[@]}" \
        "n_UD=$n_UD" "n_ND=$n_ND" "n_CD=$n_CD" || return 0
    res=$(printf '%s\n' "$rows" | awk -F'|' -v mode="$AK_MODE" '
        { ms[$1, $5, $6, $3] = $4; ks[$3] = 1; bs[$5] = 1; ds[$1] = 1 }
        END {
            if (mode == "time") {   # spread across distributions: max / min ms at one k
                for (b in bs) for (dr = 0; dr <= 1; ++dr) for (k in ks) {
                    lo = ""; hi = ""; nd = 0
                    for (d in ds) if ((d, b, dr, k) in ms) { ++nd; v = ms[d, b, dr, k]
                        if (lo == "" || v < lo) lo = v; if (v > hi) hi = v }
                    if (nd < 2) continue
                    if (hi / lo > spread[dr]) { spread[dr] = hi / lo; at[dr] = b }
                    if (dr == 0 && hi / lo > sb[b]) sb[b] = hi / lo
                }
                nds = 0; for (d in ds) ++nds
                why = nds < 2 ? "only one distribution measured" : "no algorithm measured at one k on two distributions"
                if (!(0 in spread) || !(1 in spread)) {
                    print why
                    printf "radix_spread\t%s\t%s\n", ("radix" in sb) ? sb["radix"] : "-", why
                    printf "bitonic_spread\t%s\t%s\n", ("bitonic" in sb) ? sb["bitonic"] : "-", why
                    printf "dr_spread_gain\t-\t%s\n", why; exit }
                printf "largest spread across UD/ND/CD at one k: plain %.2fx (%s), Dr.-assisted %.2fx (dr-%s)", spread[0], at[0], spread[1], at[1]
                if ("bitonic" in sb) printf "; plain bitonic %.2fx", sb["bitonic"]
                printf "\nradix_spread\t%s\t%s\n", ("radix" in sb) ? sb["radix"] : "-", "plain radix not measured on two distributions"
                printf "bitonic_spread\t%s\t%s\n", ("bitonic" in sb) ? sb["bitonic"] : "-", "plain bitonic not measured on two distributions"
                printf "dr_spread_gain\t%.4g\n", spread[0] / spread[1]
                exit
            }
            # the largest speedup per base algorithm, the smallest of all
            for (b in bs) { if (b ~ /^sort/) continue
                for (d in ds) for (k in ks) if (((d, b, 0, k) in ms) && ((d, b, 1, k) in ms)) {
                    s = ms[d, b, 0, k] / ms[d, b, 1, k]; if (!(b in mx) || s > mx[b]) mx[b] = s
                    if (mn == "" || s < mn) mn = s } }
            pairs = 0; held = 1
            for (b in bs) {
                if (b ~ /^sort/) continue
                lo = ""; hi = ""
                for (d in ds) for (k in ks) if (((d, b, 0, k) in ms) && ((d, b, 1, k) in ms)) {
                    s = ms[d, b, 0, k] / ms[d, b, 1, k]; ++pairs
                    if (s < 1) held = 0
                    if (lo == "" || s < lo) lo = s; if (hi == "" || s > hi) hi = s
                }
                if (lo != "") txt = txt sprintf("dr-%s %.2fx-%.2fx; ", b, lo, hi)
            }
            if (!pairs) { print "no plain/Dr. pair measured"; mn = "-" }
            else printf "speedup over plain across UD/ND/CD and k: %s\n", txt
            split("radix bucket bitonic", c, " ")
            for (i = 1; i <= 3; ++i) printf "%s_max\t%s\tno plain/Dr. %s pair measured\n", c[i], (c[i] in mx) ? mx[c[i]] : "-", c[i]
            printf "min_speedup\t%s\tno plain/Dr. pair measured\n", mn
        }')
    exp_settle "$res" "$(exp_rows "$rows")"
}
