/*
 * bitonic_topk.cu -- bitonic top-k (Shanbhag, Pirk, Madden, SIGMOD'18; talk
 * in ../shared/papers/bitonic-topk-sigmod18-talk.txt), the baseline of the
 * Dr. Top-k paper (sections 2.2 and 6.1) standalone and as its first/second
 * top-k (section 4).
 *
 * What it follows.  Elements are (ordered key, position) pairs packed into one
 * integer (key in the high bits, the complemented position below), so one
 * integer compare is a total order: larger key first, ties to the smaller
 * position.  K = k rounded up to a power of two.  Phase 1 (local sort) sorts
 * runs of K with a bitonic sorting network, neighbouring runs in opposite
 * directions; phase 2 (merge) takes the element-wise maximum of a pair of runs,
 * the better half of their bitonic concatenation, which holds the pair's top-K;
 * phase 3 (rebuild) sorts that bitonic half with a bitonic merge.  Merge and
 * rebuild repeat until K elements remain; the best k of them are the answer.
 * The talk's optimisations: the tile lives in shared memory; all phases of a
 * tile run in one kernel (load once, write K elements per tile, so a pass cuts
 * the data by TILE/K); every thread applies up to three consecutive steps of a
 * merge to 8 elements in registers (fewer shared-memory round trips and
 * barriers); one padding slot every 128 bytes against bank conflicts.
 *
 * Where it deviates, and why.
 * - Any n and a device-side length: the tile load pads with the worst element
 *   (packed value 0, below every real one) instead of requiring n = 2^p; grids
 *   are sized by n_max, so no host round trip is needed.
 * - Pass 2 onwards skips the local sort: each tile of pass p writes its run
 *   ascending or descending by tile parity, so the next pass reads runs that
 *   already alternate.
 * - k > 256 (the original overflows shared memory there; the Dr. Top-k paper
 *   modified it without saying how).  The shared-memory fast path serves every
 *   K <= TILE/2 (4096 for 32-bit positions).  Larger K runs the same three
 *   phases on a global buffer: bitonic steps whose stride is >= TILE are global
 *   kernels (three steps per pass, 8 elements per thread), the steps below
 *   TILE of each merge stage run in one shared-memory tile kernel, and the
 *   merge-and-halve is a global kernel.  Its cost grows with log^2 K, which is
 *   the algorithm's, not an artefact.
 * - Output: exactly k pairs, best first; *d_count = k; *d_threshold = the k-th
 *   key.  skip_last_digit does not apply (radix only) and is ignored.
 */
#include <stdint.h>
#include "baselines.h"
#include "keyorder.h"

#define BT_THREADS 512          /* tile kernels: 16 (8) elements per thread   */
#define BT_STEP_THREADS 256     /* global step and halving kernels            */
#define BT_GROUP_MAX 3          /* bitonic steps fused per pass (8 elements)  */
#define BT_BANK_BYTES 128       /* 32 banks x 4 bytes: one pad slot per row   */

/* Element type: 32-bit positions pack with the key into 64 bits; 64-bit
 * positions into 128.  Position bits are complemented so that among equal
 * keys the smaller position is the larger (better) element, and so that the
 * pad value 0 (key 0, position all-ones) stays below every real element. */
template <class E> struct bt_traits;
template <> struct bt_traits<uint64_t> {
    static constexpr int tile_log = 13;      /* 8192 x 8 B = 64 KiB + pads */
    __device__ static uint64_t pack(uint32_t key, uint64_t pos)
    {
        return ((uint64_t)key << 32) | (uint32_t)~(uint32_t)pos;
    }
    __device__ static uint32_t key(uint64_t e) { return (uint32_t)(e >> 32); }
    __device__ static uint64_t pos(uint64_t e) { return (uint32_t)~(uint32_t)e; }
};
typedef unsigned __int128 bt_u128;
template <> struct bt_traits<bt_u128> {
    static constexpr int tile_log = 12;      /* 4096 x 16 B = 64 KiB + pads */
    __device__ static bt_u128 pack(uint32_t key, uint64_t pos)
    {
        return ((bt_u128)key << 64) | (bt_u128)~pos;
    }
    __device__ static uint32_t key(bt_u128 e) { return (uint32_t)(e >> 64); }
    __device__ static uint64_t pos(bt_u128 e) { return ~(uint64_t)e; }
};

