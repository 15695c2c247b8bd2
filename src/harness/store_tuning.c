/*
 * store_tuning.c -- loading a machine's tuning from the results store as the
 * table programs pass to drtopk_plan_auto: the tuner's decision table and a
 * catch-all with the fitted Rule 4 const (paper section 5.2) per dtype, and
 * the algorithms the tuning decided among.  The library reads no database.
 */
#include "store_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"

#define PLAN_AUTO_ALGORITHM "dr-radix"  /* drtopk_plan_auto's default plan ...   */
#define PLAN_AUTO_BETA 2                /* ... and its beta (drtopk.h)           */
#define CHOICES_SINCE_VERSION 2     /* the schema version that added choices      */

/* The machine the tuning comes from: the one with this uuid if it has fits or
 * choices, else, among the machines of this name, one whose sweep measured
 * onepass and fused (the plans the size rules choose beside the pipeline: a
 * table from an older sweep never decided against them), the most recently
 * tuned of those (such a table stores only the cells that beat the default
 * plan, so its size says nothing of the sweep's); without one, the machine
 * with the most decision cells (a quick sweep on another card does not
 * replace a full one), the most recently tuned among equals.  With
 * verified_only (the table compiled into the library, tuner --emit-table),
 * only machines whose sweep checked results against the host reference and
 * found none wrong: plan_regret.sh --tuned sweeps with --verify-every 0 and
 * 3 repetitions, a check of the plan on that card, not a table for every
 * user (and its cells are those that beat the compiled-in table of its
 * commit, not a table of their own). */
static drtopk_status tuned_machine(dh_store *s, const char *uuid, const char *name, int verified_only, int64_t *id,
                                   dh_store_tuning *t, int *found)
{
    sqlite3_stmt *st;
    *found = 0;
    if (store_prepare(s, "SELECT id, uuid, name FROM (SELECT m.id, m.uuid, m.name, (m.uuid = ?1) AS own, "
                         "((SELECT count(DISTINCT algorithm) FROM measurements x WHERE x.machine_id = m.id "
                         "AND x.status = 'ok' AND x.algorithm IN ('onepass', 'fused')) = 2) AS contenders, "
                         "(SELECT count(*) FROM choices c WHERE c.machine_id = m.id) AS cells, "
                         "max(coalesce((SELECT max(fitted_at) FROM fits WHERE machine_id = m.id), ''), "
                         "coalesce((SELECT max(fitted_at) FROM choices WHERE machine_id = m.id), '')) AS tuned_at "
                         "FROM machines m WHERE (m.uuid = ?1 OR (?2 IS NOT NULL AND m.name = ?2)) "
                         "AND (EXISTS (SELECT 1 FROM fits f WHERE f.machine_id = m.id) "
                         "OR EXISTS (SELECT 1 FROM choices c WHERE c.machine_id = m.id)) "
                         "AND (?3 = 0 OR (EXISTS (SELECT 1 FROM measurements v WHERE v.machine_id = m.id "
                         "AND v.verified = 1) AND NOT EXISTS (SELECT 1 FROM measurements w "
                         "WHERE w.machine_id = m.id AND w.verified = 1 AND w.verify_ok = 0)))) "
                         "ORDER BY own DESC, contenders DESC, CASE WHEN contenders THEN 0 ELSE cells END DESC, "
                         "tuned_at DESC, id DESC LIMIT 1", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_text(st, 1, uuid ? uuid : "", -1, SQLITE_TRANSIENT);
    if (name)
        sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, verified_only);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        snprintf(t->machine_uuid, sizeof t->machine_uuid, "%s", (const char *)sqlite3_column_text(st, 1));
        snprintf(t->gpu_name, sizeof t->gpu_name, "%s", (const char *)sqlite3_column_text(st, 2));
        *found = 1;
    }
    sqlite3_finalize(st);
    return (rc == SQLITE_ROW || rc == SQLITE_DONE) ? DRTOPK_OK : store_fail(s, "looking up the tuned machine");
}

/* Append an entry; DRTOPK_ERR_OUT_OF_MEMORY when the table cannot grow. */
static drtopk_status tuning_add(dh_store_tuning *t, size_t *cap, const drtopk_tuning_entry *e)
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
static drtopk_status measured_onepass(dh_store *s, int64_t id, const char *dt, int *found)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT count(*) FROM measurements WHERE machine_id = ?1 AND dtype = ?2 AND algorithm = ?3 "
                         "AND status = 'ok'", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, dt, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, drtopk_algo_name(DRTOPK_ALGO_ONEPASS), -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *found = sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? DRTOPK_OK : store_fail(s, "looking up the onepass measurements");
}

/* floor(log2 n) of the smallest n at which machine id measured (status ok) the
 * variant (algorithm, beta) of dtype dt at commit, on a generated
 * distribution (a real data set's rows are no fit points); *found = 0 when
 * there is none. */
