/*
 * test_store.c -- unit tests of the SQLite results store (src/harness/store*.c,
 * db/schema.sql): migration of an older schema keeps its rows, a newer schema
 * and foreign files are refused, measurements round-trip and replace by their
 * unique key, a machine's tuning loads as the table drtopk_plan_auto takes
 * (choices, then the fitted const from the smallest n the fit measured, none
 * once onepass was measured; by uuid, else by name; an unreadable file says
 * why), rows of the automatic plan (tuner --regret) are no forced plans and
 * give its regret, merging adds nothing the second time, the misuse cases
 * (concurrent creation, claims shared by concurrent tuners, damaged
 * schema_version tables), and drtopk-mpi's rows (table multi_gpu) round-trip,
 * replace and merge, and every measurement carries Rule 4's plan with the
 * paper's const (rule4_alpha, rule4_flags) however it came in.
 */
#include "test_harness.h"
#include "store.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define PATH_LEN 256
#define RULE4_BEFORE_VERSION 10     /* the schema before measurements.rule4_alpha and rule4_flags */
#define RULE4_UNREACHED_ALPHA 21    /* above ceil(log2 2^20): Rule 4 never gives it at n = 2^20 */

static void tmp_path(char *out, const char *name)
{
    snprintf(out, PATH_LEN, "/tmp/drtopk_test_store_%d_%s", (int)getpid(), name);
    char side[PATH_LEN + 8];
    unlink(out);
    snprintf(side, sizeof side, "%s-wal", out);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", out);
    unlink(side);
}

static void sql(const char *path, const char *stmt)
{
    sqlite3 *db;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(db, stmt, NULL, NULL, &msg);
    CHECKF(rc == SQLITE_OK, "%s: %s", stmt, msg ? msg : "");
    sqlite3_close(db);
}

static int count(const char *path, const char *query)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    int n = -1;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK);
    CHECK(sqlite3_prepare_v2(db, query, -1, &st, NULL) == SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

static void store_migrates_older_schema(void)
{
    char path[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    tmp_path(path, "old.sqlite");
    dh_store *s;
    CHECK_STATUS(dh_store_open_version(path, 0, 1, &s, err, sizeof err), DRTOPK_OK);
    CHECK(dh_store_version(s) == 1);
    dh_store_close(s);
    CHECK(count(path, "SELECT count(*) FROM sqlite_master WHERE name = 'choices'") == 0);
    sql(path, "INSERT INTO machines (uuid, name, backend) VALUES ('GPU-old', 'Old GPU', 'cuda');"
              "INSERT INTO fits (machine_id, git_commit, dtype, algorithm, beta, const_time, const_lsq, "
              "mean_slowdown, worst_slowdown, points, fitted_at) VALUES (1, 'abc', 'u32', 'dr-radix', 2, "
              "4.25, 4.0, 1.01, 1.2, 10, '2026-01-01');"
              "INSERT INTO runs (run_uuid, machine_id, program, argv, git_commit, started_at, status) "
              "VALUES ('old-run', 1, 'tuner', '', 'abc', '2026-01-01', 'done');"
              "INSERT INTO measurements (machine_id, run_id, git_commit, algorithm, first_algo, second_algo, dtype, "
              "dist, seed, n, k, alpha, beta, flags, sort_order, status, reps, median_ms, verified, measured_at) "
              "VALUES (1, 1, 'abc', 'dr-radix', 'radix', 'radix', 'u32', 'UD', 1, 1048576, 16, 9, 2, 11, 'largest', "
              "'ok', 1, 1.0, 0, '2026-01-01');");
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    CHECK(dh_store_version(s) == DRTOPK_STORE_SCHEMA_VERSION);
    /* New columns and tables are usable, old rows kept. */
    dh_store_machine m = { .uuid = "GPU-old", .name = "Old GPU", .backend = "cuda",
                               .c_global = 600, .c_shfl = 20 };
    int64_t id = 0;
    CHECK_STATUS(dh_store_put_machine(s, &m, &id), DRTOPK_OK);
    CHECK(id == 1);
    dh_store_choice c = { .log2k_min = 0, .log2k_max = 63, .algorithm = "dr-radix", .beta = 2,
                              .rule4_const = 4.25, .mean_slowdown = 1, .points = 3 };
    CHECK_STATUS(dh_store_put_choices(s, id, "abc", "u32", &c, 1), DRTOPK_OK);
    dh_store_close(s);
    CHECK(count(path, "SELECT count(*) FROM fits WHERE const_time = 4.25 AND const_theory IS NULL") == 1);
    CHECK(count(path, "SELECT count(*) FROM machines WHERE c_global = 600") == 1);
    CHECK(count(path, "SELECT version FROM schema_version") == DRTOPK_STORE_SCHEMA_VERSION);
    dh_store_tuning t;
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-old", NULL, &t, err, sizeof err), DRTOPK_OK);
    CHECK_EQ_U64(t.table.count, 2);   /* the choice, then the catch-all with the fit */
    CHECK(t.entries[0].algo == DRTOPK_ALGO_RADIX && t.entries[0].rule4_const == 4.25);
    CHECK(t.entries[1].rule4_const == 4.25 && t.entries[1].beta == 2 && t.entries[1].log2k_max == 63);
    CHECK(t.entries[1].log2n_min == 20);   /* the fit's measurement: n = 2^20 */
    dh_store_tuning_free(&t);
}

static void store_refuses_newer_and_foreign_files(void)
{
    char path[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    dh_store *s;
    tmp_path(path, "new.sqlite");
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    dh_store_close(s);
    sql(path, "UPDATE schema_version SET version = 99");
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_ERR_IO);
    CHECKF(strstr(err, "newer") != NULL, "%s", err);
    CHECK(count(path, "SELECT version FROM schema_version") == 99);   /* untouched */

    tmp_path(path, "text.sqlite");
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs("this is not a database, just some text that is long enough for a header......\n", f);
    fclose(f);
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_ERR_IO);
    CHECKF(strstr(err, "not a SQLite database") != NULL, "%s", err);
    /* loading a tuning from it: an error naming the file, and an empty table */
    dh_store_tuning t;
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-1", "Test GPU", &t, err, sizeof err), DRTOPK_ERR_IO);
    CHECKF(strstr(err, path) && strstr(err, "not a SQLite database"), "%s", err);
    CHECK(t.table.count == 0 && t.entries == NULL);
    dh_store_tuning_free(&t);

    tmp_path(path, "foreign.sqlite");
    sql(path, "CREATE TABLE t (x)");
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_ERR_IO);
    CHECKF(strstr(err, "not a drtopk") != NULL, "%s", err);

    CHECK_STATUS(dh_store_open("/tmp", 0, &s, err, sizeof err), DRTOPK_ERR_IO);
    CHECKF(strstr(err, "directory") != NULL, "%s", err);
    CHECK_STATUS(dh_store_open("/nonexistent-dir-drtopk/x.sqlite", 0, &s, err, sizeof err), DRTOPK_ERR_IO);
    CHECKF(strstr(err, "does not exist") != NULL, "%s", err);
}

static dh_store_measurement meas(uint64_t k, int alpha, double ms)
{
    dh_store_measurement m;
    memset(&m, 0, sizeof m);
    snprintf(m.cfg.algorithm, sizeof m.cfg.algorithm, "dr-radix");
    snprintf(m.cfg.first_algo, sizeof m.cfg.first_algo, "radix");
    snprintf(m.cfg.second_algo, sizeof m.cfg.second_algo, "radix");
    snprintf(m.cfg.dtype, sizeof m.cfg.dtype, "u32");
    snprintf(m.cfg.dist, sizeof m.cfg.dist, "UD");
    snprintf(m.cfg.order, sizeof m.cfg.order, "largest");
    m.cfg.seed = 1;
    m.cfg.n = 1 << 20;
    m.cfg.k = k;
    m.cfg.alpha = alpha;
    m.cfg.beta = 2;
    m.status = DRTOPK_MEAS_OK;
    m.reps = 1;
    m.median_ms = m.min_ms = m.max_ms = ms;
    return m;
}

