# claims.sh -- sourced by experiments/lib/common.sh: the paper's quantitative
# claims (figures/claims.tsv, typed from Gaihre et al., SC'21, sections 3-6)
# set against the numbers a figure's script measured, one verdict per claim:
#   reproduced                           ours within the claim's tolerance
#   same direction, different magnitude  outside it, on the same side of 1
#                                        (a speedup that is a speedup, smaller)
#   not reproduced                       the other side, or a bound not met
#   not measured: REASON                 no number
# A claim whose numbers come from rows not all verified against the reference
# says so (", unverified").  Output: DIR/data/claims/ID.tsv, one line per
# (claim, GPU run): id key uuid gpu paper ours verdict quantity where commit
# date drawn (1: the run whose panel is drawn), tab-separated.
#
# figures/claims.tsv: id<TAB>key<TAB>quantity<TAB>paper<TAB>where<TAB>compare<TAB>tolerance
#   key "claim": the figure's claim in words (quantity), shown above its panels;
#   compare ratio: ours / paper within [1/tolerance, tolerance]; 1 is "no effect"
#           le:    ours <= tolerance (paper: what the paper says, in words or a number)
#           ge:    ours >= tolerance
#           eq:    ours == paper

EXP_CLAIMS_TSV="$EXP_ROOT/figures/claims.tsv"

# exp_claim_text: the figure's claim in words with its section.
exp_claim_text() {
    awk -F'\t' -v id="${EXP_ID%%_*}" -v full="$EXP_ID" '($1 == id || $1 == full) && $2 == "claim" { print $3 " (" $5 ")" }' \
        "$EXP_CLAIMS_TSV"
}

exp_claims_begin() {
    EXP_CLAIMS_FILE="$EXP_DATA/claims/$EXP_ID.tsv"
    mkdir -p "$EXP_DATA/claims"
    : > "$EXP_CLAIMS_FILE.tmp"
}

# exp_claim KEY OURS [REASON]: the verdict of claim KEY of this figure for the
# current machine, OURS its measured number ('-' or empty: not measured,
# REASON says why).  Dies on a KEY claims.tsv lacks (a script/table mismatch).
exp_claim() {
    row=$(awk -F'\t' -v id="${EXP_ID%%_*}" -v full="$EXP_ID" -v key="$1" \
        '($1 == id || $1 == full) && $2 == key { print; exit }' "$EXP_CLAIMS_TSV")
    [ -n "$row" ] || exp_die "figures/claims.tsv has no claim '$1' of $EXP_ID: add its row"
    printf '%s\n' "$row" | awk -F'\t' -v ours="$2" -v why="${3:-no rows for it}" -v ver="${EXP_VERIFIED:-1}" \
        -v uuid="${M_UUID:--}" -v gpu="${M_NAME:--}" -v commit="${EXP_PROV_COMMIT:--}" -v date="${EXP_PROV_DATE:--}" \
        -v drawn="$((1 - ${EXP_DRY:-0}))" '
        { p = $4; cmp = $6; tol = $7 + 0
          if (ours == "" || ours == "-") v = "not measured: " why
          else if (cmp == "ratio") {
              r = ours / p
              if (r >= 1 / tol && r <= tol) v = "reproduced"
              else if ((ours > 1) == (p > 1)) v = "same direction, different magnitude"
              else v = "not reproduced"
          } else if (cmp == "le") v = (ours <= tol) ? "reproduced" : "not reproduced"
          else if (cmp == "ge") v = (ours >= tol) ? "reproduced" : "not reproduced"
          else v = (ours == p) ? "reproduced" : "not reproduced"
          if (v !~ /^not measured/ && ver == "0") v = v ", unverified"
          if (ours != "" && ours != "-" && ours + 0 == ours)
              ours = (ours >= 1e6 && ours == int(ours)) ? sprintf("%d", ours) : sprintf("%.3g", ours)
          printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", $1, $2, uuid, gpu, p, (ours == "" ? "-" : ours), v,
                 $3, $5, commit, date, drawn }' >> "$EXP_CLAIMS_FILE.tmp"
}

# exp_verdict: the current machine's claims in one verdict: the worst measured
# one (not reproduced, then same direction, then reproduced), else not measured;
# ", unverified" when unverified rows fed it.
exp_verdict() {
    awk -F'\t' -v u="${M_UUID:--}" '$3 == u { v = $7; un = un || (v ~ /unverified/); sub(/, unverified$/, "", v)
            w = (v == "not reproduced") ? 3 : (v ~ /^same direction/) ? 2 : (v == "reproduced") ? 1 : 0
            if (w > worst) { worst = w; word = v } }
        END { if (!worst) print "not measured"; else print word (un ? ", unverified" : "") }' "$EXP_CLAIMS_FILE.tmp"
}

# exp_claims_drop UUID: forget a machine's claims (its panel is measured again, drawn).
exp_claims_drop() {
    awk -F'\t' -v u="$1" '$3 != u' "$EXP_CLAIMS_FILE.tmp" > "$EXP_CLAIMS_FILE.tmp2"
    mv -f "$EXP_CLAIMS_FILE.tmp2" "$EXP_CLAIMS_FILE.tmp"
}

exp_claims_publish() {
    mv -f "$EXP_CLAIMS_FILE.tmp" "$EXP_CLAIMS_FILE"
}

# exp_settle RES ROWS: RES's first line is ours in words, each further line
# KEY<TAB>VALUE[<TAB>REASON] one claim (exp_claim); then the machine's ok
# status line with ROWS rows used and exp_verdict's verdict.
exp_settle() {
    while IFS="$(printf '\t')" read -r key val why; do
        if [ -n "$key" ]; then exp_claim "$key" "$val" "$why"; fi
    done <<CLAIMS
$(printf '%s\n' "$1" | tail -n +2)
CLAIMS
    exp_record "$M_SLUG" "$M_NAME" "$2" ok "$(printf '%s\n' "$1" | head -1)" "$(exp_verdict)"
}

# exp_paper KEY: the paper's number of claim KEY of this figure (claims.tsv), for the plots.
exp_paper() {
    awk -F'\t' -v id="${EXP_ID%%_*}" -v key="$1" '$1 == id && $2 == key { print $4; exit }' "$EXP_CLAIMS_TSV"
}

# exp_paper_points NAME LINES: "x y" lines of the paper's points into
# data/ID-NAME.paper (gnuplot plots them as open circles); prints the path.
exp_paper_points() {
    f="$EXP_DATA/${EXP_ID}-$1.paper"
    printf '%s\n' "$2" | exp_write "$f"
    echo "$f"
}
