/*
 * dataset.c -- what the real-data loaders of dataset.h share (paper section
 * 6, Table 1 and Figure 19): their messages, and the reader of an input
 * file, plain or gzip-compressed (zlib; several members allowed), that
 * counts the byte offset of the (decompressed) data and reads text lines, so
 * that every error names where the file went wrong.  The formats are read
 * in dataset_vectors.c, dataset_graph.c and dataset_csv.c; the outputs are
 * written in dataset_write.c.
 */
#include "dataset_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

static const unsigned char GZ_MAGIC[2] = { 0x1f, 0x8b };                           /* RFC 1952 */
#define GZ_WINDOW_BITS (16 + MAX_WBITS)  /* inflate: a gzip wrapper, the largest window */
#define GZ_TRAILER_FIELD 4               /* bytes of each gzip trailer field          */

/* ---- messages ------------------------------------------------------------ */

drtopk_status ds_fail(drtopk_status st, char *err, size_t err_len, const char *fmt, ...)
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
void ds_snippet(char *dst, const char *s, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 1 < SNIPPET_BYTES; ++i)
        dst[o++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    dst[o] = '\0';
}

/* ---- reader: a (possibly gzip-compressed) file, byte offsets, lines ------ */

drtopk_status ds_rd_open(reader *r, const char *path, char *err, size_t err_len)
{
    struct stat sb;
    unsigned char magic[sizeof GZ_MAGIC];
    memset(r, 0, sizeof *r);
    r->path = path;
    r->err = err;
    r->err_len = err_len;
    r->st = r->later = DRTOPK_OK;
    r->where = "";
    if (stat(path, &sb) != 0) return ds_fail(DRTOPK_ERR_IO, err, err_len, "cannot open '%s': %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode)) return ds_fail(DRTOPK_ERR_IO, err, err_len, "'%s' is not a regular file", path);
    if ((r->f = fopen(path, "rb")) == NULL)
        return ds_fail(DRTOPK_ERR_IO, err, err_len, "cannot open '%s': %s", path, strerror(errno));
    r->gz = fread(magic, 1, sizeof magic, r->f) == sizeof magic && memcmp(magic, GZ_MAGIC, sizeof magic) == 0;
    if (fseek(r->f, 0, SEEK_SET) != 0)
        return ds_fail(DRTOPK_ERR_IO, err, err_len, "cannot read '%s': %s", path, strerror(errno));
    if (r->gz) {
        if (inflateInit2(&r->zs, GZ_WINDOW_BITS) != Z_OK) {
            r->gz = 0;
            return ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of host memory for the gzip stream of %s", path);
        }
        r->where = " of the decompressed data";
    }
    return DRTOPK_OK;
}

void ds_rd_close(reader *r)
{
    if (r->gz) inflateEnd(&r->zs);
    if (r->f) fclose(r->f);
    r->f = NULL;
    r->gz = 0;
}

/* a refill's failure: now when nothing was delivered, else once the data
 * before it is consumed (so its decompressed offset is exact) */
static size_t ds_rd_failed(reader *r, size_t got, drtopk_status st)
{
    if (got == 0) r->st = st;
    else r->later = st;
    r->len = got;
    r->pos = 0;
    return got;
}

/* Inflate into buf: as much as the next step gives.  Every error names the
 * compressed byte where the stream failed and the decompressed bytes before it. */
static size_t ds_rd_inflate(reader *r)
{
    z_stream *z = &r->zs;
    for (;;) {
        if (z->avail_in == 0 && !r->in_eof) {
            const size_t n = fread(r->in, 1, sizeof r->in, r->f);
            if (n == 0 && ferror(r->f))
                return ds_rd_failed(r, 0, ds_fail(DRTOPK_ERR_IO, r->err, r->err_len, "cannot read '%s' at byte %" PRIu64
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
                return ds_rd_failed(r, 0, ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: compressed byte %"
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
            return ds_rd_failed(r, got, ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: truncated: the gzip "
                                                "stream ends at compressed byte %" PRIu64 " (the end of the file) after %"
                                                PRIu64 " bytes of decompressed data, inside a member", r->path, now,
                                                r->off + got));
        if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
            /* a trailer field (CRC-32, then the length) fails after its 4 bytes are read */
            const int trailer = z->msg && (strstr(z->msg, "data check") || strstr(z->msg, "length check"));
            return ds_rd_failed(r, got, ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: compressed byte %"
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
size_t ds_rd_fill(reader *r)
{
    if (r->st != DRTOPK_OK) return 0;
    if (r->later != DRTOPK_OK) {
        r->st = r->later;
        return 0;
    }
    if (r->gz) return ds_rd_inflate(r);
    const size_t got = fread(r->buf, 1, RD_BUF_BYTES, r->f);
    if (got == 0 && ferror(r->f))
        return ds_rd_failed(r, 0, ds_fail(DRTOPK_ERR_IO, r->err, r->err_len, "cannot read '%s' at byte %" PRIu64 ": %s",
                                          r->path, r->off, strerror(errno)));
    r->pos = 0;
    r->len = got;
    return got;
}
/* up to n bytes into dst; fewer only at the end of the data */
size_t ds_rd_read(reader *r, void *dst, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    size_t done = 0;
    while (done < n) {
        if (r->pos == r->len && ds_rd_fill(r) == 0) break;
        size_t take = r->len - r->pos < n - done ? r->len - r->pos : n - done;
        memcpy(d + done, r->buf + r->pos, take);
        r->pos += take;
        r->off += take;             /* before the next refill: its messages give offsets */
        done += take;
    }
    return done;
}

/* Error at byte `at` of the reader's file. */
drtopk_status ds_rd_fail(reader *r, uint64_t at, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    if (r->st != DRTOPK_OK) return r->st;       /* the stream's own failure explains it */
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: byte %" PRIu64 "%s: %s", r->path, at,
                   r->where, msg);
}

/* One text line (without '\n' or "\r\n") into buf, NUL-terminated.  Returns
 * 1 for a line, 0 at the end (or at a NUL byte: r->st says), -1 for a line of
 * LINE_MAX_BYTES or more. */
int ds_rd_line(reader *r, char *buf, size_t *len)
{
    int c;
    size_t n = 0;
    if ((c = ds_rd_getc(r)) == EOF) return 0;
    while (c != EOF && c != '\n') {
        if (c == '\0') {                      /* text never holds one: a binary or damaged file */
            r->st = ds_rd_fail(r, r->off - 1, "a NUL byte; expected a text line (a binary file?)");
            return 0;
        }
        if (n + 1 >= LINE_MAX_BYTES) return -1;
        buf[n++] = (char)c;
        c = ds_rd_getc(r);
    }
    if (n > 0 && buf[n - 1] == '\r') --n;
    buf[n] = '\0';
    *len = n;
    return 1;
}

/* n-byte unsigned integer, little- or big-endian */
uint64_t ds_uint_bytes(const unsigned char *b, int n, int big)
{
    uint64_t x = 0;
    for (int i = 0; i < n; ++i) x |= (uint64_t)b[big ? n - 1 - i : i] << (8 * i);
    return x;
}

/* the file name without a trailing ".gz" ends in `ext` */
int ds_name_has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    if (n > 3 && strcmp(path + n - 3, ".gz") == 0) n -= 3;
    return n >= e && strncmp(path + n - e, ext, e) == 0;
}

drtopk_status ds_line_fail(reader *r, uint64_t line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    if (r->st != DRTOPK_OK) return r->st;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: line %" PRIu64 ": %s", r->path, line, msg);
}
