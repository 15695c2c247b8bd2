/*
 * gen.c -- host side of the seeded data sets of paper section 6 (UD, ND, CD,
 * plus adversarial sets; the generator itself is gen_core.h, shared bit for
 * bit with the CUDA kernel) and raw little-endian vector files, the input and
 * output format of the CLI (.u32 .i32 .f32 .f16 .bf16 .u64 .i64 .f64 values,
 * uint64 indices).
 */
#include "gen.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define RAW_CHUNK_BYTES (1u << 16)   /* staging buffer for byte-order conversion */
#define RAW_MAX_ELEM 8               /* widest element: uint64 indices */

static const char *const dist_names[DRTOPK_DIST_COUNT] = {
    [DRTOPK_DIST_UD] = "UD", [DRTOPK_DIST_ND] = "ND", [DRTOPK_DIST_CD] = "CD",
    [DRTOPK_DIST_ASC] = "ASC", [DRTOPK_DIST_DESC] = "DESC", [DRTOPK_DIST_FEW] = "FEW",
    [DRTOPK_DIST_EQ] = "EQ", [DRTOPK_DIST_SPECIAL] = "SPECIAL",
};

const char *dh_dist_name(dh_dist d)
{
    return (unsigned)d < DRTOPK_DIST_COUNT ? dist_names[d] : "unknown";
}

drtopk_status dh_dist_parse(const char *s, dh_dist *out)
{
    if (s == NULL || out == NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    for (int d = 0; d < DRTOPK_DIST_COUNT; ++d) {
        if (strcasecmp(s, dist_names[d]) == 0) {
            *out = (dh_dist)d;
            return DRTOPK_OK;
        }
    }
    return DRTOPK_ERR_INVALID_ARGUMENT;
}

void dh_gen_host(void *out, uint64_t n, dh_dist d, drtopk_dtype t, uint64_t seed)
{
    dh_gen_host_at(out, 0, n, d, t, seed);
}

void dh_gen_host_at(void *out, uint64_t first, uint64_t n, dh_dist d, drtopk_dtype t, uint64_t seed)
{
    for (uint64_t i = 0; i < n; ++i) drtopk_bits_store(out, i, t, dh_gen_bits(seed, first + i, d, t));
}

static int host_is_little_endian(void)
{
    const uint16_t probe = 1;
    unsigned char b;
    memcpy(&b, &probe, 1);
    return b == 1;
}

/* Reverse each element's bytes in place (big-endian hosts only). */
static void swap_elems(unsigned char *buf, size_t elem_size, size_t count)
{
    for (size_t e = 0; e < count; ++e) {
        unsigned char *p = buf + e * elem_size;
        for (size_t a = 0, b = elem_size - 1; a < b; ++a, --b) {
            unsigned char c = p[a];
            p[a] = p[b];
            p[b] = c;
        }
    }
}

static int valid_elem_size(size_t s)
{
    return s == 1 || s == 2 || s == 4 || s == RAW_MAX_ELEM;
}

drtopk_status dh_write_raw(const char *path, const void *data, size_t elem_size, uint64_t n)
{
    const int little = host_is_little_endian();
    const unsigned char *src = (const unsigned char *)data;
    unsigned char buf[RAW_CHUNK_BYTES];
    const size_t per_chunk = RAW_CHUNK_BYTES / (elem_size ? elem_size : 1);
    FILE *f;
    if (path == NULL || (data == NULL && n > 0) || !valid_elem_size(elem_size))
        return DRTOPK_ERR_INVALID_ARGUMENT;
    if ((f = fopen(path, "wb")) == NULL) return DRTOPK_ERR_IO;
    for (uint64_t done = 0; done < n;) {
        size_t cnt = (n - done < per_chunk) ? (size_t)(n - done) : per_chunk;
        const unsigned char *from = src + done * elem_size;
        if (!little) {
            memcpy(buf, from, cnt * elem_size);
            swap_elems(buf, elem_size, cnt);
            from = buf;
        }
        if (fwrite(from, elem_size, cnt, f) != cnt) {
            fclose(f);
            return DRTOPK_ERR_IO;
        }
        done += cnt;
    }
    return fclose(f) == 0 ? DRTOPK_OK : DRTOPK_ERR_IO;
}

#define SET_ERR(...) do { if (err && err_len) snprintf(err, err_len, __VA_ARGS__); } while (0)

drtopk_status dh_read_raw(const char *path, size_t elem_size, void **data, uint64_t *n,
                          char *err, size_t err_len)
{
    struct stat sb;
    FILE *f;
    unsigned char *buf;
    uint64_t count;
    if (err && err_len) err[0] = '\0';
    if (path == NULL || data == NULL || n == NULL || !valid_elem_size(elem_size)) {
        SET_ERR("invalid arguments to dh_read_raw");
        return DRTOPK_ERR_INVALID_ARGUMENT;
    }
    *data = NULL;
    *n = 0;
    if (dh_check_regular_file(path, err, err_len) != 0) return DRTOPK_ERR_IO;   /* a FIFO would block fopen() */
    if ((f = fopen(path, "rb")) == NULL) {
        SET_ERR("cannot open '%s': %s", path, strerror(errno));
        return DRTOPK_ERR_IO;
    }
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        SET_ERR("'%s' is not a regular file", path);
        fclose(f);
        return DRTOPK_ERR_IO;
    }
    if (sb.st_size == 0) {
        SET_ERR("'%s' is empty: a raw vector needs at least one element", path);
        fclose(f);
        return DRTOPK_ERR_INVALID_ARGUMENT;
    }
    if ((uint64_t)sb.st_size % elem_size != 0) {
        SET_ERR("size of '%s' (%llu bytes) is not a multiple of the element size %zu",
                path, (unsigned long long)sb.st_size, elem_size);
        fclose(f);
        return DRTOPK_ERR_INVALID_ARGUMENT;
    }
    count = (uint64_t)sb.st_size / elem_size;
    if ((buf = (unsigned char *)malloc((size_t)sb.st_size)) == NULL) {
        SET_ERR("out of memory reading '%s' (%llu bytes)", path, (unsigned long long)sb.st_size);
        fclose(f);
        return DRTOPK_ERR_OUT_OF_MEMORY;
    }
    if (fread(buf, elem_size, (size_t)count, f) != (size_t)count) {
        SET_ERR("short read from '%s'", path);
        free(buf);
        fclose(f);
        return DRTOPK_ERR_IO;
    }
    fclose(f);
    if (!host_is_little_endian()) swap_elems(buf, elem_size, (size_t)count);
    *data = buf;
    *n = count;
    return DRTOPK_OK;
}

drtopk_status dh_dtype_from_path(const char *path, drtopk_dtype *out)
{
    const char *dot;
    if (path == NULL || out == NULL || (dot = strrchr(path, '.')) == NULL)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    if (strchr(dot, '/') != NULL) return DRTOPK_ERR_INVALID_ARGUMENT;
    /* only the short names (u32, f16, bf16, ...) are file extensions */
    for (int t = 0; t < DRTOPK_DTYPE_COUNT; ++t) {
        if (strcasecmp(dot + 1, drtopk_dtype_name((drtopk_dtype)t)) == 0) {
            *out = (drtopk_dtype)t;
            return DRTOPK_OK;
        }
    }
    return DRTOPK_ERR_INVALID_ARGUMENT;
}
