/*
 * microbench.cu -- C_global and C_shfl of Rule 4's theoretical const (paper
 * section 5.2, Eq. 2 and 11), in cycles, with clock64() around dependent
 * chains so that every operation waits for the previous one (latency, not
 * throughput).  C_global: one thread chases a chain of global loads whose
 * addresses lie a large stride apart in a buffer bigger than L2, so each load
 * goes to DRAM; C_shfl: one warp runs __shfl_xor_sync on its own result.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include "status_cuda.h"
#include "microbench.h"

/* 256 MiB of uint32: larger than the L2 of every GPU we target (H100 50 MB,
 * H200 60 MB). */
#define MB_CHASE_ELEMS (1u << 26)
/* Successive loads land 4 MiB + 4 KiB + 128 B apart: another page, another
 * cache line, no stride a prefetcher follows across pages. */
#define MB_CHASE_STRIDE ((1u << 20) + (1u << 10) + 32u)
#define MB_CHASE_STEPS 4096     /* dependent loads timed                     */
#define MB_WARMUP_STEPS 64      /* untimed loads: TLB and instruction warm-up */
#define MB_SHFL_STEPS 8192      /* dependent shuffles timed                  */
#define MB_SHFL_UNROLL 32
#define MB_FILL_THREADS 256
#define MB_FULL_MASK 0xffffffffu
#define MB_WARP 32

__global__ void mb_fill_chain(uint32_t *buf)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < MB_CHASE_ELEMS;
         i += (uint64_t)gridDim.x * blockDim.x)
        buf[i] = (uint32_t)((i + MB_CHASE_STRIDE) % MB_CHASE_ELEMS);
}

__global__ void mb_chase(const uint32_t *buf, long long *cycles, uint32_t *sink)
{
    uint32_t j = 0;
    for (int i = 0; i < MB_WARMUP_STEPS; ++i)
        j = buf[j];
    long long t0 = clock64();
    for (int i = 0; i < MB_CHASE_STEPS; ++i)
        j = __ldcg(buf + j);    /* L2/DRAM: the L1 would hide nothing here anyway */
    long long t1 = clock64();
    *cycles = t1 - t0;
    *sink = j;                  /* keeps the chain alive */
}

__global__ void mb_shfl(long long *cycles, uint32_t *sink)
{
    uint32_t v = threadIdx.x;
    __syncwarp();
    long long t0 = clock64();
    for (int i = 0; i < MB_SHFL_STEPS / MB_SHFL_UNROLL; ++i) {
#pragma unroll
        for (int u = 0; u < MB_SHFL_UNROLL; ++u)
            v = __shfl_xor_sync(MB_FULL_MASK, v, 1);
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) {
        *cycles = t1 - t0;
        *sink = v;
    }
}

static drtopk_status run_microbench(double *c_global, double *c_shfl, uint32_t *buf,
                                    long long *d_cycles, uint32_t *d_sink)
{
    long long cycles = 0;
    int sms = 0, dev = 0;
    STATUS_CUDA_TRY(cudaGetDevice(&dev));
    STATUS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    mb_fill_chain<<<sms * 4, MB_FILL_THREADS>>>(buf);
    STATUS_LAUNCH_CHECK();
    mb_chase<<<1, 1>>>(buf, d_cycles, d_sink);
    STATUS_LAUNCH_CHECK();
    STATUS_CUDA_TRY(cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost));
    *c_global = (double)cycles / MB_CHASE_STEPS;
    mb_shfl<<<1, MB_WARP>>>(d_cycles, d_sink);
    STATUS_LAUNCH_CHECK();
    STATUS_CUDA_TRY(cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost));
    *c_shfl = (double)cycles / MB_SHFL_STEPS;
    return DRTOPK_OK;
}

extern "C" drtopk_status dh_microbench_cycles(int gpu, double *c_global, double *c_shfl)
{
    if (!c_global || !c_shfl)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    STATUS_CUDA_TRY(cudaSetDevice(gpu));
    uint32_t *buf = NULL, *d_sink = NULL;
    long long *d_cycles = NULL;
    STATUS_CUDA_TRY(cudaMalloc(&buf, (size_t)MB_CHASE_ELEMS * sizeof(uint32_t)));
    drtopk_status st = DRTOPK_OK;
    if (cudaMalloc(&d_cycles, sizeof *d_cycles) != cudaSuccess ||
        cudaMalloc(&d_sink, sizeof *d_sink) != cudaSuccess)
        st = DRTOPK_ERR_OUT_OF_MEMORY;
    if (st == DRTOPK_OK)
        st = run_microbench(c_global, c_shfl, buf, d_cycles, d_sink);
    cudaFree(buf);
    cudaFree(d_cycles);
    cudaFree(d_sink);
    return st;
}
