/*
 * batch_filter.cuh -- the filter select of the batched top-k: the onepass idea per
 * segment (sparse attention).
 *
 * Filter select (segments and uniform rows of keys of at most 32 bits
 * longer than the plan's filter_min_len whose expected candidates fit a
 * block, where the staged select would not list its candidates from a
 * sample; the onepass idea per segment: sparse attention's k = 2048 to
 * 4096 of up to 128K keys): a block per segment takes about the r-th largest of
 * BATCH_FILTER_SAMPLE keys at onepass_spec.h's positions (its rank r; a
 * radix search, below) as the threshold t, reads the segment once (16-byte loads) and
 * lists every key >= t in shared memory as one 64-bit word (the ordered
 * key above the complemented position: the larger word is the better
 * key, ties by the smaller position), warp-aggregated slots; a list of at
 * least k_s and at most the block's words (BATCH_FILTER_WORDS; a wide
 * block of BATCH_FILTER_WIDE_THREADS threads, one an SM, holds
 * BATCH_FILTER_WIDE_WORDS for segments whose sampled capacity passes
 * that: k = 4096 of 128K keys, k = 2048 of 256K) holds every key >= the
 * k-th key: a radix search of the words' keys (8-bit digits in shared
 * memory) finds the k-th key, and the words above it and the first
 * enough of its ties to claim a slot are the top k_s (sorted results:
 * sorted in shared memory: a block merge sort past k_s =
 * BATCH_FILTER_MERGE_K, else a bitonic whose strides below
 * BATCH_SORT_GROUP stay in a warp's registers).
 * A segment of at most BATCH_FILTER_WORDS keys is listed whole (no
 * sample).  A threshold that lets more or fewer through hands the
 * segment to the split radix select.  Bytes: the segment read once, its
 * BATCH_FILTER_SAMPLE sampled keys before that (a 32-byte sector each:
 * 6% of a segment of 128K f32 keys), k_s slots written.
 *
 * Included by batch_topk.cu after batch_common.cuh and batch_split.cuh (its
 * split_state; one translation unit: the bins and launches are there).
 */

/* A candidate as one word: its ordered key above, the complement of its
 * position below, so that a larger word is a better candidate (key desc,
 * position asc: the total order of kbetter) and 0 is below every candidate
 * (a position is less than 2^32 - 1). */
__device__ __forceinline__ uint64_t filter_word(uint32_t key, uint32_t pos)
{
    return (uint64_t)key << 32 | (uint32_t)~pos;
}
__device__ __forceinline__ uint32_t filter_pos(uint64_t w) { return ~(uint32_t)w; }

/* One compare-exchange step of a bitonic merge of size `size` for a word x
 * at index i whose partner (at i ^ stride) holds y: the pair's lower index
 * keeps the larger word where i's block of `size` runs best first. */
__device__ __forceinline__ uint64_t bitonic_keep(uint64_t x, uint64_t y, unsigned i, unsigned stride, unsigned size)
{
    return ((i & stride) == 0) == ((i & size) == 0) ? (x > y ? x : y) : (x < y ? x : y);
}

/* Steps stride = hi, hi / 2, ..., 1 of the merge of size `size` over the
 * BATCH_SORT_GROUP words a warp holds, BATCH_SORT_REGS a lane: x[r] is word
 * base + r * 32 + lane.  Strides of a warp or more pair a lane's own
 * registers, smaller ones pair lanes (shuffles); no barrier. */
__device__ __forceinline__ void sort_steps_in_warp(uint64_t (&x)[BATCH_SORT_REGS], unsigned base, unsigned size,
                                                   unsigned hi, unsigned lane)
{
    static_assert(BATCH_SORT_REGS == 4, "the register strides below are those of 4 words a lane");
    for (unsigned stride = hi; stride > 0; stride >>= 1) {
        if (stride >= DRTOPK_WARP) {
            const unsigned rs = stride / DRTOPK_WARP;           /* 1 or 2: register index distance */
            const unsigned lo1 = rs == 1 ? 2 : 1;               /* the second pair's lower register */
            const uint64_t a0 = x[0], b0 = rs == 1 ? x[1] : x[2], a1 = rs == 1 ? x[2] : x[1], b1 = x[3];
            const unsigned i0 = base + lane, i1 = base + lo1 * DRTOPK_WARP + lane;
            const uint64_t n0 = bitonic_keep(a0, b0, i0, stride, size), m0 = a0 ^ b0 ^ n0;
            const uint64_t n1 = bitonic_keep(a1, b1, i1, stride, size), m1 = a1 ^ b1 ^ n1;
            x[0] = n0;
            x[3] = m1;
            if (rs == 1) { x[1] = m0; x[2] = n1; }
            else { x[2] = m0; x[1] = n1; }
        } else {
#pragma unroll
            for (unsigned r = 0; r < BATCH_SORT_REGS; ++r)
                x[r] = bitonic_keep(x[r], __shfl_xor_sync(DRTOPK_FULL_MASK, x[r], stride),
                                    base + r * DRTOPK_WARP + lane, stride, size);
        }
    }
}

