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
#include "device.h"
#include "gen.h"
#include "keyorder.h"
#include "oracle.h"
#include "store.h"
#include "util.h"
#include "version.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPS_MAX 100000           /* guards against a typo turning into hours of runs */
#define GPU_INDEX_MAX 1023        /* more GPUs than any host has */
#define DEFAULT_REPS_CUDA 7       /* DESIGN.md: median of >= 5 runs; issue 3 asks >= 7 */
#define DEFAULT_REPS_CPU 1        /* the CPU reference is for correctness, not speed */
#define DEFAULT_WARMUP_CUDA 1     /* first call pays module load and page mapping */
#define DEFAULT_WARMUP_CPU 0
#define DEFAULT_SEED 1
#define READ_FLOOR_REPS 5         /* repetitions of the streaming-read measurement */
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
};
static const char *const const_source_keys[] = {
    [DRTOPK_CONST_DEFAULT] = "default",
    [DRTOPK_CONST_USER] = "user",
    [DRTOPK_CONST_TUNING] = "database",
    [DRTOPK_CONST_BUILTIN] = "builtin",
};

/* ---- messages ----------------------------------------------------------- */

/* One error line on stderr; returns the exit code. */
static int verror(int code, const char *fmt, va_list ap)
{
    fputs("drtopk: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    return code;
}

int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int code = verror(EXIT_USAGE, fmt, ap);
    va_end(ap);
    return code;
}

int runtime_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int code = verror(EXIT_RUNTIME, fmt, ap);
    va_end(ap);
    return code;
}

/* A library call that failed: its status and, when it left one, its message. */
static int api_error(const char *what, drtopk_status st)
{
    const char *msg = drtopk_last_error();
    return runtime_error("%s: %s%s%s", what, drtopk_status_string(st), *msg ? ": " : "", msg);
}

