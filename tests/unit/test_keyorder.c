/*
 * test_keyorder.c -- properties of the ordered-key transform (keyorder.h) that
 * every top-k in the project relies on: it agrees with the value order of
 * u32, i32 and f32 (NaN above +inf, -0.0 == +0.0), SMALLEST reverses it, and
 * bits_from_key inverts it.
 */
#include "test_harness.h"
#include "keyorder.h"
#include "gen_core.h"

#include <math.h>
#include <string.h>

#define PAIRS 1000000         /* random pairs per property */
#define NEAR_SPAN 4           /* neighbours: bit patterns this close */
#define SEED 0x6b65796f72646572ull

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
    uint64_t h = drtopk_rand64(SEED, i, r);
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
        uint64_t h = drtopk_rand64(SEED, i, 2);
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
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
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
        for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
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
        for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
            const uint32_t sl = drtopk_surrogate(b, (drtopk_dtype)t, 0u);
            const uint32_t ss = drtopk_surrogate(b, (drtopk_dtype)t, 0xFFFFFFFFu);
            CHECKF(ss == ~sl && drtopk_bits_from_surrogate(ss, (drtopk_dtype)t, 0xFFFFFFFFu) == b,
                   "dtype %d bits 0x%08x: smallest surrogate 0x%08x, largest 0x%08x", t, b, ss, sl);
        }
    }
}

void register_keyorder_tests(void)
{
    test_register("keyorder/f32_matches_float_compare", f32_matches_float_compare);
    test_register("keyorder/f32_nan_above_inf", f32_nan_above_inf);
    test_register("keyorder/f32_signed_zeros_equal", f32_signed_zeros_equal);
    test_register("keyorder/int_orders", int_orders);
    test_register("keyorder/smallest_reverses", smallest_reverses);
    test_register("keyorder/bits_from_key_inverts", bits_from_key_inverts);
    test_register("keyorder/surrogate_refines_key", surrogate_refines_key);
}
