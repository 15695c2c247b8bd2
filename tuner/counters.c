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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmw.h"
#include "measure.h"
#include "progress.h"
#include "sweep.h"
#include "util.h"

#define BMW_SOURCE "bmw"
#define NCU_SOURCE "ncu"
#define TSV_LINE_MAX 1024
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

/* For each dr- config of cfgs not counted yet, the BMW scan's evaluated
 * elements and Dr. Top-k's |D| + |C| into table counters.  0, or -1 with a
 * message. */
static int count_configs(const options *o, dh_store *db, int64_t machine_id, int64_t run_id, const char *commit,
                         const config *cfgs, size_t total)
{
    size_t todo = 0, done = 0, ndr = 0;
    char *need = calloc(total ? total : 1, 1);
    if (!need) {
        fprintf(stderr, "tuner: out of memory\n");
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
            return -1;
        }
        need[i] = !found;
        todo += !found;
    }
    printf("tuner: BMW and Dr. Top-k workload counts (host): %zu dr- configs, %zu to count\n", ndr, todo);
    fflush(stdout);
    void *v = NULL;
    int have_t = -1, have_d = -1, have_n = -1, rc = 0;
    double t0 = dh_now_ms();
    for (size_t i = 0; i < total && rc == 0; ++i) {
        if (!need[i])
            continue;
        if (tuner_should_stop()) {
            printf("tuner: stopped (time limit or signal) after %zu of %zu counts; run again to go on\n", done, todo);
            break;
        }
        const config *c = &cfgs[i];
        drtopk_dtype t = o->dtype[c->dtype];
        uint64_t n = o->n[c->n];
        if (c->dtype != have_t || c->dist != have_d || c->n != have_n) {
            free(v);
            v = malloc(n * drtopk_dtype_size(t));
            if (!v) {
                fprintf(stderr, "tuner: out of memory for the host copy of %llu elements\n", (unsigned long long)n);
                rc = -1;
                break;
            }
            dh_gen_host(v, n, o->dist[c->dist], t, o->seed);
            have_t = c->dtype;
            have_d = c->dist;
            have_n = c->n;
        }
        drtopk_problem p = { .backend = DRTOPK_BACKEND_CPU, .dtype = t, .order = DRTOPK_LARGEST, .n = n, .k = c->k,
                             .values = v };
        drtopk_plan plan;
        uint64_t evaluated = 0, skipped = 0, dlen = 0, clen = 0;
        drtopk_status st = make_plan(o, c, &p, &plan);
        if (st == DRTOPK_OK)
            st = dh_bmw_workload(&p, plan.alpha, &evaluated, &skipped);
        if (st == DRTOPK_OK)
            st = dh_bmw_drtopk_workload(&p, &plan, &dlen, &clen);
        dh_store_counter cnt;
        memset(&cnt, 0, sizeof cnt);
        config_key(o, c, &cnt.cfg);
        if (st != DRTOPK_OK) {
            fprintf(stderr, "tuner: counting %s %s n=%llu k=%llu: %s\n", cnt.cfg.algorithm, cnt.cfg.dist,
                    (unsigned long long)n, (unsigned long long)c->k, drtopk_status_string(st));
            rc = -1;
            break;
        }
        snprintf(cnt.source, sizeof cnt.source, BMW_SOURCE);
        cnt.kernels = -1;
        snprintf(cnt.counter, sizeof cnt.counter, "bmw_evaluated");
        cnt.value = (double)evaluated;
        if (put(db, machine_id, run_id, commit, &cnt) != DRTOPK_OK) { rc = -1; break; }
        snprintf(cnt.counter, sizeof cnt.counter, "dr_workload");   /* last: marks the config counted */
        cnt.value = (double)(dlen + clen);
        if (put(db, machine_id, run_id, commit, &cnt) != DRTOPK_OK) { rc = -1; break; }
        ++done;
        char what[256];
        snprintf(what, sizeof what, "%s n=%llu k=%llu a=%d: BMW %llu, Dr. %llu", cnt.cfg.dist, (unsigned long long)n,
                 (unsigned long long)c->k, plan.alpha, (unsigned long long)evaluated,
                 (unsigned long long)(dlen + clen));
        tuner_progress(done, todo, t0, what, done == todo);
    }
    free(v);
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
