/*
 * test_onepass.c -- GPU suite of the one-read top-k (DRTOPK_ALGO_ONEPASS,
 * issue 15 item 1; src/lib/onepass_spec.h, kernels/onepass.cu) against the
 * CPU reference, which takes the same steps (cpu_ref.c), on identical seeded
 * data.  Each case runs the CUDA backend and the CPU backend and checks:
 *  - the GPU result is exact (harness oracle: distinct in-range indices,
 *    values equal to V at them, multiset of values equal to the oracle's);
 *  - the same multiset of values as the CPU reference;
 *  - the same workload (drtopk_stats: sample size, sample rank, keys at or
 *    above the threshold, fallback taken), so both backends decided alike.
 * Cases: every key width, read at its own width (u32 i32 f32; f16 bf16; u64
 * i64 f64), largest and smallest, every distribution (UD ND CD, sorted
 * ASC/DESC, heavy ties FEW, all-equal EQ, SPECIAL: NaN, +-inf, +-0.0, integer
 * extremes), n tiny to 2^20 and not powers of two (below and above the sample
 * size), k = 1, small, large and n; a spike (the top k in one run of V); and
 * inputs built against the sampled positions that force each side of the
 * fallback: threshold too low (the candidate buffer overflows) and too high
 * (fewer than k keys pass), both still exact and both reported as a fallback
 * (u32, f16 and u64 / f64: the fallback at each width).  Output: gpu_test.h's
 * lines, last "N passed, N failed".
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
#define FORCE_K 1000                   /* k well above the sample rank r          */
#define DESC_LEN 200


/* One case; want_fallback: -1 either way, else the fallback must (1) or must
 * not (0) have run. */
static void run_case(const data *d, uint64_t k, int want_fallback)
{
    char desc[DESC_LEN];
    const size_t es = drtopk_dtype_size(d->t);
    void *gv = malloc(k * es), *cv = malloc(k * es);
    uint64_t *gi = malloc(k * sizeof *gi), *ci = malloc(k * sizeof *ci);
    drtopk_stats gs, cs;
    snprintf(desc, sizeof desc, "onepass %s %s %s n=%" PRIu64 " k=%" PRIu64, d->name, drtopk_dtype_name(d->t),
             d->o == DRTOPK_LARGEST ? "largest" : "smallest", d->n, k);
    if (!gv || !cv || !gi || !ci) {
        gt_check(0, desc, "out of host memory");
        goto out;
    }
    drtopk_status s = run_side(d, DRTOPK_ALGO_ONEPASS, DRTOPK_BACKEND_CUDA, k, gv, gi, &gs, SUITE_SEED);
    if (s != DRTOPK_OK) {
        gt_check(0, desc, "cuda: %s (%s)", drtopk_status_string(s), drtopk_last_error());
        goto out;
    }
    if ((s = run_side(d, DRTOPK_ALGO_ONEPASS, DRTOPK_BACKEND_CPU, k, cv, ci, &cs, SUITE_SEED)) != DRTOPK_OK) {
        gt_check(0, desc, "cpu: %s (%s)", drtopk_status_string(s), drtopk_last_error());
        goto out;
    }
    drtopk_problem hp = { DRTOPK_BACKEND_CPU, d->t, d->o, d->n, k, d->host };
    drtopk_check_result r = drtopk_check(&hp, gv, gi, NULL);
    if (!r.ok) {
        gt_check(0, desc, "gpu result not exact: %s", r.why);
        goto out;
    }
    uint64_t *gk = sorted_keys(d, gv, k), *ck = sorted_keys(d, cv, k);
    const int same = gk && ck && memcmp(gk, ck, k * sizeof *gk) == 0;
    free(gk);
    free(ck);
    if (!same) {
        gt_check(0, desc, "gpu and cpu values differ");
        goto out;
    }
    if (gs.delegate_len != cs.delegate_len || gs.first_selected != cs.first_selected ||
        gs.concat_len != cs.concat_len || gs.scanned_subranges != cs.scanned_subranges) {
        gt_check(0, desc,
                 "workload differs: gpu S=%" PRIu64 " r=%" PRIu64 " passed=%" PRIu64 " fallback=%" PRIu64
                 ", cpu S=%" PRIu64 " r=%" PRIu64 " passed=%" PRIu64 " fallback=%" PRIu64,
                 gs.delegate_len, gs.first_selected, gs.concat_len, gs.scanned_subranges, cs.delegate_len,
                 cs.first_selected, cs.concat_len, cs.scanned_subranges);
        goto out;
    }
    if (want_fallback >= 0 && (int)gs.scanned_subranges != want_fallback) {
        gt_check(0, desc, "fallback %s expected, stats say %" PRIu64, want_fallback ? "" : "not", gs.scanned_subranges);
        goto out;
    }
    gt_check(1, desc, "");
out:
    free(gv);
    free(cv);
    free(gi);
    free(ci);
}

