/*
 * delegate_build.cuh -- step 1 of Dr. Top-k: the delegate vector (paper 4.1,
 * 4.3, 5.1, 5.3).  V is split into subranges of 2^alpha elements (the tail
 * shorter); every subrange s contributes its nd(s) = min(beta, |S|) largest
 * (ordered key, position) pairs at D[s * nd_full + j], best first, where
 * nd_full = min(beta, 2^alpha).  The tail subrange is last, so
 * |D| = (nsub - 1) * nd_full + nd(tail) is known on the host.
 *
 * Four shapes of the one full read of V, all with 16-byte loads when V is
 * 16-byte aligned, all with the same per-element work: a surrogate key
 * (keyorder.h: a few integer operations, no branch) and a branch-free
 * top-beta insertion into registers (one compare and four selects per slot),
 * so no lane waits for another's insert:
 *  - shared-memory build (5.3, alpha <= 5 with DRTOPK_SHARED_DELEGATE): a warp
 *    loads 32 consecutive subranges coalesced into padded shared memory, then
 *    each lane reduces one subrange alone, with no shuffles;
 *  - staged build (alpha 6 and 7 with DRTOPK_SHARED_DELEGATE): the same
 *    staging by asynchronous copies in 32-element rows, a lane per row, and
 *    the 2 or 4 lanes of a subrange merge by shuffles;
 *  - warp-centric (5.1): a group of lanes per subrange (the whole warp from
 *    2^12 elements up), each lane keeps a top-beta list in registers, a
 *    butterfly of warp shuffles merges the lists, the group's first lane
 *    writes the delegates;
 *  - block per subrange: for long subranges (few of them, each too long for
 *    one warp to finish in step with the rest), the 8 warps of a block share
 *    a subrange and merge through shared memory.
 *
 * This header holds the kernels and their launch shapes; delegate_build.cu
 * checks the arguments and dispatches, delegate_build_inst.cu instantiates
 * one (dtype, position width) per translation unit.
 */
#ifndef DRTOPK_DELEGATE_BUILD_CUH
#define DRTOPK_DELEGATE_BUILD_CUH
#include "kernels.h"
#include "keyorder.h"
#include "pipeline_stages.h"

#include <type_traits>

#define DB_BLOCK 256                 /* threads per block                          */
#define DB_WARPS (DB_BLOCK / DRTOPK_WARP)
#define DB_UNROLL 4                  /* independent 16-byte loads in flight / lane */
#define DB_BLOCK_SPLIT_ALPHA 16      /* from 2^16 elements a whole block shares a
                                        subrange: too few subranges to give every
                                        resident warp its own, so a warp per
                                        subrange would leave a long tail wave */
#define DB_UNITS_PER_LANE 32         /* loads per lane and subrange the lane
                                        groups are sized for: long enough that the
                                        shuffle merge is a small share of the work */
#define DB_LINE_VECS 8               /* 16-byte loads per 128-byte line          */
#define DB_LINE_WORDS 32             /* 4-byte loads per 128-byte line            */
#define DB_SECTOR_VECS 2             /* 16-byte loads per 32-byte sector          */
#define DB_SECTOR_WORDS 8            /* 4-byte loads per 32-byte sector           */
#define DB_LINE_MIN_UNITS 4          /* loads per lane that a line-wide group needs
                                        to stay ahead of its shuffle merge        */
#define DB_SHARED_MIN_BLOCKS 3       /* caps registers: 3 blocks (24 warps) per SM */
#define DB_SHARED_MAX_ALPHA 5        /* 5.3: one subrange per lane up to 32 elements */
#define DB_SHARED_MAX_VECS ((1 << DB_SHARED_MAX_ALPHA) / DRTOPK_VEC) /* 16-byte loads per lane
                                        and batch at alpha 5                      */
#define DB_ROW 32                    /* elements a lane reduces alone in the staged
                                        build, as 5.3's lane does at 2^5          */
