/*
 * wide_select.cuh -- the radix select over ordered keys of any width (16, 32
 * or 64 bits; keyorder.h), paper 5.1's 8-bit digits from the top: each pass
 * histograms the digit of the keys that match the digits chosen so far,
 * after each block of it has picked the previous digit (the one holding the
 * k-th key) from the previous pass's histogram; after the last pass the
 * k-th key T and how many copies of it are needed are known, and one pass
 * collects every key above T and that many copies of T.  bits/8 + 1
 * launches, no host round trip; bits/8 + 1 reads of the input, fewer for
 * 64-bit keys (ws_hist: a digit every key shares is not read, and once the
 * keys matching the digits picked are few, one pass lists them where the
 * caller gives a list and the passes after read it; where the caller
 * counted the keys' top digit and their AND and OR as it wrote them,
 * ws_input.d_hist0, pass 0 does not run); a small input is selected by one
 * block in one launch (ws_small).  The 32-bit flag radix
 * (radix_topk.cu) is the faster select for 32-bit keys; this one serves the
 * widths it does not hold: 64-bit keys standalone (key_width.cu) and the
 * one-read top-k's sample, candidates and fallback for 16- and 64-bit keys
 * (onepass.cu).
 *
 * The input is raw V (element bits of dtype t, order o, mapped to ordered
 * keys on the fly) or (ordered key, position) pairs; its length is host-known
 * or on the device (d_n, with n_max sizing the grids); every kernel returns at
 * once when the device flag d_skip is set, so a caller may enqueue a select
 * it may not need.  Enqueue-only and capturable.
 */
#ifndef DRTOPK_WIDE_SELECT_CUH
#define DRTOPK_WIDE_SELECT_CUH
#include "device_common.cuh"
#include "kernels.h"
#include "radix_pick.cuh"
#include "keyorder.h"
#include "pipeline_spec.h"

#define WS_BLOCK 256                /* threads of the histogram and collect kernels */
#define WS_BLOCKS_PER_SM 8          /* 2048 threads: a persistent grid, so a gated
                                       launch costs one short wave, not 65535 blocks */
#define WS_DIGITS (1u << DRTOPK_DIGIT_BITS)

/* keyorder.h's functions of one width, for templates over the key type K:
 * the ordered key of raw bits, and the compare word and its range for a key
 * (onepass.cu's pass). */
template <typename K> struct key_fns;
#define WS_KEY_FNS(UT, KEY, WORD)                                                                       \
    template <> struct key_fns<UT> {                                                                    \
        static __device__ __forceinline__ UT key(UT b, drtopk_dtype t, drtopk_order o) { return KEY(b, t, o); } \
        static __device__ __forceinline__ UT word(UT b, drtopk_dtype t, UT om) { return WORD(b, t, om); } \
        static __device__ __forceinline__ void range(UT k, drtopk_dtype t, UT om, UT *lo, UT *hi)      \
        {                                                                                               \
            WORD##_range(k, t, om, lo, hi);                                                             \
        }                                                                                               \
    };
WS_KEY_FNS(uint16_t, drtopk_key16_from_bits, drtopk_cmp16_word)
WS_KEY_FNS(uint32_t, drtopk_key_from_bits, drtopk_cmp_word)
WS_KEY_FNS(uint64_t, drtopk_key64_from_bits, drtopk_cmp64_word)
#undef WS_KEY_FNS

/* The select's state, in the caller's workspace.  Pass p adds its counts to
 * hist[p % WS_HISTS] after picking digit p - 1 from hist[(p - 1) % WS_HISTS]
 * (which the passes before it filled) and the state at[(p + 1) % 2] (the
 * digits above it), stores what it picked in at[p % 2] and zeroes hist[(p +
 * 1) % WS_HISTS] for pass p + 1: no buffer is read and written in one launch. */
#define WS_HISTS 3
typedef struct {
    uint64_t prefix;                    /* the digits chosen so far              */
    uint64_t need;                      /* keys equal to the prefix still needed */
    uint64_t count;                     /* keys equal to the prefix              */
    int from_buf;                       /* the passes after the one that stored
                                           this read ws_input.buf (ws_hist)      */
} ws_pick_state;
typedef struct {
    unsigned long long hist[WS_HISTS][WS_DIGITS];
    ws_pick_state at[2];
    uint64_t prefix;                    /* after the last digit: T               */
    uint64_t need;                      /* and the copies of T the top k holds   */
    unsigned long long gt, eq;          /* collect: slots taken above T, at T    */
    unsigned long long buf_len;         /* keys in ws_input.buf                  */
    unsigned long long k_and, k_or;     /* AND and OR of every key (pass 0;
                                           ws_lists_skips)                       */
} ws_state;

/* One input: K-wide element bits of raw V (pos NULL: positions are indices)
 * or ordered keys with positions P. */
template <typename K, typename P>
struct ws_input {
    const K *keys;
    const P *pos;
    drtopk_dtype t;                     /* raw: the dtype and order of V         */
    drtopk_order o;
    const uint64_t *d_n;                /* device length, or NULL: n_max         */
    uint64_t n_max;
    const int *d_skip;                  /* nonzero on the device: do nothing     */
    K *buf;                             /* or NULL: buf_cap ordered keys, where a
                                           histogram pass lists the keys matching
                                           the digits chosen once they are few
                                           (ws_hist), for the passes after it     */
    uint64_t buf_cap;
    /* or NULL: pass 0's histogram (WS_DIGITS counts of the keys by their top
     * digit, over exactly the length's keys) and the AND and OR of those
     * keys, on the device, filled before the select runs on the stream by
     * whoever wrote the keys (onepass's pass): pass 0 does not run */
    const unsigned long long *d_hist0;
    const K *d_and, *d_or;
};

