/*
 * options.c -- the tuner's command line (the sweep of paper section 5.2 and
 * the tuner's other runs): the help text, the parsing of every option and
 * list, the defaults per backend and sweep size, the combinations refused,
 * and the mode a run's options ask for.
 */
#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slice.h"
#include "store.h"

#define CUDA_REPS 7                 /* DESIGN.md: median of >= 5               */
#define CPU_REPS 3                  /* the CPU sweep tests the path, not speed  */
#define DEFAULT_VERIFY_EVERY 1      /* every config: the check runs where the result
                                       lies, on the GPU about a millisecond at 2^30 */
#define DEFAULT_SEED 1
#define DEFAULT_SKIP_AFTER_S 10.0   /* bitonic may stop where one call
                                       exceeds 10 s                              */
#define REPS_MAX 100000             /* as drtopk run: a typo must not become hours */
#define INPUT_NAME_MAX ((int)sizeof(((dh_store_config *)0)->dist) - 1)   /* --name: fits the store key */

static void usage(FILE *f)
{
    fprintf(f,
        "usage: tuner --gpu G [--quick | --full] [--n LIST] [--k LIST] [--algo LIST]\n"
        "             [--dist LIST] [--dtype LIST] [--db PATH] [--resume | --force]\n"
        "             [--max-minutes M] [--backend cpu|cuda] [--reps R] [--verify-every N]\n"
        "             [--seed S] [--alpha-span S] [--beta LIST] [--skip-after-s T] [--timing gpu|call]\n"
        "             [--no-filter] [--no-skip-last-digit] [--no-shared-delegate]\n"
        "             [--fit-only | --compare | --regret builtin|tuned] [--no-check]\n"
        "             [--input FILE [--name NAME]] [--bmw]\n"
        "       tuner --gpu G --batch [--dtype LIST] [--reps R] [--seed S] [--verify-every N]\n"
        "             [--resume | --force] [--max-minutes M] [--backend cpu|cuda] [--db PATH]\n"
        "       tuner --batch --fit-only [--db PATH]\n"
        "       tuner --gpu G --import-counters FILE.tsv [--db PATH]\n"
        "       tuner --merge OTHER.sqlite [--merge OTHER2.sqlite ...] [--db PATH]\n"
        "       tuner --migrate [--db PATH]\n"
        "       tuner --import-peers FILE.jsonl [--db PATH]\n"
        "       tuner --emit-table FILE.c [--db PATH]\n"
        "  Sweeps alpha, beta, the delegate build and the algorithm over k and |V| for each key\n"
        "  type and input distribution, stores every measurement in the database (default\n"
        "  $DRTOPK_DB, else %s), fits Rule 4's const, derives the decision table over\n"
        "  (dtype, log2 n, log2 k) that minimises the worst slowdown over the distributions,\n"
        "  checks each choice against the default plan at held-out points (n and k between the\n"
        "  grid's) and keeps it only where it does not lose by more than the measured noise.\n"
        "  --quick (default)  n = 2^12..2^30 by 4x (CPU: 2^12..2^16), k = 4^j <= min(n/4, 2^24),\n"
        "                     u32/f32/f16/u64, UD/ND/CD; dr-radix at alpha = Rule 4 (const 3) +-%d\n"
        "                     and beta 1..%d (on CUDA below n = 2^%d: +-%d and beta %d), both delegate\n"
        "                     builds at alpha %d..%d (not with --alpha-span 0); radix, onepass and\n"
        "                     fused standalone\n"
        "  --full             every alpha, beta 1..%d, every algorithm plain and dr-, i32 too\n"
        "                     (both: a key type and algorithm the library does not run on this\n"
        "                     backend are left out, e.g. u64 with dr- and fused on CUDA)\n"
        "  LIST               comma separated: 2^20,2^28+3,1000 for sizes; radix,dr-bucket; UD,ND; u32,f32\n"
        "  --alpha-span S     dr- algorithms: alpha = Rule 4 (const 3) +-S at every n (default %d;\n"
        "                     --full: every alpha); 0 measures Rule 4's alpha only\n"
        "  --beta LIST        dr- algorithms: these betas at every n (default 1..%d, --full 1..%d);\n"
        "                     standalone algorithms are measured once per (n, k, dist) either way\n"
        "  --skip-after-s T   once a standalone call takes more than T s (default %g), larger k of\n"
        "                     that algorithm on that data set are recorded as skipped\n"
        "  --no-filter, --no-skip-last-digit, --no-shared-delegate\n"
        "                     dr- algorithms: plans without Rule 2 filtering, the first top-k's\n"
        "                     early stop, the shared-memory delegate build (as drtopk run)\n"
        "  --timing gpu|call  gpu (default on CUDA): each call's GPU time, the stream held by a\n"
        "                     blocking kernel until the call is enqueued; call (the CPU backend's\n"
        "                     only method): events around the call, the host's enqueue included.\n"
        "                     Stored with each row (measurements.timing)\n"
        "  --resume           (default) skip configs measured on this machine at this commit\n"
        "  --force            measure them again\n"
        "  --max-minutes M    stop cleanly after M minutes (rerun to go on)\n"
        "  --verify-every N   check every N-th config with the exact counting check, on the GPU\n"
        "                     for --backend cuda (0: never; default %d)\n"
        "  --fit-only         measure nothing; refit from the database (held-out checks stored\n"
        "                     earlier are reused, missing ones leave their choice unchecked)\n"
        "  --no-check         store the decision table without the held-out check\n"
        "  --input FILE       measure on this raw vector (drtopk dataset's output: dtype from\n"
        "                     the extension, |V| from the size) instead of --n/--dist/--dtype;\n"
        "                     stored with dist NAME and seed 0, no fit (real data: Figure 19)\n"
        "  --name NAME        the data set's name (default: FILE's base name without extension;\n"
        "                     letters, digits, . _ -, at most %d characters)\n"
        "  --bmw              count instead of timing (Figure 24): per dr- config, the elements a\n"
        "                     BMW-style scan evaluates and Dr. Top-k's |D| + |C|, on the host\n"
        "  --batch            the batched top-k's crossovers instead: times drtopk_batch_select\n"
        "                     on both sides of each (the tiny register select vs the staged select\n"
        "                     over k, the warp queue vs staged over k x length, staged vs split over\n"
        "                     segment length, batched vs the pipeline row by row over row length;\n"
        "                     rows x length x k of experiments/batch_bench.sh, uniform and variable segments; default\n"
        "                     dtypes f32,u64), stores them (table batch_measurements), decides the\n"
        "                     batch plan's fields (the register select's and the radix selects'\n"
        "                     per key width: tiny_max_k_64, block_max_len_64 for 64-bit keys) and\n"
        "                     stores them (batch_choices) for --emit-table; --timing as above\n"
        "                     (batch_measurements.timing);\n"
        "                     with --fit-only decides again from the stored measurements, for\n"
        "                     every machine and commit in --db (no GPU needed)\n"
        "  --import-counters F  store Nsight Compute metrics (experiments/tab3_transactions.sh's\n"
        "                     TSV) for the machine of --gpu, then exit (Table 3)\n"
        "  --compare          after the sweep, measure this machine's tuned plan and the default\n"
        "                     plan at each (dtype, dist, n, k) of the sweep and print them beside the\n"
        "                     best measured plan; no refit\n"
        "  --regret builtin|tuned\n"
        "                     after the sweep (stored as any sweep; no fit), measure at each (dtype,\n"
        "                     dist, n, k) of it the plan drtopk_plan_auto gives without a tuning\n"
        "                     database (builtin: the table compiled in for this GPU model, else the\n"
        "                     size rules) or with this machine's tuning from --db (tuned), on the same\n"
        "                     data; stored as algorithm auto-builtin / auto-tuned with the resolved\n"
        "                     plan (resumable, --verify-every as the sweep), then print per point\n"
        "                     the automatic plan and ms, the fastest forced plan measured there and\n"
        "                     its ms, and the regret auto ms / min(auto ms, best ms), and per dtype\n"
        "                     'regret LABEL DTYPE: N points, worst R at DIST n=N k=K, median M'.\n"
        "                     Exit %d when a measurement failed or gave a wrong result\n"
        "  --merge OTHER      copy what OTHER has and --db lacks, then exit; several --merge\n"
        "                     are merged in the order given, each whole or not at all\n"
        "  --migrate          bring --db to this build's schema version (what every run that\n"
        "                     writes does first; rows stored by other tools get the columns the\n"
        "                     store derives), then exit: a database to plot from (run_all.sh)\n"
        "  --import-peers F   store the modern peers' JSON lines (experiments/peers/run_peers.sh)\n"
        "                     as one run; lines already stored are kept, then exit\n"
        "  --emit-table F     write the C source of the library's compiled-in tuning tables\n"
        "                     (src/lib/tuning_builtin.c) from every tuned GPU of the database\n",
        DRTOPK_STORE_DEFAULT_PATH, QUICK_ALPHA_SPAN, QUICK_BETA_MAX, QUICK_SMALL_N_LOG2, QUICK_SMALL_N_ALPHA_SPAN,
        QUICK_SMALL_N_BETA, TUNED_BUILD_ALPHA_MIN, DRTOPK_SHARED_DELEGATE_MAX_ALPHA, FULL_BETA_MAX,
        QUICK_ALPHA_SPAN, QUICK_BETA_MAX, FULL_BETA_MAX, DEFAULT_SKIP_AFTER_S, DEFAULT_VERIFY_EVERY,
        INPUT_NAME_MAX, EXIT_FAILURES);
}

