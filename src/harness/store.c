/*
 * store.c -- the SQLite results store's handle (store.h; schema in
 * db/schema.sql, the database in docs/tuning.md): errors, opening (WAL, a busy
 * timeout, foreign keys, the store's SQL functions, then the migrations of
 * store_schema.c), transactions, and the rows of machines and runs, whose pids
 * let concurrent tuners take over the claims of a run that died.  The
 * statement helpers all store files share are store_sql.c's.
 */
#include "store_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUSY_TIMEOUT_MS 10000           /* concurrent tuners wait, not fail      */
#define BUSY_RETRY_MS 10                /* SQLite's deadlock avoidance returns
                                           BUSY at once: opening retries this often */
#define DIRTY_SUFFIX "-dirty"             /* git describe --dirty marks a modified tree */
#define RUN_UUID_BYTES 16

const char *dh_store_errmsg(const dh_store *s) { return s ? s->err : "no store"; }
int dh_store_version(const dh_store *s) { return s->version; }

const char *dh_store_default_path(void)
{
    const char *e = getenv("DRTOPK_DB");
    return (e && *e) ? e : DRTOPK_STORE_DEFAULT_PATH;
}

/* ---- opening ------------------------------------------------------------- */

/* Explain up front what sqlite would report obscurely: missing directory,
 * a directory given as the file, a missing file where one is required. */
static drtopk_status check_path(const char *path, unsigned flags, char *err, size_t err_len)
{
    if (!path || !*path) {
        store_set_err(err, err_len, "empty database path");
        return DRTOPK_ERR_INVALID_ARGUMENT;
    }
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            store_set_err(err, err_len, "%s is a directory, not a database file", path);
            return DRTOPK_ERR_IO;
        }
        /* a FIFO or device is refused unopened: opening one blocks */
        return dh_check_regular_file(path, err, err_len) == 0 ? DRTOPK_OK : DRTOPK_ERR_IO;
    }
    if (errno != ENOENT) {
        store_set_err(err, err_len, "cannot access %s: %s", path, strerror(errno));
        return DRTOPK_ERR_IO;
    }
    if (flags & (DRTOPK_STORE_READONLY | DRTOPK_STORE_NO_CREATE)) {
        store_set_err(err, err_len, "database %s does not exist", path);
        return DRTOPK_ERR_IO;
    }
    const char *slash = strrchr(path, '/');
    if (slash && slash != path) {
        char dir[4096];
        size_t len = (size_t)(slash - path);
        if (len >= sizeof dir) {
            store_set_err(err, err_len, "database path too long: %s", path);
            return DRTOPK_ERR_IO;
        }
        memcpy(dir, path, len);
        dir[len] = 0;
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            store_set_err(err, err_len, "cannot create database %s: directory %s does not exist",
                          path, dir);
            return DRTOPK_ERR_IO;
        }
    }
    return DRTOPK_OK;
}

/* drtopk_pid_gone(pid): 1 when no process of that id exists on this host. */
static void pid_gone(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    pid_t pid = (pid_t)sqlite3_value_int64(argv[0]);
    sqlite3_result_int(ctx, pid > 0 && kill(pid, 0) != 0 && errno == ESRCH);
}

/* Repeat an opening step (it sets open_rc) while SQLite answers BUSY without waiting (its deadlock
 * avoidance: two openers of a new database both upgrading a read lock), up to
 * the busy timeout.  Returns what the last try returned. */
static drtopk_status retry_busy(dh_store *s, drtopk_status (*step)(dh_store *, const char *),
                                const char *path)
{
    double t0 = dh_now_ms();
    for (;;) {
        drtopk_status r = step(s, path);
        if (r == DRTOPK_OK || (s->open_rc & 0xff) != SQLITE_BUSY ||
            dh_now_ms() - t0 >= BUSY_TIMEOUT_MS)
            return r;
        sqlite3_sleep(BUSY_RETRY_MS);
    }
}

/* WAL: readers never block the tuner; NORMAL sync keeps every committed step
 * across a crash of the process. */
static drtopk_status set_wal(dh_store *s, const char *path)
{
    sqlite3_stmt *st;
    int ok = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st, NULL) == SQLITE_OK;
    ok = ok && sqlite3_step(st) == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
    sqlite3_finalize(st);
    if (ok && sqlite3_exec(s->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL) == SQLITE_OK)
        return DRTOPK_OK;
    s->open_rc = sqlite3_errcode(s->db);
    if (!ok && sqlite3_errcode(s->db) == SQLITE_OK)
        store_set_err(s->err, sizeof s->err, "database %s: cannot switch to WAL mode", path);
    else
        store_fail(s, path);
    return DRTOPK_ERR_IO;
}

