/*
 * test_knn.c -- the GPU k-NN distances of `drtopk dataset knn` (knn_device.cu;
 * the paper's k-NN input of section 6 / Table 1) against the CPU's
 * (dataset_vectors.c): bit-identical outputs for both metrics on floats of wide
 * magnitude, on 8-bit pixels like Fashion-MNIST's, at dimensions 1 to 1000,
 * over several query batches, and on real Fashion-MNIST when its IDX files are
 * given.  gpu_test.h's lines; exit 77 without a GPU.
 *   test_knn [--small] [--fmnist DIR]
 * --small leaves out the 2^20-vector case (compute-sanitizer); DIR holds
 * train-images-idx3-ubyte.gz (default: experiments/datasets.sh's copy in
 * out/datasets/src, else the package's folder; skipped when neither has it).
 */
#include "dataset.h"
#include "device.h"
#include "gpu_test.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LCG_MUL 6364136223846793005ull   /* Knuth's MMIX LCG */
#define LCG_ADD 1442695040888963407ull
#define EXP_SPAN 20                      /* floats from 2^-10 to 2^10: rounding matters */
#define PIXEL_LEVELS 256
#define FMNIST_QUERIES 16
#define PATH_LEN 1024
#define BIG_COUNT (1u << 20)             /* the batching case, left out by --small */
static const char *const fmnist_dirs[] = { "out/datasets/src", "/usr/share/datasets/fashion-mnist" };
#define FMNIST_FILE "train-images-idx3-ubyte.gz"

static uint64_t lcg(uint64_t *s)
{
    *s = *s * LCG_MUL + LCG_ADD;
    return *s >> 33;
}

/* count vectors of dim values: wide-magnitude floats, or pixels 0..255 */
static dh_ds_vectors make(uint64_t count, uint32_t dim, int pixels, uint64_t seed)
{
    dh_ds_vectors v;
    memset(&v, 0, sizeof v);
    v.count = v.capacity = count;
    v.dim = dim;
    v.data = (float *)malloc((size_t)count * dim * sizeof(float));
    for (uint64_t i = 0; i < count * dim; ++i) {
        const uint64_t r = lcg(&seed);
        v.data[i] = pixels ? (float)(r % PIXEL_LEVELS)
                           : ldexpf((float)(r & 0xFFFFFF) / (float)0x1000000 - 0.5f, (int)(r >> 24) % EXP_SPAN - EXP_SPAN / 2);
    }
    return v;
}

static void compare(const char *what, const dh_ds_vectors *v, uint64_t nq)
{
    for (int m = 0; m < DRTOPK_METRIC_COUNT; ++m) {
        const size_t n = (size_t)nq * v->count;
        float *cpu = (float *)malloc(n * sizeof(float)), *gpu = (float *)malloc(n * sizeof(float));
        dh_knn_host(v, nq, (dh_ds_metric)m, cpu, NULL, NULL);
        const drtopk_status st = dh_knn_device(v, nq, (dh_ds_metric)m, gpu, NULL, NULL);
        size_t bad = n;
        if (st == DRTOPK_OK)
            for (size_t i = 0; i < n && bad == n; ++i)
                if (memcmp(&cpu[i], &gpu[i], sizeof(float)) != 0) bad = i;
        char name[GT_NAME_MAX];
        snprintf(name, sizeof name, "%s: %" PRIu64 " queries x %" PRIu64 " vectors of dim %u, %s: GPU == CPU bits",
                 what, nq, v->count, v->dim, dh_ds_metric_name((dh_ds_metric)m));
        if (st != DRTOPK_OK) gt_check(0, name, "dh_knn_device: %s", drtopk_status_string(st));
        else gt_check(bad == n, name, "element %zu: CPU %.9g, GPU %.9g", bad, bad < n ? cpu[bad] : 0.0,
                      bad < n ? gpu[bad] : 0.0);
        free(cpu);
        free(gpu);
    }
}

int main(int argc, char **argv)
{
    gt_begin();
    const char *fmnist = NULL;
    char path[PATH_LEN], err[PATH_LEN];
    int small = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--fmnist") == 0 && i + 1 < argc) fmnist = argv[++i];
        else if (strcmp(argv[i], "--small") == 0) small = 1;
        else {
            fprintf(stderr, "usage: %s [--small] [--fmnist DIR]\n", argv[0]);
            return 2;
        }
    }
    for (size_t i = 0; fmnist == NULL && i < sizeof fmnist_dirs / sizeof fmnist_dirs[0]; ++i) {
        FILE *f;
        snprintf(path, sizeof path, "%s/" FMNIST_FILE, fmnist_dirs[i]);
        if ((f = fopen(path, "rb")) != NULL) {
            fclose(f);
            fmnist = fmnist_dirs[i];
        }
    }
    if (!dh_cuda_available() || dh_dev_select(0) != DRTOPK_OK) return gt_no_gpu("test_knn");
    static const struct { uint64_t count; uint32_t dim; uint64_t nq; int pixels; } cases[] = {
        { 1, 1, 1, 0 }, { 257, 3, 5, 0 }, { 5000, 128, 7, 0 }, { 3001, 784, 9, 1 }, { 2000, 1000, 3, 0 },
        { BIG_COUNT, 1, 130, 0 },             /* 64 queries per 256 MiB batch: three batches */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        if (small && cases[c].count == BIG_COUNT) continue;
        dh_ds_vectors v = make(cases[c].count, cases[c].dim, cases[c].pixels, c + 1);
        compare(cases[c].pixels ? "pixels" : "floats", &v, cases[c].nq);
        dh_ds_vectors_free(&v);
    }
    if (fmnist && !small) {
        dh_ds_vectors v;
        memset(&v, 0, sizeof v);
        snprintf(path, sizeof path, "%s/" FMNIST_FILE, fmnist);
        drtopk_status st = dh_ds_load_vectors(path, &v, err, sizeof err);
        if (st == DRTOPK_OK) compare("Fashion-MNIST", &v, FMNIST_QUERIES);
        else gt_check(0, "Fashion-MNIST loads", "%s", err);
        dh_ds_vectors_free(&v);
    } else {
        gt_skipf(small ? "--small" : "no " FMNIST_FILE " (--fmnist DIR)", "Fashion-MNIST: GPU == CPU bits");
    }
    return gt_finish();
}
