/*
 * test_batch.c -- batched and segmented top-k on the GPU (kernels/batch_topk.cu)
 * against the host: every key type, both orders, sorted and not;
 * uniform rows that take the tiny-row warp select (short rows and whole
 * 256-key rows of 16-byte loads), the staged radix select in a warp and in a
 * block (right at the tiny/warp/block crossovers; k_s past the slots held
 * beside the candidates), the
 * chunked staged select (right past one chunk), the warp queue (short and
 * long rows, turned on by the plan), the split radix select and the Dr.
 * Top-k pipeline row by row (block_max_len lowered); f32 rows and segments of
 * each algorithm's lengths with NaN, -0.0, +0.0 and heavy ties, all equal,
 * ascending and descending; variable segments binned on the device (empty,
 * one element, k past the length, per-segment k, every bin in one call;
 * the split select over all of a grid row's blocks and over some of them);
 * a long row staged after a short one after a long one (shared-memory grants);
 * the Dr. Top-k pipeline of long variable segments (dr_min_len lowered, and
 * the default plan on long ones) beside short segments, every key type,
 * segment starts off the 16-byte grid; uniform rows through the batched Dr.
 * pipeline (odd lengths, every key type and value pattern; alpha 5 to 10,
 * subranges over several rows of loads) and the rows it
 * leaves to the single pipeline (one row, sorted k past 2048); the staged
 * block select's sampled threshold over random rows of every key type and
 * over f32 rows that force its fallback (all equal, fewer listed than k);
 * the row filter (uniform rows of 16-bit keys split over blocks) likewise,
 * with a k per row.
 * Half the uniform shapes and the variable segments run again with
 * DRTOPK_DETERMINISTIC and must equal the CPU backend's slots bit for bit
 * (unsorted: each segment's as a set).
 * Each result is checked segment by segment by dh_batch_check (exact
 * counting, padding, order), and no CUDA error may be left pending after
 * it.  --small: the sanitizer-sized cases.  --only rowfilter, --only
 * tiny: the row filter's or the tiny select's cases alone (their sanitizer
 * runs).  --shard I/N: only checks I,
 * I + N, I + 2N, ... (counted over every check, in the same order in every
 * run), so that N processes run one case set between them (racecheck of
 * --small in parallel: tests/gpu/run.sh); the N logs' counts add up to one
 * unsharded run's.
 */
#include "batch_check.h"
#include "det_pairs.h"
#include "device.h"
#include "gen.h"
#include "gpu_test.h"
#include "keyorder.h"
#include "onepass_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEED 16
#define SEGMENTS_RANDOM 300          /* variable segments per case */
#define SPECIAL_EVERY 7              /* specials: every 7th element NaN, then -0.0, then +0.0 */
#define SPECIAL_TIE_VALUES 100       /* the other elements: this many distinct values */
#define SPECIAL_K_TINY 8             /* k of the tiny select where segments are short enough */
#define SPECIAL_K 50                 /* token sampling's k */
#define GRANT_LONG 50000             /* grant_order_cases: a row a block stages in most of an H100's shared memory */
#define GRANT_SHORT 2001             /*   and one it stages in a little of it          */
#define GRANT_K_DIV 7                /*   k = len / 7: too large for chunks (len / 8) */
#define SPREAD_LONG ((1u << 21) + 4099) /* split_spread_cases: past the split's 512 blocks of 4096 keys (all its columns) */
#define SPREAD_MID 163845            /*   41 chunks: some of the columns, from a rotated one */
#define DR_MIN_LEN 4096              /* dr_cases: segments past 4096 keys take the Dr. pipeline (k 8: alpha 5) */
#define DR_K 8                       /*   k: 16 k 2^5 = 4096, so k_s up to len / 512 */
#define DR_SPIKE_PERIOD 16384        /*   spike pattern: 64 large keys every 16384 (top k in one subrange) */
#define DR_SPIKE_LEN 64
#define DR_LONG (1ull << 22)         /*   long segments under the default plan (2^20)   */
#define DR_LONG_K 1024               /*   and their k (alpha 6)                          */
#define DR_SORT_MAX 2048             /* the batched sort's largest k (BATCH_SORT_MAX) */
#define DR_SORT_K 2100               /* dr_uniform_cases: sorted k past it */
#define DR_CAND_LEN (1ull << 21)     /* dr_candidate_cases: rows of 2^21 keys, k 2048 (alpha 5) */
#define DR_CAND_K 2048
#define DR_START 3                   /* dr_cases: the first segment's start, off the 16-byte grid */
#define DR_ALPHA_LEN ((1ull << 20) + 5) /* dr_alpha_cases: k 1 alpha 10, k 4 alpha 9, k 16 alpha 8, k 64 alpha 7 */
#define DR_ALPHA_LEN_SMALL 70001     /*   --small: k 1 alpha 8 (a subrange spans 2-4 rows of a warp's loads) */

#define FILTER_SEGMENTS 64           /* filter_cases: variable segments of FILTER_LEN_MIN..FILTER_LEN_MAX keys */
#define FILTER_SEGMENTS_SMALL 6      /*   --small (sanitizers)                          */
#define FILTER_LEN_MIN 1025          /*   the filter select's shortest (the default plan)  */
#define FILTER_LEN_MAX 140000        /*   past sparse attention's 128K                  */
#define FILTER_LEN_MAX_SMALL 20000
#define FILTER_SAMPLE 1024           /*   the kernel's samples (BATCH_FILTER_SAMPLE): onepass_spec.h's positions */
#define FILTER_K_BIG 4096           /*   sparse attention's largest k: sorted past a block's sort (after the select) */
#define FILTER_WORDS 8192            /*   and its list (BATCH_FILTER_WORDS): shorter segments are listed whole */
#define ROWFILTER_ROWS 7             /* rowfilter_cases: uniform rows a case                  */
#define ROWFILTER_ROWS_SMALL 3       /*   --small (sanitizers)                                */
#define ROWFILTER_CROWD 1200         /*   copies of a row's best key: fewer than its list's 1,664 words at k = 50 */
#define ROWFILTER_LEN_MAX 262144     /*   its longest rows                                     */
#define ROWFILTER_K_MIN 32           /*   the least k it takes (BATCH_ROWFILTER_MIN_K)          */
#define TINY_ROWS 12                 /* tiny_cases: rows a case (a k per row: some 0, some k, some between) */
#define TINY_LANES 7                 /*   TINY_PAT_LANES: lanes (position mod 32) holding the large keys   */
#define TINY_TWO_LANES 2             /*   TINY_PAT_TWO_LANES: lanes holding the larger of two values          */
#define TINY_ZERO_BEST_EVERY 50      /*   TINY_PAT_ZEROS: one key in 50 is 1.0, the rest -0.0 or +0.0          */
#define TINY_INT_SCALE 8.0f          /*   i32 rows: the float pattern times 8, rounded          */
#define SAMPLE_ROWS 6                /* sample_cases: rows of the staged block select's sampled threshold */
#define SAMPLE_ROWS_SMALL 2          /*   --small (sanitizers): 2 rows of 10000 keys   */
#define SAMPLE_LEN_ANN 10000         /*   ANN re-ranking's rows                        */
#define SAMPLE_LEN_POW2 8192         /*   and CUB's longest                            */
#define SAMPLE_K 100                 /*   k: the threshold's sample rank 10 and 12     */
#define SAMPLE_COUNT 256             /*   the kernel's samples a row (BATCH_SAMPLES): position j len / 256 */

/* The f32 patterns of sample_cases. */
enum {
    SAMPLE_PAT_EQUAL, SAMPLE_PAT_ASCENDING, SAMPLE_PAT_DESCENDING, SAMPLE_PAT_AT_SAMPLES, SAMPLE_PAT_ZERO_TIES,
    SAMPLE_PAT_NAN_HEAVY, SAMPLE_PAT_COUNT
};
static const char *const sample_names[SAMPLE_PAT_COUNT] = { "all equal", "ascending", "descending",
                                                            "best keys at the sampled positions only",
                                                            "threshold at -0.0/+0.0 ties, a few NaN",
                                                            "NaN at the threshold" };
#define ZERO_TIES_PERIOD 400         /* SAMPLE_PAT_ZERO_TIES: per 400 keys one NaN, one best key, */
#define ZERO_TIES_EVERY 16           /*   a -0.0 or +0.0 every 16 (6%: the sample's rank-10 key),  */
#define NAN_HEAVY_EVERY 10           /* SAMPLE_PAT_NAN_HEAVY: a NaN every 10 (the rank-10 sample is one) */

/* The patterns of filter_cases: random keys of the case's type, and f32
 * patterns that fool the sampled threshold. */
