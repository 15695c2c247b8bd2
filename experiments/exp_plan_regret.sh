#!/bin/bash
# exp_plan_regret.sh -- beyond the paper: the regret of the
# library's automatic plan against the fastest forced plan at each point of
# the regret grid, per GPU a grid of heat maps, one per tuning (builtin: no
# tuning database; tuned: after tuner --quick on the card) and key type, x
# log2 n, y log2 k, each cell the worst distribution's regret (1.00 where the
# fastest forced plan is the automatic plan itself; the status line gives that
# noise: the one plan's two times' largest ratio).  The rows are
# experiments/plan_regret.sh's (tuner --regret; RUN_STEPS=regret of
# tests/gpu/run.sh), read by experiments/sql/plan_regret.sql: one commit per
# panel (the latest with usable rows; the caption names it), never a commit of
# a tree with uncommitted changes.  This script measures nothing, also with a
# GPU: plan_regret.sh measures the whole grid (an hour-scale run, resumable).
# Verdict (the regret targets): held when every tuning and key type of the
# panel has worst regret <= 1.05 and median <= 1.01, else not held; not
# measured where the machine has no regret rows.
. "$(dirname "$0")/lib/common.sh"
exp_begin exp_plan_regret "Beyond the paper: the automatic plan's regret against the fastest forced plan"
WORST_TARGET=1.05               # the regret target: worst regret <= 5% ...
MEDIAN_TARGET=1.01              # ... and median <= 1%, per tuning and key type
HOW="experiments/plan_regret.sh --db DB, or RUN_STEPS=regret sh tests/gpu/run.sh"
TUNINGS="builtin tuned"
DTYPE_ORDER="u32 i32 f32 f16 bf16 u64 i64 f64"

# regret PART [COMMIT]: plan_regret.sql's rows of PART for the current machine (COMMIT: the
# commit 'points' drew, which PART 'verified' counts)
regret() {
    exp_query plan_regret.sql "machine=$M_ID" "part='$1'" dirty=0 "worst_target=$WORST_TARGET" "drawn='${2:-}'"
}

