/*
 * test_gen.c -- the seeded data sets (gen_core.h, gen.c) and raw vector files:
 * determinism and independence of n, statistics of UD/ND/CD (paper section
 * 6), shapes of the adversarial sets, and every read error path.
 */
#include "test_harness.h"
#include "gen.h"
#include "keyorder.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NSTAT 200000                 /* sample size for distribution checks */
#define CD_INNER_MIN_FRACTION 0.90
#define TMP_PATH_LEN 512

/* n elements of t; callers of the 32-bit tests read them as uint32_t. */
static void *gen_any(uint64_t n, dh_dist d, drtopk_dtype t, uint64_t seed)
{
    void *v = malloc(n * drtopk_dtype_size(t));
    CHECK(v != NULL);
    dh_gen_host(v, n, d, t, seed);
    return v;
}

static uint32_t *gen(uint64_t n, dh_dist d, drtopk_dtype t, uint64_t seed)
{
    return (uint32_t *)gen_any(n, d, t, seed);
}

/* The value of element bits b of type t. */
static double as_double(uint64_t b, drtopk_dtype t)
{
    const int w = drtopk_dtype_bits(t);
    float f;
    double x;
    uint32_t f32;
    switch (t) {
    case DRTOPK_U32: case DRTOPK_U64: return (double)b;
    case DRTOPK_I32: case DRTOPK_I64: return (double)((int64_t)(b << (64 - w)) >> (64 - w));
    case DRTOPK_F64: memcpy(&x, &b, sizeof x); return x;
    default:
        f32 = t == DRTOPK_F16 ? drtopk_f32_from_f16((uint16_t)b) : t == DRTOPK_BF16 ? drtopk_f32_from_bf16((uint16_t)b)
                                                                                   : (uint32_t)b;
        memcpy(&f, &f32, sizeof f);
        return (double)f;
    }
}

static void mean_sd(const void *v, uint64_t n, drtopk_dtype t, double *mean, double *sd)
{
    double s = 0, s2 = 0;
    for (uint64_t i = 0; i < n; ++i) s += as_double(drtopk_bits_at(v, i, t), t);
    *mean = s / (double)n;
    for (uint64_t i = 0; i < n; ++i) {
        double d = as_double(drtopk_bits_at(v, i, t), t) - *mean;
        s2 += d * d;
    }
    *sd = sqrt(s2 / (double)(n - 1));
}

static void deterministic_and_prefix_stable(void)
{
    for (int d = 0; d < DRTOPK_DIST_COUNT; ++d) {
        for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
            const size_t es = drtopk_dtype_size((drtopk_dtype)t);
            void *a = gen_any(1000, (dh_dist)d, (drtopk_dtype)t, 7);
            void *b = gen_any(1000, (dh_dist)d, (drtopk_dtype)t, 7);
            void *c = gen_any(37, (dh_dist)d, (drtopk_dtype)t, 7);
            CHECKF(memcmp(a, b, 1000 * es) == 0, "%s/%s not deterministic",
                   dh_dist_name((dh_dist)d), drtopk_dtype_name((drtopk_dtype)t));
            CHECKF(memcmp(a, c, 37 * es) == 0, "%s/%s element depends on n",
                   dh_dist_name((dh_dist)d), drtopk_dtype_name((drtopk_dtype)t));
            for (uint64_t i = 0; i < 1000; i += 97)
                CHECK(drtopk_bits_at(a, i, (drtopk_dtype)t) == dh_gen_bits(7, i, (dh_dist)d, (drtopk_dtype)t));
            free(a); free(b); free(c);
        }
    }
}

static void seeds_differ(void)
{
    const dh_dist rnd[] = { DRTOPK_DIST_UD, DRTOPK_DIST_ND, DRTOPK_DIST_CD,
                                DRTOPK_DIST_FEW, DRTOPK_DIST_SPECIAL };
    for (size_t j = 0; j < sizeof rnd / sizeof rnd[0]; ++j) {
        uint32_t *a = gen(1000, rnd[j], DRTOPK_U32, 1), *b = gen(1000, rnd[j], DRTOPK_U32, 2);
        int same = 0;
        for (int i = 0; i < 1000; ++i) same += a[i] == b[i];
        /* FEW has 7 values, SPECIAL 4 fixed ones in 8: allow those matches */
        CHECKF(same < 500, "%s: seeds 1 and 2 agree on %d of 1000", dh_dist_name(rnd[j]), same);
        free(a); free(b);
    }
}

