/*
 * test_onepass.c -- the one-read top-k on the CPU reference (DRTOPK_ALGO_ONEPASS;
 * src/lib/onepass_spec.h, cpu_ref.c): its specification (sample positions,
 * rank, capacity, the decision, whether a deterministic TAKE lists its
 * ties), exact results against the oracle over every key type, order and
 * distribution with n below and above the sample size, the workload it
 * reports (select, take and both sides of the fallback, forced by inputs
 * built against the sampled positions:
 * tests/gpu/onepass_data.h, at every key type and order), and how plans
 * reach it (standalone only; a tuning entry naming it gives the standalone
 * plan); and the fused top-k's launch shape, which samples with this
 * specification (fused_spec.h: where it reads V once).
 */
#include <stdlib.h>
#include <string.h>

#include "test_harness.h"
#include "gen.h"
#include "fused_spec.h"
#include "keyorder.h"
#include "oracle.h"
#include "../gpu/onepass_data.h"

#define OP_SEED 0x0E9A55C0ull
#define OP_FORCE_N ((1u << 16) + 3)   /* n well above the sample size           */
#define OP_FORCE_K 1000               /* above the sample rank r at OP_FORCE_N   */
#define OP_DESC 200

static drtopk_plan op_plan(void)
{
    drtopk_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.first_algo = plan.second_algo = DRTOPK_ALGO_ONEPASS;
    return plan;
}

/* Select with onepass on the CPU; check exactness against the oracle and the
 * workload's invariants; return its stats. */
static drtopk_stats op_run(const drtopk_problem *p, const char *desc)
{
    const drtopk_plan plan = op_plan();
    const size_t es = drtopk_dtype_size(p->dtype);
    const uint64_t s = drtopk_onepass_sample_len(p->n);
    drtopk_stats st;
    size_t bytes = 0;
    test_context(desc);
    CHECK_STATUS(drtopk_select_workspace(p, &plan, &bytes), DRTOPK_OK);
    void *ws = malloc(bytes), *v = malloc(p->k * es), *ov = malloc(p->k * es);
    uint64_t *idx = malloc(p->k * sizeof *idx), *oi = malloc(p->k * sizeof *oi);
    CHECK(ws && v && ov && idx && oi);
    CHECK_STATUS(drtopk_select(p, &plan, ws, bytes, v, idx, NULL, &st), DRTOPK_OK);
    CHECK_STATUS(dh_oracle_topk(p, ov, oi), DRTOPK_OK);
    dh_check_result r = dh_check(p, v, idx, ov);
    CHECKF(r.ok, "%s: %s", desc, r.why);
    CHECKF(st.delegate_len == s && st.first_selected == drtopk_onepass_rank(p->n, p->k, s), "%s: S %" PRIu64
           " r %" PRIu64, desc, st.delegate_len, st.first_selected);
    CHECKF(st.scanned_subranges <= 1, "%s: fallback %" PRIu64, desc, st.scanned_subranges);
    /* the r sampled keys at or above t are keys of V; ties count up to k */
    const uint64_t least = st.first_selected < p->k ? st.first_selected : p->k;
    CHECKF(st.concat_len >= least && st.concat_len <= p->n, "%s: passed %" PRIu64, desc, st.concat_len);
    if (s == p->n) CHECKF(st.scanned_subranges == 0, "%s: the whole V sampled, yet a fallback", desc);
    free(ws);
    free(v);
    free(ov);
    free(idx);
    free(oi);
    return st;
}

