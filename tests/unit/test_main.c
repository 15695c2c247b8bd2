/*
 * test_main.c -- runner of the C unit tests (test_harness.h): runs every
 * registered test (or those whose name contains argv[1]), prints one TAP line
 * per test and ends with "unit: P passed, F failed"; exit status 1 on any
 * failure.  A test that crashes (SIGSEGV, SIGABRT from an assert, ...) is
 * reported as failed and the run goes on with the next one.
 */
#include "test_harness.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TESTS 256
#define WHY_LEN 1024

static struct { const char *name; test_fn fn; } tests[MAX_TESTS];
static int n_tests;
static sigjmp_buf on_fail;
static char why[WHY_LEN];
static char context[WHY_LEN / 2];
static int passed, failed, number;   /* outside main: setjmp must not clobber them */

void test_register(const char *name, test_fn fn)
{
    if (n_tests == MAX_TESTS) {
        fprintf(stderr, "test_main: more than %d tests; raise MAX_TESTS\n", MAX_TESTS);
        exit(2);
    }
    tests[n_tests].name = name;
    tests[n_tests].fn = fn;
    ++n_tests;
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    int len = snprintf(why, sizeof why, "%s:%d: ", file, line);
    va_start(ap, fmt);
    vsnprintf(why + len, sizeof why - (size_t)len, fmt, ap);
    va_end(ap);
    siglongjmp(on_fail, 1);
}

void test_context(const char *what)
{
    snprintf(context, sizeof context, "%s", what);
}

static void on_signal(int sig)
{
    /* best effort: snprintf is not async-signal-safe, but the test is lost anyway */
    snprintf(why, sizeof why, "crashed with signal %d (%.64s)%s%.500s", sig, strsignal(sig),
             context[0] ? " during: " : "", context);
    siglongjmp(on_fail, 1);
}

static void catch_crashes(void)
{
    static const int sigs[] = { SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i) sigaction(sigs[i], &sa, NULL);
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    catch_crashes();
    register_keyorder_tests();
    register_gen_tests();
    register_api_tests();
    register_cpu_ref_tests();
    register_spec_tests();
    for (int i = 0; i < n_tests; ++i)
        number += !filter || strstr(tests[i].name, filter);
    printf("1..%d\n", number);
    number = 0;
    for (int i = 0; i < n_tests; ++i) {
        if (filter && !strstr(tests[i].name, filter)) continue;
        ++number;
        context[0] = '\0';
        fflush(stdout);
        if (sigsetjmp(on_fail, 1) == 0) {
            tests[i].fn();
            printf("ok %d - %s\n", number, tests[i].name);
            ++passed;
        } else {
            printf("not ok %d - %s: %s\n", number, tests[i].name, why);
            ++failed;
        }
    }
    printf("unit: %d passed, %d failed\n", passed, failed);
    return failed > 0;
}
