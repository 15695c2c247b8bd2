/*
 * emit_table.h -- `tuner --emit-table FILE`: the C source of the library's
 * compiled-in tuning tables (src/lib/tuning_builtin.c, paper section 5.2's
 * choices per GPU model).  A mode: above batch_decide.h (the batched plan's
 * fields) only.  Program-internal.
 */
#ifndef DRTOPK_TUNER_EMIT_TABLE_H
#define DRTOPK_TUNER_EMIT_TABLE_H

/* Write the C source of src/lib/tuning_builtin.c from every tuned GPU of the
 * database at db_path to out_path.  0, or -1 with a message on stderr. */
int emit_table(const char *db_path, const char *out_path);

#endif
