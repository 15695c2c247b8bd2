/*
 * test_slice.c -- the MPI-free arithmetic of multi-GPU Dr. Top-k (paper
 * section 5.4; src/lib/mgpu.c): slices of V past 2^32 and 2^34 elements,
 * raw-file slices (src/harness/slice.c), the ranks' radix select of the global k-th key over their
 * lists with ties across ranks, the choice between it and gathering every
 * whole list (policy.h's bounds), and the canonical order.
 */
#include "test_harness.h"
#include "mgpu.h"
#include "policy.h"
#include "slice.h"
#include "gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_RANKS 33            /* past a power of two, with odd leftovers */


/* Slices are contiguous, cover [0, n), and differ in length by at most one,
 * the longer ones first; 64-bit offsets past 2^32 are exact. */
static void test_slice_cover(void)
{
    const uint64_t ns[] = { 1, 7, 1000, (1ull << 32) + 3, (1ull << 34) + 5, (1ull << 36) - 1 };
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i) {
        for (uint64_t parts = 1; parts <= MAX_RANKS && parts <= ns[i]; ++parts) {
            uint64_t next = 0, f, c, c0;
            drtopk_slice(ns[i], parts, 0, &f, &c0);
            for (uint64_t r = 0; r < parts; ++r) {
                drtopk_slice(ns[i], parts, r, &f, &c);
                CHECKF(f == next, "n=%" PRIu64 " parts=%" PRIu64 " r=%" PRIu64 ": first %" PRIu64 " != %" PRIu64,
                       ns[i], parts, r, f, next);
                CHECK(c == c0 || c + 1 == c0);
                CHECK(c >= 1);
                next = f + c;
            }
            CHECK_EQ_U64(next, ns[i]);
        }
    }
    /* a known value: 2^34 + 5 over 4 ranks gives 2^32 + 2, 2^32 + 1 (x3) */
    uint64_t f, c;
    drtopk_slice((1ull << 34) + 5, 4, 3, &f, &c);
    CHECK_EQ_U64(f, 3 * (1ull << 32) + 4);
    CHECK_EQ_U64(c, (1ull << 32) + 1);
}

static int cmp_desc(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x < y) - (x > y);
}

/* The ranks' exchange simulated in one process: `ranks` lists (list r is
 * vals[off[r] .. off[r + 1]), positions its indices) go through the radix
 * rounds with their histograms added, then each compacts with its ties
 * counted in rank order.  Exactly k come out; their keys are the best k of
 * the union (the sorted keys equal a sort of all keys); ties are taken from
 * the lowest ranks first. */
