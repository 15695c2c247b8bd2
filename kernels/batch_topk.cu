/*
 * batch_topk.cu -- batched and segmented top-k on the GPU (drtopk.h,
 * drtopk_batch_*).  The algorithms, chosen per segment by the
 * batch plan's crossovers and the GPU's shared memory:
 *   - tiny rows (at most 256 keys, k <= the plan's tiny_max_k; MoE routing): a warp holds the
 *     row in registers, 8 consecutive keys a lane (16-byte loads for whole
 *     rows), each lane sorts its keys once (a sorting network), then each of
 *     k_s rounds is one warp max over the 32 lanes' heads (the lowest lane
 *     holding it wins: the smallest position) and the winner's list moves
 *     up; lane r keeps round r's position and the k_s slots are written at
 *     once.  Bytes: the row read once, k_s slots written (k_s values read
 *     back, from cache).
 *   - filter select (segments and uniform rows of keys of at most 32 bits
 *     longer than the plan's filter_min_len whose expected candidates fit a
 *     block, where the staged select would not list its candidates from a
 *     sample; the onepass idea per segment: sparse attention's k = 2048 to
 *     4096 of up to 128K keys): a block per segment takes about the r-th largest of
 *     BATCH_FILTER_SAMPLE keys at onepass_spec.h's positions (its rank r; a
 *     radix search, below) as the threshold t, reads the segment once (16-byte loads) and
 *     lists every key >= t in shared memory as one 64-bit word (the ordered
 *     key above the complemented position: the larger word is the better
 *     key, ties by the smaller position), warp-aggregated slots; a list of at
 *     least k_s and at most the block's words (BATCH_FILTER_WORDS; a wide
 *     block of BATCH_FILTER_WIDE_THREADS threads, one an SM, holds
 *     BATCH_FILTER_WIDE_WORDS for segments whose sampled capacity passes
 *     that: k = 4096 of 128K keys, k = 2048 of 256K) holds every key >= the
 *     k-th key: a radix search of the words' keys (8-bit digits in shared
 *     memory) finds the k-th key, and the words above it and the first
 *     enough of its ties to claim a slot are the top k_s (sorted results:
 *     sorted in shared memory: a block merge sort past k_s =
 *     BATCH_FILTER_MERGE_K, else a bitonic whose strides below
 *     BATCH_SORT_GROUP stay in a warp's registers).
 *     A segment of at most BATCH_FILTER_WORDS keys is listed whole (no
 *     sample).  A threshold that lets more or fewer through hands the
 *     segment to the split radix select.  Bytes: the segment read once, its
 *     BATCH_FILTER_SAMPLE sampled keys before that (a 32-byte sector each:
 *     6% of a segment of 128K f32 keys), k_s slots written.
 *   - staged radix select (every segment that fits in shared memory): a
 *     group (a warp for segments of at most 2^BATCH_STAGED_WARP_LOG2 keys,
 *     else the whole block) copies its segment into shared memory (a block:
 *     32- and 64-bit elements as their raw bits, by cp.async, every copy in
 *     flight at once; a warp, and 16-bit elements: as ordered keys, 16-byte
 *     loads, several in flight a thread; nothing counted on the way); a block
 *     then lists the keys at or above a threshold sampled from the staged
 *     keys (about 3 k_s of them; raw bits compared as their type's values,
 *     16 bytes a read) and searches that list alone, its keys ordered in
 *     place, where it holds at least k_s keys and fits (else all the staged
 *     keys, ordered in place first);
 *     the search finds the k-th key's bucket a digit at a time
 *     over shared memory (8 bits in a warp or over the list, 10 in a block:
 *     float exponents crowd fewer keys into one bin; shared histograms, the
 *     digit picked by a warp scan) until the bucket is taken whole, is at the last digit or
 *     holds at most BATCH_CAND_MAX keys; one gather pass then gives the keys
 *     above the bucket their slots and either ranks the bucket's keys
 *     directly (a thread each) or lets the first enough of them claim the
 *     rest (warp-aggregated slot counters).  Slot positions wait in shared
 *     memory and the values are read back at once at the end; sorted results
 *     are sorted in shared memory.  For 8192 uniform f32 keys and k = 100:
 *     the staging, the sample, one listing pass over the staged keys, then
 *     one digit pass and the gather over about 380 listed keys (the cost
 *     estimate at staged_kernel).  Bytes: the segment read
 *     once from global memory, k_s slots written (value bits gathered again:
 *     k_s reads).
 *   - chunked staged select (uniform rows longer than a chunk, k small next
 *     to it; token sampling): each row is cut into `chunks` equal chunks of
 *     at least BATCH_CHUNK_RATIO * k keys; the staged select takes the top k
 *     of every chunk (value bits and row positions to the workspace), then
 *     the staged select again takes the row's top k of its chunks * k
 *     candidates (exact: the row's top k is among the union of the chunks'
 *     top k; an equal value's position may differ, never repeat).  Bytes per
 *     row: len * es read once, chunks * k * (es + 8) written and read back,
 *     k * (es + 8) written: for 131072 f32 keys and k = 50, 524 KB read and
 *     2 x 4.8 KB of candidates (8 chunks).
 *   - warp queue (WarpSelect style, Johnson et al., "Billion-scale similarity
 *     search with GPUs"), for plans that ask for it (warp_max_k > 0; the
 *     default plan leaves it off): a warp streams its segment 32 elements at
 *     a time; lanes whose element beats the queue's k-th best append it to a
 *     shared buffer (ballot + popc), and a full buffer is merged into the
 *     queue by a warp bitonic sort.  The order is (ordered key desc, position
 *     asc), a total order, so the result is exact and its ties are the CPU's
 *     (the smallest positions), best first.
 *   - split radix select for segments longer than the staged select holds:
 *     the same digit-by-digit search, but every segment is cut into chunks
 *     that many blocks read at once (a block per chunk, at most a grid row:
 *     BATCH_SPLIT_X_MAX blocks for uniform rows, BATCH_SPLIT_X_VAR for
 *     variable segments, so that the longest of a power law is spread over
 *     every SM; a segment's blocks start at a column rotated by its index, so
 *     that short ones spread over the row); each block adds its shared
 *     histogram to the segment's histogram in the workspace, and the last
 *     block to arrive (an atomic counter) picks the digit with a warp scan,
 *     so a pass is one launch for all long segments and a segment is read by
 *     many SMs instead of one.  A segment whose k-th
 *     bucket is taken whole stops early.  A last launch gathers the keys above
 *     the threshold and enough equal ones; sorted results are then sorted per
 *     segment.  Where the GPU launches cooperatively, the passes and the
 *     gather are one launch of a co-resident grid, a grid barrier between
 *     them (split_fused_kernel: a pass over the Dr. pipeline's delegates is a
 *     few microseconds of work, about what a launch costs).  Bytes: the
 *     segment read once per digit pass and once more.
 *   - the Dr. Top-k pipeline (paper sections 4-5) across blocks for variable
 *     segments longer than dr_min_len and for two or more uniform rows longer
 *     than the plan's block_max_len (batch_dr.cuh: one launch a step for all
 *     of them, one read of a segment and k 2^alpha keys again, not one per
 *     pass); a single such row (and sorted rows of k past BATCH_SORT_MAX)
 *     runs the single pipeline (drtopk_cuda_select) row by row.
 * Variable segments are binned on the device by class and log2 length
 * (logarithmic radix binning, Green et al.): one thread per segment appends
 * its id to its bin's list; each bin is then launched with its own shape and
 * a grid-stride loop over the bin's device-side count, so the host never
 * reads the lengths.  Ordered keys (keyorder.h) of every width are held in
 * 64 bits, except in the tiny and staged selects (32 bits for keys of at
 * most 32 bits).
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

/* Slot j of segment s: value bits of element pos of the segment (or zero
 * padding with DRTOPK_INDEX_NONE) and its position in the segment, the row
 * (chunks) or the original row (remap). */
