/*
 * batch_dr.cuh -- the Dr. Top-k pipeline (paper sections 4-5: delegates,
 * Rule 1, the concatenation and filter) across blocks for long segments of
 * a batched call, on the device with no host round trip: variable
 * segments longer than plan.dr_min_len, and uniform rows longer than
 * block_max_len (dr_uniform: rows at the implicit offsets r len, one set of
 * launches for all rows instead of the single pipeline row by row).
 * Included by batch_topk.cu (its batch_args, split select and bins).
 *
 * A segment the binning kernel claims (batch_dr_spec.h: longer than
 * dr_min_len, at least 512 k_s keys, and the workspace sized from the total
 * holds its parts) gets its own alpha, about log2 sqrt(len / k_s), where its
 * len / 2^alpha delegates and k_s 2^alpha candidates balance:
 *   1. delegates: one launch for all segments over a flat index of work
 *      items (8 KB of 16-byte loads each, whole subranges), so 4 long
 *      segments keep every SM streaming as 10000 do; subranges lie on a
 *      16-byte grid (a load never straddles two; a segment's first and last
 *      ones are partial, their loads that cross its ends read its keys one
 *      by one), and each subrange's largest compare word (beta = 1) goes to
 *      the segment's delegate vector.
 *   2. the split radix select takes the top k_s delegates of every segment
 *      (words as u32 / u64, largest; their positions are subrange ids); its
 *      final prefix/mask bounds the k_s-th delegate t from below.
 *   3. concatenation/filter: only those k_s subranges are read again (16-byte
 *      loads); their keys whose words' known digits reach t's are written as
 *      candidates (value bits, position in the segment).
 *   4. the staged select (one block a segment, one launch) over each
 *      segment's candidates where they fit a staged block -- about k_s of
 *      them, the keys at or above the k_s-th delegate -- else the split
 *      select (ties keep up to k_s whole subranges), writes the batch layout
 *      (positions through the candidates' positions, padding, sorted).
 * Rule 1 over compare words (keyorder.h: w(b), W bits, a larger word never
 * has a smaller ordered key; every NaN above +inf, -0.0 and +0.0 adjacent
 * words of one key).  Let t be the k_s-th largest delegate word and P the
 * taken subranges, a top k_s of the delegates by word (ties any way), and
 * the filter keep b in P with (w(b) & mask) >= (t & mask), mask the known
 * top digits (all of them, or fewer where the select took its bucket whole).
 * (i) every b with w(b) > t is kept: its subrange's delegate is > t, and
 * fewer than k_s delegates are, so it is in P; masking top digits keeps
 * order (w > t gives w & mask >= t & mask).  (ii) each subrange of P holds
 * its delegate, a key with word >= t, kept as in (i): at least k_s kept
 * keys have w >= t.  So the kept keys hold every key of word > t and at
 * least k_s of word >= t: the top k_s by word of the segment (ties at t
 * broken by some order) lie in them, and a top k_s by word is a top k_s by
 * ordered key (w refines the key: sorting by word sorts by key), so the
 * exact selection by ordered key over the candidates (step 4) gives the
 * segment's k_s largest keys, ties and NaN/-0.0 included.  With all keys
 * equal every subrange's delegate is t and P is k_s whole subranges, at most
 * candidate_cap keys (batch_dr_spec.h).  A word costs a shift, two logic
 * operations and an add (no NaN test): the delegate kernel's per-key work
 * beside its max.  tests/unit/test_batch.c checks a host model of steps 1-3
 * against the exact top k_s for every key type, order and known-digit count.
 * Bytes for 16 rows of 2^24 f32 keys and k = 1024 (alpha 7): 1 GiB read once
 * by step 1; 8 MB of delegates written and read by 4 digit passes and the
 * gather (48 MB; a grid of 33 x 16 blocks, a column per 4096 of a segment's
 * most delegates, batch_dr_spec.h); 8 MB of subranges read again; at most
 * 16 x 128K candidates (k_s whole subranges, far fewer pass the filter)
 * written and read by the passes: about 1.1 GB, within 10% of one read.  4 rows of 2^28 (alpha 9):
 * 4 GiB once, 8 MB of delegates, 8 MB of subranges again.  The power law of
 * batch_bench.sh (plaw-large: 16384 segments of 64..2^24, 22.7M keys, k 50)
 * has 3 segments past 2^20 holding 10.2M keys (alpha 7 to 9): 41 MB read
 * once and under 1 MB of delegates and subranges, instead of 4 passes and a
 * gather over 41 MB; its other segments keep their bins.
 */