static void spec(void)
{
    const uint64_t ns[] = { 1, 2, 1000, DRTOPK_ONEPASS_SAMPLE, DRTOPK_ONEPASS_SAMPLE + 1, 1000003, 1ull << 40 };
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; ++a) {
        const uint64_t n = ns[a], s = drtopk_onepass_sample_len(n);
        CHECK(s >= 1 && s <= n && s <= DRTOPK_ONEPASS_SAMPLE);
        CHECK_EQ_U64(drtopk_onepass_sample_pos(n, s, 0), 0);
        CHECK(drtopk_onepass_sample_pos(n, s, s - 1) < n);
        for (uint64_t j = 1; j < s; ++j)
            CHECKF(drtopk_onepass_sample_pos(n, s, j) > drtopk_onepass_sample_pos(n, s, j - 1), "n %" PRIu64
                   " j %" PRIu64, n, j);
        const uint64_t ks[] = { 1, 2, n / 2 + 1, n };
        for (size_t b = 0; b < sizeof ks / sizeof ks[0]; ++b) {
            const uint64_t k = ks[b] > n ? n : ks[b], r = drtopk_onepass_rank(n, k, s);
            const uint64_t cap = drtopk_onepass_capacity(n, k, s, r);
            CHECK(r >= 1 && r <= s);
            if (s == n) CHECK_EQ_U64(r, k);
            CHECK(cap >= k && cap <= n);
        }
    }
    /* the decision (k = 10, cap = 20) */
    CHECK(drtopk_onepass_decide(21, 0, 10, 20) == DRTOPK_ONEPASS_FALLBACK);   /* overflow */
    CHECK(drtopk_onepass_decide(5, 4, 10, 20) == DRTOPK_ONEPASS_FALLBACK);    /* too few */
    CHECK(drtopk_onepass_decide(20, 0, 10, 20) == DRTOPK_ONEPASS_SELECT);
    CHECK(drtopk_onepass_decide(10, 7, 10, 20) == DRTOPK_ONEPASS_SELECT);
    CHECK(drtopk_onepass_decide(9, 1, 10, 20) == DRTOPK_ONEPASS_TAKE);
    CHECK(drtopk_onepass_decide(0, 1000, 10, 20) == DRTOPK_ONEPASS_TAKE);
    /* a deterministic TAKE's tie list, at 2^30 keys (S = 2^15) of f16 UD:
     * 2^18 copies of each key near the top, about 8 of them sampled */
    const uint64_t g = 1ull << 30, sg = DRTOPK_ONEPASS_SAMPLE, list = 1u << 22;
    CHECK(drtopk_onepass_lists_ties(g, 1u << 16, sg, 0, 9, list));   /* m / E ~ 2 / 9 of V: list */
    CHECK(!drtopk_onepass_lists_ties(g, 1u << 10, sg, 0, 8, list));  /* 1 / 256: the fix-up reads less */
    CHECK(!drtopk_onepass_lists_ties(g, 1u << 20, sg, 48, 8, list)); /* a SELECT */
    CHECK(drtopk_onepass_lists_ties(g, 1u << 16, sg, 1, 32, list));  /* (2 - 1) / 32: at the bound */
    CHECK(!drtopk_onepass_lists_ties(g, 1u << 16, sg, 1, 33, list));
    CHECK(!drtopk_onepass_lists_ties(g, 1u << 26, sg, 0, sg / 7, list)); /* FEW: 2^30 / 7 ties, past the list */
    CHECK(drtopk_onepass_lists_ties(g, 1u << 26, sg, 0, 128, list)); /* 2^22 ties: the list holds them */
    CHECK(!drtopk_onepass_lists_ties(g, 1u << 26, sg, 0, 129, list));
}

/* Every key type, order and distribution; n below and above the sample. */
static void seeded(void)
{
    const uint64_t ns[] = { 1, 5, 1000, 40009 };
    char desc[OP_DESC];
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; ++a) {
        const uint64_t n = ns[a];
        const uint64_t ks[] = { 1, 17, n / 64 + 3, n / 3, n };
        void *v = malloc(n * sizeof(uint64_t));
        CHECK(v != NULL);
        for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t)
            for (int d = 0; d < DRTOPK_DIST_COUNT; ++d) {
                dh_gen_host(v, n, (dh_dist)d, (drtopk_dtype)t, OP_SEED + n);
                for (int o = 0; o <= 1; ++o)
                    for (size_t b = 0; b < sizeof ks / sizeof ks[0]; ++b) {
                        const uint64_t k = ks[b] < 1 ? 1 : ks[b] > n ? n : ks[b];
                        drtopk_problem p = { DRTOPK_BACKEND_CPU, (drtopk_dtype)t, (drtopk_order)o, n, k, v };
                        snprintf(desc, sizeof desc, "onepass %s %s %s n=%" PRIu64 " k=%" PRIu64,
                                 drtopk_dtype_name(p.dtype), dh_dist_name((dh_dist)d),
                                 o ? "smallest" : "largest", n, k);
                        const drtopk_stats st = op_run(&p, desc);
                        if (d == DRTOPK_DIST_EQ)      /* all equal: every key ties t (k kept), no fallback */
                            CHECKF(st.concat_len == k && st.scanned_subranges == 0, "%s: passed %" PRIu64, desc,
                                   st.concat_len);
                    }
            }
        free(v);
    }
}

static drtopk_stats built(uint32_t (*f)(uint64_t, uint64_t, uint64_t), drtopk_dtype t, drtopk_order o, uint64_t n,
                          uint64_t k, const char *name)
{
    char desc[OP_DESC];
    void *v = malloc(n * drtopk_dtype_size(t));
    CHECK(v != NULL);
    for (uint64_t i = 0; i < n; ++i) drtopk_bits_store(v, i, t, onepass_bits(f(i, n, k), t, o));
    drtopk_problem p = { DRTOPK_BACKEND_CPU, t, o, n, k, v };
    snprintf(desc, sizeof desc, "onepass %s %s %s n=%" PRIu64 " k=%" PRIu64, name, drtopk_dtype_name(t),
             o ? "smallest" : "largest", n, k);
    const drtopk_stats st = op_run(&p, desc);
    free(v);
    return st;
}

