/*
 * pipeline.cu -- the CUDA backend of drtopk_select (backend.h): the whole
 * Dr. Top-k pipeline of paper sections 4.1-4.3 and 5.1 on one stream,
 *   1. delegate vector construction  (delegate_build.cu, 4.1/4.3/5.3)
 *   2. first top-k over D             (topk_algo_lookup(plan.first_algo))
 *   3. concatenation under Rules 1-3  (concat_filter.cu, 4.2/4.3)
 *   4. second top-k over C            (topk_algo_lookup(plan.second_algo))
 * then the gather of values and positions (optionally sorted best first), or
 * the standalone algorithm on raw V without DRTOPK_DELEGATE.
 *
 * One call only enqueues: no cudaMalloc (every buffer is carved from the
 * caller's workspace), no host synchronisation and no host read of a device
 * value, so it can be captured in a CUDA graph.  Lengths found on the device
 * (selected delegates, scanned subranges, |C|) stay there; grids and buffers
 * are sized by the host-side bounds below.  Only stats != NULL records events
 * and synchronises at the end.
 *
 * Bounds (why the buffers are large enough):
 *  - first top-k capacity cap1 = k without skip-last-digit; with it
 *    min(2k, |D|): stopping one 8-bit digit early returns every delegate that
 *    shares the k-th one's upper 24 bits, a few more than k on any spread-out
 *    data; when more than cap1 would come out, the algorithm resolves the last
 *    digit after all (kernels.h), so cap1 bounds the selection either way;
 *  - a scanned subrange has all of its nd(s) delegates selected, so at most
 *    cap1 / nd_full of them are full subranges, plus the tail when its nd is
 *    smaller: scan_cap = min(nsub, cap1 / nd_full + [nd(tail) < nd_full]);
 *  - C holds at most 2^alpha elements per scanned subrange plus the copied
 *    delegates of the others (<= cap1), and never more than V:
 *    c_cap = min(n, scan_cap * 2^alpha + cap1).
 * When k >= |D| every delegate is selected with t = 0, so every subrange is
 * scanned whole and C = V: the second top-k then runs on V directly, and
 * neither D nor C is built.
 */
#include <string.h>
#include <cub/device/device_radix_sort.cuh>

#include "backend.h"
#include "kernels.h"
#include "pipeline_stages.h"

#define WS_ALIGN 256                /* every region: cudaMalloc's alignment     */
#define GATHER_BLOCK 256
#define GATHER_GRID_MAX 65535u      /* grid-stride beyond this                  */
#define KEY_BITS 32
#define STAGE_EVENTS 5              /* start, after each of the four stages     */
/* A stand-in base address for the size query: aligned and non-NULL, because
 * the algorithms' workspace queries validate their input pointers. */
#define SIZING_BASE ((char *)(uintptr_t)WS_ALIGN)

typedef enum { MODE_STANDALONE, MODE_RAW_SECOND, MODE_DELEGATE } run_mode;

/* Every region of the workspace; computed once on SIZING_BASE (the size
 * query) and again on the caller's aligned buffer. */
typedef struct {
    run_mode mode;
    int pos64;
    size_t psize;                   /* bytes per position                       */
    uint64_t L, nsub, nd_full, dlen, cap1, scan_cap, c_cap;
    const topk_algo_entry *first, *second;
    topk_input in1, in2;
    size_t ws_algo, ws_sort;
    /* regions */
    uint32_t *d_keys; void *d_pos;              /* D                          */
    uint32_t *k1_keys; void *k1_pos;            /* first top-k output         */
    uint64_t *count1, *count2;                  /* scalars                    */
    uint32_t *thr1, *thr2;
    char *zero_base; size_t zero_bytes;         /* scan count, |C|, c(s)      */
    uint64_t *scan_count, *c_count;
    uint32_t *counters;
    void *scan_list;
    uint32_t *c_keys; void *c_pos;              /* C                          */
    uint32_t *o_keys; void *o_pos;              /* second top-k output        */
    uint32_t *s_keys; void *s_pos;              /* sorted copy                */
    void *sort_tmp;
    void *algo_ws;
    size_t total;
} layout;

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Reserve `bytes` at the next aligned offset from base. */
static void *carve(char *base, size_t *off, size_t bytes)
{
    void *p;
    *off = (*off + WS_ALIGN - 1) & ~(size_t)(WS_ALIGN - 1);
    p = base + *off;
    *off += bytes;
    return p;
}

