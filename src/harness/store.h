/*
 * store.h -- the SQLite results store (db/schema.sql): opening with WAL, a busy
 * timeout and foreign keys, versioned migrations, inserts of machines, runs,
 * measurements (with Rule 4's alpha and plan flags at the paper's const:
 * measurements.rule4_alpha, rule4_flags), Rule 4 fits (paper section 5.2),
 * plan choices and the modern peers' measurements, loading a machine's
 * tuning table for drtopk_plan_auto, the automatic plan's regret over the
 * forced plans (tuner --regret), and merging of databases from other
 * machines.
 * Concurrent tuners share a sweep through claims.  Errors come back as
 * DRTOPK_ERR_IO with a readable message in `err`.
 */
#ifndef DRTOPK_STORE_H
#define DRTOPK_STORE_H
#include <stddef.h>
#include <stdint.h>
#include "drtopk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The last "-- @migration N" block of db/schema.sql. */
#define DRTOPK_STORE_SCHEMA_VERSION 12
/* Used when DRTOPK_DB is unset; relative to the working directory. */
#define DRTOPK_STORE_DEFAULT_PATH "db/results.sqlite"
#define DRTOPK_STORE_ERR_LEN 512

typedef struct dh_store dh_store;

enum {
    DRTOPK_STORE_READONLY = 1u << 0,  /* never create or migrate              */
    DRTOPK_STORE_NO_CREATE = 1u << 1  /* the file must already exist           */
};

/* Open (creating unless flags say otherwise) and migrate to the current
 * version; READONLY opens never write and take an older version as it is.
 * A database newer than this build, a file that is not SQLite or not a
 * drtopk database, a damaged one (its tables are not what its schema_version
 * says), a missing directory, a directory or other non-regular file (never
 * opened: a FIFO would block), and a read-only file opened for writing are
 * refused with a message in err. */
drtopk_status dh_store_open(const char *path, unsigned flags, dh_store **out,
                            char *err, size_t err_len);
/* As dh_store_open, but migrate no further than max_version (tests build
 * an older database with it). */
drtopk_status dh_store_open_version(const char *path, unsigned flags, int max_version,
                                    dh_store **out, char *err, size_t err_len);
void dh_store_close(dh_store *s);
const char *dh_store_errmsg(const dh_store *s);   /* last error      */
int dh_store_version(const dh_store *s);           /* schema version  */
/* DRTOPK_DB if set and non-empty, else DRTOPK_STORE_DEFAULT_PATH. */
const char *dh_store_default_path(void);

drtopk_status dh_store_begin(dh_store *s);   /* BEGIN IMMEDIATE */
drtopk_status dh_store_commit(dh_store *s);
drtopk_status dh_store_rollback(dh_store *s);

typedef struct {
    char uuid[64];
    char name[256];
    const char *backend;        /* "cpu" or "cuda"                              */
    int cc_major, cc_minor, sm_count;   /* 0 = unknown (stored as NULL)         */
    uint64_t mem_bytes, l2_bytes;
    double read_gbps;           /* <= 0: unknown                                */
    int driver_version, runtime_version;
    double c_global, c_shfl;    /* microbenchmarked cycles; <= 0: unknown       */
} dh_store_machine;

/* Insert or update (by uuid) the machine; known fields overwrite, unknown ones
 * (0 / <= 0) keep what the database has.  *id gets its row id. */
drtopk_status dh_store_put_machine(dh_store *s, const dh_store_machine *m, int64_t *id);
/* Identity of this host for the CPU backend: uuid "cpu:<hostname>", name the
 * CPU model. */
void dh_store_cpu_machine(dh_store_machine *m);

/* Records this process (pid, host) in the run; first marks as 'killed' the
 * runs of this host still 'running' whose process is gone.  With the
 * environment variable DRTOPK_STORE_CLEAN=1 (reference runs) a git_commit
 * ending in "-dirty" is refused: INVALID_ARGUMENT, dh_store_errmsg says why. */
