/*
 * batch_staged.cuh -- the staged radix select of the batched top-k: a segment in
 * shared memory, and its chunked form for long uniform rows.
 *
 * Staged radix select (every segment that fits in shared memory): a
 * group (a warp for segments of at most 2^BATCH_STAGED_WARP_LOG2 keys,
 * else the whole block) copies its segment into shared memory (a block:
 * 32- and 64-bit elements as their raw bits, by cp.async, every copy in
 * flight at once; a warp, and 16-bit elements: as ordered keys, 16-byte
 * loads, several in flight a thread; nothing counted on the way); a block
 * then lists the keys at or above a threshold sampled from the staged
 * keys (about 3 k_s of them; raw bits compared as their type's values,
 * 16 bytes a read) and searches that list alone, its keys ordered in
 * place, where it holds at least k_s keys and fits (else all the staged
 * keys, ordered in place first);
 * the search finds the k-th key's bucket a digit at a time
 * over shared memory (8 bits in a warp or over the list, 10 in a block:
 * float exponents crowd fewer keys into one bin; shared histograms, the
 * digit picked by a warp scan) until the bucket is taken whole, is at the last digit or
 * holds at most BATCH_CAND_MAX keys; one gather pass then gives the keys
 * above the bucket their slots and either ranks the bucket's keys
 * directly (a thread each) or lets the first enough of them claim the
 * rest (warp-aggregated slot counters).  Slot positions wait in shared
 * memory and the values are read back at once at the end; sorted results
 * are sorted in shared memory.  For 8192 uniform f32 keys and k = 100:
 * the staging, the sample, one listing pass over the staged keys, then
 * one digit pass and the gather over about 380 listed keys (the cost
 * estimate at staged_kernel).  Bytes: the segment read
 * once from global memory, k_s slots written (value bits gathered again:
 * k_s reads).
 *
 * Chunked staged select (uniform rows longer than a chunk, k small next
 * to it; token sampling): each row is cut into `chunks` equal chunks of
 * at least BATCH_CHUNK_RATIO * k keys; the staged select takes the top k
 * of every chunk (value bits and row positions to the workspace), then
 * the staged select again takes the row's top k of its chunks * k
 * candidates (exact: the row's top k is among the union of the chunks'
 * top k; an equal value's position may differ, never repeat).  Bytes per
 * row: len * es read once, chunks * k * (es + 8) written and read back,
 * k * (es + 8) written: for 131072 f32 keys and k = 50, 524 KB read and
 * 2 x 4.8 KB of candidates (8 chunks).
 *
 * Included by batch_topk.cu after batch_common.cuh and batch_tiny.cuh (its
 * sorting network; one translation unit: the bins and launches are there).
 */

/* A group's search state, at the start of its shared memory. */
typedef struct {
    uint64_t prefix;                    /* the k-th key's digits found so far          */
    unsigned want;                      /* its rank among the keys with those digits   */
    unsigned count;                     /* keys with those digits (the k-th bucket)    */
    unsigned n_gt, n_eq;                /* the gather's slots handed out               */
    int done;                           /* the k-th key's bucket is known exactly      */
    unsigned ncand;                     /* keys at or above the threshold (listed while they fit) */
    uint64_t thr, kmax;                 /* the sampled threshold, the largest listed key */
    unsigned thr_pos;                   /* the threshold's position */
    int thr_ok;                         /* the threshold is no NaN (raw keys compare as values: no list) */
} staged_head;

/* A group's shared memory: the head, the digit counts (1 << digit bits; after
 * the last pick they hold the candidates and the slots' positions), cap
 * ordered keys (and a vector of slack to align the first 16-byte load's
 * keys), and with sorted results a sort buffer of the next power of two >=
 * min(k, cap) pairs. */
typedef struct {
    uint64_t cap;               /* keys a group holds            */
    size_t keys_bytes;          /* the keys' bytes after the counts */
    size_t group_bytes;         /* all of a group's bytes         */
} staged_shape;

__host__ __device__ __forceinline__ size_t round16(size_t x) { return (x + BATCH_VEC_BYTES - 1) & ~(size_t)(BATCH_VEC_BYTES - 1); }

/* The warp of threadIdx.x picks the digit at `shift` that holds the want-th
 * key among those matching the prefix (warp_pick_digit over the shared counts). */
