/*
 * topk_list_stub.c -- top-k lists on the GPU (topk_list.h) in a --cpu-only
 * build: every call reports DRTOPK_ERR_NO_BACKEND.
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

drtopk_status topk_list_dev_create(drtopk_dtype t, drtopk_order o, uint64_t k, topk_list_dev **out)
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
drtopk_status topk_list_dev_offset(uint64_t *p, uint64_t n, uint64_t first)
{
    return DRTOPK_ERR_NO_BACKEND;
}
drtopk_status topk_list_dev_merge(topk_list_dev *m, void *a_v, uint64_t *a_p, uint64_t na, const void *b_v,
                                  const uint64_t *b_p, uint64_t nb, uint64_t *len)
{
    return DRTOPK_ERR_NO_BACKEND;
}
