/*
 * delegate_build.cu -- step 1 of Dr. Top-k: the delegate vector (paper 4.1,
 * 4.3, 5.1, 5.3).  V is split into subranges of 2^alpha elements (the tail
 * shorter); every subrange s contributes its nd(s) = min(beta, |S|) largest
 * (ordered key, position) pairs at D[s * nd_full + j], best first, where
 * nd_full = min(beta, 2^alpha).  The tail subrange is last, so
 * |D| = (nsub - 1) * nd_full + nd(tail) is known on the host.
 *
 * Three shapes of the one full read of V, all with 16-byte loads when V is
 * 16-byte aligned:
 *  - warp-centric (5.1): a group of lanes per subrange (the whole warp from
 *    2^7 elements up), each lane keeps a top-beta list in registers, a
 *    butterfly of warp shuffles merges the lists, the group's first lane
 *    writes the delegates;
 *  - block per subrange: for long subranges (few of them, each too long for
 *    one warp to finish in step with the rest), the 8 warps of a block share
 *    a subrange and merge through shared memory;
 *  - shared-memory build (5.3, alpha <= 5 with DRTOPK_SHARED_DELEGATE): a warp
 *    loads 32 consecutive subranges coalesced into padded shared memory, then
 *    each lane reduces one subrange alone, with no shuffles.
 */
#include "kernels.h"
#include "keyorder.h"
#include "pipeline_stages.h"

#define DB_BLOCK 256                 /* threads per block                          */
#define DB_WARPS (DB_BLOCK / 32)
#define DB_VEC 4                     /* uint32 per 16-byte load                    */
#define DB_UNROLL 4                  /* independent 16-byte loads in flight / lane */
#define DB_BLOCK_SPLIT_ALPHA 16      /* from 2^16 elements a whole block shares a
                                        subrange: too few subranges to give every
                                        resident warp its own, so a warp per
                                        subrange would leave a long tail wave */
#define DB_UNITS_PER_LANE 16         /* loads per lane and subrange the lane
                                        groups are sized for                      */
#define DB_SECTOR_VECS 2             /* 16-byte loads per 32-byte sector          */
#define DB_SECTOR_WORDS 8            /* 4-byte loads per 32-byte sector           */
#define DB_SHARED_MIN_BLOCKS 3       /* caps registers: 3 blocks (24 warps) per SM */
#define DB_ALL_ONES 0xFFFFFFFFu      /* order mask of the smallest                */
#define DB_SHARED_MAX_ALPHA 5        /* 5.3: one subrange per lane up to 32 elements */
#define DB_FULL_MASK 0xFFFFFFFFu

/* Register top-B list, best first.  Entries are ranked by
 * rank = (key << 1) | 1 so that an empty slot (rank 0) loses to every key,
 * zero included; equal keys keep the earlier one (strict >). */
template <int B, typename P>
struct toplist {
    uint64_t r[B];
    P p[B];
    uint32_t lim;                  /* 32-bit fast filter: only keys >= lim can
                                      enter (0 while a slot is empty; wraps to
                                      0 for a full list of 0xFFFFFFFF keys, and
                                      insert() still decides exactly) */
    __device__ __forceinline__ void init()
    {
#pragma unroll
        for (int i = 0; i < B; ++i) { r[i] = 0; p[i] = 0; }
        lim = 0;
    }
    __device__ __forceinline__ void insert(uint64_t rank, P pos)
    {
        if (rank > r[B - 1]) {
            r[B - 1] = rank;
            p[B - 1] = pos;
#pragma unroll
            for (int i = B - 1; i > 0; --i) {
                if (r[i] > r[i - 1]) {
                    uint64_t tr = r[i]; r[i] = r[i - 1]; r[i - 1] = tr;
                    P tp = p[i]; p[i] = p[i - 1]; p[i - 1] = tp;
                }
            }
            lim = (r[B - 1] & 1u) ? (uint32_t)(r[B - 1] >> 1) + 1u : 0u;
        }
    }
    __device__ __forceinline__ void add_key(uint32_t key, uint64_t pos)
    {
        if (key >= lim) insert(((uint64_t)key << 1) | 1u, (P)pos);
    }
    /* Butterfly merge over aligned groups of G lanes: afterwards every lane of
     * a group holds the group's top-B.  All 32 lanes must call it. */
    __device__ __forceinline__ void merge_group(int G)
    {
        for (int off = 1; off < G; off <<= 1) {
            uint64_t orr[B];
            P op[B];
#pragma unroll
            for (int i = 0; i < B; ++i) {
                orr[i] = __shfl_xor_sync(DB_FULL_MASK, r[i], off);
                op[i] = __shfl_xor_sync(DB_FULL_MASK, p[i], off);
            }
#pragma unroll
            for (int i = 0; i < B; ++i) insert(orr[i], op[i]);
        }
    }
    __device__ __forceinline__ void write(uint32_t *dk, P *dp, uint64_t slot, int nd) const
    {
#pragma unroll
        for (int i = 0; i < B; ++i) {
            if (i < nd) {
                dk[slot + i] = (uint32_t)(r[i] >> 1);
                dp[slot + i] = p[i];
            }
        }
    }
};

