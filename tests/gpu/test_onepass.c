/*
 * test_onepass.c -- GPU suite of the one-read top-k (DRTOPK_ALGO_ONEPASS;
 * src/lib/onepass_spec.h, kernels/onepass.cu) against the
 * CPU reference, which takes the same steps (cpu_ref.c), on identical seeded
 * data.  Each data set runs the CPU backend once at its largest k (the value
 * reference: the top k of any smaller k are its best k keys), and each case
 * runs the CUDA backend and checks:
 *  - the GPU result is exact (harness oracle: distinct in-range indices,
 *    values equal to V at them, an exact O(n) count of the keys above the
 *    result's least);
 *  - the same multiset of ordered keys as the reference's top k;
 *  - the same workload as the CPU backend at that k (drtopk_stats: sample
 *    size, sample rank, keys above the threshold and ties up to k in all
 *    (drtopk_onepass_kept), fallback taken), so
 *    both backends decided alike.
 * Cases: every key width, read at its own width (u32 i32 f32; f16 bf16; u64
 * i64 f64; largest and smallest on u32 f32 f16 f64, one order on the
 * others), every distribution (UD ND CD, sorted ASC/DESC, heavy ties FEW,
 * all-equal EQ, SPECIAL: NaN, +-inf, +-0.0, integer extremes) up to n =
 * 100003, not powers of two, below and above the sample size, k = 1, 17,
 * n/1000, n/64, n/3, n-1, n; at n = 2^20 + 5 a chosen set of each width (UD,
 * SPECIAL, FEW, EQ, DESC, ND, CD; k up to n/3 -- a CPU reference there sorts
 * up to n pairs, and k = n-1, n take the paths they take at 100003); at n =
 * 2^22 + 7 (many tiles a pass block) k = n/64 and n/8 at each width (the
 * sanitizers: u64 and u32 at n = 2^21 + 7); a spike
 * (the top k in one run of V); and inputs built against the sampled positions
 * that force each side of the fallback: threshold too low (the candidate
 * buffer overflows) and too high (fewer than k keys pass), both still exact
 * and both reported as a fallback, at every key type and order (n = 2^16 + 3)
 * and at one type of each width in both orders (n = 2^20 + 3).  A case or
 * reference over a second prints its time, the run its total.  Output:
 * gpu_test.h's lines, last "N passed, N failed".
 *   test_onepass [--small | --tiny]   (memcheck- and racecheck-sized cases)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "drtopk.h"
#include "gen.h"
#include "gpu_test.h"
#include "keyorder.h"
#include "onepass_data.h"
#include "standalone_case.h"
#include "oracle.h"
#include "util.h"

#define SUITE_SEED 0x0E9A55ull
#define FORCE_N ((1u << 20) + 3)       /* forced-fallback inputs: n >> the sample */
#define FORCE_N_SMALL ((1u << 16) + 3)
#define FORCE_N_WIDE ((1u << 25) + 3)  /* forced fallbacks past 2^24 keys: step 7, the fused top-k
                                          over all of V, at more keys than the suite's other cases */