#include "batch_dr_spec.h"
#include "stream_tile.cuh"

#define BATCH_DR_WARPS 8                /* warps per block of the delegate and filter launches */
#define BATCH_DR_LOADS 4                /* 16-byte loads a lane has in flight: a step is 4 rows of 32 */
#define BATCH_DR_ITEM_VECS 512          /* 16-byte loads of a work item (8 KB): a multiple of every
                                           subrange's (2^10 keys of 8 bytes at most), so none is cut */
#define BATCH_DR_MIN_BLOCKS 3           /* delegate blocks an SM asked of ptxas: 24 warps, 48 to 96 KB
                                           in flight (a step reduced while the next one loads); 70-79
                                           registers, no spills (4 blocks: 64 registers, 40-84 B spilled) */
#define BATCH_DR_CTL 6                  /* counters after the bins': claims, delegates, candidates taken
                                           (the caps' checks), the entries with their work items, and the
                                           segments whose candidates go to the staged and the split select */
#define BATCH_DR_STAGED 4               /* ctl[4]: candidate segments of the staged select (rlist)  */
#define BATCH_DR_SPLIT 5                /* ctl[5]: those of the split select (rlist + max_segs)     */
#define BATCH_DR_ITEM_BITS 40           /* ctl[3] = entries << 40 | items: one atomic orders both */
#define BATCH_DR_ITEM_MASK ((1ull << BATCH_DR_ITEM_BITS) - 1)
static_assert(BATCH_DR_ITEM_VECS * BATCH_VEC_BYTES >= (1u << DRTOPK_BATCH_DR_ALPHA_MAX) * sizeof(uint64_t),
              "a work item holds whole subranges of every key width");
static_assert(BATCH_DR_ITEM_BITS + DRTOPK_BATCH_DR_SEGS_LOG2 <= 64, "ctl[3]'s two fields fit");
static_assert(BATCH_VEC_BYTES == DRTOPK_BATCH_DR_VEC_BYTES, "the subrange grid is the loads'");

/* The Dr. pipeline's workspace and sizes (all zero: off). */
typedef struct {
    uint64_t min_len, total;    /* segments longer than min_len, within values[0, total) */
    uint64_t max_segs, del_cap, cand_cap;       /* what the workspace holds */
    uint64_t del_max;           /* the most delegates of one segment (the delegate select's grid) */
    unsigned long long *ctl;    /* BATCH_DR_CTL counters (zeroed with the bins' counts) */
    uint64_t *dstart, *dlen, *dks, *iota;       /* per entry i of the bin: its delegates and k_s */
    uint64_t *witem, *dalpha;   /*   its first work item (rising with i) and alpha */
    uint64_t *cstart, *clen;    /* per segment id: its candidates */
    void *delegates;            /* ordered keys (u32 or u64) */
    void *del_values;           /* the delegate select's output: max_segs x k */
    uint64_t *del_ids;          /*   subrange ids               */
    void *cand_values;          /* candidates: element bits      */
    uint64_t *cand_pos;         /*   positions in their segment  */
    split_state *dstates, *cstates;     /* the two selects' search states (zeroed by the delegate launch) */
    uint64_t *rlist;            /* segment ids: max_segs to the staged select, then max_segs to the split */
} dr_ws;

/* The key type the delegates of keys of `bits` bits are stored and selected
 * as (largest first); dr_key<T>::value for key type T. */
constexpr drtopk_dtype dr_key_of_bits(int bits) { return bits > 32 ? DRTOPK_U64 : DRTOPK_U32; }
template <int T> struct dr_key {
    static const int value = dr_key_of_bits(8 * (int)sizeof(typename elem_of<T>::raw));
};

/* Work items of an entry of nd subranges of 2^alpha keys of es bytes. */
__host__ __device__ __forceinline__ uint64_t dr_items(uint64_t nd, int alpha, size_t es)
{
    const uint64_t vecs = (nd << alpha) * es / BATCH_VEC_BYTES;
    return (vecs + BATCH_DR_ITEM_VECS - 1) / BATCH_DR_ITEM_VECS;
}

/* Bytes of a segment's key and the grid position of element 0 (drtopk_batch_dr_phase). */
__device__ __forceinline__ size_t dr_es(const batch_args &a) { return (size_t)drtopk_dtype_bits((drtopk_dtype)a.dtype) / 8; }
__device__ __forceinline__ uint64_t dr_phase(const batch_args &a)
{
    return drtopk_batch_dr_phase((uint64_t)(uintptr_t)a.values, dr_es(a));
}

/* Binning: whether segment s (k_s > 0) runs the Dr. pipeline; if so it is
 * appended to the bin's list with its delegate and candidate ranges.  A
 * claim is first checked against the caps by three counters that every
 * claim advances (so a sum of accepted claims never passes its cap); an
 * accepted one then takes its entry and work items from one counter, so
 * the entries' first items rise with the entry (the delegate launch finds
 * an item's entry by binary search). */
__device__ __forceinline__ bool dr_take(const batch_args &a, const dr_ws &d, unsigned long long *counts,
                                        uint64_t *lists, uint64_t s, uint64_t start, uint64_t len, uint64_t ks)
{
    if (!drtopk_batch_dr_takes(len, ks, d.min_len) || start + len > d.total) return false;
    const int alpha = drtopk_batch_dr_alpha(len, ks);
    const uint64_t nd = drtopk_batch_dr_delegates(start + dr_phase(a), len, alpha);
    const uint64_t nc = drtopk_batch_dr_candidates(ks, alpha);
    const unsigned long long i = atomicAdd(&d.ctl[0], 1ull), d0 = atomicAdd(&d.ctl[1], (unsigned long long)nd),
                             c0 = atomicAdd(&d.ctl[2], (unsigned long long)nc);
    if (i >= d.max_segs || d0 + nd > d.del_cap || c0 + nc > d.cand_cap) return false;  /* total below offsets */
    const unsigned long long items = dr_items(nd, alpha, dr_es(a));
    const unsigned long long e = atomicAdd(&d.ctl[3], (1ull << BATCH_DR_ITEM_BITS) + items);
    const uint64_t at = e >> BATCH_DR_ITEM_BITS;
    atomicAdd(&counts[BIN_DR], 1ull);
    lists[(uint64_t)BIN_DR * a.segments + at] = s;
    d.dstart[at] = d0;
    d.dlen[at] = nd;
    d.dks[at] = ks;
    d.iota[at] = at;
    d.witem[at] = e & BATCH_DR_ITEM_MASK;
    d.dalpha[at] = (uint64_t)alpha;
    d.cstart[s] = c0;
    d.clen[s] = 0;
    return true;
}

/* The compare word (keyorder.h) of element bits b of key type T: the
 * delegates and the filter's test are words, not ordered keys (the header's
 * Rule 1 over words); om is 0 for the largest, all ones for the smallest. */
__device__ __forceinline__ uint32_t dr_word(uint16_t b, drtopk_dtype t, uint32_t om)
{
    return drtopk_cmp16_word(b, t, (uint16_t)om);
}
__device__ __forceinline__ uint32_t dr_word(uint32_t b, drtopk_dtype t, uint32_t om)
{
    return drtopk_cmp_word(b, t, om);
}
__device__ __forceinline__ uint64_t dr_word(uint64_t b, drtopk_dtype t, uint32_t om)
{
    return drtopk_cmp64_word(b, t, (uint64_t)0 - (om & 1u));
}
__device__ __forceinline__ uint32_t dr_om(const batch_args &a) { return a.order == DRTOPK_LARGEST ? 0u : ~0u; }

/* The largest of v over aligned groups of 2^lg lanes (lg <= 5). */
template <typename KT>
__device__ __forceinline__ KT dr_group_max(KT v, unsigned lg)
{
    if (lg == DRTOPK_LOG2_WARP) return warp_max(v);
    for (unsigned o = 1; o < 1u << lg; o <<= 1) {
        const KT w = __shfl_xor_sync(DRTOPK_FULL_MASK, v, o);
        v = w > v ? w : v;
    }
    return v;
}

/* Step 1, one launch for all entries: the entries' subranges, cut into work
 * items of BATCH_DR_ITEM_VECS 16-byte loads, form one flat index (an entry's
 * first item from the binning counter).  Warp w of the grid takes the
 * consecutive items [w items / warps, (w + 1) items / warps) (an even share,
 * so that 4 long segments spread over every SM as 10000 do), finds the first
 * one's entry by binary search once and walks on: within an entry its items
 * are one run of consecutive loads, streamed in steps of BATCH_DR_LOADS rows
 * of 32 loads (row-major: a row is 512 consecutive bytes) with the next
 * step's loads issued before this step's keys are reduced, so a lane always
 * has a step in flight (steps at a segment's ends, not wholly in it, read
 * its keys one by one instead: nothing outside it is read); an entry's
 * sizes are read only where the run crosses into it (not per item: the
 * dependent chain of lookups before each item's loads left the warp with
 * nothing in flight, H200: 528 us for 1 GiB where the floor is 261).  A
 * subrange is vps = 2^(alpha - log2 V) loads (V keys a load): with vps <= 32
 * a row holds 32 / vps of them (a max over groups of vps lanes), else one
 * spans vps / 32 rows (kept in a lane's running max, then a warp max); items
 * hold whole subranges, so a warp's share never cuts one.  Every count is a
 * power of two, so the bookkeeping is shifts and masks (a 64-bit division
 * or remainder by a runtime value a row cost ~100 instructions and the
 * spills; ncu, fifth session: 146 warp instructions a 128-key step).  A key
 * enters as its compare word (a shift, two logic operations and an add for
 * floats, the same max); the keys outside the segment count as word 0, the
 * least (every subrange holds one of the segment).  The launch first zeroes
 * the two selects' search states. */
template <int T>
__global__ void __launch_bounds__(BATCH_DR_WARPS * DRTOPK_WARP, BATCH_DR_MIN_BLOCKS) dr_delegate_kernel(batch_args a, dr_ws d)
{
    typedef typename elem_of<T>::raw RT;
    typedef typename elem_of<T>::key KT;
    constexpr unsigned V = BATCH_VEC_BYTES / sizeof(RT);       /* keys a load brings */
    constexpr unsigned LV = V == 2 ? 1 : V == 4 ? 2 : 3;       /* log2 V */
    static_assert(1u << LV == V, "keys a load: a power of two");
    constexpr unsigned STEP = BATCH_DR_LOADS * DRTOPK_WARP;    /* loads of a step    */
    static_assert(BATCH_DR_ITEM_VECS % STEP == 0, "a step never crosses an item");
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
    const uint32_t om = dr_om(a);
    const unsigned long long ctl = d.ctl[3];
    const uint64_t n = ctl >> BATCH_DR_ITEM_BITS, items = ctl & BATCH_DR_ITEM_MASK;
    {
        unsigned long long *z = (unsigned long long *)d.dstates;       /* dstates, then cstates */
        const uint64_t words = 2 * d.max_segs * sizeof(split_state) / sizeof *z;
        for (uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; j < words; j += (uint64_t)gridDim.x * blockDim.x)
            z[j] = 0;
    }
    const uint64_t phase = dr_phase(a);
    const uint4 *grid = (const uint4 *)((const RT *)a.values - phase);  /* 16-byte aligned: grid position 0 */
    const uint64_t warps = (uint64_t)gridDim.x * BATCH_DR_WARPS;
    const uint64_t w = (uint64_t)blockIdx.x * BATCH_DR_WARPS + (threadIdx.x >> DRTOPK_LOG2_WARP);
    const uint64_t it1 = items * (w + 1) / warps;       /* items < 2^40, warps < 2^24 */
    uint64_t it = items * w / warps;
    if (it >= it1) return;
    uint64_t e = 0, hi = n;             /* witem[e] <= it < witem[hi] (witem[n]: items) */
    while (hi - e > 1) {
        const uint64_t mid = (e + hi) / 2;
        if (__ldg(&d.witem[mid]) <= it) e = mid;
        else hi = mid;
    }
    for (; it < it1; ++e) {             /* an entry's run of the share: every entry holds an item */
        uint64_t start, len;
        seg_info(a, seg_id(a, e), &start, &len);
        const unsigned alpha = (unsigned)__ldg(&d.dalpha[e]);
        const uint64_t nd = __ldg(&d.dlen[e]), u0 = start + phase, u1 = u0 + len, w0 = __ldg(&d.witem[e]);
        const uint64_t wend = e + 1 < n ? __ldg(&d.witem[e + 1]) : items, stop = wend < it1 ? wend : it1;
        const unsigned lvps = alpha - LV;                                       /* log2 loads a subrange */
        const unsigned lg = lvps < DRTOPK_LOG2_WARP ? lvps : DRTOPK_LOG2_WARP;  /* log2 lanes a group    */
        const unsigned row_mask = (1u << (lvps - lg)) - 1u;                     /* rows a subrange, - 1  */
        const uint64_t first = u0 >> alpha << (alpha - LV);                     /* the entry's first load */
        const uint64_t nq = nd << (alpha - LV);
        const uint64_t r_end = (stop - w0) * BATCH_DR_ITEM_VECS < nq ? (stop - w0) * BATCH_DR_ITEM_VECS : nq;
        KT *dst = (KT *)d.delegates + __ldg(&d.dstart[e]);     /* dr_key<T>: KT's width */
        const uint64_t ra = ((u0 + V - 1) >> LV) - first, rb = (u1 >> LV) - first;  /* the loads wholly in the
                                                                                     segment, from the entry's */
        const uint4 *src = grid + first + lane;
        auto inner = [&](uint64_t r0) { return r0 >= ra && r0 + STEP <= rb; };  /* warp-uniform */
        uint4 x[BATCH_DR_LOADS];
        auto issue = [&](uint64_t r0) {         /* step r0's loads into x, where all are whole */
            if (!inner(r0)) return;
#pragma unroll
            for (unsigned u = 0; u < BATCH_DR_LOADS; ++u) x[u] = __ldcs(src + r0 + u * DRTOPK_WARP);
        };
        uint64_t r0 = (it - w0) * BATCH_DR_ITEM_VECS;
        issue(r0);
        KT run = 0;
        for (; r0 < r_end; r0 += STEP) {
            uint4 cur[BATCH_DR_LOADS];
#pragma unroll
            for (unsigned u = 0; u < BATCH_DR_LOADS; ++u) cur[u] = x[u];
            const bool in = inner(r0);
            if (r0 + STEP < r_end) issue(r0 + STEP);    /* in flight while this step is reduced */
            KT m[BATCH_DR_LOADS];                       /* each row's largest word of the lane */
            if (in) {
#pragma unroll
                for (unsigned u = 0; u < BATCH_DR_LOADS; ++u) {
                    m[u] = 0;
#pragma unroll
                    for (unsigned j = 0; j < V; ++j) {
                        const KT wd = dr_word(tile_keys<RT>::at(cur[u], j), (drtopk_dtype)T, om);
                        m[u] = wd > m[u] ? wd : m[u];
                    }
                }
            } else {                                    /* a step at the segment's ends: key by key */
                const RT *g = (const RT *)grid;
#pragma unroll
                for (unsigned u = 0; u < BATCH_DR_LOADS; ++u) {
                    const uint64_t q = (uint64_t)(src - grid) + r0 + u * DRTOPK_WARP;  /* this lane's load */
                    m[u] = 0;
                    for (unsigned j = 0; j < V; ++j) {
                        const uint64_t pos = (q << LV) + j;
                        if (pos < u0 || pos >= u1) continue;
                        const KT wd = dr_word(g[pos], (drtopk_dtype)T, om);
                        m[u] = wd > m[u] ? wd : m[u];
                    }
                }
            }
#pragma unroll
            for (unsigned u = 0; u < BATCH_DR_LOADS; ++u) {
                run = m[u] > run ? m[u] : run;
                const unsigned row = (unsigned)(r0 >> DRTOPK_LOG2_WARP) + u;   /* low bits of the entry's row */
                if (((row + 1) & row_mask) == 0) {                            /* a subrange's last row */
                    const KT top = dr_group_max(run, lg);
                    const uint64_t j = (r0 + u * DRTOPK_WARP + lane) >> lvps;  /* the entry's subrange */
                    if ((lane & ((1u << lg) - 1u)) == 0 && j < nd) dst[j] = top;
                    run = 0;
                }
            }
        }
        it = stop;
    }
}

/* Step 3: warp w of the grid takes the taken subranges w, w + warps, ... of
 * the flat index (entry, rank) over the entries' k slots, and appends the
 * subrange's keys whose compare words reach the k_s-th delegate's known
 * digits to the segment's candidates (element bits and positions,
 * warp-aggregated slots).  A subrange is whole 16-byte loads of the grid, a
 * lane's one a row of 32; a load not wholly in the segment (its first and
 * last subranges) reads the segment's keys of it one by one. */
template <int T>
__global__ void __launch_bounds__(BATCH_DR_WARPS * DRTOPK_WARP) dr_filter_kernel(batch_args a, dr_ws d)
{
    typedef typename elem_of<T>::raw RT;
    constexpr unsigned V = BATCH_VEC_BYTES / sizeof(RT);       /* keys a load brings */
    constexpr unsigned LV = V == 2 ? 1 : V == 4 ? 2 : 3;       /* log2 V */
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
    const unsigned lower = (1u << lane) - 1u;
    const uint32_t om = dr_om(a);
    const uint64_t n = seg_count(a), phase = dr_phase(a), warps = (uint64_t)gridDim.x * BATCH_DR_WARPS;
    const RT *vals = (const RT *)a.values;
    const uint4 *grid = (const uint4 *)(vals - phase);          /* 16-byte aligned: grid position 0 */
    for (uint64_t t = (uint64_t)blockIdx.x * BATCH_DR_WARPS + (threadIdx.x >> DRTOPK_LOG2_WARP); t < n * a.k;
         t += warps) {
        const uint64_t i = t / a.k, j = t % a.k;
        if (j >= (d.dks[i] < d.dlen[i] ? d.dks[i] : d.dlen[i])) continue;      /* warp-uniform */
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        seg_info(a, s, &start, &len);
        const unsigned lvps = (unsigned)d.dalpha[i] - LV;                      /* log2 loads a subrange */
        const uint64_t pf = d.dstates[i].prefix, mk = d.dstates[i].mask, cbase = d.cstart[s];
        const uint64_t u0 = start + phase, u1 = u0 + len;                      /* grid positions */
        const uint64_t qa = (u0 + V - 1) >> LV, qb = u1 >> LV;                 /* the loads wholly in it */
        const uint64_t q0 = ((u0 >> (lvps + LV)) + d.del_ids[i * a.k + j]) << lvps, q1 = q0 + (1ull << lvps);
        for (uint64_t qr = q0; qr < q1; qr += DRTOPK_WARP) {
            const uint64_t q = qr + lane;
            const bool inq = q < q1, whole = inq && q >= qa && q < qb;
            uint4 x = make_uint4(0u, 0u, 0u, 0u);
            if (whole) x = __ldg(grid + q);
#pragma unroll
            for (unsigned e = 0; e < V; ++e) {
                const uint64_t g = (q << LV) + e;
                const bool in = whole || (inq && g >= u0 && g < u1);
                const RT b = whole ? tile_keys<RT>::at(x, e) : in ? vals[g - phase] : (RT)0;
                const bool keep = in && ((uint64_t)dr_word(b, (drtopk_dtype)T, om) & mk) >= pf;
                const unsigned bal = __ballot_sync(DRTOPK_FULL_MASK, keep);
                if (!bal) continue;                                            /* warp-uniform */
                unsigned long long at = 0;
                if (lane == 0) at = atomicAdd((unsigned long long *)&d.clen[s], (unsigned long long)__popc(bal));
                at = __shfl_sync(DRTOPK_FULL_MASK, at, 0) + __popc(bal & lower);
                if (!keep) continue;
                ((RT *)d.cand_values)[cbase + at] = b;
                d.cand_pos[cbase + at] = g - u0;
            }
        }
    }
}

/* Between steps 3 and 4: segment i of the bin goes to the staged select
 * (one block a segment in shared memory, one launch) where its candidates
 * fit a staged block of cap keys -- about k_s of them past the filter, as
 * the keys at or above the k_s-th delegate are -- else to the split select
 * (ties: all-equal keys keep all k_s 2^alpha keys of the taken subranges). */
__global__ void dr_route_kernel(batch_args a, dr_ws d, uint64_t cap)
{
    const uint64_t n = seg_count(a);
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t s = seg_id(a, i);
        const bool staged = d.clen[s] <= cap;
        const unsigned long long at = atomicAdd(&d.ctl[staged ? BATCH_DR_STAGED : BATCH_DR_SPLIT], 1ull);
        d.rlist[(staged ? 0 : d.max_segs) + at] = s;
    }
}

