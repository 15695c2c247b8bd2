/*
 * onepass_data.h -- inputs built against the one-read top-k's sampled
 * positions (src/lib/onepass_spec.h), shared by its GPU suite
 * (tests/gpu/test_onepass.c), its CPU unit test (tests/unit/
 * test_onepass.c) and the fused suite's spike (test_small_n.c): each forces
 * one side of the fallback, packs the top k in one run of V, puts a
 * plateau of ties at the threshold before the keys above it, or puts the
 * threshold's ties only where the sample looks.  Key i of
 * each is a 32-bit ordered key, a function of (i, n, k); onepass_bits makes
 * it an element of any key type and order.
 */
#ifndef DRTOPK_ONEPASS_DATA_H
#define DRTOPK_ONEPASS_DATA_H
#include <stdint.h>
#include "gen_core.h"
#include "onepass_spec.h"

#define ONEPASS_DATA_SEED 0x0E9A55ull
#define ONEPASS_HIGH_BIT 0x80000000u   /* sampled keys above every other key    */
#define ONEPASS_LOW_MASK 0x3FFFFFFFu   /* the other keys below ONEPASS_HIGH_BIT */
#define ONEPASS_SPIKE_BASE 0x40000000u /* spike: k keys above the rest          */

static inline uint32_t onepass_hash32(uint64_t i) { return (uint32_t)(dh_mix64(i + ONEPASS_DATA_SEED) >> 32); }

/* Is position i one of the sampled ones?  *j = its sample index. */
static inline int onepass_sampled(uint64_t i, uint64_t n, uint64_t *j)
{
    const uint64_t s = drtopk_onepass_sample_len(n);
    uint64_t q = i * s / n;          /* sample_pos is increasing: search from near i S / n */
    if (q > 0) --q;
    for (; q < s && drtopk_onepass_sample_pos(n, s, q) <= i; ++q)
        if (drtopk_onepass_sample_pos(n, s, q) == i) {
            *j = q;
            return 1;
        }
    return 0;
}

/* Threshold too low: the sampled keys are the smallest of V, so every other
 * key passes and the candidate buffer overflows. */
static inline uint32_t onepass_force_low(uint64_t i, uint64_t n, uint64_t k)
{
    uint64_t j;
    (void)k;
    return onepass_sampled(i, n, &j) ? (uint32_t)j : ONEPASS_HIGH_BIT | onepass_hash32(i);
}

/* Threshold too high: the sampled keys are the largest, so only r < k keys
 * of V reach the threshold. */
static inline uint32_t onepass_force_high(uint64_t i, uint64_t n, uint64_t k)
{
    uint64_t j;
    (void)k;
    return onepass_sampled(i, n, &j) ? ONEPASS_HIGH_BIT | (uint32_t)j : onepass_hash32(i) & ONEPASS_LOW_MASK;
}

/* The top k in one run of V (a third of the way in), the rest below. */
static inline uint32_t onepass_spike(uint64_t i, uint64_t n, uint64_t k)
{
    const uint64_t lo = n / 3;
    return i >= lo && i < lo + k ? ONEPASS_SPIKE_BASE | (onepass_hash32(i) & ONEPASS_LOW_MASK)
                                 : onepass_hash32(i) % ONEPASS_SPIKE_BASE;
}

/* A plateau of ties that the pass meets first: V is one key (the class
 * below the spike's) but for its last g keys, which are above it; g is below
 * what the sample sees r of (at most ceil(m + 1/2) sampled, m = kS/n), so t
 * is the plateau's key and the pass counts ties long before the keys above
 * t.  onepass_ties_take: g = k/2 (TAKE: g candidates, k - g ties);
 * onepass_ties_select: g = k + n/(2S) (SELECT: gt > k, within the capacity,
 * for n >= 2S).  Both stay exact only if the ties a pass stops counting
 * (onepass_spec.h step 3) were not needed. */
static inline uint32_t onepass_ties_tail(uint64_t i, uint64_t n, uint64_t g)
{
    return i + g >= n ? ONEPASS_SPIKE_BASE | (onepass_hash32(i) & ONEPASS_LOW_MASK) : 0u;
}

static inline uint32_t onepass_ties_take(uint64_t i, uint64_t n, uint64_t k)
{
    return onepass_ties_tail(i, n, k / 2);
}

static inline uint32_t onepass_ties_select(uint64_t i, uint64_t n, uint64_t k)
{
    return onepass_ties_tail(i, n, k + n / (2 * drtopk_onepass_sample_len(n)));
}

/* Ties where the sample looks, few elsewhere: every sampled position holds
 * one key (ONEPASS_SPIKE_BASE), the other keys are below it but for the
 * last k/2, which are above.  The sample sees t's copies everywhere and
 * expects a chunk thick with them, but a chunk holds only its sampled
 * positions' copies (1 in n/S): a pass that stops looking at ties once its
 * list's ties seem full must find that they are not.  The top k: the k/2
 * keys above and k - k/2 copies of t (k <= S). */
static inline uint32_t onepass_sampled_ties(uint64_t i, uint64_t n, uint64_t k)
{
    uint64_t j;
    if (i + k / 2 >= n) return ONEPASS_HIGH_BIT | onepass_hash32(i);
    return onepass_sampled(i, n, &j) ? ONEPASS_SPIKE_BASE : onepass_hash32(i) & (ONEPASS_SPIKE_BASE - 1);
}

/* The constructions' classes: the top two bits of their 32-bit keys (low,
 * spike, high), which every width keeps. */
#define ONEPASS_CLASS_SHIFT 30
#define ONEPASS_CLASS_BITS 2

/* The element bits of dtype t whose ordered key in order o (keyorder.h) is
 * `key` at t's width w, its order kept where the constructions need it: the
 * class over the key's w - 4 low bits (the key repeated in both halves for
 * w = 64), placed in [2^(w-1) + 1, 2^(w-1) + 2^(w-2)].  For floats that is
 * +denormal .. +2.0 (its complement, for the smallest order, -2.0 ..
 * -denormal): never a NaN, an infinity or a zero, which keyorder.h merges
 * (every NaN one key above +inf, -0.0 = +0.0) -- a key folded into one of
 * them would leave its class.  16-bit keys keep 12 low bits, so up to 8
 * sample keys tie. */
static inline uint64_t onepass_bits(uint32_t key, drtopk_dtype t, drtopk_order o)
{
    const int w = drtopk_dtype_bits(t);
    const int low_bits = w - 2 - ONEPASS_CLASS_BITS;  /* class and low bits span 2^(w-2) keys */
    const uint64_t low = ((uint64_t)key << 32 | key) & ((1ull << low_bits) - 1);
    const uint64_t above_zero = (1ull << (w - 1)) + 1; /* the ordered key just above +0.0's */
    const uint64_t folded = above_zero + ((uint64_t)(key >> ONEPASS_CLASS_SHIFT) << low_bits) + low;
    const uint64_t ones = ~0ull >> (64 - w);
    return drtopk_bits_from_key_any(o == DRTOPK_SMALLEST ? ~folded & ones : folded, t);
}

#endif
