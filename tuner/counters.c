/*
 * counters.c -- the tuner's counts that are not timings (schema 7, table
 * counters): `tuner --bmw` counts, on the host, the elements a
 * BMW-style scan evaluates and Dr. Top-k's workload |D| + |C| for each dr-
 * configuration of the sweep (paper 6.6, Figure 24; src/harness/bmw.c), and
 * `tuner --import-counters FILE.tsv` stores Nsight Compute metrics of `drtopk
 * run` calls (paper 6.4, Table 3; written by experiments/tab3_transactions.sh)
 * for the machine the tuner identified.
 */
#include "counters.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bmw.h"
#include "measure.h"
#include "progress.h"
#include "sweep.h"
#include "util.h"

#define BMW_SOURCE "bmw"
#define NCU_SOURCE "ncu"
#define TSV_LINE_MAX 1024
#define COUNT_THREADS_MAX 64     /* host threads that count at once (one config each) */
#define TSV_FIELDS 12       /* algorithm dtype dist seed n k alpha beta flags counter value kernels */

static drtopk_status put(dh_store *db, int64_t machine_id, int64_t run_id, const char *commit,
                         const dh_store_counter *c)
{
    if (dh_store_begin(db) != DRTOPK_OK || dh_store_put_counter(db, machine_id, run_id, commit, c) != DRTOPK_OK ||
        dh_store_commit(db) != DRTOPK_OK) {
        fprintf(stderr, "tuner: storing a counter: %s\n", dh_store_errmsg(db));
        return DRTOPK_ERR_IO;
    }
    return DRTOPK_OK;
}

/* One config's counts, made by a worker thread (bmw.c's functions read V and
 * keep their state on the stack and heap of the call: any number may run at
 * once on one V). */
typedef struct {
    const config *c;
    drtopk_problem p;
    drtopk_plan plan;
    drtopk_status st;
    uint64_t evaluated, skipped, dlen, clen;
} bmw_job;

typedef struct {
    const options *o;
    bmw_job *jobs;
    size_t njobs;
    atomic_size_t next;         /* the next job to take (jobs sorted longest first) */
} bmw_group;

/* A BMW scan's heap work grows with k: the largest k go first, so that no
 * long count starts last. */
static int by_k_desc(const void *a, const void *b)
{
    const uint64_t x = ((const bmw_job *)a)->c->k, y = ((const bmw_job *)b)->c->k;
    return (x < y) - (x > y);
}

/* arg: a bmw_group * (one per thread, all the same group). */
static void *bmw_worker(void *arg)
{
    bmw_group *g = *(bmw_group **)arg;
    for (size_t i; (i = atomic_fetch_add(&g->next, 1)) < g->njobs; ) {
        bmw_job *j = &g->jobs[i];
        j->st = make_plan(g->o, j->c, &j->p, &j->plan);
        if (j->st == DRTOPK_OK)
            j->st = dh_bmw_workload(&j->p, j->plan.alpha, &j->evaluated, &j->skipped);
        if (j->st == DRTOPK_OK)
            j->st = dh_bmw_drtopk_workload(&j->p, &j->plan, &j->dlen, &j->clen);
    }
    return NULL;
}

typedef struct {
    void *v;
    uint64_t first, n;
    dh_dist d;
    drtopk_dtype t;
    uint64_t seed;
} gen_slice;

static void *gen_worker(void *arg)
{
    gen_slice *s = arg;
    dh_gen_host_at((char *)s->v + s->first * drtopk_dtype_size(s->t), s->first, s->n, s->d, s->t, s->seed);
    return NULL;
}

static int online_cpus(void)
{
    const long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c < 1 ? 1 : c > COUNT_THREADS_MAX ? COUNT_THREADS_MAX : (int)c;
}

/* Run fn over args[0 .. n) on n threads (the calling one among them); 0, or
 * -1 when a thread could not be started (its argument was not run; the
 * others are joined). */
