/*
 * counters.h -- the tuner's counts that are not timings (table counters):
 * `tuner --bmw` (paper 6.6, Figure 24) and `tuner --import-counters`
 * (paper 6.4, Table 3).  A mode: above measure.h, sweep.h, progress.h and
 * options.h.  Program-internal.
 */
#ifndef DRTOPK_TUNER_COUNTERS_H
#define DRTOPK_TUNER_COUNTERS_H
#include <stdint.h>

#include "options.h"
#include "store.h"

/* --bmw in run run_id: for each dr- config of the sweep not counted yet, the
 * BMW scan's evaluated elements and Dr. Top-k's |D| + |C| on the host, into
 * table counters; ends the run.  The exit status: 0, EXIT_USAGE (an empty
 * sweep), EXIT_FAILURES. */
int bmw_sweep(const options *o, dh_store *db, int64_t machine_id, int64_t run_id, const char *commit);
/* --import-counters in run run_id: store the ncu metrics of the TSV file
 * (experiments/tab3_transactions.sh) for machine `mach`, end the run and
 * print what was stored.  The exit status: 0, or EXIT_USAGE with a message. */
int import_counters(const options *o, dh_store *db, int64_t machine_id, int64_t run_id, const char *commit,
                    const dh_store_machine *mach);

#endif