/* Both sides of the fallback, forced, stay exact; a spike passes without
 * one: at every key type and order (onepass_bits keeps the constructions'
 * order: no key of them folds into a NaN or a zero). */
static void fallback(void)
{
    const uint64_t n = OP_FORCE_N, k = OP_FORCE_K, s = drtopk_onepass_sample_len(n);
    const uint64_t r = drtopk_onepass_rank(n, k, s);
    CHECK(r < k);                     /* the too-high case needs it */
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t)
        for (int o = 0; o <= 1; ++o) {
            const drtopk_dtype dt = (drtopk_dtype)t;
            const drtopk_order od = (drtopk_order)o;
            const char *tn = drtopk_dtype_name(dt);
            drtopk_stats st = built(onepass_force_low, dt, od, n, k, "force-low");
            CHECKF(st.scanned_subranges == 1 && st.concat_len > drtopk_onepass_capacity(n, k, s, r),
                   "force-low %s order %d: fallback %" PRIu64 " passed %" PRIu64, tn, o, st.scanned_subranges,
                   st.concat_len);
            /* the sampled keys at or above t pass: r, and their ties (16-bit keys) */
            st = built(onepass_force_high, dt, od, n, k, "force-high");
            CHECKF(st.scanned_subranges == 1 && st.concat_len >= r && st.concat_len < k,
                   "force-high %s order %d: fallback %" PRIu64 " passed %" PRIu64, tn, o, st.scanned_subranges,
                   st.concat_len);
            st = built(onepass_spike, dt, od, n, n / 64, "spike");
            CHECKF(st.scanned_subranges == 0 && st.concat_len >= n / 64, "spike %s order %d: fallback %" PRIu64, tn,
                   o, st.scanned_subranges);
            /* a plateau of ties at t before the keys above it: t is the
             * plateau's key; TAKE keeps g = k/2 candidates and k - g ties,
             * SELECT the g > k candidates and no tie */
            st = built(onepass_ties_take, dt, od, n, k, "ties-take");
            CHECKF(st.scanned_subranges == 0 && st.concat_len == k, "ties-take %s order %d: fallback %" PRIu64
                   " kept %" PRIu64, tn, o, st.scanned_subranges, st.concat_len);
            st = built(onepass_ties_select, dt, od, n, k, "ties-select");
            CHECKF(st.scanned_subranges == 0 && st.concat_len == k + n / (2 * s), "ties-select %s order %d: fallback %"
                   PRIu64 " kept %" PRIu64, tn, o, st.scanned_subranges, st.concat_len);
        }
}

/* Plans: standalone only, and from a tuning entry. */
static void plans(void)
{
    uint32_t v[100] = { 0 };
    drtopk_problem p = { DRTOPK_BACKEND_CPU, DRTOPK_U32, DRTOPK_LARGEST, 100, 10, v };
    drtopk_plan plan = op_plan();
    size_t bytes;
    plan.flags = DRTOPK_DELEGATE;
    plan.alpha = 3;
    plan.beta = 2;
    CHECK_STATUS(drtopk_select_workspace(&p, &plan, &bytes), DRTOPK_ERR_UNSUPPORTED);
    CHECK(strstr(drtopk_last_error(), "standalone") != NULL);
    plan.second_algo = DRTOPK_ALGO_RADIX;       /* as the first top-k only */
    CHECK_STATUS(drtopk_select_workspace(&p, &plan, &bytes), DRTOPK_ERR_UNSUPPORTED);
    const drtopk_tuning_entry e = { DRTOPK_U32, 0, 63, 0, 63, DRTOPK_ALGO_ONEPASS, 2, 3.0, 0 };
    const drtopk_tuning t = { "test", &e, 1, 0 };
    CHECK_STATUS(drtopk_plan_auto(&plan, &p, &t), DRTOPK_OK);
    CHECK(plan.flags == 0 && plan.first_algo == DRTOPK_ALGO_ONEPASS && plan.second_algo == DRTOPK_ALGO_ONEPASS);
    CHECK(plan.const_source == DRTOPK_CONST_TUNING);
    CHECK_STATUS(drtopk_select_workspace(&p, &plan, &bytes), DRTOPK_OK);
    drtopk_algo a;
    int dr;
    CHECK_STATUS(drtopk_algo_parse("onepass", &a, &dr), DRTOPK_OK);
    CHECK(a == DRTOPK_ALGO_ONEPASS && dr == 0);
}

