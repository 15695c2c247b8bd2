/*
 * sweep.c -- the configurations of the tuner's sweep (paper section 5.2):
 * the default k per size, Rule 4's alpha with the span and the betas around
 * it per size, both delegate builds where they cross over (paper 5.3), and
 * the (key type, algorithm) pairs the library does not run on this backend
 * left out.
 */
#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_K_MAX (1ull << 24)  /* the paper's largest k (Figures 14, 18)   */
#define DEFAULT_K_FRACTION 4        /* default k lists stop at n / this         */
#define K_STEP_LOG2 2               /* default k: powers of 4                   */
#define INITIAL_CONFIGS 1024        /* the config array's first capacity; doubles */

static int ceil_log2_alpha_max(uint64_t n)
{
    int hi = dh_ilog2_ceil(n);
    return hi > DRTOPK_ALPHA_MAX ? DRTOPK_ALPHA_MAX : hi;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int sweep_ks(const options *o, uint64_t n, uint64_t *ks)
{
    int nks = 0;
    if (o->nk) {
        for (int i = 0; i < o->nk; ++i)
            if (o->k[i] <= n)
                ks[nks++] = o->k[i];
    } else {
        for (uint64_t k = 1; k <= DEFAULT_K_MAX && k <= n / DEFAULT_K_FRACTION && nks < MAX_LIST; k <<= K_STEP_LOG2)
            ks[nks++] = k;
    }
    qsort(ks, (size_t)nks, sizeof *ks, cmp_u64);
    int nuniq = 0;
    for (int i = 0; i < nks; ++i)
        if (nuniq == 0 || ks[i] != ks[nuniq - 1])
            ks[nuniq++] = ks[i];
    return nuniq;
}

/* The dr- variants swept at size n: the span around Rule 4's alpha
 * (ALPHA_SPAN_WHOLE: every alpha) in *span, the betas in betas[MAX_LIST];
 * returns the beta count. */
static int dr_variants(const options *o, uint64_t n, int *span, int *betas)
{
    if (o->small_n_cut && n < (1ull << QUICK_SMALL_N_LOG2)) {
        *span = QUICK_SMALL_N_ALPHA_SPAN;
        betas[0] = QUICK_SMALL_N_BETA;
        return 1;
    }
    *span = o->alpha_span;
    if (o->nbeta) {
        memcpy(betas, o->beta, (size_t)o->nbeta * sizeof *betas);
        return o->nbeta;
    }
    int nb = 0;
    for (int b = 1; b <= (o->full ? FULL_BETA_MAX : QUICK_BETA_MAX); ++b)
        betas[nb++] = b;
    return nb;
}

/* A problem, alpha and beta any plan of the library accepts: what the probe
 * below asks about is the key type and the algorithm alone. */
#define PROBE_N (1u << 12)
#define PROBE_ALPHA 4
#define PROBE_BETA 1

/* Whether the library runs algorithm a on key type t on this backend: its
 * workspace query refuses what it does not (on CUDA the pipeline and most
 * standalone algorithms of 64-bit keys) before any data exists.  With
 * o->probe_algos (the default algorithm lists) the sweep leaves the others
 * out; an --algo list is measured as given. */
static int library_runs(const options *o, drtopk_dtype t, const algo_entry *a)
{
    if (!o->probe_algos)
        return 1;
    drtopk_problem p = { .backend = o->backend, .dtype = t, .order = DRTOPK_LARGEST, .n = PROBE_N, .k = 1 };
    drtopk_plan plan;
    size_t bytes;
    drtopk_status st = a->delegate ? drtopk_plan_explicit(&plan, &p, a->algo, PROBE_ALPHA, PROBE_BETA,
                                                          DRTOPK_DELEGATE | DRTOPK_FILTER | DRTOPK_SKIP_LAST_DIGIT)
                                   : drtopk_plan_explicit(&plan, &p, a->algo, 0, 0, 0);
    if (st == DRTOPK_OK)
        st = drtopk_select_workspace(&p, &plan, &bytes);
    return st != DRTOPK_ERR_UNSUPPORTED;
}

/* Name the (key type, algorithm) pairs library_runs leaves out, on one line. */
static void report_left_out(const options *o)
{
    int any = 0;
    for (int t = 0; t < o->ndtype; ++t)
        for (int a = 0; a < o->nalgo; ++a)
            if (!library_runs(o, o->dtype[t], &o->algo[a])) {
                printf("%s%s %s", any ? ", " : "tuner: not swept (the library does not run them on this backend): ",
                       drtopk_dtype_name(o->dtype[t]), o->algo[a].label);
                any = 1;
            }
    if (any)
        printf("\n");
}

/* Every configuration the options ask for, in sweep_configs' order; NULL
 * when out of memory. */
static config *enumerate(const options *o, size_t *count)
{
    size_t cap = INITIAL_CONFIGS, cnt = 0;
    config *c = malloc(cap * sizeof *c);
    if (!c)
        return NULL;
    for (int t = 0; t < o->ndtype; ++t)
    for (int d = 0; d < o->ndist; ++d)
    for (int ni = 0; ni < o->nn; ++ni) {
        uint64_t n = o->n[ni];
        uint64_t ks[MAX_LIST];
        int nks = sweep_ks(o, n, ks);
        /* Betas of the delegate pipeline; standalone algorithms get one
         * config with beta (and alpha) 0. */
        int span, betas[MAX_LIST];
        int nbetas = dr_variants(o, n, &span, betas);
        static const int standalone_beta[] = { 0 };
        char runs[MAX_LIST];
        for (int a = 0; a < o->nalgo; ++a)
            runs[a] = (char)library_runs(o, o->dtype[t], &o->algo[a]);
        for (int a = 0; a < o->nalgo; ++a)
        for (int ki = 0; ki < nks && runs[a]; ++ki) {
            int lo = 0, hi = 0;
            const int *bl = standalone_beta;
            int nb = 1;
            if (o->algo[a].delegate) {
                int pred = drtopk_rule4_alpha(n, ks[ki], DRTOPK_RULE4_CONST_DEFAULT);
                int whole = span == ALPHA_SPAN_WHOLE;
                hi = ceil_log2_alpha_max(n);
                lo = whole ? DRTOPK_ALPHA_MIN : pred - span;
                if (!whole && pred + span < hi)
                    hi = pred + span;
                if (lo < DRTOPK_ALPHA_MIN)
                    lo = DRTOPK_ALPHA_MIN;
                bl = betas;
                nb = nbetas;
            }
            for (int al = lo; al <= hi; ++al)
            for (int bi = 0; bi < nb; ++bi)
            for (int warp = 0; warp <= (o->algo[a].delegate && span != 0 && al >= TUNED_BUILD_ALPHA_MIN &&
                                        al <= DRTOPK_SHARED_DELEGATE_MAX_ALPHA); ++warp) {
                int b = bl[bi];
                if (b > 0 && (uint64_t)b > (1ull << al))
                    continue;           /* more delegates than subrange elements */
                if (cnt == cap) {
                    config *g = realloc(c, 2 * cap * sizeof *c);
                    if (!g) {
                        free(c);
                        return NULL;
                    }
                    c = g;
                    cap *= 2;
                }
                c[cnt++] = (config){ t, d, ni, a, ks[ki], al, b, warp };
            }
        }
    }
    *count = cnt;
    return c;
}


config *sweep_configs(const options *o, dh_store *db, int64_t run_id, size_t *total)
{
    *total = 0;
    report_left_out(o);
    config *cfgs = enumerate(o, total);
    if (!cfgs) {
        fprintf(stderr, "tuner: out of memory\n");
        return NULL;
    }
    if (*total == 0) {
        fprintf(stderr, "tuner: the sweep is empty, nothing would be measured: %s\n",
                o->nk ? "every --k is larger than every --n"
                      : "the default k (powers of 4 up to n/4) needs n >= 4; give a larger --n or a --k list");
        dh_store_end_run(db, run_id, "failed");
        free(cfgs);
        return NULL;
    }
    return cfgs;
}
