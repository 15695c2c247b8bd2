/*
 * dataset.c -- real-world inputs for the paper's Table 1 / Figure 19 (section
 * 6: k-NN distances of ANN_SIFT1B, vertex degrees of ClueWeb09, scores of
 * TwitterCOVID-19, tiled as the paper tiled its Twitter data): readers of
 * vector files (fvecs/bvecs/ivecs, IDX), graphs (edge list, Matrix Market,
 * graph-tool .gt) and CSV/TSV columns, gzip through zlib; the CPU k-NN
 * distances; the tiling writer; and Table 1's per-dataset facts.
 * See dataset.h for the contracts.
 */
#include "dataset.h"
#include "keyorder.h"
#include "util.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define RD_BUF_BYTES (1u << 16)       /* decompressed bytes buffered per refill     */
#define DIM_MAX (1u << 20)            /* no real vector data set is wider; guards a
                                         corrupt header against a huge allocation  */
#define VERTEX_MAX 0xFFFFFFFEull      /* ids and counts must fit the uint32 output  */
#define VERTICES_PER_ENDPOINT 8       /* a graph with more vertices than 8 per edge
                                         endpoint is mostly ids no edge touches: a
                                         damaged id or size line, not data         */
#define DEG_FLOOR_VERTICES (1ull << 20) /* any graph may number up to 2^20 vertices
                                         (4 MiB of degrees) however few its edges  */
#define PENDING_FIRST 1024            /* endpoints held back before the first growth */
#define LINE_MAX_BYTES 4096           /* an edge-list or .mtx line longer is junk   */
#define SNIPPET_BYTES 40              /* how much of a bad token a message quotes   */
#define HEADER_LIST_BYTES 400         /* how much of a CSV header an error lists    */
#define WRITE_CHUNK_ELEMS (1u << 20)  /* elements encoded per fwrite                */
#define IDX_MAX_DIMS 8                /* IDX allows up to 255; images have 3        */
#define KNN_LANES 4                   /* base vectors per CPU inner loop: independent
                                         sums keep the adder busy (ILP)             */
#define RADIX_BITS 16                 /* two passes of a 32-bit key                 */

static const unsigned char GZ_MAGIC[2] = { 0x1f, 0x8b };                           /* RFC 1952 */
#define GZ_WINDOW_BITS (16 + MAX_WBITS)  /* inflate: a gzip wrapper, the largest window */
#define GZ_TRAILER_FIELD 4               /* bytes of each gzip trailer field          */
static const unsigned char GT_MAGIC[6] = { 0xe2, 0x9b, 0xbe, 0x20, 0x67, 0x74 };  /* "⛾ gt" */
#define GT_VERSION 1

/* ---- messages ------------------------------------------------------------ */

static drtopk_status fail(drtopk_status st, char *err, size_t err_len, const char *fmt, ...)
{
    if (err && err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_len, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* a token of at most SNIPPET_BYTES printable characters, for messages */
static void snippet(char *dst, const char *s, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 1 < SNIPPET_BYTES; ++i)
        dst[o++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    dst[o] = '\0';
}

/* ---- reader: a (possibly gzip-compressed) file, byte offsets, lines ------ */

typedef struct {
    FILE *f;
    const char *path;
    uint64_t off;                 /* bytes consumed of the (decompressed) stream */
    const char *where;            /* "" or " of the decompressed data"           */
    int gz;                       /* gzip: inflated through zs                   */
    z_stream zs;
    int member_end;               /* zs finished a gzip member                   */
    int in_eof;                   /* the file is read to its end                 */
    uint64_t in_read;             /* compressed bytes read from the file         */
    unsigned char in[RD_BUF_BYTES];
    unsigned char buf[RD_BUF_BYTES];
    size_t pos, len;
    drtopk_status st;             /* first failure of a refill                   */
    drtopk_status later;          /* a failure found behind data still buffered  */
    char *err;
    size_t err_len;
} reader;

static drtopk_status rd_open(reader *r, const char *path, char *err, size_t err_len)
{
    struct stat sb;
    unsigned char magic[sizeof GZ_MAGIC];
    memset(r, 0, sizeof *r);
    r->path = path;
    r->err = err;
    r->err_len = err_len;
    r->st = r->later = DRTOPK_OK;
    r->where = "";
    if (stat(path, &sb) != 0) return fail(DRTOPK_ERR_IO, err, err_len, "cannot open '%s': %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode)) return fail(DRTOPK_ERR_IO, err, err_len, "'%s' is not a regular file", path);
    if ((r->f = fopen(path, "rb")) == NULL)
        return fail(DRTOPK_ERR_IO, err, err_len, "cannot open '%s': %s", path, strerror(errno));
    r->gz = fread(magic, 1, sizeof magic, r->f) == sizeof magic && memcmp(magic, GZ_MAGIC, sizeof magic) == 0;
    if (fseek(r->f, 0, SEEK_SET) != 0)
        return fail(DRTOPK_ERR_IO, err, err_len, "cannot read '%s': %s", path, strerror(errno));
    if (r->gz) {
        if (inflateInit2(&r->zs, GZ_WINDOW_BITS) != Z_OK) {
            r->gz = 0;
            return fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of host memory for the gzip stream of %s", path);
        }
        r->where = " of the decompressed data";
    }
    return DRTOPK_OK;
}

static void rd_close(reader *r)
{
    if (r->gz) inflateEnd(&r->zs);
    if (r->f) fclose(r->f);
    r->f = NULL;
    r->gz = 0;
}

/* a refill's failure: now when nothing was delivered, else once the data
 * before it is consumed (so its decompressed offset is exact) */
static size_t rd_failed(reader *r, size_t got, drtopk_status st)
{
    if (got == 0) r->st = st;
    else r->later = st;
    r->len = got;
    r->pos = 0;
    return got;
}

/* Inflate into buf: as much as the next step gives.  Every error names the
 * compressed byte where the stream failed and the decompressed bytes before it. */
static size_t rd_inflate(reader *r)
{
    z_stream *z = &r->zs;
    for (;;) {
        if (z->avail_in == 0 && !r->in_eof) {
            const size_t n = fread(r->in, 1, sizeof r->in, r->f);
            if (n == 0 && ferror(r->f))
                return rd_failed(r, 0, fail(DRTOPK_ERR_IO, r->err, r->err_len, "cannot read '%s' at byte %" PRIu64
                                            ": %s", r->path, r->in_read, strerror(errno)));
            r->in_eof = n == 0;
            r->in_read += n;
            z->next_in = r->in;
            z->avail_in = (uInt)n;
        }
        const uint64_t at = r->in_read - z->avail_in;      /* compressed byte of next_in */
        if (r->member_end) {                               /* the end, or another member */
            if (z->avail_in == 0) return 0;
            if (z->next_in[0] != GZ_MAGIC[0])
                return rd_failed(r, 0, fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: compressed byte %"
                                            PRIu64 ": trailing data after the gzip stream (%" PRIu64 " bytes "
                                            "decompressed); expected the end of the file or another gzip member",
                                            r->path, at, r->off));
            inflateReset(z);
            r->member_end = 0;
        }
        z->next_out = r->buf;
        z->avail_out = RD_BUF_BYTES;
        const int zr = inflate(z, Z_NO_FLUSH);
        const size_t got = RD_BUF_BYTES - z->avail_out;
        const uint64_t now = r->in_read - z->avail_in;
        if (zr == Z_STREAM_END) r->member_end = 1;
        if (zr == Z_BUF_ERROR && z->avail_in == 0 && r->in_eof && !r->member_end)
            return rd_failed(r, got, fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: truncated: the gzip "
                                          "stream ends at compressed byte %" PRIu64 " (the end of the file) after %"
                                          PRIu64 " bytes of decompressed data, inside a member", r->path, now,
                                          r->off + got));
        if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
            /* a trailer field (CRC-32, then the length) fails after its 4 bytes are read */
            const int trailer = z->msg && (strstr(z->msg, "data check") || strstr(z->msg, "length check"));
            return rd_failed(r, got, fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: compressed byte %"
                                          PRIu64 ": the gzip stream is damaged (%s) after %" PRIu64 " bytes of "
                                          "decompressed data", r->path, trailer ? now - GZ_TRAILER_FIELD : now,
                                          z->msg ? z->msg : zError(zr), r->off + got));
        }
        if (got > 0) {
            r->pos = 0;
            r->len = got;
            return got;
        }
    }
}

