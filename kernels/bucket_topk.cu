/*
 * bucket_topk.cu -- bucket top-k after GGKS bucket select, the baseline of
 * paper section 2.2 I (Alabi et al., "Fast k-selection algorithms for GPUs"),
 * revised into top-k (paper 5.1): a min/max reduction, SEL_BINS equal-width
 * buckets over [min, max], keep the bucket that holds the k-th largest key and
 * split it again until it is one key wide, then collect every key > T and the
 * needed ties == T.  Slow on the CD distribution by design (most keys stay in
 * the bucket of interest at every iteration: paper Figure 4).
 *
 * Two variants (DRTOPK_ALGO_BUCKET and DRTOPK_ALGO_BUCKET_OOP):
 *  - in place: every iteration re-reads the input and counts only the keys
 *    inside the current bucket range (the range test marks the ineligible keys,
 *    so nothing is written: the input is read-only and needs no copy);
 *  - out of place: every iteration copies the candidates of the bucket of
 *    interest into a new buffer, histogramming the next split on the way.
 * Deviations, and why: buckets are computed on the 32-bit ordered keys with an
 * exact integer multiply-shift, bin = (key - lo) * floor(256 * 2^32 / range)
 * >> 32, not with a float slope, so each bucket is an exact key interval and
 * a split narrows a range r to at most ceil(2^32 / floor(2^40 / r)) keys:
 * 2^32 -> 2^24 -> 2^16 -> 2^8 -> 1.  The iteration cap SEL_PASSES = 4 is thus
 * a proven bound, reached only when the range still spans many keys, and no
 * fallback can be needed; equal min and max (all-equal input) ends the loop at
 * once.  The host enqueues the fixed sequence; kernels of iterations that are
 * not needed return at once (device-side early exit).  GGKS tunes the bucket
 * count; we use 256 (one 8-bit digit per split, like the radix baseline).
 */
#include "select_common.cuh"
#include "baselines.h"

/* Min and max ordered key of the input: warp shuffles, one atomic per block. */
template <int SRC, int DT>
__global__ void __launch_bounds__(SEL_BLOCK, SEL_BLOCKS_PER_SM) bucket_minmax(topk_input in, sel_state *st)
{
    __shared__ unsigned wmin[SEL_WARPS], wmax[SEL_WARPS];
    const uint64_t n = sel_len(in);
    unsigned mn = UINT32_MAX, mx = 0;
    for (uint64_t t = (uint64_t)blockIdx.x * SEL_TILE; t < n; t += (uint64_t)gridDim.x * SEL_TILE) {
        uint32_t key[SEL_ITEMS];
#pragma unroll
        for (int j = 0; j < SEL_ITEMS; ++j) {
            uint64_t i = t + j * SEL_BLOCK + threadIdx.x;
            key[j] = i < n ? sel_key<SRC, DT>(in, i) : 0;
        }
#pragma unroll
        for (int j = 0; j < SEL_ITEMS; ++j)
            if (t + j * SEL_BLOCK + threadIdx.x < n) {
                mn = min(mn, key[j]);
                mx = max(mx, key[j]);
            }
    }
    for (int o = DRTOPK_WARP / 2; o > 0; o /= 2) {
        mn = min(mn, __shfl_xor_sync(DRTOPK_FULL_MASK, mn, o));
        mx = max(mx, __shfl_xor_sync(DRTOPK_FULL_MASK, mx, o));
    }
    if (threadIdx.x % DRTOPK_WARP == 0) {
        wmin[threadIdx.x / DRTOPK_WARP] = mn;
        wmax[threadIdx.x / DRTOPK_WARP] = mx;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < SEL_WARPS; ++w) {
            mn = min(mn, wmin[w]);
            mx = max(mx, wmax[w]);
        }
        atomicMin(&st->mn, mn);
        atomicMax(&st->mx, mx);
    }
}

/* The first range is [min, max]; min == max (all equal) is the answer. */
__global__ void bucket_range_init(sel_state *st)
{
    st->lo = st->mn;
    st->hi = st->mx;
    unsigned long long range = (unsigned long long)(st->mx - st->mn) + 1;
    st->scale = ((unsigned long long)SEL_BINS << DRTOPK_KEY_BITS) / range;
    if (st->mn == st->mx) st->done = 1;
}

/* What bucket top-k adds to the selection runner (select_common.cuh):
 * equal-width buckets over [min, max] found by a reduction first; in place,
 * every pass re-reads the input (no working copy). */
struct bucket_policy {
    static const bool radix = false;
    static const int inplace_buffers = 0;

    template <int SRC, int DT, bool IN_PLACE>
    static drtopk_status start(const topk_input *in, sel_state *st, uint32_t *, unsigned blocks, cudaStream_t s)
    {
        bucket_minmax<SRC, DT><<<blocks, SEL_BLOCK, 0, s>>>(*in, st);
        DRTOPK_LAUNCH_CHECK();
        bucket_range_init<<<1, 1, 0, s>>>(st);
        DRTOPK_LAUNCH_CHECK();
        return inplace_pass<SRC, DT>(in, st, NULL, 0, blocks, s); /* the histogram of [min, max] */
    }

    template <int SRC, int DT>
    static drtopk_status inplace_pass(const topk_input *in, sel_state *st, uint32_t *, int, unsigned blocks,
                                      cudaStream_t s)
    {
        sel_hist_src<SRC, DT, false, false><<<blocks, SEL_BLOCK, 0, s>>>(*in, st, NULL);
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
};

/* in place: the state only (the passes read the source again) */
SEL_EXPORT(bucket_topk, bucket_policy, true)
/* out of place: the state and two candidate buffers */
SEL_EXPORT(bucket_oop_topk, bucket_policy, false)
