/*
 * test_cpu_ref.c -- the CPU reference of the Dr. Top-k pipeline (cpu_ref.c,
 * paper sections 4.1-4.3) against the sort-based oracle (oracle.c): the
 * paper's worked examples, seeded randomized equivalence over sizes, k,
 * alpha, beta, distributions, key types, orders and plan flags, the stage
 * statistics, and proof that the checker catches broken results.  Every
 * failure message names the whole case so it can be replayed.
 */
#include "test_harness.h"
#include "backend.h"
#include "gen.h"
#include "keyorder.h"
#include "oracle.h"
#include "pipeline_spec.h"

#include <stdlib.h>
#include <string.h>

#define DESC_LEN 256
#define SWEEP_SEED 0x5eedc0ffeeull
#define RANDOM_SMALL_CASES 1500     /* n <= 4097 */
#define RANDOM_MEDIUM_CASES 40      /* n = 65539 */
#define RANDOM_LARGE_CASES 10       /* n = 1000003 */
#define DETERMINISTIC_CASES 3000    /* n <= 4097, DRTOPK_DETERMINISTIC on every plan kind */
#define ALL_FLAGS (DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SHARED_DELEGATE | \
                   DRTOPK_SKIP_LAST_DIGIT | DRTOPK_SORTED)
#define FLAG_COMBOS (ALL_FLAGS + 1)

static const int betas[] = { 1, 2, 3, 4, DRTOPK_BETA_MAX };
#define N_BETAS (sizeof betas / sizeof betas[0])

typedef struct {
    drtopk_problem p;
    dh_dist dist;
    uint64_t seed;
    void *v;                    /* n elements of p.dtype (room for 8 bytes each) */
    void *oracle_v;
    uint64_t *oracle_i;
    void *out_v;
    uint64_t *out_i;
} problem_case;

#define MAX_ELEM_BYTES sizeof(uint64_t)  /* the widest key type */

/* Generate V and the oracle's answer. */
static void setup(problem_case *c, uint64_t n, uint64_t k, dh_dist d, drtopk_dtype t,
                  drtopk_order o, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->p.backend = DRTOPK_BACKEND_CPU;
    c->p.dtype = t;
    c->p.order = o;
    c->p.n = n;
    c->p.k = k;
    c->dist = d;
    c->seed = seed;
    c->v = malloc(n * MAX_ELEM_BYTES);
    c->oracle_v = malloc(n * MAX_ELEM_BYTES);
    c->oracle_i = (uint64_t *)malloc(n * sizeof *c->oracle_i);
    c->out_v = malloc(n * MAX_ELEM_BYTES);
    c->out_i = (uint64_t *)malloc(n * sizeof *c->out_i);
    CHECK(c->v && c->oracle_v && c->oracle_i && c->out_v && c->out_i);
    dh_gen_host(c->v, n, d, t, seed);
    c->p.values = c->v;
    /* the full ranking: its prefix is the oracle's answer for every k */
    c->p.k = n;
    CHECK_STATUS(dh_oracle_topk(&c->p, c->oracle_v, c->oracle_i), DRTOPK_OK);
    c->p.k = k;
}

/* Same data, another k: the oracle's ranking is best first, so still valid. */
static void set_k(problem_case *c, uint64_t k)
{
    c->p.k = k;
}

static void teardown(problem_case *c)
{
    free(c->v); free(c->oracle_v); free(c->oracle_i); free(c->out_v); free(c->out_i);
}

static void describe(char *out, const problem_case *c, const drtopk_plan *plan)
{
    snprintf(out, DESC_LEN,
             "n=%" PRIu64 " k=%" PRIu64 " dist=%s dtype=%s order=%s seed=%" PRIu64
             " alpha=%d beta=%d flags=0x%x",
             c->p.n, c->p.k, dh_dist_name(c->dist), drtopk_dtype_name(c->p.dtype),
             c->p.order == DRTOPK_LARGEST ? "largest" : "smallest", c->seed,
             plan->alpha, plan->beta, plan->flags);
}

static uint64_t expected_delegates(uint64_t n, int alpha, int beta)
{
    uint64_t total = 0, sub = 1ull << alpha;
    for (uint64_t lo = 0; lo < n; lo += sub) {
        uint64_t len = n - lo < sub ? n - lo : sub;
        total += len < (uint64_t)beta ? len : (uint64_t)beta;
    }
    return total;
}

/* Ordered key of result element j. */
static uint64_t okey(const problem_case *c, uint64_t j)
{
    return drtopk_key_at(c->out_v, j, c->p.dtype, c->p.order);
}

