/*
 * batch_tune.c -- `tuner --batch`: measures the batched top-k's crossovers
 * (docs/architecture.md: the register select of tiny rows, the warp queue, the staged and
 * split radix selects, the Dr. Top-k pipeline of paper sections 4-5 row by
 * row) on this GPU, stores every measurement in table batch_measurements
 * with its machine and run (GPU, driver, CUDA, commit), decides the plan
 * fields (batch_decide.c) and stores them in batch_choices, from which
 * `tuner --emit-table` compiles them into the library (drtopk_batch_plan_auto).
 *
 * Each crossover sweeps its workloads (rows x length x k, uniform rows or
 * variable segments of seeded lengths in [len/2, len], each --dtype; UD
 * keys of --seed) and times drtopk_batch_select with the two plans that send
 * the workload to one candidate or the other (the staged and split selects
 * with the filter select off, which would take both at large k; the other
 * crossovers weigh their candidate against the batched path as it runs).  A warm-up, then --reps timed
 * calls (--timing: gpu, the default on CUDA, each call's GPU time with the
 * stream held until it is enqueued; call, the host clock around call +
 * synchronise; batch_check.h dh_batch_timed, as `drtopk batch`); the
 * median is stored with the method.  Every --verify-every-th measurement is checked against
 * the CPU backend.  Resumable like the main sweep: a rerun skips what this
 * machine measured at this commit (--force measures again).
 */
#include "batch_tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_check.h"
#include "batch_decide.h"
#include "device.h"
#include "gen.h"
#include "gen_core.h"
#include "keyorder.h"
#include "progress.h"
#include "util.h"

#define BATCH_ELEMS_GPU (1ull << 24)    /* elements of one workload: 64 MB of f32, past the L2 */
#define BATCH_ELEMS_GPU_LONG (1ull << 25) /* the pipeline crossover's rows: a few long ones    */
#define BATCH_ELEMS_CPU (1ull << 12)    /* the CPU sweep tests the path, not speed           */
#define BATCH_TINY_ROWS_GPU 65536ull    /* MoE routing: tokens x experts                      */
#define BATCH_TINY_ROWS_CPU 16ull
#define MAX_KS 8
#define MAX_WORKLOADS 32

typedef struct {
    int field;                  /* the crossover (batch_field_names)            */
    int variable;               /* segments of lengths in [len/2, len]          */
    uint64_t rows, len;
    uint64_t ks[MAX_KS];
    int nks;
} workload;

static const char *const segs_name[] = { "uniform", "variable" };

/* Workloads of crossover `field` at w[*n] on, one per length lens[i] (about
 * `elems` keys: elems / lens[i] rows or segments, at least one), each swept
 * over ks[0..nk). */
static void add_lengths(workload *w, int *n, int field, int variable, uint64_t elems, const uint64_t *lens, int nl,
                        const uint64_t *ks, int nk)
{
    for (int i = 0; i < nl; ++i) {
        w[*n] = (workload){ field, variable, elems / lens[i] ? elems / lens[i] : 1, lens[i], { 0 }, nk };
        memcpy(w[*n].ks, ks, (size_t)nk * sizeof *ks);
        ++*n;
    }
}

/* The sweep of one backend: on the GPU the batched benchmark's workloads around each
 * crossover; on the CPU a few small ones (the backend ignores the plan). */
