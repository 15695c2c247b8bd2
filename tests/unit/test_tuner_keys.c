/*
 * test_tuner_keys.c -- the plans the tuner measures and the rows it stores
 * for them (tuner/measure.c): a sweep config's plan is taken as given
 * (drtopk_plan_explicit) with exactly the config's alpha at every size, and
 * an explicit plan stored under the tuner's key reads back as the same plan
 * (algorithms, alpha, beta, flags).
 */
#include "test_harness.h"
#include "measure.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PATH_LEN 256
#define TEST_COMMIT "test-commit"

/* Sizes where Rule 4 with a const is a poor inverse of alpha: not powers of
 * two, k not either, n at and past the largest alpha's subrange. */
static const uint64_t sizes[][2] = { { 1000, 1 }, { 1000, 7 }, { (1ull << 20) + 3, 1000 },
                                     { 1ull << 30, 1ull << 24 }, { (1ull << 25) - 1, 3 } };

/* A sweep of one dr- algorithm (index 0) and one standalone one (index 1). */
static options sweep_options(void)
{
    options o;
    memset(&o, 0, sizeof o);
    o.backend = DRTOPK_BACKEND_CPU;
    o.seed = 1;
    o.algo[0] = (algo_entry){ .label = "dr-bucket", .algo = DRTOPK_ALGO_BUCKET, .delegate = 1 };
    o.algo[1] = (algo_entry){ .label = "onepass", .algo = DRTOPK_ALGO_ONEPASS, .delegate = 0 };
    o.nalgo = 2;
    o.dtype[0] = DRTOPK_U32;
    o.ndtype = 1;
    o.dist[0] = DRTOPK_DIST_UD;
    o.ndist = 1;
    return o;
}

static void config_plan_has_its_alpha(void)
{
    options o = sweep_options();
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        drtopk_problem p = { .backend = o.backend, .dtype = DRTOPK_U32, .order = DRTOPK_LARGEST, .n = sizes[i][0],
                             .k = sizes[i][1] };
        const int amax = dh_ilog2_ceil(p.n) < DRTOPK_ALPHA_MAX ? dh_ilog2_ceil(p.n) : DRTOPK_ALPHA_MAX;
        for (int alpha = DRTOPK_ALPHA_MIN; alpha <= amax; ++alpha)
            for (int warp = 0; warp <= 1; ++warp) {
                config c = { .algo = 0, .k = p.k, .alpha = alpha, .beta = 2, .warp_build = warp };
                drtopk_plan plan;
                CHECK_STATUS(make_plan(&o, &c, &p, &plan), DRTOPK_OK);
                const unsigned want = DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT |
                                      (alpha <= DRTOPK_SHARED_DELEGATE_MAX_ALPHA && !warp ? DRTOPK_SHARED_DELEGATE : 0);
                CHECKF(plan.alpha == alpha && plan.beta == 2 && plan.flags == want && plan.flags == sweep_flags(&o, &c) &&
                       plan.first_algo == DRTOPK_ALGO_BUCKET && plan.second_algo == DRTOPK_ALGO_BUCKET &&
                       plan.const_source == DRTOPK_CONST_EXPLICIT,
                       "n=%llu k=%llu alpha=%d warp=%d: plan alpha %d flags 0x%x", (unsigned long long)p.n,
                       (unsigned long long)p.k, alpha, warp, plan.alpha, plan.flags);
            }
        /* the --no-* options clear their flags; a standalone plan has none */
        o.clear_flags = DRTOPK_FILTER | DRTOPK_SHARED_DELEGATE;
        config c = { .algo = 0, .k = p.k, .alpha = DRTOPK_ALPHA_MIN, .beta = 1 };
        drtopk_plan plan;
        CHECK_STATUS(make_plan(&o, &c, &p, &plan), DRTOPK_OK);
        CHECK(plan.flags == (DRTOPK_DELEGATE | DRTOPK_SKIP_LAST_DIGIT));
        o.clear_flags = 0;
        c = (config){ .algo = 1, .k = p.k };
        CHECK_STATUS(make_plan(&o, &c, &p, &plan), DRTOPK_OK);
        CHECK(plan.flags == 0 && plan.alpha == 0 && plan.beta == 0 && plan.second_algo == DRTOPK_ALGO_ONEPASS &&
              sweep_flags(&o, &c) == 0);
    }
    /* a stage that runs standalone only is no pipeline plan */
    o.algo[0] = (algo_entry){ .label = "dr-onepass", .algo = DRTOPK_ALGO_ONEPASS, .delegate = 1 };
    drtopk_problem p = { .backend = o.backend, .dtype = DRTOPK_U32, .order = DRTOPK_LARGEST, .n = 1 << 12, .k = 4 };
    config c = { .algo = 0, .k = p.k, .alpha = 5, .beta = 2 };
    drtopk_plan plan;
    CHECK_STATUS(make_plan(&o, &c, &p, &plan), DRTOPK_ERR_UNSUPPORTED);
}

