/*
 * topk.c -- a user's C program against the installed drtopk (tests/bats/
 * install.bats builds it out of the tree with `pkg-config --cflags --libs
 * drtopk`): the 5 largest of 1000 distinct values on the CPU backend, best
 * first, checked against the known answer.  Exit 0 and "ok" when right.
 */
#include <drtopk.h>

#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define K 5
#define STRIDE 7919     /* prime to N: i * STRIDE mod N visits every value once */

int main(void)
{
    uint32_t v[N], out[K];
    uint64_t idx[K];
    for (uint32_t i = 0; i < N; ++i) v[i] = (i * STRIDE) % N;
    drtopk_problem p = { .backend = DRTOPK_BACKEND_CPU, .dtype = DRTOPK_U32, .order = DRTOPK_LARGEST,
                         .n = N, .k = K, .values = v };
    drtopk_plan plan;
    size_t bytes = 0;
    drtopk_status st = drtopk_plan_auto(&plan, &p, NULL);
    plan.flags |= DRTOPK_SORTED;
    if (st == DRTOPK_OK) st = drtopk_select_workspace(&p, &plan, &bytes);
    void *ws = malloc(bytes ? bytes : 1);
    if (st == DRTOPK_OK) st = ws ? drtopk_select(&p, &plan, ws, bytes, out, idx, NULL, NULL) : DRTOPK_ERR_OUT_OF_MEMORY;
    free(ws);
    if (st != DRTOPK_OK) {
        fprintf(stderr, "drtopk: %s: %s\n", drtopk_status_string(st), drtopk_last_error());
        return 1;
    }
    for (int i = 0; i < K; ++i) {
        if (out[i] != N - 1 - (uint32_t)i || v[idx[i]] != out[i]) {
            fprintf(stderr, "wrong answer at %d: value %u, index %llu\n", i, out[i], (unsigned long long)idx[i]);
            return 1;
        }
    }
    printf("ok: drtopk %d.%d, top %d of %d from C\n", DRTOPK_VERSION_MAJOR, DRTOPK_VERSION_MINOR, K, N);
    return 0;
}
