/*
 * batch_topk.cu -- batched and segmented top-k on the GPU (drtopk.h,
 * drtopk_batch_*; issue 16).  Three algorithms, chosen per segment by the
 * batch plan's crossovers:
 *   - tiny rows (at most 256 keys, k <= 16; MoE routing): a warp holds the
 *     row in registers and takes k rounds of a warp arg-max.
 *   - warp queue (WarpSelect style, Johnson et al., "Billion-scale similarity
 *     search with GPUs"): a warp streams its segment 32 elements at a time;
 *     lanes whose element beats the queue's k-th best append it to a shared
 *     buffer (ballot + popc), and a full buffer is merged into the queue by a
 *     warp bitonic sort.  The order is (ordered key desc, position asc), a
 *     total order, so the result is exact and its ties are the CPU's (the
 *     smallest positions), best first.
 *   - block radix select: one block per segment finds the k-th ordered key
 *     8 bits at a time (histograms in shared memory, one read of the segment
 *     per digit), then gathers the keys above it and enough equal ones.
 *   - split radix select for variable segments longer than 2^BATCH_MID_LOG2
 *     and uniform rows longer than 2^BATCH_SMALL_LOG2: the same
 *     digit-by-digit search, but every segment is cut into chunks that many
 *     blocks read at once (a grid of BATCH_SPLIT_X_MAX blocks per segment);
 *     each block adds its shared histogram to the segment's histogram in the
 *     workspace, and the last block to arrive (an atomic counter) picks the
 *     digit, so a pass is one launch for all long segments and a segment is
 *     read by many SMs instead of one.  A segment whose k-th bucket is taken
 *     whole stops early.  A last launch gathers the keys above the threshold
 *     and enough equal ones; sorted results are then sorted per segment.
 *   - the Dr. Top-k pipeline (paper sections 4-5, drtopk_cuda_select) row by
 *     row for uniform rows longer than the plan's block_max_len.
 * Variable segments are binned on the device by class and log2 length
 * (logarithmic radix binning, Green et al.): one thread per segment appends
 * its id to its bin's list; each bin is then launched with its own shape and
 * a grid-stride loop over the bin's device-side count, so the host never
 * reads the lengths.  Ordered keys (keyorder.h) of every width are held in
 * 64 bits.
 */
#include "device_common.cuh"
#include "keyorder.h"

#include <string.h>

#define BATCH_QUEUE_MAX DRTOPK_WARP_K_MAX       /* the warp queue's largest k              */
#define BATCH_WARPS_SHORT 2                     /* warps per block, short segments         */
#define BATCH_WARPS_LONG 4                      /* warps per block, long segments          */
#define BATCH_WARP_SHORT_LOG2 8                 /* warp bins: up to 256 elements, and more */
#define BATCH_TINY_LOG2 8                       /* rows a warp holds in registers: 256 keys */
#define BATCH_TINY_ITEMS ((1u << BATCH_TINY_LOG2) / DRTOPK_WARP)
#define BATCH_TINY_K 16                         /* up to k rounds of a warp arg-max beat queue merges */
#define BATCH_TINY_WARPS 4                      /* warps per block, tiny rows               */
#define BATCH_DIGIT_BITS 8                      /* radix digit                              */
#define BATCH_DIGITS (1u << BATCH_DIGIT_BITS)
#define BATCH_SORT_MAX 2048                     /* k a block sorts in shared memory         */
#define BATCH_BLOCK_SMALL 128                   /* block radix threads: segments <= 2^12    */
#define BATCH_BLOCK_MID 256                     /*                       segments <= 2^16   */
#define BATCH_SMALL_LOG2 12
#define BATCH_MID_LOG2 16                       /* longer segments: the split radix select  */
#define BATCH_SPLIT_THREADS 256                 /* split radix select: threads per block    */
#define BATCH_SPLIT_ITEMS 16                    /* elements per thread and chunk (loads in flight) */
#define BATCH_SPLIT_CHUNK (BATCH_SPLIT_THREADS * BATCH_SPLIT_ITEMS)
#define BATCH_SPLIT_X_MAX 64                    /* blocks per segment: 2^24 keys, 256K per block */
#define BATCH_SPLIT_WAVES 4                     /* variable segments: blocks of a pass per resident block */
#define BATCH_GRID_Y_MAX 65535u                 /* largest gridDim.y                         */
#define BATCH_SORT_THREADS 256                  /* per-segment sort of a split result        */
#define BATCH_GRID_PER_SM 8                     /* blocks per SM of a grid-stride bin launch */
#define BATCH_BIN_THREADS 256                   /* the binning kernel                       */

/* The bins of variable segments: class x log2-length range. */
enum { BIN_TINY = 0, BIN_WARP_SHORT, BIN_WARP_LONG, BIN_BLOCK_SMALL, BIN_BLOCK_MID, BIN_SPLIT, BIN_COUNT };

typedef struct {
    uint64_t key, pos;          /* ordered key (larger is better), position in the segment */
} kpair;

