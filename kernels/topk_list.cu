/*
 * topk_list.cu -- top-k lists on the GPU for multi-GPU Dr. Top-k (paper
 * section 5.4; topk_list.h): one round's histogram of a rank's list (a
 * shared-memory histogram per block, added into one in global memory), the
 * compaction of the keys above the global k-th key and of the rank's share
 * of its ties (each block reserves its slots with one global atomic per
 * tile), a rank's whole list with global positions and rank 0's selection
 * of the k best of the gathered lists by the library's automatic plan (when
 * rank 0 gathers every whole list, mgpu.h), and a gathered result ordered
 * best first by the library's own sorted selection (standalone sort-cub,
 * DRTOPK_SORTED, k of k) and a gather of its positions.  Templates over the
 * element's unsigned type serve every key width.  Lists also move between the ranks of one node GPU to GPU
 * through CUDA IPC (a mapped peer allocation and a device copy).  No CUB
 * here: the library's prelinked archive carries its own copies of CUB's and
 * libcu++'s inline code, and a second copy in the program breaks its link.
 */
#include <stdlib.h>
#include <string.h>
#include "status_cuda.h"
#include "key_of.cuh"
#include "mgpu.h"
#include "topk_list.h"

#define TL_BLOCK 256            /* threads per block of the kernels here        */
#define TL_BLOCKS_PER_SM 8      /* grid-stride: enough blocks to fill the GPU    */
#define TL_ABOVE 0              /* the compaction's counters: keys above ...     */
#define TL_EQUAL 1              /* ... and equal to the threshold                */

struct topk_list_dev {
    drtopk_dtype t;
    drtopk_order o;
    uint64_t order_k;           /* longest list ordered (0: none)                   */
    unsigned flags;             /* DRTOPK_DETERMINISTIC or 0, on every selection     */
    drtopk_plan sort;           /* the sorted selection of a whole list             */
    void *ws;                   /* its workspace                                    */
    size_t ws_bytes;
    uint64_t *idx;              /* its output indices (order_k)                     */
    unsigned long long *hist;   /* one round's histogram (DRTOPK_RADIX_BINS)        */
    unsigned long long *ctr;    /* the compaction's counters (TL_ABOVE, TL_EQUAL)   */
    void *sel_ws;               /* the selection over gathered lists: workspace ... */
    size_t sel_ws_bytes;
    uint64_t *sel_idx;          /* ... and output indices, grown to the largest k   */
    size_t sel_idx_bytes;
    int grid;
};

/* out_p[i] = p[idx[i]] + first. */
__global__ void tl_gather_kernel(const uint64_t *__restrict__ p, const uint64_t *__restrict__ idx, uint64_t n,
                                 uint64_t first, uint64_t *out_p)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out_p[i] = p[idx[i]] + first;
}

/* out_p[i] = p[i] + first. */
__global__ void tl_shift_kernel(const uint64_t *__restrict__ p, uint64_t n, uint64_t first, uint64_t *out_p)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out_p[i] = p[i] + first;
}

/* hist[d] += the keys of v whose bits under `mask` equal prefix, by their digit d at shift. */
template <typename UT>
__global__ void tl_hist_kernel(const UT *__restrict__ v, uint64_t n, drtopk_dtype t, drtopk_order o, uint64_t prefix,
                               uint64_t mask, int shift, unsigned long long *hist)
{
    __shared__ unsigned int h[DRTOPK_RADIX_BINS];
    for (unsigned i = threadIdx.x; i < DRTOPK_RADIX_BINS; i += blockDim.x) h[i] = 0;
    __syncthreads();
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint64_t key = key_of(v[i], t, o);
        if ((key & mask) == prefix) atomicAdd(&h[(key >> shift) & (DRTOPK_RADIX_BINS - 1)], 1u);
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < DRTOPK_RADIX_BINS; i += blockDim.x)
        if (h[i]) atomicAdd(&hist[i], (unsigned long long)h[i]);
}

/* Keys above thr to out[0 .. above), in any order; equal ones to out[above ..
 * above + ties) while slots remain.  Each tile of a block counts its two
 * kinds in shared memory and reserves that many slots with one global atomic
 * each; every thread of a block runs the same number of tiles (the barriers). */