/* Run the CPU pipeline for (c, plan) and check everything about the result. */
static void verify(problem_case *c, const drtopk_plan *plan)
{
    char desc[DESC_LEN];
    size_t bytes;
    void *ws;
    drtopk_stats st;
    dh_check_result r;
    const uint64_t n = c->p.n, k = c->p.k;
    describe(desc, c, plan);
    test_context(desc);
    CHECKF(drtopk_select_workspace(&c->p, plan, &bytes) == DRTOPK_OK, "%s: workspace query", desc);
    ws = malloc(bytes ? bytes : 1);
    CHECK(ws != NULL);
    drtopk_status s = drtopk_select(&c->p, plan, ws, bytes, c->out_v, c->out_i, NULL, &st);
    free(ws);
    CHECKF(s == DRTOPK_OK, "%s: select: %s", desc, drtopk_status_string(s));
    r = dh_check(&c->p, c->out_v, c->out_i, c->oracle_v);
    CHECKF(r.ok, "%s: vs oracle: %s", desc, r.why);
    r = dh_check(&c->p, c->out_v, c->out_i, NULL);
    CHECKF(r.ok, "%s: counting check: %s", desc, r.why);

    if (plan->flags & DRTOPK_SORTED) {
        for (uint64_t j = 1; j < k; ++j)
            CHECKF(okey(c, j - 1) >= okey(c, j), "%s: not best first at %" PRIu64, desc, j);
    } else {
        for (uint64_t j = 1; j < k; ++j)   /* cpu_ref.c's documented unsorted order */
            CHECKF(c->out_i[j - 1] < c->out_i[j], "%s: unsorted output not in input order at %" PRIu64, desc, j);
    }

    CHECKF(st.ms_total >= 0 && st.ms_delegate >= 0 && st.ms_first >= 0 && st.ms_concat >= 0 &&
           st.ms_second >= 0 && st.ms_total + 1e-9 >= st.ms_second, "%s: stage times", desc);
    if (plan->flags & DRTOPK_DELEGATE) {
        const uint64_t dlen = expected_delegates(n, plan->alpha, plan->beta);
        const uint64_t nsub = (n + (1ull << plan->alpha) - 1) >> plan->alpha;
        const int first = drtopk_first_topk_needed(k, dlen);
        const uint64_t want_sel = first ? k : dlen;
        CHECKF(st.delegate_len == dlen, "%s: |D| = %" PRIu64 ", want %" PRIu64, desc, st.delegate_len, dlen);
        CHECKF(st.first_selected >= want_sel && st.first_selected <= dlen,
               "%s: first_selected %" PRIu64 " (|D| %" PRIu64 ")", desc, st.first_selected, dlen);
        if (!(plan->flags & DRTOPK_SKIP_LAST_DIGIT))
            CHECKF(st.first_selected == want_sel, "%s: first_selected %" PRIu64, desc, st.first_selected);
        else if (first)      /* skipping keeps within the backends' capacity */
            CHECKF(st.first_selected <= DRTOPK_SKIP_CAPACITY_FACTOR * k,
                   "%s: first_selected %" PRIu64 " over the skip capacity", desc, st.first_selected);
        CHECKF(st.concat_len >= k && st.concat_len <= n, "%s: concat_len %" PRIu64, desc, st.concat_len);
        CHECKF(st.scanned_subranges <= nsub, "%s: scanned %" PRIu64, desc, st.scanned_subranges);
        if (!first)      /* every delegate selected, no threshold: C = V */
            CHECKF(st.concat_len == n && st.scanned_subranges == nsub, "%s: |D| < 2k but concat_len %" PRIu64,
                   desc, st.concat_len);
        if (!(plan->flags & DRTOPK_FILTER) && st.scanned_subranges > 0)   /* whole subranges copied */
            CHECKF(st.concat_len >= ((st.scanned_subranges - 1) << plan->alpha) + 1,
                   "%s: unfiltered scan of %" PRIu64 " subranges copied only %" PRIu64, desc,
                   st.scanned_subranges, st.concat_len);
    } else {
        CHECKF(st.delegate_len == 0 && st.first_selected == 0 && st.concat_len == 0 &&
               st.scanned_subranges == 0, "%s: standalone reported delegate statistics", desc);
    }
}

static drtopk_plan make_plan(int alpha, int beta, unsigned flags, uint64_t h)
{
    drtopk_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.alpha = alpha;
    plan.beta = beta;
    plan.flags = flags;
    /* the pipeline's algorithms do not change CPU semantics; vary them anyway
     * (onepass, a standalone algorithm of its own, is tested apart) */
    plan.first_algo = (drtopk_algo)(h % DRTOPK_ALGO_ONEPASS);
    plan.second_algo = (drtopk_algo)((h >> 8) % DRTOPK_ALGO_ONEPASS);
    return plan;
}

static int max_alpha(uint64_t n)
{
    int a = 0;
    while ((1ull << a) < n) ++a;           /* ceil(log2 n) */
    a += 1;                                 /* one past: n < 2^alpha */
    return a > DRTOPK_ALPHA_MAX ? DRTOPK_ALPHA_MAX : a;
}

static uint64_t clamp_k(uint64_t k, uint64_t n)
{
    return k < 1 ? 1 : (k > n ? n : k);
}

/* k of kind `kind` for (n, alpha, beta): the boundaries where the pipeline
 * changes behaviour, or random. */
static uint64_t pick_k(uint64_t n, int alpha, int beta, uint64_t h)
{
    const uint64_t sub = 1ull << alpha, dlen = expected_delegates(n, alpha, beta);
    switch (h % 10) {
    case 0: return 1;
    case 1: return n;
    case 2: return clamp_k(sub - 1, n);
    case 3: return clamp_k(sub, n);
    case 4: return clamp_k(sub + 1, n);
    case 5: return clamp_k(dlen - 1, n);
    case 6: return clamp_k(dlen, n);
    case 7: return clamp_k(dlen + 1, n);
    case 8: return 1 + (h >> 8) % (n < 64 ? n : 64);
    default: return 1 + (h >> 8) % n;
    }
}

