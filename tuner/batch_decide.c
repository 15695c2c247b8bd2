/*
 * batch_decide.c -- the batched top-k's crossovers from measurements (tuner
 * --batch, the per-segment algorithms of paper sections 4-5 and
 * the batching of the WarpSelect talk): which plan field each crossover sets,
 * the two candidates it weighs, and the rule that turns a GPU's rows of
 * table batch_measurements into the values of its drtopk_batch_plan.
 *
 * A workload is compared when both candidates were measured on it.  A value
 * of a field routes a workload to the admitted candidate (the one the value
 * lets in) when its axis value is at most the field's value (the warp queue:
 * k <= warp_max_k and len <= warp_max_len), else to the other; the value's
 * slowdown there is the routed candidate's median over the faster one's.
 * As the single top-k's tuner does (decide.c), each crossover takes the value
 * whose worst slowdown over all its compared workloads (every dtype, segment
 * kind, row count, length and k) is least, among the swept values, the
 * value that turns the admitted candidate off and the default; the default
 * stays unless a value beats its worst slowdown by more than DECIDE_MARGIN.
 * The register select and the batched radix select decide a field per key
 * width (keys of at most 4 bytes, keys of 8: the plan's _64 fields) from the
 * rows of that width.  A variable-length workload counts as routed by its longest segment; a
 * value between its shortest and longest was not measured (the candidates
 * run whole workloads).  The decision is only as fine as the swept grid.  No
 * I/O: the unit tests drive it with rows of their own.
 */
#include "batch_decide.h"

#include <stdlib.h>
#include <string.h>

#include "options.h"

const char *const batch_field_names[BATCH_FIELD_COUNT] = {
    "tiny_max_k", "warp_max_k", "warp_max_len", "staged_max_len", "block_max_len", "tiny_max_k_64",
    "block_max_len_64", "filter_min_len",
};

/* Split by key width where the H200's rows (db/reference/h200-d7820bc7.sql.gz)
 * cross over at different values: the register select (f32 wins to k = 16,
 * u64 rows of 64 keys lose from k = 1) and the batched radix select against
 * the row-by-row pipeline (u64 wins at 2^22 keys, f32 loses there at k =
 * 1024); the warp queue and the staged select cross alike at both widths.
 * The filter select (keys of at most 32 bits) takes segments longer than
 * filter_min_len: the radix selects are the candidate its value admits. */
const batch_crossover batch_crossovers[BATCH_CROSSOVER_COUNT] = {
    { BATCH_TINY_MAX_K, BATCH_TINY_MAX_K, BATCH_WIDTH_32, "tiny", "staged", BATCH_AXIS_K },
    { BATCH_TINY_MAX_K_64, BATCH_TINY_MAX_K, BATCH_WIDTH_64, "tiny", "staged", BATCH_AXIS_K },
    { BATCH_WARP_MAX_K, BATCH_WARP_MAX_K, BATCH_WIDTH_ANY, "warp", "staged", BATCH_AXIS_K }, /* decides warp_max_len too */
    { BATCH_STAGED_MAX_LEN, BATCH_STAGED_MAX_LEN, BATCH_WIDTH_ANY, "staged", "split", BATCH_AXIS_LEN },
    { BATCH_BLOCK_MAX_LEN, BATCH_BLOCK_MAX_LEN, BATCH_WIDTH_32, "batched", "pipeline", BATCH_AXIS_LEN },
    { BATCH_BLOCK_MAX_LEN_64, BATCH_BLOCK_MAX_LEN, BATCH_WIDTH_64, "batched", "pipeline", BATCH_AXIS_LEN },
    { BATCH_FILTER_MIN_LEN, BATCH_FILTER_MIN_LEN, BATCH_WIDTH_32, "radix", "filter", BATCH_AXIS_LEN },
};

