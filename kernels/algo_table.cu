/*
 * algo_table.cu -- maps each drtopk_algo to its workspace query and launcher,
 * so that the pipeline (kernels/pipeline.cu) dispatches every top-k algorithm,
 * standalone or as the first/second top-k of Dr. Top-k (paper 4 and 5.1),
 * through one table.  An algorithm file adds its row here.  Also the argument
 * checks that every launcher shares.
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
};

extern "C" drtopk_status topk_check_input(const topk_input *in)
{
    if (in == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    if (in->n_max == 0) return DRTOPK_ERR_N_ZERO;
    if (in->k == 0) return DRTOPK_ERR_K_ZERO;
    if (in->k > in->n_max) return DRTOPK_ERR_K_GT_N;
    if (!in->pos64 && in->n_max > DRTOPK_POS32_MAX_N) return DRTOPK_ERR_INVALID_ARGUMENT;
    if (in->src == TOPK_SRC_RAW) {
        if (in->raw == NULL || (unsigned)in->dtype >= DRTOPK_DTYPE_COUNT) return DRTOPK_ERR_INVALID_ARGUMENT;
        if (in->order != DRTOPK_LARGEST && in->order != DRTOPK_SMALLEST) return DRTOPK_ERR_INVALID_ARGUMENT;
        if ((uintptr_t)in->raw % sizeof(uint32_t)) return DRTOPK_ERR_MISALIGNED;
    } else if (in->src == TOPK_SRC_PAIRS) {
        if (in->keys == NULL || in->pos == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
        if ((uintptr_t)in->keys % sizeof(uint32_t) ||
            (uintptr_t)in->pos % (in->pos64 ? sizeof(uint64_t) : sizeof(uint32_t)))
            return DRTOPK_ERR_MISALIGNED;
    } else {
        return DRTOPK_ERR_INVALID_ARGUMENT;
    }
    return DRTOPK_OK;
}

extern "C" drtopk_status topk_check_io(const topk_input *in, const topk_output *out)
{
    const drtopk_status st = topk_check_input(in);
    if (st != DRTOPK_OK) return st;
    if (out == NULL || out->keys == NULL || out->pos == NULL || out->d_count == NULL || out->d_threshold == NULL ||
        out->capacity < in->k)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    return DRTOPK_OK;
}

extern "C" drtopk_status topk_check_run(const topk_input *in, const topk_output *out, const void *ws,
                                        size_t ws_bytes, size_t need)
{
    const drtopk_status st = topk_check_io(in, out);
    if (st != DRTOPK_OK) return st;
    if (ws_bytes < need) return DRTOPK_ERR_WORKSPACE_TOO_SMALL;
    if (need && ws == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    return DRTOPK_OK;
}

extern "C" const topk_algo_entry *topk_algo_lookup(drtopk_algo a)
{
    if ((int)a < 0 || a >= DRTOPK_ALGO_COUNT || algo_table[a].run == NULL) return NULL;
    return &algo_table[a];
}
