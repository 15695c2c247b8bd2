/*
 * small_n.cu -- the fused small-input top-k (DRTOPK_ALGO_FUSED; beyond
 * the paper: its pipeline, sections 4-5, takes six or more
 * launches of a few microseconds each, which dominate below ~2^24 keys).
 *
 * ONE launch per call, nothing else: no memset (the control block is zeroed
 * by the kernel itself), no gather (standalone the kernel writes the caller's
 * values and 64-bit indices: small_n_topk_final), no host round trip.  Keys
 * of 16, 32 and 64 bits (K, sn_word: f16/bf16, u32/i32/f32 and u64/i64/f64
 * V, each read at its own width).  The k-th largest ordered key (keyorder.h)
 * is selected digit by digit from the most significant, like the flag radix
 * of section 5.1:
 *   pass p = 0..2 (32-bit keys; 0..1 for 16-bit, 0..5 for 64-bit: 11 bits
 *     each, the last 5, 10 or 9): every block histograms digit p of its
 *     keys whose decided digits match the prefix so far; every block then
 *     picks, from the grid's histogram, the digit holding the kk-th largest
 *     remaining key (all blocks the same).  A pass whose chosen digit holds
 *     exactly the kk keys still needed ends the selection early (every key
 *     matching the prefix is taken);
 *   final: each block knows its keys above the prefix and equal to it from
 *     the passes (its own histogram's bins above and at each chosen digit,
 *     and the guess's count below), takes one range of output slots per
 *     class (one global atomic each; one block: k - kk and the tie count), then
 *     writes them coalesced: each warp takes consecutive slots of the block's
 *     ranges for its lanes (one shared atomic per warp and class, ballots).
 * Pass 0 histograms the keys as they are read from global memory (and stored
 * in shared memory when the chunk fits): one read of V, no separate load.
 *
 * From SN_SAMPLED_MIN_N keys (where chunks outgrow shared memory, 2^22.7 on
 * an H100, the passes above re-read V from HBM: 130 us at 2^24), the grid
 * reads V once with onepass_spec.h's sampled threshold: the grid reads the
 * SN_SAMPLE strided keys (the spec's positions) once, each block its share,
 * into the control block; after a grid barrier every block copies them whole
 * and selects the spec's r-th largest, t, by the passes above in its own
 * shared memory; then streams its chunk (16-byte loads),
 * keeping keys > t and up to k ties == t in a list in shared memory (key,
 * offset; once the list's ties are full, a chunk the sample expects to be
 * thick with copies of t streams the rest without looking at ties; where
 * candidates are dense, sn_dense, a warp takes its list slots once a 16-byte
 * load, not once a key), and publishes its counts (plain stores: nothing to
 * zero first).
 * One grid barrier; every block sums the counts and decides as the spec does
 * (drtopk_onepass_decide over the ties stored), falling back also when a key
 * > t found no room.  The lists then hold every key > t and enough ties: the
 * digit passes and the final above run on the lists (a few hundred keys a
 * block), below the bits that t and the largest listed key share (2 passes
 * for u32 UD at k = 1024, n = 2^24).  Fallback (adversarial data; forced by
 * tests/gpu/onepass_data.h): the passes over V in global memory.
 * Where k is past what the lists hold and V past the chunks' shared memory
 * (keys of 32 and 64 bits), the passes over V in global memory start below a
 * guess: the grid reads the sample as above, and every block finds the
 * leading bits that the sample's keys at onepass_spec.h's margin on either
 * side of the k-th key's rank share (sn_bracket, over the sample in shared
 * memory); the first pass histograms the digit below them and also counts
 * the keys above them, and the k-th key has them when fewer than k are above
 * and enough match (else the passes start over from the top: one pass more).
 * Keys that mostly share their top bits (CD: 15/16 of them 24 bits) skip
 * the passes those bits would take.  A pass over V in global memory that
 * follows one whose chosen digit holds at most SN_HBM_LIST_BYTES of a
 * block's keys (with offsets) also lists them in the block's shared memory,
 * and the passes after it run on the list: V is read by the first two
 * passes and the output only (u64 UD at 2^24 keys, k = 2^22: 3 reads, not
 * 8).  A launch whose passes read V from
 * global memory runs a kernel of its own (small_n_kernel's HBM), which
 * streams V in 16-byte loads and holds no sampled pass, so the sampled and
 * resident paths keep their registers.  Grid barriers: sampled 2 + up to 3; guessed 1 +
 * up to 6; in shared memory 1 (zeroing) + up to 3.
 * Exact for every ordered key (NaN above +inf, -0.0 = +0.0 come from
 * keyorder.h; ties at the k-th key are taken in arbitrary order, as drtopk.h
 * allows).
 *
 * Each block owns one contiguous chunk of V.  Where the chunk fits the
 * block's shared memory (the opt-in limit, ~227 KB on sm_90: up to ~2^22.7
 * keys over 132 SMs) it is read from global memory once and every pass runs
 * on shared memory; otherwise each pass reads the chunk again.  One block
 * (n <= SN_BLOCK_KEYS) needs no grid barrier at all; more blocks are launched
 * cooperatively (cudaLaunchAttributeCooperative: the driver guarantees that
 * they are co-resident, or refuses the launch, and provides the grid
 * barrier), with a grid barrier after each pass's histogram and one more on
 * the first pass (block 0 zeroes the control block meanwhile).  No deadlock:
 * the grid is at most the co-resident count (the occupancy at the largest
 * chunk a block may hold, times the SMs: one block per SM on sm_90); every
 * block, empty chunk or not, runs every pass and reaches every barrier; the
 * early end of the selection is decided from the grid's histogram, the same
 * in every block.  A GPU without cooperative launch runs one block over all
 * of V (exact, slower).  Cooperative launches are captured into CUDA graphs
 * as cooperative kernel nodes (CUDA 11.1+: cudaLaunchAttributeCooperative is
 * "valid for graph nodes, launches", driver_types.h; tests/gpu/test_capture).
 */
#include <string.h>
#include <type_traits>
#include <cooperative_groups.h>
#include "kernels.h"
#include "keyorder.h"
#include "fused_spec.h"
#include "radix_pick.cuh"

#define SN_THREADS 1024                 /* one block per SM, all its threads    */
#define SN_DIGIT_BITS 11                /* 3 passes cover 32 bits (11, 11, 10),
                                           6 cover 64 (11 x 5, 9)              */
#define SN_BINS (1u << SN_DIGIT_BITS)
#define SN_PASSES_MAX 6                 /* the passes of the widest key          */
#define SN_HIST_ROWS (SN_PASSES_MAX + 1) /* a guess the first pass refutes takes
                                           one row before the passes start over */
#define SN_UNROLL 4                     /* loads in flight per thread (8 spills
                                           under the 64-register cap)          */
#define SN_VEC_UNROLL 4                 /* 16-byte loads in flight per thread in
                                           the sampled pass: 64 KB per SM, the
                                           HBM latency-bandwidth product's share */
#define SN_PASS_VEC_UNROLL 2            /* 16-byte loads in flight per thread in
                                           the passes over V in global memory:
                                           twice sn_for_each's bytes (4 spill
                                           under the 64-register cap)          */
#define SN_HBM_LIST_BYTES 65536         /* a block's list of the keys matching the
                                           prefix in passes over V in global
                                           memory (key and offset): 5,460 of
                                           64 bits, past a UD chunk's share of
                                           one 11-bit digit; the whole room was
                                           1-3% slower for 64-bit keys (H200) */
#define SN_TIE_HEAVY 2                  /* a chunk that the sample expects to hold
                                           this many first parts' worth of ties
                                           streams in two parts (one barrier)  */
#define SN_TIE_MARGIN 16                /* ties beyond 2 k / grid in a block's
                                           quota, and beyond 2 quotas in a first
                                           part: it fails to fill its quota with
                                           odds below e^-16                    */
#define SN_TIE_MIN_COPIES 2             /* the sample's copies of t (besides t)
                                           that make an estimate: a wrong one
                                           costs one barrier                   */
#define SN_DENSE_PER_LOAD 2             /* sampled candidates (the spec's
                                           capacity) a warp's 16-byte load from
                                           which the sampled pass takes list
                                           slots once a load (sn_dense)       */
#define SN_PACK_BITS 16                 /* a dense warp scan's word: keys > t in
                                           the low half, ties in the high (at
                                           most 32 lanes x 8 keys each)        */
#define SN_PACK_LOW ((1u << SN_PACK_BITS) - 1u)
#define SN_WARP 32
#define SN_FULL_MASK 0xffffffffu

namespace cg = cooperative_groups;

