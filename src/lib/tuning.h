/*
 * tuning.h -- library-internal: how drtopk_plan_auto (api.c) picks Rule 4's
 * const, beta and algorithm (paper section 5.2) from tuning tables, and the
 * tables compiled into the library per GPU model (tuning_builtin.c).  Split
 * out so the unit tests drive the matching with tables of their own.
 * Library-internal: no program outside src/lib and the tests includes it.
 */
#ifndef DRTOPK_TUNING_H
#define DRTOPK_TUNING_H
#include "drtopk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The tables compiled into the library (tuning_builtin.c): one per GPU name. */
extern const drtopk_tuning drtopk_builtin_tunings[];
extern const size_t drtopk_builtin_tuning_count;

/* The first of `count` tables whose gpu_name equals gpu_name, or NULL. */
const drtopk_tuning *drtopk_tuning_for_gpu(const drtopk_tuning *tables, size_t count,
                                           const char *gpu_name);

/* drtopk_plan_auto with the compiled-in table already chosen: the first entry
 * of `tuning` that matches p, else of `builtin`, else Rule 4 with const 3.
 * Either table may be NULL. */
drtopk_status drtopk_plan_from_tables(drtopk_plan *plan, const drtopk_problem *p,
                                      const drtopk_tuning *tuning, const drtopk_tuning *builtin);

/* A GPU model's batch plan (drtopk_batch_plan_auto): the crossovers `tuner
 * --batch` measured there (tuner/batch_decide.c), flags 0. */
typedef struct {
    const char *gpu_name;
    drtopk_batch_plan plan;
} drtopk_batch_tuning;

/* The batch plans compiled into the library (tuning_builtin.c). */
extern const drtopk_batch_tuning drtopk_builtin_batch_tunings[];
extern const size_t drtopk_builtin_batch_tuning_count;

/* drtopk_batch_plan_auto with the GPU model known: the plan of the first of
 * `count` tables whose gpu_name equals gpu_name, else (gpu_name NULL too) the
 * built-in defaults.  Returns whether a table matched. */
int drtopk_batch_plan_for_gpu(drtopk_batch_plan *plan, const drtopk_batch_tuning *tables, size_t count,
                              const char *gpu_name);

#ifdef __cplusplus
}
#endif
#endif