#define DB_ROW_VECS (DB_ROW / DRTOPK_VEC)
#define DB_ROW_PITCH (DB_ROW_VECS + 1) /* 16-byte slots per staged row: odd, so the
                                        8 lanes of a quarter-warp 16-byte access
                                        of their own rows hit 8 bank quads      */
#define DB_TILE_VECS (DRTOPK_WARP * DB_ROW_VECS) /* a warp stages one row per lane */
#define DB_TILE (DB_TILE_VECS * DRTOPK_VEC)
#define DB_STAGED_BLOCK 128          /* 4 warps: 36 KB of static shared memory,
                                        6 blocks per SM                          */
#define DB_STAGED_WARPS (DB_STAGED_BLOCK / DRTOPK_WARP)
#define DB_STAGES 2                  /* tiles per warp: one copied, one reduced  */
#define DB_STAGED_MAX_ALPHA DRTOPK_SHARED_DELEGATE_MAX_ALPHA /* from 2^8 elements the warp-centric build's
                                        line-wide lane groups are faster (H200,
                                        2^30 u32, beta 2: 1.07 against 1.19 ms)  */
#define DB_NO_POS 0xFFFFFFFFu        /* empty slot: offsets in a subrange are < 2^24 */

/* Per-element surrogate keys (keyorder.h): the hot loop ranks elements by a
 * surrogate that refines the ordered key, so a top-B by surrogate is a top-B
 * by ordered key; key() maps a surrogate back.  K's signedness is the
 * surrogate's order.  `om` (all ones for the smallest) reverses the order.
 * For u32 the surrogate b ^ om is the ordered key itself; i32 keys run the
 * u32 kernels with the sign bit added to om (b ^ om ^ 2^31 is i32's ordered
 * key of either order), so key() of the u32 surrogate is the surrogate. */
template <int T> struct surr {
    typedef typename std::conditional<T == DRTOPK_U32, uint32_t, int32_t>::type K;
    static __device__ __forceinline__ K lowest() { return T == DRTOPK_U32 ? (K)0 : (K)DRTOPK_SIGN_BIT; }
    static __device__ __forceinline__ K of(uint32_t b, uint32_t om)
    {
        return (K)drtopk_surrogate(b, (drtopk_dtype)T, om);
    }
    static __device__ __forceinline__ uint32_t key(K s, uint32_t om)
    {
        if (T == DRTOPK_U32) return (uint32_t)s;
        return drtopk_key_from_bits(drtopk_bits_from_surrogate((uint32_t)s, (drtopk_dtype)T, om), (drtopk_dtype)T,
                                    om ? DRTOPK_SMALLEST : DRTOPK_LARGEST);
    }
};

/* One lane's top-B of surrogate keys with their offsets in the subrange,
 * best first; empty slots (lowest, DB_NO_POS) stay at the end. */
template <typename K, int B>
struct lanetop {
    K m[B];
    uint32_t o[B];
    __device__ __forceinline__ void init(K lowest)
    {
#pragma unroll
        for (int i = 0; i < B; ++i) { m[i] = lowest; o[i] = DB_NO_POS; }
    }
    /* Branch-free insertion (every lane takes the same path: no divergent
     * insert): per level one compare and four selects, the loser moves down.
     * Ties go to the newcomer, so an empty slot takes any key, the lowest too. */
    __device__ __forceinline__ void push(K x, uint32_t ox)
    {
#pragma unroll
        for (int i = 0; i < B; ++i) {
            const bool c = x >= m[i];
            const K lo = c ? m[i] : x;
            const uint32_t olo = c ? o[i] : ox;
            m[i] = c ? x : m[i];
            o[i] = c ? ox : o[i];
            x = lo;
            ox = olo;
        }
    }
    __device__ __forceinline__ void push4(const uint4 &w, uint32_t o0)
    {
        push((K)w.x, o0);
        push((K)w.y, o0 + 1);
        push((K)w.z, o0 + 2);
        push((K)w.w, o0 + 3);
    }
    /* Merge another list (disjoint elements): its filled slots only. */
    __device__ __forceinline__ void merge(const K *xm, const uint32_t *xo)
    {
#pragma unroll
        for (int i = 0; i < B; ++i)
            if (xo[i] != DB_NO_POS) push(xm[i], xo[i]);
    }
    /* Butterfly merge over aligned groups of G lanes: afterwards every lane of
     * a group holds a top-B of the group.  All 32 lanes must call it. */
    __device__ __forceinline__ void merge_group(uint32_t G)
    {
        for (uint32_t off = 1; off < G; off <<= 1) {
            K xm[B];
            uint32_t xo[B];
#pragma unroll
            for (int i = 0; i < B; ++i) {
                xm[i] = __shfl_xor_sync(DRTOPK_FULL_MASK, m[i], off);
                xo[i] = __shfl_xor_sync(DRTOPK_FULL_MASK, o[i], off);
            }
            merge(xm, xo);
        }
    }
};