static int workloads(const options *o, workload *w)
{
    const int cpu = o->backend == DRTOPK_BACKEND_CPU;
    const uint64_t elems = cpu ? BATCH_ELEMS_CPU : BATCH_ELEMS_GPU;
    const uint64_t tiny_rows = cpu ? BATCH_TINY_ROWS_CPU : BATCH_TINY_ROWS_GPU;
    static const uint64_t tiny_len[] = { 64, 256 }, tiny_k_gpu[] = { 1, 2, 4, 8, 16, 32 },  /* up to DRTOPK_BATCH_TINY_K_MAX */
                          tiny_k_cpu[] = { 1, 4, 16 };
    static const uint64_t warp_len_gpu[] = { 1024, 8192, 32768 }, warp_len_cpu[] = { 1024 },
                          warp_k_gpu[] = { 8, 32, 128, 256 }, warp_k_cpu[] = { 8, 32 };
    static const uint64_t staged_len_gpu[] = { 4096, 16384, 32768, 65536 }, staged_len_cpu[] = { 4096 },
                          staged_k[] = { 32, 256 };
    static const uint64_t block_len_gpu[] = { 1ull << 18, 1ull << 20, 1ull << 22 }, block_len_cpu[] = { 8192 },
                          block_k[] = { 64, 1024 };
    /* the filter select: sparse attention's segments (k = 2048 of up to 128K keys) and shorter ones */
    static const uint64_t filter_len_gpu[] = { 8192, 32768, 131072 }, filter_len_cpu[] = { 4096 },
                          filter_k_gpu[] = { 64, 512, 2048 }, filter_k_cpu[] = { 64 };
#define COUNT(a) (int)(sizeof a / sizeof a[0])
    int n = 0;
    for (int v = 0; v <= 1; ++v)
        for (int i = 0; i < COUNT(tiny_len); ++i) {
            w[n] = (workload){ BATCH_TINY_MAX_K, v, tiny_rows, tiny_len[i], { 0 }, cpu ? COUNT(tiny_k_cpu)
                                                                                       : COUNT(tiny_k_gpu) };
            memcpy(w[n].ks, cpu ? tiny_k_cpu : tiny_k_gpu, (size_t)w[n].nks * sizeof(uint64_t));
            ++n;
        }
    add_lengths(w, &n, BATCH_WARP_MAX_K, 0, elems, cpu ? warp_len_cpu : warp_len_gpu,
                cpu ? COUNT(warp_len_cpu) : COUNT(warp_len_gpu), cpu ? warp_k_cpu : warp_k_gpu,
                cpu ? COUNT(warp_k_cpu) : COUNT(warp_k_gpu));
    add_lengths(w, &n, BATCH_STAGED_MAX_LEN, 1, elems, cpu ? staged_len_cpu : staged_len_gpu,
                cpu ? COUNT(staged_len_cpu) : COUNT(staged_len_gpu), staged_k, COUNT(staged_k));
    add_lengths(w, &n, BATCH_BLOCK_MAX_LEN, 0, cpu ? elems : BATCH_ELEMS_GPU_LONG, cpu ? block_len_cpu : block_len_gpu,
                cpu ? COUNT(block_len_cpu) : COUNT(block_len_gpu), block_k, COUNT(block_k));
    add_lengths(w, &n, BATCH_FILTER_MIN_LEN, 1, elems, cpu ? filter_len_cpu : filter_len_gpu,
                cpu ? COUNT(filter_len_cpu) : COUNT(filter_len_gpu), cpu ? filter_k_cpu : filter_k_gpu,
                cpu ? COUNT(filter_k_cpu) : COUNT(filter_k_gpu));
#undef COUNT
    return n;
}

/* The plan that sends workload w at k to candidate `admitted` (1) or to the
 * other one (0): the built-in defaults with the crossover's field moved. */
static void candidate_plan(const workload *w, uint64_t k, int admitted, drtopk_batch_plan *plan)
{
    const drtopk_batch_problem cpu = { .backend = DRTOPK_BACKEND_CPU };
    drtopk_batch_plan_auto(plan, &cpu);     /* the defaults: the CPU backend is never tuned */
    const uint64_t shortest = w->variable ? w->len / 2 : w->len;
    switch (w->field) {     /* a workload has one dtype: both key widths' fields move alike */
    case BATCH_TINY_MAX_K:
        plan->tiny_max_k = plan->tiny_max_k_64 = admitted ? k : 0;
        break;
    case BATCH_WARP_MAX_K:
        plan->tiny_max_k = plan->tiny_max_k_64 = 0;
        plan->warp_max_k = admitted ? k : 0;
        plan->warp_max_len = w->len;
        break;
    case BATCH_STAGED_MAX_LEN:     /* the filter select off: it would take both candidates' segments at large k */
        plan->staged_max_len = admitted ? DRTOPK_BATCH_STAGED_MAX_LEN : (shortest > 1 ? shortest - 1 : 1);
        plan->filter_min_len = 0;
        break;
    case BATCH_FILTER_MIN_LEN:      /* admitted: the radix selects for every segment; else the filter where it applies */
        plan->filter_min_len = admitted ? w->len : (shortest > 1 ? shortest - 1 : 1);
        break;
    default:
        plan->block_max_len = plan->block_max_len_64 = admitted ? w->len : w->len - 1;
        break;
    }
}

