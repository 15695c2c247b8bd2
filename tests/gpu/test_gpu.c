/*
 * test_gpu.c -- the GPU suite of the Dr. Top-k pipeline (paper sections 4
 * and 5): the CUDA executor against the CPU reference and the
 * oracle on identical data.
 *  - Workload counters: on tie-free data the GPU's delegate_len,
 *    first_selected, scanned_subranges and concat_len equal the CPU
 *    reference's exactly, for plans across alpha (shared-memory, warp and
 *    block builds), beta 1..8, every combination of filter (Rule 2),
 *    skip-last-digit, shared delegate and sorted, radix and the other
 *    algorithms, and k from 1 to past |D|.  The answer stays exact for any
 *    threshold at or below the k-th value, so only the counters show a rule
 *    switched off (tests/gpu/mutation.sh).
 *  - The paper's worked examples (Figures 5, 7, 8) with their values and
 *    counters, as tests/unit/test_cpu_ref.c checks them on the CPU.
 *  - Plans from a tuning table the test passes (the plan it gets is checked).
 *  - Seeded data of every distribution: the device generator is bit-identical
 *    to the host one; fixed corner cases, hundreds of random cases and a few
 *    n = 2^30 + 17 ones, exact against the oracle; statuses of bad calls.
 *  - DRTOPK_DETERMINISTIC: the CPU's result bit for bit, on heavy ties and
 *    past the sampled sizes, every key width and plan kind, sorted or not.
 *  - Every key type: u32 i32 f32, f16 and bf16 (widened to
 *    32-bit ordered keys on the GPU: in the counter suite too, on tie-free
 *    16-bit keys), u64 i64 f64 (the standalone radix select and sort-cub,
 *    the plans the CUDA backend runs for them: in the seeded, fixed and
 *    random cases).
 * Hermetic: every plan comes from drtopk_plan_rule4 with the paper's const,
 * the test's own tuning table, or is written out; never a database or the
 * table compiled into the library.  Outputs and workspace are poisoned before
 * every GPU run.  Output: gpu_test.h's "ok N ..." lines, "N passed, N failed".
 *
 *   test_gpu                 everything
 *   test_gpu --small         small n only (compute-sanitizer)
 *   test_gpu --counters      the counter suite and the paper's examples only
 *                            (what tests/gpu/mutation.sh runs; with --small too)
 *   test_gpu --cpu-selftest[=broken-filter|=broken-skip]
 *                            the counter suite and examples with the CPU
 *                            reference also on the side under test (no GPU
 *                            needed): must pass; "broken" switches Rule 2 or
 *                            skip-last-digit off on that side: must fail
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "det_pairs.h"
#include "device.h"
#include "drtopk.h"
#include "gen.h"
#include "gpu_test.h"
#include "keyorder.h"
#include "pipeline_spec.h"
#include "oracle.h"
#include "util.h"

#define RANDOM_CASES_FULL 400
#define RANDOM_CASES_SMALL 40
#define SMALL_N_MAX (1u << 13)          /* --small: sanitizers are ~100x slower   */
#define MAX_ELEM_BYTES sizeof(uint64_t) /* host scratch: room for any key type    */
#define MEDIUM_N_MAX (1u << 21)
#define CPU_COMPARE_N_MAX (1u << 21)    /* also compare with the CPU reference    */
#define LARGE_N ((1ull << 30) + 17)     /* 2^30 + 17: past 2^30, not a power of 2 */
#define GEN_CHECK_N ((1u << 16) + 3)    /* generator identity, per dist and dtype */
#define GEN_CHECK_N_SMALL 1000
#define POISON_BYTE 0xFF                /* indices of all ones are out of range   */
#define SUITE_SEED 0x5EEDC0DEull
#define LOG_EVERY 50
#define DESC_LEN 320

