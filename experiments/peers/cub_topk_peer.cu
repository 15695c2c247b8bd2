/*
 * cub_topk_peer.cu -- the modern-peer baseline of issue 4 item 6: CUB's
 * DeviceTopK (CCCL >= 3.2, AIR top-k) on the same seeded data as drtopk
 * (gen_core.h, generated on the device), timed like every drtopk row (CUDA
 * events, one warm-up, median of 7; --timing gpu, the default as the tuner's:
 * the stream held by src/harness/stream_hold.cuh's kernel until the call is
 * enqueued, so the span is GPU time; --timing call: events around the call on
 * an idle stream, the host's enqueue included) and checked with the O(n) counting rule:
 * with m the smallest returned key, count(V > m) == count(result > m) and all
 * k results are distinct positions holding their keys.
 *
 * Positions come from a counting iterator, as drtopk and torch.topk derive
 * them: materialising an n-element index array would add 4 bytes of reads per
 * element that no other contender pays.
 *
 * DeviceTopK in CCCL 3.5 accepts only the opted-out requirements
 * (determinism::not_guaranteed, output_ordering::unsorted), checked at compile
 * time in cub/device/device_topk.cuh; that is what we request.
 *
 * The item count and k are passed as --items 32 or 64-bit integers (DeviceTopK
 * is templated on their type; 32-bit counts take a faster path where |V| <
 * 2^32): each width is one configuration of the peer, named in the peer field
 * as "cub_device_topk.i<width>.<CCCL version>" so that the figures can take
 * the fastest configuration per point (experiments/sql/fig_rows.sql).
 *
 *   cub_topk_peer [--log-n 30] [--dists UD,ND,CD] [--k-log4-max 12] [--reps 7]
 *                 [--seed 1] [--items 64|32] [--ks K,K,...] [--timing gpu|call]
 * --ks: these k (<= |V|) instead of 4^0 .. 4^E
 * prints one JSON line per (dist, k) (tuner --import-peers stores them):
 *   {"peer":"cub_device_topk.i64.3.5.0","gpu":...,"uuid":"GPU-...","cccl":"3.5.0",
 *    "seed":..,"n":..,"k":..,"dist":..,"dtype":"u32","ms_median":..,"ms_min":..,
 *    "ms_max":..,"reps":..,"verified":0|1,"timing":"gpu"|"call","unprimed":..}
 * (unprimed: repetitions whose hold timed out, which then include the enqueue)
 */
#include <algorithm>
#include <cub/device/device_topk.cuh>
#include <cuda/__execution/determinism.h>
#include <cuda/__execution/output_ordering.h>
#include <cuda/__execution/require.h>
#include <cuda/iterator>
#include <cuda/std/__cccl/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include "gen_core.h"
#include "cuda_check.h"
#include "stream_hold.cuh"

#define DEFAULT_SEED 1ull           /* the tuner's and drtopk run's default seed: same data */
#define UUID_BYTES 16
#define UUID_TEXT_LEN 48            /* "GPU-" + 32 hex digits + 4 dashes + NUL */
#define DEFAULT_LOG_N 30
#define DEFAULT_REPS 7
#define DEFAULT_K_LOG4_MAX 12       /* k = 4^0 .. 4^12 = 2^24               */
#define THREADS 256
#define BLOCKS_PER_SM 8             /* grid-stride kernels: enough in flight */
#define ITEMS_BITS_WIDE 64          /* --items: the item count's integer width  */
#define ITEMS_BITS_NARROW 32
#define PEER_NAME_LEN 32            /* store.h's drtopk_store_peer.peer          */
#define MAX_KS 64                   /* --ks entries                               */

__global__ void gen_kernel(uint32_t *v, uint64_t n, drtopk_dist d, uint64_t seed)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        v[i] = drtopk_gen_bits(seed, i, d, DRTOPK_U32);
}

/* cnt[0] = #V > m, cnt[1] = #results > m, cnt[2] = #results whose key is not V[pos] */
__global__ void count_kernel(const uint32_t *v, uint64_t n, const uint32_t *rk, const uint32_t *rp, uint64_t k,
                             const uint32_t *m, unsigned long long *cnt)
{
    const uint32_t t = *m;
    unsigned long long gv = 0, gr = 0, bad = 0;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        gv += v[i] > t;
        if (i < k) {
            gr += rk[i] > t;
            bad += rp[i] >= n || v[rp[i]] != rk[i];
        }
    }
    atomicAdd(&cnt[0], gv);
    atomicAdd(&cnt[1], gr);
    atomicAdd(&cnt[2], bad);
}