template <int T>
__device__ __forceinline__ void put(const batch_args &a, uint64_t s, uint64_t start, uint64_t j, uint64_t pos)
{
    const uint64_t slot = s * a.k + j;
    const drtopk_dtype t = (drtopk_dtype)T;
    uint64_t index = pos;
    if (pos != DRTOPK_INDEX_NONE) {
        if (a.remap) index = a.remap[start + pos];
        else if (a.chunks) index = start + pos - s / a.chunks * a.len;
    }
    drtopk_bits_store(a.out_values, slot, t, pos == DRTOPK_INDEX_NONE ? 0 : drtopk_bits_at(a.values, start + pos, t));
    a.out_indices[slot] = index;
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

/* ---- tiny rows: a warp's registers ------------------------------------------- */
/* Whether item j beats item i: (ordered key desc, position asc), a total order. */
template <typename KT>
__device__ __forceinline__ bool tiny_better(KT kj, unsigned pj, KT ki, unsigned pi)
{
    return kj > ki || (kj == ki && pj < pi);
}

/* Sort n (key, position) items best first in registers: Batcher's odd-even
 * merge sort (19 compare-exchanges for 8), every index a compile-time
 * constant once the loops unroll. */
template <unsigned N, typename KT>
__device__ __forceinline__ void tiny_sort(KT (&key)[N], unsigned (&pos)[N])
{
#pragma unroll
    for (unsigned p = 1; p < N; p <<= 1)
#pragma unroll
        for (unsigned k = p; k >= 1; k >>= 1)
#pragma unroll
            for (unsigned j = k % p; j + k < N; j += 2 * k)
#pragma unroll
                for (unsigned i = 0; i < k && i + j + k < N; ++i) {
                    const unsigned x = i + j, y = i + j + k;
                    if ((x / (2 * p)) != (y / (2 * p))) continue;
                    if (tiny_better(key[y], pos[y], key[x], pos[x])) {
                        const KT tk = key[x];
                        const unsigned tp = pos[x];
                        key[x] = key[y];
                        pos[x] = pos[y];
                        key[y] = tk;
                        pos[y] = tp;
                    }
                }
}

/* One round over a warp's lists sorted best first (key[0] the head, *rem keys
 * left in the lane; some lane has one): the best head leaves its list (the
 * lowest lane holding it: the smallest position where lanes hold consecutive
 * ones).  Every lane gets its key (returned) and position (*wpos). */
template <unsigned N, typename KT>
__device__ __forceinline__ KT tiny_pop(KT (&key)[N], unsigned (&pos)[N], unsigned *rem, unsigned *wpos)
{
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
    const KT m = warp_max(*rem ? key[0] : (KT)0);       /* a lane with a key left holds the max */
    const unsigned win = __ffs(__ballot_sync(DRTOPK_FULL_MASK, *rem && key[0] == m)) - 1;
    *wpos = __shfl_sync(DRTOPK_FULL_MASK, pos[0], win);
    if (lane == win) {
#pragma unroll
        for (unsigned j = 0; j + 1 < N; ++j) {
            key[j] = key[j + 1];
            pos[j] = pos[j + 1];
        }
        --*rem;
    }
    return m;
}

/* Segments of at most 2^BATCH_TINY_LOG2 keys and k_s <= the plan's tiny_max_k (MoE
 * routing): one warp a segment; lane l holds the BATCH_TINY_ITEMS keys at
 * positions l * ITEMS + j (16-byte loads where the row is whole and
 * aligned) and sorts them best first once (tiny_sort); each of the k_s
 * rounds is then one warp max over the 32 lanes' heads, the lowest lane
 * holding it wins (the smallest position: lanes hold consecutive positions),
 * and its list moves up a place.  Lane r keeps round r's position, so the
 * k_s slots are written at once (coalesced) and come out best first; no
 * shared memory. */
template <int T>
__global__ void __launch_bounds__(BATCH_TINY_WARPS * DRTOPK_WARP, sizeof(typename elem_of<T>::key) > sizeof(uint32_t)
                                                                      ? BATCH_TINY_BLOCKS_WIDE : BATCH_TINY_BLOCKS)
warp_tiny_kernel(batch_args a)
{
    typedef typename elem_of<T>::raw RT;
    typedef typename elem_of<T>::key KT;
    constexpr unsigned I = BATCH_TINY_ITEMS;
    constexpr unsigned VEC = I * sizeof(RT) / BATCH_VEC_BYTES;    /* 16-byte loads of a lane's keys */
    static_assert(VEC * BATCH_VEC_BYTES == I * sizeof(RT), "a lane's keys are whole 16-byte vectors");
    static_assert(DRTOPK_BATCH_TINY_K_MAX <= DRTOPK_WARP, "lane r keeps round r");
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, p0 = lane * I;
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = (uint64_t)blockIdx.x * BATCH_TINY_WARPS + (threadIdx.x >> DRTOPK_LOG2_WARP); i < nseg;
         i += (uint64_t)gridDim.x * BATCH_TINY_WARPS) {
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        const RT *row = (const RT *)a.values + start;
        RT raw[I];
        if (len == I * DRTOPK_WARP && ((uintptr_t)row & (BATCH_VEC_BYTES - 1)) == 0) {
            uint4 w[VEC];
#pragma unroll
            for (unsigned v = 0; v < VEC; ++v) w[v] = ((const uint4 *)(row + p0))[v];
            memcpy(raw, w, sizeof raw);
        } else {
#pragma unroll
            for (unsigned j = 0; j < I; ++j) raw[j] = p0 + j < len ? row[p0 + j] : 0;
        }
        KT key[I];
        unsigned pos[I];
#pragma unroll
        for (unsigned j = 0; j < I; ++j) {
            pos[j] = p0 + j;    /* past len: key 0 and the largest positions, after the lane's keys (never offered) */
            key[j] = pos[j] < len ? (KT)drtopk_key_any(raw[j], (drtopk_dtype)T, (drtopk_order)a.order) : (KT)0;
        }
        tiny_sort(key, pos);
        unsigned rem = len > p0 ? (len - p0 < I ? (unsigned)(len - p0) : I) : 0;      /* keys left in the lane */
        unsigned got = 0;       /* lane r < k_s: round r's position */
        for (unsigned r = 0; r < ks; ++r) {
            unsigned wp;
            tiny_pop(key, pos, &rem, &wp);
            if (lane == r) got = wp;
        }
        for (uint64_t j = lane; j < a.k; j += DRTOPK_WARP) put<T>(a, s, start, j, j < ks ? got : DRTOPK_INDEX_NONE);
    }
}

/* ---- warp queue ------------------------------------------------------------ */
template <int T, int WARPS>
__global__ void warp_select_kernel(batch_args a)
{
    __shared__ kpair smem[WARPS][2 * BATCH_QUEUE_MAX];
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, w = threadIdx.x >> DRTOPK_LOG2_WARP;
    kpair *q = smem[w];
    const kpair none = { 0, DRTOPK_INDEX_NONE };
    const uint64_t nseg = seg_count(a);
    auto sync = [] { __syncwarp(); };
    for (uint64_t i = (uint64_t)blockIdx.x * WARPS + w; i < nseg; i += (uint64_t)gridDim.x * WARPS) {
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        const unsigned qn = pow2_at_least(ks, DRTOPK_WARP);     /* queue size Q >= k_s */
        for (unsigned j = lane; j < 2 * qn; j += DRTOPK_WARP) q[j] = none;
        __syncwarp();
        kpair kth = none;
        unsigned nbuf = 0;
        for (uint64_t base = 0; base < len && ks > 0; base += DRTOPK_WARP) {
            const uint64_t p = base + lane;
            kpair e = none;
            if (p < len) {
                e.key = drtopk_key_at(a.values, start + p, (drtopk_dtype)T, (drtopk_order)a.order);
                e.pos = p;
            }
            const bool take = p < len && kbetter(e, kth);
            const unsigned m = __ballot_sync(DRTOPK_FULL_MASK, take);
            if (take) q[qn + nbuf + __popc(m & ((1u << lane) - 1u))] = e;
            nbuf += __popc(m);
            if (nbuf + DRTOPK_WARP > qn || base + DRTOPK_WARP >= len) {      /* merge the buffer */
                __syncwarp();
                bitonic_best_first(q, 2 * qn, lane, DRTOPK_WARP, sync);
                for (unsigned j = qn + lane; j < 2 * qn; j += DRTOPK_WARP) q[j] = none;
                __syncwarp();
                kth = q[ks - 1];
                nbuf = 0;
            }
        }
        for (uint64_t j = lane; j < a.k; j += DRTOPK_WARP) put<T>(a, s, start, j, j < ks ? q[j].pos : DRTOPK_INDEX_NONE);
        __syncwarp();
    }
}
/* ---- staged radix select: a segment in shared memory ------------------------- */

/* A group's search state, at the start of its shared memory. */
typedef struct {
    uint64_t prefix;                    /* the k-th key's digits found so far          */
    unsigned want;                      /* its rank among the keys with those digits   */
    unsigned count;                     /* keys with those digits (the k-th bucket)    */
    unsigned n_gt, n_eq;                /* the gather's slots handed out               */
    int done;                           /* the k-th key's bucket is known exactly      */
    unsigned ncand;                     /* keys at or above the threshold (listed while they fit) */
    uint64_t thr, kmax;                 /* the sampled threshold, the largest listed key */
    unsigned thr_pos;                   /* the threshold's position */
    int thr_ok;                         /* the threshold is no NaN (raw keys compare as values: no list) */
} staged_head;