/* D[slot + i] for the nd best of subrange [lo, ...). */
template <int T, int B, typename P>
__device__ __forceinline__ void write_top(const lanetop<typename surr<T>::K, B> &t, uint32_t om,
                                          uint32_t *__restrict__ dk, P *__restrict__ dp, uint64_t slot,
                                          uint64_t lo, uint32_t nd)
{
#pragma unroll
    for (int i = 0; i < B; ++i) {
        if ((uint32_t)i < nd) {
            dk[slot + i] = surr<T>::key(t.m[i], om);
            dp[slot + i] = (P)(lo + t.o[i]);
        }
    }
}

/* Surrogates of a 16-byte vector of raw elements. */
template <int T>
__device__ __forceinline__ uint4 surr4(const uint4 &x, uint32_t om)
{
    return make_uint4((uint32_t)surr<T>::of(x.x, om), (uint32_t)surr<T>::of(x.y, om),
                      (uint32_t)surr<T>::of(x.z, om), (uint32_t)surr<T>::of(x.w, om));
}

/* One lane's share of a subrange w[0, len): elements g, g + G, ... (or
 * 16-byte vectors g, g + G, ... when `vec`), DB_UNROLL loads in flight. */
template <int T, int B>
__device__ __forceinline__ void scan_share(lanetop<typename surr<T>::K, B> &tl, const uint32_t *__restrict__ w,
                                           uint32_t len, uint32_t g, uint32_t G, int vec, uint32_t om)
{
    uint32_t e0 = 0;
    if (vec) {
        const uint4 *w4 = (const uint4 *)w;
        const uint32_t nvec = len / DRTOPK_VEC;
        uint32_t j = g;
        for (; j + (DB_UNROLL - 1) * G < nvec; j += DB_UNROLL * G) {
            uint4 x[DB_UNROLL];
#pragma unroll
            for (int u = 0; u < DB_UNROLL; ++u) x[u] = __ldcs(w4 + j + u * G);
#pragma unroll
            for (int u = 0; u < DB_UNROLL; ++u) tl.push4(surr4<T>(x[u], om), (j + u * G) * DRTOPK_VEC);
        }
        for (; j < nvec; j += G) tl.push4(surr4<T>(__ldcs(w4 + j), om), j * DRTOPK_VEC);
        e0 = nvec * DRTOPK_VEC;   /* the tail subrange's last len % 4 elements */
    }
    for (uint32_t e = e0 + g; e < len; e += G) tl.push(surr<T>::of(__ldcs(w + e), om), e);
}

/* Warp-centric build: groups of G lanes (a power of two dividing 32), one
 * subrange per group, 32 / G subranges per warp and step. */