static void random_cases(const uint64_t *sizes, int n_sizes, int cases, uint64_t seed)
{
    for (int i = 0; i < cases; ++i) {
        uint64_t h = dh_rand64(seed, (uint64_t)i, 0), h2 = dh_rand64(seed, (uint64_t)i, 1);
        uint64_t n = sizes[h % (uint64_t)n_sizes];
        dh_dist d = (dh_dist)((h >> 8) % DRTOPK_DIST_COUNT);
        drtopk_dtype t = (drtopk_dtype)((h >> 12) % DRTOPK_DTYPE_COUNT);
        drtopk_order o = (drtopk_order)((h >> 16) & 1);
        int alpha = 1 + (int)((h >> 20) % (uint64_t)max_alpha(n));
        int beta = betas[(h >> 28) % N_BETAS];
        unsigned flags = (unsigned)(h >> 32) & ALL_FLAGS;
        problem_case c;
        if ((h >> 40) % 8 != 0) flags |= DRTOPK_DELEGATE;   /* mostly the pipeline */
        setup(&c, n, 1, d, t, o, seed + (uint64_t)i);
        /* three k per data set share one oracle run */
        for (int j = 0; j < 3; ++j) {
            drtopk_plan plan = make_plan(alpha, beta, flags, h2 >> (8 * j));
            set_k(&c, pick_k(n, alpha, beta, dh_rand64(seed, (uint64_t)i, 2 + (uint32_t)j)));
            verify(&c, &plan);
        }
        teardown(&c);
    }
}

static void random_small(void)
{
    static const uint64_t sizes[] = { 1, 2, 3, 31, 100, 1000, 4097 };
    random_cases(sizes, (int)(sizeof sizes / sizeof sizes[0]), RANDOM_SMALL_CASES, SWEEP_SEED);
}

static void random_medium(void)
{
    static const uint64_t sizes[] = { 65536 + 3 };
    random_cases(sizes, 1, RANDOM_MEDIUM_CASES, SWEEP_SEED + 1);
}

static void random_large(void)
{
    static const uint64_t sizes[] = { 1000003 };
    random_cases(sizes, 1, RANDOM_LARGE_CASES, SWEEP_SEED + 2);
}

static int by_position(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* DRTOPK_DETERMINISTIC on the CPU backend: on every plan kind (the delegate
 * pipeline with any alpha, beta and flags, onepass, the standalone radix,
 * bucket and sort-and-choose) the result is the oracle's first k, which
 * ranks ties by smaller position: best first when sorted, else the same
 * positions in increasing order.  Every distribution (few distinct values,
 * all equal, NaN and +-0), key type and order. */
static void deterministic_is_the_k_best_pairs(void)
{
    static const uint64_t sizes[] = { 1, 2, 7, 64, 333, 4097 };
    static const drtopk_algo standalone[] = { DRTOPK_ALGO_ONEPASS, DRTOPK_ALGO_RADIX, DRTOPK_ALGO_BUCKET,
                                              DRTOPK_ALGO_SORT_CUB };
    const uint64_t seed = SWEEP_SEED + 3;
    for (int i = 0; i < DETERMINISTIC_CASES; ++i) {
        const uint64_t h = dh_rand64(seed, (uint64_t)i, 0), h2 = dh_rand64(seed, (uint64_t)i, 1);
        const uint64_t n = sizes[h % (sizeof sizes / sizeof sizes[0])];
        const int alpha = 1 + (int)((h >> 20) % (uint64_t)max_alpha(n)), beta = betas[(h >> 28) % N_BETAS];
        problem_case c;
        setup(&c, n, 1, (dh_dist)((h >> 8) % DRTOPK_DIST_COUNT), (drtopk_dtype)((h >> 12) % DRTOPK_DTYPE_COUNT),
              (drtopk_order)((h >> 16) & 1), seed + (uint64_t)i);
        set_k(&c, pick_k(n, alpha, beta, h2));
        const unsigned sorted = (h >> 36) & 1 ? DRTOPK_SORTED : 0;
        drtopk_plan plan;
        if ((h >> 40) % 3 != 0) {
            plan = make_plan(alpha, beta, (unsigned)(h >> 32) & ALL_FLAGS, h2 >> 16);
            plan.flags = (plan.flags & ~(unsigned)DRTOPK_SORTED) | DRTOPK_DELEGATE | sorted | DRTOPK_DETERMINISTIC;
        } else {
            plan = make_plan(0, 0, sorted | DRTOPK_DETERMINISTIC, 0);
            plan.first_algo = plan.second_algo = standalone[(h >> 44) % (sizeof standalone / sizeof standalone[0])];
        }
        char desc[DESC_LEN];
        describe(desc, &c, &plan);
        size_t bytes = 0;
        CHECKF(drtopk_select_workspace(&c.p, &plan, &bytes) == DRTOPK_OK, "%s: workspace query", desc);
        void *ws = malloc(bytes ? bytes : 1);
        uint64_t *want = (uint64_t *)malloc(c.p.k * sizeof *want);
        CHECK(ws != NULL && want != NULL);
        if (ws && want) {
            CHECKF(drtopk_select(&c.p, &plan, ws, bytes, c.out_v, c.out_i, NULL, NULL) == DRTOPK_OK, "%s: select",
                   desc);
            memcpy(want, c.oracle_i, c.p.k * sizeof *want);
            if (!sorted) qsort(want, (size_t)c.p.k, sizeof *want, by_position);
            uint64_t bad = c.p.k;
            for (uint64_t j = 0; j < c.p.k && bad == c.p.k; ++j)
                if (c.out_i[j] != want[j] || drtopk_bits_at(c.out_v, j, c.p.dtype) !=
                                                 drtopk_bits_at(c.v, want[j], c.p.dtype))
                    bad = j;
            CHECKF(bad == c.p.k, "%s %s: slot %" PRIu64 " holds position %" PRIu64 ", want %" PRIu64, desc,
                   drtopk_algo_name(plan.second_algo), bad, bad < c.p.k ? c.out_i[bad] : 0,
                   bad < c.p.k ? want[bad] : 0);
        }
        free(ws);
        free(want);
        teardown(&c);
    }
}

/* Tiny inputs, exhaustively over alpha, beta, k, dist, dtype and order. */
static void tiny_exhaustive(void)
{
    static const uint64_t sizes[] = { 1, 2, 3, 5, 8, 31, 33, 100 };
    uint64_t count = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si) {
        const uint64_t n = sizes[si];
        const uint64_t ks[] = { 1, 2, n / 2, n - 1, n };
        for (int d = 0; d < DRTOPK_DIST_COUNT; ++d)
        for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t)
        for (int o = 0; o <= DRTOPK_SMALLEST; ++o) {
            problem_case c;
            setup(&c, n, 1, (dh_dist)d, (drtopk_dtype)t, (drtopk_order)o, SWEEP_SEED + n);
            for (int a = 1; a <= max_alpha(n); ++a)
            for (size_t b = 0; b < N_BETAS; ++b)
            for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ++ki) {
                uint64_t h = dh_rand64(SWEEP_SEED, count++, 0);
                drtopk_plan plan = make_plan(a, betas[b], ((unsigned)h & ALL_FLAGS) | DRTOPK_DELEGATE, h >> 8);
                if (ks[ki] < 1 || ks[ki] > n) continue;
                set_k(&c, ks[ki]);
                verify(&c, &plan);
            }
            teardown(&c);
        }
    }
}

