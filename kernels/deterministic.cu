/*
 * deterministic.cu -- the deterministic result of one vector on the CUDA
 * backend (DRTOPK_DETERMINISTIC; beyond the paper): whatever plan selected
 * the k best keys, the ties at the k-th key become the ones of smallest
 * position, and with DRTOPK_SORTED the k are ordered best first with equal
 * keys by smaller position.  So the result is the k best (ordered key,
 * position) pairs, the CPU backend's result, the same bits run to run and on
 * every plan.
 *
 * Before the plan's selection drtopk_cuda_det_begin clears the state below
 * and hands the selection a flag, `settled`, which a plan that has made its
 * result final sets (standalone onepass on a SELECT, or on a TAKE whose
 * pass listed every tie of its threshold: it picks the ties of smallest
 * position among its candidates or that list, onepass.cu step 9; standalone
 * onepass or fused where the result took every key equal to its k-th); steps
 * 1-3 then return at once.  After the plan's unsorted selection (out_values,
 * out_indices), all on the caller's stream, no host synchronisation, each
 * launch dependent on the one before (det_launch):
 *   1. T, the worst ordered key of the output, m, how many of the output
 *      equal it (the ties the result takes), and the largest position of
 *      those: the m-th tie of smallest position lies at or before it;
 *   2. contiguous chunks of V, taken in position order (a ticket each), count
 *      their keys equal to T (keeping up to DET_STASH of their offsets in
 *      shared memory) and publish the count; each chunk then looks
 *      back over its predecessors' published counts for its first rank (a
 *      single-pass scan, as CUB's decoupled look-back).  The chunk where the
 *      ranks reach m stops the taking: V is read only up to the chunk of the
 *      m-th tie (and at most one chunk more a block, never past the chunk of
 *      the output's last tie), whole where the output took every tie (E = m,
 *      known when the last chunk is ranked);
 *   3. the block that ranked a chunk whose ties start below rank m writes
 *      their positions in order (once it has counted and published its
 *      next chunk, or as it ends): from the offsets its count kept where
 *      they are all there, else reading the chunk again (from L2); unless
 *      E = m, the output's m tie slots then take those positions and
 *      their values;
 *   4. with DRTOPK_SORTED, where an ordered key and a position fit one
 *      64-bit word (keys of 16 and 32 bits, V of up to 2^32 or 2^48 keys):
 *      one descending radix sort of the k words key << pos_bits |
 *      complemented position, keys alone (key_width.h), and the values and
 *      positions read back from the words (V read at a position only where
 *      several bit patterns share a key: NaN, -0.0 and +0.0); else two
 *      stable radix sorts of the k (by position, then by ordered key,
 *      descending; both the library's one descending sort of 64-bit pairs,
 *      key_width.h, the first on complemented positions) and one gather.
 * Unless settled, step 2 reads V once more up to the chunk of the m-th tie
 * (16-byte loads: about the read floor for the part it reads); step 3
 * rereads from L2 only the chunks up to there with more than DET_STASH
 * ties that start below rank m.
 * Any key width (templates over the element's
 * unsigned type, key_of.cuh).
 *
 * Batches: the same per segment (drtopk_cuda_det_batch_fix), and the sort
 * of sorted results whose select leaves them unsorted (k past what its
 * block sorts; drtopk_cuda_batch_sort).  Sorting keys of at most 32 bits
 * for k up to SORT_BLOCK_MAX_K is a block merge sort per segment (equal
 * keys by position where the result is deterministic, else in the select's
 * order); else, where a slot's segment, a padding bit, its ordered key and
 * its position fit one 64-bit word, one radix sort of those words over all
 * slots; else stable radix passes over all slots (position, key, segment;
 * without the position pass where the result is not deterministic).
 */
#include <string.h>
#include <cuda/functional>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include "backend.h"
#include "device_common.cuh"
#include "key_of.cuh"
#include "key_width.h"

#define DET_BLOCK 256           /* threads per block of the kernels here                        */
#define DET_CHUNK_BYTES 65536   /* bytes a chunk at least: 4 rounds of loads a ticket and look-back */
#define DET_CHUNKS_MAX 32768    /* chunks at most: a status word each (256 KB)                  */
#define DET_VEC_BYTES 16        /* the chunk count's loads: 16 bytes (a chunk a multiple of them)  */
#define DET_SPIN_NS 32          /* a look-back's wait between reads of a status word not yet written */
#define DET_LOAD_BYTES 64       /* bytes a thread has in flight when it reads V (loads unrolled)   */
#define DET_MIN_BLOCKS 4        /* resident blocks an SM keeps of the reading kernels (<= 64 registers) */
#define DET_STASH 512           /* tie offsets a chunk's count keeps in shared memory (2 KB; ~16 in UD f16) */
static_assert(DET_LOAD_BYTES % DET_VEC_BYTES == 0, "a thread's loads are whole vectors");

/* Keys a thread reads at once: DET_LOAD_BYTES of them, so that a 16-bit V
 * keeps as many bytes in flight as a 64-bit one. */
template <typename UT> struct det_items {
    static constexpr int value = DET_LOAD_BYTES / (int)sizeof(UT);
};

/* The scalars of one fix-up (workspace). */
struct det_scalars {
    unsigned long long worst;   /* T: the output's worst ordered key (atomicMin)      */
    unsigned long long above;   /* output keys better than T                          */
    unsigned long long ties;    /* E: keys of V equal to T                            */
    unsigned long long slot;    /* the next of the m tie positions a slot takes       */
    unsigned long long next;    /* the next chunk of V to take (det_rank_kernel)      */
    unsigned long long stop;    /* 1 + the chunk holding the m-th tie, 0 until ranked */
    unsigned long long last;    /* 1 + the largest position of the output's ties (atomicMax) */
    int settled;                /* set by the selection: its result is final already  */
};

/* The fix-up's kernels start while the grid before them ends (det_launch:
 * programmatic dependent launch): each waits for that grid's end and writes
 * before it touches memory.  Those that read little (steps 1 and 3's
 * replacement) let the next start at once; the one that reads V
 * (det_rank_kernel) only pdl_wait(), so the next grid's waiting blocks never
 * sit beside its reads and slow them (docs/performance.md, "Deterministic
 * ties"). */
__device__ __forceinline__ void det_kernel_start()
{
    pdl_wait();
    pdl_launch_dependents();
}

/* The state of one fix-up before its selection: nothing settled, T not yet
 * taken (worst all ones), every count zero. */
__global__ void det_init_kernel(det_scalars *sc)
{
    *sc = det_scalars{};
    sc->worst = ~0ull;
}

/* T = the worst ordered key of the output: a block's minimum, one atomic a
 * block.  Also zeroes det_rank_kernel's status words (chunks of them). */
template <typename UT>
__global__ void det_worst_kernel(const UT *__restrict__ out, uint64_t k, drtopk_dtype t, drtopk_order o,
                                 det_scalars *sc, unsigned long long *status, uint64_t chunks)
{
    typedef cub::BlockReduce<unsigned long long, DET_BLOCK> reduce_t;
    __shared__ typename reduce_t::TempStorage tmp;
    det_kernel_start();
    if (sc->settled) return;
    const uint64_t first = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = first; i < chunks; i += stride) status[i] = 0;
    unsigned long long w = ~0ull;
    for (uint64_t i = first; i < k; i += stride) {
        const unsigned long long key = key_of(out[i], t, o);
        w = key < w ? key : w;
    }
    w = reduce_t(tmp).Reduce(w, cuda::minimum<unsigned long long>());
    if (threadIdx.x == 0 && w != ~0ull) atomicMin(&sc->worst, w);
}

/* The output keys better than T, and the largest position of those equal
 * to it: a block's count and maximum, one atomic each a block.  The output
 * holds m distinct ties, so the m-th tie of smallest position lies at or
 * before that position: det_rank_kernel reads V no further. */
template <typename UT>
__global__ void det_above_kernel(const UT *__restrict__ out, const uint64_t *__restrict__ out_p, uint64_t k,
                                 drtopk_dtype t, drtopk_order o, det_scalars *sc)
{
    typedef cub::BlockReduce<unsigned long long, DET_BLOCK> reduce_t;
    __shared__ typename reduce_t::TempStorage tmp;
    det_kernel_start();
    if (sc->settled) return;
    const unsigned long long thr = sc->worst;
    unsigned long long c = 0, last = 0;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < k; i += (uint64_t)gridDim.x * blockDim.x) {
        const unsigned long long key = key_of(out[i], t, o);
        c += key > thr;
        if (key == thr && out_p[i] + 1 > last) last = out_p[i] + 1;
    }
    c = reduce_t(tmp).Sum(c);
    __syncthreads();            /* tmp is reused by the maximum */
    last = reduce_t(tmp).Reduce(last, cuda::maximum<unsigned long long>());
    if (threadIdx.x == 0 && c) atomicAdd(&sc->above, c);
    if (threadIdx.x == 0 && last) atomicMax(&sc->last, last);
}

/* A chunk's status word (det_rank_kernel): 0 until counted, then its count
 * (DET_AGGREGATE), then the ties of every chunk up to it (DET_INCLUSIVE). */
#define DET_AGGREGATE (1ull << 62)
#define DET_INCLUSIVE (2ull << 62)
#define DET_STATUS_VALUE (DET_AGGREGATE - 1)
#define DET_TIES_UNKNOWN (~0ull)    /* sc->ties where ranking stopped before V's end: at least m */