template <int T, int B, typename P>
__global__ void __launch_bounds__(DB_BLOCK)
delegate_warp_kernel(const uint32_t *__restrict__ v, uint64_t n, int alpha, uint32_t G, int vec,
                     uint32_t om, uint32_t *__restrict__ dk, P *__restrict__ dp)
{
    const uint64_t L = 1ull << alpha;
    const uint64_t nsub = (n + L - 1) >> alpha;
    const uint64_t nd_full = L < (uint64_t)B ? L : (uint64_t)B;
    const uint32_t lane = threadIdx.x % DRTOPK_WARP;
    const uint32_t per_warp = DRTOPK_WARP / G;
    const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / DRTOPK_WARP;
    const uint64_t nwarps = ((uint64_t)gridDim.x * blockDim.x) / DRTOPK_WARP;
    for (uint64_t base = warp * per_warp; base < nsub; base += nwarps * per_warp) {
        const uint64_t s = base + lane / G;
        const uint64_t lo = s << alpha;
        lanetop<typename surr<T>::K, B> tl;
        tl.init(surr<T>::lowest());
        uint32_t len = 0;
        if (s < nsub) {
            len = (uint32_t)(n - lo < L ? n - lo : L);
            scan_share<T, B>(tl, v + lo, len, lane % G, G, vec, om);
        }
        tl.merge_group(G);
        if (s < nsub && lane % G == 0)
            write_top<T, B, P>(tl, om, dk, dp, s * nd_full, lo, len < (uint32_t)B ? len : (uint32_t)B);
    }
}

/* Block per subrange: each warp reduces a strided share, lane 0 of each warp
 * puts its list in shared memory, thread 0 merges the DB_WARPS lists. */
template <int T, int B, typename P>
__global__ void __launch_bounds__(DB_BLOCK)
delegate_block_kernel(const uint32_t *__restrict__ v, uint64_t n, int alpha, int vec,
                      uint32_t om, uint32_t *__restrict__ dk, P *__restrict__ dp)
{
    typedef typename surr<T>::K K;
    __shared__ K sm[DB_WARPS][B];
    __shared__ uint32_t so[DB_WARPS][B];
    const uint64_t L = 1ull << alpha;
    const uint64_t nsub = (n + L - 1) >> alpha;
    const uint64_t nd_full = L < (uint64_t)B ? L : (uint64_t)B;
    const uint32_t lane = threadIdx.x % DRTOPK_WARP, w = threadIdx.x / DRTOPK_WARP;
    for (uint64_t s = blockIdx.x; s < nsub; s += gridDim.x) {
        const uint64_t lo = s << alpha;
        const uint32_t len = (uint32_t)(n - lo < L ? n - lo : L);
        lanetop<K, B> tl;
        tl.init(surr<T>::lowest());
        scan_share<T, B>(tl, v + lo, len, threadIdx.x, DB_BLOCK, vec, om);
        tl.merge_group(DRTOPK_WARP);
        if (lane == 0) {
#pragma unroll
            for (int i = 0; i < B; ++i) { sm[w][i] = tl.m[i]; so[w][i] = tl.o[i]; }
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            for (int x = 1; x < DB_WARPS; ++x) tl.merge(sm[x], so[x]);
            write_top<T, B, P>(tl, om, dk, dp, s * nd_full, lo, len < (uint32_t)B ? len : (uint32_t)B);
        }
        __syncthreads();           /* sm/so are reused by the next subrange */
    }
}

/* Start copying tile t of V into buf: vector q of the tile (16 bytes) goes to
 * row q / DB_ROW_VECS, slot q % DB_ROW_VECS, so one warp copy instruction
 * moves 512 consecutive bytes.  Only whole vectors: the last tile's final
 * n % 4 elements are read from V by the reduce. */
__device__ __forceinline__ void stage_tile(uint4 *buf, const uint32_t *__restrict__ v, uint64_t n, uint64_t t,
                                           uint32_t lane)
{
    const uint64_t base = t * DB_TILE, rem = n - base;
    const uint32_t nvec = rem >= DB_TILE ? DB_TILE_VECS : (uint32_t)(rem / DRTOPK_VEC);
    const uint4 *src = (const uint4 *)(v + base);
#pragma unroll
    for (uint32_t u = 0; u < DB_ROW_VECS; ++u) {
        const uint32_t q = u * DRTOPK_WARP + lane;
        if (q < nvec) cp_async16(buf + (q / DB_ROW_VECS) * DB_ROW_PITCH + q % DB_ROW_VECS, src + q);
    }
}