/* Every combination of plan flags on data that keeps ties and all levels. */
static void every_flag_combination(void)
{
    static const int alphas[] = { 1, 5, 12, 13 };
    static const uint64_t ks[] = { 1, 100, 2048, 4097 };
    static const dh_dist dists[] = { DRTOPK_DIST_CD, DRTOPK_DIST_FEW };
    for (size_t di = 0; di < sizeof dists / sizeof dists[0]; ++di) {
        problem_case c;
        setup(&c, 4097, 1, dists[di], DRTOPK_U32, DRTOPK_LARGEST, SWEEP_SEED + 3);
        for (unsigned flags = 0; flags < FLAG_COMBOS; ++flags)
        for (size_t ai = 0; ai < sizeof alphas / sizeof alphas[0]; ++ai)
        for (size_t b = 0; b < N_BETAS; b += 2)
        for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ++ki) {
            drtopk_plan plan = make_plan(alphas[ai], betas[b], flags, flags);
            set_k(&c, ks[ki]);
            verify(&c, &plan);
        }
        teardown(&c);
    }
}

/* Paper Figures 5, 7 and 8: 16 elements in 4 subranges whose maxima are
 * 3012, 2313, 3210, 2321. */
static void paper_examples(void)
{
    static const uint32_t v[16] = { 101, 2001, 3012, 1323, 2313, 500, 600, 700,
                                    3000, 3010, 1002, 3210, 2321, 400, 300, 200 };
    static const struct { uint64_t k; int beta; unsigned flags; uint64_t concat, scanned; } ex[] = {
        { 2, 1, 0, 8, 2 },               /* Fig 5, Rule 1: subranges 0 and 2 copied whole */
        { 2, 1, DRTOPK_FILTER, 2, 2 },   /* Fig 7, Rule 2: only {3012, 3210} */
        { 3, 2, DRTOPK_FILTER, 3, 1 },   /* Fig 8a, Rule 3: {3012, 3010, 3210}, one scan */
        { 2, 2, DRTOPK_FILTER, 2, 0 },   /* Fig 8b: no subrange scanned */
    };
    uint32_t ov[16], outv[16];
    uint64_t oi[16], outi[16];
    drtopk_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, 16, 2, v };
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; ++i) {
        drtopk_plan plan = make_plan(2, ex[i].beta, DRTOPK_DELEGATE | DRTOPK_SORTED | ex[i].flags, 0);
        drtopk_stats st;
        size_t bytes;
        void *ws;
        p.k = ex[i].k;
        CHECK_STATUS(drtopk_select_workspace(&p, &plan, &bytes), DRTOPK_OK);
        CHECK((ws = malloc(bytes)) != NULL);
        CHECK_STATUS(drtopk_select(&p, &plan, ws, bytes, outv, outi, NULL, &st), DRTOPK_OK);
        free(ws);
        CHECK_STATUS(dh_oracle_topk(&p, ov, oi), DRTOPK_OK);
        CHECKF(dh_check(&p, outv, outi, ov).ok, "example %zu", i);
        CHECKF(st.concat_len == ex[i].concat && st.scanned_subranges == ex[i].scanned,
               "example %zu: concat %" PRIu64 " scanned %" PRIu64, i, st.concat_len, st.scanned_subranges);
        CHECK_EQ_U64(st.delegate_len, 4 * (uint64_t)ex[i].beta);
        CHECK(outv[0] == 3210 && outi[0] == 11 && outv[1] == 3012 && outi[1] == 2);
    }
}