/* Ordered key with the dtype fixed at compile time (the per-element hot
 * path); the order is one XOR with om (all ones for the smallest). */
template <int T>
__device__ __forceinline__ uint32_t okey(uint32_t b, uint32_t om)
{
    return drtopk_key_from_bits(b, (drtopk_dtype)T, DRTOPK_LARGEST) ^ om;
}

/* One lane's share of a subrange [lo, lo + len): elements g, g + G, ... (or
 * 16-byte vectors g, g + G, ... when `vec`), DB_UNROLL loads in flight. */
template <int T, int B, typename P>
__device__ __forceinline__ void scan_share(toplist<B, P> &tl, const uint32_t *__restrict__ v,
                                           uint64_t lo, uint64_t len, uint32_t g, uint32_t G,
                                           int vec, uint32_t om)
{
    uint64_t e0 = 0;
    if (vec) {
        const uint4 *v4 = (const uint4 *)(v + lo);
        const uint64_t nvec = len / DB_VEC;
        uint64_t j = g;
        for (; j + (DB_UNROLL - 1) * (uint64_t)G < nvec; j += DB_UNROLL * (uint64_t)G) {
            uint4 x[DB_UNROLL];
#pragma unroll
            for (int u = 0; u < DB_UNROLL; ++u) x[u] = __ldcs(v4 + j + u * G);
#pragma unroll
            for (int u = 0; u < DB_UNROLL; ++u) {
                const uint64_t pos = lo + (j + u * G) * DB_VEC;
                tl.add_key(okey<T>(x[u].x, om), pos);
                tl.add_key(okey<T>(x[u].y, om), pos + 1);
                tl.add_key(okey<T>(x[u].z, om), pos + 2);
                tl.add_key(okey<T>(x[u].w, om), pos + 3);
            }
        }
        for (; j < nvec; j += G) {
            const uint4 x = __ldcs(v4 + j);
            const uint64_t pos = lo + j * DB_VEC;
            tl.add_key(okey<T>(x.x, om), pos);
            tl.add_key(okey<T>(x.y, om), pos + 1);
            tl.add_key(okey<T>(x.z, om), pos + 2);
            tl.add_key(okey<T>(x.w, om), pos + 3);
        }
        e0 = nvec * DB_VEC;       /* the tail subrange's last len % 4 elements */
    }
    for (uint64_t e = e0 + g; e < len; e += G) tl.add_key(okey<T>(__ldcs(v + lo + e), om), lo + e);
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
    const int nd_full = (int)(L < (uint64_t)B ? L : (uint64_t)B);
    const uint32_t lane = threadIdx.x & 31u;
    const uint32_t per_warp = 32u / G;
    const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const uint64_t nwarps = ((uint64_t)gridDim.x * blockDim.x) >> 5;
    for (uint64_t base = warp * per_warp; base < nsub; base += nwarps * per_warp) {
        const uint64_t s = base + lane / G;
        toplist<B, P> tl;
        tl.init();
        uint64_t len = 0;
        if (s < nsub) {
            const uint64_t lo = s << alpha;
            len = n - lo < L ? n - lo : L;
            scan_share<T>(tl, v, lo, len, lane % G, G, vec, om);
        }
        tl.merge_group((int)G);
        if (s < nsub && lane % G == 0)
            tl.write(dk, dp, s * (uint64_t)nd_full, (int)(len < (uint64_t)B ? len : (uint64_t)B));
    }
}

