/*
 * kernels.h -- internal launchers shared by the CUDA stage and algorithm files
 * and dispatched from one place, pipeline.cu.  Every top-k algorithm (flag
 * radix, GGKS radix, bucket, bitonic, sort-and-choose) is callable through the
 * same topk_input/topk_output pair, standalone on V or as the first/second
 * top-k of the delegate pipeline (paper sections 4 and 5.1).
 *
 * Elements are (ordered key, position) pairs.  Ordered keys come from
 * keyorder.h: larger is better, for every dtype and order.  Positions are
 * uint32 when n <= 2^32 (pos64 == 0) and uint64 otherwise: the delegate and
 * concatenated vectors are re-read several times, and 8-byte pairs instead of
 * 12-byte ones cut that traffic by a third.  Kernels template on the type.  Lengths that are
 * only known on the device (the concatenated vector) are passed as a device
 * pointer plus a host-side upper bound that sizes grids and buffers, so no
 * stage needs a host round trip.
 */
#ifndef DRTOPK_KERNELS_H
#define DRTOPK_KERNELS_H
#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime.h>
#include "drtopk.h"
#include "device_common.cuh"

#ifdef __cplusplus
extern "C" {
#endif

/* Raw input the algorithms read is one of the 32-bit key types, DRTOPK_U32
 * .. DRTOPK_F32 (16-bit keys are widened to 32-bit ordered keys first and
 * 64-bit keys sorted whole: key_width.cu). */
#define DRTOPK_RAW_DTYPE_COUNT (DRTOPK_F32 + 1)

/* Positions fit uint32 up to this n. */
#define DRTOPK_POS32_MAX_N (1ull << 32)

typedef struct {
    topk_source src;            /* raw V or pairs (device_common.cuh)          */
    const void *raw;            /* TOPK_SRC_RAW: V                              */
    drtopk_dtype dtype;         /* TOPK_SRC_RAW                                 */
    drtopk_order order;         /* TOPK_SRC_RAW                                 */
    const uint32_t *keys;       /* TOPK_SRC_PAIRS                               */
    const void *pos;            /* TOPK_SRC_PAIRS: positions in V (see pos64)   */
    int pos64;                  /* positions are uint64 (else uint32), input
                                   and output alike                            */
    const uint64_t *d_n;        /* device-resident length, or NULL: use n_max   */
    uint64_t n_max;             /* host-known upper bound of the length         */
    uint64_t k;                 /* k <= actual length is the caller's promise   */
    int skip_last_digit;        /* radix only: stop one 8-bit digit early and
                                   return every element whose upper 24 bits
                                   reach those of the k-th (count >= k)         */
    const int *d_skip;          /* radix and fused only: a device flag, or NULL;
                                   when it is nonzero at run time every kernel
                                   of the call returns at once (outputs
                                   untouched), so a plan can enqueue a path it
                                   may not need without a host round trip
                                   (onepass.cu)                                */
    int *d_settled;             /* onepass and fused only (final): a device
                                   flag, or NULL; set to 1 when the result is
                                   the k best (key, position) pairs -- it holds
                                   every key of V equal to its k-th (both), or
                                   onepass, on a SELECT, whose candidates hold
                                   all of them, or on a TAKE whose pass listed
                                   them all (det_ties), took the ties of
                                   smallest position among them -- and left as
                                   it is else (DRTOPK_DETERMINISTIC,
                                   deterministic.cu)                            */
    int det_ties;               /* onepass only: the result is to be
                                   deterministic (DRTOPK_DETERMINISTIC), so
                                   its pass lists the ties at its threshold
                                   past k where they fit (a larger workspace),
                                   and a TAKE settles from them (onepass.cu) */
} topk_input;

typedef struct {
    uint64_t capacity;          /* elements keys/pos can hold (>= k).  With
                                   skip_last_digit the algorithm resolves the
                                   last digit after all whenever the skipped
                                   result would exceed it (decided on device) */
    uint32_t *keys;
    void *pos;                  /* uint32 or uint64 as topk_input.pos64         */
    uint64_t *d_count;          /* device: number written (k unless skipping)   */
    uint32_t *d_threshold;      /* device: the k-th largest ordered key (with
                                   skip_last_digit: its value with the last
                                   digit cleared); every output key >= it       */
} topk_output;

/* Every algorithm exports this pair (NAME = radix, radix_ggks, bucket, ...):
 *   drtopk_status NAME_topk_workspace(const topk_input *in, size_t *bytes);
 *   drtopk_status NAME_topk(const topk_input *in, const topk_output *out,
 *                           void *ws, size_t ws_bytes, cudaStream_t s);
 * `ws` is device memory of at least the queried size; the call only enqueues. */
drtopk_status radix_topk_workspace(const topk_input *in, size_t *bytes);
drtopk_status radix_topk(const topk_input *in, const topk_output *out,
                         void *ws, size_t ws_bytes, cudaStream_t s);
/* Where a select writes its k results in the caller's final form -- V's
 * values and 64-bit positions, not ordered keys and positions -- so that the
 * one-read top-k (onepass.cu) writes its result once instead of writing keys
 * and positions that a later kernel reads back (values NULL: the select
 * writes out->keys and out->pos as always).  A value comes from its ordered
 * key by keyorder.h's inverse, from V at its position where several bit
 * patterns share the key (NaN, -0.0 and +0.0). */
typedef struct {
    void *values;               /* k elements of V's dtype, 16, 32 or 64 bits   */
    uint64_t *indices;          /* k positions in V                             */
    const void *v;              /* V                                            */
    drtopk_dtype dtype;         /* V's                                          */
    uint32_t om;                /* the candidates' order mask at V's width (0:
                                   largest; all ones: smallest), as onepass's   */
} topk_final_out;
/* radix_topk with its first digit's histogram given (the
 * one-read top-k's pass, onepass.cu, counts its candidates by it while it
 * writes them).  Every key of the input lies in (*d_floor, top] (d_floor on
 * the device, or NULL: no bound), so its first topk_known_bits(floor, top)
 * bits are known, those of top; d_hist, on the device, holds TOPK_DIGIT0_BINS
 * counts of the input's ordered keys by the TOPK_DIGIT0_BITS bits below them
 * (topk_digit_shift(known, 0)), over exactly the length's elements (d_n, else
 * n_max), filled before the call runs on the stream.  The multi-pass path
 * then skips its first histogram pass (a read of the keys and a launch), and
 * its digits start below the known bits: a narrow key range (the candidates
 * above a threshold, 16-bit keys zero-extended) resolves in fewer passes
 * over the keys.  The one-block path ignores both.  The result is
 * radix_topk's, in the final form where fin is given (not NULL; then
 * in->skip_last_digit must be 0: exactly k are written). */
#define TOPK_DIGIT0_BITS 8
#define TOPK_DIGIT0_BINS (1u << TOPK_DIGIT0_BITS)
#define TOPK_DIGIT0_SHIFT (32 - TOPK_DIGIT0_BITS)
typedef struct {
    const unsigned long long *d_hist; /* TOPK_DIGIT0_BINS counts                */
    const uint32_t *d_floor;          /* every key > *d_floor, or NULL         */
    uint32_t top;                     /* every key <= top                      */
    const uint32_t *d_or;             /* OR of every key, on the device, or
                                         NULL: every key lies in (*d_floor,
                                         *d_or], so the digits after the first
                                         start below the leading bits of those
                                         two, which all keys share             */
} topk_digit0;
/* The leading bits all keys of (floor, top] share (those of top), at most
 * TOPK_DIGIT0_SHIFT so that one digit is left to select. */
__host__ __device__ __forceinline__ int topk_known_bits(uint32_t floor, uint32_t top)
{
    const uint32_t differ = floor ^ top;
    int known = 0;
    while (known < TOPK_DIGIT0_SHIFT && !(differ >> (31 - known) & 1u)) ++known;
    return known;
}
/* The shift of 8-bit digit q below `known` leading bits; the last digit
 * (shift 0) may overlap decided bits, which every candidate shares. */
__host__ __device__ __forceinline__ int topk_digit_shift(int known, int q)
{
    const int shift = TOPK_DIGIT0_SHIFT - known - TOPK_DIGIT0_BITS * q;
    return shift > 0 ? shift : 0;
}
drtopk_status radix_topk_hist0(const topk_input *in, const topk_output *out, const topk_digit0 *digit0,
                               const topk_final_out *fin, void *ws, size_t ws_bytes, cudaStream_t s);

/* The argument checks every launcher shares (topk_args.cu), so that every
 * algorithm answers the same status for the same mistake: input only (n, k,
 * source pointers, dtype and order of raw input, 4-byte alignment, uint32
 * positions only up to DRTOPK_POS32_MAX_N), and input with output (buffers,
 * capacity >= k), and both with the workspace the launcher says it `need`s. */
drtopk_status topk_check_input(const topk_input *in);
drtopk_status topk_check_io(const topk_input *in, const topk_output *out);
drtopk_status topk_check_run(const topk_input *in, const topk_output *out, const void *ws, size_t ws_bytes,
                             size_t need);

/* The one-read top-k (onepass.cu, src/lib/onepass_spec.h): raw V only, of
 * any key type (16- and 64-bit ones too); the output keys are 32-bit ordered
 * keys for 16- and 32-bit V (16-bit ones zero-extended), 64-bit ones (keys
 * then points to uint64_t) for 64-bit V; d_threshold is set for 32-bit V
 * only.
 * Its stats call synchronises on s and reads its workload from the workspace
 * of the run before (drtopk.h's drtopk_stats says which field holds what). */
drtopk_status onepass_topk_workspace(const topk_input *in, size_t *bytes);
drtopk_status onepass_topk(const topk_input *in, const topk_output *out,
                           void *ws, size_t ws_bytes, cudaStream_t s);
drtopk_status onepass_topk_stats(const topk_input *in, void *ws, size_t ws_bytes, cudaStream_t s,
                                 drtopk_stats *stats);
/* _final writes the caller's values (V's width) and 64-bit indices too, from
 * the result's keys: no gather. */
drtopk_status onepass_topk_final(const topk_input *in, const topk_output *out, void *values,
                                 uint64_t *indices, void *ws, size_t ws_bytes, cudaStream_t s);

/* The fused small-input top-k (small_n.cu): raw V of 16-, 32- or 64-bit
 * keys, read at their width, and fewer than FUSED_MAX_N of them only, one
 * launch (one block, or a cooperative grid with grid-wide barriers).  Its
 * output keys and d_threshold are as onepass's: 32-bit ordered keys for 16-
 * and 32-bit V (16-bit ones zero-extended), 64-bit words for 64-bit V.
 * _final writes the caller's values (V's width) and 64-bit indices itself:
 * no gather. */
#define FUSED_MAX_N (1ull << 32)        /* its counts are 32-bit */
drtopk_status small_n_topk_workspace(const topk_input *in, size_t *bytes);
drtopk_status small_n_topk(const topk_input *in, const topk_output *out,
                           void *ws, size_t ws_bytes, cudaStream_t s);
drtopk_status small_n_topk_final(const topk_input *in, const topk_output *out, void *values,
                                 uint64_t *indices, void *ws, size_t ws_bytes, cudaStream_t s);

typedef drtopk_status (*topk_workspace_fn)(const topk_input *in, size_t *bytes);
typedef drtopk_status (*topk_run_fn)(const topk_input *in, const topk_output *out,
                                     void *ws, size_t ws_bytes, cudaStream_t s);
typedef drtopk_status (*topk_stats_fn)(const topk_input *in, void *ws, size_t ws_bytes, cudaStream_t s,
                                       drtopk_stats *stats);
typedef drtopk_status (*topk_final_fn)(const topk_input *in, const topk_output *out, void *values,
                                       uint64_t *indices, void *ws, size_t ws_bytes, cudaStream_t s);
typedef struct {
    topk_workspace_fn workspace;
    topk_run_fn run;
    topk_stats_fn stats;        /* standalone workload statistics, or NULL     */
    topk_final_fn final;        /* standalone, unsorted, raw V (32-bit, or any
                                   width with any_width): writes the result
                                   itself (no gather), or NULL                 */
    int any_width;              /* standalone, reads raw V of every key width
                                   itself (16-bit V is not widened first)      */
} topk_algo_entry;

/* algo_table.cu: the one place that maps drtopk_algo to its launchers; NULL
 * entries are algorithms not built (the pipeline answers UNSUPPORTED). */
const topk_algo_entry *topk_algo_lookup(drtopk_algo a);

#ifdef __cplusplus
}
#endif
#endif
