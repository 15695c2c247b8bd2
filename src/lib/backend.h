/*
 * backend.h -- internal interface between the public API (api.c) and the two
 * backends: the CPU reference of the Dr. Top-k pipeline (cpu_ref.c) and the
 * CUDA pipeline (kernels/pipeline.cu, or cuda_stub.c in a --cpu-only build).
 * Library-internal: no program outside src/lib and kernels/ includes it.
 */
#ifndef DRTOPK_BACKEND_H
#define DRTOPK_BACKEND_H
#include "drtopk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the message behind a failed call (errors.c) ------------------------ */
#if defined(__GNUC__)
#define DRTOPK_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DRTOPK_PRINTF(f, a)
#endif
void drtopk_error_set(const char *fmt, ...) DRTOPK_PRINTF(1, 2);
void drtopk_error_clear(void);
/* The CUDA entry points' first step (drtopk.h, "Errors pending before a
 * call"): take(), the runtime's read-and-clear (cudaGetLastError as int, 0 =
 * none), and when an error was pending, DRTOPK_ERR_CUDA with a message naming
 * `entry` and the error (name_of(code)), so that after each launch the
 * runtime's error state holds that launch's error alone.  Pure but for the
 * two callbacks: the unit tests drive it with a runtime of their own. */
drtopk_status drtopk_pending_take(int (*take)(void), const char *(*name_of)(int), const char *entry);
/* The backends' one workspace check: sets the message, returns
 * DRTOPK_ERR_WORKSPACE_TOO_SMALL. */
drtopk_status drtopk_workspace_too_small(const void *ws, size_t have, size_t need);

/* ---- CPU reference backend (cpu_ref.c) -------------------------------- */
drtopk_status drtopk_cpu_workspace(const drtopk_problem *p, const drtopk_plan *plan, size_t *bytes);
drtopk_status drtopk_cpu_select(const drtopk_problem *p, const drtopk_plan *plan,
                                void *ws, size_t ws_bytes, void *out_values,
                                uint64_t *out_indices, drtopk_stats *stats);

/* The standalone radix select of the CPU backend (cpu_radix.c): the exact
 * top-k over host threads, at most key_bits / 16 + 1 reads of V; its
 * workspace holds the candidates and per-thread digit counts, never a copy
 * of V.  sorted: best first, else in position order.  drtopk_cpu_select
 * hands it standalone radix plans. */
size_t drtopk_cpu_radix_workspace(const drtopk_problem *p);
drtopk_status drtopk_cpu_radix_select(const drtopk_problem *p, int sorted, void *ws, size_t ws_bytes,
                                      void *out_values, uint64_t *out_indices, drtopk_stats *stats);

/* The key type, order and backend of a problem are known values (api.c). */
drtopk_status drtopk_check_enums(drtopk_dtype dtype, drtopk_order order, drtopk_backend backend);

/* Batched / segmented top-k of the CPU backend (cpu_batch.c); api entry
 * points in batch.c check the problem first. */
drtopk_status drtopk_cpu_batch_workspace(const drtopk_batch_problem *p, size_t *bytes);
drtopk_status drtopk_cpu_batch_select(const drtopk_batch_problem *p, const drtopk_batch_plan *plan, void *ws,
                                      size_t ws_bytes, void *out_values, uint64_t *out_indices);

/* ---- CUDA backend (kernels/pipeline.cu; cuda_stub.c returns NO_BACKEND) - */
/* The plan's crossovers of dtype t's key width (drtopk_batch_wide_keys). */
static inline uint64_t drtopk_batch_tiny_max_k(const drtopk_batch_plan *plan, drtopk_dtype t)
{
    return drtopk_batch_wide_keys(t) ? plan->tiny_max_k_64 : plan->tiny_max_k;
}
static inline uint64_t drtopk_batch_block_max_len(const drtopk_batch_plan *plan, drtopk_dtype t)
{
    return drtopk_batch_wide_keys(t) ? plan->block_max_len_64 : plan->block_max_len;
}

/* Batched / segmented top-k on the GPU (kernels/batch_topk.cu).  row_plan:
 * the plan of each uniform row the batch hands to the single top-k, resolved
 * by the planner (drtopk_plan_batch_rows, policy.h). */
drtopk_status drtopk_cuda_batch_workspace(const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                                          const drtopk_plan *row_plan, size_t *bytes);
drtopk_status drtopk_cuda_batch_select(const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                                       const drtopk_plan *row_plan, void *ws, size_t ws_bytes, void *out_values,
                                       uint64_t *out_indices, void *stream);
/* Whether the batched select of p sorts its results itself where the plan
 * asks for DRTOPK_SORTED (kernels/batch_topk.cu: k at most what a block
 * sorts, or uniform rows the single top-k takes row by row); else the
 * caller selects unsorted and sorts the slots with drtopk_cuda_batch_sort
 * (kernels/deterministic.cu: each segment best first, equal keys in the
 * select's order, padding last; its workspace at an offset aligned to
 * DRTOPK_DET_WS_ALIGN). */
