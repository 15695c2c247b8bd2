/*
 * stream_tile.cuh -- the streaming loops of the flag radix top-k (paper 5.1,
 * radix_topk.cu), shared with the one-read top-k (onepass.cu) and the fused
 * small-input top-k (small_n.cu): a grid-stride read of a 4-byte key vector
 * with 16-byte loads in flight, and the same read -- of 2-, 4- or 8-byte keys
 * -- with every element put in one of two output classes that take dense
 * slots from two device counters, one block-wide scan and one atomic per class
 * per tile; and the persistent grid they size their passes with.
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
 * elements are written (emit(c, bits, index, slot)) during tile t+1, after its
 * single barrier.  The tile loop is block-uniform.  Keys are K wide (p is
 * aligned to sizeof(K)); a thread holds RADIX_UNROLL 16-byte loads a tile
 * whatever K, so every width keeps the same bytes in flight. */
#define RADIX_CLASS_BITS 2
#define RADIX_CLASS_MASK 3u
#define RADIX_COUNT_SHIFT 16           /* class-2 count in the upper half of a packed count */
#define RADIX_COUNT_LOW 0xFFFFu
#define RADIX_TILE_WARPS (RADIX_THREADS / DRTOPK_WARP)
#define RADIX_DENSE_SHARE 4            /* warp-ordered slots from 1/4 of the keys output */
template <typename K, typename C, typename E>
__device__ __forceinline__ void radix_for_each_tile(const K *p, unsigned long long n,
                                                    unsigned long long *ctr1, unsigned long long *ctr2, C cls, E emit)
{
    constexpr int PV = tile_keys<K>::per_vec;
    typedef typename tile_klass<(RADIX_CLASS_BITS * PV * RADIX_UNROLL > 32)>::type klass_t;
    const klass_t vec_class_mask = ((klass_t)1 << (RADIX_CLASS_BITS * PV)) - 1u; /* the classes of one load */
    __shared__ uint32_t sh_warp[2][RADIX_TILE_WARPS]; /* per tile parity: warp totals, then offsets */
    __shared__ unsigned long long sh_base[2][2];      /* per tile parity: counter bases */
    const int lane = threadIdx.x % DRTOPK_WARP, warp = threadIdx.x / DRTOPK_WARP;
    const int nwarps = blockDim.x / DRTOPK_WARP;
    const unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    const vec_split sp = vec_split_of(p, n, PV);
    const unsigned long long head = sp.head, nvec = sp.nvec, tail = sp.tail;
    const uint4 *v = reinterpret_cast<const uint4 *>(p + head);
    const bool leader = warp == 0 && lane == nwarps - 1; /* issues the tile atomics */
    uint4 pend[RADIX_UNROLL];          /* the previous tile, written this round */
    klass_t pend_klass = 0;
    uint32_t pend_excl = 0;            /* this lane's packed counts before it in its warp */
    bool pend_dense = false;           /* warp-ordered slots (warp-uniform) */
    unsigned long long pend_b = 0, base1 = 0, base2 = 0;
    const uint32_t lanes_below = (1u << lane) - 1u;
    constexpr uint32_t dense_min = DRTOPK_WARP * PV * RADIX_UNROLL / RADIX_DENSE_SHARE;
    int parity = 0;
    const unsigned long long step = stride * RADIX_UNROLL;
    const unsigned long long first = (unsigned long long)blockIdx.x * blockDim.x;
    /* one extra round drains the last tile */
    for (unsigned long long base = first; base < nvec + step; base += step) {
        const bool live = base < nvec; /* block-uniform */
        const unsigned long long b = base + threadIdx.x;
        uint4 r[RADIX_UNROLL];
        klass_t klass = 0;
        uint32_t cnt = 0, incl = 0;
        bool dense = false;
        if (live) {
#pragma unroll
            for (int j = 0; j < RADIX_UNROLL; ++j)
                if (b + j * stride < nvec) r[j] = __ldg(v + b + j * stride);
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
            incl = cnt;
#pragma unroll
            for (int d = 1; d < DRTOPK_WARP; d *= 2) {
                const uint32_t o = __shfl_up_sync(DRTOPK_FULL_MASK, incl, d);
                if (lane >= d) incl += o;
            }
            const uint32_t total = __shfl_sync(DRTOPK_FULL_MASK, incl, DRTOPK_WARP - 1);
            dense = (total & RADIX_COUNT_LOW) + (total >> RADIX_COUNT_SHIFT) >= dense_min;
            if (lane == DRTOPK_WARP - 1) sh_warp[parity][warp] = incl;
        }
        /* the previous tile's atomics had a whole round to return */
        if (leader && base != first) {
            sh_base[parity ^ 1][0] = base1;
            sh_base[parity ^ 1][1] = base2;
        }
        __syncthreads();
        if (live && warp == 0) {
            const uint32_t w = lane < nwarps ? sh_warp[parity][lane] : 0;
            uint32_t wi = w;
#pragma unroll
            for (int d = 1; d < DRTOPK_WARP; d *= 2) {
                const uint32_t o = __shfl_up_sync(DRTOPK_FULL_MASK, wi, d);
                if (lane >= d) wi += o;
            }
            if (lane < nwarps) sh_warp[parity][lane] = wi - w;
            if (lane == nwarps - 1) {
                const uint32_t t1 = wi & RADIX_COUNT_LOW, t2 = wi >> RADIX_COUNT_SHIFT;
                base1 = t1 ? atomicAdd(ctr1, (unsigned long long)t1) : 0;
                base2 = t2 ? atomicAdd(ctr2, (unsigned long long)t2) : 0;
            }
        }
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
#pragma unroll
                for (int e = 0; e < PV; ++e) {
                    const int q = j * PV + e;
                    const uint32_t c = (uint32_t)(pend_klass >> (RADIX_CLASS_BITS * q)) & RADIX_CLASS_MASK;
                    const unsigned long long i = head + (pend_b + j * stride) * PV + e;
                    if (pend_dense) {
                        const uint32_t b1 = __ballot_sync(DRTOPK_FULL_MASK, c == 1);
                        const uint32_t b2 = __ballot_sync(DRTOPK_FULL_MASK, c == 2);
                        if (c == 1) emit(1, tile_keys<K>::at(pend[j], e), i, s1 + __popc(b1 & lanes_below));
                        else if (c == 2) emit(2, tile_keys<K>::at(pend[j], e), i, s2 + __popc(b2 & lanes_below));
                        s1 += __popc(b1);
                        s2 += __popc(b2);
                    } else if (c == 1) {
                        emit(1, tile_keys<K>::at(pend[j], e), i, s1++);
                    } else if (c == 2) {
                        emit(2, tile_keys<K>::at(pend[j], e), i, s2++);
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
    const unsigned long long extra = head + (n - tail);
    if (tid < extra) {
        const unsigned long long i = tid < head ? tid : tail + (tid - head);
        const K bits = __ldg(p + i);
        const uint32_t c = cls(bits);
        if (c == 1) emit(1, bits, i, radix_slot(ctr1));
        else if (c == 2) emit(2, bits, i, radix_slot(ctr2));
    }
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
