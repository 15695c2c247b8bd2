/*
 * cuda_stub.c -- the CUDA backend of a --cpu-only library (backend.h): every
 * entry point reports DRTOPK_ERR_NO_BACKEND, so a program linked against it
 * runs its CPU paths unchanged and says clearly why a GPU request failed.
 */
#include "backend.h"

#define NO_CUDA_MESSAGE "this drtopk library was built with --cpu-only (no CUDA backend)"

int drtopk_cuda_usable(const char **why)
{
    *why = NO_CUDA_MESSAGE "; rebuild without --cpu-only to use a GPU";
    return 0;
}

drtopk_status drtopk_cuda_workspace(const drtopk_problem *p, const drtopk_plan *plan, size_t *bytes)
{
    drtopk_error_set(NO_CUDA_MESSAGE);
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status drtopk_cuda_select(const drtopk_problem *p, const drtopk_plan *plan,
                                 void *ws, size_t ws_bytes, void *out_values,
                                 uint64_t *out_indices, void *stream, drtopk_stats *stats)
{
    drtopk_error_set(NO_CUDA_MESSAGE);
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status drtopk_cuda_select_settled(const drtopk_problem *p, const drtopk_plan *plan, void *ws,
                                         size_t ws_bytes, void *out_values, uint64_t *out_indices, void *stream,
                                         drtopk_stats *stats, int *d_settled)
{
    drtopk_error_set(NO_CUDA_MESSAGE);
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status drtopk_cuda_det_batch_workspace(const drtopk_batch_problem *p, int sorted, size_t *bytes)
{
    drtopk_error_set(NO_CUDA_MESSAGE);
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status drtopk_cuda_det_batch_fix(const drtopk_batch_problem *p, int sorted, void *ws, size_t ws_bytes,
                                        void *out_values, uint64_t *out_indices, void *stream)
{
    drtopk_error_set(NO_CUDA_MESSAGE);
    return DRTOPK_ERR_NO_BACKEND;
}

int drtopk_cuda_batch_sorts_itself(const drtopk_batch_problem *p, const drtopk_batch_plan *plan) { return 1; }

int drtopk_cuda_batch_settles(const drtopk_batch_problem *p, const drtopk_batch_plan *plan) { return 0; }

drtopk_status drtopk_cuda_batch_sort_workspace(const drtopk_batch_problem *p, size_t *bytes)
{
    drtopk_error_set(NO_CUDA_MESSAGE);
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status drtopk_cuda_batch_sort(const drtopk_batch_problem *p, void *ws, size_t ws_bytes, void *out_values,
                                     uint64_t *out_indices, void *stream)
{
    drtopk_error_set(NO_CUDA_MESSAGE);
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status drtopk_cuda_det_workspace(const drtopk_problem *p, int sorted, size_t *bytes)
{
    drtopk_error_set(NO_CUDA_MESSAGE);
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status drtopk_cuda_det_begin(const drtopk_problem *p, int sorted, void *ws, size_t ws_bytes, void *stream,
                                    int **d_settled)
{
    drtopk_error_set(NO_CUDA_MESSAGE);
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status drtopk_cuda_det_fix(const drtopk_problem *p, int sorted, void *ws, size_t ws_bytes, void *out_values,
                                  uint64_t *out_indices, void *stream, float *ms)
{
    drtopk_error_set(NO_CUDA_MESSAGE);
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status drtopk_cuda_fused_reads_once(drtopk_dtype t, uint64_t n, uint64_t k, int *once)
{
    drtopk_error_set(NO_CUDA_MESSAGE);
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status drtopk_cuda_gpu_name(char *name, size_t len)
{
    drtopk_error_set(NO_CUDA_MESSAGE);
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status drtopk_cuda_batch_workspace(const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                                          const drtopk_plan *row_plan, size_t *bytes)
{
    drtopk_error_set(NO_CUDA_MESSAGE);
    return DRTOPK_ERR_NO_BACKEND;
}

drtopk_status drtopk_cuda_batch_select(const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                                       const drtopk_plan *row_plan, void *ws, size_t ws_bytes, void *out_values,
                                       uint64_t *out_indices, void *stream)
{
    drtopk_error_set(NO_CUDA_MESSAGE);
    return DRTOPK_ERR_NO_BACKEND;
}
