/*
 * drtopk.h -- public C API of drtopk, an exact top-k library for GPUs built on
 * the delegate-centric method of "Dr. Top-k: Delegate-Centric Top-k on GPUs"
 * (Gaihre et al., SC'21), sections 4 and 5.
 *
 * Usage (CUB style, two phases):
 *   drtopk_problem p = { .backend = DRTOPK_BACKEND_CUDA, .dtype = DRTOPK_U32,
 *                        .order = DRTOPK_LARGEST, .n = n, .k = k, .values = d_v };
 *   drtopk_plan plan;  drtopk_plan_auto(&plan, &p, NULL);
 *   size_t bytes;      drtopk_select_workspace(&p, &plan, &bytes);
 *   ... allocate `bytes` (device memory for CUDA, host memory for CPU) ...
 *   drtopk_select(&p, &plan, ws, bytes, out_values, out_indices, stream, NULL);
 *
 * For the CUDA backend every pointer (input, workspace, outputs) is device
 * memory and the call only enqueues work on `stream` (no host synchronisation
 * unless stats are requested).  For the CPU backend every pointer is host
 * memory and `stream` is ignored.
 *
 * Ordering: keys compare by value.  For every float type (f16, bf16, f32,
 * f64), NaN orders above +inf (all NaNs equal, whatever their sign and
 * payload), and -0.0 equals +0.0.  DRTOPK_SMALLEST selects the k smallest
 * under the same order.  Ties at the k-th value are broken arbitrarily; the
 * multiset of returned values is exact and indices are distinct positions in
 * the input.
 */
#ifndef DRTOPK_H
#define DRTOPK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every public function carries DRTOPK_API: the library is compiled with
 * hidden visibility, so these are the only symbols it exports. */
#if defined(__GNUC__)
#define DRTOPK_API __attribute__((visibility("default")))
#else
#define DRTOPK_API
#endif

#define DRTOPK_VERSION_MAJOR 0
#define DRTOPK_VERSION_MINOR 1

typedef enum {
    DRTOPK_OK = 0,
    DRTOPK_ERR_INVALID_ARGUMENT,   /* NULL pointer, bad enum, bad plan field    */
    DRTOPK_ERR_K_ZERO,             /* k == 0                                    */
    DRTOPK_ERR_K_GT_N,             /* k > n                                     */
    DRTOPK_ERR_N_ZERO,             /* n == 0                                    */
    DRTOPK_ERR_MISALIGNED,         /* a pointer is not aligned for its type     */
    DRTOPK_ERR_WORKSPACE_TOO_SMALL,
    DRTOPK_ERR_UNSUPPORTED,        /* combination not implemented (e.g. algo)  */
    DRTOPK_ERR_OUT_OF_MEMORY,
    DRTOPK_ERR_NO_BACKEND,         /* library built without this backend        */
    DRTOPK_ERR_CUDA,               /* a CUDA runtime call or launch failed      */
    DRTOPK_ERR_IO,                 /* file or database I/O failed               */
    DRTOPK_STATUS_COUNT
} drtopk_status;

/* Key types.  Values are passed in their own width: f16 and bf16 as their
 * 16-bit IEEE binary16 / bfloat16 bit patterns (uint16_t; the library needs no
 * compiler half type, drtopk_f16_from_float and friends convert), the 64-bit
 * types as uint64_t/int64_t/double.  New types are appended (the existing
 * values are ABI). */
typedef enum {
    DRTOPK_U32 = 0, DRTOPK_I32, DRTOPK_F32,
    DRTOPK_F16, DRTOPK_BF16, DRTOPK_U64, DRTOPK_I64, DRTOPK_F64,
    DRTOPK_DTYPE_COUNT
} drtopk_dtype;
typedef enum { DRTOPK_LARGEST = 0, DRTOPK_SMALLEST } drtopk_order;
typedef enum { DRTOPK_BACKEND_CPU = 0, DRTOPK_BACKEND_CUDA } drtopk_backend;

