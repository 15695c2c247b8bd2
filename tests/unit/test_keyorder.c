/*
 * test_keyorder.c -- properties of the ordered-key transform (keyorder.h) that
 * every top-k in the project relies on: it agrees with the value order of
 * every key type -- u32, i32, f32, f16, bf16 (exhaustively), u64, i64, f64 --
 * with NaN above +inf and -0.0 == +0.0, SMALLEST reverses it, and
 * bits_from_key inverts it; and the f16/bf16 <-> float conversions.
 */
#include "test_harness.h"
#include "keyorder.h"
#include "gen_core.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PAIRS 1000000         /* random pairs per property */
#define NEAR_SPAN 4           /* neighbours: bit patterns this close */
#define SEED 0x6b65796f72646572ull
#define N_32BIT_TYPES (DRTOPK_F32 + 1)  /* u32 i32 f32: the surrogates' types */
#define HALF_PATTERNS 65536u            /* every 16-bit pattern */

static const uint32_t f32_specials[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu,
    0x00800000u, 0x80800000u, 0x3F800000u, 0xBF800000u, 0x7F7FFFFFu, 0xFF7FFFFFu,
    0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFF800001u,
    0x7FFFFFFFu, 0xFFFFFFFFu,
};
#define N_SPECIALS (sizeof f32_specials / sizeof f32_specials[0])

static float as_float(uint32_t b) { float f; memcpy(&f, &b, sizeof f); return f; }

/* A bit pattern: random, a special, or a near neighbour of a special. */
static uint32_t pattern(uint64_t i, uint32_t r)
{
    uint64_t h = dh_rand64(SEED, i, r);
    uint32_t sel = (uint32_t)h & 3u, x = (uint32_t)(h >> 32);
    uint32_t special = f32_specials[(h >> 8) % N_SPECIALS];
    if (sel == 0) return special;
    if (sel == 1) return special + (uint32_t)((h >> 16) % (2 * NEAR_SPAN + 1)) - NEAR_SPAN;
    return x;
}

static int sgn_u32(uint32_t a, uint32_t b) { return (a > b) - (a < b); }

static void f32_matches_float_compare(void)
{
    for (uint64_t i = 0; i < PAIRS; ++i) {
        uint32_t a = pattern(i, 0), b = pattern(i, 1);
        float fa = as_float(a), fb = as_float(b);
        if (isnan(fa) || isnan(fb)) continue;
        int want = (fa > fb) - (fa < fb);
        int got = sgn_u32(drtopk_key_from_bits(a, DRTOPK_F32, DRTOPK_LARGEST),
                          drtopk_key_from_bits(b, DRTOPK_F32, DRTOPK_LARGEST));
        CHECKF(got == want, "0x%08x vs 0x%08x: key order %d, float order %d", a, b, got, want);
    }
}

static void f32_nan_above_inf(void)
{
    const uint32_t inf = drtopk_key_from_bits(0x7F800000u, DRTOPK_F32, DRTOPK_LARGEST);
    const uint32_t nan = drtopk_key_from_bits(0x7FC00000u, DRTOPK_F32, DRTOPK_LARGEST);
    CHECK(nan > inf);
    CHECK(inf > drtopk_key_from_bits(0x7F7FFFFFu, DRTOPK_F32, DRTOPK_LARGEST));
    CHECK(drtopk_key_from_bits(0xFF800000u, DRTOPK_F32, DRTOPK_LARGEST) <
          drtopk_key_from_bits(0xFF7FFFFFu, DRTOPK_F32, DRTOPK_LARGEST));
    for (uint64_t i = 0; i < PAIRS; ++i) {
        /* every NaN: exponent all ones, any non-zero fraction, either sign */
        uint64_t h = dh_rand64(SEED, i, 2);
        uint32_t frac = ((uint32_t)h & DRTOPK_F32_FRAC_MASK) | 1u;
        uint32_t b = ((uint32_t)(h >> 32) & DRTOPK_SIGN_BIT) | DRTOPK_F32_EXP_MASK | frac;
        CHECKF(isnan(as_float(b)), "0x%08x should be a NaN", b);
        CHECKF(drtopk_key_from_bits(b, DRTOPK_F32, DRTOPK_LARGEST) == nan, "NaN 0x%08x has its own key", b);
        CHECKF(drtopk_key_from_bits(b, DRTOPK_F32, DRTOPK_SMALLEST) <
               drtopk_key_from_bits(0xFF800000u, DRTOPK_F32, DRTOPK_SMALLEST),
               "SMALLEST: NaN 0x%08x must rank below -inf", b);
    }
}

