/*
 * test_gpu.c -- the GPU suite of issue 3: the CUDA Dr. Top-k pipeline (paper
 * sections 4 and 5) against the CPU reference and the oracle on identical
 * seeded data.  It checks that the device generator is bit-identical to the
 * host one, runs hundreds of random (n, k, alpha, beta, dist, dtype, order,
 * flags, algorithms) cases plus fixed corner cases and a few n = 2^30 + 17
 * ones, and checks the status of bad calls.  Outputs and workspace are
 * poisoned before every run.  `--small` keeps every n small for
 * compute-sanitizer.  The last line is "N passed, N failed".
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "device.h"
#include "drtopk.h"
#include "gen.h"
#include "oracle.h"
#include "util.h"

#define RANDOM_CASES_FULL 400
#define RANDOM_CASES_SMALL 40
#define SMALL_N_MAX (1u << 13)          /* --small: sanitizers are ~100x slower   */
#define MEDIUM_N_MAX (1u << 21)
#define CPU_COMPARE_N_MAX (1u << 21)    /* also compare with drtopk_cpu_select    */
#define EXIT_NO_GPU 77                  /* the "skipped" exit status of test harnesses */
#define LARGE_N ((1ull << 30) + 17)     /* issue 3: n = 2^30 + 17                 */
#define GEN_CHECK_N ((1u << 16) + 3)    /* generator identity, per dist and dtype */
#define POISON_BYTE 0xFF                /* indices of all ones are out of range   */
#define SUITE_SEED 0x5EEDC0DEull
#define LOG_EVERY 50

static int passed, failed, skipped;

static uint64_t rng_state = SUITE_SEED;
static uint64_t rnd(void) { return drtopk_mix64(rng_state += DRTOPK_GOLDEN64); }
static uint64_t rnd_in(uint64_t lo, uint64_t hi) { return lo + rnd() % (hi - lo + 1); } /* [lo, hi] */
static int chance(unsigned pct) { return rnd() % 100 < pct; }

