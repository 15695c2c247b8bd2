/*
 * harness_cuda.h -- checked CUDA calls for the harness's own device code
 * (device_util.cu, device_gen.cu, microbench.cu).  The harness links the
 * public library only, so it has its own two macros instead of the library's
 * device commons.
 */
#ifndef DRTOPK_HARNESS_CUDA_H
#define DRTOPK_HARNESS_CUDA_H
#include <cuda_runtime.h>
#include "drtopk.h"

/* Check a CUDA call; on failure return DRTOPK_ERR_CUDA (or OUT_OF_MEMORY). */
#define HARNESS_CUDA_TRY(call)                                                  \
    do {                                                                        \
        cudaError_t e_ = (call);                                                \
        if (e_ != cudaSuccess)                                                  \
            return e_ == cudaErrorMemoryAllocation ? DRTOPK_ERR_OUT_OF_MEMORY   \
                                                   : DRTOPK_ERR_CUDA;           \
    } while (0)
/* After a launch: catch configuration errors without synchronising. */
#define HARNESS_LAUNCH_CHECK() HARNESS_CUDA_TRY(cudaGetLastError())
#endif
