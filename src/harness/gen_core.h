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
    DRTOPK_DIST_UD = 0, /* uniform: integers over all bit patterns, floats in [-1, 1)    */
    DRTOPK_DIST_ND,     /* normal: N(1e8, 10) for integers (paper), N(0, 1) for floats  */
    DRTOPK_DIST_CD,     /* customized: nested dense buckets that keep bucket top-k busy */
    DRTOPK_DIST_ASC,    /* strictly increasing with i                                   */
    DRTOPK_DIST_DESC,   /* strictly decreasing with i                                   */
    DRTOPK_DIST_FEW,    /* few distinct values: heavy ties                              */
    DRTOPK_DIST_EQ,     /* all elements equal                                           */
    DRTOPK_DIST_SPECIAL,/* extremes: 0/max/min for ints; NaN, +-inf, +-0, denormals     */
    DRTOPK_DIST_COUNT
} dh_dist;

/* splitmix64's finaliser: a bijective 64-bit mixer with full avalanche. */
DRTOPK_HD uint64_t dh_mix64(uint64_t x)
{
    x ^= x >> 30; x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27; x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return x;
}

#define DRTOPK_GOLDEN64 0x9E3779B97F4A7C15ull /* Weyl increment of splitmix64 */

/* The r-th 64-bit random word of element i under `seed`. */
DRTOPK_HD uint64_t dh_rand64(uint64_t seed, uint64_t i, uint32_t r)
{
    uint64_t key = dh_mix64(seed ^ ((uint64_t)r << 56));
    return dh_mix64(key + (i + 1) * DRTOPK_GOLDEN64);
}

/* ND: Irwin-Hall sum of 12 uniform 20-bit integers; mean 6*(2^20-1), standard
 * deviation ~2^20, so (sum - mean) / 2^20 is ~N(0, 1) and exact in float. */
#define DRTOPK_ND_TERM_BITS 20
#define DRTOPK_ND_TERMS 12
#define DRTOPK_ND_MEAN_U32 100000000  /* the paper's N(10^8, 10) */
#define DRTOPK_ND_SD_U32 10

DRTOPK_HD int64_t dh_nd_centered_sum(uint64_t seed, uint64_t i)
{
    const uint64_t mask = (1ull << DRTOPK_ND_TERM_BITS) - 1;
    int64_t sum = 0;
    for (uint32_t w = 0; w < DRTOPK_ND_TERMS / 3; ++w) {
        uint64_t h = dh_rand64(seed, i, w);
        sum += (int64_t)(h & mask) + (int64_t)((h >> 20) & mask) + (int64_t)((h >> 40) & mask);
    }
    return sum - (int64_t)(DRTOPK_ND_TERMS / 2) * (int64_t)mask;
}

/* floor(a / 2^s) for signed a without relying on >> of negatives. */
DRTOPK_HD int64_t dh_floor_shift(int64_t a, int s)
{
    int64_t d = (int64_t)1 << s;
    int64_t q = a / d;
    return (a % d != 0 && a < 0) ? q - 1 : q;
}

/* CD: ordered keys nested in levels of 8-bit buckets at the top of the key
 * range (DRTOPK_CD_LEVELS levels, fewer for 16-bit keys).  Level l covers the
 * keys whose top 8l bits are all ones.  15/16 of the elements sit in the
 * innermost level; the rest spread uniformly over the outer levels, so at
 * every bucket/radix iteration every bucket but the one holding the k-th
 * largest stays non-empty while most elements stay in that one. */
