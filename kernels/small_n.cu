/*
 * small_n.cu -- the fused small-input top-k (DRTOPK_ALGO_FUSED; issue 15
 * item 2, beyond the paper: its pipeline, sections 4-5, takes six or more
 * launches of a few microseconds each, which dominate below ~2^24 keys).
 *
 * One memset of the call's control block and one launch of a persistent grid
 * that selects the k-th largest ordered key (keyorder.h) digit by digit from
 * the most significant, like the flag radix of section 5.1, but with the
 * passes separated by a grid-wide barrier instead of kernel boundaries:
 *   pass p = 0..2: every block histograms digit p (11, 11, 10 bits) of the
 *     keys whose decided digits match the prefix so far, adds its histogram
 *     to the global one, waits at the barrier, then (every block the same)
 *     picks the digit holding the kk-th largest remaining key;
 *   final pass: keys above the resolved key t take slots [0, k - kk), kk keys
 *     equal to t take [k - kk, k) (stream_tile.cuh's block-aggregated slots).
 * Exact for every ordered key (NaN above +inf, -0.0 = +0.0 come from
 * keyorder.h; ties at t are taken in arbitrary order, as drtopk.h allows).
 *
 * The barrier is a software one (an arrival counter and a generation word in
 * the control block): the grid is sized on the host to at most the blocks
 * resident at once (cudaOccupancyMaxActiveBlocksPerMultiprocessor through
 * drtopk_kernel_occupancy times the SMs), so every block is scheduled while
 * the others wait.  A plain launch, not cudaLaunchCooperativeKernel, so the
 * call is capturable in a CUDA graph on every CUDA version the library
 * builds with; no host round trip, every buffer in the caller's workspace.
 */
#include <string.h>
#include <cub/block/block_scan.cuh>
#include "kernels.h"
#include "keyorder.h"
#include "stream_tile.cuh"

#define SN_THREADS RADIX_THREADS        /* the streaming loops' block size      */
#define SN_DIGIT_BITS 11                /* 3 passes cover 32 bits (11, 11, 10):
                                           one read of V fewer than 8-bit digits */
#define SN_BINS (1u << SN_DIGIT_BITS)
#define SN_PASSES 3
#define SN_BINS_PER_THREAD (SN_BINS / SN_THREADS)
#define SN_KEY_BITS 32
#define SN_BARRIER_NAP_NS 64            /* back-off of a waiting block          */

/* Device state of one call, zeroed by the call's memset. */
struct small_n_ctl {
    unsigned long long hist[SN_PASSES][SN_BINS];
    unsigned long long gt, eq;          /* final pass slot counters             */
    unsigned int arrived, generation;   /* the grid barrier                     */
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

/* Grid-wide barrier for a co-resident grid.  The generation is read before
 * arriving: it can only advance once this block has arrived too. */
__device__ __forceinline__ void sn_grid_sync(small_n_ctl *c)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        volatile unsigned int *gen = &c->generation;
        const unsigned int g = *gen;
        __threadfence();
        if (atomicAdd(&c->arrived, 1u) == gridDim.x - 1) {
            atomicExch(&c->arrived, 0u);
            __threadfence();
            atomicAdd(&c->generation, 1u);
        } else {
            while (*gen == g) __nanosleep(SN_BARRIER_NAP_NS);
        }
        __threadfence();
    }
    __syncthreads();
}

template <int T>
__device__ __forceinline__ uint32_t sn_key(uint32_t bits, uint32_t flip)
{
    return drtopk_key_from_bits(bits, (drtopk_dtype)T, DRTOPK_LARGEST) ^ flip;
}

