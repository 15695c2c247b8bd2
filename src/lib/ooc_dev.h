/*
 * ooc_dev.h -- the device half of out-of-core Dr. Top-k (ooc.h), used by
 * ooc.c's loop only: kernels/ooc.cu in a CUDA build, ooc_stub.c (every call
 * DRTOPK_ERR_NO_BACKEND) in a --cpu-only build.  One context holds the two
 * sub-vector buffers, the candidate vector (running top-k followed by the
 * survivors of the current sub-vector, values and global positions), the
 * carried threshold, the two streams and their events.
 */
#ifndef DRTOPK_OOC_DEV_H
#define DRTOPK_OOC_DEV_H
#include "ooc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ooc_dev ooc_dev;

drtopk_status ooc_dev_host_alloc(void **p, size_t bytes);
void ooc_dev_host_free(void *p);
drtopk_status ooc_dev_create(const drtopk_ooc_args *a, ooc_dev **out);
void ooc_dev_destroy(ooc_dev *d);
/* Enqueue the copy of `len` elements at host `src` into buffer `slot` (0/1)
 * on the copy stream, after the compute stream released that buffer. */
drtopk_status ooc_dev_load(ooc_dev *d, int slot, const void *src, uint64_t len);
/* Append the elements of buffer `slot` (global positions pos0..) to the
 * candidates at `at`: all of them, or (use_thr) those strictly better than
 * the carried threshold.  Waits for the copy; *kept gets how many. */
drtopk_status ooc_dev_filter(ooc_dev *d, int slot, uint64_t len, uint64_t pos0, int use_thr, uint64_t at,
                             uint64_t *kept);
/* Top k of the first m candidates into the first k (m > k). */
drtopk_status ooc_dev_select(ooc_dev *d, uint64_t m);
/* The worst of the first k candidates becomes the carried threshold; then
 * waits for the compute stream and adds this sub-vector's copy and compute
 * times to *reload_ms and *compute_ms. */
drtopk_status ooc_dev_carry(ooc_dev *d, int slot, int threshold, double *reload_ms, double *compute_ms);
/* The link's host-to-device bandwidth: the best of a few timed copies of
 * `bytes` from pinned `src` alone (nothing else running). */
drtopk_status ooc_dev_link_gbps(const void *src, size_t bytes, double *gbps);
/* The first k candidates into device memory vals / pos (compute stream, then
 * synchronised). */
drtopk_status ooc_dev_result(ooc_dev *d, void *vals, uint64_t *pos);

#ifdef __cplusplus
}
#endif
#endif
