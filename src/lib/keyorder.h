/*
 * keyorder.h -- the order-preserving map from every key type to an unsigned
 * "ordered key" of the type's width (16, 32 or 64 bits) where a larger
 * ordered key is a better top-k candidate.  All algorithms (CPU reference and
 * kernels) select on ordered keys, which is how one radix/bucket/bitonic code
 * path serves every key type, largest and smallest (paper section 5.1 works
 * on unsigned integers).
 *
 * Floats (f16, bf16, f32, f64): NaN (any payload, any sign) is above +inf;
 * -0.0 equals +0.0.  f16 and bf16 are handled as their 16-bit IEEE binary16 /
 * bfloat16 bit patterns (uint16_t); the conversions to and from float32 below
 * are integer code, bit for bit the same on the host and the GPU.
 */
#ifndef DRTOPK_KEYORDER_H
#define DRTOPK_KEYORDER_H
#include <stdint.h>
#include "hd.h"
#include "drtopk.h"

/* ---- key-type traits ----------------------------------------------------- */
/* Bit sets over drtopk_dtype: one shift and mask classifies a runtime dtype
 * (callers pass a valid dtype: every entry point checks it first). */
#define DRTOPK_FLOAT_DTYPES ((1u << DRTOPK_F32) | (1u << DRTOPK_F16) | (1u << DRTOPK_BF16) | (1u << DRTOPK_F64))
#define DRTOPK_SIGNED_INT_DTYPES ((1u << DRTOPK_I32) | (1u << DRTOPK_I64))
#define DRTOPK_16BIT_DTYPES ((1u << DRTOPK_F16) | (1u << DRTOPK_BF16))
#define DRTOPK_64BIT_DTYPES ((1u << DRTOPK_U64) | (1u << DRTOPK_I64) | (1u << DRTOPK_F64))

DRTOPK_HD int drtopk_dtype_is_float(drtopk_dtype t) { return (DRTOPK_FLOAT_DTYPES >> t) & 1u; }
DRTOPK_HD int drtopk_dtype_is_signed_int(drtopk_dtype t) { return (DRTOPK_SIGNED_INT_DTYPES >> t) & 1u; }

/* Width of the element and of its ordered key: 16, 32 or 64. */
DRTOPK_HD_CONST int drtopk_dtype_bits(drtopk_dtype t)
{
    return ((DRTOPK_16BIT_DTYPES >> t) & 1u) ? 16 : ((DRTOPK_64BIT_DTYPES >> t) & 1u) ? 64 : 32;
}

/* All ones in the low `bits` bits. */
DRTOPK_HD uint64_t drtopk_width_mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1u; }

#define DRTOPK_SIGN_BIT 0x80000000u
#define DRTOPK_F32_EXP_MASK 0x7F800000u
#define DRTOPK_F32_FRAC_MASK 0x007FFFFFu
#define DRTOPK_F16_EXP_MASK 0x7C00u
#define DRTOPK_BF16_EXP_MASK 0x7F80u
#define DRTOPK_F64_EXP_MASK 0x7FF0000000000000ull
#define DRTOPK_F64_FRAC_MASK 0x000FFFFFFFFFFFFFull

/* The exponent field of float type t (0 for integer types). */
DRTOPK_HD uint64_t drtopk_float_exp_mask(drtopk_dtype t)
{
    return t == DRTOPK_F16 ? DRTOPK_F16_EXP_MASK : t == DRTOPK_BF16 ? DRTOPK_BF16_EXP_MASK
         : t == DRTOPK_F32 ? DRTOPK_F32_EXP_MASK : t == DRTOPK_F64 ? DRTOPK_F64_EXP_MASK : 0u;
}

/* The fraction field of float type t: the bits below the exponent. */
DRTOPK_HD uint64_t drtopk_float_frac_mask(drtopk_dtype t)
{
    const uint64_t e = drtopk_float_exp_mask(t);
    return (e & (~e + 1u)) - 1u;
}

