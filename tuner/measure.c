/*
 * measure.c -- one measured plan of the tuner (paper section 5.2's sweep):
 * the plan a sweep configuration asks for, its key in the results store, the
 * resident data set (generated once per (dtype, dist, n) with the seeded
 * generator, the same values on the CPU and the GPU, or read from --input's
 * file: a real data set of Table 1 / Figure 19), a warm-up (settled on new
 * data) and the timed repetitions through the public API, and the optional
 * O(n) check of the result against V on the host.
 */
#include "measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_check.h"
#include "device.h"
#include "oracle.h"

#define BYTES_PER_GB 1e9        /* decimal gigabytes, as the tuner reports bandwidth */

void plan_label(const drtopk_plan *plan, char *out, size_t len)
{
    snprintf(out, len, "%s%s", plan->flags & DRTOPK_DELEGATE ? "dr-" : "", drtopk_algo_name(plan->second_algo));
}

const char *dist_label(const options *o, dh_dist d)
{
    return o->input ? o->input_name : dh_dist_name(d);
}

void plan_key(const options *o, const char *label, drtopk_dtype t, dh_dist d, uint64_t n, uint64_t k,
              const drtopk_plan *plan, dh_store_config *key)
{
    memset(key, 0, sizeof *key);
    snprintf(key->algorithm, sizeof key->algorithm, "%s", label);
    if (plan->flags & DRTOPK_DELEGATE) {
        snprintf(key->first_algo, sizeof key->first_algo, "%s", drtopk_algo_name(plan->first_algo));
        snprintf(key->second_algo, sizeof key->second_algo, "%s", drtopk_algo_name(plan->second_algo));
        key->alpha = plan->alpha;
        key->beta = plan->beta;
    }
    snprintf(key->dtype, sizeof key->dtype, "%s", drtopk_dtype_name(t));
    snprintf(key->dist, sizeof key->dist, "%s", dist_label(o, d));
    key->seed = o->input ? INPUT_SEED : o->seed;
    key->n = n;
    key->k = k;
    key->flags = plan->flags;
    snprintf(key->order, sizeof key->order, "largest");
}

void fill_key(const options *o, const config *c, dh_store_config *key, unsigned flags)
{
    drtopk_plan plan = { .alpha = c->alpha, .beta = c->beta, .flags = flags };
    const algo_entry *a = &o->algo[c->algo];
    plan.first_algo = plan.second_algo = a->algo;
    if (a->delegate)
        plan.flags |= DRTOPK_DELEGATE;
    plan_key(o, a->label, o->dtype[c->dtype], o->dist[c->dist], o->n[c->n], c->k, &plan, key);
}

unsigned sweep_flags(const options *o, const config *c)
{
    if (!o->algo[c->algo].delegate)
        return 0;
    unsigned flags = DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT;
    if (c->alpha <= DRTOPK_SHARED_DELEGATE_MAX_ALPHA && !c->warp_build)
        flags |= DRTOPK_SHARED_DELEGATE;
    return flags & ~o->clear_flags;
}

void config_key(const options *o, const config *c, dh_store_config *key)
{
    fill_key(o, c, key, sweep_flags(o, c));
}

drtopk_status make_plan(const options *o, const config *c, const drtopk_problem *p, drtopk_plan *plan)
{
    const algo_entry *a = &o->algo[c->algo];
    if (!a->delegate)
        return drtopk_plan_explicit(plan, p, a->algo, 0, 0, 0);
    return drtopk_plan_explicit(plan, p, a->algo, c->alpha, c->beta, sweep_flags(o, c));
}

static void *xalloc(const options *o, size_t bytes, drtopk_status *st)
{
    void *p = NULL;
    if (o->backend == DRTOPK_BACKEND_CUDA) {
        *st = dh_dev_alloc(&p, bytes ? bytes : 1);
    } else {
        p = malloc(bytes ? bytes : 1);
        *st = p ? DRTOPK_OK : DRTOPK_ERR_OUT_OF_MEMORY;
    }
    return p;
}

static void xfree(const options *o, void *p)
{
    if (!p)
        return;
    if (o->backend == DRTOPK_BACKEND_CUDA)
        dh_dev_free(p);
    else
        free(p);
}

void buffers_init(buffers *b)
{
    memset(b, 0, sizeof *b);
}

void buffers_release(const options *o, buffers *b)
{
    xfree(o, b->v);
    xfree(o, b->out_v);
    xfree(o, b->out_i);
    xfree(o, b->ws);
    free(b->host_v);
    free(b->host_out_v);
    free(b->host_out_i);
    buffers_init(b);
}