/* Sort w[0..n) largest first (n a power of two, BATCH_SORT_GROUP <= n <=
 * BATCH_SORT_REGS * blockDim.x) with the whole block, bitonic: a warp holds
 * BATCH_SORT_GROUP words in registers, so only the strides of a group or
 * more go through shared memory (for 2048 words: 10 of the 66 steps, and
 * 15 barriers). */
__device__ void filter_sort(uint64_t *w, unsigned n)
{
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, base = threadIdx.x / DRTOPK_WARP * BATCH_SORT_GROUP;
    const bool holds = base < n;        /* the warp alike */
    uint64_t x[BATCH_SORT_REGS];
    auto load = [&] {
#pragma unroll
        for (unsigned r = 0; r < BATCH_SORT_REGS; ++r) x[r] = w[base + r * DRTOPK_WARP + lane];
    };
    auto store = [&] {
#pragma unroll
        for (unsigned r = 0; r < BATCH_SORT_REGS; ++r) w[base + r * DRTOPK_WARP + lane] = x[r];
    };
    if (holds) {
        load();
        for (unsigned size = 2; size <= BATCH_SORT_GROUP; size <<= 1) sort_steps_in_warp(x, base, size, size / 2, lane);
        store();
    }
    __syncthreads();
    for (unsigned size = 2 * BATCH_SORT_GROUP; size <= n; size <<= 1) {
        for (unsigned stride = size >> 1; stride >= BATCH_SORT_GROUP; stride >>= 1) {
            for (unsigned t = threadIdx.x; t < n / 2; t += blockDim.x) {
                const unsigned i = 2 * t - (t & (stride - 1)), j = i + stride;
                const uint64_t x0 = w[i], y0 = w[j];
                if ((i & size) == 0 ? y0 > x0 : x0 > y0) {
                    w[i] = y0;
                    w[j] = x0;
                }
            }
            __syncthreads();
        }
        if (holds) {
            load();
            sort_steps_in_warp(x, base, size, BATCH_SORT_GROUP / 2, lane);
            store();
        }
        __syncthreads();
    }
}

/* A warp-aggregated slot of counter *ctr (shared or global) for each lane
 * that takes one; every lane of the warp calls it.  Returns take, with the
 * lane's slot in *at. */
__device__ __forceinline__ bool warp_slot(bool take, unsigned *ctr, unsigned *at)
{
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
    const unsigned b = __ballot_sync(DRTOPK_FULL_MASK, take);
    if (b == 0) return false;           /* the warp alike */
    unsigned base = 0;
    if (lane == 0) base = atomicAdd(ctr, (unsigned)__popc(b));
    *at = __shfl_sync(DRTOPK_FULL_MASK, base, 0) + __popc(b & ((1u << lane) - 1u));
    return take;
}

/* The block merge sort of a sorted k_s past BATCH_FILTER_MERGE_K (THREADS
 * threads, the block holds BATCH_SORT_MAX words), and the words of its
 * scratch, which lies in the listed words. */
template <unsigned THREADS>
using filter_merge = cub::BlockMergeSort<uint64_t, THREADS, BATCH_SORT_MAX / THREADS>;
template <unsigned THREADS>
constexpr size_t filter_merge_words()
{
    return (sizeof(typename filter_merge<THREADS>::TempStorage) + sizeof(uint64_t) - 1) / sizeof(uint64_t);
}

/* A filter block's search state (shared memory). */
typedef struct {
    uint64_t prefix, mask;      /* the want-th word's known digits          */
    unsigned want;              /* words still wanted in the prefix's bucket */
    unsigned done;              /* the bucket is taken whole               */
    unsigned listed, placed;    /* words listed; output slots handed out    */
    unsigned ties;              /* words of the k-th key that claimed a slot */
} filter_head;