/* The digit pick's block scan storage and result slot, shared by the
 * passes over V (sn_passes) and over the sample (sn_bracket), which never
 * overlap: one allocation of the kernel's static shared memory. */
__shared__ radix_pick_scan<uint32_t, SN_THREADS>::TempStorage sn_scan_tmp;
__shared__ radix_pick<uint32_t> sn_pick_slot;

/* The key word of dtype T (its element bits and its ordered key): 32 bits,
 * 16 for the 16-bit dtypes, 64 for the 64-bit ones. */
template <int T> struct sn_word { typedef uint32_t type; };
template <> struct sn_word<DRTOPK_F16> { typedef uint16_t type; };
template <> struct sn_word<DRTOPK_BF16> { typedef uint16_t type; };
template <> struct sn_word<DRTOPK_U64> { typedef uint64_t type; };
template <> struct sn_word<DRTOPK_I64> { typedef uint64_t type; };
template <> struct sn_word<DRTOPK_F64> { typedef uint64_t type; };

/* The word of an output key (topk_output.keys, d_threshold): 16-bit keys
 * are written zero-extended to 32 bits, as onepass writes them (kernels.h). */
template <typename K> struct sn_out { typedef K type; };
template <> struct sn_out<uint16_t> { typedef uint32_t type; };

template <typename K> __host__ __device__ constexpr int sn_key_bits() { return 8 * (int)sizeof(K); }
template <typename K> __host__ __device__ constexpr int sn_passes_of()
{
    return (sn_key_bits<K>() + SN_DIGIT_BITS - 1) / SN_DIGIT_BITS;
}
static_assert(sn_passes_of<uint64_t>() == SN_PASSES_MAX, "the control block holds the widest key's passes");
static_assert(SN_BINS * sizeof(unsigned int) == SN_GUESS_HIST_BYTES, "fused_spec.h sizes the bracket's histogram");
static_assert(SN_WARP * (sizeof(uint4) / sizeof(uint16_t)) <= SN_PACK_LOW, "a warp's keys of one load fit half a scan word");

/* What a block publishes after the sampled pass (plain stores: no zeroing). */
struct sn_block_pub {
    uint32_t gt;                        /* its keys > t (stored or not)         */
    uint32_t eq;                        /* its keys == t stored in its list     */
    uint32_t over;                      /* a key > t found no room: fallback    */
    unsigned long long max;             /* its largest key >= t (t if none)     */
};

/* Device state of one multi-block call; hist, gt, eq, all, any and above
 * are set by block 0 before the call's first grid barrier. */
struct small_n_ctl {
    unsigned int hist[SN_HIST_ROWS][SN_BINS];
    unsigned long long gt, eq;          /* final slot ranges taken per class    */
    unsigned long long all, any;        /* the AND and the OR of V's keys (pass 0) */
    unsigned long long above;           /* keys above a guessed prefix (pass 0) */
    sn_block_pub blk[SN_GRID_MAX];
    unsigned long long sample[SN_SAMPLE];   /* the sampled keys (their bits), read once by the grid */
};

/* One call's arguments.  Output: out_vals/out_idx (the caller's values and
 * 64-bit indices) when out_vals != NULL, else ordered keys and positions. */
template <typename K, typename PosT>
struct small_n_args {
    const K *v;
    unsigned long long n, k, chunk;     /* chunk: keys per block                */
    int resident;                       /* chunks held in shared memory         */
    int sampled;                        /* the sampled threshold (one read of V) */
    uint32_t r;                         /* sampled: the sample rank of t        */
    unsigned long long cap;             /* sampled: candidates the spec allows  */
    int guess;                          /* the passes over V start below a
                                           bracket from the sample (ranks r_hi
                                           and r)                              */
    uint32_t r_hi;
    uint32_t list_cap, cand_cap;        /* sampled: a block's list, its share of
                                           keys > t (the rest holds ties)       */
    K flip;                             /* all ones for DRTOPK_SMALLEST         */
    const int *d_skip;                  /* nonzero: the call returns at once    */
    int *d_settled;                     /* or NULL: set to 1 where the result
                                           holds every key equal to its k-th
                                           (topk_input.d_settled)              */
    small_n_ctl *c;
    K *out_vals;
    uint64_t *out_idx;
    typename sn_out<K>::type *out_keys;
    PosT *out_pos;
    uint64_t *d_count;
    typename sn_out<K>::type *d_threshold;
};

/* Where a block's keys are: its chunk of V in global memory (tile NULL),
 * its chunk in shared memory (tile, after pass 0 stored it: store), or its
 * list (tile: keys > t at [0, split), ties at [split + gap, len + gap);
 * pos: their chunk offsets). */
template <typename K>
struct sn_src {
    const K *v, *tile;
    const uint32_t *pos;
    uint32_t len, split, gap;
    bool store;                         /* pass 0 reads v and stores the tile   */
};

template <int T>
__device__ __forceinline__ uint32_t sn_key(uint32_t bits, uint32_t flip)
{
    return drtopk_key_from_bits(bits, (drtopk_dtype)T, DRTOPK_LARGEST) ^ flip;
}

template <int T>
__device__ __forceinline__ uint64_t sn_key(uint64_t bits, uint64_t flip)
{
    return drtopk_key64_from_bits(bits, (drtopk_dtype)T, DRTOPK_LARGEST) ^ flip;
}

template <int T>
__device__ __forceinline__ uint16_t sn_key(uint16_t bits, uint16_t flip)
{
    return (uint16_t)(drtopk_key16_from_bits(bits, (drtopk_dtype)T, DRTOPK_LARGEST) ^ flip);
}

/* Leading zero bits of a key word; a warp's largest key word. */
__device__ __forceinline__ int sn_clz(uint16_t x) { return __clz((uint32_t)x) - 16; }
__device__ __forceinline__ int sn_clz(uint32_t x) { return __clz(x); }
__device__ __forceinline__ int sn_clz(uint64_t x) { return __clzll((long long)x); }
__device__ __forceinline__ uint16_t sn_warp_max(uint16_t x)
{
    return (uint16_t)__reduce_max_sync(SN_FULL_MASK, (uint32_t)x);
}
__device__ __forceinline__ uint32_t sn_warp_max(uint32_t x) { return __reduce_max_sync(SN_FULL_MASK, x); }
__device__ __forceinline__ uint64_t sn_warp_max(uint64_t x)
{
    for (int d = SN_WARP / 2; d > 0; d /= 2) {
        const uint64_t y = __shfl_xor_sync(SN_FULL_MASK, x, d);
        x = y > x ? y : x;
    }
    return x;
}

/* The keys of a 16-byte load (8 16-bit, 4 32-bit or 2 64-bit words,
 * little-endian). */
__device__ __forceinline__ void sn_unpack(const uint4 &w, uint16_t (&e)[8])
{
    const uint32_t q[4] = { w.x, w.y, w.z, w.w };
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        e[2 * i] = (uint16_t)q[i];
        e[2 * i + 1] = (uint16_t)(q[i] >> 16);
    }
}
__device__ __forceinline__ void sn_unpack(const uint4 &w, uint32_t (&e)[4])
{
    e[0] = w.x;
    e[1] = w.y;
    e[2] = w.z;
    e[3] = w.w;
}
__device__ __forceinline__ void sn_unpack(const uint4 &w, uint64_t (&e)[2])
{
    e[0] = (uint64_t)w.y << 32 | w.x;
    e[1] = (uint64_t)w.w << 32 | w.z;
}

/* Calls f(bits, j, in) for this thread's keys j of the block's source (the
 * same keys in the same order on every call), SN_UNROLL loads in flight;
 * every thread of the block calls f the same number of times (warp
 * collectives may run in f), with in false past the end (bits then 0).  j is
 * the chunk offset, or the list index for a list.  first: pass 0 (reads v
 * when the tile is stored then). */
template <typename K, typename F>
__device__ __forceinline__ void sn_for_each(const sn_src<K> &s, bool first, F f)
{
    const bool from_tile = s.tile != NULL && !(first && s.store);
    for (uint32_t base = 0; base < s.len; base += blockDim.x * SN_UNROLL) {
        K b[SN_UNROLL];
#pragma unroll
        for (int u = 0; u < SN_UNROLL; ++u) {
            const uint32_t i = base + u * blockDim.x + threadIdx.x, j = i < s.split ? i : i + s.gap;
            b[u] = i >= s.len ? (K)0 : from_tile ? s.tile[j] : __ldg(s.v + j);
        }
#pragma unroll
        for (int u = 0; u < SN_UNROLL; ++u) {
            const uint32_t i = base + u * blockDim.x + threadIdx.x;
            f(b[u], i < s.split ? i : i + s.gap, i < s.len);
        }
    }
}

