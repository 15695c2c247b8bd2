/*
 * key_width.h -- keys of 16 and 64 bits on the CUDA backend and the gather of
 * the result's values for every element width (key_width.cu says how each
 * width runs; paper section 5.1's ordered keys, keyorder.h).
 */
#ifndef DRTOPK_KEY_WIDTH_H
#define DRTOPK_KEY_WIDTH_H
#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* keys[i] = the 16-bit ordered key of V[i] (f16 or bf16, order o),
 * zero-extended: a u32 vector whose largest order is the selection's. */
drtopk_status key_widen16(const void *v, uint64_t n, drtopk_dtype t, drtopk_order o, uint32_t *keys,
                          cudaStream_t s);

/* out_v[j] = V[pos[j]] (elements of t), out_i[j] = pos[j], j < k. */
drtopk_status key_gather(const void *v, drtopk_dtype t, const void *pos, int pos64, uint64_t k, void *out_v,
                         uint64_t *out_i, cudaStream_t s);

/* 64-bit keys: DRTOPK_ERR_UNSUPPORTED, with the message, unless the plan is
 * standalone radix, onepass or sort-cub; the workspace; the selection (an
 * unsorted onepass one sets d_settled as topk_input.d_settled says; NULL:
 * none); and, after it, the workload statistics of onepass (synchronises on
 * s; nothing for the other plans). */
drtopk_status key64_plan_check(const drtopk_problem *p, const drtopk_plan *plan);
drtopk_status key64_workspace(const drtopk_problem *p, const drtopk_plan *plan, size_t *bytes);
drtopk_status key64_select(const drtopk_problem *p, const drtopk_plan *plan, void *ws, size_t ws_bytes,
                           void *out_values, uint64_t *out_indices, cudaStream_t s, int *d_settled);
drtopk_status key64_stats(const drtopk_problem *p, const drtopk_plan *plan, void *ws, size_t ws_bytes,
                          cudaStream_t s, drtopk_stats *stats);

/* CUB's descending radix sort of n (uint64 key, uint64 value) pairs on the
 * key's bits [0, end_bit), stable: the one instantiation of it in the
 * library, which the 64-bit sorted plans and the deterministic result
 * (deterministic.cu) share.  tmp NULL: *tmp_bytes gets the size it needs. */
drtopk_status key_sort_pairs_desc(void *tmp, size_t *tmp_bytes, const uint64_t *keys_in, uint64_t *keys_out,
                                  const uint64_t *vals_in, uint64_t *vals_out, uint64_t n, int end_bit,
                                  cudaStream_t s);

/* CUB's descending radix sort of n uint64 keys alone on their bits [0,
 * end_bit): the deterministic result's sort where a key and its position
 * fit one word (deterministic.cu).  tmp NULL: *tmp_bytes gets the size. */
drtopk_status key_sort_keys_desc(void *tmp, size_t *tmp_bytes, const uint64_t *keys_in, uint64_t *keys_out,
                                 uint64_t n, int end_bit, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
