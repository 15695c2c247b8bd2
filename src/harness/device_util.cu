/*
 * device_util.cu -- the device utilities of backend.h that host programs (CLI,
 * tests, tuner) use without including CUDA headers: device choice and facts,
 * memory, copies, and the read-once bandwidth floor that every achieved-
 * bandwidth figure of the stage breakdowns (paper 4.1, Figures 6-15) is
 * measured against.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "status_cuda.h"
#include "stream_hold.cuh"
#include "util.h"

#define READ_BLOCK 256           /* threads per block of the streaming read   */
#define READ_BLOCKS_PER_SM 8     /* enough resident warps to saturate HBM     */
#define READ_UNROLL 4            /* independent 16-byte loads in flight       */
#define READ_WARMUPS 2           /* untimed runs before the median            */
#define READ_SENTINEL 0x9E3779B9u /* a sum the data never produces in practice:
                                    the store that keeps the loads alive      */

extern "C" int dh_cuda_available(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();      /* clear the sticky "no device" error */
        return 0;
    }
    return count > 0;
}

extern "C" drtopk_status dh_dev_select(int gpu)
{
    int count = 0;
    STATUS_CUDA_TRY(cudaGetDeviceCount(&count));
    if (gpu < 0 || gpu >= count) return DRTOPK_ERR_INVALID_ARGUMENT;
    STATUS_CUDA_TRY(cudaSetDevice(gpu));
    return DRTOPK_OK;
}

