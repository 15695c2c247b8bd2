/*
 * dataset_cmd.c -- `drtopk dataset`: real data into the raw vectors `drtopk
 * run --input` reads, for the paper's real-world inputs (section 6, Table 1,
 * Figure 19): k-NN distances (its ANN_SIFT1B), vertex degrees (ClueWeb09)
 * and per-row scores (TwitterCOVID-19), optionally tiled to a size as the
 * paper tiled its Twitter data, with Table 1's facts on request.  The
 * loaders are the harness's dataset*.c; input errors exit 2 naming the file,
 * the byte or line and what was expected, and OUT (with its statistics) is
 * written atomically.
 */
#include "cli.h"
#include "dataset.h"
#include "device.h"
#include "gen.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VECTOR_FILES 16           /* --vectors may repeat (e.g. MNIST's train + test files) */
#define MAX_STATS_K 64
#define ERR_LEN 1024
#define PROGRESS_EVERY_MS 2000.0      /* one progress line at most this often */
#define PROGRESS_AFTER_MS 1000.0      /* quick steps print nothing */
#define MS_PER_S 1e3
#define PERCENT 100.0
/* Table 1's k when --stats-k is not given: 2^0, 2^4, ..., 2^24 (Figure 19's range) */
#define STATS_K_DEFAULT_LOG_STEP 4
#define STATS_K_DEFAULT_LOG_MAX 24

const char help_dataset[] =
    "usage: drtopk dataset knn --vectors FILE [--vectors FILE2 ...] --queries M --out OUT.f32 [options]\n"
    "       drtopk dataset degrees --graph FILE --out OUT.u32 [--direction out|in] [options]\n"
    "       drtopk dataset scores --csv FILE --column NAME --out OUT.f32 [options]\n"
    "\n"
    "Real data as a raw vector for `drtopk run --input OUT`.\n"
    "  knn      distances from each of the first M vectors (the queries) to every vector,\n"
    "           query after query; FILE is .fvecs, .bvecs, .ivecs or IDX (*-idx3-ubyte), each\n"
    "           optionally .gz; several --vectors are concatenated in order\n"
    "  degrees  degree of vertices 0..max id: edge endpoints at each (a self-loop counts\n"
    "           twice), or with --direction only the edges leaving (out) or entering (in);\n"
    "           FILE is an edge list 'u v' per line ('#' or '%' comments), Matrix Market\n"
    "           .mtx (coordinate; 1-based) or graph-tool .gt, each optionally .gz\n"
    "  scores   the numeric column NAME of every data row of a CSV (.tsv/.tab: tab-separated)\n"
    "           with a header row; quoted fields may hold delimiters, quotes (\"\") and newlines\n"
    "\n"
    "options:\n"
    "  --out FILE        the raw little-endian vector (.f32; .u32 for degrees), written atomically\n"
    "  --tile N          repeat the vector to N elements (N at least its size)\n"
    "  --metric l2|sql2  knn: Euclidean (default) or squared Euclidean distance\n"
    "  --backend cuda|cpu, --gpu G   knn: where to compute (default: the GPU when one is usable)\n"
    "  --stats FILE.tsv  Table 1's facts: distinct values and, per order and k, the k-th value\n"
    "                    and its ties; --stats-k LIST (default 2^0,2^4,...,2^24), --name NAME\n"
    "  --quiet           no progress lines\n"
    "\n"
    "Bad input exits 2 with the file, the byte offset or line, and what was expected.\n";

enum {
    D_VECTORS, D_QUERIES, D_METRIC, D_BACKEND, D_GPU, D_GRAPH, D_DIRECTION, D_CSV, D_COLUMN,
    D_OUT, D_TILE, D_STATS, D_STATS_K, D_NAME, D_QUIET, D_HELP
};