static int run_threads(void *(*fn)(void *), void *args, size_t arg_size, int n)
{
    pthread_t th[COUNT_THREADS_MAX];
    int started = 0, rc = 0;
    for (int i = 1; i < n; ++i) {
        if (pthread_create(&th[i], NULL, fn, (char *)args + (size_t)i * arg_size) != 0) { rc = -1; break; }
        started = i;
    }
    fn(args);
    for (int i = 1; i <= started; ++i) pthread_join(th[i], NULL);
    return rc;
}

/* V of one (key type, distribution, n) on the host, generated in slices on
 * every core (bit-identical to dh_gen_host). */
static void *host_data(const options *o, drtopk_dtype t, dh_dist d, uint64_t n)
{
    void *v = malloc(n * drtopk_dtype_size(t));
    if (!v) return NULL;
    gen_slice sl[COUNT_THREADS_MAX];
    const int nt = online_cpus();
    for (int i = 0; i < nt; ++i) {
        const uint64_t a = n * (uint64_t)i / (uint64_t)nt, b = n * (uint64_t)(i + 1) / (uint64_t)nt;
        sl[i] = (gen_slice){ v, a, b - a, d, t, o->seed };
    }
    if (run_threads(gen_worker, sl, sizeof *sl, nt) != 0) {
        free(v);
        return NULL;
    }
    return v;
}

/* For each dr- config of cfgs not counted yet, the BMW scan's evaluated
 * elements and Dr. Top-k's |D| + |C| into table counters.  The configs of one
 * (key type, distribution, n) share one V and are counted at once, one per
 * core (a BMW scan is sequential by nature: the configs are the parallelism);
 * the time limit is checked between such groups.  0, or -1 with a message. */