/* Words per shared-memory row of L surrogates: rows of 16-byte vectors are
 * padded to an odd number of vectors (the 8 lanes of each quarter-warp phase
 * of a 16-byte read of their own rows hit 8 different bank quads); rows
 * shorter than a vector are padded to an odd number of words. */
__host__ __device__ __forceinline__ uint32_t shared_row_words(uint32_t L)
{
    return L >= DRTOPK_VEC ? ((L / DRTOPK_VEC) | 1u) * DRTOPK_VEC : L + 1u;
}

/* Paper 5.3: a warp stages 32 subranges of L <= 32 surrogates in shared
 * memory, stored as loaded (coalesced 16-byte loads, 16-byte stores), then
 * lane r reduces row r alone with 16-byte reads and no shuffles. */
template <int T, int B, typename P>
__global__ void __launch_bounds__(DB_BLOCK, DB_SHARED_MIN_BLOCKS)
delegate_shared_kernel(const uint32_t *__restrict__ v, uint64_t n, int alpha, int vec,
                       uint32_t om, uint32_t *__restrict__ dk, P *__restrict__ dp)
{
    extern __shared__ uint4 db_smem[];
    typedef typename surr<T>::K K;
    const uint32_t L = 1u << alpha, rs = shared_row_words(L);
    const uint32_t V = L / DRTOPK_VEC;              /* vectors per row (vec only) */
    const int vshift = alpha - 2;                   /* log2 V */
    const uint64_t nsub = (n + L - 1) >> alpha;
    const uint32_t nd_full = L < (uint32_t)B ? L : (uint32_t)B;
    const uint32_t lane = threadIdx.x % DRTOPK_WARP;
    uint32_t *sm = (uint32_t *)db_smem + (threadIdx.x / DRTOPK_WARP) * DRTOPK_WARP * rs;
    const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / DRTOPK_WARP;
    const uint64_t nwarps = ((uint64_t)gridDim.x * blockDim.x) / DRTOPK_WARP;
    for (uint64_t sb = warp * DRTOPK_WARP; sb < nsub; sb += nwarps * DRTOPK_WARP) {
        const uint64_t lo = sb << alpha;
        const uint32_t cnt = (uint32_t)(n - lo < (uint64_t)DRTOPK_WARP * L ? n - lo : (uint64_t)DRTOPK_WARP * L);
        uint32_t e0 = 0;
        if (vec) {
            /* V <= 8 vectors per lane, all issued before use; vector q holds
             * elements 4q..4q+3 of row q / V */
            const uint4 *v4 = (const uint4 *)(v + lo);
            const uint32_t nvec = cnt / DRTOPK_VEC;
            uint4 x[DB_SHARED_MAX_VECS];
#pragma unroll
            for (uint32_t u = 0; u < DB_SHARED_MAX_VECS; ++u)
                if (u < V && u * DRTOPK_WARP + lane < nvec) x[u] = __ldcs(v4 + u * DRTOPK_WARP + lane);
#pragma unroll
            for (uint32_t u = 0; u < DB_SHARED_MAX_VECS; ++u) {
                const uint32_t q = u * DRTOPK_WARP + lane;
                if (u < V && q < nvec)
                    *(uint4 *)(sm + (q >> vshift) * rs + (q & (V - 1)) * DRTOPK_VEC) = surr4<T>(x[u], om);
            }
            e0 = nvec * DRTOPK_VEC;
        }
        for (uint32_t e = e0 + lane; e < cnt; e += DRTOPK_WARP)
            sm[(e >> alpha) * rs + (e & (L - 1))] = (uint32_t)surr<T>::of(__ldcs(v + lo + e), om);
        __syncwarp();
        const uint64_t s = sb + lane;
        if (s < nsub) {
            const uint64_t slo = s << alpha;
            const uint32_t len = (uint32_t)(n - slo < L ? n - slo : L);
            const uint32_t *row = sm + lane * rs;
            lanetop<K, B> tl;
            tl.init(surr<T>::lowest());
            if (L >= DRTOPK_VEC && len == L) {
#pragma unroll
                for (uint32_t j = 0; j < DB_SHARED_MAX_VECS; ++j)
                    if (j < V) tl.push4(*(const uint4 *)(row + j * DRTOPK_VEC), j * DRTOPK_VEC);
            } else {
                for (uint32_t j = 0; j < len; ++j) tl.push((K)row[j], j);
            }
            write_top<T, B, P>(tl, om, dk, dp, s * (uint64_t)nd_full, slo, len < (uint32_t)B ? len : (uint32_t)B);
        }
        __syncwarp();              /* the rows are overwritten by the next batch */
    }
}

