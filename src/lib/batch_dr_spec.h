/*
 * batch_dr_spec.h -- the sizes of the Dr. Top-k pipeline for long segments
 * of a batched call (kernels/batch_dr.cuh; paper sections 4-5):
 * which segments take it, each one's alpha, and the workspace bounds from
 * the total length, the segment count, dr_min_len and k only (the host never
 * reads the offsets).  C11 host code and CUDA device code (hd.h), so the
 * binning kernel and drtopk_batch_workspace decide with the same lines and
 * the unit tests check the bounds against segment lengths.
 *
 * Subranges lie on a grid of 2^alpha elements counted from the 16-byte
 * boundary at or below the values' address (`phase` elements before element
 * 0), so that a 16-byte load never straddles two subranges: a segment
 * starting at element `start` covers subranges (start + phase) >> alpha to
 * (start + phase + len - 1) >> alpha, its first and last ones partly.
 *
 * The bounds (a segment s of len_s keys and k_s slots that takes the pipeline):
 *   - alpha_s = drtopk_batch_dr_alpha(len_s, k_s) is non-decreasing in
 *     len_s and non-increasing in k_s (each test in its loop is), and a taken
 *     segment has len_s > dr_min_len and k_s <= k, so alpha_s >= alpha_lo =
 *     drtopk_batch_dr_alpha(dr_min_len + 1, k) (at least ALPHA_MIN).
 *   - delegates: floor((a + len - 1) / 2^alpha) - floor(a / 2^alpha) + 1
 *     <= floor((len - 1) / 2^alpha) + 2 <= floor(len_s / 2^alpha_lo) + 2; the
 *     taken segments are disjoint within [0, total) (non-decreasing offsets;
 *     the binning kernel checks every claim against the caps, so other
 *     offsets only lose the pipeline), the floors sum to at most
 *     floor(total / 2^alpha_lo), and at most max_segments take it:
 *     delegate_cap = (total >> alpha_lo) + 2 max_segments.
 *   - candidates: k_s whole subranges, k_s 2^alpha_s <= len_s / 16 (alpha's
 *     second test), so their sum is at most total / 16 = candidate_cap.
 *   - max_segments: segments longer than dr_min_len within total keys, at
 *     most DRTOPK_BATCH_DR_SEGS_MAX (the binning counter's entry field).
 *   - one segment's delegates (the delegate select's grid, not a workspace
 *     bound): alpha(len, k) <= a iff floor(len / k) < R(a) = max(2^(2a+2),
 *     16 2^(a+1)) (the strongest of the loop's tests at a), i.e. len <
 *     R(a) k; with k_s <= k alpha only grows, so a segment of len <= max_len
 *     keys and alpha a has at most ((h_a - 1) >> a) + 2 delegates, h_a =
 *     min(max_len, R(a) k - 1), and the most over a bounds every segment
 *     (not monotone in max_len: 2^24 - 1 keys at k 1024 have alpha 6 and
 *     2^18 + 1 delegates, 2^24 keys alpha 7 and 2^17 + 1).
 */
#ifndef DRTOPK_BATCH_DR_SPEC_H
#define DRTOPK_BATCH_DR_SPEC_H

#include "pipeline_spec.h"

#define DRTOPK_BATCH_DR_RATIO 16        /* a segment holds at least 16 k_s 2^alpha keys: candidates <= 1/16 */
#define DRTOPK_BATCH_DR_ALPHA_MIN 5     /* a subrange is at least a warp's 32 keys */
#define DRTOPK_BATCH_DR_ALPHA_MAX 10    /* and at most 1024: k subranges of it re-read */
#define DRTOPK_BATCH_DR_RULE4_CONST (-1) /* Rule 4's const: alpha = floor(log2 sqrt(len / k_s)), the
                                           delegates and candidates of a segment balanced */
#define DRTOPK_BATCH_DR_SEGS_LOG2 24    /* segments of one call that take it: an entry field of 24 bits */
#define DRTOPK_BATCH_DR_SEGS_MAX (1ull << DRTOPK_BATCH_DR_SEGS_LOG2)
#define DRTOPK_BATCH_DR_VEC_BYTES 16    /* the subrange grid's unit: one 16-byte load */

/* Whether a segment of len keys and k_s = ks runs the pipeline: longer than
 * dr_min_len (0: off) and at least 16 ks 2^ALPHA_MIN keys. */
DRTOPK_HD int drtopk_batch_dr_takes(uint64_t len, uint64_t ks, uint64_t dr_min_len)
{
    return dr_min_len != 0 && len > dr_min_len && ks != 0 &&
           len / DRTOPK_BATCH_DR_RATIO >> DRTOPK_BATCH_DR_ALPHA_MIN >= ks;
}

