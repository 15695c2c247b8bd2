/*
 * microbench_stub.c -- the CPU-only build's stand-in for kernels/microbench.cu
 * (paper Eq. 11's C_global and C_shfl need a GPU).
 */
#include "microbench.h"

drtopk_status drtopk_microbench_cycles(int gpu, double *c_global, double *c_shfl)
{
    (void)gpu;
    (void)c_global;
    (void)c_shfl;
    return DRTOPK_ERR_NO_BACKEND;
}