/* --input's n elements into b->v (device or host), through a host copy. */
static drtopk_status read_input(const options *o, buffers *b, uint64_t n, size_t es)
{
    void *host = NULL;
    uint64_t got = 0;
    char err[512];
    drtopk_status st = dh_read_raw(o->input, es, &host, &got, err, sizeof err);
    if (st != DRTOPK_OK) {
        fprintf(stderr, "tuner: %s\n", err);
        return st;
    }
    if (got != n) {             /* the file changed since the sweep was planned */
        fprintf(stderr, "tuner: %s now holds %llu elements, not %llu\n", o->input, (unsigned long long)got,
                (unsigned long long)n);
        free(host);
        return DRTOPK_ERR_IO;
    }
    if (o->backend == DRTOPK_BACKEND_CUDA) {
        st = dh_dev_copy(b->v, host, n * es, DRTOPK_COPY_H2D);
        free(host);
        return st;
    }
    memcpy(b->v, host, n * es);
    free(host);
    return DRTOPK_OK;
}

drtopk_status buffers_dataset(const options *o, buffers *b, drtopk_dtype t, dh_dist d, uint64_t n,
                              uint64_t kmax)
{
    if (b->n == n && b->dtype == t && b->dist == d && b->out_cap >= kmax)
        return DRTOPK_OK;
    buffers_release(o, b);
    size_t es = drtopk_dtype_size(t);
    drtopk_status st;
    b->v = xalloc(o, n * es, &st);
    if (st != DRTOPK_OK)
        return st;
    if (o->input) {
        st = read_input(o, b, n, es);
        if (st != DRTOPK_OK)
            return st;
    } else if (o->backend == DRTOPK_BACKEND_CUDA) {
        if ((st = dh_dev_generate(b->v, n, d, t, o->seed, NULL)) != DRTOPK_OK ||
            (st = dh_dev_sync()) != DRTOPK_OK)
            return st;
    } else {
        dh_gen_host(b->v, n, d, t, o->seed);
    }
    b->out_v = xalloc(o, kmax * es, &st);
    if (st != DRTOPK_OK)
        return st;
    b->out_i = xalloc(o, kmax * sizeof(uint64_t), &st);
    if (st != DRTOPK_OK)
        return st;
    b->out_cap = kmax;
    b->dtype = t;
    b->dist = d;
    b->n = n;
    b->settle = 1;
    return DRTOPK_OK;
}

static drtopk_status ensure_ws(const options *o, buffers *b, size_t bytes)
{
    if (bytes <= b->ws_bytes && b->ws)
        return DRTOPK_OK;
    xfree(o, b->ws);
    b->ws = NULL;
    b->ws_bytes = 0;
    drtopk_status st;
    b->ws = xalloc(o, bytes, &st);
    if (st == DRTOPK_OK) {
        b->ws_bytes = bytes;
        b->settle = 1;
    }
    return st;
}

/* Check the result in b against V (oracle.h's exact O(n) counting check): on
 * the GPU where it lies (device.h dh_dev_check: no copy of V, milliseconds at
 * 2^30), on the host when the checker's bitmap does not fit beside the data. */
static void verify(const options *o, const drtopk_problem *p, buffers *b, dh_store_measurement *m)
{
    size_t es = drtopk_dtype_size(p->dtype);
    const void *hv = b->v, *ho = b->out_v;
    const uint64_t *hi = b->out_i;
    m->verified = 1;
    if (o->backend == DRTOPK_BACKEND_CUDA) {
        dh_check_result dr;
        drtopk_status st = dh_dev_check(p, b->out_v, b->out_i, &dr);
        if (st == DRTOPK_OK) {
            m->verify_ok = dr.ok;
            if (!dr.ok)
                snprintf(m->verify_error, sizeof m->verify_error, "%s", dr.why);
            return;
        }
        if (st != DRTOPK_ERR_OUT_OF_MEMORY) {
            m->verify_ok = 0;
            snprintf(m->verify_error, sizeof m->verify_error, "the check on the GPU failed: %s",
                     drtopk_status_string(st));
            return;
        }
        st = DRTOPK_OK;
        if (!b->host_v) {
            b->host_v = malloc(p->n * es);
            if (!b->host_v || (st = dh_dev_copy(b->host_v, b->v, p->n * es, DRTOPK_COPY_D2H)) != DRTOPK_OK) {
                free(b->host_v);
                b->host_v = NULL;
                m->verify_ok = 0;
                snprintf(m->verify_error, sizeof m->verify_error, "cannot copy V to the host: %s",
                         drtopk_status_string(st ? st : DRTOPK_ERR_OUT_OF_MEMORY));
                return;
            }
        }
        free(b->host_out_v);
        free(b->host_out_i);
        b->host_out_v = malloc(p->k * es);
        b->host_out_i = malloc(p->k * sizeof(uint64_t));
        if (!b->host_out_v || !b->host_out_i ||
            (st = dh_dev_copy(b->host_out_v, b->out_v, p->k * es, DRTOPK_COPY_D2H)) != DRTOPK_OK ||
            (st = dh_dev_copy(b->host_out_i, b->out_i, p->k * sizeof(uint64_t), DRTOPK_COPY_D2H)) != DRTOPK_OK) {
            m->verify_ok = 0;
            snprintf(m->verify_error, sizeof m->verify_error, "cannot copy the result to the host: %s",
                     drtopk_status_string(st ? st : DRTOPK_ERR_OUT_OF_MEMORY));
            return;
        }
        hv = b->host_v;
        ho = b->host_out_v;
        hi = b->host_out_i;
    }
    drtopk_problem hp = *p;
    hp.values = hv;
    dh_check_result r = dh_check(&hp, ho, hi, NULL);
    m->verify_ok = r.ok;
    if (!r.ok)
        snprintf(m->verify_error, sizeof m->verify_error, "%s", r.why);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(const double *v, int n, double *tmp)
{
    memcpy(tmp, v, (size_t)n * sizeof *v);
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_double);
    return n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
}

