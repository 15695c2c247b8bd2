/*
 * test_fit.c -- unit tests of the tuner's fits (tuner/fit.c, paper section
 * 5.2): on synthetic convex timings with a known optimal const the Rule 4 fit
 * recovers it; Eq. 11's const; nearest-alpha lookup; per-k-range choices.
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
                                                scale * (double)n * 1e-6 * (1.0 + 0.1 * d * d) };
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
    drtopk_fit_sample s[] = { { 0, 0, 1024, 1, 4, 1.0 }, { 0, 0, 1024, 1, 5, 1.5 } };
    drtopk_fit_result r;
    CHECK(drtopk_fit_rule4(s, 2, &r) == 0);
    CHECK(drtopk_rule4_alpha(1024, 1, r.const_time) == 4);
    CHECK(r.lost_ms == 0.0);
    CHECK(drtopk_fit_rule4(s, 0, &r) == -1);
}

static void time_at_takes_nearest_alpha(void)
{
    drtopk_fit_sample s[] = { { 1, 0, 1 << 20, 4, 6, 2.0 }, { 1, 0, 1 << 20, 4, 8, 3.0 },
                              { 2, 0, 1 << 20, 4, 7, 9.0 } };
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

static void choices_pick_fastest_variant_per_k(void)
{
    drtopk_fit_sample *s = malloc(MAX_SAMPLES * sizeof *s);
    CHECK(s != NULL);
    /* Variant 0 is 10% faster up to k = 2^8, variant 1 10% faster above. */
    size_t c0 = synth(s, 0, TRUE_CONST, 1.0, 16);
    size_t c1 = synth(s + c0, 1, TRUE_CONST, 1.0, 16);
    for (size_t i = 0; i < c0 + c1; ++i) {
        int small_k = s[i].k <= 256;
        if ((s[i].variant == 0) != small_k) s[i].ms *= 1.1;
    }
    double consts[2] = { TRUE_CONST, TRUE_CONST };
    drtopk_fit_choice ch[16];
    int n = drtopk_fit_choices(s, c0 + c1, consts, 2, ch, 16);
    CHECK(n == 9);                                /* k = 4^0 .. 4^8 */
    CHECK(ch[0].log2k_min == 0 && ch[n - 1].log2k_max == 63);
    for (int i = 0; i < n; ++i) {
        CHECK(ch[i].variant == (ch[i].log2k_min <= 8 ? 0 : 1));
        CHECKF(fabs(ch[i].mean_slowdown - 1.0) < 1e-12, "choice %d slowdown %g", i, ch[i].mean_slowdown);
        if (i) CHECK(ch[i].log2k_min == ch[i - 1].log2k_max + 1);
    }
    free(s);
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
    test_register("fit_choices_pick_fastest_variant_per_k", choices_pick_fastest_variant_per_k);
    test_register("fit_keep_swept_drops_fixed_plan_points", keep_swept_drops_fixed_plan_points);
}