/* A chunk's tie offsets from lo, in no order: slots while *n < DET_STASH
 * (*n counts the ties offered, so it holds them all where the chunk's count
 * is at most DET_STASH). */
struct det_stash {
    unsigned *off;
    unsigned *n;
    /* the ties among keys lo + at + j for the bits j of eq */
    __device__ __forceinline__ void put(uint64_t at, unsigned eq) const
    {
        if (*(volatile unsigned *)n >= DET_STASH) return;
        unsigned i = atomicAdd(n, (unsigned)__popc(eq));
        for (; eq != 0 && i < DET_STASH; eq &= eq - 1, ++i) off[i] = (unsigned)at + (unsigned)__ffs((int)eq) - 1;
    }
};

/* The keys equal to thr among v[lo, hi), this thread's share, their
 * offsets in stash: 16-byte loads, DET_LOAD_BYTES of them a thread issued
 * before any is compared, over the 16-byte aligned middle; key by key at the
 * ends. */
template <typename UT>
__device__ unsigned det_count_range(const UT *__restrict__ v, uint64_t lo, uint64_t hi, UT thr, drtopk_dtype t,
                                    drtopk_order o, det_stash stash)
{
    constexpr int per_vec = DET_VEC_BYTES / (int)sizeof(UT), vecs = DET_LOAD_BYTES / DET_VEC_BYTES;
    const uint64_t mis = ((uintptr_t)(v + lo) / sizeof(UT)) % per_vec;
    uint64_t a_lo = lo + (mis ? per_vec - mis : 0);
    if (a_lo > hi) a_lo = hi;
    const uint64_t nv = (hi - a_lo) / per_vec, a_hi = a_lo + nv * per_vec;
    const uint4 *__restrict__ vv = (const uint4 *)(v + a_lo);
    unsigned c = 0;
    const auto tally = [&](uint64_t at, unsigned eq) {    /* the ties at lo + at + j, bits j of eq */
        c += __popc(eq);
        stash.put(at, eq);
    };
    uint64_t off = threadIdx.x;
    for (; off + (uint64_t)(vecs - 1) * DET_BLOCK < nv; off += (uint64_t)DET_BLOCK * vecs) {
        uint4 x[vecs];
#pragma unroll
        for (int j = 0; j < vecs; ++j) x[j] = vv[off + j * DET_BLOCK];
#pragma unroll
        for (int j = 0; j < vecs; ++j) {
            UT e[per_vec];
            unsigned eq = 0;
            memcpy(e, &x[j], sizeof e);
#pragma unroll
            for (int q = 0; q < per_vec; ++q) eq |= (unsigned)(key_of(e[q], t, o) == thr) << q;
            if (eq) tally(a_lo - lo + (off + j * DET_BLOCK) * per_vec, eq);
        }
    }
    for (; off < nv; off += DET_BLOCK) {
        const uint4 x = vv[off];
        UT e[per_vec];
        unsigned eq = 0;
        memcpy(e, &x, sizeof e);
#pragma unroll
        for (int q = 0; q < per_vec; ++q) eq |= (unsigned)(key_of(e[q], t, o) == thr) << q;
        if (eq) tally(a_lo - lo + off * per_vec, eq);
    }
    for (uint64_t i = lo + threadIdx.x; i < a_lo; i += DET_BLOCK)
        if (key_of(v[i], t, o) == thr) tally(i - lo, 1u);
    for (uint64_t i = a_hi + threadIdx.x; i < hi; i += DET_BLOCK)
        if (key_of(v[i], t, o) == thr) tally(i - lo, 1u);
    return c;
}

/* Block-wide, the n <= DET_STASH tie offsets of a chunk from lo (stash, in
 * no order, distinct) ranked from `rank` on: tie_pos[rank + r] = lo + the
 * r-th smallest offset, for rank + r < m.  Each offset's r is the count of
 * those below it (broadcast reads of shared memory). */
__device__ void det_ties_from_stash(const unsigned *stash, unsigned n, uint64_t lo, unsigned long long rank,
                                    unsigned long long m, uint64_t *tie_pos)
{
    for (unsigned i = threadIdx.x; i < n; i += DET_BLOCK) {
        const unsigned x = stash[i];
        unsigned r = 0;
        for (unsigned j = 0; j < n; ++j) r += stash[j] < x;
        if (rank + r < m) tie_pos[rank + r] = lo + x;
    }
}

typedef cub::BlockScan<unsigned, DET_BLOCK> det_scan_t;

/* Block-wide, the keys of v[lo, hi) equal to thr in position order, ranked
 * from `rank` on: tie_pos[r] = the position of rank r for r < m, reading
 * tiles of DET_BLOCK * det_items keys, each thread det_items consecutive ones
 * (so thread order is position order; DET_LOAD_BYTES in 16-byte loads where
 * v + lo is 16-byte aligned and they lie in the range), one block scan of
 * the threads' counts a tile, until the rank reaches m.  Returns the rank
 * reached. */
template <typename UT>
__device__ unsigned long long det_ties_in_order(const UT *__restrict__ v, uint64_t lo, uint64_t hi, UT thr,
                                                drtopk_dtype t, drtopk_order o, unsigned long long rank,
                                                unsigned long long m, uint64_t *tie_pos,
                                                det_scan_t::TempStorage &tmp)
{
    constexpr int items = det_items<UT>::value, vecs = DET_LOAD_BYTES / DET_VEC_BYTES;
    const bool aligned = (uintptr_t)(v + lo) % DET_VEC_BYTES == 0;
    for (uint64_t tile = lo; tile < hi && rank < m; tile += (uint64_t)DET_BLOCK * items) {
        const uint64_t first = tile + (uint64_t)threadIdx.x * items;
        uint64_t eq = 0;        /* bit j: key first + j equals thr */
        if (aligned && first + items <= hi) {
            const uint4 *vv = (const uint4 *)(v + first);
            uint4 x[vecs];
            UT e[items];
#pragma unroll
            for (int j = 0; j < vecs; ++j) x[j] = vv[j];
            memcpy(e, x, sizeof e);
#pragma unroll
            for (int j = 0; j < items; ++j) eq |= (uint64_t)(key_of(e[j], t, o) == thr) << j;
        } else {
#pragma unroll
            for (int j = 0; j < items; ++j)
                if (first + j < hi && key_of(v[first + j], t, o) == thr) eq |= 1ull << j;
        }
        unsigned before, in_tile;
        det_scan_t(tmp).ExclusiveSum((unsigned)__popcll(eq), before, in_tile);
        for (unsigned long long r = rank + before; eq != 0 && r < m; ++r, eq &= eq - 1)
            tie_pos[r] = first + (uint64_t)__ffsll((long long)eq) - 1;
        rank += in_tile;
        __syncthreads();        /* tmp is reused by the next tile's scan */
    }
    return rank;
}

/* Steps 2 and 3: a block takes chunks of V in position order (sc->next,
 * one ahead) until the chunk holding the m-th tie is ranked (sc->stop); for
 * each it counts the keys equal to T (their offsets in that chunk's stash,
 * two alternating), publishes the count in status[c], sums
 * its predecessors' published words back to the first inclusive one (warp
 * 0, a warp's predecessors a step; each was taken earlier, by a running
 * block, so the waits end), and publishes its inclusive count; the chunk
 * where the ranks reach m sets sc->stop and sc->ties (E where it is the last
 * chunk, else DET_TIES_UNKNOWN).  The ties of a chunk whose ties start below
 * rank m are then written in order by its block (once it has counted its
 * next chunk and published that count, or before it ends), tie_pos[r] for
 * r < m: from the stash where it holds them all (det_ties_from_stash), else
 * reread from L2 (det_ties_in_order):
 * every chunk before the stop is ranked, so the m are written when the grid
 * ends (needed unless E = m).  A chunk past the stop is not needed: a block
 * whose chunk has ended after the stop is known takes no more (its next one
 * unread), and a look-back that waits for a word while the stop lies at or
 * before its chunk ends at once (only later chunks wait for that chunk's
 * words, and they end theirs alike).  No block takes a chunk past the one of the output's last tie
 * (sc->last), where the m-th tie lies at the latest.  status zeroed by
 * det_worst_kernel. */
