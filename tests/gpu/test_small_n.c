/*
 * test_small_n.c -- GPU suite of the fused small-input top-k
 * (DRTOPK_ALGO_FUSED; kernels/small_n.cu: one launch of one
 * block or of a cooperative grid) against the CPU reference on
 * identical seeded data.  Each data set runs the fused plan once on the CPU
 * backend at its largest k (the reference: the top k of any smaller k are
 * its best k keys), and each case runs it on the CUDA backend and checks:
 *  - the GPU result is exact (harness oracle: distinct in-range indices,
 *    values equal to V at them, an exact O(n) count of the keys above the
 *    result's least);
 *  - the same multiset of ordered keys as the CPU reference.
 * Cases: u32 i32 f32 f16 bf16 u64 i64 f64, largest and smallest, every distribution (UD
 * ND CD, sorted ASC/DESC, heavy ties FEW, all-equal EQ, SPECIAL: NaN, +-inf,
 * +-0.0, integer extremes), n = 1, tiny, each side of the one-block limit
 * (12288 | 12289: grid barriers, 7 blocks, a last chunk of one key), 100003
 * (49 blocks of 2048 keys, in shared memory), k = 1, 17, 1024, 2^14, n/3,
 * n-1, n; eleven data sets at 2^20 + 5 (every co-resident block: 132 on an
 * H100; chunks in shared memory at n/3; u64 ND: keys below 2^32, whose
 * shared high word the digit passes skip) and
 * six at 2^24 (the sampled pass: one read of V), 64-bit keys among both -- a CPU
 * reference there sorts n pairs (0.2 s and 2-4 s), so only those; a spike
 * (the top k in one run of V); the sampled pass of n >= 2^22 (one read of
 * V) forced to fall back (onepass_data.h: threshold too low, too high, a
 * spike past a block's list) at 2^22 + 3 and 2^24 - 5 keys (u32; u64 keys
 * the same in their high word at 2^22 + 3); the digit passes over V in
 * global memory (32 MB of keys of each width, k = n / 4; 16-bit keys from
 * the top) from the bracket the sample gives the k-th key (UD, ND, CD; all equal and few values: the
 * bracket one key), and refuted by their first pass (onepass_data.h's
 * sample of the smallest and of the largest keys), the sampled pass at its
 * lists' edge (2^24 keys, k = 2^20 of 32 bits, 2^19 of 64), its dense stream with
 * ties at 32 bits (2^24 keys: few values at k = 2^18, CD at 2^20), and with a clump of
 * copies of the k-th key in one block (its keys matching the prefix past
 * its list while other blocks list theirs); and its ties
 * (all-equal, few values, CD's thousands of copies of each of its top
 * values (f32, f16), past every block's list at small k; ties only where the
 * sample looks, which seem thick and are not) at 2^22 + 3; 16-bit V one element off its
 * allocation (not 4-byte aligned); the untuned default on the GPU is fused
 * (drtopk.h); and dr-fused is refused.  A case over a second prints its
 * time.  Output: gpu_test.h's lines, last "N passed, N failed".
 *   test_small_n [--small | --tiny]   (memcheck- and racecheck-sized cases)
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
#include "policy.h"
#include "util.h"

#define SUITE_SEED 0x5A11ull
#define MID_N ((1ull << 20) + 5)       /* a grid of many blocks, chunks in shared memory */
#define LARGE_N (1ull << 24)           /* the largest n of the path's scope   */
#define SMALL_K_N_MAX 200000          /* k = n - 1 and k = n up to this n: the host check sorts k keys */
#define MID_K_N_MAX (1ull << 21)       /* k = n / 3 up to this n (host check time at 2^24) */
#define ONE_BLOCK_N 12288              /* small_n.cu's SN_BLOCK_KEYS: one block up to here */
#define SPIKE_BLOCK_K 16384            /* a spike past a block's list of the sampled pass */
#define ALL_TYPES_N_MAX 100003         /* every type, order and distribution up to here */
#define SPIKE_N ((1u << 20) + 3)
#define SPIKE_N_SMALL ((1u << 16) + 3)
#define FORCE_N ((1ull << 22) + 3)     /* forced fallbacks of the sampled pass */
#define FORCE_N_SMALL ((1ull << 22) + 3)  /* small_n.cu's SN_SAMPLED_MIN_N + 3: the sampled pass under the sanitizers */
#define FORCE_N_WIDE ((1ull << 25) + 3)  /* past LARGE_N: the fused top-k as onepass's fallback over all of V */
#define FORCE_K 1024
#define GUESS_N64 ((1ull << 22) + 3)   /* 32 MB of 64-bit keys: past the chunks' shared memory (H100, H200) */
#define GUESS_N32 ((1ull << 23) + 3)   /* the same of 32-bit keys */
#define GUESS_N16 ((1ull << 24) + 3)   /* and of 16-bit ones */
#define GUESS_K_SHIFT 2                /* k = n / 4: past the sampled pass's lists */
#define LIST_EDGE_SHIFT 4              /* k = n / 16 of 32-bit keys at LARGE_N: the lists' edge */
#define LIST_EDGE_SHIFT_64 5           /* and n / 32 of 64-bit ones */
#define DENSE_TIES_SHIFT 6             /* k = n / 64 of few values at LARGE_N: a dense
                                          sampled pass in two parts (ties, then none) */
