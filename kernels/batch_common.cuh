/*
 * batch_common.cuh -- what every batched select shares (beyond the
 * paper): each select's constants, the bins of variable segments, the pair
 * order (ordered key desc, position asc) and its bitonic sort, the slot
 * writer and the warp reductions.
 *
 * Ordered keys (keyorder.h) of every width are held in 64 bits, except in
 * the tiny and staged selects (32 bits for keys of at most 32 bits).
 *
 * Included first by batch_topk.cu, the one translation unit of the batched
 * top-k.
 */
#include "device_common.cuh"
#include "radix_pick.cuh"
#include "keyorder.h"
#include "batch_spec.h"

#include <string.h>
#include <type_traits>
#include <cooperative_groups.h>
#include <cub/block/block_merge_sort.cuh>
#include <cuda/std/functional>

#define BATCH_QUEUE_MAX DRTOPK_WARP_K_MAX       /* the warp queue's largest k              */
#define BATCH_WARPS_SHORT 2                     /* warps per block, short segments         */
#define BATCH_WARPS_LONG 4                      /* warps per block, long segments          */
#define BATCH_WARP_SHORT_LOG2 8                 /* warp bins: up to 256 elements, and more */
#define BATCH_TINY_LOG2 8                       /* rows a warp holds in registers: 256 keys */
#define BATCH_TINY_ITEMS ((1u << BATCH_TINY_LOG2) / DRTOPK_WARP)
#define BATCH_TINY_WARPS 4                      /* warps per block, tiny rows               */
#define BATCH_TINY_BLOCKS 12                    /* tiny blocks an SM asked of ptxas: 40 registers, 48 warps
                                                   (48 KB of rows) in flight                 */
#define BATCH_TINY_BLOCKS_WIDE 8                /*   with 64-bit keys: twice the registers    */
#define BATCH_DIGIT_BITS 8                      /* radix digit (split select, warp groups)   */
#define BATCH_DIGITS (1u << BATCH_DIGIT_BITS)
#define BATCH_STAGED_BLOCK_DIGIT_BITS 10        /* a staged block's digit: float exponents spread over 4x the
                                                   bins (fewer same-bin atomics while staging), and 4 KB of
                                                   counts still fit 6 blocks of 8192 f32 keys an SM */
#define BATCH_CAND_MAX 64                       /* a k-th bucket this small is ranked directly: one thread
                                                   a candidate, each compared with all (no more digit passes) */
#define BATCH_SORT_MAX 2048                     /* k a block sorts in shared memory         */
#define BATCH_STAGED_WARP_LOG2 10               /* segments a warp stages: up to 1024 keys  */
#define BATCH_STAGED_WARPS 4                    /* warps (segments) per block, warp groups  */
#define BATCH_STAGED_MAX_LOG2 16                /* staged bins of variable segments: up to 2^16 keys */
#define BATCH_STAGED_BINS (BATCH_STAGED_MAX_LOG2 - BATCH_STAGED_WARP_LOG2)
static_assert(1ull << BATCH_STAGED_MAX_LOG2 == DRTOPK_BATCH_STAGED_MAX_LEN, "the plan's staged_max_len bound");
#define BATCH_STAGED_THREADS_MIN 128            /* block threads: a power of two, at least 4 warps, */
#define BATCH_STAGED_THREADS_MAX 1024           /*   at most a block,                                */
#define BATCH_STAGED_KEYS_MIN 16                /*   and at least 16 keys a thread above the least   */
#define BATCH_STAGED_UNROLL 4                   /* 16-byte loads a thread has in flight (registers) */
#define BATCH_STAGED_REGS 40                    /* registers a staged thread gets: 6 blocks of 256 threads
                                                   an SM (8192 f32 keys a block: 6 x 37 KB of shared memory) */
