/*
 * store_bench.c -- the results store's rows measured beside the tuner's
 * sweep: the modern peers' imported measurements (CUB DeviceTopK,
 * torch.topk), the multi-GPU and out-of-core runs of drtopk-mpi (paper
 * section 5.4, Table 2), the counts a run does not time (Figure 24, Table 3),
 * and the batched top-k's crossovers and decided plan fields (tuner --batch).
 */
#include "store_internal.h"

#include <string.h>

/* ---- the modern peers, multi-GPU runs and counters --------------------------- */

static const char *peer_status_name(dh_peer_status p)
{
    return p == DRTOPK_PEER_OK ? "ok" : p == DRTOPK_PEER_SKIPPED ? "skipped" : "error";
}

drtopk_status dh_store_put_peer(dh_store *s, int64_t machine_id, int64_t run_id,
                                const char *git_commit, const dh_store_peer *p, int *added)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT INTO peer_measurements (machine_id, run_id, git_commit, peer, peer_version, "
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
    drtopk_status r = store_step_done(s, st, "storing a peer measurement", NULL);
    if (r == DRTOPK_OK && added)
        *added = sqlite3_changes(s->db) > 0;
    return r;
}

drtopk_status dh_store_put_multi(dh_store *s, int64_t machine_id, int64_t run_id,
                                 const char *git_commit, const dh_store_multi *m)
{
    sqlite3_stmt *st;
    const dh_store_config *c = &m->cfg;
    if (store_prepare(s, "INSERT OR REPLACE INTO multi_gpu (machine_id, run_id, git_commit, algorithm, first_algo, "
                         "second_algo, dtype, dist, seed, n, k, alpha, beta, flags, sort_order, ranks, gpus, "
                         "device_cap, out_of_core, chunks, filtered, reps, total_ms, compute_ms, reload_ms, comm_ms, "
                         "reps_ms, verified, verify_ok, link_gbps, exchange, measured_at) VALUES (?1, ?2, ?3, ?4, ?5, "
                         "?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, "
                         "?26, ?27, ?28, ?29, ?30, ?31, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))", &st) != DRTOPK_OK)
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
    store_bind_pos_double(st, 30, m->link_gbps);
    sqlite3_bind_text(st, 31, m->exchange ? m->exchange : "unknown", -1, SQLITE_TRANSIENT);
    return store_step_done(s, st, "storing a multi-GPU run", NULL);
}

drtopk_status dh_store_put_counter(dh_store *s, int64_t machine_id, int64_t run_id,
                                   const char *git_commit, const dh_store_counter *c)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT OR REPLACE INTO counters (machine_id, git_commit, algorithm, first_algo, second_algo, "
                         "dtype, dist, seed, n, k, alpha, beta, flags, sort_order, source, counter, value, kernels, "
                         "tool_version, run_id, measured_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
                         "?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                      &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    store_bind_key(st, machine_id, git_commit, &c->cfg);
    sqlite3_bind_text(st, 15, c->source, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 16, c->counter, -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(st, 17, c->value);
    if (c->kernels >= 0)
        sqlite3_bind_int64(st, 18, c->kernels);
    sqlite3_bind_text(st, 19, c->tool_version, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 20, run_id);
    return store_step_done(s, st, "storing a counter", NULL);
}

drtopk_status dh_store_has_counter(dh_store *s, int64_t machine_id, const char *git_commit,
                                   const dh_store_config *cfg, const char *source, const char *counter,
                                   int *found)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT count(*) FROM counters WHERE " KEY_WHERE " AND source = ?15 AND counter = ?16",
                      &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    store_bind_key(st, machine_id, git_commit, cfg);
    sqlite3_bind_text(st, 15, source, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 16, counter, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *found = sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? DRTOPK_OK : store_fail(s, "looking up a counter");
}

/* ---- the batched top-k's crossovers ----------------------------------------- */

#define BATCH_KEY_WHERE                                                                \
    "machine_id = ?1 AND git_commit = ?2 AND crossover = ?3 AND candidate = ?4 AND dtype = ?5 AND " \
    "segs = ?6 AND seed = ?7 AND rows = ?8 AND len = ?9 AND k = ?10"

static void bind_batch_key(sqlite3_stmt *st, int64_t machine_id, const char *git_commit,
                           const dh_store_batch_key *k)
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

drtopk_status dh_store_put_batch(dh_store *s, int64_t machine_id, int64_t run_id, const char *git_commit,
                                 const dh_store_batch_row *r)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT OR REPLACE INTO batch_measurements (machine_id, git_commit, crossover, candidate, "
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
    return store_step_done(s, st, "storing a batched measurement", NULL);
}

drtopk_status dh_store_has_batch(dh_store *s, int64_t machine_id, const char *git_commit,
                                 const dh_store_batch_key *key, int *found)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT count(*) FROM batch_measurements WHERE " BATCH_KEY_WHERE, &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    bind_batch_key(st, machine_id, git_commit, key);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *found = sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? DRTOPK_OK : store_fail(s, "looking up a batched measurement");
}

