/*
 * device_common.cuh -- the device commons every CUDA file of the library
 * shares (paper section 5: warp-centric kernels): warp, mask, vector and
 * alignment constants; the warp scan; the checked-call and launch-check macros; the one
 * workspace carving helper; the cooperative launch configuration; the
 * key-type x position-width dispatcher; and the thread-safe per-device
 * attribute cache (device_cache.cu).  Host programs never include it.
 */
#ifndef DRTOPK_DEVICE_COMMON_CUH
#define DRTOPK_DEVICE_COMMON_CUH
#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime.h>
#include "drtopk.h"
#include "backend.h"

/* ---- constants ------------------------------------------------------------ */
#define DRTOPK_WARP 32u                    /* threads per warp                          */
#define DRTOPK_LOG2_WARP 5                 /* log2(DRTOPK_WARP)                         */
#define DRTOPK_LANE_MASK (DRTOPK_WARP - 1u) /* lane of a thread index                   */
#define DRTOPK_FULL_MASK 0xFFFFFFFFu       /* every lane of a warp (shuffles, ballots)   */
#define DRTOPK_ALL_ONES 0xFFFFFFFFu        /* order mask of the smallest; empty keys     */
#define DRTOPK_VEC_BYTES 16                /* one 16-byte load (uint4)                   */
#define DRTOPK_VEC 4                       /* 4-byte keys per 16-byte load               */
#define DRTOPK_WS_ALIGN 256                /* every workspace region: cudaMalloc's alignment */
#define DRTOPK_KEY_BITS 32                 /* ordered keys are 32-bit                    */
#define DRTOPK_GRID_MAX 0x7FFFFFFFull      /* largest gridDim.x                          */

/* ---- asynchronous global-to-shared copies -------------------------------------- */
#define DRTOPK_CP_ASYNC_ARCH 800           /* __CUDA_ARCH__ from which cp.async exists */

/* 16-byte asynchronous global-to-shared copy (sm_80+), cached in L2 only:
 * the input is read once.  Below sm_80 (no cp.async) a plain load, also L2
 * only, that has landed when it returns, so the commit and wait are empty
 * there. */
__device__ __forceinline__ void cp_async16(uint4 *dst, const uint4 *src)
{
#if __CUDA_ARCH__ >= DRTOPK_CP_ASYNC_ARCH
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((uint32_t)__cvta_generic_to_shared(dst)),
                 "l"(src)
                 : "memory");
#else
    *dst = __ldcg(src);