static int count_configs(const options *o, dh_store *db, int64_t machine_id, int64_t run_id, const char *commit,
                         const config *cfgs, size_t total)
{
    size_t todo = 0, done = 0, ndr = 0;
    char *need = calloc(total ? total : 1, 1);
    bmw_job *jobs = calloc(total ? total : 1, sizeof *jobs);
    if (!need || !jobs) {
        fprintf(stderr, "tuner: out of memory\n");
        free(need);
        free(jobs);
        return -1;
    }
    for (size_t i = 0; i < total; ++i) {
        dh_store_config key;
        int found = 0;
        if (!o->algo[cfgs[i].algo].delegate)
            continue;               /* BMW is compared with the delegate pipeline */
        ++ndr;
        config_key(o, &cfgs[i], &key);
        if (!o->force && dh_store_has_counter(db, machine_id, commit, &key, BMW_SOURCE, "dr_workload", &found) !=
                             DRTOPK_OK) {
            fprintf(stderr, "tuner: %s\n", dh_store_errmsg(db));
            free(need);
            free(jobs);
            return -1;
        }
        need[i] = !found;
        todo += !found;
    }
    printf("tuner: BMW and Dr. Top-k workload counts (host, %d threads): %zu dr- configs, %zu to count\n",
           online_cpus(), ndr, todo);
    fflush(stdout);
    int rc = 0;
    double t0 = dh_now_ms();
    for (size_t i = 0; i < total && rc == 0; ++i) {
        if (!need[i])
            continue;
        if (tuner_should_stop()) {
            printf("tuner: stopped (time limit or signal) after %zu of %zu counts; run again to go on\n", done, todo);
            break;
        }
        const config *c0 = &cfgs[i];
        const drtopk_dtype t = o->dtype[c0->dtype];
        const uint64_t n = o->n[c0->n];
        size_t nj = 0;
        for (size_t j = i; j < total; ++j) {
            const config *c = &cfgs[j];
            if (!need[j] || c->dtype != c0->dtype || c->dist != c0->dist || c->n != c0->n)
                continue;
            need[j] = 0;
            memset(&jobs[nj], 0, sizeof jobs[nj]);
            jobs[nj].c = c;
            jobs[nj].p = (drtopk_problem){ .backend = DRTOPK_BACKEND_CPU, .dtype = t, .order = DRTOPK_LARGEST,
                                           .n = n, .k = c->k };
            ++nj;
        }
        void *v = host_data(o, t, o->dist[c0->dist], n);
        if (!v) {
            fprintf(stderr, "tuner: cannot make the host copy of %llu elements (out of memory, or no thread "
                            "to generate it)\n", (unsigned long long)n);
            rc = -1;
            break;
        }
        for (size_t j = 0; j < nj; ++j) jobs[j].p.values = v;
        qsort(jobs, nj, sizeof *jobs, by_k_desc);
        bmw_group g = { .o = o, .jobs = jobs, .njobs = nj };
        atomic_init(&g.next, 0);
        bmw_group *gs[COUNT_THREADS_MAX];
        const int nt = nj < (size_t)online_cpus() ? (int)nj : online_cpus();
        for (int w = 0; w < nt; ++w) gs[w] = &g;
        run_threads(bmw_worker, gs, sizeof *gs, nt);     /* a thread that did not start leaves its jobs to the rest */
        for (size_t j = 0; j < nj && rc == 0; ++j) {
            const bmw_job *jb = &jobs[j];
            dh_store_counter cnt;
            memset(&cnt, 0, sizeof cnt);
            config_key(o, jb->c, &cnt.cfg);
            if (jb->st != DRTOPK_OK) {
                fprintf(stderr, "tuner: counting %s %s n=%llu k=%llu: %s\n", cnt.cfg.algorithm, cnt.cfg.dist,
                        (unsigned long long)n, (unsigned long long)jb->c->k, drtopk_status_string(jb->st));
                rc = -1;
                break;
            }
            snprintf(cnt.source, sizeof cnt.source, BMW_SOURCE);
            cnt.kernels = -1;
            snprintf(cnt.counter, sizeof cnt.counter, "bmw_evaluated");
            cnt.value = (double)jb->evaluated;
            if (put(db, machine_id, run_id, commit, &cnt) != DRTOPK_OK) { rc = -1; break; }
            snprintf(cnt.counter, sizeof cnt.counter, "dr_workload");   /* last: marks the config counted */
            cnt.value = (double)(jb->dlen + jb->clen);
            if (put(db, machine_id, run_id, commit, &cnt) != DRTOPK_OK) { rc = -1; break; }
            ++done;
            char what[256];
            snprintf(what, sizeof what, "%s n=%llu k=%llu a=%d: BMW %llu, Dr. %llu", cnt.cfg.dist,
                     (unsigned long long)n, (unsigned long long)jb->c->k, jb->plan.alpha,
                     (unsigned long long)jb->evaluated, (unsigned long long)(jb->dlen + jb->clen));
            tuner_progress(done, todo, t0, what, done == todo);
        }
        free(v);
    }
    free(jobs);
    free(need);
    return rc;
}

/* One TSV field of `line` (tabs cut in place) into fields[]; the count. */
static int split_tsv(char *line, char **fields, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = 0;
    for (char *p = line; n < max; ) {
        fields[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab)
            break;
        *tab = 0;
        p = tab + 1;
    }
    return n;
}

/* Store the ncu metrics of the TSV file at path; *stored lines.  0, or -1
 * with a message. */
