/*
 * batch_dr.cuh -- the Dr. Top-k pipeline (paper sections 4-5: delegates,
 * Rule 1, the concatenation and filter) across blocks for long variable
 * segments of a batched call (issue 16), on the device with no host round
 * trip.  Included by batch_topk.cu (its batch_args, split select and bins).
 *
 * A segment of the bin BIN_DR (longer than plan.dr_min_len, and at least
 * 16 k_s 2^alpha keys long: batch_dr_spec.h, claimed by the binning kernel while
 * the workspace sized from p->total holds its parts):
 *   1. delegates: one launch for all of them; a warp takes a subrange of
 *      2^alpha keys and writes its largest ordered key (beta = 1) to the
 *      segment's delegate vector (subrange j at entry j).
 *   2. the split radix select takes the top k_s delegates of every segment
 *      (ordered keys as u32 / u64, largest; their positions are subrange ids);
 *      its final prefix/mask bounds the k_s-th delegate t from below.
 *   3. concatenation/filter: only those k_s subranges are read again; their
 *      keys whose known digits reach t's are written as candidates (value bits,
 *      position in the segment).  Rule 1: every key above t lies in a subrange
 *      whose delegate is above t, all taken, and each taken subrange holds a key
 *      >= t (its delegate), so the candidates hold a top k_s of the segment.
 *   4. the split select over each segment's candidates writes the batch
 *      layout (positions through the candidates' positions, padding, sorted).
 * alpha (batch_dr_spec.h): the largest with 16 k 2^alpha <= dr_min_len, in
 * [5, 10], so candidates are at most 1/16 of a segment.  Bytes for 16
 * segments of 2^24 f32 keys and k = 1024 (dr_min_len 2^20: alpha 6): 1 GiB
 * read once; 16 MB of delegates written and read by the split passes and
 * gather (80 MB); 4 MB of subranges read again; at most 16 x 64K candidates
 * written (12.6 MB) and read by the passes (21 MB): about 1.15 GB, against 4
 * passes and a gather over 1 GiB for the split select (5.4 GB; f64: 9 reads
 * of 2 GiB, 19 GB, against 2.2 GB).  The power law of batch_bench.sh
 * (plaw-large: 16384 segments of 64..2^24, 22.7M keys, k 50: alpha 10) has 3
 * segments past 2^20 holding 10.2M keys: 45 MB read for them instead of
 * 204 MB; its other segments keep their bins.
 */

#include "batch_dr_spec.h"

#define BATCH_DR_WARPS 8                /* warps per block of the delegate and filter launches */
#define BATCH_DR_SUBS 4                 /* subranges a warp reads at once: 4 loads a lane in flight */
#define BATCH_DR_CTL 3                  /* counters after the bins': segments, delegates, candidates taken */

/* The Dr. pipeline's workspace and sizes (all zero: off). */
typedef struct {
    uint64_t min_len, total;    /* segments longer than min_len, within values[0, total) */
    int alpha;
    uint64_t max_segs, del_cap, cand_cap;       /* what the workspace holds */
    unsigned long long *ctl;    /* BATCH_DR_CTL counters (zeroed with the bins' counts) */
    uint64_t *dstart, *dlen, *dks, *iota;       /* per entry i of the bin: its delegates and k_s */
    uint64_t *cstart, *clen;    /* per segment id: its candidates */
    void *delegates;            /* ordered keys (u32 or u64) */
    void *del_values;           /* the delegate select's output: max_segs x k */
    uint64_t *del_ids;          /*   subrange ids               */
    void *cand_values;          /* candidates: element bits      */
    uint64_t *cand_pos;         /*   positions in their segment  */
    split_state *dstates, *cstates;     /* the two selects' search states */
} dr_ws;

/* The key type the delegates of keys of `bits` bits are stored and selected
 * as (largest first); dr_key<T>::value for key type T. */
constexpr drtopk_dtype dr_key_of_bits(int bits) { return bits > 32 ? DRTOPK_U64 : DRTOPK_U32; }
template <int T> struct dr_key {
    static const int value = dr_key_of_bits(8 * (int)sizeof(typename elem_of<T>::raw));
};

/* Binning: whether segment s (k_s > 0) runs the Dr. pipeline; if so it is
 * appended to the bin's list with its delegate and candidate ranges and
 * fresh search states. */
