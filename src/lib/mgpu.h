/*
 * mgpu.h -- the MPI-free arithmetic of multi-GPU Dr. Top-k (paper section
 * 5.4, Table 2): V split into disjoint contiguous slices (n need not divide by
 * the rank count; 64-bit everywhere, |V| past 2^34) and the host half of the
 * ranks' exchange: the radix select of the global k-th key over their local
 * lists and the compaction of what each rank sends (values of any key width +
 * global positions), which the CPU backend runs; the GPU runs the same steps
 * in kernels/topk_list.cu (topk_list.h).  The program moves the lists and
 * adds the histograms (MPI); reading a rank's slice of a file is the
 * harness's (src/harness/slice.h).
 *
 * A module of the library, internal (not in drtopk.h, hidden symbols): it
 * calls only the public API, so the programs that use it link its archive
 * (build/lib/modules_$backend.a, build.ninja) beside libdrtopk.so.
 *
 * A "canonical" top-k list is best first, equal values by smaller global
 * position first (drtopk_topk_canon: --sorted on the CPU backend).
 */
#ifndef DRTOPK_MGPU_H
#define DRTOPK_MGPU_H
#include <stdint.h>
#include "drtopk.h"
#include "keyorder.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Slice r of `parts` (0 <= r < parts): [*first, *first + *count).  The first
 * n % parts slices hold one element more than the others. */
void drtopk_slice(uint64_t n, uint64_t parts, uint64_t r, uint64_t *first, uint64_t *count);

/* Sort a list (n values of dtype t, any width; uint64 positions) into
 * canonical order. */
drtopk_status drtopk_topk_canon(drtopk_dtype t, drtopk_order o, void *vals, uint64_t *pos, uint64_t n);
/* ---- how the ranks agree on the result ----------------------------------
 * Either rank 0 gathers every rank's whole local list (at most `list_len`
 * elements each) and selects the k best of the union itself, or the ranks
 * find the global k-th key by the radix rounds below and send only what lies
 * above it (about k elements in all).  drtopk_mgpu_gather_all: whether the
 * first, for `ranks` lists of dtype t with uint64 positions, moved GPU to
 * GPU (ipc: every sender's edge to rank 0 is CUDA IPC) or through MPI
 * (policy.h, POLICY_MGPU_GATHER_ALL_*).  One rank gathers nothing. */
int drtopk_mgpu_gather_all(uint64_t list_len, int ranks, drtopk_dtype t, int ipc);

/* ---- the ranks' global k-th key: a radix select over the union of their lists
 * Each rank holds its local top min(k, slice) (any order).  Round r (0, 1,
 * ...) of drtopk_radix_rounds(t) takes the digit of DRTOPK_RADIX_BITS bits
 * at drtopk_radix_shift(t, r) of the ordered key (keyorder.h: larger is
 * better), among the keys whose higher bits equal the prefix fixed so far;
 * the ranks add their histograms, and every rank picks the same digit with
 * drtopk_radix_pick.  After the last round the prefix is the global k-th key
 * T; the keys above it are all taken, and of the keys equal to it exactly as
 * many as k still needs, the ranks' ties counted in rank order. */
#define DRTOPK_RADIX_BITS 8                     /* a 256-bin histogram: 2, 4 or 8 rounds by key width */
#define DRTOPK_RADIX_BINS (1u << DRTOPK_RADIX_BITS)
static inline int drtopk_radix_rounds(drtopk_dtype t) { return drtopk_dtype_bits(t) / DRTOPK_RADIX_BITS; }
static inline int drtopk_radix_shift(drtopk_dtype t, int round)
{
    return drtopk_dtype_bits(t) - DRTOPK_RADIX_BITS * (round + 1);
}
/* The bits of the ordered key above the digit at `shift`: the prefix the earlier rounds fixed. */
static inline uint64_t drtopk_radix_prefix_mask(drtopk_dtype t, int shift)
{
    return drtopk_width_mask(drtopk_dtype_bits(t)) & ~drtopk_width_mask(shift + DRTOPK_RADIX_BITS);
}

/* hist[d] += the number of vals (n of dtype t) whose ordered key has the bits
 * above `shift` + DRTOPK_RADIX_BITS equal to those of prefix and digit d at
 * `shift` (hist holds DRTOPK_RADIX_BINS counters). */
void drtopk_key_hist(const void *vals, uint64_t n, drtopk_dtype t, drtopk_order o, uint64_t prefix, int shift,
                     uint64_t *hist);
/* The best digit d at which the keys of the better digits plus hist[d] reach
 * `need` (1 <= need <= the sum of hist); *above gets the count in the better
 * digits. */
unsigned drtopk_radix_pick(const uint64_t *hist, uint64_t need, uint64_t *above);
/* Every element of vals (n, any order) whose ordered key is above thr, and
 * the first `ties` (in list order) equal to it, into out_vals / out_pos, each
 * position plus `first`; returns how many.  out must not alias. */
uint64_t drtopk_key_compact(const void *vals, const uint64_t *pos, uint64_t n, drtopk_dtype t, drtopk_order o,
                            uint64_t thr, uint64_t ties, uint64_t first, void *out_vals, uint64_t *out_pos);

#ifdef __cplusplus
}
#endif
#endif