/* Lane `lane` reduces row `lane` of a staged tile (tile offsets
 * lane * DB_ROW ...), then the G = L / DB_ROW lanes of each subrange merge
 * their lists.  Every lane of the warp calls it. */
template <int T, int B, typename P>
__device__ __forceinline__ void reduce_tile(const uint4 *buf, const uint32_t *__restrict__ v, uint64_t n,
                                            uint64_t base, int alpha, uint32_t om, uint32_t lane,
                                            uint32_t *__restrict__ dk, P *__restrict__ dp)
{
    typedef typename surr<T>::K K;
    const uint32_t L = 1u << alpha, G = L / DB_ROW;
    const uint32_t row0 = lane * DB_ROW;
    const uint4 *row = buf + lane * DB_ROW_PITCH;
    lanetop<K, B> tl;
    tl.init(surr<T>::lowest());
    if (n - base >= DB_TILE) {
#pragma unroll
        for (uint32_t j = 0; j < DB_ROW_VECS; ++j) tl.push4(surr4<T>(row[j], om), row0 + j * DRTOPK_VEC);
    } else {
        /* the last tile: rows end at cnt; its final cnt % 4 elements were not
         * staged (whole vectors only) */
        const uint32_t cnt = (uint32_t)(n - base), staged = cnt / DRTOPK_VEC * DRTOPK_VEC;
        const uint32_t *words = (const uint32_t *)row;
        for (uint32_t j = 0; j < DB_ROW && row0 + j < cnt; ++j) {
            const uint32_t e = row0 + j;
            tl.push(surr<T>::of(e < staged ? words[j] : v[base + e], om), e);
        }
    }
    tl.merge_group(G);
    const uint64_t sub = (base + row0) >> alpha, lo = sub << alpha;
    if (lane % G == 0 && lo < n) {
        const uint64_t len = n - lo < L ? n - lo : L;
        write_top<T, B, P>(tl, om, dk, dp, sub * B, base, len < B ? (uint32_t)len : (uint32_t)B);
    }
}

/* Staged build for 2^6 and 2^7 elements per subrange (5.3's shared-memory
 * staging, with rows shorter than a subrange): each warp walks tiles of
 * DB_TILE consecutive elements, copying them into padded shared memory with
 * 16-byte asynchronous copies (the next tile in flight while this one is
 * reduced, no registers held by loads), then every lane reduces one 32-element
 * row alone, with no shuffles, and the L / 32 lanes of a subrange merge in
 * one or two shuffle levels.  The warp-centric build needs three levels per
 * 16 elements a lane here, and its lane-strided loads run at 1.2 to 1.8 ms
 * for 2^30 u32 depending on the card (H200); this shape, at 1.19 to 1.25 ms,
 * does not. */