static uint64_t rng_state = SUITE_SEED;
static uint64_t rnd(void) { return dh_mix64(rng_state += DRTOPK_GOLDEN64); }
static uint64_t rnd_in(uint64_t lo, uint64_t hi) { return lo + rnd() % (hi - lo + 1); } /* [lo, hi] */
static int chance(unsigned pct) { return rnd() % 100 < pct; }
static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Every plan the suite derives: Rule 4 with the paper's const, beta 2, radix
 * (never plan_auto's compiled-in table or a database). */
static drtopk_status suite_plan(drtopk_plan *plan, const drtopk_problem *p)
{
    return drtopk_plan_rule4(plan, p, DRTOPK_RULE4_CONST_DEFAULT);
}

static void describe_plan(const drtopk_plan *plan, char *buf, size_t len)
{
    const unsigned f = plan->flags;
    snprintf(buf, len, "alpha=%d beta=%d first=%s second=%s flags=%s%s%s%s%s", plan->alpha, plan->beta,
             drtopk_algo_name(plan->first_algo), drtopk_algo_name(plan->second_algo),
             (f & DRTOPK_DELEGATE) ? "D" : "-", (f & DRTOPK_FILTER) ? "F" : "-",
             (f & DRTOPK_SHARED_DELEGATE) ? "S" : "-", (f & DRTOPK_SKIP_LAST_DIGIT) ? "K" : "-",
             (f & DRTOPK_SORTED) ? "O" : "-");
}

/* Best first under the ordered key, for DRTOPK_SORTED. */
static int sorted_best_first(drtopk_dtype t, drtopk_order o, const void *vals, uint64_t k)
{
    for (uint64_t i = 1; i < k; ++i)
        if (drtopk_key_at(vals, i, t, o) > drtopk_key_at(vals, i - 1, t, o)) return 0;
    return 1;
}

static int is_key64(drtopk_dtype t) { return drtopk_dtype_bits(t) == 64; }

/* 64-bit keys run standalone plans only (kernels/key_width.cu): the plan of
 * a case with them, in turn fused (what drtopk_plan_auto gives them below
 * 2^25 keys on the CUDA backend) twice, the radix select and sort-cub, with
 * the case's DRTOPK_SORTED and DRTOPK_DETERMINISTIC. */
static void key64_plan(drtopk_plan *plan)
{
    static const drtopk_algo algos[] = { DRTOPK_ALGO_FUSED, DRTOPK_ALGO_RADIX, DRTOPK_ALGO_FUSED,
                                         DRTOPK_ALGO_SORT_CUB };
    plan->flags &= DRTOPK_SORTED | DRTOPK_DETERMINISTIC;
    plan->first_algo = plan->second_algo = algos[rnd() % (sizeof algos / sizeof algos[0])];
}

/* ---- the side under test: the GPU, or (self-test) the CPU reference ----- */

typedef enum {
    SIDE_GPU = 0,
    SIDE_CPU,                 /* --cpu-selftest: must agree with the reference */
    SIDE_CPU_NO_FILTER,       /* --cpu-selftest=broken-filter: Rule 2 off      */
    SIDE_CPU_NO_SKIP          /* --cpu-selftest=broken-skip: skip-last-digit off */
} side_kind;
static side_kind g_side = SIDE_GPU;

/* V of one data set, on the host and (GPU side) on the device. */
typedef struct {
    drtopk_dtype dtype;
    drtopk_order order;
    uint64_t n;
    void *host;                 /* n elements of dtype */
    void *dev;
    char name[96];
} dataset;

static drtopk_status cpu_select(const drtopk_problem *hp, const drtopk_plan *plan, void *vals, uint64_t *idx,
                                drtopk_stats *st)
{
    size_t bytes = 0;
    void *ws;
    drtopk_status s = drtopk_select_workspace(hp, plan, &bytes);
    if (s != DRTOPK_OK) return s;
    if ((ws = malloc(bytes ? bytes : 1)) == NULL) return DRTOPK_ERR_OUT_OF_MEMORY;
    s = drtopk_select(hp, plan, ws, bytes, vals, idx, NULL, st);
    free(ws);
    return s;
}

static drtopk_problem host_problem(const dataset *d, uint64_t k)
{
    drtopk_problem p = { DRTOPK_BACKEND_CPU, d->dtype, d->order, d->n, k, d->host };
    return p;
}

/* One selection on the GPU, with stats: workspace and outputs allocated to
 * the exact size (so that compute-sanitizer sees any overrun) and poisoned. */
static drtopk_status gpu_select(const dataset *d, uint64_t k, const drtopk_plan *plan, void *vals,
                                uint64_t *idx, drtopk_stats *st)
{
    drtopk_problem p = { DRTOPK_BACKEND_CUDA, d->dtype, d->order, d->n, k, d->dev };
    void *ws = NULL, *d_vals = NULL, *d_idx = NULL;
    size_t bytes = 0;
    const size_t vbytes = k * drtopk_dtype_size(d->dtype);
    drtopk_status s = drtopk_select_workspace(&p, plan, &bytes);
    if (s != DRTOPK_OK) return s;
    if (dh_dev_alloc(&ws, bytes ? bytes : 1) != DRTOPK_OK || dh_dev_alloc(&d_vals, vbytes) != DRTOPK_OK ||
        dh_dev_alloc(&d_idx, k * sizeof *idx) != DRTOPK_OK) {
        s = DRTOPK_ERR_OUT_OF_MEMORY;
        goto out;
    }
    if (bytes >= sizeof(uint32_t))
        dh_dev_generate(ws, bytes / sizeof(uint32_t), DRTOPK_DIST_UD, DRTOPK_U32, rnd(), NULL);
    memset(vals, POISON_BYTE, vbytes);
    memset(idx, POISON_BYTE, k * sizeof *idx);
    if ((s = dh_dev_copy(d_vals, vals, vbytes, DRTOPK_COPY_H2D)) != DRTOPK_OK ||
        (s = dh_dev_copy(d_idx, idx, k * sizeof *idx, DRTOPK_COPY_H2D)) != DRTOPK_OK)
        goto out;
    s = drtopk_select(&p, plan, ws, bytes, d_vals, (uint64_t *)d_idx, NULL, st);
    if (s == DRTOPK_OK) s = dh_dev_sync();
    if (s == DRTOPK_OK) s = dh_dev_copy(vals, d_vals, vbytes, DRTOPK_COPY_D2H);
    if (s == DRTOPK_OK) s = dh_dev_copy(idx, d_idx, k * sizeof *idx, DRTOPK_COPY_D2H);
out:
    if (ws) dh_dev_free(ws);
    if (d_vals) dh_dev_free(d_vals);
    if (d_idx) dh_dev_free(d_idx);
    return s;
}

/* The CPU reference's plan for what the GPU runs: skip-last-digit belongs to
 * the flag radix (kernels.h topk_input.skip_last_digit; every other first
 * top-k returns exactly k), while the CPU reference applies the flag whatever
 * the first algorithm. */
static drtopk_plan reference_plan(const drtopk_plan *plan)
{
    drtopk_plan r = *plan;
    if (r.first_algo != DRTOPK_ALGO_RADIX) r.flags &= ~(unsigned)DRTOPK_SKIP_LAST_DIGIT;
    return r;
}

static drtopk_status side_select(const dataset *d, uint64_t k, const drtopk_plan *plan, void *vals,
                                 uint64_t *idx, drtopk_stats *st)
{
    drtopk_problem hp = host_problem(d, k);
    drtopk_plan broken = reference_plan(plan);    /* the CPU standing in for the GPU */
    switch (g_side) {
    case SIDE_GPU: return gpu_select(d, k, plan, vals, idx, st);
    case SIDE_CPU: break;
    case SIDE_CPU_NO_FILTER: broken.flags &= ~(unsigned)DRTOPK_FILTER; break;
    case SIDE_CPU_NO_SKIP: broken.flags &= ~(unsigned)DRTOPK_SKIP_LAST_DIGIT; break;
    }
    return cpu_select(&hp, &broken, vals, idx, st);
}

/* ---- tie-free data --------------------------------------------------------- */

#define TIE_FREE_MUL1 0x9E3779B1u       /* odd: x * c mod 2^m is a bijection   */
#define TIE_FREE_MUL2 0x85EBCA6Bu       /* odd (murmur3's finaliser constant)  */
#define TIE_FREE_SPARSE_BITS 30         /* sparse keys: 2^30 wide, finite f32  */
#define TIE_FREE_HALF_BITS 14           /* 16-bit keys: 2^14 wide, finite      */

/* A seeded bijection of the m-bit words (1 <= m <= 30): xor and add a
 * constant, multiply by an odd one, xor-shift right -- each a bijection mod
 * 2^m. */
static uint32_t tie_free_mix(uint32_t x, int m, uint64_t seed)
{
    const uint32_t mask = (1u << m) - 1;
    x = (x ^ (uint32_t)seed) & mask;
    x = (x * TIE_FREE_MUL1) & mask;
    x ^= x >> ((m + 1) / 2);
    x = (x * TIE_FREE_MUL2 + (uint32_t)(seed >> 32)) & mask;
    x ^= x >> (m / 3 + 1);
    return x;
}

/* Element bits of index i < n <= 2^m: distinct ordered keys in a 2^m range
 * centred on the middle of the key space (both signs of signed types and
 * floats, every float finite).  The key just below the middle would be
 * -0.0, which equals +0.0: keys below the middle move down by one. */
static uint64_t tie_free_bits(uint64_t i, int m, uint64_t seed, drtopk_dtype t)
{
    const uint64_t mid = drtopk_sign_bit(t);
    uint64_t key = mid - (1ull << (m - 1)) + tie_free_mix((uint32_t)i, m, seed);
    if (key < mid) --key;
    return drtopk_bits_from_key_any(key, t);
}

/* The widest tie-free key range of type t. */
static int tie_free_max_bits(drtopk_dtype t)
{
    return drtopk_dtype_bits(t) == 16 ? TIE_FREE_HALF_BITS : TIE_FREE_SPARSE_BITS;
}

static int ceil_log2_min1(uint64_t n) { return n <= 2 ? 1 : dh_ilog2_ceil(n); }

/* Fill d->host (n values) and, on the GPU side, copy them to the device.
 * dense: keys span 2^ceil(log2 n) (at least every other key used, so
 * skip-last-digit keeps extra delegates); else 2^30. */
static drtopk_status dataset_make(dataset *d, uint64_t n, drtopk_dtype t, drtopk_order o, int dense,
                                  const uint32_t *given)
{
    const int m = dense ? ceil_log2_min1(n) : tie_free_max_bits(t);
    const uint64_t seed = rnd();
    const size_t bytes = n * drtopk_dtype_size(t);
    memset(d, 0, sizeof *d);
    d->dtype = t;
    d->order = o;
    d->n = n;
    if ((d->host = malloc(bytes)) == NULL) return DRTOPK_ERR_OUT_OF_MEMORY;
    if (given) {   /* u32 */
        memcpy(d->host, given, bytes);
        snprintf(d->name, sizeof d->name, "paper Figs 5/7/8 %s %s n=%" PRIu64, drtopk_dtype_name(t),
                 o == DRTOPK_LARGEST ? "largest" : "smallest", n);
    } else {
        for (uint64_t i = 0; i < n; ++i) drtopk_bits_store(d->host, i, t, tie_free_bits(i, m, seed, t));
        snprintf(d->name, sizeof d->name, "tie-free m=%d %s %s n=%" PRIu64 " seed=%" PRIx64, m,
                 drtopk_dtype_name(t), o == DRTOPK_LARGEST ? "largest" : "smallest", n, seed);
    }
    if (g_side != SIDE_GPU) return DRTOPK_OK;
    if (dh_dev_alloc(&d->dev, bytes) != DRTOPK_OK) return DRTOPK_ERR_OUT_OF_MEMORY;
    return dh_dev_copy(d->dev, d->host, bytes, DRTOPK_COPY_H2D);
}

static void dataset_free(dataset *d)
{
    free(d->host);
    if (d->dev) dh_dev_free(d->dev);
    memset(d, 0, sizeof *d);
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Self-test only: the generator's promise, no two equal ordered keys. */
static void check_tie_free(const dataset *d)
{
    uint64_t *k = (uint64_t *)malloc(d->n * sizeof *k);
    int ok = k != NULL;
    for (uint64_t i = 0; ok && i < d->n; ++i) {
        const uint64_t b = drtopk_bits_at(d->host, i, d->dtype);
        k[i] = drtopk_key_any(b, d->dtype, d->order);
        if (drtopk_float_bits_is_nan(b, d->dtype)) ok = 0;
    }
    if (ok) qsort(k, d->n, sizeof *k, cmp_u64);
    for (uint64_t i = 1; ok && i < d->n; ++i) ok = k[i] != k[i - 1];
    gt_checkf(ok, "two equal keys or a NaN", "tie-free data [%s]", d->name);
    free(k);
}

/* ---- workload counters -------------------------------------------------- */

/* Host scratch for one case's two results. */
typedef struct {
    void *gv, *cv;              /* values of any key type */
    uint64_t *gi, *ci;
} results;

static int results_alloc(results *r, uint64_t n)
{
    r->gv = malloc(n * MAX_ELEM_BYTES);
    r->cv = malloc(n * MAX_ELEM_BYTES);
    r->gi = (uint64_t *)malloc(n * sizeof *r->gi);
    r->ci = (uint64_t *)malloc(n * sizeof *r->ci);
    return r->gv && r->cv && r->gi && r->ci;
}

static void results_free(results *r)
{
    free(r->gv); free(r->cv); free(r->gi); free(r->ci);
}

/* The four workload counters of drtopk_stats. */
typedef struct {
    uint64_t delegate_len, first_selected, scanned_subranges, concat_len;
} counters;

static counters stats_counters(const drtopk_stats *s)
{
    counters c = { s->delegate_len, s->first_selected, s->scanned_subranges, s->concat_len };
    return c;
}

static int counters_equal(counters a, counters b)
{
    return a.delegate_len == b.delegate_len && a.first_selected == b.first_selected &&
           a.scanned_subranges == b.scanned_subranges && a.concat_len == b.concat_len;
}

static void counters_diff(counters got, counters want, const char *whose, char *buf, size_t len)
{
    snprintf(buf, len,
             "|D| %" PRIu64 " vs %s %" PRIu64 ", selected %" PRIu64 " vs %" PRIu64 ", scanned %" PRIu64
             " vs %" PRIu64 ", |C| %" PRIu64 " vs %" PRIu64,
             got.delegate_len, whose, want.delegate_len, got.first_selected, want.first_selected,
             got.scanned_subranges, want.scanned_subranges, got.concat_len, want.concat_len);
}

/* One plan on one data set: the side under test against the CPU reference on
 * the same data and plan -- exact result, equal counters, sorted order; and,
 * when given, against `paper` (counters) and `paper_top`/`paper_pos` (the k
 * best values and their positions, best first). */
static void counter_case(const dataset *d, results *r, uint64_t k, const drtopk_plan *plan, const counters *paper,
                         const uint32_t *paper_top, const uint64_t *paper_pos)
{
    const drtopk_problem hp = host_problem(d, k);
    const drtopk_plan ref = reference_plan(plan);
    char what[DESC_LEN], pl[160], why[DESC_LEN];
    drtopk_stats gst, cst;
    drtopk_status s;
    memset(&gst, 0, sizeof gst);
    memset(&cst, 0, sizeof cst);
    describe_plan(plan, pl, sizeof pl);
    snprintf(what, sizeof what, "[%s k=%" PRIu64 " %s]", d->name, k, pl);
    if ((s = cpu_select(&hp, &ref, r->cv, r->ci, &cst)) != DRTOPK_OK) {
        gt_checkf(0, drtopk_status_string(s), "counters: CPU reference %s", what);
        return;
    }
    s = side_select(d, k, plan, r->gv, r->gi, &gst);
    if (s == DRTOPK_ERR_UNSUPPORTED) {
        gt_skipf("algorithm not built", "counters %s", what);
        return;
    }
    if (s != DRTOPK_OK) {
        gt_checkf(0, drtopk_status_string(s), "counters: select %s", what);
        return;
    }
    {
        const dh_check_result cr = dh_check(&hp, r->gv, r->gi, r->cv);
        gt_checkf(cr.ok, cr.why, "counters: exact %s", what);
    }
    if (plan->flags & DRTOPK_SORTED)
        gt_checkf(sorted_best_first(d->dtype, d->order, r->gv, k), "not best first", "counters: sorted %s", what);
    counters_diff(stats_counters(&gst), stats_counters(&cst), "CPU", why, sizeof why);
    gt_checkf(counters_equal(stats_counters(&gst), stats_counters(&cst)), why, "counters: equal CPU %s", what);
    if (paper) {
        counters_diff(stats_counters(&gst), *paper, "paper", why, sizeof why);
        gt_checkf(counters_equal(stats_counters(&gst), *paper), why, "counters: paper %s", what);
    }
    if (paper_top) {
        int same = 1;
        for (uint64_t i = 0; i < k; ++i)   /* the paper's data set is u32 */
            same = same && ((const uint32_t *)r->gv)[i] == paper_top[i] && r->gi[i] == paper_pos[i];
        gt_checkf(same, "values or positions differ from the paper's", "paper values %s", what);
    }
}

/* Algorithms besides radix that the counter suite puts into either step. */
static const drtopk_algo other_algos[] = {
    DRTOPK_ALGO_RADIX_GGKS, DRTOPK_ALGO_RADIX_GGKS_OOP, DRTOPK_ALGO_BUCKET, DRTOPK_ALGO_BUCKET_OOP,
    DRTOPK_ALGO_BITONIC,    DRTOPK_ALGO_SORT_CUB,       DRTOPK_ALGO_SORT_THRUST,
};
#define N_OTHER_ALGOS (sizeof other_algos / sizeof other_algos[0])
#define N_FLAG_COMBOS 16                /* filter x skip x shared x sorted      */
#define ALGO_ROTATION 4                 /* radix/radix twice, other first, other second */

/* Flag combination f (0..15) of the delegate pipeline. */
static unsigned combo_flags(unsigned f)
{
    return DRTOPK_DELEGATE | ((f & 1) ? DRTOPK_FILTER : 0) | ((f & 2) ? DRTOPK_SKIP_LAST_DIGIT : 0) |
           ((f & 4) ? DRTOPK_SHARED_DELEGATE : 0) | ((f & 8) ? DRTOPK_SORTED : 0);
}

static uint64_t plan_delegates(uint64_t n, int alpha, int beta)
{
    const uint64_t sub = 1ull << alpha, rem = n & (sub - 1);
    return (n >> alpha) * min_u64((uint64_t)beta, sub) + (rem ? min_u64((uint64_t)beta, rem) : 0);
}

/* k for case j of a plan: 1, small, mid, around |D| (|D| - 1 runs the
 * pipeline, |D| and n select every delegate: MODE_RAW_SECOND). */
#define K_SMALL 7
#define K_MID 100
#define K_CHOICES 7
static uint64_t pick_k(uint64_t n, uint64_t dlen, unsigned j)
{
    uint64_t k = 1;
    switch (j % K_CHOICES) {
    case 0: k = 1; break;
    case 1: k = K_SMALL; break;
    case 2: k = K_MID; break;
    case 3: k = dlen / 2; break;
    case 4: k = dlen - 1; break;
    case 5: k = dlen; break;
    case 6: k = n; break;
    }
    return k < 1 ? 1 : k > n ? n : k;
}

/* Plans on one data set: for each alpha, `per_alpha` (a divisor of 16) of
 * the 16 flag combinations, evenly spaced and shifted per alpha and per data
 * set, so all 16 meet every alpha range; beta, k and the algorithm pair turn
 * with a case counter (8 betas x 7 ks coprime; the algorithms every 8 cases,
 * so each meets every beta). */
static void counter_sweep(const dataset *d, const int *alphas, size_t nalphas, unsigned per_alpha)
{
    static unsigned rot, sets;  /* carried across data sets */
    results r = { NULL, NULL, NULL, NULL };
    ++sets;
    if (!results_alloc(&r, d->n)) {
        gt_check(0, "counters: host memory", "out of memory for n=%" PRIu64, d->n);
        results_free(&r);
        return;
    }
    for (size_t ai = 0; ai < nalphas; ++ai) {
        for (unsigned j = 0; j < per_alpha; ++j, ++rot) {
            drtopk_plan plan;
            const unsigned f = (j * (N_FLAG_COMBOS / per_alpha) + (unsigned)ai + sets) % N_FLAG_COMBOS;
            const drtopk_algo other = other_algos[(rot / (DRTOPK_BETA_MAX * ALGO_ROTATION)) % N_OTHER_ALGOS];
            memset(&plan, 0, sizeof plan);
            plan.alpha = alphas[ai];
            plan.beta = 1 + (int)(rot % DRTOPK_BETA_MAX);
            plan.flags = combo_flags(f);
            plan.first_algo = plan.second_algo = DRTOPK_ALGO_RADIX;
            switch ((rot / DRTOPK_BETA_MAX) % ALGO_ROTATION) {
            case 2: plan.first_algo = other; break;
            case 3: plan.second_algo = other; break;
            default: break;
            }
            plan.rule4_const = DRTOPK_RULE4_CONST_DEFAULT;
            plan.const_source = DRTOPK_CONST_USER;
            counter_case(d, &r, pick_k(d->n, plan_delegates(d->n, plan.alpha, plan.beta), rot), &plan, NULL,
                         NULL, NULL);
        }
    }
    results_free(&r);
}

/* The alphas of a data set of n elements, up to one past ceil(log2 n) (a
 * single subrange longer than V). */
static size_t alphas_for(uint64_t n, const int *all, size_t nall, int *out)
{
    const int top = ceil_log2_min1(n) + 1;
    size_t c = 0;
    for (size_t i = 0; i < nall; ++i)
        if (all[i] <= top) out[c++] = all[i];
    return c;
}

typedef struct {
    uint64_t n;
    int dense;
    unsigned per_alpha;         /* flag combinations per alpha (divides 16) */
} sweep_set;

static void counter_suite(int small)
{
    /* shared-memory build (<= 7), warp build, block build (>= 15), and past log2 n */
    static const int alphas_all[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 15, 16, 17 };
    static const int alphas_large[] = { 14, 15, 16, 17, 20, 21 };
    static const sweep_set full[] = {
        { 1, 1, 1 }, { 37, 0, 2 }, { 5003, 1, 16 }, { 65539, 0, 2 }, { 100003, 1, 2 },
    };
    static const sweep_set smallset[] = {
        { 1, 1, 1 }, { 37, 0, 1 }, { 1000, 0, 1 }, { 4099, 1, 1 },
    };
    /* alpha >= 16 on V of 2^20 + 37: a few of each, two keys spaces */
    static const struct { drtopk_dtype t; drtopk_order o; int dense; } large[] = {
        { DRTOPK_U32, DRTOPK_LARGEST, 1 }, { DRTOPK_F32, DRTOPK_SMALLEST, 0 },
    };
    const uint64_t large_n = (1ull << 20) + 37;
    const sweep_set *sets = small ? smallset : full;
    const size_t nsets = small ? sizeof smallset / sizeof smallset[0] : sizeof full / sizeof full[0];
    int alphas[sizeof alphas_all / sizeof alphas_all[0]];
    const double t0 = dh_now_ms();
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t)
        for (int o = 0; o < 2; ++o)
            for (size_t si = 0; si < nsets; ++si) {
                dataset d;
                size_t na;
                /* --small: every other set per key type and order */
                if (small && (si + (size_t)t + (size_t)o) % 2) continue;
                /* no counters for 64-bit keys (standalone sort-cub); 16-bit
                 * keys have 2^14 tie-free values */
                if (is_key64((drtopk_dtype)t) ||
                    (uint64_t)ceil_log2_min1(sets[si].n) > (uint64_t)tie_free_max_bits((drtopk_dtype)t))
                    continue;
                na = alphas_for(sets[si].n, alphas_all, sizeof alphas_all / sizeof alphas_all[0], alphas);
                if (dataset_make(&d, sets[si].n, (drtopk_dtype)t, (drtopk_order)o, sets[si].dense, NULL) !=
                    DRTOPK_OK) {
                    gt_check(0, "counters: data set", "out of memory for n=%" PRIu64, sets[si].n);
                    dataset_free(&d);
                    continue;
                }
                if (g_side != SIDE_GPU) check_tie_free(&d);
                counter_sweep(&d, alphas, na, sets[si].per_alpha);
                dataset_free(&d);
            }
    gt_note("counter sweep: %d passed, %d failed (%.1f s)", gt_passed, gt_failed, (dh_now_ms() - t0) / 1e3);
    if (small) return;
    for (size_t i = 0; i < sizeof large / sizeof large[0]; ++i) {
        dataset d;
        if (dataset_make(&d, large_n, large[i].t, large[i].o, large[i].dense, NULL) != DRTOPK_OK) {
            gt_check(0, "counters: data set", "out of memory for n=%" PRIu64, large_n);
            dataset_free(&d);
            continue;
        }
        counter_sweep(&d, alphas_large, sizeof alphas_large / sizeof alphas_large[0], 1);
        dataset_free(&d);
    }
    gt_note("counter sweep with large alpha: %d passed, %d failed (%.1f s)", gt_passed, gt_failed,
            (dh_now_ms() - t0) / 1e3);
}

/* Paper Figures 5, 7 and 8 (tests/unit/test_cpu_ref.c paper_examples): 16
 * elements in 4 subranges (alpha 2) whose maxima are 3012, 2313, 3210, 2321;
 * the values, best first, and the counters the figures show, with and without
 * the shared-memory delegate build. */
#define PAPER_N 16
#define PAPER_ALPHA 2
#define PAPER_SUBRANGES 4
static void paper_examples(void)
{
    static const uint32_t v[PAPER_N] = { 101, 2001, 3012, 1323, 2313, 500, 600, 700,
                                         3000, 3010, 1002, 3210, 2321, 400, 300, 200 };
    static const uint32_t best[] = { 3210, 3012, 3010, 3000 };
    static const uint64_t best_pos[] = { 11, 2, 9, 8 };
    static const struct { uint64_t k; int beta; unsigned flags; uint64_t concat, scanned; } ex[] = {
        { 2, 1, 0, 8, 2 },               /* Fig 5, Rule 1: subranges 0 and 2 copied whole */
        { 2, 1, DRTOPK_FILTER, 2, 2 },   /* Fig 7, Rule 2: only {3012, 3210} */
        { 3, 2, DRTOPK_FILTER, 3, 1 },   /* Fig 8a, Rule 3: {3012, 3010, 3210}, one scan */
        { 2, 2, DRTOPK_FILTER, 2, 0 },   /* Fig 8b: no subrange scanned */
    };
    dataset d;
    results r = { NULL, NULL, NULL, NULL };
    if (dataset_make(&d, PAPER_N, DRTOPK_U32, DRTOPK_LARGEST, 0, v) != DRTOPK_OK || !results_alloc(&r, PAPER_N)) {
        gt_check(0, "paper examples", "out of memory");
        results_free(&r);
        dataset_free(&d);
        return;
    }
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; ++i)
        for (int shared = 0; shared <= 1; ++shared) {
            drtopk_plan plan;
            const counters want = { PAPER_SUBRANGES * (uint64_t)ex[i].beta, ex[i].k, ex[i].scanned,
                                    ex[i].concat };
            memset(&plan, 0, sizeof plan);
            plan.alpha = PAPER_ALPHA;
            plan.beta = ex[i].beta;
            plan.flags = DRTOPK_DELEGATE | DRTOPK_SORTED | ex[i].flags | (shared ? DRTOPK_SHARED_DELEGATE : 0);
            plan.first_algo = plan.second_algo = DRTOPK_ALGO_RADIX;
            plan.rule4_const = DRTOPK_RULE4_CONST_DEFAULT;
            counter_case(&d, &r, ex[i].k, &plan, &want, best, best_pos);
        }
    results_free(&r);
    dataset_free(&d);
}

