/*
 * pipeline_stages.h -- launchers of the Dr. Top-k stages that are not top-k
 * algorithms (paper 4.1-4.3, 5.1, 5.3): delegate vector construction
 * (delegate_build.cu) and the concatenation under Rules 1-3
 * (concat_filter.cu).  Only pipeline.cu calls them.  Positions are uint32
 * or uint64 as pos64 says (kernels.h); every launcher only enqueues.
 */
#ifndef DRTOPK_PIPELINE_STAGES_H
#define DRTOPK_PIPELINE_STAGES_H
#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const uint32_t *v;              /* raw V (4-byte elements)                  */
    uint64_t n;
    drtopk_dtype dtype;
    drtopk_order order;
    int alpha, beta;
    int shared_build;               /* DRTOPK_SHARED_DELEGATE (used when alpha <= 7) */
    int pos64;
    uint32_t *d_keys;               /* |D| ordered keys                          */
    void *d_pos;                    /* |D| positions in V                        */
} delegate_args;

/* D[s * min(beta, 2^alpha) + j] = the j-th best (key, pos) of subrange s. */
drtopk_status delegate_build(const delegate_args *a, cudaStream_t st);

typedef struct {
    const uint32_t *v;
    uint64_t n;
    drtopk_dtype dtype;
    drtopk_order order;
    int alpha, beta, pos64, filter;
    /* the first top-k's output: selected delegates (count on the device) */
    const uint32_t *sel_keys;
    const void *sel_pos;
    const uint64_t *d_sel_count;
    uint64_t sel_cap;
    const void *d_dpos;             /* D's positions: the best delegate of s is
                                       d_dpos[s * nd_full], the scan trigger    */
    const uint32_t *d_threshold;    /* the first top-k's threshold: t (Rule 2)    */
    /* scratch: zeroed here in one memset; d_scan_count and d_c_count lie
       inside [zero_base, zero_base + zero_bytes) with the counters           */
    void *zero_base;
    size_t zero_bytes;
    uint32_t *d_counters;           /* c(s): one byte per subrange, 4 per word  */
    void *d_scan_list;              /* subrange ids to scan (pos type)          */
    uint64_t scan_cap;
    uint64_t *d_scan_count;
    uint32_t *c_keys;               /* the concatenated vector C                 */
    void *c_pos;
    uint64_t c_cap;
    uint64_t *d_c_count;
    int sm_count;                   /* sizes the persistent grids                */
} concat_args;

/* Rules 1-3 (pipeline_spec.h): C = the selected delegates of the subranges
 * Rule 3 copies + every element with key >= t of those it scans; the scan
 * list and |C| stay on the device. */
drtopk_status concat_filter(const concat_args *a, cudaStream_t st);

#ifdef __cplusplus
}
#endif
#endif
