/*
 * concat_filter.cu -- step 3 of Dr. Top-k: the concatenated vector C under
 * Rules 1-3 (paper 4.1-4.3, warp-centric concatenation of 5.1), each decided
 * by pipeline_spec.h.
 *
 *  1. count: c(s) = the number of selected delegates of subrange s (byte
 *     counters, four to a word: c(s) <= beta <= 8 never carries into the next
 *     byte);
 *  2. classify each selected delegate by drtopk_rule3_classify(c(s), nd(s)):
 *     copy -> it goes to C as is (Rule 3: the subrange is not scanned); scan
 *     -> the subrange is listed for scanning once, by its best delegate
 *     D[s * nd_full] (every delegate of a scanned subrange is selected), and
 *     a selected delegate of it that ties t goes to C as is (its scan copies
 *     only keys above t: drtopk_rule2_scan_copies);
 *     Rule 1 leaves out what is not listed at all.  In the Rule 1 and Rule 3
 *     mutants (pipeline_spec.h) a scanned subrange may miss selected
 *     delegates, so the subranges are listed by visiting each one instead;
 *  3. scan the listed subranges, copying every element with key > t (Rule 2;
 *     every element without filtering), with 16-byte loads where the subranges allow
 *     (a third less time than 4-byte loads at 2^24 of 2^30 on an H200).
 *
 * Every length (selected, listed, |C|) lives on the device: persistent grids
 * sized from the SM count loop until the device-side count.  Output slots come
 * from one global atomicAdd per block and tile (block-aggregated: a block scan
 * of per-thread counts), so a few thousand atomics serve millions of copies.
 */
#include <cub/block/block_scan.cuh>

#include "kernels.h"
#include "keyorder.h"
#include "pipeline_spec.h"
#include "pipeline_stages.h"

#define CF_BLOCK 256               /* threads per block                           */
#define CF_ITEMS 8                 /* loads per thread and tile, all in flight    */
#define CF_TILE (CF_BLOCK * CF_ITEMS)
#define CF_BLOCKS_PER_SM 8         /* 2048 resident threads per SM                */
#define CF_BYTE_BITS 8             /* counters: one byte per subrange              */
#define CF_BYTE_MASK ((1u << CF_BYTE_BITS) - 1u)
#define CF_BYTES_PER_WORD 4
#define CF_VEC_MIN_ALPHA 2         /* 16-byte loads need subranges of >= DRTOPK_VEC elements */
#define CF_PACK_SHIFT 16           /* two per-thread counts (<= CF_ITEMS * DRTOPK_VEC) in one word */
#define CF_PACK_MASK ((1u << CF_PACK_SHIFT) - 1u)
#define CF_COPY 1u                 /* classify: the delegate goes to C as it is    */
#define CF_LIST 2u                 /* classify: it lists its subrange for the scan */

typedef cub::BlockScan<uint32_t, CF_BLOCK> cf_scan;

__device__ __forceinline__ uint32_t counter_of(const uint32_t *cnt, uint64_t s)
{
    return (cnt[s / CF_BYTES_PER_WORD] >> (CF_BYTE_BITS * (s % CF_BYTES_PER_WORD))) & CF_BYTE_MASK;
}

/* What Rules 1-3 take from subrange s. */
__device__ __forceinline__ drtopk_subrange_class class_of(const concat_args &a, uint64_t s)
{
    return drtopk_rule3_classify(counter_of(a.d_counters, s), drtopk_nd(a.n, a.alpha, a.beta, s));
}

template <typename P>
__global__ void __launch_bounds__(CF_BLOCK)
count_kernel(const P *__restrict__ sel_pos, const uint64_t *__restrict__ d_sel_count, int alpha,
             uint32_t *__restrict__ cnt)
{
    const uint64_t m = *d_sel_count;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride) {
        const uint64_t s = (uint64_t)sel_pos[i] >> alpha;
        atomicAdd(cnt + s / CF_BYTES_PER_WORD, 1u << (CF_BYTE_BITS * (s % CF_BYTES_PER_WORD)));
    }
}

/* Block-aggregated reservation: returns this thread's first slot for `mine`
 * items (packed two counts per word); thread 0 takes the block's total from
 * the global counters with one atomicAdd each.  Every thread of the block
 * must call it. */
__device__ __forceinline__ void block_reserve(uint32_t mine_packed, uint64_t *g0, uint64_t *g1,
                                              cf_scan::TempStorage &tmp, uint64_t (&base)[2],
                                              uint32_t &prefix_packed)
{
    __shared__ uint64_t sbase[2];
    uint32_t total;
    cf_scan(tmp).ExclusiveSum(mine_packed, prefix_packed, total);
    if (threadIdx.x == 0) {
        const uint32_t t0 = total & CF_PACK_MASK, t1 = total >> CF_PACK_SHIFT;
        sbase[0] = t0 && g0 ? atomicAdd((unsigned long long *)g0, (unsigned long long)t0) : 0;
        sbase[1] = t1 && g1 ? atomicAdd((unsigned long long *)g1, (unsigned long long)t1) : 0;
    }
    __syncthreads();
    base[0] = sbase[0];
    base[1] = sbase[1];
    __syncthreads();               /* sbase and tmp are reused by the next tile */
}

