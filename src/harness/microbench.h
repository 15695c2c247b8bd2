/*
 * microbench.h -- the two cycle counts of Rule 4's theoretical const (paper
 * section 5.2, Eq. 11): C_global, the cycles of one global memory access, and
 * C_shfl, the cycles of one __shfl_sync, each measured as a dependent chain
 * with clock64() (src/harness/microbench.cu; the CPU build's stub returns
 * DRTOPK_ERR_NO_BACKEND).
 */
#ifndef DRTOPK_MICROBENCH_H
#define DRTOPK_MICROBENCH_H
#include "drtopk.h"

#ifdef __cplusplus
extern "C" {
#endif

drtopk_status dh_microbench_cycles(int gpu, double *c_global, double *c_shfl);

#ifdef __cplusplus
}
#endif
#endif