template <typename UT>
__global__ void tl_compact_kernel(const UT *__restrict__ v, const uint64_t *__restrict__ p, uint64_t n,
                                  drtopk_dtype t, drtopk_order o, uint64_t thr, uint64_t above, uint64_t ties,
                                  uint64_t first, unsigned long long *ctr, UT *out_v, uint64_t *out_p)
{
    __shared__ unsigned int n_above, n_equal;
    __shared__ unsigned long long base_above, base_equal;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t tile = (uint64_t)blockIdx.x * blockDim.x; tile < n; tile += stride) {
        const uint64_t i = tile + threadIdx.x;
        if (threadIdx.x == 0) n_above = n_equal = 0;
        __syncthreads();
        int better = 0, equal = 0;
        unsigned slot = 0;
        if (i < n) {
            const uint64_t key = key_of(v[i], t, o);
            better = key > thr;
            equal = key == thr && ties > 0;
            if (better) slot = atomicAdd(&n_above, 1u);
            else if (equal) slot = atomicAdd(&n_equal, 1u);
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            base_above = n_above ? atomicAdd(&ctr[TL_ABOVE], (unsigned long long)n_above) : 0;
            base_equal = n_equal ? atomicAdd(&ctr[TL_EQUAL], (unsigned long long)n_equal) : 0;
        }
        __syncthreads();
        if (better) {
            out_v[base_above + slot] = v[i];
            out_p[base_above + slot] = p[i] + first;
        } else if (equal && base_equal + slot < ties) {
            out_v[above + base_equal + slot] = v[i];
            out_p[above + base_equal + slot] = p[i] + first;
        }
        __syncthreads();        /* the counters are reset for the next tile */
    }
}

/* *buf holds at least `need` bytes (*have its size): grown, never shrunk,
 * so that later repetitions reuse the first one's allocation. */
static drtopk_status tl_grow(void **buf, size_t *have, size_t need)
{
    if (need <= *have) return DRTOPK_OK;
    cudaFree(*buf);
    *buf = NULL;
    *have = 0;
    STATUS_CUDA_TRY(cudaMalloc(buf, need));
    *have = need;
    return DRTOPK_OK;
}

static int tl_grid(const topk_list_dev *m, uint64_t n)
{
    const uint64_t blocks = (n + TL_BLOCK - 1) / TL_BLOCK;
    return blocks == 0 ? 1 : blocks < (uint64_t)m->grid ? (int)blocks : m->grid;
}

extern "C" void topk_list_dev_destroy(topk_list_dev *m)
{
    if (m == NULL) return;
    cudaFree(m->ws);
    cudaFree(m->idx);
    cudaFree(m->hist);
    cudaFree(m->ctr);
    cudaFree(m->sel_ws);
    cudaFree(m->sel_idx);
    free(m);
}

static drtopk_status tl_alloc(topk_list_dev *m)
{
    int dev, sms;
    drtopk_status st;
    STATUS_CUDA_TRY(cudaGetDevice(&dev));
    STATUS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    m->grid = sms * TL_BLOCKS_PER_SM;
    STATUS_CUDA_TRY(cudaMalloc((void **)&m->hist, DRTOPK_RADIX_BINS * sizeof(unsigned long long)));
    STATUS_CUDA_TRY(cudaMalloc((void **)&m->ctr, 2 * sizeof(unsigned long long)));
    if (m->order_k == 0) return DRTOPK_OK;
    const drtopk_problem p = { DRTOPK_BACKEND_CUDA, m->t, m->o, m->order_k, m->order_k, NULL };
    if ((st = drtopk_plan_explicit(&m->sort, &p, DRTOPK_ALGO_SORT_CUB, 0, 0, DRTOPK_SORTED | m->flags)) != DRTOPK_OK ||
        (st = drtopk_select_workspace(&p, &m->sort, &m->ws_bytes)) != DRTOPK_OK)
        return st;
    STATUS_CUDA_TRY(cudaMalloc(&m->ws, m->ws_bytes ? m->ws_bytes : 1));
    STATUS_CUDA_TRY(cudaMalloc((void **)&m->idx, m->order_k * sizeof(uint64_t)));
    return DRTOPK_OK;
}

extern "C" drtopk_status topk_list_dev_create(drtopk_dtype t, drtopk_order o, uint64_t order_k, unsigned flags,
                                              topk_list_dev **out)
{
    topk_list_dev *m = (topk_list_dev *)calloc(1, sizeof *m);
    *out = NULL;
    if (m == NULL) return DRTOPK_ERR_OUT_OF_MEMORY;
    m->t = t;
    m->o = o;
    m->order_k = order_k;
    m->flags = flags & DRTOPK_DETERMINISTIC;
    const drtopk_status st = tl_alloc(m);
    if (st != DRTOPK_OK) {
        topk_list_dev_destroy(m);
        return st;
    }
    *out = m;
    return DRTOPK_OK;
}

