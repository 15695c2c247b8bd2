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
 * the input.  With DRTOPK_DETERMINISTIC in the plan's flags the result is the
 * k best (key, position) pairs: ties at the k-th key keep the smallest
 * positions (the same set run to run and on every plan), and with
 * DRTOPK_SORTED equal keys come by smaller position (the same bits).  On the
 * CUDA backend that costs a fix-up after the selection: onepass takes the
 * ties from its candidates where they hold them all (a SELECT) or from the
 * list its pass keeps of them (a TAKE of up to 2^22 ties), else the
 * fix-up reads the input once more, up to the m-th tie of smallest position
 * at most (docs/performance.md has its measured cost); on the CPU backend, one more
 * read after the delegate pipeline, nothing after the other plans, whose
 * ties are the smallest positions already.  Without DRTOPK_SORTED the order
 * stays unspecified (on the GPU it may differ from run to run).
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
 * or as the first/second top-k of the delegate pipeline, but onepass and
 * fused, which run standalone only (a tuning entry naming it gives a standalone plan). */
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
    DRTOPK_ALGO_FUSED,          /* small inputs (beyond the paper): one launch
                                   of a persistent grid, radix passes split by
                                   grid-wide barriers; 32- and 64-bit keys;
                                   standalone only (kernels/small_n.cu)       */
    DRTOPK_ALGO_COUNT
} drtopk_algo;

/* Plan flags. */
enum {
    DRTOPK_DELEGATE         = 1u << 0, /* use the delegate pipeline (else standalone) */
    DRTOPK_FILTER           = 1u << 1, /* Rule 2: copy only elements >= k-th delegate */
    DRTOPK_SHARED_DELEGATE  = 1u << 2, /* paper 5.3 shared-memory build for small α   */
    DRTOPK_SKIP_LAST_DIGIT  = 1u << 3, /* first top-k stops one radix digit early     */
    DRTOPK_SORTED           = 1u << 4, /* results ordered best first                  */
    DRTOPK_DETERMINISTIC    = 1u << 5  /* the k best (key, position) pairs: ties at the
                                          k-th key by smaller position, and with
                                          DRTOPK_SORTED equal keys by smaller position */
};

/* Where the Rule 4 constant (and beta, algorithm) of a plan came from. */
typedef enum {
    DRTOPK_CONST_DEFAULT = 0,   /* the size rules (no table entry), or the
                                   paper's const = 3, beta 2, radix            */
    DRTOPK_CONST_USER,          /* given by the caller (drtopk_plan_rule4)     */
    DRTOPK_CONST_TUNING,        /* the caller's tuning table                   */
    DRTOPK_CONST_BUILTIN,       /* the table compiled into the library for
                                   this GPU (generated from measured results) */
    DRTOPK_CONST_EXPLICIT       /* given as is (drtopk_plan_explicit): alpha,
                                   beta, algorithm and flags, no const      */
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
 * concat_len the keys of V above t plus the ties at t, these counted up to
 * k in all (what its pass kept), and
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
/* Errors pending before a call: drtopk_select and drtopk_batch_select on the
 * CUDA backend first read and clear the CUDA runtime's error state of this
 * host thread (cudaGetLastError).  If an earlier call of the caller left an
 * error there, they enqueue nothing and return DRTOPK_ERR_CUDA, with
 * drtopk_last_error naming that error as pending before the call (a later
 * call runs normally; a sticky error, which cannot be cleared, keeps failing
 * every call).  So every launch's error is its own: a failed launch is
 * reported by the call's status and is not left pending after it. */
/* Whether this library can run selects on `backend` in this process: 1 yes;
 * 0 no, and then *why (when why is not NULL) is a sentence that says why not
 * and what to do (a --cpu-only build, no NVIDIA driver, no GPU visible), valid
 * for the life of the process.  The CPU backend is always available.  The
 * CUDA answer is found once per process (the CUDA runtime's device count).
 * Every call on a backend that is not available fails with
 * DRTOPK_ERR_NO_BACKEND and this reason in drtopk_last_error. */
DRTOPK_API int drtopk_backend_available(drtopk_backend backend, const char **why);
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

/* Rule 4: alpha = round(0.5 * (c + log2 n - log2 k)), halves rounded up
 * (exact for an integer c, such as the paper's 3), clamped to
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
    uint32_t algos_measured;    /* 1u << drtopk_algo for each algorithm the
                                   table's sweep measured (pipeline or
                                   standalone); 0: not recorded, the entries
                                   stand.  An entry does not override the
                                   standalone plan of the untuned rules (fused,
                                   onepass) when this is nonzero and lacks it:
                                   the table never measured that plan */
} drtopk_tuning;

