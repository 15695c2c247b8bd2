/*
 * batch_rowfilter.cuh -- the row filter of the batched top-k: the filter
 * select (batch_filter.cuh) with each uniform row split over blocks, so that
 * a few hundred rows of 128K keys and more (token sampling) are read by the
 * whole GPU at once.  Beyond the paper: onepass's idea (onepass_spec.h) per
 * row.
 *
 * Uniform rows that drtopk_batch_rowfilter_takes (batch_spec.h) gives it, in
 * three launches and the split select's:
 *  1. rowfilter_sample_kernel, a warp a row: the threshold t of the row, the
 *     r-th largest of BATCH_FILTER_SAMPLE keys at onepass_spec.h's positions
 *     (r = drtopk_onepass_rank), and the row's counts cleared; slots past a
 *     row's k_s padded.
 *  2. rowfilter_pass_kernel, a persistent grid over the rows' chunks of
 *     BATCH_ROWFILTER_CHUNK_BYTES (16-byte loads over a row's 16-byte-aligned
 *     vectors, the first chunk also the head and tail elements): every key
 *     > t onto the row's list in global memory as a filter_word, every key
 *     == t onto its list of ties (warp-aggregated slots; lists of `stride`
 *     and k words, their counts going on past them).
 *  3. rowfilter_finish_kernel, a block a row: onepass_spec.h's decision
 *     (drtopk_onepass_decide) over the counts: SELECT, the top k_s of the
 *     list (filter_finish over it copied into shared memory, sorted there
 *     where asked); TAKE (the k-th key is t: ties crowd clustered rows), the
 *     list and the first k_s - gt ties; otherwise the row goes to the split
 *     select's list.
 *  4. the split select over the rows handed to it (usually none).
 * Exact as onepass is (onepass_spec.h).  Bytes: the row read once,
 * BATCH_FILTER_SAMPLE sampled sectors before that, the listed words written
 * and read back once, k_s slots written.
 *
 * Included by batch_topk.cu after batch_filter.cuh (filter_search,
 * filter_finish, hand_to_split; one translation unit).
 */

#define ROWFILTER_SAMPLE_THREADS 32     /* the sample kernel: a row a block (its scattered loads on every SM) */
#define ROWFILTER_THREADS BATCH_FILTER_THREADS /* a pass or select block: filter_finish's merge sort's width */
#define ROWFILTER_MIN_BLOCKS 2          /* pass blocks an SM at least: 64 registers, 1,024 threads' loads in flight */
#define ROWFILTER_STAGE_WORDS 128       /* a warp's staged candidates of a chunk (1 KB; 1/8 of its 32-bit keys) */
#define ROWFILTER_EQ_SHIFT 16           /* a lane's tie count in the upper half of its packed counts */
#define ROWFILTER_GT_MASK 0xFFFFu       /*   its count above t in the lower                        */

/* Where the row filter keeps its state: a row's threshold, its lists of
 * the keys above it and of its ties, and their counts; the split select's list and states. */
typedef struct {
    uint32_t *lo, *hi;          /* the compare words of t's bits (keyorder.h)         */
    unsigned *count;            /* keys > t listed (past stride: the list overflowed) */
    unsigned *ties;             /* keys == t listed (past k: the rest not kept)       */
    uint64_t *words;            /* row s's list at words + s * stride                 */
    uint64_t *tie_words;        /* row s's ties at tie_words + s * k                  */
    uint64_t stride;            /* words a row's list holds                           */
    uint64_t smem_words;        /* a block's shared words: the list copy (and scratch) */
    unsigned long long *fails;  /* rows handed to the split select                    */
    uint64_t *fail_list;
    split_state *states;
} rowfilter_ws;

/* A row's 16-byte-aligned vectors and its elements before and after them. */
struct rowfilter_span {
    unsigned nhead, nvec, tail;
};

template <typename RT>
__device__ __forceinline__ rowfilter_span rowfilter_span_of(const RT *src, unsigned n)
{
    constexpr unsigned V = BATCH_VEC_BYTES / sizeof(RT);
    rowfilter_span sp;
    const unsigned head = (unsigned)(((uintptr_t)0 - (uintptr_t)src) & (BATCH_VEC_BYTES - 1)) / sizeof(RT);
    sp.nhead = head < n ? head : n;
    sp.nvec = (n - sp.nhead) / V;
    sp.tail = sp.nhead + sp.nvec * V;
    return sp;
}