/* A stats call synchronises inside, so the host cannot release a hold before
 * it: its timed hold lasts this many times the measured enqueue, plus a margin
 * for its event creation. */
#define STATS_HOLD_ENQUEUE_FACTOR 2.0
#define STATS_HOLD_MARGIN_MS 0.05
#define NS_PER_MS 1e6

/* One repetition of --timing gpu: *ms the GPU time of an enqueue-only call
 * with the stream held (*unprimed counts a hold that timed out).  A delegate
 * plan's stage times (and |C|, ...) come from a second, stats call behind a
 * timed hold; a standalone plan's workload stays in *s from the warm-up (it
 * does not change between calls). */
static drtopk_status held_rep(const drtopk_problem *p, const drtopk_plan *plan, buffers *b, double *ms,
                              int *unprimed, drtopk_stats *s)
{
    double enqueue_ms = 0;
    int primed = 0;
    drtopk_status st = dh_select_held(p, plan, b->ws, b->ws_bytes, b->out_v, b->out_i, ms, &enqueue_ms, &primed);
    if (st != DRTOPK_OK)
        return st;
    *unprimed += !primed;
    if (!(plan->flags & DRTOPK_DELEGATE))
        return DRTOPK_OK;
    st = dh_dev_hold_ns((uint64_t)((STATS_HOLD_ENQUEUE_FACTOR * enqueue_ms + STATS_HOLD_MARGIN_MS) * NS_PER_MS));
    if (st == DRTOPK_OK)
        st = drtopk_select(p, plan, b->ws, b->ws_bytes, b->out_v, b->out_i, NULL, s);
    return st;
}

/* The first plan timed on a new data set or workspace runs its first calls
 * slow (on an H200 a plateau of up to five calls, 10% slower at 2^28 keys,
 * then a step down; the plans timed after it on the same data do not), so
 * before its timed repetitions it repeats its call at least SETTLE_MIN_CALLS
 * times and until two in a row differ by at most SETTLE_TOLERANCE, at most
 * SETTLE_MAX_CALLS times or until the calls took SETTLE_MAX_MS. */
#define SETTLE_MIN_CALLS 8
#define SETTLE_TOLERANCE 0.01
#define SETTLE_MAX_CALLS 32
#define SETTLE_MAX_MS 50.0      /* ten times the plateau: slower calls outlast it */

/* One call timed as the repetitions are (*ms), for settle. */
static drtopk_status timed_call(const options *o, const drtopk_problem *p, const drtopk_plan *plan, buffers *b,
                                double *ms, drtopk_stats *s)
{
    int unprimed = 0;
    if (o->timing == DRTOPK_TIMING_GPU)
        return held_rep(p, plan, b, ms, &unprimed, s);
    drtopk_status st = drtopk_select(p, plan, b->ws, b->ws_bytes, b->out_v, b->out_i, NULL, s);
    *ms = s->ms_total;
    return st;
}

