/*
 * key_width.cu -- keys of 16 and 64 bits on the CUDA backend (beyond the
 * paper; the order of keyorder.h, which extends paper section 5.1's unsigned
 * integers to every width), and the one gather of the result's values, for
 * every element width.
 *
 * 16-bit keys (f16, bf16): their ordered keys, zero-extended, are 32-bit
 * ordered keys with the same order and the same low digits, so one pass
 * widens V into a u32 vector of ordered keys (largest order) in the
 * workspace and the whole 32-bit pipeline -- every plan and algorithm --
 * runs on it unchanged; the gather then reads the values from the 16-bit V.
 * The CPU reference holds 16-bit keys in the same way, so both backends
 * take the same path (equal stage statistics).  The widening costs one read
 * of V (2 bytes a key) and a write of 4 bytes a key before the pipeline; the
 * one-read top-k (onepass.cu) and the fused one (small_n.cu) skip it and
 * read the 16-bit V themselves.
 *
 * 64-bit keys (u64, i64, f64): the pipeline's stages hold 32-bit ordered
 * keys, so 64-bit keys run standalone plans only: the one-read top-k at 64
 * bits (DRTOPK_ALGO_ONEPASS, what drtopk_plan_auto chooses for large n on
 * the CUDA backend), the fused small-input top-k at 64 bits
 * (DRTOPK_ALGO_FUSED, small_n.cu; one launch, the choice for small n), a
 * radix select over their 64-bit ordered keys (DRTOPK_ALGO_RADIX,
 * wide_select.cuh) or sort-and-choose (DRTOPK_ALGO_SORT_CUB); see "64-bit
 * keys" below.  Exact, enqueue-only and capturable.
 */
#include <string.h>
#include <cub/device/device_radix_sort.cuh>
#include "keyorder.h"
#include "key_width.h"
#include "pipeline_spec.h"
#include "wide_select.cuh"

#define KW_BLOCK 256
#define KW_GRID_MAX 65535u          /* grid-stride beyond this many blocks */
#define KW_KEY64_BITS 64            /* the sort resolves every bit of a 64-bit key */

static unsigned grid_for(uint64_t n)
{
    const uint64_t blocks = (n + KW_BLOCK - 1) / KW_BLOCK;
    return (unsigned)(blocks < KW_GRID_MAX ? blocks : KW_GRID_MAX);
}

/* ---- 16-bit keys: widen ---------------------------------------------------- */
#define KW_HALVES_PER_VEC 8         /* 16-bit keys in one 16-byte load */

__device__ __forceinline__ uint32_t widen_pair(uint32_t w, int hi, drtopk_dtype t, drtopk_order o)
{
    return drtopk_key16_from_bits((uint16_t)(hi ? w >> 16 : w), t, o);
}

/* Scalar: any alignment of V. */
__global__ void widen16_kernel(const uint16_t *__restrict__ v, uint64_t n, drtopk_dtype t, drtopk_order o,
                               uint32_t *__restrict__ keys)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        keys[i] = drtopk_key16_from_bits(__ldcs(v + i), t, o);
}

/* V 16-byte aligned (and keys, a workspace region): eight keys per thread
 * and iteration, one 16-byte load and two 16-byte stores; the last n % 8
 * keys by the scalar kernel's loop. */
__global__ void widen16_vec_kernel(const uint16_t *__restrict__ v, uint64_t n, drtopk_dtype t, drtopk_order o,
                                   uint32_t *__restrict__ keys)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x, nvec = n / KW_HALVES_PER_VEC;
    const uint64_t first = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (uint64_t j = first; j < nvec; j += stride) {
        const uint4 w = __ldcs((const uint4 *)v + j);
        uint4 *out = (uint4 *)(keys + j * KW_HALVES_PER_VEC);
        out[0] = make_uint4(widen_pair(w.x, 0, t, o), widen_pair(w.x, 1, t, o), widen_pair(w.y, 0, t, o),
                            widen_pair(w.y, 1, t, o));
        out[1] = make_uint4(widen_pair(w.z, 0, t, o), widen_pair(w.z, 1, t, o), widen_pair(w.w, 0, t, o),
                            widen_pair(w.w, 1, t, o));
    }
    for (uint64_t i = nvec * KW_HALVES_PER_VEC + first; i < n; i += stride)
        keys[i] = drtopk_key16_from_bits(__ldcs(v + i), t, o);
}