__device__ __forceinline__ bool dr_take(const batch_args &a, const dr_ws &d, unsigned long long *counts,
                                        uint64_t *lists, uint64_t s, uint64_t start, uint64_t len, uint64_t ks)
{
    if (!drtopk_batch_dr_takes(len, ks, d.min_len, d.alpha) || start + len > d.total) return false;
    const uint64_t nd = drtopk_batch_dr_delegates(len, d.alpha), nc = drtopk_batch_dr_candidates(ks, d.alpha);
    const unsigned long long i = atomicAdd(&d.ctl[0], 1ull), d0 = atomicAdd(&d.ctl[1], (unsigned long long)nd),
                             c0 = atomicAdd(&d.ctl[2], (unsigned long long)nc);
    if (i >= d.max_segs || d0 + nd > d.del_cap || c0 + nc > d.cand_cap) return false;  /* total below offsets */
    const unsigned long long at = atomicAdd(&counts[BIN_DR], 1ull);
    lists[(uint64_t)BIN_DR * a.segments + at] = s;
    d.dstart[at] = d0;
    d.dlen[at] = nd;
    d.dks[at] = ks;
    d.iota[at] = at;
    d.cstart[s] = c0;
    d.clen[s] = 0;
    split_state *st[] = { d.dstates + at, d.cstates + at };
    for (int j = 0; j < 2; ++j) memset(st[j], 0, sizeof(split_state));
    return true;
}

/* Step 1: block (x, y) of the grid: its warps take BATCH_DR_SUBS subranges
 * at a time (loads of each in flight together), groups x W + w, ... of
 * entries y, y + gridDim.y, ..., and write each one's largest ordered key. */
template <int T>
__global__ void __launch_bounds__(BATCH_DR_WARPS * DRTOPK_WARP) dr_delegate_kernel(batch_args a, dr_ws d)
{
    typedef typename elem_of<T>::key KT;
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, w = threadIdx.x >> DRTOPK_LOG2_WARP;
    const uint64_t nseg = seg_count(a), sub = 1ull << d.alpha;
    const uint64_t first = ((uint64_t)blockIdx.x * BATCH_DR_WARPS + w) * BATCH_DR_SUBS;
    const uint64_t step = (uint64_t)gridDim.x * BATCH_DR_WARPS * BATCH_DR_SUBS;
    for (uint64_t i = blockIdx.y; i < nseg; i += gridDim.y) {
        uint64_t start, len;
        seg_info(a, seg_id(a, i), &start, &len);
        const uint64_t nd = d.dlen[i], base = d.dstart[i];
        for (uint64_t j0 = first; j0 < nd; j0 += step) {
            KT m[BATCH_DR_SUBS];
#pragma unroll
            for (unsigned u = 0; u < BATCH_DR_SUBS; ++u) m[u] = 0;   /* the least key: a subrange has one */
            for (uint64_t q = lane; q < sub; q += DRTOPK_WARP) {
#pragma unroll
                for (unsigned u = 0; u < BATCH_DR_SUBS; ++u) {
                    const uint64_t p = ((j0 + u) << d.alpha) + q;
                    if (p >= len) continue;
                    const KT key = (KT)drtopk_key_at(a.values, start + p, (drtopk_dtype)T, (drtopk_order)a.order);
                    m[u] = key > m[u] ? key : m[u];
                }
            }
#pragma unroll
            for (unsigned u = 0; u < BATCH_DR_SUBS; ++u) {
                const KT top = warp_max(m[u]);
                if (lane == 0 && j0 + u < nd) drtopk_bits_store(d.delegates, base + j0 + u, (drtopk_dtype)dr_key<T>::value, top);
            }
        }
    }
}

/* Step 3: the warps of block (x, y) read the taken subranges x W + w, ... of
 * entries y, ... and append their keys that reach the k_s-th delegate's
 * known digits to the segment's candidates (warp-aggregated slots). */
