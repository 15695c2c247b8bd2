/*
 * timed_sweep.c -- `tuner --gpu G`: the timed sweep of paper section 5.2.
 * Sweeps alpha, beta, the delegate build and the algorithm over k and |V|
 * through the public API and stores every measurement in the SQLite results
 * store; then fits Rule 4's const and the decision table (decide.c), beside
 * Eq. 11's theoretical const from the machine's microbenchmarked C_global and
 * C_shfl.  Resumable: each configuration is one committed step, a rerun skips
 * what this machine already measured at this commit, and concurrent tuners on
 * one database share the sweep by claiming configs.  For the algorithm table
 * (experiments/report.sh) a standalone algorithm stops at the k where one
 * call grew too slow (--skip-after-s).  --input FILE measures on a real data
 * set (paper Table 1 / Figure 19): its rows carry the data set's name as
 * their dist and are never Rule 4 fit points.  --regret builtin|tuned
 * measures, after the sweep and instead of the fit, the automatic plan at
 * each of its points (regret.c).
 */
#include "timed_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decide.h"
#include "measure.h"
#include "progress.h"
#include "regret.h"
#include "sweep.h"
#include "util.h"

/* ---- the skip rule: stop an algorithm where one call is too slow ---------- */

/* The prefix of the error text of a config the rule skipped; it is stored with
 * status 'unsupported' (the schema has no 'skipped' status) and found by it. */
#define SKIPPED_PREFIX "skipped: "

typedef struct {
    uint64_t k;                 /* smallest k whose call was too slow; 0: none */
    double ms;                  /* that call's median                          */
} skip_mark;

/* One mark per (dtype, dist, n, algorithm). */
static size_t skip_slot(const options *o, int dtype, int dist, int n, int algo)
{
    return (((size_t)dtype * (size_t)o->ndist + (size_t)dist) * (size_t)o->nn + (size_t)n) *
           (size_t)o->nalgo + (size_t)algo;
}

static void mark_slow(skip_mark *m, uint64_t k, double ms)
{
    if (m->k == 0 || k < m->k) {
        m->k = k;
        m->ms = ms;
    }
}

typedef struct {
    const options *o;
    int dtype;
    skip_mark *marks;
} skip_seed;

/* Slow standalone measurements of earlier runs at this commit mark their
 * slots too, so that a resumed sweep skips what the interrupted one would. */
static int seed_skip(const dh_store_point *pt, void *ctx)
{
    const skip_seed *ss = ctx;
    const options *o = ss->o;
    if (pt->beta != 0 || !(pt->median_ms > o->skip_after_ms))
        return 0;
    int d = 0, n = 0, a = 0;
    while (d < o->ndist && strcmp(dist_label(o, o->dist[d]), pt->dist))
        ++d;
    while (n < o->nn && o->n[n] != pt->n)
        ++n;
    while (a < o->nalgo && (o->algo[a].delegate || strcmp(o->algo[a].label, pt->algorithm)))
        ++a;
    if (d < o->ndist && n < o->nn && a < o->nalgo)
        mark_slow(&ss->marks[skip_slot(o, ss->dtype, d, n, a)], pt->k, pt->median_ms);
    return 0;
}

/* ---- the sweep ------------------------------------------------------------- */

/* todo[i]: config i is left to measure (resume: this machine has no row of
 * it at this commit; all with o->force); *ntodo their count.  0, or
 * EXIT_RUNTIME with a message when the store cannot be read. */
static int left_to_measure(const options *o, dh_store *db, int64_t machine_id, const char *commit,
                           const config *cfgs, size_t total, char *todo, size_t *ntodo)
{
    *ntodo = 0;
    for (size_t i = 0; i < total; ++i) {
        int found = 0;
        dh_store_config key;
        config_key(o, &cfgs[i], &key);
        if (!o->force && dh_store_has(db, machine_id, commit, &key, &found) != DRTOPK_OK) {
            fprintf(stderr, "tuner: %s\n", dh_store_errmsg(db));
            return EXIT_RUNTIME;
        }
        todo[i] = !found;
        *ntodo += !found;
    }
    return 0;
}

