/*
 * store.h -- the SQLite results store (db/schema.sql): opening with WAL, a busy
 * timeout and foreign keys, versioned migrations, inserts of machines, runs,
 * measurements, Rule 4 fits (paper section 5.2), plan choices and the modern
 * peers' measurements (issue 4 item 6), loading a machine's tuning table for
 * drtopk_plan_auto, and merging of databases from other machines.
 * Errors come back as DRTOPK_ERR_IO with a readable message in `err`.
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
#define DRTOPK_STORE_SCHEMA_VERSION 3
/* Used when DRTOPK_DB is unset; relative to the working directory. */
#define DRTOPK_STORE_DEFAULT_PATH "db/results.sqlite"
#define DRTOPK_STORE_ERR_LEN 512

typedef struct drtopk_store drtopk_store;

enum {
    DRTOPK_STORE_READONLY = 1u << 0,  /* never create or migrate              */
    DRTOPK_STORE_NO_CREATE = 1u << 1  /* the file must already exist           */
};

/* Open (creating unless flags say otherwise) and migrate to the current
 * version.  A database newer than this build, a file that is not SQLite or
 * not a drtopk database, a missing directory, a directory, and a read-only
 * file opened for writing are refused with a message in err. */
drtopk_status drtopk_store_open(const char *path, unsigned flags, drtopk_store **out,
                                char *err, size_t err_len);
/* As drtopk_store_open, but migrate no further than max_version (tests build
 * an older database with it). */
drtopk_status drtopk_store_open_version(const char *path, unsigned flags, int max_version,
                                        drtopk_store **out, char *err, size_t err_len);
void drtopk_store_close(drtopk_store *s);
const char *drtopk_store_errmsg(const drtopk_store *s);   /* last error      */
int drtopk_store_version(const drtopk_store *s);           /* schema version  */
/* DRTOPK_DB if set and non-empty, else DRTOPK_STORE_DEFAULT_PATH. */
const char *drtopk_store_default_path(void);

drtopk_status drtopk_store_begin(drtopk_store *s);   /* BEGIN IMMEDIATE */
drtopk_status drtopk_store_commit(drtopk_store *s);
drtopk_status drtopk_store_rollback(drtopk_store *s);

typedef struct {
    char uuid[64];
    char name[256];
    const char *backend;        /* "cpu" or "cuda"                              */
    int cc_major, cc_minor, sm_count;   /* 0 = unknown (stored as NULL)         */
    uint64_t mem_bytes, l2_bytes;
    double read_gbps;           /* <= 0: unknown                                */
    int driver_version, runtime_version;
    double c_global, c_shfl;    /* microbenchmarked cycles; <= 0: unknown       */
} drtopk_store_machine;

/* Insert or update (by uuid) the machine; known fields overwrite, unknown ones
 * (0 / <= 0) keep what the database has.  *id gets its row id. */
drtopk_status drtopk_store_put_machine(drtopk_store *s, const drtopk_store_machine *m, int64_t *id);
/* Identity of this host for the CPU backend: uuid "cpu:<hostname>", name the
 * CPU model. */
void drtopk_store_cpu_machine(drtopk_store_machine *m);

drtopk_status drtopk_store_begin_run(drtopk_store *s, int64_t machine_id, const char *program,
                                     const char *argv, const char *git_commit, int64_t *run_id);
/* status: "done", "interrupted", "time-limit" or "failed". */
drtopk_status drtopk_store_end_run(drtopk_store *s, int64_t run_id, const char *status);

/* The unique key of a measurement (besides machine and commit). */
typedef struct {
    char algorithm[32];         /* "dr-radix", "bucket", ...                    */
    char first_algo[32];        /* "" for standalone                            */
    char second_algo[32];
    char dtype[8];
    char dist[16];
    uint64_t seed, n, k;
    int alpha, beta;            /* 0 for standalone                             */
    unsigned flags;
    char order[16];             /* "largest" / "smallest"                       */
} drtopk_store_config;

typedef enum { DRTOPK_MEAS_OK = 0, DRTOPK_MEAS_UNSUPPORTED, DRTOPK_MEAS_ERROR } drtopk_meas_status;

typedef struct {
    drtopk_store_config cfg;
    drtopk_meas_status status;
    char error[256];            /* when status != OK                            */
    int reps;
    const double *reps_ms;      /* reps values (may be NULL when reps == 0)     */
    double median_ms, min_ms, max_ms;
    double ms_delegate, ms_first, ms_concat, ms_second;   /* per-stage medians  */
    uint64_t delegate_len, first_selected, concat_len, scanned_subranges;
    int verified;               /* checked against the reference                */
    int verify_ok;
    char verify_error[256];
} drtopk_store_measurement;

/* Is this configuration already measured on (machine, commit)? */
drtopk_status drtopk_store_has(drtopk_store *s, int64_t machine_id, const char *git_commit,
                               const drtopk_store_config *c, int *found);
/* Insert, replacing an earlier row of the same key (--force). */
drtopk_status drtopk_store_put(drtopk_store *s, int64_t machine_id, int64_t run_id,
                               const char *git_commit, const drtopk_store_measurement *m);

