/*
 * stream_tile.cuh -- the streaming loops of the flag radix top-k (paper 5.1,
 * radix_topk.cu), shared with the one-read top-k (onepass.cu) and the fused
 * small-input top-k (small_n.cu): a grid-stride read of a 4-byte key vector
 * with 16-byte loads in flight, and the same read -- of 2-, 4- or 8-byte keys
 * -- with every element put in one of two output classes that take dense
 * slots from two device counters, one block-wide scan and one atomic per class
 * per tile, either written in place (radix_for_each_tile) or staged per warp
 * in shared memory and written in slot order (radix_for_each_staged); and the
 * persistent grid they size their passes with.
 */
#ifndef DRTOPK_STREAM_TILE_CUH
#define DRTOPK_STREAM_TILE_CUH
#include <cooperative_groups.h>
#include "device_common.cuh"

namespace cg = cooperative_groups;

#define RADIX_THREADS 512              /* threads of a pass block             */
#define RADIX_UNROLL 4                 /* 16-byte loads in flight per thread  */
#define RADIX_MIN_BLOCKS 2             /* blocks per SM: caps registers at 64 */

/* How the loops split p[0, n) of K-wide keys: a scalar head up to 16-byte
 * alignment, nvec 16-byte vectors from there, and a scalar tail from `tail`. */
struct vec_split {
    unsigned long long head, nvec, tail;
};
template <typename K>
__device__ __forceinline__ vec_split vec_split_of(const K *p, unsigned long long n, int per_vec)
{
    vec_split v;
    v.head = ((DRTOPK_VEC_BYTES - ((uintptr_t)p & (DRTOPK_VEC_BYTES - 1))) & (DRTOPK_VEC_BYTES - 1)) / sizeof(K);
    if (v.head > n) v.head = n;
    v.nvec = (n - v.head) / per_vec;
    v.tail = v.head + v.nvec * per_vec;
    return v;
}

/* Calls f(bits, index) for every element of p[0, n) this thread owns: grid-
 * stride over 16-byte vectors, RADIX_UNROLL loads in flight, scalar head (to
 * reach 16-byte alignment) and tail. */
template <typename F>
__device__ __forceinline__ void radix_for_each(const uint32_t *p, unsigned long long n, F f)
{
    const unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    const vec_split sp = vec_split_of(p, n, DRTOPK_VEC);
    const unsigned long long head = sp.head, nvec = sp.nvec, tail = sp.tail;
    const uint4 *v = reinterpret_cast<const uint4 *>(p + head);
    for (unsigned long long b = tid; b < nvec; b += stride * RADIX_UNROLL) {
        uint4 r[RADIX_UNROLL];
#pragma unroll
        for (int j = 0; j < RADIX_UNROLL; ++j)
            if (b + j * stride < nvec) r[j] = __ldg(v + b + j * stride);
#pragma unroll
        for (int j = 0; j < RADIX_UNROLL; ++j) {
            const unsigned long long vi = b + j * stride;
            if (vi < nvec) {
                const unsigned long long i = head + vi * DRTOPK_VEC;
                f(r[j].x, i);
                f(r[j].y, i + 1);
                f(r[j].z, i + 2);
                f(r[j].w, i + 3);
            }
        }
    }
    if (tid < head) f(__ldg(p + tid), tid);
    if (tid < n - tail) f(__ldg(p + tail + tid), tail + tid);
}

/* A slot from a device counter, one atomic per group of converged threads. */
__device__ __forceinline__ unsigned long long radix_slot(unsigned long long *ctr)
{
    cg::coalesced_group g = cg::coalesced_threads();
    unsigned long long base = 0;
    if (g.thread_rank() == 0) base = atomicAdd(ctr, (unsigned long long)g.size());
    return g.shfl(base, 0) + g.thread_rank();
}

/* Keys of type K (uint16_t, uint32_t, uint64_t) in one 16-byte load, and key
 * e of it (e a constant after unrolling: register moves, no memory). */
