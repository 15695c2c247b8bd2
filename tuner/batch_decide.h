/*
 * batch_decide.h -- the batched top-k's crossovers (tuner --batch, the
 * per-segment algorithms of paper sections 4-5): the plan fields the tuner
 * decides, the two candidates each crossover weighs, and the rule that turns
 * a GPU's batched measurements into the values of its drtopk_batch_plan.
 * Pure: no measuring, no database; includes no other tuner header (its .c
 * takes DECIDE_MARGIN from options.h).  Program-internal.
 */
#ifndef DRTOPK_TUNER_BATCH_DECIDE_H
#define DRTOPK_TUNER_BATCH_DECIDE_H
#include <stddef.h>
#include <stdint.h>

#include "drtopk.h"
#include "store.h"

/* The plan fields the tuner decides, as batch_choices names them. */
enum { BATCH_TINY_MAX_K, BATCH_WARP_MAX_K, BATCH_WARP_MAX_LEN, BATCH_STAGED_MAX_LEN, BATCH_BLOCK_MAX_LEN,
       BATCH_TINY_MAX_K_64, BATCH_BLOCK_MAX_LEN_64, BATCH_FILTER_MIN_LEN, BATCH_FIELD_COUNT };
extern const char *const batch_field_names[BATCH_FIELD_COUNT];
typedef enum { BATCH_AXIS_K, BATCH_AXIS_LEN } batch_axis;
/* The key widths a crossover's decision weighs: every dtype, keys of at most
 * 4 bytes, keys of 8 (the plan's _64 fields, drtopk.h). */
typedef enum { BATCH_WIDTH_ANY, BATCH_WIDTH_32, BATCH_WIDTH_64 } batch_width;
/* A crossover: the field it sets, the measurements' crossover name (the
 * field's, or the 32-bit field's for a _64 one: one sweep serves both), the
 * key widths of the rows it weighs, the candidate the field's value admits,
 * the other, and the swept axis. */
typedef struct {
    int field;
    int measured;
    batch_width width;
    const char *admitted, *other;
    batch_axis axis;
} batch_crossover;
#define BATCH_CROSSOVER_COUNT 7
extern const batch_crossover batch_crossovers[BATCH_CROSSOVER_COUNT];
/* The field of `plan` numbered `field`; the number of a field's name, or -1. */
uint64_t *batch_field(drtopk_batch_plan *plan, int field);
int batch_field_of(const char *name);
/* What the decision of one field weighed: the workloads compared (0: not
 * decided), the worst slowdown of the chosen value and of the default. */
typedef struct {
    int points;
    double worst, default_worst;
} batch_outcome;
/* The crossovers that n measurement rows decide, written into plan (fields
 * the rows do not decide keep their value, which is the default each
 * decision weighs; a value replaces it only where it beats the default's
 * worst slowdown by more than DECIDE_MARGIN); out[f]: field f's decision.
 * 0, or -1 (no memory). */
int batch_decide(const dh_store_batch_row *rows, size_t n, drtopk_batch_plan *plan,
                 batch_outcome out[BATCH_FIELD_COUNT]);

#endif
