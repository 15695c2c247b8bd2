/*
 * runopt.c -- the options, messages, plan and output helpers of a top-k run,
 * shared by `drtopk run` (src/cli/cli.c) and `drtopk-mpi` (src/mpi/drtopk_mpi.c,
 * paper section 5.4); see runopt.h.
 */
#include "runopt.h"
#include "keyorder.h"
#include "slice.h"
#include "store.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *run_prog = "drtopk";
FILE *run_errout;

#define ERR_OUT (run_errout ? run_errout : stderr)

const char run_help_options[] =
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
    "  --algo A           default: the automatic plan, the fastest the library knows for this\n"
    "                     GPU, N and K (tuned in $DRTOPK_DB or db/results.sqlite, else the\n"
    "                     library's table for this GPU model, else its size rules); or one of\n"
    "                     radix radix-ggks radix-ggks-oop bucket bucket-oop bitonic sort-cub\n"
    "                     sort-thrust standalone, or dr-<A>: the delegate pipeline with A as\n"
    "                     first and second top-k; onepass: one read of V (a sampled\n"
    "                     threshold, then an exact top-k of what passes; standalone); fused:\n"
    "                     small inputs in one launch (grid-wide barriers; standalone)\n"
    "  --const C          Rule 4 constant: alpha = (C + log2 N - log2 K) / 2 (default: as the\n"
    "                     automatic plan, else 3)\n"
    "  --alpha A          subrange size 2^A, overrides Rule 4 (1..24)\n"
    "  --beta B           delegates per subrange (1..8, default 2)\n"
    "  --no-filter        copy whole qualified subranges (Rule 2 off)\n"
    "  --no-skip-last-digit   first top-k runs every radix digit\n"
    "  --no-shared-delegate   never use the shared-memory delegate build (paper 5.3)\n"
    "  --sorted           results ordered best first\n"
    "  --deterministic    ties at the k-th value keep the smallest positions, and with --sorted\n"
    "                     equal values come by position: the same result run to run and on\n"
    "                     every plan (on the GPU a fix-up after most plans: up to one more read of V)\n"
    "execution:\n"
    "  --backend B        cuda or cpu (default cuda when a GPU is usable, else cpu)\n"
    "  --gpu G            GPU index (default 0)\n"
    "  --reps R           timed repetitions (default 7 on cuda, 1 on cpu)\n"
    "  --warmup W         untimed runs first (default 1 on cuda, 0 on cpu)\n"
    "  --timing call|gpu  call (default): events around each call, as drtopk_stats times it (a\n"
    "                     call's own launches included, the stage times reported); gpu (cuda):\n"
    "                     the call's GPU time, the stream held by a blocking kernel until the\n"
    "                     call is enqueued (as tuner --timing and drtopk batch; no stage times)\n"
    "output:\n"
    "  --verify           check the result on the host (exact counting check); exit 3 on FAIL\n"
    "  --json             one JSON object on stdout instead of text\n"
    "  --show N           print the first N of the result (value and position in V), best first\n"
    "                     (text mode; at most K)\n"
    "  --output PREFIX    write PREFIX.values (K elements of the dtype) and PREFIX.indices\n"
    "                     (K uint64 positions in V), little-endian raw\n";

/* ---- messages ----------------------------------------------------------- */

