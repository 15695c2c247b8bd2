/*
 * test_dataset.c -- the real-data loaders of dataset*.c (paper
 * section 6's real inputs, Table 1): each format on small files written here,
 * values against hand computations, every malformed case (truncated at each
 * offset, wrong magic or dimension, empty, NaN and junk) failing with the
 * file and the byte or line, tiling, the atomic writer and Table 1's facts.
 */
#include "test_harness.h"
#include "dataset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define PATH_LEN 512
#define ERR_LEN 1024
#define BLOB_MAX 4096

static char dir[PATH_LEN];

static const char *tmpdir(void)
{
    if (dir[0] == '\0') {
        snprintf(dir, sizeof dir, "%s/drtopk_ds_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        CHECK(mkdtemp(dir) != NULL);
    }
    return dir;
}

/* write n bytes to DIR/name (gzip-compressed when name ends in .gz); the path */
static const char *put(const char *name, const void *bytes, size_t n)
{
    static char path[PATH_LEN];
    snprintf(path, sizeof path, "%s/%s", tmpdir(), name);
    if (strlen(name) > 3 && strcmp(name + strlen(name) - 3, ".gz") == 0) {
        gzFile gz = gzopen(path, "wb");
        CHECK(gz != NULL);
        CHECK(n == 0 || gzwrite(gz, bytes, (unsigned)n) == (int)n);
        CHECK(gzclose(gz) == Z_OK);
    } else {
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL);
        CHECK(fwrite(bytes, 1, n, f) == n);
        CHECK(fclose(f) == 0);
    }
    return path;
}

static const char *put_text(const char *name, const char *text)
{
    return put(name, text, strlen(text));
}

/* the error names the file and `where` ("byte 12", "line 3") */
static void check_err(const char *err, const char *path, const char *where)
{
    CHECKF(strstr(err, path) != NULL, "message does not name %s: %s", path, err);
    CHECKF(strstr(err, where) != NULL, "message lacks '%s': %s", where, err);
}

/* ---- byte builders ---------------------------------------------------------- */

typedef struct {
    unsigned char b[BLOB_MAX];
    size_t n;
} blob;

static void put_le(blob *x, uint64_t v, int w)
{
    for (int i = 0; i < w; ++i) x->b[x->n++] = (unsigned char)(v >> (8 * i));
}

static void put_be(blob *x, uint64_t v, int w)
{
    for (int i = w - 1; i >= 0; --i) x->b[x->n++] = (unsigned char)(v >> (8 * i));
}

static void put_f32(blob *x, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    put_le(x, u, 4);
}

/* three 2-d vectors (0,0) (3,4) (1,1) as .fvecs */
static blob fvecs3(void)
{
    blob x = { { 0 }, 0 };
    const float v[3][2] = { { 0, 0 }, { 3, 4 }, { 1, 1 } };
    for (int i = 0; i < 3; ++i) {
        put_le(&x, 2, 4);
        put_f32(&x, v[i][0]);
        put_f32(&x, v[i][1]);
    }
    return x;
}

/* IDX ubyte: 3 images of 2 x 2 pixels */
static blob idx3(void)
{
    blob x = { { 0 }, 0 };
    const unsigned char px[12] = { 0, 0, 0, 0, 1, 2, 3, 4, 255, 0, 0, 255 };
    put_be(&x, 0x00000803u, 4);
    put_be(&x, 3, 4);
    put_be(&x, 2, 4);
    put_be(&x, 2, 4);
    memcpy(x.b + x.n, px, sizeof px);
    x.n += sizeof px;
    return x;
}