static drtopk_status sort_temp_bytes(const layout *l, uint64_t k, size_t *bytes)
{
    cudaError_t e;
    *bytes = 0;
    if (l->pos64)
        e = cub::DeviceRadixSort::SortPairsDescending(NULL, *bytes, (const uint32_t *)NULL, (uint32_t *)NULL,
                                                      (const uint64_t *)NULL, (uint64_t *)NULL, (int64_t)k,
                                                      0, KEY_BITS);
    else
        e = cub::DeviceRadixSort::SortPairsDescending(NULL, *bytes, (const uint32_t *)NULL, (uint32_t *)NULL,
                                                      (const uint32_t *)NULL, (uint32_t *)NULL, (int64_t)k,
                                                      0, KEY_BITS);
    return e == cudaSuccess ? DRTOPK_OK : DRTOPK_ERR_CUDA;
}

static void raw_input(topk_input *in, const drtopk_problem *p, int pos64)
{
    memset(in, 0, sizeof *in);
    in->src = TOPK_SRC_RAW;
    in->raw = p->values ? p->values : SIZING_BASE; /* the size query may pass no data */
    in->dtype = p->dtype;
    in->order = p->order;
    in->pos64 = pos64;
    in->n_max = p->n;
    in->k = p->k;
}

/* Plan every region for (p, plan) on `base`. */
static drtopk_status plan_layout(const drtopk_problem *p, const drtopk_plan *plan, char *base,
                                 layout *l)
{
    const uint64_t n = p->n, k = p->k;
    const int skip = (plan->flags & DRTOPK_SKIP_LAST_DIGIT) != 0;
    size_t off = 0, need;
    drtopk_status st;
    memset(l, 0, sizeof *l);
    l->pos64 = n > DRTOPK_POS32_MAX_N;
    l->psize = l->pos64 ? sizeof(uint64_t) : sizeof(uint32_t);
    l->second = topk_algo_lookup(plan->second_algo);
    if (l->second == NULL) return DRTOPK_ERR_UNSUPPORTED;
    l->mode = MODE_STANDALONE;
    if (plan->flags & DRTOPK_DELEGATE) {
        l->L = 1ull << plan->alpha;
        l->nsub = (n + l->L - 1) >> plan->alpha;
        l->nd_full = min_u64((uint64_t)plan->beta, l->L);
        {
            const uint64_t tail = n - ((l->nsub - 1) << plan->alpha);
            const uint64_t nd_tail = min_u64((uint64_t)plan->beta, tail);
            l->dlen = (l->nsub - 1) * l->nd_full + nd_tail;
            if (k >= l->dlen) {
                l->mode = MODE_RAW_SECOND;
            } else {
                l->mode = MODE_DELEGATE;
                l->first = topk_algo_lookup(plan->first_algo);
                if (l->first == NULL) return DRTOPK_ERR_UNSUPPORTED;
                l->cap1 = skip ? min_u64(DRTOPK_SKIP_CAPACITY_FACTOR * k, l->dlen) : k;
                l->scan_cap = min_u64(l->nsub, l->cap1 / l->nd_full + (nd_tail < l->nd_full ? 1 : 0));
                l->c_cap = min_u64(n, l->scan_cap * l->L + l->cap1);
            }
        }
    }
    if (l->mode == MODE_DELEGATE) {
        const size_t ps = l->psize;
        l->d_keys = (uint32_t *)carve(base, &off, l->dlen * sizeof(uint32_t));
        l->d_pos = carve(base, &off, l->dlen * ps);
        l->k1_keys = (uint32_t *)carve(base, &off, l->cap1 * sizeof(uint32_t));
        l->k1_pos = carve(base, &off, l->cap1 * ps);
        l->zero_bytes = 2 * sizeof(uint64_t) + ((l->nsub + 3) / 4) * sizeof(uint32_t);
        l->zero_base = (char *)carve(base, &off, l->zero_bytes);
        l->scan_count = (uint64_t *)l->zero_base;
        l->c_count = (uint64_t *)(l->zero_base + sizeof(uint64_t));
        l->counters = (uint32_t *)(l->zero_base + 2 * sizeof(uint64_t));
        l->scan_list = carve(base, &off, l->scan_cap * ps);
        l->c_keys = (uint32_t *)carve(base, &off, l->c_cap * sizeof(uint32_t));
        l->c_pos = carve(base, &off, l->c_cap * ps);

        memset(&l->in1, 0, sizeof l->in1);
        l->in1.src = TOPK_SRC_PAIRS;
        l->in1.keys = l->d_keys;
        l->in1.pos = l->d_pos;
        l->in1.pos64 = l->pos64;
        l->in1.n_max = l->dlen;
        l->in1.k = k;
        l->in1.skip_last_digit = skip;
        memset(&l->in2, 0, sizeof l->in2);
        l->in2.src = TOPK_SRC_PAIRS;
        l->in2.keys = l->c_keys;
        l->in2.pos = l->c_pos;
        l->in2.pos64 = l->pos64;
        l->in2.n_max = l->c_cap;
        l->in2.k = k;
    } else {
        raw_input(&l->in2, p, l->pos64);
    }
    {
        /* four scalars: two counts, two thresholds */
        char *sc = (char *)carve(base, &off, 2 * sizeof(uint64_t) + 2 * sizeof(uint32_t));
        l->count1 = (uint64_t *)sc;
        l->count2 = (uint64_t *)(sc + sizeof(uint64_t));
        l->thr1 = (uint32_t *)(sc + 2 * sizeof(uint64_t));
        l->thr2 = (uint32_t *)(sc + 2 * sizeof(uint64_t) + sizeof(uint32_t));
    }
    l->o_keys = (uint32_t *)carve(base, &off, k * sizeof(uint32_t));
    l->o_pos = carve(base, &off, k * l->psize);
    if (plan->flags & DRTOPK_SORTED) {
        l->s_keys = (uint32_t *)carve(base, &off, k * sizeof(uint32_t));
        l->s_pos = carve(base, &off, k * l->psize);
        if ((st = sort_temp_bytes(l, k, &l->ws_sort)) != DRTOPK_OK) return st;
        l->sort_tmp = carve(base, &off, l->ws_sort);
    }
    /* the two top-ks run one after the other: one region serves both */
    need = 0;
    if ((st = l->second->workspace(&l->in2, &need)) != DRTOPK_OK) return st;
    l->ws_algo = need;
    if (l->mode == MODE_DELEGATE) {
        if ((st = l->first->workspace(&l->in1, &need)) != DRTOPK_OK) return st;
        if (need > l->ws_algo) l->ws_algo = need;
    }
    l->algo_ws = carve(base, &off, l->ws_algo);
    l->total = off + WS_ALIGN;      /* slack to align any base address */
    return DRTOPK_OK;
}

