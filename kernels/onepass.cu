/*
 * onepass.cu -- the one-read top-k on raw V (DRTOPK_ALGO_ONEPASS; beyond
 * the paper: its pipeline, sections 4-5, reads V about
 * three times at large k), for every key width: V is read at its own width
 * (2, 4 or 8 bytes a key, 16-byte loads), never widened.  The steps, the
 * decisions, why the answer is exact and the bytes each stage moves are in
 * src/lib/onepass_spec.h, which the CPU reference (cpu_ref.c) follows too.
 * Here, on one stream:
 *   1. onepass_sample_kernel: the S strided sample keys (and zeroes the
 *      counters of step 3);
 *   2. the r-th largest sampled key t: the sample select (op_sel below);
 *   3. onepass_pass_kernel: the one read of V, keys > t to the candidate
 *      buffer, positions of keys == t to the tie buffer (k slots, or under
 *      DRTOPK_DETERMINISTIC a list of up to OP_DET_TIE_LIST), through
 *      stream_tile.cuh's radix_for_each_staged (one atomic per class a tile,
 *      outputs staged per warp in shared memory and written in slot order);
 *      it compares V's own type with t in hardware (op_fast: a float compare
 *      costs what an integer one does, a 16-bit pair one instruction),
 *      classifies only the 16-byte loads where a key reaches t and, for
 *      32-bit CK, counts the stored candidates by their first 8-bit digit
 *      below the leading bits that every key in (t, largest CK] shares (the
 *      SELECT radix's first histogram) and ORs them (the candidates lie in
 *      (t, OR]: the leading bits of t and the OR, which clustered candidates
 *      share past the first digit, the SELECT radix then skips); for 64-bit
 *      CK, counts them by their top digit and takes their AND and OR (the
 *      wide select's pass 0, which then does not run: ws_input.d_hist0);
 *   4. onepass_decide_kernel (one thread): SELECT, TAKE or FALLBACK, and the
 *      device flags that gate the next three steps;
 *   5. the exact top-k of the candidates (length gt on the device), gated to
 *      run on SELECT only (32-bit CK: radix_topk_hist0, from step 3's
 *      histogram, without its first pass, and its digits below those shared
 *      leading bits: the top 6 of u32 UD's candidates at k = 2^24 of 2^30, 24
 *      of CD's, the 16 zeros of a 16-bit key and its leading ones, and after
 *      the first digit those of t and step 3's OR, so fewer passes read all
 *      the candidates); in onepass_topk_final it writes
 *      the result in the caller's final form itself (kernels.h's
 *      topk_final_out: step 8 folded into its output writes, so the k
 *      results are written once, not written, read back and written again;
 *      64-bit CK: where the wide select's collect is its multi-block one),
 *      and step 8 then returns at once on a SELECT;
 *   6. onepass_take_kernel: returns unless TAKE, else writes the candidates
 *      and k - gt ties (those step 9 picked, where it ran) as the result,
 *      in onepass_topk_final in the caller's final form (step 8's values
 *      and positions; step 8 then returns);
 *   7. the top-k of V, gated to run on FALLBACK only: for V of at most
 *      OP_FUSED_FALLBACK_MAX_N keys the fused top-k (small_n.cu), one
 *      launch, which costs about 3 us where it returns at once (on an H200
 *      the flag radix's memset and five launches cost 14-20 us even so, at
 *      every k, and the wide select takes 4 launches for 16-bit V, 10 for
 *      64-bit: 28 us at 2^26 keys); else the flag radix for 32-bit V,
 *      wide_select.cuh at V's width for the others;
 *   8. onepass_values_kernel (onepass_topk_final, what the pipeline calls
 *      unsorted): the caller's values from the result's ordered keys by
 *      keyorder.h's inverse, read and written in order, instead of the
 *      gather's k random reads of V (V is read only at keys that several bit
 *      patterns share: NaN, -0.0 and +0.0);
 *   9. before steps 6 and 8 where asked (topk_input.d_settled,
 *      DRTOPK_DETERMINISTIC), onepass_settle_kernel on SELECT and on a TAKE
 *      whose pass listed every tie: the result's ties at its k-th key
 *      become the ones of smallest position, found among the candidates or
 *      in the list (one cooperative launch; the kernel says how), and the
 *      flag is set; on a SELECT on the final form where step 5 wrote it
 *      (their values too), else on the result's keys and positions, which
 *      step 8 then turns into it; on a TAKE step 6 writes the ties picked.
 * Selects (op_sel): candidates and sample keys are 32-bit ordered keys for 16-
 * and 32-bit V (a 16-bit ordered key zero-extended is a 32-bit one of the same
 * order), selected by the flag radix (radix_topk.cu); 64-bit ones for 64-bit
 * V, selected by wide_select.cuh's radix select.  The fallback over V is step
 * 7's: the fused top-k, the flag radix or wide_select.cuh at V's width.
 * Every step is enqueued whatever the data; a gated step reads its flag and
 * returns at once.  No host round trip, every grid fixed on the host from n
 * and k, every buffer carved from the caller's workspace: the call is
 * capturable in a CUDA graph, like the pipeline.
 */
#include <string.h>
#include <cuda/functional>
#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "kernels.h"
#include "keyorder.h"
#include "onepass_spec.h"
#include "radix_pick.cuh"
#include "stream_tile.cuh"
#include "wide_select.cuh"

#define OP_BLOCK 256                /* threads of the sample, take and values kernels */
#define OP_GRID_MAX 1024u           /* the take and values kernels grid-stride past this */
/* A stand-in base address for the size query: aligned and non-NULL, because
 * radix_topk's workspace query validates its input pointers. */
#define OP_SIZING_BASE ((char *)(uintptr_t)DRTOPK_WS_ALIGN)
#define OP_WIDE_BITS 64             /* keys the flag radix cannot hold          */
/* Step 7 is the fused top-k up to here: one key past the most the size rules
 * give the fused top-k itself (32-bit keys, 2^(POLICY_FUSED_32_ONCE_LOG2 + 1)
 * - 1), so onepass reaches the fused top-k's own fallback only at sizes where
 * the automatic plan runs that kernel or nearly; the GPU suites force that
 * fallback at 2^25 + 3 keys (test_small_n, test_onepass) and at this bound
 * (test_onepass).  Larger V keeps the flag radix or the wide select, which
 * take any n. */
#define OP_FUSED_FALLBACK_MAX_N (1ull << 28)
static_assert(OP_FUSED_FALLBACK_MAX_N < FUSED_MAX_N, "the fused top-k takes fewer than FUSED_MAX_N keys");
/* Step 9 finds the m-th smallest position among the ties by a radix select
 * over position digits, one digit a pass: 8 bits, one histogram bin a thread
 * of an OP_BLOCK block; 8 passes cover a 64-bit position. */
#define OP_DET_DIGIT_BITS 8
#define OP_DET_BINS (1u << OP_DET_DIGIT_BITS)
#define OP_DET_PASSES_MAX 8
static_assert(OP_DET_BINS == OP_BLOCK, "step 9 takes one bin a thread");
static_assert(OP_DET_PASSES_MAX * OP_DET_DIGIT_BITS == 64, "the passes cover a 64-bit position");
/* Under DRTOPK_DETERMINISTIC (topk_input.det_ties) step 3 lists the ties of
 * t in up to min(n, this many) slots (at least k; 16 MB of 4-byte positions):
 * every tie of a 16-bit key in UD V of 2^30 keys (in [-1, 1), 2^-11 apart in
 * [0.5, 1): about 2^18 of each key near the top), so that step 9 settles a
 * TAKE from the list instead of deterministic.cu reading V again.  Where
 * the sample shows more (a V of few distinct keys) the pass lists none
 * (onepass_list_kernel); where it lists more after all, it stops counting
 * ties past the list, and deterministic.cu settles them. */
#define OP_DET_TIE_LIST (1ull << 22)
/* The pass compares floats in hardware (op_fast): flushing denormals to zero
 * would tie distinct keys. */
#ifdef __USE_FAST_MATH__
#error "kernels/onepass.cu needs exact float compares: build it without --use_fast_math"
#endif

/* Key types of a width: K the element bits (and ordered key) of V, CK the
 * ordered key the sample, the candidates and the result hold. */
template <int B> struct op_width;
template <> struct op_width<16> { typedef uint16_t K; typedef uint32_t CK; };
template <> struct op_width<32> { typedef uint32_t K; typedef uint32_t CK; };
template <> struct op_width<64> { typedef uint64_t K; typedef uint64_t CK; };
/* The largest 32-bit CK of V's keys K: a 16-bit ordered key zero-extended
 * stays below 2^16 (the candidates' first 16 bits are known). */
template <typename K> __host__ __device__ constexpr uint32_t op_top()
{
    return sizeof(K) == sizeof(uint16_t) ? 0xFFFFu : 0xFFFFFFFFu;
}

