/*
 * test_api.c -- the public API's contract (drtopk.h): every status path of
 * drtopk_select / drtopk_select_workspace / drtopk_plan_check, status strings,
 * name parsers, Rule 4's alpha (paper section 5.2), plan_auto with tuning
 * tables (the caller's and the compiled-in one, tuning.h), drtopk_last_error;
 * plus the size parser and small helpers of util.h.
 */
#include "test_harness.h"
#include "backend.h"
#include "policy.h"
#include "device.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N_SMALL 1000

typedef struct {
    uint32_t v[N_SMALL + 2];
    uint32_t outv[N_SMALL + 2];
    uint64_t outi[N_SMALL + 2];
    drtopk_problem p;
    drtopk_plan plan;
    void *ws;
    size_t ws_bytes;
} fixture;

static fixture *make_fixture(uint64_t k)
{
    fixture *f = (fixture *)calloc(1, sizeof *f);
    CHECK(f != NULL);
    for (int i = 0; i < N_SMALL; ++i) f->v[i] = (uint32_t)(i * 2654435761u);
    f->p.backend = DRTOPK_BACKEND_CPU;
    f->p.dtype = DRTOPK_U32;
    f->p.order = DRTOPK_LARGEST;
    f->p.n = N_SMALL;
    f->p.k = k;
    f->p.values = f->v;
    /* the paper's pipeline (the CPU's automatic plan is the standalone radix select) */
    CHECK_STATUS(drtopk_plan_rule4(&f->plan, &f->p, DRTOPK_RULE4_CONST_DEFAULT), DRTOPK_OK);
    CHECK_STATUS(drtopk_select_workspace(&f->p, &f->plan, &f->ws_bytes), DRTOPK_OK);
    f->ws = malloc(f->ws_bytes);
    CHECK(f->ws != NULL);
    return f;
}

static void free_fixture(fixture *f)
{
    free(f->ws);
    free(f);
}

static drtopk_status sel(fixture *f)
{
    return drtopk_select(&f->p, &f->plan, f->ws, f->ws_bytes, f->outv, f->outi, NULL, NULL);
}

static void select_ok_and_stats_zeroed(void)
{
    fixture *f = make_fixture(10);
    drtopk_stats st;
    memset(&st, 0xAB, sizeof st);
    f->plan.flags &= ~(unsigned)DRTOPK_DELEGATE;   /* standalone: delegate stats stay 0 */
    CHECK_STATUS(drtopk_select_workspace(&f->p, &f->plan, &f->ws_bytes), DRTOPK_OK);
    free(f->ws);                                    /* another plan, another workspace */
    f->ws = malloc(f->ws_bytes);
    CHECK(f->ws != NULL);
    CHECK_STATUS(drtopk_select(&f->p, &f->plan, f->ws, f->ws_bytes, f->outv, f->outi, NULL, &st),
                 DRTOPK_OK);
    CHECK_EQ_U64(st.delegate_len, 0);
    CHECK_EQ_U64(st.first_selected, 0);
    CHECK(st.ms_first == 0.0 && st.ms_total >= 0.0);
    free_fixture(f);
}

static void select_argument_errors(void)
{
    fixture *f = make_fixture(10);
    drtopk_problem keep = f->p;
    CHECK_STATUS(sel(f), DRTOPK_OK);
    CHECK_STATUS(drtopk_select(NULL, &f->plan, f->ws, f->ws_bytes, f->outv, f->outi, NULL, NULL),
                 DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_select(&f->p, NULL, f->ws, f->ws_bytes, f->outv, f->outi, NULL, NULL),
                 DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_select(&f->p, &f->plan, f->ws, f->ws_bytes, NULL, f->outi, NULL, NULL),
                 DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_select(&f->p, &f->plan, f->ws, f->ws_bytes, f->outv, NULL, NULL, NULL),
                 DRTOPK_ERR_INVALID_ARGUMENT);
    f->p.values = NULL;
    CHECK_STATUS(sel(f), DRTOPK_ERR_INVALID_ARGUMENT);
    f->p = keep;
    f->p.n = 0;
    CHECK_STATUS(sel(f), DRTOPK_ERR_N_ZERO);
    f->p = keep;
    f->p.k = 0;
    CHECK_STATUS(sel(f), DRTOPK_ERR_K_ZERO);
    f->p = keep;
    f->p.k = N_SMALL + 1;
    CHECK_STATUS(sel(f), DRTOPK_ERR_K_GT_N);
    f->p = keep;
    f->p.dtype = DRTOPK_DTYPE_COUNT;
    CHECK_STATUS(sel(f), DRTOPK_ERR_INVALID_ARGUMENT);
    f->p = keep;
    f->p.order = (drtopk_order)2;
    CHECK_STATUS(sel(f), DRTOPK_ERR_INVALID_ARGUMENT);
    f->p = keep;
    f->p.backend = (drtopk_backend)7;
    CHECK_STATUS(sel(f), DRTOPK_ERR_INVALID_ARGUMENT);
    f->p = keep;
    CHECK_STATUS(sel(f), DRTOPK_OK);
    free_fixture(f);
}

static void select_misaligned(void)
{
    fixture *f = make_fixture(10);
    drtopk_problem keep = f->p;
    f->p.values = (const char *)f->v + 1;
    CHECK_STATUS(sel(f), DRTOPK_ERR_MISALIGNED);
    f->p = keep;
    CHECK_STATUS(drtopk_select(&f->p, &f->plan, f->ws, f->ws_bytes, (char *)f->outv + 2, f->outi,
                               NULL, NULL), DRTOPK_ERR_MISALIGNED);
    CHECK_STATUS(drtopk_select(&f->p, &f->plan, f->ws, f->ws_bytes, f->outv,
                               (uint64_t *)((char *)f->outi + 4), NULL, NULL), DRTOPK_ERR_MISALIGNED);
    /* a 4-byte-aligned value pointer is fine */
    f->p.values = f->v + 1;
    f->p.n = N_SMALL - 1;
    CHECK_STATUS(drtopk_select(&f->p, &f->plan, f->ws, f->ws_bytes, f->outv + 1, f->outi, NULL, NULL),
                 DRTOPK_OK);
    free_fixture(f);
}

