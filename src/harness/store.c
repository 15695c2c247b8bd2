/*
 * store.c -- the SQLite results store (issue 5; schema in db/schema.sql, the
 * measurement rules of DESIGN.md).  One small module: open (WAL, busy timeout,
 * foreign keys), versioned migrations embedded from db/schema.sql, inserts for
 * the tuner and for the modern peers' imported measurements (issue 4 item 6),
 * loading a machine's tuning (the fitted Rule 4 const, paper section 5.2, and
 * the plan choices) as the table programs pass to drtopk_plan_auto, and
 * merging of databases.
 */
#include "store.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sqlite3.h>

#include "schema_sql.h"

#define BUSY_TIMEOUT_MS 10000           /* concurrent tuners wait, not fail      */
#define MIGRATION_MARK "-- @migration "
#define PLAN_AUTO_ALGORITHM "dr-radix"  /* drtopk_plan_auto's default plan ...   */
#define PLAN_AUTO_BETA 2                /* ... and its beta (drtopk.h)           */
#define RUN_UUID_BYTES 16
#define JSON_NUM_MAX 32                 /* one "%.6g," in the reps array         */

struct drtopk_store {
    sqlite3 *db;
    int version;
    char err[DRTOPK_STORE_ERR_LEN];
};

static void set_err(char *err, size_t len, const char *fmt, ...)
{
    if (!err || !len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

/* Record sqlite's message for the failed step `what` and return IO. */
static drtopk_status fail(drtopk_store *s, const char *what)
{
    set_err(s->err, sizeof s->err, "%s: %s", what, sqlite3_errmsg(s->db));
    return DRTOPK_ERR_IO;
}

const char *drtopk_store_errmsg(const drtopk_store *s) { return s ? s->err : "no store"; }
int drtopk_store_version(const drtopk_store *s) { return s->version; }

const char *drtopk_store_default_path(void)
{
    const char *e = getenv("DRTOPK_DB");
    return (e && *e) ? e : DRTOPK_STORE_DEFAULT_PATH;
}

/* ---- open and migrate --------------------------------------------------- */

/* Explain up front what sqlite would report obscurely: missing directory,
 * a directory given as the file, a missing file where one is required. */
static drtopk_status check_path(const char *path, unsigned flags, char *err, size_t err_len)
{
    if (!path || !*path) {
        set_err(err, err_len, "empty database path");
        return DRTOPK_ERR_INVALID_ARGUMENT;
    }
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            set_err(err, err_len, "%s is a directory, not a database file", path);
            return DRTOPK_ERR_IO;
        }
        return DRTOPK_OK;
    }
    if (errno != ENOENT) {
        set_err(err, err_len, "cannot access %s: %s", path, strerror(errno));
        return DRTOPK_ERR_IO;
    }
    if (flags & (DRTOPK_STORE_READONLY | DRTOPK_STORE_NO_CREATE)) {
        set_err(err, err_len, "database %s does not exist", path);
        return DRTOPK_ERR_IO;
    }
    const char *slash = strrchr(path, '/');
    if (slash && slash != path) {
        char dir[4096];
        size_t len = (size_t)(slash - path);
        if (len >= sizeof dir) {
            set_err(err, err_len, "database path too long: %s", path);
            return DRTOPK_ERR_IO;
        }
        memcpy(dir, path, len);
        dir[len] = 0;
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            set_err(err, err_len, "cannot create database %s: directory %s does not exist",
                    path, dir);
            return DRTOPK_ERR_IO;
        }
    }
    return DRTOPK_OK;
}

static int table_exists(sqlite3 *db, const char *name, int *exists)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?",
                                -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *exists = sqlite3_column_int(st, 0) > 0;
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

static int single_int(sqlite3 *db, const char *sql, int *out)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int(st, 0);
        rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        rc = SQLITE_ERROR;
    }
    sqlite3_finalize(st);
    return rc;
}

/* Schema version: 0 for an empty file; an error for a foreign database. */
static drtopk_status read_version(drtopk_store *s, const char *path)
{
    int has = 0, objects = 0;
    int rc = single_int(s->db, "SELECT count(*) FROM sqlite_master", &objects);
    if (rc == SQLITE_NOTADB) {
        set_err(s->err, sizeof s->err, "%s is not a SQLite database", path);
        return DRTOPK_ERR_IO;
    }
    if (rc == SQLITE_OK)
        rc = table_exists(s->db, "schema_version", &has);
    if ((rc & 0xff) == SQLITE_READONLY) {   /* WAL cannot make its -shm file */
        set_err(s->err, sizeof s->err,
                "database %s is read-only (no write permission on it or its directory)", path);
        return DRTOPK_ERR_IO;
    }
    if (rc != SQLITE_OK)
        return fail(s, path);
    if (!has) {
        if (objects > 0) {
            set_err(s->err, sizeof s->err,
                    "%s is a SQLite database but not a drtopk one (no schema_version table)", path);
            return DRTOPK_ERR_IO;
        }
        s->version = 0;
        return DRTOPK_OK;
    }
    if (single_int(s->db, "SELECT max(version) FROM schema_version", &s->version) != SQLITE_OK)
        return fail(s, "reading schema_version");
    return DRTOPK_OK;
}

/* Apply the "-- @migration N" blocks with version < N <= max_version, each
 * in its own transaction that re-reads the version (another process may have
 * migrated meanwhile). */