/* refill; 0 at the end of the data or on a damaged stream (r->st says) */
static size_t rd_fill(reader *r)
{
    if (r->st != DRTOPK_OK) return 0;
    if (r->later != DRTOPK_OK) {
        r->st = r->later;
        return 0;
    }
    if (r->gz) return rd_inflate(r);
    const size_t got = fread(r->buf, 1, RD_BUF_BYTES, r->f);
    if (got == 0 && ferror(r->f))
        return rd_failed(r, 0, fail(DRTOPK_ERR_IO, r->err, r->err_len, "cannot read '%s' at byte %" PRIu64 ": %s",
                                    r->path, r->off, strerror(errno)));
    r->pos = 0;
    r->len = got;
    return got;
}

static int rd_getc(reader *r)
{
    if (r->pos == r->len && rd_fill(r) == 0) return EOF;
    ++r->off;
    return r->buf[r->pos++];
}

/* up to n bytes into dst; fewer only at the end of the data */
static size_t rd_read(reader *r, void *dst, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    size_t done = 0;
    while (done < n) {
        if (r->pos == r->len && rd_fill(r) == 0) break;
        size_t take = r->len - r->pos < n - done ? r->len - r->pos : n - done;
        memcpy(d + done, r->buf + r->pos, take);
        r->pos += take;
        r->off += take;             /* before the next refill: its messages give offsets */
        done += take;
    }
    return done;
}

/* Error at byte `at` of the reader's file. */
static drtopk_status rd_fail(reader *r, uint64_t at, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    if (r->st != DRTOPK_OK) return r->st;       /* the stream's own failure explains it */
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: byte %" PRIu64 "%s: %s", r->path, at,
                r->where, msg);
}

/* One text line (without '\n' or "\r\n") into buf, NUL-terminated.  Returns
 * 1 for a line, 0 at the end (or at a NUL byte: r->st says), -1 for a line of
 * LINE_MAX_BYTES or more. */
static int rd_line(reader *r, char *buf, size_t *len)
{
    int c;
    size_t n = 0;
    if ((c = rd_getc(r)) == EOF) return 0;
    while (c != EOF && c != '\n') {
        if (c == '\0') {                      /* text never holds one: a binary or damaged file */
            r->st = rd_fail(r, r->off - 1, "a NUL byte; expected a text line (a binary file?)");
            return 0;
        }
        if (n + 1 >= LINE_MAX_BYTES) return -1;
        buf[n++] = (char)c;
        c = rd_getc(r);
    }
    if (n > 0 && buf[n - 1] == '\r') --n;
    buf[n] = '\0';
    *len = n;
    return 1;
}

static uint32_t le32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* n-byte unsigned integer, little- or big-endian */
static uint64_t uint_bytes(const unsigned char *b, int n, int big)
{
    uint64_t x = 0;
    for (int i = 0; i < n; ++i) x |= (uint64_t)b[big ? n - 1 - i : i] << (8 * i);
    return x;
}

/* the file name without a trailing ".gz" ends in `ext` */
static int name_has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    if (n > 3 && strcmp(path + n - 3, ".gz") == 0) n -= 3;
    return n >= e && strncmp(path + n - e, ext, e) == 0;
}

/* ---- vectors --------------------------------------------------------------- */

typedef enum { VEC_F32, VEC_I32, VEC_U8, VEC_I8, VEC_I16, VEC_F64 } vec_elem;
static const char *const vec_elem_names[] = { "float32", "int32", "uint8", "int8", "int16", "float64" };
static const int vec_elem_bytes[] = { 4, 4, 1, 1, 2, 8 };

void drtopk_ds_vectors_free(drtopk_ds_vectors *v)
{
    free(v->data);
    memset(v, 0, sizeof *v);
}

static drtopk_status vectors_reserve(drtopk_ds_vectors *v, uint64_t more, char *err, size_t err_len)
{
    uint64_t want = v->count + more;
    if (want <= v->capacity) return DRTOPK_OK;
    uint64_t cap = v->capacity ? v->capacity : more;
    while (cap < want) cap *= 2;
    if (cap > SIZE_MAX / sizeof(float) / v->dim)
        return fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "%" PRIu64 " vectors of %u values exceed the address space",
                    cap, v->dim);
    float *p = (float *)realloc(v->data, (size_t)cap * v->dim * sizeof(float));
    if (p == NULL)
        return fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of host memory for %" PRIu64 " vectors of %u values",
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
        const uint64_t u = uint_bytes(b, w, big);
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
            return rd_fail(r, at + (uint64_t)j * (uint64_t)w, "component %u of vector %" PRIu64 " is %g; expected a "
                           "finite %s value", j, vec, x, vec_elem_names[e]);
        out[j] = (float)x;
    }
    return DRTOPK_OK;
}

static drtopk_status set_dim(reader *r, uint64_t at, drtopk_ds_vectors *v, uint64_t vec, int64_t dim)
{
    if (dim <= 0 || dim > DIM_MAX)
        return rd_fail(r, at, "vector %" PRIu64 " has dimension %" PRId64 "; expected 1..%u", vec, dim, DIM_MAX);
    if (v->dim != 0 && v->dim != dim)
        return rd_fail(r, at, "vector %" PRIu64 " has dimension %" PRIu64 "; expected %u like the vectors before it",
                       vec, dim, v->dim);
    v->dim = (uint32_t)dim;
    return DRTOPK_OK;
}

/* .fvecs / .ivecs / .bvecs: per vector a little-endian int32 dimension d, then
 * d float32 / int32 / uint8 values */
