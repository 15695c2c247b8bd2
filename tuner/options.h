/*
 * options.h -- the tuner's command line (the sweep of paper section 5.2 and
 * the tuner's other runs): what one run asks for, which mode that is, the
 * exit codes, and the constants the sweep, the fit and the batched decision
 * share.  The lowest layer of the tuner: it includes no other tuner header,
 * and every other part of the tuner may include it.  Program-internal.
 */
#ifndef DRTOPK_TUNER_OPTIONS_H
#define DRTOPK_TUNER_OPTIONS_H
#include <stdint.h>

#include "drtopk.h"
#include "gen.h"
#include "util.h"

#define MAX_LIST 64                 /* entries of one --n/--k/... list          */
#define MAX_MERGE 1024              /* --merge sources of one run (run_all.sh
                                       merges its reference dumps in one)      */
#define EXIT_FAILURES 1             /* measured, but something failed           */
#define EXIT_USAGE 2                /* bad arguments, unusable database         */
#define EXIT_RUNTIME 1              /* the database could not be written or read
                                       mid-run (a full disk, an I/O error)     */
#define MS_PER_S 1000.0
#define DECIDE_MARGIN 0.02          /* a choice must beat the default's worst
                                       slowdown by more than this: the held-out
                                       noise measured on the H100 (1.2-1.8%)   */
#define TUNED_BUILD_ALPHA_MIN 6     /* from here to DRTOPK_SHARED_DELEGATE_MAX_ALPHA
                                       the staged and the warp-centric delegate
                                       build cross over per GPU (paper 5.3): the
                                       sweep measures both                       */

/* The sweep's alphas and betas without --alpha-span and --beta (the help text
 * names them; sweep.c applies them). */
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
    dh_dist dist[MAX_LIST]; int ndist;
    drtopk_dtype dtype[MAX_LIST]; int ndtype;
    const char *db;
    int force;
    double max_minutes;
    int reps;
    int verify_every;
    const char *merge[MAX_MERGE]; /* --merge OTHER, in the order given       */
    int nmerge;
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
    dh_timing timing;       /* --timing: gpu (default on CUDA) or call      */
    int batch;                  /* --batch: the batched top-k's crossovers      */
    regret_mode regret;         /* --regret: the automatic plan vs the sweep's  */
} options;

/* The one thing a run does.  The first four need the database only, the
 * batched refit every machine stored in it, the fit this machine, and the
 * rest this machine and a run of their own. */
typedef enum {
    MODE_EMIT_TABLE,            /* --emit-table: the library's compiled-in table */
    MODE_MIGRATE,               /* --migrate                                      */
    MODE_MERGE,                 /* --merge                                        */
    MODE_IMPORT_PEERS,          /* --import-peers                                 */
    MODE_BATCH_REFIT,           /* --batch --fit-only                             */
    MODE_FIT,                   /* --fit-only                                     */
    MODE_BATCH,                 /* --batch                                        */
    MODE_IMPORT_COUNTERS,       /* --import-counters                              */
    MODE_BMW,                   /* --bmw                                          */
    MODE_SWEEP                  /* the timed sweep, then the fit, --compare or
                                   --regret                                       */
} tuner_mode;

/* Parse argv into *o with every default applied; prints the help and exits 0
 * on -h/--help.  0, or -1 with a message on stderr naming the bad option. */
int options_parse(int argc, char **argv, options *o);
/* The mode the parsed options ask for. */
tuner_mode options_mode(const options *o);

#endif
