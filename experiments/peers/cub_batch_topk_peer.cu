/*
 * cub_batch_topk_peer.cu -- the CUB peer of the batched benchmark
 * (experiments/batch_bench.sh): cub::DeviceBatchedTopK::MaxPairs (CCCL >= 3.5)
 * on the same seeded f32 data as `drtopk batch` (gen_core.h, dist UD, on the
 * device), keys + positions within each segment (a counting iterator, as
 * drtopk and torch.topk derive them), unsorted; timed with CUDA events, one
 * warm-up, median of --reps (--timing gpu, the default as `drtopk batch`'s:
 * the stream held by src/harness/stream_hold.cuh's kernel until the call is
 * enqueued, so the span is GPU time; --timing call: events around the call
 * on an idle stream); checked per segment with the counting rule
 * (m = smallest returned key: count(segment > m) == count(result > m), each
 * position holds its key).
 *
 * DeviceBatchedTopK runs one block per segment and needs the largest segment
 * length as a compile-time bound (cuda::args::bounds); only bounds whose block
 * fits in shared memory compile.  This peer instantiates SEG_BOUND_SMALL and
 * SEG_BOUND_LARGE; a workload with a longer segment prints a "skipped" line.
 *
 *   cub_batch_topk_peer --workloads FILE.tsv [--reps 7] [--seed 1] [--timing gpu|call]
 *   FILE.tsv: name <tab> RxC | offsets.u64 <tab> k   (experiments/batch_bench.sh)
 * prints one JSON line per workload for `tuner --import-peers` (peer
 * "batch.cub_batched_topk", dist UD, dtype f32, peer_version = CCCL version
 * and the workload, "timing" and "unprimed": repetitions whose hold timed out,
 * which then include the enqueue).
 */
#include <cub/device/device_batched_topk.cuh>
#include <cuda/__execution/determinism.h>
#include <cuda/__execution/output_ordering.h>
#include <cuda/__execution/require.h>
#include <cuda/__execution/tie_break.h>
#include <cuda/argument>
#include <cuda/iterator>
#include <cuda/std/__cccl/version.h>
#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>
#include "gen_core.h"
#include "cuda_check.h"
#include "stream_hold.cuh"

#define DEFAULT_SEED 1ull           /* drtopk batch's default seed: same data */
#define DEFAULT_REPS 7
#define SEG_BOUND_SMALL 256         /* MoE rows: the smallest covering block   */
#define SEG_BOUND_LARGE 8192        /* the longest f32 pair segment CUB's block takes */
#define K_BOUND 1024                /* largest k the workloads ask             */
#define THREADS 256
#define GRID 1024                   /* grid-stride generator                  */
#define UUID_BYTES 16
#define UUID_TEXT_LEN 48
#define LINE_MAX_LEN 1024

__global__ void gen_kernel(float *v, uint64_t n, uint64_t seed)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t b = (uint32_t)dh_gen_bits(seed, i, DRTOPK_DIST_UD, DRTOPK_F32);
        memcpy(&v[i], &b, sizeof b);
    }
}

/* One block per segment: bad[0] += segments failing the counting rule or holding a wrong position. */
__global__ void check_kernel(const float *v, const uint64_t *off, const float *rk, const int *rp, int k,
                             unsigned long long *bad)
{
    __shared__ float m;
    __shared__ unsigned long long cv, cr, wrong;
    const uint64_t s = blockIdx.x, lo = off[s], len = off[s + 1] - off[s];
    const int ks = (int)(len < (uint64_t)k ? len : (uint64_t)k);
    const float *r = rk + s * (uint64_t)k;
    const int *p = rp + s * (uint64_t)k;
    if (threadIdx.x == 0) {
        float t = INFINITY;
        for (int i = 0; i < ks; ++i) t = fminf(t, r[i]);
        m = t; cv = cr = wrong = 0;
    }
    __syncthreads();
    unsigned long long a = 0, b = 0, w = 0;
    for (uint64_t i = threadIdx.x; i < len; i += blockDim.x) a += v[lo + i] > m;
    for (int i = threadIdx.x; i < ks; i += blockDim.x) {
        b += r[i] > m;
        w += p[i] < 0 || (uint64_t)p[i] >= len || v[lo + p[i]] != r[i];
    }
    atomicAdd(&cv, a); atomicAdd(&cr, b); atomicAdd(&wrong, w);
    __syncthreads();
    if (threadIdx.x == 0 && (cv != cr || wrong)) atomicAdd(bad, 1ull);
}