/* A group's shared memory: the head, the digit counts (1 << digit bits; after
 * the last pick they hold the candidates and the slots' positions), cap
 * ordered keys (and a vector of slack to align the first 16-byte load's
 * keys), and with sorted results a sort buffer of the next power of two >=
 * min(k, cap) pairs. */
typedef struct {
    uint64_t cap;               /* keys a group holds            */
    size_t keys_bytes;          /* the keys' bytes after the counts */
    size_t group_bytes;         /* all of a group's bytes         */
} staged_shape;

__host__ __device__ __forceinline__ size_t round16(size_t x) { return (x + BATCH_VEC_BYTES - 1) & ~(size_t)(BATCH_VEC_BYTES - 1); }

/* The warp of threadIdx.x picks the digit at `shift` that holds the want-th
 * key among those matching the prefix (warp_pick_digit over the shared counts). */
template <unsigned DIGITS>
__device__ __forceinline__ void staged_pick(staged_head *h, const unsigned *hist, int shift)
{
    const unsigned want = h->want;
    const radix_pick<unsigned> pk = warp_pick_digit<DIGITS>([&](unsigned d) { return hist[d]; }, want);
    __syncwarp();               /* every lane has read want and the counts before lane 0 rewrites want */
    if ((threadIdx.x & DRTOPK_LANE_MASK) == 0) {
        h->want = want - pk.above;
        h->count = pk.count;
        h->prefix |= (uint64_t)pk.digit << shift;
        h->done = shift == 0 || pk.count == want - pk.above;  /* the last digit, or the bucket taken whole */
    }
}

/* The digit bits of a staged group: 8 in a warp (segments of at most 1024
 * keys), BATCH_STAGED_BLOCK_DIGIT_BITS in a block. */
__host__ __device__ constexpr unsigned staged_digit_bits(bool warp_group)
{
    return warp_group ? BATCH_DIGIT_BITS : BATCH_STAGED_BLOCK_DIGIT_BITS;
}

/* The digits of key above bit hi (none where hi is its width). */
template <typename KT>
__device__ __forceinline__ KT digits_above(KT key, int hi)
{
    return hi >= (int)(8 * sizeof(KT)) ? (KT)0 : (KT)(key >> hi);
}

/* The position in [0, n) of the r-th largest (1 <= r <= BATCH_SAMPLES) of
 * BATCH_SAMPLES keys spread evenly over the n staged keys (key_at(p): the
 * ordered key at position p), by the calling warp: each lane sorts its
 * BATCH_SAMPLE_ITEMS (tiny_sort), then r rounds of tiny_pop.  Every lane
 * gets it. */
template <typename KT, typename F>
__device__ __forceinline__ unsigned sample_rank_pos(F key_at, unsigned n, unsigned r)
{
    constexpr unsigned I = BATCH_SAMPLE_ITEMS;
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
    KT key[I];
    unsigned pos[I];
#pragma unroll
    for (unsigned j = 0; j < I; ++j) {
        pos[j] = (lane * I + j) * n / BATCH_SAMPLES;   /* n <= 2^16: 32 bits */
        key[j] = key_at(pos[j]);
    }
    tiny_sort(key, pos);
    unsigned rem = I, wp = 0;
    for (unsigned j = 0; j < r; ++j) tiny_pop(key, pos, &rem, &wp);
    return wp;
}

/* Whether a block stages the raw bits of type T's elements and orders them
 * as keys only where it reads them (the keys have the elements' width); else
 * it stages ordered keys (16-bit elements: 32-bit keys). */
template <int T>
__host__ __device__ constexpr bool staged_raw(bool warp_group)
{
    return !warp_group && sizeof(typename elem_of<T>::raw) == sizeof(typename elem_of<T>::key);
}

/* Whether staged bits x are at or above the threshold's bits t (no NaN) in
 * the order: raw bits (RAW) compare as type T's values (floats: a NaN x is
 * above every t when the largest are wanted, below when the smallest;
 * -0.0 and +0.0 are equal), exactly as their ordered keys would; ordered
 * keys as keys. */
template <int T, bool RAW, typename KT>
__device__ __forceinline__ bool staged_at_or_above(KT x, KT t, bool largest)
{
    if constexpr (!RAW) {
        return x >= t;
    } else if constexpr (T == DRTOPK_F32) {
        const float a = __uint_as_float(x), b = __uint_as_float(t);
        return largest ? !(a < b) : a <= b;
    } else if constexpr (T == DRTOPK_F64) {
        const double a = __longlong_as_double((long long)x), b = __longlong_as_double((long long)t);
        return largest ? !(a < b) : a <= b;
    } else if constexpr (T == DRTOPK_I32 || T == DRTOPK_I64) {
        typedef typename std::conditional<sizeof(KT) == sizeof(int32_t), int32_t, int64_t>::type ST;
        return largest ? (ST)x >= (ST)t : (ST)x <= (ST)t;
    } else {
        return largest ? x >= t : x <= t;
    }
}

/* Groups of a warp (WARP_GROUP) or of the whole block each select the top
 * k_s of one segment at a time (grid-stride over segments):
 *   1. stage: the segment into shared memory, nothing counted on the way.
 *      RAW (blocks, keys as wide as the elements: staged_raw): the raw bits,
 *      by cp.async (no registers held, so every copy of the segment is in
 *      flight at once; ordering the keys costs 7 instructions an f32 key and
 *      is done only for the few the search reads, below); else the ordered
 *      keys (all of a thread's 16-byte loads in flight at once).
 *   2. sample (blocks, where the expected list fits, below): warp 0 takes
 *      the r-th largest of BATCH_SAMPLES keys strided over the segment as a
 *      threshold t, r = ceil(BATCH_SAMPLE_OVER k_s BATCH_SAMPLES / n) +
 *      BATCH_SAMPLE_MARGIN, so that about 3 k_s keys are at or above it; one
 *      pass over shared memory lists their positions: a thread reads
 *      BATCH_LIST_READS 16-byte vectors, compares each key with t
 *      (staged_at_or_above: raw bits as their type's values, a NaN t lists
 *      nothing), and takes slots for all its hits with one shared atomic.
 *      Where at least k_s and at most BATCH_CAND_LIST keys are listed, the
 *      top k_s are all listed and the search below runs over the list alone
 *      (RAW: its keys ordered in place first), starting at the highest bit
 *      where the threshold and the largest listed key differ (the bits above
 *      are the same for the whole list), with 8-bit digits; otherwise (the
 *      sample missed: sorted runs between the samples, all keys equal, few
 *      distinct values, a NaN threshold) over all the staged keys (RAW:
 *      ordered in place first), exactly as without a sample.  The result
 *      does not depend on the threshold, only the cost.
 *   3. digit passes over the search set until the k-th key's bucket is
 *      taken whole, is at the last digit or holds at most cand_max keys.
 *   4. one gather pass over the search set: keys above the bucket take
 *      slots, the bucket's keys become candidates ranked directly (a thread
 *      each, against all of them) or, where the bucket is taken whole or its
 *      keys are equal, claim the remaining slots.  Slots hold positions in
 *      shared memory (where k_s fits beside the candidates), so the values
 *      are read back from global memory at once at the end.
 * Cost of a row of 10000 uniform f32 keys, k = 100 (256 threads, 5 blocks an
 * SM: staged_block_threads): r = 10, about 390 listed (fallback below 1% of
 * rows: under 100 listed P(Poisson(2.56) >= 10) = 3e-4, over 768
 * P(Poisson(19.7) <= 9) = 5e-3); per 16-byte vector about 8 warp
 * instructions to stage (the copy, its address, the loop) and about 14 to
 * list a trip of two (two shared reads, 8 compares, the hit word; the atomic
 * and a store a hit where a thread has one); then about 390 keys ordered in
 * place, one 8-bit pass, the pick, the gather, k_s slots.  ncu counted
 * 10,200 warp instructions a row (H200; 14,300 when the stage ordered every
 * key and the listing read one key at a time); the block's phases wait on
 * each other, so the blocks in flight an SM, not the row's read, bound it. */
