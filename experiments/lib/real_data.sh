# real_data.sh -- sourced by fig19_real_speedup.sh and tab1_datasets.sh (paper
# section 6, Table 1, Figure 19): with a GPU, Figure 19's runs of the
# real data sets that experiments/datasets.sh prepared (DRTOPK_DATASETS_DIR,
# default out/datasets), through datasets.sh --measure-only, i.e. bin/tuner
# --input into the figures' database, within --quick's budget; both scripts
# then read the rows with experiments/sql/real_data.sql.
RD_DIR="${DRTOPK_DATASETS_DIR:-$EXP_ROOT/out/datasets}"
RD_QUICK_K='2^0,2^8,2^16,2^24'      # --quick: four of Figure 19's k
RD_HOWTO="prepare them with experiments/datasets.sh, then measure with experiments/datasets.sh --measure-only --db DB (or run_all.sh --gpu N)"

# rd_measure: measure what the database lacks on every prepared data set.
rd_measure() {
    [ -n "$EXP_GPU" ] || return 0
    if [ ! -s "$RD_DIR/manifest.tsv" ]; then
        echo "$EXP_ID: no prepared real data sets in $RD_DIR (experiments/datasets.sh makes them): measuring none" >&2
        return 0
    fi
    set -- --measure-only --dir "$RD_DIR" --db "$EXP_DB" --tuner "${DRTOPK_BIN_DIR:-$EXP_ROOT/bin}/tuner"
    if [ "$EXP_BACKEND" = cpu ]; then set -- "$@" --backend cpu; else set -- "$@" --gpu "$EXP_GPU"; fi
    if [ "$EXP_QUICK" = 1 ]; then
        exp_budget || return 0
        set -- "$@" --k "$RD_QUICK_K" --max-minutes "$(awk -v l="$EXP_LEFT" 'BEGIN { printf "%.2f", l / 60 }')"
    else
        set -- "$@" --max-minutes "$EXP_FULL_MINUTES"
    fi
    echo "$EXP_ID: experiments/datasets.sh $*" >&2
    if ! exp_bounded bash "$EXP_ROOT/experiments/datasets.sh" "$@" > "$EXP_DATA/$EXP_ID.datasets.log" 2>&1; then
        tail -5 "$EXP_DATA/$EXP_ID.datasets.log" >&2
        echo "$EXP_ID: measuring the real data sets failed (log: $EXP_DATA/$EXP_ID.datasets.log); plotting what the database holds" >&2
    fi
}
