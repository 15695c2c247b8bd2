/*
 * check.c -- dh_check (oracle.h): decides whether k (value, index) pairs
 * are an exact top-k of V.  Structural checks first (indices in range and
 * distinct, values bit-equal to V at their indices), then the value check:
 * against the oracle's values when given, else an exact O(n) counting test
 * that needs no sort of V, so that results for |V| = 2^30 can be verified.
 */
#include "oracle.h"
#include "keyorder.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t idx;
    uint64_t at;        /* position in the result */
} idx_at;

static int cmp_idx_at(const void *a, const void *b)
{
    const idx_at *x = (const idx_at *)a, *y = (const idx_at *)b;
    if (x->idx != y->idx) return x->idx < y->idx ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

/* Descending: rank 0 is the best key. */
static int cmp_key_desc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x < y) - (x > y);
}

static dh_check_result fail(const char *fmt, ...)
{
    dh_check_result r;
    va_list ap;
    r.ok = 0;
    va_start(ap, fmt);
    vsnprintf(r.why, sizeof r.why, fmt, ap);
    va_end(ap);
    return r;
}

static dh_check_result pass(void)
{
    dh_check_result r;
    r.ok = 1;
    r.why[0] = '\0';
    return r;
}

/* Hex digits of one element of dtype t in messages. */
static int hex_width(drtopk_dtype t) { return drtopk_dtype_bits(t) / 4; }

static dh_check_result structure(const drtopk_problem *p, const void *val, const uint64_t *idx)
{
    const uint64_t k = p->k;
    const int w = hex_width(p->dtype);
    idx_at *s;
    for (uint64_t i = 0; i < k; ++i) {
        if (idx[i] >= p->n)
            return fail("index %" PRIu64 " at result position %" PRIu64 " is out of range (n = %" PRIu64 ")",
                        idx[i], i, p->n);
        const uint64_t got = drtopk_bits_at(val, i, p->dtype), want = drtopk_bits_at(p->values, idx[i], p->dtype);
        if (got != want)
            return fail("value 0x%0*" PRIx64 " at result position %" PRIu64 " is not V[%" PRIu64 "] = 0x%0*" PRIx64,
                        w, got, i, idx[i], w, want);
    }
    if ((s = (idx_at *)malloc(k * sizeof *s)) == NULL) return fail("out of memory in the checker");
    for (uint64_t i = 0; i < k; ++i) { s[i].idx = idx[i]; s[i].at = i; }
    qsort(s, k, sizeof *s, cmp_idx_at);
    for (uint64_t i = 1; i < k; ++i) {
        if (s[i].idx == s[i - 1].idx) {
            dh_check_result r = fail("index %" PRIu64 " repeats at result positions %" PRIu64 " and %" PRIu64,
                                     s[i].idx, s[i - 1].at, s[i].at);
            free(s);
            return r;
        }
    }
    free(s);
    return pass();
}

static dh_check_result against_oracle(const drtopk_problem *p, const void *val, const void *oracle)
{
    const uint64_t k = p->k;
    const int w = hex_width(p->dtype);
    dh_check_result r = pass();
    uint64_t *a = (uint64_t *)malloc(k * sizeof *a), *b = (uint64_t *)malloc(k * sizeof *b);
    if (!a || !b) {
        free(a); free(b);
        return fail("out of memory in the checker");
    }
    for (uint64_t i = 0; i < k; ++i) {
        a[i] = drtopk_key_at(val, i, p->dtype, p->order);
        b[i] = drtopk_key_at(oracle, i, p->dtype, p->order);
    }
    qsort(a, k, sizeof *a, cmp_key_desc);
    qsort(b, k, sizeof *b, cmp_key_desc);
    for (uint64_t i = 0; i < k; ++i) {
        if (a[i] != b[i]) {
            r = fail("ordered key of rank %" PRIu64 " is 0x%0*" PRIx64 ", the oracle's is 0x%0*" PRIx64,
                     i, w, a[i], w, b[i]);
            break;
        }
    }
    free(a); free(b);
    return r;
}

/* The result holds k distinct elements of V.  With m its minimum key, it is a
 * top-k exactly when every element of V above m is in it, i.e. when V and the
 * result hold equally many keys above m (the result's ones are a subset). */
static dh_check_result by_counting(const drtopk_problem *p, const void *val)
{
    uint64_t m = UINT64_MAX;
    uint64_t above_r = 0, above_v = 0;
    for (uint64_t i = 0; i < p->k; ++i) {
        const uint64_t key = drtopk_key_at(val, i, p->dtype, p->order);
        if (key < m) m = key;
    }
    for (uint64_t i = 0; i < p->k; ++i)
        above_r += drtopk_key_at(val, i, p->dtype, p->order) > m;
    for (uint64_t i = 0; i < p->n; ++i)
        above_v += drtopk_key_at(p->values, i, p->dtype, p->order) > m;
    if (above_v != above_r)
        return fail("not a top-k: V holds %" PRIu64 " elements above the result's minimum key 0x%0*" PRIx64
                    ", the result only %" PRIu64, above_v, hex_width(p->dtype), m, above_r);
    return pass();
}

dh_check_result dh_check(const drtopk_problem *p, const void *values,
                         const uint64_t *indices, const void *oracle_values)
{
    dh_check_result r;
    if (p == NULL || p->values == NULL || p->n == 0 || p->k == 0 || p->k > p->n ||
        (unsigned)p->dtype >= DRTOPK_DTYPE_COUNT || (unsigned)p->order > DRTOPK_SMALLEST)
        return fail("invalid problem given to the checker");
    if (values == NULL || indices == NULL) return fail("result values or indices are NULL");
    r = structure(p, values, indices);
    if (!r.ok) return r;
    if (oracle_values != NULL) return against_oracle(p, values, oracle_values);
    return by_counting(p, values);
}
