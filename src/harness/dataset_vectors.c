/*
 * dataset_vectors.c -- vector data sets and their k-NN distances, the
 * paper's ANN_SIFT1B input (section 6, Table 1, Figure 19): SIFT-style
 * .fvecs / .ivecs / .bvecs and IDX (as MNIST ships), each possibly
 * gzip-compressed, and the CPU distances whose bits the GPU's
 * (knn_device.cu) match.
 */
#include "dataset_internal.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DIM_MAX (1u << 20)            /* no real vector data set is wider; guards a
                                         corrupt header against a huge allocation  */
#define IDX_MAX_DIMS 8                /* IDX allows up to 255; images have 3        */
#define KNN_LANES 4                   /* base vectors per CPU inner loop: independent
                                         sums keep the adder busy (ILP)             */

static uint32_t le32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* ---- vectors --------------------------------------------------------------- */

typedef enum { VEC_F32, VEC_I32, VEC_U8, VEC_I8, VEC_I16, VEC_F64 } vec_elem;
static const char *const vec_elem_names[] = { "float32", "int32", "uint8", "int8", "int16", "float64" };
static const int vec_elem_bytes[] = { 4, 4, 1, 1, 2, 8 };

void dh_ds_vectors_free(dh_ds_vectors *v)
{
    free(v->data);
    memset(v, 0, sizeof *v);
}

static drtopk_status vectors_reserve(dh_ds_vectors *v, uint64_t more, char *err, size_t err_len)
{
    uint64_t want = v->count + more;
    if (want <= v->capacity) return DRTOPK_OK;
    uint64_t cap = v->capacity ? v->capacity : more;
    while (cap < want) cap *= 2;
    if (cap > SIZE_MAX / sizeof(float) / v->dim)
        return ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "%" PRIu64 " vectors of %u values exceed the address space",
                       cap, v->dim);
    float *p = (float *)realloc(v->data, (size_t)cap * v->dim * sizeof(float));
    if (p == NULL)
        return ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of host memory for %" PRIu64 " vectors of %u values",
                       cap, v->dim);
    v->data = p;
    v->capacity = cap;
    return DRTOPK_OK;
}

/* Convert `dim` raw elements at b to floats; a non-finite one fails. */
static drtopk_status convert_row(reader *r, uint64_t at, uint64_t vec, const unsigned char *b, vec_elem e, int big,
                                 uint32_t dim, float *out)
{
    const int w = vec_elem_bytes[e];
    for (uint32_t j = 0; j < dim; ++j, b += w) {
        const uint64_t u = ds_uint_bytes(b, w, big);
        double x;
        switch (e) {
        case VEC_U8: x = (double)u; break;
        case VEC_I8: x = (double)(int8_t)u; break;
        case VEC_I16: x = (double)(int16_t)u; break;
        case VEC_I32: x = (double)(int32_t)u; break;
        case VEC_F32: { uint32_t u32 = (uint32_t)u; float f; memcpy(&f, &u32, sizeof f); x = f; break; }
        default: memcpy(&x, &u, sizeof x); break;
        }
        if (!isfinite(x) || fabs(x) > FLT_MAX)
            return ds_rd_fail(r, at + (uint64_t)j * (uint64_t)w, "component %u of vector %" PRIu64 " is %g; expected a "
                              "finite %s value", j, vec, x, vec_elem_names[e]);
        out[j] = (float)x;
    }
    return DRTOPK_OK;
}

static drtopk_status set_dim(reader *r, uint64_t at, dh_ds_vectors *v, uint64_t vec, int64_t dim)
{
    if (dim <= 0 || dim > DIM_MAX)
        return ds_rd_fail(r, at, "vector %" PRIu64 " has dimension %" PRId64 "; expected 1..%u", vec, dim, DIM_MAX);
    if (v->dim != 0 && v->dim != dim)
        return ds_rd_fail(r, at, "vector %" PRIu64 " has dimension %" PRIu64 "; expected %u like the vectors before it",
                          vec, dim, v->dim);
    v->dim = (uint32_t)dim;
    return DRTOPK_OK;
}

/* .fvecs / .ivecs / .bvecs: per vector a little-endian int32 dimension d, then
 * d float32 / int32 / uint8 values */
