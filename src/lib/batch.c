/*
 * batch.c -- the public entry points of batched and segmented top-k
 * (drtopk.h, drtopk_batch_workspace and drtopk_batch_select; their plan comes
 * from the planner, plan.c) and drtopk_batch_topk, both phases in one call
 * for language bindings: the validation both phases share before the
 * problem goes to the CPU backend (cpu_batch.c) or the CUDA one
 * (kernels/batch_topk.cu) with the row plan the planner resolved.  Every
 * failing check says which input was wrong.
 */
#include "drtopk.h"
#include "backend.h"
#include "policy.h"

#include <inttypes.h>
#include <string.h>

#define FAIL(st, ...) (drtopk_error_set(__VA_ARGS__), (st))

#define BATCH_INDEX_ALIGN 8             /* uint64 offsets, ks and positions */

static int aligned(const void *ptr, uintptr_t a) { return ((uintptr_t)ptr & (a - 1)) == 0; }

/* Checks of the problem and plan shared by both phases; `need_data` is 0 for
 * the workspace query, which accepts NULL data pointers. */
static drtopk_status check_batch(const drtopk_batch_problem *p, const drtopk_batch_plan *plan, int need_data)
{
    if (p == NULL || plan == NULL) return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "%s is NULL", p ? "the plan" : "the problem");
    drtopk_status st;
    if ((st = drtopk_check_enums(p->dtype, p->order, p->backend)) != DRTOPK_OK) return st;
    if (plan->flags & ~(unsigned)(DRTOPK_SORTED | DRTOPK_DETERMINISTIC))
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "plan->flags = 0x%x: a batch plan takes only DRTOPK_SORTED and "
                    "DRTOPK_DETERMINISTIC", plan->flags);
    if (plan->warp_max_k > DRTOPK_WARP_K_MAX)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "plan->warp_max_k = %" PRIu64 " is above DRTOPK_WARP_K_MAX = %d",
                    plan->warp_max_k, DRTOPK_WARP_K_MAX);
    if (plan->tiny_max_k > DRTOPK_BATCH_TINY_K_MAX || plan->tiny_max_k_64 > DRTOPK_BATCH_TINY_K_MAX)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "plan->tiny_max_k%s = %" PRIu64 " is above DRTOPK_BATCH_TINY_K_MAX = %d",
                    plan->tiny_max_k > DRTOPK_BATCH_TINY_K_MAX ? "" : "_64",
                    plan->tiny_max_k > DRTOPK_BATCH_TINY_K_MAX ? plan->tiny_max_k : plan->tiny_max_k_64,
                    DRTOPK_BATCH_TINY_K_MAX);
    if (plan->staged_max_len == 0 || plan->staged_max_len > DRTOPK_BATCH_STAGED_MAX_LEN)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "plan->staged_max_len = %" PRIu64 " is outside 1..%llu "
                    "(DRTOPK_BATCH_STAGED_MAX_LEN); start from drtopk_batch_plan_auto", plan->staged_max_len,
                    DRTOPK_BATCH_STAGED_MAX_LEN);
    if (p->k == 0) return FAIL(DRTOPK_ERR_K_ZERO, "k = 0: every segment needs at least one output slot");
    if (p->segments != 0 && p->k > SIZE_MAX / sizeof(uint64_t) / p->segments)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "segments * k = %" PRIu64 " * %" PRIu64
                    " output slots do not fit in this machine's address space", p->segments, p->k);
    if (p->offsets == NULL) {
        if (p->segments != 0 && p->len == 0)
            return FAIL(DRTOPK_ERR_N_ZERO, "len = 0: uniform rows must not be empty (give offsets for empty segments)");
        if (p->k > p->len && p->segments != 0)
            return FAIL(DRTOPK_ERR_K_GT_N, "k = %" PRIu64 " is larger than the row length len = %" PRIu64
                        " (uniform rows; segments given by offsets clamp k instead)", p->k, p->len);
        if (p->segments != 0 && p->len > SIZE_MAX / sizeof(uint64_t) / p->segments)
            return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "segments * len = %" PRIu64 " * %" PRIu64
                        " elements do not fit in this machine's address space", p->segments, p->len);
    } else {
        if (p->len != 0)
            return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "len = %" PRIu64 " with offsets: len is for uniform rows "
                        "(offsets NULL); set it to 0", p->len);
        if (!aligned(p->offsets, BATCH_INDEX_ALIGN))
            return FAIL(DRTOPK_ERR_MISALIGNED, "p->offsets = %p is not 8-byte aligned", (const void *)p->offsets);
        if (p->segments > SIZE_MAX / sizeof(uint64_t) - 1)
            return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "segments = %" PRIu64 " is too many offsets", p->segments);
    }
    if (p->ks != NULL && !aligned(p->ks, BATCH_INDEX_ALIGN))
        return FAIL(DRTOPK_ERR_MISALIGNED, "p->ks = %p is not 8-byte aligned", (const void *)p->ks);
    if (p->values != NULL && !aligned(p->values, drtopk_dtype_size(p->dtype)))
        return FAIL(DRTOPK_ERR_MISALIGNED, "p->values = %p is not %zu-byte aligned (%s)", p->values,
                    drtopk_dtype_size(p->dtype), drtopk_dtype_name(p->dtype));
    if (need_data && p->segments != 0 && p->values == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "p->values is NULL");
    return drtopk_backend_ready(p->backend);
}