template <typename K, typename P>
__device__ __forceinline__ bool ws_gated(const ws_input<K, P> &in)
{
    return in.d_skip != NULL && *in.d_skip != 0;
}

template <typename K, typename P>
__device__ __forceinline__ uint64_t ws_len(const ws_input<K, P> &in)
{
    return in.d_n ? *in.d_n : in.n_max;
}

template <typename K, typename P>
__device__ __forceinline__ K ws_key_at(const ws_input<K, P> &in, uint64_t i)
{
    const K b = __ldg(in.keys + i);
    return in.pos ? b : key_fns<K>::key(b, in.t, in.o);
}

/* The grid of the histogram and collect kernels: one block per WS_BLOCK
 * keys, at most as many as are resident at once (they grid-stride). */
static inline drtopk_status ws_grid(uint64_t n, unsigned *grid, int per_sm = WS_BLOCKS_PER_SM)
{
    const drtopk_device_attrs *dev;
    const drtopk_status st = drtopk_device_current(NULL, &dev);
    if (st != DRTOPK_OK) return st;
    const uint64_t blocks = (n + WS_BLOCK - 1) / WS_BLOCK, full = (uint64_t)dev->sm_count * per_sm;
    *grid = (unsigned)(blocks == 0 ? 1 : blocks < full ? blocks : full);
    return DRTOPK_OK;
}

/* Before pass 0: its histogram and pass 1's zeroed, no digit chosen; with
 * ws_input.d_hist0, pass 0's histogram and the keys' AND and OR given. */
template <typename K, typename P>
__global__ void ws_init(ws_input<K, P> in, ws_state *s, uint64_t k)
{
    if (ws_gated(in)) return;
    for (unsigned d = threadIdx.x; d < WS_DIGITS; d += blockDim.x) {
        s->hist[0][d] = in.d_hist0 ? in.d_hist0[d] : 0;
        s->hist[1][d] = 0;
    }
    if (threadIdx.x == 0) {
        s->at[0].prefix = s->at[1].prefix = 0;
        s->at[0].need = s->at[1].need = k;
        s->at[0].count = s->at[1].count = 0;
        s->at[0].from_buf = s->at[1].from_buf = 0;
        s->gt = s->eq = s->buf_len = 0;
        s->k_and = in.d_hist0 ? (unsigned long long)*in.d_and : ~0ull;
        s->k_or = in.d_hist0 ? (unsigned long long)*in.d_or : 0;
    }
}

/* Every thread of a block of WS_DIGITS threads, a digit each: the state
 * after picking, at `shift`, the digit holding the need-th largest key among
 * those matching `before` (block_pick_digit over the counts in L2: a thread
 * walking the digits would wait on an L2 load a digit, ~15 us where the digit
 * is low). */
__device__ __forceinline__ ws_pick_state ws_block_pick(const unsigned long long *h, ws_pick_state before, int shift)
{
    __shared__ typename radix_pick_scan<unsigned long long, WS_DIGITS>::TempStorage tmp;
    __shared__ radix_pick<unsigned long long> slot;
    const radix_pick<unsigned long long> pk =
        block_pick_digit<WS_DIGITS, WS_DIGITS>([&](unsigned d) { return h[d]; }, (unsigned long long)before.need,
                                               tmp, slot);
    ws_pick_state st;
    st.prefix = before.prefix | (uint64_t)pk.digit << shift;
    st.need = before.need - pk.above;
    st.count = pk.count;
    st.from_buf = before.from_buf;
    return st;
}
static_assert(WS_BLOCK == WS_DIGITS, "a histogram or collect block picks a digit a thread");

/* The digits of K, one pass each. */
template <typename K> __host__ __device__ constexpr int ws_passes() { return (int)(8 * sizeof(K)) / DRTOPK_DIGIT_BITS; }

/* The bits above the digit at `shift` (none for the top digit of K). */
template <typename K>
__device__ __forceinline__ uint64_t ws_above(int shift)
{
    return shift + DRTOPK_DIGIT_BITS >= (int)(8 * sizeof(K)) ? 0 : ~0ull << (shift + DRTOPK_DIGIT_BITS);
}

#define WS_COMPACT_RATIO 16   /* a list of 1/16 of the keys: 0.5 byte a 64-bit key of workspace */
/* Whether the passes over keys K list and skip: only 64-bit keys (8
 * passes) do; the code would cost the 16-bit passes spills within
 * WS_BLOCKS_PER_SM's 32 registers, and 2 or 4 passes have little to save.
 * Their passes run WS_WIDE_BLOCKS_PER_SM blocks an SM (ws_hist_blocks). */
