/*
 * ooc.c -- out-of-core Dr. Top-k (paper section 5.4, Table 2; ooc.h): the
 * sub-vector loop, once for both backends, and its host half.  The device
 * half (double-buffered copies, filter, carry) is kernels/ooc.cu.  A library
 * module over the public API alone (no file I/O; the caller fills the slice).
 */
#include "ooc.h"
#include "ooc_dev.h"
#include "clock.h"
#include "keyorder.h"

#include <stdlib.h>
#include <string.h>

/* The host half: the same steps as ooc_dev_* on host memory, any key width. */
typedef struct {
    const drtopk_ooc_args *a;
    size_t esz;                 /* bytes of one element                           */
    void *slot[2];              /* the two sub-vector buffers ("device" copies)   */
    void *cand_v, *out_v;       /* candidates (k + cap), a top-k's output (k)      */
    uint64_t *cand_p, *out_i;
    void *ws;
    size_t ws_bytes;
    uint64_t thr_key;           /* the carried k-th value as an ordered key       */
    double load_ms;             /* the last copy                                  */
} ooc_host;

static void host_destroy(ooc_host *h)
{
    free(h->slot[0]);
    free(h->slot[1]);
    free(h->cand_v);
    free(h->out_v);
    free(h->cand_p);
    free(h->out_i);
    free(h->ws);
}

static drtopk_status host_create(const drtopk_ooc_args *a, ooc_host *h)
{
    const uint64_t len = a->cap < a->n ? a->cap : a->n;
    memset(h, 0, sizeof *h);
    h->a = a;
    h->esz = drtopk_dtype_size(a->dtype);
    h->slot[0] = malloc((size_t)len * h->esz);
    h->slot[1] = malloc((size_t)len * h->esz);
    h->cand_v = malloc((size_t)(a->k + len) * h->esz);
    h->cand_p = (uint64_t *)malloc((size_t)(a->k + len) * sizeof(uint64_t));
    h->out_v = malloc((size_t)a->k * h->esz);
    h->out_i = (uint64_t *)malloc((size_t)a->k * sizeof(uint64_t));
    if (!h->slot[0] || !h->slot[1] || !h->cand_v || !h->cand_p || !h->out_v || !h->out_i) {
        host_destroy(h);
        return DRTOPK_ERR_OUT_OF_MEMORY;
    }
    return DRTOPK_OK;
}

static void host_load(ooc_host *h, int slot, const void *src, uint64_t len)
{
    const double t0 = drtopk_clock_ms();
    memcpy(h->slot[slot], src, (size_t)len * h->esz);
    h->load_ms = drtopk_clock_ms() - t0;
}

static uint64_t host_filter(ooc_host *h, int slot, uint64_t len, uint64_t pos0, int use_thr, uint64_t at)
{
    const drtopk_dtype t = h->a->dtype;
    uint64_t kept = 0;
    for (uint64_t i = 0; i < len; ++i) {
        const uint64_t b = drtopk_bits_at(h->slot[slot], i, t);
        if (use_thr && drtopk_key_any(b, t, h->a->order) <= h->thr_key) continue;
        drtopk_bits_store(h->cand_v, at + kept, t, b);
        h->cand_p[at + kept++] = pos0 + i;
    }
    return kept;
}

static drtopk_status host_select(ooc_host *h, uint64_t m)
{
    const drtopk_ooc_args *a = h->a;
    drtopk_problem p = { DRTOPK_BACKEND_CPU, a->dtype, a->order, m, a->k, h->cand_v };
    size_t need;
    drtopk_status st = drtopk_select_workspace(&p, a->plan, &need);
    if (st != DRTOPK_OK) return st;
    if (need > h->ws_bytes) {
        free(h->ws);
        if ((h->ws = malloc(need)) == NULL) return DRTOPK_ERR_OUT_OF_MEMORY;
        h->ws_bytes = need;
    }
    if ((st = drtopk_select(&p, a->plan, h->ws, h->ws_bytes, h->out_v, h->out_i, NULL, NULL)) != DRTOPK_OK)
        return st;
    /* gather the winners' global positions, then they become the first k */
    for (uint64_t i = 0; i < a->k; ++i) h->out_i[i] = h->cand_p[h->out_i[i]];
    memcpy(h->cand_v, h->out_v, (size_t)a->k * h->esz);
    memcpy(h->cand_p, h->out_i, (size_t)a->k * sizeof(uint64_t));
    return DRTOPK_OK;
}

static void host_threshold(ooc_host *h)
{
    uint64_t worst = UINT64_MAX;
    for (uint64_t i = 0; i < h->a->k; ++i) {
        const uint64_t key = drtopk_key_at(h->cand_v, i, h->a->dtype, h->a->order);
        if (key < worst) worst = key;
    }
    h->thr_key = worst;
}