/* Fill *plan for problem p with the fastest plan the library knows for it
 * (the planner, src/lib/plan.c, decides every automatic choice).  The first
 * source that has an entry for (dtype, floor(log2 n), floor(log2 k)) wins:
 * `tuning` (may be NULL; plan->const_source DRTOPK_CONST_TUNING), else the
 * table compiled into the library for the current GPU's model (CUDA backend;
 * generated by `tuner --emit-table` from measured sweeps; DRTOPK_CONST_BUILTIN),
 * else the size rules (DRTOPK_CONST_DEFAULT; their crossovers are the
 * planner's, measured on Hopper GPUs): on the CUDA backend the fused top-k
 * for small inputs (64-bit keys at their own width), the
 * paper's pipeline for large inputs of 32-bit keys at the smallest k, and the
 * one-read onepass top-k for everything else at every key width; on the CPU
 * backend the standalone radix select.  A table entry
 * gives the delegate pipeline (Rule 2 filtering, skip-last-digit, the
 * shared-memory delegate build up to the entry's shared_build_max_alpha,
 * alpha from Rule 4 with the entry's const, its beta and algorithm) or a
 * standalone onepass or fused plan.  A table decides only among the plans its
 * sweep measured: where the size rules give a standalone plan (fused,
 * onepass) that the table's algos_measured is nonzero and lacks, the size
 * rule wins, so a table swept before those plans existed does not keep them
 * from the inputs they win.  64-bit keys on the CUDA backend run standalone
 * onepass, fused, radix (a radix select over 64-bit keys) and sort-cub only:
 * any other entry for them becomes the size rules' plan.  An invalid
 * entry in `tuning` (bad dtype, algorithm, beta or const) is
 * DRTOPK_ERR_INVALID_ARGUMENT, and drtopk_last_error names the entry.  Reads
 * no file. */
DRTOPK_API drtopk_status drtopk_plan_auto(drtopk_plan *plan, const drtopk_problem *p,
                                          const drtopk_tuning *tuning);

/* drtopk_plan_auto for a result asked with `flags`, of DRTOPK_SORTED and
 * DRTOPK_DETERMINISTIC only (any other is DRTOPK_ERR_INVALID_ARGUMENT), which
 * the plan then carries: the fastest plan for that result.  A deterministic
 * result never gets the delegate pipeline (from the size rules or a table
 * entry, whose cell then gets the size rules' plan): its ties need one more
 * read of V up to its output's last tie, where onepass keeps the ties of
 * smallest position among its candidates.  drtopk_plan_auto(plan, p, t) is
 * drtopk_plan_auto_flags(plan, p, t, 0). */
DRTOPK_API drtopk_status drtopk_plan_auto_flags(drtopk_plan *plan, const drtopk_problem *p,
                                                const drtopk_tuning *tuning, unsigned flags);

/* The plan of the size rules alone, the plan drtopk_plan_auto gives with no
 * table at all, not even the one compiled in (const_source
 * DRTOPK_CONST_DEFAULT): what the tuner decides each cell against, so that a
 * sweep's table holds every cell that beats the rules on that GPU, not only
 * those that beat the table compiled in at its commit. */
DRTOPK_API drtopk_status drtopk_plan_size_rules(drtopk_plan *plan, const drtopk_problem *p);

/* The same plan with Rule 4's const given (finite), beta 2 and radix. */
DRTOPK_API drtopk_status drtopk_plan_rule4(drtopk_plan *plan, const drtopk_problem *p,
                                           double rule4_const);

/* An explicit plan, taken as given (the tuner, the figure scripts, a caller
 * that measured its own choice); no table or rule is consulted.  With
 * DRTOPK_DELEGATE in flags: the delegate pipeline over subranges of 2^alpha
 * keys with beta delegates each, `algo` as its first and second top-k and the
 * other flags as given; without it: the standalone `algo`, alpha and beta 0,
 * and of the flags only DRTOPK_SORTED.  rule4_const is the const for which
 * Rule 4 gives alpha at (n, k) (0 for a standalone plan), const_source
 * DRTOPK_CONST_EXPLICIT.  A field out of range is DRTOPK_ERR_INVALID_ARGUMENT
 * and a pipeline stage that runs standalone only DRTOPK_ERR_UNSUPPORTED, each
 * named by drtopk_last_error. */
