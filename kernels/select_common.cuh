/*
 * select_common.cuh -- the shared engine of the GGKS-style selection baselines
 * (paper section 2.2 I and II: bucket and radix top-k after Alabi et al.,
 * "Fast k-selection algorithms for GPUs"), used by radix_ggks.cu and
 * bucket_topk.cu.
 *
 * Both algorithms keep an interval [lo, hi] of ordered keys that holds the k-th
 * largest key, split it into SEL_BINS buckets, histogram the candidates, and
 * keep the bucket holding the k-th.  Radix buckets are 8-bit digits (bin =
 * key >> shift); bucket top-k splits [min, max] into equal-width buckets with
 * an exact integer multiply-shift (bin = (key - lo) * scale >> 32).  When the
 * interval shrinks to one key, that key is the threshold T and k_rem is how
 * many of the ties at T belong to the top-k; a last pass over the input then
 * collects every key > T and k_rem keys == T (the "revise k-selection into
 * top-k" step of paper 5.1).  Every decision stays on the device: the host
 * enqueues a fixed number of passes and each kernel returns at once when the
 * state says the selection is done.
 *
 * One runner (sel_runner) serves both algorithms in place and out of place:
 * out of place, every pass copies the candidates into a new buffer; in place,
 * every pass re-reads the input or a working copy, as the algorithm's policy
 * class says (sel_runner's comment).
 */
#ifndef DRTOPK_SELECT_COMMON_CUH
#define DRTOPK_SELECT_COMMON_CUH
#include <stdint.h>
#include <cuda_runtime.h>
#include "kernels.h"
#include "keyorder.h"

#define SEL_BLOCK 256                 /* threads per block                       */
#define SEL_WARPS (SEL_BLOCK / DRTOPK_WARP)
#define SEL_ITEMS 8                   /* keys per thread per tile: 8 loads in flight */
#define SEL_TILE (SEL_BLOCK * SEL_ITEMS)
#define SEL_BLOCKS_PER_SM 8           /* 8 x 256 threads fill a Hopper SM; the launch
                                         bounds cap registers so that the grid is one wave */
#define SEL_DIGIT_BITS 8              /* radix digit; also log2 of the bucket count */
#define SEL_BINS (1u << SEL_DIGIT_BITS)
#define SEL_PASSES (DRTOPK_KEY_BITS / SEL_DIGIT_BITS) /* 4 histogram passes at most */
#define SEL_OOP_BUFFERS 2             /* out of place: candidate buffers, ping-pong */

/* Device-resident selection state (first bytes of the workspace). */
struct sel_state {
    unsigned long long hist[SEL_BINS]; /* histogram of the current pass          */
    unsigned long long k_rem;   /* rank of the k-th among keys in [lo, hi]       */
    unsigned long long cand_len[SEL_PASSES]; /* keys in [lo, hi] after pick p  */
    unsigned long long fill;    /* compaction counter of the current copy        */
    unsigned long long gt_fill; /* collection: keys > T written                  */
    unsigned long long eq_fill; /* collection: ties claimed                      */
    unsigned long long scale;   /* bucket: bin = (key - lo) * scale >> 32        */
    unsigned int lo, hi;        /* interval that holds the k-th largest key      */
    unsigned int shift;         /* radix: bin = (key - lo) >> shift              */
    unsigned int mn, mx;        /* bucket: min/max reduction                     */
    int done;                   /* interval is one key: lo == hi == T            */
};

/* The workspace: the state, then `buffers` (<= SEL_OOP_BUFFERS) arrays of
 * n_max keys; carved from `base` (NULL: only sized).  Returns its size. */
struct sel_layout {
    sel_state *st;
    uint32_t *buf[SEL_OOP_BUFFERS];
};
static inline size_t sel_carve(const topk_input *in, int buffers, char *base, sel_layout *l)
{
    size_t off = 0;
    l->st = (sel_state *)drtopk_carve(base, &off, sizeof(sel_state));
    for (int b = 0; b < SEL_OOP_BUFFERS; ++b)
        l->buf[b] = b < buffers ? (uint32_t *)drtopk_carve(base, &off, in->n_max * sizeof(uint32_t)) : NULL;
    return drtopk_align_up(off, DRTOPK_WS_ALIGN);
}

__device__ __forceinline__ uint64_t sel_len(const topk_input &in)
{
    return in.d_n ? *in.d_n : in.n_max;
}