/* Whether the sampled pass's candidates, at most cap of n keys, average
 * SN_DENSE_PER_LOAD or more a warp's 16-byte load (SN_WARP loads of vec
 * keys): then most keys' votes find one, and the warp's slow path, run once
 * a key, costs more than one scan of the lanes' counts a load.  H200
 * (GPU-618c5ede, GPU-435786a2), once a load against once a key, at the
 * capacity's candidates a warp's load: 0.80-0.83x at 24.6 (f16 UD, CD 2^24,
 * k = 2^20), 0.89x at 12.3 (u32 UD 2^24, k = 2^20), 0.90x at 3.6 (bf16 CD
 * 2^24, k = 2^16), 0.95x at 2.1 (u64 UD 2^24, k = 2^18), but 1.10x at 1.8
 * (f16 ND 2^24, k = 2^14) and 1.19-1.20x (u32, f32 UD 2^26, k = 2^18). */
__host__ __device__ __forceinline__ bool sn_dense(uint64_t n, uint64_t cap, uint32_t vec)
{
    return cap * (uint64_t)(SN_WARP * vec) >= SN_DENSE_PER_LOAD * n;
}

/* The keys of one 16-byte load of V. */
template <typename K>
struct sn_load {
    static constexpr uint32_t vec = sizeof(uint4) / sizeof(K);
    K e[vec];
};

/* How a thread walks a chunk of V in 16-byte loads: the keys before the
 * first 16-byte boundary and after the last whole load (at most 14 keys: 7
 * and 7 of 16-bit ones) one a thread in a scalar round (this thread's key
 * e, when e_in), then the aligned body, `body` loads from v + head. */
template <typename K>
struct sn_span {
    uint32_t head, body, e;
    bool e_in;
    __device__ __forceinline__ sn_span(const K *v, uint32_t len)
    {
        constexpr uint32_t vec = sn_load<K>::vec;
        const uint32_t mis = (uint32_t)(((uintptr_t)v / sizeof(K)) % vec);
        head = mis == 0 ? 0 : (vec - mis < len ? vec - mis : len);
        body = (len - head) / vec;
        const uint32_t tail = head + body * vec;
        e = threadIdx.x < head ? threadIdx.x : tail + threadIdx.x - head;
        e_in = e < len && (threadIdx.x < head || e >= tail);
    }
};

/* This thread's loads of round `base` of sn_span's body (UNROLL of them,
 * blockDim.x apart), zeros past its end. */
template <int UNROLL>
__device__ __forceinline__ void sn_load_round(const uint4 *v4, uint32_t body, uint32_t base, uint4 (&q)[UNROLL])
{
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
        const uint32_t i = base + u * blockDim.x + threadIdx.x;
        q[u] = i < body ? __ldg(v4 + i) : make_uint4(0u, 0u, 0u, 0u);
    }
}

/* Calls f(w, j, valid, scalar) for this thread's 16-byte loads of a chunk of
 * V in global memory in sn_span's walk (UNROLL loads in flight a thread): w
 * holds the keys at chunk offsets j, j + 1, ..., valid has bit x set where
 * w.e[x] is a key of the chunk; scalar (std::true_type) for the scalar
 * round, its key in w.e[0].  Every thread of the block calls f the same
 * number of times (warp collectives may run in f). */
template <int UNROLL, typename K, typename F>
__device__ __forceinline__ void sn_stream_loads(const K *v, uint32_t len, F f)
{
    constexpr uint32_t vec = sn_load<K>::vec;
    const sn_span<K> sp(v, len);
    const uint32_t head = sp.head, body = sp.body;
    sn_load<K> one = {};
    one.e[0] = sp.e_in ? __ldg(v + sp.e) : (K)0;
    f(one, sp.e, sp.e_in ? 1u : 0u, std::true_type());
    const uint4 *v4 = (const uint4 *)(v + head);
    for (uint32_t base = 0; base < body; base += blockDim.x * UNROLL) {
        uint4 q[UNROLL];
        sn_load_round(v4, body, base, q);
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const uint32_t i = base + u * blockDim.x + threadIdx.x;
            sn_load<K> w;
            sn_unpack(q[u], w.e);
            f(w, head + i * vec, i < body ? (1u << vec) - 1u : 0u, std::false_type());
        }
    }
}

/* Calls f(bits, j, in) like sn_for_each for a chunk of V in global memory,
 * in sn_span's walk (UNROLL 16-byte loads in flight a thread), a key a call
 * (fewer registers live than sn_stream_loads' load a call). */
template <int UNROLL = SN_VEC_UNROLL, typename K, typename F>
__device__ __forceinline__ void sn_stream(const K *v, uint32_t len, F f)
{
    constexpr uint32_t vec = sn_load<K>::vec;
    const sn_span<K> sp(v, len);
    const uint32_t head = sp.head, body = sp.body;
    f(sp.e_in ? __ldg(v + sp.e) : (K)0, sp.e, sp.e_in);
    const uint4 *v4 = (const uint4 *)(v + head);
    for (uint32_t base = 0; base < body; base += blockDim.x * UNROLL) {
        uint4 q[UNROLL];
        sn_load_round(v4, body, base, q);
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const uint32_t i = base + u * blockDim.x + threadIdx.x, j = head + i * vec;
            const bool in = i < body;
            K e[vec];
            sn_unpack(q[u], e);
#pragma unroll
            for (uint32_t x = 0; x < vec; ++x) f(e[x], j + x, in);
        }
    }
}

/* sn_for_each's visit of the block's source, but in a kernel whose passes
 * read V from global memory (HBM: the launch neither lists sampled
 * candidates nor holds its chunks in shared memory) a chunk there streams in
 * sn_stream's 16-byte loads, SN_PASS_VEC_UNROLL of them in flight a thread
 * where sn_for_each keeps SN_UNROLL keys.  A kernel of its own: the
 * sampled and resident paths keep their registers. */
template <bool HBM, typename K, typename F>
__device__ __forceinline__ void sn_each(const sn_src<K> &s, bool first, F f)
{
    if (HBM && s.tile == NULL)
        sn_stream<SN_PASS_VEC_UNROLL>(s.v, s.len, f);
    else
        sn_for_each(s, first, f);
}

/* The digit passes below bit top: the kk-th largest key of the block's
 * source (c NULL) or of the grid's (c: every block's histogram summed in
 * c->hist; zero_barrier: c is zeroed by block 0 before the first barrier),
 * as prefix/mask (keys matching the prefix so far) and kk (its rank among
 * them).  Each pass takes the next SN_DIGIT_BITS bits below the decided ones
 * (from 32: 21/11, 10/11, 0/10; from 16: 5/11, 0/5; from 64: 53/11, ...,
 * 0/9).  Ends early when the chosen digit holds exactly kk keys (every key
 * matching the prefix is taken), unless exact (the key itself wanted):
 * returns whether it ended so.  Starting from the top, pass 0 of 64-bit
 * keys also finds the bits every key has the same (the AND and the OR of
 * the keys agree there): the next pass starts below the highest bit where
 * keys differ (keys below 2^32 take 4 passes, not 6).  guessed (the grid's passes only): prefix/mask is a
 * guess (sn_bracket), which the first pass checks -- it also counts the
 * keys above the prefix, and the k-th key has the prefix when fewer than kk
 * are above and enough match it; else the passes start over from the top
 * (one pass more).  The same decisions in every block: they come from the
 * grid's histogram, AND, OR and count.  With the grid's (c), each thread
 * also leaves in *mine this block's keys above the final prefix and matching
 * it, its share of the sums (the block's own bins, SN_BINS / SN_THREADS a
 * thread, and the guess check's count), so the output needs no counting
 * read of the source: mine->gt and mine->eq summed over the block are its
 * keys > prefix and == prefix under mask.  Passes over V in global memory
 * (HBM) list the block's keys that match the prefix, with their offsets,
 * in list (list_cap of them, offsets after the keys) while they read V,
 * where the pass before counted no more than list_cap and at least one more
 * pass follows: the passes after it run on the list.  The caller's s stays
 * V (the output reads it). */
struct sn_share {
    uint32_t gt, eq;
};