/* drtopk_plan_auto with the test's own tuning table: the plan it gets for a
 * matching problem, no table entry for another one, an invalid entry refused;
 * then that plan runs through counter_case. */
#define TUNING_CONST 5.0
#define TUNING_BETA 3
#define TUNING_N 4099u                  /* small: also in --small (sanitizers) */
#define TUNING_K 13u
static void tuning_table(void)
{
    static const drtopk_tuning_entry entries[] = {
        { DRTOPK_U32, 10, 20, 0, 6, DRTOPK_ALGO_RADIX_GGKS, TUNING_BETA, TUNING_CONST, 0 },
        { DRTOPK_U32, 10, 20, 0, 6, DRTOPK_ALGO_BITONIC, 1, 1.0, 0 },   /* shadowed: first match wins */
        { DRTOPK_F32, 0, 40, 0, 40, DRTOPK_ALGO_RADIX, 4, 2.0, 0 },
    };
    static const drtopk_tuning_entry bad_entry[] = {
        { DRTOPK_U32, 0, 40, 0, 40, DRTOPK_ALGO_RADIX, 0, 2.0, 0 },     /* beta 0 */
    };
    /* the same plan with the warp-centric delegate build from alpha 2 up (a
     * per-GPU crossover the tuner stores) */
    static const drtopk_tuning_entry warp_entry[] = {
        { DRTOPK_U32, 10, 20, 0, 6, DRTOPK_ALGO_RADIX_GGKS, TUNING_BETA, TUNING_CONST, 1 },
    };
    const drtopk_tuning warp_table = { "gpu_test", warp_entry, 1, 0 };
    const drtopk_tuning table = { "gpu_test", entries, sizeof entries / sizeof entries[0], 0 };
    const drtopk_tuning bad = { "gpu_test", bad_entry, 1, 0 };
    drtopk_problem p = { g_side == SIDE_GPU ? DRTOPK_BACKEND_CUDA : DRTOPK_BACKEND_CPU, DRTOPK_U32,
                         DRTOPK_LARGEST, TUNING_N, TUNING_K, NULL };
    drtopk_plan plan;
    const int alpha = drtopk_rule4_alpha(TUNING_N, TUNING_K, TUNING_CONST);
    unsigned want_flags = DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT;
    dataset d;
    results r = { NULL, NULL, NULL, NULL };
    if (alpha <= DRTOPK_SHARED_DELEGATE_MAX_ALPHA) want_flags |= DRTOPK_SHARED_DELEGATE;
    gt_check(drtopk_plan_auto(&plan, &p, &table) == DRTOPK_OK && plan.const_source == DRTOPK_CONST_TUNING &&
                 plan.rule4_const == TUNING_CONST && plan.beta == TUNING_BETA && plan.alpha == alpha &&
                 plan.first_algo == DRTOPK_ALGO_RADIX_GGKS && plan.second_algo == DRTOPK_ALGO_RADIX_GGKS &&
                 plan.flags == want_flags,
             "tuning table: the plan of the matching entry",
             "got alpha %d (want %d) beta %d const %g source %d first %s second %s flags 0x%x (want 0x%x)",
             plan.alpha, alpha, plan.beta, plan.rule4_const, (int)plan.const_source,
             drtopk_algo_name(plan.first_algo), drtopk_algo_name(plan.second_algo), plan.flags, want_flags);
    {
        drtopk_plan other;
        drtopk_problem q = p;
        q.dtype = DRTOPK_I32;   /* no entry: the table is not used */
        gt_check(drtopk_plan_auto(&other, &q, &table) == DRTOPK_OK && other.const_source != DRTOPK_CONST_TUNING,
                 "tuning table: no entry for i32", "const_source %d", (int)other.const_source);
        gt_check(drtopk_plan_auto(&other, &p, &bad) == DRTOPK_ERR_INVALID_ARGUMENT,
                 "tuning table: an invalid entry is refused", "accepted beta 0");
    }
    drtopk_plan warp;
    gt_check(drtopk_plan_auto(&warp, &p, &warp_table) == DRTOPK_OK && warp.alpha == alpha &&
                 warp.flags == (want_flags & ~(unsigned)DRTOPK_SHARED_DELEGATE),
             "tuning table: shared_build_max_alpha selects the warp-centric build", "flags 0x%x", warp.flags);
    if (dataset_make(&d, TUNING_N, DRTOPK_U32, DRTOPK_LARGEST, 1, NULL) == DRTOPK_OK && results_alloc(&r, TUNING_N)) {
        counter_case(&d, &r, TUNING_K, &plan, NULL, NULL, NULL);
        counter_case(&d, &r, TUNING_K, &warp, NULL, NULL, NULL);
    } else
        gt_check(0, "tuning table: data set", "out of memory");
    results_free(&r);
    dataset_free(&d);
}

