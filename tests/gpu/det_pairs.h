/*
 * det_pairs.h -- DRTOPK_DETERMINISTIC results as (position, value bits)
 * pairs, for the GPU tests that compare them with the CPU backend's: sorted
 * results slot by slot, unsorted ones as sets (each group of slots ordered
 * by position here, padding last).  Header-only, C and CUDA C++.
 */
#ifndef DRTOPK_DET_PAIRS_H
#define DRTOPK_DET_PAIRS_H
#include <stdint.h>
#include <stdlib.h>
#include "drtopk.h"
#include "keyorder.h"

typedef struct {
    uint64_t pos, bits;
} det_pair;

static inline int det_pair_by_pos(const void *a, const void *b)
{
    const det_pair *x = (const det_pair *)a, *y = (const det_pair *)b;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* out[i] = slot i of (vals of dtype t, idx), n slots; unless sorted, each
 * group of `group` slots (a segment's k) ordered by position. */
static inline void det_pairs_of(const void *vals, const uint64_t *idx, size_t n, drtopk_dtype t, int sorted,
                                size_t group, det_pair *out)
{
    for (size_t i = 0; i < n; ++i) {
        out[i].pos = idx[i];
        out[i].bits = drtopk_bits_at(vals, i, t);
    }
    if (!sorted && group > 0)
        for (size_t g = 0; g + group <= n; g += group) qsort(out + g, group, sizeof *out, det_pair_by_pos);
}

#endif