/* Top-k algorithms.  Each one runs standalone (plan without DRTOPK_DELEGATE)
 * or as the first/second top-k of the delegate pipeline, but onepass, which
 * runs standalone only (a tuning entry naming it gives a standalone plan). */
typedef enum {
    DRTOPK_ALGO_RADIX = 0,      /* flag-based in-place radix top-k (paper 5.1)   */
    DRTOPK_ALGO_RADIX_GGKS,     /* GGKS radix, in-place by overwriting (2.2 II)  */
    DRTOPK_ALGO_RADIX_GGKS_OOP, /* GGKS radix, out-of-place candidate copies     */
    DRTOPK_ALGO_BUCKET,         /* GGKS-style bucket top-k, in place (2.2 I)     */
    DRTOPK_ALGO_BUCKET_OOP,     /* bucket top-k, out of place                    */
    DRTOPK_ALGO_BITONIC,        /* Shanbhag et al. bitonic top-k (SIGMOD'18)     */
    DRTOPK_ALGO_SORT_CUB,       /* sort-and-choose with CUB DeviceRadixSort      */
    DRTOPK_ALGO_SORT_THRUST,    /* sort-and-choose with thrust::sort             */
    DRTOPK_ALGO_ONEPASS,        /* one read of V (beyond the paper): a sampled
                                   threshold, one pass writing the candidates,
                                   an exact top-k of them, and a radix select
                                   over V when the guess was wrong; standalone
                                   only (src/lib/onepass_spec.h)              */
    DRTOPK_ALGO_COUNT
} drtopk_algo;

/* Plan flags. */
enum {
    DRTOPK_DELEGATE         = 1u << 0, /* use the delegate pipeline (else standalone) */
    DRTOPK_FILTER           = 1u << 1, /* Rule 2: copy only elements >= k-th delegate */
    DRTOPK_SHARED_DELEGATE  = 1u << 2, /* paper 5.3 shared-memory build for small α   */
    DRTOPK_SKIP_LAST_DIGIT  = 1u << 3, /* first top-k stops one radix digit early     */
    DRTOPK_SORTED           = 1u << 4  /* results ordered best first                  */
};

/* Where the Rule 4 constant (and beta, algorithm) of a plan came from. */
typedef enum {
    DRTOPK_CONST_DEFAULT = 0,   /* the paper's const = 3, beta 2, radix        */
    DRTOPK_CONST_USER,          /* given by the caller (drtopk_plan_rule4)     */
    DRTOPK_CONST_TUNING,        /* the caller's tuning table                   */
    DRTOPK_CONST_BUILTIN        /* the table compiled into the library for
                                   this GPU (generated from measured results) */
} drtopk_const_source;

#define DRTOPK_ALPHA_MIN 1      /* subranges of 2 elements                    */
#define DRTOPK_ALPHA_MAX 24     /* subranges of 16M elements                  */
#define DRTOPK_BETA_MAX  8      /* delegates per subrange kept in registers   */
#define DRTOPK_RULE4_CONST_DEFAULT 3.0
/* Paper 5.3: at or below this alpha a subrange is too short to keep a warp
 * busy, so delegates are built through shared memory: one subrange per
 * thread up to 2^5 elements, 32-element rows per thread merged by shuffles at
 * 2^6 and 2^7 (delegate_build.cu). */
#define DRTOPK_SHARED_DELEGATE_MAX_ALPHA 7

/* Small inputs (issue 15 item 2): on the CUDA backend, a problem of at most
 * 2^DRTOPK_SMALL_N_LOG2 keys that no tuning entry covers gets the standalone
 * radix plan: up to 2^15 keys the flag radix holds V in one block's shared
 * memory and selects in one launch (kernels/radix_topk.cu), where the
 * pipeline takes six or more launches of a few microseconds each.  A tuning
 * table overrides it (the database's catch-all Rule 4 entry starts above it). */
