#!/bin/bash
# fig23_gpus.sh -- Figure 23 (paper 6.5): the same Dr.-radix sweep, time vs k at
# |V| = 2^30 (UD), on two or more GPUs side by side (the paper: V100S vs Titan
# Xp; here every GPU of the database, e.g. the H100 and H200 references).
# One run per GPU model (the newest of those with the most k).  Claim: the mean
# speedup of the faster GPU over the ratio of the GPUs' read bandwidths.
. "$(dirname "$0")/lib/common.sh"
exp_begin fig23_gpus "Figure 23: Dr.-radix time vs k on each GPU (UD, beta 2)"
N30=$(exp_n 30)
ks=$(exp_pow2_list 0 24 2)
exp_measure --n "$N30" --k "$ks" --dist UD --algo dr-radix --alpha-span 0 --beta 2

all=""
names=""
collect() {
    [ "$M_BACKEND" = cuda ] || return 0
    rc=0; exp_pick fig23_gpus.sql "machine=$M_ID" "n=$N30" || rc=$?
    case $rc in 0) ;; 1) return 0 ;; *) exp_fail all "$M_NAME" "$M_CAPTION" "query fig23_gpus.sql failed"; return ;; esac
    label="$M_NAME $(printf '%s' "${M_UUID#GPU-}" | cut -c1-8) (read $M_GBPS GB/s)"
    all="$all$(printf '%s\n' "$rows" | awk -v l="$label" -v g="$M_GBPS" -v m="$M_NAME" -v d="$EXP_PROV_DATE" \
        -v c="$EXP_PROV_COMMIT" -v v="$EXP_VERIFIED" '{ print l "|" $0 "|" g "|" m "|" d "|" c "|" v }')
"
}
EXP_ALL_RUNS=1 exp_for_machines collect
# one run per GPU model, the newest of those with the most k (never the order of
# the database): label|k|ms|GB/s|model|date|commit|verified
all=$(printf '%s' "$all" | sed '/^$/d' | awk -F'|' '{ r[NR] = $0; n[$1]++; m[$1] = $5; d[$1] = $6 }
    END { for (l in n) if (!(m[l] in best) || n[l] > n[best[m[l]]] || (n[l] == n[best[m[l]]] && d[l] > d[best[m[l]]])) best[m[l]] = l
          for (x in best) keep[best[x]] = 1
          for (i = 1; i <= NR; ++i) { split(r[i], f, "|"); if (f[1] in keep) print r[i] } }' | sort -t'|' -k1,1 -k2,2n)
names=$(printf '%s\n' "$all" | awk -F'|' 'NF { print $5 " (commit " $7 ", " $6 ")" }' | sort -u | paste -sd';' - | sed 's/;/; /g')
EXP_VERIFIED=$(printf '%s\n' "$all" | awk -F'|' 'NF && $8 != 1 { u = 1 } END { print u ? 0 : 1 }')
caption="GPUs: ${names:-none}"
ngpu=$(printf '%s\n' "$all" | cut -d'|' -f1 | sort -u | grep -c . || true)
if [ "$ngpu" -eq 0 ]; then
    exp_missing all - "$caption" "no GPU in the database has dr-radix rows at |V| = $(exp_p2 "$N30")"
else
    data=$(exp_data all "$(printf '%s\n' "$all" | cut -d'|' -f1-3)")
    title="$EXP_TITLE, |V| = $(exp_p2 "$N30")"
    [ "$ngpu" -ge 2 ] || title="$title; only one GPU measured so far"
    if exp_gnuplot fig23_gpus.gp "$EXP_OUT/${EXP_ID}-all" "$title" "$caption" "data=$data" "nseries=$ngpu"; then
        res=$(printf '%s\n' "$all" | awk -F'|' '
            { g[$1] = $4; ms[$1, $2] = $3 }
            END { n = 0; for (gn in g) nm[++n] = gn
                  if (n < 2) { printf "one GPU (%s) in the database: nothing to compare\nspeed_per_bw\t-\tone GPU model measured\n", nm[1]; exit }
                  if (nm[2] < nm[1]) { t = nm[1]; nm[1] = nm[2]; nm[2] = t }
                  f = nm[1]; s = nm[2]; if (g[s] > g[f]) { t = f; f = s; s = t }
                  c = 0; lo = ""; hi = ""; sum = 0
                  for (kk in ms) { split(kk, x, SUBSEP); if (x[1] != f || !((s, x[2]) in ms)) continue
                      r = ms[s, x[2]] / ms[f, x[2]]; ++c; sum += r
                      if (lo == "" || r < lo) lo = r; if (r > hi) hi = r }
                  bw = g[f] / g[s]
                  if (!c) { print "no k measured on both GPUs\nspeed_per_bw\t-\tno k measured on both GPUs"; exit }
                  printf "%s vs %s: %.2fx-%.2fx faster (mean %.2fx) over %d k; read bandwidth ratio %.2fx\nspeed_per_bw\t%.4g\n",
                         f, s, lo, hi, sum / c, c, bw, sum / c / bw }')
        M_UUID=all M_NAME="${names:-none}" EXP_PROV_COMMIT=$(printf '%s\n' "$all" | cut -d'|' -f7 | sort -u | paste -sd, -) \
            EXP_PROV_DATE=$(printf '%s\n' "$all" | cut -d'|' -f6 | sort -u | paste -sd, -) M_SLUG=all \
            exp_settle "$res" "$(exp_rows "$all")"
    else
        exp_fail all "${names:-none}" "$caption" "gnuplot failed on fig23_gpus.gp"
    fi
fi
exp_end