/* graph-tool: 3 vertices, 0 -> 1, 0 -> 2, 2 -> 0; no property maps */
static blob gt3(int directed, int big)
{
    static const unsigned char magic[6] = { 0xe2, 0x9b, 0xbe, 0x20, 0x67, 0x74 };
    blob x = { { 0 }, 0 };
    void (*put_int)(blob *, uint64_t, int) = big ? put_be : put_le;
    memcpy(x.b, magic, sizeof magic);
    x.n = sizeof magic;
    x.b[x.n++] = 1;
    x.b[x.n++] = (unsigned char)big;
    put_int(&x, 2, 8);
    x.b[x.n++] = 'h';
    x.b[x.n++] = 'i';
    x.b[x.n++] = (unsigned char)directed;
    put_int(&x, 3, 8);
    put_int(&x, 2, 8);            /* vertex 0: 1, 2 (1-byte ids: N < 256) */
    x.b[x.n++] = 1;
    x.b[x.n++] = 2;
    put_int(&x, 0, 8);            /* vertex 1 */
    put_int(&x, 1, 8);            /* vertex 2: 0 */
    x.b[x.n++] = 0;
    put_int(&x, 0, 8);            /* property maps */
    return x;
}

/* ---- vectors and distances --------------------------------------------------- */

static void load_ok(const char *path, dh_ds_vectors *v)
{
    char err[ERR_LEN] = "";
    drtopk_status st = dh_ds_load_vectors(path, v, err, sizeof err);
    CHECKF(st == DRTOPK_OK, "%s: %s", path, err);
}

static void load_bad(const char *path, const char *where)
{
    char err[ERR_LEN] = "";
    dh_ds_vectors v;
    memset(&v, 0, sizeof v);
    CHECKF(dh_ds_load_vectors(path, &v, err, sizeof err) == DRTOPK_ERR_INVALID_ARGUMENT, "%s loaded", path);
    check_err(err, path, where);
    dh_ds_vectors_free(&v);
}

static void knn_values(void)
{
    blob x = fvecs3();
    dh_ds_vectors v;
    float out[6];
    memset(&v, 0, sizeof v);
    load_ok(put("a.fvecs", x.b, x.n), &v);
    CHECK_EQ_U64(v.count, 3);
    CHECK_EQ_U64(v.dim, 2);
    dh_knn_host(&v, 2, DRTOPK_METRIC_L2, out, NULL, NULL);
    const float l2[6] = { 0, 5, sqrtf(2), 5, 0, sqrtf(13) };   /* by hand: |(3,4)-(1,1)|^2 = 4+9 */
    for (int i = 0; i < 6; ++i) CHECKF(out[i] == l2[i], "l2[%d] %g != %g", i, out[i], l2[i]);
    dh_knn_host(&v, 1, DRTOPK_METRIC_SQL2, out, NULL, NULL);
    CHECK(out[0] == 0 && out[1] == 25 && out[2] == 2);
    dh_ds_vectors_free(&v);
}

static void vector_formats(void)
{
    blob b = { { 0 }, 0 }, iv = { { 0 }, 0 }, id = idx3();
    dh_ds_vectors v;
    put_le(&b, 3, 4);
    b.b[b.n++] = 7, b.b[b.n++] = 0, b.b[b.n++] = 255;
    put_le(&iv, 2, 4);
    put_le(&iv, (uint32_t)-5, 4);
    put_le(&iv, 9, 4);
    memset(&v, 0, sizeof v);
    load_ok(put("a.bvecs", b.b, b.n), &v);
    CHECK(v.count == 1 && v.dim == 3 && v.data[0] == 7 && v.data[1] == 0 && v.data[2] == 255);
    dh_ds_vectors_free(&v);
    load_ok(put("a.ivecs", iv.b, iv.n), &v);
    CHECK(v.count == 1 && v.dim == 2 && v.data[0] == -5 && v.data[1] == 9);
    dh_ds_vectors_free(&v);
    /* IDX, plain and gzip-compressed, appended one after the other */
    load_ok(put("imgs-idx3-ubyte", id.b, id.n), &v);
    load_ok(put("imgs-idx3-ubyte.gz", id.b, id.n), &v);
    CHECK(v.count == 6 && v.dim == 4);
    CHECK(v.data[4] == 1 && v.data[7] == 4 && v.data[8] == 255 && v.data[4 * 3 + 8] == 255);
    float out[6];
    dh_knn_host(&v, 1, DRTOPK_METRIC_SQL2, out, NULL, NULL);
    CHECK(out[1] == 1 + 4 + 9 + 16 && out[2] == 2 * 255 * 255 && out[3] == 0);
    /* a 2-d .fvecs after 4-d images: wrong dimension, at byte 0 of that file */
    blob f = fvecs3();
    char err[ERR_LEN] = "";
    const char *p = put("two.fvecs", f.b, f.n);
    CHECK(dh_ds_load_vectors(p, &v, err, sizeof err) == DRTOPK_ERR_INVALID_ARGUMENT);
    check_err(err, p, "byte 0");
    CHECK(strstr(err, "expected 4") != NULL);
    dh_ds_vectors_free(&v);
}