static void progress(int quiet, const char *fmt, ...)
{
    va_list ap;
    if (quiet) return;
    fputs("drtopk: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static const char help_main[] =
    "drtopk -- exact top-k with Dr. Top-k (delegate-centric top-k, SC'21)\n"
    "\n"
    "usage: drtopk <command> [options]\n"
    "\n"
    "commands:\n"
    "  run      select the top k of a seeded vector or a raw file; time, verify, write\n"
    "  gen      write a seeded vector to a raw file\n"
    "  dataset  turn real data (k-NN vectors, graphs, CSV scores) into a raw file\n"
    "  version  print the version, the git commit and whether a CUDA GPU is usable\n"
    "  help     this text; `drtopk help run` / `drtopk run --help` for a command\n"
    "\n"
    "exit codes: 0 success, 1 runtime failure, 2 bad arguments, 3 verification failed\n";

static const char help_run[] =
    "usage: drtopk run --n N --k K [options]\n"
    "       drtopk run --input FILE.{u32,i32,f32,f16,bf16,u64,i64,f64} --k K [options]\n"
    "\n"
    "Sizes are plain numbers, 2^p or 2^p+q.  Options take `--opt VALUE` or `--opt=VALUE`.\n"
    "\n"
    "data:\n"
    "  --n N              |V|, number of elements (required unless --input)\n"
    "  --k K              number of elements to select, 1 <= K <= N (required)\n"
    "  --dist D           UD ND CD ASC DESC FEW EQ SPECIAL (default UD)\n"
    "  --seed S           generator seed (default 1)\n"
    "  --dtype T          u32 i32 f32 f16 bf16 u64 i64 f64 (default u32; f16/bf16 are\n"
    "                     IEEE half / bfloat16 bit patterns)\n"
    "  --input FILE       raw little-endian vector; dtype from the extension, N from the size\n"
    "  --smallest         select the k smallest (default: largest)\n"
    "algorithm:\n"
    "  --algo A           radix radix-ggks radix-ggks-oop bucket bucket-oop bitonic sort-cub\n"
    "                     sort-thrust standalone, or dr-<A>: the delegate pipeline with A as\n"
    "                     first and second top-k (default dr-radix)\n"
    "  --const C          Rule 4 constant: alpha = (C + log2 N - log2 K) / 2 (default: the\n"
    "                     const, beta and algorithm tuned for this GPU in $DRTOPK_DB or\n"
    "                     db/results.sqlite, else the library's table for it, else 3)\n"
    "  --alpha A          subrange size 2^A, overrides Rule 4 (1..24)\n"
    "  --beta B           delegates per subrange (1..8, default 2)\n"
    "  --no-filter        copy whole qualified subranges (Rule 2 off)\n"
    "  --no-skip-last-digit   first top-k runs every radix digit\n"
    "  --no-shared-delegate   never use the shared-memory delegate build (paper 5.3)\n"
    "  --sorted           results ordered best first\n"
    "execution:\n"
    "  --backend B        cuda or cpu (default cuda when a GPU is usable, else cpu)\n"
    "  --gpu G            GPU index (default 0)\n"
    "  --reps R           timed repetitions (default 7 on cuda, 1 on cpu)\n"
    "  --warmup W         untimed runs first (default 1 on cuda, 0 on cpu)\n"
    "output:\n"
    "  --verify           check the result on the host (exact counting check); exit 3 on FAIL\n"
    "  --json             one JSON object on stdout instead of text\n"
    "  --output PREFIX    write PREFIX.values (K elements of the dtype) and PREFIX.indices\n"
    "                     (K uint64 positions in V), little-endian raw\n";

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

/* ---- option parsing ------------------------------------------------------ */

/* Walks argv (after the subcommand): every argument must be a known --option,
 * its value the next argument or after '='.  The handler returns an exit
 * code; parsing stops at the first non-zero one. */
int parse_options(const char *cmd, const opt_spec *specs, int argc, char **argv, opt_handler handle, void *ctx)
{
    for (int i = 0; i < argc; ++i) {
        const char *arg = argv[i], *val = NULL;
        char name[64];
        const opt_spec *s = NULL;
        size_t len;
        if (strcmp(arg, "-h") == 0) arg = "--help";
        if (strncmp(arg, "--", 2) != 0)
            return usage_error("unexpected argument '%s' to 'drtopk %s' (options start with --)", arg, cmd);
        const char *eq = strchr(arg + 2, '=');
        len = eq ? (size_t)(eq - (arg + 2)) : strlen(arg + 2);
        if (len >= sizeof name) return usage_error("unknown option '%s' for 'drtopk %s'", arg, cmd);
        memcpy(name, arg + 2, len);
        name[len] = '\0';
        for (const opt_spec *t = specs; t->name; ++t)
            if (strcmp(t->name, name) == 0) s = t;
        if (s == NULL)
            return usage_error("unknown option '--%s' for 'drtopk %s' (see drtopk help %s)", name, cmd, cmd);
        if (s->takes_value) {
            if (eq) {
                val = eq + 1;
            } else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
                val = argv[++i];
            }
            if (val == NULL || val[0] == '\0') return usage_error("option --%s needs a value", name);
        } else if (eq) {
            return usage_error("option --%s takes no value", name);
        }
        int rc = handle(ctx, s->id, s->name, val);
        if (rc != 0) return rc;
    }
    return 0;
}

int parse_size(const char *opt, const char *val, uint64_t *out)
{
    if (drtopk_parse_u64(val, out) != 0)
        return usage_error("--%s: '%s' is not a number (use e.g. 1000003, 2^30 or 2^30+17)", opt, val);
    return 0;
}

static int parse_int_range(const char *opt, const char *val, int lo, int hi, int *out)
{
    uint64_t v;
    if (drtopk_parse_u64(val, &v) != 0)
        return usage_error("--%s: '%s' is not a non-negative integer", opt, val);
    if (v < (uint64_t)lo || v > (uint64_t)hi)
        return usage_error("--%s %s is out of range %d..%d", opt, val, lo, hi);
    *out = (int)v;
    return 0;
}

static int parse_dist(const char *val, drtopk_dist *out)
{
    if (drtopk_dist_parse(val, out) != DRTOPK_OK)
        return usage_error("--dist: unknown distribution '%s' (UD ND CD ASC DESC FEW EQ SPECIAL)", val);
    return 0;
}

static int parse_dtype(const char *val, drtopk_dtype *out)
{
    if (drtopk_dtype_parse(val, out) != DRTOPK_OK)
        return usage_error("--dtype: unknown type '%s' (u32 i32 f32 f16 bf16 u64 i64 f64)", val);
    return 0;
}

/* ---- small output helpers ------------------------------------------------ */

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)s; *c; ++c) {
        if (*c == '"' || *c == '\\') fprintf(f, "\\%c", *c);
        else if (*c < 0x20) fprintf(f, "\\u%04x", *c);
        else fputc(*c, f);
    }
    fputc('"', f);
}

static void json_number_or_null(FILE *f, double x)
{
    if (isfinite(x)) fprintf(f, "%.6f", x);
    else fputs("null", f);
}

static const char *on_off(unsigned flags, unsigned bit)
{
    return (flags & bit) ? "on" : "off";
}

static const char *json_bool(int b) { return b ? "true" : "false"; }

/* "1073741824 (2^30)" for powers of two, else the plain number. */
static void size_text(char *buf, size_t len, uint64_t x)
{
    if (x && (x & (x - 1)) == 0)
        snprintf(buf, len, "%" PRIu64 " (2^%d)", x, drtopk_ilog2_floor(x));
    else
        snprintf(buf, len, "%" PRIu64, x);
}

