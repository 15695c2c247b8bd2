/*
 * decide.c -- from the tuner's measurements to the tuning table the library
 * runs (paper section 5.2): Rule 4's const per (algorithm, beta) for sizes
 * outside the measured grid, the decision table over (dtype, log2 n, log2 k)
 * whose choice at each grid point minimises the worst slowdown over the input
 * distributions measured there, and the held-out check.  The candidates are
 * every delegate plan swept and the standalone plans a table entry can name
 * (onepass, fused; 64-bit keys, which have no delegate plan, are decided
 * where two standalone plans were measured: measured_choice); the default
 * is the plan of the size rules
 * (drtopk_plan_size_rules: no table, not even the one compiled in for this
 * GPU model, so that the table stands on its own and `tuner --emit-table`
 * can compile it in alone), which a cell replaces only
 * where a candidate beats it by more than DECIDE_MARGIN, so a cell where the
 * default stays is left out of the table.  Each stored choice then runs
 * against the default at the cell's middle and its far corner (heldout.c:
 * each where the cell changes the plan), for every distribution; a choice
 * that loses at either by more than the measured
 * run-to-run noise is dropped (its cell runs the default plan; a point
 * whose two default measurements are CHECK_DISTURBED apart is measured
 * again, so that one disturbed run cannot set the noise).  `tuner --compare` prints tuned vs
 * default vs the best measured plan at the sweep's points.
 */
#include "decide.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "heldout.h"
#include "measure.h"
#include "progress.h"
#include "sweep.h"
#include "util.h"

#define PAPER_ALGORITHM "dr-radix"      /* the paper's pipeline, whose oracle     */
#define PAPER_BETA 2                    /* alpha table Figure 14 prints          */
#define NOISE_QUANTILE 0.9      /* the noise: 90th percentile of the default
                                   plan's two-measurement differences        */
#define NOISE_FLOOR 0.01        /* medians of a few reps never resolve less   */
#define MAX_DISTS 16            /* distributions one fit tells apart          */
#define MAX_CHOICES 1024        /* cells of one dtype's table                 */
#define CHECK_MEASUREMENTS 4    /* default, tuned, default, tuned             */
#define CHECK_DISTURBED 2.0     /* the default's two measurements this far apart:
                                   a disturbed run (another process, a clock
                                   change), not run-to-run noise: measured again */
#define CHECK_RETRIES 2         /* ... at most this many times                */
/* (algorithm, beta, build) of one dtype: every algorithm standalone, and as
 * dr- at every beta in both delegate builds (--full sweeps 74 of them) */
#define MAX_VARIANTS (DRTOPK_ALGO_COUNT + 2 * DRTOPK_ALGO_COUNT * DRTOPK_BETA_MAX)

/* ---- the measurements of one dtype ---------------------------------------- */

typedef struct {
    char dist[16];
    uint64_t n, k;
} group_key;

typedef struct {
    char algorithm[32];
    int beta;
    int warp;                   /* the warp-centric build where the library
                                   would build through shared memory          */
} variant_key;

typedef struct {
    drtopk_fit_sample *s;
    size_t count, cap;
    group_key *g;
    int ng, gcap;
    variant_key v[MAX_VARIANTS];
    int nv;
    char dist[MAX_DISTS][16];
    int nd;
    int overflow;
} point_set;

static int collect(const dh_store_point *pt, void *ctx)
{
    point_set *ps = ctx;
    dh_dist real;
    if (dh_dist_parse(pt->dist, &real) != DRTOPK_OK)
        return 0;               /* a real data set (tuner --input): not a fit point */
    int g = ps->ng - 1;
    if (g < 0 || strcmp(ps->g[g].dist, pt->dist) || ps->g[g].n != pt->n || ps->g[g].k != pt->k) {
        for (g = 0; g < ps->ng; ++g)
            if (!strcmp(ps->g[g].dist, pt->dist) && ps->g[g].n == pt->n && ps->g[g].k == pt->k)
                break;
        if (g == ps->ng) {
            if (ps->ng == ps->gcap) {
                int cap = ps->gcap ? 2 * ps->gcap : 64;
                group_key *ng = realloc(ps->g, (size_t)cap * sizeof *ng);
                if (!ng)
                    return ps->overflow = 1;
                ps->g = ng;
                ps->gcap = cap;
            }
            snprintf(ps->g[g].dist, sizeof ps->g[g].dist, "%s", pt->dist);
            ps->g[g].n = pt->n;
            ps->g[g].k = pt->k;
            ps->ng++;
        }
    }
    int warp = pt->beta > 0 && pt->alpha <= DRTOPK_SHARED_DELEGATE_MAX_ALPHA &&
               !(pt->flags & DRTOPK_SHARED_DELEGATE);
    int v;
    for (v = 0; v < ps->nv; ++v)
        if (!strcmp(ps->v[v].algorithm, pt->algorithm) && ps->v[v].beta == pt->beta && ps->v[v].warp == warp)
            break;
    if (v == ps->nv) {
        if (ps->nv == MAX_VARIANTS)
            return ps->overflow = 1;
        snprintf(ps->v[v].algorithm, sizeof ps->v[v].algorithm, "%s", pt->algorithm);
        ps->v[v].beta = pt->beta;
        ps->v[v].warp = warp;
        ps->nv++;
    }
    int d;
    for (d = 0; d < ps->nd && strcmp(ps->dist[d], pt->dist); ++d) {}
    if (d == ps->nd) {
        if (ps->nd == MAX_DISTS)
            return ps->overflow = 1;
        snprintf(ps->dist[ps->nd++], sizeof ps->dist[0], "%s", pt->dist);
    }
    if (ps->count == ps->cap) {
        size_t cap = ps->cap ? 2 * ps->cap : 1024;
        drtopk_fit_sample *ns = realloc(ps->s, cap * sizeof *ns);
        if (!ns)
            return ps->overflow = 1;
        ps->s = ns;
        ps->cap = cap;
    }
    ps->s[ps->count++] = (drtopk_fit_sample){ g, v, pt->n, pt->k, pt->alpha, pt->median_ms, d };
    return 0;
}