__global__ void min_kernel(const uint32_t *rk, uint64_t k, uint32_t *m)
{
    uint32_t lo = 0xFFFFFFFFu;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < k; i += (uint64_t)gridDim.x * blockDim.x)
        lo = min(lo, rk[i]);
    atomicMin(m, lo);
}

/* The 16 UUID bytes grouped 4-2-2-2-6 after "GPU-", as nvidia-smi -L (and
 * drtopk's machines.uuid) print them, so that imported rows find their machine. */
static void format_uuid(const cudaUUID_t &u, char *out, size_t len)
{
    size_t at = (size_t)snprintf(out, len, "GPU-");
    for (int i = 0; i < UUID_BYTES && at < len; ++i)
        at += (size_t)snprintf(out + at, len - at, "%s%02x", (i == 4 || i == 6 || i == 8 || i == 10) ? "-" : "",
                               (unsigned char)u.bytes[i]);
}

/* One DeviceTopK call with the item count and k as N (uint32_t or uint64_t). */
template <typename N, typename Env>
static cudaError_t max_pairs(void *d_tmp, size_t &bytes, const uint32_t *d_v, uint32_t *d_rk,
                             cuda::counting_iterator<uint32_t> positions, uint32_t *d_rp, uint64_t n, uint64_t k,
                             const Env &env)
{
    return cub::DeviceTopK::MaxPairs(d_tmp, bytes, d_v, d_rk, positions, d_rp, (N)n, (N)k, env);
}

/* Distinct positions: the host sorts a copy (k <= 2^24, cheap). */
static int positions_distinct(const uint32_t *d_rp, uint64_t k)
{
    std::vector<uint32_t> p(k);
    CK(cudaMemcpy(p.data(), d_rp, k * 4, cudaMemcpyDeviceToHost));
    std::sort(p.begin(), p.end());
    return std::adjacent_find(p.begin(), p.end()) == p.end();
}