/* Heavy ties at the k-th delegate: on all-equal data every
 * key is t, so a scan copies nothing and C is exactly the selected delegates
 * (copying keys >= t put every element of each scanned subrange into C).
 */
static void heavy_ties_keep_c_small(void)
{
    const uint64_t n = (1u << 16) + 5;
    const uint64_t ks[] = { 1, 100, 4096 };
    const int alphas[] = { 4, 8 };
    uint32_t *v = malloc(n * sizeof *v), *outv = malloc(n * sizeof *outv);
    uint64_t *outi = malloc(n * sizeof *outi);
    CHECK(v && outv && outi);
    dh_gen_host(v, n, DRTOPK_DIST_EQ, DRTOPK_U32, 1);
    for (size_t a = 0; a < sizeof alphas / sizeof alphas[0]; ++a)
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
            drtopk_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, n, ks[i], v };
            drtopk_plan plan = make_plan(alphas[a], 2, DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT, 0);
            drtopk_stats st;
            size_t bytes;
            void *ws;
            CHECK_STATUS(drtopk_select_workspace(&p, &plan, &bytes), DRTOPK_OK);
            CHECK((ws = malloc(bytes)) != NULL);
            CHECK_STATUS(drtopk_select(&p, &plan, ws, bytes, outv, outi, NULL, &st), DRTOPK_OK);
            free(ws);
            CHECK(dh_check(&p, outv, outi, NULL).ok);
            /* (|D| < 2k: no first top-k, C = V) */
            CHECKF(st.concat_len == (drtopk_first_topk_needed(ks[i], st.delegate_len) ? st.first_selected : n),
                   "alpha %d k %" PRIu64 ": |C| %" PRIu64 " selected %" PRIu64, alphas[a], ks[i], st.concat_len,
                   st.first_selected);
        }
    free(v);
    free(outv);
    free(outi);
}

#define TINY_N 8

/* The plan of the skip-last-digit examples on n u32 values: alpha 1, beta 1
 * (delegates: the larger of each pair), filter and skip-last-digit. */
static void select_tiny_skip(uint32_t *v, uint64_t n, uint64_t k, uint32_t *outv, uint64_t *outi, drtopk_stats *st)
{
    drtopk_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, n, k, v };
    drtopk_plan plan = make_plan(1, 1, DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT, 0);
    size_t bytes;
    void *ws;
    CHECK_STATUS(drtopk_select_workspace(&p, &plan, &bytes), DRTOPK_OK);
    CHECK((ws = malloc(bytes)) != NULL);
    CHECK_STATUS(drtopk_select(&p, &plan, ws, bytes, outv, outi, NULL, st), DRTOPK_OK);
    free(ws);
    CHECK(dh_check(&p, outv, outi, NULL).ok);
}

/* Skip-last-digit: the first top-k keeps every delegate sharing the k-th
 * one's upper 24 bits (paper 4.3) when they fit 2 k and half of D. */
static void skip_last_digit_keeps_digit(void)
{
    uint32_t v[2 * TINY_N] = { 0x1000, 0x10FF, 0x1080, 0x2000, 0x1001, 0x0FFF, 0x10A0, 0x0001,
                               0x0002, 0x0003, 0x0004, 0x0005, 0x0006, 0x0007, 0x0008, 0x0009 };
    uint32_t outv[2];
    uint64_t outi[2];
    drtopk_stats st;
    /* delegates 0x10FF, 0x2000, 0x1001, 0x10A0 and four small ones; the k-th
     * (2nd) is 0x10FF, and 0x10A0 and 0x1001 share its digit 0x10xx: 4 <=
     * min(2 k, |D| / 2), so all are kept */
    select_tiny_skip(v, 2 * TINY_N, 2, outv, outi, &st);
    CHECK_EQ_U64(st.first_selected, 4);
    /* every subrange fully selected (beta 1), scanned with t = 0x1000: the
     * keys above t (0x1000 itself, a tie at t and no delegate, is not needed) */
    CHECK_EQ_U64(st.scanned_subranges, 4);
    CHECK_EQ_U64(st.concat_len, 5);
}

/* More delegates share the k-th one's upper digits than the capacity
 * DRTOPK_SKIP_CAPACITY_FACTOR * k allows: the last digit is resolved after
 * all, as the GPU radix does, and exactly k delegates are selected. */