template <typename UT>
__global__ void __launch_bounds__(DET_BLOCK, DET_MIN_BLOCKS)
    det_rank_kernel(const UT *__restrict__ v, uint64_t n, uint64_t k, uint64_t chunk, uint64_t chunks,
                    drtopk_dtype t, drtopk_order o, det_scalars *sc, unsigned long long *status,
                    uint64_t *tie_pos)
{
    typedef cub::BlockReduce<unsigned, DET_BLOCK> reduce_t;
    __shared__ union {
        typename reduce_t::TempStorage reduce;
        det_scan_t::TempStorage scan;
    } tmp;
    __shared__ unsigned long long taken, fill_c, fill_from;     /* fill_from == m: no chunk to fill */
    __shared__ unsigned stash[2][DET_STASH], stash_n[2], fill_n;   /* a chunk's and the one before's ties */
    pdl_wait();                 /* the next grid launches as this one ends (det_kernel_start) */
    if (sc->settled) return;
    const UT thr = (UT)sc->worst;
    const unsigned long long m = k - sc->above;
    volatile unsigned long long *vs = status;
    volatile unsigned long long *stop = &sc->stop;
    /* the chunks up to the one of the output's last tie (all of V where none was found) */
    const unsigned long long bound = sc->last ? (sc->last - 1) / chunk + 1 : chunks;
    /* the ties of the chunk ranked before (stash b, nt of them), in order
     * from rank `from`: from its stash where that holds them all, else
     * read again */
    const auto fill = [&](unsigned long long fc, unsigned long long from, unsigned nt, int b) {
        const uint64_t lo = fc * chunk, hi = lo + chunk < n ? lo + chunk : n;
        if (nt <= DET_STASH)
            det_ties_from_stash(stash[b], nt, lo, from, m, tie_pos);
        else
            det_ties_in_order<UT>(v, lo, hi, thr, t, o, from, m, tie_pos, tmp.scan);
    };
    if (threadIdx.x == 0) {
        taken = atomicAdd(&sc->next, 1ull);
        fill_from = m;
        stash_n[0] = 0;
    }
    __syncthreads();
    for (int b = 0;; b ^= 1) {  /* b: this chunk's stash; the chunk before's is the other */
        const unsigned long long c = taken, pend_c = fill_c, pend_from = fill_from;
        const unsigned pend_n = fill_n;
        __syncthreads();        /* every thread has them before thread 0 writes the next */
        if (c >= bound) {
            if (pend_from < m) fill(pend_c, pend_from, pend_n, b ^ 1);
            return;
        }
        /* the next chunk taken now, its wait hidden behind this one's loads */
        unsigned long long ahead = chunks;
        if (threadIdx.x == 0 && *stop == 0) ahead = atomicAdd(&sc->next, 1ull);
        const uint64_t lo = c * chunk, hi = lo + chunk < n ? lo + chunk : n;
        const unsigned cnt =
            reduce_t(tmp.reduce).Sum(det_count_range<UT>(v, lo, hi, thr, t, o, det_stash{ stash[b], &stash_n[b] }));
        if (threadIdx.x == 0 && c > 0) vs[c] = DET_AGGREGATE | cnt;
        /* the chunk before fills its ties once this one's count is published,
         * so that no look-back waits for its fill */
        if (pend_from < m) {
            __syncthreads();    /* tmp: the reduce's storage becomes the fill's scan */
            fill(pend_c, pend_from, pend_n, b ^ 1);
        }
        unsigned long long before = 0;
        bool past = false;      /* the stop lies at or before c: its rank is not needed */
        /* thread 0: the stop before the look-back (the read waits behind the
         * look-back's, costing no time of its own) */
        const unsigned long long stop_then = threadIdx.x == 0 ? *stop : 0;
        if (threadIdx.x < DRTOPK_WARP) {       /* warp 0 looks back, a warp's predecessors a step */
            const unsigned lane = threadIdx.x;
            for (long long top = (long long)c - 1; top >= 0; top -= DRTOPK_WARP) {
                const long long q = top - (long long)lane;
                unsigned long long w = DET_INCLUSIVE;           /* before chunk 0: none */
                bool gone = false;
                if (q >= 0)
                    for (w = vs[q]; w == 0 && !gone;) {
                        __nanosleep(DET_SPIN_NS);
                        w = vs[q];
                        const unsigned long long st = *stop;    /* read beside the word */
                        gone = w == 0 && st != 0 && c >= st;
                    }
                if (__any_sync(DRTOPK_FULL_MASK, gone)) {
                    past = true;
                    break;
                }
                const unsigned incl = __ballot_sync(DRTOPK_FULL_MASK, (w & DET_INCLUSIVE) != 0);
                const unsigned last = incl ? (unsigned)__ffs(incl) - 1 : DRTOPK_WARP - 1;  /* the nearest inclusive */
                unsigned long long x = lane <= last ? w & DET_STATUS_VALUE : 0;
                for (unsigned d = DRTOPK_WARP / 2; d > 0; d /= 2) x += __shfl_xor_sync(DRTOPK_FULL_MASK, x, d);
                before += x;
                if (incl) break;
            }
        }
        if (threadIdx.x == 0) {
            unsigned long long st = stop_then;
            fill_from = m;
            if (!past) {
                const unsigned long long upto = before + cnt;
                vs[c] = DET_INCLUSIVE | upto;
                if (before < m && upto >= m) {
                    sc->ties = c + 1 == chunks ? upto : DET_TIES_UNKNOWN;
                    *stop = st = c + 1;
                }
                if (cnt && before < m) {
                    fill_c = c;
                    fill_from = before;
                    fill_n = cnt;
                }
            }
            taken = st != 0 && ahead >= st ? chunks : ahead;
            stash_n[b ^ 1] = 0;     /* the next chunk's: the fill above read its count from fill_n */
        }
        __syncthreads();
    }
}

/* Each output slot holding a tie takes one of the m chosen positions and its
 * value: a block ranks its tie slots by a scan and claims their positions
 * with one atomic. */
template <typename UT>
__global__ void det_replace_kernel(const UT *__restrict__ v, uint64_t k, drtopk_dtype t, drtopk_order o,
                                   det_scalars *sc, const uint64_t *__restrict__ tie_pos, UT *out_v, uint64_t *out_p)
{
    typedef cub::BlockScan<unsigned, DET_BLOCK> scan_t;
    __shared__ typename scan_t::TempStorage tmp;
    __shared__ unsigned long long base;
    det_kernel_start();
    if (sc->settled || sc->ties == k - sc->above) return;
    const unsigned long long thr = sc->worst;
    for (uint64_t tile = (uint64_t)blockIdx.x * blockDim.x; tile < k; tile += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t i = tile + threadIdx.x;
        const unsigned eq = i < k && key_of(out_v[i], t, o) == thr;
        unsigned before, in_tile;
        scan_t(tmp).ExclusiveSum(eq, before, in_tile);
        if (threadIdx.x == 0 && in_tile) base = atomicAdd(&sc->slot, (unsigned long long)in_tile);
        __syncthreads();
        if (eq) {
            const uint64_t pos = tie_pos[base + before];
            out_p[i] = pos;
            out_v[i] = v[pos];
        }
        __syncthreads();        /* base and tmp are reused by the next tile */
    }
}

/* The first sort's keys: positions complemented in their pos_mask bits (a
 * descending sort of them is an ascending one of the positions), slot
 * numbers as payload. */
__global__ void det_sort_init_kernel(const uint64_t *__restrict__ out_p, uint64_t k, uint64_t pos_mask, uint64_t *pos,
                                     uint64_t *slot)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < k; i += (uint64_t)gridDim.x * blockDim.x) {
        pos[i] = pos_mask - out_p[i];
        slot[i] = i;
    }
}

/* The second pass's keys: the ordered key of each slot, in position order. */
template <typename UT>
__global__ void det_sort_keys_kernel(const UT *__restrict__ out_v, const uint64_t *__restrict__ slot, uint64_t k,
                                     drtopk_dtype t, drtopk_order o, uint64_t *key)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < k; i += (uint64_t)gridDim.x * blockDim.x)
        key[i] = key_of(out_v[slot[i]], t, o);
}

/* The one-word sort's keys: slot i's ordered key above its complemented
 * position (a descending sort orders equal keys by ascending position);
 * key_bits + pos_bits <= 64. */
template <typename UT>
__global__ void det_pack_kernel(const UT *__restrict__ out_v, const uint64_t *__restrict__ out_p, uint64_t k,
                                drtopk_dtype t, drtopk_order o, int pos_bits, uint64_t pos_mask, uint64_t *word)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < k; i += (uint64_t)gridDim.x * blockDim.x)
        word[i] = (uint64_t)key_of(out_v[i], t, o) << pos_bits | (pos_mask - out_p[i]);
}

/* The element whose ordered key (order o) is key, at position pos of seg_v:
 * keyorder.h's inverse for the largest order, or seg_v[pos] where several
 * bit patterns share the key (NaN, -0.0 and +0.0). */
template <typename UT>
__device__ __forceinline__ UT det_value_of_key(UT key, drtopk_dtype t, drtopk_order o, const UT *__restrict__ seg_v,
                                               uint64_t pos)
{
    const UT largest = o == DRTOPK_SMALLEST ? (UT)~key : key;
    return drtopk_key_is_shared(largest, t) ? seg_v[pos] : (UT)drtopk_bits_from_key_any(largest, t);
}

/* The result from the sorted words: the position below, the value from the
 * ordered key above it (keyorder.h's inverse for the largest order), or
 * from V at that position where several bit patterns share the key. */
template <typename UT>
__global__ void det_unpack_kernel(const uint64_t *__restrict__ word, uint64_t k, const UT *__restrict__ v,
                                  drtopk_dtype t, drtopk_order o, int pos_bits, uint64_t pos_mask, UT *out_v,
                                  uint64_t *out_p)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < k; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t w = word[i], pos = pos_mask - (w & pos_mask);
        out_p[i] = pos;
        out_v[i] = det_value_of_key<UT>((UT)(w >> pos_bits), t, o, v, pos);
    }
}

/* The result in the sorted slots' order (from copies of the output). */
template <typename UT>
__global__ void det_sort_gather_kernel(const UT *__restrict__ cv, const uint64_t *__restrict__ cp,
                                       const uint64_t *__restrict__ slot, uint64_t k, UT *out_v, uint64_t *out_p)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < k; i += (uint64_t)gridDim.x * blockDim.x) {
        out_v[i] = cv[slot[i]];
        out_p[i] = cp[slot[i]];
    }
}

