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
 * are sized by host-side bounds.  Only stats != NULL records events (the
 * start and end of the call, and between the stages only when the pipeline
 * runs: a standalone call times nothing but itself) and synchronises at the end.
 * A standalone algorithm that writes the caller's result itself (its table
 * entry's final call: fused and onepass, unsorted) needs no gather.
 *
 * Every rule and every capacity (cap1, the scan list, |C|) is decided by
 * pipeline_spec.h, which says why the buffers are large enough.  When
 * k >= |D| every delegate is selected with t = 0, so every subrange is
 * scanned whole and C = V: the second top-k then runs on V directly, and
 * neither D nor C is built.
 *
 * The workspace layout is computed once per call, as offsets from the
 * aligned workspace start (drtopk_carve without a base), which size the
 * workspace and are then rebased onto the caller's buffer.
 *
 * A standalone algorithm with workload statistics of its own (onepass.cu)
 * reports them through its table entry's stats call.
 *
 * Key widths (key_width.cu): 16-bit keys are widened into a u32 vector of
 * ordered keys at the start of the workspace and every stage runs on it (the
 * "key problem"), unless a standalone algorithm reads every width itself
 * (topk_algo_entry.any_width: onepass, fused); 64-bit keys run key_width.cu's
 * standalone plans (onepass, fused, radix select, sort-and-choose).
 */
#include <string.h>
#include <cub/device/device_radix_sort.cuh>

#include "backend.h"
#include "kernels.h"
#include "key_width.h"
#include "keyorder.h"
#include "pipeline_spec.h"
#include "pipeline_stages.h"

#define STAGE_EVENTS 5              /* start, after each of the four stages     */
/* A stand-in base address for the size query: aligned and non-NULL, because
 * the algorithms' workspace queries validate their input pointers. */
#define SIZING_BASE ((char *)(uintptr_t)DRTOPK_WS_ALIGN)

typedef enum { MODE_STANDALONE, MODE_RAW_SECOND, MODE_DELEGATE } run_mode;

/* The shape of one call: sizes, and every region as a byte offset from the
 * aligned workspace start. */
typedef struct {
    run_mode mode;
    int pos64, skip, sorted;        /* skip: skip-last-digit in effect          */
    int det;                        /* DRTOPK_DETERMINISTIC: topk_input.det_ties */
    int widen;                      /* 16-bit keys: the stages read `wide`      */
    size_t wide;                    /* offset of the widened ordered keys       */
    size_t psize;                   /* bytes per position                       */
    uint64_t nsub, dlen, cap1, scan_cap, c_cap;
    const topk_algo_entry *first, *second;
    size_t ws_algo, ws_sort, zero_bytes;
    /* offsets */
    size_t d_keys, d_pos;           /* D                                        */
    size_t k1_keys, k1_pos;         /* first top-k output                       */
    size_t zero;                    /* scan count, |C|, c(s): zeroed together   */
    size_t scan_list;
    size_t c_keys, c_pos;           /* C                                        */
    size_t scalars;                 /* two counts, two thresholds               */
    size_t o_keys, o_pos;           /* second top-k output                      */
    size_t s_keys, s_pos, sort_tmp; /* sorted copy                              */
    size_t algo_ws;
    size_t total;
} layout;

/* The layout's regions on an aligned base, and the two top-k inputs. */
typedef struct {
    uint32_t *d_keys; void *d_pos;
    uint32_t *k1_keys; void *k1_pos;
    uint64_t *count1, *count2;
    uint32_t *thr1, *thr2;
    char *zero_base;
    uint64_t *scan_count, *c_count;
    uint32_t *counters;
    void *scan_list;
    uint32_t *c_keys; void *c_pos;
    uint32_t *o_keys; void *o_pos;
    uint32_t *s_keys; void *s_pos;
    void *sort_tmp;
    void *algo_ws;
    topk_input in1, in2;
} regions;