template <typename K> struct tile_keys;
template <> struct tile_keys<uint16_t> {
    static constexpr int per_vec = DRTOPK_VEC_BYTES / sizeof(uint16_t);
    static __device__ __forceinline__ uint16_t at(const uint4 &r, int e)
    {
        const uint32_t w = e < 2 ? r.x : e < 4 ? r.y : e < 6 ? r.z : r.w;
        return (uint16_t)(w >> (8 * sizeof(uint16_t) * (e & 1)));
    }
};
template <> struct tile_keys<uint32_t> {
    static constexpr int per_vec = DRTOPK_VEC;
    static __device__ __forceinline__ uint32_t at(const uint4 &r, int e)
    {
        return e == 0 ? r.x : e == 1 ? r.y : e == 2 ? r.z : r.w;
    }
};
template <> struct tile_keys<uint64_t> {
    static constexpr int per_vec = DRTOPK_VEC_BYTES / sizeof(uint64_t);
    static __device__ __forceinline__ uint64_t at(const uint4 &r, int e)
    {
        return e == 0 ? ((uint64_t)r.y << 32) | r.x : ((uint64_t)r.w << 32) | r.z;
    }
};
/* The classes of one thread's tile, RADIX_CLASS_BITS each: 32 bits hold the
 * 16 keys of 4- and 8-byte tiles, 2-byte tiles (32 keys) take 64. */
template <bool WIDE> struct tile_klass { typedef uint32_t type; };
template <> struct tile_klass<true> { typedef unsigned long long type; };

#define RADIX_COUNT_SHIFT 16           /* class-2 count in the upper half of a packed count */
#define RADIX_COUNT_LOW 0xFFFFu

/* Warp 0 after a tile's barrier: the warps' packed totals in sh_warp become
 * their exclusive offsets, and lane nwarps - 1 (the tile loops' leader) takes
 * the tile's slots, one atomic per class, into *base1 and *base2. */
__device__ __forceinline__ void radix_tile_bases(uint32_t *sh_warp, int nwarps, int lane, unsigned long long *ctr1,
                                                 unsigned long long *ctr2, unsigned long long *base1,
                                                 unsigned long long *base2)
{
    const uint32_t w = lane < nwarps ? sh_warp[lane] : 0;
    const uint32_t wi = warp_incl_sum(w);
    if (lane < nwarps) sh_warp[lane] = wi - w;
    if (lane == nwarps - 1) {
        const uint32_t t1 = wi & RADIX_COUNT_LOW, t2 = wi >> RADIX_COUNT_SHIFT;
        *base1 = t1 ? atomicAdd(ctr1, (unsigned long long)t1) : 0;
        *base2 = t2 ? atomicAdd(ctr2, (unsigned long long)t2) : 0;
    }
}

/* The tile loops' scalar head and tail (vec_split_of): class c of cls(bits)
 * takes a slot from counter c, one atomic per group of converged threads. */
template <typename K, typename C, typename E>
__device__ __forceinline__ void radix_tile_extra(const K *p, unsigned long long n, const vec_split &sp,
                                                 unsigned long long *ctr1, unsigned long long *ctr2, C cls, E emit)
{
    const unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned long long extra = sp.head + (n - sp.tail);
    if (tid < extra) {
        const unsigned long long i = tid < sp.head ? tid : sp.tail + (tid - sp.head);
        const K bits = __ldg(p + i);
        const uint32_t c = cls(bits);
        if (c == 1) emit(1, bits, i, radix_slot(ctr1));
        else if (c == 2) emit(2, bits, i, radix_slot(ctr2));
    }
}

/* Like radix_for_each, but each element is put in class 1, 2 or none by
 * cls(bits) and every class-c element gets a dense slot from counter c: one
 * block-wide scan and one atomic per class per tile, because a same-address
 * atomic per warp costs milliseconds when 2^30 elements yield millions of
 * outputs.  Within a warp the slots go in one of two orders, chosen per warp
 * and tile: sparse outputs take a run of slots per thread (a counter
 * increment a key); where at least 1/RADIX_DENSE_SHARE of the warp's keys
 * are output (the flag radix's compaction over candidates that share their
 * top digits) they go in the order (load, key of the load, lane), from two
 * ballots a key step, so that a warp's store covers consecutive slots (runs
 * per thread made every store touch 32 sectors: 8x the L2 traffic).  The atomic's round trip is hidden by a one-tile lag: tile t's
 * elements are written (emit(c, bits, index, slot, side(index))) during tile
 * t+1, after its single barrier; side(i) reads what the element carries
 * beyond its key (a candidate's position; an empty value where emit reads
 * it itself), and a load's side values are read together before its first
 * emit, so a warp waits once a load for them, not once a key.  The tile loop
 * is block-uniform.  Keys are K wide (p is aligned to sizeof(K)); a thread
 * holds RADIX_UNROLL 16-byte loads a tile whatever K, so every width keeps
 * the same bytes in flight. */
