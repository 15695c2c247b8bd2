/*
 * tuner.c -- `tuner --gpu 0`: sweeps alpha, beta and the top-k algorithm over
 * k and |V| through the public API, stores every measurement in the SQLite
 * results store (src/harness/store.c), and fits Rule 4's const (paper section
 * 5.2) for this GPU, beside Eq. 11's theoretical const from microbenchmarked
 * C_global and C_shfl.  Resumable: each configuration is one committed step, and a
 * rerun skips what this machine already measured at this commit.  For the
 * algorithm table (experiments/report.sh) it also runs fixed plans (--alpha-span 0 --beta 2) and stops a
 * standalone algorithm at the k where one call grew too slow (--skip-after-s),
 * and imports the modern peers' JSON lines (--import-peers, import_peers.c).
 * --input FILE measures on a real data set (paper Table 1 / Figure 19) instead
 * of a generated one: its rows carry the data set's name as their dist and are
 * never Rule 4 fit points.  --regret builtin|tuned measures, after the sweep
 * and instead of the fit, the automatic plan at each of its points and prints
 * its regret (regret.c).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "drtopk.h"
#include "fit.h"
#include "gen.h"
#include "import_peers.h"
#include "microbench.h"
#include "slice.h"
#include "store.h"
#include "tuner.h"
#include "util.h"
#include "version.h"

#define QUICK_ALPHA_SPAN 3          /* --quick: Rule 4's alpha +- this: the H200
                                       reference sweep (db/reference/h200-8c9cbd14)
                                       found the fastest alpha at +3 at 116 of 459
                                       points, +-2 lost up to 24%                 */
#define ALPHA_SPAN_WHOLE (-1)       /* --full without --alpha-span: every alpha */
#define QUICK_BETA_MAX 2            /* beta 3 beat beta 1..2 by at most 4.3% (mean
                                       0.06%) in that sweep                      */
#define FULL_BETA_MAX 4
#define QUICK_SMALL_N_LOG2 24       /* CUDA, n below 2^24: the one-launch fused plan
                                       beat the pipeline 1.4-4x on the H200 (u32 UD,
                                       k 1..2^14, db/reference/h200-e977470a) ...  */
#define QUICK_SMALL_N_ALPHA_SPAN 1  /* ... so there the pipeline gets the fewest
                                       alphas a fit point needs (3) ...           */
#define QUICK_SMALL_N_BETA 2        /* ... at the library's beta                  */
#define DEFAULT_K_MAX (1ull << 24)  /* the paper's largest k (Figures 14, 18)   */
#define DEFAULT_K_FRACTION 4        /* default k lists stop at n / this         */
#define K_STEP_LOG2 2               /* default k: powers of 4                   */
#define CUDA_REPS 7                 /* DESIGN.md: median of >= 5               */
#define CPU_REPS 3                  /* the CPU sweep tests the path, not speed  */
#define CUDA_VERIFY_EVERY 25        /* an O(n) host check of 2^30 takes ~1 s    */
#define QUICK_VERIFY_EVERY 200      /* the default sizes reach 2^30, where one host
                                       check took 2-13 s on the H200 (the first of a
                                       data set copies V): every 25th config would
                                       take longer than the 5-minute quick sweep */
#define CPU_VERIFY_EVERY 1
#define DEFAULT_SEED 1
#define BW_ELEMS (1ull << 28)       /* 1 GiB read for the bandwidth figure      */
#define BW_REPS 5
#define PLAIN_PROGRESS_S 10.0       /* non-TTY progress: one line per 10 s      */
#define MS_PER_MINUTE 60000.0
#define MS_PER_S 1000.0
#define DEFAULT_SKIP_AFTER_S 10.0   /* bitonic may stop where one call      
                                       exceeds 10 s                              */
#define SIGNAL_EXIT_BASE 128        /* shell convention: 128 + signal number    */
#define REPS_MAX 100000             /* as drtopk run: a typo must not become hours */
#define INPUT_NAME_MAX ((int)sizeof(((drtopk_store_config *)0)->dist) - 1)   /* --name: fits the store key */

volatile sig_atomic_t tuner_stop_signal;

static void on_signal(int sig) { tuner_stop_signal = sig; }