/* ---- drtopk run ---------------------------------------------------------- */

enum {
    R_N, R_K, R_DIST, R_SEED, R_DTYPE, R_ALGO, R_ALPHA, R_BETA, R_CONST, R_SMALLEST, R_BACKEND,
    R_GPU, R_REPS, R_WARMUP, R_VERIFY, R_JSON, R_OUTPUT, R_INPUT, R_SORTED, R_NO_FILTER,
    R_NO_SKIP, R_NO_SHARED, R_HELP
};

static const opt_spec run_specs[] = {
    { "n", R_N, 1 }, { "k", R_K, 1 }, { "dist", R_DIST, 1 }, { "seed", R_SEED, 1 },
    { "dtype", R_DTYPE, 1 }, { "algo", R_ALGO, 1 }, { "alpha", R_ALPHA, 1 }, { "beta", R_BETA, 1 },
    { "const", R_CONST, 1 }, { "smallest", R_SMALLEST, 0 }, { "backend", R_BACKEND, 1 },
    { "gpu", R_GPU, 1 }, { "reps", R_REPS, 1 }, { "warmup", R_WARMUP, 1 },
    { "verify", R_VERIFY, 0 }, { "json", R_JSON, 0 }, { "output", R_OUTPUT, 1 },
    { "input", R_INPUT, 1 }, { "sorted", R_SORTED, 0 }, { "no-filter", R_NO_FILTER, 0 },
    { "no-skip-last-digit", R_NO_SKIP, 0 }, { "no-shared-delegate", R_NO_SHARED, 0 },
    { "help", R_HELP, 0 }, { NULL, 0, 0 }
};

typedef struct {
    uint64_t n, k, seed;
    int have_n, have_k, have_seed, have_dist, have_dtype;
    drtopk_dist dist;
    drtopk_dtype dtype;
    drtopk_order order;
    const char *algo_text;
    drtopk_algo algo;
    int delegate;
    int alpha, beta, have_alpha, have_beta, have_const;
    double rule4_const;
    int no_filter, no_skip, no_shared, sorted;
    int have_backend;
    drtopk_backend backend;
    int gpu, reps, warmup, have_reps, have_warmup, have_gpu;
    int verify, json, help;
    const char *output, *input;
} run_cfg;

static int run_option(void *ctx, int id, const char *opt, const char *val)
{
    run_cfg *c = (run_cfg *)ctx;
    char *end;
    switch (id) {
    case R_N: c->have_n = 1; return parse_size(opt, val, &c->n);
    case R_K: c->have_k = 1; return parse_size(opt, val, &c->k);
    case R_SEED: c->have_seed = 1; return parse_size(opt, val, &c->seed);
    case R_DIST: c->have_dist = 1; return parse_dist(val, &c->dist);
    case R_DTYPE: c->have_dtype = 1; return parse_dtype(val, &c->dtype);
    case R_ALGO:
        if (drtopk_algo_parse(val, &c->algo, &c->delegate) != DRTOPK_OK)
            return usage_error("--algo: unknown algorithm '%s' (radix radix-ggks radix-ggks-oop bucket "
                               "bucket-oop bitonic sort-cub sort-thrust, or dr-<algo>)", val);
        c->algo_text = val;
        return 0;
    case R_ALPHA: c->have_alpha = 1; return parse_int_range(opt, val, DRTOPK_ALPHA_MIN, DRTOPK_ALPHA_MAX, &c->alpha);
    case R_BETA: c->have_beta = 1; return parse_int_range(opt, val, 1, DRTOPK_BETA_MAX, &c->beta);
    case R_CONST:
        c->rule4_const = strtod(val, &end);
        if (*end != '\0' || end == val || !isfinite(c->rule4_const))
            return usage_error("--const: '%s' is not a finite number", val);
        c->have_const = 1;
        return 0;
    case R_SMALLEST: c->order = DRTOPK_SMALLEST; return 0;
    case R_BACKEND:
        if (strcmp(val, "cuda") == 0) c->backend = DRTOPK_BACKEND_CUDA;
        else if (strcmp(val, "cpu") == 0) c->backend = DRTOPK_BACKEND_CPU;
        else return usage_error("--backend: unknown backend '%s' (cuda or cpu)", val);
        c->have_backend = 1;
        return 0;
    case R_GPU: c->have_gpu = 1; return parse_int_range(opt, val, 0, GPU_INDEX_MAX, &c->gpu);
    case R_REPS: c->have_reps = 1; return parse_int_range(opt, val, 1, REPS_MAX, &c->reps);
    case R_WARMUP: c->have_warmup = 1; return parse_int_range(opt, val, 0, REPS_MAX, &c->warmup);
    case R_VERIFY: c->verify = 1; return 0;
    case R_JSON: c->json = 1; return 0;
    case R_OUTPUT: c->output = val; return 0;
    case R_INPUT: c->input = val; return 0;
    case R_SORTED: c->sorted = 1; return 0;
    case R_NO_FILTER: c->no_filter = 1; return 0;
    case R_NO_SKIP: c->no_skip = 1; return 0;
    case R_NO_SHARED: c->no_shared = 1; return 0;
    case R_HELP: c->help = 1; return 0;
    default: return usage_error("internal: unhandled option --%s", opt);
    }
}

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
        if (m->dev_v) drtopk_dev_free(m->dev_v);
        if (m->dev_ws) drtopk_dev_free(m->dev_ws);
        if (m->dev_vals) drtopk_dev_free(m->dev_vals);
        if (m->dev_idx) drtopk_dev_free(m->dev_idx);
    }
}

