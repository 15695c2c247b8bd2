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

/* Descending: rank 0 is the best key. */
static int cmp_key_desc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x < y) - (x > y);
}

dh_check_result dh_check_failed(const char *fmt, ...)
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

/* Indices in range, values bit-equal to V there, and no index twice: a bitmap
 * of V's positions (n / 8 bytes, calloc'ed: only the pages the k indices touch
 * are ever written), so k = 2^24 of 2^30 costs O(k), not a sort of k. */
static dh_check_result structure(const drtopk_problem *p, const void *val, const uint64_t *idx)
{
    const uint64_t k = p->k;
    const int w = hex_width(p->dtype);
    for (uint64_t i = 0; i < k; ++i) {
        if (idx[i] >= p->n)
            return dh_check_failed("index %" PRIu64 " at result position %" PRIu64 " is out of range (n = %" PRIu64
                                   ")", idx[i], i, p->n);
        const uint64_t got = drtopk_bits_at(val, i, p->dtype), want = drtopk_bits_at(p->values, idx[i], p->dtype);
        if (got != want)
            return dh_check_failed("value 0x%0*" PRIx64 " at result position %" PRIu64 " is not V[%" PRIu64
                                   "] = 0x%0*" PRIx64, w, got, i, idx[i], w, want);
    }
    uint64_t *seen = (uint64_t *)calloc((p->n + 63) / 64, sizeof *seen);
    if (seen == NULL) return dh_check_failed("out of memory in the checker");
    for (uint64_t i = 0; i < k; ++i) {
        const uint64_t bit = 1ull << (idx[i] % 64);
        if (seen[idx[i] / 64] & bit) {
            uint64_t first = 0;
            while (idx[first] != idx[i]) ++first;
            free(seen);
            return dh_check_failed("index %" PRIu64 " repeats at result positions %" PRIu64 " and %" PRIu64, idx[i],
                                   first, i);
        }
        seen[idx[i] / 64] |= bit;
    }
    free(seen);
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
        return dh_check_failed("out of memory in the checker");
    }
    for (uint64_t i = 0; i < k; ++i) {
        a[i] = drtopk_key_at(val, i, p->dtype, p->order);
        b[i] = drtopk_key_at(oracle, i, p->dtype, p->order);
    }
    qsort(a, k, sizeof *a, cmp_key_desc);
    qsort(b, k, sizeof *b, cmp_key_desc);
    for (uint64_t i = 0; i < k; ++i) {
        if (a[i] != b[i]) {
            r = dh_check_failed("ordered key of rank %" PRIu64 " is 0x%0*" PRIx64 ", the oracle's is 0x%0*" PRIx64,
                                i, w, a[i], w, b[i]);
            break;
        }
    }
    free(a); free(b);
    return r;
}

/* Keys of V above m, counted in blocks of COUNT_BLOCK elements: a loop of a
 * fixed trip count with the type and order fixed, which the compiler turns
 * into vector code at -O2 (16- and 32-bit keys 3.8-5.4x faster than key by key,
 * u64 1.5x; at |V| = 2^30, the reference runs' size, key by key takes over a
 * second). */
#define COUNT_BLOCK 64
#define DEFINE_COUNT_ABOVE(NAME, UT, KEY_FROM_BITS, T)                                        \
    static uint64_t NAME##_in(const UT *w, uint64_t n, drtopk_order o, UT m)                  \
    {                                                                                         \
        uint64_t c = 0, i = 0;                                                                \
        for (; i + COUNT_BLOCK <= n; i += COUNT_BLOCK) {                                      \
            unsigned block = 0;                                                               \
            for (int j = 0; j < COUNT_BLOCK; ++j) block += KEY_FROM_BITS(w[i + j], T, o) > m; \
            c += block;                                                                       \
        }                                                                                     \
        for (; i < n; ++i) c += KEY_FROM_BITS(w[i], T, o) > m;                                \
        return c;                                                                             \
    }                                                                                         \
    static uint64_t NAME(const void *v, uint64_t n, drtopk_order o, uint64_t m)               \
    {                                                                                         \
        return o == DRTOPK_LARGEST ? NAME##_in((const UT *)v, n, DRTOPK_LARGEST, (UT)m)       \
                                   : NAME##_in((const UT *)v, n, DRTOPK_SMALLEST, (UT)m);     \
    }