static void select_workspace_errors(void)
{
    fixture *f = make_fixture(10);
    size_t bytes;
    char *big;
    CHECK(f->ws_bytes > 0);
    CHECK_STATUS(drtopk_select(&f->p, &f->plan, NULL, f->ws_bytes, f->outv, f->outi, NULL, NULL),
                 DRTOPK_ERR_WORKSPACE_TOO_SMALL);
    CHECK_STATUS(drtopk_select(&f->p, &f->plan, NULL, 0, f->outv, f->outi, NULL, NULL),
                 DRTOPK_ERR_WORKSPACE_TOO_SMALL);
    CHECK_STATUS(drtopk_select(&f->p, &f->plan, f->ws, f->ws_bytes - 1, f->outv, f->outi, NULL, NULL),
                 DRTOPK_ERR_WORKSPACE_TOO_SMALL);
    /* an odd workspace base address still works with the reported size */
    big = (char *)malloc(f->ws_bytes + 1);
    CHECK(big != NULL);
    CHECK_STATUS(drtopk_select(&f->p, &f->plan, big + 1, f->ws_bytes, f->outv, f->outi, NULL, NULL),
                 DRTOPK_OK);
    free(big);
    /* the workspace query */
    CHECK_STATUS(drtopk_select_workspace(&f->p, &f->plan, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_select_workspace(NULL, &f->plan, &bytes), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_select_workspace(&f->p, NULL, &bytes), DRTOPK_ERR_INVALID_ARGUMENT);
    f->p.k = 0;
    CHECK_STATUS(drtopk_select_workspace(&f->p, &f->plan, &bytes), DRTOPK_ERR_K_ZERO);
    f->p.k = 10;
    f->p.values = NULL;    /* sizes only: the query accepts no data yet */
    CHECK_STATUS(drtopk_select_workspace(&f->p, &f->plan, &bytes), DRTOPK_OK);
    CHECK_EQ_U64(bytes, f->ws_bytes);
    f->p.values = (const char *)f->v + 3;
    CHECK_STATUS(drtopk_select_workspace(&f->p, &f->plan, &bytes), DRTOPK_ERR_MISALIGNED);
    f->p.values = f->v;
    f->plan.beta = 0;
    CHECK_STATUS(drtopk_select_workspace(&f->p, &f->plan, &bytes), DRTOPK_ERR_INVALID_ARGUMENT);
    free_fixture(f);
}

static void plan_check_paths(void)
{
    fixture *f = make_fixture(10);
    drtopk_plan keep = f->plan;
    CHECK_STATUS(drtopk_plan_check(&f->plan, &f->p), DRTOPK_OK);
    CHECK_STATUS(drtopk_plan_check(NULL, &f->p), DRTOPK_ERR_INVALID_ARGUMENT);
    f->plan.alpha = DRTOPK_ALPHA_MIN - 1;
    CHECK_STATUS(drtopk_plan_check(&f->plan, &f->p), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(sel(f), DRTOPK_ERR_INVALID_ARGUMENT);
    f->plan.alpha = DRTOPK_ALPHA_MAX + 1;
    CHECK_STATUS(drtopk_plan_check(&f->plan, &f->p), DRTOPK_ERR_INVALID_ARGUMENT);
    f->plan.alpha = DRTOPK_ALPHA_MAX;       /* n < 2^alpha: one short subrange */
    CHECK_STATUS(drtopk_plan_check(&f->plan, &f->p), DRTOPK_OK);
    f->plan = keep;
    f->plan.beta = 0;
    CHECK_STATUS(drtopk_plan_check(&f->plan, &f->p), DRTOPK_ERR_INVALID_ARGUMENT);
    f->plan.beta = DRTOPK_BETA_MAX + 1;
    CHECK_STATUS(drtopk_plan_check(&f->plan, &f->p), DRTOPK_ERR_INVALID_ARGUMENT);
    f->plan.beta = DRTOPK_BETA_MAX;
    CHECK_STATUS(drtopk_plan_check(&f->plan, &f->p), DRTOPK_OK);
    f->plan = keep;
    f->plan.first_algo = DRTOPK_ALGO_COUNT;
    CHECK_STATUS(drtopk_plan_check(&f->plan, &f->p), DRTOPK_ERR_INVALID_ARGUMENT);
    f->plan = keep;
    f->plan.second_algo = (drtopk_algo)-1;
    CHECK_STATUS(drtopk_plan_check(&f->plan, &f->p), DRTOPK_ERR_INVALID_ARGUMENT);
    f->plan = keep;
    f->plan.flags |= DRTOPK_DETERMINISTIC << 1;    /* the first bit past the known flags */
    CHECK_STATUS(drtopk_plan_check(&f->plan, &f->p), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(sel(f), DRTOPK_ERR_INVALID_ARGUMENT);
    /* standalone plans ignore alpha and beta */
    f->plan = keep;
    f->plan.flags = DRTOPK_SORTED;
    f->plan.alpha = 0;
    f->plan.beta = 0;
    CHECK_STATUS(drtopk_plan_check(&f->plan, &f->p), DRTOPK_OK);
    free_fixture(f);
}

static void cuda_backend_without_gpu(void)
{
    fixture *f = make_fixture(10);
    size_t bytes = 0;
    if (dh_cuda_available()) {
        /* host pointers must not reach a real GPU: only the query is safe */
        f->p.backend = DRTOPK_BACKEND_CUDA;
        CHECK_STATUS(drtopk_select_workspace(&f->p, &f->plan, &bytes), DRTOPK_OK);
        free_fixture(f);
        return;
    }
    f->p.backend = DRTOPK_BACKEND_CUDA;
    CHECK(sel(f) != DRTOPK_OK);
    free_fixture(f);
}

static void status_strings(void)
{
    for (int a = 0; a < DRTOPK_STATUS_COUNT; ++a) {
        const char *s = drtopk_status_string((drtopk_status)a);
        CHECK(s != NULL && s[0] != '\0');
        for (int b = 0; b < a; ++b)
            CHECKF(strcmp(s, drtopk_status_string((drtopk_status)b)) != 0, "statuses %d and %d share '%s'", a, b, s);
    }
    CHECK(drtopk_status_string(DRTOPK_STATUS_COUNT) != NULL);
    CHECK(drtopk_status_string((drtopk_status)-1) != NULL);
}

static void names_round_trip(void)
{
    char buf[64];
    drtopk_dtype t;
    drtopk_algo a;
    int dr = 7;
    for (int i = 0; i < DRTOPK_DTYPE_COUNT; ++i) {
        CHECK_STATUS(drtopk_dtype_parse(drtopk_dtype_name((drtopk_dtype)i), &t), DRTOPK_OK);
        CHECK(t == (drtopk_dtype)i);
    }
    CHECK_EQ_U64(drtopk_dtype_size(DRTOPK_U32), 4);
    CHECK_EQ_U64(drtopk_dtype_size(DRTOPK_F32), 4);
    CHECK_EQ_U64(drtopk_dtype_size(DRTOPK_F16), 2);
    CHECK_EQ_U64(drtopk_dtype_size(DRTOPK_BF16), 2);
    CHECK_EQ_U64(drtopk_dtype_size(DRTOPK_U64), 8);
    CHECK_EQ_U64(drtopk_dtype_size(DRTOPK_I64), 8);
    CHECK_EQ_U64(drtopk_dtype_size(DRTOPK_F64), 8);
    CHECK_STATUS(drtopk_dtype_parse("bfloat16", &t), DRTOPK_OK);
    CHECK(t == DRTOPK_BF16);
    CHECK_STATUS(drtopk_dtype_parse("u16", &t), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_EQ_U64(drtopk_dtype_size(DRTOPK_DTYPE_COUNT), 0);
    CHECK_STATUS(drtopk_dtype_parse("float32", &t), DRTOPK_OK);
    CHECK(t == DRTOPK_F32);
    CHECK_STATUS(drtopk_dtype_parse(NULL, &t), DRTOPK_ERR_INVALID_ARGUMENT);
    for (int i = 0; i < DRTOPK_ALGO_COUNT; ++i) {
        const char *name = drtopk_algo_name((drtopk_algo)i);
        CHECK_STATUS(drtopk_algo_parse(name, &a, &dr), DRTOPK_OK);
        CHECK(a == (drtopk_algo)i && dr == 0);
        snprintf(buf, sizeof buf, "dr-%s", name);
        CHECK_STATUS(drtopk_algo_parse(buf, &a, &dr), DRTOPK_OK);
        CHECK(a == (drtopk_algo)i && dr == 1);
        for (int j = 0; j < i; ++j) CHECK(strcmp(name, drtopk_algo_name((drtopk_algo)j)) != 0);
    }
    CHECK(strcmp(drtopk_algo_name(DRTOPK_ALGO_RADIX_GGKS_OOP), "radix-ggks-oop") == 0);
    CHECK(strcmp(drtopk_algo_name(DRTOPK_ALGO_SORT_THRUST), "sort-thrust") == 0);
    CHECK_STATUS(drtopk_algo_parse("dr-", &a, &dr), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_algo_parse("quick", &a, &dr), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_algo_parse("dr-dr-radix", &a, &dr), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_algo_parse("radix", &a, NULL), DRTOPK_OK);
}

static void rule4_alpha(void)
{
    /* 0.5 * (3 + 30 - 10) = 11.5 -> 12 */
    CHECK_EQ_U64(drtopk_rule4_alpha(1ull << 30, 1ull << 10, 3.0), 12);
    /* 0.5 * (3 + 30 - 0) = 16.5 -> 17 */
    CHECK_EQ_U64(drtopk_rule4_alpha(1ull << 30, 1, 3.0), 17);
    /* 0.5 * (3 + 30 - 24) = 4.5 -> 5 */
    CHECK_EQ_U64(drtopk_rule4_alpha(1ull << 30, 1ull << 24, 3.0), 5);
    CHECK_EQ_U64(drtopk_rule4_alpha(1ull << 30, 1ull << 20, 2.0), 6);
    /* clamps: at least ALPHA_MIN, at most ALPHA_MAX and ceil(log2 n) */
    CHECK_EQ_U64(drtopk_rule4_alpha(1ull << 30, 1ull << 30, 0.0), DRTOPK_ALPHA_MIN);
    CHECK_EQ_U64(drtopk_rule4_alpha(1ull << 33, 1, 30.0), DRTOPK_ALPHA_MAX);
    CHECK_EQ_U64(drtopk_rule4_alpha(1000, 1, 40.0), 10);      /* ceil(log2 1000) */
    CHECK_EQ_U64(drtopk_rule4_alpha(1024, 1, 40.0), 10);
    CHECK_EQ_U64(drtopk_rule4_alpha(1, 1, 3.0), DRTOPK_ALPHA_MIN);
    CHECK_EQ_U64(drtopk_rule4_alpha(2, 1, 3.0), 1);
    CHECK_EQ_U64(drtopk_rule4_alpha(1000, 1, -50.0), DRTOPK_ALPHA_MIN);
    CHECK_EQ_U64(drtopk_rule4_alpha(0, 1, 3.0), DRTOPK_ALPHA_MIN);
    /* ties of an integer const are exact: 0.5 * (3 + 12) = 7.5 -> 8 at n / k = 2^12, k = 3
       (log2 in doubles gave 7), and 0.5 * (3 + 20) = 11.5 -> 12 at k = 3 * 2^10 */
    CHECK_EQ_U64(drtopk_rule4_alpha(3ull << 12, 3, 3.0), 8);
    CHECK_EQ_U64(drtopk_rule4_alpha(3ull << 30, 3ull << 10, 3.0), 12);
    /* a fitted const stays in doubles: 0.5 * (2.5 + 12) = 7.25 -> 7 */
    CHECK_EQ_U64(drtopk_rule4_alpha(3ull << 12, 3, 2.5), 7);
}

/* The size rules (policy.h): small CUDA problems no tuning entry covers get
 * the standalone fused plan up to 2^(POLICY_FUSED_LOG2 + 1) - 1 keys (64-bit
 * keys up to 2^(POLICY_FUSED_64_LOG2 + 1) - 1 at any k, then where it reads
 * V once at bounded k, or at k >= n/16 and, one size more, n/4), 16-bit keys at k <= POLICY_FUSED_16_MAX_K up to
 * 2^(POLICY_FUSED_16_LOG2 + 1) - 1, 32-bit keys at k <= POLICY_FUSED_32_MAX_K
 * up to 2^(POLICY_FUSED_32_LOG2 + 1) - 1, and k >= n/4 up to
 * 2^(POLICY_FUSED_MOST_LOG2 + 1) - 1; 32-bit keys from
 * 2^POLICY_PIPELINE_MIN_LOG2 (float keys from 2^POLICY_PIPELINE_FLOAT_MIN_LOG2)
 * at k <= POLICY_PIPELINE_MAX_K the pipeline, and
 * past it fused at k <= POLICY_FUSED_32_ONCE_MAX_K up to
 * 2^(POLICY_FUSED_32_ONCE_LOG2 + 1) - 1 where it reads V once;
 * the rest onepass; fused runs standalone only; the CPU backend keeps the
 * pipeline, and a tuning entry wins. */
static void plan_auto_small_n(void)
{
    const uint64_t small = (2ull << POLICY_FUSED_LOG2) - 1;
    drtopk_problem p = { DRTOPK_BACKEND_CUDA, DRTOPK_F16, DRTOPK_LARGEST, small, 100, NULL };
    drtopk_plan plan;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_FUSED && plan.const_source == DRTOPK_CONST_DEFAULT);
    p.dtype = DRTOPK_F64;
    static const struct {
        int log2n;
        uint64_t k;
        drtopk_algo algo;
    } wide[] = {
        { POLICY_FUSED_64_LOG2, POLICY_FUSED_64_ONCE_MAX_K + 1, DRTOPK_ALGO_FUSED },      /* any k */
        { POLICY_FUSED_64_LOG2, 1ull << POLICY_FUSED_64_LOG2, DRTOPK_ALGO_FUSED },
        { POLICY_FUSED_64_ONCE_LOG2, POLICY_FUSED_64_ONCE_MAX_K, DRTOPK_ALGO_FUSED },    /* where it reads V once */
        { POLICY_FUSED_64_ONCE_LOG2, POLICY_FUSED_64_ONCE_MAX_K + 1, DRTOPK_ALGO_ONEPASS },
        { POLICY_FUSED_64_MOST_LOG2, 1ull << (POLICY_FUSED_64_MOST_LOG2 - POLICY_FUSED_64_MOST_SHIFT),
          DRTOPK_ALGO_FUSED },                                                           /* k >= n/16 */
        { POLICY_FUSED_64_MOST_LOG2, (1ull << (POLICY_FUSED_64_MOST_LOG2 - POLICY_FUSED_64_MOST_SHIFT)) - 1,
          DRTOPK_ALGO_ONEPASS },
        { POLICY_FUSED_64_HALF_LOG2, 1ull << (POLICY_FUSED_64_HALF_LOG2 - POLICY_FUSED_64_HALF_SHIFT),
          DRTOPK_ALGO_FUSED },                                                           /* k >= n/2 */
        { POLICY_FUSED_64_HALF_LOG2, (1ull << (POLICY_FUSED_64_HALF_LOG2 - POLICY_FUSED_64_HALF_SHIFT)) - 1,
          DRTOPK_ALGO_ONEPASS },
        { POLICY_FUSED_64_HALF_LOG2, 1ull << (POLICY_FUSED_64_HALF_LOG2 - POLICY_FUSED_64_MOST_SHIFT),
          DRTOPK_ALGO_ONEPASS },
        { POLICY_FUSED_64_WIDE_LOG2, POLICY_FUSED_64_WIDE_MAX_K, DRTOPK_ALGO_FUSED },
        { POLICY_FUSED_64_WIDE_LOG2, POLICY_FUSED_64_WIDE_MAX_K + 1, DRTOPK_ALGO_ONEPASS },
        { POLICY_FUSED_64_WIDE_LOG2, 1ull << (POLICY_FUSED_64_WIDE_LOG2 - POLICY_FUSED_64_HALF_SHIFT),
          DRTOPK_ALGO_ONEPASS },
        { POLICY_FUSED_64_WIDE_LOG2 + 1, 1, DRTOPK_ALGO_ONEPASS },
    };
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; ++i) {
        p.n = 1ull << wide[i].log2n;
        p.k = wide[i].k;
        CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
        CHECKF(plan.flags == 0 && plan.second_algo == wide[i].algo, "f64 n = 2^%d+, k = %" PRIu64 ": %s, want %s",
               wide[i].log2n, p.k, drtopk_algo_name(plan.second_algo), drtopk_algo_name(wide[i].algo));
    }
    static const struct {
        drtopk_dtype t;
        int log2n;
        uint64_t k;
        drtopk_algo algo;
    } half[] = {
        { DRTOPK_F16, POLICY_FUSED_16_LOG2, POLICY_FUSED_16_MAX_K, DRTOPK_ALGO_FUSED },
        { DRTOPK_BF16, POLICY_FUSED_16_LOG2, POLICY_FUSED_16_MAX_K, DRTOPK_ALGO_FUSED },
        { DRTOPK_F16, POLICY_FUSED_16_LOG2, 1ull << (POLICY_FUSED_16_LOG2 - POLICY_FUSED_16_K_SHIFT),
          DRTOPK_ALGO_FUSED },                                          /* where it reads V once */
        { DRTOPK_F16, POLICY_FUSED_16_LOG2, (1ull << (POLICY_FUSED_16_LOG2 - POLICY_FUSED_16_K_SHIFT)) + 1,
          DRTOPK_ALGO_ONEPASS },
        { DRTOPK_BF16, POLICY_FUSED_16_LOG2 + 1, 1, DRTOPK_ALGO_ONEPASS },
        { DRTOPK_F16, POLICY_PIPELINE_MIN_LOG2, 1, DRTOPK_ALGO_ONEPASS },   /* the pipeline is 32-bit only */
    };
    for (size_t i = 0; i < sizeof half / sizeof half[0]; ++i) {
        p.dtype = half[i].t;
        p.n = 1ull << half[i].log2n;
        p.k = half[i].k;
        CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
        CHECKF(plan.flags == 0 && plan.second_algo == half[i].algo, "%s n = 2^%d, k = %" PRIu64 ": %s, want %s",
               drtopk_dtype_name(p.dtype), half[i].log2n, p.k, drtopk_algo_name(plan.second_algo),
               drtopk_algo_name(half[i].algo));
    }
    p.k = 100;
    p.n = small;
    p.dtype = DRTOPK_F16;
    /* fused reads V itself: no first or second top-k of the pipeline */
    plan.first_algo = plan.second_algo = DRTOPK_ALGO_FUSED;
    plan.flags = DRTOPK_DELEGATE;
    plan.alpha = 4;
    plan.beta = 2;
    p.backend = DRTOPK_BACKEND_CPU;
    CHECK_STATUS(drtopk_select_workspace(&p, &plan, &(size_t){ 0 }), DRTOPK_ERR_UNSUPPORTED);
    CHECK(strstr(drtopk_last_error(), "fused runs standalone only") != NULL);
    p.backend = DRTOPK_BACKEND_CUDA;
    p.n = small + 1;
    p.dtype = DRTOPK_U32;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_FUSED);   /* one read of V at small k */
    p.k = (p.n >> POLICY_FUSED_32_K_SHIFT) + 1;  /* past the fused plan's k: one read by onepass */
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_ONEPASS);
    p.k = 100;
    p.n = 2ull << POLICY_FUSED_32_LOG2;  /* past its n: fused where it reads V once (no GPU here: it may) */
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_FUSED && plan.const_source == DRTOPK_CONST_DEFAULT);
    p.n = (2ull << POLICY_FUSED_32_ONCE_LOG2) - 1;
    p.k = POLICY_FUSED_32_ONCE_MAX_K;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_FUSED);
    p.k = POLICY_FUSED_32_ONCE_MAX_K + 1;       /* past its k */
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_ONEPASS);
    p.k = 100;
    p.n = 2ull << POLICY_FUSED_32_ONCE_LOG2;    /* past its n */
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_ONEPASS && plan.const_source == DRTOPK_CONST_DEFAULT);
    p.n = (2ull << POLICY_FUSED_32_LOG2) - 1;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_FUSED);
    p.n = 1ull << POLICY_PIPELINE_MIN_LOG2;   /* tiny k of large inputs: the paper's pipeline */
    p.k = POLICY_PIPELINE_MAX_K;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK((plan.flags & DRTOPK_DELEGATE) && plan.second_algo == DRTOPK_ALGO_RADIX && plan.beta == POLICY_AUTO_BETA &&
          plan.alpha == drtopk_rule4_alpha(p.n, p.k, POLICY_PIPELINE_RULE4_CONST));
    p.k = POLICY_PIPELINE_MAX_K + 1;            /* past the pipeline's k: fused where it reads V once */
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_FUSED);
    /* 2^POLICY_FUSED_32_LOG2 keys: integer keys fused up to POLICY_FUSED_32_ONCE_WIDE_MAX_K where it reads V
     * once, float keys (f32 CD: few values) onepass; float keys take the pipeline from
     * 2^POLICY_PIPELINE_FLOAT_MIN_LOG2 keys (below it fused where it reads V once, then onepass), integer keys
     * from 2^POLICY_PIPELINE_MIN_LOG2 */
    static const struct {
        drtopk_dtype t;
        uint64_t n, k;
        int pipeline;
        drtopk_algo algo;
    } edges[] = {
        { DRTOPK_U32, 1ull << POLICY_FUSED_32_LOG2, POLICY_FUSED_32_ONCE_WIDE_MAX_K, 0, DRTOPK_ALGO_FUSED },
        { DRTOPK_F32, 1ull << POLICY_FUSED_32_LOG2, POLICY_FUSED_32_ONCE_WIDE_MAX_K, 0, DRTOPK_ALGO_ONEPASS },
        { DRTOPK_U32, 1ull << POLICY_FUSED_32_LOG2, POLICY_FUSED_32_ONCE_WIDE_MAX_K + 1, 0, DRTOPK_ALGO_ONEPASS },
        { DRTOPK_F32, 1ull << POLICY_PIPELINE_MIN_LOG2, 1, 0, DRTOPK_ALGO_FUSED },
        { DRTOPK_F32, (1ull << POLICY_PIPELINE_FLOAT_MIN_LOG2) - 1, POLICY_PIPELINE_MAX_K, 0, DRTOPK_ALGO_ONEPASS },
        { DRTOPK_F32, 1ull << POLICY_PIPELINE_FLOAT_MIN_LOG2, POLICY_PIPELINE_MAX_K, 1, DRTOPK_ALGO_RADIX },
        { DRTOPK_I32, (1ull << POLICY_PIPELINE_FLOAT_MIN_LOG2) - 1, POLICY_PIPELINE_MAX_K, 1, DRTOPK_ALGO_RADIX },
    };
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; ++i) {
        p.dtype = edges[i].t;
        p.n = edges[i].n;
        p.k = edges[i].k;
        CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
        CHECKF(!!(plan.flags & DRTOPK_DELEGATE) == edges[i].pipeline && plan.second_algo == edges[i].algo,
               "%s n = %" PRIu64 ", k = %" PRIu64 ": %s%s", drtopk_dtype_name(p.dtype), p.n, p.k,
               plan.flags & DRTOPK_DELEGATE ? "pipeline, " : "", drtopk_algo_name(plan.second_algo));
    }
    p.dtype = DRTOPK_U32;
    p.n = 1ull << POLICY_FUSED_32_WIDE_K_LOG2;  /* fused at k <= n / 2^POLICY_FUSED_32_K_SHIFT up to there */
    p.k = p.n >> POLICY_FUSED_32_K_SHIFT;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_FUSED);
    p.k += 1;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_ONEPASS);
    p.n = 1ull << POLICY_PIPELINE_MIN_LOG2;
    p.dtype = DRTOPK_F16;                      /* 16-bit keys: onepass past fused's n and k */
    p.k = 1;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_ONEPASS);
    p.n = small + 1;
    p.k = (p.n >> POLICY_FUSED_16_K_SHIFT) + 1;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_ONEPASS);
    p.n = (2ull << POLICY_FUSED_MOST_LOG2) - 1;  /* a quarter of V or more: fused, 64-bit keys too */
    p.k = p.n >> POLICY_FUSED_MOST_SHIFT;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_FUSED);
    p.dtype = DRTOPK_F32;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_FUSED);
    p.dtype = DRTOPK_F16;
    p.k -= 1;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_ONEPASS);
    p.dtype = DRTOPK_U64;                        /* 64-bit keys there: onepass past fused's k ... */
    p.k = (p.n >> POLICY_FUSED_64_MOST_SHIFT) - 1;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_ONEPASS);
    p.k = POLICY_FUSED_64_ONCE_MAX_K;            /* ... and fused up to it where it reads V once */
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_FUSED);
    p.n = 1ull << POLICY_FUSED_64_LOG2;          /* 64-bit inputs up to here: fused at any k */
    for (p.k = 1; p.k <= p.n; p.k *= 64) {
        CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
        CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_FUSED);
    }
    p.dtype = DRTOPK_U32;                        /* past that rule's n: onepass */
    p.n = (2ull << POLICY_FUSED_MOST_LOG2) - 1;
    p.n *= 2;
    p.k = p.n;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_ONEPASS);
    p.k = 100;
    p.dtype = DRTOPK_F16;
    p.n = small;
    p.backend = DRTOPK_BACKEND_CPU;     /* the CPU's plan: its threaded radix select */
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_RADIX);
    p.backend = DRTOPK_BACKEND_CUDA;
    const drtopk_tuning_entry e = { DRTOPK_F16, 0, 63, 0, 63, DRTOPK_ALGO_BUCKET, 3, 2.0, 0 };
    const drtopk_tuning t = { "test", &e, 1, 0 };
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, &t), DRTOPK_OK);
    CHECK((plan.flags & DRTOPK_DELEGATE) && plan.second_algo == DRTOPK_ALGO_BUCKET && plan.beta == 3);
}