/* One successful (status ok, not failed verification) measurement, as the fit
 * reads it. */
typedef struct {
    const char *algorithm;
    const char *dist;
    int beta, alpha;
    uint64_t n, k;
    double median_ms;
} drtopk_store_point;
/* Calls cb for every usable measurement of (machine, commit, dtype) with the
 * default plan flags of its alpha (standalone rows have none), ordered
 * by algorithm, beta, dist, n, k, alpha.  A non-zero return of cb stops. */
drtopk_status drtopk_store_each_point(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                      const char *dtype,
                                      int (*cb)(const drtopk_store_point *pt, void *ctx), void *ctx);

typedef struct {
    char dtype[8];
    char algorithm[32];
    int beta;
    double const_time, const_lsq, const_theory;   /* const_theory <= 0: unknown */
    double mean_slowdown, worst_slowdown;
    int points;
} drtopk_store_fit;
drtopk_status drtopk_store_put_fit(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                   const drtopk_store_fit *f);

typedef struct {
    int log2k_min, log2k_max;
    char algorithm[32];
    int beta;
    double rule4_const;
    double mean_slowdown;
    int points;
} drtopk_store_choice;
/* Replace every choice of (machine, dtype) with these. */
drtopk_status drtopk_store_put_choices(drtopk_store *s, int64_t machine_id, const char *git_commit,
                                       const char *dtype, const drtopk_store_choice *c, int count);

/* ---- the tuning of a machine, for drtopk_plan_auto ----------------------
 * The library reads no database: programs load the tuning of the machine they
 * run on and pass &t.table to drtopk_plan_auto.  The memory is the struct's;
 * drtopk_store_tuning_free releases it. */
typedef struct {
    drtopk_tuning table;            /* count 0: nothing tuned for this machine   */
    drtopk_tuning_entry *entries;   /* owned; table.entries points here          */
    char machine_uuid[64];          /* the machine matched ("" when none)        */
    char gpu_name[256];             /* its name; table.gpu_name points here      */
} drtopk_store_tuning;

/* Load from the database at db_path (NULL: drtopk_store_default_path()) the
 * tuning of the machine with this uuid, else of the most recently tuned
 * machine of this name (name may be NULL): for every dtype the tuner's
 * per-k-range plan choices (any n), then a catch-all entry with the fitted
 * Rule 4 const of dr-radix (the beta nearest 2), beta 2 and radix.  A
 * database or machine that is not there gives an empty table and DRTOPK_OK; a
 * database that exists but cannot be read gives DRTOPK_ERR_IO, an empty
 * table, and err names the path and the SQLite error. */
drtopk_status drtopk_store_load_tuning(const char *db_path, const char *uuid, const char *name,
                                       drtopk_store_tuning *out, char *err, size_t err_len);
void drtopk_store_tuning_free(drtopk_store_tuning *t);

/* ---- the modern peers (issue 4 item 6: CUB DeviceTopK, torch.topk) ----- */

/* The most recently added machine of this name and backend; *found = 0 when
 * there is none.  (Peer lines without a GPU uuid are matched this way.) */
drtopk_status drtopk_store_machine_by_name(drtopk_store *s, const char *name, const char *backend,
                                           int64_t *id, int *found);

typedef enum { DRTOPK_PEER_OK = 0, DRTOPK_PEER_SKIPPED, DRTOPK_PEER_ERROR } drtopk_peer_status;

/* One peer measurement.  A skipped peer has empty dist/dtype and zero
 * seed/n/k (its unique key is then the peer alone). */
typedef struct {
    char peer[32];              /* "cub_device_topk", "torch_topk"              */
    char peer_version[64];      /* CCCL / torch version; "" unknown             */
    char dist[16];
    char dtype[8];
    uint64_t seed, n, k;
    drtopk_peer_status status;
    char reason[256];           /* why skipped / the error                      */
    int reps;
    double median_ms, min_ms, max_ms;   /* status OK only                       */
    const char *reps_ms;        /* JSON array text, or NULL                     */
    int verified;               /* passed the peer's own O(n) check             */
} drtopk_store_peer;

/* Insert unless a row of the same key (machine, commit, peer, dist, dtype,
 * seed, n, k) exists; *added = 1 when inserted, 0 when it was there. */
drtopk_status drtopk_store_put_peer(drtopk_store *s, int64_t machine_id, int64_t run_id,
                                    const char *git_commit, const drtopk_store_peer *p, int *added);

typedef struct {
    int machines_added, runs_added, measurements_added, fits_added, choices_added;
    int peers_added;
} drtopk_store_merge_stats;
/* Copy every machine (matched by uuid), run (by run_uuid), measurement (by its
 * unique key), fit, choice and peer measurement (by its unique key) that `s`
 * lacks from the database at other_path.  One transaction; merging the same
 * file again adds nothing. */
drtopk_status drtopk_store_merge(drtopk_store *s, const char *other_path,
                                 drtopk_store_merge_stats *st);

#ifdef __cplusplus
}
#endif
#endif