__device__ __forceinline__ bool kbetter(const kpair &a, const kpair &b)
{
    return a.key > b.key || (a.key == b.key && a.pos < b.pos);
}

typedef struct {
    const void *values;
    const uint64_t *offsets;    /* NULL: uniform rows of len */
    const uint64_t *ks;
    uint64_t segments, len, k;
    int order, dtype;
    void *out_values;
    uint64_t *out_indices;
    const uint64_t *list;       /* the bin's segment ids, or NULL: ids 0..segments-1 */
    const unsigned long long *count; /* the bin's size on the device (with list)      */
} batch_args;

__device__ __forceinline__ uint64_t seg_count(const batch_args &a) { return a.list ? *a.count : a.segments; }
__device__ __forceinline__ uint64_t seg_id(const batch_args &a, uint64_t i) { return a.list ? a.list[i] : i; }

/* Start, length and k_s of segment s (drtopk.h: k_s = min(ks[s] or k, k, len);
 * a segment whose end is before its start is empty). */
__device__ __forceinline__ uint64_t seg_info(const batch_args &a, uint64_t s, uint64_t *start, uint64_t *len)
{
    if (a.offsets) {
        *start = a.offsets[s];
        const uint64_t end = a.offsets[s + 1];
        *len = end > *start ? end - *start : 0;
    } else {
        *start = s * a.len;
        *len = a.len;
    }
    uint64_t ks = a.ks ? a.ks[s] : a.k;
    if (ks > a.k) ks = a.k;
    return ks < *len ? ks : *len;
}

/* Slot j of segment s: value bits of element pos of the segment (or zero
 * padding with DRTOPK_INDEX_NONE). */
template <int T>
__device__ __forceinline__ void put(const batch_args &a, uint64_t s, uint64_t start, uint64_t j, uint64_t pos)
{
    const uint64_t slot = s * a.k + j;
    const drtopk_dtype t = (drtopk_dtype)T;
    drtopk_bits_store(a.out_values, slot, t,
                      pos == DRTOPK_INDEX_NONE ? 0 : drtopk_bits_at(a.values, start + pos, t));
    a.out_indices[slot] = pos;
}

/* Sort q[0..n) best first (n a power of two) with `threads` cooperating
 * threads numbered `me`; sync() orders the steps. */
template <typename Sync>
__device__ void bitonic_best_first(kpair *q, unsigned n, unsigned me, unsigned threads, Sync sync)
{
    for (unsigned size = 2; size <= n; size <<= 1) {
        for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
            for (unsigned t = me; t < n / 2; t += threads) {
                const unsigned i = 2 * stride * (t / stride) + t % stride, j = i + stride;
                const kpair x = q[i], y = q[j];
                const bool best_first = (i & size) == 0;
                if (best_first ? kbetter(y, x) : kbetter(x, y)) {
                    q[i] = y;
                    q[j] = x;
                }
            }
            sync();
        }
    }
}

__device__ __forceinline__ unsigned pow2_at_least(uint64_t x, unsigned lo)
{
    unsigned p = lo;
    while (p < x) p <<= 1;
    return p;
}

/* Sort q[0..ks) (k_s pairs of segment s) best first with the block's THREADS
 * threads and write them to the segment's slots. */
template <int T, int THREADS>
__device__ void sort_put(const batch_args &a, uint64_t s, uint64_t start, uint64_t ks, kpair *q)
{
    const unsigned n = pow2_at_least(ks, 2);
    for (unsigned j = (unsigned)ks + threadIdx.x; j < n; j += THREADS) q[j] = kpair{ 0, DRTOPK_INDEX_NONE };
    __syncthreads();
    bitonic_best_first(q, n, threadIdx.x, THREADS, [] { __syncthreads(); });
    for (uint64_t j = threadIdx.x; j < ks; j += THREADS) put<T>(a, s, start, j, q[j].pos);
}

/* ---- tiny rows: a warp's registers ------------------------------------------- */
/* Segments of at most 2^BATCH_TINY_LOG2 keys and k_s <= BATCH_TINY_K (MoE
 * routing): one warp a segment, BATCH_TINY_ITEMS keys a lane in registers, and
 * k_s rounds of a warp arg-max by (key desc, position asc); no shared memory,
 * and the result comes out best first. */