static void f32_signed_zeros_equal(void)
{
    for (int o = DRTOPK_LARGEST; o <= DRTOPK_SMALLEST; ++o) {
        uint32_t pz = drtopk_key_from_bits(0x00000000u, DRTOPK_F32, (drtopk_order)o);
        uint32_t nz = drtopk_key_from_bits(0x80000000u, DRTOPK_F32, (drtopk_order)o);
        CHECK(pz == nz);
    }
    CHECK(drtopk_key_from_bits(0x00000001u, DRTOPK_F32, DRTOPK_LARGEST) >
          drtopk_key_from_bits(0x00000000u, DRTOPK_F32, DRTOPK_LARGEST));
    CHECK(drtopk_key_from_bits(0x80000001u, DRTOPK_F32, DRTOPK_LARGEST) <
          drtopk_key_from_bits(0x80000000u, DRTOPK_F32, DRTOPK_LARGEST));
}

static void int_orders(void)
{
    for (uint64_t i = 0; i < PAIRS; ++i) {
        uint32_t a = pattern(i, 3), b = pattern(i, 4);
        int32_t sa, sb;
        memcpy(&sa, &a, sizeof sa);
        memcpy(&sb, &b, sizeof sb);
        CHECKF(sgn_u32(drtopk_key_from_bits(a, DRTOPK_I32, DRTOPK_LARGEST),
                       drtopk_key_from_bits(b, DRTOPK_I32, DRTOPK_LARGEST)) == (sa > sb) - (sa < sb),
               "i32 %d vs %d", (int)sa, (int)sb);
        CHECK(drtopk_key_from_bits(a, DRTOPK_U32, DRTOPK_LARGEST) == a);
    }
    CHECK(drtopk_key_from_bits(0x80000000u, DRTOPK_I32, DRTOPK_LARGEST) == 0u);          /* INT32_MIN worst */
    CHECK(drtopk_key_from_bits(0x7FFFFFFFu, DRTOPK_I32, DRTOPK_LARGEST) == 0xFFFFFFFFu); /* INT32_MAX best */
}

static void smallest_reverses(void)
{
    for (int t = 0; t < N_32BIT_TYPES; ++t) {
        for (uint64_t i = 0; i < PAIRS / 4; ++i) {
            uint32_t a = pattern(i, 5), b = pattern(i, 6);
            int l = sgn_u32(drtopk_key_from_bits(a, (drtopk_dtype)t, DRTOPK_LARGEST),
                            drtopk_key_from_bits(b, (drtopk_dtype)t, DRTOPK_LARGEST));
            int s = sgn_u32(drtopk_key_from_bits(a, (drtopk_dtype)t, DRTOPK_SMALLEST),
                            drtopk_key_from_bits(b, (drtopk_dtype)t, DRTOPK_SMALLEST));
            CHECKF(s == -l, "dtype %d: 0x%08x vs 0x%08x: largest %d, smallest %d", t, a, b, l, s);
        }
    }
}