#define DRTOPK_STORE_CLEAN_ENV "DRTOPK_STORE_CLEAN"
drtopk_status dh_store_begin_run(dh_store *s, int64_t machine_id, const char *program,
                                 const char *argv, const char *git_commit, int64_t *run_id);
/* Mark the 'running' runs of this host whose process is gone (kill(pid, 0)
 * fails with ESRCH) as 'killed'; *reaped (may be NULL) gets how many. */
drtopk_status dh_store_reap_runs(dh_store *s, int *reaped);
/* status: "done", "interrupted", "time-limit" or "failed". */
drtopk_status dh_store_end_run(dh_store *s, int64_t run_id, const char *status);

/* The algorithm label of a measurement of drtopk_plan_auto's plan (tuner
 * --regret: "auto-builtin", "auto-tuned") starts with this; every other row
 * is a forced plan.  Queries that pick forced plans (the fit's points, the
 * best measured plan, the algorithms a tuning measured) leave these rows out. */
#define DRTOPK_STORE_AUTO_PREFIX "auto-"
/* The label of the fastest forced plan's second timing, taken right beside
 * the automatic plan's (tuner --regret: "auto-builtin-ref"): the label of the
 * automatic plan's row and this suffix.  A regret compares two times of one
 * moment: the card's clocks drift by 10% and more over a sweep of minutes. */
#define DRTOPK_STORE_REF_SUFFIX "-ref"

/* The unique key of a measurement (besides machine and commit). */
typedef struct {
    char algorithm[32];         /* "dr-radix", "bucket", ...                    */
    char first_algo[32];        /* "" for standalone                            */
    char second_algo[32];
    char dtype[8];
    char dist[48];              /* "UD", ...; a real data set's name (tuner --input) */
    uint64_t seed, n, k;        /* seed 0 with a data set's name: read from a file */
    int alpha, beta;            /* 0 for standalone                             */
    unsigned flags;
    char order[16];             /* "largest" / "smallest"                       */
} dh_store_config;

typedef enum { DRTOPK_MEAS_OK = 0, DRTOPK_MEAS_UNSUPPORTED, DRTOPK_MEAS_ERROR } dh_meas_status;

typedef struct {
    dh_store_config cfg;
    dh_meas_status status;
    char error[256];            /* when status != OK                            */
    int reps;
    const double *reps_ms;      /* reps values (may be NULL when reps == 0)     */
    double median_ms, min_ms, max_ms;
    double ms_delegate, ms_first, ms_concat, ms_second;   /* per-stage medians  */
    uint64_t delegate_len, first_selected, concat_len, scanned_subranges;
    int verified;               /* checked against the reference                */
    int verify_ok;
    char verify_error[256];
    const char *timing;         /* "gpu" or "call" (util.h); NULL: "call"       */
} dh_store_measurement;

/* Is this configuration already measured on (machine, commit)?  Only status
 * ok and unsupported count: an error is measured again. */
drtopk_status dh_store_has(dh_store *s, int64_t machine_id, const char *git_commit,
                           const dh_store_config *c, int *found);
/* Claim a configuration for run_id so that concurrent tuners share a sweep:
 * one short write transaction.  *claimed = 0 when it is measured already
 * (with force: by another run that is still going) or claimed by another
 * 'running' run within the last hour; else the claim is (taken over and)
 * this run's, and *claimed = 1.  Runs of this host whose process is gone
 * are marked 'killed' first, so their claims are taken over at once. */
drtopk_status dh_store_claim(dh_store *s, int64_t machine_id, int64_t run_id, const char *git_commit,
                             const dh_store_config *c, int force, int *claimed);
/* Insert, replacing an earlier row of the same key (--force), and release
 * the key's claim. */
drtopk_status dh_store_put(dh_store *s, int64_t machine_id, int64_t run_id,
                           const char *git_commit, const dh_store_measurement *m);