/* Host: the Dr. workspace of p under plan (sizes from the total -- p->total,
 * or rows x len for uniform rows -- the segment count, dr_min_len and k
 * only), carved from base (NULL: sizes only). */
static void dr_layout(const drtopk_batch_problem *p, const drtopk_batch_plan *plan, char *base, size_t *off, dr_ws *d)
{
    memset(d, 0, sizeof *d);
    const uint64_t total = p->offsets ? p->total : p->segments * p->len;
    if (plan->dr_min_len == 0 || total == 0 || p->segments == 0) return;
    d->min_len = plan->dr_min_len;
    d->total = total;
    d->max_segs = drtopk_batch_dr_max_segments(total, p->segments, plan->dr_min_len);
    d->del_cap = drtopk_batch_dr_delegate_cap(total, d->max_segs, plan->dr_min_len, p->k);
    if (d->max_segs == 0 || d->del_cap > BATCH_DR_ITEM_MASK) {  /* work items counted in 40 bits: 2^45 keys */
        d->min_len = 0;
        return;
    }
    d->cand_cap = drtopk_batch_dr_candidate_cap(total);
    d->del_max = p->offsets ? drtopk_batch_dr_segment_delegates_max(plan->dr_min_len + 1, total, p->k)
                            : drtopk_batch_dr_segment_delegates_max(p->len, p->len, p->k);
    const size_t m = (size_t)d->max_segs, kb = drtopk_dtype_size(dr_key_of_bits(drtopk_dtype_bits(p->dtype)));
    uint64_t **entry[] = { &d->dstart, &d->dlen, &d->dks, &d->iota, &d->witem, &d->dalpha };
    const size_t nentry = sizeof entry / sizeof entry[0];
    uint64_t *e = (uint64_t *)drtopk_carve(base, off, nentry * m * sizeof(uint64_t));
    for (size_t i = 0; i < nentry && base; ++i) *entry[i] = e + i * m;
    d->cstart = (uint64_t *)drtopk_carve(base, off, 2 * (size_t)p->segments * sizeof(uint64_t));
    if (base) d->clen = d->cstart + p->segments;
    d->delegates = drtopk_carve(base, off, (size_t)d->del_cap * kb);
    d->del_values = drtopk_carve(base, off, m * (size_t)p->k * kb);
    d->del_ids = (uint64_t *)drtopk_carve(base, off, m * (size_t)p->k * sizeof(uint64_t));
    d->cand_values = drtopk_carve(base, off, (size_t)d->cand_cap * drtopk_dtype_size(p->dtype));
    d->cand_pos = (uint64_t *)drtopk_carve(base, off, (size_t)d->cand_cap * sizeof(uint64_t));
    d->dstates = (split_state *)drtopk_carve(base, off, 2 * m * sizeof(split_state));
    if (base) d->cstates = d->dstates + m;
    d->rlist = (uint64_t *)drtopk_carve(base, off, 2 * m * sizeof(uint64_t));
}

