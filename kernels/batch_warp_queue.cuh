/*
 * batch_warp_queue.cuh -- the warp queue of the batched top-k.
 *
 * Warp queue (WarpSelect style, Johnson et al., "Billion-scale similarity
 * search with GPUs"), for plans that ask for it (warp_max_k > 0; the
 * default plan leaves it off): a warp streams its segment 32 elements at
 * a time; lanes whose element beats the queue's k-th best append it to a
 * shared buffer (ballot + popc), and a full buffer is merged into the
 * queue by a warp bitonic sort.  The order is (ordered key desc, position
 * asc), a total order, so the result is exact and its ties are the CPU's
 * (the smallest positions), best first.
 *
 * Included by batch_topk.cu after batch_common.cuh (one translation unit:
 * the bins and launches are there).
 */
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
