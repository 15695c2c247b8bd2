/*
 * radix_ggks.cu -- GGKS radix top-k, the state-of-the-art baseline of paper
 * section 2.2 II (Alabi et al., "Fast k-selection algorithms for GPUs"),
 * revised from k-selection into top-k as paper 5.1 describes: MSD-first 8-bit
 * digits, one histogram per digit, keep the bucket of the k-th, then one pass
 * that collects every key > T and the needed ties == T.
 *
 * Two variants (DRTOPK_ALGO_RADIX_GGKS_OOP and DRTOPK_ALGO_RADIX_GGKS):
 *  - out of place: each pass copies the candidates of the bucket of interest
 *    into a new buffer (ping-pong), histogramming the next digit while copying;
 *  - in place (the reference of paper Figure 12): the ineligible elements of a
 *    working array are overwritten with a value outside the range of interest
 *    (paper 5.1: "modify the ineligible element into a value out of range"),
 *    and every pass re-reads the whole array.
 * Deviations, and why: the input of a top-k is read-only here (the delegate
 * vector and V belong to the caller), so the in-place variant works on a
 * workspace copy of the ordered keys made by its first pass; the overwrite of
 * pass p is fused with the histogram of digit p (one read per pass instead of
 * two), and the last pass writes nothing since nothing reads the array after
 * it.  The out-of-place copies carry keys only: positions come from the final
 * collection pass over the input.  skip_last_digit is ignored (exact k and T).
 */
#include "select_common.cuh"
#include "baselines.h"

#define GGKS_FIRST_DIGIT_MASK 0xFF000000u /* digit fixed by pass 0 */

/* In-place pass p >= 1: histogram the keys still inside [lo, hi]; overwrite
 * the others (unless already overwritten) with a key outside every later
 * interval: the top bit flipped changes the first digit, fixed after pass 0. */
template <bool WRITE>
__global__ void __launch_bounds__(SEL_BLOCK, SEL_BLOCKS_PER_SM) ggks_inplace_pass(uint32_t *wk, const uint64_t *d_n, uint64_t n_max,
                                                               sel_state *st)
{
    __shared__ sel_smem_hist sh;
    if (st->done) return;
    const uint64_t n = d_n ? *d_n : n_max;
    const unsigned lo = st->lo, hi = st->hi, shift = st->shift;
    const uint32_t sentinel = (lo & GGKS_FIRST_DIGIT_MASK) ^ DRTOPK_SIGN_BIT;
    sel_hist_clear(sh);
    unsigned *h = sh.h[threadIdx.x / DRTOPK_WARP];
    for (uint64_t t = (uint64_t)blockIdx.x * SEL_TILE; t < n; t += (uint64_t)gridDim.x * SEL_TILE) {
        uint32_t key[SEL_ITEMS];
#pragma unroll
        for (int j = 0; j < SEL_ITEMS; ++j) {
            uint64_t i = t + j * SEL_BLOCK + threadIdx.x;
            key[j] = i < n ? wk[i] : sentinel;
        }
#pragma unroll
        for (int j = 0; j < SEL_ITEMS; ++j) {
            uint64_t i = t + j * SEL_BLOCK + threadIdx.x;
            if (key[j] >= lo && key[j] <= hi)
                atomicAdd(&h[sel_bin<true>(key[j], lo, shift, 0)], 1u);
            else if (WRITE && key[j] != sentinel && i < n)
                wk[i] = sentinel;
        }
    }
    sel_hist_flush(sh, st);
}

/* What GGKS radix adds to the selection runner (select_common.cuh): digit
 * bins; in place, a working copy of the ordered keys, written by the first
 * histogram, that every later pass overwrites (the last one only reads). */
struct ggks_policy {
    static const bool radix = true;
    static const int inplace_buffers = 1;

    template <int SRC, int DT, bool IN_PLACE>
    static drtopk_status start(const topk_input *in, sel_state *st, uint32_t *wk, unsigned blocks, cudaStream_t s)
    {
        sel_hist_src<SRC, DT, true, IN_PLACE><<<blocks, SEL_BLOCK, 0, s>>>(*in, st, wk);
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }

    template <int SRC, int DT>
    static drtopk_status inplace_pass(const topk_input *in, sel_state *st, uint32_t *wk, int p, unsigned blocks,
                                      cudaStream_t s)
    {
        if (p + 1 < SEL_PASSES)
            ggks_inplace_pass<true><<<blocks, SEL_BLOCK, 0, s>>>(wk, in->d_n, in->n_max, st);
        else
            ggks_inplace_pass<false><<<blocks, SEL_BLOCK, 0, s>>>(wk, in->d_n, in->n_max, st);
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
};

/* in place: the state and one key buffer the passes overwrite */
SEL_EXPORT(radix_ggks_topk, ggks_policy, true)
/* out of place: the state and two candidate buffers */
SEL_EXPORT(radix_ggks_oop_topk, ggks_policy, false)
