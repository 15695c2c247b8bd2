/*
 * fit.h -- the tuner's fits (paper section 5.2, Rule 4 and Eq. 11): the
 * oracle alpha* per (dist, n, k), the Rule 4 const that loses the least total
 * time against it, the least-squares const on alpha*, the theoretical const
 * from microbenchmarked cycle counts, and the per-k-range plan choice.
 * Pure C on arrays of timings so that unit tests can feed synthetic data.
 */
#ifndef DRTOPK_FIT_H
#define DRTOPK_FIT_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One measured configuration.  `group` identifies its (dist, n, k) point and
 * `variant` its (algorithm, beta); alpha is 0 for standalone algorithms. */
typedef struct {
    int group;
    int variant;
    uint64_t n, k;
    int alpha;
    double ms;
    int dist;               /* which input distribution (the decision's axis) */
} drtopk_fit_sample;

typedef struct {
    double const_time;      /* least total ms lost by Rule 4's alpha vs alpha*   */
    double const_lsq;       /* mean of 2 alpha* - log2 n + log2 k                */
    double mean_slowdown;   /* of Rule 4 with const_time: mean of t(alpha)/t(alpha*) */
    double worst_slowdown;
    double lost_ms;         /* total ms lost with const_time                     */
    int points;             /* groups used                                       */
    int uncovered;          /* groups whose Rule 4 alpha was not measured (the
                               nearest measured alpha stood in)                  */
} drtopk_fit_result;

/* Fit Rule 4 on the samples of one variant.  Returns 0, or -1 when there is
 * no sample (or no memory). */
int drtopk_fit_rule4(const drtopk_fit_sample *s, size_t count, drtopk_fit_result *out);

/* Time of the sample of `group` whose alpha is nearest to `alpha` (ties to
 * the smaller); *exact = 1 when that alpha itself was measured. */
double drtopk_fit_time_at(const drtopk_fit_sample *s, size_t count, int group, int alpha, int *exact);

/* Keep only the samples an oracle alpha* can be read from: standalone ones
 * (alpha 0) and those whose (group, variant) was measured at min_alphas or
 * more distinct alphas.  A fixed-plan sweep (one alpha per point) would
 * otherwise pin alpha* to the alpha it happened to run.  Compacts s in
 * place (order kept) and returns the new count. */
size_t drtopk_fit_keep_swept(drtopk_fit_sample *s, size_t count, int min_alphas);
#define DRTOPK_FIT_MIN_ALPHAS 3     /* a minimum needs a point on each side */

/* Eq. 11 without its correction term: log2(6 Cg + 31 Cs) - log2(6 Cg). */
double drtopk_fit_theory_const(double c_global, double c_shfl);

/* The decision at one grid point (n, k): the (variant, alpha) measured in
 * every distribution of the point whose worst slowdown against that
 * distribution's fastest sample (any variant, standalone ones included) is
 * least; ties go to the smaller mean slowdown, then to the earlier variant and
 * the smaller alpha.  The candidates are the delegate samples (alpha > 0) and
 * the standalone samples (alpha 0) of the variants the caller marks as plans
 * a table can name. */
typedef struct {
    uint64_t n, k;
    int variant, alpha;
    double worst_slowdown, mean_slowdown;
    int dists;              /* distributions measured at the point             */
    int is_default;         /* the default plan stayed (no candidate beat it by
                               more than the margin)                           */
} drtopk_fit_decision;

/* The default plan, the one the library runs at (n, k) without a table: a
 * decision keeps it unless a candidate's worst slowdown beats the default's by
 * more than `margin` (relative).  plan_at gives it as (variant, alpha; alpha
 * 0 for a standalone plan) and returns 1, or returns 0 when no measured
 * variant is that plan. */
typedef struct {
    int (*plan_at)(const void *ctx, uint64_t n, uint64_t k, int *variant, int *alpha);
    const void *ctx;
    double margin;
} drtopk_fit_default;

/* One decision per distinct (n, k) of the samples, sorted by n then k, into
 * out (at most max); dflt may be NULL.  standalone[v] nonzero: variant v's
 * standalone samples are candidates (NULL: none is).  Returns the count, or
 * -1 (bad arguments, no memory, or more points than max). */
int drtopk_fit_decide(const drtopk_fit_sample *s, size_t count, const drtopk_fit_default *dflt,
                      const unsigned char *standalone, drtopk_fit_decision *out, int max);

/* The cell of the decision table a decision stands for: floor(log2 n) from
 * its grid point's up to the next grid point's minus one (the last grid
 * point: as far beyond it as the previous gap), and the same for k over every
 * k of the grid; rule4_const gives the decision's alpha at its grid point
 * (2 alpha - log2 n + log2 k). */
typedef struct {
    int log2n_min, log2n_max, log2k_min, log2k_max;
    double rule4_const;
} drtopk_fit_cell;

/* Cells of decisions d[0..count) (sorted as drtopk_fit_decide leaves them).
 * Two grid points with the same floor(log2 n) and floor(log2 k) would share a
 * cell: the later one gets an empty range (log2n_min > log2n_max) and must be
 * skipped.  Returns 0, or -1. */
int drtopk_fit_cells(const drtopk_fit_decision *d, int count, drtopk_fit_cell *out);

/* The held-out check of one cell: the run-to-run noise of `pairs` default
 * plan measured twice (a[i], b[i]) is the `quantile` of |a - b| / min(a, b)
 * over the pairs, at least `floor`. */
double drtopk_fit_noise(const double *a, const double *b, int pairs, double quantile, double floor);
/* A tuned plan loses at a point when its faster measurement is slower than
 * the default's faster one by more than the noise. */
int drtopk_fit_loses(const double tuned[2], const double deflt[2], double noise);

#ifdef __cplusplus
}
#endif
#endif