/* The skip marks of every slot, seeded from this commit's earlier rows
 * unless o->force; NULL with a message (*rc: the exit status) on failure. */
static skip_mark *skip_marks(const options *o, dh_store *db, int64_t machine_id, const char *commit, int *rc)
{
    size_t nslots = skip_slot(o, o->ndtype, 0, 0, 0);
    skip_mark *marks = calloc(nslots ? nslots : 1, sizeof *marks);
    if (!marks) {
        fprintf(stderr, "tuner: out of memory\n");
        *rc = EXIT_USAGE;
        return NULL;
    }
    for (int t = 0; t < o->ndtype && !o->force; ++t) {
        skip_seed ss = { o, t, marks };
        if (dh_store_each_point(db, machine_id, commit, drtopk_dtype_name(o->dtype[t]), seed_skip, &ss) != DRTOPK_OK) {
            fprintf(stderr, "tuner: %s\n", dh_store_errmsg(db));
            free(marks);
            *rc = EXIT_RUNTIME;
            return NULL;
        }
    }
    return marks;
}

/* What the measuring loop did: the configs measured (of them unsupported,
 * skipped, failed, verified, wrong), those left to a concurrent tuner, the
 * run's end status, the exit status so far and when it began. */
typedef struct {
    size_t done, failures, errors, unsupported, skipped, verified, elsewhere;
    const char *end_status;
    int exit_code;
    double t0;
} sweep_tally;

/* Measure and store each config of todo this run can claim, until the end
 * or a stop; *t what it did. */
