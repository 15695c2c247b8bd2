/*
 * topk_list_cuda.cu -- top-k lists on the GPU for multi-GPU Dr. Top-k (paper
 * section 5.4; topk_list.h): a local result ordered best first by CUB's
 * radix sort of (ordered key, index) pairs and a gather, and two best-first
 * lists merged by CUB's DeviceMerge (merge path) with the best k kept.
 * Templates over the element's unsigned type serve every key width.
 */
#include <cub/device/device_merge.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <stdlib.h>
#include "harness_cuda.h"
#include "key_of.cuh"
#include "topk_list.h"

#define TL_BLOCK 256            /* threads per block of the key and gather kernels */
#define TL_BLOCKS_PER_SM 8      /* grid-stride: enough blocks to fill the GPU       */
#define TL_MAX_K UINT32_MAX     /* indices sort as 32-bit values (half the traffic of 64) */

struct topk_list_dev {
    drtopk_dtype t;
    drtopk_order o;
    uint64_t k;
    size_t esz;
    void *keys[2];              /* ordered keys: the sort's input and output (k)   */
    uint32_t *idx[2];           /* indices: the sort's input and output (k)        */
    void *mv;                   /* the merge's whole output (2k values, positions) */
    uint64_t *mp;
    void *tmp;                  /* CUB's temporary storage                         */
    size_t tmp_bytes;
    int grid;
};

/* keys[i] = the ordered key of v[i], idx[i] = i. */
template <typename UT>
__global__ void tl_keys_kernel(const UT *__restrict__ v, uint64_t n, drtopk_dtype t, drtopk_order o, UT *keys,
                               uint32_t *idx)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        keys[i] = key_of(v[i], t, o);
        idx[i] = (uint32_t)i;
    }
}

/* out_v[i] = v[idx[i]], out_p[i] = p[idx[i]] + first. */
template <typename UT>
__global__ void tl_gather_kernel(const UT *__restrict__ v, const uint64_t *__restrict__ p,
                                 const uint32_t *__restrict__ idx, uint64_t n, uint64_t first, UT *out_v,
                                 uint64_t *out_p)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint32_t j = idx[i];
        out_v[i] = v[j];
        out_p[i] = p[j] + first;
    }
}

/* a before b: the better ordered key (DeviceMerge keeps the first list's
 * element first among equal keys). */
template <typename UT>
struct tl_better {
    drtopk_dtype t;
    drtopk_order o;
    __device__ bool operator()(const UT &a, const UT &b) const { return key_of(a, t, o) > key_of(b, t, o); }
};

/* Bytes of CUB storage the sort and the merge of m's lists need. */
template <typename UT>
static cudaError_t tl_tmp_bytes(const topk_list_dev *m, size_t *bytes)
{
    size_t sort = 0, merge = 0;
    cudaError_t e = cub::DeviceRadixSort::SortPairsDescending(NULL, sort, (const UT *)NULL, (UT *)NULL,
                                                              (const uint32_t *)NULL, (uint32_t *)NULL,
                                                              (int64_t)m->k);
    if (e == cudaSuccess)
        e = cub::DeviceMerge::MergePairs(NULL, merge, (const UT *)NULL, (const uint64_t *)NULL, (int64_t)m->k,
                                         (const UT *)NULL, (const uint64_t *)NULL, (int64_t)m->k, (UT *)NULL,
                                         (uint64_t *)NULL, tl_better<UT>{ m->t, m->o });
    *bytes = sort > merge ? sort : merge;
    return e;
}

template <typename UT>
static drtopk_status tl_order(topk_list_dev *m, const void *in_v, const uint64_t *in_p, uint64_t n,
                              uint64_t first, void *out_v, uint64_t *out_p)
{
    const uint64_t blocks = (n + TL_BLOCK - 1) / TL_BLOCK;
    const int grid = blocks < (uint64_t)m->grid ? (int)blocks : m->grid;
    size_t bytes = m->tmp_bytes;
    tl_keys_kernel<UT><<<grid, TL_BLOCK>>>((const UT *)in_v, n, m->t, m->o, (UT *)m->keys[0], m->idx[0]);
    HARNESS_LAUNCH_CHECK();
    HARNESS_CUDA_TRY(cub::DeviceRadixSort::SortPairsDescending(m->tmp, bytes, (const UT *)m->keys[0],
                                                               (UT *)m->keys[1], (const uint32_t *)m->idx[0],
                                                               m->idx[1], (int64_t)n));
    tl_gather_kernel<UT><<<grid, TL_BLOCK>>>((const UT *)in_v, in_p, m->idx[1], n, first, (UT *)out_v, out_p);
    HARNESS_LAUNCH_CHECK();
    HARNESS_CUDA_TRY(cudaStreamSynchronize(0));
    return DRTOPK_OK;
}