/* Repeat the call until its time is steady (above). */
static drtopk_status settle(const options *o, const drtopk_problem *p, const drtopk_plan *plan, buffers *b,
                            drtopk_stats *s)
{
    double prev = 0, ms = 0, spent = 0;
    for (int i = 0; i < SETTLE_MAX_CALLS && spent < SETTLE_MAX_MS; ++i) {
        drtopk_status st = timed_call(o, p, plan, b, &ms, s);
        if (st != DRTOPK_OK || (i + 1 >= SETTLE_MIN_CALLS && ms <= prev * (1 + SETTLE_TOLERANCE) &&
                                 prev <= ms * (1 + SETTLE_TOLERANCE)))
            return st;
        prev = ms;
        spent += ms;
    }
    return DRTOPK_OK;
}

void measure_plan(const options *o, const drtopk_plan *plan, uint64_t k, buffers *b, int do_verify,
                  dh_store_measurement *m, double *scratch)
{
    enum { STAGES = 4 };
    drtopk_problem p = { .backend = o->backend, .dtype = b->dtype, .order = DRTOPK_LARGEST, .n = b->n, .k = k,
                         .values = b->v };
    size_t bytes = 0;
    drtopk_status st = drtopk_plan_check(plan, &p);
    if (st == DRTOPK_OK)
        st = drtopk_select_workspace(&p, plan, &bytes);
    if (st == DRTOPK_OK && (st = ensure_ws(o, b, bytes)) == DRTOPK_ERR_OUT_OF_MEMORY) {
        /* the card's limit, not the plan's failure: stored as a config this GPU cannot run */
        m->status = DRTOPK_MEAS_UNSUPPORTED;
        snprintf(m->error, sizeof m->error, "does not fit: a workspace of %.3g GB beside the data is more "
                 "than the device can allocate", (double)bytes / BYTES_PER_GB);
        return;
    }
    drtopk_stats s;
    if (st == DRTOPK_OK)
        st = drtopk_select(&p, plan, b->ws, b->ws_bytes, b->out_v, b->out_i, NULL, &s);
    if (st == DRTOPK_OK && b->settle) {
        b->settle = 0;
        st = settle(o, &p, plan, b, &s);
    }
    if (st != DRTOPK_OK) {
        m->status = st == DRTOPK_ERR_UNSUPPORTED ? DRTOPK_MEAS_UNSUPPORTED : DRTOPK_MEAS_ERROR;
        snprintf(m->error, sizeof m->error, "%s", drtopk_status_string(st));
        return;
    }
    double *reps = scratch, *tmp = scratch + (1 + STAGES) * o->reps;
    double *stages[STAGES] = { scratch + o->reps, scratch + 2 * o->reps, scratch + 3 * o->reps,
                               scratch + 4 * o->reps };
    int unprimed = 0;
    for (int r = 0; r < o->reps && st == DRTOPK_OK; ++r) {
        if (o->timing == DRTOPK_TIMING_GPU)
            st = held_rep(&p, plan, b, &reps[r], &unprimed, &s);
        else
            st = drtopk_select(&p, plan, b->ws, b->ws_bytes, b->out_v, b->out_i, NULL, &s);
        if (o->timing == DRTOPK_TIMING_CALL)
            reps[r] = s.ms_total;
        stages[0][r] = s.ms_delegate;
        stages[1][r] = s.ms_first;
        stages[2][r] = s.ms_concat;
        stages[3][r] = (plan->flags & DRTOPK_DELEGATE) ? s.ms_second : reps[r];
    }
    if (unprimed)
        fprintf(stderr, "tuner: %d of %d repetitions of %s n=%llu k=%llu were not primed (the stream hold timed "
                        "out): their times include the enqueue\n", unprimed, o->reps, drtopk_algo_name(plan->second_algo),
                (unsigned long long)p.n, (unsigned long long)k);
    if (st != DRTOPK_OK) {
        m->status = DRTOPK_MEAS_ERROR;
        snprintf(m->error, sizeof m->error, "%s", drtopk_status_string(st));
        return;
    }
    m->status = DRTOPK_MEAS_OK;
    m->timing = dh_timing_name(o->timing);
    m->reps = o->reps;
    m->reps_ms = reps;
    m->median_ms = median_of(reps, o->reps, tmp);
    m->min_ms = tmp[0];
    m->max_ms = tmp[o->reps - 1];
    m->ms_delegate = median_of(stages[0], o->reps, tmp);
    m->ms_first = median_of(stages[1], o->reps, tmp);
    m->ms_concat = median_of(stages[2], o->reps, tmp);
    m->ms_second = median_of(stages[3], o->reps, tmp);
    m->delegate_len = s.delegate_len;
    m->first_selected = s.first_selected;
    m->concat_len = s.concat_len;
    m->scanned_subranges = s.scanned_subranges;
    if (do_verify)
        verify(o, &p, b, m);
}