template <int T, bool WARP_GROUP, bool SORTED>
__global__ void __maxnreg__(sizeof(typename elem_of<T>::key) > sizeof(uint32_t) ? BATCH_STAGED_REGS_WIDE : BATCH_STAGED_REGS)
staged_kernel(batch_args a, staged_shape sh)
{
    typedef typename elem_of<T>::raw RT;
    typedef typename elem_of<T>::key KT;
    constexpr unsigned DB = staged_digit_bits(WARP_GROUP), DIGITS = 1u << DB;
    constexpr unsigned LIST_DIGITS = 1u << BATCH_CAND_DIGIT_BITS;
    constexpr unsigned V = BATCH_VEC_BYTES / sizeof(RT);        /* elements a 16-byte load brings */
    constexpr unsigned KV = V * sizeof(KT) / BATCH_VEC_BYTES;   /* 16-byte stores of their keys   */
    constexpr unsigned SV = BATCH_VEC_BYTES / sizeof(KT);       /* staged keys in 16 bytes        */
    constexpr bool RAW = staged_raw<T>(WARP_GROUP);
    extern __shared__ uint4 staged_smem[];
    const unsigned G = WARP_GROUP ? DRTOPK_WARP : blockDim.x, groups = blockDim.x / G, me = threadIdx.x % G;
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, lower = (1u << lane) - 1u;
    const unsigned cand_max = G < BATCH_CAND_MAX ? G : BATCH_CAND_MAX;
    char *base = (char *)staged_smem + (threadIdx.x / G) * sh.group_bytes;
    staged_head *h = (staged_head *)base;
    unsigned *const hist = (unsigned *)(base + round16(sizeof(staged_head)));
    unsigned *const list = hist;                        /* blocks: the listed positions, then their counts */
    KT *const key_area = (KT *)(hist + DIGITS);
    kpair *q = (kpair *)((char *)key_area + sh.keys_bytes);
    auto sync = [] {
        if (WARP_GROUP) __syncwarp();
        else __syncthreads();
    };
    const int kbits = drtopk_dtype_bits((drtopk_dtype)T);
    const drtopk_order order = (drtopk_order)a.order;
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = (uint64_t)blockIdx.x * groups + threadIdx.x / G; i < nseg; i += (uint64_t)gridDim.x * groups) {
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        for (uint64_t j = ks + me; j < a.k; j += G) put<T>(a, s, start, j, DRTOPK_INDEX_NONE);
        if (ks == 0) continue;
        const unsigned n = (unsigned)len, kn = (unsigned)ks;   /* at most the cap: 32 bits */
        if (me == 0) {
            h->prefix = 0;
            h->want = kn;
            h->n_gt = h->n_eq = h->ncand = 0;
            h->kmax = 0;
        }
        /* stage: head elements up to a 16-byte boundary, 16-byte loads, the tail;
         * keys[p] for the loads' p is 16-byte aligned.  RAW: the elements' bits
         * as they are, else their ordered keys */
        const RT *src = (const RT *)a.values + start;
        const unsigned head = (unsigned)(((uintptr_t)0 - (uintptr_t)src) & (BATCH_VEC_BYTES - 1)) / sizeof(RT);
        const unsigned nhead = head < n ? head : n;
        KT *const keys = key_area + (V - head) % V;
        auto key_of = [&](RT b) { return (KT)drtopk_key_any(b, (drtopk_dtype)T, order); };
        auto stage_of = [&](RT b) { return RAW ? (KT)b : key_of(b); };
        if (me < nhead) keys[me] = stage_of(src[me]);
        const uint4 *vsrc = (const uint4 *)(src + nhead);
        const unsigned nvec = (n - nhead) / V;
        if (RAW) {                      /* copies that hold no registers: every one of them in flight */
            constexpr unsigned UNROLL = BATCH_STAGED_UNROLL;   /* a pragma takes no macro */
#pragma unroll UNROLL
            for (unsigned v = me; v < nvec; v += G) cp_async16((uint4 *)(keys + nhead) + v, vsrc + v);
            cp_async_commit();
        }
        for (unsigned v0 = me; !RAW && v0 < nvec; v0 += G * BATCH_STAGED_UNROLL) {
            uint4 w[BATCH_STAGED_UNROLL];
#pragma unroll
            for (unsigned u = 0; u < BATCH_STAGED_UNROLL; ++u)
                w[u] = v0 + u * G < nvec ? vsrc[v0 + u * G] : make_uint4(0, 0, 0, 0);
#pragma unroll
            for (unsigned u = 0; u < BATCH_STAGED_UNROLL; ++u) {
                if (v0 + u * G >= nvec) continue;
                RT e[V];
                KT kv[V];
                uint4 out[KV];
                memcpy(e, &w[u], sizeof e);
#pragma unroll
                for (unsigned j = 0; j < V; ++j) kv[j] = stage_of(e[j]);
                memcpy(out, kv, sizeof out);
                uint4 *dst = (uint4 *)(keys + nhead + (v0 + u * G) * V);
#pragma unroll
                for (unsigned j = 0; j < KV; ++j) dst[j] = out[j];
            }
        }
        const unsigned tail = nhead + nvec * V;
        if (tail + me < n) keys[tail + me] = stage_of(src[tail + me]);
        cp_async_wait<0>();             /* this thread's copies have landed (the barrier: everyone's) */
        sync();
        auto key_at = [&](unsigned p) { return RAW ? key_of((RT)keys[p]) : keys[p]; };     /* while staged */
        /* sample and list (blocks, where about 3 k_s keys fill at most 2/3 of the list) */
        const unsigned r = drtopk_batch_staged_rank(n, kn);
        bool sampled = !WARP_GROUP && drtopk_batch_staged_lists(n, kn);
        if (sampled) {
            if (threadIdx.x < DRTOPK_WARP) {
                const unsigned tp = sample_rank_pos<KT>(key_at, n, r);
                if (lane == 0) {
                    h->thr = key_at(tp);
                    h->thr_pos = tp;
                    h->thr_ok = !(RAW && drtopk_float_bits_is_nan(keys[tp], (drtopk_dtype)T));
                }
            }
            sync();
            sampled = h->thr_ok;
        }
        if (sampled) {  /* list the positions at or above t: 16-byte reads, one atomic for a thread's hits */
            const KT t = keys[h->thr_pos];
            const bool largest = order != DRTOPK_SMALLEST;
            constexpr unsigned R = BATCH_LIST_READS;
            static_assert(R * SV <= 32, "a thread's hits of one trip fit a word");
            auto list_one = [&](unsigned p) {   /* the head's and the tail's keys, one a thread */
                if (staged_at_or_above<T, RAW>(keys[p], t, largest)) {
                    const unsigned at = atomicAdd(&h->ncand, 1u);
                    if (at < BATCH_CAND_LIST) list[at] = p;
                }
            };
            if (me < nhead) list_one(me);
            if (tail + me < n) list_one(tail + me);
            const uint4 *vk = (const uint4 *)(keys + nhead);
            const unsigned nsv = (tail - nhead) / SV;   /* 16-byte vectors of staged keys */
            /* one trip: vectors v0 + u G, u < R (checked: those past nsv count no hits) */
            auto trip = [&](unsigned v0, auto checked) {
                uint4 w[R];
#pragma unroll
                for (unsigned u = 0; u < R; ++u)
                    w[u] = !checked || v0 + u * G < nsv ? vk[v0 + u * G] : make_uint4(0, 0, 0, 0);
                unsigned hits = 0;      /* bit u SV + j: key j of vector v0 + u G */
#pragma unroll
                for (unsigned u = 0; u < R; ++u) {
                    KT e[SV];
                    memcpy(e, &w[u], sizeof e);
                    unsigned hu = 0;
#pragma unroll
                    for (unsigned j = 0; j < SV; ++j) hu |= (unsigned)staged_at_or_above<T, RAW>(e[j], t, largest) << j;
                    hits |= (!checked || v0 + u * G < nsv ? hu : 0u) << (u * SV);
                }
                if (hits) {             /* at 3 k_s of 10000 keys, a thread's 8 keys hit 0.3 times */
                    unsigned where = atomicAdd(&h->ncand, (unsigned)__popc(hits));
                    do {
                        const unsigned bit = __ffs(hits) - 1;
                        hits &= hits - 1;
                        if (where < BATCH_CAND_LIST) list[where] = nhead + (v0 + bit / SV * G) * SV + bit % SV;
                        ++where;
                    } while (hits);
                }
            };
            unsigned v0 = me;
            for (; v0 + (R - 1) * G < nsv; v0 += G * R) trip(v0, std::false_type());
            if (v0 < nsv) trip(v0, std::true_type());
            sync();
        }
        const unsigned nc = sampled ? h->ncand : 0;
        const bool listed = sampled && nc >= kn && nc <= BATCH_CAND_LIST;
        /* from here on the search reads ordered keys: RAW orders in place the
         * listed ones (the only ones the search reads) or all of them */
        if (RAW && !listed) {
            for (unsigned p = me; p < n; p += G) keys[p] = key_of((RT)keys[p]);
            sync();
        }
        const unsigned m = listed ? nc : n, ndig = listed ? LIST_DIGITS : DIGITS;  /* the search set, its digits */
        const int db = listed ? BATCH_CAND_DIGIT_BITS : (int)DB;
        unsigned *const cnt = listed ? list + BATCH_CAND_LIST : hist;   /* counts, later slots and candidates */
        auto at = [&](unsigned j) { return listed ? list[j] : j; };     /* the search set's j-th position */
        int hi = kbits;                 /* the k-th key's digits above bit hi are known */
        if (listed) {                   /* the largest listed key: the bits above hi are the list's own */
            KT top = 0;
            for (unsigned j = me; j < nc; j += G) {
                const unsigned p = list[j];
                const KT kj = key_at(p);
                if (RAW) keys[p] = kj;
                top = kj > top ? kj : top;
            }
            top = warp_max(top);
            if (lane == 0) atomicMax((unsigned long long *)&h->kmax, (unsigned long long)top);
            sync();
            const uint64_t diff = h->thr ^ h->kmax;
            hi = diff ? 64 - __clzll((long long)diff) : 1;
            if (me == 0) h->prefix = hi < 64 ? h->thr >> hi << hi : 0;
        }
        /* digit passes: keys of the search set whose known digits match count
         * their next digit (the last one narrower where db does not divide hi) */
        int shift;
        for (;;) {
            shift = hi > db ? hi - db : 0;
            const unsigned dmask = (1u << (hi - shift)) - 1u;
            for (unsigned d = me; d < ndig; d += G) cnt[d] = 0;
            sync();
            const KT known = digits_above((KT)h->prefix, hi);
            for (unsigned j0 = me; j0 < m; j0 += G * BATCH_STAGED_READS) {
                KT kr[BATCH_STAGED_READS];
#pragma unroll
                for (unsigned u = 0; u < BATCH_STAGED_READS; ++u) kr[u] = j0 + u * G < m ? keys[at(j0 + u * G)] : 0;
#pragma unroll
                for (unsigned u = 0; u < BATCH_STAGED_READS; ++u)
                    if (j0 + u * G < m && digits_above(kr[u], hi) == known)
                        atomicAdd(&cnt[(unsigned)(kr[u] >> shift) & dmask], 1u);
            }
            sync();
            if (WARP_GROUP || threadIdx.x < DRTOPK_WARP) {
                if (listed) staged_pick<LIST_DIGITS>(h, cnt, shift);
                else staged_pick<DIGITS>(h, cnt, shift);
            }
            sync();
            if (h->done || h->count <= cand_max) break;
            hi = shift;
        }
        /* gather: keys whose digits from `shift` up beat the k-th key's take the
         * first slots; the bucket's keys are ranked (ranked) or the first `ties`
         * of them to arrive claim the rest (the bucket taken whole, or equal keys) */
        const KT kth = (KT)(h->prefix >> shift);
        const unsigned ties = h->want, count = h->count, above = kn - ties;
        const bool ranked = count != ties && count <= cand_max;
        unsigned *const slot = cnt;                     /* slot j's position */
        unsigned *const cand = cnt + ndig - cand_max;   /* the candidates' positions */
        const bool buffered = !SORTED && kn <= ndig - cand_max;
        auto take = [&](unsigned j, KT key, unsigned p) {
            if (SORTED) q[j] = kpair{ key, p };
            else if (buffered) slot[j] = p;
            else put<T>(a, s, start, j, p);
        };
        for (unsigned j0 = 0; j0 < m; j0 += G) {
            const unsigned j = j0 + me;
            const unsigned p = j < m ? at(j) : 0;
            const KT key = j < m ? keys[p] : 0;
            const KT kh = (KT)(key >> shift);
            const bool gt = j < m && kh > kth, eq = j < m && kh == kth;
            const unsigned bg = __ballot_sync(DRTOPK_FULL_MASK, gt), be = __ballot_sync(DRTOPK_FULL_MASK, eq);
            if ((bg | be) == 0) continue;       /* most of a warp's keys: below the bucket */
            unsigned base_g = 0, base_e = 0;
            if (lane == 0 && bg) base_g = atomicAdd(&h->n_gt, (unsigned)__popc(bg));
            if (lane == 0 && be) base_e = atomicAdd(&h->n_eq, (unsigned)__popc(be));
            base_g = __shfl_sync(DRTOPK_FULL_MASK, base_g, 0) + __popc(bg & lower);
            base_e = __shfl_sync(DRTOPK_FULL_MASK, base_e, 0) + __popc(be & lower);
            if (gt) take(base_g, key, p);
            else if (eq && ranked) cand[base_e] = p;
            else if (eq && base_e < ties) take(above + base_e, key, p);
        }
        sync();
        if (ranked && me < count) {     /* candidate me's rank among the bucket's keys */
            const unsigned c = cand[me];
            const KT kc = keys[c];
            unsigned rank = 0;
            for (unsigned j = 0; j < count; ++j) {
                const unsigned o = cand[j];
                rank += tiny_better(keys[o], o, kc, c);
            }
            if (rank < ties) take(above + rank, kc, c);
        }
        sync();
        if (SORTED) sort_put<T>(a, s, start, ks, q, me, G, sync);
        else if (buffered)
            for (unsigned j = me; j < kn; j += G) put<T>(a, s, start, j, slot[j]);
        sync();         /* the group's shared memory is free for its next segment */
    }
}