static void ud_stats(void)
{
    double m, sd;
    uint32_t *v = gen(NSTAT, DRTOPK_DIST_UD, DRTOPK_U32, 3);
    mean_sd(v, NSTAT, DRTOPK_U32, &m, &sd);
    CHECKF(fabs(m / 4294967296.0 - 0.5) < 0.01, "u32 UD mean %g", m);
    CHECKF(fabs(sd / 4294967296.0 - sqrt(1.0 / 12)) < 0.01, "u32 UD sd %g", sd);
    free(v);
    v = gen(NSTAT, DRTOPK_DIST_UD, DRTOPK_F32, 3);
    mean_sd(v, NSTAT, DRTOPK_F32, &m, &sd);
    CHECKF(fabs(m) < 0.01, "f32 UD mean %g", m);
    for (int i = 0; i < NSTAT; ++i) {
        double x = as_double(v[i], DRTOPK_F32);
        CHECKF(x >= -1.0 && x < 1.0, "f32 UD element %d = %g outside [-1, 1)", i, x);
    }
    free(v);
}

static void nd_stats(void)
{
    double m, sd;
    uint32_t *v = gen(NSTAT, DRTOPK_DIST_ND, DRTOPK_U32, 4);
    mean_sd(v, NSTAT, DRTOPK_U32, &m, &sd);
    CHECKF(fabs(m - DRTOPK_ND_MEAN_U32) < 0.5, "u32 ND mean %.3f", m);
    CHECKF(fabs(sd - DRTOPK_ND_SD_U32) < 0.5, "u32 ND sd %.3f", sd);
    free(v);
    v = gen(NSTAT, DRTOPK_DIST_ND, DRTOPK_F32, 4);
    mean_sd(v, NSTAT, DRTOPK_F32, &m, &sd);
    CHECKF(fabs(m) < 0.02, "f32 ND mean %.4f", m);
    CHECKF(fabs(sd - 1.0) < 0.03, "f32 ND sd %.4f", sd);
    free(v);
}

static void cd_mostly_innermost(void)
{
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
        const drtopk_dtype dt = (drtopk_dtype)t;
        const int w = drtopk_dtype_bits(dt);
        const uint64_t ones = drtopk_width_mask(w);
        const int levels = w / DRTOPK_CD_LEVEL_BITS < DRTOPK_CD_LEVELS ? w / DRTOPK_CD_LEVEL_BITS : DRTOPK_CD_LEVELS;
        /* innermost level: the top 8 (levels - 1) bits all ones */
        const uint64_t inner_base = (ones << (w - DRTOPK_CD_LEVEL_BITS * (levels - 1))) & ones;
        const uint64_t outer_top = (ones << (w - DRTOPK_CD_LEVEL_BITS)) & ones;
        void *v = gen_any(NSTAT, DRTOPK_DIST_CD, dt, 5);
        uint64_t inner = 0, outer = 0;
        for (int i = 0; i < NSTAT; ++i) {
            /* floats store key >> 2 as a positive float (gen_core.h) */
            const uint64_t b = drtopk_bits_at(v, (uint64_t)i, dt);
            const uint64_t key = drtopk_dtype_is_float(dt) ? b << 2 : drtopk_key_any(b, dt, DRTOPK_LARGEST);
            inner += key >= inner_base;
            outer += key < outer_top;
        }
        CHECKF((double)inner / NSTAT >= CD_INNER_MIN_FRACTION, "%s CD: innermost fraction %.3f",
               drtopk_dtype_name((drtopk_dtype)t), (double)inner / NSTAT);
        CHECKF(outer > 0, "%s CD: outer levels are empty", drtopk_dtype_name((drtopk_dtype)t));
        free(v);
    }
}

static void shapes(void)
{
    const uint64_t n = 5000;
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
        drtopk_dtype dt = (drtopk_dtype)t;
        void *asc = gen_any(n, DRTOPK_DIST_ASC, dt, 6), *desc = gen_any(n, DRTOPK_DIST_DESC, dt, 6);
        void *eq = gen_any(n, DRTOPK_DIST_EQ, dt, 6), *few = gen_any(n, DRTOPK_DIST_FEW, dt, 6);
        uint64_t distinct[16];
        int nd = 0;
        CHECKF(as_double(drtopk_bits_at(eq, 0, dt), dt) == DRTOPK_EQ_VALUE, "%s EQ", drtopk_dtype_name(dt));
        for (uint64_t i = 1; i < n; ++i) {
            CHECKF(drtopk_key_at(asc, i, dt, DRTOPK_LARGEST) > drtopk_key_at(asc, i - 1, dt, DRTOPK_LARGEST),
                   "%s ASC at %llu", drtopk_dtype_name(dt), (unsigned long long)i);
            CHECKF(drtopk_key_at(desc, i, dt, DRTOPK_LARGEST) < drtopk_key_at(desc, i - 1, dt, DRTOPK_LARGEST),
                   "%s DESC at %llu", drtopk_dtype_name(dt), (unsigned long long)i);
            CHECK(drtopk_bits_at(eq, i, dt) == drtopk_bits_at(eq, 0, dt));
        }
        for (uint64_t i = 0; i < n; ++i) {
            int seen = 0;
            const uint64_t b = drtopk_bits_at(few, i, dt);
            for (int j = 0; j < nd; ++j) seen |= distinct[j] == b;
            if (!seen) {
                CHECKF(nd < DRTOPK_FEW_DISTINCT, "%s FEW has more than %d values",
                       drtopk_dtype_name(dt), DRTOPK_FEW_DISTINCT);
                distinct[nd++] = b;
            }
        }
        CHECK(nd == DRTOPK_FEW_DISTINCT);
        free(asc); free(desc); free(eq); free(few);
    }
}