static void point_set_free(point_set *ps)
{
    free(ps->s);
    free(ps->g);
}

/* The oracle-vs-tuned table of one variant (Figure 14's data). */
static void print_oracle_table(const point_set *ps, int v, double c_fit)
{
    printf("%-4s %6s %9s | %6s %10s | %6s %10s %8s | %6s %10s %8s\n", "dist", "log2n", "k",
           "alpha*", "oracle ms", "alpha", "tuned ms", "slow", "a(c=3)", "c=3 ms", "slow");
    drtopk_fit_sample *vs = malloc((ps->count ? ps->count : 1) * sizeof *vs);
    if (!vs)
        return;
    size_t nvs = 0;
    for (size_t i = 0; i < ps->count; ++i)
        if (ps->s[i].variant == v)
            vs[nvs++] = ps->s[i];
    for (int g = 0; g < ps->ng; ++g) {
        double best = INFINITY;
        int astar = 0;
        for (size_t i = 0; i < nvs; ++i)
            if (vs[i].group == g && vs[i].ms < best) {
                best = vs[i].ms;
                astar = vs[i].alpha;
            }
        if (!isfinite(best))
            continue;
        const group_key *k = &ps->g[g];
        int at = drtopk_rule4_alpha(k->n, k->k, c_fit), a3 = drtopk_rule4_alpha(k->n, k->k, DRTOPK_RULE4_CONST_DEFAULT);
        int ex_t, ex_3;
        double tt = drtopk_fit_time_at(vs, nvs, g, at, &ex_t), t3 = drtopk_fit_time_at(vs, nvs, g, a3, &ex_3);
        printf("%-4s %6.2f %9llu | %6d %10.4f | %6d %10.4f %7.3fx%s| %6d %10.4f %7.3fx%s\n", k->dist,
               log2((double)k->n), (unsigned long long)k->k, astar, best, at, tt, tt / best,
               ex_t ? " " : "~", a3, t3, t3 / best, ex_3 ? "" : "~");
    }
    free(vs);
}

/* Fit Rule 4's const of every delegate variant of the library's own build
 * (warp == 0) and store the fits; consts[v] gets it (the paper's const where
 * no point was swept over alpha).  0, or -1. */
static int fit_consts(const point_set *ps, dh_store *db, int64_t machine_id, const char *commit, const char *dt,
                      double theory, double *consts)
{
    drtopk_fit_sample *vs = malloc((ps->count ? ps->count : 1) * sizeof *vs);
    if (!vs)
        return -1;
    int rc = 0;
    for (int v = 0; v < ps->nv && rc == 0; ++v) {
        consts[v] = DRTOPK_RULE4_CONST_DEFAULT;
        if (ps->v[v].beta == 0 || ps->v[v].warp)
            continue;       /* standalone: no alpha; warp: alphas 6..7 only */
        size_t nvs = 0;
        for (size_t i = 0; i < ps->count; ++i)
            if (ps->s[i].variant == v)
                vs[nvs++] = ps->s[i];
        /* alpha* needs an alpha sweep: points a fixed-plan sweep (--alpha-span 0)
         * measured at one alpha tell nothing about Rule 4's const */
        nvs = drtopk_fit_keep_swept(vs, nvs, DRTOPK_FIT_MIN_ALPHAS);
        drtopk_fit_result fr;
        if (nvs == 0) {
            printf("fit %s %s beta=%d: not fitted (no point swept over alpha)\n", dt, ps->v[v].algorithm,
                   ps->v[v].beta);
            continue;
        }
        if (drtopk_fit_rule4(vs, nvs, &fr) != 0) {
            rc = -1;
            break;
        }
        consts[v] = fr.const_time;
        dh_store_fit f = { .beta = ps->v[v].beta, .const_time = fr.const_time, .const_lsq = fr.const_lsq,
                               .const_theory = theory, .mean_slowdown = fr.mean_slowdown,
                               .worst_slowdown = fr.worst_slowdown, .points = fr.points };
        snprintf(f.dtype, sizeof f.dtype, "%s", dt);
        snprintf(f.algorithm, sizeof f.algorithm, "%s", ps->v[v].algorithm);
        if (dh_store_put_fit(db, machine_id, commit, &f) != DRTOPK_OK)
            rc = -1;
        printf("fit %s %s beta=%d: const_time %.3f (mean slowdown %.4fx, worst %.4fx, %.4f ms lost over %d "
               "points%s), const_lsq %.3f, const_theory %s%.3f\n",
               dt, ps->v[v].algorithm, ps->v[v].beta, fr.const_time, fr.mean_slowdown, fr.worst_slowdown,
               fr.lost_ms, fr.points, fr.uncovered ? ", some alphas outside the measured window" : "",
               fr.const_lsq, theory > 0 ? "" : "n/a ", theory);
    }
    free(vs);
    return rc;
}