static void skip_last_digit_over_capacity_resolves(void)
{
    uint32_t v[TINY_N] = { 0x1007, 0x0001, 0x1005, 0x0002, 0x1003, 0x0003, 0x1001, 0x0004 };
    uint32_t outv[1];
    uint64_t outi[1];
    drtopk_stats st;
    /* delegates 0x1007, 0x1005, 0x1003, 0x1001 all share 0x10xx: 4 > 2 * k */
    select_tiny_skip(v, TINY_N, 1, outv, outi, &st);
    CHECK_EQ_U64(st.first_selected, 1);
    CHECK_EQ_U64(st.scanned_subranges, 1);
    CHECK_EQ_U64(st.concat_len, 1);         /* t = 0x1007 exactly */
    CHECK(outv[0] == 0x1007 && outi[0] == 0);
}

static void oracle_matches_naive(void)
{
    for (uint64_t seed = 0; seed < 200; ++seed) {
        const uint64_t n = 1 + seed % 60, k = 1 + (seed * 7) % n;
        problem_case c;
        uint8_t *taken = (uint8_t *)calloc(n, 1);
        CHECK(taken != NULL);
        const drtopk_dtype t = (drtopk_dtype)(seed % DRTOPK_DTYPE_COUNT);
        setup(&c, n, k, (dh_dist)(seed / DRTOPK_DTYPE_COUNT % DRTOPK_DIST_COUNT), t,
              (drtopk_order)(seed / 3 % 2), seed);
        /* naive: repeatedly take the best remaining, smaller position on ties */
        for (uint64_t j = 0; j < k; ++j) {
            uint64_t best = n;
            for (uint64_t i = 0; i < n; ++i)
                if (!taken[i] && (best == n || drtopk_key_at(c.v, i, t, c.p.order) >
                                                   drtopk_key_at(c.v, best, t, c.p.order)))
                    best = i;
            taken[best] = 1;
            CHECKF(c.oracle_i[j] == best && drtopk_bits_at(c.oracle_v, j, t) == drtopk_bits_at(c.v, best, t),
                   "seed %" PRIu64 " rank %" PRIu64 ": oracle %" PRIu64 ", naive %" PRIu64, seed, j,
                   c.oracle_i[j], best);
        }
        free(taken);
        teardown(&c);
    }
}

static void expect_fail(const problem_case *c, const void *val, const uint64_t *idx, const char *what)
{
    dh_check_result r = dh_check(&c->p, val, idx, c->oracle_v);
    CHECKF(!r.ok, "checker with oracle accepted: %s", what);
    CHECKF(r.why[0] != '\0', "no reason given for: %s", what);
    r = dh_check(&c->p, val, idx, NULL);
    CHECKF(!r.ok, "counting checker accepted: %s", what);
}

/* Break a correct result in each way a buggy kernel could, and make sure the
 * checker (both paths) rejects every one. */
static void checker_fires(void)
{
    problem_case c;
    const uint64_t n = 1000, k = 50;
    uint32_t val[50];
    uint64_t idx[50];
    dh_check_result r;
    const uint32_t *ov;
    setup(&c, n, k, DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST, 11);
    ov = (const uint32_t *)c.oracle_v;
    /* the oracle's own answer, reversed (any order is fine), passes */
    for (uint64_t j = 0; j < k; ++j) { val[j] = ov[k - 1 - j]; idx[j] = c.oracle_i[k - 1 - j]; }
    r = dh_check(&c.p, val, idx, c.oracle_v);
    CHECKF(r.ok, "%s", r.why);
    CHECK(dh_check(&c.p, val, idx, NULL).ok);

    val[3] ^= 1u;
    expect_fail(&c, val, idx, "a value bit flipped");
    val[3] ^= 1u;

    uint64_t keep_i = idx[9];
    uint32_t keep_v = val[9];
    idx[9] = idx[3]; val[9] = val[3];
    expect_fail(&c, val, idx, "an index repeated");
    r = dh_check(&c.p, val, idx, NULL);
    CHECKF(strstr(r.why, "repeats at result positions 3 and 9") != NULL, "why: %s", r.why);
    idx[9] = keep_i; val[9] = keep_v;

    keep_i = idx[0];
    idx[0] = n;
    expect_fail(&c, val, idx, "an index out of range");
    idx[0] = keep_i;

    keep_v = val[5]; val[5] = val[6]; val[6] = keep_v;
    expect_fail(&c, val, idx, "two values swapped (multiset intact, pairing broken)");
    keep_v = val[5]; val[5] = val[6]; val[6] = keep_v;

    /* a consistent but wrong element: the (k+1)-th best replaces the best */
    idx[k - 1] = c.oracle_i[k]; val[k - 1] = ov[k];
    expect_fail(&c, val, idx, "the best element replaced by the (k+1)-th");
    /* ... or the worst by the (k+1)-th of equal... no: by a far worse one */
    idx[k - 1] = c.oracle_i[0]; val[k - 1] = ov[0];
    idx[0] = c.oracle_i[n - 1]; val[0] = ov[n - 1];
    expect_fail(&c, val, idx, "the k-th element replaced by the worst");
    teardown(&c);

    /* all-equal input: any k distinct positions are a top-k */
    setup(&c, 100, 10, DRTOPK_DIST_EQ, DRTOPK_F32, DRTOPK_SMALLEST, 1);
    for (uint64_t j = 0; j < 10; ++j) { idx[j] = 99 - 7 * j; val[j] = ((const uint32_t *)c.v)[idx[j]]; }
    CHECK(dh_check(&c.p, val, idx, c.oracle_v).ok);
    CHECK(dh_check(&c.p, val, idx, NULL).ok);
    teardown(&c);
}

