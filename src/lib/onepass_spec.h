/*
 * onepass_spec.h -- the one specification of the one-read top-k
 * (DRTOPK_ALGO_ONEPASS; beyond the paper, whose pipeline of
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
 *     buffer of k slots, the count eq goes on past k).  Ties are needed only
 *     until gt + eq reaches k, so a pass may stop counting them once its
 *     counts so far sum to k (both only grow: then the final gt + eq >= k,
 *     and the tie slots below k - gt, all it takes, are filled); a V with
 *     millions of copies of t (16-bit keys, clustered data) then stops paying
 *     for each of them.  Its workload, drtopk_onepass_kept(gt, eq, k), is the
 *     same whichever tie it stopped at.  (A deterministic result on the CUDA
 *     backend lists every tie where drtopk_onepass_lists_ties says so, to
 *     pick those of smallest position among them on a TAKE:
 *     kernels/onepass.cu, step 9; the decisions stay these.);
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
 * Bytes moved (w-byte keys of V: 2, 4 or 8, read at that width; c-byte
 * candidate keys: 4 for 2- and 4-byte V, 8 for 8-byte V; P-byte positions:
 * 4, or 8 when n > 2^32):
 *   sample        S x 32 (one sector per strided key) + S (c + 4) written and
 *                 its select (the flag radix in one block's shared memory for
 *                 c = 4; the wide radix select's passes over S keys for c = 8);
 *   pass          w n read (the one read of V) + about gt (c + P) + min(eq, k) P
 *                 written, with gt + eq ~ k r / m, in slot order (each warp
 *                 stages its outputs in shared memory, 2 bytes a key, and
 *                 writes them coalesced a tile later); a candidate's key
 *                 comes from the warp's loads kept in shared memory (16
 *                 bytes a load, in tiles with an output), for 2-byte keys
 *                 from V again (a sector of L1 or L2, read a tile before);
 *   select        the flag radix over gt candidates: about 2 reads of
 *                 (c + P) gt (radix_topk.cu's compaction), k (c + P) written;
 *                 its first digit's histogram counted by the pass (in shared
 *                 memory, as the candidates are written), not by a read;
 *                 for c = 8 the wide radix select: a read of 8 gt a digit
 *                 (the first also takes the keys' AND and OR; a digit every
 *                 key shares costs no read) until the keys matching the
 *                 digits picked are at most gt / 16 (spread keys: 3 reads),
 *                 which that pass lists and the passes left read, then the
 *                 collect's read of 8 gt and of P gt (keys differing in
 *                 every digit but too many to list: up to 9 reads of 8 gt);
 *   take          k (c + P) read, and k (c + P) written or, unsorted, the
 *                 result's k (w + 8) (instead of select);
 *   fallback      a radix select over V: about 2 more reads of w n (flag
 *                 radix, w = 4), w/8 + 1 more (wide select, w = 2 or 8);
 *   values        (unsorted: onepass_topk_final) k (w + 8) written (values
 *                 by the inverse of the ordered key, keyorder.h; V is read
 *                 only at keys several bit patterns share: NaN, -0.0 and
 *                 +0.0): on a TAKE, and on a SELECT without the
 *                 deterministic step (c = 8: where the wide select's
 *                 collect is its multi-block one), by that step's own
 *                 output writes instead of its k (c + P); else by a pass
 *                 that reads the k (c + P) back in order;
 *                 sorted, the caller's gather instead: k P read, k random
 *                 sectors of V (32 bytes each), k (w + 8) written.
 * At n = 2^30 (u32, P = 4; S = 2^15, so m = k / 2^15; unsorted):
 *   k = 2^22: m = 128, r = 175, gt + eq ~ 1.37 k = 5.7 M, cap = 1.79 k;
 *             candidates 46 MB written, select ~92 MB read + 50 MB of
 *             values written: about 0.19 GB beside the 4 GiB of V (4%);
 *   k = 2^24: m = 512, r = 604, gt + eq ~ 1.18 k = 19.8 M, cap = 1.37 k;
 *             candidates 158 MB, select ~317 MB + 201 MB of values: about
 *             0.68 GB beside V (16%).
 * On an H100 (3.0 TB/s streamed) those bytes explain ~0.06 ms at 2^22 and
 * ~0.23 ms at 2^24.  A profile (a62c66a, before the values came from the
 * keys) showed where the rest went: the gather's random sectors (0.49 ms at
 * 2^24), the select's compaction pass writing 16 M outputs with a run of
 * slots per thread (32 sectors a store: 0.5 ms; now warp-ordered,
 * stream_tile.cuh) and the pass's per-candidate emit walk once most warp
 * tiles hold a candidate (2% of V at 2^24: 2.4 ms for the pass against 1.5
 * at 2^20; now one hardware compare a key, classes only for loads where a
 * key reaches t (for every load where most warps' loads hold a candidate:
 * onepass.cu's op_dense), and staged coalesced writes:
 * radix_for_each_staged).  At
 * 2^24 the pass writes 158 MB of candidates (0.05 ms of DRAM); re-reading
 * each candidate's key from V (19.8 M sectors of L2) cost 0.21 ms of its
 * 1.39 ms on an H200 (the L2 round trip held each warp's next tile back)
 * until the loads were kept in shared memory.  The largest byte terms left
 * are the sample's slack (gt - k ~ 4 sqrt(k n / S) keys: 1.5 M at 2^22,
 * 3.0 M at 2^24; S = 2^16 and 2^18 there would cut gt + eq to 1.25 k and
 * 1.06 k, at the price of a multi-block sample select).
 * 8-byte keys double the candidate and select terms and read V twice as
 * long; 2-byte keys halve the read of V and keep 4-byte candidates.
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
DRTOPK_HD uint64_t drtopk_onepass_rank(uint64_t n, uint64_t k, uint64_t s)
{
    if (s >= n) return k;
    const double m = (double)k * (double)s / (double)n;
    const double r = ceil(m + DRTOPK_ONEPASS_MARGIN_SD * sqrt(m)) + 1.0;
    return r >= (double)s ? s : (uint64_t)r;
}

/* Candidate slots: about n / S per sampled key at or above t, with the same
 * margin, at least k (TAKE stores up to k - 1 candidates; SELECT needs k) and
 * at most n. */
