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
