/*
 * batch_dr.cuh -- the Dr. Top-k pipeline (paper sections 4-5: delegates,
 * Rule 1, the concatenation and filter) across blocks for long segments of
 * a batched call (issue 16), on the device with no host round trip: variable
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
 *      by one), and each subrange's largest ordered key (beta = 1) goes to
 *      the segment's delegate vector.
 *   2. the split radix select takes the top k_s delegates of every segment
 *      (ordered keys as u32 / u64, largest; their positions are subrange ids);
 *      its final prefix/mask bounds the k_s-th delegate t from below.
 *   3. concatenation/filter: only those k_s subranges are read again; their
 *      keys whose known digits reach t's are written as candidates (value bits,
 *      position in the segment).  Rule 1: every key above t lies in a subrange
 *      whose delegate is above t, all taken, and each taken subrange holds a key
 *      >= t (its delegate), so the candidates hold a top k_s of the segment.
 *   4. the staged select (one block a segment, one launch) over each
 *      segment's candidates where they fit a staged block -- about k_s of
 *      them, the keys at or above the k_s-th delegate -- else the split
 *      select (ties keep up to k_s whole subranges), writes the batch layout
 *      (positions through the candidates' positions, padding, sorted).
 * Bytes for 16 rows of 2^24 f32 keys and k = 1024 (alpha 7): 1 GiB read once
 * by step 1; 8 MB of delegates written and read by 4 digit passes and the
 * gather (48 MB); 8 MB of subranges read again; at most 16 x 128K candidates
 * (k_s whole subranges, far fewer pass the filter) written and read by the
 * passes: about 1.1 GB, within 10% of one read.  4 rows of 2^28 (alpha 9):
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
#define BATCH_DR_MIN_BLOCKS 4           /* delegate blocks an SM asked of ptxas: 32 warps, 64 to 128 KB
                                           in flight (a step reduced while the next one loads) */
#define BATCH_DR_CTL 6                  /* counters after the bins': claims, delegates, candidates taken
                                           (the caps' checks), the entries with their work items, and the
                                           segments whose candidates go to the staged and the split select */
#define BATCH_DR_STAGED 4               /* ctl[4]: candidate segments of the staged select (rlist)  */
#define BATCH_DR_SPLIT 5                /* ctl[5]: those of the split select (rlist + max_segs)     */
#define BATCH_DR_ROWWISE_LOG2 28        /* uniform rows of 2^28 keys and more run row by row: the single
                                           pipeline reads one at 1.02x the floor (H200, 4 x 2^28 f32,
                                           k 1024: 1.31 ms row by row, 1.85 ms batched before the delegate
                                           launch streamed), its fixed costs a small share of a row */
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

/* The largest of v over aligned groups of g lanes (a power of two <= 32). */
template <typename KT>
__device__ __forceinline__ KT dr_group_max(KT v, unsigned g)
{
    if (g == DRTOPK_WARP) return warp_max(v);
    for (unsigned o = 1; o < g; o <<= 1) {
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
 * nothing in flight, H200: 528 us for 1 GiB where the floor is 261).  A subrange is vps = 2^alpha / keys-a-load loads: with
 * vps <= 32 a row holds 32 / vps of them (a max over groups of vps lanes),
 * else one spans vps / 32 rows (kept in a lane's running max, then a warp
 * max); items hold whole subranges, so a warp's share never cuts one.  The
 * keys outside the segment count as the least key (every subrange holds one
 * of the segment).  The launch first zeroes the two selects' search
 * states. */
template <int T>
__global__ void __launch_bounds__(BATCH_DR_WARPS * DRTOPK_WARP, BATCH_DR_MIN_BLOCKS) dr_delegate_kernel(batch_args a, dr_ws d)
{
    typedef typename elem_of<T>::raw RT;
    typedef typename elem_of<T>::key KT;
    constexpr unsigned V = BATCH_VEC_BYTES / sizeof(RT);       /* keys a load brings */
    constexpr unsigned STEP = BATCH_DR_LOADS * DRTOPK_WARP;    /* loads of a step    */
    static_assert(BATCH_DR_ITEM_VECS % STEP == 0, "a step never crosses an item");
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
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
        const int alpha = (int)__ldg(&d.dalpha[e]);
        const uint64_t nd = __ldg(&d.dlen[e]), u0 = start + phase, u1 = u0 + len, w0 = __ldg(&d.witem[e]);
        const uint64_t wend = e + 1 < n ? __ldg(&d.witem[e + 1]) : items, stop = wend < it1 ? wend : it1;
        const unsigned vps = (1u << alpha) / V, g = vps < DRTOPK_WARP ? vps : DRTOPK_WARP;
        const unsigned rows_per_sub = vps / g;
        const uint64_t first = (u0 >> alpha << alpha) / V;                     /* the entry's first load */
        const uint64_t nq = (nd << alpha) / V;
        const uint64_t r_end = (stop - w0) * BATCH_DR_ITEM_VECS < nq ? (stop - w0) * BATCH_DR_ITEM_VECS : nq;
        KT *dst = (KT *)d.delegates + __ldg(&d.dstart[e]);     /* dr_key<T>: KT's width */
        const uint64_t qa = (u0 + V - 1) / V, qb = u1 / V;      /* the loads wholly in the segment */
        const uint4 *src = grid + first + lane;
        auto inner = [&](uint64_t r0) { return first + r0 >= qa && first + r0 + STEP <= qb; };  /* warp-uniform */
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
#pragma unroll
            for (unsigned u = 0; u < BATCH_DR_LOADS; ++u) {
                KT m = 0;
                if (in) {
#pragma unroll
                    for (unsigned j = 0; j < V; ++j) {
                        const KT key = (KT)drtopk_key_any(tile_keys<RT>::at(cur[u], j), (drtopk_dtype)T, (drtopk_order)a.order);
                        m = key > m ? key : m;
                    }
                } else {                        /* a step at the segment's ends: key by key */
                    const uint64_t q = first + r0 + u * DRTOPK_WARP + lane;
                    for (unsigned j = 0; j < V; ++j) {
                        const uint64_t pos = q * V + j;
                        if (pos < u0 || pos >= u1) continue;
                        const KT key = (KT)drtopk_key_at(a.values, pos - phase, (drtopk_dtype)T, (drtopk_order)a.order);
                        m = key > m ? key : m;
                    }
                }
                run = m > run ? m : run;
                const uint64_t row = r0 / DRTOPK_WARP + u;      /* in the entry: warp-uniform */
                if ((row + 1) % rows_per_sub == 0) {
                    const KT top = dr_group_max(run, g);
                    const uint64_t j = (r0 + u * DRTOPK_WARP + lane) / vps;       /* the entry's subrange */
                    if (lane % g == 0 && j < nd) dst[j] = top;
                    run = 0;
                }
            }
        }
        it = stop;
    }
}

