/*
 * topk_list_cuda.cu -- top-k lists on the GPU for multi-GPU Dr. Top-k (paper
 * section 5.4; topk_list.h): a local result ordered best first by the
 * library's own sorted selection (standalone sort-cub, DRTOPK_SORTED, k of
 * k) and a gather of its positions, and two best-first lists merged by a
 * merge-path kernel (each output slot finds its split of the two lists by a
 * binary search on its diagonal) with the best k kept.  Templates over the
 * element's unsigned type serve every key width.  Lists also move between
 * the ranks of one node GPU to GPU through CUDA IPC (a mapped peer
 * allocation and a device copy).  No CUB here: the library's prelinked
 * archive carries its own copies of CUB's and libcu++'s inline code, and a
 * second copy in the program breaks its link.
 */
#include <stdlib.h>
#include <string.h>
#include "harness_cuda.h"
#include "key_of.cuh"
#include "topk_list.h"

#define TL_BLOCK 256            /* threads per block of the gather and merge kernels */
#define TL_BLOCKS_PER_SM 8      /* grid-stride: enough blocks to fill the GPU         */

struct topk_list_dev {
    drtopk_dtype t;
    drtopk_order o;
    uint64_t k;
    size_t esz;
    drtopk_plan sort;           /* the sorted selection of a whole list             */
    void *ws;                   /* its workspace                                    */
    size_t ws_bytes;
    uint64_t *idx;              /* its output indices (k)                           */
    void *mv;                   /* the merge's output (k values and positions)      */
    uint64_t *mp;
    int grid;
};

/* out_p[i] = p[idx[i]] + first. */
__global__ void tl_gather_kernel(const uint64_t *__restrict__ p, const uint64_t *__restrict__ idx, uint64_t n,
                                 uint64_t first, uint64_t *out_p)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out_p[i] = p[idx[i]] + first;
}

/* p[i] += first. */
__global__ void tl_offset_kernel(uint64_t *p, uint64_t n, uint64_t first)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) p[i] += first;
}

/* Output slot i of the merge of best-first a (na) and b (nb), the first list
 * first among equal keys: ia of the first i outputs come from a (the merge
 * path's split on diagonal i), then the slot takes a[ia] or b[i - ia]. */
template <typename UT>
__global__ void tl_merge_kernel(const UT *__restrict__ av, const uint64_t *__restrict__ ap, uint64_t na,
                                const UT *__restrict__ bv, const uint64_t *__restrict__ bp, uint64_t nb,
                                uint64_t keep, drtopk_dtype t, drtopk_order o, UT *out_v, uint64_t *out_p)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < keep; i += stride) {
        uint64_t lo = i > nb ? i - nb : 0, hi = i < na ? i : na;
        while (lo < hi) {       /* the most a's among the first i: a[mid] precedes b[i - 1 - mid] */
            const uint64_t mid = lo + (hi - lo) / 2;
            if (key_of(av[mid], t, o) >= key_of(bv[i - 1 - mid], t, o)) lo = mid + 1;
            else hi = mid;
        }
        const uint64_t ia = lo, ib = i - lo;
        const int take_a = ib >= nb || (ia < na && key_of(av[ia], t, o) >= key_of(bv[ib], t, o));
        out_v[i] = take_a ? av[ia] : bv[ib];
        out_p[i] = take_a ? ap[ia] : bp[ib];
    }
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
    cudaFree(m->mv);
    cudaFree(m->mp);
    free(m);
}

static drtopk_status tl_alloc(topk_list_dev *m)
{
    int dev, sms;
    const drtopk_problem p = { DRTOPK_BACKEND_CUDA, m->t, m->o, m->k, m->k, NULL };
    drtopk_status st;
    HARNESS_CUDA_TRY(cudaGetDevice(&dev));
    HARNESS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    m->grid = sms * TL_BLOCKS_PER_SM;
    if ((st = drtopk_plan_explicit(&m->sort, &p, DRTOPK_ALGO_SORT_CUB, 0, 0, DRTOPK_SORTED)) != DRTOPK_OK ||
        (st = drtopk_select_workspace(&p, &m->sort, &m->ws_bytes)) != DRTOPK_OK)
        return st;
    HARNESS_CUDA_TRY(cudaMalloc(&m->ws, m->ws_bytes ? m->ws_bytes : 1));
    HARNESS_CUDA_TRY(cudaMalloc((void **)&m->idx, m->k * sizeof(uint64_t)));
    HARNESS_CUDA_TRY(cudaMalloc(&m->mv, m->k * m->esz));
    HARNESS_CUDA_TRY(cudaMalloc((void **)&m->mp, m->k * sizeof(uint64_t)));
    return DRTOPK_OK;
}

