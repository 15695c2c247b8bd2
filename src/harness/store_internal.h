/*
 * store_internal.h -- what the files of the SQLite results store share, and
 * only they (callers use store.h): the handle, the statement helpers of
 * store.c, the schema steps of store_schema.c, the measurement key of
 * store_rows.c, and the SQL filters and constants more than one file reads.
 * Every function that returns a drtopk_status leaves a readable message in
 * s->err when it fails (DRTOPK_ERR_IO unless it says otherwise).
 */
#ifndef DRTOPK_STORE_INTERNAL_H
#define DRTOPK_STORE_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "store.h"
#include "util.h"

#define URI_MAX (3 * DRTOPK_PATH_MAX + 32)   /* "file:" + %XX-escaped path + "?mode=ro" */
#define HOST_LEN 256                    /* gethostname(): _POSIX_HOST_NAME_MAX (255) + NUL */
#define DECISION_TABLE_SINCE_VERSION 5  /* choices with log2 n ranges and a status */
#define TUNING_LOG2_MAX 63          /* a catch-all's log2 n / log2 k range: 0..63 */
#define TUNING_LOG2_MAX_STR "63"

struct dh_store {
    sqlite3 *db;
    int version;
    char host[HOST_LEN];                /* gethostname(): whose pids runs.pid are */
    int uri_mode;                       /* URI_*: how the file was opened          */
    int open_rc;                        /* SQLite's code of a failed opening step  */
    char err[DRTOPK_STORE_ERR_LEN];
};

/* How a URI opens its file.  A read-only open of a WAL database needs its
 * -shm file; where that cannot be made (a read-only directory) and no -wal
 * file holds anything, the file alone is the database: immutable. */
enum { URI_READWRITE, URI_READONLY, URI_IMMUTABLE };

/* ---- store_sql.c: errors and statement helpers ----------------------------- */

/* printf into err (nothing when err is NULL or len 0). */
void store_set_err(char *err, size_t len, const char *fmt, ...);
/* SQLite's message of db's last failure, with the OS reason and the file. */
void store_sqlite_reason(sqlite3 *db, char *buf, size_t len);
/* Record sqlite's message for the failed step `what` and return IO. */
drtopk_status store_fail(dh_store *s, const char *what);
/* Execute sql (no rows). */
drtopk_status store_exec(dh_store *s, const char *sql);
drtopk_status store_prepare(dh_store *s, const char *sql, sqlite3_stmt **st);
/* Step a statement that returns no rows (or the one id row, into *id when id
 * is not NULL), then finalize. */
drtopk_status store_step_done(dh_store *s, sqlite3_stmt *st, const char *what, int64_t *id);
/* Bind v, or NULL (unknown) when v <= 0. */
void store_bind_pos_double(sqlite3_stmt *st, int i, double v);
/* Copy column col of st (text; NULL as "") into out. */
void store_column_text(sqlite3_stmt *st, int col, char *out, size_t len);
/* SQLite result codes, not drtopk_status: they run before a handle is whole
 * and on other connections.  *exists: whether table `name` exists. */
int store_table_exists(sqlite3 *db, const char *name, int *exists);
/* The one integer of sql's first row; SQLITE_ERROR when it returns no row. */
int store_single_int(sqlite3 *db, const char *sql, int *out);
int store_single_int64(sqlite3 *db, const char *sql, int64_t *out);
/* "file:PATH" with every byte outside [A-Za-z0-9/._~-] %-escaped and mode's
 * query (URI_*); -1 when it does not fit len. */
int store_path_uri(const char *path, int mode, char *out, size_t len);

/* ---- store_schema.c: version, migrations, Rule 4's plan per row and fit -- */

/* The version and the check of the schema against it, from one snapshot;
 * sets s->open_rc to SQLite's code of a failure (SQLITE_OK on success). */
drtopk_status store_read_schema(dh_store *s, const char *path);
/* Apply the migrations with s->version < N <= max_version. */
drtopk_status store_migrate(dh_store *s, int max_version);
/* measurements.rule4_alpha and rule4_flags at (n, k) and a row's alpha. */
int store_paper_alpha(uint64_t n, uint64_t k);
unsigned store_paper_flags(uint64_t n, uint64_t k, int alpha);
/* The SQL functions drtopk_rule4_alpha(n, k), drtopk_rule4_alpha(n, k, const) and
 * dh_rule4_flags(n, k, alpha). */
void store_sql_rule4_alpha(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void store_sql_rule4_alpha_const(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void store_sql_rule4_flags(sqlite3_context *ctx, int argc, sqlite3_value **argv);
/* Give the measurements with id > after_id (0: all) that lack them their
 * rule4_alpha and rule4_flags. */
drtopk_status store_derive_rule4(dh_store *s, int64_t after_id);
/* fit_alphas whole again for the machines the SQL `machines` selects (NULL:
 * all): Rule 4's alpha of each fit at each (n, k) measured. */
drtopk_status store_derive_fit_alphas(dh_store *s, const char *machines);

/* ---- store_rows.c: a measurement's unique key ------------------------------ */

#define KEY_WHERE                                                                      \
    "machine_id = ?1 AND git_commit = ?2 AND algorithm = ?3 AND first_algo = ?4 AND "  \
    "second_algo = ?5 AND dtype = ?6 AND dist = ?7 AND seed = ?8 AND n = ?9 AND k = ?10 " \
    "AND alpha = ?11 AND beta = ?12 AND flags = ?13 AND sort_order = ?14"
/* Binds ?1..?14 in the order of KEY_WHERE. */
void store_bind_key(sqlite3_stmt *st, int64_t machine_id, const char *commit, const dh_store_config *c);

/* A forced plan's row: not a measurement of drtopk_plan_auto's plan. */
#define FORCED_PLAN "algorithm NOT LIKE '" DRTOPK_STORE_AUTO_PREFIX "%'"

#endif