/* ---- split radix select --------------------------------------------------------- */

/* One long segment's search state in the workspace (entry i of the segments
 * the launch covers); all zero at the start. */
typedef struct {
    unsigned long long hist[BATCH_DIGITS];      /* this pass's digit counts, all blocks */
    unsigned long long prefix, mask;            /* the k-th key's known digits           */
    unsigned long long above;                   /* keys whose known digits are larger    */
    unsigned long long n_gt, n_eq;              /* the gather's slots handed out         */
    unsigned int arrived;                       /* blocks done with this pass            */
    unsigned int done;                          /* the k-th bucket is known exactly      */
} split_state;

/* The blocks of a split grid row that read segment i of len keys: one per
 * chunk, at most gridDim.x; they start at a column rotated by i, so that the
 * short segments of a row spread over its columns while a long one takes
 * them all.  Returns whether block blockIdx.x is one of them, its rank among
 * them in *rank and their number in *blocks. */
__device__ __forceinline__ bool split_member(uint64_t i, uint64_t len, unsigned *rank, unsigned *blocks)
{
    const uint64_t chunks = (len + BATCH_SPLIT_CHUNK - 1) / BATCH_SPLIT_CHUNK;
    *blocks = chunks < gridDim.x ? (chunks ? (unsigned)chunks : 1u) : gridDim.x;
    const unsigned rot = (unsigned)(i * BATCH_SPLIT_SPREAD % gridDim.x);
    *rank = (blockIdx.x + gridDim.x - rot) % gridDim.x;
    return *rank < *blocks;
}

/* f(key, in, p) for every slot p of chunks rank, rank + blocks, ... of a
 * segment, BATCH_SPLIT_ITEMS a thread loaded together (loads in flight);
 * `in` is whether element p exists.  Every thread of the block calls f the
 * same number of times (warp collectives in f are safe). */
template <int T, typename F>
__device__ __forceinline__ void split_chunks(const batch_args &a, uint64_t start, uint64_t len, unsigned rank,
                                             unsigned blocks, F f)
{
    typedef typename elem_of<T>::key KT;        /* 32 bits where they hold the key: registers for loads in flight */
    for (uint64_t c = (uint64_t)rank * BATCH_SPLIT_CHUNK; c < len; c += (uint64_t)blocks * BATCH_SPLIT_CHUNK) {
        KT key[BATCH_SPLIT_ITEMS];
#pragma unroll
        for (int j = 0; j < BATCH_SPLIT_ITEMS; ++j) {
            const uint64_t p = c + (uint64_t)j * BATCH_SPLIT_THREADS + threadIdx.x;
            key[j] = p < len ? (KT)drtopk_key_at(a.values, start + p, (drtopk_dtype)T, (drtopk_order)a.order) : 0;
        }
#pragma unroll
        for (int j = 0; j < BATCH_SPLIT_ITEMS; ++j) {
            const uint64_t p = c + (uint64_t)j * BATCH_SPLIT_THREADS + threadIdx.x;
            f(key[j], p < len, p);
        }
    }
}

/* One digit pass: block (x, y) counts the digit at `shift` of the keys that
 * match the known digits in its chunks (split_member) of segments y,
 * y + gridDim.y, ...; the last of a segment's blocks picks the digit holding
 * the want-th key (a warp, warp_pick_digit) and clears the counts for the next
 * pass. */
