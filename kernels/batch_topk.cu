/*
 * batch_topk.cu -- batched and segmented top-k on the GPU (drtopk.h,
 * drtopk_batch_*): the binning of variable segments and the host side
 * that plans the launches.  The algorithms, chosen per segment by the
 * batch plan's crossovers and the GPU's shared memory, each in its file:
 *   - tiny rows in a warp's registers (batch_tiny.cuh; MoE routing);
 *   - the warp queue (batch_warp_queue.cuh; off in the default plan);
 *   - the staged radix select, a segment in shared memory, and its chunked
 *     form for long uniform rows (batch_staged.cuh);
 *   - the filter select, one read of a segment above a sampled threshold
 *     (batch_filter.cuh; sparse attention), and the row filter, the same
 *     with a uniform row split over blocks (batch_rowfilter.cuh; token
 *     sampling);
 *   - the split radix select, long segments read by many blocks a pass
 *     (batch_split.cuh);
 *   - the Dr. Top-k pipeline (paper sections 4-5) across blocks for variable
 *     segments longer than dr_min_len and for two or more uniform rows longer
 *     than the plan's block_max_len (batch_dr.cuh: one launch a step for all
 *     of them, one read of a segment and k 2^alpha keys again, not one per
 *     pass); a single such row (and sorted rows of k past BATCH_SORT_MAX)
 *     runs the single pipeline (drtopk_cuda_select) row by row;
 * what they share is in batch_common.cuh.
 * Variable segments are binned on the device by class and log2 length
 * (logarithmic radix binning, Green et al.): one thread per segment appends
 * its id to its bin's list; each bin is then launched with its own shape and
 * a grid-stride loop over the bin's device-side count, so the host never
 * reads the lengths.
 */
#include "batch_common.cuh"
#include "batch_tiny.cuh"
#include "batch_warp_queue.cuh"
#include "batch_staged.cuh"
#include "batch_split.cuh"
#include "batch_filter.cuh"
#include "batch_rowfilter.cuh"
#include "batch_dr.cuh"

/* ---- logarithmic radix binning of variable segments -------------------------- */
/* What the binning routes by besides a segment's length and k_s: the
 * plan's crossovers on this GPU (staged_cap: the longest segment a staged
 * block holds; the filter select's: filter_here). */
typedef struct {
    uint64_t warp_max_k, warp_max_len, tiny_max_k, filter_min_len, filter_max_words, staged_cap;
    int key_bits, sorted;
} bin_rules;

/* ceil(log2 len), 0 for len <= 1, on the host and the device. */
__host__ __device__ static inline int ceil_log2(uint64_t len)
{
#ifdef __CUDA_ARCH__
    return len > 1 ? 64 - __clzll((long long)(len - 1)) : 0;
#else
    return len > 1 ? 64 - __builtin_clzll(len - 1) : 0;
#endif
}

/* The bin of a segment of len >= 1 keys, k_s = ks >= 1 that the Dr.
 * pipeline does not take (dr_take): the host's and the binning kernel's
 * one rule. */
__host__ __device__ static int bin_of(const bin_rules &r, uint64_t len, uint64_t ks)
{
    const int lg = ceil_log2(len);
    if (lg <= BATCH_TINY_LOG2 && ks <= r.tiny_max_k) return BIN_TINY;
    if (lg <= BATCH_STAGED_MAX_LOG2 && ks <= r.warp_max_k && len <= r.warp_max_len)
        return lg <= BATCH_WARP_SHORT_LOG2 ? BIN_WARP_SHORT : BIN_WARP_LONG;
    if (drtopk_batch_filter_takes(r.key_bits, r.filter_min_len, r.staged_cap, len, ks, r.sorted, r.filter_max_words))
        return drtopk_batch_filter_wide(len, ks) ? BIN_FILTER_WIDE : BIN_FILTER;
    if (lg > BATCH_STAGED_MAX_LOG2 || len > r.staged_cap) return BIN_SPLIT;
    if (lg <= BATCH_STAGED_WARP_LOG2) return BIN_STAGED_WARP;
    return BIN_STAGED_BLOCK + lg - BATCH_STAGED_WARP_LOG2 - 1;
}

__global__ void bin_kernel(batch_args a, bin_rules r, unsigned long long *counts, uint64_t *lists, split_state *states,
                           dr_ws dr)
{
    const uint64_t s = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= a.segments) return;
    uint64_t start, len;
    const uint64_t ks = seg_info(a, s, &start, &len);
    if (ks == 0) {              /* nothing to select: padding only */
        for (uint64_t j = 0; j < a.k; ++j) {
            drtopk_bits_store(a.out_values, s * a.k + j, (drtopk_dtype)a.dtype, 0);
            a.out_indices[s * a.k + j] = DRTOPK_INDEX_NONE;
        }
        return;
    }
    if (dr_take(a, dr, counts, lists, s, start, len, ks)) return;
    const int bin = bin_of(r, len, ks);
    const unsigned long long at = atomicAdd(&counts[bin], 1ull);
    lists[(uint64_t)bin * a.segments + at] = s;
    if (bin == BIN_SPLIT) {     /* a fresh search state */
        unsigned long long *w = (unsigned long long *)(states + at);
        for (size_t j = 0; j < sizeof(split_state) / sizeof *w; ++j) w[j] = 0;
    }
}

/* ---- host side ------------------------------------------------------------------ */

/* The least length of staged bin b's segments (BIN_STAGED_WARP: 1). */
static uint64_t staged_bin_min_len(int b)
{
    return b == BIN_STAGED_WARP ? 1 : (1ull << (BATCH_STAGED_WARP_LOG2 + b - BIN_STAGED_BLOCK)) + 1;
}

/* Whether bin b (not the Dr. pipeline's) may receive a segment of p
 * (segments of at most max_len keys), so that it is launched: a launch
 * costs the host microseconds even when its bin is empty.  Uniform rows of
 * one k take the one bin bin_of gives them, and the split select the rows
 * a filter bin hands on; variable segments every bin that their lengths and
 * the rules r allow. */