extern "C" drtopk_status drtopk_cuda_workspace(const drtopk_problem *p, const drtopk_plan *plan, size_t *bytes)
{
    layout l;
    drtopk_status st;
    if (p == NULL || plan == NULL || bytes == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    if ((st = plan_layout(p, plan, SIZING_BASE, &l)) != DRTOPK_OK) return st;
    *bytes = l.total;
    return DRTOPK_OK;
}

template <typename P>
__global__ void gather_kernel(const uint32_t *__restrict__ v, const P *__restrict__ pos, uint64_t k,
                              uint32_t *__restrict__ out_v, uint64_t *__restrict__ out_i)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < k; i += stride) {
        const uint64_t q = (uint64_t)pos[i];
        out_v[i] = v[q];
        out_i[i] = q;
    }
}

static drtopk_status record(cudaEvent_t *ev, int i, cudaStream_t s)
{
    if (ev) DRTOPK_CUDA_TRY(cudaEventRecord(ev[i], s));
    return DRTOPK_OK;
}

/* Enqueue the whole selection on stream s. */
static drtopk_status enqueue(const drtopk_problem *p, const drtopk_plan *plan, const layout *l,
                             void *out_values, uint64_t *out_indices, cudaStream_t s, cudaEvent_t *ev,
                             int sm_count)
{
    drtopk_status st;
    const uint32_t *v = (const uint32_t *)p->values;
    const uint64_t k = p->k;
    topk_output o2;
    if ((st = record(ev, 0, s)) != DRTOPK_OK) return st;
    if (l->mode == MODE_DELEGATE) {
        delegate_args da;
        concat_args ca;
        topk_output o1;
        da.v = v;
        da.n = p->n;
        da.dtype = p->dtype;
        da.order = p->order;
        da.alpha = plan->alpha;
        da.beta = plan->beta;
        da.shared_build = (plan->flags & DRTOPK_SHARED_DELEGATE) != 0;
        da.pos64 = l->pos64;
        da.d_keys = l->d_keys;
        da.d_pos = l->d_pos;
        if ((st = delegate_build(&da, s)) != DRTOPK_OK) return st;
        if ((st = record(ev, 1, s)) != DRTOPK_OK) return st;

        o1.capacity = l->cap1;
        o1.keys = l->k1_keys;
        o1.pos = l->k1_pos;
        o1.d_count = l->count1;
        o1.d_threshold = l->thr1;
        if ((st = l->first->run(&l->in1, &o1, l->algo_ws, l->ws_algo, s)) != DRTOPK_OK) return st;
        if ((st = record(ev, 2, s)) != DRTOPK_OK) return st;

        ca.v = v;
        ca.n = p->n;
        ca.dtype = p->dtype;
        ca.order = p->order;
        ca.alpha = plan->alpha;
        ca.beta = plan->beta;
        ca.pos64 = l->pos64;
        ca.filter = (plan->flags & DRTOPK_FILTER) != 0;
        ca.sel_keys = l->k1_keys;
        ca.sel_pos = l->k1_pos;
        ca.d_sel_count = l->count1;
        ca.sel_cap = l->cap1;
        ca.d_dpos = l->d_pos;
        ca.d_threshold = l->thr1;
        ca.zero_base = l->zero_base;
        ca.zero_bytes = l->zero_bytes;
        ca.d_counters = l->counters;
        ca.d_scan_list = l->scan_list;
        ca.scan_cap = l->scan_cap;
        ca.d_scan_count = l->scan_count;
        ca.c_keys = l->c_keys;
        ca.c_pos = l->c_pos;
        ca.c_cap = l->c_cap;
        ca.d_c_count = l->c_count;
        ca.sm_count = sm_count;
        if ((st = concat_filter(&ca, s)) != DRTOPK_OK) return st;
        if ((st = record(ev, 3, s)) != DRTOPK_OK) return st;
    } else {
        if ((st = record(ev, 1, s)) != DRTOPK_OK) return st;
        if ((st = record(ev, 2, s)) != DRTOPK_OK) return st;
        if ((st = record(ev, 3, s)) != DRTOPK_OK) return st;
    }
    {
        topk_input in2 = l->in2;
        if (l->mode == MODE_DELEGATE) in2.d_n = l->c_count;
        o2.capacity = k;
        o2.keys = l->o_keys;
        o2.pos = l->o_pos;
        o2.d_count = l->count2;
        o2.d_threshold = l->thr2;
        if ((st = l->second->run(&in2, &o2, l->algo_ws, l->ws_algo, s)) != DRTOPK_OK) return st;
    }
    {
        const void *gpos = l->o_pos;
        const uint64_t blocks = (k + GATHER_BLOCK - 1) / GATHER_BLOCK;
        const unsigned grid = (unsigned)min_u64(blocks, GATHER_GRID_MAX);
        if (plan->flags & DRTOPK_SORTED) {
            size_t tb = l->ws_sort;
            cudaError_t e;
            if (l->pos64)
                e = cub::DeviceRadixSort::SortPairsDescending(l->sort_tmp, tb, l->o_keys, l->s_keys,
                                                              (const uint64_t *)l->o_pos, (uint64_t *)l->s_pos,
                                                              (int64_t)k, 0, KEY_BITS, s);
            else
                e = cub::DeviceRadixSort::SortPairsDescending(l->sort_tmp, tb, l->o_keys, l->s_keys,
                                                              (const uint32_t *)l->o_pos, (uint32_t *)l->s_pos,
                                                              (int64_t)k, 0, KEY_BITS, s);
            DRTOPK_CUDA_TRY(e);
            gpos = l->s_pos;
        }
        if (l->pos64)
            gather_kernel<uint64_t><<<grid, GATHER_BLOCK, 0, s>>>(v, (const uint64_t *)gpos, k,
                                                                (uint32_t *)out_values, out_indices);
        else
            gather_kernel<uint32_t><<<grid, GATHER_BLOCK, 0, s>>>(v, (const uint32_t *)gpos, k,
                                                                (uint32_t *)out_values, out_indices);
        DRTOPK_LAUNCH_CHECK();
    }
    return record(ev, 4, s);
}