/* Untuned keys of every width above the small inputs (2^(POLICY_FUSED_16_LOG2
 * + 1) keys of 16 bits; 64-bit ones at k = 100 2^(POLICY_FUSED_64_WIDE_LOG2 + 1)) get
 * the one-read top-k at their own width on the CUDA backend, below them
 * fused; 64-bit keys keep a standalone plan they run whatever a table says:
 * the size rules'. */
static void plan_auto_key_widths(void)
{
    const uint64_t large16 = 2ull << POLICY_FUSED_16_LOG2, large64 = 2ull << POLICY_FUSED_64_WIDE_LOG2;
    uint64_t large = large16;
    static const drtopk_dtype wide[] = { DRTOPK_F16, DRTOPK_BF16, DRTOPK_U64, DRTOPK_I64, DRTOPK_F64 };
    drtopk_problem p = { DRTOPK_BACKEND_CUDA, DRTOPK_F16, DRTOPK_LARGEST, large, 100, NULL };
    drtopk_plan plan;
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; ++i) {
        p.dtype = wide[i];
        large = drtopk_dtype_bits(wide[i]) == 64 ? large64 : large16;
        p.n = large;
        CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
        CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_ONEPASS && plan.const_source == DRTOPK_CONST_DEFAULT);
        p.n = large - 1;        /* small inputs: fused */
        CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
        CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_FUSED);
    }
    p.dtype = DRTOPK_U64;
    const drtopk_tuning_entry e = { DRTOPK_U64, 0, 63, 0, 63, DRTOPK_ALGO_BUCKET, 3, 2.0, 0 };
    const drtopk_tuning t = { "test", &e, 1, 0 };
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, &t), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_FUSED);
    p.n = large;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, &t), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_ONEPASS);
    p.backend = DRTOPK_BACKEND_CPU;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_RADIX);
}