#define FORCE_N_BOUND (1ull << 28)     /* the most keys step 7 gives the fused top-k
                                          (onepass.cu's OP_FUSED_FALLBACK_MAX_N), 32-bit keys */
#define FORCE_K 1000                   /* k well above the sample rank r          */
#define MID_N_MAX 100003               /* every type, order and distribution up to here */
#define LARGE_N ((1u << 20) + 5)       /* the chosen large data sets              */
#define TILES_N ((1u << 22) + 7)       /* many tiles a pass block (staged outputs) */
/* The sanitizers' large n: 8-byte keys at 2 tiles a pass block of a
 * resident grid (132 SMs, 2 blocks each, 4096 keys a block's tile); 4-byte
 * keys with a candidate buffer above the one-block radix (2^15 keys), so the
 * SELECT radix takes the pass's first-digit histogram (radix_topk_hist0). */
#define TILES_N_SMALL ((1u << 21) + 7)
#define DESC_LEN 200
#define MAX_KS 8

/* A fallback expected: either way, or must (1) or must not (0) have run. */
#define FALLBACK_ANY (-1)

/* The CPU reference of one data set: the ordered keys of its top k
 * (ascending) and the workload at that k. */
typedef struct {
    uint64_t *keys, k;
    drtopk_stats st;
} reference;

static void describe(char *desc, const char *what, const data *d, uint64_t k)
{
    snprintf(desc, DESC_LEN, "%s %s %s %s n=%" PRIu64 " k=%" PRIu64, what, d->name, drtopk_dtype_name(d->t),
             d->o == DRTOPK_LARGEST ? "largest" : "smallest", d->n, k);
}

/* The CPU backend's top k of d: its workload into *st and, when keys is not
 * NULL, its sorted ordered keys into *keys (freed by the caller).  0, or -1
 * on a failure (reported as desc's). */
static int cpu_side(const data *d, uint64_t k, drtopk_stats *st, uint64_t **keys, const char *desc)
{
    void *v = malloc(k * drtopk_dtype_size(d->t));
    uint64_t *ix = malloc(k * sizeof *ix);
    drtopk_status s = DRTOPK_ERR_OUT_OF_MEMORY;
    if (v && ix && (s = run_side(d, DRTOPK_ALGO_ONEPASS, DRTOPK_BACKEND_CPU, k, v, ix, st, SUITE_SEED)) == DRTOPK_OK &&
        keys && (*keys = sorted_keys(d, v, k)) == NULL)
        s = DRTOPK_ERR_OUT_OF_MEMORY;
    free(v);
    free(ix);
    if (s != DRTOPK_OK) gt_check(0, desc, "cpu: %s (%s)", drtopk_status_string(s), drtopk_last_error());
    return s == DRTOPK_OK ? 0 : -1;
}

static int reference_of(const data *d, uint64_t k, reference *r)
{
    const double t0 = dh_now_ms();
    char desc[DESC_LEN];
    describe(desc, "onepass cpu reference", d, k);
    r->k = k;
    r->keys = NULL;
    const int rc = cpu_side(d, k, &r->st, &r->keys, desc);
    gt_slow(desc, dh_now_ms() - t0);
    return rc;
}

/* One GPU case of top k against the reference (ref->k >= k). */
static void run_case(const data *d, uint64_t k, const reference *ref, int want_fallback)
{
    const double t0 = dh_now_ms();
    char desc[DESC_LEN];
    void *gv = malloc(k * drtopk_dtype_size(d->t));
    uint64_t *gi = malloc(k * sizeof *gi);
    drtopk_stats gs, cs = ref->st;
    describe(desc, "onepass", d, k);
    if (!gv || !gi) {
        gt_check(0, desc, "out of host memory");
        goto out;
    }
    drtopk_status s = run_side(d, DRTOPK_ALGO_ONEPASS, DRTOPK_BACKEND_CUDA, k, gv, gi, &gs, SUITE_SEED);
    if (s != DRTOPK_OK) {
        gt_check(0, desc, "cuda: %s (%s)", drtopk_status_string(s), drtopk_last_error());
        goto out;
    }
    drtopk_problem hp = { DRTOPK_BACKEND_CPU, d->t, d->o, d->n, k, d->host };
    dh_check_result r = dh_check(&hp, gv, gi, NULL);
    if (!r.ok) {
        gt_check(0, desc, "gpu result not exact: %s", r.why);
        goto out;
    }
    uint64_t *gk = sorted_keys(d, gv, k);
    const int same = gk && memcmp(gk, ref->keys + (ref->k - k), k * sizeof *gk) == 0;
    free(gk);
    if (!same) {
        gt_check(0, desc, "gpu values differ from the cpu reference's top %" PRIu64, k);
        goto out;
    }
    /* the workload at this k: the reference's, or the CPU backend's run at k
     * (its values are the reference's top k, compared above) */
    if (k != ref->k && cpu_side(d, k, &cs, NULL, desc) != 0) goto out;
    if (gs.delegate_len != cs.delegate_len || gs.first_selected != cs.first_selected ||
        gs.concat_len != cs.concat_len || gs.scanned_subranges != cs.scanned_subranges) {
        gt_check(0, desc,
                 "workload differs: gpu S=%" PRIu64 " r=%" PRIu64 " passed=%" PRIu64 " fallback=%" PRIu64
                 ", cpu S=%" PRIu64 " r=%" PRIu64 " passed=%" PRIu64 " fallback=%" PRIu64,
                 gs.delegate_len, gs.first_selected, gs.concat_len, gs.scanned_subranges, cs.delegate_len,
                 cs.first_selected, cs.concat_len, cs.scanned_subranges);
        goto out;
    }
    if (want_fallback != FALLBACK_ANY && (int)gs.scanned_subranges != want_fallback) {
        gt_check(0, desc, "fallback %sexpected, stats say %" PRIu64, want_fallback ? "" : "not ", gs.scanned_subranges);
        goto out;
    }
    gt_check(1, desc, "");
out:
    free(gv);
    free(gi);
    gt_slow(desc, dh_now_ms() - t0);
}

/* Every k of ks on one data set: one CPU reference at the largest. */
static void run_set(const data *d, const uint64_t *ks, size_t nk, int want_fallback)
{
    uint64_t kmax = 0;
    reference ref;
    for (size_t i = 0; i < nk; ++i) kmax = ks[i] > kmax ? ks[i] : kmax;
    if (nk == 0 || reference_of(d, kmax, &ref) != 0) return;
    for (size_t i = 0; i < nk; ++i) run_case(d, ks[i], &ref, want_fallback);
    free(ref.keys);
}

/* Built data of dtype t and order o: key(i) = f(i, n, k) (onepass_data.h);
 * name says which construction. */
static int data_built(data *d, drtopk_dtype t, drtopk_order o, uint64_t n, const char *name,
                      uint32_t (*f)(uint64_t i, uint64_t n, uint64_t k), uint64_t k)
{
    memset(d, 0, sizeof *d);
    d->t = t;
    d->o = o;
    d->n = n;
    snprintf(d->name, sizeof d->name, "%s", name);
    if ((d->host = malloc(n * drtopk_dtype_size(t))) == NULL) return -1;
    for (uint64_t i = 0; i < n; ++i) drtopk_bits_store(d->host, i, t, onepass_bits(f(i, n, k), t, o));
    return data_upload(d);
}

/* One built data set at its one k. */
static void built_set(drtopk_dtype t, drtopk_order o, uint64_t n, const char *name,
                      uint32_t (*f)(uint64_t, uint64_t, uint64_t), uint64_t k, int want_fallback)
{
    data d;
    if (data_built(&d, t, o, n, name, f, k) == 0) run_set(&d, &k, 1, want_fallback);
    else gt_checkf(0, "cannot prepare the data", "onepass %s %s n=%" PRIu64, name, drtopk_dtype_name(t), n);
    data_free(&d);
}

/* Key types of the constructed inputs: (type, order); the sanitizers take
 * one type of each width and f64. */
typedef struct {
    drtopk_dtype t;
    drtopk_order o;
} typed;

static const typed width_types[] = {   /* one of each width, both orders (n = 2^20 + 3)     */
    { DRTOPK_F16, DRTOPK_LARGEST }, { DRTOPK_F16, DRTOPK_SMALLEST }, { DRTOPK_F32, DRTOPK_LARGEST },
    { DRTOPK_F32, DRTOPK_SMALLEST }, { DRTOPK_F64, DRTOPK_LARGEST }, { DRTOPK_F64, DRTOPK_SMALLEST },
};
static const typed sanitizer_types[] = { /* --small: both orders; --tiny: the largest only */
    { DRTOPK_U32, DRTOPK_LARGEST }, { DRTOPK_F16, DRTOPK_LARGEST }, { DRTOPK_U64, DRTOPK_LARGEST },
    { DRTOPK_F64, DRTOPK_LARGEST }, { DRTOPK_F16, DRTOPK_SMALLEST }, { DRTOPK_F64, DRTOPK_SMALLEST },
};
#define SANITIZER_TINY_TYPES 4

static int listed(drtopk_dtype t, drtopk_order o, const typed *list, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (list[i].t == t && list[i].o == o) return 1;
    return 0;
}

/* Forced fallbacks and spikes.  size: 0 full, 1 --small, 2 --tiny */
static void constructed(int size)
{
    const uint64_t n = size ? FORCE_N_SMALL : FORCE_N;
    const typed *big = size ? sanitizer_types : width_types;
    const size_t nbig = size == 0 ? sizeof width_types / sizeof width_types[0]
                        : size == 1 ? sizeof sanitizer_types / sizeof sanitizer_types[0] : SANITIZER_TINY_TYPES;
    const uint64_t spike_k[] = { 1, 100, n / 64 };
    if (size == 0)               /* every key type and order, at a medium n */
        for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t)
            for (int o = 0; o <= 1; ++o) {
                const drtopk_dtype dt = (drtopk_dtype)t;
                const drtopk_order od = (drtopk_order)o;
                built_set(dt, od, FORCE_N_SMALL, "force-low", onepass_force_low, FORCE_K, 1);
                built_set(dt, od, FORCE_N_SMALL, "force-high", onepass_force_high, FORCE_K, 1);
            }
    for (size_t i = 0; i < nbig; ++i) {
        built_set(big[i].t, big[i].o, n, "force-low", onepass_force_low, FORCE_K, 1);
        built_set(big[i].t, big[i].o, n, "force-high", onepass_force_high, FORCE_K, 1);
    }
    if (size == 0) {             /* one type of each width past 2^24 keys; u32 at the most keys step 7 takes */
        static const drtopk_dtype wide[] = { DRTOPK_F16, DRTOPK_U32, DRTOPK_U64 };
        for (size_t i = 0; i < sizeof wide / sizeof wide[0]; ++i) {
            built_set(wide[i], DRTOPK_LARGEST, FORCE_N_WIDE, "force-low", onepass_force_low, FORCE_K, 1);
            built_set(wide[i], DRTOPK_LARGEST, FORCE_N_WIDE, "force-high", onepass_force_high, FORCE_K, 1);
            built_set(wide[i], DRTOPK_LARGEST, FORCE_N_WIDE, "spike", onepass_spike, FORCE_N_WIDE / 64,
                      FALLBACK_ANY);
        }
        built_set(DRTOPK_U32, DRTOPK_LARGEST, FORCE_N_BOUND, "force-low", onepass_force_low, FORCE_K, 1);
        built_set(DRTOPK_U32, DRTOPK_LARGEST, FORCE_N_BOUND, "force-high", onepass_force_high, FORCE_K, 1);
    }
    /* spikes and tie plateaus: the types of big and (full) every other type, largest */
    for (size_t j = 0; j < sizeof spike_k / sizeof spike_k[0]; ++j) {
        for (size_t i = 0; i < nbig; ++i) {
            built_set(big[i].t, big[i].o, n, "spike", onepass_spike, spike_k[j], FALLBACK_ANY);
            built_set(big[i].t, big[i].o, n, "ties-take", onepass_ties_take, spike_k[j], 0);
            built_set(big[i].t, big[i].o, n, "ties-select", onepass_ties_select, spike_k[j], 0);
        }
        for (int t = 0; size == 0 && t < DRTOPK_DTYPE_COUNT; ++t)
            if (!listed((drtopk_dtype)t, DRTOPK_LARGEST, big, nbig))
                built_set((drtopk_dtype)t, DRTOPK_LARGEST, n, "spike", onepass_spike, spike_k[j], FALLBACK_ANY);
    }
}

