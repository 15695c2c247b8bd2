/*
 * radix_topk.cu -- flag-based in-place radix top-k (paper section 5.1), the
 * first and second top-k of the delegate pipeline and a standalone algorithm,
 * with the skip-last-digit option of section 4.3.
 *
 * Ordered keys (keyorder.h) are selected 8 bits at a time from the most
 * significant digit.  Pass p histograms digit p of the elements whose decided
 * digits match the prefix so far; the paper's flag test `flag == (flag & key)`
 * is written as `(key & mask) == prefix`.  At its start every block of the
 * next pass (or of the final pass) picks, from that histogram, the digit holding
 * the k-th largest key, so no select kernel sits between passes: one memset
 * and five launches per call (four when the caller gives pass 0's histogram:
 * radix_topk_hist0).  The final pass writes every element above
 * the resolved prefix (slots [0, k - kk)) and kk ties (slots [k - kk, k)), each
 * through a device counter with one block-aggregated atomic per tile (see
 * radix_for_each_tile).  With skip-last-digit the prefix stops after the
 * third digit when all its matches fit out->capacity.  All per-pass state
 * lives in the workspace, so the call only enqueues (no host round trip) and is
 * capture-safe; grids are persistent and sized from n_max, the device-side
 * length is read by the kernels.
 *
 * Deviation from the paper (beyond it, by design): once the candidates matching
 * the prefix number at most length / RADIX_COMPACT_RATIO, the next pass copies
 * them into a workspace buffer while it histograms, and writes the elements
 * already known to be above the prefix straight to the output.  The remaining
 * passes and the final pass then read the small buffer instead of the input.
 * Reason: on uniform data the candidates shrink 256-fold per pass, so the
 * in-place scheme reads the input 5 times while this one reads it about twice.
 *
 * Inputs of at most RADIX_SMALL_N elements take a one-block path that keeps the
 * keys in shared memory and runs every pass in one launch, where the GPU's
 * opt-in shared memory per block holds them and a list of an eighth as many
 * 16-bit positions (sm_86/89: 99 KB, 22,889 keys); its passes walk that list
 * once the keys still in play fit it.  Larger inputs take the multi-pass path.
 */
#include "kernels.h"
#include "keyorder.h"
#include "pipeline_spec.h"
#include "stream_tile.cuh"
#include "radix_pick.cuh"

#define RADIX_DIGIT_BITS 8
#define RADIX_BINS (1u << RADIX_DIGIT_BITS)
#define RADIX_PASSES 4                 /* 32-bit keys / 8-bit digits          */
#define RADIX_TOP_SHIFT 24             /* shift of the most significant digit */
#define RADIX_DIGIT_MASK (RADIX_BINS - 1u)
#define RADIX_KEY_BITS 32
#define RADIX_SKIP_PASS 2              /* pass after which skip-last-digit may stop */
#define RADIX_COMPACT_RATIO 16         /* compact when candidates <= len/16   */
#define RADIX_SMALL_N 32768            /* one-block path: 128 KB of keys in shared memory,
                                          cheaper than ~10 launches below this size */
#define RADIX_SMALL_STATIC_SMEM 4096   /* bounds the one-block kernel's static shared
                                          memory (1 KB histogram, scalars: 2112 bytes
                                          on sm_90; 2048 was short of it by 48 before
                                          the list); the rest of the opt-in limit may
                                          hold keys and the list                   */