static int parse_list(const char *arg, const char *what, int max, int (*one)(const char *, void *, int),
                      void *out, int *count)
{
    char buf[1024];
    if (snprintf(buf, sizeof buf, "%s", arg) >= (int)sizeof buf) {
        fprintf(stderr, "tuner: %s list too long\n", what);
        return -1;
    }
    *count = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (*count == max) {
            fprintf(stderr, "tuner: more than %d entries in the %s list\n", max, what);
            return -1;
        }
        const int rc = one(t, out, *count);
        if (rc == DRTOPK_PARSE_RANGE) {
            fprintf(stderr, "tuner: %s %s is out of range (at most 2^64 - 1)\n", what, t);
            return -1;
        }
        if (rc != 0) {
            fprintf(stderr, "tuner: bad %s '%s'\n", what, t);
            return -1;
        }
        ++*count;
    }
    if (*count == 0) {
        fprintf(stderr, "tuner: empty %s list\n", what);
        return -1;
    }
    return 0;
}

static int one_u64(const char *s, void *out, int i)
{
    uint64_t v;
    const int rc = dh_parse_u64(s, &v);
    if (rc != 0) return rc;
    if (v == 0) return -1;
    ((uint64_t *)out)[i] = v;
    return 0;
}

static int one_algo(const char *s, void *out, int i)
{
    algo_entry *a = (algo_entry *)out + i;
    if (drtopk_algo_parse(s, &a->algo, &a->delegate) != DRTOPK_OK)
        return -1;
    snprintf(a->label, sizeof a->label, "%s%s", a->delegate ? "dr-" : "", drtopk_algo_name(a->algo));
    return 0;
}