/* The want-th largest key (1 <= want <= n) of the words w[0..n) -- their
 * key bits, filter_word's upper half; the highest `high` bits of it may be
 * set -- found by the block digit by digit from the top (8 bits: a shared
 * histogram of the words in the bucket so far, warp_pick_digit by warp 0) until a
 * digit's bucket is taken whole or the key bits run out.  Then the words x
 * with (x & f->mask) > f->prefix are the kn - f->want best, and f->want more
 * are among those with (x & f->mask) == f->prefix (all of them where
 * f->done).  f->prefix's undecided bits are 0, so its key is at most the
 * want-th largest. */
__device__ void filter_search(const uint64_t *w, unsigned n, unsigned want, int high, filter_head *f, unsigned *hist)
{
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, lower = (1u << lane) - 1u;
    if (threadIdx.x == 0) {
        f->prefix = f->mask = 0;
        f->want = want;
        f->done = 0;
    }
    for (int shift = BATCH_FILTER_KEY_SHIFT + high - BATCH_DIGIT_BITS; shift >= BATCH_FILTER_KEY_SHIFT;
         shift -= BATCH_DIGIT_BITS) {
        __syncthreads();                /* the last pick written, its counts read */
        if (f->done) break;             /* the block alike */
        const uint64_t pf = f->prefix, mk = f->mask;
        for (unsigned d = threadIdx.x; d < BATCH_DIGITS; d += blockDim.x) hist[d] = 0;
        __syncthreads();
        for (unsigned j0 = 0; j0 < n; j0 += blockDim.x) {
            const unsigned j = j0 + threadIdx.x;
            const uint64_t x = j < n ? w[j] : 0;
            const bool in = j < n && (x & mk) == pf;
            const unsigned d = (unsigned)(x >> shift) & (BATCH_DIGITS - 1);
            /* one atomic for a warp's lanes of one digit: ties and the top digits of small keys crowd one bin */
            const unsigned peers = __match_any_sync(DRTOPK_FULL_MASK, in ? d : ~0u);
            if (in && (peers & lower) == 0) atomicAdd(&hist[d], (unsigned)__popc(peers));
        }
        __syncthreads();
        if (threadIdx.x < DRTOPK_WARP) {
            const unsigned wa = f->want;
            const radix_pick<unsigned> pk = warp_pick_digit<BATCH_DIGITS>([&](unsigned j) { return hist[j]; }, wa);
            __syncwarp();               /* every lane has read want before lane 0 rewrites it */
            if (threadIdx.x == 0) {
                f->prefix = pf | (uint64_t)pk.digit << shift;
                f->mask = mk | (uint64_t)(BATCH_DIGITS - 1) << shift;
                f->want = wa - pk.above;
                f->done = pk.count == wa - pk.above;
            }
        }
    }
    __syncthreads();
}

/* The top k_s = kn of segment s (at start) from the c >= kn words w[0..c) in
 * shared memory that hold every key at or above its k-th (the block of
 * THREADS threads): the words above the k-th key (filter_search) and the
 * first enough of its ties to claim a slot; sorted, through best
 * (pow2_at_least(kn, BATCH_SORT_GROUP) words, BATCH_SORT_MAX past
 * BATCH_FILTER_MERGE_K, whose merge sort's scratch is w: at least
 * filter_merge_words words), else straight to the output. */