#endif
}
__device__ __forceinline__ void cp_async_commit()
{
#if __CUDA_ARCH__ >= DRTOPK_CP_ASYNC_ARCH
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
/* Wait until at most `pending` of this thread's copy groups are in flight. */
template <int pending>
__device__ __forceinline__ void cp_async_wait()
{
#if __CUDA_ARCH__ >= DRTOPK_CP_ASYNC_ARCH
    asm volatile("cp.async.wait_group %0;\n" ::"n"(pending) : "memory");
#endif
}

/* ---- warp scan ---------------------------------------------------------------- */
/* Inclusive sum of x over lanes 0..lane of the calling warp (every lane calls
 * it); with LANES < 32, fewer shuffle steps, and only the first LANES lanes'
 * results are their sums. */
template <unsigned LANES = DRTOPK_WARP, typename T>
__device__ __forceinline__ T warp_incl_sum(T x)
{
    static_assert(LANES >= 1 && LANES <= DRTOPK_WARP, "a scan over at most a warp's lanes");
    const unsigned lane = threadIdx.x & DRTOPK_LANE_MASK;
#pragma unroll
    for (unsigned d = 1; d < LANES; d <<= 1) {
        const T o = __shfl_up_sync(DRTOPK_FULL_MASK, x, d);
        if (lane >= d) x += o;
    }
    return x;
}

/* The calling warp's AND and OR of 64-bit words (two 32-bit reductions each;
 * every lane calls them and gets the result). */
__device__ __forceinline__ uint64_t warp_and64(uint64_t x)
{
    return (uint64_t)__reduce_and_sync(DRTOPK_FULL_MASK, (uint32_t)(x >> 32)) << 32 |
           __reduce_and_sync(DRTOPK_FULL_MASK, (uint32_t)x);
}
__device__ __forceinline__ uint64_t warp_or64(uint64_t x)
{
    return (uint64_t)__reduce_or_sync(DRTOPK_FULL_MASK, (uint32_t)(x >> 32)) << 32 |
           __reduce_or_sync(DRTOPK_FULL_MASK, (uint32_t)x);
}

/* ---- checked calls ---------------------------------------------------------- */
/* The status of a CUDA error: allocation failures are OUT_OF_MEMORY. */
static inline drtopk_status drtopk_status_of(cudaError_t e)
{
    return e == cudaSuccess ? DRTOPK_OK
           : e == cudaErrorMemoryAllocation ? DRTOPK_ERR_OUT_OF_MEMORY
                                            : DRTOPK_ERR_CUDA;
}

/* Check a CUDA call; on failure record the CUDA error's name for
 * drtopk_last_error and return DRTOPK_ERR_CUDA (or OUT_OF_MEMORY). */
#define DRTOPK_CUDA_TRY(call)                                                          \
    do {                                                                               \
        cudaError_t e_ = (call);                                                       \
        if (e_ != cudaSuccess) {                                                       \
            drtopk_error_set("%s: %s (%s:%d)", #call, cudaGetErrorString(e_),          \
                             __FILE__, __LINE__);                                      \
            return drtopk_status_of(e_);                                               \
        }                                                                              \
    } while (0)

/* After a launch: catch configuration errors without synchronising.  Reads
 * and clears the runtime's error (cudaGetLastError): the library's CUDA
 * entries take any error pending before them first
 * (drtopk_cuda_entry_take_pending), so what it reads is this launch's own
 * error, whatever its code, and a failure is reported by the call's status
 * without leaving the error pending (a sticky error stays: the context is
 * lost). */
#define DRTOPK_LAUNCH_CHECK()                                                          \
    do {                                                                               \
        cudaError_t e_ = cudaGetLastError();                                           \
        if (e_ != cudaSuccess) {                                                       \
            drtopk_error_set("kernel launch: %s (%s:%d)", cudaGetErrorString(e_),      \
                             __FILE__, __LINE__);                                      \
            return drtopk_status_of(e_);                                               \
        }                                                                              \
    } while (0)

/* The first step of a CUDA entry point that enqueues work (drtopk_select,
 * drtopk_batch_select): drtopk_pending_take with the CUDA runtime
 * (device_cache.cu).  `entry` names the public call in the message. */
drtopk_status drtopk_cuda_entry_take_pending(const char *entry);

/* ---- workspace carving ------------------------------------------------------ */
static inline size_t drtopk_align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

/* Reserve `bytes` at the next DRTOPK_WS_ALIGN offset of a region that starts
 * at an aligned `base` (NULL: only count); *off advances past it.  Sizing and
 * carving are one code path: call it with base NULL for the size. */
static inline void *drtopk_carve(char *base, size_t *off, size_t bytes)
{
    *off = drtopk_align_up(*off, DRTOPK_WS_ALIGN);
    void *p = base ? base + *off : NULL;
    *off += bytes;
    return p;
}

/* ---- source kind x key type x position width dispatch ------------------------ */
/* Where a top-k reads its keys from (kernels.h's topk_input.src). */
typedef enum {
    TOPK_SRC_RAW = 0,   /* raw V of `dtype`: key = drtopk_key_from_bits(V[i]),
                           position = i (standalone algorithms)               */
    TOPK_SRC_PAIRS      /* ordered keys[] with positions pos[] (delegate or
                           concatenated vector)                               */
} topk_source;

/* F is a functor class template: F<S, T, P>::run(args...) is called with the
 * source kind S (topk_source as int), the dtype T (DRTOPK_U32/I32/F32 as int)
 * and the position type P (uint32_t, or uint64_t when pos64).  Pairs carry
 * ordered keys whatever the dtype, so they take T = DRTOPK_U32 only.  One
 * switch for every launcher. */
template <template <int, int, typename> class F, int S, int T, typename... A>
static inline drtopk_status drtopk_dispatch_pos(int pos64, A... args)
{
    return pos64 ? F<S, T, uint64_t>::run(args...) : F<S, T, uint32_t>::run(args...);
}

template <template <int, int, typename> class F, typename... A>
static inline drtopk_status drtopk_dispatch_source(topk_source src, drtopk_dtype t, int pos64, A... args)
{
    if (src == TOPK_SRC_PAIRS) return drtopk_dispatch_pos<F, TOPK_SRC_PAIRS, DRTOPK_U32>(pos64, args...);
    if (src != TOPK_SRC_RAW) return DRTOPK_ERR_INVALID_ARGUMENT;
    switch (t) {
    case DRTOPK_U32: return drtopk_dispatch_pos<F, TOPK_SRC_RAW, DRTOPK_U32>(pos64, args...);
    case DRTOPK_I32: return drtopk_dispatch_pos<F, TOPK_SRC_RAW, DRTOPK_I32>(pos64, args...);
    case DRTOPK_F32: return drtopk_dispatch_pos<F, TOPK_SRC_RAW, DRTOPK_F32>(pos64, args...);
    default: return DRTOPK_ERR_INVALID_ARGUMENT;
    }
}

/* Raw input only (no source kind): F<T, P>::run(args...). */
template <template <int, typename> class F>
struct drtopk_raw_only {
    template <int S, int T, typename P>
    struct f {
        template <typename... A> static drtopk_status run(A... args) { return F<T, P>::run(args...); }
    };
};
template <template <int, typename> class F, typename... A>
static inline drtopk_status drtopk_dispatch(drtopk_dtype t, int pos64, A... args)
{
    return drtopk_dispatch_source<drtopk_raw_only<F>::template f>(TOPK_SRC_RAW, t, pos64, args...);
}

/* ---- per-device attributes (device_cache.cu) --------------------------------- */
typedef struct {
    int sm_count;
    int cc_major, cc_minor;
    size_t smem_optin;          /* cudaDevAttrMaxSharedMemoryPerBlockOptin */
    char name[256];
} drtopk_device_attrs;

/* The current device's attributes, queried once per device and process
 * (thread-safe). */
drtopk_status drtopk_device_current(int *dev, const drtopk_device_attrs **attrs);

/* Resident blocks per SM of `kernel` at `threads` per block and `smem` bytes
 * of dynamic shared memory on the current device, cached per (device, kernel,
 * threads, smem) (thread-safe).  `prepare`, when not NULL, runs once per
 * device before the query (cudaFuncSetAttribute calls; it runs under the
 * cache's lock, so it must not call back into the cache). */
typedef cudaError_t (*drtopk_kernel_prepare_fn)(const void *kernel);
drtopk_status drtopk_kernel_occupancy(const void *kernel, int threads, size_t smem,
                                      drtopk_kernel_prepare_fn prepare, int *blocks_per_sm);

/* Let `kernel` take `bytes` of dynamic shared memory on the current device
 * (cudaFuncAttributeMaxDynamicSharedMemorySize, a ceiling on all its later
 * launches): raised when `bytes` is above the kernel's largest grant on the
 * device so far, never lowered (thread-safe).  When `bytes` plus its static shared
 * memory exceed the GPU's opt-in limit: DRTOPK_ERR_UNSUPPORTED with a message
 * naming the GPU and the limit, instead of a launch failure. */
drtopk_status drtopk_kernel_dynamic_smem(const void *kernel, size_t bytes);

/* *cfg: a launch of `grid` blocks of `threads` on s with `smem` bytes of
 * dynamic shared memory and the one launch attribute *attr (zeroed here, for
 * the caller to fill; it must live until the launch), not yet in force
 * (numAttrs 0: the caller says when it is). */
static inline void drtopk_launch_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute *attr, unsigned grid,
                                        unsigned threads, size_t smem, cudaStream_t s)
{
    *cfg = cudaLaunchConfig_t{};
    *attr = cudaLaunchAttribute{};
    cfg->gridDim = dim3(grid);
    cfg->blockDim = dim3(threads);
    cfg->dynamicSmemBytes = smem;
    cfg->stream = s;
    cfg->attrs = attr;
}

