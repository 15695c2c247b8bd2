/*
 * cub_topk_peer.cu -- the modern-peer baseline: CUB's
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
 * Key types (--dtypes): u32 i32 f32 f16 bf16 u64 i64 f64, as
 * DeviceTopK's uint32_t int32_t float __half __nv_bfloat16 uint64_t int64_t
 * double (cub/device/device_topk.cuh: every built-in numeric type and the two
 * 16-bit floats).  The elements are gen_core.h's bits of that type, so every
 * row sees the very values of drtopk's rows at that width.  CUB orders floats
 * by its radix twiddle, drtopk by keyorder.h (NaN above +inf, -0.0 = +0.0); the
 * benchmark data (UD, ND, CD) holds no NaN and no -0.0, so both select the
 * same set and only the timings differ; the check counts in keyorder.h's order.
 *
 *   cub_topk_peer [--log-n 30] [--dists UD,ND,CD] [--k-log4-max 12] [--reps 7]
 *                 [--seed 1] [--items 64|32] [--ks K,K,...] [--timing gpu|call]
 *                 [--dtypes u32,...]   (default u32)
 * --ks: these k (<= |V|) instead of 4^0 .. 4^E
 * prints one JSON line per (dtype, dist, k) (tuner --import-peers stores them):
 *   {"peer":"cub_device_topk.i64.3.5.0","gpu":...,"uuid":"GPU-...","cccl":"3.5.0",
 *    "seed":..,"n":..,"k":..,"dist":..,"dtype":"f16","ms_median":..,"ms_min":..,
 *    "ms_max":..,"reps":..,"verified":0|1,"timing":"gpu"|"call","unprimed":..}
 * (unprimed: repetitions whose hold timed out, which then include the enqueue)
 */
#include <algorithm>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
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
#define PEER_NAME_LEN 32            /* store.h's dh_store_peer.peer          */
#define MAX_KS 64                   /* --ks entries                               */
#define MAX_LIST_LEN 256            /* --dtypes text                              */

/* Element i of V: gen_core.h's raw bits of type t, stored in B (its width). */
template <typename B>
__global__ void gen_kernel(B *v, uint64_t n, dh_dist d, drtopk_dtype t, uint64_t seed)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        v[i] = (B)dh_gen_bits(seed, i, d, t);
}

/* The checks compare keyorder.h's ordered keys (a larger key is a better
 * candidate; NaN above +inf, -0.0 = +0.0), never CUB's own order.
 * cnt[0] = #V > m, cnt[1] = #results > m, cnt[2] = #results whose key is not V[pos] */
template <typename B>
__global__ void count_kernel(const B *v, uint64_t n, const B *rk, const uint32_t *rp, uint64_t k, drtopk_dtype t,
                             const unsigned long long *m, unsigned long long *cnt)
{
    const unsigned long long th = *m;
    unsigned long long gv = 0, gr = 0, bad = 0;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        gv += drtopk_key_any(v[i], t, DRTOPK_LARGEST) > th;
        if (i < k) {
            gr += drtopk_key_any(rk[i], t, DRTOPK_LARGEST) > th;
            bad += rp[i] >= n || v[rp[i]] != rk[i];
        }
    }
    atomicAdd(&cnt[0], gv);
    atomicAdd(&cnt[1], gr);
    atomicAdd(&cnt[2], bad);
}

/* m = the smallest ordered key of the k results. */
template <typename B>
__global__ void min_kernel(const B *rk, uint64_t k, drtopk_dtype t, unsigned long long *m)
{
    unsigned long long lo = ~0ull;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < k; i += (uint64_t)gridDim.x * blockDim.x)
        lo = min(lo, (unsigned long long)drtopk_key_any(rk[i], t, DRTOPK_LARGEST));
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

