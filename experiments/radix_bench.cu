/*
 * radix_bench.cu -- microbenchmark of the flag-based radix top-k
 * (kernels/radix_topk.cu, paper sections 4.3 and 5.1) called directly, moved
 * out of tests/gpu/test_radix.cu: RAW u32 UD and f32-bits smallest at
 * n = 2^30 beside a plain read of V, PAIRS (as the delegate pipeline hands
 * them over) at n = 2^27 with and without skip-last-digit, and PAIRS at the
 * sizes the pipeline's first and second top-k see; median ms of 7 CUDA-event
 * timed calls after one warm-up.  The standalone RAW u32 rows are also what
 * `tuner --algo radix` stores (tests/gpu/run.sh step algos); this program adds
 * the PAIRS and skip rows, and a one-call-per-k mode for ncu.
 *
 *   radix_bench            the table
 *   radix_bench --profile  RAW u32 UD n = 2^30, one call per k (for ncu)
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>
#include <cuda_runtime.h>
#include "kernels.h"
#include "radix_data.cuh"
#include "cuda_check.h"

#define BENCH_REPS 7
#define BENCH_SEED_RAW 42
#define BENCH_SEED_PAIRS 43
#define READ_THREADS 256
#define READ_BLOCKS_PER_SM 8
#define READ_SINK_MAGIC 0x12345678u    /* a value the xor never hits in practice */

__global__ void read_floor_kernel(const uint4 *v, uint64_t nvec, uint32_t *sink)
{
    uint32_t acc = 0;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < nvec; i += (uint64_t)gridDim.x * blockDim.x) {
        uint4 r = __ldg(v + i);
        acc ^= r.x ^ r.y ^ r.z ^ r.w;
    }
    if (acc == READ_SINK_MAGIC) *sink = acc; /* keeps the loads alive */
}

static float median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

static float time_it(const std::function<void()> &f)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    f(); /* warm-up */
    CK(cudaDeviceSynchronize());
    std::vector<float> ms;
    for (int r = 0; r < BENCH_REPS; ++r) {
        CK(cudaEventRecord(a));
        f();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float t;
        CK(cudaEventElapsedTime(&t, a, b));
        ms.push_back(t);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return median(ms);
}

static void bench_one(const char *label, topk_input in, uint64_t cap, double in_bytes)
{
    topk_output out;
    memset(&out, 0, sizeof out);
    out.capacity = cap;
    const size_t pos_size = in.pos64 ? 8 : 4;
    CK(cudaMalloc(&out.keys, cap * 4));
    CK(cudaMalloc(&out.pos, cap * pos_size));
    CK(cudaMalloc(&out.d_count, 8));
    CK(cudaMalloc(&out.d_threshold, 4));
    size_t ws_bytes;
    if (radix_topk_workspace(&in, &ws_bytes) != DRTOPK_OK) {
        printf("%s: workspace query failed\n", label);
        exit(2);
    }
    void *ws;
    CK(cudaMalloc(&ws, ws_bytes));
    drtopk_status st = DRTOPK_OK;
    float ms = time_it([&] {
        drtopk_status s2 = radix_topk(&in, &out, ws, ws_bytes, 0);
        if (s2 != DRTOPK_OK) st = s2;
    });
    uint64_t count;
    CK(cudaMemcpy(&count, out.d_count, 8, cudaMemcpyDeviceToHost));
    printf("%-34s k=2^%-2d %9.3f ms %8.1f GB/s  count=%llu ws=%.1f MB%s\n", label, 63 - __builtin_clzll(in.k), ms,
           in_bytes / ms / 1e6, (unsigned long long)count, ws_bytes / 1e6, st == DRTOPK_OK ? "" : " STATUS ERROR");
    cudaFree(out.keys);
    cudaFree(out.pos);
    cudaFree(out.d_count);
    cudaFree(out.d_threshold);
    cudaFree(ws);
}