DRTOPK_HD uint64_t drtopk_sign_bit(drtopk_dtype t) { return 1ull << (drtopk_dtype_bits(t) - 1); }

/* The canonical quiet NaN of float type t (top fraction bit set). */
DRTOPK_HD uint64_t drtopk_float_quiet_nan(drtopk_dtype t)
{
    return drtopk_float_exp_mask(t) | ((drtopk_float_frac_mask(t) + 1u) >> 1);
}

/* Ordered key of raw element bits `b` of type `t` for order `o`, one function
 * per width with one body: UT is the unsigned type of width W, UNS and SIG
 * its unsigned and signed integer types (DRTOPK_DTYPE_COUNT where there is
 * none), EXP and FRAC the exponent and fraction masks of t (expressions:
 * constants for 32 and 64 bits, so that the 32-bit kernels' per-element work
 * is what it was before the other widths came).  Integers: the bits, the sign bit flipped for
 * signed types.  Floats: NaN -> all ones, -0.0 -> +0.0, negatives' bits
 * inverted, positives' sign bit set (tests/unit checks this form against
 * that definition).  NAME_is_nan(b, t): whether b is a NaN
 * when t is this width's float type. */
#define DRTOPK_DEFINE_KEY_FROM_BITS(NAME, UT, W, UNS, SIG, EXP, FRAC)                    \
    DRTOPK_HD int NAME##_is_nan(UT b, drtopk_dtype t)                                   \
    {                                                                                   \
        (void)t;                                                                        \
        return (b & (UT)(EXP)) == (UT)(EXP) && (b & (UT)(FRAC)) != 0;                   \
    }                                                                                   \
    DRTOPK_HD UT NAME(UT b, drtopk_dtype t, drtopk_order o)                             \
    {                                                                                   \
        const UT sign = (UT)((UT)1u << ((W) - 1));                                      \
        UT key;                                                                         \
        if (t == (UNS)) {                                                               \
            key = b;                                                                    \
        } else if (t == (SIG)) {                                                        \
            key = (UT)(b ^ sign);                                                       \
        } else {                                                                        \
            /* the magnitude above the exponent field's all ones: every NaN, one key   \
             * above +inf; negatives other than -0.0 invert all bits, the rest (-0.0   \
             * with +0.0) set the sign bit: two selects and an xor, no branch */       \
            const UT mag = (UT)(b & (UT)~sign);                                         \
            const UT flip = b > sign ? (UT)~sign : sign;                                \
            key = mag > (UT)(EXP) ? (UT)~(UT)0u : (UT)(mag ^ flip);                     \
        }                                                                               \
        return o == DRTOPK_SMALLEST ? (UT)~key : key;                                   \
    }
DRTOPK_DEFINE_KEY_FROM_BITS(drtopk_key16_from_bits, uint16_t, 16, DRTOPK_DTYPE_COUNT, DRTOPK_DTYPE_COUNT,
                            drtopk_float_exp_mask(t), drtopk_float_frac_mask(t))
DRTOPK_DEFINE_KEY_FROM_BITS(drtopk_key_from_bits, uint32_t, 32, DRTOPK_U32, DRTOPK_I32, DRTOPK_F32_EXP_MASK,
                            DRTOPK_F32_FRAC_MASK)
DRTOPK_DEFINE_KEY_FROM_BITS(drtopk_key64_from_bits, uint64_t, 64, DRTOPK_U64, DRTOPK_I64, DRTOPK_F64_EXP_MASK,
                            DRTOPK_F64_FRAC_MASK)
#undef DRTOPK_DEFINE_KEY_FROM_BITS

DRTOPK_HD int drtopk_f32_bits_is_nan(uint32_t b) { return drtopk_key_from_bits_is_nan(b, DRTOPK_F32); }