static void bits_from_key_inverts(void)
{
    for (uint64_t i = 0; i < PAIRS; ++i) {
        uint32_t b = pattern(i, 7);
        for (int t = 0; t < N_32BIT_TYPES; ++t) {
            uint32_t key = drtopk_key_from_bits(b, (drtopk_dtype)t, DRTOPK_LARGEST);
            uint32_t back = drtopk_bits_from_key(key, (drtopk_dtype)t);
            uint32_t want = b;
            if (t == DRTOPK_F32 && b == DRTOPK_SIGN_BIT) want = 0;   /* -0.0 -> +0.0 */
            if (t == DRTOPK_F32 && drtopk_f32_bits_is_nan(b)) {
                CHECKF(drtopk_f32_bits_is_nan(back), "NaN key gives 0x%08x", back);
                continue;
            }
            CHECKF(back == want, "dtype %d: bits 0x%08x -> key 0x%08x -> bits 0x%08x", t, b, key, back);
        }
    }
}

/* Surrogate order: signed for i32 and f32, unsigned for u32. */
static uint32_t surr_rank(uint32_t s, drtopk_dtype t)
{
    return t == DRTOPK_U32 ? s : s ^ DRTOPK_SIGN_BIT;
}

#define SURR_INT_STRIDE 4099u  /* u32/i32 surrogates are xor maps: a sparse walk */

/* Walks surrogates in their own order, rank r0, r0 + stride, ...: each is the
 * surrogate of the bits it maps back to (a bijection) and the ordered key
 * never decreases, so a top-B by surrogate is a top-B by ordered key. */
static void surrogate_walk(drtopk_dtype t, uint32_t stride)
{
    uint32_t prev_key = 0, r = 0;
    do {
        const uint32_t s = surr_rank(r, t);
        const uint32_t b = drtopk_bits_from_surrogate(s, t, 0u);
        const uint32_t key = drtopk_key_from_bits(b, t, DRTOPK_LARGEST);
        if (drtopk_surrogate(b, t, 0u) != s || key < prev_key)
            CHECKF(0, "dtype %d: surrogate 0x%08x, bits 0x%08x, its surrogate 0x%08x, key 0x%08x after 0x%08x",
                   (int)t, s, b, drtopk_surrogate(b, t, 0u), key, prev_key);
        prev_key = key;
        r += stride;
    } while (r >= stride);      /* until the rank wraps */
}

/* f32 over all 2^32 surrogates; the smallest order is the bitwise complement
 * of the largest in both the surrogate and the key, so it reverses both. */
static void surrogate_refines_key(void)
{
    surrogate_walk(DRTOPK_F32, 1u);
    surrogate_walk(DRTOPK_I32, SURR_INT_STRIDE);
    surrogate_walk(DRTOPK_U32, SURR_INT_STRIDE);
    for (uint64_t i = 0; i < PAIRS; ++i) {
        const uint32_t b = pattern(i, 8);
        for (int t = 0; t < N_32BIT_TYPES; ++t) {
            const uint32_t sl = drtopk_surrogate(b, (drtopk_dtype)t, 0u);
            const uint32_t ss = drtopk_surrogate(b, (drtopk_dtype)t, 0xFFFFFFFFu);
            CHECKF(ss == ~sl && drtopk_bits_from_surrogate(ss, (drtopk_dtype)t, 0xFFFFFFFFu) == b,
                   "dtype %d bits 0x%08x: smallest surrogate 0x%08x, largest 0x%08x", t, b, ss, sl);
        }
    }
}

/* ---- the other widths ----------------------------------------------------- */
static int sgn_u64(uint64_t a, uint64_t b) { return (a > b) - (a < b); }

static double as_double(uint64_t b) { double d; memcpy(&d, &b, sizeof d); return d; }

/* The value of a float pattern of type t as a double (exact for every type). */
static double float_value(uint64_t b, drtopk_dtype t)
{
    switch (t) {
    case DRTOPK_F16: return as_float(drtopk_f32_from_f16((uint16_t)b));
    case DRTOPK_BF16: return as_float(drtopk_f32_from_bf16((uint16_t)b));
    case DRTOPK_F32: return as_float((uint32_t)b);
    default: return as_double(b);
    }
}

/* A w-bit pattern of type t: random, a special (zeros, smallest subnormals,
 * largest finite, infinities, NaNs with payloads, integer extremes) or a
 * near neighbour of one. */