/* k values of one n: 1, a few, large, n (the large data sets: up to n/3). */
static size_t ks_for(uint64_t n, uint64_t *ks)
{
    const int mid = n <= MID_N_MAX;
    const uint64_t cand[] = { 1, 17, n / 1000 + 1, n / 64 + 3, n / 3, mid ? n - 1 : 0, mid ? n : 0 };
    return ks_unique(cand, sizeof cand / sizeof cand[0], n, ks, MAX_KS);
}

/* The seeded data set (n, dist, t, o) at every k of ks. */
static void seeded_ks(uint64_t n, dh_dist dist, drtopk_dtype t, drtopk_order o, const uint64_t *ks, size_t nk)
{
    data d;
    if (data_seeded(&d, SUITE_SEED, n, dist, t, o) == 0) run_set(&d, ks, nk, FALLBACK_ANY);
    else gt_check(0, "onepass data", "cannot prepare n=%" PRIu64, n);
    data_free(&d);
}

/* The seeded data set (n, dist, t, o) with every k of ks_for. */
static void seeded_set(uint64_t n, dh_dist dist, drtopk_dtype t, drtopk_order o)
{
    uint64_t ks[MAX_KS];
    seeded_ks(n, dist, t, o, ks, ks_for(n, ks));
}

/* The large data sets: per width the order rules and adversarial orders
 * (the sizes up to MID_N_MAX cover every combination). */