#define BATCH_STAGED_REGS_WIDE 64               /*   with 64-bit keys (half as many blocks fit anyway)       */
#define BATCH_CHUNK_BYTES (64u << 10)           /* a chunk's ordered keys: 3 blocks an SM on sm_90 */
#define BATCH_CHUNK_RATIO 8                     /* a chunk holds at least 8 k keys: candidates <= 1/8 of a row */
#define BATCH_CHUNK_BLOCKS 256                  /* cut chunks further until this many blocks (about 2 an SM) */
#define BATCH_CHUNK_MIN_KEYS 4096               /*   but not below this chunk length          */
#define BATCH_SPLIT_THREADS 256                 /* split radix select: threads per block    */
#define BATCH_SPLIT_ITEMS 16                    /* elements per thread and chunk (loads in flight) */
#define BATCH_SPLIT_CHUNK (BATCH_SPLIT_THREADS * BATCH_SPLIT_ITEMS)
#define BATCH_SPLIT_GATHER_BLOCKS 1             /* the gather's blocks an SM asked of ptxas: any more spills */
#define BATCH_SPLIT_X_MAX 64                    /* blocks per uniform row: 2^24 keys, 256K per block */
#define BATCH_SPLIT_X_VAR 512                   /* blocks per variable segment: about 4 an SM, the longest */
#define BATCH_SPLIT_SPREAD 2654435761ull        /* segment i's first block column: i times this (Knuth's hash) */
#define BATCH_SPLIT_WAVES 4                     /* variable segments: blocks of a pass per resident block */
#define BATCH_GRID_Y_MAX 65535u                 /* largest gridDim.y                         */
#define BATCH_SORT_THREADS 256                  /* per-segment sort of a split result        */
#define BATCH_SORT_REGS 4                       /* words a lane holds in filter_sort's in-warp steps */
#define BATCH_SORT_GROUP (BATCH_SORT_REGS * DRTOPK_WARP) /* words a warp sorts without a barrier */
#define BATCH_GRID_PER_SM 8                     /* blocks per SM of a grid-stride bin launch */
#define BATCH_BIN_THREADS 256                   /* the binning kernel                       */
#define BATCH_STAGED_READS 4                    /* shared-memory keys a thread loads at once in a digit pass
                                                   (all loads before their uses)              */
#define BATCH_LIST_READS 2                      /* 16-byte shared-memory reads a thread makes at once while listing
                                                   (more: the 40 registers spill inside the loop) */
#define BATCH_VEC_BYTES 16                      /* staged loads: uint4                      */
#define BATCH_CAND_DIGIT_BITS 8                 /*   the other 256 count the list's 8-bit digits              */
static_assert(BATCH_SAMPLE_LANES == DRTOPK_WARP, "one warp sorts the staged select's sample (batch_spec.h)");
static_assert(BATCH_CAND_LIST + (1u << BATCH_CAND_DIGIT_BITS) == 1u << BATCH_STAGED_BLOCK_DIGIT_BITS,
              "the candidate list and its counts fill a block's counts");

#define BATCH_FILTER_THREADS 512                /* filter select: threads a block (a segment)           */
#define BATCH_FILTER_WIDE_THREADS 1024          /*   a wide block's (64 registers a thread: one an SM)    */
#define BATCH_FILTER_UNROLL 4                   /*   16-byte loads in flight a thread                     */
#define BATCH_FILTER_KEY_SHIFT 32               /*   a word's key bits: from here up (filter_word)        */
static_assert(BATCH_SORT_REGS * BATCH_FILTER_THREADS >= BATCH_SORT_MAX && BATCH_SORT_GROUP <= BATCH_SORT_MAX,
              "a filter block's warps hold the k_s best it sorts (filter_sort)");
static_assert(BATCH_FILTER_SAMPLE <= BATCH_FILTER_WORDS && (BATCH_FILTER_WORDS & (BATCH_FILTER_WORDS - 1)) == 0,
              "the sample is searched in the words; the sorted best in a power of two of them");
static_assert(BATCH_SORT_MAX % BATCH_FILTER_WIDE_THREADS == 0 && BATCH_FILTER_WIDE_WORDS > BATCH_FILTER_WORDS,
              "a wide block's threads hold the k_s best it merge-sorts, a whole number each");

#define BATCH_COUNTERS (BIN_COUNT + BATCH_DR_CTL) /* the bins' sizes, then the Dr. pipeline's counters */

/* The bins of variable segments: class x log2-length range (the staged
 * select: one bin for warp groups, then one per log2 length up to
 * 2^BATCH_STAGED_MAX_LOG2). */