#define RADIX_CLASS_BITS 2
#define RADIX_CLASS_MASK 3u
#define RADIX_TILE_WARPS (RADIX_THREADS / DRTOPK_WARP)
#define RADIX_DENSE_SHARE 4            /* warp-ordered slots from 1/4 of the keys output */
/* Where a block's tiles lie (both tile loops): a tile is RADIX_UNROLL
 * 16-byte loads a thread, `stride` vectors apart; the block's first tile
 * starts at vector `first`, the next `step` on. */
template <typename K>
struct tile_walk {
    int lane, warp;
    bool leader;                       /* issues the tile atomics (radix_tile_bases' lane) */
    unsigned long long stride, step, first;
    vec_split sp;
    const uint4 *v;
    __device__ __forceinline__ tile_walk(const K *p, unsigned long long n)
    {
        lane = threadIdx.x % DRTOPK_WARP;
        warp = threadIdx.x / DRTOPK_WARP;
        leader = warp == 0 && lane == (int)(blockDim.x / DRTOPK_WARP) - 1;
        stride = (unsigned long long)gridDim.x * blockDim.x;
        step = stride * RADIX_UNROLL;
        first = (unsigned long long)blockIdx.x * blockDim.x;
        sp = vec_split_of(p, n, tile_keys<K>::per_vec);
        v = reinterpret_cast<const uint4 *>(p + sp.head);
    }
};

/* A warp's packed counts cnt: this lane's inclusive prefix (returned) and
 * the warp's total (*total), which the last lane stores in *slot. */
__device__ __forceinline__ uint32_t radix_warp_counts(uint32_t cnt, int lane, uint32_t *slot, uint32_t *total)
{
    const uint32_t incl = warp_incl_sum(cnt);
    *total = __shfl_sync(DRTOPK_FULL_MASK, incl, DRTOPK_WARP - 1);
    if (lane == DRTOPK_WARP - 1) *slot = incl;
    return incl;
}

/* The tile loops' one barrier a tile: the leader (publish) first stores the
 * previous tile's bases, whose atomics had a whole round to return, in
 * sh_base[parity ^ 1]; after it warp 0 turns this tile's warp totals into
 * offsets and takes its bases (radix_tile_bases). */
__device__ __forceinline__ void radix_tile_barrier(uint32_t (*sh_warp)[RADIX_TILE_WARPS],
                                                   unsigned long long (*sh_base)[2], int parity, bool publish,
                                                   bool live, int lane, unsigned long long *ctr1,
                                                   unsigned long long *ctr2, unsigned long long *base1,
                                                   unsigned long long *base2)
{
    if (publish) {
        sh_base[parity ^ 1][0] = *base1;
        sh_base[parity ^ 1][1] = *base2;
    }
    __syncthreads();
    if (live && threadIdx.x < DRTOPK_WARP)
        radix_tile_bases(sh_warp[parity], blockDim.x / DRTOPK_WARP, lane, ctr1, ctr2, base1, base2);
}

