/*
 * fit.c -- the tuner's fits (paper section 5.2): Rule 4's const from measured
 * timings (least time lost against the oracle alpha, and least squares on the
 * oracle alpha), Eq. 11's theoretical const, and the per-k-range choice of
 * algorithm and beta.  Rule 4's alpha comes from drtopk_rule4_alpha, so the
 * fit rounds and clamps exactly as drtopk_plan_auto does.
 */
#include "fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "drtopk.h"

/* Rule 4's const is searched on this grid: alpha moves by one for every 2
 * units of const, and +-8 around the paper's 3 spans every alpha a +-3 sweep
 * (or Figure 13's range) can cover. */
#define CONST_GRID_MIN (-5.0)
#define CONST_GRID_MAX 11.0
#define CONST_GRID_STEP (1.0 / 32)
#define LOSS_EPS 1e-9                   /* losses this close are equal     */
#define LOG2K_LIMIT 63                  /* choices tile floor(log2 k) in [0, 63] */

size_t drtopk_fit_keep_swept(drtopk_fit_sample *s, size_t count, int min_alphas)
{
    size_t kept = 0;
    for (size_t i = 0; i < count; ++i) {
        uint64_t alphas = 0;    /* bit a: alpha a measured (alpha <= DRTOPK_ALPHA_MAX < 64) */
        int distinct = 0;
        for (size_t j = 0; j < count && s[i].alpha != 0; ++j)
            if (s[j].group == s[i].group && s[j].variant == s[i].variant)
                alphas |= 1ull << (s[j].alpha & 63);
        for (; alphas; alphas &= alphas - 1) ++distinct;
        if (s[i].alpha == 0 || distinct >= min_alphas) s[kept++] = s[i];
    }
    return kept;
}

double drtopk_fit_theory_const(double c_global, double c_shfl)
{
    return log2(6.0 * c_global + 31.0 * c_shfl) - log2(6.0 * c_global);
}

double drtopk_fit_time_at(const drtopk_fit_sample *s, size_t count, int group, int alpha, int *exact)
{
    double t = INFINITY;
    int best_d = -1, best_a = 0;
    for (size_t i = 0; i < count; ++i) {
        if (s[i].group != group)
            continue;
        int d = abs(s[i].alpha - alpha);
        if (best_d < 0 || d < best_d || (d == best_d && s[i].alpha < best_a)) {
            best_d = d;
            best_a = s[i].alpha;
            t = s[i].ms;
        }
    }
    if (exact)
        *exact = best_d == 0;
    return t;
}

typedef struct {
    int group;
    uint64_t n, k;
    int alpha_star;
    double t_star;
    size_t first, count;    /* its samples in the sorted copy */
} group_info;

static int by_group_alpha(const void *a, const void *b)
{
    const drtopk_fit_sample *x = a, *y = b;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    return (x->alpha > y->alpha) - (x->alpha < y->alpha);
}

/* Sorted copy of the samples and one group_info per group. */
static int index_groups(const drtopk_fit_sample *s, size_t count, drtopk_fit_sample **sorted,
                        group_info **groups, size_t *ngroups)
{
    *sorted = malloc(count * sizeof **sorted);
    *groups = malloc(count * sizeof **groups);
    if (!*sorted || !*groups) {
        free(*sorted);
        free(*groups);
        return -1;
    }
    memcpy(*sorted, s, count * sizeof *s);
    qsort(*sorted, count, sizeof **sorted, by_group_alpha);
    size_t g = 0;
    for (size_t i = 0; i < count; ++i) {
        const drtopk_fit_sample *x = &(*sorted)[i];
        if (i == 0 || x->group != (*groups)[g - 1].group) {
            (*groups)[g++] = (group_info){ .group = x->group, .n = x->n, .k = x->k,
                                           .alpha_star = x->alpha, .t_star = x->ms,
                                           .first = i, .count = 0 };
        }
        group_info *gi = &(*groups)[g - 1];
        gi->count++;
        if (x->ms < gi->t_star) {
            gi->t_star = x->ms;
            gi->alpha_star = x->alpha;
        }
    }
    *ngroups = g;
    return 0;
}

typedef struct {
    double lost, mean, worst;
    int uncovered;
} loss_at;

static loss_at evaluate(const drtopk_fit_sample *sorted, const group_info *g, size_t ng, double c)
{
    loss_at r = { 0, 0, 1, 0 };
    for (size_t i = 0; i < ng; ++i) {
        int exact;
        int a = drtopk_rule4_alpha(g[i].n, g[i].k, c);
        double t = drtopk_fit_time_at(sorted + g[i].first, g[i].count, g[i].group, a, &exact);
        double slow = t / g[i].t_star;
        r.uncovered += !exact;
        r.lost += t - g[i].t_star;
        r.mean += slow;
        if (slow > r.worst)
            r.worst = slow;
    }
    r.mean /= (double)ng;
    return r;
}

/* a better than b: fewer uncovered groups, then less time lost. */
static int better(loss_at a, loss_at b)
{
    if (a.uncovered != b.uncovered)
        return a.uncovered < b.uncovered;
    return a.lost < b.lost - LOSS_EPS;
}