/* Result of the run, for the report. */
typedef struct {
    double ms_median, ms_min, ms_max, stage_median[STAGES], read_floor_ms, gbps;
    drtopk_stats last;
    size_t ws_bytes;
    int verified;               /* -1 not run, 0 FAIL, 1 PASS */
    char why[300];
    drtopk_device_info dev;
    const char *backend_reason;
    const char *tuning_db;      /* the database the plan's tuning came from */
} run_result;

static const char *const stage_names[STAGES] = { "delegate", "first", "concat", "second" };

/* --sorted promises best first: check it along with the top-k check. */
static int check_sorted(const drtopk_problem *p, const void *vals, char *why, size_t len)
{
    for (uint64_t i = 1; i < p->k; ++i) {
        if (drtopk_key_at(vals, i, p->dtype, p->order) > drtopk_key_at(vals, i - 1, p->dtype, p->order)) {
            snprintf(why, len, "--sorted result is not best first at position %" PRIu64, i);
            return 0;
        }
    }
    return 1;
}

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
               drtopk_dist_name(c->dist), c->seed);
    printf("select:    k = %s %s\n", kbuf, order_names[p->order]);
    if (plan->flags & DRTOPK_DELEGATE) {
        printf("plan:      dr-%s: alpha = %d (%s), beta = %d, first top-k %s, second top-k %s\n",
               drtopk_algo_name(plan->second_algo), plan->alpha,
               c->have_alpha ? "--alpha" : "Rule 4", plan->beta, drtopk_algo_name(plan->first_algo),
               drtopk_algo_name(plan->second_algo));
        printf("           filter %s, shared-memory delegates %s, skip last digit %s, sorted %s\n",
               on_off(plan->flags, DRTOPK_FILTER), on_off(plan->flags, DRTOPK_SHARED_DELEGATE),
               on_off(plan->flags, DRTOPK_SKIP_LAST_DIGIT), on_off(plan->flags, DRTOPK_SORTED));
        printf("           Rule 4 const = %g (%s%s%s)\n", plan->rule4_const, const_source_names[plan->const_source],
               plan->const_source == DRTOPK_CONST_TUNING ? " " : "",
               plan->const_source == DRTOPK_CONST_TUNING ? r->tuning_db : "");
    } else {
        printf("plan:      standalone %s, sorted %s\n", drtopk_algo_name(plan->second_algo),
               on_off(plan->flags, DRTOPK_SORTED));
    }
    printf("workspace: %zu bytes\n", r->ws_bytes);
    printf("time:      median %.4f ms, min %.4f, max %.4f (%d reps after %d warm-up)\n", r->ms_median,
           r->ms_min, r->ms_max, c->reps, c->warmup);
    printf("stages:    delegate %.4f ms, first top-k %.4f, concatenation %.4f, second top-k %.4f (medians)\n",
           r->stage_median[0], r->stage_median[1], r->stage_median[2], r->stage_median[3]);
    printf("workload:  delegate_len %" PRIu64 ", first_selected %" PRIu64 ", concat_len %" PRIu64
           ", scanned_subranges %" PRIu64 "\n", r->last.delegate_len, r->last.first_selected,
           r->last.concat_len, r->last.scanned_subranges);
    if (isfinite(r->gbps)) printf("bandwidth: %.2f GB/s reading V once", r->gbps);
    else printf("bandwidth: n/a (time too short to measure)");
    if (p->backend == DRTOPK_BACKEND_CUDA && r->read_floor_ms > 0)
        printf(" (a plain streaming read of V: %.4f ms, %.2f GB/s)", r->read_floor_ms,
               (double)p->n * drtopk_dtype_size(p->dtype) / (r->read_floor_ms / MS_PER_S) / BYTES_PER_GB);
    putchar('\n');
    if (c->output) printf("output:    %s.values, %s.indices\n", c->output, c->output);
    if (r->verified >= 0)
        printf("verify:    %s%s%s\n", r->verified ? "PASS" : "FAIL", r->verified ? "" : ": ", r->why);
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
        fprintf(f, ", \"input\": null, \"dist\": \"%s\", \"seed\": %" PRIu64, drtopk_dist_name(c->dist), c->seed);
    }
    fprintf(f, ", \"algo\": \"%s%s\"", (plan->flags & DRTOPK_DELEGATE) ? "dr-" : "",
            drtopk_algo_name(plan->second_algo));
    fprintf(f, ", \"plan\": {\"delegate\": %s, \"alpha\": %d, \"alpha_source\": \"%s\", \"beta\": %d, "
            "\"first_algo\": \"%s\", \"second_algo\": \"%s\", \"filter\": %s, \"shared_delegate\": %s, "
            "\"skip_last_digit\": %s, \"sorted\": %s, \"rule4_const\": %g, \"const_source\": \"%s\"",
            json_bool(plan->flags & DRTOPK_DELEGATE), plan->alpha, c->have_alpha ? "user" : "rule4",
            plan->beta, drtopk_algo_name(plan->first_algo), drtopk_algo_name(plan->second_algo),
            json_bool(plan->flags & DRTOPK_FILTER), json_bool(plan->flags & DRTOPK_SHARED_DELEGATE),
            json_bool(plan->flags & DRTOPK_SKIP_LAST_DIGIT), json_bool(plan->flags & DRTOPK_SORTED),
            plan->rule4_const, const_source_keys[plan->const_source]);
    fputs(", \"tuning_db\": ", f);
    if (plan->const_source == DRTOPK_CONST_TUNING) json_string(f, r->tuning_db);
    else fputs("null", f);
    fprintf(f, "}, \"workspace_bytes\": %zu, \"warmup\": %d, \"reps\": [", r->ws_bytes, c->warmup);
    for (int i = 0; i < c->reps; ++i) {
        if (i) fputs(", ", f);
        json_number_or_null(f, reps_ms[i]);
    }
    fputs("], \"ms_median\": ", f);
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

