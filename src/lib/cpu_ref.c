/*
 * cpu_ref.c -- the CPU reference of the whole Dr. Top-k pipeline (paper
 * sections 4.1-4.3): subranges of 2^alpha elements, beta delegates each
 * (Rule 3), a first top-k over the delegates (optionally stopping one 8-bit
 * radix digit early, 4.3), concatenation under Rules 1-3, a second top-k.
 * It fixes the exact semantics the CUDA pipeline must reproduce and is kept
 * simple: every top-k is a qsort of (ordered key, position) pairs, best first,
 * ties by smaller position.  Ordered keys of every width (16, 32, 64 bits,
 * keyorder.h) are held in a uint64_t; the last digit is the low 8 bits of
 * the key's own width, as on the GPU.  Every rule, and why the result is exact, is in
 * pipeline_spec.h.  The one-read top-k (DRTOPK_ALGO_ONEPASS, beyond the paper)
 * takes the steps and decisions of onepass_spec.h, as kernels/onepass.cu does.
 * A standalone radix plan (the CPU backend's automatic plan) runs the
 * threaded radix select of cpu_radix.c instead of a sort of all of V.
 */
#include "backend.h"
#include "clock.h"
#include "keyorder.h"
#include "onepass_spec.h"
#include "pipeline_spec.h"

#include <stdlib.h>
#include <string.h>

#define WS_ALIGN 16              /* alignment of every workspace region   */

typedef struct {
    uint64_t key;                /* ordered key: larger is better */
    uint64_t pos;                /* position in V                 */
} pair;