extern "C" drtopk_status key_widen16(const void *v, uint64_t n, drtopk_dtype t, drtopk_order o, uint32_t *keys,
                                     cudaStream_t s)
{
    if (v == NULL || keys == NULL || drtopk_dtype_bits(t) != 16) return DRTOPK_ERR_INVALID_ARGUMENT;
    if ((uintptr_t)v % DRTOPK_VEC_BYTES == 0 && (uintptr_t)keys % DRTOPK_VEC_BYTES == 0)
        widen16_vec_kernel<<<grid_for(n / KW_HALVES_PER_VEC + 1), KW_BLOCK, 0, s>>>((const uint16_t *)v, n, t, o,
                                                                                    keys);
    else
        widen16_kernel<<<grid_for(n), KW_BLOCK, 0, s>>>((const uint16_t *)v, n, t, o, keys);
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

/* ---- the gather: out_v[j] = V[pos[j]], out_i[j] = pos[j] -------------------- */
template <typename E, typename P>
__global__ void gather_kernel(const E *__restrict__ v, const P *__restrict__ pos, uint64_t k, E *__restrict__ out_v,
                              uint64_t *__restrict__ out_i)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < k; i += stride) {
        const uint64_t q = (uint64_t)pos[i];
        out_v[i] = v[q];
        out_i[i] = q;
    }
}

template <typename E>
static drtopk_status gather_elems(const void *v, const void *pos, int pos64, uint64_t k, void *out_v,
                                  uint64_t *out_i, cudaStream_t s)
{
    if (pos64)
        gather_kernel<E, uint64_t><<<grid_for(k), KW_BLOCK, 0, s>>>((const E *)v, (const uint64_t *)pos, k,
                                                                    (E *)out_v, out_i);
    else
        gather_kernel<E, uint32_t><<<grid_for(k), KW_BLOCK, 0, s>>>((const E *)v, (const uint32_t *)pos, k,
                                                                    (E *)out_v, out_i);
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

extern "C" drtopk_status key_gather(const void *v, drtopk_dtype t, const void *pos, int pos64, uint64_t k,
                                    void *out_v, uint64_t *out_i, cudaStream_t s)
{
    switch (drtopk_dtype_bits(t)) {
    case 16: return gather_elems<uint16_t>(v, pos, pos64, k, out_v, out_i, s);
    case 32: return gather_elems<uint32_t>(v, pos, pos64, k, out_v, out_i, s);
    default: return gather_elems<uint64_t>(v, pos, pos64, k, out_v, out_i, s);
    }
}

/* ---- 64-bit keys ----------------------------------------------------------- */
/* Four standalone plans.  DRTOPK_ALGO_RADIX: wide_select.cuh's radix select
 * over the 64-bit ordered keys (eight digit passes instead of paper 5.1's
 * four, and a collect: nine reads of V, two launches a pass).
 * DRTOPK_ALGO_ONEPASS: the one-read top-k at 64 bits (onepass.cu; one read
 * of V, its fallback the same radix select).  DRTOPK_ALGO_FUSED: the fused
 * top-k at 64 bits (small_n.cu: six 11-bit digit passes in one launch, over
 * V in shared memory where it fits).  DRTOPK_ALGO_SORT_CUB: sort every (key,
 * position) pair with CUB and take the first k (the baseline).
 * DRTOPK_SORTED sorts the k selected pairs with CUB. */
static int key64_algo(drtopk_algo a)
{
    return a == DRTOPK_ALGO_RADIX || a == DRTOPK_ALGO_ONEPASS || a == DRTOPK_ALGO_FUSED ||
           a == DRTOPK_ALGO_SORT_CUB;
}

extern "C" drtopk_status key64_plan_check(const drtopk_problem *p, const drtopk_plan *plan)
{
    if ((plan->flags & DRTOPK_DELEGATE) || !key64_algo(plan->second_algo)) {
        drtopk_error_set("%s keys on the CUDA backend run standalone radix, onepass, fused or sort-cub only "
                         "(--algo radix, onepass, fused or sort-cub; drtopk_plan_auto chooses): the delegate "
                         "pipeline and the other algorithms hold 32-bit ordered keys", drtopk_dtype_name(p->dtype));
        return DRTOPK_ERR_UNSUPPORTED;
    }
    return DRTOPK_OK;
}

/* Sort-and-choose: every pair, materialised for CUB. */
template <typename P>
__global__ void key64_materialise(const uint64_t *__restrict__ v, uint64_t n, drtopk_dtype t, drtopk_order o,
                                  uint64_t *__restrict__ keys, P *__restrict__ pos)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        keys[i] = drtopk_key64_from_bits(__ldcs(v + i), t, o);
        pos[i] = (P)i;
    }
}

/* The workspace: the radix select's state and the list its later passes
 * read (n / WS_COMPACT_RATIO keys: wide_select.cuh's ws_hist), or onepass's
 * or fused's workspace and the count and threshold it reports; pairs twice
 * (CUB's double buffer: n of them for sort-cub, k for the selects, whose
 * second copy and CUB storage only DRTOPK_SORTED needs); CUB's temporary
 * storage. */