static uint64_t pattern_w(drtopk_dtype t, uint64_t i, uint32_t r)
{
    const uint64_t h = dh_rand64(SEED, i, r), ones = drtopk_width_mask(drtopk_dtype_bits(t));
    const uint64_t sign = drtopk_sign_bit(t), e = drtopk_float_exp_mask(t);
    const uint64_t specials[] = { 0, sign, 1, sign | 1, e - 1, sign | (e - 1), e, sign | e,
                                  drtopk_float_quiet_nan(t), sign | drtopk_float_quiet_nan(t), e | 1,
                                  ones, sign - 1, e >> 1, sign | (e >> 1) };
    const uint64_t special = specials[(h >> 8) % (sizeof specials / sizeof specials[0])];
    switch ((uint32_t)h & 3u) {
    case 0: return special & ones;
    case 1: return (special + ((h >> 16) % (2 * NEAR_SPAN + 1)) - NEAR_SPAN) & ones;
    default: return dh_rand64(SEED, i, r + 100) & ones;
    }
}

/* Key order == value order for t: floats by value (NaN the one top key),
 * integers as signed or unsigned numbers. */
static int value_order(uint64_t a, uint64_t b, drtopk_dtype t)
{
    const int w = drtopk_dtype_bits(t);
    if (drtopk_dtype_is_float(t)) {
        const int na = drtopk_float_bits_is_nan(a, t), nb = drtopk_float_bits_is_nan(b, t);
        if (na || nb) return na - nb;
        const double x = float_value(a, t), y = float_value(b, t);
        return (x > y) - (x < y);
    }
    if (drtopk_dtype_is_signed_int(t)) {
        const int64_t x = (int64_t)(a << (64 - w)) >> (64 - w), y = (int64_t)(b << (64 - w)) >> (64 - w);
        return (x > y) - (x < y);
    }
    return sgn_u64(a, b);
}

/* Every type on random and special pairs: the key order is the value order,
 * SMALLEST reverses it, and bits_from_key_any inverts it (up to -0.0 and
 * NaN payloads). */
static void every_type_matches_value_order(void)
{
    for (int ti = 0; ti < DRTOPK_DTYPE_COUNT; ++ti) {
        const drtopk_dtype t = (drtopk_dtype)ti;
        for (uint64_t i = 0; i < PAIRS / 4; ++i) {
            const uint64_t a = pattern_w(t, i, 9), b = pattern_w(t, i, 10);
            const uint64_t ka = drtopk_key_any(a, t, DRTOPK_LARGEST), kb = drtopk_key_any(b, t, DRTOPK_LARGEST);
            const int want = value_order(a, b, t), got = sgn_u64(ka, kb);
            CHECKF(got == want, "%s 0x%" PRIx64 " vs 0x%" PRIx64 ": key order %d, value order %d",
                   drtopk_dtype_name(t), a, b, got, want);
            CHECKF(sgn_u64(drtopk_key_any(a, t, DRTOPK_SMALLEST), drtopk_key_any(b, t, DRTOPK_SMALLEST)) == -got,
                   "%s 0x%" PRIx64 " vs 0x%" PRIx64 ": smallest does not reverse", drtopk_dtype_name(t), a, b);
            CHECKF(ka <= drtopk_width_mask(drtopk_dtype_bits(t)), "%s: key 0x%" PRIx64 " wider than the type",
                   drtopk_dtype_name(t), ka);
            const uint64_t back = drtopk_bits_from_key_any(ka, t);
            CHECKF(drtopk_key_any(back, t, DRTOPK_LARGEST) == ka, "%s: bits 0x%" PRIx64 " -> key 0x%" PRIx64
                   " -> bits 0x%" PRIx64, drtopk_dtype_name(t), a, ka, back);
            /* shared keys: exactly the NaNs and the zeros; every other key inverts exactly */
            const int many = drtopk_float_bits_is_nan(a, t) ||
                             (drtopk_dtype_is_float(t) && (a & ~drtopk_sign_bit(t)) == 0);
            CHECKF(drtopk_key_is_shared(ka, t) == many, "%s: bits 0x%" PRIx64 " key 0x%" PRIx64 " shared %d, want %d",
                   drtopk_dtype_name(t), a, ka, drtopk_key_is_shared(ka, t), many);
            if (!many)
                CHECKF(back == a, "%s: bits 0x%" PRIx64 " do not come back (0x%" PRIx64 ")",
                       drtopk_dtype_name(t), a, back);
        }
        if (drtopk_dtype_is_float(t)) {   /* NaN above +inf, the zeros equal */
            const uint64_t e = drtopk_float_exp_mask(t), sign = drtopk_sign_bit(t);
            CHECKF(drtopk_key_any(drtopk_float_quiet_nan(t), t, DRTOPK_LARGEST) >
                   drtopk_key_any(e, t, DRTOPK_LARGEST), "%s: NaN not above +inf", drtopk_dtype_name(t));
            CHECKF(drtopk_key_any(sign | e | 1, t, DRTOPK_LARGEST) == drtopk_key_any(e | 1, t, DRTOPK_LARGEST),
                   "%s: NaNs of either sign differ", drtopk_dtype_name(t));
            CHECKF(drtopk_key_any(0, t, DRTOPK_SMALLEST) == drtopk_key_any(sign, t, DRTOPK_SMALLEST),
                   "%s: -0.0 != +0.0", drtopk_dtype_name(t));
        }
    }
}