DRTOPK_HD uint64_t drtopk_onepass_capacity(uint64_t n, uint64_t k, uint64_t s, uint64_t r)
{
    if (r >= s) return n;
    const double c = ceil(((double)r + DRTOPK_ONEPASS_MARGIN_SD * sqrt((double)r) + 1.0) * ((double)n / (double)s));
    const uint64_t cap = c >= (double)n ? n : (uint64_t)c;
    return cap < k ? k : cap;
}

/* The keys step 3 keeps that step 4 may use, as drtopk_stats reports them:
 * every key > t and the ties up to k in all (an eq counted only until
 * gt + eq reached k gives the same number as every tie counted). */
DRTOPK_HD uint64_t drtopk_onepass_kept(uint64_t gt, uint64_t eq, uint64_t k)
{
    const uint64_t ties = gt < k ? k - gt : 0;
    return gt + (eq < ties ? eq : ties);
}

DRTOPK_HD drtopk_onepass_mode drtopk_onepass_decide(uint64_t gt, uint64_t eq, uint64_t k, uint64_t cap)
{
    if (gt > cap || gt + eq < k) return DRTOPK_ONEPASS_FALLBACK;
    return gt >= k ? DRTOPK_ONEPASS_SELECT : DRTOPK_ONEPASS_TAKE;
}

/* A deterministic result on the CUDA backend (kernels/onepass.cu,
 * onepass_list_kernel): whether step 3 lists every key equal to t, so that
 * a TAKE takes its m ties of smallest position from the list instead of
 * deterministic.cu reading V up to the m-th of the E ties, a fraction m / E
 * of V.  Given a and b, the sampled keys above and equal to t, gt ~ a n / S
 * and E ~ b n / S, so m / E ~ (kS/n - a) / b (negative for a SELECT, gt >=
 * k): lists where that is at least DRTOPK_ONEPASS_LIST_FRACTION and the E
 * ties fit the list's list_cap slots. */
#define DRTOPK_ONEPASS_LIST_FRACTION (1.0 / 32) /* the fix-up ranked V at ~2.6 TB/s (2^30 f16: 200 us for a
                                                   quarter, H200): 1/32 of it costs what the list does */
DRTOPK_HD int drtopk_onepass_lists_ties(uint64_t n, uint64_t k, uint64_t s, uint64_t a, uint64_t b,
                                        uint64_t list_cap)
{
    const double m_s = (double)k * (double)s / (double)n, n_per_s = (double)n / (double)s;
    return m_s - (double)a >= DRTOPK_ONEPASS_LIST_FRACTION * (double)b && (double)b * n_per_s <= (double)list_cap;
}

#endif
