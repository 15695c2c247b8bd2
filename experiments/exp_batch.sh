#!/bin/bash
# exp_batch.sh -- beyond the paper: batched and segmented
# top-k, per GPU a group of bars per workload: median ms of ours (`drtopk
# batch`), batched torch.topk, CUB DeviceBatchedTopK (CCCL 3.5) and the read
# floor (torch.sum over the input), on the batched workloads (token sampling,
# MoE routing, ANN re-ranking, long rows, power-law segments).  The rows are
# experiments/batch_bench.sh's peer rows (batch.drtopk, batch.torch_topk,
# batch.cub_batched_topk, batch.read_once; RUN_STEPS=batch of
# tests/gpu/run.sh stores them, with the CUB peer built); this script
# measures nothing, also with a GPU: batch_bench.sh re-measures every
# workload on GPU 0 (no resume) and needs the CUB peer tests/gpu/run.sh
# builds.  Verdict (the target of figures/claims.tsv): held when ours is at least 1.5x
# faster than the faster of torch.topk and CUB on every workload a peer ran;
# not held when it is slower than that somewhere or has no row where a peer
# has one; not measured when no peer ran (the CPU backend: ours only).
. "$(dirname "$0")/lib/common.sh"
exp_begin exp_batch "Beyond the paper: batched and segmented top-k beside torch.topk and CUB (f32, UD)"
TARGET_SPEEDUP=1.5              # the target: at least 1.5x the faster of CUB DeviceBatchedTopK and torch.topk
HOW="RUN_STEPS=batch sh tests/gpu/run.sh, or experiments/batch_bench.sh --db DB"
plot_one() {
    exp_fetch exp_batch.sql "no batched top-k rows on this machine ($HOW)" || return 0
    # name|n|k|ours|torch|cub|floor|cub_skipped -> "label" ours torch cub floor "ratio" top
    data="$EXP_DATA/${EXP_ID}-$M_SLUG.dat"
    printf '%s\n' "$rows" | awk -F'|' '
        function v(x) { return x == "-" ? "NaN" : x }
        { best = ""
          if ($5 != "-") best = $5
          if ($6 != "-" && (best == "" || $6 + 0 < best + 0)) best = $6
          top = 0; for (i = 4; i <= 7; ++i) if ($i != "-" && $i + 0 > top) top = $i + 0
          label = $1 ", k " $3 ($8 ? " (CUB: n/s)" : "")
          ratio = (best != "" && $4 != "-") ? sprintf("%.2fx", best / $4) : "-"
          printf "\"%s\" %s %s %s %s \"%s\" %s\n", label, v($4), v($5), v($6), v($7), ratio, top }' |
        exp_write "$data"
    exp_plot exp_batch.gp "$EXP_TITLE; bar labels: the best peer over ours" "data=$data" || return 0
    res=$(printf '%s\n' "$rows" | awk -F'|' -v target="$TARGET_SPEEDUP" '
        { best = ""; who = ""
          if ($5 != "-") { best = $5; who = "torch.topk" }
          if ($6 != "-" && (best == "" || $6 + 0 < best + 0)) { best = $6; who = "CUB" }
          if (best == "") { text = text sprintf("%s%s: %s ms (no peer)", sep, $1, $4); sep = "; "; next }
          ++compared
          if ($4 == "-") { bad = 1; text = text sprintf("%s%s: ours has no row, %s %.4g ms", sep, $1, who, best) }
          else { x = best / $4; if (x < target) bad = 1
                 text = text sprintf("%s%s: %.4g ms, %.2fx %s", sep, $1, $4, x, who) }
          sep = "; " }
        END { printf "%s\t%s\n", text, !compared ? "not measured" : (bad ? "not held" : "held") }')
    exp_record "$M_SLUG" "$M_NAME" "$(exp_rows "$rows")" ok "${res%%	*}" "${res##*	}"
}
exp_for_machines plot_one
exp_end