static void vector_errors(void)
{
    blob x = fvecs3(), id = idx3();
    char name[64];
    /* cut .fvecs inside a vector (a cut between vectors is a valid shorter file) */
    for (size_t cut = 1; cut < x.n; ++cut) {
        if (cut % 12 == 0) continue;
        snprintf(name, sizeof name, "cut%zu.fvecs", cut);
        load_bad(put(name, x.b, cut), "truncated");
    }
    /* IDX: every cut is caught (the header holds the count) */
    for (size_t cut = 0; cut < id.n; ++cut) {
        snprintf(name, sizeof name, "cut%zu-idx3-ubyte", cut);
        load_bad(put(name, id.b, cut), cut == 0 ? "byte 0" : "byte");
    }
    load_bad(put("cut-idx3-ubyte.gz", id.b, id.n - 1), "truncated");
    /* a gzip stream cut short */
    {
        const char *p = put("whole-idx3-ubyte.gz", id.b, id.n);
        FILE *f = fopen(p, "rb");
        unsigned char gzb[BLOB_MAX];
        size_t n = fread(gzb, 1, sizeof gzb, f);
        fclose(f);
        load_bad(put("damaged-idx3-ubyte.gz", gzb, n / 2), "byte");
    }
    /* wrong dimension: vector 1 says 3 at byte 12 */
    x.b[12] = 3;
    load_bad(put("dim.fvecs", x.b, x.n), "byte 12");
    x.b[12] = 2;
    /* NaN component: vector 1, component 1 at byte 12 + 4 + 4 */
    {
        blob y = x;
        const float nan = NAN;
        memcpy(y.b + 20, &nan, 4);
        load_bad(put("nan.fvecs", y.b, y.n), "byte 20");
    }
    /* zero and negative dimensions */
    x.b[0] = 0;
    load_bad(put("zero.fvecs", x.b, x.n), "byte 0");
    memset(x.b, 0xff, 4);
    load_bad(put("neg.fvecs", x.b, x.n), "dimension -1");
    load_bad(put("empty.fvecs", "", 0), "empty");
    load_bad(put("empty-idx3-ubyte", "", 0), "byte 0");
    /* IDX: wrong magic, type, trailing data */
    id.b[0] = 1;
    load_bad(put("magic-idx3-ubyte", id.b, id.n), "magic");
    id.b[0] = 0;
    id.b[2] = 0x07;
    load_bad(put("type-idx3-ubyte", id.b, id.n), "byte 2");
    id.b[2] = 0x08;
    id.b[id.n++] = 0;
    load_bad(put("trail-idx3-ubyte", id.b, id.n), "trailing");
    /* a file that does not exist: an I/O error naming it */
    char err[ERR_LEN];
    dh_ds_vectors v;
    memset(&v, 0, sizeof v);
    CHECK(dh_ds_load_vectors("/nonexistent/x.fvecs", &v, err, sizeof err) == DRTOPK_ERR_IO);
    CHECK(strstr(err, "/nonexistent/x.fvecs") != NULL);
}

