/*
 * test_batch.c -- batched and segmented top-k on the CPU backend (drtopk.h,
 * drtopk_batch_*; cpu_batch.c): every key type, both orders, sorted and not,
 * uniform rows of many shapes, variable segments (empty, one element, k past
 * the length, per-segment k), ties, NaN and -0.0, each segment against the
 * sort-based oracle (oracle.c) exactly, since the CPU's tie rule (smallest
 * positions) is the oracle's; the padding of slots past k_s; every argument
 * error; proof that dh_batch_check catches a broken result; the Dr.
 * pipeline's workspace bounds (batch_dr_spec.h) against segment lengths, its
 * delegate select's grid bound (the most delegates of a segment) against
 * every length, a host model of its steps 1-3 over compare words
 * (kernels/batch_dr.cuh's Rule 1 over words) against the exact top k_s, and
 * the plan of the rows the batched path hands to the single top-k; and
 * which select the GPU's binning gives a segment (batch_spec.h: the staged
 * select's sampled list, the filter select) at fixed sizes.
 */
#include "test_harness.h"
#include "backend.h"
#include "batch_check.h"
#include "batch_dr_spec.h"
#include "batch_spec.h"
#include "keyorder.h"
#include "oracle.h"
#include "policy.h"

#include <stdlib.h>
#include <string.h>

#define ELEM_MAX 8                 /* widest key type, bytes */
#define TEST_SEED 0xba7c4ull
#define POOL_TIES 5                /* values drawn from this few: many ties */
#define RANDOM_SEGMENT_CASES 200
#define SEG_MAX 9                  /* segments per random case */
#define SEG_LEN_MAX 70             /* longest random segment */
#define DR_CASES 2000              /* random calls of dr_workspace_bounds */
#define DR_SEG_MAX 64              /* their segments */
#define DR_LOG2_MAX 24             /* their longest segment: 2^24 keys */
#define DR_DMAX_LOG2 21            /* dr_delegates_max: every length up to 2^21 (alpha 10 at k 1) */
#define DR_MODEL_CASES 3000        /* dr_rule1_words: random segments of the host model */
#define DR_MODEL_LEN 3000          /*   at most this long                              */
#define DR_MODEL_KS 40             /*   and k_s at most this                           */

static uint64_t rng_state;
static uint64_t rnd(void)          /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Element bits for type t: random, from a small pool (ties), or a float
 * special (NaN of any sign and payload, +-0, +-inf). */
static uint64_t elem(drtopk_dtype t, int mode)
{
    const int bits = drtopk_dtype_bits(t);
    const uint64_t mask = drtopk_width_mask(bits), sign = drtopk_sign_bit(t);
    if (mode == 1) return (rnd() % POOL_TIES) * 3;
    if (mode == 2 && drtopk_dtype_is_float(t)) {
        const uint64_t e = drtopk_float_exp_mask(t);
        switch (rnd() % 6) {
        case 0: return e | 1u;                    /* NaN, small payload */
        case 1: return sign | e | (e >> 1 & ~e); /* negative NaN */
        case 2: return sign;                      /* -0.0 */
        case 3: return 0;                         /* +0.0 */
        case 4: return e;                         /* +inf */
        default: return sign | e;                 /* -inf */
        }
    }
    return rnd() & mask;
}

typedef struct {
    drtopk_batch_problem p;
    drtopk_batch_plan plan;
    void *v, *outv, *wantv;
    uint64_t *outi, *wanti, *offsets, *ks;
} bcase;

static void bcase_free(bcase *c)
{
    free(c->v);
    free(c->outv);
    free(c->wantv);
    free(c->outi);
    free(c->wanti);
    free(c->offsets);
    free(c->ks);
}

/* The expected output: each segment's oracle top-k_s (best first, ties by
 * position), reordered by position when unsorted, then padding. */
static void expect(bcase *c)
{
    const drtopk_batch_problem *p = &c->p;
    const size_t es = drtopk_dtype_size(p->dtype);
    for (uint64_t s = 0; s < p->segments; ++s) {
        uint64_t start, len;
        const uint64_t ks = dh_batch_segment_k(p, s, &start, &len);
        uint64_t *wi = c->wanti + s * p->k;
        char *wv = (char *)c->wantv + s * p->k * es;
        if (ks > 0) {
            drtopk_problem sp = { DRTOPK_BACKEND_CPU, p->dtype, p->order, len, ks, (const char *)p->values + start * es };
            CHECK_STATUS(dh_oracle_topk(&sp, wv, wi), DRTOPK_OK);
            if (!(c->plan.flags & DRTOPK_SORTED)) {
                for (uint64_t a = 1; a < ks; ++a)       /* insertion sort by position */
                    for (uint64_t b = a; b > 0 && wi[b - 1] > wi[b]; --b) {
                        const uint64_t ti = wi[b], tv = drtopk_bits_at(wv, b, p->dtype);
                        wi[b] = wi[b - 1];
                        drtopk_bits_store(wv, b, p->dtype, drtopk_bits_at(wv, b - 1, p->dtype));
                        wi[b - 1] = ti;
                        drtopk_bits_store(wv, b - 1, p->dtype, tv);
                    }
            }
        }
        for (uint64_t j = ks; j < p->k; ++j) {
            wi[j] = DRTOPK_INDEX_NONE;
            drtopk_bits_store(wv, j, p->dtype, 0);
        }
    }
}

