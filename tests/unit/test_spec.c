/*
 * test_spec.c -- the one specification of the pipeline (pipeline_spec.h,
 * paper sections 4.1-4.3 and 5.2): geometry, capacities, skip-last-digit,
 * Rules 1-3 on hand-made cases, Rule 4's integer form against its definition (tail subranges, beta > 2^alpha, k >= |D|), and the
 * mutation switches: the CPU reference compiled once more per switch
 * (build.ninja: drtopk_cpu_select_<rule>) still gives the exact top-k, but
 * the workload counter that rule drives differs from the real reference's.
 */
#include "test_harness.h"
#include "backend.h"
#include "gen.h"
#include "oracle.h"
#include "pipeline_spec.h"

#include <stdlib.h>
#include <string.h>

/* The CPU reference with one rule switched off (build.ninja). */
typedef drtopk_status (*select_fn)(const drtopk_problem *, const drtopk_plan *, void *, size_t, void *,
                                   uint64_t *, drtopk_stats *);
typedef drtopk_status (*workspace_fn)(const drtopk_problem *, const drtopk_plan *, size_t *);
#define MUTANT_DECL(rule)                                                                              \
    drtopk_status drtopk_cpu_workspace_##rule(const drtopk_problem *, const drtopk_plan *, size_t *);  \
    drtopk_status drtopk_cpu_select_##rule(const drtopk_problem *, const drtopk_plan *, void *, size_t, \
                                           void *, uint64_t *, drtopk_stats *);
MUTANT_DECL(rule1)
MUTANT_DECL(rule2)
MUTANT_DECL(rule3)
MUTANT_DECL(skip)

typedef enum { CNT_FIRST_SELECTED, CNT_SCANNED, CNT_CONCAT } counter;

static const struct {
    const char *name;
    workspace_fn workspace;
    select_fn select;
    counter grows;     /* the workload counter the switch changes on tie-free data */
} mutants[] = {
    { "rule1", drtopk_cpu_workspace_rule1, drtopk_cpu_select_rule1, CNT_SCANNED },
    { "rule2", drtopk_cpu_workspace_rule2, drtopk_cpu_select_rule2, CNT_CONCAT },
    { "rule3", drtopk_cpu_workspace_rule3, drtopk_cpu_select_rule3, CNT_SCANNED },
    { "skip", drtopk_cpu_workspace_skip, drtopk_cpu_select_skip, CNT_FIRST_SELECTED },
};
#define N_MUTANTS (sizeof mutants / sizeof mutants[0])

#define SPEC_SEED 0x5bec5eedull
#define PERM_N 65536u         /* tie-free data: a shuffled 0..PERM_N-1 */
#define PERM_ALPHA 5
#define PERM_BETA 2
#define PERM_K 200
#define SWEEP_N 3001          /* exactness sweep: a tail subrange for most alpha */

static void geometry_hand_made(void)
{
    /* n = 10, 2^alpha = 4, beta = 3: subranges of 4, 4, 2; nd 3, 3, 2 (tail) */
    CHECK_EQ_U64(drtopk_subrange_len(2), 4);
    CHECK_EQ_U64(drtopk_subrange_count(10, 2), 3);
    CHECK_EQ_U64(drtopk_nd_full(2, 3), 3);
    CHECK_EQ_U64(drtopk_nd(10, 2, 3, 0), 3);
    CHECK_EQ_U64(drtopk_nd(10, 2, 3, 2), 2);
    CHECK_EQ_U64(drtopk_delegate_len(10, 2, 3), 8);
    /* beta > 2^alpha: every element of a 2-element subrange is a delegate */
    CHECK_EQ_U64(drtopk_nd_full(1, 4), 2);
    CHECK_EQ_U64(drtopk_nd(5, 1, 4, 2), 1);
    CHECK_EQ_U64(drtopk_delegate_len(5, 1, 4), 5);
    /* no tail: n a multiple of 2^alpha */
    CHECK_EQ_U64(drtopk_subrange_count(16, 2), 4);
    CHECK_EQ_U64(drtopk_delegate_len(16, 2, 2), 8);
    CHECK_EQ_U64(drtopk_delegate_len(0, 2, 2), 0);
    /* k >= |D|: no first top-k, every delegate selected */
    CHECK(drtopk_first_topk_needed(3, 8));
    CHECK(drtopk_first_topk_needed(4, 8));      /* |D| = 2k: it leaves half out */
    CHECK(drtopk_first_topk_needed(4, 9));
    CHECK(!drtopk_first_topk_needed(5, 9));     /* k < |D| < 2k: V directly */
    CHECK(!drtopk_first_topk_needed(7, 8));
    CHECK(!drtopk_first_topk_needed(8, 8));
    CHECK(!drtopk_first_topk_needed(9, 8));
    CHECK(!drtopk_first_topk_needed(1, 1));
    CHECK(drtopk_first_topk_needed(UINT64_MAX / 2, UINT64_MAX));   /* no overflow */
}

