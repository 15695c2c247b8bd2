/*
 * store.c -- the SQLite results store (schema in db/schema.sql, the
 * measurement rules of DESIGN.md).  One small module: open (WAL, busy timeout,
 * foreign keys), versioned migrations embedded from db/schema.sql, inserts for
 * the tuner and for the modern peers' imported measurements (each timing row
 * with the paper's Rule 4 plan at its point, derived where a row lacks it),
 * loading a machine's tuning (the fitted Rule 4 const, paper section 5.2, and
 * the plan choices) as the table programs pass to drtopk_plan_auto, the
 * automatic plan's regret over the forced plans, and merging of databases.
 */
#include "store.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sqlite3.h>

#include "gen.h"
#include "schema_sql.h"
#include "util.h"

#define BUSY_TIMEOUT_MS 10000           /* concurrent tuners wait, not fail      */
#define BUSY_RETRY_MS 10                /* SQLite's deadlock avoidance returns
                                           BUSY at once: opening retries this often */
#define CLAIM_STALE_S 3600              /* a claim this old is taken over: longer
                                           than any one configuration's measurement */
#define URI_MAX (3 * DRTOPK_PATH_MAX + 32)   /* "file:" + %XX-escaped path + "?mode=ro" */
#define HOST_LEN 256
#define MIGRATION_MARK "-- @migration "
#define DIRTY_SUFFIX "-dirty"             /* git describe --dirty marks a modified tree */
#define PLAN_AUTO_ALGORITHM "dr-radix"  /* drtopk_plan_auto's default plan ...   */
#define PLAN_AUTO_BETA 2                /* ... and its beta (drtopk.h)           */
#define DECISION_TABLE_SINCE_VERSION 5  /* choices with log2 n ranges and a status */
#define RULE4_COLUMNS_SINCE_VERSION 11  /* measurements.rule4_alpha and rule4_flags */
#define RUN_UUID_BYTES 16
#define JSON_NUM_MAX 32                 /* one "%.6g," in the reps array         */

