/*
 * test_store_multi.c -- the Table 2 rows of drtopk-mpi in the results store
 * (paper section 5.4; table multi_gpu of db/schema.sql): a row round-trips,
 * the same configuration replaces its row, and merging another database
 * copies its rows once.
 */
#include "test_harness.h"
#include "store.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PATH_LEN 256

static void fresh(char *out, const char *name)
{
    char side[PATH_LEN + 8];
    snprintf(out, PATH_LEN, "/tmp/drtopk_test_multi_%d_%s", (int)getpid(), name);
    unlink(out);
    snprintf(side, sizeof side, "%s-wal", out);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", out);
    unlink(side);
}

static double scalar(const char *path, const char *query)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    double x = -1;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK);
    CHECK(sqlite3_prepare_v2(db, query, -1, &st, NULL) == SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW) x = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return x;
}

/* One run of drtopk-mpi with `ranks` ranks and total time `ms` into path. */
static void put(const char *path, const char *uuid, int ranks, double ms)
{
    char err[DRTOPK_STORE_ERR_LEN];
    drtopk_store *s;
    drtopk_store_machine m = { .backend = "cuda" };
    drtopk_store_multi row = { .cfg = { .algorithm = "dr-radix", .first_algo = "radix", .second_algo = "radix",
                                        .dtype = "u32", .dist = "UD", .seed = 1, .n = 1ull << 34, .k = 128,
                                        .alpha = 12, .beta = 2, .flags = 15, .order = "largest" },
                               .ranks = ranks, .gpus = ranks, .device_cap = 1ull << 30, .out_of_core = 1,
                               .chunks = 8, .filtered = 12345, .reps = 2, .total_ms = ms, .compute_ms = ms / 2,
                               .reload_ms = ms / 3, .comm_ms = 0.25, .reps_ms = "[1.0, 2.0]" };
    int64_t mid, rid;
    snprintf(m.uuid, sizeof m.uuid, "%s", uuid);
    snprintf(m.name, sizeof m.name, "NVIDIA H200");
    CHECK_STATUS(drtopk_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    CHECK_STATUS(drtopk_store_put_machine(s, &m, &mid), DRTOPK_OK);
    CHECK_STATUS(drtopk_store_begin_run(s, mid, "drtopk-mpi", "--n 2^34 --k 128", "abc", &rid), DRTOPK_OK);
    CHECK_STATUS(drtopk_store_put_multi(s, mid, rid, "abc", &row), DRTOPK_OK);
    CHECK_STATUS(drtopk_store_end_run(s, rid, "done"), DRTOPK_OK);
    drtopk_store_close(s);
}

static void multi_round_trip_replace_merge(void)
{
    char a[PATH_LEN], b[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    fresh(a, "a.sqlite");
    fresh(b, "b.sqlite");
    put(a, "GPU-A", 1, 40.0);
    put(a, "GPU-A", 2, 21.0);
    put(a, "GPU-A", 2, 20.0);           /* same configuration: replaces */
    CHECK(scalar(a, "SELECT count(*) FROM multi_gpu") == 2);
    CHECK(scalar(a, "SELECT total_ms FROM multi_gpu WHERE ranks = 2") == 20.0);
    CHECK(scalar(a, "SELECT n FROM multi_gpu WHERE ranks = 2") == (double)(1ull << 34));
    CHECK(scalar(a, "SELECT filtered + chunks + device_cap FROM multi_gpu WHERE ranks = 1") ==
          12345 + 8 + (double)(1ull << 30));
    CHECK(scalar(a, "SELECT verify_ok IS NULL FROM multi_gpu WHERE ranks = 1") == 1);
    put(b, "GPU-B", 2, 18.0);
    drtopk_store *s;
    drtopk_store_merge_stats st;
    CHECK_STATUS(drtopk_store_open(a, 0, &s, err, sizeof err), DRTOPK_OK);
    CHECK_STATUS(drtopk_store_merge(s, b, &st), DRTOPK_OK);
    CHECK(st.multi_added == 1);
    CHECK_STATUS(drtopk_store_merge(s, b, &st), DRTOPK_OK);
    CHECK(st.multi_added == 0);
    drtopk_store_close(s);
    CHECK(scalar(a, "SELECT count(*) FROM multi_gpu") == 3);
    CHECK(scalar(a, "SELECT m.total_ms FROM multi_gpu m JOIN machines c ON c.id = m.machine_id "
                    "WHERE c.uuid = 'GPU-B'") == 18.0);
}

__attribute__((constructor)) static void register_store_multi_tests(void)
{
    test_register("store: drtopk-mpi rows round-trip, replace and merge", multi_round_trip_replace_merge);
}
