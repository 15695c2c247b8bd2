/*
 * store_sql.c -- the statement helpers every file of the SQLite results store
 * shares (store_internal.h), beneath them all: messages of a failed step with
 * SQLite's and the OS's reason, executing, preparing and stepping statements,
 * binding and reading columns, a table's existence, one integer's query, and
 * the URI that opens a path as it is.  Includes nothing of the other store
 * files, so that opening (store.c) and the schema's steps (store_schema.c)
 * both stand on it.
 */
#include "store_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void store_set_err(char *err, size_t len, const char *fmt, ...)
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
void store_sqlite_reason(sqlite3 *db, char *buf, size_t len)
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
drtopk_status store_fail(dh_store *s, const char *what)
{
    char why[DRTOPK_STORE_ERR_LEN / 2];
    store_sqlite_reason(s->db, why, sizeof why);
    store_set_err(s->err, sizeof s->err, "%s: %s", what, why);
    return DRTOPK_ERR_IO;
}

drtopk_status store_exec(dh_store *s, const char *sql)
{
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? DRTOPK_OK : store_fail(s, sql);
}

void store_bind_pos_double(sqlite3_stmt *st, int i, double v)
{
    if (v > 0)
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

/* Step a statement that returns no rows (or the one id row), then finalize. */
drtopk_status store_step_done(dh_store *s, sqlite3_stmt *st, const char *what, int64_t *id)
{
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW && id)
        *id = sqlite3_column_int64(st, 0);
    while (rc == SQLITE_ROW)        /* RETURNING: the write (and its autocommit) ends at DONE */
        rc = sqlite3_step(st);
    drtopk_status r = rc == SQLITE_DONE ? DRTOPK_OK : store_fail(s, what);
    sqlite3_finalize(st);
    return r;
}

drtopk_status store_prepare(dh_store *s, const char *sql, sqlite3_stmt **st)
{
    return sqlite3_prepare_v2(s->db, sql, -1, st, NULL) == SQLITE_OK ? DRTOPK_OK : store_fail(s, sql);
}

/* Copy column col of st (text) into out. */
void store_column_text(sqlite3_stmt *st, int col, char *out, size_t len)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(out, len, "%s", t ? (const char *)t : "");
}

int store_table_exists(sqlite3 *db, const char *name, int *exists)
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

int store_single_int64(sqlite3 *db, const char *sql, int64_t *out)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        rc = SQLITE_ERROR;
    }
    sqlite3_finalize(st);
    return rc;
}

int store_single_int(sqlite3 *db, const char *sql, int *out)
{
    int64_t v = 0;
    const int rc = store_single_int64(db, sql, &v);
    if (rc == SQLITE_OK)
        *out = (int)v;
    return rc;
}

/* "file:PATH" with every byte outside [A-Za-z0-9/._~-] %-escaped, so that a
 * path is taken as it is ("?", "#", "%" included), and the mode's query. */
int store_path_uri(const char *path, int mode, char *out, size_t len)
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
