/*
 * maintain.c -- the tuner's runs on the results database alone: bring it to
 * this build's schema (--migrate: opening it already did), copy in what
 * another database has and it lacks (--merge), store the modern peers' JSON
 * lines as one run (--import-peers, beside paper section 6's comparison).
 */
#include "maintain.h"

#include <stdio.h>

#include "import_peers.h"
#include "version.h"

int maintain_migrate(const options *o, dh_store *db)
{
    printf("%s: schema version %d\n", o->db, dh_store_version(db));
    return 0;
}

int maintain_merge(const options *o, dh_store *db)
{
    for (int i = 0; i < o->nmerge; ++i) {
        dh_store_merge_stats ms;
        if (dh_store_merge(db, o->merge[i], &ms) != DRTOPK_OK) {
            fprintf(stderr, "tuner: %s", dh_store_errmsg(db));
            if (o->nmerge > 1)
                fprintf(stderr, " (source %d of %d: the %d before it are merged, it and the %d after it are not)",
                        i + 1, o->nmerge, i, o->nmerge - i - 1);
            fputc('\n', stderr);
            return EXIT_USAGE;
        }
        printf("merged %s into %s: %d machines, %d runs, %d measurements, %d fits, %d choices added; "
               "%d peer measurements added; %d multi-GPU runs, %d counters, %d held-out checks added; "
               "%d batch measurements, %d batch choices added\n",
               o->merge[i], o->db, ms.machines_added, ms.runs_added, ms.measurements_added, ms.fits_added,
               ms.choices_added, ms.peers_added, ms.multi_added, ms.counters_added, ms.checks_added,
               ms.batch_added, ms.batch_choices_added);
    }
    return 0;
}

int maintain_import_peers(const options *o, dh_store *db, const char *args)
{
    char err[DRTOPK_STORE_ERR_LEN];
    import_peers_stats ps;
    if (import_peers(db, o->import_peers, DRTOPK_GIT_COMMIT, args, &ps, err, sizeof err) != 0) {
        fprintf(stderr, "tuner: %s\n", err);
        return EXIT_USAGE;
    }
    printf("imported %s into %s: %d lines, %d peer measurements added, %d already stored "
           "(%d skipped peers, %d peer errors, %d failed the peer's check)\n",
           o->import_peers, o->db, ps.lines, ps.added, ps.present, ps.skipped, ps.errors,
           ps.unverified);
    return ps.errors || ps.unverified ? EXIT_FAILURES : 0;
}