/* ---- graphs ---------------------------------------------------------------------- */

static void degrees_ok(const char *path, dh_ds_direction d, const uint32_t *want, uint64_t n)
{
    char err[ERR_LEN] = "";
    uint32_t *deg;
    uint64_t got;
    drtopk_status st = dh_ds_load_degrees(path, d, &deg, &got, err, sizeof err);
    CHECKF(st == DRTOPK_OK, "%s: %s", path, err);
    CHECK_EQ_U64(got, n);
    for (uint64_t i = 0; i < n; ++i) CHECKF(deg[i] == want[i], "%s dir %d: deg[%" PRIu64 "] = %u, want %u", path, d, i,
                                            deg[i], want[i]);
    free(deg);
}

static void degrees_bad(const char *path, dh_ds_direction d, const char *where)
{
    char err[ERR_LEN] = "";
    uint32_t *deg = NULL;
    uint64_t n;
    CHECKF(dh_ds_load_degrees(path, d, &deg, &n, err, sizeof err) == DRTOPK_ERR_INVALID_ARGUMENT, "%s loaded",
           path);
    check_err(err, path, where);
    CHECK(deg == NULL);
}

static void edge_list(void)
{
    /* 0->1, 1->2, 2->2 (self-loop), 0->5; vertices 0..5 */
    const char *p = put_text("g.txt", "# a comment\n0 1\n\n% another\n1\t2\r\n  2 2 0.5\n0,5\n");
    const uint32_t both[6] = { 2, 2, 3, 0, 0, 1 }, out[6] = { 2, 1, 1, 0, 0, 0 }, in[6] = { 0, 1, 2, 0, 0, 1 };
    degrees_ok(p, DRTOPK_DEG_BOTH, both, 6);
    degrees_ok(p, DRTOPK_DEG_OUT, out, 6);
    degrees_ok(p, DRTOPK_DEG_IN, in, 6);
    degrees_ok(put_text("g.txt.gz", "0 1\n1 2\n2 2\n0 5\n"), DRTOPK_DEG_BOTH, both, 6);
    degrees_bad(put_text("bad1.txt", "0 1\n1 x\n"), DRTOPK_DEG_BOTH, "line 2");
    degrees_bad(put_text("bad2.txt", "0 1\n-1 2\n"), DRTOPK_DEG_BOTH, "line 2");
    degrees_bad(put_text("bad3.txt", "0 1\n7\n"), DRTOPK_DEG_BOTH, "line 2");
    degrees_bad(put_text("bad4.txt", "0 99999999999\n"), DRTOPK_DEG_BOTH, "line 1");
    degrees_bad(put_text("none.txt", "# only comments\n\n"), DRTOPK_DEG_BOTH, "no edges");
    degrees_bad(put_text("empty.txt", ""), DRTOPK_DEG_BOTH, "no edges");
}