DRTOPK_API drtopk_status drtopk_plan_explicit(drtopk_plan *plan, const drtopk_problem *p, drtopk_algo algo,
                                              int alpha, int beta, unsigned flags);

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

/* ---- batched and segmented top-k (many rows at once) ----------------------
 *
 * One call selects the top k of every segment of one input array: uniform
 * rows (offsets == NULL: segment s is values[s*len .. (s+1)*len)) or segments
 * given by segments+1 offsets (segment s is values[offsets[s] ..
 * offsets[s+1]), any lengths, 0 included).  Two phases as above:
 *   drtopk_batch_problem p = { .backend = ..., .dtype = DRTOPK_F32, .segments = rows,
 *                              .len = cols, .k = 50, .values = d_x };
 *   drtopk_batch_plan plan;  drtopk_batch_plan_auto(&plan, &p);
 *   size_t bytes;            drtopk_batch_workspace(&p, &plan, &bytes);
 *   drtopk_batch_select(&p, &plan, ws, bytes, out_values, out_indices, stream);
 * For the CUDA backend values, offsets, ks, workspace and outputs are device
 * memory and the call only enqueues work on `stream`: it never reads offsets
 * or ks on the host.  For the CPU backend they are host memory.
 *
 * Output layout: segment s owns slots [s*k, s*k + k) of out_values (elements
 * of dtype) and out_indices (uint64 positions within the segment, 0 = its
 * first element).  Its effective k is
 *     k_s = min(ks ? ks[s] : k, k, length of segment s)
 * (a documented clamp, never an error: a segment shorter than k, an empty
 * segment or ks[s] > k simply fills fewer slots).  Slots [k_s, k) hold
 * DRTOPK_INDEX_NONE and a value of all zero bits.  The k_s results come best
 * first with DRTOPK_SORTED in plan.flags, else in an unspecified order (the
 * CPU backend gives them in increasing position).  Ordering and ties follow
 * the single top-k (NaN above +inf, -0.0 == +0.0); among equal values at the
 * k_s-th place any positions holding that value may be returned (the CPU
 * backend returns the smallest ones).
 *
 * Uniform rows are checked on the host: k > len is DRTOPK_ERR_K_GT_N (use
 * offsets for a clamp).  segments == 0 is a valid call that writes nothing.
 * Offsets must not decrease: the CPU backend reports the first segment whose
 * end is before its start (DRTOPK_ERR_INVALID_ARGUMENT); the CUDA backend
 * does not read offsets on the host and treats such a segment as empty. */
#define DRTOPK_INDEX_NONE UINT64_MAX   /* an output slot past a segment's k_s */

typedef struct {
    drtopk_backend backend;
    drtopk_dtype dtype;
    drtopk_order order;
    uint64_t segments;          /* number of rows / segments                     */
    uint64_t len;               /* uniform rows: elements per row (offsets NULL)  */
    const uint64_t *offsets;    /* segments + 1 offsets into values, or NULL      */
    uint64_t k;                 /* output slots per segment (>= 1)                */
    const uint64_t *ks;         /* per-segment k (each clamped to k), or NULL     */
    const void *values;
    uint64_t total;             /* offsets: elements of values (offsets[segments]),
                                   0 = unknown (the Dr. Top-k pipeline of long
                                   segments sizes its workspace by it; off at 0) */
} drtopk_batch_problem;

/* Which algorithm serves which segment on the CUDA backend (the CPU backend
 * reads only flags).  Uniform rows longer than block_max_len run the Dr.
 * Top-k pipeline: two or more that dr_min_len admits across blocks all at
 * once, else drtopk_select row by row.  Otherwise a segment of at most
 * 256 elements with k_s <= tiny_max_k runs in one warp's registers; one with
 * k_s <= warp_max_k and at most warp_max_len elements runs a per-warp
 * priority queue (WarpSelect style; off in the default plan); the others run
 * a radix select over a copy in shared memory (a warp or a block per
 * segment; uniform rows much longer than k in chunks, then over the chunks'
 * candidates) up to staged_max_len elements or what shared memory holds,
 * and past that a radix select split over many blocks.  Variable segments
 * are binned on the device by log2 length (LRB), each bin launched with its
 * own shape.  With p->total given, a variable segment longer than
 * dr_min_len (0: off) runs the Dr. Top-k pipeline across blocks (delegates
 * of subranges, the k-th delegate, the filtered subranges).  The register
 * select's and the radix selects' crossovers differ with the key width (a
 * 64-bit key takes twice the registers, shuffles and radix passes): keys of
 * 8 bytes (u64, i64, f64) read tiny_max_k_64 and block_max_len_64 instead of
 * tiny_max_k and block_max_len.  Before the radix selects, a segment (or
 * uniform row) of keys of at most 32 bits longer than filter_min_len runs
 * the filter select where its candidates fit a block's shared memory and
 * the staged select would not list its own from a sample (large k): a
 * threshold sampled from the segment, one read that lists every key at or
 * above it, the k_s best of the list found in shared memory; a segment
 * whose threshold lets too many or too few through runs the split radix
 * select. */