static drtopk_status load_vecs(reader *r, vec_elem e, drtopk_ds_vectors *v)
{
    const int w = vec_elem_bytes[e];
    unsigned char *row = NULL;
    drtopk_status st = DRTOPK_OK;
    uint64_t added = 0;
    for (;;) {
        unsigned char hdr[4];
        const uint64_t at = r->off;
        size_t got = rd_read(r, hdr, sizeof hdr);
        if (got == 0) {
            if (r->st != DRTOPK_OK) st = r->st;
            break;
        }
        if (got < sizeof hdr) {
            st = rd_fail(r, at, "truncated: vector %" PRIu64 " starts with %zu of the 4 bytes of its dimension",
                         added, got);
            break;
        }
        const int32_t d = (int32_t)le32(hdr);
        if ((st = set_dim(r, at, v, added, d)) != DRTOPK_OK) break;
        if (row == NULL && (row = (unsigned char *)malloc((size_t)v->dim * (size_t)w)) == NULL) {
            st = fail(DRTOPK_ERR_OUT_OF_MEMORY, r->err, r->err_len, "out of host memory");
            break;
        }
        const size_t need = (size_t)v->dim * (size_t)w;
        if ((got = rd_read(r, row, need)) < need) {
            st = rd_fail(r, at + sizeof hdr, "truncated: vector %" PRIu64 " has %zu of its %zu bytes (%u %s values)",
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
        st = rd_fail(r, 0, "empty: expected vectors (a 4-byte dimension, then its values)");
    return st;
}

/* IDX (as MNIST ships): 0x00 0x00, type byte, number of dimensions, then each
 * dimension as a big-endian uint32; the data big-endian.  Vectors are the
 * first dimension; the rest (rows x columns of an image) make one vector. */
static drtopk_status load_idx(reader *r, drtopk_ds_vectors *v)
{
    unsigned char magic[4], b4[4];
    uint64_t dims[IDX_MAX_DIMS], dim = 1;
    vec_elem e;
    if (rd_read(r, magic, sizeof magic) < sizeof magic || magic[0] != 0 || magic[1] != 0)
        return rd_fail(r, 0, "expected the IDX magic 00 00 <type> <dimensions> (or name the file *.fvecs, *.bvecs, "
                       "*.ivecs)");
    switch (magic[2]) {
    case 0x08: e = VEC_U8; break;
    case 0x09: e = VEC_I8; break;
    case 0x0B: e = VEC_I16; break;
    case 0x0C: e = VEC_I32; break;
    case 0x0D: e = VEC_F32; break;
    case 0x0E: e = VEC_F64; break;
    default: return rd_fail(r, 2, "IDX type byte 0x%02x; expected 08, 09, 0B, 0C, 0D or 0E", magic[2]);
    }
    if (magic[3] == 0 || magic[3] > IDX_MAX_DIMS)
        return rd_fail(r, 3, "IDX with %u dimensions; expected 1..%d", magic[3], IDX_MAX_DIMS);
    for (int i = 0; i < magic[3]; ++i) {
        if (rd_read(r, b4, sizeof b4) < sizeof b4)
            return rd_fail(r, 4 + 4 * (uint64_t)i, "truncated IDX header: expected %u dimension sizes", magic[3]);
        dims[i] = uint_bytes(b4, 4, 1);
        if (i > 0) dim *= dims[i];
        if (i > 0 && (dims[i] == 0 || dim > DIM_MAX))
            return rd_fail(r, 4 + 4 * (uint64_t)i, "IDX vectors of %" PRIu64 " values; expected 1..%u", dim, DIM_MAX);
    }
    const uint64_t data_at = r->off;
    if (dims[0] == 0) return rd_fail(r, 4, "empty: the IDX header holds 0 vectors");
    drtopk_status st = set_dim(r, 4, v, 0, (int64_t)dim);
    if (st != DRTOPK_OK) return st;
    const size_t row_bytes = (size_t)v->dim * (size_t)vec_elem_bytes[e];
    unsigned char *row = (unsigned char *)malloc(row_bytes);
    if (row == NULL) return fail(DRTOPK_ERR_OUT_OF_MEMORY, r->err, r->err_len, "out of host memory");
    for (uint64_t i = 0; i < dims[0] && st == DRTOPK_OK; ++i) {
        const uint64_t at = r->off;
        size_t got = rd_read(r, row, row_bytes);
        if (got < row_bytes)
            st = rd_fail(r, at + got, "truncated: the header promises %" PRIu64 " vectors of %u %s values (%" PRIu64
                         " data bytes from byte %" PRIu64 "); the data ends in vector %" PRIu64, dims[0], v->dim,
                         vec_elem_names[e], dims[0] * row_bytes, data_at, i);
        else if ((st = vectors_reserve(v, 1, r->err, r->err_len)) == DRTOPK_OK &&   /* grown by the data read */
                 (st = convert_row(r, at, i, row, e, 1, v->dim, v->data + v->count * v->dim)) == DRTOPK_OK)
            ++v->count;
    }
    free(row);
    if (st == DRTOPK_OK && rd_read(r, b4, 1) > 0)
        st = rd_fail(r, r->off - 1, "trailing data: expected the end of the file after %" PRIu64 " vectors", dims[0]);
    if (st == DRTOPK_OK && r->st != DRTOPK_OK) st = r->st;
    return st;
}

drtopk_status drtopk_ds_load_vectors(const char *path, drtopk_ds_vectors *v, char *err, size_t err_len)
{
    reader *r;
    drtopk_status st;
    if (path == NULL || v == NULL) return fail(DRTOPK_ERR_INVALID_ARGUMENT, err, err_len, "no vector file");
    if ((r = (reader *)malloc(sizeof *r)) == NULL) return fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of memory");
    if ((st = rd_open(r, path, err, err_len)) == DRTOPK_OK) {
        if (name_has_ext(path, ".fvecs")) st = load_vecs(r, VEC_F32, v);
        else if (name_has_ext(path, ".ivecs")) st = load_vecs(r, VEC_I32, v);
        else if (name_has_ext(path, ".bvecs")) st = load_vecs(r, VEC_U8, v);
        else st = load_idx(r, v);
    }
    rd_close(r);
    free(r);
    return st;
}

static const char *const metric_names[DRTOPK_METRIC_COUNT] = { "l2", "sql2" };

const char *drtopk_ds_metric_name(drtopk_ds_metric m)
{
    return (unsigned)m < DRTOPK_METRIC_COUNT ? metric_names[m] : "?";
}

drtopk_status drtopk_ds_metric_parse(const char *s, drtopk_ds_metric *m)
{
    for (int i = 0; i < DRTOPK_METRIC_COUNT; ++i)
        if (s && strcmp(s, metric_names[i]) == 0) {
            *m = (drtopk_ds_metric)i;
            return DRTOPK_OK;
        }
    return DRTOPK_ERR_INVALID_ARGUMENT;
}

void drtopk_knn_host(const drtopk_ds_vectors *v, uint64_t nq, drtopk_ds_metric m, float *out,
                     drtopk_ds_progress progress, void *ctx)
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

/* ---- graphs ------------------------------------------------------------------ */

typedef struct {
    uint32_t *deg;                /* degrees of vertices 0..cap-1 */
    uint64_t cap;                 /* entries allocated: never beyond deg_backed() */
    uint64_t n;                   /* vertices: largest id seen + 1 (or the header's count) */
    uint64_t n_at, n_line;        /* byte (and line, 0: none) that set n, for errors */
    uint64_t endpoints;           /* edge endpoints read */
    uint64_t records;             /* vertices with a record of their own in the file (.gt) */
    uint64_t *pend;               /* ids counted above what the data backed so far */
    uint64_t npend, pcap;
    drtopk_ds_direction dir;
} degrees;

/* How many vertices the data read so far backs: a record each, or a few per
 * edge endpoint (isolated ids between them), and any graph up to a floor. */
static uint64_t deg_backed(const degrees *g)
{
    uint64_t b = g->endpoints * VERTICES_PER_ENDPOINT;
    if (b < g->records) b = g->records;
    return b < DEG_FLOOR_VERTICES ? DEG_FLOOR_VERTICES : b;
}

/* room for vertices 0..want-1 (zeroed); -1 out of memory */
static int deg_grow(degrees *g, uint64_t want)
{
    if (want <= g->cap) return 0;
    uint64_t cap = g->cap ? g->cap : want;
    while (cap < want) cap *= 2;
    if (cap > deg_backed(g) && want <= deg_backed(g)) cap = deg_backed(g);
    uint32_t *p = (uint32_t *)realloc(g->deg, (size_t)cap * sizeof *p);
    if (p == NULL) return -1;
    memset(p + g->cap, 0, (size_t)(cap - g->cap) * sizeof *p);
    g->deg = p;
    g->cap = cap;
    return 0;
}

/* one endpoint at x; -1 when its degree passes 2^32 - 1, -2 out of memory */
static int deg_bump(degrees *g, uint64_t x)
{
    if (x >= g->cap && x < deg_backed(g) && deg_grow(g, x + 1) != 0) return -2;
    if (x < g->cap) {
        if (g->deg[x] == UINT32_MAX) return -1;
        ++g->deg[x];
        return 0;
    }
    if (g->npend == g->pcap) {                 /* fold what is backed by now, then make room */
        uint64_t keep = 0;
        for (uint64_t i = 0; i < g->npend; ++i) {
            const uint64_t y = g->pend[i];
            if (y < deg_backed(g) && (y < g->cap || deg_grow(g, y + 1) == 0)) {
                if (g->deg[y] == UINT32_MAX) return -1;
                ++g->deg[y];
            } else {
                g->pend[keep++] = y;
            }
        }
        g->npend = keep;
    }
    if (g->npend == g->pcap) {
        const uint64_t cap = g->pcap ? 2 * g->pcap : PENDING_FIRST;
        uint64_t *p = (uint64_t *)realloc(g->pend, (size_t)cap * sizeof *p);
        if (p == NULL) return -2;
        g->pend = p;
        g->pcap = cap;
    }
    g->pend[g->npend++] = x;
    return 0;
}

/* the edge u -> v at byte `at` (line `line`, 0: none): -1 on a degree
 * overflow, -2 out of memory */
static int deg_edge(degrees *g, uint64_t u, uint64_t v, uint64_t at, uint64_t line)
{
    const uint64_t top = (u > v ? u : v) + 1;
    int rc = 0;
    if (top > g->n) {
        g->n = top;
        g->n_at = at;
        g->n_line = line;
    }
    g->endpoints += 2;
    if (g->dir != DRTOPK_DEG_IN) rc = deg_bump(g, u);
    if (rc == 0 && g->dir != DRTOPK_DEG_OUT) rc = deg_bump(g, v);
    return rc;
}

/* All vertices 0..n-1 once the data is read: refuses a vertex count the data
 * does not back, then counts the endpoints held back. */
static drtopk_status deg_finish(reader *r, degrees *g)
{
    char where[64] = "";
    if (g->n_line) snprintf(where, sizeof where, " (line %" PRIu64 ")", g->n_line);
    if (g->n > deg_backed(g))
        return fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: byte %" PRIu64 "%s%s: inconsistent: %"
                    PRIu64 " vertices (ids 0..%" PRIu64 ") for the %" PRIu64 " edges the file holds; at most %d "
                    "vertices per edge endpoint (or %llu in all) are data, more is a damaged id or size",
                    r->path, g->n_at, r->where, where, g->n, g->n - 1, g->endpoints / 2, VERTICES_PER_ENDPOINT,
                    DEG_FLOOR_VERTICES);
    if (drtopk_host_mem_check(g->n * sizeof *g->deg, "the vertex degrees", r->err, r->err_len) != 0)
        return DRTOPK_ERR_OUT_OF_MEMORY;
    if (deg_grow(g, g->n) != 0)
        return fail(DRTOPK_ERR_OUT_OF_MEMORY, r->err, r->err_len, "out of host memory for %" PRIu64 " vertices", g->n);
    for (uint64_t i = 0; i < g->npend; ++i) {
        if (g->deg[g->pend[i]] == UINT32_MAX)
            return fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: the degree of vertex %" PRIu64
                        " passes 2^32 - 1", r->path, g->pend[i]);
        ++g->deg[g->pend[i]];
    }
    g->npend = 0;
    return DRTOPK_OK;
}

/* a failed deg_edge as a message at byte `at` */
static drtopk_status edge_fail(reader *r, uint64_t at, int rc)
{
    if (rc == -2) return fail(DRTOPK_ERR_OUT_OF_MEMORY, r->err, r->err_len, "out of host memory reading %s", r->path);
    return rd_fail(r, at, "a vertex degree passes 2^32 - 1");
}

static drtopk_status undirected_check(const char *path, const degrees *g, char *err, size_t err_len)
{
    if (g->dir == DRTOPK_DEG_BOTH) return DRTOPK_OK;
    return fail(DRTOPK_ERR_INVALID_ARGUMENT, err, err_len, "%s: the graph is undirected; --direction %s needs a "
                "directed one (leave it out for the degree)", path, g->dir == DRTOPK_DEG_OUT ? "out" : "in");
}

/* next unsigned decimal integer of s at *p (after blanks or one comma); 0 on none */
static int parse_uint_field(const char *s, size_t *p, uint64_t *out)
{
    size_t i = *p;
    uint64_t x = 0;
    while (s[i] == ' ' || s[i] == '\t') ++i;
    if (i > 0 && s[i] == ',' && *p > 0) ++i;
    while (s[i] == ' ' || s[i] == '\t') ++i;
    if (s[i] < '0' || s[i] > '9') return 0;
    for (; s[i] >= '0' && s[i] <= '9'; ++i) {
        if (x > (UINT64_MAX - 9) / 10) return 0;
        x = x * 10 + (uint64_t)(s[i] - '0');
    }
    if (s[i] != '\0' && s[i] != ' ' && s[i] != '\t' && s[i] != ',') return 0;
    *p = i;
    *out = x;
    return 1;
}

static drtopk_status line_fail(reader *r, uint64_t line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    if (r->st != DRTOPK_OK) return r->st;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: line %" PRIu64 ": %s", r->path, line, msg);
}

/* Edge list: "u v [anything]" per line, ids 0-based; '#' and '%' comments. */
static drtopk_status load_edge_list(reader *r, degrees *g)
{
    char line[LINE_MAX_BYTES], snip[SNIPPET_BYTES];
    uint64_t lineno = 0, edges = 0, line_at = 0;
    size_t len;
    int got;
    while ((got = rd_line(r, line, &len)) != 0) {
        size_t p = 0;
        uint64_t u, v;
        const uint64_t at = line_at;
        line_at = r->off;
        ++lineno;
        if (got < 0) return line_fail(r, lineno, "longer than %d bytes; expected 'u v' (two vertex ids)", LINE_MAX_BYTES);
        while (line[p] == ' ' || line[p] == '\t') ++p;
        if (line[p] == '\0' || line[p] == '#' || line[p] == '%') continue;
        if (!parse_uint_field(line, &p, &u) || !parse_uint_field(line, &p, &v)) {
            snippet(snip, line, len);
            return line_fail(r, lineno, "'%s': expected two non-negative integer vertex ids 'u v'", snip);
        }
        if (u > VERTEX_MAX || v > VERTEX_MAX)
            return line_fail(r, lineno, "vertex id %" PRIu64 " is above %llu", u > v ? u : v, VERTEX_MAX);
        const int rc = deg_edge(g, u, v, at, lineno);
        if (rc != 0) return edge_fail(r, at, rc);
        ++edges;
    }
    if (r->st != DRTOPK_OK) return r->st;
    if (edges == 0) return fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: no edges (%" PRIu64 " lines of "
                                "comments or blanks); expected lines 'u v'", r->path, lineno);
    return deg_finish(r, g);
}

/* Matrix Market coordinate matrix: banner, '%' comments, "M N NNZ", NNZ
 * lines "i j [value]" (1-based).  general: edge i -> j; symmetric,
 * skew-symmetric, hermitian: undirected.  Vertices 0..max(M, N)-1. */
static drtopk_status load_mtx(reader *r, degrees *g)
{
    char line[LINE_MAX_BYTES], obj[32], fmt[32], field[32], sym[32], snip[SNIPPET_BYTES];
    uint64_t lineno = 1, m, n, nnz, seen = 0;
    size_t len, p = 0;
    int got = rd_line(r, line, &len);
    if (got == 0 && r->st != DRTOPK_OK) return r->st;
    if (got == 0) return fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s is empty: expected a Matrix Market "
                              "banner '%%%%MatrixMarket matrix coordinate ...'", r->path);
    if (got < 0 || strncasecmp(line, "%%MatrixMarket", 14) != 0 ||
        sscanf(line + 14, "%31s %31s %31s %31s", obj, fmt, field, sym) != 4 || strcasecmp(obj, "matrix") != 0)
        return line_fail(r, 1, "expected the banner '%%%%MatrixMarket matrix coordinate <field> <symmetry>'");
    if (strcasecmp(fmt, "coordinate") != 0)
        return line_fail(r, 1, "format '%s': expected 'coordinate' (a dense array is not a graph)", fmt);
    if (strcasecmp(field, "real") && strcasecmp(field, "integer") && strcasecmp(field, "pattern") &&
        strcasecmp(field, "complex") && strcasecmp(field, "double"))
        return line_fail(r, 1, "field '%s': expected real, integer, complex or pattern", field);
    const int general = strcasecmp(sym, "general") == 0;
    if (!general && strcasecmp(sym, "symmetric") && strcasecmp(sym, "skew-symmetric") && strcasecmp(sym, "hermitian"))
        return line_fail(r, 1, "symmetry '%s': expected general, symmetric, skew-symmetric or hermitian", sym);
    if (!general) {
        drtopk_status st = undirected_check(r->path, g, r->err, r->err_len);
        if (st != DRTOPK_OK) return st;
    }
    uint64_t size_at;
    do {                                       /* comments up to the size line */
        size_at = r->off;
        got = rd_line(r, line, &len);
        ++lineno;
        p = 0;
        while (got > 0 && (line[p] == ' ' || line[p] == '\t')) ++p;
    } while (got > 0 && (line[p] == '%' || line[p] == '\0'));
    if (got == 0) return line_fail(r, lineno, "truncated: expected the size line 'rows columns entries'");
    if (got < 0 || !parse_uint_field(line, &p, &m) || !parse_uint_field(line, &p, &n) ||
        !parse_uint_field(line, &p, &nnz) || line[p + strspn(line + p, " \t")] != '\0') {
        snippet(snip, line, got < 0 ? SNIPPET_BYTES : len);
        return line_fail(r, lineno, "'%s': expected the size line 'rows columns entries'", snip);
    }
    const uint64_t nv = m > n ? m : n;
    if (nv == 0 || nv > VERTEX_MAX + 1)
        return line_fail(r, lineno, "%" PRIu64 " x %" PRIu64 " matrix: expected 1..%llu rows and columns", m, n,
                         VERTEX_MAX + 1);
    g->n = nv;
    g->n_at = size_at;
    g->n_line = lineno;
    for (uint64_t at = r->off; (got = rd_line(r, line, &len)) != 0; at = r->off) {
        uint64_t i, j;
        ++lineno;
        p = 0;
        if (got < 0) return line_fail(r, lineno, "longer than %d bytes; expected an entry 'i j [value]'", LINE_MAX_BYTES);
        while (line[p] == ' ' || line[p] == '\t') ++p;
        if (line[p] == '\0' || line[p] == '%') continue;
        if (!parse_uint_field(line, &p, &i) || !parse_uint_field(line, &p, &j)) {
            snippet(snip, line, len);
            return line_fail(r, lineno, "'%s': expected an entry 'i j [value]' with 1-based indices", snip);
        }
        if (i < 1 || i > m || j < 1 || j > n)
            return line_fail(r, lineno, "entry (%" PRIu64 ", %" PRIu64 ") outside the %" PRIu64 " x %" PRIu64
                             " matrix of the size line", i, j, m, n);
        if (++seen > nnz)
            return line_fail(r, lineno, "more entries than the %" PRIu64 " of the size line", nnz);
        const int rc = deg_edge(g, i - 1, j - 1, at, lineno);
        if (rc != 0) return edge_fail(r, at, rc);
    }
    if (r->st != DRTOPK_OK) return r->st;
    if (seen < nnz)
        return line_fail(r, lineno, "truncated: %" PRIu64 " entries; the size line promises %" PRIu64, seen, nnz);
    if (nnz == 0) return line_fail(r, lineno, "no entries: a graph without edges has no degrees to rank");
    return deg_finish(r, g);
}

