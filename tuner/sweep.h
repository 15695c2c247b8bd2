/*
 * sweep.h -- the configurations of the tuner's sweep (paper section 5.2):
 * for every key type, distribution and size |V| of the options, the k
 * measured there and each (algorithm, alpha, beta, delegate build) at each k.
 * Above options.h; includes no mode.  Program-internal.
 */
#ifndef DRTOPK_TUNER_SWEEP_H
#define DRTOPK_TUNER_SWEEP_H
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "store.h"

/* One configuration of the sweep: indices into the options' lists. */
typedef struct {
    int dtype, dist, n;
    int algo;
    uint64_t k;
    int alpha, beta;
    int warp_build;             /* the warp-centric delegate build where the
                                   library would build through shared memory */
} config;

/* The k of the sweep at size n (the --k list, else powers of 4 up to n/4 and
 * 2^24), sorted, without repeats, into ks[MAX_LIST]; returns the count. */
int sweep_ks(const options *o, uint64_t n, uint64_t *ks);

/* Every configuration the options ask for, in dataset-major order so that
 * each data set is generated once, and per algorithm by increasing k so that
 * the skip rule (--skip-after-s) sees the smaller k first; *total its length.
 * First prints on stdout the (key type, algorithm) pairs left out because the
 * library does not run them on this backend.  NULL with a message on stderr
 * when out of memory, or when the sweep is empty (then run run_id of db is
 * ended "failed"): the run exits EXIT_USAGE. */
config *sweep_configs(const options *o, dh_store *db, int64_t run_id, size_t *total);

#endif