/* One successful (status ok, not failed verification) measurement, as the fit
 * reads it. */
typedef struct {
    const char *algorithm;
    const char *dist;
    int beta, alpha;
    unsigned flags;             /* DRTOPK_* plan flags (the delegate build)     */
    uint64_t n, k;
    double median_ms;
} dh_store_point;
/* Calls cb for every usable measurement of a forced plan (not
 * DRTOPK_STORE_AUTO_PREFIX) of (machine, commit, dtype) with the default plan
 * flags, with or without the shared/staged delegate build (standalone rows
 * have none), ordered by algorithm, beta, dist, n, k, alpha, flags.  A
 * non-zero return of cb stops. */
drtopk_status dh_store_each_point(dh_store *s, int64_t machine_id, const char *git_commit,
                                  const char *dtype,
                                  int (*cb)(const dh_store_point *pt, void *ctx), void *ctx);

typedef struct {
    char dtype[8];
    char algorithm[32];
    int beta;
    double const_time, const_lsq, const_theory;   /* const_theory <= 0: unknown */
    double mean_slowdown, worst_slowdown;
    int points;
} dh_store_fit;
drtopk_status dh_store_put_fit(dh_store *s, int64_t machine_id, const char *git_commit,
                               const dh_store_fit *f);

/* One cell of the decision table (db/schema.sql migration 4). */
typedef enum { DRTOPK_CHOICE_UNCHECKED = 0, DRTOPK_CHOICE_KEPT, DRTOPK_CHOICE_DROPPED } dh_choice_status;
typedef struct {
    int log2n_min, log2n_max;
    int log2k_min, log2k_max;
    char algorithm[32];
    int beta;
    double rule4_const;
    int shared_build_max_alpha;     /* 0: the library's default             */
    double mean_slowdown, worst_slowdown;
    int points;
    dh_choice_status status;
} dh_store_choice;
/* Replace every choice of (machine, dtype) with these. */
drtopk_status dh_store_put_choices(dh_store *s, int64_t machine_id, const char *git_commit,
                                   const char *dtype, const dh_store_choice *c, int count);

/* A check of a tuned plan against the default one at one point (the checks
 * table): held-out points of the tuner's validation, and `tuner --compare`. */
typedef struct {
    char kind[8];                   /* "heldout" or "compare"                  */
    char dtype[8], dist[8];
    uint64_t seed, n, k;
    char tuned_algorithm[32];
    int tuned_alpha, tuned_beta;
    unsigned tuned_flags;
    int default_alpha, default_beta;
    unsigned default_flags;
    double default_ms[2], tuned_ms[2];  /* two measurements apart in time     */
    double best_ms;                 /* <= 0: not known                         */
    char best_config[96];
} dh_store_check;
drtopk_status dh_store_put_check(dh_store *s, int64_t machine_id, const char *git_commit,
                                 const dh_store_check *c);
/* The stored check with c's key (kind .. tuned_flags) into *c; *found = 0
 * when there is none. */
drtopk_status dh_store_get_check(dh_store *s, int64_t machine_id, const char *git_commit,
                                 dh_store_check *c, int *found);
/* The fastest 'ok' measurement of a forced delegate pipeline (not
 * DRTOPK_STORE_AUTO_PREFIX) at (dtype, dist, seed, n, k) on this machine and
 * commit: its median in *ms and its configuration in words; *found = 0 when
 * there is none. */
drtopk_status dh_store_best(dh_store *s, int64_t machine_id, const char *git_commit,
                            const char *dtype, const char *dist, uint64_t seed, uint64_t n,
                            uint64_t k, double *ms, char *config, size_t config_len, int *found);
/* The fastest usable forced plan (not DRTOPK_STORE_AUTO_PREFIX) measured
 * with timing method `timing` at point's (dtype, dist, seed, n, k, order) on
 * this machine and commit: its configuration in *best (the point's fields
 * and the plan's algorithm, algorithms, alpha, beta, flags) and its median in
 * *ms; *found = 0 when there is none. */