static void measure_configs(const options *o, dh_store *db, int64_t machine_id, int64_t run_id,
                            const char *commit, const config *cfgs, size_t total, const char *todo, size_t ntodo,
                            skip_mark *marks, double *scratch, sweep_tally *t)
{
    tuner_catch_signals();
    buffers b;
    buffers_init(&b);
    int tty = isatty(STDERR_FILENO);
    double t0 = dh_now_ms();
    tuner_set_deadline(t0, o->max_minutes);
    size_t done = 0, failures = 0, errors = 0, unsupported = 0, skipped = 0, verified = 0, elsewhere = 0;
    const char *end_status = "done";
    int exit_code = 0;
    for (size_t i = 0; i < total; ++i) {
        if (!todo[i])
            continue;
        if (tuner_stop_signal) {
            end_status = "interrupted";
            exit_code = SIGNAL_EXIT_BASE + tuner_stop_signal;
            break;
        }
        if (tuner_deadline_ms > 0 && dh_now_ms() >= tuner_deadline_ms) {
            end_status = "time-limit";
            break;
        }
        const config *c = &cfgs[i];
        /* Concurrent tuners on this database share the sweep: a config
         * another live run measured or is measuring is left to it. */
        int mine = 0;
        dh_store_config key;
        config_key(o, c, &key);
        if (dh_store_claim(db, machine_id, run_id, commit, &key, o->force, &mine) != DRTOPK_OK) {
            fprintf(stderr, "\ntuner: claiming a config: %s\n", dh_store_errmsg(db));
            end_status = "failed";
            exit_code = EXIT_RUNTIME;
            break;
        }
        if (!mine) {
            ++elsewhere;
            continue;
        }
        int standalone = !o->algo[c->algo].delegate;
        skip_mark *mark = &marks[skip_slot(o, c->dtype, c->dist, c->n, c->algo)];
        uint64_t kmax = 0;
        for (size_t j = i; j < total && cfgs[j].dtype == c->dtype && cfgs[j].dist == c->dist && cfgs[j].n == c->n; ++j)
            if (todo[j] && cfgs[j].k > kmax)
                kmax = cfgs[j].k;
        dh_store_measurement m;
        memset(&m, 0, sizeof m);
        int skip = standalone && mark->k && c->k > mark->k;
        drtopk_status st = skip ? DRTOPK_OK
                                : buffers_dataset(o, &b, o->dtype[c->dtype], o->dist[c->dist], o->n[c->n], kmax);
        drtopk_plan plan;
        drtopk_problem p = { .backend = o->backend, .dtype = o->dtype[c->dtype], .order = DRTOPK_LARGEST,
                             .n = o->n[c->n], .k = c->k };
        drtopk_status plan_st = make_plan(o, c, &p, &plan);
        if (skip) {
            fill_key(o, c, &m.cfg, 0);     /* a standalone plan has no flags */
            m.status = DRTOPK_MEAS_UNSUPPORTED;
            snprintf(m.error, sizeof m.error, SKIPPED_PREFIX "one call took %.3g s at k = %llu (limit %g s)",
                     mark->ms / MS_PER_S, (unsigned long long)mark->k, o->skip_after_ms / MS_PER_S);
        } else if (st == DRTOPK_OK && plan_st == DRTOPK_ERR_UNSUPPORTED) {
            m.cfg = key;                    /* dr-onepass, dr-fused: no pipeline stage */
            m.status = DRTOPK_MEAS_UNSUPPORTED;
            snprintf(m.error, sizeof m.error, "%s", drtopk_status_string(plan_st));
        } else if (st != DRTOPK_OK || plan_st != DRTOPK_OK) {
            m.cfg = key;
            m.status = DRTOPK_MEAS_ERROR;
            snprintf(m.error, sizeof m.error, "%s: %s", st != DRTOPK_OK ? "preparing the data set" : "the plan",
                     drtopk_status_string(st != DRTOPK_OK ? st : plan_st));
            if (st != DRTOPK_OK)
                buffers_release(o, &b);
        } else {
            int do_verify = o->verify_every > 0 && done % (size_t)o->verify_every == 0;
            fill_key(o, c, &m.cfg, plan.flags);
            measure_plan(o, &plan, c->k, &b, do_verify, &m, scratch);
            if (standalone && m.status == DRTOPK_MEAS_OK && m.median_ms > o->skip_after_ms)
                mark_slow(mark, c->k, m.median_ms);
        }
        if (dh_store_begin(db) != DRTOPK_OK || dh_store_put(db, machine_id, run_id, commit, &m) != DRTOPK_OK ||
            dh_store_commit(db) != DRTOPK_OK) {
            fprintf(stderr, "\ntuner: storing a measurement: %s\n", dh_store_errmsg(db));
            end_status = "failed";
            exit_code = EXIT_RUNTIME;
            break;
        }
        ++done;
        char what[512];
        snprintf(what, sizeof what, "%s %s %s n=%llu k=%llu a=%d b=%d: %s", m.cfg.algorithm, m.cfg.dtype,
                 m.cfg.dist, (unsigned long long)m.cfg.n, (unsigned long long)m.cfg.k, m.cfg.alpha,
                 m.cfg.beta, m.status == DRTOPK_MEAS_OK ? "ok" : m.error);
        if (skip) {
            ++skipped;
        } else if (m.status == DRTOPK_MEAS_UNSUPPORTED) {
            ++unsupported;
        } else if (m.status == DRTOPK_MEAS_ERROR) {
            ++errors;
            fprintf(stderr, "%stuner: FAILED %s\n", tty ? "\n" : "", what);
        }
        if (m.verified) {
            ++verified;
            if (!m.verify_ok) {
                ++failures;
                fprintf(stderr, "%stuner: WRONG RESULT %s: %s\n", tty ? "\n" : "", what, m.verify_error);
            }
        }
        tuner_progress(done + elsewhere, ntodo, t0, what, 0);
    }
    tuner_progress(done + elsewhere, ntodo, t0, end_status, 1);
    buffers_release(o, &b);
    *t = (sweep_tally){ done, failures, errors, unsupported, skipped, verified, elsewhere, end_status, exit_code, t0 };
}

/* After a sweep that finished: the regret of the automatic plan (o->regret;
 * it ends run run_id), else nothing for --input's real data, else the
 * comparison (o->compare) or the fit.  The exit status, from exit_code. */