static void plan_auto_fields(void)
{
    drtopk_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, 1ull << 30, 1024, NULL };
    drtopk_plan plan;
    double c = 5.0;
    /* no tuning table: the CPU's standalone radix select (the library reads no database) */
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.alpha == 0 && plan.beta == 0 && plan.second_algo == DRTOPK_ALGO_RADIX);
    CHECK(plan.const_source == DRTOPK_CONST_DEFAULT);
    CHECK_STATUS(drtopk_plan_check(&plan, &p), DRTOPK_OK);
    /* the paper's pipeline at its default const */
    CHECK_STATUS(drtopk_plan_rule4(&plan, &p, DRTOPK_RULE4_CONST_DEFAULT), DRTOPK_OK);
    CHECK_EQ_U64(plan.alpha, drtopk_rule4_alpha(p.n, p.k, DRTOPK_RULE4_CONST_DEFAULT));
    CHECK_EQ_U64(plan.beta, 2);
    CHECK(plan.first_algo == DRTOPK_ALGO_RADIX && plan.second_algo == DRTOPK_ALGO_RADIX);
    CHECK(plan.flags == (DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT));
    CHECK(plan.rule4_const == DRTOPK_RULE4_CONST_DEFAULT && plan.const_source == DRTOPK_CONST_USER);
    CHECK_STATUS(drtopk_plan_check(&plan, &p), DRTOPK_OK);
    CHECK_STATUS(drtopk_plan_rule4(&plan, &p, c), DRTOPK_OK);
    CHECK(plan.rule4_const == 5.0 && plan.const_source == DRTOPK_CONST_USER);
    CHECK_EQ_U64(plan.alpha, 13);   /* 0.5 * (5 + 30 - 10) = 12.5 -> 13 */
    p.k = 1ull << 24;               /* alpha 5: shared-memory delegates (paper 5.3) */
    CHECK_STATUS(drtopk_plan_rule4(&plan, &p, DRTOPK_RULE4_CONST_DEFAULT), DRTOPK_OK);
    CHECK_EQ_U64(plan.alpha, 5);
    CHECK(plan.flags & DRTOPK_SHARED_DELEGATE);
    c = NAN;
    CHECK_STATUS(drtopk_plan_rule4(&plan, &p, c), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_plan_auto(NULL, &p, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_plan_auto(&plan, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    p.k = 0;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_ERR_K_ZERO);
    p.k = p.n + 1;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_ERR_K_GT_N);
    p.n = 0;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_ERR_N_ZERO);
}

/* Entries for the tuning tests: u32 with n in [2^20, 2^30] split at k = 2^10,
 * then an f32 catch-all. */
static const drtopk_tuning_entry tuned[] = {
    { DRTOPK_U32, 20, 30, 0, 9, DRTOPK_ALGO_BUCKET, 3, 1.5, 0 },
    { DRTOPK_U32, 20, 30, 10, 63, DRTOPK_ALGO_RADIX, 1, 6.0, 0 },
    { DRTOPK_U32, 0, 63, 0, 63, DRTOPK_ALGO_BITONIC, 4, 9.0, 0 },   /* shadowed above 2^20 */
    { DRTOPK_F32, 0, 63, 0, 63, DRTOPK_ALGO_RADIX_GGKS, 2, -1.0, 0 },
};