drtopk_status dh_store_best_forced(dh_store *s, int64_t machine_id, const char *git_commit,
                                   const char *timing, const dh_store_config *point,
                                   dh_store_config *best, double *ms, int *found);
/* One point of the regret benchmark (tuner --regret): the latest usable
 * measurement of drtopk_plan_auto's plan labelled `label`, and as the best
 * plan the latest usable row labelled `label` DRTOPK_STORE_REF_SUFFIX (the
 * fastest forced plan timed beside it) or, where there is none, the fastest
 * usable forced plan measured at the same (dtype, dist, seed, n, k) on the
 * same machine and commit.  Usable: status 'ok', order largest, not failed
 * verification. */
typedef struct {
    char dtype[8];
    char dist[48];
    uint64_t seed, n, k;
    char auto_algorithm[40];        /* "dr-radix", "onepass", ...             */
    int auto_alpha, auto_beta;      /* 0 for a standalone plan                */
    unsigned auto_flags;
    double auto_ms;
    int has_best;                   /* 0: no forced plan measured here        */
    char best_algorithm[32];
    int best_alpha, best_beta;
    unsigned best_flags;
    double best_ms;
    double regret;                  /* auto_ms / min(auto_ms, best_ms); 1
                                       without a forced plan                   */
} dh_store_regret;
/* Calls cb for every point with a measurement labelled `label` on (machine,
 * commit), ordered by dtype, dist, seed, n, k; a non-zero return of cb
 * stops. */
drtopk_status dh_store_each_regret(dh_store *s, int64_t machine_id, const char *git_commit,
                                   const char *label, int (*cb)(const dh_store_regret *r, void *ctx),
                                   void *ctx);
/* Call fn with each GPU name (CUDA machines) whose decision table passed the
 * held-out check (choices 'kept' or 'dropped', not 'unchecked': an older
 * schema's choices never were), in name order; a non-zero return from fn
 * stops the walk. */
drtopk_status dh_store_each_tuned_gpu(dh_store *s, int (*fn)(const char *name, void *ctx),
                                      void *ctx);

/* ---- the tuning of a machine, for drtopk_plan_auto ----------------------
 * The library reads no database: programs load the tuning of the machine they
 * run on and pass &t.table to drtopk_plan_auto.  The memory is the struct's;
 * dh_store_tuning_free releases it. */
typedef struct {
    drtopk_tuning table;            /* count 0: nothing tuned for this machine   */
    drtopk_tuning_entry *entries;   /* owned; table.entries points here          */
    char machine_uuid[64];          /* the machine matched ("" when none)        */
    char gpu_name[256];             /* its name; table.gpu_name points here      */
} dh_store_tuning;

/* Load from the database at db_path (NULL: dh_store_default_path()) the
 * tuning of the machine with this uuid, else of the machine of this name
 * with the most decision cells, the most recently tuned among equals (name
 * may be NULL): for every dtype the tuner's
 * decision table (a 'dropped' cell as the default plan: const 3, beta 2,
 * radix; an older schema's per-k-range choices hold for any n), then a
 * catch-all entry with the fitted Rule 4 const of dr-radix (the beta nearest
 * 2), beta 2 and radix for every k and every n from the smallest that fit
 * measured (its variant's measurements at its commit) up.  No catch-all for
 * a dtype whose fit has no measurement there, or on which the machine
 * measured the standalone onepass: its decision table then weighs the
 * pipeline against onepass, and outside the table the library's own size
 * rules apply; table.algos_measured: the algorithms of the forced plans
 * measured on that machine with status 'ok' (a tuning never overrides the
 * untuned fused or onepass plan when they are not among them).  A database
 * (ENOENT) or machine that is not there gives an empty table and DRTOPK_OK; a database
 * that cannot be reached (no permission on its directory), is not a regular
 * file, or cannot be read (not a database, damaged, newer schema) gives
 * DRTOPK_ERR_IO, an empty table, and err names the path and the reason.  An
 * older schema is read as it is. */
