/*
 * timed_sweep.h -- `tuner --gpu G`: the timed sweep of paper section 5.2
 * (alpha, beta, the delegate build and the algorithm over k and |V|, every
 * measurement stored, resumable), then the fit of Rule 4 and the decision
 * table, `--compare`, or `--regret`.  A mode: above decide.h and regret.h
 * (the phases that follow the sweep; neither includes this header),
 * measure.h, sweep.h, progress.h and options.h.  Program-internal.
 */
#ifndef DRTOPK_TUNER_TIMED_SWEEP_H
#define DRTOPK_TUNER_TIMED_SWEEP_H
#include <stdint.h>

#include "options.h"
#include "store.h"

/* The sweep in run run_id on machine `mach`: catches SIGINT/SIGTERM and
 * stops at --max-minutes (a rerun goes on), measures each config this commit
 * lacks (all with o->force) that no concurrent tuner has claimed, ends the
 * run, then (when the sweep finished) fits and stores the decision table,
 * or compares (o->compare), or measures the automatic plan's regret
 * (o->regret, with regret_tuning from regret_load_table).  The exit status:
 * 0, EXIT_FAILURES (a measurement failed or was wrong, or the fit failed),
 * EXIT_USAGE, EXIT_RUNTIME (the database), or SIGNAL_EXIT_BASE + the signal
 * that stopped it. */
int timed_sweep(const options *o, dh_store *db, int64_t machine_id, int64_t run_id, const char *commit,
                const dh_store_machine *mach, const dh_store_tuning *regret_tuning);

#endif