#define FORCE_TINY_K 100
#define DESC_LEN 200
#define MAX_KS 8

/* The CPU reference of one data set: the ordered keys of its top k
 * (ascending), by the CPU backend's fused plan. */
typedef struct {
    uint64_t *keys, k;
} reference;

static int reference_of(const data *d, uint64_t k, reference *r)
{
    const double t0 = dh_now_ms();
    char desc[DESC_LEN];
    void *v = malloc(k * drtopk_dtype_size(d->t));
    uint64_t *ix = malloc(k * sizeof *ix);
    drtopk_status s = DRTOPK_ERR_OUT_OF_MEMORY;
    snprintf(desc, sizeof desc, "fused cpu reference %s %s %s n=%" PRIu64 " k=%" PRIu64, d->name,
             drtopk_dtype_name(d->t), d->o == DRTOPK_LARGEST ? "largest" : "smallest", d->n, k);
    r->k = k;
    r->keys = NULL;
    if (v && ix && (s = run_side(d, DRTOPK_ALGO_FUSED, DRTOPK_BACKEND_CPU, k, v, ix, NULL, SUITE_SEED)) == DRTOPK_OK)
        r->keys = sorted_keys(d, v, k);
    free(v);
    free(ix);
    if (s != DRTOPK_OK && v && ix) gt_check(0, desc, "cpu: %s (%s)", drtopk_status_string(s), drtopk_last_error());
    else if (r->keys == NULL) gt_check(0, desc, "out of host memory");
    gt_slow(desc, dh_now_ms() - t0);
    return r->keys ? 0 : -1;
}

/* One GPU case of top k against the reference (ref->k >= k). */
static void run_case(const data *d, uint64_t k, const reference *ref)
{
    const double t0 = dh_now_ms();
    char desc[DESC_LEN];
    const size_t es = drtopk_dtype_size(d->t);
    void *gv = malloc(k * es);
    uint64_t *gi = malloc(k * sizeof *gi);
    snprintf(desc, sizeof desc, "fused %s %s %s n=%" PRIu64 " k=%" PRIu64, d->name, drtopk_dtype_name(d->t),
             d->o == DRTOPK_LARGEST ? "largest" : "smallest", d->n, k);
    if (!gv || !gi) {
        gt_check(0, desc, "out of host memory");
        goto out;
    }
    drtopk_status s = run_side(d, DRTOPK_ALGO_FUSED, DRTOPK_BACKEND_CUDA, k, gv, gi, NULL, SUITE_SEED);
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
    gt_check(same, desc, "gpu values differ from the cpu reference's top %" PRIu64, k);
out:
    free(gv);
    free(gi);
    gt_slow(desc, dh_now_ms() - t0);
}