/* A measurement of the standalone onepass on dtype (status ok). */
static dh_store_measurement onepass_meas(const char *dtype)
{
    dh_store_measurement m = meas(16, 0, 0.5);
    snprintf(m.cfg.algorithm, sizeof m.cfg.algorithm, "onepass");
    snprintf(m.cfg.dtype, sizeof m.cfg.dtype, "%s", dtype);
    m.cfg.first_algo[0] = m.cfg.second_algo[0] = '\0';
    m.cfg.beta = 0;
    return m;
}

/* A database with one machine, one run, two measurements and a fit. */
static void fill(const char *path, const char *uuid, const char *name, double c)
{
    char err[DRTOPK_STORE_ERR_LEN];
    dh_store *s;
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    dh_store_machine m = { .backend = "cuda", .sm_count = 132 };
    snprintf(m.uuid, sizeof m.uuid, "%s", uuid);
    snprintf(m.name, sizeof m.name, "%s", name);
    int64_t mid, rid;
    CHECK_STATUS(dh_store_put_machine(s, &m, &mid), DRTOPK_OK);
    CHECK_STATUS(dh_store_begin_run(s, mid, "test", "test --x", "abc", &rid), DRTOPK_OK);
    double reps[3] = { 1.5, 1.0, 2.0 };
    dh_store_measurement a = meas(16, 8, 1.5), b = meas(16, 9, 1.25);
    a.reps = 3;
    a.reps_ms = reps;
    a.verified = 1;
    a.verify_ok = 1;
    CHECK_STATUS(dh_store_begin(s), DRTOPK_OK);
    CHECK_STATUS(dh_store_put(s, mid, rid, "abc", &a), DRTOPK_OK);
    CHECK_STATUS(dh_store_put(s, mid, rid, "abc", &b), DRTOPK_OK);
    CHECK_STATUS(dh_store_commit(s), DRTOPK_OK);
    dh_store_fit f = { .dtype = "u32", .algorithm = "dr-radix", .beta = 2, .const_time = c,
                           .const_lsq = c, .mean_slowdown = 1, .worst_slowdown = 1, .points = 1 };
    CHECK_STATUS(dh_store_put_fit(s, mid, "abc", &f), DRTOPK_OK);
    CHECK_STATUS(dh_store_end_run(s, rid, "done"), DRTOPK_OK);
    dh_store_close(s);
}

/* fill's database at a fresh temporary path for file name `file`: machine
 * GPU-1 ("Test GPU"), Rule 4's const 3.75. */
static void test_gpu_db(char *path, const char *file)
{
    tmp_path(path, file);
    fill(path, "GPU-1", "Test GPU", 3.75);
}

/* One raw row (as a tool other than the store writes it) of dr-radix or the
 * standalone radix at (n = 2^20, k = 16, alpha) into an open database file. */
static void raw_row(const char *path, const char *commit, int alpha)
{
    char stmt[1024];
    snprintf(stmt, sizeof stmt,
             "INSERT INTO measurements (machine_id, run_id, git_commit, algorithm, first_algo, second_algo, dtype, "
             "dist, seed, n, k, alpha, beta, flags, sort_order, status, reps, median_ms, verified, measured_at) "
             "VALUES (1, 1, '%s', '%s', '', '', 'u32', 'UD', 1, 1048576, 16, %d, %d, %d, 'largest', 'ok', 1, 1.0, "
             "0, '2026-01-01')", commit, alpha ? "dr-radix" : "radix", alpha, alpha ? 2 : 0, alpha ? 11 : 0);
    sql(path, stmt);
}

/* The store's rule4_alpha and rule4_flags (schema migration 11) at n = 2^20,
 * k = 16, where Rule 4 with the paper's const 3 gives round(0.5 * (3 + 20 - 4))
 * = 10: the delegate pipeline's flags at alpha 5 have the shared-memory build
 * (up to alpha 7), at alpha 9 not, a standalone row and an alpha above
 * ceil(log2 n) = 20 none.  Rows stored before the version, written by
 * another tool, merged from an older database, or put by the store all get them. */
static int rule4_rows(const char *path, const char *commit)
{
    char q[512];
    snprintf(q, sizeof q, "SELECT count(*) FROM measurements WHERE git_commit = '%s' AND rule4_alpha = 10 AND "
                          "rule4_flags = CASE alpha WHEN 5 THEN 15 WHEN 9 THEN 11 WHEN 10 THEN 11 ELSE 0 END", commit);
    return count(path, q);
}

static void store_rule4_columns(void)
{
    char path[PATH_LEN], older[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    const char *machine_run = "INSERT INTO machines (uuid, name, backend) VALUES ('GPU-r4', 'R4 GPU', 'cuda');"
                              "INSERT INTO runs (run_uuid, machine_id, program, argv, git_commit, started_at, status) "
                              "VALUES ('r4-run', 1, 'tuner', '', 'old', '2026-01-01', 'done');";
    const int alphas[] = { 0, 5, 9, RULE4_UNREACHED_ALPHA };
    dh_store *s;
    tmp_path(path, "rule4.sqlite");
    CHECK_STATUS(dh_store_open_version(path, 0, RULE4_BEFORE_VERSION, &s, err, sizeof err), DRTOPK_OK);
    dh_store_close(s);
    sql(path, machine_run);
    for (size_t i = 0; i < sizeof alphas / sizeof alphas[0]; ++i) raw_row(path, "old", alphas[i]);
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);   /* migrates, derives */
    CHECK(count(path, "SELECT count(*) FROM measurements") == 4);
    CHECK(rule4_rows(path, "old") == 4);
    /* put by the store */
    dh_store_measurement m = meas(16, 10, 1.0);
    m.cfg.flags = DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT;
    CHECK_STATUS(dh_store_put(s, 1, 1, "put", &m), DRTOPK_OK);
    CHECK(rule4_rows(path, "put") == 1);
    /* merged from a database of the version before (read as it is) */
    tmp_path(older, "rule4_older.sqlite");
    dh_store *o;
    CHECK_STATUS(dh_store_open_version(older, 0, RULE4_BEFORE_VERSION, &o, err, sizeof err), DRTOPK_OK);
    dh_store_close(o);
    sql(older, "INSERT INTO machines (uuid, name, backend) VALUES ('GPU-r4', 'R4 GPU', 'cuda');"
               "INSERT INTO runs (run_uuid, machine_id, program, argv, git_commit, started_at, status) "
               "VALUES ('r4-older', 1, 'tuner', '', 'merged', '2026-01-01', 'done');");
    raw_row(older, "merged", 5);
    raw_row(older, "merged", 0);
    dh_store_merge_stats st;
    CHECK_STATUS(dh_store_merge(s, older, &st), DRTOPK_OK);
    CHECK(st.measurements_added == 2);
    CHECK(rule4_rows(path, "merged") == 2);
    dh_store_close(s);
    /* written by another tool into the current version: derived at the next opening for writing */
    raw_row(path, "raw", 9);
    CHECK(count(path, "SELECT count(*) FROM measurements WHERE git_commit = 'raw' AND rule4_alpha = 0") == 1);
    CHECK_STATUS(dh_store_open(path, DRTOPK_STORE_READONLY, &s, err, sizeof err), DRTOPK_OK);
    dh_store_close(s);      /* a read-only opening writes nothing */
    CHECK(rule4_rows(path, "raw") == 0);
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    dh_store_close(s);
    CHECK(rule4_rows(path, "raw") == 1);
    CHECK(count(path, "SELECT count(*) FROM measurements WHERE rule4_alpha = 0") == 0);
}

