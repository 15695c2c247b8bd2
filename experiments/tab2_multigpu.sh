#!/bin/bash
# tab2_multigpu.sh -- Table 2 (paper 6.3): scalability of Dr. Top-k over MPI
# ranks at k = 128, 2^20 and 2^24: per |V|, k and rank count the in-core total
# (every slice on its GPU, the default) and the out-of-core one (--device-cap:
# the paper's sub-vectors stream from pinned host memory) with their
# communication and reload ms and speedups over one rank, beside the paper's
# numbers at k = 128 and the same |V| and GPU count (figures/tab2_paper.tsv,
# typed from the paper).  The rows are bin/drtopk-mpi's (table multi_gpu,
# schema 6; tests/gpu/mpi.sh, RUN_STEPS=mpi of tests/gpu/run.sh, stores
# them); without them the "not measured" panel.  Verdict: held when at every
# |V| and k measured on several rank counts the in-core total drops as ranks
# are added; not measured when none has two rank counts.
. "$(dirname "$0")/lib/common.sh"
exp_begin tab2_multigpu "Table 2: multi-GPU scalability of Dr. Top-k, in core and out of core"
PAPER="$EXP_GP/tab2_paper.tsv"
plot_one() {
    if ! exp_has_table multi_gpu; then
        exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" \
            "this database predates table multi_gpu (schema 6): no bin/drtopk-mpi rows (RUN_STEPS=mpi sh tests/gpu/run.sh)"
        return 0
    fi
    exp_fetch tab2_multigpu.sql "no bin/drtopk-mpi rows on this machine (RUN_STEPS=mpi sh tests/gpu/run.sh)" || return 0
    data="$EXP_DATA/${EXP_ID}-$M_SLUG.txt"
    # ours beside the paper's row of the same log2 |V| and GPU count at k = 128 (one rank per GPU)
    printf '%s\n' "$rows" | awk -F'|' -v paper="$PAPER" '
        function p2(n,   e) { e = 0; while (n > 1 && n % 2 == 0) { n /= 2; ++e } return n == 1 ? "2^" e : n }
        BEGIN { while ((getline l < paper) > 0) { if (l ~ /^#/) continue; split(l, f, "\t")
                    pt[f[1] "," f[2]] = sprintf("%s (%sx)", f[6], f[7]) }
                close(paper)
                printf "%-6s %-5s %5s %4s | %10s %8s %7s %-14s | %-6s %6s %10s %9s %8s %7s | %s\n", "|V|", "k", "ranks",
                       "GPUs", "in core ms", "comm ms", "speedup", "exchange", "cap", "chunks", "ooc ms", "reload ms",
                       "comm ms", "speedup", "paper k=128: total (x)" }
        { v = p2($1); key = substr(v, 3) "," $3
          printf "%-6s %-5s %5d %4d | %10s %8s %7s %-14s | %-6s %6s %10s %9s %8s %7s | %s\n", v, p2($2), $3, $4, $5,
                 $6, $7 == "-" ? "-" : $7 "x", $14, $8 == "-" ? "-" : p2($8), $9, $10, $11, $12, $13 == "-" ? "-" : $13 "x",
                 ($2 == 128 && ($4 == 0 || $3 == $4) && (key in pt)) ? pt[key] : "-" }
        END { printf "%s\nthe paper (V100, 4 per node; k = 128; ms):\n%-6s %5s %6s %18s %10s %8s\n", "----", "|V|", "GPUs",
                     "nodes", "total (speedup)", "reload", "comm"
              while ((getline l < paper) > 0) { if (l ~ /^#/) continue; split(l, f, "\t")
                  printf "%-6s %5d %6d %18s %10s %8s\n", "2^" f[1], f[2], f[3], f[6] " (" f[7] "x)", f[5], f[4] } }' |
        exp_write "$data"
    exp_plot table.gp "$EXP_TITLE (ours | the paper: V100, 4 per node)" "data=$data" || return 0
    # the claim: 4 GPUs over 1 at |V| = 2^30, k = 128, in core, one rank per GPU
    res="$(printf '%s\n' "$rows" | awk -F'|' '{ printf "%s2^%d k=%s x%d: in core %s ms (%sx), out of core %s ms (%sx)",
        (NR > 1 ? "; " : ""), log($1) / log(2) + 0.5, $2, $3, $5, $7, $10, $13 }')
$(printf '%s\n' "$rows" | awk -F'|' '$1 == 2^30 && $2 == 128 && $3 == 4 && $4 == 4 && $7 != "-" { s = $7 }
    END { printf "scale_4\t%s\tno in-core 4-GPU row at |V| = 2^30, k = 128\n", s == "" ? "-" : s }')"
    exp_settle "$res" "$(exp_rows "$rows")"
}
exp_for_machines plot_one
exp_end