/* Block per subrange: each warp reduces a strided share, lane 0 of each warp
 * puts its list in shared memory, thread 0 merges the DB_WARPS lists. */
template <int T, int B, typename P>
__global__ void __launch_bounds__(DB_BLOCK)
delegate_block_kernel(const uint32_t *__restrict__ v, uint64_t n, int alpha, int vec,
                      uint32_t om, uint32_t *__restrict__ dk, P *__restrict__ dp)
{
    __shared__ uint64_t sr[DB_WARPS][B];
    __shared__ P sp[DB_WARPS][B];
    const uint64_t L = 1ull << alpha;
    const uint64_t nsub = (n + L - 1) >> alpha;
    const int nd_full = (int)(L < (uint64_t)B ? L : (uint64_t)B);
    const uint32_t lane = threadIdx.x & 31u, w = threadIdx.x >> 5;
    for (uint64_t s = blockIdx.x; s < nsub; s += gridDim.x) {
        const uint64_t lo = s << alpha;
        const uint64_t len = n - lo < L ? n - lo : L;
        toplist<B, P> tl;
        tl.init();
        scan_share<T>(tl, v, lo, len, threadIdx.x, DB_BLOCK, vec, om);
        tl.merge_group(32);
        if (lane == 0) {
#pragma unroll
            for (int i = 0; i < B; ++i) { sr[w][i] = tl.r[i]; sp[w][i] = tl.p[i]; }
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            for (int x = 1; x < DB_WARPS; ++x) {
#pragma unroll
                for (int i = 0; i < B; ++i) tl.insert(sr[x][i], sp[x][i]);
            }
            tl.write(dk, dp, s * (uint64_t)nd_full, (int)(len < (uint64_t)B ? len : (uint64_t)B));
        }
        __syncthreads();           /* sr/sp are reused by the next subrange */
    }
}

/* Paper 5.3: a warp stages 32 subranges of L <= 32 ordered keys in shared
 * memory, rows padded to L + 1 words (odd, so the 32 lanes reading column j
 * of their own rows hit 32 different banks), then lane r reduces row r. */
template <int T, int B, typename P>
__global__ void __launch_bounds__(DB_BLOCK, DB_SHARED_MIN_BLOCKS)
delegate_shared_kernel(const uint32_t *__restrict__ v, uint64_t n, int alpha, int vec,
                       uint32_t om, uint32_t *__restrict__ dk, P *__restrict__ dp)
{
    extern __shared__ uint32_t db_smem[];
    const uint32_t L = 1u << alpha, row = L + 1;
    const uint64_t nsub = (n + L - 1) >> alpha;
    const int nd_full = (int)(L < (uint32_t)B ? L : (uint32_t)B);
    const uint32_t lane = threadIdx.x & 31u;
    uint32_t *sm = db_smem + (threadIdx.x >> 5) * 32u * row;
    const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const uint64_t nwarps = ((uint64_t)gridDim.x * blockDim.x) >> 5;
    for (uint64_t sb = warp * 32; sb < nsub; sb += nwarps * 32) {
        const uint64_t lo = sb << alpha;
        const uint64_t cnt = n - lo < 32ull * L ? n - lo : 32ull * L;
        uint64_t e0 = 0;
        if (vec) {
            /* up to 32 * 32 / 4 = 8 vectors per lane, all issued before use */
            const uint4 *v4 = (const uint4 *)(v + lo);
            const uint32_t nvec = (uint32_t)(cnt / DB_VEC);
            uint4 x[32 / DB_VEC];
#pragma unroll
            for (int u = 0; u < 32 / DB_VEC; ++u)
                if (u * 32u + lane < nvec) x[u] = __ldcs(v4 + u * 32u + lane);
#pragma unroll
            for (int u = 0; u < 32 / DB_VEC; ++u) {
                const uint32_t i = u * 32u + lane;
                if (i < nvec) {
                    const uint32_t b[DB_VEC] = { x[u].x, x[u].y, x[u].z, x[u].w };
#pragma unroll
                    for (int c = 0; c < DB_VEC; ++c) {
                        const uint32_t e = i * DB_VEC + c;
                        sm[(e >> alpha) * row + (e & (L - 1))] = okey<T>(b[c], om);
                    }
                }
            }
            e0 = (uint64_t)nvec * DB_VEC;
        }
        for (uint32_t e = (uint32_t)e0 + lane; e < cnt; e += 32)
            sm[(e >> alpha) * row + (e & (L - 1))] = okey<T>(__ldcs(v + lo + e), om);
        __syncwarp();
        const uint64_t s = sb + lane;
        if (s < nsub) {
            const uint64_t slo = s << alpha;
            const uint32_t len = (uint32_t)(n - slo < L ? n - slo : L);
            toplist<B, P> tl;
            tl.init();
            for (uint32_t j = 0; j < len; ++j) tl.add_key(sm[lane * row + j], slo + j);
            tl.write(dk, dp, s * (uint64_t)nd_full, (int)(len < (uint32_t)B ? len : (uint32_t)B));
        }
        __syncwarp();              /* the rows are overwritten by the next batch */
    }
}

