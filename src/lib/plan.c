/*
 * plan.c -- the planner, the one home of planning policy (policy.h): Rule 4's
 * choice of alpha (paper section 5.2), the explicit plan, the automatic plan
 * of one vector from the caller's tuning table, the one compiled in for this
 * GPU model (tuning_builtin.c) or the size rules, the batched plan and the
 * plan of the rows the batched path hands to the single top-k.  Every entry
 * point that can fail clears drtopk_last_error first, and an argument error
 * says which input was wrong.  Reads no file.
 */
#include "drtopk.h"
#include "backend.h"
#include "keyorder.h"
#include "pipeline_spec.h"
#include "policy.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#define RULE4_INT_CONST_MAX 64.0   /* an integer const beyond +-64 puts alpha past any clamp: doubles do */

/* Return status st with the message of a failed call (drtopk_last_error). */
#define FAIL(st, ...) (drtopk_error_set(__VA_ARGS__), (st))

static int ceil_log2_u64(uint64_t x)
{
    int r = 0;
    while (r < 64 && (1ull << r) < x) ++r;
    return r;
}

int drtopk_rule4_alpha(uint64_t n, uint64_t k, double rule4_const)
{
    int hi = ceil_log2_u64(n);
    if (hi > DRTOPK_ALPHA_MAX) hi = DRTOPK_ALPHA_MAX;
    if (hi < DRTOPK_ALPHA_MIN) hi = DRTOPK_ALPHA_MIN;
    if (n == 0 || k == 0 || !isfinite(rule4_const)) return DRTOPK_ALPHA_MIN;
    /* an integer const (the paper's 3) in integers: exact at the ties
     * (pipeline_spec.h); a fitted one has none (its c + log2(n / k) is never
     * an odd integer) */
    double a = rule4_const == floor(rule4_const) && fabs(rule4_const) <= RULE4_INT_CONST_MAX && k <= n
                   ? drtopk_rule4_alpha_int(n, k, (int)rule4_const)
                   : round(0.5 * (rule4_const + log2((double)n) - log2((double)k)));
    if (a < DRTOPK_ALPHA_MIN) return DRTOPK_ALPHA_MIN;
    if (a > hi) return hi;
    return (int)a;
}

/* ---- tuning tables ------------------------------------------------------- */

/* What is wrong with entry i of table t (whose name is `what`), or
 * DRTOPK_OK. */
static drtopk_status entry_check(const drtopk_tuning *t, const char *what, size_t i)
{
    const drtopk_tuning_entry *e = &t->entries[i];
    const char *gpu = t->gpu_name ? t->gpu_name : "unnamed GPU";
    if ((unsigned)e->dtype >= DRTOPK_DTYPE_COUNT)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "%s (%s), entry %zu: dtype = %d is not a drtopk_dtype", what,
                    gpu, i, (int)e->dtype);
    if ((unsigned)e->algo >= DRTOPK_ALGO_COUNT)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "%s (%s), entry %zu: algo = %d is not a drtopk_algo", what,
                    gpu, i, (int)e->algo);
    if (e->beta < 1 || e->beta > DRTOPK_BETA_MAX)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "%s (%s), entry %zu: beta = %d is outside 1..%d", what, gpu,
                    i, e->beta, DRTOPK_BETA_MAX);
    if (!isfinite(e->rule4_const))
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "%s (%s), entry %zu: rule4_const is not finite", what, gpu,
                    i);
    if (e->shared_build_max_alpha < 0 || e->shared_build_max_alpha > DRTOPK_SHARED_DELEGATE_MAX_ALPHA)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "%s (%s), entry %zu: shared_build_max_alpha = %d is outside 0..%d",
                    what, gpu, i, e->shared_build_max_alpha, DRTOPK_SHARED_DELEGATE_MAX_ALPHA);
    return DRTOPK_OK;
}

/* The first entry of t for (dtype, n, k) in *out (NULL when none); an invalid
 * entry before the match is DRTOPK_ERR_INVALID_ARGUMENT. */
