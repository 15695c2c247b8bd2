/*
 * test_heldout.c -- where the tuner checks a decision-table cell off its grid
 * point (tuner/heldout.c): each held-out point lies in the cell, and it is a
 * point where the cell changes the size rules' plan whenever one of the
 * documented candidates is, so a cell that acts only near its grid point is
 * still measured (and can then be kept by tuner --emit-table) rather than
 * skipped as "the same plan".
 */
#include "test_harness.h"
#include "heldout.h"

#include <stdio.h>
#include <string.h>

static dh_store_choice cell(int n0, int n1, int k0, int k1, const char *algo, int beta, double c)
{
    dh_store_choice ch;
    memset(&ch, 0, sizeof ch);
    ch.log2n_min = n0, ch.log2n_max = n1, ch.log2k_min = k0, ch.log2k_max = k1;
    snprintf(ch.algorithm, sizeof ch.algorithm, "%s", algo);
    ch.beta = beta;
    ch.rule4_const = c;
    return ch;
}

/* Whether (n, k) lies in cell c: its plan comes from the cell's table. */
static int in_cell(drtopk_backend b, drtopk_dtype t, const dh_store_choice *c, uint64_t n, uint64_t k)
{
    drtopk_tuning_entry e;
    if (!dh_store_choice_entry(t, c, &e)) return 0;
    const drtopk_tuning table = { .gpu_name = "test", .entries = &e, .count = 1 };
    const drtopk_problem p = { .backend = b, .dtype = t, .n = n, .k = k };
    drtopk_plan plan;
    return drtopk_plan_auto(&plan, &p, &table) == DRTOPK_OK && plan.const_source == DRTOPK_CONST_TUNING;
}

/* 16-bit keys on the CUDA backend: the size rules run fused up to 2^25 - 1
 * keys at k <= n/16 where fused reads V once (no GPU here: it may) and
 * onepass above (policy.h), so a onepass cell at 2^24 keys, k =
 * 2^20..2^22 - 1 acts at k <= n/16 only.  The first candidate (k doubled)
 * runs onepass either way; the point checked is the grid's k at n 3/2 of
 * the grid's plus 3. */
static void heldout_lands_where_the_cell_acts(void)
{
    const dh_store_choice c = cell(24, 25, 20, 21, "onepass", 0, 0);
    const uint64_t grid_n = 1ull << 24, grid_k = 1ull << 20;
    uint64_t n[HELDOUT_POINTS_MAX], k[HELDOUT_POINTS_MAX];
    CHECK(!cell_acts_at(DRTOPK_BACKEND_CUDA, DRTOPK_F16, &c, grid_n / 2 * 3 + 3, grid_k * 2));
    const int points = heldout_points(DRTOPK_BACKEND_CUDA, DRTOPK_F16, &c, grid_n, grid_k, 1ull << 30, n, k);
    CHECK(points == 2);
    CHECK_EQ_U64(n[0], grid_n / 2 * 3 + 3);
    CHECK_EQ_U64(k[0], grid_k);
    CHECK(cell_acts_at(DRTOPK_BACKEND_CUDA, DRTOPK_F16, &c, n[0], k[0]));
    /* the far corner: onepass there at either candidate, so the first (5 keys
       below 2^26, k 1 below 2^22) */
    CHECK_EQ_U64(n[1], (1ull << 26) - 5);
    CHECK_EQ_U64(k[1], (1ull << 22) - 1);
    CHECK(!cell_acts_at(DRTOPK_BACKEND_CUDA, DRTOPK_F16, &c, n[1], k[1]));
}

/* Where the first candidate already acts (a pipeline cell on the CPU, whose
 * size rules run the standalone radix) the points are the first candidates:
 * the middle (n 3/2 of the grid's + 3, k doubled) and the far corner; a cell
 * that never acts (the standalone radix itself) gets the first candidates
 * too, which the check then skips as the same plan. */
