/*
 * cpu_radix.c -- the CPU backend's standalone radix select (a plan with
 * second_algo DRTOPK_ALGO_RADIX and no DRTOPK_DELEGATE; the automatic plan of
 * the CPU backend, policy.h): the exact top-k over host threads, each owning
 * one contiguous chunk of V.  Not the paper's pipeline (cpu_ref.c keeps that
 * as the reference of the GPU's) but the same answer: the k best (ordered
 * key, position) pairs, ties by smaller position.
 *
 * A most-significant-digit radix select on the ordered key (keyorder.h), one
 * CPU_RADIX_DIGIT_BITS digit per level.  Level l is one read of V: every
 * thread counts the digit of the elements that share the prefix chosen so
 * far; the merged counts fix the digit of the k-th best key, and the
 * per-thread counts of the digits above it tell each thread how many
 * elements it owns that are surely in the top k.  As soon as those and the
 * elements of the chosen digit number at most k + CPU_RADIX_GATHER_SLACK (one
 * level for most inputs), one more read gathers them at offsets known in
 * advance (no locks, no overflow) and a sort of the candidates finishes.  At
 * the last level the prefix is the k-th key itself: its ties are taken in
 * position order, the first threads' first, up to k.  So V is read at most
 * key_bits / CPU_RADIX_DIGIT_BITS + 1 times and the workspace holds the
 * candidates and the counts, never a copy of V.
 */
#include "backend.h"
#include "clock.h"
#include "keyorder.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CPU_RADIX_DIGIT_BITS 16         /* one level fixes 16 bits: 16-bit keys in one, 32-bit in two */
#define CPU_RADIX_BINS (1u << CPU_RADIX_DIGIT_BITS)
#define CPU_RADIX_GATHER_SLACK (1ull << 20) /* candidates past k gathered at once: 16 MB of pairs */
#define CPU_RADIX_MAX_THREADS 32        /* the workspace holds this many threads' counts at most */
#define CPU_RADIX_MIN_PER_THREAD (1ull << 18) /* below 1 MB of u32 a thread's start costs more than it reads */
#define CPU_RADIX_ALIGN 64              /* cache line: threads' counts never share one */

typedef struct {
    uint64_t key;                /* ordered key: larger is better */
    uint64_t pos;                /* position in V                 */
} cand;

/* The threads the workspace is sized for: a function of n alone, so that the
 * query and the call agree on any machine; the call runs at most as many as
 * the host has cores. */
static unsigned ws_threads(uint64_t n)
{
    const uint64_t t = (n + CPU_RADIX_MIN_PER_THREAD - 1) / CPU_RADIX_MIN_PER_THREAD;
    return t < CPU_RADIX_MAX_THREADS ? (unsigned)t : CPU_RADIX_MAX_THREADS;
}

static unsigned run_threads(uint64_t n)
{
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    const unsigned t = ws_threads(n);
    return cores >= 1 && (unsigned long)cores < t ? (unsigned)cores : t;
}

/* Candidates gathered at most: every element, or k and the slack. */
static uint64_t cand_cap(const drtopk_problem *p)
{
    const uint64_t c = p->k + CPU_RADIX_GATHER_SLACK;
    return c < p->n ? c : p->n;
}

static size_t align_up(size_t x) { return (x + CPU_RADIX_ALIGN - 1) & ~(size_t)(CPU_RADIX_ALIGN - 1); }

/* Workspace: [slack][counts: threads x bins][candidates]. */
static size_t counts_bytes(unsigned threads) { return (size_t)threads * CPU_RADIX_BINS * sizeof(uint64_t); }

size_t drtopk_cpu_radix_workspace(const drtopk_problem *p)
{
    return CPU_RADIX_ALIGN + align_up(counts_bytes(ws_threads(p->n))) + (size_t)cand_cap(p) * sizeof(cand);
}

typedef struct job job;
typedef struct {
    job *j;
    unsigned t;
    uint64_t lo, hi;             /* the chunk of V: [lo, hi)                     */
    uint64_t *count;             /* this thread's CPU_RADIX_BINS counts          */
    uint64_t above;              /* its elements surely in the top k (gather)    */
    uint64_t ties;               /* of the chosen digit, how many it may gather  */
    uint64_t out;                /* where its candidates start                   */
} worker;

struct job {
    const drtopk_problem *p;
    int shift;                   /* bits below the digit of this level           */
    int level;                   /* 0: no prefix yet                             */
    uint64_t prefix;             /* the key's bits above the digit, chosen so far */
    int gather;                  /* 0: count digits; 1: gather candidates        */
    cand *c;
};