static int one_dist(const char *s, void *out, int i)
{
    return dh_dist_parse(s, (dh_dist *)out + i) == DRTOPK_OK ? 0 : -1;
}

static int one_dtype(const char *s, void *out, int i)
{
    return drtopk_dtype_parse(s, (drtopk_dtype *)out + i) == DRTOPK_OK ? 0 : -1;
}

static int parse_int(const char *s, int lo, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < lo || v > 1000000000L)
        return -1;
    *out = (int)v;
    return 0;
}

static int one_beta(const char *s, void *out, int i)
{
    int b;
    if (parse_int(s, 1, &b) != 0 || b > DRTOPK_BETA_MAX)
        return -1;
    ((int *)out)[i] = b;
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sort and drop repeats, so that "--beta 2,2" is not two configs. */
static int sort_unique_int(int *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_int);
    int u = 0;
    for (int i = 0; i < n; ++i)
        if (u == 0 || v[i] != v[u - 1])
            v[u++] = v[i];
    return u;
}

static int parse_positive(const char *s, double *out)
{
    char *end;
    *out = strtod(s, &end);
    return (*end || end == s || !(*out > 0) || !isfinite(*out)) ? -1 : 0;
}

/* --input FILE [--name NAME]: the one data set of the sweep (n from the file's
 * size, dtype from its extension) and its name; --n, --dist, --dtype and
 * --seed describe generated data and are refused beside it. */