/* One error line on stderr; returns the exit code. */
int verror(int code, const char *fmt, va_list ap)
{
    fprintf(ERR_OUT, "%s: error: ", run_prog);
    vfprintf(ERR_OUT, fmt, ap);
    fputc('\n', ERR_OUT);
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

int host_room(uint64_t bytes, const char *what)
{
    char err[256];
    return dh_host_mem_check(bytes, what, err, sizeof err) == 0 ? 0 : runtime_error("%s", err);
}

int api_error(const char *what, drtopk_status st)
{
    const char *msg = drtopk_last_error();
    return runtime_error("%s: %s%s%s", what, drtopk_status_string(st), *msg ? ": " : "", msg);
}

void progress(int quiet, const char *fmt, ...)
{
    va_list ap;
    if (quiet) return;
    fprintf(ERR_OUT, "%s: ", run_prog);
    va_start(ap, fmt);
    vfprintf(ERR_OUT, fmt, ap);
    va_end(ap);
    fputc('\n', ERR_OUT);
}

/* ---- option parsing ------------------------------------------------------ */

/* Walks argv (after the subcommand): every argument must be a known --option,
 * its value the next argument or after '='.  The handler returns an exit
 * code; parsing stops at the first non-zero one. */
int parse_options(const char *cmd, const opt_spec *specs, int argc, char **argv,
                  opt_handler handle, void *ctx)
{
    char who[64], help[80];     /* "drtopk run" and where its help is */
    snprintf(who, sizeof who, "%s%s%s", run_prog, cmd ? " " : "", cmd ? cmd : "");
    if (cmd) snprintf(help, sizeof help, "%s help %s", run_prog, cmd);
    else snprintf(help, sizeof help, "%s --help", run_prog);
    for (int i = 0; i < argc; ++i) {
        const char *arg = argv[i], *val = NULL;
        char name[64];
        const opt_spec *s = NULL;
        size_t len;
        if (strcmp(arg, "-h") == 0) arg = "--help";
        if (strncmp(arg, "--", 2) != 0)
            return usage_error("unexpected argument '%s' to '%s' (options start with --)", arg, who);
        const char *eq = strchr(arg + 2, '=');
        len = eq ? (size_t)(eq - (arg + 2)) : strlen(arg + 2);
        if (len >= sizeof name) return usage_error("unknown option '%s' for '%s'", arg, who);
        memcpy(name, arg + 2, len);
        name[len] = '\0';
        for (const opt_spec *t = specs; t->name; ++t)
            if (strcmp(t->name, name) == 0) s = t;
        if (s == NULL)
            return usage_error("unknown option '--%s' for '%s' (see %s)", name, who, help);
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
    const int rc = dh_parse_u64(val, out);
    if (rc == DRTOPK_PARSE_RANGE)
        return usage_error("--%s: %s is out of range (at most 2^64 - 1 = 18446744073709551615)", opt, val);
    if (rc != 0)
        return usage_error("--%s: '%s' is not a number (use e.g. 1000003, 2^30 or 2^30+17)", opt, val);
    return 0;
}

int parse_int_range(const char *opt, const char *val, int lo, int hi, int *out)
{
    uint64_t v;
    const int rc = dh_parse_u64(val, &v);
    if (rc == DRTOPK_PARSE_RANGE) return usage_error("--%s %s is out of range %d..%d", opt, val, lo, hi);
    if (rc != 0) return usage_error("--%s: '%s' is not a non-negative integer", opt, val);
    if (v < (uint64_t)lo || v > (uint64_t)hi)
        return usage_error("--%s %s is out of range %d..%d", opt, val, lo, hi);
    *out = (int)v;
    return 0;
}

int parse_dist(const char *val, dh_dist *out)
{
    if (dh_dist_parse(val, out) != DRTOPK_OK)
        return usage_error("--dist: unknown distribution '%s' (UD ND CD ASC DESC FEW EQ SPECIAL)", val);
    return 0;
}

int parse_dtype(const char *val, drtopk_dtype *out)
{
    if (drtopk_dtype_parse(val, out) != DRTOPK_OK)
        return usage_error("--dtype: unknown type '%s' (u32 i32 f32 f16 bf16 u64 i64 f64)", val);
    return 0;
}

/* ---- small output helpers ------------------------------------------------ */

void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)s; *c; ++c) {
        if (*c == '"' || *c == '\\') fprintf(f, "\\%c", *c);
        else if (*c < 0x20) fprintf(f, "\\u%04x", *c);
        else fputc(*c, f);
    }
    fputc('"', f);
}

void json_number_or_null(FILE *f, double x)
{
    if (isfinite(x)) fprintf(f, "%.6f", x);
    else fputs("null", f);
}

void json_field(FILE *f, const char *key, double x)
{
    fprintf(f, ", \"%s\": ", key);
    json_number_or_null(f, x);
}

void json_numbers(FILE *f, const double *x, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; ++i) {
        if (i) fputs(", ", f);
        json_number_or_null(f, x[i]);
    }
    fputc(']', f);
}

const char *on_off(unsigned flags, unsigned bit)
{
    return (flags & bit) ? "on" : "off";
}

const char *json_bool(int b) { return b ? "true" : "false"; }

