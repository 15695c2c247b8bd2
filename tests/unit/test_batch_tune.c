/*
 * test_batch_tune.c -- the batched top-k's tuned crossovers (tuner
 * --batch): the decision from measurement rows (tuner/batch_decide.c), the
 * lookup of a GPU's compiled-in batch plan with its fallback to the built-in
 * defaults (plan.c, drtopk_batch_plan_for_gpu), the plan checks of the new
 * fields, and the CUDA entries' take of an error pending before the call
 * (errors.c, drtopk_pending_take) against a runtime of the test's own.
 */
#include "test_harness.h"
#include "backend.h"
#include "batch_decide.h"
#include "options.h"
#include "policy.h"

#include <string.h>

/* ---- the decision ------------------------------------------------------------ */

static dh_store_batch_row row(const char *crossover, const char *candidate, const char *dtype, uint64_t len,
                              uint64_t k, double ms)
{
    dh_store_batch_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.key.crossover, sizeof r.key.crossover, "%s", crossover);
    snprintf(r.key.candidate, sizeof r.key.candidate, "%s", candidate);
    snprintf(r.key.dtype, sizeof r.key.dtype, "%s", dtype);
    snprintf(r.key.segs, sizeof r.key.segs, "uniform");
    r.key.seed = 1;
    r.key.rows = 64;
    r.key.len = len;
    r.key.k = k;
    r.ok = 1;
    r.reps = 3;
    r.median_ms = ms;
    return r;
}

static drtopk_batch_plan defaults(void)
{
    drtopk_batch_plan p;
    drtopk_batch_plan_for_gpu(&p, NULL, 0, NULL);
    return p;
}

/* A slowdown of the decision: equal within the test's rounding. */
static int near(double x, double want) { return x > want - 1e-9 && x < want + 1e-9; }

/* A one-axis crossover: the k whose routing has the least worst slowdown
 * over the dtypes of its key width.  f32's tiny path wins 1.6x up to k = 8 and loses 1.5x at
 * 16, u64's loses 1.2x already at k = 1 (the H200's rows: f32 1.4-1.7x
 * faster up to 8, u64 at length 64 up to 1.8x slower): tiny up to 8 costs
 * u64 1.2x, off costs f32 1.6x, the default 16 costs f32 1.5x. */
static void decide_tiny(void)
{
    dh_store_batch_row r[32];
    int n = 0;
    batch_outcome out[BATCH_FIELD_COUNT];
    static const uint64_t ks[] = { 1, 2, 4, 8, 16 };
    for (int i = 0; i < 5; ++i) {
        r[n++] = row("tiny_max_k", "tiny", "f32", 256, ks[i], ks[i] <= 8 ? 1.0 : 3.0);
        r[n++] = row("tiny_max_k", "staged", "f32", 256, ks[i], ks[i] <= 8 ? 1.6 : 2.0);
    }
    r[n++] = row("tiny_max_k", "tiny", "u64", 64, 1, 1.2);
    r[n++] = row("tiny_max_k", "staged", "u64", 64, 1, 1.0);
    drtopk_batch_plan p = defaults();
    CHECK(batch_decide(r, (size_t)n, &p, out) == 0);
    CHECK_EQ_U64(p.tiny_max_k, 8);     /* f32 alone: u64's loss at k = 1 no longer holds it back */
    CHECK(out[BATCH_TINY_MAX_K].points == 5 && out[BATCH_STAGED_MAX_LEN].points == 0);
    CHECK(near(out[BATCH_TINY_MAX_K].worst, 1.0) && near(out[BATCH_TINY_MAX_K].default_worst, 1.5));
    CHECK_EQ_U64(p.tiny_max_k_64, 0);  /* u64 loses 1.2x at k = 1: its own field turns the select off */
    CHECK(out[BATCH_TINY_MAX_K_64].points == 1);
    CHECK(near(out[BATCH_TINY_MAX_K_64].worst, 1.0) && near(out[BATCH_TINY_MAX_K_64].default_worst, 1.2));
    CHECK_EQ_U64(p.staged_max_len, defaults().staged_max_len);     /* not measured: kept */
    /* a loss at every k: off, with no slowdown left */
    for (int i = 0; i < n; i += 2) r[i].median_ms = 9.0;
    p = defaults();
    CHECK(batch_decide(r, (size_t)n, &p, out) == 0);
    CHECK_EQ_U64(p.tiny_max_k, 0);
    CHECK_EQ_U64(p.tiny_max_k_64, 0);
    CHECK(near(out[BATCH_TINY_MAX_K].worst, 1.0));
    /* ties (and anything within the margin of the default): the default */
    for (int i = 0; i < n; i += 2) r[i].median_ms = r[i + 1].median_ms * (1.0 + DECIDE_MARGIN / 2);
    p = defaults();
    CHECK(batch_decide(r, (size_t)n, &p, out) == 0);
    CHECK_EQ_U64(p.tiny_max_k, defaults().tiny_max_k);
    CHECK_EQ_U64(p.tiny_max_k_64, defaults().tiny_max_k_64);
    CHECK(out[BATCH_TINY_MAX_K].points == 5 && out[BATCH_TINY_MAX_K_64].points == 1);
    /* an unpaired or failed row compares nothing */
    dh_store_batch_row lone[2] = { row("tiny_max_k", "tiny", "f32", 256, 1, 1.0),
                                       row("tiny_max_k", "staged", "f32", 256, 1, 2.0) };
    lone[1].ok = 0;
    p = defaults();
    CHECK(batch_decide(lone, 2, &p, out) == 0);
    CHECK(out[BATCH_TINY_MAX_K].points == 0);
    CHECK_EQ_U64(p.tiny_max_k, defaults().tiny_max_k);
}

