/*
 * api.c -- the public entry points of drtopk.h besides planning (plan.c):
 * names and status strings, key conversions, and the validation every select
 * call goes through before it is dispatched to the CPU reference (cpu_ref.c)
 * or the CUDA executor (backend.h), paper sections 4 and 5.  Every entry
 * point that can fail clears drtopk_last_error first, and an argument error
 * says which input was wrong.
 */
#include "drtopk.h"
#include "backend.h"
#include "policy.h"
#include "keyorder.h"

#include <limits.h>

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#define DRTOPK_DELEGATE_PREFIX "dr-"
#define DRTOPK_INDEX_ALIGN 8        /* uint64 positions */
#define DRTOPK_KNOWN_FLAGS (DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SHARED_DELEGATE | \
                            DRTOPK_SKIP_LAST_DIGIT | DRTOPK_SORTED | DRTOPK_DETERMINISTIC)

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

drtopk_status drtopk_check_sizes(const drtopk_problem *p)
{
    if (p->n == 0) return FAIL(DRTOPK_ERR_N_ZERO, "n = 0: the input vector is empty");
    if (p->k == 0) return FAIL(DRTOPK_ERR_K_ZERO, "k = 0: select at least one element");
    if (p->k > p->n)
        return FAIL(DRTOPK_ERR_K_GT_N, "k = %" PRIu64 " is larger than n = %" PRIu64, p->k, p->n);
    return DRTOPK_OK;
}

/* alpha and beta only matter to the delegate pipeline; a standalone plan may
 * leave them zero. */
drtopk_status drtopk_plan_valid(const drtopk_plan *plan)
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
    const int first_alone = drtopk_algo_standalone_only(plan->first_algo);
    if ((plan->flags & DRTOPK_DELEGATE) && (first_alone || drtopk_algo_standalone_only(plan->second_algo))) {
        const char *a = drtopk_algo_name(first_alone ? plan->first_algo : plan->second_algo);
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
    return drtopk_plan_valid(plan);
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

int drtopk_backend_available(drtopk_backend backend, const char **why)
{
    const char *reason = "";
    int ok = 0;
    if (backend == DRTOPK_BACKEND_CPU) ok = 1;
    else if (backend == DRTOPK_BACKEND_CUDA) ok = drtopk_cuda_usable(&reason);
    else reason = "not a drtopk_backend (DRTOPK_BACKEND_CPU or DRTOPK_BACKEND_CUDA)";
    if (why) *why = ok ? "" : reason;
    return ok;
}

drtopk_status drtopk_backend_ready(drtopk_backend backend)
{
    const char *why;
    if (drtopk_backend_available(backend, &why)) return DRTOPK_OK;
    return FAIL(DRTOPK_ERR_NO_BACKEND, "the %s backend cannot run here: %s",
                backend == DRTOPK_BACKEND_CUDA ? "CUDA" : "requested", why);
}

/* Problem checks shared by both phases; `need_data` is 0 for the workspace
 * query, which depends on sizes only and so accepts values == NULL. */
static drtopk_status check_problem(const drtopk_problem *p, const drtopk_plan *plan, int need_data)
{
    drtopk_status st;
    if (p == NULL || plan == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "%s is NULL", p ? "the plan" : "the problem");
    if ((st = drtopk_check_sizes(p)) != DRTOPK_OK) return st;
    if ((st = drtopk_check_enums(p->dtype, p->order, p->backend)) != DRTOPK_OK) return st;
    if (p->values == NULL && need_data) return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "p->values is NULL");
    if (p->values != NULL && !aligned(p->values, drtopk_dtype_size(p->dtype)))
        return FAIL(DRTOPK_ERR_MISALIGNED, "p->values = %p is not %zu-byte aligned (%s)", p->values,
                    drtopk_dtype_size(p->dtype), drtopk_dtype_name(p->dtype));
    if ((st = drtopk_plan_valid(plan)) != DRTOPK_OK) return st;
    return drtopk_backend_ready(p->backend);
}

/* A deterministic CUDA selection: the plan's selection, unsorted, then the
 * fix-up (kernels/deterministic.cu), whose workspace follows the plan's at an
 * aligned offset and which a selection that knows its result final tells to
 * stand aside (drtopk_cuda_select_settled).  The selection keeps
 * DRTOPK_DETERMINISTIC in its plan: onepass then lists the ties at its
 * threshold, so that it can settle a TAKE too.  The CPU backend gives the k
 * best (key, position) pairs itself (cpu_ref.c). */
static int cuda_deterministic(const drtopk_problem *p, const drtopk_plan *plan, drtopk_plan *inner)
{
    if (p->backend != DRTOPK_BACKEND_CUDA || !(plan->flags & DRTOPK_DETERMINISTIC)) return 0;
    *inner = *plan;
    inner->flags &= ~(unsigned)DRTOPK_SORTED;
    return 1;
}

static size_t ws_align(size_t x) { return (x + DRTOPK_DET_WS_ALIGN - 1) / DRTOPK_DET_WS_ALIGN * DRTOPK_DET_WS_ALIGN; }

static drtopk_status backend_workspace(const drtopk_problem *p, const drtopk_plan *plan, size_t *bytes)
{
    drtopk_plan inner;
    size_t fix = 0;
    drtopk_status st;
    if (p->backend == DRTOPK_BACKEND_CPU) return drtopk_cpu_workspace(p, plan, bytes);
    if (!cuda_deterministic(p, plan, &inner)) return drtopk_cuda_workspace(p, plan, bytes);
    if ((st = drtopk_cuda_workspace(p, &inner, bytes)) != DRTOPK_OK ||
        (st = drtopk_cuda_det_workspace(p, (plan->flags & DRTOPK_SORTED) != 0, &fix)) != DRTOPK_OK)
        return st;
    *bytes = ws_align(*bytes) + fix;
    return DRTOPK_OK;
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
    drtopk_plan inner;
    if (!cuda_deterministic(p, plan, &inner))
        return drtopk_cuda_select(p, plan, workspace, workspace_bytes, out_values, out_indices, stream, stats);
    size_t first = 0;
    if ((st = drtopk_cuda_workspace(p, &inner, &first)) != DRTOPK_OK) return st;
    first = ws_align(first);
    if (workspace == NULL || workspace_bytes < first)
        return drtopk_workspace_too_small(workspace, workspace_bytes, first);
    int *d_settled = NULL;
    if ((st = drtopk_cuda_det_begin(p, (plan->flags & DRTOPK_SORTED) != 0, (char *)workspace + first,
                                    workspace_bytes - first, stream, &d_settled)) != DRTOPK_OK ||
        (st = drtopk_cuda_select_settled(p, &inner, workspace, first, out_values, out_indices, stream, stats,
                                         d_settled)) != DRTOPK_OK)
        return st;
    float fix_ms = 0;
    if ((st = drtopk_cuda_det_fix(p, (plan->flags & DRTOPK_SORTED) != 0, (char *)workspace + first,
                                  workspace_bytes - first, out_values, out_indices, stream,
                                  stats ? &fix_ms : NULL)) != DRTOPK_OK)
        return st;
    if (stats) {                /* the fix-up is part of the final stage and of the total */
        stats->ms_second += fix_ms;
        stats->ms_total += fix_ms;
    }
    return DRTOPK_OK;
}
