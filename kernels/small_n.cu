/*
 * small_n.cu -- the fused small-input top-k (DRTOPK_ALGO_FUSED; issue 15
 * item 2, beyond the paper: its pipeline, sections 4-5, takes six or more
 * launches of a few microseconds each, which dominate below ~2^24 keys).
 *
 * ONE launch per call, nothing else: no memset (the control block is zeroed
 * by the kernel itself), no gather (standalone on 32-bit V the kernel writes
 * the caller's values and 64-bit indices: small_n_topk_final), no host
 * round trip.  The k-th largest ordered key (keyorder.h) is selected digit by
 * digit from the most significant, like the flag radix of section 5.1:
 *   pass p = 0..2: every block histograms digit p (11, 11, 10 bits) of its
 *     keys whose decided digits match the prefix so far; every block then
 *     picks, from the grid's histogram, the digit holding the kk-th largest
 *     remaining key (all blocks the same).  A pass whose chosen digit holds
 *     exactly the kk keys still needed ends the selection early (every key
 *     matching the prefix is taken);
 *   final: each block counts its keys above the prefix and equal to it and
 *     takes one range of output slots per class (one global atomic each; one
 *     block knows both counts from the passes: k - kk and the tie count), then
 *     writes them coalesced: each warp takes consecutive slots of the block's
 *     ranges for its lanes (one shared atomic per warp and class, ballots).
 * Pass 0 histograms the keys as they are read from global memory (and stored
 * in shared memory when the chunk fits): one read of V, no separate load.
 * Exact for every ordered key (NaN above +inf, -0.0 = +0.0 come from
 * keyorder.h; ties at the k-th key are taken in arbitrary order, as drtopk.h
 * allows).
 *
 * Each block owns one contiguous chunk of V.  Where the chunk fits the
 * block's shared memory (the opt-in limit, ~227 KB on sm_90: up to ~2^22.7
 * keys over 132 SMs) it is read from global memory once and every pass runs
 * on shared memory; otherwise each pass reads the chunk again.  One block
 * (n <= SN_BLOCK_KEYS) needs no grid barrier at all; more blocks are launched
 * cooperatively (cudaLaunchAttributeCooperative: the driver guarantees that
 * they are co-resident, or refuses the launch, and provides the grid
 * barrier), with a grid barrier after each pass's histogram and one more on
 * the first pass (block 0 zeroes the control block meanwhile).  No deadlock:
 * the grid is at most the co-resident count (the occupancy at the largest
 * chunk a block may hold, times the SMs: one block per SM on sm_90); every
 * block, empty chunk or not, runs every pass and reaches every barrier; the
 * early end of the selection is decided from the grid's histogram, the same
 * in every block.  A GPU without cooperative launch runs one block over all
 * of V (exact, slower).  Cooperative launches are captured into CUDA graphs
 * as cooperative kernel nodes (CUDA 11.1+: cudaLaunchAttributeCooperative is
 * "valid for graph nodes, launches", driver_types.h; tests/gpu/test_capture).
 */
#include <string.h>
#include <cooperative_groups.h>
#include <cub/block/block_scan.cuh>
#include "kernels.h"
#include "keyorder.h"

#define SN_THREADS 1024                 /* one block per SM, all its threads    */
#define SN_DIGIT_BITS 11                /* 3 passes cover 32 bits (11, 11, 10)  */
#define SN_BINS (1u << SN_DIGIT_BITS)
#define SN_PASSES 3
#define SN_BINS_PER_THREAD (SN_BINS / SN_THREADS)
#define SN_KEY_BITS 32
#define SN_UNROLL 4                     /* loads in flight per thread (8 spills
                                           under the 64-register cap)          */
#define SN_MAX_N (1ull << 32)           /* 32-bit counts: a small input is far below */
#define SN_BLOCK_KEYS 16384             /* one block up to here: 16 keys per
                                           thread cost less than the cooperative
                                           launch and its grid barriers        */
#define SN_GRID_KEYS 2048               /* keys per block of a grid (2 per
                                           thread) until every co-resident block
                                           runs: a block's passes over its chunk,
                                           not the barriers, set the grid's time
                                           (issue 15: 24 us at 16 keys a thread) */
