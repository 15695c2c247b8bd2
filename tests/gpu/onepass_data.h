/*
 * onepass_data.h -- u32 inputs built against the one-read top-k's sampled
 * positions (src/lib/onepass_spec.h), shared by its GPU suite
 * (tests/gpu/test_onepass.c) and its CPU unit test (tests/unit/
 * test_onepass.c): each forces one side of the fallback, or packs the top k
 * in one run of V.  Key i of each is a function of (i, n, k).
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

static inline uint32_t onepass_hash32(uint64_t i) { return (uint32_t)(drtopk_mix64(i + ONEPASS_DATA_SEED) >> 32); }

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

#endif