template <typename UT>
static drtopk_status tl_merge(topk_list_dev *m, void *a_v, uint64_t *a_p, uint64_t na, const void *b_v,
                              const uint64_t *b_p, uint64_t nb, uint64_t *len)
{
    size_t bytes = m->tmp_bytes;
    const uint64_t keep = na + nb < m->k ? na + nb : m->k;
    HARNESS_CUDA_TRY(cub::DeviceMerge::MergePairs(m->tmp, bytes, (const UT *)a_v, (const uint64_t *)a_p,
                                                  (int64_t)na, (const UT *)b_v, b_p, (int64_t)nb, (UT *)m->mv,
                                                  m->mp, tl_better<UT>{ m->t, m->o }));
    HARNESS_CUDA_TRY(cudaMemcpyAsync(a_v, m->mv, keep * sizeof(UT), cudaMemcpyDeviceToDevice, 0));
    HARNESS_CUDA_TRY(cudaMemcpyAsync(a_p, m->mp, keep * sizeof(uint64_t), cudaMemcpyDeviceToDevice, 0));
    HARNESS_CUDA_TRY(cudaStreamSynchronize(0));
    *len = keep;
    return DRTOPK_OK;
}

/* Runs CALL<UT> at the width of m's key type. */
#define TL_BY_WIDTH(m, CALL, ...)                                          \
    (drtopk_dtype_bits((m)->t) == 16   ? CALL<uint16_t>(__VA_ARGS__)       \
     : drtopk_dtype_bits((m)->t) == 32 ? CALL<uint32_t>(__VA_ARGS__)       \
                                       : CALL<uint64_t>(__VA_ARGS__))

extern "C" void topk_list_dev_destroy(topk_list_dev *m)
{
    if (m == NULL) return;
    for (int i = 0; i < 2; ++i) {
        cudaFree(m->keys[i]);
        cudaFree(m->idx[i]);
    }
    cudaFree(m->mv);
    cudaFree(m->mp);
    cudaFree(m->tmp);
    free(m);
}

static drtopk_status tl_alloc(topk_list_dev *m)
{
    int dev, sms;
    HARNESS_CUDA_TRY(cudaGetDevice(&dev));
    HARNESS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    m->grid = sms * TL_BLOCKS_PER_SM;
    for (int i = 0; i < 2; ++i) {
        HARNESS_CUDA_TRY(cudaMalloc(&m->keys[i], m->k * m->esz));
        HARNESS_CUDA_TRY(cudaMalloc((void **)&m->idx[i], m->k * sizeof(uint32_t)));
    }
    HARNESS_CUDA_TRY(cudaMalloc(&m->mv, 2 * m->k * m->esz));
    HARNESS_CUDA_TRY(cudaMalloc((void **)&m->mp, 2 * m->k * sizeof(uint64_t)));
    HARNESS_CUDA_TRY(TL_BY_WIDTH(m, tl_tmp_bytes, m, &m->tmp_bytes));
    HARNESS_CUDA_TRY(cudaMalloc(&m->tmp, m->tmp_bytes ? m->tmp_bytes : 1));
    return DRTOPK_OK;
}

extern "C" drtopk_status topk_list_dev_create(drtopk_dtype t, drtopk_order o, uint64_t k, topk_list_dev **out)
{
    *out = NULL;
    if (k > TL_MAX_K) return DRTOPK_ERR_INVALID_ARGUMENT;
    topk_list_dev *m = (topk_list_dev *)calloc(1, sizeof *m);
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
    return TL_BY_WIDTH(m, tl_order, m, in_v, in_p, n, first, out_v, out_p);
}

extern "C" drtopk_status topk_list_dev_merge(topk_list_dev *m, void *a_v, uint64_t *a_p, uint64_t na,
                                             const void *b_v, const uint64_t *b_p, uint64_t nb, uint64_t *len)
{
    if (na > m->k || nb > m->k) return DRTOPK_ERR_INVALID_ARGUMENT;
    if (nb == 0) {
        *len = na;
        return DRTOPK_OK;
    }
    return TL_BY_WIDTH(m, tl_merge, m, a_v, a_p, na, b_v, b_p, nb, len);
}