typedef struct {
    uint64_t warp_max_k;        /* largest k of the warp queue, 0 (off)..DRTOPK_WARP_K_MAX */
    uint64_t warp_max_len;      /* longest segment a warp selects from          */
    uint64_t block_max_len;     /* longest uniform row of the radix selects      */
    uint64_t tiny_max_k;        /* largest k of the 256-key register select, 0 (off)..DRTOPK_BATCH_TINY_K_MAX */
    uint64_t staged_max_len;    /* longest segment staged in shared memory, 1..DRTOPK_BATCH_STAGED_MAX_LEN */
    uint64_t dr_min_len;        /* variable segments longer than this run the Dr. pipeline; 0: off */
    unsigned flags;             /* DRTOPK_SORTED, DRTOPK_DETERMINISTIC             */
    uint64_t tiny_max_k_64;     /* tiny_max_k of 64-bit keys, 0 (off)..DRTOPK_BATCH_TINY_K_MAX */
    uint64_t block_max_len_64;  /* block_max_len of 64-bit keys                   */
    uint64_t filter_min_len;    /* segments longer than this run the filter select where it
                                   applies (keys of at most 32 bits); 0: off           */
} drtopk_batch_plan;

/* 1 when keys of type t read the plan's _64 crossovers (8-byte keys), else 0. */
DRTOPK_API int drtopk_batch_wide_keys(drtopk_dtype t);

#define DRTOPK_WARP_K_MAX 256   /* a warp queue of 256 (key, position) pairs in shared memory */
#define DRTOPK_BATCH_STAGED_MAX_LEN (1ull << 16) /* the staged select's longest length bin */
#define DRTOPK_BATCH_TINY_K_MAX 32  /* the register select: lane r of a warp keeps round r's winner */

/* The plan for p: on the CUDA backend the crossovers the tuner measured for
 * this GPU model (compiled in: tuner --batch, then --emit-table), else, and
 * on the CPU backend, the built-in defaults; DRTOPK_SORTED off. */
DRTOPK_API drtopk_status drtopk_batch_plan_auto(drtopk_batch_plan *plan, const drtopk_batch_problem *p);
/* Phase 1: workspace bytes (depends on sizes only; values/offsets/ks may be NULL). */
DRTOPK_API drtopk_status drtopk_batch_workspace(const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                                                size_t *bytes);
/* Phase 2: segments * k values and indices (layout above). */
DRTOPK_API drtopk_status drtopk_batch_select(const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                                             void *workspace, size_t workspace_bytes, void *out_values,
                                             uint64_t *out_indices, void *stream);

/* Both phases in one call, for bindings that cache the plan per problem shape:
 * when plan->staged_max_len is 0 (a zeroed plan; no valid plan has it) *plan
 * becomes drtopk_batch_plan_auto's with plan->flags = flags (DRTOPK_SORTED,
 * DRTOPK_DETERMINISTIC) and *workspace_bytes drtopk_batch_workspace's size for it.  Then, with
 * workspace NULL, nothing runs (allocate *workspace_bytes and call again with
 * the filled plan); else drtopk_batch_select runs with that plan and
 * *workspace_bytes bytes of workspace.  flags is read only when planning. */
DRTOPK_API drtopk_status drtopk_batch_topk(const drtopk_batch_problem *p, drtopk_batch_plan *plan, unsigned flags,
                                           void *workspace, size_t *workspace_bytes, void *out_values,
                                           uint64_t *out_indices, void *stream);

#ifdef __cplusplus
}
#endif
#endif /* DRTOPK_H */