DEFINE_COUNT_ABOVE(count_above_u32, uint32_t, drtopk_key_from_bits, DRTOPK_U32)
DEFINE_COUNT_ABOVE(count_above_i32, uint32_t, drtopk_key_from_bits, DRTOPK_I32)
DEFINE_COUNT_ABOVE(count_above_f32, uint32_t, drtopk_key_from_bits, DRTOPK_F32)
DEFINE_COUNT_ABOVE(count_above_f16, uint16_t, drtopk_key16_from_bits, DRTOPK_F16)
DEFINE_COUNT_ABOVE(count_above_bf16, uint16_t, drtopk_key16_from_bits, DRTOPK_BF16)
DEFINE_COUNT_ABOVE(count_above_u64, uint64_t, drtopk_key64_from_bits, DRTOPK_U64)
DEFINE_COUNT_ABOVE(count_above_i64, uint64_t, drtopk_key64_from_bits, DRTOPK_I64)
DEFINE_COUNT_ABOVE(count_above_f64, uint64_t, drtopk_key64_from_bits, DRTOPK_F64)
#undef DEFINE_COUNT_ABOVE

static uint64_t count_above(const drtopk_problem *p, uint64_t m)
{
    switch (p->dtype) {
    case DRTOPK_U32: return count_above_u32(p->values, p->n, p->order, m);
    case DRTOPK_I32: return count_above_i32(p->values, p->n, p->order, m);
    case DRTOPK_F32: return count_above_f32(p->values, p->n, p->order, m);
    case DRTOPK_F16: return count_above_f16(p->values, p->n, p->order, m);
    case DRTOPK_BF16: return count_above_bf16(p->values, p->n, p->order, m);
    case DRTOPK_U64: return count_above_u64(p->values, p->n, p->order, m);
    case DRTOPK_I64: return count_above_i64(p->values, p->n, p->order, m);
    default: return count_above_f64(p->values, p->n, p->order, m);
    }
}

/* The result holds k distinct elements of V.  With m its minimum key, it is a
 * top-k exactly when every element of V above m is in it, i.e. when V and the
 * result hold equally many keys above m (the result's ones are a subset). */
static dh_check_result by_counting(const drtopk_problem *p, const void *val)
{
    uint64_t m = UINT64_MAX;
    uint64_t above_r = 0, above_v;
    for (uint64_t i = 0; i < p->k; ++i) {
        const uint64_t key = drtopk_key_at(val, i, p->dtype, p->order);
        if (key < m) m = key;
    }
    for (uint64_t i = 0; i < p->k; ++i)
        above_r += drtopk_key_at(val, i, p->dtype, p->order) > m;
    above_v = count_above(p, m);
    if (above_v != above_r)
        return dh_check_failed("not a top-k: V holds %" PRIu64 " elements above the result's minimum key 0x%0*" PRIx64
                               ", the result only %" PRIu64, above_v, hex_width(p->dtype), m, above_r);
    return pass();
}

dh_check_result dh_check(const drtopk_problem *p, const void *values,
                         const uint64_t *indices, const void *oracle_values)
{
    dh_check_result r;
    if (p == NULL || p->values == NULL || p->n == 0 || p->k == 0 || p->k > p->n ||
        (unsigned)p->dtype >= DRTOPK_DTYPE_COUNT || (unsigned)p->order > DRTOPK_SMALLEST)
        return dh_check_failed("invalid problem given to the checker");
    if (values == NULL || indices == NULL) return dh_check_failed("result values or indices are NULL");
    r = structure(p, values, indices);
    if (!r.ok) return r;
    if (oracle_values != NULL) return against_oracle(p, values, oracle_values);
    return by_counting(p, values);
}
