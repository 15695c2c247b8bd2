/*
 * cuda_check.h -- the one CUDA-call check of the GPU test and benchmark
 * programs (tests/gpu, experiments/peers): a failed call prints where and why
 * and ends the program with exit status 2, so a harness never mistakes a
 * broken device for a result.
 */
#ifndef DRTOPK_CUDA_CHECK_H
#define DRTOPK_CUDA_CHECK_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(call)                                                                                  \
    do {                                                                                          \
        cudaError_t e_ = (call);                                                                  \
        if (e_ != cudaSuccess) {                                                                  \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(2);                                                                              \
        }                                                                                         \
    } while (0)

#endif