/* SIGINT and SIGTERM end a sweep cleanly (tuner_should_stop). */
static void on_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

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
        "       tuner --merge OTHER.sqlite [--db PATH]\n"
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
        "  --verify-every N   check every N-th config against the reference (0: never; default\n"
        "                     CPU %d, CUDA %d, CUDA over the default sizes without --full %d)\n"
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
        "  --merge OTHER      copy what OTHER has and --db lacks, then exit\n"
        "  --migrate          bring --db to this build's schema version (what every run that\n"
        "                     writes does first; rows stored by other tools get the columns the\n"
        "                     store derives), then exit: a database to plot from (run_all.sh)\n"
        "  --import-peers F   store the modern peers' JSON lines (experiments/peers/run_peers.sh)\n"
        "                     as one run; lines already stored are kept, then exit\n"
        "  --emit-table F     write the C source of the library's compiled-in tuning tables\n"
        "                     (src/lib/tuning_builtin.c) from every tuned GPU of the database\n",
        DRTOPK_STORE_DEFAULT_PATH, QUICK_ALPHA_SPAN, QUICK_BETA_MAX, QUICK_SMALL_N_LOG2, QUICK_SMALL_N_ALPHA_SPAN,
        QUICK_SMALL_N_BETA, TUNED_BUILD_ALPHA_MIN, DRTOPK_SHARED_DELEGATE_MAX_ALPHA, FULL_BETA_MAX,
        QUICK_ALPHA_SPAN, QUICK_BETA_MAX, FULL_BETA_MAX, DEFAULT_SKIP_AFTER_S, CPU_VERIFY_EVERY, CUDA_VERIFY_EVERY,
        QUICK_VERIFY_EVERY, INPUT_NAME_MAX, EXIT_FAILURES);
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
    const int rc = drtopk_parse_u64(s, &v);
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
    return drtopk_dist_parse(s, (drtopk_dist *)out + i) == DRTOPK_OK ? 0 : -1;
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
    if (drtopk_dtype_from_path(o->input, &t) != DRTOPK_OK) {
        fprintf(stderr, "tuner: --input %s: the extension must name the key type (.u32 .i32 .f32 .f16 .bf16 .u64 "
                        ".i64 .f64)\n", o->input);
        return -1;
    }
    uint64_t n = 0;
    char err[512];
    if (drtopk_raw_count(o->input, drtopk_dtype_size(t), &n, err, sizeof err) != DRTOPK_OK) {
        fprintf(stderr, "tuner: %s\n", err);
        return -1;
    }
    const char *base = strrchr(o->input, '/');
    base = base ? base + 1 : o->input;
    const char *name = name_arg ? name_arg : base;
    size_t len = name_arg ? strlen(name) : strcspn(name, ".");
    drtopk_dist d;
    int ok = len > 0 && len <= (size_t)INPUT_NAME_MAX;
    if (ok) {
        memcpy(o->input_name, name, len);
        o->input_name[len] = 0;
        ok = strspn(o->input_name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == len &&
             drtopk_dist_parse(o->input_name, &d) != DRTOPK_OK;
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

static int parse_args(int argc, char **argv, options *o)
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
        else if (!strcmp(a, "--merge")) o->merge = v;
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
            if (drtopk_timing_parse(v, &o->timing)) {
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
        else if (!strcmp(a, "--seed")) { if (drtopk_parse_u64(v, &o->seed)) goto bad; }
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
        o->db = drtopk_store_default_path();
    if (!!o->merge + !!o->import_peers + !!o->emit_table + o->migrate > 1) {
        fprintf(stderr, "tuner: --merge, --import-peers, --emit-table and --migrate are separate runs\n");
        return -1;
    }
    if (o->merge || o->import_peers || o->emit_table || o->migrate)
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
        o->verify_every = cpu ? CPU_VERIFY_EVERY : o->full || n_arg || o->input ? CUDA_VERIFY_EVERY : QUICK_VERIFY_EVERY;
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
        static const drtopk_dist dists[] = { DRTOPK_DIST_UD, DRTOPK_DIST_ND, DRTOPK_DIST_CD };
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

/* ---- the sweep ---------------------------------------------------------- */

static int ceil_log2_alpha_max(uint64_t n)
{
    int hi = drtopk_ilog2_ceil(n);
    return hi > DRTOPK_ALPHA_MAX ? DRTOPK_ALPHA_MAX : hi;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int sweep_ks(const options *o, uint64_t n, uint64_t *ks)
{
    int nks = 0;
    if (o->nk) {
        for (int i = 0; i < o->nk; ++i)
            if (o->k[i] <= n)
                ks[nks++] = o->k[i];
    } else {
        for (uint64_t k = 1; k <= DEFAULT_K_MAX && k <= n / DEFAULT_K_FRACTION && nks < MAX_LIST; k <<= K_STEP_LOG2)
            ks[nks++] = k;
    }
    qsort(ks, (size_t)nks, sizeof *ks, cmp_u64);
    int nuniq = 0;
    for (int i = 0; i < nks; ++i)
        if (nuniq == 0 || ks[i] != ks[nuniq - 1])
            ks[nuniq++] = ks[i];
    return nuniq;
}

/* The dr- variants swept at size n: the span around Rule 4's alpha
 * (ALPHA_SPAN_WHOLE: every alpha) in *span, the betas in betas[MAX_LIST];
 * returns the beta count. */
static int dr_variants(const options *o, uint64_t n, int *span, int *betas)
{
    if (o->small_n_cut && n < (1ull << QUICK_SMALL_N_LOG2)) {
        *span = QUICK_SMALL_N_ALPHA_SPAN;
        betas[0] = QUICK_SMALL_N_BETA;
        return 1;
    }
    *span = o->alpha_span;
    if (o->nbeta) {
        memcpy(betas, o->beta, (size_t)o->nbeta * sizeof *betas);
        return o->nbeta;
    }
    int nb = 0;
    for (int b = 1; b <= (o->full ? FULL_BETA_MAX : QUICK_BETA_MAX); ++b)
        betas[nb++] = b;
    return nb;
}

/* A problem, alpha and beta any plan of the library accepts: what the probe
 * below asks about is the key type and the algorithm alone. */
#define PROBE_N (1u << 12)
#define PROBE_ALPHA 4
#define PROBE_BETA 1

/* Whether the library runs algorithm a on key type t on this backend: its
 * workspace query refuses what it does not (on CUDA the pipeline and most
 * standalone algorithms of 64-bit keys) before any data exists.  With
 * o->probe_algos (the default algorithm lists) the sweep leaves the others
 * out; an --algo list is measured as given. */
static int library_runs(const options *o, drtopk_dtype t, const algo_entry *a)
{
    if (!o->probe_algos)
        return 1;
    drtopk_problem p = { .backend = o->backend, .dtype = t, .order = DRTOPK_LARGEST, .n = PROBE_N, .k = 1 };
    drtopk_plan plan;
    size_t bytes;
    drtopk_status st = a->delegate ? drtopk_plan_explicit(&plan, &p, a->algo, PROBE_ALPHA, PROBE_BETA,
                                                          DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT)
                                   : drtopk_plan_explicit(&plan, &p, a->algo, 0, 0, 0);
    if (st == DRTOPK_OK)
        st = drtopk_select_workspace(&p, &plan, &bytes);
    return st != DRTOPK_ERR_UNSUPPORTED;
}

/* Name the (key type, algorithm) pairs library_runs leaves out, on one line. */
static void report_left_out(const options *o)
{
    int any = 0;
    for (int t = 0; t < o->ndtype; ++t)
        for (int a = 0; a < o->nalgo; ++a)
            if (!library_runs(o, o->dtype[t], &o->algo[a])) {
                printf("%s%s %s", any ? ", " : "tuner: not swept (the library does not run them on this backend): ",
                       drtopk_dtype_name(o->dtype[t]), o->algo[a].label);
                any = 1;
            }
    if (any)
        printf("\n");
}

/* Every configuration the options ask for, in dataset-major order so that
 * each data set is generated once, and per algorithm by increasing k so that
 * the skip rule (--skip-after-s) sees the smaller k first. */
static config *enumerate(const options *o, size_t *count)
{
    size_t cap = 1024, cnt = 0;
    config *c = malloc(cap * sizeof *c);
    if (!c)
        return NULL;
    for (int t = 0; t < o->ndtype; ++t)
    for (int d = 0; d < o->ndist; ++d)
    for (int ni = 0; ni < o->nn; ++ni) {
        uint64_t n = o->n[ni];
        uint64_t ks[MAX_LIST];
        int nks = sweep_ks(o, n, ks);
        /* Betas of the delegate pipeline; standalone algorithms get one
         * config with beta (and alpha) 0. */
        int span, betas[MAX_LIST];
        int nbetas = dr_variants(o, n, &span, betas);
        static const int standalone_beta[] = { 0 };
        char runs[MAX_LIST];
        for (int a = 0; a < o->nalgo; ++a)
            runs[a] = (char)library_runs(o, o->dtype[t], &o->algo[a]);
        for (int a = 0; a < o->nalgo; ++a)
        for (int ki = 0; ki < nks && runs[a]; ++ki) {
            int lo = 0, hi = 0;
            const int *bl = standalone_beta;
            int nb = 1;
            if (o->algo[a].delegate) {
                int pred = drtopk_rule4_alpha(n, ks[ki], DRTOPK_RULE4_CONST_DEFAULT);
                int whole = span == ALPHA_SPAN_WHOLE;
                hi = ceil_log2_alpha_max(n);
                lo = whole ? DRTOPK_ALPHA_MIN : pred - span;
                if (!whole && pred + span < hi)
                    hi = pred + span;
                if (lo < DRTOPK_ALPHA_MIN)
                    lo = DRTOPK_ALPHA_MIN;
                bl = betas;
                nb = nbetas;
            }
            for (int al = lo; al <= hi; ++al)
            for (int bi = 0; bi < nb; ++bi)
            for (int warp = 0; warp <= (o->algo[a].delegate && span != 0 && al >= TUNED_BUILD_ALPHA_MIN &&
                                        al <= DRTOPK_SHARED_DELEGATE_MAX_ALPHA); ++warp) {
                int b = bl[bi];
                if (b > 0 && (uint64_t)b > (1ull << al))
                    continue;           /* more delegates than subrange elements */
                if (cnt == cap) {
                    config *g = realloc(c, 2 * cap * sizeof *c);
                    if (!g) {
                        free(c);
                        return NULL;
                    }
                    c = g;
                    cap *= 2;
                }
                c[cnt++] = (config){ t, d, ni, a, ks[ki], al, b, warp };
            }
        }
    }
    *count = cnt;
    return c;
}

/* ---- machine identity ---------------------------------------------------- */

static int identify(const options *o, drtopk_store_machine *mach, int measure_gpu)
{
    if (o->backend == DRTOPK_BACKEND_CPU) {
        drtopk_store_cpu_machine(mach);
        return 0;
    }
    drtopk_device_info info;
    drtopk_status st = drtopk_dev_select(o->gpu);
    if (st == DRTOPK_OK)
        st = drtopk_dev_info(o->gpu, &info);
    if (st != DRTOPK_OK) {
        fprintf(stderr, "tuner: GPU %d not usable: %s%s\n", o->gpu, drtopk_status_string(st),
                st == DRTOPK_ERR_NO_BACKEND ? " (this build has no CUDA; use --backend cpu)" : "");
        return -1;
    }
    memset(mach, 0, sizeof *mach);
    snprintf(mach->uuid, sizeof mach->uuid, "%s", info.uuid);
    snprintf(mach->name, sizeof mach->name, "%s", info.name);
    mach->backend = "cuda";
    mach->cc_major = info.cc_major;
    mach->cc_minor = info.cc_minor;
    mach->sm_count = info.sm_count;
    mach->mem_bytes = info.mem_bytes;
    mach->l2_bytes = info.l2_bytes;
    mach->driver_version = info.driver_version;
    mach->runtime_version = info.runtime_version;
    if (!measure_gpu)
        return 0;
    void *buf = NULL;
    double ms = 0;
    if (drtopk_dev_alloc(&buf, BW_ELEMS * sizeof(uint32_t)) == DRTOPK_OK) {
        if (drtopk_dev_generate(buf, BW_ELEMS, DRTOPK_DIST_UD, DRTOPK_U32, o->seed, NULL) == DRTOPK_OK &&
            drtopk_dev_read_ms(buf, BW_ELEMS * sizeof(uint32_t), BW_REPS, &ms) == DRTOPK_OK && ms > 0)
            mach->read_gbps = (double)BW_ELEMS * sizeof(uint32_t) / (ms * 1e6);
        drtopk_dev_free(buf);
    }
    if (drtopk_microbench_cycles(o->gpu, &mach->c_global, &mach->c_shfl) != DRTOPK_OK)
        mach->c_global = mach->c_shfl = 0;
    fprintf(stderr, "tuner: %s (%s), %d SMs, read %.0f GB/s, C_global %.1f cycles, C_shfl %.1f cycles\n",
            mach->name, mach->uuid, mach->sm_count, mach->read_gbps, mach->c_global, mach->c_shfl);
    return 0;
}

/* ---- the skip rule: stop an algorithm where one call is too slow ---------- */

/* The prefix of the error text of a config the rule skipped; it is stored with
 * status 'unsupported' (the schema has no 'skipped' status) and found by it. */
#define SKIPPED_PREFIX "skipped: "

typedef struct {
    uint64_t k;                 /* smallest k whose call was too slow; 0: none */
    double ms;                  /* that call's median                          */
} skip_mark;

/* One mark per (dtype, dist, n, algorithm). */
static size_t skip_slot(const options *o, int dtype, int dist, int n, int algo)
{
    return (((size_t)dtype * (size_t)o->ndist + (size_t)dist) * (size_t)o->nn + (size_t)n) *
           (size_t)o->nalgo + (size_t)algo;
}

static void mark_slow(skip_mark *m, uint64_t k, double ms)
{
    if (m->k == 0 || k < m->k) {
        m->k = k;
        m->ms = ms;
    }
}

typedef struct {
    const options *o;
    int dtype;
    skip_mark *marks;
} skip_seed;

/* Slow standalone measurements of earlier runs at this commit mark their
 * slots too, so that a resumed sweep skips what the interrupted one would. */
static int seed_skip(const drtopk_store_point *pt, void *ctx)
{
    const skip_seed *ss = ctx;
    const options *o = ss->o;
    if (pt->beta != 0 || !(pt->median_ms > o->skip_after_ms))
        return 0;
    int d = 0, n = 0, a = 0;
    while (d < o->ndist && strcmp(dist_label(o, o->dist[d]), pt->dist))
        ++d;
    while (n < o->nn && o->n[n] != pt->n)
        ++n;
    while (a < o->nalgo && (o->algo[a].delegate || strcmp(o->algo[a].label, pt->algorithm)))
        ++a;
    if (d < o->ndist && n < o->nn && a < o->nalgo)
        mark_slow(&ss->marks[skip_slot(o, ss->dtype, d, n, a)], pt->k, pt->median_ms);
    return 0;
}

/* ---- main ----------------------------------------------------------------- */

/* The store key of a config, with the flags of the plan it is measured with. */
void config_key(const options *o, const config *c, drtopk_store_config *key)
{
    fill_key(o, c, key, sweep_flags(o, c));
}

static void join_argv(int argc, char **argv, char *out, size_t len)
{
    size_t at = 0;
    out[0] = 0;
    for (int i = 0; i < argc && at + 1 < len; ++i)
        at += (size_t)snprintf(out + at, len - at, "%s%s", i ? " " : "", argv[i]);
}

double tuner_deadline_ms;

int tuner_should_stop(void)
{
    return tuner_stop_signal || (tuner_deadline_ms > 0 && drtopk_now_ms() >= tuner_deadline_ms);
}

void tuner_progress(size_t done, size_t total, double t0, const char *what, int last)
{
    static double last_plain;
    static int tty = -1;
    if (tty < 0)
        tty = isatty(STDERR_FILENO);
    double now = drtopk_now_ms(), el = (now - t0) / MS_PER_S;
    double eta = done ? el / (double)done * (double)(total - done) : 0;
    if (tty) {
        fprintf(stderr, "\r[%zu/%zu] %.0f s elapsed, ETA %.0f s  %-60.60s", done, total, el, eta, what);
        if (last)
            fputc('\n', stderr);
    } else if (last || now - last_plain >= PLAIN_PROGRESS_S * MS_PER_S) {
        fprintf(stderr, "[%zu/%zu] %.0f s elapsed, ETA %.0f s  %s\n", done, total, el, eta, what);
        last_plain = now;
    }
    fflush(stderr);
}

int main(int argc, char **argv)
{
    options o;
    if (parse_args(argc, argv, &o) != 0) {
        fputs("tuner: see 'tuner --help' for the options\n", stderr);
        return EXIT_USAGE;
    }
    if (o.emit_table)
        return emit_table(o.db, o.emit_table) ? EXIT_USAGE : 0;
    char err[DRTOPK_STORE_ERR_LEN];
    drtopk_store *db;
    if (drtopk_store_open(o.db, 0, &db, err, sizeof err) != DRTOPK_OK) {
        fprintf(stderr, "tuner: %s\n", err);
        return EXIT_USAGE;
    }
    if (o.migrate) {
        printf("%s: schema version %d\n", o.db, drtopk_store_version(db));
        drtopk_store_close(db);
        return 0;
    }
    if (o.merge) {
        drtopk_store_merge_stats ms;
        if (drtopk_store_merge(db, o.merge, &ms) != DRTOPK_OK) {
            fprintf(stderr, "tuner: %s\n", drtopk_store_errmsg(db));
            drtopk_store_close(db);
            return EXIT_USAGE;
        }
        printf("merged %s into %s: %d machines, %d runs, %d measurements, %d fits, %d choices added; "
               "%d peer measurements added; %d multi-GPU runs, %d counters, %d held-out checks added; "
               "%d batch measurements, %d batch choices added\n",
               o.merge, o.db, ms.machines_added, ms.runs_added, ms.measurements_added, ms.fits_added,
               ms.choices_added, ms.peers_added, ms.multi_added, ms.counters_added, ms.checks_added,
               ms.batch_added, ms.batch_choices_added);
        drtopk_store_close(db);
        return 0;
    }
    if (o.import_peers) {
        char args[4096];
        import_peers_stats ps;
        join_argv(argc, argv, args, sizeof args);
        if (import_peers(db, o.import_peers, DRTOPK_GIT_COMMIT, args, &ps, err, sizeof err) != 0) {
            fprintf(stderr, "tuner: %s\n", err);
            drtopk_store_close(db);
            return EXIT_USAGE;
        }
        printf("imported %s into %s: %d lines, %d peer measurements added, %d already stored "
               "(%d skipped peers, %d peer errors, %d failed the peer's check)\n",
               o.import_peers, o.db, ps.lines, ps.added, ps.present, ps.skipped, ps.errors,
               ps.unverified);
        drtopk_store_close(db);
        return ps.errors || ps.unverified ? EXIT_FAILURES : 0;
    }

    if (o.batch && o.fit_only) {      /* every stored machine and commit: no GPU to identify */
        int rc = batch_redecide(db);
        drtopk_store_close(db);
        return rc;
    }
    drtopk_store_machine mach;
    int64_t machine_id, run_id;
    const char *commit = DRTOPK_GIT_COMMIT;
    char args[4096];
    join_argv(argc, argv, args, sizeof args);
    if (identify(&o, &mach, !o.fit_only && !o.bmw && !o.import_counters) != 0) {
        drtopk_store_close(db);
        return EXIT_USAGE;
    }
    if (drtopk_store_put_machine(db, &mach, &machine_id) != DRTOPK_OK) {
        fprintf(stderr, "tuner: %s\n", drtopk_store_errmsg(db));
        drtopk_store_close(db);
        return EXIT_RUNTIME;
    }
    if (o.fit_only) {
        int rc = fit_and_store(&o, db, machine_id, commit, &mach);
        drtopk_store_close(db);
        return rc ? EXIT_FAILURES : 0;
    }
    drtopk_store_tuning regret_tuning;
    if (regret_load_table(&o, &mach, &regret_tuning) != 0) {
        drtopk_store_close(db);
        return EXIT_USAGE;
    }
    if (drtopk_store_begin_run(db, machine_id, "tuner", args, commit, &run_id) != DRTOPK_OK) {
        fprintf(stderr, "tuner: %s\n", drtopk_store_errmsg(db));
        drtopk_store_close(db);
        return EXIT_RUNTIME;
    }

    if (o.batch) {
        on_signals();
        if (o.max_minutes > 0)
            tuner_deadline_ms = drtopk_now_ms() + o.max_minutes * MS_PER_MINUTE;
        int rc = batch_sweep(&o, db, machine_id, run_id, commit, &mach);
        drtopk_store_close(db);
        return tuner_stop_signal ? SIGNAL_EXIT_BASE + tuner_stop_signal : rc;
    }
    if (o.import_counters) {
        int stored = 0;
        int rc = import_counters(db, machine_id, run_id, commit, o.import_counters, &stored);
        drtopk_store_end_run(db, run_id, rc ? "failed" : "done");
        if (rc == 0)
            printf("tuner: imported %s into %s: %d counters of %s\n", o.import_counters, o.db, stored, mach.name);
        drtopk_store_close(db);
        return rc ? EXIT_USAGE : 0;
    }
    size_t total = 0;
    report_left_out(&o);
    config *cfgs = enumerate(&o, &total);
    if (!cfgs) {
        fprintf(stderr, "tuner: out of memory\n");
        return EXIT_USAGE;
    }
    if (total == 0) {
        fprintf(stderr, "tuner: the sweep is empty, nothing would be measured: %s\n",
                o.nk ? "every --k is larger than every --n"
                     : "the default k (powers of 4 up to n/4) needs n >= 4; give a larger --n or a --k list");
        drtopk_store_end_run(db, run_id, "failed");
        drtopk_store_close(db);
        return EXIT_USAGE;
    }
    if (o.bmw) {
        if (o.max_minutes > 0)
            tuner_deadline_ms = drtopk_now_ms() + o.max_minutes * MS_PER_MINUTE;
        int rc = bmw_sweep(&o, db, machine_id, run_id, commit, cfgs, total);
        drtopk_store_end_run(db, run_id, rc ? "failed" : tuner_should_stop() ? "time-limit" : "done");
        free(cfgs);
        drtopk_store_close(db);
        return rc ? EXIT_FAILURES : 0;
    }
    /* What is left to measure (resume), and the largest k per data set. */
    char *todo = calloc(total, 1);
    double *scratch = malloc((size_t)o.reps * SCRATCH_PER_REP * sizeof(double));
    if (!todo || !scratch) {
        fprintf(stderr, "tuner: out of memory for %zu configs of %d repetitions\n", total, o.reps);
        drtopk_store_end_run(db, run_id, "failed");
        drtopk_store_close(db);
        return EXIT_USAGE;
    }
    size_t ntodo = 0;
    for (size_t i = 0; i < total; ++i) {
        int found = 0;
        drtopk_store_config key;
        config_key(&o, &cfgs[i], &key);
        if (!o.force && drtopk_store_has(db, machine_id, commit, &key, &found) != DRTOPK_OK) {
            fprintf(stderr, "tuner: %s\n", drtopk_store_errmsg(db));
            return EXIT_RUNTIME;
        }
        todo[i] = !found;
        ntodo += !found;
    }
    printf("tuner: %s, commit %s, %zu configs in the sweep, %zu already measured, %zu to measure\n",
           mach.name, commit, total, total - ntodo, ntodo);
    fflush(stdout);
    size_t nslots = skip_slot(&o, o.ndtype, 0, 0, 0);
    skip_mark *marks = calloc(nslots ? nslots : 1, sizeof *marks);
    if (!marks) {
        fprintf(stderr, "tuner: out of memory\n");
        return EXIT_USAGE;
    }
    for (int t = 0; t < o.ndtype && !o.force; ++t) {
        skip_seed ss = { &o, t, marks };
        if (drtopk_store_each_point(db, machine_id, commit, drtopk_dtype_name(o.dtype[t]), seed_skip, &ss) != DRTOPK_OK) {
            fprintf(stderr, "tuner: %s\n", drtopk_store_errmsg(db));
            return EXIT_RUNTIME;
        }
    }

    on_signals();

    buffers b;
    buffers_init(&b);
    int tty = isatty(STDERR_FILENO);
    double t0 = drtopk_now_ms();
    if (o.max_minutes > 0)
        tuner_deadline_ms = t0 + o.max_minutes * MS_PER_MINUTE;
    size_t done = 0, failures = 0, errors = 0, unsupported = 0, skipped = 0, verified = 0, elsewhere = 0;
    const char *end_status = "done";
    int exit_code = 0;
    for (size_t i = 0; i < total; ++i) {
        if (!todo[i])
            continue;
        if (tuner_stop_signal) {
            end_status = "interrupted";
            exit_code = SIGNAL_EXIT_BASE + tuner_stop_signal;
            break;
        }
        if (tuner_deadline_ms > 0 && drtopk_now_ms() >= tuner_deadline_ms) {
            end_status = "time-limit";
            break;
        }
        const config *c = &cfgs[i];
        /* Concurrent tuners on this database share the sweep: a config
         * another live run measured or is measuring is left to it. */
        int mine = 0;
        drtopk_store_config key;
        config_key(&o, c, &key);
        if (drtopk_store_claim(db, machine_id, run_id, commit, &key, o.force, &mine) != DRTOPK_OK) {
            fprintf(stderr, "\ntuner: claiming a config: %s\n", drtopk_store_errmsg(db));
            end_status = "failed";
            exit_code = EXIT_RUNTIME;
            break;
        }
        if (!mine) {
            ++elsewhere;
            continue;
        }
        int standalone = !o.algo[c->algo].delegate;
        skip_mark *mark = &marks[skip_slot(&o, c->dtype, c->dist, c->n, c->algo)];
        uint64_t kmax = 0;
        for (size_t j = i; j < total && cfgs[j].dtype == c->dtype && cfgs[j].dist == c->dist && cfgs[j].n == c->n; ++j)
            if (todo[j] && cfgs[j].k > kmax)
                kmax = cfgs[j].k;
        drtopk_store_measurement m;
        memset(&m, 0, sizeof m);
        int skip = standalone && mark->k && c->k > mark->k;
        drtopk_status st = skip ? DRTOPK_OK
                                : buffers_dataset(&o, &b, o.dtype[c->dtype], o.dist[c->dist], o.n[c->n], kmax);
        drtopk_plan plan;
        drtopk_problem p = { .backend = o.backend, .dtype = o.dtype[c->dtype], .order = DRTOPK_LARGEST,
                             .n = o.n[c->n], .k = c->k };
        drtopk_status plan_st = make_plan(&o, c, &p, &plan);
        if (skip) {
            fill_key(&o, c, &m.cfg, 0);     /* a standalone plan has no flags */
            m.status = DRTOPK_MEAS_UNSUPPORTED;
            snprintf(m.error, sizeof m.error, SKIPPED_PREFIX "one call took %.3g s at k = %llu (limit %g s)",
                     mark->ms / MS_PER_S, (unsigned long long)mark->k, o.skip_after_ms / MS_PER_S);
        } else if (st == DRTOPK_OK && plan_st == DRTOPK_ERR_UNSUPPORTED) {
            m.cfg = key;                    /* dr-onepass, dr-fused: no pipeline stage */
            m.status = DRTOPK_MEAS_UNSUPPORTED;
            snprintf(m.error, sizeof m.error, "%s", drtopk_status_string(plan_st));
        } else if (st != DRTOPK_OK || plan_st != DRTOPK_OK) {
            m.cfg = key;
            m.status = DRTOPK_MEAS_ERROR;
            snprintf(m.error, sizeof m.error, "%s: %s", st != DRTOPK_OK ? "preparing the data set" : "the plan",
                     drtopk_status_string(st != DRTOPK_OK ? st : plan_st));
            if (st != DRTOPK_OK)
                buffers_release(&o, &b);
        } else {
            int do_verify = o.verify_every > 0 && done % (size_t)o.verify_every == 0;
            fill_key(&o, c, &m.cfg, plan.flags);
            measure_plan(&o, &plan, c->k, &b, do_verify, &m, scratch);
            if (standalone && m.status == DRTOPK_MEAS_OK && m.median_ms > o.skip_after_ms)
                mark_slow(mark, c->k, m.median_ms);
        }
        if (drtopk_store_begin(db) != DRTOPK_OK || drtopk_store_put(db, machine_id, run_id, commit, &m) != DRTOPK_OK ||
            drtopk_store_commit(db) != DRTOPK_OK) {
            fprintf(stderr, "\ntuner: storing a measurement: %s\n", drtopk_store_errmsg(db));
            end_status = "failed";
            exit_code = EXIT_RUNTIME;
            break;
        }
        ++done;
        char what[512];
        snprintf(what, sizeof what, "%s %s %s n=%llu k=%llu a=%d b=%d: %s", m.cfg.algorithm, m.cfg.dtype,
                 m.cfg.dist, (unsigned long long)m.cfg.n, (unsigned long long)m.cfg.k, m.cfg.alpha,
                 m.cfg.beta, m.status == DRTOPK_MEAS_OK ? "ok" : m.error);
        if (skip) {
            ++skipped;
        } else if (m.status == DRTOPK_MEAS_UNSUPPORTED) {
            ++unsupported;
        } else if (m.status == DRTOPK_MEAS_ERROR) {
            ++errors;
            fprintf(stderr, "%stuner: FAILED %s\n", tty ? "\n" : "", what);
        }
        if (m.verified) {
            ++verified;
            if (!m.verify_ok) {
                ++failures;
                fprintf(stderr, "%stuner: WRONG RESULT %s: %s\n", tty ? "\n" : "", what, m.verify_error);
            }
        }
        tuner_progress(done + elsewhere, ntodo, t0, what, 0);
    }
    tuner_progress(done + elsewhere, ntodo, t0, end_status, 1);
    buffers_release(&o, &b);
    free(scratch);
    free(marks);
    free(todo);
    free(cfgs);
    /* --regret measures on in this run: it ends after that */
    const int regret_next = o.regret && exit_code == 0 && !strcmp(end_status, "done");
    if (!regret_next && drtopk_store_end_run(db, run_id, end_status) != DRTOPK_OK)
        fprintf(stderr, "tuner: %s\n", drtopk_store_errmsg(db));
    printf("tuner: %s: %zu measured (%zu unsupported, %zu skipped, %zu errors), %zu verified, %zu wrong results, "
           "%zu left to a concurrent tuner, %.1f s\n", end_status, done, unsupported, skipped, errors, verified,
           failures, elsewhere, (drtopk_now_ms() - t0) / MS_PER_S);
    if (!strcmp(end_status, "time-limit"))
        printf("tuner: time budget reached; run the same command again to go on\n");
    fflush(stdout);
    if (regret_next) {
        regret_outcome ro;
        if (regret_run(&o, db, machine_id, run_id, commit, &mach, &regret_tuning, &ro) != 0 ||
            !strcmp(ro.end_status, "failed"))
            exit_code = EXIT_USAGE;
        else if (!strcmp(ro.end_status, "interrupted"))
            exit_code = SIGNAL_EXIT_BASE + tuner_stop_signal;
        else if (ro.failed)
            exit_code = EXIT_FAILURES;
        if (drtopk_store_end_run(db, run_id, ro.end_status) != DRTOPK_OK)
            fprintf(stderr, "tuner: %s\n", drtopk_store_errmsg(db));
    } else if (exit_code == 0 && !strcmp(end_status, "done") && o.input) {
        printf("tuner: %s measured on %s (no Rule 4 fit from real data)\n", o.input_name, o.input);
    } else if (exit_code == 0 && !strcmp(end_status, "done")) {
        int rc = o.compare ? compare_plans(&o, db, machine_id, commit, &mach)
                           : fit_and_store(&o, db, machine_id, commit, &mach);
        if (rc == FIT_INTERRUPTED && tuner_stop_signal)
            exit_code = SIGNAL_EXIT_BASE + tuner_stop_signal;
        else if (rc == FIT_INTERRUPTED)
            printf("tuner: time budget reached during the held-out check; run the same command again to go on\n");
        else if (rc != 0)
            exit_code = EXIT_FAILURES;
    }
    drtopk_store_tuning_free(&regret_tuning);
    drtopk_store_close(db);
    if (exit_code == 0 && (failures || errors))
        exit_code = EXIT_FAILURES;
    return exit_code;
}