/* Device state of one call; the pass counters are zeroed by step 1. */
struct onepass_ctl {
    unsigned long long gt, eq;      /* keys > t, keys == t (step 3)            */
    uint64_t sel_n;                 /* candidates the SELECT radix reads       */
    uint64_t s_count;               /* the sample select's count (unused)      */
    unsigned long long hist0[TOPK_DIGIT0_BINS]; /* the stored candidates by their first
                                       digit (step 3), the SELECT radix's first
                                       histogram: 32-bit CK, below the bits they
                                       all share (radix_topk_hist0); 64-bit CK,
                                       the top digit (ws_input.d_hist0)          */
    uint32_t t32;                   /* t for 32-bit CK (the flag radix's)      */
    uint32_t c_or;                  /* 32-bit CK: OR of the stored candidates
                                       (step 3), which lie in (t, c_or]: the
                                       SELECT radix skips the bits they share   */
    uint64_t c_and64, c_or64;       /* 64-bit CK: AND and OR of the stored
                                       candidates (step 3; ws_input.d_and, d_or) */
    int mode;                       /* drtopk_onepass_mode (step 4)            */
    int skip_select, skip_fallback; /* gates of steps 5 and 7                  */
    ws_state thr, sel;              /* wide_select.cuh: t for 64-bit CK; the
                                       SELECT or FALLBACK select (one runs)     */
    /* topk_input.d_settled (step 9): w, the result's worst key (a SELECT's);
     * the candidates above w; the ties (candidates equal to w) listed, the
     * ones of smallest position picked and placed so far; each pass's
     * histogram of the ties' position digits */
    unsigned long long det_worst, det_above, det_listed, det_picked, det_placed;
    int det_scattered;              /* step 9: some of the result's last m slots do not hold w */
    int det_listing;                /* step 3 lists every tie (onepass_list_kernel) */
    int det_moved;                  /* step 9 on a TAKE: the m ties step 6 takes
                                       follow the candidates in c_pos            */
    unsigned long long det_hist[OP_DET_PASSES_MAX][OP_DET_BINS];
};

/* The workspace, carved from an aligned base, and the radix inputs. */
struct onepass_layout {
    int bits;                       /* key width of V                          */
    uint32_t top;                   /* 32-bit CK: the largest one (op_top)     */
    size_t cks, ps;                 /* bytes of a CK, of a position            */
    uint64_t s, r, cap;
    int det;                        /* topk_input.det_ties: ties listed        */
    uint64_t tie_cap;               /* tie slots: k, or the list (det)         */
    onepass_ctl *ctl;
    void *s_keys, *c_keys;          /* sample, candidates: CK each             */
    uint32_t *s_pos, *so_keys, *so_pos; /* sample positions and its top r     */
    void *c_pos, *tie_pos;
    void *radix_ws;
    uint64_t *ws_buf;               /* 64-bit CK: the candidate select's list of
                                       the keys its digits leave (ws_hist)     */
    uint64_t ws_buf_cap;
    int fused_fallback;             /* step 7 is the fused top-k               */
    void *fused_ws;
    size_t radix_bytes, fused_bytes, total;
    topk_input sample_in, cand_in, raw_in;
};

static drtopk_status onepass_carve(const topk_input *in, char *base, onepass_layout *l)
{
    const uint64_t n = in->n_max, k = in->k;
    size_t off = 0, need = 0;
    drtopk_status st;
    l->bits = drtopk_dtype_bits(in->dtype);
    l->top = l->bits == 16 ? op_top<uint16_t>() : op_top<uint32_t>();
    l->cks = l->bits == OP_WIDE_BITS ? sizeof(uint64_t) : sizeof(uint32_t);
    l->ps = in->pos64 ? sizeof(uint64_t) : sizeof(uint32_t);
    l->s = drtopk_onepass_sample_len(n);
    l->r = drtopk_onepass_rank(n, k, l->s);
    l->cap = drtopk_onepass_capacity(n, k, l->s, l->r);
    l->ctl = (onepass_ctl *)drtopk_carve(base, &off, sizeof(onepass_ctl));
    l->s_keys = drtopk_carve(base, &off, l->s * l->cks);
    l->s_pos = (uint32_t *)drtopk_carve(base, &off, l->s * sizeof(uint32_t));
    l->c_keys = drtopk_carve(base, &off, l->cap * l->cks);
    l->c_pos = drtopk_carve(base, &off, l->cap * l->ps);
    l->det = in->det_ties != 0;
    l->tie_cap = k;
    if (l->det) {
        const uint64_t list = n < OP_DET_TIE_LIST ? n : OP_DET_TIE_LIST;
        l->tie_cap = list > k ? list : k;
    }
    l->tie_pos = drtopk_carve(base, &off, l->tie_cap * l->ps);
    l->ws_buf_cap = l->cks == sizeof(uint64_t) ? l->cap / WS_COMPACT_RATIO : 0;
    l->ws_buf = (uint64_t *)drtopk_carve(base, &off, l->ws_buf_cap * sizeof(uint64_t));
    l->so_keys = l->so_pos = NULL;
    l->radix_bytes = 0;
    l->radix_ws = NULL;
    memset(&l->sample_in, 0, sizeof l->sample_in);
    memset(&l->cand_in, 0, sizeof l->cand_in);
    l->raw_in = *in;
    l->raw_in.d_skip = &l->ctl->skip_fallback;
    l->fused_fallback = n <= OP_FUSED_FALLBACK_MAX_N;
    l->fused_ws = NULL;
    l->fused_bytes = 0;
    if (l->fused_fallback) {
        if ((st = small_n_topk_workspace(&l->raw_in, &l->fused_bytes)) != DRTOPK_OK) return st;
        l->fused_ws = drtopk_carve(base, &off, l->fused_bytes);
    }
    if (l->cks == sizeof(uint32_t)) {
        l->so_keys = (uint32_t *)drtopk_carve(base, &off, l->r * sizeof(uint32_t));
        l->so_pos = (uint32_t *)drtopk_carve(base, &off, l->r * sizeof(uint32_t));
        l->sample_in.src = TOPK_SRC_PAIRS;
        l->sample_in.keys = (const uint32_t *)l->s_keys;
        l->sample_in.pos = l->s_pos;
        l->sample_in.n_max = l->s;
        l->sample_in.k = l->r;
        l->cand_in.src = TOPK_SRC_PAIRS;
        l->cand_in.keys = (const uint32_t *)l->c_keys;
        l->cand_in.pos = l->c_pos;
        l->cand_in.pos64 = in->pos64;
        l->cand_in.d_n = &l->ctl->sel_n;
        l->cand_in.n_max = l->cap;
        l->cand_in.k = k;
        l->cand_in.d_skip = &l->ctl->skip_select;
        /* the flag radix selects run one after another: one region serves
         * them; the fallback over V is the flag radix's for 32-bit V of
         * more than OP_FUSED_FALLBACK_MAX_N keys only */
        const topk_input *ins[] = { &l->sample_in, &l->cand_in, &l->raw_in };
        const int nins = l->bits == 32 && !l->fused_fallback ? 3 : 2;
        for (int i = 0; i < nins; ++i) {
            if ((st = radix_topk_workspace(ins[i], &need)) != DRTOPK_OK) return st;
            if (need > l->radix_bytes) l->radix_bytes = need;
        }
        l->radix_ws = drtopk_carve(base, &off, l->radix_bytes);
    }
    l->total = drtopk_align_up(off, DRTOPK_WS_ALIGN);
    return DRTOPK_OK;
}

/* Onepass reads raw V itself, whole (no device-side length), of any key
 * width (V aligned to its element size).  The other checks are the shared
 * ones (topk_args.cu), made on *w: `in` with a 32-bit stand-in for V of
 * another width. */