/* Lengths.  staged_max_len: f32 staged wins 3x everywhere, u64 staged at
 * 65536 loses 1% (the H200's tie): the default 65536 stays, where the old
 * rule fell to 32768 and cost f32 3x; a 2x loss at 65536 takes 32768.
 * block_max_len: the pipeline wins everywhere: one short of the shortest. */
static void decide_lengths(void)
{
    static const uint64_t lens[] = { 4096, 16384, 32768, 65536 };
    dh_store_batch_row r[32];
    int n = 0;
    batch_outcome out[BATCH_FIELD_COUNT];
    for (int i = 0; i < 4; ++i) {
        r[n++] = row("staged_max_len", "staged", "f32", lens[i], 32, 1.0);
        r[n++] = row("staged_max_len", "split", "f32", lens[i], 32, 3.0);
        r[n++] = row("staged_max_len", "staged", "u64", lens[i], 32, i < 3 ? 1.0 : 1.50);
        r[n++] = row("staged_max_len", "split", "u64", lens[i], 32, i < 3 ? 3.0 : 1.49);
        r[n++] = row("block_max_len", "batched", "f32", lens[i], 32, 3.0);
        r[n++] = row("block_max_len", "pipeline", "f32", lens[i], 32, 2.0);
    }
    drtopk_batch_plan p = defaults();
    CHECK(batch_decide(r, (size_t)n, &p, out) == 0);
    CHECK_EQ_U64(p.staged_max_len, DRTOPK_BATCH_STAGED_MAX_LEN);
    CHECK_EQ_U64(p.block_max_len, 4095);
    CHECK(near(out[BATCH_BLOCK_MAX_LEN].worst, 1.0) && near(out[BATCH_BLOCK_MAX_LEN].default_worst, 1.5));
    CHECK(out[BATCH_STAGED_MAX_LEN].points == 8 && out[BATCH_BLOCK_MAX_LEN].points == 4);
    r[18].median_ms = 2.0;      /* f32 staged at 65536: now 2x slower than the split select */
    r[19].median_ms = 1.0;
    p = defaults();
    CHECK(batch_decide(r, (size_t)n, &p, out) == 0);
    CHECK_EQ_U64(p.staged_max_len, 32768);
    CHECK(near(out[BATCH_STAGED_MAX_LEN].worst, 1.0) && near(out[BATCH_STAGED_MAX_LEN].default_worst, 2.0));
    dh_store_batch_row big[2] = { row("staged_max_len", "staged", "f32", 1ull << 20, 32, 1.0),
                                      row("staged_max_len", "split", "f32", 1ull << 20, 32, 2.0) };
    p = defaults();
    CHECK(batch_decide(big, 2, &p, out) == 0);
    CHECK_EQ_U64(p.staged_max_len, DRTOPK_BATCH_STAGED_MAX_LEN);
}

/* filter_min_len: the radix selects are the candidate its value admits (a
 * segment of at most filter_min_len keys), the filter select the other.  The
 * filter select 3x faster from 32768 keys, 1.5x slower at 8192: the decision
 * admits 8192 to the radix selects and no longer; u64 rows (which the filter
 * select never takes) do not count.  Where the filter select wins at every
 * length, the default (1024, below every length measured) stays: a value
 * that turns it off (0) is never decided. */