int drtopk_cuda_batch_sorts_itself(const drtopk_batch_problem *p, const drtopk_batch_plan *plan);
/* Whether the batch selection of p under plan gives, by itself, what
 * DRTOPK_DETERMINISTIC | DRTOPK_SORTED asks: each segment's k_s best
 * (ordered key, position) pairs, best first, padding last (uniform rows of
 * the tiny select); such a selection needs no fix-up (batch.c). */
int drtopk_cuda_batch_settles(const drtopk_batch_problem *p, const drtopk_batch_plan *plan);
drtopk_status drtopk_cuda_batch_sort_workspace(const drtopk_batch_problem *p, size_t *bytes);
drtopk_status drtopk_cuda_batch_sort(const drtopk_batch_problem *p, void *ws, size_t ws_bytes, void *out_values,
                                     uint64_t *out_indices, void *stream);
/* DRTOPK_DETERMINISTIC for batched rows and segments (kernels/deterministic.cu):
 * after an unsorted batch selection of p, each segment's ties at its k_s-th
 * key become its smallest positions and, with `sorted`, each segment comes
 * best first, equal keys by position, padding last; enqueued on `stream`,
 * its workspace at an offset of the caller's aligned to DRTOPK_DET_WS_ALIGN. */
drtopk_status drtopk_cuda_det_batch_workspace(const drtopk_batch_problem *p, int sorted, size_t *bytes);
drtopk_status drtopk_cuda_det_batch_fix(const drtopk_batch_problem *p, int sorted, void *ws, size_t ws_bytes,
                                        void *out_values, uint64_t *out_indices, void *stream);

drtopk_status drtopk_cuda_workspace(const drtopk_problem *p, const drtopk_plan *plan, size_t *bytes);
/* DRTOPK_DETERMINISTIC on the CUDA backend (kernels/deterministic.cu), in
 * two calls on `stream` around an unsorted selection of p into out_values /
 * out_indices: _begin clears the fix-up's state and gives the flag the
 * selection may set (*d_settled: drtopk_cuda_select_settled); _fix then
 * makes the ties at the k-th key the ones of smallest position unless the
 * flag is set, and with `sorted` orders the k best first, equal keys by
 * position.  Its workspace starts at an offset of the caller's aligned to
 * DRTOPK_DET_WS_ALIGN.  With ms non-NULL _fix waits for itself and stores
 * its GPU time there. */
#define DRTOPK_DET_WS_ALIGN 256
drtopk_status drtopk_cuda_det_workspace(const drtopk_problem *p, int sorted, size_t *bytes);
drtopk_status drtopk_cuda_det_begin(const drtopk_problem *p, int sorted, void *ws, size_t ws_bytes, void *stream,
                                    int **d_settled);
drtopk_status drtopk_cuda_det_fix(const drtopk_problem *p, int sorted, void *ws, size_t ws_bytes, void *out_values,
                                  uint64_t *out_indices, void *stream, float *ms);
drtopk_status drtopk_cuda_select(const drtopk_problem *p, const drtopk_plan *plan,
                                 void *ws, size_t ws_bytes, void *out_values,
                                 uint64_t *out_indices, void *stream, drtopk_stats *stats);
/* drtopk_cuda_select, and with d_settled (a device int, or NULL) set to 1
 * where the plan knows its result to be the k best (key, position) pairs
 * already (standalone onepass or fused, unsorted: kernels.h's
 * topk_input.d_settled);
 * it is left as it is else. */
drtopk_status drtopk_cuda_select_settled(const drtopk_problem *p, const drtopk_plan *plan, void *ws,
                                         size_t ws_bytes, void *out_values, uint64_t *out_indices, void *stream,
                                         drtopk_stats *stats, int *d_settled);
/* Whether the CUDA backend can run here (drtopk_backend_available): 1, or 0
 * with *why the reason, a string that lives as long as the process
 * (kernels/device_cache.cu; cuda_stub.c: never). */
int drtopk_cuda_usable(const char **why);
/* DRTOPK_OK when `backend` can run here, else DRTOPK_ERR_NO_BACKEND with the
 * reason in drtopk_last_error (api.c); the last check of every workspace
 * query and select, after the arguments'. */
drtopk_status drtopk_backend_ready(drtopk_backend backend);
/* Whether the fused top-k of n keys of dtype t, k of them, reads V once on
 * the current device (fused_spec.h), in *once (kernels/small_n.cu; the
 * planner asks before it runs fused over a large V: policy.h). */
drtopk_status drtopk_cuda_fused_reads_once(drtopk_dtype t, uint64_t n, uint64_t k, int *once);
#define DRTOPK_GPU_NAME_LEN 256     /* cudaDeviceProp::name */
/* The current device's name (kernels/gpu_name.cu), which picks the tuning
 * table compiled into the library (tuning_builtin.c). */
drtopk_status drtopk_cuda_gpu_name(char *name, size_t len);

#ifdef __cplusplus
}
#endif
#endif