uint64_t *batch_field(drtopk_batch_plan *plan, int field)
{
    switch (field) {
    case BATCH_TINY_MAX_K: return &plan->tiny_max_k;
    case BATCH_WARP_MAX_K: return &plan->warp_max_k;
    case BATCH_WARP_MAX_LEN: return &plan->warp_max_len;
    case BATCH_STAGED_MAX_LEN: return &plan->staged_max_len;
    case BATCH_TINY_MAX_K_64: return &plan->tiny_max_k_64;
    case BATCH_BLOCK_MAX_LEN_64: return &plan->block_max_len_64;
    case BATCH_FILTER_MIN_LEN: return &plan->filter_min_len;
    default: return &plan->block_max_len;
    }
}

int batch_field_of(const char *name)
{
    for (int f = 0; f < BATCH_FIELD_COUNT; ++f)
        if (!strcmp(batch_field_names[f], name))
            return f;
    return -1;
}

typedef struct {
    uint64_t k, len;
    double admitted_ms, other_ms;
} point;

static int same_workload(const dh_store_batch_key *x, const dh_store_batch_key *y)
{
    return !strcmp(x->crossover, y->crossover) && !strcmp(x->dtype, y->dtype) && !strcmp(x->segs, y->segs) &&
           x->seed == y->seed && x->rows == y->rows && x->len == y->len && x->k == y->k;
}

/* Does a row of dtype `name` count for width class w?  (A dtype this tuner
 * does not know counts nowhere.) */
static int of_width(const char *name, batch_width w)
{
    drtopk_dtype t;
    if (drtopk_dtype_parse(name, &t) != DRTOPK_OK) return 0;
    return w == BATCH_WIDTH_ANY || (w == BATCH_WIDTH_64) == drtopk_batch_wide_keys(t);
}

/* The compared workloads of crossover c into pts (room for n); their count. */
static size_t points_of(const batch_crossover *c, const dh_store_batch_row *rows, size_t n, point *pts)
{
    size_t np = 0;
    for (size_t i = 0; i < n; ++i) {
        const dh_store_batch_row *a = &rows[i];
        if (!a->ok || strcmp(a->key.crossover, batch_field_names[c->measured]) ||
            strcmp(a->key.candidate, c->admitted) || !of_width(a->key.dtype, c->width))
            continue;
        for (size_t j = 0; j < n; ++j) {
            const dh_store_batch_row *b = &rows[j];
            if (b->ok && !strcmp(b->key.candidate, c->other) && same_workload(&a->key, &b->key)) {
                pts[np++] = (point){ a->key.k, a->key.len, a->median_ms, b->median_ms };
                break;
            }
        }
    }
    return np;
}

/* The worst slowdown over pts of the routing that admits k <= kmax and
 * len <= lmax. */
static double worst_slowdown(const point *pts, size_t np, uint64_t kmax, uint64_t lmax)
{
    double worst = 1.0;
    for (size_t i = 0; i < np; ++i) {
        const point *p = &pts[i];
        const double best = p->admitted_ms < p->other_ms ? p->admitted_ms : p->other_ms;
        const double routed = p->k <= kmax && p->len <= lmax ? p->admitted_ms : p->other_ms;
        if (best > 0 && routed / best > worst)
            worst = routed / best;
    }
    return worst;
}

/* The value a field can hold nearest to v (the plan checks of batch.c). */
static uint64_t clamp_value(int field, uint64_t v)
{
    switch (field) {
    case BATCH_TINY_MAX_K:
    case BATCH_TINY_MAX_K_64: return v > DRTOPK_BATCH_TINY_K_MAX ? DRTOPK_BATCH_TINY_K_MAX : v;
    case BATCH_WARP_MAX_K: return v > DRTOPK_WARP_K_MAX ? DRTOPK_WARP_K_MAX : v;
    case BATCH_STAGED_MAX_LEN: return v > DRTOPK_BATCH_STAGED_MAX_LEN ? DRTOPK_BATCH_STAGED_MAX_LEN : v ? v : 1;
    case BATCH_FILTER_MIN_LEN: return v ? v : 1;       /* 0 would turn the filter select off, not on everywhere */
    default: return v;
    }
}

/* The candidate values of field along one axis into vals (room for np + 2):
 * the value that admits nothing (k 0; one short of the shortest length),
 * every swept value and the default, held values, ascending, each once; their
 * count. */