/* The tuning of the machine this run uses (the GPU's uuid and name, or this
 * host for the CPU backend) from the results store.  A database that exists
 * but cannot be read is a warning: the run goes on with the default plan. */
static void load_tuning(const drtopk_problem *p, run_result *r, drtopk_store_tuning *t)
{
    char err[DRTOPK_STORE_ERR_LEN];
    drtopk_store_machine host;
    const char *uuid = r->dev.uuid, *name = r->dev.name;
    if (p->backend == DRTOPK_BACKEND_CPU) {
        drtopk_store_cpu_machine(&host);
        uuid = host.uuid;
        name = host.name;
    }
    r->tuning_db = drtopk_store_default_path();
    if (drtopk_store_load_tuning(r->tuning_db, uuid, name, t, err, sizeof err) != DRTOPK_OK)
        fprintf(stderr, "drtopk: warning: cannot read the tuning database %s: %s; planning without it\n",
                r->tuning_db, err);
}

/* Applies the command line on top of drtopk_plan_auto (with this machine's
 * tuning) or drtopk_plan_rule4 (--const). */
static int build_plan(const run_cfg *c, const drtopk_problem *p, run_result *r, drtopk_plan *plan)
{
    drtopk_status st;
    if (c->have_const) {
        st = drtopk_plan_rule4(plan, p, c->rule4_const);
    } else {
        drtopk_store_tuning t;
        load_tuning(p, r, &t);
        st = drtopk_plan_auto(plan, p, &t.table);
        drtopk_store_tuning_free(&t);
    }
    if (st != DRTOPK_OK)
        return usage_error("cannot plan this problem: %s: %s", drtopk_status_string(st), drtopk_last_error());
    if (c->algo_text) {         /* --algo overrides the tuned algorithm */
        plan->first_algo = c->algo;
        plan->second_algo = c->algo;
    }
    if (!c->delegate) {
        plan->flags = 0;
    } else {
        if (c->have_alpha) {
            plan->alpha = c->alpha;
            plan->flags &= ~(unsigned)DRTOPK_SHARED_DELEGATE;
            if (c->alpha <= DRTOPK_SHARED_DELEGATE_MAX_ALPHA) plan->flags |= DRTOPK_SHARED_DELEGATE;
        }
        if (c->have_beta) plan->beta = c->beta;
        if (c->no_filter) plan->flags &= ~(unsigned)DRTOPK_FILTER;
        if (c->no_skip) plan->flags &= ~(unsigned)DRTOPK_SKIP_LAST_DIGIT;
        if (c->no_shared) plan->flags &= ~(unsigned)DRTOPK_SHARED_DELEGATE;
    }
    if (c->sorted) plan->flags |= DRTOPK_SORTED;
    st = drtopk_plan_check(plan, p);
    if (st != DRTOPK_OK) return usage_error("invalid plan: %s: %s", drtopk_status_string(st), drtopk_last_error());
    return 0;
}