/* The two-mask inverse of keys up to 32 bits (what the one-read top-k's
 * select writes its values with) is drtopk_key_is_shared and
 * drtopk_bits_from_key_any: every 16-bit key, random and special 32-bit
 * ones. */
static void inverse32_is_the_inverse(void)
{
    for (int ti = 0; ti < DRTOPK_DTYPE_COUNT; ++ti) {
        const drtopk_dtype t = (drtopk_dtype)ti;
        const int bits = drtopk_dtype_bits(t);
        if (bits > 32) continue;
        const drtopk_key_inverse32 m = drtopk_key_inverse32_of(t);
        const uint64_t keys = bits == 16 ? HALF_PATTERNS : PAIRS / 4;
        for (uint64_t i = 0; i < keys; ++i) {
            const uint32_t key = bits == 16 ? (uint32_t)i : (uint32_t)drtopk_key_any(pattern(i, 11), t, DRTOPK_LARGEST);
            const int shared = drtopk_key_is_shared(key, t);
            CHECKF(drtopk_key_inverse32_shared(m, key) == shared, "%s: key 0x%" PRIx32 " shared %d, want %d",
                   drtopk_dtype_name(t), key, drtopk_key_inverse32_shared(m, key), shared);
            if (!shared)
                CHECKF(drtopk_key_inverse32_bits(m, key) == (uint32_t)drtopk_bits_from_key_any(key, t),
                       "%s: key 0x%" PRIx32 " gives bits 0x%" PRIx32 ", want 0x%" PRIx64, drtopk_dtype_name(t), key,
                       drtopk_key_inverse32_bits(m, key), drtopk_bits_from_key_any(key, t));
        }
    }
}

/* f16 and bf16 exhaustively: sorted by key, every pattern's value is
 * non-decreasing, equal keys are exactly equal values (all NaNs one key). */
static uint64_t *half_keys;
static int by_half_key(const void *a, const void *b)
{
    return sgn_u64(half_keys[*(const uint32_t *)a], half_keys[*(const uint32_t *)b]);
}