static drtopk_status onepass_check(const topk_input *in, topk_input *w)
{
    if (in == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    *w = *in;
    if (in->src == TOPK_SRC_RAW && (unsigned)in->dtype < DRTOPK_DTYPE_COUNT && drtopk_dtype_bits(in->dtype) != 32) {
        if (in->raw != NULL && (uintptr_t)in->raw % (drtopk_dtype_bits(in->dtype) / 8)) return DRTOPK_ERR_MISALIGNED;
        w->dtype = DRTOPK_U32;
        if (in->raw != NULL) w->raw = OP_SIZING_BASE;
    }
    const drtopk_status st = topk_check_input(w);
    if (st != DRTOPK_OK) return st;
    if (in->src != TOPK_SRC_RAW || in->d_n != NULL || in->d_skip != NULL) {
        drtopk_error_set("onepass runs on raw V of a known length only (standalone; not as a first or "
                         "second top-k of the pipeline)");
        return DRTOPK_ERR_UNSUPPORTED;
    }
    return DRTOPK_OK;
}

extern "C" drtopk_status onepass_topk_workspace(const topk_input *in, size_t *bytes)
{
    onepass_layout l;
    topk_input w;
    drtopk_status st = onepass_check(in, &w);
    if (st != DRTOPK_OK) return st;
    if (bytes == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    if ((st = onepass_carve(in, OP_SIZING_BASE, &l)) != DRTOPK_OK) return st;
    *bytes = l.total;
    return DRTOPK_OK;
}

/* The ordered key of raw bits of dtype T (largest order, then om: 0, or all
 * ones for the smallest). */
template <int T, typename K>
__device__ __forceinline__ K op_key(K bits, K om)
{
    return (K)(key_fns<K>::key(bits, (drtopk_dtype)T, DRTOPK_LARGEST) ^ om);
}

/* Step 3's comparison, without the ordered key of every element: keyorder.h's
 * compare words (as cheap for floats as for integers), at V's width. */
template <int T>
struct op_cmp {
    typedef typename op_width<drtopk_dtype_bits((drtopk_dtype)T)>::K K;
    K lo, hi, om;
    __device__ __forceinline__ op_cmp(K t, K om_) : om(om_) { key_fns<K>::range(t, (drtopk_dtype)T, om, &lo, &hi); }
    /* 1: key > t, 2: key == t, 0: below */
    __device__ __forceinline__ uint32_t cls(K b) const
    {
        const K u = key_fns<K>::word(b, (drtopk_dtype)T, om);
        return u > hi ? 1u : u >= lo ? 2u : 0u;
    }
};

/* The native value of element bits where the hardware compares it (floats:
 * NaN unordered, -0.0 == +0.0); 16-bit floats compare two keys, a 32-bit
 * word, at once. */
template <int T> struct op_val;
template <> struct op_val<DRTOPK_U32> {
    typedef uint32_t V;
    static __device__ __forceinline__ V of(uint32_t b) { return b; }
};
template <> struct op_val<DRTOPK_I32> {
    typedef int32_t V;
    static __device__ __forceinline__ V of(uint32_t b) { return (int32_t)b; }
};
template <> struct op_val<DRTOPK_F32> {
    typedef float V;
    static __device__ __forceinline__ V of(uint32_t b) { return __uint_as_float(b); }
};
template <> struct op_val<DRTOPK_U64> {
    typedef uint64_t V;
    static __device__ __forceinline__ V of(uint64_t b) { return b; }
};
template <> struct op_val<DRTOPK_I64> {
    typedef long long V;
    static __device__ __forceinline__ V of(uint64_t b) { return (long long)b; }
};
template <> struct op_val<DRTOPK_F64> {
    typedef double V;
    static __device__ __forceinline__ V of(uint64_t b) { return __longlong_as_double((long long)b); }
};
template <> struct op_val<DRTOPK_F16> {
    typedef __half2 V;
    static __device__ __forceinline__ V of(uint32_t w) { return *reinterpret_cast<const __half2 *>(&w); }
};
template <> struct op_val<DRTOPK_BF16> {
    typedef __nv_bfloat162 V;
    static __device__ __forceinline__ V of(uint32_t w) { return *reinterpret_cast<const __nv_bfloat162 *>(&w); }
};

/* t's value as op_val reads it: a 16-bit key twice, to compare pairs. */
__device__ __forceinline__ uint32_t op_bound_word(uint16_t b) { return (uint32_t)b | (uint32_t)b << 16; }
__device__ __forceinline__ uint32_t op_bound_word(uint32_t b) { return b; }
__device__ __forceinline__ uint64_t op_bound_word(uint64_t b) { return b; }

/* Step 3's classifier (stream_tile.cuh's radix_for_each_staged): keys of
 * V against t with the hardware's compares of V's own type, as cheap for
 * floats as for integers.  In the largest order (S false) a key is above t
 * iff !(x <= t) (floats: or NaN, which is above every number) and at or
 * above t iff !(x < t); in the smallest (S true) iff x < t and x <= t (NaN
 * below every number); equal to t iff x == t (floats: -0.0 == +0.0, which
 * share a key).  That is exact for every t but NaN, whose keys the hardware
 * cannot order: there (a V mostly NaN) every load takes the compare words
 * (op_cmp), which also classify the scalar head and tail.  16-bit floats
 * compare a pair of keys an instruction; any() is one compare a key (pair):
 * any<false> asks whether a key of the load reaches t, any<true> whether one
 * exceeds it (once enough ties are counted, onepass_spec.h step 3). */
template <int T>
struct op_fast_base {
    typedef typename op_width<drtopk_dtype_bits((drtopk_dtype)T)>::K K;
    typedef typename op_val<T>::V V;
    static constexpr int PV = tile_keys<K>::per_vec;
    op_cmp<T> exact;
    V bound;                        /* t's value                               */
    bool slow;                      /* t is NaN: the compare words every load  */
    __device__ __forceinline__ op_fast_base(K t, K om) : exact(t, om)
    {
        const K key = (K)(t ^ om); /* t's key in the largest order */
        slow = drtopk_dtype_is_float((drtopk_dtype)T) && key == (K)~(K)0u;
        bound = op_val<T>::of(op_bound_word((K)drtopk_bits_from_key_any(key, (drtopk_dtype)T)));
    }
    __device__ __forceinline__ uint32_t cls(K bits) const { return exact.cls(bits); }
    /* bit e of *gt (*eq): key e of the load is above (equal to) t, by op_cmp */
    __device__ __forceinline__ void exact_masks(const uint4 &r, uint32_t *gt, uint32_t *eq) const
    {
        uint32_t g = 0, q = 0;
#pragma unroll
        for (int e = 0; e < PV; ++e) {
            const uint32_t c = exact.cls(tile_keys<K>::at(r, e));
            g |= (uint32_t)(c == 1) << e;
            q |= (uint32_t)(c == 2) << e;
        }
        *gt = g;
        *eq = q;
    }
};

template <int T, bool S, int W = drtopk_dtype_bits((drtopk_dtype)T)>
struct op_fast : op_fast_base<T> {
    typedef op_fast_base<T> base;
    typedef typename base::K K;
    typedef typename base::V V;
    __device__ __forceinline__ op_fast(K t, K om) : base(t, om) {}
    template <bool STRICT>
    __device__ __forceinline__ bool any(const uint4 &r) const
    {
        bool a = this->slow;
#pragma unroll
        for (int e = 0; e < base::PV; ++e) {
            const V x = op_val<T>::of(tile_keys<K>::at(r, e));
            if (STRICT) a |= S ? x < this->bound : !(x <= this->bound);
            else a |= S ? x <= this->bound : !(x < this->bound);
        }
        return a;
    }
    __device__ __forceinline__ void masks(const uint4 &r, uint32_t *gt, uint32_t *eq) const
    {
        if (this->slow) return this->exact_masks(r, gt, eq);
        uint32_t g = 0, q = 0;
#pragma unroll
        for (int e = 0; e < base::PV; ++e) {
            const V x = op_val<T>::of(tile_keys<K>::at(r, e));
            g |= (uint32_t)(S ? x < this->bound : !(x <= this->bound)) << e;
            q |= (uint32_t)(x == this->bound) << e;
        }
        *gt = g;
        *eq = q;
    }
};
/* 16-bit floats: a 32-bit word of two keys (low half: key 2i of the load)
 * a compare; a mask compare gives 0xFFFF a half, bits 15 and 16 of which
 * become bits 2i and 2i + 1. */
#define OP_HALF_MASK_SHIFT 15
#define OP_HALF_MASK_BITS 3u
template <int T, bool S>
struct op_fast<T, S, 16> : op_fast_base<T> {
    typedef op_fast_base<T> base;
    typedef typename base::V V;
    __device__ __forceinline__ op_fast(uint16_t t, uint16_t om) : base(t, om) {}
    template <bool STRICT>
    __device__ __forceinline__ bool any(const uint4 &r) const
    {
        const uint32_t w[] = { r.x, r.y, r.z, r.w };
        bool a = this->slow;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const V x = op_val<T>::of(w[i]);
            if (STRICT) a |= S ? !__hbgeu2(x, this->bound) : !__hble2(x, this->bound);
            else a |= S ? !__hbgtu2(x, this->bound) : !__hblt2(x, this->bound);
        }
        return a;
    }
    __device__ __forceinline__ void masks(const uint4 &r, uint32_t *gt, uint32_t *eq) const
    {
        if (this->slow) return this->exact_masks(r, gt, eq);
        const uint32_t w[] = { r.x, r.y, r.z, r.w };
        uint32_t g = 0, q = 0;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const V x = op_val<T>::of(w[i]);
            const uint32_t gm = S ? __hlt2_mask(x, this->bound) : __hgtu2_mask(x, this->bound);
            const uint32_t qm = __heq2_mask(x, this->bound);
            g |= (gm >> (OP_HALF_MASK_SHIFT - 2 * i)) & (OP_HALF_MASK_BITS << 2 * i);
            q |= (qm >> (OP_HALF_MASK_SHIFT - 2 * i)) & (OP_HALF_MASK_BITS << 2 * i);
        }
        *gt = g;
        *eq = q;
    }
};

/* Step 1. */
template <int T, typename K, typename CK>
__global__ void onepass_sample_kernel(const K *__restrict__ v, uint64_t n, uint64_t s, K om, CK *s_keys,
                                      uint32_t *s_pos, onepass_ctl *ctl)
{
    const uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j == 0) {
        ctl->gt = ctl->eq = 0;
        ctl->c_or = 0;
        ctl->c_and64 = ~0ull;
        ctl->c_or64 = 0;
        ctl->det_worst = ~0ull;
        ctl->det_above = ctl->det_listed = ctl->det_picked = ctl->det_placed = 0;
        ctl->det_scattered = ctl->det_listing = ctl->det_moved = 0;
    }
    if (blockIdx.x == 0) /* step 9's histograms: one bin a thread (OP_DET_BINS == OP_BLOCK) */
        for (int p = 0; p < OP_DET_PASSES_MAX; ++p) ctl->det_hist[p][threadIdx.x] = 0;
    if (j < TOPK_DIGIT0_BINS) ctl->hist0[j] = 0; /* the grid has OP_BLOCK >= that many threads */
    if (j < s) {
        s_keys[j] = op_key<T>(__ldg(v + drtopk_onepass_sample_pos(n, s, j)), om);
        s_pos[j] = (uint32_t)j;
    }
}

/* Whether step 3 keeps its loads for the candidates' keys (4- and 8-byte
 * keys; stream_tile.cuh's RAW). */
template <typename K> __host__ __device__ constexpr bool op_keeps_raw() { return sizeof(K) >= sizeof(uint32_t); }