/* Host: whether uniform rows run the Dr. pipeline across blocks (rows r at
 * the implicit offsets r len, binned like variable segments: every row
 * takes it, the bounds of batch_dr_spec.h hold for rows x len keys) rather
 * than the single pipeline row by row: rows longer than block_max_len that
 * the batched pipeline takes, at least two of them (one set of launches
 * for all rows, each launch over every SM, where row by row every launch
 * covers one row and the fixed costs repeat per row).  A single row stays
 * with the single pipeline, which spreads it over every SM itself and reads
 * it at about the floor with its tuned plan, without the binning and the
 * split selects' launches; sorted results with k past BATCH_SORT_MAX stay
 * row by row (the batched sort holds BATCH_SORT_MAX keys).  Rows of any
 * length take it: at 2^28 keys and more the row-by-row pipeline was once
 * faster, no longer since the delegate launch streams (H200, 4 x 2^28 f32,
 * k 1024: 1.06 ms batched, 1.29 ms row by row). */
static int dr_uniform(const drtopk_batch_problem *p, const drtopk_batch_plan *plan)
{
    return p->offsets == NULL && p->ks == NULL && p->segments > 1 && p->len > drtopk_batch_block_max_len(plan, p->dtype) &&
           drtopk_batch_dr_takes(p->len, p->k, plan->dr_min_len) && p->segments <= DRTOPK_BATCH_DR_SEGS_MAX &&
           !((plan->flags & DRTOPK_SORTED) && p->k > BATCH_SORT_MAX) &&
           drtopk_batch_dr_delegate_cap(p->segments * p->len, p->segments, plan->dr_min_len, p->k) <= BATCH_DR_ITEM_MASK;
}