template <typename K, typename C, typename SD, typename E>
__device__ __forceinline__ void radix_for_each_tile(const K *p, unsigned long long n, unsigned long long *ctr1,
                                                    unsigned long long *ctr2, C cls, SD side, E emit)
{
    constexpr int PV = tile_keys<K>::per_vec;
    typedef typename tile_klass<(RADIX_CLASS_BITS * PV * RADIX_UNROLL > 32)>::type klass_t;
    const klass_t vec_class_mask = ((klass_t)1 << (RADIX_CLASS_BITS * PV)) - 1u; /* the classes of one load */
    __shared__ uint32_t sh_warp[2][RADIX_TILE_WARPS]; /* per tile parity: warp totals, then offsets */
    __shared__ unsigned long long sh_base[2][2];      /* per tile parity: counter bases */
    const tile_walk<K> tw(p, n);
    const int lane = tw.lane, warp = tw.warp;
    const unsigned long long stride = tw.stride, head = tw.sp.head, nvec = tw.sp.nvec;
    uint4 pend[RADIX_UNROLL];          /* the previous tile, written this round */
    klass_t pend_klass = 0;
    uint32_t pend_excl = 0;            /* this lane's packed counts before it in its warp */
    bool pend_dense = false;           /* warp-ordered slots (warp-uniform) */
    unsigned long long pend_b = 0, base1 = 0, base2 = 0;
    const uint32_t lanes_below = (1u << lane) - 1u;
    constexpr uint32_t dense_min = DRTOPK_WARP * PV * RADIX_UNROLL / RADIX_DENSE_SHARE;
    int parity = 0;
    /* one extra round drains the last tile */
    for (unsigned long long base = tw.first; base < nvec + tw.step; base += tw.step) {
        const bool live = base < nvec; /* block-uniform */
        const unsigned long long b = base + threadIdx.x;
        uint4 r[RADIX_UNROLL];
        klass_t klass = 0;
        uint32_t cnt = 0, incl = 0;
        bool dense = false;
        if (live) {
#pragma unroll
            for (int j = 0; j < RADIX_UNROLL; ++j)
                if (b + j * stride < nvec) r[j] = __ldg(tw.v + b + j * stride);
#pragma unroll
            for (int j = 0; j < RADIX_UNROLL; ++j) {
                if (b + j * stride < nvec) {
#pragma unroll
                    for (int e = 0; e < PV; ++e) {
                        const uint32_t c = cls(tile_keys<K>::at(r[j], e));
                        klass |= (klass_t)c << (RADIX_CLASS_BITS * (j * PV + e));
                        cnt += c == 1 ? 1u : c == 2 ? 1u << RADIX_COUNT_SHIFT : 0u;
                    }
                }
            }
            uint32_t total;
            incl = radix_warp_counts(cnt, lane, &sh_warp[parity][warp], &total);
            dense = (total & RADIX_COUNT_LOW) + (total >> RADIX_COUNT_SHIFT) >= dense_min;
        }
        radix_tile_barrier(sh_warp, sh_base, parity, tw.leader && base != tw.first, live, lane, ctr1, ctr2, &base1,
                           &base2);
        /* warp-uniform skips: outputs are sparse, and a per-element walk of
         * every tile costs more issue slots than the loads themselves */
        if (__any_sync(DRTOPK_FULL_MASK, pend_klass != 0)) {
            const uint32_t excl = sh_warp[parity ^ 1][warp] + (pend_dense ? 0u : pend_excl);
            unsigned long long s1 = sh_base[parity ^ 1][0] + (excl & RADIX_COUNT_LOW);
            unsigned long long s2 = sh_base[parity ^ 1][1] + (excl >> RADIX_COUNT_SHIFT);
#pragma unroll
            for (int j = 0; j < RADIX_UNROLL; ++j) {
                if (!__any_sync(DRTOPK_FULL_MASK, ((pend_klass >> (RADIX_CLASS_BITS * PV * j)) & vec_class_mask) != 0))
                    continue;
                const unsigned long long i0 = head + (pend_b + j * stride) * PV;
                decltype(side(i0)) sv[PV];
#pragma unroll
                for (int e = 0; e < PV; ++e) {
                    const uint32_t c = (uint32_t)(pend_klass >> (RADIX_CLASS_BITS * (j * PV + e))) & RADIX_CLASS_MASK;
                    sv[e] = c != 0 ? side(i0 + e) : decltype(side(i0))();
                }
#pragma unroll
                for (int e = 0; e < PV; ++e) {
                    const int q = j * PV + e;
                    const uint32_t c = (uint32_t)(pend_klass >> (RADIX_CLASS_BITS * q)) & RADIX_CLASS_MASK;
                    const unsigned long long i = i0 + e;
                    if (pend_dense) {
                        const uint32_t b1 = __ballot_sync(DRTOPK_FULL_MASK, c == 1);
                        const uint32_t b2 = __ballot_sync(DRTOPK_FULL_MASK, c == 2);
                        if (c == 1) emit(1, tile_keys<K>::at(pend[j], e), i, s1 + __popc(b1 & lanes_below), sv[e]);
                        else if (c == 2) emit(2, tile_keys<K>::at(pend[j], e), i, s2 + __popc(b2 & lanes_below), sv[e]);
                        s1 += __popc(b1);
                        s2 += __popc(b2);
                    } else if (c == 1) {
                        emit(1, tile_keys<K>::at(pend[j], e), i, s1++, sv[e]);
                    } else if (c == 2) {
                        emit(2, tile_keys<K>::at(pend[j], e), i, s2++, sv[e]);
                    }
                }
            }
        }
#pragma unroll
        for (int j = 0; j < RADIX_UNROLL; ++j) pend[j] = r[j];
        pend_klass = klass;
        pend_excl = incl - cnt;
        pend_dense = dense;
        pend_b = b;
        parity ^= 1;
    }
    radix_tile_extra(p, n, tw.sp, ctr1, ctr2, cls,
                     [&](uint32_t c, K bits, unsigned long long i, unsigned long long o) { emit(c, bits, i, o, side(i)); });
}