template <int T>
__device__ void split_hist_pass(const batch_args &a, split_state *states, int shift)
{
    __shared__ unsigned int hist[BATCH_DIGITS];         /* a block's count: at most len / blocks + a chunk */
    __shared__ int last;
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = blockIdx.y; i < nseg; i += gridDim.y) {
        split_state *st = states + i;
        /* st's fields are read past L1 (__ldcg): split_fused_kernel's passes share one launch, and a block's
         * L1 may hold the values of the pass before the grid barrier */
        if (__ldcg(&st->done)) continue;        /* set by an earlier pass: the same for every block */
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        unsigned rank, blocks;
        if (!split_member(i, len, &rank, &blocks)) continue;
        for (unsigned d = threadIdx.x; d < BATCH_DIGITS; d += BATCH_SPLIT_THREADS) hist[d] = 0;
        __syncthreads();
        const uint64_t pf = __ldcg(&st->prefix), mk = __ldcg(&st->mask);
        split_chunks<T>(a, start, len, rank, blocks, [&](uint64_t key, bool in, uint64_t) {
            const bool take = in && (key & mk) == pf;
            const unsigned dg = (unsigned)(key >> shift) & (BATCH_DIGITS - 1);
            /* a warp whose keys all count in one digit adds once: the top digits of float keys, and of the Dr.
             * pipeline's delegates and candidates (all near the k-th key) crowd one bin, where 32 same-address
             * shared atomics a warp serialize */
            const unsigned lead = __shfl_sync(DRTOPK_FULL_MASK, dg, 0);
            if (__all_sync(DRTOPK_FULL_MASK, take && dg == lead)) {
                if ((threadIdx.x & DRTOPK_LANE_MASK) == 0) atomicAdd(&hist[dg], (unsigned)DRTOPK_WARP);
            } else if (take) {
                atomicAdd(&hist[dg], 1u);
            }
        });
        __syncthreads();
        for (unsigned d = threadIdx.x; d < BATCH_DIGITS; d += BATCH_SPLIT_THREADS)
            if (hist[d]) atomicAdd(&st->hist[d], (unsigned long long)hist[d]);
        __threadfence();                /* the counts before the arrival */
        __syncthreads();
        if (threadIdx.x == 0) last = atomicAdd(&st->arrived, 1u) == blocks - 1;
        __syncthreads();
        if (last && threadIdx.x < DRTOPK_WARP) {
            __threadfence();
            volatile unsigned long long *h = st->hist;
            const unsigned long long prior = __ldcg(&st->above), want = ks - prior;
            const radix_pick<unsigned long long> pk =
                warp_pick_digit<BATCH_DIGITS>([&](unsigned j) { return h[j]; }, want);
            if (threadIdx.x == 0) {
                st->prefix = pf | (uint64_t)pk.digit << shift;
                st->mask = mk | (uint64_t)(BATCH_DIGITS - 1) << shift;
                st->above = prior + pk.above;
                st->done = shift == 0 || pk.count == want - pk.above; /* the last digit, or the bucket taken whole */
                st->arrived = 0;
            }
        }
        __syncthreads();
        if (last)
            for (unsigned d = threadIdx.x; d < BATCH_DIGITS; d += BATCH_SPLIT_THREADS) st->hist[d] = 0;
    }
}

template <int T>
__global__ void __launch_bounds__(BATCH_SPLIT_THREADS) split_hist_kernel(batch_args a, split_state *states, int shift)
{
    split_hist_pass<T>(a, states, shift);
}

/* The gather: every key whose known digits are larger than the k-th key's,
 * and the first want of the equal ones to claim a slot (warp-aggregated slot
 * counters), by the blocks of the digit passes; the first of them pads the
 * slots past k_s. */
template <int T>
__device__ void split_gather_pass(const batch_args &a, split_state *states)
{
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, lower = (1u << lane) - 1u;
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = blockIdx.y; i < nseg; i += gridDim.y) {
        split_state *st = states + i;
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        const uint64_t pf = __ldcg(&st->prefix), mk = __ldcg(&st->mask), above = __ldcg(&st->above), ties = ks - above;
        unsigned rank, blocks;
        if (!split_member(i, len, &rank, &blocks)) continue;
        if (rank == 0)
            for (uint64_t j = ks + threadIdx.x; j < a.k; j += BATCH_SPLIT_THREADS)
                put<T>(a, s, start, j, DRTOPK_INDEX_NONE);
        split_chunks<T>(a, start, len, rank, blocks, [&](uint64_t key, bool in, uint64_t p) {
            const uint64_t m = key & mk;
            const bool gt = in && m > pf, eq = in && m == pf;
            const unsigned bg = __ballot_sync(DRTOPK_FULL_MASK, gt), be = __ballot_sync(DRTOPK_FULL_MASK, eq);
            unsigned long long base_g = 0, base_e = 0;
            if (lane == 0 && bg) base_g = atomicAdd(&st->n_gt, (unsigned long long)__popc(bg));
            if (lane == 0 && be) base_e = atomicAdd(&st->n_eq, (unsigned long long)__popc(be));
            base_g = __shfl_sync(DRTOPK_FULL_MASK, base_g, 0) + __popc(bg & lower);
            base_e = __shfl_sync(DRTOPK_FULL_MASK, base_e, 0) + __popc(be & lower);
            if (gt) put<T>(a, s, start, base_g, p);
            else if (eq && base_e < ties) put<T>(a, s, start, above + base_e, p);
        });
    }
}

template <int T>
__global__ void __launch_bounds__(BATCH_SPLIT_THREADS, BATCH_SPLIT_GATHER_BLOCKS) split_gather_kernel(batch_args a, split_state *states)
{
    split_gather_pass<T>(a, states);
}

/* Every digit pass from the key's top digit down, then the gather, in one
 * cooperative launch: a grid barrier stands where a launch boundary did (the
 * last block's digit and cleared counts are visible to every block after
 * it).  The grid is co-resident (split_launch sizes it), and every block
 * reaches every barrier: the passes' loops and early stops are per segment,
 * never per grid. */
template <int T>
__global__ void __launch_bounds__(BATCH_SPLIT_THREADS, BATCH_SPLIT_GATHER_BLOCKS) split_fused_kernel(batch_args a, split_state *states)
{
    /* no segments (the Dr. pipeline's fallback select, mostly): every block returns before the first barrier,
     * none waits at one -- the count, written by an earlier launch, is the same for the whole grid */
    if (seg_count(a) == 0) return;
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    for (int shift = drtopk_dtype_bits((drtopk_dtype)T) - BATCH_DIGIT_BITS; shift >= 0; shift -= BATCH_DIGIT_BITS) {
        split_hist_pass<T>(a, states, shift);
        grid.sync();
    }
    split_gather_pass<T>(a, states);
}

/* Sort each segment's k_s unsorted result in its slots best first (the split
 * select's sorted results). */
template <int T>
__global__ void __launch_bounds__(BATCH_SORT_THREADS) sort_out_kernel(batch_args a)
{
    __shared__ kpair q[BATCH_SORT_MAX];
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = blockIdx.x; i < nseg; i += gridDim.x) {
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        for (uint64_t j = threadIdx.x; j < ks; j += BATCH_SORT_THREADS)
            q[j] = kpair{ drtopk_key_at(a.out_values, s * a.k + j, (drtopk_dtype)T, (drtopk_order)a.order),
                          a.out_indices[s * a.k + j] };
        sort_put<T>(a, s, start, ks, q, threadIdx.x, BATCH_SORT_THREADS, [] { __syncthreads(); });
        __syncthreads();
    }
}
/* ---- filter select -------------------------------------------------------------- */

/* A candidate as one word: its ordered key above, the complement of its
 * position below, so that a larger word is a better candidate (key desc,
 * position asc: the total order of kbetter) and 0 is below every candidate
 * (a position is less than 2^32 - 1). */
__device__ __forceinline__ uint64_t filter_word(uint32_t key, uint32_t pos)
{
    return (uint64_t)key << 32 | (uint32_t)~pos;
}
__device__ __forceinline__ uint32_t filter_pos(uint64_t w) { return ~(uint32_t)w; }

/* One compare-exchange step of a bitonic merge of size `size` for a word x
 * at index i whose partner (at i ^ stride) holds y: the pair's lower index
 * keeps the larger word where i's block of `size` runs best first. */
__device__ __forceinline__ uint64_t bitonic_keep(uint64_t x, uint64_t y, unsigned i, unsigned stride, unsigned size)
{
    return ((i & stride) == 0) == ((i & size) == 0) ? (x > y ? x : y) : (x < y ? x : y);
}

/* Steps stride = hi, hi / 2, ..., 1 of the merge of size `size` over the
 * BATCH_SORT_GROUP words a warp holds, BATCH_SORT_REGS a lane: x[r] is word
 * base + r * 32 + lane.  Strides of a warp or more pair a lane's own
 * registers, smaller ones pair lanes (shuffles); no barrier. */