template <class E> struct bt_tile {
    static constexpr uint32_t size = 1u << bt_traits<E>::tile_log;
    static constexpr int pad_shift = (sizeof(E) == 8) ? 4 : 3;   /* log2(BT_BANK_BYTES / sizeof E) */
    static_assert(BT_BANK_BYTES / sizeof(E) == (1u << pad_shift), "one pad slot per bank row");
    static constexpr size_t smem_bytes = (size + (size >> pad_shift)) * sizeof(E);
    static constexpr int per_thread = size / BT_THREADS;
};

template <class E> __device__ __forceinline__ uint32_t bt_pad(uint32_t i)
{
    return i + (i >> bt_tile<E>::pad_shift);
}

/* Where a tile comes from. */
enum { BT_SRC_RAW = 0, BT_SRC_PAIRS, BT_SRC_BUF };
typedef struct {
    int kind;
    const uint32_t *raw;
    drtopk_dtype dtype;
    drtopk_order order;
    const uint32_t *keys;
    const void *pos;
    int pos64;
    const uint64_t *d_n;        /* RAW / PAIRS: device length (NULL: len)  */
    uint64_t len;               /* elements addressable (n_max or buffer)  */
    const void *buf;            /* BT_SRC_BUF                              */
} bt_src;

typedef struct {
    uint32_t *keys;
    void *pos;
    int pos64;
    uint64_t *d_count;
    uint32_t *d_threshold;
    uint64_t k;
} bt_dst;

__device__ __forceinline__ uint64_t bt_src_len(const bt_src &s)
{
    if (s.d_n == NULL) return s.len;
    const uint64_t n = *s.d_n;
    return n < s.len ? n : s.len;
}

template <class E> __device__ __forceinline__ E bt_load(const bt_src &s, uint64_t i, uint64_t n)
{
    typedef bt_traits<E> T;
    if (i >= n) return (E)0;
    if (s.kind == BT_SRC_RAW) return T::pack(drtopk_key_from_bits(s.raw[i], s.dtype, s.order), i);
    if (s.kind == BT_SRC_PAIRS) {
        uint64_t p = s.pos64 ? ((const uint64_t *)s.pos)[i] : ((const uint32_t *)s.pos)[i];
        return T::pack(s.keys[i], p);
    }
    return ((const E *)s.buf)[i];
}

/* Compare-exchange: lower slot gets the min when ascending. */
template <class E> __device__ __forceinline__ void bt_cmpx(E &a, E &b, bool asc)
{
    E lo = a < b ? a : b, hi = a < b ? b : a;
    a = asc ? lo : hi;
    b = asc ? hi : lo;
}

/* S consecutive steps (strides j, j/2, .., j/2^(S-1)) of the bitonic merge
 * stage `size` on 2^S elements held in registers; ascending where the global
 * index has bit `size` clear. */
template <int S, class E> __device__ __forceinline__ void bt_group_regs(E (&v)[1 << S], bool asc)
{
#pragma unroll
    for (int st = 0; st < S; ++st) {
        const int h = 1 << (S - 1 - st);
#pragma unroll
        for (int m = 0; m < (1 << S); ++m)
            if ((m & h) == 0) bt_cmpx(v[m], v[m + h], asc);
    }
}

/* First index of group t: insert S zero bits at bit log2(q). */
__device__ __forceinline__ uint64_t bt_group_base(uint64_t t, uint64_t q, int S)
{
    const uint64_t low = t & (q - 1);
    return ((t - low) << S) | low;
}

template <int S, class E>
__device__ void bt_group_smem(E *sm, uint32_t n, uint64_t tile_base, uint64_t size, uint32_t j)
{
    const uint32_t q = j >> (S - 1);
    for (uint32_t t = threadIdx.x; t < (n >> S); t += blockDim.x) {
        const uint32_t b = (uint32_t)bt_group_base(t, q, S);
        const bool asc = ((tile_base + b) & size) == 0;
        E v[1 << S];
#pragma unroll
        for (int m = 0; m < (1 << S); ++m) v[m] = sm[bt_pad<E>(b + m * q)];
        bt_group_regs<S>(v, asc);
#pragma unroll
        for (int m = 0; m < (1 << S); ++m) sm[bt_pad<E>(b + m * q)] = v[m];
    }
}

