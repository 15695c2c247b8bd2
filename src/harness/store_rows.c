/*
 * store_rows.c -- the rows of the tuner's sweep in the results store: the
 * measurements of forced and automatic plans with the claims that let
 * concurrent tuners share a sweep, the Rule 4 fits and the decision table
 * (paper section 5.2), the checks of tuned plans, and the queries over them:
 * the fit's points, the fastest plan at a point, the automatic plan's regret
 * and the GPUs with a checked decision table.
 */
#include "store_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLAIM_STALE_S 3600              /* a claim this old is taken over: longer
                                           than any one configuration's measurement */
#define JSON_NUM_MAX 32                 /* one "%.6g," in the reps array         */

/* Binds ?1..?14 in the order of KEY_WHERE and of the INSERT below. */
void store_bind_key(sqlite3_stmt *st, int64_t machine_id, const char *commit,
                    const dh_store_config *c)
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

/* A row whose time stands: measured, of order largest, not failed verification. */
#define USABLE "status = 'ok' AND coalesce(verify_ok, 1) = 1 AND median_ms IS NOT NULL AND sort_order = 'largest'"

drtopk_status dh_store_has(dh_store *s, int64_t machine_id, const char *git_commit,
                           const dh_store_config *c, int *found)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT count(*) FROM measurements WHERE " KEY_WHERE " AND " MEASURED, &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    store_bind_key(st, machine_id, git_commit, c);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *found = sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? DRTOPK_OK : store_fail(s, "looking up a measurement");
}

