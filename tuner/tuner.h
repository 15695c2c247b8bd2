/*
 * tuner.h -- what the tuner's parts share (tuner.c: options and the sweep;
 * measure.c: one measured plan; decide.c: the fit, the decision table and its
 * held-out check (paper section 5.2); emit_table.c: the library's
 * compiled-in table; regret.c: the automatic plan against the sweep's forced
 * plans).  Program-internal.
 */
#ifndef DRTOPK_TUNER_H
#define DRTOPK_TUNER_H
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "drtopk.h"
#include "gen.h"
#include "store.h"
#include "util.h"

#define MAX_LIST 64                 /* entries of one --n/--k/... list          */
/* (algorithm, beta, build) of one dtype: every algorithm standalone, and as
 * dr- at every beta in both delegate builds (--full sweeps 74 of them) */
#define MAX_VARIANTS (DRTOPK_ALGO_COUNT + 2 * DRTOPK_ALGO_COUNT * DRTOPK_BETA_MAX)
#define EXIT_FAILURES 1             /* measured, but something failed           */
#define EXIT_USAGE 2                /* bad arguments, unusable database         */
#define EXIT_RUNTIME 1              /* the database could not be written or read
                                       mid-run (a full disk, an I/O error)     */
#define DECIDE_MARGIN 0.02          /* a choice must beat the default's worst
                                       slowdown by more than this: the held-out
                                       noise measured on the H100 (1.2-1.8%)   */
#define TUNED_BUILD_ALPHA_MIN 6     /* from here to DRTOPK_SHARED_DELEGATE_MAX_ALPHA
                                       the staged and the warp-centric delegate
                                       build cross over per GPU (paper 5.3): the
                                       sweep measures both                       */

typedef struct {
    char label[32];             /* "dr-radix", "radix", ...                     */
    drtopk_algo algo;
    int delegate;
} algo_entry;

/* --regret: which automatic plan is measured against the forced ones. */
typedef enum {
    REGRET_NONE = 0,
    REGRET_BUILTIN,             /* drtopk_plan_auto without a tuning table      */
    REGRET_TUNED                /* drtopk_plan_auto with this machine's tuning  */
} regret_mode;

typedef struct {
    int gpu;
    int full;
    drtopk_backend backend;
    uint64_t n[MAX_LIST];   int nn;
    uint64_t k[MAX_LIST];   int nk;     /* nk == 0: default per n              */
    algo_entry algo[MAX_LIST]; int nalgo;
    drtopk_dist dist[MAX_LIST]; int ndist;
    drtopk_dtype dtype[MAX_LIST]; int ndtype;
    const char *db;
    int force;
    double max_minutes;
    int reps;
    int verify_every;
    const char *merge;
    int migrate;                /* bring --db to this build's schema, then exit */
    const char *import_peers;   /* experiments/peers/run_peers.sh's JSON lines */
    const char *emit_table;     /* write the library's compiled-in table here  */
    int fit_only;
    int compare;                /* tuned vs default vs best at the sweep's points */
    int no_check;               /* store the decision table unchecked          */
    uint64_t seed;
    int alpha_span;             /* Rule 4's alpha +- this; ALPHA_SPAN_WHOLE: all */
    int beta[MAX_LIST]; int nbeta;      /* nbeta == 0: 1..2 (quick), 1..4 (full)  */
    int small_n_cut;            /* quick on CUDA without --alpha-span/--beta: fewer
                                   dr- variants below 2^QUICK_SMALL_N_LOG2 keys   */
    int probe_algos;            /* the default algorithm list: leave out those the
                                   library does not run on a key type here     */
    double skip_after_ms;       /* a standalone call slower than this ends its
                                   larger k (per algorithm, data set)           */
    unsigned clear_flags;       /* DRTOPK_* plan flags switched off in dr- plans
                                   (Figures 6, 7, 10, 22 of experiments/)       */
    const char *input;          /* --input: measure on this raw vector (real data,
                                   paper Table 1 / Figure 19) instead of generating */
    char input_name[48];        /* --name: its data set name, stored as the dist */
    int bmw;                    /* --bmw: host workload counts, no timing (Fig. 24) */
    const char *import_counters;/* --import-counters: ncu metrics TSV (Table 3)  */
    drtopk_timing timing;       /* --timing: gpu (default on CUDA) or call      */
    int batch;                  /* --batch: the batched top-k's crossovers      */
    regret_mode regret;         /* --regret: the automatic plan vs the sweep's  */
} options;

/* One configuration of the sweep: indices into the options' lists. */
typedef struct {
    int dtype, dist, n;
    int algo;
    uint64_t k;
    int alpha, beta;
    int warp_build;             /* the warp-centric delegate build where the
                                   library would build through shared memory */
} config;

/* The data set in flight and the buffers of its calls. */
typedef struct {
    drtopk_dtype dtype;
    drtopk_dist dist;
    uint64_t n;                 /* 0: none                                      */
    void *v;                    /* device (CUDA) or host (CPU) values           */
    void *host_v;               /* host copy for verification (CUDA), lazily    */
    void *out_v, *host_out_v;
    uint64_t *out_i, *host_out_i;
    uint64_t out_cap;
    void *ws;
    size_t ws_bytes;
} buffers;

