/*
 * batch_check.h -- checks a batched / segmented top-k result (drtopk.h,
 * drtopk_batch_select) on the host, segment by segment, with the exact
 * counting check of oracle.h: the first k_s slots of each segment an exact
 * top-k_s of it (best first when sorted), the rest padded with
 * DRTOPK_INDEX_NONE and zero bits.  Used by `drtopk batch --verify`, the unit
 * tests and the GPU suite.  Also the one timed call of a batch that `drtopk
 * batch` and `tuner --batch` share, and the GPU-timed call of one vector
 * that `drtopk run --timing gpu` and the tuner share.
 */
#ifndef DRTOPK_BATCH_CHECK_H
#define DRTOPK_BATCH_CHECK_H
#include "drtopk.h"
#include "oracle.h"
#include "util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* k_s of segment s (drtopk.h: min(ks[s] or k, k, its length)); host pointers. */
uint64_t dh_batch_segment_k(const drtopk_batch_problem *p, uint64_t s, uint64_t *start, uint64_t *len);

/* p: host pointers (values, offsets, ks); values / indices: segments * k slots. */
dh_check_result dh_batch_check(const drtopk_batch_problem *p, int sorted, const void *values,
                               const uint64_t *indices);

/* One timed drtopk_batch_select into *ms.  DRTOPK_TIMING_GPU (CUDA backend
 * only): the call's GPU time, the default stream held until the call is
 * enqueued (device.h dh_dev_time_held; *unprimed is incremented when the
 * hold timed out first, and the time then includes the enqueue).
 * DRTOPK_TIMING_CALL: the host clock around the call and, on the CUDA
 * backend, a device synchronisation.  *enqueue_ms (may be NULL): the host
 * time of the call itself, until it returned (on the CUDA backend: what it
 * costs the host to enqueue the work, the floor of back-to-back calls).
 * The call's status. */
drtopk_status dh_batch_timed(const drtopk_batch_problem *p, const drtopk_batch_plan *plan, void *ws,
                             size_t ws_bytes, void *out_values, uint64_t *out_indices, dh_timing timing,
                             double *ms, double *enqueue_ms, int *unprimed);

/* One drtopk_select without stats (enqueue only), its GPU time in *ms with
 * the default stream held until it is enqueued (device.h dh_dev_time_held:
 * *enqueue_ms, may be NULL, the host time of the call; *primed 0 where the
 * hold timed out first).  The call's status. */
drtopk_status dh_select_held(const drtopk_problem *p, const drtopk_plan *plan, void *ws, size_t ws_bytes,
                             void *out_values, uint64_t *out_indices, double *ms, double *enqueue_ms, int *primed);

#ifdef __cplusplus
}
#endif
#endif