/* One count(*) of a statement with the key bound, and ?15 the run when it has one. */
static drtopk_status key_count(dh_store *s, const char *sql, int64_t machine_id, const char *commit,
                               const dh_store_config *c, int64_t run_id, int *out)
{
    sqlite3_stmt *st;
    if (store_prepare(s, sql, &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    store_bind_key(st, machine_id, commit, c);
    sqlite3_bind_int64(st, 15, run_id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? DRTOPK_OK : store_fail(s, "looking up a claim");
}

#define STALE_CUTOFF "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-" DRTOPK_STR(CLAIM_STALE_S) " seconds')"
#define DRTOPK_STR(x) DRTOPK_STR_(x)
#define DRTOPK_STR_(x) #x

drtopk_status dh_store_claim(dh_store *s, int64_t machine_id, int64_t run_id, const char *git_commit,
                             const dh_store_config *c, int force, int *claimed)
{
    int measured = 0, taken = 0;
    *claimed = 0;
    drtopk_status r = dh_store_begin(s);
    if (r == DRTOPK_OK)
        r = dh_store_reap_runs(s, NULL);
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
        r = store_prepare(s, "INSERT INTO claims (machine_id, git_commit, algorithm, first_algo, second_algo, dtype, "
                             "dist, seed, n, k, alpha, beta, flags, sort_order, run_id, claimed_at) VALUES (?1, ?2, "
                             "?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
                             "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) ON CONFLICT DO UPDATE SET "
                             "run_id = excluded.run_id, claimed_at = excluded.claimed_at", &st);
        if (r == DRTOPK_OK) {
            store_bind_key(st, machine_id, git_commit, c);
            sqlite3_bind_int64(st, 15, run_id);
            r = store_step_done(s, st, "claiming a configuration", NULL);
        }
        *claimed = r == DRTOPK_OK;
    }
    if (r == DRTOPK_OK)
        return dh_store_commit(s);
    *claimed = 0;
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return r;
}

static const char *meas_status_name(dh_meas_status m)
{
    return m == DRTOPK_MEAS_OK ? "ok" : m == DRTOPK_MEAS_UNSUPPORTED ? "unsupported" : "error";
}

drtopk_status dh_store_put(dh_store *s, int64_t machine_id, int64_t run_id,
                           const char *git_commit, const dh_store_measurement *m)
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
    if (store_prepare(s, sql, &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    store_bind_key(st, machine_id, git_commit, &m->cfg);
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
    sqlite3_bind_int(st, 35, store_paper_alpha(m->cfg.n, m->cfg.k));
    sqlite3_bind_int64(st, 36, store_paper_flags(m->cfg.n, m->cfg.k, m->cfg.alpha));
    drtopk_status r = store_step_done(s, st, "storing a measurement", NULL);
    free(json);
    if (r == DRTOPK_OK && store_prepare(s, "DELETE FROM claims WHERE " KEY_WHERE, &st) == DRTOPK_OK) {
        store_bind_key(st, machine_id, git_commit, &m->cfg);      /* stored: the claim is done */
        r = store_step_done(s, st, "releasing a claim", NULL);
    } else if (r == DRTOPK_OK) {
        r = DRTOPK_ERR_IO;
    }
    return r;
}

drtopk_status dh_store_each_point(dh_store *s, int64_t machine_id, const char *git_commit,
                                  const char *dtype,
                                  int (*cb)(const dh_store_point *pt, void *ctx), void *ctx)
{
    sqlite3_stmt *st;
    /* Forced standalone rows and dr- rows with drtopk_plan_rule4's flags,
     * with or without the shared/staged delegate build (the tuner measures
     * both at alpha 6..7): the tuner's --no-filter/--no-skip-last-digit rows
     * (experiments/, Figures 6, 7, 10, 22) are other plans, not fit points. */
    if (store_prepare(s, "SELECT algorithm, dist, beta, alpha, n, k, median_ms, flags FROM measurements "
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
        dh_store_point pt = {
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
    return rc == SQLITE_DONE ? DRTOPK_OK : store_fail(s, "reading measurements");
}

drtopk_status dh_store_put_fit(dh_store *s, int64_t machine_id, const char *git_commit,
                               const dh_store_fit *f)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT INTO fits (machine_id, git_commit, dtype, algorithm, beta, const_time, "
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
    if (store_step_done(s, st, "storing a fit", NULL) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    char machine[sizeof "-9223372036854775808"];    /* the new const's alphas, of this machine's points */
    snprintf(machine, sizeof machine, "%" PRId64, machine_id);
    return store_derive_fit_alphas(s, machine);
}

static const char *const choice_status_names[] = {
    [DRTOPK_CHOICE_UNCHECKED] = "unchecked", [DRTOPK_CHOICE_KEPT] = "kept", [DRTOPK_CHOICE_DROPPED] = "dropped",
};

drtopk_status dh_store_put_choices(dh_store *s, int64_t machine_id, const char *git_commit,
                                   const char *dtype, const dh_store_choice *c, int count)
{
    if (store_exec(s, "SAVEPOINT put_choices") != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_stmt *st;
    drtopk_status r = store_prepare(s, "DELETE FROM choices WHERE machine_id = ? AND dtype = ?", &st);
    if (r == DRTOPK_OK) {
        sqlite3_bind_int64(st, 1, machine_id);
        sqlite3_bind_text(st, 2, dtype, -1, SQLITE_TRANSIENT);
        r = store_step_done(s, st, "replacing choices", NULL);
    }
    for (int i = 0; r == DRTOPK_OK && i < count; ++i) {
        if ((unsigned)c[i].status > DRTOPK_CHOICE_DROPPED) {
            store_set_err(s->err, sizeof s->err, "choice %d of %s: status %d is not a dh_choice_status", i, dtype,
                          (int)c[i].status);
            r = DRTOPK_ERR_IO;
            break;
        }
        r = store_prepare(s, "INSERT INTO choices (machine_id, git_commit, dtype, log2n_min, log2n_max, log2k_min, "
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
        r = store_step_done(s, st, "storing a choice", NULL);
    }
    if (r != DRTOPK_OK) {
        sqlite3_exec(s->db, "ROLLBACK TO put_choices", NULL, NULL, NULL);
        sqlite3_exec(s->db, "RELEASE put_choices", NULL, NULL, NULL);
        return r;
    }
    return store_exec(s, "RELEASE put_choices");
}

/* ---- checks of tuned plans (held-out points, tuner --compare) ------------- */

#define CHECK_KEY_WHERE                                                                \
    "machine_id = ?1 AND git_commit = ?2 AND kind = ?3 AND dtype = ?4 AND dist = ?5 AND seed = ?6 " \
    "AND n = ?7 AND k = ?8 AND tuned_algorithm = ?9 AND tuned_alpha = ?10 AND tuned_beta = ?11 "     \
    "AND tuned_flags = ?12"

static void bind_check_key(sqlite3_stmt *st, int64_t machine_id, const char *git_commit,
                           const dh_store_check *c)
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

drtopk_status dh_store_put_check(dh_store *s, int64_t machine_id, const char *git_commit,
                                 const dh_store_check *c)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT OR REPLACE INTO checks (machine_id, git_commit, kind, dtype, dist, seed, n, k, "
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
    return store_step_done(s, st, "storing a check", NULL);
}

drtopk_status dh_store_get_check(dh_store *s, int64_t machine_id, const char *git_commit,
                                 dh_store_check *c, int *found)
{
    sqlite3_stmt *st;
    *found = 0;
    if (store_prepare(s, "SELECT default_alpha, default_beta, default_flags, default_ms_a, default_ms_b, tuned_ms_a, "
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
    return (rc == SQLITE_ROW || rc == SQLITE_DONE) ? DRTOPK_OK : store_fail(s, "reading a check");
}

drtopk_status dh_store_best(dh_store *s, int64_t machine_id, const char *git_commit,
                            const char *dtype, const char *dist, uint64_t seed, uint64_t n,
                            uint64_t k, double *ms, char *config, size_t config_len, int *found)
{
    sqlite3_stmt *st;
    *found = 0;
    if (store_prepare(s, "SELECT median_ms, algorithm, alpha, beta, flags FROM measurements WHERE machine_id = ?1 "
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
    return (rc == SQLITE_ROW || rc == SQLITE_DONE) ? DRTOPK_OK : store_fail(s, "reading the best measurement");
}

drtopk_status dh_store_best_forced(dh_store *s, int64_t machine_id, const char *git_commit,
                                   const char *timing, const dh_store_config *point,
                                   dh_store_config *best, double *ms, int *found)
{
    sqlite3_stmt *st;
    *found = 0;
    if (store_prepare(s, "SELECT algorithm, first_algo, second_algo, alpha, beta, flags, median_ms FROM measurements "
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
        store_column_text(st, 0, best->algorithm, sizeof best->algorithm);
        store_column_text(st, 1, best->first_algo, sizeof best->first_algo);
        store_column_text(st, 2, best->second_algo, sizeof best->second_algo);
        best->alpha = sqlite3_column_int(st, 3);
        best->beta = sqlite3_column_int(st, 4);
        best->flags = (unsigned)sqlite3_column_int64(st, 5);
        *ms = sqlite3_column_double(st, 6);
        *found = 1;
    }
    sqlite3_finalize(st);
    return (rc == SQLITE_ROW || rc == SQLITE_DONE) ? DRTOPK_OK : store_fail(s, "reading the fastest forced plan");
}

drtopk_status dh_store_each_regret(dh_store *s, int64_t machine_id, const char *git_commit,
                                   const char *label, int (*cb)(const dh_store_regret *r, void *ctx),
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
    if (store_prepare(s, sql, &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_text(st, 2, git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, label, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 4, DRTOPK_DELEGATE);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        dh_store_regret r;
        memset(&r, 0, sizeof r);
        store_column_text(st, 0, r.dtype, sizeof r.dtype);
        store_column_text(st, 1, r.dist, sizeof r.dist);
        r.seed = (uint64_t)sqlite3_column_int64(st, 2);
        r.n = (uint64_t)sqlite3_column_int64(st, 3);
        r.k = (uint64_t)sqlite3_column_int64(st, 4);
        store_column_text(st, 5, r.auto_algorithm, sizeof r.auto_algorithm);
        r.auto_alpha = sqlite3_column_int(st, 6);
        r.auto_beta = sqlite3_column_int(st, 7);
        r.auto_flags = (unsigned)sqlite3_column_int64(st, 8);
        r.auto_ms = sqlite3_column_double(st, 9);
        r.has_best = sqlite3_column_int(st, 10);
        store_column_text(st, 11, r.best_algorithm, sizeof r.best_algorithm);
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
    return rc == SQLITE_DONE ? DRTOPK_OK : store_fail(s, "reading the regret of the automatic plan");
}

drtopk_status dh_store_each_tuned_gpu(dh_store *s, int (*fn)(const char *name, void *ctx), void *ctx)
{
    sqlite3_stmt *st;
    if (s->version < DECISION_TABLE_SINCE_VERSION)
        return DRTOPK_OK;           /* no checked decision table before it */
    if (store_prepare(s, "SELECT DISTINCT m.name FROM machines m WHERE m.backend = 'cuda' AND EXISTS "
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
    return rc == SQLITE_DONE ? DRTOPK_OK : store_fail(s, "listing the tuned GPUs");
}