static int bin_may(int b, const bin_rules &r, const drtopk_batch_problem *p, uint64_t max_len)
{
    if (p->offsets == NULL && p->ks == NULL) {
        const int rb = bin_of(r, p->len, p->k);
        return b == rb || (b == BIN_SPLIT && (rb == BIN_FILTER || rb == BIN_FILTER_WIDE));
    }
    switch (b) {
    case BIN_TINY: return r.tiny_max_k > 0;
    case BIN_WARP_SHORT: return r.warp_max_k > 0 && r.warp_max_len > 0;
    case BIN_WARP_LONG:
        return r.warp_max_k > 0 && r.warp_max_len > (1ull << BATCH_WARP_SHORT_LOG2) &&
               max_len > (1ull << BATCH_WARP_SHORT_LOG2);
    case BIN_FILTER: return r.filter_min_len > 0 && r.key_bits <= 32;
    case BIN_FILTER_WIDE:
        return r.filter_min_len > 0 && r.key_bits <= 32 && r.filter_max_words > BATCH_FILTER_WORDS &&
               drtopk_batch_filter_wide(max_len, p->k);
    case BIN_SPLIT: return 1;
    default:                    /* staged: lengths it holds, below the cap (longer ones go to split) */
        return staged_bin_min_len(b) <= max_len && staged_bin_min_len(b) <= r.staged_cap;
    }
}

/* F<T>::run(args...) for the key type t. */
template <template <int> class F, typename... A>
static drtopk_status batch_dispatch(drtopk_dtype t, A... args)
{
    switch (t) {
    case DRTOPK_U32: return F<DRTOPK_U32>::run(args...);
    case DRTOPK_I32: return F<DRTOPK_I32>::run(args...);
    case DRTOPK_F32: return F<DRTOPK_F32>::run(args...);
    case DRTOPK_F16: return F<DRTOPK_F16>::run(args...);
    case DRTOPK_BF16: return F<DRTOPK_BF16>::run(args...);
    case DRTOPK_U64: return F<DRTOPK_U64>::run(args...);
    case DRTOPK_I64: return F<DRTOPK_I64>::run(args...);
    case DRTOPK_F64: return F<DRTOPK_F64>::run(args...);
    default: return DRTOPK_ERR_INVALID_ARGUMENT;
    }
}