#define SIM_MAX 64
static void sim_exchange(drtopk_dtype t, drtopk_order o, const void *vals, const uint64_t *off, int ranks, uint64_t k)
{
    const size_t esz = drtopk_dtype_size(t);
    const uint64_t n = off[ranks];
    uint64_t hist[SIM_MAX][DRTOPK_RADIX_BINS], sum[DRTOPK_RADIX_BINS], above[SIM_MAX] = { 0 }, ties[SIM_MAX] = { 0 };
    uint64_t prefix = 0, need = k, pos[SIM_MAX], out_p[SIM_MAX], all[SIM_MAX], got[SIM_MAX];
    unsigned char out_v[SIM_MAX * 8];
    for (uint64_t i = 0; i < n; ++i) pos[i] = i;
    for (int round = 0; round < drtopk_radix_rounds(t); ++round) {
        const int shift = drtopk_radix_shift(t, round);
        uint64_t ab;
        memset(sum, 0, sizeof sum);
        for (int r = 0; r < ranks; ++r) {
            memset(hist[r], 0, sizeof hist[r]);
            drtopk_key_hist((const char *)vals + off[r] * esz, off[r + 1] - off[r], t, o, prefix, shift, hist[r]);
            for (unsigned d = 0; d < DRTOPK_RADIX_BINS; ++d) sum[d] += hist[r][d];
        }
        const unsigned d = drtopk_radix_pick(sum, need, &ab);
        CHECK(ab < need && ab + sum[d] >= need);
        need -= ab;
        prefix |= (uint64_t)d << shift;
        for (int r = 0; r < ranks; ++r) {
            for (unsigned e = d + 1; e < DRTOPK_RADIX_BINS; ++e) above[r] += hist[r][e];
            ties[r] = hist[r][d];
        }
    }
    uint64_t m = 0, before = 0;
    for (int r = 0; r < ranks; ++r) {
        const uint64_t take = need > before ? (need - before < ties[r] ? need - before : ties[r]) : 0;
        const uint64_t c = drtopk_key_compact((const char *)vals + off[r] * esz, pos + off[r], off[r + 1] - off[r], t,
                                              o, prefix, take, 0, out_v + m * esz, out_p + m);
        CHECK_EQ_U64(c, above[r] + take);
        m += c;
        before += ties[r];
    }
    CHECK_EQ_U64(m, k);
    for (uint64_t i = 0; i < n; ++i) all[i] = drtopk_key_at(vals, i, t, o);
    for (uint64_t i = 0; i < m; ++i) {
        got[i] = drtopk_key_at(out_v, i, t, o);
        CHECK_EQ_U64(drtopk_bits_at(out_v, i, t), drtopk_bits_at(vals, out_p[i], t));
    }
    qsort(all, (size_t)n, sizeof *all, cmp_desc);
    qsort(got, (size_t)m, sizeof *got, cmp_desc);
    for (uint64_t i = 0; i < k; ++i) CHECK_EQ_U64(got[i], all[i]);
    CHECK_EQ_U64(prefix, all[k - 1]);     /* the threshold is the k-th key */
}

/* Every k of lists with ties across ranks, for 16-, 32- and 64-bit keys,
 * both orders, floats with NaN and -0.0, and a rank with an empty list. */
static void test_threshold(void)
{
    const uint32_t u[] = { 5, 9, 5, 1, 5, 7, 0xffffffffu, 5, 2, 5, 5, 0, 9 };
    const uint64_t uo[] = { 0, 4, 4, 9, 13 };
    const float f[] = { -0.0f, 0.0f, NAN, 1.5f, -INFINITY, 0.0f, -2.0f, NAN, INFINITY, -0.0f, 3.0f };
    const uint64_t fo[] = { 0, 3, 7, 11 };
    const double g[] = { 1e300, -1e-300, 0.0, -0.0, 1e-300, 2.0, 2.0, -5.0 };
    const int64_t i64[] = { INT64_MIN, -1, 0, INT64_MAX, -1, 1, INT64_MIN, 7 };
    const uint64_t go[] = { 0, 5, 8 };
    uint16_t h[10];
    const uint64_t ho[] = { 0, 2, 2, 10 };
    const float hf[] = { 1.0f, -1.0f, 1.0f, 0.5f, 65504.0f, -0.0f, 0.0f, 1.0f, 2.0f, 1.0f };
    for (int i = 0; i < 10; ++i) h[i] = drtopk_f16_from_float(hf[i]);
    const uint32_t eq[] = { 3, 3, 3, 3, 3, 3, 3 };
    const uint64_t eqo[] = { 0, 2, 3, 7 };
    for (int s = 0; s < 2; ++s) {
        const drtopk_order o = s ? DRTOPK_SMALLEST : DRTOPK_LARGEST;
        for (uint64_t k = 1; k <= 13; ++k) sim_exchange(DRTOPK_U32, o, u, uo, 4, k);
        for (uint64_t k = 1; k <= 11; ++k) sim_exchange(DRTOPK_F32, o, f, fo, 3, k);
        for (uint64_t k = 1; k <= 8; ++k) sim_exchange(DRTOPK_F64, o, g, go, 2, k);
        for (uint64_t k = 1; k <= 8; ++k) sim_exchange(DRTOPK_I64, o, i64, go, 2, k);
        for (uint64_t k = 1; k <= 10; ++k) sim_exchange(DRTOPK_F16, o, h, ho, 3, k);
        for (uint64_t k = 1; k <= 7; ++k) sim_exchange(DRTOPK_U32, o, eq, eqo, 3, k);
    }
}