static drtopk_status migrate(drtopk_store *s, int max_version)
{
    const char *p = strstr(drtopk_schema_sql, MIGRATION_MARK);
    while (p) {
        int n = atoi(p + strlen(MIGRATION_MARK));
        const char *next = strstr(p + 1, MIGRATION_MARK);
        size_t len = next ? (size_t)(next - p) : strlen(p);
        if (n > max_version)
            break;
        if (n > s->version) {
            char *block = malloc(len + 1);
            if (!block)
                return DRTOPK_ERR_OUT_OF_MEMORY;
            memcpy(block, p, len);
            block[len] = 0;
            char *msg = NULL;
            int has = 0, current = 0;
            int rc = sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, &msg);
            if (rc == SQLITE_OK)
                rc = table_exists(s->db, "schema_version", &has);
            if (rc == SQLITE_OK && has)
                rc = single_int(s->db, "SELECT max(version) FROM schema_version", &current);
            if (rc == SQLITE_OK && current < n) {
                char upd[64];
                snprintf(upd, sizeof upd, "UPDATE schema_version SET version = %d", n);
                rc = sqlite3_exec(s->db, block, NULL, NULL, &msg);
                if (rc == SQLITE_OK)
                    rc = sqlite3_exec(s->db, upd, NULL, NULL, &msg);
            }
            if (rc == SQLITE_OK)
                rc = sqlite3_exec(s->db, "COMMIT", NULL, NULL, &msg);
            free(block);
            if (rc != SQLITE_OK) {
                set_err(s->err, sizeof s->err, "migration to schema version %d failed: %s", n,
                        msg ? msg : sqlite3_errmsg(s->db));
                sqlite3_free(msg);
                sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
                return DRTOPK_ERR_IO;
            }
            s->version = n > current ? n : current;
        }
        p = next;
    }
    return DRTOPK_OK;
}

drtopk_status drtopk_store_open_version(const char *path, unsigned flags, int max_version,
                                        drtopk_store **out, char *err, size_t err_len)
{
    if (!out)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    drtopk_status rs = check_path(path, flags, err, err_len);
    if (rs != DRTOPK_OK)
        return rs;
    drtopk_store *s = calloc(1, sizeof *s);
    if (!s)
        return DRTOPK_ERR_OUT_OF_MEMORY;
    int readonly = (flags & DRTOPK_STORE_READONLY) != 0;
    int oflags = readonly ? SQLITE_OPEN_READONLY
                          : SQLITE_OPEN_READWRITE | ((flags & DRTOPK_STORE_NO_CREATE) ? 0 : SQLITE_OPEN_CREATE);
    rs = DRTOPK_ERR_IO;
    if (sqlite3_open_v2(path, &s->db, oflags, NULL) != SQLITE_OK) {
        set_err(s->err, sizeof s->err, "cannot open database %s: %s", path,
                s->db ? sqlite3_errmsg(s->db) : "out of memory");
        goto bad;
    }
    sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
    if (read_version(s, path) != DRTOPK_OK)
        goto bad;
    if (s->version > DRTOPK_STORE_SCHEMA_VERSION) {
        set_err(s->err, sizeof s->err,
                "database %s has schema version %d, newer than this build's %d: "
                "use a newer drtopk", path, s->version, DRTOPK_STORE_SCHEMA_VERSION);
        goto bad;
    }
    if (!readonly && sqlite3_db_readonly(s->db, "main") == 1) {
        set_err(s->err, sizeof s->err, "database %s is read-only (no write permission)", path);
        goto bad;
    }
    if (sqlite3_exec(s->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK) {
        fail(s, "enabling foreign keys");
        goto bad;
    }
    if (!readonly) {
        /* WAL: readers never block the tuner; NORMAL sync keeps every committed
         * step across a crash of the process. */
        sqlite3_stmt *st;
        int ok = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st, NULL) == SQLITE_OK;
        ok = ok && sqlite3_step(st) == SQLITE_ROW &&
             strcmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
        sqlite3_finalize(st);
        if (!ok || sqlite3_exec(s->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL) != SQLITE_OK) {
            if (!ok && sqlite3_errcode(s->db) == SQLITE_OK)
                set_err(s->err, sizeof s->err, "database %s: cannot switch to WAL mode", path);
            else
                fail(s, path);
            goto bad;
        }
        if (migrate(s, max_version) != DRTOPK_OK)
            goto bad;
    } else if (s->version < DRTOPK_STORE_SCHEMA_VERSION) {
        set_err(s->err, sizeof s->err,
                "database %s has schema version %d, older than %d; open it once for writing "
                "(e.g. with the tuner) to migrate it", path, s->version, DRTOPK_STORE_SCHEMA_VERSION);
        goto bad;
    }
    *out = s;
    return DRTOPK_OK;
bad:
    set_err(err, err_len, "%s", s->err);
    sqlite3_close(s->db);
    free(s);
    return rs;
}

drtopk_status drtopk_store_open(const char *path, unsigned flags, drtopk_store **out,
                                char *err, size_t err_len)
{
    return drtopk_store_open_version(path, flags, DRTOPK_STORE_SCHEMA_VERSION, out, err, err_len);
}

void drtopk_store_close(drtopk_store *s)
{
    if (!s)
        return;
    sqlite3_close(s->db);
    free(s);
}

