/*
 * test_fit.c -- unit tests of the tuner's fits (tuner/fit.c, paper section
 * 5.2): on synthetic convex timings with a known optimal const the Rule 4 fit
 * recovers it; Eq. 11's const; nearest-alpha lookup; the decision table
 * (least worst slowdown over distributions), its cells and the held-out
 * check's noise test.
 */
#include "test_harness.h"
#include "fit.h"

#include <math.h>
#include <stdlib.h>

#define TRUE_CONST 5.5          /* the synthetic GPU's best const (not the paper's 3) */
#define SPAN 3                  /* alphas measured around the optimum             */
#define MAX_SAMPLES 4096

/* t(alpha) convex with its minimum at Rule 4's alpha for TRUE_CONST, scaled
 * with n like a bandwidth-bound pipeline. */
static size_t synth(drtopk_fit_sample *s, int variant, double c_true, double scale, int log2k_max)
{
    size_t cnt = 0;
    int group = 0;
    for (int ln = 20; ln <= 30; ln += 2)
        for (int lk = 0; lk <= log2k_max; lk += 2, ++group) {
            uint64_t n = 1ull << ln, k = 1ull << lk;
            int opt = drtopk_rule4_alpha(n, k, c_true);
            for (int a = opt - SPAN; a <= opt + SPAN; ++a) {
                if (a < DRTOPK_ALPHA_MIN || a > ln) continue;
                double d = a - opt;
                s[cnt++] = (drtopk_fit_sample){ group, variant, n, k, a,
                                                scale * (double)n * 1e-6 * (1.0 + 0.1 * d * d), 0 };
            }
        }
    return cnt;
}

static void fit_recovers_known_optimum(void)
{
    drtopk_fit_sample *s = malloc(MAX_SAMPLES * sizeof *s);
    CHECK(s != NULL);
    size_t cnt = synth(s, 0, TRUE_CONST, 1.0, 16);
    drtopk_fit_result r;
    CHECK(drtopk_fit_rule4(s, cnt, &r) == 0);
    /* Every L = log2 n - log2 k here is even, so Rule 4 gives the optimum for
     * const in [5, 7) and the fit takes the middle. */
    CHECKF(fabs(r.const_time - 6.0) < 1e-9, "const_time %g", r.const_time);
    CHECKF(fabs(r.mean_slowdown - 1.0) < 1e-12, "mean slowdown %g", r.mean_slowdown);
    CHECKF(fabs(r.worst_slowdown - 1.0) < 1e-12, "worst slowdown %g", r.worst_slowdown);
    CHECK(r.uncovered == 0);
    CHECK(r.points == 6 * 9);
    for (size_t i = 0; i < cnt; ++i)
        if (s[i].ms == s[i].n * 1e-6)   /* the optimum of its group */
            CHECK(drtopk_rule4_alpha(s[i].n, s[i].k, r.const_time) == s[i].alpha);
    /* alpha* = round((5.5 + L) / 2): 2 alpha* - L is 6 for even L and 5 for odd
     * L; here L = log2 n - log2 k is always even. */
    CHECKF(fabs(r.const_lsq - 6.0) < 1e-9, "const_lsq %g", r.const_lsq);
    free(s);
}

static void fit_reports_slowdown_of_a_forced_miss(void)
{
    /* One group only, alpha 4 best (1 ms), alpha 5 at 1.5 ms; n = 2^10, k = 1:
     * Rule 4 gives 4 for const in [-3, -1) and 5 for [-1, 1). */
    drtopk_fit_sample s[] = { { 0, 0, 1024, 1, 4, 1.0, 0 }, { 0, 0, 1024, 1, 5, 1.5, 0 } };
    drtopk_fit_result r;
    CHECK(drtopk_fit_rule4(s, 2, &r) == 0);
    CHECK(drtopk_rule4_alpha(1024, 1, r.const_time) == 4);
    CHECK(r.lost_ms == 0.0);
    CHECK(drtopk_fit_rule4(s, 0, &r) == -1);
}