static drtopk_status fill_stats(const drtopk_problem *p, const layout *l, cudaEvent_t *ev, cudaStream_t s,
                                drtopk_stats *stats)
{
    float ms[STAGE_EVENTS - 1], tot;
    uint64_t sel = 0, clen = 0, scanned = 0;
    DRTOPK_CUDA_TRY(cudaEventSynchronize(ev[STAGE_EVENTS - 1]));
    for (int i = 0; i < STAGE_EVENTS - 1; ++i) DRTOPK_CUDA_TRY(cudaEventElapsedTime(&ms[i], ev[i], ev[i + 1]));
    DRTOPK_CUDA_TRY(cudaEventElapsedTime(&tot, ev[0], ev[STAGE_EVENTS - 1]));
    memset(stats, 0, sizeof *stats);
    stats->ms_total = tot;
    stats->ms_second = ms[3];
    if (l->mode == MODE_DELEGATE) {
        DRTOPK_CUDA_TRY(cudaMemcpyAsync(&sel, l->count1, sizeof sel, cudaMemcpyDeviceToHost, s));
        DRTOPK_CUDA_TRY(cudaMemcpyAsync(&clen, l->c_count, sizeof clen, cudaMemcpyDeviceToHost, s));
        DRTOPK_CUDA_TRY(cudaMemcpyAsync(&scanned, l->scan_count, sizeof scanned, cudaMemcpyDeviceToHost, s));
        DRTOPK_CUDA_TRY(cudaStreamSynchronize(s));
        stats->ms_delegate = ms[0];
        stats->ms_first = ms[1];
        stats->ms_concat = ms[2];
        stats->delegate_len = l->dlen;
        stats->first_selected = sel;
        stats->concat_len = clen;
        stats->scanned_subranges = scanned;
    } else if (l->mode == MODE_RAW_SECOND) {
        /* k >= |D|: every delegate selected, t = 0, every subrange whole */
        stats->delegate_len = l->dlen;
        stats->first_selected = l->dlen;
        stats->concat_len = p->n;
        stats->scanned_subranges = l->nsub;
    }
    return DRTOPK_OK;
}