/* ---- seeded data of every distribution ---------------------------------- */

typedef struct {
    uint64_t n, k;
    dh_dist dist;
    drtopk_dtype dtype;
    drtopk_order order;
    uint64_t seed;
    int rule4_plan;             /* the suite's Rule 4 plan instead of `plan` */
    drtopk_plan plan;
    int want_stats;
} tcase;

static void describe(const tcase *c, char *buf, size_t len)
{
    char pl[160];
    describe_plan(&c->plan, pl, sizeof pl);
    snprintf(buf, len, "[n=%" PRIu64 " k=%" PRIu64 " %s %s %s seed=%" PRIu64 " %s]", c->n, c->k,
             dh_dist_name(c->dist), drtopk_dtype_name(c->dtype),
             c->order == DRTOPK_LARGEST ? "largest" : "smallest", c->seed, pl);
}

/* Device copy of the seeded vector, checked bit-identical to the host one. */
static drtopk_status device_data(const tcase *c, const void *host, void **d_v, int *same)
{
    drtopk_status st;
    void *back;
    const size_t bytes = c->n * drtopk_dtype_size(c->dtype);
    *d_v = NULL;
    *same = 0;
    if ((st = dh_dev_alloc(d_v, bytes)) != DRTOPK_OK) return st;
    if ((st = dh_dev_generate(*d_v, c->n, c->dist, c->dtype, c->seed, NULL)) != DRTOPK_OK) return st;
    if ((back = malloc(bytes)) == NULL) return DRTOPK_ERR_OUT_OF_MEMORY;
    st = dh_dev_copy(back, *d_v, bytes, DRTOPK_COPY_D2H);
    *same = st == DRTOPK_OK && memcmp(back, host, bytes) == 0;
    free(back);
    return st;
}

/* DRTOPK_DETERMINISTIC: the GPU's result is the CPU's, bit for bit: the k
 * best (key, position) pairs, which the CPU backend returns best first with
 * equal keys by position when sorted, else by position.  Unsorted GPU
 * results are compared as sets (sorted by position here). */
static void check_deterministic(drtopk_dtype t, uint64_t k, int sorted, const void *gv, const uint64_t *gi,
                                const void *cv, const uint64_t *ci, const char *what)
{
    det_pair *g = (det_pair *)malloc(k * sizeof *g), *c = (det_pair *)malloc(k * sizeof *c);
    uint64_t bad = k;
    if (!g || !c) {
        gt_checkf(0, "host out of memory", "deterministic %s", what);
        free(g);
        free(c);
        return;
    }
    det_pairs_of(gv, gi, (size_t)k, t, sorted, (size_t)k, g);
    det_pairs_of(cv, ci, (size_t)k, t, sorted, (size_t)k, c);
    for (uint64_t i = 0; i < k && bad == k; ++i)
        if (g[i].pos != c[i].pos || g[i].bits != c[i].bits) bad = i;
    char why[DESC_LEN];
    snprintf(why, sizeof why, "%s %" PRIu64 ": GPU position %" PRIu64 " (bits 0x%" PRIx64 "), CPU %" PRIu64
             " (0x%" PRIx64 ")", sorted ? "rank" : "the sets differ at", bad, bad < k ? g[bad].pos : 0,
             bad < k ? g[bad].bits : 0, bad < k ? c[bad].pos : 0, bad < k ? c[bad].bits : 0);
    gt_checkf(bad == k, why, "deterministic: the CPU's (key, position) pairs %s", what);
    free(g);
    free(c);
}

/* One case: GPU vs oracle (counting check), vs the CPU reference for small n,
 * plus SORTED order and stats sanity.  `host` is V on the host.  With ties
 * only |D| must equal the CPU's; the other counters depend on which of equal
 * keys became delegates. */