/* The canonical order: best first, equal values by smaller position, for
 * 32- and 16-bit keys. */
static void test_canon(void)
{
    uint32_t v[] = { 3, 1, 2, 1 };
    uint64_t p[] = { 10, 7, 1u << 31, 2 };
    CHECK_STATUS(drtopk_topk_canon(DRTOPK_U32, DRTOPK_SMALLEST, v, p, 4), DRTOPK_OK);
    CHECK(v[0] == 1 && p[0] == 2 && v[1] == 1 && p[1] == 7 && v[2] == 2 && v[3] == 3);
    uint16_t h[] = { drtopk_f16_from_float(2.0f), drtopk_f16_from_float(1.0f) };
    uint64_t hp[] = { 7, 3 };
    CHECK_STATUS(drtopk_topk_canon(DRTOPK_F16, DRTOPK_SMALLEST, h, hp, 2), DRTOPK_OK);
    CHECK(drtopk_f16_to_float(h[0]) == 1.0f && hp[0] == 3);
}

/* The sampled checksum: equal for equal files, different when a sampled
 * block or the size differs. */
static void test_sample_sum(void)
{
    char a[] = "/tmp/drtopk_sum_XXXXXX", b[] = "/tmp/drtopk_sum_XXXXXX";
    enum { N = 100000 };        /* 400 KB: longer than the blocks sampled */
    static uint32_t v[N];
    uint64_t sa, sb;
    char err[256];
    const int fa = mkstemp(a), fb = mkstemp(b);
    CHECK(fa >= 0 && fb >= 0);
    close(fa);
    close(fb);
    dh_gen_host(v, N, DRTOPK_DIST_UD, DRTOPK_U32, 5);
    CHECK_STATUS(dh_write_raw(a, v, 4, N), DRTOPK_OK);
    CHECK_STATUS(dh_write_raw(b, v, 4, N), DRTOPK_OK);
    CHECK_STATUS(dh_raw_sample_sum(a, 8, 4096, &sa, err, sizeof err), DRTOPK_OK);
    CHECK_STATUS(dh_raw_sample_sum(b, 8, 4096, &sb, err, sizeof err), DRTOPK_OK);
    CHECK_EQ_U64(sa, sb);
    v[N - 1] ^= 1u;             /* the last block is always sampled */
    CHECK_STATUS(dh_write_raw(b, v, 4, N), DRTOPK_OK);
    CHECK_STATUS(dh_raw_sample_sum(b, 8, 4096, &sb, err, sizeof err), DRTOPK_OK);
    CHECK(sa != sb);
    CHECK_STATUS(dh_write_raw(b, v, 4, N - 1), DRTOPK_OK);
    CHECK_STATUS(dh_raw_sample_sum(b, 8, 4096, &sb, err, sizeof err), DRTOPK_OK);
    CHECK(sa != sb);
    unlink(a);
    unlink(b);
    CHECK_STATUS(dh_raw_sample_sum(a, 8, 4096, &sb, err, sizeof err), DRTOPK_ERR_IO);
    CHECK(strstr(err, "cannot open") != NULL);
}