/* What sorting n output slots takes: two key and two slot buffers (CUB's
 * double buffers), copies of the output, CUB's storage. */
struct det_sort_bufs {
    uint64_t *key0, *key1, *slot0, *slot1, *copy_p;
    void *copy_v;
    void *sort_tmp;
    size_t sort_bytes;
};

static drtopk_status det_carve_sort(char *base, size_t *off, uint64_t n, size_t elem_bytes, det_sort_bufs *b)
{
    uint64_t **bufs[] = { &b->key0, &b->key1, &b->slot0, &b->slot1, &b->copy_p };
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
        *bufs[i] = (uint64_t *)drtopk_carve(base, off, n * sizeof(uint64_t));
    b->copy_v = drtopk_carve(base, off, n * elem_bytes);
    size_t keys_bytes = 0;
    drtopk_status st = key_sort_pairs_desc(NULL, &b->sort_bytes, NULL, NULL, NULL, NULL, n, 64, 0);
    if (st != DRTOPK_OK || (st = key_sort_keys_desc(NULL, &keys_bytes, NULL, NULL, n, 64, 0)) != DRTOPK_OK) return st;
    if (keys_bytes > b->sort_bytes) b->sort_bytes = keys_bytes;
    b->sort_tmp = drtopk_carve(base, off, b->sort_bytes);
    return DRTOPK_OK;
}

/* The workspace, carved from an aligned base (NULL: sizes only). */
struct det_layout {
    det_scalars *sc;
    unsigned long long *status;                 /* a word each chunk (det_rank_kernel) */
    uint64_t chunk, chunks;                     /* keys a chunk; chunks of V */
    uint64_t *tie_pos;
    det_sort_bufs srt;          /* sorted only */
    size_t total;
};

static int det_bits_for(uint64_t x)
{
    int b = 1;
    while (b < 64 && (x >> b) != 0) ++b;
    return b;
}

/* V's chunks: at least DET_CHUNK_BYTES each (or V), at most DET_CHUNKS_MAX
 * of them, each a whole number of 16-byte vectors' keys (8 keys: a
 * vector's keys of every width divide it). */
static void det_chunking(uint64_t n, size_t elem_bytes, uint64_t *chunk, uint64_t *chunks)
{
    const uint64_t per = DET_VEC_BYTES / sizeof(uint16_t), least = DET_CHUNK_BYTES / elem_bytes;
    uint64_t c = (n + least - 1) / least;
    c = c == 0 ? 1 : c < DET_CHUNKS_MAX ? c : DET_CHUNKS_MAX;
    *chunk = ((n + c - 1) / c + per - 1) / per * per;
    *chunks = n == 0 ? 1 : (n + *chunk - 1) / *chunk;
}

static drtopk_status det_carve(const drtopk_problem *p, int sorted, char *base, det_layout *l)
{
    size_t off = 0;
    const uint64_t k = p->k;
    memset(l, 0, sizeof *l);
    l->sc = (det_scalars *)drtopk_carve(base, &off, sizeof(det_scalars));
    det_chunking(p->n, drtopk_dtype_size(p->dtype), &l->chunk, &l->chunks);
    l->status = (unsigned long long *)drtopk_carve(base, &off, l->chunks * sizeof(unsigned long long));
    l->tie_pos = (uint64_t *)drtopk_carve(base, &off, k * sizeof(uint64_t));
    if (sorted) {
        const drtopk_status st = det_carve_sort(base, &off, k, drtopk_dtype_size(p->dtype), &l->srt);
        if (st != DRTOPK_OK) return st;
    }
    l->total = off + DRTOPK_WS_ALIGN;
    return DRTOPK_OK;
}

extern "C" drtopk_status drtopk_cuda_det_workspace(const drtopk_problem *p, int sorted, size_t *bytes)
{
    det_layout l;
    const drtopk_status st = det_carve(p, sorted, NULL, &l);
    *bytes = l.total;
    return st;
}