template <int T>
__global__ void __launch_bounds__(BATCH_TINY_WARPS * DRTOPK_WARP) warp_tiny_kernel(batch_args a)
{
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = (uint64_t)blockIdx.x * BATCH_TINY_WARPS + (threadIdx.x >> DRTOPK_LOG2_WARP); i < nseg;
         i += (uint64_t)gridDim.x * BATCH_TINY_WARPS) {
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        uint64_t key[BATCH_TINY_ITEMS];
        unsigned live = 0;      /* bit j: key j of this lane (position lane + 32 j) not taken */
#pragma unroll
        for (unsigned j = 0; j < BATCH_TINY_ITEMS; ++j) {
            const uint64_t p = lane + j * DRTOPK_WARP;
            key[j] = p < len ? drtopk_key_at(a.values, start + p, (drtopk_dtype)T, (drtopk_order)a.order) : 0;
            if (p < len) live |= 1u << j;
        }
        uint64_t mine = DRTOPK_INDEX_NONE;      /* lane r: the r-th best position */
        for (unsigned r = 0; r < ks; ++r) {
            kpair best = { 0, DRTOPK_INDEX_NONE };
#pragma unroll
            for (unsigned j = 0; j < BATCH_TINY_ITEMS; ++j) {
                const kpair e = { key[j], lane + j * DRTOPK_WARP };
                if ((live >> j & 1u) && kbetter(e, best)) best = e;
            }
            for (unsigned o = DRTOPK_WARP / 2; o > 0; o >>= 1) {
                const kpair other = { __shfl_xor_sync(DRTOPK_FULL_MASK, best.key, o),
                                      __shfl_xor_sync(DRTOPK_FULL_MASK, best.pos, o) };
                if (kbetter(other, best)) best = other;
            }
            if ((best.pos & DRTOPK_LANE_MASK) == lane) live &= ~(1u << (best.pos >> DRTOPK_LOG2_WARP));
            if (lane == r) mine = best.pos;
        }
        if (lane < ks) put<T>(a, s, start, lane, mine);
        for (uint64_t j = ks + lane; j < a.k; j += DRTOPK_WARP) put<T>(a, s, start, j, DRTOPK_INDEX_NONE);
    }
}

/* ---- warp queue ------------------------------------------------------------ */
template <int T, int WARPS>
__global__ void warp_select_kernel(batch_args a)
{
    __shared__ kpair smem[WARPS][2 * BATCH_QUEUE_MAX];
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, w = threadIdx.x >> DRTOPK_LOG2_WARP;
    kpair *q = smem[w];
    const kpair none = { 0, DRTOPK_INDEX_NONE };
    const uint64_t nseg = seg_count(a);
    auto sync = [] { __syncwarp(); };
    for (uint64_t i = (uint64_t)blockIdx.x * WARPS + w; i < nseg; i += (uint64_t)gridDim.x * WARPS) {
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        const unsigned qn = pow2_at_least(ks, DRTOPK_WARP);     /* queue size Q >= k_s */
        for (unsigned j = lane; j < 2 * qn; j += DRTOPK_WARP) q[j] = none;
        __syncwarp();
        kpair kth = none;
        unsigned nbuf = 0;
        for (uint64_t base = 0; base < len && ks > 0; base += DRTOPK_WARP) {
            const uint64_t p = base + lane;
            kpair e = none;
            if (p < len) {
                e.key = drtopk_key_at(a.values, start + p, (drtopk_dtype)T, (drtopk_order)a.order);
                e.pos = p;
            }
            const bool take = p < len && kbetter(e, kth);
            const unsigned m = __ballot_sync(DRTOPK_FULL_MASK, take);
            if (take) q[qn + nbuf + __popc(m & ((1u << lane) - 1u))] = e;
            nbuf += __popc(m);
            if (nbuf + DRTOPK_WARP > qn || base + DRTOPK_WARP >= len) {      /* merge the buffer */
                __syncwarp();
                bitonic_best_first(q, 2 * qn, lane, DRTOPK_WARP, sync);
                for (unsigned j = qn + lane; j < 2 * qn; j += DRTOPK_WARP) q[j] = none;
                __syncwarp();
                kth = q[ks - 1];
                nbuf = 0;
            }
        }
        for (uint64_t j = lane; j < a.k; j += DRTOPK_WARP) put<T>(a, s, start, j, j < ks ? q[j].pos : DRTOPK_INDEX_NONE);
        __syncwarp();
    }
}