enum {
    BIN_TINY = 0, BIN_WARP_SHORT, BIN_WARP_LONG, BIN_STAGED_WARP, BIN_STAGED_BLOCK,
    BIN_FILTER = BIN_STAGED_BLOCK + BATCH_STAGED_BINS, BIN_FILTER_WIDE, BIN_SPLIT, BIN_DR, BIN_COUNT
};

/* A filter block's shape for its bin: threads, listed words, and shared
 * memory (the words, and sorted the k_s best: at most BATCH_SORT_MAX,
 * check_sorted_k).  The wide block lists a sample's capacity past
 * BATCH_FILTER_WORDS (batch_spec.h), one block an SM. */
template <int BIN>
struct filter_shape {
    static constexpr unsigned threads = BIN == BIN_FILTER_WIDE ? BATCH_FILTER_WIDE_THREADS : BATCH_FILTER_THREADS;
    static constexpr unsigned words = BIN == BIN_FILTER_WIDE ? BATCH_FILTER_WIDE_WORDS : BATCH_FILTER_WORDS;
    static constexpr size_t smem = (words + BATCH_SORT_MAX) * sizeof(uint64_t);
};

typedef struct {
    uint64_t key, pos;          /* ordered key (larger is better), position in the segment */
} kpair;

__device__ __forceinline__ bool kbetter(const kpair &a, const kpair &b)
{
    return a.key > b.key || (a.key == b.key && a.pos < b.pos);
}

/* Raw element bits and the ordered key the tiny and staged selects hold. */
template <int T> struct elem_of;
#define BATCH_ELEM(T_, RAW, KEY)                                                                   \
    template <> struct elem_of<T_> {                                                               \
        typedef RAW raw;                                                                           \
        typedef KEY key;                                                                           \
    };
BATCH_ELEM(DRTOPK_U32, uint32_t, uint32_t)
BATCH_ELEM(DRTOPK_I32, uint32_t, uint32_t)
BATCH_ELEM(DRTOPK_F32, uint32_t, uint32_t)
BATCH_ELEM(DRTOPK_F16, uint16_t, uint32_t)
BATCH_ELEM(DRTOPK_BF16, uint16_t, uint32_t)
BATCH_ELEM(DRTOPK_U64, uint64_t, uint64_t)
BATCH_ELEM(DRTOPK_I64, uint64_t, uint64_t)
BATCH_ELEM(DRTOPK_F64, uint64_t, uint64_t)
#undef BATCH_ELEM

typedef struct {
    const void *values;
    const uint64_t *offsets;    /* NULL: uniform rows of len */
    const uint64_t *lens;       /* non-NULL: segment s is [offsets[s], offsets[s] + lens[s]) */
    const uint64_t *ks;
    uint64_t segments, len, k;
    uint64_t chunks;            /* > 0: segment s is chunk s % chunks of uniform row s / chunks */
    const uint64_t *remap;      /* non-NULL: element i's output position is remap[i] */
    int order, dtype;
    void *out_values;
    uint64_t *out_indices;
    const uint64_t *list;       /* the bin's segment ids, or NULL: ids 0..segments-1 */
    const unsigned long long *count; /* the bin's size on the device (with list)      */
} batch_args;

__device__ __forceinline__ uint64_t seg_count(const batch_args &a) { return a.list ? *a.count : a.segments; }
__device__ __forceinline__ uint64_t seg_id(const batch_args &a, uint64_t i) { return a.list ? a.list[i] : i; }

/* Start, length and k_s of segment s (drtopk.h: k_s = min(ks[s] or k, k, len);
 * a segment whose end is before its start is empty).  Chunk c of a row of
 * len keys covers [c len / chunks, (c + 1) len / chunks). */
__device__ __forceinline__ uint64_t seg_info(const batch_args &a, uint64_t s, uint64_t *start, uint64_t *len)
{
    if (a.offsets) {
        *start = a.offsets[s];
        const uint64_t end = a.lens ? *start + a.lens[s] : a.offsets[s + 1];
        *len = end > *start ? end - *start : 0;
    } else if (a.chunks) {
        const uint64_t row = s / a.chunks, c = s % a.chunks;
        const uint64_t lo = c * a.len / a.chunks, hi = (c + 1) * a.len / a.chunks;
        *start = row * a.len + lo;
        *len = hi - lo;
    } else {
        *start = s * a.len;
        *len = a.len;
    }
    uint64_t ks = a.ks ? a.ks[s] : a.k;
    if (ks > a.k) ks = a.k;
    return ks < *len ? ks : *len;
}

