/*
 * batch_spec.h -- which of the batched path's selects takes a segment
 * (kernels/batch_topk.cu; beyond the paper): whether the staged select
 * lists its candidates from a sample, and whether the filter select takes
 * the segment, with the sizes both depend on.  C11 host code and CUDA device
 * code (hd.h), so the binning kernel, the host's choice for uniform rows and
 * the unit tests decide with the same lines.
 */
#ifndef DRTOPK_BATCH_SPEC_H
#define DRTOPK_BATCH_SPEC_H

#include <stdint.h>
#include "hd.h"
#include "onepass_spec.h"

#define BATCH_SAMPLE_ITEMS 8                    /* a lane's strided samples of a staged row (one warp sorts them) */
#define BATCH_SAMPLE_LANES 32                   /*   the warp's lanes                                              */
#define BATCH_SAMPLES (BATCH_SAMPLE_ITEMS * BATCH_SAMPLE_LANES)
#define BATCH_SAMPLE_OVER 3                     /* the threshold's sample rank aims at 3 k_s keys of the row, */
#define BATCH_SAMPLE_MARGIN 2                   /*   plus 2 ranks: a rank's spread is sqrt(rank) (Gamma)      */
#define BATCH_CAND_LIST 768                     /* a block's candidate list: the first 768 words of its counts, */
#define BATCH_CAND_FILL_NUM 2                   /* the list is used where the expected candidates fill at most */
#define BATCH_CAND_FILL_DEN 3                   /*   2/3 of it (overflow below 1% at the ranks used)          */
#define BATCH_FILTER_WORDS 8192                 /* filter select: listed keys a block holds (64 KB)                  */
#define BATCH_FILTER_WIDE_WORDS 16384           /*   a wide block's (128 KB, one an SM): a sample's capacity past 8192 */
#define BATCH_FILTER_SAMPLE 1024                /*   sampled keys (2 a thread), within the words          */
#define BATCH_FILTER_MERGE_K 512                /*   sorted k_s past this: merge-sorted (else bitonic)    */
#define BATCH_FILTER_WHOLE_K 1024               /*   a segment listed whole: sorted k_s past this, or     */
#define BATCH_FILTER_WHOLE_RATIO 5              /*   past BATCH_FILTER_MERGE_K with at most 5 k_s keys    */
#define BATCH_ROWFILTER_CHUNK_BYTES 32768       /* row filter: bytes of a row one block reads (a trip of its loads) */
#define BATCH_ROWFILTER_WORDS BATCH_FILTER_WORDS /*   a row's list at most a filter block's words          */
#define BATCH_ROWFILTER_MIN_LEN 131072          /*   rows at least this long (drtopk_batch_rowfilter_takes) */
#define BATCH_ROWFILTER_MIN_K 32                /*   k at least this                                       */
#define BATCH_ROWFILTER_LIST_MAX 1024           /*   the expected list at most this many words             */
#define BATCH_ROWFILTER_KEY_BITS 16             /*   keys of this width                                    */

/* The sample rank of the staged block select's threshold for n keys, k_s =
 * kn of them (about BATCH_SAMPLE_OVER k_s keys of the segment at or above
 * it), and whether its list of the keys at or above it is used there: the
 * rank within the sample, and the expected keys filling at most
 * BATCH_CAND_FILL_NUM / BATCH_CAND_FILL_DEN of the list. */
DRTOPK_HD unsigned drtopk_batch_staged_rank(uint64_t n, uint64_t kn)
{
    return (unsigned)((BATCH_SAMPLE_OVER * BATCH_SAMPLES * kn + n - 1) / n) + BATCH_SAMPLE_MARGIN;
}

DRTOPK_HD int drtopk_batch_staged_lists(uint64_t n, uint64_t kn)
{
    const unsigned r = drtopk_batch_staged_rank(n, kn);
    return r <= BATCH_SAMPLES &&
           n * r <= (uint64_t)BATCH_SAMPLES * BATCH_CAND_LIST * BATCH_CAND_FILL_NUM / BATCH_CAND_FILL_DEN;
}

/* The words a filter block lists for a segment of len keys, k_s = ks of
 * them selected: all of it up to BATCH_FILTER_WORDS keys (no sample), else
 * the candidates onepass_spec.h's capacity allows at BATCH_FILTER_SAMPLE
 * sampled keys. */
DRTOPK_HD uint64_t drtopk_batch_filter_words(uint64_t len, uint64_t ks)
{
    if (len <= BATCH_FILTER_WORDS) return len;
    return drtopk_onepass_capacity(len, ks, BATCH_FILTER_SAMPLE, drtopk_onepass_rank(len, ks, BATCH_FILTER_SAMPLE));
}