template <int T>
__global__ void __launch_bounds__(BATCH_DR_WARPS * DRTOPK_WARP) dr_filter_kernel(batch_args a, dr_ws d)
{
    typedef typename elem_of<T>::key KT;
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, w = threadIdx.x >> DRTOPK_LOG2_WARP;
    const unsigned lower = (1u << lane) - 1u;
    const uint64_t nseg = seg_count(a), sub = 1ull << d.alpha;
    for (uint64_t i = blockIdx.y; i < nseg; i += gridDim.y) {
        const uint64_t s = seg_id(a, i);
        uint64_t start, len;
        seg_info(a, s, &start, &len);
        const uint64_t taken = d.dks[i] < d.dlen[i] ? d.dks[i] : d.dlen[i];
        const uint64_t pf = d.dstates[i].prefix, mk = d.dstates[i].mask, cbase = d.cstart[s];
        for (uint64_t j = (uint64_t)blockIdx.x * BATCH_DR_WARPS + w; j < taken; j += (uint64_t)gridDim.x * BATCH_DR_WARPS) {
            const uint64_t lo = d.del_ids[i * a.k + j] << d.alpha, hi = lo + sub < len ? lo + sub : len;
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
}

/* Host: the Dr. workspace of p under plan (sizes from p->total and the
 * segment count only), carved from base (NULL: sizes only). */
static void dr_layout(const drtopk_batch_problem *p, const drtopk_batch_plan *plan, char *base, size_t *off, dr_ws *d)
{
    memset(d, 0, sizeof *d);
    if (plan->dr_min_len == 0 || p->total == 0 || p->segments == 0) return;
    d->min_len = plan->dr_min_len;
    d->total = p->total;
    d->alpha = drtopk_batch_dr_alpha(plan->dr_min_len, p->k);
    d->max_segs = drtopk_batch_dr_max_segments(p->total, p->segments, plan->dr_min_len);
    if (d->max_segs == 0) {
        d->min_len = 0;
        return;
    }
    d->del_cap = drtopk_batch_dr_delegate_cap(p->total, d->max_segs, d->alpha);
    d->cand_cap = drtopk_batch_dr_candidate_cap(p->total);
    const size_t m = (size_t)d->max_segs, kb = drtopk_dtype_size(dr_key_of_bits(drtopk_dtype_bits(p->dtype)));
    d->dstart = (uint64_t *)drtopk_carve(base, off, 4 * m * sizeof(uint64_t));
    if (base) {
        d->dlen = d->dstart + m;
        d->dks = d->dlen + m;
        d->iota = d->dks + m;
    }
    d->cstart = (uint64_t *)drtopk_carve(base, off, 2 * (size_t)p->segments * sizeof(uint64_t));
    if (base) d->clen = d->cstart + p->segments;
    d->delegates = drtopk_carve(base, off, (size_t)d->del_cap * kb);
    d->del_values = drtopk_carve(base, off, m * (size_t)p->k * kb);
    d->del_ids = (uint64_t *)drtopk_carve(base, off, m * (size_t)p->k * sizeof(uint64_t));
    d->cand_values = drtopk_carve(base, off, (size_t)d->cand_cap * drtopk_dtype_size(p->dtype));
    d->cand_pos = (uint64_t *)drtopk_carve(base, off, (size_t)d->cand_cap * sizeof(uint64_t));
    d->dstates = (split_state *)drtopk_carve(base, off, 2 * m * sizeof(split_state));
    if (base) d->cstates = d->dstates + m;
}

template <int T> struct split_launch;
static unsigned grid_for(uint64_t units, unsigned cap);

/* Host: steps 1-4 for the segments of bin BIN_DR (a.list, a.count set). */
template <int T>
struct dr_launch {
    static drtopk_status run(batch_args a, const dr_ws *d, int sorted, unsigned grid_cap, cudaStream_t st)
    {
        drtopk_status s;
        const unsigned y = grid_for(d->max_segs, BATCH_SPLIT_WAVES * grid_cap / BATCH_SPLIT_X_VAR + 1);
        const dim3 grid(grid_for(BATCH_SPLIT_WAVES * grid_cap / y, DRTOPK_GRID_MAX), y);
        dr_delegate_kernel<T><<<grid, BATCH_DR_WARPS * DRTOPK_WARP, 0, st>>>(a, *d);
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
        dr_filter_kernel<T><<<grid, BATCH_DR_WARPS * DRTOPK_WARP, 0, st>>>(a, *d);
        DRTOPK_LAUNCH_CHECK();
        batch_args cand = a;    /* segment s's candidates; positions through cand_pos */
        cand.values = d->cand_values;
        cand.offsets = d->cstart;
        cand.lens = d->clen;
        cand.remap = d->cand_pos;
        if ((s = split_launch<T>::run(cand, d->cstates, dim3(BATCH_SPLIT_X_VAR, y), 0, 1, st)) != DRTOPK_OK) return s;
        if (sorted) {           /* over the slots, whose positions are already the segment's */
            sort_out_kernel<T><<<grid_for(d->max_segs, grid_cap), BATCH_SORT_THREADS, 0, st>>>(a);
            DRTOPK_LAUNCH_CHECK();
        }
        return DRTOPK_OK;
    }
};