/* plan_auto on (dtype, n, k) with table t: the plan's source, const, beta, algorithm. */
static void expect_plan(const drtopk_tuning *t, const drtopk_tuning *builtin, drtopk_dtype dt, uint64_t n,
                        uint64_t k, drtopk_const_source src, double c, int beta, drtopk_algo algo)
{
    drtopk_problem p = { DRTOPK_BACKEND_CPU, dt, DRTOPK_LARGEST, n, k, NULL };
    drtopk_plan plan;
    char what[128];
    snprintf(what, sizeof what, "%s n = %" PRIu64 " k = %" PRIu64, drtopk_dtype_name(dt), n, k);
    test_context(what);
    CHECK_STATUS(builtin ? drtopk_plan_from_tables(&plan, &p, t, builtin, 0) : drtopk_plan_auto(&plan, &p, t),
                 DRTOPK_OK);
    CHECKF(plan.const_source == src, "%s: source %d, want %d", what, (int)plan.const_source, (int)src);
    if (src == DRTOPK_CONST_DEFAULT) {   /* no entry: the CPU's standalone radix select */
        CHECK(plan.flags == 0 && plan.alpha == 0 && plan.beta == 0 && plan.second_algo == DRTOPK_ALGO_RADIX);
        return;
    }
    CHECKF(plan.rule4_const == c && plan.beta == beta, "%s: const %g beta %d", what, plan.rule4_const,
           plan.beta);
    CHECK(plan.first_algo == algo && plan.second_algo == algo);
    CHECK_EQ_U64(plan.alpha, drtopk_rule4_alpha(n, k, c));
    CHECK(plan.flags & DRTOPK_DELEGATE);
    CHECK_STATUS(drtopk_plan_check(&plan, &p), DRTOPK_OK);
}

/* A table decides only among the plans its sweep measured (algos_measured):
 * an untuned standalone plan (fused, onepass) it never measured wins over its
 * entry; mask 0 (not recorded) or one with the plan keeps the entry. */
static void expect_source(const drtopk_tuning *t, const drtopk_tuning *builtin, drtopk_backend b, drtopk_dtype dt,
                          uint64_t n, uint64_t k, drtopk_const_source src, drtopk_algo algo, int delegate)
{
    drtopk_problem p = { b, dt, DRTOPK_LARGEST, n, k, NULL };
    drtopk_plan plan;
    char what[160];
    snprintf(what, sizeof what, "%s %s n = %" PRIu64 " k = %" PRIu64 " measured 0x%x",
             b == DRTOPK_BACKEND_CUDA ? "cuda" : "cpu", drtopk_dtype_name(dt), n, k,
             (unsigned)(t ? t->algos_measured : builtin->algos_measured));
    test_context(what);
    CHECK_STATUS(drtopk_plan_from_tables(&plan, &p, t, builtin, 0), DRTOPK_OK);
    CHECKF(plan.const_source == src, "%s: source %d, want %d", what, (int)plan.const_source, (int)src);
    CHECKF(plan.first_algo == algo && plan.second_algo == algo, "%s: algo %s, want %s", what,
           drtopk_algo_name(plan.second_algo), drtopk_algo_name(algo));
    CHECKF(!(plan.flags & DRTOPK_DELEGATE) == !delegate, "%s: flags 0x%x", what, plan.flags);
}

static void plan_auto_unmeasured_standalone(void)
{
    static const drtopk_tuning_entry swept[] = {
        { DRTOPK_U32, 24, 25, 0, 63, DRTOPK_ALGO_RADIX, 2, 4.0, 0 },
        { DRTOPK_U64, 24, 25, 0, 63, DRTOPK_ALGO_RADIX, 2, 4.0, 0 },
    };
    const uint32_t radix = UINT32_C(1) << DRTOPK_ALGO_RADIX, fused = UINT32_C(1) << DRTOPK_ALGO_FUSED,
                   onepass = UINT32_C(1) << DRTOPK_ALGO_ONEPASS;
    const drtopk_tuning before = { "Test GPU", swept, 2, radix };          /* swept before fused, onepass */
    const drtopk_tuning unrecorded = { "Test GPU", swept, 2, 0 };
    const drtopk_tuning with_fused = { "Test GPU", swept, 2, radix | fused };
    const drtopk_tuning with_onepass = { "Test GPU", swept, 2, radix | onepass };
    const drtopk_tuning empty = { "Test GPU", NULL, 0, 0 };
    const drtopk_backend cuda = DRTOPK_BACKEND_CUDA;
    const uint64_t n = 1ull << 24, k = 1024;
    /* u32 in the fused plan's scope: fused unless the sweep measured it or did not record */
    expect_source(&before, NULL, cuda, DRTOPK_U32, n, k, DRTOPK_CONST_DEFAULT, DRTOPK_ALGO_FUSED, 0);
    expect_source(&empty, &before, cuda, DRTOPK_U32, n, k, DRTOPK_CONST_DEFAULT, DRTOPK_ALGO_FUSED, 0);
    expect_source(&unrecorded, NULL, cuda, DRTOPK_U32, n, k, DRTOPK_CONST_TUNING, DRTOPK_ALGO_RADIX, 1);
    expect_source(&empty, &unrecorded, cuda, DRTOPK_U32, n, k, DRTOPK_CONST_BUILTIN, DRTOPK_ALGO_RADIX, 1);
    expect_source(&with_fused, NULL, cuda, DRTOPK_U32, n, k, DRTOPK_CONST_TUNING, DRTOPK_ALGO_RADIX, 1);
    expect_source(&empty, &with_fused, cuda, DRTOPK_U32, n, k, DRTOPK_CONST_BUILTIN, DRTOPK_ALGO_RADIX, 1);
    /* past the fused plan's scope (k, n) the size rule is onepass: it wins over a table that never
     * measured it, and a table that did decides */
    expect_source(&before, NULL, cuda, DRTOPK_U32, n, (n >> POLICY_FUSED_32_K_SHIFT) + 1, DRTOPK_CONST_DEFAULT,
                  DRTOPK_ALGO_ONEPASS, 0);
    expect_source(&empty, &before, cuda, DRTOPK_U32, 2ull << POLICY_FUSED_32_ONCE_LOG2, k, DRTOPK_CONST_DEFAULT,
                  DRTOPK_ALGO_ONEPASS, 0);
    /* where the size rule is the pipeline, the entry refines it */
    expect_source(&empty, &before, cuda, DRTOPK_U32, 1ull << POLICY_PIPELINE_MIN_LOG2, 1, DRTOPK_CONST_DEFAULT,
                  DRTOPK_ALGO_RADIX, 1);
    expect_source(&with_onepass, NULL, cuda, DRTOPK_U32, n, (n >> POLICY_FUSED_32_K_SHIFT) + 1, DRTOPK_CONST_TUNING,
                  DRTOPK_ALGO_RADIX, 1);
    expect_source(&unrecorded, NULL, cuda, DRTOPK_U32, n, (n >> POLICY_FUSED_32_K_SHIFT) + 1, DRTOPK_CONST_TUNING,
                  DRTOPK_ALGO_RADIX, 1);
    /* 64-bit keys: fused either way (the pipeline they lack becomes the size rules' plan), from the
     * table when it measured fused */
    expect_source(&before, NULL, cuda, DRTOPK_U64, n, k, DRTOPK_CONST_DEFAULT, DRTOPK_ALGO_FUSED, 0);
    expect_source(&with_onepass, NULL, cuda, DRTOPK_U64, n, k, DRTOPK_CONST_DEFAULT, DRTOPK_ALGO_FUSED, 0);
    expect_source(&with_fused, NULL, cuda, DRTOPK_U64, n, k, DRTOPK_CONST_TUNING, DRTOPK_ALGO_FUSED, 0);
    /* the CPU backend has no untuned standalone plan: the entry stands */
    expect_source(&before, NULL, DRTOPK_BACKEND_CPU, DRTOPK_U32, n, k, DRTOPK_CONST_TUNING, DRTOPK_ALGO_RADIX, 1);
    expect_source(&before, NULL, DRTOPK_BACKEND_CPU, DRTOPK_U64, n, k, DRTOPK_CONST_TUNING, DRTOPK_ALGO_RADIX, 1);
}