static drtopk_status load_vecs(reader *r, vec_elem e, dh_ds_vectors *v)
{
    const int w = vec_elem_bytes[e];
    unsigned char *row = NULL;
    drtopk_status st = DRTOPK_OK;
    uint64_t added = 0;
    for (;;) {
        unsigned char hdr[4];
        const uint64_t at = r->off;
        size_t got = ds_rd_read(r, hdr, sizeof hdr);
        if (got == 0) {
            if (r->st != DRTOPK_OK) st = r->st;
            break;
        }
        if (got < sizeof hdr) {
            st = ds_rd_fail(r, at, "truncated: vector %" PRIu64 " starts with %zu of the 4 bytes of its dimension",
                            added, got);
            break;
        }
        const int32_t d = (int32_t)le32(hdr);
        if ((st = set_dim(r, at, v, added, d)) != DRTOPK_OK) break;
        if (row == NULL && (row = (unsigned char *)malloc((size_t)v->dim * (size_t)w)) == NULL) {
            st = ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, r->err, r->err_len, "out of host memory");
            break;
        }
        const size_t need = (size_t)v->dim * (size_t)w;
        if ((got = ds_rd_read(r, row, need)) < need) {
            st = ds_rd_fail(r, at + sizeof hdr, "truncated: vector %" PRIu64 " has %zu of its %zu bytes (%u %s values)",
                            added, got, need, v->dim, vec_elem_names[e]);
            break;
        }
        if ((st = vectors_reserve(v, 1, r->err, r->err_len)) != DRTOPK_OK) break;
        if ((st = convert_row(r, at + sizeof hdr, added, row, e, 0, v->dim, v->data + v->count * v->dim)) != DRTOPK_OK)
            break;
        ++v->count;
        ++added;
    }
    free(row);
    if (st == DRTOPK_OK && added == 0)
        st = ds_rd_fail(r, 0, "empty: expected vectors (a 4-byte dimension, then its values)");
    return st;
}

/* IDX (as MNIST ships): 0x00 0x00, type byte, number of dimensions, then each
 * dimension as a big-endian uint32; the data big-endian.  Vectors are the
 * first dimension; the rest (rows x columns of an image) make one vector. */
static drtopk_status load_idx(reader *r, dh_ds_vectors *v)
{
    unsigned char magic[4], b4[4];
    uint64_t dims[IDX_MAX_DIMS], dim = 1;
    vec_elem e;
    if (ds_rd_read(r, magic, sizeof magic) < sizeof magic || magic[0] != 0 || magic[1] != 0)
        return ds_rd_fail(r, 0, "expected the IDX magic 00 00 <type> <dimensions> (or name the file *.fvecs, *.bvecs, "
                          "*.ivecs)");
    switch (magic[2]) {
    case 0x08: e = VEC_U8; break;
    case 0x09: e = VEC_I8; break;
    case 0x0B: e = VEC_I16; break;
    case 0x0C: e = VEC_I32; break;
    case 0x0D: e = VEC_F32; break;
    case 0x0E: e = VEC_F64; break;
    default: return ds_rd_fail(r, 2, "IDX type byte 0x%02x; expected 08, 09, 0B, 0C, 0D or 0E", magic[2]);
    }
    if (magic[3] == 0 || magic[3] > IDX_MAX_DIMS)
        return ds_rd_fail(r, 3, "IDX with %u dimensions; expected 1..%d", magic[3], IDX_MAX_DIMS);
    for (int i = 0; i < magic[3]; ++i) {
        if (ds_rd_read(r, b4, sizeof b4) < sizeof b4)
            return ds_rd_fail(r, 4 + 4 * (uint64_t)i, "truncated IDX header: expected %u dimension sizes", magic[3]);
        dims[i] = ds_uint_bytes(b4, 4, 1);
        if (i > 0) dim *= dims[i];
        if (i > 0 && (dims[i] == 0 || dim > DIM_MAX))
            return ds_rd_fail(r, 4 + 4 * (uint64_t)i, "IDX vectors of %" PRIu64 " values; expected 1..%u", dim, DIM_MAX);
    }
    const uint64_t data_at = r->off;
    if (dims[0] == 0) return ds_rd_fail(r, 4, "empty: the IDX header holds 0 vectors");
    drtopk_status st = set_dim(r, 4, v, 0, (int64_t)dim);
    if (st != DRTOPK_OK) return st;
    const size_t row_bytes = (size_t)v->dim * (size_t)vec_elem_bytes[e];
    unsigned char *row = (unsigned char *)malloc(row_bytes);
    if (row == NULL) return ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, r->err, r->err_len, "out of host memory");
    for (uint64_t i = 0; i < dims[0] && st == DRTOPK_OK; ++i) {
        const uint64_t at = r->off;
        size_t got = ds_rd_read(r, row, row_bytes);
        if (got < row_bytes)
            st = ds_rd_fail(r, at + got, "truncated: the header promises %" PRIu64 " vectors of %u %s values (%" PRIu64
                            " data bytes from byte %" PRIu64 "); the data ends in vector %" PRIu64, dims[0], v->dim,
                            vec_elem_names[e], dims[0] * row_bytes, data_at, i);
        else if ((st = vectors_reserve(v, 1, r->err, r->err_len)) == DRTOPK_OK &&   /* grown by the data read */
                 (st = convert_row(r, at, i, row, e, 1, v->dim, v->data + v->count * v->dim)) == DRTOPK_OK)
            ++v->count;
    }
    free(row);
    if (st == DRTOPK_OK && ds_rd_read(r, b4, 1) > 0)
        st = ds_rd_fail(r, r->off - 1, "trailing data: expected the end of the file after %" PRIu64 " vectors", dims[0]);
    if (st == DRTOPK_OK && r->st != DRTOPK_OK) st = r->st;
    return st;
}