/* "1073741824 (2^30)" for powers of two, else the plain number. */
void size_text(char *buf, size_t len, uint64_t x)
{
    if (x && (x & (x - 1)) == 0)
        snprintf(buf, len, "%" PRIu64 " (2^%d)", x, dh_ilog2_floor(x));
    else
        snprintf(buf, len, "%" PRIu64, x);
}

/* ---- the options of a run ------------------------------------------------ */

const opt_spec run_specs[] = {
    { "n", R_N, 1 }, { "k", R_K, 1 }, { "dist", R_DIST, 1 }, { "seed", R_SEED, 1 },
    { "dtype", R_DTYPE, 1 }, { "algo", R_ALGO, 1 }, { "alpha", R_ALPHA, 1 }, { "beta", R_BETA, 1 },
    { "const", R_CONST, 1 }, { "smallest", R_SMALLEST, 0 }, { "backend", R_BACKEND, 1 },
    { "gpu", R_GPU, 1 }, { "reps", R_REPS, 1 }, { "warmup", R_WARMUP, 1 },
    { "verify", R_VERIFY, 0 }, { "json", R_JSON, 0 }, { "output", R_OUTPUT, 1 },
    { "input", R_INPUT, 1 }, { "sorted", R_SORTED, 0 }, { "deterministic", R_DETERMINISTIC, 0 },
    { "no-filter", R_NO_FILTER, 0 },
    { "no-skip-last-digit", R_NO_SKIP, 0 }, { "no-shared-delegate", R_NO_SHARED, 0 },
    { "show", R_SHOW, 1 }, { "timing", R_TIMING, 1 }, { "help", R_HELP, 0 }, { NULL, 0, 0 }
};

int run_option(void *ctx, int id, const char *opt, const char *val)
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
                               "bucket-oop bitonic sort-cub sort-thrust onepass fused, or dr-<algo>)", val);
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
    case R_DETERMINISTIC: c->deterministic = 1; return 0;
    case R_NO_FILTER: c->no_filter = 1; return 0;
    case R_NO_SKIP: c->no_skip = 1; return 0;
    case R_NO_SHARED: c->no_shared = 1; return 0;
    case R_SHOW: return parse_size(opt, val, &c->show);
    case R_TIMING:
        c->have_timing = 1;
        if (dh_timing_parse(val, &c->timing) != 0)
            return usage_error("--timing %s: gpu (the call's GPU time) or call (the time around the call)", val);
        return 0;
    case R_HELP: c->help = 1; return 0;
    default: return usage_error("internal: unhandled option --%s", opt);
    }
}

int check_sorted(const drtopk_problem *p, const void *vals, char *why, size_t len)
{
    for (uint64_t i = 1; i < p->k; ++i) {
        if (drtopk_key_at(vals, i, p->dtype, p->order) > drtopk_key_at(vals, i - 1, p->dtype, p->order)) {
            snprintf(why, len, "--sorted result is not best first at position %" PRIu64, i);
            return 0;
        }
    }
    return 1;
}

/* The tuning of the machine this run uses (the GPU's uuid and name, or this
 * host for the CPU backend) from the results store.  A database that exists
 * but cannot be read is a warning: the run goes on with the default plan. */
static void load_tuning(const drtopk_problem *p, const dh_device_info *dev, const char **tuning_db,
                        dh_store_tuning *t)
{
    char err[DRTOPK_STORE_ERR_LEN];
    dh_store_machine host;
    const char *uuid = dev->uuid, *name = dev->name;
    if (p->backend == DRTOPK_BACKEND_CPU) {
        dh_store_cpu_machine(&host);
        uuid = host.uuid;
        name = host.name;
    }
    *tuning_db = dh_store_default_path();
    if (dh_store_load_tuning(*tuning_db, uuid, name, t, err, sizeof err) != DRTOPK_OK)
        fprintf(ERR_OUT, "%s: warning: cannot read the tuning database %s: %s; planning without it\n", run_prog,
                *tuning_db, err);
}

/* Whether the command line sets a knob of the delegate pipeline. */
static int pipeline_options(const run_cfg *c)
{
    return c->have_alpha || c->have_beta || c->no_filter || c->no_skip || c->no_shared;
}

/* Applies the command line on top of drtopk_plan_auto_flags (with this
 * machine's tuning; deterministic where asked) or drtopk_plan_rule4
 * (--const).  Asking for the pipeline (--algo
 * dr-<A>, or a pipeline knob without --algo) where the automatic plan is a
 * standalone one starts from the paper's pipeline: Rule 4 with const 3,
 * beta 2. */