typedef struct {
    const char *vectors[MAX_VECTOR_FILES];
    int nvectors;
    uint64_t queries, tile, ks[MAX_STATS_K];
    int have_queries, nks, gpu, quiet, help, backend_cpu, have_backend, have_gpu;
    dh_ds_metric metric;
    dh_ds_direction direction;
    const char *graph, *csv, *column, *out, *stats, *name;
} ds_cfg;

static const opt_spec knn_specs[] = {
    { "vectors", D_VECTORS, 1 }, { "queries", D_QUERIES, 1 }, { "metric", D_METRIC, 1 },
    { "backend", D_BACKEND, 1 }, { "gpu", D_GPU, 1 },
    { "out", D_OUT, 1 }, { "tile", D_TILE, 1 }, { "stats", D_STATS, 1 }, { "stats-k", D_STATS_K, 1 },
    { "name", D_NAME, 1 }, { "quiet", D_QUIET, 0 }, { "help", D_HELP, 0 }, { NULL, 0, 0 }
};
static const opt_spec degrees_specs[] = {
    { "graph", D_GRAPH, 1 }, { "direction", D_DIRECTION, 1 },
    { "out", D_OUT, 1 }, { "tile", D_TILE, 1 }, { "stats", D_STATS, 1 }, { "stats-k", D_STATS_K, 1 },
    { "name", D_NAME, 1 }, { "quiet", D_QUIET, 0 }, { "help", D_HELP, 0 }, { NULL, 0, 0 }
};
static const opt_spec scores_specs[] = {
    { "csv", D_CSV, 1 }, { "column", D_COLUMN, 1 },
    { "out", D_OUT, 1 }, { "tile", D_TILE, 1 }, { "stats", D_STATS, 1 }, { "stats-k", D_STATS_K, 1 },
    { "name", D_NAME, 1 }, { "quiet", D_QUIET, 0 }, { "help", D_HELP, 0 }, { NULL, 0, 0 }
};

static int parse_ks(const char *val, ds_cfg *c)
{
    char buf[ERR_LEN];
    c->nks = 0;
    if (strlen(val) >= sizeof buf) return usage_error("--stats-k: list too long");
    strcpy(buf, val);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (c->nks == MAX_STATS_K) return usage_error("--stats-k: more than %d values", MAX_STATS_K);
        if (dh_parse_u64(t, &c->ks[c->nks]) != 0 || c->ks[c->nks] == 0)
            return usage_error("--stats-k: '%s' is not a positive size (e.g. 1,2^10,2^20)", t);
        ++c->nks;
    }
    return c->nks ? 0 : usage_error("--stats-k: empty list");
}

static int ds_option(void *ctx, int id, const char *opt, const char *val)
{
    ds_cfg *c = (ds_cfg *)ctx;
    uint64_t g;
    switch (id) {
    case D_VECTORS:
        if (c->nvectors == MAX_VECTOR_FILES) return usage_error("more than %d --vectors files", MAX_VECTOR_FILES);
        c->vectors[c->nvectors++] = val;
        return 0;
    case D_QUERIES: c->have_queries = 1; return parse_size(opt, val, &c->queries);
    case D_METRIC:
        return dh_ds_metric_parse(val, &c->metric) == DRTOPK_OK ? 0
               : usage_error("--metric: unknown metric '%s' (l2 or sql2)", val);
    case D_BACKEND:
        c->have_backend = 1;
        if (strcmp(val, "cpu") == 0) c->backend_cpu = 1;
        else if (strcmp(val, "cuda") == 0) c->backend_cpu = 0;
        else return usage_error("--backend: unknown backend '%s' (cuda or cpu)", val);
        return 0;
    case D_GPU:
        if (dh_parse_u64(val, &g) != 0 || g > INT32_MAX) return usage_error("--gpu: '%s' is not a GPU index", val);
        c->gpu = (int)g;
        c->have_gpu = 1;
        return 0;
    case D_GRAPH: c->graph = val; return 0;
    case D_DIRECTION:
        if (strcmp(val, "out") == 0) c->direction = DRTOPK_DEG_OUT;
        else if (strcmp(val, "in") == 0) c->direction = DRTOPK_DEG_IN;
        else return usage_error("--direction: '%s' is neither out nor in (leave it out for both)", val);
        return 0;
    case D_CSV: c->csv = val; return 0;
    case D_COLUMN: c->column = val; return 0;
    case D_OUT: c->out = val; return 0;
    case D_TILE:
        if (parse_size(opt, val, &c->tile) != 0) return EXIT_USAGE;
        return c->tile ? 0 : usage_error("--tile 0: give the number of elements to repeat the vector to");
    case D_STATS: c->stats = val; return 0;
    case D_STATS_K: return parse_ks(val, c);
    case D_NAME: c->name = val; return 0;
    case D_QUIET: c->quiet = 1; return 0;
    case D_HELP: c->help = 1; return 0;
    default: return usage_error("internal: unhandled option --%s", opt);
    }
}

