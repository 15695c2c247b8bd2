/*
 * bmw.h -- workload counters for Figure 24 (paper section 6.6, against the
 * Block-Max WAND discussion of 4.4): how many elements a BMW-style scan still
 * evaluates one by one, versus Dr. Top-k's workload |D| + |C| (delegate plus
 * concatenated vector) on the same data.  CPU only; counts, no timing.
 */
#ifndef DRTOPK_BMW_H
#define DRTOPK_BMW_H
#include <stdint.h>
#include "drtopk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* BMW-style scan of V (p->values, host memory) in order, blocks of 2^alpha
 * elements with their maxima known up front (BMW's block-max index): a min-heap
 * holds the k best keys seen; once it is full its minimum is the threshold
 * theta, and a block whose maximum is <= theta is skipped whole; otherwise
 * each of its elements is evaluated (compared with theta, pushed if better).
 * *evaluated = elements evaluated, *blocks_skipped = blocks skipped. */
drtopk_status dh_bmw_workload(const drtopk_problem *p, int alpha, uint64_t *evaluated,
                              uint64_t *blocks_skipped);

/* Dr. Top-k's workload for the same problem under `plan` (alpha, beta, and the
 * DRTOPK_FILTER / DRTOPK_SKIP_LAST_DIGIT flags), by the rules of
 * pipeline_spec.h (Rules 1-3 and 4.3's skipped digit) as the CPU reference
 * applies them, but counting instead of copying:
 * *delegate_len = |D|, *concat_len = |C|.  Memory: |D| pairs. */
drtopk_status dh_bmw_drtopk_workload(const drtopk_problem *p, const drtopk_plan *plan,
                                     uint64_t *delegate_len, uint64_t *concat_len);

#ifdef __cplusplus
}
#endif
#endif