/* Run c on the CPU backend and compare with the oracle bit for bit. */
static void run_and_compare(bcase *c, const char *desc)
{
    size_t bytes;
    void *ws;
    const uint64_t slots = c->p.segments * c->p.k;
    const size_t es = drtopk_dtype_size(c->p.dtype);
    test_context(desc);
    c->outv = malloc(slots * es + 1);
    c->wantv = malloc(slots * es + 1);
    c->outi = (uint64_t *)malloc(slots * sizeof(uint64_t) + 1);
    c->wanti = (uint64_t *)malloc(slots * sizeof(uint64_t) + 1);
    CHECK(c->outv && c->wantv && c->outi && c->wanti);
    CHECK_STATUS(drtopk_batch_workspace(&c->p, &c->plan, &bytes), DRTOPK_OK);
    CHECK((ws = malloc(bytes)) != NULL);
    memset(c->outv, 0xA5, slots * es);
    const drtopk_status st = drtopk_batch_select(&c->p, &c->plan, ws, bytes, c->outv, c->outi, NULL);
    free(ws);
    CHECKF(st == DRTOPK_OK, "%s: %s (%s)", desc, drtopk_status_string(st), drtopk_last_error());
    expect(c);
    for (uint64_t j = 0; j < slots; ++j) {
        CHECKF(c->outi[j] == c->wanti[j] &&
                   drtopk_bits_at(c->outv, j, c->p.dtype) == drtopk_bits_at(c->wantv, j, c->p.dtype),
               "%s: slot %llu (segment %llu): got index %llu value 0x%llx, want index %llu value 0x%llx", desc,
               (unsigned long long)j, (unsigned long long)(j / c->p.k), (unsigned long long)c->outi[j],
               (unsigned long long)drtopk_bits_at(c->outv, j, c->p.dtype), (unsigned long long)c->wanti[j],
               (unsigned long long)drtopk_bits_at(c->wantv, j, c->p.dtype));
    }
    const dh_check_result r = dh_batch_check(&c->p, (c->plan.flags & DRTOPK_SORTED) != 0, c->outv, c->outi);
    CHECKF(r.ok, "%s: dh_batch_check rejects the CPU's result: %s", desc, r.why);
}

static void fill(bcase *c, uint64_t n, int mode)
{
    c->v = malloc(n * ELEM_MAX + 1);
    CHECK(c->v != NULL);
    for (uint64_t i = 0; i < n; ++i) drtopk_bits_store(c->v, i, c->p.dtype, elem(c->p.dtype, mode));
    c->p.values = c->v;
}

static void init(bcase *c, drtopk_dtype t, drtopk_order o, int sorted)
{
    memset(c, 0, sizeof *c);
    c->p.backend = DRTOPK_BACKEND_CPU;
    c->p.dtype = t;
    c->p.order = o;
    CHECK_STATUS(drtopk_batch_plan_auto(&c->plan, &c->p), DRTOPK_OK);
    if (sorted) c->plan.flags |= DRTOPK_SORTED;
}

/* Uniform rows: shapes from 1 x 1 to 37 x 129, k from 1 to the row length. */
static void uniform_rows_every_type(void)
{
    static const uint64_t shapes[][3] = { { 1, 1, 1 }, { 1, 7, 7 }, { 5, 1, 1 }, { 3, 17, 4 }, { 37, 129, 10 },
                                          { 8, 256, 8 }, { 2, 1000, 100 }, { 16, 33, 32 } };
    char desc[160];
    rng_state = TEST_SEED;
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t)
        for (int o = 0; o < 2; ++o)
            for (int sorted = 0; sorted < 2; ++sorted)
                for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
                    for (int mode = 0; mode < 3; ++mode) {
                        bcase c;
                        init(&c, (drtopk_dtype)t, (drtopk_order)o, sorted);
                        c.p.segments = shapes[i][0];
                        c.p.len = shapes[i][1];
                        c.p.k = shapes[i][2];
                        fill(&c, c.p.segments * c.p.len, mode);
                        snprintf(desc, sizeof desc, "%s %s%s rows %llu x %llu k %llu data mode %d",
                                 drtopk_dtype_name(c.p.dtype), o ? "smallest" : "largest", sorted ? " sorted" : "",
                                 (unsigned long long)c.p.segments, (unsigned long long)c.p.len,
                                 (unsigned long long)c.p.k, mode);
                        run_and_compare(&c, desc);
                        bcase_free(&c);
                    }
}

/* Variable segments: random lengths 0..SEG_LEN_MAX (empty and one-element
 * ones forced in), k past some lengths, with and without a per-segment k
 * (0, above k, anything between). */
static void segments_random(void)
{
    char desc[200];
    rng_state = TEST_SEED + 1;
    for (int i = 0; i < RANDOM_SEGMENT_CASES; ++i) {
        bcase c;
        init(&c, (drtopk_dtype)(i % DRTOPK_DTYPE_COUNT), (drtopk_order)(i / 2 % 2), i / 4 % 2);
        c.p.segments = 1 + rnd() % SEG_MAX;
        c.p.k = 1 + rnd() % (SEG_LEN_MAX / 2);
        c.offsets = (uint64_t *)malloc((c.p.segments + 1) * sizeof(uint64_t));
        CHECK(c.offsets != NULL);
        c.offsets[0] = rnd() % 3;                 /* need not start at 0 */
        for (uint64_t s = 0; s < c.p.segments; ++s) {
            uint64_t len = rnd() % (SEG_LEN_MAX + 1);
            if (s == 0) len = 0;
            if (s == 1) len = 1;
            c.offsets[s + 1] = c.offsets[s] + len;
        }
        if (i % 3 == 0) {
            c.ks = (uint64_t *)malloc(c.p.segments * sizeof(uint64_t));
            CHECK(c.ks != NULL);
            for (uint64_t s = 0; s < c.p.segments; ++s) c.ks[s] = rnd() % (c.p.k + 3);
            c.p.ks = c.ks;
        }
        c.p.offsets = c.offsets;
        fill(&c, c.offsets[c.p.segments], (int)(rnd() % 3));
        snprintf(desc, sizeof desc, "random segments case %d: %s, %llu segments, k %llu%s", i,
                 drtopk_dtype_name(c.p.dtype), (unsigned long long)c.p.segments, (unsigned long long)c.p.k,
                 c.ks ? ", per-segment k" : "");
        run_and_compare(&c, desc);
        bcase_free(&c);
    }
}

/* The clamp and padding, spelled out: lengths 0, 1, 3 with k = 2. */
static void segments_clamp_and_padding(void)
{
    static const uint64_t offs[] = { 0, 0, 1, 4 };
    static const int32_t v[] = { -5, 7, 7, 2 };
    uint32_t out[6];
    uint64_t idx[6], ws[16];
    drtopk_batch_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_I32, DRTOPK_LARGEST, 3, 0, offs, 2, NULL, v, 0 };
    drtopk_batch_plan plan;
    CHECK_STATUS(drtopk_batch_plan_auto(&plan, &p), DRTOPK_OK);
    plan.flags = DRTOPK_SORTED;
    CHECK_STATUS(drtopk_batch_select(&p, &plan, ws, sizeof ws, out, idx, NULL), DRTOPK_OK);
    CHECK_EQ_U64(idx[0], DRTOPK_INDEX_NONE);
    CHECK_EQ_U64(idx[1], DRTOPK_INDEX_NONE);
    CHECK(out[0] == 0 && out[1] == 0);
    CHECK_EQ_U64(idx[2], 0);
    CHECK_EQ_U64((int32_t)out[2], -5);
    CHECK_EQ_U64(idx[3], DRTOPK_INDEX_NONE);
    CHECK_EQ_U64(idx[4], 0);                     /* ties at 7: the smaller position first */
    CHECK_EQ_U64(idx[5], 1);
    CHECK(out[4] == 7 && out[5] == 7);
}