#define RADIX_SMALL_THREADS 1024
#define RADIX_SMALL_LOADS 8            /* one-block path: loads in flight per thread */
#define RADIX_SMALL_VEC 4              /* one-block path: keys of a 16-byte shared-memory load */
static_assert(RADIX_SMALL_VEC * sizeof(uint32_t) == sizeof(uint4), "one uint4 load holds RADIX_SMALL_VEC keys");
#define RADIX_SMALL_MIN_BLOCKS 1       /* one-block path: its grid is one block, so its registers need
                                          not leave room for a second (ptxas's default: 32 a thread) */
#define RADIX_SMALL_LIST_RATIO 8       /* one-block path: its list holds n_max / 8 positions
                                          (spread keys leave ~n / 256 after the first digit) */
typedef uint16_t radix_small_list_t;   /* a position of the one-block path (< RADIX_SMALL_N) */
static_assert(RADIX_SMALL_N <= 65536, "a one-block position fits radix_small_list_t");
static_assert(RADIX_BINS == TOPK_DIGIT0_BINS && RADIX_TOP_SHIFT == TOPK_DIGIT0_SHIFT &&
                  RADIX_DIGIT_BITS == TOPK_DIGIT0_BITS && RADIX_PASSES * RADIX_DIGIT_BITS == RADIX_KEY_BITS,
              "radix_topk_hist0's histogram is pass 0's, and topk_digit_shift gives the passes' digits");

/* The flag and bookkeeping one pass works with.  Pass p's blocks all derive
 * it from state[p-1] and pass p-1's histogram (so no select kernel sits
 * between passes); block 0 stores it as state[p] for pass p+1.
 * state[RADIX_PASSES] is the final one. */
struct radix_state {
    unsigned long long len;      /* input length (from d_n or n_max)          */
    unsigned long long kk;       /* elements still to take among candidates  */
    unsigned long long cand;     /* candidates: (key & mask) == prefix        */
    unsigned long long buf_len;  /* length of the buffer once it is the source */
    unsigned long long tie_take; /* ties the final pass writes                */
    uint32_t prefix, mask;       /* the flag: decided digits and their bits   */
    int known;                   /* leading bits every key shares (topk_digit0) */
    int src_buf;                 /* passes read the compaction buffer         */
    int compact;                 /* this pass fills the compaction buffer     */
    int done;                    /* prefix final: no more histogram passes    */
};

/* Device counters, zeroed by one memset with the histograms. */
struct radix_counters {
    unsigned long long gt;       /* output slots used by elements > prefix    */
    unsigned long long eq;       /* ties seen by the final pass               */
    unsigned long long buf;      /* compaction buffer fill                    */
};

template <typename PosT>
struct radix_args {
    radix_state *st;             /* RADIX_PASSES + 1 states                   */
    radix_counters *ctr;
    unsigned long long *hist;    /* RADIX_PASSES x RADIX_BINS                 */
    const unsigned long long *hist0; /* radix_topk_hist0's: pass 0's histogram, or NULL */
    const uint32_t *d_floor;     /* radix_topk_hist0's: every key > *d_floor, or NULL */
    const uint32_t *d_or;        /* radix_topk_hist0's: OR of every key, or NULL (with d_floor) */
    uint32_t top;                /* radix_topk_hist0's: every key <= top       */
    uint32_t *buf_keys;
    PosT *buf_pos;
    const uint32_t *in_bits;     /* raw V bits or ordered keys[]              */
    const PosT *in_pos;          /* PAIRS positions                           */
    const uint64_t *d_n;
    unsigned long long n_max;
    unsigned long long k;
    unsigned long long capacity;
    uint32_t flip;               /* all ones for DRTOPK_SMALLEST on raw V     */
    int skip;
    uint32_t *out_keys;
    PosT *out_pos;
    topk_final_out fin;          /* FIN kernels: where the final form goes    */
    drtopk_key_inverse32 inv;    /* FIN kernels: fin.dtype's inverse of its keys */
    int fin16;                   /* FIN kernels: fin.dtype is 16 bits wide     */
    uint64_t *d_count;
    uint32_t *d_threshold;
    const int *d_skip;           /* nonzero on the device: every kernel returns */
};

/* The call was gated off on the device (topk_input.d_skip). */
template <typename PosT>
__device__ __forceinline__ bool radix_skipped(const radix_args<PosT> &a)
{
    return a.d_skip != NULL && *a.d_skip != 0;
}

/* Result slot o: the ordered key and its position, or with FIN the
 * caller's final form (kernels.h's topk_final_out; a template argument, so
 * that the other callers' kernels keep their registers). */
template <bool FIN, typename PosT>
__device__ __forceinline__ void radix_write(const radix_args<PosT> &a, unsigned long long o, uint32_t key, PosT pos)
{
    if (!FIN) {
        a.out_keys[o] = key;
        a.out_pos[o] = pos;
        return;
    }
    const uint64_t q = (uint64_t)pos;
    const uint32_t kv = key ^ a.fin.om;
    const bool shared = drtopk_key_inverse32_shared(a.inv, kv);
    const uint32_t bits = drtopk_key_inverse32_bits(a.inv, kv);
    if (a.fin16) ((uint16_t *)a.fin.values)[o] = shared ? ((const uint16_t *)a.fin.v)[q] : (uint16_t)bits;
    else ((uint32_t *)a.fin.values)[o] = shared ? ((const uint32_t *)a.fin.v)[q] : bits;
    a.fin.indices[o] = q;
}

/* Ordered key of input element bits. */
template <topk_source S, drtopk_dtype T>
__device__ __forceinline__ uint32_t radix_key(uint32_t bits, uint32_t flip)
{
    if (S == TOPK_SRC_PAIRS) return bits;
    return drtopk_key_from_bits(bits, T, DRTOPK_LARGEST) ^ flip;
}

template <topk_source S, typename PosT>
__device__ __forceinline__ PosT radix_pos(const PosT *pos, unsigned long long i)
{
    return S == TOPK_SRC_RAW ? (PosT)i : pos[i];
}

/* What the final pass's radix_for_each_tile reads beside a key (its side
 * values, a load's read together): a PAIRS element's position, nothing for a
 * RAW one, whose position is its index (radix_side_pos puts the two
 * together).  The compacting pass reads positions a key at a time: read a
 * load at a time there under its 64-register cap, u32 UD candidates (2^24 of
 * 2^26 keys) took 1.22x as long (H200 GPU-e189e86d, on 2652b8f). */
struct radix_no_side {};
template <topk_source S, typename PosT>
__device__ __forceinline__ auto radix_side(const PosT *pos, unsigned long long i)
{
    if constexpr (S == TOPK_SRC_RAW) return radix_no_side{};
    else return pos[i];
}
template <topk_source S, typename PosT, typename SV>
__device__ __forceinline__ PosT radix_side_pos(const SV &sv, unsigned long long i)
{
    if constexpr (S == TOPK_SRC_RAW) return (PosT)i;
    else return sv;
}

/* Every block: the state of pass p (p == RADIX_PASSES: the final pass) into
 * *cur, from state[p-1] and histogram p-1: extend the prefix by one digit,
 * switch to the buffer after a compacting pass, decide the next compaction
 * and (skip-last-digit) whether to stop early.  Block 0 publishes it. */
template <typename PosT>
__device__ void radix_block_state(const radix_args<PosT> &a, int p, radix_state *cur)
{
    if (threadIdx.x < DRTOPK_WARP) {
        radix_state c;
        if (p == 0 || (p == 1 && a.hist0)) { /* pass 0's state (with hist0, pass 0 is not run) */
            const unsigned long long n = a.d_n ? (unsigned long long)*a.d_n : a.n_max;
            c.len = n < a.n_max ? n : a.n_max;
            c.kk = a.k;
            c.cand = c.len;
            c.buf_len = c.tie_take = 0;
            c.known = a.d_floor ? topk_known_bits(*a.d_floor, a.top) : 0;
            c.mask = c.known ? ~0u << (RADIX_KEY_BITS - c.known) : 0u;
            c.prefix = a.top & c.mask;
            c.src_buf = c.compact = c.done = 0;
        } else {
            c = a.st[p - 1];
        }
        if (p > 0 && !c.done) {
            const int q = p - 1; /* the pass whose histogram decides this digit */
            const unsigned long long *hist = q == 0 && a.hist0 ? a.hist0 : a.hist + q * RADIX_BINS;
            const radix_pick<unsigned long long> pk =
                warp_pick_digit<RADIX_BINS>([&](unsigned d) { return hist[d]; }, c.kk);
            const unsigned long long kk = c.kk - pk.above, cand = pk.count;
            const int shift = topk_digit_shift(c.known, q);
            c.prefix |= pk.digit << shift;
            c.mask |= RADIX_DIGIT_MASK << shift;
            c.kk = kk;
            c.cand = cand;
            if (c.compact) {
                c.src_buf = 1;
                c.buf_len = a.ctr->buf;
                c.compact = 0;
            }
            if (shift == 0) {    /* every bit decided (pass RADIX_PASSES - 1 at the latest) */
                c.done = 1;
                c.tie_take = kk;
            } else if (q == RADIX_SKIP_PASS && drtopk_skip_last_digit_stops(a.skip, a.k - kk + cand, a.capacity)) {
                c.done = 1;
                c.tie_take = cand;
            } else if (!c.src_buf && cand * RADIX_COMPACT_RATIO <= c.len) {
                c.compact = 1;
            }
            if (q == 0 && a.d_or != NULL && !c.done) {
                /* every key lies in (floor, OR] and so shares the leading
                 * bits of the two: the next digits start below them
                 * (clustered keys would spend a pass a digit on bits they
                 * all share) */
                const int shared = topk_known_bits(*a.d_floor, *a.d_or); /* <= 24: a digit is left */
                if (shared - RADIX_DIGIT_BITS > c.known) {
                    c.known = shared - RADIX_DIGIT_BITS;
                    c.mask = ~0u << (RADIX_KEY_BITS - shared);
                    c.prefix = *a.d_or & c.mask;
                }
            }
        }
        if (threadIdx.x == 0) {
            *cur = c;
            if (blockIdx.x == 0) {
                a.st[p] = c;
                if (p == RADIX_PASSES) {
                    *a.d_count = a.k - c.kk + c.tie_take;
                    *a.d_threshold = c.prefix;
                }
            }
        }
    }
    __syncthreads();
}

/* Histogram pass `pass` over the current source; when compacting it also
 * moves the candidates to the buffer and the elements above the prefix to the
 * output. */
template <topk_source S, drtopk_dtype T, typename PosT, bool FIN = false>
__global__ void __launch_bounds__(RADIX_THREADS, RADIX_MIN_BLOCKS) radix_pass_kernel(radix_args<PosT> a, int pass)
{
    __shared__ uint32_t sh[RADIX_BINS];
    __shared__ radix_state cur;
    if (radix_skipped(a)) return;
    radix_block_state(a, pass, &cur);
    if (cur.done) return;
    for (unsigned i = threadIdx.x; i < RADIX_BINS; i += blockDim.x) sh[i] = 0;
    __syncthreads();
    const uint32_t prefix = cur.prefix, mask = cur.mask;
    const int shift = topk_digit_shift(cur.known, pass);
    if (cur.src_buf) {
        radix_for_each(a.buf_keys, cur.buf_len, [&](uint32_t key, unsigned long long) {
            if ((key & mask) == prefix) atomicAdd(&sh[(key >> shift) & RADIX_DIGIT_MASK], 1u);
        });
    } else if (!cur.compact) {
        const uint32_t flip = a.flip;
        radix_for_each(a.in_bits, cur.len, [&](uint32_t bits, unsigned long long) {
            const uint32_t key = radix_key<S, T>(bits, flip);
            if ((key & mask) == prefix) atomicAdd(&sh[(key >> shift) & RADIX_DIGIT_MASK], 1u);
        });
    } else {
        const uint32_t flip = a.flip;
        radix_for_each_tile(
            a.in_bits, cur.len, &a.ctr->buf, &a.ctr->gt,
            [&](uint32_t bits) -> uint32_t {
                const uint32_t key = radix_key<S, T>(bits, flip);
                const uint32_t m = key & mask;
                if (m == prefix) {
                    atomicAdd(&sh[(key >> shift) & RADIX_DIGIT_MASK], 1u);
                    return 1;
                }
                return m > prefix ? 2 : 0;
            },
            [](unsigned long long) { return radix_no_side{}; },
            [&](uint32_t c, uint32_t bits, unsigned long long i, unsigned long long o, radix_no_side) {
                const uint32_t key = radix_key<S, T>(bits, flip);
                const PosT pos = radix_pos<S, PosT>(a.in_pos, i);
                if (c == 1) {
                    a.buf_keys[o] = key;
                    a.buf_pos[o] = pos;
                } else {
                    radix_write<FIN>(a, o, key, pos);
                }
            });
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < RADIX_BINS; i += blockDim.x)
        if (sh[i]) atomicAdd(&a.hist[pass * RADIX_BINS + i], (unsigned long long)sh[i]);
}

/* Final pass: elements above the prefix, then tie_take of those equal to it.
 * Over PAIRS (candidates and their positions) it runs a block an SM: at
 * 96-101 registers its loads' positions are read together without spilling,
 * where under the 64-register cap of two blocks an SM the pass over 17.5M
 * tie-heavy candidates ran at 1.7 TB/s (onepass, u32 ND and CD, k = 2^24 of
 * 2^26 keys: 0.91x the time at one block, H200 GPU-044def92, on 2652b8f;
 * the pipeline's second top-k 0.96-0.97x); RAW V keeps two (one block took
 * 1.09x as long over u32 ND, GPU-e189e86d). */
#define RADIX_PAIRS_FINAL_MIN_BLOCKS 1
template <topk_source S, drtopk_dtype T, typename PosT, bool FIN = false>
__global__ void __launch_bounds__(RADIX_THREADS, S == TOPK_SRC_PAIRS ? RADIX_PAIRS_FINAL_MIN_BLOCKS : RADIX_MIN_BLOCKS)
    radix_final_kernel(radix_args<PosT> a)
{
    __shared__ radix_state cur;
    if (radix_skipped(a)) return;
    radix_block_state(a, RADIX_PASSES, &cur);
    const uint32_t prefix = cur.prefix, mask = cur.mask;
    const unsigned long long tie_base = a.k - cur.kk, tie_take = cur.tie_take;
    auto write = [&](uint32_t c, uint32_t key, PosT pos, unsigned long long o) {
        if (c == 1) radix_write<FIN>(a, o, key, pos);
        else if (o < tie_take) radix_write<FIN>(a, tie_base + o, key, pos);
    };
    if (cur.src_buf) {
        radix_for_each_tile(
            a.buf_keys, cur.buf_len, &a.ctr->gt, &a.ctr->eq,
            [&](uint32_t key) -> uint32_t {
                const uint32_t m = key & mask;
                return m > prefix ? 1 : m == prefix ? 2 : 0;
            },
            [&](unsigned long long i) { return a.buf_pos[i]; },
            [&](uint32_t c, uint32_t key, unsigned long long, unsigned long long o, PosT pos) { write(c, key, pos, o); });
    } else {
        const uint32_t flip = a.flip;
        radix_for_each_tile(
            a.in_bits, cur.len, &a.ctr->gt, &a.ctr->eq,
            [&](uint32_t bits) -> uint32_t {
                const uint32_t m = radix_key<S, T>(bits, flip) & mask;
                return m > prefix ? 1 : m == prefix ? 2 : 0;
            },
            [&](unsigned long long i) { return radix_side<S, PosT>(a.in_pos, i); },
            [&](uint32_t c, uint32_t bits, unsigned long long i, unsigned long long o, auto sv) {
                write(c, radix_key<S, T>(bits, flip), radix_side_pos<S, PosT>(sv, i), o);
            });
    }
}

/* Small inputs: one block, keys in shared memory, every pass in one launch.
 * The load counts pass 0's histogram and takes the AND and the OR of the
 * keys from registers; without skip-last-digit the passes start below the
 * leading digits every key shares (clustered keys: onepass's sample of ND
 * or CD V). Once the keys matching the prefix number at most n_max /
 * RADIX_SMALL_LIST_RATIO (on spread keys after the first digit: about n /
 * 256), one sweep writes the keys above the prefix to the output and lists
 * the positions of those matching it in shared memory; the later passes and
 * the final one walk the list, not every key (the sweeps over all n keys
 * are the kernel's time: it runs on one SM, bound by its instructions per
 * key). */
template <topk_source S, drtopk_dtype T, typename PosT, bool FIN = false>
__global__ void __launch_bounds__(RADIX_SMALL_THREADS, RADIX_SMALL_MIN_BLOCKS) radix_small_kernel(radix_args<PosT> a)
{
    extern __shared__ __align__(16) uint32_t skeys[];
    __shared__ uint32_t hist[RADIX_BINS];
    __shared__ uint32_t s_prefix, s_mask, s_and, s_or;
    __shared__ unsigned long long s_kk, s_cand;
    __shared__ unsigned s_gt, s_eq;     /* 32-bit (n <= RADIX_SMALL_N): a 64-bit shared add is a CAS loop */
    __shared__ unsigned s_list_len;
    __shared__ int s_done, s_listed;
    pdl_launch_dependents();    /* a grid launched dependent on this one may start (onepass's pass and take) */
    if (radix_skipped(a)) return;
    const unsigned long long n_dev = a.d_n ? (unsigned long long)*a.d_n : a.n_max;
    const unsigned n = (unsigned)(n_dev < a.n_max ? n_dev : a.n_max);   /* n_max <= RADIX_SMALL_N */
    radix_small_list_t *list = reinterpret_cast<radix_small_list_t *>(skeys + a.n_max);
    const unsigned list_cap = (unsigned)(a.n_max / RADIX_SMALL_LIST_RATIO);
    for (unsigned i = threadIdx.x; i < RADIX_BINS; i += blockDim.x) hist[i] = 0;
    if (threadIdx.x == 0) {
        s_and = ~0u;
        s_or = 0;
        s_kk = a.k;
        s_gt = s_eq = 0;
        s_list_len = 0;
        s_done = s_listed = 0;
    }
    __syncthreads();
    /* RADIX_SMALL_LOADS independent loads in flight per thread */
    uint32_t k_and = ~0u, k_or = 0;
    for (unsigned base = 0; base < n; base += blockDim.x * RADIX_SMALL_LOADS) {
        uint32_t bits[RADIX_SMALL_LOADS];
#pragma unroll
        for (int j = 0; j < RADIX_SMALL_LOADS; ++j) {
            const unsigned i = base + j * blockDim.x + threadIdx.x;
            if (i < n) bits[j] = __ldg(a.in_bits + i);
        }
#pragma unroll
        for (int j = 0; j < RADIX_SMALL_LOADS; ++j) {
            const unsigned i = base + j * blockDim.x + threadIdx.x;
            if (i < n) {
                const uint32_t key = radix_key<S, T>(bits[j], a.flip);
                skeys[i] = key;
                k_and &= key;
                k_or |= key;
                atomicAdd(&hist[key >> RADIX_TOP_SHIFT], 1u);
            }
        }
    }
    k_and = __reduce_and_sync(DRTOPK_FULL_MASK, k_and);
    k_or = __reduce_or_sync(DRTOPK_FULL_MASK, k_or);
    if ((threadIdx.x & DRTOPK_LANE_MASK) == 0) {
        atomicAnd(&s_and, k_and);
        atomicOr(&s_or, k_or);
    }
    __syncthreads();
    /* the leading digits every key shares; skip-last-digit counts its
     * passes from the first, so with it every pass runs */
    const uint32_t differ = s_and ^ s_or;
    const int first = a.skip || n == 0 ? 0 : differ == 0 ? RADIX_PASSES : __clz(differ) / RADIX_DIGIT_BITS;
    if (threadIdx.x == 0) {
        s_mask = first == 0 ? 0u : first >= RADIX_PASSES ? ~0u : ~0u << (RADIX_KEY_BITS - RADIX_DIGIT_BITS * first);
        s_prefix = s_and & s_mask;
    }
    __syncthreads();
    /* f(key, i) for every key: a 16-byte shared load of RADIX_SMALL_VEC keys
     * at a time */
    auto for_all_keys = [&](auto f) {
        const unsigned nv = n / RADIX_SMALL_VEC;
        const uint4 *kv = reinterpret_cast<const uint4 *>(skeys);
        for (unsigned i = threadIdx.x; i < nv; i += blockDim.x) {
            const uint4 v = kv[i];
            const unsigned j = i * RADIX_SMALL_VEC;
            f(v.x, j);
            f(v.y, j + 1);
            f(v.z, j + 2);
            f(v.w, j + 3);
        }
        for (unsigned i = nv * RADIX_SMALL_VEC + threadIdx.x; i < n; i += blockDim.x) f(skeys[i], i);
    };
    /* f(key, i) for every key still in play: the listed ones, or all */
    auto for_each_key = [&](auto f) {
        if (s_listed) {
            for (unsigned i = threadIdx.x; i < s_list_len; i += blockDim.x) {
                const unsigned j = list[i];
                f(skeys[j], j);
            }
        } else {
            for_all_keys(f);
        }
    };
    for (int pass = first; pass < RADIX_PASSES; ++pass) {
        const uint32_t prefix = s_prefix, mask = s_mask;
        const int shift = RADIX_TOP_SHIFT - RADIX_DIGIT_BITS * pass;
        if (pass != 0) {                /* pass 0's histogram was counted by the load */
            for (unsigned i = threadIdx.x; i < RADIX_BINS; i += blockDim.x) hist[i] = 0;
            __syncthreads();
            for_each_key([&](uint32_t key, unsigned) {
                if ((key & mask) == prefix) atomicAdd(&hist[(key >> shift) & RADIX_DIGIT_MASK], 1u);
            });
        }
        __syncthreads();                /* the histogram is whole, and every thread has read s_prefix and
                                           s_mask before thread 0 rewrites them */
        if (threadIdx.x < DRTOPK_WARP) {
            const unsigned long long want = s_kk;
            const radix_pick<unsigned long long> pk =
                warp_pick_digit<RADIX_BINS>([&](unsigned d) { return (unsigned long long)hist[d]; }, want);
            const unsigned long long kk = want - pk.above, cand = pk.count;
            __syncwarp();               /* every lane has read s_kk before lane 0 rewrites it */
            if (threadIdx.x == 0) {
                s_prefix = prefix | pk.digit << shift;
                s_mask = mask | RADIX_DIGIT_MASK << shift;
                s_kk = kk;
                s_cand = cand;
                if (pass == RADIX_SKIP_PASS && drtopk_skip_last_digit_stops(a.skip, a.k - kk + cand, a.capacity))
                    s_done = 1;
            }
        }
        __syncthreads();
        if (s_done) break;
        if (!s_listed && pass < RADIX_PASSES - 1 && s_cand <= list_cap) {
            /* keys above the prefix to the output now, those matching it to the list */
            const uint32_t p = s_prefix, m = s_mask;
            for_all_keys([&](uint32_t key, unsigned i) {
                const uint32_t km = key & m;
                if (km > p) {
                    radix_write<FIN>(a, atomicAdd(&s_gt, 1u), key, radix_pos<S, PosT>(a.in_pos, i));
                } else if (km == p) {
                    list[atomicAdd(&s_list_len, 1u)] = (radix_small_list_t)i;
                }
            });
            __syncthreads();
            if (threadIdx.x == 0) s_listed = 1;
            __syncthreads();
        }
    }
    const uint32_t prefix = s_prefix, mask = s_mask;
    const unsigned long long tie_base = a.k - s_kk, tie_take = s_done ? s_cand : s_kk;
    for_each_key([&](uint32_t key, unsigned i) {
        const uint32_t m = key & mask;
        if (m > prefix) {
            radix_write<FIN>(a, atomicAdd(&s_gt, 1u), key, radix_pos<S, PosT>(a.in_pos, i));
        } else if (m == prefix) {
            const unsigned t = atomicAdd(&s_eq, 1u);
            if (t < tie_take) radix_write<FIN>(a, tie_base + t, key, radix_pos<S, PosT>(a.in_pos, i));
        }
    });
    if (threadIdx.x == 0) {
        *a.d_count = tie_base + tie_take;
        *a.d_threshold = prefix;
    }
}

/* Shared memory of the one-block path for n_max keys: the keys, then its
 * list of positions. */
static size_t radix_small_smem(unsigned long long n_max)
{
    return n_max * sizeof(uint32_t) + n_max / RADIX_SMALL_LIST_RATIO * sizeof(radix_small_list_t);
}

/* Keys the one-block path holds on the current device: RADIX_SMALL_N, or
 * fewer where the opt-in shared memory per block is smaller. */
static drtopk_status radix_small_keys(unsigned long long *keys)
{
    const drtopk_device_attrs *dev;
    const drtopk_status st = drtopk_device_current(NULL, &dev);
    if (st != DRTOPK_OK) return st;
    const size_t room = dev->smem_optin > RADIX_SMALL_STATIC_SMEM ? dev->smem_optin - RADIX_SMALL_STATIC_SMEM : 0;
    /* a key and 1/RADIX_SMALL_LIST_RATIO of a list entry each */
    const unsigned long long fit = room * RADIX_SMALL_LIST_RATIO /
                                   (RADIX_SMALL_LIST_RATIO * sizeof(uint32_t) + sizeof(radix_small_list_t));
    *keys = fit < RADIX_SMALL_N ? fit : RADIX_SMALL_N;
    return DRTOPK_OK;
}

/* The workspace, carved from `base` (NULL: only sized): [histograms |
 * counters | states] (8-byte members first: no padding; zeroed by one memset
 * of zero_bytes), then the compaction buffer's keys and positions.  Its
 * capacity in elements: candidates are compacted only when they are at most
 * len / RADIX_COMPACT_RATIO <= n_max / RADIX_COMPACT_RATIO, and never on the
 * one-block path. */
struct radix_layout {
    unsigned long long *hist;
    radix_counters *ctr;
    radix_state *st;
    size_t zero_bytes;
    uint32_t *buf_keys;
    void *buf_pos;
    size_t total;
};

static void radix_carve(const topk_input *in, unsigned long long small_keys, char *base, radix_layout *l)
{
    const unsigned long long cap = in->n_max <= small_keys ? 0 : in->n_max / RADIX_COMPACT_RATIO;
    const size_t pos_size = in->pos64 ? sizeof(uint64_t) : sizeof(uint32_t);
    size_t off = 0;
    l->hist = (unsigned long long *)drtopk_carve(base, &off,
                                                 RADIX_PASSES * RADIX_BINS * sizeof(unsigned long long) +
                                                     sizeof(radix_counters) + (RADIX_PASSES + 1) * sizeof(radix_state));
    l->ctr = base ? (radix_counters *)(l->hist + RADIX_PASSES * RADIX_BINS) : NULL;
    l->st = base ? (radix_state *)(l->ctr + 1) : NULL;
    l->buf_keys = (uint32_t *)drtopk_carve(base, &off, cap * sizeof(uint32_t));
    l->zero_bytes = off - cap * sizeof(uint32_t); /* the head with its padding */
    l->buf_pos = drtopk_carve(base, &off, cap * pos_size);
    l->total = drtopk_align_up(off, DRTOPK_WS_ALIGN);
}

extern "C" drtopk_status radix_topk_workspace(const topk_input *in, size_t *bytes)
{
    unsigned long long small_keys;
    radix_layout l;
    drtopk_status st = topk_check_input(in);
    if (st != DRTOPK_OK) return st;
    if (!bytes) return DRTOPK_ERR_INVALID_ARGUMENT;
    if ((st = radix_small_keys(&small_keys)) != DRTOPK_OK) return st;
    radix_carve(in, small_keys, NULL, &l);
    *bytes = l.total;
    return DRTOPK_OK;
}

/* One call for source kind S, dtype T and position type PosT
 * (drtopk_dispatch_source): the one-block path, or a memset and five passes
 * (four with digit0: pass 0's histogram given). */
template <int S, int T, typename PosT>
struct radix_run {
    static drtopk_status run(const topk_input *in, const topk_output *out, const topk_digit0 *digit0,
                             const topk_final_out *fin, void *ws, size_t ws_bytes, cudaStream_t s)
    {
        unsigned long long small_keys;
        drtopk_status st = radix_small_keys(&small_keys);
        if (st != DRTOPK_OK) return st;
        radix_layout l;
        radix_carve(in, small_keys, NULL, &l);
        if ((st = topk_check_run(in, out, ws, ws_bytes, l.total)) != DRTOPK_OK) return st;
        radix_carve(in, small_keys, (char *)ws, &l);

        radix_args<PosT> a;
        a.hist = l.hist;
        a.hist0 = digit0 ? digit0->d_hist : NULL;
        a.d_floor = digit0 ? digit0->d_floor : NULL;
        a.d_or = digit0 ? digit0->d_or : NULL;
        a.top = digit0 ? digit0->top : DRTOPK_ALL_ONES;
        a.ctr = l.ctr;
        a.st = l.st;
        a.buf_keys = l.buf_keys;
        a.buf_pos = (PosT *)l.buf_pos;
        a.in_bits = S == TOPK_SRC_RAW ? (const uint32_t *)in->raw : in->keys;
        a.in_pos = (const PosT *)in->pos;
        a.d_n = in->d_n;
        a.n_max = in->n_max;
        a.k = in->k;
        a.capacity = out->capacity;
        a.flip = (S == TOPK_SRC_RAW && in->order == DRTOPK_SMALLEST) ? DRTOPK_ALL_ONES : 0u;
        a.skip = in->skip_last_digit;
        a.out_keys = out->keys;
        a.out_pos = (PosT *)out->pos;
        a.fin = fin ? *fin : topk_final_out();
        a.inv = drtopk_key_inverse32_of(fin ? fin->dtype : DRTOPK_U32);
        a.fin16 = fin && drtopk_dtype_bits(fin->dtype) == 16;
        a.d_count = out->d_count;
        a.d_threshold = out->d_threshold;
        a.d_skip = in->d_skip;

        if (fin == NULL) return launch<false>(in, a, small_keys, l, ws, s);
        if (S == TOPK_SRC_PAIRS) return launch<S == TOPK_SRC_PAIRS>(in, a, small_keys, l, ws, s);
        return DRTOPK_ERR_INVALID_ARGUMENT; /* the final form is for ordered keys and positions only */
    }
    /* The one-block path, or a memset and the passes; FIN: results in the
     * final form (instantiated for TOPK_SRC_PAIRS alone, what onepass selects) */
    template <bool FIN>
    static drtopk_status launch(const topk_input *in, const radix_args<PosT> &a, unsigned long long small_keys,
                                const radix_layout &l, void *ws, cudaStream_t s)
    {
        const topk_source src = (topk_source)S;
        const drtopk_dtype dt = (drtopk_dtype)T;
        drtopk_status st;
        if (in->n_max <= small_keys) {
            st = drtopk_kernel_dynamic_smem((const void *)radix_small_kernel<src, dt, PosT, FIN>,
                                            radix_small_smem(small_keys));
            if (st != DRTOPK_OK) return st;
            radix_small_kernel<src, dt, PosT, FIN><<<1, RADIX_SMALL_THREADS, radix_small_smem(in->n_max), s>>>(a);
            DRTOPK_LAUNCH_CHECK();
            return DRTOPK_OK;
        }
        const drtopk_device_attrs *dev;
        int per_sm_pass, per_sm_final;
        if ((st = drtopk_device_current(NULL, &dev)) != DRTOPK_OK) return st;
        st = drtopk_kernel_occupancy((const void *)radix_pass_kernel<src, dt, PosT, FIN>, RADIX_THREADS, 0, NULL,
                                     &per_sm_pass);
        if (st != DRTOPK_OK) return st;
        st = drtopk_kernel_occupancy((const void *)radix_final_kernel<src, dt, PosT, FIN>, RADIX_THREADS, 0, NULL,
                                     &per_sm_final);
        if (st != DRTOPK_OK) return st;
        const int grid_pass = radix_grid(dev->sm_count, per_sm_pass, in->n_max);
        const int grid_final = radix_grid(dev->sm_count, per_sm_final, in->n_max);
        DRTOPK_CUDA_TRY(cudaMemsetAsync(ws, 0, l.zero_bytes, s));
        for (int p = a.hist0 ? 1 : 0; p < RADIX_PASSES; ++p) {
            radix_pass_kernel<src, dt, PosT, FIN><<<grid_pass, RADIX_THREADS, 0, s>>>(a, p);
            DRTOPK_LAUNCH_CHECK();
        }
        radix_final_kernel<src, dt, PosT, FIN><<<grid_final, RADIX_THREADS, 0, s>>>(a);
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
};

extern "C" drtopk_status radix_topk_hist0(const topk_input *in, const topk_output *out, const topk_digit0 *digit0,
                                          const topk_final_out *fin, void *ws, size_t ws_bytes, cudaStream_t s)
{
    drtopk_status st = topk_check_input(in);
    if (st == DRTOPK_OK) st = topk_check_io(in, out); /* before the device is asked */
    if (st != DRTOPK_OK) return st;
    if (fin && (fin->values == NULL || fin->indices == NULL || fin->v == NULL || in->skip_last_digit ||
                (drtopk_dtype_bits(fin->dtype) != 16 && drtopk_dtype_bits(fin->dtype) != 32)))
        return DRTOPK_ERR_INVALID_ARGUMENT;
    return drtopk_dispatch_source<radix_run>(in->src, in->dtype, in->pos64, in, out, digit0, fin, ws, ws_bytes, s);
}

extern "C" drtopk_status radix_topk(const topk_input *in, const topk_output *out, void *ws, size_t ws_bytes,
                                    cudaStream_t s)
{
    return radix_topk_hist0(in, out, NULL, NULL, ws, ws_bytes, s);
}