static void plan_auto_tuning_match(void)
{
    const drtopk_tuning t = { "Test GPU", tuned, sizeof tuned / sizeof tuned[0], 0 };
    const drtopk_tuning empty = { "Test GPU", NULL, 0, 0 };
    const double c3 = DRTOPK_RULE4_CONST_DEFAULT;
    /* log2 k ranges are floor(log2 k): 1023 is in 0..9, 1024 in 10..63 */
    expect_plan(&t, NULL, DRTOPK_U32, 1ull << 20, 1023, DRTOPK_CONST_TUNING, 1.5, 3, DRTOPK_ALGO_BUCKET);
    expect_plan(&t, NULL, DRTOPK_U32, 1ull << 20, 1024, DRTOPK_CONST_TUNING, 6.0, 1, DRTOPK_ALGO_RADIX);
    /* log2 n: 2^31 - 1 is still 30; below 2^20 the catch-all (the first match wins above it) */
    expect_plan(&t, NULL, DRTOPK_U32, (1ull << 31) - 1, 1, DRTOPK_CONST_TUNING, 1.5, 3, DRTOPK_ALGO_BUCKET);
    expect_plan(&t, NULL, DRTOPK_U32, (1ull << 20) - 1, 1, DRTOPK_CONST_TUNING, 9.0, 4, DRTOPK_ALGO_BITONIC);
    expect_plan(&t, NULL, DRTOPK_U32, 1ull << 31, 1, DRTOPK_CONST_TUNING, 9.0, 4, DRTOPK_ALGO_BITONIC);
    /* dtype: f32 has its own entry, i32 none */
    expect_plan(&t, NULL, DRTOPK_F32, 1ull << 20, 16, DRTOPK_CONST_TUNING, -1.0, 2, DRTOPK_ALGO_RADIX_GGKS);
    expect_plan(&t, NULL, DRTOPK_I32, 1ull << 20, 16, DRTOPK_CONST_DEFAULT, c3, 2, DRTOPK_ALGO_RADIX);
    /* NULL or empty table: the paper's defaults */
    expect_plan(NULL, NULL, DRTOPK_U32, 1ull << 20, 16, DRTOPK_CONST_DEFAULT, c3, 2, DRTOPK_ALGO_RADIX);
    expect_plan(&empty, NULL, DRTOPK_U32, 1ull << 20, 16, DRTOPK_CONST_DEFAULT, c3, 2, DRTOPK_ALGO_RADIX);
    /* the compiled-in table answers what the caller's does not; the caller's wins */
    expect_plan(&empty, &t, DRTOPK_U32, 1ull << 20, 16, DRTOPK_CONST_BUILTIN, 1.5, 3, DRTOPK_ALGO_BUCKET);
    expect_plan(NULL, &t, DRTOPK_I32, 1ull << 20, 16, DRTOPK_CONST_DEFAULT, c3, 2, DRTOPK_ALGO_RADIX);
    const drtopk_tuning f32_only = { "Test GPU", &tuned[3], 1, 0 };
    expect_plan(&f32_only, &t, DRTOPK_F32, 1ull << 20, 16, DRTOPK_CONST_TUNING, -1.0, 2, DRTOPK_ALGO_RADIX_GGKS);
    expect_plan(&f32_only, &t, DRTOPK_U32, 1ull << 20, 16, DRTOPK_CONST_BUILTIN, 1.5, 3, DRTOPK_ALGO_BUCKET);
}

/* The planner's choice at representative cells, from a fixed table: the
 * size rules on the CUDA backend (no table for this GPU) and on the CPU
 * backend, and a fixture tuning table that measured every contender, each
 * cell's plan, for the result's flags given (drtopk_plan_auto_flags), written
 * out as the algorithm label the programs print and the alpha it resolves (0
 * for a standalone plan).  A change of the policy that
 * moves one of these cells shows here by name. */
static void plan_auto_cells(void)
{
    static const drtopk_tuning_entry entries[] = {
        { DRTOPK_U32, 28, 30, 0, 2, DRTOPK_ALGO_RADIX, 2, 4.0, 0 },     /* dr-radix at small k ... */
        { DRTOPK_U32, 28, 30, 3, 63, DRTOPK_ALGO_ONEPASS, 2, 3.0, 0 },  /* ... onepass above */
        { DRTOPK_F32, 0, 63, 0, 63, DRTOPK_ALGO_FUSED, 2, 3.0, 0 },
    };
    const uint32_t all = (UINT32_C(1) << DRTOPK_ALGO_COUNT) - 1;
    const drtopk_tuning table = { "Fixture GPU", entries, sizeof entries / sizeof entries[0], all };
    static const struct {
        int tuned;
        drtopk_backend backend;
        drtopk_dtype dtype;
        int log2n, log2k;
        unsigned flags;         /* the result's (drtopk_plan_auto_flags) */
        const char *label;
        int alpha;
        drtopk_const_source src;
    } cells[] = {
        /* the size rules, CUDA: one read of V at large k (u32 2^30, k = 2^24: the untuned default was dr-radix) */
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_U32, 30, 24, 0, "onepass", 0, DRTOPK_CONST_DEFAULT },
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_U32, 30, 16, 0, "onepass", 0, DRTOPK_CONST_DEFAULT },
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_U32, 28, 22, 0, "onepass", 0, DRTOPK_CONST_DEFAULT },
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_U32, 26, 20, 0, "onepass", 0, DRTOPK_CONST_DEFAULT },
        /* the paper's pipeline at k = 1 of 2^30 keys: Rule 4 with const 5, round(0.5 * (5 + 30)) = 18 */
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_U32, 30, 0, 0, "dr-radix", 18, DRTOPK_CONST_DEFAULT },
        /* small inputs, and nearly all of V: fused */
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_U32, 20, 4, 0, "fused", 0, DRTOPK_CONST_DEFAULT },
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_F32, 24, 10, 0, "fused", 0, DRTOPK_CONST_DEFAULT },
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_U32, 24, 24, 0, "fused", 0, DRTOPK_CONST_DEFAULT },
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_F16, 30, 0, 0, "onepass", 0, DRTOPK_CONST_DEFAULT },
        /* 64-bit keys: fused, onepass as n grows */
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_U64, 16, 7, 0, "fused", 0, DRTOPK_CONST_DEFAULT },
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_U64, 20, 7, 0, "fused", 0, DRTOPK_CONST_DEFAULT },
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_U64, 30, 24, 0, "onepass", 0, DRTOPK_CONST_DEFAULT },
        /* the CPU backend: its threaded radix select */
        { 0, DRTOPK_BACKEND_CPU, DRTOPK_U32, 30, 24, 0, "radix", 0, DRTOPK_CONST_DEFAULT },
        /* the fixture table: its entries where they match (Rule 4 with the entry's const 4 at
           2^30, k = 4: round(0.5 * (4 + 30 - 2)) = 16), the size rules elsewhere */
        { 1, DRTOPK_BACKEND_CUDA, DRTOPK_U32, 30, 2, 0, "dr-radix", 16, DRTOPK_CONST_TUNING },
        { 1, DRTOPK_BACKEND_CUDA, DRTOPK_U32, 30, 3, 0, "onepass", 0, DRTOPK_CONST_TUNING },
        { 1, DRTOPK_BACKEND_CUDA, DRTOPK_U32, 27, 0, 0, "dr-radix", 16, DRTOPK_CONST_DEFAULT },   /* (5 + 27) / 2 */
        { 1, DRTOPK_BACKEND_CUDA, DRTOPK_F32, 30, 20, 0, "fused", 0, DRTOPK_CONST_TUNING },
        { 1, DRTOPK_BACKEND_CUDA, DRTOPK_U64, 30, 2, 0, "onepass", 0, DRTOPK_CONST_DEFAULT },
        { 1, DRTOPK_BACKEND_CPU, DRTOPK_U32, 30, 2, 0, "dr-radix", 16, DRTOPK_CONST_TUNING },
        /* the result's flags: the plan carries them; a deterministic result never gets the pipeline, from
           the size rules or a table entry, whose cell then falls to the size rules; a sorted one keeps it */
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_U32, 30, 0, DRTOPK_DETERMINISTIC, "onepass", 0, DRTOPK_CONST_DEFAULT },
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_F32, 30, 2, DRTOPK_DETERMINISTIC | DRTOPK_SORTED, "onepass", 0,
          DRTOPK_CONST_DEFAULT },
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_U32, 30, 0, DRTOPK_SORTED, "dr-radix", 18, DRTOPK_CONST_DEFAULT },
        { 0, DRTOPK_BACKEND_CUDA, DRTOPK_U32, 30, 20, DRTOPK_DETERMINISTIC, "onepass", 0, DRTOPK_CONST_DEFAULT },
        { 1, DRTOPK_BACKEND_CUDA, DRTOPK_U32, 30, 2, DRTOPK_SORTED, "dr-radix", 16, DRTOPK_CONST_TUNING },
        { 1, DRTOPK_BACKEND_CUDA, DRTOPK_U32, 30, 2, DRTOPK_DETERMINISTIC, "onepass", 0, DRTOPK_CONST_DEFAULT },
        { 1, DRTOPK_BACKEND_CUDA, DRTOPK_F32, 30, 20, DRTOPK_DETERMINISTIC, "fused", 0, DRTOPK_CONST_TUNING },
        { 1, DRTOPK_BACKEND_CPU, DRTOPK_U32, 30, 2, DRTOPK_DETERMINISTIC, "radix", 0, DRTOPK_CONST_DEFAULT },
    };
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; ++i) {
        const drtopk_problem p = { cells[i].backend, cells[i].dtype, DRTOPK_LARGEST, 1ull << cells[i].log2n,
                                   1ull << cells[i].log2k, NULL };
        char what[128], got[48];
        snprintf(what, sizeof what, "%s %s n = 2^%d k = 2^%d flags 0x%x%s",
                 cells[i].backend == DRTOPK_BACKEND_CUDA ? "cuda" : "cpu", drtopk_dtype_name(cells[i].dtype),
                 cells[i].log2n, cells[i].log2k, cells[i].flags, cells[i].tuned ? " tuned" : "");
        test_context(what);
        drtopk_plan plan;
        CHECK_STATUS(drtopk_plan_from_tables(&plan, &p, cells[i].tuned ? &table : NULL, NULL, cells[i].flags),
                     DRTOPK_OK);
        snprintf(got, sizeof got, "%s%s", plan.flags & DRTOPK_DELEGATE ? "dr-" : "",
                 drtopk_algo_name(plan.second_algo));
        CHECKF(!strcmp(got, cells[i].label) && plan.alpha == cells[i].alpha && plan.const_source == cells[i].src,
               "%s: %s alpha %d source %d, want %s alpha %d source %d", what, got, plan.alpha, (int)plan.const_source,
               cells[i].label, cells[i].alpha, (int)cells[i].src);
        CHECK(plan.first_algo == plan.second_algo);
        CHECKF((plan.flags & (DRTOPK_SORTED | DRTOPK_DETERMINISTIC)) == cells[i].flags, "%s: flags 0x%x", what,
               plan.flags);
    }
    /* the public entry point: drtopk_plan_auto is it without flags; any flag but the result's is refused */
    const drtopk_problem cpu = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, 1ull << 30, 4, NULL };
    drtopk_plan a, b;
    CHECK_STATUS(drtopk_plan_auto_flags(&a, &cpu, &table, 0), DRTOPK_OK);
    CHECK_STATUS(drtopk_plan_auto(&b, &cpu, &table), DRTOPK_OK);
    CHECK(a.flags == b.flags && a.alpha == b.alpha && a.second_algo == b.second_algo && (a.flags & DRTOPK_DELEGATE));
    CHECK_STATUS(drtopk_plan_auto_flags(&a, &cpu, &table, DRTOPK_DETERMINISTIC), DRTOPK_OK);
    CHECK(!(a.flags & DRTOPK_DELEGATE) && (a.flags & DRTOPK_DETERMINISTIC));
    CHECK_STATUS(drtopk_plan_auto_flags(&a, &cpu, NULL, DRTOPK_DELEGATE), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(drtopk_last_error(), "flags = 0x1") != NULL);
}