drtopk_status dh_store_load_tuning(const char *db_path, const char *uuid, const char *name,
                                   dh_store_tuning *out, char *err, size_t err_len);
/* The same, from a machine whose sweep verified results against the host
 * reference and found none wrong, with only the decision cells a held-out
 * check kept: status 'kept' and a held-out point of that machine and dtype
 * stored inside the cell (a cell the check never measured, or a table
 * stored unchecked, is left out: there the library's plan without a table
 * runs).  What a table compiled into the library holds (tuner --emit-table). */
drtopk_status dh_store_load_checked_tuning(const char *db_path, const char *uuid, const char *name,
                                           dh_store_tuning *out, char *err, size_t err_len);
void dh_store_tuning_free(dh_store_tuning *t);
/* The table entry of choice c of dtype t, what drtopk_plan_auto runs for the
 * cell: a standalone onepass or fused cell with the library's default beta
 * and const (it has none), a pipeline cell as stored.  1, or 0 when c names
 * no plan an entry can hold (another standalone algorithm, an unknown name,
 * a beta, const or build out of range). */
int dh_store_choice_entry(drtopk_dtype t, const dh_store_choice *c, drtopk_tuning_entry *e);

/* ---- the modern peers (CUB DeviceTopK, torch.topk) ----------------------- */

/* The most recently added machine of this name and backend; *found = 0 when
 * there is none.  (Peer lines without a GPU uuid are matched this way.) */
drtopk_status dh_store_machine_by_name(dh_store *s, const char *name, const char *backend,
                                       int64_t *id, int *found);

typedef enum { DRTOPK_PEER_OK = 0, DRTOPK_PEER_SKIPPED, DRTOPK_PEER_ERROR } dh_peer_status;

/* One peer measurement.  A skipped peer has empty dist/dtype and zero
 * seed/n/k (its unique key is then the peer alone). */
typedef struct {
    char peer[32];              /* "cub_device_topk", "torch_topk"              */
    char peer_version[64];      /* CCCL / torch version; "" unknown             */
    char dist[16];
    char dtype[8];
    uint64_t seed, n, k;
    dh_peer_status status;
    char reason[256];           /* why skipped / the error                      */
    int reps;
    double median_ms, min_ms, max_ms;   /* status OK only                       */
    const char *reps_ms;        /* JSON array text, or NULL                     */
    int verified;               /* passed the peer's own O(n) check             */
    const char *timing;         /* "gpu" or "call" (util.h); NULL: "call"       */
} dh_store_peer;

/* Insert unless a row of the same key (machine, commit, peer, dist, dtype,
 * seed, n, k) exists; *added = 1 when inserted, 0 when it was there. */
drtopk_status dh_store_put_peer(dh_store *s, int64_t machine_id, int64_t run_id,
                                const char *git_commit, const dh_store_peer *p, int *added);

/* ---- multi-GPU and out-of-core runs (bin/drtopk-mpi; paper 5.4, Table 2) */
typedef struct {
    dh_store_config cfg;
    int ranks, gpus;
    uint64_t device_cap, chunks, filtered;
    int out_of_core;
    int reps;
    double total_ms, compute_ms, reload_ms, comm_ms;   /* medians             */
    double link_gbps;           /* <= 0: not measured                           */
    const char *reps_ms;        /* JSON array of the totals                     */
    int verified, verify_ok;
    const char *exchange;       /* how the parts reached rank 0 ("none" for one
                                   rank, "cuda-ipc", ...; db/schema.sql migration 12) */
} dh_store_multi;
/* Insert, replacing an earlier row of the same key. */
drtopk_status dh_store_put_multi(dh_store *s, int64_t machine_id, int64_t run_id,
                                 const char *git_commit, const dh_store_multi *m);