template <unsigned DIGITS>
__device__ __forceinline__ void staged_pick(staged_head *h, const unsigned *hist, int shift)
{
    const unsigned want = h->want;
    const radix_pick<unsigned> pk = warp_pick_digit<DIGITS>([&](unsigned d) { return hist[d]; }, want);
    __syncwarp();               /* every lane has read want and the counts before lane 0 rewrites want */
    if ((threadIdx.x & DRTOPK_LANE_MASK) == 0) {
        h->want = want - pk.above;
        h->count = pk.count;
        h->prefix |= (uint64_t)pk.digit << shift;
        h->done = shift == 0 || pk.count == want - pk.above;  /* the last digit, or the bucket taken whole */
    }
}

/* The digit bits of a staged group: 8 in a warp (segments of at most 1024
 * keys), BATCH_STAGED_BLOCK_DIGIT_BITS in a block. */
__host__ __device__ constexpr unsigned staged_digit_bits(bool warp_group)
{
    return warp_group ? BATCH_DIGIT_BITS : BATCH_STAGED_BLOCK_DIGIT_BITS;
}

/* The digits of key above bit hi (none where hi is its width). */
template <typename KT>
__device__ __forceinline__ KT digits_above(KT key, int hi)
{
    return hi >= (int)(8 * sizeof(KT)) ? (KT)0 : (KT)(key >> hi);
}

/* The position in [0, n) of the r-th largest (1 <= r <= BATCH_SAMPLES) of
 * BATCH_SAMPLES keys spread evenly over the n staged keys (key_at(p): the
 * ordered key at position p), by the calling warp: each lane sorts its
 * BATCH_SAMPLE_ITEMS (tiny_sort), then r rounds of tiny_pop.  Every lane
 * gets it. */
template <typename KT, typename F>
__device__ __forceinline__ unsigned sample_rank_pos(F key_at, unsigned n, unsigned r)
{
    constexpr unsigned I = BATCH_SAMPLE_ITEMS;
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
    KT key[I];
    unsigned pos[I];
#pragma unroll
    for (unsigned j = 0; j < I; ++j) {
        pos[j] = (lane * I + j) * n / BATCH_SAMPLES;   /* n <= 2^16: 32 bits */
        key[j] = key_at(pos[j]);
    }
    tiny_sort(key, pos);
    unsigned rem = I, wp = 0;
    for (unsigned j = 0; j < r; ++j) tiny_pop(key, pos, &rem, &wp);
    return wp;
}

/* Whether a block stages the raw bits of type T's elements and orders them
 * as keys only where it reads them (the keys have the elements' width); else
 * it stages ordered keys (16-bit elements: 32-bit keys). */
template <int T>
__host__ __device__ constexpr bool staged_raw(bool warp_group)
{
    return !warp_group && sizeof(typename elem_of<T>::raw) == sizeof(typename elem_of<T>::key);
}

/* Whether staged bits x are at or above the threshold's bits t (no NaN) in
 * the order: raw bits (RAW) compare as type T's values (floats: a NaN x is
 * above every t when the largest are wanted, below when the smallest;
 * -0.0 and +0.0 are equal), exactly as their ordered keys would; ordered
 * keys as keys. */
template <int T, bool RAW, typename KT>
__device__ __forceinline__ bool staged_at_or_above(KT x, KT t, bool largest)
{
    if constexpr (!RAW) {
        return x >= t;
    } else if constexpr (T == DRTOPK_F32) {
        const float a = __uint_as_float(x), b = __uint_as_float(t);
        return largest ? !(a < b) : a <= b;
    } else if constexpr (T == DRTOPK_F64) {
        const double a = __longlong_as_double((long long)x), b = __longlong_as_double((long long)t);
        return largest ? !(a < b) : a <= b;
    } else if constexpr (T == DRTOPK_I32 || T == DRTOPK_I64) {
        typedef typename std::conditional<sizeof(KT) == sizeof(int32_t), int32_t, int64_t>::type ST;
        return largest ? (ST)x >= (ST)t : (ST)x <= (ST)t;
    } else {
        return largest ? x >= t : x <= t;
    }
}

