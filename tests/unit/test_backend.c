/*
 * test_backend.c -- the library's backends as a user's program sees them:
 * linked against build/libdrtopk.so and the public API of drtopk.h alone
 * (test_unit links the CPU backend's internals instead).  Checks
 * drtopk_backend_available and that, where the CUDA backend cannot run (a
 * --cpu-only build, or a CUDA build on a machine without a driver or a GPU),
 * planning a CUDA problem still works and the workspace query, the select
 * and the batched select fail with DRTOPK_ERR_NO_BACKEND and that reason --
 * never with a message about an error pending from earlier calls.  Where a
 * GPU is usable the CUDA checks are skipped (tests/gpu covers that backend).
 * Prints one TAP line per check; exit status 1 when one fails.
 */
#include "drtopk.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 64            /* a small vector: nothing here measures speed */
#define K 4
#define SENTINEL 0xFFu  /* out_values bytes a refused select must leave alone */

static int number, failed;

static void tap(int ok, const char *fmt, ...)
{
    va_list ap;
    printf("%s %d - ", ok ? "ok" : "not ok", ++number);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    if (!ok) {
        ++failed;
        printf("#   drtopk_last_error: %s\n", drtopk_last_error());
    }
}

static void skip(const char *what, const char *why)
{
    printf("ok %d - %s # SKIP %s\n", ++number, what, why);
}

/* The failed call named the reason drtopk_backend_available gave, and no
 * error pending from before the call. */
static int names_reason(const char *why)
{
    const char *e = drtopk_last_error();
    return strstr(e, why) != NULL && strstr(e, "pending") == NULL && strstr(e, "earlier") == NULL;
}

int main(void)
{
    uint32_t v[N], out[K];
    uint64_t idx[K];
    unsigned char ws[256];
    const char *why = "unset";
    for (uint32_t i = 0; i < N; ++i) v[i] = i * 37u % N;

    tap(drtopk_backend_available(DRTOPK_BACKEND_CPU, &why) == 1 && why[0] == '\0',
        "the CPU backend is always available, with no reason given");
    tap(drtopk_backend_available((drtopk_backend)7, &why) == 0 && why[0] != '\0',
        "an unknown backend is not available and says so");
    tap(drtopk_backend_available(DRTOPK_BACKEND_CUDA, NULL) == drtopk_backend_available(DRTOPK_BACKEND_CUDA, &why),
        "why may be NULL; the CUDA answer is the same on every call");

    if (drtopk_backend_available(DRTOPK_BACKEND_CUDA, &why)) {
        skip("the CUDA backend without a usable GPU", "a GPU is usable here");
    } else {
        printf("# the CUDA backend cannot run here: %s\n", why);
        tap(why[0] != '\0', "an unavailable CUDA backend gives a reason");
        drtopk_problem p = { .backend = DRTOPK_BACKEND_CUDA, .dtype = DRTOPK_U32, .order = DRTOPK_LARGEST,
                             .n = N, .k = K, .values = v };
        drtopk_plan plan;
        size_t bytes = 0;
        tap(drtopk_plan_auto(&plan, &p, NULL) == DRTOPK_OK, "planning a CUDA problem needs no GPU");
        tap(drtopk_select_workspace(&p, &plan, &bytes) == DRTOPK_ERR_NO_BACKEND && names_reason(why),
            "the workspace query fails with DRTOPK_ERR_NO_BACKEND and the reason");
        memset(out, SENTINEL, sizeof out);
        drtopk_status st = drtopk_select(&p, &plan, ws, sizeof ws, out, idx, NULL, NULL);
        unsigned char untouched = 1;
        for (size_t b = 0; b < sizeof out; ++b) untouched &= ((unsigned char *)out)[b] == SENTINEL;
        tap(st == DRTOPK_ERR_NO_BACKEND && names_reason(why) && untouched,
            "a select on the CUDA plan fails with DRTOPK_ERR_NO_BACKEND and the reason, writing nothing");
        /* a second call says the same: nothing was left pending by the first */
        st = drtopk_select(&p, &plan, ws, sizeof ws, out, idx, NULL, NULL);
        tap(st == DRTOPK_ERR_NO_BACKEND && names_reason(why), "so does the next select");
        drtopk_batch_problem bp = { .backend = DRTOPK_BACKEND_CUDA, .dtype = DRTOPK_U32, .order = DRTOPK_LARGEST,
                                    .segments = 2, .len = N / 2, .k = K / 2, .values = v };
        drtopk_batch_plan bplan;
        tap(drtopk_batch_plan_auto(&bplan, &bp) == DRTOPK_OK &&
                drtopk_batch_select(&bp, &bplan, ws, sizeof ws, out, idx, NULL) == DRTOPK_ERR_NO_BACKEND &&
                names_reason(why),
            "a batched select on the CUDA backend fails the same way");
    }

    /* the CPU backend is unaffected by the refused calls */
    drtopk_problem c = { .backend = DRTOPK_BACKEND_CPU, .dtype = DRTOPK_U32, .order = DRTOPK_LARGEST,
                         .n = N, .k = K, .values = v };
    drtopk_plan plan;
    size_t bytes = 0;
    drtopk_status st = drtopk_plan_auto(&plan, &c, NULL);
    plan.flags |= DRTOPK_SORTED;
    if (st == DRTOPK_OK) st = drtopk_select_workspace(&c, &plan, &bytes);
    void *cpu_ws = st == DRTOPK_OK ? malloc(bytes) : NULL;
    if (st == DRTOPK_OK) st = cpu_ws ? drtopk_select(&c, &plan, cpu_ws, bytes, out, idx, NULL, NULL)
                                     : DRTOPK_ERR_OUT_OF_MEMORY;
    free(cpu_ws);
    int right = st == DRTOPK_OK;
    for (int i = 0; right && i < K; ++i) right = out[i] == N - 1 - (uint32_t)i && v[idx[i]] == out[i];
    tap(right, "a CPU select after them returns the %d largest, best first", K);

    printf("1..%d\nbackend: %d passed, %d failed\n", number, number - failed, failed);
    return failed != 0;
}