/* Step 2: the selected delegates of the subranges Rule 3 copies go to C; the
 * subranges it scans are listed once, by their best delegate (unless a
 * mutant lists them with list_kernel). */
template <typename P>
__global__ void __launch_bounds__(CF_BLOCK)
classify_kernel(concat_args a)
{
    __shared__ cf_scan::TempStorage tmp;
    const P *sel_pos = (const P *)a.sel_pos;
    const P *dpos = (const P *)a.d_dpos;
    const uint64_t m = *a.d_sel_count;
    const uint64_t nd_full = drtopk_nd_full(a.alpha, a.beta);
    const uint64_t ntiles = (m + CF_TILE - 1) / CF_TILE;
    const uint32_t t = drtopk_rule2_threshold(*a.d_threshold, a.filter);
    for (uint64_t tile = blockIdx.x; tile < ntiles; tile += gridDim.x) {
        uint32_t kind[CF_ITEMS];   /* CF_COPY and/or CF_LIST */
        uint32_t mine = 0;
#pragma unroll
        for (int it = 0; it < CF_ITEMS; ++it) {
            const uint64_t i = tile * CF_TILE + (uint64_t)it * CF_BLOCK + threadIdx.x;
            kind[it] = 0;
            if (i < m) {
                const P pos = sel_pos[i];
                const uint64_t s = (uint64_t)pos >> a.alpha;
                const drtopk_subrange_class c = class_of(a, s);
                if (c == DRTOPK_SUBRANGE_COPY_SELECTED) {
                    kind[it] = CF_COPY;
                } else if (c == DRTOPK_SUBRANGE_SCAN) {
                    if (drtopk_rule2_tied_delegate(a.sel_keys[i], t, a.filter)) kind[it] |= CF_COPY;
                    if (DRTOPK_SCAN_NEEDS_ALL_DELEGATES && dpos[s * nd_full] == pos) kind[it] |= CF_LIST;
                }
            }
            mine += (kind[it] & CF_COPY ? 1u : 0u) + (kind[it] & CF_LIST ? 1u << CF_PACK_SHIFT : 0u);
        }
        uint64_t base[2];
        uint32_t prefix;
        block_reserve(mine, a.d_c_count, a.d_scan_count, tmp, base, prefix);
        uint64_t oc = base[0] + (prefix & CF_PACK_MASK), os = base[1] + (prefix >> CF_PACK_SHIFT);
#pragma unroll
        for (int it = 0; it < CF_ITEMS; ++it) {
            const uint64_t i = tile * CF_TILE + (uint64_t)it * CF_BLOCK + threadIdx.x;
            if (kind[it] & CF_COPY) {
                if (oc < a.c_cap) {
                    a.c_keys[oc] = a.sel_keys[i];
                    ((P *)a.c_pos)[oc] = sel_pos[i];
                }
                ++oc;
            }
            if (kind[it] & CF_LIST) {
                if (os < a.scan_cap) ((P *)a.d_scan_list)[os] = (P)((uint64_t)sel_pos[i] >> a.alpha);
                ++os;
            }
        }
    }
}

/* Step 2 of the Rule 1 and Rule 3 mutants (pipeline_spec.h): a scanned
 * subrange need not have its best delegate selected, so every subrange is
 * visited and listed when Rule 3 scans it. */
template <typename P>
__global__ void __launch_bounds__(CF_BLOCK)
list_kernel(concat_args a)
{
    __shared__ cf_scan::TempStorage tmp;
    const uint64_t nsub = drtopk_subrange_count(a.n, a.alpha);
    const uint64_t ntiles = (nsub + CF_BLOCK - 1) / CF_BLOCK;
    for (uint64_t tile = blockIdx.x; tile < ntiles; tile += gridDim.x) {
        const uint64_t s = tile * CF_BLOCK + threadIdx.x;
        const int scan = s < nsub && class_of(a, s) == DRTOPK_SUBRANGE_SCAN;
        uint64_t base[2];
        uint32_t prefix;
        block_reserve(scan ? 1u << CF_PACK_SHIFT : 0u, NULL, a.d_scan_count, tmp, base, prefix);
        const uint64_t os = base[1] + (prefix >> CF_PACK_SHIFT);
        if (scan && os < a.scan_cap) ((P *)a.d_scan_list)[os] = (P)s;
    }
}

/* Step 3: the listed subranges as one flat index space of m * 2^alpha
 * elements in units of W (1, or 4 with 16-byte loads; the tail subrange's
 * missing elements are skipped); each tile copies its keys > t with one
 * reservation. */
