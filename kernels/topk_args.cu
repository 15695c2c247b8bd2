/*
 * topk_args.cu -- the argument checks every top-k launcher shares (kernels.h:
 * topk_check_input, topk_check_io, topk_check_run), so that flag radix (paper
 * 5.1), GGKS radix, bucket, bitonic and sort-and-choose answer the same status
 * for the same mistake.  Host code only, before any launch; its own object so
 * that a launcher's standalone test links it without the whole table.
 */
#include "kernels.h"

extern "C" drtopk_status topk_check_input(const topk_input *in)
{
    if (in == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    if (in->n_max == 0) return DRTOPK_ERR_N_ZERO;
    if (in->k == 0) return DRTOPK_ERR_K_ZERO;
    if (in->k > in->n_max) return DRTOPK_ERR_K_GT_N;
    if (!in->pos64 && in->n_max > DRTOPK_POS32_MAX_N) return DRTOPK_ERR_INVALID_ARGUMENT;
    if (in->src == TOPK_SRC_RAW) {
        if (in->raw == NULL || (unsigned)in->dtype >= DRTOPK_RAW_DTYPE_COUNT) return DRTOPK_ERR_INVALID_ARGUMENT;
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
