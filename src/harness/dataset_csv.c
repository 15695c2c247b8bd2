/*
 * dataset_csv.c -- scores from one column of a CSV or TSV file with a header
 * row (RFC 4180 quoting), the paper's TwitterCOVID-19 input (section 6,
 * Table 1, Figure 19), possibly gzip-compressed.
 */
#include "dataset_internal.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_LIST_BYTES 400         /* how much of a CSV header an error lists    */

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
    int c = ds_rd_getc(r);
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
                c = ds_rd_getc(r);
                if (c == EOF) {
                    *st = r->st != DRTOPK_OK ? r->st
                          : ds_line_fail(r, open_line, "unterminated quoted field (its quote at byte %" PRIu64 " is never "
                                         "closed)", open_off);
                    return -1;
                }
                if (c == '"') {
                    c = ds_rd_getc(r);
                    if (c != '"') break;
                }
                if (c == '\n') ++*line;
                if (c == '\0') goto nul;
                if (rec_put(rc, (char)c) != 0) goto oom;
            }
            if (c == '\r') c = ds_rd_getc(r);
            if (c != delim && c != '\n' && c != EOF) {
                *st = ds_line_fail(r, *line, "byte %" PRIu64 ": '%c' after the closing quote of field %zu; expected the "
                                   "delimiter or the end of the line", r->off - 1, c, rc->nf);
                return -1;
            }
        } else {
            while (c != delim && c != '\n' && c != EOF) {
                if (c == '\0') goto nul;
                if (rec_put(rc, (char)c) != 0) goto oom;
                c = ds_rd_getc(r);
            }
            if (rc->len > rc->start[rc->nf - 1] && rc->text[rc->len - 1] == '\r' && c != delim) --rc->len;
        }
        if (rec_put(rc, '\0') != 0) goto oom;
        if (c == delim) {
            if (rec_field(rc) != 0) goto oom;
            c = ds_rd_getc(r);
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
    *st = ds_line_fail(r, *line, "byte %" PRIu64 ": a NUL byte in field %zu; expected text (a binary file?)", r->off - 1,
                       rc->nf);
    return -1;
oom:
    *st = ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, r->err, r->err_len, "out of host memory reading %s", r->path);
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
    const char delim = (ds_name_has_ext(r->path, ".tsv") || ds_name_has_ext(r->path, ".tab")) ? '\t' : ',';
    record rc;
    uint64_t line = 1, rows = 0, cap = 0;
    drtopk_status st = DRTOPK_OK;
    size_t col = SIZE_MAX, nf;
    float *v = NULL;
    char snip[SNIPPET_BYTES];
    memset(&rc, 0, sizeof rc);
    int got = csv_record(r, delim, &rc, &line, &st);
    if (got == 0) st = ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s is empty: expected a header row "
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
        st = ds_line_fail(r, 1, "no column '%s'; the header has %s (the delimiter is %s)", column, list,
                          delim == '\t' ? "a tab, from the name *.tsv" : "',': name a tab-separated file *.tsv");
        goto done;
    }
    while ((got = csv_record(r, delim, &rc, &line, &st)) == 1) {
        if (record_blank(&rc) && nf > 1) continue;
        if (rc.nf != nf) {
            st = ds_line_fail(r, rc.line, "%zu fields; expected %zu as in the header (a quote left open or a stray "
                              "delimiter?)", rc.nf, nf);
            goto done;
        }
        if (rows == cap) {
            cap = cap ? 2 * cap : 1024;
            float *p = (float *)realloc(v, (size_t)cap * sizeof *p);
            if (p == NULL) {
                st = ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, r->err, r->err_len, "out of host memory");
                goto done;
            }
            v = p;
        }
        const char *field = rc.text + rc.start[col];
        if (!parse_score(field, &v[rows])) {
            ds_snippet(snip, field, strlen(field));
            st = ds_line_fail(r, rc.line, "column '%s' holds '%s'; expected a finite number", column, snip);
            goto done;
        }
        ++rows;
    }
    if (got < 0) goto done;
    if (rows == 0) st = ds_line_fail(r, line, "no data rows after the header; expected one row per score");
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

drtopk_status dh_ds_load_scores(const char *path, const char *column, float **vals, uint64_t *n,
                                char *err, size_t err_len)
{
    reader *r;
    drtopk_status st;
    if (path == NULL || column == NULL || vals == NULL || n == NULL)
        return ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, err, err_len, "no CSV file or column");
    *vals = NULL;
    *n = 0;
    if ((r = (reader *)malloc(sizeof *r)) == NULL) return ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of memory");
    if ((st = ds_rd_open(r, path, err, err_len)) == DRTOPK_OK) st = load_csv(r, column, vals, n);
    ds_rd_close(r);
    free(r);
    return st;
}

