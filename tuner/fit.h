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

/* Per k range: which variant (with its fitted const) runs fastest. */
typedef struct {
    int log2k_min, log2k_max;
    int variant;
    double mean_slowdown;   /* vs the fastest measured config of each group      */
    int points;
} drtopk_fit_choice;

/* samples: every variant together; consts[v] is the Rule 4 const of variant
 * v (ignored for standalone samples, alpha 0).  For each measured floor(log2
 * k), pick the variant whose tuned time has the least mean slowdown over the
 * groups of that k that it measured in full.  Ranges tile [0, 63].  Returns the
 * number of choices written (<= max), or -1. */
int drtopk_fit_choices(const drtopk_fit_sample *s, size_t count, const double *consts,
                       int variants, drtopk_fit_choice *out, int max);

#ifdef __cplusplus
}
#endif
#endif