static void time_at_takes_nearest_alpha(void)
{
    drtopk_fit_sample s[] = { { 1, 0, 1 << 20, 4, 6, 2.0, 0 }, { 1, 0, 1 << 20, 4, 8, 3.0, 0 },
                              { 2, 0, 1 << 20, 4, 7, 9.0, 0 } };
    int exact;
    CHECK(drtopk_fit_time_at(s, 3, 1, 8, &exact) == 3.0 && exact);
    CHECK(drtopk_fit_time_at(s, 3, 1, 12, &exact) == 3.0 && !exact);
    CHECK(drtopk_fit_time_at(s, 3, 1, 7, &exact) == 2.0 && !exact);  /* tie: smaller alpha */
    CHECK(isinf(drtopk_fit_time_at(s, 3, 5, 7, &exact)));
}

static void theory_const_matches_eq11(void)
{
    /* 6 Cg + 31 Cs = 2 * 6 Cg when 31 Cs = 6 Cg: const = 1. */
    CHECK(fabs(drtopk_fit_theory_const(31.0, 6.0) - 1.0) < 1e-12);
    CHECK(fabs(drtopk_fit_theory_const(500.0, 30.0) - (log2(3000.0 + 930.0) - log2(3000.0))) < 1e-12);
}

/* A default plan fixed at ctx = { variant, alpha }, whatever (n, k). */
static int default_at(const void *ctx, uint64_t n, uint64_t k, int *variant, int *alpha)
{
    const int *va = ctx;
    (void)n;
    (void)k;
    *variant = va[0];
    *alpha = va[1];
    return 1;
}

/* At one point, variant 0 at alpha 5 is best on two distributions and 30%
 * off on the third (mean 1.1x, worst 1.3x); variant 1 at alpha 6 is 15% off
 * everywhere (mean 1.15x, worst 1.15x).  The decision minimises the worst
 * slowdown, so variant 1 wins though its mean is larger; a candidate missing
 * a distribution (variant 2, measured on ND alone) never wins, and a
 * standalone sample (variant 3) sets the best of its distribution only. */
static void decide_minimises_worst_slowdown(void)
{
    enum { N = 1 << 20, K = 64 };
    drtopk_fit_sample s[] = {
        { .variant = 0, .n = N, .k = K, .alpha = 5, .ms = 1.0, .dist = 0 },
        { .variant = 0, .n = N, .k = K, .alpha = 5, .ms = 1.0, .dist = 1 },
        { .variant = 0, .n = N, .k = K, .alpha = 5, .ms = 1.3, .dist = 2 },
        { .variant = 1, .n = N, .k = K, .alpha = 6, .ms = 1.15, .dist = 0 },
        { .variant = 1, .n = N, .k = K, .alpha = 6, .ms = 1.15, .dist = 1 },
        { .variant = 1, .n = N, .k = K, .alpha = 6, .ms = 1.15, .dist = 2 },
        { .variant = 3, .n = N, .k = K, .alpha = 0, .ms = 1.0, .dist = 2 },   /* standalone: the best on 2 */
        { .variant = 2, .n = N, .k = K, .alpha = 7, .ms = 1.0, .dist = 1 },   /* ND only: worst 1.0 there  */
    };
    drtopk_fit_decision d[4];
    int nd = drtopk_fit_decide(s, sizeof s / sizeof s[0], NULL, NULL, d, 4);
    CHECK_EQ_U64(nd, 1);
    CHECK_EQ_U64(d[0].variant, 1);
    CHECK_EQ_U64(d[0].alpha, 6);
    CHECK_EQ_U64(d[0].dists, 3);
    CHECKF(fabs(d[0].worst_slowdown - 1.15) < 1e-12, "worst %g", d[0].worst_slowdown);
    CHECKF(fabs(d[0].mean_slowdown - 1.15) < 1e-12, "mean %g", d[0].mean_slowdown);
    s[2].ms = 1.1;                  /* variant 0 now 10% off at worst: it wins */
    CHECK_EQ_U64(drtopk_fit_decide(s, sizeof s / sizeof s[0], NULL, NULL, d, 4), 1);
    CHECK_EQ_U64(d[0].variant, 0);
    CHECK(!d[0].is_default);
    /* variant 1 at alpha 6 is the default: 1.15x against 1.1x is inside a 5%
     * margin, so it stays; with a 1% margin the better candidate wins */
    const int variant1_alpha6[2] = { 1, 6 };
    drtopk_fit_default dflt = { .plan_at = default_at, .ctx = variant1_alpha6, .margin = 0.05 };
    CHECK_EQ_U64(drtopk_fit_decide(s, sizeof s / sizeof s[0], &dflt, NULL, d, 4), 1);
    CHECK(d[0].variant == 1 && d[0].alpha == 6 && d[0].is_default);
    dflt.margin = 0.01;
    CHECK_EQ_U64(drtopk_fit_decide(s, sizeof s / sizeof s[0], &dflt, NULL, d, 4), 1);
    CHECK(d[0].variant == 0 && !d[0].is_default);
    CHECK(drtopk_fit_decide(s, sizeof s / sizeof s[0], NULL, NULL, d, 0) == -1);     /* no room */
}

