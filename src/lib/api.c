/*
 * api.c -- the public entry points of drtopk.h: names and status strings,
 * Rule 4's choice of alpha (paper section 5.2), automatic plans from the
 * caller's tuning table or the one compiled in for this GPU (tuning.h), and
 * the validation every select call goes through before it is dispatched to
 * the CPU reference (cpu_ref.c) or the CUDA pipeline (backend.h).  Every
 * entry point that can fail clears drtopk_last_error first, and an argument
 * error says which input was wrong.
 */
#include "drtopk.h"
#include "backend.h"
#include "tuning.h"
#include "keyorder.h"

#include <limits.h>

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#define DRTOPK_AUTO_BETA 2          /* paper 4.3, Figure 9: beta = 2 is best */
#define DRTOPK_DELEGATE_PREFIX "dr-"
#define DRTOPK_INDEX_ALIGN 8        /* uint64 positions */
#define DRTOPK_KNOWN_FLAGS (DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SHARED_DELEGATE | \
                            DRTOPK_SKIP_LAST_DIGIT | DRTOPK_SORTED)

static drtopk_status plan_valid(const drtopk_plan *plan);

/* Return status st with the message of a failed call (drtopk_last_error). */
#define FAIL(st, ...) (drtopk_error_set(__VA_ARGS__), (st))

static const char *const status_strings[DRTOPK_STATUS_COUNT] = {
    [DRTOPK_OK] = "success",
    [DRTOPK_ERR_INVALID_ARGUMENT] =
        "invalid argument: a NULL pointer, an unknown enum value or a plan field out of range",
    [DRTOPK_ERR_K_ZERO] = "k is 0: at least one element must be selected",
    [DRTOPK_ERR_K_GT_N] = "k is larger than n, the number of input elements",
    [DRTOPK_ERR_N_ZERO] = "the input vector is empty (n is 0)",
    [DRTOPK_ERR_MISALIGNED] =
        "a pointer is misaligned: values need the alignment of their type and indices 8 bytes",
    [DRTOPK_ERR_WORKSPACE_TOO_SMALL] =
        "the workspace is NULL or smaller than drtopk_select_workspace reported",
    [DRTOPK_ERR_UNSUPPORTED] = "this combination of algorithm, key type and backend is not implemented",
    [DRTOPK_ERR_OUT_OF_MEMORY] = "out of memory",
    [DRTOPK_ERR_NO_BACKEND] = "the library was built without this backend, or no GPU is available",
    [DRTOPK_ERR_CUDA] = "a CUDA runtime call or kernel launch failed",
    [DRTOPK_ERR_IO] = "file or database input/output failed",
};

static const char *const dtype_names[DRTOPK_DTYPE_COUNT] = { "u32", "i32", "f32", "f16", "bf16", "u64", "i64", "f64" };
/* Accepted spellings besides the short names. */
static const char *const dtype_long_names[DRTOPK_DTYPE_COUNT] = { "uint32",   "int32",  "float32", "float16",
                                                                  "bfloat16", "uint64", "int64",   "float64" };

static const char *const algo_names[DRTOPK_ALGO_COUNT] = {
    [DRTOPK_ALGO_RADIX] = "radix",
    [DRTOPK_ALGO_RADIX_GGKS] = "radix-ggks",
    [DRTOPK_ALGO_RADIX_GGKS_OOP] = "radix-ggks-oop",
    [DRTOPK_ALGO_BUCKET] = "bucket",
    [DRTOPK_ALGO_BUCKET_OOP] = "bucket-oop",
    [DRTOPK_ALGO_BITONIC] = "bitonic",
    [DRTOPK_ALGO_SORT_CUB] = "sort-cub",
    [DRTOPK_ALGO_SORT_THRUST] = "sort-thrust",
    [DRTOPK_ALGO_ONEPASS] = "onepass",
    [DRTOPK_ALGO_FUSED] = "fused",
};

const char *drtopk_status_string(drtopk_status s)
{
    if ((unsigned)s >= DRTOPK_STATUS_COUNT) return "unknown drtopk status code";
    return status_strings[s];
}

const char *drtopk_dtype_name(drtopk_dtype t)
{
    return (unsigned)t < DRTOPK_DTYPE_COUNT ? dtype_names[t] : "unknown";
}

const char *drtopk_algo_name(drtopk_algo a)
{
    return (unsigned)a < DRTOPK_ALGO_COUNT ? algo_names[a] : "unknown";
}

