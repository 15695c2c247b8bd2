/*
 * device_check.cu -- dh_dev_check (device.h): oracle.h's dh_check run where a
 * GPU result already lies, so that every row of a sweep at |V| = 2^30 can be
 * verified without copying V to the host and counting it there (a reference
 * figure run verifies every row: paper section 4's sweeps).  The same three
 * tests as the host checker, in the same order of report:
 *   1. every index < n, and the value at each result position bit-equal to V
 *      at its index (the first failing position);
 *   2. no index twice (a bitmap of V's positions, one atomicOr per result);
 *   3. V holds exactly as many keys above the result's minimum key m as the
 *      result does (the exact O(n) count: with 1 and 2, a top-k exactly).
 * It shares nothing with the selection code but keyorder.h's ordered keys,
 * which the host checker uses as well; tests/gpu/test_check.c holds it to
 * dh_check on exact and corrupted results of every key type.
 */
#include <inttypes.h>
#include <stdio.h>

#include "device.h"
#include "keyorder.h"
#include "oracle.h"
#include "status_cuda.h"

#define CHECK_BLOCK 256          /* threads per block                              */
#define CHECK_MAX_BLOCKS 4096    /* grid-stride past this: enough to fill any GPU  */
#define NONE UINT64_MAX          /* no failing position; the start of the minimum  */
#define WARP 32                  /* lanes a shuffle reduction spans                */
#define BITMAP_WORD_BITS 32      /* V's positions per word: atomicOr on 32 bits    */

/* What the kernels found: positions are the least failing ones. */
struct check_found {
    unsigned long long bad_pos;      /* test 1 */
    unsigned long long dup_pos;      /* test 2: a position whose index an earlier atomicOr had set */
    unsigned long long min_key;      /* m */
    unsigned long long above_result; /* result keys > m */
    unsigned long long above_v;      /* V's keys > m */
};

static __device__ unsigned long long warp_min(unsigned long long x)
{
    for (int s = WARP / 2; s > 0; s /= 2) {
        const unsigned long long y = __shfl_down_sync(0xFFFFFFFFu, x, s);
        x = y < x ? y : x;
    }
    return x;
}

static __device__ unsigned long long warp_sum(unsigned long long x)
{
    for (int s = WARP / 2; s > 0; s /= 2) x += __shfl_down_sync(0xFFFFFFFFu, x, s);
    return x;
}