template <int T, bool HBM, typename K>
__device__ bool sn_passes(const sn_src<K> &s, K flip, small_n_ctl *c, bool zero_barrier, bool exact, int top,
                          K &prefix, K &mask, uint32_t &kk, bool guessed, sn_share *mine, K *list,
                          uint32_t list_cap)
{
    static_assert(SN_BINS % SN_THREADS == 0, "each thread keeps the same number of the block's own bins");
    constexpr int own_bins = SN_BINS / SN_THREADS;
    uint32_t own[own_bins];             /* the block's own counts of this pass, bins threadIdx.x + i SN_THREADS */
    sn_share my = { 0u, threadIdx.x == 0 ? s.len : 0u };   /* no pass: every key of the source matches */
    __shared__ unsigned int sh_hist[SN_BINS];
    __shared__ unsigned long long sh_all, sh_any, sh_above;
    __shared__ uint32_t sh_want, sh_listed;     /* the block's keys matching the prefix; listed so far */
    constexpr int key_bits = sn_key_bits<K>();
    K *tile = (K *)s.tile;
    sn_src<K> src = s;                  /* V, the block's tile, or its list */
    uint32_t *lpos = (uint32_t *)(list + list_cap);
    const bool can_list = HBM && c != NULL && s.tile == NULL && list_cap > 0;
    const uint32_t k0 = kk;             /* the rank wanted, should a guess miss */
    bool took_all = false;
    for (int p = 0, below = top; below > 0; ++p) {
        const int shift = below > SN_DIGIT_BITS ? below - SN_DIGIT_BITS : 0;
        const uint32_t wmask = (1u << (below - shift)) - 1u;
        /* mask 0: every key; 32-bit keys would skip a pass only past 22
         * shared bits, seldom worth the AND and OR of every call (they cost
         * 64-bit keys 1-2 us at 2^16-2^20 keys, docs/performance.md) */
        const bool span = key_bits > 32 && p == 0 && top == key_bits;
        const bool check = guessed && p == 0 && c != NULL;
        for (unsigned b = threadIdx.x; b < SN_BINS; b += blockDim.x) sh_hist[b] = 0;
        if (span && threadIdx.x == 0) { /* read after this pass's last barrier */
            sh_all = ~0ull;
            sh_any = 0;
        }
        if (check && threadIdx.x == 0) sh_above = 0;
        if (can_list && threadIdx.x == 0) {
            if (p == 0) sh_want = ~0u;  /* written after each pick by the thread of its bin */
            sh_listed = 0;
        }
        __syncthreads();
        const bool listing = can_list && p > 0 && src.tile == NULL && below > SN_DIGIT_BITS && sh_want <= list_cap;
        const bool store = s.store && p == 0;
        auto count = [&](K bits, uint32_t j) {
            if (store) tile[j] = bits;
            const K key = sn_key<T>(bits, flip);
            if ((key & mask) == prefix) atomicAdd(&sh_hist[(uint32_t)(key >> shift) & wmask], 1u);
            return key;
        };
        if (span) {                     /* a loop of its own: the others stay as lean */
            uint64_t all = ~0ull, any = 0;
            sn_each<HBM>(src, true, [&](K bits, uint32_t j, bool in) {
                if (!in) return;
                const K key = count(bits, j);
                all &= key;
                any |= key;
            });
            all = warp_and64(all);
            any = warp_or64(any);
            if (threadIdx.x % SN_WARP == 0) {
                atomicAnd(&sh_all, (unsigned long long)all);
                atomicOr(&sh_any, (unsigned long long)any);
            }
        } else if (check) {             /* the keys above the guessed prefix */
            uint32_t above = 0;
            sn_each<HBM>(src, true, [&](K bits, uint32_t j, bool in) {
                if (in) above += (count(bits, j) & mask) > prefix;
            });
            my.gt = above;              /* kept should the guess hold */
            above = __reduce_add_sync(SN_FULL_MASK, above);
            if (threadIdx.x % SN_WARP == 0 && above) atomicAdd(&sh_above, (unsigned long long)above);
        } else if (listing) {           /* the keys matching the prefix into the list */
            sn_each<HBM>(src, false, [&](K bits, uint32_t j, bool in) {
                if (in && (count(bits, j) & mask) == prefix) {
                    const uint32_t o = atomicAdd(&sh_listed, 1u);
                    list[o] = bits;
                    lpos[o] = j;
                }
            });
        } else {
            sn_each<HBM>(src, p == 0, [&](K bits, uint32_t j, bool in) {
                if (in) count(bits, j);
            });
        }
        __syncthreads();
        if (listing) {                  /* sh_want of them, as the pass before counted */
            const sn_src<K> l = { NULL, list, lpos, sh_want, sh_want, 0, false };
            src = l;
        }
        if (c != NULL) {
            cg::grid_group grid = cg::this_grid();
            if (p == 0 && zero_barrier) grid.sync();    /* block 0 zeroed the control block */
#pragma unroll
            for (int i = 0; i < own_bins; ++i) {
                const unsigned b = threadIdx.x + i * SN_THREADS;
                own[i] = sh_hist[b];
                if (own[i]) atomicAdd(&c->hist[p][b], own[i]);
            }
            if (span && threadIdx.x == 0) {
                atomicAnd(&c->all, sh_all);
                atomicOr(&c->any, sh_any);
            }
            if (check && threadIdx.x == 0 && sh_above) atomicAdd(&c->above, sh_above);
            grid.sync();
            for (unsigned b = threadIdx.x; b < SN_BINS; b += blockDim.x) sh_hist[b] = __ldcg(&c->hist[p][b]);
            if (span && threadIdx.x == 0) {
                sh_all = __ldcg(&c->all);
                sh_any = __ldcg(&c->any);
            }
            if (check && threadIdx.x == 0) sh_above = __ldcg(&c->above);
            __syncthreads();
        }
        const bool under = !check || sh_above < kk;  /* the k-th key not above the guess */
        if (check && under) kk -= (uint32_t)sh_above;
        /* its barrier: sh_hist is cleared, sn_scan_tmp reused after it */
        const radix_pick<uint32_t> pk =
            block_pick_digit<SN_BINS, SN_THREADS>([&](unsigned d) { return sh_hist[d]; }, kk, sn_scan_tmp,
                                                  sn_pick_slot);
        if (check && !(under && (unsigned long long)pk.above + pk.count >= kk)) {
            prefix = mask = 0;          /* the guess missed the k-th key: from the top */
            kk = k0;
            below = key_bits;
            my.gt = 0;
            continue;
        }
        if (c != NULL) {                /* the block's keys in digits above the pick leave the prefix's class */
            my.eq = 0;
#pragma unroll
            for (int i = 0; i < own_bins; ++i) {
                const unsigned b = threadIdx.x + i * SN_THREADS;
                my.gt += b > pk.digit ? own[i] : 0u;
                my.eq += b == pk.digit ? own[i] : 0u;
                if (can_list && b == pk.digit) sh_want = own[i];
            }
        }
        prefix |= (K)pk.digit << shift;
        mask |= (K)wmask << shift;
        kk -= pk.above;
        /* sn_pick_slot is rewritten after two more barriers (the next pass's or call's) */
        if (!exact && pk.count == kk) {
            took_all = true;
            break;
        }
        below = shift;
        if (span) {                     /* no key in the source: d all ones, no jump */
            const K d = (K)(sh_any ^ sh_all);
            const int shared_below = d == 0 ? 0 : key_bits - sn_clz(d);
            if (shared_below < below) {
                mask = (K)(~0ull << shared_below);
                prefix = (K)sh_all & mask;
                below = shared_below;
            }
        }
    }
    if (mine != NULL) *mine = my;
    return took_all;
}

/* The sample (onepass_spec.h's SN_SAMPLE positions) into the block's tile:
 * the grid reads it once, each block its share, and every block then copies
 * it whole from L2 (contiguous): one grid barrier costs less than every
 * block's own 4,096 strided loads, which wait on each other in L2.  The
 * barrier also publishes block 0's zeroing of the control block. */
template <typename K, typename PosT>
__device__ void sn_read_sample(const small_n_args<K, PosT> &a, K *tile)
{
    const uint32_t share = (SN_SAMPLE + gridDim.x - 1) / gridDim.x;
    const uint32_t j0 = blockIdx.x * share, j1 = j0 + share < SN_SAMPLE ? j0 + share : SN_SAMPLE;
    for (uint32_t j = j0 + threadIdx.x; j < j1; j += blockDim.x)
        a.c->sample[j] = __ldg(a.v + drtopk_onepass_sample_pos(a.n, SN_SAMPLE, j));
    cg::this_grid().sync();
    for (uint32_t j = threadIdx.x; j < SN_SAMPLE; j += blockDim.x) tile[j] = (K)__ldcg(&a.c->sample[j]);
    __syncthreads();
}

