/*
 * tuner.c -- the `tuner` program's entry (paper section 5.2: the sweep and
 * fit that tune Dr. Top-k per GPU, and the runs around it): parses the
 * options and hands the run to its mode.  Each mode lives in its own file
 * (timed_sweep.c, decide.c, batch_tune.c, counters.c, maintain.c,
 * emit_table.c); what they share lies below them (options.c, progress.c,
 * sweep.c, measure.c, machine.c).  This file defines nothing but main.
 */
#include <stdio.h>

#include "batch_tune.h"
#include "counters.h"
#include "decide.h"
#include "emit_table.h"
#include "machine.h"
#include "maintain.h"
#include "options.h"
#include "regret.h"
#include "store.h"
#include "timed_sweep.h"
#include "version.h"

#define ARGS_LEN 4096               /* the command line stored with a run       */

static void join_argv(int argc, char **argv, char *out, size_t len)
{
    size_t at = 0;
    out[0] = 0;
    for (int i = 0; i < argc && at + 1 < len; ++i)
        at += (size_t)snprintf(out + at, len - at, "%s%s", i ? " " : "", argv[i]);
}

/* The modes on this machine: it is identified (timing the GPU where the
 * mode measures) and stored; all but the fit then begin a run of their own,
 * --regret tuned's table read first.  The exit status. */
static int on_this_machine(const options *o, tuner_mode mode, dh_store *db, const char *args)
{
    const char *commit = DRTOPK_GIT_COMMIT;
    dh_store_machine mach;
    int64_t machine_id, run_id;
    if (machine_identify(o, &mach, mode == MODE_SWEEP || mode == MODE_BATCH) != 0)
        return EXIT_USAGE;
    if (dh_store_put_machine(db, &mach, &machine_id) != DRTOPK_OK) {
        fprintf(stderr, "tuner: %s\n", dh_store_errmsg(db));
        return EXIT_RUNTIME;
    }
    if (mode == MODE_FIT)
        return fit_and_store(o, db, machine_id, commit, &mach) ? EXIT_FAILURES : 0;
    dh_store_tuning regret_tuning;
    if (regret_load_table(o, &mach, &regret_tuning) != 0)
        return EXIT_USAGE;
    int rc;
    if (dh_store_begin_run(db, machine_id, "tuner", args, commit, &run_id) != DRTOPK_OK) {
        fprintf(stderr, "tuner: %s\n", dh_store_errmsg(db));
        rc = EXIT_RUNTIME;
    } else if (mode == MODE_BATCH) {
        rc = batch_sweep(o, db, machine_id, run_id, commit, &mach);
    } else if (mode == MODE_IMPORT_COUNTERS) {
        rc = import_counters(o, db, machine_id, run_id, commit, &mach);
    } else if (mode == MODE_BMW) {
        rc = bmw_sweep(o, db, machine_id, run_id, commit);
    } else {
        rc = timed_sweep(o, db, machine_id, run_id, commit, &mach, &regret_tuning);
    }
    dh_store_tuning_free(&regret_tuning);
    return rc;
}

int main(int argc, char **argv)
{
    options o;
    if (options_parse(argc, argv, &o) != 0) {
        fputs("tuner: see 'tuner --help' for the options\n", stderr);
        return EXIT_USAGE;
    }
    const tuner_mode mode = options_mode(&o);
    if (mode == MODE_EMIT_TABLE)
        return emit_table(o.db, o.emit_table) ? EXIT_USAGE : 0;
    char err[DRTOPK_STORE_ERR_LEN], args[ARGS_LEN];
    dh_store *db;
    if (dh_store_open(o.db, 0, &db, err, sizeof err) != DRTOPK_OK) {
        fprintf(stderr, "tuner: %s\n", err);
        return EXIT_USAGE;
    }
    join_argv(argc, argv, args, sizeof args);
    int rc;
    switch (mode) {
    case MODE_MIGRATE:       rc = maintain_migrate(&o, db); break;
    case MODE_MERGE:         rc = maintain_merge(&o, db); break;
    case MODE_IMPORT_PEERS:  rc = maintain_import_peers(&o, db, args); break;
    case MODE_BATCH_REFIT:   rc = batch_redecide(db); break;
    default:                 rc = on_this_machine(&o, mode, db, args); break;
    }
    dh_store_close(db);
    return rc;
}