static void halves_exhaustive(void)
{
    static const drtopk_dtype halves[] = { DRTOPK_F16, DRTOPK_BF16 };
    uint32_t *idx = malloc(HALF_PATTERNS * sizeof *idx);
    half_keys = malloc(HALF_PATTERNS * sizeof *half_keys);
    CHECK(idx && half_keys);
    for (size_t hi = 0; hi < sizeof halves / sizeof halves[0]; ++hi) {
        const drtopk_dtype t = halves[hi];
        for (uint32_t b = 0; b < HALF_PATTERNS; ++b) {
            idx[b] = b;
            half_keys[b] = drtopk_key16_from_bits((uint16_t)b, t, DRTOPK_LARGEST);
        }
        qsort(idx, HALF_PATTERNS, sizeof *idx, by_half_key);
        for (uint32_t j = 1; j < HALF_PATTERNS; ++j) {
            const uint32_t a = idx[j - 1], b = idx[j];
            const int want = value_order(b, a, t), same = half_keys[a] == half_keys[b];
            CHECKF(same ? want == 0 : want > 0, "%s: 0x%04x then 0x%04x in key order, value order %d",
                   drtopk_dtype_name(t), a, b, want);
        }
    }
    free(idx);
    free(half_keys);
}

/* The conversions: every f16/bf16 goes to float and back unchanged (NaN
 * stays NaN); float to f16/bf16 is the nearest, ties to even. */
static void half_conversions(void)
{
    for (uint32_t b = 0; b < HALF_PATTERNS; ++b) {
        const uint16_t h = (uint16_t)b;
        if (drtopk_float_bits_is_nan(h, DRTOPK_F16))
            CHECKF(drtopk_float_bits_is_nan(drtopk_f16_from_f32(drtopk_f32_from_f16(h)), DRTOPK_F16), "f16 NaN 0x%04x", b);
        else
            CHECKF(drtopk_f16_from_f32(drtopk_f32_from_f16(h)) == h, "f16 0x%04x does not round-trip", b);
        if (drtopk_float_bits_is_nan(h, DRTOPK_BF16))
            CHECKF(drtopk_float_bits_is_nan(drtopk_bf16_from_f32(drtopk_f32_from_bf16(h)), DRTOPK_BF16), "bf16 NaN 0x%04x", b);
        else
            CHECKF(drtopk_bf16_from_f32(drtopk_f32_from_bf16(h)) == h, "bf16 0x%04x does not round-trip", b);
    }
    CHECK(drtopk_f32_from_f16(0x0001u) == 0x33800000u);        /* 2^-24, the smallest subnormal */
    CHECK(drtopk_f32_from_f16(0x7BFFu) == 0x477FE000u);        /* 65504, the largest finite */
    CHECK(drtopk_f16_from_float(65520.0f) == 0x7C00u);         /* rounds up to +inf */
    CHECK(drtopk_f16_to_float(drtopk_f16_from_float(-1.5f)) == -1.5f);
    CHECK(drtopk_bf16_to_float(drtopk_bf16_from_float(3.0f)) == 3.0f);
    for (uint64_t i = 0; i < PAIRS; ++i) {
        static const drtopk_dtype halves[] = { DRTOPK_F16, DRTOPK_BF16 };
        const uint32_t x = (uint32_t)(dh_rand64(SEED, i, 11) >> 32);
        const drtopk_dtype t = halves[i & 1];
        const uint16_t h = t == DRTOPK_F16 ? drtopk_f16_from_f32(x) : drtopk_bf16_from_f32(x);
        const double v = as_float(x);
        if (drtopk_f32_bits_is_nan(x)) {
            CHECKF(drtopk_float_bits_is_nan(h, t), "%s: NaN 0x%08x -> 0x%04x", drtopk_dtype_name(t), x, h);
            continue;
        }
        if ((h & 0x7FFFu) == drtopk_float_exp_mask(t)) continue;   /* overflow to inf: checked above */
        /* the neighbours of h in value order (same sign side) */
        for (int d = -1; d <= 1; d += 2) {
            const uint64_t key = drtopk_key16_from_bits(h, t, DRTOPK_LARGEST) + (uint64_t)(int64_t)d;
            const uint64_t nb = drtopk_bits_from_key_any(key & 0xFFFFu, t);
            if (drtopk_float_bits_is_nan(nb, t) || key > 0xFFFFu) continue;
            const double eh = fabs(v - float_value(h, t)), en = fabs(v - float_value(nb, t));
            CHECKF(eh < en || (eh == en && !(h & 1u)), "%s: 0x%08x -> 0x%04x, but 0x%04x is nearer or even",
                   drtopk_dtype_name(t), x, h, (unsigned)nb);
        }
    }
}