extern "C" drtopk_status topk_list_dev_create(drtopk_dtype t, drtopk_order o, uint64_t k, topk_list_dev **out)
{
    topk_list_dev *m = (topk_list_dev *)calloc(1, sizeof *m);
    *out = NULL;
    if (m == NULL) return DRTOPK_ERR_OUT_OF_MEMORY;
    m->t = t;
    m->o = o;
    m->k = k ? k : 1;
    m->esz = drtopk_dtype_size(t);
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
    if (n > m->k) return DRTOPK_ERR_INVALID_ARGUMENT;
    const drtopk_problem p = { DRTOPK_BACKEND_CUDA, m->t, m->o, n, n, in_v };
    size_t need = 0;
    drtopk_status st = drtopk_select_workspace(&p, &m->sort, &need);
    if (st != DRTOPK_OK) return st;
    if (need > m->ws_bytes) {   /* a shorter list never needs more; kept for safety of the contract */
        cudaFree(m->ws);
        m->ws = NULL;
        m->ws_bytes = 0;
        HARNESS_CUDA_TRY(cudaMalloc(&m->ws, need));
        m->ws_bytes = need;
    }
    if ((st = drtopk_select(&p, &m->sort, m->ws, m->ws_bytes, out_v, m->idx, NULL, NULL)) != DRTOPK_OK) return st;
    tl_gather_kernel<<<tl_grid(m, n), TL_BLOCK>>>(in_p, m->idx, n, first, out_p);
    HARNESS_LAUNCH_CHECK();
    HARNESS_CUDA_TRY(cudaStreamSynchronize(0));
    return DRTOPK_OK;
}

extern "C" drtopk_status topk_list_dev_offset(uint64_t *p, uint64_t n, uint64_t first)
{
    if (n > 0 && first > 0) {
        int dev, sms;
        HARNESS_CUDA_TRY(cudaGetDevice(&dev));
        HARNESS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        const uint64_t blocks = (n + TL_BLOCK - 1) / TL_BLOCK, most = (uint64_t)sms * TL_BLOCKS_PER_SM;
        tl_offset_kernel<<<(unsigned)(blocks < most ? blocks : most), TL_BLOCK>>>(p, n, first);
        HARNESS_LAUNCH_CHECK();
    }
    HARNESS_CUDA_TRY(cudaStreamSynchronize(0));
    return DRTOPK_OK;
}

template <typename UT>
static void tl_launch_merge(const topk_list_dev *m, const void *a_v, const uint64_t *a_p, uint64_t na,
                            const void *b_v, const uint64_t *b_p, uint64_t nb, uint64_t keep)
{
    tl_merge_kernel<UT><<<tl_grid(m, keep), TL_BLOCK>>>((const UT *)a_v, a_p, na, (const UT *)b_v, b_p, nb, keep,
                                                        m->t, m->o, (UT *)m->mv, m->mp);
}

extern "C" drtopk_status topk_list_dev_merge(topk_list_dev *m, void *a_v, uint64_t *a_p, uint64_t na,
                                             const void *b_v, const uint64_t *b_p, uint64_t nb, uint64_t *len)
{
    if (na > m->k || nb > m->k) return DRTOPK_ERR_INVALID_ARGUMENT;
    const uint64_t keep = na + nb < m->k ? na + nb : m->k;
    *len = na;
    if (nb == 0) return DRTOPK_OK;
    switch (drtopk_dtype_bits(m->t)) {
    case 16: tl_launch_merge<uint16_t>(m, a_v, a_p, na, b_v, b_p, nb, keep); break;
    case 32: tl_launch_merge<uint32_t>(m, a_v, a_p, na, b_v, b_p, nb, keep); break;
    default: tl_launch_merge<uint64_t>(m, a_v, a_p, na, b_v, b_p, nb, keep); break;
    }
    HARNESS_LAUNCH_CHECK();
    HARNESS_CUDA_TRY(cudaMemcpyAsync(a_v, m->mv, keep * m->esz, cudaMemcpyDeviceToDevice, 0));
    HARNESS_CUDA_TRY(cudaMemcpyAsync(a_p, m->mp, keep * sizeof(uint64_t), cudaMemcpyDeviceToDevice, 0));
    HARNESS_CUDA_TRY(cudaStreamSynchronize(0));
    *len = keep;
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
    HARNESS_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, 0));
    HARNESS_CUDA_TRY(cudaStreamSynchronize(0));
    return DRTOPK_OK;
}
