/*
 * clock.h -- the library's wall clock: CLOCK_MONOTONIC in milliseconds, for
 * the stage times of the CPU backend (cpu_ref.c, cpu_radix.c) and the copy and
 * compute times of out-of-core streaming (ooc.c; paper section 5.4, Table 2).
 * Inline, so a module linked outside libdrtopk (ooc.c) needs no hidden symbol.
 */
#ifndef DRTOPK_CLOCK_H
#define DRTOPK_CLOCK_H
#include <time.h>

#define DRTOPK_MS_PER_S 1e3     /* seconds and nanoseconds to milliseconds */
#define DRTOPK_MS_PER_NS 1e-6

static inline double drtopk_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * DRTOPK_MS_PER_S + (double)ts.tv_nsec * DRTOPK_MS_PER_NS;
}
#endif
