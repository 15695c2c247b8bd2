/*
 * onepass.cu -- the one-read top-k on raw V (DRTOPK_ALGO_ONEPASS; issue 15
 * item 1, beyond the paper: its pipeline, sections 4-5, reads V about three
 * times at large k).  The steps, the decisions, why the answer is exact and
 * the bytes each stage moves are in src/lib/onepass_spec.h, which the CPU
 * reference (cpu_ref.c) follows too.  Here, on one stream:
 *   1. onepass_sample_kernel: the S strided sample keys (and zeroes the
 *      counters of step 3);
 *   2. radix_topk over the sample with k = r (radix_topk.cu's one-block path):
 *      its threshold is t, the r-th largest sampled key;
 *   3. onepass_pass_kernel: the one read of V, keys > t to the candidate
 *      buffer, positions of keys == t to the tie buffer, through
 *      stream_tile.cuh's block-aggregated slots (one atomic per class a tile);
 *   4. onepass_decide_kernel (one thread): SELECT, TAKE or FALLBACK, and the
 *      device flags that gate the next three steps;
 *   5. radix_topk over the candidates (length gt on the device), gated to run
 *      on SELECT only;
 *   6. onepass_take_kernel: returns unless TAKE, else writes the candidates
 *      and k - gt ties as the result;
 *   7. radix_topk over V, gated to run on FALLBACK only.
 * Every step is enqueued whatever the data; a gated step reads its flag and
 * returns at once.  No host round trip, every grid fixed on the host from n
 * and k, every buffer carved from the caller's workspace: the call is
 * capturable in a CUDA graph, like the pipeline.
 */
#include <string.h>
#include "kernels.h"
#include "keyorder.h"
#include "onepass_spec.h"
#include "stream_tile.cuh"

#define OP_BLOCK 256                /* threads of the sample and take kernels  */
#define OP_TAKE_GRID_MAX 1024u      /* the take kernel grid-strides past this  */
/* A stand-in base address for the size query: aligned and non-NULL, because
 * radix_topk's workspace query validates its input pointers. */
#define OP_SIZING_BASE ((char *)(uintptr_t)DRTOPK_WS_ALIGN)

/* Device state of one call; the pass counters are zeroed by step 1. */
struct onepass_ctl {
    unsigned long long gt, eq;      /* keys > t, keys == t (step 3)            */
    uint64_t sel_n;                 /* candidates the SELECT radix reads       */
    uint64_t s_count;               /* the sample select's count (unused)      */
    uint32_t t;                     /* the threshold (step 2)                  */
    int mode;                       /* drtopk_onepass_mode (step 4)            */
    int skip_select, skip_fallback; /* gates of steps 5 and 7                  */
};

/* The workspace, carved from an aligned base, and the three radix inputs. */
struct onepass_layout {
    uint64_t s, r, cap;
    onepass_ctl *ctl;
    uint32_t *s_keys, *s_pos, *so_keys, *so_pos;    /* sample and its top r    */
    uint32_t *c_keys;                               /* candidates              */
    void *c_pos, *tie_pos;
    void *radix_ws;
    size_t radix_bytes, total;
    topk_input sample_in, cand_in, raw_in;
};

static drtopk_status onepass_carve(const topk_input *in, char *base, onepass_layout *l)
{
    const uint64_t n = in->n_max, k = in->k;
    const size_t ps = in->pos64 ? sizeof(uint64_t) : sizeof(uint32_t);
    size_t off = 0, need = 0;
    drtopk_status st;
    l->s = drtopk_onepass_sample_len(n);
    l->r = drtopk_onepass_rank(n, k, l->s);
    l->cap = drtopk_onepass_capacity(n, k, l->s, l->r);
    l->ctl = (onepass_ctl *)drtopk_carve(base, &off, sizeof(onepass_ctl));
    l->s_keys = (uint32_t *)drtopk_carve(base, &off, l->s * sizeof(uint32_t));
    l->s_pos = (uint32_t *)drtopk_carve(base, &off, l->s * sizeof(uint32_t));
    l->so_keys = (uint32_t *)drtopk_carve(base, &off, l->r * sizeof(uint32_t));
    l->so_pos = (uint32_t *)drtopk_carve(base, &off, l->r * sizeof(uint32_t));
    l->c_keys = (uint32_t *)drtopk_carve(base, &off, l->cap * sizeof(uint32_t));
    l->c_pos = drtopk_carve(base, &off, l->cap * ps);
    l->tie_pos = drtopk_carve(base, &off, k * ps);

    memset(&l->sample_in, 0, sizeof l->sample_in);
    l->sample_in.src = TOPK_SRC_PAIRS;
    l->sample_in.keys = l->s_keys;
    l->sample_in.pos = l->s_pos;
    l->sample_in.n_max = l->s;
    l->sample_in.k = l->r;
    memset(&l->cand_in, 0, sizeof l->cand_in);
    l->cand_in.src = TOPK_SRC_PAIRS;
    l->cand_in.keys = l->c_keys;
    l->cand_in.pos = l->c_pos;
    l->cand_in.pos64 = in->pos64;
    l->cand_in.d_n = &l->ctl->sel_n;
    l->cand_in.n_max = l->cap;
    l->cand_in.k = k;
    l->cand_in.d_skip = &l->ctl->skip_select;
    l->raw_in = *in;
    l->raw_in.d_skip = &l->ctl->skip_fallback;

    /* the three selections run one after another: one region serves them */
    l->radix_bytes = 0;
    const topk_input *ins[] = { &l->sample_in, &l->cand_in, &l->raw_in };
    for (const topk_input *q : ins) {
        if ((st = radix_topk_workspace(q, &need)) != DRTOPK_OK) return st;
        if (need > l->radix_bytes) l->radix_bytes = need;
    }
    l->radix_ws = drtopk_carve(base, &off, l->radix_bytes);
    l->total = drtopk_align_up(off, DRTOPK_WS_ALIGN);
    return DRTOPK_OK;
}

