/*
 * device_gen.cu -- dh_dev_generate: the seeded synthetic data sets of
 * paper section 6 (UD, ND, CD) and the adversarial test sets, generated on the
 * GPU from the same counter-based core (gen_core.h) as the host generator, so
 * both produce bit-identical vectors and GPU results can be checked against
 * the CPU reference on identical data.
 */
#include "device.h"
#include "gen_core.h"
#include "status_cuda.h"

#define GEN_BLOCK 256            /* threads per block                         */
#define GEN_BLOCKS_PER_SM 16     /* grid-stride: enough blocks to fill the GPU */

/* E: the element type of t's width (uint16_t, uint32_t or uint64_t). */
template <typename E>
__global__ void gen_kernel(E *__restrict__ out, uint64_t first, uint64_t n, dh_dist d, drtopk_dtype t,
                           uint64_t seed)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = (E)dh_gen_bits(seed, first + i, d, t);
}

template <typename E>
static drtopk_status gen_launch(void *d_out, uint64_t first, uint64_t n, dh_dist d, drtopk_dtype t,
                                uint64_t seed, unsigned grid, cudaStream_t s)
{
    gen_kernel<E><<<grid, GEN_BLOCK, 0, s>>>((E *)d_out, first, n, d, t, seed);
    STATUS_LAUNCH_CHECK();
    return DRTOPK_OK;
}

extern "C" drtopk_status dh_dev_generate(void *d_out, uint64_t n, dh_dist d, drtopk_dtype t,
                                         uint64_t seed, void *stream)
{
    return dh_dev_generate_at(d_out, 0, n, d, t, seed, stream);
}

extern "C" drtopk_status dh_dev_generate_at(void *d_out, uint64_t first, uint64_t n, dh_dist d,
                                            drtopk_dtype t, uint64_t seed, void *stream)
{
    int dev, sms;
    if (d_out == NULL || n == 0) return DRTOPK_ERR_INVALID_ARGUMENT;
    if ((unsigned)d >= DRTOPK_DIST_COUNT || (unsigned)t >= DRTOPK_DTYPE_COUNT)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    if (((uintptr_t)d_out & (drtopk_dtype_size(t) - 1)) != 0) return DRTOPK_ERR_MISALIGNED;
    STATUS_CUDA_TRY(cudaGetDevice(&dev));
    STATUS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    {
        const uint64_t need = (n + GEN_BLOCK - 1) / GEN_BLOCK;
        const uint64_t cap = (uint64_t)sms * GEN_BLOCKS_PER_SM;
        const unsigned grid = (unsigned)(need < cap ? need : cap);
        const cudaStream_t s = (cudaStream_t)stream;
        switch (drtopk_dtype_bits(t)) {
        case 16: return gen_launch<uint16_t>(d_out, first, n, d, t, seed, grid, s);
        case 32: return gen_launch<uint32_t>(d_out, first, n, d, t, seed, grid, s);
        default: return gen_launch<uint64_t>(d_out, first, n, d, t, seed, grid, s);
        }
    }
}