/* One DeviceTopK call on keys K with the item count and k as N (uint32_t or uint64_t). */
template <typename K, typename N, typename Env>
static cudaError_t max_pairs(void *d_tmp, size_t &bytes, const K *d_v, K *d_rk,
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

/* What every key type's run shares: the options, the GPU, the timing tools. */
struct peer_run {
    const char *peer, *dists, *uuid;
    cudaDeviceProp prop;
    uint64_t n, seed;
    const uint64_t *ks;
    int nks, reps, items, gpu_timing, grid;
    cudaEvent_t e0, e1;
    drtopk_stream_hold hold;
};

/* Every (dist, k) of key type K (element bits B, drtopk type t, named `name`):
 * generate, time, check, print one JSON line each. */
template <typename K, typename B>
static void run_dtype(const peer_run &pr, drtopk_dtype t, const char *name)
{
    static_assert(sizeof(K) == sizeof(B), "the key type and its bits have one width");
    const uint64_t n = pr.n;
    uint64_t kmax = 0;
    for (int i = 0; i < pr.nks; ++i) kmax = std::max<uint64_t>(kmax, std::min<uint64_t>(pr.ks[i], n));
    B *d_v, *d_rk;
    uint32_t *d_rp;
    unsigned long long *d_m, *d_cnt;
    const cuda::counting_iterator<uint32_t> positions(0);
    CK(cudaMalloc(&d_v, n * sizeof(B)));
    CK(cudaMalloc(&d_rk, kmax * sizeof(B)));
    CK(cudaMalloc(&d_rp, kmax * 4));
    CK(cudaMalloc(&d_m, sizeof *d_m));
    CK(cudaMalloc(&d_cnt, 3 * sizeof(unsigned long long)));
    const K *v = reinterpret_cast<const K *>(d_v);
    K *rk = reinterpret_cast<K *>(d_rk);
    const auto env = cuda::execution::require(cuda::execution::determinism::not_guaranteed,
                                              cuda::execution::output_ordering::unsorted);
    const auto topk = [&](void *d_tmp, size_t &bytes, uint64_t k) {
        return pr.items == ITEMS_BITS_NARROW ? max_pairs<K, uint32_t>(d_tmp, bytes, v, rk, positions, d_rp, n, k, env)
                                             : max_pairs<K, uint64_t>(d_tmp, bytes, v, rk, positions, d_rp, n, k, env);
    };
    const struct { const char *name; dh_dist d; } all[] = {
        {"UD", DRTOPK_DIST_UD}, {"ND", DRTOPK_DIST_ND}, {"CD", DRTOPK_DIST_CD}};
    for (const auto &ds : all) {
        if (!strstr(pr.dists, ds.name)) continue;
        gen_kernel<B><<<pr.grid, THREADS>>>(d_v, n, ds.d, t, pr.seed);
        CK(cudaGetLastError());
        for (int ki = 0; ki < pr.nks; ++ki) {
            const uint64_t k = pr.ks[ki];
            if (k > n) continue;
            size_t bytes = 0;
            void *d_tmp = NULL;
            CK(topk(d_tmp, bytes, k));
            CK(cudaMalloc(&d_tmp, bytes));
            std::vector<float> ms;
            int unprimed = 0;
            for (int r = 0; r <= pr.reps; ++r) {        /* r == 0: warm-up */
                drtopk_stream_hold hold = pr.hold;
                if (pr.gpu_timing) CK(drtopk_hold_begin(&hold, 0, DRTOPK_HOLD_TIMEOUT_NS));
                CK(cudaEventRecord(pr.e0));
                CK(topk(d_tmp, bytes, k));
                CK(cudaEventRecord(pr.e1));
                if (pr.gpu_timing) drtopk_hold_release(&hold);
                CK(cudaEventSynchronize(pr.e1));
                float ms_r;
                CK(cudaEventElapsedTime(&ms_r, pr.e0, pr.e1));
                if (r) {
                    ms.push_back(ms_r);
                    unprimed += pr.gpu_timing && !drtopk_hold_primed(&hold);
                }
            }
            CK(cudaFree(d_tmp));
            CK(cudaMemset(d_m, 0xFF, sizeof *d_m));
            CK(cudaMemset(d_cnt, 0, 3 * sizeof(unsigned long long)));
            min_kernel<B><<<pr.grid, THREADS>>>(d_rk, k, t, d_m);
            CK(cudaGetLastError());
            count_kernel<B><<<pr.grid, THREADS>>>(d_v, n, d_rk, d_rp, k, t, d_m, d_cnt);
            CK(cudaGetLastError());
            unsigned long long cnt[3];
            CK(cudaMemcpy(cnt, d_cnt, sizeof cnt, cudaMemcpyDeviceToHost));
            const int ok = cnt[0] == cnt[1] && cnt[2] == 0 && positions_distinct(d_rp, k);
            std::sort(ms.begin(), ms.end());
            printf("{\"peer\":\"%s\",\"gpu\":\"%s\",\"uuid\":\"%s\",\"cccl\":\"%d.%d.%d\",\"seed\":%llu,"
                   "\"n\":%llu,\"k\":%llu,\"dist\":\"%s\",\"dtype\":\"%s\","
                   "\"ms_median\":%.6f,\"ms_min\":%.6f,\"ms_max\":%.6f,\"reps\":%d,\"verified\":%d,"
                   "\"timing\":\"%s\",\"unprimed\":%d}\n",
                   pr.peer, pr.prop.name, pr.uuid, CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION,
                   (unsigned long long)pr.seed, (unsigned long long)n, (unsigned long long)k, ds.name, name,
                   ms[ms.size() / 2], ms.front(), ms.back(), (int)ms.size(), ok, pr.gpu_timing ? "gpu" : "call",
                   unprimed);
            fflush(stdout);
        }
    }
    CK(cudaFree(d_v));
    CK(cudaFree(d_rk));
    CK(cudaFree(d_rp));
    CK(cudaFree(d_m));
    CK(cudaFree(d_cnt));
}

/* The key types, as drtopk names them (--dtypes), with CUDA's key type. */
static const struct {
    const char *name;
    drtopk_dtype t;
    void (*run)(const peer_run &, drtopk_dtype, const char *);
} key_types[] = {
    {"u32", DRTOPK_U32, run_dtype<uint32_t, uint32_t>},    {"i32", DRTOPK_I32, run_dtype<int32_t, uint32_t>},
    {"f32", DRTOPK_F32, run_dtype<float, uint32_t>},       {"f16", DRTOPK_F16, run_dtype<__half, uint16_t>},
    {"bf16", DRTOPK_BF16, run_dtype<__nv_bfloat16, uint16_t>}, {"u64", DRTOPK_U64, run_dtype<uint64_t, uint64_t>},
    {"i64", DRTOPK_I64, run_dtype<int64_t, uint64_t>},     {"f64", DRTOPK_F64, run_dtype<double, uint64_t>},
};
static constexpr size_t KEY_TYPES = sizeof(key_types) / sizeof(key_types[0]);

/* --dtypes: every name must be a key type; sets want[i]. */
static int parse_dtypes(const char *list, int *want)
{
    char buf[MAX_LIST_LEN];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        size_t i = 0;
        while (i < KEY_TYPES && strcmp(tok, key_types[i].name)) ++i;
        if (i == KEY_TYPES) {
            fprintf(stderr, "bad --dtypes '%s': '%s' is not one of u32,i32,f32,f16,bf16,u64,i64,f64\n", list, tok);
            return 2;
        }
        want[i] = 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int log_n = DEFAULT_LOG_N, reps = DEFAULT_REPS, k_log4_max = DEFAULT_K_LOG4_MAX;
    unsigned long long seed = DEFAULT_SEED;
    char *end = NULL;
    const char *dists = "UD,ND,CD", *dtypes = "u32";
    int items = ITEMS_BITS_WIDE;
    int gpu_timing = 1;             /* --timing gpu */
    uint64_t ks[MAX_KS];
    int nks = 0;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--log-n")) log_n = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--items")) items = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--reps")) reps = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--k-log4-max")) k_log4_max = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--dists")) dists = argv[a + 1];
        else if (!strcmp(argv[a], "--dtypes")) dtypes = argv[a + 1];
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
                            "[--items 64|32] [--ks K,K,...] [--timing gpu|call] "
                            "[--dtypes u32,i32,f32,f16,bf16,u64,i64,f64]\n", argv[0]);
            return 2;
        }
    }
    int want[KEY_TYPES] = {0};
    if (parse_dtypes(dtypes, want) != 0) return 2;
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
    if (nks == 0)
        for (uint64_t k = 1; k <= (1ull << (2 * k_log4_max)) && nks < MAX_KS; k *= 4) ks[nks++] = k;
    peer_run pr;
    CK(cudaGetDeviceProperties(&pr.prop, 0));
    char uuid[UUID_TEXT_LEN];
    format_uuid(pr.prop.uuid, uuid, sizeof uuid);
    pr.peer = peer;
    pr.dists = dists;
    pr.uuid = uuid;
    pr.n = 1ull << log_n;
    pr.seed = seed;
    pr.ks = ks;
    pr.nks = nks;
    pr.reps = reps;
    pr.items = items;
    pr.gpu_timing = gpu_timing;
    pr.grid = pr.prop.multiProcessorCount * BLOCKS_PER_SM;
    CK(cudaEventCreate(&pr.e0));
    CK(cudaEventCreate(&pr.e1));
    CK(drtopk_hold_create(&pr.hold));
    for (size_t i = 0; i < KEY_TYPES; ++i)
        if (want[i]) key_types[i].run(pr, key_types[i].t, key_types[i].name);
    return 0;
}