static void run_case(tcase *c, const void *host, int compare_cpu)
{
    drtopk_problem p = { DRTOPK_BACKEND_CUDA, c->dtype, c->order, c->n, c->k, NULL };
    drtopk_problem hp;
    char what[DESC_LEN];
    dataset d;
    void *gv = NULL, *cv = NULL;
    const size_t es = drtopk_dtype_size(c->dtype);
    uint64_t *gi = NULL, *ci = NULL;
    drtopk_stats gst, cst;
    drtopk_status st;
    size_t bytes = 0;
    int same = 0;

    memset(&gst, 0, sizeof gst);
    memset(&d, 0, sizeof d);
    if (c->rule4_plan && suite_plan(&c->plan, &p) != DRTOPK_OK) {
        gt_check(0, "Rule 4 plan", "drtopk_plan_rule4 failed for n=%" PRIu64 " k=%" PRIu64, c->n, c->k);
        return;
    }
    if (is_key64(c->dtype)) key64_plan(&c->plan);
    describe(c, what, sizeof what);
    st = drtopk_select_workspace(&p, &c->plan, &bytes);
    if (st == DRTOPK_ERR_UNSUPPORTED) {
        gt_skipf("algorithm not built", "select %s", what);
        return;
    }
    gt_checkf(st == DRTOPK_OK, drtopk_status_string(st), "workspace query %s", what);
    if (st != DRTOPK_OK) return;
    gv = malloc(c->k * es);
    gi = (uint64_t *)malloc(c->k * sizeof *gi);
    if (!gv || !gi) {
        gt_checkf(0, "host out of memory", "select %s", what);
        goto out;
    }
    d.dtype = c->dtype;
    d.order = c->order;
    d.n = c->n;
    if ((st = device_data(c, host, &d.dev, &same)) != DRTOPK_OK) {
        gt_checkf(0, drtopk_status_string(st), "device data %s", what);
        goto out;
    }
    gt_checkf(same, "differs from dh_gen_host", "device generator %s", what);
    st = gpu_select(&d, c->k, &c->plan, gv, gi, c->want_stats ? &gst : NULL);
    gt_checkf(st == DRTOPK_OK, drtopk_status_string(st), "select %s", what);
    if (st != DRTOPK_OK) goto out;

    hp = p;
    hp.backend = DRTOPK_BACKEND_CPU;
    hp.values = host;
    {
        const dh_check_result r = dh_check(&hp, gv, gi, NULL);
        gt_checkf(r.ok, r.why, "oracle %s", what);
    }
    if (c->plan.flags & DRTOPK_SORTED)
        gt_checkf(sorted_best_first(c->dtype, c->order, gv, c->k), "not best first", "sorted %s", what);
    if (compare_cpu) {
        cv = malloc(c->k * es);
        ci = (uint64_t *)malloc(c->k * sizeof *ci);
        st = cv && ci ? cpu_select(&hp, &c->plan, cv, ci, &cst) : DRTOPK_ERR_OUT_OF_MEMORY;
        gt_checkf(st == DRTOPK_OK, drtopk_status_string(st), "CPU reference %s", what);
        if (st == DRTOPK_OK) {
            const dh_check_result r = dh_check(&hp, gv, gi, cv);
            gt_checkf(r.ok, r.why, "vs CPU reference %s", what);
            if (c->plan.flags & DRTOPK_DETERMINISTIC)
                check_deterministic(c->dtype, c->k, (c->plan.flags & DRTOPK_SORTED) != 0, gv, gi, cv, ci, what);
            if (c->want_stats && (c->plan.flags & DRTOPK_DELEGATE)) {
                char why[DESC_LEN];
                snprintf(why, sizeof why, "|D| %" PRIu64 " vs CPU %" PRIu64, gst.delegate_len, cst.delegate_len);
                gt_checkf(gst.delegate_len == cst.delegate_len, why, "stats |D| %s", what);
                snprintf(why, sizeof why, "concat %" PRIu64 " selected %" PRIu64 " out of range", gst.concat_len,
                         gst.first_selected);
                gt_checkf(gst.concat_len >= c->k && gst.concat_len <= c->n &&
                              gst.first_selected >= min_u64(c->k, gst.delegate_len) &&
                              gst.first_selected <= gst.delegate_len,
                          why, "stats ranges %s", what);
            }
        }
    }
    if (c->want_stats) {
        char why[DESC_LEN];
        snprintf(why, sizeof why, "total %.4f ms, second %.4f ms", gst.ms_total, gst.ms_second);
        gt_checkf(gst.ms_total > 0 && gst.ms_total >= gst.ms_second, why, "stats times %s", what);
    }
out:
    free(gv); free(gi); free(cv); free(ci);
    if (d.dev) dh_dev_free(d.dev);
}

static void run_with_host(tcase *c, int compare_cpu)
{
    void *host = malloc(c->n * drtopk_dtype_size(c->dtype));
    if (host == NULL) {
        gt_check(0, "host memory", "out of memory for n=%" PRIu64, c->n);
        return;
    }
    dh_gen_host(host, c->n, c->dist, c->dtype, c->seed);
    run_case(c, host, compare_cpu);
    free(host);
}

static drtopk_algo pick_algo(void)
{
    if (chance(75)) return DRTOPK_ALGO_RADIX;
    return other_algos[rnd() % N_OTHER_ALGOS];
}

static void random_case(tcase *c, uint64_t n_max)
{
    const int r = (int)(rnd() % 100);
    memset(c, 0, sizeof *c);
    if (r < 10) c->n = rnd_in(1, 64);
    else if (r < 50) c->n = rnd_in(1, 5000 < n_max ? 5000 : n_max);
    else if (r < 85) c->n = rnd_in(1, (1u << 17) < n_max ? (1u << 17) : n_max);
    else c->n = rnd_in(1, n_max);
    switch (rnd() % 10) {
    case 0: c->k = 1; break;
    case 1: c->k = c->n; break;
    case 2: c->k = c->n > 1 ? c->n - 1 : 1; break;
    default: {
        /* log-uniform in [1, n] */
        const int b = dh_ilog2_floor(c->n);
        const uint64_t hi = 1ull << rnd_in(0, (uint64_t)b);
        c->k = rnd_in(1, hi < c->n ? hi : c->n);
    }
    }
    c->dist = (dh_dist)(rnd() % DRTOPK_DIST_COUNT);
    c->dtype = (drtopk_dtype)(rnd() % DRTOPK_DTYPE_COUNT);
    c->order = chance(50) ? DRTOPK_LARGEST : DRTOPK_SMALLEST;
    c->seed = rnd();
    c->want_stats = chance(50);
    c->rule4_plan = chance(20);
    if (!c->rule4_plan) {
        const int amax = dh_ilog2_ceil(c->n) + 2;   /* n < 2^alpha included */
        c->plan.alpha = (int)rnd_in(DRTOPK_ALPHA_MIN, amax < DRTOPK_ALPHA_MAX ? amax : DRTOPK_ALPHA_MAX);
        c->plan.beta = chance(40) ? 2 : (int)rnd_in(1, DRTOPK_BETA_MAX);
        c->plan.first_algo = pick_algo();
        c->plan.second_algo = pick_algo();
        c->plan.flags = (chance(85) ? DRTOPK_DELEGATE : 0) | (chance(70) ? DRTOPK_FILTER : 0) |
                        (chance(50) ? DRTOPK_SHARED_DELEGATE : 0) | (chance(50) ? DRTOPK_SKIP_LAST_DIGIT : 0) |
                        (chance(30) ? DRTOPK_SORTED : 0);
        c->plan.rule4_const = DRTOPK_RULE4_CONST_DEFAULT;
    }
    if (chance(25)) c->plan.flags |= DRTOPK_DETERMINISTIC;
}

static void fixed_case(uint64_t n, uint64_t k, dh_dist d, drtopk_dtype t, drtopk_order o, int alpha, int beta,
                       unsigned flags)
{
    tcase c;
    memset(&c, 0, sizeof c);
    c.n = n; c.k = k; c.dist = d; c.dtype = t; c.order = o;
    c.seed = rnd();
    c.want_stats = 1;
    c.plan.alpha = alpha;
    c.plan.beta = beta;
    c.plan.first_algo = c.plan.second_algo = DRTOPK_ALGO_RADIX;
    c.plan.flags = flags;
    c.plan.rule4_const = DRTOPK_RULE4_CONST_DEFAULT;
    run_with_host(&c, n <= CPU_COMPARE_N_MAX);
}

static void test_generator(uint64_t n)
{
    void *h = malloc(n * MAX_ELEM_BYTES), *b = malloc(n * MAX_ELEM_BYTES);
    void *d = NULL;
    if (!h || !b || dh_dev_alloc(&d, n * MAX_ELEM_BYTES) != DRTOPK_OK) {
        gt_check(0, "generator", "out of memory");
        goto out;
    }
    for (int dist = 0; dist < DRTOPK_DIST_COUNT; ++dist) {
        for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
            const uint64_t seed = rnd();
            const size_t bytes = n * drtopk_dtype_size((drtopk_dtype)t);
            drtopk_status st = dh_dev_generate(d, n, (dh_dist)dist, (drtopk_dtype)t, seed, NULL);
            if (st == DRTOPK_OK) st = dh_dev_copy(b, d, bytes, DRTOPK_COPY_D2H);
            dh_gen_host(h, n, (dh_dist)dist, (drtopk_dtype)t, seed);
            gt_checkf(st == DRTOPK_OK && memcmp(h, b, bytes) == 0, drtopk_status_string(st),
                      "generator %s %s n=%" PRIu64 " device = host", dh_dist_name((dh_dist)dist),
                      drtopk_dtype_name((drtopk_dtype)t), n);
            /* a slice from an offset (drtopk-mpi's ranks) is the whole vector's */
            const uint64_t first = n / 3;
            const size_t esz = drtopk_dtype_size((drtopk_dtype)t);
            st = dh_dev_generate_at(d, first, n - first, (dh_dist)dist, (drtopk_dtype)t, seed, NULL);
            if (st == DRTOPK_OK) st = dh_dev_copy(b, d, bytes - first * esz, DRTOPK_COPY_D2H);
            gt_checkf(st == DRTOPK_OK && memcmp((const char *)h + first * esz, b, bytes - first * esz) == 0,
                      drtopk_status_string(st), "generator %s %s from %" PRIu64 " device = host",
                      dh_dist_name((dh_dist)dist), drtopk_dtype_name((drtopk_dtype)t), first);
        }
    }
out:
    free(h); free(b);
    if (d) dh_dev_free(d);
}

/* dh_dev_time_held's calls: an empty one, a failing one, a launch. */
static drtopk_status held_empty(void *ctx) { (void)ctx; return DRTOPK_OK; }
static drtopk_status held_fail(void *ctx) { (void)ctx; return DRTOPK_ERR_INVALID_ARGUMENT; }
static drtopk_status held_generate(void *ctx) { return dh_dev_generate(ctx, 1024, DRTOPK_DIST_UD, DRTOPK_U32, 1, NULL); }

/* GPU-only timing (src/harness/stream_hold.cuh): the hold is released, the
 * stream goes on, a failing call's status comes back with the stream free.
 * The times are noted, never asserted (benchmarks are not pass/fail). */
static void test_time_held(void)
{
    double ms = -1, enq = -1, gen_ms = -1;
    int primed = 0;
    void *d = NULL;
    const double t0 = dh_now_ms();
    drtopk_status st = dh_dev_time_held(held_empty, NULL, &ms, &enq, &primed);
    gt_check(st == DRTOPK_OK && primed && ms >= 0 && enq >= 0, "time_held of an empty call",
             "status %s, primed %d, ms %g", drtopk_status_string(st), primed, ms);
    gt_check(dh_dev_sync() == DRTOPK_OK, "the stream after a released hold", "sync failed");
    gt_note("empty call, primed: %.4f ms GPU (%.4f ms enqueue, %.3f ms wall)", ms, enq, dh_now_ms() - t0);
    st = dh_dev_time_held(held_fail, NULL, &ms, NULL, &primed);
    gt_check(st == DRTOPK_ERR_INVALID_ARGUMENT, "time_held returns the call's status", "got %s",
             drtopk_status_string(st));
    gt_check(dh_dev_sync() == DRTOPK_OK && dh_dev_clear_error() == DRTOPK_OK,
             "the stream after a failed call's hold", "not free");
    if (dh_dev_alloc(&d, 1024 * 4) == DRTOPK_OK) {
        st = dh_dev_time_held(held_generate, d, &gen_ms, NULL, &primed);
        gt_check(st == DRTOPK_OK && primed && gen_ms > 0, "time_held of one launch", "status %s, primed %d, ms %g",
                 drtopk_status_string(st), primed, gen_ms);
        gt_note("one generator launch (1024 keys), primed: %.4f ms GPU", gen_ms);
        dh_dev_free(d);
    }
    /* a timed hold ends by itself: the stream is free after it */
    gt_check(dh_dev_hold_ns(1000) == DRTOPK_OK && dh_dev_sync() == DRTOPK_OK, "a timed hold ends",
             "sync failed");
}