/* Under DRTOPK_DETERMINISTIC, before step 3 (one block): whether the pass
 * lists every tie of t (ctl->det_listing), which step 9 needs on a TAKE
 * only and which costs the pass a staged entry a tie it would not keep
 * (f16 UD at 2^30 keys: 2^18 of them, 11-30 us on an H200) and step 9 a
 * radix select over them (~20 us): drtopk_onepass_lists_ties of the
 * sample's keys above and equal to t.  A thread reads OP_LIST_VECS 16-byte
 * vectors of the S sampled keys at once (the sample is carved 16-byte
 * aligned). */
#define OP_LIST_THREADS 1024            /* the sample (2^15 keys) in 8 or 16 vectors a thread */
#define OP_LIST_VECS 4                  /* 16-byte loads a thread has in flight before it counts */
template <typename CK>
__global__ void __launch_bounds__(OP_LIST_THREADS)
    onepass_list_kernel(const CK *__restrict__ s_keys, uint64_t s, const CK *d_t, uint64_t n, uint64_t k,
                        uint64_t tie_cap, onepass_ctl *ctl)
{
    typedef cub::BlockReduce<unsigned, OP_LIST_THREADS> reduce_t;
    __shared__ typename reduce_t::TempStorage tmp;
    constexpr int per_vec = (int)(sizeof(uint4) / sizeof(CK));
    pdl_wait();                 /* after the threshold's select */
    pdl_launch_dependents();    /* step 3 waits for this grid's end */
    const CK t = *d_t;
    unsigned above = 0, equal = 0;
    const auto count = [&](CK x) {
        above += x > t;
        equal += x == t;
    };
    const uint64_t nv = s / per_vec;
    const uint4 *sv = (const uint4 *)s_keys;
    for (uint64_t v0 = 0; v0 < nv; v0 += (uint64_t)OP_LIST_THREADS * OP_LIST_VECS) {
        uint4 x[OP_LIST_VECS];
#pragma unroll
        for (int j = 0; j < OP_LIST_VECS; ++j) {
            const uint64_t v = v0 + (uint64_t)j * OP_LIST_THREADS + threadIdx.x;
            x[j] = v < nv ? sv[v] : make_uint4(0, 0, 0, 0);
        }
#pragma unroll
        for (int j = 0; j < OP_LIST_VECS; ++j) {
            if (v0 + (uint64_t)j * OP_LIST_THREADS + threadIdx.x >= nv) continue;
            CK key[per_vec];
            memcpy(key, &x[j], sizeof x[j]);
#pragma unroll
            for (int e = 0; e < per_vec; ++e) count(key[e]);
        }
    }
    for (uint64_t j = nv * per_vec + threadIdx.x; j < s; j += OP_LIST_THREADS) count(s_keys[j]);
    const unsigned a = reduce_t(tmp).Sum(above);
    __syncthreads();            /* tmp again */
    const unsigned b = reduce_t(tmp).Sum(equal);
    if (threadIdx.x == 0) ctl->det_listing = drtopk_onepass_lists_ties(n, k, s, a, b, tie_cap);
}

/* Step 3: the one read of V; S: the smallest order (om all ones).  A
 * candidate's key comes from the staged loop's raw tile (dynamic shared
 * memory: radix_staged_raw_bytes()), for 2-byte keys from V again (the line
 * read a tile before; radix_for_each_staged says why).  For 32-bit CK the
 * block also counts its stored candidates by their top digit in shared
 * memory and adds them to ctl->hist0 at its end: on SELECT (gt <= cap: every
 * candidate stored) that is the candidate radix's pass 0, which then does
 * not run (a block counts fewer than 2^32: n / grid keys).  64-bit CK: the
 * same by the top digit, with the AND and OR of the stored candidates into
 * ctl->c_and64 and c_or64 (the wide select's pass 0).  DENSE: every load is
 * classified (op_dense).  The ties' positions go to tie_pos[0, tie_cap);
 * where ctl->det_listing (onepass_list_kernel) it lists them all. */
template <int T, bool S, bool DENSE, typename K, typename CK, typename PosT>
__global__ void __launch_bounds__(RADIX_THREADS, RADIX_MIN_BLOCKS)
    onepass_pass_kernel(const K *__restrict__ v, uint64_t n, K om, onepass_ctl *ctl, const CK *d_t, uint64_t cap,
                        uint64_t k, uint64_t tie_cap, CK *c_keys, PosT *c_pos, PosT *tie_pos)
{
    pdl_wait();                 /* launched dependent on the threshold's select */
    pdl_launch_dependents();    /* step 4's one thread may take its slot now */
    constexpr bool wide = sizeof(CK) == sizeof(uint64_t);
    __shared__ uint32_t sh_hist[TOPK_DIGIT0_BINS];
    __shared__ CK sh_or, sh_and; /* OR (and, 64-bit CK, AND) of the block's stored candidates */
    /* the SELECT radix's first digit: 32-bit CK, below the bits every
     * candidate (> t) shares with the largest key (radix_topk_hist0); 64-bit
     * CK, the top one (the wide select's pass 0) */
    const int shift0 = wide ? (int)(8 * sizeof(CK)) - TOPK_DIGIT0_BITS
                            : topk_digit_shift(topk_known_bits((uint32_t)*d_t, op_top<K>()), 0);
    for (unsigned i = threadIdx.x; i < TOPK_DIGIT0_BINS; i += blockDim.x) sh_hist[i] = 0;
    if (threadIdx.x == 0) {
        sh_or = 0;
        sh_and = (CK)~(CK)0u;
    }
    __syncthreads();
    extern __shared__ radix_raw_tile op_raw[];
    const bool list = ctl->det_listing != 0;
    const op_fast<T, S> c((K)*d_t, om);
    CK c_or = 0, c_and = (CK)~(CK)0u; /* of this thread's stored candidates (c_and: 64-bit CK) */
    const auto emit = [&](uint32_t cl, K bits, unsigned long long i, unsigned long long o) {
        if (cl == 1) {
            if (o < cap) {
                const CK key = op_key<T>(op_keeps_raw<K>() ? bits : __ldg(v + i), om);
                c_keys[o] = key;
                c_pos[o] = (PosT)i;
                atomicAdd(&sh_hist[(uint32_t)(key >> shift0) & (TOPK_DIGIT0_BINS - 1u)], 1u);
                c_or |= key;
                if (wide) c_and &= key;
            }
        } else if (o < tie_cap) {
            tie_pos[o] = (PosT)i;
        }
    };
    /* ties until the counts reach k (onepass_spec.h step 3); where listed,
     * until gt alone reaches k (a SELECT, which takes none) or eq passes
     * tie_cap (gt < k, and eq > tie_cap: the list overflowed), so that on a
     * TAKE with eq <= tie_cap every tie is listed */
    radix_for_each_staged<op_keeps_raw<K>(), DENSE>(v, n, &ctl->gt, &ctl->eq, k, list ? k + tie_cap : k, c, op_raw,
                                                    emit);
    /* warp, then block, then one global atomic a block: same-address global
     * atomics serialize, and small V has few keys a warp */
    const bool lead = (threadIdx.x & DRTOPK_LANE_MASK) == 0;
    if constexpr (wide) {
        c_or = warp_or64(c_or);
        c_and = warp_and64(c_and);
        if (lead && c_or != 0u) atomicOr_block((unsigned long long *)&sh_or, (unsigned long long)c_or);
        if (lead && c_and != (CK)~(CK)0u) atomicAnd_block((unsigned long long *)&sh_and, (unsigned long long)c_and);
    } else {
        c_or = __reduce_or_sync(DRTOPK_FULL_MASK, c_or);
        if (lead && c_or != 0u) atomicOr_block(&sh_or, c_or);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        if constexpr (wide) {
            if (sh_or != 0u) atomicOr((unsigned long long *)&ctl->c_or64, (unsigned long long)sh_or);
            if (sh_and != (CK)~(CK)0u) atomicAnd((unsigned long long *)&ctl->c_and64, (unsigned long long)sh_and);
        } else if (sh_or != 0u) {
            atomicOr(&ctl->c_or, sh_or);
        }
    }
    for (unsigned i = threadIdx.x; i < TOPK_DIGIT0_BINS; i += blockDim.x)
        if (sh_hist[i]) atomicAdd(&ctl->hist0[i], (unsigned long long)sh_hist[i]);
}

/* Whether step 3 classifies every 16-byte load of V without first asking
 * whether one of its keys reaches t (radix_for_each_staged's DENSE): where
 * the candidates, at most cap of n keys, average OP_DENSE_PER_LOAD or more a
 * warp's load (DRTOPK_WARP loads of PV keys), nearly every warp's load holds
 * one and the test is work on top of the classification.  On an H200
 * (GPU-1dccded8), every load classified: 3.0-3.5% faster at 2.75 a warp's
 * load (u32 2^30, k = 2^24, where 87% of the loads hold one; u32 2^26, k =
 * 2^20: 1-2%), 2-4% at 5.5 (f16 2^28, k = 2^22), 0.8-1.3% slower at 1.4-1.8
 * (u64 2^30, k = 2^24; bf16 CD 2^28, k = 2^20). */
#define OP_DENSE_PER_LOAD 2
template <typename K> static bool op_dense(uint64_t n, uint64_t cap)
{
    return cap * (uint64_t)(DRTOPK_WARP * tile_keys<K>::per_vec) >= OP_DENSE_PER_LOAD * n;
}