template <typename K> __host__ __device__ constexpr bool ws_lists_skips() { return sizeof(K) == sizeof(uint64_t); }
#define WS_WIDE_BLOCKS_PER_SM 6     /* 64-bit keys' passes: the 40 registers listing and skipping take */
template <typename K> __host__ __device__ constexpr int ws_hist_blocks()
{
    return ws_lists_skips<K>() ? WS_WIDE_BLOCKS_PER_SM : WS_BLOCKS_PER_SM;
}
/* A warp's listed keys are staged in a ring in shared memory and written a
 * warp at a time, one atomic on ws_state.buf_len per WS_RING / 2 keys, not
 * one a warp and iteration: same-address atomics serialize (ws_collect's
 * note), and a list of up to 1/16 of the keys may leave a key in most warps. */
#define WS_RING (2 * DRTOPK_WARP)  /* staged keys < DRTOPK_WARP before a warp adds <= DRTOPK_WARP */
#define WS_RING_MASK (WS_RING - 1u)
template <typename K, typename P>
__device__ __forceinline__ void ws_list_flush(const ws_input<K, P> &in, ws_state *s, K *ring, unsigned lane,
                                              unsigned cnt, unsigned *sent, unsigned *held)
{
    __syncwarp();
    unsigned long long base = 0;
    if (lane == 0) base = atomicAdd(&s->buf_len, (unsigned long long)cnt);
    base = __shfl_sync(DRTOPK_FULL_MASK, base, 0);
    if (lane < cnt) in.buf[base + lane] = ring[(*sent + lane) & WS_RING_MASK];
    *sent += cnt;
    *held -= cnt;
    __syncwarp();
}
/* ws_hist's loop over keys at(i), i < len, into the block's histogram h;
 * with LIST it also lists the keys matching the prefix, with AO (pass 0,
 * ws_lists_skips) it takes the AND and the OR of every key into ws_state.  One
 * instantiation a source, LIST and AO, so that the passes which do neither
 * run the plain loop (keys of few distinct values keep every lane busy in
 * it). */
template <bool LIST, bool AO, typename K, typename P, typename AT>
__device__ __forceinline__ void ws_hist_scan(const ws_input<K, P> &in, ws_state *s, unsigned *h, uint64_t len,
                                             uint64_t prefix, uint64_t above, int shift, AT at)
{
    unsigned long long k_and = ~0ull, k_or = 0; /* with AO: of the thread's keys */
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
    K *ring = NULL;
    if constexpr (LIST) {
        __shared__ K rings[WS_BLOCK / DRTOPK_WARP][WS_RING];
        ring = rings[threadIdx.x / DRTOPK_WARP];
    }
    unsigned sent = 0, held = 0; /* the warp's ring: keys written out, keys staged (< WS_RING) */
    for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x - lane); w < len; w += stride) {
        const uint64_t i = w + lane;
        unsigned digit = WS_DIGITS;     /* none: out of range or another prefix */
        uint64_t key = 0;
        if (i < len) {
            key = at(i);
            if (((key ^ prefix) & above) == 0) digit = (unsigned)(key >> shift) & DRTOPK_DIGIT_MASK;
            if (AO) k_and &= key, k_or |= key;
        }
        if (LIST) { /* stage the warp's keys, write them a warp at a time */
            const unsigned mine = __ballot_sync(DRTOPK_FULL_MASK, digit < WS_DIGITS);
            if (digit < WS_DIGITS) ring[(sent + held + __popc(mine & ((1u << lane) - 1u))) & WS_RING_MASK] = (K)key;
            held += (unsigned)__popc(mine);
            if (held >= DRTOPK_WARP) ws_list_flush(in, s, ring, lane, DRTOPK_WARP, &sent, &held);
        }
        const unsigned peers = __match_any_sync(DRTOPK_FULL_MASK, digit);
        if (digit < WS_DIGITS && (int)lane == __ffs(peers) - 1) atomicAdd(&h[digit], (unsigned)__popc(peers));
    }
    if (LIST && held) ws_list_flush(in, s, ring, lane, held, &sent, &held);
    if constexpr (AO) { /* block-uniform: the block's AND and OR, one global atomic each */
        __shared__ unsigned long long sh_and, sh_or;
        if (threadIdx.x == 0) sh_and = ~0ull, sh_or = 0;
        __syncthreads();
        k_and = warp_and64(k_and);
        k_or = warp_or64(k_or);
        if (lane == 0) atomicAnd(&sh_and, k_and), atomicOr(&sh_or, k_or);
        __syncthreads();
        if (threadIdx.x == 0) atomicAnd(&s->k_and, sh_and), atomicOr(&s->k_or, sh_or);
    }
}
/* Pass p where every key has the digit at `shift` (ws_lists_skips): it reads
 * nothing; its histogram is that digit's bin holding every key still
 * matching (block 0 writes it, as the pass's state). */