/* The n slots in the order `slot` (a permutation): from copies of the output. */
template <typename UT>
static drtopk_status det_gather_sorted(const det_sort_bufs *b, const uint64_t *slot, uint64_t n, UT *out_v,
                                       uint64_t *out_p, int grid, cudaStream_t s)
{
    DRTOPK_CUDA_TRY(cudaMemcpyAsync(b->copy_v, out_v, n * sizeof(UT), cudaMemcpyDeviceToDevice, s));
    DRTOPK_CUDA_TRY(cudaMemcpyAsync(b->copy_p, out_p, n * sizeof(uint64_t), cudaMemcpyDeviceToDevice, s));
    det_sort_gather_kernel<UT><<<grid, DET_BLOCK, 0, s>>>((const UT *)b->copy_v, b->copy_p, slot, n, out_v, out_p);
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

static int det_grid(uint64_t n, int sms)
{
    const uint64_t blocks = (n + DET_BLOCK - 1) / DET_BLOCK, most = (uint64_t)sms * 8;
    return blocks == 0 ? 1 : blocks < most ? (int)blocks : (int)most;
}

/* One of the fix-up's kernels on s, grid blocks of DET_BLOCK threads,
 * programmatically dependent on the grid before it where the GPU has it
 * (det_kernel_start: steps 1-3 return at once after a settled selection, so
 * their launches, not their work, would cost). */
template <typename... P, typename... A>
static drtopk_status det_launch(void (*kernel)(P...), unsigned grid, cudaStream_t s, int cc_major, A... args)
{
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute pdl;
    drtopk_pdl_config(&cfg, &pdl, grid, DET_BLOCK, 0, s, cc_major);
    DRTOPK_CUDA_TRY(cudaLaunchKernelEx(&cfg, kernel, args...));
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

template <typename UT>
static drtopk_status det_run(const drtopk_problem *p, int sorted, const det_layout *l, void *out_values,
                             uint64_t *out_indices, cudaStream_t s, const drtopk_device_attrs *dev)
{
    const UT *v = (const UT *)p->values;
    UT *ov = (UT *)out_values;
    const int sms = dev->sm_count, cc = dev->cc_major;
    const uint64_t n = p->n, k = p->k, chunk = l->chunk, chunks = l->chunks;
    const uint64_t most = (uint64_t)sms * DET_MIN_BLOCKS;     /* resident: the rest would only wait */
    const unsigned gk = (unsigned)det_grid(k, sms), gv = (unsigned)(chunks < most ? chunks : most);
    drtopk_status st;
    if ((st = det_launch(det_worst_kernel<UT>, (unsigned)det_grid(k > chunks ? k : chunks, sms), s, cc,
                         (const UT *)ov, k, p->dtype, p->order, l->sc, l->status, chunks)) != DRTOPK_OK ||
        (st = det_launch(det_above_kernel<UT>, gk, s, cc, (const UT *)ov, (const uint64_t *)out_indices, k,
                         p->dtype, p->order, l->sc)) != DRTOPK_OK ||
        (st = det_launch(det_rank_kernel<UT>, gv, s, cc, v, n, k, chunk, chunks, p->dtype, p->order, l->sc,
                         l->status, l->tie_pos)) != DRTOPK_OK ||
        (st = det_launch(det_replace_kernel<UT>, gk, s, cc, v, k, p->dtype, p->order, l->sc,
                         (const uint64_t *)l->tie_pos, ov, out_indices)) != DRTOPK_OK)
        return st;
    if (!sorted) return DRTOPK_OK;
    const det_sort_bufs *b = &l->srt;
    size_t tb = b->sort_bytes;
    const int key_bits = drtopk_dtype_bits(p->dtype), pos_bits = det_bits_for(n - 1);
    const uint64_t pos_mask = pos_bits == 64 ? ~0ull : (1ull << pos_bits) - 1;
    if (key_bits + pos_bits <= 64) {    /* one sort of (key, complemented position) words */
        det_pack_kernel<UT><<<gk, DET_BLOCK, 0, s>>>(ov, out_indices, k, p->dtype, p->order, pos_bits, pos_mask,
                                                    b->key0);
        DRTOPK_LAUNCH_CHECK();
        if ((st = key_sort_keys_desc(b->sort_tmp, &tb, b->key0, b->key1, k, key_bits + pos_bits, s)) != DRTOPK_OK)
            return st;
        det_unpack_kernel<UT><<<gk, DET_BLOCK, 0, s>>>(b->key1, k, v, p->dtype, p->order, pos_bits, pos_mask, ov,
                                                      out_indices);
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
    /* stable sorts: by position, then by ordered key best first (equal keys keep position order) */
    det_sort_init_kernel<<<gk, DET_BLOCK, 0, s>>>(out_indices, k, pos_mask, b->key0, b->slot0);
    DRTOPK_LAUNCH_CHECK();
    if ((st = key_sort_pairs_desc(b->sort_tmp, &tb, b->key0, b->key1, b->slot0, b->slot1, k, pos_bits, s)) !=
        DRTOPK_OK)
        return st;
    det_sort_keys_kernel<UT><<<gk, DET_BLOCK, 0, s>>>(ov, b->slot1, k, p->dtype, p->order, b->key0);
    DRTOPK_LAUNCH_CHECK();
    if ((st = key_sort_pairs_desc(b->sort_tmp, &tb, b->key0, b->key1, b->slot1, b->slot0, k, key_bits, s)) !=
        DRTOPK_OK)
        return st;
    return det_gather_sorted<UT>(b, b->slot0, k, ov, out_indices, gk, s);
}

static drtopk_status det_run_width(const drtopk_problem *p, int sorted, const det_layout *l, void *out_values,
                                   uint64_t *out_indices, cudaStream_t s, const drtopk_device_attrs *dev)
{
    switch (drtopk_dtype_bits(p->dtype)) {
    case 16: return det_run<uint16_t>(p, sorted, l, out_values, out_indices, s, dev);
    case 32: return det_run<uint32_t>(p, sorted, l, out_values, out_indices, s, dev);
    default: return det_run<uint64_t>(p, sorted, l, out_values, out_indices, s, dev);
    }
}

/* The fix-up between two events on s, waited for: its GPU time in *ms.  The
 * caller destroys the events this creates (ev[i] stays NULL until created). */
static drtopk_status det_run_between(const drtopk_problem *p, int sorted, const det_layout *l, void *out_values,
                                     uint64_t *out_indices, cudaStream_t s, const drtopk_device_attrs *dev,
                                     cudaEvent_t ev[2], float *ms)
{
    drtopk_status st;
    DRTOPK_CUDA_TRY(cudaEventCreate(&ev[0]));
    DRTOPK_CUDA_TRY(cudaEventCreate(&ev[1]));
    DRTOPK_CUDA_TRY(cudaEventRecord(ev[0], s));
    if ((st = det_run_width(p, sorted, l, out_values, out_indices, s, dev)) != DRTOPK_OK) return st;
    DRTOPK_CUDA_TRY(cudaEventRecord(ev[1], s));
    DRTOPK_CUDA_TRY(cudaEventSynchronize(ev[1]));
    DRTOPK_CUDA_TRY(cudaEventElapsedTime(ms, ev[0], ev[1]));
    return DRTOPK_OK;
}

static drtopk_status det_run_timed(const drtopk_problem *p, int sorted, const det_layout *l, void *out_values,
                                   uint64_t *out_indices, cudaStream_t s, const drtopk_device_attrs *dev, float *ms)
{
    cudaEvent_t ev[2] = { NULL, NULL };
    const drtopk_status st = det_run_between(p, sorted, l, out_values, out_indices, s, dev, ev, ms);
    for (int i = 0; i < 2; ++i)
        if (ev[i]) cudaEventDestroy(ev[i]);
    return st;
}

extern "C" drtopk_status drtopk_cuda_det_begin(const drtopk_problem *p, int sorted, void *ws, size_t ws_bytes,
                                              void *stream, int **d_settled)
{
    det_layout l;
    drtopk_status st;
    char *base = (char *)drtopk_align_up((uintptr_t)ws, DRTOPK_WS_ALIGN);
    const cudaStream_t s = (cudaStream_t)stream;
    if ((st = det_carve(p, sorted, NULL, &l)) != DRTOPK_OK) return st;
    if (ws == NULL || ws_bytes < l.total) return drtopk_workspace_too_small(ws, ws_bytes, l.total);
    if ((st = det_carve(p, sorted, base, &l)) != DRTOPK_OK) return st;
    det_init_kernel<<<1, 1, 0, s>>>(l.sc);
    DRTOPK_LAUNCH_CHECK();
    *d_settled = &l.sc->settled;
    return DRTOPK_OK;
}

extern "C" drtopk_status drtopk_cuda_det_fix(const drtopk_problem *p, int sorted, void *ws, size_t ws_bytes,
                                            void *out_values, uint64_t *out_indices, void *stream, float *ms)
{
    det_layout l;
    const drtopk_device_attrs *dev;
    drtopk_status st;
    char *base = (char *)drtopk_align_up((uintptr_t)ws, DRTOPK_WS_ALIGN);
    if ((st = det_carve(p, sorted, NULL, &l)) != DRTOPK_OK) return st;
    if (ws == NULL || ws_bytes < l.total) return drtopk_workspace_too_small(ws, ws_bytes, l.total);
    if ((st = det_carve(p, sorted, base, &l)) != DRTOPK_OK) return st;
    if ((st = drtopk_device_current(NULL, &dev)) != DRTOPK_OK) return st;
    const cudaStream_t s = (cudaStream_t)stream;
    return ms ? det_run_timed(p, sorted, &l, out_values, out_indices, s, dev, ms)
              : det_run_width(p, sorted, &l, out_values, out_indices, s, dev);
}

/* ---- batched rows and segments (drtopk_batch_select) -------------------------
 * After the batch plan's unsorted selection (slots [s k, s k + k_s) of each
 * segment s, positions within the segment, the rest padded), the same
 * contract per segment.  Uniform rows longer than DET_ROW_MAX_LEN run the
 * single vector's fix-up row after row (its reads spread over the GPU);
 * every other segment is one warp's (up to DET_WARP_MAX_LEN keys) or one
 * block's: the segment's worst output key T and its m ties, the segment
 * read in order only up to its m-th key equal to T (the smallest
 * positions), and the output's tie slots given them.  Sorted, each segment
 * best first, equal keys by position, padding last: batch_block_sort by
 * position where it holds k (det_block_sorts), else det_batch_sort.  (The
 * tiny select's uniform rows need none of this: batch.c skips the fix-up
 * where drtopk_cuda_batch_settles.) */
#define DET_ROW_MAX_LEN (1ull << 20)    /* one block reads a row of this many keys in tens of microseconds */
#define DET_WARP_MAX_LEN 8192           /* one warp reads a segment of this many keys in a few microseconds */
#define DET_WARP_ROUNDS 8               /* 32-key rounds a warp loads before it ranks them                */
#define DET_BATCH_GRID_PER_SM 8         /* resident blocks an SM takes of the per-segment kernels          */
#define DET_WARP 32                     /* threads of a warp: the ballots' width                       */

/* Segment s: its first element, length and the slots it fills (k_s). */
__device__ __forceinline__ void det_segment(uint64_t s, uint64_t len, const uint64_t *__restrict__ offsets, uint64_t k,
                                            const uint64_t *__restrict__ ks, uint64_t *start, uint64_t *n,
                                            uint64_t *ke)
{
    *start = s * len;
    *n = len;
    if (offsets) {
        const uint64_t end = offsets[s + 1];
        *start = offsets[s];
        *n = end > *start ? end - *start : 0;   /* a decreasing offset is an empty segment */
    }
    uint64_t e = ks ? ks[s] : k;
    e = e < k ? e : k;
    *ke = e < *n ? e : *n;
}

/* Segments of at most DET_WARP_MAX_LEN keys, one warp each (warp-wide
 * reductions and ballots: no block barrier). */
template <typename UT>
__global__ void __launch_bounds__(DET_BLOCK)
    det_batch_warp_kernel(const UT *__restrict__ v, uint64_t segments, uint64_t len,
                          const uint64_t *__restrict__ offsets, uint64_t k, const uint64_t *__restrict__ ks,
                          drtopk_dtype t, drtopk_order o, UT *out_v, uint64_t *out_i, uint64_t *tie_pos)
{
    const unsigned lane = threadIdx.x % DET_WARP, below = (1u << lane) - 1u;
    const uint64_t warps = (uint64_t)gridDim.x * (DET_BLOCK / DET_WARP);
    for (uint64_t s = ((uint64_t)blockIdx.x * DET_BLOCK + threadIdx.x) / DET_WARP; s < segments; s += warps) {
        uint64_t start, n, ke;
        det_segment(s, len, offsets, k, ks, &start, &n, &ke);
        if (ke == 0 || n > DET_WARP_MAX_LEN) continue;      /* the same for the whole warp */
        const UT *__restrict__ sv = v + start;
        UT *ov = out_v + s * k;
        uint64_t *oi = out_i + s * k, *tp = tie_pos + s * k;
        unsigned long long w = ~0ull, m = 0;
        for (uint64_t i = lane; i < ke; i += DET_WARP) {
            const unsigned long long key = key_of(ov[i], t, o);
            w = key < w ? key : w;
        }
        for (int d = DET_WARP / 2; d > 0; d /= 2) {
            const unsigned long long x = __shfl_xor_sync(~0u, w, d);
            w = x < w ? x : w;
        }
        const UT thr = (UT)w;
        for (uint64_t tile = 0; tile < ke; tile += DET_WARP)
            m += __popc(__ballot_sync(~0u, tile + lane < ke && key_of(ov[tile + lane], t, o) == thr));
        /* the first m ties in position order: lane order within a round is position order */
        unsigned long long rank = 0;
        for (uint64_t base = 0; base < n && rank < m; base += DET_WARP * DET_WARP_ROUNDS) {
            bool eq[DET_WARP_ROUNDS];
#pragma unroll
            for (int j = 0; j < DET_WARP_ROUNDS; ++j) {
                const uint64_t q = base + (uint64_t)j * DET_WARP + lane;
                eq[j] = q < n && key_of(sv[q], t, o) == thr;
            }
#pragma unroll
            for (int j = 0; j < DET_WARP_ROUNDS; ++j) {
                const unsigned mask = __ballot_sync(~0u, eq[j]);
                const unsigned long long r = rank + __popc(mask & below);
                if (eq[j] && r < m) tp[r] = base + (uint64_t)j * DET_WARP + lane;
                rank += __popc(mask);
            }
        }
        __syncwarp();           /* tp's writes before other lanes read them */
        /* the output's tie slots, in slot order, take them */
        unsigned long long taken = 0;
        for (uint64_t tile = 0; tile < ke; tile += DET_WARP) {
            const uint64_t i = tile + lane;
            const bool eq = i < ke && key_of(ov[i], t, o) == thr;
            const unsigned mask = __ballot_sync(~0u, eq);
            if (eq) {
                const uint64_t q = tp[taken + __popc(mask & below)];
                oi[i] = q;
                ov[i] = sv[q];
            }
            taken += __popc(mask);
        }
    }
}

/* Segments longer than short_max keys (0: all), one block each. */
template <typename UT>
__global__ void __launch_bounds__(DET_BLOCK, DET_MIN_BLOCKS)
    det_batch_kernel(const UT *__restrict__ v, uint64_t segments, uint64_t len, const uint64_t *__restrict__ offsets,
                     uint64_t k, const uint64_t *__restrict__ ks, drtopk_dtype t, drtopk_order o, UT *out_v,
                     uint64_t *out_i, uint64_t *tie_pos, uint64_t short_max)
{
    typedef cub::BlockReduce<unsigned long long, DET_BLOCK> reduce_t;
    __shared__ union {
        typename reduce_t::TempStorage reduce;
        det_scan_t::TempStorage scan;
    } tmp;
    __shared__ unsigned long long sh_worst, sh_ties;
    for (uint64_t s = blockIdx.x; s < segments; s += gridDim.x) {
        uint64_t start, n, ke;
        det_segment(s, len, offsets, k, ks, &start, &n, &ke);
        if (ke == 0 || n <= short_max) continue;             /* the same for the whole block */
        const UT *__restrict__ sv = v + start;
        UT *ov = out_v + s * k;
        uint64_t *oi = out_i + s * k, *tp = tie_pos + s * k;
        unsigned long long w = ~0ull, c = 0;
        for (uint64_t i = threadIdx.x; i < ke; i += DET_BLOCK) {
            const unsigned long long key = key_of(ov[i], t, o);
            w = key < w ? key : w;
        }
        w = reduce_t(tmp.reduce).Reduce(w, cuda::minimum<unsigned long long>());
        if (threadIdx.x == 0) sh_worst = w;
        __syncthreads();
        const UT thr = (UT)sh_worst;
        for (uint64_t i = threadIdx.x; i < ke; i += DET_BLOCK) c += key_of(ov[i], t, o) == thr;
        c = reduce_t(tmp.reduce).Sum(c);
        if (threadIdx.x == 0) sh_ties = c;
        __syncthreads();
        const unsigned long long m = sh_ties;
        det_ties_in_order<UT>(sv, 0, n, thr, t, o, 0, m, tp, tmp.scan);   /* the first m, in position order */
        /* the output's tie slots, in slot order, take them */
        unsigned long long taken = 0;
        for (uint64_t tile = 0; tile < ke; tile += DET_BLOCK) {
            const uint64_t i = tile + threadIdx.x;
            const unsigned eq = i < ke && key_of(ov[i], t, o) == thr;
            unsigned before, in_tile;
            det_scan_t(tmp.scan).ExclusiveSum(eq, before, in_tile);
            if (eq) {
                const uint64_t q = tp[taken + before];
                oi[i] = q;
                ov[i] = sv[q];
            }
            taken += in_tile;
            __syncthreads();    /* tmp is reused */
        }
    }
}

/* The three sorts' keys, one pass each (`pass` 0, 1, 2) over the slots in
 * their current order `slot` (a permutation): positions ascending (complemented below
 * 2^pos_bits, padding 0: last), ordered keys (padding 0: after every real
 * key of its segment, which the position pass put first), segments
 * ascending (complemented). */
template <typename UT>
__global__ void det_batch_sort_keys_kernel(const UT *__restrict__ out_v, const uint64_t *__restrict__ out_i,
                                           const uint64_t *__restrict__ slot, uint64_t slots, uint64_t k,
                                           uint64_t segments, int pos_bits, int pass, drtopk_dtype t,
                                           drtopk_order o, uint64_t *key)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < slots; i += stride) {
        const uint64_t q = slot[i], pos = out_i[q];
        const int pad = pos == DRTOPK_INDEX_NONE;
        key[i] = pass == 0   ? (pad ? 0 : (1ull << pos_bits) + ((1ull << pos_bits) - 1 - pos))
                 : pass == 1 ? (pad ? 0 : (uint64_t)key_of(out_v[q], t, o))
                             : segments - 1 - q / k;
    }
}

/* The batched one-word sort's keys, slot i of segment i / k: the segment
 * (complemented: the first segment first), whether the slot holds a result
 * (padding 0: after its segment's results), the ordered key, the position
 * complemented (equal keys by ascending position); seg_shift = 1 + key_bits
 * + pos_bits and seg_shift + the segment's bits <= 64. */
template <typename UT>
__global__ void det_batch_pack_kernel(const UT *__restrict__ out_v, const uint64_t *__restrict__ out_i,
                                      uint64_t slots, uint64_t k, uint64_t segments, int pos_bits, int seg_shift,
                                      drtopk_dtype t, drtopk_order o, uint64_t *word)
{
    const uint64_t pos_mask = (1ull << pos_bits) - 1, stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < slots; i += stride) {
        const uint64_t pos = out_i[i], seg = (segments - 1 - i / k) << seg_shift;
        word[i] = pos == DRTOPK_INDEX_NONE ? seg
                                           : seg | 1ull << (seg_shift - 1) |
                                                 (uint64_t)key_of(out_v[i], t, o) << pos_bits | (pos_mask - pos);
    }
}

