/*
 * gen_core.h -- the counter-based seeded generator of the synthetic data sets
 * (paper section 6: UD, ND, CD) plus the adversarial sets the tests need.
 * Element i depends only on (seed, i, distribution, dtype) and is computed with
 * integer arithmetic and exact float scalings only, so the host generator and
 * the CUDA kernel that include this file produce bit-identical vectors.
 */
#ifndef DRTOPK_GEN_CORE_H
#define DRTOPK_GEN_CORE_H
#include <stdint.h>
#include "hd.h"
#include "drtopk.h"
#include "keyorder.h"

typedef enum {
    DRTOPK_DIST_UD = 0, /* uniform: u32/i32 over all 2^32 bit patterns, f32 in [-1, 1) */
    DRTOPK_DIST_ND,     /* normal: N(1e8, 10) for u32/i32 (paper), N(0, 1) for f32     */
    DRTOPK_DIST_CD,     /* customized: nested dense buckets that keep bucket top-k busy */
    DRTOPK_DIST_ASC,    /* strictly increasing with i                                   */
    DRTOPK_DIST_DESC,   /* strictly decreasing with i                                   */
    DRTOPK_DIST_FEW,    /* few distinct values: heavy ties                              */
    DRTOPK_DIST_EQ,     /* all elements equal                                           */
    DRTOPK_DIST_SPECIAL,/* extremes: 0/max/min for ints; NaN, +-inf, +-0, denormals     */
    DRTOPK_DIST_COUNT
} drtopk_dist;

/* splitmix64's finaliser: a bijective 64-bit mixer with full avalanche. */
DRTOPK_HD uint64_t drtopk_mix64(uint64_t x)
{
    x ^= x >> 30; x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27; x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return x;
}

#define DRTOPK_GOLDEN64 0x9E3779B97F4A7C15ull /* Weyl increment of splitmix64 */

/* The r-th 64-bit random word of element i under `seed`. */
DRTOPK_HD uint64_t drtopk_rand64(uint64_t seed, uint64_t i, uint32_t r)
{
    uint64_t key = drtopk_mix64(seed ^ ((uint64_t)r << 56));
    return drtopk_mix64(key + (i + 1) * DRTOPK_GOLDEN64);
}

/* ND: Irwin-Hall sum of 12 uniform 20-bit integers; mean 6*(2^20-1), standard
 * deviation ~2^20, so (sum - mean) / 2^20 is ~N(0, 1) and exact in float. */
#define DRTOPK_ND_TERM_BITS 20
#define DRTOPK_ND_TERMS 12
#define DRTOPK_ND_MEAN_U32 100000000  /* the paper's N(10^8, 10) */
#define DRTOPK_ND_SD_U32 10

DRTOPK_HD int64_t drtopk_nd_centered_sum(uint64_t seed, uint64_t i)
{
    const uint64_t mask = (1ull << DRTOPK_ND_TERM_BITS) - 1;
    int64_t sum = 0;
    for (uint32_t w = 0; w < DRTOPK_ND_TERMS / 3; ++w) {
        uint64_t h = drtopk_rand64(seed, i, w);
        sum += (int64_t)(h & mask) + (int64_t)((h >> 20) & mask) + (int64_t)((h >> 40) & mask);
    }
    return sum - (int64_t)(DRTOPK_ND_TERMS / 2) * (int64_t)mask;
}

/* floor(a / 2^s) for signed a without relying on >> of negatives. */
DRTOPK_HD int64_t drtopk_floor_shift(int64_t a, int s)
{
    int64_t d = (int64_t)1 << s;
    int64_t q = a / d;
    return (a % d != 0 && a < 0) ? q - 1 : q;
}

/* CD: ordered keys nested in DRTOPK_CD_LEVELS levels of 8-bit buckets at the
 * top of the key range.  Level l covers [2^32 - 2^(32-8l), 2^32).  15/16 of the
 * elements sit in the innermost level; the rest spread uniformly over the outer
 * levels, so at every bucket/radix iteration every bucket but the one holding
 * the k-th largest stays non-empty while most elements stay in that one. */
#define DRTOPK_CD_LEVELS 4
#define DRTOPK_CD_LEVEL_BITS 8
#define DRTOPK_CD_SPREAD_MASK 15u  /* 1 in 16 elements is spread */
#define DRTOPK_FEW_DISTINCT 7      /* FEW: values 0..6 (scaled), heavy ties */
#define DRTOPK_SORTED_PERIOD_MASK 0x3FFFFFFFull /* ASC/DESC restart every 2^30 */

