/*
 * batch_tune.h -- `tuner --batch`: the batched top-k's crossovers (the
 * per-segment algorithms of paper sections 4-5) measured on this GPU, decided
 * and stored; `tuner --batch --fit-only`: decided again from the stored
 * measurements.  A mode: above batch_decide.h (its decision rule),
 * progress.h and options.h.  Program-internal.
 */
#ifndef DRTOPK_TUNER_BATCH_TUNE_H
#define DRTOPK_TUNER_BATCH_TUNE_H
#include <stdint.h>

#include "options.h"
#include "store.h"

/* The --batch sweep in run run_id on the machine of machine_id: catches
 * SIGINT/SIGTERM and stops at --max-minutes (a rerun goes on), measures what
 * is missing, decides, stores the choices and prints the plan.  The exit
 * status: 0, EXIT_FAILURES, EXIT_USAGE, EXIT_RUNTIME, or SIGNAL_EXIT_BASE +
 * the signal that stopped it. */
int batch_sweep(const options *o, dh_store *db, int64_t machine_id, int64_t run_id, const char *commit,
                const dh_store_machine *mach);
/* --batch --fit-only: decides again, stores and prints the plan of every
 * (machine, commit) with batched measurements in db (no GPU needed: a
 * reference dump's choices follow the current rule).  0, or EXIT_USAGE. */
int batch_redecide(dh_store *db);

#endif
