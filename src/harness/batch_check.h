/*
 * batch_check.h -- checks a batched / segmented top-k result (drtopk.h,
 * drtopk_batch_select) on the host, segment by segment, with the exact
 * counting check of oracle.h: the first k_s slots of each segment an exact
 * top-k_s of it (best first when sorted), the rest padded with
 * DRTOPK_INDEX_NONE and zero bits.  Used by `drtopk batch --verify`, the unit
 * tests and the GPU suite.
 */
#ifndef DRTOPK_BATCH_CHECK_H
#define DRTOPK_BATCH_CHECK_H
#include "drtopk.h"
#include "oracle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* k_s of segment s (drtopk.h: min(ks[s] or k, k, its length)); host pointers. */
uint64_t drtopk_batch_segment_k(const drtopk_batch_problem *p, uint64_t s, uint64_t *start, uint64_t *len);

/* p: host pointers (values, offsets, ks); values / indices: segments * k slots. */
drtopk_check_result drtopk_batch_check(const drtopk_batch_problem *p, int sorted, const void *values,
                                       const uint64_t *indices);

#ifdef __cplusplus
}
#endif
#endif
