/*
 * batch_tiny.cuh -- tiny rows of the batched top-k: a warp's registers.
 *
 * Tiny rows (at most 256 keys, k <= the plan's tiny_max_k; MoE routing) run
 * in one warp, 8 keys a lane, ranked by (ordered key descending, position
 * ascending).  Keys of at most 32 bits take the threshold select first (the
 * onepass idea inside a warp: a threshold that at least k_s keys reach, the
 * few keys at or above it ranked exactly); a row it cannot settle, and
 * every row of 64-bit keys, takes the sorted pops.  Bytes: the row read
 * once, k_s slots written.
 *
 * Included by batch_topk.cu after batch_common.cuh (one translation unit:
 * the bins and launches are there).
 */
/* Whether item j beats item i: (ordered key desc, position asc), a total order. */
template <typename KT>
__device__ __forceinline__ bool tiny_better(KT kj, unsigned pj, KT ki, unsigned pi)
{
    return kj > ki || (kj == ki && pj < pi);
}

/* Sort n (key, position) items best first in registers: Batcher's odd-even
 * merge sort (19 compare-exchanges for 8), every index a compile-time
 * constant once the loops unroll. */
template <unsigned N, typename KT>
__device__ __forceinline__ void tiny_sort(KT (&key)[N], unsigned (&pos)[N])
{
#pragma unroll
    for (unsigned p = 1; p < N; p <<= 1)
#pragma unroll
        for (unsigned k = p; k >= 1; k >>= 1)
#pragma unroll
            for (unsigned j = k % p; j + k < N; j += 2 * k)
#pragma unroll
                for (unsigned i = 0; i < k && i + j + k < N; ++i) {
                    const unsigned x = i + j, y = i + j + k;
                    if ((x / (2 * p)) != (y / (2 * p))) continue;
                    if (tiny_better(key[y], pos[y], key[x], pos[x])) {
                        const KT tk = key[x];
                        const unsigned tp = pos[x];
                        key[x] = key[y];
                        pos[x] = pos[y];
                        key[y] = tk;
                        pos[y] = tp;
                    }
                }
}

/* One round over a warp's lists sorted best first (key[0] the head, *rem keys
 * left in the lane; some lane has one): the best head leaves its list (the
 * lowest lane holding it: the smallest position where lanes hold consecutive
 * ones).  Every lane gets its key (returned) and position (*wpos). */
template <unsigned N, typename KT>
__device__ __forceinline__ KT tiny_pop(KT (&key)[N], unsigned (&pos)[N], unsigned *rem, unsigned *wpos)
{
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
    const KT m = warp_max(*rem ? key[0] : (KT)0);       /* a lane with a key left holds the max */
    const unsigned win = __ffs(__ballot_sync(DRTOPK_FULL_MASK, *rem && key[0] == m)) - 1;
    *wpos = __shfl_sync(DRTOPK_FULL_MASK, pos[0], win);
    if (lane == win) {
#pragma unroll
        for (unsigned j = 0; j + 1 < N; ++j) {
            key[j] = key[j + 1];
            pos[j] = pos[j + 1];
        }
        --*rem;
    }
    return m;
}

/* A candidate of the threshold select as one word that orders (key
 * descending, position ascending) by unsigned compare: the key above the
 * position's complement; 32 bits for keys of 16 bits, else 64. */
template <int T> struct tiny_rank_word {
    typedef typename std::conditional<sizeof(typename elem_of<T>::raw) == sizeof(uint16_t), uint32_t,
                                      uint64_t>::type type;
    static constexpr unsigned pos_bits = sizeof(type) * 4;
};

/* The threshold select of a row of at most 32-bit ordered keys (k_s >= 1):
 * lane l holds the keys at positions j * 32 + l (j < 8; coalesced loads, and
 * a sorted row spreads its top over the lanes).  t, the k_s-th largest of
 * the lanes' maxima (one warp max a distinct maximum), has at least k_s keys
 * at or above it, so the row's top k_s are all >= t.  The candidates are the
 * keys >= t if at most 32; else those > t if k_s..32 of them; else, if fewer
 * than k_s are > t (the k_s-th key is t), those > t and the first k_s - g
 * keys equal to t by position.  Each lane packs its candidates into the
 * warp's sc (after the lower lanes' candidates; slots 32..63 take the
 * other keys' stores, so that no store branches) as rank words
 * (tiny_rank_word), so a candidate's rank is how many words exceed its own,
 * and rank r fills slot r (the value from its key).  Returns false, having
 * written nothing, when more than 32 keys are above t (the sorted pops take
 * the row). */
