/*
 * device_cache.cu -- the per-device facts the launchers size their grids and
 * shared memory by (device_common.cuh): multiprocessor count, compute
 * capability, the shared-memory opt-in limit, and the occupancy of each
 * persistent kernel, and the largest dynamic shared memory each kernel was allowed,
 * queried or set once per device and process, because the host calls cost
 * more than a small top-k's kernels.  Thread-safe: one mutex guards the
 * tables; a reader gets a pointer to an entry that is written once and never
 * moved.  Also the entry step that takes a CUDA error pending before a
 * library call (drtopk_cuda_entry_take_pending, so DRTOPK_LAUNCH_CHECK reads
 * each launch's own error), whether the runtime sees a GPU at all
 * (drtopk_cuda_usable), and the check that this build has code for the
 * current GPU.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "device_common.cuh"

#define DRTOPK_MAX_DEVICES 64          /* device ordinals the cache holds             */
#define DRTOPK_OCC_ENTRIES 256         /* (device, kernel, shape) occupancy entries   */
#define DRTOPK_SMEM_ENTRIES 256        /* (device, kernel, bytes) shared-memory grants */
#define DRTOPK_CC_SCALE 100            /* __CUDA_ARCH_LIST__ writes cc 8.6 as 860:    */
#define DRTOPK_CC_MINOR_SCALE 10       /* major x 100 + minor x 10                    */
#define DRTOPK_USABLE_WHY_LEN 256      /* drtopk_cuda_usable's reason: one sentence   */

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static drtopk_device_attrs dev_attrs[DRTOPK_MAX_DEVICES];
static int dev_known[DRTOPK_MAX_DEVICES];

typedef struct {
    int dev, threads, blocks_per_sm;
    const void *kernel;
    size_t smem;
} occ_entry;
static occ_entry occ[DRTOPK_OCC_ENTRIES];
static int occ_count;

/* The attribute is a ceiling on every later launch of the kernel, not a
 * per-launch size: an entry records the largest grant on (dev, kernel), which
 * only ever rises, so a launch is never refused because a smaller request
 * lowered the ceiling after a larger one was recorded. */
typedef struct {
    int dev;
    const void *kernel;
    size_t bytes;
} smem_entry;
static smem_entry smem_set[DRTOPK_SMEM_ENTRIES];
static int smem_count;

static int take_cuda_error(void) { return (int)cudaGetLastError(); }
static const char *cuda_error_name(int e) { return cudaGetErrorName((cudaError_t)e); }

drtopk_status drtopk_cuda_entry_take_pending(const char *entry)
{
    return drtopk_pending_take(take_cuda_error, cuda_error_name, entry);
}

/* drtopk_cuda_usable's answer, found once per process: a CUDA runtime that
 * finds no driver or no device finds none later either. */
static pthread_once_t usable_once = PTHREAD_ONCE_INIT;
static int usable;
static char usable_why[DRTOPK_USABLE_WHY_LEN];

static void find_usable(void)
{
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    (void)cudaGetLastError();   /* the answer is ours: leave no error pending for the caller */
    usable = e == cudaSuccess && count > 0;
    if (e == cudaErrorInsufficientDriver)
        snprintf(usable_why, sizeof usable_why, "no NVIDIA driver, or one older than this CUDA runtime "
                 "(%s); install the driver, or use the CPU backend", cudaGetErrorName(e));
    else if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0))
        snprintf(usable_why, sizeof usable_why, "the CUDA runtime sees no GPU (cudaErrorNoDevice: none installed, "
                 "or CUDA_VISIBLE_DEVICES hides them); use the CPU backend");
    else if (e != cudaSuccess)
        snprintf(usable_why, sizeof usable_why, "the CUDA runtime cannot count the GPUs: %s (%s); use the CPU "
                 "backend", cudaGetErrorString(e), cudaGetErrorName(e));
}

int drtopk_cuda_usable(const char **why)
{
    pthread_once(&usable_once, find_usable);
    *why = usable_why;
    return usable;
}

static drtopk_status query_device(int dev, drtopk_device_attrs *a)
{
    cudaDeviceProp prop;
    int optin = 0;
    DRTOPK_CUDA_TRY(cudaGetDeviceProperties(&prop, dev));
    DRTOPK_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    a->sm_count = prop.multiProcessorCount;
    a->cc_major = prop.major;
    a->cc_minor = prop.minor;
    a->smem_optin = (size_t)optin;
    strncpy(a->name, prop.name, sizeof a->name - 1);
    a->name[sizeof a->name - 1] = '\0';
    return DRTOPK_OK;
}

drtopk_status drtopk_device_current(int *dev, const drtopk_device_attrs **attrs)
{
    int d;
    drtopk_status st = DRTOPK_OK;
    DRTOPK_CUDA_TRY(cudaGetDevice(&d));
    if (d < 0 || d >= DRTOPK_MAX_DEVICES) {
        drtopk_error_set("device %d: the attribute cache holds devices 0..%d", d, DRTOPK_MAX_DEVICES - 1);
        return DRTOPK_ERR_UNSUPPORTED;
    }
    pthread_mutex_lock(&cache_lock);
    if (!dev_known[d]) {
        st = query_device(d, &dev_attrs[d]);
        if (st == DRTOPK_OK) dev_known[d] = 1;
    }
    pthread_mutex_unlock(&cache_lock);
    if (st != DRTOPK_OK) return st;
    if (dev) *dev = d;
    *attrs = &dev_attrs[d];
    return DRTOPK_OK;
}

