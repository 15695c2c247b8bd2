/*
 * cli.h -- what the `drtopk` subcommands in files of their own (dataset_cmd.c)
 * share with cli.c: the option parser, the error printers and exit codes
 * (runopt.h, shared with drtopk-mpi) and the subcommands' entry points.
 */
#ifndef DRTOPK_CLI_H
#define DRTOPK_CLI_H
#include "runopt.h"

/* drtopk dataset (dataset_cmd.c) */
int cmd_dataset(int argc, char **argv);
extern const char help_dataset[];

/* drtopk batch (batch_cmd.c) */
int cmd_batch(int argc, char **argv);
extern const char help_batch[];
#endif
