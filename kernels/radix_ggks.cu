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
    unsigned *h = sh.h[threadIdx.x / SEL_WARP];
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

static size_t ggks_state_bytes(void) { return sel_align_up(sizeof(sel_state)); }

template <int SRC, int DT, class P>
static drtopk_status ggks_inplace_run(const topk_input *in, const topk_output *out, void *ws, cudaStream_t s)
{
    unsigned blocks;
    drtopk_status rc = sel_grid(in->n_max, &blocks);
    if (rc != DRTOPK_OK) return rc;
    sel_state *st = (sel_state *)ws;
    uint32_t *wk = (uint32_t *)((char *)ws + ggks_state_bytes());
    sel_init<<<1, SEL_BINS, 0, s>>>(st, in->k);
    DRTOPK_LAUNCH_CHECK();
    sel_hist_src<SRC, DT, true, true><<<blocks, SEL_BLOCK, 0, s>>>(*in, st, wk);
    DRTOPK_LAUNCH_CHECK();
    sel_pick<true><<<1, 1, 0, s>>>(st, 0);
    DRTOPK_LAUNCH_CHECK();
    for (int p = 1; p < SEL_PASSES; ++p) {
        if (p + 1 < SEL_PASSES)
            ggks_inplace_pass<true><<<blocks, SEL_BLOCK, 0, s>>>(wk, in->d_n, in->n_max, st);
        else
            ggks_inplace_pass<false><<<blocks, SEL_BLOCK, 0, s>>>(wk, in->d_n, in->n_max, st);
        DRTOPK_LAUNCH_CHECK();
        sel_pick<true><<<1, 1, 0, s>>>(st, p);
        DRTOPK_LAUNCH_CHECK();
    }
    sel_collect<SRC, DT, P><<<blocks, SEL_BLOCK, 0, s>>>(*in, *out, st);
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

template <int SRC, int DT, class P>
static drtopk_status ggks_oop_run(const topk_input *in, const topk_output *out, void *ws, cudaStream_t s)
{
    unsigned blocks;
    drtopk_status rc = sel_grid(in->n_max, &blocks);
    if (rc != DRTOPK_OK) return rc;
    sel_state *st = (sel_state *)ws;
    uint32_t *buf[2];
    buf[0] = (uint32_t *)((char *)ws + ggks_state_bytes());
    buf[1] = (uint32_t *)((char *)buf[0] + sel_align_up(in->n_max * sizeof(uint32_t)));
    sel_init<<<1, SEL_BINS, 0, s>>>(st, in->k);
    DRTOPK_LAUNCH_CHECK();
    sel_hist_src<SRC, DT, true, false><<<blocks, SEL_BLOCK, 0, s>>>(*in, st, NULL);
    DRTOPK_LAUNCH_CHECK();
    sel_pick<true><<<1, 1, 0, s>>>(st, 0);
    DRTOPK_LAUNCH_CHECK();
    for (int p = 1; p < SEL_PASSES; ++p) {
        /* copy the candidates of pick p-1 (histogramming digit p), then pick p */
        if (p == 1)
            sel_copy<SRC, DT, true, true><<<blocks, SEL_BLOCK, 0, s>>>(*in, st, NULL, NULL, buf[0]);
        else
            sel_copy<SRC, DT, true, false><<<blocks, SEL_BLOCK, 0, s>>>(*in, st, buf[p % 2], &st->cand_len[p - 2],
                                                                        buf[(p + 1) % 2]);
        DRTOPK_LAUNCH_CHECK();
        sel_pick<true><<<1, 1, 0, s>>>(st, p);
        DRTOPK_LAUNCH_CHECK();
    }
    sel_collect<SRC, DT, P><<<blocks, SEL_BLOCK, 0, s>>>(*in, *out, st);
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

/* in place: the state and one key buffer the passes overwrite */
SEL_EXPORT(radix_ggks_topk, ggks_state_bytes() + sel_align_up(in->n_max * sizeof(uint32_t)), ggks_inplace_run)
/* out of place: the state and two candidate buffers */
SEL_EXPORT(radix_ggks_oop_topk, ggks_state_bytes() + 2 * sel_align_up(in->n_max * sizeof(uint32_t)), ggks_oop_run)