/* NaN above +inf, -0.0 == +0.0 (ties by position), smallest order too. */
static void segments_float_order(void)
{
    const float nan = __builtin_nanf(""), inf = __builtin_inff();
    const float v[] = { 1.0f, -0.0f, nan, inf, 0.0f, -inf };
    float out[3];
    uint64_t idx[3], ws[16];
    drtopk_batch_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_F32, DRTOPK_LARGEST, 1, 6, NULL, 3, NULL, v, 0 };
    drtopk_batch_plan plan;
    CHECK_STATUS(drtopk_batch_plan_auto(&plan, &p), DRTOPK_OK);
    plan.flags = DRTOPK_SORTED;
    CHECK_STATUS(drtopk_batch_select(&p, &plan, ws, sizeof ws, out, idx, NULL), DRTOPK_OK);
    CHECK(idx[0] == 2 && idx[1] == 3 && idx[2] == 0);
    p.order = DRTOPK_SMALLEST;
    CHECK_STATUS(drtopk_batch_select(&p, &plan, ws, sizeof ws, out, idx, NULL), DRTOPK_OK);
    CHECK(idx[0] == 5 && idx[1] == 1 && idx[2] == 4);  /* -inf, then -0.0 and +0.0 by position */
    plan.flags = 0;                                    /* unsorted: increasing position */
    CHECK_STATUS(drtopk_batch_select(&p, &plan, ws, sizeof ws, out, idx, NULL), DRTOPK_OK);
    CHECK(idx[0] == 1 && idx[1] == 4 && idx[2] == 5);
}