__device__ __forceinline__ void ws_hist_same(ws_state *s, int p, int shift)
{
    const ws_pick_state st =
        ws_block_pick(s->hist[(p - 1) % WS_HISTS], s->at[(p + 1) % 2], shift + DRTOPK_DIGIT_BITS);
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) s->at[p % 2] = st;
        s->hist[(p + 1) % WS_HISTS][threadIdx.x] = 0;
        if (threadIdx.x == (unsigned)(s->k_and >> shift & DRTOPK_DIGIT_MASK))
            s->hist[p % WS_HISTS][threadIdx.x] = st.count;
    }
}
/* Pass p of the digit at `shift`: every block first picks digit p - 1 (the
 * state above); then the histogram of the keys matching it.  Warps stride
 * together and the lanes with equal digits add once (one shared atomic per
 * digit and warp: on data with heavy ties most lanes share a digit).
 * 64-bit keys (ws_lists_skips) read fewer than their 8 passes:
 *  - with ws_input.buf, the first pass but the last whose matching keys are
 *    at most buf_cap and at most 1/WS_COMPACT_RATIO of the input also lists
 *    them in buf (each warp's staged: ws_list_flush), and the passes after
 *    it read buf alone (spread keys, u64 UD or onepass's candidates: 3 reads
 *    of the input, not 8);
 *  - pass 0 takes the AND and the OR of every key, and a later pass whose
 *    digit no two keys differ in reads nothing (ws_hist_same): keys of few
 *    distinct values or a narrow range (u64 ND: about 100 values near 10^8)
 *    would spend five of their eight reads on digits every key shares.
 * Every block makes the same pick, so every block makes the same choice. */
template <typename K, typename P>
__global__ void __launch_bounds__(WS_BLOCK, ws_hist_blocks<K>())
    ws_hist(ws_input<K, P> in, ws_state *s, int p, int shift)
{
    __shared__ unsigned int h[WS_DIGITS];
    if (ws_gated(in)) return;
    if (ws_lists_skips<K>() && p > 0 && (((s->k_and ^ s->k_or) >> shift) & DRTOPK_DIGIT_MASK) == 0) {
        ws_hist_same(s, p, shift);      /* block-uniform: every block reads the same */
        return;
    }
    ws_pick_state st = s->at[(p + 1) % 2];
    const bool from_buf = ws_lists_skips<K>() && st.from_buf != 0; /* an earlier pass listed the keys */
    const uint64_t len = from_buf ? (uint64_t)s->buf_len : ws_len(in);
    bool list = false;
    if (p > 0) {
        st = ws_block_pick(s->hist[(p - 1) % WS_HISTS], st, shift + DRTOPK_DIGIT_BITS);
        list = ws_lists_skips<K>() && !from_buf && in.buf != NULL && p + 1 < ws_passes<K>() &&
               st.count <= in.buf_cap && st.count * WS_COMPACT_RATIO <= len;
        if (list) st.from_buf = 1;
        if (blockIdx.x == 0) {
            if (threadIdx.x == 0) s->at[p % 2] = st;
            s->hist[(p + 1) % WS_HISTS][threadIdx.x] = 0;
        }
    }
    h[threadIdx.x] = 0;
    __syncthreads();
    const uint64_t prefix = st.prefix, above = ws_above<K>(shift);
    const auto from_v = [&](uint64_t i) { return (uint64_t)ws_key_at(in, i); };
    if constexpr (ws_lists_skips<K>()) {
        if (from_buf)
            ws_hist_scan<false, false>(in, s, h, len, prefix, above, shift,
                                       [&](uint64_t i) { return (uint64_t)in.buf[i]; });
        else if (list)
            ws_hist_scan<true, false>(in, s, h, len, prefix, above, shift, from_v);
        else if (p == 0)
            ws_hist_scan<false, ws_lists_skips<K>()>(in, s, h, len, prefix, above, shift, from_v);
        else
            ws_hist_scan<false, false>(in, s, h, len, prefix, above, shift, from_v);
    } else {
        ws_hist_scan<false, false>(in, s, h, len, prefix, above, shift, from_v);
    }
    __syncthreads();
    if (h[threadIdx.x]) atomicAdd(&s->hist[p % WS_HISTS][threadIdx.x], (unsigned long long)h[threadIdx.x]);
}

/* The last digit's pick (pass `passes` - 1's histogram): T and the copies of
 * it needed, into s->prefix and s->need; every block of the collect computes
 * it, block 0 stores it. */
__device__ __forceinline__ ws_pick_state ws_last_pick(ws_state *s, int passes)
{
    const ws_pick_state st = ws_block_pick(s->hist[(passes - 1) % WS_HISTS], s->at[(passes + 1) % 2], 0);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        s->prefix = st.prefix;
        s->need = st.need;
    }
    return st;
}

/* One block: the last pick alone (ws_threshold's callers read s->prefix). */
template <typename K, typename P>
__global__ void __launch_bounds__(WS_DIGITS) ws_pick(ws_input<K, P> in, ws_state *s, int passes)
{
    if (ws_gated(in)) return;
    ws_last_pick(s, passes);
}

/* Result slot o in the caller's final form (kernels.h's topk_final_out, V
 * of 64 bits): the value from its ordered key by keyorder.h's inverse, read
 * from V only where several bit patterns share the key (NaN, -0.0, +0.0). */
__device__ __forceinline__ void ws_write_final(const topk_final_out &f, uint64_t o, uint64_t key, uint64_t q)
{
    const uint64_t kv = f.om ? ~key : key;
    ((uint64_t *)f.values)[o] =
        drtopk_key_is_shared(kv, f.dtype) ? ((const uint64_t *)f.v)[q] : drtopk_bits_from_key_any(kv, f.dtype);
    f.indices[o] = q;
}

