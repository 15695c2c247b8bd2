/*
 * regret.h -- `tuner --regret builtin|tuned`: after the sweep, the automatic
 * plan (drtopk_plan_auto, paper section 5.2's rules or this machine's tuning)
 * measured at each point of the sweep against the fastest forced plan.  A
 * mode: above measure.h, sweep.h, progress.h and options.h.
 * Program-internal.
 */
#ifndef DRTOPK_TUNER_REGRET_H
#define DRTOPK_TUNER_REGRET_H
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "store.h"

/* --regret tuned: this machine's tuning from o->db into *tuning (empty for
 * another mode; dh_store_tuning_free releases it).  0, or EXIT_USAGE with
 * a message when it cannot be read or holds nothing for this machine. */
int regret_load_table(const options *o, const dh_store_machine *mach, dh_store_tuning *tuning);
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
 * "auto-builtin" or "auto-tuned" (DRTOPK_STORE_AUTO_PREFIX), then print per
 * point the automatic plan, its ms, the fastest forced plan measured there
 * and its ms, and the regret auto ms / min(auto ms, best ms), and per dtype
 * "regret LABEL DTYPE: N points, worst R at DIST n=N k=K, median M".  0, or
 * -1 when the table cannot be read. */
int regret_run(const options *o, dh_store *db, int64_t machine_id, int64_t run_id, const char *commit,
               const dh_store_machine *mach, const dh_store_tuning *tuning, regret_outcome *out);

#endif
