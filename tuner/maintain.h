/*
 * maintain.h -- the tuner's runs on the results database alone, no
 * measuring: `tuner --migrate`, `tuner --merge OTHER` and `tuner
 * --import-peers FILE` (the modern peers beside paper section 6's
 * comparison).  A mode: above import_peers.h (the JSON lines' reader) and
 * options.h.  Program-internal.
 */
#ifndef DRTOPK_TUNER_MAINTAIN_H
#define DRTOPK_TUNER_MAINTAIN_H
#include "options.h"
#include "store.h"

/* Each prints what it did on stdout and returns the exit status: 0, or
 * EXIT_USAGE with a message on stderr; maintain_import_peers also
 * EXIT_FAILURES when a peer reported an error or failed its check.  args:
 * the command line, stored with the peers' run. */
int maintain_migrate(const options *o, dh_store *db);
int maintain_merge(const options *o, dh_store *db);
int maintain_import_peers(const options *o, dh_store *db, const char *args);

#endif