/* ---- the plans compared ----------------------------------------------------- */

/* One point where a tuned plan runs against the default one. */
typedef struct {
    int cell;                   /* the choice checked (held-out), or -1       */
    drtopk_dtype dtype;
    dh_dist dist;
    uint64_t n, k;
    drtopk_plan tuned, deflt;
    dh_store_check row;     /* measured or read back                      */
    int same;                   /* the tuned plan is the default plan         */
    int ok;                     /* measured (or same)                         */
} check_point;

static int cmp_check_point(const void *pa, const void *pb)
{
    const check_point *a = pa, *b = pb;
    if (a->dtype != b->dtype) return a->dtype < b->dtype ? -1 : 1;
    if (a->dist != b->dist) return a->dist < b->dist ? -1 : 1;
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    return (a->k > b->k) - (a->k < b->k);
}

static void fill_row_key(const options *o, const char *kind, check_point *cp)
{
    dh_store_check *r = &cp->row;
    memset(r, 0, sizeof *r);
    snprintf(r->kind, sizeof r->kind, "%s", kind);
    snprintf(r->dtype, sizeof r->dtype, "%s", drtopk_dtype_name(cp->dtype));
    snprintf(r->dist, sizeof r->dist, "%s", dh_dist_name(cp->dist));
    r->seed = o->seed;
    r->n = cp->n;
    r->k = cp->k;
    plan_label(&cp->tuned, r->tuned_algorithm, sizeof r->tuned_algorithm);
    r->tuned_alpha = cp->tuned.alpha;
    r->tuned_beta = cp->tuned.beta;
    r->tuned_flags = cp->tuned.flags;
    r->default_alpha = cp->deflt.alpha;
    r->default_beta = cp->deflt.beta;
    r->default_flags = cp->deflt.flags;
}

/* Measure (or read back) every point: default, tuned, default, tuned on one
 * resident data set, so that the two measurements of a plan are apart in
 * time.  Returns 0, -1 (a store or measurement error), or FIT_INTERRUPTED. */
