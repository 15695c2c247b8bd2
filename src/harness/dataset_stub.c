/*
 * dataset_stub.c -- the GPU k-NN distances of dataset.h in a --cpu-only build
 * (as device_stub.c for device.h): DRTOPK_ERR_NO_BACKEND, so `drtopk dataset
 * knn` computes on the CPU (drtopk_knn_host) and says why.
 */
#include "dataset.h"

drtopk_status drtopk_knn_device(const drtopk_ds_vectors *v, uint64_t nq, drtopk_ds_metric m, float *out,
                                drtopk_ds_progress progress, void *ctx)
{
    return DRTOPK_ERR_NO_BACKEND;
}
