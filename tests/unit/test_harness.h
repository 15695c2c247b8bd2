/*
 * test_harness.h -- a tiny unit-test registry for the C tests: each test is a
 * function registered by name; a CHECK that fails records file:line and a
 * message and ends that test at once (longjmp back to the runner), so helper
 * functions may CHECK too.  test_main.c prints TAP lines ("ok N - name").
 * A file registers its tests from a register_*_tests function that test_main
 * calls, or from an __attribute__((constructor)) function (test_register
 * works before main).
 */
#ifndef DRTOPK_TEST_HARNESS_H
#define DRTOPK_TEST_HARNESS_H
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include "drtopk.h"

typedef void (*test_fn)(void);

void test_register(const char *name, test_fn fn);
#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 3, 4)))
#endif
void test_fail(const char *file, int line, const char *fmt, ...);

/* What the running test is doing now (e.g. the case it checks); printed
 * with a crash, which otherwise loses the case description. */
void test_context(const char *what);

#define CHECK(cond) \
    do { if (!(cond)) test_fail(__FILE__, __LINE__, "%s", #cond); } while (0)
#define CHECKF(cond, ...) \
    do { if (!(cond)) test_fail(__FILE__, __LINE__, __VA_ARGS__); } while (0)
#define CHECK_EQ_U64(a, b) \
    do { uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b); \
         if (a_ != b_) test_fail(__FILE__, __LINE__, "%s == %s: %" PRIu64 " != %" PRIu64, #a, #b, a_, b_); \
    } while (0)
#define CHECK_STATUS(expr, want) \
    do { drtopk_status got_ = (expr), want_ = (want); \
         if (got_ != want_) test_fail(__FILE__, __LINE__, "%s: got %d (%s), want %d (%s)", #expr, \
             (int)got_, drtopk_status_string(got_), (int)want_, drtopk_status_string(want_)); \
    } while (0)

/* One registration function per test file, called by test_main.c. */
void register_keyorder_tests(void);
void register_gen_tests(void);
void register_api_tests(void);
void register_cpu_ref_tests(void);
void register_spec_tests(void);

#endif