extern "C" drtopk_status drtopk_cuda_select(const drtopk_problem *p, const drtopk_plan *plan,
                                            void *ws, size_t ws_bytes, void *out_values,
                                            uint64_t *out_indices, void *stream, drtopk_stats *stats)
{
    layout l;
    drtopk_status st;
    cudaStream_t s = (cudaStream_t)stream;
    cudaEvent_t ev[STAGE_EVENTS];
    int dev, sms, nev = 0;
    char *base;
    if (p == NULL || plan == NULL || p->values == NULL || out_values == NULL || out_indices == NULL)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    if ((st = plan_layout(p, plan, SIZING_BASE, &l)) != DRTOPK_OK) return st;
    if (ws == NULL || ws_bytes < l.total) return DRTOPK_ERR_WORKSPACE_TOO_SMALL;
    base = (char *)(((uintptr_t)ws + WS_ALIGN - 1) & ~(uintptr_t)(WS_ALIGN - 1));
    if ((st = plan_layout(p, plan, base, &l)) != DRTOPK_OK) return st;
    DRTOPK_CUDA_TRY(cudaGetDevice(&dev));
    DRTOPK_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    if (stats) {
        for (; nev < STAGE_EVENTS; ++nev) {
            if (cudaEventCreate(&ev[nev]) != cudaSuccess) {
                st = DRTOPK_ERR_CUDA;
                break;
            }
        }
    }
    if (st == DRTOPK_OK) st = enqueue(p, plan, &l, out_values, out_indices, s, stats ? ev : NULL, sms);
    if (st == DRTOPK_OK && stats) st = fill_stats(p, &l, ev, s, stats);
    for (int i = 0; i < nev; ++i) cudaEventDestroy(ev[i]);
    return st;
}
