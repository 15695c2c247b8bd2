/*
 * topk_list_stub.c -- top-k lists on the GPU for multi-GPU Dr. Top-k (paper
 * section 5.4; topk_list.h) in a --cpu-only build: every call reports
 * DRTOPK_ERR_NO_BACKEND.
 */
#include "topk_list.h"

#include <stddef.h>

drtopk_status topk_ipc_reachable(int dev, int peer, int *yes)
{
    *yes = 0;
    return DRTOPK_ERR_NO_BACKEND;
}
drtopk_status topk_ipc_export(void *base, topk_ipc_handle *h) { return DRTOPK_ERR_NO_BACKEND; }
drtopk_status topk_ipc_open(const topk_ipc_handle *h, void **p)
{
    *p = NULL;
    return DRTOPK_ERR_NO_BACKEND;
}
drtopk_status topk_ipc_close(void *p) { return p ? DRTOPK_ERR_NO_BACKEND : DRTOPK_OK; }
drtopk_status topk_ipc_copy(void *dst, const void *src, size_t bytes) { return DRTOPK_ERR_NO_BACKEND; }
drtopk_status topk_ipc_wait(void) { return DRTOPK_ERR_NO_BACKEND; }

drtopk_status topk_list_dev_create(drtopk_dtype t, drtopk_order o, uint64_t order_k, unsigned flags,
                                   topk_list_dev **out)
{
    *out = NULL;
    return DRTOPK_ERR_NO_BACKEND;
}
void topk_list_dev_destroy(topk_list_dev *m) {}
drtopk_status topk_list_dev_order(topk_list_dev *m, const void *in_v, const uint64_t *in_p, uint64_t n,
                                  uint64_t first, void *out_v, uint64_t *out_p)
{
    return DRTOPK_ERR_NO_BACKEND;
}
drtopk_status topk_list_dev_hist(topk_list_dev *m, const void *vals, uint64_t n, uint64_t prefix, int shift,
                                 uint64_t *hist)
{
    return DRTOPK_ERR_NO_BACKEND;
}
drtopk_status topk_list_dev_compact(topk_list_dev *m, const void *vals, const uint64_t *pos, uint64_t n, uint64_t thr,
                                    uint64_t above, uint64_t ties, uint64_t first, void *out_v, uint64_t *out_p)
{
    return DRTOPK_ERR_NO_BACKEND;
}
drtopk_status topk_list_dev_shift(topk_list_dev *m, const void *in_v, const uint64_t *in_p, uint64_t n,
                                  uint64_t first, void *out_v, uint64_t *out_p)
{
    return DRTOPK_ERR_NO_BACKEND;
}
drtopk_status topk_list_dev_select(topk_list_dev *m, const void *in_v, const uint64_t *in_p, uint64_t n, uint64_t k,
                                   int sorted, void *out_v, uint64_t *out_p)
{
    return DRTOPK_ERR_NO_BACKEND;
}
