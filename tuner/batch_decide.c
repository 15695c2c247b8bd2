/*
 * batch_decide.c -- the batched top-k's crossovers from measurements (tuner
 * --batch; issue 16, the per-segment algorithms of paper sections 4-5 and
 * the batching of the WarpSelect talk): which plan field each crossover sets,
 * the two candidates it weighs, and the rule that turns a GPU's rows of
 * table batch_measurements into the values of its drtopk_batch_plan.
 *
 * A workload is compared when both candidates were measured on it; the
 * admitted candidate (the one the field's value lets in) wins there when its
 * median is not above the other's.  A one-axis crossover (tiny_max_k,
 * staged_max_len, block_max_len) takes the largest swept value x such that
 * the admitted candidate wins at every workload with axis value <= x (every
 * dtype, row count and segment kind); the warp queue takes the rectangle
 * k <= warp_max_k, len <= warp_max_len covering the most workloads where it
 * wins at all of them.  The decision is only as fine as the swept grid.  No
 * I/O: the unit tests drive it with rows of their own.
 */
#include <stdlib.h>
#include <string.h>

#include "tuner.h"

const char *const batch_field_names[BATCH_FIELD_COUNT] = {
    "tiny_max_k", "warp_max_k", "warp_max_len", "staged_max_len", "block_max_len",
};

const batch_crossover batch_crossovers[BATCH_CROSSOVER_COUNT] = {
    { BATCH_TINY_MAX_K, "tiny", "staged", BATCH_AXIS_K },
    { BATCH_WARP_MAX_K, "warp", "staged", BATCH_AXIS_K },      /* decides warp_max_len too */
    { BATCH_STAGED_MAX_LEN, "staged", "split", BATCH_AXIS_LEN },
    { BATCH_BLOCK_MAX_LEN, "batched", "pipeline", BATCH_AXIS_LEN },
};

uint64_t *batch_field(drtopk_batch_plan *plan, int field)
{
    switch (field) {
    case BATCH_TINY_MAX_K: return &plan->tiny_max_k;
    case BATCH_WARP_MAX_K: return &plan->warp_max_k;
    case BATCH_WARP_MAX_LEN: return &plan->warp_max_len;
    case BATCH_STAGED_MAX_LEN: return &plan->staged_max_len;
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
    int a_wins;
} point;

static int same_workload(const drtopk_store_batch_key *x, const drtopk_store_batch_key *y)
{
    return !strcmp(x->crossover, y->crossover) && !strcmp(x->dtype, y->dtype) && !strcmp(x->segs, y->segs) &&
           x->seed == y->seed && x->rows == y->rows && x->len == y->len && x->k == y->k;
}

/* The compared workloads of crossover c into pts (room for n); their count. */
static size_t points_of(const batch_crossover *c, const drtopk_store_batch_row *rows, size_t n, point *pts)
{
    size_t np = 0;
    for (size_t i = 0; i < n; ++i) {
        const drtopk_store_batch_row *a = &rows[i];
        if (!a->ok || strcmp(a->key.crossover, batch_field_names[c->field]) || strcmp(a->key.candidate, c->admitted))
            continue;
        for (size_t j = 0; j < n; ++j) {
            const drtopk_store_batch_row *b = &rows[j];
            if (b->ok && !strcmp(b->key.candidate, c->other) && same_workload(&a->key, &b->key)) {
                pts[np++] = (point){ a->key.k, a->key.len, a->median_ms <= b->median_ms };
                break;
            }
        }
    }
    return np;
}

static uint64_t axis_of(const point *p, batch_axis axis) { return axis == BATCH_AXIS_K ? p->k : p->len; }

/* Wins the admitted candidate at every point with k <= kmax and len <= lmax?
 * *covered: how many such points. */
static int wins_below(const point *pts, size_t np, uint64_t kmax, uint64_t lmax, size_t *covered)
{
    *covered = 0;
    for (size_t i = 0; i < np; ++i)
        if (pts[i].k <= kmax && pts[i].len <= lmax) {
            if (!pts[i].a_wins)
                return 0;
            ++*covered;
        }
    return 1;
}

/* One axis: the largest x with a win at every point of axis value <= x;
 * `none` when the admitted candidate loses already at the smallest. */
static uint64_t decide_axis(const point *pts, size_t np, batch_axis axis, uint64_t none)
{
    uint64_t best = none;
    int found = 0;
    for (size_t i = 0; i < np; ++i) {
        const uint64_t x = axis_of(&pts[i], axis);
        size_t covered;
        if (found && x <= best)
            continue;
        if (axis == BATCH_AXIS_K ? wins_below(pts, np, x, UINT64_MAX, &covered)
                                 : wins_below(pts, np, UINT64_MAX, x, &covered)) {
            best = x;
            found = 1;
        }
    }
    return best;
}

int batch_decide(const drtopk_store_batch_row *rows, size_t n, drtopk_batch_plan *plan,
                 int points[BATCH_FIELD_COUNT])
{
    point *pts = malloc((n ? n : 1) * sizeof *pts);
    if (!pts)
        return -1;
    memset(points, 0, BATCH_FIELD_COUNT * sizeof *points);
    for (int c = 0; c < BATCH_CROSSOVER_COUNT; ++c) {
        const batch_crossover *x = &batch_crossovers[c];
        const size_t np = points_of(x, rows, n, pts);
        if (np == 0)
            continue;
        if (x->field == BATCH_WARP_MAX_K) {    /* the rectangle of the most covered wins */
            uint64_t bk = 0, bl = 0;
            size_t best = 0;
            for (size_t i = 0; i < np; ++i)
                for (size_t j = 0; j < np; ++j) {
                    size_t covered;
                    if (wins_below(pts, np, pts[i].k, pts[j].len, &covered) &&
                        (covered > best || (covered == best && covered > 0 && pts[i].k > bk))) {
                        best = covered;
                        bk = pts[i].k;
                        bl = pts[j].len;
                    }
                }
            plan->warp_max_k = bk > DRTOPK_WARP_K_MAX ? DRTOPK_WARP_K_MAX : bk;
            points[BATCH_WARP_MAX_K] = (int)np;
            if (best > 0) {     /* with the queue off its length limit stays as it was */
                plan->warp_max_len = bl;
                points[BATCH_WARP_MAX_LEN] = (int)np;
            }
            continue;
        }
        /* below the smallest swept value: k limits off, lengths one short of it */
        uint64_t smallest = UINT64_MAX;
        for (size_t i = 0; i < np; ++i)
            if (axis_of(&pts[i], x->axis) < smallest)
                smallest = axis_of(&pts[i], x->axis);
        const uint64_t none = x->axis == BATCH_AXIS_K ? 0 : smallest - 1;
        uint64_t v = decide_axis(pts, np, x->axis, none);
        if (x->field == BATCH_STAGED_MAX_LEN) {
            if (v > DRTOPK_BATCH_STAGED_MAX_LEN) v = DRTOPK_BATCH_STAGED_MAX_LEN;
            if (v == 0) v = 1;
        }
        *batch_field(plan, x->field) = v;
        points[x->field] = (int)np;
    }
    free(pts);
    return 0;
}