/* The plan a stored row describes, read back by the label it was stored
 * with, through drtopk_plan_explicit as a figure script would build it. */
static void read_back(const char *path, const char *label, const drtopk_problem *p, drtopk_plan *plan)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK);
    CHECK(sqlite3_prepare_v2(db, "SELECT algorithm, first_algo, second_algo, alpha, beta, flags FROM measurements "
                                 "WHERE algorithm = ?1", -1, &st, NULL) == SQLITE_OK);
    sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
    CHECK(sqlite3_step(st) == SQLITE_ROW);
    drtopk_algo algo, first, second;
    int delegate = 0;
    CHECK_STATUS(drtopk_algo_parse((const char *)sqlite3_column_text(st, 0), &algo, &delegate), DRTOPK_OK);
    const unsigned flags = (unsigned)sqlite3_column_int64(st, 5);
    CHECK(!!delegate == !!(flags & DRTOPK_DELEGATE));
    if (delegate) {
        CHECK_STATUS(drtopk_algo_parse((const char *)sqlite3_column_text(st, 1), &first, NULL), DRTOPK_OK);
        CHECK_STATUS(drtopk_algo_parse((const char *)sqlite3_column_text(st, 2), &second, NULL), DRTOPK_OK);
        CHECK(first == algo && second == algo);
    }
    CHECK_STATUS(drtopk_plan_explicit(plan, p, algo, sqlite3_column_int(st, 3), sqlite3_column_int(st, 4), flags),
                 DRTOPK_OK);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* Remove a database file and its WAL side files. */
static void remove_database(const char *path)
{
    char side[PATH_LEN + 8];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

static void explicit_plan_round_trips(void)
{
    char path[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    snprintf(path, sizeof path, "/tmp/drtopk_test_tuner_keys_%d.sqlite", (int)getpid());
    remove_database(path);
    const options o = sweep_options();
    const drtopk_problem p = { .backend = o.backend, .dtype = DRTOPK_U32, .order = DRTOPK_LARGEST,
                               .n = (1ull << 20) + 3, .k = 1000 };
    struct {
        const char *label;
        drtopk_algo algo;
        int alpha, beta;
        unsigned flags;
    } plans[] = {
        { "dr-radix", DRTOPK_ALGO_RADIX, 11, 2, DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT },
        { "dr-bucket", DRTOPK_ALGO_BUCKET, 6, 3, DRTOPK_DELEGATE | DRTOPK_SHARED_DELEGATE | DRTOPK_SORTED },
        { "onepass", DRTOPK_ALGO_ONEPASS, 0, 0, 0 },
        { "radix", DRTOPK_ALGO_RADIX, 0, 0, DRTOPK_SORTED },
    };
    dh_store *s;
    int64_t mid, rid;
    dh_store_machine m = { .uuid = "GPU-keys", .name = "Key GPU", .backend = "cuda" };
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    CHECK_STATUS(dh_store_put_machine(s, &m, &mid), DRTOPK_OK);
    CHECK_STATUS(dh_store_begin_run(s, mid, "test", "", TEST_COMMIT, &rid), DRTOPK_OK);
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; ++i) {
        drtopk_plan plan;
        CHECK_STATUS(drtopk_plan_explicit(&plan, &p, plans[i].algo, plans[i].alpha, plans[i].beta, plans[i].flags),
                     DRTOPK_OK);
        dh_store_measurement row;
        memset(&row, 0, sizeof row);
        plan_key(&o, plans[i].label, p.dtype, DRTOPK_DIST_UD, p.n, p.k, &plan, &row.cfg);
        row.status = DRTOPK_MEAS_OK;
        row.reps = 1;
        row.median_ms = row.min_ms = row.max_ms = 1.0;
        CHECK_STATUS(dh_store_put(s, mid, rid, TEST_COMMIT, &row), DRTOPK_OK);
    }
    dh_store_close(s);
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; ++i) {
        drtopk_plan want, got;
        CHECK_STATUS(drtopk_plan_explicit(&want, &p, plans[i].algo, plans[i].alpha, plans[i].beta, plans[i].flags),
                     DRTOPK_OK);
        read_back(path, plans[i].label, &p, &got);
        CHECKF(got.alpha == want.alpha && got.beta == want.beta && got.flags == want.flags &&
               got.first_algo == want.first_algo && got.second_algo == want.second_algo &&
               got.rule4_const == want.rule4_const && got.const_source == DRTOPK_CONST_EXPLICIT,
               "%s: read back alpha %d beta %d flags 0x%x", plans[i].label, got.alpha, got.beta, got.flags);
    }
    remove_database(path);
}

__attribute__((constructor)) static void register_tuner_key_tests(void)
{
    test_register("tuner/config_plan_has_its_alpha", config_plan_has_its_alpha);
    test_register("tuner/explicit_plan_round_trips", explicit_plan_round_trips);
}
