/*
 * algo_table.cu -- maps each drtopk_algo to its workspace query and launcher,
 * so that the pipeline (kernels/pipeline.cu) dispatches every top-k algorithm,
 * standalone or as the first/second top-k of Dr. Top-k (paper 4 and 5.1),
 * through one table (onepass and fused, beyond the paper, standalone only).  An algorithm file adds its row here.
 */
#include "kernels.h"
#include "baselines.h"

static const topk_algo_entry algo_table[DRTOPK_ALGO_COUNT] = {
    [DRTOPK_ALGO_RADIX] = { radix_topk_workspace, radix_topk },
    [DRTOPK_ALGO_RADIX_GGKS] = { radix_ggks_topk_workspace, radix_ggks_topk },
    [DRTOPK_ALGO_RADIX_GGKS_OOP] = { radix_ggks_oop_topk_workspace, radix_ggks_oop_topk },
    [DRTOPK_ALGO_BUCKET] = { bucket_topk_workspace, bucket_topk },
    [DRTOPK_ALGO_BUCKET_OOP] = { bucket_oop_topk_workspace, bucket_oop_topk },
    [DRTOPK_ALGO_BITONIC] = { bitonic_topk_workspace, bitonic_topk },
    [DRTOPK_ALGO_SORT_CUB] = { sort_cub_topk_workspace, sort_cub_topk },
    [DRTOPK_ALGO_SORT_THRUST] = { sort_thrust_topk_workspace, sort_thrust_topk },
    [DRTOPK_ALGO_ONEPASS] = { onepass_topk_workspace, onepass_topk, onepass_topk_stats, onepass_topk_final, 1 },
    [DRTOPK_ALGO_FUSED] = { small_n_topk_workspace, small_n_topk, NULL, small_n_topk_final, 1 },
};

extern "C" const topk_algo_entry *topk_algo_lookup(drtopk_algo a)
{
    if ((int)a < 0 || a >= DRTOPK_ALGO_COUNT || algo_table[a].run == NULL) return NULL;
    return &algo_table[a];
}