struct drtopk_store {
    sqlite3 *db;
    int version;
    char host[HOST_LEN];                /* gethostname(): whose pids runs.pid are */
    int uri_mode;                       /* URI_*: how the file was opened          */
    int open_rc;                        /* SQLite's code of a failed opening step  */
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

/* SQLite's message of db's last failure, with the OS reason (errno text)
 * when a system call failed and the database file's path */
static void sqlite_reason(sqlite3 *db, char *buf, size_t len)
{
    const int code = db ? sqlite3_errcode(db) & 0xff : SQLITE_NOMEM;
    /* errno is SQLite's last failed system call: stale unless the failure was one */
    const int sys = code == SQLITE_IOERR || code == SQLITE_CANTOPEN || code == SQLITE_FULL ||
                    code == SQLITE_READONLY || code == SQLITE_PERM ? sqlite3_system_errno(db) : 0;
    const char *file = db ? sqlite3_db_filename(db, "main") : NULL;
    int why = sys;
    /* SQLite's last errno is of its last try (often the -wal file's); a file it
     * cannot open for writing says why itself (EROFS, EACCES) */
    if ((code == SQLITE_CANTOPEN || code == SQLITE_READONLY) && file && *file && access(file, W_OK) != 0 &&
        errno != ENOENT)
        why = errno;
    snprintf(buf, len, "%s%s%s%s%s%s", db ? sqlite3_errmsg(db) : "out of memory", why ? " (" : "",
             why ? strerror(why) : "", why ? ")" : "", file && *file ? " in " : "", file ? file : "");
}

/* Record sqlite's message for the failed step `what` and return IO. */
static drtopk_status fail(drtopk_store *s, const char *what)
{
    char why[DRTOPK_STORE_ERR_LEN / 2];
    sqlite_reason(s->db, why, sizeof why);
    set_err(s->err, sizeof s->err, "%s: %s", what, why);
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
        /* a FIFO or device is refused unopened: opening one blocks */
        return drtopk_check_regular_file(path, err, err_len) == 0 ? DRTOPK_OK : DRTOPK_ERR_IO;
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

/* Schema version: 0 for an empty file; an error for a foreign database and
 * for a schema_version table that does not hold exactly one row. */
static drtopk_status read_version(drtopk_store *s, const char *path)
{
    int has = 0, objects = 0, rows = 0;
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
    if (single_int(s->db, "SELECT count(*) FROM schema_version", &rows) != SQLITE_OK ||
        (rows == 1 && single_int(s->db, "SELECT version FROM schema_version", &s->version) != SQLITE_OK))
        return fail(s, "reading schema_version");
    if (rows != 1) {
        set_err(s->err, sizeof s->err,
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
static drtopk_status check_schema(drtopk_store *s, const char *path)
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
        set_err(s->err, sizeof s->err, "checking the schema of %s: %s", path,
                h != SQLITE_DONE ? sqlite3_errmsg(s->db) : sqlite3_errmsg(ref));
    sqlite3_finalize(want);
    sqlite3_finalize(have);
    sqlite3_close(ref);
    if (*what)
        set_err(s->err, sizeof s->err,
                "database %s is damaged: schema_version says %d, but %s; restore it from a copy, or "
                "move it away and let the tuner create a new one", path, s->version, what);
    return *what || failed ? DRTOPK_ERR_IO : DRTOPK_OK;
}

/* The version and the check of the schema against it, from one snapshot
 * (another process may be migrating). */
static drtopk_status read_schema(drtopk_store *s, const char *path)
{
    if (sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
        s->open_rc = sqlite3_errcode(s->db);
        return fail(s, path);
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
static drtopk_status migrate(drtopk_store *s, int max_version)
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
            rc = table_exists(s->db, "schema_version", &has);
        if (rc == SQLITE_OK && has)
            rc = single_int(s->db, "SELECT max(version) FROM schema_version", &current);
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
            set_err(s->err, sizeof s->err, "migration to schema version %d failed: %s", n,
                    msg ? msg : sqlite3_errmsg(s->db));
            sqlite3_free(msg);
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return DRTOPK_ERR_IO;
        }
        s->version = n > current ? n : current;
    }
    return DRTOPK_OK;
}

/* How a URI opens its file.  A read-only open of a WAL database needs its
 * -shm file; where that cannot be made (a read-only directory) and no -wal
 * file holds anything, the file alone is the database: immutable. */
enum { URI_READWRITE, URI_READONLY, URI_IMMUTABLE };

/* "file:PATH" with every byte outside [A-Za-z0-9/._~-] %-escaped, so that a
 * path is taken as it is ("?", "#", "%" included), and the mode's query. */
static int path_uri(const char *path, int mode, char *out, size_t len)
{
    size_t at = (size_t)snprintf(out, len, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p && at + 4 < len; ++p) {
        int plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                    strchr("/._~-", *p);
        at += (size_t)(plain ? snprintf(out + at, len - at, "%c", *p) : snprintf(out + at, len - at, "%%%02X", *p));
    }
    static const char *const query[] = { "", "?mode=ro", "?mode=ro&immutable=1" };
    int r = snprintf(out + at, len - at, "%s", query[mode]);
    return r < 0 || (size_t)r >= len - at ? -1 : 0;
}

/* drtopk_pid_gone(pid): 1 when no process of that id exists on this host. */
static void pid_gone(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    pid_t pid = (pid_t)sqlite3_value_int64(argv[0]);
    sqlite3_result_int(ctx, pid > 0 && kill(pid, 0) != 0 && errno == ESRCH);
}

/* ---- the paper's plan beside each row (schema migration 11) --------------- */

/* measurements.rule4_alpha: the alpha Rule 4 gives at (n, k) with the
 * paper's const (paper section 5.2), as the library computes it. */
static int paper_alpha(uint64_t n, uint64_t k)
{
    return drtopk_rule4_alpha(n, k, DRTOPK_RULE4_CONST_DEFAULT);
}

/* measurements.rule4_flags: the flags drtopk_plan_rule4 gives the pipeline
 * where Rule 4 lands on `alpha` at (n, k), planned by the library at the
 * const that gives alpha there (Rule 4 inverted); 0 for a standalone row
 * (alpha 0), a size no plan takes, or an alpha Rule 4 never gives at (n, k)
 * (clamped away: above ceil(log2 n)). */
static unsigned paper_flags(uint64_t n, uint64_t k, int alpha)
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

/* drtopk_rule4_alpha(n, k) and drtopk_rule4_flags(n, k, alpha) in SQL: the
 * store's derivation of rows that lack the columns (derive_rule4). */
static void sql_rule4_alpha(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    sqlite3_result_int(ctx, paper_alpha((uint64_t)sqlite3_value_int64(argv[0]),
                                        (uint64_t)sqlite3_value_int64(argv[1])));
}

static void sql_rule4_flags(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    sqlite3_result_int64(ctx, paper_flags((uint64_t)sqlite3_value_int64(argv[0]),
                                          (uint64_t)sqlite3_value_int64(argv[1]), sqlite3_value_int(argv[2])));
}

/* Give the rows that lack them (rule4_alpha 0, db/schema.sql migration 11)
 * their rule4_alpha and rule4_flags; writes only when such rows exist. */
static drtopk_status derive_rule4(drtopk_store *s)
{
    int missing = 0;
    if (s->version < RULE4_COLUMNS_SINCE_VERSION)
        return DRTOPK_OK;       /* drtopk_store_open_version below it: no such columns */
    if (single_int(s->db, "SELECT EXISTS (SELECT 1 FROM measurements WHERE rule4_alpha = 0)", &missing) !=
        SQLITE_OK)
        return fail(s, "looking for measurements without Rule 4's plan");
    if (missing && sqlite3_exec(s->db, "UPDATE measurements SET rule4_alpha = drtopk_rule4_alpha(n, k), "
                                       "rule4_flags = drtopk_rule4_flags(n, k, alpha) WHERE rule4_alpha = 0",
                                NULL, NULL, NULL) != SQLITE_OK)
        return fail(s, "deriving Rule 4's plan of the measurements");
    return DRTOPK_OK;
}

/* Repeat an opening step (it sets open_rc) while SQLite answers BUSY without waiting (its deadlock
 * avoidance: two openers of a new database both upgrading a read lock), up to
 * the busy timeout.  Returns what the last try returned. */
static drtopk_status retry_busy(drtopk_store *s, drtopk_status (*step)(drtopk_store *, const char *),
                                const char *path)
{
    double t0 = drtopk_now_ms();
    for (;;) {
        drtopk_status r = step(s, path);
        if (r == DRTOPK_OK || (s->open_rc & 0xff) != SQLITE_BUSY ||
            drtopk_now_ms() - t0 >= BUSY_TIMEOUT_MS)
            return r;
        sqlite3_sleep(BUSY_RETRY_MS);
    }
}

/* WAL: readers never block the tuner; NORMAL sync keeps every committed step
 * across a crash of the process. */
static drtopk_status set_wal(drtopk_store *s, const char *path)
{
    sqlite3_stmt *st;
    int ok = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st, NULL) == SQLITE_OK;
    ok = ok && sqlite3_step(st) == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
    sqlite3_finalize(st);
    if (ok && sqlite3_exec(s->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL) == SQLITE_OK)
        return DRTOPK_OK;
    s->open_rc = sqlite3_errcode(s->db);
    if (!ok && sqlite3_errcode(s->db) == SQLITE_OK)
        set_err(s->err, sizeof s->err, "database %s: cannot switch to WAL mode", path);
    else
        fail(s, path);
    return DRTOPK_ERR_IO;
}

/* Open; readonly opens never write, and take an older schema as it is (its
 * readers use what it has).  Creating and migrating under concurrency: the
 * busy timeout is set first, BUSY answers SQLite does not wait on are retried
 * and each migration re-reads the version inside its write transaction. */
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
    gethostname(s->host, sizeof s->host - 1);
    int readonly = (flags & DRTOPK_STORE_READONLY) != 0;
    int oflags = SQLITE_OPEN_URI |
                 (readonly ? SQLITE_OPEN_READONLY
                           : SQLITE_OPEN_READWRITE | ((flags & DRTOPK_STORE_NO_CREATE) ? 0 : SQLITE_OPEN_CREATE));
    char uri[URI_MAX], wal[DRTOPK_PATH_MAX + sizeof "-wal"];
    snprintf(wal, sizeof wal, "%s-wal", path);
    rs = DRTOPK_ERR_IO;
    for (s->uri_mode = readonly ? URI_READONLY : URI_READWRITE;; s->uri_mode = URI_IMMUTABLE) {
        if (path_uri(path, s->uri_mode, uri, sizeof uri) != 0) {
            set_err(s->err, sizeof s->err, "database path too long: %s", path);
            goto bad;
        }
        if (sqlite3_open_v2(uri, &s->db, oflags, NULL) != SQLITE_OK) {
            char why[DRTOPK_STORE_ERR_LEN / 2];
            sqlite_reason(s->db, why, sizeof why);
            set_err(s->err, sizeof s->err, "cannot open database %s: %s", path, why);
            goto bad;
        }
        sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
        if (retry_busy(s, read_schema, path) == DRTOPK_OK)
            break;
        int rc = s->open_rc & 0xff;
        if (s->uri_mode != URI_READONLY || (rc != SQLITE_READONLY && rc != SQLITE_CANTOPEN) ||
            access(wal, F_OK) == 0)
            goto bad;
        sqlite3_close(s->db);       /* a WAL database in a read-only directory */
        s->db = NULL;
    }
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
    if (sqlite3_create_function(s->db, "drtopk_pid_gone", 1, SQLITE_UTF8, NULL, pid_gone, NULL, NULL) !=
            SQLITE_OK ||
        sqlite3_create_function(s->db, "drtopk_rule4_alpha", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                sql_rule4_alpha, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(s->db, "drtopk_rule4_flags", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                sql_rule4_flags, NULL, NULL) != SQLITE_OK) {
        fail(s, "registering the store's SQL functions");
        goto bad;
    }
    /* Foreign keys after the migrations: migration 4 rebuilds runs. */
    if (!readonly && (retry_busy(s, set_wal, path) != DRTOPK_OK || migrate(s, max_version) != DRTOPK_OK ||
                      derive_rule4(s) != DRTOPK_OK))
        goto bad;
    if (sqlite3_exec(s->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK) {
        fail(s, "enabling foreign keys");
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
    while (rc == SQLITE_ROW)        /* RETURNING: the write (and its autocommit) ends at DONE */
        rc = sqlite3_step(st);
    drtopk_status r = rc == SQLITE_DONE ? DRTOPK_OK : fail(s, what);
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
    /* reference runs (experiments/run_all.sh --gpu N) set DRTOPK_STORE_CLEAN=1:
     * rows of a tree with uncommitted changes cannot be traced to a commit */
    const char *clean = getenv(DRTOPK_STORE_CLEAN_ENV);
    size_t len = strlen(git_commit), tag = strlen(DIRTY_SUFFIX);
    if (clean && strcmp(clean, "1") == 0 && len >= tag && strcmp(git_commit + len - tag, DIRTY_SUFFIX) == 0) {
        set_err(s->err, sizeof s->err, "%s=1 refuses the rows of commit %s, a tree with uncommitted changes: "
                "commit or stash them and rebuild", DRTOPK_STORE_CLEAN_ENV, git_commit);
        return DRTOPK_ERR_INVALID_ARGUMENT;
    }
    sqlite3_randomness(sizeof raw, raw);
    for (int i = 0; i < RUN_UUID_BYTES; ++i)
        snprintf(hex + 2 * i, 3, "%02x", raw[i]);
    sqlite3_stmt *st;
    if (drtopk_store_reap_runs(s, NULL) != DRTOPK_OK ||
        prepare(s, "INSERT INTO runs (run_uuid, machine_id, program, argv, git_commit, started_at, "
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
    return step_done(s, st, "starting the run", run_id);
}

drtopk_status drtopk_store_reap_runs(drtopk_store *s, int *reaped)
{
    sqlite3_stmt *st;
    if (prepare(s, "UPDATE runs SET status = 'killed', ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
                   "WHERE status = 'running' AND host = ?1 AND drtopk_pid_gone(pid)", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_text(st, 1, s->host, -1, SQLITE_TRANSIENT);
    drtopk_status r = step_done(s, st, "marking runs whose process is gone", NULL);
    if (r == DRTOPK_OK && reaped)
        *reaped = sqlite3_changes(s->db);
    return r;
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

/* Only these outcomes count as measured: an error (out of memory, ...) is
 * measured again by the next run. */
#define MEASURED "status IN ('ok', 'unsupported')"

/* A forced plan's row: not a measurement of drtopk_plan_auto's plan. */
#define FORCED_PLAN "algorithm NOT LIKE '" DRTOPK_STORE_AUTO_PREFIX "%'"
/* A row whose time stands: measured, of order largest, not failed verification. */
#define USABLE "status = 'ok' AND coalesce(verify_ok, 1) = 1 AND median_ms IS NOT NULL AND sort_order = 'largest'"

drtopk_status drtopk_store_has(drtopk_store *s, int64_t machine_id, const char *git_commit,
                               const drtopk_store_config *c, int *found)
{
    sqlite3_stmt *st;
    if (prepare(s, "SELECT count(*) FROM measurements WHERE " KEY_WHERE " AND " MEASURED, &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    bind_key(st, machine_id, git_commit, c);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *found = sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? DRTOPK_OK : fail(s, "looking up a measurement");
}

/* One count(*) of a statement with the key bound, and ?15 the run when it has one. */
static drtopk_status key_count(drtopk_store *s, const char *sql, int64_t machine_id, const char *commit,
                               const drtopk_store_config *c, int64_t run_id, int *out)
{
    sqlite3_stmt *st;
    if (prepare(s, sql, &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    bind_key(st, machine_id, commit, c);
    sqlite3_bind_int64(st, 15, run_id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? DRTOPK_OK : fail(s, "looking up a claim");
}

#define STALE_CUTOFF "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-" DRTOPK_STR(CLAIM_STALE_S) " seconds')"
#define DRTOPK_STR(x) DRTOPK_STR_(x)
#define DRTOPK_STR_(x) #x

drtopk_status drtopk_store_claim(drtopk_store *s, int64_t machine_id, int64_t run_id, const char *git_commit,
                                 const drtopk_store_config *c, int force, int *claimed)
{
    int measured = 0, taken = 0;
    *claimed = 0;
    drtopk_status r = drtopk_store_begin(s);
    if (r == DRTOPK_OK)
        r = drtopk_store_reap_runs(s, NULL);
    /* measured already (with force: by another run going on now) */
    if (r == DRTOPK_OK)
        r = key_count(s, force ? "SELECT count(*) FROM measurements WHERE " KEY_WHERE " AND " MEASURED
                                 " AND run_id IN (SELECT id FROM runs WHERE status = 'running' AND id != ?15)"
                               : "SELECT count(*) FROM measurements WHERE " KEY_WHERE " AND " MEASURED,
                      machine_id, git_commit, c, run_id, &measured);
    /* claimed by another run that is still going and not stale */
    if (r == DRTOPK_OK && !measured)
        r = key_count(s, "SELECT count(*) FROM claims WHERE " KEY_WHERE " AND run_id != ?15 AND claimed_at > "
                         STALE_CUTOFF " AND run_id IN (SELECT id FROM runs WHERE status = 'running')",
                      machine_id, git_commit, c, run_id, &taken);
    if (r == DRTOPK_OK && !measured && !taken) {
        sqlite3_stmt *st;
        r = prepare(s, "INSERT INTO claims (machine_id, git_commit, algorithm, first_algo, second_algo, dtype, "
                       "dist, seed, n, k, alpha, beta, flags, sort_order, run_id, claimed_at) VALUES (?1, ?2, "
                       "?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
                       "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) ON CONFLICT DO UPDATE SET "
                       "run_id = excluded.run_id, claimed_at = excluded.claimed_at", &st);
        if (r == DRTOPK_OK) {
            bind_key(st, machine_id, git_commit, c);
            sqlite3_bind_int64(st, 15, run_id);
            r = step_done(s, st, "claiming a configuration", NULL);
        }
        *claimed = r == DRTOPK_OK;
    }
    if (r == DRTOPK_OK)
        return drtopk_store_commit(s);
    *claimed = 0;
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return r;
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
        "verify_ok, verify_error, timing, rule4_alpha, rule4_flags, measured_at) VALUES (?1, ?2, ?3, ?4, ?5, "
        "?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, "
        "?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35, ?36, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))";
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
    sqlite3_bind_text(st, 34, m->timing ? m->timing : "call", -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 35, paper_alpha(m->cfg.n, m->cfg.k));
    sqlite3_bind_int64(st, 36, paper_flags(m->cfg.n, m->cfg.k, m->cfg.alpha));
    drtopk_status r = step_done(s, st, "storing a measurement", NULL);
    free(json);
    if (r == DRTOPK_OK && prepare(s, "DELETE FROM claims WHERE " KEY_WHERE, &st) == DRTOPK_OK) {
        bind_key(st, machine_id, git_commit, &m->cfg);      /* stored: the claim is done */
        r = step_done(s, st, "releasing a claim", NULL);
    } else if (r == DRTOPK_OK) {
        r = DRTOPK_ERR_IO;
    }
    return r;
}

drtopk_status drtopk_store_each_point(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                      const char *dtype,
                                      int (*cb)(const drtopk_store_point *pt, void *ctx), void *ctx)
{
    sqlite3_stmt *st;
    /* Forced standalone rows and dr- rows with drtopk_plan_rule4's flags,
     * with or without the shared/staged delegate build (the tuner measures
     * both at alpha 6..7): the tuner's --no-filter/--no-skip-last-digit rows
     * (experiments/, Figures 6, 7, 10, 22) are other plans, not fit points. */
    if (prepare(s, "SELECT algorithm, dist, beta, alpha, n, k, median_ms, flags FROM measurements "
                   "WHERE machine_id = ?1 AND git_commit = ?2 AND dtype = ?3 AND " USABLE " AND " FORCED_PLAN " "
                   "AND ((flags & ?4) = 0 OR (flags | ?7) = ?5 + ?7) "
                   "ORDER BY algorithm, beta, dist, n, k, alpha, flags", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_text(st, 2, git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, dtype, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 4, DRTOPK_DELEGATE);
    sqlite3_bind_int(st, 5, DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT);
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
            .flags = (unsigned)sqlite3_column_int64(st, 7),
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

static const char *const choice_status_names[] = {
    [DRTOPK_CHOICE_UNCHECKED] = "unchecked", [DRTOPK_CHOICE_KEPT] = "kept", [DRTOPK_CHOICE_DROPPED] = "dropped",
};

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
        if ((unsigned)c[i].status > DRTOPK_CHOICE_DROPPED) {
            set_err(s->err, sizeof s->err, "choice %d of %s: status %d is not a drtopk_choice_status", i, dtype,
                    (int)c[i].status);
            r = DRTOPK_ERR_IO;
            break;
        }
        r = prepare(s, "INSERT INTO choices (machine_id, git_commit, dtype, log2n_min, log2n_max, log2k_min, "
                       "log2k_max, algorithm, beta, rule4_const, shared_build_max_alpha, mean_slowdown, "
                       "worst_slowdown, points, status, fitted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                       "?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))", &st);
        if (r != DRTOPK_OK)
            break;
        sqlite3_bind_int64(st, 1, machine_id);
        sqlite3_bind_text(st, 2, git_commit, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 3, dtype, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 4, c[i].log2n_min);
        sqlite3_bind_int(st, 5, c[i].log2n_max);
        sqlite3_bind_int(st, 6, c[i].log2k_min);
        sqlite3_bind_int(st, 7, c[i].log2k_max);
        sqlite3_bind_text(st, 8, c[i].algorithm, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 9, c[i].beta);
        sqlite3_bind_double(st, 10, c[i].rule4_const);
        sqlite3_bind_int(st, 11, c[i].shared_build_max_alpha);
        sqlite3_bind_double(st, 12, c[i].mean_slowdown);
        sqlite3_bind_double(st, 13, c[i].worst_slowdown);
        sqlite3_bind_int(st, 14, c[i].points);
        sqlite3_bind_text(st, 15, choice_status_names[c[i].status], -1, SQLITE_STATIC);
        r = step_done(s, st, "storing a choice", NULL);
    }
    if (r != DRTOPK_OK) {
        sqlite3_exec(s->db, "ROLLBACK TO put_choices", NULL, NULL, NULL);
        sqlite3_exec(s->db, "RELEASE put_choices", NULL, NULL, NULL);
        return r;
    }
    return exec(s, "RELEASE put_choices");
}

/* ---- checks of tuned plans (held-out points, tuner --compare) ------------- */

#define CHECK_KEY_WHERE                                                                \
    "machine_id = ?1 AND git_commit = ?2 AND kind = ?3 AND dtype = ?4 AND dist = ?5 AND seed = ?6 " \
    "AND n = ?7 AND k = ?8 AND tuned_algorithm = ?9 AND tuned_alpha = ?10 AND tuned_beta = ?11 "     \
    "AND tuned_flags = ?12"

static void bind_check_key(sqlite3_stmt *st, int64_t machine_id, const char *git_commit,
                           const drtopk_store_check *c)
{
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_text(st, 2, git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, c->kind, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, c->dtype, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, c->dist, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 6, (int64_t)c->seed);
    sqlite3_bind_int64(st, 7, (int64_t)c->n);
    sqlite3_bind_int64(st, 8, (int64_t)c->k);
    sqlite3_bind_text(st, 9, c->tuned_algorithm, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 10, c->tuned_alpha);
    sqlite3_bind_int(st, 11, c->tuned_beta);
    sqlite3_bind_int64(st, 12, c->tuned_flags);
}

drtopk_status drtopk_store_put_check(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                     const drtopk_store_check *c)
{
    sqlite3_stmt *st;
    if (prepare(s, "INSERT OR REPLACE INTO checks (machine_id, git_commit, kind, dtype, dist, seed, n, k, "
                   "tuned_algorithm, tuned_alpha, tuned_beta, tuned_flags, default_alpha, default_beta, "
                   "default_flags, default_ms_a, default_ms_b, tuned_ms_a, tuned_ms_b, best_ms, best_config, "
                   "checked_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
                   "?16, ?17, ?18, ?19, ?20, ?21, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    bind_check_key(st, machine_id, git_commit, c);
    sqlite3_bind_int(st, 13, c->default_alpha);
    sqlite3_bind_int(st, 14, c->default_beta);
    sqlite3_bind_int64(st, 15, c->default_flags);
    sqlite3_bind_double(st, 16, c->default_ms[0]);
    sqlite3_bind_double(st, 17, c->default_ms[1]);
    sqlite3_bind_double(st, 18, c->tuned_ms[0]);
    sqlite3_bind_double(st, 19, c->tuned_ms[1]);
    if (c->best_ms > 0) {
        sqlite3_bind_double(st, 20, c->best_ms);
        sqlite3_bind_text(st, 21, c->best_config, -1, SQLITE_TRANSIENT);
    }
    return step_done(s, st, "storing a check", NULL);
}

drtopk_status drtopk_store_get_check(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                     drtopk_store_check *c, int *found)
{
    sqlite3_stmt *st;
    *found = 0;
    if (prepare(s, "SELECT default_alpha, default_beta, default_flags, default_ms_a, default_ms_b, tuned_ms_a, "
                   "tuned_ms_b, coalesce(best_ms, 0), coalesce(best_config, '') FROM checks WHERE "
                   CHECK_KEY_WHERE, &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    bind_check_key(st, machine_id, git_commit, c);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        c->default_alpha = sqlite3_column_int(st, 0);
        c->default_beta = sqlite3_column_int(st, 1);
        c->default_flags = (unsigned)sqlite3_column_int64(st, 2);
        for (int i = 0; i < 2; ++i) {
            c->default_ms[i] = sqlite3_column_double(st, 3 + i);
            c->tuned_ms[i] = sqlite3_column_double(st, 5 + i);
        }
        c->best_ms = sqlite3_column_double(st, 7);
        snprintf(c->best_config, sizeof c->best_config, "%s", (const char *)sqlite3_column_text(st, 8));
        *found = 1;
    }
    sqlite3_finalize(st);
    return (rc == SQLITE_ROW || rc == SQLITE_DONE) ? DRTOPK_OK : fail(s, "reading a check");
}

drtopk_status drtopk_store_best(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                const char *dtype, const char *dist, uint64_t seed, uint64_t n,
                                uint64_t k, double *ms, char *config, size_t config_len, int *found)
{
    sqlite3_stmt *st;
    *found = 0;
    if (prepare(s, "SELECT median_ms, algorithm, alpha, beta, flags FROM measurements WHERE machine_id = ?1 "
                   "AND git_commit = ?2 AND dtype = ?3 AND dist = ?4 AND seed = ?5 AND n = ?6 AND k = ?7 "
                   "AND status = 'ok' AND beta > 0 AND sort_order = 'largest' AND " FORCED_PLAN " "
                   "ORDER BY median_ms LIMIT 1",
                &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_text(st, 2, git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, dtype, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, dist, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 5, (int64_t)seed);
    sqlite3_bind_int64(st, 6, (int64_t)n);
    sqlite3_bind_int64(st, 7, (int64_t)k);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *ms = sqlite3_column_double(st, 0);
        snprintf(config, config_len, "%s alpha=%d beta=%d flags=0x%x", (const char *)sqlite3_column_text(st, 1),
                 sqlite3_column_int(st, 2), sqlite3_column_int(st, 3), (unsigned)sqlite3_column_int64(st, 4));
        *found = 1;
    }
    sqlite3_finalize(st);
    return (rc == SQLITE_ROW || rc == SQLITE_DONE) ? DRTOPK_OK : fail(s, "reading the best measurement");
}

/* Copy column col of st (text) into out. */
static void column_text(sqlite3_stmt *st, int col, char *out, size_t len)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(out, len, "%s", t ? (const char *)t : "");
}

drtopk_status drtopk_store_best_forced(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                       const char *timing, const drtopk_store_config *point,
                                       drtopk_store_config *best, double *ms, int *found)
{
    sqlite3_stmt *st;
    *found = 0;
    if (prepare(s, "SELECT algorithm, first_algo, second_algo, alpha, beta, flags, median_ms FROM measurements "
                   "WHERE machine_id = ?1 AND git_commit = ?2 AND dtype = ?3 AND dist = ?4 AND seed = ?5 "
                   "AND n = ?6 AND k = ?7 AND timing = ?8 AND " USABLE " AND " FORCED_PLAN " "
                   "ORDER BY median_ms, id LIMIT 1", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_text(st, 2, git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, point->dtype, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, point->dist, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 5, (int64_t)point->seed);
    sqlite3_bind_int64(st, 6, (int64_t)point->n);
    sqlite3_bind_int64(st, 7, (int64_t)point->k);
    sqlite3_bind_text(st, 8, timing, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *best = *point;
        column_text(st, 0, best->algorithm, sizeof best->algorithm);
        column_text(st, 1, best->first_algo, sizeof best->first_algo);
        column_text(st, 2, best->second_algo, sizeof best->second_algo);
        best->alpha = sqlite3_column_int(st, 3);
        best->beta = sqlite3_column_int(st, 4);
        best->flags = (unsigned)sqlite3_column_int64(st, 5);
        *ms = sqlite3_column_double(st, 6);
        *found = 1;
    }
    sqlite3_finalize(st);
    return (rc == SQLITE_ROW || rc == SQLITE_DONE) ? DRTOPK_OK : fail(s, "reading the fastest forced plan");
}

drtopk_status drtopk_store_each_regret(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                       const char *label, int (*cb)(const drtopk_store_regret *r, void *ctx),
                                       void *ctx)
{
    /* a: the latest usable row of the label per point; r: the latest usable
     * reference row (the fastest forced plan timed beside a); f: the fastest
     * usable forced plan per point of a (ties: the first stored), where r is
     * missing */
    static const char sql[] =
        "WITH a AS (SELECT * FROM (SELECT m.*, row_number() OVER (PARTITION BY dtype, dist, seed, n, k "
        "                                                       ORDER BY measured_at DESC, id DESC) AS rn "
        "                         FROM measurements m WHERE machine_id = ?1 AND git_commit = ?2 "
        "                         AND algorithm = ?3 AND " USABLE ") WHERE rn = 1), "
        "r AS (SELECT * FROM (SELECT m.*, row_number() OVER (PARTITION BY dtype, dist, seed, n, k "
        "                                                  ORDER BY measured_at DESC, id DESC) AS rn "
        "                     FROM measurements m WHERE machine_id = ?1 AND git_commit = ?2 "
        "                     AND algorithm = ?3 || '" DRTOPK_STORE_REF_SUFFIX "' AND " USABLE ") WHERE rn = 1), "
        "f AS (SELECT * FROM (SELECT m.*, row_number() OVER (PARTITION BY dtype, dist, seed, n, k "
        "                                                  ORDER BY median_ms, id) AS rn "
        "                     FROM measurements m WHERE machine_id = ?1 AND git_commit = ?2 AND " USABLE
        "                     AND " FORCED_PLAN " AND EXISTS (SELECT 1 FROM a WHERE a.dtype = m.dtype "
        "                     AND a.dist = m.dist AND a.seed = m.seed AND a.n = m.n AND a.k = m.k)) WHERE rn = 1), "
        "b AS (SELECT a.dtype, a.dist, a.seed, a.n, a.k, "
        "             CASE WHEN r.id IS NOT NULL THEN CASE WHEN r.flags & ?4 THEN 'dr-' ELSE '' END || r.second_algo "
        "                  ELSE f.algorithm END AS algorithm, "
        "             coalesce(r.alpha, f.alpha) AS alpha, coalesce(r.beta, f.beta) AS beta, "
        "             coalesce(r.flags, f.flags) AS flags, coalesce(r.median_ms, f.median_ms) AS median_ms "
        "      FROM a LEFT JOIN r ON r.dtype = a.dtype AND r.dist = a.dist AND r.seed = a.seed AND r.n = a.n "
        "                        AND r.k = a.k "
        "             LEFT JOIN f ON f.dtype = a.dtype AND f.dist = a.dist AND f.seed = a.seed AND f.n = a.n "
        "                        AND f.k = a.k) "
        "SELECT a.dtype, a.dist, a.seed, a.n, a.k, "
        "       CASE WHEN a.flags & ?4 THEN 'dr-' ELSE '' END || a.second_algo, a.alpha, a.beta, a.flags, "
        "       a.median_ms, b.algorithm IS NOT NULL, b.algorithm, b.alpha, b.beta, b.flags, b.median_ms, "
        "       a.median_ms / min(a.median_ms, coalesce(b.median_ms, a.median_ms)) "
        "FROM a JOIN b ON b.dtype = a.dtype AND b.dist = a.dist AND b.seed = a.seed AND b.n = a.n AND b.k = a.k "
        "ORDER BY a.dtype, a.dist, a.seed, a.n, a.k";
    sqlite3_stmt *st;
    if (prepare(s, sql, &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_text(st, 2, git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, label, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 4, DRTOPK_DELEGATE);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        drtopk_store_regret r;
        memset(&r, 0, sizeof r);
        column_text(st, 0, r.dtype, sizeof r.dtype);
        column_text(st, 1, r.dist, sizeof r.dist);
        r.seed = (uint64_t)sqlite3_column_int64(st, 2);
        r.n = (uint64_t)sqlite3_column_int64(st, 3);
        r.k = (uint64_t)sqlite3_column_int64(st, 4);
        column_text(st, 5, r.auto_algorithm, sizeof r.auto_algorithm);
        r.auto_alpha = sqlite3_column_int(st, 6);
        r.auto_beta = sqlite3_column_int(st, 7);
        r.auto_flags = (unsigned)sqlite3_column_int64(st, 8);
        r.auto_ms = sqlite3_column_double(st, 9);
        r.has_best = sqlite3_column_int(st, 10);
        column_text(st, 11, r.best_algorithm, sizeof r.best_algorithm);
        r.best_alpha = sqlite3_column_int(st, 12);
        r.best_beta = sqlite3_column_int(st, 13);
        r.best_flags = (unsigned)sqlite3_column_int64(st, 14);
        r.best_ms = sqlite3_column_double(st, 15);
        r.regret = sqlite3_column_double(st, 16);
        if (cb(&r, ctx)) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? DRTOPK_OK : fail(s, "reading the regret of the automatic plan");
}

drtopk_status drtopk_store_each_tuned_gpu(drtopk_store *s, int (*fn)(const char *name, void *ctx), void *ctx)
{
    sqlite3_stmt *st;
    if (s->version < DECISION_TABLE_SINCE_VERSION)
        return DRTOPK_OK;           /* no checked decision table before it */
    if (prepare(s, "SELECT DISTINCT m.name FROM machines m WHERE m.backend = 'cuda' AND EXISTS "
                   "(SELECT 1 FROM choices c WHERE c.machine_id = m.id AND c.status <> 'unchecked') "
                   "ORDER BY m.name", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (fn((const char *)sqlite3_column_text(st, 0), ctx) != 0) {
            rc = SQLITE_DONE;
            break;
        }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? DRTOPK_OK : fail(s, "listing the tuned GPUs");
}

/* ---- the modern peers ------------------------------------------------------ */

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
                   "verified, timing, measured_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                   "?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) "
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
    sqlite3_bind_text(st, 19, p->timing ? p->timing : "call", -1, SQLITE_TRANSIENT);
    drtopk_status r = step_done(s, st, "storing a peer measurement", NULL);
    if (r == DRTOPK_OK && added)
        *added = sqlite3_changes(s->db) > 0;
    return r;
}

drtopk_status drtopk_store_put_multi(drtopk_store *s, int64_t machine_id, int64_t run_id,
                                     const char *git_commit, const drtopk_store_multi *m)
{
    sqlite3_stmt *st;
    const drtopk_store_config *c = &m->cfg;
    if (prepare(s, "INSERT OR REPLACE INTO multi_gpu (machine_id, run_id, git_commit, algorithm, first_algo, "
                   "second_algo, dtype, dist, seed, n, k, alpha, beta, flags, sort_order, ranks, gpus, "
                   "device_cap, out_of_core, chunks, filtered, reps, total_ms, compute_ms, reload_ms, comm_ms, "
                   "reps_ms, verified, verify_ok, link_gbps, measured_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
                   "?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, "
                   "?27, ?28, ?29, ?30, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_int64(st, 2, run_id);
    sqlite3_bind_text(st, 3, git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, c->algorithm, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, c->first_algo, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 6, c->second_algo, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 7, c->dtype, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 8, c->dist, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 9, (int64_t)c->seed);
    sqlite3_bind_int64(st, 10, (int64_t)c->n);
    sqlite3_bind_int64(st, 11, (int64_t)c->k);
    sqlite3_bind_int(st, 12, c->alpha);
    sqlite3_bind_int(st, 13, c->beta);
    sqlite3_bind_int64(st, 14, (int64_t)c->flags);
    sqlite3_bind_text(st, 15, c->order, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 16, m->ranks);
    sqlite3_bind_int(st, 17, m->gpus);
    sqlite3_bind_int64(st, 18, (int64_t)m->device_cap);
    sqlite3_bind_int(st, 19, m->out_of_core != 0);
    sqlite3_bind_int64(st, 20, (int64_t)m->chunks);
    sqlite3_bind_int64(st, 21, (int64_t)m->filtered);
    sqlite3_bind_int(st, 22, m->reps);
    sqlite3_bind_double(st, 23, m->total_ms);
    sqlite3_bind_double(st, 24, m->compute_ms);
    sqlite3_bind_double(st, 25, m->reload_ms);
    sqlite3_bind_double(st, 26, m->comm_ms);
    sqlite3_bind_text(st, 27, m->reps_ms, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 28, m->verified != 0);
    if (m->verified) sqlite3_bind_int(st, 29, m->verify_ok != 0);
    bind_pos_double(st, 30, m->link_gbps);
    return step_done(s, st, "storing a multi-GPU run", NULL);
}

drtopk_status drtopk_store_put_counter(drtopk_store *s, int64_t machine_id, int64_t run_id,
                                       const char *git_commit, const drtopk_store_counter *c)
{
    sqlite3_stmt *st;
    if (prepare(s, "INSERT OR REPLACE INTO counters (machine_id, git_commit, algorithm, first_algo, second_algo, "
                   "dtype, dist, seed, n, k, alpha, beta, flags, sort_order, source, counter, value, kernels, "
                   "tool_version, run_id, measured_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
                   "?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    bind_key(st, machine_id, git_commit, &c->cfg);
    sqlite3_bind_text(st, 15, c->source, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 16, c->counter, -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(st, 17, c->value);
    if (c->kernels >= 0)
        sqlite3_bind_int64(st, 18, c->kernels);
    sqlite3_bind_text(st, 19, c->tool_version, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 20, run_id);
    return step_done(s, st, "storing a counter", NULL);
}

drtopk_status drtopk_store_has_counter(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                       const drtopk_store_config *cfg, const char *source, const char *counter,
                                       int *found)
{
    sqlite3_stmt *st;
    if (prepare(s, "SELECT count(*) FROM counters WHERE " KEY_WHERE " AND source = ?15 AND counter = ?16",
                &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    bind_key(st, machine_id, git_commit, cfg);
    sqlite3_bind_text(st, 15, source, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 16, counter, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *found = sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? DRTOPK_OK : fail(s, "looking up a counter");
}

/* ---- the batched top-k's crossovers ----------------------------------------- */

#define BATCH_KEY_WHERE                                                                \
    "machine_id = ?1 AND git_commit = ?2 AND crossover = ?3 AND candidate = ?4 AND dtype = ?5 AND " \
    "segs = ?6 AND seed = ?7 AND rows = ?8 AND len = ?9 AND k = ?10"

static void bind_batch_key(sqlite3_stmt *st, int64_t machine_id, const char *git_commit,
                           const drtopk_store_batch_key *k)
{
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_text(st, 2, git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, k->crossover, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, k->candidate, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, k->dtype, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 6, k->segs, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 7, (sqlite3_int64)k->seed);
    sqlite3_bind_int64(st, 8, (sqlite3_int64)k->rows);
    sqlite3_bind_int64(st, 9, (sqlite3_int64)k->len);
    sqlite3_bind_int64(st, 10, (sqlite3_int64)k->k);
}

drtopk_status drtopk_store_put_batch(drtopk_store *s, int64_t machine_id, int64_t run_id, const char *git_commit,
                                     const drtopk_store_batch_row *r)
{
    sqlite3_stmt *st;
    if (prepare(s, "INSERT OR REPLACE INTO batch_measurements (machine_id, git_commit, crossover, candidate, "
                   "dtype, segs, seed, rows, len, k, status, error, reps, median_ms, verified, verify_ok, run_id, "
                   "timing, measured_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
                   "?16, ?17, ?18, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    bind_batch_key(st, machine_id, git_commit, &r->key);
    sqlite3_bind_text(st, 11, r->ok ? "ok" : "error", -1, SQLITE_STATIC);
    if (!r->ok) sqlite3_bind_text(st, 12, r->error, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 13, r->reps);
    if (r->ok) sqlite3_bind_double(st, 14, r->median_ms);
    sqlite3_bind_int(st, 15, r->verified != 0);
    if (r->verified) sqlite3_bind_int(st, 16, r->verify_ok != 0);
    sqlite3_bind_int64(st, 17, run_id);
    sqlite3_bind_text(st, 18, r->timing ? r->timing : "call", -1, SQLITE_TRANSIENT);
    return step_done(s, st, "storing a batched measurement", NULL);
}

drtopk_status drtopk_store_has_batch(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                     const drtopk_store_batch_key *key, int *found)
{
    sqlite3_stmt *st;
    if (prepare(s, "SELECT count(*) FROM batch_measurements WHERE " BATCH_KEY_WHERE, &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    bind_batch_key(st, machine_id, git_commit, key);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *found = sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? DRTOPK_OK : fail(s, "looking up a batched measurement");
}

static void text_col(sqlite3_stmt *st, int col, char *out, size_t len)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(out, len, "%s", t ? (const char *)t : "");
}

drtopk_status drtopk_store_each_batch_source(drtopk_store *s,
                                             int (*fn)(int64_t machine_id, const char *git_commit, const char *gpu,
                                                       void *ctx), void *ctx)
{
    sqlite3_stmt *st;
    if (prepare(s, "SELECT DISTINCT b.machine_id, b.git_commit, m.name FROM batch_measurements b "
                   "JOIN machines m ON m.id = b.machine_id ORDER BY 1, 2", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (fn(sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1),
               (const char *)sqlite3_column_text(st, 2), ctx)) {
            rc = SQLITE_DONE;
            break;
        }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? DRTOPK_OK : fail(s, "reading the batch measurements");
}

drtopk_status drtopk_store_each_batch(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                      int (*fn)(const drtopk_store_batch_row *r, void *ctx), void *ctx)
{
    sqlite3_stmt *st;
    if (prepare(s, "SELECT crossover, candidate, dtype, segs, seed, rows, len, k, reps, median_ms, verified, "
                   "coalesce(verify_ok, 0) FROM batch_measurements WHERE machine_id = ?1 AND git_commit = ?2 "
                   "AND status = 'ok' ORDER BY crossover, dtype, segs, rows, len, k, candidate", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_text(st, 2, git_commit, -1, SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        drtopk_store_batch_row r;
        memset(&r, 0, sizeof r);
        text_col(st, 0, r.key.crossover, sizeof r.key.crossover);
        text_col(st, 1, r.key.candidate, sizeof r.key.candidate);
        text_col(st, 2, r.key.dtype, sizeof r.key.dtype);
        text_col(st, 3, r.key.segs, sizeof r.key.segs);
        r.key.seed = (uint64_t)sqlite3_column_int64(st, 4);
        r.key.rows = (uint64_t)sqlite3_column_int64(st, 5);
        r.key.len = (uint64_t)sqlite3_column_int64(st, 6);
        r.key.k = (uint64_t)sqlite3_column_int64(st, 7);
        r.ok = 1;
        r.reps = sqlite3_column_int(st, 8);
        r.median_ms = sqlite3_column_double(st, 9);
        r.verified = sqlite3_column_int(st, 10);
        r.verify_ok = sqlite3_column_int(st, 11);
        if (fn(&r, ctx)) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? DRTOPK_OK : fail(s, "reading batched measurements");
}

drtopk_status drtopk_store_put_batch_choice(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                            const char *field, uint64_t value, int points)
{
    sqlite3_stmt *st;
    if (prepare(s, "INSERT OR REPLACE INTO batch_choices (machine_id, git_commit, field, value, points, decided_at) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_text(st, 2, git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, field, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)value);
    sqlite3_bind_int(st, 5, points);
    return step_done(s, st, "storing a batch choice", NULL);
}

drtopk_status drtopk_store_each_batch_choice(drtopk_store *s,
                                             int (*fn)(const char *gpu, const char *field, uint64_t value,
                                                       void *ctx), void *ctx)
{
    sqlite3_stmt *st;
    int has = 0;
    if (table_exists(s->db, "batch_choices", &has) != SQLITE_OK) return fail(s, "reading the batch choices");
    if (!has) return DRTOPK_OK;     /* a read-only database of an older schema */
    /* per GPU model the (machine, commit) decided last; ties by commit text, so the order is fixed */
    if (prepare(s, "WITH latest AS (SELECT m.name AS name, c.machine_id AS mid, c.git_commit AS gc, "
                   "row_number() OVER (PARTITION BY m.name ORDER BY max(c.decided_at) DESC, m.uuid, c.git_commit) "
                   "AS r FROM batch_choices c JOIN machines m ON m.id = c.machine_id WHERE m.backend = 'cuda' "
                   "GROUP BY m.name, m.uuid, c.machine_id, c.git_commit) "
                   "SELECT l.name, c.field, c.value FROM latest l JOIN batch_choices c ON c.machine_id = l.mid AND "
                   "c.git_commit = l.gc WHERE l.r = 1 ORDER BY l.name, c.field", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (fn((const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1),
               (uint64_t)sqlite3_column_int64(st, 2), ctx)) {
            rc = SQLITE_DONE;
            break;
        }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? DRTOPK_OK : fail(s, "reading the batch choices");
}

/* ---- the tuning of a machine, for drtopk_plan_auto ------------------------ */

#define TUNING_LOG2_MAX 63          /* a catch-all's log2 n / log2 k range: 0..63 */
#define TUNING_LOG2_MAX_STR "63"
#define CHOICES_SINCE_VERSION 2     /* the schema version that added choices      */

/* The machine the tuning comes from: the one with this uuid if it has fits or
 * choices, else, among the machines of this name, one whose sweep measured
 * onepass and fused (the plans the size rules choose beside the pipeline: a
 * table from an older sweep never decided against them), the most recently
 * tuned of those (such a table stores only the cells that beat the default
 * plan, so its size says nothing of the sweep's); without one, the machine
 * with the most decision cells (a quick sweep on another card does not
 * replace a full one), the most recently tuned among equals. */
static drtopk_status tuned_machine(drtopk_store *s, const char *uuid, const char *name, int64_t *id,
                                   drtopk_store_tuning *t, int *found)
{
    sqlite3_stmt *st;
    *found = 0;
    if (prepare(s, "SELECT id, uuid, name FROM (SELECT m.id, m.uuid, m.name, (m.uuid = ?1) AS own, "
                   "((SELECT count(DISTINCT algorithm) FROM measurements x WHERE x.machine_id = m.id "
                   "AND x.status = 'ok' AND x.algorithm IN ('onepass', 'fused')) = 2) AS contenders, "
                   "(SELECT count(*) FROM choices c WHERE c.machine_id = m.id) AS cells, "
                   "max(coalesce((SELECT max(fitted_at) FROM fits WHERE machine_id = m.id), ''), "
                   "coalesce((SELECT max(fitted_at) FROM choices WHERE machine_id = m.id), '')) AS tuned_at "
                   "FROM machines m WHERE (m.uuid = ?1 OR (?2 IS NOT NULL AND m.name = ?2)) "
                   "AND (EXISTS (SELECT 1 FROM fits f WHERE f.machine_id = m.id) "
                   "OR EXISTS (SELECT 1 FROM choices c WHERE c.machine_id = m.id))) "
                   "ORDER BY own DESC, contenders DESC, CASE WHEN contenders THEN 0 ELSE cells END DESC, "
                   "tuned_at DESC, id DESC LIMIT 1", &st) != DRTOPK_OK)
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

/* *found: whether machine id measured the forced standalone onepass on dtype
 * dt (status ok, any commit). */
static drtopk_status measured_onepass(drtopk_store *s, int64_t id, const char *dt, int *found)
{
    sqlite3_stmt *st;
    if (prepare(s, "SELECT count(*) FROM measurements WHERE machine_id = ?1 AND dtype = ?2 AND algorithm = ?3 "
                   "AND status = 'ok'", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, dt, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, drtopk_algo_name(DRTOPK_ALGO_ONEPASS), -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *found = sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? DRTOPK_OK : fail(s, "looking up the onepass measurements");
}

/* floor(log2 n) of the smallest n at which machine id measured (status ok) the
 * variant (algorithm, beta) of dtype dt at commit, on a generated
 * distribution (a real data set's rows are no fit points); *found = 0 when
 * there is none. */
static drtopk_status fit_min_log2n(drtopk_store *s, int64_t id, const char *dt, const char *commit,
                                   const char *algorithm, int beta, int *log2n, int *found)
{
    sqlite3_stmt *st;
    *found = 0;
    if (prepare(s, "SELECT dist, min(n) FROM measurements WHERE machine_id = ?1 AND dtype = ?2 AND git_commit = ?3 "
                   "AND algorithm = ?4 AND beta = ?5 AND status = 'ok' GROUP BY dist", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, dt, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, algorithm, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 5, beta);
    uint64_t least = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        drtopk_dist d;
        const char *dist = (const char *)sqlite3_column_text(st, 0);
        const uint64_t n = (uint64_t)sqlite3_column_int64(st, 1);
        if (dist && drtopk_dist_parse(dist, &d) == DRTOPK_OK && n > 0 && (least == 0 || n < least))
            least = n;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return fail(s, "reading the sizes the Rule 4 fit measured");
    if (least > 0) {
        *log2n = drtopk_ilog2_floor(least);
        *found = 1;
    }
    return DRTOPK_OK;
}

/* Dtype t's catch-all after its decision table: Rule 4 with the fitted
 * const of plan_auto's default plan (the fit of the beta nearest its beta),
 * beta and algorithm, for every k and for n from the smallest that fit
 * measured up (below it the library's small-input rules stand).  None
 * without such a fit or measurement, and none when the machine measured
 * onepass on t: the decision table then chooses between the pipeline and
 * onepass, and outside it the library's size rules (onepass for large
 * inputs) apply. */
static drtopk_status catch_all(drtopk_store *s, int64_t id, drtopk_dtype t, drtopk_store_tuning *out, size_t *cap)
{
    const char *dt = drtopk_dtype_name(t);
    int onepass = 0;
    drtopk_status r = measured_onepass(s, id, dt, &onepass);
    if (r != DRTOPK_OK || onepass)
        return r;
    sqlite3_stmt *st;
    if (prepare(s, "SELECT const_time, beta, git_commit FROM fits WHERE machine_id = ?1 AND dtype = ?2 "
                   "AND algorithm = ?3 ORDER BY abs(beta - ?4), fitted_at DESC LIMIT 1", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, dt, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, PLAN_AUTO_ALGORITHM, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, PLAN_AUTO_BETA);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        return rc == SQLITE_DONE ? DRTOPK_OK : fail(s, "reading the Rule 4 fit");
    }
    drtopk_tuning_entry e = { .dtype = t, .log2n_max = TUNING_LOG2_MAX, .log2k_min = 0,
                              .log2k_max = TUNING_LOG2_MAX, .algo = DRTOPK_ALGO_RADIX, .beta = PLAN_AUTO_BETA,
                              .rule4_const = sqlite3_column_double(st, 0) };
    const char *commit = (const char *)sqlite3_column_text(st, 2);     /* valid until st is finalized */
    int found = 0;
    r = fit_min_log2n(s, id, dt, commit ? commit : "", PLAN_AUTO_ALGORITHM, sqlite3_column_int(st, 1),
                      &e.log2n_min, &found);
    sqlite3_finalize(st);
    if (r == DRTOPK_OK && found && isfinite(e.rule4_const))
        r = tuning_add(out, cap, &e);
    return r;
}

/* Dtype t's entries: the tuner's decision table without its dropped cells
 * (there the library's plan without a table runs), then catch_all's entry if
 * any.  A choice plan_auto cannot
 * express (a standalone algorithm other than onepass and fused, whose
 * entries give standalone plans) or with a value out of range is left out,
 * so its cell falls through to the catch-all or the library's rules. */
static drtopk_status tuning_dtype(drtopk_store *s, int64_t id, drtopk_dtype t, drtopk_store_tuning *out,
                                  size_t *cap)
{
    sqlite3_stmt *st;
    drtopk_status r;
    const char *dt = drtopk_dtype_name(t);
    int rc = SQLITE_DONE;
    r = DRTOPK_OK;
    /* read-only: an older schema as it is (its per-k-range choices hold for any n) */
    int cells = s->version >= DECISION_TABLE_SINCE_VERSION;
    if (s->version >= CHOICES_SINCE_VERSION) {
        if (prepare(s, cells ? "SELECT log2n_min, log2n_max, log2k_min, log2k_max, algorithm, beta, rule4_const, "
                               "shared_build_max_alpha, status = 'dropped' FROM choices WHERE machine_id = ?1 "
                               "AND dtype = ?2 ORDER BY log2n_min, log2k_min"
                             : "SELECT 0, " TUNING_LOG2_MAX_STR ", log2k_min, log2k_max, algorithm, beta, "
                               "rule4_const, 0, 0 FROM choices WHERE machine_id = ?1 AND dtype = ?2 "
                               "ORDER BY log2k_min", &st) != DRTOPK_OK)
            return DRTOPK_ERR_IO;
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_text(st, 2, dt, -1, SQLITE_STATIC);
        while (r == DRTOPK_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
            drtopk_tuning_entry e = { .dtype = t, .log2n_min = sqlite3_column_int(st, 0),
                                      .log2n_max = sqlite3_column_int(st, 1),
                                      .log2k_min = sqlite3_column_int(st, 2),
                                      .log2k_max = sqlite3_column_int(st, 3),
                                      .beta = sqlite3_column_int(st, 5),
                                      .rule4_const = sqlite3_column_double(st, 6),
                                      .shared_build_max_alpha = sqlite3_column_int(st, 7) };
            const char *algo = (const char *)sqlite3_column_text(st, 4);
            int delegate = 0;
            if (sqlite3_column_int(st, 8)) {
                continue;       /* dropped: the cell runs what the library runs without it */
            } else if (algo && drtopk_algo_parse(algo, &e.algo, &delegate) == DRTOPK_OK && !delegate &&
                       (e.algo == DRTOPK_ALGO_ONEPASS || e.algo == DRTOPK_ALGO_FUSED)) {
                /* the one-read and the fused small-input top-k: standalone plans, which have
                 * no beta, const or build */
                e.beta = PLAN_AUTO_BETA;
                e.rule4_const = DRTOPK_RULE4_CONST_DEFAULT;
                e.shared_build_max_alpha = 0;
                r = tuning_add(out, cap, &e);
            } else if (algo && drtopk_algo_parse(algo, &e.algo, &delegate) == DRTOPK_OK && delegate &&
                       e.beta >= 1 && e.beta <= DRTOPK_BETA_MAX && isfinite(e.rule4_const) &&
                       e.shared_build_max_alpha >= 0 &&
                       e.shared_build_max_alpha <= DRTOPK_SHARED_DELEGATE_MAX_ALPHA) {
                r = tuning_add(out, cap, &e);
            }
    }
    sqlite3_finalize(st);
    }
    if (r != DRTOPK_OK)
        return r;
    if (rc != SQLITE_DONE)
        return fail(s, "reading the plan choices");
    return catch_all(s, id, t, out, cap);
}

/* The algorithms of the forced plans (pipeline or standalone) measured on
 * machine id with status 'ok', as drtopk_tuning.algos_measured: the plans its
 * tuning decided among.
 * A name the library does not parse (an older or newer one) is left out. */
static drtopk_status tuning_algos_measured(drtopk_store *s, int64_t id, uint32_t *mask)
{
    sqlite3_stmt *st;
    int rc;
    drtopk_algo a;
    int delegate;
    *mask = 0;
    if (prepare(s, "SELECT DISTINCT algorithm FROM measurements WHERE machine_id = ?1 AND status = 'ok' AND "
                   FORCED_PLAN, &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *algo = (const char *)sqlite3_column_text(st, 0);
        if (algo && drtopk_algo_parse(algo, &a, &delegate) == DRTOPK_OK)
            *mask |= UINT32_C(1) << a;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? DRTOPK_OK : fail(s, "reading the measured algorithms");
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
    struct stat sb;
    if (stat(path, &sb) != 0) {
        if (errno == ENOENT)
            return DRTOPK_OK;       /* no database yet: nothing tuned */
        set_err(err, err_len, "cannot access %s: %s", path, strerror(errno));
        return DRTOPK_ERR_IO;
    }
    drtopk_status r = drtopk_store_open(path, DRTOPK_STORE_READONLY, &s, err, err_len);
    if (r != DRTOPK_OK)
        return r;
    r = tuned_machine(s, uuid, name, &id, out, &found);
    for (int t = 0; r == DRTOPK_OK && found && t < DRTOPK_DTYPE_COUNT; ++t)
        r = tuning_dtype(s, id, (drtopk_dtype)t, out, &cap);
    if (r == DRTOPK_OK && found)
        r = tuning_algos_measured(s, id, &out->table.algos_measured);
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
    "scanned_subranges, verified, verify_ok, verify_error, timing, rule4_alpha, rule4_flags, measured_at"
#define FIT_COLS                                                                       \
    "git_commit, dtype, algorithm, beta, const_time, const_lsq, const_theory, mean_slowdown, " \
    "worst_slowdown, points, fitted_at"
#define CHOICE_COLS                                                                    \
    "git_commit, dtype, log2n_min, log2n_max, log2k_min, log2k_max, algorithm, beta, rule4_const, " \
    "shared_build_max_alpha, mean_slowdown, worst_slowdown, points, status, fitted_at"
#define CHECK_COLS                                                                     \
    "git_commit, kind, dtype, dist, seed, n, k, tuned_algorithm, tuned_alpha, tuned_beta, tuned_flags, " \
    "default_alpha, default_beta, default_flags, default_ms_a, default_ms_b, tuned_ms_a, tuned_ms_b, " \
    "best_ms, best_config, checked_at"
#define PEER_COLS                                                                      \
    "git_commit, peer, peer_version, dist, dtype, seed, n, k, status, reason, reps, median_ms, " \
    "min_ms, max_ms, reps_ms, verified, timing, measured_at"
#define MULTI_COLS                                                                     \
    "git_commit, algorithm, first_algo, second_algo, dtype, dist, seed, n, k, alpha, beta, flags, " \
    "sort_order, ranks, gpus, device_cap, out_of_core, chunks, filtered, reps, total_ms, compute_ms, " \
    "reload_ms, comm_ms, link_gbps, reps_ms, verified, verify_ok, measured_at"
#define COUNTER_COLS                                                                   \
    "git_commit, algorithm, first_algo, second_algo, dtype, dist, seed, n, k, alpha, beta, flags, sort_order, " \
    "source, counter, value, kernels, tool_version, measured_at"
#define BATCH_COLS                                                                     \
    "git_commit, crossover, candidate, dtype, segs, seed, rows, len, k, status, error, reps, median_ms, " \
    "verified, verify_ok, timing, measured_at"
#define BATCH_CHOICE_COLS "git_commit, field, value, points, decided_at"
#define MACHINE_COLS                                                                   \
    "uuid, name, backend, cc_major, cc_minor, sm_count, mem_bytes, l2_bytes, read_gbps, " \
    "driver_version, runtime_version, first_seen, c_global, c_shfl"
#define RUN_COLS                                                                       \
    "run_uuid, program, argv, git_commit, started_at, ended_at, status, pid, host"

/* What a column an older source lacks stands for, where NULL would break a
 * NOT NULL column: choices before the decision table held for every n. */
static const struct {
    const char *table, *col, *value;
} missing_defaults[] = {
    { "choices", "log2n_min", "0" },
    { "choices", "log2n_max", TUNING_LOG2_MAX_STR },
    { "choices", "shared_build_max_alpha", "0" },
    { "choices", "worst_slowdown", "x.mean_slowdown" },
    { "choices", "status", "'unchecked'" },
    { "measurements", "timing", "'call'" },         /* before migration 8: events around the call */
    { "measurements", "rule4_alpha", "0" },         /* before migration 11: derived after the merge */
    { "measurements", "rule4_flags", "0" },
    { "peer_measurements", "timing", "'call'" },
    { "batch_measurements", "timing", "'call'" },   /* before migration 10 */
};

/* "x.<col>, ..." for a column list, with NULL (or its missing_defaults
 * value) for each column the attached source's table lacks (an older
 * schema, read as it is). */
static drtopk_status source_cols(drtopk_store *s, const char *table, const char *prefix, const char *cols,
                                 char *out, size_t len)
{
    sqlite3_stmt *st;
    if (prepare(s, "SELECT count(*) FROM pragma_table_info(?1, 'other') WHERE name = ?2", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    size_t at = 0;
    const char *p = cols;
    drtopk_status r = DRTOPK_OK;
    out[0] = 0;
    while (*p && r == DRTOPK_OK) {
        while (*p == ' ' || *p == ',')
            ++p;
        size_t w = strcspn(p, ", ");
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, p, (int)w, SQLITE_TRANSIENT);
        int have = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
        const char *missing = "NULL";
        for (size_t d = 0; !have && d < sizeof missing_defaults / sizeof missing_defaults[0]; ++d)
            if (!strcmp(missing_defaults[d].table, table) && strlen(missing_defaults[d].col) == w &&
                !strncmp(missing_defaults[d].col, p, w))
                missing = missing_defaults[d].value;
        int n = have ? snprintf(out + at, len - at, "%s%s.%.*s", at ? ", " : "", prefix, (int)w, p)
                     : snprintf(out + at, len - at, "%s%s", at ? ", " : "", missing);
        if (n < 0 || (size_t)n >= len - at) {
            set_err(s->err, sizeof s->err, "merge: the column list of %s does not fit", table);
            r = DRTOPK_ERR_IO;
        } else {
            at += (size_t)n;
        }
        p += w;
    }
    sqlite3_finalize(st);
    return r;
}

static drtopk_status merge_step(drtopk_store *s, const char *sql, int *added)
{
    if (exec(s, sql) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    *added = sqlite3_changes(s->db);
    return DRTOPK_OK;
}

/* Refuse what a merge cannot read: this database itself (the merge would
 * wait on its own lock), an empty file, a file that is not a drtopk database
 * (read-only, never migrated). */
static drtopk_status merge_source_ok(drtopk_store *s, const char *other_path, int *uri_mode)
{
    struct stat a, b;
    const char *self = sqlite3_db_filename(s->db, "main");
    if (self && *self && stat(self, &a) == 0 && stat(other_path, &b) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino) {
        set_err(s->err, sizeof s->err, "merge: %s is this database itself (--db); name another database",
                other_path);
        return DRTOPK_ERR_INVALID_ARGUMENT;
    }
    drtopk_store *o;
    char err[DRTOPK_STORE_ERR_LEN];
    if (drtopk_store_open(other_path, DRTOPK_STORE_READONLY, &o, err, sizeof err) != DRTOPK_OK) {
        set_err(s->err, sizeof s->err, "merge: %s", err);
        return DRTOPK_ERR_IO;
    }
    int version = o->version;
    *uri_mode = o->uri_mode;
    drtopk_store_close(o);
    if (version == 0) {
        set_err(s->err, sizeof s->err, "merge: %s is empty, not a drtopk database", other_path);
        return DRTOPK_ERR_IO;
    }
    return DRTOPK_OK;
}

drtopk_status drtopk_store_merge(drtopk_store *s, const char *other_path,
                                 drtopk_store_merge_stats *stats)
{
    drtopk_store_merge_stats zero = {0};
    drtopk_store_merge_stats *st = stats ? stats : &zero;
    *st = zero;
    int uri_mode = URI_READONLY;
    drtopk_status r = merge_source_ok(s, other_path, &uri_mode);
    if (r != DRTOPK_OK)
        return r;
    char uri[URI_MAX];
    sqlite3_stmt *at;
    if (path_uri(other_path, uri_mode, uri, sizeof uri) != 0) {
        set_err(s->err, sizeof s->err, "merge: path too long: %s", other_path);
        return DRTOPK_ERR_IO;
    }
    if (prepare(s, "ATTACH DATABASE ? AS other", &at) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_text(at, 1, uri, -1, SQLITE_TRANSIENT);
    if (step_done(s, at, "attaching the other database", NULL) != DRTOPK_OK)
        return DRTOPK_ERR_IO;

    enum { SQL_LEN = 4096, COLS_LEN = 1024 };
    char sql[SQL_LEN], cols[COLS_LEN];
    r = drtopk_store_begin(s);
    if (r == DRTOPK_OK)
        r = source_cols(s, "machines", "x", MACHINE_COLS, cols, sizeof cols);
    if (r == DRTOPK_OK) {
        snprintf(sql, sizeof sql, "INSERT INTO main.machines (" MACHINE_COLS ") SELECT %s FROM other.machines x "
                 "WHERE x.uuid NOT IN (SELECT uuid FROM main.machines)", cols);
        r = merge_step(s, sql, &st->machines_added);
    }
    if (r == DRTOPK_OK)
        r = source_cols(s, "runs", "r", RUN_COLS, cols, sizeof cols);
    if (r == DRTOPK_OK) {
        snprintf(sql, sizeof sql, "INSERT INTO main.runs (machine_id, " RUN_COLS ") SELECT mm.id, %s "
                 "FROM other.runs r JOIN other.machines om ON om.id = r.machine_id "
                 "JOIN main.machines mm ON mm.uuid = om.uuid "
                 "WHERE r.run_uuid NOT IN (SELECT run_uuid FROM main.runs)", cols);
        r = merge_step(s, sql, &st->runs_added);
    }
    /* The per-machine tables, matched to main's machine (and run) ids; each
     * table's UNIQUE key drops what main already has.  A table the source's
     * schema version does not have yet adds nothing. */
    const struct {
        const char *table, *cols;
        int with_run;
        int *added;
    } tables[] = {
        { "measurements", MEAS_COLS, 1, &st->measurements_added },
        { "fits", FIT_COLS, 0, &st->fits_added },
        { "choices", CHOICE_COLS, 0, &st->choices_added },
        { "checks", CHECK_COLS, 0, &st->checks_added },
        { "peer_measurements", PEER_COLS, 1, &st->peers_added },
        { "multi_gpu", MULTI_COLS, 1, &st->multi_added },
        { "counters", COUNTER_COLS, 1, &st->counters_added },
        { "batch_measurements", BATCH_COLS, 1, &st->batch_added },
        { "batch_choices", BATCH_CHOICE_COLS, 0, &st->batch_choices_added },
    };
    for (size_t i = 0; i < sizeof tables / sizeof tables[0] && r == DRTOPK_OK; ++i) {
        int exists = 0;
        snprintf(sql, sizeof sql, "SELECT count(*) FROM other.sqlite_master WHERE type = 'table' AND name = '%s'",
                 tables[i].table);
        if (single_int(s->db, sql, &exists) != SQLITE_OK) {
            r = fail(s, "merge: reading the other database's tables");
            break;
        }
        if (!exists)
            continue;
        r = source_cols(s, tables[i].table, "x", tables[i].cols, cols, sizeof cols);
        if (r != DRTOPK_OK)
            break;
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
        r = derive_rule4(s);
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