static int run_checks(const options *o, dh_store *db, int64_t machine_id, const char *commit, check_point *cp,
                      size_t count, int skip_same, const char *what)
{
    qsort(cp, count, sizeof *cp, cmp_check_point);
    size_t todo = 0;
    for (size_t i = 0; i < count; ++i) {
        int found = 0;
        cp[i].same = skip_same && plans_equal(&cp[i].tuned, &cp[i].deflt);
        if (!cp[i].same && dh_store_get_check(db, machine_id, commit, &cp[i].row, &found) != DRTOPK_OK) {
            fprintf(stderr, "tuner: %s\n", dh_store_errmsg(db));
            return -1;
        }
        cp[i].ok = cp[i].same || found;
        todo += !cp[i].ok;
    }
    printf("tuner: %s: %zu points, %zu to measure (%zu read back or the same plan as the default)\n", what, count,
           todo, count - todo);
    fflush(stdout);
    double *scratch = malloc((size_t)o->reps * SCRATCH_PER_REP * sizeof(double));
    if (!scratch)
        return -1;
    buffers b;
    buffers_init(&b);
    int rc = 0;
    size_t done = 0;
    double t0 = dh_now_ms();
    for (size_t i = 0; i < count && rc == 0; ++i) {
        if (cp[i].ok)
            continue;
        if (tuner_should_stop()) {
            rc = FIT_INTERRUPTED;
            break;
        }
        uint64_t kmax = 0;
        for (size_t j = i; j < count && cp[j].dtype == cp[i].dtype && cp[j].dist == cp[i].dist && cp[j].n == cp[i].n; ++j)
            if (cp[j].k > kmax)
                kmax = cp[j].k;
        int fresh = b.n != cp[i].n || b.dtype != cp[i].dtype || b.dist != cp[i].dist;
        drtopk_status st = buffers_dataset(o, &b, cp[i].dtype, cp[i].dist, cp[i].n, kmax);
        if (st != DRTOPK_OK) {
            fprintf(stderr, "tuner: %s: preparing %s %s n = %llu: %s\n", what, drtopk_dtype_name(cp[i].dtype),
                    dh_dist_name(cp[i].dist), (unsigned long long)cp[i].n, drtopk_status_string(st));
            rc = -1;
            break;
        }
        if (fresh) {
            /* a new data set: one untimed measurement first, so that the
             * generation and the allocations do not weigh on the first plan */
            dh_store_measurement warm;
            memset(&warm, 0, sizeof warm);
            measure_plan(o, &cp[i].deflt, cp[i].k, &b, 0, &warm, scratch);
        }
        const drtopk_plan *order[CHECK_MEASUREMENTS] = { &cp[i].deflt, &cp[i].tuned, &cp[i].deflt, &cp[i].tuned };
        double *slot[CHECK_MEASUREMENTS] = { &cp[i].row.default_ms[0], &cp[i].row.tuned_ms[0],
                                             &cp[i].row.default_ms[1], &cp[i].row.tuned_ms[1] };
        for (int attempt = 0; attempt <= CHECK_RETRIES && rc == 0; ++attempt) {
            for (int r = 0; r < CHECK_MEASUREMENTS && rc == 0; ++r) {
                dh_store_measurement m;
                memset(&m, 0, sizeof m);
                measure_plan(o, order[r], cp[i].k, &b, 0, &m, scratch);
                if (m.status != DRTOPK_MEAS_OK) {
                    fprintf(stderr, "tuner: %s: %s %s n = %llu k = %llu alpha = %d: %s\n", what,
                            drtopk_dtype_name(cp[i].dtype), dh_dist_name(cp[i].dist), (unsigned long long)cp[i].n,
                            (unsigned long long)cp[i].k, order[r]->alpha, m.error);
                    rc = -1;
                }
                *slot[r] = m.median_ms;
            }
            const double *d = cp[i].row.default_ms;
            if (!(fmax(d[0], d[1]) > fmin(d[0], d[1]) * CHECK_DISTURBED)) break;
        }
        if (rc == 0 && (dh_store_begin(db) != DRTOPK_OK ||
                        dh_store_put_check(db, machine_id, commit, &cp[i].row) != DRTOPK_OK ||
                        dh_store_commit(db) != DRTOPK_OK)) {
            fprintf(stderr, "tuner: storing a check: %s\n", dh_store_errmsg(db));
            dh_store_rollback(db);
            rc = -1;
        }
        cp[i].ok = rc == 0;
        char line[160];
        snprintf(line, sizeof line, "%s %s %s n=%llu k=%llu", what, drtopk_dtype_name(cp[i].dtype),
                 dh_dist_name(cp[i].dist), (unsigned long long)cp[i].n, (unsigned long long)cp[i].k);
        tuner_progress(++done, todo, t0, line, 0);
    }
    if (todo)
        tuner_progress(done, todo, t0, rc == FIT_INTERRUPTED ? "interrupted" : "done", 1);
    buffers_release(o, &b);
    free(scratch);
    return rc;
}

/* The run-to-run noise of the default plan over the measured points. */
static double checks_noise(const check_point *cp, size_t count)
{
    double *a = malloc((count ? count : 1) * sizeof *a), *b = malloc((count ? count : 1) * sizeof *b);
    int pairs = 0;
    double noise = NOISE_FLOOR;
    if (a && b) {
        for (size_t i = 0; i < count; ++i)
            if (cp[i].ok && !cp[i].same) {
                a[pairs] = cp[i].row.default_ms[0];
                b[pairs++] = cp[i].row.default_ms[1];
            }
        noise = drtopk_fit_noise(a, b, pairs, NOISE_QUANTILE, NOISE_FLOOR);
    }
    free(a);
    free(b);
    return noise;
}

static double min2(const double v[2])
{
    return v[0] < v[1] ? v[0] : v[1];
}

static void describe_plan(const drtopk_plan *p, char *out, size_t len)
{
    if (!(p->flags & DRTOPK_DELEGATE)) {
        plan_label(p, out, len);        /* standalone: no alpha, beta or build */
        return;
    }
    snprintf(out, len, "a%d b%d %s", p->alpha, p->beta,
             p->alpha > DRTOPK_SHARED_DELEGATE_MAX_ALPHA ? "warp"
             : (p->flags & DRTOPK_SHARED_DELEGATE) ? (p->alpha < TUNED_BUILD_ALPHA_MIN ? "shared" : "staged")
                                                   : "warp");
}

/* ---- the held-out check ------------------------------------------------------ */

/* Check the choices of dtype t at held-out points (heldout_points: the
 * cell's middle and far corner, each where the cell changes the plan), for
 * every distribution; mark each kept or dropped and print the table.  0, -1
 * or FIT_INTERRUPTED. */
