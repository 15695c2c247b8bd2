/*
 * ooc.cu -- the device half of out-of-core Dr. Top-k (paper section 5.4,
 * Table 2; ooc.h, ooc_dev.h): sub-vectors copied from pinned host memory on a
 * copy stream into two buffers while the compute stream filters the previous
 * one against the carried k-th value, appends the survivors (with their
 * global positions) to the running top-k, and reduces that with the library's
 * drtopk_select.  Events order the two streams (copy j waits until compute
 * released its buffer; compute waits for copy j) and time them apart.  Every
 * key width: the kernels are templates over the element's unsigned type.
 */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>
#include "status_cuda.h"
#include "keyorder.h"
#include "ooc_dev.h"
#include "key_of.cuh"

#define OOC_BLOCK 256           /* threads per block of the filter/gather kernels */
#define OOC_BLOCKS_PER_SM 8     /* grid-stride: enough blocks to fill the GPU      */
#define WARP 32
#define LINK_PROBE_REPS 3       /* the best of a few copies: the link, not the noise */
#define BYTES_PER_GB 1e9
#define MS_PER_S 1e3

struct ooc_dev {
    drtopk_ooc_args a;
    uint64_t len;               /* buffer length: min(cap, n)                      */
    size_t esz;                 /* bytes of one element                            */
    void *slot[2];
    void *cand_v, *out_v;       /* k + len candidates; a top-k's output (k)        */
    uint64_t *cand_p, *out_i, *tmp_p;
    uint64_t *thr_key;          /* carried threshold (ordered key), device         */
    unsigned long long *count;  /* survivors of the current filter, device         */
    unsigned long long *h_count; /* its pinned host copy                          */
    void *ws;
    size_t ws_bytes;
    cudaStream_t copy, comp;
    cudaEvent_t loaded[2], freed[2], load0[2], comp0, comp1;
    int grid;
};

/* Append the elements of `in` better than *thr (all when thr is NULL), with
 * their global positions, to out_v/out_p; one atomic per warp.  UT: the
 * element's unsigned type. */
template <typename UT>
__global__ void ooc_filter_kernel(const UT *__restrict__ in, uint64_t len, uint64_t pos0, const uint64_t *thr,
                                  drtopk_dtype t, drtopk_order o, UT *out_v, uint64_t *out_p,
                                  unsigned long long *count)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    const UT bar = thr ? (UT)*thr : (UT)0;
    const int lane = threadIdx.x % WARP;
    /* every lane of a warp runs the same number of rounds (for the ballot) */
    for (uint64_t base = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x - lane); base < len; base += stride) {
        const uint64_t i = base + lane;
        UT b = 0;
        int keep = 0;
        if (i < len) {
            b = in[i];
            keep = thr == NULL || key_of(b, t, o) > bar;
        }
        const unsigned mask = __ballot_sync(0xffffffffu, keep);
        unsigned long long at = 0;
        if (lane == 0 && mask) at = atomicAdd(count, (unsigned long long)__popc(mask));
        at = __shfl_sync(0xffffffffu, at, 0);
        if (keep) {
            const uint64_t j = at + __popc(mask & ((1u << lane) - 1u));
            out_v[j] = b;
            out_p[j] = pos0 + i;
        }
    }
}

/* out_p[i] = cand_p[idx[i]]: the winners' global positions. */
__global__ void ooc_gather_kernel(const uint64_t *__restrict__ idx, const uint64_t *__restrict__ cand_p,
                                  uint64_t k, uint64_t *out_p)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < k; i += stride)
        out_p[i] = cand_p[idx[i]];
}