/* Standalone samples are candidates only for the variants marked so: the
 * standalone variant 3, fastest on every distribution, wins once marked; as
 * the default plan (not marked) it stays unless a candidate beats it. */
static void decide_standalone_candidates(void)
{
    enum { N = 1 << 20, K = 64 };
    drtopk_fit_sample s[] = {
        { .variant = 0, .n = N, .k = K, .alpha = 5, .ms = 1.2, .dist = 0 },
        { .variant = 0, .n = N, .k = K, .alpha = 5, .ms = 1.3, .dist = 1 },
        { .variant = 3, .n = N, .k = K, .alpha = 0, .ms = 1.0, .dist = 0 },
        { .variant = 3, .n = N, .k = K, .alpha = 0, .ms = 1.0, .dist = 1 },
    };
    const unsigned char marked[4] = { 0, 0, 0, 1 };
    drtopk_fit_decision d[2];
    CHECK_EQ_U64(drtopk_fit_decide(s, 4, NULL, NULL, d, 2), 1);
    CHECK(d[0].variant == 0 && d[0].alpha == 5 && !d[0].is_default);
    CHECK_EQ_U64(drtopk_fit_decide(s, 4, NULL, marked, d, 2), 1);
    CHECK(d[0].variant == 3 && d[0].alpha == 0);
    CHECKF(fabs(d[0].worst_slowdown - 1.0) < 1e-12, "worst %g", d[0].worst_slowdown);
    const int standalone3[2] = { 3, 0 };
    drtopk_fit_default dflt = { .plan_at = default_at, .ctx = standalone3, .margin = 0.02 };
    CHECK_EQ_U64(drtopk_fit_decide(s, 4, &dflt, NULL, d, 2), 1);
    CHECK(d[0].variant == 3 && d[0].alpha == 0 && d[0].is_default);
    CHECKF(fabs(d[0].worst_slowdown - 1.0) < 1e-12, "worst %g", d[0].worst_slowdown);
    s[2].ms = s[3].ms = 1.5;        /* now variant 0 beats the default by 13% */
    CHECK_EQ_U64(drtopk_fit_decide(s, 4, &dflt, NULL, d, 2), 1);
    CHECK(d[0].variant == 0 && d[0].alpha == 5 && !d[0].is_default);
}

/* Cells tile log2 n and log2 k from each grid point to the next, the last as
 * far as the gap before it; the const gives back the decision's alpha at its
 * grid point, and 3/2 of the grid n stays in the cell. */
static void cells_tile_the_grid(void)
{
    drtopk_fit_decision d[16];
    int nd = 0;
    for (int ln = 24; ln <= 30; ln += 2)
        for (int lk = 0; lk <= 4; lk += 2)
            d[nd++] = (drtopk_fit_decision){ .n = 1ull << ln, .k = 1ull << lk, .alpha = (ln - lk) / 2 + 1 };
    d[nd++] = (drtopk_fit_decision){ .n = (1ull << 28) + 3, .k = 1, .alpha = 9 };  /* shares 2^28's cell */
    drtopk_fit_cell c[16];
    CHECK(drtopk_fit_cells(d, nd, c) == 0);
    for (int i = 0; i < nd - 1; ++i) {
        int ln = 24 + 2 * (i / 3), lk = 2 * (i % 3);
        CHECK_EQ_U64(c[i].log2n_min, ln);
        CHECK_EQ_U64(c[i].log2n_max, ln + 1);
        CHECK_EQ_U64(c[i].log2k_min, lk);
        CHECK_EQ_U64(c[i].log2k_max, lk + 1);
        CHECK_EQ_U64(drtopk_rule4_alpha(d[i].n, d[i].k, c[i].rule4_const), d[i].alpha);
        uint64_t held = d[i].n / 2 * 3 + 3;        /* decide.c: 3/2 of the grid n, misaligned */
        CHECK(floor(log2((double)held)) <= c[i].log2n_max);
    }
    CHECK(c[nd - 1].log2n_min > c[nd - 1].log2n_max);                        /* empty: skipped */
}