static drtopk_status fit_min_log2n(dh_store *s, int64_t id, const char *dt, const char *commit,
                                   const char *algorithm, int beta, int *log2n, int *found)
{
    sqlite3_stmt *st;
    *found = 0;
    if (store_prepare(s, "SELECT dist, min(n) FROM measurements WHERE machine_id = ?1 AND dtype = ?2 AND git_commit = ?3 "
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
        dh_dist d;
        const char *dist = (const char *)sqlite3_column_text(st, 0);
        const uint64_t n = (uint64_t)sqlite3_column_int64(st, 1);
        if (dist && dh_dist_parse(dist, &d) == DRTOPK_OK && n > 0 && (least == 0 || n < least))
            least = n;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return store_fail(s, "reading the sizes the Rule 4 fit measured");
    if (least > 0) {
        *log2n = dh_ilog2_floor(least);
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
static drtopk_status catch_all(dh_store *s, int64_t id, drtopk_dtype t, dh_store_tuning *out, size_t *cap)
{
    const char *dt = drtopk_dtype_name(t);
    int onepass = 0;
    drtopk_status r = measured_onepass(s, id, dt, &onepass);
    if (r != DRTOPK_OK || onepass)
        return r;
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT const_time, beta, git_commit FROM fits WHERE machine_id = ?1 AND dtype = ?2 "
                         "AND algorithm = ?3 ORDER BY abs(beta - ?4), fitted_at DESC LIMIT 1", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, dt, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, PLAN_AUTO_ALGORITHM, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, PLAN_AUTO_BETA);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        return rc == SQLITE_DONE ? DRTOPK_OK : store_fail(s, "reading the Rule 4 fit");
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

int dh_store_choice_entry(drtopk_dtype t, const dh_store_choice *c, drtopk_tuning_entry *e)
{
    int delegate = 0;
    *e = (drtopk_tuning_entry){ .dtype = t, .log2n_min = c->log2n_min, .log2n_max = c->log2n_max,
                                .log2k_min = c->log2k_min, .log2k_max = c->log2k_max, .beta = c->beta,
                                .rule4_const = c->rule4_const, .shared_build_max_alpha = c->shared_build_max_alpha };
    if (drtopk_algo_parse(c->algorithm, &e->algo, &delegate) != DRTOPK_OK)
        return 0;
    if (!delegate && (e->algo == DRTOPK_ALGO_ONEPASS || e->algo == DRTOPK_ALGO_FUSED)) {
        /* the one-read and the fused small-input top-k: standalone plans, which have
         * no beta, const or build */
        e->beta = PLAN_AUTO_BETA;
        e->rule4_const = DRTOPK_RULE4_CONST_DEFAULT;
        e->shared_build_max_alpha = 0;
        return 1;
    }
    return delegate && e->beta >= 1 && e->beta <= DRTOPK_BETA_MAX && isfinite(e->rule4_const) &&
           e->shared_build_max_alpha >= 0 && e->shared_build_max_alpha <= DRTOPK_SHARED_DELEGATE_MAX_ALPHA;
}

/* Dtype t's entries: the tuner's decision table without its dropped cells
 * (there the library's plan without a table runs), then catch_all's entry if
 * any.  A choice plan_auto cannot
 * express (a standalone algorithm other than onepass and fused, whose
 * entries give standalone plans) or with a value out of range is left out,
 * so its cell falls through to the catch-all or the library's rules. */
static drtopk_status tuning_dtype(dh_store *s, int64_t id, drtopk_dtype t, int checked_only,
                                  dh_store_tuning *out, size_t *cap)
{
    sqlite3_stmt *st;
    drtopk_status r;
    const char *dt = drtopk_dtype_name(t);
    int rc = SQLITE_DONE;
    r = DRTOPK_OK;
    /* read-only: an older schema as it is (its per-k-range choices hold for any n,
       and none was checked).  The last column says "leave the cell out": dropped,
       or with ?3 (checked only) not kept or without a held-out point inside it;
       a range ending at 2^62 or above takes every n or k (SQLite's 1 << 63 is
       negative) */
    int cells = s->version >= DECISION_TABLE_SINCE_VERSION;
    const char *sql = !cells ? "SELECT 0, " TUNING_LOG2_MAX_STR ", log2k_min, log2k_max, algorithm, beta, "
                               "rule4_const, 0, ?3 FROM choices WHERE machine_id = ?1 AND dtype = ?2 "
                               "ORDER BY log2k_min"
                             : "SELECT log2n_min, log2n_max, log2k_min, log2k_max, algorithm, beta, rule4_const, "
                               "shared_build_max_alpha, status = 'dropped' OR (?3 AND (status <> 'kept' OR NOT "
                               "EXISTS (SELECT 1 FROM checks h WHERE h.machine_id = c.machine_id AND h.kind = "
                               "'heldout' AND h.dtype = c.dtype AND h.n >= (1 << c.log2n_min) AND (c.log2n_max "
                               ">= 62 OR h.n < (1 << (c.log2n_max + 1))) AND h.k >= (1 << c.log2k_min) AND "
                               "(c.log2k_max >= 62 OR h.k < (1 << (c.log2k_max + 1)))))) FROM choices c WHERE "
                               "c.machine_id = ?1 AND c.dtype = ?2 ORDER BY log2n_min, log2k_min";
    if (s->version >= CHOICES_SINCE_VERSION) {
        if (store_prepare(s, sql, &st) != DRTOPK_OK)
            return DRTOPK_ERR_IO;
        sqlite3_bind_int(st, 3, checked_only);
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_text(st, 2, dt, -1, SQLITE_STATIC);
        while (r == DRTOPK_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
            const char *algo = (const char *)sqlite3_column_text(st, 4);
            dh_store_choice c = { .log2n_min = sqlite3_column_int(st, 0), .log2n_max = sqlite3_column_int(st, 1),
                                  .log2k_min = sqlite3_column_int(st, 2), .log2k_max = sqlite3_column_int(st, 3),
                                  .beta = sqlite3_column_int(st, 5), .rule4_const = sqlite3_column_double(st, 6),
                                  .shared_build_max_alpha = sqlite3_column_int(st, 7) };
            snprintf(c.algorithm, sizeof c.algorithm, "%s", algo ? algo : "");
            drtopk_tuning_entry e;
            if (sqlite3_column_int(st, 8))
                continue;       /* dropped, or unchecked where only checked cells count: the
                                   cell runs what the library runs without it */
            if (dh_store_choice_entry(t, &c, &e))
                r = tuning_add(out, cap, &e);
        }
        sqlite3_finalize(st);
    }
    if (r != DRTOPK_OK)
        return r;
    if (rc != SQLITE_DONE)
        return store_fail(s, "reading the plan choices");
    return catch_all(s, id, t, out, cap);
}

/* The algorithms of the forced plans (pipeline or standalone) measured on
 * machine id with status 'ok', as drtopk_tuning.algos_measured: the plans its
 * tuning decided among.
 * A name the library does not parse (an older or newer one) is left out. */
static drtopk_status tuning_algos_measured(dh_store *s, int64_t id, uint32_t *mask)
{
    sqlite3_stmt *st;
    int rc;
    drtopk_algo a;
    int delegate;
    *mask = 0;
    if (store_prepare(s, "SELECT DISTINCT algorithm FROM measurements WHERE machine_id = ?1 AND status = 'ok' AND "
                         FORCED_PLAN, &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *algo = (const char *)sqlite3_column_text(st, 0);
        if (algo && drtopk_algo_parse(algo, &a, &delegate) == DRTOPK_OK)
            *mask |= UINT32_C(1) << a;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? DRTOPK_OK : store_fail(s, "reading the measured algorithms");
}

/* dh_store_load_tuning and dh_store_load_checked_tuning: with checked_only,
 * a machine whose sweep verified its results, and of its decision table only
 * the cells a held-out check kept. */
static drtopk_status load_tuning(const char *db_path, const char *uuid, const char *name, int checked_only,
                                 dh_store_tuning *out, char *err, size_t err_len)
{
    const char *path = db_path ? db_path : dh_store_default_path();
    dh_store *s;
    int64_t id = 0;
    int found = 0;
    size_t cap = 0;
    memset(out, 0, sizeof *out);
    out->table.gpu_name = out->gpu_name;
    struct stat sb;
    if (stat(path, &sb) != 0) {
        if (errno == ENOENT)
            return DRTOPK_OK;       /* no database yet: nothing tuned */
        store_set_err(err, err_len, "cannot access %s: %s", path, strerror(errno));
        return DRTOPK_ERR_IO;
    }
    drtopk_status r = dh_store_open(path, DRTOPK_STORE_READONLY, &s, err, err_len);
    if (r != DRTOPK_OK)
        return r;
    r = tuned_machine(s, uuid, name, checked_only, &id, out, &found);
    for (int t = 0; r == DRTOPK_OK && found && t < DRTOPK_DTYPE_COUNT; ++t)
        r = tuning_dtype(s, id, (drtopk_dtype)t, checked_only, out, &cap);
    if (r == DRTOPK_OK && found)
        r = tuning_algos_measured(s, id, &out->table.algos_measured);
    if (r == DRTOPK_ERR_OUT_OF_MEMORY)
        store_set_err(err, err_len, "out of memory loading the tuning from %s", path);
    else if (r != DRTOPK_OK)
        store_set_err(err, err_len, "%s: %s", path, s->err);
    dh_store_close(s);
    if (r != DRTOPK_OK) {
        dh_store_tuning_free(out);
        out->table.gpu_name = out->gpu_name;
        return r;
    }
    out->table.entries = out->entries;
    return DRTOPK_OK;
}

drtopk_status dh_store_load_tuning(const char *db_path, const char *uuid, const char *name,
                                   dh_store_tuning *out, char *err, size_t err_len)
{
    return load_tuning(db_path, uuid, name, 0, out, err, err_len);
}

drtopk_status dh_store_load_checked_tuning(const char *db_path, const char *uuid, const char *name,
                                           dh_store_tuning *out, char *err, size_t err_len)
{
    return load_tuning(db_path, uuid, name, 1, out, err, err_len);
}

void dh_store_tuning_free(dh_store_tuning *t)
{
    if (!t)
        return;
    free(t->entries);
    memset(t, 0, sizeof *t);
}