/* ---- progress with ETA on stderr ------------------------------------------ */

typedef struct {
    const char *what, *unit;
    double t0, last;
    int quiet;
} progress_state;

static void progress_start(progress_state *p, int quiet, const char *what, const char *unit)
{
    p->what = what;
    p->unit = unit;
    p->t0 = p->last = dh_now_ms();
    p->quiet = quiet;
}

static void progress_cb(void *ctx, uint64_t done, uint64_t total)
{
    progress_state *p = (progress_state *)ctx;
    const double now = dh_now_ms(), spent = now - p->t0;
    if (p->quiet || spent < PROGRESS_AFTER_MS || (now - p->last < PROGRESS_EVERY_MS && done < total)) return;
    p->last = now;
    const double eta = done ? spent * (double)(total - done) / (double)done : 0.0;
    fprintf(stderr, "drtopk: %s: %.0f%% (%" PRIu64 " of %" PRIu64 " %s), %.0f s so far, ETA %.0f s\n", p->what,
            PERCENT * (double)done / (double)total, done, total, p->unit, spent / MS_PER_S, eta / MS_PER_S);
}

/* ---- the three commands ------------------------------------------------------ */

/* an input error (the loader's message) exits 2; running out of memory 1 */
static int load_error(drtopk_status st, const char *err)
{
    return st == DRTOPK_ERR_OUT_OF_MEMORY ? runtime_error("%s", err) : usage_error("%s", err);
}

static int check_out(const ds_cfg *c, drtopk_dtype want)
{
    drtopk_dtype t;
    if (c->out == NULL) return usage_error("missing --out FILE.%s", drtopk_dtype_name(want));
    if (dh_dtype_from_path(c->out, &t) != DRTOPK_OK || t != want)
        return usage_error("--out %s: name the file *.%s (the element type `drtopk run --input` reads from it)", c->out,
                           drtopk_dtype_name(want));
    return 0;
}

