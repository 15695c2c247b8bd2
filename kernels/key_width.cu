/*
 * key_width.cu -- keys of 16 and 64 bits on the CUDA backend (issue 15 item
 * 3; the order of keyorder.h, which extends paper section 5.1's unsigned
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
 * of V (2 bytes a key) and a write of 4 bytes a key before the pipeline.
 *
 * 64-bit keys (u64, i64, f64): the pipeline's stages hold 32-bit ordered
 * keys, so 64-bit keys run standalone plans only: a radix select over their
 * 64-bit ordered keys (DRTOPK_ALGO_RADIX, what drtopk_plan_auto chooses for
 * them on the CUDA backend) or sort-and-choose (DRTOPK_ALGO_SORT_CUB); see
 * "64-bit keys" below.  Exact, enqueue-only and capturable.
 */
#include <string.h>
#include <cub/device/device_radix_sort.cuh>
#include "keyorder.h"
#include "key_width.h"
#include "pipeline_spec.h"

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
/* Two standalone plans.  DRTOPK_ALGO_RADIX: a radix select over the 64-bit
 * ordered keys, 8-bit digits from the top (paper 5.1's digits, eight passes
 * instead of four): each pass histograms the digit of the keys that match
 * the digits chosen so far, one thread picks the digit holding the k-th key;
 * after the last pass the k-th key T and how many copies of it are needed
 * are known, and one pass collects every key above T and that many copies
 * of T.  Nine reads of V, no host round trip.  DRTOPK_ALGO_SORT_CUB: sort
 * every (key, position) pair with CUB and take the first k (the baseline).
 * DRTOPK_SORTED sorts the k selected pairs with CUB. */
#define RS_DIGITS (1u << DRTOPK_DIGIT_BITS)
#define RS_PASSES (KW_KEY64_BITS / DRTOPK_DIGIT_BITS)

extern "C" drtopk_status key64_plan_check(const drtopk_problem *p, const drtopk_plan *plan)
{
    if ((plan->flags & DRTOPK_DELEGATE) ||
        (plan->second_algo != DRTOPK_ALGO_RADIX && plan->second_algo != DRTOPK_ALGO_SORT_CUB)) {
        drtopk_error_set("%s keys on the CUDA backend run standalone radix or sort-cub only (--algo radix or "
                         "--algo sort-cub; drtopk_plan_auto chooses radix): the delegate pipeline and the other "
                         "algorithms hold 32-bit ordered keys", drtopk_dtype_name(p->dtype));
        return DRTOPK_ERR_UNSUPPORTED;
    }
    return DRTOPK_OK;
}

/* The radix select's state, in the workspace. */
typedef struct {
    unsigned long long hist[RS_DIGITS]; /* counts of the current digit          */
    uint64_t prefix;                    /* the digits chosen so far (then T)    */
    uint64_t need;                      /* keys equal to the prefix still needed */
    unsigned long long gt, eq;          /* collect: slots taken above T, at T   */
} rs_state;

__global__ void rs_init(rs_state *s, uint64_t k)
{
    for (unsigned d = threadIdx.x; d < RS_DIGITS; d += blockDim.x) s->hist[d] = 0;
    if (threadIdx.x == 0) {
        s->prefix = 0;
        s->need = k;
        s->gt = s->eq = 0;
    }
}

/* The bits above the digit at `shift` (none for the top digit). */
__device__ __forceinline__ uint64_t rs_above(int shift)
{
    return shift + DRTOPK_DIGIT_BITS >= KW_KEY64_BITS ? 0 : ~0ull << (shift + DRTOPK_DIGIT_BITS);
}

/* The histogram of one pass.  Warps stride together and the lanes with equal
 * digits add once (one shared atomic per digit and warp: on data with heavy
 * ties most lanes share a digit). */
__global__ void rs_hist(const uint64_t *__restrict__ v, uint64_t n, drtopk_dtype t, drtopk_order o, rs_state *s,
                        int shift)
{
    __shared__ unsigned int h[RS_DIGITS];
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x, prefix = s->prefix, above = rs_above(shift);
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
    for (unsigned d = threadIdx.x; d < RS_DIGITS; d += blockDim.x) h[d] = 0;
    __syncthreads();
    for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x - lane); w < n; w += stride) {
        const uint64_t i = w + lane;
        unsigned digit = RS_DIGITS;     /* none: out of range or another prefix */
        if (i < n) {
            const uint64_t key = drtopk_key64_from_bits(__ldg(v + i), t, o);
            if (((key ^ prefix) & above) == 0) digit = (unsigned)(key >> shift) & DRTOPK_DIGIT_MASK;
        }
        const unsigned peers = __match_any_sync(DRTOPK_FULL_MASK, digit);
        if (digit < RS_DIGITS && (int)lane == __ffs(peers) - 1) atomicAdd(&h[digit], (unsigned)__popc(peers));
    }
    __syncthreads();
    for (unsigned d = threadIdx.x; d < RS_DIGITS; d += blockDim.x)
        if (h[d]) atomicAdd(&s->hist[d], (unsigned long long)h[d]);
}

/* One thread: the digit holding the need-th largest key among those that
 * match the prefix (they number at least `need`, so digit 0 holds it when
 * no higher one does). */