/* One call per k on RAW u32 UD n = 2^30, for per-kernel timing under ncu. */
static void run_profile()
{
    const uint64_t n = 1ull << 30;
    uint32_t *d_v;
    CK(cudaMalloc(&d_v, n * 4));
    gen_raw_kernel<<<gen_grid(n), GEN_THREADS>>>(d_v, n, BENCH_SEED_RAW, DRTOPK_DIST_UD, DRTOPK_U32);
    CK(cudaGetLastError());
    for (int e : {0, 16, 24}) {
        topk_input in;
        memset(&in, 0, sizeof in);
        in.src = TOPK_SRC_RAW;
        in.raw = d_v;
        in.n_max = n;
        in.k = 1ull << e;
        topk_output out;
        memset(&out, 0, sizeof out);
        out.capacity = in.k;
        CK(cudaMalloc(&out.keys, in.k * 4));
        CK(cudaMalloc(&out.pos, in.k * 4));
        CK(cudaMalloc(&out.d_count, 8));
        CK(cudaMalloc(&out.d_threshold, 4));
        size_t ws_bytes = 0;
        void *ws;
        if (radix_topk_workspace(&in, &ws_bytes) != DRTOPK_OK) exit(2);
        CK(cudaMalloc(&ws, ws_bytes));
        printf("profile k=2^%d status %d\n", e, (int)radix_topk(&in, &out, ws, ws_bytes, 0));
        CK(cudaDeviceSynchronize());
        cudaFree(out.keys);
        cudaFree(out.pos);
        cudaFree(out.d_count);
        cudaFree(out.d_threshold);
        cudaFree(ws);
    }
    cudaFree(d_v);
}

static void run_bench()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("GPU: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    const uint64_t n = 1ull << 30;
    const int kexp[] = {0, 10, 16, 20, 24};
    uint32_t *d_v, *sink;
    CK(cudaMalloc(&d_v, n * 4));
    CK(cudaMalloc(&sink, 4));
    gen_raw_kernel<<<gen_grid(n), GEN_THREADS>>>(d_v, n, BENCH_SEED_RAW, DRTOPK_DIST_UD, DRTOPK_U32);
    CK(cudaGetLastError());
    float floor_ms = time_it([&] {
        read_floor_kernel<<<prop.multiProcessorCount * READ_BLOCKS_PER_SM, READ_THREADS>>>((const uint4 *)d_v, n / 4, sink);
    });
    printf("%-34s        %9.3f ms %8.1f GB/s\n", "read floor (u32, 2^30)", floor_ms, n * 4.0 / floor_ms / 1e6);
    for (int e : kexp) {
        topk_input in;
        memset(&in, 0, sizeof in);
        in.src = TOPK_SRC_RAW;
        in.raw = d_v;
        in.dtype = DRTOPK_U32;
        in.order = DRTOPK_LARGEST;
        in.n_max = n;
        in.k = 1ull << e;
        bench_one("RAW u32 UD n=2^30", in, in.k, n * 4.0);
    }
    for (int e : kexp) {
        topk_input in;
        memset(&in, 0, sizeof in);
        in.src = TOPK_SRC_RAW;
        in.raw = d_v;
        in.dtype = DRTOPK_F32;
        in.order = DRTOPK_SMALLEST;
        in.n_max = n;
        in.k = 1ull << e;
        bench_one("RAW f32-bits smallest n=2^30", in, in.k, n * 4.0);
    }
    cudaFree(d_v);
    const uint64_t np = 1ull << 27;
    uint32_t *d_keys;
    void *d_pos;
    CK(cudaMalloc(&d_keys, np * 4));
    CK(cudaMalloc(&d_pos, np * 4));
    gen_pairs_kernel<<<gen_grid(np), GEN_THREADS>>>(d_keys, d_pos, 0, np, BENCH_SEED_PAIRS, DRTOPK_DIST_UD, DRTOPK_U32,
                                                    DRTOPK_LARGEST);
    CK(cudaGetLastError());
    for (int skip = 0; skip < 2; ++skip)
        for (int e : kexp) {
            topk_input in;
            memset(&in, 0, sizeof in);
            in.src = TOPK_SRC_PAIRS;
            in.keys = d_keys;
            in.pos = d_pos;
            in.n_max = np;
            in.k = 1ull << e;
            in.skip_last_digit = skip;
            bench_one(skip ? "PAIRS pos32 UD n=2^27 skip cap=2k" : "PAIRS pos32 UD n=2^27", in,
                      skip ? 2 * in.k : in.k, np * 4.0);
        }
    /* sizes the pipeline's first and second top-k see (launch-bound) */
    for (int e = 14; e <= 23; e += 3) {
        topk_input in;
        memset(&in, 0, sizeof in);
        in.src = TOPK_SRC_PAIRS;
        in.keys = d_keys;
        in.pos = d_pos;
        in.n_max = 1ull << e;
        in.k = 1ull << 10;
        in.skip_last_digit = 1;
        char label[64];
        snprintf(label, sizeof label, "PAIRS pos32 UD n=2^%d skip cap=2k", e);
        bench_one(label, in, 2 * in.k, in.n_max * 4.0);
    }
    cudaFree(d_keys);
    cudaFree(d_pos);
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--profile")) {
        run_profile();
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--profile]\n", argv[0]);
        return 2;
    }
    run_bench();
    return 0;
}
