/*
 * dataset_graph.c -- graphs as the degree of each vertex, the paper's
 * ClueWeb09 input (section 6, Table 1, Figure 19): edge lists, Matrix Market
 * coordinate matrices and graph-tool's binary .gt, each possibly
 * gzip-compressed.  Memory grows with the edges read, never with a vertex
 * count or an id alone.
 */
#include "dataset_internal.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VERTEX_MAX 0xFFFFFFFEull      /* ids and counts must fit the uint32 output  */
#define VERTICES_PER_ENDPOINT 8       /* a graph with more vertices than 8 per edge
                                         endpoint is mostly ids no edge touches: a
                                         damaged id or size line, not data         */
#define DEG_FLOOR_VERTICES (1ull << 20) /* any graph may number up to 2^20 vertices
                                         (4 MiB of degrees) however few its edges  */
#define PENDING_FIRST 1024            /* endpoints held back before the first growth */

static const unsigned char GT_MAGIC[6] = { 0xe2, 0x9b, 0xbe, 0x20, 0x67, 0x74 };  /* "⛾ gt" */
#define GT_VERSION 1

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
    dh_ds_direction dir;
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
        return ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: byte %" PRIu64 "%s%s: inconsistent: %"
                       PRIu64 " vertices (ids 0..%" PRIu64 ") for the %" PRIu64 " edges the file holds; at most %d "
                       "vertices per edge endpoint (or %llu in all) are data, more is a damaged id or size",
                       r->path, g->n_at, r->where, where, g->n, g->n - 1, g->endpoints / 2, VERTICES_PER_ENDPOINT,
                       DEG_FLOOR_VERTICES);
    if (dh_host_mem_check(g->n * sizeof *g->deg, "the vertex degrees", r->err, r->err_len) != 0)
        return DRTOPK_ERR_OUT_OF_MEMORY;
    if (deg_grow(g, g->n) != 0)
        return ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, r->err, r->err_len, "out of host memory for %" PRIu64 " vertices", g->n);
    for (uint64_t i = 0; i < g->npend; ++i) {
        if (g->deg[g->pend[i]] == UINT32_MAX)
            return ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: the degree of vertex %" PRIu64
                           " passes 2^32 - 1", r->path, g->pend[i]);
        ++g->deg[g->pend[i]];
    }
    g->npend = 0;
    return DRTOPK_OK;
}

/* a failed deg_edge as a message at byte `at` */
static drtopk_status edge_fail(reader *r, uint64_t at, int rc)
{
    if (rc == -2) return ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, r->err, r->err_len, "out of host memory reading %s", r->path);
    return ds_rd_fail(r, at, "a vertex degree passes 2^32 - 1");
}