/* Whether a segment of len keys, k_s = ks of them selected, takes the filter
 * select: its keys of at most 32 bits, and sorted its own top k (k_s = len)
 * of BATCH_FILTER_MERGE_K..BATCH_FILTER_WORDS keys (listed whole and
 * merge-sorted, no search; H200, sorted f32, the staged select against the
 * filter select: 4096 rows of 1024 keys, k = 1024: 0.743 against 0.351 ms;
 * 1024 segments of 1..1024 keys, k = 2048: 0.221 against 0.162), else longer
 * than the plan's filter_min_len (0: off), its words
 * (drtopk_batch_filter_words) at most max_words (BATCH_FILTER_WORDS, or
 * BATCH_FILTER_WIDE_WORDS where the GPU's blocks hold a wide block's words:
 * H200, f32, 1024 segments of about 128K keys at k = 4096, the split select
 * 3.170 ms, a wide filter block 0.412; of about 256K keys at k = 2048,
 * sorted, 4.902 against 0.579), and the staged select (which holds segments
 * of up to staged_cap keys) would not list its candidates from a sample
 * itself (H200, 10000 rows of 10000 f32 keys, k = 100: the staged select
 * with its list 0.339 ms, the filter select 0.670). A segment it would list
 * whole (no sample) it takes only sorted: for k_s past BATCH_FILTER_WHOLE_K,
 * where the staged select's sort of k_s pairs costs more than the search of
 * the whole list, and for k_s past BATCH_FILTER_MERGE_K (the filter block's
 * merge sort) in segments of at most BATCH_FILTER_WHOLE_RATIO k_s keys,
 * where the search of the list stays short. H200, sorted f32, the staged
 * select against the filter select: 2048 rows of 4096 keys, k = 1000: 0.342
 * against 0.319 ms; of 6144, k = 1000: 0.359 against 0.356; of 4096, k =
 * 600: 0.297 against 0.315; of 8192, k = 1000: 0.385 against 0.454; 4096
 * rows of 2048, k = 1024: 0.645 against 0.452; 8192 segments of 1..8192
 * keys, k = 2048: 2.98 against 1.18; unsorted, k = 2048: 0.437 against
 * 0.654. */
DRTOPK_HD int drtopk_batch_filter_takes(int key_bits, uint64_t min_len, uint64_t staged_cap, uint64_t len,
                                        uint64_t ks, int sorted, uint64_t max_words)
{
    if (key_bits > 32 || min_len == 0 || len >= UINT32_MAX) return 0;
    if (sorted && ks == len && len > BATCH_FILTER_MERGE_K && len <= BATCH_FILTER_WORDS) return 1;
    if (len <= min_len) return 0;
    if (len <= staged_cap && drtopk_batch_staged_lists(len, ks)) return 0;
    if (len <= BATCH_FILTER_WORDS)
        return sorted && (ks > BATCH_FILTER_WHOLE_K ||
                          (ks > BATCH_FILTER_MERGE_K && len <= BATCH_FILTER_WHOLE_RATIO * ks));
    return drtopk_batch_filter_words(len, ks) <= max_words;
}

/* Whether uniform rows of len keys, k_s = ks of them selected, take the row
 * filter (the filter select with a row split over blocks of
 * BATCH_ROWFILTER_CHUNK_BYTES each; kernels/batch_rowfilter.cuh): 16-bit
 * keys, the filter on (min_len > 0, the row longer), rows of at least
 * BATCH_ROWFILTER_MIN_LEN keys, k_s at least BATCH_ROWFILTER_MIN_K, and a
 * list, about r len / S words for the sample's rank r, expected within
 * BATCH_ROWFILTER_LIST_MAX (its capacity, drtopk_batch_filter_words, within
 * BATCH_ROWFILTER_WORDS).  The kernels take 32-bit keys too; the rule keeps
 * them where they won on every case measured (H200, `tests/gpu/ab.sh
 * --batch`, against the selects they would replace, rows x length at k =
 * 50: bf16 256 x 131072 0.89, 512 x 131072 0.97, 16 x 131072 0.89, f16 ND
 * 0.96, bf16 CD 0.96), and off 32-bit keys, which won on some and lost on
 * others (f32 FEW 0.40, u32 CD at k = 100 0.71, f32 at k = 100 0.86, f32
 * 0.997; but i32 1.33, f32 ND 1.02, and at k = 1, where the chunked select
 * is fast, f32 1.13 and f32 ND 1.49), nor past short rows or large k
 * (earlier builds: f32 4096 x 16384 at k = 100 1.92, 128 x 65536 at k = 8
 * 1.34, 1024 x 131072 at k = 2048 1.37: the lists of ~4,200 words searched
 * after the pass). */
DRTOPK_HD int drtopk_batch_rowfilter_takes(int key_bits, uint64_t min_len, uint64_t len, uint64_t ks)
{
    if (key_bits != BATCH_ROWFILTER_KEY_BITS || min_len == 0 || len <= min_len || len < BATCH_ROWFILTER_MIN_LEN ||
        len >= UINT32_MAX || ks < BATCH_ROWFILTER_MIN_K)
        return 0;
    const uint64_t expected = drtopk_onepass_rank(len, ks, BATCH_FILTER_SAMPLE) * len / BATCH_FILTER_SAMPLE;
    return expected <= BATCH_ROWFILTER_LIST_MAX && drtopk_batch_filter_words(len, ks) <= BATCH_ROWFILTER_WORDS;
}

/* Whether a segment the filter select takes needs a wide block: its words
 * pass a block's BATCH_FILTER_WORDS. */
DRTOPK_HD int drtopk_batch_filter_wide(uint64_t len, uint64_t ks)
{
    return drtopk_batch_filter_words(len, ks) > BATCH_FILTER_WORDS;
}

#endif
