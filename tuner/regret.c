/*
 * regret.c -- `tuner --regret builtin|tuned`, the measuring engine of the
 * automatic plan's regret benchmark: after the sweep of forced plans
 * (timed_sweep.c, measured and stored as any sweep, no fit), the plan
 * drtopk_plan_auto resolves at every (dtype, dist, n, k) of the sweep is
 * measured on the same generated data -- without a tuning table (builtin:
 * the table compiled into the library for this GPU model, else its size
 * rules: what a program with no tuning database runs) or with this machine's
 * tuning loaded from --db (tuned) -- and stored as a measurement labelled
 * auto-builtin or auto-tuned that carries the resolved plan's algorithms,
 * alpha, beta and flags; right after it, on the same resident data, the
 * fastest forced plan of the sweep there is timed again and stored labelled
 * with DRTOPK_STORE_REF_SUFFIX, so that a regret compares two times of one
 * moment (the card's clocks drift by 10% and more over a sweep of minutes).
 * Then, from the stored measurements (dh_store_each_regret), each point's
 * regret: the automatic plan's time over the smaller of it and that
 * reference's, and per dtype the worst and the median.
 */
#include "regret.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"
#include "progress.h"
#include "sweep.h"

#define LABEL_BUILTIN DRTOPK_STORE_AUTO_PREFIX "builtin"
#define LABEL_TUNED DRTOPK_STORE_AUTO_PREFIX "tuned"
#define LABEL_LEN 32                  /* a measurement's algorithm column (dh_store_config) */
#define PLAN_TEXT_LEN 96              /* "dr-radix-ggks-oop alpha=24 beta=8 flags=0x1f" and room */

/* One point of the sweep. */
typedef struct {
    drtopk_dtype dtype;
    dh_dist dist;
    uint64_t n, k;
} point;

/* The store's algorithm label of mode's measurements: "auto-builtin" or
 * "auto-tuned" (DRTOPK_STORE_AUTO_PREFIX). */
static const char *regret_label(regret_mode mode)
{
    return mode == REGRET_TUNED ? LABEL_TUNED : LABEL_BUILTIN;
}

int regret_load_table(const options *o, const dh_store_machine *mach, dh_store_tuning *tuning)
{
    memset(tuning, 0, sizeof *tuning);
    if (o->regret != REGRET_TUNED)
        return 0;
    char err[DRTOPK_STORE_ERR_LEN];
    if (dh_store_load_tuning(o->db, mach->uuid, mach->name, tuning, err, sizeof err) != DRTOPK_OK) {
        fprintf(stderr, "tuner: --regret tuned: %s\n", err);
        return EXIT_USAGE;
    }
    /* a machine tuned to no cell is a tuning: where its table has no entry the
       library runs what it runs without one, as the tuner decided */
    if (tuning->machine_uuid[0] == '\0') {
        fprintf(stderr, "tuner: --regret tuned: %s holds no tuning of %s (%s): run the same sweep without "
                        "--regret first (it fits and stores the tuning), or measure the untuned plan with "
                        "--regret builtin\n", o->db, mach->name, mach->uuid);
        dh_store_tuning_free(tuning);
        return EXIT_USAGE;
    }
    return 0;
}

/* Every point of the sweep, dataset-major as the sweep measures them, into
 * a new array; *count its length.  NULL when out of memory. */
static point *sweep_points(const options *o, size_t *count)
{
    point *pts = malloc((size_t)o->ndtype * (size_t)o->ndist * (size_t)o->nn * MAX_LIST * sizeof *pts);
    size_t c = 0;
    if (!pts)
        return NULL;
    for (int t = 0; t < o->ndtype; ++t)
        for (int d = 0; d < o->ndist; ++d)
            for (int ni = 0; ni < o->nn; ++ni) {
                uint64_t ks[MAX_LIST];
                int nks = sweep_ks(o, o->n[ni], ks);
                for (int ki = 0; ki < nks; ++ki)
                    pts[c++] = (point){ o->dtype[t], o->dist[d], o->n[ni], ks[ki] };
            }
    *count = c;
    return pts;
}

static int same_data_set(const point *a, const point *b)
{
    return a->dtype == b->dtype && a->dist == b->dist && a->n == b->n;
}

/* The automatic plan at pt: with `table` (NULL: none), as a program calls it. */
static drtopk_status auto_plan(const options *o, const drtopk_tuning *table, const point *pt, drtopk_plan *plan)
{
    drtopk_problem p = { .backend = o->backend, .dtype = pt->dtype, .order = DRTOPK_LARGEST, .n = pt->n,
                         .k = pt->k };
    return drtopk_plan_auto(plan, &p, table);
}

