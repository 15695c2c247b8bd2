/*
 * batch_split.cuh -- the split radix select of the batched top-k: long segments
 * read by many blocks a pass.
 *
 * Split radix select for segments longer than the staged select holds:
 * the same digit-by-digit search, but every segment is cut into chunks
 * that many blocks read at once (a block per chunk, at most a grid row:
 * BATCH_SPLIT_X_MAX blocks for uniform rows, BATCH_SPLIT_X_VAR for
 * variable segments, so that the longest of a power law is spread over
 * every SM; a segment's blocks start at a column rotated by its index, so
 * that short ones spread over the row); each block adds its shared
 * histogram to the segment's histogram in the workspace, and the last
 * block to arrive (an atomic counter) picks the digit with a warp scan,
 * so a pass is one launch for all long segments and a segment is read by
 * many SMs instead of one.  A segment whose k-th
 * bucket is taken whole stops early.  A last launch gathers the keys above
 * the threshold and enough equal ones; sorted results are then sorted per
 * segment.  Where the GPU launches cooperatively, the passes and the
 * gather are one launch of a co-resident grid, a grid barrier between
 * them (split_fused_kernel: a pass over the Dr. pipeline's delegates is a
 * few microseconds of work, about what a launch costs).  Bytes: the
 * segment read once per digit pass and once more.
 *
 * Included by batch_topk.cu after batch_common.cuh (one translation unit:
 * the bins and launches are there).
 */

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

/* The blocks of a split grid row that read segment i of len keys: one per
 * chunk, at most gridDim.x; they start at a column rotated by i, so that the
 * short segments of a row spread over its columns while a long one takes
 * them all.  Returns whether block blockIdx.x is one of them, its rank among
 * them in *rank and their number in *blocks. */
__device__ __forceinline__ bool split_member(uint64_t i, uint64_t len, unsigned *rank, unsigned *blocks)
{
    const uint64_t chunks = (len + BATCH_SPLIT_CHUNK - 1) / BATCH_SPLIT_CHUNK;
    *blocks = chunks < gridDim.x ? (chunks ? (unsigned)chunks : 1u) : gridDim.x;
    const unsigned rot = (unsigned)(i * BATCH_SPLIT_SPREAD % gridDim.x);
    *rank = (blockIdx.x + gridDim.x - rot) % gridDim.x;
    return *rank < *blocks;
}

/* f(key, in, p) for every slot p of chunks rank, rank + blocks, ... of a
 * segment, BATCH_SPLIT_ITEMS a thread loaded together (loads in flight);
 * `in` is whether element p exists.  Every thread of the block calls f the
 * same number of times (warp collectives in f are safe). */
template <int T, typename F>
__device__ __forceinline__ void split_chunks(const batch_args &a, uint64_t start, uint64_t len, unsigned rank,
                                             unsigned blocks, F f)
{
    typedef typename elem_of<T>::key KT;        /* 32 bits where they hold the key: registers for loads in flight */
    for (uint64_t c = (uint64_t)rank * BATCH_SPLIT_CHUNK; c < len; c += (uint64_t)blocks * BATCH_SPLIT_CHUNK) {
        KT key[BATCH_SPLIT_ITEMS];
#pragma unroll
        for (int j = 0; j < BATCH_SPLIT_ITEMS; ++j) {
            const uint64_t p = c + (uint64_t)j * BATCH_SPLIT_THREADS + threadIdx.x;
            key[j] = p < len ? (KT)drtopk_key_at(a.values, start + p, (drtopk_dtype)T, (drtopk_order)a.order) : 0;
        }
#pragma unroll
        for (int j = 0; j < BATCH_SPLIT_ITEMS; ++j) {
            const uint64_t p = c + (uint64_t)j * BATCH_SPLIT_THREADS + threadIdx.x;
            f(key[j], p < len, p);
        }
    }
}

/* One digit pass: block (x, y) counts the digit at `shift` of the keys that
 * match the known digits in its chunks (split_member) of segments y,
 * y + gridDim.y, ...; the last of a segment's blocks picks the digit holding
 * the want-th key (a warp, warp_pick_digit) and clears the counts for the next
 * pass. */