static void decide_filter(void)
{
    static const uint64_t lens[] = { 8192, 32768, 131072 };
    dh_store_batch_row r[16];
    int n = 0;
    batch_outcome out[BATCH_FIELD_COUNT];
    for (int i = 0; i < 3; ++i) {
        r[n++] = row("filter_min_len", "radix", "f32", lens[i], 2048, i == 0 ? 1.0 : 3.0);
        r[n++] = row("filter_min_len", "filter", "f32", lens[i], 2048, i == 0 ? 1.5 : 1.0);
        r[n++] = row("filter_min_len", "radix", "u64", lens[i], 2048, 1.0);
        r[n++] = row("filter_min_len", "filter", "u64", lens[i], 2048, 9.0);
    }
    drtopk_batch_plan p = defaults();
    CHECK(batch_decide(r, (size_t)n, &p, out) == 0);
    CHECK_EQ_U64(p.filter_min_len, 8192);
    CHECK(out[BATCH_FILTER_MIN_LEN].points == 3 && near(out[BATCH_FILTER_MIN_LEN].worst, 1.0) &&
          near(out[BATCH_FILTER_MIN_LEN].default_worst, 1.5));
    r[0].median_ms = 2.0;       /* the filter select faster at 8192 too */
    p = defaults();
    CHECK(batch_decide(r, (size_t)n, &p, out) == 0);
    CHECK_EQ_U64(p.filter_min_len, defaults().filter_min_len);
}

/* block_max_len as the H200 measured it: the batched select 5x faster at
 * k = 64 on rows of 2^19, the pipeline 6% faster at k = 1024 there and 3x
 * at 2^21.  The old rule sent 2^19 to the pipeline (a 5x loss); the least
 * worst slowdown admits 2^19 and stops below 2^21: the default 2^20 routes
 * so, and a tie keeps it. */
static void decide_block(void)
{
    static const uint64_t lens[] = { 1ull << 17, 1ull << 19, 1ull << 21 }, ks[] = { 64, 1024 };
    dh_store_batch_row r[24];
    int n = 0;
    batch_outcome out[BATCH_FIELD_COUNT];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 2; ++j) {
            const int close = i == 1 && j == 1, far = i == 2;
            r[n++] = row("block_max_len", "batched", "f32", lens[i], ks[j], close ? 1.06 : 1.0);
            r[n++] = row("block_max_len", "pipeline", "f32", lens[i], ks[j], close ? 1.0 : far ? 1.0 / 3 : 5.0);
        }
    drtopk_batch_plan p = defaults();
    CHECK(batch_decide(r, (size_t)n, &p, out) == 0);
    CHECK_EQ_U64(p.block_max_len, defaults().block_max_len);
    CHECK(p.block_max_len >= 1ull << 19 && p.block_max_len < 1ull << 21);
    CHECK(near(out[BATCH_BLOCK_MAX_LEN].worst, 1.06) && near(out[BATCH_BLOCK_MAX_LEN].default_worst, 1.06));
    CHECK(out[BATCH_BLOCK_MAX_LEN_64].points == 0);
    CHECK_EQ_U64(p.block_max_len_64, defaults().block_max_len_64);     /* no u64 rows: kept */
    /* u64 rows as the H200 measured them: the batched select 3x faster at
     * 2^21 too; block_max_len_64 admits them, f32's field is unchanged */
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 2; ++j) {
            r[n++] = row("block_max_len", "batched", "u64", lens[i], ks[j], 1.0);
            r[n++] = row("block_max_len", "pipeline", "u64", lens[i], ks[j], 3.0);
        }
    p = defaults();
    CHECK(batch_decide(r, (size_t)n, &p, out) == 0);
    CHECK_EQ_U64(p.block_max_len, defaults().block_max_len);
    CHECK_EQ_U64(p.block_max_len_64, 1ull << 21);
    CHECK(out[BATCH_BLOCK_MAX_LEN_64].points == 6 && near(out[BATCH_BLOCK_MAX_LEN_64].worst, 1.0));
}

/* The warp queue: the k x len rectangle of the least worst slowdown; it
 * loses 1.5x at (32, 8192), the staged select 2x wherever the rectangle
 * leaves the queue's wins out, so the whole grid is least (the old rule took
 * the most covered wins, (32, 1024), a 2x loss at (8, 8192)).  Never
 * winning leaves it off and its length limit as it was. */