static void special_has_extremes(void)
{
    const uint64_t n = 4000;
    uint32_t *f = gen(n, DRTOPK_DIST_SPECIAL, DRTOPK_F32, 8), *u = gen(n, DRTOPK_DIST_SPECIAL, DRTOPK_U32, 8);
    int nan = 0, pinf = 0, ninf = 0, pz = 0, nz = 0, denorm = 0, umin = 0, umax = 0;
    for (uint64_t i = 0; i < n; ++i) {
        nan += drtopk_f32_bits_is_nan(f[i]);
        pinf += f[i] == 0x7F800000u;
        ninf += f[i] == 0xFF800000u;
        pz += f[i] == 0x00000000u;
        nz += f[i] == 0x80000000u;
        denorm += (f[i] & DRTOPK_F32_EXP_MASK) == 0 && (f[i] & DRTOPK_F32_FRAC_MASK) != 0;
        umin += u[i] == 0;
        umax += u[i] == 0xFFFFFFFFu;
    }
    CHECK(nan > 0 && pinf > 0 && ninf > 0 && pz > 0 && nz > 0 && denorm > 0);
    CHECK(umin > 0 && umax > 0);
    free(f); free(u);
}

/* UD and ND of the types added after the 32-bit ones: UD floats in [-1, 1)
 * with mean 0, 64-bit integers spread over the range, ND N(0, 1) for floats
 * (f16 and bf16 rounded) and N(1e8, 10) for integers. */
static void other_widths_stats(void)
{
    static const drtopk_dtype types[] = { DRTOPK_F16, DRTOPK_BF16, DRTOPK_U64, DRTOPK_I64, DRTOPK_F64 };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i) {
        const drtopk_dtype t = types[i];
        double m, sd;
        void *v = gen_any(NSTAT, DRTOPK_DIST_UD, t, 3);
        mean_sd(v, NSTAT, t, &m, &sd);
        if (drtopk_dtype_is_float(t)) {
            CHECKF(fabs(m) < 0.01, "%s UD mean %g", drtopk_dtype_name(t), m);
            for (int j = 0; j < NSTAT; ++j) {
                const double x = as_double(drtopk_bits_at(v, (uint64_t)j, t), t);
                CHECKF(x >= -1.0 && x < 1.0, "%s UD element %d = %g outside [-1, 1)", drtopk_dtype_name(t), j, x);
            }
        } else {
            const double range = 18446744073709551616.0;   /* 2^64 */
            const double want = t == DRTOPK_U64 ? 0.5 * range : 0.0;
            CHECKF(fabs(m - want) / range < 0.01, "%s UD mean %g", drtopk_dtype_name(t), m);
            CHECKF(fabs(sd / range - sqrt(1.0 / 12)) < 0.01, "%s UD sd %g", drtopk_dtype_name(t), sd);
        }
        free(v);
        v = gen_any(NSTAT, DRTOPK_DIST_ND, t, 4);
        mean_sd(v, NSTAT, t, &m, &sd);
        if (drtopk_dtype_is_float(t)) {
            CHECKF(fabs(m) < 0.03, "%s ND mean %.4f", drtopk_dtype_name(t), m);
            CHECKF(fabs(sd - 1.0) < 0.03, "%s ND sd %.4f", drtopk_dtype_name(t), sd);
        } else {
            CHECKF(fabs(m - DRTOPK_ND_MEAN_U32) < 0.5, "%s ND mean %.3f", drtopk_dtype_name(t), m);
            CHECKF(fabs(sd - DRTOPK_ND_SD_U32) < 0.5, "%s ND sd %.3f", drtopk_dtype_name(t), sd);
        }
        free(v);
    }
}