static void skip_last_digit_hand_made(void)
{
    CHECK(DRTOPK_DIGIT_MASK == 0xFFu);
    CHECK(drtopk_skip_last_digit_floor(0x123456FFu) == 0x12345600u);
    CHECK(drtopk_skip_last_digit_floor(0x100u) == 0x100u);
    /* 64-bit keys keep their upper 56 bits; 16-bit keys (zero-extended) their upper 8 */
    CHECK(drtopk_skip_last_digit_floor(0x123456789ABCDEFFull) == 0x123456789ABCDE00ull);
    CHECK(drtopk_skip_last_digit_floor(0xBEEFu) == 0xBE00u);
    CHECK(drtopk_skip_last_digit_on(1) && !drtopk_skip_last_digit_on(0));
    CHECK(drtopk_skip_last_digit_stops(1, 5, 5));
    CHECK(!drtopk_skip_last_digit_stops(1, 6, 5));
    CHECK(!drtopk_skip_last_digit_stops(0, 1, 5));
    /* cap1: k without skipping, DRTOPK_SKIP_CAPACITY_FACTOR k with, never over
     * half of |D| (an early stop leaves at least half of D out), never under k */
    CHECK_EQ_U64(drtopk_first_capacity(10, 100, 0), 10);
    CHECK_EQ_U64(drtopk_first_capacity(10, 100, 1), DRTOPK_SKIP_CAPACITY_FACTOR * 10);
    CHECK_EQ_U64(drtopk_first_capacity(30, 100, 1), 100 >> DRTOPK_SKIP_DELEGATE_SHARE_LOG2);
    CHECK_EQ_U64(drtopk_first_capacity(60, 100, 1), 60);
}

static void rules_hand_made(void)
{
    /* Rule 1: a subrange qualifies iff one of its delegates is selected */
    CHECK(!drtopk_rule1_qualifies(0));
    CHECK(drtopk_rule1_qualifies(1));
    /* Rule 2: the first top-k's threshold, or 0 without filtering */
    CHECK(drtopk_rule2_threshold(0x1234u, 1) == 0x1234u);
    CHECK(drtopk_rule2_threshold(0x1234u, 0) == 0u);
    CHECK(drtopk_rule2_threshold(0xFFFFFFFF00000001ull, 1) == 0xFFFFFFFF00000001ull);
    CHECK(drtopk_rule2_scan_copies(0x100000000ull, 0xFFFFFFFFull, 1));   /* no 32-bit truncation */
    CHECK(!drtopk_rule2_scan_copies(0xFFFFFFFFull, 0x100000000ull, 1));
    /* Rule 3: left out / copy the selected delegates / scan */
    CHECK(drtopk_rule3_classify(0, 2) == DRTOPK_SUBRANGE_LEFT_OUT);
    CHECK(drtopk_rule3_classify(1, 2) == DRTOPK_SUBRANGE_COPY_SELECTED);
    CHECK(drtopk_rule3_classify(2, 2) == DRTOPK_SUBRANGE_SCAN);
    CHECK(drtopk_rule3_classify(1, 1) == DRTOPK_SUBRANGE_SCAN);   /* tail of one element */
    CHECK_EQ_U64(drtopk_rule3_scan_minimum(3), 3);
    CHECK(DRTOPK_SCAN_NEEDS_ALL_DELEGATES);
}