/* The size rules' plan ignores every table, the compiled-in one included: where a
 * table compiled in (here the fixture given as the builtin table) has a cell, the
 * tuner's baseline is still the rules' plan, source DRTOPK_CONST_DEFAULT. */
static void plan_size_rules_no_table(void)
{
    const drtopk_tuning builtin = { "Test GPU", tuned, sizeof tuned / sizeof tuned[0], 0 };
    static const struct { drtopk_backend b; drtopk_dtype t; uint64_t n, k; } at[] = {
        { DRTOPK_BACKEND_CUDA, DRTOPK_U32, 1ull << 24, 16 }, { DRTOPK_BACKEND_CUDA, DRTOPK_U32, 1ull << 30, 4 },
        { DRTOPK_BACKEND_CUDA, DRTOPK_F32, 1ull << 28, 1ull << 20 }, { DRTOPK_BACKEND_CUDA, DRTOPK_U64, 1ull << 26, 4096 },
        { DRTOPK_BACKEND_CPU, DRTOPK_U32, 1ull << 22, 100 },
    };
    for (size_t i = 0; i < sizeof at / sizeof at[0]; ++i) {
        const drtopk_problem p = { at[i].b, at[i].t, DRTOPK_LARGEST, at[i].n, at[i].k, NULL };
        drtopk_plan rules, none, with;
        CHECK_STATUS(drtopk_plan_size_rules(&rules, &p), DRTOPK_OK);
        CHECK_STATUS(drtopk_plan_from_tables(&none, &p, NULL, NULL, 0), DRTOPK_OK);
        CHECK_STATUS(drtopk_plan_from_tables(&with, &p, NULL, &builtin, 0), DRTOPK_OK);
        CHECK(rules.alpha == none.alpha && rules.beta == none.beta && rules.first_algo == none.first_algo &&
              rules.second_algo == none.second_algo && rules.flags == none.flags &&
              rules.rule4_const == none.rule4_const);
        CHECK(rules.const_source == DRTOPK_CONST_DEFAULT);
        /* the fixture's cells hold every u32 and f32 problem here: the table's plan is another */
        if (at[i].t != DRTOPK_U64) CHECK(with.const_source == DRTOPK_CONST_BUILTIN);
    }
    const drtopk_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, 1000, 0, NULL };
    drtopk_plan plan;
    CHECK_STATUS(drtopk_plan_size_rules(NULL, &p), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_plan_size_rules(&plan, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
}

static void plan_auto_tuning_invalid(void)
{
    static const struct { const char *why; drtopk_tuning_entry e; const char *msg; } bad[] = {
        { "beta 0", { DRTOPK_U32, 0, 63, 0, 63, DRTOPK_ALGO_RADIX, 0, 3.0, 0 }, "beta = 0" },
        { "beta too large", { DRTOPK_U32, 0, 63, 0, 63, DRTOPK_ALGO_RADIX, DRTOPK_BETA_MAX + 1, 3.0, 0 }, "beta = 9" },
        { "algo", { DRTOPK_U32, 0, 63, 0, 63, DRTOPK_ALGO_COUNT, 2, 3.0, 0 }, "algo = " },
        { "dtype", { DRTOPK_DTYPE_COUNT, 0, 63, 0, 63, DRTOPK_ALGO_RADIX, 2, 3.0, 0 }, "dtype = " },
        { "const", { DRTOPK_U32, 0, 63, 0, 63, DRTOPK_ALGO_RADIX, 2, NAN, 0 }, "rule4_const" },
        { "build", { DRTOPK_U32, 0, 63, 0, 63, DRTOPK_ALGO_RADIX, 2, 3.0, DRTOPK_SHARED_DELEGATE_MAX_ALPHA + 1 },
          "shared_build_max_alpha = 8" },
        { "negative build", { DRTOPK_U32, 0, 63, 0, 63, DRTOPK_ALGO_RADIX, 2, 3.0, -1 }, "shared_build_max_alpha = -1" },
    };
    drtopk_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, 1ull << 20, 16, NULL };
    drtopk_plan plan;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        /* invalid even behind an entry that matches first: the whole table is checked
           up to the match, and an invalid entry before it is the caller's error */
        drtopk_tuning_entry two[2] = { bad[i].e, tuned[0] };
        const drtopk_tuning t = { "Test GPU", two, 2, 0 };
        test_context(bad[i].why);
        CHECK_STATUS(drtopk_plan_auto(&plan, &p, &t), DRTOPK_ERR_INVALID_ARGUMENT);
        CHECKF(strstr(drtopk_last_error(), bad[i].msg) && strstr(drtopk_last_error(), "entry 0"),
               "%s: message '%s'", bad[i].why, drtopk_last_error());
        CHECK_STATUS(drtopk_plan_from_tables(&plan, &p, NULL, &t, 0), DRTOPK_ERR_INVALID_ARGUMENT);
        CHECK(strstr(drtopk_last_error(), "compiled-in") != NULL);
    }
    const drtopk_tuning no_entries = { "Test GPU", NULL, 3, 0 };
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, &no_entries), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(drtopk_last_error(), "entries is NULL") != NULL);
}

static void builtin_table_by_gpu_name(void)
{
    const drtopk_tuning tables[] = {
        { "GPU A", tuned, 1, 0 }, { NULL, NULL, 0, 0 }, { "GPU B", tuned + 1, 1, 0 }, { "GPU B", tuned + 2, 1, 0 },
    };
    const size_t n = sizeof tables / sizeof tables[0];
    char name[256];
    drtopk_status st;
    CHECK(drtopk_tuning_for_gpu(tables, n, "GPU A") == &tables[0]);
    CHECK(drtopk_tuning_for_gpu(tables, n, "GPU B") == &tables[2]);      /* the first of a name */
    CHECK(drtopk_tuning_for_gpu(tables, n, "GPU") == NULL);              /* names match whole */
    CHECK(drtopk_tuning_for_gpu(tables, n, "GPU A ") == NULL);
    CHECK(drtopk_tuning_for_gpu(tables, n, NULL) == NULL);
    CHECK(drtopk_tuning_for_gpu(NULL, 0, "GPU A") == NULL);
    /* the generated table today: empty, and every row that is there names a GPU */
    for (size_t i = 0; i < drtopk_builtin_tuning_count; ++i)
        CHECK(drtopk_builtin_tunings[i].gpu_name != NULL && drtopk_builtin_tunings[i].count > 0);
    /* the backend's device name: a name with a GPU, a message without one */
    st = drtopk_cuda_gpu_name(name, sizeof name);
    if (st == DRTOPK_OK) CHECK(name[0] != '\0');
    else CHECKF(drtopk_last_error()[0] != '\0', "drtopk_cuda_gpu_name: %s without a message",
                drtopk_status_string(st));
}

static void last_error_set_and_cleared(void)
{
    drtopk_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, 3, 5, NULL };
    drtopk_plan plan;
    drtopk_dtype dt;
    drtopk_algo a;
    size_t bytes;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_ERR_K_GT_N);
    CHECKF(strcmp(drtopk_last_error(), "k = 5 is larger than n = 3") == 0, "'%s'", drtopk_last_error());
    p.k = 2;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECK(drtopk_last_error()[0] == '\0');
    CHECK_STATUS(drtopk_dtype_parse("u128", &dt), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(drtopk_last_error(), "'u128'") != NULL);
    CHECK_STATUS(drtopk_algo_parse("dr-quick", &a, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(drtopk_last_error(), "'dr-quick'") != NULL);
    CHECK_STATUS(drtopk_algo_parse("dr-radix", &a, NULL), DRTOPK_OK);
    CHECK(drtopk_last_error()[0] == '\0');
    CHECK_STATUS(drtopk_plan_rule4(&plan, &p, DRTOPK_RULE4_CONST_DEFAULT), DRTOPK_OK);   /* a pipeline: beta counts */
    plan.beta = DRTOPK_BETA_MAX + 1;
    CHECK_STATUS(drtopk_plan_check(&plan, &p), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(drtopk_last_error(), "plan->beta = 9") != NULL);
    CHECK_STATUS(drtopk_select_workspace(&p, &plan, &bytes), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(drtopk_last_error(), "plan->beta = 9") != NULL);
    plan.beta = 2;
    CHECK_STATUS(drtopk_select_workspace(&p, &plan, &bytes), DRTOPK_OK);
    CHECK(drtopk_last_error()[0] == '\0');
    p.n = 0;
    CHECK_STATUS(drtopk_plan_rule4(&plan, &p, 3.0), DRTOPK_ERR_N_ZERO);
    CHECK(strstr(drtopk_last_error(), "n = 0") != NULL);
    p.n = 3;
    CHECK_STATUS(drtopk_plan_rule4(&plan, &p, NAN), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(drtopk_last_error(), "rule4_const") != NULL);
}

