/*
 * oracle.c -- the correctness oracle of oracle.h: a plain sort of the whole
 * input by ordered key (best first, ties by smaller position), written apart
 * from the Dr. Top-k pipeline (cpu_ref.c uses qsort on (key, position) pairs;
 * this is a stable least-significant-digit radix sort over the key's width,
 * 16, 32 or 64 bits), so that one bug cannot hide in both.
 */
#include "oracle.h"
#include "keyorder.h"

#include <stdlib.h>
#include <string.h>

#define ORACLE_DIGIT_BITS 8
#define ORACLE_RADIX (1u << ORACLE_DIGIT_BITS)

static int problem_ok(const drtopk_problem *p)
{
    return p && p->values && p->n > 0 && p->k > 0 && p->k <= p->n &&
           (unsigned)p->dtype < DRTOPK_DTYPE_COUNT && (unsigned)p->order <= DRTOPK_SMALLEST;
}

drtopk_status dh_oracle_topk(const drtopk_problem *p, void *out_values, uint64_t *out_indices)
{
    uint64_t n, cnt[ORACLE_RADIX];
    uint64_t *rk, *rk2;           /* reversed keys (~key): ascending = best first */
    int passes;
    uint64_t *pos, *pos2;
    if (!problem_ok(p) || out_values == NULL || out_indices == NULL)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    n = p->n;
    passes = drtopk_dtype_bits(p->dtype) / ORACLE_DIGIT_BITS;
    rk = (uint64_t *)malloc(n * sizeof *rk);
    rk2 = (uint64_t *)malloc(n * sizeof *rk2);
    pos = (uint64_t *)malloc(n * sizeof *pos);
    pos2 = (uint64_t *)malloc(n * sizeof *pos2);
    if (!rk || !rk2 || !pos || !pos2) {
        free(rk); free(rk2); free(pos); free(pos2);
        return DRTOPK_ERR_OUT_OF_MEMORY;
    }
    for (uint64_t i = 0; i < n; ++i) {
        rk[i] = ~drtopk_key_at(p->values, i, p->dtype, p->order);
        pos[i] = i;
    }
    /* Stable counting-sort passes, least significant digit first: equal keys
     * keep their initial (ascending position) order. */
    for (int pass = 0; pass < passes; ++pass) {
        const int shift = pass * ORACLE_DIGIT_BITS;
        uint64_t sum = 0;
        memset(cnt, 0, sizeof cnt);
        for (uint64_t i = 0; i < n; ++i) cnt[(rk[i] >> shift) & (ORACLE_RADIX - 1)]++;
        for (unsigned d = 0; d < ORACLE_RADIX; ++d) {
            uint64_t c = cnt[d];
            cnt[d] = sum;
            sum += c;
        }
        for (uint64_t i = 0; i < n; ++i) {
            uint64_t dst = cnt[(rk[i] >> shift) & (ORACLE_RADIX - 1)]++;
            rk2[dst] = rk[i];
            pos2[dst] = pos[i];
        }
        uint64_t *tk = rk; rk = rk2; rk2 = tk;
        uint64_t *tp = pos; pos = pos2; pos2 = tp;
    }
    for (uint64_t j = 0; j < p->k; ++j) {
        drtopk_bits_store(out_values, j, p->dtype, drtopk_bits_at(p->values, pos[j], p->dtype));
        out_indices[j] = pos[j];
    }
    free(rk); free(rk2); free(pos); free(pos2);
    return DRTOPK_OK;
}
