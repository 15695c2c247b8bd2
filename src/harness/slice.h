/*
 * slice.h -- the MPI-free arithmetic of multi-GPU Dr. Top-k (paper section
 * 5.4, Table 2): V split into disjoint contiguous slices (n need not divide by
 * the rank count; 64-bit everywhere, |V| past 2^34), a rank's slice read from
 * a raw file and a checksum of sampled blocks of it (so ranks can tell they
 * read the same file), the binomial reduction tree over ranks, and the exact
 * merge of two top-k lists (values of any key width + global positions): the
 * host half, which the CPU backend runs; the GPU runs the same steps in
 * topk_list_cuda.cu (topk_list.h).
 *
 * A top-k list here is "canonical": best first, and equal values by smaller
 * global position first.  Merging two canonical lists keeps the canonical
 * order, so the reduction's result does not depend on message arrival order.
 */
#ifndef DRTOPK_SLICE_H
#define DRTOPK_SLICE_H
#include <stddef.h>
#include <stdint.h>
#include "drtopk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Slice r of `parts` (0 <= r < parts): [*first, *first + *count).  The first
 * n % parts slices hold one element more than the others. */
void drtopk_slice(uint64_t n, uint64_t parts, uint64_t r, uint64_t *first, uint64_t *count);

/* Reduction tree: at step `step` (1, 2, 4, ...) rank r sends its list to
 * r - step when r % (2 step) == step; it receives from r + step when
 * r % (2 step) == 0 and r + step < ranks.  Returns the peer, or -1 when r
 * takes no part in this step. */
int64_t drtopk_tree_peer(uint64_t ranks, uint64_t r, uint64_t step, int *sends);
/* Elements of V below rank r's subtree after all steps smaller than `step`
 * (the ranks r .. r + step - 1 that exist): how long r's list is, min(k, it). */
uint64_t drtopk_tree_span(uint64_t n, uint64_t ranks, uint64_t r, uint64_t step);

/* Number of elem_size elements in a raw file (size checks as drtopk_read_raw). */
drtopk_status drtopk_raw_count(const char *path, size_t elem_size, uint64_t *n, char *err, size_t err_len);
/* Read elements first .. first + count - 1 of a raw little-endian file into
 * buf (count * elem_size bytes). */
drtopk_status drtopk_read_raw_slice(const char *path, size_t elem_size, uint64_t first, uint64_t count,
                                    void *buf, char *err, size_t err_len);

/* A 64-bit checksum (FNV-1a) of the file's size and of `blocks` blocks of
 * `block_bytes` spread evenly over it, the first and the last included (the
 * whole file when it is shorter than that): ranks that read one path on
 * different nodes compare it before they trust their slices. */
drtopk_status drtopk_raw_sample_sum(const char *path, unsigned blocks, size_t block_bytes, uint64_t *sum,
                                    char *err, size_t err_len);

/* Sort a list (n values of dtype t, any width; uint64 positions) into
 * canonical order. */
drtopk_status drtopk_topk_canon(drtopk_dtype t, drtopk_order o, void *vals, uint64_t *pos, uint64_t n);
/* Merge canonical lists a (na) and b (nb) into the first min(k, na + nb) of
 * out_vals / out_pos (canonical); returns that length.  out must not alias. */
uint64_t drtopk_topk_merge(drtopk_dtype t, drtopk_order o, uint64_t k, const void *av, const uint64_t *ap,
                           uint64_t na, const void *bv, const uint64_t *bp, uint64_t nb, void *out_vals,
                           uint64_t *out_pos);

#ifdef __cplusplus
}
#endif
#endif