/* The batch's result from its sorted words (det_batch_pack_kernel's): a
 * slot's position and its value from the ordered key (keyorder.h's inverse
 * for the largest order), or from V where several bit patterns share the
 * key (NaN, -0.0 and +0.0); padding INDEX_NONE and all zero bits. */
template <typename UT>
__global__ void det_batch_unpack_kernel(const uint64_t *__restrict__ word, uint64_t slots, uint64_t k,
                                        const UT *__restrict__ v, uint64_t len, const uint64_t *__restrict__ offsets,
                                        int pos_bits, int seg_shift, drtopk_dtype t, drtopk_order o, UT *out_v,
                                        uint64_t *out_i)
{
    const uint64_t pos_mask = (1ull << pos_bits) - 1, stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < slots; i += stride) {
        const uint64_t w = word[i];
        if (!((w >> (seg_shift - 1)) & 1u)) {
            out_i[i] = DRTOPK_INDEX_NONE;
            out_v[i] = 0;
            continue;
        }
        const uint64_t pos = pos_mask - (w & pos_mask), seg = i / k;
        out_i[i] = pos;
        out_v[i] = det_value_of_key<UT>((UT)(w >> pos_bits), t, o, v + (offsets != NULL ? offsets[seg] : seg * len),
                                        pos);
    }
}

__global__ void det_iota_kernel(uint64_t *slot, uint64_t n)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        slot[i] = i;
}

/* The batched fix-up's workspace. */
struct det_batch_layout {
    int per_row;                /* uniform rows run the single vector's fix-up one by one */
    drtopk_problem row;         /* per_row: one row's problem (values unset)      */
    det_layout row_l;           /* per_row: its workspace                         */
    uint64_t *tie_pos;          /* else: k positions a segment                    */
    det_sort_bufs srt;          /* sorted (not per_row)                           */
    size_t total;
};

static int det_block_sorts(const drtopk_batch_problem *bp);

/* A bound on a segment's length, hence on a position: uniform rows' length,
 * else the total. */
static uint64_t det_batch_longest(const drtopk_batch_problem *bp)
{
    return bp->offsets != NULL ? bp->total : bp->len;
}

static drtopk_status det_batch_carve(const drtopk_batch_problem *bp, int sorted, char *base, det_batch_layout *l)
{
    size_t off = 0;
    const uint64_t slots = bp->segments * bp->k;
    drtopk_status st;
    memset(l, 0, sizeof *l);
    l->per_row = bp->offsets == NULL && bp->len > DET_ROW_MAX_LEN;
    if (l->per_row) {
        l->row = (drtopk_problem){ DRTOPK_BACKEND_CUDA, bp->dtype, bp->order, bp->len, bp->k, NULL };
        if ((st = det_carve(&l->row, sorted, base, &l->row_l)) != DRTOPK_OK) return st;
        l->total = l->row_l.total;
        return DRTOPK_OK;
    }
    l->tie_pos = (uint64_t *)drtopk_carve(base, &off, slots * sizeof(uint64_t));
    if (sorted && !det_block_sorts(bp)) {
        if ((st = det_carve_sort(base, &off, slots, drtopk_dtype_size(bp->dtype), &l->srt)) != DRTOPK_OK) return st;
    }
    l->total = off + DRTOPK_WS_ALIGN;
    return DRTOPK_OK;
}

extern "C" drtopk_status drtopk_cuda_det_batch_workspace(const drtopk_batch_problem *bp, int sorted, size_t *bytes)
{
    det_batch_layout l;
    const drtopk_status st = det_batch_carve(bp, sorted, NULL, &l);
    *bytes = l.total;
    return st;
}

enum { DET_PASS_POSITION, DET_PASS_KEY, DET_PASS_SEGMENT, DET_PASSES };     /* det_batch_sort's passes */
template <typename UT>
static drtopk_status det_batch_sort(const drtopk_batch_problem *bp, const det_sort_bufs *b, int first_pass, UT *ov,
                                    uint64_t *out_indices, cudaStream_t s, int sms);
