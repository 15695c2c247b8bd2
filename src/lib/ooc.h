/*
 * ooc.h -- out-of-core Dr. Top-k (paper section 5.4, Table 2): the top k of
 * a slice of V that lies in host memory, streamed to the backend in
 * sub-vectors of `cap` elements.  On the GPU the sub-vectors come from pinned
 * host memory with double buffering (a copy stream and a compute stream, two
 * device buffers), so the copy of sub-vector j + 1 overlaps the top-k of
 * sub-vector j.  The running top-k is carried from sub-vector to sub-vector,
 * and (beyond the paper) its k-th value filters later sub-vectors on the
 * device before anything else reads them: only elements strictly better than
 * it can still enter the result.  The CPU backend runs the same loop with
 * host copies (so CI tests it).  Every key width of the library (16, 32 and
 * 64 bits).
 *
 * A module of the library, internal (not in drtopk.h, hidden symbols): it
 * calls only the public API, so the programs that use it link its archive
 * (build/lib/modules_$backend.a, build.ninja) beside libdrtopk.so.
 */
#ifndef DRTOPK_OOC_H
#define DRTOPK_OOC_H
#include <stddef.h>
#include <stdint.h>
#include "drtopk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    drtopk_backend backend;
    drtopk_dtype dtype;
    drtopk_order order;
    const void *host_v;         /* the slice in host memory (drtopk_ooc_host_alloc) */
    uint64_t n;                 /* its length                                      */
    uint64_t first;             /* global position of host_v[0]                    */
    uint64_t k;                 /* 1 <= k <= n                                     */
    uint64_t cap;               /* sub-vector length, >= 1                          */
    const drtopk_plan *plan;    /* for each sub-vector's top-k                     */
} drtopk_ooc_args;

typedef struct {
    uint64_t chunks;            /* sub-vectors streamed                             */
    uint64_t filtered;          /* elements the carried k-th value dropped          */
    uint64_t selected_calls;    /* top-k calls made (a sub-vector whose survivors
                                   fit beside the running top-k needs none)        */
    double reload_ms;           /* host-to-device copies (sum; they overlap compute) */
    double compute_ms;          /* filter + top-k + carry (sum)                     */
    double total_ms;            /* wall clock of the whole run                      */
} drtopk_ooc_stats;

/* Host memory for a slice: pinned on the CUDA backend, so copies run async. */
drtopk_status drtopk_ooc_host_alloc(drtopk_backend b, void **p, size_t bytes);
void drtopk_ooc_host_free(drtopk_backend b, void *p);

/* The host-to-device link's bandwidth in GB/s, measured with copies of up to
 * `bytes` of the pinned slice (the reference of the reload rate); 0 on the CPU. */
drtopk_status drtopk_ooc_link_gbps(drtopk_backend b, const void *host_v, size_t bytes, double *gbps);

/* Two phases, so repeated runs reuse the buffers (the first copy into
 * freshly allocated device memory ran at 44 GB/s where later ones ran at the
 * H200 link's 55): drtopk_ooc_create allocates the sub-vector buffers and the
 * candidates for `a` (its slice and plan must outlive the handle);
 * drtopk_ooc_run writes the top k of the slice, out_vals (k raw elements) and
 * out_pos (k global positions), in no particular order, in the backend's
 * memory: device memory on the CUDA backend (the running top k never leaves
 * the GPU), host memory on the CPU. */
typedef struct drtopk_ooc drtopk_ooc;
drtopk_status drtopk_ooc_create(const drtopk_ooc_args *a, drtopk_ooc **out);
drtopk_status drtopk_ooc_run(drtopk_ooc *o, void *out_vals, uint64_t *out_pos, drtopk_ooc_stats *st);
void drtopk_ooc_destroy(drtopk_ooc *o);

#ifdef __cplusplus
}
#endif
#endif