/* The bracket of the k-th key (beyond the paper): the leading bits that the
 * sample's r_hi-th and r_lo-th largest keys share (the ranks onepass_spec.h's
 * margin puts on either side of the k-th key's kS/n, fused_spec.h), found by
 * digit passes over the sample in shared memory (smp, its SN_BINS counters
 * in hist) that stop where the two ranks' digits part -- one to three
 * passes.  Every block finds the same.  Returns the bits below the prefix
 * (at least 1: the first pass over V checks the guess); prefix and mask as
 * sn_passes takes them. */
template <int T, typename K>
__device__ int sn_bracket(const K *smp, unsigned int *hist, K flip, uint32_t r_hi, uint32_t r_lo, K &prefix, K &mask)
{
    prefix = mask = 0;
    for (int below = sn_key_bits<K>(); below > 0;) {
        const int shift = below > SN_DIGIT_BITS ? below - SN_DIGIT_BITS : 0, width = below - shift;
        const uint32_t wmask = (1u << width) - 1u;
        for (unsigned b = threadIdx.x; b < SN_BINS; b += blockDim.x) hist[b] = 0;
        __syncthreads();
        for (uint32_t j = threadIdx.x; j < SN_SAMPLE; j += blockDim.x) {
            const K key = sn_key<T>(smp[j], flip);
            if ((key & mask) == prefix) atomicAdd(&hist[(uint32_t)(key >> shift) & wmask], 1u);
        }
        __syncthreads();
        auto count_of = [&](unsigned d) { return hist[d]; };
        const radix_pick<uint32_t> hi =
            block_pick_digit<SN_BINS, SN_THREADS>(count_of, r_hi, sn_scan_tmp, sn_pick_slot);
        __syncthreads();                /* every thread has read the slot */
        const radix_pick<uint32_t> lo =
            block_pick_digit<SN_BINS, SN_THREADS>(count_of, r_lo, sn_scan_tmp, sn_pick_slot);
        if (hi.digit != lo.digit) {     /* the digits' shared top bits join the prefix */
            const int same = width - (32 - __clz(hi.digit ^ lo.digit)), rest = shift + width - same;
            prefix |= (K)(lo.digit >> (width - same)) << rest;
            mask |= (K)((1u << same) - 1u) << rest;
            return rest;
        }
        prefix |= (K)lo.digit << shift;
        mask |= (K)wmask << shift;
        r_hi -= hi.above;
        r_lo -= lo.above;
        below = shift;
    }
    mask = (K)(mask & ~(K)1);           /* both ranks one key: its last bit left to the check */
    prefix &= mask;
    return 1;
}

/* The sampled pass (onepass_spec.h's steps 1-3 in one block each): t = the
 * r-th largest of the SN_SAMPLE sampled keys (every block the same, from
 * L2), then the block's chunk of V read once into its list: keys > t at
 * [0, cand_cap), ties (at most tie_cap) after; each block publishes its
 * counts.  Returns t; *nc, *ne: the block's keys > t (maybe past cand_cap),
 * ties stored. */
template <int T, typename K, typename PosT>
__device__ K sn_sampled_pass(const small_n_args<K, PosT> &a, K *tile, const K *src, uint32_t len, uint32_t *nc,
                             uint32_t *ne)
{
    __shared__ uint32_t sh_nc, sh_ne, sh_seq;
    __shared__ unsigned long long sh_max;
    if (threadIdx.x == 0) sh_seq = 0;   /* added to after the barriers below */
    sn_read_sample(a, tile);
    sn_src<K> smp = { NULL, tile, NULL, SN_SAMPLE, SN_SAMPLE, 0, false };
    K t = 0, mask = 0;
    uint32_t kk = a.r;
    sn_passes<T, false>(smp, a.flip, NULL, false, true, sn_key_bits<K>(), t, mask, kk, false, NULL, (K *)NULL, 0);
    uint32_t seq = 0;                   /* the sample's copies of t */
    for (uint32_t j = threadIdx.x; j < SN_SAMPLE; j += blockDim.x) seq += sn_key<T>(tile[j], a.flip) == t;
    seq = __reduce_add_sync(SN_FULL_MASK, seq);
    if (threadIdx.x % SN_WARP == 0 && seq) atomicAdd(&sh_seq, seq);
    if (threadIdx.x == 0) {
        sh_nc = sh_ne = 0;
        sh_max = t;
    }
    __syncthreads();                    /* the sample's tile is free */
    uint32_t *lpos = (uint32_t *)(tile + a.list_cap);
    const uint32_t tie_cap = a.list_cap - a.cand_cap;
    constexpr uint32_t vec = sn_load<K>::vec;
    const uint32_t lane = threadIdx.x % SN_WARP;
    const uint32_t lane_below = (1u << lane) - 1u;
    /* Keys [off, off + part) of the chunk into the list; ties looked at or
     * not.  Sparse candidates: a key at a time, a warp's vote skipping the
     * keys no lane keeps (the slow path then takes the warp's slots).  Dense
     * (sn_dense): a warp takes its slots once a 16-byte load, its lanes'
     * counts scanned (keys > t in the low 16 bits, ties in the high: at most
     * 256 each). */
    auto stream = [&](uint32_t off, uint32_t part, auto with_ties, auto dense) {
        constexpr bool TIES = decltype(with_ties)::value;
        if (!decltype(dense)::value) {
            sn_stream(src + off, part, [&](K bits, uint32_t j, bool in) {
                const K key = sn_key<T>(bits, a.flip);
                const bool gt = in && key > t, eq = TIES && in && key == t;
                const uint32_t bgt = __ballot_sync(SN_FULL_MASK, gt);
                const uint32_t beq = TIES ? __ballot_sync(SN_FULL_MASK, eq) : 0u;
                if (!(bgt | beq)) return;   /* warp-uniform */
                uint32_t w_gt = 0, w_eq = 0;
                const K wmax = sn_warp_max(gt ? key : (K)0);
                if (lane == 0) {
                    if (bgt) w_gt = atomicAdd(&sh_nc, (uint32_t)__popc(bgt));
                    if (beq) w_eq = atomicAdd(&sh_ne, (uint32_t)__popc(beq));
                    if (bgt) atomicMax(&sh_max, (unsigned long long)wmax);
                }
                w_gt = __shfl_sync(SN_FULL_MASK, w_gt, 0);
                w_eq = __shfl_sync(SN_FULL_MASK, w_eq, 0);
                uint32_t o = SN_FULL_MASK;
                if (gt) {
                    o = w_gt + __popc(bgt & lane_below);
                    o = o < a.cand_cap ? o : SN_FULL_MASK;
                } else if (eq) {
                    o = w_eq + __popc(beq & lane_below);
                    o = o < tie_cap ? a.cand_cap + o : SN_FULL_MASK;
                }
                if (o != SN_FULL_MASK) {
                    tile[o] = bits;
                    lpos[o] = off + j;
                }
            });
            return;
        }
        K my_max = t;                   /* this thread's largest key > t (t if none) */
        sn_stream_loads<SN_VEC_UNROLL>(src + off, part, [&](const sn_load<K> &w, uint32_t j, uint32_t valid,
                                                             auto scalar) {
            constexpr uint32_t nk = decltype(scalar)::value ? 1 : sn_load<K>::vec;
            uint32_t mgt = 0, meq = 0;
#pragma unroll
            for (uint32_t x = 0; x < nk; ++x) {
                const K key = sn_key<T>(w.e[x], a.flip);
                const bool in = (valid >> x & 1u) != 0;
                if (in && key > t) {
                    mgt |= 1u << x;
                    my_max = key > my_max ? key : my_max;
                }
                if (TIES && in && key == t) meq |= 1u << x;
            }
            if (!__any_sync(SN_FULL_MASK, (mgt | meq) != 0)) return;   /* warp-uniform */
            const uint32_t mine = (uint32_t)__popc(mgt) | (TIES ? (uint32_t)__popc(meq) << SN_PACK_BITS : 0u);
            uint32_t inc = mine;
#pragma unroll
            for (int d = 1; d < SN_WARP; d *= 2) {
                const uint32_t y = __shfl_up_sync(SN_FULL_MASK, inc, d);
                inc += lane >= (uint32_t)d ? y : 0u;
            }
            const uint32_t total = __shfl_sync(SN_FULL_MASK, inc, SN_WARP - 1), before = inc - mine;
            uint32_t w_gt = 0, w_eq = 0;
            if (lane == 0) {
                if (total & SN_PACK_LOW) w_gt = atomicAdd(&sh_nc, total & SN_PACK_LOW);
                if (TIES && (total >> SN_PACK_BITS)) w_eq = atomicAdd(&sh_ne, total >> SN_PACK_BITS);
            }
            uint32_t o_gt = __shfl_sync(SN_FULL_MASK, w_gt, 0) + (before & SN_PACK_LOW);
            uint32_t o_eq = TIES ? __shfl_sync(SN_FULL_MASK, w_eq, 0) + (before >> SN_PACK_BITS) : 0u;
#pragma unroll
            for (uint32_t x = 0; x < nk; ++x) {
                if (mgt >> x & 1u) {
                    if (o_gt < a.cand_cap) {
                        tile[o_gt] = w.e[x];
                        lpos[o_gt] = off + j + x;
                    }
                    ++o_gt;
                } else if (TIES && (meq >> x & 1u)) {
                    if (o_eq < tie_cap) {
                        tile[a.cand_cap + o_eq] = w.e[x];
                        lpos[a.cand_cap + o_eq] = off + j + x;
                    }
                    ++o_eq;
                }
            }
        });
        my_max = sn_warp_max(my_max);
        if (lane == 0 && my_max != t) atomicMax(&sh_max, (unsigned long long)my_max);
    };
    /* Ties the sample expects in the chunk: its copies of t besides t's
     * own, scaled to len.  A block needs at most quota = 2 k / grid +
     * SN_TIE_MARGIN ties (tie_cap at most): spread ties then leave about 2 k
     * in the grid's lists, and a part c times thicker than the average
     * stores about c quotas, up to tie_cap.  Where the estimate is
     * SN_TIE_HEAVY times `want` = 2 quota + SN_TIE_MARGIN or more (a V of few
     * distinct values: f32 CD holds 15/16 of its keys in 64 values), a first
     * part expected to hold `want` ties is streamed looking at ties, and if
     * the block then holds its quota the rest streams without looking -- one
     * vote a key, not a warp's slow path for every copy of t.  Else, and
     * everywhere else, ties and all.  A wrong estimate costs one barrier; a
     * shortfall of ties in the grid's lists falls back, exact: the ties
     * stored are counted as before. */
    const uint32_t copies = sh_seq > 0 ? sh_seq - 1 : 0;   /* t is one of the sample's keys */
    const uint64_t share = (a.k + gridDim.x - 1) / gridDim.x;
    const uint32_t quota = 2 * share + SN_TIE_MARGIN < tie_cap ? (uint32_t)(2 * share + SN_TIE_MARGIN) : tie_cap;
    const uint64_t want = 2ull * quota + SN_TIE_MARGIN;
    uint32_t off = 0, end = len;
    if (copies >= SN_TIE_MIN_COPIES && (uint64_t)copies * len >= SN_TIE_HEAVY * want * SN_SAMPLE)
        end = (uint32_t)((want * SN_SAMPLE / copies + vec) / vec * vec);   /* <= len / 2 + vec */
    end = end < len ? end : len;
    const bool dense = sn_dense(a.n, a.cap, vec);
    for (bool ties = true;;) {          /* block-uniform */
        if (ties && dense)
            stream(off, end - off, std::true_type(), std::true_type());
        else if (ties)
            stream(off, end - off, std::true_type(), std::false_type());
        else if (dense)
            stream(off, end - off, std::false_type(), std::true_type());
        else
            stream(off, end - off, std::false_type(), std::false_type());
        if (end == len) break;
        __syncthreads();                /* the first part's ties counted */
        ties = __syncthreads_and(sh_ne < quota);    /* read by all before the next part adds */
        off = end;
        end = len;
    }
    __syncthreads();
    *nc = sh_nc;
    *ne = sh_ne < tie_cap ? sh_ne : tie_cap;
    if (threadIdx.x == 0) {
        sn_block_pub pb = { sh_nc, *ne, sh_nc > a.cand_cap, sh_max };
        a.c->blk[blockIdx.x] = pb;
    }
    return t;
}

