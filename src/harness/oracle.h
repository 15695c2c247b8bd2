/*
 * oracle.h -- the correctness oracle: a plain sort-based top-k on the host,
 * deliberately independent of the Dr. Top-k pipeline it checks, and the
 * checker that compares any result against it (FAISS/CUB select-test style).
 */
#ifndef DRTOPK_ORACLE_H
#define DRTOPK_ORACLE_H
#include <stdio.h>
#include "drtopk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sort-based top-k: out_values/out_indices get the k best elements of V,
 * best first (ties by smaller position first). */
drtopk_status dh_oracle_topk(const drtopk_problem *p, void *out_values, uint64_t *out_indices);

typedef struct {
    int ok;
    char why[256];          /* first failure, for the test log */
} dh_check_result;

/* A failed check with its formatted reason (printf's format). */
dh_check_result dh_check_failed(const char *fmt, ...);

/* Check a result (values, indices; any order) against the oracle's values:
 * every index < n and distinct; values[i] is bit-equal to V[indices[i]]; the
 * multiset of ordered keys equals the oracle's.  `oracle_values` may be NULL:
 * then an exact O(n) count replaces the oracle (no sort of V; for large n). */
dh_check_result dh_check(const drtopk_problem *p, const void *values,
                         const uint64_t *indices, const void *oracle_values);

#ifdef __cplusplus
}
#endif
#endif
