/*
 * device_stub.c -- the harness's device utilities in a --cpu-only build
 * (device.h, microbench.h): every call reports DRTOPK_ERR_NO_BACKEND, so the
 * CLI, tuner and tests link and run their CPU paths unchanged and say clearly
 * why a GPU request failed.
 */
#include "device.h"
#include "microbench.h"

int dh_cuda_available(void) { return 0; }

drtopk_status dh_dev_select(int gpu) { return DRTOPK_ERR_NO_BACKEND; }
drtopk_status dh_dev_info(int gpu, dh_device_info *info) { return DRTOPK_ERR_NO_BACKEND; }
drtopk_status dh_dev_alloc(void **p, size_t bytes)
{
    if (p) *p = NULL;   /* callers may free what they got on any path */
    return DRTOPK_ERR_NO_BACKEND;
}
drtopk_status dh_dev_free(void *p) { return DRTOPK_ERR_NO_BACKEND; }
drtopk_status dh_dev_copy(void *dst, const void *src, size_t bytes, int kind) { return DRTOPK_ERR_NO_BACKEND; }
drtopk_status dh_dev_sync(void) { return DRTOPK_ERR_NO_BACKEND; }
drtopk_status dh_dev_clear_error(void) { return DRTOPK_ERR_NO_BACKEND; }
drtopk_status dh_dev_mem_info(uint64_t *free_bytes, uint64_t *total_bytes)
{
    *free_bytes = *total_bytes = 0;
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status dh_dev_generate(void *d_out, uint64_t n, dh_dist d, drtopk_dtype t,
                              uint64_t seed, void *stream)
{
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status dh_dev_generate_at(void *d_out, uint64_t first, uint64_t n, dh_dist d, drtopk_dtype t,
                                 uint64_t seed, void *stream)
{
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status dh_dev_read_ms(const void *d_buf, uint64_t bytes, int reps, double *ms)
{
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status dh_dev_launch_ms(int reps, double *ms)
{
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status dh_dev_time_held(drtopk_status (*call)(void *ctx), void *ctx, double *ms, double *enqueue_ms,
                               int *primed)
{
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status dh_dev_hold_ns(uint64_t ns) { return DRTOPK_ERR_NO_BACKEND; }

drtopk_status dh_dev_check(const drtopk_problem *p, const void *d_values, const uint64_t *d_indices,
                           dh_check_result *r)
{
    return DRTOPK_ERR_NO_BACKEND;
}

/* Paper Eq. 11's C_global and C_shfl need a GPU. */
drtopk_status dh_microbench_cycles(int gpu, double *c_global, double *c_shfl)
{
    return DRTOPK_ERR_NO_BACKEND;
}