/* graph-tool's binary format (graph-tool's documentation, "The gt file
 * format"): magic, version, endianness, comment string (uint64 length +
 * bytes), directed flag, vertex count N (uint64), then per vertex its
 * out-neighbour count (uint64) and the neighbours, each 1, 2, 4 or 8 bytes
 * as N fits; property maps follow (only their count is read: with none, the
 * file must end there).  An undirected graph stores each edge once. */
static drtopk_status load_gt(reader *r, degrees *g)
{
    unsigned char h[8], b8[8];
    if (rd_read(r, h, 8) < 8 || memcmp(h, GT_MAGIC, sizeof GT_MAGIC) != 0)
        return rd_fail(r, 0, "expected graph-tool's magic e2 9b be 20 67 74 ('\xe2\x9b\xbe gt')");
    if (h[6] != GT_VERSION) return rd_fail(r, 6, "graph-tool format version %u; expected %d", h[6], GT_VERSION);
    if (h[7] > 1) return rd_fail(r, 7, "endianness byte %u; expected 0 (little) or 1 (big)", h[7]);
    const int big = h[7];
    if (rd_read(r, b8, 8) < 8) return rd_fail(r, 8, "truncated: expected the comment's 8-byte length");
    uint64_t skip = uint_bytes(b8, 8, big);
    for (unsigned char junk[256]; skip > 0;) {
        const size_t want = skip < sizeof junk ? (size_t)skip : sizeof junk;
        if (rd_read(r, junk, want) < want)
            return rd_fail(r, r->off, "truncated in the comment string (%" PRIu64 " bytes promised at byte 8)",
                           uint_bytes(b8, 8, big));
        skip -= want;
    }
    const uint64_t at_dir = r->off;
    if (rd_read(r, h, 1) < 1 || h[0] > 1) return rd_fail(r, at_dir, "expected the directed flag (0 or 1)");
    const int directed = h[0];
    if (!directed) {
        drtopk_status st = undirected_check(r->path, g, r->err, r->err_len);
        if (st != DRTOPK_OK) return st;
    }
    if (rd_read(r, b8, 8) < 8) return rd_fail(r, at_dir + 1, "truncated: expected the 8-byte vertex count");
    const uint64_t nv = uint_bytes(b8, 8, big);
    if (nv == 0 || nv > VERTEX_MAX + 1)
        return rd_fail(r, at_dir + 1, "%" PRIu64 " vertices; expected 1..%llu", nv, VERTEX_MAX + 1);
    /* the narrowest id that holds N itself (graph-tool 2.45 writes 256 vertices with 2-byte ids) */
    const int w = nv <= UINT8_MAX ? 1 : nv <= UINT16_MAX ? 2 : nv <= UINT32_MAX ? 4 : 8;
    g->n = nv;
    g->n_at = at_dir + 1;
    for (uint64_t v = 0; v < nv; ++v) {
        const uint64_t at = r->off;
        if (rd_read(r, b8, 8) < 8)
            return rd_fail(r, at, "truncated: expected the out-neighbour count of vertex %" PRIu64 " of %" PRIu64, v, nv);
        g->records = v + 1;
        const uint64_t k = uint_bytes(b8, 8, big);
        for (uint64_t i = 0; i < k; ++i) {
            const uint64_t at_u = r->off;
            if (rd_read(r, b8, (size_t)w) < (size_t)w)
                return rd_fail(r, at_u, "truncated: vertex %" PRIu64 " has %" PRIu64 " out-neighbours; the data ends "
                               "at neighbour %" PRIu64, v, k, i);
            const uint64_t u = uint_bytes(b8, w, big);
            if (u >= nv)
                return rd_fail(r, at_u, "neighbour %" PRIu64 " of vertex %" PRIu64 " is %" PRIu64 "; expected an id "
                               "below the %" PRIu64 " vertices", i, v, u, nv);
            const int rc = deg_edge(g, v, u, at_u, 0);
            if (rc != 0) return edge_fail(r, at_u, rc);
        }
    }
    const uint64_t at_props = r->off;
    if (rd_read(r, b8, 8) < 8)
        return rd_fail(r, at_props, "truncated: expected the 8-byte property-map count after the adjacency lists");
    if (uint_bytes(b8, 8, big) == 0 && rd_read(r, h, 1) > 0)
        return rd_fail(r, at_props + 8, "trailing data: no property maps, so the file should end here (neighbour ids "
                       "of the wrong width?)");
    return r->st != DRTOPK_OK ? r->st : deg_finish(r, g);
}