struct seg_begin {              /* segment s -> its first key */
    const float *v; const uint64_t *off;
    __host__ __device__ const float *operator()(int64_t s) const { return v + off[s]; }
};
struct seg_size {
    const uint64_t *off;
    __host__ __device__ int64_t operator()(int64_t s) const { return (int64_t)(off[s + 1] - off[s]); }
};
template <typename T> struct seg_out {  /* segment s -> its k slots */
    T *base; int64_t k;
    __host__ __device__ T *operator()(int64_t s) const { return base + s * k; }
};
struct seg_positions {
    __host__ __device__ cuda::counting_iterator<int> operator()(int64_t) const { return cuda::counting_iterator<int>(0); }
};

template <int64_t Bound>
static cudaError_t run_cub(void *tmp, size_t &bytes, const float *d_v, const uint64_t *d_off, float *d_rk, int *d_rp,
                           int64_t segs, int k)
{
    auto segments = cuda::counting_iterator<int64_t>(0);
    auto keys_in = cuda::transform_iterator(segments, seg_begin{ d_v, d_off });
    auto keys_out = cuda::transform_iterator(segments, seg_out<float>{ d_rk, k });
    auto pos_in = cuda::transform_iterator(segments, seg_positions{});
    auto pos_out = cuda::transform_iterator(segments, seg_out<int>{ d_rp, k });
    auto sizes = cuda::args::deferred_sequence{ cuda::transform_iterator(segments, seg_size{ d_off }),
                                                cuda::args::bounds<(int64_t)1, Bound>() };
    auto env = cuda::execution::require(cuda::execution::determinism::not_guaranteed,
                                        cuda::execution::tie_break::unspecified,
                                        cuda::execution::output_ordering::unsorted);
    return cub::DeviceBatchedTopK::MaxPairs(tmp, bytes, keys_in, keys_out, pos_in, pos_out, sizes,
                                            cuda::args::immediate{ (int64_t)k, cuda::args::bounds<(int64_t)1, (int64_t)K_BOUND>() },
                                            segs, env);
}

static void format_uuid(const cudaUUID_t &u, char *out, size_t len)
{
    size_t at = (size_t)snprintf(out, len, "GPU-");
    for (int i = 0; i < UUID_BYTES && at < len; ++i)
        at += (size_t)snprintf(out + at, len - at, "%s%02x", (i == 4 || i == 6 || i == 8 || i == 10) ? "-" : "",
                               (unsigned char)u.bytes[i]);
}