/* Every k of ks on one data set: one CPU reference at the largest. */
static void run_set(const data *d, const uint64_t *ks, size_t nk)
{
    uint64_t kmax = 0;
    reference ref;
    for (size_t i = 0; i < nk; ++i) kmax = ks[i] > kmax ? ks[i] : kmax;
    if (nk == 0 || reference_of(d, kmax, &ref) != 0) return;
    for (size_t i = 0; i < nk; ++i) run_case(d, ks[i], &ref);
    free(ref.keys);
}

/* k values of one n: 1, a few, the targets' 2^10 and 2^14, large, n. */
static size_t ks_for(uint64_t n, uint64_t *ks)
{
    /* k = n - 1 and n on the small sizes only: the host check sorts k keys (time) */
    const uint64_t cand[] = { 1, 17, 1024, 16384, n <= MID_K_N_MAX ? n / 3 : 0, n <= SMALL_K_N_MAX ? n - 1 : 0,
                              n <= SMALL_K_N_MAX ? n : 0 };
    return ks_unique(cand, sizeof cand / sizeof cand[0], n, ks, MAX_KS);
}

/* The seeded data set (n, dist, t, o) with every k of ks_for. */
static void seeded_set(uint64_t n, dh_dist dist, drtopk_dtype t, drtopk_order o)
{
    data d;
    uint64_t ks[MAX_KS];
    if (data_seeded(&d, SUITE_SEED, n, dist, t, o) == 0) run_set(&d, ks, ks_for(n, ks));
    else gt_check(0, "fused data", "cannot prepare n=%" PRIu64, n);
    data_free(&d);
}

/* A data set built against the sampled positions (onepass_data.h: key i
 * = f(i, n, k)), at its one k: u32 keys, or (t = DRTOPK_U64) the same keys
 * in the high word of u64 ones (the same order, so the same sampled
 * threshold and the same fallback). */
static void built_as(drtopk_dtype t, const char *name, uint32_t (*f)(uint64_t, uint64_t, uint64_t), uint64_t n,
                     uint64_t k)
{
    data d;
    memset(&d, 0, sizeof d);
    d.t = t;
    d.o = DRTOPK_LARGEST;
    d.n = n;
    snprintf(d.name, sizeof d.name, "%s", name);
    const int wide = t == DRTOPK_U64;
    if ((d.host = malloc(n * drtopk_dtype_size(t))) != NULL) {
        for (uint64_t i = 0; i < n; ++i) {
            if (wide) ((uint64_t *)d.host)[i] = (uint64_t)f(i, n, k) << 32;
            else ((uint32_t *)d.host)[i] = f(i, n, k);
        }
        if (data_upload(&d) == 0) run_set(&d, &k, 1);
        else gt_check(0, name, "cannot upload n=%" PRIu64, n);
    } else {
        gt_check(0, name, "out of host memory");
    }
    data_free(&d);
}

static void built(const char *name, uint32_t (*f)(uint64_t, uint64_t, uint64_t), uint64_t n, uint64_t k)
{
    built_as(DRTOPK_U32, name, f, n, k);
}

static void built64(const char *name, uint32_t (*f)(uint64_t, uint64_t, uint64_t), uint64_t n, uint64_t k)
{
    built_as(DRTOPK_U64, name, f, n, k);
}

/* The top k in one run of V (onepass_data.h's spike); k = n / 64 overflows
 * the block list of the sampled pass (a fallback, from 2^20 keys). */
static void spike(int small)
{
    const uint64_t n = small ? SPIKE_N_SMALL : SPIKE_N;
    const uint64_t spike_k[] = { 1, 100, n / 64 };
    for (size_t j = 0; j < sizeof spike_k / sizeof spike_k[0]; ++j) built("spike", onepass_spike, n, spike_k[j]);
}

/* The sampled pass (n >= 2^20) forced to fall back to the digit passes over
 * V: threshold too low (every key passes: the lists overflow), too high
 * (fewer than k keys reach it), the top k in one block's chunk past its list
 * (spike, k = 2^14); and at a k that the sample's slack lets through. */