/* Open; readonly opens never write, and take an older schema as it is (its
 * readers use what it has).  Creating and migrating under concurrency: the
 * busy timeout is set first, BUSY answers SQLite does not wait on are retried
 * and each migration re-reads the version inside its write transaction. */
drtopk_status dh_store_open_version(const char *path, unsigned flags, int max_version,
                                    dh_store **out, char *err, size_t err_len)
{
    if (!out)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    drtopk_status rs = check_path(path, flags, err, err_len);
    if (rs != DRTOPK_OK)
        return rs;
    dh_store *s = calloc(1, sizeof *s);
    if (!s)
        return DRTOPK_ERR_OUT_OF_MEMORY;
    gethostname(s->host, sizeof s->host - 1);
    int readonly = (flags & DRTOPK_STORE_READONLY) != 0;
    int oflags = SQLITE_OPEN_URI |
                 (readonly ? SQLITE_OPEN_READONLY
                           : SQLITE_OPEN_READWRITE | ((flags & DRTOPK_STORE_NO_CREATE) ? 0 : SQLITE_OPEN_CREATE));
    char uri[URI_MAX], wal[DRTOPK_PATH_MAX + sizeof "-wal"];
    snprintf(wal, sizeof wal, "%s-wal", path);
    rs = DRTOPK_ERR_IO;
    for (s->uri_mode = readonly ? URI_READONLY : URI_READWRITE;; s->uri_mode = URI_IMMUTABLE) {
        if (store_path_uri(path, s->uri_mode, uri, sizeof uri) != 0) {
            store_set_err(s->err, sizeof s->err, "database path too long: %s", path);
            goto bad;
        }
        if (sqlite3_open_v2(uri, &s->db, oflags, NULL) != SQLITE_OK) {
            char why[DRTOPK_STORE_ERR_LEN / 2];
            store_sqlite_reason(s->db, why, sizeof why);
            store_set_err(s->err, sizeof s->err, "cannot open database %s: %s", path, why);
            goto bad;
        }
        sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
        if (retry_busy(s, store_read_schema, path) == DRTOPK_OK)
            break;
        int rc = s->open_rc & 0xff;
        if (s->uri_mode != URI_READONLY || (rc != SQLITE_READONLY && rc != SQLITE_CANTOPEN) ||
            access(wal, F_OK) == 0)
            goto bad;
        sqlite3_close(s->db);       /* a WAL database in a read-only directory */
        s->db = NULL;
    }
    if (s->version > DRTOPK_STORE_SCHEMA_VERSION) {
        store_set_err(s->err, sizeof s->err,
                      "database %s has schema version %d, newer than this build's %d: "
                      "use a newer drtopk", path, s->version, DRTOPK_STORE_SCHEMA_VERSION);
        goto bad;
    }
    if (!readonly && sqlite3_db_readonly(s->db, "main") == 1) {
        store_set_err(s->err, sizeof s->err, "database %s is read-only (no write permission)", path);
        goto bad;
    }
    if (sqlite3_create_function(s->db, "drtopk_pid_gone", 1, SQLITE_UTF8, NULL, pid_gone, NULL, NULL) !=
            SQLITE_OK ||
        sqlite3_create_function(s->db, "drtopk_rule4_alpha", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                store_sql_rule4_alpha, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(s->db, "drtopk_rule4_alpha", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                store_sql_rule4_alpha_const, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(s->db, "dh_rule4_flags", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                store_sql_rule4_flags, NULL, NULL) != SQLITE_OK) {
        store_fail(s, "registering the store's SQL functions");
        goto bad;
    }
    /* Foreign keys after the migrations: migration 4 rebuilds runs. */
    if (!readonly && (retry_busy(s, set_wal, path) != DRTOPK_OK || store_migrate(s, max_version) != DRTOPK_OK ||
                      store_derive_rule4(s, 0) != DRTOPK_OK ||
                      store_derive_fit_alphas(s, NULL) != DRTOPK_OK))
        goto bad;
    if (sqlite3_exec(s->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK) {
        store_fail(s, "enabling foreign keys");
        goto bad;
    }
    *out = s;
    return DRTOPK_OK;
bad:
    store_set_err(err, err_len, "%s", s->err);
    sqlite3_close(s->db);
    free(s);
    return rs;
}

drtopk_status dh_store_open(const char *path, unsigned flags, dh_store **out,
                            char *err, size_t err_len)
{
    return dh_store_open_version(path, flags, DRTOPK_STORE_SCHEMA_VERSION, out, err, err_len);
}

void dh_store_close(dh_store *s)
{
    if (!s)
        return;
    sqlite3_close(s->db);
    free(s);
}

/* ---- transactions ------------------------------------------------------------ */

drtopk_status dh_store_begin(dh_store *s) { return store_exec(s, "BEGIN IMMEDIATE"); }
drtopk_status dh_store_commit(dh_store *s) { return store_exec(s, "COMMIT"); }
drtopk_status dh_store_rollback(dh_store *s) { return store_exec(s, "ROLLBACK"); }

/* Bind v, or NULL (unknown) when v <= 0. */
static void bind_pos_int(sqlite3_stmt *st, int i, int64_t v)
{
    if (v > 0)
        sqlite3_bind_int64(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

/* ---- machines and runs ----------------------------------------------------- */

drtopk_status dh_store_put_machine(dh_store *s, const dh_store_machine *m, int64_t *id)
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
    if (store_prepare(s, sql, &st) != DRTOPK_OK)
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
    store_bind_pos_double(st, 9, m->read_gbps);
    bind_pos_int(st, 10, m->driver_version);
    bind_pos_int(st, 11, m->runtime_version);
    store_bind_pos_double(st, 12, m->c_global);
    store_bind_pos_double(st, 13, m->c_shfl);
    return store_step_done(s, st, "storing the machine", id);
}

void dh_store_cpu_machine(dh_store_machine *m)
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

drtopk_status dh_store_machine_by_name(dh_store *s, const char *name, const char *backend,
                                       int64_t *id, int *found)
{
    sqlite3_stmt *st;
    *found = 0;
    if (store_prepare(s, "SELECT id FROM machines WHERE name = ? AND backend = ? ORDER BY id DESC LIMIT 1",
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
    return (rc == SQLITE_ROW || rc == SQLITE_DONE) ? DRTOPK_OK : store_fail(s, "looking up a machine by name");
}

drtopk_status dh_store_begin_run(dh_store *s, int64_t machine_id, const char *program,
                                 const char *argv, const char *git_commit, int64_t *run_id)
{
    unsigned char raw[RUN_UUID_BYTES];
    char hex[2 * RUN_UUID_BYTES + 1];
    /* reference runs (experiments/run_all.sh --gpu N) set DRTOPK_STORE_CLEAN=1:
     * rows of a tree with uncommitted changes cannot be traced to a commit */
    const char *clean = getenv(DRTOPK_STORE_CLEAN_ENV);
    size_t len = strlen(git_commit), tag = strlen(DIRTY_SUFFIX);
    if (clean && strcmp(clean, "1") == 0 && len >= tag && strcmp(git_commit + len - tag, DIRTY_SUFFIX) == 0) {
        store_set_err(s->err, sizeof s->err, "%s=1 refuses the rows of commit %s, a tree with uncommitted changes: "
                      "commit or stash them and rebuild", DRTOPK_STORE_CLEAN_ENV, git_commit);
        return DRTOPK_ERR_INVALID_ARGUMENT;
    }
    sqlite3_randomness(sizeof raw, raw);
    for (int i = 0; i < RUN_UUID_BYTES; ++i)
        snprintf(hex + 2 * i, 3, "%02x", raw[i]);
    sqlite3_stmt *st;
    if (dh_store_reap_runs(s, NULL) != DRTOPK_OK ||
        store_prepare(s, "INSERT INTO runs (run_uuid, machine_id, program, argv, git_commit, started_at, "
                         "status, pid, host) VALUES (?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), "
                         "'running', ?, ?) RETURNING id", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_text(st, 1, hex, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, machine_id);
    sqlite3_bind_text(st, 3, program, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, argv, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 6, (int64_t)getpid());
    sqlite3_bind_text(st, 7, s->host, -1, SQLITE_TRANSIENT);
    return store_step_done(s, st, "starting the run", run_id);
}

drtopk_status dh_store_reap_runs(dh_store *s, int *reaped)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "UPDATE runs SET status = 'killed', ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
                         "WHERE status = 'running' AND host = ?1 AND drtopk_pid_gone(pid)", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_text(st, 1, s->host, -1, SQLITE_TRANSIENT);
    drtopk_status r = store_step_done(s, st, "marking runs whose process is gone", NULL);
    if (r == DRTOPK_OK && reaped)
        *reaped = sqlite3_changes(s->db);
    return r;
}

drtopk_status dh_store_end_run(dh_store *s, int64_t run_id, const char *status)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "UPDATE runs SET ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), status = ? "
                         "WHERE id = ?", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_text(st, 1, status, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, run_id);
    return store_step_done(s, st, "ending the run", NULL);
}