drtopk_status dh_ds_load_vectors(const char *path, dh_ds_vectors *v, char *err, size_t err_len)
{
    reader *r;
    drtopk_status st;
    if (path == NULL || v == NULL) return ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, err, err_len, "no vector file");
    if ((r = (reader *)malloc(sizeof *r)) == NULL) return ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of memory");
    if ((st = ds_rd_open(r, path, err, err_len)) == DRTOPK_OK) {
        if (ds_name_has_ext(path, ".fvecs")) st = load_vecs(r, VEC_F32, v);
        else if (ds_name_has_ext(path, ".ivecs")) st = load_vecs(r, VEC_I32, v);
        else if (ds_name_has_ext(path, ".bvecs")) st = load_vecs(r, VEC_U8, v);
        else st = load_idx(r, v);
    }
    ds_rd_close(r);
    free(r);
    return st;
}

static const char *const metric_names[DRTOPK_METRIC_COUNT] = { "l2", "sql2" };

const char *dh_ds_metric_name(dh_ds_metric m)
{
    return (unsigned)m < DRTOPK_METRIC_COUNT ? metric_names[m] : "?";
}

drtopk_status dh_ds_metric_parse(const char *s, dh_ds_metric *m)
{
    for (int i = 0; i < DRTOPK_METRIC_COUNT; ++i)
        if (s && strcmp(s, metric_names[i]) == 0) {
            *m = (dh_ds_metric)i;
            return DRTOPK_OK;
        }
    return DRTOPK_ERR_INVALID_ARGUMENT;
}

void dh_knn_host(const dh_ds_vectors *v, uint64_t nq, dh_ds_metric m, float *out,
                 dh_ds_progress progress, void *ctx)
{
    const uint64_t n = v->count;
    const uint32_t dim = v->dim;
    for (uint64_t q = 0; q < nq; ++q) {
        const float *a = v->data + q * dim;
        float *o = out + q * n;
        uint64_t j = 0;
        for (; j + KNN_LANES <= n; j += KNN_LANES) {
            double acc[KNN_LANES] = { 0 };
            for (uint32_t d = 0; d < dim; ++d)
                for (int l = 0; l < KNN_LANES; ++l) {
                    const double diff = (double)a[d] - (double)v->data[(j + l) * dim + d];
                    acc[l] = acc[l] + diff * diff;
                }
            for (int l = 0; l < KNN_LANES; ++l) o[j + l] = (float)(m == DRTOPK_METRIC_L2 ? sqrt(acc[l]) : acc[l]);
        }
        for (; j < n; ++j) {
            double acc = 0;
            for (uint32_t d = 0; d < dim; ++d) {
                const double diff = (double)a[d] - (double)v->data[j * dim + d];
                acc = acc + diff * diff;
            }
            o[j] = (float)(m == DRTOPK_METRIC_L2 ? sqrt(acc) : acc);
        }
        if (progress) progress(ctx, q + 1, nq);
    }
}

