/*
 * dataset_internal.h -- what the files of the real-data loaders share, and
 * only they (callers use dataset.h): the messages and the reader of
 * dataset.c, whose byte offsets and line numbers every loader's errors give
 * (paper section 6, Table 1 and Figure 19).
 */
#ifndef DRTOPK_DATASET_INTERNAL_H
#define DRTOPK_DATASET_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

#include "dataset.h"

#define RD_BUF_BYTES (1u << 16)       /* decompressed bytes buffered per refill     */
#define LINE_MAX_BYTES 4096           /* an edge-list or .mtx line longer is junk   */
#define SNIPPET_BYTES 40              /* how much of a bad token a message quotes   */

/* ---- messages ------------------------------------------------------------ */

/* printf into err (nothing when err is NULL or err_len 0); returns st. */
drtopk_status ds_fail(drtopk_status st, char *err, size_t err_len, const char *fmt, ...);
/* a token of at most SNIPPET_BYTES printable characters, for messages */
void ds_snippet(char *dst, const char *s, size_t len);

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

/* Open path (a regular file; gzip when it starts with gzip's magic); messages
 * go to err.  ds_rd_close releases what an open, failed or not, holds. */
drtopk_status ds_rd_open(reader *r, const char *path, char *err, size_t err_len);
void ds_rd_close(reader *r);
/* refill; 0 at the end of the data or on a damaged stream (r->st says) */
size_t ds_rd_fill(reader *r);
/* The next byte, or EOF at the end (r->st says whether the stream failed).
 * Inline: the text loaders call it once per byte. */
static inline int ds_rd_getc(reader *r)
{
    if (r->pos == r->len && ds_rd_fill(r) == 0) return EOF;
    ++r->off;
    return r->buf[r->pos++];
}
/* up to n bytes into dst; fewer only at the end of the data */
size_t ds_rd_read(reader *r, void *dst, size_t n);
/* DRTOPK_ERR_INVALID_ARGUMENT with "path: byte at: ..." (the stream's own
 * failure instead, when it has one). */
drtopk_status ds_rd_fail(reader *r, uint64_t at, const char *fmt, ...);
/* The same with "path: line N: ...". */
drtopk_status ds_line_fail(reader *r, uint64_t line, const char *fmt, ...);
/* One text line (without '\n' or "\r\n") into buf, NUL-terminated.  Returns
 * 1 for a line, 0 at the end (or at a NUL byte: r->st says), -1 for a line of
 * LINE_MAX_BYTES or more. */
int ds_rd_line(reader *r, char *buf, size_t *len);

/* n-byte unsigned integer, little- or big-endian */
uint64_t ds_uint_bytes(const unsigned char *b, int n, int big);
/* the file name without a trailing ".gz" ends in `ext` */
int ds_name_has_ext(const char *path, const char *ext);

#endif
