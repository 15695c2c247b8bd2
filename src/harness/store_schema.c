/*
 * store_schema.c -- the results store's schema (db/schema.sql, embedded at
 * build time as build/schema_sql.h): reading a database's version, checking
 * its tables and columns against what the migrations up to that version make,
 * applying the "-- @migration N" blocks a database lacks, and the paper's
 * Rule 4 plan (section 5.2) beside each measurement: the SQL functions that
 * give it and its derivation for rows stored without it (migration 11).
 */
#include "store_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_sql.h"

#define MIGRATION_MARK "-- @migration "
#define RULE4_COLUMNS_SINCE_VERSION 11  /* measurements.rule4_alpha and rule4_flags */
#define FIT_ALPHAS_SINCE_VERSION 12     /* fit_alphas: Rule 4's alpha for each fitted const */

/* Schema version: 0 for an empty file; an error for a foreign database and
 * for a schema_version table that does not hold exactly one row. */
static drtopk_status read_version(dh_store *s, const char *path)
{
    int has = 0, objects = 0, rows = 0;
    int rc = store_single_int(s->db, "SELECT count(*) FROM sqlite_master", &objects);
    if (rc == SQLITE_NOTADB) {
        store_set_err(s->err, sizeof s->err, "%s is not a SQLite database", path);
        return DRTOPK_ERR_IO;
    }
    if (rc == SQLITE_OK)
        rc = store_table_exists(s->db, "schema_version", &has);
    if ((rc & 0xff) == SQLITE_READONLY) {   /* WAL cannot make its -shm file */
        store_set_err(s->err, sizeof s->err,
                      "database %s is read-only (no write permission on it or its directory)", path);
        return DRTOPK_ERR_IO;
    }
    if (rc != SQLITE_OK)
        return store_fail(s, path);
    if (!has) {
        if (objects > 0) {
            store_set_err(s->err, sizeof s->err,
                          "%s is a SQLite database but not a drtopk one (no schema_version table)", path);
            return DRTOPK_ERR_IO;
        }
        s->version = 0;
        return DRTOPK_OK;
    }
    if (store_single_int(s->db, "SELECT count(*) FROM schema_version", &rows) != SQLITE_OK ||
        (rows == 1 && store_single_int(s->db, "SELECT version FROM schema_version", &s->version) != SQLITE_OK))
        return store_fail(s, "reading schema_version");
    if (rows != 1) {
        store_set_err(s->err, sizeof s->err,
                      "database %s is damaged: its schema_version table holds %d rows, not 1; restore it "
                      "from a copy, or move it away and let the tuner create a new one", path, rows);
        return DRTOPK_ERR_IO;
    }
    return DRTOPK_OK;
}

/* The "-- @migration N" blocks in order: *len gets the block's length, the
 * return its text (NULL after the last). */
static const char *next_block(const char *from, int *n, size_t *len)
{
    const char *p = strstr(from, MIGRATION_MARK);
    if (!p)
        return NULL;
    const char *next = strstr(p + 1, MIGRATION_MARK);
    *n = atoi(p + strlen(MIGRATION_MARK));
    *len = next ? (size_t)(next - p) : strlen(p);
    return p;
}

/* Execute the first len bytes of block on db. */
static int exec_block(sqlite3 *db, const char *block, size_t len, char **msg)
{
    char *text = malloc(len + 1);
    if (!text)
        return SQLITE_NOMEM;
    memcpy(text, block, len);
    text[len] = 0;
    int rc = sqlite3_exec(db, text, NULL, NULL, msg);
    free(text);
    return rc;
}

#define SCHEMA_COLUMNS_SQL                                                             \
    "SELECT m.name || '.' || c.name FROM sqlite_master m JOIN pragma_table_info(m.name) c " \
    "WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY 1"

/* Is the database what its schema_version says?  Its tables and columns are
 * compared with those the migrations up to that version make (applied to an
 * empty in-memory database): a damaged version table would otherwise make
 * the next migration fail half-way. */
