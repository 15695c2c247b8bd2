/*
 * measure.h -- one measured plan of the tuner (paper section 5.2's sweep):
 * the plan a sweep configuration asks for, its key in the results store, the
 * resident data set and its buffers, and the timed, optionally verified
 * calls.  Above sweep.h and options.h; includes no mode.  Program-internal.
 */
#ifndef DRTOPK_TUNER_MEASURE_H
#define DRTOPK_TUNER_MEASURE_H
#include <stddef.h>
#include <stdint.h>

#include "drtopk.h"
#include "gen.h"
#include "options.h"
#include "store.h"
#include "sweep.h"

/* The data set in flight and the buffers of its calls. */
typedef struct {
    drtopk_dtype dtype;
    dh_dist dist;
    uint64_t n;                 /* 0: none                                      */
    void *v;                    /* device (CUDA) or host (CPU) values           */
    void *host_v;               /* host copy for verification (CUDA), lazily    */
    void *out_v, *host_out_v;
    uint64_t *out_i, *host_out_i;
    uint64_t out_cap;
    void *ws;
    size_t ws_bytes;
    int settle;                 /* a new data set or workspace: the next measurement repeats its call until
                                   its time is steady before the timed repetitions */
} buffers;

/* Scratch doubles measure_plan needs for o->reps repetitions. */
#define SCRATCH_PER_REP 6
/* The seed stored with rows measured on an --input file (no generator). */
#define INPUT_SEED 0

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
/* The dist the store names config c's data set with: --input's name, else the
 * distribution's. */
const char *dist_label(const options *o, dh_dist d);

/* The store key of measuring `plan` labelled `label` at (dtype, dist, n, k). */
void plan_key(const options *o, const char *label, drtopk_dtype t, dh_dist d, uint64_t n, uint64_t k,
              const drtopk_plan *plan, dh_store_config *key);
/* The store key of config c measured with plan flags `flags`. */
void fill_key(const options *o, const config *c, dh_store_config *key, unsigned flags);
/* The store key of config c (the flags of the plan it is measured with). */
void config_key(const options *o, const config *c, dh_store_config *key);

void buffers_init(buffers *b);
void buffers_release(const options *o, buffers *b);
/* Make (dtype, dist, n) resident (generated with o->seed, or o->input read
 * from its file) with outputs for kmax results. */
drtopk_status buffers_dataset(const options *o, buffers *b, drtopk_dtype t, dh_dist d, uint64_t n,
                              uint64_t kmax);
/* Measure `plan` on the resident data set: a warm-up (the first plan on a new
 * data set or workspace repeats it until its time is steady), then o->reps
 * timed calls; m->cfg is the caller's.  scratch: SCRATCH_PER_REP * o->reps. */
void measure_plan(const options *o, const drtopk_plan *plan, uint64_t k, buffers *b, int do_verify,
                  dh_store_measurement *m, double *scratch);
/* The delegate plan's label as the store names it ("dr-radix", ...). */
void plan_label(const drtopk_plan *plan, char *out, size_t len);

#endif