#define DRTOPK_SMALL_N_LOG2 15

typedef struct {
    int alpha;                  /* subrange size is 2^alpha                    */
    int beta;                   /* delegates per subrange (Rule 3)             */
    drtopk_algo first_algo;     /* top-k over the delegate vector              */
    drtopk_algo second_algo;    /* top-k over the concatenated vector, or the
                                   standalone algorithm without DRTOPK_DELEGATE */
    unsigned flags;             /* DRTOPK_* plan flags                         */
    double rule4_const;         /* const used by drtopk_plan_auto              */
    drtopk_const_source const_source;
} drtopk_plan;

typedef struct {
    drtopk_backend backend;
    drtopk_dtype dtype;
    drtopk_order order;
    uint64_t n;                 /* |V|                                          */
    uint64_t k;
    const void *values;         /* V: n elements of dtype                       */
} drtopk_problem;

/* Optional per-stage statistics.  Times are CUDA-event (or host clock for the
 * CPU backend) milliseconds; asking for stats makes the CUDA call synchronise
 * at its end.  Stages that did not run report 0.  DRTOPK_ALGO_ONEPASS reports
 * its own workload in the same fields (equal on both backends): delegate_len
 * the sampled keys S, first_selected the sample rank r of the threshold t,
 * concat_len the keys of V at or above t (what its pass found), and
 * scanned_subranges 1 when it fell back to reading V again, else 0. */
typedef struct {
    double ms_total;
    double ms_delegate;         /* step 1: delegate vector construction        */
    double ms_first;            /* step 2: first top-k                         */
    double ms_concat;           /* step 3: concatenation                       */
    double ms_second;           /* step 4: second top-k (+ result gather)      */
    uint64_t delegate_len;      /* |D|                                          */
    uint64_t first_selected;    /* delegates kept by the first top-k           */
    uint64_t concat_len;        /* concatenated vector length                  */
    uint64_t scanned_subranges; /* subranges read again by concatenation       */
} drtopk_stats;

DRTOPK_API const char *drtopk_status_string(drtopk_status s);
/* What the last failed call on this thread found, in words (which input, which
 * limit of which GPU, which CUDA error), or "" when it said nothing more than
 * its status.  Valid until this thread's next drtopk call. */
DRTOPK_API const char *drtopk_last_error(void);
DRTOPK_API const char *drtopk_dtype_name(drtopk_dtype t);
DRTOPK_API const char *drtopk_algo_name(drtopk_algo a);
/* Parse names as printed by the *_name functions ("u32", "bf16", "radix", ...).  The
 * algorithm parser also accepts "dr-<algo>" and then sets *delegate to 1. */
DRTOPK_API drtopk_status drtopk_dtype_parse(const char *s, drtopk_dtype *out);
DRTOPK_API drtopk_status drtopk_algo_parse(const char *s, drtopk_algo *out, int *delegate);
DRTOPK_API size_t drtopk_dtype_size(drtopk_dtype t);   /* 2, 4 or 8 bytes; 0 if unknown */
/* f16 / bf16 bit patterns to and from float, rounding to nearest even (NaN
 * stays NaN, overflow goes to infinity). */
DRTOPK_API uint16_t drtopk_f16_from_float(float f);
DRTOPK_API float drtopk_f16_to_float(uint16_t h);
DRTOPK_API uint16_t drtopk_bf16_from_float(float f);
DRTOPK_API float drtopk_bf16_to_float(uint16_t h);

/* Rule 4: alpha = round(0.5 * (c + log2 n - log2 k)), clamped to
 * [DRTOPK_ALPHA_MIN, min(DRTOPK_ALPHA_MAX, ceil(log2 n))]. */
DRTOPK_API int drtopk_rule4_alpha(uint64_t n, uint64_t k, double rule4_const);