/* The launch floor is a positive time and refuses no repetitions; the time
 * is noted, never asserted. */
#define LAUNCH_FLOOR_CHECK_REPS 5
static void test_launch_floor(void)
{
    double ms = -1;
    const drtopk_status st = dh_dev_launch_ms(LAUNCH_FLOOR_CHECK_REPS, &ms);
    gt_check(st == DRTOPK_OK && ms > 0, "launch floor", "status %s, ms %g", drtopk_status_string(st), ms);
    gt_check(dh_dev_launch_ms(0, &ms) == DRTOPK_ERR_INVALID_ARGUMENT, "launch floor of no repetitions",
             "not refused");
    gt_check(dh_dev_launch_ms(LAUNCH_FLOOR_CHECK_REPS, NULL) == DRTOPK_ERR_INVALID_ARGUMENT,
             "launch floor without an output", "not refused");
    gt_note("launch floor: %.4f ms", ms);
}

/* The read floor reads exactly the bytes it is given (V of any key width:
 * n x its size), 16-byte loads and a byte tail; compute-sanitizer's memcheck
 * (--small) sees any read past the buffer.  The time is noted, never asserted. */
#define READ_FLOOR_CHECK_BYTES ((1u << 16) * 2 + 6) /* odd 16-bit key count: a 6-byte tail */
#define READ_FLOOR_CHECK_REPS 3
static void test_read_floor_bytes(void)
{
    void *d = NULL;
    double ms = -1;
    if (dh_dev_alloc(&d, READ_FLOOR_CHECK_BYTES) != DRTOPK_OK) {
        gt_check(0, "read floor of an exact buffer", "cannot allocate %u bytes", READ_FLOOR_CHECK_BYTES);
        return;
    }
    const drtopk_status st = dh_dev_read_ms(d, READ_FLOOR_CHECK_BYTES, READ_FLOOR_CHECK_REPS, &ms);
    gt_check(st == DRTOPK_OK && ms > 0, "read floor of an exact buffer", "status %s, ms %g",
             drtopk_status_string(st), ms);
    gt_check(dh_dev_read_ms(d, 0, READ_FLOOR_CHECK_REPS, &ms) == DRTOPK_ERR_INVALID_ARGUMENT,
             "read floor of no bytes", "not refused");
    gt_note("read floor of %u bytes: %.4f ms", READ_FLOOR_CHECK_BYTES, ms);
    dh_dev_free(d);
}

