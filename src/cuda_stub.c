/*
 * cuda_stub.c -- the CUDA backend of a --cpu-only build (backend.h): every
 * entry point reports DRTOPK_ERR_NO_BACKEND, so host programs link and run
 * their CPU paths unchanged and say clearly why a GPU request failed.
 */
#include "backend.h"

int drtopk_cuda_available(void) { return 0; }

drtopk_status drtopk_cuda_workspace(const drtopk_problem *p, const drtopk_plan *plan, size_t *bytes)
{
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status drtopk_cuda_select(const drtopk_problem *p, const drtopk_plan *plan,
                                 void *ws, size_t ws_bytes, void *out_values,
                                 uint64_t *out_indices, void *stream, drtopk_stats *stats)
{
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status drtopk_dev_select(int gpu) { return DRTOPK_ERR_NO_BACKEND; }
drtopk_status drtopk_dev_info(int gpu, drtopk_device_info *info) { return DRTOPK_ERR_NO_BACKEND; }
drtopk_status drtopk_dev_alloc(void **p, size_t bytes)
{
    if (p) *p = NULL;   /* callers may free what they got on any path */
    return DRTOPK_ERR_NO_BACKEND;
}
drtopk_status drtopk_dev_free(void *p) { return DRTOPK_ERR_NO_BACKEND; }
drtopk_status drtopk_dev_copy(void *dst, const void *src, size_t bytes, int kind) { return DRTOPK_ERR_NO_BACKEND; }
drtopk_status drtopk_dev_sync(void) { return DRTOPK_ERR_NO_BACKEND; }

drtopk_status drtopk_dev_generate(void *d_out, uint64_t n, drtopk_dist d, drtopk_dtype t,
                                  uint64_t seed, void *stream)
{
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status drtopk_dev_read_ms(const void *d_buf, uint64_t n, int reps, double *ms)
{
    return DRTOPK_ERR_NO_BACKEND;
}
