/*
 * radix_data.cuh -- the seeded device data of the radix top-k test
 * (tests/gpu/test_radix.cu) and benchmark (experiments/radix_bench.cu): raw V
 * from gen_core.h, or (ordered key, position) pairs as the delegate pipeline
 * hands them to its first and second top-k (paper section 5.1), with
 * positions that are not the index (32-bit: 3 i + 7, 64-bit: above 2^32) so
 * a result that confuses the two shows.
 */
#ifndef DRTOPK_RADIX_DATA_CUH
#define DRTOPK_RADIX_DATA_CUH
#include <algorithm>
#include <cstdint>
#include "gen_core.h"
#include "keyorder.h"

#define GEN_THREADS 256
#define GEN_GRID_MAX 65535          /* grid-stride beyond this                 */
#define POS64_BASE (1ull << 40)     /* pos64 positions above 2^32              */
#define POS32_MUL 3u                /* pos32 positions: 3 i + 7 (invertible)   */
#define POS32_ADD 7u

__global__ void gen_raw_kernel(uint32_t *out, uint64_t n, uint64_t seed, dh_dist d, drtopk_dtype t)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        out[i] = dh_gen_bits(seed, i, d, t);
}

static inline __host__ __device__ uint64_t pos_of(uint64_t i, int pos64)
{
    return pos64 ? POS64_BASE + i : (uint64_t)(POS32_MUL * (uint32_t)i + POS32_ADD);
}

static inline uint64_t index_of(uint64_t p, int pos64)
{
    return pos64 ? p - POS64_BASE : (p - POS32_ADD) / POS32_MUL;
}

__global__ void gen_pairs_kernel(uint32_t *keys, void *pos, int pos64, uint64_t n, uint64_t seed, dh_dist d,
                                 drtopk_dtype t, drtopk_order o)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        keys[i] = drtopk_key_from_bits(dh_gen_bits(seed, i, d, t), t, o);
        if (pos64) ((uint64_t *)pos)[i] = pos_of(i, 1);
        else ((uint32_t *)pos)[i] = (uint32_t)pos_of(i, 0);
    }
}

static inline int gen_grid(uint64_t n)
{
    uint64_t g = (n + GEN_THREADS - 1) / GEN_THREADS;
    return (int)std::min<uint64_t>(std::max<uint64_t>(g, 1), GEN_GRID_MAX);
}
#endif
