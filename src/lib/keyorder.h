/*
 * keyorder.h -- the order-preserving map from every key type to an unsigned
 * 32-bit "ordered key" where a larger ordered key is a better top-k candidate.
 * All algorithms (CPU reference and kernels) select on ordered keys, which is
 * how one radix/bucket/bitonic code path serves u32, i32, f32, largest and
 * smallest (paper section 5.1 works on unsigned integers).
 *
 * float32: NaN (any payload, any sign) is above +inf; -0.0 equals +0.0.
 */
#ifndef DRTOPK_KEYORDER_H
#define DRTOPK_KEYORDER_H
#include <stdint.h>
#include "hd.h"
#include "drtopk.h"

#define DRTOPK_SIGN_BIT 0x80000000u
#define DRTOPK_F32_EXP_MASK 0x7F800000u
#define DRTOPK_F32_FRAC_MASK 0x007FFFFFu

DRTOPK_HD int drtopk_f32_bits_is_nan(uint32_t b)
{
    return (b & DRTOPK_F32_EXP_MASK) == DRTOPK_F32_EXP_MASK && (b & DRTOPK_F32_FRAC_MASK) != 0;
}

/* Ordered key of raw element bits `b` of type `t` for order `o`. */
DRTOPK_HD uint32_t drtopk_key_from_bits(uint32_t b, drtopk_dtype t, drtopk_order o)
{
    uint32_t key;
    if (t == DRTOPK_U32) {
        key = b;
    } else if (t == DRTOPK_I32) {
        key = b ^ DRTOPK_SIGN_BIT;
    } else if (drtopk_f32_bits_is_nan(b)) {
        key = 0xFFFFFFFFu;           /* every NaN: one key, above +inf */
    } else {
        if (b == DRTOPK_SIGN_BIT) b = 0; /* -0.0 -> +0.0 */
        key = (b & DRTOPK_SIGN_BIT) ? ~b : (b | DRTOPK_SIGN_BIT);
    }
    return o == DRTOPK_SMALLEST ? ~key : key;
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

/* Inverse for the largest order: element bits whose key is `key`.  For f32 it
 * returns the canonical +0.0 and a quiet NaN where several bit patterns share
 * a key.  Used by generators that build data from keys. */
DRTOPK_HD uint32_t drtopk_bits_from_key(uint32_t key, drtopk_dtype t)
{
    if (t == DRTOPK_U32) return key;
    if (t == DRTOPK_I32) return key ^ DRTOPK_SIGN_BIT;
    if (key == 0xFFFFFFFFu) return 0x7FC00000u;
    return (key & DRTOPK_SIGN_BIT) ? (key & ~DRTOPK_SIGN_BIT) : ~key;
}
#endif