/* Step 4. */
__global__ void onepass_decide_kernel(onepass_ctl *ctl, uint64_t k, uint64_t cap)
{
    pdl_wait();
    const drtopk_onepass_mode m = drtopk_onepass_decide(ctl->gt, ctl->eq, k, cap);
    ctl->mode = (int)m;
    ctl->sel_n = ctl->gt < cap ? ctl->gt : cap;
    ctl->skip_select = m != DRTOPK_ONEPASS_SELECT;
    ctl->skip_fallback = m != DRTOPK_ONEPASS_FALLBACK;
}

/* Step 8's value of one result: a key held by one bit pattern gives the
 * value by keyorder.h's inverse; the keys that several patterns share
 * (floats: NaN payloads, -0.0 and +0.0) read V at the position, so the
 * value is V's bits always. */
template <int T, typename K, typename CK>
__device__ __forceinline__ K op_value(const K *__restrict__ v, K om, CK ck, uint64_t q)
{
    const K key = (K)((K)ck ^ om);
    return drtopk_key_is_shared(key, (drtopk_dtype)T) ? v[q] : (K)drtopk_bits_from_key_any(key, (drtopk_dtype)T);
}

/* Step 6: the result is every candidate and k - gt ties (the k-th key is t),
 * those of the tie buffer, or where step 9 picked them (det_moved) those
 * following the candidates in c_pos; d_threshold (32-bit CK only, else NULL)
 * gets t.  With out_v (the final form, onepass_topk_final) it writes step
 * 8's values and 64-bit positions itself, and step 8 returns at once on a
 * TAKE. */
template <int T, typename K, typename CK, typename PosT>
__global__ void onepass_take_kernel(const onepass_ctl *ctl, const CK *d_t, uint64_t k, const CK *c_keys,
                                    const PosT *c_pos, const PosT *tie_pos, CK *out_keys, PosT *out_pos,
                                    uint64_t *d_count, uint32_t *d_threshold, const K *__restrict__ v, K om,
                                    K *__restrict__ out_v, uint64_t *__restrict__ out_i)
{
    pdl_wait();
    if (ctl->mode != DRTOPK_ONEPASS_TAKE) return;
    const uint64_t gt = ctl->gt, stride = (uint64_t)gridDim.x * blockDim.x;
    const CK t = *d_t;
    const bool moved = ctl->det_moved != 0;
    const uint64_t first = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (uint64_t i = first; i < k; i += stride) {
        const bool cand = i < gt;
        const CK key = cand ? c_keys[i] : t;
        const PosT pos = cand || moved ? c_pos[i] : tie_pos[i - gt];
        if (out_v) {
            out_v[i] = op_value<T>(v, om, key, (uint64_t)pos);
            out_i[i] = (uint64_t)pos;
        } else {
            out_keys[i] = key;
            out_pos[i] = pos;
        }
    }
    if (first == 0) {
        *d_count = k;
        if (d_threshold) *d_threshold = (uint32_t)t;
    }
}

/* Step 8 (onepass_topk_final): the caller's values and 64-bit indices from
 * the result's ordered keys and positions, read in order: a key held by one
 * bit pattern gives the value by keyorder.h's inverse, and only the keys that
 * several patterns share (floats: NaN payloads, -0.0 and +0.0) read V at
 * their position, so the value is V's bits always. */
template <int T, typename K, typename CK, typename PosT>
__global__ void onepass_values_kernel(const K *__restrict__ v, uint64_t k, K om, const CK *__restrict__ keys,
                                      const PosT *__restrict__ pos, K *__restrict__ out_v, uint64_t *__restrict__ out_i,
                                      const onepass_ctl *ctl, int direct)
{
    pdl_wait();
    /* a TAKE's step 6 wrote the final form, and where direct a SELECT's step 5 */
    if (ctl->mode == DRTOPK_ONEPASS_TAKE || (direct && ctl->mode == DRTOPK_ONEPASS_SELECT)) return;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < k; i += stride) {
        const uint64_t q = (uint64_t)pos[i];
        out_v[i] = op_value<T>(v, om, keys[i], q);
        out_i[i] = q;
    }
}

/* Step 9 (topk_input.d_settled; DRTOPK_DETERMINISTIC, deterministic.cu):
 * the result made the k best (key, position) pairs, and the flag set.  On a
 * SELECT every key of V above t is a candidate and the result's worst key w
 * is above t, so V's keys equal to w are exactly the candidates equal to w:
 * E ties, of which the result holds m = k - (candidates above w).  One read
 * of the candidates counts those above w and lists the ties' positions in
 * the tie buffer (which SELECT does not use; the first tie_cap of them).  On
 * a TAKE w = t, the pass listed the E = eq ties (where it listed them,
 * onepass_list_kernel, and eq <= tie_cap: every one; else step 9 returns
 * and deterministic.cu reads V) and the result takes m = k - gt.  E == m:
 * the result is final.  Else the m ties of smallest position are picked:
 * for E <= OP_DET_RANK_MAX by comparing every pair (a tie's rank is the
 * number of ties of smaller position), else as the ones at or below P, the
 * m-th smallest tie position, which a radix select over the positions'
 * digits finds (8 bits a pass, the top digit first), reading the ties from
 * the list (E <= tie_cap) or from the candidates again.  A TAKE's m go after its candidates in c_pos, where
 * step 6 takes them.  A SELECT's m slots holding w then take those
 * positions (and, in the final form, the value of w at them: V's bits): its
 * last m slots where they hold w (the flag radix writes the ties there),
 * else found by a scan of the result.  One cooperative launch: a grid
 * barrier between the phases, each block taking the same decisions from the
 * grid's totals (every block reaches every barrier or none). */
namespace cg = cooperative_groups;

__device__ __forceinline__ void op_grid_sync()
{
    if (gridDim.x > 1) cg::this_grid().sync();
    else __syncthreads();
}

/* x >> s for s in [0, 64] */
__device__ __forceinline__ uint64_t op_shr(uint64_t x, int s) { return s >= 64 ? 0 : x >> s; }

#define OP_DET_ITEMS 16     /* keys a thread loads a tile of step 9's scans: 16 loads in flight before the scan */
#define OP_DET_VECS 4       /* 16-byte loads of candidates a thread issues before its count compares them      */
#define OP_DET_RANK_MAX 1024 /* ties ranked by comparing every pair: a block's shared copy of the list (8 KB)  */

typedef cub::BlockScan<unsigned, OP_BLOCK> op_det_scan;

/* Step 9's claim of a tile's slots: this thread's c items take slots of
 * *counter after those of the warps before it, the warp's in item order and
 * by lane within an item (so a warp's stores of one item are adjacent).
 * Returns an op_det_warp_slots whose next(bit) gives the slot of this
 * thread's next item (bit: it is one; every lane calls it the same number of
 * times).  Every thread of the block calls it (a block scan); the caller
 * syncs before sh_base and tmp are used again. */
struct op_det_warp_slots {
    unsigned long long at;      /* the warp's next slot */
    __device__ __forceinline__ unsigned long long next(bool bit)
    {
        const unsigned b = __ballot_sync(DRTOPK_FULL_MASK, bit), lane = threadIdx.x % DRTOPK_WARP;
        const unsigned long long slot = at + (unsigned)__popc(b & ((1u << lane) - 1u));
        at += (unsigned)__popc(b);
        return slot;
    }
};
__device__ __forceinline__ op_det_warp_slots op_det_slots(unsigned c, unsigned long long *counter,
                                                          op_det_scan::TempStorage &tmp, unsigned long long &sh_base)
{
    unsigned before, total;
    op_det_scan(tmp).ExclusiveSum(c, before, total);
    if (threadIdx.x == 0 && total) sh_base = atomicAdd(counter, (unsigned long long)total);
    __syncthreads();
    /* the warp's first slot: its lane 0's, after every thread before the warp */
    return op_det_warp_slots{ sh_base + __shfl_sync(DRTOPK_FULL_MASK, before, 0) };
}

/* Step 9's compactions: over i in [0, len), tiles of OP_BLOCK * OP_DET_ITEMS
 * (each thread's loads issued before the tile's one block scan), the i where
 * want(i) holds claim slots of *counter (op_det_slots), and emit(i, slot)
 * runs for each.  Block-uniform trip counts (every thread reaches the scans). */
template <typename Want, typename Emit>
__device__ __forceinline__ void op_det_claim(uint64_t len, unsigned long long *counter, Want want, Emit emit,
                                             op_det_scan::TempStorage &tmp, unsigned long long &sh_base)
{
    const uint64_t span = (uint64_t)OP_BLOCK * OP_DET_ITEMS;
    for (uint64_t tile = (uint64_t)blockIdx.x * span; tile < len; tile += (uint64_t)gridDim.x * span) {
        bool w[OP_DET_ITEMS];
        unsigned c = 0;
#pragma unroll
        for (int j = 0; j < OP_DET_ITEMS; ++j) {
            const uint64_t i = tile + (uint64_t)j * OP_BLOCK + threadIdx.x;
            w[j] = i < len && want(i);
            c += w[j];
        }
        op_det_warp_slots slots = op_det_slots(c, counter, tmp, sh_base);
        if (__any_sync(DRTOPK_FULL_MASK, c != 0)) {
#pragma unroll
            for (int j = 0; j < OP_DET_ITEMS; ++j) {
                const unsigned long long slot = slots.next(w[j]);
                if (w[j]) emit(tile + (uint64_t)j * OP_BLOCK + threadIdx.x, slot);
            }
        }
        __syncthreads();        /* sh_base and tmp are reused by the next tile */
    }
}