static int heldout_check(const options *o, dh_store *db, int64_t machine_id, const char *commit, drtopk_dtype t,
                         dh_store_choice *ch, const drtopk_fit_decision *dec, int nch)
{
    size_t cap = (size_t)nch * (size_t)o->ndist * HELDOUT_POINTS_MAX, count = 0;
    check_point *cp = calloc(cap ? cap : 1, sizeof *cp);
    if (!cp)
        return -1;
    uint64_t n_max = 0;
    for (int i = 0; i < o->nn; ++i)
        n_max = o->n[i] > n_max ? o->n[i] : n_max;
    for (int c = 0; c < nch; ++c) {
        drtopk_tuning_entry e;
        if (!dh_store_choice_entry(t, &ch[c], &e))
            continue;       /* no entry the library runs: the loader leaves it out too */
        drtopk_tuning table = { .gpu_name = "held-out check", .entries = &e, .count = 1 };
        uint64_t pn[HELDOUT_POINTS_MAX], pk[HELDOUT_POINTS_MAX];
        const int points = heldout_points(o->backend, t, &ch[c], dec[c].n, dec[c].k, n_max, pn, pk);
        for (int q = 0; q < points; ++q)
            for (int d = 0; d < o->ndist; ++d) {
                check_point *p = &cp[count];
                p->cell = c;
                p->dtype = t;
                p->dist = o->dist[d];
                p->n = pn[q];
                p->k = pk[q];
                drtopk_problem pr = { .backend = o->backend, .dtype = t, .n = p->n, .k = p->k };
                if (drtopk_plan_auto(&p->tuned, &pr, &table) != DRTOPK_OK ||
                    p->tuned.const_source != DRTOPK_CONST_TUNING ||
                    drtopk_plan_size_rules(&p->deflt, &pr) != DRTOPK_OK)
                    continue;       /* the point fell outside its cell: no check */
                fill_row_key(o, "heldout", p);
                ++count;
            }
    }
    int rc = run_checks(o, db, machine_id, commit, cp, count, 1, "held-out check");
    if (rc != 0) {
        free(cp);
        return rc;
    }
    double noise = checks_noise(cp, count);
    for (int c = 0; c < nch; ++c)
        ch[c].status = DRTOPK_CHOICE_KEPT;
    for (size_t i = 0; i < count; ++i)
        if (!cp[i].same && drtopk_fit_loses(cp[i].row.tuned_ms, cp[i].row.default_ms, noise))
            ch[cp[i].cell].status = DRTOPK_CHOICE_DROPPED;
    printf("held-out check, %s (noise %.2f%%: the %.0fth percentile of the default plan's two measurements):\n",
           drtopk_dtype_name(t), 100 * noise, 100 * NOISE_QUANTILE);
    printf("%-9s %-9s %-4s %12s %9s | %-16s %9s | %-16s %9s %7s  %s\n", "log2 n", "log2 k", "dist", "n", "k",
           "default", "ms", "tuned", "ms", "t/d", "verdict");
    for (size_t i = 0; i < count; ++i) {
        const dh_store_choice *c = &ch[cp[i].cell];
        char dp[32], tp[32], ln[16], lk[16];
        describe_plan(&cp[i].deflt, dp, sizeof dp);
        describe_plan(&cp[i].tuned, tp, sizeof tp);
        snprintf(ln, sizeof ln, "%d..%d", c->log2n_min, c->log2n_max);
        snprintf(lk, sizeof lk, "%d..%d", c->log2k_min, c->log2k_max);
        double d = cp[i].same ? 0 : min2(cp[i].row.default_ms), tt = cp[i].same ? 0 : min2(cp[i].row.tuned_ms);
        int loses = !cp[i].same && drtopk_fit_loses(cp[i].row.tuned_ms, cp[i].row.default_ms, noise);
        printf("%-9s %-9s %-4s %12llu %9llu | %-16s %9.4f | %-16s %9.4f %6.3fx  %s\n", ln, lk,
               dh_dist_name(cp[i].dist), (unsigned long long)cp[i].n, (unsigned long long)cp[i].k, dp, d, tp, tt,
               cp[i].same ? 1.0 : tt / d, cp[i].same ? "same plan" : loses ? "LOSES: cell dropped" : "ok");
    }
    free(cp);
    return 0;
}

/* ---- the fit, the decision table and its check ------------------------------- */

/* What the default plan callback needs: the measured variants of one dtype
 * and the problem the library would plan. */
typedef struct {
    const point_set *ps;
    drtopk_backend backend;
    drtopk_dtype dtype;
} default_ctx;

/* The size rules' plan at (n, k), as a measured (variant, alpha): 1, or 0
 * when no variant measured is that plan (drtopk_fit_default). */
static int default_plan_at(const void *ctx, uint64_t n, uint64_t k, int *variant, int *alpha)
{
    const default_ctx *c = ctx;
    drtopk_problem pr = { .backend = c->backend, .dtype = c->dtype, .n = n, .k = k };
    drtopk_plan plan;
    char label[32];
    if (drtopk_plan_size_rules(&plan, &pr) != DRTOPK_OK)
        return 0;       /* a problem the library refuses has no default plan */
    plan_label(&plan, label, sizeof label);
    const int delegate = (plan.flags & DRTOPK_DELEGATE) != 0;
    const int warp = delegate && plan.alpha <= DRTOPK_SHARED_DELEGATE_MAX_ALPHA &&
                     !(plan.flags & DRTOPK_SHARED_DELEGATE);
    for (int v = 0; v < c->ps->nv; ++v)
        if (!strcmp(c->ps->v[v].algorithm, label) && c->ps->v[v].beta == (delegate ? plan.beta : 0) &&
            c->ps->v[v].warp == warp) {
            *variant = v;
            *alpha = delegate ? plan.alpha : 0;
            return 1;
        }
    return 0;
}