/* The noise is the quantile of the relative differences, never below its
 * floor; a tuned plan loses only beyond it. */
static void noise_and_loss(void)
{
    double a[] = { 1.00, 2.00, 3.00, 4.00, 5.00 }, b[] = { 1.01, 2.00, 3.06, 4.04, 5.00 };
    CHECKF(fabs(drtopk_fit_noise(a, b, 5, 0.9, 0.001) - 0.02) < 1e-12, "noise %g",
           drtopk_fit_noise(a, b, 5, 0.9, 0.001));
    CHECK(drtopk_fit_noise(a, b, 5, 0.9, 0.05) == 0.05);
    CHECK(drtopk_fit_noise(a, b, 0, 0.9, 0.03) == 0.03);
    const double deflt[2] = { 1.0, 1.1 };
    const double within[2] = { 1.03, 1.2 }, beyond[2] = { 1.06, 1.07 };
    CHECK(!drtopk_fit_loses(within, deflt, 0.05));
    CHECK(drtopk_fit_loses(beyond, deflt, 0.05));
}

/* Points measured at fewer than DRTOPK_FIT_MIN_ALPHAS alphas cannot define
 * alpha*: they go, swept points and standalone samples stay, in order. */
static void keep_swept_drops_fixed_plan_points(void)
{
    drtopk_fit_sample s[] = {
        { .group = 0, .variant = 0, .alpha = 5, .ms = 1 },   /* group 0: alphas 5, 6, 7 */
        { .group = 1, .variant = 0, .alpha = 5, .ms = 2 },   /* group 1: alpha 5 twice  */
        { .group = 0, .variant = 0, .alpha = 6, .ms = 3 },
        { .group = 1, .variant = 1, .alpha = 0, .ms = 4 },   /* standalone              */
        { .group = 0, .variant = 0, .alpha = 7, .ms = 5 },
        { .group = 1, .variant = 0, .alpha = 5, .ms = 6 },
        { .group = 0, .variant = 2, .alpha = 9, .ms = 7 },   /* other variant: 2 alphas */
        { .group = 0, .variant = 2, .alpha = 8, .ms = 8 },
    };
    size_t n = drtopk_fit_keep_swept(s, sizeof s / sizeof s[0], DRTOPK_FIT_MIN_ALPHAS);
    CHECK_EQ_U64(n, 4);
    CHECK(s[0].ms == 1 && s[1].ms == 3 && s[2].ms == 4 && s[3].ms == 5);
    CHECK_EQ_U64(drtopk_fit_keep_swept(s, n, DRTOPK_FIT_MIN_ALPHAS), 4);
}

__attribute__((constructor)) static void register_fit_tests(void)
{
    test_register("fit_recovers_known_optimum", fit_recovers_known_optimum);
    test_register("fit_reports_slowdown_of_a_forced_miss", fit_reports_slowdown_of_a_forced_miss);
    test_register("fit_time_at_takes_nearest_alpha", time_at_takes_nearest_alpha);
    test_register("fit_theory_const_matches_eq11", theory_const_matches_eq11);
    test_register("fit_decide_minimises_worst_slowdown", decide_minimises_worst_slowdown);
    test_register("fit_decide_standalone_candidates", decide_standalone_candidates);
    test_register("fit_cells_tile_the_grid", cells_tile_the_grid);
    test_register("fit_noise_and_loss", noise_and_loss);
    test_register("fit_keep_swept_drops_fixed_plan_points", keep_swept_drops_fixed_plan_points);
}