/* Ordered key i of the input (RAW: transformed from dtype DT; PAIRS: keys[i]). */
template <int SRC, int DT>
__device__ __forceinline__ uint32_t sel_key(const topk_input &in, uint64_t i)
{
    if (SRC == TOPK_SRC_RAW)
        return drtopk_key_from_bits(__ldg((const uint32_t *)in.raw + i), (drtopk_dtype)DT, in.order);
    return __ldg(in.keys + i);
}

template <int SRC, class P>
__device__ __forceinline__ P sel_pos(const topk_input &in, uint64_t i)
{
    if (SRC == TOPK_SRC_RAW) return (P)i;
    return __ldg((const P *)in.pos + i);
}

/* Bin of a key inside [lo, hi]: radix digit or equal-width bucket. */
template <bool RADIX>
__device__ __forceinline__ unsigned sel_bin(uint32_t key, unsigned lo, unsigned shift,
                                            unsigned long long scale)
{
    if (RADIX) return (key - lo) >> shift;
    return (unsigned)(((unsigned long long)(key - lo) * scale) >> DRTOPK_KEY_BITS);
}

/* Per-warp shared histograms cut same-address contention across warps. */
struct sel_smem_hist {
    unsigned int h[SEL_WARPS][SEL_BINS];
};

__device__ __forceinline__ void sel_hist_clear(sel_smem_hist &sh)
{
    for (unsigned i = threadIdx.x; i < SEL_WARPS * SEL_BINS; i += SEL_BLOCK)
        (&sh.h[0][0])[i] = 0;
    __syncthreads();
}

__device__ __forceinline__ void sel_hist_flush(sel_smem_hist &sh, sel_state *st)
{
    __syncthreads();
    for (unsigned b = threadIdx.x; b < SEL_BINS; b += SEL_BLOCK) {
        unsigned long long c = 0;
        for (int w = 0; w < SEL_WARPS; ++w) c += sh.h[w][b];
        if (c) atomicAdd(&st->hist[b], c);
    }
}

/* Tile compaction: flagged item j goes to slot base + rank[j] (base is
 * returned; 32-bit ranks keep registers low), one global atomic per tile.
 * Must be called by every thread of the block. */
__device__ __forceinline__ unsigned long long sel_compact(const bool (&f)[SEL_ITEMS], unsigned long long *counter,
                                                          unsigned (&rank)[SEL_ITEMS],
                                                          unsigned long long *warp_base /* [SEL_WARPS + 1] */)
{
    const unsigned lane = threadIdx.x % DRTOPK_WARP, warp = threadIdx.x / DRTOPK_WARP;
    const unsigned lt = (1u << lane) - 1u;
    unsigned run = 0;
#pragma unroll
    for (int j = 0; j < SEL_ITEMS; ++j) {
        unsigned b = __ballot_sync(DRTOPK_FULL_MASK, f[j]);
        rank[j] = run + __popc(b & lt);
        run += __popc(b);
    }
    if (lane == 0) warp_base[warp] = run;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long s = 0;
        for (int w = 0; w < SEL_WARPS; ++w) {
            unsigned long long c = warp_base[w];
            warp_base[w] = s;
            s += c;
        }
        warp_base[SEL_WARPS] = s ? atomicAdd(counter, s) : 0;
    }
    __syncthreads();
    unsigned long long base = warp_base[SEL_WARPS] + warp_base[warp];
    __syncthreads(); /* warp_base is reused by the next tile */
    return base;
}

static __global__ void sel_init(sel_state *st, uint64_t k)
{
    for (unsigned b = threadIdx.x; b < SEL_BINS; b += blockDim.x) st->hist[b] = 0;
    if (threadIdx.x == 0) {
        st->k_rem = k;
        for (int p = 0; p < SEL_PASSES; ++p) st->cand_len[p] = 0;
        st->fill = 0;
        st->gt_fill = 0;
        st->eq_fill = 0;
        st->lo = 0;
        st->hi = UINT32_MAX;
        st->shift = DRTOPK_KEY_BITS - SEL_DIGIT_BITS;
        st->scale = SEL_BINS; /* [0, 2^32) in SEL_BINS buckets */
        st->mn = UINT32_MAX;
        st->mx = 0;
        st->done = 0;
    }
}

/* Histogram of the input's keys inside [lo, hi].  When WRITE_COPY, also
 * writes every key to `copy` (the working copy of the in-place radix). */