/* Steps jtop, jtop/2, .., 1 of merge stage `size` over sm[0..n). */
template <class E>
__device__ void bt_merge_smem(E *sm, uint32_t n, uint64_t tile_base, uint64_t size, uint32_t jtop)
{
    int left = 0;
    for (uint32_t j = jtop; j; j >>= 1) ++left;
    uint32_t j = jtop;
    while (left > 0) {
        const int S = left < BT_GROUP_MAX ? left : BT_GROUP_MAX;
        if (S == 3) bt_group_smem<3>(sm, n, tile_base, size, j);
        else if (S == 2) bt_group_smem<2>(sm, n, tile_base, size, j);
        else bt_group_smem<1>(sm, n, tile_base, size, j);
        __syncthreads();
        j >>= S;
        left -= S;
    }
}

/* Merge-and-halve in place: sm[x] = max(run 2r, run 2r+1) element-wise, for
 * the n/2 outputs; every read happens before any write. */
template <class E> __device__ void bt_halve_smem(E *sm, uint32_t n, uint32_t K, int klog)
{
    constexpr int R = bt_tile<E>::per_thread / 2;
    E v[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
        const uint32_t x = threadIdx.x + r * BT_THREADS;
        if (x < n / 2) {
            const uint32_t i = ((x >> klog) << (klog + 1)) | (x & (K - 1));
            const E a = sm[bt_pad<E>(i)], b = sm[bt_pad<E>(i + K)];
            v[r] = a < b ? b : a;
        }
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < R; ++r) {
        const uint32_t x = threadIdx.x + r * BT_THREADS;
        if (x < n / 2) sm[bt_pad<E>(x)] = v[r];
    }
    __syncthreads();
}

template <class E> __device__ void bt_load_tile(E *sm, const bt_src &src, uint64_t base)
{
    const uint64_t n = bt_src_len(src);
    for (uint32_t i = threadIdx.x; i < bt_tile<E>::size; i += blockDim.x)
        sm[bt_pad<E>(i)] = bt_load<E>(src, base + i, n);
    __syncthreads();
}

/* Write the best k of an ascending run of K (sm or global), best first. */
template <class E> __device__ void bt_emit(const bt_dst &d, E e, uint64_t i)
{
    typedef bt_traits<E> T;
    d.keys[i] = T::key(e);
    if (d.pos64) ((uint64_t *)d.pos)[i] = T::pos(e);
    else ((uint32_t *)d.pos)[i] = (uint32_t)T::pos(e);
}

/* Fast path (K <= TILE/2): one tile per block, all three phases in shared
 * memory.  Not final: writes the tile's top-K run to dst + blockIdx.x*K,
 * ascending for even blocks and descending for odd ones.  Final (one block):
 * writes the answer. */
template <class E>
__global__ void __launch_bounds__(BT_THREADS)
bt_fast_pass(bt_src src, int presorted, uint32_t K, int klog, E *dst, int final_pass, bt_dst out)
{
    extern __shared__ __align__(16) unsigned char bt_smem[];
    E *sm = (E *)bt_smem;
    const uint32_t M = bt_tile<E>::size;
    bt_load_tile<E>(sm, src, (uint64_t)blockIdx.x * M);
    if (!presorted)
        for (uint32_t size = 2; size <= K; size <<= 1) bt_merge_smem<E>(sm, M, 0, size, size >> 1);
    for (uint32_t n = M; n > K; n >>= 1) {
        bt_halve_smem<E>(sm, n, K, klog);
        bt_merge_smem<E>(sm, n / 2, 0, K, K >> 1);
    }
    if (final_pass) {
        for (uint32_t i = threadIdx.x; i < out.k; i += blockDim.x) bt_emit<E>(out, sm[bt_pad<E>(K - 1 - i)], i);
        if (threadIdx.x == 0) {
            *out.d_count = out.k;
            *out.d_threshold = bt_traits<E>::key(sm[bt_pad<E>(K - (uint32_t)out.k)]);
        }
        return;
    }
    const bool desc = blockIdx.x & 1;
    E *o = dst + (uint64_t)blockIdx.x * K;
    for (uint32_t i = threadIdx.x; i < K; i += blockDim.x) o[i] = sm[bt_pad<E>(desc ? K - 1 - i : i)];
}

