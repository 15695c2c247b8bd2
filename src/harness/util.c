/*
 * util.c -- small host helpers (util.h): sizes written as 2^p, 2^p+q or plain
 * decimals (the CLI's --n/--k take the paper's 2^30-style sizes), a monotonic
 * millisecond clock for host-side stage timings, medians for repeated runs,
 * and integer log2 used by Rule 4 (paper section 5.2).
 */
#include "util.h"

#include <stdlib.h>
#include <time.h>

#define U64_BITS 64

/* Parse a run of decimal digits at *s into *out; advances *s.  -1 on no digit
 * or overflow of uint64. */
static int parse_decimal(const char **s, uint64_t *out)
{
    const char *p = *s;
    uint64_t v = 0;
    if (*p < '0' || *p > '9') return -1;
    for (; *p >= '0' && *p <= '9'; ++p) {
        uint64_t d = (uint64_t)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) return -1;
        v = v * 10 + d;
    }
    *s = p;
    *out = v;
    return 0;
}

int drtopk_parse_u64(const char *s, uint64_t *out)
{
    uint64_t base, add = 0;
    if (s == NULL || out == NULL) return -1;
    if (parse_decimal(&s, &base) != 0) return -1;
    if (*s == '^') {
        /* "2^p": only base 2 is meaningful for sizes */
        uint64_t e;
        ++s;
        if (base != 2 || parse_decimal(&s, &e) != 0 || e >= U64_BITS) return -1;
        base = 1ull << e;
        if (*s == '+') {
            ++s;
            if (parse_decimal(&s, &add) != 0 || add > UINT64_MAX - base) return -1;
        }
    }
    if (*s != '\0') return -1;
    *out = base + add;
    return 0;
}

double drtopk_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double drtopk_median(double *v, size_t n)
{
    if (v == NULL || n == 0) return 0.0;
    qsort(v, n, sizeof *v, cmp_double);
    return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int drtopk_ilog2_floor(uint64_t x)
{
    int r = -1;          /* x == 0 has no log; -1 marks it */
    while (x) { x >>= 1; ++r; }
    return r;
}

int drtopk_ilog2_ceil(uint64_t x)
{
    if (x <= 1) return 0;
    return drtopk_ilog2_floor(x - 1) + 1;
}
