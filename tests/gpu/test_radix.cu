/*
 * test_radix.cu -- GPU test of the flag-based radix top-k
 * (kernels/radix_topk.cu, paper sections 4.3 and 5.1), calling radix_topk
 * directly.  Each case runs on seeded data (radix_data.cuh) and is checked
 * against a host reference (nth_element on the ordered keys): count,
 * threshold, every key >= threshold, distinct in-range positions, key equal to
 * the input's key at its position, and the multiset of keys.  Output:
 * gpu_test.h's "ok N ..." lines, last "N passed, N failed".  Its benchmark is
 * experiments/radix_bench.cu.
 *
 *   test_radix             all cases
 *   test_radix --small     cases with n <= 2^16+3 (for compute-sanitizer)
 *   test_radix --no-large  all but the n = 2^28 cases
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
#include "gpu_test.h"

#define POISON_BYTE 0xAB            /* fills outputs so unwritten slots show   */
#define SKIP_DIGIT_MASK 0xFFFFFF00u

struct tcase {
    int pairs;
    drtopk_dtype dt;
    drtopk_order ord;
    dh_dist dist;
    uint64_t n;          /* actual length                          */
    uint64_t n_max;      /* host bound (>= n); d_n used when larger */
    uint64_t k;
    int pos64;
    int skip;
    uint64_t cap;        /* output capacity (>= k)                 */
    int dev_n;           /* pass the length through d_n            */
    int offset;          /* RAW: elements of misalignment          */
    uint64_t seed;
};

static const char *dist_name(dh_dist d)
{
    static const char *names[] = {"UD", "ND", "CD", "ASC", "DESC", "FEW", "EQ", "SPECIAL"};
    return names[d];
}

static const char *dtype_str(drtopk_dtype t)
{
    static const char *names[] = {"u32", "i32", "f32"};
    return names[t];
}

static void describe(const tcase &c, char *buf, size_t len)
{
    snprintf(buf, len, "%s %s %s %s n=%llu n_max=%llu k=%llu pos%d skip=%d cap=%llu dev_n=%d off=%d",
             c.pairs ? "PAIRS" : "RAW", dtype_str(c.dt), c.ord ? "smallest" : "largest", dist_name(c.dist),
             (unsigned long long)c.n, (unsigned long long)c.n_max, (unsigned long long)c.k, c.pos64 ? 64 : 32,
             c.skip, (unsigned long long)c.cap, c.dev_n, c.offset);
}

static void report(const tcase &c, bool ok, const char *why)
{
    char d[256];
    describe(c, d, sizeof d);
    gt_checkf(ok, why, "radix %s", d);
}