/* The classes of a thread's tile for radix_for_each_staged (its loads
 * below nvec): bit j * PV + e of *m1 (*m2) where key e of load j is of
 * class 1 (2).  Only loads that c.any() says hold an output are
 * classified, unless DENSE (most loads of a warp hold one: the test would
 * cost more than it saves); DROP2 (class 2 no longer needed): the test asks
 * for a class-1 key (c.any<true>), and *m2 stays as it is. */
template <bool DROP2, bool DENSE, int PV, typename C>
__device__ __forceinline__ void radix_stage_masks(const C &c, const uint4 (&r)[RADIX_UNROLL], unsigned long long b,
                                                  unsigned long long stride, unsigned long long nvec, uint32_t *m1,
                                                  uint32_t *m2)
{
#pragma unroll
    for (int j = 0; j < RADIX_UNROLL; ++j) {
        if (b + j * stride < nvec && (DENSE || c.template any<DROP2>(r[j]))) {
            uint32_t g, e;
            c.masks(r[j], &g, &e);
            *m1 |= g << (j * PV);
            if (!DROP2) *m2 |= e << (j * PV);
        }
    }
}

/* The tile loop with staged outputs (the one-read top-k's pass, onepass.cu):
 * the same grid stride, classes, counters, block scan and one-tile lag of the
 * atomics as radix_for_each_tile, but
 *  - a thread classifies a 16-byte load only where c.any(load) (false only
 *    if no key of it is output: one compare a key or pair of 16-bit keys),
 *    or with DENSE every load (where outputs are so dense that most warps'
 *    loads hold one, the test only adds to the classification), and then all
 *    of its keys at once, c.masks(load, &m1, &m2) setting bit e
 *    of m1 (m2) where key e (tile_keys<K>::at) is of class 1 (2): no
 *    per-key work where nothing passes, and no per-key branch where
 *    something does;
 *  - each warp stages its outputs in shared memory before the barrier (a
 *    16-bit entry a key, lane and key within the lane's tile, in slot
 *    order: class 1, then class 2, each a run per lane) and, with RAW where
 *    it has any, its loads as they are (one 16-byte store a load, into the
 *    tile parity's half of raw, the caller's dynamic shared memory); after
 *    the next tile's barrier, with the slot bases returned, it writes them
 *    out with consecutive lanes on consecutive slots: emit(c, bits, index,
 *    slot), the bits read back from raw; without RAW they are 0 and a
 *    caller that needs them re-reads p[index], a line read a tile before.
 *    That re-read puts an L2 round trip between each warp's barrier and its
 *    next tile (the one-read pass at k = 2^24 of 2^30 took 1.39 ms with it,
 *    1.18 without, H200); raw costs radix_staged_raw_bytes() a
 *    block, which on top of the 2-byte keys' 32 KB of entries left the L1
 *    too little for the loads in flight (f16 ND k = 2^16: 5.7% slower), so
 *    the one-read pass keeps re-reading those.
 * Sparse outputs (a few per warp and tile, the pass at large k) cost one
 * store a key in shared memory and one coalesced store per warp and class,
 * where per-key stores to scattered slots cost a warp store each; dense
 * ones (up to every key) stay coalesced.  c.cls(bits) classifies the scalar
 * head and tail.  Shared memory: 2 bytes a key of a block's tile static,
 * and with RAW radix_staged_raw_bytes() dynamic.
 * Class 2 is needed only until the two counters reach need2 together, or
 * class 1's alone reaches need1: from the tile after a warp has read bases
 * that sum to need2, or a class 1 base of need1 (its running maxima
 * of the bases it wrote outputs at; both counters only grow) it asks
 * c.any<true>(load) instead of c.any<false>(load) -- whether a key is of
 * class 1, not whether one is of class 1 or 2 -- and drops class 2, so a
 * class of millions of ties at the threshold stops costing a staged entry,
 * a same-address atomic per tile and a classification of each load that
 * holds one.  A warp without outputs reads no base and pays nothing.
 * need1 = need2 = ~0ull: class 2 always counted. */