/* After the grid barrier: the grid's totals of what every block published,
 * the same in every block.  Returns whether the lists hold the top k
 * (drtopk_onepass_decide with the stored ties, and no key > t dropped);
 * *maxk: the grid's largest key. */
template <typename K, typename PosT>
__device__ bool sn_sampled_decide(const small_n_args<K, PosT> &a, K *maxk)
{
    __shared__ unsigned long long sh_gt, sh_eq, sh_maxk;
    __shared__ uint32_t sh_over;
    if (threadIdx.x == 0) {
        sh_gt = sh_eq = 0;
        sh_over = sh_maxk = 0;
    }
    __syncthreads();
    uint32_t gt = 0, eq = 0, over = 0;
    K mx = 0;
    for (uint32_t b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
        const uint32_t g = __ldcg(&a.c->blk[b].gt), e = __ldcg(&a.c->blk[b].eq);
        const uint32_t o = __ldcg(&a.c->blk[b].over);
        const K m = (K)__ldcg(&a.c->blk[b].max);
        gt += g;
        eq += e;
        over |= o;
        mx = m > mx ? m : mx;
    }
    gt = __reduce_add_sync(SN_FULL_MASK, gt);
    eq = __reduce_add_sync(SN_FULL_MASK, eq);
    over = __reduce_or_sync(SN_FULL_MASK, over);
    mx = sn_warp_max(mx);
    if (threadIdx.x % SN_WARP == 0) {
        if (gt) atomicAdd(&sh_gt, (unsigned long long)gt);
        if (eq) atomicAdd(&sh_eq, (unsigned long long)eq);
        if (over) atomicOr(&sh_over, over);
        atomicMax(&sh_maxk, (unsigned long long)mx);
    }
    __syncthreads();
    *maxk = (K)sh_maxk;
    return !sh_over && drtopk_onepass_decide(sh_gt, sh_eq, a.k, a.cap) != DRTOPK_ONEPASS_FALLBACK;
}

/* HBM: the launch's passes read V from global memory (fused_spec.h: it
 * neither lists sampled candidates nor holds its chunks in shared memory). */
