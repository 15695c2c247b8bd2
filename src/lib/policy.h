/*
 * policy.h -- library-internal: the one home of planning policy (plan.c).
 * Every automatic choice of the library is made here: the plan of one
 * vector (drtopk_plan_auto), of batched rows and segments
 * (drtopk_batch_plan_auto) and of the rows that the batched path hands to
 * the single pipeline; programs (the CLI, the tuner, drtopk-mpi's local step,
 * out-of-core streaming, Python) reach it only through those calls.  Each
 * choice comes from the first source that has one: the caller's tuning
 * table, the table compiled in for this GPU model (tuning_builtin.c), the
 * size rules below (paper section 5.2 for Rule 4; the one-read and fused
 * paths go beyond the paper).  Executors receive a resolved plan and never
 * plan.  Library-internal: no program outside src/lib, kernels/ and the
 * tests includes it.
 */
#ifndef DRTOPK_POLICY_H
#define DRTOPK_POLICY_H
#include "drtopk.h"
#include "tuning.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the size rules of one vector (CUDA backend, no table entry) --------
 * Measured on an H200 from 2^12 to 2^32 keys, u32 f32 f16 u64, UD ND CD,
 * every plan that can run (tuner --compare and --regret; docs/changelog.md,
 * 2026-11-28, "one planner"); each rule takes the plan that wins there over
 * the distributions:
 *   - up to 2^(POLICY_FUSED_LOG2 + 1) - 1 keys: the fused top-k
 *     (kernels/small_n.cu: one launch, V in shared memory, no gather), 3-7x
 *     faster than the pipeline's six launches there;
 *   - up to 2^(POLICY_FUSED_MOST_LOG2 + 1) - 1 keys, k >= n /
 *     2^POLICY_FUSED_MOST_SHIFT: fused (onepass's candidates would be a
 *     quarter of V or more; at 2^24 keys, k = 2^22, fused 117-132 us against
 *     onepass's 155-180 for u32 UD/ND/CD, 128-164 against 164-178 for f32,
 *     115-129 against 141-168 for f16; at 2^26 keys, k = 2^24, onepass is
 *     the better on most distributions; H200 GPU-71fc051f, commit bc0f7bd);
 *   - 64-bit keys, which have no pipeline plan: fused (up to six digit passes in
 *     one launch; from 2^22 keys one read of V with a sampled threshold) up
 *     to 2^(POLICY_FUSED_64_LOG2 + 1) - 1 keys at any k (3-10x faster than
 *     the radix select, CUB's sort and onepass at most k; 2^23 keys, k =
 *     2^17..2^23: fused on every distribution but CD at k = 2^19..2^20),
 *     up to 2^(POLICY_FUSED_64_MOST_LOG2 + 1) - 1 at k >= n / 2^POLICY_FUSED_64_MOST_SHIFT
 *     and up to 2^(POLICY_FUSED_64_HALF_LOG2 + 1) - 1 at k >= n /
 *     2^POLICY_FUSED_64_HALF_SHIFT, where its passes over V list the
 *     keys left after two (at 2^24 keys, k = 2^20, fused 148 / 129 / 152 us
 *     on UD / ND / CD against onepass's 146 / 121 / 173, H200 GPU-ef566d88,
 *     commit 068e7cd; at 2^26 keys, k = 2^24 = n/4, fused 564 / 480 / 571
 *     against onepass's 482 / 497 / 610: onepass's worst ratio 1.07, fused's
 *     1.17, H200 GPU-a1f7cd2a, commit 0aa29fc, whose wide select reads a
 *     tile's positions with its keys; k >= n/2 there is not measured and
 *     stays fused: onepass's candidates grow with k / n), and where it reads V once
 *     (fused_spec.h: its blocks' lists hold the sampled candidates on this
 *     GPU) up to 2^(POLICY_FUSED_64_ONCE_LOG2 + 1) - 1 at k <=
 *     POLICY_FUSED_64_ONCE_MAX_K (2^24 keys, k = 2^18: 80-87 us against
 *     onepass's 135-162; k = 2^20: 158-181 against 124-177, the same run;
 *     since its lists hold a block's share and 6 standard deviations, not
 *     twice the share, 2^25 keys, k = 2^18 UD: 130 us against 172, 2^26
 *     keys ND: 180 against 240, H200 GPU-8e64e884, commit cf90091)
 *     and up to 2^(POLICY_FUSED_64_WIDE_LOG2 + 1) - 1
 *     at k <= POLICY_FUSED_64_WIDE_MAX_K; onepass elsewhere (at 2^28 keys and
 *     k <= 4096 onepass is 1-5% faster even where fused reads V once: 575-585
 *     us against 581-606 on every distribution; H200, commit 00c6a93).  Where
 *     the lists overflow fused reads V from HBM up to six times: at 2 GB and
 *     more of V 4-7x slower than onepass (H200: 2^29 - 1 keys, k = 1024: 5.67
 *     ms against 1.23; 2^28.75 keys, k = 4096: 7.92 against 1.15), at 512 MB
 *     2-3x (2^26 keys, k = 2^18..2^22), at 128-256 MB 1.1-2.5x (2^24 keys,
 *     k = 2^19..2^21: 190-324 us against 129-230; 2^25 keys, k = 2^18..2^22:
 *     326-609 against 180-391; H200, commit 58adafc);
 *   - 32-bit keys up to 2^(POLICY_FUSED_32_LOG2 + 1) - 1 at k <=
 *     POLICY_FUSED_32_MAX_K, and (integer keys) at k <=
 *     POLICY_FUSED_32_ONCE_WIDE_MAX_K and
 *     up to 2^(POLICY_FUSED_32_WIDE_K_LOG2 + 1) - 1 at k <= n /
 *     2^POLICY_FUSED_32_K_SHIFT where it reads V once: fused, which reads V
 *     once there (a sampled threshold, onepass_spec.h, in the one launch):
 *     1.2-1.6x faster than onepass and the pipeline (2^24 keys, k = 2^20:
 *     u32 85 / 88 / 84 us on UD / ND / CD against 101 / 92 / 109; 2^26 keys,
 *     k = 2^18 UD: 119 against 143; k = 2^19 ND: 144 against 156; H200
 *     GPU-8e64e884, commit cf90091; f32 CD at 2^26 keys, k = 2^18, whose
 *     keys are few values, 140 against 118, where u32 CD is 121 against
 *     125: H200 GPU-3aa46264, commit d970356);
 *   - 16-bit keys up to 2^(POLICY_FUSED_16_LOG2 + 1) - 1 at k <=
 *     POLICY_FUSED_16_MAX_K, and at k <= n / 2^POLICY_FUSED_16_K_SHIFT where
 *     it reads V once: fused, which reads f16/bf16 at their width in two
 *     digit passes (a sampled threshold from 2^22 keys): 1.05-1.7x faster
 *     than onepass at 2^24 keys (k = 2^20: 82 / 85 / 88 us on UD / ND / CD
 *     against 98 / 99 / 79, the worse ratio 1.11 against 1.20; H200
 *     GPU-4c8fd085, commit e250fdf); at 2^26 keys onepass's one read wins
 *     at every k;
 *   - 32-bit keys from 2^POLICY_PIPELINE_MIN_LOG2 keys (float keys from
 *     2^POLICY_PIPELINE_FLOAT_MIN_LOG2) at k <= POLICY_PIPELINE_MAX_K: the
 *     paper's pipeline at Rule 4's const POLICY_PIPELINE_RULE4_CONST, beta 2,
 *     whose delegate vector is all the candidates there: up to 6% faster than
 *     onepass's candidate pass (the paper's const 3 puts 2^28 keys, k = 4 at
 *     2^15-key subranges, 10% slower); f32 at 2^28 keys, k = 1 and 4, it is
 *     slower than onepass on CD in every grid (1.04-1.07: 308 / 306 / 331 us
 *     on CD / ND / UD at k = 1 against 290 / 297 / 301, H200 GPU-634f3898,
 *     commit 7779e98; 300 / 296 / 297 against 285 / 292 / 294 on GPU-4c8fd085,
 *     e250fdf; 305 / 301 / 326 against 286 / 292 / 294 on GPU-171b8036,
 *     134bf47), where onepass is at most 1.024x the pipeline on any of them;
 *     at 2^30 keys and more it is 0.96-1.01x onepass for f32 and u32 alike;
 *   - 32-bit keys past that up to 2^(POLICY_FUSED_32_ONCE_LOG2 + 1) - 1 at
 *     k <= POLICY_FUSED_32_ONCE_MAX_K where fused reads V once on this GPU
 *     (fused_spec.h; the guard 64-bit keys take): u32 and f32 at 2^27 keys,
 *     k = 1..2^14, 3-14% faster than onepass, at 3 * 2^26 within 1.5% but
 *     for u32 ND (3-8% faster), while at 2^28 keys onepass (its fallback one
 *     launch) is 1-4% faster on every distribution but u32 ND at k = 2^14
 *     (H200 GPU-ec326e3f, commit 5b1b308), at 500,000,000
 *     keys (UD, k = 4096) fused is 6% slower, and where its lists overflow
 *     (2^28 keys, k = 2^15..2^16) it takes 2.0-2.2 ms against 0.3;
 *   - everything else: onepass (one read of V at its own width, a sampled
 *     threshold, the candidates' exact top-k), at 2^30 keys up to 1.9x faster
 *     than the pipeline at large k, and 5-14x faster than the radix select
 *     for 16- and 64-bit keys.
 * The CPU backend runs the standalone radix select (cpu_radix.c: host
 * threads, one read of V per 16-bit digit, usually two in all), 10-100x
 * faster there than the paper's pipeline, whose CPU form (cpu_ref.c) sorts
 * every subrange and stays the reference of the GPU's (`--algo dr-*`). */
#define POLICY_FUSED_LOG2 22
#define POLICY_FUSED_MOST_LOG2 24
#define POLICY_FUSED_MOST_SHIFT 2           /* k >= n/4 */
#define POLICY_FUSED_64_LOG2 23
#define POLICY_FUSED_64_ONCE_LOG2 26
#define POLICY_FUSED_64_ONCE_MAX_K 262144
#define POLICY_FUSED_64_MOST_LOG2 25
#define POLICY_FUSED_64_MOST_SHIFT 4        /* k >= n/16: onepass's candidates would be a 16th of V */
#define POLICY_FUSED_64_HALF_LOG2 26
#define POLICY_FUSED_64_HALF_SHIFT 1        /* k >= n/2 */
#define POLICY_FUSED_64_WIDE_LOG2 27
#define POLICY_FUSED_64_WIDE_MAX_K 4096
#define POLICY_FUSED_16_LOG2 24
#define POLICY_FUSED_16_MAX_K 262144
#define POLICY_FUSED_16_K_SHIFT 4           /* k <= n/16 where fused reads V once */
#define POLICY_FUSED_32_LOG2 26
#define POLICY_FUSED_32_MAX_K 65536
#define POLICY_FUSED_32_ONCE_WIDE_MAX_K 524288
#define POLICY_FUSED_32_WIDE_K_LOG2 24
#define POLICY_FUSED_32_K_SHIFT 4
#define POLICY_FUSED_32_ONCE_LOG2 27
#define POLICY_FUSED_32_ONCE_MAX_K 16384
#define POLICY_PIPELINE_MIN_LOG2 27
#define POLICY_PIPELINE_FLOAT_MIN_LOG2 29
#define POLICY_PIPELINE_MAX_K 4
#define POLICY_PIPELINE_RULE4_CONST 5.0
#define POLICY_AUTO_BETA 2          /* paper 4.3, Figure 9: beta = 2 is best */

/* The flags a caller asks of the result (drtopk_plan_auto_flags).  Where
 * the result is deterministic the automatic plan is never the pipeline, from
 * the size rules or a table: its selection keeps no tie in position order,
 * so the fix-up ranks V up to its output's last tie (for one maximum, half
 * of V on average), where onepass settles the ties among its candidates
 * (and fused where it took them all) and reads V once. */
#define POLICY_RESULT_FLAGS (DRTOPK_SORTED | DRTOPK_DETERMINISTIC)

/* ---- the multi-GPU exchange (mgpu.h: drtopk_mgpu_gather_all) ----------
 * Rank 0 gathers every rank's whole local list and selects the k best of
 * them itself when the lists are short: R lists of k then cost less to move
 * than the radix rounds that find the global k-th key, one device histogram
 * and one MPI all-reduce per 8-bit digit (4 x H200, 32-bit keys: 0.11 ms for
 * the four rounds at k = 128, where the whole exchange of the lists took
 * 0.01 ms at an earlier commit).  GPU to GPU (CUDA IPC, about 350 GB/s into
 * rank 0's GPU for the gather of 2^24 keys) the lists may be longer than
 * through MPI and host memory (pinned staging, about 20 GB/s). */
#define POLICY_MGPU_GATHER_ALL_IPC_BYTES (16ull << 20) /* ~50 us over NVLink: less than the 4 rounds of 32-bit keys */
#define POLICY_MGPU_GATHER_ALL_MPI_BYTES (1ull << 20)  /* ~50 us through pinned host memory */

/* ---- the batched path's defaults, where tuner --batch has not measured the
 * GPU.  The staged radix select (one read of a segment into shared memory, a
 * warp or a block per segment) beats the warp queue, which pays a merge per
 * 32 candidates, at every k of the batched workloads, so the queue is off (a
 * plan may still ask for it up to DRTOPK_WARP_K_MAX). */
#define POLICY_BATCH_WARP_MAX_K 0              /* the warp queue off */
#define POLICY_BATCH_WARP_MAX_LEN (1ull << 15) /* where a plan turns it on: one warp streams up to 128 KB of f32 */
#define POLICY_BATCH_BLOCK_MAX_LEN (1ull << 20) /* past 4 MB of f32 a row feeds a whole GPU */
/* Variable segments longer than 2^20 keys (4 MB of f32: past what the 50 MB
 * L2 of an H100 keeps for a few of them, so every pass of the split select
 * reads DRAM) run the Dr. Top-k pipeline: one read of the segment and at most
 * k 2^alpha keys again against 4 reads (32-bit keys; 8 for 64-bit) of the
 * split select (kernels/batch_dr.cuh). */
#define POLICY_BATCH_DR_MIN_LEN (1ull << 20)
#define POLICY_BATCH_TINY_MAX_K 16             /* up to 16 rounds of a warp arg-max beat a radix select */
/* 64-bit keys: the same defaults where no GPU was measured (the H200 shows
 * both crossovers lower for them: tuner --batch sets them per GPU). */
#define POLICY_BATCH_TINY_MAX_K_64 POLICY_BATCH_TINY_MAX_K
#define POLICY_BATCH_BLOCK_MAX_LEN_64 POLICY_BATCH_BLOCK_MAX_LEN
#define POLICY_BATCH_STAGED_MAX_LEN DRTOPK_BATCH_STAGED_MAX_LEN /* stage whatever shared memory holds */
/* Segments longer than a warp's staged select (2^10 keys) run the filter
 * select where it applies (kernels/batch_topk.cu, filter_takes: large k, or
 * past what the staged select holds): one read of the segment and a radix
 * search of a few thousand listed keys in shared memory, where the split
 * select reads a segment once per digit with a grid barrier each and the
 * staged select without its sampled list searches and sorts every staged
 * key.  H200, f32, k = 2048, sorted: 1024 segments of ~128K keys (sparse
 * attention's prefill) 0.553 ms against 4.026; 256 of 4K..128K 0.169
 * against 1.051; 2048 of 16K..64K 0.685 against 2.615. */
#define POLICY_BATCH_FILTER_MIN_LEN (1ull << 10)

/* drtopk_plan_auto_flags with the compiled-in table already chosen: the
 * first entry of `tuning` that matches p, else of `builtin`, else the size
 * rules; the plan carries `flags` (POLICY_RESULT_FLAGS).  Either table may be
 * NULL. */
drtopk_status drtopk_plan_from_tables(drtopk_plan *plan, const drtopk_problem *p, const drtopk_tuning *tuning,
                                      const drtopk_tuning *builtin, unsigned flags);

/* drtopk_batch_plan_auto with the GPU model known: the plan of the first of
 * `count` tables whose gpu_name equals gpu_name, else (gpu_name NULL too) the
 * defaults above.  Returns whether a table matched. */
int drtopk_batch_plan_for_gpu(drtopk_batch_plan *plan, const drtopk_batch_tuning *tables, size_t count,
                              const char *gpu_name);

/* The plan of each row that batched problem p hands to the single top-k (on
 * the CUDA backend, uniform rows longer than the plan's block_max_len that
 * the batched Dr. pipeline does not take): drtopk_plan_auto for one row of
 * p->len keys, sorted when the batch plan asks for sorted output.  Any other
 * problem gets a zeroed plan, which no executor reads. */
drtopk_status drtopk_plan_batch_rows(drtopk_plan *row, const drtopk_batch_problem *p,
                                     const drtopk_batch_plan *plan);

/* The checks every plan passes before it runs (api.c): known flags and
 * algorithms, alpha and beta in range for the pipeline, standalone-only
 * algorithms outside it.  Sets drtopk_last_error. */
drtopk_status drtopk_plan_valid(const drtopk_plan *plan);

/* n, k of problem p are a valid top-k (n > 0, 0 < k <= n); sets
 * drtopk_last_error (api.c). */
drtopk_status drtopk_check_sizes(const drtopk_problem *p);

/* Algorithms that read V themselves: no first or second top-k of the pipeline. */
static inline int drtopk_algo_standalone_only(drtopk_algo a)
{
    return a == DRTOPK_ALGO_ONEPASS || a == DRTOPK_ALGO_FUSED;
}

#ifdef __cplusplus
}
#endif
#endif