static void *work(void *arg)
{
    worker *w = (worker *)arg;
    const job *j = w->j;
    const drtopk_problem *p = j->p;
    const int shift = j->shift;
    if (!j->gather) {
        uint64_t *count = w->count;
        memset(count, 0, CPU_RADIX_BINS * sizeof *count);
        for (uint64_t i = w->lo; i < w->hi; ++i) {
            const uint64_t key = drtopk_key_at(p->values, i, p->dtype, p->order);
            if (j->level == 0 || key >> (shift + CPU_RADIX_DIGIT_BITS) == j->prefix)
                ++count[(key >> shift) & (CPU_RADIX_BINS - 1)];
        }
        return NULL;
    }
    /* the prefix now includes this level's digit: above it is in, equal to it
     * is a candidate (only `ties` of them at the last level) */
    uint64_t out = w->out, ties = w->ties;
    for (uint64_t i = w->lo; i < w->hi; ++i) {
        const uint64_t key = drtopk_key_at(p->values, i, p->dtype, p->order);
        const uint64_t top = key >> shift;
        if (top > j->prefix || (top == j->prefix && (shift > 0 || ties > 0))) {
            if (top == j->prefix && shift == 0) --ties;
            j->c[out].key = key;
            j->c[out].pos = i;
            ++out;
        }
    }
    return NULL;
}

/* Runs the pass of w[0].j on workers w[0..threads); thread 0's share on
 * this thread, and any a thread could not be started for after it. */
static void run_pass(worker *w, unsigned threads)
{
    pthread_t tid[CPU_RADIX_MAX_THREADS];
    unsigned started = 1;
    for (; started < threads; ++started)
        if (pthread_create(&tid[started], NULL, work, &w[started]) != 0) break;
    work(&w[0]);
    for (unsigned t = 1; t < started; ++t) pthread_join(tid[t], NULL);
    for (unsigned t = started; t < threads; ++t) work(&w[t]);
}

static int best_first(const void *a, const void *b)
{
    const cand *x = (const cand *)a, *y = (const cand *)b;
    if (x->key != y->key) return x->key > y->key ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

static int by_pos(const void *a, const void *b)
{
    const cand *x = (const cand *)a, *y = (const cand *)b;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

drtopk_status drtopk_cpu_radix_select(const drtopk_problem *p, int sorted, void *ws, size_t ws_bytes,
                                      void *out_values, uint64_t *out_indices, drtopk_stats *stats)
{
    const double t0 = drtopk_clock_ms();
    const size_t need = drtopk_cpu_radix_workspace(p);
    if (ws == NULL || ws_bytes < need) return drtopk_workspace_too_small(ws, ws_bytes, need);
    const unsigned threads = run_threads(p->n);
    char *base = (char *)ws + (align_up((uintptr_t)ws) - (uintptr_t)ws);
    uint64_t *counts = (uint64_t *)base;
    worker w[CPU_RADIX_MAX_THREADS];
    job j = { .p = p, .c = (cand *)(base + align_up(counts_bytes(ws_threads(p->n)))) };
    const uint64_t cap = cand_cap(p);
    const int bits = drtopk_dtype_bits(p->dtype);
    uint64_t in = 0;             /* elements surely in the top k (key above the prefix) */
    for (unsigned t = 0; t < threads; ++t) {
        w[t] = (worker){ .j = &j, .t = t, .lo = p->n * t / threads, .hi = p->n * (t + 1) / threads,
                         .count = counts + (size_t)t * CPU_RADIX_BINS };
    }
    for (j.shift = bits - CPU_RADIX_DIGIT_BITS;; j.shift -= CPU_RADIX_DIGIT_BITS, ++j.level) {
        j.gather = 0;
        run_pass(w, threads);
        /* the digit of the k-th best key: the highest whose count reaches the rest of k */
        uint64_t digit = CPU_RADIX_BINS - 1, seen = 0;
        for (;; --digit) {
            uint64_t total = 0;
            for (unsigned t = 0; t < threads; ++t) total += w[t].count[digit];
            if (in + seen + total >= p->k) break;
            seen += total;
        }
        uint64_t of_digit = 0;
        for (unsigned t = 0; t < threads; ++t) {
            for (uint64_t d = digit + 1; d < CPU_RADIX_BINS; ++d) w[t].above += w[t].count[d];
            of_digit += w[t].count[digit];
        }
        in += seen;
        j.prefix = (j.prefix << CPU_RADIX_DIGIT_BITS) | digit;
        if (j.shift > 0 && in + of_digit > cap) continue;
        /* gather: each thread's candidates at offsets fixed by the counts */
        uint64_t out = 0, ties_left = p->k - in;
        for (unsigned t = 0; t < threads; ++t) {
            const uint64_t mine = w[t].count[digit];
            w[t].ties = j.shift > 0 ? mine : (mine < ties_left ? mine : ties_left);
            if (j.shift == 0) ties_left -= w[t].ties;
            w[t].out = out;
            out += w[t].above + w[t].ties;
        }
        j.gather = 1;
        run_pass(w, threads);
        qsort(j.c, (size_t)out, sizeof(cand), best_first);
        if (!sorted) qsort(j.c, (size_t)p->k, sizeof(cand), by_pos);
        for (uint64_t i = 0; i < p->k; ++i) {
            drtopk_bits_store(out_values, i, p->dtype, drtopk_bits_at(p->values, j.c[i].pos, p->dtype));
            out_indices[i] = j.c[i].pos;
        }
        if (stats) stats->ms_total = stats->ms_second = drtopk_clock_ms() - t0;   /* standalone: no delegate statistics */
        return DRTOPK_OK;
    }
}