/* Options that only make sense together, and the input file. */
static int resolve_inputs(run_cfg *c, run_mem *m)
{
    if (!c->delegate) {
        const char *bad = c->have_alpha ? "--alpha" : c->have_beta ? "--beta" : c->have_const ? "--const"
                        : c->no_filter ? "--no-filter" : c->no_skip ? "--no-skip-last-digit"
                        : c->no_shared ? "--no-shared-delegate" : NULL;
        if (bad) return usage_error("%s applies only to the delegate pipeline (--algo dr-%s), not to standalone %s",
                                    bad, drtopk_algo_name(c->algo), drtopk_algo_name(c->algo));
    }
    if (c->input) {
        drtopk_dtype t;
        uint64_t n;
        char err[512];
        drtopk_status st;
        if (c->have_dist || c->have_seed)
            return usage_error("--%s does not apply to --input data", c->have_dist ? "dist" : "seed");
        if (drtopk_dtype_from_path(c->input, &t) != DRTOPK_OK)
            return usage_error("--input %s: cannot tell the element type; name the file *.u32 *.i32 *.f32 *.f16 "
                               "*.bf16 *.u64 *.i64 or *.f64",
                               c->input);
        if (c->have_dtype && c->dtype != t)
            return usage_error("--dtype %s conflicts with --input %s (its extension says %s)", drtopk_dtype_name(c->dtype),
                               c->input, drtopk_dtype_name(t));
        if (drtopk_check_regular_file(c->input, err, sizeof err) != 0)   /* never opens a FIFO */
            return usage_error("--input: %s", err);
        st = drtopk_read_raw(c->input, drtopk_dtype_size(t), &m->host_v, &n, err, sizeof err);
        if (st == DRTOPK_ERR_OUT_OF_MEMORY) return runtime_error("--input: %s", err);
        if (st != DRTOPK_OK) return usage_error("--input: %s", err);
        if (c->have_n && c->n != n)
            return usage_error("--n %" PRIu64 " conflicts with --input %s, which holds %" PRIu64 " elements",
                               c->n, c->input, n);
        c->dtype = t;
        c->n = n;
    } else if (!c->have_n) {
        return usage_error("missing --n (the number of elements) or --input FILE");
    }
    if (c->n == 0) return usage_error("--n is 0: the input vector must not be empty");
    if (c->k == 0) return usage_error("--k is 0: select at least one element");
    if (c->k > c->n)
        return usage_error("--k %" PRIu64 " is larger than n = %" PRIu64 " (k must be at most n)", c->k, c->n);
    if (c->n > SIZE_MAX / sizeof(uint64_t))
        return usage_error("--n %" PRIu64 " does not fit in this machine's address space", c->n);
    return 0;
}