template <int T, typename PosT>
__global__ void __launch_bounds__(SN_THREADS)
    small_n_kernel(const uint32_t *__restrict__ v, uint64_t n, uint64_t k, uint32_t flip, small_n_ctl *c,
                   uint32_t *out_keys, PosT *out_pos, uint64_t *d_count, uint32_t *d_threshold)
{
    typedef cub::BlockScan<unsigned long long, SN_THREADS> scan_t;
    __shared__ typename scan_t::TempStorage scan_tmp;
    __shared__ unsigned int sh_hist[SN_BINS];
    __shared__ uint32_t sh_digit;
    __shared__ unsigned long long sh_kk;
    uint32_t prefix = 0, mask = 0;
    unsigned long long kk = k;          /* rank of t among the keys matching prefix */

    for (int p = 0; p < SN_PASSES; ++p) {
        const int shift = sn_shift(p);
        const uint32_t wmask = sn_width_mask(p);
        for (unsigned b = threadIdx.x; b < SN_BINS; b += SN_THREADS) sh_hist[b] = 0;
        __syncthreads();
        radix_for_each(v, n, [&](uint32_t bits, unsigned long long) {
            const uint32_t key = sn_key<T>(bits, flip);
            if ((key & mask) == prefix) atomicAdd(&sh_hist[(key >> shift) & wmask], 1u);
        });
        __syncthreads();
        for (unsigned b = threadIdx.x; b < SN_BINS; b += SN_THREADS)
            if (sh_hist[b]) atomicAdd(&c->hist[p][b], (unsigned long long)sh_hist[b]);
        sn_grid_sync(c);
        /* thread j holds bins from the top: SN_BINS - 1 - (j * per + i) */
        unsigned long long cnt[SN_BINS_PER_THREAD], sum = 0, above;
#pragma unroll
        for (int i = 0; i < SN_BINS_PER_THREAD; ++i) {
            cnt[i] = __ldcg(&c->hist[p][SN_BINS - 1 - (threadIdx.x * SN_BINS_PER_THREAD + i)]);
            sum += cnt[i];
        }
        scan_t(scan_tmp).ExclusiveSum(sum, above);
#pragma unroll
        for (int i = 0; i < SN_BINS_PER_THREAD; ++i) {
            if (above < kk && above + cnt[i] >= kk) {
                sh_digit = SN_BINS - 1 - (threadIdx.x * SN_BINS_PER_THREAD + i);
                sh_kk = kk - above;
            }
            above += cnt[i];
        }
        __syncthreads();
        prefix |= sh_digit << shift;
        mask |= wmask << shift;
        kk = sh_kk;
        __syncthreads();                /* sh_digit, sh_kk are rewritten next pass */
    }

    const uint32_t t = prefix;
    const unsigned long long above_t = k - kk;
    radix_for_each_tile(
        v, n, &c->gt, &c->eq,
        [&](uint32_t bits) -> uint32_t {
            const uint32_t key = sn_key<T>(bits, flip);
            return key > t ? 1u : key == t ? 2u : 0u;
        },
        [&](uint32_t cl, uint32_t bits, unsigned long long i, unsigned long long o) {
            if (cl == 2) {
                if (o >= kk) return;
                o += above_t;
            }
            out_keys[o] = sn_key<T>(bits, flip);
            out_pos[o] = (PosT)i;
        });
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *d_count = k;
        *d_threshold = t;
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

template <int T, typename PosT>
struct small_n_run {
    static drtopk_status run(const topk_input *in, const topk_output *out, void *ws, size_t ws_bytes, cudaStream_t s)
    {
        drtopk_status st = topk_check_run(in, out, ws, ws_bytes, small_n_bytes());
        if (st != DRTOPK_OK) return st;
        const drtopk_device_attrs *dev;
        int per_sm;
        if ((st = drtopk_device_current(NULL, &dev)) != DRTOPK_OK) return st;
        st = drtopk_kernel_occupancy((const void *)small_n_kernel<T, PosT>, SN_THREADS, 0, NULL, &per_sm);
        if (st != DRTOPK_OK) return st;
        if (per_sm < 1) {
            drtopk_error_set("fused: no block of %d threads fits an SM of %s", SN_THREADS, dev->name);
            return DRTOPK_ERR_UNSUPPORTED;
        }
        small_n_ctl *c = (small_n_ctl *)ws;
        DRTOPK_CUDA_TRY(cudaMemsetAsync(c, 0, sizeof *c, s));
        /* at most the resident blocks: the barrier needs them all scheduled */
        small_n_kernel<T, PosT><<<radix_grid(dev->sm_count, per_sm, in->n_max), SN_THREADS, 0, s>>>(
            (const uint32_t *)in->raw, in->n_max, in->k, in->order == DRTOPK_SMALLEST ? DRTOPK_ALL_ONES : 0u, c,
            out->keys, (PosT *)out->pos, out->d_count, out->d_threshold);
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
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