enum {
    FILTER_PAT_RANDOM, FILTER_PAT_EQUAL, FILTER_PAT_AT_SAMPLES, FILTER_PAT_LOW_SAMPLES, FILTER_PAT_SPECIALS,
    FILTER_PAT_ASCENDING, FILTER_PAT_COUNT
};
static const char *const filter_names[FILTER_PAT_COUNT] = {
    "random", "all equal", "best keys at the sampled positions only", "worst keys at the sampled positions",
    "NaN/-0.0/ties", "ascending"
};

/* The value patterns of special_cases. */
enum { PAT_SPECIALS, PAT_EQUAL, PAT_ASCENDING, PAT_DESCENDING, PAT_COUNT, PAT_SPIKE = PAT_COUNT, PAT_DR_COUNT };
static const char *const pat_names[PAT_DR_COUNT] = { "NaN/-0.0/ties", "all equal", "ascending", "descending",
                                                     "a spike of the top keys" };

/* Element i of a value pattern. */
static float pattern_value(uint64_t i, int pattern)
{
    const uint64_t r = i % SPECIAL_EVERY;
    if (pattern == PAT_SPIKE)
        return i % DR_SPIKE_PERIOD < DR_SPIKE_LEN ? (float)(SPECIAL_TIE_VALUES + i % DR_SPIKE_PERIOD)
                                                  : (float)(i % SPECIAL_TIE_VALUES);
    return pattern == PAT_EQUAL ? 1.5f : pattern == PAT_ASCENDING ? (float)i : pattern == PAT_DESCENDING ? -(float)i
         : r == 0 ? NAN : r == 1 ? -0.0f : r == 2 ? 0.0f : (float)(i % SPECIAL_TIE_VALUES) - SPECIAL_TIE_VALUES / 2;
}

static uint64_t rng = 0x16;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* --shard I/N: this process runs check c when c % N == I. */
static unsigned long shard_index, shard_count = 1, check_seq;

/* Whether the next check (host-side or on the GPU) is this shard's. */
static int check_mine(void) { return check_seq++ % shard_count == shard_index; }

/* DRTOPK_DETERMINISTIC: the GPU's slots are the CPU backend's, bit for bit
 * (each segment's ties by smallest position; sorted, equal keys by
 * position); unsorted, each segment's slots as a set (ordered by position
 * here, padding last). */
static void deterministic_check(const drtopk_batch_problem *hp, const drtopk_batch_plan *plan, const void *gv,
                                const uint64_t *gi, const char *what)
{
    const size_t es = drtopk_dtype_size(hp->dtype), slots = (size_t)(hp->segments * hp->k);
    const int sorted = (plan->flags & DRTOPK_SORTED) != 0;
    drtopk_batch_problem cp = *hp;
    drtopk_batch_plan cplan;
    size_t bytes = 0;
    cp.backend = DRTOPK_BACKEND_CPU;
    drtopk_status st = drtopk_batch_plan_auto(&cplan, &cp);
    cplan.flags = plan->flags;
    if (st == DRTOPK_OK) st = drtopk_batch_workspace(&cp, &cplan, &bytes);
    void *ws = malloc(bytes + 1), *cv = malloc(slots * es + 1);
    uint64_t *ci = (uint64_t *)malloc(slots * sizeof(uint64_t) + 1);
    det_pair *g = (det_pair *)malloc(slots * sizeof(det_pair) + 1), *c = (det_pair *)malloc(slots * sizeof(det_pair) + 1);
    if (st == DRTOPK_OK && (!ws || !cv || !ci || !g || !c)) st = DRTOPK_ERR_OUT_OF_MEMORY;
    if (st == DRTOPK_OK) st = drtopk_batch_select(&cp, &cplan, ws, bytes, cv, ci, NULL);
    if (st != DRTOPK_OK) {
        gt_checkf(0, drtopk_last_error(), "%s: deterministic: the CPU backend: %s", what, drtopk_status_string(st));
    } else {
        det_pairs_of(gv, gi, slots, hp->dtype, sorted, (size_t)hp->k, g);
        det_pairs_of(cv, ci, slots, hp->dtype, sorted, (size_t)hp->k, c);
        size_t bad = slots;
        for (size_t i = 0; i < slots && bad == slots; ++i)
            if (g[i].pos != c[i].pos || g[i].bits != c[i].bits) bad = i;
        char why[200];
        snprintf(why, sizeof why, "%s %zu (segment %llu): GPU position %llu, CPU %llu",
                 sorted ? "slot" : "the sets differ at slot", bad, (unsigned long long)(bad / (hp->k ? hp->k : 1)),
                 bad < slots ? (unsigned long long)g[bad].pos : 0ull, bad < slots ? (unsigned long long)c[bad].pos : 0ull);
        gt_checkf(bad == slots, why, "%s: deterministic: the CPU backend's slots", what);
    }
    free(ws);
    free(cv);
    free(ci);
    free(g);
    free(c);
}

/* Run p (host pointers in hp) on the GPU with plan; check on the host. */
static void run_case(const drtopk_batch_problem *hp, const drtopk_batch_plan *plan, uint64_t n, const char *what)
{
    if (!check_mine()) return;
    const size_t es = drtopk_dtype_size(hp->dtype), slots = (size_t)(hp->segments * hp->k);
    void *dv = NULL, *doff = NULL, *dks = NULL, *dws = NULL, *dov = NULL, *doi = NULL;
    void *ov = malloc(slots * es + 1);
    uint64_t *oi = (uint64_t *)malloc(slots * sizeof(uint64_t) + 1);
    size_t bytes = 0;
    drtopk_batch_problem p = *hp;
    drtopk_status st = drtopk_batch_workspace(&p, plan, &bytes);
    if (st == DRTOPK_OK) st = dh_dev_alloc(&dv, n * es + 1);
    if (st == DRTOPK_OK) st = dh_dev_copy(dv, hp->values, n * es, DRTOPK_COPY_H2D);
    if (st == DRTOPK_OK && hp->offsets) {
        st = dh_dev_alloc(&doff, (hp->segments + 1) * sizeof(uint64_t));
        if (st == DRTOPK_OK) st = dh_dev_copy(doff, hp->offsets, (hp->segments + 1) * sizeof(uint64_t), DRTOPK_COPY_H2D);
        p.offsets = (const uint64_t *)doff;
    }
    if (st == DRTOPK_OK && hp->ks) {
        st = dh_dev_alloc(&dks, hp->segments * sizeof(uint64_t));
        if (st == DRTOPK_OK) st = dh_dev_copy(dks, hp->ks, hp->segments * sizeof(uint64_t), DRTOPK_COPY_H2D);
        p.ks = (const uint64_t *)dks;
    }
    if (st == DRTOPK_OK) st = dh_dev_alloc(&dws, bytes + 1);
    if (st == DRTOPK_OK) st = dh_dev_alloc(&dov, slots * es + 1);
    if (st == DRTOPK_OK) st = dh_dev_alloc(&doi, slots * sizeof(uint64_t) + 1);
    p.values = dv;
    if (st == DRTOPK_OK) st = drtopk_batch_select(&p, plan, dws, bytes, dov, (uint64_t *)doi, NULL);
    if (st == DRTOPK_OK) st = dh_dev_sync();
    if (st == DRTOPK_OK) st = dh_dev_copy(ov, dov, slots * es, DRTOPK_COPY_D2H);
    if (st == DRTOPK_OK) st = dh_dev_copy(oi, doi, slots * sizeof(uint64_t), DRTOPK_COPY_D2H);
    /* cleared after every case: a failed launch must not hide or fail the next case (the library leaves
     * an error pending at its entry alone), and one left behind by a call that succeeded is a failure */
    const drtopk_status pending = dh_dev_clear_error();
    if (st != DRTOPK_OK) {
        gt_checkf(0, drtopk_last_error(), "%s: %s", what, drtopk_status_string(st));
    } else if (pending != DRTOPK_OK) {
        gt_checkf(0, "a CUDA error was left pending by a call that returned DRTOPK_OK", "%s", what);
    } else {
        const dh_check_result r = dh_batch_check(hp, (plan->flags & DRTOPK_SORTED) != 0, ov, oi);
        gt_checkf(r.ok, r.why, "%s", what);
        if (plan->flags & DRTOPK_DETERMINISTIC) deterministic_check(hp, plan, ov, oi, what);
    }
    void *dev[] = { dv, doff, dks, dws, dov, doi };
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; ++i)
        if (dev[i]) dh_dev_free(dev[i]);
    free(ov);
    free(oi);
}

/* f32 rows of len (tiny and staged in a warp at 200, 1000; staged in a block
 * at 5000; chunked at 20000; chunked or split at 70000) and variable segments
 * (empty, len, one element, 2 len, len) with each value pattern, k = 8, 50
 * and every element, sorted and not, deterministic and not. */