/* Step 9's read of the candidates c_keys[0, cn): returns this thread's count
 * of those above w, and lists the positions of those equal to w in
 * tie_pos[0, cap) (*listed counts them all, listed or not).  Tiles of
 * OP_BLOCK threads, each loading OP_DET_VECS 16-byte vectors of keys before
 * one block scan of the tile's ties (c_keys is 16-byte aligned: a
 * workspace region). */
template <typename CK, typename PosT>
__device__ unsigned long long op_det_count(const CK *__restrict__ c_keys, const PosT *__restrict__ c_pos,
                                           uint64_t cn, CK w, uint64_t cap, PosT *tie_pos,
                                           unsigned long long *listed, op_det_scan::TempStorage &tmp,
                                           unsigned long long &sh_base)
{
    constexpr int per_vec = (int)(sizeof(uint4) / sizeof(CK)), items = OP_DET_VECS * per_vec;
    static_assert(items <= 32, "a thread's ties of a tile are the bits of one word");
    const uint64_t span = (uint64_t)OP_BLOCK * items;
    /* the candidate of this thread's item e in a tile */
    const auto index = [&](uint64_t tile, int e) {
        return tile + ((uint64_t)(e / per_vec) * OP_BLOCK + threadIdx.x) * per_vec + (uint64_t)(e % per_vec);
    };
    unsigned long long above = 0;
    for (uint64_t tile = (uint64_t)blockIdx.x * span; tile < cn; tile += (uint64_t)gridDim.x * span) {
        CK key[items];
        uint32_t in = ~0u;      /* bit e: item e lies in [0, cn) */
        if (tile + span <= cn) {
            const uint4 *cv = (const uint4 *)(c_keys + tile);
            uint4 x[OP_DET_VECS];
#pragma unroll
            for (int j = 0; j < OP_DET_VECS; ++j) x[j] = cv[(uint64_t)j * OP_BLOCK + threadIdx.x];
#pragma unroll
            for (int j = 0; j < OP_DET_VECS; ++j) memcpy(&key[j * per_vec], &x[j], sizeof x[j]);
        } else {
            in = 0;
#pragma unroll
            for (int e = 0; e < items; ++e) {
                const uint64_t i = index(tile, e);
                key[e] = i < cn ? c_keys[i] : (CK)0;
                in |= (uint32_t)(i < cn) << e;
            }
        }
        uint32_t eq = 0;        /* bit e: item e equals w */
#pragma unroll
        for (int e = 0; e < items; ++e) {
            above += (in >> e & 1u) && key[e] > w;
            eq |= (uint32_t)((in >> e & 1u) && key[e] == w) << e;
        }
        op_det_warp_slots slots = op_det_slots((unsigned)__popc(eq), listed, tmp, sh_base);
        if (__any_sync(DRTOPK_FULL_MASK, eq != 0)) {
            PosT pos[items];    /* the ties' positions, loaded before any is stored */
#pragma unroll
            for (int e = 0; e < items; ++e) pos[e] = (eq >> e & 1u) ? c_pos[index(tile, e)] : (PosT)0;
#pragma unroll
            for (int e = 0; e < items; ++e) {
                const bool tie = (eq >> e & 1u) != 0;
                const unsigned long long slot = slots.next(tie);
                if (tie && slot < cap) tie_pos[slot] = pos[e];
            }
        }
        __syncthreads();        /* sh_base and tmp are reused by the next tile */
    }
    return above;
}

template <int T, typename K, typename CK, typename PosT>
__global__ void __launch_bounds__(OP_BLOCK)
    onepass_settle_kernel(const CK *__restrict__ out_keys, PosT *out_pos, K *out_v, uint64_t *out_i,
                          const K *__restrict__ v, K om, uint64_t k, const uint32_t *d_kth,
                          const CK *__restrict__ c_keys, PosT *c_pos, PosT *tie_pos, uint64_t tie_cap, int pos_bits,
                          onepass_ctl *ctl, int *d_settled)
{
    typedef cub::BlockReduce<unsigned long long, OP_BLOCK> reduce_t;
    __shared__ union {
        typename reduce_t::TempStorage reduce;
        typename radix_pick_scan<unsigned long long, OP_BLOCK>::TempStorage scan;
        op_det_scan::TempStorage claim;
        uint64_t ties[OP_DET_RANK_MAX];
    } tmp;
    __shared__ unsigned sh_hist[OP_DET_BINS];
    __shared__ unsigned long long sh_base;
    __shared__ radix_pick<unsigned long long> sh_pick;
    const bool take = ctl->mode == DRTOPK_ONEPASS_TAKE; /* the same in every block */
    if (ctl->mode == DRTOPK_ONEPASS_FALLBACK || (take && (!ctl->det_listing || ctl->eq > tie_cap))) return;
    const uint64_t stride = (uint64_t)gridDim.x * OP_BLOCK, first = (uint64_t)blockIdx.x * OP_BLOCK + threadIdx.x;
    const int passes = (pos_bits + OP_DET_DIGIT_BITS - 1) / OP_DET_DIGIT_BITS;
    /* result slot i's ordered key: out_keys, or from the final form's value */
    const auto key_at = [&](uint64_t i) { return out_v != NULL ? (CK)op_key<T>(out_v[i], om) : out_keys[i]; };

    /* the ties of w, E of them, and m, how many the result takes: a TAKE's
     * w is t, every tie listed; a SELECT's w is the k-th key (d_kth, else
     * the result's worst), its ties listed by a read of the candidates */
    unsigned long long ties, m;
    CK w = 0;
    uint64_t cn = 0;
    if (take) {
        ties = ctl->eq;
        m = k - ctl->gt;
    } else {
        if (d_kth == NULL) {
            unsigned long long wk = ~0ull;
            for (uint64_t i = first; i < k; i += stride) {
                const unsigned long long key = key_at(i);
                wk = key < wk ? key : wk;
            }
            wk = reduce_t(tmp.reduce).Reduce(wk, cuda::minimum<unsigned long long>());
            if (threadIdx.x == 0) atomicMin(&ctl->det_worst, wk);
        } else if (first == 0) {
            ctl->det_worst = *d_kth;
        }
        op_grid_sync();
        w = (CK)ctl->det_worst;
        cn = ctl->sel_n;
        unsigned long long above = op_det_count<CK, PosT>(c_keys, c_pos, cn, w, tie_cap, tie_pos,
                                                          &ctl->det_listed, tmp.claim, sh_base);
        above = reduce_t(tmp.reduce).Sum(above);
        if (threadIdx.x == 0 && above) atomicAdd(&ctl->det_above, above);
        op_grid_sync();
        ties = ctl->det_listed;
        m = k - ctl->det_above;
    }
    if (ties == m) {            /* every tie taken: final (the same in every block) */
        if (first == 0) *d_settled = 1;
        return;
    }
    /* are a SELECT's m ties its last m slots?  (read by the placement,
     * after the next grid barrier) */
    if (!take)
        for (uint64_t i = first; i < m; i += stride)
            if (key_at(k - m + i) != w) ctl->det_scattered = 1;
    const bool from_list = ties <= tie_cap;
    /* where the m ties of smallest position go: a TAKE's after its
     * candidates (step 6 reads them there), a SELECT's where the placement
     * reads them */
    PosT *picked = take ? c_pos + ctl->gt : c_pos;
    if (from_list && ties <= OP_DET_RANK_MAX) {
        /* every pair compared, by the blocks holding a tie: picked[rank] */
        if ((uint64_t)blockIdx.x * OP_BLOCK < ties) {
            for (uint64_t j = threadIdx.x; j < ties; j += OP_BLOCK) tmp.ties[j] = (uint64_t)tie_pos[j];
            __syncthreads();
            for (uint64_t i = first; i < ties; i += stride) {
                const uint64_t pos = tmp.ties[i];
                unsigned long long rank = 0;
                for (uint64_t j = 0; j < ties; ++j) rank += tmp.ties[j] < pos;
                if (rank < m) picked[rank] = (PosT)pos;
            }
        }
    } else {
        const uint64_t len = from_list ? ties : cn;
        const auto tie_at = [&](uint64_t i, uint64_t *pos) {
            if (!from_list && c_keys[i] != w) return false;
            *pos = (uint64_t)(from_list ? tie_pos[i] : c_pos[i]);
            return true;
        };
        /* P, the m-th smallest tie position, prefix by prefix */
        uint64_t prefix = 0;
        unsigned long long rank = m; /* its rank among the ties under the prefix, from 1 */
        for (int p = 0; p < passes; ++p) {
            const int hi = pos_bits - p * OP_DET_DIGIT_BITS;
            const int width = hi < (int)OP_DET_DIGIT_BITS ? hi : (int)OP_DET_DIGIT_BITS, shift = hi - width;
            sh_hist[threadIdx.x] = 0;
            __syncthreads();
            for (uint64_t i = first; i < len; i += stride) {
                uint64_t pos;
                if (tie_at(i, &pos) && op_shr(pos, hi) == prefix)
                    atomicAdd(&sh_hist[(pos >> shift) & ((1u << width) - 1u)], 1u);
            }
            __syncthreads();
            if (sh_hist[threadIdx.x])
                atomicAdd(&ctl->det_hist[p][threadIdx.x], (unsigned long long)sh_hist[threadIdx.x]);
            op_grid_sync();
            /* the rank-th smallest: the pick of the largest over the digits reversed */
            const unsigned long long *h = ctl->det_hist[p];
            const radix_pick<unsigned long long> pk = block_pick_digit<OP_DET_BINS, OP_BLOCK>(
                [&](unsigned d) { return h[OP_DET_BINS - 1 - d]; }, rank, tmp.scan, sh_pick);
            prefix = prefix << width | (OP_DET_BINS - 1 - pk.digit);
            rank -= pk.above;
            __syncthreads();    /* sh_pick and tmp are rewritten next */
        }
        /* the m ties at or below P, listed where step 9 reads no more: the
         * candidates' positions (ties from the list) or the tie buffer */
        if (!from_list) picked = tie_pos;
        op_det_claim(
            len, &ctl->det_picked,
            [&](uint64_t i) {
                uint64_t pos;
                return tie_at(i, &pos) && pos <= prefix;
            },
            [&](uint64_t i, unsigned long long slot) { picked[slot] = from_list ? tie_pos[i] : c_pos[i]; },
            tmp.claim, sh_base);
    }
    if (take) {                 /* step 6 places them */
        if (first == 0) {
            ctl->det_moved = 1;
            *d_settled = 1;
        }
        return;
    }
    __syncthreads();            /* tmp is reused by the placement's scan */
    op_grid_sync();
    /* the result's m slots holding w take the picked positions (and in the
     * final form their values) */
    const auto place = [&](uint64_t i, unsigned long long r) {
        const PosT q = picked[r];
        if (out_v == NULL) {
            out_pos[i] = q;
            return;
        }
        out_v[i] = op_value<T>(v, om, w, (uint64_t)q);
        out_i[i] = (uint64_t)q;
    };
    if (!*(volatile int *)&ctl->det_scattered)
        for (uint64_t r = first; r < m; r += stride) place(k - m + r, r);
    else
        op_det_claim(
            k, &ctl->det_placed, [&](uint64_t i) { return key_at(i) == w; }, place, tmp.claim, sh_base);
    if (first == 0) *d_settled = 1;
}