static __device__ uint64_t grid_threads(void) { return (uint64_t)gridDim.x * blockDim.x; }
static __device__ uint64_t thread_rank(void) { return (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; }

/* Tests 1 and 2, and m.  Every thread of a block loops the same number of
 * times, so that the warp reductions see full warps. */
template <drtopk_dtype T>
__global__ void structure_kernel(const void *v, uint64_t n, const void *val, const uint64_t *idx, uint64_t k,
                                 drtopk_order o, unsigned *seen, check_found *f)
{
    unsigned long long bad = NONE, dup = NONE, m = NONE;
    const uint64_t stride = grid_threads();
    const uint64_t rounds = (k + stride - 1) / stride;
    for (uint64_t r = 0, i = thread_rank(); r < rounds; ++r, i += stride) {
        if (i >= k) continue;
        const uint64_t x = idx[i];
        const uint64_t key = drtopk_key_at(val, i, T, o);
        m = key < m ? key : m;
        if (x >= n || drtopk_bits_at(val, i, T) != drtopk_bits_at(v, x, T)) {
            bad = i < bad ? i : bad;
            continue;
        }
        const unsigned bit = 1u << (x % BITMAP_WORD_BITS);
        if (atomicOr(&seen[x / BITMAP_WORD_BITS], bit) & bit) dup = i < dup ? i : dup;
    }
    bad = warp_min(bad);
    dup = warp_min(dup);
    m = warp_min(m);
    if (threadIdx.x % WARP == 0) {
        if (bad != NONE) atomicMin(&f->bad_pos, bad);
        if (dup != NONE) atomicMin(&f->dup_pos, dup);
        atomicMin(&f->min_key, m);
    }
}

/* The keys of a[0 .. len) above f->min_key, added to *count. */
template <drtopk_dtype T>
__global__ void count_above_kernel(const void *a, uint64_t len, drtopk_order o, const check_found *f,
                                   unsigned long long *count)
{
    const unsigned long long m = f->min_key;
    const uint64_t stride = grid_threads();
    const uint64_t rounds = (len + stride - 1) / stride;
    unsigned long long c = 0;
    for (uint64_t r = 0, i = thread_rank(); r < rounds; ++r, i += stride)
        if (i < len) c += drtopk_key_at(a, i, T, o) > m;
    c = warp_sum(c);
    if (threadIdx.x % WARP == 0 && c) atomicAdd(count, c);
}

/* The least position of idx[0 .. k) other than `not_at` that holds x. */
__global__ void first_position_kernel(const uint64_t *idx, uint64_t k, uint64_t x, uint64_t not_at,
                                      unsigned long long *pos)
{
    const uint64_t stride = grid_threads();
    for (uint64_t i = thread_rank(); i < k; i += stride)
        if (i != not_at && idx[i] == x) atomicMin(pos, (unsigned long long)i);
}

static unsigned blocks_for(uint64_t len)
{
    const uint64_t b = (len + CHECK_BLOCK - 1) / CHECK_BLOCK;
    return (unsigned)(b < 1 ? 1 : b > CHECK_MAX_BLOCKS ? CHECK_MAX_BLOCKS : b);
}

template <drtopk_dtype T>
static drtopk_status run_kernels(const drtopk_problem *p, const void *val, const uint64_t *idx, unsigned *seen,
                                 check_found *f)
{
    structure_kernel<T><<<blocks_for(p->k), CHECK_BLOCK>>>(p->values, p->n, val, idx, p->k, p->order, seen, f);
    STATUS_LAUNCH_CHECK();
    count_above_kernel<T><<<blocks_for(p->k), CHECK_BLOCK>>>(val, p->k, p->order, f, &f->above_result);
    STATUS_LAUNCH_CHECK();
    count_above_kernel<T><<<blocks_for(p->n), CHECK_BLOCK>>>(p->values, p->n, p->order, f, &f->above_v);
    STATUS_LAUNCH_CHECK();
    return DRTOPK_OK;
}

static drtopk_status dispatch(const drtopk_problem *p, const void *val, const uint64_t *idx, unsigned *seen,
                              check_found *f)
{
    switch (p->dtype) {
    case DRTOPK_U32: return run_kernels<DRTOPK_U32>(p, val, idx, seen, f);
    case DRTOPK_I32: return run_kernels<DRTOPK_I32>(p, val, idx, seen, f);
    case DRTOPK_F32: return run_kernels<DRTOPK_F32>(p, val, idx, seen, f);
    case DRTOPK_F16: return run_kernels<DRTOPK_F16>(p, val, idx, seen, f);
    case DRTOPK_BF16: return run_kernels<DRTOPK_BF16>(p, val, idx, seen, f);
    case DRTOPK_U64: return run_kernels<DRTOPK_U64>(p, val, idx, seen, f);
    case DRTOPK_I64: return run_kernels<DRTOPK_I64>(p, val, idx, seen, f);
    default: return run_kernels<DRTOPK_F64>(p, val, idx, seen, f);
    }
}

static drtopk_status copy_back(void *dst, const void *src, size_t bytes)
{
    STATUS_CUDA_TRY(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
    return DRTOPK_OK;
}

/* The host checker's message for the first failure the kernels found. */
static drtopk_status explain(const drtopk_problem *p, const void *val, const uint64_t *idx, check_found *d_f,
                             const check_found *f, dh_check_result *r)
{
    const size_t es = drtopk_dtype_size(p->dtype);
    const int w = drtopk_dtype_bits(p->dtype) / 4;
    drtopk_status st;
    uint64_t x = 0, got = 0, want = 0;
    if (f->bad_pos != NONE) {
        if ((st = copy_back(&x, idx + f->bad_pos, sizeof x)) != DRTOPK_OK) return st;
        if (x >= p->n) {
            *r = dh_check_failed("index %" PRIu64 " at result position %llu is out of range (n = %" PRIu64 ")", x,
                                 f->bad_pos, p->n);
            return DRTOPK_OK;
        }
        if ((st = copy_back(&got, (const char *)val + f->bad_pos * es, es)) != DRTOPK_OK ||
            (st = copy_back(&want, (const char *)p->values + x * es, es)) != DRTOPK_OK)
            return st;
        *r = dh_check_failed("value 0x%0*" PRIx64 " at result position %llu is not V[%" PRIu64 "] = 0x%0*" PRIx64, w,
                             drtopk_bits_at(&got, 0, p->dtype), f->bad_pos, x, w, drtopk_bits_at(&want, 0, p->dtype));
        return DRTOPK_OK;
    }
    if (f->dup_pos != NONE) {
        unsigned long long other = NONE;
        if ((st = copy_back(&x, idx + f->dup_pos, sizeof x)) != DRTOPK_OK) return st;
        STATUS_CUDA_TRY(cudaMemcpy(&d_f->bad_pos, &other, sizeof other, cudaMemcpyHostToDevice));
        first_position_kernel<<<blocks_for(p->k), CHECK_BLOCK>>>(idx, p->k, x, f->dup_pos, &d_f->bad_pos);
        STATUS_LAUNCH_CHECK();
        if ((st = copy_back(&other, &d_f->bad_pos, sizeof other)) != DRTOPK_OK) return st;
        *r = dh_check_failed("index %" PRIu64 " repeats at result positions %llu and %llu", x,
                             other < f->dup_pos ? other : f->dup_pos, other < f->dup_pos ? f->dup_pos : other);
        return DRTOPK_OK;
    }
    *r = dh_check_failed("not a top-k: V holds %llu elements above the result's minimum key 0x%0*llx, the result "
                         "only %llu", f->above_v, w, f->min_key, f->above_result);
    return DRTOPK_OK;
}

static drtopk_status check_with(const drtopk_problem *p, const void *val, const uint64_t *idx, unsigned *seen,
                                check_found *d_f, dh_check_result *r)
{
    const check_found init = { NONE, NONE, NONE, 0, 0 };
    check_found f;
    drtopk_status st;
    STATUS_CUDA_TRY(cudaMemset(seen, 0, (p->n + BITMAP_WORD_BITS - 1) / BITMAP_WORD_BITS * sizeof *seen));
    STATUS_CUDA_TRY(cudaMemcpy(d_f, &init, sizeof init, cudaMemcpyHostToDevice));
    if ((st = dispatch(p, val, idx, seen, d_f)) != DRTOPK_OK) return st;
    STATUS_CUDA_TRY(cudaMemcpy(&f, d_f, sizeof f, cudaMemcpyDeviceToHost));
    if (f.bad_pos == NONE && f.dup_pos == NONE && f.above_v == f.above_result) {
        r->ok = 1;
        r->why[0] = '\0';
        return DRTOPK_OK;
    }
    return explain(p, val, idx, d_f, &f, r);
}

extern "C" drtopk_status dh_dev_check(const drtopk_problem *p, const void *d_values, const uint64_t *d_indices,
                                      dh_check_result *r)
{
    if (r == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    if (p == NULL || p->values == NULL || p->n == 0 || p->k == 0 || p->k > p->n ||
        (unsigned)p->dtype >= DRTOPK_DTYPE_COUNT || (unsigned)p->order > DRTOPK_SMALLEST) {
        *r = dh_check_failed("invalid problem given to the checker");
        return DRTOPK_OK;
    }
    if (d_values == NULL || d_indices == NULL) {
        *r = dh_check_failed("result values or indices are NULL");
        return DRTOPK_OK;
    }
    unsigned *seen = NULL;
    check_found *d_f = NULL;
    const size_t seen_bytes = (p->n + BITMAP_WORD_BITS - 1) / BITMAP_WORD_BITS * sizeof *seen;
    if (cudaMalloc(&seen, seen_bytes) != cudaSuccess || cudaMalloc(&d_f, sizeof *d_f) != cudaSuccess) {
        cudaGetLastError();          /* leave no error pending: the caller checks on the host */
        cudaFree(seen);
        return DRTOPK_ERR_OUT_OF_MEMORY;
    }
    const drtopk_status st = check_with(p, d_values, d_indices, seen, d_f, r);
    cudaFree(seen);
    cudaFree(d_f);
    return st;
}