template <typename UT>
static drtopk_status batch_block_sort_k(const drtopk_batch_problem *bp, int by_position, void *ov, uint64_t *oi,
                                        cudaStream_t s, int sms);

template <typename UT>
static drtopk_status det_batch_run(const drtopk_batch_problem *bp, int sorted, det_batch_layout *l, void *out_values,
                                   uint64_t *out_indices, cudaStream_t s, const drtopk_device_attrs *dev)
{
    UT *ov = (UT *)out_values;
    const int sms = dev->sm_count;
    const uint64_t segments = bp->segments, k = bp->k;
    if (l->per_row) {
        for (uint64_t r = 0; r < segments; ++r) {
            drtopk_status st;
            l->row.values = (const UT *)bp->values + r * bp->len;
            det_init_kernel<<<1, 1, 0, s>>>(l->row_l.sc);
            DRTOPK_LAUNCH_CHECK();
            if ((st = det_run<UT>(&l->row, sorted, &l->row_l, ov + r * k, out_indices + r * k, s, dev)) != DRTOPK_OK)
                return st;
        }
        return DRTOPK_OK;
    }
    /* short segments a warp each, long ones a block each: uniform rows are
     * one or the other, variable segments may be both */
    const uint64_t most = (uint64_t)sms * DET_BATCH_GRID_PER_SM, per_block = DET_BLOCK / DET_WARP;
    const int warp_rows = bp->offsets != NULL || bp->len <= DET_WARP_MAX_LEN;
    const int block_rows = bp->offsets != NULL || bp->len > DET_WARP_MAX_LEN;
    if (warp_rows) {
        const uint64_t blocks = (segments + per_block - 1) / per_block;
        det_batch_warp_kernel<UT><<<(unsigned)(blocks < most ? blocks : most), DET_BLOCK, 0, s>>>(
            (const UT *)bp->values, segments, bp->len, bp->offsets, k, bp->ks, bp->dtype, bp->order, ov, out_indices,
            l->tie_pos);
        DRTOPK_LAUNCH_CHECK();
    }
    if (block_rows) {
        det_batch_kernel<UT><<<(unsigned)(segments < most ? segments : most), DET_BLOCK, 0, s>>>(
            (const UT *)bp->values, segments, bp->len, bp->offsets, k, bp->ks, bp->dtype, bp->order, ov, out_indices,
            l->tie_pos, warp_rows ? DET_WARP_MAX_LEN : 0);
        DRTOPK_LAUNCH_CHECK();
    }
    if (!sorted) return DRTOPK_OK;
    if constexpr (sizeof(UT) <= sizeof(uint32_t))
        if (det_block_sorts(bp)) return batch_block_sort_k<UT>(bp, 1, ov, out_indices, s, sms);
    return det_batch_sort<UT>(bp, &l->srt, DET_PASS_POSITION, ov, out_indices, s, sms);
}

/* det_batch_sort where a slot's segment, padding bit, ordered key and
 * position fit one 64-bit word: pack, one radix sort of the words over
 * their seg_shift + segment bits, unpack. */