#define SN_WARP 32
#define SN_FULL_MASK 0xffffffffu
#define SN_STATIC_SMEM_MAX 16384        /* bounds the kernel's static shared
                                           memory (8 KB histogram, the scan's
                                           storage, scalars); the rest of the
                                           opt-in limit holds the chunk        */

namespace cg = cooperative_groups;

/* Device state of one multi-block call, zeroed by block 0 at its start. */
struct small_n_ctl {
    unsigned int hist[SN_PASSES][SN_BINS];
    unsigned long long gt, eq;          /* final slot ranges taken per class    */
};

/* One call's arguments.  Output: out_vals/out_idx (the caller's values and
 * 64-bit indices) when out_vals != NULL, else ordered keys and positions. */
template <typename PosT>
struct small_n_args {
    const uint32_t *v;
    unsigned long long n, k, chunk;     /* chunk: keys per block                */
    int resident;                       /* chunks held in shared memory         */
    uint32_t flip;                      /* all ones for DRTOPK_SMALLEST         */
    small_n_ctl *c;
    uint32_t *out_vals;
    uint64_t *out_idx;
    uint32_t *out_keys;
    PosT *out_pos;
    uint64_t *d_count;
    uint32_t *d_threshold;
};

/* Digit p's shift and width: 21/11, 10/11, 0/10. */
__device__ __forceinline__ int sn_shift(int p)
{
    const int s = SN_KEY_BITS - (p + 1) * SN_DIGIT_BITS;
    return s > 0 ? s : 0;
}

__device__ __forceinline__ uint32_t sn_width_mask(int p)
{
    return (1u << (SN_KEY_BITS - p * SN_DIGIT_BITS - sn_shift(p))) - 1u;
}

template <int T>
__device__ __forceinline__ uint32_t sn_key(uint32_t bits, uint32_t flip)
{
    return drtopk_key_from_bits(bits, (drtopk_dtype)T, DRTOPK_LARGEST) ^ flip;
}

/* Calls f(bits, i, in) for this thread's elements i of the block's chunk
 * (the same elements in the same order on every call), SN_UNROLL loads in
 * flight, from shared memory when resident; every thread of the block calls
 * f the same number of times (warp collectives may run in f), with in false
 * past the chunk's end (bits then 0). */
template <typename F>
__device__ __forceinline__ void sn_for_each(const uint32_t *tile, const uint32_t *src, bool resident, uint32_t len,
                                            F f)
{
    for (uint32_t base = 0; base < len; base += blockDim.x * SN_UNROLL) {
        uint32_t b[SN_UNROLL];
#pragma unroll
        for (int j = 0; j < SN_UNROLL; ++j) {
            const uint32_t i = base + j * blockDim.x + threadIdx.x;
            b[j] = i >= len ? 0u : resident ? tile[i] : __ldg(src + i);
        }
#pragma unroll
        for (int j = 0; j < SN_UNROLL; ++j) {
            const uint32_t i = base + j * blockDim.x + threadIdx.x;
            f(b[j], i, i < len);
        }
    }
}