static void result(int ok, const char *fmt, ...)
{
    va_list ap;
    if (ok) {
        ++passed;
        return;
    }
    ++failed;
    printf("FAIL: ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

typedef struct {
    uint64_t n, k;
    drtopk_dist dist;
    drtopk_dtype dtype;
    drtopk_order order;
    uint64_t seed;
    int auto_plan;
    drtopk_plan plan;
    int want_stats;
} tcase;

static void describe(const tcase *c, char *buf, size_t len)
{
    snprintf(buf, len,
             "n=%" PRIu64 " k=%" PRIu64 " %s %s %s seed=%" PRIu64 " alpha=%d beta=%d first=%s second=%s "
             "flags=%s%s%s%s%s",
             c->n, c->k, drtopk_dist_name(c->dist), drtopk_dtype_name(c->dtype),
             c->order == DRTOPK_LARGEST ? "largest" : "smallest", c->seed, c->plan.alpha, c->plan.beta,
             drtopk_algo_name(c->plan.first_algo), drtopk_algo_name(c->plan.second_algo),
             (c->plan.flags & DRTOPK_DELEGATE) ? "D" : "-", (c->plan.flags & DRTOPK_FILTER) ? "F" : "-",
             (c->plan.flags & DRTOPK_SHARED_DELEGATE) ? "S" : "-",
             (c->plan.flags & DRTOPK_SKIP_LAST_DIGIT) ? "K" : "-", (c->plan.flags & DRTOPK_SORTED) ? "O" : "-");
}

/* Device copy of the seeded vector, checked bit-identical to the host one. */
static drtopk_status device_data(const tcase *c, const uint32_t *host, void **d_v, int *same)
{
    drtopk_status st;
    uint32_t *back;
    *d_v = NULL;
    *same = 0;
    if ((st = drtopk_dev_alloc(d_v, c->n * sizeof(uint32_t))) != DRTOPK_OK) return st;
    if ((st = drtopk_dev_generate(*d_v, c->n, c->dist, c->dtype, c->seed, NULL)) != DRTOPK_OK) return st;
    if ((back = (uint32_t *)malloc(c->n * sizeof *back)) == NULL) return DRTOPK_ERR_OUT_OF_MEMORY;
    st = drtopk_dev_copy(back, *d_v, c->n * sizeof *back, DRTOPK_COPY_D2H);
    *same = st == DRTOPK_OK && memcmp(back, host, c->n * sizeof *back) == 0;
    free(back);
    return st;
}

/* Best first under the ordered key, for DRTOPK_SORTED. */
static int sorted_best_first(const tcase *c, const uint32_t *vals)
{
    for (uint64_t i = 1; i < c->k; ++i)
        if (drtopk_key_from_bits(vals[i], c->dtype, c->order) > drtopk_key_from_bits(vals[i - 1], c->dtype, c->order))
            return 0;
    return 1;
}

/* One case: GPU vs oracle (counting check), vs the CPU reference for small n,
 * plus SORTED order and stats sanity.  `host` is V on the host. */
static void run_case(tcase *c, const uint32_t *host, int compare_cpu)
{
    drtopk_problem p = { DRTOPK_BACKEND_CUDA, c->dtype, c->order, c->n, c->k, NULL };
    drtopk_problem hp;
    char what[320];
    void *d_v = NULL, *ws = NULL, *d_ov = NULL, *d_oi = NULL;
    uint32_t *gv = NULL, *cv = NULL;
    uint64_t *gi = NULL, *ci = NULL;
    size_t bytes = 0;
    drtopk_stats gst, cst;
    drtopk_status st;
    int same = 0;

    if (c->auto_plan && drtopk_plan_auto(&c->plan, &p, NULL) != DRTOPK_OK) {
        result(0, "plan_auto failed");
        return;
    }
    describe(c, what, sizeof what);
    st = drtopk_select_workspace(&p, &c->plan, &bytes);
    if (st == DRTOPK_ERR_UNSUPPORTED) {
        ++skipped;             /* an algorithm not built yet: not a pipeline failure */
        return;
    }
    if (st != DRTOPK_OK) {
        result(0, "workspace query: %s [%s]", drtopk_status_string(st), what);
        return;
    }
    gv = (uint32_t *)malloc(c->k * sizeof *gv);
    gi = (uint64_t *)malloc(c->k * sizeof *gi);
    if (!gv || !gi) { result(0, "host out of memory [%s]", what); goto out; }
    if ((st = device_data(c, host, &d_v, &same)) != DRTOPK_OK) {
        result(0, "device data: %s [%s]", drtopk_status_string(st), what);
        goto out;
    }
    result(same, "device generator differs from drtopk_gen_host [%s]", what);
    p.values = d_v;
    if (drtopk_dev_alloc(&ws, bytes) != DRTOPK_OK || drtopk_dev_alloc(&d_ov, c->k * 4) != DRTOPK_OK ||
        drtopk_dev_alloc(&d_oi, c->k * 8) != DRTOPK_OK) {
        result(0, "device out of memory [%s]", what);
        goto out;
    }
    /* poison: random workspace, all-ones outputs */
    if (bytes >= sizeof(uint32_t)) drtopk_dev_generate(ws, bytes / sizeof(uint32_t), DRTOPK_DIST_UD, DRTOPK_U32, rnd(), NULL);
    memset(gv, POISON_BYTE, c->k * sizeof *gv);
    memset(gi, POISON_BYTE, c->k * sizeof *gi);
    drtopk_dev_copy(d_ov, gv, c->k * sizeof *gv, DRTOPK_COPY_H2D);
    drtopk_dev_copy(d_oi, gi, c->k * sizeof *gi, DRTOPK_COPY_H2D);
    st = drtopk_select(&p, &c->plan, ws, bytes, d_ov, d_oi, NULL, c->want_stats ? &gst : NULL);
    if (st == DRTOPK_OK) st = drtopk_dev_sync();
    if (st != DRTOPK_OK) {
        result(0, "select: %s [%s]", drtopk_status_string(st), what);
        goto out;
    }
    drtopk_dev_copy(gv, d_ov, c->k * sizeof *gv, DRTOPK_COPY_D2H);
    drtopk_dev_copy(gi, d_oi, c->k * sizeof *gi, DRTOPK_COPY_D2H);

    hp = p;
    hp.backend = DRTOPK_BACKEND_CPU;
    hp.values = host;
    {
        drtopk_check_result r = drtopk_check(&hp, gv, gi, NULL);
        result(r.ok, "oracle: %s [%s]", r.why, what);
    }
    if (c->plan.flags & DRTOPK_SORTED) result(sorted_best_first(c, gv), "not sorted best first [%s]", what);
    if (compare_cpu) {
        void *cws = NULL;
        size_t cb = 0;
        cv = (uint32_t *)malloc(c->k * sizeof *cv);
        ci = (uint64_t *)malloc(c->k * sizeof *ci);
        st = drtopk_select_workspace(&hp, &c->plan, &cb);
        if (st == DRTOPK_OK && (cws = malloc(cb ? cb : 1)) == NULL) st = DRTOPK_ERR_OUT_OF_MEMORY;
        if (st == DRTOPK_OK && (!cv || !ci)) st = DRTOPK_ERR_OUT_OF_MEMORY;
        if (st == DRTOPK_OK) st = drtopk_select(&hp, &c->plan, cws, cb, cv, ci, NULL, &cst);
        free(cws);
        if (st != DRTOPK_OK) {
            result(0, "CPU reference: %s [%s]", drtopk_status_string(st), what);
        } else {
            drtopk_check_result r = drtopk_check(&hp, gv, gi, cv);
            result(r.ok, "vs CPU reference: %s [%s]", r.why, what);
            if (c->want_stats && (c->plan.flags & DRTOPK_DELEGATE)) {
                result(gst.delegate_len == cst.delegate_len, "stats: |D| %" PRIu64 " vs CPU %" PRIu64 " [%s]",
                       gst.delegate_len, cst.delegate_len, what);
                result(gst.concat_len >= c->k && gst.concat_len <= c->n &&
                           gst.first_selected >= (c->k < gst.delegate_len ? c->k : gst.delegate_len) &&
                           gst.first_selected <= gst.delegate_len,
                       "stats: concat %" PRIu64 " selected %" PRIu64 " out of range [%s]", gst.concat_len,
                       gst.first_selected, what);
            }
        }
    }
    if (c->want_stats)
        result(gst.ms_total > 0 && gst.ms_total >= gst.ms_second, "stats: times %.4f/%.4f [%s]", gst.ms_total,
               gst.ms_second, what);
out:
    free(gv); free(gi); free(cv); free(ci);
    if (d_v) drtopk_dev_free(d_v);
    if (ws) drtopk_dev_free(ws);
    if (d_ov) drtopk_dev_free(d_ov);
    if (d_oi) drtopk_dev_free(d_oi);
}

static void run_with_host(tcase *c, int compare_cpu)
{
    uint32_t *host = (uint32_t *)malloc(c->n * sizeof *host);
    if (host == NULL) {
        result(0, "host out of memory for n=%" PRIu64, c->n);
        return;
    }
    drtopk_gen_host(host, c->n, c->dist, c->dtype, c->seed);
    run_case(c, host, compare_cpu);
    free(host);
}

static const drtopk_algo other_algos[] = {
    DRTOPK_ALGO_RADIX_GGKS, DRTOPK_ALGO_RADIX_GGKS_OOP, DRTOPK_ALGO_BUCKET, DRTOPK_ALGO_BUCKET_OOP,
    DRTOPK_ALGO_BITONIC,    DRTOPK_ALGO_SORT_CUB,       DRTOPK_ALGO_SORT_THRUST,
};

static drtopk_algo pick_algo(void)
{
    if (chance(75)) return DRTOPK_ALGO_RADIX;
    return other_algos[rnd() % (sizeof other_algos / sizeof other_algos[0])];
}

static void random_case(tcase *c, uint64_t n_max)
{
    const int r = (int)(rnd() % 100);
    memset(c, 0, sizeof *c);
    if (r < 10) c->n = rnd_in(1, 64);
    else if (r < 50) c->n = rnd_in(1, 5000 < n_max ? 5000 : n_max);
    else if (r < 85) c->n = rnd_in(1, (1u << 17) < n_max ? (1u << 17) : n_max);
    else c->n = rnd_in(1, n_max);
    switch (rnd() % 10) {
    case 0: c->k = 1; break;
    case 1: c->k = c->n; break;
    case 2: c->k = c->n > 1 ? c->n - 1 : 1; break;
    default: {
        /* log-uniform in [1, n] */
        const int b = drtopk_ilog2_floor(c->n);
        const uint64_t hi = 1ull << rnd_in(0, (uint64_t)b);
        c->k = rnd_in(1, hi < c->n ? hi : c->n);
    }
    }
    c->dist = (drtopk_dist)(rnd() % DRTOPK_DIST_COUNT);
    c->dtype = (drtopk_dtype)(rnd() % DRTOPK_DTYPE_COUNT);
    c->order = chance(50) ? DRTOPK_LARGEST : DRTOPK_SMALLEST;
    c->seed = rnd();
    c->want_stats = chance(50);
    c->auto_plan = chance(20);
    if (!c->auto_plan) {
        const int amax = drtopk_ilog2_ceil(c->n) + 2;   /* n < 2^alpha included */
        c->plan.alpha = (int)rnd_in(DRTOPK_ALPHA_MIN, amax < DRTOPK_ALPHA_MAX ? amax : DRTOPK_ALPHA_MAX);
        c->plan.beta = chance(40) ? 2 : (int)rnd_in(1, DRTOPK_BETA_MAX);
        c->plan.first_algo = pick_algo();
        c->plan.second_algo = pick_algo();
        c->plan.flags = (chance(85) ? DRTOPK_DELEGATE : 0) | (chance(70) ? DRTOPK_FILTER : 0) |
                        (chance(50) ? DRTOPK_SHARED_DELEGATE : 0) | (chance(50) ? DRTOPK_SKIP_LAST_DIGIT : 0) |
                        (chance(30) ? DRTOPK_SORTED : 0);
        c->plan.rule4_const = DRTOPK_RULE4_CONST_DEFAULT;
    }
}

static void fixed_case(uint64_t n, uint64_t k, drtopk_dist d, drtopk_dtype t, drtopk_order o, int alpha, int beta,
                       unsigned flags)
{
    tcase c;
    memset(&c, 0, sizeof c);
    c.n = n; c.k = k; c.dist = d; c.dtype = t; c.order = o;
    c.seed = rnd();
    c.want_stats = 1;
    c.plan.alpha = alpha;
    c.plan.beta = beta;
    c.plan.first_algo = c.plan.second_algo = DRTOPK_ALGO_RADIX;
    c.plan.flags = flags;
    c.plan.rule4_const = DRTOPK_RULE4_CONST_DEFAULT;
    run_with_host(&c, n <= CPU_COMPARE_N_MAX);
}

static void test_generator(uint64_t n)
{
    uint32_t *h = (uint32_t *)malloc(n * 4), *b = (uint32_t *)malloc(n * 4);
    void *d = NULL;
    if (!h || !b || drtopk_dev_alloc(&d, n * 4) != DRTOPK_OK) {
        result(0, "generator test: out of memory");
        goto out;
    }
    for (int dist = 0; dist < DRTOPK_DIST_COUNT; ++dist) {
        for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
            const uint64_t seed = rnd();
            drtopk_status st = drtopk_dev_generate(d, n, (drtopk_dist)dist, (drtopk_dtype)t, seed, NULL);
            if (st == DRTOPK_OK) st = drtopk_dev_copy(b, d, n * 4, DRTOPK_COPY_D2H);
            drtopk_gen_host(h, n, (drtopk_dist)dist, (drtopk_dtype)t, seed);
            result(st == DRTOPK_OK && memcmp(h, b, n * 4) == 0, "generator %s %s n=%" PRIu64 ": %s",
                   drtopk_dist_name((drtopk_dist)dist), drtopk_dtype_name((drtopk_dtype)t), n,
                   drtopk_status_string(st));
        }
    }
out:
    free(h); free(b);
    if (d) drtopk_dev_free(d);
}

/* Statuses of bad calls, on a small valid problem. */
static void test_bad_arguments(void)
{
    const uint64_t n = 1000, k = 10;
    drtopk_problem p = { DRTOPK_BACKEND_CUDA, DRTOPK_U32, DRTOPK_LARGEST, n, k, NULL };
    drtopk_plan plan, bad;
    void *d_v = NULL, *ws = NULL, *d_ov = NULL, *d_oi = NULL;
    size_t bytes = 0;
    if (drtopk_dev_alloc(&d_v, n * 4 + 16) != DRTOPK_OK || drtopk_dev_alloc(&d_ov, k * 4 + 16) != DRTOPK_OK ||
        drtopk_dev_alloc(&d_oi, k * 8 + 16) != DRTOPK_OK) {
        result(0, "bad-argument test: out of memory");
        goto out;
    }
    drtopk_dev_generate(d_v, n, DRTOPK_DIST_UD, DRTOPK_U32, rnd(), NULL);
    p.values = d_v;
    result(drtopk_plan_auto(&plan, &p, NULL) == DRTOPK_OK, "plan_auto on a valid problem");
    result(drtopk_select_workspace(&p, &plan, &bytes) == DRTOPK_OK && bytes > 0, "workspace query");
    if (drtopk_dev_alloc(&ws, bytes) != DRTOPK_OK) { result(0, "workspace alloc"); goto out; }
#define EXPECT(call, want) do { drtopk_status s_ = (call); \
        result(s_ == (want), "%s: got %s, want %s", #call, drtopk_status_string(s_), drtopk_status_string(want)); } while (0)
    EXPECT(drtopk_select(&p, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_OK);
    EXPECT(drtopk_select(&p, &plan, ws, bytes - 1, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_WORKSPACE_TOO_SMALL);
    EXPECT(drtopk_select(&p, &plan, NULL, 0, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_WORKSPACE_TOO_SMALL);
    EXPECT(drtopk_select(&p, &plan, ws, bytes, NULL, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    EXPECT(drtopk_select(&p, &plan, ws, bytes, d_ov, NULL, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    EXPECT(drtopk_select(&p, &plan, ws, bytes, (char *)d_ov + 1, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_MISALIGNED);
    EXPECT(drtopk_select(&p, &plan, ws, bytes, d_ov, (uint64_t *)((char *)d_oi + 4), NULL, NULL), DRTOPK_ERR_MISALIGNED);
    {
        drtopk_problem q = p;
        q.values = (char *)d_v + 2;
        EXPECT(drtopk_select(&q, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_MISALIGNED);
        q = p; q.values = NULL;
        EXPECT(drtopk_select(&q, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
        q = p; q.k = 0;
        EXPECT(drtopk_select(&q, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_K_ZERO);
        q = p; q.k = n + 1;
        EXPECT(drtopk_select(&q, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_K_GT_N);
        q = p; q.n = 0;
        EXPECT(drtopk_select(&q, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_N_ZERO);
        q = p; q.dtype = DRTOPK_DTYPE_COUNT;
        EXPECT(drtopk_select(&q, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
        q = p; q.order = (drtopk_order)2;
        EXPECT(drtopk_select(&q, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    }
    bad = plan; bad.alpha = 0;
    EXPECT(drtopk_select(&p, &bad, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    bad = plan; bad.beta = DRTOPK_BETA_MAX + 1;
    EXPECT(drtopk_select(&p, &bad, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    bad = plan; bad.first_algo = DRTOPK_ALGO_COUNT;
    EXPECT(drtopk_select(&p, &bad, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    bad = plan; bad.flags |= 1u << 30;
    EXPECT(drtopk_select(&p, &bad, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    {
        size_t b2 = 0;
        EXPECT(drtopk_cuda_workspace(&p, &plan, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
        EXPECT(drtopk_cuda_workspace(&p, &plan, &b2), DRTOPK_OK);
        result(b2 == bytes, "backend workspace %zu differs from the public query %zu", b2, bytes);
    }
    /* the calls that failed enqueued nothing; the one that ran must have worked */
    EXPECT(drtopk_dev_sync(), DRTOPK_OK);
#undef EXPECT
out:
    if (d_v) drtopk_dev_free(d_v);
    if (ws) drtopk_dev_free(ws);
    if (d_ov) drtopk_dev_free(d_ov);
    if (d_oi) drtopk_dev_free(d_oi);
}

/* n = 2^30 + 17: the host generates once per data set, the counting check
 * verifies (no sort of V). */
static void test_large(void)
{
    static const struct { drtopk_dist d; drtopk_dtype t; drtopk_order o; uint64_t k; unsigned extra; } L[] = {
        { DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST, 1, 0 },
        { DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST, 1u << 10, DRTOPK_SORTED },
        { DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_SMALLEST, 1u << 20, 0 },
        { DRTOPK_DIST_FEW, DRTOPK_F32, DRTOPK_LARGEST, 1u << 16, 0 },
    };
    uint32_t *host = (uint32_t *)malloc(LARGE_N * sizeof *host);
    drtopk_dist have_d = DRTOPK_DIST_COUNT;
    drtopk_dtype have_t = DRTOPK_DTYPE_COUNT;
    const uint64_t seed = rnd();
    if (host == NULL) {
        result(0, "large test: host out of memory");
        return;
    }
    for (size_t i = 0; i < sizeof L / sizeof L[0]; ++i) {
        tcase c;
        memset(&c, 0, sizeof c);
        c.n = LARGE_N; c.k = L[i].k; c.dist = L[i].d; c.dtype = L[i].t; c.order = L[i].o;
        c.seed = seed;
        c.want_stats = 1;
        c.auto_plan = 1;
        if (L[i].d != have_d || L[i].t != have_t) {
            drtopk_gen_host(host, c.n, c.dist, c.dtype, c.seed);
            have_d = L[i].d;
            have_t = L[i].t;
        }
        {
            drtopk_problem p = { DRTOPK_BACKEND_CUDA, c.dtype, c.order, c.n, c.k, host };
            drtopk_plan_auto(&c.plan, &p, NULL);
            c.plan.flags |= L[i].extra;
            c.auto_plan = 0;
        }
        run_case(&c, host, 0);
        printf("large case %zu done: %d passed, %d failed\n", i, passed, failed);
        fflush(stdout);
    }
    free(host);
}

int main(int argc, char **argv)
{
    int small = 0;
    drtopk_device_info info;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--small") == 0) small = 1;
        else {
            fprintf(stderr, "usage: %s [--small]\n", argv[0]);
            return 2;
        }
    }
    if (!drtopk_cuda_available() || drtopk_dev_info(0, &info) != DRTOPK_OK) {
        /* not a pass: `ninja test-gpu` on a machine without a GPU must fail */
        printf("no CUDA device: GPU suite not run\n0 passed, 0 failed\n");
        return EXIT_NO_GPU;
    }
    printf("device: %s (%s), cc %d.%d, %d SMs\n", info.name, info.uuid, info.cc_major, info.cc_minor, info.sm_count);

    test_generator(small ? 1000 : GEN_CHECK_N);
    test_bad_arguments();

    /* fixed corner cases: k in {1, n}, ties, sorted runs, specials, n < 2^alpha,
     * n not a power of two, alpha around the shared/warp/block switches */
    {
        const unsigned all = DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT;
        const uint64_t n1 = small ? 3001 : 100003;
        for (int d = 0; d < DRTOPK_DIST_COUNT; ++d) {
            for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
                fixed_case(n1, 1, (drtopk_dist)d, (drtopk_dtype)t, DRTOPK_LARGEST, 5, 2, all | DRTOPK_SHARED_DELEGATE);
                fixed_case(n1, n1, (drtopk_dist)d, (drtopk_dtype)t, DRTOPK_SMALLEST, 7, 2, all | DRTOPK_SORTED);
                fixed_case(n1, 100, (drtopk_dist)d, (drtopk_dtype)t, DRTOPK_SMALLEST, 3, 3, all | DRTOPK_SHARED_DELEGATE);
                fixed_case(n1, 1000, (drtopk_dist)d, (drtopk_dtype)t, DRTOPK_LARGEST, 9, 4, all | DRTOPK_SORTED);
            }
        }
        fixed_case(100, 7, DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST, 10, 2, all);       /* n < 2^alpha */
        fixed_case(100, 3, DRTOPK_DIST_FEW, DRTOPK_I32, DRTOPK_SMALLEST, 10, 8, all);     /* ... with k < |D| */
        fixed_case(5, 5, DRTOPK_DIST_EQ, DRTOPK_F32, DRTOPK_LARGEST, 1, 8, all);          /* k >= |D|    */
        fixed_case(1, 1, DRTOPK_DIST_SPECIAL, DRTOPK_F32, DRTOPK_SMALLEST, 1, 1, all);
        /* staged build (alpha 6, 7): n around its 1024-element tiles, a last
         * tile shorter than one row, tails that are not whole vectors */
        {
            const uint64_t tile_ns[] = { 5, 64, 1023, 1024, 1025, 3 * 1024 + 35, 4096 + 2 };
            for (size_t i = 0; i < sizeof tile_ns / sizeof tile_ns[0]; ++i)
                for (int alpha = 6; alpha <= 7; ++alpha)
                    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
                        const uint64_t n = tile_ns[i], k = n < 50 ? n : 50;
                        fixed_case(n, k, DRTOPK_DIST_SPECIAL, (drtopk_dtype)t,
                                   alpha == 6 ? DRTOPK_LARGEST : DRTOPK_SMALLEST, alpha, 1 + (int)(i % 4),
                                   all | DRTOPK_SHARED_DELEGATE);
                    }
        }
        if (!small) {
            fixed_case((1u << 20) + 5, 4096, DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST, 15, 2, all);  /* block build */
            fixed_case((1u << 20) + 5, 64, DRTOPK_DIST_ND, DRTOPK_I32, DRTOPK_LARGEST, 14, 1, all);
            fixed_case((1u << 20) + 3, 1u << 15, DRTOPK_DIST_UD, DRTOPK_F32, DRTOPK_LARGEST, 4, 2,
                       all | DRTOPK_SHARED_DELEGATE);
            fixed_case((1u << 20) + 3, 1u << 15, DRTOPK_DIST_UD, DRTOPK_F32, DRTOPK_LARGEST, 4, 2, all);
            fixed_case((1u << 21), 1u << 12, DRTOPK_DIST_CD, DRTOPK_U32, DRTOPK_LARGEST, 6, 2, DRTOPK_DELEGATE);
        }
        printf("fixed cases done: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
    }

    {
        const int ncases = small ? RANDOM_CASES_SMALL : RANDOM_CASES_FULL;
        for (int i = 0; i < ncases; ++i) {
            tcase c;
            random_case(&c, small ? SMALL_N_MAX : MEDIUM_N_MAX);
            run_with_host(&c, c.n <= CPU_COMPARE_N_MAX);
            if ((i + 1) % LOG_EVERY == 0) {
                printf("random cases %d: %d passed, %d failed, %d skipped\n", i + 1, passed, failed, skipped);
                fflush(stdout);
            }
        }
    }
    if (!small) test_large();
    printf("skipped (algorithm not built): %d\n", skipped);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
