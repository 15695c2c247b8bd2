#!/bin/bash
# tab3_transactions.sh -- Table 3 (paper 6.4): global load and store sectors
# (32-byte transactions) of radix, bucket and bitonic top-k, plain and
# Dr.-assisted (Rule 4's alpha with const 3, beta 2), |V| = 2^30, k = 2^7 on UD,
# beside the paper's nvprof counts (figures/tab3_paper.tsv).  With a GPU
# (CUDA backend) and Nsight Compute's `ncu`, each algorithm's one `drtopk run`
# call is profiled (the harness's generation and read-floor kernels left out:
# lib/ncu_counters.py) and stored with `tuner --import-counters` (table
# counters, schema 7); an algorithm this GPU counted at this commit is not
# profiled again.  Without rows the "not measured" panel.  Verdict: held when
# each measured Dr.-assisted algorithm loads and stores fewer sectors than its
# plain version.
. "$(dirname "$0")/lib/common.sh"
exp_begin tab3_transactions "Table 3: global load and store sectors, |V| = 2^30, k = 2^7 (UD)"
N=$(exp_n 30)
K=128                           # the paper's k = 2^7
ALGOS="radix dr-radix bucket dr-bucket bitonic dr-bitonic"
NCU_METRICS=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
PAPER="$EXP_GP/tab3_paper.tsv"
SECTORS_PER_UNIT=1000000000     # the table's unit, as the paper's: 10^9

tab3_measure() {
    [ -n "$EXP_GPU" ] || return 0
    if [ "$EXP_BACKEND" != cuda ]; then
        echo "$EXP_ID: hardware counters need the CUDA backend: nothing profiled" >&2; return 0
    fi
    command -v ncu > /dev/null 2>&1 || { echo "$EXP_ID: ncu (Nsight Compute) is not installed: nothing profiled" >&2; return 0; }
    bin="${DRTOPK_BIN_DIR:-$EXP_ROOT/bin}"
    ver=$(ncu --version 2>/dev/null | tail -n 1)
    uuid=$(nvidia-smi -i "$EXP_GPU" --query-gpu=uuid --format=csv,noheader 2>/dev/null)
    commit=$("$bin/drtopk" version | sed -n 's/.*(git \([^)]*\)).*/\1/p')
    work="$EXP_DATA/$EXP_ID.ncu"
    mkdir -p "$work"
    for a in $ALGOS; do
        have=$(exp_sqlite -readonly "$EXP_DB" "SELECT count(*) FROM counters c JOIN machines m ON m.id = c.machine_id
            WHERE m.uuid = '$uuid' AND c.git_commit = '$commit' AND c.source = 'ncu' AND c.algorithm = '$a'
              AND c.n = $N AND c.k = $K" 2>/dev/null || echo 0)
        [ "${have:-0}" -gt 0 ] && continue
        exp_budget || return 0
        plan=""
        case "$a" in dr-*) plan="--const 3" ;; esac      # Rule 4's alpha with the paper's const, as every figure
        echo "$EXP_ID: ncu --metrics $NCU_METRICS $bin/drtopk run --n $N --k $K --algo $a" >&2
        if exp_bounded ncu --csv --page raw --metrics "$NCU_METRICS" --log-file "$work/$a.csv" \
               env DRTOPK_DB="$work/no-tuning.sqlite" "$bin/drtopk" run --gpu "$EXP_GPU" --n "$N" --k "$K" --dist UD \
               --algo "$a" $plan --reps 1 --warmup 0 --json > "$work/$a.json" 2> "$work/$a.err" &&
           python3 "$EXP_ROOT/experiments/lib/ncu_counters.py" "$work/$a.csv" "$work/$a.json" "$ver" > "$work/$a.tsv" &&
           "$bin/tuner" --gpu "$EXP_GPU" --import-counters "$work/$a.tsv" --db "$EXP_DB" >> "$work/$a.err" 2>&1; then
            :
        else
            tail -3 "$work/$a.err" >&2
            echo "$EXP_ID: profiling $a failed (files in $work); the table shows what the database holds" >&2
        fi
    done
}
tab3_measure

plot_one() {
    if ! exp_has_table counters; then
        exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" \
            "this database predates table counters (schema 7): no ncu counts (run_all.sh --gpu N with Nsight Compute's ncu)"
        return 0
    fi
    exp_fetch tab3_transactions.sql \
        "no ncu counts at |V| = $(exp_p2 "$N"), k = $K on this machine (run_all.sh --gpu N with Nsight Compute's ncu)" \
        "n=$N" "k=$K" || return 0
    data="$EXP_DATA/${EXP_ID}-$M_SLUG.txt"
    printf '%s\n' "$rows" | awk -F'|' -v paper="$PAPER" -v u="$SECTORS_PER_UNIT" '
        function g(x) { return x == "-" ? "-" : sprintf("%.4g", x / u) }
        function r(a, b) { return (a == "-" || b == "-" || b == 0) ? "-" : sprintf("%.1fx", a / b) }
        BEGIN { while ((getline l < paper) > 0) { if (l ~ /^#/) continue; split(l, f, "\t")
                    pl[f[1]] = sprintf("%s -> %s (%sx)", f[2], f[3], f[6])
                    ps[f[1]] = sprintf("%s -> %s (%sx)", f[4], f[5], f[7]) }
                printf "%-9s %12s %12s %8s %12s %12s %9s | %-22s %s\n", "algorithm", "loads plain", "loads Dr.", "fewer",
                       "stores plain", "stores Dr.", "fewer", "paper loads (10^9)", "paper stores (10^9)" }
        { printf "%-9s %12s %12s %8s %12s %12s %9s | %-22s %s\n", $1, g($2), g($3), r($2, $3), g($4), g($5), r($4, $5),
                 ($1 in pl) ? pl[$1] : "-", ($1 in ps) ? ps[$1] : "-" }
        END { printf "(ours: 32-byte sectors, 10^9, ncu l1tex global ld/st; the paper: nvprof transactions on a V100S)\n" }' |
        exp_write "$data"
    exp_plot table.gp "$EXP_TITLE (ours | the paper)" "data=$data" || return 0
    # the ratios from the unrounded sector counts
    res=$(printf '%s\n' "$rows" | awk -F'|' '{ printf "%s%s loads %s -> %s, stores %s -> %s", (NR > 1 ? "; " : ""), $1, $2, $3, $4, $5 }
            { ld[$1] = ($2 != "-" && $3 != "-" && $3 > 0) ? $2 / $3 : "-"; st[$1] = ($4 != "-" && $5 != "-" && $5 > 0) ? $4 / $5 : "-" }
        END { print " sectors"; split("radix bucket bitonic", a, " ")
              for (i = 1; i <= 3; ++i) { b = a[i]
                  printf "%s_loads\t%s\t%s or dr-%s not profiled\n", b, (b in ld) ? ld[b] : "-", b, b
                  printf "%s_stores\t%s\t%s or dr-%s not profiled\n", b, (b in st) ? st[b] : "-", b, b } }')
    exp_settle "$res" "$(exp_rows "$rows")"
}
exp_for_machines plot_one
exp_end
