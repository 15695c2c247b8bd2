/*
 * test_algos.cu -- GPU test of every top-k algorithm behind kernels.h's table
 * (paper 2.2 and 5.1: flag radix, GGKS radix in/out of place, bucket in/out of place,
 * bitonic, CUB and Thrust sort-and-choose), called standalone through
 * topk_algo_lookup exactly as the pipeline calls them.
 *
 * Seeded data from gen_core.h (every distribution, u32/i32/f32,
 * largest/smallest), RAW and PAIRS input with 32- and 64-bit positions, a
 * device length below n_max with poisoned tail, n not a power of two, tiny n,
 * k = 1 and k = n, each against a host reference.  Checked: count, threshold,
 * keys >= threshold, distinct in-range positions, key equals the input key at
 * its position, multiset equals the reference.  Every algorithm answers the
 * shared argument checks (kernels.h topk_check_*) with the same status for the
 * same mistake.  Output: gpu_test.h's "ok N ..." lines, last "N passed, N
 * failed".  The algorithms' timings at 2^30 (UD/ND/CD, k = 4^0..2^24, median
 * of 7) are the tuner's (tests/gpu/run.sh step algos), not this program's.
 *   test_algos [--small | --tiny]   reduced sets for compute-sanitizer
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <cuda_runtime.h>
#include "kernels.h"
#include "gen_core.h"
#include "keyorder.h"
#include "cuda_check.h"
#include "gpu_test.h"

#define TEST_SEED 0x5EEDu
#define POS64_OFFSET (1ull << 32)  /* PAIRS pos64: positions above 2^32 */
#define POS_STRIDE 3ull            /* PAIRS positions i * 3 + 1: not the index */
#define TAIL_EXTRA 77ull           /* d_n < n_max: poisoned slots past *d_n */
#define POISON_BYTE 0xAB

static const drtopk_algo ALGOS[] = {
    DRTOPK_ALGO_RADIX,   DRTOPK_ALGO_RADIX_GGKS, DRTOPK_ALGO_RADIX_GGKS_OOP, DRTOPK_ALGO_BUCKET,
    DRTOPK_ALGO_BUCKET_OOP, DRTOPK_ALGO_BITONIC, DRTOPK_ALGO_SORT_CUB, DRTOPK_ALGO_SORT_THRUST,
};
static const char *ALGO_NAMES[] = { "radix", "ggks", "ggks_oop", "bucket", "bucket_oop",
                                    "bitonic", "sort_cub", "sort_thrust" };
#define N_ALGOS (int)(sizeof(ALGOS) / sizeof(ALGOS[0]))
static const char *DIST_NAMES[] = { "UD", "ND", "CD", "ASC", "DESC", "FEW", "EQ", "SPECIAL" };
static const char *DT_NAMES[] = { "u32", "i32", "f32" };

enum mode { M_RAW32, M_RAW64, M_PAIRS32, M_PAIRS64, M_RAW_DN, M_PAIRS_DN, M_COUNT };
static const char *MODE_NAMES[] = { "raw32", "raw64", "pairs32", "pairs64", "raw-dn", "pairs64-dn" };

/* Raw bits whose ordered key is the largest possible: poison past *d_n. */
static uint32_t best_bits(drtopk_dtype t, drtopk_order o)
{
    const uint32_t cand[] = { drtopk_bits_from_key(0xFFFFFFFFu, t), 0u, DRTOPK_SIGN_BIT, 0xFF800000u, 0xFFFFFFFFu };
    uint32_t best = cand[0];
    for (uint32_t b : cand)
        if (drtopk_key_from_bits(b, t, o) > drtopk_key_from_bits(best, t, o)) best = b;
    return best;
}

struct dev_case {
    uint32_t *raw, *keys, *okeys, *thr;
    void *pos, *opos, *ws;
    uint64_t *dn, *cnt;
    size_t ws_bytes, cap;
};

static void fail(const std::string &what, const char *algo, const char *ctx)
{
    gt_checkf(0, what.c_str(), "%s [%s]", algo, ctx);
}

static void pass(const char *algo, const char *ctx)
{
    gt_checkf(1, "", "%s [%s]", algo, ctx);
}