/* *thr = the smallest ordered key of v[0..k): one block. */
template <typename UT>
__global__ void ooc_threshold_kernel(const UT *__restrict__ v, uint64_t k, drtopk_dtype t, drtopk_order o,
                                     uint64_t *thr)
{
    __shared__ UT worst[OOC_BLOCK];
    UT w = (UT)~(UT)0;
    for (uint64_t i = threadIdx.x; i < k; i += blockDim.x) {
        const UT key = key_of(v[i], t, o);
        w = key < w ? key : w;
    }
    worst[threadIdx.x] = w;
    __syncthreads();
    for (int s = OOC_BLOCK / 2; s > 0; s /= 2) {
        if ((int)threadIdx.x < s && worst[threadIdx.x + s] < worst[threadIdx.x])
            worst[threadIdx.x] = worst[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) *thr = worst[0];
}

/* The kernels at the width of d's key type. */
static void launch_filter(const ooc_dev *d, int grid, int slot, uint64_t len, uint64_t pos0, int use_thr,
                          uint64_t at)
{
    const drtopk_ooc_args *a = &d->a;
    const uint64_t *thr = use_thr ? d->thr_key : NULL;
#define OOC_FILTER(UT)                                                                                        \
    ooc_filter_kernel<UT><<<grid, OOC_BLOCK, 0, d->comp>>>((const UT *)d->slot[slot], len, pos0, thr, a->dtype, \
                                                           a->order, (UT *)d->cand_v + at, d->cand_p + at, d->count)
    switch (drtopk_dtype_bits(a->dtype)) {
    case 16: OOC_FILTER(uint16_t); break;
    case 32: OOC_FILTER(uint32_t); break;
    default: OOC_FILTER(uint64_t); break;
    }
#undef OOC_FILTER
}

static void launch_threshold(const ooc_dev *d)
{
    const drtopk_ooc_args *a = &d->a;
#define OOC_THRESHOLD(UT) \
    ooc_threshold_kernel<UT><<<1, OOC_BLOCK, 0, d->comp>>>((const UT *)d->cand_v, a->k, a->dtype, a->order, d->thr_key)
    switch (drtopk_dtype_bits(a->dtype)) {
    case 16: OOC_THRESHOLD(uint16_t); break;
    case 32: OOC_THRESHOLD(uint32_t); break;
    default: OOC_THRESHOLD(uint64_t); break;
    }
#undef OOC_THRESHOLD
}

extern "C" drtopk_status ooc_dev_host_alloc(void **p, size_t bytes)
{
    *p = NULL;
    STATUS_CUDA_TRY(cudaMallocHost(p, bytes ? bytes : 1));
    return DRTOPK_OK;
}

extern "C" void ooc_dev_host_free(void *p)
{
    cudaFreeHost(p);
}

extern "C" void ooc_dev_destroy(ooc_dev *d)
{
    if (d == NULL) return;
    if (d->comp) cudaStreamSynchronize(d->comp);
    if (d->copy) cudaStreamSynchronize(d->copy);
    for (int s = 0; s < 2; ++s) {
        cudaFree(d->slot[s]);
        if (d->loaded[s]) cudaEventDestroy(d->loaded[s]);
        if (d->freed[s]) cudaEventDestroy(d->freed[s]);
        if (d->load0[s]) cudaEventDestroy(d->load0[s]);
    }
    if (d->comp0) cudaEventDestroy(d->comp0);
    if (d->comp1) cudaEventDestroy(d->comp1);
    cudaFree(d->cand_v);
    cudaFree(d->out_v);
    cudaFree(d->cand_p);
    cudaFree(d->out_i);
    cudaFree(d->tmp_p);
    cudaFree(d->thr_key);
    cudaFree(d->count);
    cudaFree(d->ws);
    cudaFreeHost(d->h_count);
    if (d->copy) cudaStreamDestroy(d->copy);
    if (d->comp) cudaStreamDestroy(d->comp);
    free(d);
}

static drtopk_status create(const drtopk_ooc_args *a, ooc_dev *d)
{
    int dev, sms;
    const uint64_t k = a->k, len = d->len;
    STATUS_CUDA_TRY(cudaGetDevice(&dev));
    STATUS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    d->grid = sms * OOC_BLOCKS_PER_SM;
    STATUS_CUDA_TRY(cudaStreamCreateWithFlags(&d->copy, cudaStreamNonBlocking));
    STATUS_CUDA_TRY(cudaStreamCreateWithFlags(&d->comp, cudaStreamNonBlocking));
    for (int s = 0; s < 2; ++s) {
        STATUS_CUDA_TRY(cudaMalloc(&d->slot[s], len * d->esz));
        STATUS_CUDA_TRY(cudaEventCreate(&d->loaded[s]));
        STATUS_CUDA_TRY(cudaEventCreateWithFlags(&d->freed[s], cudaEventDisableTiming));
        STATUS_CUDA_TRY(cudaEventCreate(&d->load0[s]));
    }
    STATUS_CUDA_TRY(cudaEventCreate(&d->comp0));
    STATUS_CUDA_TRY(cudaEventCreate(&d->comp1));
    STATUS_CUDA_TRY(cudaMalloc(&d->cand_v, (k + len) * d->esz));
    STATUS_CUDA_TRY(cudaMalloc((void **)&d->cand_p, (k + len) * sizeof(uint64_t)));
    STATUS_CUDA_TRY(cudaMalloc(&d->out_v, k * d->esz));
    STATUS_CUDA_TRY(cudaMalloc((void **)&d->out_i, k * sizeof(uint64_t)));
    STATUS_CUDA_TRY(cudaMalloc((void **)&d->tmp_p, k * sizeof(uint64_t)));
    STATUS_CUDA_TRY(cudaMalloc((void **)&d->thr_key, sizeof(uint64_t)));
    STATUS_CUDA_TRY(cudaMalloc((void **)&d->count, sizeof(unsigned long long)));
    STATUS_CUDA_TRY(cudaMallocHost((void **)&d->h_count, sizeof(unsigned long long)));
    /* both buffers start free */
    for (int s = 0; s < 2; ++s) STATUS_CUDA_TRY(cudaEventRecord(d->freed[s], d->comp));
    return DRTOPK_OK;
}

extern "C" drtopk_status ooc_dev_create(const drtopk_ooc_args *a, ooc_dev **out)
{
    ooc_dev *d = (ooc_dev *)calloc(1, sizeof *d);
    *out = NULL;
    if (d == NULL) return DRTOPK_ERR_OUT_OF_MEMORY;
    d->a = *a;
    d->len = a->cap < a->n ? a->cap : a->n;
    d->esz = drtopk_dtype_size(a->dtype);
    drtopk_status st = create(a, d);
    if (st != DRTOPK_OK) {
        ooc_dev_destroy(d);
        return st;
    }
    *out = d;
    return DRTOPK_OK;
}

extern "C" drtopk_status ooc_dev_load(ooc_dev *d, int slot, const void *src, uint64_t len)
{
    STATUS_CUDA_TRY(cudaStreamWaitEvent(d->copy, d->freed[slot], 0));
    STATUS_CUDA_TRY(cudaEventRecord(d->load0[slot], d->copy));
    STATUS_CUDA_TRY(cudaMemcpyAsync(d->slot[slot], src, len * d->esz, cudaMemcpyHostToDevice, d->copy));
    STATUS_CUDA_TRY(cudaEventRecord(d->loaded[slot], d->copy));
    return DRTOPK_OK;
}

extern "C" drtopk_status ooc_dev_filter(ooc_dev *d, int slot, uint64_t len, uint64_t pos0, int use_thr,
                                        uint64_t at, uint64_t *kept)
{
    const uint64_t need = (len + OOC_BLOCK - 1) / OOC_BLOCK;
    const int grid = need < (uint64_t)d->grid ? (int)need : d->grid;
    STATUS_CUDA_TRY(cudaStreamWaitEvent(d->comp, d->loaded[slot], 0));
    STATUS_CUDA_TRY(cudaEventRecord(d->comp0, d->comp));
    STATUS_CUDA_TRY(cudaMemsetAsync(d->count, 0, sizeof *d->count, d->comp));
    launch_filter(d, grid, slot, len, pos0, use_thr, at);
    STATUS_LAUNCH_CHECK();
    STATUS_CUDA_TRY(cudaEventRecord(d->freed[slot], d->comp));
    STATUS_CUDA_TRY(cudaMemcpyAsync(d->h_count, d->count, sizeof *d->count, cudaMemcpyDeviceToHost, d->comp));
    STATUS_CUDA_TRY(cudaStreamSynchronize(d->comp));
    *kept = (uint64_t)*d->h_count;
    return DRTOPK_OK;
}

extern "C" drtopk_status ooc_dev_select(ooc_dev *d, uint64_t m)
{
    const drtopk_ooc_args *a = &d->a;
    drtopk_problem p = { DRTOPK_BACKEND_CUDA, a->dtype, a->order, m, a->k, d->cand_v };
    size_t need;
    drtopk_status st = drtopk_select_workspace(&p, a->plan, &need);
    if (st != DRTOPK_OK) return st;
    if (need > d->ws_bytes) {   /* the compute stream is idle here (filter synchronised) */
        cudaFree(d->ws);
        d->ws = NULL;
        d->ws_bytes = 0;
        STATUS_CUDA_TRY(cudaMalloc(&d->ws, need));
        d->ws_bytes = need;
    }
    st = drtopk_select(&p, a->plan, d->ws, d->ws_bytes, d->out_v, d->out_i, d->comp, NULL);
    if (st != DRTOPK_OK) return st;
    const uint64_t blocks = (a->k + OOC_BLOCK - 1) / OOC_BLOCK;
    ooc_gather_kernel<<<blocks < (uint64_t)d->grid ? (int)blocks : d->grid, OOC_BLOCK, 0, d->comp>>>(
        d->out_i, d->cand_p, a->k, d->tmp_p);
    STATUS_LAUNCH_CHECK();
    STATUS_CUDA_TRY(cudaMemcpyAsync(d->cand_v, d->out_v, a->k * d->esz, cudaMemcpyDeviceToDevice,
                                     d->comp));
    STATUS_CUDA_TRY(cudaMemcpyAsync(d->cand_p, d->tmp_p, a->k * sizeof(uint64_t), cudaMemcpyDeviceToDevice,
                                     d->comp));
    return DRTOPK_OK;
}

extern "C" drtopk_status ooc_dev_carry(ooc_dev *d, int slot, int threshold, double *reload_ms,
                                       double *compute_ms)
{
    float load, comp;
    if (threshold) {
        launch_threshold(d);
        STATUS_LAUNCH_CHECK();
    }
    STATUS_CUDA_TRY(cudaEventRecord(d->comp1, d->comp));
    STATUS_CUDA_TRY(cudaStreamSynchronize(d->comp));
    STATUS_CUDA_TRY(cudaEventElapsedTime(&load, d->load0[slot], d->loaded[slot]));
    STATUS_CUDA_TRY(cudaEventElapsedTime(&comp, d->comp0, d->comp1));
    *reload_ms += load;
    *compute_ms += comp;
    return DRTOPK_OK;
}

static drtopk_status link_probe(void *dst, const void *src, size_t bytes, cudaEvent_t e0, cudaEvent_t e1,
                                double *gbps)
{
    float best = 0;
    for (int r = 0; r < LINK_PROBE_REPS; ++r) {
        float ms;
        STATUS_CUDA_TRY(cudaEventRecord(e0, 0));
        STATUS_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, 0));
        STATUS_CUDA_TRY(cudaEventRecord(e1, 0));
        STATUS_CUDA_TRY(cudaEventSynchronize(e1));
        STATUS_CUDA_TRY(cudaEventElapsedTime(&ms, e0, e1));
        if (r == 0 || ms < best) best = ms;
    }
    *gbps = best > 0 ? (double)bytes / (best / MS_PER_S) / BYTES_PER_GB : 0;
    return DRTOPK_OK;
}

extern "C" drtopk_status ooc_dev_link_gbps(const void *src, size_t bytes, double *gbps)
{
    void *dst = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    drtopk_status st = DRTOPK_OK;
    *gbps = 0;
    if (cudaMalloc(&dst, bytes) != cudaSuccess || cudaEventCreate(&e0) != cudaSuccess ||
        cudaEventCreate(&e1) != cudaSuccess)
        st = DRTOPK_ERR_CUDA;
    if (st == DRTOPK_OK) st = link_probe(dst, src, bytes, e0, e1, gbps);
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    cudaFree(dst);
    return st;
}

extern "C" drtopk_status ooc_dev_result(ooc_dev *d, void *vals, uint64_t *pos)
{
    STATUS_CUDA_TRY(cudaMemcpyAsync(vals, d->cand_v, d->a.k * d->esz, cudaMemcpyDeviceToDevice, d->comp));
    STATUS_CUDA_TRY(cudaMemcpyAsync(pos, d->cand_p, d->a.k * sizeof(uint64_t), cudaMemcpyDeviceToDevice, d->comp));
    STATUS_CUDA_TRY(cudaStreamSynchronize(d->comp));
    return DRTOPK_OK;
}