static size_t values_of(const point *pts, size_t np, int field, batch_axis axis, uint64_t dflt, uint64_t *vals)
{
    uint64_t smallest = UINT64_MAX;
    size_t nv = 0;
    for (size_t i = 0; i < np; ++i) {
        const uint64_t x = axis == BATCH_AXIS_K ? pts[i].k : pts[i].len;
        if (x < smallest) smallest = x;
        vals[nv++] = x;
    }
    vals[nv++] = axis == BATCH_AXIS_K ? 0 : smallest - 1;
    vals[nv++] = dflt;
    for (size_t i = 0; i < nv; ++i)     /* nv is small (the swept grid): insertion sort, held values */
        for (size_t j = i; j > 0 && vals[j - 1] > vals[j]; --j) {
            const uint64_t t = vals[j];
            vals[j] = vals[j - 1];
            vals[j - 1] = t;
        }
    size_t out = 0;
    for (size_t i = 0; i < nv; ++i) {
        const uint64_t v = clamp_value(field, vals[i]);
        if (out == 0 || vals[out - 1] != v) vals[out++] = v;
    }
    return out;
}

int batch_decide(const dh_store_batch_row *rows, size_t n, drtopk_batch_plan *plan,
                 batch_outcome out[BATCH_FIELD_COUNT])
{
    point *pts = malloc((n ? n : 1) * sizeof *pts);
    uint64_t *kv = malloc((n + 2) * sizeof *kv), *lv = malloc((n + 2) * sizeof *lv);
    if (!pts || !kv || !lv) {
        free(pts);
        free(kv);
        free(lv);
        return -1;
    }
    memset(out, 0, BATCH_FIELD_COUNT * sizeof *out);
    for (int c = 0; c < BATCH_CROSSOVER_COUNT; ++c) {
        const batch_crossover *x = &batch_crossovers[c];
        const size_t np = points_of(x, rows, n, pts);
        if (np == 0)
            continue;
        /* the k limit and the length limit of the routing: the warp queue
         * has both, a one-axis crossover the one of its axis */
        const int warp = x->field == BATCH_WARP_MAX_K;
        const int kfield = warp || x->axis == BATCH_AXIS_K ? x->field : -1;
        const int lfield = warp ? BATCH_WARP_MAX_LEN : x->axis == BATCH_AXIS_LEN ? x->field : -1;
        const uint64_t dk = kfield < 0 ? UINT64_MAX : *batch_field(plan, kfield);
        const uint64_t dl = lfield < 0 ? UINT64_MAX : *batch_field(plan, lfield);
        const size_t nk = kfield < 0 ? 1 : values_of(pts, np, kfield, BATCH_AXIS_K, dk, kv);
        const size_t nl = lfield < 0 ? 1 : values_of(pts, np, lfield, BATCH_AXIS_LEN, dl, lv);
        if (kfield < 0) kv[0] = UINT64_MAX;
        if (lfield < 0) lv[0] = UINT64_MAX;
        const double dflt = worst_slowdown(pts, np, dk, dl);
        uint64_t bk = dk, bl = dl;
        double best = dflt;
        for (size_t i = 0; i < nk; ++i)
            for (size_t j = 0; j < nl; ++j) {
                const double w = worst_slowdown(pts, np, kv[i], lv[j]);
                if (w * (1.0 + DECIDE_MARGIN) < dflt && w < best) {
                    best = w;
                    bk = kv[i];
                    bl = lv[j];
                }
            }
        if (warp && bk == 0)
            bl = dl;    /* with the queue off its length limit stays as it was */
        if (kfield >= 0) {
            *batch_field(plan, kfield) = bk;
            out[kfield] = (batch_outcome){ (int)np, best, dflt };
        }
        if (lfield >= 0 && !(warp && bk == 0)) {
            *batch_field(plan, lfield) = bl;
            out[lfield] = (batch_outcome){ (int)np, best, dflt };
        }
    }
    free(pts);
    free(kv);
    free(lv);
    return 0;
}
