/*
 * cli.h -- what the `drtopk` subcommands in files of their own (dataset_cmd.c)
 * share with cli.c: the option parser, the error printers and exit codes.
 */
#ifndef DRTOPK_CLI_H
#define DRTOPK_CLI_H
#include <stdint.h>

enum { EXIT_RUNTIME = 1, EXIT_USAGE = 2, EXIT_VERIFY = 3 };

typedef struct {
    const char *name;           /* without the leading "--" */
    int id;
    int takes_value;
} opt_spec;

typedef int (*opt_handler)(void *ctx, int id, const char *opt, const char *val);

int parse_options(const char *cmd, const opt_spec *specs, int argc, char **argv, opt_handler handle, void *ctx);
int parse_size(const char *opt, const char *val, uint64_t *out);
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int runtime_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* drtopk dataset (dataset_cmd.c) */
int cmd_dataset(int argc, char **argv);
extern const char help_dataset[];
#endif