extern "C" drtopk_status dh_dev_info(int gpu, dh_device_info *info)
{
    cudaDeviceProp prop;
    int count = 0;
    if (info == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    STATUS_CUDA_TRY(cudaGetDeviceCount(&count));
    if (gpu < 0 || gpu >= count) return DRTOPK_ERR_INVALID_ARGUMENT;
    STATUS_CUDA_TRY(cudaGetDeviceProperties(&prop, gpu));
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    /* the 16 UUID bytes grouped 4-2-2-2-6, as nvidia-smi -L prints them */
    {
        const unsigned char *u = (const unsigned char *)prop.uuid.bytes;
        char *o = info->uuid;
        size_t left = sizeof info->uuid;
        int w = snprintf(o, left, "GPU-");
        for (int i = 0; i < 16 && w > 0 && (size_t)w < left; ++i) {
            o += w;
            left -= (size_t)w;
            w = snprintf(o, left, "%s%02x", (i == 4 || i == 6 || i == 8 || i == 10) ? "-" : "", u[i]);
        }
    }
    info->cc_major = prop.major;
    info->cc_minor = prop.minor;
    info->sm_count = prop.multiProcessorCount;
    info->mem_bytes = (uint64_t)prop.totalGlobalMem;
    info->l2_bytes = (uint64_t)prop.l2CacheSize;
    STATUS_CUDA_TRY(cudaDriverGetVersion(&info->driver_version));
    STATUS_CUDA_TRY(cudaRuntimeGetVersion(&info->runtime_version));
    return DRTOPK_OK;
}

extern "C" drtopk_status dh_dev_alloc(void **p, size_t bytes)
{
    if (p == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    *p = NULL;
    const cudaError_t e = cudaMalloc(p, bytes ? bytes : 1);
    if (e == cudaSuccess) return DRTOPK_OK;
    /* reported here, so not again by the next launch's check: a failed
     * allocation leaves its error pending on the thread (cudaGetLastError),
     * and the next data set's generator would fail with it */
    (void)cudaGetLastError();
    *p = NULL;
    return e == cudaErrorMemoryAllocation ? DRTOPK_ERR_OUT_OF_MEMORY : DRTOPK_ERR_CUDA;
}

extern "C" drtopk_status dh_dev_free(void *p)
{
    STATUS_CUDA_TRY(cudaFree(p));
    return DRTOPK_OK;
}

extern "C" drtopk_status dh_dev_copy(void *dst, const void *src, size_t bytes, int kind)
{
    cudaMemcpyKind k;
    switch (kind) {
    case DRTOPK_COPY_H2D: k = cudaMemcpyHostToDevice; break;
    case DRTOPK_COPY_D2H: k = cudaMemcpyDeviceToHost; break;
    case DRTOPK_COPY_D2D: k = cudaMemcpyDeviceToDevice; break;
    default: return DRTOPK_ERR_INVALID_ARGUMENT;
    }
    if ((dst == NULL || src == NULL) && bytes > 0) return DRTOPK_ERR_INVALID_ARGUMENT;
    if (bytes == 0) return DRTOPK_OK;
    STATUS_CUDA_TRY(cudaMemcpy(dst, src, bytes, k));
    return DRTOPK_OK;
}

extern "C" drtopk_status dh_dev_sync(void)
{
    STATUS_CUDA_TRY(cudaDeviceSynchronize());
    return DRTOPK_OK;
}

extern "C" drtopk_status dh_dev_mem_info(uint64_t *free_bytes, uint64_t *total_bytes)
{
    size_t f = 0, t = 0;
    STATUS_CUDA_TRY(cudaMemGetInfo(&f, &t));
    *free_bytes = f;
    *total_bytes = t;
    return DRTOPK_OK;
}

extern "C" drtopk_status dh_dev_clear_error(void)
{
    return cudaGetLastError() == cudaSuccess ? DRTOPK_OK : DRTOPK_ERR_CUDA;
}

/* Streaming read of nvec 16-byte vectors and ntail (< 16) bytes after them:
 * READ_UNROLL loads in flight per thread, an XOR fold that is stored only if
 * it hits a sentinel (never in practice), so the compiler keeps every load. */
__global__ void read_once_kernel(const uint4 *__restrict__ v, uint64_t nvec,
                                 const uint8_t *__restrict__ tail, uint32_t ntail,
                                 uint32_t *sink)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t acc = 0;
    for (; i + (READ_UNROLL - 1) * stride < nvec; i += READ_UNROLL * stride) {
        uint4 x[READ_UNROLL];
#pragma unroll
        for (int u = 0; u < READ_UNROLL; ++u) x[u] = __ldcs(v + i + u * stride);
#pragma unroll
        for (int u = 0; u < READ_UNROLL; ++u) acc ^= x[u].x ^ x[u].y ^ x[u].z ^ x[u].w;
    }
    for (; i < nvec; i += stride) {
        uint4 x = __ldcs(v + i);
        acc ^= x.x ^ x.y ^ x.z ^ x.w;
    }
    if (blockIdx.x == 0 && threadIdx.x < ntail) acc ^= tail[threadIdx.x];
    if (acc == READ_SENTINEL) *sink = acc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of t[0..reps) (sorts t). */
static double median_sorted(double *t, int reps)
{
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    return (reps % 2) ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
}

/* The median ms over `reps` runs (after READ_WARMUPS untimed ones) between
 * events recorded on the default stream around launch(), which launches
 * one kernel there. */
template <typename F>
static drtopk_status events_median_ms(int reps, F launch, double *ms)
{
    cudaEvent_t e0 = NULL, e1 = NULL;
    drtopk_status st = DRTOPK_OK;
    double *t = (double *)malloc((size_t)reps * sizeof *t);
    if (t == NULL) return DRTOPK_ERR_OUT_OF_MEMORY;
    cudaError_t e = cudaEventCreate(&e0);
    if (e == cudaSuccess) e = cudaEventCreate(&e1);
    for (int r = -READ_WARMUPS; r < reps && e == cudaSuccess; ++r) {
        float f = 0;
        e = cudaEventRecord(e0, 0);
        launch();
        if (e == cudaSuccess) e = cudaGetLastError();
        if (e == cudaSuccess) e = cudaEventRecord(e1, 0);
        if (e == cudaSuccess) e = cudaEventSynchronize(e1);
        if (e == cudaSuccess) e = cudaEventElapsedTime(&f, e0, e1);
        if (r >= 0) t[r] = f;
    }
    if (e != cudaSuccess) st = e == cudaErrorMemoryAllocation ? DRTOPK_ERR_OUT_OF_MEMORY : DRTOPK_ERR_CUDA;
    if (st == DRTOPK_OK) *ms = median_sorted(t, reps);
    free(t);
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    return st;
}

extern "C" drtopk_status dh_dev_read_ms(const void *d_buf, uint64_t bytes, int reps, double *ms)
{
    cudaDeviceProp prop;
    int dev;
    uint32_t *sink = NULL;
    if (d_buf == NULL || ms == NULL || bytes == 0 || reps < 1) return DRTOPK_ERR_INVALID_ARGUMENT;
    if (((uintptr_t)d_buf & (sizeof(uint4) - 1)) != 0) return DRTOPK_ERR_MISALIGNED;
    STATUS_CUDA_TRY(cudaGetDevice(&dev));
    STATUS_CUDA_TRY(cudaGetDeviceProperties(&prop, dev));
    const cudaError_t e = cudaMalloc(&sink, sizeof *sink);
    if (e != cudaSuccess) return e == cudaErrorMemoryAllocation ? DRTOPK_ERR_OUT_OF_MEMORY : DRTOPK_ERR_CUDA;
    const uint64_t nvec = bytes / sizeof(uint4);
    const uint32_t ntail = (uint32_t)(bytes % sizeof(uint4));
    const uint8_t *tail = (const uint8_t *)d_buf + nvec * sizeof(uint4);
    const int grid = prop.multiProcessorCount * READ_BLOCKS_PER_SM;
    const drtopk_status st = events_median_ms(reps, [&] {
        read_once_kernel<<<grid, READ_BLOCK>>>((const uint4 *)d_buf, nvec, tail, ntail, sink);
    }, ms);
    cudaFree(sink);
    return st;
}

/* An empty kernel: a launch with no work. */
__global__ void empty_kernel() {}

extern "C" drtopk_status dh_dev_launch_ms(int reps, double *ms)
{
    if (ms == NULL || reps < 1) return DRTOPK_ERR_INVALID_ARGUMENT;
    return events_median_ms(reps, [] { empty_kernel<<<1, 1>>>(); }, ms);
}

/* One hold for the process's timed calls on the default stream (programs time
 * one call at a time); freed at exit with the CUDA context. */
static drtopk_status default_hold(drtopk_stream_hold **out)
{
    static drtopk_stream_hold hold;
    if (hold.word == NULL) STATUS_CUDA_TRY(drtopk_hold_create(&hold));
    *out = &hold;
    return DRTOPK_OK;
}

extern "C" drtopk_status dh_dev_time_held(drtopk_status (*call)(void *ctx), void *ctx, double *ms,
                                          double *enqueue_ms, int *primed)
{
    drtopk_stream_hold *h;
    cudaEvent_t e0 = NULL, e1 = NULL;
    drtopk_status st;
    if (call == NULL || ms == NULL || primed == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    if ((st = default_hold(&h)) != DRTOPK_OK) return st;
    cudaError_t e = cudaEventCreate(&e0);
    if (e == cudaSuccess) e = cudaEventCreate(&e1);
    if (e == cudaSuccess) e = drtopk_hold_begin(h, 0, DRTOPK_HOLD_TIMEOUT_NS);
    const int held = e == cudaSuccess;
    if (e == cudaSuccess) e = cudaEventRecord(e0, 0);
    st = DRTOPK_OK;
    if (e == cudaSuccess) {
        const double t0 = dh_now_ms();
        st = call(ctx);
        if (enqueue_ms) *enqueue_ms = dh_now_ms() - t0;
    }
    if (e == cudaSuccess && st == DRTOPK_OK) e = cudaEventRecord(e1, 0);
    if (held) drtopk_hold_release(h);      /* always: the stream must go on */
    cudaError_t sync = cudaStreamSynchronize(0);
    if (e == cudaSuccess) e = sync;
    float f = 0;
    if (e == cudaSuccess && st == DRTOPK_OK) e = cudaEventElapsedTime(&f, e0, e1);
    *ms = f;
    *primed = held && drtopk_hold_primed(h);
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    if (st != DRTOPK_OK) return st;
    return e == cudaSuccess ? DRTOPK_OK : e == cudaErrorMemoryAllocation ? DRTOPK_ERR_OUT_OF_MEMORY : DRTOPK_ERR_CUDA;
}

extern "C" drtopk_status dh_dev_hold_ns(uint64_t ns)
{
    drtopk_stream_hold *h;
    drtopk_status st = default_hold(&h);
    if (st != DRTOPK_OK) return st;
    STATUS_CUDA_TRY(drtopk_hold_begin(h, 0, ns));   /* never released: it times out */
    return DRTOPK_OK;
}