static void run_case(const tcase &c)
{
    const size_t pos_size = c.pos64 ? 8 : 4;
    uint32_t *d_in = nullptr, *d_keys = nullptr;
    void *d_pos = nullptr;
    std::vector<uint32_t> key(c.n);
    if (c.pairs) {
        CK(cudaMalloc(&d_keys, c.n_max * 4));
        CK(cudaMalloc(&d_pos, c.n_max * pos_size));
        gen_pairs_kernel<<<gen_grid(c.n_max), GEN_THREADS>>>(d_keys, d_pos, c.pos64, c.n_max, c.seed, c.dist, c.dt,
                                                              c.ord);
        CK(cudaGetLastError());
        CK(cudaMemcpy(key.data(), d_keys, c.n * 4, cudaMemcpyDeviceToHost));
    } else {
        CK(cudaMalloc(&d_in, (c.n_max + c.offset) * 4));
        gen_raw_kernel<<<gen_grid(c.n_max), GEN_THREADS>>>(d_in + c.offset, c.n_max, c.seed, c.dist, c.dt);
        CK(cudaGetLastError());
        CK(cudaMemcpy(key.data(), d_in + c.offset, c.n * 4, cudaMemcpyDeviceToHost));
        for (auto &b : key) b = drtopk_key_from_bits(b, c.dt, c.ord);
    }

    /* host reference: the k-th largest key, then the expected count */
    std::vector<uint32_t> ref(key);
    std::nth_element(ref.begin(), ref.begin() + (c.k - 1), ref.end(), std::greater<uint32_t>());
    const uint32_t T = ref[c.k - 1];
    uint64_t exp_count = c.k;
    uint32_t exp_thr = T;
    if (c.skip) {
        uint64_t cnt = 0;
        for (uint32_t x : key) cnt += (x >> 8) >= (T >> 8);
        if (cnt <= c.cap) {
            exp_count = cnt;
            exp_thr = T & SKIP_DIGIT_MASK;
        }
    }
    std::nth_element(ref.begin(), ref.begin() + (exp_count - 1), ref.end(), std::greater<uint32_t>());
    std::sort(ref.begin(), ref.begin() + exp_count, std::greater<uint32_t>());

    topk_input in;
    memset(&in, 0, sizeof in);
    in.src = c.pairs ? TOPK_SRC_PAIRS : TOPK_SRC_RAW;
    in.raw = d_in ? d_in + c.offset : nullptr;
    in.dtype = c.dt;
    in.order = c.ord;
    in.keys = d_keys;
    in.pos = d_pos;
    in.pos64 = c.pos64;
    in.n_max = c.n_max;
    in.k = c.k;
    in.skip_last_digit = c.skip;
    uint64_t *d_n = nullptr;
    if (c.dev_n) {
        CK(cudaMalloc(&d_n, 8));
        CK(cudaMemcpy(d_n, &c.n, 8, cudaMemcpyHostToDevice));
        in.d_n = d_n;
    }
    topk_output out;
    memset(&out, 0, sizeof out);
    out.capacity = c.cap;
    CK(cudaMalloc(&out.keys, c.cap * 4));
    CK(cudaMalloc(&out.pos, c.cap * pos_size));
    CK(cudaMalloc(&out.d_count, 8));
    CK(cudaMalloc(&out.d_threshold, 4));
    CK(cudaMemset(out.keys, POISON_BYTE, c.cap * 4));
    CK(cudaMemset(out.pos, POISON_BYTE, c.cap * pos_size));
    CK(cudaMemset(out.d_count, POISON_BYTE, 8));
    size_t ws_bytes = 0;
    void *ws = nullptr;
    drtopk_status st = radix_topk_workspace(&in, &ws_bytes);
    if (st == DRTOPK_OK) {
        CK(cudaMalloc(&ws, ws_bytes));
        CK(cudaMemset(ws, POISON_BYTE, ws_bytes));
        st = radix_topk(&in, &out, ws, ws_bytes, 0);
    }
    CK(cudaDeviceSynchronize());
    char why[256] = "";
    bool ok = st == DRTOPK_OK;
    if (!ok) snprintf(why, sizeof why, "status %d", (int)st);
    uint64_t count = 0;
    uint32_t thr = 0;
    if (ok) {
        CK(cudaMemcpy(&count, out.d_count, 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&thr, out.d_threshold, 4, cudaMemcpyDeviceToHost));
        if (count != exp_count) {
            ok = false;
            snprintf(why, sizeof why, "count %llu, expected %llu", (unsigned long long)count,
                     (unsigned long long)exp_count);
        } else if (thr != exp_thr) {
            ok = false;
            snprintf(why, sizeof why, "threshold %08x, expected %08x", thr, exp_thr);
        }
    }
    if (ok) {
        std::vector<uint32_t> ok_keys(count);
        std::vector<uint64_t> ok_pos(count);
        CK(cudaMemcpy(ok_keys.data(), out.keys, count * 4, cudaMemcpyDeviceToHost));
        if (c.pos64) {
            CK(cudaMemcpy(ok_pos.data(), out.pos, count * 8, cudaMemcpyDeviceToHost));
        } else {
            std::vector<uint32_t> p32(count);
            CK(cudaMemcpy(p32.data(), out.pos, count * 4, cudaMemcpyDeviceToHost));
            for (uint64_t i = 0; i < count; ++i) ok_pos[i] = p32[i];
        }
        for (uint64_t i = 0; ok && i < count; ++i) {
            uint64_t idx = c.pairs ? index_of(ok_pos[i], c.pos64) : ok_pos[i];
            if (c.pairs && pos_of(idx, c.pos64) != ok_pos[i]) idx = c.n; /* not a position we made */
            if (idx >= c.n) {
                ok = false;
                snprintf(why, sizeof why, "slot %llu: position %llu out of range", (unsigned long long)i,
                         (unsigned long long)ok_pos[i]);
            } else if (key[idx] != ok_keys[i]) {
                ok = false;
                snprintf(why, sizeof why, "slot %llu: key %08x but input key at that position %08x",
                         (unsigned long long)i, ok_keys[i], key[idx]);
            } else if (ok_keys[i] < thr) {
                ok = false;
                snprintf(why, sizeof why, "slot %llu: key %08x below threshold %08x", (unsigned long long)i,
                         ok_keys[i], thr);
            }
        }
        if (ok) {
            std::sort(ok_pos.begin(), ok_pos.end());
            if (std::adjacent_find(ok_pos.begin(), ok_pos.end()) != ok_pos.end()) {
                ok = false;
                snprintf(why, sizeof why, "duplicate positions");
            }
        }
        if (ok) {
            std::sort(ok_keys.begin(), ok_keys.end(), std::greater<uint32_t>());
            if (!std::equal(ok_keys.begin(), ok_keys.end(), ref.begin())) {
                ok = false;
                snprintf(why, sizeof why, "multiset of keys differs from the reference");
            }
        }
    }
    report(c, ok, why);
    cudaFree(d_in);
    cudaFree(d_keys);
    cudaFree(d_pos);
    cudaFree(d_n);
    cudaFree(out.keys);
    cudaFree(out.pos);
    cudaFree(out.d_count);
    cudaFree(out.d_threshold);
    cudaFree(ws);
}