/* *cfg: drtopk_launch_config's launch, cooperative when grid > 1 (the driver
 * makes the blocks co-resident or refuses the launch, and grid barriers
 * work). */
static inline void drtopk_coop_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute *coop, unsigned grid,
                                      unsigned threads, size_t smem, cudaStream_t s)
{
    drtopk_launch_config(cfg, coop, grid, threads, smem, s);
    coop->id = cudaLaunchAttributeCooperative;
    coop->val.cooperative = 1;
    cfg->numAttrs = grid > 1;           /* one block: no grid barrier */
}

/* Programmatic dependent launch (compute capability 9.0 and later): a grid
 * launched with drtopk_pdl_config may start while the previous grid of its
 * stream still runs, once every block of that grid has called
 * pdl_launch_dependents() or exited; pdl_wait() then holds each of its
 * threads until that grid has completed and its writes are visible.  A
 * kernel so launched calls pdl_wait() before it touches any memory (an
 * earlier grid may still write or read it).  Both are no-ops below 9.0 and
 * in a grid launched without it, so the kernels that call them run
 * unchanged in every other launch. */
#define DRTOPK_PDL_MIN_CC_MAJOR 9
__device__ __forceinline__ void pdl_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void pdl_launch_dependents()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* *cfg: drtopk_launch_config's launch, programmatically dependent on the
 * previous grid of s where the GPU has it (cc_major >=
 * DRTOPK_PDL_MIN_CC_MAJOR), a plain launch elsewhere. */
static inline void drtopk_pdl_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute *attr, unsigned grid,
                                     unsigned threads, size_t smem, cudaStream_t s, int cc_major)
{
    drtopk_launch_config(cfg, attr, grid, threads, smem, s);
    attr->id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr->val.programmaticStreamSerializationAllowed = 1;
    cfg->numAttrs = cc_major >= DRTOPK_PDL_MIN_CC_MAJOR;
}

/* The kernels compile for compute capability DRTOPK_MIN_CC_MAJOR.MINOR and
 * later (sm_75, the oldest CUDA 13 targets; cp.async has a plain-load
 * fallback below sm_80).  A build holds code for the architectures
 * configure.sh named; a GPU older than all of them gets DRTOPK_ERR_UNSUPPORTED
 * with a message naming the GPU and the oldest architecture built, instead of
 * a launch failure. */
#define DRTOPK_MIN_CC_MAJOR 7
#define DRTOPK_MIN_CC_MINOR 5
drtopk_status drtopk_device_check_supported(void);

#endif