/* The fused top-k's shape where an H200 runs it (the opt-in shared memory
 * 232,448 bytes less SN_STATIC_SMEM_MAX, one 1024-thread block on each of
 * 132 SMs): one read of V where the chunks fit shared memory or the sampled
 * candidates fit the lists, digit passes over HBM where neither does.  The
 * 64-bit cases are the lists' edges there (a block's share of the spec's
 * capacity and SN_LIST_SD standard deviations): at 2^29 - 1 keys the lists
 * hold k = 4096, at 2^28 keys 65536, at 2^26 keys 2^18. */
static void fused_shape(void)
{
    const size_t room = 232448 - SN_STATIC_SMEM_MAX;
    const uint64_t sms = 132;
    drtopk_fused_shape s = drtopk_fused_shape_of(4, 1000, 10, room, sms);
    CHECK(s.grid == 1 && s.chunk == 1000 && s.resident && !s.sampled && drtopk_fused_reads_once(&s));
    s = drtopk_fused_shape_of(4, 1u << 20, 1024, room, sms);           /* 4 MB over 132 blocks: in shared memory */
    CHECK(s.grid == sms && s.resident && !s.sampled && drtopk_fused_reads_once(&s));
    s = drtopk_fused_shape_of(4, 1u << 24, 1024, room, sms);           /* 64 MB: sampled */
    CHECK(s.sampled && !s.resident && drtopk_fused_reads_once(&s));
    CHECK(s.list_cap % 4 == 0 && s.list_cap * (4 + sizeof(uint32_t)) <= room && s.cand_cap == s.list_cap - 1024);
    CHECK((double)s.cap / s.grid + SN_LIST_SD * sqrt((double)s.cap / s.grid) <= s.cand_cap);
    const struct { uint64_t n, k; int once; } u64[] = {
        { (1ull << 29) - 1, 4096, 1 }, { (1ull << 29) - 1, 8192, 0 }, { 451452825, 8192, 1 },
        { 451452825, 16384, 0 }, { 1ull << 28, 65536, 1 }, { 1ull << 28, 1u << 17, 0 },
        { 1ull << 26, 1u << 18, 1 }, { 1ull << 26, 1u << 19, 0 },
    };
    for (size_t i = 0; i < sizeof u64 / sizeof *u64; ++i) {
        s = drtopk_fused_shape_of(8, u64[i].n, u64[i].k, room, sms);
        CHECKF(drtopk_fused_reads_once(&s) == u64[i].once, "u64 n %llu k %llu: reads once %d, want %d",
                  (unsigned long long)u64[i].n, (unsigned long long)u64[i].k, drtopk_fused_reads_once(&s),
                  u64[i].once);
    }
    s = drtopk_fused_shape_of(4, 1u << 24, 1024, room, 1);              /* no cooperative launch: one block */
    CHECK(s.grid == 1 && s.chunk == 1u << 24 && !drtopk_fused_reads_once(&s) && !s.guess);
    /* the passes over V in global memory start from the sample's bracket (test_small_n's sizes), but
     * for 16-bit keys */
    const struct { size_t bytes; uint64_t n; int guess; } wide[] = {
        { 8, (1ull << 22) + 3, 1 }, { 4, (1ull << 23) + 3, 1 }, { 2, (1ull << 24) + 3, 0 } };
    for (size_t i = 0; i < sizeof wide / sizeof *wide; ++i) {
        s = drtopk_fused_shape_of(wide[i].bytes, wide[i].n, wide[i].n / 4, room, sms);
        CHECKF(s.guess == wide[i].guess && !drtopk_fused_reads_once(&s) && s.r_hi >= 1 && s.r_hi < s.r,
               "%zu-byte keys, n %llu, k n/4: guess %d, once %d, r_hi %u, r %u", wide[i].bytes,
               (unsigned long long)wide[i].n, s.guess, drtopk_fused_reads_once(&s), s.r_hi, s.r);
    }
    s = drtopk_fused_shape_of(4, 1u << 24, 1024, room, sms);            /* sampled: no guess */
    CHECK(s.sampled && !s.guess);
    s = drtopk_fused_shape_of(4, 1u << 20, 1u << 18, room, sms);         /* in shared memory: no guess */
    CHECK(s.resident && !s.guess);
    CHECK(drtopk_fused_rank_hi(1u << 20, 1, SN_SAMPLE) == 1 && drtopk_fused_rank_hi(100, 7, SN_SAMPLE) == 7);
}

__attribute__((constructor)) static void register_onepass_tests(void)
{
    test_register("onepass/spec", spec);
    test_register("onepass/seeded_exact", seeded);
    test_register("onepass/fallback_forced", fallback);
    test_register("onepass/plans", plans);
    test_register("onepass/fused_shape", fused_shape);
}
