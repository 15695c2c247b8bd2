/*
 * batch_check.c -- dh_batch_check (batch_check.h): every segment of a
 * batched result checked by dh_check (exact O(len) counting, no sort),
 * its padding slots and, when sorted, its order; dh_batch_timed, one
 * timed call by either method of util.h's dh_timing.
 */
#include "batch_check.h"
#include "device.h"
#include "keyorder.h"

#include <inttypes.h>
#include <stdio.h>

uint64_t dh_batch_segment_k(const drtopk_batch_problem *p, uint64_t s, uint64_t *start, uint64_t *len)
{
    *start = p->offsets ? p->offsets[s] : s * p->len;
    *len = p->offsets ? (p->offsets[s + 1] > *start ? p->offsets[s + 1] - *start : 0) : p->len;
    uint64_t ks = p->ks ? p->ks[s] : p->k;
    if (ks > p->k) ks = p->k;
    return ks < *len ? ks : *len;
}

dh_check_result dh_batch_check(const drtopk_batch_problem *p, int sorted, const void *values,
                               const uint64_t *indices)
{
    dh_check_result r = { 1, "" };
    const size_t esize = drtopk_dtype_size(p->dtype);
    for (uint64_t s = 0; s < p->segments; ++s) {
        uint64_t start, len;
        const uint64_t ks = dh_batch_segment_k(p, s, &start, &len);
        const void *vals = (const char *)values + s * p->k * esize;
        const uint64_t *idx = indices + s * p->k;
        for (uint64_t j = ks; j < p->k; ++j) {
            if (idx[j] != DRTOPK_INDEX_NONE || drtopk_bits_at(vals, j, p->dtype) != 0) {
                snprintf(r.why, sizeof r.why, "segment %" PRIu64 " (length %" PRIu64 ", k_s %" PRIu64
                         "): slot %" PRIu64 " is not padding (index %" PRIu64 ")", s, len, ks, j, idx[j]);
                r.ok = 0;
                return r;
            }
        }
        if (ks == 0) continue;
        drtopk_problem sp = { DRTOPK_BACKEND_CPU, p->dtype, p->order, len, ks,
                              (const char *)p->values + start * esize };
        r = dh_check(&sp, vals, idx, NULL);
        for (uint64_t j = 1; r.ok && sorted && j < ks; ++j) {
            if (drtopk_key_at(vals, j, p->dtype, p->order) > drtopk_key_at(vals, j - 1, p->dtype, p->order)) {
                snprintf(r.why, sizeof r.why, "not best first at slot %" PRIu64, j);
                r.ok = 0;
            }
        }
        if (!r.ok) {
            char why[sizeof r.why];
            snprintf(why, sizeof why, "segment %" PRIu64 " (length %" PRIu64 ", k_s %" PRIu64 "): %.160s", s, len, ks,
                     r.why);
            snprintf(r.why, sizeof r.why, "%s", why);
            return r;
        }
    }
    return r;
}

/* dh_dev_time_held's call: the select of a batch (batch non-NULL) or of
 * one vector, enqueue only. */
typedef struct {
    const drtopk_batch_problem *batch;
    const drtopk_batch_plan *batch_plan;
    const drtopk_problem *p;
    const drtopk_plan *plan;
    void *ws, *out_values;
    size_t ws_bytes;
    uint64_t *out_indices;
} held_call;

static drtopk_status enqueue_select(void *ctx)
{
    const held_call *c = ctx;
    return c->batch ? drtopk_batch_select(c->batch, c->batch_plan, c->ws, c->ws_bytes, c->out_values,
                                          c->out_indices, NULL)
                    : drtopk_select(c->p, c->plan, c->ws, c->ws_bytes, c->out_values, c->out_indices, NULL, NULL);
}

drtopk_status dh_select_held(const drtopk_problem *p, const drtopk_plan *plan, void *ws, size_t ws_bytes,
                             void *out_values, uint64_t *out_indices, double *ms, double *enqueue_ms, int *primed)
{
    held_call c = { NULL, NULL, p, plan, ws, out_values, ws_bytes, out_indices };
    return dh_dev_time_held(enqueue_select, &c, ms, enqueue_ms, primed);
}

drtopk_status dh_batch_timed(const drtopk_batch_problem *p, const drtopk_batch_plan *plan, void *ws,
                             size_t ws_bytes, void *out_values, uint64_t *out_indices, dh_timing timing,
                             double *ms, double *enqueue_ms, int *unprimed)
{
    const int cuda = p->backend == DRTOPK_BACKEND_CUDA;
    if (cuda && timing == DRTOPK_TIMING_GPU) {
        held_call c = { p, plan, NULL, NULL, ws, out_values, ws_bytes, out_indices };
        int primed = 0;
        const drtopk_status st = dh_dev_time_held(enqueue_select, &c, ms, enqueue_ms, &primed);
        if (st == DRTOPK_OK && !primed) ++*unprimed;
        return st;
    }
    const double t0 = dh_now_ms();
    drtopk_status st = drtopk_batch_select(p, plan, ws, ws_bytes, out_values, out_indices, NULL);
    if (enqueue_ms) *enqueue_ms = dh_now_ms() - t0;
    if (st == DRTOPK_OK && cuda) st = dh_dev_sync();
    *ms = dh_now_ms() - t0;
    return st;
}