/* SPECIAL of every float type holds NaNs, both infinities, both zeros and
 * subnormals; of every integer type 0 and the largest value. */
static void special_every_type(void)
{
    const uint64_t n = 4000;
    for (int ti = 0; ti < DRTOPK_DTYPE_COUNT; ++ti) {
        const drtopk_dtype t = (drtopk_dtype)ti;
        const uint64_t e = drtopk_float_exp_mask(t), sign = drtopk_sign_bit(t);
        const uint64_t ones = drtopk_width_mask(drtopk_dtype_bits(t));
        void *v = gen_any(n, DRTOPK_DIST_SPECIAL, t, 8);
        int nan = 0, pinf = 0, ninf = 0, pz = 0, nz = 0, sub = 0, zero = 0, top = 0;
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t b = drtopk_bits_at(v, i, t);
            nan += drtopk_float_bits_is_nan(b, t);
            pinf += b == e;
            ninf += b == (sign | e);
            pz += b == 0;
            nz += b == sign;
            sub += (b & e) == 0 && (b & drtopk_float_frac_mask(t)) != 0;
            zero += b == 0;
            top += b == ones;
        }
        if (drtopk_dtype_is_float(t))
            CHECKF(nan > 0 && pinf > 0 && ninf > 0 && pz > 0 && nz > 0 && sub > 0, "%s SPECIAL: nan %d inf %d/%d "
                   "zeros %d/%d subnormal %d", drtopk_dtype_name(t), nan, pinf, ninf, pz, nz, sub);
        else
            CHECKF(zero > 0 && top > 0, "%s SPECIAL: 0 %d times, max %d times", drtopk_dtype_name(t), zero, top);
        free(v);
    }
}

