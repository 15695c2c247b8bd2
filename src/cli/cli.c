/*
 * cli.c -- the `drtopk` command.  `drtopk run` selects the top k of a seeded
 * synthetic vector (paper section 6: UD, ND, CD, ...) or of a raw file, with
 * the Dr. Top-k delegate pipeline (paper sections 4-5, `--algo dr-<algo>`) or
 * a standalone top-k algorithm, on the GPU or the CPU reference; it times the
 * call (median of repetitions, per-stage breakdown, workload sizes, achieved
 * read bandwidth), verifies the result and writes it as raw arrays.
 * `drtopk gen` writes a seeded vector to a raw file; `drtopk dataset`
 * (dataset_cmd.c) turns real data into one.  The plan comes from
 * drtopk_plan_auto with the tuning of the GPU (or host) the run uses, loaded
 * from the results store ($DRTOPK_DB, else db/results.sqlite), or from --const.
 *
 * Exit codes: 0 success, 1 runtime failure, 2 bad arguments, 3 verification failed.
 */
#include "drtopk.h"
#include "cli.h"
#include "batch_check.h"
#include "device.h"
#include "gen.h"
#include "keyorder.h"
#include "oracle.h"
#include "runopt.h"
#include "store.h"
#include "util.h"
#include "version.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_REPS_CUDA 7       /* the median of 7 timed runs (docs/performance.md) */
#define DEFAULT_REPS_CPU 1        /* the CPU reference is for correctness, not speed */
#define DEFAULT_WARMUP_CUDA 1     /* first call pays module load and page mapping */
#define DEFAULT_WARMUP_CPU 0
#define READ_FLOOR_REPS 5         /* repetitions of the streaming-read measurement */
#define LAUNCH_FLOOR_REPS 21      /* repetitions of the empty launch (microseconds: more to steady the median) */
#define PROGRESS_MIN_N (1ull << 26) /* host loops this long take seconds: say so on stderr */
#define BYTES_PER_GB 1e9
#define MS_PER_S 1e3
#define STAGES 4                  /* delegate, first top-k, concatenation, second top-k */

static const char *const order_names[] = { "largest", "smallest" };
/* Where the plan's const, beta and algorithm came from, in words and as JSON keys. */
static const char *const const_source_names[] = {
    [DRTOPK_CONST_DEFAULT] = "the paper's default",
    [DRTOPK_CONST_USER] = "--const",
    [DRTOPK_CONST_TUNING] = "tuned for this machine, from",    /* + the database path */
    [DRTOPK_CONST_BUILTIN] = "the library's built-in table for this GPU",
    [DRTOPK_CONST_EXPLICIT] = "the plan as given",
};
static const char *const const_source_keys[] = {
    [DRTOPK_CONST_DEFAULT] = "default",
    [DRTOPK_CONST_USER] = "user",
    [DRTOPK_CONST_TUNING] = "database",
    [DRTOPK_CONST_BUILTIN] = "builtin",
    [DRTOPK_CONST_EXPLICIT] = "explicit",
};

static const char help_main[] =
    "drtopk -- exact top-k with Dr. Top-k (delegate-centric top-k, SC'21)\n"
    "\n"
    "usage: drtopk <command> [options]\n"
    "\n"
    "commands:\n"
    "  run      select the top k of a seeded vector or a raw file; time, verify, write\n"
    "  gen      write a seeded vector to a raw file\n"
    "  dataset  turn real data (k-NN vectors, graphs, CSV scores) into a raw file\n"
    "  batch    top k of every row or segment (batched / segmented top-k)\n"
    "  version  print the version, the git commit and whether a CUDA GPU is usable\n"
    "  help     this text; `drtopk help run` / `drtopk run --help` for a command\n"
    "\n"
    "exit codes: 0 success, 1 runtime failure, 2 bad arguments, 3 verification failed\n";

static const char help_run[] =
    "usage: drtopk run --n N --k K [options]\n"
    "       drtopk run --input FILE.{u32,i32,f32,f16,bf16,u64,i64,f64} --k K [options]\n"
    "\n";

static const char help_gen[] =
    "usage: drtopk gen --n N --out FILE.{u32,i32,f32,f16,bf16,u64,i64,f64} [--dist D] [--seed S] [--dtype T]\n"
    "\n"
    "Writes the N-element seeded vector (the same values `drtopk run` generates on the\n"
    "CPU or the GPU) as little-endian raw elements of 2, 4 or 8 bytes.  The dtype is the\n"
    "file's extension; --dtype, if given, must agree with it.\n"
    "  --n N        number of elements (plain, 2^p or 2^p+q)\n"
    "  --out FILE   output path ending in .u32 .i32 .f32 .f16 .bf16 .u64 .i64 or .f64\n"
    "  --dist D     UD ND CD ASC DESC FEW EQ SPECIAL (default UD)\n"
    "  --seed S     generator seed (default 1)\n"
    "  --dtype T    u32 i32 f32 f16 bf16 u64 i64 f64\n";

