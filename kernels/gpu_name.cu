/*
 * gpu_name.cu -- the name of the current CUDA device, by which
 * drtopk_plan_auto finds the tuning table compiled into the library for this
 * GPU model (tuning_builtin.c, paper section 5.2).  Read from the per-device
 * attribute cache (device_cache.cu), so planning costs no device query after
 * the first.
 */
#include <stdio.h>

#include "backend.h"
#include "device_common.cuh"

drtopk_status drtopk_cuda_gpu_name(char *name, size_t len)
{
    const drtopk_device_attrs *a;
    drtopk_status st = drtopk_device_current(NULL, &a);
    if (st != DRTOPK_OK) return st;
    snprintf(name, len, "%s", a->name);
    return DRTOPK_OK;
}