static void decide_warp(void)
{
    dh_store_batch_row r[16];
    int n = 0;
    batch_outcome out[BATCH_FIELD_COUNT];
    static const uint64_t ks[] = { 8, 32 }, lens[] = { 1024, 8192 };
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            const int warp_wins = !(ks[i] == 32 && lens[j] == 8192);
            r[n++] = row("warp_max_k", "warp", "f32", lens[j], ks[i], warp_wins ? 1.0 : 3.0);
            r[n++] = row("warp_max_k", "staged", "f32", lens[j], ks[i], 2.0);
        }
    drtopk_batch_plan p = defaults();
    CHECK(batch_decide(r, (size_t)n, &p, out) == 0);
    CHECK_EQ_U64(p.warp_max_k, 32);
    CHECK_EQ_U64(p.warp_max_len, 8192);
    CHECK(out[BATCH_WARP_MAX_K].points == 4 && out[BATCH_WARP_MAX_LEN].points == 4);
    CHECK(near(out[BATCH_WARP_MAX_K].worst, 1.5) && near(out[BATCH_WARP_MAX_K].default_worst, 2.0));
    for (int i = 0; i < n; i += 2) r[i].median_ms = 9.0;       /* the queue loses everywhere */
    p = defaults();
    p.warp_max_len = 777;
    CHECK(batch_decide(r, (size_t)n, &p, out) == 0);
    CHECK_EQ_U64(p.warp_max_k, 0);
    CHECK_EQ_U64(p.warp_max_len, 777);
    CHECK(out[BATCH_WARP_MAX_LEN].points == 0);
}

/* ---- the lookup and its fallback --------------------------------------------- */

static int same_plan(const drtopk_batch_plan *a, const drtopk_batch_plan *b)
{
    return a->warp_max_k == b->warp_max_k && a->warp_max_len == b->warp_max_len &&
           a->block_max_len == b->block_max_len && a->tiny_max_k == b->tiny_max_k &&
           a->staged_max_len == b->staged_max_len && a->dr_min_len == b->dr_min_len && a->flags == b->flags &&
           a->tiny_max_k_64 == b->tiny_max_k_64 && a->block_max_len_64 == b->block_max_len_64;
}

static void plan_lookup(void)
{
    const drtopk_batch_tuning tables[] = {
        { "GPU A", { .warp_max_k = 32, .warp_max_len = 2048, .block_max_len = 1ull << 22, .tiny_max_k = 8,
                     .staged_max_len = 8192 } },
        { "GPU B", { .warp_max_k = 0, .warp_max_len = 1, .block_max_len = 1, .tiny_max_k = 1, .staged_max_len = 1 } },
    };
    drtopk_batch_plan p;
    CHECK(drtopk_batch_plan_for_gpu(&p, tables, 2, "GPU A") == 1);
    CHECK(p.warp_max_k == 32 && p.warp_max_len == 2048 && p.block_max_len == 1ull << 22 && p.tiny_max_k == 8 &&
          p.staged_max_len == 8192 && p.flags == 0);
    /* an untuned GPU, no name, no tables: exactly the built-in defaults */
    const drtopk_batch_plan want = { .warp_max_k = 0, .warp_max_len = 1ull << 15, .block_max_len = 1ull << 20,
                                     .tiny_max_k = 16, .staged_max_len = 1ull << 16, .dr_min_len = 1ull << 20,
                                     .flags = 0, .tiny_max_k_64 = 16, .block_max_len_64 = 1ull << 20 };
    CHECK(drtopk_batch_plan_for_gpu(&p, tables, 2, "GPU C") == 0);
    CHECK(same_plan(&p, &want));
    CHECK(drtopk_batch_plan_for_gpu(&p, tables, 2, NULL) == 0);
    CHECK(same_plan(&p, &want));
    CHECK(drtopk_batch_plan_for_gpu(&p, NULL, 0, "GPU A") == 0);
    CHECK(same_plan(&p, &want));
    /* the public call on the CPU backend: the defaults, whatever is compiled in */
    const drtopk_batch_problem cpu = { .backend = DRTOPK_BACKEND_CPU };
    CHECK_STATUS(drtopk_batch_plan_auto(&p, &cpu), DRTOPK_OK);
    CHECK(same_plan(&p, &want));
    /* the compiled-in plans are valid ones */
    for (size_t i = 0; i < drtopk_builtin_batch_tuning_count; ++i) {
        const drtopk_batch_plan *b = &drtopk_builtin_batch_tunings[i].plan;
        CHECKF(b->staged_max_len >= 1 && b->staged_max_len <= DRTOPK_BATCH_STAGED_MAX_LEN &&
               b->warp_max_k <= DRTOPK_WARP_K_MAX && b->tiny_max_k <= DRTOPK_BATCH_TINY_K_MAX &&
               b->tiny_max_k_64 <= DRTOPK_BATCH_TINY_K_MAX && b->flags == 0, "%s", drtopk_builtin_batch_tunings[i].gpu_name);
    }
}