template <typename P, int W>
__global__ void __launch_bounds__(CF_BLOCK)
scan_kernel(concat_args a)
{
    __shared__ cf_scan::TempStorage tmp;
    const P *list = (const P *)a.d_scan_list;
    const uint64_t m = *a.d_scan_count;
    const int ushift = W == DRTOPK_VEC ? a.alpha - CF_VEC_MIN_ALPHA : a.alpha;  /* log2 units per subrange */
    const uint64_t total = m << ushift;
    const uint64_t ntiles = (total + CF_TILE - 1) / CF_TILE;
    const uint64_t umask = (1ull << ushift) - 1;
    const uint32_t t = drtopk_rule2_threshold(*a.d_threshold, a.filter);
    for (uint64_t tile = blockIdx.x; tile < ntiles; tile += gridDim.x) {
        uint32_t key[CF_ITEMS][W];
        uint64_t pos[CF_ITEMS];            /* of the unit's first element */
        uint32_t take = 0, mine = 0;
#pragma unroll
        for (int it = 0; it < CF_ITEMS; ++it) {
            const uint64_t f = tile * CF_TILE + (uint64_t)it * CF_BLOCK + threadIdx.x;
            pos[it] = a.n;
            if (f < total) pos[it] = ((uint64_t)list[f >> ushift] << a.alpha) + (f & umask) * W;
        }
#pragma unroll
        for (int it = 0; it < CF_ITEMS; ++it) {
            if constexpr (W == DRTOPK_VEC) {
                if (pos[it] + W <= a.n) {
                    const uint4 x = __ldcs((const uint4 *)(a.v + pos[it]));
                    key[it][0] = x.x;
                    key[it][1] = x.y;
                    key[it][2] = x.z;
                    key[it][3] = x.w;
                } else {
                    /* past n, or the tail subrange's last partial vector */
#pragma unroll
                    for (int c = 0; c < W; ++c) key[it][c] = pos[it] + c < a.n ? __ldcs(a.v + pos[it] + c) : 0u;
                }
            } else {
                key[it][0] = pos[it] < a.n ? __ldcs(a.v + pos[it]) : 0u;
            }
        }
#pragma unroll
        for (int it = 0; it < CF_ITEMS; ++it) {
#pragma unroll
            for (int c = 0; c < W; ++c) {
                const uint64_t q = pos[it] + c;
                key[it][c] = drtopk_key_from_bits(key[it][c], a.dtype, a.order);
                if (q < a.n && drtopk_rule2_scan_copies(key[it][c], t, a.filter)) { take |= 1u << (it * W + c); ++mine; }
            }
        }
        uint64_t base[2];
        uint32_t prefix;
        block_reserve(mine, a.d_c_count, NULL, tmp, base, prefix);
        uint64_t o = base[0] + prefix;
#pragma unroll
        for (int it = 0; it < CF_ITEMS; ++it) {
#pragma unroll
            for (int c = 0; c < W; ++c) {
                if (take & (1u << (it * W + c))) {
                    if (o < a.c_cap) {
                        a.c_keys[o] = key[it][c];
                        ((P *)a.c_pos)[o] = (P)(pos[it] + c);
                    }
                    ++o;
                }
            }
        }
    }
}

template <typename P>
static drtopk_status run(const concat_args *a, cudaStream_t st)
{
    const unsigned grid = (unsigned)(a->sm_count > 0 ? a->sm_count : 1) * CF_BLOCKS_PER_SM;
    DRTOPK_CUDA_TRY(cudaMemsetAsync(a->zero_base, 0, a->zero_bytes, st));
    count_kernel<P><<<grid, CF_BLOCK, 0, st>>>((const P *)a->sel_pos, a->d_sel_count, a->alpha,
                                               a->d_counters);
    DRTOPK_LAUNCH_CHECK();
    classify_kernel<P><<<grid, CF_BLOCK, 0, st>>>(*a);
    DRTOPK_LAUNCH_CHECK();
    if constexpr (!DRTOPK_SCAN_NEEDS_ALL_DELEGATES) {
        list_kernel<P><<<grid, CF_BLOCK, 0, st>>>(*a);
        DRTOPK_LAUNCH_CHECK();
    }
    if (a->alpha >= CF_VEC_MIN_ALPHA && ((uintptr_t)a->v & (DRTOPK_VEC_BYTES - 1)) == 0)
        scan_kernel<P, DRTOPK_VEC><<<grid, CF_BLOCK, 0, st>>>(*a);
    else
        scan_kernel<P, 1><<<grid, CF_BLOCK, 0, st>>>(*a);
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

extern "C" drtopk_status concat_filter(const concat_args *a, cudaStream_t st)
{
    if (a == NULL || a->v == NULL || a->beta < 1 || a->beta > DRTOPK_BETA_MAX) return DRTOPK_ERR_INVALID_ARGUMENT;
    return a->pos64 ? run<uint64_t>(a, st) : run<uint32_t>(a, st);
}