typedef struct {
    dh_dist dist;
    drtopk_dtype t;
    drtopk_order o;
} large_set;

static const large_set large_sets[] = {
    { DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST },      { DRTOPK_DIST_UD, DRTOPK_F16, DRTOPK_SMALLEST },
    { DRTOPK_DIST_UD, DRTOPK_U64, DRTOPK_LARGEST },      /* uniform                            */
    { DRTOPK_DIST_SPECIAL, DRTOPK_F32, DRTOPK_LARGEST }, { DRTOPK_DIST_SPECIAL, DRTOPK_BF16, DRTOPK_LARGEST },
    { DRTOPK_DIST_SPECIAL, DRTOPK_F64, DRTOPK_SMALLEST }, /* NaN, +-inf, +-0.0, extremes        */
    { DRTOPK_DIST_FEW, DRTOPK_I32, DRTOPK_SMALLEST },    { DRTOPK_DIST_FEW, DRTOPK_F16, DRTOPK_LARGEST },
    { DRTOPK_DIST_FEW, DRTOPK_I64, DRTOPK_LARGEST },     /* heavy ties at the threshold        */
    { DRTOPK_DIST_EQ, DRTOPK_U32, DRTOPK_LARGEST },      { DRTOPK_DIST_EQ, DRTOPK_BF16, DRTOPK_SMALLEST },
    { DRTOPK_DIST_EQ, DRTOPK_F64, DRTOPK_LARGEST },      /* all equal: TAKE of ties only       */
    { DRTOPK_DIST_DESC, DRTOPK_F32, DRTOPK_LARGEST },    { DRTOPK_DIST_DESC, DRTOPK_F16, DRTOPK_LARGEST },
    { DRTOPK_DIST_DESC, DRTOPK_U64, DRTOPK_SMALLEST },   /* sorted: the top k in one run       */
    { DRTOPK_DIST_ND, DRTOPK_F32, DRTOPK_SMALLEST },     { DRTOPK_DIST_CD, DRTOPK_I64, DRTOPK_LARGEST },
};