/* keyorder.h's compare words at any width, and their range for a key. */
static uint64_t cmp_word_any(uint64_t b, drtopk_dtype t, uint64_t om)
{
    switch (drtopk_dtype_bits(t)) {
    case 16: return drtopk_cmp16_word((uint16_t)b, t, (uint16_t)om);
    case 32: return drtopk_cmp_word((uint32_t)b, t, (uint32_t)om);
    default: return drtopk_cmp64_word(b, t, om);
    }
}

static void cmp_range_any(uint64_t key, drtopk_dtype t, uint64_t om, uint64_t *lo, uint64_t *hi)
{
    uint16_t l16, h16;
    uint32_t l32, h32;
    switch (drtopk_dtype_bits(t)) {
    case 16:
        drtopk_cmp16_word_range((uint16_t)key, t, (uint16_t)om, &l16, &h16);
        *lo = l16, *hi = h16;
        break;
    case 32:
        drtopk_cmp_word_range((uint32_t)key, t, (uint32_t)om, &l32, &h32);
        *lo = l32, *hi = h32;
        break;
    default: drtopk_cmp64_word_range(key, t, om, lo, hi); break;
    }
}

/* Bits b against threshold bits tb: the compare word's class (above the
 * range, in it, below) is the ordered key's (>, ==, <). */
static void check_cmp_class(drtopk_dtype t, drtopk_order o, uint64_t tb, uint64_t b)
{
    const uint64_t om = o == DRTOPK_SMALLEST ? drtopk_width_mask(drtopk_dtype_bits(t)) : 0;
    const uint64_t tk = drtopk_key_any(tb, t, o), k = drtopk_key_any(b, t, o), w = cmp_word_any(b, t, om);
    uint64_t lo, hi;
    cmp_range_any(tk, t, om, &lo, &hi);
    const int want = k > tk ? 1 : k == tk ? 2 : 0, got = w > hi ? 1 : w >= lo ? 2 : 0;
    CHECKF(want == got, "%s %s: threshold 0x%" PRIx64 ", bits 0x%" PRIx64 ": class %d, key says %d",
           drtopk_dtype_name(t), o == DRTOPK_SMALLEST ? "smallest" : "largest", tb, b, got, want);
}

/* Every 16-bit pattern against every 97th threshold and the special ones
 * (NaN, +-0.0, +-inf, extremes); the 32- and 64-bit types on random pairs,
 * near pairs and the special patterns, both orders. */
#define CMP_THRESH_STRIDE 97
#define CMP_SPECIALS 9
static void cmp_word_classifies(void)
{
    static const drtopk_dtype all[] = { DRTOPK_U32, DRTOPK_I32, DRTOPK_F32, DRTOPK_F16,
                                        DRTOPK_BF16, DRTOPK_U64, DRTOPK_I64, DRTOPK_F64 };
    uint64_t rng = SEED;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
        const drtopk_dtype t = all[i];
        const int w = drtopk_dtype_bits(t);
        const uint64_t mask = drtopk_width_mask(w), sign = drtopk_sign_bit(t), e = drtopk_float_exp_mask(t);
        const uint64_t sp[CMP_SPECIALS] = { 0, sign, e, e | 1u, mask, sign | e, sign | e | 1u, 1, sign | 1u };
        for (int o = 0; o <= 1; ++o) {
            if (w == 16) {
                for (uint64_t tb = 0; tb <= mask; ++tb) {
                    int special = 0;
                    for (int j = 0; j < CMP_SPECIALS; ++j) special |= sp[j] == tb;
                    if (!special && tb % CMP_THRESH_STRIDE) continue;
                    for (uint64_t b = 0; b <= mask; ++b) check_cmp_class(t, (drtopk_order)o, tb, b);
                }
                continue;
            }
            for (int j = 0; j < CMP_SPECIALS; ++j)
                for (int m = 0; m < CMP_SPECIALS; ++m) check_cmp_class(t, (drtopk_order)o, sp[j], sp[m]);
            for (int p = 0; p < PAIRS / 10; ++p) {
                const uint64_t tb = dh_mix64(rng++) & mask, r = dh_mix64(rng++);
                check_cmp_class(t, (drtopk_order)o, tb, r & mask);
                check_cmp_class(t, (drtopk_order)o, tb, (tb ^ (r % NEAR_SPAN)) & mask);
                check_cmp_class(t, (drtopk_order)o, tb, sp[r % CMP_SPECIALS]);
            }
        }
    }
}

