/*
 * cpu_batch.c -- the CPU backend of batched and segmented top-k (drtopk.h,
 * drtopk_batch_select): the exact reference the GPU kernels are checked
 * against.  Each segment is scanned once in position order through a heap of
 * its k_s best (ordered key, position) pairs (keyorder.h: NaN above +inf,
 * -0.0 == +0.0), worst at the root; a pair enters when it is better than the
 * root, so among equal keys the smallest positions win.  Results come best
 * first (DRTOPK_SORTED) or in increasing position, and slots past k_s are
 * padded with DRTOPK_INDEX_NONE and zero bits, as the header lays out.
 */
#include "backend.h"
#include "keyorder.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define WS_ALIGN 16                  /* alignment of the heap in the workspace */

typedef struct {
    uint64_t key;                    /* ordered key: larger is better */
    uint64_t pos;                    /* position within the segment   */
} pair;

/* a ranks above b: larger key, then smaller position */
static int better(const pair *a, const pair *b)
{
    return a->key > b->key || (a->key == b->key && a->pos < b->pos);
}

static int by_rank(const void *a, const void *b)
{
    return better((const pair *)a, (const pair *)b) ? -1 : better((const pair *)b, (const pair *)a);
}

static int by_pos(const void *a, const void *b)
{
    const pair *x = (const pair *)a, *y = (const pair *)b;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Restore the heap (worst pair at the root) below slot i of h[0..n). */
static void sift_down(pair *h, uint64_t n, uint64_t i)
{
    for (;;) {
        uint64_t w = i;
        const uint64_t l = 2 * i + 1, r = l + 1;
        if (l < n && better(&h[w], &h[l])) w = l;
        if (r < n && better(&h[w], &h[r])) w = r;
        if (w == i) return;
        const pair t = h[i];
        h[i] = h[w];
        h[w] = t;
        i = w;
    }
}

static void sift_up(pair *h, uint64_t i)
{
    while (i > 0) {
        const uint64_t up = (i - 1) / 2;
        if (!better(&h[up], &h[i])) return;
        const pair t = h[i];
        h[i] = h[up];
        h[up] = t;
        i = up;
    }
}

drtopk_status drtopk_cpu_batch_workspace(const drtopk_batch_problem *p, size_t *bytes)
{
    if (p->k > (SIZE_MAX - WS_ALIGN) / sizeof(pair)) return DRTOPK_ERR_OUT_OF_MEMORY;
    *bytes = (size_t)p->k * sizeof(pair) + WS_ALIGN;
    return DRTOPK_OK;
}

/* The k_s best pairs of segment v[0..len) into h, in the output order. */
static uint64_t select_segment(const drtopk_batch_problem *p, const void *v, uint64_t len, uint64_t ks, int sorted,
                               pair *h)
{
    uint64_t cnt = 0;
    for (uint64_t i = 0; i < len && ks > 0; ++i) {
        const pair e = { drtopk_key_at(v, i, p->dtype, p->order), i };
        if (cnt < ks) {
            h[cnt] = e;
            sift_up(h, cnt++);
        } else if (better(&e, &h[0])) {
            h[0] = e;
            sift_down(h, cnt, 0);
        }
    }
    qsort(h, (size_t)cnt, sizeof *h, sorted ? by_rank : by_pos);
    return cnt;
}

drtopk_status drtopk_cpu_batch_select(const drtopk_batch_problem *p, const drtopk_batch_plan *plan, void *ws,
                                      size_t ws_bytes, void *out_values, uint64_t *out_indices)
{
    size_t need;
    drtopk_status st;
    const size_t esize = drtopk_dtype_size(p->dtype);
    if ((st = drtopk_cpu_batch_workspace(p, &need)) != DRTOPK_OK) return st;
    if (ws == NULL || ws_bytes < need) return drtopk_workspace_too_small(ws, ws_bytes, need);
    pair *h = (pair *)((char *)ws + (WS_ALIGN - (uintptr_t)ws % WS_ALIGN) % WS_ALIGN);
    if (p->offsets != NULL) {
        for (uint64_t s = 0; s < p->segments; ++s) {
            if (p->offsets[s + 1] < p->offsets[s]) {
                drtopk_error_set("offsets[%" PRIu64 "] = %" PRIu64 " is below offsets[%" PRIu64 "] = %" PRIu64
                                 ": segment %" PRIu64 " ends before it starts (offsets must not decrease)",
                                 s + 1, p->offsets[s + 1], s, p->offsets[s], s);
                return DRTOPK_ERR_INVALID_ARGUMENT;
            }
        }
    }
    for (uint64_t s = 0; s < p->segments; ++s) {
        const uint64_t start = p->offsets ? p->offsets[s] : s * p->len;
        const uint64_t len = p->offsets ? p->offsets[s + 1] - start : p->len;
        uint64_t ks = p->ks ? p->ks[s] : p->k;
        if (ks > p->k) ks = p->k;
        if (ks > len) ks = len;
        const void *v = (const char *)p->values + start * esize;
        const uint64_t cnt = select_segment(p, v, len, ks, (plan->flags & DRTOPK_SORTED) != 0, h);
        for (uint64_t j = 0; j < p->k; ++j) {
            const uint64_t slot = s * p->k + j;
            drtopk_bits_store(out_values, slot, p->dtype, j < cnt ? drtopk_bits_at(v, h[j].pos, p->dtype) : 0);
            out_indices[slot] = j < cnt ? h[j].pos : DRTOPK_INDEX_NONE;
        }
    }
    return DRTOPK_OK;
}