static drtopk_status exec(drtopk_store *s, const char *sql)
{
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? DRTOPK_OK : fail(s, sql);
}

drtopk_status drtopk_store_begin(drtopk_store *s) { return exec(s, "BEGIN IMMEDIATE"); }
drtopk_status drtopk_store_commit(drtopk_store *s) { return exec(s, "COMMIT"); }
drtopk_status drtopk_store_rollback(drtopk_store *s) { return exec(s, "ROLLBACK"); }

/* ---- inserts -------------------------------------------------------------- */

static void bind_pos_int(sqlite3_stmt *st, int i, int64_t v)
{
    if (v > 0)
        sqlite3_bind_int64(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

static void bind_pos_double(sqlite3_stmt *st, int i, double v)
{
    if (v > 0)
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

/* Step a statement that returns no rows (or the one id row), then finalize. */
static drtopk_status step_done(drtopk_store *s, sqlite3_stmt *st, const char *what, int64_t *id)
{
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW && id)
        *id = sqlite3_column_int64(st, 0);
    drtopk_status r = (rc == SQLITE_DONE || rc == SQLITE_ROW) ? DRTOPK_OK : fail(s, what);
    sqlite3_finalize(st);
    return r;
}

static drtopk_status prepare(drtopk_store *s, const char *sql, sqlite3_stmt **st)
{
    return sqlite3_prepare_v2(s->db, sql, -1, st, NULL) == SQLITE_OK ? DRTOPK_OK : fail(s, sql);
}

drtopk_status drtopk_store_put_machine(drtopk_store *s, const drtopk_store_machine *m, int64_t *id)
{
    static const char sql[] =
        "INSERT INTO machines (uuid, name, backend, cc_major, cc_minor, sm_count, mem_bytes, "
        "l2_bytes, read_gbps, driver_version, runtime_version, c_global, c_shfl) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) "
        "ON CONFLICT (uuid) DO UPDATE SET name = excluded.name, backend = excluded.backend, "
        "cc_major = coalesce(excluded.cc_major, cc_major), cc_minor = coalesce(excluded.cc_minor, cc_minor), "
        "sm_count = coalesce(excluded.sm_count, sm_count), mem_bytes = coalesce(excluded.mem_bytes, mem_bytes), "
        "l2_bytes = coalesce(excluded.l2_bytes, l2_bytes), read_gbps = coalesce(excluded.read_gbps, read_gbps), "
        "driver_version = coalesce(excluded.driver_version, driver_version), "
        "runtime_version = coalesce(excluded.runtime_version, runtime_version), "
        "c_global = coalesce(excluded.c_global, c_global), c_shfl = coalesce(excluded.c_shfl, c_shfl) "
        "RETURNING id";
    sqlite3_stmt *st;
    if (prepare(s, sql, &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_text(st, 1, m->uuid, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, m->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, m->backend ? m->backend : "cpu", -1, SQLITE_TRANSIENT);
    bind_pos_int(st, 4, m->cc_major);
    if (m->cc_major > 0)            /* a minor of 0 is real once the major is known */
        sqlite3_bind_int(st, 5, m->cc_minor);
    bind_pos_int(st, 6, m->sm_count);
    bind_pos_int(st, 7, (int64_t)m->mem_bytes);
    bind_pos_int(st, 8, (int64_t)m->l2_bytes);
    bind_pos_double(st, 9, m->read_gbps);
    bind_pos_int(st, 10, m->driver_version);
    bind_pos_int(st, 11, m->runtime_version);
    bind_pos_double(st, 12, m->c_global);
    bind_pos_double(st, 13, m->c_shfl);
    return step_done(s, st, "storing the machine", id);
}

void drtopk_store_cpu_machine(drtopk_store_machine *m)
{
    memset(m, 0, sizeof *m);
    char host[128] = "unknown";
    gethostname(host, sizeof host - 1);
    snprintf(m->uuid, sizeof m->uuid, "cpu:%s", host);
    snprintf(m->name, sizeof m->name, "CPU");
    m->backend = "cpu";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            char *colon = strchr(line, ':');
            if (strncmp(line, "model name", strlen("model name")) == 0 && colon) {
                colon += 1 + (colon[1] == ' ');
                colon[strcspn(colon, "\n")] = 0;
                snprintf(m->name, sizeof m->name, "%s", colon);
                break;
            }
        }
        fclose(f);
    }
}

drtopk_status drtopk_store_begin_run(drtopk_store *s, int64_t machine_id, const char *program,
                                     const char *argv, const char *git_commit, int64_t *run_id)
{
    unsigned char raw[RUN_UUID_BYTES];
    char hex[2 * RUN_UUID_BYTES + 1];
    sqlite3_randomness(sizeof raw, raw);
    for (int i = 0; i < RUN_UUID_BYTES; ++i)
        snprintf(hex + 2 * i, 3, "%02x", raw[i]);
    sqlite3_stmt *st;
    if (prepare(s, "INSERT INTO runs (run_uuid, machine_id, program, argv, git_commit, started_at, "
                   "status) VALUES (?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'running') "
                   "RETURNING id", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_text(st, 1, hex, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, machine_id);
    sqlite3_bind_text(st, 3, program, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, argv, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, git_commit, -1, SQLITE_TRANSIENT);
    return step_done(s, st, "starting the run", run_id);
}

drtopk_status drtopk_store_end_run(drtopk_store *s, int64_t run_id, const char *status)
{
    sqlite3_stmt *st;
    if (prepare(s, "UPDATE runs SET ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), status = ? "
                   "WHERE id = ?", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_text(st, 1, status, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, run_id);
    return step_done(s, st, "ending the run", NULL);
}

#define KEY_WHERE                                                                      \
    "machine_id = ?1 AND git_commit = ?2 AND algorithm = ?3 AND first_algo = ?4 AND "  \
    "second_algo = ?5 AND dtype = ?6 AND dist = ?7 AND seed = ?8 AND n = ?9 AND k = ?10 " \
    "AND alpha = ?11 AND beta = ?12 AND flags = ?13 AND sort_order = ?14"

/* Binds ?1..?14 in the order of KEY_WHERE and of the INSERT below. */
static void bind_key(sqlite3_stmt *st, int64_t machine_id, const char *commit,
                     const drtopk_store_config *c)
{
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_text(st, 2, commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, c->algorithm, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, c->first_algo, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, c->second_algo, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 6, c->dtype, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 7, c->dist, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 8, (int64_t)c->seed);
    sqlite3_bind_int64(st, 9, (int64_t)c->n);
    sqlite3_bind_int64(st, 10, (int64_t)c->k);
    sqlite3_bind_int(st, 11, c->alpha);
    sqlite3_bind_int(st, 12, c->beta);
    sqlite3_bind_int64(st, 13, c->flags);
    sqlite3_bind_text(st, 14, c->order, -1, SQLITE_TRANSIENT);
}

drtopk_status drtopk_store_has(drtopk_store *s, int64_t machine_id, const char *git_commit,
                               const drtopk_store_config *c, int *found)
{
    sqlite3_stmt *st;
    if (prepare(s, "SELECT count(*) FROM measurements WHERE " KEY_WHERE, &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    bind_key(st, machine_id, git_commit, c);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *found = sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? DRTOPK_OK : fail(s, "looking up a measurement");
}

static const char *meas_status_name(drtopk_meas_status m)
{
    return m == DRTOPK_MEAS_OK ? "ok" : m == DRTOPK_MEAS_UNSUPPORTED ? "unsupported" : "error";
}

drtopk_status drtopk_store_put(drtopk_store *s, int64_t machine_id, int64_t run_id,
                               const char *git_commit, const drtopk_store_measurement *m)
{
    static const char sql[] =
        "INSERT OR REPLACE INTO measurements (machine_id, git_commit, algorithm, first_algo, "
        "second_algo, dtype, dist, seed, n, k, alpha, beta, flags, sort_order, run_id, status, "
        "error, reps, median_ms, min_ms, max_ms, reps_ms, ms_delegate, ms_first, ms_concat, "
        "ms_second, delegate_len, first_selected, concat_len, scanned_subranges, verified, "
        "verify_ok, verify_error, measured_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
        "?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, "
        "?28, ?29, ?30, ?31, ?32, ?33, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))";
    sqlite3_stmt *st;
    if (prepare(s, sql, &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    bind_key(st, machine_id, git_commit, &m->cfg);
    sqlite3_bind_int64(st, 15, run_id);
    sqlite3_bind_text(st, 16, meas_status_name(m->status), -1, SQLITE_STATIC);
    if (m->status != DRTOPK_MEAS_OK)
        sqlite3_bind_text(st, 17, m->error, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 18, m->reps);
    char *json = NULL;
    if (m->status == DRTOPK_MEAS_OK && m->reps > 0) {
        sqlite3_bind_double(st, 19, m->median_ms);
        sqlite3_bind_double(st, 20, m->min_ms);
        sqlite3_bind_double(st, 21, m->max_ms);
        json = malloc((size_t)m->reps * JSON_NUM_MAX + 3);
        if (!json) {
            sqlite3_finalize(st);
            return DRTOPK_ERR_OUT_OF_MEMORY;
        }
        size_t at = 0;
        json[at++] = '[';
        for (int i = 0; m->reps_ms && i < m->reps; ++i)
            at += (size_t)snprintf(json + at, JSON_NUM_MAX, "%s%.6g", i ? "," : "", m->reps_ms[i]);
        json[at++] = ']';
        json[at] = 0;
        sqlite3_bind_text(st, 22, json, -1, SQLITE_TRANSIENT);
        sqlite3_bind_double(st, 23, m->ms_delegate);
        sqlite3_bind_double(st, 24, m->ms_first);
        sqlite3_bind_double(st, 25, m->ms_concat);
        sqlite3_bind_double(st, 26, m->ms_second);
        sqlite3_bind_int64(st, 27, (int64_t)m->delegate_len);
        sqlite3_bind_int64(st, 28, (int64_t)m->first_selected);
        sqlite3_bind_int64(st, 29, (int64_t)m->concat_len);
        sqlite3_bind_int64(st, 30, (int64_t)m->scanned_subranges);
    }
    sqlite3_bind_int(st, 31, m->verified != 0);
    if (m->verified) {
        sqlite3_bind_int(st, 32, m->verify_ok != 0);
        if (!m->verify_ok)
            sqlite3_bind_text(st, 33, m->verify_error, -1, SQLITE_TRANSIENT);
    }
    drtopk_status r = step_done(s, st, "storing a measurement", NULL);
    free(json);
    return r;
}

drtopk_status drtopk_store_each_point(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                      const char *dtype,
                                      int (*cb)(const drtopk_store_point *pt, void *ctx), void *ctx)
{
    sqlite3_stmt *st;
    /* Standalone rows and dr- rows with drtopk_plan_rule4's flags only: the
     * tuner's --no-filter/--no-skip-last-digit/--no-shared-delegate rows
     * (experiments/, Figures 6, 7, 10, 22) are other plans, not fit points. */
    if (prepare(s, "SELECT algorithm, dist, beta, alpha, n, k, median_ms FROM measurements "
                   "WHERE machine_id = ?1 AND git_commit = ?2 AND dtype = ?3 AND status = 'ok' "
                   "AND (verify_ok IS NULL OR verify_ok = 1) AND median_ms IS NOT NULL "
                   "AND ((flags & ?4) = 0 OR flags = ?5 + CASE WHEN alpha <= ?6 THEN ?7 ELSE 0 END) "
                   "ORDER BY algorithm, beta, dist, n, k, alpha", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_text(st, 2, git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, dtype, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 4, DRTOPK_DELEGATE);
    sqlite3_bind_int(st, 5, DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT);
    sqlite3_bind_int(st, 6, DRTOPK_SHARED_DELEGATE_MAX_ALPHA);
    sqlite3_bind_int(st, 7, DRTOPK_SHARED_DELEGATE);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        drtopk_store_point pt = {
            .algorithm = (const char *)sqlite3_column_text(st, 0),
            .dist = (const char *)sqlite3_column_text(st, 1),
            .beta = sqlite3_column_int(st, 2),
            .alpha = sqlite3_column_int(st, 3),
            .n = (uint64_t)sqlite3_column_int64(st, 4),
            .k = (uint64_t)sqlite3_column_int64(st, 5),
            .median_ms = sqlite3_column_double(st, 6),
        };
        if (cb(&pt, ctx)) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? DRTOPK_OK : fail(s, "reading measurements");
}

drtopk_status drtopk_store_put_fit(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                   const drtopk_store_fit *f)
{
    sqlite3_stmt *st;
    if (prepare(s, "INSERT INTO fits (machine_id, git_commit, dtype, algorithm, beta, const_time, "
                   "const_lsq, const_theory, mean_slowdown, worst_slowdown, points, fitted_at) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                   "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) "
                   "ON CONFLICT (machine_id, dtype, algorithm, beta) DO UPDATE SET "
                   "git_commit = excluded.git_commit, const_time = excluded.const_time, "
                   "const_lsq = excluded.const_lsq, const_theory = excluded.const_theory, "
                   "mean_slowdown = excluded.mean_slowdown, worst_slowdown = excluded.worst_slowdown, "
                   "points = excluded.points, fitted_at = excluded.fitted_at", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_text(st, 2, git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, f->dtype, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, f->algorithm, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 5, f->beta);
    sqlite3_bind_double(st, 6, f->const_time);
    sqlite3_bind_double(st, 7, f->const_lsq);
    if (f->const_theory > 0)
        sqlite3_bind_double(st, 8, f->const_theory);
    sqlite3_bind_double(st, 9, f->mean_slowdown);
    sqlite3_bind_double(st, 10, f->worst_slowdown);
    sqlite3_bind_int(st, 11, f->points);
    return step_done(s, st, "storing a fit", NULL);
}

drtopk_status drtopk_store_put_choices(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                       const char *dtype, const drtopk_store_choice *c, int count)
{
    if (exec(s, "SAVEPOINT put_choices") != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_stmt *st;
    drtopk_status r = prepare(s, "DELETE FROM choices WHERE machine_id = ? AND dtype = ?", &st);
    if (r == DRTOPK_OK) {
        sqlite3_bind_int64(st, 1, machine_id);
        sqlite3_bind_text(st, 2, dtype, -1, SQLITE_TRANSIENT);
        r = step_done(s, st, "replacing choices", NULL);
    }
    for (int i = 0; r == DRTOPK_OK && i < count; ++i) {
        r = prepare(s, "INSERT INTO choices (machine_id, git_commit, dtype, log2k_min, log2k_max, "
                       "algorithm, beta, rule4_const, mean_slowdown, points, fitted_at) VALUES "
                       "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))", &st);
        if (r != DRTOPK_OK)
            break;
        sqlite3_bind_int64(st, 1, machine_id);
        sqlite3_bind_text(st, 2, git_commit, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 3, dtype, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 4, c[i].log2k_min);
        sqlite3_bind_int(st, 5, c[i].log2k_max);
        sqlite3_bind_text(st, 6, c[i].algorithm, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 7, c[i].beta);
        sqlite3_bind_double(st, 8, c[i].rule4_const);
        sqlite3_bind_double(st, 9, c[i].mean_slowdown);
        sqlite3_bind_int(st, 10, c[i].points);
        r = step_done(s, st, "storing a choice", NULL);
    }
    if (r != DRTOPK_OK) {
        sqlite3_exec(s->db, "ROLLBACK TO put_choices", NULL, NULL, NULL);
        sqlite3_exec(s->db, "RELEASE put_choices", NULL, NULL, NULL);
        return r;
    }
    return exec(s, "RELEASE put_choices");
}

/* ---- the modern peers (issue 4 item 6) ------------------------------------ */

drtopk_status drtopk_store_machine_by_name(drtopk_store *s, const char *name, const char *backend,
                                           int64_t *id, int *found)
{
    sqlite3_stmt *st;
    *found = 0;
    if (prepare(s, "SELECT id FROM machines WHERE name = ? AND backend = ? ORDER BY id DESC LIMIT 1",
                &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, backend, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        *found = 1;
    }
    sqlite3_finalize(st);
    return (rc == SQLITE_ROW || rc == SQLITE_DONE) ? DRTOPK_OK : fail(s, "looking up a machine by name");
}

static const char *peer_status_name(drtopk_peer_status p)
{
    return p == DRTOPK_PEER_OK ? "ok" : p == DRTOPK_PEER_SKIPPED ? "skipped" : "error";
}

drtopk_status drtopk_store_put_peer(drtopk_store *s, int64_t machine_id, int64_t run_id,
                                    const char *git_commit, const drtopk_store_peer *p, int *added)
{
    sqlite3_stmt *st;
    if (prepare(s, "INSERT INTO peer_measurements (machine_id, run_id, git_commit, peer, peer_version, "
                   "dist, dtype, seed, n, k, status, reason, reps, median_ms, min_ms, max_ms, reps_ms, "
                   "verified, measured_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
                   "?13, ?14, ?15, ?16, ?17, ?18, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) "
                   "ON CONFLICT DO NOTHING", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_int64(st, 2, run_id);
    sqlite3_bind_text(st, 3, git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, p->peer, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, p->peer_version, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 6, p->dist, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 7, p->dtype, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 8, (int64_t)p->seed);
    sqlite3_bind_int64(st, 9, (int64_t)p->n);
    sqlite3_bind_int64(st, 10, (int64_t)p->k);
    sqlite3_bind_text(st, 11, peer_status_name(p->status), -1, SQLITE_STATIC);
    if (p->status != DRTOPK_PEER_OK)
        sqlite3_bind_text(st, 12, p->reason, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 13, p->reps);
    if (p->status == DRTOPK_PEER_OK) {
        sqlite3_bind_double(st, 14, p->median_ms);
        sqlite3_bind_double(st, 15, p->min_ms);
        sqlite3_bind_double(st, 16, p->max_ms);
        if (p->reps_ms)
            sqlite3_bind_text(st, 17, p->reps_ms, -1, SQLITE_TRANSIENT);
    }
    sqlite3_bind_int(st, 18, p->verified != 0);
    drtopk_status r = step_done(s, st, "storing a peer measurement", NULL);
    if (r == DRTOPK_OK && added)
        *added = sqlite3_changes(s->db) > 0;
    return r;
}

/* ---- the tuning of a machine, for drtopk_plan_auto ------------------------ */

#define TUNING_LOG2_MAX 63          /* a catch-all's log2 n / log2 k range: 0..63 */

/* The machine the tuning comes from: the one with this uuid if it has fits or
 * choices, else the most recently tuned machine of this name. */
static drtopk_status tuned_machine(drtopk_store *s, const char *uuid, const char *name, int64_t *id,
                                   drtopk_store_tuning *t, int *found)
{
    sqlite3_stmt *st;
    *found = 0;
    if (prepare(s, "SELECT m.id, m.uuid, m.name FROM machines m "
                   "WHERE (m.uuid = ?1 OR (?2 IS NOT NULL AND m.name = ?2)) "
                   "AND (EXISTS (SELECT 1 FROM fits f WHERE f.machine_id = m.id) "
                   "OR EXISTS (SELECT 1 FROM choices c WHERE c.machine_id = m.id)) "
                   "ORDER BY (m.uuid = ?1) DESC, "
                   "max(coalesce((SELECT max(fitted_at) FROM fits WHERE machine_id = m.id), ''), "
                   "coalesce((SELECT max(fitted_at) FROM choices WHERE machine_id = m.id), '')) DESC, "
                   "m.id DESC LIMIT 1", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_text(st, 1, uuid ? uuid : "", -1, SQLITE_TRANSIENT);
    if (name)
        sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        snprintf(t->machine_uuid, sizeof t->machine_uuid, "%s", (const char *)sqlite3_column_text(st, 1));
        snprintf(t->gpu_name, sizeof t->gpu_name, "%s", (const char *)sqlite3_column_text(st, 2));
        *found = 1;
    }
    sqlite3_finalize(st);
    return (rc == SQLITE_ROW || rc == SQLITE_DONE) ? DRTOPK_OK : fail(s, "looking up the tuned machine");
}

/* Append an entry; DRTOPK_ERR_OUT_OF_MEMORY when the table cannot grow. */
static drtopk_status tuning_add(drtopk_store_tuning *t, size_t *cap, const drtopk_tuning_entry *e)
{
    if (t->table.count == *cap) {
        size_t ncap = *cap ? 2 * *cap : DRTOPK_DTYPE_COUNT;
        drtopk_tuning_entry *ne = realloc(t->entries, ncap * sizeof *ne);
        if (!ne)
            return DRTOPK_ERR_OUT_OF_MEMORY;
        t->entries = ne;
        *cap = ncap;
    }
    t->entries[t->table.count++] = *e;
    return DRTOPK_OK;
}

/* Dtype t's entries: the tuner's per-k-range choices, then the catch-all with
 * the fitted const of plan_auto's default plan.  A choice plan_auto cannot
 * express (a standalone algorithm) or with a value out of range is left out,
 * so its k range falls through to the catch-all. */
static drtopk_status tuning_dtype(drtopk_store *s, int64_t id, drtopk_dtype t, drtopk_store_tuning *out,
                                  size_t *cap)
{
    sqlite3_stmt *st;
    drtopk_status r;
    const char *dt = drtopk_dtype_name(t);
    if (prepare(s, "SELECT log2k_min, log2k_max, algorithm, beta, rule4_const FROM choices "
                   "WHERE machine_id = ?1 AND dtype = ?2 ORDER BY log2k_min", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, dt, -1, SQLITE_STATIC);
    int rc;
    r = DRTOPK_OK;
    while (r == DRTOPK_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        drtopk_tuning_entry e = { .dtype = t, .log2n_min = 0, .log2n_max = TUNING_LOG2_MAX,
                                  .log2k_min = sqlite3_column_int(st, 0),
                                  .log2k_max = sqlite3_column_int(st, 1),
                                  .beta = sqlite3_column_int(st, 3),
                                  .rule4_const = sqlite3_column_double(st, 4) };
        const char *algo = (const char *)sqlite3_column_text(st, 2);
        int delegate = 0;
        if (algo && drtopk_algo_parse(algo, &e.algo, &delegate) == DRTOPK_OK && delegate && e.beta >= 1 &&
            e.beta <= DRTOPK_BETA_MAX && isfinite(e.rule4_const))
            r = tuning_add(out, cap, &e);
    }
    sqlite3_finalize(st);
    if (r != DRTOPK_OK)
        return r;
    if (rc != SQLITE_DONE)
        return fail(s, "reading the plan choices");
    if (prepare(s, "SELECT const_time FROM fits WHERE machine_id = ?1 AND dtype = ?2 AND algorithm = ?3 "
                   "ORDER BY abs(beta - ?4), fitted_at DESC LIMIT 1", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, dt, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, PLAN_AUTO_ALGORITHM, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, PLAN_AUTO_BETA);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        drtopk_tuning_entry e = { .dtype = t, .log2n_min = 0, .log2n_max = TUNING_LOG2_MAX, .log2k_min = 0,
                                  .log2k_max = TUNING_LOG2_MAX, .algo = DRTOPK_ALGO_RADIX,
                                  .beta = PLAN_AUTO_BETA, .rule4_const = sqlite3_column_double(st, 0) };
        if (isfinite(e.rule4_const))
            r = tuning_add(out, cap, &e);
    }
    sqlite3_finalize(st);
    if (r == DRTOPK_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
        r = fail(s, "reading the Rule 4 fit");
    return r;
}

drtopk_status drtopk_store_load_tuning(const char *db_path, const char *uuid, const char *name,
                                       drtopk_store_tuning *out, char *err, size_t err_len)
{
    const char *path = db_path ? db_path : drtopk_store_default_path();
    drtopk_store *s;
    int64_t id = 0;
    int found = 0;
    size_t cap = 0;
    memset(out, 0, sizeof *out);
    out->table.gpu_name = out->gpu_name;
    if (access(path, F_OK) != 0)
        return DRTOPK_OK;
    drtopk_status r = drtopk_store_open(path, DRTOPK_STORE_READONLY, &s, err, err_len);
    if (r != DRTOPK_OK)
        return r;
    r = tuned_machine(s, uuid, name, &id, out, &found);
    for (int t = 0; r == DRTOPK_OK && found && t < DRTOPK_DTYPE_COUNT; ++t)
        r = tuning_dtype(s, id, (drtopk_dtype)t, out, &cap);
    if (r == DRTOPK_ERR_OUT_OF_MEMORY)
        set_err(err, err_len, "out of memory loading the tuning from %s", path);
    else if (r != DRTOPK_OK)
        set_err(err, err_len, "%s: %s", path, s->err);
    drtopk_store_close(s);
    if (r != DRTOPK_OK) {
        drtopk_store_tuning_free(out);
        out->table.gpu_name = out->gpu_name;
        return r;
    }
    out->table.entries = out->entries;
    return DRTOPK_OK;
}

void drtopk_store_tuning_free(drtopk_store_tuning *t)
{
    if (!t)
        return;
    free(t->entries);
    memset(t, 0, sizeof *t);
}

/* ---- merge ---------------------------------------------------------------- */

#define MEAS_COLS                                                                      \
    "git_commit, algorithm, first_algo, second_algo, dtype, dist, seed, n, k, alpha, beta, " \
    "flags, sort_order, status, error, reps, median_ms, min_ms, max_ms, reps_ms, ms_delegate, " \
    "ms_first, ms_concat, ms_second, delegate_len, first_selected, concat_len, "          \
    "scanned_subranges, verified, verify_ok, verify_error, measured_at"
#define FIT_COLS                                                                       \
    "git_commit, dtype, algorithm, beta, const_time, const_lsq, const_theory, mean_slowdown, " \
    "worst_slowdown, points, fitted_at"
#define CHOICE_COLS                                                                    \
    "git_commit, dtype, log2k_min, log2k_max, algorithm, beta, rule4_const, mean_slowdown, " \
    "points, fitted_at"
#define PEER_COLS                                                                      \
    "git_commit, peer, peer_version, dist, dtype, seed, n, k, status, reason, reps, median_ms, " \
    "min_ms, max_ms, reps_ms, verified, measured_at"
#define MACHINE_COLS                                                                   \
    "uuid, name, backend, cc_major, cc_minor, sm_count, mem_bytes, l2_bytes, read_gbps, " \
    "driver_version, runtime_version, first_seen, c_global, c_shfl"

/* x.<col>, ... for a column list (prefixing each name). */
static void prefixed(char *out, size_t len, const char *prefix, const char *cols)
{
    size_t at = 0;
    const char *p = cols;
    while (*p && at + 1 < len) {
        while (*p == ' ' || *p == ',')
            ++p;
        size_t w = strcspn(p, ", ");
        at += (size_t)snprintf(out + at, len - at, "%s%s.%.*s", at ? ", " : "", prefix, (int)w, p);
        p += w;
    }
}

static drtopk_status merge_step(drtopk_store *s, const char *sql, int *added)
{
    if (exec(s, sql) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    *added = sqlite3_changes(s->db);
    return DRTOPK_OK;
}

drtopk_status drtopk_store_merge(drtopk_store *s, const char *other_path,
                                 drtopk_store_merge_stats *stats)
{
    drtopk_store_merge_stats zero = {0};
    drtopk_store_merge_stats *st = stats ? stats : &zero;
    *st = zero;
    /* Opening validates the other file (and migrates an older one). */
    drtopk_store *o;
    char err[DRTOPK_STORE_ERR_LEN];
    if (drtopk_store_open(other_path, DRTOPK_STORE_NO_CREATE, &o, err, sizeof err) != DRTOPK_OK) {
        set_err(s->err, sizeof s->err, "merge: %s", err);
        return DRTOPK_ERR_IO;
    }
    drtopk_store_close(o);

    sqlite3_stmt *at;
    if (prepare(s, "ATTACH DATABASE ? AS other", &at) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_text(at, 1, other_path, -1, SQLITE_TRANSIENT);
    if (step_done(s, at, "attaching the other database", NULL) != DRTOPK_OK)
        return DRTOPK_ERR_IO;

    enum { SQL_LEN = 4096, COLS_LEN = 1024 };
    char sql[SQL_LEN], cols[COLS_LEN];
    drtopk_status r = drtopk_store_begin(s);
    if (r == DRTOPK_OK)
        r = merge_step(s, "INSERT INTO main.machines (" MACHINE_COLS ") SELECT " MACHINE_COLS
                          " FROM other.machines WHERE uuid NOT IN (SELECT uuid FROM main.machines)",
                       &st->machines_added);
    if (r == DRTOPK_OK)
        r = merge_step(s, "INSERT INTO main.runs (run_uuid, machine_id, program, argv, git_commit, "
                          "started_at, ended_at, status) SELECT r.run_uuid, mm.id, r.program, r.argv, "
                          "r.git_commit, r.started_at, r.ended_at, r.status FROM other.runs r "
                          "JOIN other.machines om ON om.id = r.machine_id "
                          "JOIN main.machines mm ON mm.uuid = om.uuid "
                          "WHERE r.run_uuid NOT IN (SELECT run_uuid FROM main.runs)",
                       &st->runs_added);
    /* The per-machine tables, matched to main's machine (and run) ids; each
     * table's UNIQUE key drops what main already has. */
    const struct {
        const char *table, *cols;
        int with_run;
        int *added;
    } tables[] = {
        { "measurements", MEAS_COLS, 1, &st->measurements_added },
        { "fits", FIT_COLS, 0, &st->fits_added },
        { "choices", CHOICE_COLS, 0, &st->choices_added },
        { "peer_measurements", PEER_COLS, 1, &st->peers_added },
    };
    for (size_t i = 0; i < sizeof tables / sizeof tables[0] && r == DRTOPK_OK; ++i) {
        prefixed(cols, sizeof cols, "x", tables[i].cols);
        int len = snprintf(sql, sizeof sql,
                 "INSERT INTO main.%s (machine_id, %s%s) SELECT mm.id, %s%s FROM other.%s x "
                 "JOIN other.machines om ON om.id = x.machine_id JOIN main.machines mm ON mm.uuid = om.uuid "
                 "%s WHERE true ON CONFLICT DO NOTHING",
                 tables[i].table, tables[i].with_run ? "run_id, " : "", tables[i].cols,
                 tables[i].with_run ? "mr.id, " : "", cols, tables[i].table,
                 tables[i].with_run ? "JOIN other.runs orn ON orn.id = x.run_id "
                                      "JOIN main.runs mr ON mr.run_uuid = orn.run_uuid" : "");
        if (len < 0 || (size_t)len >= sizeof sql) {
            set_err(s->err, sizeof s->err, "merge: the statement for %s does not fit", tables[i].table);
            r = DRTOPK_ERR_IO;
            break;
        }
        r = merge_step(s, sql, tables[i].added);
    }
    if (r == DRTOPK_OK)
        r = drtopk_store_commit(s);
    else
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    char keep[DRTOPK_STORE_ERR_LEN];
    snprintf(keep, sizeof keep, "%s", s->err);
    sqlite3_exec(s->db, "DETACH DATABASE other", NULL, NULL, NULL);
    snprintf(s->err, sizeof s->err, "%s", keep);
    return r;
}