/* Groups of a warp (WARP_GROUP) or of the whole block each select the top
 * k_s of one segment at a time (grid-stride over segments):
 *   1. stage: the segment into shared memory, nothing counted on the way.
 *      RAW (blocks, keys as wide as the elements: staged_raw): the raw bits,
 *      by cp.async (no registers held, so every copy of the segment is in
 *      flight at once; ordering the keys costs 7 instructions an f32 key and
 *      is done only for the few the search reads, below); else the ordered
 *      keys (all of a thread's 16-byte loads in flight at once).
 *   2. sample (blocks, where the expected list fits, below): warp 0 takes
 *      the r-th largest of BATCH_SAMPLES keys strided over the segment as a
 *      threshold t, r = ceil(BATCH_SAMPLE_OVER k_s BATCH_SAMPLES / n) +
 *      BATCH_SAMPLE_MARGIN, so that about 3 k_s keys are at or above it; one
 *      pass over shared memory lists their positions: a thread reads
 *      BATCH_LIST_READS 16-byte vectors, compares each key with t
 *      (staged_at_or_above: raw bits as their type's values, a NaN t lists
 *      nothing), and takes slots for all its hits with one shared atomic.
 *      Where at least k_s and at most BATCH_CAND_LIST keys are listed, the
 *      top k_s are all listed and the search below runs over the list alone
 *      (RAW: its keys ordered in place first), starting at the highest bit
 *      where the threshold and the largest listed key differ (the bits above
 *      are the same for the whole list), with 8-bit digits; otherwise (the
 *      sample missed: sorted runs between the samples, all keys equal, few
 *      distinct values, a NaN threshold) over all the staged keys (RAW:
 *      ordered in place first), exactly as without a sample.  The result
 *      does not depend on the threshold, only the cost.
 *   3. digit passes over the search set until the k-th key's bucket is
 *      taken whole, is at the last digit or holds at most cand_max keys.
 *   4. one gather pass over the search set: keys above the bucket take
 *      slots, the bucket's keys become candidates ranked directly (a thread
 *      each, against all of them) or, where the bucket is taken whole or its
 *      keys are equal, claim the remaining slots.  Slots hold positions in
 *      shared memory (where k_s fits beside the candidates), so the values
 *      are read back from global memory at once at the end.
 * Cost of a row of 10000 uniform f32 keys, k = 100 (256 threads, 5 blocks an
 * SM: staged_block_threads): r = 10, about 390 listed (fallback below 1% of
 * rows: under 100 listed P(Poisson(2.56) >= 10) = 3e-4, over 768
 * P(Poisson(19.7) <= 9) = 5e-3); per 16-byte vector about 8 warp
 * instructions to stage (the copy, its address, the loop) and about 14 to
 * list a trip of two (two shared reads, 8 compares, the hit word; the atomic
 * and a store a hit where a thread has one); then about 390 keys ordered in
 * place, one 8-bit pass, the pick, the gather, k_s slots.  ncu counted
 * 10,200 warp instructions a row (H200; 14,300 when the stage ordered every
 * key and the listing read one key at a time); the block's phases wait on
 * each other, so the blocks in flight an SM, not the row's read, bound it. */