template <int T> struct split_launch;
static unsigned grid_for(uint64_t units, unsigned cap);

static drtopk_status staged_run(batch_args a, uint64_t cap, int sorted, unsigned grid_cap, cudaStream_t cs);

/* Host: steps 1-4 for the segments of bin BIN_DR (a.list, a.count set);
 * grid_cap: BATCH_GRID_PER_SM blocks an SM; cap: the longest segment a
 * staged block holds. */
template <int T>
struct dr_launch {
    static drtopk_status run(batch_args a, const dr_ws *d, int sorted, uint64_t cap, unsigned grid_cap, cudaStream_t st)
    {
        drtopk_status s;
        const unsigned y = grid_for(d->max_segs, BATCH_SPLIT_WAVES * grid_cap / BATCH_SPLIT_X_VAR + 1);
        /* the delegate select: a column per chunk of the most delegates a segment has (split_member gives a
         * segment min(its chunks, columns)), not BATCH_SPLIT_X_VAR columns that the ~2^17 delegates of a
         * row of 2^24 keys leave idle but for 32 (fifth session: 4608 blocks for 16 such rows) */
        const unsigned dx = grid_for((d->del_max + BATCH_SPLIT_CHUNK - 1) / BATCH_SPLIT_CHUNK, BATCH_SPLIT_X_VAR);
        const unsigned dy = grid_for(d->max_segs, BATCH_SPLIT_WAVES * grid_cap / dx + 1);
        const unsigned resident = grid_cap / BATCH_GRID_PER_SM * BATCH_DR_MIN_BLOCKS;
        dr_delegate_kernel<T><<<resident, BATCH_DR_WARPS * DRTOPK_WARP, 0, st>>>(a, *d);
        DRTOPK_LAUNCH_CHECK();
        batch_args del = a;     /* entry i's delegates, largest first, its k_s; out: max_segs x k */
        del.values = d->delegates;
        del.dtype = dr_key<T>::value;
        del.order = DRTOPK_LARGEST;
        del.offsets = d->dstart;
        del.lens = d->dlen;
        del.ks = d->dks;
        del.segments = d->max_segs;
        del.list = d->iota;
        del.out_values = d->del_values;
        del.out_indices = d->del_ids;
        if ((s = split_launch<dr_key<T>::value>::run(del, d->dstates, dim3(dx, dy), 0, 1, st)) != DRTOPK_OK)
            return s;
        dr_filter_kernel<T><<<grid_for(d->max_segs * a.k, grid_cap), BATCH_DR_WARPS * DRTOPK_WARP, 0, st>>>(a, *d);
        DRTOPK_LAUNCH_CHECK();
        dr_route_kernel<<<grid_for((d->max_segs + BATCH_BIN_THREADS - 1) / BATCH_BIN_THREADS, grid_cap),
                          BATCH_BIN_THREADS, 0, st>>>(a, *d, cap);
        DRTOPK_LAUNCH_CHECK();
        batch_args cand = a;    /* segment s's candidates; positions through cand_pos */
        cand.values = d->cand_values;
        cand.offsets = d->cstart;
        cand.lens = d->clen;
        cand.remap = d->cand_pos;
        cand.list = d->rlist;
        cand.count = d->ctl + BATCH_DR_STAGED;
        if (cap > 0 && (s = staged_run(cand, cap, sorted, grid_cap, st)) != DRTOPK_OK) return s;
        cand.list = a.list = d->rlist + d->max_segs;    /* the fallback */
        cand.count = a.count = d->ctl + BATCH_DR_SPLIT;
        if ((s = split_launch<T>::run(cand, d->cstates, dim3(BATCH_SPLIT_X_VAR, y), 0, 1, st)) != DRTOPK_OK) return s;
        if (sorted) {           /* over the slots, whose positions are already the segment's */
            sort_out_kernel<T><<<grid_for(d->max_segs, grid_cap), BATCH_SORT_THREADS, 0, st>>>(a);
            DRTOPK_LAUNCH_CHECK();
        }
        return DRTOPK_OK;
    }
};