/* alpha of a segment of len keys and k_s = ks: Rule 4 at const
 * DRTOPK_BATCH_DR_RULE4_CONST, floor(log2 sqrt(len / ks)), where its len /
 * 2^alpha delegates and its ks 2^alpha candidates balance, lowered to what
 * 16 ks 2^alpha <= len allows, within [5, 10] (5 where len / ks < 2^10,
 * where Rule 4 gives at most 4).  Exact, host and device alike
 * (drtopk_rule4_alpha_int): the workspace bounds above hold for every
 * segment's alpha. */
DRTOPK_HD int drtopk_batch_dr_alpha(uint64_t len, uint64_t ks)
{
    if (ks == 0 || len / ks >> (2 * DRTOPK_BATCH_DR_ALPHA_MIN) == 0) return DRTOPK_BATCH_DR_ALPHA_MIN;
    int alpha = drtopk_rule4_alpha_int(len, ks, DRTOPK_BATCH_DR_RULE4_CONST);
    if (alpha > DRTOPK_BATCH_DR_ALPHA_MAX) alpha = DRTOPK_BATCH_DR_ALPHA_MAX;
    while (alpha > DRTOPK_BATCH_DR_ALPHA_MIN && len / ks / DRTOPK_BATCH_DR_RATIO >> alpha == 0) --alpha;
    return alpha;
}

/* The least alpha of any segment a call with this dr_min_len and k takes. */
DRTOPK_HD int drtopk_batch_dr_alpha_floor(uint64_t dr_min_len, uint64_t k)
{
    return drtopk_batch_dr_alpha(dr_min_len + 1, k);
}

/* Elements between the 16-byte boundary at or below `addr` and addr, for
 * elements of es bytes (the subrange grid's origin; es divides 16). */
DRTOPK_HD uint64_t drtopk_batch_dr_phase(uint64_t addr, uint64_t es)
{
    return (addr & (DRTOPK_BATCH_DR_VEC_BYTES - 1)) / es;
}

/* The subranges of a segment of len >= 1 keys starting at grid position u0
 * (its start plus the phase), and at most its candidates (k_s whole subranges). */
DRTOPK_HD uint64_t drtopk_batch_dr_delegates(uint64_t u0, uint64_t len, int alpha)
{
    return ((u0 + len - 1) >> alpha) - (u0 >> alpha) + 1;
}
DRTOPK_HD uint64_t drtopk_batch_dr_candidates(uint64_t ks, int alpha) { return ks << alpha; }

/* Bounds over all segments of a call (the header's comment proves them). */
DRTOPK_HD uint64_t drtopk_batch_dr_max_segments(uint64_t total, uint64_t segments, uint64_t dr_min_len)
{
    if (dr_min_len == 0) return 0;
    return drtopk_spec_min(drtopk_spec_min(segments, total / (dr_min_len + 1)), DRTOPK_BATCH_DR_SEGS_MAX);
}
DRTOPK_HD uint64_t drtopk_batch_dr_delegate_cap(uint64_t total, uint64_t max_segments, uint64_t dr_min_len, uint64_t k)
{
    return (total >> drtopk_batch_dr_alpha_floor(dr_min_len, k)) + 2 * max_segments;
}
DRTOPK_HD uint64_t drtopk_batch_dr_candidate_cap(uint64_t total) { return total / DRTOPK_BATCH_DR_RATIO; }

/* The most delegates one segment of lo..hi keys (1 <= lo) that takes the
 * pipeline (k_s <= k) can have: variable segments lo = dr_min_len + 1, hi =
 * the total; uniform rows lo = hi = their length (the header's last bound;
 * 0 where lo > hi). */
DRTOPK_HD uint64_t drtopk_batch_dr_segment_delegates_max(uint64_t lo, uint64_t hi, uint64_t k)
{
    uint64_t most = 0;
    if (k == 0 || lo == 0 || lo > hi) return 0;
    for (int a = DRTOPK_BATCH_DR_ALPHA_MIN; a <= DRTOPK_BATCH_DR_ALPHA_MAX; ++a) {
        uint64_t h = hi;
        if (a < DRTOPK_BATCH_DR_ALPHA_MAX) {
            const uint64_t r4 = 1ull << (2 * a + 2), r16 = (uint64_t)DRTOPK_BATCH_DR_RATIO << (a + 1);
            const uint64_t r = r4 > r16 ? r4 : r16;
            if (k <= (UINT64_MAX - 1) / r) h = drtopk_spec_min(h, r * k - 1);
        }
        if (h >= lo && ((h - 1) >> a) + 2 > most) most = ((h - 1) >> a) + 2;
    }
    return most;
}

#endif