/* Reserve `bytes` at the next aligned offset; returns the region's offset. */
static size_t reserve(size_t *off, size_t bytes)
{
    drtopk_carve(NULL, off, bytes);
    return *off - bytes;
}

static drtopk_status sort_temp_bytes(int pos64, uint64_t k, size_t *bytes)
{
    cudaError_t e;
    *bytes = 0;
    if (pos64)
        e = cub::DeviceRadixSort::SortPairsDescending(NULL, *bytes, (const uint32_t *)NULL, (uint32_t *)NULL,
                                                      (const uint64_t *)NULL, (uint64_t *)NULL, (int64_t)k,
                                                      0, DRTOPK_KEY_BITS);
    else
        e = cub::DeviceRadixSort::SortPairsDescending(NULL, *bytes, (const uint32_t *)NULL, (uint32_t *)NULL,
                                                      (const uint32_t *)NULL, (uint32_t *)NULL, (int64_t)k,
                                                      0, DRTOPK_KEY_BITS);
    DRTOPK_CUDA_TRY(e);
    return DRTOPK_OK;
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

static void pairs_input(topk_input *in, const uint32_t *keys, const void *pos, int pos64, uint64_t n_max,
                        uint64_t k)
{
    memset(in, 0, sizeof *in);
    in->src = TOPK_SRC_PAIRS;
    in->keys = keys;
    in->pos = pos;
    in->pos64 = pos64;
    in->n_max = n_max;
    in->k = k;
}

/* Rebase the layout onto an aligned `base`. */
static void regions_at(const layout *l, const drtopk_problem *p, char *base, regions *r)
{
    memset(r, 0, sizeof *r);
    if (l->mode == MODE_DELEGATE) {
        r->d_keys = (uint32_t *)(base + l->d_keys);
        r->d_pos = base + l->d_pos;
        r->k1_keys = (uint32_t *)(base + l->k1_keys);
        r->k1_pos = base + l->k1_pos;
        r->zero_base = base + l->zero;
        r->scan_count = (uint64_t *)r->zero_base;
        r->c_count = (uint64_t *)(r->zero_base + sizeof(uint64_t));
        r->counters = (uint32_t *)(r->zero_base + 2 * sizeof(uint64_t));
        r->scan_list = base + l->scan_list;
        r->c_keys = (uint32_t *)(base + l->c_keys);
        r->c_pos = base + l->c_pos;
        pairs_input(&r->in1, r->d_keys, r->d_pos, l->pos64, l->dlen, p->k);
        r->in1.skip_last_digit = l->skip;
        pairs_input(&r->in2, r->c_keys, r->c_pos, l->pos64, l->c_cap, p->k);
    } else {
        raw_input(&r->in2, p, l->pos64);
        r->in2.det_ties = l->det;
    }
    r->count1 = (uint64_t *)(base + l->scalars);
    r->count2 = r->count1 + 1;
    r->thr1 = (uint32_t *)(r->count2 + 1);
    r->thr2 = r->thr1 + 1;
    r->o_keys = (uint32_t *)(base + l->o_keys);
    r->o_pos = base + l->o_pos;
    if (l->sorted) {
        r->s_keys = (uint32_t *)(base + l->s_keys);
        r->s_pos = base + l->s_pos;
        r->sort_tmp = base + l->sort_tmp;
    }
    r->algo_ws = base + l->algo_ws;
}

/* The problem the stages select on: p itself, or for 16-bit keys the u32
 * ordered keys widened into the workspace at `base` (largest order). */
static drtopk_problem key_problem(const drtopk_problem *p, const layout *l, char *base)
{
    drtopk_problem q = *p;
    if (l->widen) {
        q.dtype = DRTOPK_U32;
        q.order = DRTOPK_LARGEST;
        q.values = base + l->wide;
    }
    return q;
}

/* The layout of (p, plan): every size and offset, and the workspace total. */
static drtopk_status plan_layout(const drtopk_problem *p_in, const drtopk_plan *plan, layout *l)
{
    const uint64_t n = p_in->n, k = p_in->k;
    size_t off = 0, need;
    regions sizing;
    drtopk_status st;
    drtopk_problem kp;
    const drtopk_problem *p = &kp;
    memset(l, 0, sizeof *l);
    l->second = topk_algo_lookup(plan->second_algo);
    if (l->second == NULL) return DRTOPK_ERR_UNSUPPORTED;
    l->widen = drtopk_dtype_bits(p_in->dtype) == 16 && !(!(plan->flags & DRTOPK_DELEGATE) && l->second->any_width);
    if (l->widen) l->wide = reserve(&off, n * sizeof(uint32_t));
    kp = key_problem(p_in, l, SIZING_BASE);
    l->pos64 = n > DRTOPK_POS32_MAX_N;
    l->psize = l->pos64 ? sizeof(uint64_t) : sizeof(uint32_t);
    l->mode = MODE_STANDALONE;
    if (plan->flags & DRTOPK_DELEGATE) {
        l->nsub = drtopk_subrange_count(n, plan->alpha);
        l->dlen = drtopk_delegate_len(n, plan->alpha, plan->beta);
        l->mode = drtopk_first_topk_needed(k, l->dlen) ? MODE_DELEGATE : MODE_RAW_SECOND;
    }
    if (l->mode == MODE_DELEGATE) {
        const size_t ps = l->psize;
        const int plan_skip = (plan->flags & DRTOPK_SKIP_LAST_DIGIT) != 0;
        l->first = topk_algo_lookup(plan->first_algo);
        if (l->first == NULL) return DRTOPK_ERR_UNSUPPORTED;
        l->skip = drtopk_skip_last_digit_on(plan_skip);
        l->cap1 = drtopk_first_capacity(k, l->dlen, plan_skip);
        l->scan_cap = drtopk_scan_capacity(n, plan->alpha, plan->beta, l->cap1);
        l->c_cap = drtopk_concat_capacity(n, plan->alpha, l->scan_cap, l->cap1);
        l->d_keys = reserve(&off, l->dlen * sizeof(uint32_t));
        l->d_pos = reserve(&off, l->dlen * ps);
        l->k1_keys = reserve(&off, l->cap1 * sizeof(uint32_t));
        l->k1_pos = reserve(&off, l->cap1 * ps);
        /* c(s): one byte per subrange, in whole 32-bit words */
        l->zero_bytes = 2 * sizeof(uint64_t) + (l->nsub + sizeof(uint32_t) - 1) / sizeof(uint32_t) * sizeof(uint32_t);
        l->zero = reserve(&off, l->zero_bytes);
        l->scan_list = reserve(&off, l->scan_cap * ps);
        l->c_keys = reserve(&off, l->c_cap * sizeof(uint32_t));
        l->c_pos = reserve(&off, l->c_cap * ps);
    }
    l->scalars = reserve(&off, 2 * sizeof(uint64_t) + 2 * sizeof(uint32_t));
    l->o_keys = reserve(&off, k * sizeof(uint32_t));
    l->o_pos = reserve(&off, k * l->psize);
    l->sorted = (plan->flags & DRTOPK_SORTED) != 0;
    l->det = (plan->flags & DRTOPK_DETERMINISTIC) != 0;
    if (l->sorted) {
        l->s_keys = reserve(&off, k * sizeof(uint32_t));
        l->s_pos = reserve(&off, k * l->psize);
        if ((st = sort_temp_bytes(l->pos64, k, &l->ws_sort)) != DRTOPK_OK) return st;
        l->sort_tmp = reserve(&off, l->ws_sort);
    }
    /* the two top-ks run one after the other: one region serves both; their
     * workspace queries see the inputs on a stand-in base */
    regions_at(l, p, SIZING_BASE, &sizing);
    need = 0;
    if ((st = l->second->workspace(&sizing.in2, &need)) != DRTOPK_OK) return st;
    l->ws_algo = need;
    if (l->mode == MODE_DELEGATE) {
        if ((st = l->first->workspace(&sizing.in1, &need)) != DRTOPK_OK) return st;
        if (need > l->ws_algo) l->ws_algo = need;
    }
    l->algo_ws = reserve(&off, l->ws_algo);
    l->total = off + DRTOPK_WS_ALIGN;   /* slack to align any base address */
    return DRTOPK_OK;
}

extern "C" drtopk_status drtopk_cuda_workspace(const drtopk_problem *p, const drtopk_plan *plan, size_t *bytes)
{
    layout l;
    drtopk_status st;
    if (p == NULL || plan == NULL || bytes == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    if (drtopk_dtype_bits(p->dtype) == 64) {
        if ((st = key64_plan_check(p, plan)) != DRTOPK_OK) return st;
        return key64_workspace(p, plan, bytes);
    }
    if ((st = plan_layout(p, plan, &l)) != DRTOPK_OK) return st;
    *bytes = l.total;
    return DRTOPK_OK;
}

static drtopk_status record(cudaEvent_t *ev, int i, cudaStream_t s)
{
    if (ev) DRTOPK_CUDA_TRY(cudaEventRecord(ev[i], s));
    return DRTOPK_OK;
}

/* Enqueue the whole selection of `orig` on stream s; the stages select on
 * the key problem p (key_problem), the gather reads orig's values. */
static drtopk_status enqueue(const drtopk_problem *orig, const drtopk_problem *p, const drtopk_plan *plan,
                             const layout *l, const regions *r, void *out_values, uint64_t *out_indices,
                             cudaStream_t s, cudaEvent_t *ev, int sm_count, int *d_settled)
{
    drtopk_status st;
    const uint32_t *v = (const uint32_t *)p->values;
    const uint64_t k = p->k;
    /* the standalone algorithm writes the caller's result itself: no gather */
    const int direct = l->mode == MODE_STANDALONE && !l->widen && !l->sorted && l->second->final != NULL;
    topk_output o2;
    if ((st = record(ev, 0, s)) != DRTOPK_OK) return st;
    if (l->widen &&
        (st = key_widen16(orig->values, p->n, orig->dtype, orig->order, (uint32_t *)p->values, s)) != DRTOPK_OK)
        return st;
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
        da.d_keys = r->d_keys;
        da.d_pos = r->d_pos;
        if ((st = delegate_build(&da, s)) != DRTOPK_OK) return st;
        if ((st = record(ev, 1, s)) != DRTOPK_OK) return st;

        o1.capacity = l->cap1;
        o1.keys = r->k1_keys;
        o1.pos = r->k1_pos;
        o1.d_count = r->count1;
        o1.d_threshold = r->thr1;
        if ((st = l->first->run(&r->in1, &o1, r->algo_ws, l->ws_algo, s)) != DRTOPK_OK) return st;
        if ((st = record(ev, 2, s)) != DRTOPK_OK) return st;

        ca.v = v;
        ca.n = p->n;
        ca.dtype = p->dtype;
        ca.order = p->order;
        ca.alpha = plan->alpha;
        ca.beta = plan->beta;
        ca.pos64 = l->pos64;
        ca.filter = (plan->flags & DRTOPK_FILTER) != 0;
        ca.sel_keys = r->k1_keys;
        ca.sel_pos = r->k1_pos;
        ca.d_sel_count = r->count1;
        ca.sel_cap = l->cap1;
        ca.d_dpos = r->d_pos;
        ca.d_threshold = r->thr1;
        ca.zero_base = r->zero_base;
        ca.zero_bytes = l->zero_bytes;
        ca.d_counters = r->counters;
        ca.d_scan_list = r->scan_list;
        ca.scan_cap = l->scan_cap;
        ca.d_scan_count = r->scan_count;
        ca.c_keys = r->c_keys;
        ca.c_pos = r->c_pos;
        ca.c_cap = l->c_cap;
        ca.d_c_count = r->c_count;
        ca.sm_count = sm_count;
        if ((st = concat_filter(&ca, s)) != DRTOPK_OK) return st;
        if ((st = record(ev, 3, s)) != DRTOPK_OK) return st;
    }
    {
        topk_input in2 = r->in2;
        if (l->mode == MODE_DELEGATE) in2.d_n = r->c_count;
        if (direct) in2.d_settled = d_settled;
        o2.capacity = k;
        o2.keys = r->o_keys;
        o2.pos = r->o_pos;
        o2.d_count = r->count2;
        o2.d_threshold = r->thr2;
        st = direct ? l->second->final(&in2, &o2, out_values, out_indices, r->algo_ws, l->ws_algo, s)
                    : l->second->run(&in2, &o2, r->algo_ws, l->ws_algo, s);
        if (st != DRTOPK_OK) return st;
    }
    if (!direct) {
        const void *gpos = r->o_pos;
        if (plan->flags & DRTOPK_SORTED) {
            size_t tb = l->ws_sort;
            cudaError_t e;
            if (l->pos64)
                e = cub::DeviceRadixSort::SortPairsDescending(r->sort_tmp, tb, r->o_keys, r->s_keys,
                                                              (const uint64_t *)r->o_pos, (uint64_t *)r->s_pos,
                                                              (int64_t)k, 0, DRTOPK_KEY_BITS, s);
            else
                e = cub::DeviceRadixSort::SortPairsDescending(r->sort_tmp, tb, r->o_keys, r->s_keys,
                                                              (const uint32_t *)r->o_pos, (uint32_t *)r->s_pos,
                                                              (int64_t)k, 0, DRTOPK_KEY_BITS, s);
            DRTOPK_CUDA_TRY(e);
            gpos = r->s_pos;
        }
        if ((st = key_gather(orig->values, orig->dtype, gpos, l->pos64, k, out_values, out_indices, s)) != DRTOPK_OK)
            return st;
    }
    return record(ev, 4, s);
}

/* 64-bit keys (key_width.cu): one standalone stage, timed as the second. */
static drtopk_status enqueue_key64(const drtopk_problem *p, const drtopk_plan *plan, void *ws, size_t ws_bytes,
                                   void *out_values, uint64_t *out_indices, cudaStream_t s, cudaEvent_t *ev,
                                   int *d_settled)
{
    drtopk_status st;
    if ((st = record(ev, 0, s)) != DRTOPK_OK) return st;
    if ((st = key64_select(p, plan, ws, ws_bytes, out_values, out_indices, s, d_settled)) != DRTOPK_OK) return st;
    return record(ev, STAGE_EVENTS - 1, s);
}

static drtopk_status fill_stats(const drtopk_problem *p, const layout *l, const regions *r, cudaEvent_t *ev,
                                cudaStream_t s, drtopk_stats *stats)
{
    float ms[STAGE_EVENTS - 1], tot;
    uint64_t sel = 0, clen = 0, scanned = 0;
    DRTOPK_CUDA_TRY(cudaEventSynchronize(ev[STAGE_EVENTS - 1]));
    DRTOPK_CUDA_TRY(cudaEventElapsedTime(&tot, ev[0], ev[STAGE_EVENTS - 1]));
    memset(stats, 0, sizeof *stats);
    stats->ms_total = tot;
    stats->ms_second = tot;         /* one stage unless the pipeline ran */
    if (l->mode == MODE_DELEGATE) {
        for (int i = 0; i < STAGE_EVENTS - 1; ++i) DRTOPK_CUDA_TRY(cudaEventElapsedTime(&ms[i], ev[i], ev[i + 1]));
        stats->ms_second = ms[3];
        DRTOPK_CUDA_TRY(cudaMemcpyAsync(&sel, r->count1, sizeof sel, cudaMemcpyDeviceToHost, s));
        DRTOPK_CUDA_TRY(cudaMemcpyAsync(&clen, r->c_count, sizeof clen, cudaMemcpyDeviceToHost, s));
        DRTOPK_CUDA_TRY(cudaMemcpyAsync(&scanned, r->scan_count, sizeof scanned, cudaMemcpyDeviceToHost, s));
        DRTOPK_CUDA_TRY(cudaStreamSynchronize(s));
        stats->ms_delegate = ms[0];
        stats->ms_first = ms[1];
        stats->ms_concat = ms[2];
        stats->delegate_len = l->dlen;
        stats->first_selected = sel;
        stats->concat_len = clen;
        stats->scanned_subranges = scanned;
    } else if (l->mode == MODE_STANDALONE && l->second != NULL && l->second->stats != NULL) {
        return l->second->stats(&r->in2, r->algo_ws, l->ws_algo, s, stats);
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
    return drtopk_cuda_select_settled(p, plan, ws, ws_bytes, out_values, out_indices, stream, stats, NULL);
}

extern "C" drtopk_status drtopk_cuda_select_settled(const drtopk_problem *p, const drtopk_plan *plan, void *ws,
                                                    size_t ws_bytes, void *out_values, uint64_t *out_indices,
                                                    void *stream, drtopk_stats *stats, int *d_settled)
{
    layout l;
    regions r;
    drtopk_status st;
    cudaStream_t s = (cudaStream_t)stream;
    cudaEvent_t ev[STAGE_EVENTS];
    const drtopk_device_attrs *dev;
    int nev = 0;
    char *base;
    drtopk_problem kp;
    const int key64 = p != NULL && drtopk_dtype_bits(p->dtype) == 64;
    if (p == NULL || plan == NULL || p->values == NULL || out_values == NULL || out_indices == NULL)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    if ((st = drtopk_cuda_entry_take_pending("drtopk_select")) != DRTOPK_OK) return st;
    if (key64) {
        if ((st = key64_plan_check(p, plan)) != DRTOPK_OK) return st;
        memset(&l, 0, sizeof l);    /* standalone: fill_stats reports the total only */
    } else {
        if ((st = plan_layout(p, plan, &l)) != DRTOPK_OK) return st;
        if (ws == NULL || ws_bytes < l.total) return drtopk_workspace_too_small(ws, ws_bytes, l.total);
    }
    if ((st = drtopk_device_check_supported()) != DRTOPK_OK) return st;
    if ((st = drtopk_device_current(NULL, &dev)) != DRTOPK_OK) return st;
    base = (char *)drtopk_align_up((uintptr_t)ws, DRTOPK_WS_ALIGN);
    kp = key_problem(p, &l, base);
    if (!key64) regions_at(&l, &kp, base, &r);
    if (stats) {
        for (; nev < STAGE_EVENTS; ++nev) {
            if (cudaEventCreate(&ev[nev]) != cudaSuccess) {
                st = DRTOPK_ERR_CUDA;
                break;
            }
        }
    }
    if (st == DRTOPK_OK)
        st = key64 ? enqueue_key64(p, plan, ws, ws_bytes, out_values, out_indices, s, stats ? ev : NULL, d_settled)
                   : enqueue(p, &kp, plan, &l, &r, out_values, out_indices, s, stats ? ev : NULL, dev->sm_count,
                             d_settled);
    if (st == DRTOPK_OK && stats) st = fill_stats(p, &l, &r, ev, s, stats);
    if (st == DRTOPK_OK && stats && key64) st = key64_stats(p, plan, ws, ws_bytes, s, stats);
    for (int i = 0; i < nev; ++i) cudaEventDestroy(ev[i]);
    return st;
}