/* One algorithm on one input; checks against the host reference. */
static void run_case(dev_case &d, int ai, int m, drtopk_dtype t, drtopk_order o, const std::vector<uint32_t> &hkeys,
                     uint64_t n, uint64_t k, const std::vector<uint32_t> &ref_sorted, const char *ctx)
{
    const topk_algo_entry *e = topk_algo_lookup(ALGOS[ai]);
    if (!e) return;
    const bool pairs = m == M_PAIRS32 || m == M_PAIRS64 || m == M_PAIRS_DN;
    const bool pos64 = m == M_RAW64 || m == M_PAIRS64 || m == M_PAIRS_DN;
    const bool dn = m == M_RAW_DN || m == M_PAIRS_DN;
    const uint64_t n_max = dn ? n + TAIL_EXTRA : n;
    topk_input in;
    memset(&in, 0, sizeof in);
    in.src = pairs ? TOPK_SRC_PAIRS : TOPK_SRC_RAW;
    in.raw = d.raw;
    in.dtype = t;
    in.order = o;
    in.keys = d.keys;
    in.pos = d.pos;
    in.pos64 = pos64;
    in.d_n = dn ? d.dn : NULL;
    in.n_max = n_max;
    in.k = k;
    topk_output out = { k, d.okeys, d.opos, d.cnt, d.thr };
    size_t need = 0;
    if (e->workspace(&in, &need) != DRTOPK_OK) { fail("workspace query", ALGO_NAMES[ai], ctx); return; }
    if (need > d.ws_bytes) {
        if (d.ws) CK(cudaFree(d.ws));
        CK(cudaMalloc(&d.ws, need));
        d.ws_bytes = need;
    }
    const size_t psz = pos64 ? 8 : 4;
    CK(cudaMemset(d.okeys, POISON_BYTE, k * 4));
    CK(cudaMemset(d.opos, POISON_BYTE, k * psz));
    CK(cudaMemset(d.cnt, POISON_BYTE, 8));
    CK(cudaMemset(d.thr, POISON_BYTE, 4));
    drtopk_status rc = e->run(&in, &out, d.ws, d.ws_bytes, 0);
    cudaError_t ce = cudaDeviceSynchronize();
    if (rc != DRTOPK_OK || ce != cudaSuccess) {
        fail(std::string("run status ") + std::to_string(rc) + " cuda " + cudaGetErrorString(ce), ALGO_NAMES[ai], ctx);
        if (ce != cudaSuccess) exit(2);
        return;
    }
    uint64_t cnt = 0;
    uint32_t thr = 0;
    std::vector<uint32_t> ok(k);
    std::vector<uint64_t> op(k);
    CK(cudaMemcpy(&cnt, d.cnt, 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&thr, d.thr, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ok.data(), d.okeys, k * 4, cudaMemcpyDeviceToHost));
    if (pos64) {
        CK(cudaMemcpy(op.data(), d.opos, k * 8, cudaMemcpyDeviceToHost));
    } else {
        std::vector<uint32_t> p32(k);
        CK(cudaMemcpy(p32.data(), d.opos, k * 4, cudaMemcpyDeviceToHost));
        for (uint64_t i = 0; i < k; ++i) op[i] = p32[i];
    }
    const uint32_t T = ref_sorted[k - 1];
    if (cnt != k) { fail("count " + std::to_string(cnt) + " != k " + std::to_string(k), ALGO_NAMES[ai], ctx); return; }
    if (thr != T) { fail("threshold " + std::to_string(thr) + " != " + std::to_string(T), ALGO_NAMES[ai], ctx); return; }
    std::vector<uint64_t> idx(k);
    for (uint64_t i = 0; i < k; ++i) {
        if (ok[i] < T) { fail("key below threshold", ALGO_NAMES[ai], ctx); return; }
        uint64_t p = op[i], j;
        if (pairs) {
            uint64_t base = pos64 ? POS64_OFFSET : 0;
            if (p < base || (p - base) % POS_STRIDE != 1) { fail("foreign position", ALGO_NAMES[ai], ctx); return; }
            j = (p - base) / POS_STRIDE;
        } else {
            j = p;
        }
        if (j >= n) { fail("position out of range", ALGO_NAMES[ai], ctx); return; }
        if (hkeys[j] != ok[i]) { fail("key does not match input at its position", ALGO_NAMES[ai], ctx); return; }
        idx[i] = j;
    }
    std::sort(idx.begin(), idx.end());
    if (std::adjacent_find(idx.begin(), idx.end()) != idx.end()) { fail("duplicate position", ALGO_NAMES[ai], ctx); return; }
    std::sort(ok.begin(), ok.end(), std::greater<uint32_t>());
    if (!std::equal(ok.begin(), ok.end(), ref_sorted.begin())) { fail("multiset differs", ALGO_NAMES[ai], ctx); return; }
    pass(ALGO_NAMES[ai], ctx);
}

