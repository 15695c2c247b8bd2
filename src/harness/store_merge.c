/*
 * store_merge.c -- merging another machine's results database into this one
 * (tuner --merge): machines by uuid, runs by run uuid, and every per-machine
 * table by its unique key, read from the other database as its schema
 * version has it, so that the paper's figures and the Rule 4 fits (section
 * 5.2) can draw on measurements taken on several GPUs.
 */
#include "store_internal.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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
    "reload_ms, comm_ms, link_gbps, reps_ms, verified, verify_ok, exchange, measured_at"
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
    { "multi_gpu", "exchange", "'unknown'" },       /* before migration 12: not recorded */
    { "measurements", "rule4_flags", "0" },
    { "peer_measurements", "timing", "'call'" },
    { "batch_measurements", "timing", "'call'" },   /* before migration 10 */
};

/* "x.<col>, ..." for a column list, with NULL (or its missing_defaults
 * value) for each column the attached source's table lacks (an older
 * schema, read as it is). */
static drtopk_status source_cols(dh_store *s, const char *table, const char *prefix, const char *cols,
                                 char *out, size_t len)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT count(*) FROM pragma_table_info(?1, 'other') WHERE name = ?2", &st) != DRTOPK_OK)
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
            store_set_err(s->err, sizeof s->err, "merge: the column list of %s does not fit", table);
            r = DRTOPK_ERR_IO;
        } else {
            at += (size_t)n;
        }
        p += w;
    }
    sqlite3_finalize(st);
    return r;
}

static drtopk_status merge_step(dh_store *s, const char *sql, int *added)
{
    if (store_exec(s, sql) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    *added = sqlite3_changes(s->db);
    return DRTOPK_OK;
}

/* Refuse what a merge cannot read: this database itself (the merge would
 * wait on its own lock), an empty file, a file that is not a drtopk database
 * (read-only, never migrated). */
static drtopk_status merge_source_ok(dh_store *s, const char *other_path, int *uri_mode)
{
    struct stat a, b;
    const char *self = sqlite3_db_filename(s->db, "main");
    if (self && *self && stat(self, &a) == 0 && stat(other_path, &b) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino) {
        store_set_err(s->err, sizeof s->err, "merge: %s is this database itself (--db); name another database",
                      other_path);
        return DRTOPK_ERR_INVALID_ARGUMENT;
    }
    dh_store *o;
    char err[DRTOPK_STORE_ERR_LEN];
    if (dh_store_open(other_path, DRTOPK_STORE_READONLY, &o, err, sizeof err) != DRTOPK_OK) {
        store_set_err(s->err, sizeof s->err, "merge: %s", err);
        return DRTOPK_ERR_IO;
    }
    int version = o->version;
    *uri_mode = o->uri_mode;
    dh_store_close(o);
    if (version == 0) {
        store_set_err(s->err, sizeof s->err, "merge: %s is empty, not a drtopk database", other_path);
        return DRTOPK_ERR_IO;
    }
    return DRTOPK_OK;
}

drtopk_status dh_store_merge(dh_store *s, const char *other_path,
                             dh_store_merge_stats *stats)
{
    dh_store_merge_stats zero = {0};
    dh_store_merge_stats *st = stats ? stats : &zero;
    *st = zero;
    int uri_mode = URI_READONLY;
    drtopk_status r = merge_source_ok(s, other_path, &uri_mode);
    if (r != DRTOPK_OK)
        return r;
    char uri[URI_MAX];
    sqlite3_stmt *at;
    if (store_path_uri(other_path, uri_mode, uri, sizeof uri) != 0) {
        store_set_err(s->err, sizeof s->err, "merge: path too long: %s", other_path);
        return DRTOPK_ERR_IO;
    }
    if (store_prepare(s, "ATTACH DATABASE ? AS other", &at) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_text(at, 1, uri, -1, SQLITE_TRANSIENT);
    if (store_step_done(s, at, "attaching the other database", NULL) != DRTOPK_OK)
        return DRTOPK_ERR_IO;

    enum { SQL_LEN = 4096, COLS_LEN = 1024 };
    char sql[SQL_LEN], cols[COLS_LEN];
    int64_t before = 0;     /* the largest measurement id before the merge's rows */
    r = dh_store_begin(s);
    if (r == DRTOPK_OK && store_single_int64(s->db, "SELECT coalesce(max(id), 0) FROM main.measurements", &before) !=
                              SQLITE_OK)
        r = store_fail(s, "merge: reading the measurements' ids");
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
        if (store_single_int(s->db, sql, &exists) != SQLITE_OK) {
            r = store_fail(s, "merge: reading the other database's tables");
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
            store_set_err(s->err, sizeof s->err, "merge: the statement for %s does not fit", tables[i].table);
            r = DRTOPK_ERR_IO;
            break;
        }
        r = merge_step(s, sql, tables[i].added);
    }
    /* derived here, never copied, for what the merge added: its rows (ids after
     * `before`) and the machines it holds (an existing fit is never changed) */
    if (r == DRTOPK_OK)
        r = store_derive_rule4(s, before);
    if (r == DRTOPK_OK)
        r = store_derive_fit_alphas(s, "SELECT mm.id FROM main.machines mm JOIN other.machines om ON om.uuid = mm.uuid");
    if (r == DRTOPK_OK)
        r = dh_store_commit(s);
    else
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    char keep[DRTOPK_STORE_ERR_LEN];
    snprintf(keep, sizeof keep, "%s", s->err);
    sqlite3_exec(s->db, "DETACH DATABASE other", NULL, NULL, NULL);
    snprintf(s->err, sizeof s->err, "%s", keep);
    return r;
}
