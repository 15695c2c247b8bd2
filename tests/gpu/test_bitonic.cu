/*
 * test_bitonic.cu -- GPU test of the bitonic top-k (kernels/bitonic_topk.cu;
 * Shanbhag et al., SIGMOD'18, the baseline of Dr. Top-k section 6.1) against
 * a host sort on the same seeded data (gen_core.h): u32/i32/f32, largest and
 * smallest, RAW and PAIRS (32- and 64-bit positions), k around the fast-path
 * limit and up to n, tiny and non-power-of-two n, a device length below
 * n_max.  Output: gpu_test.h's "ok N ..." lines, last "N passed, N failed".
 * Its timings at 2^30 (k = 4^0..4^12, median of 7) are the tuner's
 * (tests/gpu/run.sh step algos), not this program's.
 *
 *   test_bitonic            full suite
 *   test_bitonic --small    a few small cases (for compute-sanitizer)
 */
#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include "gen_core.h"
#include "kernels.h"
#include "cuda_check.h"
#include "gpu_test.h"

extern "C" drtopk_status bitonic_topk_workspace(const topk_input *in, size_t *bytes);
extern "C" drtopk_status bitonic_topk(const topk_input *in, const topk_output *out, void *ws,
                                      size_t ws_bytes, cudaStream_t s);

#define SEED 20211114ull            /* any fixed seed: reproducible data      */
#define PAIR_POS_STRIDE 3u          /* PAIRS positions: i*3+1, not the index  */
#define PAIR_POS64_BASE (1ull << 33) /* pos64 PAIRS positions above 2^32      */
#define TAIL_POISON 0xFFFFFFFFu     /* beyond *d_n: the best raw bits of u32 */

typedef struct {
    dh_dist dist;
    drtopk_dtype dtype;
    drtopk_order order;
    int pairs;                      /* TOPK_SRC_PAIRS */
    int pos64;
    uint64_t n, n_max, k;
} tcase;

static const char *dist_name(dh_dist d)
{
    static const char *names[] = {"UD", "ND", "CD", "ASC", "DESC", "FEW", "EQ", "SPECIAL"};
    return names[d];
}

static uint64_t pair_pos(uint64_t i, int pos64)
{
    return pos64 ? PAIR_POS64_BASE + i : i * PAIR_POS_STRIDE + 1;
}