drtopk_status drtopk_ooc_host_alloc(drtopk_backend b, void **p, size_t bytes)
{
    if (b == DRTOPK_BACKEND_CUDA) return ooc_dev_host_alloc(p, bytes);
    *p = malloc(bytes ? bytes : 1);
    return *p ? DRTOPK_OK : DRTOPK_ERR_OUT_OF_MEMORY;
}

void drtopk_ooc_host_free(drtopk_backend b, void *p)
{
    if (p == NULL) return;
    if (b == DRTOPK_BACKEND_CUDA) ooc_dev_host_free(p);
    else free(p);
}

drtopk_status drtopk_ooc_link_gbps(drtopk_backend b, const void *host_v, size_t bytes, double *gbps)
{
    *gbps = 0;
    return b == DRTOPK_BACKEND_CUDA ? ooc_dev_link_gbps(host_v, bytes, gbps) : DRTOPK_OK;
}

struct drtopk_ooc {
    drtopk_ooc_args a;
    ooc_dev *d;                 /* CUDA: the device half                        */
    ooc_host h;                 /* CPU: the host half                           */
};

drtopk_status drtopk_ooc_create(const drtopk_ooc_args *a, drtopk_ooc **out)
{
    drtopk_ooc *o;
    drtopk_status st;
    *out = NULL;
    if (a->k == 0 || a->k > a->n || a->cap == 0) return DRTOPK_ERR_INVALID_ARGUMENT;
    if ((o = (drtopk_ooc *)calloc(1, sizeof *o)) == NULL) return DRTOPK_ERR_OUT_OF_MEMORY;
    o->a = *a;
    st = a->backend == DRTOPK_BACKEND_CUDA ? ooc_dev_create(&o->a, &o->d) : host_create(&o->a, &o->h);
    if (st != DRTOPK_OK) {
        free(o);
        return st;
    }
    *out = o;
    return DRTOPK_OK;
}

void drtopk_ooc_destroy(drtopk_ooc *o)
{
    if (o == NULL) return;
    if (o->d) ooc_dev_destroy(o->d);
    else host_destroy(&o->h);
    free(o);
}

drtopk_status drtopk_ooc_run(drtopk_ooc *o, void *out_vals, uint64_t *out_pos, drtopk_ooc_stats *s)
{
    const drtopk_ooc_args *a = &o->a;
    ooc_dev *d = o->d;
    ooc_host *h = &o->h;
    const int dev = d != NULL;
    const char *v = (const char *)a->host_v;
    const size_t esz = drtopk_dtype_size(a->dtype);
    const uint64_t chunks = (a->n + a->cap - 1) / a->cap;
    const double t0 = drtopk_clock_ms();
    uint64_t r = 0;             /* candidates held: the running top-k so far */
    drtopk_status st = DRTOPK_OK;

    memset(s, 0, sizeof *s);
#define LEN(j) ((j) + 1 < chunks ? a->cap : a->n - (j) * a->cap)
    if (dev) st = ooc_dev_load(d, 0, v, LEN(0));
    for (uint64_t j = 0; j < chunks && st == DRTOPK_OK; ++j) {
        const int slot = (int)(j & 1), use_thr = r == a->k;
        uint64_t kept;
        /* the next copy goes ahead while this sub-vector is reduced */
        if (dev && j + 1 < chunks) st = ooc_dev_load(d, slot ^ 1, v + (j + 1) * a->cap * esz, LEN(j + 1));
        if (st != DRTOPK_OK) break;
        if (dev) {
            st = ooc_dev_filter(d, slot, LEN(j), a->first + j * a->cap, use_thr, r, &kept);
        } else {
            host_load(h, slot, v + j * a->cap * esz, LEN(j));
            s->reload_ms += h->load_ms;
            const double c0 = drtopk_clock_ms();
            kept = host_filter(h, slot, LEN(j), a->first + j * a->cap, use_thr, r);
            s->compute_ms += drtopk_clock_ms() - c0;
        }
        if (st != DRTOPK_OK) break;
        s->filtered += LEN(j) - kept;
        r += kept;
        if (r > a->k) {
            ++s->selected_calls;
            if (dev) {
                st = ooc_dev_select(d, r);
            } else {
                const double c0 = drtopk_clock_ms();
                st = host_select(h, r);
                s->compute_ms += drtopk_clock_ms() - c0;
            }
            r = a->k;
        }
        if (st != DRTOPK_OK) break;
        if (dev) st = ooc_dev_carry(d, slot, r == a->k, &s->reload_ms, &s->compute_ms);
        else if (r == a->k) host_threshold(h);
    }
#undef LEN
    s->chunks = chunks;
    if (st == DRTOPK_OK) {
        if (dev) {
            st = ooc_dev_result(d, out_vals, out_pos);
        } else {
            memcpy(out_vals, h->cand_v, (size_t)a->k * esz);
            memcpy(out_pos, h->cand_p, (size_t)a->k * sizeof(uint64_t));
        }
    }
    s->total_ms = drtopk_clock_ms() - t0;
    return st;
}
