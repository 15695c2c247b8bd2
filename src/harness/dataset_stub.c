/*
 * dataset_stub.c -- the GPU k-NN distances of dataset.h in a --cpu-only build
 * (as device_stub.c for device.h): DRTOPK_ERR_NO_BACKEND, so `drtopk dataset
 * knn` computes on the CPU (dh_knn_host) and says why.
 */
#include "dataset.h"

drtopk_status dh_knn_device(const dh_ds_vectors *v, uint64_t nq, dh_ds_metric m, float *out,
                            dh_ds_progress progress, void *ctx)
{
    return DRTOPK_ERR_NO_BACKEND;
}
