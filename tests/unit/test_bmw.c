/*
 * test_bmw.c -- unit tests of the Figure 24 workload counters (src/bmw.c,
 * paper 6.6): the BMW-style count against a brute force that keeps the top-k
 * as a sorted array, hand-counted cases, and Dr. Top-k's |D| + |C| against
 * the CPU reference pipeline's own statistics (cpu_ref.c) on the same data
 * and on the paper's worked examples (both follow pipeline_spec.h).
 */
#include "test_harness.h"
#include "bmw.h"
#include "backend.h"
#include "gen.h"
#include "keyorder.h"

#include <stdlib.h>
#include <string.h>

void register_bmw_tests(void);

#define BMW_SEED 7u

/* Brute force: the k best keys as a sorted (descending) array. */
static void brute_bmw(const drtopk_problem *p, int alpha, uint64_t *eval, uint64_t *skipped)
{
    uint64_t *top = malloc((size_t)p->k * sizeof *top);
    uint64_t len = 0;
    const uint64_t block = 1ull << alpha;
    CHECK(top != NULL);
    *eval = *skipped = 0;
    for (uint64_t lo = 0; lo < p->n; lo += block) {
        const uint64_t hi = lo + block < p->n ? lo + block : p->n;
        uint64_t bmax = 0;
        for (uint64_t i = lo; i < hi; ++i) {
            uint64_t key = drtopk_key_at(p->values, i, p->dtype, p->order);
            if (key > bmax) bmax = key;
        }
        if (len == p->k && bmax <= top[len - 1]) {
            ++*skipped;
            continue;
        }
        for (uint64_t i = lo; i < hi; ++i) {
            uint64_t key = drtopk_key_at(p->values, i, p->dtype, p->order);
            uint64_t j;
            ++*eval;
            if (len == p->k && key <= top[len - 1]) continue;
            j = len < p->k ? len++ : len - 1;
            while (j > 0 && top[j - 1] < key) {
                top[j] = top[j - 1];
                --j;
            }
            top[j] = key;
        }
    }
    free(top);
}

static void test_bmw_hand_counted(void)
{
    uint32_t asc[16], desc[16];
    drtopk_problem p = {DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, 16, 2, asc};
    uint64_t e, s;
    for (uint32_t i = 0; i < 16; ++i) {
        asc[i] = i + 1;
        desc[i] = 16 - i;
    }
    /* ascending: every block beats the threshold, nothing is skipped */
    CHECK_STATUS(dh_bmw_workload(&p, 2, &e, &s), DRTOPK_OK);
    CHECK_EQ_U64(e, 16);
    CHECK_EQ_U64(s, 0);
    /* descending: the first block fills the heap with {16, 15}; blocks with
     * maxima 12, 8, 4 are skipped */
    p.values = desc;
    CHECK_STATUS(dh_bmw_workload(&p, 2, &e, &s), DRTOPK_OK);
    CHECK_EQ_U64(e, 4);
    CHECK_EQ_U64(s, 3);
    /* smallest order reverses the picture */
    p.order = DRTOPK_SMALLEST;
    CHECK_STATUS(dh_bmw_workload(&p, 2, &e, &s), DRTOPK_OK);
    CHECK_EQ_U64(e, 16);
    CHECK_EQ_U64(s, 0);
}

static void test_bmw_matches_brute_force(void)
{
    const uint64_t ns[] = {1, 37, 1000, 4099};
    const uint64_t ks[] = {1, 3, 64, 1000};
    const dh_dist dists[] = {DRTOPK_DIST_UD, DRTOPK_DIST_ND, DRTOPK_DIST_CD, DRTOPK_DIST_FEW,
                                 DRTOPK_DIST_EQ, DRTOPK_DIST_ASC, DRTOPK_DIST_DESC, DRTOPK_DIST_SPECIAL};
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; ++a) {
        uint64_t *v = malloc((size_t)ns[a] * sizeof *v);   /* room for any key type */
        CHECK(v != NULL);
        for (size_t d = 0; d < sizeof dists / sizeof dists[0]; ++d) {
            const drtopk_dtype t = (drtopk_dtype)(d % DRTOPK_DTYPE_COUNT);
            dh_gen_host(v, ns[a], dists[d], t, BMW_SEED);
            for (size_t b = 0; b < sizeof ks / sizeof ks[0]; ++b) {
                if (ks[b] > ns[a]) continue;
                for (int alpha = DRTOPK_ALPHA_MIN; alpha <= 6; alpha += 2) {
                    drtopk_problem p = {DRTOPK_BACKEND_CPU, t, (drtopk_order)(b % 2), ns[a], ks[b], v};
                    uint64_t e, s, be, bs;
                    CHECK_STATUS(dh_bmw_workload(&p, alpha, &e, &s), DRTOPK_OK);
                    brute_bmw(&p, alpha, &be, &bs);
                    CHECKF(e == be && s == bs, "n=%llu k=%llu dist=%zu alpha=%d: %llu/%llu vs brute %llu/%llu",
                           (unsigned long long)ns[a], (unsigned long long)ks[b], d, alpha,
                           (unsigned long long)e, (unsigned long long)s, (unsigned long long)be,
                           (unsigned long long)bs);
                    /* every element is either evaluated or in a skipped block */
                    CHECK(e + s * (1ull << alpha) >= ns[a]);
                }
            }
        }
        free(v);
    }
}