DRTOPK_HD uint32_t drtopk_cd_key(uint64_t seed, uint64_t i)
{
    uint64_t h = drtopk_rand64(seed, i, 0);
    uint32_t level = DRTOPK_CD_LEVELS - 1;
    if (((uint32_t)h & DRTOPK_CD_SPREAD_MASK) == 0)
        level = (uint32_t)((h >> 4) % (DRTOPK_CD_LEVELS - 1));
    uint32_t width_bits = 32 - DRTOPK_CD_LEVEL_BITS * level;
    uint32_t r = (uint32_t)(h >> 32);
    if (width_bits == 32) return r;
    uint32_t base = 0xFFFFFFFFu << width_bits;
    return base | (r & ~base);
}

/* Raw bits of element i. */
DRTOPK_HD uint32_t drtopk_gen_bits(uint64_t seed, uint64_t i, drtopk_dist d, drtopk_dtype t)
{
    uint64_t h;
    union { float f; uint32_t u; } fu;
    switch (d) {
    case DRTOPK_DIST_UD:
        h = drtopk_rand64(seed, i, 0);
        if (t != DRTOPK_F32) return (uint32_t)(h >> 32);
        /* 2^24 equally spaced values in [-1, 1): exact in float */
        fu.f = (float)((int32_t)(h >> 40) - (1 << 23)) * (1.0f / (float)(1 << 23));
        return fu.u;
    case DRTOPK_DIST_ND: {
        int64_t c = drtopk_nd_centered_sum(seed, i);
        if (t == DRTOPK_F32) {
            fu.f = (float)c * (1.0f / (float)(1 << DRTOPK_ND_TERM_BITS));
            return fu.u;
        }
        int64_t v = DRTOPK_ND_MEAN_U32 + drtopk_floor_shift(c * DRTOPK_ND_SD_U32 + (1 << (DRTOPK_ND_TERM_BITS - 1)),
                                                             DRTOPK_ND_TERM_BITS);
        return (uint32_t)v;
    }
    case DRTOPK_DIST_CD: {
        uint32_t key = drtopk_cd_key(seed, i);
        /* f32: keep the nesting on positive finite floats (key >> 2 < 0x40000000) */
        return t == DRTOPK_F32 ? (key >> 2) : drtopk_bits_from_key(key, t);
    }
    case DRTOPK_DIST_ASC:
    case DRTOPK_DIST_DESC: {
        /* keys in [0x3FFFFFFF, 0xBFFFFFFF]: finite floats, never -0.0; the run
         * repeats every 2^30 elements */
        uint32_t step = (uint32_t)(i & DRTOPK_SORTED_PERIOD_MASK);
        uint32_t key = (d == DRTOPK_DIST_ASC) ? 0x3FFFFFFFu + step : 0xBFFFFFFFu - step;
        return drtopk_bits_from_key(key, t);
    }
    case DRTOPK_DIST_FEW: {
        h = drtopk_rand64(seed, i, 0);
        uint32_t v = (uint32_t)((h >> 32) % DRTOPK_FEW_DISTINCT);
        if (t == DRTOPK_F32) { fu.f = (float)v - 3.0f; return fu.u; }
        return t == DRTOPK_I32 ? (uint32_t)((int32_t)v - 3) : v * 1000u;
    }
    case DRTOPK_DIST_EQ:
        if (t == DRTOPK_F32) { fu.f = 42.0f; return fu.u; }
        return 42u;
    case DRTOPK_DIST_SPECIAL:
    default: {
        h = drtopk_rand64(seed, i, 0);
        uint32_t r = (uint32_t)(h >> 32);
        uint32_t sel = (uint32_t)h & 7u;
        if (t == DRTOPK_F32) {
            switch (sel) {
            case 0: return 0x7FC00000u;            /* quiet NaN     */
            case 1: return 0xFFC00001u;            /* negative NaN  */
            case 2: return 0x7F800000u;            /* +inf          */
            case 3: return 0xFF800000u;            /* -inf          */
            case 4: return 0x00000000u;            /* +0.0          */
            case 5: return 0x80000000u;            /* -0.0          */
            case 6: return r & 0x807FFFFFu;        /* denormal      */
            default: return drtopk_f32_bits_is_nan(r) ? (r & 0xFF7FFFFFu) : r;
            }
        }
        switch (sel) {
        case 0: return 0u;
        case 1: return 0xFFFFFFFFu;
        case 2: return 0x80000000u;
        case 3: return 0x7FFFFFFFu;
        default: return r;
        }
    }
    }
}

#endif