/* ---- block radix select ------------------------------------------------------ */
template <int T, int THREADS>
__global__ void __launch_bounds__(THREADS) block_select_kernel(batch_args a, int sorted)
{
    __shared__ unsigned long long hist[BATCH_DIGITS];
    __shared__ uint64_t prefix, mask, want;     /* the k-th key's known digits; ranks left */
    __shared__ unsigned long long n_gt, n_eq;
    __shared__ kpair q[BATCH_SORT_MAX];
    const int bits = drtopk_dtype_bits((drtopk_dtype)T);
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = blockIdx.x; i < nseg; i += gridDim.x) {
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        if (threadIdx.x == 0) {
            prefix = mask = 0;
            want = ks;
            n_gt = n_eq = 0;
        }
        __syncthreads();
        for (int shift = bits - BATCH_DIGIT_BITS; shift >= 0 && ks > 0; shift -= BATCH_DIGIT_BITS) {
            for (unsigned d = threadIdx.x; d < BATCH_DIGITS; d += THREADS) hist[d] = 0;
            __syncthreads();
            const uint64_t pf = prefix, mk = mask;
            for (uint64_t p = threadIdx.x; p < len; p += THREADS) {
                const uint64_t key = drtopk_key_at(a.values, start + p, (drtopk_dtype)T, (drtopk_order)a.order);
                if ((key & mk) == pf) atomicAdd(&hist[(key >> shift) & (BATCH_DIGITS - 1)], 1ull);
            }
            __syncthreads();
            if (threadIdx.x == 0) {     /* the digit holding the want-th best of the prefix */
                uint64_t above = 0;
                int d = BATCH_DIGITS - 1;
                while (d > 0 && above + hist[d] < want) above += hist[d--];
                want -= above;
                prefix |= (uint64_t)d << shift;
                mask |= (uint64_t)(BATCH_DIGITS - 1) << shift;
            }
            __syncthreads();
        }
        /* prefix is now the k_s-th key; want of the keys equal to it belong */
        const uint64_t kth = prefix, n_ties = want, n_above = ks - want;
        for (uint64_t p = threadIdx.x; p < len && ks > 0; p += THREADS) {
            const uint64_t key = drtopk_key_at(a.values, start + p, (drtopk_dtype)T, (drtopk_order)a.order);
            uint64_t j = DRTOPK_INDEX_NONE;
            if (key > kth) j = atomicAdd(&n_gt, 1ull);
            else if (key == kth) {
                const uint64_t e = atomicAdd(&n_eq, 1ull);
                if (e < n_ties) j = n_above + e;
            }
            if (j != DRTOPK_INDEX_NONE) {
                if (sorted) q[j] = kpair{ key, p };
                else put<T>(a, s, start, j, p);
            }
        }
        __syncthreads();
        if (sorted && ks > 0) sort_put<T, THREADS>(a, s, start, ks, q);
        for (uint64_t j = ks + threadIdx.x; j < a.k; j += THREADS) put<T>(a, s, start, j, DRTOPK_INDEX_NONE);
        __syncthreads();
    }
}

/* ---- split radix select --------------------------------------------------------- */

/* One long segment's search state in the workspace (entry i of the segments
 * the launch covers); all zero at the start. */
typedef struct {
    unsigned long long hist[BATCH_DIGITS];      /* this pass's digit counts, all blocks */
    unsigned long long prefix, mask;            /* the k-th key's known digits           */
    unsigned long long above;                   /* keys whose known digits are larger    */
    unsigned long long n_gt, n_eq;              /* the gather's slots handed out         */
    unsigned int arrived;                       /* blocks done with this pass            */
    unsigned int done;                          /* the k-th bucket is known exactly      */
} split_state;

/* f(key, in, p) for every slot p of chunks blockIdx.x, blockIdx.x + gridDim.x,
 * ... of a segment, BATCH_SPLIT_ITEMS a thread loaded together (loads in
 * flight); `in` is whether element p exists.  Every thread of the block calls
 * f the same number of times (warp collectives in f are safe). */
template <int T, typename F>
__device__ __forceinline__ void split_chunks(const batch_args &a, uint64_t start, uint64_t len, F f)
{
    for (uint64_t c = (uint64_t)blockIdx.x * BATCH_SPLIT_CHUNK; c < len; c += (uint64_t)gridDim.x * BATCH_SPLIT_CHUNK) {
        uint64_t key[BATCH_SPLIT_ITEMS];
#pragma unroll
        for (int j = 0; j < BATCH_SPLIT_ITEMS; ++j) {
            const uint64_t p = c + (uint64_t)j * BATCH_SPLIT_THREADS + threadIdx.x;
            key[j] = p < len ? drtopk_key_at(a.values, start + p, (drtopk_dtype)T, (drtopk_order)a.order) : 0;
        }
#pragma unroll
        for (int j = 0; j < BATCH_SPLIT_ITEMS; ++j) {
            const uint64_t p = c + (uint64_t)j * BATCH_SPLIT_THREADS + threadIdx.x;
            f(key[j], p < len, p);
        }
    }
}

/* One digit pass: block (x, y) counts the digit at `shift` of the keys that
 * match the known digits in chunks x, x + gridDim.x, ... of segments y,
 * y + gridDim.y, ...; the last of the gridDim.x blocks of a segment picks the
 * digit holding the want-th key and clears the counts for the next pass. */