/* Every key above T into slots [0, k - need), `need` keys equal to T into
 * [k - need, k), as OK-wide keys (the caller's key type, >= K) and P
 * positions; *d_count = k.  A tile is WS_COLLECT_ITEMS keys a thread: its
 * warps count their keys of each class by ballots, warp 0 scans the counts
 * and takes the tile's slots with one atomic per class, and each warp writes
 * its keys in (load, lane) order on consecutive slots (an atomic per warp on
 * one address cost 0.6 ms for 19 million keys on an H200).  The tile loop is
 * block-uniform (it holds the block's barriers). */
#define WS_COLLECT_ITEMS 8              /* keys a thread loads a tile: 8 loads in flight */
#define WS_WARPS (WS_BLOCK / DRTOPK_WARP)
#define WS_COUNT_SHIFT 16               /* the equal keys' count in a packed count's upper half */
#define WS_COUNT_LOW 0xFFFFu
static_assert(WS_BLOCK * WS_COLLECT_ITEMS <= WS_COUNT_LOW, "a tile's count of a class fits 16 bits");
template <typename K, typename P, typename OK, bool FIN = false>
__global__ void __launch_bounds__(WS_BLOCK) ws_collect(ws_input<K, P> in, ws_state *s, uint64_t k,
                                                       OK *__restrict__ keys, P *__restrict__ pos, uint64_t *d_count,
                                                       topk_final_out fin)
{
    __shared__ uint32_t sh_off[WS_WARPS];       /* the warps' packed counts, then their offsets */
    __shared__ unsigned long long sh_base[2];   /* the tile's first slot above T and at T */
    if (ws_gated(in)) return;
    const ws_pick_state last = ws_last_pick(s, ws_passes<K>());
    const uint64_t n = ws_len(in), T = last.prefix, need = last.need, span = (uint64_t)WS_BLOCK * WS_COLLECT_ITEMS;
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, warp = threadIdx.x / DRTOPK_WARP;
    const uint32_t below = (1u << lane) - 1u;
    if (d_count != NULL && blockIdx.x == 0 && threadIdx.x == 0) *d_count = k;
    for (uint64_t tile = (uint64_t)blockIdx.x * span; tile < n; tile += (uint64_t)gridDim.x * span) {
        /* once `need` copies of T are taken the rest are skipped: the count
         * taken is read once a tile, beside the keys' loads (a read per key
         * equal to T would wait on L2 once per such key) */
        const bool eq_open = *(volatile unsigned long long *)&s->eq < need;
        uint64_t key[WS_COLLECT_ITEMS];
        uint32_t bgt[WS_COLLECT_ITEMS], beq[WS_COLLECT_ITEMS], cnt = 0;
#pragma unroll
        for (int j = 0; j < WS_COLLECT_ITEMS; ++j) {
            const uint64_t i = tile + (uint64_t)j * WS_BLOCK + threadIdx.x;
            key[j] = i < n ? ws_key_at(in, i) : 0;
        }
        P q[WS_COLLECT_ITEMS];          /* the positions of the keys it may write, read together before the scan */
#pragma unroll
        for (int j = 0; j < WS_COLLECT_ITEMS; ++j) {
            const uint64_t i = tile + (uint64_t)j * WS_BLOCK + threadIdx.x;
            const bool out = i < n && (key[j] > T || (eq_open && key[j] == T));
            q[j] = out ? (in.pos ? in.pos[i] : (P)i) : (P)0;
        }
#pragma unroll
        for (int j = 0; j < WS_COLLECT_ITEMS; ++j) {
            const uint64_t i = tile + (uint64_t)j * WS_BLOCK + threadIdx.x;
            bgt[j] = __ballot_sync(DRTOPK_FULL_MASK, i < n && key[j] > T);
            beq[j] = __ballot_sync(DRTOPK_FULL_MASK, eq_open && i < n && key[j] == T);
            cnt += (uint32_t)__popc(bgt[j]) | (uint32_t)__popc(beq[j]) << WS_COUNT_SHIFT;
        }
        if (lane == 0) sh_off[warp] = cnt;
        __syncthreads();
        if (warp == 0) {
            const uint32_t c = lane < WS_WARPS ? sh_off[lane] : 0;
            const uint32_t incl = warp_incl_sum<WS_WARPS>(c);
            if (lane < WS_WARPS) sh_off[lane] = incl - c;
            if (lane == WS_WARPS - 1) {
                const uint32_t tgt = incl & WS_COUNT_LOW, teq = incl >> WS_COUNT_SHIFT;
                sh_base[0] = tgt ? atomicAdd(&s->gt, (unsigned long long)tgt) : 0;
                sh_base[1] = teq ? atomicAdd(&s->eq, (unsigned long long)teq) : 0;
            }
        }
        __syncthreads();
        unsigned long long jg = sh_base[0] + (sh_off[warp] & WS_COUNT_LOW);
        unsigned long long je = sh_base[1] + (sh_off[warp] >> WS_COUNT_SHIFT);
#pragma unroll
        for (int j = 0; j < WS_COLLECT_ITEMS; ++j) {
            const bool gt = (bgt[j] >> lane) & 1u, eq = (beq[j] >> lane) & 1u;
            const unsigned long long e = je + (unsigned long long)__popc(beq[j] & below);
            if (gt || (eq && e < need)) {
                const uint64_t slot = gt ? jg + (unsigned long long)__popc(bgt[j] & below) : k - need + e;
                if (FIN) {
                    ws_write_final(fin, slot, key[j], (uint64_t)q[j]);
                } else {
                    keys[slot] = (OK)key[j];
                    pos[slot] = q[j];
                }
            }
            jg += (unsigned long long)__popc(bgt[j]);
            je += (unsigned long long)__popc(beq[j]);
        }
        __syncthreads();                /* sh_off and sh_base are the next tile's */
    }
}