/* Scratch doubles measure_plan needs for o->reps repetitions. */
#define SCRATCH_PER_REP 6

/* The signal (SIGINT/SIGTERM) that asked the tuner to stop, else 0
 * (tuner.c): long loops end cleanly when it is set. */
extern volatile sig_atomic_t tuner_stop_signal;

/* The k of the sweep at size n (the --k list, else powers of 4 up to n/4 and
 * 2^24), sorted, without repeats, into ks[MAX_LIST]; returns the count. */
int sweep_ks(const options *o, uint64_t n, uint64_t *ks);

/* The plan flags of config c: for a dr- algorithm those drtopk_plan_rule4
 * gives at c's alpha (DELEGATE, FILTER, SKIP_LAST_DIGIT, and SHARED_DELEGATE
 * up to DRTOPK_SHARED_DELEGATE_MAX_ALPHA unless c asks for the warp-centric
 * build) less o->clear_flags; 0 for a standalone algorithm.  They are part of
 * the config's store key, so they never change for a config. */
unsigned sweep_flags(const options *o, const config *c);
/* The plan config c asks for, taken as given (drtopk_plan_explicit): c's
 * alpha, beta, algorithm and sweep_flags, so that the stored alpha is the one
 * the library runs.  DRTOPK_ERR_UNSUPPORTED for a pipeline stage that runs
 * standalone only (dr-onepass, dr-fused). */
drtopk_status make_plan(const options *o, const config *c, const drtopk_problem *p, drtopk_plan *plan);
/* The seed stored with rows measured on an --input file (no generator). */
#define INPUT_SEED 0
/* The dist the store names config c's data set with: --input's name, else the
 * distribution's. */
const char *dist_label(const options *o, drtopk_dist d);

/* The store key of measuring `plan` labelled `label` at (dtype, dist, n, k). */
void plan_key(const options *o, const char *label, drtopk_dtype t, drtopk_dist d, uint64_t n, uint64_t k,
              const drtopk_plan *plan, drtopk_store_config *key);
void fill_key(const options *o, const config *c, drtopk_store_config *key, unsigned flags);

void buffers_init(buffers *b);
void buffers_release(const options *o, buffers *b);
/* Make (dtype, dist, n) resident (generated with o->seed, or o->input read
 * from its file) with outputs for kmax results. */
drtopk_status buffers_dataset(const options *o, buffers *b, drtopk_dtype t, drtopk_dist d, uint64_t n,
                              uint64_t kmax);
/* Measure `plan` on the resident data set: a warm-up, then o->reps timed
 * calls; m->cfg is the caller's.  scratch: SCRATCH_PER_REP * o->reps. */
void measure_plan(const options *o, const drtopk_plan *plan, uint64_t k, buffers *b, int do_verify,
                  drtopk_store_measurement *m, double *scratch);
/* The delegate plan's label as the store names it ("dr-radix", ...). */
void plan_label(const drtopk_plan *plan, char *out, size_t len);

/* A progress line with elapsed time and ETA (tuner.c): on a terminal one
 * line redrawn, else one line every few seconds and the last one. */
void tuner_progress(size_t done, size_t total, double t0_ms, const char *what, int last);
/* Wall-clock time (drtopk_now_ms) at which --max-minutes ends the run; 0: none. */
extern double tuner_deadline_ms;
/* Stop now: a signal came or the deadline passed. */
int tuner_should_stop(void);

/* The store key of config c (the flags of the plan it is measured with). */
void config_key(const options *o, const config *c, drtopk_store_config *key);

/* counters.c: for each dr- config of the sweep not counted yet, the BMW scan's
 * evaluated elements and Dr. Top-k's |D| + |C| on the host (Figure 24), into
 * table counters.  0, or -1 with a message. */
int bmw_sweep(const options *o, drtopk_store *db, int64_t machine_id, int64_t run_id, const char *commit,
              const config *cfgs, size_t total);
/* counters.c: store the ncu metrics of a TSV file (experiments/
 * tab3_transactions.sh) for this machine; *stored lines.  0, or -1. */
int import_counters(drtopk_store *db, int64_t machine_id, int64_t run_id, const char *commit, const char *path,
                    int *stored);

/* decide.c: fit Rule 4, derive the decision table from what (machine,
 * commit) measured, check it at held-out points (measuring what is missing
 * unless o->fit_only or o->no_check) and store it.  0, or -1. */
int fit_and_store(const options *o, drtopk_store *db, int64_t machine_id, const char *commit,
                  const drtopk_store_machine *mach);
/* fit_and_store's return when the held-out check was cut short by a signal
 * or --max-minutes: nothing stored but the checks measured so far. */
#define FIT_INTERRUPTED 1
/* decide.c: tuned (this machine's stored table) vs default vs the best
 * measured plan at every (dtype, dist, n, k) of the sweep; prints the table
 * and stores the rows.  0, or -1. */