static void special_cases(uint64_t len, int pattern)
{
    const uint64_t offsets[] = { 0, 0, len, len + 1, len + 1 + 2 * len, 4 * len + 1 };
    const uint64_t nseg = sizeof offsets / sizeof offsets[0] - 1, n = offsets[nseg];
    const uint64_t ks[] = { SPECIAL_K_TINY, SPECIAL_K, 2 * len };
    float *v = (float *)malloc(n * sizeof(float));
    char what[256];
    for (uint64_t i = 0; i < n; ++i) v[i] = pattern_value(i, pattern);
    for (int o = 0; o < 2; ++o) {
        for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ++ki) {
            for (int sorted = 0; sorted < (ks[ki] <= DRTOPK_WARP_K_MAX ? 2 : 1); ++sorted) {
                for (int var = 0; var < 2; ++var) {
                    const uint64_t k = var ? ks[ki] : (ks[ki] < len ? ks[ki] : len);
                    drtopk_batch_problem p = { DRTOPK_BACKEND_CUDA, DRTOPK_F32, (drtopk_order)o,
                                               var ? nseg : 2, var ? 0 : len, var ? offsets : NULL, k, NULL, v,
                                               var ? n : 0 };
                    drtopk_batch_plan plan;
                    drtopk_batch_plan_auto(&plan, &p);
                    if (sorted) plan.flags |= DRTOPK_SORTED;
                    snprintf(what, sizeof what, "%s of %llu f32 %s %s%s k %llu", var ? "segments" : "rows",
                             (unsigned long long)len, pat_names[pattern], o ? "smallest" : "largest",
                             sorted ? " sorted" : "", (unsigned long long)k);
                    run_case(&p, &plan, var ? n : 2 * len, what);
                    plan.flags |= DRTOPK_DETERMINISTIC;     /* ties at the k-th key and equal keys by position */
                    strncat(what, " deterministic", sizeof what - strlen(what) - 1);
                    run_case(&p, &plan, var ? n : 2 * len, what);
                }
            }
        }
    }
    free(v);
}

/* The filter select (a block per segment: a sampled threshold, one read
 * listing the keys at or above it, the list sorted): variable segments of
 * FILTER_LEN_MIN..FILTER_LEN_MAX keys beside short ones, every key type of
 * at most 32 bits (64-bit keys: the radix selects), k 50, 512 and 2048
 * (sparse attention's) and 4096 (sorted: after the select, past what a
 * block sorts), both orders, sorted and not, deterministic; and f32
 * patterns where its threshold fails and the segment goes to the split
 * select: all equal (every key listed: past its words), the best keys at the
 * sampled positions only (fewer listed than k = 2048), the worst keys there
 * (every key listed), and ties with NaN and -0.0/+0.0; ascending (the top k
 * at one end).  The same segments with the filter off run the radix selects. */
static void filter_cases(int small)
{
    const uint64_t nseg = small ? FILTER_SEGMENTS_SMALL : FILTER_SEGMENTS, len_max = small ? FILTER_LEN_MAX_SMALL
                                                                                            : FILTER_LEN_MAX;
    const uint64_t ks[] = { SPECIAL_K, 512, DR_SORT_MAX, FILTER_K_BIG };
    uint64_t *off = (uint64_t *)malloc((nseg + 1) * sizeof(uint64_t));
    char what[256];
    off[0] = 0;
    for (uint64_t s = 0; s < nseg; ++s) {
        const uint64_t len = s % 8 == 7 ? rnd() % FILTER_LEN_MIN : FILTER_LEN_MIN + rnd() % (len_max - FILTER_LEN_MIN);
        off[s + 1] = off[s] + len + (s == 0 ? 3 : 0);     /* segment 0 starts at 3: off the 16-byte grid */
    }
    const uint64_t n = off[nseg];
    void *v = malloc(n * sizeof(float) + 8);
    float *f = (float *)v;
    for (int pat = 0; pat < FILTER_PAT_COUNT; ++pat) {
        for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
            if (drtopk_dtype_bits((drtopk_dtype)t) > 32 || (pat != FILTER_PAT_RANDOM && t != DRTOPK_F32)) continue;
            if (pat == FILTER_PAT_RANDOM) dh_gen_host(v, n, DRTOPK_DIST_UD, (drtopk_dtype)t, SEED + (uint64_t)t);
            for (uint64_t s = 0; pat != FILTER_PAT_RANDOM && s < nseg; ++s) {
                const uint64_t len = off[s + 1] - off[s];
                for (uint64_t i = 0; i < len; ++i) {
                    float x = (float)(rnd() % 100000) / 100000.0f;
                    if (pat == FILTER_PAT_EQUAL) x = 0.25f;
                    else if (pat == FILTER_PAT_AT_SAMPLES || pat == FILTER_PAT_LOW_SAMPLES) x *= 0.5f;
                    else if (pat == FILTER_PAT_SPECIALS) x = pattern_value(i, PAT_SPECIALS);
                    else if (pat == FILTER_PAT_ASCENDING) x = (float)i;
                    f[off[s] + i] = x;
                }
                for (uint64_t j = 0; len > FILTER_WORDS && j < FILTER_SAMPLE; ++j) {
                    float *at = &f[off[s] + drtopk_onepass_sample_pos(len, FILTER_SAMPLE, j)];
                    if (pat == FILTER_PAT_AT_SAMPLES) *at = 1.0f;
                    if (pat == FILTER_PAT_LOW_SAMPLES) *at = -1.0f;
                }
            }
            for (int o = 0; o < 2; ++o) {
                for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ++ki) {
                    for (int variant = 0; variant < 4; ++variant) {  /* unsorted, sorted, deterministic, filter off */
                        if ((small || pat != FILTER_PAT_RANDOM) && variant == 3) continue;
                        drtopk_batch_problem p = { DRTOPK_BACKEND_CUDA, (drtopk_dtype)t, (drtopk_order)o, nseg, 0, off,
                                                   ks[ki], NULL, v, n };
                        drtopk_batch_plan plan;
                        drtopk_batch_plan_auto(&plan, &p);
                        if (variant == 1 || (variant == 2 && ki % 2)) plan.flags |= DRTOPK_SORTED;
                        if (variant == 2) plan.flags |= DRTOPK_DETERMINISTIC;
                        if (variant == 3) plan.filter_min_len = 0;
                        snprintf(what, sizeof what, "filter: %llu segments up to %llu %s %s, %s%s%s%s k %llu",
                                 (unsigned long long)nseg, (unsigned long long)len_max, drtopk_dtype_name(p.dtype),
                                 filter_names[pat], o ? "smallest" : "largest",
                                 plan.flags & DRTOPK_SORTED ? " sorted" : "",
                                 plan.flags & DRTOPK_DETERMINISTIC ? " deterministic" : "",
                                 variant == 3 ? " (filter off)" : "", (unsigned long long)p.k);
                        run_case(&p, &plan, n, what);
                    }
                }
            }
        }
    }
    free(v);
    free(off);
}

/* The row filter (uniform rows of 16-bit keys split over blocks of 32 KB
 * each, a sampled threshold a row, a block a row selecting from the row's
 * lists): rows of 131075 keys (odd, so that rows start off the 16-byte
 * grid), 262144 and 140000 keys, k 32, 50 and 100 (the k it takes at these
 * lengths), f16 and bf16, both orders, unsorted, sorted, deterministic, a k
 * per row (some rows none, some all of k) and the filter off (the algorithm
 * it stands for); bf16 rows whose threshold is a tie (TAKE: k - gt of its
 * ties): all equal, and rows whose best key is held 1,200 times beside
 * random rows; bf16 rows where the threshold fails and the row goes to the
 * split select: the best keys (at most two of a value) at the sampled
 * positions only (fewer than k at or above t), the worst keys there (every
 * key above t: past the list); ties with NaN and -0.0/+0.0, ascending (runs
 * of equal keys, the top k in the last chunk).  --small: 3 rows of 131075
 * keys, k 50, bf16. */