/* A rank's slice of a raw file is the same elements as the whole file read. */
static void test_raw_slice(void)
{
    char path[] = "/tmp/drtopk_slice_XXXXXX.u32";
    const int fd = mkstemps(path, 4);
    uint32_t all[100], part[100];
    uint64_t n;
    char err[256];
    CHECK(fd >= 0);
    close(fd);
    dh_gen_host(all, 100, DRTOPK_DIST_UD, DRTOPK_U32, 3);
    CHECK_STATUS(dh_write_raw(path, all, 4, 100), DRTOPK_OK);
    CHECK_STATUS(dh_raw_count(path, 4, &n, err, sizeof err), DRTOPK_OK);
    CHECK_EQ_U64(n, 100);
    CHECK_STATUS(dh_read_raw_slice(path, 4, 37, 41, part, err, sizeof err), DRTOPK_OK);
    CHECK(memcmp(part, all + 37, 41 * sizeof(uint32_t)) == 0);
    CHECK_STATUS(dh_read_raw_slice(path, 4, 60, 41, part, err, sizeof err), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err, "holds 100 elements") != NULL);
    unlink(path);
    /* the generator's slices are the whole vector's, for every key type */
    uint64_t whole[100], slice[41];
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
        const size_t esz = drtopk_dtype_size((drtopk_dtype)t);
        dh_gen_host(whole, 100, DRTOPK_DIST_ND, (drtopk_dtype)t, 3);
        dh_gen_host_at(slice, 37, 41, DRTOPK_DIST_ND, (drtopk_dtype)t, 3);
        CHECKF(memcmp(slice, (const char *)whole + 37 * esz, 41 * esz) == 0, "%s",
               drtopk_dtype_name((drtopk_dtype)t));
    }
}

/* Rank 0 gathers every whole list while R lists of (key, position) pairs fit
 * the bound of the way they move (GPU to GPU larger than through MPI), the
 * bound exact at every key width; one rank gathers nothing. */
static void test_gather_all(void)
{
    static const drtopk_dtype types[] = { DRTOPK_F16, DRTOPK_U32, DRTOPK_F64 };
    static const int ranks[] = { 2, 3, 4, 16 };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i)
        for (size_t j = 0; j < sizeof ranks / sizeof ranks[0]; ++j)
            for (int ipc = 0; ipc <= 1; ++ipc) {
                const uint64_t pair = drtopk_dtype_bits(types[i]) / 8 + sizeof(uint64_t);
                const uint64_t cap = ipc ? POLICY_MGPU_GATHER_ALL_IPC_BYTES : POLICY_MGPU_GATHER_ALL_MPI_BYTES;
                const uint64_t most = cap / pair / (uint64_t)ranks[j];     /* the longest list gathered whole */
                CHECKF(most * pair * (uint64_t)ranks[j] <= cap && (most + 1) * pair * (uint64_t)ranks[j] > cap,
                       "%s R=%d", drtopk_dtype_name(types[i]), ranks[j]);
                CHECKF(drtopk_mgpu_gather_all(128, ranks[j], types[i], ipc), "%s R=%d ipc=%d k=128",
                       drtopk_dtype_name(types[i]), ranks[j], ipc);
                CHECKF(drtopk_mgpu_gather_all(most, ranks[j], types[i], ipc), "%s R=%d ipc=%d at the bound",
                       drtopk_dtype_name(types[i]), ranks[j], ipc);
                CHECKF(!drtopk_mgpu_gather_all(most + 1, ranks[j], types[i], ipc), "%s R=%d ipc=%d past it",
                       drtopk_dtype_name(types[i]), ranks[j], ipc);
                CHECK(!drtopk_mgpu_gather_all(1ull << 24, ranks[j], types[i], ipc));
            }
    CHECK(!drtopk_mgpu_gather_all(128, 1, DRTOPK_U32, 1));
    CHECK(drtopk_mgpu_gather_all(1ull << 16, 4, DRTOPK_U32, 1) && !drtopk_mgpu_gather_all(1ull << 16, 4, DRTOPK_U32, 0));
}

__attribute__((constructor)) static void register_slice_tests(void)
{
    test_register("slice: contiguous cover past 2^32 and 2^34", test_slice_cover);
    test_register("slice: the ranks' radix select of the k-th key and compaction, every width", test_threshold);
    test_register("slice: gathering every whole list while the lists are short", test_gather_all);
    test_register("slice: canonical order of 16- and 32-bit keys", test_canon);
    test_register("slice: a rank's slice of a raw file and of the generator", test_raw_slice);
    test_register("slice: the sampled checksum of a raw file", test_sample_sum);
}