static int pair_best_first(const void *a, const void *b)
{
    const pair *x = (const pair *)a, *y = (const pair *)b;
    if (x->key != y->key) return x->key > y->key ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

static int pair_by_pos(const void *a, const void *b)
{
    const pair *x = (const pair *)a, *y = (const pair *)b;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

static void pair_swap(pair *a, pair *b)
{
    const pair t = *a;
    *a = *b;
    *b = t;
}

/* The kk best pairs of v[0..len) (by pair_best_first, a total order: no two
 * pairs share a position) moved to v[0..kk), in no order; the others after
 * them.  Quickselect on the median of three, which sorts what is left once
 * it has split more than SELECT_DEPTH_PER_BIT times per bit of len (so a
 * sequence built against the pivot rule costs a sort, not len^2). */
#define SELECT_DEPTH_PER_BIT 2
static void select_best(pair *v, uint64_t len, uint64_t kk)
{
    uint64_t lo = 0, hi = len, depth = 0, budget = SELECT_DEPTH_PER_BIT;
    for (uint64_t x = len; x > 1; x >>= 1) budget += SELECT_DEPTH_PER_BIT;
    while (hi - lo > 2 && kk > lo && kk < hi) {
        if (++depth > budget) {
            qsort(v + lo, (size_t)(hi - lo), sizeof *v, pair_best_first);
            return;
        }
        const uint64_t mid = lo + (hi - lo) / 2;
        if (pair_best_first(&v[mid], &v[lo]) < 0) pair_swap(&v[mid], &v[lo]);
        if (pair_best_first(&v[hi - 1], &v[lo]) < 0) pair_swap(&v[hi - 1], &v[lo]);
        if (pair_best_first(&v[hi - 1], &v[mid]) < 0) pair_swap(&v[hi - 1], &v[mid]);
        pair_swap(&v[mid], &v[hi - 1]);         /* the median of three, the pivot, at the end */
        const pair pivot = v[hi - 1];
        uint64_t store = lo;
        for (uint64_t i = lo; i < hi - 1; ++i)
            if (pair_best_first(&v[i], &pivot) < 0) pair_swap(&v[i], &v[store++]);
        pair_swap(&v[store], &v[hi - 1]);       /* v[lo..store) better than the pivot, v[store] the pivot */
        if (store + 1 == kk || store == kk) return;
        if (store > kk) hi = store;
        else lo = store + 1;
    }
    if (hi - lo == 2 && pair_best_first(&v[lo + 1], &v[lo]) < 0) pair_swap(&v[lo], &v[lo + 1]);
}

/* Top-kk of v[0..len) (1 <= kk <= len), moved to the front of v best first.
 * Without skip: exactly kk pairs, threshold = the kk-th key.  With skip: every
 * pair whose key agrees with the kk-th key above the last digit or is larger,
 * threshold = the kk-th key with its last digit cleared -- unless that is more
 * than `cap` pairs: then the last digit is resolved after all (exactly kk), as
 * the GPU's radix does (drtopk_skip_last_digit_stops).  The pairs past the
 * ones returned are left in no order. */
static uint64_t cpu_topk(pair *v, uint64_t len, uint64_t kk, int skip, uint64_t cap,
                         uint64_t *threshold)
{
    uint64_t cnt = kk;
    uint64_t lowest;
    select_best(v, len, kk);
    qsort(v, (size_t)kk, sizeof *v, pair_best_first);
    *threshold = v[kk - 1].key;
    if (!drtopk_skip_last_digit_on(skip)) return kk;
    lowest = drtopk_skip_last_digit_floor(*threshold);
    for (uint64_t i = kk; i < len; ++i)         /* the rest that agree above the last digit, next */
        if (v[i].key >= lowest) pair_swap(&v[i], &v[cnt++]);
    qsort(v + kk, (size_t)(cnt - kk), sizeof *v, pair_best_first);
    if (!drtopk_skip_last_digit_stops(skip, cnt, cap)) return kk;
    *threshold = lowest;
    return cnt;
}

static uint64_t key_at(const drtopk_problem *p, uint64_t i)
{
    return drtopk_key_at(p->values, i, p->dtype, p->order);
}

static int delegate_mode(const drtopk_plan *plan)
{
    return (plan->flags & DRTOPK_DELEGATE) != 0;
}

static int onepass_mode(const drtopk_plan *plan)
{
    return !delegate_mode(plan) && plan->second_algo == DRTOPK_ALGO_ONEPASS;
}

/* A standalone radix plan runs the threaded radix select (cpu_radix.c). */
static int radix_mode(const drtopk_plan *plan)
{
    return !delegate_mode(plan) && plan->second_algo == DRTOPK_ALGO_RADIX;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

static size_t round_up(size_t x) { return (x + WS_ALIGN - 1) & ~(size_t)(WS_ALIGN - 1); }

/* Workspace layout: [align slack][C: n pairs][D: |D| pairs][c(s): nsub bytes].
 * C doubles as the sort scratch of each subrange while D is built and holds
 * every pair of V in standalone mode.  Onepass: C holds the sample, then the
 * candidates (or V when it falls back), D the k ties. */
typedef struct {
    pair *c, *d;
    uint8_t *sel;               /* c(s) <= beta <= DRTOPK_BETA_MAX fits a byte */
    size_t bytes;
} layout;

static drtopk_status plan_layout(const drtopk_problem *p, const drtopk_plan *plan, void *ws,
                                 layout *l)
{
    const uint64_t n = p->n;
    uint64_t dlen = 0, nsub = 0;
    char *base = (char *)ws + (round_up((uintptr_t)ws) - (uintptr_t)ws);
    size_t off = 0;
    if (delegate_mode(plan)) {
        dlen = drtopk_delegate_len(n, plan->alpha, plan->beta);
        nsub = drtopk_subrange_count(n, plan->alpha);
    }
    if (onepass_mode(plan)) dlen = p->k;
    /* every term is <= n; refuse sizes whose byte count would wrap */
    if (n > (SIZE_MAX - 4 * WS_ALIGN) / (2 * sizeof(pair) + 1)) return DRTOPK_ERR_OUT_OF_MEMORY;
    l->c = (pair *)base;
    off += round_up((size_t)n * sizeof(pair));
    l->d = (pair *)(base + off);
    off += round_up((size_t)dlen * sizeof(pair));
    l->sel = (uint8_t *)(base + off);
    off += (size_t)nsub;
    l->bytes = off + WS_ALIGN;   /* slack to align any base address */
    return DRTOPK_OK;
}

drtopk_status drtopk_cpu_workspace(const drtopk_problem *p, const drtopk_plan *plan, size_t *bytes)
{
    layout l;
    drtopk_status st;
    if (p == NULL || plan == NULL || bytes == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    if (radix_mode(plan)) {
        *bytes = drtopk_cpu_radix_workspace(p);
        return DRTOPK_OK;
    }
    if ((st = plan_layout(p, plan, NULL, &l)) != DRTOPK_OK) return st;
    *bytes = l.bytes;
    return DRTOPK_OK;
}

/* Step 1: D = the min(beta, |S|) best (key, pos) pairs of every subrange. */
static uint64_t build_delegates(const drtopk_problem *p, const drtopk_plan *plan, const layout *l)
{
    const uint64_t sub = drtopk_subrange_len(plan->alpha);
    uint64_t dlen = 0;
    for (uint64_t lo = 0; lo < p->n; lo += sub) {
        const uint64_t len = min_u64(sub, p->n - lo);
        const uint64_t nd = drtopk_nd(p->n, plan->alpha, plan->beta, lo >> plan->alpha);
        for (uint64_t i = 0; i < len; ++i) {
            l->c[i].key = key_at(p, lo + i);
            l->c[i].pos = lo + i;
        }
        qsort(l->c, (size_t)len, sizeof(pair), pair_best_first);
        memcpy(l->d + dlen, l->c, (size_t)nd * sizeof(pair));
        dlen += nd;
    }
    return dlen;
}

/* The class Rules 1-3 give subrange s (pipeline_spec.h). */
static drtopk_subrange_class subrange_class(const drtopk_problem *p, const drtopk_plan *plan, const layout *l,
                                            uint64_t s)
{
    return drtopk_rule3_classify(l->sel[s], drtopk_nd(p->n, plan->alpha, plan->beta, s));
}

/* Step 3: C = the selected delegates of the subranges Rule 3 copies, then
 * every key >= t of the subranges it scans. */
static uint64_t concatenate(const drtopk_problem *p, const drtopk_plan *plan, const layout *l,
                            uint64_t selected, uint64_t t, int filter, uint64_t *scanned)
{
    const int a = plan->alpha;
    const uint64_t nsub = drtopk_subrange_count(p->n, a);
    uint64_t clen = 0;
    memset(l->sel, 0, (size_t)nsub);
    for (uint64_t j = 0; j < selected; ++j) l->sel[l->d[j].pos >> a]++;
    for (uint64_t j = 0; j < selected; ++j) {
        const drtopk_subrange_class c = subrange_class(p, plan, l, l->d[j].pos >> a);
        if (c == DRTOPK_SUBRANGE_COPY_SELECTED ||
            (c == DRTOPK_SUBRANGE_SCAN && drtopk_rule2_tied_delegate(l->d[j].key, t, filter)))
            l->c[clen++] = l->d[j];
    }
    *scanned = 0;
    for (uint64_t s = 0; s < nsub; ++s) {
        if (subrange_class(p, plan, l, s) != DRTOPK_SUBRANGE_SCAN) continue;
        const uint64_t lo = s << a, hi = min_u64(p->n, lo + drtopk_subrange_len(a));
        ++*scanned;
        for (uint64_t i = lo; i < hi; ++i) {
            const uint64_t key = key_at(p, i);
            if (drtopk_rule2_scan_copies(key, t, filter)) {
                l->c[clen].key = key;
                l->c[clen].pos = i;
                ++clen;
            }
        }
    }
    return clen;
}

/* Every pair of V into C. */
static uint64_t load_all(const drtopk_problem *p, const layout *l)
{
    for (uint64_t i = 0; i < p->n; ++i) {
        l->c[i].key = key_at(p, i);
        l->c[i].pos = i;
    }
    return p->n;
}

/* The one-read top-k (onepass_spec.h): C[0, return) holds the pairs the
 * final top-k selects from -- the candidates (SELECT), the candidates and
 * k - gt ties (TAKE), or all of V (FALLBACK).  st gets its workload. */
static uint64_t onepass(const drtopk_problem *p, const layout *l, drtopk_stats *st)
{
    const uint64_t n = p->n, k = p->k, s = drtopk_onepass_sample_len(n);
    const uint64_t r = drtopk_onepass_rank(n, k, s), cap = drtopk_onepass_capacity(n, k, s, r);
    uint64_t t, gt = 0, eq = 0;
    for (uint64_t j = 0; j < s; ++j) {
        l->c[j].pos = drtopk_onepass_sample_pos(n, s, j);
        l->c[j].key = key_at(p, l->c[j].pos);
    }
    cpu_topk(l->c, s, r, 0, s, &t);
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t key = key_at(p, i);
        if (key > t) {
            if (gt < cap) l->c[gt] = (pair){ key, i };
            ++gt;
        } else if (key == t) {
            if (eq < k) l->d[eq] = (pair){ key, i };
            ++eq;
        }
    }
    st->delegate_len = s;
    st->first_selected = r;
    st->concat_len = drtopk_onepass_kept(gt, eq, k);
    switch (drtopk_onepass_decide(gt, eq, k, cap)) {
    case DRTOPK_ONEPASS_SELECT: return gt;
    case DRTOPK_ONEPASS_TAKE:
        memcpy(l->c + gt, l->d, (size_t)(k - gt) * sizeof(pair));
        return k;
    default:
        st->scanned_subranges = 1;
        return load_all(p, l);
    }
}

/* DRTOPK_DETERMINISTIC after the pipeline: C holds every key better than
 * the k-th but not every key equal to it (a subrange none of whose delegates
 * was selected may hold some), so the ties of best[0, k) (best first, ties
 * last) become V's ties of smallest position, in position order: the result
 * is then the k best (ordered key, position) pairs, as on every other plan. */
static void smallest_position_ties(const drtopk_problem *p, pair *best)
{
    const uint64_t k = p->k, kth = best[k - 1].key;
    uint64_t m = 0, j = 0;
    while (m < k && best[k - 1 - m].key == kth) ++m;
    for (uint64_t i = 0; i < p->n && j < m; ++i)
        if (key_at(p, i) == kth) best[k - m + j++].pos = i;
}

/* What pipeline_spec.h proves or bounds, checked on every run so that a rule
 * change (or a mutant) that breaks it fails here rather than in a GPU buffer:
 * |C| >= k, and when the first top-k ran, the selection, the scanned
 * subranges and |C| within the capacities the CUDA pipeline allocates. */
static drtopk_status check_invariants(const drtopk_problem *p, const drtopk_plan *plan, const drtopk_stats *st,
                                      uint64_t clen)
{
    if (clen < p->k) {
        drtopk_error_set("cpu reference: |C| = %llu < k = %llu breaks the rules' invariant",
                         (unsigned long long)clen, (unsigned long long)p->k);
        return DRTOPK_ERR_UNSUPPORTED;
    }
    if (delegate_mode(plan) && drtopk_first_topk_needed(p->k, st->delegate_len)) {
        const uint64_t cap1 = drtopk_first_capacity(p->k, st->delegate_len,
                                                    (plan->flags & DRTOPK_SKIP_LAST_DIGIT) != 0);
        const uint64_t scan_cap = drtopk_scan_capacity(p->n, plan->alpha, plan->beta, cap1);
        if (st->first_selected > cap1 || st->scanned_subranges > scan_cap ||
            clen > drtopk_concat_capacity(p->n, plan->alpha, scan_cap, cap1)) {
            drtopk_error_set("cpu reference: selected %llu, scanned %llu, |C| = %llu exceed the capacities",
                             (unsigned long long)st->first_selected, (unsigned long long)st->scanned_subranges,
                             (unsigned long long)clen);
            return DRTOPK_ERR_UNSUPPORTED;
        }
    }
    return DRTOPK_OK;
}

drtopk_status drtopk_cpu_select(const drtopk_problem *p, const drtopk_plan *plan,
                                void *ws, size_t ws_bytes, void *out_values,
                                uint64_t *out_indices, drtopk_stats *stats)
{
    const double t0 = drtopk_clock_ms();
    double t1 = t0, t2 = t0, t3 = t0, t4;
    drtopk_stats st;
    layout l;
    uint64_t clen;
    uint64_t t, kth;
    drtopk_status rc;
    if (p == NULL || plan == NULL || p->values == NULL || out_values == NULL || out_indices == NULL ||
        p->n == 0 || p->k == 0 || p->k > p->n)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    if (radix_mode(plan))
        return drtopk_cpu_radix_select(p, (plan->flags & DRTOPK_SORTED) != 0, ws, ws_bytes, out_values, out_indices,
                                       stats);
    if ((rc = plan_layout(p, plan, ws, &l)) != DRTOPK_OK) return rc;
    if (ws == NULL || ws_bytes < l.bytes) return drtopk_workspace_too_small(ws, ws_bytes, l.bytes);
    memset(&st, 0, sizeof st);

    if (onepass_mode(plan)) {
        clen = onepass(p, &l, &st);
    } else if (!delegate_mode(plan)) {
        clen = load_all(p, &l);
    } else {
        uint64_t sel;
        st.delegate_len = build_delegates(p, plan, &l);
        t1 = drtopk_clock_ms();
        /* filtering needs a first top-k: without one every delegate is
         * selected and C = V */
        const int filter = drtopk_first_topk_needed(p->k, st.delegate_len) && (plan->flags & DRTOPK_FILTER);
        if (!drtopk_first_topk_needed(p->k, st.delegate_len)) {
            sel = st.delegate_len;
            t = 0;
        } else {
            const int skip = (plan->flags & DRTOPK_SKIP_LAST_DIGIT) != 0;
            sel = cpu_topk(l.d, st.delegate_len, p->k, skip,
                           drtopk_first_capacity(p->k, st.delegate_len, skip), &t);
            t = drtopk_rule2_threshold(t, filter);
        }
        st.first_selected = sel;
        t2 = drtopk_clock_ms();
        clen = concatenate(p, plan, &l, sel, t, filter, &st.scanned_subranges);
        st.concat_len = clen;
        t3 = drtopk_clock_ms();
    }
    if ((rc = check_invariants(p, plan, &st, clen)) != DRTOPK_OK) return rc;
    cpu_topk(l.c, clen, p->k, 0, clen, &kth);
    if (delegate_mode(plan) && (plan->flags & DRTOPK_DETERMINISTIC)) smallest_position_ties(p, l.c);
    /* Unsorted results come in input order, so that no caller can come to
     * rely on a rank order the GPU does not promise. */
    if (!(plan->flags & DRTOPK_SORTED)) qsort(l.c, (size_t)p->k, sizeof(pair), pair_by_pos);
    for (uint64_t j = 0; j < p->k; ++j) {
        drtopk_bits_store(out_values, j, p->dtype, drtopk_bits_at(p->values, l.c[j].pos, p->dtype));
        out_indices[j] = l.c[j].pos;
    }
    t4 = drtopk_clock_ms();
    if (stats) {
        if (delegate_mode(plan)) {
            st.ms_delegate = t1 - t0;
            st.ms_first = t2 - t1;
            st.ms_concat = t3 - t2;
            st.ms_second = t4 - t3;
        } else {
            st.ms_second = t4 - t0;
        }
        st.ms_total = t4 - t0;
        *stats = st;
    }
    return DRTOPK_OK;
}