drtopk_status drtopk_ds_load_degrees(const char *path, drtopk_ds_direction dir, uint32_t **deg, uint64_t *n,
                                     char *err, size_t err_len)
{
    reader *r;
    degrees g;
    drtopk_status st;
    if (path == NULL || deg == NULL || n == NULL) return fail(DRTOPK_ERR_INVALID_ARGUMENT, err, err_len, "no graph file");
    memset(&g, 0, sizeof g);
    g.dir = dir;
    *deg = NULL;
    *n = 0;
    if ((r = (reader *)malloc(sizeof *r)) == NULL) return fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of memory");
    if ((st = rd_open(r, path, err, err_len)) == DRTOPK_OK) {
        if (name_has_ext(path, ".gt")) st = load_gt(r, &g);
        else if (name_has_ext(path, ".mtx")) st = load_mtx(r, &g);
        else st = load_edge_list(r, &g);
    }
    rd_close(r);
    free(r);
    free(g.pend);
    if (st != DRTOPK_OK) {
        free(g.deg);
        return st;
    }
    *deg = g.deg;
    *n = g.n;
    return DRTOPK_OK;
}

/* ---- CSV / TSV ------------------------------------------------------------------ */

typedef struct {
    char *text;                   /* the record's fields, each NUL-terminated */
    size_t len, cap;
    size_t *start;                /* offset of each field in text */
    size_t nf, fcap;
    uint64_t line, off;           /* where the record starts */
} record;