/* Whether variant v is a standalone plan a table entry can name (the
 * one-read and the fused top-k; drtopk_tuning_entry). */
static int standalone_entry(const variant_key *v)
{
    drtopk_algo a;
    int delegate = 0;
    return v->beta == 0 && drtopk_algo_parse(v->algorithm, &a, &delegate) == DRTOPK_OK && !delegate &&
           (a == DRTOPK_ALGO_ONEPASS || a == DRTOPK_ALGO_FUSED);
}

/* Whether the samples hold a choice at (n, k): among the swept ones
 * (drtopk_fit_keep_swept's) a pipeline variant swept over alpha, or, where
 * no pipeline plan was measured at all, two standalone plans among every
 * sample (64-bit keys, which have no pipeline, choose among those). */
static int measured_choice(const drtopk_fit_sample *swept, size_t nswept, const drtopk_fit_sample *all,
                           size_t nall, uint64_t n, uint64_t k)
{
    for (size_t j = 0; j < nswept; ++j)
        if (swept[j].n == n && swept[j].k == k && swept[j].alpha > 0)
            return 1;
    int first = -1, pair = 0;
    for (size_t j = 0; j < nall; ++j) {
        if (all[j].n != n || all[j].k != k)
            continue;
        if (all[j].alpha > 0)
            return 0;       /* a fixed-plan pipeline sweep: no choice */
        pair |= first >= 0 && all[j].variant != first;
        first = all[j].variant;
    }
    return pair;
}