template <int T, typename PosT, bool HBM>
__global__ void __launch_bounds__(SN_THREADS) small_n_kernel(small_n_args<typename sn_word<T>::type, PosT> a)
{
    typedef typename sn_word<T>::type K;
    constexpr int key_bits = sn_key_bits<K>();
    extern __shared__ __align__(16) unsigned char sn_smem[];
    K *tile = (K *)sn_smem;
    __shared__ unsigned long long sh_base_gt, sh_base_eq;
    __shared__ uint32_t sh_cur_gt, sh_cur_eq;   /* the block's slots taken per class */
    const bool multi = gridDim.x > 1;
    const unsigned long long lo = (unsigned long long)blockIdx.x * a.chunk;
    const uint32_t len = (uint32_t)(lo < a.n ? (a.n - lo < a.chunk ? a.n - lo : a.chunk) : 0);
    const K *src = a.v + lo;
    if (a.d_skip != NULL && *a.d_skip) return; /* every block: no barrier is left waiting */

    if (multi && blockIdx.x == 0) {     /* visible to all after the first grid barrier */
        unsigned int *w = &a.c->hist[0][0];
        for (unsigned i = threadIdx.x; i < (sn_passes_of<K>() + 1) * SN_BINS; i += blockDim.x) w[i] = 0;
        if (threadIdx.x == 0) {
            a.c->gt = a.c->eq = 0;
            a.c->all = ~0ull;
            a.c->any = 0;
            a.c->above = 0;
        }
    }
    K prefix = 0, mask = 0;
    uint32_t kk = (uint32_t)a.k;        /* rank of the k-th key among those matching prefix */
    int top = key_bits;                 /* bits below the common prefix of the keys */
    sn_src<K> s = { src, a.resident ? tile : NULL, NULL, len, len, 0, a.resident != 0 };
    bool zero_barrier = multi, guessed = false;
    __shared__ K sh_t;                  /* sampled: the lists hold every key > t, not every one == t */
    if (!HBM && a.sampled) {            /* a grid (the launch says) */
        uint32_t nc, ne;
        K maxk;
        const K t = sn_sampled_pass<T>(a, tile, src, len, &nc, &ne);
        if (threadIdx.x == 0) sh_t = t;     /* read by this thread only, after the passes */
        cg::this_grid().sync();         /* the published counts; the zeroed control block */
        zero_barrier = false;
        if (sn_sampled_decide(a, &maxk)) {
            /* the top k of the lists (every key > t, enough ties) is V's: the
             * lists' keys share the bits above t ^ maxk's highest set bit */
            top = key_bits - sn_clz((K)(t ^ maxk));
            mask = top == key_bits ? (K)0 : (K)(~0ull << top);
            prefix = t & mask;
            const uint32_t nstored = nc < a.cand_cap ? nc : a.cand_cap;
            const sn_src<K> l = { NULL, tile, (const uint32_t *)(tile + a.list_cap), nstored + ne, nstored,
                                  a.cand_cap - nstored, false };
            s = l;
        }                               /* else: the digit passes over V in global memory */
    } else if (HBM && sizeof(K) > 2 && a.guess) {   /* a grid whose passes read V in global memory */
        sn_read_sample(a, tile);
        zero_barrier = false;
        K gp, gm;
        const int below = sn_bracket<T>(tile, (unsigned int *)(tile + SN_SAMPLE), a.flip, a.r_hi, a.r, gp, gm);
        if (below < key_bits) {         /* else no bit to skip: the AND and OR of pass 0 may */
            top = below;
            prefix = gp;
            mask = gm;
            guessed = true;
        }
    }
    sn_share mine;
    const bool took_all = sn_passes<T, HBM>(s, a.flip, multi ? a.c : NULL, zero_barrier, false, top, prefix, mask,
                                            kk, guessed, &mine, tile, HBM ? a.list_cap : 0u);
    /* the output takes every key of the source matching the prefix: every
     * key of V equal to the k-th, unless the source is the lists and t
     * matches it (the lists may hold only some of V's keys == t) */
    if (a.d_settled != NULL && took_all && blockIdx.x == 0 && threadIdx.x == 0 &&
        (s.pos == NULL || (sh_t & mask) != prefix))
        *a.d_settled = 1;

    /* final: the block's counts above / equal to the prefix, from the passes'
     * own bins (one block: k - kk and the tie count), one range per class */
    if (multi) {
        uint32_t n_gt = mine.gt, n_eq = mine.eq;
        if (threadIdx.x == 0) sh_cur_gt = sh_cur_eq = 0;
        n_gt = __reduce_add_sync(SN_FULL_MASK, n_gt);
        n_eq = __reduce_add_sync(SN_FULL_MASK, n_eq);
        __syncthreads();                /* the cursors are zero */
        if (threadIdx.x % SN_WARP == 0) {
            if (n_gt) atomicAdd(&sh_cur_gt, n_gt);
            if (n_eq) atomicAdd(&sh_cur_eq, n_eq);
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            sh_base_gt = sh_cur_gt ? atomicAdd(&a.c->gt, (unsigned long long)sh_cur_gt) : 0;
            sh_base_eq = sh_cur_eq ? atomicAdd(&a.c->eq, (unsigned long long)sh_cur_eq) : 0;
            sh_cur_gt = sh_cur_eq = 0;
        }
    } else if (threadIdx.x == 0) {
        sh_base_gt = sh_base_eq = 0;
        sh_cur_gt = sh_cur_eq = 0;
    }
    __syncthreads();
    /* each warp's selected lanes take consecutive slots (coalesced stores) */
    const unsigned long long tie_base = a.k - kk;
    const uint32_t lane_below = (1u << (threadIdx.x % SN_WARP)) - 1u;
    sn_each<HBM>(s, false, [&](K bits, uint32_t j, bool in) {
        const K key = sn_key<T>(bits, a.flip), m = key & mask;
        const bool gt = in && m > prefix, eq = in && m == prefix;
        const uint32_t bgt = __ballot_sync(SN_FULL_MASK, gt), beq = __ballot_sync(SN_FULL_MASK, eq);
        if (!(bgt | beq)) return;       /* warp-uniform */
        uint32_t w_gt = 0, w_eq = 0;
        if (threadIdx.x % SN_WARP == 0) {
            if (bgt) w_gt = atomicAdd(&sh_cur_gt, (uint32_t)__popc(bgt));
            if (beq) w_eq = atomicAdd(&sh_cur_eq, (uint32_t)__popc(beq));
        }
        w_gt = __shfl_sync(SN_FULL_MASK, w_gt, 0);
        w_eq = __shfl_sync(SN_FULL_MASK, w_eq, 0);
        unsigned long long o;
        if (gt) {
            o = sh_base_gt + w_gt + __popc(bgt & lane_below);
        } else if (eq) {
            const unsigned long long e = sh_base_eq + w_eq + __popc(beq & lane_below);
            if (e >= kk) return;
            o = tie_base + e;
        } else {
            return;
        }
        const unsigned long long at = lo + (s.pos ? s.pos[j] : j);
        if (a.out_vals) {
            a.out_vals[o] = bits;
            a.out_idx[o] = at;
        } else {
            a.out_keys[o] = key;
            a.out_pos[o] = (PosT)at;
        }
    });
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *a.d_count = a.k;
        *a.d_threshold = prefix;
    }
}

/* Raw V of a known length only: the grid reads it whole (d_skip may gate
 * the call: onepass's fallback). */
/* *w = in, with a 32-bit stand-in for raw V of another width (its dtype and
 * an aligned address): topk_check_input and topk_check_io know 32-bit V
 * only.  Checks the alignment of such V to its element size. */
static drtopk_status small_n_stand_in(const topk_input *in, topk_input *w)
{
    *w = *in;
    if (in->src != TOPK_SRC_RAW || (unsigned)in->dtype >= DRTOPK_DTYPE_COUNT || drtopk_dtype_bits(in->dtype) == 32)
        return DRTOPK_OK;
    if ((uintptr_t)in->raw % drtopk_dtype_size(in->dtype)) return DRTOPK_ERR_MISALIGNED;
    w->dtype = DRTOPK_U32;
    if (in->raw != NULL) w->raw = (const void *)(uintptr_t)sizeof(uint4);
    return DRTOPK_OK;
}

