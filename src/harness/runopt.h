/*
 * runopt.h -- what `drtopk run` (src/cli/cli.c) and `drtopk-mpi` (src/mpi,
 * paper section 5.4) share: the run's options and their parsing, error
 * messages and exit codes, the plan built from the options (Rule 4 / the
 * tuned table, paper section 5.2), the small JSON/text helpers, the sorted
 * check and the --output writer.  Messages start with `run_prog`.
 */
#ifndef DRTOPK_RUNOPT_H
#define DRTOPK_RUNOPT_H
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include "drtopk.h"
#include "device.h"
#include "gen.h"
#include "util.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { EXIT_RUNTIME = 1, EXIT_USAGE = 2, EXIT_VERIFY = 3 };

#define REPS_MAX 100000           /* guards against a typo turning into hours of runs */
#define GPU_INDEX_MAX 1023        /* more GPUs than any host has */
#define DEFAULT_SEED 1

/* The program named in every message ("drtopk", "drtopk-mpi"). */
extern const char *run_prog;
/* Where messages go: stderr when NULL (drtopk-mpi collects a rank's messages
 * and prints the first failing rank's once). */
extern FILE *run_errout;

/* ---- messages: one line on stderr; each returns its exit code ------------ */
int usage_error(const char *fmt, ...);
int runtime_error(const char *fmt, ...);
/* A library call that failed: its status and, when it left one, its message. */
int api_error(const char *what, drtopk_status st);
/* 0 when `bytes` of host memory for `what` are available (util.h's
 * dh_host_mem_check), else the runtime error saying how much is. */
int host_room(uint64_t bytes, const char *what);
void progress(int quiet, const char *fmt, ...);

/* ---- option parsing ------------------------------------------------------ */
typedef struct {
    const char *name;           /* without the leading "--" */
    int id;
    int takes_value;
} opt_spec;

typedef int (*opt_handler)(void *ctx, int id, const char *opt, const char *val);

enum {
    R_N, R_K, R_DIST, R_SEED, R_DTYPE, R_ALGO, R_ALPHA, R_BETA, R_CONST, R_SMALLEST, R_BACKEND,
    R_GPU, R_REPS, R_WARMUP, R_VERIFY, R_JSON, R_OUTPUT, R_INPUT, R_SORTED, R_DETERMINISTIC, R_NO_FILTER,
    R_NO_SKIP, R_NO_SHARED, R_SHOW, R_TIMING, R_HELP
};

typedef struct {
    uint64_t n, k, seed;
    int have_n, have_k, have_seed, have_dist, have_dtype;
    dh_dist dist;
    drtopk_dtype dtype;
    drtopk_order order;
    const char *algo_text;
    drtopk_algo algo;
    int delegate;
    int alpha, beta, have_alpha, have_beta, have_const;
    double rule4_const;
    int no_filter, no_skip, no_shared, sorted, deterministic;
    int have_backend;
    drtopk_backend backend;
    int gpu, reps, warmup, have_reps, have_warmup, have_gpu;
    dh_timing timing;           /* --timing; its default is the command's (have_timing 0) */
    int have_timing;
    int verify, json, help;
    uint64_t show;              /* --show: result elements printed, best first (text mode) */
    const char *output, *input;
} run_cfg;

/* The options of a run, NULL-terminated, and their handler (ctx: run_cfg). */
extern const opt_spec run_specs[];
int run_option(void *ctx, int id, const char *opt, const char *val);
/* The option part of `drtopk run --help` (after the usage lines). */
extern const char run_help_options[];

/* Walks argv: every argument must be a known --option, its value the next
 * argument or after '='.  The handler returns an exit code; parsing stops at
 * the first non-zero one.  cmd names the subcommand in messages (NULL: none). */
int parse_options(const char *cmd, const opt_spec *specs, int argc, char **argv, opt_handler handle,
                  void *ctx);
int parse_size(const char *opt, const char *val, uint64_t *out);
int parse_int_range(const char *opt, const char *val, int lo, int hi, int *out);
int parse_dist(const char *val, dh_dist *out);
int parse_dtype(const char *val, drtopk_dtype *out);

/* Options that only make sense together, and the input file: read whole into
 * *host_v, or (host_v NULL) only sized, for a program that reads its slice. */
int resolve_inputs(run_cfg *c, void **host_v);
/* Applies the command line on top of drtopk_plan_auto_flags (with the tuning of the
 * GPU `dev`, or of this host for the CPU backend) or drtopk_plan_rule4
 * (--const); *tuning_db gets the database the tuning came from. */
int build_plan(const run_cfg *c, const drtopk_problem *p, const dh_device_info *dev, const char **tuning_db,
               drtopk_plan *plan);

/* ---- output -------------------------------------------------------------- */
void json_string(FILE *f, const char *s);
void json_number_or_null(FILE *f, double x);
/* `, "key": x` (null where not finite). */
void json_field(FILE *f, const char *key, double x);
/* "[x0, x1, ...]": n numbers (null where not finite). */
void json_numbers(FILE *f, const double *x, int n);
const char *on_off(unsigned flags, unsigned bit);
const char *json_bool(int b);
/* "1073741824 (2^30)" for powers of two, else the plain number. */
void size_text(char *buf, size_t len, uint64_t x);
/* --sorted promises best first: 1 when vals (k of them) are, else 0 and why. */
int check_sorted(const drtopk_problem *p, const void *vals, char *why, size_t len);
/* Write count raw arrays of n elements through temporary files, then rename
 * them together: either every file is complete or none is touched.  what
 * names the option in messages. */
int write_files(const char *what, int count, const char *const *paths, const void *const *data,
                const size_t *elem_size, uint64_t n);
/* --output: PREFIX.values (k elements) and PREFIX.indices (k uint64), atomically. */
int write_outputs(const char *prefix, const drtopk_problem *p, const void *vals, const uint64_t *idx);

#ifdef __cplusplus
}
#endif
#endif