static void heldout_first_candidates(void)
{
    const dh_store_choice dr = cell(12, 12, 4, 7, "dr-radix", 2, 3.0), rx = cell(12, 12, 4, 7, "radix", 0, 0);
    uint64_t n[HELDOUT_POINTS_MAX], k[HELDOUT_POINTS_MAX];
    for (int i = 0; i < 2; ++i) {
        const dh_store_choice *c = i ? &rx : &dr;
        const int points = heldout_points(DRTOPK_BACKEND_CPU, DRTOPK_U32, c, 4096, 16, 1u << 13, n, k);
        CHECK(points == 2);
        CHECK_EQ_U64(n[0], 6147);
        CHECK_EQ_U64(k[0], 32);
        CHECK_EQ_U64(n[1], 8187);
        CHECK_EQ_U64(k[1], 255);
        CHECKF(cell_acts_at(DRTOPK_BACKEND_CPU, DRTOPK_U32, c, n[0], k[0]) == !i, "%s", c->algorithm);
    }
    /* the top cell of the sweep: no corner past the middle */
    CHECK(heldout_points(DRTOPK_BACKEND_CPU, DRTOPK_U32, &dr, 4096, 16, 4096, n, k) == 1);
}

/* Over cells of every standalone plan and key width on the CUDA backend, at
 * grid points of 4^i keys and k: every point lies in its cell, and a point
 * where the cell does not act means none of the middle's candidates acts. */
static void heldout_points_in_cell_and_acting(void)
{
    static const drtopk_dtype types[] = { DRTOPK_U32, DRTOPK_F16, DRTOPK_U64 };
    static const char *const algos[] = { "onepass", "fused" };
    int acting = 0, cells = 0;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t)
        for (size_t a = 0; a < sizeof algos / sizeof algos[0]; ++a)
            for (int ln = 12; ln <= 30; ln += 2)
                for (int lk = 0; lk <= 24 && lk < ln; lk += 2) {
                    const dh_store_choice c = cell(ln, ln + 1, lk, lk + 1, algos[a], 0, 0);
                    const uint64_t gn = 1ull << ln, gk = 1ull << lk;
                    uint64_t n[HELDOUT_POINTS_MAX], k[HELDOUT_POINTS_MAX];
                    const int points = heldout_points(DRTOPK_BACKEND_CUDA, types[t], &c, gn, gk, 1ull << 32, n, k);
                    ++cells;
                    for (int q = 0; q < points; ++q)
                        CHECKF(in_cell(DRTOPK_BACKEND_CUDA, types[t], &c, n[q], k[q]),
                               "%s %s 2^%d k 2^%d point %d", drtopk_dtype_name(types[t]), algos[a], ln, lk, q);
                    const uint64_t mn = gn / 2 * 3 + 3;
                    const int any = cell_acts_at(DRTOPK_BACKEND_CUDA, types[t], &c, mn, gk * 2) ||
                                    cell_acts_at(DRTOPK_BACKEND_CUDA, types[t], &c, mn, gk) ||
                                    (gk + gk / 2 != gk &&
                                     cell_acts_at(DRTOPK_BACKEND_CUDA, types[t], &c, gn, gk + gk / 2));
                    const int acts = cell_acts_at(DRTOPK_BACKEND_CUDA, types[t], &c, n[0], k[0]);
                    CHECKF(acts == any, "%s %s 2^%d k 2^%d: middle (%llu, %llu) acts %d, a candidate %d",
                           drtopk_dtype_name(types[t]), algos[a], ln, lk, (unsigned long long)n[0],
                           (unsigned long long)k[0], acts, any);
                    acting += acts;
                }
    /* both plans appear in the size rules, so some cells act and some do not */
    CHECKF(acting > 0 && acting < cells, "%d of %d cells act at their middle", acting, cells);
}

__attribute__((constructor)) static void register_heldout_tests(void)
{
    test_register("tuner/heldout_lands_where_the_cell_acts", heldout_lands_where_the_cell_acts);
    test_register("tuner/heldout_first_candidates", heldout_first_candidates);
    test_register("tuner/heldout_points_in_cell_and_acting", heldout_points_in_cell_and_acting);
}