/* The store key of the automatic plan at pt: the label, and the resolved
 * plan's fields, second_algo naming a standalone plan's algorithm too. */
static void auto_key(const options *o, const char *label, const point *pt, const drtopk_plan *plan,
                     dh_store_config *key)
{
    plan_key(o, label, pt->dtype, pt->dist, pt->n, pt->k, plan, key);
    if (!(plan->flags & DRTOPK_DELEGATE))
        snprintf(key->second_algo, sizeof key->second_algo, "%s", drtopk_algo_name(plan->second_algo));
}

/* What measuring the automatic plans came to. */
typedef struct {
    size_t measured, already, elsewhere, failed, verified, wrong;
    const char *end_status;     /* "done", "time-limit", "interrupted", "failed" */
} tally;

/* Store m in one transaction; 0, or -1 with a message. */
static int store_row(dh_store *db, int64_t machine_id, int64_t run_id, const char *commit,
                     const dh_store_measurement *m)
{
    if (dh_store_begin(db) == DRTOPK_OK && dh_store_put(db, machine_id, run_id, commit, m) == DRTOPK_OK &&
        dh_store_commit(db) == DRTOPK_OK)
        return 0;
    fprintf(stderr, "\ntuner: storing a measurement: %s\n", dh_store_errmsg(db));
    dh_store_rollback(db);
    return -1;
}

/* Count what measurement m came to, naming a failure on stderr. */
static void count_outcome(const dh_store_measurement *m, tally *t)
{
    char what[256];
    snprintf(what, sizeof what, "%s %s %s n=%llu k=%llu", m->cfg.algorithm, m->cfg.dtype, m->cfg.dist,
             (unsigned long long)m->cfg.n, (unsigned long long)m->cfg.k);
    ++t->measured;
    if (m->status != DRTOPK_MEAS_OK) {
        ++t->failed;
        fprintf(stderr, "\ntuner: FAILED %s: %s\n", what, m->error);
    }
    if (m->verified) {
        ++t->verified;
        if (!m->verify_ok) {
            ++t->wrong;
            fprintf(stderr, "\ntuner: WRONG RESULT %s: %s\n", what, m->verify_error);
        }
    }
}

/* Resolve the automatic plan of every point into plans[] and mark in todo[]
 * those this commit has not measured (all with o->force); a point whose plan
 * drtopk_plan_auto refuses is named and counted as failed.  The count to
 * measure, or -1 on a store error. */
static long plan_points(const options *o, dh_store *db, int64_t machine_id, const char *commit,
                        const char *label, const drtopk_tuning *table, const point *pts, size_t count,
                        drtopk_plan *plans, char *todo, tally *t)
{
    long ntodo = 0;
    for (size_t i = 0; i < count; ++i) {
        dh_store_config key;
        int found = 0;
        todo[i] = 0;
        if (auto_plan(o, table, &pts[i], &plans[i]) != DRTOPK_OK) {
            fprintf(stderr, "tuner: --regret: drtopk_plan_auto for %s %s n=%llu k=%llu: %s\n",
                    drtopk_dtype_name(pts[i].dtype), dh_dist_name(pts[i].dist), (unsigned long long)pts[i].n,
                    (unsigned long long)pts[i].k, drtopk_last_error());
            ++t->failed;
            continue;
        }
        auto_key(o, label, &pts[i], &plans[i], &key);
        if (!o->force && dh_store_has(db, machine_id, commit, &key, &found) != DRTOPK_OK) {
            fprintf(stderr, "tuner: %s\n", dh_store_errmsg(db));
            return -1;
        }
        todo[i] = !found;
        ntodo += !found;
        t->already += found;
    }
    return ntodo;
}

/* Time the fastest forced plan of the sweep at point pt again, right after
 * the automatic plan on the resident data set b, and store it labelled
 * `label` DRTOPK_STORE_REF_SUFFIX with that plan's fields.  A point without a
 * usable forced row gets none (its regret then has no reference).  0, or -1
 * on a store error. */