/* Rows of fit_alphas (schema migration 12) at n = 2^20 and k that hold the
 * library's drtopk_rule4_alpha(n, k, c) for the u32 dr-radix beta 2 fit of
 * const c of the machine of `uuid`. */
static int fit_alpha_rows(const char *path, const char *uuid, uint64_t k, double c)
{
    char q[512];
    snprintf(q, sizeof q, "SELECT count(*) FROM fit_alphas fa JOIN machines m ON m.id = fa.machine_id "
                          "WHERE m.uuid = '%s' AND fa.dtype = 'u32' AND fa.algorithm = 'dr-radix' AND fa.beta = 2 "
                          "AND fa.n = 1048576 AND fa.k = %" PRIu64 " AND fa.const_time = %.17g AND fa.alpha = %d",
             uuid, k, c, drtopk_rule4_alpha(UINT64_C(1) << 20, k, c));
    return count(path, q);
}

/* fit_alphas: derived by the store for each fit at each (n, k) measured,
 * replaced when the fit's const changes, derived for rows another tool wrote
 * at the next opening for writing, and in the target of a merge. */
static void store_fit_alphas(void)
{
    char path[PATH_LEN], other[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    const double c1 = 3.75, c2 = 9.0, c3 = 1.5;     /* give alphas 10, 13 and 9 at (2^20, 16) */
    dh_store *s;
    tmp_path(path, "fit_alphas.sqlite");
    fill(path, "GPU-fa", "FA GPU", c1);             /* rows at k = 16, then the fit */
    CHECK(count(path, "SELECT count(*) FROM fit_alphas") == 1);
    CHECK(fit_alpha_rows(path, "GPU-fa", 16, c1) == 1);
    /* a new fit's const replaces the alphas */
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    dh_store_fit f = { .dtype = "u32", .algorithm = "dr-radix", .beta = 2, .const_time = c2,
                           .const_lsq = c2, .mean_slowdown = 1, .worst_slowdown = 1, .points = 1 };
    CHECK_STATUS(dh_store_put_fit(s, 1, "abc", &f), DRTOPK_OK);
    dh_store_close(s);
    CHECK(count(path, "SELECT count(*) FROM fit_alphas") == 1);
    CHECK(fit_alpha_rows(path, "GPU-fa", 16, c2) == 1);
    /* a row another tool wrote at k = 4096: derived at the next opening for writing */
    sql(path, "INSERT INTO measurements (machine_id, run_id, git_commit, algorithm, first_algo, second_algo, dtype, "
              "dist, seed, n, k, alpha, beta, flags, sort_order, status, reps, median_ms, verified, measured_at) "
              "VALUES (1, 1, 'raw', 'dr-radix', 'radix', 'radix', 'u32', 'UD', 1, 1048576, 4096, 8, 2, 11, "
              "'largest', 'ok', 1, 1.0, 0, '2026-01-01')");
    CHECK(fit_alpha_rows(path, "GPU-fa", 4096, c2) == 0);
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    CHECK(fit_alpha_rows(path, "GPU-fa", 4096, c2) == 1);
    /* merged: another GPU's rows and fit, its alphas derived in the target */
    tmp_path(other, "fit_alphas_other.sqlite");
    fill(other, "GPU-fb", "FB GPU", c3);
    sql(other, "DELETE FROM fit_alphas");           /* never copied: the target derives them */
    dh_store_merge_stats st;
    CHECK_STATUS(dh_store_merge(s, other, &st), DRTOPK_OK);
    dh_store_close(s);
    CHECK(fit_alpha_rows(path, "GPU-fb", 16, c3) == 1);
    CHECK(count(path, "SELECT count(*) FROM fit_alphas") == 3);
    /* merged: new points of a machine whose fit the target already has (the
     * source's own fit of it is not copied: the target's stays) get the target
     * fit's alphas; the other machine's rows stay as they were */
    char more[PATH_LEN];
    tmp_path(more, "fit_alphas_more.sqlite");
    fill(more, "GPU-fa", "FA GPU", c1);
    sql(more, "UPDATE measurements SET k = k * 64");    /* k = 1024: a point the target lacks */
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    CHECK_STATUS(dh_store_merge(s, more, &st), DRTOPK_OK);
    dh_store_close(s);
    CHECK(st.measurements_added == 2 && st.fits_added == 0);
    CHECK(fit_alpha_rows(path, "GPU-fa", 1024, c2) == 1);
    CHECK(fit_alpha_rows(path, "GPU-fa", 1024, c1) == 0);
    CHECK(fit_alpha_rows(path, "GPU-fb", 16, c3) == 1);
    CHECK(count(path, "SELECT count(*) FROM fit_alphas") == 4);
}

static void store_round_trip_and_lookup(void)
{
    char path[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    test_gpu_db(path, "rt.sqlite");
    CHECK(count(path, "SELECT count(*) FROM measurements WHERE reps_ms = '[1.5,1,2]' AND verify_ok = 1") == 1);
    CHECK(count(path, "SELECT count(*) FROM pragma_journal_mode WHERE journal_mode = 'wal'") == 1);
    dh_store *s;
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    dh_store_measurement a = meas(16, 8, 0.75), c = meas(64, 8, 1.0);
    int found = 0;
    CHECK_STATUS(dh_store_has(s, 1, "abc", &a.cfg, &found), DRTOPK_OK);
    CHECK(found);
    CHECK_STATUS(dh_store_has(s, 1, "other-commit", &a.cfg, &found), DRTOPK_OK);
    CHECK(!found);
    CHECK_STATUS(dh_store_has(s, 1, "abc", &c.cfg, &found), DRTOPK_OK);
    CHECK(!found);
    CHECK_STATUS(dh_store_put(s, 1, 1, "abc", &a), DRTOPK_OK);    /* --force replaces */
    dh_store_close(s);
    CHECK(count(path, "SELECT count(*) FROM measurements") == 2);
    CHECK(count(path, "SELECT count(*) FROM measurements WHERE alpha = 8 AND median_ms = 0.75") == 1);
    CHECK(count(path, "SELECT count(*) FROM measurements WHERE reps_ms = '[1.5,1,2]'") == 0);

    /* The fit alone: one catch-all entry per fitted dtype, for this uuid,
     * from the smallest n the fit measured (fill's 2^20) up. */
    dh_store_tuning t;
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-1", NULL, &t, err, sizeof err), DRTOPK_OK);
    CHECK_EQ_U64(t.table.count, 1);
    CHECK(t.table.entries == t.entries && !strcmp(t.table.gpu_name, "Test GPU"));
    CHECK(t.table.algos_measured == UINT32_C(1) << DRTOPK_ALGO_RADIX);    /* dr-radix: the pipeline's radix */
    CHECK(t.entries[0].dtype == DRTOPK_U32 && t.entries[0].rule4_const == 3.75 && t.entries[0].beta == 2 &&
          t.entries[0].algo == DRTOPK_ALGO_RADIX && t.entries[0].log2n_min == 20 &&
          t.entries[0].log2n_max == 63 &&
          t.entries[0].log2k_min == 0 && t.entries[0].log2k_max == 63);
    dh_store_tuning_free(&t);
    /* Rows that are not the fit's points leave the catch-all's start alone: a
     * real data set's, another commit's, another beta's; an automatic plan's
     * row (tuner --regret) is not a measured algorithm either. */
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    dh_store_measurement real = meas(16, 6, 0.5), other_commit = meas(16, 6, 0.5), beta3 = meas(16, 6, 0.5),
                             automatic = meas(16, 0, 0.5);
    snprintf(real.cfg.dist, sizeof real.cfg.dist, "graph-email-Enron");
    real.cfg.n = other_commit.cfg.n = beta3.cfg.n = 1 << 12;
    beta3.cfg.beta = 3;
    snprintf(automatic.cfg.algorithm, sizeof automatic.cfg.algorithm, DRTOPK_STORE_AUTO_PREFIX "builtin");
    snprintf(automatic.cfg.second_algo, sizeof automatic.cfg.second_algo, "onepass");
    automatic.cfg.first_algo[0] = '\0';
    automatic.cfg.beta = 0;
    CHECK_STATUS(dh_store_put(s, 1, 1, "abc", &real), DRTOPK_OK);
    CHECK_STATUS(dh_store_put(s, 1, 1, "older", &other_commit), DRTOPK_OK);
    CHECK_STATUS(dh_store_put(s, 1, 1, "abc", &beta3), DRTOPK_OK);
    CHECK_STATUS(dh_store_put(s, 1, 1, "abc", &automatic), DRTOPK_OK);
    dh_store_close(s);
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-1", NULL, &t, err, sizeof err), DRTOPK_OK);
    CHECK(t.table.count == 1 && t.entries[0].log2n_min == 20);
    CHECK(t.table.algos_measured == UINT32_C(1) << DRTOPK_ALGO_RADIX);
    dh_store_tuning_free(&t);
    /* The fit's own row at a smaller n moves it. */
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    dh_store_measurement smaller = meas(16, 6, 0.5);
    smaller.cfg.n = 3 << 12;
    CHECK_STATUS(dh_store_put(s, 1, 1, "abc", &smaller), DRTOPK_OK);
    dh_store_close(s);
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-1", NULL, &t, err, sizeof err), DRTOPK_OK);
    CHECK(t.table.count == 1 && t.entries[0].log2n_min == 13);
    dh_store_tuning_free(&t);
    /* Another GPU of the same model uses the fit; another model does not. */
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-2", "Test GPU", &t, err, sizeof err), DRTOPK_OK);
    CHECK(t.table.count == 1 && !strcmp(t.machine_uuid, "GPU-1"));
    dh_store_tuning_free(&t);
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-2", "Other GPU", &t, err, sizeof err), DRTOPK_OK);
    CHECK(t.table.count == 0 && t.machine_uuid[0] == '\0');
    dh_store_tuning_free(&t);
    /* A missing database is an empty table, and is not created. */
    char missing[PATH_LEN];
    tmp_path(missing, "missing.sqlite");
    CHECK_STATUS(dh_store_load_tuning(missing, "GPU-1", NULL, &t, err, sizeof err), DRTOPK_OK);
    CHECK(t.table.count == 0 && access(missing, F_OK) != 0);
    dh_store_tuning_free(&t);
    /* The algorithms measured: fused (ok) joins, onepass (an error) does not,
     * and an onepass that did not run leaves the catch-all in place. */
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    dh_store_measurement fused = meas(16, 0, 0.5), onepass = meas(16, 0, 0.5);
    snprintf(fused.cfg.algorithm, sizeof fused.cfg.algorithm, "fused");
    snprintf(onepass.cfg.algorithm, sizeof onepass.cfg.algorithm, "onepass");
    fused.cfg.first_algo[0] = onepass.cfg.first_algo[0] = '\0';
    onepass.status = DRTOPK_MEAS_ERROR;
    CHECK_STATUS(dh_store_put(s, 1, 1, "abc", &fused), DRTOPK_OK);
    CHECK_STATUS(dh_store_put(s, 1, 1, "abc", &onepass), DRTOPK_OK);
    dh_store_close(s);
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-1", NULL, &t, err, sizeof err), DRTOPK_OK);
    CHECK(t.table.algos_measured == ((UINT32_C(1) << DRTOPK_ALGO_RADIX) | (UINT32_C(1) << DRTOPK_ALGO_FUSED)));
    CHECK(t.table.count == 1);
    dh_store_tuning_free(&t);

    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    /* n 2^20..2^21: two k ranges (the second with the warp-centric build
     * from alpha 6); n 2^22..2^23, k < 2^10: dropped by the held-out check */
    dh_store_choice ch[3] = {
        { .log2n_min = 20, .log2n_max = 21, .log2k_min = 0, .log2k_max = 9, .algorithm = "dr-radix", .beta = 2,
          .rule4_const = 3.75, .status = DRTOPK_CHOICE_KEPT },
        { .log2n_min = 20, .log2n_max = 21, .log2k_min = 10, .log2k_max = 63, .algorithm = "dr-bucket", .beta = 3,
          .rule4_const = 2.5, .shared_build_max_alpha = 5, .status = DRTOPK_CHOICE_KEPT },
        { .log2n_min = 22, .log2n_max = 23, .log2k_min = 0, .log2k_max = 9, .algorithm = "dr-bucket", .beta = 4,
          .rule4_const = 9.0, .shared_build_max_alpha = 5, .status = DRTOPK_CHOICE_DROPPED } };
    /* a standalone choice is nothing drtopk_plan_auto can build: left out */
    dh_store_choice standalone = { .log2n_max = 63, .log2k_min = 0, .log2k_max = 63, .algorithm = "bitonic" };
    dh_store_choice bad_status = ch[0];
    bad_status.status = (dh_choice_status)7;
    CHECK_STATUS(dh_store_put_choices(s, 1, "abc", "u32", ch, 3), DRTOPK_OK);
    CHECK_STATUS(dh_store_put_choices(s, 1, "abc", "u32", ch, 3), DRTOPK_OK);   /* replaces */
    CHECK_STATUS(dh_store_put_choices(s, 1, "abc", "u32", &bad_status, 1), DRTOPK_ERR_IO);
    CHECK_STATUS(dh_store_put_choices(s, 1, "abc", "i32", &standalone, 1), DRTOPK_OK);
    dh_store_close(s);
    CHECK(count(path, "SELECT count(*) FROM choices") == 4);
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-1", NULL, &t, err, sizeof err), DRTOPK_OK);
    /* the dropped cell is left out: the catch-all after the two kept cells */
    CHECK_EQ_U64(t.table.count, 3);
    CHECK(t.entries[1].shared_build_max_alpha == 5);
    CHECK(t.entries[2].log2n_min == 13 && t.entries[2].log2n_max == 63);
    /* plan_auto with the table: each k range's choice, first match first */
    drtopk_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, 1ull << 20, 4096, NULL };
    drtopk_plan plan;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, &t.table), DRTOPK_OK);
    CHECK(plan.const_source == DRTOPK_CONST_TUNING && plan.first_algo == DRTOPK_ALGO_BUCKET && plan.beta == 3 &&
          plan.rule4_const == 2.5);
    p.k = 1023;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, &t.table), DRTOPK_OK);
    CHECK(plan.const_source == DRTOPK_CONST_TUNING && plan.first_algo == DRTOPK_ALGO_RADIX && plan.beta == 2);
    /* the second range's build: warp-centric from alpha 6 (shared below) */
    p.k = 1ull << 10;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, &t.table), DRTOPK_OK);
    CHECK(plan.alpha == drtopk_rule4_alpha(p.n, p.k, 2.5));
    CHECK(!!(plan.flags & DRTOPK_SHARED_DELEGATE) == (plan.alpha <= 5));
    p.n = 1ull << 24;                   /* outside every cell: the fitted const */
    p.k = 1ull << 12;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, &t.table), DRTOPK_OK);
    CHECK(plan.const_source == DRTOPK_CONST_TUNING && plan.rule4_const == t.entries[2].rule4_const);
    p.n = 1ull << 22;
    p.k = 1ull << 8;                    /* the dropped cell: what follows it, the catch-all */
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, &t.table), DRTOPK_OK);
    CHECK(plan.const_source == DRTOPK_CONST_TUNING && plan.rule4_const == t.entries[2].rule4_const &&
          plan.beta == 2 && plan.first_algo == DRTOPK_ALGO_RADIX);
    p.n = 1ull << 20;
    p.dtype = DRTOPK_I32;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, &t.table), DRTOPK_OK);
    CHECK(plan.const_source == DRTOPK_CONST_DEFAULT);
    dh_store_tuning_free(&t);

    /* A machine with this uuid wins over a more recently tuned one of its name. */
    fill(path, "GPU-3", "Test GPU", 5.0);
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-1", "Test GPU", &t, err, sizeof err), DRTOPK_OK);
    CHECK(!strcmp(t.machine_uuid, "GPU-1"));
    dh_store_tuning_free(&t);
    /* Another card of the model: the machine with the larger decision table
     * (GPU-1's 3 cells over GPU-3's fit alone, tuned later), the most recently
     * tuned among equals. */
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-9", "Test GPU", &t, err, sizeof err), DRTOPK_OK);
    CHECK(!strcmp(t.machine_uuid, "GPU-1") && t.table.count == 3);
    dh_store_tuning_free(&t);
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    const int64_t gpu3 = 2;     /* fill's second machine */
    CHECK_STATUS(dh_store_put_choices(s, gpu3, "abc", "u32", ch, 3), DRTOPK_OK);
    CHECK_STATUS(dh_store_put_choices(s, gpu3, "abc", "i32", &standalone, 1), DRTOPK_OK);
    dh_store_close(s);
    CHECK(count(path, "SELECT count(*) FROM choices WHERE machine_id = 2") == 4);
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-9", "Test GPU", &t, err, sizeof err), DRTOPK_OK);
    CHECK(!strcmp(t.machine_uuid, "GPU-3") && t.entries[2].rule4_const == 5.0);
    dh_store_tuning_free(&t);
}