template <int T, int B, typename P>
__global__ void __launch_bounds__(DB_STAGED_BLOCK)
delegate_staged_kernel(const uint32_t *__restrict__ v, uint64_t n, int alpha, uint32_t om,
                       uint32_t *__restrict__ dk, P *__restrict__ dp)
{
    __shared__ uint4 tiles[DB_STAGED_WARPS][DB_STAGES][DRTOPK_WARP * DB_ROW_PITCH];
    const uint32_t lane = threadIdx.x % DRTOPK_WARP;
    const uint64_t ntiles = (n + DB_TILE - 1) / DB_TILE;
    const uint64_t nwarps = ((uint64_t)gridDim.x * blockDim.x) / DRTOPK_WARP;
    uint64_t t = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / DRTOPK_WARP;
    uint4(*buf)[DRTOPK_WARP * DB_ROW_PITCH] = tiles[threadIdx.x / DRTOPK_WARP];
    /* tiles t, t + nwarps, ... in flight in DB_STAGES - 1 copy groups */
#pragma unroll
    for (uint32_t p = 0; p + 1 < DB_STAGES; ++p) {
        if (t + p * nwarps < ntiles) stage_tile(buf[p], v, n, t + p * nwarps, lane);
        cp_async_commit();
    }
    for (uint32_t st = 0; t < ntiles; t += nwarps, st = st + 1 == DB_STAGES ? 0 : st + 1) {
        const uint64_t ahead = t + (DB_STAGES - 1) * nwarps;
        const uint32_t into = st == 0 ? DB_STAGES - 1 : st - 1;   /* the buffer reduced last */
        if (ahead < ntiles) stage_tile(buf[into], v, n, ahead, lane);
        cp_async_commit();
        cp_async_wait<DB_STAGES - 1>(); /* this lane's copies of tile t have landed */
        __syncwarp();                   /* and so have the other lanes'              */
        reduce_tile<T, B, P>(buf[st], v, n, t * DB_TILE, alpha, om, lane, dk, dp);
        __syncwarp();                   /* buf[st] is refilled next iteration        */
    }
}

static inline uint64_t grid_for(uint64_t items, uint64_t per_block)
{
    const uint64_t g = (items + per_block - 1) / per_block;
    return g < DRTOPK_GRID_MAX ? (g ? g : 1) : DRTOPK_GRID_MAX;
}

/* The staged kernel's occupancy is bound by shared memory: ask for the most
 * (drtopk_kernel_occupancy's per-device preparation). */
static inline cudaError_t db_max_shared_carveout(const void *kernel)
{
    return cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                cudaSharedmemCarveoutMaxShared);
}

