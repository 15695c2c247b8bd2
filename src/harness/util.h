/*
 * util.h -- small host helpers shared by the CLI, tests and tuner: parsing of
 * sizes written as 2^p or plain numbers, a monotonic clock, medians.
 */
#ifndef DRTOPK_UTIL_H
#define DRTOPK_UTIL_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Parse "2^30", "1073741824", "1000003" (optionally "2^30+17").  Returns 0 on
 * success, -1 on anything else (empty, junk, overflow of uint64). */
int drtopk_parse_u64(const char *s, uint64_t *out);
double drtopk_now_ms(void);                     /* CLOCK_MONOTONIC in ms      */
double drtopk_median(double *v, size_t n);      /* sorts v in place           */
int drtopk_ilog2_floor(uint64_t x);             /* x > 0                      */
int drtopk_ilog2_ceil(uint64_t x);              /* x > 0                      */

#ifdef __cplusplus
}
#endif
#endif