/* write OUT (tiled) and the statistics, both or neither; prints one line about OUT */
static int finish(const ds_cfg *c, const void *data, uint64_t n, drtopk_dtype t, const char *what)
{
    char err[ERR_LEN];
    progress_state p;
    drtopk_status st = DRTOPK_OK;
    dh_outputs outs = { 0 };
    const char *tmp_out, *tmp_stats = NULL;
    const uint64_t total = c->tile ? c->tile : n;
    if (c->tile && c->tile < n)
        return usage_error("--tile %" PRIu64 " is smaller than the %" PRIu64 " elements of %s: tiling repeats the "
                           "vector and never cuts it", c->tile, n, what);
    if (dh_outputs_add(&outs, c->out, &tmp_out, err, sizeof err) != 0 ||
        (c->stats && dh_outputs_add(&outs, c->stats, &tmp_stats, err, sizeof err) != 0)) {
        dh_outputs_abort(&outs);
        return runtime_error("%s", err);
    }
    progress_start(&p, c->quiet, "writing", "elements");
    st = dh_ds_write(tmp_out, data, n, c->tile, progress_cb, &p, err, sizeof err);
    if (st == DRTOPK_OK && c->stats) {
        const char *name = c->name ? c->name : c->out;
        uint64_t ks[MAX_STATS_K];
        int nks = c->nks;
        memcpy(ks, c->ks, sizeof ks);
        if (nks == 0)
            for (int l = 0; l <= STATS_K_DEFAULT_LOG_MAX; l += STATS_K_DEFAULT_LOG_STEP) ks[nks++] = 1ull << l;
        st = dh_ds_write_stats(tmp_stats, name, data, n, t, c->tile, ks, nks, err, sizeof err);
    }
    if (st != DRTOPK_OK) {
        dh_outputs_abort(&outs);
        return runtime_error("%s", err);
    }
    if (dh_outputs_commit(&outs, err, sizeof err) != 0) return runtime_error("%s", err);
    printf("wrote %s: %" PRIu64 " %s elements (%s", c->out, total, drtopk_dtype_name(t), what);
    if (c->tile) printf(", tiled from %" PRIu64, n);
    printf(")\n");
    return 0;
}

static int cmd_knn(ds_cfg *c)
{
    char err[ERR_LEN], what[256];
    dh_ds_vectors v;
    drtopk_status st = DRTOPK_OK;
    progress_state p;
    int rc;
    if (c->nvectors == 0) return usage_error("missing --vectors FILE (.fvecs, .bvecs, .ivecs or IDX)");
    if (!c->have_queries || c->queries == 0) return usage_error("missing --queries M (at least 1 query vector)");
    if ((rc = check_out(c, DRTOPK_F32)) != 0) return rc;
    if (c->have_gpu && c->backend_cpu) return usage_error("--gpu applies only to --backend cuda");
    const int use_gpu = !c->backend_cpu && dh_cuda_available();
    if (c->have_backend && !c->backend_cpu && !use_gpu)
        return usage_error("--backend cuda: no usable CUDA GPU (this build has no CUDA backend or no GPU is visible); "
                           "use --backend cpu");
    memset(&v, 0, sizeof v);
    for (int i = 0; i < c->nvectors && st == DRTOPK_OK; ++i) st = dh_ds_load_vectors(c->vectors[i], &v, err, sizeof err);
    if (st != DRTOPK_OK) {
        dh_ds_vectors_free(&v);
        return load_error(st, err);
    }
    if (c->queries > v.count) {
        rc = usage_error("--queries %" PRIu64 " is more than the %" PRIu64 " vectors of the input", c->queries, v.count);
        dh_ds_vectors_free(&v);
        return rc;
    }
    if (v.count > UINT64_MAX / c->queries || c->queries * v.count > SIZE_MAX / sizeof(float)) {
        rc = usage_error("--queries %" PRIu64 " x %" PRIu64 " vectors does not fit this machine's address space",
                         c->queries, v.count);
        dh_ds_vectors_free(&v);
        return rc;
    }
    const uint64_t n = c->queries * v.count;
    if (c->tile && c->tile < n) {           /* before minutes of distances, not after */
        rc = usage_error("--tile %" PRIu64 " is smaller than the %" PRIu64 " distances: tiling repeats the vector "
                         "and never cuts it", c->tile, n);
        dh_ds_vectors_free(&v);
        return rc;
    }
    float *out = NULL;
    if (dh_host_mem_check(n * sizeof *out, "the distances", err, sizeof err) == 0 &&
        (out = (float *)malloc((size_t)n * sizeof *out)) == NULL)
        snprintf(err, sizeof err, "out of host memory for %" PRIu64 " distances", n);
    if (out == NULL) {
        dh_ds_vectors_free(&v);
        return runtime_error("%s", err);
    }
    progress_start(&p, c->quiet, "k-NN distances", "queries");
    if (use_gpu) {
        if ((st = dh_dev_select(c->gpu)) == DRTOPK_OK)
            st = dh_knn_device(&v, c->queries, c->metric, out, progress_cb, &p);
    } else {
        if (!c->quiet && !c->have_backend) fprintf(stderr, "drtopk: no usable CUDA GPU: k-NN distances on the CPU\n");
        dh_knn_host(&v, c->queries, c->metric, out, progress_cb, &p);
    }
    snprintf(what, sizeof what, "%s distances of %" PRIu64 " queries to %" PRIu64 " vectors of dimension %u, on the %s",
             dh_ds_metric_name(c->metric), c->queries, v.count, v.dim, use_gpu ? "GPU" : "CPU");
    dh_ds_vectors_free(&v);
    rc = st == DRTOPK_OK ? finish(c, out, n, DRTOPK_F32, what)
                         : runtime_error("k-NN distances on GPU %d: %s", c->gpu, drtopk_status_string(st));
    free(out);
    return rc;
}