int main(int argc, char **argv)
{
    int log_n = DEFAULT_LOG_N, reps = DEFAULT_REPS, k_log4_max = DEFAULT_K_LOG4_MAX;
    unsigned long long seed = DEFAULT_SEED;
    char *end = NULL;
    const char *dists = "UD,ND,CD";
    int items = ITEMS_BITS_WIDE;
    int gpu_timing = 1;             /* --timing gpu */
    unsigned long long ks[MAX_KS];
    int nks = 0;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--log-n")) log_n = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--items")) items = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--reps")) reps = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--k-log4-max")) k_log4_max = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--dists")) dists = argv[a + 1];
        else if (!strcmp(argv[a], "--timing") && (!strcmp(argv[a + 1], "gpu") || !strcmp(argv[a + 1], "call")))
            gpu_timing = !strcmp(argv[a + 1], "gpu");
        else if (!strcmp(argv[a], "--ks")) {
            for (const char *p = argv[a + 1]; *p && nks < MAX_KS; p = *end == ',' ? end + 1 : end) {
                ks[nks] = strtoull(p, &end, 10);
                if (end == p || ks[nks] == 0 || (*end != ',' && *end != 0)) {
                    fprintf(stderr, "bad --ks '%s': positive integers separated by commas\n", argv[a + 1]);
                    return 2;
                }
                ++nks;
            }
        }
        else if (!strcmp(argv[a], "--seed")) {
            seed = strtoull(argv[a + 1], &end, 0);
            if (*end == 0) continue;
            fprintf(stderr, "bad --seed '%s'\n", argv[a + 1]);
            return 2;
        } else {
            fprintf(stderr, "usage: %s [--log-n N] [--reps R] [--k-log4-max E] [--dists UD,ND,CD] [--seed S] "
                            "[--items 64|32] [--ks K,K,...] [--timing gpu|call]\n", argv[0]);
            return 2;
        }
    }
    if (items != ITEMS_BITS_WIDE && items != ITEMS_BITS_NARROW) {
        fprintf(stderr, "--items %d: 32 or 64 (bits of the item count passed to DeviceTopK)\n", items);
        return 2;
    }
    if (items == ITEMS_BITS_NARROW && log_n >= ITEMS_BITS_NARROW) {
        fprintf(stderr, "--items 32 needs |V| < 2^32 (--log-n %d)\n", log_n);
        return 2;
    }
    char peer[PEER_NAME_LEN];
    snprintf(peer, sizeof peer, "cub_device_topk.i%d.%d.%d.%d", items, CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION,
             CCCL_PATCH_VERSION);
    const uint64_t n = 1ull << log_n;
    if (nks == 0)
        for (uint64_t k = 1; k <= (1ull << (2 * k_log4_max)) && nks < MAX_KS; k *= 4) ks[nks++] = k;
    uint64_t kmax = 0;
    for (int i = 0; i < nks; ++i) kmax = std::max<uint64_t>(kmax, std::min<uint64_t>(ks[i], n));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int grid = prop.multiProcessorCount * BLOCKS_PER_SM;
    char uuid[UUID_TEXT_LEN];
    format_uuid(prop.uuid, uuid, sizeof uuid);
    uint32_t *d_v, *d_rk, *d_rp, *d_m;
    const cuda::counting_iterator<uint32_t> positions(0);
    unsigned long long *d_cnt;
    CK(cudaMalloc(&d_v, n * 4));
    CK(cudaMalloc(&d_rk, kmax * 4));
    CK(cudaMalloc(&d_rp, kmax * 4));
    CK(cudaMalloc(&d_m, 4));
    CK(cudaMalloc(&d_cnt, 3 * sizeof(unsigned long long)));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    drtopk_stream_hold hold;
    CK(drtopk_hold_create(&hold));
    const auto env = cuda::execution::require(cuda::execution::determinism::not_guaranteed,
                                              cuda::execution::output_ordering::unsorted);
    const auto topk = [&](void *d_tmp, size_t &bytes, uint64_t k) {
        return items == ITEMS_BITS_NARROW ? max_pairs<uint32_t>(d_tmp, bytes, d_v, d_rk, positions, d_rp, n, k, env)
                                          : max_pairs<uint64_t>(d_tmp, bytes, d_v, d_rk, positions, d_rp, n, k, env);
    };
    const struct { const char *name; drtopk_dist d; } all[] = {
        {"UD", DRTOPK_DIST_UD}, {"ND", DRTOPK_DIST_ND}, {"CD", DRTOPK_DIST_CD}};
    for (const auto &ds : all) {
        if (!strstr(dists, ds.name)) continue;
        gen_kernel<<<grid, THREADS>>>(d_v, n, ds.d, seed);
        CK(cudaGetLastError());
        for (int ki = 0; ki < nks; ++ki) {
            const uint64_t k = ks[ki];
            if (k > n) continue;
            size_t bytes = 0;
            void *d_tmp = NULL;
            CK(topk(d_tmp, bytes, k));
            CK(cudaMalloc(&d_tmp, bytes));
            std::vector<float> ms;
            int unprimed = 0;
            for (int r = 0; r <= reps; ++r) {        /* r == 0: warm-up */
                if (gpu_timing) CK(drtopk_hold_begin(&hold, 0, DRTOPK_HOLD_TIMEOUT_NS));
                CK(cudaEventRecord(e0));
                CK(topk(d_tmp, bytes, k));
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
            CK(cudaFree(d_tmp));
            CK(cudaMemset(d_m, 0xFF, 4));
            CK(cudaMemset(d_cnt, 0, 3 * sizeof(unsigned long long)));
            min_kernel<<<grid, THREADS>>>(d_rk, k, d_m);
            count_kernel<<<grid, THREADS>>>(d_v, n, d_rk, d_rp, k, d_m, d_cnt);
            unsigned long long cnt[3];
            CK(cudaMemcpy(cnt, d_cnt, sizeof cnt, cudaMemcpyDeviceToHost));
            const int ok = cnt[0] == cnt[1] && cnt[2] == 0 && positions_distinct(d_rp, k);
            std::sort(ms.begin(), ms.end());
            printf("{\"peer\":\"%s\",\"gpu\":\"%s\",\"uuid\":\"%s\",\"cccl\":\"%d.%d.%d\",\"seed\":%llu,"
                   "\"n\":%llu,\"k\":%llu,\"dist\":\"%s\",\"dtype\":\"u32\","
                   "\"ms_median\":%.6f,\"ms_min\":%.6f,\"ms_max\":%.6f,\"reps\":%d,\"verified\":%d,"
                   "\"timing\":\"%s\",\"unprimed\":%d}\n",
                   peer, prop.name, uuid, CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION, seed,
                   (unsigned long long)n, (unsigned long long)k, ds.name, ms[ms.size() / 2], ms.front(),
                   ms.back(), (int)ms.size(), ok, gpu_timing ? "gpu" : "call", unprimed);
            fflush(stdout);
        }
    }
    return 0;
}