extern "C" drtopk_status topk_list_dev_order(topk_list_dev *m, const void *in_v, const uint64_t *in_p, uint64_t n,
                                             uint64_t first, void *out_v, uint64_t *out_p)
{
    if (n == 0) return DRTOPK_OK;
    if (n > m->order_k) return DRTOPK_ERR_INVALID_ARGUMENT;
    const drtopk_problem p = { DRTOPK_BACKEND_CUDA, m->t, m->o, n, n, in_v };
    size_t need = 0;
    drtopk_status st = drtopk_select_workspace(&p, &m->sort, &need);
    if (st != DRTOPK_OK) return st;
    if ((st = tl_grow(&m->ws, &m->ws_bytes, need)) != DRTOPK_OK) return st;   /* a shorter list needs no more */
    if ((st = drtopk_select(&p, &m->sort, m->ws, m->ws_bytes, out_v, m->idx, NULL, NULL)) != DRTOPK_OK) return st;
    tl_gather_kernel<<<tl_grid(m, n), TL_BLOCK>>>(in_p, m->idx, n, first, out_p);
    STATUS_LAUNCH_CHECK();
    STATUS_CUDA_TRY(cudaStreamSynchronize(0));
    return DRTOPK_OK;
}

template <typename UT>
static void tl_launch_hist(const topk_list_dev *m, const void *vals, uint64_t n, uint64_t prefix, uint64_t mask,
                           int shift)
{
    tl_hist_kernel<UT><<<tl_grid(m, n), TL_BLOCK>>>((const UT *)vals, n, m->t, m->o, prefix, mask, shift, m->hist);
}

extern "C" drtopk_status topk_list_dev_hist(topk_list_dev *m, const void *vals, uint64_t n, uint64_t prefix, int shift,
                                            uint64_t *hist)
{
    unsigned long long h[DRTOPK_RADIX_BINS];
    const int bits = drtopk_dtype_bits(m->t);
    const uint64_t mask = drtopk_radix_prefix_mask(m->t, shift);
    if (n == 0) return DRTOPK_OK;
    STATUS_CUDA_TRY(cudaMemsetAsync(m->hist, 0, sizeof h, 0));
    switch (bits) {
    case 16: tl_launch_hist<uint16_t>(m, vals, n, prefix, mask, shift); break;
    case 32: tl_launch_hist<uint32_t>(m, vals, n, prefix, mask, shift); break;
    default: tl_launch_hist<uint64_t>(m, vals, n, prefix, mask, shift); break;
    }
    STATUS_LAUNCH_CHECK();
    STATUS_CUDA_TRY(cudaMemcpy(h, m->hist, sizeof h, cudaMemcpyDeviceToHost));
    for (unsigned d = 0; d < DRTOPK_RADIX_BINS; ++d) hist[d] += h[d];
    return DRTOPK_OK;
}

template <typename UT>
static void tl_launch_compact(const topk_list_dev *m, const void *vals, const uint64_t *pos, uint64_t n, uint64_t thr,
                              uint64_t above, uint64_t ties, uint64_t first, void *out_v, uint64_t *out_p)
{
    tl_compact_kernel<UT><<<tl_grid(m, n), TL_BLOCK>>>((const UT *)vals, pos, n, m->t, m->o, thr, above, ties, first,
                                                       m->ctr, (UT *)out_v, out_p);
}

extern "C" drtopk_status topk_list_dev_compact(topk_list_dev *m, const void *vals, const uint64_t *pos, uint64_t n,
                                               uint64_t thr, uint64_t above, uint64_t ties, uint64_t first,
                                               void *out_v, uint64_t *out_p)
{
    if (n == 0 || above + ties == 0) return DRTOPK_OK;
    STATUS_CUDA_TRY(cudaMemsetAsync(m->ctr, 0, 2 * sizeof(unsigned long long), 0));
    switch (drtopk_dtype_bits(m->t)) {
    case 16: tl_launch_compact<uint16_t>(m, vals, pos, n, thr, above, ties, first, out_v, out_p); break;
    case 32: tl_launch_compact<uint32_t>(m, vals, pos, n, thr, above, ties, first, out_v, out_p); break;
    default: tl_launch_compact<uint64_t>(m, vals, pos, n, thr, above, ties, first, out_v, out_p); break;
    }
    STATUS_LAUNCH_CHECK();
    STATUS_CUDA_TRY(cudaStreamSynchronize(0));
    return DRTOPK_OK;
}