template <int T>
__device__ __forceinline__ bool tiny_threshold(const batch_args &a, uint64_t s, uint64_t start, unsigned len,
                                               unsigned ks, typename tiny_rank_word<T>::type *sc)
{
    typedef typename elem_of<T>::raw RT;
    typedef typename tiny_rank_word<T>::type WT;
    constexpr unsigned I = BATCH_TINY_ITEMS, PB = tiny_rank_word<T>::pos_bits;
    constexpr WT PMASK = ((WT)1 << PB) - 1;     /* a rank word's position bits */
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, below = (1u << lane) - 1;
    const RT *row = (const RT *)a.values + start;
    uint32_t key[I], top = 0;   /* top: the lane's largest key (where lane < len) */
#pragma unroll
    for (unsigned j = 0; j < I; ++j) {
        const unsigned p = j * DRTOPK_WARP + lane;
        key[j] = p < len ? (uint32_t)drtopk_key_any(row[p], (drtopk_dtype)T, (drtopk_order)a.order) : 0u;
        top = max(top, key[j]);
    }
    bool live = lane < len;     /* min(len, 32) >= k_s lanes hold a maximum: the loop ends */
    unsigned need = ks;
    uint32_t t;
    for (;;) {
        t = warp_max(live ? top : 0u);
        const unsigned at = __popc(__ballot_sync(DRTOPK_FULL_MASK, live && top == t));
        if (at >= need) break;
        need -= at;
        live = live && top != t;
    }
    unsigned mine = 0;          /* bit j: key j is a candidate */
#pragma unroll
    for (unsigned j = 0; j < I; ++j) mine |= (unsigned)(j * DRTOPK_WARP + lane < len && key[j] >= t) << j;
    unsigned n = __reduce_add_sync(DRTOPK_FULL_MASK, __popc(mine));
    if (n > DRTOPK_WARP) {      /* ties at t by position: ballots in position order */
        unsigned gt[I], g = 0;
#pragma unroll
        for (unsigned j = 0; j < I; ++j) {
            gt[j] = __ballot_sync(DRTOPK_FULL_MASK, j * DRTOPK_WARP + lane < len && key[j] > t);
            g += __popc(gt[j]);
        }
        if (g > DRTOPK_WARP) return false;
        unsigned ties = 0;
        mine = 0;
#pragma unroll
        for (unsigned j = 0; j < I; ++j) {
            const unsigned eq = __ballot_sync(DRTOPK_FULL_MASK, j * DRTOPK_WARP + lane < len && key[j] == t);
            const bool tie = g < ks && (eq >> lane & 1) && ties + __popc(eq & below) < ks - g;
            mine |= (unsigned)((gt[j] >> lane & 1) || tie) << j;
            ties += __popc(eq);
        }
        n = __reduce_add_sync(DRTOPK_FULL_MASK, __popc(mine));
    }
    const unsigned c = __popc(mine);    /* at most I: its bits add the lower lanes' counts */
    unsigned slot = 0;
#pragma unroll
    for (unsigned b = 0; (1u << b) <= I; ++b) slot += __popc(__ballot_sync(DRTOPK_FULL_MASK, c >> b & 1) & below) << b;
#pragma unroll
    for (unsigned j = 0; j < I; ++j) {  /* every key stored: a candidate to its slot, the rest to scratch */
        const unsigned hit = mine >> j & 1;
        sc[hit ? slot : DRTOPK_WARP + lane] = (WT)key[j] << PB | (~(WT)(j * DRTOPK_WARP + lane) & PMASK);
        slot += hit;
    }
    __syncwarp();
    const WT w = lane < n ? sc[lane] : (WT)0;
    unsigned rank = 0;          /* candidates before this one */
#pragma unroll 4
    for (unsigned j = 0; j < n; ++j) rank += sc[j] > w;
    __syncwarp();               /* the next row's candidates overwrite sc */
    if (lane < n && rank < ks) {  /* the value from its key; read back where several bit patterns share it */
        const uint32_t kw = (uint32_t)(w >> PB);
        const unsigned pos = (unsigned)(~w & PMASK);
        const drtopk_key_inverse32 inv = drtopk_key_inverse32_of((drtopk_dtype)T);
        const uint32_t largest = a.order == DRTOPK_SMALLEST ? kw ^ (uint32_t)drtopk_width_mask(8 * sizeof(RT)) : kw;
        const uint32_t bits = drtopk_key_inverse32_shared(inv, largest) ? row[pos]
                                                                        : drtopk_key_inverse32_bits(inv, largest);
        put_bits<T>(a, s, start, rank, pos, bits);
    }
    return true;
}