template <int T, unsigned THREADS>
__device__ void filter_finish(const batch_args &a, uint64_t s, uint64_t start, uint64_t *w, uint64_t *best,
                              unsigned c, unsigned kn, int high, int sorted, filter_head *fh, unsigned *hist)
{
    filter_head &f = *fh;
    if (threadIdx.x == 0) f.placed = f.ties = 0;
    __syncthreads();
    auto emit = [&](unsigned at, uint64_t x) {
        if (sorted) best[at] = x;
        else put<T>(a, s, start, at, filter_pos(x));
    };
    if (c == kn) {                  /* the list is the top k_s (a segment its own top k): no search */
        for (unsigned j = threadIdx.x; j < c; j += blockDim.x) emit(j, w[j]);
    } else {
        filter_search(w, c, kn, high, &f, hist);
        const uint64_t pf = f.prefix, mk = f.mask;
        const unsigned want = f.want, above = kn - want;
        for (unsigned j0 = 0; j0 < c; j0 += blockDim.x) {  /* the words above the k-th key, then its ties */
            const unsigned j = j0 + threadIdx.x;
            const uint64_t x = j < c ? w[j] : 0;
            unsigned at;
            if (warp_slot(j < c && (x & mk) > pf, &f.placed, &at)) emit(at, x);
            if (warp_slot(j < c && (x & mk) == pf, &f.ties, &at) && at < want) emit(above + at, x);
        }
    }
    if (sorted) {
        if (kn > BATCH_FILTER_MERGE_K) {
            /* a block merge sort, its scratch in the words (read by now): n log n steps where the
             * bitonic takes n log^2 n / 2 */
            constexpr unsigned R = BATCH_SORT_MAX / THREADS;     /* words a thread: the block holds k_s */
            typedef filter_merge<THREADS> merge_sort;
            __syncthreads();        /* best written, the words read */
            uint64_t x[R];
#pragma unroll
            for (unsigned r = 0; r < R; ++r) {
                const unsigned j = threadIdx.x * R + r;
                x[r] = j < kn ? best[j] : 0;
            }
            merge_sort(*reinterpret_cast<typename merge_sort::TempStorage *>(w))
                .Sort(x, cuda::std::greater<uint64_t>());
#pragma unroll
            for (unsigned r = 0; r < R; ++r) best[threadIdx.x * R + r] = x[r];
        } else {
            const unsigned m = pow2_at_least(kn, BATCH_SORT_GROUP);
            for (unsigned j = kn + threadIdx.x; j < m; j += blockDim.x) best[j] = 0;
            __syncthreads();
            filter_sort(best, m);
        }
        __syncthreads();
        for (unsigned j = threadIdx.x; j < kn; j += blockDim.x) put<T>(a, s, start, j, filter_pos(best[j]));
    }
}

/* Hand segment s to the split select: its id onto the split list (of size
 * *count) and a fresh search state beside it. */
__device__ __forceinline__ void hand_to_split(unsigned long long *count, uint64_t *list, split_state *states,
                                              uint64_t s)
{
    const unsigned long long at = atomicAdd(count, 1ull);
    list[at] = s;
    unsigned long long *w = (unsigned long long *)(states + at);
    for (size_t j = 0; j < sizeof(split_state) / sizeof *w; ++j) w[j] = 0;
}

/* Hand segment s of bin BIN to the split select (a later bin): a threshold
 * that let too many or too few keys through. */
template <int BIN>
__device__ __forceinline__ void filter_fall_back(const batch_args &a, uint64_t s, split_state *states)
{
    static_assert(BIN < BIN_SPLIT, "the split select runs after the filter's bins");
    hand_to_split((unsigned long long *)a.count + (BIN_SPLIT - BIN),
                  (uint64_t *)a.list + (uint64_t)(BIN_SPLIT - BIN) * a.segments, states, s);
}

/* A block per segment (keys of at most 32 bits): the threshold t is at most
 * the r-th largest of BATCH_FILTER_SAMPLE keys at onepass_spec.h's positions
 * (r its rank; filter_search over the sampled words' keys; a segment of at
 * most BATCH_FILTER_WORDS keys: no sample, t the least key); one read of the
 * segment (16-byte loads) lists every key >= t as a word in shared memory
 * (warp-aggregated slots).  Where the list holds at least k_s and at most
 * the block's words (filter_shape), it holds every key >= the k-th: the words above
 * the k-th key (filter_search) and the first enough of its ties to claim a
 * slot are the segment's top k_s; sorted, they are sorted in shared memory.
 * Otherwise the segment goes to the split select. */