static uint64_t grid_for(uint64_t items, uint64_t per_block)
{
    const uint64_t g = (items + per_block - 1) / per_block;
    return g < DB_GRID_MAX ? (g ? g : 1) : DB_GRID_MAX;
}

template <int T, int B, typename P>
static drtopk_status launch(const delegate_args *a, cudaStream_t st)
{
    const uint32_t om = a->order == DRTOPK_SMALLEST ? DB_ALL_ONES : 0u;
    const int vec = a->alpha >= 2 && ((uintptr_t)a->v & (sizeof(uint4) - 1)) == 0;
    const uint64_t L = 1ull << a->alpha;
    const uint64_t nsub = (a->n + L - 1) >> a->alpha;
    P *dp = (P *)a->d_pos;
    if (a->shared_build && a->alpha <= DB_SHARED_MAX_ALPHA) {
        const size_t smem = (size_t)DB_WARPS * 32u * (L + 1) * sizeof(uint32_t);
        delegate_shared_kernel<T, B, P><<<(unsigned)grid_for(nsub, 32ull * DB_WARPS), DB_BLOCK, smem, st>>>(
            a->v, a->n, a->alpha, vec, om, a->d_keys, dp);
    } else if (a->alpha >= DB_BLOCK_SPLIT_ALPHA) {
        delegate_block_kernel<T, B, P><<<(unsigned)grid_for(nsub, 1), DB_BLOCK, 0, st>>>(
            a->v, a->n, a->alpha, vec, om, a->d_keys, dp);
    } else {
        /* lanes per subrange: about DB_UNITS_PER_LANE loads each (few shuffle
         * levels, many loads in flight), but at least one 32-byte sector per
         * warp load instruction and subrange, and at most the warp */
        const uint64_t units = vec ? L / DB_VEC : L;
        const uint64_t min_g = vec ? DB_SECTOR_VECS : DB_SECTOR_WORDS;
        uint64_t G = units / DB_UNITS_PER_LANE;
        if (G > 32) G = 32;
        if (G < min_g) G = units < min_g ? units : min_g;
        delegate_warp_kernel<T, B, P><<<(unsigned)grid_for(nsub, (uint64_t)DB_WARPS * (32u / G)), DB_BLOCK, 0, st>>>(
            a->v, a->n, a->alpha, (uint32_t)G, vec, om, a->d_keys, dp);
    }
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

template <int T, typename P>
static drtopk_status launch_beta(const delegate_args *a, cudaStream_t st)
{
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

template <typename P>
static drtopk_status launch_dtype(const delegate_args *a, cudaStream_t st)
{
    switch (a->dtype) {
    case DRTOPK_U32: return launch_beta<DRTOPK_U32, P>(a, st);
    case DRTOPK_I32: return launch_beta<DRTOPK_I32, P>(a, st);
    case DRTOPK_F32: return launch_beta<DRTOPK_F32, P>(a, st);
    default: return DRTOPK_ERR_INVALID_ARGUMENT;
    }
}

extern "C" drtopk_status delegate_build(const delegate_args *a, cudaStream_t st)
{
    static_assert(DRTOPK_BETA_MAX == 8, "launch_beta instantiates beta = 1..8");
    if (a == NULL || a->v == NULL || a->n == 0 || a->alpha < DRTOPK_ALPHA_MIN ||
        a->alpha > DRTOPK_ALPHA_MAX || a->d_keys == NULL || a->d_pos == NULL)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    return a->pos64 ? launch_dtype<uint64_t>(a, st) : launch_dtype<uint32_t>(a, st);
}