static int fit_dtype(const options *o, dh_store *db, int64_t machine_id, const char *commit,
                     drtopk_dtype t, double theory)
{
    const char *dt = drtopk_dtype_name(t);
    point_set ps = { 0 };
    if (dh_store_each_point(db, machine_id, commit, dt, collect, &ps) != DRTOPK_OK || ps.overflow) {
        fprintf(stderr, "tuner: reading measurements for the fit: %s\n",
                ps.overflow ? "too many variants or distributions, or out of memory" : dh_store_errmsg(db));
        point_set_free(&ps);
        return -1;
    }
    if (ps.count == 0) {
        printf("fit %s: no measurements at commit %s on this machine yet\n", dt, commit);
        point_set_free(&ps);
        return 0;
    }
    /* Decide only where the sweep measured a choice (measured_choice): a
     * fixed-plan sweep (--alpha-span 0) of one pipeline variant measured one
     * plan per point, which is no choice. */
    drtopk_fit_sample *swept = malloc((ps.count ? ps.count : 1) * sizeof *swept);
    uint64_t (*at)[3] = malloc((ps.count ? ps.count : 1) * sizeof *at); /* n, k, whether a choice */
    if (!swept || !at) {
        free(swept);
        free(at);
        point_set_free(&ps);
        return -1;
    }
    memcpy(swept, ps.s, ps.count * sizeof *swept);
    size_t nswept = drtopk_fit_keep_swept(swept, ps.count, DRTOPK_FIT_MIN_ALPHAS), nat = 0, kept = 0;
    for (size_t j = 0; j < nswept; ++j) {
        int seen = 0;
        for (size_t a = 0; a < nat && !seen; ++a)
            seen = at[a][0] == swept[j].n && at[a][1] == swept[j].k;
        if (!seen) {
            at[nat][0] = swept[j].n;
            at[nat][1] = swept[j].k;
            at[nat++][2] = (uint64_t)measured_choice(swept, nswept, ps.s, ps.count, swept[j].n, swept[j].k);
        }
    }
    for (size_t i = 0; i < ps.count; ++i) {
        int at_swept = 0;
        for (size_t j = 0; j < nat && !at_swept; ++j)
            at_swept = at[j][2] && at[j][0] == ps.s[i].n && at[j][1] == ps.s[i].k;
        if (at_swept)
            swept[kept++] = ps.s[i];
    }
    free(at);
    double consts[MAX_VARIANTS];
    drtopk_fit_decision *dec = malloc(MAX_CHOICES * sizeof *dec);
    drtopk_fit_cell *cell = malloc(MAX_CHOICES * sizeof *cell);
    dh_store_choice *ch = malloc(MAX_CHOICES * sizeof *ch);
    drtopk_fit_decision *keep_dec = malloc(MAX_CHOICES * sizeof *keep_dec);
    int rc = dec && cell && ch && keep_dec ? 0 : -1, nch = 0;
    const default_ctx dctx = { &ps, o->backend, t };
    const drtopk_fit_default dflt = { .plan_at = default_plan_at, .ctx = &dctx, .margin = DECIDE_MARGIN };
    unsigned char standalone[MAX_VARIANTS];
    for (int v = 0; v < ps.nv; ++v)
        standalone[v] = (unsigned char)standalone_entry(&ps.v[v]);
    int nd = rc ? -1 : drtopk_fit_decide(swept, kept, &dflt, standalone, dec, MAX_CHOICES);
    free(swept);
    if (nd < 0 || drtopk_fit_cells(dec, nd, cell) != 0) {
        fprintf(stderr, "tuner: the decision table of %s: more than %d grid points or out of memory\n", dt,
                MAX_CHOICES);
        rc = -1;
    }
    int defaults = 0;
    for (int i = 0; rc == 0 && i < nd; ++i) {
        if (cell[i].log2n_min > cell[i].log2n_max)
            continue;       /* a second grid point in the same cell */
        if (dec[i].is_default) {
            ++defaults;     /* the size rules' plan stays there */
            continue;
        }
        const variant_key *v = &ps.v[dec[i].variant];
        dh_store_choice *c = &ch[nch];
        *c = (dh_store_choice){ .log2n_min = cell[i].log2n_min, .log2n_max = cell[i].log2n_max,
                                    .log2k_min = cell[i].log2k_min, .log2k_max = cell[i].log2k_max,
                                    .beta = v->beta, .rule4_const = dec[i].alpha > 0 ? cell[i].rule4_const : 0,
                                    .shared_build_max_alpha = v->warp ? dec[i].alpha - 1 : 0,
                                    .mean_slowdown = dec[i].mean_slowdown, .worst_slowdown = dec[i].worst_slowdown,
                                    .points = dec[i].dists, .status = DRTOPK_CHOICE_UNCHECKED };
        snprintf(c->algorithm, sizeof c->algorithm, "%s", v->algorithm);
        keep_dec[nch++] = dec[i];
    }
    if (rc == 0) {
        printf("decision table %s (%d cells; worst and mean slowdown over the distributions at the grid point; "
               "%d more grid points keep the size rules' plan):\n", dt, nch, defaults);
        printf("%-9s %-9s %-10s %4s %6s %8s %9s %9s %5s\n", "log2 n", "log2 k", "algorithm", "beta", "alpha",
               "const", "worst", "mean", "dists");
        printf("(alpha w: the warp-centric delegate build; a cell is kept where it beats the size rules' plan "
               "by more than %.0f%% at worst)\n", 100 * DECIDE_MARGIN);
        for (int i = 0; i < nch; ++i) {
            char ln[16], lk[16];
            snprintf(ln, sizeof ln, "%d..%d", ch[i].log2n_min, ch[i].log2n_max);
            snprintf(lk, sizeof lk, "%d..%d", ch[i].log2k_min, ch[i].log2k_max);
            printf("%-9s %-9s %-10s %4d %5d%s %8.3f %8.4fx %8.4fx %5d\n", ln, lk, ch[i].algorithm, ch[i].beta,
                   keep_dec[i].alpha, ch[i].shared_build_max_alpha ? "w" : " ", ch[i].rule4_const,
                   ch[i].worst_slowdown, ch[i].mean_slowdown, ch[i].points);
        }
        fflush(stdout);
    }
    if (rc == 0 && !o->no_check && !o->fit_only && nch > 0)
        rc = heldout_check(o, db, machine_id, commit, t, ch, keep_dec, nch);
    else if (rc == 0 && o->fit_only && !o->no_check && nch > 0)
        printf("tuner: --fit-only: the %s table is stored unchecked (run without --fit-only to check it)\n", dt);
    if (rc == 0) {
        if (dh_store_begin(db) != DRTOPK_OK ||
            fit_consts(&ps, db, machine_id, commit, dt, theory, consts) != 0 ||
            dh_store_put_choices(db, machine_id, commit, dt, ch, nch) != DRTOPK_OK ||
            dh_store_commit(db) != DRTOPK_OK) {
            fprintf(stderr, "tuner: storing the fit of %s: %s\n", dt, dh_store_errmsg(db));
            dh_store_rollback(db);
            rc = -1;
        } else {
            int dropped = 0;
            for (int i = 0; i < nch; ++i)
                dropped += ch[i].status == DRTOPK_CHOICE_DROPPED;
            printf("tuner: stored the %s table: %d cells, %d dropped by the held-out check (they run the "
                   "plan the library runs without them)\n", dt, nch, dropped);
            /* Figure 14's table for the library's default variant */
            for (int v = 0; v < ps.nv; ++v)
                if (!strcmp(ps.v[v].algorithm, PAPER_ALGORITHM) && ps.v[v].beta == PAPER_BETA && !ps.v[v].warp) {
                    printf("oracle vs tuned alpha, %s %s beta=%d (const_time %.3f; ~ = nearest measured alpha):\n",
                           dt, ps.v[v].algorithm, ps.v[v].beta, consts[v]);
                    print_oracle_table(&ps, v, consts[v]);
                }
        }
    }
    free(dec);
    free(cell);
    free(ch);
    free(keep_dec);
    point_set_free(&ps);
    return rc;
}

int fit_and_store(const options *o, dh_store *db, int64_t machine_id, const char *commit,
                  const dh_store_machine *mach)
{
    double theory = (mach->c_global > 0 && mach->c_shfl > 0) ? drtopk_fit_theory_const(mach->c_global, mach->c_shfl)
                                                             : 0;
    int rc = 0;
    for (int t = 0; t < o->ndtype; ++t) {
        int r = fit_dtype(o, db, machine_id, commit, o->dtype[t], theory);
        if (r == FIT_INTERRUPTED)
            return r;
        if (r != 0)
            rc = -1;
    }
    return rc;
}