/* Small inputs (ws_small_fits: onepass's sample of DRTOPK_ONEPASS_SAMPLE
 * keys, its candidates at small k, 64-bit V of at most 2^14 keys): ws_small, one
 * block and one launch for the whole select, not bits/8 + 2 launches of a
 * few us each (~40 us for 64-bit keys on an H200, most of it launch and
 * drain).  Pass p histograms the keys matching the digits chosen so far and
 * warp 0 picks the digit; once the keys matching them fit the shared list,
 * one more read lists them and the passes left read the list, so a sample of
 * 2^15 distinct 64-bit keys is read from L2 twice, not eight times.  With
 * COLLECT one more read writes every key above T and the first `need`
 * copies of T (those of least index): a tile is WS_SMALL_ITEMS runs of 32
 * keys a warp, warp w the tile's w-th stretch, so (warp, run, lane) is index
 * order and one block scan of the warps' ballot counts places the tile.
 * Every thread loads its WS_SMALL_ITEMS keys of a tile before it uses them
 * (L2 loads in flight, not one at a time).  Pass 0 also takes the AND and
 * the OR of the keys: a later digit in which no two keys differ is every
 * key's, so its pass is skipped (keys of a narrow range, few distinct values
 * or all equal: 4 reads of 7 distinct u64 values below 2^13, not 9).  A warp
 * whose keys fall in one bin adds once, others a shared atomic a lane (a
 * warp's match of equal digits costs more than it saves on one SM).  The
 * state is left as the multi-block select leaves it for its callers:
 * s->prefix = T, s->need. */
#define WS_SMALL_N 32768u
#define WS_SMALL_COLLECT_N 16384u      /* host-known length, with the collect: past it the 2^14..2^15-key
                                           collect in one block loses to the multi-block chain (H200) */
#define WS_SMALL_THREADS 1024
#define WS_SMALL_WARPS (WS_SMALL_THREADS / DRTOPK_WARP)
#define WS_SMALL_ITEMS 8                /* keys a thread loads a tile */
#define WS_SMALL_TILE (WS_SMALL_THREADS * WS_SMALL_ITEMS)
#define WS_SMALL_LIST_BYTES 32768       /* the shared list: 4096 64-bit keys, within 48 KB of static smem */
static_assert(WS_SMALL_TILE <= WS_COUNT_LOW, "a tile's count of a class fits 16 bits");

/* The index of a thread's j-th key in the tile from c: its warp's stretch, run j, its lane. */
__device__ __forceinline__ unsigned ws_small_index(unsigned c, int j)
{
    return c + threadIdx.x / DRTOPK_WARP * (DRTOPK_WARP * WS_SMALL_ITEMS) + (unsigned)j * DRTOPK_WARP +
           (threadIdx.x & DRTOPK_LANE_MASK);
}

/* A thread's WS_SMALL_ITEMS keys of the tile from c of the input (0 at n and past), all loaded before
 * any is used: L2 loads in flight together. */
template <typename K, typename P>
__device__ __forceinline__ void ws_small_load(const ws_input<K, P> &in, unsigned c, unsigned n,
                                              uint64_t (&key)[WS_SMALL_ITEMS])
{
#pragma unroll
    for (int j = 0; j < WS_SMALL_ITEMS; ++j) {
        const unsigned i = ws_small_index(c, j);
        key[j] = i < n ? (uint64_t)ws_key_at(in, i) : 0;
    }
}