/* The sorted pops of a row (any key width): lane l holds the
 * BATCH_TINY_ITEMS keys at positions l * ITEMS + j (16-byte loads where the
 * row is whole and aligned) and sorts them best first once (tiny_sort);
 * each of the k_s rounds is then one warp max over the 32 lanes' heads, the
 * lowest lane holding it wins (the smallest position: lanes hold consecutive
 * positions), and its list moves up a place.  Lane r keeps round r's
 * position, so slots 0..k_s-1 are written at once (coalesced), best first. */
template <int T>
__device__ __forceinline__ void tiny_pops(const batch_args &a, uint64_t s, uint64_t start, unsigned len, unsigned ks)
{
    typedef typename elem_of<T>::raw RT;
    typedef typename elem_of<T>::key KT;
    constexpr unsigned I = BATCH_TINY_ITEMS;
    constexpr unsigned VEC = I * sizeof(RT) / BATCH_VEC_BYTES;    /* 16-byte loads of a lane's keys */
    static_assert(VEC * BATCH_VEC_BYTES == I * sizeof(RT), "a lane's keys are whole 16-byte vectors");
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, p0 = lane * I;
    const RT *row = (const RT *)a.values + start;
    RT raw[I];
    if (len == I * DRTOPK_WARP && ((uintptr_t)row & (BATCH_VEC_BYTES - 1)) == 0) {
        uint4 w[VEC];
#pragma unroll
        for (unsigned v = 0; v < VEC; ++v) w[v] = ((const uint4 *)(row + p0))[v];
        memcpy(raw, w, sizeof raw);
    } else {
#pragma unroll
        for (unsigned j = 0; j < I; ++j) raw[j] = p0 + j < len ? row[p0 + j] : 0;
    }
    KT key[I];
    unsigned pos[I];
#pragma unroll
    for (unsigned j = 0; j < I; ++j) {
        pos[j] = p0 + j;    /* past len: key 0 and the largest positions, after the lane's keys (never offered) */
        key[j] = pos[j] < len ? (KT)drtopk_key_any(raw[j], (drtopk_dtype)T, (drtopk_order)a.order) : (KT)0;
    }
    tiny_sort(key, pos);
    unsigned rem = len > p0 ? (len - p0 < I ? len - p0 : I) : 0;      /* keys left in the lane */
    unsigned got = 0;       /* lane r < k_s: round r's position */
    for (unsigned r = 0; r < ks; ++r) {
        unsigned wp;
        tiny_pop(key, pos, &rem, &wp);
        if (lane == r) got = wp;
    }
    if (lane < ks) put<T>(a, s, start, lane, got);
}

/* Segments of at most 2^BATCH_TINY_LOG2 keys and k_s <= the plan's
 * tiny_max_k (MoE routing): one warp a segment, the threshold select where
 * the keys have at most 32 bits and it settles the segment, else the sorted
 * pops; slots k_s..k-1 padded.  No block-wide synchronization. */
template <int T>
__global__ void __launch_bounds__(BATCH_TINY_WARPS * DRTOPK_WARP, sizeof(typename elem_of<T>::key) > sizeof(uint32_t)
                                                                      ? BATCH_TINY_BLOCKS_WIDE : BATCH_TINY_BLOCKS)
warp_tiny_kernel(batch_args a)
{
    static_assert(DRTOPK_BATCH_TINY_K_MAX <= DRTOPK_WARP, "a lane a slot");
    __shared__ typename tiny_rank_word<T>::type sc[BATCH_TINY_WARPS][2 * DRTOPK_WARP]; /* the threshold select's */
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, w = threadIdx.x >> DRTOPK_LOG2_WARP;
    a.remap = NULL;             /* rows and segments are whole here, never chunks of one (the stores fold) */
    a.chunks = 0;
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = (uint64_t)blockIdx.x * BATCH_TINY_WARPS + w; i < nseg;
         i += (uint64_t)gridDim.x * BATCH_TINY_WARPS) {
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const unsigned ks = (unsigned)seg_info(a, s, &start, &len);
        bool done = ks == 0;
        if constexpr (sizeof(typename elem_of<T>::key) == sizeof(uint32_t))
            done = done || tiny_threshold<T>(a, s, start, (unsigned)len, ks, sc[w]);
        if (!done) tiny_pops<T>(a, s, start, (unsigned)len, ks);
        for (uint64_t j = ks + lane; j < a.k; j += DRTOPK_WARP) put<T>(a, s, start, j, DRTOPK_INDEX_NONE);
    }
}