static void dist_names_parse(void)
{
    dh_dist d;
    for (int i = 0; i < DRTOPK_DIST_COUNT; ++i) {
        CHECK_STATUS(dh_dist_parse(dh_dist_name((dh_dist)i), &d), DRTOPK_OK);
        CHECK(d == (dh_dist)i);
    }
    CHECK_STATUS(dh_dist_parse("ud", &d), DRTOPK_OK);
    CHECK(d == DRTOPK_DIST_UD);
    CHECK_STATUS(dh_dist_parse("Special", &d), DRTOPK_OK);
    CHECK(d == DRTOPK_DIST_SPECIAL);
    CHECK_STATUS(dh_dist_parse("XD", &d), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(dh_dist_parse("", &d), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(dh_dist_parse(NULL, &d), DRTOPK_ERR_INVALID_ARGUMENT);
}

/* A fresh temporary file name with the given suffix (the file exists, empty). */
static void tmp_path(char *out, const char *suffix)
{
    const char *dir = getenv("TMPDIR");
    int fd;
    snprintf(out, TMP_PATH_LEN, "%s/drtopk_test_XXXXXX%s", dir && *dir ? dir : "/tmp", suffix);
    fd = mkstemps(out, (int)strlen(suffix));
    CHECKF(fd >= 0, "cannot create a temporary file %s", out);
    close(fd);
}

static void write_bytes(const char *path, const void *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    CHECK(fwrite(b, 1, len, f) == len);
    fclose(f);
}

static void raw_round_trip(void)
{
    char path[TMP_PATH_LEN], err[256];
    const uint64_t n = 100003;          /* more than one write chunk */
    uint32_t *v = gen(n, DRTOPK_DIST_UD, DRTOPK_U32, 9), *back = NULL;
    uint64_t idx[3] = { 0, 1ull << 40, UINT64_MAX }, *iback = NULL, m = 0;
    unsigned char raw[8];
    FILE *f;
    tmp_path(path, ".u32");
    CHECK_STATUS(dh_write_raw(path, v, 4, n), DRTOPK_OK);
    CHECK_STATUS(dh_read_raw(path, 4, (void **)&back, &m, err, sizeof err), DRTOPK_OK);
    CHECK_EQ_U64(m, n);
    CHECK(memcmp(v, back, n * 4) == 0);
    free(back);
    /* little-endian on disk */
    uint32_t one = 0x01020304u;
    CHECK_STATUS(dh_write_raw(path, &one, 4, 1), DRTOPK_OK);
    f = fopen(path, "rb");
    CHECK(f != NULL);
    CHECK(fread(raw, 1, 4, f) == 4);
    fclose(f);
    CHECK(raw[0] == 4 && raw[1] == 3 && raw[2] == 2 && raw[3] == 1);
    /* uint64 indices */
    CHECK_STATUS(dh_write_raw(path, idx, 8, 3), DRTOPK_OK);
    CHECK_STATUS(dh_read_raw(path, 8, (void **)&iback, &m, err, sizeof err), DRTOPK_OK);
    CHECK_EQ_U64(m, 3);
    CHECK(memcmp(idx, iback, sizeof idx) == 0);
    free(iback);
    remove(path);
    free(v);
}

static void raw_read_errors(void)
{
    char path[TMP_PATH_LEN], dir[TMP_PATH_LEN], missing[TMP_PATH_LEN + 8], err[256];
    void *data = (void *)&err;
    uint64_t n = 1;
    tmp_path(path, ".u32");
    /* empty */
    CHECK_STATUS(dh_read_raw(path, 4, &data, &n, err, sizeof err), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err, "empty") != NULL, "message: %s", err);
    CHECK(data == NULL && n == 0);
    /* 5 bytes: not a multiple of 4 */
    write_bytes(path, "abcde", 5);
    CHECK_STATUS(dh_read_raw(path, 4, &data, &n, err, sizeof err), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err, "multiple") != NULL, "message: %s", err);
    /* 12 bytes: fine for 4, not for 8 */
    write_bytes(path, "abcdefghijkl", 12);
    CHECK_STATUS(dh_read_raw(path, 8, &data, &n, err, sizeof err), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(dh_read_raw(path, 4, &data, &n, NULL, 0), DRTOPK_OK);
    CHECK_EQ_U64(n, 3);
    free(data);
    /* missing */
    remove(path);
    CHECK_STATUS(dh_read_raw(path, 4, &data, &n, err, sizeof err), DRTOPK_ERR_IO);
    CHECKF(strstr(err, path) != NULL && strstr(err, "cannot open") != NULL, "message: %s", err);
    /* a directory, and a file in a directory that does not exist */
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = '\0';
    CHECK(dh_read_raw(dir, 4, &data, &n, err, sizeof err) != DRTOPK_OK);
    snprintf(missing, sizeof missing, "%s.d/x.u32", path);
    /* bad arguments */
    CHECK_STATUS(dh_read_raw(path, 3, &data, &n, err, sizeof err), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(dh_read_raw(NULL, 4, &data, &n, err, sizeof err), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(dh_write_raw(path, NULL, 4, 1), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(dh_write_raw(missing, &n, 4, 1), DRTOPK_ERR_IO);
}

static void dtype_from_path(void)
{
    drtopk_dtype t;
    CHECK_STATUS(dh_dtype_from_path("a/b/data.u32", &t), DRTOPK_OK);
    CHECK(t == DRTOPK_U32);
    CHECK_STATUS(dh_dtype_from_path("x.i32", &t), DRTOPK_OK);
    CHECK(t == DRTOPK_I32);
    CHECK_STATUS(dh_dtype_from_path("x.v1.f32", &t), DRTOPK_OK);
    CHECK(t == DRTOPK_F32);
    for (int i = 0; i < DRTOPK_DTYPE_COUNT; ++i) {   /* every short name: .f16 .bf16 .u64 ... */
        char name[32];
        snprintf(name, sizeof name, "d/x.%s", drtopk_dtype_name((drtopk_dtype)i));
        CHECK_STATUS(dh_dtype_from_path(name, &t), DRTOPK_OK);
        CHECKF(t == (drtopk_dtype)i, "%s", name);
    }
    CHECK_STATUS(dh_dtype_from_path("x.float16", &t), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(dh_dtype_from_path("x.u16", &t), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(dh_dtype_from_path("x.bin", &t), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(dh_dtype_from_path("x.uint32", &t), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(dh_dtype_from_path("dir.u32/file", &t), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(dh_dtype_from_path("noext", &t), DRTOPK_ERR_INVALID_ARGUMENT);
}

void register_gen_tests(void)
{
    test_register("gen/deterministic_and_prefix_stable", deterministic_and_prefix_stable);
    test_register("gen/seeds_differ", seeds_differ);
    test_register("gen/ud_stats", ud_stats);
    test_register("gen/other_widths_stats", other_widths_stats);
    test_register("gen/special_every_type", special_every_type);
    test_register("gen/nd_stats", nd_stats);
    test_register("gen/cd_mostly_innermost", cd_mostly_innermost);
    test_register("gen/shapes", shapes);
    test_register("gen/special_has_extremes", special_has_extremes);
    test_register("gen/dist_names_parse", dist_names_parse);
    test_register("gen/raw_round_trip", raw_round_trip);
    test_register("gen/raw_read_errors", raw_read_errors);
    test_register("gen/dtype_from_path", dtype_from_path);
}