static void matrix_market(void)
{
    const char *gen = put_text("g.mtx", "%%MatrixMarket matrix coordinate real general\n% c\n3 3 3\n1 2 0.5\n1 3 1\n"
                                        "3 1 2\n");
    const uint32_t both[3] = { 3, 1, 2 }, out[3] = { 2, 0, 1 }, in[3] = { 1, 1, 1 };
    degrees_ok(gen, DRTOPK_DEG_BOTH, both, 3);
    degrees_ok(gen, DRTOPK_DEG_OUT, out, 3);
    degrees_ok(gen, DRTOPK_DEG_IN, in, 3);
    /* symmetric, 4 x 4 with vertex 3 isolated: 2-1, 3-1, 2-2 */
    const char *sym = put_text("s.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 3\n2 1\n3 1\n2 2\n");
    const uint32_t sboth[4] = { 2, 3, 1, 0 };
    degrees_ok(sym, DRTOPK_DEG_BOTH, sboth, 4);
    degrees_bad(sym, DRTOPK_DEG_OUT, "undirected");
    degrees_bad(put_text("b1.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n"), DRTOPK_DEG_BOTH,
                "line 1");
    degrees_bad(put_text("b2.mtx", "hello\n"), DRTOPK_DEG_BOTH, "line 1");
    degrees_bad(put_text("b3.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 1\n4 1 1\n"),
                DRTOPK_DEG_BOTH, "line 4");
    degrees_bad(put_text("b4.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 1\n2 1 1\n"),
                DRTOPK_DEG_BOTH, "truncated");
    degrees_bad(put_text("b5.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 1\n2 1 1\n"),
                DRTOPK_DEG_BOTH, "line 4");
    degrees_bad(put_text("b6.mtx", "%%MatrixMarket matrix coordinate real general\n3 x 1\n"), DRTOPK_DEG_BOTH,
                "line 2");
    degrees_bad(put_text("b7.mtx", "%%MatrixMarket matrix coordinate real general\n% only\n"), DRTOPK_DEG_BOTH,
                "truncated");
    degrees_bad(put_text("b8.mtx", ""), DRTOPK_DEG_BOTH, "empty");
}

static void graph_tool(void)
{
    const uint32_t both[3] = { 3, 1, 2 }, out[3] = { 2, 0, 1 }, in[3] = { 1, 1, 1 };
    blob d = gt3(1, 0), u = gt3(0, 0), b = gt3(1, 1);
    char name[64];
    degrees_ok(put("d.gt", d.b, d.n), DRTOPK_DEG_BOTH, both, 3);
    degrees_ok(put("d.gt", d.b, d.n), DRTOPK_DEG_OUT, out, 3);
    degrees_ok(put("d.gt", d.b, d.n), DRTOPK_DEG_IN, in, 3);
    degrees_ok(put("d.gt.gz", d.b, d.n), DRTOPK_DEG_BOTH, both, 3);
    degrees_ok(put("b.gt", b.b, b.n), DRTOPK_DEG_OUT, out, 3);
    degrees_ok(put("u.gt", u.b, u.n), DRTOPK_DEG_BOTH, both, 3);
    degrees_bad(put("u.gt", u.b, u.n), DRTOPK_DEG_IN, "undirected");
    for (size_t cut = 0; cut < d.n; ++cut) {
        snprintf(name, sizeof name, "cut%zu.gt", cut);
        degrees_bad(put(name, d.b, cut), DRTOPK_DEG_BOTH, "byte");
    }
    d.b[0] ^= 1;
    degrees_bad(put("magic.gt", d.b, d.n), DRTOPK_DEG_BOTH, "byte 0");
    d.b[0] ^= 1;
    d.b[6] = 2;
    degrees_bad(put("version.gt", d.b, d.n), DRTOPK_DEG_BOTH, "byte 6");
    d.b[6] = 1;
    d.b[27 + 8] = 3;                 /* the first neighbour of vertex 0 (byte 35) is 3 = N */
    degrees_bad(put("nbr.gt", d.b, d.n), DRTOPK_DEG_BOTH, "byte 35");
    d.b[27 + 8] = 1;
    d.b[d.n++] = 0;
    degrees_bad(put("trail.gt", d.b, d.n), DRTOPK_DEG_BOTH, "trailing");
    /* 256 vertices take 2-byte ids: vertex 0 -> 255 */
    blob w = gt3(1, 0);
    w.n = 19;                        /* up to the vertex count */
    put_le(&w, 256, 8);
    put_le(&w, 1, 8);
    put_le(&w, 255, 2);
    for (int v = 1; v < 256; ++v) put_le(&w, 0, 8);
    put_le(&w, 0, 8);
    char err[ERR_LEN] = "";
    uint32_t *deg;
    uint64_t n;
    CHECKF(dh_ds_load_degrees(put("w.gt", w.b, w.n), DRTOPK_DEG_IN, &deg, &n, err, sizeof err) == DRTOPK_OK,
           "%s", err);
    CHECK(n == 256 && deg[255] == 1 && deg[0] == 0);
    free(deg);
}