static int input_args(options *o, const char *name_arg, const char *n_arg, const char *dist_arg,
                      const char *dtype_arg)
{
    if (!o->input) {
        fprintf(stderr, "tuner: --name names an --input data set: give --input FILE\n");
        return -1;
    }
    if (n_arg || dist_arg || dtype_arg || o->seed != DEFAULT_SEED) {
        fprintf(stderr, "tuner: --input %s gives the data: drop --n, --dist, --dtype and --seed\n", o->input);
        return -1;
    }
    drtopk_dtype t;
    if (dh_dtype_from_path(o->input, &t) != DRTOPK_OK) {
        fprintf(stderr, "tuner: --input %s: the extension must name the key type (.u32 .i32 .f32 .f16 .bf16 .u64 "
                        ".i64 .f64)\n", o->input);
        return -1;
    }
    uint64_t n = 0;
    char err[512];
    if (dh_raw_count(o->input, drtopk_dtype_size(t), &n, err, sizeof err) != DRTOPK_OK) {
        fprintf(stderr, "tuner: %s\n", err);
        return -1;
    }
    const char *base = strrchr(o->input, '/');
    base = base ? base + 1 : o->input;
    const char *name = name_arg ? name_arg : base;
    size_t len = name_arg ? strlen(name) : strcspn(name, ".");
    dh_dist d;
    int ok = len > 0 && len <= (size_t)INPUT_NAME_MAX;
    if (ok) {
        memcpy(o->input_name, name, len);
        o->input_name[len] = 0;
        ok = strspn(o->input_name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == len &&
             dh_dist_parse(o->input_name, &d) != DRTOPK_OK;
    }
    if (!ok) {
        fprintf(stderr, "tuner: data set name '%.*s' (%s): give --name with letters, digits, '.', '_', '-', at most "
                        "%d characters, not a generator distribution's name\n",
                (int)len, name, name_arg ? "--name" : "from --input", INPUT_NAME_MAX);
        return -1;
    }
    o->n[0] = n;
    o->nn = 1;
    o->dtype[0] = t;
    o->ndtype = 1;
    o->dist[0] = DRTOPK_DIST_UD;
    o->ndist = 1;
    return 0;
}

int options_parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->gpu = -1;
    o->backend = DRTOPK_BACKEND_CUDA;
    o->reps = -1;
    o->verify_every = -1;
    o->seed = DEFAULT_SEED;
    o->alpha_span = ALPHA_SPAN_WHOLE;
    o->skip_after_ms = DEFAULT_SKIP_AFTER_S * MS_PER_S;
    const char *n_arg = NULL, *k_arg = NULL, *algo_arg = NULL, *dist_arg = NULL, *dtype_arg = NULL;
    const char *name_arg = NULL, *timing_arg = NULL;
    int alpha_span_given = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = 1;
        if (!strcmp(a, "--quick")) { o->full = 0; takes = 0; }
        else if (!strcmp(a, "--full")) { o->full = 1; takes = 0; }
        else if (!strcmp(a, "--resume")) { o->force = 0; takes = 0; }
        else if (!strcmp(a, "--force")) { o->force = 1; takes = 0; }
        else if (!strcmp(a, "--fit-only")) { o->fit_only = 1; takes = 0; }
        else if (!strcmp(a, "--compare")) { o->compare = 1; takes = 0; }
        else if (!strcmp(a, "--no-check")) { o->no_check = 1; takes = 0; }
        else if (!strcmp(a, "--bmw")) { o->bmw = 1; takes = 0; }
        else if (!strcmp(a, "--batch")) { o->batch = 1; takes = 0; }
        else if (!strcmp(a, "--migrate")) { o->migrate = 1; takes = 0; }
        else if (!strcmp(a, "--no-filter")) { o->clear_flags |= DRTOPK_FILTER; takes = 0; }
        else if (!strcmp(a, "--no-skip-last-digit")) { o->clear_flags |= DRTOPK_SKIP_LAST_DIGIT; takes = 0; }
        else if (!strcmp(a, "--no-shared-delegate")) { o->clear_flags |= DRTOPK_SHARED_DELEGATE; takes = 0; }
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); exit(0); }
        else if (!v) { fprintf(stderr, "tuner: %s needs a value (or is unknown)\n", a); return -1; }
        else if (!strcmp(a, "--gpu")) { if (parse_int(v, 0, &o->gpu)) goto bad; }
        else if (!strcmp(a, "--n")) n_arg = v;
        else if (!strcmp(a, "--k")) k_arg = v;
        else if (!strcmp(a, "--algo")) algo_arg = v;
        else if (!strcmp(a, "--dist")) dist_arg = v;
        else if (!strcmp(a, "--dtype")) dtype_arg = v;
        else if (!strcmp(a, "--db")) o->db = v;
        else if (!strcmp(a, "--merge")) {
            if (o->nmerge == MAX_MERGE) {
                fprintf(stderr, "tuner: more than %d --merge sources: merge them in several runs\n", MAX_MERGE);
                return -1;
            }
            o->merge[o->nmerge++] = v;
        }
        else if (!strcmp(a, "--import-peers")) o->import_peers = v;
        else if (!strcmp(a, "--emit-table")) o->emit_table = v;
        else if (!strcmp(a, "--input")) o->input = v;
        else if (!strcmp(a, "--import-counters")) o->import_counters = v;
        else if (!strcmp(a, "--name")) name_arg = v;
        else if (!strcmp(a, "--regret")) {
            if (!strcmp(v, "builtin")) o->regret = REGRET_BUILTIN;
            else if (!strcmp(v, "tuned")) o->regret = REGRET_TUNED;
            else {
                fprintf(stderr, "tuner: --regret %s: builtin (drtopk_plan_auto without a tuning database) or tuned "
                                "(with this machine's tuning from --db)\n", v);
                return -1;
            }
        }
        else if (!strcmp(a, "--timing")) {
            if (dh_timing_parse(v, &o->timing)) {
                fprintf(stderr, "tuner: --timing %s: gpu (the call's GPU time) or call (events around the call)\n", v);
                return -1;
            }
            timing_arg = v;
        }
        else if (!strcmp(a, "--reps")) {
            if (parse_int(v, 1, &o->reps)) goto bad;
            if (o->reps > REPS_MAX) {
                fprintf(stderr, "tuner: --reps %d is more than %d repetitions per config\n", o->reps, REPS_MAX);
                return -1;
            }
        }
        else if (!strcmp(a, "--verify-every")) { if (parse_int(v, 0, &o->verify_every)) goto bad; }
        else if (!strcmp(a, "--seed")) { if (dh_parse_u64(v, &o->seed)) goto bad; }
        else if (!strcmp(a, "--alpha-span")) {
            if (parse_int(v, 0, &o->alpha_span)) goto bad;
            alpha_span_given = 1;
        }
        else if (!strcmp(a, "--beta")) {
            if (parse_list(v, "beta", MAX_LIST, one_beta, o->beta, &o->nbeta)) return -1;
            o->nbeta = sort_unique_int(o->beta, o->nbeta);
        } else if (!strcmp(a, "--skip-after-s")) {
            if (parse_positive(v, &o->skip_after_ms)) goto bad;
            o->skip_after_ms *= MS_PER_S;
        } else if (!strcmp(a, "--max-minutes")) {
            if (parse_positive(v, &o->max_minutes)) goto bad;
        } else if (!strcmp(a, "--backend")) {
            if (!strcmp(v, "cpu")) o->backend = DRTOPK_BACKEND_CPU;
            else if (!strcmp(v, "cuda")) o->backend = DRTOPK_BACKEND_CUDA;
            else goto bad;
        } else {
            fprintf(stderr, "tuner: unknown option '%s'\n", a);
            return -1;
        }
        i += takes;
        continue;
    bad:
        fprintf(stderr, "tuner: bad value '%s' for %s\n", v, a);
        return -1;
    }
    if (!o->db)
        o->db = dh_store_default_path();
    if (!!o->nmerge + !!o->import_peers + !!o->emit_table + o->migrate > 1) {
        fprintf(stderr, "tuner: --merge, --import-peers, --emit-table and --migrate are separate runs\n");
        return -1;
    }
    if (o->nmerge || o->import_peers || o->emit_table || o->migrate)
        return 0;
    if ((o->bmw || o->import_counters) && (o->compare || o->fit_only || o->input)) {
        fprintf(stderr, "tuner: --bmw and --import-counters store counts, no timings: drop --compare, --fit-only, --input\n");
        return -1;
    }
    if (o->bmw && o->import_counters) {
        fprintf(stderr, "tuner: --bmw and --import-counters are separate runs\n");
        return -1;
    }
    if (o->batch && (o->bmw || o->import_counters || o->compare || o->input || name_arg || n_arg || k_arg ||
                     algo_arg || dist_arg || o->nbeta || o->full)) {
        fprintf(stderr, "tuner: --batch sweeps its own workloads (rows x length x k of experiments/batch_bench.sh): of the sweep "
                        "options it takes --dtype, --reps, --seed, --verify-every, --force, --max-minutes, "
                        "--fit-only, --timing\n");
        return -1;
    }
    if (o->input && (o->compare || o->fit_only)) {
        fprintf(stderr, "tuner: --input measures a real data set, never fit: drop --compare / --fit-only\n");
        return -1;
    }
    if (o->compare && o->fit_only) {
        fprintf(stderr, "tuner: --compare measures; --fit-only measures nothing: choose one\n");
        return -1;
    }
    if (o->regret && (o->compare || o->fit_only || o->input || o->bmw || o->batch || o->import_counters)) {
        fprintf(stderr, "tuner: --regret measures the automatic plan beside a sweep of generated data: drop "
                        "--compare, --fit-only, --input, --bmw, --batch and --import-counters\n");
        return -1;
    }
    if (o->gpu < 0 && o->backend == DRTOPK_BACKEND_CUDA && !(o->batch && o->fit_only)) {
        fprintf(stderr, "tuner: --gpu G is required (or --backend cpu)\n");
        return -1;
    }
    if (o->gpu >= 0 && o->backend == DRTOPK_BACKEND_CPU) {
        fprintf(stderr, "tuner: --gpu applies only to --backend cuda; drop it for --backend cpu\n");
        return -1;
    }
    if (o->gpu < 0)
        o->gpu = 0;
    if (o->backend == DRTOPK_BACKEND_CPU) {
        if (timing_arg && o->timing == DRTOPK_TIMING_GPU) {
            fprintf(stderr, "tuner: --timing gpu needs --backend cuda; the CPU backend times the call (--timing call)\n");
            return -1;
        }
        o->timing = DRTOPK_TIMING_CALL;
    }
    if (o->alpha_span == ALPHA_SPAN_WHOLE && !o->full)
        o->alpha_span = QUICK_ALPHA_SPAN;
    int cpu = o->backend == DRTOPK_BACKEND_CPU;
    if (o->reps < 0)
        o->reps = cpu ? CPU_REPS : CUDA_REPS;
    if (o->verify_every < 0)
        o->verify_every = DEFAULT_VERIFY_EVERY;
    o->small_n_cut = !cpu && !o->full && !alpha_span_given && o->nbeta == 0;
    o->probe_algos = !algo_arg;
    if (o->input || name_arg) {
        if (input_args(o, name_arg, n_arg, dist_arg, dtype_arg) != 0)
            return -1;
        n_arg = dist_arg = dtype_arg = NULL;
    }
    if (o->input) {
        /* o->n, o->dtype and o->dist (a placeholder: the key names the file) are set */
    } else if (n_arg) {
        if (parse_list(n_arg, "n", MAX_LIST, one_u64, o->n, &o->nn)) return -1;
    } else {
        /* CUDA: from where the one-launch fused plan competes to the paper's largest
         * |V|; the CPU sweep tests the path, not speed */
        static const int cuda_log2[] = { 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 }, cpu_log2[] = { 12, 14, 16 };
        const int *l = cpu ? cpu_log2 : cuda_log2;
        o->nn = cpu ? (int)(sizeof cpu_log2 / sizeof cpu_log2[0]) : (int)(sizeof cuda_log2 / sizeof cuda_log2[0]);
        for (int i = 0; i < o->nn; ++i)
            o->n[i] = 1ull << l[i];
    }
    if (k_arg && parse_list(k_arg, "k", MAX_LIST, one_u64, o->k, &o->nk)) return -1;
    if (algo_arg) {
        if (parse_list(algo_arg, "algorithm", MAX_LIST, one_algo, o->algo, &o->nalgo)) return -1;
    } else if (o->full) {
        for (int d = 1; d >= 0; --d)
            for (int a = 0; a < DRTOPK_ALGO_COUNT; ++a) {
                if (d && (a == DRTOPK_ALGO_ONEPASS || a == DRTOPK_ALGO_FUSED)) continue;   /* standalone only */
                algo_entry *e = &o->algo[o->nalgo++];
                e->algo = (drtopk_algo)a;
                e->delegate = d;
                snprintf(e->label, sizeof e->label, "%s%s", d ? "dr-" : "", drtopk_algo_name(e->algo));
            }
    } else {
        /* every plan that can win somewhere: the paper's pipeline, the standalone
         * radix select (the only select of 64-bit keys besides onepass), the
         * one-read top-k that competes with the pipeline at large k and the fused
         * small-input one that competes at the smallest n */
        static const drtopk_algo standalone[] = { DRTOPK_ALGO_RADIX, DRTOPK_ALGO_ONEPASS, DRTOPK_ALGO_FUSED };
        o->algo[0] = (algo_entry){ .algo = DRTOPK_ALGO_RADIX, .delegate = 1 };
        snprintf(o->algo[0].label, sizeof o->algo[0].label, "dr-%s", drtopk_algo_name(DRTOPK_ALGO_RADIX));
        o->nalgo = 1;
        for (size_t i = 0; i < sizeof standalone / sizeof standalone[0]; ++i, ++o->nalgo) {
            o->algo[o->nalgo] = (algo_entry){ .algo = standalone[i], .delegate = 0 };
            snprintf(o->algo[o->nalgo].label, sizeof o->algo[o->nalgo].label, "%s", drtopk_algo_name(standalone[i]));
        }
    }
    if (o->input) {
        /* set by input_args */
    } else if (dist_arg) {
        if (parse_list(dist_arg, "distribution", MAX_LIST, one_dist, o->dist, &o->ndist)) return -1;
    } else {
        /* the decision table minimises the worst slowdown over these */
        static const dh_dist dists[] = { DRTOPK_DIST_UD, DRTOPK_DIST_ND, DRTOPK_DIST_CD };
        o->ndist = (int)(sizeof dists / sizeof dists[0]);
        memcpy(o->dist, dists, sizeof dists);
    }
    if (o->input) {
        /* set by input_args */
    } else if (dtype_arg) {
        if (parse_list(dtype_arg, "dtype", MAX_LIST, one_dtype, o->dtype, &o->ndtype)) return -1;
    } else {
        /* quick: one key type per width that matters (32-bit unsigned and float,
         * 16-bit, 64-bit); --full adds the signed one; --batch: the float keys of
         * ML workloads and a 64-bit key (half the keys in shared memory) */
        static const drtopk_dtype quick_dtypes[] = { DRTOPK_U32, DRTOPK_F32, DRTOPK_F16, DRTOPK_U64 },
                                  full_dtypes[] = { DRTOPK_U32, DRTOPK_I32, DRTOPK_F32, DRTOPK_F16, DRTOPK_U64 },
                                  batch_dtypes[] = { DRTOPK_F32, DRTOPK_U64 };
        const drtopk_dtype *list = o->batch ? batch_dtypes : o->full ? full_dtypes : quick_dtypes;
        o->ndtype = o->batch ? (int)(sizeof batch_dtypes / sizeof batch_dtypes[0])
                  : o->full  ? (int)(sizeof full_dtypes / sizeof full_dtypes[0])
                             : (int)(sizeof quick_dtypes / sizeof quick_dtypes[0]);
        memcpy(o->dtype, list, (size_t)o->ndtype * sizeof *o->dtype);
    }
    return 0;
}

tuner_mode options_mode(const options *o)
{
    if (o->emit_table)
        return MODE_EMIT_TABLE;
    if (o->migrate)
        return MODE_MIGRATE;
    if (o->nmerge)
        return MODE_MERGE;
    if (o->import_peers)
        return MODE_IMPORT_PEERS;
    if (o->batch && o->fit_only)
        return MODE_BATCH_REFIT;
    if (o->fit_only)
        return MODE_FIT;
    if (o->batch)
        return MODE_BATCH;
    if (o->import_counters)
        return MODE_IMPORT_COUNTERS;
    return o->bmw ? MODE_BMW : MODE_SWEEP;
}