/* Step 3: warp w of the grid takes the taken subranges w, w + warps, ... of
 * the flat index (entry, rank) over the entries' k slots, and appends the
 * subrange's keys that reach the k_s-th delegate's known digits to the
 * segment's candidates (warp-aggregated slots). */
template <int T>
__global__ void __launch_bounds__(BATCH_DR_WARPS * DRTOPK_WARP) dr_filter_kernel(batch_args a, dr_ws d)
{
    typedef typename elem_of<T>::key KT;
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
    const unsigned lower = (1u << lane) - 1u;
    const uint64_t n = seg_count(a), phase = dr_phase(a), warps = (uint64_t)gridDim.x * BATCH_DR_WARPS;
    for (uint64_t t = (uint64_t)blockIdx.x * BATCH_DR_WARPS + (threadIdx.x >> DRTOPK_LOG2_WARP); t < n * a.k;
         t += warps) {
        const uint64_t i = t / a.k, j = t % a.k;
        if (j >= (d.dks[i] < d.dlen[i] ? d.dks[i] : d.dlen[i])) continue;      /* warp-uniform */
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        seg_info(a, s, &start, &len);
        const int alpha = (int)d.dalpha[i];
        const uint64_t pf = d.dstates[i].prefix, mk = d.dstates[i].mask, cbase = d.cstart[s];
        const uint64_t u0 = start + phase, sub = (u0 >> alpha) + d.del_ids[i * a.k + j];
        const uint64_t lo = (sub << alpha) > u0 ? (sub << alpha) - u0 : 0;       /* positions in the segment */
        const uint64_t hi = ((sub + 1) << alpha) - u0 < len ? ((sub + 1) << alpha) - u0 : len;
        for (uint64_t p0 = lo; p0 < hi; p0 += DRTOPK_WARP) {
            const uint64_t p = p0 + lane;
            const bool in = p < hi;
            const KT key = in ? (KT)drtopk_key_at(a.values, start + p, (drtopk_dtype)T, (drtopk_order)a.order) : 0;
            const bool keep = in && ((uint64_t)key & mk) >= pf;
            const unsigned b = __ballot_sync(DRTOPK_FULL_MASK, keep);
            unsigned long long at = 0;
            if (lane == 0 && b) at = atomicAdd((unsigned long long *)&d.clen[s], (unsigned long long)__popc(b));
            at = __shfl_sync(DRTOPK_FULL_MASK, at, 0) + __popc(b & lower);
            if (!keep) continue;
            drtopk_bits_store(d.cand_values, cbase + at, (drtopk_dtype)T, drtopk_bits_at(a.values, start + p, (drtopk_dtype)T));
            d.cand_pos[cbase + at] = p;
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
 * row by row (the batched sort holds BATCH_SORT_MAX keys), and so do rows
 * of 2^BATCH_DR_ROWWISE_LOG2 keys and more. */
static int dr_uniform(const drtopk_batch_problem *p, const drtopk_batch_plan *plan)
{
    return p->offsets == NULL && p->ks == NULL && p->segments > 1 && p->len > drtopk_batch_block_max_len(plan, p->dtype) &&
           p->len >> BATCH_DR_ROWWISE_LOG2 == 0 &&
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
        if ((s = split_launch<dr_key<T>::value>::run(del, d->dstates, dim3(BATCH_SPLIT_X_VAR, y), 0, 1, st)) != DRTOPK_OK)
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
