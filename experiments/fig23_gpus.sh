#!/bin/bash
# fig23_gpus.sh -- Figure 23 (paper 6.5): the same Dr.-radix sweep, time vs k at
# |V| = 2^30 (UD), on two or more GPUs side by side (the paper: V100S vs Titan
# Xp; here every GPU of the database, e.g. the H100 and H200 references).
# Verdict: the GPU with the higher measured read bandwidth is faster at every
# k both measured, by a ratio within 2x of the bandwidth ratio.
. "$(dirname "$0")/lib/common.sh"
exp_begin fig23_gpus "Figure 23: Dr.-radix time vs k on each GPU (UD, beta 2)"
N30=$(exp_n 30)
if [ "$EXP_QUICK" = 1 ]; then ks=$(exp_pow2_list 0 24 6); else ks=$(exp_pow2_list 0 24 2); fi
exp_measure --n "$N30" --k "$ks" --dist UD --algo dr-radix --alpha-span 0 --beta 2

all=""
names=""
collect() {
    [ "$M_BACKEND" = cuda ] || return 0
    r=$(exp_query fig23_gpus.sql "machine=$M_ID" "n=$N30") ||
        { exp_fail all "$M_NAME" "$M_CAPTION" "query fig23_gpus.sql failed"; return; }
    [ -n "$r" ] || return 0
    label="$M_NAME $(printf '%s' "${M_UUID#GPU-}" | cut -c1-8) (read $M_GBPS GB/s)"
    all="$all$(printf '%s\n' "$r" | awk -v l="$label" -v g="$M_GBPS" '{ print l "|" $0 "|" g }')
"
    names="$names${names:+, }$M_NAME"
}
exp_for_machines collect
all=$(printf '%s' "$all" | sed '/^$/d')
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
                  if (n < 2) { printf "one GPU (%s) in the database: nothing to compare\tnot measured\n", nm[1]; exit }
                  f = nm[1]; s = nm[2]; if (g[s] > g[f]) { t = f; f = s; s = t }
                  held = 1; c = 0; lo = ""; hi = ""
                  for (kk in ms) { split(kk, x, SUBSEP); if (x[1] != f || !((s, x[2]) in ms)) continue
                      r = ms[s, x[2]] / ms[f, x[2]]; ++c; if (r < 1) held = 0
                      if (lo == "" || r < lo) lo = r; if (r > hi) hi = r }
                  bw = g[f] / g[s]
                  if (!c) { print "no k measured on both GPUs\tnot measured"; exit }
                  if (hi > 2 * bw || lo < bw / 2) held = 0
                  printf "%s vs %s: %.2fx-%.2fx faster over %d k; read bandwidth ratio %.2fx\t%s\n", f, s, lo, hi, c, bw, held ? "held" : "not held" }')
        exp_record all "${names:-none}" "$(exp_rows "$all")" ok "${res%%	*}" "${res##*	}"
    else
        exp_fail all "${names:-none}" "$caption" "gnuplot failed on fig23_gpus.gp"
    fi
fi
exp_end
