/*
 * decide.h -- from the tuner's measurements to the tuning table the library
 * runs (paper section 5.2): `tuner --fit-only` and the fit after a sweep
 * (Rule 4's const, the decision table, its held-out check), and `tuner
 * --compare`.  A mode: above measure.h, sweep.h, progress.h and options.h.
 * Program-internal.
 */
#ifndef DRTOPK_TUNER_DECIDE_H
#define DRTOPK_TUNER_DECIDE_H
#include <stdint.h>

#include "options.h"
#include "store.h"

/* fit_and_store's return when the held-out check was cut short by a signal
 * or --max-minutes: nothing stored but the checks measured so far. */
#define FIT_INTERRUPTED 1

/* Fit Rule 4, derive the decision table from what (machine, commit)
 * measured, check it at held-out points (measuring what is missing unless
 * o->fit_only or o->no_check) and store it.  0, FIT_INTERRUPTED, or -1. */
int fit_and_store(const options *o, dh_store *db, int64_t machine_id, const char *commit,
                  const dh_store_machine *mach);
/* Tuned (this machine's stored table) vs default vs the best measured plan
 * at every (dtype, dist, n, k) of the sweep; prints the table and stores the
 * rows.  0, or -1. */
int compare_plans(const options *o, dh_store *db, int64_t machine_id, const char *commit,
                  const dh_store_machine *mach);

#endif