template <int T, bool WARP_GROUP, bool SORTED>
__global__ void __maxnreg__(sizeof(typename elem_of<T>::key) > sizeof(uint32_t) ? BATCH_STAGED_REGS_WIDE : BATCH_STAGED_REGS)
staged_kernel(batch_args a, staged_shape sh)
{
    typedef typename elem_of<T>::raw RT;
    typedef typename elem_of<T>::key KT;
    constexpr unsigned DB = staged_digit_bits(WARP_GROUP), DIGITS = 1u << DB;
    constexpr unsigned LIST_DIGITS = 1u << BATCH_CAND_DIGIT_BITS;
    constexpr unsigned V = BATCH_VEC_BYTES / sizeof(RT);        /* elements a 16-byte load brings */
    constexpr unsigned KV = V * sizeof(KT) / BATCH_VEC_BYTES;   /* 16-byte stores of their keys   */
    constexpr unsigned SV = BATCH_VEC_BYTES / sizeof(KT);       /* staged keys in 16 bytes        */
    constexpr bool RAW = staged_raw<T>(WARP_GROUP);
    extern __shared__ uint4 staged_smem[];
    const unsigned G = WARP_GROUP ? DRTOPK_WARP : blockDim.x, groups = blockDim.x / G, me = threadIdx.x % G;
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, lower = (1u << lane) - 1u;
    const unsigned cand_max = G < BATCH_CAND_MAX ? G : BATCH_CAND_MAX;
    char *base = (char *)staged_smem + (threadIdx.x / G) * sh.group_bytes;
    staged_head *h = (staged_head *)base;
    unsigned *const hist = (unsigned *)(base + round16(sizeof(staged_head)));
    unsigned *const list = hist;                        /* blocks: the listed positions, then their counts */
    KT *const key_area = (KT *)(hist + DIGITS);
    kpair *q = (kpair *)((char *)key_area + sh.keys_bytes);
    auto sync = [] {
        if (WARP_GROUP) __syncwarp();
        else __syncthreads();
    };
    const int kbits = drtopk_dtype_bits((drtopk_dtype)T);
    const drtopk_order order = (drtopk_order)a.order;
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = (uint64_t)blockIdx.x * groups + threadIdx.x / G; i < nseg; i += (uint64_t)gridDim.x * groups) {
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        for (uint64_t j = ks + me; j < a.k; j += G) put<T>(a, s, start, j, DRTOPK_INDEX_NONE);
        if (ks == 0) continue;
        const unsigned n = (unsigned)len, kn = (unsigned)ks;   /* at most the cap: 32 bits */
        if (me == 0) {
            h->prefix = 0;
            h->want = kn;
            h->n_gt = h->n_eq = h->ncand = 0;
            h->kmax = 0;
        }
        /* stage: head elements up to a 16-byte boundary, 16-byte loads, the tail;
         * keys[p] for the loads' p is 16-byte aligned.  RAW: the elements' bits
         * as they are, else their ordered keys */
        const RT *src = (const RT *)a.values + start;
        const unsigned head = (unsigned)(((uintptr_t)0 - (uintptr_t)src) & (BATCH_VEC_BYTES - 1)) / sizeof(RT);
        const unsigned nhead = head < n ? head : n;
        KT *const keys = key_area + (V - head) % V;
        auto key_of = [&](RT b) { return (KT)drtopk_key_any(b, (drtopk_dtype)T, order); };
        auto stage_of = [&](RT b) { return RAW ? (KT)b : key_of(b); };
        if (me < nhead) keys[me] = stage_of(src[me]);
        const uint4 *vsrc = (const uint4 *)(src + nhead);
        const unsigned nvec = (n - nhead) / V;
        if (RAW) {                      /* copies that hold no registers: every one of them in flight */
            constexpr unsigned UNROLL = BATCH_STAGED_UNROLL;   /* a pragma takes no macro */
#pragma unroll UNROLL
            for (unsigned v = me; v < nvec; v += G) cp_async16((uint4 *)(keys + nhead) + v, vsrc + v);
            cp_async_commit();
        }
        for (unsigned v0 = me; !RAW && v0 < nvec; v0 += G * BATCH_STAGED_UNROLL) {
            uint4 w[BATCH_STAGED_UNROLL];
#pragma unroll
            for (unsigned u = 0; u < BATCH_STAGED_UNROLL; ++u)
                w[u] = v0 + u * G < nvec ? vsrc[v0 + u * G] : make_uint4(0, 0, 0, 0);
#pragma unroll
            for (unsigned u = 0; u < BATCH_STAGED_UNROLL; ++u) {
                if (v0 + u * G >= nvec) continue;
                RT e[V];
                KT kv[V];
                uint4 out[KV];
                memcpy(e, &w[u], sizeof e);
#pragma unroll
                for (unsigned j = 0; j < V; ++j) kv[j] = stage_of(e[j]);
                memcpy(out, kv, sizeof out);
                uint4 *dst = (uint4 *)(keys + nhead + (v0 + u * G) * V);
#pragma unroll
                for (unsigned j = 0; j < KV; ++j) dst[j] = out[j];
            }
        }
        const unsigned tail = nhead + nvec * V;
        if (tail + me < n) keys[tail + me] = stage_of(src[tail + me]);
        cp_async_wait<0>();             /* this thread's copies have landed (the barrier: everyone's) */
        sync();
        auto key_at = [&](unsigned p) { return RAW ? key_of((RT)keys[p]) : keys[p]; };     /* while staged */
        /* sample and list (blocks, where about 3 k_s keys fill at most 2/3 of the list) */
        const unsigned r = drtopk_batch_staged_rank(n, kn);
        bool sampled = !WARP_GROUP && drtopk_batch_staged_lists(n, kn);
        if (sampled) {
            if (threadIdx.x < DRTOPK_WARP) {
                const unsigned tp = sample_rank_pos<KT>(key_at, n, r);
                if (lane == 0) {
                    h->thr = key_at(tp);
                    h->thr_pos = tp;
                    h->thr_ok = !(RAW && drtopk_float_bits_is_nan(keys[tp], (drtopk_dtype)T));
                }
            }
            sync();
            sampled = h->thr_ok;
        }
        if (sampled) {  /* list the positions at or above t: 16-byte reads, one atomic for a thread's hits */
            const KT t = keys[h->thr_pos];
            const bool largest = order != DRTOPK_SMALLEST;
            constexpr unsigned R = BATCH_LIST_READS;
            static_assert(R * SV <= 32, "a thread's hits of one trip fit a word");
            auto list_one = [&](unsigned p) {   /* the head's and the tail's keys, one a thread */
                if (staged_at_or_above<T, RAW>(keys[p], t, largest)) {
                    const unsigned at = atomicAdd(&h->ncand, 1u);
                    if (at < BATCH_CAND_LIST) list[at] = p;
                }
            };
            if (me < nhead) list_one(me);
            if (tail + me < n) list_one(tail + me);
            const uint4 *vk = (const uint4 *)(keys + nhead);
            const unsigned nsv = (tail - nhead) / SV;   /* 16-byte vectors of staged keys */
            /* one trip: vectors v0 + u G, u < R (checked: those past nsv count no hits) */
            auto trip = [&](unsigned v0, auto checked) {
                uint4 w[R];
#pragma unroll
                for (unsigned u = 0; u < R; ++u)
                    w[u] = !checked || v0 + u * G < nsv ? vk[v0 + u * G] : make_uint4(0, 0, 0, 0);
                unsigned hits = 0;      /* bit u SV + j: key j of vector v0 + u G */
#pragma unroll
                for (unsigned u = 0; u < R; ++u) {
                    KT e[SV];
                    memcpy(e, &w[u], sizeof e);
                    unsigned hu = 0;
#pragma unroll
                    for (unsigned j = 0; j < SV; ++j) hu |= (unsigned)staged_at_or_above<T, RAW>(e[j], t, largest) << j;
                    hits |= (!checked || v0 + u * G < nsv ? hu : 0u) << (u * SV);
                }
                if (hits) {             /* at 3 k_s of 10000 keys, a thread's 8 keys hit 0.3 times */
                    unsigned where = atomicAdd(&h->ncand, (unsigned)__popc(hits));
                    do {
                        const unsigned bit = __ffs(hits) - 1;
                        hits &= hits - 1;
                        if (where < BATCH_CAND_LIST) list[where] = nhead + (v0 + bit / SV * G) * SV + bit % SV;
                        ++where;
                    } while (hits);
                }
            };
            unsigned v0 = me;
            for (; v0 + (R - 1) * G < nsv; v0 += G * R) trip(v0, std::false_type());
            if (v0 < nsv) trip(v0, std::true_type());
            sync();
        }
        const unsigned nc = sampled ? h->ncand : 0;
        const bool listed = sampled && nc >= kn && nc <= BATCH_CAND_LIST;
        /* from here on the search reads ordered keys: RAW orders in place the
         * listed ones (the only ones the search reads) or all of them */
        if (RAW && !listed) {
            for (unsigned p = me; p < n; p += G) keys[p] = key_of((RT)keys[p]);
            sync();
        }
        const unsigned m = listed ? nc : n, ndig = listed ? LIST_DIGITS : DIGITS;  /* the search set, its digits */
        const int db = listed ? BATCH_CAND_DIGIT_BITS : (int)DB;
        unsigned *const cnt = listed ? list + BATCH_CAND_LIST : hist;   /* counts, later slots and candidates */
        auto at = [&](unsigned j) { return listed ? list[j] : j; };     /* the search set's j-th position */
        int hi = kbits;                 /* the k-th key's digits above bit hi are known */
        if (listed) {                   /* the largest listed key: the bits above hi are the list's own */
            KT top = 0;
            for (unsigned j = me; j < nc; j += G) {
                const unsigned p = list[j];
                const KT kj = key_at(p);
                if (RAW) keys[p] = kj;
                top = kj > top ? kj : top;
            }
            top = warp_max(top);
            if (lane == 0) atomicMax((unsigned long long *)&h->kmax, (unsigned long long)top);
            sync();
            const uint64_t diff = h->thr ^ h->kmax;
            hi = diff ? 64 - __clzll((long long)diff) : 1;
            if (me == 0) h->prefix = hi < 64 ? h->thr >> hi << hi : 0;
        }
        /* digit passes: keys of the search set whose known digits match count
         * their next digit (the last one narrower where db does not divide hi) */
        int shift;
        for (;;) {
            shift = hi > db ? hi - db : 0;
            const unsigned dmask = (1u << (hi - shift)) - 1u;
            for (unsigned d = me; d < ndig; d += G) cnt[d] = 0;
            sync();
            const KT known = digits_above((KT)h->prefix, hi);
            for (unsigned j0 = me; j0 < m; j0 += G * BATCH_STAGED_READS) {
                KT kr[BATCH_STAGED_READS];
#pragma unroll
                for (unsigned u = 0; u < BATCH_STAGED_READS; ++u) kr[u] = j0 + u * G < m ? keys[at(j0 + u * G)] : 0;
#pragma unroll
                for (unsigned u = 0; u < BATCH_STAGED_READS; ++u)
                    if (j0 + u * G < m && digits_above(kr[u], hi) == known)
                        atomicAdd(&cnt[(unsigned)(kr[u] >> shift) & dmask], 1u);
            }
            sync();
            if (WARP_GROUP || threadIdx.x < DRTOPK_WARP) {
                if (listed) staged_pick<LIST_DIGITS>(h, cnt, shift);
                else staged_pick<DIGITS>(h, cnt, shift);
            }
            sync();
            if (h->done || h->count <= cand_max) break;
            hi = shift;
        }
        /* gather: keys whose digits from `shift` up beat the k-th key's take the
         * first slots; the bucket's keys are ranked (ranked) or the first `ties`
         * of them to arrive claim the rest (the bucket taken whole, or equal keys) */
        const KT kth = (KT)(h->prefix >> shift);
        const unsigned ties = h->want, count = h->count, above = kn - ties;
        const bool ranked = count != ties && count <= cand_max;
        unsigned *const slot = cnt;                     /* slot j's position */
        unsigned *const cand = cnt + ndig - cand_max;   /* the candidates' positions */
        const bool buffered = !SORTED && kn <= ndig - cand_max;
        auto take = [&](unsigned j, KT key, unsigned p) {
            if (SORTED) q[j] = kpair{ key, p };
            else if (buffered) slot[j] = p;
            else put<T>(a, s, start, j, p);
        };
        for (unsigned j0 = 0; j0 < m; j0 += G) {
            const unsigned j = j0 + me;
            const unsigned p = j < m ? at(j) : 0;
            const KT key = j < m ? keys[p] : 0;
            const KT kh = (KT)(key >> shift);
            const bool gt = j < m && kh > kth, eq = j < m && kh == kth;
            const unsigned bg = __ballot_sync(DRTOPK_FULL_MASK, gt), be = __ballot_sync(DRTOPK_FULL_MASK, eq);
            if ((bg | be) == 0) continue;       /* most of a warp's keys: below the bucket */
            unsigned base_g = 0, base_e = 0;
            if (lane == 0 && bg) base_g = atomicAdd(&h->n_gt, (unsigned)__popc(bg));
            if (lane == 0 && be) base_e = atomicAdd(&h->n_eq, (unsigned)__popc(be));
            base_g = __shfl_sync(DRTOPK_FULL_MASK, base_g, 0) + __popc(bg & lower);
            base_e = __shfl_sync(DRTOPK_FULL_MASK, base_e, 0) + __popc(be & lower);
            if (gt) take(base_g, key, p);
            else if (eq && ranked) cand[base_e] = p;
            else if (eq && base_e < ties) take(above + base_e, key, p);
        }
        sync();
        if (ranked && me < count) {     /* candidate me's rank among the bucket's keys */
            const unsigned c = cand[me];
            const KT kc = keys[c];
            unsigned rank = 0;
            for (unsigned j = 0; j < count; ++j) {
                const unsigned o = cand[j];
                rank += tiny_better(keys[o], o, kc, c);
            }
            if (rank < ties) take(above + rank, kc, c);
        }
        sync();
        if (SORTED) sort_put<T>(a, s, start, ks, q, me, G, sync);
        else if (buffered)
            for (unsigned j = me; j < kn; j += G) put<T>(a, s, start, j, slot[j]);
        sync();         /* the group's shared memory is free for its next segment */
    }
}