drtopk_status drtopk_dtype_parse(const char *s, drtopk_dtype *out)
{
    drtopk_error_clear();
    if (s == NULL || out == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_dtype_parse: %s is NULL", s ? "out" : "the name");
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
        if (strcasecmp(s, dtype_names[t]) == 0 || strcasecmp(s, dtype_long_names[t]) == 0) {
            *out = (drtopk_dtype)t;
            return DRTOPK_OK;
        }
    }
    return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "unknown key type '%s' (u32 i32 f32 f16 bf16 u64 i64 f64)", s);
}

drtopk_status drtopk_algo_parse(const char *s, drtopk_algo *out, int *delegate)
{
    const size_t plen = strlen(DRTOPK_DELEGATE_PREFIX);
    int dr = 0;
    drtopk_error_clear();
    if (s == NULL || out == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_algo_parse: %s is NULL", s ? "out" : "the name");
    const char *name = s;
    if (strncasecmp(s, DRTOPK_DELEGATE_PREFIX, plen) == 0) {
        dr = 1;
        s += plen;
    }
    for (int a = 0; a < DRTOPK_ALGO_COUNT; ++a) {
        if (strcasecmp(s, algo_names[a]) == 0) {
            *out = (drtopk_algo)a;
            if (delegate) *delegate = dr;
            return DRTOPK_OK;
        }
    }
    return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "unknown algorithm '%s'", name);
}

size_t drtopk_dtype_size(drtopk_dtype t)
{
    return (unsigned)t < DRTOPK_DTYPE_COUNT ? (size_t)drtopk_dtype_bits(t) / CHAR_BIT : 0;
}

static uint32_t float_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static float bits_float(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

uint16_t drtopk_f16_from_float(float f) { return drtopk_f16_from_f32(float_bits(f)); }
float drtopk_f16_to_float(uint16_t h) { return bits_float(drtopk_f32_from_f16(h)); }
uint16_t drtopk_bf16_from_float(float f) { return drtopk_bf16_from_f32(float_bits(f)); }
float drtopk_bf16_to_float(uint16_t h) { return bits_float(drtopk_f32_from_bf16(h)); }

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
    double a = round(0.5 * (rule4_const + log2((double)n) - log2((double)k)));
    if (a < DRTOPK_ALPHA_MIN) return DRTOPK_ALPHA_MIN;
    if (a > hi) return hi;
    return (int)a;
}

static drtopk_status check_sizes(const drtopk_problem *p)
{
    if (p->n == 0) return FAIL(DRTOPK_ERR_N_ZERO, "n = 0: the input vector is empty");
    if (p->k == 0) return FAIL(DRTOPK_ERR_K_ZERO, "k = 0: select at least one element");
    if (p->k > p->n)
        return FAIL(DRTOPK_ERR_K_GT_N, "k = %" PRIu64 " is larger than n = %" PRIu64, p->k, p->n);
    return DRTOPK_OK;
}

static int log2_floor_u64(uint64_t x)
{
    int r = -1;
    while (x) {
        x >>= 1;
        ++r;
    }
    return r;
}

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
    const int ln = log2_floor_u64(p->n), lk = log2_floor_u64(p->k);
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

/* Algorithms that read V themselves: no first or second top-k of the pipeline. */
static int standalone_only(drtopk_algo a) { return a == DRTOPK_ALGO_ONEPASS || a == DRTOPK_ALGO_FUSED; }

/* The plan every auto plan shares, with alpha from Rule 4. */
static void plan_fill(drtopk_plan *plan, const drtopk_problem *p, double c, int beta, drtopk_algo algo,
                      int shared_max_alpha, drtopk_const_source src)
{
    if (shared_max_alpha == 0) shared_max_alpha = DRTOPK_SHARED_DELEGATE_MAX_ALPHA;
    memset(plan, 0, sizeof *plan);
    plan->rule4_const = c;
    plan->const_source = src;
    plan->first_algo = plan->second_algo = algo;
    if (standalone_only(algo)) return;   /* standalone: no alpha, beta or flags */
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
    if ((st = check_sizes(p)) != DRTOPK_OK) return st;
    plan_fill(plan, p, rule4_const, DRTOPK_AUTO_BETA, DRTOPK_ALGO_RADIX, 0, DRTOPK_CONST_USER);
    return DRTOPK_OK;
}