static void forced(int size)
{
    const uint64_t n = size > 0 ? FORCE_N_SMALL : FORCE_N;
    if (size == 2) {                    /* racecheck: the sampled pass, no fallback */
        built("spike", onepass_spike, n, FORCE_TINY_K);
        built64("spike", onepass_spike, n, FORCE_TINY_K);
        built("sampled-ties", onepass_sampled_ties, n, FORCE_TINY_K);
        return;
    }
    built("sampled-ties", onepass_sampled_ties, n, FORCE_TINY_K);     /* ties seem thick: they are not */
    built64("sampled-ties", onepass_sampled_ties, n, FORCE_K);
    built("force-low", onepass_force_low, n, FORCE_K);
    built("force-high", onepass_force_high, n, FORCE_K);
    built("spike", onepass_spike, n, FORCE_K);
    built64("force-low", onepass_force_low, n, FORCE_K);
    built64("force-high", onepass_force_high, n, FORCE_K);
    built64("spike", onepass_spike, n, FORCE_K);
    if (size > 0) return;
    built("spike", onepass_spike, n, SPIKE_BLOCK_K);
    built("force-low", onepass_force_low, LARGE_N - 5, FORCE_K);
    built("force-high", onepass_force_high, FORCE_N_WIDE, FORCE_K);
    built64("force-low", onepass_force_low, FORCE_N_WIDE, FORCE_K);
}

/* A large data set: n keys of type t from distribution dist, order o. */
typedef struct {
    uint64_t n;
    dh_dist dist;
    drtopk_dtype t;
    drtopk_order o;
} large_set;

/* A clump: CLUMP_LEN copies of the middle key (ordered 2^31) a third of
 * the way into V, the rest uniform; at k = n / 2 the k-th key is the
 * clump's.  The passes over V in global memory then find one block (or two)
 * whose keys matching the prefix overflow its list beside blocks that list
 * theirs: the former read V in every pass, the latter their lists. */
#define CLUMP_LEN 60000u
#define CLUMP_KEY 0x80000000u
static uint32_t clump(uint64_t i, uint64_t n, uint64_t k)
{
    (void)k;
    return i >= n / 3 && i < n / 3 + CLUMP_LEN ? CLUMP_KEY : onepass_hash32(i);
}

/* The grid's digit passes over V in global memory (k past the sampled
 * lists, V past the chunks' shared memory) from the bracket the sample gives
 * the k-th key, and from the top where the first pass refutes it (the
 * sample the smallest or the largest keys).  size: as seeded's. */
static void guessed(int size)
{
    static const large_set sets[] = {
        { GUESS_N64, DRTOPK_DIST_UD, DRTOPK_U64, DRTOPK_LARGEST },
        { GUESS_N64, DRTOPK_DIST_CD, DRTOPK_U64, DRTOPK_LARGEST },   /* 15/16 of V in 24 shared bits */
        { GUESS_N64, DRTOPK_DIST_ND, DRTOPK_F64, DRTOPK_SMALLEST },
        { GUESS_N64, DRTOPK_DIST_EQ, DRTOPK_I64, DRTOPK_LARGEST },   /* the bracket one key */
        { GUESS_N64, DRTOPK_DIST_FEW, DRTOPK_U64, DRTOPK_SMALLEST },
        { GUESS_N32, DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST },
        { GUESS_N32, DRTOPK_DIST_CD, DRTOPK_F32, DRTOPK_LARGEST },
        { GUESS_N32, DRTOPK_DIST_SPECIAL, DRTOPK_F32, DRTOPK_SMALLEST },
        { GUESS_N16, DRTOPK_DIST_ND, DRTOPK_F16, DRTOPK_LARGEST },   /* 16 bits: from the top, no guess */
        { GUESS_N16, DRTOPK_DIST_CD, DRTOPK_BF16, DRTOPK_SMALLEST },
    };
    const size_t count = size == 0 ? sizeof sets / sizeof sets[0] : 1;    /* sanitizers: u64 UD */
    for (size_t i = 0; i < count; ++i) {
        data d;
        uint64_t ks[] = { sets[i].n >> GUESS_K_SHIFT, sets[i].n >> (2 * GUESS_K_SHIFT) };
        if (data_seeded(&d, SUITE_SEED, sets[i].n, sets[i].dist, sets[i].t, sets[i].o) == 0)
            run_set(&d, ks, size == 0 ? 2 : 1);
        else
            gt_check(0, "fused data", "cannot prepare n=%" PRIu64, sets[i].n);
        data_free(&d);
    }
    if (size == 2) return;
    built64("force-low", onepass_force_low, GUESS_N64, GUESS_N64 >> GUESS_K_SHIFT);
    if (size == 1) return;
    built64("force-high", onepass_force_high, GUESS_N64, GUESS_N64 >> GUESS_K_SHIFT);
    built("force-low", onepass_force_low, GUESS_N32, GUESS_N32 >> GUESS_K_SHIFT);
    built("force-high", onepass_force_high, GUESS_N32, GUESS_N32 >> GUESS_K_SHIFT);
    built("clump", clump, GUESS_N32, GUESS_N32 / 2);
    built64("clump", clump, GUESS_N64, GUESS_N64 / 2);
}