__global__ void rs_pick(rs_state *s, int shift)
{
    uint64_t above = 0;
    unsigned d = RS_DIGITS - 1;
    for (; d > 0 && above + s->hist[d] < s->need; --d) above += s->hist[d];
    s->need -= above;
    s->prefix |= (uint64_t)d << shift;
    for (unsigned i = 0; i < RS_DIGITS; ++i) s->hist[i] = 0;
}

/* This lane's slot among the lanes of its warp with `mine` set, counted in
 * *ctr by one atomic per warp (every lane of the warp calls it). */
__device__ __forceinline__ unsigned long long warp_slot(unsigned long long *ctr, bool mine)
{
    const unsigned m = __ballot_sync(DRTOPK_FULL_MASK, mine), lane = threadIdx.x & DRTOPK_LANE_MASK;
    const int leader = __ffs(m) - 1;
    unsigned long long base = 0;
    if (m == 0) return 0;
    if ((int)lane == leader) base = atomicAdd(ctr, (unsigned long long)__popc(m));
    base = __shfl_sync(DRTOPK_FULL_MASK, base, leader);
    return base + (unsigned long long)__popc(m & ((1u << lane) - 1u));
}

/* Every key above T into slots [0, k - need), `need` keys equal to T into
 * [k - need, k).  Warps stride together, so every lane of a warp runs every
 * iteration (the warp-wide slot counts need all of them). */
template <typename P>
__global__ void rs_collect(const uint64_t *__restrict__ v, uint64_t n, drtopk_dtype t, drtopk_order o, rs_state *s,
                           uint64_t k, uint64_t *__restrict__ keys, P *__restrict__ pos)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x, T = s->prefix, need = s->need;
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
    for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x - lane); w < n; w += stride) {
        const uint64_t i = w + lane;
        const uint64_t key = i < n ? drtopk_key64_from_bits(__ldg(v + i), t, o) : 0;
        const bool gt = i < n && key > T;
        /* once `need` copies of T are taken the rest are skipped without atomics */
        const bool eq = i < n && key == T && *(volatile unsigned long long *)&s->eq < need;
        const unsigned long long jg = warp_slot(&s->gt, gt), je = warp_slot(&s->eq, eq);
        if (gt) {
            keys[jg] = key;
            pos[jg] = (P)i;
        } else if (eq && je < need) {
            keys[k - need + je] = key;
            pos[k - need + je] = (P)i;
        }
    }
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

/* The workspace: the radix select's state; pairs twice (CUB's double
 * buffer: n of them for sort-cub, k for the radix select, whose second copy
 * and CUB storage only DRTOPK_SORTED needs); CUB's temporary storage. */
typedef struct {
    int radix, sort;            /* radix select; a CUB sort follows (of `m` pairs) */
    uint64_t m;
    size_t state, keys[2], pos[2], tmp, tmp_bytes, total;
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
    memset(l, 0, sizeof *l);
    l->radix = plan->second_algo == DRTOPK_ALGO_RADIX;
    l->sort = !l->radix || (plan->flags & DRTOPK_SORTED);
    l->m = l->radix ? p->k : p->n;
    if (l->radix) l->state = kw_reserve(&off, sizeof(rs_state));
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
                               uint64_t *out_indices, cudaStream_t s)
{
    const uint64_t *v = (const uint64_t *)p->values;
    uint64_t *keys0 = (uint64_t *)(base + l->keys[0]), *keys1 = (uint64_t *)(base + l->keys[1]);
    P *pos0 = (P *)(base + l->pos[0]), *pos1 = (P *)(base + l->pos[1]);
    const void *take = pos0;
    if (l->radix) {
        rs_state *st = (rs_state *)(base + l->state);
        rs_init<<<1, KW_BLOCK, 0, s>>>(st, p->k);
        DRTOPK_LAUNCH_CHECK();
        for (int pass = 0; pass < RS_PASSES; ++pass) {
            const int shift = KW_KEY64_BITS - DRTOPK_DIGIT_BITS * (pass + 1);
            rs_hist<<<grid_for(p->n), KW_BLOCK, 0, s>>>(v, p->n, p->dtype, p->order, st, shift);
            DRTOPK_LAUNCH_CHECK();
            rs_pick<<<1, 1, 0, s>>>(st, shift);
            DRTOPK_LAUNCH_CHECK();
        }
        rs_collect<P><<<grid_for(p->n), KW_BLOCK, 0, s>>>(v, p->n, p->dtype, p->order, st, p->k, keys0, pos0);
        DRTOPK_LAUNCH_CHECK();
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

extern "C" drtopk_status key64_select(const drtopk_problem *p, const drtopk_plan *plan, void *ws, size_t ws_bytes,
                                      void *out_values, uint64_t *out_indices, cudaStream_t s)
{
    key64_layout l;
    const int pos64 = key64_pos64(p->n);
    drtopk_status st = pos64 ? key64_layout_of<uint64_t>(p, plan, &l) : key64_layout_of<uint32_t>(p, plan, &l);
    char *base;
    if (st != DRTOPK_OK) return st;
    if (ws == NULL || ws_bytes < l.total) return drtopk_workspace_too_small(ws, ws_bytes, l.total);
    base = (char *)drtopk_align_up((uintptr_t)ws, DRTOPK_WS_ALIGN);
    return pos64 ? key64_run<uint64_t>(p, base, &l, out_values, out_indices, s)
                 : key64_run<uint32_t>(p, base, &l, out_values, out_indices, s);
}