/* The float key by its definition, written branch by branch: NaN -> all
 * ones, -0.0 -> +0.0, negatives' bits inverted, the others' sign bit set
 * (keyorder.h computes it with selects; the values must be these, not only
 * their order: keys are stored, compared with compare words and inverted). */
static uint64_t float_key_by_definition(uint64_t b, drtopk_dtype t, drtopk_order o)
{
    const uint64_t ones = drtopk_width_mask(drtopk_dtype_bits(t)), sign = drtopk_sign_bit(t);
    uint64_t key;
    if (drtopk_float_bits_is_nan(b, t)) {
        key = ones;
    } else {
        if (b == sign) b = 0;
        key = (b & sign) ? ~b & ones : b | sign;
    }
    return o == DRTOPK_SMALLEST ? ~key & ones : key;
}

/* Every 16-bit pattern of f16 and bf16, and random, special and neighbouring
 * patterns of f32 and f64, both orders: the key is the definition's. */
static void float_keys_are_the_definition(void)
{
    static const drtopk_dtype types[] = { DRTOPK_F16, DRTOPK_BF16, DRTOPK_F32, DRTOPK_F64 };
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ++ti) {
        const drtopk_dtype t = types[ti];
        const uint64_t n = drtopk_dtype_bits(t) == 16 ? HALF_PATTERNS : PAIRS;
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t b = drtopk_dtype_bits(t) == 16 ? i : pattern_w(t, i, 0);
            for (int o = DRTOPK_LARGEST; o <= DRTOPK_SMALLEST; ++o) {
                const uint64_t got = drtopk_key_any(b, t, (drtopk_order)o);
                const uint64_t want = float_key_by_definition(b, t, (drtopk_order)o);
                CHECKF(got == want, "%s bits 0x%" PRIx64 " order %d: key 0x%" PRIx64 ", the definition 0x%" PRIx64,
                       drtopk_dtype_name(t), b, o, got, want);
                if (got != want) return;
            }
        }
    }
}

void register_keyorder_tests(void)
{
    test_register("keyorder/float_keys_are_the_definition", float_keys_are_the_definition);
    test_register("keyorder/cmp_word_classifies", cmp_word_classifies);
    test_register("keyorder/every_type_matches_value_order", every_type_matches_value_order);
    test_register("keyorder/halves_exhaustive", halves_exhaustive);
    test_register("keyorder/half_conversions", half_conversions);
    test_register("keyorder/f32_matches_float_compare", f32_matches_float_compare);
    test_register("keyorder/f32_nan_above_inf", f32_nan_above_inf);
    test_register("keyorder/f32_signed_zeros_equal", f32_signed_zeros_equal);
    test_register("keyorder/int_orders", int_orders);
    test_register("keyorder/smallest_reverses", smallest_reverses);
    test_register("keyorder/bits_from_key_inverts", bits_from_key_inverts);
    test_register("keyorder/inverse32_is_the_inverse", inverse32_is_the_inverse);
    test_register("keyorder/surrogate_refines_key", surrogate_refines_key);
}