static void parse_sizes(void)
{
    static const struct { const char *s; uint64_t v; } good[] = {
        { "0", 0 }, { "1", 1 }, { "1000003", 1000003 }, { "2^0", 1 }, { "2^30", 1ull << 30 },
        { "2^30+17", (1ull << 30) + 17 }, { "2^63", 1ull << 63 },
        { "18446744073709551615", UINT64_MAX }, { "2^63+9223372036854775807", UINT64_MAX },
    };
    static const char *const bad[] = {
        "", "-1", "+5", " 5", "5 ", "1e6", "12abc", "2^", "3^4", "2^30+", "2^30-1", "0x10", "2^30+17+1",
        "2^64x", "99999999999999999999x",
    };
    /* well-formed, but above 2^64 - 1: out of range, not junk */
    static const char *const too_big[] = {
        "2^64", "2^99", "18446744073709551616", "2^63+9223372036854775808", "99999999999999999999",
    };
    uint64_t v;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i) {
        CHECKF(dh_parse_u64(good[i].s, &v) == 0, "'%s' rejected", good[i].s);
        CHECKF(v == good[i].v, "'%s' -> %" PRIu64, good[i].s, v);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        CHECKF(dh_parse_u64(bad[i], &v) == -1, "'%s' accepted", bad[i]);
    for (size_t i = 0; i < sizeof too_big / sizeof too_big[0]; ++i)
        CHECKF(dh_parse_u64(too_big[i], &v) == DRTOPK_PARSE_RANGE, "'%s' not out of range", too_big[i]);
    CHECK(dh_parse_u64(NULL, &v) == -1);
}

static void util_helpers(void)
{
    double a[] = { 5, 1, 3 }, b[] = { 4, 1, 3, 2 };
    double t0, t1;
    CHECK(dh_median(a, 3) == 3.0);
    CHECK(dh_median(b, 4) == 2.5);
    CHECK(dh_ilog2_floor(1) == 0 && dh_ilog2_floor(1000) == 9 && dh_ilog2_floor(1ull << 40) == 40);
    CHECK(dh_ilog2_ceil(1) == 0 && dh_ilog2_ceil(1000) == 10 && dh_ilog2_ceil(1024) == 10);
    CHECK(dh_ilog2_ceil(1025) == 11 && dh_ilog2_floor(UINT64_MAX) == 63 && dh_ilog2_ceil(UINT64_MAX) == 64);
    t0 = dh_now_ms();
    t1 = dh_now_ms();
    CHECK(t1 >= t0 && t0 > 0);
}

/* DRTOPK_DETERMINISTIC: a known flag a standalone plan may carry; on the
 * CPU backend the k best (key, position) pairs, the smallest positions of
 * the ties at the k-th key, equal keys by position when sorted, on every
 * plan, the delegate pipeline too (whose own ties differ), and batched rows. */
static void deterministic_flag(void)
{
    static const uint32_t v[] = { 5, 9, 7, 9, 7, 7, 1, 9, 7, 7 };
    static const drtopk_algo algos[] = { DRTOPK_ALGO_RADIX, DRTOPK_ALGO_BUCKET, DRTOPK_ALGO_SORT_CUB };
    drtopk_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, 10, 5, v };
    drtopk_plan plan;
    uint32_t out[5];
    uint64_t idx[5];
    size_t bytes = 0;
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; ++a)
        for (int sorted = 0; sorted <= 1; ++sorted) {
            const unsigned flags = DRTOPK_DETERMINISTIC | (sorted ? DRTOPK_SORTED : 0);
            CHECK_STATUS(drtopk_plan_explicit(&plan, &p, algos[a], 0, 0, flags), DRTOPK_OK);
            CHECK_STATUS(drtopk_select_workspace(&p, &plan, &bytes), DRTOPK_OK);
            void *ws = malloc(bytes ? bytes : 1);
            CHECK(ws != NULL);
            if (ws == NULL) return;
            CHECK_STATUS(drtopk_select(&p, &plan, ws, bytes, out, idx, NULL, NULL), DRTOPK_OK);
            free(ws);
            /* the three 9s (1, 3, 7) and the 7s at the two smallest positions (2, 4) */
            static const uint64_t by_pos[] = { 1, 2, 3, 4, 7 }, best_first[] = { 1, 3, 7, 2, 4 };
            for (int i = 0; i < 5; ++i)
                CHECKF(idx[i] == (sorted ? best_first : by_pos)[i] && out[i] == v[idx[i]], "%s %s: index %d is %" PRIu64,
                       drtopk_algo_name(algos[a]), sorted ? "sorted" : "unsorted", i, idx[i]);
        }
    /* The delegate pipeline (subranges of 4, 2 delegates, filter) takes the
     * 2 at position 8, not 6: subrange 1 (positions 4-7) is copied by its
     * selected delegates only.  Deterministic, it takes the smallest. */
    static const uint32_t w[] = { 0, 0, 2, 1, 2, 2, 2, 0, 2, 1, 1, 2, 1, 2, 0, 0,
                                  0, 1, 2, 2, 0, 0, 2, 0, 0, 1, 0, 2, 0 };
    const drtopk_problem q = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, sizeof w / sizeof w[0], 4, w };
    for (int det = 0; det <= 1; ++det) {
        const unsigned flags = DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SORTED | (det ? DRTOPK_DETERMINISTIC : 0);
        CHECK_STATUS(drtopk_plan_explicit(&plan, &q, DRTOPK_ALGO_RADIX, 2, 2, flags), DRTOPK_OK);
        CHECK_STATUS(drtopk_select_workspace(&q, &plan, &bytes), DRTOPK_OK);
        void *ws = malloc(bytes);
        CHECK(ws != NULL);
        if (ws == NULL) return;
        CHECK_STATUS(drtopk_select(&q, &plan, ws, bytes, out, idx, NULL, NULL), DRTOPK_OK);
        free(ws);
        CHECKF(idx[0] == 2 && idx[1] == 4 && idx[2] == 5 && idx[3] == (det ? 6u : 8u),
               "pipeline%s: %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, det ? " deterministic" : "", idx[0],
               idx[1], idx[2], idx[3]);
    }
    /* Batched rows: the CPU backend's segments take the smallest positions
     * already (the CUDA backend's fix-up is checked against them by the GPU
     * suite, test_batch). */
    static const uint64_t offs[] = { 0, 10 };
    for (int sorted = 0; sorted <= 1; ++sorted) {
        drtopk_batch_problem bp = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, 1, 0, offs, 5, NULL, v, 10 };
        drtopk_batch_plan bplan;
        CHECK_STATUS(drtopk_batch_plan_auto(&bplan, &bp), DRTOPK_OK);
        bplan.flags = DRTOPK_DETERMINISTIC | (sorted ? DRTOPK_SORTED : 0);
        CHECK_STATUS(drtopk_batch_workspace(&bp, &bplan, &bytes), DRTOPK_OK);
        void *ws = malloc(bytes ? bytes : 1);
        CHECK(ws != NULL);
        if (ws == NULL) return;
        CHECK_STATUS(drtopk_batch_select(&bp, &bplan, ws, bytes, out, idx, NULL), DRTOPK_OK);
        free(ws);
        static const uint64_t by_pos[] = { 1, 2, 3, 4, 7 }, best_first[] = { 1, 3, 7, 2, 4 };
        for (int i = 0; i < 5; ++i)
            CHECKF(idx[i] == (sorted ? best_first : by_pos)[i], "batch %s: index %d is %" PRIu64,
                   sorted ? "sorted" : "unsorted", i, idx[i]);
    }
}

void register_api_tests(void)
{
    test_register("api/select_ok_and_stats_zeroed", select_ok_and_stats_zeroed);
    test_register("api/select_argument_errors", select_argument_errors);
    test_register("api/select_misaligned", select_misaligned);
    test_register("api/select_workspace_errors", select_workspace_errors);
    test_register("api/plan_check_paths", plan_check_paths);
    test_register("api/deterministic_flag", deterministic_flag);
    test_register("api/cuda_backend_without_gpu", cuda_backend_without_gpu);
    test_register("api/status_strings", status_strings);
    test_register("api/names_round_trip", names_round_trip);
    test_register("api/rule4_alpha", rule4_alpha);
    test_register("api/plan_auto_fields", plan_auto_fields);
    test_register("api/plan_auto_small_n", plan_auto_small_n);
    test_register("api/plan_auto_key_widths", plan_auto_key_widths);
    test_register("api/plan_auto_tuning_match", plan_auto_tuning_match);
    test_register("api/plan_auto_unmeasured_standalone", plan_auto_unmeasured_standalone);
    test_register("api/plan_auto_cells", plan_auto_cells);
    test_register("api/plan_auto_tuning_invalid", plan_auto_tuning_invalid);
    test_register("api/plan_size_rules_no_table", plan_size_rules_no_table);
    test_register("api/builtin_table_by_gpu_name", builtin_table_by_gpu_name);
    test_register("api/last_error_set_and_cleared", last_error_set_and_cleared);
    test_register("api/parse_sizes", parse_sizes);
    test_register("api/util_helpers", util_helpers);
}