/* The compare word of raw bits b (keyorder.h's drtopk_cmp_word: a word >=
 * the word lo of a key t iff b's key is >= t; no NaN or -0.0 test). */
template <int T, bool SMALLEST>
__device__ __forceinline__ uint32_t rowfilter_word(typename elem_of<T>::raw b)
{
    if constexpr (sizeof(b) == sizeof(uint16_t))
        return drtopk_cmp16_word(b, (drtopk_dtype)T, SMALLEST ? (uint16_t)0xFFFFu : (uint16_t)0u);
    else
        return drtopk_cmp_word(b, (drtopk_dtype)T, SMALLEST ? ~0u : 0u);
}

/* The compare words [*lo, *hi] of the bits whose ordered key (order o) is t. */
template <int T>
__device__ __forceinline__ void rowfilter_range(uint32_t t, drtopk_order o, uint32_t *lo, uint32_t *hi)
{
    if constexpr (sizeof(typename elem_of<T>::raw) == sizeof(uint16_t)) {
        uint16_t l, h;
        drtopk_cmp16_word_range((uint16_t)t, (drtopk_dtype)T, o == DRTOPK_SMALLEST ? (uint16_t)0xFFFFu : (uint16_t)0u,
                                &l, &h);
        *lo = l;
        *hi = h;
    } else {
        drtopk_cmp_word_range(t, (drtopk_dtype)T, o == DRTOPK_SMALLEST ? ~0u : 0u, lo, hi);
    }
}

/* The sample: a warp a row, ROWFILTER_SAMPLE_KEYS sampled keys a lane in
 * registers; t, the r-th largest of them, built a bit at a time from the
 * top (a bit stays set where at least r sampled keys are >= the prefix with
 * it: one compare a key and a warp sum a bit, no shared memory). */
template <int T>
__global__ void __launch_bounds__(ROWFILTER_SAMPLE_THREADS) rowfilter_sample_kernel(batch_args a, rowfilter_ws r)
{
    typedef typename elem_of<T>::raw RT;
    constexpr unsigned KEYS = BATCH_FILTER_SAMPLE / DRTOPK_WARP;
    constexpr int BITS = 8 * sizeof(RT);
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, warps = ROWFILTER_SAMPLE_THREADS / DRTOPK_WARP;
    const drtopk_order order = (drtopk_order)a.order;
    if (blockIdx.x == 0 && threadIdx.x == 0) *r.fails = 0;
    for (uint64_t s = (uint64_t)blockIdx.x * warps + threadIdx.x / DRTOPK_WARP; s < a.segments;
         s += (uint64_t)gridDim.x * warps) {
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        for (uint64_t j = ks + lane; j < a.k; j += DRTOPK_WARP) put<T>(a, s, start, j, DRTOPK_INDEX_NONE);
        if (ks == 0) continue;          /* the warp alike: a row of no slots (the pass skips it) */
        const RT *src = (const RT *)a.values + start;
        const uint64_t n = len;         /* drtopk_batch_rowfilter_takes: below 2^32 */
        RT raw[KEYS];
#pragma unroll
        for (unsigned i = 0; i < KEYS; ++i) raw[i] = src[drtopk_onepass_sample_pos(n, BATCH_FILTER_SAMPLE, i * DRTOPK_WARP + lane)];
        uint32_t key[KEYS];
#pragma unroll
        for (unsigned i = 0; i < KEYS; ++i) key[i] = (uint32_t)drtopk_key_any(raw[i], (drtopk_dtype)T, order);
        const unsigned rank = (unsigned)drtopk_onepass_rank(n, ks, BATCH_FILTER_SAMPLE);
        uint32_t t = 0;
        for (int bit = BITS - 1; bit >= 0; --bit) {
            const uint32_t c = t | 1u << bit;
            unsigned mine = 0;
#pragma unroll
            for (unsigned i = 0; i < KEYS; ++i) mine += key[i] >= c;
            if (__reduce_add_sync(DRTOPK_FULL_MASK, mine) >= rank) t = c;
        }
        if (lane == 0) {
            rowfilter_range<T>(t, order, r.lo + s, r.hi + s);
            r.count[s] = 0;
            r.ties[s] = 0;
        }
    }
}

