/*
 * heldout.h -- where the tuner checks a cell of its decision table off the
 * grid point that chose it (paper section 5.2: a tuning must hold for sizes
 * the sweep did not measure).  Below decide.c; program-internal.
 */
#ifndef DRTOPK_TUNER_HELDOUT_H
#define DRTOPK_TUNER_HELDOUT_H
#include <stdint.h>

#include "drtopk.h"
#include "store.h"

enum { HELDOUT_POINTS_MAX = 2 };    /* the cell's middle and its far corner */

/* Whether two plans are one plan: algorithms, alpha, beta and flags. */
int plans_equal(const drtopk_plan *a, const drtopk_plan *b);

/* Whether cell c of key type t, alone as a table, changes the plan of (n, k)
 * on backend b: (n, k) lies in the cell and the plan it gives is not the size
 * rules' (drtopk_plan_size_rules). */
int cell_acts_at(drtopk_backend b, drtopk_dtype t, const dh_store_choice *c, uint64_t n, uint64_t k);

/* The held-out points of cell c of key type t, chosen at the grid point
 * (grid_n, grid_k) of a sweep whose largest n is n_max, on backend b: the
 * cell's middle and, where the cell reaches past the middle below n_max, its
 * far corner (the largest n and k it covers, where limits that grow with n
 * and k bite first).  Each is the first of its candidates at which the cell
 * changes the plan (cell_acts_at), so that the check measures the cell where
 * it acts; where none of them does, the first candidate (a point the check
 * then skips as the same plan).  The middle's candidates, in order: n 3/2 of
 * the grid's plus 3 with k doubled (3/2 where the cell's k range ends
 * before); that n with the grid's k; the grid's n with k 3/2 of the grid's.
 * The corner's: n 5 below the cell's end with k 1 below its end (at most
 * n/2); that n with the grid's k.  Writes n[] and k[]; returns the number of
 * points, 1 or 2. */
int heldout_points(drtopk_backend b, drtopk_dtype t, const dh_store_choice *c, uint64_t grid_n, uint64_t grid_k,
                   uint64_t n_max, uint64_t n[HELDOUT_POINTS_MAX], uint64_t k[HELDOUT_POINTS_MAX]);

#endif