/* Everything the run owns; released in one place. */
typedef struct {
    void *host_v;               /* V on the host (input, CPU data, or verify copy) */
    void *dev_v, *dev_ws, *dev_vals, *dev_idx;
    void *host_ws, *vals;
    uint64_t *idx;
    double *ms, *ms_stage[STAGES];
    int cuda_selected;
} run_mem;

static void run_mem_free(run_mem *m)
{
    free(m->host_v);
    free(m->host_ws);
    free(m->vals);
    free(m->idx);
    free(m->ms);
    for (int s = 0; s < STAGES; ++s) free(m->ms_stage[s]);
    if (m->cuda_selected) {
        if (m->dev_v) dh_dev_free(m->dev_v);
        if (m->dev_ws) dh_dev_free(m->dev_ws);
        if (m->dev_vals) dh_dev_free(m->dev_vals);
        if (m->dev_idx) dh_dev_free(m->dev_idx);
    }
}

/* Result of the run, for the report. */
typedef struct {
    double ms_median, ms_min, ms_max, stage_median[STAGES], read_floor_ms, launch_floor_ms, gbps;
    drtopk_stats last;
    size_t ws_bytes;
    int unprimed;               /* --timing gpu: calls whose stream hold timed out */
    int verified;               /* -1 not run, 0 FAIL, 1 PASS */
    char why[300];
    dh_device_info dev;
    const char *backend_reason;
    const char *tuning_db;      /* the database the plan's tuning came from */
} run_result;

static const char *const stage_names[STAGES] = { "delegate", "first", "concat", "second" };
static void print_text(const run_cfg *c, const drtopk_problem *p, const drtopk_plan *plan,
                       const run_result *r)
{
    char nbuf[64], kbuf[64];
    size_text(nbuf, sizeof nbuf, p->n);
    size_text(kbuf, sizeof kbuf, p->k);
    printf("backend:   %s (%s)\n", p->backend == DRTOPK_BACKEND_CUDA ? "cuda" : "cpu", r->backend_reason);
    if (p->backend == DRTOPK_BACKEND_CUDA)
        printf("gpu:       %d: %s (sm_%d%d, %d SMs)\n", c->gpu, r->dev.name, r->dev.cc_major,
               r->dev.cc_minor, r->dev.sm_count);
    if (c->input)
        printf("input:     %s: n = %s, %s\n", c->input, nbuf, drtopk_dtype_name(p->dtype));
    else
        printf("input:     n = %s, %s, dist %s, seed %" PRIu64 "\n", nbuf, drtopk_dtype_name(p->dtype),
               dh_dist_name(c->dist), c->seed);
    printf("select:    k = %s %s\n", kbuf, order_names[p->order]);
    if (plan->flags & DRTOPK_DELEGATE) {
        printf("plan:      dr-%s: alpha = %d (%s), beta = %d, first top-k %s, second top-k %s\n",
               drtopk_algo_name(plan->second_algo), plan->alpha,
               c->have_alpha ? "--alpha" : "Rule 4", plan->beta, drtopk_algo_name(plan->first_algo),
               drtopk_algo_name(plan->second_algo));
        printf("           filter %s, shared-memory delegates %s, skip last digit %s, sorted %s, deterministic %s\n",
               on_off(plan->flags, DRTOPK_FILTER), on_off(plan->flags, DRTOPK_SHARED_DELEGATE),
               on_off(plan->flags, DRTOPK_SKIP_LAST_DIGIT), on_off(plan->flags, DRTOPK_SORTED),
               on_off(plan->flags, DRTOPK_DETERMINISTIC));
        printf("           Rule 4 const = %g (%s%s%s)\n", plan->rule4_const, const_source_names[plan->const_source],
               plan->const_source == DRTOPK_CONST_TUNING ? " " : "",
               plan->const_source == DRTOPK_CONST_TUNING ? r->tuning_db : "");
    } else {
        printf("plan:      standalone %s, sorted %s, deterministic %s\n", drtopk_algo_name(plan->second_algo),
               on_off(plan->flags, DRTOPK_SORTED), on_off(plan->flags, DRTOPK_DETERMINISTIC));
    }
    printf("workspace: %zu bytes\n", r->ws_bytes);
    printf("time:      median %.4f ms, min %.4f, max %.4f (%d reps after %d warm-up; %s)\n", r->ms_median,
           r->ms_min, r->ms_max, c->reps, c->warmup,
           c->timing == DRTOPK_TIMING_GPU ? "GPU time, the stream held until enqueued" : "events around the call");
    if (c->timing == DRTOPK_TIMING_GPU)
        printf("stages:    not timed (--timing gpu: stage events would synchronise inside the call)\n");
    else
        printf("stages:    delegate %.4f ms, first top-k %.4f, concatenation %.4f, second top-k %.4f (medians)\n",
               r->stage_median[0], r->stage_median[1], r->stage_median[2], r->stage_median[3]);
    if (!(plan->flags & DRTOPK_DELEGATE) && plan->second_algo == DRTOPK_ALGO_ONEPASS)   /* drtopk.h, drtopk_stats */
        printf("workload:  sampled %" PRIu64 ", sample rank %" PRIu64 ", kept above the threshold or tied with it"
               " (ties up to k) %" PRIu64 ", fell back to reading V again: %s\n", r->last.delegate_len,
               r->last.first_selected, r->last.concat_len, r->last.scanned_subranges ? "yes" : "no");
    else
        printf("workload:  delegate_len %" PRIu64 ", first_selected %" PRIu64 ", concat_len %" PRIu64
               ", scanned_subranges %" PRIu64 "\n", r->last.delegate_len, r->last.first_selected,
               r->last.concat_len, r->last.scanned_subranges);
    if (isfinite(r->gbps)) printf("bandwidth: %.2f GB/s reading V once", r->gbps);
    else printf("bandwidth: n/a (time too short to measure)");
    if (p->backend == DRTOPK_BACKEND_CUDA && r->read_floor_ms > 0)
        printf(" (a plain streaming read of V: %.4f ms, %.2f GB/s)", r->read_floor_ms,
               (double)p->n * drtopk_dtype_size(p->dtype) / (r->read_floor_ms / MS_PER_S) / BYTES_PER_GB);
    putchar('\n');
    if (p->backend == DRTOPK_BACKEND_CUDA && r->launch_floor_ms > 0)
        printf("floor:     %.4f ms to launch an empty kernel, timed as the call is\n", r->launch_floor_ms);
    if (c->output) printf("output:    %s.values, %s.indices\n", c->output, c->output);
    if (r->verified >= 0)
        printf("verify:    %s%s%s\n", r->verified ? "PASS" : "FAIL", r->verified ? "" : ": ", r->why);
}