/* The pass: a persistent grid striding over the rows' chunks (item i is
 * chunk i % chunks of row i / chunks; chunk 0 also holds the head and tail
 * elements), each chunk one trip of the block's loads; no barrier, so each
 * warp goes on to its next chunk on its own.  A key is a candidate where
 * its compare word is at least the row's lo (a few integer operations, no
 * NaN or -0.0 test); only a warp where some key is one sorts them into the
 * keys above t (word > hi) and t's ties, and lists each class: it stages a
 * chunk's candidates in shared memory (at most ROWFILTER_STAGE_WORDS; past
 * that it claims and writes them at once), claims their slots with one
 * atomic a class, and uses the answers only after the next chunk's loads are
 * in flight, when it writes the staged words out.  Ties past the row's k
 * are counted, not kept. */
template <int T, bool SMALLEST>
__global__ void __launch_bounds__(ROWFILTER_THREADS, ROWFILTER_MIN_BLOCKS) rowfilter_pass_kernel(batch_args a,
                                                                                                rowfilter_ws r,
                                                                                                unsigned chunks)
{
    typedef typename elem_of<T>::raw RT;
    constexpr unsigned V = BATCH_VEC_BYTES / sizeof(RT), U = BATCH_FILTER_UNROLL;
    constexpr unsigned CV = BATCH_ROWFILTER_CHUNK_BYTES / BATCH_VEC_BYTES;   /* vectors of a chunk */
    static_assert(CV == ROWFILTER_THREADS * U, "a chunk is one trip of the block's loads");
    constexpr unsigned H = U * V;
    static_assert(H <= 32, "a thread's keys of one trip fit a word of hit bits");
    constexpr drtopk_order ORDER = SMALLEST ? DRTOPK_SMALLEST : DRTOPK_LARGEST;
    __shared__ uint64_t stage_all[ROWFILTER_THREADS / DRTOPK_WARP][ROWFILTER_STAGE_WORDS];
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
    uint64_t *const stage = stage_all[threadIdx.x / DRTOPK_WARP];
    auto key_of = [](RT b) { return (uint32_t)drtopk_key_any(b, (drtopk_dtype)T, ORDER); };
    const unsigned cap = (unsigned)r.stride, tie_cap = (unsigned)a.k;
    /* staged: n_gt words above t, then n_eq ties; (lane 0) their first slots in each list */
    unsigned n_gt = 0, n_eq = 0, base_gt = 0, base_eq = 0;
    uint64_t *out_gt = NULL, *out_eq = NULL;
    auto flush = [&]() {
        const unsigned bg = __shfl_sync(DRTOPK_FULL_MASK, base_gt, 0), be = __shfl_sync(DRTOPK_FULL_MASK, base_eq, 0);
        for (unsigned j = lane; j < n_gt + n_eq; j += DRTOPK_WARP) {
            if (j < n_gt) {
                if (bg + j < cap) out_gt[bg + j] = stage[j];
            } else if (be + j - n_gt < tie_cap) {
                out_eq[be + j - n_gt] = stage[j];
            }
        }
        __syncwarp();                   /* the stage read before it is written again */
        n_gt = n_eq = 0;
    };
    /* chunk c of row s: rows step by gridDim.x / chunks and chunks by the rest, with a carry */
    uint64_t s = blockIdx.x / chunks;
    unsigned c = blockIdx.x % chunks;
    const uint64_t ds = gridDim.x / chunks;
    const unsigned dc = gridDim.x % chunks;
    uint4 q[U];
    uint64_t ks;
    unsigned n;
    uint32_t lo, hi;
    const RT *src;
    rowfilter_span sp;
    auto load = [&]() {         /* the chunk's loads, then its row's lo and hi: in flight together */
        uint64_t start, len;
        ks = seg_info(a, s, &start, &len);
        n = (unsigned)len;              /* drtopk_batch_rowfilter_takes: below 2^32 */
        src = (const RT *)a.values + start;
        sp = rowfilter_span_of(src, n);
        const uint4 *vsrc = (const uint4 *)(src + sp.nhead);
        const unsigned v0 = c * CV + threadIdx.x;
#pragma unroll
        for (unsigned u = 0; u < U; ++u)
            q[u] = ks != 0 && v0 + u * ROWFILTER_THREADS < sp.nvec ? vsrc[v0 + u * ROWFILTER_THREADS]
                                                                    : make_uint4(0, 0, 0, 0);
        lo = r.lo[s];
        hi = r.hi[s];
    };
    if (s >= a.segments) return;
    load();
    for (;;) {
        unsigned *const cnt = r.count + s, *const tcnt = r.ties + s;
        uint64_t *const list = r.words + s * r.stride, *const tlist = r.tie_words + s * a.k;
        const unsigned v0 = c * CV + threadIdx.x, first = sp.nhead + v0 * V;
        const bool live = ks != 0;      /* a row of no slots: padded by the sample kernel */
        unsigned hits = 0;              /* this thread's candidates, a bit each */
#pragma unroll
        for (unsigned u = 0; u < U; ++u) {
            RT e[V];
            memcpy(e, &q[u], sizeof e);
            unsigned hu = 0;
#pragma unroll
            for (unsigned j = 0; j < V; ++j) hu |= (unsigned)(rowfilter_word<T, SMALLEST>(e[j]) >= lo) << j;
            if (live && v0 + u * ROWFILTER_THREADS < sp.nvec) hits |= hu << (u * V);
        }
        if (__any_sync(DRTOPK_FULL_MASK, hits != 0)) {      /* the warp alike */
            unsigned gts = 0;           /* the candidates above t */
#pragma unroll 1
            for (unsigned u = 0; u < U; ++u) {  /* a load at a time (a select, no local memory) */
                static_assert(U == 4, "the selects below name four loads");
                const uint4 qu = u == 0 ? q[0] : u == 1 ? q[1] : u == 2 ? q[2] : q[3];
                RT e[V];
                memcpy(e, &qu, sizeof e);
#pragma unroll
                for (unsigned j = 0; j < V; ++j) gts |= (unsigned)(rowfilter_word<T, SMALLEST>(e[j]) > hi) << (u * V + j);
            }
            gts &= hits;
            const unsigned mine_gt = (unsigned)__popc(gts), mine_eq = (unsigned)__popc(hits & ~gts);
            const unsigned incl = warp_incl_sum(mine_gt | mine_eq << ROWFILTER_EQ_SHIFT);
            const unsigned warp_both = __shfl_sync(DRTOPK_FULL_MASK, incl, DRTOPK_WARP - 1);
            const unsigned warp_gt = warp_both & ROWFILTER_GT_MASK, warp_eq = warp_both >> ROWFILTER_EQ_SHIFT;
            unsigned at_gt = (incl & ROWFILTER_GT_MASK) - mine_gt, at_eq = (incl >> ROWFILTER_EQ_SHIFT) - mine_eq;
            uint64_t *dst_gt = stage, *dst_eq = stage + warp_gt;
            unsigned end_gt = ROWFILTER_STAGE_WORDS, end_eq = ROWFILTER_STAGE_WORDS - warp_gt;
            if (warp_gt + warp_eq <= ROWFILTER_STAGE_WORDS) {   /* staged; claimed now, written after the next loads */
                if (lane == 0) {
                    if (warp_gt) base_gt = atomicAdd(cnt, warp_gt);
                    if (warp_eq) base_eq = atomicAdd(tcnt, warp_eq);
                }
                n_gt = warp_gt;
                n_eq = warp_eq;
                out_gt = list;
                out_eq = tlist;
            } else {                    /* past the stage (ties crowd the row): claimed and written at once */
                unsigned bg = 0, be = 0;
                if (lane == 0) {
                    if (warp_gt) bg = atomicAdd(cnt, warp_gt);
                    if (warp_eq) be = atomicAdd(tcnt, warp_eq);
                }
                at_gt += __shfl_sync(DRTOPK_FULL_MASK, bg, 0);
                at_eq += __shfl_sync(DRTOPK_FULL_MASK, be, 0);
                dst_gt = list;
                dst_eq = tlist;
                end_gt = cap;
                end_eq = tie_cap;
            }
#pragma unroll 1
            for (unsigned u = 0; u < U; ++u) {
                const uint4 qu = u == 0 ? q[0] : u == 1 ? q[1] : u == 2 ? q[2] : q[3];
                const unsigned hu = hits >> (u * V) & ((1u << V) - 1u), gu = gts >> (u * V);
                if (hu == 0) continue;
                RT e[V];
                memcpy(e, &qu, sizeof e);
#pragma unroll
                for (unsigned j = 0; j < V; ++j)
                    if (hu >> j & 1u) {
                        const uint64_t w = filter_word(key_of(e[j]), first + u * ROWFILTER_THREADS * V + j);
                        if (gu >> j & 1u) {
                            if (at_gt < end_gt) dst_gt[at_gt] = w;
                            ++at_gt;
                        } else {
                            if (at_eq < end_eq) dst_eq[at_eq] = w;
                            ++at_eq;
                        }
                    }
            }
            __syncwarp();               /* the stage written before it is flushed */
        }
        if (live && c == 0 && threadIdx.x < DRTOPK_WARP) {  /* head and tail elements: a lane each */
            const unsigned p = lane < V ? lane : sp.tail + lane - V;
            const bool in = lane < V ? lane < sp.nhead : lane < 2 * V && p < n;
            const RT b = in ? src[p] : (RT)0;
            const uint32_t wd = rowfilter_word<T, SMALLEST>(b);
            unsigned at;
            if (warp_slot(in && wd > hi, cnt, &at) && at < cap) list[at] = filter_word(key_of(b), p);
            if (warp_slot(in && wd >= lo && wd <= hi, tcnt, &at) && at < tie_cap) tlist[at] = filter_word(key_of(b), p);
        }
        s += ds;
        c += dc;
        if (c >= chunks) {
            c -= chunks;
            ++s;
        }
        if (s >= a.segments) break;
        load();
        if (n_gt + n_eq) flush();
    }
    if (n_gt + n_eq) flush();
}