template <int SRC, int DT, bool RADIX, bool WRITE_COPY>
__global__ void __launch_bounds__(SEL_BLOCK, SEL_BLOCKS_PER_SM) sel_hist_src(topk_input in, sel_state *st, uint32_t *copy)
{
    __shared__ sel_smem_hist sh;
    if (st->done && !WRITE_COPY) return;
    const uint64_t n = sel_len(in);
    const unsigned lo = st->lo, hi = st->hi, shift = st->shift;
    const unsigned long long scale = st->scale;
    sel_hist_clear(sh);
    unsigned *h = sh.h[threadIdx.x / DRTOPK_WARP];
    for (uint64_t t = (uint64_t)blockIdx.x * SEL_TILE; t < n; t += (uint64_t)gridDim.x * SEL_TILE) {
        uint32_t key[SEL_ITEMS];
#pragma unroll
        for (int j = 0; j < SEL_ITEMS; ++j) {
            uint64_t i = t + j * SEL_BLOCK + threadIdx.x;
            key[j] = i < n ? sel_key<SRC, DT>(in, i) : 0;
        }
#pragma unroll
        for (int j = 0; j < SEL_ITEMS; ++j) {
            uint64_t i = t + j * SEL_BLOCK + threadIdx.x;
            if (i < n) {
                if (WRITE_COPY) copy[i] = key[j];
                if (key[j] >= lo && key[j] <= hi) atomicAdd(&h[sel_bin<RADIX>(key[j], lo, shift, scale)], 1u);
            }
        }
    }
    sel_hist_flush(sh, st);
}

/* Pick the bucket that holds the k-th largest key and narrow [lo, hi] to it.
 * One thread: SEL_BINS steps, negligible next to a pass over the data. */
template <bool RADIX>
__global__ void sel_pick(sel_state *st, int pass)
{
    if (st->done) return;
    unsigned long long cum = 0, c = 0;
    int b = SEL_BINS - 1;
    for (; b > 0; --b) {
        c = st->hist[b];
        if (cum + c >= st->k_rem) break;
        cum += c;
    }
    if (b == 0) c = st->hist[0];
    st->k_rem -= cum;
    st->cand_len[pass] = c;
    st->fill = 0;
    for (unsigned i = 0; i < SEL_BINS; ++i) st->hist[i] = 0;
    const unsigned lo = st->lo;
    unsigned nlo, nhi;
    if (RADIX) {
        nlo = lo + ((unsigned)b << st->shift);
        nhi = nlo + ((1u << st->shift) - 1u);
        st->shift = st->shift >= SEL_DIGIT_BITS ? st->shift - SEL_DIGIT_BITS : 0;
    } else {
        /* bin(x) >= b  <=>  x * scale >= b * 2^32  <=>  x >= ceil(b * 2^32 / scale) */
        const unsigned long long sc = st->scale;
        unsigned long long a0 = (((unsigned long long)b << DRTOPK_KEY_BITS) + sc - 1) / sc;
        unsigned long long a1 = (((unsigned long long)(b + 1) << DRTOPK_KEY_BITS) + sc - 1) / sc;
        nlo = lo + (unsigned)a0;
        unsigned long long top = (unsigned long long)lo + a1 - 1;
        nhi = top < st->hi ? (unsigned)top : st->hi;
        unsigned long long range = (unsigned long long)(nhi - nlo) + 1;
        st->scale = ((unsigned long long)SEL_BINS << DRTOPK_KEY_BITS) / range;
    }
    st->lo = nlo;
    st->hi = nhi;
    if (nlo == nhi) st->done = 1;
}

/* Out-of-place step: copy the candidates inside the new [lo, hi] from the
 * input (FROM_INPUT) or from `cur` (*cur_len keys, the previous copy) to `next`,
 * histogramming the next pass on the way (one read per pass). */
