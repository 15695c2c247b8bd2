/*
 * onepass_spec.h -- the one specification of the one-read top-k
 * (DRTOPK_ALGO_ONEPASS, issue 15 item 1; beyond the paper, whose pipeline of
 * sections 4-5 reads V about three times at large k).  The CUDA executor
 * (kernels/onepass.cu) and the CPU reference (cpu_ref.c) take every decision
 * with these lines, so both backends sample the same positions, pick the same
 * threshold, count the same candidates and fall back on the same inputs.
 *
 * Steps (V holds n keys; keys are ordered keys, keyorder.h, larger is better):
 *  1. sample: S = drtopk_onepass_sample_len(n) keys of V at the evenly strided
 *     positions drtopk_onepass_sample_pos(n, S, j), j < S (the first at 0);
 *  2. threshold: t = the r-th largest sampled key, r = drtopk_onepass_rank(n,
 *     k, S): the sample's expected count at or above v_k (the k-th largest key
 *     of V), m = kS/n, plus DRTOPK_ONEPASS_MARGIN_SD standard deviations
 *     (about sqrt(m)), so that about k r/m elements of V pass;
 *  3. one streaming pass over V: every key > t is a candidate (key and
 *     position into a buffer of cap = drtopk_onepass_capacity(...) slots, the
 *     count gt goes on past cap), every key == t a tie (its position into a
 *     buffer of k slots, the count eq goes on past k);
 *  4. drtopk_onepass_decide(gt, eq, k, cap):
 *       SELECT    gt >= k and gt <= cap: the exact top-k of the gt candidates;
 *       TAKE      gt < k <= gt + eq: every candidate and k - gt ties;
 *       FALLBACK  gt > cap (t too low: the buffer overflowed) or gt + eq < k
 *                 (t too high: too few passed): the standalone radix select
 *                 over V (a second and third read; rare by the margin).
 *
 * Why the answer is exact.  SELECT: k keys exceed t, so v_k > t and every key
 * >= v_k is a candidate, all of them stored (gt <= cap): the top-k of the
 * candidates is a top-k of V.  TAKE: fewer than k keys exceed t and at least
 * k reach it, so v_k = t; the gt < k <= cap candidates are stored, and of the
 * eq ties the first min(eq, k) >= k - gt are.  Ties and NaN need nothing
 * special: an all-equal V has gt = 0, eq = n (TAKE); NaN and -0.0 / +0.0 are
 * ordered keys like any other.  The r sampled keys >= t are keys of V, so
 * gt + eq >= r: when r >= k (always when S = n) t is never too high.
 *
 * Bytes moved (4-byte keys, P-byte positions: 4, or 8 when n > 2^32):
 *   sample        S x 32 (one sector per strided key) + S x 8 written (keys,
 *                 positions) and the radix select of the sample (shared memory);
 *   pass          4n read (the one read of V) + about (gt)(4 + P) + min(eq, k) P
 *                 written, with gt + eq ~ k r / m;
 *   select        the flag radix over gt candidates: about 2 reads of
 *                 (4 + P) gt (radix_topk.cu's compaction), k (4 + P) written;
 *   take          k (4 + P) read and written (instead of select);
 *   fallback      the radix select over V: about 2 more reads of 4n.
 * At n = 2^30, k = 2^24 (u32): 4 GiB + about 0.3 GiB, versus about 3 x 4 GiB
 * for the delegate pipeline there.
 */
#ifndef DRTOPK_ONEPASS_SPEC_H
#define DRTOPK_ONEPASS_SPEC_H
#include <math.h>
#include <stdint.h>
#include "hd.h"

/* Sampled keys: the largest sample the flag radix selects in one block, in
 * shared memory (radix_topk.cu's RADIX_SMALL_N, 2^15 keys = 128 KB), so the
 * threshold costs one launch; its relative error at k/n is ~1/sqrt(kS/n). */
#define DRTOPK_ONEPASS_SAMPLE 32768u
/* The margin of the sample rank and of the capacity, in standard deviations
 * of a binomial count: a random-order V falls back with probability ~3e-5
 * per side; adversarial orders fall back and stay exact. */
#define DRTOPK_ONEPASS_MARGIN_SD 4.0

/* What step 4 decides (both backends report it in drtopk_stats). */
typedef enum {
    DRTOPK_ONEPASS_SELECT = 0,
    DRTOPK_ONEPASS_TAKE,
    DRTOPK_ONEPASS_FALLBACK
} drtopk_onepass_mode;

DRTOPK_HD uint64_t drtopk_onepass_sample_len(uint64_t n)
{
    return n < DRTOPK_ONEPASS_SAMPLE ? n : DRTOPK_ONEPASS_SAMPLE;
}

/* floor(j n / S) without overflow (j < S <= 2^15): the j-th sample position. */
DRTOPK_HD uint64_t drtopk_onepass_sample_pos(uint64_t n, uint64_t s, uint64_t j)
{
    return j * (n / s) + j * (n % s) / s;
}

/* r in 1..S; S = n gives r = k (the sample is V: t = v_k, always TAKE). */
static inline uint64_t drtopk_onepass_rank(uint64_t n, uint64_t k, uint64_t s)
{
    if (s >= n) return k;
    const double m = (double)k * (double)s / (double)n;
    const double r = ceil(m + DRTOPK_ONEPASS_MARGIN_SD * sqrt(m)) + 1.0;
    return r >= (double)s ? s : (uint64_t)r;
}

/* Candidate slots: about n / S per sampled key at or above t, with the same
 * margin, at least k (TAKE stores up to k - 1 candidates; SELECT needs k) and
 * at most n. */
static inline uint64_t drtopk_onepass_capacity(uint64_t n, uint64_t k, uint64_t s, uint64_t r)
{
    if (r >= s) return n;
    const double c = ceil(((double)r + DRTOPK_ONEPASS_MARGIN_SD * sqrt((double)r) + 1.0) * ((double)n / (double)s));
    const uint64_t cap = c >= (double)n ? n : (uint64_t)c;
    return cap < k ? k : cap;
}

DRTOPK_HD drtopk_onepass_mode drtopk_onepass_decide(uint64_t gt, uint64_t eq, uint64_t k, uint64_t cap)
{
    if (gt > cap || gt + eq < k) return DRTOPK_ONEPASS_FALLBACK;
    return gt >= k ? DRTOPK_ONEPASS_SELECT : DRTOPK_ONEPASS_TAKE;
}

#endif