static void rowfilter_cases(int small)
{
    const uint64_t lens[] = { 131075, 262144, 140000 }, ks[] = { ROWFILTER_K_MIN, SPECIAL_K, 100 };
    const uint64_t rows = small ? ROWFILTER_ROWS_SMALL : ROWFILTER_ROWS;
    const uint64_t nlens = small ? 1 : sizeof lens / sizeof lens[0];
    char what[256];
    void *v = malloc(rows * ROWFILTER_LEN_MAX * sizeof(uint16_t) + 8);
    uint16_t *h = (uint16_t *)v;
    uint64_t *rk = (uint64_t *)malloc(rows * sizeof(uint64_t));
    for (uint64_t l = 0; l < nlens; ++l) {
        const uint64_t len = lens[l], n = rows * len;
        for (int pat = 0; pat < FILTER_PAT_COUNT; ++pat) {
            for (int t = DRTOPK_F16; t <= DRTOPK_BF16; ++t) {
                if ((small || pat != FILTER_PAT_RANDOM) && t != DRTOPK_BF16) continue;
                if (pat == FILTER_PAT_RANDOM) dh_gen_host(v, n, (l + (uint64_t)t) % 2 ? DRTOPK_DIST_UD : DRTOPK_DIST_ND,
                                                          (drtopk_dtype)t, SEED + (uint64_t)t + l);
                for (uint64_t i = 0; pat != FILTER_PAT_RANDOM && i < n; ++i) {
                    const uint64_t c = i % len;
                    float x = (float)(rnd() % 100000) / 100000.0f;
                    if (pat == FILTER_PAT_EQUAL) x = 0.25f;
                    else if (pat == FILTER_PAT_AT_SAMPLES || pat == FILTER_PAT_LOW_SAMPLES) x *= 0.5f;
                    else if (pat == FILTER_PAT_SPECIALS) x = pattern_value(c, PAT_SPECIALS);
                    else if (pat == FILTER_PAT_ASCENDING) x = (float)c;
                    h[i] = (uint16_t)dh_float_bits_of(x, DRTOPK_BF16);
                }
                for (uint64_t r = 0; (pat == FILTER_PAT_AT_SAMPLES || pat == FILTER_PAT_LOW_SAMPLES) && r < rows; ++r)
                    for (uint64_t j = 0; j < FILTER_SAMPLE; ++j) {  /* the best ones 2..1025: at most four a value */
                        const float x = pat == FILTER_PAT_AT_SAMPLES ? 2.0f + (float)j : -1.0f;
                        h[r * len + drtopk_onepass_sample_pos(len, FILTER_SAMPLE, j)] =
                            (uint16_t)dh_float_bits_of(x, DRTOPK_BF16);
                    }
                for (int o = 0; o < 2; ++o) {
                    for (size_t ki = small ? 1 : 0; ki < (small ? 2 : sizeof ks / sizeof ks[0]); ++ki) {
                        for (int variant = 0; variant < 5; ++variant) {  /* unsorted, sorted, deterministic, a k
                                                                            per row, filter off */
                            if ((small || pat != FILTER_PAT_RANDOM) && variant >= 3) continue;
                            for (uint64_t r = 0; r < rows; ++r)
                                rk[r] = r % 3 == 1 ? 0 : r % 3 == 2 ? ks[ki] : 1 + rnd() % ks[ki];
                            drtopk_batch_problem p = { DRTOPK_BACKEND_CUDA, (drtopk_dtype)t, (drtopk_order)o, rows,
                                                       len, NULL, ks[ki], variant == 3 ? rk : NULL, v, 0 };
                            drtopk_batch_plan plan;
                            drtopk_batch_plan_auto(&plan, &p);
                            if (variant == 1 || (variant == 2 && ki % 2)) plan.flags |= DRTOPK_SORTED;
                            if (variant == 2) plan.flags |= DRTOPK_DETERMINISTIC;
                            if (variant == 4) plan.filter_min_len = 0;
                            snprintf(what, sizeof what, "row filter: %llu x %llu %s %s, %s%s%s%s k %llu",
                                     (unsigned long long)rows, (unsigned long long)len, drtopk_dtype_name(p.dtype),
                                     filter_names[pat], o ? "smallest" : "largest",
                                     plan.flags & DRTOPK_SORTED ? " sorted" : "",
                                     plan.flags & DRTOPK_DETERMINISTIC ? " deterministic" : "",
                                     variant == 3 ? " (k per row)" : variant == 4 ? " (filter off)" : "",
                                     (unsigned long long)p.k);
                            run_case(&p, &plan, n, what);
                        }
                    }
                }
            }
        }
    }
    /* every other row holds ROWFILTER_CROWD copies of its best key, so that t is that key and the list
     * its ties (fewer than the list holds at k = 50), the rest random */
    for (int o = 0; o < 2; ++o) {
        const uint64_t len = lens[0], n = rows * len;
        dh_gen_host(v, n, DRTOPK_DIST_UD, DRTOPK_BF16, SEED + 99);
        for (uint64_t r = 0; r < rows; r += 2)
            for (uint64_t j = 0; j < ROWFILTER_CROWD; ++j)
                h[r * len + rnd() % len] = (uint16_t)dh_float_bits_of(o ? -2.0f : 2.0f, DRTOPK_BF16);
        drtopk_batch_problem p = { DRTOPK_BACKEND_CUDA, DRTOPK_BF16, (drtopk_order)o, rows, len, NULL, SPECIAL_K,
                                   NULL, v, 0 };
        drtopk_batch_plan plan;
        drtopk_batch_plan_auto(&plan, &p);
        snprintf(what, sizeof what, "row filter: %llu x %llu bf16, every other row %d copies of its best, %s k %d",
                 (unsigned long long)rows, (unsigned long long)len, ROWFILTER_CROWD, o ? "smallest" : "largest",
                 SPECIAL_K);
        run_case(&p, &plan, n, what);
    }
    free(rk);
    free(v);
}

/* Patterns of tiny_cases, each aimed at one way the threshold select
 * settles a row (t: the k_s-th largest of its 32 lanes' maxima, lane l
 * holding positions l, l + 32, ...): random (at most 32 keys >= t), the
 * large keys in TINY_LANES lanes only (more than 32 keys > t: the sorted
 * pops), two values with the larger in TINY_TWO_LANES lanes (more than 32
 * keys >= t, k_s..32 of them > t, or fewer: t's ties by position), all
 * equal and few distinct values (t's ties by position), ascending and
 * descending, -0.0 and +0.0 under a few 1.0, NaN/-0.0/ties. */
enum {
    TINY_PAT_RANDOM, TINY_PAT_LANES, TINY_PAT_TWO_LANES, TINY_PAT_EQUAL, TINY_PAT_FEW, TINY_PAT_ASCENDING,
    TINY_PAT_DESCENDING, TINY_PAT_ZEROS, TINY_PAT_SPECIALS, TINY_PAT_COUNT
};
static const char *const tiny_names[TINY_PAT_COUNT] = {
    "random", "large keys in 7 lanes", "two values, the larger in 2 lanes", "all equal", "three values",
    "ascending", "descending", "-0.0/+0.0 under a few 1.0", "NaN/-0.0/ties",
};

static float tiny_value(uint64_t p, int pat)
{
    const uint64_t lane = p % 32;
    switch (pat) {
    case TINY_PAT_LANES: return lane < TINY_LANES ? 2.0f + (float)(rnd() % 1000) / 100.0f
                                                  : (float)(rnd() % 1000) / 1000.0f;
    case TINY_PAT_TWO_LANES: return lane < TINY_TWO_LANES ? 9.0f : 5.0f;
    case TINY_PAT_EQUAL: return 0.25f;
    case TINY_PAT_FEW: return (float)(rnd() % 3);
    case TINY_PAT_ASCENDING: return (float)p;
    case TINY_PAT_DESCENDING: return -(float)p;
    case TINY_PAT_ZEROS: return rnd() % TINY_ZERO_BEST_EVERY == 0 ? 1.0f : rnd() % 2 ? -0.0f : 0.0f;
    case TINY_PAT_SPECIALS: return pattern_value(p, PAT_SPECIALS);
    default: return (float)(rnd() % 100000) / 100000.0f;
    }
}

/* The tiny select (a warp a row of at most 256 keys): rows of 256, 200 and
 * 20 keys in each pattern (the smallest order on the values negated, so that
 * each aims the same way), every float type and i32 (the float patterns
 * times TINY_INT_SCALE, rounded; no NaN or zeros patterns), f64 (the sorted pops alone),
 * k 1, 8, 16 and DRTOPK_BATCH_TINY_K_MAX (tiny_max_k raised to it);
 * unsorted, sorted, deterministic and a k per row.  --small: f32 and bf16,
 * rows of 256 and 20, k 8. */
