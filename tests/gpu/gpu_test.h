/*
 * gpu_test.h -- the one pass/fail convention of the GPU test programs
 * (tests/gpu/test_*.c, test_*.cu), usable from C and CUDA C++: every check
 * prints a TAP-like line,
 *     ok N name
 *     not ok N name: reason
 *     ok N name # SKIP reason
 * and gt_finish() closes with "1..N" and "N passed, N failed" (the line
 * tests/gpu/suite.sh and mutation.sh total) and returns the exit status:
 * 0 when nothing failed, else 1.  A program that finds no GPU prints
 * "0 passed, 0 failed" and exits GT_EXIT_NO_GPU, which suite.sh counts as a
 * failure: `ninja test-gpu` on a machine without a GPU must not pass.  A CUDA
 * call that fails outside a check ends the program (cuda_check.h, exit 2).
 * Every main starts with gt_begin() (stdout line-buffered: a run killed by a
 * timeout leaves a log that ends at its last finished check); gt_slow() notes
 * the cases that take over GT_SLOW_MS, so a log shows where the time goes.
 * Header-only: each test program is one translation unit.
 */
#ifndef DRTOPK_GPU_TEST_H
#define DRTOPK_GPU_TEST_H
#include <stdarg.h>
#include <stdio.h>

#define GT_EXIT_NO_GPU 77        /* the "skipped" exit status of test harnesses */
#define GT_NAME_MAX 512          /* longest name or reason printed              */
#define GT_SLOW_MS 1000.0        /* a case that takes longer prints its time    */

static int gt_passed, gt_failed, gt_skipped;

static inline int gt_count(void) { return gt_passed + gt_failed + gt_skipped; }

/* The line of one check; `reason` only when it failed.  Flushed at once, so
 * a suite killed at its time limit (or piped to a log) shows its last case. */
static inline void gt_line(int ok, const char *name, const char *reason)
{
    if (ok) {
        ++gt_passed;
        printf("ok %d %s\n", gt_count(), name);
    } else {
        ++gt_failed;
        printf("not ok %d %s: %s\n", gt_count(), name, reason);
    }
    fflush(stdout);
}

/* One check: `ok` decides; the reason is formatted only when it failed. */
static inline void gt_check(int ok, const char *name, const char *reason_fmt, ...)
{
    char reason[GT_NAME_MAX] = "";
    if (!ok) {
        va_list ap;
        va_start(ap, reason_fmt);
        vsnprintf(reason, sizeof reason, reason_fmt, ap);
        va_end(ap);
    }
    gt_line(ok, name, reason);
}

/* A check whose name is formatted (the name must hold the whole case). */
static inline void gt_checkf(int ok, const char *reason, const char *name_fmt, ...)
{
    char name[GT_NAME_MAX];
    va_list ap;
    va_start(ap, name_fmt);
    vsnprintf(name, sizeof name, name_fmt, ap);
    va_end(ap);
    gt_line(ok, name, reason);
}

/* A check that could not run (e.g. an algorithm not built): not a failure. */
static inline void gt_skipf(const char *why, const char *name_fmt, ...)
{
    char name[GT_NAME_MAX];
    va_list ap;
    va_start(ap, name_fmt);
    vsnprintf(name, sizeof name, name_fmt, ap);
    va_end(ap);
    ++gt_skipped;
    printf("ok %d %s # SKIP %s\n", gt_count(), name, why);
}

/* Progress or context, as a TAP comment. */
static inline void gt_note(const char *fmt, ...)
{
    va_list ap;
    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

/* First thing in main: stdout line-buffered, even into a file. */
static inline void gt_begin(void) { setvbuf(stdout, NULL, _IOLBF, 0); }

/* After one case that took `ms` milliseconds (wall): its time, when slow. */
static inline void gt_slow(const char *name, double ms)
{
    if (ms > GT_SLOW_MS) gt_note("%s: %.1f s", name, ms / 1000.0);
}

/* The closing lines; the program's exit status. */
static inline int gt_finish(void)
{
    if (gt_skipped) printf("# %d skipped\n", gt_skipped);
    printf("1..%d\n%d passed, %d failed\n", gt_count(), gt_passed, gt_failed);
    fflush(stdout);
    return gt_failed != 0;
}

/* No GPU: say so and return the status that marks the suite as not run. */
static inline int gt_no_gpu(const char *program)
{
    printf("# no CUDA device: %s not run\n0 passed, 0 failed\n", program);
    return GT_EXIT_NO_GPU;
}

#ifdef __CUDACC__
#include <cuda_runtime.h>
/* For the CUDA test programs that link no harness: is a device usable? */
static inline int gt_have_gpu(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}
#endif
#endif