typedef struct {
    int radix, solo, sort;      /* radix select; onepass or fused (solo_run); a CUB sort follows (of `m` pairs) */
    uint64_t m;
    size_t state, list, solo_ws, solo_bytes, scalars, keys[2], pos[2], tmp, tmp_bytes, total;
    uint64_t list_cap;
    topk_input solo_in;         /* onepass, fused: raw V (its workspace query's stand-in when sizing) */
    topk_run_fn solo_run;
    topk_final_fn solo_final;
} key64_layout;

static size_t kw_reserve(size_t *off, size_t bytes)
{
    drtopk_carve(NULL, off, bytes);
    return *off - bytes;
}

template <typename P>
static drtopk_status key64_layout_of(const drtopk_problem *p, const drtopk_plan *plan, key64_layout *l)
{
    size_t off = 0;
    drtopk_status st;
    memset(l, 0, sizeof *l);
    l->radix = plan->second_algo == DRTOPK_ALGO_RADIX;
    l->solo = plan->second_algo == DRTOPK_ALGO_ONEPASS || plan->second_algo == DRTOPK_ALGO_FUSED;
    l->sort = plan->second_algo == DRTOPK_ALGO_SORT_CUB || (plan->flags & DRTOPK_SORTED);
    l->m = plan->second_algo == DRTOPK_ALGO_SORT_CUB ? p->n : p->k;
    if (l->radix) {
        l->state = kw_reserve(&off, sizeof(ws_state));
        l->list_cap = p->n / WS_COMPACT_RATIO;
        l->list = kw_reserve(&off, l->list_cap * sizeof(uint64_t));
    }
    if (l->solo) {
        const int onepass = plan->second_algo == DRTOPK_ALGO_ONEPASS;
        topk_input *in = &l->solo_in;
        l->solo_run = onepass ? onepass_topk : small_n_topk;
        l->solo_final = onepass ? onepass_topk_final : small_n_topk_final;
        in->src = TOPK_SRC_RAW;
        in->raw = p->values ? p->values : (const void *)(uintptr_t)DRTOPK_WS_ALIGN; /* sizing: no data */
        in->dtype = p->dtype;
        in->order = p->order;
        in->pos64 = sizeof(P) == sizeof(uint64_t);
        in->n_max = p->n;
        in->k = p->k;
        in->det_ties = (plan->flags & DRTOPK_DETERMINISTIC) != 0;
        st = onepass ? onepass_topk_workspace(in, &l->solo_bytes) : small_n_topk_workspace(in, &l->solo_bytes);
        if (st != DRTOPK_OK) return st;
        l->solo_ws = kw_reserve(&off, l->solo_bytes);
        l->scalars = kw_reserve(&off, 2 * sizeof(uint64_t));
    }
    for (int b = 0; b < (l->sort ? 2 : 1); ++b) {
        l->keys[b] = kw_reserve(&off, l->m * sizeof(uint64_t));
        l->pos[b] = kw_reserve(&off, l->m * sizeof(P));
    }
    if (l->sort) {
        DRTOPK_CUDA_TRY(cub::DeviceRadixSort::SortPairsDescending(NULL, l->tmp_bytes, (const uint64_t *)NULL,
                                                                  (uint64_t *)NULL, (const P *)NULL, (P *)NULL,
                                                                  (int64_t)l->m, 0, KW_KEY64_BITS));
        l->tmp = kw_reserve(&off, l->tmp_bytes);
    }
    l->total = off + DRTOPK_WS_ALIGN;   /* slack to align any base address */
    return DRTOPK_OK;
}

static int key64_pos64(uint64_t n) { return n > DRTOPK_POS32_MAX_N; }

extern "C" drtopk_status key64_workspace(const drtopk_problem *p, const drtopk_plan *plan, size_t *bytes)
{
    key64_layout l;
    const drtopk_status st = key64_pos64(p->n) ? key64_layout_of<uint64_t>(p, plan, &l)
                                               : key64_layout_of<uint32_t>(p, plan, &l);
    if (st == DRTOPK_OK) *bytes = l.total;
    return st;
}