/* Rule 4 with an integer const, in integers: against its definition,
 * round(0.5 (c + log2(n / k))) rounded half away from zero, which for c +
 * log2(n / k) = m + f (m an integer, 0 <= f < 1) is floor((c + 1 + m) / 2)
 * whatever f; checked at the ties (n = k 2^j, where log2 in floating point
 * can land either side) and between them, and at the edges of its range. */
static void rule4_int(void)
{
    CHECK(drtopk_spec_log2_floor(0) == -1);
    CHECK(drtopk_spec_log2_floor(1) == 0);
    CHECK(drtopk_spec_log2_floor(3) == 1);
    CHECK(drtopk_spec_log2_floor(1ull << 40) == 40);
    CHECK(drtopk_spec_log2_floor((1ull << 40) - 1) == 39);
    CHECK(drtopk_spec_log2_floor(UINT64_MAX) == 63);
    for (int i = 0; i < 64; ++i) {
        CHECK(drtopk_spec_log2_floor(1ull << i) == i);
        if (i > 1) CHECK(drtopk_spec_log2_floor((1ull << i) - 1) == i - 1);
    }
    /* 0.5 (3 + 12) = 7.5 -> 8 at n = 3 * 2^12, k = 3 (log2 in doubles: 7) */
    CHECK(drtopk_rule4_alpha_int(3ull << 12, 3, 3) == 8);
    CHECK(drtopk_rule4_alpha_int(1ull << 30, 1ull << 10, 3) == 12);    /* 11.5 -> 12 */
    CHECK(drtopk_rule4_alpha_int(1ull << 30, 1ull << 20, 2) == 6);     /* 6 */
    CHECK(drtopk_rule4_alpha_int((1ull << 30) - 1, 1ull << 20, 2) == 6); /* 5.99.. -> 6 */
    CHECK(drtopk_rule4_alpha_int(1ull << 14, 1, -1) == 7);             /* the batched path's: sqrt */
    CHECK(drtopk_rule4_alpha_int((1ull << 14) - 1, 1, -1) == 6);       /* 6.49.. -> 6 */
    /* c + log2(n / k) < 0 lies outside the rule's range: 0 or -1, below every clamp */
    CHECK(drtopk_rule4_alpha_int(7, 7, -1) == 0);
    CHECK(drtopk_rule4_alpha_int(7, 7, -2) == -1);
    CHECK(drtopk_rule4_alpha_int(UINT64_MAX, 1, 3) == 33);             /* 0.5 (3 + 63.99..) -> 33 */
    for (int c = -1; c <= 8; ++c)
        for (uint64_t k = 1; k < 5000; k = k * 5 / 4 + 1)
            for (int j = 0; j <= 40; ++j) {
                const uint64_t n = k << j;
                /* a tie where c + j is odd: (c + j + 1) / 2 */
                CHECK(drtopk_rule4_alpha_int(n, k, c) == (c + j + 1) / 2);
                /* one key fewer: c + log2(n / k) just under c + j, rounded to (c + j) / 2 */
                if (n > k) CHECK(drtopk_rule4_alpha_int(n - 1, k, c) == (c + j) / 2);
            }
}