/* --tiny (racecheck, the slowest tool): two distributions, one size.
 * --small (memcheck): the distributions and types that reach
 * every code path (ties, all-equal, nested buckets, NaN/inf) at two sizes. */
static bool tiny_case(int dist, int t, int o)
{
    return (dist == DRTOPK_DIST_UD || dist == DRTOPK_DIST_EQ) && t == DRTOPK_U32 && o == DRTOPK_LARGEST;
}

static bool small_case(int dist, int t)
{
    const bool d = dist == DRTOPK_DIST_UD || dist == DRTOPK_DIST_CD || dist == DRTOPK_DIST_EQ ||
                   dist == DRTOPK_DIST_SPECIAL;
    return d && t != DRTOPK_I32;
}

static void run_tests(bool small, bool tiny)
{
    std::vector<uint64_t> sizes = tiny ? std::vector<uint64_t>{ 4099 }
                                  : small ? std::vector<uint64_t>{ 5, 4099 }
                                        : std::vector<uint64_t>{ 1, 5, 300, 100003, 1u << 20 };
    const uint64_t nmax_all = sizes.back() + TAIL_EXTRA;
    dev_case d;
    memset(&d, 0, sizeof d);
    CK(cudaMalloc(&d.raw, nmax_all * 4));
    CK(cudaMalloc(&d.keys, nmax_all * 4));
    CK(cudaMalloc(&d.pos, nmax_all * 8));
    CK(cudaMalloc(&d.okeys, nmax_all * 4));
    CK(cudaMalloc(&d.opos, nmax_all * 8));
    CK(cudaMalloc(&d.dn, 8));
    CK(cudaMalloc(&d.cnt, 8));
    CK(cudaMalloc(&d.thr, 4));
    for (int a = 0; a < N_ALGOS; ++a)
        gt_note("%-12s %s", ALGO_NAMES[a], topk_algo_lookup(ALGOS[a]) ? "tested" : "not built (NULL row): skipped");
    for (int dist = 0; dist < DRTOPK_DIST_COUNT; ++dist)
        for (int t = 0; t < DRTOPK_RAW_DTYPE_COUNT; ++t)
            for (int o = 0; o < 2; ++o)
                for (uint64_t n : sizes) {
                    if (small && !small_case(dist, t)) continue;
                    if (tiny && !tiny_case(dist, t, o)) continue;
                    const drtopk_dtype dt = (drtopk_dtype)t;
                    const drtopk_order od = (drtopk_order)o;
                    const uint64_t n_max = n + TAIL_EXTRA;
                    std::vector<uint32_t> bits(n_max), hkeys(n);
                    for (uint64_t i = 0; i < n; ++i) {
                        bits[i] = dh_gen_bits(TEST_SEED + dist, i, (dh_dist)dist, dt);
                        hkeys[i] = drtopk_key_from_bits(bits[i], dt, od);
                    }
                    const uint32_t poison = best_bits(dt, od);
                    for (uint64_t i = n; i < n_max; ++i) bits[i] = poison;
                    std::vector<uint32_t> sorted = hkeys;
                    std::sort(sorted.begin(), sorted.end(), std::greater<uint32_t>());
                    CK(cudaMemcpy(d.raw, bits.data(), n_max * 4, cudaMemcpyHostToDevice));
                    CK(cudaMemcpy(d.dn, &n, 8, cudaMemcpyHostToDevice));
                    std::vector<uint64_t> ks = { 1, 2, 7, 1000, n / 2, n };
                    if (small) ks = { 1, n / 2, n };
                    if (tiny) ks = { 1, n };
                    const bool big = n > (1u << 17);
                    if (big) ks = { 1, 1024, n };
                    ks.erase(std::remove_if(ks.begin(), ks.end(), [n](uint64_t k) { return k == 0 || k > n; }), ks.end());
                    std::sort(ks.begin(), ks.end());
                    ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
                    for (int m = 0; m < M_COUNT; ++m) {
                        if ((big || small || tiny) && m != M_RAW32 && m != M_PAIRS_DN) continue;
                        const bool pairs = m == M_PAIRS32 || m == M_PAIRS64 || m == M_PAIRS_DN;
                        const bool pos64 = m == M_RAW64 || m == M_PAIRS64 || m == M_PAIRS_DN;
                        if (pairs) {
                            std::vector<uint32_t> pk(n_max, 0xFFFFFFFFu);
                            std::copy(hkeys.begin(), hkeys.end(), pk.begin());
                            CK(cudaMemcpy(d.keys, pk.data(), n_max * 4, cudaMemcpyHostToDevice));
                            const uint64_t base = pos64 ? POS64_OFFSET : 0;
                            if (pos64) {
                                std::vector<uint64_t> pp(n_max);
                                for (uint64_t i = 0; i < n_max; ++i) pp[i] = base + i * POS_STRIDE + 1;
                                CK(cudaMemcpy(d.pos, pp.data(), n_max * 8, cudaMemcpyHostToDevice));
                            } else {
                                std::vector<uint32_t> pp(n_max);
                                for (uint64_t i = 0; i < n_max; ++i) pp[i] = (uint32_t)(i * POS_STRIDE + 1);
                                CK(cudaMemcpy(d.pos, pp.data(), n_max * 4, cudaMemcpyHostToDevice));
                            }
                        }
                        for (uint64_t k : ks) {
                            std::vector<uint32_t> ref(sorted.begin(), sorted.begin() + k);
                            char ctx[160];
                            snprintf(ctx, sizeof ctx, "%s %s %s n=%llu k=%llu %s", DIST_NAMES[dist], DT_NAMES[t],
                                     o ? "smallest" : "largest", (unsigned long long)n, (unsigned long long)k,
                                     MODE_NAMES[m]);
                            for (int a = 0; a < N_ALGOS; ++a) run_case(d, a, m, dt, od, hkeys, n, k, ref, ctx);
                        }
                    }
                }
    CK(cudaFree(d.raw));
    CK(cudaFree(d.keys));
    CK(cudaFree(d.pos));
    CK(cudaFree(d.okeys));
    CK(cudaFree(d.opos));
    CK(cudaFree(d.dn));
    CK(cudaFree(d.cnt));
    CK(cudaFree(d.thr));
    if (d.ws) CK(cudaFree(d.ws));
}