static int rec_put(record *rc, char c)
{
    if (rc->len == rc->cap) {
        size_t cap = rc->cap ? 2 * rc->cap : 256;
        char *p = (char *)realloc(rc->text, cap);
        if (p == NULL) return -1;
        rc->text = p;
        rc->cap = cap;
    }
    rc->text[rc->len++] = c;
    return 0;
}

static int rec_field(record *rc)
{
    if (rc->nf == rc->fcap) {
        size_t cap = rc->fcap ? 2 * rc->fcap : 16;
        size_t *p = (size_t *)realloc(rc->start, cap * sizeof *p);
        if (p == NULL) return -1;
        rc->start = p;
        rc->fcap = cap;
    }
    rc->start[rc->nf++] = rc->len;
    return 0;
}

/* One record (RFC 4180: fields quoted with '"', "" for a quote, newlines
 * inside quotes).  Returns 1, 0 at the end, or a status < 0 (as -status). */
static int csv_record(reader *r, char delim, record *rc, uint64_t *line, drtopk_status *st)
{
    int c = rd_getc(r);
    rc->len = rc->nf = 0;
    rc->line = *line;
    rc->off = r->off - 1;
    if (c == EOF) {
        *st = r->st;
        return r->st == DRTOPK_OK ? 0 : -1;
    }
    if (rec_field(rc) != 0) goto oom;
    for (;;) {
        if (c == '"') {                        /* quoted field */
            const uint64_t open_line = *line, open_off = r->off - 1;
            for (;;) {
                c = rd_getc(r);
                if (c == EOF) {
                    *st = r->st != DRTOPK_OK ? r->st
                          : line_fail(r, open_line, "unterminated quoted field (its quote at byte %" PRIu64 " is never "
                                      "closed)", open_off);
                    return -1;
                }
                if (c == '"') {
                    c = rd_getc(r);
                    if (c != '"') break;
                }
                if (c == '\n') ++*line;
                if (c == '\0') goto nul;
                if (rec_put(rc, (char)c) != 0) goto oom;
            }
            if (c == '\r') c = rd_getc(r);
            if (c != delim && c != '\n' && c != EOF) {
                *st = line_fail(r, *line, "byte %" PRIu64 ": '%c' after the closing quote of field %zu; expected the "
                                "delimiter or the end of the line", r->off - 1, c, rc->nf);
                return -1;
            }
        } else {
            while (c != delim && c != '\n' && c != EOF) {
                if (c == '\0') goto nul;
                if (rec_put(rc, (char)c) != 0) goto oom;
                c = rd_getc(r);
            }
            if (rc->len > rc->start[rc->nf - 1] && rc->text[rc->len - 1] == '\r' && c != delim) --rc->len;
        }
        if (rec_put(rc, '\0') != 0) goto oom;
        if (c == delim) {
            if (rec_field(rc) != 0) goto oom;
            c = rd_getc(r);
            continue;
        }
        if (c == '\n') ++*line;
        if (c == EOF && r->st != DRTOPK_OK) {
            *st = r->st;
            return -1;
        }
        return 1;
    }
nul:                                       /* text never holds one: a binary or damaged file */
    *st = line_fail(r, *line, "byte %" PRIu64 ": a NUL byte in field %zu; expected text (a binary file?)", r->off - 1,
                    rc->nf);
    return -1;
oom:
    *st = fail(DRTOPK_ERR_OUT_OF_MEMORY, r->err, r->err_len, "out of host memory reading %s", r->path);
    return -1;
}