static void capacities_hand_made(void)
{
    /* n = 10, 2^alpha = 4, beta = 3 (nd 3, 3, 2): a full subrange is scanned
     * with 3 selected delegates, the tail with 2 */
    CHECK_EQ_U64(drtopk_scan_capacity(10, 2, 3, 4), 2);     /* 4 / 3 + the tail */
    CHECK_EQ_U64(drtopk_scan_capacity(10, 2, 3, 8), 3);     /* at most nsub */
    CHECK_EQ_U64(drtopk_scan_capacity(16, 2, 3, 7), 2);     /* no short tail */
    CHECK_EQ_U64(drtopk_concat_capacity(10, 2, 1, 2), 6);   /* 1 * 4 + 2 */
    CHECK_EQ_U64(drtopk_concat_capacity(10, 2, 3, 8), 10);  /* at most n */
    /* beta > 2^alpha, n = 5: nd 2, 2, 1 */
    CHECK_EQ_U64(drtopk_scan_capacity(5, 1, 4, 2), 2);
}

static void run(select_fn sel, workspace_fn wsf, const drtopk_problem *p, const drtopk_plan *plan,
                uint32_t *outv, uint64_t *outi, drtopk_stats *st)
{
    size_t bytes;
    void *ws;
    CHECK_STATUS(wsf(p, plan, &bytes), DRTOPK_OK);
    CHECK((ws = malloc(bytes)) != NULL);
    CHECK_STATUS(sel(p, plan, ws, bytes, outv, outi, st), DRTOPK_OK);
    free(ws);
}

static uint64_t counter_of(const drtopk_stats *st, counter c)
{
    return c == CNT_FIRST_SELECTED ? st->first_selected : c == CNT_SCANNED ? st->scanned_subranges
                                                                           : st->concat_len;
}

/* Each switch still gives the exact top-k of tie-free data but changes the
 * counter its rule drives; the other rules' counters show what changed. */
static void mutants_change_workload(void)
{
    uint32_t *v = malloc(PERM_N * sizeof *v), outv[PERM_K], ov[PERM_K];
    uint64_t outi[PERM_K], oi[PERM_K];
    drtopk_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, PERM_N, PERM_K, v };
    drtopk_plan plan;
    drtopk_stats ref, st;
    CHECK(v != NULL);
    for (uint32_t i = 0; i < PERM_N; ++i) v[i] = i;
    for (uint32_t i = PERM_N - 1; i > 0; --i) {     /* Fisher-Yates */
        const uint32_t j = (uint32_t)(dh_rand64(SPEC_SEED, i, 0) % (i + 1)), x = v[i];
        v[i] = v[j];
        v[j] = x;
    }
    memset(&plan, 0, sizeof plan);
    plan.alpha = PERM_ALPHA;
    plan.beta = PERM_BETA;
    plan.flags = DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT;
    CHECK_STATUS(dh_oracle_topk(&p, ov, oi), DRTOPK_OK);
    run(drtopk_cpu_select, drtopk_cpu_workspace, &p, &plan, outv, outi, &ref);
    CHECK(dh_check(&p, outv, outi, ov).ok);
    for (size_t m = 0; m < N_MUTANTS; ++m) {
        test_context(mutants[m].name);
        run(mutants[m].select, mutants[m].workspace, &p, &plan, outv, outi, &st);
        CHECKF(dh_check(&p, outv, outi, ov).ok, "%s: not the exact top-k", mutants[m].name);
        CHECK_EQ_U64(st.delegate_len, ref.delegate_len);
        CHECKF(counter_of(&st, mutants[m].grows) != counter_of(&ref, mutants[m].grows),
               "%s: first_selected %" PRIu64 " scanned %" PRIu64 " concat %" PRIu64 " as the reference's",
               mutants[m].name, st.first_selected, st.scanned_subranges, st.concat_len);
    }
    /* the direction of each change */
    run(drtopk_cpu_select_rule1, drtopk_cpu_workspace_rule1, &p, &plan, outv, outi, &st);
    CHECK_EQ_U64(st.scanned_subranges, drtopk_subrange_count(PERM_N, PERM_ALPHA));
    run(drtopk_cpu_select_rule2, drtopk_cpu_workspace_rule2, &p, &plan, outv, outi, &st);
    CHECK(st.scanned_subranges == ref.scanned_subranges && st.concat_len > ref.concat_len);
    run(drtopk_cpu_select_rule3, drtopk_cpu_workspace_rule3, &p, &plan, outv, outi, &st);
    CHECK(st.scanned_subranges > ref.scanned_subranges);
    run(drtopk_cpu_select_skip, drtopk_cpu_workspace_skip, &p, &plan, outv, outi, &st);
    CHECK(st.first_selected == PERM_K && ref.first_selected > PERM_K);
    free(v);
}

