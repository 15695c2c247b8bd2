/*
 * test_check.c -- GPU suite of the result checker on the device (device.h
 * dh_dev_check, src/harness/device_check.cu), which verifies every row of the
 * tuner's sweeps, held to the host checker (oracle.h dh_check) on the same
 * results.  For every key type and order, on seeded data of several
 * distributions (ties, all-equal, NaN / +-inf / +-0.0) and sizes (one
 * element, below and above one block, many blocks of the grid-stride loops),
 * the oracle's exact top-k and five results made from it:
 *   exact                           both pass;
 *   an equal key from outside       both pass (a tie at the k-th key);
 *   an index out of range           both fail, with the same message;
 *   a value not V at its index      both fail, with the same message;
 *   a lesser key from outside       both fail (the count), the same message;
 *   an index twice                  both fail, with the same message.
 * Output: gpu_test.h's lines, last "N passed, N failed".
 *   test_check [--small]            (memcheck- and racecheck-sized cases)
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
#include "oracle.h"

#define SUITE_SEED 0xC4ECull
#define BIG_N ((1u << 24) + 3)         /* many blocks of CHECK_MAX_BLOCKS x CHECK_BLOCK threads, each looping */

static const drtopk_dtype all_types[] = { DRTOPK_U32, DRTOPK_I32, DRTOPK_F32, DRTOPK_F16,
                                          DRTOPK_BF16, DRTOPK_U64, DRTOPK_I64, DRTOPK_F64 };
static const dh_dist all_dists[] = { DRTOPK_DIST_UD, DRTOPK_DIST_ND, DRTOPK_DIST_FEW, DRTOPK_DIST_EQ,
                                     DRTOPK_DIST_SPECIAL };
static const char *dist_names[DRTOPK_DIST_COUNT] = { "UD", "ND", "CD", "ASC", "DESC", "FEW", "EQ", "SPECIAL" };

typedef struct {
    drtopk_problem hp;          /* V on the host */
    void *dv;                   /* V on the device */
    void *val, *dval;           /* a result, host and device */
    uint64_t *idx, *didx;
    unsigned char *in_result;   /* the exact result's positions */
    const char *name;
} fixture;

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "test_check: out of host memory\n");
        exit(2);
    }
    return p;
}

static void dev_ok(drtopk_status st, const char *what)
{
    if (st != DRTOPK_OK) {
        fprintf(stderr, "test_check: %s: %s\n", what, drtopk_status_string(st));
        exit(2);
    }
}

/* Both checkers on f's result; checks the verdicts are `want` and agree.
 * same_text: the messages must be equal too (a failure both locate alike). */
static void both(fixture *f, int want, int same_text, const char *what)
{
    const size_t es = drtopk_dtype_size(f->hp.dtype);
    drtopk_problem dp = f->hp;
    dh_check_result h = dh_check(&f->hp, f->val, f->idx, NULL), d;
    dev_ok(dh_dev_copy(f->dval, f->val, f->hp.k * es, DRTOPK_COPY_H2D), "copy the result");
    dev_ok(dh_dev_copy(f->didx, f->idx, f->hp.k * sizeof *f->idx, DRTOPK_COPY_H2D), "copy the indices");
    dp.values = f->dv;
    dev_ok(dh_dev_check(&dp, f->dval, f->didx, &d), "dh_dev_check");
    char why[2 * sizeof h.why + 64];   /* both messages whole */
    snprintf(why, sizeof why, "want %s; host %s (%s), device %s (%s)", want ? "pass" : "fail",
             h.ok ? "pass" : "fail", h.why, d.ok ? "pass" : "fail", d.why);
    int ok = h.ok == want && d.ok == want;
    if (ok && same_text && strcmp(h.why, d.why) != 0) ok = 0;
    gt_checkf(ok, why, "%s: %s", f->name, what);
    dev_ok(dh_dev_clear_error(), "a CUDA error left pending");
}

/* Put the exact result back into f->val / f->idx. */
static void restore(fixture *f, const void *val, const uint64_t *idx)
{
    memcpy(f->val, val, f->hp.k * drtopk_dtype_size(f->hp.dtype));
    memcpy(f->idx, idx, f->hp.k * sizeof *idx);
}

/* Least key of the exact result, and a position of it there. */
static uint64_t least_key(const fixture *f, uint64_t *at)
{
    uint64_t m = UINT64_MAX;
    for (uint64_t i = 0; i < f->hp.k; ++i) {
        const uint64_t key = drtopk_key_at(f->val, i, f->hp.dtype, f->hp.order);
        if (key < m) { m = key; *at = i; }
    }
    return m;
}

/* A position of V outside the exact result whose key compares to m as `cmp`
 * (0: equal, -1: below); n when there is none. */
static uint64_t outside(const fixture *f, uint64_t m, int cmp)
{
    for (uint64_t j = 0; j < f->hp.n; ++j) {
        if (f->in_result[j]) continue;
        const uint64_t key = drtopk_key_at(f->hp.values, j, f->hp.dtype, f->hp.order);
        if ((cmp == 0 && key == m) || (cmp < 0 && key < m)) return j;
    }
    return f->hp.n;
}