template <typename K, typename P, typename OK, bool COLLECT>
__global__ void __launch_bounds__(WS_SMALL_THREADS) ws_small(ws_input<K, P> in, ws_state *s, uint64_t k,
                                                             OK *__restrict__ keys, P *__restrict__ pos,
                                                             uint64_t *d_count)
{
    constexpr unsigned LIST = WS_SMALL_LIST_BYTES / sizeof(K);
    __shared__ K list[LIST];
    __shared__ unsigned h[WS_DIGITS];
    __shared__ radix_pick<unsigned> s_pick;
    __shared__ unsigned s_len, s_off[WS_SMALL_WARPS], s_tot;
    __shared__ unsigned long long s_and, s_or;
    pdl_launch_dependents();            /* a grid launched dependent on this one may start (onepass's pass, take) */
    if (ws_gated(in)) return;
    const unsigned n = (unsigned)ws_len(in), lane = threadIdx.x & DRTOPK_LANE_MASK, warp = threadIdx.x / DRTOPK_WARP;
    const uint32_t below = (1u << lane) - 1u;
    uint64_t prefix = 0, varies = ~0ull;    /* varies: the bits in which keys differ (pass 0 finds them) */
    unsigned need = (unsigned)k, len = n;
    bool listed = false;
    if (threadIdx.x == 0) s_and = ~0ull, s_or = 0;
    for (int p = 0; p < ws_passes<K>(); ++p) {
        const int shift = (int)(8 * sizeof(K)) - DRTOPK_DIGIT_BITS * (p + 1);
        const uint64_t above = ws_above<K>(shift);
        if (((varies >> shift) & DRTOPK_DIGIT_MASK) == 0) {
            /* every key holds this digit: its histogram would be one bin of all the keys left */
            prefix |= ((uint64_t)s_and >> shift & DRTOPK_DIGIT_MASK) << shift;
            continue;
        }
        for (unsigned d = threadIdx.x; d < WS_DIGITS; d += blockDim.x) h[d] = 0;
        __syncthreads();
        uint64_t k_and = ~0ull, k_or = 0;   /* pass 0: of this thread's keys */
        for (unsigned c = 0; c < len; c += WS_SMALL_TILE) {    /* block-uniform */
            uint64_t key[WS_SMALL_ITEMS];
#pragma unroll
            for (int j = 0; j < WS_SMALL_ITEMS; ++j) {
                const unsigned i = ws_small_index(c, j);
                key[j] = i >= len ? 0 : listed ? (uint64_t)list[i] : (uint64_t)ws_key_at(in, i);
            }
#pragma unroll
            for (int j = 0; j < WS_SMALL_ITEMS; ++j) {
                unsigned digit = WS_DIGITS;     /* none: out of range or another prefix */
                if (ws_small_index(c, j) < len && ((key[j] ^ prefix) & above) == 0) {
                    digit = (unsigned)(key[j] >> shift) & DRTOPK_DIGIT_MASK;
                    k_and &= key[j];
                    k_or |= key[j];
                }
                /* a warp of one digit (ties, the leading digits of close keys) adds once */
                const unsigned d0 = __shfl_sync(DRTOPK_FULL_MASK, digit, 0);
                if (__all_sync(DRTOPK_FULL_MASK, digit == d0)) {
                    if (lane == 0 && d0 < WS_DIGITS) atomicAdd(&h[d0], (unsigned)DRTOPK_WARP);
                } else if (digit < WS_DIGITS) {
                    atomicAdd(&h[digit], 1u);
                }
            }
        }
        if (p == 0) {
            k_and = warp_and64(k_and);
            k_or = warp_or64(k_or);
            if (lane == 0) {
                atomicAnd(&s_and, (unsigned long long)k_and);
                atomicOr(&s_or, (unsigned long long)k_or);
            }
        }
        __syncthreads();
        if (p == 0) varies = s_and ^ s_or;
        if (warp == 0) {
            const radix_pick<unsigned> pk = warp_pick_digit<WS_DIGITS>([&](unsigned d) { return h[d]; }, need);
            if (lane == 0) s_pick = pk;
        }
        if (threadIdx.x == 0) s_len = 0;
        __syncthreads();
        const radix_pick<unsigned> pk = s_pick;
        prefix |= (uint64_t)pk.digit << shift;
        need -= pk.above;
        if (!listed && p + 1 < ws_passes<K>() && pk.count <= LIST) {
            /* list the pk.count keys matching every digit chosen so far */
            const uint64_t chosen = ~0ull << shift;
            for (unsigned c = 0; c < n; c += WS_SMALL_TILE) {
                uint64_t key[WS_SMALL_ITEMS];
                ws_small_load(in, c, n, key);
#pragma unroll
                for (int j = 0; j < WS_SMALL_ITEMS; ++j) {
                    const bool match = ws_small_index(c, j) < n && ((key[j] ^ prefix) & chosen) == 0;
                    const uint32_t b = __ballot_sync(DRTOPK_FULL_MASK, match);
                    unsigned base = 0;
                    if (lane == 0 && b) base = atomicAdd(&s_len, (unsigned)__popc(b));
                    base = __shfl_sync(DRTOPK_FULL_MASK, base, 0);
                    if (match) list[base + (unsigned)__popc(b & below)] = (K)key[j];
                }
            }
            len = pk.count;
            listed = true;
        }
        __syncthreads();                /* h, s_pick and the list are complete before the next pass */
    }
    if (threadIdx.x == 0) {
        s->prefix = prefix;
        s->need = need;
        if (COLLECT && d_count != NULL) *d_count = k;
    }
    if (!COLLECT) return;
    unsigned gt_base = 0, eq_base = 0;  /* slots taken by the tiles before, above T and at T */
    for (unsigned c = 0; c < n; c += WS_SMALL_TILE) {
        uint64_t key[WS_SMALL_ITEMS];
        uint32_t bgt[WS_SMALL_ITEMS], beq[WS_SMALL_ITEMS], cnt = 0;
        ws_small_load(in, c, n, key);
#pragma unroll
        for (int j = 0; j < WS_SMALL_ITEMS; ++j) {
            const bool in_range = ws_small_index(c, j) < n;
            bgt[j] = __ballot_sync(DRTOPK_FULL_MASK, in_range && key[j] > prefix);
            beq[j] = __ballot_sync(DRTOPK_FULL_MASK, in_range && key[j] == prefix);
            cnt += (uint32_t)__popc(bgt[j]) | (uint32_t)__popc(beq[j]) << WS_COUNT_SHIFT;
        }
        if (lane == 0) s_off[warp] = cnt;
        __syncthreads();
        if (warp == 0) {
            const uint32_t w = s_off[lane], incl = warp_incl_sum<WS_SMALL_WARPS>(w);
            s_off[lane] = incl - w;
            if (lane == WS_SMALL_WARPS - 1) s_tot = incl;
        }
        __syncthreads();
        unsigned jg = gt_base + (s_off[warp] & WS_COUNT_LOW), je = eq_base + (s_off[warp] >> WS_COUNT_SHIFT);
#pragma unroll
        for (int j = 0; j < WS_SMALL_ITEMS; ++j) {
            const bool gt = (bgt[j] >> lane) & 1u, eq = (beq[j] >> lane) & 1u;
            const unsigned e = je + (unsigned)__popc(beq[j] & below);
            if (gt || (eq && e < need)) {
                const uint64_t slot = gt ? jg + (unsigned)__popc(bgt[j] & below) : k - need + e;
                keys[slot] = (OK)key[j];
                pos[slot] = in.pos ? in.pos[ws_small_index(c, j)] : (P)ws_small_index(c, j);
            }
            jg += (unsigned)__popc(bgt[j]);
            je += (unsigned)__popc(beq[j]);
        }
        gt_base += s_tot & WS_COUNT_LOW;
        eq_base += s_tot >> WS_COUNT_SHIFT;
        __syncthreads();                /* s_off and s_tot are the next tile's */
    }
}

