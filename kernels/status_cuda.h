/*
 * status_cuda.h -- checked CUDA calls for device code that stands on the
 * public API (drtopk.h) alone and is linked into programs, not into
 * libdrtopk: the library's out-of-core and multi-GPU modules (ooc.cu,
 * topk_list.cu; paper section 5.4) and the harness's device code
 * (device_util.cu, device_gen.cu, microbench.cu, knn_device.cu).  A failure
 * returns its status and records no message: drtopk_last_error's record is
 * internal to libdrtopk (device_common.cuh's DRTOPK_CUDA_TRY writes it there).
 */
#ifndef DRTOPK_STATUS_CUDA_H
#define DRTOPK_STATUS_CUDA_H
#include <cuda_runtime.h>
#include "drtopk.h"

/* Check a CUDA call; on failure return DRTOPK_ERR_CUDA (or OUT_OF_MEMORY). */
#define STATUS_CUDA_TRY(call)                                                   \
    do {                                                                        \
        cudaError_t e_ = (call);                                                \
        if (e_ != cudaSuccess)                                                  \
            return e_ == cudaErrorMemoryAllocation ? DRTOPK_ERR_OUT_OF_MEMORY   \
                                                   : DRTOPK_ERR_CUDA;           \
    } while (0)
/* After a launch: catch configuration errors without synchronising. */
#define STATUS_LAUNCH_CHECK() STATUS_CUDA_TRY(cudaGetLastError())
#endif