/* The constructions' 32-bit ordered keys at another width, order kept where
 * they need it: 16 bits keep the top two bits (the spike's and the forced
 * inputs' classes) and the low 14 (distinct sample keys); 64 bits repeat the
 * key in both halves. */
#define FOLD16_TOP 0xC000u
#define FOLD16_LOW 0x3FFFu
#define FOLD16_SHIFT 16
static uint64_t fold_key(uint32_t key, drtopk_dtype t)
{
    switch (drtopk_dtype_bits(t)) {
    case 16: return ((key >> FOLD16_SHIFT) & FOLD16_TOP) | (key & FOLD16_LOW);
    case 32: return key;
    default: return (uint64_t)key << 32 | key;
    }
}

/* Built data of dtype t: key(i) = f(i) folded to t's width (largest order);
 * name says which construction. */
static int data_built(data *d, drtopk_dtype t, uint64_t n, const char *name,
                      uint32_t (*f)(uint64_t i, uint64_t n, uint64_t k), uint64_t k)
{
    memset(d, 0, sizeof *d);
    d->t = t;
    d->o = DRTOPK_LARGEST;
    d->n = n;
    snprintf(d->name, sizeof d->name, "%s", name);
    if ((d->host = malloc(n * drtopk_dtype_size(t))) == NULL) return -1;
    for (uint64_t i = 0; i < n; ++i) drtopk_bits_store(d->host, i, t, drtopk_bits_from_key_any(fold_key(f(i, n, k), t), t));
    return data_upload(d);
}

static void constructed(int small)
{
    static const drtopk_dtype dts[] = { DRTOPK_U32, DRTOPK_F16, DRTOPK_U64, DRTOPK_F64 };
    const uint64_t n = small ? FORCE_N_SMALL : FORCE_N;
    const uint64_t spike_k[] = { 1, 100, n / 64 };
    data d;
    for (size_t t = 0; t < sizeof dts / sizeof dts[0]; ++t) {
        if (data_built(&d, dts[t], n, "force-low", onepass_force_low, FORCE_K) == 0) run_case(&d, FORCE_K, 1);
        data_free(&d);
        if (data_built(&d, dts[t], n, "force-high", onepass_force_high, FORCE_K) == 0) run_case(&d, FORCE_K, 1);
        data_free(&d);
        for (size_t i = 0; i < sizeof spike_k / sizeof spike_k[0]; ++i) {
            if (data_built(&d, dts[t], n, "spike", onepass_spike, spike_k[i]) == 0) run_case(&d, spike_k[i], -1);
            data_free(&d);
        }
    }
}

/* k values of one n: 1, a few, large, n. */
static size_t ks_for(uint64_t n, uint64_t *ks)
{
    const uint64_t cand[] = { 1, 17, n / 1000 + 1, n / 64 + 3, n / 3, n - 1, n };
    size_t c = 0;
    for (size_t i = 0; i < sizeof cand / sizeof cand[0]; ++i) {
        const uint64_t k = cand[i];
        int dup = k < 1 || k > n;
        for (size_t j = 0; j < c && !dup; ++j) dup = ks[j] == k;
        if (!dup) ks[c++] = k;
    }
    return c;
}

/* size: 0 full, 1 --small (memcheck), 2 --tiny (racecheck) */
static void seeded(int size)
{
    static const uint64_t ns_full[] = { 1, 7, 1000, 32767, 32769, 100003, (1u << 20) + 5 };
    static const uint64_t ns_small[] = { 7, 1000, 40009 };
    static const uint64_t ns_tiny[] = { 40009 };
    static const drtopk_dtype dts[] = { DRTOPK_U32, DRTOPK_I32, DRTOPK_F32, DRTOPK_F16,
                                        DRTOPK_BF16, DRTOPK_U64, DRTOPK_I64, DRTOPK_F64 };
    const uint64_t *ns = size == 0 ? ns_full : size == 1 ? ns_small : ns_tiny;
    const size_t nn = size == 0 ? sizeof ns_full / sizeof ns_full[0]
                      : size == 1 ? sizeof ns_small / sizeof ns_small[0] : 1;
    uint64_t ks[8];
    for (size_t a = 0; a < nn; ++a)
        for (int dist = 0; dist < DRTOPK_DIST_COUNT; ++dist)
            for (size_t t = 0; t < sizeof dts / sizeof dts[0]; ++t)
                for (int o = 0; o <= 1; ++o) {
                    data d;
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
                    if (data_seeded(&d, SUITE_SEED, ns[a], (drtopk_dist)dist, dts[t], (drtopk_order)o) == 0) {
                        const size_t nk = ks_for(ns[a], ks);
                        for (size_t i = 0; i < nk; ++i) run_case(&d, ks[i], -1);
                    } else {
                        gt_check(0, "onepass data", "cannot prepare n=%" PRIu64, ns[a]);
                    }
                    data_free(&d);
                }
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
    if (!drtopk_cuda_available()) return gt_no_gpu("test_onepass");
    statuses();
    constructed(size > 0);
    seeded(size);
    return gt_finish();
}