template <int SRC, int DT, bool RADIX, bool FROM_INPUT>
__global__ void __launch_bounds__(SEL_BLOCK, SEL_BLOCKS_PER_SM) sel_copy(topk_input in, sel_state *st, const uint32_t *cur,
                                                      const unsigned long long *cur_len, uint32_t *next)
{
    __shared__ sel_smem_hist sh;
    __shared__ unsigned long long warp_base[SEL_WARPS + 1];
    if (st->done) return;
    const uint64_t n = FROM_INPUT ? sel_len(in) : *cur_len;
    const unsigned lo = st->lo, hi = st->hi, shift = st->shift;
    const unsigned long long scale = st->scale;
    sel_hist_clear(sh);
    unsigned *h = sh.h[threadIdx.x / DRTOPK_WARP];
    for (uint64_t t = (uint64_t)blockIdx.x * SEL_TILE; t < n; t += (uint64_t)gridDim.x * SEL_TILE) {
        uint32_t key[SEL_ITEMS];
        bool f[SEL_ITEMS];
#pragma unroll
        for (int j = 0; j < SEL_ITEMS; ++j) {
            uint64_t i = t + j * SEL_BLOCK + threadIdx.x;
            key[j] = i < n ? (FROM_INPUT ? sel_key<SRC, DT>(in, i) : cur[i]) : 0;
            f[j] = i < n && key[j] >= lo && key[j] <= hi;
        }
        unsigned rank[SEL_ITEMS];
        const unsigned long long base = sel_compact(f, &st->fill, rank, warp_base);
#pragma unroll
        for (int j = 0; j < SEL_ITEMS; ++j)
            if (f[j]) {
                next[base + rank[j]] = key[j];
                atomicAdd(&h[sel_bin<RADIX>(key[j], lo, shift, scale)], 1u);
            }
    }
    sel_hist_flush(sh, st);
}

/* Last pass: every key > T, then ties == T up to k_rem of them. */
template <int SRC, int DT, class P>
__global__ void __launch_bounds__(SEL_BLOCK, SEL_BLOCKS_PER_SM) sel_collect(topk_input in, topk_output out, sel_state *st)
{
    __shared__ unsigned long long warp_base[SEL_WARPS + 1];
    const uint64_t n = sel_len(in);
    const uint32_t T = st->lo;
    const unsigned long long k_rem = st->k_rem, n_gt = in.k - k_rem;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *out.d_count = in.k;
        *out.d_threshold = T;
    }
    P *opos = (P *)out.pos;
    for (uint64_t t = (uint64_t)blockIdx.x * SEL_TILE; t < n; t += (uint64_t)gridDim.x * SEL_TILE) {
        uint32_t key[SEL_ITEMS];
        bool gt[SEL_ITEMS], eq[SEL_ITEMS];
        bool want_ties = *(volatile unsigned long long *)&st->eq_fill < k_rem;
#pragma unroll
        for (int j = 0; j < SEL_ITEMS; ++j) {
            uint64_t i = t + j * SEL_BLOCK + threadIdx.x;
            key[j] = i < n ? sel_key<SRC, DT>(in, i) : 0;
            gt[j] = i < n && key[j] > T;
            eq[j] = i < n && key[j] == T && want_ties;
        }
        unsigned rank[SEL_ITEMS];
        unsigned long long base = sel_compact(gt, &st->gt_fill, rank, warp_base);
#pragma unroll
        for (int j = 0; j < SEL_ITEMS; ++j)
            if (gt[j]) {
                out.keys[base + rank[j]] = key[j];
                opos[base + rank[j]] = sel_pos<SRC, P>(in, t + j * SEL_BLOCK + threadIdx.x);
            }
        base = sel_compact(eq, &st->eq_fill, rank, warp_base);
#pragma unroll
        for (int j = 0; j < SEL_ITEMS; ++j)
            if (eq[j] && base + rank[j] < k_rem) {
                out.keys[n_gt + base + rank[j]] = key[j];
                opos[n_gt + base + rank[j]] = sel_pos<SRC, P>(in, t + j * SEL_BLOCK + threadIdx.x);
            }
    }
}

/* Blocks for a grid-stride pass over n_max keys: enough to fill the GPU. */
static inline drtopk_status sel_grid(uint64_t n_max, unsigned *blocks)
{
    const drtopk_device_attrs *dev;
    drtopk_status rc = drtopk_device_current(NULL, &dev);
    if (rc != DRTOPK_OK) return rc;
    uint64_t tiles = (n_max + SEL_TILE - 1) / SEL_TILE;
    uint64_t cap = (uint64_t)dev->sm_count * SEL_BLOCKS_PER_SM;
    *blocks = (unsigned)(tiles < cap ? (tiles ? tiles : 1) : cap);
    return DRTOPK_OK;
}