static void tiny_cases(int small)
{
    const drtopk_dtype types[] = { DRTOPK_F32, DRTOPK_BF16, DRTOPK_F16, DRTOPK_I32, DRTOPK_F64 };
    const uint64_t lens[] = { 256, 200, 20 }, ks[] = { 1, SPECIAL_K_TINY, 16, DRTOPK_BATCH_TINY_K_MAX };
    void *v = malloc(TINY_ROWS * 256 * sizeof(uint64_t));
    uint64_t rk[TINY_ROWS];
    char what[256];
    for (size_t ti = 0; ti < (small ? 2 : sizeof types / sizeof types[0]); ++ti) {
        const drtopk_dtype t = types[ti];
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; ++l) {
            const uint64_t len = lens[l], n = TINY_ROWS * len;
            if (small && l == 1) continue;
            for (int pat = 0; pat < TINY_PAT_COUNT; ++pat) {
                if (!drtopk_dtype_is_float(t) && (pat == TINY_PAT_ZEROS || pat == TINY_PAT_SPECIALS)) continue;
                for (int o = 0; o < 2; ++o) {
                    for (uint64_t i = 0; i < n; ++i) {
                        const float x = o ? -tiny_value(i % len, pat) : tiny_value(i % len, pat);
                        const uint64_t as_int = (uint32_t)(int32_t)lrintf(TINY_INT_SCALE * x);
                        drtopk_bits_store(v, i, t, drtopk_dtype_is_float(t) ? dh_float_bits_of(x, t) : as_int);
                    }
                    for (size_t ki = small ? 1 : 0; ki < (small ? 2 : sizeof ks / sizeof ks[0]); ++ki) {
                        if (ks[ki] > len) continue;
                        for (int variant = 0; variant < (small ? 2 : 4); ++variant) {  /* unsorted, sorted,
                                                                           deterministic sorted, a k per row */
                            for (uint64_t r = 0; r < TINY_ROWS; ++r)
                                rk[r] = r % 3 == 1 ? 0 : r % 3 == 2 ? ks[ki] : 1 + rnd() % ks[ki];
                            drtopk_batch_problem p = { DRTOPK_BACKEND_CUDA, t, (drtopk_order)o, TINY_ROWS, len, NULL,
                                                       ks[ki], variant == 3 ? rk : NULL, v, 0 };
                            drtopk_batch_plan plan;
                            drtopk_batch_plan_auto(&plan, &p);
                            plan.tiny_max_k = plan.tiny_max_k_64 = DRTOPK_BATCH_TINY_K_MAX;
                            if (variant == 1 || variant == 2) plan.flags |= DRTOPK_SORTED;
                            if (variant == 2) plan.flags |= DRTOPK_DETERMINISTIC;
                            snprintf(what, sizeof what, "tiny: %d x %llu %s %s, %s%s%s%s k %llu", TINY_ROWS,
                                     (unsigned long long)len, drtopk_dtype_name(t), tiny_names[pat],
                                     o ? "smallest" : "largest", plan.flags & DRTOPK_SORTED ? " sorted" : "",
                                     plan.flags & DRTOPK_DETERMINISTIC ? " deterministic" : "",
                                     variant == 3 ? " (k per row)" : "", (unsigned long long)p.k);
                            run_case(&p, &plan, n, what);
                        }
                    }
                }
            }
        }
    }
    free(v);
}

/* The wide filter block (a sample's capacity past a block's words: one
 * block an SM, where the GPU holds it): sparse attention's k = 4096 of 70000
 * keys (unsorted; sorted after the select) and k = 2048 of 262144 keys
 * (sorted in the block), as uniform rows and as variable segments beside a
 * short one and a 128K one at k = 2048 (a plain filter block in the same
 * call), f32 and bf16, both orders; --small included (the sanitizers). */
#define WIDE_LEN 70000               /* filter_wide_cases: k = 4096 of it needs a wide block */
#define WIDE_LEN_LONG 262144         /*   and k = 2048 of this                               */
#define WIDE_LEN_PLAIN 131072        /*   k = 2048 of this a plain block                     */
static void filter_wide_cases(void)
{
    const uint64_t seg_lens[] = { WIDE_LEN, 300, WIDE_LEN_LONG, WIDE_LEN_PLAIN };
    const uint64_t nseg = sizeof seg_lens / sizeof seg_lens[0];
    const struct { uint64_t rows, len, k; } rows[] = {
        { 2, WIDE_LEN, FILTER_K_BIG }, { 1, WIDE_LEN_LONG, DR_SORT_MAX },
    };
    const drtopk_dtype types[] = { DRTOPK_F32, DRTOPK_BF16 };
    uint64_t off[sizeof seg_lens / sizeof seg_lens[0] + 1] = { 0 };
    for (uint64_t s = 0; s < nseg; ++s) off[s + 1] = off[s] + seg_lens[s];
    const uint64_t n = off[nseg] > WIDE_LEN_LONG ? off[nseg] : WIDE_LEN_LONG;
    void *v = malloc(n * sizeof(float));
    char what[256];
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
        dh_gen_host(v, n, DRTOPK_DIST_ND, types[t], SEED + t);
        for (int o = 0; o < 2; ++o) {
            for (int sorted = 0; sorted < 2; ++sorted) {
                for (size_t r = 0; r <= sizeof rows / sizeof rows[0]; ++r) {
                    const int seg = r == sizeof rows / sizeof rows[0];      /* the last case: the segments */
                    drtopk_batch_problem p = { DRTOPK_BACKEND_CUDA, types[t], (drtopk_order)o,
                                               seg ? nseg : rows[r].rows, seg ? 0 : rows[r].len, seg ? off : NULL,
                                               seg ? FILTER_K_BIG : rows[r].k, NULL, v, seg ? off[nseg] : 0 };
                    uint64_t ks[sizeof seg_lens / sizeof seg_lens[0]];
                    for (uint64_t s = 0; s < nseg; ++s) ks[s] = seg_lens[s] > WIDE_LEN ? DR_SORT_MAX : FILTER_K_BIG;
                    if (seg) p.ks = ks;
                    drtopk_batch_plan plan;
                    drtopk_batch_plan_auto(&plan, &p);
                    if (sorted) plan.flags |= DRTOPK_SORTED;
                    if (seg) snprintf(what, sizeof what, "filter wide: %llu segments %s %s%s, k 4096 / 2048",
                                      (unsigned long long)nseg, drtopk_dtype_name(p.dtype),
                                      o ? "smallest" : "largest", sorted ? " sorted" : "");
                    else snprintf(what, sizeof what, "filter wide: %llu x %llu %s %s%s k %llu",
                                  (unsigned long long)p.segments, (unsigned long long)p.len, drtopk_dtype_name(p.dtype),
                                  o ? "smallest" : "largest", sorted ? " sorted" : "", (unsigned long long)p.k);
                    run_case(&p, &plan, seg ? off[nseg] : p.segments * p.len, what);
                }
            }
        }
    }
    free(v);
}

/* Variable segments for the split radix select with as many blocks as a
 * grid row has (one segment longer than that many chunks) and with fewer
 * (segments of some chunks, their first block rotated by their index),
 * beside short ones; few distinct values, so ties at the k-th key span
 * blocks; both orders, sorted and not. */
static void split_spread_cases(void)
{
    const uint64_t offsets[] = { 0, 300, 300 + SPREAD_LONG, 300 + SPREAD_LONG + 70, 300 + SPREAD_LONG + 70 + SPREAD_MID,
                                 300 + SPREAD_LONG + 70 + 2 * SPREAD_MID + 1 };
    const uint64_t nseg = sizeof offsets / sizeof offsets[0] - 1, n = offsets[nseg];
    float *v = (float *)malloc(n * sizeof(float));
    char what[256];
    dh_gen_host(v, n, DRTOPK_DIST_FEW, DRTOPK_F32, SEED);
    for (int o = 0; o < 2; ++o) {
        for (int sorted = 0; sorted < 2; ++sorted) {
            drtopk_batch_problem p = { DRTOPK_BACKEND_CUDA, DRTOPK_F32, (drtopk_order)o, nseg, 0, offsets,
                                       SPECIAL_K, NULL, v, n };
            drtopk_batch_plan plan;
            drtopk_batch_plan_auto(&plan, &p);
            if (sorted) plan.flags |= DRTOPK_SORTED;
            snprintf(what, sizeof what, "split spread: segments up to %u f32 %s%s k %d", SPREAD_LONG,
                     o ? "smallest" : "largest", sorted ? " sorted" : "", SPECIAL_K);
            run_case(&p, &plan, n, what);
        }
    }
    free(v);
}

/* The staged block select's sampled threshold (rows of SAMPLE_LENS keys, k
 * SAMPLE_K): random keys of every type (the top k_s taken from the listed
 * keys alone, 16-, 32- and 64-bit keys), and f32 rows where the list cannot
 * be used, so the search falls back to all the staged keys: all equal (every
 * key listed: past the list), ascending and descending (the sample exact, the
 * top k in one place at an end of the row), and the sampled positions
 * themselves the only large keys (fewer listed than k); f32 rows whose
 * threshold is a -0.0/+0.0 tie with a few NaN above it (the list compares
 * raw floats: both zeros listed, NaN listed only for the largest) and rows
 * whose threshold is a NaN (no list); both orders, sorted and not. */