static drtopk_status small_n_check(const topk_input *in)
{
    if (in == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    topk_input w;
    drtopk_status st = small_n_stand_in(in, &w);
    if (st == DRTOPK_OK) st = topk_check_input(&w);
    if (st != DRTOPK_OK) return st;
    if (in->src != TOPK_SRC_RAW || in->d_n != NULL) {
        drtopk_error_set("fused (the small-input top-k) runs standalone on raw V of a known length only, "
                         "not as a first or second top-k of the pipeline");
        return DRTOPK_ERR_UNSUPPORTED;
    }
    if (in->n_max >= FUSED_MAX_N) {
        drtopk_error_set("fused (the small-input top-k) takes fewer than 2^32 keys, not %llu: use radix or "
                         "dr-radix", (unsigned long long)in->n_max);
        return DRTOPK_ERR_UNSUPPORTED;
    }
    return DRTOPK_OK;
}

static size_t small_n_bytes(void) { return drtopk_align_up(sizeof(small_n_ctl), DRTOPK_WS_ALIGN); }

extern "C" drtopk_status small_n_topk_workspace(const topk_input *in, size_t *bytes)
{
    const drtopk_status st = small_n_check(in);
    if (st != DRTOPK_OK) return st;
    if (bytes == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    *bytes = small_n_bytes();
    return DRTOPK_OK;
}

/* The dynamic shared memory a block of the fused top-k may take on dev: the
 * opt-in limit less SN_STATIC_SMEM_MAX. */
static size_t sn_room(const drtopk_device_attrs *dev)
{
    return dev->smem_optin > SN_STATIC_SMEM_MAX ? dev->smem_optin - SN_STATIC_SMEM_MAX : 0;
}

/* The launch shape of the fused top-k of n keys, k of them selected, on the
 * current device (fused_spec.h): one block up to SN_BLOCK_KEYS keys, else one
 * per SN_GRID_KEYS keys up to the co-resident count; a block's chunk or list
 * takes at most the opt-in shared memory less SN_STATIC_SMEM_MAX (set as the
 * kernel's limit once per device). */
template <int T, typename PosT>
static drtopk_status small_n_shape(uint64_t n, uint64_t k, drtopk_fused_shape *sh)
{
    typedef typename sn_word<T>::type K;
    const drtopk_device_attrs *dev;
    drtopk_status st;
    int dev_id, coop_ok = 0, per_sm = 0;
    const void *kernel = (const void *)small_n_kernel<T, PosT, false>;
    if ((st = drtopk_device_current(&dev_id, &dev)) != DRTOPK_OK) return st;
    const size_t room = sn_room(dev);
    if ((st = drtopk_kernel_dynamic_smem(kernel, room)) != DRTOPK_OK) return st;
    DRTOPK_CUDA_TRY(cudaDeviceGetAttribute(&coop_ok, cudaDevAttrCooperativeLaunch, dev_id));
    /* co-resident blocks at `room` bytes, the most a launch asks: a smaller
     * chunk only raises the occupancy, so this many are co-resident always;
     * the HBM kernel the same (SN_THREADS threads of at most 64 registers
     * fill an SM's register file: one block an SM, either kernel) */
    if ((st = drtopk_kernel_occupancy(kernel, SN_THREADS, room, NULL, &per_sm)) != DRTOPK_OK) return st;
    const uint64_t resident_max = coop_ok ? (uint64_t)per_sm * dev->sm_count : 1;
    *sh = drtopk_fused_shape_of(sizeof(K), n, k, room, resident_max);
    return DRTOPK_OK;
}

/* One launch of small_n_shape's shape.  The kernel may take all the opt-in
 * shared memory; a launch asks for its chunk or its list only. */
template <int T, typename PosT>
static drtopk_status small_n_launch(const topk_input *in, small_n_args<typename sn_word<T>::type, PosT> a, void *ws,
                                    cudaStream_t s)
{
    typedef typename sn_word<T>::type K;
    drtopk_status st;
    drtopk_fused_shape sh;
    if ((st = small_n_shape<T, PosT>(in->n_max, in->k, &sh)) != DRTOPK_OK) return st;
    const unsigned grid = sh.grid;
    a.v = (const K *)in->raw;
    a.n = in->n_max;
    a.k = in->k;
    a.chunk = sh.chunk;
    a.list_cap = sh.list_cap;
    a.cand_cap = sh.cand_cap;
    a.r = sh.r;
    a.cap = sh.cap;
    a.sampled = sh.sampled;
    a.resident = sh.resident;
    a.guess = sh.guess;
    a.r_hi = sh.r_hi;
    a.flip = in->order == DRTOPK_SMALLEST ? (K)~0ull : (K)0;
    a.d_skip = in->d_skip;
    a.d_settled = in->d_settled;
    a.c = (small_n_ctl *)ws;
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute coop;
    const bool hbm = !drtopk_fused_reads_once(&sh);
    if (hbm) {                          /* the list of the passes over V (sn_passes), after the guess's sample */
        const size_t list_bytes = sh.list_cap * (sizeof(K) + sizeof(uint32_t));
        a.list_cap = (uint32_t)((list_bytes < SN_HBM_LIST_BYTES ? list_bytes : SN_HBM_LIST_BYTES) /
                                (sizeof(K) + sizeof(uint32_t))) & ~3u;
    }
    const size_t guess_bytes = a.guess ? SN_SAMPLE * sizeof(K) + SN_GUESS_HIST_BYTES : 0;
    const size_t hbm_list_bytes = (size_t)a.list_cap * (sizeof(K) + sizeof(uint32_t));
    drtopk_coop_config(&cfg, &coop, grid, SN_THREADS,
                       a.sampled ? (size_t)a.list_cap * (sizeof(K) + sizeof(uint32_t))
                       : a.resident ? a.chunk * sizeof(K)
                       : guess_bytes > hbm_list_bytes ? guess_bytes : hbm_list_bytes,
                       s);
    if (!hbm) {
        DRTOPK_CUDA_TRY(cudaLaunchKernelEx(&cfg, small_n_kernel<T, PosT, false>, a));
    } else {                            /* its shared-memory limit set on its first launch */
        const drtopk_device_attrs *dev;
        if ((st = drtopk_device_current(NULL, &dev)) != DRTOPK_OK ||
            (st = drtopk_kernel_dynamic_smem((const void *)small_n_kernel<T, PosT, true>, sn_room(dev))) != DRTOPK_OK)
            return st;
        DRTOPK_CUDA_TRY(cudaLaunchKernelEx(&cfg, small_n_kernel<T, PosT, true>, a));
    }
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

/* Ordered keys and positions into out (the pipeline gathers them); for
 * 64-bit V, out->keys and out->d_threshold point to 64-bit words. */
template <int T, typename PosT>
struct small_n_run {
    static drtopk_status run(const topk_input *in, const topk_output *out, void *ws, size_t ws_bytes, cudaStream_t s)
    {
        typedef typename sn_word<T>::type K;
        small_n_args<K, PosT> a;
        memset(&a, 0, sizeof a);
        typedef typename sn_out<K>::type O;
        a.out_keys = (O *)out->keys;
        a.out_pos = (PosT *)out->pos;
        a.d_count = out->d_count;
        a.d_threshold = (O *)out->d_threshold;
        return small_n_launch<T, PosT>(in, a, ws, s);
    }
};

/* The caller's values and 64-bit indices directly (no gather). */
template <int T, typename PosT>
struct small_n_run_final {
    static drtopk_status run(const topk_input *in, const topk_output *out, void *values, uint64_t *indices,
                             void *ws, size_t ws_bytes, cudaStream_t s)
    {
        typedef typename sn_word<T>::type K;
        small_n_args<K, PosT> a;
        memset(&a, 0, sizeof a);
        a.out_vals = (K *)values;
        a.out_idx = indices;
        a.d_count = out->d_count;
        a.d_threshold = (typename sn_out<K>::type *)out->d_threshold;
        return small_n_launch<T, PosT>(in, a, ws, s);
    }
};

/* F<T, P>::run(args...) for V of dtype t: the 32-bit dtypes as every
 * algorithm (drtopk_dispatch), and the 16- and 64-bit ones. */
template <template <int, typename> class F, typename... A>
static drtopk_status small_n_dispatch(drtopk_dtype t, int pos64, A... args)
{
    switch (t) {
    case DRTOPK_F16: return pos64 ? F<DRTOPK_F16, uint64_t>::run(args...) : F<DRTOPK_F16, uint32_t>::run(args...);
    case DRTOPK_BF16: return pos64 ? F<DRTOPK_BF16, uint64_t>::run(args...) : F<DRTOPK_BF16, uint32_t>::run(args...);
    case DRTOPK_U64: return pos64 ? F<DRTOPK_U64, uint64_t>::run(args...) : F<DRTOPK_U64, uint32_t>::run(args...);
    case DRTOPK_I64: return pos64 ? F<DRTOPK_I64, uint64_t>::run(args...) : F<DRTOPK_I64, uint32_t>::run(args...);
    case DRTOPK_F64: return pos64 ? F<DRTOPK_F64, uint64_t>::run(args...) : F<DRTOPK_F64, uint32_t>::run(args...);
    default: return drtopk_dispatch<F>(t, pos64, args...);
    }
}

/* Whether the fused top-k of n keys of type T reads V once on this device. */
template <int T, typename PosT>
struct small_n_once {
    static drtopk_status run(uint64_t n, uint64_t k, int *once)
    {
        drtopk_fused_shape sh;
        const drtopk_status st = small_n_shape<T, PosT>(n, k, &sh);
        if (st == DRTOPK_OK) *once = drtopk_fused_reads_once(&sh);
        return st;
    }
};

extern "C" drtopk_status drtopk_cuda_fused_reads_once(drtopk_dtype t, uint64_t n, uint64_t k, int *once)
{
    if ((unsigned)t >= DRTOPK_DTYPE_COUNT || once == NULL || n == 0 || k == 0 || k > n)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    return small_n_dispatch<small_n_once>(t, 0, n, k, once);     /* fused takes < 2^32 keys: 32-bit offsets */
}

/* The checks of topk_check_io and topk_check_run (which know 32-bit V only),
 * made on a stand-in for 64-bit V. */
static drtopk_status small_n_check_io(const topk_input *in, const topk_output *out, const void *ws, size_t ws_bytes)
{
    drtopk_status st = small_n_check(in);
    if (st != DRTOPK_OK) return st;
    topk_input w;
    small_n_stand_in(in, &w);           /* small_n_check checked it */
    if ((st = topk_check_io(&w, out)) != DRTOPK_OK) return st;
    return topk_check_run(&w, out, ws, ws_bytes, small_n_bytes());
}

extern "C" drtopk_status small_n_topk(const topk_input *in, const topk_output *out, void *ws, size_t ws_bytes,
                                      cudaStream_t s)
{
    const drtopk_status st = small_n_check_io(in, out, ws, ws_bytes);
    if (st != DRTOPK_OK) return st;
    return small_n_dispatch<small_n_run>(in->dtype, in->pos64, in, out, ws, ws_bytes, s);
}

extern "C" drtopk_status small_n_topk_final(const topk_input *in, const topk_output *out, void *values,
                                            uint64_t *indices, void *ws, size_t ws_bytes, cudaStream_t s)
{
    const drtopk_status st = small_n_check_io(in, out, ws, ws_bytes);
    if (st != DRTOPK_OK) return st;
    if (values == NULL || indices == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    return small_n_dispatch<small_n_run_final>(in->dtype, in->pos64, in, out, values, indices, ws, ws_bytes, s);
}