static drtopk_status tuning_match(const drtopk_tuning *t, const char *what, const drtopk_problem *p,
                                  const drtopk_tuning_entry **out)
{
    const int ln = drtopk_spec_log2_floor(p->n), lk = drtopk_spec_log2_floor(p->k);
    drtopk_status st;
    *out = NULL;
    if (t == NULL) return DRTOPK_OK;
    if (t->count > 0 && t->entries == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "%s: count = %zu but entries is NULL", what, t->count);
    for (size_t i = 0; i < t->count; ++i) {
        const drtopk_tuning_entry *e = &t->entries[i];
        if ((st = entry_check(t, what, i)) != DRTOPK_OK) return st;
        if (e->dtype == p->dtype && ln >= e->log2n_min && ln <= e->log2n_max && lk >= e->log2k_min &&
            lk <= e->log2k_max) {
            *out = e;
            return DRTOPK_OK;
        }
    }
    return DRTOPK_OK;
}

const drtopk_tuning *drtopk_tuning_for_gpu(const drtopk_tuning *tables, size_t count, const char *gpu_name)
{
    if (tables == NULL || gpu_name == NULL) return NULL;
    for (size_t i = 0; i < count; ++i)
        if (tables[i].gpu_name != NULL && strcmp(tables[i].gpu_name, gpu_name) == 0) return &tables[i];
    return NULL;
}

_Static_assert(DRTOPK_ALGO_COUNT <= 32, "drtopk_tuning.algos_measured holds one bit per drtopk_algo");

/* Whether table t's sweep never measured the standalone plan `untuned` (its
 * entries then do not decide against it; drtopk.h). */
static int unmeasured_standalone(const drtopk_tuning *t, const drtopk_plan *untuned)
{
    return drtopk_algo_standalone_only(untuned->second_algo) && t->algos_measured != 0 &&
           !(t->algos_measured & (UINT32_C(1) << untuned->second_algo));
}

/* ---- plans of one vector ------------------------------------------------- */

/* The plan of algorithm `algo`: standalone for onepass and fused, else the
 * pipeline with Rule 2 filtering, skip-last-digit, alpha from Rule 4 with
 * const c, the shared-memory delegate build up to shared_max_alpha (0: up to
 * DRTOPK_SHARED_DELEGATE_MAX_ALPHA). */
static void plan_fill(drtopk_plan *plan, const drtopk_problem *p, double c, int beta, drtopk_algo algo,
                      int shared_max_alpha, drtopk_const_source src)
{
    if (shared_max_alpha == 0) shared_max_alpha = DRTOPK_SHARED_DELEGATE_MAX_ALPHA;
    memset(plan, 0, sizeof *plan);
    plan->rule4_const = c;
    plan->const_source = src;
    plan->first_algo = plan->second_algo = algo;
    if (drtopk_algo_standalone_only(algo)) return;   /* standalone: no alpha, beta or flags */
    plan->beta = beta;
    plan->alpha = drtopk_rule4_alpha(p->n, p->k, c);
    plan->flags = DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT;
    if (plan->alpha <= shared_max_alpha) plan->flags |= DRTOPK_SHARED_DELEGATE;
}

