/*
 * ooc_stub.c -- the device half of out-of-core Dr. Top-k (paper section 5.4;
 * ooc_dev.h) in a --cpu-only build: every call reports DRTOPK_ERR_NO_BACKEND.
 */
#include "ooc_dev.h"

drtopk_status ooc_dev_host_alloc(void **p, size_t bytes)
{
    *p = NULL;
    return DRTOPK_ERR_NO_BACKEND;
}
void ooc_dev_host_free(void *p) {}
drtopk_status ooc_dev_create(const drtopk_ooc_args *a, ooc_dev **out)
{
    *out = NULL;
    return DRTOPK_ERR_NO_BACKEND;
}
void ooc_dev_destroy(ooc_dev *d) {}
drtopk_status ooc_dev_load(ooc_dev *d, int slot, const void *src, uint64_t len) { return DRTOPK_ERR_NO_BACKEND; }
drtopk_status ooc_dev_filter(ooc_dev *d, int slot, uint64_t len, uint64_t pos0, int use_thr, uint64_t at,
                             uint64_t *kept)
{
    return DRTOPK_ERR_NO_BACKEND;
}
drtopk_status ooc_dev_select(ooc_dev *d, uint64_t m) { return DRTOPK_ERR_NO_BACKEND; }
drtopk_status ooc_dev_carry(ooc_dev *d, int slot, int threshold, double *reload_ms, double *compute_ms)
{
    return DRTOPK_ERR_NO_BACKEND;
}
drtopk_status ooc_dev_link_gbps(const void *src, size_t bytes, double *gbps) { return DRTOPK_ERR_NO_BACKEND; }
drtopk_status ooc_dev_result(ooc_dev *d, void *vals, uint64_t *pos) { return DRTOPK_ERR_NO_BACKEND; }