drtopk_status drtopk_kernel_occupancy(const void *kernel, int threads, size_t smem,
                                      drtopk_kernel_prepare_fn prepare, int *blocks_per_sm)
{
    int dev;
    const drtopk_device_attrs *a;
    drtopk_status st = drtopk_device_current(&dev, &a);
    if (st != DRTOPK_OK) return st;
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < occ_count; ++i) {
        const occ_entry *e = &occ[i];
        if (e->dev == dev && e->kernel == kernel && e->threads == threads && e->smem == smem) {
            *blocks_per_sm = e->blocks_per_sm;
            pthread_mutex_unlock(&cache_lock);
            return DRTOPK_OK;
        }
    }
    cudaError_t e = prepare ? prepare(kernel) : cudaSuccess;
    int per_sm = 0;
    if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem);
    if (e == cudaSuccess) {
        if (per_sm < 1) per_sm = 1;
        if (occ_count < DRTOPK_OCC_ENTRIES) occ[occ_count++] = occ_entry{dev, threads, per_sm, kernel, smem};
        *blocks_per_sm = per_sm;
    }
    pthread_mutex_unlock(&cache_lock);
    if (e != cudaSuccess) {
        drtopk_error_set("occupancy query on device %d (%s): %s", dev, a->name, cudaGetErrorString(e));
        return drtopk_status_of(e);
    }
    return DRTOPK_OK;
}

/* The grant entry of `kernel` on `dev`, or NULL; the caller holds cache_lock. */
static smem_entry *smem_find(int dev, const void *kernel)
{
    for (int i = 0; i < smem_count; ++i)
        if (smem_set[i].dev == dev && smem_set[i].kernel == kernel) return &smem_set[i];
    return NULL;
}

drtopk_status drtopk_kernel_dynamic_smem(const void *kernel, size_t bytes)
{
    int dev;
    const drtopk_device_attrs *a;
    drtopk_status st = drtopk_device_current(&dev, &a);
    if (st != DRTOPK_OK) return st;
    pthread_mutex_lock(&cache_lock);
    smem_entry *known = smem_find(dev, kernel);
    if (known && known->bytes >= bytes) {
        pthread_mutex_unlock(&cache_lock);
        return DRTOPK_OK;
    }
    cudaFuncAttributes fa;
    cudaError_t e = cudaFuncGetAttributes(&fa, kernel);
    const int fits = e == cudaSuccess && fa.sharedSizeBytes + bytes <= a->smem_optin;
    if (fits) e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    if (fits && e == cudaSuccess) {
        if (known) known->bytes = bytes;
        else if (smem_count < DRTOPK_SMEM_ENTRIES) smem_set[smem_count++] = smem_entry{dev, kernel, bytes};
    }
    pthread_mutex_unlock(&cache_lock);
    if (e != cudaSuccess) {
        drtopk_error_set("shared-memory attribute on device %d (%s): %s", dev, a->name, cudaGetErrorString(e));
        return drtopk_status_of(e);
    }
    if (!fits) {
        drtopk_error_set("GPU %d (%s) allows %zu bytes of shared memory per block; a kernel needs %zu "
                         "(%zu static + %zu dynamic)",
                         dev, a->name, a->smem_optin, fa.sharedSizeBytes + bytes, fa.sharedSizeBytes, bytes);
        return DRTOPK_ERR_UNSUPPORTED;
    }
    return DRTOPK_OK;
}

/* The oldest architecture this build holds code for (cc x DRTOPK_CC_SCALE):
 * a GPU at or above it runs the machine code of an architecture of its own
 * major version, or the PTX of the newest built, which the driver compiles. */
static constexpr int oldest_built_arch(void)
{
    constexpr int archs[] = {__CUDA_ARCH_LIST__};
    int m = archs[0];
    for (int x : archs) m = x < m ? x : m;
    return m;
}
static constexpr int cc_code(int major, int minor)
{
    return major * DRTOPK_CC_SCALE + minor * DRTOPK_CC_MINOR_SCALE;
}
static_assert(oldest_built_arch() >= cc_code(DRTOPK_MIN_CC_MAJOR, DRTOPK_MIN_CC_MINOR),
              "the kernels compile for compute capability DRTOPK_MIN_CC_MAJOR.DRTOPK_MIN_CC_MINOR and newer");

drtopk_status drtopk_device_check_supported(void)
{
    int dev;
    const drtopk_device_attrs *a;
    drtopk_status st = drtopk_device_current(&dev, &a);
    if (st != DRTOPK_OK) return st;
    const int built = oldest_built_arch();
    if (cc_code(a->cc_major, a->cc_minor) < built) {
        drtopk_error_set("GPU %d (%s) has compute capability %d.%d; this build of drtopk holds code for "
                         "%d.%d and newer (./configure.sh --arch=sm_XY builds for any from %d.%d)",
                         dev, a->name, a->cc_major, a->cc_minor, built / DRTOPK_CC_SCALE,
                         built % DRTOPK_CC_SCALE / DRTOPK_CC_MINOR_SCALE, DRTOPK_MIN_CC_MAJOR, DRTOPK_MIN_CC_MINOR);
        return DRTOPK_ERR_UNSUPPORTED;
    }
    return DRTOPK_OK;
}