#define DRTOPK_CD_LEVELS 4
#define DRTOPK_CD_LEVEL_BITS 8
#define DRTOPK_CD_SPREAD_MASK 15u  /* 1 in 16 elements is spread */
#define DRTOPK_FEW_DISTINCT 7      /* FEW: values 0..6 (scaled), heavy ties */
#define DRTOPK_FEW_OFFSET 3        /* FEW: signed and float values v - 3 */
#define DRTOPK_FEW_SCALE 1000u     /* FEW: unsigned values v * 1000 */
#define DRTOPK_EQ_VALUE 42         /* EQ: every element */
#define DRTOPK_SORTED_PERIOD_MASK 0x3FFFFFFFull /* ASC/DESC restart every 2^30 ... */
#define DRTOPK_SORTED_PERIOD_MASK16 0x7FFFull   /* ... or 2^15 for 16-bit keys */
#define DRTOPK_SPECIAL_CASES 7u    /* SPECIAL: the case of an element, h & 7 */

/* A random word of `w` bits for element i: the top bits of h, or for 64-bit
 * keys a word of its own (h's low bits choose cases). */
DRTOPK_HD uint64_t dh_rand_bits(uint64_t h, uint64_t seed, uint64_t i, int w)
{
    return w == 64 ? dh_rand64(seed, i, 1) : h >> (64 - w);
}

DRTOPK_HD uint64_t dh_cd_key(uint64_t seed, uint64_t i, int w)
{
    const uint64_t h = dh_rand64(seed, i, 0), ones = drtopk_width_mask(w);
    const uint32_t levels = w / DRTOPK_CD_LEVEL_BITS < DRTOPK_CD_LEVELS ? (uint32_t)w / DRTOPK_CD_LEVEL_BITS
                                                                           : DRTOPK_CD_LEVELS;
    uint32_t level = levels - 1;
    if (((uint32_t)h & DRTOPK_CD_SPREAD_MASK) == 0)
        level = (uint32_t)((h >> 4) % (levels - 1));
    const int width_bits = w - DRTOPK_CD_LEVEL_BITS * (int)level;
    const uint64_t r = dh_rand_bits(h, seed, i, w);
    if (width_bits == w) return r;
    const uint64_t base = (ones << width_bits) & ones;
    return base | (r & ~base);
}

/* Float32 bits of a float; and the bits of float value x (exact in float32)
 * as float type t (f64 gets the exact double). */
DRTOPK_HD uint32_t dh_f32_bits(float x)
{
    union { float f; uint32_t u; } fu;
    fu.f = x;
    return fu.u;
}

DRTOPK_HD uint64_t dh_f64_bits(double x)
{
    union { double f; uint64_t u; } du;
    du.f = x;
    return du.u;
}

DRTOPK_HD uint64_t dh_float_bits_of(float x, drtopk_dtype t)
{
    switch (t) {
    case DRTOPK_F16: return drtopk_f16_from_f32(dh_f32_bits(x));
    case DRTOPK_BF16: return drtopk_bf16_from_f32(dh_f32_bits(x));
    case DRTOPK_F64: return dh_f64_bits((double)x);
    default: return dh_f32_bits(x);
    }
}

/* Significand bits of float type t, the implicit one included. */
DRTOPK_HD int dh_float_precision(drtopk_dtype t)
{
    uint64_t f = drtopk_float_frac_mask(t);
    int p = 1;
    for (; f; f >>= 1) ++p;
    return p;
}

/* Raw bits of element i (the low drtopk_dtype_bits(t) bits).  The 32-bit
 * types' values are those of every earlier release. */