static void plan_field_checks(void)
{
    uint32_t v[8] = { 0 }, out[4];
    uint64_t idx[4], ws[64];
    const drtopk_batch_problem p = { .backend = DRTOPK_BACKEND_CPU, .dtype = DRTOPK_U32, .segments = 2, .len = 4,
                                     .k = 2, .values = v };
    drtopk_batch_plan plan, bad;
    CHECK_STATUS(drtopk_batch_plan_auto(&plan, &p), DRTOPK_OK);
    bad = plan;
    bad.staged_max_len = 0;
    CHECK_STATUS(drtopk_batch_select(&p, &bad, ws, sizeof ws, out, idx, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(drtopk_last_error(), "staged_max_len") != NULL);
    bad.staged_max_len = DRTOPK_BATCH_STAGED_MAX_LEN + 1;
    CHECK_STATUS(drtopk_batch_select(&p, &bad, ws, sizeof ws, out, idx, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    bad.staged_max_len = DRTOPK_BATCH_STAGED_MAX_LEN;
    bad.tiny_max_k = DRTOPK_BATCH_TINY_K_MAX + 1;   /* past what a warp's lanes keep */
    CHECK_STATUS(drtopk_batch_select(&p, &bad, ws, sizeof ws, out, idx, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(drtopk_last_error(), "tiny_max_k") != NULL);
    bad.tiny_max_k = 0;             /* the register select off: valid */
    CHECK_STATUS(drtopk_batch_select(&p, &bad, ws, sizeof ws, out, idx, NULL), DRTOPK_OK);
    bad.tiny_max_k_64 = DRTOPK_BATCH_TINY_K_MAX + 1;    /* checked whatever the problem's key width */
    CHECK_STATUS(drtopk_batch_select(&p, &bad, ws, sizeof ws, out, idx, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(drtopk_last_error(), "tiny_max_k_64") != NULL);
    /* which fields a key type reads */
    CHECK(!drtopk_batch_wide_keys(DRTOPK_F16) && !drtopk_batch_wide_keys(DRTOPK_U32) &&
          !drtopk_batch_wide_keys(DRTOPK_F32));
    CHECK(drtopk_batch_wide_keys(DRTOPK_U64) && drtopk_batch_wide_keys(DRTOPK_I64) &&
          drtopk_batch_wide_keys(DRTOPK_F64));
}

/* ---- an error pending before a call ------------------------------------------ */

/* A runtime's error state: cudaGetLastError returns and clears it. */
static int fake_error;
static int fake_take(void)
{
    const int e = fake_error;
    fake_error = 0;
    return e;
}
static const char *fake_name(int e) { return e == 719 ? "cudaErrorLaunchFailure" : "cudaErrorOther"; }

static void pending_error_taken(void)
{
    fake_error = 0;
    drtopk_error_clear();
    CHECK_STATUS(drtopk_pending_take(fake_take, fake_name, "drtopk_select"), DRTOPK_OK);
    CHECK(drtopk_last_error()[0] == 0);
    fake_error = 719;                   /* left by the caller */
    CHECK_STATUS(drtopk_pending_take(fake_take, fake_name, "drtopk_select"), DRTOPK_ERR_CUDA);
    CHECK(strstr(drtopk_last_error(), "drtopk_select") != NULL &&
          strstr(drtopk_last_error(), "cudaErrorLaunchFailure") != NULL &&
          strstr(drtopk_last_error(), "pending before the call") != NULL);
    /* taken, not peeked: a launch after the entry that fails with the same
     * code is that launch's error, and the state shows it alone */
    CHECK(fake_error == 0);
    fake_error = 719;
    CHECK(fake_take() == 719);
    CHECK_STATUS(drtopk_pending_take(fake_take, fake_name, "drtopk_batch_select"), DRTOPK_OK);
}

__attribute__((constructor)) static void register_batch_tune_tests(void)
{
    test_register("batch tuning: tiny_max_k per key width of the least worst slowdown (off, default on ties)",
                  decide_tiny);
    test_register("batch tuning: staged_max_len and block_max_len of the least worst slowdown", decide_lengths);
    test_register("batch tuning: block_max_len keeps a 5x win over a 6% loss; u64 rows decide block_max_len_64",
                  decide_block);
    test_register("batch tuning: the warp queue's k x length rectangle of the least worst slowdown", decide_warp);
    test_register("batch tuning: filter_min_len admits the lengths the radix selects win, never 0", decide_filter);
    test_register("batch tuning: a GPU's compiled-in plan, else exactly the defaults", plan_lookup);
    test_register("batch tuning: the plan's staged_max_len is checked, tiny_max_k 0 is valid", plan_field_checks);
    test_register("CUDA entries take an error pending before the call and name it", pending_error_taken);
}