/* One selected element: its ordered key (larger is better) and position. */
typedef struct {
    uint64_t key, pos, bits;
} shown;

static int shown_best_first(const void *a, const void *b)
{
    const shown *x = (const shown *)a, *y = (const shown *)b;
    if (x->key != y->key) return x->key > y->key ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* The value of key bits b of type t, as text. */
static void value_text(char *out, size_t len, uint64_t b, drtopk_dtype t)
{
    switch (t) {
    case DRTOPK_I32: snprintf(out, len, "%" PRId32, (int32_t)(uint32_t)b); break;
    case DRTOPK_I64: snprintf(out, len, "%" PRId64, (int64_t)b); break;
    case DRTOPK_F32: {
        float f;
        const uint32_t w = (uint32_t)b;
        memcpy(&f, &w, sizeof f);
        snprintf(out, len, "%.9g", f);      /* 9 digits: every f32 reads back exactly */
        break;
    }
    case DRTOPK_F64: {
        double d;
        memcpy(&d, &b, sizeof d);
        snprintf(out, len, "%.17g", d);     /* 17 digits: every f64 reads back exactly */
        break;
    }
    case DRTOPK_F16: snprintf(out, len, "%.5g", drtopk_f16_to_float((uint16_t)b)); break;
    case DRTOPK_BF16: snprintf(out, len, "%.4g", drtopk_bf16_to_float((uint16_t)b)); break;
    default: snprintf(out, len, "%" PRIu64, b); break;
    }
}

/* --show: the first c->show of the k results, best first (ties by position). */
static int print_shown(const run_cfg *c, const drtopk_problem *p, const run_mem *m)
{
    const uint64_t count = c->show < p->k ? c->show : p->k;
    shown *s = (shown *)malloc((size_t)p->k * sizeof *s);
    char value[64];
    if (!s) return runtime_error("out of host memory to rank the result for --show");
    for (uint64_t i = 0; i < p->k; ++i) {
        s[i].bits = drtopk_bits_at(m->vals, i, p->dtype);
        s[i].key = drtopk_key_any(s[i].bits, p->dtype, p->order);
        s[i].pos = m->idx[i];
    }
    qsort(s, (size_t)p->k, sizeof *s, shown_best_first);
    printf("result:    the first %" PRIu64 " of %" PRIu64 ", best first (rank: value at position)\n", count, p->k);
    for (uint64_t i = 0; i < count; ++i) {
        value_text(value, sizeof value, s[i].bits, p->dtype);
        printf("  %6" PRIu64 ": %s at %" PRIu64 "\n", i + 1, value, s[i].pos);
    }
    free(s);
    return 0;
}

static void print_json(const run_cfg *c, const drtopk_problem *p, const drtopk_plan *plan,
                       const run_result *r, const double *reps_ms)
{
    FILE *f = stdout;
    fputs("{\"command\": \"run\", \"git_commit\": ", f);
    json_string(f, DRTOPK_GIT_COMMIT);
    fprintf(f, ", \"backend\": \"%s\", \"backend_reason\": ",
            p->backend == DRTOPK_BACKEND_CUDA ? "cuda" : "cpu");
    json_string(f, r->backend_reason);
    if (p->backend == DRTOPK_BACKEND_CUDA) {
        fprintf(f, ", \"gpu\": {\"index\": %d, \"name\": ", c->gpu);
        json_string(f, r->dev.name);
        fprintf(f, ", \"uuid\": ");
        json_string(f, r->dev.uuid);
        fprintf(f, ", \"cc\": \"%d.%d\", \"sm_count\": %d, \"mem_bytes\": %" PRIu64
                ", \"driver_version\": %d, \"runtime_version\": %d}",
                r->dev.cc_major, r->dev.cc_minor, r->dev.sm_count, r->dev.mem_bytes,
                r->dev.driver_version, r->dev.runtime_version);
    } else {
        fputs(", \"gpu\": null", f);
    }
    fprintf(f, ", \"n\": %" PRIu64 ", \"k\": %" PRIu64 ", \"dtype\": \"%s\", \"order\": \"%s\"",
            p->n, p->k, drtopk_dtype_name(p->dtype), order_names[p->order]);
    if (c->input) {
        fputs(", \"input\": ", f);
        json_string(f, c->input);
        fputs(", \"dist\": null, \"seed\": null", f);
    } else {
        fprintf(f, ", \"input\": null, \"dist\": \"%s\", \"seed\": %" PRIu64, dh_dist_name(c->dist), c->seed);
    }
    fprintf(f, ", \"algo\": \"%s%s\"", (plan->flags & DRTOPK_DELEGATE) ? "dr-" : "",
            drtopk_algo_name(plan->second_algo));
    fprintf(f, ", \"plan\": {\"delegate\": %s, \"alpha\": %d, \"alpha_source\": \"%s\", \"beta\": %d, "
            "\"first_algo\": \"%s\", \"second_algo\": \"%s\", \"filter\": %s, \"shared_delegate\": %s, "
            "\"skip_last_digit\": %s, \"sorted\": %s, \"deterministic\": %s, \"rule4_const\": %g, "
            "\"const_source\": \"%s\"",
            json_bool(plan->flags & DRTOPK_DELEGATE), plan->alpha, c->have_alpha ? "user" : "rule4",
            plan->beta, drtopk_algo_name(plan->first_algo), drtopk_algo_name(plan->second_algo),
            json_bool(plan->flags & DRTOPK_FILTER), json_bool(plan->flags & DRTOPK_SHARED_DELEGATE),
            json_bool(plan->flags & DRTOPK_SKIP_LAST_DIGIT), json_bool(plan->flags & DRTOPK_SORTED),
            json_bool(plan->flags & DRTOPK_DETERMINISTIC), plan->rule4_const, const_source_keys[plan->const_source]);
    fputs(", \"tuning_db\": ", f);
    if (plan->const_source == DRTOPK_CONST_TUNING) json_string(f, r->tuning_db);
    else fputs("null", f);
    fprintf(f, "}, \"workspace_bytes\": %zu, \"warmup\": %d, \"timing\": \"%s\", \"unprimed\": %d, \"reps\": ",
            r->ws_bytes, c->warmup, dh_timing_name(c->timing), r->unprimed);
    json_numbers(f, reps_ms, c->reps);
    fputs(", \"ms_median\": ", f);
    json_number_or_null(f, r->ms_median);
    fputs(", \"ms_min\": ", f);
    json_number_or_null(f, r->ms_min);
    fputs(", \"ms_max\": ", f);
    json_number_or_null(f, r->ms_max);
    fputs(", \"stage_ms_median\": {", f);
    for (int s = 0; s < STAGES; ++s) {
        fprintf(f, "%s\"%s\": ", s ? ", " : "", stage_names[s]);
        json_number_or_null(f, r->stage_median[s]);
    }
    fprintf(f, "}, \"delegate_len\": %" PRIu64 ", \"first_selected\": %" PRIu64 ", \"concat_len\": %" PRIu64
            ", \"scanned_subranges\": %" PRIu64 ", \"read_gbps\": ", r->last.delegate_len,
            r->last.first_selected, r->last.concat_len, r->last.scanned_subranges);
    json_number_or_null(f, r->gbps);
    fputs(", \"read_floor_ms\": ", f);
    if (p->backend == DRTOPK_BACKEND_CUDA) json_number_or_null(f, r->read_floor_ms);
    else fputs("null", f);
    fputs(", \"launch_floor_ms\": ", f);
    if (p->backend == DRTOPK_BACKEND_CUDA) json_number_or_null(f, r->launch_floor_ms);
    else fputs("null", f);
    fputs(", \"output\": ", f);
    if (c->output) json_string(f, c->output);
    else fputs("null", f);
    fputs(", \"verify\": ", f);
    if (r->verified < 0) fputs("null", f);
    else if (r->verified) fputs("\"PASS\"", f);
    else fputs("\"FAIL\"", f);
    fputs(", \"verify_reason\": ", f);
    json_string(f, r->verified == 0 ? r->why : "");
    fputs("}\n", f);
}

static int place_data(const run_cfg *c, const drtopk_problem *p, run_mem *m, const void **values, int quiet)
{
    const size_t bytes = (size_t)p->n * drtopk_dtype_size(p->dtype);
    drtopk_status st;
    int need_host = p->backend == DRTOPK_BACKEND_CPU || c->verify;
    if (!m->host_v && need_host) {
        int rc = host_room(bytes, "V");
        if (rc != 0) return rc;
        if ((m->host_v = malloc(bytes)) == NULL)
            return runtime_error("out of host memory for V (%zu bytes)", bytes);
        if (p->n >= PROGRESS_MIN_N) progress(quiet, "generating %" PRIu64 " elements on the host", p->n);
        dh_gen_host(m->host_v, p->n, c->dist, p->dtype, c->seed);
    }
    if (p->backend == DRTOPK_BACKEND_CPU) {
        *values = m->host_v;
        return 0;
    }
    if ((st = dh_dev_alloc(&m->dev_v, bytes)) != DRTOPK_OK)
        return runtime_error("cannot allocate V on the GPU (%zu bytes): %s", bytes, drtopk_status_string(st));
    if (c->input)
        st = dh_dev_copy(m->dev_v, m->host_v, bytes, DRTOPK_COPY_H2D);
    else
        st = dh_dev_generate(m->dev_v, p->n, c->dist, p->dtype, c->seed, NULL);
    if (st == DRTOPK_OK) st = dh_dev_sync();
    if (st != DRTOPK_OK) return runtime_error("cannot place V on the GPU: %s", drtopk_status_string(st));
    *values = m->dev_v;
    return 0;
}

static int alloc_outputs(const drtopk_problem *p, const drtopk_plan *plan, run_mem *m, run_result *r,
                         void **ws, void **d_vals, uint64_t **d_idx)
{
    const size_t vbytes = (size_t)p->k * drtopk_dtype_size(p->dtype), ibytes = (size_t)p->k * sizeof(uint64_t);
    drtopk_status st = drtopk_select_workspace(p, plan, &r->ws_bytes);
    if (st != DRTOPK_OK) return api_error("workspace query failed", st);
    const int rc = host_room(vbytes + ibytes + (p->backend == DRTOPK_BACKEND_CPU ? r->ws_bytes : 0),
                             "the result slots and workspace");
    if (rc != 0) return rc;
    m->vals = malloc(vbytes);
    m->idx = (uint64_t *)malloc(ibytes);
    if (!m->vals || !m->idx) return runtime_error("out of host memory for the result");
    if (p->backend == DRTOPK_BACKEND_CPU) {
        if (r->ws_bytes && (m->host_ws = malloc(r->ws_bytes)) == NULL)
            return runtime_error("out of host memory for the workspace (%zu bytes)", r->ws_bytes);
        *ws = m->host_ws;
        *d_vals = m->vals;
        *d_idx = m->idx;
        return 0;
    }
    if (r->ws_bytes && (st = dh_dev_alloc(&m->dev_ws, r->ws_bytes)) != DRTOPK_OK)
        return runtime_error("cannot allocate the workspace on the GPU (%zu bytes): %s", r->ws_bytes,
                             drtopk_status_string(st));
    if ((st = dh_dev_alloc(&m->dev_vals, vbytes)) != DRTOPK_OK ||
        (st = dh_dev_alloc(&m->dev_idx, ibytes)) != DRTOPK_OK)
        return runtime_error("cannot allocate the result on the GPU: %s", drtopk_status_string(st));
    *ws = m->dev_ws;
    *d_vals = m->dev_vals;
    *d_idx = (uint64_t *)m->dev_idx;
    return 0;
}

/* Repetition i's time: the call's drtopk_stats (--timing call, with the
 * stage times), or its GPU time with the stream held until it is enqueued
 * (--timing gpu: stats would synchronise inside the call; stage times NaN). */
static drtopk_status time_one(const run_cfg *c, const drtopk_problem *p, const drtopk_plan *plan, run_mem *m,
                              run_result *r, void *ws, void *d_vals, uint64_t *d_idx, int i)
{
    if (c->timing == DRTOPK_TIMING_CALL) {
        const drtopk_status st = drtopk_select(p, plan, ws, r->ws_bytes, d_vals, d_idx, NULL, &r->last);
        if (st != DRTOPK_OK) return st;
        m->ms[i] = r->last.ms_total;
        m->ms_stage[0][i] = r->last.ms_delegate;
        m->ms_stage[1][i] = r->last.ms_first;
        m->ms_stage[2][i] = r->last.ms_concat;
        m->ms_stage[3][i] = r->last.ms_second;
        return DRTOPK_OK;
    }
    int primed = 1;
    const drtopk_status st = dh_select_held(p, plan, ws, r->ws_bytes, d_vals, d_idx, &m->ms[i], NULL, &primed);
    r->unprimed += !primed;
    for (int s = 0; s < STAGES; ++s) m->ms_stage[s][i] = NAN;
    return st;
}

static int time_runs(const run_cfg *c, const drtopk_problem *p, const drtopk_plan *plan, run_mem *m,
                     run_result *r, void *ws, void *d_vals, uint64_t *d_idx)
{
    drtopk_status st;
    double *all = NULL;
    m->ms = (double *)calloc((size_t)c->reps, sizeof(double));
    all = (double *)calloc((size_t)c->reps, sizeof(double));
    int oom = !m->ms || !all;
    for (int s = 0; s < STAGES; ++s) {
        m->ms_stage[s] = (double *)calloc((size_t)c->reps, sizeof(double));
        oom |= !m->ms_stage[s];
    }
    if (oom) {
        free(all);
        return runtime_error("out of host memory for timings");
    }
    for (int w = 0; w < c->warmup; ++w) {
        st = drtopk_select(p, plan, ws, r->ws_bytes, d_vals, d_idx, NULL, NULL);
        if (st == DRTOPK_OK && p->backend == DRTOPK_BACKEND_CUDA) st = dh_dev_sync();
        if (st != DRTOPK_OK) {
            free(all);
            return api_error("drtopk_select failed", st);
        }
    }
    for (int i = 0; i < c->reps; ++i) {
        if ((st = time_one(c, p, plan, m, r, ws, d_vals, d_idx, i)) != DRTOPK_OK) {
            free(all);
            return api_error("drtopk_select failed", st);
        }
        all[i] = m->ms[i];
    }
    /* --timing gpu: the workload counters from one more call, untimed */
    if (c->timing == DRTOPK_TIMING_GPU &&
        ((st = drtopk_select(p, plan, ws, r->ws_bytes, d_vals, d_idx, NULL, &r->last)) != DRTOPK_OK ||
         (st = dh_dev_sync()) != DRTOPK_OK)) {
        free(all);
        return api_error("drtopk_select failed", st);
    }
    r->ms_min = r->ms_max = all[0];
    for (int i = 1; i < c->reps; ++i) {
        if (all[i] < r->ms_min) r->ms_min = all[i];
        if (all[i] > r->ms_max) r->ms_max = all[i];
    }
    r->ms_median = dh_median(all, (size_t)c->reps);
    free(all);
    for (int s = 0; s < STAGES; ++s) r->stage_median[s] = dh_median(m->ms_stage[s], (size_t)c->reps);
    /* reads V once: n * elem bytes over the whole call */
    r->gbps = r->ms_median > 0
        ? (double)p->n * drtopk_dtype_size(p->dtype) / (r->ms_median / MS_PER_S) / BYTES_PER_GB
        : NAN;
    return 0;
}

static int cmd_run(int argc, char **argv)
{
    run_cfg c;
    run_mem m;
    run_result r;
    drtopk_problem p;
    drtopk_plan plan;
    void *ws = NULL, *d_vals = NULL;
    uint64_t *d_idx = NULL;
    int rc;
    const int cuda_ok = dh_cuda_available();

    memset(&c, 0, sizeof c);
    memset(&m, 0, sizeof m);
    memset(&r, 0, sizeof r);
    c.seed = DEFAULT_SEED;
    c.dist = DRTOPK_DIST_UD;
    c.dtype = DRTOPK_U32;
    c.order = DRTOPK_LARGEST;
    c.algo = DRTOPK_ALGO_RADIX;
    c.delegate = 1;
    r.verified = -1;

    if ((rc = parse_options("run", run_specs, argc, argv, run_option, &c)) != 0) return rc;
    if (c.help) {
        fputs(help_run, stdout);
        fputs(run_help_options, stdout);
        return 0;
    }
    if (!c.have_k) return usage_error("missing --k (the number of elements to select)");
    if (c.json && c.show > 0)
        return usage_error("--show prints text: drop --json, or use --output PREFIX for the whole result");
    if (c.have_backend && c.backend == DRTOPK_BACKEND_CUDA && !cuda_ok)
        return usage_error("--backend cuda: no usable CUDA GPU (this build has no CUDA backend or no GPU is "
                           "visible); use --backend cpu");
    if (!c.have_backend) c.backend = cuda_ok ? DRTOPK_BACKEND_CUDA : DRTOPK_BACKEND_CPU;
    r.backend_reason = c.have_backend ? "--backend" : cuda_ok ? "default: a CUDA GPU is available"
                                                              : "default: no CUDA GPU available";
    if (c.have_gpu && c.backend == DRTOPK_BACKEND_CPU)
        return usage_error(c.have_backend ? "--gpu applies only to --backend cuda"
                                          : "--gpu %d: no usable CUDA GPU (this build has no CUDA backend or no "
                                            "GPU is visible)", c.gpu);
    if (!c.have_reps) c.reps = c.backend == DRTOPK_BACKEND_CUDA ? DEFAULT_REPS_CUDA : DEFAULT_REPS_CPU;
    if (!c.have_warmup) c.warmup = c.backend == DRTOPK_BACKEND_CUDA ? DEFAULT_WARMUP_CUDA : DEFAULT_WARMUP_CPU;
    if (c.backend == DRTOPK_BACKEND_CPU && c.have_timing && c.timing == DRTOPK_TIMING_GPU)
        return usage_error("--timing gpu needs --backend cuda; the CPU backend times the call (--timing call)");
    if (!c.have_timing) c.timing = DRTOPK_TIMING_CALL;

    if ((rc = resolve_inputs(&c, &m.host_v)) != 0) goto done;
    p.backend = c.backend;
    p.dtype = c.dtype;
    p.order = c.order;
    p.n = c.n;
    p.k = c.k;
    p.values = NULL;

    if (c.backend == DRTOPK_BACKEND_CUDA) {
        drtopk_status st = dh_dev_select(c.gpu);
        if (st != DRTOPK_OK) {
            rc = usage_error("--gpu %d: cannot use this GPU: %s", c.gpu, drtopk_status_string(st));
            goto done;
        }
        m.cuda_selected = 1;
        if ((st = dh_dev_info(c.gpu, &r.dev)) != DRTOPK_OK) {
            rc = runtime_error("cannot query GPU %d: %s", c.gpu, drtopk_status_string(st));
            goto done;
        }
    }
    if ((rc = build_plan(&c, &p, &r.dev, &r.tuning_db, &plan)) != 0) goto done;
    if ((rc = place_data(&c, &p, &m, &p.values, c.json)) != 0) goto done;
    if ((rc = alloc_outputs(&p, &plan, &m, &r, &ws, &d_vals, &d_idx)) != 0) goto done;
    if (c.backend == DRTOPK_BACKEND_CPU && p.n >= PROGRESS_MIN_N)
        progress(c.json, "running %d warm-up + %d timed selections on the CPU (%s)", c.warmup, c.reps,
                 (plan.flags & DRTOPK_DELEGATE) ? "the paper's pipeline: minutes at 2^28 keys; the default "
                                                  "plan takes seconds" : "threaded radix select");
    if ((rc = time_runs(&c, &p, &plan, &m, &r, ws, d_vals, d_idx)) != 0) goto done;

    if (c.backend == DRTOPK_BACKEND_CUDA) {
        drtopk_status st = dh_dev_copy(m.vals, m.dev_vals, (size_t)p.k * drtopk_dtype_size(p.dtype),
                                       DRTOPK_COPY_D2H);
        if (st == DRTOPK_OK)
            st = dh_dev_copy(m.idx, m.dev_idx, (size_t)p.k * sizeof(uint64_t), DRTOPK_COPY_D2H);
        if (st != DRTOPK_OK) {
            rc = runtime_error("cannot read the result back from the GPU: %s", drtopk_status_string(st));
            goto done;
        }
        st = dh_dev_read_ms(m.dev_v, p.n * drtopk_dtype_size(p.dtype), READ_FLOOR_REPS, &r.read_floor_ms);
        if (st != DRTOPK_OK) {
            rc = runtime_error("cannot measure the read floor of V on the GPU: %s", drtopk_status_string(st));
            goto done;
        }
        st = dh_dev_launch_ms(LAUNCH_FLOOR_REPS, &r.launch_floor_ms);
        if (st != DRTOPK_OK) {
            rc = runtime_error("cannot measure the launch floor on the GPU: %s", drtopk_status_string(st));
            goto done;
        }
    }
    if (c.verify) {
        drtopk_problem hp = p;
        dh_check_result cr;
        hp.backend = DRTOPK_BACKEND_CPU;
        hp.values = m.host_v;
        if (p.n >= PROGRESS_MIN_N) progress(c.json, "verifying on the host");
        cr = dh_check(&hp, m.vals, m.idx, NULL);
        r.verified = cr.ok;
        snprintf(r.why, sizeof r.why, "%s", cr.why);
        if (cr.ok && (plan.flags & DRTOPK_SORTED)) r.verified = check_sorted(&hp, m.vals, r.why, sizeof r.why);
    }
    if (c.output && (rc = write_outputs(c.output, &p, m.vals, m.idx)) != 0) goto done;

    if (c.json) print_json(&c, &p, &plan, &r, m.ms);
    else print_text(&c, &p, &plan, &r);
    if (!c.json && c.show > 0 && (rc = print_shown(&c, &p, &m)) != 0) goto done;
    if (r.verified == 0) {
        fprintf(stderr, "drtopk: verification FAILED: %s\n", r.why);
        rc = EXIT_VERIFY;
    }
done:
    run_mem_free(&m);
    return rc;
}

/* ---- drtopk gen ---------------------------------------------------------- */

enum { G_N, G_DIST, G_SEED, G_DTYPE, G_OUT, G_HELP };

static const opt_spec gen_specs[] = {
    { "n", G_N, 1 }, { "dist", G_DIST, 1 }, { "seed", G_SEED, 1 }, { "dtype", G_DTYPE, 1 },
    { "out", G_OUT, 1 }, { "help", G_HELP, 0 }, { NULL, 0, 0 }
};

typedef struct {
    uint64_t n, seed;
    int have_n, have_dtype, help;
    dh_dist dist;
    drtopk_dtype dtype;
    const char *out;
} gen_cfg;

static int gen_option(void *ctx, int id, const char *opt, const char *val)
{
    gen_cfg *g = (gen_cfg *)ctx;
    switch (id) {
    case G_N: g->have_n = 1; return parse_size(opt, val, &g->n);
    case G_SEED: return parse_size(opt, val, &g->seed);
    case G_DIST: return parse_dist(val, &g->dist);
    case G_DTYPE: g->have_dtype = 1; return parse_dtype(val, &g->dtype);
    case G_OUT: g->out = val; return 0;
    case G_HELP: g->help = 1; return 0;
    default: return usage_error("internal: unhandled option --%s", opt);
    }
}

static int cmd_gen(int argc, char **argv)
{
    gen_cfg g;
    drtopk_dtype t;
    void *buf;
    int rc;
    memset(&g, 0, sizeof g);
    g.seed = DEFAULT_SEED;
    g.dist = DRTOPK_DIST_UD;
    if ((rc = parse_options("gen", gen_specs, argc, argv, gen_option, &g)) != 0) return rc;
    if (g.help) {
        fputs(help_gen, stdout);
        return 0;
    }
    if (!g.have_n) return usage_error("missing --n (the number of elements)");
    if (g.n == 0) return usage_error("--n is 0: the vector must not be empty");
    if (!g.out) return usage_error("missing --out FILE");
    if (dh_dtype_from_path(g.out, &t) != DRTOPK_OK)
        return usage_error("--out %s: the file name must end in .u32 .i32 .f32 .f16 .bf16 .u64 .i64 or .f64 "
                           "(its element type)", g.out);
    if (g.have_dtype && g.dtype != t)
        return usage_error("--dtype %s conflicts with --out %s (its extension says %s)", drtopk_dtype_name(g.dtype), g.out,
                           drtopk_dtype_name(t));
    if (g.n > SIZE_MAX / sizeof(uint64_t))
        return usage_error("--n %" PRIu64 " does not fit in this machine's address space", g.n);
    if ((rc = host_room(g.n * drtopk_dtype_size(t), "the vector")) != 0) return rc;
    if ((buf = malloc((size_t)g.n * drtopk_dtype_size(t))) == NULL)
        return runtime_error("out of host memory for %" PRIu64 " elements", g.n);
    if (g.n >= PROGRESS_MIN_N) progress(0, "generating %" PRIu64 " elements", g.n);
    dh_gen_host(buf, g.n, g.dist, t, g.seed);
    const size_t size = drtopk_dtype_size(t);
    const void *const data[] = { buf };
    rc = write_files("--out", 1, &g.out, data, &size, g.n);
    free(buf);
    return rc;
}

/* ---- main ---------------------------------------------------------------- */

static int cmd_version(int argc, char **argv)
{
    if (argc > 0) return usage_error("'drtopk version' takes no arguments");
    printf("drtopk %d.%d (git %s), CUDA GPU usable: %s\n", DRTOPK_VERSION_MAJOR, DRTOPK_VERSION_MINOR,
           DRTOPK_GIT_COMMIT, dh_cuda_available() ? "yes" : "no");
    return 0;
}

static int cmd_help(int argc, char **argv)
{
    if (argc == 0) fputs(help_main, stdout);
    else if (argc > 1) return usage_error("'drtopk help' takes at most one command name");
    else if (strcmp(argv[0], "run") == 0) printf("%s%s", help_run, run_help_options);
    else if (strcmp(argv[0], "gen") == 0) fputs(help_gen, stdout);
    else if (strcmp(argv[0], "dataset") == 0) fputs(help_dataset, stdout);
    else if (strcmp(argv[0], "batch") == 0) fputs(help_batch, stdout);
    else if (strcmp(argv[0], "version") == 0 || strcmp(argv[0], "help") == 0) fputs(help_main, stdout);
    else return usage_error("no help for unknown command '%s' (commands: run gen dataset batch version help)", argv[0]);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(help_main, stderr);
        return usage_error("missing command");
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2);
    if (strcmp(cmd, "gen") == 0) return cmd_gen(argc - 2, argv + 2);
    if (strcmp(cmd, "dataset") == 0) return cmd_dataset(argc - 2, argv + 2);
    if (strcmp(cmd, "batch") == 0) return cmd_batch(argc - 2, argv + 2);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) return cmd_version(argc - 2, argv + 2);
    if (strcmp(cmd, "help") == 0) return cmd_help(argc - 2, argv + 2);
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) return cmd_help(0, NULL);
    return usage_error("unknown command '%s' (commands: run gen dataset batch version help)", cmd);
}