drtopk_status drtopk_plan_explicit(drtopk_plan *plan, const drtopk_problem *p, drtopk_algo algo, int alpha,
                                   int beta, unsigned flags)
{
    drtopk_status st;
    drtopk_error_clear();
    if (plan == NULL || p == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_plan_explicit: %s is NULL", plan ? "the problem" : "plan");
    if ((st = check_sizes(p)) != DRTOPK_OK) return st;
    if (!(flags & DRTOPK_DELEGATE) && (alpha != 0 || beta != 0 || (flags & ~(unsigned)DRTOPK_SORTED)))
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_plan_explicit: the standalone %s takes alpha = 0, beta = 0 "
                    "and no flag but DRTOPK_SORTED (got alpha %d, beta %d, flags 0x%x); add DRTOPK_DELEGATE for "
                    "the pipeline", drtopk_algo_name(algo), alpha, beta, flags);
    memset(plan, 0, sizeof *plan);
    plan->alpha = alpha;
    plan->beta = beta;
    plan->first_algo = plan->second_algo = algo;
    plan->flags = flags;
    plan->const_source = DRTOPK_CONST_EXPLICIT;
    if ((st = plan_valid(plan)) != DRTOPK_OK) return st;
    /* Rule 4 inverted: round(0.5 * (c + log2 n - log2 k)) = alpha */
    if (flags & DRTOPK_DELEGATE) plan->rule4_const = 2.0 * alpha - log2((double)p->n) + log2((double)p->k);
    return DRTOPK_OK;
}

const drtopk_tuning *drtopk_tuning_for_gpu(const drtopk_tuning *tables, size_t count, const char *gpu_name)
{
    if (tables == NULL || gpu_name == NULL) return NULL;
    for (size_t i = 0; i < count; ++i)
        if (tables[i].gpu_name != NULL && strcmp(tables[i].gpu_name, gpu_name) == 0) return &tables[i];
    return NULL;
}

/* 64-bit keys on the CUDA backend: standalone onepass, radix or sort-cub
 * only (kernels/key_width.cu); any other plan becomes onepass above the small
 * inputs (large), else radix. */
static void key_width_fix(drtopk_plan *plan, const drtopk_problem *p, int bits, int large)
{
    if (p->backend == DRTOPK_BACKEND_CUDA && bits == 64 &&
        ((plan->flags & DRTOPK_DELEGATE) || (plan->second_algo != DRTOPK_ALGO_RADIX &&
                                             plan->second_algo != DRTOPK_ALGO_ONEPASS &&
                                             plan->second_algo != DRTOPK_ALGO_SORT_CUB))) {
        plan->flags = 0;
        plan->first_algo = plan->second_algo = large ? DRTOPK_ALGO_ONEPASS : DRTOPK_ALGO_RADIX;
    }
}

/* The untuned rules (drtopk.h): on the CUDA backend the fused plan for small
 * inputs, one launch (64-bit keys: the radix, by key_width_fix), and for
 * 32-bit keys at small k up to DRTOPK_FUSED_ONE_READ_LOG2 (one read of V);
 * larger 16- and 64-bit keys: the one-read top-k at their own width; else the
 * paper's const, beta 2 and radix. */
static void plan_untuned(drtopk_plan *plan, const drtopk_problem *p, int bits, int large)
{
    drtopk_algo algo = DRTOPK_ALGO_RADIX;
    const int one_read = bits == 32 && log2_floor_u64(p->n) <= DRTOPK_FUSED_ONE_READ_LOG2 &&
                         p->k <= DRTOPK_FUSED_ONE_READ_MAX_K;
    if (p->backend == DRTOPK_BACKEND_CUDA) {
        if (!large || one_read)
            algo = DRTOPK_ALGO_FUSED;
        else if (bits != 32)
            algo = DRTOPK_ALGO_ONEPASS;
    }
    plan_fill(plan, p, DRTOPK_RULE4_CONST_DEFAULT, DRTOPK_AUTO_BETA, algo, 0, DRTOPK_CONST_DEFAULT);
    key_width_fix(plan, p, bits, large);
}

_Static_assert(DRTOPK_ALGO_COUNT <= 32, "drtopk_tuning.algos_measured holds one bit per drtopk_algo");

/* Whether table t's sweep never measured the standalone plan `untuned` (its
 * entries then do not decide against it; drtopk.h). */