/* ---- scores ------------------------------------------------------------------------ */

static void scores_ok(const char *path, const char *col, const float *want, uint64_t n)
{
    char err[ERR_LEN] = "";
    float *v;
    uint64_t got;
    drtopk_status st = dh_ds_load_scores(path, col, &v, &got, err, sizeof err);
    CHECKF(st == DRTOPK_OK, "%s: %s", path, err);
    CHECK_EQ_U64(got, n);
    for (uint64_t i = 0; i < n; ++i) CHECKF(v[i] == want[i], "%s[%" PRIu64 "] = %g, want %g", col, i, v[i], want[i]);
    free(v);
}

static void scores_bad(const char *path, const char *col, const char *where)
{
    char err[ERR_LEN] = "";
    float *v = NULL;
    uint64_t n;
    CHECKF(dh_ds_load_scores(path, col, &v, &n, err, sizeof err) == DRTOPK_ERR_INVALID_ARGUMENT, "%s loaded", path);
    check_err(err, path, where);
    CHECK(v == NULL);
}

static void csv(void)
{
    const char *p = put_text("t.csv", "\xEF\xBB\xBF" "id,text,favorites\r\n"
                                      "1,\"hello, \"\"world\"\"\",10\r\n"
                                      "2,\"two\nlines\",2.5\n"
                                      "3,plain, -7 \n\n");
    const float fav[3] = { 10, 2.5f, -7 }, id[3] = { 1, 2, 3 };
    scores_ok(p, "favorites", fav, 3);
    scores_ok(p, "id", id, 3);
    const float a[2] = { 1, 3 };
    scores_ok(put_text("t.tsv", "a\tb\n1\t,2\n3\t4e2\n"), "a", a, 2);
    scores_bad(put_text("c1.tsv", "a\tb\n1\t,2\n3\t4e2\n"), "b", "line 2");     /* ",2" is junk */
    scores_bad(p, "nope", "line 1");
    scores_bad(put_text("nan.csv", "a,b\n1,2\nNaN,3\n"), "a", "line 3");
    scores_bad(put_text("inf.csv", "a,b\n1,2\ninf,3\n"), "a", "line 3");
    scores_bad(put_text("junk.csv", "a,b\n1,2\n12abc,3\n"), "a", "line 3");
    scores_bad(put_text("blank.csv", "a,b\n1,2\n,3\n"), "a", "line 3");
    scores_bad(put_text("big.csv", "a,b\n1e39,2\n"), "a", "line 2");
    scores_bad(put_text("fields.csv", "a,b\n1,2\n3\n"), "a", "line 3");
    scores_bad(put_text("quote.csv", "a,b\n1,\"open\n2,3\n"), "a", "line 2");
    scores_bad(put_text("after.csv", "a,b\n1,\"x\"y\n"), "a", "line 2");
    scores_bad(put_text("empty.csv", ""), "a", "empty");
    scores_bad(put_text("head.csv", "a,b\n"), "a", "no data rows");
    /* the line of a record after a quoted newline counts that newline */
    scores_bad(put_text("late.csv", "a,b\n1,\"x\ny\"\nq,2\n"), "a", "line 4");
}

/* ---- writing and Table 1's facts ----------------------------------------------------- */

static uint64_t file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (uint64_t)sb.st_size : UINT64_MAX;
}