/* The sampled pass's dense stream (small_n.cu's sn_dense: a warp's list slots
 * taken once a 16-byte load) at 32 bits with ties: few values at k = n / 64,
 * whose chunks the sample expects thick with copies of t (the first part
 * looks at ties, the rest does not), and CD at k = n / 16.  size: as
 * seeded's (the full suite only). */
static void dense_ties(int size)
{
    static const struct { large_set set; int k_shift; } cases[] = {
        { { LARGE_N, DRTOPK_DIST_FEW, DRTOPK_F32, DRTOPK_LARGEST }, DENSE_TIES_SHIFT },
        { { LARGE_N, DRTOPK_DIST_CD, DRTOPK_U32, DRTOPK_SMALLEST }, LIST_EDGE_SHIFT },
    };
    if (size != 0) return;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const large_set *c = &cases[i].set;
        data d;
        uint64_t k = c->n >> cases[i].k_shift;
        if (data_seeded(&d, SUITE_SEED, c->n, c->dist, c->t, c->o) == 0) run_set(&d, &k, 1);
        else gt_check(0, "fused data", "cannot prepare n=%" PRIu64, c->n);
        data_free(&d);
    }
}

/* The sampled pass at its lists' edge (fused_spec.h: a block's share of the
 * spec's capacity and SN_LIST_SD standard deviations), where a block's
 * candidates nearly fill its list: 2^24 keys, k = 2^20 of 32 bits, 2^19 of
 * 64.  size: as seeded's (the full suite only). */
static void list_edge(int size)
{
    static const large_set sets[] = {
        { LARGE_N, DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST },
        { LARGE_N, DRTOPK_DIST_ND, DRTOPK_F32, DRTOPK_SMALLEST },
        { LARGE_N, DRTOPK_DIST_CD, DRTOPK_U64, DRTOPK_LARGEST },
    };
    if (size != 0) return;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; ++i) {
        data d;
        uint64_t k = sets[i].n >> (drtopk_dtype_bits(sets[i].t) == 64 ? LIST_EDGE_SHIFT_64 : LIST_EDGE_SHIFT);
        if (data_seeded(&d, SUITE_SEED, sets[i].n, sets[i].dist, sets[i].t, sets[i].o) == 0) run_set(&d, &k, 1);
        else gt_check(0, "fused data", "cannot prepare n=%" PRIu64, sets[i].n);
        data_free(&d);
    }
}

/* The large data sets, each chosen for a path or an order rule (the small
 * sizes cover every combination). */
