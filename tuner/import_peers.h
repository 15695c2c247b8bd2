/*
 * import_peers.h -- `tuner --import-peers FILE.jsonl`: the modern peers' JSON
 * lines (experiments/peers/run_peers.sh) into the results
 * database's peer_measurements table, beside the algorithms of the paper's
 * section 6 comparison.
 */
#ifndef DRTOPK_IMPORT_PEERS_H
#define DRTOPK_IMPORT_PEERS_H
#include <stdio.h>
#include "store.h"

/* What one import did. */
typedef struct {
    int lines;                  /* non-blank lines read                         */
    int added;                  /* rows inserted                                */
    int present;                /* rows whose key the database already had      */
    int skipped;                /* lines of a peer that did not run             */
    int errors;                 /* lines reporting a peer error                 */
    int unverified;             /* measurements that failed the peer's check    */
} import_peers_stats;

/* Read every line of `path` first (a malformed one is refused with
 * "PATH:LINE: why" in err and nothing is written), then record one `runs` row
 * (program "tuner", argv as given, commit git_commit) and the lines in one
 * transaction.  Returns 0 on success, -1 with err set otherwise. */
int import_peers(dh_store *db, const char *path, const char *git_commit, const char *argv,
                 import_peers_stats *st, char *err, size_t err_len);

#endif