/* ---- tuner --compare ------------------------------------------------------------ */

int compare_plans(const options *o, dh_store *db, int64_t machine_id, const char *commit,
                  const dh_store_machine *mach)
{
    dh_store_tuning tun;
    char err[DRTOPK_STORE_ERR_LEN];
    if (dh_store_load_tuning(o->db, mach->uuid, mach->name, &tun, err, sizeof err) != DRTOPK_OK) {
        fprintf(stderr, "tuner: --compare: %s\n", err);
        return -1;
    }
    size_t cap = (size_t)o->ndtype * (size_t)o->ndist * (size_t)o->nn * MAX_LIST, count = 0;
    check_point *cp = calloc(cap, sizeof *cp);
    if (!cp) {
        dh_store_tuning_free(&tun);
        return -1;
    }
    for (int t = 0; t < o->ndtype; ++t)
    for (int d = 0; d < o->ndist; ++d)
    for (int ni = 0; ni < o->nn; ++ni) {
        uint64_t ks[MAX_LIST];
        int nks = sweep_ks(o, o->n[ni], ks);
        for (int ki = 0; ki < nks; ++ki) {
            check_point *p = &cp[count];
            p->cell = -1;
            p->dtype = o->dtype[t];
            p->dist = o->dist[d];
            p->n = o->n[ni];
            p->k = ks[ki];
            drtopk_problem pr = { .backend = o->backend, .dtype = p->dtype, .n = p->n, .k = p->k };
            if (drtopk_plan_auto(&p->tuned, &pr, &tun.table) != DRTOPK_OK ||
                drtopk_plan_auto(&p->deflt, &pr, NULL) != DRTOPK_OK)
                continue;
            fill_row_key(o, "compare", p);
            ++count;
        }
    }
    printf("tuner: --compare with the tuning of %s (%s, %zu table entries)\n",
           tun.gpu_name[0] ? tun.gpu_name : "nothing tuned: the default plan", tun.machine_uuid, tun.table.count);
    dh_store_tuning_free(&tun);
    int rc = run_checks(o, db, machine_id, commit, cp, count, 0, "compare");
    if (rc != 0) {
        free(cp);
        return rc;
    }
    double noise = checks_noise(cp, count);
    printf("%-4s %-4s %12s %9s | %-16s %9s | %-16s %9s | %9s %-36s | %7s %7s\n", "type", "dist", "n", "k", "default",
           "ms", "tuned", "ms", "best ms", "best plan", "t/d", "t/best");
    int slower = 0, rows = 0;
    double sum_best = 0, worst_d = 0;
    for (size_t i = 0; i < count; ++i) {
        check_point *p = &cp[i];
        double d = min2(p->row.default_ms), tt = min2(p->row.tuned_ms);
        double best = INFINITY;
        char best_cfg[96] = "";
        int found = 0;
        if (dh_store_best(db, machine_id, commit, p->row.dtype, p->row.dist, p->row.seed, p->n, p->k, &best,
                          best_cfg, sizeof best_cfg, &found) != DRTOPK_OK) {
            fprintf(stderr, "tuner: %s\n", dh_store_errmsg(db));
            rc = -1;
            break;
        }
        if (!found || tt < best) {
            best = tt;
            describe_plan(&p->tuned, best_cfg, sizeof best_cfg);
        }
        if (d < best) {
            best = d;
            describe_plan(&p->deflt, best_cfg, sizeof best_cfg);
        }
        char dp[32], tp[32];
        describe_plan(&p->deflt, dp, sizeof dp);
        describe_plan(&p->tuned, tp, sizeof tp);
        int loses = drtopk_fit_loses(p->row.tuned_ms, p->row.default_ms, noise);
        printf("%-4s %-4s %12llu %9llu | %-16s %9.4f | %-16s %9.4f | %9.4f %-36.36s | %6.3fx %6.3fx%s\n", p->row.dtype,
               p->row.dist, (unsigned long long)p->n, (unsigned long long)p->k, dp, d, tp, tt, best, best_cfg,
               tt / d, tt / best, loses ? "  SLOWER" : "");
        p->row.best_ms = best;
        snprintf(p->row.best_config, sizeof p->row.best_config, "%s", best_cfg);
        if (dh_store_put_check(db, machine_id, commit, &p->row) != DRTOPK_OK) {
            fprintf(stderr, "tuner: %s\n", dh_store_errmsg(db));
            rc = -1;
            break;
        }
        if (isfinite(tt) && isfinite(best) && best > 0) {
            slower += loses;
            sum_best += tt / best;
            if (tt / d > worst_d)
                worst_d = tt / d;
            ++rows;
        }
    }
    if (rows)
        printf("compare: %d points; tuned slower than default beyond the noise (%.2f%%) at %d; tuned/default at "
               "worst %.3fx; tuned/best %.4fx on average\n", rows, 100 * noise, slower, worst_d, sum_best / rows);
    free(cp);
    return rc;
}