static void write_and_tile(void)
{
    const uint32_t v[3] = { 7, 8, 0x01020304u };
    char path[PATH_LEN], err[ERR_LEN];
    unsigned char got[7 * 4];
    snprintf(path, sizeof path, "%s/w.u32", tmpdir());
    CHECK_STATUS(dh_ds_write(path, v, 3, 7, NULL, NULL, err, sizeof err), DRTOPK_OK);
    CHECK_EQ_U64(file_size(path), 7 * 4);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL && fread(got, 1, sizeof got, f) == sizeof got);
    fclose(f);
    const uint32_t want[7] = { 7, 8, 0x01020304u, 7, 8, 0x01020304u, 7 };
    for (int i = 0; i < 7; ++i) {
        const uint32_t x = (uint32_t)got[4 * i] | (uint32_t)got[4 * i + 1] << 8 | (uint32_t)got[4 * i + 2] << 16 |
                           (uint32_t)got[4 * i + 3] << 24;
        CHECKF(x == want[i], "element %d: %u != %u (little-endian)", i, x, want[i]);
    }
    /* tile below n: refused, the old file untouched */
    CHECK_STATUS(dh_ds_write(path, v, 3, 2, NULL, NULL, err, sizeof err), DRTOPK_ERR_INVALID_ARGUMENT);
    CHECK_EQ_U64(file_size(path), 7 * 4);
    /* an unwritable place: an error and no file */
    CHECK_STATUS(dh_ds_write("/nonexistent/dir/x.u32", v, 3, 0, NULL, NULL, err, sizeof err), DRTOPK_ERR_IO);
    CHECK(strstr(err, "/nonexistent/dir/x.u32") != NULL);
}

static void stats(void)
{
    /* [5 3 5 1] tiled to 6: 5 3 5 1 5 3 -> 5 x3, 3 x2, 1 x1 */
    const uint32_t v[4] = { 5, 3, 5, 1 };
    const uint64_t ks[3] = { 1, 4, 99 };
    char path[PATH_LEN], err[ERR_LEN], text[1024];
    snprintf(path, sizeof path, "%s/s.tsv", tmpdir());
    CHECK_STATUS(dh_ds_write_stats(path, "toy", v, 4, DRTOPK_U32, 6, ks, 3, err, sizeof err), DRTOPK_OK);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    CHECKF(strcmp(text, "name\tn\tdistinct\torder\tk\tkth_value\tties_at_k\n"
                        "toy\t6\t3\tlargest\t1\t5\t3\n"
                        "toy\t6\t3\tlargest\t4\t3\t2\n"
                        "toy\t6\t3\tsmallest\t1\t1\t1\n"
                        "toy\t6\t3\tsmallest\t4\t5\t3\n") == 0, "stats:\n%s", text);
    /* floats: -0.0 equals +0.0 (one value), negatives order below */
    const float fv[4] = { -0.0f, 0.0f, -2.5f, 1.5f };
    const uint64_t k2[1] = { 2 };
    CHECK_STATUS(dh_ds_write_stats(path, "f", fv, 4, DRTOPK_F32, 0, k2, 1, err, sizeof err), DRTOPK_OK);
    f = fopen(path, "r");
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    CHECKF(strstr(text, "f\t4\t3\tlargest\t2\t0\t2\n") && strstr(text, "f\t4\t3\tsmallest\t2\t0\t2\n"), "%s", text);
}

/* the fixtures go with the test program */
__attribute__((destructor)) static void remove_fixtures(void)
{
    char cmd[PATH_LEN + 16];
    if (dir[0] == '\0') return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "test_dataset: could not remove %s\n", dir);
}

__attribute__((constructor)) static void register_dataset_tests(void)
{
    test_register("dataset_knn_values", knn_values);
    test_register("dataset_vector_formats", vector_formats);
    test_register("dataset_vector_errors", vector_errors);
    test_register("dataset_edge_list", edge_list);
    test_register("dataset_matrix_market", matrix_market);
    test_register("dataset_graph_tool", graph_tool);
    test_register("dataset_csv", csv);
    test_register("dataset_write_and_tile", write_and_tile);
    test_register("dataset_stats", stats);
}