/* DRTOPK_DETERMINISTIC on the CUDA backend where the selection settles the
 * result itself (drtopk_cuda_batch_settles): the plain selection, *own (plan
 * without the flag); else plan. */
static const drtopk_batch_plan *cuda_settled(const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                                             drtopk_batch_plan *own)
{
    if (p->backend != DRTOPK_BACKEND_CUDA || !(plan->flags & DRTOPK_DETERMINISTIC) ||
        !drtopk_cuda_batch_settles(p, plan))
        return plan;
    *own = *plan;
    own->flags &= ~(unsigned)DRTOPK_DETERMINISTIC;
    return own;
}

/* DRTOPK_DETERMINISTIC on the CUDA backend (not settled): the plan's
 * selection, unsorted, then the fix-up (kernels/deterministic.cu), whose
 * workspace follows the plan's at an aligned offset.  The CPU backend's
 * segments keep the smallest tie positions themselves (cpu_batch.c). */
static int cuda_deterministic(const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                              drtopk_batch_plan *inner)
{
    if (p->backend != DRTOPK_BACKEND_CUDA || !(plan->flags & DRTOPK_DETERMINISTIC)) return 0;
    *inner = *plan;
    inner->flags &= ~(unsigned)(DRTOPK_DETERMINISTIC | DRTOPK_SORTED);
    return 1;
}

/* DRTOPK_SORTED on the CUDA backend where its select does not sort (k past
 * what a block sorts): the selection unsorted, then the slots sorted
 * (drtopk_cuda_batch_sort), whose workspace follows the selection's as the
 * fix-up's does. */
static int cuda_sorts_after(const drtopk_batch_problem *p, const drtopk_batch_plan *plan, drtopk_batch_plan *inner)
{
    if (p->backend != DRTOPK_BACKEND_CUDA || !(plan->flags & DRTOPK_SORTED) || (plan->flags & DRTOPK_DETERMINISTIC) ||
        drtopk_cuda_batch_sorts_itself(p, plan))
        return 0;
    *inner = *plan;
    inner->flags &= ~(unsigned)DRTOPK_SORTED;
    return 1;
}

static size_t det_align(size_t x) { return (x + DRTOPK_DET_WS_ALIGN - 1) / DRTOPK_DET_WS_ALIGN * DRTOPK_DET_WS_ALIGN; }

drtopk_status drtopk_batch_workspace(const drtopk_batch_problem *p, const drtopk_batch_plan *plan, size_t *bytes)
{
    drtopk_status st;
    drtopk_error_clear();
    if (bytes == NULL) return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_batch_workspace: bytes is NULL");
    if ((st = check_batch(p, plan, 0)) != DRTOPK_OK) return st;
    if (p->backend == DRTOPK_BACKEND_CPU) return drtopk_cpu_batch_workspace(p, bytes);
    drtopk_plan row;
    drtopk_batch_plan inner, own;
    plan = cuda_settled(p, plan, &own);
    size_t fix = 0;
    const int det = cuda_deterministic(p, plan, &inner), after = !det && cuda_sorts_after(p, plan, &inner);
    if ((st = drtopk_plan_batch_rows(&row, p, det || after ? &inner : plan)) != DRTOPK_OK) return st;
    if (!det && !after) return drtopk_cuda_batch_workspace(p, plan, &row, bytes);
    if ((st = drtopk_cuda_batch_workspace(p, &inner, &row, bytes)) != DRTOPK_OK ||
        (st = det ? drtopk_cuda_det_batch_workspace(p, (plan->flags & DRTOPK_SORTED) != 0, &fix)
                  : drtopk_cuda_batch_sort_workspace(p, &fix)) != DRTOPK_OK)
        return st;
    *bytes = det_align(*bytes) + fix;
    return DRTOPK_OK;
}