static void sample_cases(int small)
{
    const uint64_t lens[] = { SAMPLE_LEN_ANN, SAMPLE_LEN_POW2 }, rows = small ? SAMPLE_ROWS_SMALL : SAMPLE_ROWS;
    char what[256];
    void *v = malloc(SAMPLE_ROWS * SAMPLE_LEN_ANN * 8);
    float *f = (float *)v;
    unsigned char *sampled = (unsigned char *)malloc(SAMPLE_LEN_ANN);
    for (size_t l = 0; l < (small ? 1 : sizeof lens / sizeof lens[0]); ++l) {
        const uint64_t len = lens[l], n = rows * len;
        memset(sampled, 0, len);
        for (uint64_t j = 0; j < SAMPLE_COUNT; ++j) sampled[j * len / SAMPLE_COUNT] = 1;     /* the kernel's samples */
        for (int pat = 0; pat < DRTOPK_DTYPE_COUNT + SAMPLE_PAT_COUNT; ++pat) {
            const int fixed = pat - DRTOPK_DTYPE_COUNT;         /* >= 0: an f32 pattern; else random keys of type pat */
            const drtopk_dtype t = fixed < 0 ? (drtopk_dtype)pat : DRTOPK_F32;
            if (fixed < 0) dh_gen_host(v, n, DRTOPK_DIST_UD, t, SEED + (uint64_t)pat);
            for (int o = 0; o < 2; ++o) {
                for (uint64_t i = 0; fixed >= 0 && i < n; ++i) {
                    const uint64_t c = i % len;
                    const float sign = o ? -1.0f : 1.0f, best = sign * (float)(SPECIAL_TIE_VALUES + c);   /* beats every other key */
                    if (fixed == SAMPLE_PAT_ZERO_TIES)  /* the list holds NaN (largest only), the best, ±0.0 */
                        f[i] = c % ZERO_TIES_PERIOD == 0 ? NAN : c % ZERO_TIES_PERIOD == 1 ? best
                             : c % ZERO_TIES_EVERY == 7 ? ((c / ZERO_TIES_EVERY) % 2 ? -0.0f : 0.0f)
                             : -sign * (float)(1 + c % SPECIAL_TIE_VALUES);
                    else if (fixed == SAMPLE_PAT_NAN_HEAVY)
                        f[i] = c % NAN_HEAVY_EVERY == 3 ? NAN : (float)(c % SPECIAL_TIE_VALUES);
                    else
                        f[i] = fixed == SAMPLE_PAT_EQUAL ? 1.5f : fixed == SAMPLE_PAT_ASCENDING ? (float)c
                             : fixed == SAMPLE_PAT_DESCENDING ? -(float)c
                             : sampled[c] ? best : (float)(c % SPECIAL_TIE_VALUES);
                }
                for (int sorted = 0; sorted < 2; ++sorted) {
                    drtopk_batch_problem p = { DRTOPK_BACKEND_CUDA, t, (drtopk_order)o, rows, len, NULL,
                                               SAMPLE_K, NULL, v, 0 };
                    drtopk_batch_plan plan;
                    drtopk_batch_plan_auto(&plan, &p);
                    if (sorted) plan.flags |= DRTOPK_SORTED;
                    snprintf(what, sizeof what, "sampled threshold: %llu x %llu %s %s %s%s k %d",
                             (unsigned long long)rows, (unsigned long long)len, drtopk_dtype_name(t), fixed < 0 ? "random" : sample_names[fixed],
                             o ? "smallest" : "largest", sorted ? " sorted" : "", SAMPLE_K);
                    run_case(&p, &plan, n, what);
                }
            }
        }
    }
    free(sampled);
    free(v);
}

/* The staged block select's dynamic shared memory is a per-kernel ceiling: a
 * long row, then a short one (the same kernel, a smaller grant), then the
 * long one again must launch (the attribute is raised, never lowered under
 * a larger grant already recorded).  Lengths no other case has; k large
 * enough that the rows are staged whole, not in chunks. */
static void grant_order_cases(void)
{
    const uint64_t lens[] = { GRANT_LONG, GRANT_SHORT, GRANT_LONG }, rows = 2;
    float *v = (float *)malloc(rows * GRANT_LONG * sizeof(float));
    char what[256];
    dh_gen_host(v, rows * GRANT_LONG, DRTOPK_DIST_ND, DRTOPK_F32, SEED);
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; ++i) {
        drtopk_batch_problem p = { DRTOPK_BACKEND_CUDA, DRTOPK_F32, DRTOPK_LARGEST, rows, lens[i], NULL,
                                   lens[i] / GRANT_K_DIV, NULL, v, 0 };
        drtopk_batch_plan plan;
        drtopk_batch_plan_auto(&plan, &p);
        snprintf(what, sizeof what, "shared-memory grant order: call %zu, %llu x %llu f32 k %llu", i + 1,
                 (unsigned long long)rows, (unsigned long long)lens[i], (unsigned long long)p.k);
        run_case(&p, &plan, rows * lens[i], what);
    }
    free(v);
}

/* The Dr. Top-k pipeline of variable segments: segments of up to `lg`
 * log2 keys (empty, one element, short and long ones mixed) with the values
 * in v (n of type t), one k or per-segment k (some past their segment), both
 * orders, sorted and not; the workspace with p.total must hold the
 * pipeline's parts (larger than without), and a total below the last offset
 * (segments past it keep the other selects) must still be exact. */
static void dr_run(drtopk_dtype t, const uint64_t *off, uint64_t nseg, const void *v, uint64_t k, uint64_t min_len,
                   const char *values)
{
    char what[256];
    uint64_t *ks = (uint64_t *)malloc(nseg * sizeof(uint64_t));
    for (uint64_t s = 0; s < nseg; ++s) ks[s] = rnd() % (k + 3);
    for (int o = 0; o < 2; ++o) {
        for (int sorted = 0; sorted < 2; ++sorted) {
            for (int variant = 0; variant < 3; ++variant) {     /* one k; per-segment k; total cut in half */
                drtopk_batch_problem p = { DRTOPK_BACKEND_CUDA, t, (drtopk_order)o, nseg, 0, off, k,
                                           variant == 1 ? ks : NULL, v, variant == 2 ? off[nseg] / 2 : off[nseg] };
                drtopk_batch_plan plan;
                drtopk_batch_plan_auto(&plan, &p);
                if (min_len) plan.dr_min_len = min_len;
                if (sorted) plan.flags |= DRTOPK_SORTED;
                size_t with = 0, without = 0;
                drtopk_batch_problem q = p;
                q.total = 0;
                /* sized first: the sizes are arguments of the same check */
                const int sized = drtopk_batch_workspace(&p, &plan, &with) == DRTOPK_OK &&
                                  drtopk_batch_workspace(&q, &plan, &without) == DRTOPK_OK;
                if (check_mine())
                    gt_checkf(sized && with > without, drtopk_last_error(),
                              "Dr. workspace: %zu bytes with the total, %zu without", with, without);
                snprintf(what, sizeof what, "Dr. segments %s %s%s %llu segments (%s) k %llu dr_min_len %llu%s",
                         drtopk_dtype_name(t), o ? "smallest" : "largest", sorted ? " sorted" : "",
                         (unsigned long long)nseg, values, (unsigned long long)k,
                         (unsigned long long)plan.dr_min_len,
                         variant == 1 ? " per-segment k" : variant == 2 ? " total half the offsets" : "");
                run_case(&p, &plan, off[nseg], what);
            }
        }
    }
    free(ks);
}

