/*
 * baselines.h -- launchers of the baseline top-k algorithms of paper section
 * 2.2 (GGKS radix and bucket top-k, sort-and-choose) and of bitonic top-k
 * (Shanbhag et al., SIGMOD'18), each with the
 * NAME_topk_workspace / NAME_topk pair of kernels.h, so that algo_table.cu
 * can list them and tests can call them directly.
 */
#ifndef DRTOPK_BASELINES_H
#define DRTOPK_BASELINES_H
#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DRTOPK_DECLARE_TOPK(NAME)                                                    \
    drtopk_status NAME##_topk_workspace(const topk_input *in, size_t *bytes);       \
    drtopk_status NAME##_topk(const topk_input *in, const topk_output *out, void *ws, \
                              size_t ws_bytes, cudaStream_t s);

DRTOPK_DECLARE_TOPK(radix_ggks)      /* GGKS radix, in place by overwriting  */
DRTOPK_DECLARE_TOPK(radix_ggks_oop)  /* GGKS radix, out of place             */
DRTOPK_DECLARE_TOPK(bucket)          /* bucket top-k, in place               */
DRTOPK_DECLARE_TOPK(bucket_oop)      /* bucket top-k, out of place           */
DRTOPK_DECLARE_TOPK(sort_cub)        /* CUB DeviceRadixSort, then first k    */
DRTOPK_DECLARE_TOPK(sort_thrust)     /* thrust::sort_by_key, then first k    */
DRTOPK_DECLARE_TOPK(bitonic)         /* bitonic top-k, shared-memory runs    */

#ifdef __cplusplus
}
#endif
#endif