drtopk_status dh_store_each_batch_source(dh_store *s,
                                         int (*fn)(int64_t machine_id, const char *git_commit, const char *gpu,
                                                   void *ctx), void *ctx)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT DISTINCT b.machine_id, b.git_commit, m.name FROM batch_measurements b "
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
    return rc == SQLITE_DONE ? DRTOPK_OK : store_fail(s, "reading the batch measurements");
}

drtopk_status dh_store_each_batch(dh_store *s, int64_t machine_id, const char *git_commit,
                                  int (*fn)(const dh_store_batch_row *r, void *ctx), void *ctx)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT crossover, candidate, dtype, segs, seed, rows, len, k, reps, median_ms, verified, "
                         "coalesce(verify_ok, 0) FROM batch_measurements WHERE machine_id = ?1 AND git_commit = ?2 "
                         "AND status = 'ok' ORDER BY crossover, dtype, segs, rows, len, k, candidate", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_text(st, 2, git_commit, -1, SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        dh_store_batch_row r;
        memset(&r, 0, sizeof r);
        store_column_text(st, 0, r.key.crossover, sizeof r.key.crossover);
        store_column_text(st, 1, r.key.candidate, sizeof r.key.candidate);
        store_column_text(st, 2, r.key.dtype, sizeof r.key.dtype);
        store_column_text(st, 3, r.key.segs, sizeof r.key.segs);
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
    return rc == SQLITE_DONE ? DRTOPK_OK : store_fail(s, "reading batched measurements");
}

drtopk_status dh_store_put_batch_choice(dh_store *s, int64_t machine_id, const char *git_commit,
                                        const char *field, uint64_t value, int points)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT OR REPLACE INTO batch_choices (machine_id, git_commit, field, value, points, decided_at) "
                         "VALUES (?1, ?2, ?3, ?4, ?5, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))", &st) != DRTOPK_OK)
        return DRTOPK_ERR_IO;
    sqlite3_bind_int64(st, 1, machine_id);
    sqlite3_bind_text(st, 2, git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, field, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)value);
    sqlite3_bind_int(st, 5, points);
    return store_step_done(s, st, "storing a batch choice", NULL);
}

drtopk_status dh_store_each_batch_choice(dh_store *s,
                                         int (*fn)(const char *gpu, const char *field, uint64_t value,
                                                   void *ctx), void *ctx)
{
    sqlite3_stmt *st;
    int has = 0;
    if (store_table_exists(s->db, "batch_choices", &has) != SQLITE_OK) return store_fail(s, "reading the batch choices");
    if (!has) return DRTOPK_OK;     /* a read-only database of an older schema */
    /* per GPU model the (machine, commit) decided last; ties by commit text, so the order is fixed */
    if (store_prepare(s, "WITH latest AS (SELECT m.name AS name, c.machine_id AS mid, c.git_commit AS gc, "
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
    return rc == SQLITE_DONE ? DRTOPK_OK : store_fail(s, "reading the batch choices");
}