template <typename UT>
static drtopk_status det_batch_sort_words(const drtopk_batch_problem *bp, const det_sort_bufs *b, int pos_bits,
                                          int seg_shift, UT *ov, uint64_t *out_indices, cudaStream_t s, int gk)
{
    const uint64_t segments = bp->segments, k = bp->k, slots = segments * k;
    size_t tb = b->sort_bytes;
    drtopk_status st;
    det_batch_pack_kernel<UT><<<gk, DET_BLOCK, 0, s>>>(ov, out_indices, slots, k, segments, pos_bits, seg_shift,
                                                      bp->dtype, bp->order, b->key0);
    DRTOPK_LAUNCH_CHECK();
    if ((st = key_sort_keys_desc(b->sort_tmp, &tb, b->key0, b->key1, slots, seg_shift + det_bits_for(segments - 1),
                                 s)) != DRTOPK_OK)
        return st;
    det_batch_unpack_kernel<UT><<<gk, DET_BLOCK, 0, s>>>(b->key1, slots, k, (const UT *)bp->values, bp->len,
                                                        bp->offsets, pos_bits, seg_shift, bp->dtype, bp->order, ov,
                                                        out_indices);
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

/* Sort each segment's k slots best first (padding last), equal values by
 * position: where the segment, a padding bit, the ordered key and the
 * position fit one 64-bit word, one radix sort of the words alone
 * (det_batch_pack_kernel); else stable radix passes over all slots, least
 * significant first: the position (from first_pass = DET_PASS_POSITION
 * only), the key, the segment. */
template <typename UT>
static drtopk_status det_batch_sort(const drtopk_batch_problem *bp, const det_sort_bufs *b, int first_pass, UT *ov,
                                    uint64_t *out_indices, cudaStream_t s, int sms)
{
    const uint64_t segments = bp->segments, k = bp->k, slots = segments * k;
    const uint64_t longest = det_batch_longest(bp);
    const int pos_bits = longest == 0 || longest > (1ull << 62) ? 62 : det_bits_for(longest - 1);  /* 62: any */
    const int key_bits = drtopk_dtype_bits(bp->dtype), seg_bits = det_bits_for(segments - 1);
    const int bits[DET_PASSES] = { pos_bits + 1, key_bits, seg_bits };
    const int gk = det_grid(slots, sms);
    const int seg_shift = 1 + key_bits + pos_bits;
    if constexpr (sizeof(UT) < sizeof(uint64_t)) /* a 64-bit key never fits a word with its position */
        if (seg_shift + seg_bits <= 64)
            return det_batch_sort_words<UT>(bp, b, pos_bits, seg_shift, ov, out_indices, s, gk);
    uint64_t *slot_in = b->slot0, *slot_out = b->slot1;
    det_iota_kernel<<<gk, DET_BLOCK, 0, s>>>(slot_in, slots);
    DRTOPK_LAUNCH_CHECK();
    for (int pass = first_pass; pass < DET_PASSES; ++pass) {
        size_t tb = b->sort_bytes;
        drtopk_status st;
        det_batch_sort_keys_kernel<UT><<<gk, DET_BLOCK, 0, s>>>(ov, out_indices, slot_in, slots, k, segments,
                                                                pos_bits, pass, bp->dtype, bp->order, b->key0);
        DRTOPK_LAUNCH_CHECK();
        if ((st = key_sort_pairs_desc(b->sort_tmp, &tb, b->key0, b->key1, slot_in, slot_out, slots, bits[pass], s)) !=
            DRTOPK_OK)
            return st;
        uint64_t *x = slot_in;
        slot_in = slot_out;
        slot_out = x;
    }
    return det_gather_sorted<UT>(b, slot_in, slots, ov, out_indices, gk, s);
}

extern "C" drtopk_status drtopk_cuda_det_batch_fix(const drtopk_batch_problem *bp, int sorted, void *ws,
                                                  size_t ws_bytes, void *out_values, uint64_t *out_indices,
                                                  void *stream)
{
    det_batch_layout l;
    const drtopk_device_attrs *dev;
    drtopk_status st;
    char *base = (char *)drtopk_align_up((uintptr_t)ws, DRTOPK_WS_ALIGN);
    if (bp->segments == 0) return DRTOPK_OK;
    if ((st = det_batch_carve(bp, sorted, NULL, &l)) != DRTOPK_OK) return st;
    if (ws == NULL || ws_bytes < l.total) return drtopk_workspace_too_small(ws, ws_bytes, l.total);
    if ((st = det_batch_carve(bp, sorted, base, &l)) != DRTOPK_OK) return st;
    if ((st = drtopk_device_current(NULL, &dev)) != DRTOPK_OK) return st;
    const cudaStream_t s = (cudaStream_t)stream;
    switch (drtopk_dtype_bits(bp->dtype)) {
    case 16: return det_batch_run<uint16_t>(bp, sorted, &l, out_values, out_indices, s, dev);
    case 32: return det_batch_run<uint32_t>(bp, sorted, &l, out_values, out_indices, s, dev);
    default: return det_batch_run<uint64_t>(bp, sorted, &l, out_values, out_indices, s, dev);
    }
}

#define SORT_BLOCK_ITEMS 8             /* batch_block_sort: words a thread (a block a segment)             */
#define SORT_BLOCK_MIN_THREADS 32      /*   its smallest block, one warp (one word a thread for k <= 32)   */
#define SORT_BLOCK_MAX_K 8192          /*   the most slots it sorts: 1024 threads, 64 KB of scratch        */
#define SORT_BLOCK_KEY_SHIFT 32        /*   a word's key bits from here up, the complemented slot below    */

/* Whether batch_block_sort sorts bp's slots: keys of at most 32 bits (a
 * 64-bit word holds the key above the slot) and k at most SORT_BLOCK_MAX_K. */
static int batch_block_sorts(const drtopk_batch_problem *bp)
{
    return drtopk_dtype_bits(bp->dtype) <= SORT_BLOCK_KEY_SHIFT && bp->k <= SORT_BLOCK_MAX_K;
}

/* Whether batch_block_sort sorts bp's deterministic result, by position:
 * as batch_block_sorts, and every position below 2^32 - 1 (so that its
 * complement, nonzero, fits below the key). */
static int det_block_sorts(const drtopk_batch_problem *bp)
{
    return batch_block_sorts(bp) && det_batch_longest(bp) <= UINT32_MAX;
}

/* Each segment's k slots best first, a block of THREADS a segment: a slot
 * becomes the word (ordered key << 32 | ~slot, or ~position by_position;
 * padding 0, below every slot's word, as a slot index or a position is below
 * 2^32 - 1), a block merge sort of the words (R a thread, THREADS * R >= k,
 * largest first: equal keys by smaller slot, the select's order, or by
 * smaller position), then every thread reads the value and index of its
 * ranks' slots (by_position: the position from the word, the value from its
 * key, from V where several bit patterns share the key: NaN, -0.0, +0.0)
 * before any thread writes (a barrier between), in place. */
template <typename UT, unsigned THREADS, unsigned R>
__global__ void __launch_bounds__(THREADS) batch_block_sort(UT *__restrict__ ov, uint64_t *__restrict__ oi,
                                                           uint64_t segments, uint64_t k, drtopk_dtype t,
                                                           drtopk_order o, const UT *__restrict__ v, uint64_t len,
                                                           const uint64_t *__restrict__ offsets, int by_position)
{
    typedef cub::BlockMergeSort<uint64_t, THREADS, R> sorter;
    extern __shared__ uint64_t sort_smem[];
    typename sorter::TempStorage &tmp = *reinterpret_cast<typename sorter::TempStorage *>(sort_smem);
    uint64_t *const words = sort_smem;  /* the sorted words, after the sort (its scratch read by then) */
    static_assert(sizeof(typename sorter::TempStorage) >= THREADS * R * sizeof(uint64_t),
                  "the sorted words fit the sort's scratch");
    const unsigned kn = (unsigned)k;    /* batch_block_sorts: at most SORT_BLOCK_MAX_K */
    for (uint64_t s = blockIdx.x; s < segments; s += gridDim.x) {
        UT *const sv = ov + s * k;
        uint64_t *const ix = oi + s * k;
        uint64_t x[R];
#pragma unroll
        for (unsigned r = 0; r < R; ++r) {          /* striped: coalesced; the sort takes any arrangement */
            const unsigned j = r * THREADS + threadIdx.x;
            const uint64_t pos = j < kn ? ix[j] : DRTOPK_INDEX_NONE;
            x[r] = pos != DRTOPK_INDEX_NONE ? (uint64_t)key_of(sv[j], t, o) << SORT_BLOCK_KEY_SHIFT |
                                                  (uint32_t)~(by_position ? (uint32_t)pos : j)
                                            : 0;
        }
        sorter(tmp).Sort(x, cuda::std::greater<uint64_t>());
        __syncthreads();                /* the scratch read: it holds the words now */
#pragma unroll
        for (unsigned r = 0; r < R; ++r) words[threadIdx.x * R + r] = x[r];
        __syncthreads();
        UT val[R];
        uint64_t idx[R];
#pragma unroll
        for (unsigned r = 0; r < R; ++r) {
            const unsigned j = r * THREADS + threadIdx.x;
            const uint64_t w = j < kn ? words[j] : 0;
            const unsigned low = ~(uint32_t)w;
            if (w == 0) {
                val[r] = 0;
                idx[r] = DRTOPK_INDEX_NONE;
            } else if (by_position) {
                val[r] = det_value_of_key<UT>((UT)(w >> SORT_BLOCK_KEY_SHIFT), t, o,
                                              v + (offsets != NULL ? offsets[s] : s * len), low);
                idx[r] = low;
            } else {
                val[r] = sv[low];
                idx[r] = ix[low];
            }
        }
        __syncthreads();                /* every slot read before any is written */
#pragma unroll
        for (unsigned r = 0; r < R; ++r) {
            const unsigned j = r * THREADS + threadIdx.x;
            if (j < kn) {
                sv[j] = val[r];
                ix[j] = idx[r];
            }
        }
    }
}

template <typename UT, unsigned THREADS, unsigned R>
static drtopk_status batch_block_sort_run(const drtopk_batch_problem *bp, int by_position, UT *ov, uint64_t *oi,
                                          cudaStream_t s, int sms)
{
    const void *kernel = (const void *)batch_block_sort<UT, THREADS, R>;
    const size_t smem = sizeof(typename cub::BlockMergeSort<uint64_t, THREADS, R>::TempStorage);
    drtopk_status st;
    int per_sm = 0;
    if ((st = drtopk_kernel_dynamic_smem(kernel, smem)) != DRTOPK_OK) return st;
    if ((st = drtopk_kernel_occupancy(kernel, THREADS, smem, NULL, &per_sm)) != DRTOPK_OK) return st;
    const uint64_t most = (uint64_t)sms * (uint64_t)(per_sm > 0 ? per_sm : 1);   /* co-resident: the rest strided */
    batch_block_sort<UT, THREADS, R><<<(unsigned)(bp->segments < most ? bp->segments : most), THREADS, smem, s>>>(
        ov, oi, bp->segments, bp->k, bp->dtype, bp->order, (const UT *)bp->values, bp->len, bp->offsets, by_position);
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

/* batch_block_sort with the fewest threads (and words a thread) that hold
 * k: a block's sort costs its THREADS * R words, whatever k is. */
template <typename UT>
static drtopk_status batch_block_sort_k(const drtopk_batch_problem *bp, int by_position, void *ov, uint64_t *oi,
                                        cudaStream_t s, int sms)
{
    constexpr unsigned T = SORT_BLOCK_MIN_THREADS, R = SORT_BLOCK_ITEMS;
    static_assert(32 * T * R == SORT_BLOCK_MAX_K, "the largest block below holds SORT_BLOCK_MAX_K words");
    const uint64_t k = bp->k;
    UT *const v = (UT *)ov;
    if (k <= T) return batch_block_sort_run<UT, T, 1>(bp, by_position, v, oi, s, sms);
    if (k <= T * R) return batch_block_sort_run<UT, T, R>(bp, by_position, v, oi, s, sms);
    if (k <= 2 * T * R) return batch_block_sort_run<UT, 2 * T, R>(bp, by_position, v, oi, s, sms);
    if (k <= 4 * T * R) return batch_block_sort_run<UT, 4 * T, R>(bp, by_position, v, oi, s, sms);
    if (k <= 8 * T * R) return batch_block_sort_run<UT, 8 * T, R>(bp, by_position, v, oi, s, sms);
    if (k <= 16 * T * R) return batch_block_sort_run<UT, 16 * T, R>(bp, by_position, v, oi, s, sms);
    return batch_block_sort_run<UT, 32 * T, R>(bp, by_position, v, oi, s, sms);
}

/* Sorted results of a batch whose select leaves them unsorted (k past what
 * a block of the select sorts): each segment's k slots best first, padding
 * last, equal values in the select's order or by position:
 * batch_block_sort where it sorts them (no workspace), else det_batch_sort
 * (its one-word sort, or its passes without the position pass). */
extern "C" drtopk_status drtopk_cuda_batch_sort_workspace(const drtopk_batch_problem *bp, size_t *bytes)
{
    size_t off = 0;
    det_sort_bufs b;
    if (batch_block_sorts(bp)) {
        *bytes = 0;
        return DRTOPK_OK;
    }
    const drtopk_status st = det_carve_sort(NULL, &off, bp->segments * bp->k, drtopk_dtype_size(bp->dtype), &b);
    *bytes = off + DRTOPK_WS_ALIGN;
    return st;
}

extern "C" drtopk_status drtopk_cuda_batch_sort(const drtopk_batch_problem *bp, void *ws, size_t ws_bytes,
                                               void *out_values, uint64_t *out_indices, void *stream)
{
    const drtopk_device_attrs *dev;
    drtopk_status st;
    size_t need, off = 0;
    det_sort_bufs b;
    if (bp->segments == 0) return DRTOPK_OK;
    if (batch_block_sorts(bp)) {
        if ((st = drtopk_device_current(NULL, &dev)) != DRTOPK_OK) return st;
        const cudaStream_t s = (cudaStream_t)stream;
        return drtopk_dtype_bits(bp->dtype) == 16
                   ? batch_block_sort_k<uint16_t>(bp, 0, out_values, out_indices, s, dev->sm_count)
                   : batch_block_sort_k<uint32_t>(bp, 0, out_values, out_indices, s, dev->sm_count);
    }
    if ((st = drtopk_cuda_batch_sort_workspace(bp, &need)) != DRTOPK_OK) return st;
    if (ws == NULL || ws_bytes < need) return drtopk_workspace_too_small(ws, ws_bytes, need);
    char *base = (char *)drtopk_align_up((uintptr_t)ws, DRTOPK_WS_ALIGN);
    if ((st = det_carve_sort(base, &off, bp->segments * bp->k, drtopk_dtype_size(bp->dtype), &b)) != DRTOPK_OK)
        return st;
    if ((st = drtopk_device_current(NULL, &dev)) != DRTOPK_OK) return st;
    const cudaStream_t s = (cudaStream_t)stream;
    switch (drtopk_dtype_bits(bp->dtype)) {
    case 16: return det_batch_sort<uint16_t>(bp, &b, DET_PASS_KEY, (uint16_t *)out_values, out_indices, s, dev->sm_count);
    case 32: return det_batch_sort<uint32_t>(bp, &b, DET_PASS_KEY, (uint32_t *)out_values, out_indices, s, dev->sm_count);
    default: return det_batch_sort<uint64_t>(bp, &b, DET_PASS_KEY, (uint64_t *)out_values, out_indices, s, dev->sm_count);
    }
}
