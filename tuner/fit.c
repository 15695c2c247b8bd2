/*
 * fit.c -- the tuner's fits (paper section 5.2): Rule 4's const from measured
 * timings (least time lost against the oracle alpha, and least squares on the
 * oracle alpha), Eq. 11's theoretical const, and the decision table over
 * (log2 n, log2 k) that minimises the worst slowdown over the input
 * distributions, with the noise test of its held-out check.  Rule 4's alpha comes from drtopk_rule4_alpha, so the
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

static int cmp_sample_point(const void *pa, const void *pb)
{
    const drtopk_fit_sample *a = pa, *b = pb;
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    if (a->k != b->k) return a->k < b->k ? -1 : 1;
    if (a->variant != b->variant) return a->variant < b->variant ? -1 : 1;
    if (a->alpha != b->alpha) return a->alpha < b->alpha ? -1 : 1;
    return (a->dist > b->dist) - (a->dist < b->dist);
}

/* Decide one point: samples p[0..np) share (n, k), sorted by variant, alpha. */
static void decide_point(const drtopk_fit_sample *p, size_t np, const drtopk_fit_default *dflt,
                         const unsigned char *standalone, drtopk_fit_decision *out)
{
    int dflt_variant = -1, dflt_alpha = -1;
    if (dflt && dflt->plan_at && !dflt->plan_at(dflt->ctx, p[0].n, p[0].k, &dflt_variant, &dflt_alpha))
        dflt_variant = -1;
    double dflt_worst = INFINITY, dflt_mean = INFINITY;
    enum { MAX_DISTS = 64 };        /* distributions of one point (bit set)  */
    double best[MAX_DISTS];
    uint64_t dists = 0;
    for (int d = 0; d < MAX_DISTS; ++d) best[d] = INFINITY;
    for (size_t i = 0; i < np; ++i) {
        int d = p[i].dist & (MAX_DISTS - 1);
        dists |= 1ull << d;
        if (p[i].ms < best[d]) best[d] = p[i].ms;
    }
    int ndists = 0;
    for (uint64_t b = dists; b; b &= b - 1) ++ndists;
    *out = (drtopk_fit_decision){ .n = p[0].n, .k = p[0].k, .variant = -1, .worst_slowdown = INFINITY,
                                  .mean_slowdown = INFINITY, .dists = ndists };
    for (size_t i = 0; i < np;) {
        size_t j = i;
        uint64_t seen = 0;
        double worst = 0, sum = 0;
        for (; j < np && p[j].variant == p[i].variant && p[j].alpha == p[i].alpha; ++j) {
            int d = p[j].dist & (MAX_DISTS - 1);
            if (seen >> d & 1) continue;        /* a repeat: the first stands */
            seen |= 1ull << d;
            double slow = p[j].ms / best[d];
            sum += slow;
            if (slow > worst) worst = slow;
        }
        const int candidate = p[i].alpha > 0 || (standalone && standalone[p[i].variant]);
        if (seen == dists && (candidate || (p[i].variant == dflt_variant && p[i].alpha == dflt_alpha))) {
            double mean = sum / ndists;
            if (p[i].variant == dflt_variant && p[i].alpha == dflt_alpha) {
                dflt_worst = worst;
                dflt_mean = mean;
            }
            if (candidate && (worst < out->worst_slowdown - LOSS_EPS ||
                              (worst < out->worst_slowdown + LOSS_EPS && mean < out->mean_slowdown - LOSS_EPS))) {
                out->variant = p[i].variant;
                out->alpha = p[i].alpha;
                out->worst_slowdown = worst;
                out->mean_slowdown = mean;
            }
        }
        i = j;
    }
    if (isfinite(dflt_worst) && !(out->worst_slowdown * (1.0 + dflt->margin) < dflt_worst)) {
        out->variant = dflt_variant;
        out->alpha = dflt_alpha;
        out->worst_slowdown = dflt_worst;
        out->mean_slowdown = dflt_mean;
        out->is_default = 1;
    }
}