template <int T, int BIN>
__global__ void __launch_bounds__(filter_shape<BIN>::threads) filter_kernel(batch_args a, split_state *states,
                                                                              int sorted)
{
    typedef typename elem_of<T>::raw RT;
    constexpr unsigned V = BATCH_VEC_BYTES / sizeof(RT);
    constexpr unsigned W = filter_shape<BIN>::words, THREADS = filter_shape<BIN>::threads;
    extern __shared__ uint64_t filter_smem[];
    uint64_t *const w = filter_smem, *const best = filter_smem + W;    /* best: sorted only */
    __shared__ filter_head f;
    __shared__ unsigned hist[BATCH_DIGITS];
    static_assert(filter_merge_words<THREADS>() <= W, "the merge sort's scratch fits the words");
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
    const int high = (int)(8 * sizeof(RT));   /* the ordered keys' width: 16 or 32 bits */
    const drtopk_order order = (drtopk_order)a.order;
    auto key_of = [&](RT b) { return (uint32_t)drtopk_key_any(b, (drtopk_dtype)T, order); };
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = blockIdx.x; i < nseg; i += gridDim.x) {
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        for (uint64_t j = ks + threadIdx.x; j < a.k; j += blockDim.x) put<T>(a, s, start, j, DRTOPK_INDEX_NONE);
        const unsigned n = (unsigned)len, kn = (unsigned)ks;   /* drtopk_batch_filter_takes: below 2^32 */
        const RT *src = (const RT *)a.values + start;
        uint32_t t = 0;
        if (n > BATCH_FILTER_WORDS) {
            for (unsigned j = threadIdx.x; j < BATCH_FILTER_SAMPLE; j += blockDim.x) {
                const unsigned p = (unsigned)drtopk_onepass_sample_pos(n, BATCH_FILTER_SAMPLE, j);
                w[j] = filter_word(key_of(src[p]), p);
            }
            filter_search(w, BATCH_FILTER_SAMPLE, (unsigned)drtopk_onepass_rank(n, ks, BATCH_FILTER_SAMPLE), high,
                          &f, hist);
            t = (uint32_t)(f.prefix >> BATCH_FILTER_KEY_SHIFT);
        }
        if (threadIdx.x == 0) f.listed = 0;
        __syncthreads();                /* t read, the counts zeroed: the words are free */
        auto list = [&](bool in, uint32_t key, unsigned p) {
            unsigned at;
            if (warp_slot(in && key >= t, &f.listed, &at) && at < W) w[at] = filter_word(key, p);
        };
        /* head elements up to a 16-byte boundary and the tail: warp 0, a lane each */
        const unsigned head = (unsigned)(((uintptr_t)0 - (uintptr_t)src) & (BATCH_VEC_BYTES - 1)) / sizeof(RT);
        const unsigned nhead = head < n ? head : n, nvec = (n - nhead) / V, tail = nhead + nvec * V;
        if (threadIdx.x < DRTOPK_WARP) {
            const unsigned p = lane < V ? lane : tail + lane - V;
            const bool in = lane < V ? lane < nhead : lane < 2 * V && p < n;
            list(in, in ? key_of(src[p]) : 0, p);
        }
        const uint4 *vsrc = (const uint4 *)(src + nhead);
        const unsigned step = blockDim.x * BATCH_FILTER_UNROLL;
        for (unsigned v0 = threadIdx.x; v0 - threadIdx.x < nvec; v0 += step) {
            uint4 q[BATCH_FILTER_UNROLL];
#pragma unroll
            for (unsigned u = 0; u < BATCH_FILTER_UNROLL; ++u)
                q[u] = v0 + u * blockDim.x < nvec ? vsrc[v0 + u * blockDim.x] : make_uint4(0, 0, 0, 0);
            /* a thread's hits as bits, then one warp scan and one shared atomic for the warp's hits (a few
             * in a hundred keys pass t: a ballot a key would cost more than the read) */
            constexpr unsigned H = BATCH_FILTER_UNROLL * V;
            static_assert(H <= 32, "a thread's keys of one trip fit a word of hit bits");
            uint32_t kv[H];
            unsigned hits = 0;
#pragma unroll
            for (unsigned u = 0; u < BATCH_FILTER_UNROLL; ++u) {
                RT e[V];
                memcpy(e, &q[u], sizeof e);
#pragma unroll
                for (unsigned j = 0; j < V; ++j) {
                    kv[u * V + j] = key_of(e[j]);
                    if (v0 + u * blockDim.x < nvec && kv[u * V + j] >= t) hits |= 1u << (u * V + j);
                }
            }
            const unsigned mine = (unsigned)__popc(hits);
            const unsigned incl = warp_incl_sum(mine);
            const unsigned warp_hits = __shfl_sync(DRTOPK_FULL_MASK, incl, DRTOPK_WARP - 1);
            if (warp_hits == 0) continue;       /* the warp alike */
            unsigned base = 0;
            if (lane == 0) base = atomicAdd(&f.listed, warp_hits);
            unsigned at = __shfl_sync(DRTOPK_FULL_MASK, base, 0) + incl - mine;
#pragma unroll
            for (unsigned h = 0; h < H; ++h)
                if (hits >> h & 1u) {
                    if (at < W)
                        w[at] = filter_word(kv[h], nhead + (v0 + h / V * blockDim.x) * V + h % V);
                    ++at;
                }
        }
        __syncthreads();
        const unsigned c = f.listed;
        if (c < kn || c > W) {
            if (threadIdx.x == 0) filter_fall_back<BIN>(a, s, states);
            __syncthreads();            /* f read before the next segment's */
            continue;
        }
        filter_finish<T, THREADS>(a, s, start, w, best, c, kn, high, sorted, &f, hist);
        __syncthreads();                /* the words and f read before the next segment's */
    }
}
