/*
 * fused_spec.h -- the launch shape of the fused top-k (DRTOPK_ALGO_FUSED,
 * kernels/small_n.cu; beyond the paper): its grid, each block's chunk of V,
 * each block's shared-memory list of candidates, and so whether it reads V
 * once -- its chunks stay in shared memory, or a sampled threshold
 * (onepass_spec.h) whose candidates fit the lists -- or re-reads V from HBM
 * in its digit passes (those start below the leading bits that the sampled
 * keys bracketing the k-th key's rank share, where the first pass confirms
 * the k-th key has them; where a block's keys left by a pass fit 64 KB, the
 * next pass lists them and the passes after it run on the list) and once
 * more for its output.  The launch takes
 * its shape from drtopk_fused_shape_of, and the planner asks the same
 * function (through the CUDA backend's drtopk_cuda_fused_reads_once) where
 * a fused plan would otherwise re-read a large V (policy.h).
 */
#ifndef DRTOPK_FUSED_SPEC_H
#define DRTOPK_FUSED_SPEC_H
#include <stddef.h>
#include <stdint.h>
#include "onepass_spec.h"

#define SN_BLOCK_KEYS 12288             /* one block up to here (12 keys a
                                           thread); H200 A/B: at 2^13 one block
                                           13-15 us, a grid 17-18; at 2^14 a
                                           grid 16-18, one block 15-20        */
#define SN_GRID_KEYS 2048               /* keys per block of a grid (2 per
                                           thread) until every co-resident block
                                           runs: a block's passes over its chunk,
                                           not the barriers, set the grid's time
                                           (24 us at 16 keys a thread)           */
#define SN_GRID_MAX 1024u               /* blocks a control block publishes for
                                           (co-resident blocks of any GPU)     */
#define SN_STATIC_SMEM_MAX 16384        /* bounds the kernel's static shared
                                           memory (8 KB histogram, the scan's
                                           storage, scalars); the rest of the
                                           opt-in limit holds the chunk        */
#define SN_SAMPLED_MIN_N (1ull << 22)   /* the sampled threshold from here up:
                                           measured on an H100 (u32 UD, k 1024,
                                           ncu kernel time): at 2^20 the sample
                                           and its select cost more than they
                                           save (23.5 us against 15.5 for the
                                           digit passes over V); at 2^22 and
                                           2^24 one read wins (26 and 47-51 us
                                           against ~30 and 129-138) */
#define SN_SAMPLE 4096u                 /* keys each block samples (4 a thread):
                                           the spec's positions at S = 4096, a
                                           divisor of DRTOPK_ONEPASS_SAMPLE, so
                                           they are every 8th of onepass's and
                                           its forcing inputs force these too;
                                           the grid reads them once and every
                                           block copies and selects them all in
                                           its shared memory, so the spec's 2^15
                                           would cost ~8x                     */
#define SN_GUESS_HIST_BYTES 8192        /* the bracket's histogram beside the
                                           sample in a guessing block's shared
                                           memory: 2^11 32-bit digit counts   */
#define SN_GUESS_MIN_BYTES 4            /* keys of 16 bits take two passes: a
                                           guess would save one at most, and
                                           its code would cost their kernels
                                           spills (ptxas, sm_90)               */
#define SN_TIE_SHARE 2                  /* ties take at most 1/2 of a block's list */
#define SN_LIST_SD 6.0                  /* a block's share m of the spec's
                                           capacity and this many standard
                                           deviations of a binomial count fit
                                           its list: a random V overflows one
                                           of 132 lists with odds below 1e-6 */

typedef struct {
    unsigned grid;                      /* blocks                               */
    uint64_t chunk;                     /* keys per block                       */
    uint32_t list_cap, cand_cap;        /* a block's list (key and 32-bit
                                           offset), its share of keys > t       */
    uint32_t r;                         /* the sample rank of t                 */
    uint64_t cap;                       /* candidates the spec allows           */
    int sampled;                        /* the sampled threshold: one read      */
    int resident;                       /* chunks held in shared memory         */
    int guess;                          /* passes over V in global memory that
                                           start below the bits the sample says
                                           the k-th key has (checked)           */
    uint32_t r_hi;                      /* guess: the sample rank of the upper
                                           end of the k-th key's bracket (r the
                                           lower end's)                         */
} drtopk_fused_shape;

/* The sample rank above which the k-th largest of n keys lies only with
 * onepass's fallback odds (onepass_spec.h's margin below m = kS/n): at
 * least 1; k where the sample is V. */
static inline uint32_t drtopk_fused_rank_hi(uint64_t n, uint64_t k, uint64_t s)
{
    if (s >= n) return (uint32_t)k;
    const double m = (double)k * (double)s / (double)n;
    const double r = floor(m - DRTOPK_ONEPASS_MARGIN_SD * sqrt(m)) - 1.0;
    return r < 1.0 ? 1u : (uint32_t)r;
}

/* The shape of the fused top-k of n keys of key_bytes bytes each, k of them
 * selected, where a block may take `room` bytes of dynamic shared memory and
 * at most resident_max blocks are co-resident (1 without cooperative
 * launch).  Sampled: a block's list (key and offset) fills the room; ties
 * take at most k of it (TAKE needs at most k - gt), and the rest holds
 * the block's share m of the spec's candidate capacity plus SN_LIST_SD
 * sqrt(m) (a V whose candidates crowd one chunk falls back, exact).
 * The list is a multiple of 4 keys, so that the offsets after the keys stay
 * 4-byte aligned. */
static inline drtopk_fused_shape drtopk_fused_shape_of(size_t key_bytes, uint64_t n, uint64_t k, size_t room,
                                                       uint64_t resident_max)
{
    drtopk_fused_shape s;
    const uint64_t want = n <= SN_BLOCK_KEYS ? 1 : (n + SN_GRID_KEYS - 1) / SN_GRID_KEYS;
    const uint64_t most = resident_max < SN_GRID_MAX ? resident_max : SN_GRID_MAX;
    s.grid = (unsigned)(want < most ? want : most);
    if (s.grid == 0) s.grid = 1;
    s.chunk = (n + s.grid - 1) / s.grid;
    s.list_cap = (uint32_t)(room / (key_bytes + sizeof(uint32_t))) & ~3u;
    const uint32_t tie_cap = k < s.list_cap / SN_TIE_SHARE ? (uint32_t)k : s.list_cap / SN_TIE_SHARE;
    s.cand_cap = s.list_cap - tie_cap;
    s.r = (uint32_t)drtopk_onepass_rank(n, k, SN_SAMPLE);
    s.cap = drtopk_onepass_capacity(n, k, SN_SAMPLE, s.r);
    const double share = (double)s.cap / s.grid;
    s.sampled = s.grid > 1 && n >= SN_SAMPLED_MIN_N && room >= SN_SAMPLE * key_bytes &&
                share + SN_LIST_SD * sqrt(share) <= (double)s.cand_cap;
    s.resident = !s.sampled && s.chunk * key_bytes <= room;
    s.guess = s.grid > 1 && !s.sampled && !s.resident && n >= SN_SAMPLED_MIN_N && key_bytes >= SN_GUESS_MIN_BYTES &&
              room >= SN_SAMPLE * key_bytes + SN_GUESS_HIST_BYTES;
    s.r_hi = drtopk_fused_rank_hi(n, k, SN_SAMPLE);
    return s;
}

/* Whether that launch reads V from HBM once (else once per digit pass). */
static inline int drtopk_fused_reads_once(const drtopk_fused_shape *s) { return s->sampled || s->resident; }

#endif