template <int T, int B, typename P>
static drtopk_status launch(const delegate_args *a, cudaStream_t st)
{
    const uint32_t om = (a->order == DRTOPK_SMALLEST ? DRTOPK_ALL_ONES : 0u) ^
                        (a->dtype == DRTOPK_I32 ? DRTOPK_SIGN_BIT : 0u);  /* i32 on the u32 kernels */
    const int vec = a->alpha >= 2 && ((uintptr_t)a->v & (DRTOPK_VEC_BYTES - 1)) == 0;
    const uint64_t L = 1ull << a->alpha;
    const uint64_t nsub = (a->n + L - 1) >> a->alpha;
    P *dp = (P *)a->d_pos;
    if (a->shared_build && a->alpha <= DB_SHARED_MAX_ALPHA) {
        const size_t smem = (size_t)DB_WARPS * DRTOPK_WARP * shared_row_words((uint32_t)L) * sizeof(uint32_t);
        const uint64_t per_block = (uint64_t)DRTOPK_WARP * DB_WARPS; /* a subrange per lane */
        delegate_shared_kernel<T, B, P><<<(unsigned)grid_for(nsub, per_block), DB_BLOCK, smem, st>>>(
            a->v, a->n, a->alpha, vec, om, a->d_keys, dp);
    } else if (a->shared_build && vec && a->alpha <= DB_STAGED_MAX_ALPHA) {
        /* persistent: as many warps as are resident, each walking tiles;
         * occupancy is bound by shared memory, so ask for all of it.  The
         * queries are made once per device (device_cache.cu): they cost more
         * than a small input's kernels. */
        const drtopk_device_attrs *dev;
        int per_sm;
        drtopk_status rc = drtopk_device_current(NULL, &dev);
        if (rc != DRTOPK_OK) return rc;
        rc = drtopk_kernel_occupancy((const void *)delegate_staged_kernel<T, B, P>, DB_STAGED_BLOCK, 0,
                                     db_max_shared_carveout, &per_sm);
        if (rc != DRTOPK_OK) return rc;
        const uint64_t resident = (uint64_t)dev->sm_count * (uint64_t)per_sm;
        const uint64_t need = grid_for((a->n + DB_TILE - 1) / DB_TILE, DB_STAGED_WARPS);
        delegate_staged_kernel<T, B, P><<<(unsigned)(need < resident ? need : resident), DB_STAGED_BLOCK, 0, st>>>(
            a->v, a->n, a->alpha, om, a->d_keys, dp);
    } else if (a->alpha >= DB_BLOCK_SPLIT_ALPHA) {
        delegate_block_kernel<T, B, P><<<(unsigned)grid_for(nsub, 1), DB_BLOCK, 0, st>>>(
            a->v, a->n, a->alpha, vec, om, a->d_keys, dp);
    } else {
        /* lanes per subrange: about DB_UNITS_PER_LANE loads each (few shuffle
         * levels, many loads in flight), at most the warp, and at least a
         * 128-byte line per warp load instruction and subrange: narrower
         * groups spread one warp load over more lines than its bytes need
         * (H200: 2^7 elements with 2 lanes per subrange 1.72 ms for 2^30 u32,
         * with 8 lanes 1.26 ms).  Where a line-wide group would leave each lane
         * under DB_LINE_MIN_UNITS loads, the shuffle merge costs more than the
         * spread (2^6 elements: 8 lanes 1.93 ms, 2 lanes 1.74 ms), so a 32-byte
         * sector is the floor there. */
        const uint64_t units = vec ? L / DRTOPK_VEC : L;
        const uint64_t line = vec ? DB_LINE_VECS : DB_LINE_WORDS;
        const uint64_t min_g = units >= line * DB_LINE_MIN_UNITS ? line : vec ? DB_SECTOR_VECS : DB_SECTOR_WORDS;
        uint64_t G = units / DB_UNITS_PER_LANE;
        if (G > DRTOPK_WARP) G = DRTOPK_WARP;
        if (G < min_g) G = units < min_g ? units : min_g;
        const uint64_t per_block = (uint64_t)DB_WARPS * (DRTOPK_WARP / G); /* a subrange per group */
        delegate_warp_kernel<T, B, P><<<(unsigned)grid_for(nsub, per_block), DB_BLOCK, 0, st>>>(
            a->v, a->n, a->alpha, (uint32_t)G, vec, om, a->d_keys, dp);
    }
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

template <int T, typename P>
static drtopk_status launch_beta(const delegate_args *a, cudaStream_t st)
{
    static_assert(DRTOPK_BETA_MAX == 8, "launch_beta instantiates beta = 1..8");
    switch (a->beta) {
    case 1: return launch<T, 1, P>(a, st);
    case 2: return launch<T, 2, P>(a, st);
    case 3: return launch<T, 3, P>(a, st);
    case 4: return launch<T, 4, P>(a, st);
    case 5: return launch<T, 5, P>(a, st);
    case 6: return launch<T, 6, P>(a, st);
    case 7: return launch<T, 7, P>(a, st);
    case 8: return launch<T, 8, P>(a, st);
    default: return DRTOPK_ERR_INVALID_ARGUMENT;
    }
}

/* One dtype and position width, every beta.  Each of the four pairs (u32,
 * which i32 keys run too, and f32; 32- and 64-bit positions) is compiled in
 * its own translation unit (delegate_build_inst.cu), so that no unit
 * instantiates all 2 x 8 x 2 x 4 kernels; every other unit only links to
 * them. */
template <int T, typename P>
struct delegate_launch {
    static drtopk_status run(const delegate_args *a, cudaStream_t st);
};
/* defined out of the class: not inline, so the extern declarations below keep
 * every other unit from instantiating it */
template <int T, typename P>
drtopk_status delegate_launch<T, P>::run(const delegate_args *a, cudaStream_t st)
{
    return launch_beta<T, P>(a, st);
}
extern template struct delegate_launch<DRTOPK_U32, uint32_t>;
extern template struct delegate_launch<DRTOPK_U32, uint64_t>;
extern template struct delegate_launch<DRTOPK_F32, uint32_t>;
extern template struct delegate_launch<DRTOPK_F32, uint64_t>;

#endif