template <int T>
struct warp_launch {
    static drtopk_status run(batch_args a, int warps, unsigned grid, cudaStream_t st)
    {
        if (warps == BATCH_WARPS_SHORT)
            warp_select_kernel<T, BATCH_WARPS_SHORT><<<grid, BATCH_WARPS_SHORT * DRTOPK_WARP, 0, st>>>(a);
        else
            warp_select_kernel<T, BATCH_WARPS_LONG><<<grid, BATCH_WARPS_LONG * DRTOPK_WARP, 0, st>>>(a);
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
};

template <int T>
struct tiny_launch {
    static drtopk_status run(batch_args a, unsigned grid, cudaStream_t st)
    {
        warp_tiny_kernel<T><<<grid, BATCH_TINY_WARPS * DRTOPK_WARP, 0, st>>>(a);
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
};

/* Ordered-key bytes of the staged select for key type t. */
static size_t staged_key_bytes(drtopk_dtype t) { return drtopk_dtype_size(t) > sizeof(uint32_t) ? sizeof(uint64_t) : sizeof(uint32_t); }

/* Segments of at most 2^BATCH_STAGED_WARP_LOG2 keys stage in a warp. */
static int staged_warp_group(uint64_t cap) { return cap <= (1ull << BATCH_STAGED_WARP_LOG2); }

/* The head and digit counts of a group holding cap keys. */
static size_t staged_counts_bytes(uint64_t cap)
{
    return round16(sizeof(staged_head)) + ((size_t)1 << staged_digit_bits(staged_warp_group(cap))) * sizeof(unsigned);
}

/* The shared memory of a group holding cap keys of type t. */
static staged_shape staged_shape_of(drtopk_dtype t, uint64_t cap, int sorted, uint64_t k)
{
    staged_shape sh;
    const uint64_t slack = BATCH_VEC_BYTES / drtopk_dtype_size(t), qk = k < cap ? k : cap;
    sh.cap = cap;
    sh.keys_bytes = round16((size_t)(cap + slack) * staged_key_bytes(t));
    sh.group_bytes = staged_counts_bytes(cap) + sh.keys_bytes + (sorted ? pow2_at_least(qk, 2) * sizeof(kpair) : 0);
    return sh;
}

/* The longest segment one block stages in the GPU's opt-in shared memory. */
static uint64_t staged_cap(drtopk_dtype t, int sorted, uint64_t k, size_t smem_optin)
{
    const size_t fixed = staged_counts_bytes(UINT64_MAX) + (sorted ? pow2_at_least(k, 2) * sizeof(kpair) : 0);
    if (smem_optin <= fixed) return 0;
    uint64_t cap = (smem_optin - fixed) / staged_key_bytes(t);
    while (cap > 0 && staged_shape_of(t, cap, sorted, k).group_bytes > smem_optin) --cap;
    return cap;
}

/* Threads of a block of `kernel` (the staged select of segments of up to cap
 * keys, smem bytes of shared memory a block): the most threads that still
 * keep the most blocks, i.e. segments in flight, an SM.  A block's phases wait
 * on each other (stage, sample, list, digit passes, gather), so an SM stays
 * busy through other blocks, and the rows in flight count first (one H100,
 * 10000 rows of 10000 f32 keys, k 100: 256 threads and 5 blocks an SM, at 48
 * registers, 0.234 ms; 512 threads and 3 blocks 0.274); the threads then
 * shorten each phase (rows of 8192 keys: 256 threads and 6 blocks 0.206 ms;
 * 128 threads and 6 blocks, at 48 registers, 0.227).  docs/changelog.md,
 * 2026-11-27, builds b3 and b4. */
static drtopk_status staged_block_threads(const void *kernel, uint64_t cap, size_t smem, unsigned *threads)
{
    const uint64_t most = pow2_at_least(cap, 1) / BATCH_STAGED_KEYS_MIN;
    int best = 0;
    *threads = BATCH_STAGED_THREADS_MIN;
    for (unsigned t = BATCH_STAGED_THREADS_MIN; t <= BATCH_STAGED_THREADS_MAX && t <= most; t *= 2) {
        int b;
        const drtopk_status st = drtopk_kernel_occupancy(kernel, (int)t, smem, NULL, &b);
        if (st != DRTOPK_OK) return st;
        if (b < best) break;    /* fewer blocks an SM from here on */
        best = b;
        *threads = t;
    }
    return DRTOPK_OK;
}

static unsigned grid_for(uint64_t units, unsigned cap)
{
    return (unsigned)(units < cap ? (units ? units : 1) : cap);
}

/* The launch of a staged select over `segments` segments of at most cap keys
 * each, computed and checked against the GPU here and nowhere else: a warp
 * per segment (BATCH_STAGED_WARPS groups a block, fewer where the GPU's
 * shared memory holds fewer) or a block per segment; at most grid_cap blocks
 * (the kernel strides over the rest). */
typedef struct {
    staged_shape sh;
    int warp_group;             /* a group is a warp (else the block)   */
    unsigned groups, threads, blocks;
    size_t smem;                /* dynamic shared memory of a block     */
} staged_config;

static drtopk_status staged_config_of(drtopk_dtype t, uint64_t cap, int sorted, uint64_t k, uint64_t segments,
                                      unsigned grid_cap, staged_config *c)
{
    const drtopk_device_attrs *dev;
    drtopk_status st;
    if ((st = drtopk_device_current(NULL, &dev)) != DRTOPK_OK) return st;
    c->sh = staged_shape_of(t, cap, sorted, k);
    if (cap == 0 || c->sh.group_bytes > dev->smem_optin) {
        drtopk_error_set("the staged select of %s segments of up to %llu keys (k %llu%s) needs %zu bytes of shared "
                         "memory; %s allows %zu per block",
                         drtopk_dtype_name(t), (unsigned long long)cap, (unsigned long long)k,
                         sorted ? ", sorted" : "", c->sh.group_bytes, dev->name, dev->smem_optin);
        return DRTOPK_ERR_UNSUPPORTED;
    }
    c->warp_group = staged_warp_group(cap);
    c->groups = 1;
    if (c->warp_group) {
        const size_t fit = dev->smem_optin / c->sh.group_bytes;
        c->groups = fit < BATCH_STAGED_WARPS ? (unsigned)fit : BATCH_STAGED_WARPS;
    }
    c->threads = c->warp_group ? c->groups * DRTOPK_WARP : BATCH_STAGED_THREADS_MIN; /* blocks: at launch */
    c->smem = c->sh.group_bytes * c->groups;
    c->blocks = grid_for((segments + c->groups - 1) / c->groups, grid_cap);
    return DRTOPK_OK;
}

/* The staged select of the segments a covers (shape c). */
template <int T>
struct staged_launch {
    static drtopk_status run(batch_args a, staged_config c, int sorted, cudaStream_t st)
    {
        if (c.warp_group) return sorted ? go<true, true>(a, c, st) : go<true, false>(a, c, st);
        return sorted ? go<false, true>(a, c, st) : go<false, false>(a, c, st);
    }
    template <bool WARP_GROUP, bool SORTED>
    static drtopk_status go(batch_args a, staged_config c, cudaStream_t st)
    {
        drtopk_status s;
        const void *kernel = (const void *)staged_kernel<T, WARP_GROUP, SORTED>;
        if ((s = drtopk_kernel_dynamic_smem(kernel, c.smem)) != DRTOPK_OK) return s;
        if (!WARP_GROUP && (s = staged_block_threads(kernel, c.sh.cap, c.smem, &c.threads)) != DRTOPK_OK) return s;
        staged_kernel<T, WARP_GROUP, SORTED><<<c.blocks, c.threads, c.smem, st>>>(a, c.sh);
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
};

/* The staged select of a.segments segments of at most cap keys. */
static drtopk_status staged_run(batch_args a, uint64_t cap, int sorted, unsigned grid_cap, cudaStream_t cs)
{
    staged_config c;
    const drtopk_status st = staged_config_of((drtopk_dtype)a.dtype, cap, sorted, a.k, a.segments, grid_cap, &c);
    if (st != DRTOPK_OK) return st;
    return batch_dispatch<staged_launch>((drtopk_dtype)a.dtype, a, c, sorted, cs);
}

/* The filter select of bin BIN's segments (drtopk_batch_filter_takes binned
 * them: keys of at most 32 bits), a block each, at most the co-resident
 * blocks (the kernel strides over the rest); the segments its threshold
 * fails go to the split select's bin. */
template <int T, int BIN>
static drtopk_status filter_launch_bin(batch_args a, split_state *states, int sorted, cudaStream_t st)
{
    typedef filter_shape<BIN> shape;
    const drtopk_device_attrs *dev;
    drtopk_status s;
    int per_sm = 0;
    const void *kernel = (const void *)filter_kernel<T, BIN>;
    if ((s = drtopk_device_current(NULL, &dev)) != DRTOPK_OK) return s;
    const size_t smem = sorted ? shape::smem : shape::words * sizeof(uint64_t);
    if ((s = drtopk_kernel_dynamic_smem(kernel, shape::smem)) != DRTOPK_OK) return s;
    if ((s = drtopk_kernel_occupancy(kernel, shape::threads, smem, NULL, &per_sm)) != DRTOPK_OK) return s;
    const unsigned grid = grid_for(a.segments, (unsigned)(per_sm > 0 ? per_sm : 1) * (unsigned)dev->sm_count);
    filter_kernel<T, BIN><<<grid, shape::threads, smem, st>>>(a, states, sorted);
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

template <int T>
struct filter_launch {
    static drtopk_status run(batch_args a, split_state *states, int sorted, int wide, cudaStream_t st)
    {
        if constexpr (sizeof(typename elem_of<T>::raw) > sizeof(uint32_t)) {
            drtopk_error_set("the filter select takes keys of at most 32 bits, not %s", drtopk_dtype_name((drtopk_dtype)T));
            return DRTOPK_ERR_UNSUPPORTED;
        } else {
            return wide ? filter_launch_bin<T, BIN_FILTER_WIDE>(a, states, sorted, st)
                        : filter_launch_bin<T, BIN_FILTER>(a, states, sorted, st);
        }
    }
};

/* The filter select on this GPU: the plan's filter_min_len where its blocks
 * hold a filter block's words (else 0: off), and the most words a segment's
 * block may list (a wide block's where they hold one). */
typedef struct {
    uint64_t min_len, max_words;
} filter_here;

static filter_here filter_here_of(const drtopk_batch_plan *plan, const drtopk_device_attrs *dev)
{
    filter_here f;
    f.min_len = dev->smem_optin >= filter_shape<BIN_FILTER>::smem ? plan->filter_min_len : 0;
    f.max_words = dev->smem_optin >= filter_shape<BIN_FILTER_WIDE>::smem ? BATCH_FILTER_WIDE_WORDS : BATCH_FILTER_WORDS;
    return f;
}

static uint64_t uniform_chunks(const drtopk_batch_problem *p, uint64_t cap);

/* Uniform rows that the filter select takes (binned like variable segments:
 * a row its threshold fails goes to the split select), except where the
 * chunked staged select lists each chunk's candidates from a sample (H200,
 * 256 rows of 131072 f32 keys, k = 50: chunked 0.098 ms, filter 0.107; k =
 * 2048, 1024 rows: chunked 1.495, filter 0.481). */
static int filter_uniform(const drtopk_batch_problem *p, const filter_here *f, uint64_t cap, int sorted)
{
    if (p->offsets != NULL || !drtopk_batch_filter_takes(drtopk_dtype_bits(p->dtype), f->min_len, cap, p->len, p->k,
                                                         sorted, f->max_words))
        return 0;
    const uint64_t chunks = uniform_chunks(p, cap);
    return chunks == 0 || !drtopk_batch_staged_lists(p->len / chunks, p->k);
}

/* The split radix select of the segments a covers (states zeroed): the
 * digit passes and the gather -- one cooperative launch where the GPU has
 * it, the grid cut to the co-resident blocks (rows first kept, then columns:
 * the kernels stride over segments by rows and over a segment's chunks by
 * columns, so any shape selects the same); else one launch a pass -- and the
 * per-segment sort when sorted. */
template <int T>
struct split_launch {
    static drtopk_status run(batch_args a, split_state *states, dim3 grid, int sorted, unsigned sort_grid,
                             cudaStream_t st)
    {
        const drtopk_device_attrs *dev;
        drtopk_status s;
        int dev_id, coop_ok = 0, per_sm = 0;
        if ((s = drtopk_device_current(&dev_id, &dev)) != DRTOPK_OK) return s;
        DRTOPK_CUDA_TRY(cudaDeviceGetAttribute(&coop_ok, cudaDevAttrCooperativeLaunch, dev_id));
        if ((s = drtopk_kernel_occupancy((const void *)split_fused_kernel<T>, BATCH_SPLIT_THREADS, 0, NULL,
                                         &per_sm)) != DRTOPK_OK)
            return s;
        const unsigned resident = (unsigned)per_sm * (unsigned)dev->sm_count;
        if (coop_ok && resident > 0) {
            dim3 g = grid;
            if (g.y > resident) g.y = resident;
            if (g.x > resident / g.y) g.x = resident / g.y;
            cudaLaunchConfig_t cfg = {};
            cudaLaunchAttribute coop = {};
            coop.id = cudaLaunchAttributeCooperative;
            coop.val.cooperative = 1;
            cfg.gridDim = g;
            cfg.blockDim = dim3(BATCH_SPLIT_THREADS);
            cfg.stream = st;
            cfg.attrs = &coop;
            cfg.numAttrs = 1;
            DRTOPK_CUDA_TRY(cudaLaunchKernelEx(&cfg, split_fused_kernel<T>, a, states));
            DRTOPK_LAUNCH_CHECK();
        } else {
            for (int shift = drtopk_dtype_bits((drtopk_dtype)T) - BATCH_DIGIT_BITS; shift >= 0;
                 shift -= BATCH_DIGIT_BITS) {
                split_hist_kernel<T><<<grid, BATCH_SPLIT_THREADS, 0, st>>>(a, states, shift);
                DRTOPK_LAUNCH_CHECK();
            }
            split_gather_kernel<T><<<grid, BATCH_SPLIT_THREADS, 0, st>>>(a, states);
            DRTOPK_LAUNCH_CHECK();
        }
        if (sorted) {
            sort_out_kernel<T><<<sort_grid, BATCH_SORT_THREADS, 0, st>>>(a);
            DRTOPK_LAUNCH_CHECK();
        }
        return DRTOPK_OK;
    }
};

/* The row filter's shared memory: the list copy (at least the merge sort's
 * scratch where it sorts past BATCH_FILTER_MERGE_K) and, sorted, the k best
 * (filter_finish); its words and its bytes. */
static uint64_t rowfilter_smem_words(uint64_t stride, uint64_t k, int sorted)
{
    const uint64_t merge = filter_merge_words<ROWFILTER_THREADS>();
    return sorted && k > BATCH_FILTER_MERGE_K && merge > stride ? merge : stride;
}

static size_t rowfilter_smem_bytes(uint64_t stride, uint64_t k, int sorted)
{
    const uint64_t best = !sorted ? 0 : k > BATCH_FILTER_MERGE_K ? BATCH_SORT_MAX : pow2_at_least(k, BATCH_SORT_GROUP);
    return (size_t)(rowfilter_smem_words(stride, k, sorted) + best) * sizeof(uint64_t);
}

/* Uniform rows the row filter takes (drtopk_batch_rowfilter_takes) where a
 * block of it fits the GPU's shared memory and the batched Dr. pipeline does
 * not take them. */
static int rowfilter_uniform(const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                             const drtopk_device_attrs *dev)
{
    return p->offsets == NULL && !dr_uniform(p, plan) &&
           drtopk_batch_rowfilter_takes(drtopk_dtype_bits(p->dtype), plan->filter_min_len, p->len, p->k) &&
           rowfilter_smem_bytes(drtopk_batch_filter_words(p->len, p->k), p->k, (plan->flags & DRTOPK_SORTED) != 0) <=
               dev->smem_optin;
}

/* The row filter's workspace for p at *off of base (NULL: sizes only). */
static void rowfilter_layout(const drtopk_batch_problem *p, int sorted, char *base, size_t *off, rowfilter_ws *r)
{
    const size_t rows = (size_t)p->segments;
    memset(r, 0, sizeof *r);
    r->stride = drtopk_batch_filter_words(p->len, p->k);
    r->smem_words = rowfilter_smem_words(r->stride, p->k, sorted);
    r->lo = (uint32_t *)drtopk_carve(base, off, rows * sizeof(uint32_t));
    r->hi = (uint32_t *)drtopk_carve(base, off, rows * sizeof(uint32_t));
    r->count = (unsigned *)drtopk_carve(base, off, rows * sizeof(unsigned));
    r->ties = (unsigned *)drtopk_carve(base, off, rows * sizeof(unsigned));
    r->fails = (unsigned long long *)drtopk_carve(base, off, sizeof(unsigned long long));
    r->fail_list = (uint64_t *)drtopk_carve(base, off, rows * sizeof(uint64_t));
    r->states = (split_state *)drtopk_carve(base, off, rows * sizeof(split_state));
    r->words = (uint64_t *)drtopk_carve(base, off, rows * (size_t)r->stride * sizeof(uint64_t));
    r->tie_words = (uint64_t *)drtopk_carve(base, off, rows * (size_t)p->k * sizeof(uint64_t));
}

/* The row filter of uniform rows: the sample kernel, the pass (a persistent
 * grid: the blocks an SM that fit, on every SM), the finish, then the split
 * select of the rows handed to it. */
template <int T>
struct rowfilter_launch {
    static drtopk_status run(batch_args a, rowfilter_ws r, int sorted, unsigned grid_cap, cudaStream_t st)
    {
        if constexpr (sizeof(typename elem_of<T>::raw) > sizeof(uint32_t)) {
            drtopk_error_set("the row filter takes keys of at most 32 bits, not %s",
                             drtopk_dtype_name((drtopk_dtype)T));
            return DRTOPK_ERR_UNSUPPORTED;
        } else {
            const drtopk_device_attrs *dev;
            drtopk_status s;
            int pass_per_sm = 0, finish_per_sm = 0;
            const size_t smem = rowfilter_smem_bytes(r.stride, a.k, sorted);
            const bool smallest = a.order == DRTOPK_SMALLEST;
            const void *pass = smallest ? (const void *)rowfilter_pass_kernel<T, true>
                                        : (const void *)rowfilter_pass_kernel<T, false>;
            const void *finish = (const void *)rowfilter_finish_kernel<T>;
            if ((s = drtopk_device_current(NULL, &dev)) != DRTOPK_OK ||
                (s = drtopk_kernel_dynamic_smem(finish, smem)) != DRTOPK_OK ||
                (s = drtopk_kernel_occupancy(pass, ROWFILTER_THREADS, 0, NULL, &pass_per_sm)) != DRTOPK_OK ||
                (s = drtopk_kernel_occupancy(finish, ROWFILTER_THREADS, smem, NULL, &finish_per_sm)) != DRTOPK_OK)
                return s;
            const unsigned sms = (unsigned)dev->sm_count;
            const uint64_t chunk_keys = BATCH_ROWFILTER_CHUNK_BYTES / sizeof(typename elem_of<T>::raw);
            const unsigned chunks = (unsigned)((a.len + chunk_keys - 1) / chunk_keys);
            const uint64_t sample_warps = ROWFILTER_SAMPLE_THREADS / DRTOPK_WARP;
            rowfilter_sample_kernel<T><<<grid_for((a.segments + sample_warps - 1) / sample_warps, grid_cap),
                                         ROWFILTER_SAMPLE_THREADS, 0, st>>>(a, r);
            DRTOPK_LAUNCH_CHECK();
            const unsigned pass_grid =
                grid_for(a.segments * chunks, (unsigned)(pass_per_sm > 0 ? pass_per_sm : 1) * sms);
            if (smallest) rowfilter_pass_kernel<T, true><<<pass_grid, ROWFILTER_THREADS, 0, st>>>(a, r, chunks);
            else rowfilter_pass_kernel<T, false><<<pass_grid, ROWFILTER_THREADS, 0, st>>>(a, r, chunks);
            DRTOPK_LAUNCH_CHECK();
            rowfilter_finish_kernel<T><<<grid_for(a.segments, (unsigned)(finish_per_sm > 0 ? finish_per_sm : 1) * sms),
                                         ROWFILTER_THREADS, smem, st>>>(a, r, sorted);
            DRTOPK_LAUNCH_CHECK();
            batch_args b = a;
            b.list = r.fail_list;
            b.count = r.fails;
            /* as the binned split select's: few rows fall back, each wants many blocks */
            const unsigned y = grid_for(a.segments, BATCH_SPLIT_WAVES * grid_cap / BATCH_SPLIT_X_VAR + 1);
            return split_launch<T>::run(b, r.states, dim3(BATCH_SPLIT_X_VAR, y), sorted, grid_for(a.segments, grid_cap),
                                        st);
        }
    }
};

/* Uniform rows longer than block_max_len that the batched Dr. pipeline
 * leaves (dr_uniform): the single top-k, one row per call, with the row plan
 * the planner resolved (drtopk_plan_batch_rows); its problem and workspace. */
static drtopk_status row_problem(const drtopk_batch_problem *p, const drtopk_plan *row_plan, drtopk_problem *rp,
                                 size_t *bytes)
{
    rp->backend = DRTOPK_BACKEND_CUDA;
    rp->dtype = p->dtype;
    rp->order = p->order;
    rp->n = p->len;
    rp->k = p->k;
    rp->values = p->values;
    return drtopk_cuda_workspace(rp, row_plan, bytes);
}

static int uniform_pipeline(const drtopk_batch_problem *p, const drtopk_batch_plan *plan)
{
    return p->offsets == NULL && p->ks == NULL && p->len > drtopk_batch_block_max_len(plan, p->dtype) &&
           !dr_uniform(p, plan);
}

/* The algorithm of uniform rows (the pipeline aside). */
enum { UNIFORM_TINY, UNIFORM_WARP, UNIFORM_CHUNKED, UNIFORM_STAGED, UNIFORM_SPLIT, UNIFORM_ROWFILTER };

/* Chunks per row of the chunked staged select, or 0 where it does not apply:
 * chunks of at most BATCH_CHUNK_BYTES of keys (cut further while there are
 * fewer than BATCH_CHUNK_BLOCKS blocks), each at least BATCH_CHUNK_RATIO k
 * keys long, and the chunks * k candidates of a row staged at once. */
static uint64_t uniform_chunks(const drtopk_batch_problem *p, uint64_t cap)
{
    uint64_t chunk = BATCH_CHUNK_BYTES / staged_key_bytes(p->dtype);
    if (chunk > cap) chunk = cap;
    if (chunk == 0) return 0;
    uint64_t chunks = (p->len + chunk - 1) / chunk;
    const uint64_t min_keys = p->k * BATCH_CHUNK_RATIO > BATCH_CHUNK_MIN_KEYS ? p->k * BATCH_CHUNK_RATIO
                                                                              : BATCH_CHUNK_MIN_KEYS;
    while (p->segments * chunks < BATCH_CHUNK_BLOCKS && p->len / (2 * chunks) >= min_keys) chunks *= 2;
    if (chunks < 2 || p->len / chunks < p->k * BATCH_CHUNK_RATIO || chunks * p->k > cap) return 0;
    return chunks;
}

static int uniform_algorithm(const drtopk_batch_problem *p, const drtopk_batch_plan *plan, uint64_t cap,
                             uint64_t *chunks)
{
    *chunks = 0;
    if (p->len <= (1ull << BATCH_TINY_LOG2) && p->k <= drtopk_batch_tiny_max_k(plan, p->dtype)) return UNIFORM_TINY;
    if (p->k <= plan->warp_max_k && p->len <= plan->warp_max_len) return UNIFORM_WARP;
    if ((*chunks = uniform_chunks(p, cap)) != 0) return UNIFORM_CHUNKED;
    return p->len <= cap ? UNIFORM_STAGED : UNIFORM_SPLIT;
}

/* The split grid: x blocks per segment (at most one per chunk), y segments
 * at a time. */
static dim3 split_grid(uint64_t len_max, uint64_t segments)
{
    return dim3(grid_for((len_max + BATCH_SPLIT_CHUNK - 1) / BATCH_SPLIT_CHUNK, BATCH_SPLIT_X_MAX),
                grid_for(segments, BATCH_GRID_Y_MAX));
}

extern "C" int drtopk_cuda_batch_sorts_itself(const drtopk_batch_problem *p, const drtopk_batch_plan *plan)
{
    return p->k <= BATCH_SORT_MAX || uniform_pipeline(p, plan);
}

/* Uniform rows that every path gives the tiny select: short enough for it
 * and for no pipeline (uniform_pipeline, dr_uniform, dr_take at any k_s),
 * k within its k.  Binned (filter_uniform) they are BIN_TINY, bin_of's
 * first rule; else UNIFORM_TINY, uniform_algorithm's.  The tiny select
 * ranks a row by (ordered key descending, position ascending), so its
 * slots are the row's k_s best pairs best first, padding last. */
extern "C" int drtopk_cuda_batch_settles(const drtopk_batch_problem *p, const drtopk_batch_plan *plan)
{
    return p->offsets == NULL && p->len <= (1ull << BATCH_TINY_LOG2) &&
           p->k <= drtopk_batch_tiny_max_k(plan, p->dtype) && p->len <= drtopk_batch_block_max_len(plan, p->dtype) &&
           !drtopk_batch_dr_takes(p->len, 1, plan->dr_min_len);
}

/* The select sorts k of at most BATCH_SORT_MAX in shared memory; a larger
 * sorted k reaches it only unsorted (batch.c: drtopk_cuda_batch_sort after). */
static drtopk_status check_sorted_k(const drtopk_batch_problem *p, const drtopk_batch_plan *plan)
{
    if ((plan->flags & DRTOPK_SORTED) && !drtopk_cuda_batch_sorts_itself(p, plan)) {
        drtopk_error_set("internal: the batched select asked to sort k = %llu, above the %d a block sorts "
                         "(drtopk_batch_select sorts such results after an unsorted select)",
                         (unsigned long long)p->k, BATCH_SORT_MAX);
        return DRTOPK_ERR_INVALID_ARGUMENT;
    }
    return DRTOPK_OK;
}

/* The workspace of p (sorted k checked by the caller): carved from base (NULL: sizes
 * only) at *off; the staged cap of the current GPU in *cap, and for uniform
 * rows the algorithm and chunks.  The layout both phases share. */
typedef struct {
    split_state *states;
    unsigned long long *counts;
    uint64_t *lists;
    void *cand_values;          /* chunked select: rows x chunks x k candidates */
    uint64_t *cand_indices;
    dr_ws dr;                   /* variable segments: the Dr. pipeline's */
    rowfilter_ws rf;            /* the row filter's */
} batch_ws;

static drtopk_status batch_layout(const drtopk_batch_problem *p, const drtopk_batch_plan *plan, char *base,
                                  size_t *off, uint64_t *cap, int *algorithm, uint64_t *chunks, batch_ws *w)
{
    const drtopk_device_attrs *dev;
    drtopk_status st;
    memset(w, 0, sizeof *w);
    if ((st = drtopk_device_current(NULL, &dev)) != DRTOPK_OK) return st;
    *cap = staged_cap(p->dtype, (plan->flags & DRTOPK_SORTED) != 0, p->k, dev->smem_optin);
    if (*cap > plan->staged_max_len) *cap = plan->staged_max_len;
    if (rowfilter_uniform(p, plan, dev)) {
        *algorithm = UNIFORM_ROWFILTER;
        rowfilter_layout(p, (plan->flags & DRTOPK_SORTED) != 0, base, off, &w->rf);
        return DRTOPK_OK;
    }
    /* binned: variable segments; uniform rows all to the Dr. pipeline, or to the filter select */
    const filter_here fh = filter_here_of(plan, dev);
    if (p->offsets || dr_uniform(p, plan) || filter_uniform(p, &fh, *cap, (plan->flags & DRTOPK_SORTED) != 0)) {
        w->counts = (unsigned long long *)drtopk_carve(base, off, BATCH_COUNTERS * sizeof(unsigned long long));
        w->lists = (uint64_t *)drtopk_carve(base, off, (size_t)BIN_COUNT * p->segments * sizeof(uint64_t));
        w->states = (split_state *)drtopk_carve(base, off, (size_t)p->segments * sizeof(split_state));
        dr_layout(p, plan, base, off, &w->dr);
        if (base) w->dr.ctl = w->counts + BIN_COUNT;
        return DRTOPK_OK;
    }
    *algorithm = uniform_algorithm(p, plan, *cap, chunks);
    if (*algorithm == UNIFORM_SPLIT) {
        w->states = (split_state *)drtopk_carve(base, off, (size_t)p->segments * sizeof(split_state));
    } else if (*algorithm == UNIFORM_CHUNKED) {
        const size_t cands = (size_t)(p->segments * *chunks * p->k);
        w->cand_values = drtopk_carve(base, off, cands * drtopk_dtype_size(p->dtype));
        w->cand_indices = (uint64_t *)drtopk_carve(base, off, cands * sizeof(uint64_t));
    }
    return DRTOPK_OK;
}

extern "C" drtopk_status drtopk_cuda_batch_workspace(const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                                                     const drtopk_plan *row_plan, size_t *bytes)
{
    drtopk_status st;
    size_t off = 0;
    if ((st = check_sorted_k(p, plan)) != DRTOPK_OK) return st;
    if (uniform_pipeline(p, plan)) {
        drtopk_problem rp;
        size_t rb;
        if ((st = row_problem(p, row_plan, &rp, &rb)) != DRTOPK_OK) return st;
        drtopk_carve(NULL, &off, rb);
    } else {
        uint64_t cap, chunks;
        int algorithm;
        batch_ws w;
        if ((st = batch_layout(p, plan, NULL, &off, &cap, &algorithm, &chunks, &w)) != DRTOPK_OK) return st;
    }
    *bytes = off + DRTOPK_WS_ALIGN;     /* slack to align any base address */
    return DRTOPK_OK;
}

/* Uniform rows: one algorithm for all, no binning. */
static drtopk_status uniform_select(const drtopk_batch_problem *p, batch_args a, int algorithm, uint64_t cap,
                                    uint64_t chunks, const batch_ws *w, int sorted, cudaStream_t cs)
{
    drtopk_status st;
    switch (algorithm) {
    case UNIFORM_TINY:
        return batch_dispatch<tiny_launch>(p->dtype, a, grid_for((p->segments + BATCH_TINY_WARPS - 1) /
                                                                 BATCH_TINY_WARPS, DRTOPK_GRID_MAX), cs);
    case UNIFORM_WARP: {
        const int warps = p->len <= (1ull << BATCH_WARP_SHORT_LOG2) ? BATCH_WARPS_SHORT : BATCH_WARPS_LONG;
        return batch_dispatch<warp_launch>(p->dtype, a, warps, grid_for((p->segments + warps - 1) / warps,
                                                                        DRTOPK_GRID_MAX), cs);
    }
    case UNIFORM_CHUNKED: {     /* the top k of every chunk, then of every row's candidates */
        batch_args c = a;
        c.chunks = chunks;
        c.segments = p->segments * chunks;
        c.ks = NULL;
        c.out_values = w->cand_values;
        c.out_indices = w->cand_indices;
        const uint64_t chunk_max = (p->len + chunks - 1) / chunks;
        if ((st = staged_run(c, chunk_max, 0, DRTOPK_GRID_MAX, cs)) != DRTOPK_OK) return st;
        a.values = w->cand_values;
        a.remap = w->cand_indices;
        a.len = chunks * p->k;
        return staged_run(a, a.len, sorted, DRTOPK_GRID_MAX, cs);
    }
    case UNIFORM_STAGED:
        return staged_run(a, p->len, sorted, DRTOPK_GRID_MAX, cs);
    default:
        DRTOPK_CUDA_TRY(cudaMemsetAsync(w->states, 0, (size_t)p->segments * sizeof(split_state), cs));
        return batch_dispatch<split_launch>(p->dtype, a, w->states, split_grid(p->len, p->segments), sorted,
                                            grid_for(p->segments, DRTOPK_GRID_MAX), cs);
    }
}

extern "C" drtopk_status drtopk_cuda_batch_select(const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                                                  const drtopk_plan *row_plan, void *ws, size_t ws_bytes,
                                                  void *out_values, uint64_t *out_indices, void *stream)
{
    const drtopk_device_attrs *dev;
    drtopk_status st;
    size_t need, off = 0;
    cudaStream_t cs = (cudaStream_t)stream;
    const int sorted = (plan->flags & DRTOPK_SORTED) != 0;
    if ((st = drtopk_cuda_entry_take_pending("drtopk_batch_select")) != DRTOPK_OK) return st;
    if ((st = drtopk_cuda_batch_workspace(p, plan, row_plan, &need)) != DRTOPK_OK) return st;
    if (ws == NULL || ws_bytes < need) return drtopk_workspace_too_small(ws, ws_bytes, need);
    if ((st = drtopk_device_check_supported()) != DRTOPK_OK) return st;
    if ((st = drtopk_device_current(NULL, &dev)) != DRTOPK_OK) return st;
    char *base = (char *)drtopk_align_up((uintptr_t)ws, DRTOPK_WS_ALIGN);
    const unsigned grid_cap = (unsigned)dev->sm_count * BATCH_GRID_PER_SM;
    batch_args a;
    memset(&a, 0, sizeof a);
    a.values = p->values;
    a.offsets = p->offsets;
    a.ks = p->ks;
    a.segments = p->segments;
    a.len = p->len;
    a.k = p->k;
    a.order = p->order;
    a.dtype = p->dtype;
    a.out_values = out_values;
    a.out_indices = out_indices;
    if (uniform_pipeline(p, plan)) {
        drtopk_problem rp;
        size_t rb;
        const size_t es = drtopk_dtype_size(p->dtype);
        if ((st = row_problem(p, row_plan, &rp, &rb)) != DRTOPK_OK) return st;
        for (uint64_t r = 0; r < p->segments; ++r) {
            rp.values = (const char *)p->values + r * p->len * es;
            st = drtopk_cuda_select(&rp, row_plan, base, rb, (char *)out_values + r * p->k * es,
                                    out_indices + r * p->k, stream, NULL);
            if (st != DRTOPK_OK) return st;
        }
        return DRTOPK_OK;
    }
    uint64_t cap, chunks = 0;
    int algorithm = UNIFORM_STAGED;
    batch_ws w;
    if ((st = batch_layout(p, plan, base, &off, &cap, &algorithm, &chunks, &w)) != DRTOPK_OK) return st;
    if (algorithm == UNIFORM_ROWFILTER)
        return batch_dispatch<rowfilter_launch>(p->dtype, a, w.rf, sorted, grid_cap, cs);
    const filter_here fh = filter_here_of(plan, dev);
    const int all_bins = p->offsets != NULL || filter_uniform(p, &fh, cap, sorted);
    /* the longest segment there may be: a variable one at most the elements (total unknown: UINT32_MAX,
     * longer than every bin's bound but the split select's, which is always launched) */
    const uint64_t max_len = p->offsets == NULL ? p->len : p->total != 0 ? p->total : UINT32_MAX;
    if (!all_bins && !dr_uniform(p, plan)) return uniform_select(p, a, algorithm, cap, chunks, &w, sorted, cs);
    DRTOPK_CUDA_TRY(cudaMemsetAsync(w.counts, 0, BATCH_COUNTERS * sizeof(unsigned long long), cs));
    const uint64_t bin_blocks = (p->segments + BATCH_BIN_THREADS - 1) / BATCH_BIN_THREADS;
    if (bin_blocks > DRTOPK_GRID_MAX) {
        drtopk_error_set("%llu segments are more than one binning launch covers", (unsigned long long)p->segments);
        return DRTOPK_ERR_UNSUPPORTED;
    }
    bin_rules r;
    r.warp_max_k = plan->warp_max_k;
    r.warp_max_len = plan->warp_max_len;
    r.tiny_max_k = drtopk_batch_tiny_max_k(plan, p->dtype);
    r.filter_min_len = fh.min_len;
    r.filter_max_words = fh.max_words;
    r.staged_cap = cap;
    r.key_bits = drtopk_dtype_bits(p->dtype);
    r.sorted = sorted;
    bin_kernel<<<(unsigned)bin_blocks, BATCH_BIN_THREADS, 0, cs>>>(a, r, w.counts, w.lists, w.states, w.dr);
    DRTOPK_LAUNCH_CHECK();
    for (int b = 0; b < BIN_COUNT; ++b) {
        if (!all_bins && b != BIN_DR) continue;       /* uniform rows: every row takes the Dr. pipeline */
        if (b != BIN_DR && !bin_may(b, r, p, max_len)) continue;   /* a launch's host time saved */
        a.list = w.lists + (uint64_t)b * p->segments;
        a.count = w.counts + b;
        if (b == BIN_TINY) {
            st = batch_dispatch<tiny_launch>(p->dtype, a, grid_for((p->segments + BATCH_TINY_WARPS - 1) /
                                                                   BATCH_TINY_WARPS, grid_cap), cs);
        } else if (b == BIN_WARP_SHORT || b == BIN_WARP_LONG) {
            const int warps = b == BIN_WARP_SHORT ? BATCH_WARPS_SHORT : BATCH_WARPS_LONG;
            st = batch_dispatch<warp_launch>(p->dtype, a, warps, grid_for((p->segments + warps - 1) / warps,
                                                                          grid_cap), cs);
        } else if (b == BIN_FILTER || b == BIN_FILTER_WIDE) {
            st = batch_dispatch<filter_launch>(p->dtype, a, w.states, sorted, b == BIN_FILTER_WIDE, cs);
        } else if (b == BIN_DR) {
            if (!drtopk_batch_dr_takes(max_len, 1, w.dr.min_len)) continue;    /* no segment is long enough */
            st = batch_dispatch<dr_launch>(p->dtype, a, &w.dr, sorted, cap, grid_cap, cs);
        } else if (b == BIN_SPLIT) {    /* x: as for the longest segment; blocks of a pass: a few waves */
            const unsigned y = grid_for(p->segments, BATCH_SPLIT_WAVES * grid_cap / BATCH_SPLIT_X_VAR + 1);
            st = batch_dispatch<split_launch>(p->dtype, a, w.states, dim3(BATCH_SPLIT_X_VAR, y), sorted,
                                              grid_for(p->segments, grid_cap), cs);
        } else {                        /* staged: the bin's longest segment, or the cap */
            const uint64_t lg_max = b == BIN_STAGED_WARP ? BATCH_STAGED_WARP_LOG2
                                                         : (uint64_t)(BATCH_STAGED_WARP_LOG2 + 1 + b - BIN_STAGED_BLOCK);
            const uint64_t bin_cap = (1ull << lg_max) < cap ? 1ull << lg_max : cap;
            st = staged_run(a, bin_cap, sorted, grid_cap, cs);
        }
        if (st != DRTOPK_OK) return st;
    }
    return DRTOPK_OK;
}