static tcase base_case(uint64_t n, uint64_t k, uint64_t seed)
{
    tcase c;
    memset(&c, 0, sizeof c);
    c.dt = DRTOPK_U32;
    c.ord = DRTOPK_LARGEST;
    c.dist = DRTOPK_DIST_UD;
    c.n = c.n_max = n;
    c.k = k;
    c.cap = k;
    c.seed = seed;
    return c;
}

static std::vector<uint64_t> k_values(uint64_t n)
{
    std::vector<uint64_t> ks = {1, 2, n / 2 + 1, n > 1 ? n - 1 : 1, n};
    std::vector<uint64_t> r;
    for (uint64_t k : ks)
        if (k >= 1 && k <= n && std::find(r.begin(), r.end(), k) == r.end()) r.push_back(k);
    return r;
}

static void run_tests(bool small, bool large)
{
    const uint64_t limit = small ? (1ull << 16) + 3 : ~0ull;
    const std::vector<uint64_t> sizes = {1, 2, 31, 1000, 4097, 32768, 32769, (1ull << 16) + 3, 1ull << 20, (1ull << 24) + 5};
    uint64_t seed = 1;
    /* sizes x k, RAW u32 UD and PAIRS pos32/pos64 */
    for (uint64_t n : sizes) {
        if (n > limit) continue;
        for (uint64_t k : k_values(n)) {
            tcase c = base_case(n, k, seed++);
            run_case(c);
            c.pairs = 1;
            run_case(c);
            c.pos64 = 1;
            c.dist = DRTOPK_DIST_FEW;
            run_case(c);
        }
    }
    /* every dist x dtype x order */
    for (uint64_t n : {(uint64_t)4097, (uint64_t)(1ull << 16) + 3, (uint64_t)1 << 20}) {
        if (n > limit) continue;
        for (int d = 0; d < DRTOPK_DIST_COUNT; ++d)
            for (int t = 0; t < DRTOPK_RAW_DTYPE_COUNT; ++t)
                for (int o = 0; o < 2; ++o) {
                    tcase c = base_case(n, 1 + (seed * 7919) % n, seed);
                    ++seed;
                    c.dist = (dh_dist)d;
                    c.dt = (drtopk_dtype)t;
                    c.ord = (drtopk_order)o;
                    run_case(c);
                }
    }
    /* PAIRS over distributions, both position widths */
    for (uint64_t n : sizes) {
        if (n > limit || n < 4) continue;
        for (dh_dist d : {DRTOPK_DIST_UD, DRTOPK_DIST_ND, DRTOPK_DIST_EQ, DRTOPK_DIST_DESC, DRTOPK_DIST_CD})
            for (int p64 = 0; p64 < 2; ++p64) {
                tcase c = base_case(n, n / 3 + 1, seed++);
                c.pairs = 1;
                c.pos64 = p64;
                c.dist = d;
                run_case(c);
            }
    }
    /* skip-last-digit with small and large capacity */
    for (uint64_t n : {(uint64_t)1000, (uint64_t)4097, (uint64_t)(1ull << 16) + 3, (uint64_t)1 << 20,
                       (uint64_t)(1ull << 24) + 5}) {
        if (n > limit) continue;
        for (dh_dist d : {DRTOPK_DIST_UD, DRTOPK_DIST_FEW, DRTOPK_DIST_CD, DRTOPK_DIST_ND, DRTOPK_DIST_ASC})
            for (uint64_t k : {(uint64_t)1, (uint64_t)100, n / 4})
                for (int big = 0; big < 2; ++big)
                    for (int pairs = 0; pairs < 2; ++pairs) {
                        tcase c = base_case(n, k, seed++);
                        c.dist = d;
                        c.skip = 1;
                        c.pairs = pairs;
                        c.cap = big ? n : k;
                        run_case(c);
                    }
    }
    /* device-side length below n_max, incl. the one-block path */
    for (uint64_t nm : {(uint64_t)5000, (uint64_t)32768, (uint64_t)32769, (uint64_t)(1ull << 16) + 3, (uint64_t)1 << 20}) {
        if (nm > limit) continue;
        for (uint64_t n : {nm - 1, nm / 3, (uint64_t)7})
            for (int pairs = 0; pairs < 2; ++pairs) {
                tcase c = base_case(n, std::max<uint64_t>(1, n / 5), seed++);
                c.n_max = nm;
                c.dev_n = 1;
                c.pairs = pairs;
                c.dist = pairs ? DRTOPK_DIST_ND : DRTOPK_DIST_UD;
                run_case(c);
            }
    }
    /* unaligned RAW heads and tails */
    for (uint64_t n : {(uint64_t)4099, (uint64_t)(1ull << 16) + 3, (uint64_t)(1ull << 20) + 1}) {
        if (n > limit) continue;
        for (int off = 1; off < 4; ++off) {
            tcase c = base_case(n, 1000, seed++);
            c.offset = off;
            c.dt = DRTOPK_F32;
            c.dist = DRTOPK_DIST_SPECIAL;
            run_case(c);
            c.dt = DRTOPK_I32;
            c.dist = DRTOPK_DIST_UD;
            c.ord = DRTOPK_SMALLEST;
            run_case(c);
        }
    }
    if (large) {
        const uint64_t n = 1ull << 28;
        tcase c = base_case(n, 1ull << 20, seed++);
        run_case(c);
        c = base_case(n, 1000, seed++);
        c.dt = DRTOPK_F32;
        c.dist = DRTOPK_DIST_ND;
        c.ord = DRTOPK_SMALLEST;
        run_case(c);
        c = base_case(n + 5, 1ull << 24, seed++);
        c.pairs = 1;
        c.skip = 1;
        c.cap = 2ull << 24;
        run_case(c);
    }
}