/* One selection, in place or out of place, over the input's source kind,
 * dtype and position width (F<SRC, DT, P> of drtopk_dispatch_source).  The
 * algorithm's policy class A says what differs:
 *   A::radix            digit bins (else equal-width buckets: sel_bin)
 *   A::inplace_buffers  key arrays the in-place variant works on (0: it
 *                       re-reads the input)
 *   A::start<SRC, DT, IN_PLACE>(in, st, wk, blocks, s)
 *                       after sel_init: the histogram of pick 0 (in place,
 *                       wk is the working copy, else NULL)
 *   A::inplace_pass<SRC, DT>(in, st, wk, p, blocks, s)
 *                       in place: the histogram of pick p >= 1
 * Out of place, pass p copies the candidates of pick p - 1 into a new buffer
 * (ping-pong), histogramming pick p on the way.  Each launcher returns its
 * first error. */
template <class A, bool IN_PLACE>
struct sel_runner {
    static int buffers(void) { return IN_PLACE ? A::inplace_buffers : SEL_OOP_BUFFERS; }

    template <int SRC, int DT, class P>
    struct f {
        static drtopk_status run(const topk_input *in, const topk_output *out, void *ws, cudaStream_t s)
        {
            unsigned blocks;
            drtopk_status rc = sel_grid(in->n_max, &blocks);
            if (rc != DRTOPK_OK) return rc;
            sel_layout l;
            sel_carve(in, buffers(), (char *)ws, &l);
            sel_state *st = l.st;
            uint32_t *wk = IN_PLACE ? l.buf[0] : NULL;
            sel_init<<<1, SEL_BINS, 0, s>>>(st, in->k);
            DRTOPK_LAUNCH_CHECK();
            if ((rc = A::template start<SRC, DT, IN_PLACE>(in, st, wk, blocks, s)) != DRTOPK_OK) return rc;
            sel_pick<A::radix><<<1, 1, 0, s>>>(st, 0);
            DRTOPK_LAUNCH_CHECK();
            for (int p = 1; p < SEL_PASSES; ++p) {
                if (IN_PLACE) {
                    if ((rc = A::template inplace_pass<SRC, DT>(in, st, wk, p, blocks, s)) != DRTOPK_OK) return rc;
                } else {
                    if (p == 1)
                        sel_copy<SRC, DT, A::radix, true><<<blocks, SEL_BLOCK, 0, s>>>(*in, st, NULL, NULL, l.buf[0]);
                    else
                        sel_copy<SRC, DT, A::radix, false><<<blocks, SEL_BLOCK, 0, s>>>(
                            *in, st, l.buf[p % 2], &st->cand_len[p - 2], l.buf[(p + 1) % 2]);
                    DRTOPK_LAUNCH_CHECK();
                }
                sel_pick<A::radix><<<1, 1, 0, s>>>(st, p);
                DRTOPK_LAUNCH_CHECK();
            }
            sel_collect<SRC, DT, P><<<blocks, SEL_BLOCK, 0, s>>>(*in, *out, st);
            DRTOPK_LAUNCH_CHECK();
            return DRTOPK_OK;
        }
    };
};

/* The two exported functions of a selection algorithm NAME (baselines.h):
 * NAME_workspace and NAME, which checks its arguments and runs
 * sel_runner<A, IN_PLACE>. */
#define SEL_EXPORT(NAME, A, IN_PLACE)                                                             \
    extern "C" drtopk_status NAME##_workspace(const topk_input *in, size_t *bytes)                \
    {                                                                                              \
        sel_layout l;                                                                              \
        if (!in || !bytes) return DRTOPK_ERR_INVALID_ARGUMENT;                                     \
        *bytes = sel_carve(in, sel_runner<A, IN_PLACE>::buffers(), NULL, &l);                      \
        return DRTOPK_OK;                                                                          \
    }                                                                                              \
    extern "C" drtopk_status NAME(const topk_input *in, const topk_output *out, void *ws,          \
                                  size_t ws_bytes, cudaStream_t s)                                 \
    {                                                                                              \
        size_t need;                                                                               \
        drtopk_status rc = topk_check_input(in);                                                   \
        if (rc == DRTOPK_OK) rc = NAME##_workspace(in, &need);                                     \
        if (rc == DRTOPK_OK) rc = topk_check_run(in, out, ws, ws_bytes, need);                     \
        if (rc != DRTOPK_OK) return rc;                                                            \
        return drtopk_dispatch_source<sel_runner<A, IN_PLACE>::template f>(in->src, in->dtype,     \
                                                                          in->pos64, in, out, ws, s); \
    }

#endif