static int run_case(const tcase *c)
{
    char why[256] = "";
    std::vector<uint32_t> bits(c->n_max, TAIL_POISON), keys(c->n_max);
    for (uint64_t i = 0; i < c->n; ++i) {
        bits[i] = dh_gen_bits(SEED, i, c->dist, c->dtype);
        keys[i] = drtopk_key_from_bits(bits[i], c->dtype, c->order);
    }
    for (uint64_t i = c->n; i < c->n_max; ++i) keys[i] = 0xFFFFFFFFu;
    std::vector<uint32_t> ref(keys.begin(), keys.begin() + (long)c->n);
    std::sort(ref.begin(), ref.end(), [](uint32_t a, uint32_t b) { return a > b; });

    const size_t psz = c->pos64 ? 8 : 4;
    uint32_t *d_bits, *d_keys, *d_okeys, *d_thr;
    void *d_pos, *d_opos, *d_ws = NULL;
    uint64_t *d_n, *d_count;
    CK(cudaMalloc(&d_bits, c->n_max * 4));
    CK(cudaMalloc(&d_keys, c->n_max * 4));
    CK(cudaMalloc(&d_pos, c->n_max * psz));
    CK(cudaMalloc(&d_okeys, c->k * 4));
    CK(cudaMalloc(&d_opos, c->k * psz));
    CK(cudaMalloc(&d_thr, 4));
    CK(cudaMalloc(&d_n, 8));
    CK(cudaMalloc(&d_count, 8));
    CK(cudaMemcpy(d_bits, bits.data(), c->n_max * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_keys, keys.data(), c->n_max * 4, cudaMemcpyHostToDevice));
    {
        std::vector<uint64_t> p64(c->n_max);
        std::vector<uint32_t> p32(c->n_max);
        for (uint64_t i = 0; i < c->n_max; ++i) {
            p64[i] = pair_pos(i, 1);
            p32[i] = (uint32_t)pair_pos(i, 0);
        }
        CK(cudaMemcpy(d_pos, c->pos64 ? (void *)p64.data() : (void *)p32.data(), c->n_max * psz,
                      cudaMemcpyHostToDevice));
    }
    CK(cudaMemcpy(d_n, &c->n, 8, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_okeys, 0xA5, c->k * 4));
    CK(cudaMemset(d_opos, 0xA5, c->k * psz));
    CK(cudaMemset(d_count, 0xA5, 8));

    topk_input in;
    memset(&in, 0, sizeof in);
    in.src = c->pairs ? TOPK_SRC_PAIRS : TOPK_SRC_RAW;
    in.raw = d_bits;
    in.dtype = c->dtype;
    in.order = c->order;
    in.keys = d_keys;
    in.pos = d_pos;
    in.pos64 = c->pos64;
    in.d_n = c->n < c->n_max ? d_n : NULL;
    in.n_max = c->n_max;
    in.k = c->k;
    topk_output out = {c->k, d_okeys, d_opos, d_count, d_thr};
    size_t ws_bytes = 0;
    drtopk_status st = bitonic_topk_workspace(&in, &ws_bytes);
    if (st == DRTOPK_OK && ws_bytes) CK(cudaMalloc(&d_ws, ws_bytes));
    if (st == DRTOPK_OK) st = bitonic_topk(&in, &out, d_ws, ws_bytes, 0);
    CK(cudaDeviceSynchronize());

    std::vector<uint32_t> okeys(c->k);
    std::vector<uint64_t> opos(c->k);
    uint64_t count = 0;
    uint32_t thr = 0;
    if (st == DRTOPK_OK) {
        CK(cudaMemcpy(okeys.data(), d_okeys, c->k * 4, cudaMemcpyDeviceToHost));
        if (c->pos64) {
            CK(cudaMemcpy(opos.data(), d_opos, c->k * 8, cudaMemcpyDeviceToHost));
        } else {
            std::vector<uint32_t> p(c->k);
            CK(cudaMemcpy(p.data(), d_opos, c->k * 4, cudaMemcpyDeviceToHost));
            for (uint64_t j = 0; j < c->k; ++j) opos[j] = p[j];
        }
        CK(cudaMemcpy(&count, d_count, 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&thr, d_thr, 4, cudaMemcpyDeviceToHost));
    }
    if (st != DRTOPK_OK) snprintf(why, sizeof why, "status %d", (int)st);
    else if (count != c->k) snprintf(why, sizeof why, "count %llu", (unsigned long long)count);
    else if (thr != ref[c->k - 1]) snprintf(why, sizeof why, "threshold %08x, want %08x", thr, ref[c->k - 1]);
    if (!why[0]) {
        std::vector<char> seen(c->n, 0);
        for (uint64_t j = 0; j < c->k && !why[0]; ++j) {
            uint64_t i = opos[j];
            if (c->pairs) {
                const uint64_t base = c->pos64 ? PAIR_POS64_BASE : 1;
                const uint64_t stride = c->pos64 ? 1 : PAIR_POS_STRIDE;
                i = (opos[j] >= base && (opos[j] - base) % stride == 0) ? (opos[j] - base) / stride : UINT64_MAX;
            }
            if (i >= c->n) snprintf(why, sizeof why, "result %llu: position %llu out of range",
                                    (unsigned long long)j, (unsigned long long)opos[j]);
            else if (seen[i]++) snprintf(why, sizeof why, "position %llu twice", (unsigned long long)opos[j]);
            else if (okeys[j] != keys[i]) snprintf(why, sizeof why, "key %08x != V's %08x", okeys[j], keys[i]);
            else if (okeys[j] != ref[j]) snprintf(why, sizeof why, "rank %llu: key %08x, want %08x",
                                                  (unsigned long long)j, okeys[j], ref[j]);
        }
    }
    CK(cudaFree(d_bits)); CK(cudaFree(d_keys)); CK(cudaFree(d_pos)); CK(cudaFree(d_okeys));
    CK(cudaFree(d_opos)); CK(cudaFree(d_thr)); CK(cudaFree(d_n)); CK(cudaFree(d_count));
    if (d_ws) CK(cudaFree(d_ws));
    const char *dt[] = {"u32", "i32", "f32"};
    gt_checkf(!why[0], why, "bitonic %s %s %s %s%s n=%llu n_max=%llu k=%llu", dist_name(c->dist), dt[c->dtype],
              c->order ? "smallest" : "largest", c->pairs ? "pairs" : "raw", c->pos64 ? "/pos64" : "",
              (unsigned long long)c->n, (unsigned long long)c->n_max, (unsigned long long)c->k);
    return !why[0];
}