int compare_plans(const options *o, drtopk_store *db, int64_t machine_id, const char *commit,
                  const drtopk_store_machine *mach);

/* ---- the automatic plan's regret (tuner --regret, regret.c) ---- */
/* The store's algorithm label of mode's measurements: "auto-builtin" or
 * "auto-tuned" (DRTOPK_STORE_AUTO_PREFIX). */
const char *regret_label(regret_mode mode);
/* --regret tuned: this machine's tuning from o->db into *tuning (empty for
 * another mode; drtopk_store_tuning_free releases it).  0, or EXIT_USAGE with
 * a message when it cannot be read or holds nothing for this machine. */
int regret_load_table(const options *o, const drtopk_store_machine *mach, drtopk_store_tuning *tuning);
/* How the regret phase ended: the run's end status ("done", "time-limit",
 * "interrupted", "failed": a store error) and the measurements of the
 * automatic plan that failed or gave a wrong result. */
typedef struct {
    const char *end_status;
    size_t failed;
} regret_outcome;
/* After the sweep: measure drtopk_plan_auto's plan (o->regret: without a
 * table, or with `tuning`) at every (dtype, dist, n, k) of the sweep that
 * this commit has not measured (all with o->force), store each row labelled
 * regret_label(o->regret), then print per point the automatic plan, its ms,
 * the fastest forced plan measured there and its ms, and the regret auto ms /
 * min(auto ms, best ms), and per dtype "regret LABEL DTYPE: N points, worst
 * R at DIST n=N k=K, median M".  0, or -1 when the table cannot be read. */
int regret_run(const options *o, drtopk_store *db, int64_t machine_id, int64_t run_id, const char *commit,
               const drtopk_store_machine *mach, const drtopk_store_tuning *tuning, regret_outcome *out);

/* ---- the batched top-k's crossovers (tuner --batch) ---- */
/* The plan fields the tuner decides, as batch_choices names them. */
enum { BATCH_TINY_MAX_K, BATCH_WARP_MAX_K, BATCH_WARP_MAX_LEN, BATCH_STAGED_MAX_LEN, BATCH_BLOCK_MAX_LEN,
       BATCH_TINY_MAX_K_64, BATCH_BLOCK_MAX_LEN_64, BATCH_FIELD_COUNT };
extern const char *const batch_field_names[BATCH_FIELD_COUNT];
typedef enum { BATCH_AXIS_K, BATCH_AXIS_LEN } batch_axis;
/* The key widths a crossover's decision weighs: every dtype, keys of at most
 * 4 bytes, keys of 8 (the plan's _64 fields, drtopk.h). */
typedef enum { BATCH_WIDTH_ANY, BATCH_WIDTH_32, BATCH_WIDTH_64 } batch_width;
/* A crossover: the field it sets, the measurements' crossover name (the
 * field's, or the 32-bit field's for a _64 one: one sweep serves both), the
 * key widths of the rows it weighs, the candidate the field's value admits,
 * the other, and the swept axis. */
typedef struct {
    int field;
    int measured;
    batch_width width;
    const char *admitted, *other;
    batch_axis axis;
} batch_crossover;
#define BATCH_CROSSOVER_COUNT 6
extern const batch_crossover batch_crossovers[BATCH_CROSSOVER_COUNT];
/* The field of `plan` numbered `field`; the number of a field's name, or -1. */
uint64_t *batch_field(drtopk_batch_plan *plan, int field);
int batch_field_of(const char *name);
/* What the decision of one field weighed: the workloads compared (0: not
 * decided), the worst slowdown of the chosen value and of the default. */
typedef struct {
    int points;
    double worst, default_worst;
} batch_outcome;
/* batch_decide.c: the crossovers that n measurement rows decide, written
 * into plan (fields the rows do not decide keep their value, which is the
 * default each decision weighs); out[f]: field f's decision.  0, or -1 (no
 * memory). */
int batch_decide(const drtopk_store_batch_row *rows, size_t n, drtopk_batch_plan *plan,
                 batch_outcome out[BATCH_FIELD_COUNT]);
/* batch_tune.c: the --batch sweep on the machine of machine_id: measures
 * what is missing, decides, stores the choices and prints the plan.  0, or
 * EXIT_FAILURES / EXIT_USAGE. */
int batch_sweep(const options *o, drtopk_store *db, int64_t machine_id, int64_t run_id, const char *commit,
                const drtopk_store_machine *mach);
/* --batch --fit-only: decides again, stores and prints the plan of every
 * (machine, commit) with batched measurements in db (no GPU needed: a
 * reference dump's choices follow the current rule).  0, or EXIT_USAGE. */
int batch_redecide(drtopk_store *db);

/* emit_table.c: write the C source of src/lib/tuning_builtin.c from every
 * tuned GPU of the database at db_path.  0, or -1 with a message on stderr. */
int emit_table(const char *db_path, const char *out_path);

#endif