/* Slot j of segment s: value bits (zero with DRTOPK_INDEX_NONE) of element
 * pos of the segment and its position in the segment, the row (chunks) or
 * the original row (remap). */
template <int T>
__device__ __forceinline__ void put_bits(const batch_args &a, uint64_t s, uint64_t start, uint64_t j, uint64_t pos,
                                         uint64_t bits)
{
    const uint64_t slot = s * a.k + j;
    uint64_t index = pos;
    if (pos != DRTOPK_INDEX_NONE) {
        if (a.remap) index = a.remap[start + pos];
        else if (a.chunks) index = start + pos - s / a.chunks * a.len;
    }
    drtopk_bits_store(a.out_values, slot, (drtopk_dtype)T, bits);
    a.out_indices[slot] = index;
}

/* The same with the value read back from the segment (or zero padding). */
template <int T>
__device__ __forceinline__ void put(const batch_args &a, uint64_t s, uint64_t start, uint64_t j, uint64_t pos)
{
    put_bits<T>(a, s, start, j, pos,
                pos == DRTOPK_INDEX_NONE ? 0 : drtopk_bits_at(a.values, start + pos, (drtopk_dtype)T));
}

/* Sort q[0..n) best first (n a power of two) with `threads` cooperating
 * threads numbered `me`; sync() orders the steps. */
template <typename Sync>
__device__ void bitonic_best_first(kpair *q, unsigned n, unsigned me, unsigned threads, Sync sync)
{
    for (unsigned size = 2; size <= n; size <<= 1) {
        for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
            for (unsigned t = me; t < n / 2; t += threads) {
                const unsigned i = 2 * stride * (t / stride) + t % stride, j = i + stride;
                const kpair x = q[i], y = q[j];
                const bool best_first = (i & size) == 0;
                if (best_first ? kbetter(y, x) : kbetter(x, y)) {
                    q[i] = y;
                    q[j] = x;
                }
            }
            sync();
        }
    }
}

__host__ __device__ __forceinline__ unsigned pow2_at_least(uint64_t x, unsigned lo)
{
    unsigned p = lo;
    while (p < x) p <<= 1;
    return p;
}

/* Sort q[0..ks) (k_s pairs of segment s) best first with `threads`
 * cooperating threads numbered `me` and write them to the segment's slots. */
template <int T, typename Sync>
__device__ void sort_put(const batch_args &a, uint64_t s, uint64_t start, uint64_t ks, kpair *q, unsigned me,
                         unsigned threads, Sync sync)
{
    const unsigned n = pow2_at_least(ks, 2);
    for (unsigned j = (unsigned)ks + me; j < n; j += threads) q[j] = kpair{ 0, DRTOPK_INDEX_NONE };
    sync();
    bitonic_best_first(q, n, me, threads, sync);
    for (uint64_t j = me; j < ks; j += threads) put<T>(a, s, start, j, q[j].pos);
}

/* Warp reductions of the tiny select: one instruction for 32-bit values on
 * sm_80 and later, shuffles otherwise. */
__device__ __forceinline__ uint32_t warp_max(uint32_t v)
{
#if __CUDA_ARCH__ >= 800
    return __reduce_max_sync(DRTOPK_FULL_MASK, v);
#else
    for (unsigned o = DRTOPK_WARP / 2; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(DRTOPK_FULL_MASK, v, o));
    return v;
#endif
}
__device__ __forceinline__ uint64_t warp_max(uint64_t v)
{
    for (unsigned o = DRTOPK_WARP / 2; o > 0; o >>= 1) {
        const uint64_t w = __shfl_xor_sync(DRTOPK_FULL_MASK, v, o);
        v = w > v ? w : v;
    }
    return v;
}
__device__ __forceinline__ uint32_t warp_min(uint32_t v) { return ~warp_max(~v); }