static void suite(int small)
{
    const uint64_t ns_full[] = {1, 7, 1000, 4097, 100003, (1ull << 20) + 3};
    const uint64_t ns_small[] = {1, 7, 1000, 9000};
    const uint64_t *ns = small ? ns_small : ns_full;
    const int nn = small ? 4 : 6;
    const uint64_t ks[] = {1, 2, 255, 256, 257, 1000, 5000};
    const dh_dist dists[] = {DRTOPK_DIST_UD, DRTOPK_DIST_ND, DRTOPK_DIST_CD, DRTOPK_DIST_FEW,
                                 DRTOPK_DIST_EQ, DRTOPK_DIST_SPECIAL, DRTOPK_DIST_ASC, DRTOPK_DIST_DESC};
    int variant = 0;
    for (int a = 0; a < nn; ++a) {
        const uint64_t n = ns[a];
        std::vector<uint64_t> kl;
        for (uint64_t k : ks) if (k <= n) kl.push_back(k);
        kl.push_back(n);
        if (!small && n > 10000) kl.push_back(n / 4 + 1);
        for (uint64_t k : kl) {
            /* rotate type, order, source and distribution over the cases so
             * that every combination appears without a full cross product */
            for (int rep = 0; rep < (small ? 1 : 3); ++rep, ++variant) {
                tcase c;
                c.dist = dists[variant % 8];
                c.dtype = (drtopk_dtype)(variant % DRTOPK_RAW_DTYPE_COUNT);
                c.order = (drtopk_order)((variant / 3) % 2);
                c.pairs = (variant / 2) % 2;
                c.pos64 = (variant % 5) == 4;
                c.n = n;
                c.n_max = (variant % 4 == 3) ? n + 1 + n / 3 : n;
                c.k = k;
                run_case(&c);
            }
        }
    }
    /* every type x order on one mid size, RAW and PAIRS */
    for (int t = 0; t < DRTOPK_RAW_DTYPE_COUNT; ++t)
        for (int o = 0; o < 2; ++o)
            for (int pr = 0; pr < 2; ++pr) {
                tcase c = {DRTOPK_DIST_SPECIAL, (drtopk_dtype)t, (drtopk_order)o, pr, pr, small ? 3001u : 77777u,
                           small ? 3001u : 77777u, 257};
                run_case(&c);
            }
}

int main(int argc, char **argv)
{
    gt_begin();
    int small = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--small") == 0) small = 1;
        else {
            fprintf(stderr, "usage: %s [--small]\n", argv[0]);
            return 2;
        }
    }
    if (!gt_have_gpu()) return gt_no_gpu("test_bitonic");
    suite(small);
    return gt_finish();
}