static void batch_argument_errors(void)
{
    uint32_t v[8] = { 0 }, out[8];
    uint64_t idx[8], ws[64], offs[3] = { 0, 4, 8 }, bad_offs[3] = { 0, 5, 4 };
    size_t bytes;
    drtopk_batch_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, 2, 4, NULL, 2, NULL, v, 0 }, q;
    drtopk_batch_plan plan, bad;
    CHECK_STATUS(drtopk_batch_plan_auto(NULL, &p), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_batch_plan_auto(&plan, &p), DRTOPK_OK);
    CHECK(plan.warp_max_k <= DRTOPK_WARP_K_MAX && plan.flags == 0);
    CHECK_STATUS(drtopk_batch_workspace(&p, &plan, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_batch_workspace(NULL, &plan, &bytes), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_batch_workspace(&p, &plan, &bytes), DRTOPK_OK);
    CHECK(bytes <= sizeof ws);
    CHECK_STATUS(drtopk_batch_select(&p, &plan, ws, bytes, out, idx, NULL), DRTOPK_OK);
    CHECK_STATUS(drtopk_batch_select(&p, &plan, ws, bytes - 1, out, idx, NULL), DRTOPK_ERR_WORKSPACE_TOO_SMALL);
    CHECK_STATUS(drtopk_batch_select(&p, &plan, NULL, bytes, out, idx, NULL), DRTOPK_ERR_WORKSPACE_TOO_SMALL);
    CHECK_STATUS(drtopk_batch_select(&p, &plan, ws, bytes, NULL, idx, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_batch_select(&p, &plan, ws, bytes, out, (uint64_t *)((char *)idx + 4), NULL),
                 DRTOPK_ERR_MISALIGNED);
    q = p; q.k = 0;
    CHECK_STATUS(drtopk_batch_select(&q, &plan, ws, bytes, out, idx, NULL), DRTOPK_ERR_K_ZERO);
    q = p; q.k = 5;
    CHECK_STATUS(drtopk_batch_select(&q, &plan, ws, bytes, out, idx, NULL), DRTOPK_ERR_K_GT_N);
    CHECK(strstr(drtopk_last_error(), "row length") != NULL);
    q = p; q.len = 0;
    CHECK_STATUS(drtopk_batch_select(&q, &plan, ws, bytes, out, idx, NULL), DRTOPK_ERR_N_ZERO);
    q = p; q.segments = 0; q.values = NULL;          /* nothing to do: valid */
    CHECK_STATUS(drtopk_batch_select(&q, &plan, ws, bytes, NULL, NULL, NULL), DRTOPK_OK);
    q = p; q.values = NULL;
    CHECK_STATUS(drtopk_batch_select(&q, &plan, ws, bytes, out, idx, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_batch_workspace(&q, &plan, &bytes), DRTOPK_OK);   /* sizes only */
    q = p; q.values = (const char *)v + 1;
    CHECK_STATUS(drtopk_batch_select(&q, &plan, ws, bytes, out, idx, NULL), DRTOPK_ERR_MISALIGNED);
    q = p; q.dtype = DRTOPK_DTYPE_COUNT;
    CHECK_STATUS(drtopk_batch_select(&q, &plan, ws, bytes, out, idx, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    q = p; q.order = (drtopk_order)2;
    CHECK_STATUS(drtopk_batch_select(&q, &plan, ws, bytes, out, idx, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    q = p; q.segments = UINT64_MAX / 2;
    CHECK_STATUS(drtopk_batch_workspace(&q, &plan, &bytes), DRTOPK_ERR_INVALID_ARGUMENT);
    bad = plan; bad.flags = DRTOPK_DELEGATE;
    CHECK_STATUS(drtopk_batch_select(&p, &bad, ws, sizeof ws, out, idx, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    bad = plan; bad.warp_max_k = DRTOPK_WARP_K_MAX + 1;
    CHECK_STATUS(drtopk_batch_select(&p, &bad, ws, sizeof ws, out, idx, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    q = p; q.offsets = offs;                          /* len is for uniform rows only */
    CHECK_STATUS(drtopk_batch_select(&q, &plan, ws, sizeof ws, out, idx, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    q.len = 0;
    CHECK_STATUS(drtopk_batch_select(&q, &plan, ws, sizeof ws, out, idx, NULL), DRTOPK_OK);
    q.offsets = (const uint64_t *)((const char *)offs + 4);
    CHECK_STATUS(drtopk_batch_select(&q, &plan, ws, sizeof ws, out, idx, NULL), DRTOPK_ERR_MISALIGNED);
    q.offsets = bad_offs;
    CHECK_STATUS(drtopk_batch_select(&q, &plan, ws, sizeof ws, out, idx, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(drtopk_last_error(), "segment 1 ends before it starts") != NULL);
    q = p; q.backend = (drtopk_backend)7;
    CHECK_STATUS(drtopk_batch_select(&q, &plan, ws, sizeof ws, out, idx, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
}

/* drtopk_batch_topk: a zeroed plan is planned and sized without running
 * (workspace NULL), then the filled plan runs; its result equals the two-phase
 * calls' with DRTOPK_SORTED, a failed sizing leaves the plan zeroed, and a
 * bad input is refused as by drtopk_batch_select. */
static void batch_topk_one_call(void)
{
    enum { ROWS = 3, COLS = 40, K = 5 };
    uint32_t v[ROWS * COLS], out[ROWS * K], want[ROWS * K];
    uint64_t idx[ROWS * K], want_idx[ROWS * K], ws[256];
    size_t bytes = 0, want_bytes;
    rng_state = TEST_SEED + 5;
    for (int i = 0; i < ROWS * COLS; ++i) v[i] = (uint32_t)rnd();
    drtopk_batch_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_SMALLEST, ROWS, COLS, NULL, K, NULL, v, 0 };
    drtopk_batch_plan plan, ref;
    memset(&plan, 0, sizeof plan);
    memset(out, 0xA5, sizeof out);
    CHECK_STATUS(drtopk_batch_topk(&p, &plan, DRTOPK_SORTED, NULL, &bytes, out, idx, NULL), DRTOPK_OK);
    CHECK(plan.staged_max_len != 0 && plan.flags == DRTOPK_SORTED);
    CHECK(out[0] == 0xA5A5A5A5u);                              /* sized, not run */
    CHECK_STATUS(drtopk_batch_plan_auto(&ref, &p), DRTOPK_OK);
    ref.flags = DRTOPK_SORTED;
    CHECK(memcmp(&ref, &plan, sizeof ref) == 0);
    CHECK_STATUS(drtopk_batch_workspace(&p, &ref, &want_bytes), DRTOPK_OK);
    CHECK(bytes == want_bytes && bytes <= sizeof ws);
    CHECK_STATUS(drtopk_batch_select(&p, &ref, ws, bytes, want, want_idx, NULL), DRTOPK_OK);
    CHECK_STATUS(drtopk_batch_topk(&p, &plan, 0, ws, &bytes, out, idx, NULL), DRTOPK_OK);
    CHECK(plan.flags == DRTOPK_SORTED);                        /* flags read only when planning */
    CHECK(memcmp(out, want, sizeof out) == 0 && memcmp(idx, want_idx, sizeof idx) == 0);
    size_t small = bytes - 1;
    CHECK_STATUS(drtopk_batch_topk(&p, &plan, 0, ws, &small, out, idx, NULL), DRTOPK_ERR_WORKSPACE_TOO_SMALL);
    p.k = COLS + 1;
    memset(&plan, 0, sizeof plan);
    CHECK_STATUS(drtopk_batch_topk(&p, &plan, 0, NULL, &bytes, out, idx, NULL), DRTOPK_ERR_K_GT_N);
    CHECK(plan.staged_max_len == 0);
    CHECK_STATUS(drtopk_batch_topk(&p, NULL, 0, NULL, &bytes, out, idx, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(drtopk_batch_topk(&p, &plan, 0, NULL, NULL, out, idx, NULL), DRTOPK_ERR_INVALID_ARGUMENT);
}

/* The rows the batched path hands to the single top-k (CUDA, uniform rows
 * longer than the plan's block_max_len; block_max_len_64 for 8-byte keys)
 * get the planner's plan of one row, drtopk_plan_auto's, sorted when the
 * batch plan is; every other problem a zeroed plan no executor reads.  Planning
 * only: no GPU runs. */
static void batch_rows_ask_the_planner(void)
{
    drtopk_batch_plan plan;
    drtopk_plan row, want, zero;
    memset(&zero, 0, sizeof zero);
    drtopk_batch_problem p = { DRTOPK_BACKEND_CUDA, DRTOPK_U32, DRTOPK_LARGEST, 2, 0, NULL, 1u << 10, NULL, NULL, 0 };
    CHECK_STATUS(drtopk_batch_plan_auto(&plan, &p), DRTOPK_OK);
    static const drtopk_dtype types[] = { DRTOPK_U32, DRTOPK_F16, DRTOPK_U64 };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i)
        for (int sorted = 0; sorted <= 1; ++sorted) {
            p.dtype = types[i];
            p.len = (drtopk_batch_wide_keys(p.dtype) ? plan.block_max_len_64 : plan.block_max_len) + 1;
            plan.flags = sorted ? DRTOPK_SORTED : 0;
            CHECK_STATUS(drtopk_plan_batch_rows(&row, &p, &plan), DRTOPK_OK);
            const drtopk_problem one = { DRTOPK_BACKEND_CUDA, p.dtype, p.order, p.len, p.k, NULL };
            CHECK_STATUS(drtopk_plan_auto(&want, &one, NULL), DRTOPK_OK);
            want.flags |= plan.flags;
            CHECKF(memcmp(&row, &want, sizeof row) == 0, "%s sorted %d: row plan %s flags 0x%x, want %s flags 0x%x",
                   drtopk_dtype_name(p.dtype), sorted, drtopk_algo_name(row.second_algo), row.flags,
                   drtopk_algo_name(want.second_algo), want.flags);
            p.len -= 1;                         /* rows the batched engines take */
            CHECK_STATUS(drtopk_plan_batch_rows(&row, &p, &plan), DRTOPK_OK);
            CHECK(memcmp(&row, &zero, sizeof row) == 0);
        }
    p.len = plan.block_max_len_64 + plan.block_max_len;
    p.backend = DRTOPK_BACKEND_CPU;             /* the CPU backend's rows: its own batched select */
    CHECK_STATUS(drtopk_plan_batch_rows(&row, &p, &plan), DRTOPK_OK);
    CHECK(memcmp(&row, &zero, sizeof row) == 0);
}

/* The checker rejects a wrong index, a wrong value, broken padding and a
 * sorted result out of order. */
static void batch_check_catches_errors(void)
{
    static const uint32_t v[] = { 1, 9, 4, 8, 3, 3, 0, 5 };
    uint32_t out[4];
    uint64_t idx[4], ws[32], offs[] = { 0, 5, 6 };
    drtopk_batch_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, 2, 0, offs, 2, NULL, v, 0 };
    drtopk_batch_plan plan;
    CHECK_STATUS(drtopk_batch_plan_auto(&plan, &p), DRTOPK_OK);
    plan.flags = DRTOPK_SORTED;
    CHECK_STATUS(drtopk_batch_select(&p, &plan, ws, sizeof ws, out, idx, NULL), DRTOPK_OK);
    CHECK(dh_batch_check(&p, 1, out, idx).ok);
    idx[1] = 2; out[1] = 4;                           /* a real element, not in the top 2 */
    CHECK(!dh_batch_check(&p, 1, out, idx).ok);
    idx[1] = 3; out[1] = 9;                           /* value not at its index */
    CHECK(!dh_batch_check(&p, 1, out, idx).ok);
    out[1] = 8;
    CHECK(dh_batch_check(&p, 1, out, idx).ok);
    out[0] = 8; idx[0] = 3; out[1] = 9; idx[1] = 1;   /* right set, wrong order */
    CHECK(dh_batch_check(&p, 0, out, idx).ok);
    CHECK(!dh_batch_check(&p, 1, out, idx).ok);
    idx[3] = 0;                                       /* segment 1 has one element: slot 3 pads */
    CHECK(!dh_batch_check(&p, 0, out, idx).ok);
}

/* Segments that take the Dr. pipeline under the workspace bounds from the
 * total, the segment count, dr_min_len and k only (batch_dr_spec.h's proof):
 * their number, delegates (on the 16-byte subrange grid of a random phase,
 * partial subranges at both ends) and candidates fit, each alpha is at
 * least the bound's and keeps k_s whole subranges within 1/16 of the
 * segment; lengths up to 2^24 with gaps between segments, many right at the
 * edges (512 k_s, dr_min_len + 1, one key past a subrange on both sides),
 * and uniform rows (every row longer than dr_min_len takes it). */
static void dr_workspace_bounds(void)
{
    rng_state = TEST_SEED + 2;
    CHECK(drtopk_batch_dr_alpha(1ull << 24, 1024) == 7);       /* sqrt(2^14) = 2^7 */
    CHECK(drtopk_batch_dr_alpha(1ull << 28, 1024) == 9);       /* sqrt(2^18) = 2^9 */
    CHECK(drtopk_batch_dr_alpha(1ull << 30, 1) == DRTOPK_BATCH_DR_ALPHA_MAX);
    CHECK(drtopk_batch_dr_alpha(512 * 1000, 1000) == DRTOPK_BATCH_DR_ALPHA_MIN);
    CHECK(drtopk_batch_dr_alpha(100, 1000) == DRTOPK_BATCH_DR_ALPHA_MIN);
    CHECK(drtopk_batch_dr_alpha(1ull << 16, 16) == 6);         /* sqrt(2^12) = 2^6 */
    CHECK(drtopk_batch_dr_alpha(1ull << 13, 1) == 6);          /* sqrt(2^13): 2^6; 16 x 2^6 <= 2^13 */
    CHECK(drtopk_batch_dr_takes((1ull << 20) + 1, 1024, 1ull << 20));
    CHECK(!drtopk_batch_dr_takes(1ull << 20, 1024, 1ull << 20));    /* not longer than dr_min_len */
    CHECK(!drtopk_batch_dr_takes(1ull << 24, 1024, 0));             /* off */
    CHECK(drtopk_batch_dr_takes(512 * 1025, 1025, 1000));
    CHECK(!drtopk_batch_dr_takes(512 * 1025 - 1, 1025, 1000));      /* 16 k_s 2^5 past the length */
    CHECK(drtopk_batch_dr_delegates(31, 2, 5) == 2);                /* one key on each side of a boundary */
    CHECK(drtopk_batch_dr_delegates(32, 32, 5) == 1);
    CHECK(drtopk_batch_dr_phase(0x1000 + 12, 4) == 3 && drtopk_batch_dr_phase(0x1000 + 8, 8) == 1);
    /* alpha against its definition: max(5, min(10, floor(log2 r / 2), floor(log2 floor(r / 16)))),
       r = floor(len / k_s), each term by a plain loop */
    for (uint64_t len = 1; len < 1ull << 40; len = len * 9 / 8 + 1)
        for (uint64_t ks = 1; ks <= len && ks < 1ull << 20; ks = ks * 3 + 1) {
            const uint64_t r = len / ks;
            int half = 0, ratio = 0;
            while (half < 31 && r >> (2 * half + 2) != 0) ++half;
            while (ratio < 63 && r / DRTOPK_BATCH_DR_RATIO >> (ratio + 1) != 0) ++ratio;
            int want = half < ratio ? half : ratio;
            if (want > DRTOPK_BATCH_DR_ALPHA_MAX) want = DRTOPK_BATCH_DR_ALPHA_MAX;
            if (want < DRTOPK_BATCH_DR_ALPHA_MIN) want = DRTOPK_BATCH_DR_ALPHA_MIN;
            CHECK(drtopk_batch_dr_alpha(len, ks) == want);
        }
    CHECK(drtopk_batch_dr_alpha(1ull << 24, 0) == DRTOPK_BATCH_DR_ALPHA_MIN);
    for (uint64_t len = 1; len < 1ull << 16; len = len * 3 / 2 + 1)     /* alpha: non-decreasing in len, */
        for (uint64_t ks = 1; ks < 4096; ks = ks * 2 + 1) {            /*   non-increasing in k_s         */
            const int al = drtopk_batch_dr_alpha(len, ks);
            CHECK(drtopk_batch_dr_alpha(len + 1, ks) >= al && drtopk_batch_dr_alpha(len, ks + 1) <= al);
            if (drtopk_batch_dr_takes(len, ks, 1)) CHECK(drtopk_batch_dr_candidates(ks, al) * DRTOPK_BATCH_DR_RATIO <= len);
        }
    for (int c = 0; c < DR_CASES; ++c) {
        const int uniform = c % 4 == 0;
        const uint64_t segments = 1 + rnd() % DR_SEG_MAX, k = 1 + rnd() % 2000;
        const uint64_t min_len = rnd() % 2 ? 1ull << (rnd() % DR_LOG2_MAX) : rnd() % (1ull << DR_LOG2_MAX);
        const uint64_t es = 2ull << (rnd() % 3), phase = rnd() % (DRTOPK_BATCH_DR_VEC_BYTES / es);
        const int alpha_lo = drtopk_batch_dr_alpha_floor(min_len, k);
        uint64_t total = 0, taken = 0, delegates = 0, candidates = 0;
        uint64_t starts[DR_SEG_MAX], lens[DR_SEG_MAX], ks[DR_SEG_MAX];
        const uint64_t row = min_len + 1 + rnd() % (1ull << (rnd() % DR_LOG2_MAX));
        for (uint64_t s = 0; s < segments; ++s) {
            ks[s] = uniform ? (k < row ? k : row) : 1 + rnd() % k;
            const int al = drtopk_batch_dr_alpha(min_len + 1 + rnd() % 4096, ks[s]);
            const int edge = (int)(rnd() % 5);
            lens[s] = uniform ? row
                    : edge == 0 ? 512 * ks[s] + rnd() % 2 : edge == 1 ? min_len + 1
                    : edge == 2 ? (DRTOPK_BATCH_DR_RATIO * ks[s] << al) + 2 : rnd() % (1ull << (rnd() % (DR_LOG2_MAX + 1)));
            if (!uniform && rnd() % 2) total += rnd() % 100;                 /* a gap before the segment */
            const uint64_t sub = 1ull << drtopk_batch_dr_alpha(lens[s], ks[s]);
            if (!uniform && edge == 2) total += sub - 1 - (total + phase) % sub;     /* at the last key of a subrange */
            starts[s] = total;
            total += lens[s];
        }
        if (!uniform) total += rnd() % 100;
        for (uint64_t s = 0; s < segments; ++s) {
            if (!drtopk_batch_dr_takes(lens[s], ks[s], min_len)) continue;
            const int al = drtopk_batch_dr_alpha(lens[s], ks[s]);
            const uint64_t nd = drtopk_batch_dr_delegates(starts[s] + phase, lens[s], al);
            ++taken;
            delegates += nd;
            candidates += drtopk_batch_dr_candidates(ks[s], al);
            CHECK(al >= alpha_lo);
            CHECK(nd <= (lens[s] >> al) + 2 && nd >= (lens[s] >> al));
            CHECK(drtopk_batch_dr_candidates(ks[s], al) * DRTOPK_BATCH_DR_RATIO <= lens[s]);
        }
        const uint64_t max_segs = drtopk_batch_dr_max_segments(total, segments, min_len);
        if (uniform) CHECK(taken == (drtopk_batch_dr_takes(row, ks[0], min_len) ? segments : 0));
        CHECK(taken <= max_segs);
        CHECK(delegates <= drtopk_batch_dr_delegate_cap(total, max_segs, min_len, k));
        CHECK(candidates <= drtopk_batch_dr_candidate_cap(total));
    }
}

/* The most delegates of a segment (the delegate select's grid) against
 * the definition, every length up to 2^DR_DMAX_LOG2 at a few k and
 * dr_min_len: the running most of ((len - 1) >> alpha(len, k)) + 2 over the
 * lengths that take it, exactly; one length (uniform rows) exactly its own;
 * and every segment of k_s <= k and any start on the grid has at most that
 * many. */
static void dr_delegates_max(void)
{
    const uint64_t kk[] = { 1, 2, 3, 16, 1000 }, mins[] = { 1, 4096, 5000 };
    rng_state = TEST_SEED + 3;
    CHECK(drtopk_batch_dr_segment_delegates_max(1ull << 24, 1ull << 24, 1024) == (1ull << 17) + 1);  /* alpha 7 */
    CHECK(drtopk_batch_dr_segment_delegates_max((1ull << 20) + 1, 1ull << 24, 1024) == (1ull << 18) + 1);
    CHECK(drtopk_batch_dr_segment_delegates_max(5, 4, 1024) == 0);             /* none */
    for (size_t a = 0; a < sizeof kk / sizeof kk[0]; ++a)
        for (size_t b = 0; b < sizeof mins / sizeof mins[0]; ++b) {
            const uint64_t k = kk[a], lo = mins[b] + 1;
            uint64_t most = 0;
            for (uint64_t len = 1; len <= 1ull << DR_DMAX_LOG2; ++len) {
                const int al = drtopk_batch_dr_alpha(len, k);
                const uint64_t own = ((len - 1) >> al) + 2;
                if (len >= lo && own > most) most = own;
                CHECK(drtopk_batch_dr_segment_delegates_max(lo, len, k) == most);
                if (len % 977 == 0) {
                    CHECK(drtopk_batch_dr_segment_delegates_max(len, len, k) == own);
                    const uint64_t ks = 1 + rnd() % k, u0 = rnd() % 4096;   /* a segment of k_s <= k, any start */
                    if (drtopk_batch_dr_takes(len, ks, lo - 1))
                        CHECK(drtopk_batch_dr_delegates(u0, len, drtopk_batch_dr_alpha(len, ks)) <= most);
                }
            }
        }
}

/* The compare word of element bits b (keyorder.h; om 0 largest, all ones smallest). */
static uint64_t word_any(uint64_t b, drtopk_dtype t, drtopk_order o)
{
    switch (drtopk_dtype_bits(t)) {
    case 16: return drtopk_cmp16_word((uint16_t)b, t, o ? 0xFFFFu : 0u);
    case 32: return drtopk_cmp_word((uint32_t)b, t, o ? ~0u : 0u);
    default: return drtopk_cmp64_word(b, t, o ? ~0ull : 0ull);
    }
}

static int desc_u64(const void *x, const void *y)
{
    const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? 1 : a > b ? -1 : 0;
}

/* A host model of batch_dr.cuh's steps 1-3 over compare words (its header's
 * Rule 1 over words): a segment of random bits (random, a pool of ties, or
 * float specials: NaN of both signs, +-0, +-inf; some all equal), every key
 * type and order, a random grid phase and start; delegates the subranges'
 * largest words; the k_s taken subranges a top k_s of them by word with ties
 * taken from the back (the split select breaks them in any order); the
 * k_s-th delegate's digits known down to a random digit (the split select
 * stops early where its bucket is taken whole); candidates the taken
 * subranges' keys whose word reaches the known digits.  The top k_s ordered
 * keys of the candidates must be those of the segment (as a multiset). */
static void dr_rule1_words(void)
{
    rng_state = TEST_SEED + 4;
    uint64_t *bits = (uint64_t *)malloc(DR_MODEL_LEN * sizeof(uint64_t));
    uint64_t *dw = (uint64_t *)malloc(DR_MODEL_LEN * sizeof(uint64_t));
    uint64_t *sorted = (uint64_t *)malloc(DR_MODEL_LEN * sizeof(uint64_t));
    uint64_t *want = (uint64_t *)malloc(DR_MODEL_LEN * sizeof(uint64_t));
    uint64_t *cand = (uint64_t *)malloc(DR_MODEL_LEN * sizeof(uint64_t));
    unsigned char *taken = (unsigned char *)malloc(DR_MODEL_LEN);
    for (int c = 0; c < DR_MODEL_CASES; ++c) {
        const drtopk_dtype t = (drtopk_dtype)(rnd() % DRTOPK_DTYPE_COUNT);
        const drtopk_order o = (drtopk_order)(rnd() % 2);
        const int mode = (int)(rnd() % 4), alpha = 1 + (int)(rnd() % 6), bw = drtopk_dtype_bits(t);
        const uint64_t len = 1 + rnd() % DR_MODEL_LEN, u0 = rnd() % 64, same = elem(t, 2);
        for (uint64_t i = 0; i < len; ++i) bits[i] = mode == 3 ? same : elem(t, mode);
        const uint64_t s0 = u0 >> alpha, nd = drtopk_batch_dr_delegates(u0, len, alpha);
        const uint64_t ks = 1 + rnd() % (nd < DR_MODEL_KS ? nd : DR_MODEL_KS);  /* k_s <= delegates (the
                                                                                    pipeline's 16 k_s 2^alpha <= len) */
        for (uint64_t j = 0; j < nd; ++j) dw[j] = 0;
        for (uint64_t i = 0; i < len; ++i) {           /* step 1: the subranges' largest words */
            const uint64_t j = ((u0 + i) >> alpha) - s0, w = word_any(bits[i], t, o);
            if (w > dw[j]) dw[j] = w;
        }
        memcpy(sorted, dw, nd * sizeof *dw);
        qsort(sorted, nd, sizeof *sorted, desc_u64);
        const uint64_t tw = sorted[ks - 1];             /* the k_s-th delegate */
        uint64_t gt = 0;
        for (uint64_t j = 0; j < nd; ++j) gt += dw[j] > tw;
        uint64_t eq_left = ks - gt;                     /* step 2: a top k_s of the delegates, ties from the back */
        for (uint64_t j = nd; j-- > 0;) {
            taken[j] = dw[j] > tw || (dw[j] == tw && eq_left > 0);
            if (dw[j] == tw && eq_left > 0) --eq_left;
        }
        /* the top `known` digits of 8 bits of the delegates' width (u32 for 16-bit keys) */
        const int db = bw == 16 ? 32 : bw, known = (int)(rnd() % (db / 8 + 1));
        const uint64_t ones = drtopk_width_mask(db);
        const uint64_t mask = known * 8 >= db ? ones : ones & ~(ones >> (8 * known)), pf = tw & mask;
        uint64_t nc = 0;
        for (uint64_t i = 0; i < len; ++i)              /* step 3: the filter over words */
            if (taken[((u0 + i) >> alpha) - s0] && (word_any(bits[i], t, o) & mask) >= pf)
                cand[nc++] = drtopk_key_any(bits[i], t, o);
        for (uint64_t i = 0; i < len; ++i) want[i] = drtopk_key_any(bits[i], t, o);
        qsort(want, len, sizeof *want, desc_u64);
        qsort(cand, nc, sizeof *cand, desc_u64);
        const uint64_t top = ks < len ? ks : len;
        CHECK(nc >= top);
        if (nc >= top) CHECK(memcmp(cand, want, top * sizeof *want) == 0);
    }
    free(bits);
    free(dw);
    free(sorted);
    free(want);
    free(cand);
    free(taken);
}

/* batch_spec.h's routing at fixed sizes: a staged select that holds 50000
 * keys (about what an H200's block holds of f32), filter_min_len 1024. */
static void segment_routing(void)
{
    const uint64_t cap = 50000, min_len = POLICY_BATCH_FILTER_MIN_LEN, words = BATCH_FILTER_WORDS,
                   wide = BATCH_FILTER_WIDE_WORDS;
    /* the staged select lists from its sample where about 3 k_s keys fill 2/3 of its list */
    CHECK(drtopk_batch_staged_lists(8192, 100) && !drtopk_batch_staged_lists(8192, 150));
    CHECK(drtopk_batch_staged_lists(10000, 100) && !drtopk_batch_staged_lists(10000, 1000));
    /* sparse attention: 128K keys at k = 2048 (the filter's words hold the sample's capacity), not 4096 */
    CHECK(drtopk_batch_filter_takes(32, min_len, cap, 131072, 2048, 0, words));
    CHECK(!drtopk_batch_filter_takes(32, min_len, cap, 131072, 4096, 0, words));
    /* a wide block holds k = 4096 of 128K keys and k = 2048 of 256K keys, not k = 8192 of 128K */
    CHECK(drtopk_batch_filter_takes(32, min_len, cap, 131072, 4096, 0, wide) && drtopk_batch_filter_wide(131072, 4096));
    CHECK(!drtopk_batch_filter_takes(32, min_len, cap, 262144, 2048, 1, words));
    CHECK(drtopk_batch_filter_takes(32, min_len, cap, 262144, 2048, 1, wide) && drtopk_batch_filter_wide(262144, 2048));
    CHECK(!drtopk_batch_filter_takes(32, min_len, cap, 131072, 8192, 0, wide));
    CHECK(!drtopk_batch_filter_wide(131072, 2048) && !drtopk_batch_filter_wide(8192, 2048));
    /* a segment's words: all of it up to a block's words, else the sample's capacity, at least k_s */
    CHECK(drtopk_batch_filter_words(8192, 2048) == 8192 && drtopk_batch_filter_words(100000, 4096) >= 4096);
    CHECK(drtopk_batch_filter_takes(16, min_len, cap, 131072, 2048, 1, words));
    CHECK(drtopk_batch_filter_takes(32, min_len, cap, 131072, 50, 0, words));        /* past the staged select */
    /* ANN's rows: the staged select's list at k = 100, the filter select at k = 1000 */
    CHECK(!drtopk_batch_filter_takes(32, min_len, cap, 10000, 100, 1, words));
    CHECK(drtopk_batch_filter_takes(32, min_len, cap, 10000, 1000, 0, words));
    /* a segment listed whole (at most the filter's words): sorted only, with k_s past 1024, or past 512
     * in at most 5 k_s keys */
    CHECK(drtopk_batch_filter_takes(32, min_len, cap, 8192, 2048, 1, words));
    CHECK(drtopk_batch_filter_takes(32, min_len, cap, 8192, 1025, 1, words));
    CHECK(!drtopk_batch_filter_takes(32, min_len, cap, 8192, 2048, 0, words));
    CHECK(!drtopk_batch_filter_takes(32, min_len, cap, 8192, 512, 1, words));
    CHECK(!drtopk_batch_filter_takes(32, min_len, cap, 2048, 512, 1, words));
    CHECK(drtopk_batch_filter_takes(32, min_len, cap, 4096, 1000, 1, words));
    CHECK(drtopk_batch_filter_takes(32, min_len, cap, 3000, 600, 1, words));
    CHECK(!drtopk_batch_filter_takes(32, min_len, cap, 3001, 600, 1, words));
    CHECK(!drtopk_batch_filter_takes(32, min_len, cap, 4096, 1000, 0, words));
    /* a sorted segment that is its own top k, past 512 keys: listed whole at any filter_min_len but 0 */
    CHECK(drtopk_batch_filter_takes(32, min_len, cap, 700, 700, 1, words));
    CHECK(drtopk_batch_filter_takes(32, min_len, cap, 1024, 1024, 1, words));
    CHECK(!drtopk_batch_filter_takes(32, min_len, cap, 700, 700, 0, words));
    CHECK(!drtopk_batch_filter_takes(32, min_len, cap, 512, 512, 1, words));
    CHECK(!drtopk_batch_filter_takes(32, min_len, cap, 700, 699, 1, words));
    CHECK(!drtopk_batch_filter_takes(32, 0, cap, 700, 700, 1, words));
    CHECK(!drtopk_batch_filter_takes(64, min_len, cap, 700, 700, 1, words));
    /* off: 64-bit keys, filter_min_len 0, segments not longer than it, 2^32 keys and more */
    CHECK(!drtopk_batch_filter_takes(64, min_len, cap, 131072, 2048, 0, words));
    CHECK(!drtopk_batch_filter_takes(32, 0, cap, 131072, 2048, 0, words));
    CHECK(!drtopk_batch_filter_takes(32, 131072, cap, 131072, 2048, 0, words));
    CHECK(!drtopk_batch_filter_takes(32, min_len, cap, 1ull << 32, 2048, 0, words));
    /* the row filter: rows of at least 131072 16-bit keys, k at least 32, whose expected list (the sample's
     * rank r times len / 1024) is at most 1024 words: token sampling's k = 50 of 128K and 256K keys, k = 100
     * of 128K (r = 6: 768), not k = 512 (r = 13: 1,664) or sparse attention's 2048; not k = 31; 32- and
     * 64-bit keys, shorter rows, the filter off: never */
    CHECK(drtopk_batch_rowfilter_takes(16, min_len, 131072, 50));
    CHECK(drtopk_batch_rowfilter_takes(16, min_len, 262144, 50));
    CHECK(drtopk_batch_rowfilter_takes(16, min_len, 131072, 100));
    CHECK(drtopk_batch_rowfilter_takes(16, min_len, 131072, 32));
    CHECK(!drtopk_batch_rowfilter_takes(16, min_len, 131072, 31));
    CHECK(!drtopk_batch_rowfilter_takes(16, min_len, 131072, 1));
    CHECK(!drtopk_batch_rowfilter_takes(16, min_len, 131072, 512));
    CHECK(!drtopk_batch_rowfilter_takes(16, min_len, 131072, 2048));
    CHECK(!drtopk_batch_rowfilter_takes(16, min_len, 131071, 50));
    CHECK(!drtopk_batch_rowfilter_takes(16, min_len, 16384, 50));
    CHECK(!drtopk_batch_rowfilter_takes(16, min_len, 1ull << 20, 50));       /* capacity 8,865 words */
    CHECK(!drtopk_batch_rowfilter_takes(32, min_len, 131072, 50));
    CHECK(!drtopk_batch_rowfilter_takes(64, min_len, 131072, 50));
    CHECK(!drtopk_batch_rowfilter_takes(16, 0, 131072, 50));
    CHECK(!drtopk_batch_rowfilter_takes(16, 131072, 131072, 50));
    CHECK(drtopk_batch_rowfilter_takes(16, 131071, 131072, 50));
}

__attribute__((constructor)) static void register_batch_tests(void)
{
    test_register("batch: uniform rows, every key type, order, sortedness, ties, NaN", uniform_rows_every_type);
    test_register("batch: random segments (empty, one element, k > length, per-segment k)", segments_random);
    test_register("batch: clamp and padding of short and empty segments", segments_clamp_and_padding);
    test_register("batch: float order (NaN above +inf, -0.0 == +0.0, ties by position)", segments_float_order);
    test_register("batch: argument errors of plan, workspace and select", batch_argument_errors);
    test_register("batch: dh_batch_check catches broken results", batch_check_catches_errors);
    test_register("batch: drtopk_batch_topk plans, sizes and runs in one call", batch_topk_one_call);
    test_register("batch: the rows handed to the single top-k get the planner's plan", batch_rows_ask_the_planner);
    test_register("batch: the Dr. pipeline's workspace bounds hold for any segment lengths", dr_workspace_bounds);
    test_register("batch: the Dr. delegate select's grid: the most delegates of a segment", dr_delegates_max);
    test_register("batch: Rule 1 over compare words (host model of the Dr. steps 1-3)", dr_rule1_words);
    test_register("batch: which select the binning gives a segment (batch_spec.h)", segment_routing);
}