#define ARGS_N 1000ull             /* bad-argument cases: a small valid problem */
#define ARGS_K 10ull

/* One argument mistake at a time on a valid call, for every algorithm: the
 * status must be the one the shared checks give, before any launch. */
static void test_bad_arguments(void)
{
    uint32_t *v = NULL, *okeys = NULL, *thr = NULL;
    uint64_t *opos = NULL, *cnt = NULL;
    CK(cudaMalloc(&v, ARGS_N * sizeof(uint32_t) + sizeof(uint32_t)));
    CK(cudaMalloc(&okeys, ARGS_K * sizeof(uint32_t)));
    CK(cudaMalloc(&opos, ARGS_K * sizeof(uint64_t)));
    CK(cudaMalloc(&cnt, sizeof(uint64_t)));
    CK(cudaMalloc(&thr, sizeof(uint32_t)));
    for (int ai = 0; ai < N_ALGOS; ++ai) {
        const topk_algo_entry *e = topk_algo_lookup(ALGOS[ai]);
        if (!e) { fail("not in the algorithm table", ALGO_NAMES[ai], "args"); continue; }
        topk_input in0;
        memset(&in0, 0, sizeof in0);
        in0.src = TOPK_SRC_RAW; in0.raw = v; in0.dtype = DRTOPK_U32; in0.order = DRTOPK_LARGEST;
        in0.pos64 = 1; in0.n_max = ARGS_N; in0.k = ARGS_K;
        const topk_output out0 = { ARGS_K, okeys, opos, cnt, thr };
        size_t need = 0;
        void *ws = NULL;
        if (e->workspace(&in0, &need) != DRTOPK_OK) { fail("workspace query", ALGO_NAMES[ai], "args"); continue; }
        CK(cudaMalloc(&ws, need ? need : 1));
        struct bad { const char *what; drtopk_status want; topk_input in; topk_output out; const void *ws; size_t bytes; };
        std::vector<bad> cases;
        auto add = [&](const char *what, drtopk_status want) {
            cases.push_back(bad{ what, want, in0, out0, ws, need });
            return &cases.back();
        };
        add("a valid call", DRTOPK_OK);
        add("n = 0", DRTOPK_ERR_N_ZERO)->in.n_max = 0;
        add("k = 0", DRTOPK_ERR_K_ZERO)->in.k = 0;
        add("k > n", DRTOPK_ERR_K_GT_N)->in.k = ARGS_N + 1;
        add("raw NULL", DRTOPK_ERR_INVALID_ARGUMENT)->in.raw = NULL;
        add("dtype out of range", DRTOPK_ERR_INVALID_ARGUMENT)->in.dtype = DRTOPK_DTYPE_COUNT;
        add("raw 16-bit keys (the pipeline widens them first)", DRTOPK_ERR_INVALID_ARGUMENT)->in.dtype = DRTOPK_F16;
        add("raw 64-bit keys (the pipeline sorts them whole)", DRTOPK_ERR_INVALID_ARGUMENT)->in.dtype = DRTOPK_U64;
        add("order out of range", DRTOPK_ERR_INVALID_ARGUMENT)->in.order = (drtopk_order)7;
        add("raw not 4-byte aligned", DRTOPK_ERR_MISALIGNED)->in.raw = (const char *)v + 1;
        add("source out of range", DRTOPK_ERR_INVALID_ARGUMENT)->in.src = (topk_source)7;
        add("pairs without keys", DRTOPK_ERR_INVALID_ARGUMENT)->in.src = TOPK_SRC_PAIRS;
        add("uint32 positions past 2^32", DRTOPK_ERR_INVALID_ARGUMENT)->in.pos64 = 0;
        cases.back().in.n_max = DRTOPK_POS32_MAX_N + 1;
        add("out keys NULL", DRTOPK_ERR_INVALID_ARGUMENT)->out.keys = NULL;
        add("out positions NULL", DRTOPK_ERR_INVALID_ARGUMENT)->out.pos = NULL;
        add("out count NULL", DRTOPK_ERR_INVALID_ARGUMENT)->out.d_count = NULL;
        add("out threshold NULL", DRTOPK_ERR_INVALID_ARGUMENT)->out.d_threshold = NULL;
        add("capacity < k", DRTOPK_ERR_INVALID_ARGUMENT)->out.capacity = ARGS_K - 1;
        if (need) {
            add("workspace one byte short", DRTOPK_ERR_WORKSPACE_TOO_SMALL)->bytes = need - 1;
            add("workspace NULL", DRTOPK_ERR_INVALID_ARGUMENT)->ws = NULL;
        }
        for (const bad &c : cases) {
            const drtopk_status got = e->run(&c.in, &c.out, (void *)c.ws, c.bytes, 0);
            const std::string ctx = std::string("args: ") + c.what;
            if (got != c.want)
                fail("status " + std::to_string((int)got) + ", want " + std::to_string((int)c.want), ALGO_NAMES[ai],
                     ctx.c_str());
            else
                pass(ALGO_NAMES[ai], ctx.c_str());
        }
        const drtopk_status null_in = e->run(NULL, &out0, ws, need, 0);
        if (null_in != DRTOPK_ERR_INVALID_ARGUMENT) fail("status " + std::to_string((int)null_in), ALGO_NAMES[ai], "args: input NULL");
        else pass(ALGO_NAMES[ai], "args: input NULL");
        CK(cudaDeviceSynchronize());     /* the valid call ran */
        CK(cudaFree(ws));
    }
    CK(cudaFree(v));
    CK(cudaFree(okeys));
    CK(cudaFree(opos));
    CK(cudaFree(cnt));
    CK(cudaFree(thr));
}

int main(int argc, char **argv)
{
    gt_begin();
    bool small = false, tiny = false;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--small")) small = true;
        else if (!strcmp(argv[i], "--tiny")) tiny = true;
        else { fprintf(stderr, "usage: %s [--small | --tiny]\n", argv[0]); return 2; }
    }
    if (!gt_have_gpu()) return gt_no_gpu("test_algos");
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    gt_note("device: %s, %d SMs", prop.name, prop.multiProcessorCount);
    test_bad_arguments();
    run_tests(small, tiny);
    return gt_finish();
}