static int store_tsv(dh_store *db, int64_t machine_id, int64_t run_id, const char *commit, const char *path,
                     int *stored)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "tuner: --import-counters %s: cannot open it\n", path);
        return -1;
    }
    char line[TSV_LINE_MAX], tool[64] = "";
    int lineno = 0, rc = 0;
    *stored = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        ++lineno;
        if (!strncmp(line, "# tool ", 7)) {     /* "# tool <name> <version>": the profiler */
            snprintf(tool, sizeof tool, "%.*s", (int)strcspn(line + 7, "\r\n"), line + 7);
            continue;
        }
        if (line[0] == '#' || line[0] == '\n' || !strncmp(line, "algorithm\t", 10))
            continue;
        char *fd[TSV_FIELDS + 1];
        dh_store_counter c;
        memset(&c, 0, sizeof c);
        drtopk_algo a;
        int dr = 0;
        uint64_t alpha = 0, beta = 0, flags = 0, kernels = 0;
        char *end = NULL;
        int nf = split_tsv(line, fd, TSV_FIELDS + 1);
        if (nf != TSV_FIELDS || drtopk_algo_parse(fd[0], &a, &dr) != DRTOPK_OK ||
            dh_parse_u64(fd[3], &c.cfg.seed) || dh_parse_u64(fd[4], &c.cfg.n) ||
            dh_parse_u64(fd[5], &c.cfg.k) || dh_parse_u64(fd[6], &alpha) || dh_parse_u64(fd[7], &beta) ||
            dh_parse_u64(fd[8], &flags) || !fd[9][0] || strlen(fd[9]) >= sizeof c.counter ||
            (c.value = strtod(fd[10], &end), end == fd[10] || *end) || dh_parse_u64(fd[11], &kernels) ||
            strlen(fd[1]) >= sizeof c.cfg.dtype || strlen(fd[2]) >= sizeof c.cfg.dist) {
            fprintf(stderr, "tuner: %s:%d: expected %d tab-separated fields: algorithm dtype dist seed n k alpha beta "
                            "flags counter value kernels\n", path, lineno, TSV_FIELDS);
            rc = -1;
            break;
        }
        snprintf(c.cfg.algorithm, sizeof c.cfg.algorithm, "%s", fd[0]);
        if (dr) {
            snprintf(c.cfg.first_algo, sizeof c.cfg.first_algo, "%s", drtopk_algo_name(a));
            snprintf(c.cfg.second_algo, sizeof c.cfg.second_algo, "%s", drtopk_algo_name(a));
        }
        snprintf(c.cfg.dtype, sizeof c.cfg.dtype, "%s", fd[1]);
        snprintf(c.cfg.dist, sizeof c.cfg.dist, "%s", fd[2]);
        c.cfg.alpha = (int)alpha;
        c.cfg.beta = (int)beta;
        c.cfg.flags = (unsigned)flags;
        snprintf(c.cfg.order, sizeof c.cfg.order, "largest");
        snprintf(c.source, sizeof c.source, NCU_SOURCE);
        snprintf(c.counter, sizeof c.counter, "%s", fd[9]);
        snprintf(c.tool_version, sizeof c.tool_version, "%s", tool);
        c.kernels = (int64_t)kernels;
        if (put(db, machine_id, run_id, commit, &c) != DRTOPK_OK)
            rc = -1;
        else
            ++*stored;
    }
    fclose(f);
    if (rc == 0 && *stored == 0) {
        fprintf(stderr, "tuner: --import-counters %s: no counter lines\n", path);
        rc = -1;
    }
    return rc;
}

int bmw_sweep(const options *o, dh_store *db, int64_t machine_id, int64_t run_id, const char *commit)
{
    size_t total = 0;
    config *cfgs = sweep_configs(o, db, run_id, &total);
    if (!cfgs)
        return EXIT_USAGE;
    tuner_set_deadline(dh_now_ms(), o->max_minutes);
    int rc = count_configs(o, db, machine_id, run_id, commit, cfgs, total);
    dh_store_end_run(db, run_id, rc ? "failed" : tuner_should_stop() ? "time-limit" : "done");
    free(cfgs);
    return rc ? EXIT_FAILURES : 0;
}

int import_counters(const options *o, dh_store *db, int64_t machine_id, int64_t run_id, const char *commit,
                    const dh_store_machine *mach)
{
    int stored = 0;
    int rc = store_tsv(db, machine_id, run_id, commit, o->import_counters, &stored);
    dh_store_end_run(db, run_id, rc ? "failed" : "done");
    if (rc == 0)
        printf("tuner: imported %s into %s: %d counters of %s\n", o->import_counters, o->db, stored, mach->name);
    return rc ? EXIT_USAGE : 0;
}