/* radix_topk_hist0's window (kernels.h): the leading bits every key of
 * (floor, top] shares, at most 24, and the 8-bit digits below them. */
static void test_known_bits()
{
    static const struct { uint32_t floor, top; int known; int shifts[4]; } w[] = {
        { 0u, 0xFFFFFFFFu, 0, { 24, 16, 8, 0 } },                /* no bound: the old digits      */
        { 0xFC123456u, 0xFFFFFFFFu, 6, { 18, 10, 2, 0 } },       /* u32 UD at k = 2^24 of 2^30    */
        { 0xFFFFFF05u, 0xFFFFFFFFu, 24, { 0, 0, 0, 0 } },        /* CD: capped, one digit decides */
        { 0x0000E234u, 0x0000FFFFu, 19, { 5, 0, 0, 0 } },        /* a 16-bit key zero-extended    */
        { 0x7FFFFFFFu, 0xFFFFFFFFu, 0, { 24, 16, 8, 0 } },       /* differ at the first bit       */
        { 0xFFFFFFFEu, 0xFFFFFFFFu, 24, { 0, 0, 0, 0 } },        /* one key above the floor       */
    };
    for (const auto &c : w) {
        const int known = topk_known_bits(c.floor, c.top);
        gt_check(known == c.known, "radix: known bits of (floor, top]", "floor 0x%08x top 0x%08x: %d, want %d",
                 c.floor, c.top, known, c.known);
        for (int q = 0; q < 4; ++q)
            gt_check(topk_digit_shift(known, q) == c.shifts[q], "radix: digit shift below the known bits",
                     "known %d digit %d: %d, want %d", known, q, topk_digit_shift(known, q), c.shifts[q]);
    }
}

int main(int argc, char **argv)
{
    gt_begin();
    bool small = false, large = true;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--small")) small = true;
        else if (!strcmp(argv[i], "--no-large")) large = false;
        else {
            fprintf(stderr, "usage: %s [--small] [--no-large]\n", argv[0]);
            return 2;
        }
    }
    if (!gt_have_gpu()) return gt_no_gpu("test_radix");
    test_known_bits();
    run_tests(small, large && !small);
    return gt_finish();
}