int build_plan(const run_cfg *c, const drtopk_problem *p, const dh_device_info *dev, const char **tuning_db,
               drtopk_plan *plan)
{
    drtopk_status st;
    if (c->have_const) {
        st = drtopk_plan_rule4(plan, p, c->rule4_const);
    } else {
        dh_store_tuning t;
        load_tuning(p, dev, tuning_db, &t);
        st = drtopk_plan_auto_flags(plan, p, &t.table, c->deterministic ? DRTOPK_DETERMINISTIC : 0u);
        dh_store_tuning_free(&t);
    }
    if (st != DRTOPK_OK)
        return usage_error("cannot plan this problem: %s: %s", drtopk_status_string(st), drtopk_last_error());
    const int pipeline = c->algo_text ? c->delegate : pipeline_options(c);
    if (pipeline && !(plan->flags & DRTOPK_DELEGATE)) {
        if ((st = drtopk_plan_rule4(plan, p, DRTOPK_RULE4_CONST_DEFAULT)) != DRTOPK_OK)
            return usage_error("cannot plan this problem: %s: %s", drtopk_status_string(st), drtopk_last_error());
        plan->const_source = DRTOPK_CONST_DEFAULT;
    }
    if (c->algo_text) {         /* --algo overrides the automatic algorithm */
        plan->first_algo = c->algo;
        plan->second_algo = c->algo;
        if (!c->delegate) plan->flags = 0;
    }
    if (plan->flags & DRTOPK_DELEGATE) {
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
    if (c->deterministic) plan->flags |= DRTOPK_DETERMINISTIC;
    st = drtopk_plan_check(plan, p);
    if (st != DRTOPK_OK) return usage_error("invalid plan: %s: %s", drtopk_status_string(st), drtopk_last_error());
    return 0;
}

/* Options that only make sense together, and the input file: read whole into
 * *host_v, or (host_v NULL) only sized, for a program that reads its slice. */
int resolve_inputs(run_cfg *c, void **host_v)
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
        if (dh_dtype_from_path(c->input, &t) != DRTOPK_OK)
            return usage_error("--input %s: cannot tell the element type; name the file *.u32 *.i32 *.f32 *.f16 "
                               "*.bf16 *.u64 *.i64 or *.f64",
                               c->input);
        if (c->have_dtype && c->dtype != t)
            return usage_error("--dtype %s conflicts with --input %s (its extension says %s)", drtopk_dtype_name(c->dtype),
                               c->input, drtopk_dtype_name(t));
        if (dh_check_regular_file(c->input, err, sizeof err) != 0)   /* never opens a FIFO */
            return usage_error("--input: %s", err);
        if (host_v) st = dh_read_raw(c->input, drtopk_dtype_size(t), host_v, &n, err, sizeof err);
        else st = dh_raw_count(c->input, drtopk_dtype_size(t), &n, err, sizeof err);
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

int write_files(const char *what, int count, const char *const *paths, const void *const *data,
                const size_t *elem_size, uint64_t n)
{
    dh_outputs out = { 0 };
    char err[DRTOPK_PATH_MAX + 256];
    for (int i = 0; i < count; ++i) {
        const char *tmp;
        if (dh_outputs_add(&out, paths[i], &tmp, err, sizeof err) != 0) {
            dh_outputs_abort(&out);
            return runtime_error("%s: %s", what, err);
        }
        errno = 0;
        drtopk_status st = dh_write_raw(tmp, data[i], elem_size[i], n);
        if (st != DRTOPK_OK) {
            const int e = errno;
            dh_outputs_abort(&out);
            return runtime_error("%s: cannot write '%s': %s", what, paths[i],
                                 e ? strerror(e) : drtopk_status_string(st));
        }
    }
    if (dh_outputs_commit(&out, err, sizeof err) != 0) return runtime_error("%s: %s", what, err);
    return 0;
}

int write_outputs(const char *prefix, const drtopk_problem *p, const void *vals, const uint64_t *idx)
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
        const void *const data[] = { vals, idx };
        const size_t sizes[] = { drtopk_dtype_size(p->dtype), sizeof(uint64_t) };
        rc = write_files("--output", 2, paths, data, sizes, p->k);
    }
    free(vpath);
    free(ipath);
    return rc;
}
