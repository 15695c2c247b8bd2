/*
 * radix_pick.cuh -- the step every radix select of the library shares
 * (paper 5.1: a digit pass of the radix select): from the counts of one
 * digit's values among the keys that match the digits chosen so far, the
 * digit that holds the want-th largest of them, the count of keys in the
 * larger digits and the digit's own count.  One contract, two scopes: a warp
 * (the flag radix of radix_topk.cu, the batched staged, split and filter
 * selects of batch_staged.cuh, batch_split.cuh and batch_filter.cuh) and a
 * block (the fused passes of small_n.cu, the histogram passes of
 * wide_select.cuh, onepass's tie positions).
 *
 * Contract of both: want >= 1; the picked digit d is the one with
 * above(d) < want <= above(d) + count(d), where above(d) counts the keys in
 * digits larger than d; when the counts sum to less than want (a caller
 * that broke its k <= length promise) it is digit 0, so the pick never
 * leaves the histogram.
 */
#ifndef DRTOPK_RADIX_PICK_CUH
#define DRTOPK_RADIX_PICK_CUH
#include <cub/block/block_scan.cuh>
#include "device_common.cuh"

#define RADIX_PICK_UNROLL 4     /* a lane's count loads in flight (not all: their
                                   rotated addresses would be hoisted and spilled) */

/* The picked digit, the keys in larger digits and the digit's own count. */
template <typename C>
struct radix_pick {
    unsigned digit;
    C above, count;
};

/* Whether digit d, with `above` keys in larger digits and `count` of its own,
 * is the pick for want (the contract above: exactly one digit is). */
template <typename C>
__device__ __forceinline__ bool radix_pick_holds(unsigned d, C above, C count, C want)
{
    return above < want && (above + count >= want || d == 0);
}

/* The calling warp (every lane; a digit's count from count_of(d), read from
 * shared or global memory): each lane sums DIGITS / 32 consecutive counts
 * (lane 0 the largest digits), a warp scan finds the lane whose range holds
 * the pick, and the warp scans that lane's counts (one a lane) to find the
 * digit.  A lane starts its sum at its own rotation of its range: the ranges
 * lie a multiple of 32 words apart, so in lockstep every lane would read the
 * same shared-memory bank (a 32-way conflict a load for 1024 digits).  Every
 * lane gets the pick. */
template <unsigned DIGITS, typename C, typename F>
__device__ __forceinline__ radix_pick<C> warp_pick_digit(F count_of, C want)
{
    constexpr unsigned LANE_DIGITS = DIGITS / DRTOPK_WARP;     /* digits a lane sums */
    constexpr unsigned BANK_LANES = DRTOPK_WARP / LANE_DIGITS; /* lanes whose ranges share one bank group */
    static_assert(LANE_DIGITS >= 1 && LANE_DIGITS <= DRTOPK_WARP && LANE_DIGITS * DRTOPK_WARP == DIGITS,
                  "a lane's digits: a whole share, at most a warp's");
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK, rot = lane / BANK_LANES;
    constexpr unsigned UNROLL = RADIX_PICK_UNROLL;             /* a pragma takes no macro */
    C sum = 0;
#pragma unroll UNROLL
    for (unsigned j = 0; j < LANE_DIGITS; ++j)
        sum += count_of(DIGITS - 1 - lane * LANE_DIGITS - (j + rot) % LANE_DIGITS);
    const C incl = warp_incl_sum(sum);
    /* the lane whose range holds the pick (the last lane's range holds digit 0) */
    const bool range = incl - sum < want && (incl >= want || lane == DRTOPK_WARP - 1);
    const unsigned first = __ffs(__ballot_sync(DRTOPK_FULL_MASK, range)) - 1;
    const C ab = __shfl_sync(DRTOPK_FULL_MASK, incl - sum, first);      /* keys in the ranges before first's */
    const unsigned hi = DIGITS - 1 - first * LANE_DIGITS;                /* first's largest digit */
    const C c = lane < LANE_DIGITS ? count_of(hi - lane) : 0;
    const C run = warp_incl_sum(c);
    const bool holds = lane < LANE_DIGITS && radix_pick_holds(hi - lane, ab + run - c, c, want);
    const unsigned hit = __ffs(__ballot_sync(DRTOPK_FULL_MASK, holds)) - 1;
    radix_pick<C> p;
    p.digit = hi - hit;
    p.above = ab + __shfl_sync(DRTOPK_FULL_MASK, run - c, hit);
    p.count = __shfl_sync(DRTOPK_FULL_MASK, c, hit);
    return p;
}

/* The block scan the block pick takes its temporary storage for. */
template <typename C, unsigned THREADS>
using radix_pick_scan = cub::BlockScan<C, THREADS>;

/* The calling block of THREADS threads (every thread; counts from
 * count_of(d)): thread j sums the DIGITS / THREADS digits from the top
 * DIGITS - 1 - j * (DIGITS / THREADS), a block scan gives each the keys
 * above its range, and the thread holding the pick writes it to `slot` (in
 * shared memory), which every thread reads after a barrier.  `scan` and
 * `slot` are the caller's, to reuse after that barrier; the caller keeps
 * another barrier between this read of `slot` and its next write. */
template <unsigned DIGITS, unsigned THREADS, typename C, typename F>
__device__ __forceinline__ radix_pick<C> block_pick_digit(F count_of, C want,
                                                          typename radix_pick_scan<C, THREADS>::TempStorage &scan,
                                                          radix_pick<C> &slot)
{
    constexpr unsigned PER = DIGITS / THREADS;                  /* digits a thread holds */
    static_assert(PER >= 1 && PER * THREADS == DIGITS, "a thread's digits: a whole share");
    C cnt[PER], sum = 0, above;
#pragma unroll
    for (unsigned i = 0; i < PER; ++i) {
        cnt[i] = count_of(DIGITS - 1 - (threadIdx.x * PER + i));
        sum += cnt[i];
    }
    radix_pick_scan<C, THREADS>(scan).ExclusiveSum(sum, above);
#pragma unroll
    for (unsigned i = 0; i < PER; ++i) {
        const unsigned d = DIGITS - 1 - (threadIdx.x * PER + i);
        if (radix_pick_holds(d, above, cnt[i], want)) {
            slot.digit = d;
            slot.above = above;
            slot.count = cnt[i];
        }
        above += cnt[i];
    }
    __syncthreads();
    return slot;
}

#endif