DRTOPK_HD uint64_t dh_gen_bits(uint64_t seed, uint64_t i, dh_dist d, drtopk_dtype t)
{
    const int w = drtopk_dtype_bits(t), is_float = drtopk_dtype_is_float(t);
    const uint64_t ones = drtopk_width_mask(w), sign = drtopk_sign_bit(t);
    uint64_t h;
    switch (d) {
    case DRTOPK_DIST_UD: {
        h = dh_rand64(seed, i, 0);
        if (!is_float) return dh_rand_bits(h, seed, i, w);
        /* 2^p equally spaced values in [-1, 1), p the type's precision: exact */
        const int p = dh_float_precision(t);
        const int64_t m = (int64_t)(h >> (64 - p)) - ((int64_t)1 << (p - 1));
        if (t == DRTOPK_F64) return dh_f64_bits((double)m * (1.0 / (double)(1ull << (p - 1))));
        return dh_float_bits_of((float)m * (1.0f / (float)(1 << (p - 1))), t);
    }
    case DRTOPK_DIST_ND: {
        int64_t c = dh_nd_centered_sum(seed, i);
        if (t == DRTOPK_F64) return dh_f64_bits((double)c * (1.0 / (double)(1 << DRTOPK_ND_TERM_BITS)));
        /* exact in float32; f16 and bf16 round it to nearest even */
        if (is_float) return dh_float_bits_of((float)c * (1.0f / (float)(1 << DRTOPK_ND_TERM_BITS)), t);
        int64_t v = DRTOPK_ND_MEAN_U32 + dh_floor_shift(c * DRTOPK_ND_SD_U32 + (1 << (DRTOPK_ND_TERM_BITS - 1)),
                                                             DRTOPK_ND_TERM_BITS);
        return (uint64_t)v & ones;
    }
    case DRTOPK_DIST_CD: {
        const uint64_t key = dh_cd_key(seed, i, w);
        /* floats: keep the nesting on positive finite values (key >> 2) */
        return is_float ? (key >> 2) : drtopk_bits_from_key_any(key, t);
    }
    case DRTOPK_DIST_ASC:
    case DRTOPK_DIST_DESC: {
        /* keys in [2^(w-2) - 1, 2^(w-1) + 2^(w-2) - 1]: finite floats, never
         * -0.0; the run repeats every 2^30 (16 bits: 2^15) elements */
        const uint64_t step = i & (w == 16 ? DRTOPK_SORTED_PERIOD_MASK16 : DRTOPK_SORTED_PERIOD_MASK);
        const uint64_t lo = (sign >> 1) - 1u, hi = lo + sign;
        return drtopk_bits_from_key_any(d == DRTOPK_DIST_ASC ? lo + step : hi - step, t);
    }
    case DRTOPK_DIST_FEW: {
        h = dh_rand64(seed, i, 0);
        const uint32_t v = (uint32_t)((h >> 32) % DRTOPK_FEW_DISTINCT);
        if (is_float) return dh_float_bits_of((float)v - (float)DRTOPK_FEW_OFFSET, t);
        if (drtopk_dtype_is_signed_int(t)) return (uint64_t)((int64_t)v - DRTOPK_FEW_OFFSET) & ones;
        return (uint64_t)v * DRTOPK_FEW_SCALE;
    }
    case DRTOPK_DIST_EQ:
        return is_float ? dh_float_bits_of((float)DRTOPK_EQ_VALUE, t) : (uint64_t)DRTOPK_EQ_VALUE;
    case DRTOPK_DIST_SPECIAL:
    default: {
        h = dh_rand64(seed, i, 0);
        const uint64_t r = dh_rand_bits(h, seed, i, w);
        const uint32_t sel = (uint32_t)h & DRTOPK_SPECIAL_CASES;
        if (is_float) {
            const uint64_t e = drtopk_float_exp_mask(t), frac = drtopk_float_frac_mask(t);
            switch (sel) {
            case 0: return drtopk_float_quiet_nan(t);              /* quiet NaN     */
            case 1: return sign | drtopk_float_quiet_nan(t) | 1u;  /* negative NaN  */
            case 2: return e;                                      /* +inf          */
            case 3: return sign | e;                               /* -inf          */
            case 4: return 0u;                                     /* +0.0          */
            case 5: return sign;                                   /* -0.0          */
            case 6: return r & (sign | frac);                      /* denormal      */
            default: return drtopk_float_bits_is_nan(r, t) ? (r & ~(frac + 1u)) : r;
            }
        }
        switch (sel) {
        case 0: return 0u;
        case 1: return ones;
        case 2: return sign;
        case 3: return sign - 1u;
        default: return r;
        }
    }
    }
}

#endif
