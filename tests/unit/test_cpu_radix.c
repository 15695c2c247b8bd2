/*
 * test_cpu_radix.c -- the CPU backend's threaded radix select (cpu_radix.c,
 * the automatic plan of the CPU backend) against the sort-based oracle
 * (oracle.c): exactly the oracle's positions, ties by smaller position, best
 * first when sorted and in position order when not; over every key type,
 * both orders, the distributions that stress it (all keys equal, a few
 * values, sorted runs, NaN and infinities) and sizes that take one thread,
 * several, one level and every level of digits (more candidates than the
 * gather holds).
 */
#include "test_harness.h"
#include "backend.h"
#include "gen.h"
#include "oracle.h"

#include <stdlib.h>
#include <string.h>

#define SEED 0xc0ffee37ull
#define SMALL_N 1000u               /* one thread */
#define THREADED_N ((1u << 19) + 3) /* several chunks: 2^18 keys per thread */
#define DEEP_N ((1u << 21) + 5)     /* an equal-key digit past k + 2^20 candidates: every level */
#define ELEM_MAX sizeof(uint64_t)

static const drtopk_dtype dtypes[] = { DRTOPK_U32, DRTOPK_I32, DRTOPK_F32, DRTOPK_F16,
                                       DRTOPK_BF16, DRTOPK_U64, DRTOPK_I64, DRTOPK_F64 };
#define N_DTYPES (sizeof dtypes / sizeof dtypes[0])

static int by_value(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Select the top k of v (n keys of type t) with the CPU backend's automatic
 * plan and compare with the oracle's ranking `rank` (n positions, best first). */
static void check_case(void *v, const uint64_t *rank, uint64_t n, uint64_t k, drtopk_dtype t, drtopk_order o,
                       dh_dist d, int sorted)
{
    char desc[160];
    snprintf(desc, sizeof desc, "n=%" PRIu64 " k=%" PRIu64 " %s %s %s %s", n, k, drtopk_dtype_name(t),
             dh_dist_name(d), o == DRTOPK_LARGEST ? "largest" : "smallest", sorted ? "sorted" : "unsorted");
    test_context(desc);
    drtopk_problem p = { DRTOPK_BACKEND_CPU, t, o, n, k, v };
    drtopk_plan plan;
    size_t bytes = 0;
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, NULL), DRTOPK_OK);
    CHECKF(!(plan.flags & DRTOPK_DELEGATE) && plan.second_algo == DRTOPK_ALGO_RADIX,
           "%s: the CPU's automatic plan is not the standalone radix select", desc);
    if (sorted) plan.flags |= DRTOPK_SORTED;
    CHECK_STATUS(drtopk_select_workspace(&p, &plan, &bytes), DRTOPK_OK);
    CHECKF(bytes < n * ELEM_MAX * 2 + (64u << 20), "%s: workspace %zu bytes is a copy of V", desc, bytes);
    void *ws = malloc(bytes), *out = malloc(k * ELEM_MAX);
    uint64_t *idx = malloc(k * sizeof *idx), *want = malloc(k * sizeof *want);
    CHECK(ws && out && idx && want);
    CHECK_STATUS(drtopk_select(&p, &plan, ws, bytes, out, idx, NULL, NULL), DRTOPK_OK);
    memcpy(want, rank, k * sizeof *want);
    if (!sorted) qsort(want, k, sizeof *want, by_value);
    for (uint64_t j = 0; j < k; ++j) {
        CHECKF(idx[j] == want[j], "%s: position %" PRIu64 " is %" PRIu64 ", the oracle's %" PRIu64, desc, j, idx[j],
               want[j]);
        CHECKF(drtopk_bits_at(out, j, t) == drtopk_bits_at(v, idx[j], t), "%s: value %" PRIu64 " is not V's", desc, j);
    }
    /* a workspace one byte short is refused, not overrun */
    CHECK_STATUS(drtopk_select(&p, &plan, ws, bytes - 1, out, idx, NULL, NULL), DRTOPK_ERR_WORKSPACE_TOO_SMALL);
    free(ws);
    free(out);
    free(idx);
    free(want);
}

/* Every k of ks over one generated vector, both orders, sorted and not. */
static void sweep(uint64_t n, drtopk_dtype t, dh_dist d, const uint64_t *ks, size_t nks)
{
    void *v = malloc(n * ELEM_MAX), *rv = malloc(n * ELEM_MAX);
    uint64_t *rank = malloc(n * sizeof *rank);
    CHECK(v && rv && rank);
    dh_gen_host(v, n, d, t, SEED);
    for (int o = DRTOPK_LARGEST; o <= DRTOPK_SMALLEST; ++o) {
        drtopk_problem full = { DRTOPK_BACKEND_CPU, t, (drtopk_order)o, n, n, v };
        CHECK_STATUS(dh_oracle_topk(&full, rv, rank), DRTOPK_OK);
        for (size_t i = 0; i < nks; ++i)
            if (ks[i] >= 1 && ks[i] <= n)
                for (int sorted = 0; sorted <= 1; ++sorted) check_case(v, rank, n, ks[i], t, (drtopk_order)o, d, sorted);
    }
    free(v);
    free(rv);
    free(rank);
}

static void small_every_type_and_dist(void)
{
    static const dh_dist dists[] = { DRTOPK_DIST_UD, DRTOPK_DIST_ND, DRTOPK_DIST_EQ, DRTOPK_DIST_FEW,
                                         DRTOPK_DIST_ASC, DRTOPK_DIST_DESC, DRTOPK_DIST_SPECIAL };
    const uint64_t ks[] = { 1, 2, 17, SMALL_N / 2, SMALL_N - 1, SMALL_N };
    for (size_t t = 0; t < N_DTYPES; ++t)
        for (size_t d = 0; d < sizeof dists / sizeof dists[0]; ++d)
            sweep(SMALL_N, dtypes[t], dists[d], ks, sizeof ks / sizeof ks[0]);
    const uint64_t one[] = { 1 };
    sweep(1, DRTOPK_U32, DRTOPK_DIST_UD, one, 1);
}

static void threaded_chunks(void)
{
    const uint64_t ks[] = { 1, 1000, THREADED_N / 3 };
    for (size_t t = 0; t < N_DTYPES; ++t) sweep(THREADED_N, dtypes[t], DRTOPK_DIST_UD, ks, sizeof ks / sizeof ks[0]);
    sweep(THREADED_N, DRTOPK_F16, DRTOPK_DIST_FEW, ks, sizeof ks / sizeof ks[0]);
}

/* All keys equal, or a few values: the digit of the k-th key holds more
 * than the gather takes, so every level runs and the ties are taken in
 * position order across the threads' chunks. */
static void every_level_and_ties(void)
{
    const uint64_t ks[] = { 1, 12345, DEEP_N - 1 };
    sweep(DEEP_N, DRTOPK_U32, DRTOPK_DIST_EQ, ks, sizeof ks / sizeof ks[0]);
    sweep(DEEP_N, DRTOPK_I64, DRTOPK_DIST_EQ, ks, 2);
    sweep(DEEP_N, DRTOPK_F32, DRTOPK_DIST_FEW, ks, 2);
}

__attribute__((constructor)) static void register_cpu_radix_tests(void)
{
    test_register("cpu_radix/small_every_type_and_dist", small_every_type_and_dist);
    test_register("cpu_radix/threaded_chunks", threaded_chunks);
    test_register("cpu_radix/every_level_and_ties", every_level_and_ties);
}
