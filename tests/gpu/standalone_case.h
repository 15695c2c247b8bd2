/*
 * standalone_case.h -- what the GPU suites of the standalone one-call plans
 * (test_onepass, test_small_n) share: a data set on
 * host and device, one run of a standalone plan on either backend, and the
 * sorted ordered keys of a result (values compare as keys: ties and NaN
 * payloads).  Included by one test program each; static functions only.
 */
#ifndef DRTOPK_STANDALONE_CASE_H
#define DRTOPK_STANDALONE_CASE_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "drtopk.h"
#include "gen.h"
#include "keyorder.h"

#define POISON_BYTE 0xFF               /* indices of all ones are out of range   */

typedef struct {
    drtopk_dtype t;
    drtopk_order o;
    uint64_t n;
    void *host, *dev;
    char name[96];
} data;

static int data_upload(data *d)
{
    const size_t bytes = d->n * drtopk_dtype_size(d->t);
    if (dh_dev_alloc(&d->dev, bytes) != DRTOPK_OK) return -1;
    return dh_dev_copy(d->dev, d->host, bytes, DRTOPK_COPY_H2D) == DRTOPK_OK ? 0 : -1;
}

/* d = the seeded vector of n keys of `dist` (seed + n), on host and device. */
static int data_seeded(data *d, uint64_t seed, uint64_t n, dh_dist dist, drtopk_dtype t, drtopk_order o)
{
    memset(d, 0, sizeof *d);
    d->t = t;
    d->o = o;
    d->n = n;
    snprintf(d->name, sizeof d->name, "%s", dh_dist_name(dist));
    if ((d->host = malloc(n * drtopk_dtype_size(t))) == NULL) return -1;
    dh_gen_host(d->host, n, dist, t, seed + n);
    return data_upload(d);
}

static void data_free(data *d)
{
    free(d->host);
    if (d->dev) dh_dev_free(d->dev);
    d->host = d->dev = NULL;
}

/* The standalone plan of `algo` (no delegate stage). */
static drtopk_plan standalone_plan(drtopk_algo algo)
{
    drtopk_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.first_algo = plan.second_algo = algo;
    return plan;
}

/* The top k of d on backend b with the standalone plan of `algo`, into host
 * vals/idx (st may be NULL); on the GPU the workspace and outputs start
 * poisoned (generated from `seed`), so nothing may rely on zeroed memory. */
static drtopk_status run_side(const data *d, drtopk_algo algo, drtopk_backend b, uint64_t k, void *vals,
                              uint64_t *idx, drtopk_stats *st, uint64_t seed)
{
    const drtopk_plan plan = standalone_plan(algo);
    const int gpu = b == DRTOPK_BACKEND_CUDA;
    drtopk_problem p = { b, d->t, d->o, d->n, k, gpu ? d->dev : d->host };
    const size_t vbytes = k * drtopk_dtype_size(d->t);
    void *ws = NULL, *dv = NULL, *di = NULL;
    size_t bytes = 0;
    drtopk_status s = drtopk_select_workspace(&p, &plan, &bytes);
    if (s != DRTOPK_OK) return s;
    if (!gpu) {
        if ((ws = malloc(bytes)) == NULL) return DRTOPK_ERR_OUT_OF_MEMORY;
        s = drtopk_select(&p, &plan, ws, bytes, vals, idx, NULL, st);
        free(ws);
        return s;
    }
    if (dh_dev_alloc(&ws, bytes) != DRTOPK_OK || dh_dev_alloc(&dv, vbytes) != DRTOPK_OK ||
        dh_dev_alloc(&di, k * sizeof *idx) != DRTOPK_OK) {
        s = DRTOPK_ERR_OUT_OF_MEMORY;
        goto out;
    }
    dh_dev_generate(ws, bytes / sizeof(uint32_t), DRTOPK_DIST_UD, DRTOPK_U32, seed ^ k, NULL);
    memset(vals, POISON_BYTE, vbytes);
    memset(idx, POISON_BYTE, k * sizeof *idx);
    if ((s = dh_dev_copy(dv, vals, vbytes, DRTOPK_COPY_H2D)) != DRTOPK_OK ||
        (s = dh_dev_copy(di, idx, k * sizeof *idx, DRTOPK_COPY_H2D)) != DRTOPK_OK)
        goto out;
    s = drtopk_select(&p, &plan, ws, bytes, dv, (uint64_t *)di, NULL, st);
    if (s == DRTOPK_OK) s = dh_dev_sync();
    if (s == DRTOPK_OK) s = dh_dev_copy(vals, dv, vbytes, DRTOPK_COPY_D2H);
    if (s == DRTOPK_OK) s = dh_dev_copy(idx, di, k * sizeof *idx, DRTOPK_COPY_D2H);
out:
    if (ws) dh_dev_free(ws);
    if (dv) dh_dev_free(dv);
    if (di) dh_dev_free(di);
    return s;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The sorted ordered keys of k values (ties and NaN payloads compare by key). */
static uint64_t *sorted_keys(const data *d, const void *vals, uint64_t k)
{
    uint64_t *keys = malloc(k * sizeof *keys);
    if (keys == NULL) return NULL;
    for (uint64_t i = 0; i < k; ++i) keys[i] = drtopk_key_at(vals, i, d->t, d->o);
    qsort(keys, k, sizeof *keys, cmp_u64);
    return keys;
}

/* The distinct k of cand[0, nc) in 1..n, in order, at most max of them, into
 * ks; their count (a suite's k list of one n). */
static size_t ks_unique(const uint64_t *cand, size_t nc, uint64_t n, uint64_t *ks, size_t max)
{
    size_t c = 0;
    for (size_t i = 0; i < nc && c < max; ++i) {
        const uint64_t k = cand[i];
        int dup = k < 1 || k > n;
        for (size_t j = 0; j < c && !dup; ++j) dup = ks[j] == k;
        if (!dup) ks[c++] = k;
    }
    return c;
}

#endif