#define RADIX_STAGE_KEY_BITS 5         /* an entry: lane << 5 | key of the lane's tile (< 32) */
#define RADIX_STAGE_KEY_MASK ((1u << RADIX_STAGE_KEY_BITS) - 1u)
#define RADIX_RAW_PARITIES 2           /* raw tiles kept: this one and the one being written */
/* The raw loads of a block's tile, per parity (radix_for_each_staged's raw):
 * [parity][warp][load][lane]. */
typedef uint4 radix_raw_tile[RADIX_TILE_WARPS][RADIX_UNROLL][DRTOPK_WARP];
static inline size_t radix_staged_raw_bytes(void) { return RADIX_RAW_PARITIES * sizeof(radix_raw_tile); }
template <bool RAW, bool DENSE, typename K, typename C, typename E>
__device__ __forceinline__ void radix_for_each_staged(const K *p, unsigned long long n, unsigned long long *ctr1,
                                                      unsigned long long *ctr2, unsigned long long need1,
                                                      unsigned long long need2, const C &c, radix_raw_tile *raw, E emit)
{
    constexpr int PV = tile_keys<K>::per_vec;
    constexpr int TK = PV * RADIX_UNROLL; /* keys of a thread's tile */
    static_assert(TK <= (1 << RADIX_STAGE_KEY_BITS), "a thread's tile fits the entry's key bits");
    __shared__ uint16_t sh_stage[RADIX_TILE_WARPS][DRTOPK_WARP * TK]; /* per warp: its tile's outputs */
    __shared__ uint32_t sh_warp[2][RADIX_TILE_WARPS];                 /* per tile parity, as radix_for_each_tile */
    __shared__ unsigned long long sh_base[2][2];
    const tile_walk<K> tw(p, n);
    const int lane = tw.lane, warp = tw.warp;
    const unsigned long long stride = tw.stride, head = tw.sp.head, nvec = tw.sp.nvec;
    uint16_t *stage = sh_stage[warp];
    uint32_t pend_total = 0;           /* the warp's packed counts of the previous tile */
    unsigned long long pend_b = 0, base1 = 0, base2 = 0;
    unsigned long long seen1 = 0, seen2 = 0; /* the largest bases the warp has read */
    bool enough2 = false;              /* warp-uniform: seen1 >= need1 or seen1 + seen2 >= need2 */
    int parity = 0;
    uint4 r[RADIX_UNROLL];             /* the tile's loads, issued one round ahead */
    const auto load = [&](unsigned long long b) {
        const uint4 *q = tw.v + b;
        if (b + (RADIX_UNROLL - 1) * stride < nvec) { /* every tile but the last few: one bound check */
#pragma unroll
            for (int j = 0; j < RADIX_UNROLL; ++j) r[j] = __ldg(q + j * stride);
        } else {
#pragma unroll
            for (int j = 0; j < RADIX_UNROLL; ++j)
                if (b + j * stride < nvec) r[j] = __ldg(q + j * stride);
        }
    };
    load(tw.first + threadIdx.x);
    for (unsigned long long base = tw.first; base < nvec + tw.step; base += tw.step) {
        const bool live = base < nvec; /* block-uniform */
        const unsigned long long b = base + threadIdx.x;
        uint32_t m1 = 0, m2 = 0, excl = 0, total = 0;
        if (live) {
            if (enough2) radix_stage_masks<true, DENSE, PV>(c, r, b, stride, nvec, &m1, &m2);
            else radix_stage_masks<false, DENSE, PV>(c, r, b, stride, nvec, &m1, &m2);
            const uint32_t cnt = (uint32_t)__popc(m1) | (uint32_t)__popc(m2) << RADIX_COUNT_SHIFT;
            excl = radix_warp_counts(cnt, lane, &sh_warp[parity][warp], &total) - cnt;
            if (RAW && total) /* warp-uniform: the bits its outputs are written with */
#pragma unroll
                for (int j = 0; j < RADIX_UNROLL; ++j) raw[parity][warp][j][lane] = r[j];
        }
        /* the next tile's loads stay in flight over the barrier, the previous
         * tile's outputs (without RAW, its caller's re-reads of p wait on L2)
         * and the staging */
        load(b + tw.step);
        radix_tile_barrier(sh_warp, sh_base, parity, tw.leader && base != tw.first, live, lane, ctr1, ctr2, &base1,
                           &base2);
        if (pend_total) { /* warp-uniform: the previous tile's outputs, in slot order */
            const uint32_t off = sh_warp[parity ^ 1][warp];
            const uint32_t n1 = pend_total & RADIX_COUNT_LOW, nall = n1 + (pend_total >> RADIX_COUNT_SHIFT);
            const unsigned long long b1 = sh_base[parity ^ 1][0], b2 = sh_base[parity ^ 1][1];
            const unsigned long long s1 = b1 + (off & RADIX_COUNT_LOW);
            const unsigned long long s2 = b2 + (off >> RADIX_COUNT_SHIFT) - n1;
            seen1 = b1 > seen1 ? b1 : seen1; /* 0 where the tile took no slot of a class */
            seen2 = b2 > seen2 ? b2 : seen2;
            enough2 = seen1 >= need1 || seen1 + seen2 >= need2;
            const unsigned long long wb = pend_b - lane; /* lane 0's first vector */
            const uint4(*prev)[DRTOPK_WARP] = raw[parity ^ 1][warp];
            for (uint32_t i = lane; i < nall; i += DRTOPK_WARP) {
                const uint32_t s = stage[i], q = s & RADIX_STAGE_KEY_MASK, l = s >> RADIX_STAGE_KEY_BITS;
                const unsigned long long vec = wb + l + q / PV * stride;
                const unsigned long long idx = head + vec * PV + q % PV;
                const K bits = RAW ? reinterpret_cast<const K *>(&prev[q / PV][l])[q % PV] : K(0);
                if (i < n1) emit(1, bits, idx, s1 + i);
                else emit(2, bits, idx, s2 + i);
            }
            __syncwarp();
        }
        if (live) { /* this tile's outputs, for the next round */
            uint32_t o = excl & RADIX_COUNT_LOW;
            for (uint32_t m = m1; m; m &= m - 1) stage[o++] = (uint16_t)(lane << RADIX_STAGE_KEY_BITS | (__ffs(m) - 1));
            o = (total & RADIX_COUNT_LOW) + (excl >> RADIX_COUNT_SHIFT);
            for (uint32_t m = m2; m; m &= m - 1) stage[o++] = (uint16_t)(lane << RADIX_STAGE_KEY_BITS | (__ffs(m) - 1));
        }
        pend_total = total;
        pend_b = b;
        parity ^= 1;
    }
    radix_tile_extra(p, n, tw.sp, ctr1, ctr2, [&](K bits) { return c.cls(bits); }, emit);
}

/* Persistent grid: as many blocks as are resident at once (`per_sm` on each
 * of `sms`), fewer when n_max cannot feed them. */
static inline int radix_grid(int sms, int per_sm, unsigned long long n_max)
{
    const unsigned long long full = (unsigned long long)sms * per_sm;
    const unsigned long long per_block = (unsigned long long)RADIX_THREADS * DRTOPK_VEC;
    const unsigned long long need = (n_max + per_block - 1) / per_block;
    return (int)(need < full ? (need ? need : 1) : full);
}

#endif