/* A workload's data: keys and offsets on the host (and on the GPU), the
 * outputs, the CPU reference of the current k and the workspace. */
typedef struct {
    drtopk_dtype dtype;
    uint64_t n, segments;
    void *host_v, *dev_v;
    uint64_t *host_off, *dev_off;
    void *out_v, *host_out_v, *ref_v;
    uint64_t *out_i, *host_out_i, *ref_i;
    void *ws;
    size_t ws_bytes;
} batch_data;

static void data_free(const options *o, batch_data *d)
{
    if (o->backend == DRTOPK_BACKEND_CUDA) {
        dh_dev_free(d->dev_v);
        dh_dev_free(d->dev_off);
        dh_dev_free(d->out_v);
        dh_dev_free(d->out_i);
        dh_dev_free(d->ws);
    } else {
        free(d->out_v);
        free(d->out_i);
        free(d->ws);
    }
    free(d->host_v);
    free(d->host_off);
    free(d->host_out_v);
    free(d->host_out_i);
    free(d->ref_v);
    free(d->ref_i);
    memset(d, 0, sizeof *d);
}

static void *alloc_on(const options *o, size_t bytes, drtopk_status *st)
{
    void *p = NULL;
    if (*st != DRTOPK_OK) return NULL;
    if (o->backend == DRTOPK_BACKEND_CUDA) {
        *st = dh_dev_alloc(&p, bytes ? bytes : 1);
    } else if ((p = malloc(bytes ? bytes : 1)) == NULL) {
        *st = DRTOPK_ERR_OUT_OF_MEMORY;
    }
    return p;
}

/* Generate workload w's keys (and offsets) for dtype t, room for k_max slots. */
static drtopk_status data_make(const options *o, const workload *w, drtopk_dtype t, batch_data *d)
{
    const size_t es = drtopk_dtype_size(t);
    uint64_t kmax = 0;
    for (int i = 0; i < w->nks; ++i)
        if (w->ks[i] > kmax) kmax = w->ks[i];
    memset(d, 0, sizeof *d);
    d->dtype = t;
    d->segments = w->rows;
    d->n = w->rows * w->len;
    if (w->variable) {
        if ((d->host_off = malloc((w->rows + 1) * sizeof(uint64_t))) == NULL) return DRTOPK_ERR_OUT_OF_MEMORY;
        d->host_off[0] = 0;
        for (uint64_t s = 0; s < w->rows; ++s)     /* a length in [len/2, len], seeded */
            d->host_off[s + 1] = d->host_off[s] + w->len / 2 + dh_mix64(o->seed ^ dh_mix64(s)) %
                                                                (w->len - w->len / 2 + 1);
        d->n = d->host_off[w->rows];
    }
    const size_t slots = (size_t)(w->rows * kmax);
    d->host_v = malloc(d->n * es);
    d->host_out_v = malloc(slots * es);
    d->host_out_i = malloc(slots * sizeof(uint64_t));
    d->ref_v = malloc(slots * es);
    d->ref_i = malloc(slots * sizeof(uint64_t));
    if (!d->host_v || !d->host_out_v || !d->host_out_i || !d->ref_v || !d->ref_i) return DRTOPK_ERR_OUT_OF_MEMORY;
    dh_gen_host(d->host_v, d->n, DRTOPK_DIST_UD, t, o->seed);
    drtopk_status st = DRTOPK_OK;
    d->out_v = alloc_on(o, slots * es, &st);
    d->out_i = alloc_on(o, slots * sizeof(uint64_t), &st);
    if (st != DRTOPK_OK || o->backend == DRTOPK_BACKEND_CPU) return st;
    d->dev_v = alloc_on(o, d->n * es, &st);
    if (st == DRTOPK_OK) st = dh_dev_copy(d->dev_v, d->host_v, d->n * es, DRTOPK_COPY_H2D);
    if (w->variable) {
        d->dev_off = alloc_on(o, (w->rows + 1) * sizeof(uint64_t), &st);
        if (st == DRTOPK_OK)
            st = dh_dev_copy(d->dev_off, d->host_off, (w->rows + 1) * sizeof(uint64_t), DRTOPK_COPY_H2D);
    }
    return st;
}