__device__ __forceinline__ void sort_steps_in_warp(uint64_t (&x)[BATCH_SORT_REGS], unsigned base, unsigned size,
                                                   unsigned hi, unsigned lane)
{
    static_assert(BATCH_SORT_REGS == 4, "the register strides below are those of 4 words a lane");
    for (unsigned stride = hi; stride > 0; stride >>= 1) {
        if (stride >= DRTOPK_WARP) {
            const unsigned rs = stride / DRTOPK_WARP;           /* 1 or 2: register index distance */
            const unsigned lo1 = rs == 1 ? 2 : 1;               /* the second pair's lower register */
            const uint64_t a0 = x[0], b0 = rs == 1 ? x[1] : x[2], a1 = rs == 1 ? x[2] : x[1], b1 = x[3];
            const unsigned i0 = base + lane, i1 = base + lo1 * DRTOPK_WARP + lane;
            const uint64_t n0 = bitonic_keep(a0, b0, i0, stride, size), m0 = a0 ^ b0 ^ n0;
            const uint64_t n1 = bitonic_keep(a1, b1, i1, stride, size), m1 = a1 ^ b1 ^ n1;
            x[0] = n0;
            x[3] = m1;
            if (rs == 1) { x[1] = m0; x[2] = n1; }
            else { x[2] = m0; x[1] = n1; }
        } else {
#pragma unroll
            for (unsigned r = 0; r < BATCH_SORT_REGS; ++r)
                x[r] = bitonic_keep(x[r], __shfl_xor_sync(DRTOPK_FULL_MASK, x[r], stride),
                                    base + r * DRTOPK_WARP + lane, stride, size);
        }
    }
}

/* Sort w[0..n) largest first (n a power of two, BATCH_SORT_GROUP <= n <=
 * BATCH_SORT_REGS * blockDim.x) with the whole block, bitonic: a warp holds
 * BATCH_SORT_GROUP words in registers, so only the strides of a group or
 * more go through shared memory (for 2048 words: 10 of the 66 steps, and
 * 15 barriers). */
__device__ void filter_sort(uint64_t *w, unsigned n)
{
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, base = threadIdx.x / DRTOPK_WARP * BATCH_SORT_GROUP;
    const bool holds = base < n;        /* the warp alike */
    uint64_t x[BATCH_SORT_REGS];
    auto load = [&] {
#pragma unroll
        for (unsigned r = 0; r < BATCH_SORT_REGS; ++r) x[r] = w[base + r * DRTOPK_WARP + lane];
    };
    auto store = [&] {
#pragma unroll
        for (unsigned r = 0; r < BATCH_SORT_REGS; ++r) w[base + r * DRTOPK_WARP + lane] = x[r];
    };
    if (holds) {
        load();
        for (unsigned size = 2; size <= BATCH_SORT_GROUP; size <<= 1) sort_steps_in_warp(x, base, size, size / 2, lane);
        store();
    }
    __syncthreads();
    for (unsigned size = 2 * BATCH_SORT_GROUP; size <= n; size <<= 1) {
        for (unsigned stride = size >> 1; stride >= BATCH_SORT_GROUP; stride >>= 1) {
            for (unsigned t = threadIdx.x; t < n / 2; t += blockDim.x) {
                const unsigned i = 2 * t - (t & (stride - 1)), j = i + stride;
                const uint64_t x0 = w[i], y0 = w[j];
                if ((i & size) == 0 ? y0 > x0 : x0 > y0) {
                    w[i] = y0;
                    w[j] = x0;
                }
            }
            __syncthreads();
        }
        if (holds) {
            load();
            sort_steps_in_warp(x, base, size, BATCH_SORT_GROUP / 2, lane);
            store();
        }
        __syncthreads();
    }
}

/* A filter block's search state (shared memory). */
typedef struct {
    uint64_t prefix, mask;      /* the want-th word's known digits          */
    unsigned want;              /* words still wanted in the prefix's bucket */
    unsigned done;              /* the bucket is taken whole               */
    unsigned listed, placed;    /* words listed; output slots handed out    */
    unsigned ties;              /* words of the k-th key that claimed a slot */
} filter_head;

/* The want-th largest key (1 <= want <= n) of the words w[0..n) -- their
 * key bits, filter_word's upper half; the highest `high` bits of it may be
 * set -- found by the block digit by digit from the top (8 bits: a shared
 * histogram of the words in the bucket so far, warp_pick_digit by warp 0) until a
 * digit's bucket is taken whole or the key bits run out.  Then the words x
 * with (x & f->mask) > f->prefix are the kn - f->want best, and f->want more
 * are among those with (x & f->mask) == f->prefix (all of them where
 * f->done).  f->prefix's undecided bits are 0, so its key is at most the
 * want-th largest. */
__device__ void filter_search(const uint64_t *w, unsigned n, unsigned want, int high, filter_head *f, unsigned *hist)
{
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, lower = (1u << lane) - 1u;
    if (threadIdx.x == 0) {
        f->prefix = f->mask = 0;
        f->want = want;
        f->done = 0;
    }
    for (int shift = BATCH_FILTER_KEY_SHIFT + high - BATCH_DIGIT_BITS; shift >= BATCH_FILTER_KEY_SHIFT;
         shift -= BATCH_DIGIT_BITS) {
        __syncthreads();                /* the last pick written, its counts read */
        if (f->done) break;             /* the block alike */
        const uint64_t pf = f->prefix, mk = f->mask;
        for (unsigned d = threadIdx.x; d < BATCH_DIGITS; d += blockDim.x) hist[d] = 0;
        __syncthreads();
        for (unsigned j0 = 0; j0 < n; j0 += blockDim.x) {
            const unsigned j = j0 + threadIdx.x;
            const uint64_t x = j < n ? w[j] : 0;
            const bool in = j < n && (x & mk) == pf;
            const unsigned d = (unsigned)(x >> shift) & (BATCH_DIGITS - 1);
            /* one atomic for a warp's lanes of one digit: ties and the top digits of small keys crowd one bin */
            const unsigned peers = __match_any_sync(DRTOPK_FULL_MASK, in ? d : ~0u);
            if (in && (peers & lower) == 0) atomicAdd(&hist[d], (unsigned)__popc(peers));
        }
        __syncthreads();
        if (threadIdx.x < DRTOPK_WARP) {
            const unsigned wa = f->want;
            const radix_pick<unsigned> pk = warp_pick_digit<BATCH_DIGITS>([&](unsigned j) { return hist[j]; }, wa);
            __syncwarp();               /* every lane has read want before lane 0 rewrites it */
            if (threadIdx.x == 0) {
                f->prefix = pf | (uint64_t)pk.digit << shift;
                f->mask = mk | (uint64_t)(BATCH_DIGITS - 1) << shift;
                f->want = wa - pk.above;
                f->done = pk.count == wa - pk.above;
            }
        }
    }
    __syncthreads();
}

/* Hand segment s of bin BIN to the split select (a later bin): a threshold
 * that let too many or too few keys through. */
template <int BIN>
__device__ __forceinline__ void filter_fall_back(const batch_args &a, uint64_t s, split_state *states)
{
    static_assert(BIN < BIN_SPLIT, "the split select runs after the filter's bins");
    const unsigned long long at = atomicAdd((unsigned long long *)a.count + (BIN_SPLIT - BIN), 1ull);
    ((uint64_t *)a.list)[(uint64_t)(BIN_SPLIT - BIN) * a.segments + at] = s;
    unsigned long long *w = (unsigned long long *)(states + at);
    for (size_t j = 0; j < sizeof(split_state) / sizeof *w; ++j) w[j] = 0;
}

/* A block per segment (keys of at most 32 bits): the threshold t is at most
 * the r-th largest of BATCH_FILTER_SAMPLE keys at onepass_spec.h's positions
 * (r its rank; filter_search over the sampled words' keys; a segment of at
 * most BATCH_FILTER_WORDS keys: no sample, t the least key); one read of the
 * segment (16-byte loads) lists every key >= t as a word in shared memory
 * (warp-aggregated slots).  Where the list holds at least k_s and at most
 * the block's words (filter_shape), it holds every key >= the k-th: the words above
 * the k-th key (filter_search) and the first enough of its ties to claim a
 * slot are the segment's top k_s; sorted, they are sorted in shared memory.
 * Otherwise the segment goes to the split select. */
