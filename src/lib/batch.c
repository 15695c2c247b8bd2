/*
 * batch.c -- the public entry points of batched and segmented top-k
 * (drtopk.h, drtopk_batch_*): the default plan (the crossovers between the
 * warp queue, the staged and split radix selects and the Dr. Top-k pipeline
 * of paper sections 4-5), and the validation both phases share before the problem
 * goes to the CPU backend (cpu_batch.c) or the CUDA one
 * (kernels/batch_topk.cu).  Every failing check says which input was wrong.
 */
#include "drtopk.h"
#include "backend.h"
#include "tuning.h"

#include <inttypes.h>
#include <string.h>

#define FAIL(st, ...) (drtopk_error_set(__VA_ARGS__), (st))

/* Default crossovers, where the tuner has not measured the GPU (tuner
 * --batch): the staged radix select (one read of a segment into shared
 * memory, a warp or a block per segment) beats the warp queue, which pays a
 * merge per 32 candidates, at every k the workloads of issue 16 have, so the
 * default leaves the queue off (a plan may still ask for it up to
 * DRTOPK_WARP_K_MAX). */
#define BATCH_WARP_MAX_K 0              /* the warp queue off */
#define BATCH_WARP_MAX_LEN (1ull << 15) /* where a plan turns it on: one warp streams up to 128 KB of f32 */
#define BATCH_BLOCK_MAX_LEN (1ull << 20) /* past 4 MB of f32 a row feeds a whole GPU */
/* Variable segments longer than 2^20 keys (4 MB of f32: past what the 50 MB
 * L2 of an H100 keeps for a few of them, so every pass of the split select
 * reads DRAM) run the Dr. Top-k pipeline: one read of the segment and at most
 * k 2^alpha keys again against 4 reads (32-bit keys; 8 for 64-bit) of the
 * split select (kernels/batch_dr.cuh). */
#define BATCH_DR_MIN_LEN (1ull << 20)
#define BATCH_TINY_MAX_K 16             /* up to 16 rounds of a warp arg-max beat a radix select */
/* 64-bit keys: the same defaults where no GPU was measured (the H200 shows
 * both crossovers lower for them: tuner --batch sets them per GPU). */
#define BATCH_TINY_MAX_K_64 BATCH_TINY_MAX_K
#define BATCH_BLOCK_MAX_LEN_64 BATCH_BLOCK_MAX_LEN
#define BATCH_STAGED_MAX_LEN DRTOPK_BATCH_STAGED_MAX_LEN /* stage whatever shared memory holds */
#define BATCH_INDEX_ALIGN 8             /* uint64 offsets, ks and positions */

int drtopk_batch_plan_for_gpu(drtopk_batch_plan *plan, const drtopk_batch_tuning *tables, size_t count,
                              const char *gpu_name)
{
    for (size_t i = 0; gpu_name != NULL && tables != NULL && i < count; ++i)
        if (tables[i].gpu_name != NULL && strcmp(tables[i].gpu_name, gpu_name) == 0) {
            *plan = tables[i].plan;
            return 1;
        }
    memset(plan, 0, sizeof *plan);
    plan->warp_max_k = BATCH_WARP_MAX_K;
    plan->warp_max_len = BATCH_WARP_MAX_LEN;
    plan->block_max_len = BATCH_BLOCK_MAX_LEN;
    plan->tiny_max_k = BATCH_TINY_MAX_K;
    plan->tiny_max_k_64 = BATCH_TINY_MAX_K_64;
    plan->block_max_len_64 = BATCH_BLOCK_MAX_LEN_64;
    plan->staged_max_len = BATCH_STAGED_MAX_LEN;
    plan->dr_min_len = BATCH_DR_MIN_LEN;
    return 0;
}

int drtopk_batch_wide_keys(drtopk_dtype t) { return drtopk_dtype_size(t) > sizeof(uint32_t); }

drtopk_status drtopk_batch_plan_auto(drtopk_batch_plan *plan, const drtopk_batch_problem *p)
{
    char name[DRTOPK_GPU_NAME_LEN];
    const char *gpu = NULL;
    drtopk_error_clear();
    if (plan == NULL || p == NULL)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_batch_plan_auto: %s is NULL", plan ? "the problem" : "plan");
    /* no usable GPU: the defaults, and the select call reports it */
    if (p->backend == DRTOPK_BACKEND_CUDA && drtopk_builtin_batch_tuning_count > 0) {
        if (drtopk_cuda_gpu_name(name, sizeof name) == DRTOPK_OK) gpu = name;
        else drtopk_error_clear();
    }
    drtopk_batch_plan_for_gpu(plan, drtopk_builtin_batch_tunings, drtopk_builtin_batch_tuning_count, gpu);
    return DRTOPK_OK;
}

static int aligned(const void *ptr, uintptr_t a) { return ((uintptr_t)ptr & (a - 1)) == 0; }

/* Checks of the problem and plan shared by both phases; `need_data` is 0 for
 * the workspace query, which accepts NULL data pointers. */
static drtopk_status check_batch(const drtopk_batch_problem *p, const drtopk_batch_plan *plan, int need_data)
{
    if (p == NULL || plan == NULL) return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "%s is NULL", p ? "the plan" : "the problem");
    drtopk_status st;
    if ((st = drtopk_check_enums(p->dtype, p->order, p->backend)) != DRTOPK_OK) return st;
    if (plan->flags & ~(unsigned)DRTOPK_SORTED)
        return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "plan->flags = 0x%x: a batch plan takes only DRTOPK_SORTED",
                    plan->flags);
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
    return DRTOPK_OK;
}

drtopk_status drtopk_batch_workspace(const drtopk_batch_problem *p, const drtopk_batch_plan *plan, size_t *bytes)
{
    drtopk_status st;
    drtopk_error_clear();
    if (bytes == NULL) return FAIL(DRTOPK_ERR_INVALID_ARGUMENT, "drtopk_batch_workspace: bytes is NULL");
    if ((st = check_batch(p, plan, 0)) != DRTOPK_OK) return st;
    return p->backend == DRTOPK_BACKEND_CPU ? drtopk_cpu_batch_workspace(p, bytes)
                                            : drtopk_cuda_batch_workspace(p, plan, bytes);
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
    return drtopk_cuda_batch_select(p, plan, workspace, workspace_bytes, out_values, out_indices, stream);
}