/* Whether the low drtopk_dtype_bits(t) bits of b are a NaN of type t (0 for
 * integer types). */
DRTOPK_HD int drtopk_float_bits_is_nan(uint64_t b, drtopk_dtype t)
{
    if (!drtopk_dtype_is_float(t)) return 0;
    switch (drtopk_dtype_bits(t)) {
    case 16: return drtopk_key16_from_bits_is_nan((uint16_t)b, t);
    case 32: return drtopk_key_from_bits_is_nan((uint32_t)b, t);
    default: return drtopk_key64_from_bits_is_nan(b, t);
    }
}

/* Any width: the ordered key of `b` (the low drtopk_dtype_bits(t) bits). */
DRTOPK_HD uint64_t drtopk_key_any(uint64_t b, drtopk_dtype t, drtopk_order o)
{
    switch (drtopk_dtype_bits(t)) {
    case 16: return drtopk_key16_from_bits((uint16_t)b, t, o);
    case 32: return drtopk_key_from_bits((uint32_t)b, t, o);
    default: return drtopk_key64_from_bits(b, t, o);
    }
}

/* Element i of an array of n elements of type t, as bits. */
DRTOPK_HD uint64_t drtopk_bits_at(const void *v, uint64_t i, drtopk_dtype t)
{
    switch (drtopk_dtype_bits(t)) {
    case 16: return ((const uint16_t *)v)[i];
    case 32: return ((const uint32_t *)v)[i];
    default: return ((const uint64_t *)v)[i];
    }
}

/* Store bits b as element i of an array of type t. */
DRTOPK_HD void drtopk_bits_store(void *v, uint64_t i, drtopk_dtype t, uint64_t b)
{
    switch (drtopk_dtype_bits(t)) {
    case 16: ((uint16_t *)v)[i] = (uint16_t)b; break;
    case 32: ((uint32_t *)v)[i] = (uint32_t)b; break;
    default: ((uint64_t *)v)[i] = b; break;
    }
}

/* The ordered key of element i of array v of type t. */
DRTOPK_HD uint64_t drtopk_key_at(const void *v, uint64_t i, drtopk_dtype t, drtopk_order o)
{
    return drtopk_key_any(drtopk_bits_at(v, i, t), t, o);
}

/* Surrogate keys, for hot loops that rank elements without computing the
 * ordered key (delegate_build.cu): a 32-bit word compared as unsigned for u32
 * and as signed for i32 and f32 that refines the ordered key, i.e. a larger
 * surrogate never has a smaller key, so a top-B by surrogate is a top-B by
 * key with ties broken some other way.  Each is a bijection on 32-bit words;
 * om is 0 for the largest and all ones for the smallest (it reverses the
 * order).  f32 costs a few integer operations and no branch: the bits with
 * the magnitude flipped for negatives (signed order of the floats, -0.0 just
 * under +0.0) minus DRTOPK_F32_SURR_SHIFT, which wraps the negative NaNs, the
 * lowest words after the flip, to the top beside the positive NaNs. */
#define DRTOPK_F32_SURR_SHIFT 0x007FFFFFu /* how many negative NaN patterns */
#define DRTOPK_F32_MAGNITUDE 0x7FFFFFFFu

DRTOPK_HD uint32_t drtopk_f32_flip(uint32_t b) /* an involution */
{
    return b ^ ((b >> 31) * DRTOPK_F32_MAGNITUDE);
}

DRTOPK_HD uint32_t drtopk_f32_surr_offset(uint32_t om)
{
    return om ? DRTOPK_F32_SURR_SHIFT : 0u - DRTOPK_F32_SURR_SHIFT;
}

DRTOPK_HD uint32_t drtopk_surrogate(uint32_t b, drtopk_dtype t, uint32_t om)
{
    if (t == DRTOPK_F32) return (drtopk_f32_flip(b) ^ om) + drtopk_f32_surr_offset(om);
    return b ^ om;
}