template <int T, typename PosT>
__global__ void __launch_bounds__(SN_THREADS) small_n_kernel(small_n_args<PosT> a)
{
    typedef cub::BlockScan<uint32_t, SN_THREADS> scan_t;
    extern __shared__ uint32_t tile[];
    __shared__ typename scan_t::TempStorage scan_tmp;
    __shared__ unsigned int sh_hist[SN_BINS];
    __shared__ uint32_t sh_digit;
    __shared__ uint32_t sh_kk, sh_cand;
    __shared__ unsigned long long sh_base_gt, sh_base_eq;
    __shared__ uint32_t sh_cur_gt, sh_cur_eq;   /* the block's slots taken per class */
    const bool multi = gridDim.x > 1;
    const unsigned long long lo = (unsigned long long)blockIdx.x * a.chunk;
    const uint32_t len = (uint32_t)(lo < a.n ? (a.n - lo < a.chunk ? a.n - lo : a.chunk) : 0);
    const uint32_t *src = a.v + lo;
    const bool res = a.resident != 0;

    if (multi && blockIdx.x == 0) {     /* visible to all after pass 0's first barrier */
        unsigned int *w = &a.c->hist[0][0];
        for (unsigned i = threadIdx.x; i < SN_PASSES * SN_BINS; i += blockDim.x) w[i] = 0;
        if (threadIdx.x == 0) a.c->gt = a.c->eq = 0;
    }
    uint32_t prefix = 0, mask = 0;
    uint32_t kk = (uint32_t)a.k;        /* rank of the k-th key among those matching prefix */
    for (int p = 0; p < SN_PASSES; ++p) {
        const int shift = sn_shift(p);
        const uint32_t wmask = sn_width_mask(p);
        for (unsigned b = threadIdx.x; b < SN_BINS; b += blockDim.x) sh_hist[b] = 0;
        __syncthreads();
        /* pass 0 reads V (keeping it in shared memory when resident); later
         * passes read the tile, stored before pass 0's closing barrier */
        sn_for_each(tile, src, res && p > 0, len, [&](uint32_t bits, uint32_t i, bool in) {
            if (!in) return;
            if (res && p == 0) tile[i] = bits;
            const uint32_t key = sn_key<T>(bits, a.flip);
            if ((key & mask) == prefix) atomicAdd(&sh_hist[(key >> shift) & wmask], 1u);
        });
        __syncthreads();
        if (multi) {
            cg::grid_group grid = cg::this_grid();
            if (p == 0) grid.sync();    /* block 0 zeroed the control block */
            for (unsigned b = threadIdx.x; b < SN_BINS; b += blockDim.x)
                if (sh_hist[b]) atomicAdd(&a.c->hist[p][b], sh_hist[b]);
            grid.sync();
            for (unsigned b = threadIdx.x; b < SN_BINS; b += blockDim.x) sh_hist[b] = __ldcg(&a.c->hist[p][b]);
            __syncthreads();
        }
        /* thread j holds bins from the top: SN_BINS - 1 - (j * per + i) */
        uint32_t cnt[SN_BINS_PER_THREAD], sum = 0, above;
#pragma unroll
        for (int i = 0; i < SN_BINS_PER_THREAD; ++i) {
            cnt[i] = sh_hist[SN_BINS - 1 - (threadIdx.x * SN_BINS_PER_THREAD + i)];
            sum += cnt[i];
        }
        scan_t(scan_tmp).ExclusiveSum(sum, above);
#pragma unroll
        for (int i = 0; i < SN_BINS_PER_THREAD; ++i) {
            if (above < kk && above + cnt[i] >= kk) {
                sh_digit = SN_BINS - 1 - (threadIdx.x * SN_BINS_PER_THREAD + i);
                sh_kk = kk - above;
                sh_cand = cnt[i];
            }
            above += cnt[i];
        }
        __syncthreads();                /* sh_hist is cleared, scan_tmp reused after this */
        prefix |= sh_digit << shift;
        mask |= wmask << shift;
        kk = sh_kk;
        if (sh_cand == kk) break;       /* every key matching the prefix is taken */
    }

    /* final: the block's counts above / equal to the prefix (one block: k - kk
     * and the tie count, known from the passes), one range per class */
    if (multi) {
        uint32_t n_gt = 0, n_eq = 0;
        if (threadIdx.x == 0) sh_cur_gt = sh_cur_eq = 0;
        sn_for_each(tile, src, res, len, [&](uint32_t bits, uint32_t, bool in) {
            const uint32_t m = sn_key<T>(bits, a.flip) & mask;
            n_gt += in && m > prefix;
            n_eq += in && m == prefix;
        });
        n_gt = __reduce_add_sync(SN_FULL_MASK, n_gt);
        n_eq = __reduce_add_sync(SN_FULL_MASK, n_eq);
        __syncthreads();                /* the cursors are zero */
        if (threadIdx.x % SN_WARP == 0) {
            if (n_gt) atomicAdd(&sh_cur_gt, n_gt);
            if (n_eq) atomicAdd(&sh_cur_eq, n_eq);
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            sh_base_gt = sh_cur_gt ? atomicAdd(&a.c->gt, (unsigned long long)sh_cur_gt) : 0;
            sh_base_eq = sh_cur_eq ? atomicAdd(&a.c->eq, (unsigned long long)sh_cur_eq) : 0;
            sh_cur_gt = sh_cur_eq = 0;
        }
    } else if (threadIdx.x == 0) {
        sh_base_gt = sh_base_eq = 0;
        sh_cur_gt = sh_cur_eq = 0;
    }
    __syncthreads();
    /* each warp's selected lanes take consecutive slots (coalesced stores) */
    const unsigned long long tie_base = a.k - kk;
    const uint32_t lane_below = (1u << (threadIdx.x % SN_WARP)) - 1u;
    sn_for_each(tile, src, res, len, [&](uint32_t bits, uint32_t i, bool in) {
        const uint32_t key = sn_key<T>(bits, a.flip), m = key & mask;
        const bool gt = in && m > prefix, eq = in && m == prefix;
        const uint32_t bgt = __ballot_sync(SN_FULL_MASK, gt), beq = __ballot_sync(SN_FULL_MASK, eq);
        if (!(bgt | beq)) return;       /* warp-uniform */
        uint32_t w_gt = 0, w_eq = 0;
        if (threadIdx.x % SN_WARP == 0) {
            if (bgt) w_gt = atomicAdd(&sh_cur_gt, (uint32_t)__popc(bgt));
            if (beq) w_eq = atomicAdd(&sh_cur_eq, (uint32_t)__popc(beq));
        }
        w_gt = __shfl_sync(SN_FULL_MASK, w_gt, 0);
        w_eq = __shfl_sync(SN_FULL_MASK, w_eq, 0);
        unsigned long long o;
        if (gt) {
            o = sh_base_gt + w_gt + __popc(bgt & lane_below);
        } else if (eq) {
            const unsigned long long e = sh_base_eq + w_eq + __popc(beq & lane_below);
            if (e >= kk) return;
            o = tie_base + e;
        } else {
            return;
        }
        if (a.out_vals) {
            a.out_vals[o] = bits;
            a.out_idx[o] = lo + i;
        } else {
            a.out_keys[o] = key;
            a.out_pos[o] = (PosT)(lo + i);
        }
    });
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *a.d_count = a.k;
        *a.d_threshold = prefix;
    }
}

