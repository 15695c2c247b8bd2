/*
 * backend.h -- internal interface between the public API (api.c) and the two
 * backends: the CPU reference of the Dr. Top-k pipeline (cpu_ref.c) and the
 * CUDA pipeline (kernels/pipeline.cu, or cuda_stub.c in a --cpu-only build).
 * It also carries the few device utilities the CLI, tests and tuner need, so
 * that no host program includes CUDA headers.
 */
#ifndef DRTOPK_BACKEND_H
#define DRTOPK_BACKEND_H
#include "drtopk.h"
#include "gen_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* With skip-last-digit (paper 4.3) the first top-k may keep more than k
 * delegates; both backends cap that at this many times k (and at |D|) and
 * resolve the last digit when more would come out, which bounds the buffers
 * behind the concatenation and keeps the two backends' workloads equal. */
#define DRTOPK_SKIP_CAPACITY_FACTOR 2

/* ---- CPU reference backend (cpu_ref.c) -------------------------------- */
drtopk_status drtopk_cpu_workspace(const drtopk_problem *p, const drtopk_plan *plan, size_t *bytes);
drtopk_status drtopk_cpu_select(const drtopk_problem *p, const drtopk_plan *plan,
                                void *ws, size_t ws_bytes, void *out_values,
                                uint64_t *out_indices, drtopk_stats *stats);

/* ---- CUDA backend (kernels/pipeline.cu; cuda_stub.c returns NO_BACKEND) - */
int drtopk_cuda_available(void);   /* 1 when built with CUDA and a GPU is visible */
drtopk_status drtopk_cuda_workspace(const drtopk_problem *p, const drtopk_plan *plan, size_t *bytes);
drtopk_status drtopk_cuda_select(const drtopk_problem *p, const drtopk_plan *plan,
                                 void *ws, size_t ws_bytes, void *out_values,
                                 uint64_t *out_indices, void *stream, drtopk_stats *stats);

typedef struct {
    char name[256];
    char uuid[64];          /* "GPU-xxxxxxxx-..." as nvidia-smi prints it */
    int cc_major, cc_minor;
    int sm_count;
    uint64_t mem_bytes;
    uint64_t l2_bytes;
    int driver_version;     /* cudaDriverGetVersion, e.g. 13000 */
    int runtime_version;    /* cudaRuntimeGetVersion */
} drtopk_device_info;

enum { DRTOPK_COPY_H2D = 0, DRTOPK_COPY_D2H, DRTOPK_COPY_D2D };

drtopk_status drtopk_dev_select(int gpu);
drtopk_status drtopk_dev_info(int gpu, drtopk_device_info *info);
drtopk_status drtopk_dev_alloc(void **p, size_t bytes);
drtopk_status drtopk_dev_free(void *p);
drtopk_status drtopk_dev_copy(void *dst, const void *src, size_t bytes, int kind);
drtopk_status drtopk_dev_sync(void);
/* Fill d_out (device) with n elements of the seeded data set, bit-identical
 * to drtopk_gen_host (gen.c). */
drtopk_status drtopk_dev_generate(void *d_out, uint64_t n, drtopk_dist d, drtopk_dtype t,
                                  uint64_t seed, void *stream);
/* Read-bandwidth ceiling: ms to read `n` uint32 once with a streaming kernel
 * (median of `reps`); the denominator of every achieved-bandwidth figure. */
drtopk_status drtopk_dev_read_ms(const void *d_buf, uint64_t n, int reps, double *ms);

#ifdef __cplusplus
}
#endif
#endif