template <int T>
__global__ void __launch_bounds__(BATCH_SPLIT_THREADS) split_hist_kernel(batch_args a, split_state *states, int shift)
{
    __shared__ unsigned int hist[BATCH_DIGITS];         /* a block's count: at most len / gridDim.x + a chunk */
    __shared__ int last;
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = blockIdx.y; i < nseg; i += gridDim.y) {
        split_state *st = states + i;
        if (st->done) continue;         /* set by an earlier launch: the same for every block */
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        for (unsigned d = threadIdx.x; d < BATCH_DIGITS; d += BATCH_SPLIT_THREADS) hist[d] = 0;
        __syncthreads();
        const uint64_t pf = st->prefix, mk = st->mask;
        split_chunks<T>(a, start, len, [&](uint64_t key, bool in, uint64_t) {
            if (in && (key & mk) == pf) atomicAdd(&hist[(key >> shift) & (BATCH_DIGITS - 1)], 1u);
        });
        __syncthreads();
        for (unsigned d = threadIdx.x; d < BATCH_DIGITS; d += BATCH_SPLIT_THREADS)
            if (hist[d]) atomicAdd(&st->hist[d], (unsigned long long)hist[d]);
        __threadfence();                /* the counts before the arrival */
        __syncthreads();
        if (threadIdx.x == 0) last = atomicAdd(&st->arrived, 1u) == gridDim.x - 1;
        __syncthreads();
        if (last && threadIdx.x == 0) {
            __threadfence();
            volatile unsigned long long *h = st->hist;
            const uint64_t want = ks - st->above;
            uint64_t above = 0;
            int d = BATCH_DIGITS - 1;
            while (d > 0 && above + h[d] < want) above += h[d--];
            st->prefix = pf | (uint64_t)d << shift;
            st->mask = mk | (uint64_t)(BATCH_DIGITS - 1) << shift;
            st->above += above;
            st->done = shift == 0 || h[d] == want - above;      /* the last digit, or the bucket taken whole */
            st->arrived = 0;
        }
        __syncthreads();
        if (last)
            for (unsigned d = threadIdx.x; d < BATCH_DIGITS; d += BATCH_SPLIT_THREADS) st->hist[d] = 0;
    }
}

/* The gather: every key whose known digits are larger than the k-th key's,
 * and the first want of the equal ones to claim a slot (warp-aggregated slot
 * counters); block x = 0 pads the slots past k_s. */
template <int T>
__global__ void __launch_bounds__(BATCH_SPLIT_THREADS) split_gather_kernel(batch_args a, split_state *states)
{
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, lower = (1u << lane) - 1u;
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = blockIdx.y; i < nseg; i += gridDim.y) {
        split_state *st = states + i;
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        const uint64_t pf = st->prefix, mk = st->mask, above = st->above, ties = ks - above;
        if (blockIdx.x == 0)
            for (uint64_t j = ks + threadIdx.x; j < a.k; j += BATCH_SPLIT_THREADS)
                put<T>(a, s, start, j, DRTOPK_INDEX_NONE);
        split_chunks<T>(a, start, len, [&](uint64_t key, bool in, uint64_t p) {
            const uint64_t m = key & mk;
            const bool gt = in && m > pf, eq = in && m == pf;
            const unsigned bg = __ballot_sync(DRTOPK_FULL_MASK, gt), be = __ballot_sync(DRTOPK_FULL_MASK, eq);
            unsigned long long base_g = 0, base_e = 0;
            if (lane == 0 && bg) base_g = atomicAdd(&st->n_gt, (unsigned long long)__popc(bg));
            if (lane == 0 && be) base_e = atomicAdd(&st->n_eq, (unsigned long long)__popc(be));
            base_g = __shfl_sync(DRTOPK_FULL_MASK, base_g, 0) + __popc(bg & lower);
            base_e = __shfl_sync(DRTOPK_FULL_MASK, base_e, 0) + __popc(be & lower);
            if (gt) put<T>(a, s, start, base_g, p);
            else if (eq && base_e < ties) put<T>(a, s, start, above + base_e, p);
        });
    }
}

/* Sort each segment's k_s unsorted result in its slots best first (the split
 * select's sorted results). */
template <int T>
__global__ void __launch_bounds__(BATCH_SORT_THREADS) sort_out_kernel(batch_args a)
{
    __shared__ kpair q[BATCH_SORT_MAX];
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = blockIdx.x; i < nseg; i += gridDim.x) {
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        for (uint64_t j = threadIdx.x; j < ks; j += BATCH_SORT_THREADS)
            q[j] = kpair{ drtopk_key_at(a.out_values, s * a.k + j, (drtopk_dtype)T, (drtopk_order)a.order),
                          a.out_indices[s * a.k + j] };
        sort_put<T, BATCH_SORT_THREADS>(a, s, start, ks, q);
        __syncthreads();
    }
}

/* ---- logarithmic radix binning of variable segments -------------------------- */
__global__ void bin_kernel(batch_args a, uint64_t warp_max_k, uint64_t warp_max_len, unsigned long long *counts,
                           uint64_t *lists, split_state *states)
{
    const uint64_t s = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= a.segments) return;
    uint64_t start, len;
    const uint64_t ks = seg_info(a, s, &start, &len);
    if (ks == 0) {              /* nothing to select: padding only */
        for (uint64_t j = 0; j < a.k; ++j) {
            drtopk_bits_store(a.out_values, s * a.k + j, (drtopk_dtype)a.dtype, 0);
            a.out_indices[s * a.k + j] = DRTOPK_INDEX_NONE;
        }
        return;
    }
    const int lg = len > 1 ? 64 - __clzll((long long)(len - 1)) : 0;     /* ceil(log2 len) */
    int bin;
    if (lg > BATCH_MID_LOG2) bin = BIN_SPLIT;
    else if (lg <= BATCH_TINY_LOG2 && ks <= BATCH_TINY_K) bin = BIN_TINY;
    else if (ks <= warp_max_k && len <= warp_max_len) bin = lg <= BATCH_WARP_SHORT_LOG2 ? BIN_WARP_SHORT : BIN_WARP_LONG;
    else bin = lg <= BATCH_SMALL_LOG2 ? BIN_BLOCK_SMALL : BIN_BLOCK_MID;
    const unsigned long long at = atomicAdd(&counts[bin], 1ull);
    lists[(uint64_t)bin * a.segments + at] = s;
    if (bin == BIN_SPLIT) {     /* a fresh search state */
        unsigned long long *w = (unsigned long long *)(states + at);
        for (size_t j = 0; j < sizeof(split_state) / sizeof *w; ++j) w[j] = 0;
    }
}