static drtopk_status check_schema(dh_store *s, const char *path)
{
    if (s->version == 0 || s->version > DRTOPK_STORE_SCHEMA_VERSION)
        return DRTOPK_OK;       /* empty (read_version checked) or refused as newer */
    sqlite3 *ref = NULL;
    sqlite3_stmt *want = NULL, *have = NULL;
    char *msg = NULL;
    int n = 0, rc = sqlite3_open(":memory:", &ref);
    size_t len = 0;
    for (const char *b = drtopk_schema_sql; rc == SQLITE_OK && (b = next_block(b, &n, &len)) && n <= s->version;
         b += len)
        rc = exec_block(ref, b, len, &msg);
    sqlite3_free(msg);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(ref, SCHEMA_COLUMNS_SQL, -1, &want, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(s->db, SCHEMA_COLUMNS_SQL, -1, &have, NULL);
    char what[DRTOPK_STORE_ERR_LEN / 2] = "";
    int w = rc == SQLITE_OK ? sqlite3_step(want) : SQLITE_ERROR;
    int h = rc == SQLITE_OK ? sqlite3_step(have) : SQLITE_ERROR;
    while (w == SQLITE_ROW || h == SQLITE_ROW) {
        const char *wc = w == SQLITE_ROW ? (const char *)sqlite3_column_text(want, 0) : NULL;
        const char *hc = h == SQLITE_ROW ? (const char *)sqlite3_column_text(have, 0) : NULL;
        int cmp = !wc ? 1 : !hc ? -1 : strcmp(wc, hc);
        if (cmp < 0) {
            snprintf(what, sizeof what, "column %s of schema version %d is missing", wc, s->version);
            break;
        }
        if (cmp > 0) {
            snprintf(what, sizeof what, "column %s exists, which schema version %d does not have", hc,
                     s->version);
            break;
        }
        w = sqlite3_step(want);
        h = sqlite3_step(have);
    }
    int failed = !*what && ((w != SQLITE_ROW && w != SQLITE_DONE) || (h != SQLITE_ROW && h != SQLITE_DONE));
    if (failed)
        store_set_err(s->err, sizeof s->err, "checking the schema of %s: %s", path,
                      h != SQLITE_DONE ? sqlite3_errmsg(s->db) : sqlite3_errmsg(ref));
    sqlite3_finalize(want);
    sqlite3_finalize(have);
    sqlite3_close(ref);
    if (*what)
        store_set_err(s->err, sizeof s->err,
                      "database %s is damaged: schema_version says %d, but %s; restore it from a copy, or "
                      "move it away and let the tuner create a new one", path, s->version, what);
    return *what || failed ? DRTOPK_ERR_IO : DRTOPK_OK;
}

/* The version and the check of the schema against it, from one snapshot
 * (another process may be migrating). */
drtopk_status store_read_schema(dh_store *s, const char *path)
{
    if (sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
        s->open_rc = sqlite3_errcode(s->db);
        return store_fail(s, path);
    }
    drtopk_status r = read_version(s, path);
    if (r == DRTOPK_OK)
        r = check_schema(s, path);
    s->open_rc = r == DRTOPK_OK ? SQLITE_OK : sqlite3_errcode(s->db);
    sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    return r;
}

/* Apply the "-- @migration N" blocks with version < N <= max_version, each
 * in its own transaction that re-reads the version (another process may have
 * migrated meanwhile). */
drtopk_status store_migrate(dh_store *s, int max_version)
{
    int n = 0;
    size_t len = 0;
    for (const char *p = drtopk_schema_sql; (p = next_block(p, &n, &len)) && n <= max_version; p += len) {
        if (n <= s->version)
            continue;
        char *msg = NULL;
        int has = 0, current = 0;
        int rc = sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, &msg);
        if (rc == SQLITE_OK)
            rc = store_table_exists(s->db, "schema_version", &has);
        if (rc == SQLITE_OK && has)
            rc = store_single_int(s->db, "SELECT max(version) FROM schema_version", &current);
        if (rc == SQLITE_OK && current < n) {
            char upd[64];
            snprintf(upd, sizeof upd, "UPDATE schema_version SET version = %d", n);
            rc = exec_block(s->db, p, len, &msg);
            if (rc == SQLITE_OK)
                rc = sqlite3_exec(s->db, upd, NULL, NULL, &msg);
        }
        if (rc == SQLITE_OK)
            rc = sqlite3_exec(s->db, "COMMIT", NULL, NULL, &msg);
        if (rc != SQLITE_OK) {
            store_set_err(s->err, sizeof s->err, "migration to schema version %d failed: %s", n,
                          msg ? msg : sqlite3_errmsg(s->db));
            sqlite3_free(msg);
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return DRTOPK_ERR_IO;
        }
        s->version = n > current ? n : current;
    }
    return DRTOPK_OK;
}

/* ---- the paper's plan beside each row (schema migration 11) --------------- */

/* measurements.rule4_alpha: the alpha Rule 4 gives at (n, k) with the
 * paper's const (paper section 5.2), as the library computes it. */
int store_paper_alpha(uint64_t n, uint64_t k)
{
    return drtopk_rule4_alpha(n, k, DRTOPK_RULE4_CONST_DEFAULT);
}

/* measurements.rule4_flags: the flags drtopk_plan_rule4 gives the pipeline
 * where Rule 4 lands on `alpha` at (n, k), planned by the library at the
 * const that gives alpha there (Rule 4 inverted); 0 for a standalone row
 * (alpha 0), a size no plan takes, or an alpha Rule 4 never gives at (n, k)
 * (clamped away: above ceil(log2 n)). */
unsigned store_paper_flags(uint64_t n, uint64_t k, int alpha)
{
    if (alpha < DRTOPK_ALPHA_MIN || n == 0 || k == 0 || k > n)
        return 0;
    const drtopk_problem p = { .backend = DRTOPK_BACKEND_CPU, .dtype = DRTOPK_U32, .order = DRTOPK_LARGEST,
                               .n = n, .k = k };
    const double c = 2.0 * alpha - log2((double)n) + log2((double)k);
    drtopk_plan plan;
    if (drtopk_plan_rule4(&plan, &p, c) != DRTOPK_OK || plan.alpha != alpha)
        return 0;
    return plan.flags;
}