/* Many tiles a block of the pass (its staged outputs cycle through both
 * parities; 32-bit positions), with candidates in most warp tiles (k =
 * n/64: the pass at k = 2^24 of 2^30) and in every one (n/8), at each
 * width, both orders and the NaN threshold (SPECIAL, largest: 1/8 NaN).
 * The SELECT radix's digits start below the leading bits the candidates
 * share (radix_topk_hist0's topk_digit0): a few on UD, 24 (its most: the
 * first digit decides every bit) on CD's innermost level, 16 and more on
 * 16-bit keys. */
static const large_set tiles_sets[] = {
    { DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST },      { DRTOPK_DIST_UD, DRTOPK_F16, DRTOPK_LARGEST },
    { DRTOPK_DIST_ND, DRTOPK_F32, DRTOPK_SMALLEST },     { DRTOPK_DIST_ND, DRTOPK_BF16, DRTOPK_SMALLEST },
    { DRTOPK_DIST_SPECIAL, DRTOPK_F32, DRTOPK_LARGEST }, { DRTOPK_DIST_UD, DRTOPK_I64, DRTOPK_LARGEST },
    { DRTOPK_DIST_CD, DRTOPK_U32, DRTOPK_LARGEST },      { DRTOPK_DIST_CD, DRTOPK_BF16, DRTOPK_SMALLEST },
};

/* size: 0 full, 1 --small (u64 and u32 UD, both k), 2 --tiny (k = n/8):
 * a pass block's staged outputs span several tiles, and the SELECT radix
 * starts from the pass's histogram. */
static void many_tiles(int size)
{
    const uint64_t n = size ? TILES_N_SMALL : TILES_N;
    const uint64_t ks[] = { n / 8, n / 64 + 3 };
    if (size) {
        seeded_ks(n, DRTOPK_DIST_UD, DRTOPK_U64, DRTOPK_LARGEST, ks, size == 1 ? 2 : 1);
        seeded_ks(n, DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST, ks, size == 1 ? 2 : 1);
        if (size == 1) seeded_ks(n, DRTOPK_DIST_CD, DRTOPK_U32, DRTOPK_LARGEST, ks, 2);
        return;
    }
    for (size_t i = 0; i < sizeof tiles_sets / sizeof tiles_sets[0]; ++i)
        seeded_ks(TILES_N, tiles_sets[i].dist, tiles_sets[i].t, tiles_sets[i].o, ks, sizeof ks / sizeof ks[0]);
}