/* Large-K path, shared-memory part: with sort != 0, sort stages 2..sort_upto
 * (<= TILE); else the steps TILE/2..1 of merge stage `size` (> TILE/2). */
template <class E>
__global__ void __launch_bounds__(BT_THREADS)
bt_tile_kernel(bt_src src, E *dst, int sort, uint64_t sort_upto, uint64_t size)
{
    extern __shared__ __align__(16) unsigned char bt_smem[];
    E *sm = (E *)bt_smem;
    const uint32_t M = bt_tile<E>::size;
    const uint64_t base = (uint64_t)blockIdx.x * M;
    bt_load_tile<E>(sm, src, base);
    if (sort)
        for (uint64_t sz = 2; sz <= sort_upto; sz <<= 1) bt_merge_smem<E>(sm, M, base, sz, (uint32_t)(sz >> 1));
    else
        bt_merge_smem<E>(sm, M, base, size, M >> 1);
    for (uint32_t i = threadIdx.x; i < M; i += blockDim.x) dst[base + i] = sm[bt_pad<E>(i)];
}

/* Large-K path: S steps with strides j..j/2^(S-1) (all >= TILE) of merge
 * stage `size` over x[0..len), 2^S elements per thread. */
template <int S, class E>
__global__ void __launch_bounds__(BT_STEP_THREADS)
bt_global_group(E *x, uint64_t len, uint64_t size, uint64_t j)
{
    const uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (len >> S)) return;
    const uint64_t q = j >> (S - 1);
    const uint64_t b = bt_group_base(t, q, S);
    const bool asc = (b & size) == 0;
    E v[1 << S];
#pragma unroll
    for (int m = 0; m < (1 << S); ++m) v[m] = x[b + m * q];
    bt_group_regs<S>(v, asc);
#pragma unroll
    for (int m = 0; m < (1 << S); ++m) x[b + m * q] = v[m];
}

/* Large-K merge-and-halve: y[x] = max(run 2r, run 2r+1) element-wise; an odd
 * last run has no partner and is copied. */
template <class E>
__global__ void __launch_bounds__(BT_STEP_THREADS)
bt_global_halve(const E *x, uint64_t len, E *y, uint64_t out_len, uint64_t K, int klog)
{
    const uint64_t o = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (o >= out_len) return;
    const uint64_t i = ((o >> klog) << (klog + 1)) | (o & (K - 1));
    const E a = x[i];
    const E b = i + K < len ? x[i + K] : (E)0;
    y[o] = a < b ? b : a;
}

/* Large-K answer: the best k of the ascending run x[0..K). */
template <class E>
__global__ void __launch_bounds__(BT_STEP_THREADS)
bt_global_emit(const E *x, uint64_t K, bt_dst out)
{
    const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < out.k) bt_emit<E>(out, x[K - 1 - i], i);
    if (i == 0) {
        *out.d_count = out.k;
        *out.d_threshold = bt_traits<E>::key(x[K - out.k]);
    }
}

/* ---- host side -------------------------------------------------------- */

typedef struct {
    uint64_t K;
    int klog;
    int fast;                   /* K <= TILE/2                              */
    uint64_t buf_a, buf_b;      /* elements of the two ping-pong buffers    */
    size_t elem;
} bt_plan;

static uint64_t bt_ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* The two ping-pong buffers, carved from the first aligned address at or
 * after the workspace (`ws` NULL: only sized; the size has room to align). */
static size_t bt_carve(const bt_plan *p, void *ws, void **a, void **b)
{
    char *base = ws ? (char *)drtopk_align_up((uintptr_t)ws, DRTOPK_WS_ALIGN) : NULL;
    size_t off = 0;
    *a = drtopk_carve(base, &off, p->buf_a * p->elem);
    *b = drtopk_carve(base, &off, p->buf_b * p->elem);
    return drtopk_align_up(off, DRTOPK_WS_ALIGN) + DRTOPK_WS_ALIGN;
}

