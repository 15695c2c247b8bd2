/*
 * device_cache.cu -- the per-device facts the launchers size their grids and
 * shared memory by (device_common.cuh): multiprocessor count, compute
 * capability, the shared-memory opt-in limit, and the occupancy of each
 * persistent kernel, queried once per device and process, because the host
 * queries cost more than a small top-k's kernels.  Thread-safe: one mutex
 * guards the tables; a reader gets a pointer to an entry that is written once
 * and never moved.  Also the record of the CUDA error pending at the start of
 * a library call (DRTOPK_LAUNCH_CHECK).
 */
#include <pthread.h>
#include <string.h>

#include "device_common.cuh"

#define DRTOPK_MAX_DEVICES 64          /* device ordinals the cache holds             */
#define DRTOPK_OCC_ENTRIES 256         /* (device, kernel, shape) occupancy entries   */

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

static thread_local cudaError_t pending_at_entry = cudaSuccess;

void drtopk_pending_error_begin(void) { pending_at_entry = cudaPeekAtLastError(); }
cudaError_t drtopk_pending_error_at_entry(void) { return pending_at_entry; }

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

drtopk_status drtopk_device_check_supported(void)
{
    int dev;
    const drtopk_device_attrs *a;
    drtopk_status st = drtopk_device_current(&dev, &a);
    if (st != DRTOPK_OK) return st;
    if (a->cc_major < DRTOPK_MIN_CC_MAJOR) {
        drtopk_error_set("GPU %d (%s) has compute capability %d.%d; drtopk needs %d.0 or newer "
                         "(cp.async and 164 KB of shared memory per SM)",
                         dev, a->name, a->cc_major, a->cc_minor, DRTOPK_MIN_CC_MAJOR);
        return DRTOPK_ERR_UNSUPPORTED;
    }
    return DRTOPK_OK;
}