static int same(loss_at a, loss_at b)
{
    return a.uncovered == b.uncovered && fabs(a.lost - b.lost) <= LOSS_EPS;
}

int drtopk_fit_rule4(const drtopk_fit_sample *s, size_t count, drtopk_fit_result *out)
{
    if (!s || !count || !out)
        return -1;
    drtopk_fit_sample *sorted;
    group_info *g;
    size_t ng;
    if (index_groups(s, count, &sorted, &g, &ng) != 0)
        return -1;

    double lsq = 0;
    for (size_t i = 0; i < ng; ++i)
        lsq += 2.0 * g[i].alpha_star - log2((double)g[i].n) + log2((double)g[i].k);
    out->const_lsq = lsq / (double)ng;

    /* Loss is piecewise constant in c; take the middle of the best run of
     * grid points (of several equally good runs, the one nearest the paper's
     * const) so the fit sits away from rounding edges. */
    int steps = (int)lround((CONST_GRID_MAX - CONST_GRID_MIN) / CONST_GRID_STEP);
    loss_at *grid = malloc((size_t)(steps + 1) * sizeof *grid);
    if (!grid) {
        free(sorted);
        free(g);
        return -1;
    }
    int best_i = 0;
    for (int i = 0; i <= steps; ++i) {
        grid[i] = evaluate(sorted, g, ng, CONST_GRID_MIN + i * CONST_GRID_STEP);
        if (better(grid[i], grid[best_i]))
            best_i = i;
    }
    double best_c = CONST_GRID_MIN + best_i * CONST_GRID_STEP;
    for (int i = 0; i <= steps;) {
        if (!same(grid[i], grid[best_i])) {
            ++i;
            continue;
        }
        int j = i;
        while (j + 1 <= steps && same(grid[j + 1], grid[best_i]))
            ++j;
        double mid = CONST_GRID_MIN + (i + 0.5 * (j - i + 1)) * CONST_GRID_STEP;  /* [c_i, c_j + step) */
        if (i == best_i || fabs(mid - DRTOPK_RULE4_CONST_DEFAULT) < fabs(best_c - DRTOPK_RULE4_CONST_DEFAULT))
            best_c = mid;
        i = j + 1;
    }
    free(grid);
    loss_at fin = evaluate(sorted, g, ng, best_c);
    out->const_time = best_c;
    out->mean_slowdown = fin.mean;
    out->worst_slowdown = fin.worst;
    out->lost_ms = fin.lost;
    out->uncovered = fin.uncovered;
    out->points = (int)ng;
    free(sorted);
    free(g);
    return 0;
}

static int floor_log2(uint64_t x)
{
    int l = -1;
    while (x) {
        x >>= 1;
        ++l;
    }
    return l;
}

int drtopk_fit_choices(const drtopk_fit_sample *s, size_t count, const double *consts,
                       int variants, drtopk_fit_choice *out, int max)
{
    if (!s || !count || !consts || variants <= 0 || !out || max <= 0)
        return -1;
    drtopk_fit_sample *sorted;
    group_info *g;
    size_t ng;
    if (index_groups(s, count, &sorted, &g, &ng) != 0)
        return -1;
    int nchoice = 0;
    for (int lk = 0; lk <= LOG2K_LIMIT && nchoice < max; ++lk) {
        int groups_here = 0;
        for (size_t i = 0; i < ng; ++i)
            groups_here += floor_log2(g[i].k) == lk;
        if (!groups_here)
            continue;
        int best_v = -1, best_pts = 0;
        double best_mean = INFINITY;
        for (int v = 0; v < variants; ++v) {
            double sum = 0;
            int pts = 0, complete = 1;
            for (size_t i = 0; i < ng && complete; ++i) {
                if (floor_log2(g[i].k) != lk)
                    continue;
                /* This variant's samples of the group. */
                const drtopk_fit_sample *gs = sorted + g[i].first;
                int has = 0, standalone = 0;
                for (size_t j = 0; j < g[i].count; ++j) {
                    if (gs[j].variant == v) {
                        has = 1;
                        standalone = gs[j].alpha == 0;
                    }
                }
                if (!has) {
                    complete = 0;
                    break;
                }
                int a = standalone ? 0 : drtopk_rule4_alpha(g[i].n, g[i].k, consts[v]);
                double t = INFINITY;
                int best_d = -1;
                for (size_t j = 0; j < g[i].count; ++j) {
                    if (gs[j].variant != v)
                        continue;
                    int d = abs(gs[j].alpha - a);
                    if (best_d < 0 || d < best_d) {
                        best_d = d;
                        t = gs[j].ms;
                    }
                }
                sum += t / g[i].t_star;
                ++pts;
            }
            if (complete && pts && sum / pts < best_mean) {
                best_mean = sum / pts;
                best_v = v;
                best_pts = pts;
            }
        }
        if (best_v < 0)
            continue;
        if (nchoice > 0)
            out[nchoice - 1].log2k_max = lk - 1;
        out[nchoice] = (drtopk_fit_choice){ .log2k_min = nchoice == 0 ? 0 : lk,
                                            .log2k_max = LOG2K_LIMIT, .variant = best_v,
                                            .mean_slowdown = best_mean, .points = best_pts };
        ++nchoice;
    }
    free(sorted);
    free(g);
    return nchoice;
}