/* The checker on the other widths: a result wrong only in the upper half of
 * a 64-bit key, or in a 16-bit key, fails; the oracle's answer passes. */
static void checker_fires_other_widths(void)
{
    static const drtopk_dtype types[] = { DRTOPK_U64, DRTOPK_I64, DRTOPK_F64, DRTOPK_F16, DRTOPK_BF16 };
    const uint64_t n = 500, k = 20;
    uint64_t val[20], idx[20];
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ++ti) {
        const drtopk_dtype t = types[ti];
        const uint64_t top_bit = drtopk_sign_bit(t) >> 1;   /* a high bit below the sign */
        problem_case c;
        setup(&c, n, k, DRTOPK_DIST_UD, t, DRTOPK_LARGEST, 13 + ti);
        for (uint64_t j = 0; j < k; ++j) {
            drtopk_bits_store(val, j, t, drtopk_bits_at(c.oracle_v, j, t));
            idx[j] = c.oracle_i[j];
        }
        CHECKF(dh_check(&c.p, val, idx, c.oracle_v).ok, "%s: the oracle's answer", drtopk_dtype_name(t));
        CHECKF(dh_check(&c.p, val, idx, NULL).ok, "%s: the oracle's answer, counting", drtopk_dtype_name(t));
        drtopk_bits_store(val, 4, t, drtopk_bits_at(val, 4, t) ^ top_bit);
        expect_fail(&c, val, idx, drtopk_dtype_name(t));
        drtopk_bits_store(val, 4, t, drtopk_bits_at(val, 4, t) ^ top_bit);
        /* the best element replaced by the (k+1)-th: consistent, not a top-k */
        idx[0] = c.oracle_i[k];
        drtopk_bits_store(val, 0, t, drtopk_bits_at(c.oracle_v, k, t));
        if (drtopk_key_at(c.oracle_v, 0, t, DRTOPK_LARGEST) != drtopk_key_at(c.oracle_v, k, t, DRTOPK_LARGEST))
            expect_fail(&c, val, idx, drtopk_dtype_name(t));
        teardown(&c);
    }
}

/* The counting checker on every key type and order, over inputs with NaN,
 * +-inf and +-0 (SPECIAL) and without: every best-n-1 result passes, and
 * every result missing one element that beats the worst (the worst put in its
 * place) fails, wherever that element lies in V: in the checker's full blocks
 * of COUNT_BLOCK (64) keys or in its tail (n = 3 * 64 + 5). */
static void counting_checker_sees_every_position(void)
{
    const uint64_t block = 64;                 /* check.c's COUNT_BLOCK */
    const uint64_t n = 3 * block + 5, k = n - 1;
    static const dh_dist dists[] = { DRTOPK_DIST_UD, DRTOPK_DIST_SPECIAL };
    uint64_t *val = malloc(n * MAX_ELEM_BYTES), *idx = malloc(n * sizeof *idx);
    CHECK(val && idx);
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t)
    for (size_t di = 0; di < sizeof dists / sizeof dists[0]; ++di)
    for (int o = 0; o <= DRTOPK_SMALLEST; ++o) {
        problem_case c;
        int in_blocks = 0, in_tail = 0;        /* where the left-out elements lay */
        setup(&c, n, k, dists[di], (drtopk_dtype)t, (drtopk_order)o, 31 + t);
        for (uint64_t j = 0; j < k; ++j) {
            drtopk_bits_store(val, j, (drtopk_dtype)t, drtopk_bits_at(c.oracle_v, j, (drtopk_dtype)t));
            idx[j] = c.oracle_i[j];
        }
        CHECKF(dh_check(&c.p, val, idx, NULL).ok, "%s %s order %d: the oracle's answer",
               drtopk_dtype_name((drtopk_dtype)t), dh_dist_name(dists[di]), o);
        const uint64_t worst = drtopk_key_at(c.oracle_v, n - 1, (drtopk_dtype)t, (drtopk_order)o);
        for (uint64_t j = 0; j < k; ++j) {
            if (drtopk_key_at(c.oracle_v, j, (drtopk_dtype)t, (drtopk_order)o) == worst) continue;
            idx[j] = c.oracle_i[n - 1];
            drtopk_bits_store(val, j, (drtopk_dtype)t, drtopk_bits_at(c.oracle_v, n - 1, (drtopk_dtype)t));
            CHECKF(!dh_check(&c.p, val, idx, NULL).ok, "%s %s order %d: V[%" PRIu64 "] left out, accepted",
                   drtopk_dtype_name((drtopk_dtype)t), dh_dist_name(dists[di]), o, c.oracle_i[j]);
            *(c.oracle_i[j] < n / block * block ? &in_blocks : &in_tail) = 1;
            idx[j] = c.oracle_i[j];
            drtopk_bits_store(val, j, (drtopk_dtype)t, drtopk_bits_at(c.oracle_v, j, (drtopk_dtype)t));
        }
        CHECKF(in_blocks && in_tail, "%s %s order %d: no element left out of the %s",
               drtopk_dtype_name((drtopk_dtype)t), dh_dist_name(dists[di]), o, in_blocks ? "tail" : "blocks");
        teardown(&c);
    }
    free(val);
    free(idx);
}