/* A catch-all Rule 4 entry stands for a dtype until the machine measured
 * onepass on it (ok): then the library's own rules decide outside the cells. */
static void store_catch_all_yields_to_onepass(void)
{
    char path[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    test_gpu_db(path, "onepass.sqlite");
    dh_store *s;
    dh_store_tuning t;
    dh_store_measurement f32_onepass = onepass_meas("f32"), u32_onepass = onepass_meas("u32");
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    CHECK_STATUS(dh_store_put(s, 1, 1, "abc", &f32_onepass), DRTOPK_OK);   /* another dtype */
    dh_store_close(s);
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-1", NULL, &t, err, sizeof err), DRTOPK_OK);
    CHECK(t.table.count == 1 && t.entries[0].dtype == DRTOPK_U32);
    dh_store_tuning_free(&t);
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    CHECK_STATUS(dh_store_put(s, 1, 1, "abc", &u32_onepass), DRTOPK_OK);
    dh_store_close(s);
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-1", NULL, &t, err, sizeof err), DRTOPK_OK);
    CHECK_EQ_U64(t.table.count, 0);
    CHECK(t.table.algos_measured & (UINT32_C(1) << DRTOPK_ALGO_ONEPASS));
    dh_store_tuning_free(&t);
}

/* The checked tuning (what a compiled-in table holds) keeps only the cells a
 * held-out check kept: 'kept' with a held-out point inside the cell; the
 * plain tuning keeps every cell that is not dropped.  A standalone choice
 * becomes an entry with the library's default beta and const. */
static void store_checked_tuning_keeps_checked_cells(void)
{
    char path[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    test_gpu_db(path, "checked.sqlite");
    dh_store *s;
    dh_store_tuning t;
    dh_store_measurement onepass = onepass_meas("u32");  /* measured onepass: no catch-all */
    /* fused kept but never checked; the pipeline kept and checked inside its
     * cell; unchecked; kept with its check outside the cell */
    dh_store_choice ch[4] = {
        { .log2n_min = 20, .log2n_max = 21, .log2k_min = 0, .log2k_max = 9, .algorithm = "fused",
          .status = DRTOPK_CHOICE_KEPT },
        { .log2n_min = 22, .log2n_max = 23, .log2k_min = 0, .log2k_max = 9, .algorithm = "dr-radix", .beta = 1,
          .rule4_const = 4.0, .status = DRTOPK_CHOICE_KEPT },
        { .log2n_min = 24, .log2n_max = 25, .log2k_min = 0, .log2k_max = 9, .algorithm = "dr-radix", .beta = 2,
          .rule4_const = 5.0, .status = DRTOPK_CHOICE_UNCHECKED },
        { .log2n_min = 28, .log2n_max = 29, .log2k_min = 0, .log2k_max = 9, .algorithm = "dr-radix", .beta = 2,
          .rule4_const = 6.0, .status = DRTOPK_CHOICE_KEPT } };
    dh_store_check inside = { .kind = "heldout", .dtype = "u32", .dist = "UD", .seed = 1,
                              .n = (3ull << 21) + 3, .k = 2, .tuned_algorithm = "dr-radix",
                              .default_ms = { 1, 1 }, .tuned_ms = { 0.5, 0.5 } },
                   outside = inside;
    outside.n = (3ull << 25) + 3;       /* floor(log2 n) = 26: no cell's */
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    CHECK_STATUS(dh_store_put(s, 1, 1, "abc", &onepass), DRTOPK_OK);
    CHECK_STATUS(dh_store_put_choices(s, 1, "abc", "u32", ch, 4), DRTOPK_OK);
    CHECK_STATUS(dh_store_put_check(s, 1, "abc", &inside), DRTOPK_OK);
    CHECK_STATUS(dh_store_put_check(s, 1, "abc", &outside), DRTOPK_OK);
    dh_store_close(s);
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-1", NULL, &t, err, sizeof err), DRTOPK_OK);
    CHECK_EQ_U64(t.table.count, 4);
    CHECK(t.entries[0].algo == DRTOPK_ALGO_FUSED && t.entries[0].beta == 2 &&
          t.entries[0].rule4_const == DRTOPK_RULE4_CONST_DEFAULT);
    dh_store_tuning_free(&t);
    CHECK_STATUS(dh_store_load_checked_tuning(path, "GPU-1", NULL, &t, err, sizeof err), DRTOPK_OK);
    CHECK_EQ_U64(t.table.count, 1);
    CHECK(t.entries[0].log2n_min == 22 && t.entries[0].beta == 1 && t.entries[0].rule4_const == 4.0);
    CHECK(!strcmp(t.machine_uuid, "GPU-1"));
    dh_store_tuning_free(&t);
    /* the conversion alone: a standalone plan other than onepass and fused,
     * an unknown name and a pipeline without a beta name no entry */
    drtopk_tuning_entry e;
    dh_store_choice other = ch[1];
    CHECK(dh_store_choice_entry(DRTOPK_F32, &other, &e) && e.dtype == DRTOPK_F32 && e.algo == DRTOPK_ALGO_RADIX);
    snprintf(other.algorithm, sizeof other.algorithm, "bitonic");
    CHECK(!dh_store_choice_entry(DRTOPK_U32, &other, &e));
    snprintf(other.algorithm, sizeof other.algorithm, "no-such-plan");
    CHECK(!dh_store_choice_entry(DRTOPK_U32, &other, &e));
    other = ch[1];
    other.beta = 0;
    CHECK(!dh_store_choice_entry(DRTOPK_U32, &other, &e));
}

typedef struct {
    int calls, autos;
    dh_store_regret last;
} point_count;

static int count_points(const dh_store_point *pt, void *ctx)
{
    point_count *c = ctx;
    ++c->calls;
    c->autos += !strncmp(pt->algorithm, DRTOPK_STORE_AUTO_PREFIX, strlen(DRTOPK_STORE_AUTO_PREFIX));
    return 0;
}

static int keep_regret(const dh_store_regret *r, void *ctx)
{
    point_count *c = ctx;
    ++c->calls;
    c->last = *r;
    return 0;
}

/* Rows of the automatic plan (tuner --regret) are no forced plans: neither a
 * fit point nor the best measured plan, however fast; the regret of one is
 * its time over the fastest forced plan's at its point. */
static void store_automatic_rows(void)
{
    char path[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    test_gpu_db(path, "auto.sqlite");    /* dr-radix at k = 16: alpha 8 1.5 ms, alpha 9 1.25 ms */
    dh_store *s;
    dh_store_measurement fast = meas(16, 7, 0.01), slow = meas(16, 7, 2.5), alone = meas(64, 7, 1.0);
    snprintf(fast.cfg.algorithm, sizeof fast.cfg.algorithm, DRTOPK_STORE_AUTO_PREFIX "builtin");
    snprintf(slow.cfg.algorithm, sizeof slow.cfg.algorithm, DRTOPK_STORE_AUTO_PREFIX "tuned");
    snprintf(alone.cfg.algorithm, sizeof alone.cfg.algorithm, DRTOPK_STORE_AUTO_PREFIX "tuned");
    fast.cfg.flags = slow.cfg.flags = alone.cfg.flags = DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT;
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    CHECK_STATUS(dh_store_put(s, 1, 1, "abc", &fast), DRTOPK_OK);
    CHECK_STATUS(dh_store_put(s, 1, 1, "abc", &slow), DRTOPK_OK);
    CHECK_STATUS(dh_store_put(s, 1, 1, "abc", &alone), DRTOPK_OK);
    double ms = 0;
    char config[96];
    int found = 0;
    CHECK_STATUS(dh_store_best(s, 1, "abc", "u32", "UD", 1, 1 << 20, 16, &ms, config, sizeof config, &found),
                 DRTOPK_OK);
    CHECKF(found && ms == 1.25 && !strncmp(config, "dr-radix alpha=9", strlen("dr-radix alpha=9")), "%g %s", ms,
           config);
    point_count c = { 0 };
    CHECK_STATUS(dh_store_each_point(s, 1, "abc", "u32", count_points, &c), DRTOPK_OK);
    CHECK(c.calls == 2 && c.autos == 0);
    memset(&c, 0, sizeof c);
    CHECK_STATUS(dh_store_each_regret(s, 1, "abc", DRTOPK_STORE_AUTO_PREFIX "builtin", keep_regret, &c),
                 DRTOPK_OK);
    CHECK(c.calls == 1 && c.last.has_best && c.last.best_ms == 1.25 && c.last.best_alpha == 9 &&
          !strcmp(c.last.best_algorithm, "dr-radix") && c.last.regret == 1.0 && c.last.auto_ms == 0.01 &&
          c.last.auto_alpha == 7 && c.last.auto_flags == fast.cfg.flags && !strcmp(c.last.auto_algorithm, "dr-radix"));
    memset(&c, 0, sizeof c);
    CHECK_STATUS(dh_store_each_regret(s, 1, "abc", DRTOPK_STORE_AUTO_PREFIX "tuned", keep_regret, &c),
                 DRTOPK_OK);
    CHECK(c.calls == 2 && c.last.k == 64 && !c.last.has_best && c.last.regret == 1.0);   /* no forced plan at k = 64 */
    dh_store_close(s);
    CHECK(count(path, "SELECT count(*) FROM measurements WHERE algorithm LIKE 'auto-%'") == 3);
}

static void store_merge_is_idempotent(void)
{
    char a[PATH_LEN], b[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    tmp_path(a, "merge_a.sqlite");
    tmp_path(b, "merge_b.sqlite");
    fill(a, "GPU-A", "H100", 3.5);
    fill(b, "GPU-B", "H200", 4.5);
    fill(b, "GPU-A", "H100", 3.5);      /* the same machine also measured into b */
    dh_store *s;
    CHECK_STATUS(dh_store_open(a, 0, &s, err, sizeof err), DRTOPK_OK);
    dh_store_merge_stats st;
    CHECK_STATUS(dh_store_merge(s, b, &st), DRTOPK_OK);
    CHECK(st.machines_added == 1 && st.runs_added == 2 && st.measurements_added == 2);
    CHECK(st.fits_added == 1);
    CHECK_STATUS(dh_store_merge(s, b, &st), DRTOPK_OK);
    CHECK(st.machines_added == 0 && st.runs_added == 0 && st.measurements_added == 0 && st.fits_added == 0);
    char missing[PATH_LEN];
    tmp_path(missing, "merge_missing.sqlite");
    CHECK_STATUS(dh_store_merge(s, missing, &st), DRTOPK_ERR_IO);
    CHECKF(strstr(dh_store_errmsg(s), "does not exist") != NULL, "%s", dh_store_errmsg(s));
    dh_store_close(s);
    CHECK(count(a, "SELECT count(*) FROM machines") == 2);
    CHECK(count(a, "SELECT count(*) FROM runs") == 3);
    CHECK(count(a, "SELECT count(*) FROM measurements") == 4);
    CHECK(count(a, "SELECT count(*) FROM (SELECT 1 FROM measurements GROUP BY machine_id, git_commit, "
                   "algorithm, dtype, dist, seed, n, k, alpha, beta, flags HAVING count(*) > 1)") == 0);
    CHECK(count(a, "PRAGMA foreign_key_check") == -1);   /* no row: no dangling reference */
}

/* One run of drtopk-mpi with `ranks` ranks, total time `ms` and the parts'
 * way to rank 0 `exchange` (NULL: not given) into path. */
static void put_multi(const char *path, const char *uuid, int ranks, double ms, const char *exchange)
{
    char err[DRTOPK_STORE_ERR_LEN];
    dh_store *s;
    dh_store_machine m = { .backend = "cuda" };
    dh_store_multi row = { .cfg = { .algorithm = "dr-radix", .first_algo = "radix", .second_algo = "radix",
                                        .dtype = "u32", .dist = "UD", .seed = 1, .n = 1ull << 34, .k = 128,
                                        .alpha = 12, .beta = 2, .flags = 15, .order = "largest" },
                               .ranks = ranks, .gpus = ranks, .device_cap = 1ull << 30, .out_of_core = 1,
                               .chunks = 8, .filtered = 12345, .reps = 2, .total_ms = ms, .compute_ms = ms / 2,
                               .reload_ms = ms / 3, .comm_ms = 0.25, .link_gbps = ranks == 1 ? 0 : 52.5,
                               .reps_ms = "[1.0, 2.0]", .exchange = exchange };
    int64_t mid, rid;
    snprintf(m.uuid, sizeof m.uuid, "%s", uuid);
    snprintf(m.name, sizeof m.name, "NVIDIA H200");
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    CHECK_STATUS(dh_store_put_machine(s, &m, &mid), DRTOPK_OK);
    CHECK_STATUS(dh_store_begin_run(s, mid, "drtopk-mpi", "--n 2^34 --k 128", "abc", &rid), DRTOPK_OK);
    CHECK_STATUS(dh_store_put_multi(s, mid, rid, "abc", &row), DRTOPK_OK);
    CHECK_STATUS(dh_store_end_run(s, rid, "done"), DRTOPK_OK);
    dh_store_close(s);
}

/* drtopk-mpi's Table 2 rows (paper 5.4): round-trip, replace by key, merge once. */
static void store_multi_rows(void)
{
    char a[PATH_LEN], b[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    tmp_path(a, "multi_a.sqlite");
    tmp_path(b, "multi_b.sqlite");
    put_multi(a, "GPU-A", 1, 40.0, NULL);
    put_multi(a, "GPU-A", 2, 21.0, "cuda-ipc");
    put_multi(a, "GPU-A", 2, 20.0, "cuda-ipc");           /* same configuration: replaces */
    CHECK(count(a, "SELECT count(*) FROM multi_gpu") == 2);
    CHECK(count(a, "SELECT exchange = 'unknown' FROM multi_gpu WHERE ranks = 1") == 1);
    put_multi(a, "GPU-A", 2, 30.0, "pinned-staging");     /* another way to rank 0: a row of its own */
    CHECK(count(a, "SELECT count(*) FROM multi_gpu WHERE ranks = 2") == 2);
    CHECK(count(a, "SELECT total_ms = 30.0 FROM multi_gpu WHERE exchange = 'pinned-staging'") == 1);
    sql(a, "DELETE FROM multi_gpu WHERE exchange = 'pinned-staging'");
    CHECK(count(a, "SELECT total_ms = 20.0 FROM multi_gpu WHERE ranks = 2") == 1);
    CHECK(count(a, "SELECT n = 17179869184 FROM multi_gpu WHERE ranks = 2") == 1);   /* 2^34 */
    CHECK(count(a, "SELECT filtered = 12345 AND chunks = 8 AND device_cap = 1073741824 FROM multi_gpu "
                   "WHERE ranks = 1") == 1);
    CHECK(count(a, "SELECT verify_ok IS NULL AND link_gbps IS NULL FROM multi_gpu WHERE ranks = 1") == 1);
    CHECK(count(a, "SELECT link_gbps = 52.5 FROM multi_gpu WHERE ranks = 2") == 1);
    put_multi(b, "GPU-B", 2, 18.0, "cuda-ipc");
    dh_store *s;
    dh_store_merge_stats st;
    CHECK_STATUS(dh_store_open(a, 0, &s, err, sizeof err), DRTOPK_OK);
    CHECK_STATUS(dh_store_merge(s, b, &st), DRTOPK_OK);
    CHECK(st.multi_added == 1);
    CHECK_STATUS(dh_store_merge(s, b, &st), DRTOPK_OK);
    CHECK(st.multi_added == 0);
    dh_store_close(s);
    CHECK(count(a, "SELECT count(*) FROM multi_gpu") == 3);
    CHECK(count(a, "SELECT m.total_ms = 18.0 AND m.exchange = 'cuda-ipc' FROM multi_gpu m "
                   "JOIN machines c ON c.id = m.machine_id WHERE c.uuid = 'GPU-B'") == 1);
}

/* Claims let concurrent tuners share a sweep: a config
 * claimed by another live run, or measured, is not this run's; a stored
 * measurement releases its claim; an error is measured again; with --force a
 * config measured by a run still going is not measured twice. */
static void store_claims_share_configs(void)
{
    char path[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    tmp_path(path, "claims.sqlite");
    dh_store *s;
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    dh_store_machine m = { .uuid = "GPU-C", .name = "Claim GPU", .backend = "cuda" };
    int64_t mid, ra, rb;
    CHECK_STATUS(dh_store_put_machine(s, &m, &mid), DRTOPK_OK);
    CHECK_STATUS(dh_store_begin_run(s, mid, "test", "a", "abc", &ra), DRTOPK_OK);
    CHECK_STATUS(dh_store_begin_run(s, mid, "test", "b", "abc", &rb), DRTOPK_OK);
    dh_store_measurement x = meas(16, 8, 1.0), y = meas(64, 8, 2.0);
    int got = -1, found = -1;
    CHECK_STATUS(dh_store_claim(s, mid, ra, "abc", &x.cfg, 0, &got), DRTOPK_OK);
    CHECK(got == 1);
    CHECK_STATUS(dh_store_claim(s, mid, rb, "abc", &x.cfg, 0, &got), DRTOPK_OK);
    CHECK(got == 0);                                    /* a's, and a is running */
    CHECK_STATUS(dh_store_claim(s, mid, ra, "abc", &x.cfg, 0, &got), DRTOPK_OK);
    CHECK(got == 1);                                    /* its own claim again */
    CHECK_STATUS(dh_store_put(s, mid, ra, "abc", &x), DRTOPK_OK);
    CHECK(count(path, "SELECT count(*) FROM claims") == 0);
    CHECK_STATUS(dh_store_claim(s, mid, rb, "abc", &x.cfg, 0, &got), DRTOPK_OK);
    CHECK(got == 0);                                    /* measured */
    CHECK_STATUS(dh_store_claim(s, mid, rb, "abc", &x.cfg, 1, &got), DRTOPK_OK);
    CHECK(got == 0);                                    /* --force: a, still going, measured it */
    CHECK_STATUS(dh_store_end_run(s, ra, "done"), DRTOPK_OK);
    CHECK_STATUS(dh_store_claim(s, mid, rb, "abc", &x.cfg, 1, &got), DRTOPK_OK);
    CHECK(got == 1);                                    /* --force after a ended */
    /* an error is not measured: has() says so and a claim is granted */
    y.status = DRTOPK_MEAS_ERROR;
    snprintf(y.error, sizeof y.error, "out of memory");
    CHECK_STATUS(dh_store_put(s, mid, ra, "abc", &y), DRTOPK_OK);
    CHECK_STATUS(dh_store_has(s, mid, "abc", &y.cfg, &found), DRTOPK_OK);
    CHECK(found == 0);
    CHECK_STATUS(dh_store_claim(s, mid, rb, "abc", &y.cfg, 0, &got), DRTOPK_OK);
    CHECK(got == 1);
    /* b's claim goes to a third run once b is no longer running */
    int64_t rc;
    CHECK_STATUS(dh_store_end_run(s, rb, "failed"), DRTOPK_OK);
    CHECK_STATUS(dh_store_begin_run(s, mid, "test", "c", "abc", &rc), DRTOPK_OK);
    CHECK_STATUS(dh_store_claim(s, mid, rc, "abc", &y.cfg, 0, &got), DRTOPK_OK);
    CHECK(got == 1);
    dh_store_close(s);
    CHECK(count(path, "SELECT count(*) FROM claims c JOIN runs r ON r.id = c.run_id WHERE r.argv = 'c'") == 1);
}

/* Reference runs set DRTOPK_STORE_CLEAN=1: a run at a commit of a modified
 * tree ("-dirty") is refused with the variable named, a clean commit is taken;
 * without the variable a dirty commit is taken (a developer's own runs). */
static void store_refuses_dirty_reference_rows(void)
{
    char path[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    tmp_path(path, "dirty.sqlite");
    dh_store *s;
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    dh_store_machine m = { .uuid = "GPU-D", .name = "Dirty GPU", .backend = "cuda" };
    int64_t mid, rid = 0;
    CHECK_STATUS(dh_store_put_machine(s, &m, &mid), DRTOPK_OK);
    CHECK_STATUS(dh_store_begin_run(s, mid, "test", "a", "abc-dirty", &rid), DRTOPK_OK);
    setenv(DRTOPK_STORE_CLEAN_ENV, "1", 1);
    CHECK_STATUS(dh_store_begin_run(s, mid, "test", "b", "abc-dirty", &rid), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(dh_store_errmsg(s), DRTOPK_STORE_CLEAN_ENV) != NULL);
    CHECK(strstr(dh_store_errmsg(s), "abc-dirty") != NULL);
    CHECK_STATUS(dh_store_begin_run(s, mid, "test", "c", "abc", &rid), DRTOPK_OK);
    unsetenv(DRTOPK_STORE_CLEAN_ENV);
    dh_store_close(s);
    CHECK(count(path, "SELECT count(*) FROM runs WHERE argv = 'b'") == 0);
}

/* A schema_version table that disagrees with the tables is "damaged", named
 * with the fix, and nothing is migrated (it failed half-way before). */
static void store_refuses_damaged_schema(void)
{
    char path[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    dh_store *s;
    tmp_path(path, "damaged.sqlite");
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    dh_store_close(s);
    sql(path, "UPDATE schema_version SET version = 2");
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_ERR_IO);
    CHECKF(strstr(err, path) && strstr(err, "is damaged: schema_version says 2") &&
           strstr(err, "which schema version 2 does not have") && strstr(err, "restore it from a copy"), "%s", err);
    CHECK(count(path, "SELECT version FROM schema_version") == 2);
    char cur[128], missing[64];
    snprintf(cur, sizeof cur, "UPDATE schema_version SET version = %d; DROP TABLE fits", DRTOPK_STORE_SCHEMA_VERSION);
    snprintf(missing, sizeof missing, "of schema version %d is missing", DRTOPK_STORE_SCHEMA_VERSION);
    sql(path, cur);
    CHECK_STATUS(dh_store_open(path, DRTOPK_STORE_READONLY, &s, err, sizeof err), DRTOPK_ERR_IO);
    CHECKF(strstr(err, "column fits.") && strstr(err, missing), "%s", err);
    snprintf(cur, sizeof cur, "INSERT INTO schema_version VALUES (%d)", DRTOPK_STORE_SCHEMA_VERSION);
    sql(path, cur);
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_ERR_IO);
    CHECKF(strstr(err, "schema_version table holds 2 rows, not 1"), "%s", err);
}

#define RACE_ROUNDS 40
#define RACE_PROCS 4

/* Processes that open one new database at the same moment all get it, at the
 * current version (once one exited at once with "database is
 * locked" because the WAL pragma did not wait). */
static void store_concurrent_create(void)
{
    char path[PATH_LEN];
    for (int round = 0; round < RACE_ROUNDS; ++round) {
        tmp_path(path, "race.sqlite");
        int go[2];
        CHECK(pipe(go) == 0);
        pid_t pids[RACE_PROCS];
        for (int i = 0; i < RACE_PROCS; ++i) {
            pids[i] = fork();
            CHECK(pids[i] >= 0);
            if (pids[i] == 0) {
                char c, err[DRTOPK_STORE_ERR_LEN];
                dh_store *s;
                close(go[1]);
                if (read(go[0], &c, 1) < 0) _exit(3);    /* all start when the pipe closes */
                drtopk_status st = dh_store_open(path, 0, &s, err, sizeof err);
                if (st != DRTOPK_OK) {
                    fprintf(stderr, "# child %d: %s\n", i, err);
                    _exit(1);
                }
                int v = dh_store_version(s);
                dh_store_close(s);
                _exit(v == DRTOPK_STORE_SCHEMA_VERSION ? 0 : 2);
            }
        }
        close(go[0]);
        close(go[1]);
        int failed = 0;
        for (int i = 0; i < RACE_PROCS; ++i) {
            int ws = 0;
            CHECK(waitpid(pids[i], &ws, 0) == pids[i]);
            failed += !WIFEXITED(ws) || WEXITSTATUS(ws) != 0;
        }
        CHECKF(failed == 0, "round %d: %d of %d openers failed", round, failed, RACE_PROCS);
        CHECK(count(path, "SELECT count(*) FROM schema_version") == 1);
    }
}

/* Another card of the model borrows the tuning of the machine whose sweep
 * measured onepass and fused, even where an older sweep stored more cells:
 * the older table never decided against the plans the size rules choose. */
static void store_model_tuning_prefers_contender_sweeps(void)
{
    char path[PATH_LEN], err[DRTOPK_STORE_ERR_LEN];
    tmp_path(path, "model.sqlite");
    fill(path, "GPU-old", "Model X", 3.0);
    fill(path, "GPU-new", "Model X", 5.0);
    dh_store *s;
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    dh_store_choice many[2] = {
        { .log2n_min = 20, .log2n_max = 21, .log2k_min = 0, .log2k_max = 9, .algorithm = "dr-radix", .beta = 2,
          .rule4_const = 3.0, .status = DRTOPK_CHOICE_KEPT },
        { .log2n_min = 22, .log2n_max = 23, .log2k_min = 0, .log2k_max = 9, .algorithm = "dr-radix", .beta = 2,
          .rule4_const = 3.0, .status = DRTOPK_CHOICE_KEPT } };
    dh_store_choice one = { .log2n_min = 24, .log2n_max = 25, .log2k_min = 0, .log2k_max = 9,
                                .algorithm = "dr-radix", .beta = 1, .rule4_const = 5.0,
                                .status = DRTOPK_CHOICE_KEPT };
    CHECK_STATUS(dh_store_put_choices(s, 1, "abc", "u32", many, 2), DRTOPK_OK);
    CHECK_STATUS(dh_store_put_choices(s, 2, "abc", "u32", &one, 1), DRTOPK_OK);
    dh_store_close(s);
    /* before the contenders are measured anywhere: the machine with more cells */
    dh_store_tuning t;
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-other", "Model X", &t, err, sizeof err), DRTOPK_OK);
    CHECKF(!strcmp(t.machine_uuid, "GPU-old") || !strcmp(t.machine_uuid, "GPU-new"), "%s", t.machine_uuid);
    dh_store_tuning_free(&t);
    CHECK_STATUS(dh_store_open(path, 0, &s, err, sizeof err), DRTOPK_OK);
    dh_store_measurement fused = meas(16, 0, 0.5), onepass = meas(16, 0, 0.5);
    snprintf(fused.cfg.algorithm, sizeof fused.cfg.algorithm, "fused");
    snprintf(onepass.cfg.algorithm, sizeof onepass.cfg.algorithm, "onepass");
    fused.cfg.first_algo[0] = onepass.cfg.first_algo[0] = '\0';
    CHECK_STATUS(dh_store_put(s, 2, 2, "abc", &fused), DRTOPK_OK);
    CHECK_STATUS(dh_store_put(s, 2, 2, "abc", &onepass), DRTOPK_OK);
    /* one contender on the older machine is not enough */
    CHECK_STATUS(dh_store_put(s, 1, 1, "abc", &fused), DRTOPK_OK);
    dh_store_close(s);
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-other", "Model X", &t, err, sizeof err), DRTOPK_OK);
    CHECKF(!strcmp(t.machine_uuid, "GPU-new"), "%s", t.machine_uuid);
    CHECK(t.table.algos_measured & (UINT32_C(1) << DRTOPK_ALGO_ONEPASS));
    dh_store_tuning_free(&t);
    /* a card's own tuning still comes first */
    CHECK_STATUS(dh_store_load_tuning(path, "GPU-old", "Model X", &t, err, sizeof err), DRTOPK_OK);
    CHECKF(!strcmp(t.machine_uuid, "GPU-old"), "%s", t.machine_uuid);
    dh_store_tuning_free(&t);
}

__attribute__((constructor)) static void register_store_tests(void)
{
    test_register("store_migrates_older_schema", store_migrates_older_schema);
    test_register("store_rule4_columns", store_rule4_columns);
    test_register("store_fit_alphas", store_fit_alphas);
    test_register("store_refuses_newer_and_foreign_files", store_refuses_newer_and_foreign_files);
    test_register("store_round_trip_and_lookup", store_round_trip_and_lookup);
    test_register("store_catch_all_yields_to_onepass", store_catch_all_yields_to_onepass);
    test_register("store_checked_tuning_keeps_checked_cells", store_checked_tuning_keeps_checked_cells);
    test_register("store_automatic_rows", store_automatic_rows);
    test_register("store_model_tuning_prefers_contender_sweeps", store_model_tuning_prefers_contender_sweeps);
    test_register("store_merge_is_idempotent", store_merge_is_idempotent);
    test_register("store_multi_rows", store_multi_rows);
    test_register("store_concurrent_create", store_concurrent_create);
    test_register("store_claims_share_configs", store_claims_share_configs);
    test_register("store_refuses_dirty_reference_rows", store_refuses_dirty_reference_rows);
    test_register("store_refuses_damaged_schema", store_refuses_damaged_schema);
}