static const large_set large_sets[] = {
    { MID_N, DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST },
    { MID_N, DRTOPK_DIST_DESC, DRTOPK_U32, DRTOPK_LARGEST },    /* the top k in the first chunks */
    { MID_N, DRTOPK_DIST_FEW, DRTOPK_U32, DRTOPK_SMALLEST },    /* ties across blocks            */
    { MID_N, DRTOPK_DIST_EQ, DRTOPK_U32, DRTOPK_LARGEST },      /* every pass ends on one digit  */
    { MID_N, DRTOPK_DIST_SPECIAL, DRTOPK_F32, DRTOPK_LARGEST }, /* NaN, +-inf, +-0.0            */
    { MID_N, DRTOPK_DIST_ND, DRTOPK_F32, DRTOPK_SMALLEST },
    { MID_N, DRTOPK_DIST_CD, DRTOPK_F16, DRTOPK_LARGEST },      /* 16-bit keys: two digit passes */
    { LARGE_N, DRTOPK_DIST_UD, DRTOPK_U32, DRTOPK_LARGEST },
    { LARGE_N, DRTOPK_DIST_SPECIAL, DRTOPK_F32, DRTOPK_LARGEST },
    { LARGE_N, DRTOPK_DIST_FEW, DRTOPK_U32, DRTOPK_SMALLEST },
    { LARGE_N, DRTOPK_DIST_EQ, DRTOPK_U32, DRTOPK_LARGEST },
    { FORCE_N, DRTOPK_DIST_EQ, DRTOPK_U32, DRTOPK_SMALLEST },   /* sampled: t is every key (TAKE) */
    { FORCE_N, DRTOPK_DIST_FEW, DRTOPK_F32, DRTOPK_LARGEST },   /* sampled: ties at t            */
    { FORCE_N, DRTOPK_DIST_CD, DRTOPK_F32, DRTOPK_LARGEST },    /* sampled: ties past the lists  */
    { FORCE_N, DRTOPK_DIST_CD, DRTOPK_F16, DRTOPK_SMALLEST },   /* the same at 16 bits           */
    { MID_N, DRTOPK_DIST_UD, DRTOPK_U64, DRTOPK_LARGEST },      /* 64-bit keys: six digit passes */
    { MID_N, DRTOPK_DIST_SPECIAL, DRTOPK_F64, DRTOPK_LARGEST },
    { MID_N, DRTOPK_DIST_FEW, DRTOPK_I64, DRTOPK_SMALLEST },
    { MID_N, DRTOPK_DIST_ND, DRTOPK_U64, DRTOPK_SMALLEST },     /* keys < 2^32: passes skip 32 bits */
    { LARGE_N, DRTOPK_DIST_ND, DRTOPK_U64, DRTOPK_LARGEST },    /* the sampled pass at 64 bits   */
    { FORCE_N, DRTOPK_DIST_FEW, DRTOPK_U64, DRTOPK_SMALLEST },
    { LARGE_N, DRTOPK_DIST_ND, DRTOPK_BF16, DRTOPK_LARGEST },   /* the sampled pass at 16 bits   */
    { FORCE_N, DRTOPK_DIST_FEW, DRTOPK_F16, DRTOPK_SMALLEST },
};

/* 16-bit V one element into its allocation (2-byte aligned, not 4): the
 * scalar keys before the first 16-byte load, in one block, a grid, and the
 * sampled pass (size 0 only). */
static void unaligned16(int size)
{
    static const uint64_t ns[] = { 3001, 100003, FORCE_N };
    static const drtopk_dtype halves[] = { DRTOPK_F16, DRTOPK_BF16 };
    uint64_t ks[] = { 1, 77, 1024 };
    for (size_t a = 0; a < (size == 0 ? 3u : 2u); ++a)
        for (size_t t = 0; t < sizeof halves / sizeof halves[0]; ++t) {
            data whole, view;
            const size_t es = drtopk_dtype_size(halves[t]);
            if (data_seeded(&whole, SUITE_SEED, ns[a] + 1, DRTOPK_DIST_ND, halves[t], DRTOPK_LARGEST) != 0) {
                gt_check(0, "fused unaligned 16-bit data", "cannot prepare n=%" PRIu64, ns[a] + 1);
                data_free(&whole);
                continue;
            }
            view = whole;
            view.n = ns[a];
            view.host = (char *)whole.host + es;
            view.dev = (char *)whole.dev + es;
            snprintf(view.name, sizeof view.name, "ND at V + 1 element");
            run_set(&view, ks, sizeof ks / sizeof ks[0]);
            data_free(&whole);
        }
}