static drtopk_status bt_make_plan(const topk_input *in, bt_plan *p)
{
    if (in == NULL || p == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    if (in->n_max == 0) return DRTOPK_ERR_N_ZERO;
    if (in->k == 0) return DRTOPK_ERR_K_ZERO;
    if (in->k > in->n_max) return DRTOPK_ERR_K_GT_N;
    if (!in->pos64 && in->n_max > DRTOPK_POS32_MAX_N) return DRTOPK_ERR_INVALID_ARGUMENT;
    const int tile_log = in->pos64 ? bt_traits<bt_u128>::tile_log : bt_traits<uint64_t>::tile_log;
    const uint64_t M = 1ull << tile_log;
    p->elem = in->pos64 ? sizeof(bt_u128) : sizeof(uint64_t);
    p->klog = 0;
    while ((1ull << p->klog) < in->k) ++p->klog;
    p->K = 1ull << p->klog;
    p->fast = p->K <= M / 2;
    if (p->fast) {
        /* pass 1 reads the source; later passes ping-pong between a and b */
        const uint64_t blocks1 = bt_ceil_div(in->n_max, M), len1 = blocks1 * p->K;
        const uint64_t blocks2 = bt_ceil_div(len1, M);
        p->buf_a = blocks1 > 1 ? len1 : 0;
        p->buf_b = blocks1 > 1 && blocks2 > 1 ? blocks2 * p->K : 0;
    } else {
        const uint64_t runs = bt_ceil_div(in->n_max, p->K);
        p->buf_a = runs * p->K;
        p->buf_b = runs > 1 ? bt_ceil_div(runs, 2) * p->K : 0;
    }
    return DRTOPK_OK;
}

extern "C" drtopk_status bitonic_topk_workspace(const topk_input *in, size_t *bytes)
{
    bt_plan p;
    void *a, *b;
    drtopk_status st;
    if (bytes == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    if ((st = bt_make_plan(in, &p)) != DRTOPK_OK) return st;
    *bytes = bt_carve(&p, NULL, &a, &b);
    return DRTOPK_OK;
}

template <int S, class E>
static drtopk_status bt_launch_group(E *x, uint64_t len, uint64_t size, uint64_t j, cudaStream_t s)
{
    const uint64_t groups = len >> S;
    bt_global_group<S, E><<<(unsigned)bt_ceil_div(groups, BT_STEP_THREADS), BT_STEP_THREADS, 0, s>>>(x, len, size, j);
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

/* Global steps with strides j = jtop .. TILE of merge stage `size`. */
template <class E>
static drtopk_status bt_global_steps(E *x, uint64_t len, uint64_t size, uint64_t jtop, cudaStream_t s)
{
    const uint64_t M = bt_tile<E>::size;
    drtopk_status st = DRTOPK_OK;
    int left = 0;
    for (uint64_t j = jtop; j >= M; j >>= 1) ++left;
    uint64_t j = jtop;
    while (left > 0 && st == DRTOPK_OK) {
        const int S = left < BT_GROUP_MAX ? left : BT_GROUP_MAX;
        if (S == 3) st = bt_launch_group<3, E>(x, len, size, j, s);
        else if (S == 2) st = bt_launch_group<2, E>(x, len, size, j, s);
        else st = bt_launch_group<1, E>(x, len, size, j, s);
        j >>= S;
        left -= S;
    }
    return st;
}

template <class E>
static drtopk_status bt_run(const topk_input *in, const topk_output *out, const bt_plan *p,
                            void *ws, cudaStream_t s)
{
    const uint64_t M = bt_tile<E>::size;
    const size_t smem = bt_tile<E>::smem_bytes;
    void *va, *vb;
    bt_carve(p, ws, &va, &vb);
    E *a = (E *)va;
    E *b = (E *)vb;
    bt_src src;
    bt_dst dst;
    drtopk_status st;

    /* the tile (64 KiB and pads) needs the opt-in shared memory: a GPU with
     * less answers DRTOPK_ERR_UNSUPPORTED */
    if ((st = drtopk_kernel_dynamic_smem((const void *)bt_fast_pass<E>, smem)) != DRTOPK_OK) return st;
    if ((st = drtopk_kernel_dynamic_smem((const void *)bt_tile_kernel<E>, smem)) != DRTOPK_OK) return st;
    src.kind = in->src == TOPK_SRC_RAW ? BT_SRC_RAW : BT_SRC_PAIRS;
    src.raw = (const uint32_t *)in->raw;
    src.dtype = in->dtype;
    src.order = in->order;
    src.keys = in->keys;
    src.pos = in->pos;
    src.pos64 = in->pos64;
    src.d_n = in->d_n;
    src.len = in->n_max;
    src.buf = NULL;
    dst.keys = out->keys;
    dst.pos = out->pos;
    dst.pos64 = in->pos64;
    dst.d_count = out->d_count;
    dst.d_threshold = out->d_threshold;
    dst.k = in->k;

    if (p->fast) {
        uint64_t len = in->n_max;
        int presorted = 0;
        E *from = NULL, *to = a;
        for (;;) {
            const uint64_t blocks = bt_ceil_div(len, M);
            const int final_pass = blocks == 1;
            bt_fast_pass<E><<<(unsigned)blocks, BT_THREADS, smem, s>>>(src, presorted, (uint32_t)p->K, p->klog,
                                                                       to, final_pass, dst);
            DRTOPK_LAUNCH_CHECK();
            if (final_pass) return DRTOPK_OK;
            len = blocks * p->K;
            src.kind = BT_SRC_BUF;
            src.d_n = NULL;
            src.len = len;
            src.buf = to;
            presorted = 1;
            from = to;
            to = (from == a) ? b : a;
        }
    }

    uint64_t runs = bt_ceil_div(in->n_max, p->K);
    uint64_t len = runs * p->K;
    const uint64_t sort_upto = p->K < M ? p->K : M;
    bt_tile_kernel<E><<<(unsigned)(len / M), BT_THREADS, smem, s>>>(src, a, 1, sort_upto, 0);
    DRTOPK_LAUNCH_CHECK();
    src.kind = BT_SRC_BUF;
    src.d_n = NULL;
    for (uint64_t size = 2 * M; size <= p->K; size <<= 1) {
        if ((st = bt_global_steps<E>(a, len, size, size >> 1, s)) != DRTOPK_OK) return st;
        src.len = len;
        src.buf = a;
        bt_tile_kernel<E><<<(unsigned)(len / M), BT_THREADS, smem, s>>>(src, a, 0, 0, size);
        DRTOPK_LAUNCH_CHECK();
    }
    E *cur = a, *other = b;
    while (runs > 1) {
        const uint64_t runs2 = bt_ceil_div(runs, 2);
        const uint64_t len2 = runs2 * p->K;
        bt_global_halve<E><<<(unsigned)bt_ceil_div(len2, BT_STEP_THREADS), BT_STEP_THREADS, 0, s>>>(
            cur, len, other, len2, p->K, p->klog);
        DRTOPK_LAUNCH_CHECK();
        if ((st = bt_global_steps<E>(other, len2, p->K, p->K >> 1, s)) != DRTOPK_OK) return st;
        src.len = len2;
        src.buf = other;
        bt_tile_kernel<E><<<(unsigned)(len2 / M), BT_THREADS, smem, s>>>(src, other, 0, 0, p->K);
        DRTOPK_LAUNCH_CHECK();
        E *t = cur;
        cur = other;
        other = t;
        runs = runs2;
        len = len2;
    }
    bt_global_emit<E><<<(unsigned)bt_ceil_div(in->k, BT_STEP_THREADS), BT_STEP_THREADS, 0, s>>>(cur, p->K, dst);
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

extern "C" drtopk_status bitonic_topk(const topk_input *in, const topk_output *out, void *ws,
                                      size_t ws_bytes, cudaStream_t s)
{
    bt_plan p;
    size_t need;
    drtopk_status st;
    if ((st = topk_check_input(in)) != DRTOPK_OK) return st;
    if ((st = bitonic_topk_workspace(in, &need)) != DRTOPK_OK) return st;
    if ((st = topk_check_run(in, out, ws, ws_bytes, need)) != DRTOPK_OK) return st;
    if ((st = bt_make_plan(in, &p)) != DRTOPK_OK) return st;
    return in->pos64 ? bt_run<bt_u128>(in, out, &p, ws, s) : bt_run<uint64_t>(in, out, &p, ws, s);
}