static void one_case(drtopk_dtype t, drtopk_order o, dh_dist d, uint64_t n, uint64_t k)
{
    const size_t es = drtopk_dtype_size(t);
    char name[GT_NAME_MAX];
    fixture f;
    memset(&f, 0, sizeof f);
    snprintf(name, sizeof name, "%s %s %s n=%" PRIu64 " k=%" PRIu64, drtopk_dtype_name(t),
             o == DRTOPK_LARGEST ? "largest" : "smallest", dist_names[d], n, k);
    f.name = name;
    f.hp = (drtopk_problem){ .backend = DRTOPK_BACKEND_CPU, .dtype = t, .order = o, .n = n, .k = k };
    void *hv = xmalloc(n * es);
    dh_gen_host(hv, n, d, t, SUITE_SEED + n);
    f.hp.values = hv;
    void *exact_v = xmalloc(k * es);
    uint64_t *exact_i = xmalloc(k * sizeof *exact_i);
    f.val = xmalloc(k * es);
    f.idx = xmalloc(k * sizeof *f.idx);
    f.in_result = calloc(n, 1);
    if (f.in_result == NULL) exit(2);
    dev_ok(dh_oracle_topk(&f.hp, exact_v, exact_i), "the oracle");
    for (uint64_t i = 0; i < k; ++i) f.in_result[exact_i[i]] = 1;
    dev_ok(dh_dev_alloc(&f.dv, n * es), "allocate V");
    dev_ok(dh_dev_alloc(&f.dval, k * es), "allocate the result");
    dev_ok(dh_dev_alloc((void **)&f.didx, k * sizeof *f.didx), "allocate the indices");
    dev_ok(dh_dev_copy(f.dv, hv, n * es, DRTOPK_COPY_H2D), "copy V");

    restore(&f, exact_v, exact_i);
    both(&f, 1, 1, "exact");

    uint64_t at = 0;
    const uint64_t m = least_key(&f, &at);
    const uint64_t last = k - 1;
    uint64_t j = outside(&f, m, 0);
    if (j < n) {
        drtopk_bits_store(f.val, at, t, drtopk_bits_at(hv, j, t));
        f.idx[at] = j;
        both(&f, 1, 1, "an equal key from outside the result");
        restore(&f, exact_v, exact_i);
    }

    f.idx[last] = n + last;
    both(&f, 0, 1, "an index out of range");
    restore(&f, exact_v, exact_i);

    drtopk_bits_store(f.val, last, t, drtopk_bits_at(f.val, last, t) ^ 1u);
    both(&f, 0, 1, "a value that is not V at its index");
    restore(&f, exact_v, exact_i);

    j = outside(&f, m, -1);
    if (j < n) {
        drtopk_bits_store(f.val, at, t, drtopk_bits_at(hv, j, t));
        f.idx[at] = j;
        both(&f, 0, 1, "a lesser key from outside the result");
        restore(&f, exact_v, exact_i);
    }

    if (k >= 2) {
        drtopk_bits_store(f.val, last, t, drtopk_bits_at(f.val, 0, t));
        f.idx[last] = f.idx[0];
        both(&f, 0, 1, "an index twice");
    }

    dh_dev_free(f.dv);
    dh_dev_free(f.dval);
    dh_dev_free(f.didx);
    free(hv); free(exact_v); free(exact_i); free(f.val); free(f.idx); free(f.in_result);
}

int main(int argc, char **argv)
{
    gt_begin();
    const int small = argc == 2 && strcmp(argv[1], "--small") == 0;
    if (argc > 2 || (argc == 2 && !small)) {
        fprintf(stderr, "usage: %s [--small]\n", argv[0]);
        return 2;
    }
    if (!dh_cuda_available()) return gt_no_gpu("test_check");
    const uint64_t sizes[] = { 1, 37, 1000, 70001 };
    const size_t nsizes = small ? 3 : 4;
    for (size_t a = 0; a < sizeof all_types / sizeof *all_types; ++a)
        for (int o = DRTOPK_LARGEST; o <= DRTOPK_SMALLEST; ++o)
            for (size_t b = 0; b < sizeof all_dists / sizeof *all_dists; ++b)
                for (size_t s = 0; s < nsizes; ++s) {
                    const uint64_t n = sizes[s];
                    one_case(all_types[a], (drtopk_order)o, all_dists[b], n, 1);
                    if (n > 2) one_case(all_types[a], (drtopk_order)o, all_dists[b], n, n / 3 + 1);
                    if (n > 1) one_case(all_types[a], (drtopk_order)o, all_dists[b], n, n);
                }
    if (!small) {
        one_case(DRTOPK_U32, DRTOPK_LARGEST, DRTOPK_DIST_UD, BIG_N, 1000);
        one_case(DRTOPK_F64, DRTOPK_SMALLEST, DRTOPK_DIST_ND, BIG_N, BIG_N / 64);
    }
    return gt_finish();
}