static int measure_reference(const options *o, dh_store *db, int64_t machine_id, int64_t run_id,
                             const char *commit, const char *label, const point *pt, const dh_store_config *at,
                             buffers *b, double *scratch, tally *t)
{
    dh_store_config best;
    double ms;
    int found = 0, delegate = 0;
    drtopk_algo algo;
    if (dh_store_best_forced(db, machine_id, commit, dh_timing_name(o->timing), at, &best, &ms, &found) !=
        DRTOPK_OK) {
        fprintf(stderr, "\ntuner: --regret: %s\n", dh_store_errmsg(db));
        return -1;
    }
    if (!found || drtopk_algo_parse(best.algorithm, &algo, &delegate) != DRTOPK_OK)
        return 0;
    const drtopk_problem p = { .backend = o->backend, .dtype = pt->dtype, .order = DRTOPK_LARGEST, .n = pt->n,
                               .k = pt->k, .values = b->v };
    drtopk_plan plan;
    if (drtopk_plan_explicit(&plan, &p, algo, delegate ? best.alpha : 0, delegate ? best.beta : 0,
                             delegate ? best.flags : best.flags & DRTOPK_SORTED) != DRTOPK_OK)
        return 0;
    char ref[LABEL_LEN];
    snprintf(ref, sizeof ref, "%s%s", label, DRTOPK_STORE_REF_SUFFIX);
    dh_store_measurement m;
    memset(&m, 0, sizeof m);
    auto_key(o, ref, pt, &plan, &m.cfg);
    measure_plan(o, &plan, pt->k, b, 0, &m, scratch);
    if (store_row(db, machine_id, run_id, commit, &m) != 0)
        return -1;
    if (m.status != DRTOPK_MEAS_OK) {
        ++t->failed;
        fprintf(stderr, "\ntuner: FAILED %s %s %s n=%llu k=%llu: %s\n", ref, m.cfg.dtype, m.cfg.dist,
                (unsigned long long)m.cfg.n, (unsigned long long)m.cfg.k, m.error);
    }
    return 0;
}

/* Measure and store the automatic plan at each point of todo[] (ntodo of
 * them), sharing the points with concurrent tuners through claims; every
 * o->verify_every-th measurement is checked against the reference. */
static void measure_todo(const options *o, dh_store *db, int64_t machine_id, int64_t run_id, const char *commit,
                         const char *label, const point *pts, const drtopk_plan *plans, const char *todo,
                         size_t count, size_t ntodo, double *scratch, tally *t)
{
    buffers b;
    buffers_init(&b);
    double t0 = dh_now_ms();
    t->end_status = "done";
    for (size_t i = 0; i < count; ++i) {
        if (!todo[i])
            continue;
        if (tuner_stop_signal) {
            t->end_status = "interrupted";
            break;
        }
        if (tuner_should_stop()) {
            t->end_status = "time-limit";
            break;
        }
        dh_store_measurement m;
        memset(&m, 0, sizeof m);
        auto_key(o, label, &pts[i], &plans[i], &m.cfg);
        int mine = 0;
        if (dh_store_claim(db, machine_id, run_id, commit, &m.cfg, o->force, &mine) != DRTOPK_OK) {
            fprintf(stderr, "\ntuner: claiming a point: %s\n", dh_store_errmsg(db));
            t->end_status = "failed";
            break;
        }
        if (!mine) {
            ++t->elsewhere;
            continue;
        }
        uint64_t kmax = 0;
        for (size_t j = i; j < count && same_data_set(&pts[j], &pts[i]); ++j)
            if (todo[j] && pts[j].k > kmax)
                kmax = pts[j].k;
        drtopk_status st = buffers_dataset(o, &b, pts[i].dtype, pts[i].dist, pts[i].n, kmax);
        if (st != DRTOPK_OK) {
            m.status = DRTOPK_MEAS_ERROR;
            snprintf(m.error, sizeof m.error, "preparing the data set: %s", drtopk_status_string(st));
            buffers_release(o, &b);
        } else {
            int do_verify = o->verify_every > 0 && t->measured % (size_t)o->verify_every == 0;
            measure_plan(o, &plans[i], pts[i].k, &b, do_verify, &m, scratch);
        }
        if (store_row(db, machine_id, run_id, commit, &m) != 0 ||
            (st == DRTOPK_OK && measure_reference(o, db, machine_id, run_id, commit, label, &pts[i], &m.cfg, &b,
                                                  scratch, t) != 0)) {
            t->end_status = "failed";
            break;
        }
        count_outcome(&m, t);
        char what[160];
        snprintf(what, sizeof what, "%s %s %s n=%llu k=%llu", label, m.cfg.dtype, m.cfg.dist,
                 (unsigned long long)m.cfg.n, (unsigned long long)m.cfg.k);
        tuner_progress(t->measured + t->elsewhere, ntodo, t0, what, 0);
    }
    if (ntodo)
        tuner_progress(t->measured + t->elsewhere, ntodo, t0, t->end_status, 1);
    buffers_release(o, &b);
}