/* Steps 2 and 5 for a CK width: the flag radix for 32-bit CK,
 * wide_select.cuh for 64-bit CK.  t() is where step 2 leaves t. */
template <typename CK> struct op_sel;
template <> struct op_sel<uint32_t> {
    static const uint32_t *t(const onepass_layout &l) { return &l.ctl->t32; }
    static drtopk_status threshold(const onepass_layout &l, cudaStream_t s)
    {
        const topk_output so = { l.r, l.so_keys, l.so_pos, &l.ctl->s_count, &l.ctl->t32 };
        return radix_topk(&l.sample_in, &so, l.radix_ws, l.radix_bytes, s);
    }
    /* select() given fin writes the final form (radix_topk_hist0's FIN) */
    template <typename PosT> static bool final_form(const onepass_layout &) { return true; }
    template <typename PosT>
    static drtopk_status select(const onepass_layout &l, const topk_output *out, const topk_final_out *fin,
                                cudaStream_t s)
    {
        const topk_digit0 d0 = { l.ctl->hist0, &l.ctl->t32, l.top, &l.ctl->c_or };
        return radix_topk_hist0(&l.cand_in, out, &d0, fin, l.radix_ws, l.radix_bytes, s);
    }
};
template <> struct op_sel<uint64_t> {
    static const uint64_t *t(const onepass_layout &l) { return &l.ctl->thr.prefix; }
    static drtopk_status threshold(const onepass_layout &l, cudaStream_t s)
    {
        const ws_input<uint64_t, uint32_t> in = { (const uint64_t *)l.s_keys, l.s_pos, DRTOPK_U64, DRTOPK_LARGEST,
                                                  NULL, l.s, NULL };
        return ws_threshold(in, &l.ctl->thr, l.r, s);
    }
    template <typename PosT> static ws_input<uint64_t, PosT> cand(const onepass_layout &l)
    {
        const ws_input<uint64_t, PosT> in = { (const uint64_t *)l.c_keys, (const PosT *)l.c_pos, DRTOPK_U64,
                                              DRTOPK_LARGEST, &l.ctl->sel_n, l.cap, &l.ctl->skip_select,
                                              l.ws_buf, l.ws_buf_cap, l.ctl->hist0, &l.ctl->c_and64,
                                              &l.ctl->c_or64 };
        return in;
    }
    /* select() given fin writes the final form where its collect is the multi-block one */
    template <typename PosT> static bool final_form(const onepass_layout &l)
    {
        return ws_select_final(cand<PosT>(l), l.raw_in.k);
    }
    template <typename PosT>
    static drtopk_status select(const onepass_layout &l, const topk_output *out, const topk_final_out *fin,
                                cudaStream_t s)
    {
        return ws_select(cand<PosT>(l), &l.ctl->sel, l.raw_in.k, (uint64_t *)out->keys, (PosT *)out->pos,
                         out->d_count, s, fin);
    }
};

template <int T, typename K, typename CK, typename PosT>
static drtopk_status op_fallback(const onepass_layout &l, const topk_output *out, cudaStream_t s)
{
    if (l.fused_fallback) return small_n_topk(&l.raw_in, out, l.fused_ws, l.fused_bytes, s);
    if (sizeof(K) == sizeof(uint32_t)) return radix_topk(&l.raw_in, out, l.radix_ws, l.radix_bytes, s);
    const ws_input<K, PosT> in = { (const K *)l.raw_in.raw, NULL, l.raw_in.dtype, l.raw_in.order,
                                   NULL, l.raw_in.n_max, &l.ctl->skip_fallback };
    return ws_select(in, &l.ctl->sel, l.raw_in.k, (CK *)out->keys, (PosT *)out->pos, out->d_count, s);
}

/* A grid of OP_BLOCK threads for k elements (at most OP_GRID_MAX blocks). */
static unsigned op_grid(uint64_t k)
{
    const uint64_t blocks = (k + OP_BLOCK - 1) / OP_BLOCK;
    return (unsigned)(blocks < OP_GRID_MAX ? blocks : OP_GRID_MAX);
}

/* Steps 1-7 for raw dtype T and position type PosT, and step 8 when values
 * is not NULL. */