plot_one() {
    # a machine without automatic-plan rows costs one cheap count, not the points' query
    count=$(regret count) || { exp_fail "$M_SLUG" "$M_NAME" "$M_CAPTION" "query plan_regret.sql failed"; return 0; }
    # where another card of this GPU model has rows, its panel stands for the model and this
    # machine's not-measured line goes (exp_end): the line is recorded, its panel never drawn
    local all clean model dry=0
    IFS='|' read -r all clean model <<< "$count"
    [ "$model" != 1 ] || dry=1
    if [ "$all" -eq 0 ]; then
        EXP_DRY=$dry exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" "no automatic-plan regret rows on this machine ($HOW)"
        return 0
    fi
    # one run per GPU model, the newest: an older one's line goes (exp_end) where the newer has rows
    newer=$(regret superseded) || { exp_fail "$M_SLUG" "$M_NAME" "$M_CAPTION" "query plan_regret.sql failed"; return 0; }
    if [ -n "$newer" ]; then
        EXP_DRY=1 exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" \
            "an older regret run of this GPU model: the newest ($newer) is drawn"
        return 0
    fi
    if ! rows=$(regret points); then
        exp_fail "$M_SLUG" "$M_NAME" "$M_CAPTION" "query plan_regret.sql failed"
        return 0
    fi
    if [ -z "$rows" ]; then
        why="no automatic-plan regret rows on this machine ($HOW)"
        if [ "$all" -gt 0 ] && [ "$clean" -eq 0 ]; then
            why="only rows of a tuner built from a tree with uncommitted changes (commit ...-dirty), never plotted: measure with a committed build ($HOW)"
        elif [ "$all" -gt 0 ]; then
            why="no point with both the automatic plan and a forced plan measured (status ok) at one commit ($HOW)"
        fi
        exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" "$why"
        return 0
    fi
    commit=$(printf '%s\n' "$rows" | head -n 1 | cut -d'|' -f1)
    # provenance: the commit drawn, the days it was measured, whether every row of it was verified
    ver=$(regret verified "$commit") || { exp_fail "$M_SLUG" "$M_NAME" "$M_CAPTION" "query plan_regret.sql failed"; return 0; }
    if [ "${ver%%|*}" -gt 0 ] && [ "${ver%%|*}" = "${ver#*|}" ]; then EXP_VERIFIED=1; else EXP_VERIFIED=0; fi
    [ -n "${EXP_COMMITS_READ:-}" ] || exp_commit_index
    EXP_PICK_COMMIT=$commit
    exp_provenance
    # the grid: the tunings (rows) and key types (columns) measured, in a fixed order
    have() { printf '%s\n' "$rows" | awk -F'|' -v c="$1" -v v="$2" '$c == v { f = 1 } END { exit !f }'; }
    tunings="" dtypes=""
    for t in $TUNINGS; do have 2 "$t" && tunings="$tunings $t"; done
    for d in $DTYPE_ORDER; do have 3 "$d" && dtypes="$dtypes $d"; done
    panels="" blocks="" b=0
    data="$EXP_DATA/${EXP_ID}-$M_SLUG.dat"
    for t in $tunings; do
        for d in $dtypes; do
            panels="$panels $t:$d"
            if printf '%s\n' "$rows" | awk -F'|' -v t="$t" -v d="$d" '$2 == t && $3 == d { f = 1 } END { exit !f }'; then
                blocks="$blocks $b"; b=$((b + 1))
            else
                blocks="$blocks -1"
            fi
        done
    done
    # commit|tuning|dtype|n|k|regret|dist|points -> blocks "tuning dtype": log2n log2k regret dist
    printf '%s\n' "$rows" | awk -F'|' '
        function lg(v,  e) { e = 0; while (v > 1) { v /= 2; ++e } return e }
        $2 " " $3 != prev { if (NR > 1) printf "\n\n"; printf "\"%s %s\"\n", $2, $3; prev = $2 " " $3 }
        { printf "%d %d %s %s\n", lg($4), lg($5), $6, $7 }' | exp_write "$data"
    ncols=$(echo "$dtypes" | wc -w) nrows=$(echo "$tunings" | wc -w)
    cap="$M_CAPTION"
    note="a cell: its worst distribution's auto ms / min(auto ms, fastest forced plan's ms); label: % slower, where over $MEDIAN_TARGET"
    exp_gnuplot exp_plan_regret.gp "$EXP_OUT/${EXP_ID}-$M_SLUG" "$EXP_TITLE" "$cap" \
        "data=$data" "panels=${panels# }" "blocks=${blocks# }" "nrows=$nrows" "ncols=$ncols" \
        "label_min=$MEDIAN_TARGET" "note=$note" ||
        { exp_fail "$M_SLUG" "$M_NAME" "$cap" "gnuplot failed on exp_plan_regret.gp"; return 0; }
    # the status line: per tuning and key type at this commit, from the summary rows
    summary=$(regret summary) || { exp_fail "$M_SLUG" "$M_NAME" "$cap" "query plan_regret.sql failed"; return 0; }
    res=$(printf '%s\n' "$summary" | awk -F'|' -v uuid="$M_UUID" -v commit="$commit" -v wt="$WORST_TARGET" \
                                          -v mt="$MEDIAN_TARGET" '
        function p2(v,  e) { if (v == 1) return "1"; e = 0; while (v > 1) { v /= 2; ++e } return "2^" e }
        $2 == uuid && $3 == commit {
            text = text sprintf("%s%s %s: worst %s (%s n %s k %s: auto %s, best %s), median %s, %d points%s", sep, $4,
                                $5, $7, $8, p2($9), p2($10), $11, $12, $13, $6,
                                $15 == "-" ? "" : ", one plan timed twice up to " $15)
            sep = "; "; points += $6
            if ($7 + 0 > wt + 0 || $13 + 0 > mt + 0) bad = 1 }
        END { printf "%d\tcommit %s: %s\t%s\n", points, commit, text, bad ? "not held" : "held" }')
    IFS="$(printf '\t')" read -r used ours verdict <<EOF
$res
EOF
    exp_record "$M_SLUG" "$M_NAME" "$used" ok "$ours" "$verdict"
}
# the newest run with regret rows of each GPU model is drawn (one query of its points: the costly one), the
# others say why not
EXP_ALL_RUNS=1 exp_for_machines plot_one
exp_end