drtopk_status drtopk_plan_rule4(drtopk_plan *plan, const drtopk_problem *p, double rule4_const)
{
    drtopk_status st;
    drtopk_error_clear();
    if (plan == NULL || p == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_plan_rule4: %s is NULL", plan ? "the problem" : "plan");
    if (!isfinite(rule4_const))
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_plan_rule4: rule4_const is not finite");
    if ((st = drtopk_check_sizes(p)) != DRTOPK_OK) return st;
    plan_fill(plan, p, rule4_const, POLICY_AUTO_BETA, DRTOPK_ALGO_RADIX, 0, DRTOPK_CONST_USER);
    return DRTOPK_OK;
}

drtopk_status drtopk_plan_explicit(drtopk_plan *plan, const drtopk_problem *p, drtopk_algo algo, int alpha,
                                   int beta, unsigned flags)
{
    drtopk_status st;
    drtopk_error_clear();
    if (plan == NULL || p == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_plan_explicit: %s is NULL", plan ? "the problem" : "plan");
    if ((st = drtopk_check_sizes(p)) != DRTOPK_OK) return st;
    if (!(flags & DRTOPK_DELEGATE) &&
        (alpha != 0 || beta != 0 || (flags & ~(unsigned)(DRTOPK_SORTED | DRTOPK_DETERMINISTIC))))
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_plan_explicit: the standalone %s takes alpha = 0, beta = 0 "
                    "and no flag but DRTOPK_SORTED and DRTOPK_DETERMINISTIC (got alpha %d, beta %d, flags 0x%x); "
                    "add DRTOPK_DELEGATE for the pipeline", drtopk_algo_name(algo), alpha, beta, flags);
    memset(plan, 0, sizeof *plan);
    plan->alpha = alpha;
    plan->beta = beta;
    plan->first_algo = plan->second_algo = algo;
    plan->flags = flags;
    plan->const_source = DRTOPK_CONST_EXPLICIT;
    if ((st = drtopk_plan_valid(plan)) != DRTOPK_OK) return st;
    /* Rule 4 inverted: round(0.5 * (c + log2 n - log2 k)) = alpha */
    if (flags & DRTOPK_DELEGATE) plan->rule4_const = 2.0 * alpha - log2((double)p->n) + log2((double)p->k);
    return DRTOPK_OK;
}

/* Whether the fused top-k reads p's V once on the current GPU (its chunks
 * in shared memory, or its sampled candidates within its lists); 1 where
 * the backend cannot tell (no GPU: the select call reports that). */
static int fused_reads_once(const drtopk_problem *p)
{
    int once = 1;
    const char *why;
    if (!drtopk_cuda_usable(&why)) return 1;
    if (drtopk_cuda_fused_reads_once(p->dtype, p->n, p->k, &once) != DRTOPK_OK) {
        drtopk_error_clear();
        return 1;
    }
    return once;
}

/* The size rules of 64-bit keys (policy.h), which run standalone onepass,
 * fused, radix or sort-cub only (kernels/key_width.cu). */
static drtopk_algo size_rule_64(const drtopk_problem *p, int ln)
{
    if (ln <= POLICY_FUSED_64_LOG2) return DRTOPK_ALGO_FUSED;
    if (ln <= POLICY_FUSED_64_MOST_LOG2 && p->k >= p->n >> POLICY_FUSED_64_MOST_SHIFT) return DRTOPK_ALGO_FUSED;
    if (ln <= POLICY_FUSED_64_HALF_LOG2 && p->k >= p->n >> POLICY_FUSED_64_HALF_SHIFT) return DRTOPK_ALGO_FUSED;
    if (((ln <= POLICY_FUSED_64_ONCE_LOG2 && p->k <= POLICY_FUSED_64_ONCE_MAX_K) ||
         (ln <= POLICY_FUSED_64_WIDE_LOG2 && p->k <= POLICY_FUSED_64_WIDE_MAX_K)) &&
        fused_reads_once(p))
        return DRTOPK_ALGO_FUSED;
    return DRTOPK_ALGO_ONEPASS;
}

/* 64-bit keys on the CUDA backend run those four plans only: any other
 * plan (a table entry for a plan they lack) becomes the size rules' plan. */
static void key_width_fix(drtopk_plan *plan, const drtopk_problem *p, int bits)
{
    if (p->backend == DRTOPK_BACKEND_CUDA && bits == 64 &&
        ((plan->flags & DRTOPK_DELEGATE) || (plan->second_algo != DRTOPK_ALGO_RADIX &&
                                             plan->second_algo != DRTOPK_ALGO_ONEPASS &&
                                             plan->second_algo != DRTOPK_ALGO_FUSED &&
                                             plan->second_algo != DRTOPK_ALGO_SORT_CUB))) {
        plan->flags = 0;
        plan->alpha = plan->beta = 0;
        plan->first_algo = plan->second_algo = size_rule_64(p, drtopk_spec_log2_floor(p->n));
    }
}

/* The size rules (policy.h) on the CUDA backend: the plan for p with no
 * table entry, as (algorithm, pipeline or standalone); never the pipeline
 * where the result is deterministic (det; policy.h). */
static drtopk_algo size_rule(const drtopk_problem *p, int bits, int det, int *pipeline)
{
    const int ln = drtopk_spec_log2_floor(p->n);
    *pipeline = 0;
    if (bits == 64) return size_rule_64(p, ln);
    if (ln <= POLICY_FUSED_LOG2) return DRTOPK_ALGO_FUSED;
    if (ln <= POLICY_FUSED_MOST_LOG2 && p->k >= p->n >> POLICY_FUSED_MOST_SHIFT) return DRTOPK_ALGO_FUSED;
    if (bits == 16 && ln <= POLICY_FUSED_16_LOG2 &&
        (p->k <= POLICY_FUSED_16_MAX_K || (p->k <= p->n >> POLICY_FUSED_16_K_SHIFT && fused_reads_once(p))))
        return DRTOPK_ALGO_FUSED;
    if (bits == 32 && ln <= POLICY_FUSED_32_LOG2 && p->k <= POLICY_FUSED_32_MAX_K) return DRTOPK_ALGO_FUSED;
    if (bits == 32 &&
        ((ln <= POLICY_FUSED_32_LOG2 && p->k <= POLICY_FUSED_32_ONCE_WIDE_MAX_K && !drtopk_dtype_is_float(p->dtype)) ||
         (ln <= POLICY_FUSED_32_WIDE_K_LOG2 && p->k <= p->n >> POLICY_FUSED_32_K_SHIFT)) &&
        fused_reads_once(p))
        return DRTOPK_ALGO_FUSED;
    if (bits == 32 && !det &&
        ln >= (drtopk_dtype_is_float(p->dtype) ? POLICY_PIPELINE_FLOAT_MIN_LOG2 : POLICY_PIPELINE_MIN_LOG2) &&
        p->k <= POLICY_PIPELINE_MAX_K) {
        *pipeline = 1;
        return DRTOPK_ALGO_RADIX;
    }
    if (bits == 32 && ln <= POLICY_FUSED_32_ONCE_LOG2 && p->k <= POLICY_FUSED_32_ONCE_MAX_K &&
        fused_reads_once(p))
        return DRTOPK_ALGO_FUSED;
    return DRTOPK_ALGO_ONEPASS;
}

/* The plan of the size rules: on the CUDA backend size_rule's, a pipeline
 * at Rule 4's const POLICY_PIPELINE_RULE4_CONST and beta 2; on the CPU
 * backend the standalone radix select. */
static void plan_by_size(drtopk_plan *plan, const drtopk_problem *p, int bits, int det)
{
    int pipeline = 0;
    double c = DRTOPK_RULE4_CONST_DEFAULT;
    drtopk_algo algo = DRTOPK_ALGO_RADIX;
    if (p->backend == DRTOPK_BACKEND_CUDA) {
        algo = size_rule(p, bits, det, &pipeline);
        c = POLICY_PIPELINE_RULE4_CONST;
    }
    plan_fill(plan, p, c, POLICY_AUTO_BETA, algo, 0, DRTOPK_CONST_DEFAULT);
    if (!pipeline) plan->flags = plan->alpha = plan->beta = 0;
}

drtopk_status drtopk_plan_from_tables(drtopk_plan *plan, const drtopk_problem *p, const drtopk_tuning *tuning,
                                      const drtopk_tuning *builtin, unsigned flags)
{
    drtopk_status st;
    const drtopk_tuning_entry *e;
    const drtopk_tuning *table = tuning;
    drtopk_const_source src = DRTOPK_CONST_TUNING;
    if (plan == NULL || p == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_plan_auto: %s is NULL", plan ? "the problem" : "plan");
    if (flags & ~(unsigned)POLICY_RESULT_FLAGS)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_plan_auto_flags: flags = 0x%x; the result's flags are "
                    "DRTOPK_SORTED (0x%x) and DRTOPK_DETERMINISTIC (0x%x)", flags, (unsigned)DRTOPK_SORTED,
                    (unsigned)DRTOPK_DETERMINISTIC);
    if ((st = drtopk_check_sizes(p)) != DRTOPK_OK) return st;
    /* an invalid dtype is the select call's to report */
    const int bits = (unsigned)p->dtype < DRTOPK_DTYPE_COUNT ? drtopk_dtype_bits(p->dtype) : 32;
    const int det = (flags & DRTOPK_DETERMINISTIC) != 0;
    if ((st = tuning_match(tuning, "the tuning table", p, &e)) != DRTOPK_OK) return st;
    if (e == NULL) {
        table = builtin;
        src = DRTOPK_CONST_BUILTIN;
        if ((st = tuning_match(builtin, "the compiled-in tuning table", p, &e)) != DRTOPK_OK) return st;
    }
    plan_by_size(plan, p, bits, det);
    /* a deterministic result takes no table entry for the pipeline (policy.h) */
    if (e != NULL && !unmeasured_standalone(table, plan) && !(det && !drtopk_algo_standalone_only(e->algo))) {
        plan_fill(plan, p, e->rule4_const, e->beta, e->algo, e->shared_build_max_alpha, src);
        key_width_fix(plan, p, bits);
    }
    plan->flags |= flags;
    return DRTOPK_OK;
}

/* The GPU model a CUDA problem runs on, in name[DRTOPK_GPU_NAME_LEN], or NULL
 * (CPU backend, or no usable GPU: the select call reports that). */
static const char *current_gpu(drtopk_backend backend, char *name)
{
    const char *why;
    if (backend != DRTOPK_BACKEND_CUDA || !drtopk_cuda_usable(&why)) return NULL;
    if (drtopk_cuda_gpu_name(name, DRTOPK_GPU_NAME_LEN) != DRTOPK_OK) {
        drtopk_error_clear();
        return NULL;
    }
    return name;
}

drtopk_status drtopk_plan_auto_flags(drtopk_plan *plan, const drtopk_problem *p, const drtopk_tuning *tuning,
                                     unsigned flags)
{
    char name[DRTOPK_GPU_NAME_LEN];
    const drtopk_tuning *builtin = NULL;
    drtopk_error_clear();
    if (p != NULL && drtopk_builtin_tuning_count > 0)
        builtin = drtopk_tuning_for_gpu(drtopk_builtin_tunings, drtopk_builtin_tuning_count,
                                        current_gpu(p->backend, name));
    return drtopk_plan_from_tables(plan, p, tuning, builtin, flags);
}

drtopk_status drtopk_plan_auto(drtopk_plan *plan, const drtopk_problem *p, const drtopk_tuning *tuning)
{
    return drtopk_plan_auto_flags(plan, p, tuning, 0);
}

drtopk_status drtopk_plan_size_rules(drtopk_plan *plan, const drtopk_problem *p)
{
    drtopk_error_clear();
    return drtopk_plan_from_tables(plan, p, NULL, NULL, 0);
}

/* ---- batched rows and segments ------------------------------------------- */

int drtopk_batch_plan_for_gpu(drtopk_batch_plan *plan, const drtopk_batch_tuning *tables, size_t count,
                              const char *gpu_name)
{
    for (size_t i = 0; gpu_name != NULL && tables != NULL && i < count; ++i)
        if (tables[i].gpu_name != NULL && strcmp(tables[i].gpu_name, gpu_name) == 0) {
            *plan = tables[i].plan;
            return 1;
        }
    memset(plan, 0, sizeof *plan);
    plan->warp_max_k = POLICY_BATCH_WARP_MAX_K;
    plan->warp_max_len = POLICY_BATCH_WARP_MAX_LEN;
    plan->block_max_len = POLICY_BATCH_BLOCK_MAX_LEN;
    plan->tiny_max_k = POLICY_BATCH_TINY_MAX_K;
    plan->tiny_max_k_64 = POLICY_BATCH_TINY_MAX_K_64;
    plan->block_max_len_64 = POLICY_BATCH_BLOCK_MAX_LEN_64;
    plan->staged_max_len = POLICY_BATCH_STAGED_MAX_LEN;
    plan->dr_min_len = POLICY_BATCH_DR_MIN_LEN;
    plan->filter_min_len = POLICY_BATCH_FILTER_MIN_LEN;
    return 0;
}

/* The batched plan's crossovers differ by key width: an 8-byte key takes
 * twice the registers and shared memory of a 4-byte one. */
int drtopk_batch_wide_keys(drtopk_dtype t) { return drtopk_dtype_size(t) > sizeof(uint32_t); }

drtopk_status drtopk_batch_plan_auto(drtopk_batch_plan *plan, const drtopk_batch_problem *p)
{
    char name[DRTOPK_GPU_NAME_LEN];
    const char *gpu = NULL;
    drtopk_error_clear();
    if (plan == NULL || p == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_batch_plan_auto: %s is NULL", plan ? "the problem" : "plan");
    if (drtopk_builtin_batch_tuning_count > 0) gpu = current_gpu(p->backend, name);
    drtopk_batch_plan_for_gpu(plan, drtopk_builtin_batch_tunings, drtopk_builtin_batch_tuning_count, gpu);
    return DRTOPK_OK;
}

drtopk_status drtopk_plan_batch_rows(drtopk_plan *row, const drtopk_batch_problem *p, const drtopk_batch_plan *plan)
{
    drtopk_status st;
    memset(row, 0, sizeof *row);
    if (p->backend != DRTOPK_BACKEND_CUDA || p->offsets != NULL || p->segments == 0 || p->k > p->len ||
        p->len <= drtopk_batch_block_max_len(plan, p->dtype))
        return DRTOPK_OK;
    const drtopk_problem rp = { .backend = DRTOPK_BACKEND_CUDA, .dtype = p->dtype, .order = p->order,
                                .n = p->len, .k = p->k, .values = p->values };
    if ((st = drtopk_plan_auto(row, &rp, NULL)) != DRTOPK_OK) return st;
    row->flags |= plan->flags & DRTOPK_SORTED;
    return DRTOPK_OK;
}
