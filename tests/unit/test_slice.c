/*
 * test_slice.c -- the MPI-free arithmetic of multi-GPU Dr. Top-k (paper
 * section 5.4; src/harness/slice.c): slices of V past 2^32 and 2^34 elements,
 * the binomial reduction tree for every rank count up to 33, raw-file slices,
 * and the exact merge of two top-k lists with ties.
 */
#include "test_harness.h"
#include "slice.h"
#include "gen.h"

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

/* Every rank but 0 sends exactly once, to a rank that receives from it at
 * the same step; rank 0 ends holding the span of all of V. */
static void test_tree(void)
{
    const uint64_t n = (1ull << 34) + 7;
    for (uint64_t ranks = 1; ranks <= MAX_RANKS; ++ranks) {
        int sent[MAX_RANKS] = { 0 };
        for (uint64_t step = 1; step < ranks; step *= 2) {
            for (uint64_t r = 0; r < ranks; ++r) {
                int sends, back;
                const int64_t peer = drtopk_tree_peer(ranks, r, step, &sends);
                if (peer < 0) continue;
                CHECK(peer < (int64_t)ranks);
                CHECK(drtopk_tree_peer(ranks, (uint64_t)peer, step, &back) == (int64_t)r);
                CHECK(back == !sends);
                if (sends) {
                    CHECK(!sent[r]);
                    sent[r] = 1;
                    /* the receiver's span so far and the sender's make the next one */
                    CHECK_EQ_U64(drtopk_tree_span(n, ranks, (uint64_t)peer, step) +
                                     drtopk_tree_span(n, ranks, r, step),
                                 drtopk_tree_span(n, ranks, (uint64_t)peer, 2 * step));
                }
            }
        }
        for (uint64_t r = 1; r < ranks; ++r) CHECKF(sent[r], "ranks=%" PRIu64 ": rank %" PRIu64 " never sends", ranks, r);
        uint64_t top = 1;
        while (top < ranks) top *= 2;
        CHECK_EQ_U64(drtopk_tree_span(n, ranks, 0, top), n);
    }
}

/* Merging canonical lists gives the canonical best min(k, na + nb): ties
 * ordered by smaller position, whichever list they came from. */
static void test_merge(void)
{
    const uint32_t av[] = { 9, 5, 5, 5, 1 }, bv[] = { 7, 5, 5, 0 };
    const uint64_t ap[] = { 40, 2, 8, 30, 3 }, bp[] = { 11, 5, 31, 1 };
    uint32_t ov[9];
    uint64_t op[9];
    const uint32_t want_v[] = { 9, 7, 5, 5, 5, 5, 5, 1, 0 };
    const uint64_t want_p[] = { 40, 11, 2, 5, 8, 30, 31, 3, 1 };
    for (uint64_t k = 1; k <= 10; ++k) {
        const uint64_t len = drtopk_topk_merge(DRTOPK_U32, DRTOPK_LARGEST, k, av, ap, 5, bv, bp, 4, ov, op);
        CHECK_EQ_U64(len, k < 9 ? k : 9);
        for (uint64_t i = 0; i < len; ++i) {
            CHECK_EQ_U64(ov[i], want_v[i]);
            CHECK_EQ_U64(op[i], want_p[i]);
        }
    }
    /* canonical sort of an unordered list, smallest order */
    uint32_t v[] = { 3, 1, 2, 1 };
    uint64_t p[] = { 10, 7, 1u << 31, 2 };
    CHECK_STATUS(drtopk_topk_canon(DRTOPK_U32, DRTOPK_SMALLEST, v, p, 4), DRTOPK_OK);
    CHECK(v[0] == 1 && p[0] == 2 && v[1] == 1 && p[1] == 7 && v[2] == 2 && v[3] == 3);
}

/* 64-bit and 16-bit keys merge by their ordered key (f64: -1.5 < 0 < 2.5;
 * f16 smallest: 1.0 before 2.0). */