/* Element bits of surrogate s (the inverse of drtopk_surrogate). */
DRTOPK_HD uint32_t drtopk_bits_from_surrogate(uint32_t s, drtopk_dtype t, uint32_t om)
{
    if (t == DRTOPK_F32) return drtopk_f32_flip((s - drtopk_f32_surr_offset(om)) ^ om);
    return s ^ om;
}

/* Whether several element bit patterns share the ordered key `key` of the
 * largest order (float types only: every NaN, and -0.0 with +0.0); every
 * other key has exactly one pattern, which drtopk_bits_from_key_any gives. */
DRTOPK_HD int drtopk_key_is_shared(uint64_t key, drtopk_dtype t)
{
    return drtopk_dtype_is_float(t) && (key == drtopk_width_mask(drtopk_dtype_bits(t)) || key == drtopk_sign_bit(t));
}

/* Inverse for the largest order: element bits whose key is `key` (any
 * width), exact unless drtopk_key_is_shared: for floats it returns the
 * canonical +0.0 and quiet NaN where several bit patterns share a key.  Used
 * by generators that build data from keys and by the one-read top-k, which
 * writes its result's values from their keys (kernels/onepass.cu). */
DRTOPK_HD uint64_t drtopk_bits_from_key_any(uint64_t key, drtopk_dtype t)
{
    const uint64_t ones = drtopk_width_mask(drtopk_dtype_bits(t)), sign = drtopk_sign_bit(t);
    if (!drtopk_dtype_is_float(t)) return drtopk_dtype_is_signed_int(t) ? key ^ sign : key;
    if (key == ones) return drtopk_float_quiet_nan(t);
    return (key & sign) ? (key & ~sign) : (~key & ones);
}

DRTOPK_HD uint32_t drtopk_bits_from_key(uint32_t key, drtopk_dtype t)
{
    return (uint32_t)drtopk_bits_from_key_any(key, t);
}

/* drtopk_key_is_shared and drtopk_bits_from_key_any for keys of at most 32
 * bits as two masks of the type, for kernels that convert many keys of a
 * type known at run time without a branch on it: the bits are
 * key ^ ((key & fsign) ? fsign : flip), shared where fsign && (key == flip ||
 * key == fsign).  Floats: fsign the sign bit, flip all ones of the width;
 * signed integers: fsign 0, flip the sign bit; unsigned: both 0. */
typedef struct {
    uint32_t fsign, flip;
} drtopk_key_inverse32;

DRTOPK_HD drtopk_key_inverse32 drtopk_key_inverse32_of(drtopk_dtype t)
{
    drtopk_key_inverse32 m;
    const int is_float = drtopk_dtype_is_float(t);
    m.fsign = is_float ? (uint32_t)drtopk_sign_bit(t) : 0u;
    m.flip = is_float ? (uint32_t)drtopk_width_mask(drtopk_dtype_bits(t))
                      : drtopk_dtype_is_signed_int(t) ? (uint32_t)drtopk_sign_bit(t) : 0u;
    return m;
}

DRTOPK_HD int drtopk_key_inverse32_shared(drtopk_key_inverse32 m, uint32_t key)
{
    return m.fsign != 0 && (key == m.flip || key == m.fsign);
}

DRTOPK_HD uint32_t drtopk_key_inverse32_bits(drtopk_key_inverse32 m, uint32_t key)
{
    return key ^ ((key & m.fsign) ? m.fsign : m.flip);
}