/* Puts V where the backend reads it; for --verify also keeps a host copy. */
static int place_data(const run_cfg *c, const drtopk_problem *p, run_mem *m, const void **values, int quiet)
{
    const size_t bytes = (size_t)p->n * drtopk_dtype_size(p->dtype);
    drtopk_status st;
    int need_host = p->backend == DRTOPK_BACKEND_CPU || c->verify;
    if (!m->host_v && need_host) {
        if ((m->host_v = malloc(bytes)) == NULL)
            return runtime_error("out of host memory for V (%zu bytes)", bytes);
        if (p->n >= PROGRESS_MIN_N) progress(quiet, "generating %" PRIu64 " elements on the host", p->n);
        drtopk_gen_host(m->host_v, p->n, c->dist, p->dtype, c->seed);
    }
    if (p->backend == DRTOPK_BACKEND_CPU) {
        *values = m->host_v;
        return 0;
    }
    if ((st = drtopk_dev_alloc(&m->dev_v, bytes)) != DRTOPK_OK)
        return runtime_error("cannot allocate V on the GPU (%zu bytes): %s", bytes, drtopk_status_string(st));
    if (c->input)
        st = drtopk_dev_copy(m->dev_v, m->host_v, bytes, DRTOPK_COPY_H2D);
    else
        st = drtopk_dev_generate(m->dev_v, p->n, c->dist, p->dtype, c->seed, NULL);
    if (st == DRTOPK_OK) st = drtopk_dev_sync();
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
    if (r->ws_bytes && (st = drtopk_dev_alloc(&m->dev_ws, r->ws_bytes)) != DRTOPK_OK)
        return runtime_error("cannot allocate the workspace on the GPU (%zu bytes): %s", r->ws_bytes,
                             drtopk_status_string(st));
    if ((st = drtopk_dev_alloc(&m->dev_vals, vbytes)) != DRTOPK_OK ||
        (st = drtopk_dev_alloc(&m->dev_idx, ibytes)) != DRTOPK_OK)
        return runtime_error("cannot allocate the result on the GPU: %s", drtopk_status_string(st));
    *ws = m->dev_ws;
    *d_vals = m->dev_vals;
    *d_idx = (uint64_t *)m->dev_idx;
    return 0;
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
        if (st == DRTOPK_OK && p->backend == DRTOPK_BACKEND_CUDA) st = drtopk_dev_sync();
        if (st != DRTOPK_OK) {
            free(all);
            return api_error("drtopk_select failed", st);
        }
    }
    for (int i = 0; i < c->reps; ++i) {
        st = drtopk_select(p, plan, ws, r->ws_bytes, d_vals, d_idx, NULL, &r->last);
        if (st != DRTOPK_OK) {
            free(all);
            return api_error("drtopk_select failed", st);
        }
        m->ms[i] = all[i] = r->last.ms_total;
        m->ms_stage[0][i] = r->last.ms_delegate;
        m->ms_stage[1][i] = r->last.ms_first;
        m->ms_stage[2][i] = r->last.ms_concat;
        m->ms_stage[3][i] = r->last.ms_second;
    }
    r->ms_min = r->ms_max = all[0];
    for (int i = 1; i < c->reps; ++i) {
        if (all[i] < r->ms_min) r->ms_min = all[i];
        if (all[i] > r->ms_max) r->ms_max = all[i];
    }
    r->ms_median = drtopk_median(all, (size_t)c->reps);
    free(all);
    for (int s = 0; s < STAGES; ++s) r->stage_median[s] = drtopk_median(m->ms_stage[s], (size_t)c->reps);
    /* reads V once: n * elem bytes over the whole call */
    r->gbps = r->ms_median > 0
        ? (double)p->n * drtopk_dtype_size(p->dtype) / (r->ms_median / MS_PER_S) / BYTES_PER_GB
        : NAN;
    return 0;
}

/* Write the raw arrays through temporary files, then rename them together:
 * either every file is complete or none is touched. */
static int write_files(const char *what, int count, const char *const *paths, const void *const *data,
                       const size_t *elem_size, uint64_t n)
{
    drtopk_outputs out = { 0 };
    char err[DRTOPK_PATH_MAX + 256];
    for (int i = 0; i < count; ++i) {
        const char *tmp;
        if (drtopk_outputs_add(&out, paths[i], &tmp, err, sizeof err) != 0) {
            drtopk_outputs_abort(&out);
            return runtime_error("%s: %s", what, err);
        }
        errno = 0;
        drtopk_status st = drtopk_write_raw(tmp, data[i], elem_size[i], n);
        if (st != DRTOPK_OK) {
            const int e = errno;
            drtopk_outputs_abort(&out);
            return runtime_error("%s: cannot write '%s': %s", what, paths[i],
                                 e ? strerror(e) : drtopk_status_string(st));
        }
    }
    if (drtopk_outputs_commit(&out, err, sizeof err) != 0) return runtime_error("%s: %s", what, err);
    return 0;
}