/* Width equivalence: u32 data zero-extended to u64 and i32 data
 * sign-extended to i64 have ordered keys equal to the 32-bit ones up to the
 * upper bits (the same low digits, the same order), so the pipeline takes
 * the same path on them: equal statistics and, sorted, the same positions. */
static void widths_take_the_same_path(void)
{
    static const drtopk_dtype narrow[] = { DRTOPK_U32, DRTOPK_I32 };
    static const dh_dist dists[] = { DRTOPK_DIST_UD, DRTOPK_DIST_ND, DRTOPK_DIST_CD, DRTOPK_DIST_FEW };
    const uint64_t n = 20011;
    for (size_t ti = 0; ti < sizeof narrow / sizeof narrow[0]; ++ti)
    for (size_t di = 0; di < sizeof dists / sizeof dists[0]; ++di)
    for (int o = 0; o <= DRTOPK_SMALLEST; ++o) {
        const drtopk_dtype t32 = narrow[ti], t64 = t32 == DRTOPK_U32 ? DRTOPK_U64 : DRTOPK_I64;
        uint32_t *v32 = malloc(n * sizeof *v32);
        uint64_t *v64 = malloc(n * sizeof *v64), *out_a = malloc(n * sizeof *out_a), *out_b = malloc(n * sizeof *out_b);
        uint64_t *ia = malloc(n * sizeof *ia), *ib = malloc(n * sizeof *ib);
        CHECK(v32 && v64 && out_a && out_b && ia && ib);
        dh_gen_host(v32, n, dists[di], t32, 7 + di);
        for (uint64_t i = 0; i < n; ++i)
            v64[i] = t32 == DRTOPK_U32 ? (uint64_t)v32[i] : (uint64_t)(int64_t)(int32_t)v32[i];
        for (uint64_t k = 1; k <= n; k = k * 5 + 3) {
            drtopk_problem pa = { DRTOPK_BACKEND_CPU, t32, (drtopk_order)o, n, k, v32 };
            drtopk_problem pb = { DRTOPK_BACKEND_CPU, t64, (drtopk_order)o, n, k, v64 };
            drtopk_plan plan;
            drtopk_stats sa, sb;
            size_t bytes;
            void *ws;
            CHECK_STATUS(drtopk_plan_rule4(&plan, &pa, DRTOPK_RULE4_CONST_DEFAULT), DRTOPK_OK);
            plan.flags |= DRTOPK_SORTED;
            CHECK_STATUS(drtopk_select_workspace(&pb, &plan, &bytes), DRTOPK_OK);
            CHECK((ws = malloc(bytes)) != NULL);
            CHECK_STATUS(drtopk_select(&pa, &plan, ws, bytes, out_a, ia, NULL, &sa), DRTOPK_OK);
            CHECK_STATUS(drtopk_select(&pb, &plan, ws, bytes, out_b, ib, NULL, &sb), DRTOPK_OK);
            free(ws);
            CHECKF(dh_check(&pb, out_b, ib, NULL).ok, "%s %s k %" PRIu64, drtopk_dtype_name(t64),
                   dh_dist_name(dists[di]), k);
            CHECKF(sa.first_selected == sb.first_selected && sa.concat_len == sb.concat_len &&
                   sa.scanned_subranges == sb.scanned_subranges,
                   "%s vs %s %s k %" PRIu64 ": selected %" PRIu64 "/%" PRIu64 " |C| %" PRIu64 "/%" PRIu64,
                   drtopk_dtype_name(t32), drtopk_dtype_name(t64), dh_dist_name(dists[di]), k,
                   sa.first_selected, sb.first_selected, sa.concat_len, sb.concat_len);
            CHECKF(memcmp(ia, ib, k * sizeof *ia) == 0, "%s vs %s %s k %" PRIu64 ": other positions",
                   drtopk_dtype_name(t32), drtopk_dtype_name(t64), dh_dist_name(dists[di]), k);
        }
        free(v32); free(v64); free(out_a); free(out_b); free(ia); free(ib);
    }
}

void register_cpu_ref_tests(void)
{
    test_register("cpu_ref/widths_take_the_same_path", widths_take_the_same_path);
    test_register("cpu_ref/checker_fires_other_widths", checker_fires_other_widths);
    test_register("cpu_ref/counting_checker_sees_every_position", counting_checker_sees_every_position);
    test_register("cpu_ref/paper_examples", paper_examples);
    test_register("cpu_ref/skip_last_digit_keeps_digit", skip_last_digit_keeps_digit);
    test_register("cpu_ref/heavy_ties_keep_c_small", heavy_ties_keep_c_small);
    test_register("cpu_ref/skip_last_digit_over_capacity_resolves", skip_last_digit_over_capacity_resolves);
    test_register("cpu_ref/oracle_matches_naive", oracle_matches_naive);
    test_register("cpu_ref/checker_fires", checker_fires);
    test_register("cpu_ref/tiny_exhaustive", tiny_exhaustive);
    test_register("cpu_ref/every_flag_combination", every_flag_combination);
    test_register("cpu_ref/random_small", random_small);
    test_register("cpu_ref/deterministic_is_the_k_best_pairs", deterministic_is_the_k_best_pairs);
    test_register("cpu_ref/random_medium", random_medium);
    test_register("cpu_ref/random_large", random_large);
}