/* Measure the automatic plan at every point of the sweep not measured yet. */
static void measure_points(const options *o, dh_store *db, int64_t machine_id, int64_t run_id,
                           const char *commit, const char *label, const drtopk_tuning *table, const point *pts,
                           size_t count, tally *t)
{
    double *scratch = malloc((size_t)o->reps * SCRATCH_PER_REP * sizeof(double));
    char *todo = malloc(count ? count : 1);
    drtopk_plan *plans = malloc((count ? count : 1) * sizeof *plans);
    long ntodo = -1;
    t->end_status = "failed";
    if (!scratch || !todo || !plans)
        fprintf(stderr, "tuner: --regret: out of memory for %zu points\n", count);
    else
        ntodo = plan_points(o, db, machine_id, commit, label, table, pts, count, plans, todo, t);
    if (ntodo >= 0) {
        printf("tuner: --regret: the automatic plan (%s) at %zu points, %zu already measured, %ld to measure\n",
               label, count, t->already, ntodo);
        fflush(stdout);
        measure_todo(o, db, machine_id, run_id, commit, label, pts, plans, todo, count, (size_t)ntodo, scratch, t);
    }
    free(scratch);
    free(todo);
    free(plans);
}

/* ---- the regret table ----------------------------------------------------- */

typedef struct {
    dh_store_regret *r;
    size_t count, cap;
    int overflow;
} regret_rows;

static int collect_row(const dh_store_regret *r, void *ctx)
{
    regret_rows *rows = ctx;
    if (rows->count == rows->cap) {
        size_t cap = rows->cap ? 2 * rows->cap : 256;
        dh_store_regret *nr = realloc(rows->r, cap * sizeof *nr);
        if (!nr)
            return rows->overflow = 1;
        rows->r = nr;
        rows->cap = cap;
    }
    rows->r[rows->count++] = *r;
    return 0;
}

/* The stored row of point pt (this sweep's seed), or NULL. */
static const dh_store_regret *row_of(const options *o, const regret_rows *rows, const point *pt)
{
    for (size_t i = 0; i < rows->count; ++i) {
        const dh_store_regret *r = &rows->r[i];
        if (r->n == pt->n && r->k == pt->k && r->seed == o->seed && !strcmp(r->dtype, drtopk_dtype_name(pt->dtype)) &&
            !strcmp(r->dist, dh_dist_name(pt->dist)))
            return r;
    }
    return NULL;
}

