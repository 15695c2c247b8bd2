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

/* Output buffers and workspace of one radix_topk call. */
struct call_bufs {
    topk_output out;
    void *ws;
    size_t ws_bytes;
};

static call_bufs bufs_alloc(const topk_input &in, uint64_t cap, const char *label)
{
    call_bufs b;
    memset(&b, 0, sizeof b);
    b.out.capacity = cap;
    CK(cudaMalloc(&b.out.keys, cap * sizeof(uint32_t)));
    CK(cudaMalloc(&b.out.pos, cap * (in.pos64 ? sizeof(uint64_t) : sizeof(uint32_t))));
    CK(cudaMalloc(&b.out.d_count, sizeof(uint64_t)));
    CK(cudaMalloc(&b.out.d_threshold, sizeof(uint32_t)));
    if (radix_topk_workspace(&in, &b.ws_bytes) != DRTOPK_OK) {
        printf("%s: workspace query failed\n", label);
        exit(2);
    }
    CK(cudaMalloc(&b.ws, b.ws_bytes));
    return b;
}

static void bufs_free(call_bufs &b)
{
    cudaFree(b.out.keys);
    cudaFree(b.out.pos);
    cudaFree(b.out.d_count);
    cudaFree(b.out.d_threshold);
    cudaFree(b.ws);
}

static topk_input raw_in(const uint32_t *v, uint64_t n, drtopk_dtype t, drtopk_order o, uint64_t k)
{
    topk_input in;
    memset(&in, 0, sizeof in);
    in.src = TOPK_SRC_RAW;
    in.raw = v;
    in.dtype = t;
    in.order = o;
    in.n_max = n;
    in.k = k;
    return in;
}

static topk_input pairs_in(const uint32_t *keys, const void *pos, uint64_t n, uint64_t k, int skip)
{
    topk_input in;
    memset(&in, 0, sizeof in);
    in.src = TOPK_SRC_PAIRS;
    in.keys = keys;
    in.pos = pos;
    in.n_max = n;
    in.k = k;
    in.skip_last_digit = skip;
    return in;
}

static void bench_one(const char *label, topk_input in, uint64_t cap, double in_bytes)
{
    call_bufs b = bufs_alloc(in, cap, label);
    drtopk_status st = DRTOPK_OK;
    float ms = time_it([&] {
        drtopk_status s2 = radix_topk(&in, &b.out, b.ws, b.ws_bytes, 0);
        if (s2 != DRTOPK_OK) st = s2;
    });
    uint64_t count;
    CK(cudaMemcpy(&count, b.out.d_count, sizeof count, cudaMemcpyDeviceToHost));
    printf("%-34s k=2^%-2d %9.3f ms %8.1f GB/s  count=%llu ws=%.1f MB%s\n", label, 63 - __builtin_clzll(in.k), ms,
           in_bytes / ms / 1e6, (unsigned long long)count, b.ws_bytes / 1e6, st == DRTOPK_OK ? "" : " STATUS ERROR");
    bufs_free(b);
}

#define BENCH_LOG2_N 30
#define BENCH_LOG2_N_PAIRS 27
#define PIPELINE_K (1ull << 10)         /* k of the pipeline-sized PAIRS rows   */
#define SKIP_CAP_FACTOR 2               /* the pipeline's capacity with skip: 2k */

/* One call per k on RAW u32 UD n = 2^30, for per-kernel timing under ncu. */
static void run_profile()
{
    const uint64_t n = 1ull << BENCH_LOG2_N;
    uint32_t *d_v;
    CK(cudaMalloc(&d_v, n * sizeof(uint32_t)));
    gen_raw_kernel<<<gen_grid(n), GEN_THREADS>>>(d_v, n, BENCH_SEED_RAW, DRTOPK_DIST_UD, DRTOPK_U32);
    CK(cudaGetLastError());
    for (int e : {0, 16, 24}) {
        const topk_input in = raw_in(d_v, n, DRTOPK_U32, DRTOPK_LARGEST, 1ull << e);
        call_bufs b = bufs_alloc(in, in.k, "profile");
        printf("profile k=2^%d status %d\n", e, (int)radix_topk(&in, &b.out, b.ws, b.ws_bytes, 0));
        CK(cudaDeviceSynchronize());
        bufs_free(b);
    }
    cudaFree(d_v);
}

static void run_bench()
{
    static const struct { const char *label; drtopk_dtype t; drtopk_order o; } raw_sets[] = {
        { "RAW u32 UD n=2^30", DRTOPK_U32, DRTOPK_LARGEST },
        { "RAW f32-bits smallest n=2^30", DRTOPK_F32, DRTOPK_SMALLEST },
    };
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("GPU: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    const uint64_t n = 1ull << BENCH_LOG2_N;
    const int kexp[] = {0, 10, 16, 20, 24};
    uint32_t *d_v, *sink;
    CK(cudaMalloc(&d_v, n * sizeof(uint32_t)));
    CK(cudaMalloc(&sink, sizeof(uint32_t)));
    gen_raw_kernel<<<gen_grid(n), GEN_THREADS>>>(d_v, n, BENCH_SEED_RAW, DRTOPK_DIST_UD, DRTOPK_U32);
    CK(cudaGetLastError());
    float floor_ms = time_it([&] {
        read_floor_kernel<<<prop.multiProcessorCount * READ_BLOCKS_PER_SM, READ_THREADS>>>((const uint4 *)d_v,
                                                                                          n / 4, sink);
    });
    printf("%-34s        %9.3f ms %8.1f GB/s\n", "read floor (u32, 2^30)", floor_ms, n * 4.0 / floor_ms / 1e6);
    for (const auto &r : raw_sets)
        for (int e : kexp) bench_one(r.label, raw_in(d_v, n, r.t, r.o, 1ull << e), 1ull << e, n * 4.0);
    cudaFree(d_v);
    cudaFree(sink);
    const uint64_t np = 1ull << BENCH_LOG2_N_PAIRS;
    uint32_t *d_keys;
    void *d_pos;
    CK(cudaMalloc(&d_keys, np * sizeof(uint32_t)));
    CK(cudaMalloc(&d_pos, np * sizeof(uint32_t)));
    gen_pairs_kernel<<<gen_grid(np), GEN_THREADS>>>(d_keys, d_pos, 0, np, BENCH_SEED_PAIRS, DRTOPK_DIST_UD, DRTOPK_U32,
                                                    DRTOPK_LARGEST);
    CK(cudaGetLastError());
    for (int skip = 0; skip < 2; ++skip)
        for (int e : kexp) {
            const uint64_t k = 1ull << e;
            bench_one(skip ? "PAIRS pos32 UD n=2^27 skip cap=2k" : "PAIRS pos32 UD n=2^27",
                      pairs_in(d_keys, d_pos, np, k, skip), skip ? SKIP_CAP_FACTOR * k : k, np * 4.0);
        }
    /* sizes the pipeline's first and second top-k see (launch-bound) */
    for (int e = 14; e <= 23; e += 3) {
        char label[64];
        snprintf(label, sizeof label, "PAIRS pos32 UD n=2^%d skip cap=2k", e);
        bench_one(label, pairs_in(d_keys, d_pos, 1ull << e, PIPELINE_K, 1), SKIP_CAP_FACTOR * PIPELINE_K,
                  (1ull << e) * 4.0);
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