static void dr_cases(int small)
{
    /* lengths: empty, one, short, long (past DR_MIN_LEN), ... */
    const uint64_t lens[] = { 0, 1, 3000, 20000, 100, small ? 5000 : 70001, 7, 4097, small ? 9000 : 300000, 4096 };
    const uint64_t nseg = sizeof lens / sizeof lens[0];
    uint64_t off[sizeof lens / sizeof lens[0] + 1];
    off[0] = 0;
    for (uint64_t s = 0; s < nseg; ++s) off[s + 1] = off[s] + lens[s];
    const uint64_t n = off[nseg];
    void *v = malloc(n * 8);
    for (int pat = 0; pat < PAT_DR_COUNT; ++pat) {
        for (uint64_t i = 0; i < n; ++i) ((float *)v)[i] = pattern_value(i, pat);
        dr_run(DRTOPK_F32, off, nseg, v, DR_K, DR_MIN_LEN, pat_names[pat]);
    }
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
        for (int dist = small; dist < 2; ++dist) {      /* --small: few distinct values only */
            dh_gen_host(v, n, dist ? DRTOPK_DIST_FEW : DRTOPK_DIST_ND, (drtopk_dtype)t, SEED + dist);
            dr_run((drtopk_dtype)t, off, nseg, v, DR_K, DR_MIN_LEN, dist ? "few distinct" : "normal");
        }
    }
    /* segments from element 3 on, starts at many residues of the 16-byte grid, partial subranges at both ends */
    const uint64_t ulens[] = { 5003, 4099, 6001, 4101, small ? 4103 : 8191, 4097, 7, 12289 };
    const uint64_t nu = sizeof ulens / sizeof ulens[0];
    uint64_t uoff[sizeof ulens / sizeof ulens[0] + 1];
    uoff[0] = DR_START;
    for (uint64_t s = 0; s < nu; ++s) uoff[s + 1] = uoff[s] + ulens[s];
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
        dh_gen_host(v, uoff[nu], DRTOPK_DIST_ND, (drtopk_dtype)t, SEED + t);
        dr_run((drtopk_dtype)t, uoff, nu, v, DR_K, DR_MIN_LEN, "normal, unaligned starts");
    }
    free(v);
    if (small) return;
    /* the default plan: long segments beside short ones, a large k */
    const uint64_t big[] = { DR_LONG, 5, DR_LONG + 12345, (1ull << 20) + 1, 70000 };
    const uint64_t nbig = sizeof big / sizeof big[0];
    uint64_t boff[sizeof big / sizeof big[0] + 1];
    boff[0] = 0;
    for (uint64_t s = 0; s < nbig; ++s) boff[s + 1] = boff[s] + big[s];
    v = malloc(boff[nbig] * 8);
    const drtopk_dtype types[] = { DRTOPK_F32, DRTOPK_U64 };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i) {
        dh_gen_host(v, boff[nbig], DRTOPK_DIST_FEW, types[i], SEED);
        dr_run(types[i], boff, nbig, v, DR_LONG_K, 0, "few distinct");
    }
    free(v);
}

/* Uniform rows of len keys (odd: rows start off the 16-byte grid) through
 * the batched Dr. pipeline (block_max_len and dr_min_len lowered to
 * DR_MIN_LEN): the workspace must differ from the row-by-row one (dr_min_len
 * 0) where rows > 1 and equal it for one row (the single pipeline); k, the
 * value pattern (pat < 0: dh_gen_host of type t), both orders, sorted
 * and not. */
static void dr_uniform_run(drtopk_dtype t, uint64_t rows, uint64_t len, uint64_t k, int pat)
{
    char what[256];
    const uint64_t n = rows * len;
    void *v = malloc(n * 8);
    if (pat < 0) dh_gen_host(v, n, DRTOPK_DIST_FEW, t, SEED + (int)rows);
    else
        for (uint64_t i = 0; i < n; ++i) ((float *)v)[i] = pattern_value(i, pat);
    for (int o = 0; o < 2; ++o) {
        for (int sorted = 0; sorted < 2; ++sorted) {
            drtopk_batch_problem p = { DRTOPK_BACKEND_CUDA, t, (drtopk_order)o, rows, len, NULL, k, NULL, v, 0 };
            drtopk_batch_plan plan;
            drtopk_batch_plan_auto(&plan, &p);
            plan.block_max_len = plan.block_max_len_64 = DR_MIN_LEN;   /* both widths: the route for every key type */
            if (sorted) plan.flags |= DRTOPK_SORTED;
            drtopk_batch_plan by_row = plan;
            by_row.dr_min_len = 0;
            plan.dr_min_len = DR_MIN_LEN;
            size_t dr = 0, row = 0;
            const int sized = drtopk_batch_workspace(&p, &plan, &dr) == DRTOPK_OK &&
                              drtopk_batch_workspace(&p, &by_row, &row) == DRTOPK_OK;
            const int batched = rows > 1 && !(sorted && k > DR_SORT_MAX);
            if (check_mine())
                gt_checkf(sized && (dr != row) == batched, drtopk_last_error(),
                          "uniform %llu x %llu k %llu%s: %zu workspace bytes with the Dr. route, %zu row by row",
                          (unsigned long long)rows, (unsigned long long)len, (unsigned long long)k,
                          sorted ? " sorted" : "", dr, row);
            snprintf(what, sizeof what, "uniform Dr. %s %s%s %llu x %llu k %llu (%s)", drtopk_dtype_name(t),
                     o ? "smallest" : "largest", sorted ? " sorted" : "", (unsigned long long)rows,
                     (unsigned long long)len, (unsigned long long)k, pat < 0 ? "few distinct" : pat_names[pat]);
            run_case(&p, &plan, n, what);
        }
    }
    free(v);
}

static void dr_uniform_cases(int small)
{
    for (int pat = 0; pat < PAT_DR_COUNT; ++pat) dr_uniform_run(DRTOPK_F32, 3, small ? 9001 : 70001, DR_K, pat);
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
        dr_uniform_run((drtopk_dtype)t, small ? 2 : 5, small ? 4097 : 20011, DR_K, -1);
        if (!small) dr_uniform_run((drtopk_dtype)t, 4, 100003, 150, -1);      /* k 150: alpha 5 */
    }
    dr_uniform_run(DRTOPK_F32, 1, 20011, DR_K, -1);                           /* one row: the single pipeline */
    if (!small) dr_uniform_run(DRTOPK_F32, 2, 512 * DR_SORT_K + 1, DR_SORT_K, -1); /* sorted k > 2048: row by row */
}

/* The batched Dr. pipeline at alpha 7 to 10 (small k over long rows), where
 * a subrange spans several rows of a warp's 16-byte loads for every key
 * width (the delegate kernel's running max across rows and steps, the
 * filter's several rows of loads a subrange): uniform rows of odd length
 * (starts off the 16-byte grid) of every key type (few distinct values: ties
 * across subranges), f32 rows of every value pattern (NaN above +inf,
 * -0.0 == +0.0, all equal: every subrange's delegate ties, sorted both ways,
 * the top k in one subrange), and variable segments of very different
 * lengths from an unaligned start. */
static void dr_alpha_cases(int small)
{
    const uint64_t len = small ? DR_ALPHA_LEN_SMALL : DR_ALPHA_LEN, ks[] = { 1, 4, 16, 64 };
    for (size_t i = 0; i < (small ? 1 : sizeof ks / sizeof ks[0]); ++i)
        for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) dr_uniform_run((drtopk_dtype)t, small ? 2 : 3, len, ks[i], -1);
    for (int pat = 0; pat < PAT_DR_COUNT; ++pat) dr_uniform_run(DRTOPK_F32, 2, len, small ? 1 : 4, pat);
    const uint64_t lens[] = { len, 9, len / 3 + 7, DR_MIN_LEN + 3, 2 * len + 11 };
    const uint64_t nseg = sizeof lens / sizeof lens[0];
    uint64_t off[sizeof lens / sizeof lens[0] + 1];
    off[0] = DR_START;
    for (uint64_t s = 0; s < nseg; ++s) off[s + 1] = off[s] + lens[s];
    void *v = malloc(off[nseg] * 8);
    for (int t = small ? DRTOPK_F16 : 0; t < (small ? DRTOPK_F16 + 1 : DRTOPK_DTYPE_COUNT); ++t) {  /* --small: f16 */
        dh_gen_host(v, off[nseg], DRTOPK_DIST_FEW, (drtopk_dtype)t, SEED + t);
        dr_run((drtopk_dtype)t, off, nseg, v, 2, DR_MIN_LEN, "few distinct, unaligned, alpha 8-10");
    }
    free(v);
}

/* The candidates of the batched Dr. pipeline (block_max_len and dr_min_len
 * lowered): past the filter they go to the staged select where they fit a
 * staged block (NaN/-0.0/ties, spikes: about k_s), else to the split select
 * (all equal: every key of the k_s taken subranges, DR_CAND_K 2^5 = 65536
 * keys, more than a staged block of f32 holds); both orders, sorted and not. */
static void dr_candidate_cases(void)
{
    dr_uniform_run(DRTOPK_F32, 2, DR_CAND_LEN, DR_CAND_K, PAT_EQUAL);
    dr_uniform_run(DRTOPK_F32, 2, DR_CAND_LEN, DR_CAND_K, PAT_SPECIALS);
    dr_uniform_run(DRTOPK_F32, 2, DR_CAND_LEN, DR_CAND_K, PAT_SPIKE);
}