template <int T>
__device__ void split_hist_pass(const batch_args &a, split_state *states, int shift)
{
    __shared__ unsigned int hist[BATCH_DIGITS];         /* a block's count: at most len / blocks + a chunk */
    __shared__ int last;
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = blockIdx.y; i < nseg; i += gridDim.y) {
        split_state *st = states + i;
        /* st's fields are read past L1 (__ldcg): split_fused_kernel's passes share one launch, and a block's
         * L1 may hold the values of the pass before the grid barrier */
        if (__ldcg(&st->done)) continue;        /* set by an earlier pass: the same for every block */
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        unsigned rank, blocks;
        if (!split_member(i, len, &rank, &blocks)) continue;
        for (unsigned d = threadIdx.x; d < BATCH_DIGITS; d += BATCH_SPLIT_THREADS) hist[d] = 0;
        __syncthreads();
        const uint64_t pf = __ldcg(&st->prefix), mk = __ldcg(&st->mask);
        split_chunks<T>(a, start, len, rank, blocks, [&](uint64_t key, bool in, uint64_t) {
            const bool take = in && (key & mk) == pf;
            const unsigned dg = (unsigned)(key >> shift) & (BATCH_DIGITS - 1);
            /* a warp whose keys all count in one digit adds once: the top digits of float keys, and of the Dr.
             * pipeline's delegates and candidates (all near the k-th key) crowd one bin, where 32 same-address
             * shared atomics a warp serialize */
            const unsigned lead = __shfl_sync(DRTOPK_FULL_MASK, dg, 0);
            if (__all_sync(DRTOPK_FULL_MASK, take && dg == lead)) {
                if ((threadIdx.x & DRTOPK_LANE_MASK) == 0) atomicAdd(&hist[dg], (unsigned)DRTOPK_WARP);
            } else if (take) {
                atomicAdd(&hist[dg], 1u);
            }
        });
        __syncthreads();
        for (unsigned d = threadIdx.x; d < BATCH_DIGITS; d += BATCH_SPLIT_THREADS)
            if (hist[d]) atomicAdd(&st->hist[d], (unsigned long long)hist[d]);
        __threadfence();                /* the counts before the arrival */
        __syncthreads();
        if (threadIdx.x == 0) last = atomicAdd(&st->arrived, 1u) == blocks - 1;
        __syncthreads();
        if (last && threadIdx.x < DRTOPK_WARP) {
            __threadfence();
            volatile unsigned long long *h = st->hist;
            const unsigned long long prior = __ldcg(&st->above), want = ks - prior;
            const radix_pick<unsigned long long> pk =
                warp_pick_digit<BATCH_DIGITS>([&](unsigned j) { return h[j]; }, want);
            if (threadIdx.x == 0) {
                st->prefix = pf | (uint64_t)pk.digit << shift;
                st->mask = mk | (uint64_t)(BATCH_DIGITS - 1) << shift;
                st->above = prior + pk.above;
                st->done = shift == 0 || pk.count == want - pk.above; /* the last digit, or the bucket taken whole */
                st->arrived = 0;
            }
        }
        __syncthreads();
        if (last)
            for (unsigned d = threadIdx.x; d < BATCH_DIGITS; d += BATCH_SPLIT_THREADS) st->hist[d] = 0;
    }
}

template <int T>
__global__ void __launch_bounds__(BATCH_SPLIT_THREADS) split_hist_kernel(batch_args a, split_state *states, int shift)
{
    split_hist_pass<T>(a, states, shift);
}

/* The gather: every key whose known digits are larger than the k-th key's,
 * and the first want of the equal ones to claim a slot (warp-aggregated slot
 * counters), by the blocks of the digit passes; the first of them pads the
 * slots past k_s. */
template <int T>
__device__ void split_gather_pass(const batch_args &a, split_state *states)
{
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, lower = (1u << lane) - 1u;
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = blockIdx.y; i < nseg; i += gridDim.y) {
        split_state *st = states + i;
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        const uint64_t pf = __ldcg(&st->prefix), mk = __ldcg(&st->mask), above = __ldcg(&st->above), ties = ks - above;
        unsigned rank, blocks;
        if (!split_member(i, len, &rank, &blocks)) continue;
        if (rank == 0)
            for (uint64_t j = ks + threadIdx.x; j < a.k; j += BATCH_SPLIT_THREADS)
                put<T>(a, s, start, j, DRTOPK_INDEX_NONE);
        split_chunks<T>(a, start, len, rank, blocks, [&](uint64_t key, bool in, uint64_t p) {
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

template <int T>
__global__ void __launch_bounds__(BATCH_SPLIT_THREADS, BATCH_SPLIT_GATHER_BLOCKS) split_gather_kernel(batch_args a, split_state *states)
{
    split_gather_pass<T>(a, states);
}

/* Every digit pass from the key's top digit down, then the gather, in one
 * cooperative launch: a grid barrier stands where a launch boundary did (the
 * last block's digit and cleared counts are visible to every block after
 * it).  The grid is co-resident (split_launch sizes it), and every block
 * reaches every barrier: the passes' loops and early stops are per segment,
 * never per grid. */
template <int T>
__global__ void __launch_bounds__(BATCH_SPLIT_THREADS, BATCH_SPLIT_GATHER_BLOCKS) split_fused_kernel(batch_args a, split_state *states)
{
    /* no segments (the Dr. pipeline's fallback select, mostly): every block returns before the first barrier,
     * none waits at one -- the count, written by an earlier launch, is the same for the whole grid */
    if (seg_count(a) == 0) return;
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    for (int shift = drtopk_dtype_bits((drtopk_dtype)T) - BATCH_DIGIT_BITS; shift >= 0; shift -= BATCH_DIGIT_BITS) {
        split_hist_pass<T>(a, states, shift);
        grid.sync();
    }
    split_gather_pass<T>(a, states);
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
        sort_put<T>(a, s, start, ks, q, threadIdx.x, BATCH_SORT_THREADS, [] { __syncthreads(); });
        __syncthreads();
    }
}