static drtopk_status undirected_check(const char *path, const degrees *g, char *err, size_t err_len)
{
    if (g->dir == DRTOPK_DEG_BOTH) return DRTOPK_OK;
    return ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, err, err_len, "%s: the graph is undirected; --direction %s needs a "
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

/* Edge list: "u v [anything]" per line, ids 0-based; '#' and '%' comments. */
static drtopk_status load_edge_list(reader *r, degrees *g)
{
    char line[LINE_MAX_BYTES], snip[SNIPPET_BYTES];
    uint64_t lineno = 0, edges = 0, line_at = 0;
    size_t len;
    int got;
    while ((got = ds_rd_line(r, line, &len)) != 0) {
        size_t p = 0;
        uint64_t u, v;
        const uint64_t at = line_at;
        line_at = r->off;
        ++lineno;
        if (got < 0) return ds_line_fail(r, lineno, "longer than %d bytes; expected 'u v' (two vertex ids)", LINE_MAX_BYTES);
        while (line[p] == ' ' || line[p] == '\t') ++p;
        if (line[p] == '\0' || line[p] == '#' || line[p] == '%') continue;
        if (!parse_uint_field(line, &p, &u) || !parse_uint_field(line, &p, &v)) {
            ds_snippet(snip, line, len);
            return ds_line_fail(r, lineno, "'%s': expected two non-negative integer vertex ids 'u v'", snip);
        }
        if (u > VERTEX_MAX || v > VERTEX_MAX)
            return ds_line_fail(r, lineno, "vertex id %" PRIu64 " is above %llu", u > v ? u : v, VERTEX_MAX);
        const int rc = deg_edge(g, u, v, at, lineno);
        if (rc != 0) return edge_fail(r, at, rc);
        ++edges;
    }
    if (r->st != DRTOPK_OK) return r->st;
    if (edges == 0) return ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s: no edges (%" PRIu64 " lines of "
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
    int got = ds_rd_line(r, line, &len);
    if (got == 0 && r->st != DRTOPK_OK) return r->st;
    if (got == 0) return ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, r->err, r->err_len, "%s is empty: expected a Matrix Market "
                                 "banner '%%%%MatrixMarket matrix coordinate ...'", r->path);
    if (got < 0 || strncasecmp(line, "%%MatrixMarket", 14) != 0 ||
        sscanf(line + 14, "%31s %31s %31s %31s", obj, fmt, field, sym) != 4 || strcasecmp(obj, "matrix") != 0)
        return ds_line_fail(r, 1, "expected the banner '%%%%MatrixMarket matrix coordinate <field> <symmetry>'");
    if (strcasecmp(fmt, "coordinate") != 0)
        return ds_line_fail(r, 1, "format '%s': expected 'coordinate' (a dense array is not a graph)", fmt);
    if (strcasecmp(field, "real") && strcasecmp(field, "integer") && strcasecmp(field, "pattern") &&
        strcasecmp(field, "complex") && strcasecmp(field, "double"))
        return ds_line_fail(r, 1, "field '%s': expected real, integer, complex or pattern", field);
    const int general = strcasecmp(sym, "general") == 0;
    if (!general && strcasecmp(sym, "symmetric") && strcasecmp(sym, "skew-symmetric") && strcasecmp(sym, "hermitian"))
        return ds_line_fail(r, 1, "symmetry '%s': expected general, symmetric, skew-symmetric or hermitian", sym);
    if (!general) {
        drtopk_status st = undirected_check(r->path, g, r->err, r->err_len);
        if (st != DRTOPK_OK) return st;
    }
    uint64_t size_at;
    do {                                       /* comments up to the size line */
        size_at = r->off;
        got = ds_rd_line(r, line, &len);
        ++lineno;
        p = 0;
        while (got > 0 && (line[p] == ' ' || line[p] == '\t')) ++p;
    } while (got > 0 && (line[p] == '%' || line[p] == '\0'));
    if (got == 0) return ds_line_fail(r, lineno, "truncated: expected the size line 'rows columns entries'");
    if (got < 0 || !parse_uint_field(line, &p, &m) || !parse_uint_field(line, &p, &n) ||
        !parse_uint_field(line, &p, &nnz) || line[p + strspn(line + p, " \t")] != '\0') {
        ds_snippet(snip, line, got < 0 ? SNIPPET_BYTES : len);
        return ds_line_fail(r, lineno, "'%s': expected the size line 'rows columns entries'", snip);
    }
    const uint64_t nv = m > n ? m : n;
    if (nv == 0 || nv > VERTEX_MAX + 1)
        return ds_line_fail(r, lineno, "%" PRIu64 " x %" PRIu64 " matrix: expected 1..%llu rows and columns", m, n,
                            VERTEX_MAX + 1);
    g->n = nv;
    g->n_at = size_at;
    g->n_line = lineno;
    for (uint64_t at = r->off; (got = ds_rd_line(r, line, &len)) != 0; at = r->off) {
        uint64_t i, j;
        ++lineno;
        p = 0;
        if (got < 0) return ds_line_fail(r, lineno, "longer than %d bytes; expected an entry 'i j [value]'", LINE_MAX_BYTES);
        while (line[p] == ' ' || line[p] == '\t') ++p;
        if (line[p] == '\0' || line[p] == '%') continue;
        if (!parse_uint_field(line, &p, &i) || !parse_uint_field(line, &p, &j)) {
            ds_snippet(snip, line, len);
            return ds_line_fail(r, lineno, "'%s': expected an entry 'i j [value]' with 1-based indices", snip);
        }
        if (i < 1 || i > m || j < 1 || j > n)
            return ds_line_fail(r, lineno, "entry (%" PRIu64 ", %" PRIu64 ") outside the %" PRIu64 " x %" PRIu64
                                " matrix of the size line", i, j, m, n);
        if (++seen > nnz)
            return ds_line_fail(r, lineno, "more entries than the %" PRIu64 " of the size line", nnz);
        const int rc = deg_edge(g, i - 1, j - 1, at, lineno);
        if (rc != 0) return edge_fail(r, at, rc);
    }
    if (r->st != DRTOPK_OK) return r->st;
    if (seen < nnz)
        return ds_line_fail(r, lineno, "truncated: %" PRIu64 " entries; the size line promises %" PRIu64, seen, nnz);
    if (nnz == 0) return ds_line_fail(r, lineno, "no entries: a graph without edges has no degrees to rank");
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
    if (ds_rd_read(r, h, 8) < 8 || memcmp(h, GT_MAGIC, sizeof GT_MAGIC) != 0)
        return ds_rd_fail(r, 0, "expected graph-tool's magic e2 9b be 20 67 74 ('\xe2\x9b\xbe gt')");
    if (h[6] != GT_VERSION) return ds_rd_fail(r, 6, "graph-tool format version %u; expected %d", h[6], GT_VERSION);
    if (h[7] > 1) return ds_rd_fail(r, 7, "endianness byte %u; expected 0 (little) or 1 (big)", h[7]);
    const int big = h[7];
    if (ds_rd_read(r, b8, 8) < 8) return ds_rd_fail(r, 8, "truncated: expected the comment's 8-byte length");
    uint64_t skip = ds_uint_bytes(b8, 8, big);
    for (unsigned char junk[256]; skip > 0;) {
        const size_t want = skip < sizeof junk ? (size_t)skip : sizeof junk;
        if (ds_rd_read(r, junk, want) < want)
            return ds_rd_fail(r, r->off, "truncated in the comment string (%" PRIu64 " bytes promised at byte 8)",
                              ds_uint_bytes(b8, 8, big));
        skip -= want;
    }
    const uint64_t at_dir = r->off;
    if (ds_rd_read(r, h, 1) < 1 || h[0] > 1) return ds_rd_fail(r, at_dir, "expected the directed flag (0 or 1)");
    const int directed = h[0];
    if (!directed) {
        drtopk_status st = undirected_check(r->path, g, r->err, r->err_len);
        if (st != DRTOPK_OK) return st;
    }
    if (ds_rd_read(r, b8, 8) < 8) return ds_rd_fail(r, at_dir + 1, "truncated: expected the 8-byte vertex count");
    const uint64_t nv = ds_uint_bytes(b8, 8, big);
    if (nv == 0 || nv > VERTEX_MAX + 1)
        return ds_rd_fail(r, at_dir + 1, "%" PRIu64 " vertices; expected 1..%llu", nv, VERTEX_MAX + 1);
    /* the narrowest id that holds N itself (graph-tool 2.45 writes 256 vertices with 2-byte ids) */
    const int w = nv <= UINT8_MAX ? 1 : nv <= UINT16_MAX ? 2 : nv <= UINT32_MAX ? 4 : 8;
    g->n = nv;
    g->n_at = at_dir + 1;
    for (uint64_t v = 0; v < nv; ++v) {
        const uint64_t at = r->off;
        if (ds_rd_read(r, b8, 8) < 8)
            return ds_rd_fail(r, at, "truncated: expected the out-neighbour count of vertex %" PRIu64 " of %" PRIu64, v, nv);
        g->records = v + 1;
        const uint64_t k = ds_uint_bytes(b8, 8, big);
        for (uint64_t i = 0; i < k; ++i) {
            const uint64_t at_u = r->off;
            if (ds_rd_read(r, b8, (size_t)w) < (size_t)w)
                return ds_rd_fail(r, at_u, "truncated: vertex %" PRIu64 " has %" PRIu64 " out-neighbours; the data ends "
                                  "at neighbour %" PRIu64, v, k, i);
            const uint64_t u = ds_uint_bytes(b8, w, big);
            if (u >= nv)
                return ds_rd_fail(r, at_u, "neighbour %" PRIu64 " of vertex %" PRIu64 " is %" PRIu64 "; expected an id "
                                  "below the %" PRIu64 " vertices", i, v, u, nv);
            const int rc = deg_edge(g, v, u, at_u, 0);
            if (rc != 0) return edge_fail(r, at_u, rc);
        }
    }
    const uint64_t at_props = r->off;
    if (ds_rd_read(r, b8, 8) < 8)
        return ds_rd_fail(r, at_props, "truncated: expected the 8-byte property-map count after the adjacency lists");
    if (ds_uint_bytes(b8, 8, big) == 0 && ds_rd_read(r, h, 1) > 0)
        return ds_rd_fail(r, at_props + 8, "trailing data: no property maps, so the file should end here (neighbour ids "
                          "of the wrong width?)");
    return r->st != DRTOPK_OK ? r->st : deg_finish(r, g);
}

drtopk_status dh_ds_load_degrees(const char *path, dh_ds_direction dir, uint32_t **deg, uint64_t *n,
                                 char *err, size_t err_len)
{
    reader *r;
    degrees g;
    drtopk_status st;
    if (path == NULL || deg == NULL || n == NULL) return ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, err, err_len, "no graph file");
    memset(&g, 0, sizeof g);
    g.dir = dir;
    *deg = NULL;
    *n = 0;
    if ((r = (reader *)malloc(sizeof *r)) == NULL) return ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of memory");
    if ((st = ds_rd_open(r, path, err, err_len)) == DRTOPK_OK) {
        if (ds_name_has_ext(path, ".gt")) st = load_gt(r, &g);
        else if (ds_name_has_ext(path, ".mtx")) st = load_mtx(r, &g);
        else st = load_edge_list(r, &g);
    }
    ds_rd_close(r);
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