static int unmeasured_standalone(const drtopk_tuning *t, const drtopk_plan *untuned)
{
    return standalone_only(untuned->second_algo) && t->algos_measured != 0 &&
           !(t->algos_measured & (UINT32_C(1) << untuned->second_algo));
}

drtopk_status drtopk_plan_from_tables(drtopk_plan *plan, const drtopk_problem *p, const drtopk_tuning *tuning,
                                      const drtopk_tuning *builtin)
{
    drtopk_status st;
    const drtopk_tuning_entry *e;
    const drtopk_tuning *table = tuning;
    drtopk_const_source src = DRTOPK_CONST_TUNING;
    if (plan == NULL || p == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_plan_auto: %s is NULL", plan ? "the problem" : "plan");
    if ((st = check_sizes(p)) != DRTOPK_OK) return st;
    /* an invalid dtype is the select call's to report */
    const int bits = (unsigned)p->dtype < DRTOPK_DTYPE_COUNT ? drtopk_dtype_bits(p->dtype) : 32;
    const int large = log2_floor_u64(p->n) > DRTOPK_SMALL_N_LOG2;
    if ((st = tuning_match(tuning, "the tuning table", p, &e)) != DRTOPK_OK) return st;
    if (e == NULL) {
        table = builtin;
        src = DRTOPK_CONST_BUILTIN;
        if ((st = tuning_match(builtin, "the compiled-in tuning table", p, &e)) != DRTOPK_OK) return st;
    }
    plan_untuned(plan, p, bits, large);
    if (e != NULL && !unmeasured_standalone(table, plan)) {
        plan_fill(plan, p, e->rule4_const, e->beta, e->algo, e->shared_build_max_alpha, src);
        key_width_fix(plan, p, bits, large);
    }
    return DRTOPK_OK;
}

/* The compiled-in table for the GPU a CUDA problem runs on, or NULL (CPU
 * backend, no table, or no usable GPU: the select call reports that). */
static const drtopk_tuning *builtin_for(const drtopk_problem *p)
{
    char name[DRTOPK_GPU_NAME_LEN];
    if (p == NULL || p->backend != DRTOPK_BACKEND_CUDA || drtopk_builtin_tuning_count == 0) return NULL;
    if (drtopk_cuda_gpu_name(name, sizeof name) != DRTOPK_OK) {
        drtopk_error_clear();
        return NULL;
    }
    return drtopk_tuning_for_gpu(drtopk_builtin_tunings, drtopk_builtin_tuning_count, name);
}

drtopk_status drtopk_plan_auto(drtopk_plan *plan, const drtopk_problem *p, const drtopk_tuning *tuning)
{
    drtopk_error_clear();
    return drtopk_plan_from_tables(plan, p, tuning, builtin_for(p));
}

/* alpha and beta only matter to the delegate pipeline; a standalone plan may
 * leave them zero. */
static drtopk_status plan_valid(const drtopk_plan *plan)
{
    if (plan == NULL) return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "the plan is NULL");
    if (plan->flags & ~(unsigned)DRTOPK_KNOWN_FLAGS)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "plan->flags = 0x%x has unknown bits 0x%x", plan->flags,
                    plan->flags & ~(unsigned)DRTOPK_KNOWN_FLAGS);
    if ((unsigned)plan->first_algo >= DRTOPK_ALGO_COUNT)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "plan->first_algo = %d is not a drtopk_algo",
                    (int)plan->first_algo);
    if ((unsigned)plan->second_algo >= DRTOPK_ALGO_COUNT)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "plan->second_algo = %d is not a drtopk_algo",
                    (int)plan->second_algo);
    if ((plan->flags & DRTOPK_DELEGATE) && (standalone_only(plan->first_algo) || standalone_only(plan->second_algo))) {
        const char *a = drtopk_algo_name(standalone_only(plan->first_algo) ? plan->first_algo : plan->second_algo);
        return FAIL(DRTOPK_ERR_UNSUPPORTED, "%s runs standalone only (--algo %s, a plan without DRTOPK_DELEGATE): "
                    "it reads V itself, so it is no first or second top-k of the pipeline", a, a);
    }
    if (plan->flags & DRTOPK_DELEGATE) {
        if (plan->alpha < DRTOPK_ALPHA_MIN || plan->alpha > DRTOPK_ALPHA_MAX)
            return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "plan->alpha = %d is outside %d..%d", plan->alpha,
                        DRTOPK_ALPHA_MIN, DRTOPK_ALPHA_MAX);
        if (plan->beta < 1 || plan->beta > DRTOPK_BETA_MAX)
            return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "plan->beta = %d is outside 1..%d", plan->beta,
                        DRTOPK_BETA_MAX);
    }
    return DRTOPK_OK;
}

