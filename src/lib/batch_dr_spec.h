/*
 * batch_dr_spec.h -- the sizes of the Dr. Top-k pipeline for long variable
 * segments of a batched call (kernels/batch_dr.cuh; paper sections 4-5,
 * issue 16): alpha, which segments take it, and the workspace bounds from
 * the total length and the segment count only (the host never reads the
 * offsets).  C11 host code and CUDA device code (hd.h), so the binning
 * kernel and drtopk_batch_workspace decide with the same lines and the unit
 * tests check the bounds against segment lengths.
 */
#ifndef DRTOPK_BATCH_DR_SPEC_H
#define DRTOPK_BATCH_DR_SPEC_H

#include "pipeline_spec.h"

#define DRTOPK_BATCH_DR_RATIO 16        /* a segment holds at least 16 k_s 2^alpha keys: candidates <= 1/16 */
#define DRTOPK_BATCH_DR_ALPHA_MIN 5     /* a subrange is at least a warp's 32 keys */
#define DRTOPK_BATCH_DR_ALPHA_MAX 10    /* and at most 1024: k subranges of it re-read */

/* alpha: the largest with 16 k 2^alpha <= dr_min_len, within [5, 10]. */
DRTOPK_HD int drtopk_batch_dr_alpha(uint64_t dr_min_len, uint64_t k)
{
    int alpha = DRTOPK_BATCH_DR_ALPHA_MIN;
    while (alpha < DRTOPK_BATCH_DR_ALPHA_MAX && dr_min_len / DRTOPK_BATCH_DR_RATIO >> (alpha + 1) >= k) ++alpha;
    return alpha;
}

/* Whether a segment of len keys and k_s = ks runs the pipeline: longer than
 * dr_min_len (0: off) and at least 16 ks 2^alpha keys. */
DRTOPK_HD int drtopk_batch_dr_takes(uint64_t len, uint64_t ks, uint64_t dr_min_len, int alpha)
{
    return dr_min_len != 0 && len > dr_min_len && ks != 0 && len / DRTOPK_BATCH_DR_RATIO >> alpha >= ks;
}

/* Its delegates (one per subrange) and at most its candidates (k_s whole subranges). */
DRTOPK_HD uint64_t drtopk_batch_dr_delegates(uint64_t len, int alpha) { return drtopk_subrange_count(len, alpha); }
DRTOPK_HD uint64_t drtopk_batch_dr_candidates(uint64_t ks, int alpha) { return ks << alpha; }

/* Bounds over all segments of a call of `total` keys in `segments` segments:
 * how many take the pipeline (longer than dr_min_len), their delegates (sum
 * of ceil(len / 2^alpha)) and candidates (sum of k_s 2^alpha <= len / 16). */
DRTOPK_HD uint64_t drtopk_batch_dr_max_segments(uint64_t total, uint64_t segments, uint64_t dr_min_len)
{
    return dr_min_len == 0 ? 0 : drtopk_spec_min(segments, total / (dr_min_len + 1));
}
DRTOPK_HD uint64_t drtopk_batch_dr_delegate_cap(uint64_t total, uint64_t max_segments, int alpha)
{
    return (total >> alpha) + max_segments;
}
DRTOPK_HD uint64_t drtopk_batch_dr_candidate_cap(uint64_t total) { return total / DRTOPK_BATCH_DR_RATIO; }

#endif