/* A tuning table: measured plan choices per key type and size range, as the
 * tuner stores them (programs load it from their database and pass it in;
 * the library itself reads no file).  Ranges are inclusive and in
 * floor(log2 n) and floor(log2 k); the first entry that matches wins. */
typedef struct {
    drtopk_dtype dtype;
    int log2n_min, log2n_max;
    int log2k_min, log2k_max;
    drtopk_algo algo;           /* first and second top-k of the pipeline      */
    int beta;                   /* 1 .. DRTOPK_BETA_MAX                         */
    double rule4_const;         /* alpha = drtopk_rule4_alpha(n, k, const)      */
    int shared_build_max_alpha; /* the shared-memory/staged delegate build up to
                                   this alpha, the warp-centric one above (a
                                   per-GPU crossover, paper 5.3); 0: up to
                                   DRTOPK_SHARED_DELEGATE_MAX_ALPHA            */
} drtopk_tuning_entry;

typedef struct {
    const char *gpu_name;       /* the GPU it was measured on (messages only)   */
    const drtopk_tuning_entry *entries;
    size_t count;
} drtopk_tuning;

/* Fill *plan for problem p: the delegate pipeline with Rule 2 filtering,
 * skip-last-digit, the shared-memory delegate build when alpha <= the entry's
 * shared_build_max_alpha (DRTOPK_SHARED_DELEGATE_MAX_ALPHA without an entry),
 * and alpha from Rule 4 with the const,
 * beta and algorithm of the first source that has an entry for (dtype, n, k):
 * `tuning` (may be NULL), else the table compiled into the library for the
 * current GPU's model (CUDA backend; generated by `tuner --emit-table` from
 * the shipped reference results), else (CUDA backend, n <= 2^DRTOPK_SMALL_N_LOG2)
 * the standalone radix plan, else the paper's const DRTOPK_RULE4_CONST_DEFAULT with beta 2
 * and radix.  plan->const_source says which (DEFAULT for the last two).  An invalid entry in `tuning` (bad
 * dtype, algorithm, beta or const) is DRTOPK_ERR_INVALID_ARGUMENT, and
 * drtopk_last_error names the entry.  Reads no file.  64-bit keys (u64, i64,
 * f64) on the CUDA backend get the standalone DRTOPK_ALGO_RADIX plan (a
 * radix select over 64-bit keys): it runs standalone radix and sort-cub for
 * them only, its pipeline holding 32-bit ordered keys (f16 and bf16 run
 * every plan). */
DRTOPK_API drtopk_status drtopk_plan_auto(drtopk_plan *plan, const drtopk_problem *p,
                                          const drtopk_tuning *tuning);

/* The same plan with Rule 4's const given (finite), beta 2 and radix. */
DRTOPK_API drtopk_status drtopk_plan_rule4(drtopk_plan *plan, const drtopk_problem *p,
                                           double rule4_const);

/* Check that a plan is usable for problem p (ranges, algorithm support). */
DRTOPK_API drtopk_status drtopk_plan_check(const drtopk_plan *plan, const drtopk_problem *p);

/* Phase 1: bytes of workspace drtopk_select needs for (p, plan). */
DRTOPK_API drtopk_status drtopk_select_workspace(const drtopk_problem *p, const drtopk_plan *plan,
                                      size_t *bytes);

/* Phase 2: write the top-k values (k elements of p->dtype) and their positions
 * in V (k uint64) to out_values / out_indices.  `stream` is a cudaStream_t for
 * the CUDA backend (NULL = default stream).  `stats` may be NULL. */
DRTOPK_API drtopk_status drtopk_select(const drtopk_problem *p, const drtopk_plan *plan,
                            void *workspace, size_t workspace_bytes,
                            void *out_values, uint64_t *out_indices,
                            void *stream, drtopk_stats *stats);

#ifdef __cplusplus
}
#endif
#endif /* DRTOPK_H */