int main(int argc, char **argv)
{
    int small = 0;
    const char *only = NULL;            /* --only rowfilter or tiny: that group of cases alone */
    for (int a = 1; a < argc; ++a) {
        char tail;
        if (strcmp(argv[a], "--small") == 0) {
            small = 1;
        } else if (strcmp(argv[a], "--only") == 0 && a + 1 < argc &&
                   (strcmp(argv[a + 1], "rowfilter") == 0 || strcmp(argv[a + 1], "tiny") == 0)) {
            only = argv[++a];
        } else if (strcmp(argv[a], "--shard") == 0 && a + 1 < argc &&
                   sscanf(argv[a + 1], "%lu/%lu%c", &shard_index, &shard_count, &tail) == 2 &&
                   shard_count > 0 && shard_index < shard_count) {
            ++a;
        } else {
            fprintf(stderr, "test_batch: bad argument '%s'\nusage: test_batch [--small] [--shard I/N] "
                            "[--only rowfilter|tiny] (N > 0, 0 <= I < N)\n", argv[a]);
            return 2;
        }
    }
    /* rows, cols, k, block_max_len override (0: default), warp_max_k override (0: default): the
     * algorithms of uniform rows (f32 lengths; 64-bit keys chunk at half of them and split earlier) */
    const uint64_t shapes[][5] = {
        { 64, 200, 8, 0, 0 },           /* tiny rows: a warp's registers */
        { 64, 256, 8, 0, 0 },           /* tiny rows, whole: 16-byte loads (MoE routing) */
        { 24, 256, 16, 0, 0 },          /* tiny rows, whole, the tiny select's largest k */
        { 64, 1024, 40, 0, 0 },         /* staged in a warp, its longest row */
        { 50, 1025, 17, 0, 0 },         /* staged in a block, its shortest row */
        { 32, 256, 17, 0, 0 },          /* staged in a warp: k one past the tiny select's */
        { 32, 257, 16, 0, 0 },          /* staged in a warp: one key past the tiny select's rows */
        { 16, 3000, 300, 0, 0 },        /* staged in a block */
        { 10, 10000, 100, 0, 0 },       /* staged in a block (ANN re-ranking) */
        { 12, 8192, 1000, 0, 0 },       /* staged in a block, k_s past the slots beside the candidates */
        { 6, 16384, 50, 0, 0 },         /* staged in a block: one chunk (f32) */
        { 6, 16385, 50, 0, 0 },         /* chunked: two chunks (f32) */
        { 3, 33000, 7, 0, 0 },          /* chunked, small k */
        { 8, 40000, 500, 0, 0 },        /* chunked, chunks cut for more blocks */
        { 4, 40000, 1700, 0, 0 },       /* k too large for chunks: staged (split for 64-bit keys) */
        { 4, 140000, 50, 0, 0 },        /* chunked, 18 chunks a row */
        { 2, 70000, 2000, 0, 0 },       /* split radix select */
        { 2, 70000, 2000, 65536, 0 },   /* Dr. Top-k pipeline per row */
        { 3, 30000, 3000, 0, 0 },       /* k past a block's sort: sorted after the select */
        { 24, 700, 700, 0, 0 },         /* rows their own top k: sorted, the filter select without a search */
        { 8, 4096, 4096, 0, 0 },        /* the same past a block's sort: sorted after the select */
        { 2, 20000, 9000, 0, 0 },       /* sorted after the select past a block sort's 8192 slots: radix passes */
        { 33, 5000, 100, 0, 128 },      /* warp queue, long rows */
        { 64, 200, 40, 0, 128 },        /* warp queue, short rows */
        { 5, 1, 1, 0, 0 },
        { 40, 10, 10, 0, 0 },           /* tiny rows, k = the length */
        { 3, (1u << 20) + 3, 1000, 0, 0 },  /* past 2^20 keys: deterministic, the single vector's fix-up a row */
    };
    const uint64_t special_lens[] = { 200, 1000, 5000, 20000, 70000 };
    const int nshapes = small ? 4 : (int)(sizeof shapes / sizeof shapes[0]);
    char what[256];
    setvbuf(stdout, NULL, _IOLBF, 0);   /* a run killed at its time limit still shows its last case */
    if (!dh_cuda_available() || dh_dev_select(0) != DRTOPK_OK) return gt_no_gpu("test_batch");
    if (only != NULL) {
        if (strcmp(only, "tiny") == 0) tiny_cases(small);
        else rowfilter_cases(small);
        return gt_finish();
    }
    dr_cases(small);
    dr_uniform_cases(small);
    dr_alpha_cases(small);
    dr_candidate_cases();
    grant_order_cases();
    split_spread_cases();
    filter_cases(small);
    rowfilter_cases(small);
    tiny_cases(small);
    filter_wide_cases();
    sample_cases(small);
    for (size_t l = 0; l < (small ? 2 : sizeof special_lens / sizeof special_lens[0]); ++l)
        for (int pat = 0; pat < PAT_COUNT; ++pat) special_cases(special_lens[l], pat);
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
        for (int o = 0; o < 2; ++o) {
            for (int sorted = 0; sorted < 2; ++sorted) {
                for (int i = 0; i < nshapes; ++i) {
                    const uint64_t rows = shapes[i][0], cols = shapes[i][1], n = rows * cols;
                    void *v = malloc(n * 8);
                    dh_gen_host(v, n, (i + t) % 2 ? DRTOPK_DIST_ND : DRTOPK_DIST_FEW, (drtopk_dtype)t, SEED + i);
                    drtopk_batch_problem p = { DRTOPK_BACKEND_CUDA, (drtopk_dtype)t, (drtopk_order)o, rows, cols,
                                               NULL, shapes[i][2], NULL, v, 0 };
                    drtopk_batch_plan plan;
                    drtopk_batch_plan_auto(&plan, &p);
                    if (shapes[i][3]) plan.block_max_len = shapes[i][3];
                    if (shapes[i][4]) plan.warp_max_k = shapes[i][4];
                    if (sorted) plan.flags |= DRTOPK_SORTED;
                    snprintf(what, sizeof what, "uniform %s %s%s %llu x %llu k %llu", drtopk_dtype_name(p.dtype),
                             o ? "smallest" : "largest", sorted ? " sorted" : "", (unsigned long long)rows,
                             (unsigned long long)cols, (unsigned long long)p.k);
                    run_case(&p, &plan, n, what);
                    if ((i + t + o) % 2 == 0) {   /* half the shapes again, deterministic */
                        plan.flags |= DRTOPK_DETERMINISTIC;
                        strncat(what, " deterministic", sizeof what - strlen(what) - 1);
                        run_case(&p, &plan, n, what);
                    }
                    if (cols > plan.filter_min_len && plan.filter_min_len && drtopk_dtype_bits(p.dtype) <= 32) {
                        plan.flags &= ~(unsigned)DRTOPK_DETERMINISTIC;   /* the algorithm the filter select stands for */
                        plan.filter_min_len = 0;
                        strncat(what, " (filter off)", sizeof what - strlen(what) - 1);
                        run_case(&p, &plan, n, what);
                    }
                    free(v);
                }
                /* variable segments: every bin in one call */
                const uint64_t nseg = small ? 40 : SEGMENTS_RANDOM, k = 1 + rnd() % 300;
                uint64_t *off = (uint64_t *)malloc((nseg + 1) * sizeof(uint64_t));
                uint64_t *ks = (uint64_t *)malloc(nseg * sizeof(uint64_t));
                off[0] = 0;
                for (uint64_t s = 0; s < nseg; ++s) {
                    const int lg = (int)(rnd() % (small ? 12 : 18));
                    uint64_t len = s == 0 ? 0 : s == 1 ? 1 : rnd() % ((1ull << lg) + 1);
                    off[s + 1] = off[s] + len;
                    ks[s] = rnd() % (k + 5);
                }
                void *v = malloc(off[nseg] * 8 + 8);
                dh_gen_host(v, off[nseg], DRTOPK_DIST_UD, (drtopk_dtype)t, SEED);
                for (int variant = 0; variant < 4; ++variant) {   /* one k; per-segment k; the warp queue on;
                                                                     the filter select off */
                    const int per = variant == 1, queue = variant == 2, nofilter = variant == 3;
                    drtopk_batch_problem p = { DRTOPK_BACKEND_CUDA, (drtopk_dtype)t, (drtopk_order)o, nseg, 0, off,
                                               k, per ? ks : NULL, v, off[nseg] };
                    drtopk_batch_plan plan;
                    drtopk_batch_plan_auto(&plan, &p);
                    if (sorted) plan.flags |= DRTOPK_SORTED;
                    if (queue) plan.warp_max_k = DRTOPK_WARP_K_MAX;
                    if (nofilter) plan.filter_min_len = 0;
                    snprintf(what, sizeof what, "segments %s %s%s %llu segments k %llu%s", drtopk_dtype_name(p.dtype),
                             o ? "smallest" : "largest", sorted ? " sorted" : "", (unsigned long long)nseg,
                             (unsigned long long)k, per ? " per-segment k" : queue ? " warp queue" :
                             nofilter ? " filter off" : "");
                    run_case(&p, &plan, off[nseg], what);
                    if (variant < 2) {              /* and deterministic */
                        plan.flags |= DRTOPK_DETERMINISTIC;
                        strncat(what, " deterministic", sizeof what - strlen(what) - 1);
                        run_case(&p, &plan, off[nseg], what);
                    }
                }
                free(v);
                free(off);
                free(ks);
            }
        }
    }
    return gt_finish();
}