/* ---- counts a run does not time (schema 7; Figure 24, Table 3) ------------ */
typedef struct {
    dh_store_config cfg;
    char source[16];            /* "bmw" (host counts), "ncu" (Nsight Compute)  */
    char counter[96];           /* "bmw_evaluated", "dr_workload", an ncu metric */
    double value;
    int64_t kernels;            /* ncu: kernels summed; < 0: none (host counts) */
    char tool_version[64];      /* "" for host counts                          */
} dh_store_counter;
/* Insert, replacing an earlier row of the same key (config, source, counter). */
drtopk_status dh_store_put_counter(dh_store *s, int64_t machine_id, int64_t run_id,
                                   const char *git_commit, const dh_store_counter *c);
/* Whether (machine, commit, config, source, counter) is stored. */
drtopk_status dh_store_has_counter(dh_store *s, int64_t machine_id, const char *git_commit,
                                   const dh_store_config *cfg, const char *source, const char *counter,
                                   int *found);

/* ---- the batched top-k's crossovers (tuner --batch; schema migrations 9, 10) ---- */
typedef struct {
    char crossover[32], candidate[16], dtype[8], segs[16];
    uint64_t seed, rows, len, k;
} dh_store_batch_key;
typedef struct {
    dh_store_batch_key key;
    int ok;                     /* 0: error holds why                         */
    char error[256];
    int reps;
    double median_ms;
    int verified, verify_ok;
    const char *timing;         /* dh_timing_name(); NULL: "call"         */
} dh_store_batch_row;
/* Store (replace) one batched measurement. */
drtopk_status dh_store_put_batch(dh_store *s, int64_t machine_id, int64_t run_id, const char *git_commit,
                                 const dh_store_batch_row *r);
/* *found: whether (machine, commit, key) is stored. */
drtopk_status dh_store_has_batch(dh_store *s, int64_t machine_id, const char *git_commit,
                                 const dh_store_batch_key *key, int *found);
/* fn(row, ctx) for each ok row of (machine, commit) in a fixed order
 * (crossover, dtype, segs, rows, len, k, candidate); fn returning non-zero stops. */
drtopk_status dh_store_each_batch(dh_store *s, int64_t machine_id, const char *git_commit,
                                  int (*fn)(const dh_store_batch_row *r, void *ctx), void *ctx);
/* fn(machine id, commit, GPU name, ctx) for every (machine, commit) with
 * batched measurements, by machine then commit; fn returning non-zero stops. */
drtopk_status dh_store_each_batch_source(dh_store *s,
                                         int (*fn)(int64_t machine_id, const char *git_commit, const char *gpu,
                                                   void *ctx), void *ctx);
/* Store (replace) the decided value of one plan field. */
drtopk_status dh_store_put_batch_choice(dh_store *s, int64_t machine_id, const char *git_commit,
                                        const char *field, uint64_t value, int points);
/* fn(gpu name, field, value, ctx) for every GPU model with batch choices, by
 * name then field: each model's choices of its most recently decided commit
 * (one machine of the model: the one decided last). */
drtopk_status dh_store_each_batch_choice(dh_store *s,
                                         int (*fn)(const char *gpu, const char *field, uint64_t value,
                                                   void *ctx), void *ctx);

typedef struct {
    int machines_added, runs_added, measurements_added, fits_added, choices_added, checks_added;
    int peers_added, multi_added, counters_added, batch_added, batch_choices_added;
} dh_store_merge_stats;
/* Copy every machine (matched by uuid), run (by run_uuid), measurement (by its
 * unique key), fit, choice and peer measurement (by its unique key) that `s`
 * lacks from the database at other_path.  One transaction; merging the same
 * file again adds nothing.  other_path is opened read-only and never
 * migrated: an older schema is read as it is (what it lacks is NULL or
 * absent); the database itself, an empty file, a damaged or newer one are
 * refused. */
drtopk_status dh_store_merge(dh_store *s, const char *other_path,
                             dh_store_merge_stats *st);

#ifdef __cplusplus
}
#endif
#endif
