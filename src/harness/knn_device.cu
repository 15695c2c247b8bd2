/*
 * knn_device.cu -- the k-NN distances of `drtopk dataset knn` on the GPU (the
 * paper's ANN_SIFT1B input of section 6 / Table 1 is such a distance array):
 * out[q * n + j] = distance from vector q to vector j for the first nq
 * vectors.  Same arithmetic as dh_knn_host (dataset_vectors.c): each term and sum
 * in double, in dimension order, with explicit round-to-nearest operations
 * (no fused multiply-add), one rounding to float at the end, so both give
 * identical bits.  The vectors are stored transposed on the device (value d
 * of every vector together), so a warp reads consecutive addresses.
 */
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "status_cuda.h"

#define KNN_BLOCK 256                      /* threads (base vectors) per block      */
#define KNN_BATCH_BYTES (256ull << 20)     /* device output per batch of queries:
                                              bounded so any GPU holds it          */
#define KNN_GRID_Y_MAX 65535u              /* CUDA's limit on gridDim.y            */

__global__ void knn_kernel(const float *__restrict__ base_t, const float *__restrict__ queries, uint64_t n,
                           uint32_t dim, int sqrt_out, float *__restrict__ out)
{
    const uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t q = blockIdx.y;
    if (j >= n) return;
    const float *a = queries + (uint64_t)q * dim;
    double acc = 0.0;
    for (uint32_t d = 0; d < dim; ++d) {
        const double diff = __dsub_rn((double)a[d], (double)base_t[(uint64_t)d * n + j]);
        acc = __dadd_rn(acc, __dmul_rn(diff, diff));
    }
    out[(uint64_t)q * n + j] = __double2float_rn(sqrt_out ? __dsqrt_rn(acc) : acc);
}

/* status of a failed call, the buffers freed by the caller's cleanup */
#define KNN_TRY(call)                                                                  \
    do {                                                                               \
        cudaError_t e_ = (call);                                                       \
        if (e_ != cudaSuccess) {                                                       \
            st = e_ == cudaErrorMemoryAllocation ? DRTOPK_ERR_OUT_OF_MEMORY : DRTOPK_ERR_CUDA; \
            goto done;                                                                 \
        }                                                                              \
    } while (0)

extern "C" drtopk_status dh_knn_device(const dh_ds_vectors *v, uint64_t nq, dh_ds_metric m, float *out,
                                       dh_ds_progress progress, void *ctx)
{
    if (v == NULL || out == NULL || nq == 0 || nq > v->count || v->dim == 0) return DRTOPK_ERR_INVALID_ARGUMENT;
    const uint64_t n = v->count;
    const uint32_t dim = v->dim;
    drtopk_status st = DRTOPK_OK;
    float *h_t = NULL, *d_t = NULL, *d_q = NULL, *d_out = NULL;
    uint64_t batch;
    batch = KNN_BATCH_BYTES / (n * sizeof(float));
    if (batch == 0) batch = 1;
    if (batch > KNN_GRID_Y_MAX) batch = KNN_GRID_Y_MAX;
    if (batch > nq) batch = nq;
    if ((h_t = (float *)malloc((size_t)n * dim * sizeof(float))) == NULL) return DRTOPK_ERR_OUT_OF_MEMORY;
    for (uint64_t j = 0; j < n; ++j)
        for (uint32_t d = 0; d < dim; ++d) h_t[(uint64_t)d * n + j] = v->data[j * dim + d];
    KNN_TRY(cudaMalloc((void **)&d_t, (size_t)n * dim * sizeof(float)));
    KNN_TRY(cudaMalloc((void **)&d_q, (size_t)nq * dim * sizeof(float)));
    KNN_TRY(cudaMalloc((void **)&d_out, (size_t)batch * n * sizeof(float)));
    KNN_TRY(cudaMemcpy(d_t, h_t, (size_t)n * dim * sizeof(float), cudaMemcpyHostToDevice));
    KNN_TRY(cudaMemcpy(d_q, v->data, (size_t)nq * dim * sizeof(float), cudaMemcpyHostToDevice));
    for (uint64_t q0 = 0; q0 < nq; q0 += batch) {
        const uint64_t cnt = nq - q0 < batch ? nq - q0 : batch;
        const dim3 grid((unsigned)((n + KNN_BLOCK - 1) / KNN_BLOCK), (unsigned)cnt);
        knn_kernel<<<grid, KNN_BLOCK>>>(d_t, d_q + q0 * dim, n, dim, m == DRTOPK_METRIC_L2, d_out);
        KNN_TRY(cudaGetLastError());
        KNN_TRY(cudaMemcpy(out + q0 * n, d_out, (size_t)cnt * n * sizeof(float), cudaMemcpyDeviceToHost));
        if (progress) progress(ctx, q0 + cnt, nq);
    }
done:
    free(h_t);
    if (d_t) cudaFree(d_t);
    if (d_q) cudaFree(d_q);
    if (d_out) cudaFree(d_out);
    return st;
}