static int cmd_degrees(ds_cfg *c)
{
    char err[ERR_LEN], what[256];
    uint32_t *deg;
    uint64_t n;
    drtopk_status st;
    int rc;
    if (c->graph == NULL) return usage_error("missing --graph FILE (edge list, .mtx or .gt)");
    if ((rc = check_out(c, DRTOPK_U32)) != 0) return rc;
    if ((st = dh_ds_load_degrees(c->graph, c->direction, &deg, &n, err, sizeof err)) != DRTOPK_OK)
        return load_error(st, err);
    snprintf(what, sizeof what, "%s-degrees of the vertices of %s",
             c->direction == DRTOPK_DEG_OUT ? "out" : c->direction == DRTOPK_DEG_IN ? "in" : "total", c->graph);
    rc = finish(c, deg, n, DRTOPK_U32, what);
    free(deg);
    return rc;
}

static int cmd_scores(ds_cfg *c)
{
    char err[ERR_LEN], what[256];
    float *vals;
    uint64_t n;
    drtopk_status st;
    int rc;
    if (c->csv == NULL) return usage_error("missing --csv FILE");
    if (c->column == NULL) return usage_error("missing --column NAME (a column of the header row)");
    if ((rc = check_out(c, DRTOPK_F32)) != 0) return rc;
    if ((st = dh_ds_load_scores(c->csv, c->column, &vals, &n, err, sizeof err)) != DRTOPK_OK)
        return load_error(st, err);
    snprintf(what, sizeof what, "column '%s' of %s", c->column, c->csv);
    rc = finish(c, vals, n, DRTOPK_F32, what);
    free(vals);
    return rc;
}

int cmd_dataset(int argc, char **argv)
{
    static const struct {
        const char *name;
        const opt_spec *specs;
        int (*run)(ds_cfg *);
    } kinds[] = { { "knn", knn_specs, cmd_knn }, { "degrees", degrees_specs, cmd_degrees },
                  { "scores", scores_specs, cmd_scores } };
    ds_cfg c;
    if (argc == 0 || strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
        if (argc == 0) {
            fputs(help_dataset, stderr);
            return usage_error("missing the kind of data: knn, degrees or scores");
        }
        fputs(help_dataset, stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i) {
        if (strcmp(argv[0], kinds[i].name) != 0) continue;
        int rc;
        memset(&c, 0, sizeof c);
        c.metric = DRTOPK_METRIC_L2;
        c.direction = DRTOPK_DEG_BOTH;
        /* "dataset": its messages point to `drtopk help dataset` */
        if ((rc = parse_options("dataset", kinds[i].specs, argc - 1, argv + 1, ds_option, &c)) != 0) return rc;
        if (c.help) {
            fputs(help_dataset, stdout);
            return 0;
        }
        return kinds[i].run(&c);
    }
    return usage_error("dataset: unknown kind '%s' (knn, degrees or scores)", argv[0]);
}