static int after_sweep(const options *o, dh_store *db, int64_t machine_id, int64_t run_id, const char *commit,
                       const dh_store_machine *mach, const dh_store_tuning *regret_tuning, int exit_code)
{
    if (o->regret) {
        regret_outcome ro;
        if (regret_run(o, db, machine_id, run_id, commit, mach, regret_tuning, &ro) != 0 ||
            !strcmp(ro.end_status, "failed"))
            exit_code = EXIT_USAGE;
        else if (!strcmp(ro.end_status, "interrupted"))
            exit_code = SIGNAL_EXIT_BASE + tuner_stop_signal;
        else if (ro.failed)
            exit_code = EXIT_FAILURES;
        if (dh_store_end_run(db, run_id, ro.end_status) != DRTOPK_OK)
            fprintf(stderr, "tuner: %s\n", dh_store_errmsg(db));
    } else if (o->input) {
        printf("tuner: %s measured on %s (no Rule 4 fit from real data)\n", o->input_name, o->input);
    } else {
        int rc = o->compare ? compare_plans(o, db, machine_id, commit, mach)
                            : fit_and_store(o, db, machine_id, commit, mach);
        if (rc == FIT_INTERRUPTED && tuner_stop_signal)
            exit_code = SIGNAL_EXIT_BASE + tuner_stop_signal;
        else if (rc == FIT_INTERRUPTED)
            printf("tuner: time budget reached during the held-out check; run the same command again to go on\n");
        else if (rc != 0)
            exit_code = EXIT_FAILURES;
    }
    return exit_code;
}

int timed_sweep(const options *o, dh_store *db, int64_t machine_id, int64_t run_id, const char *commit,
                const dh_store_machine *mach, const dh_store_tuning *regret_tuning)
{
    size_t total = 0;
    config *cfgs = sweep_configs(o, db, run_id, &total);
    if (!cfgs)
        return EXIT_USAGE;
    char *todo = calloc(total, 1);
    double *scratch = malloc((size_t)o->reps * SCRATCH_PER_REP * sizeof(double));
    if (!todo || !scratch) {
        fprintf(stderr, "tuner: out of memory for %zu configs of %d repetitions\n", total, o->reps);
        dh_store_end_run(db, run_id, "failed");
        free(todo);
        free(scratch);
        free(cfgs);
        return EXIT_USAGE;
    }
    size_t ntodo = 0;
    int rc = left_to_measure(o, db, machine_id, commit, cfgs, total, todo, &ntodo);
    skip_mark *marks = NULL;
    if (rc == 0) {
        printf("tuner: %s, commit %s, %zu configs in the sweep, %zu already measured, %zu to measure\n",
               mach->name, commit, total, total - ntodo, ntodo);
        fflush(stdout);
        marks = skip_marks(o, db, machine_id, commit, &rc);
    }
    if (rc != 0) {
        free(todo);
        free(scratch);
        free(cfgs);
        return rc;
    }
    sweep_tally t;
    measure_configs(o, db, machine_id, run_id, commit, cfgs, total, todo, ntodo, marks, scratch, &t);
    free(scratch);
    free(marks);
    free(todo);
    free(cfgs);
    const int finished = t.exit_code == 0 && !strcmp(t.end_status, "done");
    /* --regret measures on in this run: it ends after that */
    if (!(finished && o->regret) && dh_store_end_run(db, run_id, t.end_status) != DRTOPK_OK)
        fprintf(stderr, "tuner: %s\n", dh_store_errmsg(db));
    printf("tuner: %s: %zu measured (%zu unsupported, %zu skipped, %zu errors), %zu verified, %zu wrong results, "
           "%zu left to a concurrent tuner, %.1f s\n", t.end_status, t.done, t.unsupported, t.skipped, t.errors,
           t.verified, t.failures, t.elsewhere, (dh_now_ms() - t.t0) / MS_PER_S);
    if (!strcmp(t.end_status, "time-limit"))
        printf("tuner: time budget reached; run the same command again to go on\n");
    fflush(stdout);
    int exit_code = finished ? after_sweep(o, db, machine_id, run_id, commit, mach, regret_tuning, t.exit_code)
                             : t.exit_code;
    if (exit_code == 0 && (t.failures || t.errors))
        exit_code = EXIT_FAILURES;
    return exit_code;
}