int main(int argc, char **argv)
{
    const char *work = NULL;
    int reps = DEFAULT_REPS;
    unsigned long long seed = DEFAULT_SEED;
    int gpu_timing = 1;             /* --timing gpu */
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--workloads")) work = argv[i + 1];
        else if (!strcmp(argv[i], "--timing") && (!strcmp(argv[i + 1], "gpu") || !strcmp(argv[i + 1], "call")))
            gpu_timing = !strcmp(argv[i + 1], "gpu");
        else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 10);
        else { fprintf(stderr, "cub_batch_topk_peer: unknown option %s\n", argv[i]); return 2; }
    }
    FILE *wf = work ? fopen(work, "r") : NULL;
    if (!wf || reps < 1) {
        fprintf(stderr, "usage: cub_batch_topk_peer --workloads FILE.tsv [--reps R >= 1] [--seed S] "
                        "[--timing gpu|call]\n");
        return 2;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    char uuid[UUID_TEXT_LEN];
    format_uuid(prop.uuid, uuid, sizeof uuid);
    drtopk_stream_hold hold;
    CK(drtopk_hold_create(&hold));
    char line[LINE_MAX_LEN], name[LINE_MAX_LEN], shape[LINE_MAX_LEN];
    int k;
    while (fgets(line, sizeof line, wf) && sscanf(line, "%1023[^\t]\t%1023[^\t]\t%d", name, shape, &k) == 3) {
        std::vector<uint64_t> off;
        unsigned long long rows, cols;
        if (sscanf(shape, "%llux%llu", &rows, &cols) == 2 && !strstr(shape, ".u64")) {
            for (unsigned long long r = 0; r <= rows; ++r) off.push_back(r * cols);
        } else {
            FILE *f = fopen(shape, "rb");
            uint64_t o;
            while (f && fread(&o, sizeof o, 1, f) == 1) off.push_back(o);
            if (f) fclose(f);
            if (off.size() < 2) { fprintf(stderr, "cub_batch_topk_peer: cannot read offsets %s\n", shape); return 2; }
        }
        const int64_t segs = (int64_t)off.size() - 1;
        const uint64_t n = off.back();
        uint64_t longest = 0, shortest = UINT64_MAX;
        for (int64_t s = 0; s < segs; ++s) {
            longest = std::max(longest, off[s + 1] - off[s]);
            shortest = std::min(shortest, off[s + 1] - off[s]);
        }
        printf("{\"peer\":\"batch.cub_batched_topk\",\"gpu\":\"%s\",\"uuid\":\"%s\",\"seed\":%llu,\"dist\":\"UD\","
               "\"dtype\":\"f32\",\"n\":%llu,\"k\":%d,\"peer_version\":\"CCCL %d.%d.%d %s\"", prop.name, uuid, seed,
               (unsigned long long)n, k, CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION, name);
        if (longest > SEG_BOUND_LARGE || shortest < (uint64_t)k) {
            printf(",\"skipped\":\"not supported: segments of %llu..%llu keys (one block per segment takes at most "
                   "%d f32 pairs; this peer also needs k <= every segment)\"}\n",
                   (unsigned long long)shortest, (unsigned long long)longest, SEG_BOUND_LARGE);
            fflush(stdout);
            continue;
        }
        float *d_v, *d_rk;
        int *d_rp;
        uint64_t *d_off;
        unsigned long long *d_bad;
        CK(cudaMalloc(&d_v, n * sizeof(float)));
        CK(cudaMalloc(&d_off, off.size() * sizeof(uint64_t)));
        CK(cudaMalloc(&d_rk, (size_t)segs * k * sizeof(float)));
        CK(cudaMalloc(&d_rp, (size_t)segs * k * sizeof(int)));
        CK(cudaMalloc(&d_bad, sizeof *d_bad));
        CK(cudaMemcpy(d_off, off.data(), off.size() * sizeof(uint64_t), cudaMemcpyHostToDevice));
        gen_kernel<<<GRID, THREADS>>>(d_v, n, seed);
        CK(cudaGetLastError());
        const bool small = longest <= SEG_BOUND_SMALL;
        size_t bytes = 0;
        void *tmp = NULL;
        CK(small ? run_cub<SEG_BOUND_SMALL>(NULL, bytes, d_v, d_off, d_rk, d_rp, segs, k)
                 : run_cub<SEG_BOUND_LARGE>(NULL, bytes, d_v, d_off, d_rk, d_rp, segs, k));
        CK(cudaMalloc(&tmp, bytes ? bytes : 1));
        cudaEvent_t e0, e1;
        CK(cudaEventCreate(&e0));
        CK(cudaEventCreate(&e1));
        std::vector<float> ms;
        int unprimed = 0;
        for (int r = 0; r <= reps; ++r) {       /* r == 0: warm-up */
            if (gpu_timing) CK(drtopk_hold_begin(&hold, 0, DRTOPK_HOLD_TIMEOUT_NS));
            CK(cudaEventRecord(e0));
            CK(small ? run_cub<SEG_BOUND_SMALL>(tmp, bytes, d_v, d_off, d_rk, d_rp, segs, k)
                     : run_cub<SEG_BOUND_LARGE>(tmp, bytes, d_v, d_off, d_rk, d_rp, segs, k));
            CK(cudaEventRecord(e1));
            if (gpu_timing) drtopk_hold_release(&hold);
            CK(cudaEventSynchronize(e1));
            float t;
            CK(cudaEventElapsedTime(&t, e0, e1));
            if (r) {
                ms.push_back(t);
                unprimed += gpu_timing && !drtopk_hold_primed(&hold);
            }
        }
        CK(cudaMemset(d_bad, 0, sizeof *d_bad));
        check_kernel<<<(unsigned)segs, THREADS>>>(d_v, d_off, d_rk, d_rp, k, d_bad);
        CK(cudaGetLastError());
        unsigned long long bad;
        CK(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost));
        std::sort(ms.begin(), ms.end());
        printf(",\"ms_median\":%.4f,\"ms_min\":%.4f,\"ms_max\":%.4f,\"reps\":%d,\"verified\":%d,"
               "\"timing\":\"%s\",\"unprimed\":%d}\n", ms[ms.size() / 2], ms.front(), ms.back(), reps, bad == 0,
               gpu_timing ? "gpu" : "call", unprimed);
        fflush(stdout);
        CK(cudaEventDestroy(e0));
        CK(cudaEventDestroy(e1));
        void *bufs[] = { d_v, d_off, d_rk, d_rp, d_bad, tmp };
        for (void *b : bufs) CK(cudaFree(b));
    }
    fclose(wf);
    drtopk_hold_destroy(&hold);
    return 0;
}