/* drtopk_rule4_alpha(n, k) and dh_rule4_flags(n, k, alpha) in SQL: the
 * store's derivation of rows that lack the columns (store_derive_rule4). */
void store_sql_rule4_alpha(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    sqlite3_result_int(ctx, store_paper_alpha((uint64_t)sqlite3_value_int64(argv[0]),
                                              (uint64_t)sqlite3_value_int64(argv[1])));
}

/* drtopk_rule4_alpha(n, k, const) in SQL: Rule 4's alpha for a fitted const
 * (store_derive_fit_alphas). */
void store_sql_rule4_alpha_const(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    sqlite3_result_int(ctx, drtopk_rule4_alpha((uint64_t)sqlite3_value_int64(argv[0]),
                                               (uint64_t)sqlite3_value_int64(argv[1]), sqlite3_value_double(argv[2])));
}

void store_sql_rule4_flags(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    sqlite3_result_int64(ctx, store_paper_flags((uint64_t)sqlite3_value_int64(argv[0]),
                                                (uint64_t)sqlite3_value_int64(argv[1]), sqlite3_value_int(argv[2])));
}

/* Give the rows with id > after_id that lack them (rule4_alpha 0, db/schema.sql
 * migration 11) their rule4_alpha and rule4_flags; writes only when such rows
 * exist.  after_id 0 looks at every row (a scan: an opening for writing); a
 * merge passes the largest id before its rows, so that it reads only those. */
drtopk_status store_derive_rule4(dh_store *s, int64_t after_id)
{
    if (s->version < RULE4_COLUMNS_SINCE_VERSION)
        return DRTOPK_OK;       /* dh_store_open_version below it: no such columns */
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT EXISTS (SELECT 1 FROM measurements WHERE id > ?1 AND rule4_alpha = 0)", &st) !=
        DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, after_id);
    if (sqlite3_step(st) != SQLITE_ROW) {
        const drtopk_status r = store_fail(s, "looking for measurements without Rule 4's plan");
        sqlite3_finalize(st);
        return r;
    }
    const int missing = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (!missing)
        return DRTOPK_OK;
    if (store_prepare(s, "UPDATE measurements SET rule4_alpha = drtopk_rule4_alpha(n, k), "
                         "rule4_flags = dh_rule4_flags(n, k, alpha) WHERE id > ?1 AND rule4_alpha = 0", &st) !=
        DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, after_id);
    return store_step_done(s, st, "deriving Rule 4's plan of the measurements", NULL);
}

/* fit_alphas (db/schema.sql migration 12) whole again for the machines whose ids
 * the SQL `machines` selects (NULL: every machine): the rows of a fit whose
 * const_time changed (or that is gone) are dropped, and every fit gets Rule 4's
 * alpha at each (n, k) its machine measured in its dtype, from the library
 * (drtopk_rule4_alpha), so that no query recomputes the rule.  Other machines'
 * rows are left as they are: a caller that scopes it changed only the fits and
 * measurements of the machines it names. */
drtopk_status store_derive_fit_alphas(dh_store *s, const char *machines)
{
    enum { SQL_LEN = 1024, SCOPE_LEN = 256 };
    char del[SQL_LEN], ins[SQL_LEN], scope[SCOPE_LEN] = "";
    if (s->version < FIT_ALPHAS_SINCE_VERSION)
        return DRTOPK_OK;       /* dh_store_open_version below it: no such table */
    if (machines && snprintf(scope, sizeof scope, " AND machine_id IN (%s)", machines) >= (int)sizeof scope) {
        store_set_err(s->err, sizeof s->err, "deriving fit_alphas: the machines' query does not fit");
        return DRTOPK_ERR_IO;
    }
    snprintf(del, sizeof del, "DELETE FROM fit_alphas WHERE NOT EXISTS (SELECT 1 FROM fits f "
                              "WHERE f.machine_id = fit_alphas.machine_id AND f.dtype = fit_alphas.dtype "
                              "AND f.algorithm = fit_alphas.algorithm AND f.beta = fit_alphas.beta "
                              "AND f.const_time = fit_alphas.const_time)%s", scope);
    snprintf(ins, sizeof ins, "INSERT OR IGNORE INTO fit_alphas (machine_id, dtype, algorithm, beta, n, k, const_time, "
                              "alpha) SELECT f.machine_id, f.dtype, f.algorithm, f.beta, d.n, d.k, f.const_time, "
                              "drtopk_rule4_alpha(d.n, d.k, f.const_time) FROM fits f "
                              "JOIN (SELECT DISTINCT machine_id, dtype, n, k FROM measurements "
                              "WHERE k BETWEEN 1 AND n%s) d ON d.machine_id = f.machine_id AND d.dtype = f.dtype",
             scope);
    if (store_exec(s, del) != DRTOPK_OK || store_exec(s, ins) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    return DRTOPK_OK;
}
