/*
 * batch_topk.cu -- batched and segmented top-k on the GPU (drtopk.h,
 * drtopk_batch_*; issue 16).  Not implemented yet: both entry points report
 * DRTOPK_ERR_UNSUPPORTED, so that the CUDA library links and says why.
 */
#include "backend.h"

#define BATCH_CUDA_MISSING "batched / segmented top-k is not implemented on the CUDA backend yet; use the CPU backend"

extern "C" drtopk_status drtopk_cuda_batch_workspace(const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                                                     size_t *bytes)
{
    drtopk_error_set(BATCH_CUDA_MISSING);
    return DRTOPK_ERR_UNSUPPORTED;
}

extern "C" drtopk_status drtopk_cuda_batch_select(const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                                                  void *ws, size_t ws_bytes, void *out_values, uint64_t *out_indices,
                                                  void *stream)
{
    drtopk_error_set(BATCH_CUDA_MISSING);
    return DRTOPK_ERR_UNSUPPORTED;
}