/* size: 0 full, 1 --small (memcheck), 2 --tiny (racecheck) */
static void seeded(int size)
{
    static const uint64_t ns_full[] = { 1, 7, 1000, ONE_BLOCK_N, ONE_BLOCK_N + 1, 16384, ALL_TYPES_N_MAX };
    static const uint64_t ns_small[] = { 7, 1000, ONE_BLOCK_N + 1, 40009 };
    static const uint64_t ns_tiny[] = { 1000, 40009 };  /* one block; a grid */
    static const drtopk_dtype dts[] = { DRTOPK_U32, DRTOPK_I32, DRTOPK_F32, DRTOPK_F16, DRTOPK_BF16,
                                        DRTOPK_U64, DRTOPK_I64, DRTOPK_F64 };
    const uint64_t *ns = size == 0 ? ns_full : size == 1 ? ns_small : ns_tiny;
    const size_t nn = size == 0 ? sizeof ns_full / sizeof ns_full[0]
                      : size == 1 ? sizeof ns_small / sizeof ns_small[0] : sizeof ns_tiny / sizeof ns_tiny[0];
    for (size_t a = 0; a < nn; ++a)
        for (int dist = 0; dist < DRTOPK_DIST_COUNT; ++dist)
            for (size_t t = 0; t < sizeof dts / sizeof dts[0]; ++t)
                for (int o = 0; o <= 1; ++o) {
                    /* both orders on u32, f32 and u64, one each on the others; sanitizers: u32,
                     * f16 and u64, racecheck UD, EQ and ND (u64 ND: the passes skip the keys'
                     * shared 32 bits) */
                    if (o == 1 && dts[t] != DRTOPK_U32 && dts[t] != DRTOPK_F32 && dts[t] != DRTOPK_U64) continue;
                    if (size > 0 && dts[t] != DRTOPK_U32 && dts[t] != DRTOPK_F16 && dts[t] != DRTOPK_U64) continue;
                    if (size == 2 && dist != DRTOPK_DIST_UD && dist != DRTOPK_DIST_EQ && dist != DRTOPK_DIST_ND)
                        continue;
                    seeded_set(ns[a], (dh_dist)dist, dts[t], (drtopk_order)o);
                }
    if (size == 0)
        for (size_t i = 0; i < sizeof large_sets / sizeof large_sets[0]; ++i)
            seeded_set(large_sets[i].n, large_sets[i].dist, large_sets[i].t, large_sets[i].o);
}

/* The default plan without tuning (standalone fused: drtopk.h), and dr-fused
 * refused. */
static void plans(void)
{
    drtopk_problem p = { DRTOPK_BACKEND_CUDA, DRTOPK_U32, DRTOPK_LARGEST, (1ull << POLICY_FUSED_LOG2) + 1, 10,
                         NULL };
    drtopk_plan plan;
    size_t bytes;
    drtopk_status s = drtopk_plan_from_tables(&plan, &p, NULL, NULL, 0);
    gt_check(s == DRTOPK_OK && plan.flags == 0 && plan.second_algo == DRTOPK_ALGO_FUSED,
             "fused: the untuned default up to 2^POLICY_FUSED_LOG2 is fused", "status %d, algo %s, flags %u",
             (int)s, drtopk_algo_name(plan.second_algo), plan.flags);
    plan = standalone_plan(DRTOPK_ALGO_FUSED);
    plan.flags = DRTOPK_DELEGATE;
    plan.alpha = 4;
    plan.beta = 2;
    s = drtopk_select_workspace(&p, &plan, &bytes);
    gt_check(s == DRTOPK_ERR_UNSUPPORTED, "fused: dr-fused refused", "status %d", (int)s);
}

int main(int argc, char **argv)
{
    gt_begin();
    const int size = argc < 2 ? 0 : strcmp(argv[1], "--small") == 0 ? 1 : strcmp(argv[1], "--tiny") == 0 ? 2 : -1;
    if (size < 0 || argc > 2) {
        fprintf(stderr, "usage: %s [--small | --tiny]\n", argv[0]);
        return 2;
    }
    if (!dh_cuda_available()) return gt_no_gpu("test_small_n");
    plans();
    spike(size > 0);
    forced(size);
    guessed(size);
    list_edge(size);
    dense_ties(size);
    unaligned16(size);
    seeded(size);
    return gt_finish();
}