drtopk_status drtopk_plan_check(const drtopk_plan *plan, const drtopk_problem *p)
{
    drtopk_error_clear();
    return plan_valid(plan);
}

static int aligned(const void *ptr, uintptr_t a)
{
    return ((uintptr_t)ptr & (a - 1)) == 0;
}

drtopk_status drtopk_check_enums(drtopk_dtype dtype, drtopk_order order, drtopk_backend backend)
{
    if ((unsigned)dtype >= DRTOPK_DTYPE_COUNT)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "p->dtype = %d is not a drtopk_dtype", (int)dtype);
    if ((unsigned)order > DRTOPK_SMALLEST)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "p->order = %d is not a drtopk_order", (int)order);
    if ((unsigned)backend > DRTOPK_BACKEND_CUDA)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "p->backend = %d is not a drtopk_backend", (int)backend);
    return DRTOPK_OK;
}

/* Problem checks shared by both phases; `need_data` is 0 for the workspace
 * query, which depends on sizes only and so accepts values == NULL. */
static drtopk_status check_problem(const drtopk_problem *p, const drtopk_plan *plan, int need_data)
{
    drtopk_status st;
    if (p == NULL || plan == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "%s is NULL", p ? "the plan" : "the problem");
    if ((st = check_sizes(p)) != DRTOPK_OK) return st;
    if ((st = drtopk_check_enums(p->dtype, p->order, p->backend)) != DRTOPK_OK) return st;
    if (p->values == NULL && need_data) return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "p->values is NULL");
    if (p->values != NULL && !aligned(p->values, drtopk_dtype_size(p->dtype)))
        return FAIL(DRTOPK_ERR_MISALIGNED, "p->values = %p is not %zu-byte aligned (%s)", p->values,
                    drtopk_dtype_size(p->dtype), drtopk_dtype_name(p->dtype));
    return plan_valid(plan);
}

static drtopk_status backend_workspace(const drtopk_problem *p, const drtopk_plan *plan, size_t *bytes)
{
    return p->backend == DRTOPK_BACKEND_CPU ? drtopk_cpu_workspace(p, plan, bytes)
                                            : drtopk_cuda_workspace(p, plan, bytes);
}

drtopk_status drtopk_select_workspace(const drtopk_problem *p, const drtopk_plan *plan,
                                      size_t *bytes)
{
    drtopk_status st;
    drtopk_error_clear();
    if (bytes == NULL) return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_select_workspace: bytes is NULL");
    if ((st = check_problem(p, plan, 0)) != DRTOPK_OK) return st;
    return backend_workspace(p, plan, bytes);
}

drtopk_status drtopk_select(const drtopk_problem *p, const drtopk_plan *plan,
                            void *workspace, size_t workspace_bytes,
                            void *out_values, uint64_t *out_indices,
                            void *stream, drtopk_stats *stats)
{
    drtopk_status st;
    drtopk_error_clear();
    if ((st = check_problem(p, plan, 1)) != DRTOPK_OK) return st;
    if (out_values == NULL || out_indices == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "%s is NULL", out_values ? "out_indices" : "out_values");
    if (!aligned(out_values, drtopk_dtype_size(p->dtype)))
        return FAIL(DRTOPK_ERR_MISALIGNED, "out_values = %p is not %zu-byte aligned (%s)", out_values,
                    drtopk_dtype_size(p->dtype), drtopk_dtype_name(p->dtype));
    if (!aligned(out_indices, DRTOPK_INDEX_ALIGN))
        return FAIL(DRTOPK_ERR_MISALIGNED, "out_indices = %p is not %d-byte aligned", (void *)out_indices,
                    DRTOPK_INDEX_ALIGN);
    /* each backend lays out the workspace once and checks its size itself */
    if (stats) memset(stats, 0, sizeof *stats);
    if (p->backend == DRTOPK_BACKEND_CPU)
        return drtopk_cpu_select(p, plan, workspace, workspace_bytes, out_values, out_indices, stats);
    return drtopk_cuda_select(p, plan, workspace, workspace_bytes, out_values, out_indices,
                              stream, stats);
}