drtopk_status drtopk_batch_select(const drtopk_batch_problem *p, const drtopk_batch_plan *plan, void *workspace,
                                  size_t workspace_bytes, void *out_values, uint64_t *out_indices, void *stream)
{
    drtopk_status st;
    drtopk_error_clear();
    if ((st = check_batch(p, plan, 1)) != DRTOPK_OK) return st;
    if (p->segments == 0) return DRTOPK_OK;
    if (out_values == NULL || out_indices == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "%s is NULL", out_values ? "out_indices" : "out_values");
    if (!aligned(out_values, drtopk_dtype_size(p->dtype)))
        return FAIL(DRTOPK_ERR_MISALIGNED, "out_values = %p is not %zu-byte aligned (%s)", out_values,
                    drtopk_dtype_size(p->dtype), drtopk_dtype_name(p->dtype));
    if (!aligned(out_indices, BATCH_INDEX_ALIGN))
        return FAIL(DRTOPK_ERR_MISALIGNED, "out_indices = %p is not 8-byte aligned", (void *)out_indices);
    if (p->backend == DRTOPK_BACKEND_CPU)
        return drtopk_cpu_batch_select(p, plan, workspace, workspace_bytes, out_values, out_indices);
    drtopk_plan row;
    drtopk_batch_plan inner, own;
    plan = cuda_settled(p, plan, &own);
    const int det = cuda_deterministic(p, plan, &inner), after = !det && cuda_sorts_after(p, plan, &inner);
    if ((st = drtopk_plan_batch_rows(&row, p, det || after ? &inner : plan)) != DRTOPK_OK) return st;
    if (!det && !after)
        return drtopk_cuda_batch_select(p, plan, &row, workspace, workspace_bytes, out_values, out_indices, stream);
    size_t first = 0;
    if ((st = drtopk_cuda_batch_workspace(p, &inner, &row, &first)) != DRTOPK_OK) return st;
    first = det_align(first);
    if (workspace == NULL || workspace_bytes < first)
        return drtopk_workspace_too_small(workspace, workspace_bytes, first);
    if ((st = drtopk_cuda_batch_select(p, &inner, &row, workspace, first, out_values, out_indices, stream)) !=
        DRTOPK_OK)
        return st;
    if (after)
        return drtopk_cuda_batch_sort(p, (char *)workspace + first, workspace_bytes - first, out_values, out_indices,
                                      stream);
    return drtopk_cuda_det_batch_fix(p, (plan->flags & DRTOPK_SORTED) != 0, (char *)workspace + first,
                                     workspace_bytes - first, out_values, out_indices, stream);
}

drtopk_status drtopk_batch_topk(const drtopk_batch_problem *p, drtopk_batch_plan *plan, unsigned flags,
                                void *workspace, size_t *workspace_bytes, void *out_values, uint64_t *out_indices,
                                void *stream)
{
    drtopk_status st;
    drtopk_error_clear();
    if (plan == NULL || workspace_bytes == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_batch_topk: %s is NULL", plan ? "workspace_bytes" : "plan");
    if (plan->staged_max_len == 0) {
        if ((st = drtopk_batch_plan_auto(plan, p)) != DRTOPK_OK) return st;
        plan->flags = flags;
        if ((st = drtopk_batch_workspace(p, plan, workspace_bytes)) != DRTOPK_OK) {
            memset(plan, 0, sizeof *plan);        /* the next call plans again */
            return st;
        }
    }
    if (workspace == NULL) return DRTOPK_OK;
    return drtopk_batch_select(p, plan, workspace, *workspace_bytes, out_values, out_indices, stream);
}