extern "C" drtopk_status topk_list_dev_shift(topk_list_dev *m, const void *in_v, const uint64_t *in_p, uint64_t n,
                                             uint64_t first, void *out_v, uint64_t *out_p)
{
    if (n == 0) return DRTOPK_OK;
    STATUS_CUDA_TRY(cudaMemcpyAsync(out_v, in_v, n * drtopk_dtype_size(m->t), cudaMemcpyDeviceToDevice, 0));
    tl_shift_kernel<<<tl_grid(m, n), TL_BLOCK>>>(in_p, n, first, out_p);
    STATUS_LAUNCH_CHECK();
    STATUS_CUDA_TRY(cudaStreamSynchronize(0));
    return DRTOPK_OK;
}

extern "C" drtopk_status topk_list_dev_select(topk_list_dev *m, const void *in_v, const uint64_t *in_p, uint64_t n,
                                              uint64_t k, int sorted, void *out_v, uint64_t *out_p)
{
    const drtopk_problem p = { DRTOPK_BACKEND_CUDA, m->t, m->o, n, k, in_v };
    drtopk_plan plan;
    size_t need = 0;
    drtopk_status st;
    if (k == 0) return DRTOPK_OK;
    if ((st = drtopk_plan_auto(&plan, &p, NULL)) != DRTOPK_OK) return st;
    plan.flags |= (sorted ? DRTOPK_SORTED : 0u) | m->flags;
    if ((st = drtopk_select_workspace(&p, &plan, &need)) != DRTOPK_OK) return st;
    if ((st = tl_grow(&m->sel_ws, &m->sel_ws_bytes, need)) != DRTOPK_OK ||
        (st = tl_grow((void **)&m->sel_idx, &m->sel_idx_bytes, k * sizeof(uint64_t))) != DRTOPK_OK)
        return st;
    if ((st = drtopk_select(&p, &plan, m->sel_ws, m->sel_ws_bytes, out_v, m->sel_idx, NULL, NULL)) != DRTOPK_OK)
        return st;
    tl_gather_kernel<<<tl_grid(m, k), TL_BLOCK>>>(in_p, m->sel_idx, k, 0, out_p);
    STATUS_LAUNCH_CHECK();
    STATUS_CUDA_TRY(cudaStreamSynchronize(0));
    return DRTOPK_OK;
}

/* ---- CUDA IPC between the ranks of a node --------------------------------- */

static_assert(sizeof(cudaIpcMemHandle_t) == TOPK_IPC_HANDLE_BYTES, "topk_ipc_handle holds a cudaIpcMemHandle_t");

/* A failed IPC call is a fallback, not the end: its error is cleared, so a
 * later launch check does not report it again. */
static drtopk_status tl_ipc_status(cudaError_t e)
{
    if (e == cudaSuccess) return DRTOPK_OK;
    (void)cudaGetLastError();
    return e == cudaErrorMemoryAllocation ? DRTOPK_ERR_OUT_OF_MEMORY : DRTOPK_ERR_CUDA;
}

extern "C" drtopk_status topk_ipc_reachable(int dev, int peer, int *yes)
{
    *yes = dev == peer;
    return dev == peer ? DRTOPK_OK : tl_ipc_status(cudaDeviceCanAccessPeer(yes, dev, peer));
}

extern "C" drtopk_status topk_ipc_export(void *base, topk_ipc_handle *h)
{
    cudaIpcMemHandle_t m;
    const drtopk_status st = tl_ipc_status(cudaIpcGetMemHandle(&m, base));
    if (st == DRTOPK_OK) memcpy(h->bytes, &m, sizeof m);
    return st;
}

extern "C" drtopk_status topk_ipc_open(const topk_ipc_handle *h, void **p)
{
    cudaIpcMemHandle_t m;
    memcpy(&m, h->bytes, sizeof m);
    *p = NULL;
    const drtopk_status st = tl_ipc_status(cudaIpcOpenMemHandle(p, m, cudaIpcMemLazyEnablePeerAccess));
    if (st != DRTOPK_OK) *p = NULL;
    return st;
}

extern "C" drtopk_status topk_ipc_close(void *p)
{
    return p == NULL ? DRTOPK_OK : tl_ipc_status(cudaIpcCloseMemHandle(p));
}

extern "C" drtopk_status topk_ipc_copy(void *dst, const void *src, size_t bytes)
{
    STATUS_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, 0));
    return DRTOPK_OK;
}

extern "C" drtopk_status topk_ipc_wait(void)
{
    STATUS_CUDA_TRY(cudaStreamSynchronize(0));
    return DRTOPK_OK;
}
