/*
 * mgpu.c -- slices of V over ranks, the choice between gathering the ranks'
 * whole lists and agreeing on the k-th key, and the host half of that
 * agreement and of the compaction of the selected elements for multi-GPU
 * Dr. Top-k (paper section 5.4); see mgpu.h.
 */
#include "mgpu.h"
#include "keyorder.h"
#include "policy.h"

#include <stdlib.h>

void drtopk_slice(uint64_t n, uint64_t parts, uint64_t r, uint64_t *first, uint64_t *count)
{
    const uint64_t base = n / parts, extra = n % parts;
    *first = r * base + (r < extra ? r : extra);
    *count = base + (r < extra ? 1 : 0);
}

int drtopk_mgpu_gather_all(uint64_t list_len, int ranks, drtopk_dtype t, int ipc)
{
    const uint64_t cap = ipc ? POLICY_MGPU_GATHER_ALL_IPC_BYTES : POLICY_MGPU_GATHER_ALL_MPI_BYTES;
    const uint64_t pair = (uint64_t)drtopk_dtype_bits(t) / 8 + sizeof(uint64_t);
    return ranks > 1 && list_len <= cap / pair / (uint64_t)ranks;
}

/* a before b in canonical order: the better ordered key, then the smaller position. */
static int canon_before(uint64_t ka, uint64_t pa, uint64_t kb, uint64_t pb)
{
    return ka > kb || (ka == kb && pa < pb);
}

typedef struct {
    uint64_t key, bits, pos;
} canon_item;

static int canon_cmp(const void *x, const void *y)
{
    const canon_item *a = (const canon_item *)x, *b = (const canon_item *)y;
    return canon_before(a->key, a->pos, b->key, b->pos) ? -1 : canon_before(b->key, b->pos, a->key, a->pos);
}

drtopk_status drtopk_topk_canon(drtopk_dtype t, drtopk_order o, void *vals, uint64_t *pos, uint64_t n)
{
    canon_item *it = (canon_item *)malloc((size_t)(n ? n : 1) * sizeof *it);
    if (!it) return DRTOPK_ERR_OUT_OF_MEMORY;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t b = drtopk_bits_at(vals, i, t);
        it[i] = (canon_item){ drtopk_key_any(b, t, o), b, pos[i] };
    }
    qsort(it, (size_t)n, sizeof *it, canon_cmp);
    for (uint64_t i = 0; i < n; ++i) {
        drtopk_bits_store(vals, i, t, it[i].bits);
        pos[i] = it[i].pos;
    }
    free(it);
    return DRTOPK_OK;
}

void drtopk_key_hist(const void *vals, uint64_t n, drtopk_dtype t, drtopk_order o, uint64_t prefix, int shift,
                     uint64_t *hist)
{
    const uint64_t mask = drtopk_radix_prefix_mask(t, shift);
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t key = drtopk_key_at(vals, i, t, o);
        if ((key & mask) == prefix) ++hist[(key >> shift) & (DRTOPK_RADIX_BINS - 1)];
    }
}

unsigned drtopk_radix_pick(const uint64_t *hist, uint64_t need, uint64_t *above)
{
    uint64_t sum = 0;
    unsigned d = DRTOPK_RADIX_BINS - 1;
    while (d > 0 && sum + hist[d] < need) sum += hist[d--];
    *above = sum;
    return d;
}

uint64_t drtopk_key_compact(const void *vals, const uint64_t *pos, uint64_t n, drtopk_dtype t, drtopk_order o,
                            uint64_t thr, uint64_t ties, uint64_t first, void *out_vals, uint64_t *out_pos)
{
    uint64_t m = 0, taken = 0;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t key = drtopk_key_at(vals, i, t, o);
        if (key > thr || (key == thr && taken++ < ties)) {
            drtopk_bits_store(out_vals, m, t, drtopk_bits_at(vals, i, t));
            out_pos[m++] = pos[i] + first;
        }
    }
    return m;
}