template <int T, typename PosT>
struct onepass_run {
    typedef typename op_width<drtopk_dtype_bits((drtopk_dtype)T)>::K K;
    typedef typename op_width<drtopk_dtype_bits((drtopk_dtype)T)>::CK CK;
    /* Step 3 on a persistent grid, in the order S (smallest), DENSE as op_dense. */
    template <bool S, bool DENSE>
    static drtopk_status pass(const onepass_layout &l, const K *v, uint64_t n, K om, const CK *d_t, uint64_t k,
                              cudaStream_t s)
    {
        const drtopk_device_attrs *dev;
        const void *kernel = (const void *)onepass_pass_kernel<T, S, DENSE, K, CK, PosT>;
        const size_t raw = op_keeps_raw<K>() ? radix_staged_raw_bytes() : 0;
        int per_sm;
        drtopk_status st = drtopk_device_current(NULL, &dev);
        if (st != DRTOPK_OK) return st;
        if (raw && (st = drtopk_kernel_dynamic_smem(kernel, raw)) != DRTOPK_OK) return st;
        if ((st = drtopk_kernel_occupancy(kernel, RADIX_THREADS, raw, NULL, &per_sm)) != DRTOPK_OK) return st;
        cudaLaunchConfig_t cfg;
        cudaLaunchAttribute pdl;
        drtopk_pdl_config(&cfg, &pdl, radix_grid(dev->sm_count, per_sm, n), RADIX_THREADS, raw, s, dev->cc_major);
        DRTOPK_CUDA_TRY(cudaLaunchKernelEx(&cfg, onepass_pass_kernel<T, S, DENSE, K, CK, PosT>, v, n, om, l.ctl, d_t,
                                           l.cap, k, l.tie_cap, (CK *)l.c_keys, (PosT *)l.c_pos, (PosT *)l.tie_pos));
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
    /* Step 9: one cooperative launch of at most the co-resident blocks, on
     * the result in out, or where values is not NULL in the final form step 5
     * wrote (values, indices); a GPU without cooperative launch leaves the
     * flag unset (deterministic.cu then reads V). */
    static drtopk_status settle(const onepass_layout &l, const topk_output *out, const K *v, K om, uint64_t n,
                                uint64_t k, K *values, uint64_t *indices, int *d_settled, cudaStream_t s)
    {
        const drtopk_device_attrs *dev;
        const void *kernel = (const void *)onepass_settle_kernel<T, K, CK, PosT>;
        int dev_id, coop_ok = 0, per_sm = 0, pos_bits = 1;
        drtopk_status st = drtopk_device_current(&dev_id, &dev);
        if (st != DRTOPK_OK) return st;
        DRTOPK_CUDA_TRY(cudaDeviceGetAttribute(&coop_ok, cudaDevAttrCooperativeLaunch, dev_id));
        if (!coop_ok) return DRTOPK_OK;
        if ((st = drtopk_kernel_occupancy(kernel, OP_BLOCK, 0, NULL, &per_sm)) != DRTOPK_OK) return st;
        while (pos_bits < 64 && ((n - 1) >> pos_bits) != 0) ++pos_bits;
        const unsigned long long most = (unsigned long long)per_sm * dev->sm_count;
        const uint64_t most_len = k > l.cap ? k : l.cap; /* the result, the candidates or the ties */
        const unsigned want = op_grid(most_len > l.tie_cap ? most_len : l.tie_cap);
        const unsigned grid = want < most ? want : (unsigned)most;
        cudaLaunchConfig_t cfg;
        cudaLaunchAttribute coop;
        drtopk_coop_config(&cfg, &coop, grid, OP_BLOCK, 0, s);
        const uint32_t *d_kth = sizeof(CK) == sizeof(uint32_t) ? out->d_threshold : NULL;
        DRTOPK_CUDA_TRY(cudaLaunchKernelEx(&cfg, onepass_settle_kernel<T, K, CK, PosT>, (const CK *)out->keys,
                                           (PosT *)out->pos, values, indices, v, om, k, d_kth, (const CK *)l.c_keys,
                                           (PosT *)l.c_pos, (PosT *)l.tie_pos, l.tie_cap, pos_bits, l.ctl,
                                           d_settled));
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
    static drtopk_status run(const topk_input *in, const topk_output *out, void *values, uint64_t *indices, void *ws,
                             size_t ws_bytes, cudaStream_t s)
    {
        onepass_layout l;
        drtopk_status st = onepass_carve(in, OP_SIZING_BASE, &l);
        if (st != DRTOPK_OK) return st;
        if (ws_bytes < l.total) return DRTOPK_ERR_WORKSPACE_TOO_SMALL;
        if (ws == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
        if ((st = onepass_carve(in, (char *)ws, &l)) != DRTOPK_OK) return st;
        const K *v = (const K *)in->raw;
        const K om = in->order == DRTOPK_SMALLEST ? (K)~(K)0u : (K)0u;
        const uint64_t n = in->n_max, k = in->k;
        const drtopk_device_attrs *dev;
        if ((st = drtopk_device_current(NULL, &dev)) != DRTOPK_OK) return st;
        /* steps 3, 4, 6 and 8 start while the grid before them ends (pdl_wait) */
        cudaLaunchConfig_t cfg;
        cudaLaunchAttribute pdl;

        onepass_sample_kernel<T, K, CK><<<(unsigned)((l.s + OP_BLOCK - 1) / OP_BLOCK), OP_BLOCK, 0, s>>>(
            v, n, l.s, om, (CK *)l.s_keys, l.s_pos, l.ctl);
        DRTOPK_LAUNCH_CHECK();
        if ((st = op_sel<CK>::threshold(l, s)) != DRTOPK_OK) return st;
        const CK *d_t = op_sel<CK>::t(l);
        const bool settles = values != NULL && in->d_settled != NULL; /* step 9 runs */
        if (l.det && settles) {
            drtopk_pdl_config(&cfg, &pdl, 1, OP_LIST_THREADS, 0, s, dev->cc_major);
            DRTOPK_CUDA_TRY(cudaLaunchKernelEx(&cfg, onepass_list_kernel<CK>, (const CK *)l.s_keys, l.s, d_t, n, k,
                                               l.tie_cap, l.ctl));
            DRTOPK_LAUNCH_CHECK();
        }
        const bool dense = op_dense<K>(n, l.cap);
        if (in->order == DRTOPK_SMALLEST)
            st = dense ? pass<true, true>(l, v, n, om, d_t, k, s) : pass<true, false>(l, v, n, om, d_t, k, s);
        else
            st = dense ? pass<false, true>(l, v, n, om, d_t, k, s) : pass<false, false>(l, v, n, om, d_t, k, s);
        if (st != DRTOPK_OK) return st;
        drtopk_pdl_config(&cfg, &pdl, 1, 1, 0, s, dev->cc_major);
        DRTOPK_CUDA_TRY(cudaLaunchKernelEx(&cfg, onepass_decide_kernel, l.ctl, k, l.cap));
        DRTOPK_LAUNCH_CHECK();
        /* step 8 folded into step 5 where its select can (step 9 then reads the final form) */
        const bool direct = values != NULL && op_sel<CK>::template final_form<PosT>(l);
        const topk_final_out fin = { values, indices, v, in->dtype, (uint32_t)om };
        if ((st = op_sel<CK>::template select<PosT>(l, out, direct ? &fin : NULL, s)) != DRTOPK_OK) return st;
        /* step 9 before step 6, which places the ties it picks on a TAKE */
        if (settles &&
            (st = settle(l, out, v, om, n, k, direct ? (K *)values : NULL, direct ? indices : NULL, in->d_settled,
                         s)) != DRTOPK_OK)
            return st;
        drtopk_pdl_config(&cfg, &pdl, op_grid(k), OP_BLOCK, 0, s, dev->cc_major);
        DRTOPK_CUDA_TRY(cudaLaunchKernelEx(&cfg, onepass_take_kernel<T, K, CK, PosT>, (const onepass_ctl *)l.ctl, d_t,
                                           k, (const CK *)l.c_keys, (const PosT *)l.c_pos, (const PosT *)l.tie_pos,
                                           (CK *)out->keys, (PosT *)out->pos, out->d_count,
                                           sizeof(CK) == sizeof(uint32_t) ? out->d_threshold : (uint32_t *)NULL, v,
                                           om, (K *)values, indices));
        DRTOPK_LAUNCH_CHECK();
        if ((st = op_fallback<T, K, CK, PosT>(l, out, s)) != DRTOPK_OK || values == NULL) return st;
        drtopk_pdl_config(&cfg, &pdl, op_grid(k), OP_BLOCK, 0, s, dev->cc_major);
        DRTOPK_CUDA_TRY(cudaLaunchKernelEx(&cfg, onepass_values_kernel<T, K, CK, PosT>, v, k, om,
                                           (const CK *)out->keys, (const PosT *)out->pos, (K *)values, indices,
                                           (const onepass_ctl *)l.ctl, (int)direct));
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
};

/* Every key type (drtopk_dispatch covers the 32-bit ones the pipeline's
 * stages read). */
template <int T>
static drtopk_status onepass_pos(const topk_input *in, const topk_output *out, void *values, uint64_t *indices,
                                 void *ws, size_t ws_bytes, cudaStream_t s)
{
    return in->pos64 ? onepass_run<T, uint64_t>::run(in, out, values, indices, ws, ws_bytes, s)
                     : onepass_run<T, uint32_t>::run(in, out, values, indices, ws, ws_bytes, s);
}

/* onepass_topk, and with values its final form (the caller's values and
 * indices too). */
static drtopk_status onepass_any(const topk_input *in, const topk_output *out, void *values, uint64_t *indices,
                                 void *ws, size_t ws_bytes, cudaStream_t s)
{
    topk_input w;
    drtopk_status st = onepass_check(in, &w);
    if (st == DRTOPK_OK) st = topk_check_io(&w, out);
    if (st != DRTOPK_OK) return st;
    if (values != NULL && indices == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    switch (in->dtype) {
    case DRTOPK_U32: return onepass_pos<DRTOPK_U32>(in, out, values, indices, ws, ws_bytes, s);
    case DRTOPK_I32: return onepass_pos<DRTOPK_I32>(in, out, values, indices, ws, ws_bytes, s);
    case DRTOPK_F32: return onepass_pos<DRTOPK_F32>(in, out, values, indices, ws, ws_bytes, s);
    case DRTOPK_F16: return onepass_pos<DRTOPK_F16>(in, out, values, indices, ws, ws_bytes, s);
    case DRTOPK_BF16: return onepass_pos<DRTOPK_BF16>(in, out, values, indices, ws, ws_bytes, s);
    case DRTOPK_U64: return onepass_pos<DRTOPK_U64>(in, out, values, indices, ws, ws_bytes, s);
    case DRTOPK_I64: return onepass_pos<DRTOPK_I64>(in, out, values, indices, ws, ws_bytes, s);
    case DRTOPK_F64: return onepass_pos<DRTOPK_F64>(in, out, values, indices, ws, ws_bytes, s);
    default: return DRTOPK_ERR_INVALID_ARGUMENT;
    }
}

extern "C" drtopk_status onepass_topk(const topk_input *in, const topk_output *out, void *ws, size_t ws_bytes,
                                      cudaStream_t s)
{
    return onepass_any(in, out, NULL, NULL, ws, ws_bytes, s);
}

extern "C" drtopk_status onepass_topk_final(const topk_input *in, const topk_output *out, void *values,
                                            uint64_t *indices, void *ws, size_t ws_bytes, cudaStream_t s)
{
    if (values == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    return onepass_any(in, out, values, indices, ws, ws_bytes, s);
}

extern "C" drtopk_status onepass_topk_stats(const topk_input *in, void *ws, size_t ws_bytes, cudaStream_t s,
                                            drtopk_stats *stats)
{
    onepass_layout l;
    onepass_ctl c;
    topk_input w;
    drtopk_status st = onepass_check(in, &w);
    if (st != DRTOPK_OK) return st;
    if ((st = onepass_carve(in, (char *)ws, &l)) != DRTOPK_OK) return st;
    if (ws == NULL || ws_bytes < l.total) return DRTOPK_ERR_WORKSPACE_TOO_SMALL;
    DRTOPK_CUDA_TRY(cudaMemcpyAsync(&c, l.ctl, sizeof c, cudaMemcpyDeviceToHost, s));
    DRTOPK_CUDA_TRY(cudaStreamSynchronize(s));
    stats->delegate_len = l.s;
    stats->first_selected = l.r;
    stats->concat_len = drtopk_onepass_kept(c.gt, c.eq, in->k);
    stats->scanned_subranges = c.mode == DRTOPK_ONEPASS_FALLBACK;
    return DRTOPK_OK;
}