/* Statuses of bad calls, on a small valid problem. */
static void test_bad_arguments(void)
{
    const uint64_t n = 1000, k = 10;
    drtopk_problem p = { DRTOPK_BACKEND_CUDA, DRTOPK_U32, DRTOPK_LARGEST, n, k, NULL };
    drtopk_plan plan, bad;
    void *d_v = NULL, *ws = NULL, *d_ov = NULL, *d_oi = NULL;
    size_t bytes = 0;
    if (dh_dev_alloc(&d_v, n * 4 + 16) != DRTOPK_OK || dh_dev_alloc(&d_ov, k * 4 + 16) != DRTOPK_OK ||
        dh_dev_alloc(&d_oi, k * 8 + 16) != DRTOPK_OK) {
        gt_check(0, "bad arguments", "out of memory");
        goto out;
    }
    dh_dev_generate(d_v, n, DRTOPK_DIST_UD, DRTOPK_U32, rnd(), NULL);
    p.values = d_v;
    gt_check(suite_plan(&plan, &p) == DRTOPK_OK, "Rule 4 plan on a valid problem", "failed");
    gt_check(drtopk_select_workspace(&p, &plan, &bytes) == DRTOPK_OK && bytes > 0, "workspace query", "failed");
    if (dh_dev_alloc(&ws, bytes) != DRTOPK_OK) {
        gt_check(0, "workspace alloc", "out of memory");
        goto out;
    }
#define EXPECT(call, want) do { drtopk_status s_ = (call); \
        gt_check(s_ == (want), #call, "got %s, want %s", drtopk_status_string(s_), drtopk_status_string(want)); } while (0)
    EXPECT(drtopk_select(&p, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_OK);
    EXPECT(drtopk_select(&p, &plan, ws, bytes - 1, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_WORKSPACE_TOO_SMALL);
    EXPECT(drtopk_select(&p, &plan, NULL, 0, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_WORKSPACE_TOO_SMALL);
    EXPECT(drtopk_select(&p, &plan, ws, bytes, NULL, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    EXPECT(drtopk_select(&p, &plan, ws, bytes, d_ov, NULL, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    EXPECT(drtopk_select(&p, &plan, ws, bytes, (char *)d_ov + 1, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_MISALIGNED);
    EXPECT(drtopk_select(&p, &plan, ws, bytes, d_ov, (uint64_t *)((char *)d_oi + 4), NULL, NULL), DRTOPK_ERR_MISALIGNED);
    {
        drtopk_problem q = p;
        q.values = (char *)d_v + 2;
        EXPECT(drtopk_select(&q, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_MISALIGNED);
        q = p; q.values = NULL;
        EXPECT(drtopk_select(&q, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
        q = p; q.k = 0;
        EXPECT(drtopk_select(&q, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_K_ZERO);
        q = p; q.k = n + 1;
        EXPECT(drtopk_select(&q, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_K_GT_N);
        q = p; q.n = 0;
        EXPECT(drtopk_select(&q, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_N_ZERO);
        q = p; q.dtype = DRTOPK_DTYPE_COUNT;
        EXPECT(drtopk_select(&q, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
        q = p; q.order = (drtopk_order)2;
        EXPECT(drtopk_select(&q, &plan, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    }
    bad = plan; bad.alpha = 0;
    EXPECT(drtopk_select(&p, &bad, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    bad = plan; bad.beta = DRTOPK_BETA_MAX + 1;
    EXPECT(drtopk_select(&p, &bad, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    bad = plan; bad.first_algo = DRTOPK_ALGO_COUNT;
    EXPECT(drtopk_select(&p, &bad, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    bad = plan; bad.flags |= 1u << 30;
    EXPECT(drtopk_select(&p, &bad, ws, bytes, d_ov, (uint64_t *)d_oi, NULL, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    {
        size_t b2 = 0;
        EXPECT(drtopk_cuda_workspace(&p, &plan, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
        EXPECT(drtopk_cuda_workspace(&p, &plan, &b2), DRTOPK_OK);
        gt_check(b2 == bytes, "backend workspace equals the public query", "%zu vs %zu", b2, bytes);
    }
    /* the calls that failed enqueued nothing; the one that ran must have worked */
    EXPECT(dh_dev_sync(), DRTOPK_OK);
#undef EXPECT
out:
    if (d_v) dh_dev_free(d_v);
    if (ws) dh_dev_free(ws);
    if (d_ov) dh_dev_free(d_ov);
    if (d_oi) dh_dev_free(d_oi);
}

/* 64-bit keys on the CUDA backend: drtopk_plan_auto gives a small input the
 * standalone fused plan (policy.h), which sizes a workspace; a delegate
 * plan is refused with a message that names the plans to use. */
static void test_key64_plans(void)
{
    static const drtopk_dtype types[] = { DRTOPK_U64, DRTOPK_I64, DRTOPK_F64 };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i) {
        drtopk_problem p = { DRTOPK_BACKEND_CUDA, types[i], DRTOPK_LARGEST, 1000, 10, NULL };
        drtopk_plan plan;
        size_t bytes = 0;
        drtopk_status st = drtopk_plan_auto(&plan, &p, NULL);
        gt_check(st == DRTOPK_OK && !(plan.flags & DRTOPK_DELEGATE) && plan.second_algo == DRTOPK_ALGO_FUSED,
                 "64-bit keys: plan_auto gives the standalone fused plan", "%s: %s, flags 0x%x, %s",
                 drtopk_dtype_name(types[i]), drtopk_status_string(st), plan.flags,
                 drtopk_algo_name(plan.second_algo));
        st = drtopk_select_workspace(&p, &plan, &bytes);
        gt_check(st == DRTOPK_OK && bytes > 0, "64-bit keys: the fused plan's workspace", "%s: %s, %zu bytes",
                 drtopk_dtype_name(types[i]), drtopk_status_string(st), bytes);
        suite_plan(&plan, &p);
        st = drtopk_select_workspace(&p, &plan, &bytes);
        gt_check(st == DRTOPK_ERR_UNSUPPORTED && strstr(drtopk_last_error(), "sort-cub") != NULL,
                 "64-bit keys: a delegate plan is refused, naming sort-cub", "%s: %s: %s",
                 drtopk_dtype_name(types[i]), drtopk_status_string(st), drtopk_last_error());
    }
}

/* 16-bit keys at an address that is not 16-byte aligned (V one element into
 * an allocation): the widening's scalar path, against the CPU reference. */
static void test_half_unaligned(int small)
{
    const uint64_t n = small ? 3001 : 100003, k = 77;
    static const drtopk_dtype halves[] = { DRTOPK_F16, DRTOPK_BF16 };
    for (size_t i = 0; i < sizeof halves / sizeof halves[0]; ++i) {
        dataset whole, view;
        results r = { NULL, NULL, NULL, NULL };
        drtopk_plan plan;
        drtopk_problem hp;
        drtopk_status st;
        char what[DESC_LEN];
        snprintf(what, sizeof what, "[%s n=%" PRIu64 " k=%" PRIu64 " at V + 1 element]", drtopk_dtype_name(halves[i]),
                 n, k);
        if (dataset_make(&whole, n + 1, halves[i], DRTOPK_LARGEST, 0, NULL) != DRTOPK_OK || !results_alloc(&r, n)) {
            gt_checkf(0, "out of memory", "unaligned 16-bit V %s", what);
            results_free(&r);
            dataset_free(&whole);
            continue;
        }
        view = whole;
        view.n = n;
        view.host = (char *)whole.host + drtopk_dtype_size(halves[i]);
        view.dev = (char *)whole.dev + drtopk_dtype_size(halves[i]);
        hp = host_problem(&view, k);
        suite_plan(&plan, &hp);
        st = cpu_select(&hp, &plan, r.cv, r.ci, NULL);
        if (st == DRTOPK_OK) st = gpu_select(&view, k, &plan, r.gv, r.gi, NULL);
        gt_checkf(st == DRTOPK_OK, drtopk_status_string(st), "unaligned 16-bit V: select %s", what);
        if (st == DRTOPK_OK) {
            const dh_check_result cr = dh_check(&hp, r.gv, r.gi, r.cv);
            gt_checkf(cr.ok, cr.why, "unaligned 16-bit V: vs CPU reference %s", what);
        }
        results_free(&r);
        dataset_free(&whole);
    }
}

/* n = 2^30 + 17: the host generates once per data set, the counting check
 * verifies (no sort of V). */
static void test_large(void)
{
    static const struct { dh_dist d; drtopk_dtype t; drtopk_order o; uint64_t k; unsigned extra; } L[] = {
        { DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST, 1, 0 },
        { DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST, 1u << 10, DRTOPK_SORTED },
        { DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_SMALLEST, 1u << 20, 0 },
        { DRTOPK_DIST_FEW, DRTOPK_F32, DRTOPK_LARGEST, 1u << 16, 0 },
        { DRTOPK_DIST_ND, DRTOPK_BF16, DRTOPK_LARGEST, 1u << 16, 0 },   /* 16-bit keys: heavy ties */
        { DRTOPK_DIST_UD, DRTOPK_F64, DRTOPK_SMALLEST, 1u << 20, 0 },   /* 64-bit keys: radix select */
    };
    void *host = malloc(LARGE_N * MAX_ELEM_BYTES);
    dh_dist have_d = DRTOPK_DIST_COUNT;
    drtopk_dtype have_t = DRTOPK_DTYPE_COUNT;
    const uint64_t seed = rnd();
    if (host == NULL) {
        gt_check(0, "large cases", "host out of memory");
        return;
    }
    for (size_t i = 0; i < sizeof L / sizeof L[0]; ++i) {
        tcase c;
        drtopk_problem p = { DRTOPK_BACKEND_CUDA, L[i].t, L[i].o, LARGE_N, L[i].k, NULL };
        memset(&c, 0, sizeof c);
        c.n = LARGE_N; c.k = L[i].k; c.dist = L[i].d; c.dtype = L[i].t; c.order = L[i].o;
        c.seed = seed;
        c.want_stats = 1;
        if (L[i].d != have_d || L[i].t != have_t) {
            dh_gen_host(host, c.n, c.dist, c.dtype, c.seed);
            have_d = L[i].d;
            have_t = L[i].t;
        }
        if (suite_plan(&c.plan, &p) != DRTOPK_OK) {
            gt_check(0, "large cases: Rule 4 plan", "failed");
            continue;
        }
        c.plan.flags |= L[i].extra;
        run_case(&c, host, 0);
        gt_note("large case %zu done: %d passed, %d failed", i, gt_passed, gt_failed);
    }
    free(host);
}

/* Fixed corner cases: k in {1, n}, ties, sorted runs, specials, n < 2^alpha,
 * n not a power of two, alpha around the shared/warp/block switches. */
static void test_fixed(int small)
{
    const unsigned all = DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT;
    const uint64_t n1 = small ? 3001 : 100003;
    for (int d = 0; d < DRTOPK_DIST_COUNT; ++d) {
        for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
            fixed_case(n1, 1, (dh_dist)d, (drtopk_dtype)t, DRTOPK_LARGEST, 5, 2, all | DRTOPK_SHARED_DELEGATE);
            fixed_case(n1, n1, (dh_dist)d, (drtopk_dtype)t, DRTOPK_SMALLEST, 7, 2, all | DRTOPK_SORTED);
            fixed_case(n1, 100, (dh_dist)d, (drtopk_dtype)t, DRTOPK_SMALLEST, 3, 3, all | DRTOPK_SHARED_DELEGATE);
            fixed_case(n1, 1000, (dh_dist)d, (drtopk_dtype)t, DRTOPK_LARGEST, 9, 4, all | DRTOPK_SORTED);
        }
    }
    fixed_case(100, 7, DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST, 10, 2, all);       /* n < 2^alpha */
    fixed_case(100, 3, DRTOPK_DIST_FEW, DRTOPK_I32, DRTOPK_SMALLEST, 10, 8, all);     /* ... with k < |D| */
    fixed_case(5, 5, DRTOPK_DIST_EQ, DRTOPK_F32, DRTOPK_LARGEST, 1, 8, all);          /* k >= |D|    */
    fixed_case(1, 1, DRTOPK_DIST_SPECIAL, DRTOPK_F32, DRTOPK_SMALLEST, 1, 1, all);
    /* staged build (alpha 6, 7): n around its 1024-element tiles, a last
     * tile shorter than one row, tails that are not whole vectors */
    {
        const uint64_t tile_ns[] = { 5, 64, 1023, 1024, 1025, 3 * 1024 + 35, 4096 + 2 };
        for (size_t i = 0; i < sizeof tile_ns / sizeof tile_ns[0]; ++i)
            for (int alpha = 6; alpha <= 7; ++alpha)
                for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
                    const uint64_t n = tile_ns[i], k = n < 50 ? n : 50;
                    fixed_case(n, k, DRTOPK_DIST_SPECIAL, (drtopk_dtype)t,
                               alpha == 6 ? DRTOPK_LARGEST : DRTOPK_SMALLEST, alpha, 1 + (int)(i % 4),
                               all | DRTOPK_SHARED_DELEGATE);
                }
    }
    if (!small) {
        fixed_case((1u << 20) + 5, 4096, DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST, 15, 2, all);  /* block build */
        fixed_case((1u << 20) + 5, 64, DRTOPK_DIST_ND, DRTOPK_I32, DRTOPK_LARGEST, 14, 1, all);
        fixed_case((1u << 20) + 3, 1u << 15, DRTOPK_DIST_UD, DRTOPK_F32, DRTOPK_LARGEST, 4, 2,
                   all | DRTOPK_SHARED_DELEGATE);
        fixed_case((1u << 20) + 3, 1u << 15, DRTOPK_DIST_UD, DRTOPK_F32, DRTOPK_LARGEST, 4, 2, all);
        fixed_case((1u << 21), 1u << 12, DRTOPK_DIST_CD, DRTOPK_U32, DRTOPK_LARGEST, 6, 2, DRTOPK_DELEGATE);
    }
    gt_note("fixed cases done: %d passed, %d failed", gt_passed, gt_failed);
}

/* Heavy ties at the k-th delegate: on all-equal data every
 * key is the threshold t, so a scan copies nothing above t and C is exactly
 * the selected delegates -- a workload count, asserted; copying keys >= t put
 * whole subranges into C (ND at 2^30 with alpha 8, beta 2, k = 2^22 took 21
 * ms that way).  ND and FEW (a few values, each repeated) are checked for
 * exactness and for |C| <= n at the same plans. */
static void test_heavy_ties(int small)
{
    const uint64_t n = small ? (1u << 16) + 3 : (1u << 22) + 3;
    const dh_dist dists[] = { DRTOPK_DIST_EQ, DRTOPK_DIST_ND, DRTOPK_DIST_FEW };
    const int alphas[] = { 4, 8 };
    const uint64_t ks[] = { 1, 100, 4096 };
    dataset d;
    results r;
    memset(&d, 0, sizeof d);
    d.dtype = DRTOPK_U32;
    d.order = DRTOPK_LARGEST;
    d.n = n;
    d.host = malloc(n * sizeof(uint32_t));
    if (d.host == NULL || !results_alloc(&r, n) || dh_dev_alloc(&d.dev, n * sizeof(uint32_t)) != DRTOPK_OK) {
        gt_check(0, "heavy ties: setup", "out of memory for n=%" PRIu64, n);
        free(d.host);
        return;
    }
    for (size_t di = 0; di < sizeof dists / sizeof dists[0]; ++di) {
        const uint64_t seed = rnd();
        dh_gen_host(d.host, n, dists[di], d.dtype, seed);
        if (dh_dev_generate(d.dev, n, dists[di], d.dtype, seed, NULL) != DRTOPK_OK) {
            gt_check(0, "heavy ties: device data", "dh_dev_generate failed");
            continue;
        }
        for (size_t ai = 0; ai < sizeof alphas / sizeof alphas[0]; ++ai)
            for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ++ki) {
                const uint64_t k = ks[ki];
                drtopk_problem p = host_problem(&d, k);
                drtopk_plan plan;
                drtopk_stats st;
                char what[DESC_LEN], pl[160];
                memset(&st, 0, sizeof st);
                suite_plan(&plan, &p);
                plan.alpha = alphas[ai];
                plan.beta = 2;
                describe_plan(&plan, pl, sizeof pl);
                snprintf(what, sizeof what, "[n=%" PRIu64 " k=%" PRIu64 " %s %s]", n, k, dh_dist_name(dists[di]),
                         pl);
                const drtopk_status s = gpu_select(&d, k, &plan, r.gv, r.gi, &st);
                gt_checkf(s == DRTOPK_OK, drtopk_status_string(s), "heavy ties: select %s", what);
                if (s != DRTOPK_OK) continue;
                const dh_check_result cr = dh_check(&p, r.gv, r.gi, NULL);
                gt_checkf(cr.ok, cr.why, "heavy ties: exact %s", what);
                char why[DESC_LEN];
                snprintf(why, sizeof why, "|C| %" PRIu64 ", selected %" PRIu64 ", |D| %" PRIu64, st.concat_len,
                         st.first_selected, st.delegate_len);
                if (dists[di] == DRTOPK_DIST_EQ && drtopk_first_topk_needed(k, st.delegate_len))
                    gt_checkf(st.concat_len == st.first_selected, why, "heavy ties: |C| = selected delegates %s", what);
                else
                    gt_checkf(st.concat_len >= k && st.concat_len <= n, why, "heavy ties: k <= |C| <= n %s", what);
            }
    }
    results_free(&r);
    dh_dev_free(d.dev);
    free(d.host);
}

/* One deterministic case with V one element into its allocation (not
 * 16-byte aligned, as the fix-up's 16-byte loads would like): the standalone
 * radix select, whose result the fix-up always ranks, against the CPU's
 * pairs, bit for bit. */
static void det_unaligned_case(drtopk_dtype t, dh_dist dist, uint64_t n)
{
    const size_t es = drtopk_dtype_size(t);
    const uint64_t k = rnd_in(1, n / 3);
    const drtopk_order o = chance(50) ? DRTOPK_LARGEST : DRTOPK_SMALLEST;
    results r = { NULL, NULL, NULL, NULL };
    drtopk_plan plan;
    drtopk_status st = DRTOPK_ERR_OUT_OF_MEMORY;
    char what[DESC_LEN];
    void *host = malloc((n + 1) * es), *dev = NULL;
    memset(&plan, 0, sizeof plan);
    plan.first_algo = plan.second_algo = DRTOPK_ALGO_RADIX;
    plan.flags = DRTOPK_DETERMINISTIC | (chance(50) ? DRTOPK_SORTED : 0);
    snprintf(what, sizeof what, "[%s %s n=%" PRIu64 " k=%" PRIu64 " %s%s at V + 1 element]", drtopk_dtype_name(t),
             dh_dist_name(dist), n, k, o == DRTOPK_LARGEST ? "largest" : "smallest",
             plan.flags & DRTOPK_SORTED ? " sorted" : "");
    if (host != NULL && results_alloc(&r, k) && dh_dev_alloc(&dev, (n + 1) * es) == DRTOPK_OK) {
        dh_gen_host(host, n + 1, dist, t, rnd());
        st = dh_dev_copy(dev, host, (n + 1) * es, DRTOPK_COPY_H2D);
    }
    if (st == DRTOPK_OK) {
        dataset view;
        memset(&view, 0, sizeof view);
        view.dtype = t;
        view.order = o;
        view.n = n;
        view.host = (char *)host + es;
        view.dev = (char *)dev + es;
        const drtopk_problem hp = host_problem(&view, k);
        st = cpu_select(&hp, &plan, r.cv, r.ci, NULL);
        if (st == DRTOPK_OK) st = gpu_select(&view, k, &plan, r.gv, r.gi, NULL);
    }
    gt_checkf(st == DRTOPK_OK, drtopk_status_string(st), "deterministic: select %s", what);
    if (st == DRTOPK_OK)
        check_deterministic(t, k, (plan.flags & DRTOPK_SORTED) != 0, r.gv, r.gi, r.cv, r.ci, what);
    results_free(&r);
    free(host);
    if (dev) dh_dev_free(dev);
}

/* One deterministic case of standalone onepass (either order, sorted or
 * not), against the CPU's pairs, bit for bit. */
static void det_onepass_case(drtopk_dtype t, dh_dist dist, uint64_t n, uint64_t k)
{
    const drtopk_order o = chance(50) ? DRTOPK_LARGEST : DRTOPK_SMALLEST;
    const uint64_t seed = rnd();
    const unsigned sorted = chance(50) ? DRTOPK_SORTED : 0;
    tcase c = { .n = n, .k = k, .dist = dist, .dtype = t, .order = o, .seed = seed };
    c.plan.first_algo = c.plan.second_algo = DRTOPK_ALGO_ONEPASS;
    c.plan.flags = DRTOPK_DETERMINISTIC | sorted;
    run_with_host(&c, 1);
}

/* DRTOPK_DETERMINISTIC on inputs full of ties (few distinct values, all
 * equal, NaN and +-0 among the extremes) and on tie-free ones, past the
 * sizes where fused and onepass sample a threshold: every key width, both
 * orders, sorted and not, the automatic plan and the standalone ones each
 * width runs; then onepass where its candidates hold ties at the k-th key;
 * then V not 16-byte aligned; the result must be the CPU's, bit for bit. */
static void test_deterministic(int small)
{
    static const dh_dist dists[] = { DRTOPK_DIST_FEW, DRTOPK_DIST_EQ, DRTOPK_DIST_SPECIAL, DRTOPK_DIST_UD };
    static const drtopk_algo algos[] = { DRTOPK_ALGO_COUNT /* the automatic plan */, DRTOPK_ALGO_FUSED,
                                         DRTOPK_ALGO_ONEPASS, DRTOPK_ALGO_RADIX, DRTOPK_ALGO_SORT_CUB };
    const uint64_t sizes[] = { 1000, (1u << 16) + 3, small ? (1u << 17) : (1u << 22) + 5 };
    for (size_t ni = 0; ni < sizeof sizes / sizeof sizes[0]; ++ni)
        for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t)
            for (size_t di = 0; di < sizeof dists / sizeof dists[0]; ++di) {
                tcase c;
                memset(&c, 0, sizeof c);
                c.n = sizes[ni];
                c.k = rnd_in(1, c.n / 3);
                c.dist = dists[di];
                c.dtype = (drtopk_dtype)t;
                c.order = chance(50) ? DRTOPK_LARGEST : DRTOPK_SMALLEST;
                c.seed = rnd();
                const drtopk_algo a = algos[rnd() % (sizeof algos / sizeof algos[0])];
                const drtopk_problem p = { DRTOPK_BACKEND_CUDA, c.dtype, c.order, c.n, c.k, NULL };
                if (a == DRTOPK_ALGO_COUNT) {
                    if (drtopk_plan_auto(&c.plan, &p, NULL) != DRTOPK_OK) {
                        gt_checkf(0, drtopk_last_error(), "deterministic: automatic plan n=%" PRIu64, c.n);
                        continue;
                    }
                } else {
                    c.plan.first_algo = c.plan.second_algo = a;
                }
                c.plan.flags |= DRTOPK_DETERMINISTIC | (chance(50) ? DRTOPK_SORTED : 0);
                if (is_key64(c.dtype) && a == DRTOPK_ALGO_COUNT) c.plan.flags &= ~(unsigned)DRTOPK_DELEGATE;
                run_with_host(&c, 1);
            }
    /* onepass's own tie step (a SELECT whose candidates hold more keys equal
     * to the k-th than the result takes, a TAKE whose pass listed more ties
     * of its threshold than the result takes): ND integers have a few dozen
     * values, UD floats equally spaced ones (16-bit keys: hundreds of copies
     * of each, TAKEs), FEW seven (TAKEs of 150,000 ties), so the k-th key
     * has copies; k below and above the ties' count (ties read from the
     * candidates, or from their list); --small (for the sanitizers): one k
     * of each */
    static const dh_dist tie_dists[] = { DRTOPK_DIST_ND, DRTOPK_DIST_UD, DRTOPK_DIST_FEW };
    const uint64_t tie_ks[] = { 1, 4099, 5, 64 };
    const size_t n_tie_ks = small ? 2 : sizeof tie_ks / sizeof tie_ks[0];
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t)
        for (size_t di = 0; di < sizeof tie_dists / sizeof tie_dists[0]; ++di)
            for (size_t ki = 0; ki <= n_tie_ks; ++ki) {
                const uint64_t n = small ? (1u << 17) + 3 : (1u << 20) + 3;
                det_onepass_case((drtopk_dtype)t, tie_dists[di], n, ki < n_tie_ks ? tie_ks[ki] : rnd_in(1, n / 3));
            }
    /* V past onepass's tie list (2^22 slots): all equal (the list cannot
     * hold the ties: the fix-up ranks V) and few distinct values (it holds
     * them, where the fix-up would read more than 1/32 of V) */
    static const dh_dist list_dists[] = { DRTOPK_DIST_EQ, DRTOPK_DIST_FEW };
    const uint64_t list_n = (1u << 22) + (1u << 20) + 3;
    if (!small)
        for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t)
            for (size_t di = 0; di < sizeof list_dists / sizeof list_dists[0]; ++di)
                det_onepass_case((drtopk_dtype)t, list_dists[di], list_n, rnd_in(1, list_n / 3));
    /* V not 16-byte aligned, past several of the fix-up's chunks: few
     * distinct values (its ranking stops at the chunk of the m-th tie) and
     * tie-free ones (every chunk ranked) */
    static const dh_dist mis_dists[] = { DRTOPK_DIST_FEW, DRTOPK_DIST_UD };
    const uint64_t mis_n = small ? (1u << 17) + 5 : (1u << 21) + 9;
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t)
        for (size_t di = 0; di < sizeof mis_dists / sizeof mis_dists[0]; ++di)
            det_unaligned_case((drtopk_dtype)t, mis_dists[di], mis_n);
    /* V of 8M keys, every key width, few distinct values: the fix-up ranks
     * hundreds of chunks before the one of the m-th tie */
    if (!small)
        for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t)
            det_unaligned_case((drtopk_dtype)t, DRTOPK_DIST_FEW, (1u << 23) + 11);
}

static void test_random(int small)
{
    const int ncases = small ? RANDOM_CASES_SMALL : RANDOM_CASES_FULL;
    for (int i = 0; i < ncases; ++i) {
        tcase c;
        random_case(&c, small ? SMALL_N_MAX : MEDIUM_N_MAX);
        run_with_host(&c, c.n <= CPU_COMPARE_N_MAX);
        if ((i + 1) % LOG_EVERY == 0) gt_note("random cases %d: %d passed, %d failed", i + 1, gt_passed, gt_failed);
    }
}

static int usage(const char *prog)
{
    fprintf(stderr, "usage: %s [--small] [--counters | --deterministic] [--cpu-selftest[=broken-filter|=broken-skip]]\n"
            "  --counters       the counter suite only\n"
            "  --deterministic  the DRTOPK_DETERMINISTIC suite only (small sizes with --small: for the sanitizers)\n",
            prog);
    return 2;
}

int main(int argc, char **argv)
{
    gt_begin();
    int small = 0, counters_only = 0, deterministic_only = 0;
    dh_device_info info;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--small") == 0) small = 1;
        else if (strcmp(argv[i], "--counters") == 0) counters_only = 1;
        else if (strcmp(argv[i], "--deterministic") == 0) deterministic_only = 1;
        else if (strcmp(argv[i], "--cpu-selftest") == 0) g_side = SIDE_CPU;
        else if (strcmp(argv[i], "--cpu-selftest=broken-filter") == 0) g_side = SIDE_CPU_NO_FILTER;
        else if (strcmp(argv[i], "--cpu-selftest=broken-skip") == 0) g_side = SIDE_CPU_NO_SKIP;
        else return usage(argv[0]);
    }
    if (g_side != SIDE_GPU) {
        gt_note("self-test: the CPU reference on both sides%s",
                g_side == SIDE_CPU ? "" : g_side == SIDE_CPU_NO_FILTER ? ", Rule 2 off on the side under test"
                                                                       : ", skip-last-digit off on the side under test");
        paper_examples();
        tuning_table();
        counter_suite(small);
        return gt_finish();
    }
    if (!dh_cuda_available() || dh_dev_info(0, &info) != DRTOPK_OK) return gt_no_gpu("test_gpu");
    gt_note("device: %s (%s), cc %d.%d, %d SMs", info.name, info.uuid, info.cc_major, info.cc_minor, info.sm_count);
    if (deterministic_only) {
        test_deterministic(small);
        return gt_finish();
    }

    paper_examples();
    tuning_table();
    counter_suite(small);
    if (!counters_only) {
        test_generator(small ? GEN_CHECK_N_SMALL : GEN_CHECK_N);
        test_time_held();
        test_read_floor_bytes();
        test_launch_floor();
        test_bad_arguments();
        test_key64_plans();
        test_half_unaligned(small);
        test_fixed(small);
        test_heavy_ties(small);
        test_deterministic(small);
        test_random(small);
        if (!small) test_large();
    }
    return gt_finish();
}