/* The select, a block a row, by onepass_spec.h's decision over the row's
 * gt keys above t and eq ties: SELECT (k_s <= gt <= stride: the list holds
 * every key >= the k-th, so filter_finish over it copied into shared memory
 * gives the top k_s), TAKE (gt < k_s <= gt + eq: the k-th key is t; the gt
 * words and the first k_s - gt listed ties are the top k_s, filter_finish
 * sorting them where asked), else FALLBACK (t let too few or too many
 * through): the row goes to the split select's list. */
template <int T>
__global__ void __launch_bounds__(ROWFILTER_THREADS) rowfilter_finish_kernel(batch_args a, rowfilter_ws r, int sorted)
{
    typedef typename elem_of<T>::raw RT;
    extern __shared__ uint64_t rowfilter_smem[];
    __shared__ filter_head f;
    __shared__ unsigned hist[BATCH_DIGITS];
    uint64_t *const w = rowfilter_smem, *const best = rowfilter_smem + r.smem_words;
    for (uint64_t s = blockIdx.x; s < a.segments; s += gridDim.x) {
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        if (ks == 0) continue;          /* the block alike */
        const unsigned kn = (unsigned)ks, gt = r.count[s], eq = r.ties[s];
        const drtopk_onepass_mode mode = drtopk_onepass_decide(gt, eq, kn, r.stride);
        if (mode == DRTOPK_ONEPASS_FALLBACK) {
            if (threadIdx.x == 0) hand_to_split(r.fails, r.fail_list, r.states, s);
            continue;
        }
        const uint64_t *list = r.words + s * r.stride, *ties = r.tie_words + s * a.k;
        const unsigned c = mode == DRTOPK_ONEPASS_SELECT ? gt : kn;     /* TAKE: the gt words and kn - gt ties */
        for (unsigned j = threadIdx.x; j < c; j += ROWFILTER_THREADS) w[j] = j < gt ? list[j] : ties[j - gt];
        __syncthreads();
        filter_finish<T, ROWFILTER_THREADS>(a, s, start, w, best, c, kn, (int)(8 * sizeof(RT)), sorted, &f, hist);
        __syncthreads();                /* the words and f read before the next row's */
    }
}