/* Onepass reads raw V itself, whole (no device-side length). */
static drtopk_status onepass_check(const topk_input *in)
{
    const drtopk_status st = topk_check_input(in);
    if (st != DRTOPK_OK) return st;
    if (in->src != TOPK_SRC_RAW || in->d_n != NULL || in->d_skip != NULL) {
        drtopk_error_set("onepass runs on raw V of a known length only (standalone; not as a first or "
                         "second top-k of the pipeline)");
        return DRTOPK_ERR_UNSUPPORTED;
    }
    return DRTOPK_OK;
}

extern "C" drtopk_status onepass_topk_workspace(const topk_input *in, size_t *bytes)
{
    onepass_layout l;
    drtopk_status st = onepass_check(in);
    if (st != DRTOPK_OK) return st;
    if (bytes == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    if ((st = onepass_carve(in, OP_SIZING_BASE, &l)) != DRTOPK_OK) return st;
    *bytes = l.total;
    return DRTOPK_OK;
}

/* The ordered key of raw bits (as radix_topk.cu's radix_key on raw V). */
template <int T>
__device__ __forceinline__ uint32_t op_key(uint32_t bits, uint32_t flip)
{
    return drtopk_key_from_bits(bits, (drtopk_dtype)T, DRTOPK_LARGEST) ^ flip;
}

/* Step 1. */
template <int T>
__global__ void onepass_sample_kernel(const uint32_t *__restrict__ v, uint64_t n, uint64_t s, uint32_t flip,
                                      uint32_t *s_keys, uint32_t *s_pos, onepass_ctl *ctl)
{
    const uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j == 0) ctl->gt = ctl->eq = 0;
    if (j < s) {
        s_keys[j] = op_key<T>(__ldg(v + drtopk_onepass_sample_pos(n, s, j)), flip);
        s_pos[j] = (uint32_t)j;
    }
}

/* Step 3: the one read of V. */
template <int T, typename PosT>
__global__ void __launch_bounds__(RADIX_THREADS, RADIX_MIN_BLOCKS)
    onepass_pass_kernel(const uint32_t *__restrict__ v, uint64_t n, uint32_t flip, onepass_ctl *ctl, uint64_t cap,
                        uint64_t k, uint32_t *c_keys, PosT *c_pos, PosT *tie_pos)
{
    const uint32_t t = ctl->t;
    radix_for_each_tile(
        v, n, &ctl->gt, &ctl->eq,
        [&](uint32_t bits) -> uint32_t {
            const uint32_t key = op_key<T>(bits, flip);
            return key > t ? 1u : key == t ? 2u : 0u;
        },
        [&](uint32_t c, uint32_t bits, unsigned long long i, unsigned long long o) {
            if (c == 1) {
                if (o < cap) {
                    c_keys[o] = op_key<T>(bits, flip);
                    c_pos[o] = (PosT)i;
                }
            } else if (o < k) {
                tie_pos[o] = (PosT)i;
            }
        });
}

/* Step 4. */
__global__ void onepass_decide_kernel(onepass_ctl *ctl, uint64_t k, uint64_t cap)
{
    const drtopk_onepass_mode m = drtopk_onepass_decide(ctl->gt, ctl->eq, k, cap);
    ctl->mode = (int)m;
    ctl->sel_n = ctl->gt < cap ? ctl->gt : cap;
    ctl->skip_select = m != DRTOPK_ONEPASS_SELECT;
    ctl->skip_fallback = m != DRTOPK_ONEPASS_FALLBACK;
}

/* Step 6: the result is every candidate and k - gt ties (the k-th key is t). */
template <typename PosT>
__global__ void onepass_take_kernel(const onepass_ctl *ctl, uint64_t k, const uint32_t *c_keys, const PosT *c_pos,
                                    const PosT *tie_pos, uint32_t *out_keys, PosT *out_pos, uint64_t *d_count,
                                    uint32_t *d_threshold)
{
    if (ctl->mode != DRTOPK_ONEPASS_TAKE) return;
    const uint64_t gt = ctl->gt, stride = (uint64_t)gridDim.x * blockDim.x;
    const uint32_t t = ctl->t;
    const uint64_t first = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (uint64_t i = first; i < k; i += stride) {
        const bool cand = i < gt;
        out_keys[i] = cand ? c_keys[i] : t;
        out_pos[i] = cand ? c_pos[i] : tie_pos[i - gt];
    }
    if (first == 0) {
        *d_count = k;
        *d_threshold = t;
    }
}