/* ---- host side ------------------------------------------------------------------ */

/* F<T>::run(args...) for the key type t. */
template <template <int> class F, typename... A>
static drtopk_status batch_dispatch(drtopk_dtype t, A... args)
{
    switch (t) {
    case DRTOPK_U32: return F<DRTOPK_U32>::run(args...);
    case DRTOPK_I32: return F<DRTOPK_I32>::run(args...);
    case DRTOPK_F32: return F<DRTOPK_F32>::run(args...);
    case DRTOPK_F16: return F<DRTOPK_F16>::run(args...);
    case DRTOPK_BF16: return F<DRTOPK_BF16>::run(args...);
    case DRTOPK_U64: return F<DRTOPK_U64>::run(args...);
    case DRTOPK_I64: return F<DRTOPK_I64>::run(args...);
    case DRTOPK_F64: return F<DRTOPK_F64>::run(args...);
    default: return DRTOPK_ERR_INVALID_ARGUMENT;
    }
}

template <int T>
struct warp_launch {
    static drtopk_status run(batch_args a, int warps, unsigned grid, cudaStream_t st)
    {
        if (warps == BATCH_WARPS_SHORT)
            warp_select_kernel<T, BATCH_WARPS_SHORT><<<grid, BATCH_WARPS_SHORT * DRTOPK_WARP, 0, st>>>(a);
        else
            warp_select_kernel<T, BATCH_WARPS_LONG><<<grid, BATCH_WARPS_LONG * DRTOPK_WARP, 0, st>>>(a);
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
};

template <int T>
struct tiny_launch {
    static drtopk_status run(batch_args a, unsigned grid, cudaStream_t st)
    {
        warp_tiny_kernel<T><<<grid, BATCH_TINY_WARPS * DRTOPK_WARP, 0, st>>>(a);
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
};

template <int T>
struct block_launch {
    static drtopk_status run(batch_args a, int threads, unsigned grid, int sorted, cudaStream_t st)
    {
        if (threads == BATCH_BLOCK_SMALL)
            block_select_kernel<T, BATCH_BLOCK_SMALL><<<grid, BATCH_BLOCK_SMALL, 0, st>>>(a, sorted);
        else
            block_select_kernel<T, BATCH_BLOCK_MID><<<grid, BATCH_BLOCK_MID, 0, st>>>(a, sorted);
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
};

/* The split radix select of the segments a covers (states zeroed): one digit
 * pass a launch, the gather, and the per-segment sort when sorted. */
template <int T>
struct split_launch {
    static drtopk_status run(batch_args a, split_state *states, dim3 grid, int sorted, unsigned sort_grid,
                             cudaStream_t st)
    {
        for (int shift = drtopk_dtype_bits((drtopk_dtype)T) - BATCH_DIGIT_BITS; shift >= 0; shift -= BATCH_DIGIT_BITS) {
            split_hist_kernel<T><<<grid, BATCH_SPLIT_THREADS, 0, st>>>(a, states, shift);
            DRTOPK_LAUNCH_CHECK();
        }
        split_gather_kernel<T><<<grid, BATCH_SPLIT_THREADS, 0, st>>>(a, states);
        DRTOPK_LAUNCH_CHECK();
        if (sorted) {
            sort_out_kernel<T><<<sort_grid, BATCH_SORT_THREADS, 0, st>>>(a);
            DRTOPK_LAUNCH_CHECK();
        }
        return DRTOPK_OK;
    }
};

static unsigned grid_for(uint64_t units, unsigned cap)
{
    return (unsigned)(units < cap ? (units ? units : 1) : cap);
}

/* Uniform rows longer than block_max_len: the Dr. Top-k pipeline, one row
 * per call (its problem, plan and workspace). */
static drtopk_status row_problem(const drtopk_batch_problem *p, const drtopk_batch_plan *plan, drtopk_problem *rp,
                                 drtopk_plan *rplan, size_t *bytes)
{
    drtopk_status st;
    rp->backend = DRTOPK_BACKEND_CUDA;
    rp->dtype = p->dtype;
    rp->order = p->order;
    rp->n = p->len;
    rp->k = p->k;
    rp->values = p->values;
    if ((st = drtopk_plan_auto(rplan, rp, NULL)) != DRTOPK_OK) return st;
    if (plan->flags & DRTOPK_SORTED) rplan->flags |= DRTOPK_SORTED;
    return drtopk_cuda_workspace(rp, rplan, bytes);
}

static int uniform_pipeline(const drtopk_batch_problem *p, const drtopk_batch_plan *plan)
{
    return p->offsets == NULL && p->ks == NULL && p->len > plan->block_max_len;
}

/* Uniform rows of the warp queue. */
static int uniform_warp(const drtopk_batch_problem *p, const drtopk_batch_plan *plan)
{
    return p->k <= plan->warp_max_k && p->len <= plan->warp_max_len;
}

/* Uniform rows the split radix select takes when the warp queue does not:
 * past a small block's rows, every row over several blocks fills the GPU
 * where one block a row leaves SMs idle (8 rows of 40000, 256 of 2^17). */
static int uniform_split(const drtopk_batch_problem *p, const drtopk_batch_plan *plan)
{
    return p->offsets == NULL && p->len > (1ull << BATCH_SMALL_LOG2) && !uniform_warp(p, plan);
}

/* The split grid: x blocks per segment (at most one per chunk), y segments
 * at a time. */
static dim3 split_grid(uint64_t len_max, uint64_t segments)
{
    const uint64_t chunks = (len_max + BATCH_SPLIT_CHUNK - 1) / BATCH_SPLIT_CHUNK;
    return dim3((unsigned)(chunks < BATCH_SPLIT_X_MAX ? chunks : BATCH_SPLIT_X_MAX),
                (unsigned)(segments < BATCH_GRID_Y_MAX ? segments : BATCH_GRID_Y_MAX));
}

static drtopk_status check_sorted_k(const drtopk_batch_problem *p, const drtopk_batch_plan *plan)
{
    if ((plan->flags & DRTOPK_SORTED) && p->k > BATCH_SORT_MAX && !uniform_pipeline(p, plan)) {
        drtopk_error_set("sorted batched top-k with k = %llu above %d on the GPU's block select is not "
                         "implemented; sort the unsorted result, or use uniform rows longer than block_max_len",
                         (unsigned long long)p->k, BATCH_SORT_MAX);
        return DRTOPK_ERR_UNSUPPORTED;
    }
    return DRTOPK_OK;
}

extern "C" drtopk_status drtopk_cuda_batch_workspace(const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                                                     size_t *bytes)
{
    drtopk_status st;
    size_t off = 0;
    if ((st = check_sorted_k(p, plan)) != DRTOPK_OK) return st;
    if (uniform_pipeline(p, plan)) {
        drtopk_problem rp;
        drtopk_plan rplan;
        size_t rb;
        if ((st = row_problem(p, plan, &rp, &rplan, &rb)) != DRTOPK_OK) return st;
        drtopk_carve(NULL, &off, rb);
    } else if (p->offsets) {
        drtopk_carve(NULL, &off, BIN_COUNT * sizeof(unsigned long long));
        drtopk_carve(NULL, &off, (size_t)BIN_COUNT * p->segments * sizeof(uint64_t));
        drtopk_carve(NULL, &off, (size_t)p->segments * sizeof(split_state));
    } else if (uniform_split(p, plan)) {
        drtopk_carve(NULL, &off, (size_t)p->segments * sizeof(split_state));
    }
    *bytes = off + DRTOPK_WS_ALIGN;     /* slack to align any base address */
    return DRTOPK_OK;
}

extern "C" drtopk_status drtopk_cuda_batch_select(const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                                                  void *ws, size_t ws_bytes, void *out_values, uint64_t *out_indices,
                                                  void *stream)
{
    const drtopk_device_attrs *dev;
    drtopk_status st;
    size_t need, off = 0;
    cudaStream_t cs = (cudaStream_t)stream;
    const int sorted = (plan->flags & DRTOPK_SORTED) != 0;
    drtopk_pending_error_begin();
    if ((st = drtopk_cuda_batch_workspace(p, plan, &need)) != DRTOPK_OK) return st;
    if (ws == NULL || ws_bytes < need) return drtopk_workspace_too_small(ws, ws_bytes, need);
    if ((st = drtopk_device_check_supported()) != DRTOPK_OK) return st;
    if ((st = drtopk_device_current(NULL, &dev)) != DRTOPK_OK) return st;
    char *base = (char *)drtopk_align_up((uintptr_t)ws, DRTOPK_WS_ALIGN);
    const unsigned cap = (unsigned)dev->sm_count * BATCH_GRID_PER_SM;
    batch_args a;
    memset(&a, 0, sizeof a);
    a.values = p->values;
    a.offsets = p->offsets;
    a.ks = p->ks;
    a.segments = p->segments;
    a.len = p->len;
    a.k = p->k;
    a.order = p->order;
    a.dtype = p->dtype;
    a.out_values = out_values;
    a.out_indices = out_indices;
    if (uniform_pipeline(p, plan)) {
        drtopk_problem rp;
        drtopk_plan rplan;
        size_t rb;
        const size_t es = drtopk_dtype_size(p->dtype);
        if ((st = row_problem(p, plan, &rp, &rplan, &rb)) != DRTOPK_OK) return st;
        for (uint64_t r = 0; r < p->segments; ++r) {
            rp.values = (const char *)p->values + r * p->len * es;
            st = drtopk_cuda_select(&rp, &rplan, base, rb, (char *)out_values + r * p->k * es,
                                    out_indices + r * p->k, stream, NULL);
            if (st != DRTOPK_OK) return st;
        }
        return DRTOPK_OK;
    }
    if (p->offsets == NULL) {   /* uniform rows: one class, no binning */
        if (p->len <= (1ull << BATCH_TINY_LOG2) && p->k <= BATCH_TINY_K)
            return batch_dispatch<tiny_launch>(p->dtype, a, grid_for((p->segments + BATCH_TINY_WARPS - 1) /
                                                                     BATCH_TINY_WARPS, DRTOPK_GRID_MAX), cs);
        if (uniform_warp(p, plan)) {
            const int warps = p->len <= (1ull << BATCH_WARP_SHORT_LOG2) ? BATCH_WARPS_SHORT : BATCH_WARPS_LONG;
            const uint64_t blocks = (p->segments + warps - 1) / warps;
            return batch_dispatch<warp_launch>(p->dtype, a, warps, grid_for(blocks, DRTOPK_GRID_MAX), cs);
        }
        if (uniform_split(p, plan)) {
            split_state *states = (split_state *)drtopk_carve(base, &off, (size_t)p->segments * sizeof(split_state));
            DRTOPK_CUDA_TRY(cudaMemsetAsync(states, 0, (size_t)p->segments * sizeof(split_state), cs));
            return batch_dispatch<split_launch>(p->dtype, a, states, split_grid(p->len, p->segments), sorted,
                                                grid_for(p->segments, DRTOPK_GRID_MAX), cs);
        }
        return batch_dispatch<block_launch>(p->dtype, a, BATCH_BLOCK_SMALL, grid_for(p->segments, DRTOPK_GRID_MAX),
                                            sorted, cs);   /* rows of at most 2^BATCH_SMALL_LOG2 */
    }
    unsigned long long *counts = (unsigned long long *)drtopk_carve(base, &off, BIN_COUNT * sizeof(unsigned long long));
    uint64_t *lists = (uint64_t *)drtopk_carve(base, &off, (size_t)BIN_COUNT * p->segments * sizeof(uint64_t));
    split_state *states = (split_state *)drtopk_carve(base, &off, (size_t)p->segments * sizeof(split_state));
    DRTOPK_CUDA_TRY(cudaMemsetAsync(counts, 0, BIN_COUNT * sizeof(unsigned long long), cs));
    const uint64_t bin_blocks = (p->segments + BATCH_BIN_THREADS - 1) / BATCH_BIN_THREADS;
    if (bin_blocks > DRTOPK_GRID_MAX) {
        drtopk_error_set("%llu segments are more than one binning launch covers", (unsigned long long)p->segments);
        return DRTOPK_ERR_UNSUPPORTED;
    }
    bin_kernel<<<(unsigned)bin_blocks, BATCH_BIN_THREADS, 0, cs>>>(a, plan->warp_max_k, plan->warp_max_len, counts,
                                                                   lists, states);
    DRTOPK_LAUNCH_CHECK();
    for (int b = 0; b < BIN_COUNT; ++b) {
        a.list = lists + (uint64_t)b * p->segments;
        a.count = counts + b;
        if (b == BIN_TINY) {
            st = batch_dispatch<tiny_launch>(p->dtype, a, grid_for((p->segments + BATCH_TINY_WARPS - 1) /
                                                                   BATCH_TINY_WARPS, cap), cs);
        } else if (b == BIN_WARP_SHORT || b == BIN_WARP_LONG) {
            const int warps = b == BIN_WARP_SHORT ? BATCH_WARPS_SHORT : BATCH_WARPS_LONG;
            st = batch_dispatch<warp_launch>(p->dtype, a, warps, grid_for((p->segments + warps - 1) / warps, cap), cs);
        } else if (b == BIN_SPLIT) {    /* x: as for the longest segment; blocks of a pass: a few waves */
            const unsigned y = grid_for(p->segments, BATCH_SPLIT_WAVES * cap / BATCH_SPLIT_X_MAX + 1);
            st = batch_dispatch<split_launch>(p->dtype, a, states, dim3(BATCH_SPLIT_X_MAX, y), sorted,
                                              grid_for(p->segments, cap), cs);
        } else {
            const int threads = b == BIN_BLOCK_SMALL ? BATCH_BLOCK_SMALL : BATCH_BLOCK_MID;
            st = batch_dispatch<block_launch>(p->dtype, a, threads, grid_for(p->segments, cap), sorted, cs);
        }
        if (st != DRTOPK_OK) return st;
    }
    return DRTOPK_OK;
}