static drtopk_batch_problem problem_of(const options *o, const workload *w, const batch_data *d, uint64_t k,
                                       int host)
{
    const int cuda = o->backend == DRTOPK_BACKEND_CUDA && !host;
    drtopk_batch_problem p = { .backend = cuda ? DRTOPK_BACKEND_CUDA : DRTOPK_BACKEND_CPU, .dtype = d->dtype,
                               .order = DRTOPK_LARGEST, .segments = w->rows, .k = k,
                               .len = w->variable ? 0 : w->len,
                               .offsets = w->variable ? (cuda ? d->dev_off : d->host_off) : NULL,
                               .values = cuda ? d->dev_v : d->host_v };
    return p;
}

/* The CPU backend's answer for k into ref_v / ref_i. */
static drtopk_status reference(const options *o, const workload *w, batch_data *d, uint64_t k)
{
    const drtopk_batch_problem p = problem_of(o, w, d, k, 1);
    drtopk_batch_plan plan;
    size_t bytes = 0;
    drtopk_status st = drtopk_batch_plan_auto(&plan, &p);
    if (st == DRTOPK_OK) st = drtopk_batch_workspace(&p, &plan, &bytes);
    void *ws = st == DRTOPK_OK ? malloc(bytes ? bytes : 1) : NULL;
    if (st == DRTOPK_OK && !ws) st = DRTOPK_ERR_OUT_OF_MEMORY;
    if (st == DRTOPK_OK) st = drtopk_batch_select(&p, &plan, ws, bytes, d->ref_v, d->ref_i, NULL);
    free(ws);
    return st;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Does the result (host_out_*) hold, segment by segment, the reference's
 * values (as a multiset of bits), each at a position holding it?  *why
 * names the first segment that does not. */
static int check(const workload *w, const batch_data *d, uint64_t k, char *why, size_t len)
{
    uint64_t *a = malloc(2 * k * sizeof *a), *b = a + k;
    int ok = a != NULL;
    if (!ok) snprintf(why, len, "out of host memory for the check");
    for (uint64_t s = 0; s < w->rows && ok; ++s) {
        const uint64_t start = w->variable ? d->host_off[s] : s * w->len;
        uint64_t na = 0, nb = 0;
        for (uint64_t j = 0; j < k && ok; ++j) {
            const uint64_t slot = s * k + j, pos = d->host_out_i[slot];
            if (d->ref_i[slot] != DRTOPK_INDEX_NONE) b[nb++] = drtopk_bits_at(d->ref_v, slot, d->dtype);
            if (pos == DRTOPK_INDEX_NONE) continue;
            a[na] = drtopk_bits_at(d->host_out_v, slot, d->dtype);
            if (a[na++] != drtopk_bits_at(d->host_v, start + pos, d->dtype)) {
                snprintf(why, len, "segment %llu slot %llu: the value is not the one at position %llu",
                         (unsigned long long)s, (unsigned long long)j, (unsigned long long)pos);
                ok = 0;
            }
        }
        if (!ok) break;
        qsort(a, (size_t)na, sizeof *a, cmp_u64);
        qsort(b, (size_t)nb, sizeof *b, cmp_u64);
        if (na != nb || memcmp(a, b, (size_t)na * sizeof *a)) {
            snprintf(why, len, "segment %llu: %llu values, not the CPU backend's %llu", (unsigned long long)s,
                     (unsigned long long)na, (unsigned long long)nb);
            ok = 0;
        }
    }
    free(a);
    return ok;
}

/* Time plan on the workload at k into r (verified against ref when asked). */
static void measure(const options *o, const workload *w, batch_data *d, uint64_t k, const drtopk_batch_plan *plan,
                    int do_verify, double *ms, dh_store_batch_row *r)
{
    const drtopk_batch_problem p = problem_of(o, w, d, k, 0);
    const int cuda = p.backend == DRTOPK_BACKEND_CUDA;
    size_t bytes = 0;
    drtopk_status st = drtopk_batch_workspace(&p, plan, &bytes);
    if (st == DRTOPK_OK && bytes > d->ws_bytes) {
        if (cuda) dh_dev_free(d->ws);
        else free(d->ws);
        d->ws = NULL;
        d->ws_bytes = 0;
        d->ws = alloc_on(o, bytes, &st);
        if (st == DRTOPK_OK) d->ws_bytes = bytes;
    }
    int unprimed = 0;
    for (int i = 0; i <= o->reps && st == DRTOPK_OK; ++i)       /* a warm-up, then the timed calls */
        st = dh_batch_timed(&p, plan, d->ws, d->ws_bytes, d->out_v, d->out_i, o->timing, &ms[i > 0 ? i - 1 : 0],
                            NULL, &unprimed);
    if (unprimed)
        fprintf(stderr, "tuner: %d of %d calls of %s %s rows=%llu len=%llu k=%llu were not primed (the stream hold "
                        "timed out): their times include the enqueue\n", unprimed, o->reps + 1, r->key.crossover,
                r->key.candidate, (unsigned long long)w->rows, (unsigned long long)w->len, (unsigned long long)k);
    if (st != DRTOPK_OK) {
        snprintf(r->error, sizeof r->error, "%s: %s", drtopk_status_string(st), drtopk_last_error());
        if (cuda) dh_dev_clear_error();
        return;
    }
    r->ok = 1;
    r->timing = dh_timing_name(cuda ? o->timing : DRTOPK_TIMING_CALL);
    r->reps = o->reps;
    r->median_ms = dh_median(ms, (size_t)o->reps);
    if (!do_verify) return;
    const size_t slots = (size_t)(w->rows * k), es = drtopk_dtype_size(d->dtype);
    if (cuda) {
        st = dh_dev_copy(d->host_out_v, d->out_v, slots * es, DRTOPK_COPY_D2H);
        if (st == DRTOPK_OK) st = dh_dev_copy(d->host_out_i, d->out_i, slots * sizeof(uint64_t), DRTOPK_COPY_D2H);
    } else {
        memcpy(d->host_out_v, d->out_v, slots * es);
        memcpy(d->host_out_i, d->out_i, slots * sizeof(uint64_t));
    }
    r->verified = 1;
    r->verify_ok = st == DRTOPK_OK && check(w, d, k, r->error, sizeof r->error);
    if (st != DRTOPK_OK) snprintf(r->error, sizeof r->error, "reading the result back: %s", drtopk_status_string(st));
}

static void key_of(const workload *w, drtopk_dtype t, uint64_t k, int admitted, uint64_t seed,
                   dh_store_batch_key *key)
{
    const batch_crossover *c = &batch_crossovers[0];
    while (c->field != w->field) ++c;
    memset(key, 0, sizeof *key);
    snprintf(key->crossover, sizeof key->crossover, "%s", batch_field_names[w->field]);
    snprintf(key->candidate, sizeof key->candidate, "%s", admitted ? c->admitted : c->other);
    snprintf(key->dtype, sizeof key->dtype, "%s", drtopk_dtype_name(t));
    snprintf(key->segs, sizeof key->segs, "%s", segs_name[w->variable]);
    key->seed = seed;
    key->rows = w->rows;
    key->len = w->len;
    key->k = k;
}

typedef struct {
    dh_store_batch_row *rows;
    size_t n, cap;
} row_list;

static int add_row(const dh_store_batch_row *r, void *ctx)
{
    row_list *l = ctx;
    if (l->n == l->cap) {
        const size_t cap = l->cap ? 2 * l->cap : 256;
        dh_store_batch_row *g = realloc(l->rows, cap * sizeof *g);
        if (!g) return 1;
        l->rows = g;
        l->cap = cap;
    }
    l->rows[l->n++] = *r;
    return 0;
}

/* Decide from what (machine, commit) measured, store the decided fields and
 * print the plan of GPU `gpu`. */
static int decide_and_store(dh_store *db, int64_t machine_id, const char *commit, const char *gpu)
{
    row_list l = { NULL, 0, 0 };
    if (dh_store_each_batch(db, machine_id, commit, add_row, &l) != DRTOPK_OK) {
        fprintf(stderr, "tuner: %s\n", dh_store_errmsg(db));
        free(l.rows);
        return EXIT_USAGE;
    }
    const drtopk_batch_problem cpu = { .backend = DRTOPK_BACKEND_CPU };
    drtopk_batch_plan plan;
    batch_outcome out[BATCH_FIELD_COUNT];
    drtopk_batch_plan_auto(&plan, &cpu);
    if (batch_decide(l.rows, l.n, &plan, out) != 0) {
        fprintf(stderr, "tuner: out of memory deciding the batch crossovers\n");
        free(l.rows);
        return EXIT_USAGE;
    }
    free(l.rows);
    int decided = 0;
    drtopk_status st = dh_store_begin(db);
    for (int f = 0; f < BATCH_FIELD_COUNT && st == DRTOPK_OK; ++f)
        if (out[f].points > 0) {
            ++decided;
            st = dh_store_put_batch_choice(db, machine_id, commit, batch_field_names[f],
                                           *batch_field(&plan, f), out[f].points);
        }
    if (st == DRTOPK_OK) st = dh_store_commit(db);
    if (st != DRTOPK_OK) {
        fprintf(stderr, "tuner: storing the batch choices: %s\n", dh_store_errmsg(db));
        dh_store_rollback(db);
        return EXIT_USAGE;
    }
    printf("tuner: batch plan of %s (%d of %d fields decided from %zu measurements; the others keep the "
           "default):\n", gpu, decided, BATCH_FIELD_COUNT, l.n);
    for (int f = 0; f < BATCH_FIELD_COUNT; ++f)
        if (out[f].points > 0)
            printf("  %-16s %llu  (decided: worst slowdown %.3fx over %d workloads, the default's %.3fx)\n",
                   batch_field_names[f], (unsigned long long)*batch_field(&plan, f), out[f].worst, out[f].points,
                   out[f].default_worst);
        else
            printf("  %-16s %llu  (default)\n", batch_field_names[f], (unsigned long long)*batch_field(&plan, f));
    if (decided)
        printf("tuner: compile it into the library: tuner --emit-table src/lib/tuning_builtin.c --db DB "
               "(or add this database's dump to db/reference/ and run tuner/emit_builtin.sh)\n");
    return 0;
}

/* --batch --fit-only: every (machine, commit) of the database decided again. */
typedef struct {
    dh_store *db;
    int rc, sources;
} redecide_ctx;

static int redecide_one(int64_t machine_id, const char *commit, const char *gpu, void *ctx)
{
    redecide_ctx *c = ctx;
    c->rc = decide_and_store(c->db, machine_id, commit, gpu);
    ++c->sources;
    return c->rc != 0;
}

int batch_redecide(dh_store *db)
{
    redecide_ctx c = { db, 0, 0 };
    if (dh_store_each_batch_source(db, redecide_one, &c) != DRTOPK_OK) {
        fprintf(stderr, "tuner: %s\n", dh_store_errmsg(db));
        return EXIT_USAGE;
    }
    if (c.rc == 0 && c.sources == 0)
        printf("tuner: no batched measurements in the database: nothing to decide (run tuner --batch)\n");
    return c.rc;
}

/* The sweep of batch_sweep without its signal handling: 0, EXIT_FAILURES,
 * EXIT_USAGE or EXIT_RUNTIME; 0 too when a signal or --max-minutes stopped
 * it (tuner_should_stop). */
static int measure_and_decide(const options *o, dh_store *db, int64_t machine_id, int64_t run_id,
                              const char *commit, const dh_store_machine *mach)
{
    workload w[MAX_WORKLOADS];
    const int nw = workloads(o, w);
    size_t total = 0, done = 0, skipped = 0, errors = 0, wrong = 0, verified = 0;
    for (int i = 0; i < nw; ++i) total += (size_t)w[i].nks * 2 * (size_t)o->ndtype;
    double *ms = malloc((size_t)o->reps * sizeof *ms);
    if (!ms) {
        fprintf(stderr, "tuner: out of memory\n");
        return EXIT_USAGE;
    }
    printf("tuner: %s, commit %s, batch sweep: %zu measurements (%d workloads x k x 2 candidates x %d dtypes)\n",
           mach->name, commit, total, nw, o->ndtype);
    fflush(stdout);
    const double t0 = dh_now_ms();
    const char *end = "done";
    int rc = 0;
    for (int t = 0; t < o->ndtype && rc == 0; ++t)
        for (int i = 0; i < nw && rc == 0; ++i) {
            batch_data d;
            int have_data = 0;
            for (int ki = 0; ki < w[i].nks && rc == 0; ++ki) {
                const uint64_t k = w[i].ks[ki];
                int have_ref = 0;
                for (int admitted = 1; admitted >= 0; --admitted) {
                    if (tuner_should_stop()) {
                        end = tuner_stop_signal ? "interrupted" : "time-limit";
                        rc = -1;
                        break;
                    }
                    dh_store_batch_row r;
                    memset(&r, 0, sizeof r);
                    key_of(&w[i], o->dtype[t], k, admitted, o->seed, &r.key);
                    int found = 0;
                    if (!o->force && dh_store_has_batch(db, machine_id, commit, &r.key, &found) != DRTOPK_OK) {
                        fprintf(stderr, "tuner: %s\n", dh_store_errmsg(db));
                        rc = EXIT_RUNTIME;
                        break;
                    }
                    if (found) {
                        ++skipped;
                        continue;
                    }
                    drtopk_status st = DRTOPK_OK;
                    if (!have_data) {
                        st = data_make(o, &w[i], o->dtype[t], &d);
                        have_data = 1;
                    }
                    const int do_verify = o->verify_every > 0 && done % (size_t)o->verify_every == 0;
                    if (st == DRTOPK_OK && do_verify && !have_ref) {
                        st = reference(o, &w[i], &d, k);
                        have_ref = st == DRTOPK_OK;
                    }
                    if (st != DRTOPK_OK) {
                        snprintf(r.error, sizeof r.error, "preparing the workload: %s", drtopk_status_string(st));
                    } else {
                        drtopk_batch_plan plan;
                        candidate_plan(&w[i], k, admitted, &plan);
                        measure(o, &w[i], &d, k, &plan, do_verify, ms, &r);
                    }
                    if (dh_store_begin(db) != DRTOPK_OK ||
                        dh_store_put_batch(db, machine_id, run_id, commit, &r) != DRTOPK_OK ||
                        dh_store_commit(db) != DRTOPK_OK) {
                        fprintf(stderr, "\ntuner: storing a batched measurement: %s\n", dh_store_errmsg(db));
                        rc = EXIT_RUNTIME;
                        break;
                    }
                    ++done;
                    char what[512];
                    snprintf(what, sizeof what, "%s %s %s %s rows=%llu len=%llu k=%llu: %s", r.key.crossover,
                             r.key.candidate, r.key.dtype, r.key.segs, (unsigned long long)r.key.rows,
                             (unsigned long long)r.key.len, (unsigned long long)k, r.ok ? "ok" : r.error);
                    if (!r.ok) {
                        ++errors;
                        fprintf(stderr, "tuner: FAILED %s\n", what);
                    } else if (r.verified) {
                        ++verified;
                        if (!r.verify_ok) {
                            ++wrong;
                            fprintf(stderr, "tuner: WRONG RESULT %s: %s\n", what, r.error);
                        }
                    }
                    tuner_progress(done + skipped, total, t0, what, 0);
                }
            }
            if (have_data) data_free(o, &d);
        }
    free(ms);
    if (rc > 0) end = "failed";
    tuner_progress(done + skipped, total, t0, end, 1);
    dh_store_end_run(db, run_id, end);
    printf("tuner: batch sweep %s: %zu measured, %zu already stored, %zu errors, %zu verified, %zu wrong results, "
           "%.1f s\n", end, done, skipped, errors, verified, wrong, (dh_now_ms() - t0) / MS_PER_S);
    if (rc > 0) return rc;
    if (rc < 0) {     /* batch_sweep turns a signal into its exit status */
        printf("tuner: stopped early; run the same command again to go on\n");
        return 0;
    }
    const int drc = decide_and_store(db, machine_id, commit, mach->name);
    return drc ? drc : errors || wrong ? EXIT_FAILURES : 0;
}

int batch_sweep(const options *o, dh_store *db, int64_t machine_id, int64_t run_id, const char *commit,
                const dh_store_machine *mach)
{
    tuner_catch_signals();
    tuner_set_deadline(dh_now_ms(), o->max_minutes);
    int rc = measure_and_decide(o, db, machine_id, run_id, commit, mach);
    return tuner_stop_signal ? SIGNAL_EXIT_BASE + tuner_stop_signal : rc;
}