static int write_outputs(const char *prefix, const drtopk_problem *p, const run_mem *m)
{
    size_t len = strlen(prefix) + sizeof ".indices";
    char *vpath = (char *)malloc(len), *ipath = (char *)malloc(len);
    int rc;
    if (!vpath || !ipath) {
        rc = runtime_error("out of host memory");
    } else {
        snprintf(vpath, len, "%s.values", prefix);
        snprintf(ipath, len, "%s.indices", prefix);
        const char *const paths[] = { vpath, ipath };
        const void *const data[] = { m->vals, m->idx };
        const size_t sizes[] = { drtopk_dtype_size(p->dtype), sizeof(uint64_t) };
        rc = write_files("--output", 2, paths, data, sizes, p->k);
    }
    free(vpath);
    free(ipath);
    return rc;
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
    const int cuda_ok = drtopk_cuda_available();

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
        return 0;
    }
    if (!c.have_k) return usage_error("missing --k (the number of elements to select)");
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

    if ((rc = resolve_inputs(&c, &m)) != 0) goto done;
    p.backend = c.backend;
    p.dtype = c.dtype;
    p.order = c.order;
    p.n = c.n;
    p.k = c.k;
    p.values = NULL;

    if (c.backend == DRTOPK_BACKEND_CUDA) {
        drtopk_status st = drtopk_dev_select(c.gpu);
        if (st != DRTOPK_OK) {
            rc = usage_error("--gpu %d: cannot use this GPU: %s", c.gpu, drtopk_status_string(st));
            goto done;
        }
        m.cuda_selected = 1;
        if ((st = drtopk_dev_info(c.gpu, &r.dev)) != DRTOPK_OK) {
            rc = runtime_error("cannot query GPU %d: %s", c.gpu, drtopk_status_string(st));
            goto done;
        }
    }
    if ((rc = build_plan(&c, &p, &r, &plan)) != 0) goto done;
    if ((rc = place_data(&c, &p, &m, &p.values, c.json)) != 0) goto done;
    if ((rc = alloc_outputs(&p, &plan, &m, &r, &ws, &d_vals, &d_idx)) != 0) goto done;
    if (c.backend == DRTOPK_BACKEND_CPU && p.n >= PROGRESS_MIN_N)
        progress(c.json, "running %d warm-up + %d timed selections on the CPU reference", c.warmup, c.reps);
    if ((rc = time_runs(&c, &p, &plan, &m, &r, ws, d_vals, d_idx)) != 0) goto done;

    if (c.backend == DRTOPK_BACKEND_CUDA) {
        drtopk_status st = drtopk_dev_copy(m.vals, m.dev_vals, (size_t)p.k * drtopk_dtype_size(p.dtype),
                                           DRTOPK_COPY_D2H);
        if (st == DRTOPK_OK)
            st = drtopk_dev_copy(m.idx, m.dev_idx, (size_t)p.k * sizeof(uint64_t), DRTOPK_COPY_D2H);
        if (st == DRTOPK_OK) st = drtopk_dev_read_ms(m.dev_v, p.n, READ_FLOOR_REPS, &r.read_floor_ms);
        if (st != DRTOPK_OK) {
            rc = runtime_error("cannot read the result back from the GPU: %s", drtopk_status_string(st));
            goto done;
        }
    }
    if (c.verify) {
        drtopk_problem hp = p;
        drtopk_check_result cr;
        hp.backend = DRTOPK_BACKEND_CPU;
        hp.values = m.host_v;
        if (p.n >= PROGRESS_MIN_N) progress(c.json, "verifying on the host");
        cr = drtopk_check(&hp, m.vals, m.idx, NULL);
        r.verified = cr.ok;
        snprintf(r.why, sizeof r.why, "%s", cr.why);
        if (cr.ok && (plan.flags & DRTOPK_SORTED)) r.verified = check_sorted(&hp, m.vals, r.why, sizeof r.why);
    }
    if (c.output && (rc = write_outputs(c.output, &p, &m)) != 0) goto done;

    if (c.json) print_json(&c, &p, &plan, &r, m.ms);
    else print_text(&c, &p, &plan, &r);
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
    drtopk_dist dist;
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
    if (drtopk_dtype_from_path(g.out, &t) != DRTOPK_OK)
        return usage_error("--out %s: the file name must end in .u32 .i32 .f32 .f16 .bf16 .u64 .i64 or .f64 "
                           "(its element type)", g.out);
    if (g.have_dtype && g.dtype != t)
        return usage_error("--dtype %s conflicts with --out %s (its extension says %s)", drtopk_dtype_name(g.dtype), g.out,
                           drtopk_dtype_name(t));
    if (g.n > SIZE_MAX / sizeof(uint64_t))
        return usage_error("--n %" PRIu64 " does not fit in this machine's address space", g.n);
    if ((buf = malloc((size_t)g.n * drtopk_dtype_size(t))) == NULL)
        return runtime_error("out of host memory for %" PRIu64 " elements", g.n);
    if (g.n >= PROGRESS_MIN_N) progress(0, "generating %" PRIu64 " elements", g.n);
    drtopk_gen_host(buf, g.n, g.dist, t, g.seed);
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
           DRTOPK_GIT_COMMIT, drtopk_cuda_available() ? "yes" : "no");
    return 0;
}

static int cmd_help(int argc, char **argv)
{
    if (argc == 0) fputs(help_main, stdout);
    else if (argc > 1) return usage_error("'drtopk help' takes at most one command name");
    else if (strcmp(argv[0], "run") == 0) fputs(help_run, stdout);
    else if (strcmp(argv[0], "gen") == 0) fputs(help_gen, stdout);
    else if (strcmp(argv[0], "dataset") == 0) fputs(help_dataset, stdout);
    else if (strcmp(argv[0], "version") == 0 || strcmp(argv[0], "help") == 0) fputs(help_main, stdout);
    else return usage_error("no help for unknown command '%s' (commands: run gen dataset version help)", argv[0]);
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
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) return cmd_version(argc - 2, argv + 2);
    if (strcmp(cmd, "help") == 0) return cmd_help(argc - 2, argv + 2);
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) return cmd_help(0, NULL);
    return usage_error("unknown command '%s' (commands: run gen dataset version help)", cmd);
}