/* Whether ws_small takes a select of n_max keys and k: a threshold (no
 * collect) of at most WS_SMALL_N keys; a select with the collect of at most
 * WS_SMALL_COLLECT_N, or of at most WS_SMALL_N slots whose length is on the
 * device (onepass's candidates: the keys present are most often far fewer
 * than the slots, and ws_small's time follows the keys it reads). */
template <typename K, typename P>
static inline bool ws_small_fits(const ws_input<K, P> &in, uint64_t k, bool collect)
{
    const uint64_t most = !collect || in.d_n != NULL ? WS_SMALL_N : WS_SMALL_COLLECT_N;
    return in.n_max <= most && k <= in.n_max;
}

/* Enqueue the init and the histogram passes (the picks but the last; with
 * ws_input.d_hist0 from pass 1). */
template <typename K, typename P>
static drtopk_status ws_hist_passes(const ws_input<K, P> &in, ws_state *s, uint64_t k, cudaStream_t st)
{
    unsigned grid;
    const drtopk_status r = ws_grid(in.n_max, &grid, ws_hist_blocks<K>());
    if (r != DRTOPK_OK) return r;
    ws_init<K, P><<<1, WS_BLOCK, 0, st>>>(in, s, k);
    DRTOPK_LAUNCH_CHECK();
    for (int p = in.d_hist0 ? 1 : 0; p < ws_passes<K>(); ++p) {
        ws_hist<K, P><<<grid, WS_BLOCK, 0, st>>>(in, s, p, (int)(8 * sizeof(K)) - DRTOPK_DIGIT_BITS * (p + 1));
        DRTOPK_LAUNCH_CHECK();
    }
    return DRTOPK_OK;
}

/* Enqueue the digit passes and the last pick: afterwards s->prefix is the
 * k-th largest key T and s->need the copies of T the top k holds. */
template <typename K, typename P>
static drtopk_status ws_threshold(const ws_input<K, P> &in, ws_state *s, uint64_t k, cudaStream_t st)
{
    if (ws_small_fits(in, k, false)) {
        ws_small<K, P, K, false><<<1, WS_SMALL_THREADS, 0, st>>>(in, s, k, (K *)NULL, (P *)NULL, (uint64_t *)NULL);
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
    const drtopk_status r = ws_hist_passes(in, s, k, st);
    if (r != DRTOPK_OK) return r;
    ws_pick<K, P><<<1, WS_DIGITS, 0, st>>>(in, s, ws_passes<K>());
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

/* Whether ws_select given a final form writes it (64-bit keys; the
 * multi-block collect, not ws_small): then keys and pos are not written. */
template <typename K, typename P>
static inline bool ws_select_final(const ws_input<K, P> &in, uint64_t k)
{
    return sizeof(K) == sizeof(uint64_t) && !ws_small_fits(in, k, true);
}

/* The whole select: the top k of `in` into keys/pos (unordered), or where
 * fin is given and ws_select_final into the caller's final form; the
 * collect's blocks make the last pick. */
template <typename K, typename P, typename OK>
static drtopk_status ws_select(const ws_input<K, P> &in, ws_state *s, uint64_t k, OK *keys, P *pos,
                               uint64_t *d_count, cudaStream_t st, const topk_final_out *fin = NULL)
{
    if (ws_small_fits(in, k, true)) {
        ws_small<K, P, OK, true><<<1, WS_SMALL_THREADS, 0, st>>>(in, s, k, keys, pos, d_count);
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
    unsigned grid;
    drtopk_status r = ws_hist_passes(in, s, k, st);
    if (r == DRTOPK_OK) r = ws_grid(in.n_max, &grid);
    if (r != DRTOPK_OK) return r;
    if (fin != NULL && ws_select_final(in, k))
        ws_collect<K, P, OK, true><<<grid, WS_BLOCK, 0, st>>>(in, s, k, keys, pos, d_count, *fin);
    else
        ws_collect<K, P, OK><<<grid, WS_BLOCK, 0, st>>>(in, s, k, keys, pos, d_count, topk_final_out());
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

#endif
