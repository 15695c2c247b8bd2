#!/bin/bash
# tab2_multigpu.sh -- Table 2 (paper 6.3): scalability of Dr.-radix over MPI
# ranks, k = 128: total, reload and communication ms and the speedup over one
# rank at each |V|, in core and out of core (--device-cap: sub-vectors of that
# many elements stream from pinned host memory), beside the paper's numbers at
# the same |V| and GPU count (figures/tab2_paper.tsv, typed from the paper).
# The rows are bin/drtopk-mpi's (table multi_gpu, schema 6; tests/gpu/mpi.sh,
# RUN_STEPS=mpi of tests/gpu/run.sh, stores them); without them the "not
# measured" panel.  Verdict: held when at every |V| measured on several GPU
# counts (one rank per GPU; rank counts on the CPU backend) the total drops
# as GPUs are added; not measured
# when no |V| has two GPU counts.
. "$(dirname "$0")/lib/common.sh"
exp_begin tab2_multigpu "Table 2: multi-GPU and out-of-core scalability of Dr.-radix, k = 128"
K_TABLE2=128                    # the paper's Table 2 k
PAPER="$EXP_GP/tab2_paper.tsv"
plot_one() {
    if ! exp_has_table multi_gpu; then
        exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" \
            "this database predates table multi_gpu (schema 6): no bin/drtopk-mpi rows (RUN_STEPS=mpi sh tests/gpu/run.sh)"
        return 0
    fi
    exp_fetch tab2_multigpu.sql "no bin/drtopk-mpi rows at k = $K_TABLE2 on this machine (RUN_STEPS=mpi sh tests/gpu/run.sh)" \
        "k=$K_TABLE2" || return 0
    data="$EXP_DATA/${EXP_ID}-$M_SLUG.txt"
    # ours beside the paper's row of the same log2 |V| and GPU count (one rank per GPU)
    printf '%s\n' "$rows" | awk -F'|' -v paper="$PAPER" '
        function p2(n,   e) { e = 0; while (n > 1 && n % 2 == 0) { n /= 2; ++e } return n == 1 ? "2^" e : "" }
        BEGIN { while ((getline l < paper) > 0) { if (l ~ /^#/) continue; split(l, f, "\t")
                    pt[f[1] "," f[2]] = sprintf("%s (%sx)", f[6], f[7]); pr[f[1] "," f[2]] = f[5]; pc[f[1] "," f[2]] = f[4] }
                close(paper)
                printf "%-6s %5s %4s %9s %7s %11s %10s %9s %8s | %-18s %10s %7s\n", "|V|", "ranks", "GPUs", "in core", "chunks",
                       "total ms", "reload ms", "comm ms", "speedup", "paper: total (x)", "reload ms", "comm ms" }
        { v = p2($1); e = substr(v, 3); key = e "," $2
          core = $5 ? "cap " p2($4) : "yes"
          paper_ok = (($3 == 0 || $2 == $3) && (key in pt))
          printf "%-6s %5d %4d %9s %7d %11s %10s %9s %8s | %-18s %10s %7s\n", v == "" ? $1 : v, $2, $3, core, $6, $7, $8, $9,
                 $10 == "-" ? "-" : $10 "x", paper_ok ? pt[key] : "-", paper_ok ? pr[key] : "-", paper_ok ? pc[key] : "-" }
        END { printf "%s\nthe paper (V100, 4 per node; ms):\n%-6s %5s %6s %18s %10s %8s\n", "----", "|V|", "GPUs", "nodes",
                     "total (speedup)", "reload", "comm"
              while ((getline l < paper) > 0) { if (l ~ /^#/) continue; split(l, f, "\t")
                  printf "%-6s %5d %6d %18s %10s %8s\n", "2^" f[1], f[2], f[3], f[6] " (" f[7] "x)", f[5], f[4] } }' |
        exp_write "$data"
    exp_plot table.gp "$EXP_TITLE (ours | the paper: V100, 4 per node)" "data=$data" || return 0
    # the claim: 4 GPUs over 1 at |V| = 2^30, in core, one rank per GPU
    res="$(printf '%s\n' "$rows" | awk -F'|' '{ printf "%s2^%d x%d%s: %s ms (%sx)", (NR > 1 ? "; " : ""),
        log($1) / log(2) + 0.5, $2, $5 ? " ooc" : "", $7, $10 }')
$(printf '%s\n' "$rows" | awk -F'|' '$1 == 2^30 && $2 == 4 && $3 == 4 && $5 == 0 && $10 != "-" { s = $10 }
    END { printf "scale_4\t%s\tno in-core 4-GPU row at |V| = 2^30\n", s == "" ? "-" : s }')"
    exp_settle "$res" "$(exp_rows "$rows")"
}
exp_for_machines plot_one
exp_end