/* Steps 1-7 for raw dtype T and position type PosT (drtopk_dispatch). */
template <int T, typename PosT>
struct onepass_run {
    static drtopk_status run(const topk_input *in, const topk_output *out, void *ws, size_t ws_bytes, cudaStream_t s)
    {
        onepass_layout l;
        drtopk_status st = onepass_carve(in, OP_SIZING_BASE, &l);
        if (st != DRTOPK_OK) return st;
        if ((st = topk_check_run(in, out, ws, ws_bytes, l.total)) != DRTOPK_OK) return st;
        if ((st = onepass_carve(in, (char *)ws, &l)) != DRTOPK_OK) return st;
        const uint32_t *v = (const uint32_t *)in->raw;
        const uint32_t flip = in->order == DRTOPK_SMALLEST ? DRTOPK_ALL_ONES : 0u;
        const uint64_t n = in->n_max, k = in->k;
        const drtopk_device_attrs *dev;
        int per_sm;
        if ((st = drtopk_device_current(NULL, &dev)) != DRTOPK_OK) return st;
        st = drtopk_kernel_occupancy((const void *)onepass_pass_kernel<T, PosT>, RADIX_THREADS, 0, NULL, &per_sm);
        if (st != DRTOPK_OK) return st;

        onepass_sample_kernel<T><<<(unsigned)((l.s + OP_BLOCK - 1) / OP_BLOCK), OP_BLOCK, 0, s>>>(
            v, n, l.s, flip, l.s_keys, l.s_pos, l.ctl);
        DRTOPK_LAUNCH_CHECK();
        const topk_output so = { l.r, l.so_keys, l.so_pos, &l.ctl->s_count, &l.ctl->t };
        if ((st = radix_topk(&l.sample_in, &so, l.radix_ws, l.radix_bytes, s)) != DRTOPK_OK) return st;
        onepass_pass_kernel<T, PosT><<<radix_grid(dev->sm_count, per_sm, n), RADIX_THREADS, 0, s>>>(
            v, n, flip, l.ctl, l.cap, k, l.c_keys, (PosT *)l.c_pos, (PosT *)l.tie_pos);
        DRTOPK_LAUNCH_CHECK();
        onepass_decide_kernel<<<1, 1, 0, s>>>(l.ctl, k, l.cap);
        DRTOPK_LAUNCH_CHECK();
        if ((st = radix_topk(&l.cand_in, out, l.radix_ws, l.radix_bytes, s)) != DRTOPK_OK) return st;
        const uint64_t take_blocks = (k + OP_BLOCK - 1) / OP_BLOCK;
        onepass_take_kernel<PosT><<<(unsigned)(take_blocks < OP_TAKE_GRID_MAX ? take_blocks : OP_TAKE_GRID_MAX),
                                    OP_BLOCK, 0, s>>>(l.ctl, k, l.c_keys, (const PosT *)l.c_pos,
                                                      (const PosT *)l.tie_pos, out->keys, (PosT *)out->pos,
                                                      out->d_count, out->d_threshold);
        DRTOPK_LAUNCH_CHECK();
        return radix_topk(&l.raw_in, out, l.radix_ws, l.radix_bytes, s);
    }
};

extern "C" drtopk_status onepass_topk(const topk_input *in, const topk_output *out, void *ws, size_t ws_bytes,
                                      cudaStream_t s)
{
    drtopk_status st = onepass_check(in);
    if (st == DRTOPK_OK) st = topk_check_io(in, out);
    if (st != DRTOPK_OK) return st;
    return drtopk_dispatch<onepass_run>(in->dtype, in->pos64, in, out, ws, ws_bytes, s);
}

extern "C" drtopk_status onepass_topk_stats(const topk_input *in, void *ws, size_t ws_bytes, cudaStream_t s,
                                            drtopk_stats *stats)
{
    onepass_layout l;
    onepass_ctl c;
    drtopk_status st = onepass_check(in);
    if (st != DRTOPK_OK) return st;
    if ((st = onepass_carve(in, (char *)ws, &l)) != DRTOPK_OK) return st;
    if (ws == NULL || ws_bytes < l.total) return DRTOPK_ERR_WORKSPACE_TOO_SMALL;
    DRTOPK_CUDA_TRY(cudaMemcpyAsync(&c, l.ctl, sizeof c, cudaMemcpyDeviceToHost, s));
    DRTOPK_CUDA_TRY(cudaStreamSynchronize(s));
    stats->delegate_len = l.s;
    stats->first_selected = l.r;
    stats->concat_len = c.gt + c.eq;
    stats->scanned_subranges = c.mode == DRTOPK_ONEPASS_FALLBACK;
    return DRTOPK_OK;
}