static void test_merge_widths(void)
{
    const double av[] = { 2.5, -1.5 }, bv[] = { 0.0 };
    const uint64_t ap[] = { 4, 9 }, bp[] = { 1 };
    double ov[3];
    uint64_t op[3];
    CHECK_EQ_U64(drtopk_topk_merge(DRTOPK_F64, DRTOPK_LARGEST, 3, av, ap, 2, bv, bp, 1, ov, op), 3);
    CHECK(ov[0] == 2.5 && ov[1] == 0.0 && ov[2] == -1.5 && op[0] == 4 && op[1] == 1 && op[2] == 9);
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
    drtopk_gen_host(v, N, DRTOPK_DIST_UD, DRTOPK_U32, 5);
    CHECK_STATUS(drtopk_write_raw(a, v, 4, N), DRTOPK_OK);
    CHECK_STATUS(drtopk_write_raw(b, v, 4, N), DRTOPK_OK);
    CHECK_STATUS(drtopk_raw_sample_sum(a, 8, 4096, &sa, err, sizeof err), DRTOPK_OK);
    CHECK_STATUS(drtopk_raw_sample_sum(b, 8, 4096, &sb, err, sizeof err), DRTOPK_OK);
    CHECK_EQ_U64(sa, sb);
    v[N - 1] ^= 1u;             /* the last block is always sampled */
    CHECK_STATUS(drtopk_write_raw(b, v, 4, N), DRTOPK_OK);
    CHECK_STATUS(drtopk_raw_sample_sum(b, 8, 4096, &sb, err, sizeof err), DRTOPK_OK);
    CHECK(sa != sb);
    CHECK_STATUS(drtopk_write_raw(b, v, 4, N - 1), DRTOPK_OK);
    CHECK_STATUS(drtopk_raw_sample_sum(b, 8, 4096, &sb, err, sizeof err), DRTOPK_OK);
    CHECK(sa != sb);
    unlink(a);
    unlink(b);
    CHECK_STATUS(drtopk_raw_sample_sum(a, 8, 4096, &sb, err, sizeof err), DRTOPK_ERR_IO);
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
    drtopk_gen_host(all, 100, DRTOPK_DIST_UD, DRTOPK_U32, 3);
    CHECK_STATUS(drtopk_write_raw(path, all, 4, 100), DRTOPK_OK);
    CHECK_STATUS(drtopk_raw_count(path, 4, &n, err, sizeof err), DRTOPK_OK);
    CHECK_EQ_U64(n, 100);
    CHECK_STATUS(drtopk_read_raw_slice(path, 4, 37, 41, part, err, sizeof err), DRTOPK_OK);
    CHECK(memcmp(part, all + 37, 41 * sizeof(uint32_t)) == 0);
    CHECK_STATUS(drtopk_read_raw_slice(path, 4, 60, 41, part, err, sizeof err), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err, "holds 100 elements") != NULL);
    unlink(path);
    /* the generator's slices are the whole vector's, for every key type */
    uint64_t whole[100], slice[41];
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
        const size_t esz = drtopk_dtype_size((drtopk_dtype)t);
        drtopk_gen_host(whole, 100, DRTOPK_DIST_ND, (drtopk_dtype)t, 3);
        drtopk_gen_host_at(slice, 37, 41, DRTOPK_DIST_ND, (drtopk_dtype)t, 3);
        CHECKF(memcmp(slice, (const char *)whole + 37 * esz, 41 * esz) == 0, "%s",
               drtopk_dtype_name((drtopk_dtype)t));
    }
}

__attribute__((constructor)) static void register_slice_tests(void)
{
    test_register("slice: contiguous cover past 2^32 and 2^34", test_slice_cover);
    test_register("slice: reduction tree for 1..33 ranks", test_tree);
    test_register("slice: exact merge of two top-k lists with ties", test_merge);
    test_register("slice: a rank's slice of a raw file and of the generator", test_raw_slice);
    test_register("slice: merge and order 16- and 64-bit keys", test_merge_widths);
    test_register("slice: the sampled checksum of a raw file", test_sample_sum);
}