static void plan_text(const char *algorithm, int alpha, int beta, unsigned flags, char *out, size_t len)
{
    if (flags & DRTOPK_DELEGATE)
        snprintf(out, len, "%s alpha=%d beta=%d flags=0x%x", algorithm, alpha, beta, flags);
    else
        snprintf(out, len, "%s", algorithm);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Whether r's fastest forced plan is its automatic plan itself: the two
 * times are then one plan timed twice, and their ratio is the run's noise. */
static int one_plan(const dh_store_regret *r)
{
    return !strcmp(r->auto_algorithm, r->best_algorithm) && r->auto_alpha == r->best_alpha &&
           r->auto_beta == r->best_beta && r->auto_flags == r->best_flags;
}

/* Print each point of dtype t that has a regret, then its summary line;
 * *without: points of t without one (no usable automatic or forced row).
 * A point whose fastest forced plan is the automatic plan counts 1.000
 * (experiments/sql/plan_regret.sql's rule), its ratio printed beside as
 * noise.  scratch: room for count regrets. */
static void print_dtype(const options *o, const char *label, drtopk_dtype t, const regret_rows *rows,
                        const point *pts, size_t count, double *scratch, size_t *without)
{
    const dh_store_regret *worst = NULL;
    double worst_regret = 0, noise = 0;
    size_t n = 0;
    for (size_t i = 0; i < count; ++i) {
        if (pts[i].dtype != t)
            continue;
        const dh_store_regret *r = row_of(o, rows, &pts[i]);
        if (!r || !r->has_best) {
            ++*without;
            continue;
        }
        char ap[PLAN_TEXT_LEN], bp[PLAN_TEXT_LEN];
        plan_text(r->auto_algorithm, r->auto_alpha, r->auto_beta, r->auto_flags, ap, sizeof ap);
        plan_text(r->best_algorithm, r->best_alpha, r->best_beta, r->best_flags, bp, sizeof bp);
        const int same = one_plan(r);
        const double regret = same ? 1.0 : r->regret;
        printf("%-4s %-4s %12llu %9llu | %-40s %9.4f | %9.4f %-40s | %7.3fx", r->dtype, r->dist,
               (unsigned long long)r->n, (unsigned long long)r->k, ap, r->auto_ms, r->best_ms, bp, regret);
        if (same)
            printf("  (one plan timed twice: %.3fx)", r->regret);
        printf("\n");
        if (same && r->regret > noise)
            noise = r->regret;
        scratch[n++] = regret;
        if (!worst || regret > worst_regret) {
            worst = r;
            worst_regret = regret;
        }
    }
    if (!worst) {
        printf("regret %s %s: 0 points\n", label, drtopk_dtype_name(t));
        return;
    }
    qsort(scratch, n, sizeof *scratch, cmp_double);
    const double median = n % 2 ? scratch[n / 2] : 0.5 * (scratch[n / 2 - 1] + scratch[n / 2]);
    printf("regret %s %s: %zu points, worst %.3fx at %s n=%llu k=%llu, median %.3fx", label, drtopk_dtype_name(t),
           n, worst_regret, worst->dist, (unsigned long long)worst->n, (unsigned long long)worst->k, median);
    if (noise > 0)
        printf(", one plan timed twice up to %.3fx", noise);
    printf("\n");
}

/* The regret table of the sweep's points from the stored measurements.  0,
 * or -1 with a message. */
static int print_regret(const options *o, dh_store *db, int64_t machine_id, const char *commit,
                        const char *label, const char *gpu, const point *pts, size_t count)
{
    regret_rows rows = { 0 };
    double *scratch = malloc((count ? count : 1) * sizeof *scratch);
    if (!scratch || dh_store_each_regret(db, machine_id, commit, label, collect_row, &rows) != DRTOPK_OK ||
        rows.overflow) {
        fprintf(stderr, "tuner: --regret: %s\n",
                !scratch || rows.overflow ? "out of memory" : dh_store_errmsg(db));
        free(rows.r);
        free(scratch);
        return -1;
    }
    printf("regret of the automatic plan (%s) over the fastest forced plan measured at each point (timed again "
           "beside it), %s, commit %s; regret = auto ms / min(auto ms, best ms), 1.000 where the best is the "
           "automatic plan itself:\n", label, gpu, commit);
    printf("%-4s %-4s %12s %9s | %-40s %9s | %9s %-40s | %8s\n", "type", "dist", "n", "k", "auto plan", "auto ms",
           "best ms", "best forced plan", "regret");
    size_t without = 0;
    for (int t = 0; t < o->ndtype; ++t)
        print_dtype(o, label, o->dtype[t], &rows, pts, count, scratch, &without);
    if (without)
        printf("tuner: --regret: %zu points of the sweep have no regret: no usable measurement of the automatic "
               "plan or of any forced plan there (failed, or not measured yet)\n", without);
    free(rows.r);
    free(scratch);
    return 0;
}

int regret_run(const options *o, dh_store *db, int64_t machine_id, int64_t run_id, const char *commit,
               const dh_store_machine *mach, const dh_store_tuning *tuning, regret_outcome *out)
{
    const char *label = regret_label(o->regret);
    tally t = { 0 };
    size_t count = 0;
    point *pts = sweep_points(o, &count);
    memset(out, 0, sizeof *out);
    out->end_status = "failed";
    if (!pts) {
        fprintf(stderr, "tuner: --regret: out of memory\n");
        return -1;
    }
    measure_points(o, db, machine_id, run_id, commit, label, o->regret == REGRET_TUNED ? &tuning->table : NULL,
                   pts, count, &t);
    out->end_status = t.end_status;
    out->failed = t.failed + t.wrong;
    printf("tuner: --regret: %s: %zu measured, %zu failed, %zu verified, %zu wrong results, %zu left to a concurrent "
           "tuner\n", t.end_status, t.measured, t.failed, t.verified, t.wrong, t.elsewhere);
    int rc = 0;
    if (!strcmp(t.end_status, "done"))
        rc = print_regret(o, db, machine_id, commit, label, mach->name, pts, count);
    else if (!strcmp(t.end_status, "time-limit"))
        printf("tuner: time budget reached; run the same command again to go on\n");
    free(pts);
    return rc;
}
