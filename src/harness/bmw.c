/*
 * bmw.c -- Figure 24 workload counters (paper 6.6 and 4.4): a Block-Max
 * WAND-style scan that skips whole blocks by their maximum but evaluates the
 * elements of every other block one at a time, versus Dr. Top-k's delegate +
 * concatenated vector sizes under the rules of pipeline_spec.h, as cpu_ref.c
 * applies them.  See bmw.h.
 */
#include "bmw.h"
#include "keyorder.h"
#include "pipeline_spec.h"

#include <stdlib.h>
#include <string.h>

static uint64_t key_at(const drtopk_problem *p, uint64_t i)
{
    return drtopk_key_at(p->values, i, p->dtype, p->order);
}

static drtopk_status check_problem(const drtopk_problem *p)
{
    if (p == NULL || p->values == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    if ((int)p->dtype < 0 || p->dtype >= DRTOPK_DTYPE_COUNT) return DRTOPK_ERR_INVALID_ARGUMENT;
    if (p->order != DRTOPK_LARGEST && p->order != DRTOPK_SMALLEST) return DRTOPK_ERR_INVALID_ARGUMENT;
    if (p->n == 0) return DRTOPK_ERR_N_ZERO;
    if (p->k == 0) return DRTOPK_ERR_K_ZERO;
    if (p->k > p->n) return DRTOPK_ERR_K_GT_N;
    return DRTOPK_OK;
}

static void heap_sift_down(uint64_t *h, uint64_t len, uint64_t i)
{
    for (;;) {
        uint64_t l = 2 * i + 1, m = i;
        if (l < len && h[l] < h[m]) m = l;
        if (l + 1 < len && h[l + 1] < h[m]) m = l + 1;
        if (m == i) return;
        uint64_t t = h[i]; h[i] = h[m]; h[m] = t;
        i = m;
    }
}

static void heap_push(uint64_t *h, uint64_t *len, uint64_t key)
{
    uint64_t i = (*len)++;
    h[i] = key;
    while (i > 0 && h[(i - 1) / 2] > h[i]) {
        uint64_t t = h[i]; h[i] = h[(i - 1) / 2]; h[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

drtopk_status dh_bmw_workload(const drtopk_problem *p, int alpha, uint64_t *evaluated,
                              uint64_t *blocks_skipped)
{
    drtopk_status st = check_problem(p);
    if (st != DRTOPK_OK) return st;
    if (evaluated == NULL || blocks_skipped == NULL || alpha < DRTOPK_ALPHA_MIN || alpha > DRTOPK_ALPHA_MAX)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    uint64_t *heap = malloc((size_t)p->k * sizeof *heap);
    if (heap == NULL) return DRTOPK_ERR_OUT_OF_MEMORY;
    const uint64_t block = 1ull << alpha;
    uint64_t len = 0, eval = 0, skipped = 0;
    for (uint64_t lo = 0; lo < p->n; lo += block) {
        const uint64_t hi = p->n - lo < block ? p->n : lo + block;
        uint64_t bmax = 0;
        for (uint64_t i = lo; i < hi; ++i) {     /* the block-max index BMW keeps */
            const uint64_t key = key_at(p, i);
            if (key > bmax) bmax = key;
        }
        if (len == p->k && bmax <= heap[0]) {
            ++skipped;
            continue;
        }
        for (uint64_t i = lo; i < hi; ++i) {
            const uint64_t key = key_at(p, i);
            ++eval;
            if (len < p->k) {
                heap_push(heap, &len, key);
            } else if (key > heap[0]) {
                heap[0] = key;
                heap_sift_down(heap, len, 0);
            }
        }
    }
    free(heap);
    *evaluated = eval;
    *blocks_skipped = skipped;
    return DRTOPK_OK;
}

typedef struct {
    uint64_t key;
    uint64_t pos;
} bmw_pair;

static int pair_best_first(const void *a, const void *b)
{
    const bmw_pair *x = (const bmw_pair *)a, *y = (const bmw_pair *)b;
    if (x->key != y->key) return x->key > y->key ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

drtopk_status dh_bmw_drtopk_workload(const drtopk_problem *p, const drtopk_plan *plan,
                                     uint64_t *delegate_len, uint64_t *concat_len)
{
    drtopk_status st = check_problem(p);
    if (st != DRTOPK_OK) return st;
    if (plan == NULL || delegate_len == NULL || concat_len == NULL || plan->alpha < DRTOPK_ALPHA_MIN ||
        plan->alpha > DRTOPK_ALPHA_MAX || plan->beta < 1 || plan->beta > DRTOPK_BETA_MAX)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    const int a = plan->alpha;
    const uint64_t sub = drtopk_subrange_len(a), nsub = drtopk_subrange_count(p->n, a);
    const uint64_t beta = (uint64_t)plan->beta;
    const uint64_t dmax = drtopk_delegate_len(p->n, a, plan->beta);
    bmw_pair *d = malloc((size_t)dmax * sizeof *d);
    uint8_t *sel = calloc((size_t)nsub, 1);      /* selected delegates <= beta <= 8 */
    if (d == NULL || sel == NULL) {
        free(d);
        free(sel);
        return DRTOPK_ERR_OUT_OF_MEMORY;
    }
    /* Step 1: the nd(s) best pairs of each subrange, by insertion. */
    uint64_t dlen = 0;
    for (uint64_t s = 0; s < nsub; ++s) {
        const uint64_t lo = s << a, hi = min_u64(p->n, lo + sub);
        bmw_pair *top = d + dlen;
        uint64_t cnt = 0;
        for (uint64_t i = lo; i < hi; ++i) {
            const uint64_t key = key_at(p, i);
            if (cnt == beta && key <= top[cnt - 1].key) continue;
            uint64_t j = cnt < beta ? cnt++ : cnt - 1;
            while (j > 0 && top[j - 1].key < key) {
                top[j] = top[j - 1];
                --j;
            }
            top[j].key = key;
            top[j].pos = i;
        }
        dlen += cnt;
    }
    /* Step 2: the first top-k (optionally one digit short, 4.3) and Rule 2's
     * threshold; with k >= |D| every delegate is selected and t = 0. */
    uint64_t selected = dlen;
    uint64_t t = 0;
    const int filter = drtopk_first_topk_needed(p->k, dlen) && (plan->flags & DRTOPK_FILTER);
    if (drtopk_first_topk_needed(p->k, dlen)) {
        const int skip = (plan->flags & DRTOPK_SKIP_LAST_DIGIT) != 0;
        qsort(d, (size_t)dlen, sizeof *d, pair_best_first);
        t = d[p->k - 1].key;
        selected = p->k;
        if (drtopk_skip_last_digit_on(skip)) {
            const uint64_t lowest = drtopk_skip_last_digit_floor(t);
            uint64_t wide = p->k;
            while (wide < dlen && d[wide].key >= lowest) ++wide;
            /* more than the backends' capacity: they resolve the last digit */
            if (drtopk_skip_last_digit_stops(skip, wide, drtopk_first_capacity(p->k, dlen, skip))) {
                selected = wide;
                t = lowest;
            }
        }
        t = drtopk_rule2_threshold(t, filter);
    }
    /* Step 3: Rules 1-3, counted. */
    for (uint64_t j = 0; j < selected; ++j) sel[d[j].pos >> a]++;
    uint64_t clen = 0;
    for (uint64_t j = 0; j < selected; ++j) {
        const uint64_t s = d[j].pos >> a;
        const drtopk_subrange_class c = drtopk_rule3_classify(sel[s], drtopk_nd(p->n, a, plan->beta, s));
        clen += c == DRTOPK_SUBRANGE_COPY_SELECTED ||
                (c == DRTOPK_SUBRANGE_SCAN && drtopk_rule2_tied_delegate(d[j].key, t, filter));
    }
    for (uint64_t s = 0; s < nsub; ++s) {
        const uint64_t lo = s << a, hi = min_u64(p->n, lo + sub);
        if (drtopk_rule3_classify(sel[s], drtopk_nd(p->n, a, plan->beta, s)) != DRTOPK_SUBRANGE_SCAN) continue;
        for (uint64_t i = lo; i < hi; ++i) clen += drtopk_rule2_scan_copies(key_at(p, i), t, filter);
    }
    free(d);
    free(sel);
    *delegate_len = dlen;
    *concat_len = clen;
    return DRTOPK_OK;
}