/* Raw V of a known length only: the grid reads it whole. */
static drtopk_status small_n_check(const topk_input *in)
{
    const drtopk_status st = topk_check_input(in);
    if (st != DRTOPK_OK) return st;
    if (in->src != TOPK_SRC_RAW || in->d_n != NULL || in->d_skip != NULL) {
        drtopk_error_set("fused (the small-input top-k) runs standalone on raw V of a known length only, "
                         "not as a first or second top-k of the pipeline");
        return DRTOPK_ERR_UNSUPPORTED;
    }
    if (in->n_max >= SN_MAX_N) {
        drtopk_error_set("fused (the small-input top-k) takes fewer than 2^32 keys, not %llu: use radix or "
                         "dr-radix", (unsigned long long)in->n_max);
        return DRTOPK_ERR_UNSUPPORTED;
    }
    return DRTOPK_OK;
}

static size_t small_n_bytes(void) { return drtopk_align_up(sizeof(small_n_ctl), DRTOPK_WS_ALIGN); }

extern "C" drtopk_status small_n_topk_workspace(const topk_input *in, size_t *bytes)
{
    const drtopk_status st = small_n_check(in);
    if (st != DRTOPK_OK) return st;
    if (bytes == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    *bytes = small_n_bytes();
    return DRTOPK_OK;
}

/* One launch: the grid (one block up to SN_BLOCK_KEYS keys, else one per
 * SN_GRID_KEYS keys up to the co-resident count), each block's chunk, and whether the chunks fit shared
 * memory.  The kernel may take all the opt-in shared memory (set once per
 * device); a launch asks for its chunk only. */
template <int T, typename PosT>
static drtopk_status small_n_launch(const topk_input *in, small_n_args<PosT> a, void *ws, cudaStream_t s)
{
    const drtopk_device_attrs *dev;
    drtopk_status st;
    int dev_id, coop_ok = 0, per_sm = 0;
    const void *kernel = (const void *)small_n_kernel<T, PosT>;
    if ((st = drtopk_device_current(&dev_id, &dev)) != DRTOPK_OK) return st;
    const size_t room = dev->smem_optin > SN_STATIC_SMEM_MAX ? dev->smem_optin - SN_STATIC_SMEM_MAX : 0;
    if ((st = drtopk_kernel_dynamic_smem(kernel, room)) != DRTOPK_OK) return st;
    DRTOPK_CUDA_TRY(cudaDeviceGetAttribute(&coop_ok, cudaDevAttrCooperativeLaunch, dev_id));
    /* co-resident blocks at `room` bytes, the most a launch asks: a smaller
     * chunk only raises the occupancy, so this many are co-resident always */
    if ((st = drtopk_kernel_occupancy(kernel, SN_THREADS, room, NULL, &per_sm)) != DRTOPK_OK) return st;
    const unsigned long long n = in->n_max, want = n <= SN_BLOCK_KEYS ? 1 : (n + SN_GRID_KEYS - 1) / SN_GRID_KEYS;
    const unsigned long long resident_max = coop_ok ? (unsigned long long)per_sm * dev->sm_count : 1;
    const unsigned grid = (unsigned)(want < resident_max ? want : resident_max);
    a.v = (const uint32_t *)in->raw;
    a.n = n;
    a.k = in->k;
    a.chunk = (n + grid - 1) / grid;
    a.resident = a.chunk * sizeof(uint32_t) <= room;
    a.flip = in->order == DRTOPK_SMALLEST ? DRTOPK_ALL_ONES : 0u;
    a.c = (small_n_ctl *)ws;
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute coop = {};
    coop.id = cudaLaunchAttributeCooperative;
    coop.val.cooperative = 1;
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(SN_THREADS);
    cfg.dynamicSmemBytes = a.resident ? a.chunk * sizeof(uint32_t) : 0;
    cfg.stream = s;
    cfg.attrs = &coop;
    cfg.numAttrs = grid > 1;            /* one block: no grid barrier */
    DRTOPK_CUDA_TRY(cudaLaunchKernelEx(&cfg, small_n_kernel<T, PosT>, a));
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

/* Ordered keys and positions into out (the pipeline gathers them). */
template <int T, typename PosT>
struct small_n_run {
    static drtopk_status run(const topk_input *in, const topk_output *out, void *ws, size_t ws_bytes, cudaStream_t s)
    {
        const drtopk_status st = topk_check_run(in, out, ws, ws_bytes, small_n_bytes());
        if (st != DRTOPK_OK) return st;
        small_n_args<PosT> a;
        memset(&a, 0, sizeof a);
        a.out_keys = out->keys;
        a.out_pos = (PosT *)out->pos;
        a.d_count = out->d_count;
        a.d_threshold = out->d_threshold;
        return small_n_launch<T, PosT>(in, a, ws, s);
    }
};

/* The caller's values and 64-bit indices directly (no gather). */
template <int T, typename PosT>
struct small_n_run_final {
    static drtopk_status run(const topk_input *in, const topk_output *out, void *values, uint64_t *indices,
                             void *ws, size_t ws_bytes, cudaStream_t s)
    {
        const drtopk_status st = topk_check_run(in, out, ws, ws_bytes, small_n_bytes());
        if (st != DRTOPK_OK) return st;
        small_n_args<PosT> a;
        memset(&a, 0, sizeof a);
        a.out_vals = (uint32_t *)values;
        a.out_idx = indices;
        a.d_count = out->d_count;
        a.d_threshold = out->d_threshold;
        return small_n_launch<T, PosT>(in, a, ws, s);
    }
};

extern "C" drtopk_status small_n_topk(const topk_input *in, const topk_output *out, void *ws, size_t ws_bytes,
                                      cudaStream_t s)
{
    drtopk_status st = small_n_check(in);
    if (st == DRTOPK_OK) st = topk_check_io(in, out);
    if (st != DRTOPK_OK) return st;
    return drtopk_dispatch<small_n_run>(in->dtype, in->pos64, in, out, ws, ws_bytes, s);
}

extern "C" drtopk_status small_n_topk_final(const topk_input *in, const topk_output *out, void *values,
                                            uint64_t *indices, void *ws, size_t ws_bytes, cudaStream_t s)
{
    drtopk_status st = small_n_check(in);
    if (st == DRTOPK_OK) st = topk_check_io(in, out);
    if (st != DRTOPK_OK) return st;
    if (values == NULL || indices == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    return drtopk_dispatch<small_n_run_final>(in->dtype, in->pos64, in, out, values, indices, ws, ws_bytes, s);
}
