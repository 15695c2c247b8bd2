/*
 * batch_tiny.cuh -- tiny rows of the batched top-k: a warp's registers.
 *
 * Tiny rows (at most 256 keys, k <= the plan's tiny_max_k; MoE routing): a warp holds the
 * row in registers, 8 consecutive keys a lane (16-byte loads for whole
 * rows), each lane sorts its keys once (a sorting network), then each of
 * k_s rounds is one warp max over the 32 lanes' heads (the lowest lane
 * holding it wins: the smallest position) and the winner's list moves
 * up; lane r keeps round r's position and the k_s slots are written at
 * once.  Bytes: the row read once, k_s slots written (k_s values read
 * back, from cache).
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

/* Segments of at most 2^BATCH_TINY_LOG2 keys and k_s <= the plan's tiny_max_k (MoE
 * routing): one warp a segment; lane l holds the BATCH_TINY_ITEMS keys at
 * positions l * ITEMS + j (16-byte loads where the row is whole and
 * aligned) and sorts them best first once (tiny_sort); each of the k_s
 * rounds is then one warp max over the 32 lanes' heads, the lowest lane
 * holding it wins (the smallest position: lanes hold consecutive positions),
 * and its list moves up a place.  Lane r keeps round r's position, so the
 * k_s slots are written at once (coalesced) and come out best first; no
 * shared memory. */
template <int T>
__global__ void __launch_bounds__(BATCH_TINY_WARPS * DRTOPK_WARP, sizeof(typename elem_of<T>::key) > sizeof(uint32_t)
                                                                      ? BATCH_TINY_BLOCKS_WIDE : BATCH_TINY_BLOCKS)
warp_tiny_kernel(batch_args a)
{
    typedef typename elem_of<T>::raw RT;
    typedef typename elem_of<T>::key KT;
    constexpr unsigned I = BATCH_TINY_ITEMS;
    constexpr unsigned VEC = I * sizeof(RT) / BATCH_VEC_BYTES;    /* 16-byte loads of a lane's keys */
    static_assert(VEC * BATCH_VEC_BYTES == I * sizeof(RT), "a lane's keys are whole 16-byte vectors");
    static_assert(DRTOPK_BATCH_TINY_K_MAX <= DRTOPK_WARP, "lane r keeps round r");
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, p0 = lane * I;
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = (uint64_t)blockIdx.x * BATCH_TINY_WARPS + (threadIdx.x >> DRTOPK_LOG2_WARP); i < nseg;
         i += (uint64_t)gridDim.x * BATCH_TINY_WARPS) {
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
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
        unsigned rem = len > p0 ? (len - p0 < I ? (unsigned)(len - p0) : I) : 0;      /* keys left in the lane */
        unsigned got = 0;       /* lane r < k_s: round r's position */
        for (unsigned r = 0; r < ks; ++r) {
            unsigned wp;
            tiny_pop(key, pos, &rem, &wp);
            if (lane == r) got = wp;
        }
        for (uint64_t j = lane; j < a.k; j += DRTOPK_WARP) put<T>(a, s, start, j, j < ks ? got : DRTOPK_INDEX_NONE);
    }
}