template <typename P>
static drtopk_status key64_run(const drtopk_problem *p, char *base, const key64_layout *l, void *out_values,
                               uint64_t *out_indices, cudaStream_t s, int *d_settled)
{
    const uint64_t *v = (const uint64_t *)p->values;
    uint64_t *keys0 = (uint64_t *)(base + l->keys[0]), *keys1 = (uint64_t *)(base + l->keys[1]);
    P *pos0 = (P *)(base + l->pos[0]), *pos1 = (P *)(base + l->pos[1]);
    const void *take = pos0;
    drtopk_status st;
    if (l->radix) {
        const ws_input<uint64_t, P> in = { v, NULL, p->dtype, p->order, NULL, p->n, NULL,
                                           (uint64_t *)(base + l->list), l->list_cap };
        if ((st = ws_select(in, (ws_state *)(base + l->state), p->k, keys0, pos0, (uint64_t *)NULL, s)) != DRTOPK_OK)
            return st;
    } else if (l->solo) {
        uint64_t *sc = (uint64_t *)(base + l->scalars);
        const topk_output out = { p->k, (uint32_t *)keys0, pos0, sc, (uint32_t *)(sc + 1) };
        /* unsorted: onepass and fused write the values themselves (no gather) */
        if (!l->sort) {
            topk_input in = l->solo_in;
            in.d_settled = d_settled;
            return l->solo_final(&in, &out, out_values, out_indices, base + l->solo_ws, l->solo_bytes, s);
        }
        if ((st = l->solo_run(&l->solo_in, &out, base + l->solo_ws, l->solo_bytes, s)) != DRTOPK_OK) return st;
    } else {
        key64_materialise<P><<<grid_for(p->n), KW_BLOCK, 0, s>>>(v, p->n, p->dtype, p->order, keys0, pos0);
        DRTOPK_LAUNCH_CHECK();
    }
    if (l->sort) {
        size_t tb = l->tmp_bytes;
        DRTOPK_CUDA_TRY(cub::DeviceRadixSort::SortPairsDescending(base + l->tmp, tb, keys0, keys1, pos0, pos1,
                                                                  (int64_t)l->m, 0, KW_KEY64_BITS, s));
        take = pos1;
    }
    return key_gather(p->values, p->dtype, take, sizeof(P) == sizeof(uint64_t), p->k, out_values, out_indices, s);
}

extern "C" drtopk_status key_sort_keys_desc(void *tmp, size_t *tmp_bytes, const uint64_t *keys_in, uint64_t *keys_out,
                                            uint64_t n, int end_bit, cudaStream_t s)
{
    DRTOPK_CUDA_TRY(
        cub::DeviceRadixSort::SortKeysDescending(tmp, *tmp_bytes, keys_in, keys_out, (int64_t)n, 0, end_bit, s));
    return DRTOPK_OK;
}

extern "C" drtopk_status key_sort_pairs_desc(void *tmp, size_t *tmp_bytes, const uint64_t *keys_in,
                                             uint64_t *keys_out, const uint64_t *vals_in, uint64_t *vals_out,
                                             uint64_t n, int end_bit, cudaStream_t s)
{
    DRTOPK_CUDA_TRY(cub::DeviceRadixSort::SortPairsDescending(tmp, *tmp_bytes, keys_in, keys_out, vals_in, vals_out,
                                                              (int64_t)n, 0, end_bit, s));
    return DRTOPK_OK;
}

/* Onepass reports its workload (onepass_topk_stats); the other plans none. */
extern "C" drtopk_status key64_stats(const drtopk_problem *p, const drtopk_plan *plan, void *ws, size_t ws_bytes,
                                     cudaStream_t s, drtopk_stats *stats)
{
    key64_layout l;
    const int pos64 = key64_pos64(p->n);
    drtopk_status st = pos64 ? key64_layout_of<uint64_t>(p, plan, &l) : key64_layout_of<uint32_t>(p, plan, &l);
    if (st != DRTOPK_OK || plan->second_algo != DRTOPK_ALGO_ONEPASS) return st;
    if (ws == NULL || ws_bytes < l.total) return drtopk_workspace_too_small(ws, ws_bytes, l.total);
    return onepass_topk_stats(&l.solo_in, (char *)drtopk_align_up((uintptr_t)ws, DRTOPK_WS_ALIGN) + l.solo_ws,
                              l.solo_bytes, s, stats);
}

extern "C" drtopk_status key64_select(const drtopk_problem *p, const drtopk_plan *plan, void *ws, size_t ws_bytes,
                                      void *out_values, uint64_t *out_indices, cudaStream_t s, int *d_settled)
{
    key64_layout l;
    const int pos64 = key64_pos64(p->n);
    drtopk_status st = pos64 ? key64_layout_of<uint64_t>(p, plan, &l) : key64_layout_of<uint32_t>(p, plan, &l);
    char *base;
    if (st != DRTOPK_OK) return st;
    if (ws == NULL || ws_bytes < l.total) return drtopk_workspace_too_small(ws, ws_bytes, l.total);
    base = (char *)drtopk_align_up((uintptr_t)ws, DRTOPK_WS_ALIGN);
    return pos64 ? key64_run<uint64_t>(p, base, &l, out_values, out_indices, s, d_settled)
                 : key64_run<uint32_t>(p, base, &l, out_values, out_indices, s, d_settled);
}