/* size: 0 full, 1 --small (memcheck), 2 --tiny (racecheck) */
static void seeded(int size)
{
    static const uint64_t ns_full[] = { 1, 7, 1000, 32767, 32769, MID_N_MAX };
    static const uint64_t ns_small[] = { 7, 1000, 40009 };
    static const uint64_t ns_tiny[] = { 40009 };
    static const drtopk_dtype dts[] = { DRTOPK_U32, DRTOPK_I32, DRTOPK_F32, DRTOPK_F16,
                                        DRTOPK_BF16, DRTOPK_U64, DRTOPK_I64, DRTOPK_F64 };
    const uint64_t *ns = size == 0 ? ns_full : size == 1 ? ns_small : ns_tiny;
    const size_t nn = size == 0 ? sizeof ns_full / sizeof ns_full[0]
                      : size == 1 ? sizeof ns_small / sizeof ns_small[0] : 1;
    for (size_t a = 0; a < nn; ++a)
        for (int dist = 0; dist < DRTOPK_DIST_COUNT; ++dist)
            for (size_t t = 0; t < sizeof dts / sizeof dts[0]; ++t)
                for (int o = 0; o <= 1; ++o) {
                    /* both orders on u32, f32, f16 and f64; one each on the others; sanitizers:
                     * one type of each width */
                    if (o == 1 && dts[t] != DRTOPK_U32 && dts[t] != DRTOPK_F32 && dts[t] != DRTOPK_F16 &&
                        dts[t] != DRTOPK_F64)
                        continue;
                    if (size > 0 && dts[t] != DRTOPK_U32 && dts[t] != DRTOPK_F16 && dts[t] != DRTOPK_U64) continue;
                    /* and, beside u32, the distributions of the width-specific cases only */
                    if (size > 0 && dts[t] != DRTOPK_U32 && dist != DRTOPK_DIST_UD && dist != DRTOPK_DIST_EQ &&
                        dist != DRTOPK_DIST_SPECIAL)
                        continue;
                    if (size == 2 && dist != DRTOPK_DIST_UD && dist != DRTOPK_DIST_EQ) continue;
                    seeded_set(ns[a], (dh_dist)dist, dts[t], (drtopk_order)o);
                }
    if (size == 0)
        for (size_t i = 0; i < sizeof large_sets / sizeof large_sets[0]; ++i)
            seeded_set(LARGE_N, large_sets[i].dist, large_sets[i].t, large_sets[i].o);
}

/* Statuses: onepass is standalone only, and runs 64-bit keys on the GPU
 * (where the pipeline's algorithms are refused). */
static void statuses(void)
{
    drtopk_plan plan = standalone_plan(DRTOPK_ALGO_ONEPASS);
    drtopk_problem p = { DRTOPK_BACKEND_CUDA, DRTOPK_U32, DRTOPK_LARGEST, 1000, 10, NULL };
    size_t bytes = 0;
    plan.flags = DRTOPK_DELEGATE;
    plan.alpha = 4;
    plan.beta = 2;
    gt_check(drtopk_select_workspace(&p, &plan, &bytes) == DRTOPK_ERR_UNSUPPORTED, "onepass: dr-onepass refused",
             "status %d", (int)drtopk_select_workspace(&p, &plan, &bytes));
    plan = standalone_plan(DRTOPK_ALGO_ONEPASS);
    p.dtype = DRTOPK_U64;
    gt_check(drtopk_select_workspace(&p, &plan, &bytes) == DRTOPK_OK && bytes > 0, "onepass: u64 on the GPU runs",
             "status %d (%s)", (int)drtopk_select_workspace(&p, &plan, &bytes), drtopk_last_error());
    plan = standalone_plan(DRTOPK_ALGO_BUCKET);
    gt_check(drtopk_select_workspace(&p, &plan, &bytes) == DRTOPK_ERR_UNSUPPORTED &&
                 strstr(drtopk_last_error(), "onepass") != NULL,
             "bucket: u64 on the GPU refused, naming onepass", "status %d", (int)drtopk_select_workspace(&p, &plan, &bytes));
}

int main(int argc, char **argv)
{
    gt_begin();
    const int size = argc < 2 ? 0 : strcmp(argv[1], "--small") == 0 ? 1 : strcmp(argv[1], "--tiny") == 0 ? 2 : -1;
    if (size < 0 || argc > 2) {
        fprintf(stderr, "usage: %s [--small | --tiny]\n", argv[0]);
        return 2;
    }
    if (!dh_cuda_available()) return gt_no_gpu("test_onepass");
    const double t0 = dh_now_ms();
    statuses();
    constructed(size);
    seeded(size);
    many_tiles(size);
    gt_note("test_onepass: %.1f s", (dh_now_ms() - t0) / 1000.0);
    return gt_finish();
}