static int record_blank(const record *rc)
{
    return rc->nf == 1 && rc->text[0] == '\0';
}

/* a finite float32 value filling the whole field (blanks around allowed) */
static int parse_score(const char *s, float *out)
{
    char *end;
    while (*s == ' ' || *s == '\t') ++s;
    if (*s == '\0') return 0;
    errno = 0;
    const double x = strtod(s, &end);
    while (*end == ' ' || *end == '\t') ++end;
    if (*end != '\0' || errno == ERANGE || !isfinite(x) || fabs(x) > FLT_MAX) return 0;
    *out = (float)x;
    return 1;
}

static drtopk_status load_csv(reader *r, const char *column, float **vals, uint64_t *n)
{
    const char delim = (name_has_ext(r->path, ".tsv") || name_has_ext(r->path, ".tab")) ? '\t' : ',';
    record rc;
    uint64_t line = 1, rows = 0, cap = 0;
    drtopk_status st = DRTOPK_OK;
    size_t col = SIZE_MAX, nf;
    float *v = NULL;
    char snip[SNIPPET_BYTES];
    memset(&rc, 0, sizeof rc);
    int got = csv_record(r, delim, &rc, &line, &st);
    if (got == 0) st = fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s is empty: expected a header row "
                            "naming the columns", r->path);
    if (got <= 0) goto done;
    if (strncmp(rc.text, "\xEF\xBB\xBF", 3) == 0) {     /* a UTF-8 byte-order mark */
        memmove(rc.text, rc.text + 3, rc.len - 3);
        for (size_t i = 1; i < rc.nf; ++i) rc.start[i] -= 3;
    }
    nf = rc.nf;
    for (size_t i = 0; i < nf && col == SIZE_MAX; ++i)
        if (strcmp(rc.text + rc.start[i], column) == 0) col = i;
    if (col == SIZE_MAX) {
        char list[HEADER_LIST_BYTES];
        size_t o = 0;
        list[0] = '\0';
        for (size_t i = 0; i < nf && o + 1 < sizeof list; ++i)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s'%s'", i ? ", " : "", rc.text + rc.start[i]);
        st = line_fail(r, 1, "no column '%s'; the header has %s (the delimiter is %s)", column, list,
                       delim == '\t' ? "a tab, from the name *.tsv" : "',': name a tab-separated file *.tsv");
        goto done;
    }
    while ((got = csv_record(r, delim, &rc, &line, &st)) == 1) {
        if (record_blank(&rc) && nf > 1) continue;
        if (rc.nf != nf) {
            st = line_fail(r, rc.line, "%zu fields; expected %zu as in the header (a quote left open or a stray "
                           "delimiter?)", rc.nf, nf);
            goto done;
        }
        if (rows == cap) {
            cap = cap ? 2 * cap : 1024;
            float *p = (float *)realloc(v, (size_t)cap * sizeof *p);
            if (p == NULL) {
                st = fail(DRTOPK_ERR_OUT_OF_MEMORY, r->err, r->err_len, "out of host memory");
                goto done;
            }
            v = p;
        }
        const char *field = rc.text + rc.start[col];
        if (!parse_score(field, &v[rows])) {
            snippet(snip, field, strlen(field));
            st = line_fail(r, rc.line, "column '%s' holds '%s'; expected a finite number", column, snip);
            goto done;
        }
        ++rows;
    }
    if (got < 0) goto done;
    if (rows == 0) st = line_fail(r, line, "no data rows after the header; expected one row per score");
done:
    free(rc.text);
    free(rc.start);
    if (st != DRTOPK_OK) {
        free(v);
        return st;
    }
    *vals = v;
    *n = rows;
    return DRTOPK_OK;
}

drtopk_status drtopk_ds_load_scores(const char *path, const char *column, float **vals, uint64_t *n,
                                    char *err, size_t err_len)
{
    reader *r;
    drtopk_status st;
    if (path == NULL || column == NULL || vals == NULL || n == NULL)
        return fail(DRTOPK_ERR_INVALID_ARGUMENT, err, err_len, "no CSV file or column");
    *vals = NULL;
    *n = 0;
    if ((r = (reader *)malloc(sizeof *r)) == NULL) return fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of memory");
    if ((st = rd_open(r, path, err, err_len)) == DRTOPK_OK) st = load_csv(r, column, vals, n);
    rd_close(r);
    free(r);
    return st;
}

/* ---- output ---------------------------------------------------------------------- */

/* `path` opened for writing; NULL with the reason in err */
static FILE *out_open(const char *path, char *err, size_t err_len)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) fail(DRTOPK_ERR_IO, err, err_len, "cannot create '%s': %s", path, strerror(errno));
    return f;
}

/* Close; DRTOPK_ERR_IO naming the path and the OS reason when a write or the
 * close failed (`ok` 0: a write already failed, errno still says why). */
static drtopk_status out_close(FILE *f, const char *path, int ok, char *err, size_t err_len)
{
    int saved = ok && !ferror(f) ? 0 : errno ? errno : EIO;
    if (fclose(f) != 0 && saved == 0) saved = errno;
    return saved == 0 ? DRTOPK_OK : fail(DRTOPK_ERR_IO, err, err_len, "cannot write '%s': %s", path, strerror(saved));
}