static void test_bmw_drtopk_matches_cpu_ref(void)
{
    const uint64_t n = 5003;
    const uint64_t ks[] = {1, 2, 17, 300, 5003};
    const unsigned flag_sets[] = {DRTOPK_DELEGATE, DRTOPK_DELEGATE | DRTOPK_FILTER,
                                  DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT};
    uint32_t *v = malloc(n * 4), *outv = malloc(n * 4);
    uint64_t *outi = malloc(n * 8);
    CHECK(v != NULL && outv != NULL && outi != NULL);
    for (int d = DRTOPK_DIST_UD; d <= DRTOPK_DIST_CD; ++d) {
        dh_gen_host(v, n, (dh_dist)d, DRTOPK_U32, BMW_SEED);
        for (size_t b = 0; b < sizeof ks / sizeof ks[0]; ++b)
            for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; ++f)
                for (int alpha = 1; alpha <= 9; alpha += 4)
                    for (int beta = 1; beta <= 3; ++beta) {
                        drtopk_problem p = {DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, n, ks[b], v};
                        drtopk_plan plan;
                        drtopk_stats st;
                        size_t bytes;
                        uint64_t dl, cl;
                        memset(&plan, 0, sizeof plan);
                        plan.alpha = alpha;
                        plan.beta = beta;
                        plan.flags = flag_sets[f];
                        CHECK_STATUS(drtopk_cpu_workspace(&p, &plan, &bytes), DRTOPK_OK);
                        void *ws = malloc(bytes);
                        CHECK(ws != NULL);
                        CHECK_STATUS(drtopk_cpu_select(&p, &plan, ws, bytes, outv, outi, &st), DRTOPK_OK);
                        free(ws);
                        CHECK_STATUS(dh_bmw_drtopk_workload(&p, &plan, &dl, &cl), DRTOPK_OK);
                        CHECKF(dl == st.delegate_len && cl == st.concat_len,
                               "dist=%d k=%llu flags=%u alpha=%d beta=%d: |D|=%llu |C|=%llu, cpu_ref %llu %llu", d,
                               (unsigned long long)ks[b], flag_sets[f], alpha, beta, (unsigned long long)dl,
                               (unsigned long long)cl, (unsigned long long)st.delegate_len,
                               (unsigned long long)st.concat_len);
                    }
    }
    free(v);
    free(outv);
    free(outi);
}

/* Paper Figures 5, 7 and 8 (as test_cpu_ref.c's paper_examples): 16 elements
 * in 4 subranges; |C| under Rule 1 alone, Rule 2 and Rule 3 with beta 2. */
static void test_bmw_drtopk_paper_examples(void)
{
    static const uint32_t v[16] = {101, 2001, 3012, 1323, 2313, 500, 600, 700,
                                   3000, 3010, 1002, 3210, 2321, 400, 300, 200};
    static const struct { uint64_t k; int beta; unsigned flags; uint64_t concat; } ex[] = {
        {2, 1, 0, 8},             /* Fig 5: subranges 0 and 2 copied whole */
        {2, 1, DRTOPK_FILTER, 2}, /* Fig 7: only {3012, 3210} */
        {3, 2, DRTOPK_FILTER, 3}, /* Fig 8a: {3012, 3010, 3210} */
        {2, 2, DRTOPK_FILTER, 2}, /* Fig 8b: the two delegates, nothing scanned */
    };
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; ++i) {
        drtopk_problem p = {DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, 16, ex[i].k, v};
        drtopk_plan plan;
        uint64_t dl, cl;
        memset(&plan, 0, sizeof plan);
        plan.alpha = 2;
        plan.beta = ex[i].beta;
        plan.flags = DRTOPK_DELEGATE | ex[i].flags;
        CHECK_STATUS(dh_bmw_drtopk_workload(&p, &plan, &dl, &cl), DRTOPK_OK);
        CHECK_EQ_U64(dl, 4 * (uint64_t)ex[i].beta);
        CHECKF(cl == ex[i].concat, "example %zu: |C| = %llu, want %llu", i, (unsigned long long)cl,
               (unsigned long long)ex[i].concat);
    }
}

static void test_bmw_rejects_bad_arguments(void)
{
    uint32_t v[4] = {1, 2, 3, 4};
    drtopk_problem p = {DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, 4, 2, v};
    drtopk_plan plan;
    uint64_t e, s;
    memset(&plan, 0, sizeof plan);
    plan.alpha = 1;
    plan.beta = 2;
    CHECK_STATUS(dh_bmw_workload(&p, 0, &e, &s), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(dh_bmw_workload(&p, 1, NULL, &s), DRTOPK_ERR_INVALID_ARGUMENT);
    p.k = 0;
    CHECK_STATUS(dh_bmw_workload(&p, 1, &e, &s), DRTOPK_ERR_K_ZERO);
    CHECK_STATUS(dh_bmw_drtopk_workload(&p, &plan, &e, &s), DRTOPK_ERR_K_ZERO);
    p.k = 5;
    CHECK_STATUS(dh_bmw_workload(&p, 1, &e, &s), DRTOPK_ERR_K_GT_N);
    p.k = 2;
    plan.beta = DRTOPK_BETA_MAX + 1;
    CHECK_STATUS(dh_bmw_drtopk_workload(&p, &plan, &e, &s), DRTOPK_ERR_INVALID_ARGUMENT);
}

/* Registered before main (test_main.c need not know this file); the guard
 * keeps an explicit register_bmw_tests() call harmless. */
__attribute__((constructor)) void register_bmw_tests(void)
{
    static int registered;
    if (registered) return;
    registered = 1;
    test_register("bmw_hand_counted", test_bmw_hand_counted);
    test_register("bmw_matches_brute_force", test_bmw_matches_brute_force);
    test_register("bmw_drtopk_matches_cpu_ref", test_bmw_drtopk_matches_cpu_ref);
    test_register("bmw_drtopk_paper_examples", test_bmw_drtopk_paper_examples);
    test_register("bmw_rejects_bad_arguments", test_bmw_rejects_bad_arguments);
}
