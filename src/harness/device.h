/*
 * device.h -- the harness's device utilities (programs and tests, never the
 * library): GPU selection and description, plain allocation and copies, the
 * seeded generator on the device, the read-once bandwidth floor, and the
 * result checker on the device.  CUDA build: device_util.cu, device_gen.cu and
 * device_check.cu; --cpu-only build: device_stub.c,
 * whose every call answers DRTOPK_ERR_NO_BACKEND.  Host programs include this
 * header and never a CUDA header.
 */
#ifndef DRTOPK_HARNESS_DEVICE_H
#define DRTOPK_HARNESS_DEVICE_H
#include "drtopk.h"
#include "gen_core.h"
#include "oracle.h"

#ifdef __cplusplus
extern "C" {
#endif

int dh_cuda_available(void);   /* 1 when built with CUDA and a GPU is visible */

typedef struct {
    char name[256];
    char uuid[64];          /* "GPU-xxxxxxxx-..." as nvidia-smi prints it */
    int cc_major, cc_minor;
    int sm_count;
    uint64_t mem_bytes;
    uint64_t l2_bytes;
    int driver_version;     /* cudaDriverGetVersion, e.g. 13000 */
    int runtime_version;    /* cudaRuntimeGetVersion */
} dh_device_info;

enum { DRTOPK_COPY_H2D = 0, DRTOPK_COPY_D2H, DRTOPK_COPY_D2D };

drtopk_status dh_dev_select(int gpu);
drtopk_status dh_dev_info(int gpu, dh_device_info *info);
/* cudaMalloc; a failure is returned and leaves no error pending. */
drtopk_status dh_dev_alloc(void **p, size_t bytes);
drtopk_status dh_dev_free(void *p);
drtopk_status dh_dev_copy(void *dst, const void *src, size_t bytes, int kind);
drtopk_status dh_dev_sync(void);
/* The current GPU's free and total memory in bytes (cudaMemGetInfo). */
drtopk_status dh_dev_mem_info(uint64_t *free_bytes, uint64_t *total_bytes);
/* Clear the CUDA error a failed launch left pending on this thread
 * (cudaGetLastError): DRTOPK_OK when none was, else DRTOPK_ERR_CUDA.  Tests
 * call it after each case, so a failed launch neither hides nor fails the
 * next case, and an error a successful call left behind is caught. */
drtopk_status dh_dev_clear_error(void);
/* Fill d_out (device) with n elements of the seeded data set, bit-identical
 * to dh_gen_host (gen.c). */
drtopk_status dh_dev_generate(void *d_out, uint64_t n, dh_dist d, drtopk_dtype t,
                              uint64_t seed, void *stream);
/* Elements first .. first + n - 1 of that data set (a slice of V). */
drtopk_status dh_dev_generate_at(void *d_out, uint64_t first, uint64_t n, dh_dist d, drtopk_dtype t,
                                 uint64_t seed, void *stream);
/* Read-bandwidth ceiling: ms to read `bytes` bytes once with a streaming
 * kernel (median of `reps`); the denominator of every achieved-bandwidth
 * figure.  Bytes, not keys: V of any key width (n x its size). */
drtopk_status dh_dev_read_ms(const void *d_buf, uint64_t bytes, int reps, double *ms);
/* GPU-only timing of one call (stream_hold.cuh, method "gpu" of util.h's
 * dh_timing): the legacy default stream is held, the start event, what
 * call(ctx) enqueues there and the end event are enqueued, then the hold is
 * released; *ms gets the span between the events, *enqueue_ms (may be NULL)
 * the host time call(ctx) took, and *primed 0 when the hold timed out before
 * the release (the span then includes enqueue time).  call must only enqueue:
 * one that synchronises waits for the hold's timeout.  A failed call's status
 * is returned (the hold is released either way). */
drtopk_status dh_dev_time_held(drtopk_status (*call)(void *ctx), void *ctx, double *ms, double *enqueue_ms,
                               int *primed);
/* Launch floor: ms between events recorded on the default stream around
 * one launch of an empty kernel (median of `reps`), as the library times a
 * call (drtopk_stats.ms_total); no call that launches a kernel takes less,
 * so small inputs are measured against it. */
drtopk_status dh_dev_launch_ms(int reps, double *ms);
/* Hold the legacy default stream for ns nanoseconds (a timed hold, before a
 * call that synchronises itself and so cannot be released by the host). */
drtopk_status dh_dev_hold_ns(uint64_t ns);
/* oracle.h's dh_check (no oracle values: the exact count) of a result that
 * lies on the device: p->values, d_values and d_indices are device pointers.
 * *r gets the verdict and the host checker's message.  DRTOPK_OK when the
 * check ran; DRTOPK_ERR_OUT_OF_MEMORY when its bitmap of n bits does not fit
 * beside the data (no error is left pending: check on the host instead). */
drtopk_status dh_dev_check(const drtopk_problem *p, const void *d_values, const uint64_t *d_indices,
                           dh_check_result *r);

#ifdef __cplusplus
}
#endif
#endif
