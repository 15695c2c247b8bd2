/*
 * dataset.h -- loaders of real-world data (paper section 6, Table 1 and
 * Figure 19: ANN_SIFT1B k-NN distances, ClueWeb09 vertex degrees, Twitter
 * scores) into the raw vectors `drtopk run --input` reads (.f32 / .u32,
 * little-endian, no header; gen.h).
 *
 *   vectors  SIFT-style .fvecs / .bvecs / .ivecs and IDX (*-idx3-ubyte, as
 *            MNIST ships), each optionally gzip-compressed (.gz)
 *   graphs   edge lists (text, '#' or '%' comments), Matrix Market .mtx
 *            (coordinate), graph-tool's binary .gt; degree per vertex
 *   scores   one numeric column of a CSV / TSV with a header row
 *
 * Every loader checks headers, sizes and values and fails with the file, the
 * byte offset or line, and what was expected (status
 * DRTOPK_ERR_INVALID_ARGUMENT for bad input, DRTOPK_ERR_IO when the file
 * cannot be read); `err` (may be NULL) receives that message.  Loaders size
 * their memory from what the file holds (vectors, edges and records read),
 * never from a header's count or an id alone.  The writers write the path
 * they are given: callers pass temporaries of util.h's dh_outputs and
 * commit OUT and its statistics together, so each is the whole result or
 * untouched.  --cpu-only builds compute k-NN distances on
 * the CPU (dataset_stub.c); the CUDA build has knn_device.cu.
 */
#ifndef DRTOPK_DATASET_H
#define DRTOPK_DATASET_H
#include "drtopk.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Called now and then by long steps with the work done so far and the total
 * (same unit); may be NULL. */
typedef void (*dh_ds_progress)(void *ctx, uint64_t done, uint64_t total);

/* ---- vectors and k-NN distances ---------------------------------------- */

typedef struct {
    float *data;            /* count * dim values, row-major (malloc'ed) */
    uint64_t count;
    uint64_t capacity;      /* vectors data has room for */
    uint32_t dim;
} dh_ds_vectors;

/* Append the vectors of `path` to `v` (zeroed on first use); the dimension
 * must equal the vectors already held. */
drtopk_status dh_ds_load_vectors(const char *path, dh_ds_vectors *v, char *err, size_t err_len);
void dh_ds_vectors_free(dh_ds_vectors *v);

typedef enum { DRTOPK_METRIC_L2 = 0, DRTOPK_METRIC_SQL2, DRTOPK_METRIC_COUNT } dh_ds_metric;
const char *dh_ds_metric_name(dh_ds_metric m);                     /* "l2", "sql2" */
drtopk_status dh_ds_metric_parse(const char *s, dh_ds_metric *m);

/* out[q * count + j] = distance from vector q (q < nq) to vector j.  Every
 * term and sum in double, in dimension order, with no fused operations, then
 * rounded to float once: the CPU and the GPU give identical bits. */
void dh_knn_host(const dh_ds_vectors *v, uint64_t nq, dh_ds_metric m, float *out,
                 dh_ds_progress progress, void *ctx);
/* The same on the current CUDA device (knn_device.cu); out is host memory.
 * DRTOPK_ERR_NO_BACKEND in a --cpu-only build (dataset_stub.c). */
drtopk_status dh_knn_device(const dh_ds_vectors *v, uint64_t nq, dh_ds_metric m, float *out,
                            dh_ds_progress progress, void *ctx);

/* ---- graphs: degree per vertex ----------------------------------------- */

typedef enum { DRTOPK_DEG_BOTH = 0, DRTOPK_DEG_OUT, DRTOPK_DEG_IN } dh_ds_direction;

/* *deg (malloc'ed) gets the degree of vertices 0..*n-1: the edge endpoints at
 * each vertex (a self-loop counts twice), or for DRTOPK_DEG_OUT / _IN only
 * the edges leaving / entering it, which an undirected graph refuses. */
drtopk_status dh_ds_load_degrees(const char *path, dh_ds_direction dir, uint32_t **deg, uint64_t *n,
                                 char *err, size_t err_len);

/* ---- scores: one CSV / TSV column --------------------------------------- */

/* *vals (malloc'ed) gets the column named `column` of every data row. */
drtopk_status dh_ds_load_scores(const char *path, const char *column, float **vals, uint64_t *n,
                                char *err, size_t err_len);

/* ---- output ---------------------------------------------------------------- */

/* Write `n` 4-byte elements, repeated to `tile` elements when tile > 0 (the
 * last copy cut short; tile < n is refused), to `path`. */
drtopk_status dh_ds_write(const char *path, const void *data, uint64_t n, uint64_t tile,
                          dh_ds_progress progress, void *ctx, char *err, size_t err_len);

/* Table 1's facts of the vector `data` (n elements of type t) repeated to
 * `tile` elements (0: as it is): distinct values, and for each k of `ks`
 * (k <= the tiled size) and both orders the k-th value and how many elements
 * equal it (ties at k).  One TSV row per (order, k) to `path`:
 * name n distinct order k kth_value ties_at_k. */
drtopk_status dh_ds_write_stats(const char *path, const char *name, const void *data, uint64_t n,
                                drtopk_dtype t, uint64_t tile, const uint64_t *ks, int nks,
                                char *err, size_t err_len);

#ifdef __cplusplus
}
#endif
#endif