drtopk_status drtopk_ds_write(const char *path, const void *data, uint64_t n, uint64_t tile,
                              drtopk_ds_progress progress, void *ctx, char *err, size_t err_len)
{
    const uint32_t *src = (const uint32_t *)data;
    const uint64_t total = tile ? tile : n;
    unsigned char *buf;
    FILE *f;
    int ok = 1;
    if (path == NULL || data == NULL || n == 0) return fail(DRTOPK_ERR_INVALID_ARGUMENT, err, err_len, "nothing to write");
    if (tile && tile < n)
        return fail(DRTOPK_ERR_INVALID_ARGUMENT, err, err_len, "--tile %" PRIu64 " is smaller than the %" PRIu64
                    " elements of the real vector; tiling repeats it and never cuts it", tile, n);
    if ((buf = (unsigned char *)malloc(WRITE_CHUNK_ELEMS * sizeof(uint32_t))) == NULL)
        return fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of host memory");
    if ((f = out_open(path, err, err_len)) == NULL) {
        free(buf);
        return DRTOPK_ERR_IO;
    }
    for (uint64_t done = 0, i = 0; done < total && ok;) {     /* i: position in the real vector */
        const size_t cnt = total - done < WRITE_CHUNK_ELEMS ? (size_t)(total - done) : WRITE_CHUNK_ELEMS;
        for (size_t e = 0; e < cnt; ++e) {
            const uint32_t x = src[i];
            buf[4 * e] = (unsigned char)x;
            buf[4 * e + 1] = (unsigned char)(x >> 8);
            buf[4 * e + 2] = (unsigned char)(x >> 16);
            buf[4 * e + 3] = (unsigned char)(x >> 24);
            if (++i == n) i = 0;
        }
        errno = 0;
        ok = fwrite(buf, sizeof(uint32_t), cnt, f) == cnt;
        done += cnt;
        if (progress) progress(ctx, done, total);
    }
    free(buf);
    return out_close(f, path, ok, err, err_len);
}

/* ---- Table 1's facts ----------------------------------------------------------- */

/* keys sorted ascending (LSD radix, RADIX_BITS at a time) */
static int radix_sort(uint32_t *keys, uint64_t n)
{
    const uint32_t buckets = 1u << RADIX_BITS;
    uint32_t *tmp = (uint32_t *)malloc((size_t)n * sizeof *tmp);
    uint64_t *count = (uint64_t *)malloc(buckets * sizeof *count);
    if (tmp == NULL || count == NULL) {
        free(tmp);
        free(count);
        return -1;
    }
    for (int shift = 0; shift < 32; shift += RADIX_BITS) {
        memset(count, 0, buckets * sizeof *count);
        for (uint64_t i = 0; i < n; ++i) ++count[(keys[i] >> shift) & (buckets - 1)];
        for (uint64_t b = 0, sum = 0; b < buckets; ++b) {
            const uint64_t c = count[b];
            count[b] = sum;
            sum += c;
        }
        for (uint64_t i = 0; i < n; ++i) tmp[count[(keys[i] >> shift) & (buckets - 1)]++] = keys[i];
        memcpy(keys, tmp, (size_t)n * sizeof *keys);
    }
    free(tmp);
    free(count);
    return 0;
}

/* raw bits of the element whose largest-order key is `key` */
static uint32_t bits_of_key(uint32_t key, drtopk_dtype t)
{
    if (t == DRTOPK_U32) return key;
    if (t == DRTOPK_I32) return key ^ DRTOPK_SIGN_BIT;
    return (key & DRTOPK_SIGN_BIT) ? key ^ DRTOPK_SIGN_BIT : ~key;
}

static void value_text(char *buf, size_t len, uint32_t b, drtopk_dtype t)
{
    float f;
    if (t == DRTOPK_U32) snprintf(buf, len, "%" PRIu32, b);
    else if (t == DRTOPK_I32) snprintf(buf, len, "%" PRId32, (int32_t)b);
    else {
        memcpy(&f, &b, sizeof f);
        snprintf(buf, len, "%.9g", (double)f);
    }
}

drtopk_status drtopk_ds_write_stats(const char *path, const char *name, const void *data, uint64_t n,
                                    drtopk_dtype t, uint64_t tile, const uint64_t *ks, int nks,
                                    char *err, size_t err_len)
{
    const uint32_t *src = (const uint32_t *)data;
    const uint64_t total = tile ? tile : n, copies = total / n, rest = total % n;
    uint32_t *all = (uint32_t *)malloc((size_t)n * sizeof *all);
    uint32_t *head = (uint32_t *)malloc((size_t)(rest ? rest : 1) * sizeof *head);
    uint32_t *uniq = NULL;
    uint64_t *mult = NULL, nu = 0;
    drtopk_status st = DRTOPK_OK;
    if (tile && tile < n)
        st = fail(DRTOPK_ERR_INVALID_ARGUMENT, err, err_len, "--tile %" PRIu64 " is below the %" PRIu64 " elements", tile, n);
    if (st == DRTOPK_OK && (all == NULL || head == NULL))
        st = fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of host memory for the statistics of %s", name);
    if (st == DRTOPK_OK) {
        for (uint64_t i = 0; i < n; ++i) all[i] = drtopk_key_from_bits(src[i], t, DRTOPK_LARGEST);
        memcpy(head, all, (size_t)rest * sizeof *head);
        if (radix_sort(all, n) != 0 || radix_sort(head, rest) != 0)
            st = fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of host memory sorting %s", name);
    }
    if (st == DRTOPK_OK) {                   /* distinct keys, with their count in the tiled vector */
        uniq = all;                          /* compacted in place */
        mult = (uint64_t *)malloc((size_t)n * sizeof *mult);
        if (mult == NULL) st = fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of host memory");
        for (uint64_t i = 0, h = 0; st == DRTOPK_OK && i < n;) {
            const uint32_t key = all[i];
            uint64_t c = 0, ch = 0;
            while (i < n && all[i] == key) ++i, ++c;
            while (h < rest && head[h] < key) ++h;
            while (h < rest && head[h] == key) ++h, ++ch;
            uniq[nu] = key;
            mult[nu++] = c * copies + ch;
        }
    }
    FILE *f;
    if (st == DRTOPK_OK && (f = out_open(path, err, err_len)) == NULL) st = DRTOPK_ERR_IO;
    if (st == DRTOPK_OK) {
        fprintf(f, "name\tn\tdistinct\torder\tk\tkth_value\tties_at_k\n");
        for (int o = 0; o < 2; ++o)
            for (int q = 0; q < nks; ++q) {
                char val[64];
                uint64_t seen = 0, u = 0;
                if (ks[q] == 0 || ks[q] > total) continue;
                for (; u < nu; ++u) {               /* from the best end of the order */
                    seen += mult[o == 0 ? nu - 1 - u : u];
                    if (seen >= ks[q]) break;
                }
                const uint64_t at = o == 0 ? nu - 1 - u : u;
                value_text(val, sizeof val, bits_of_key(uniq[at], t), t);
                fprintf(f, "%s\t%" PRIu64 "\t%" PRIu64 "\t%s\t%" PRIu64 "\t%s\t%" PRIu64 "\n", name, total, nu,
                        o == 0 ? "largest" : "smallest", ks[q], val, mult[at]);
            }
        st = out_close(f, path, 1, err, err_len);
    }
    free(all);
    free(head);
    free(mult);
    return st;
}