/* Compare words, for the one-read top-k's pass (kernels/onepass.cu), which
 * classifies every key of V against one threshold key without computing the
 * ordered key: one function per width like the ordered key.  NAME(b, t, om)
 * is a W-bit word, compared unsigned, that refines the ordered key of order
 * om (0 largest, all ones smallest): a larger word never has a smaller key;
 * NAME_range(key, t, om, lo, hi) gives the words [lo, hi] of the bits whose
 * key is `key`, so key(b) > key iff word > hi and key(b) == key iff
 * lo <= word <= hi.  Integers: the word is the ordered key (lo = hi = key).
 * Floats: for the largest order flip(b) + (sign - N) mod 2^W, where flip
 * inverts the magnitude of negatives (the signed order of the floats, -0.0
 * just under +0.0) and N, the fraction mask, counts the negative NaN patterns,
 * which the addition wraps to the top beside the positive ones; the smallest
 * order inverts the word.  No NaN or -0.0 test a key, and no branch.  Three
 * sets of bits share a key: every NaN (the words from +NaN with fraction 1 to
 * all ones), -0.0 and +0.0 (two adjacent words), else one pattern. */
#define DRTOPK_DEFINE_CMP_WORD(NAME, UT, W, KEYFN)                                              \
    DRTOPK_HD UT NAME##_largest(UT b, drtopk_dtype t)                                           \
    {                                                                                           \
        const UT sign = (UT)((UT)1u << ((W) - 1));                                              \
        const UT flip = (UT)(b ^ ((UT)((UT)0u - (UT)(b >> ((W) - 1))) >> 1));                  \
        return (UT)(flip + (UT)(sign - (UT)drtopk_float_frac_mask(t)));                         \
    }                                                                                           \
    DRTOPK_HD UT NAME(UT b, drtopk_dtype t, UT om)                                              \
    {                                                                                           \
        return drtopk_dtype_is_float(t) ? (UT)(NAME##_largest(b, t) ^ om)                       \
                                        : (UT)(KEYFN(b, t, DRTOPK_LARGEST) ^ om);               \
    }                                                                                           \
    DRTOPK_HD void NAME##_range(UT key, drtopk_dtype t, UT om, UT *lo, UT *hi)                  \
    {                                                                                           \
        const UT ones = (UT)~(UT)0u, sign = (UT)((UT)1u << ((W) - 1)), kl = (UT)(key ^ om);     \
        UT l, h;                                                                                \
        if (!drtopk_dtype_is_float(t)) {                                                        \
            *lo = *hi = key;                                                                    \
            return;                                                                             \
        }                                                                                       \
        if (kl == ones) {                 /* every NaN */                                       \
            l = NAME##_largest((UT)(drtopk_float_exp_mask(t) | 1u), t);                         \
            h = ones;                                                                           \
        } else if (kl == sign) {          /* -0.0 and +0.0 */                                   \
            l = NAME##_largest(sign, t);                                                        \
            h = NAME##_largest((UT)0u, t);                                                      \
        } else {                                                                                \
            l = h = NAME##_largest((UT)drtopk_bits_from_key_any(kl, t), t);                     \
        }                                                                                       \
        *lo = om ? (UT)~h : l;                                                                  \
        *hi = om ? (UT)~l : h;                                                                  \
    }
DRTOPK_DEFINE_CMP_WORD(drtopk_cmp16_word, uint16_t, 16, drtopk_key16_from_bits)
DRTOPK_DEFINE_CMP_WORD(drtopk_cmp_word, uint32_t, 32, drtopk_key_from_bits)
DRTOPK_DEFINE_CMP_WORD(drtopk_cmp64_word, uint64_t, 64, drtopk_key64_from_bits)
#undef DRTOPK_DEFINE_CMP_WORD

/* ---- f16 and bf16 <-> float32 bit patterns ------------------------------- */
#define DRTOPK_F32_EXP_BIAS 127
#define DRTOPK_F16_EXP_BIAS 15
#define DRTOPK_F16_FRAC_BITS 10
#define DRTOPK_F32_FRAC_BITS 23
#define DRTOPK_HALF_SHIFT 16           /* bf16 is the upper half of a float32 */
#define DRTOPK_BF16_QUIET 0x0040u      /* bf16's top fraction bit             */

/* The float32 of an f16 (exact: every f16 is a float32). */
DRTOPK_HD uint32_t drtopk_f32_from_f16(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << DRTOPK_HALF_SHIFT;
    uint32_t exp = (h & DRTOPK_F16_EXP_MASK) >> DRTOPK_F16_FRAC_BITS;
    uint32_t frac = h & 0x03FFu;
    const int shift = DRTOPK_F32_FRAC_BITS - DRTOPK_F16_FRAC_BITS;
    if (exp == (DRTOPK_F16_EXP_MASK >> DRTOPK_F16_FRAC_BITS))
        return sign | DRTOPK_F32_EXP_MASK | (frac << shift);           /* inf, NaN */
    if (exp == 0) {
        if (frac == 0) return sign;                                     /* +-0 */
        exp = 1;                                                        /* subnormal: normalise */
        while (!(frac & (1u << DRTOPK_F16_FRAC_BITS))) { frac <<= 1; --exp; }
        frac &= 0x03FFu;
    }
    return sign | ((exp + DRTOPK_F32_EXP_BIAS - DRTOPK_F16_EXP_BIAS) << DRTOPK_F32_FRAC_BITS) | (frac << shift);
}

/* The f16 nearest to a float32 (ties to even; overflow to inf, NaN stays
 * NaN with its sign). */
DRTOPK_HD uint16_t drtopk_f16_from_f32(uint32_t f)
{
    const uint16_t sign = (uint16_t)((f >> DRTOPK_HALF_SHIFT) & 0x8000u);
    const int exp = (int)((f >> DRTOPK_F32_FRAC_BITS) & 0xFFu) - DRTOPK_F32_EXP_BIAS + DRTOPK_F16_EXP_BIAS;
    uint32_t mant = f & DRTOPK_F32_FRAC_MASK;
    const int shift = DRTOPK_F32_FRAC_BITS - DRTOPK_F16_FRAC_BITS;
    if ((f & DRTOPK_F32_EXP_MASK) == DRTOPK_F32_EXP_MASK)
        return (uint16_t)(sign | DRTOPK_F16_EXP_MASK | (mant ? 0x0200u : 0u));
    if (exp >= 0x1F) return (uint16_t)(sign | DRTOPK_F16_EXP_MASK);    /* overflow: inf */
    int drop = shift;                      /* low bits of the 24-bit significand to drop */
    uint32_t e16 = (uint32_t)exp;
    if (exp <= 0) {                        /* subnormal f16 (or 0) */
        if (exp < -DRTOPK_F16_FRAC_BITS) return sign;
        mant |= 1u << DRTOPK_F32_FRAC_BITS;
        drop = shift + 1 - exp;
        e16 = 0;
    }
    {
        const uint32_t half = 1u << (drop - 1), rest = mant & ((1u << drop) - 1u);
        uint32_t m = mant >> drop;
        /* in the normal case m excludes the implicit bit; a carry out of the
         * fraction increments the exponent, as it should */
        uint32_t bits = (e16 << DRTOPK_F16_FRAC_BITS) + m;
        if (rest > half || (rest == half && (m & 1u))) ++bits;
        return (uint16_t)(sign | bits);
    }
}

/* The float32 of a bf16 (exact). */
DRTOPK_HD uint32_t drtopk_f32_from_bf16(uint16_t h) { return (uint32_t)h << DRTOPK_HALF_SHIFT; }

/* The bf16 nearest to a float32 (ties to even; NaN stays NaN). */
DRTOPK_HD uint16_t drtopk_bf16_from_f32(uint32_t f)
{
    if (drtopk_f32_bits_is_nan(f)) return (uint16_t)((f >> DRTOPK_HALF_SHIFT) | DRTOPK_BF16_QUIET);
    return (uint16_t)((f + 0x7FFFu + ((f >> DRTOPK_HALF_SHIFT) & 1u)) >> DRTOPK_HALF_SHIFT);
}
#endif