/* Every switch keeps the answer exact over distributions (ties included),
 * alpha, beta, k and flags, and stays within the capacities the spec gives
 * for it (the CPU reference checks those on every run: a status, not OK,
 * otherwise). */
static void mutants_stay_exact(void)
{
    static const int alphas[] = { 1, 3, 6, 12 };
    static const int betas[] = { 1, 2, 3, DRTOPK_BETA_MAX };
    static const uint64_t ks[] = { 1, 7, 100, 1000, SWEEP_N };
    static const dh_dist dists[] = { DRTOPK_DIST_UD, DRTOPK_DIST_CD, DRTOPK_DIST_FEW, DRTOPK_DIST_EQ };
    uint32_t *v = malloc(SWEEP_N * sizeof *v), *ov = malloc(SWEEP_N * sizeof *ov);
    uint32_t *outv = malloc(SWEEP_N * sizeof *outv);
    uint64_t *oi = malloc(SWEEP_N * sizeof *oi), *outi = malloc(SWEEP_N * sizeof *outi);
    char desc[128];
    CHECK(v && ov && outv && oi && outi);
    for (size_t d = 0; d < sizeof dists / sizeof dists[0]; ++d) {
        drtopk_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, SWEEP_N, SWEEP_N, v };
        dh_gen_host(v, SWEEP_N, dists[d], DRTOPK_U32, SPEC_SEED + d);
        CHECK_STATUS(dh_oracle_topk(&p, ov, oi), DRTOPK_OK);   /* the full ranking */
        for (size_t m = 0; m < N_MUTANTS; ++m)
        for (size_t a = 0; a < sizeof alphas / sizeof alphas[0]; ++a)
        for (size_t b = 0; b < sizeof betas / sizeof betas[0]; ++b)
        for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ++ki)
        for (unsigned f = 0; f < 4; ++f) {
            drtopk_plan plan;
            drtopk_stats st;
            const unsigned flags = DRTOPK_DELEGATE | (f & 1 ? DRTOPK_FILTER : 0u) |
                                   (f & 2 ? DRTOPK_SKIP_LAST_DIGIT : 0u);
            memset(&plan, 0, sizeof plan);
            plan.alpha = alphas[a];
            plan.beta = betas[b];
            plan.flags = flags;
            p.k = ks[ki];
            snprintf(desc, sizeof desc, "%s dist=%s alpha=%d beta=%d k=%" PRIu64 " flags=0x%x", mutants[m].name,
                     dh_dist_name(dists[d]), plan.alpha, plan.beta, p.k, flags);
            test_context(desc);
            run(mutants[m].select, mutants[m].workspace, &p, &plan, outv, outi, &st);
            CHECKF(dh_check(&p, outv, outi, ov).ok, "%s: not the exact top-k", desc);
        }
    }
    free(v); free(ov); free(outv); free(oi); free(outi);
}

void register_spec_tests(void)
{
    test_register("spec/geometry_hand_made", geometry_hand_made);
    test_register("spec/skip_last_digit_hand_made", skip_last_digit_hand_made);
    test_register("spec/rules_hand_made", rules_hand_made);
    test_register("spec/rule4_int", rule4_int);
    test_register("spec/capacities_hand_made", capacities_hand_made);
    test_register("spec/mutants_change_workload", mutants_change_workload);
    test_register("spec/mutants_stay_exact", mutants_stay_exact);
}