int drtopk_fit_decide(const drtopk_fit_sample *s, size_t count, const drtopk_fit_default *dflt,
                      const unsigned char *standalone, drtopk_fit_decision *out, int max)
{
    if (!s || !out || max < 0)
        return -1;
    drtopk_fit_sample *t = malloc((count ? count : 1) * sizeof *t);
    if (!t)
        return -1;
    memcpy(t, s, count * sizeof *t);
    qsort(t, count, sizeof *t, cmp_sample_point);
    int nd = 0;
    for (size_t i = 0; i < count;) {
        size_t j = i;
        while (j < count && t[j].n == t[i].n && t[j].k == t[i].k) ++j;
        drtopk_fit_decision d;
        decide_point(t + i, j - i, dflt, standalone, &d);
        if (d.variant >= 0) {
            if (nd == max) {
                free(t);
                return -1;
            }
            out[nd++] = d;
        }
        i = j;
    }
    free(t);
    return nd;
}

/* The upper end of grid value g's range among the sorted distinct grid[0..n):
 * up to the next one minus one, the last as far on as the gap before it. */
static int range_end(const int *grid, int n, int g)
{
    for (int i = 0; i + 1 < n; ++i)
        if (grid[i] == g) return grid[i + 1] - 1;
    return n > 1 ? g + (grid[n - 1] - grid[n - 2]) - 1 : g;
}

static int add_distinct(int *grid, int n, int v)
{
    int i = 0;
    while (i < n && grid[i] < v) ++i;
    if (i < n && grid[i] == v) return n;
    memmove(grid + i + 1, grid + i, (size_t)(n - i) * sizeof *grid);
    grid[i] = v;
    return n + 1;
}

int drtopk_fit_cells(const drtopk_fit_decision *d, int count, drtopk_fit_cell *out)
{
    enum { LOG2_VALUES = 65 };      /* floor(log2 x) of a nonzero uint64: 0..63 */
    int gn[LOG2_VALUES], gk[LOG2_VALUES], nn = 0, nk = 0;
    if (!d || !out || count < 0)
        return -1;
    for (int i = 0; i < count; ++i) {
        nn = add_distinct(gn, nn, floor_log2(d[i].n));
        nk = add_distinct(gk, nk, floor_log2(d[i].k));
    }
    for (int i = 0; i < count; ++i) {
        int ln = floor_log2(d[i].n), lk = floor_log2(d[i].k);
        out[i] = (drtopk_fit_cell){ ln, range_end(gn, nn, ln), lk, range_end(gk, nk, lk),
                                    2.0 * d[i].alpha - log2((double)d[i].n) + log2((double)d[i].k) };
        for (int j = 0; j < i; ++j)
            if (floor_log2(d[j].n) == ln && floor_log2(d[j].k) == lk) {
                out[i].log2n_min = out[i].log2n_max + 1;     /* taken by j: empty */
                break;
            }
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double drtopk_fit_noise(const double *a, const double *b, int pairs, double quantile, double floor)
{
    if (pairs <= 0 || !a || !b)
        return floor;
    double *r = malloc((size_t)pairs * sizeof *r);
    if (!r)
        return floor;
    for (int i = 0; i < pairs; ++i) {
        double lo = a[i] < b[i] ? a[i] : b[i];
        r[i] = lo > 0 ? fabs(a[i] - b[i]) / lo : 0;
    }
    qsort(r, (size_t)pairs, sizeof *r, cmp_double);
    int at = (int)ceil(quantile * pairs) - 1;
    double q = r[at < 0 ? 0 : at >= pairs ? pairs - 1 : at];
    free(r);
    return q > floor ? q : floor;
}

int drtopk_fit_loses(const double tuned[2], const double deflt[2], double noise)
{
    double t = tuned[0] < tuned[1] ? tuned[0] : tuned[1];
    double d = deflt[0] < deflt[1] ? deflt[0] : deflt[1];
    return t > d * (1.0 + noise);
}
