/*
 * heldout.c -- where the tuner checks a cell of its decision table off the
 * grid point that chose it (paper section 5.2).  A cell stands for every
 * (n, k) in its ranges, but it changes the plan only where the size rules
 * would run another one; a held-out point where the two agree measures
 * nothing.  So each point is the first of a few candidates, all off the
 * sweep's grid, at which the cell acts.
 */
#include "heldout.h"

#include "util.h"

#define HELDOUT_N_NUM 3         /* the middle's n = 3/2 of the grid point's:  */
#define HELDOUT_N_DEN 2         /* the same floor(log2 n), not a power of two */
#define HELDOUT_N_MISALIGN 3    /* ... plus 3: not a whole number of 16-byte
                                   vectors, so the tail paths run too (the
                                   H100 showed alpha 5 at 2^28 + 3 2.4x slower
                                   than at 2^28)                               */
#define HELDOUT_CORNER_BELOW 5  /* the far corner: this many keys below the
                                   cell's end in n, odd so not whole vectors   */
#define CANDIDATES_MAX 3        /* the middle's three candidates               */

int plans_equal(const drtopk_plan *a, const drtopk_plan *b)
{
    return a->alpha == b->alpha && a->beta == b->beta && a->flags == b->flags && a->first_algo == b->first_algo &&
           a->second_algo == b->second_algo;
}

int cell_acts_at(drtopk_backend b, drtopk_dtype t, const dh_store_choice *c, uint64_t n, uint64_t k)
{
    drtopk_tuning_entry e;
    if (!dh_store_choice_entry(t, c, &e))
        return 0;
    const drtopk_tuning table = { .gpu_name = "held-out check", .entries = &e, .count = 1 };
    const drtopk_problem p = { .backend = b, .dtype = t, .n = n, .k = k };
    drtopk_plan tuned, deflt;
    if (drtopk_plan_auto(&tuned, &p, &table) != DRTOPK_OK || tuned.const_source != DRTOPK_CONST_TUNING ||
        drtopk_plan_size_rules(&deflt, &p) != DRTOPK_OK)
        return 0;       /* outside the cell (or a problem the library refuses) */
    return !plans_equal(&tuned, &deflt);
}

/* The first of count candidates at which the cell acts, else the first. */
static void first_acting(drtopk_backend b, drtopk_dtype t, const dh_store_choice *c, const uint64_t *cn,
                         const uint64_t *ck, int count, uint64_t *n, uint64_t *k)
{
    int pick = 0;
    for (int i = 0; i < count; ++i)
        if (cell_acts_at(b, t, c, cn[i], ck[i])) {
            pick = i;
            break;
        }
    *n = cn[pick];
    *k = ck[pick];
}

int heldout_points(drtopk_backend b, drtopk_dtype t, const dh_store_choice *c, uint64_t grid_n, uint64_t grid_k,
                   uint64_t n_max, uint64_t n[HELDOUT_POINTS_MAX], uint64_t k[HELDOUT_POINTS_MAX])
{
    uint64_t cn[CANDIDATES_MAX], ck[CANDIDATES_MAX];
    int count = 0;
    /* the middle: n 3/2 of the grid's (misaligned), k doubled where the cell reaches that far */
    const uint64_t mid_n = grid_n / HELDOUT_N_DEN * HELDOUT_N_NUM + grid_n % HELDOUT_N_DEN + HELDOUT_N_MISALIGN;
    const uint64_t half_k = grid_k + grid_k / 2;
    uint64_t mid_k = dh_ilog2_floor(grid_k * 2) > c->log2k_max ? half_k : grid_k * 2;
    if (mid_k > mid_n / 2)
        mid_k = grid_k;
    cn[count] = mid_n, ck[count++] = mid_k;
    if (mid_k != grid_k)
        cn[count] = mid_n, ck[count++] = grid_k;
    if (half_k != grid_k && half_k <= grid_n / 2)
        cn[count] = grid_n, ck[count++] = half_k;
    first_acting(b, t, c, cn, ck, count, &n[0], &k[0]);

    /* the far corner, below the sweep's largest n and past the middle */
    uint64_t corner_n = c->log2n_max + 1 < 64 ? (1ull << (c->log2n_max + 1)) - HELDOUT_CORNER_BELOW : n_max;
    if (corner_n > n_max)
        corner_n = n_max;
    if (corner_n <= mid_n)
        return 1;
    uint64_t corner_k = c->log2k_max + 1 < 64 ? (1ull << (c->log2k_max + 1)) - 1 : corner_n / 2;
    if (corner_k > corner_n / 2)
        corner_k = corner_n / 2 > grid_k ? corner_n / 2 : grid_k;
    count = 0;
    cn[count] = corner_n, ck[count++] = corner_k;
    if (corner_k != grid_k)
        cn[count] = corner_n, ck[count++] = grid_k;
    first_acting(b, t, c, cn, ck, count, &n[1], &k[1]);
    return 2;
}