template <int T, int BIN>
__global__ void __launch_bounds__(filter_shape<BIN>::threads) filter_kernel(batch_args a, split_state *states,
                                                                              int sorted)
{
    typedef typename elem_of<T>::raw RT;
    constexpr unsigned V = BATCH_VEC_BYTES / sizeof(RT);
    constexpr unsigned W = filter_shape<BIN>::words, THREADS = filter_shape<BIN>::threads;
    extern __shared__ uint64_t filter_smem[];
    uint64_t *const w = filter_smem, *const best = filter_smem + W;    /* best: sorted only */
    __shared__ filter_head f;
    __shared__ unsigned hist[BATCH_DIGITS];
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, lower = (1u << lane) - 1u;
    const int high = (int)(8 * sizeof(RT));   /* the ordered keys' width: 16 or 32 bits */
    const drtopk_order order = (drtopk_order)a.order;
    auto key_of = [&](RT b) { return (uint32_t)drtopk_key_any(b, (drtopk_dtype)T, order); };
    /* a warp-aggregated slot of counter *c for each lane that takes one (every lane of the warp calls it) */
    auto slot = [&](bool take, unsigned *c, unsigned *at) {
        const unsigned b = __ballot_sync(DRTOPK_FULL_MASK, take);
        if (b == 0) return false;       /* the warp alike */
        unsigned base = 0;
        if (lane == 0) base = atomicAdd(c, (unsigned)__popc(b));
        *at = __shfl_sync(DRTOPK_FULL_MASK, base, 0) + __popc(b & lower);
        return take;
    };
    const uint64_t nseg = seg_count(a);
    for (uint64_t i = blockIdx.x; i < nseg; i += gridDim.x) {
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        const uint64_t ks = seg_info(a, s, &start, &len);
        for (uint64_t j = ks + threadIdx.x; j < a.k; j += blockDim.x) put<T>(a, s, start, j, DRTOPK_INDEX_NONE);
        const unsigned n = (unsigned)len, kn = (unsigned)ks;   /* drtopk_batch_filter_takes: below 2^32 */
        const RT *src = (const RT *)a.values + start;
        uint32_t t = 0;
        if (n > BATCH_FILTER_WORDS) {
            for (unsigned j = threadIdx.x; j < BATCH_FILTER_SAMPLE; j += blockDim.x) {
                const unsigned p = (unsigned)drtopk_onepass_sample_pos(n, BATCH_FILTER_SAMPLE, j);
                w[j] = filter_word(key_of(src[p]), p);
            }
            filter_search(w, BATCH_FILTER_SAMPLE, (unsigned)drtopk_onepass_rank(n, ks, BATCH_FILTER_SAMPLE), high,
                          &f, hist);
            t = (uint32_t)(f.prefix >> BATCH_FILTER_KEY_SHIFT);
        }
        if (threadIdx.x == 0) f.listed = f.placed = f.ties = 0;
        __syncthreads();                /* t read, the counts zeroed: the words are free */
        auto list = [&](bool in, uint32_t key, unsigned p) {
            unsigned at;
            if (slot(in && key >= t, &f.listed, &at) && at < W) w[at] = filter_word(key, p);
        };
        /* head elements up to a 16-byte boundary and the tail: warp 0, a lane each */
        const unsigned head = (unsigned)(((uintptr_t)0 - (uintptr_t)src) & (BATCH_VEC_BYTES - 1)) / sizeof(RT);
        const unsigned nhead = head < n ? head : n, nvec = (n - nhead) / V, tail = nhead + nvec * V;
        if (threadIdx.x < DRTOPK_WARP) {
            const unsigned p = lane < V ? lane : tail + lane - V;
            const bool in = lane < V ? lane < nhead : lane < 2 * V && p < n;
            list(in, in ? key_of(src[p]) : 0, p);
        }
        const uint4 *vsrc = (const uint4 *)(src + nhead);
        const unsigned step = blockDim.x * BATCH_FILTER_UNROLL;
        for (unsigned v0 = threadIdx.x; v0 - threadIdx.x < nvec; v0 += step) {
            uint4 q[BATCH_FILTER_UNROLL];
#pragma unroll
            for (unsigned u = 0; u < BATCH_FILTER_UNROLL; ++u)
                q[u] = v0 + u * blockDim.x < nvec ? vsrc[v0 + u * blockDim.x] : make_uint4(0, 0, 0, 0);
            /* a thread's hits as bits, then one warp scan and one shared atomic for the warp's hits (a few
             * in a hundred keys pass t: a ballot a key would cost more than the read) */
            constexpr unsigned H = BATCH_FILTER_UNROLL * V;
            static_assert(H <= 32, "a thread's keys of one trip fit a word of hit bits");
            uint32_t kv[H];
            unsigned hits = 0;
#pragma unroll
            for (unsigned u = 0; u < BATCH_FILTER_UNROLL; ++u) {
                RT e[V];
                memcpy(e, &q[u], sizeof e);
#pragma unroll
                for (unsigned j = 0; j < V; ++j) {
                    kv[u * V + j] = key_of(e[j]);
                    if (v0 + u * blockDim.x < nvec && kv[u * V + j] >= t) hits |= 1u << (u * V + j);
                }
            }
            const unsigned mine = (unsigned)__popc(hits);
            const unsigned incl = warp_incl_sum(mine);
            const unsigned warp_hits = __shfl_sync(DRTOPK_FULL_MASK, incl, DRTOPK_WARP - 1);
            if (warp_hits == 0) continue;       /* the warp alike */
            unsigned base = 0;
            if (lane == 0) base = atomicAdd(&f.listed, warp_hits);
            unsigned at = __shfl_sync(DRTOPK_FULL_MASK, base, 0) + incl - mine;
#pragma unroll
            for (unsigned h = 0; h < H; ++h)
                if (hits >> h & 1u) {
                    if (at < W)
                        w[at] = filter_word(kv[h], nhead + (v0 + h / V * blockDim.x) * V + h % V);
                    ++at;
                }
        }
        __syncthreads();
        const unsigned c = f.listed;
        if (c < kn || c > W) {
            if (threadIdx.x == 0) filter_fall_back<BIN>(a, s, states);
            __syncthreads();            /* f read before the next segment's */
            continue;
        }
        auto emit = [&](unsigned at, uint64_t x) {
            if (sorted) best[at] = x;
            else put<T>(a, s, start, at, filter_pos(x));
        };
        if (c == kn) {                  /* the list is the top k_s (a segment its own top k): no search */
            for (unsigned j = threadIdx.x; j < c; j += blockDim.x) emit(j, w[j]);
        } else {
            filter_search(w, c, kn, high, &f, hist);
            const uint64_t pf = f.prefix, mk = f.mask;
            const unsigned want = f.want, above = kn - want;
            for (unsigned j0 = 0; j0 < c; j0 += blockDim.x) {  /* the words above the k-th key, then its ties */
                const unsigned j = j0 + threadIdx.x;
                const uint64_t x = j < c ? w[j] : 0;
                unsigned at;
                if (slot(j < c && (x & mk) > pf, &f.placed, &at)) emit(at, x);
                if (slot(j < c && (x & mk) == pf, &f.ties, &at) && at < want) emit(above + at, x);
            }
        }
        if (sorted) {
            if (kn > BATCH_FILTER_MERGE_K) {
                /* a block merge sort, its scratch in the words (read by now): n log n steps where the
                 * bitonic takes n log^2 n / 2 */
                constexpr unsigned R = BATCH_SORT_MAX / THREADS;     /* words a thread: the block holds k_s */
                typedef cub::BlockMergeSort<uint64_t, THREADS, R> merge_sort;
                static_assert(sizeof(typename merge_sort::TempStorage) <= W * sizeof(uint64_t),
                              "the merge sort's scratch fits the words");
                __syncthreads();        /* best written, the words read */
                uint64_t x[R];
#pragma unroll
                for (unsigned r = 0; r < R; ++r) {
                    const unsigned j = threadIdx.x * R + r;
                    x[r] = j < kn ? best[j] : 0;
                }
                merge_sort(*reinterpret_cast<typename merge_sort::TempStorage *>(w)).Sort(x, cuda::std::greater<uint64_t>());
#pragma unroll
                for (unsigned r = 0; r < R; ++r) best[threadIdx.x * R + r] = x[r];
            } else {
                const unsigned m = pow2_at_least(kn, BATCH_SORT_GROUP);
                for (unsigned j = kn + threadIdx.x; j < m; j += blockDim.x) best[j] = 0;
                __syncthreads();
                filter_sort(best, m);
            }
            __syncthreads();
            for (unsigned j = threadIdx.x; j < kn; j += blockDim.x) put<T>(a, s, start, j, filter_pos(best[j]));
        }
        __syncthreads();                /* the words and f read before the next segment's */
    }
}

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
enum { UNIFORM_TINY, UNIFORM_WARP, UNIFORM_CHUNKED, UNIFORM_STAGED, UNIFORM_SPLIT };

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
