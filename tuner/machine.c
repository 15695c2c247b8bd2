/*
 * machine.c -- the machine a tuner run measures on (paper section 5.2 tunes
 * per GPU): the GPU's name, UUID, compute capability, memory and versions,
 * and for a measuring run its read bandwidth and the C_global and C_shfl of
 * Eq. 11 (src/harness/microbench.cu); the host for the CPU backend.
 */
#include "machine.h"

#include <stdio.h>
#include <string.h>

#include "device.h"
#include "microbench.h"

#define BW_ELEMS (1ull << 28)       /* 1 GiB read for the bandwidth figure      */
#define BW_REPS 5                   /* reads timed for the bandwidth figure     */

int machine_identify(const options *o, dh_store_machine *mach, int measure_gpu)
{
    if (o->backend == DRTOPK_BACKEND_CPU) {
        dh_store_cpu_machine(mach);
        return 0;
    }
    dh_device_info info;
    drtopk_status st = dh_dev_select(o->gpu);
    if (st == DRTOPK_OK)
        st = dh_dev_info(o->gpu, &info);
    if (st != DRTOPK_OK) {
        fprintf(stderr, "tuner: GPU %d not usable: %s%s\n", o->gpu, drtopk_status_string(st),
                st == DRTOPK_ERR_NO_BACKEND ? " (this build has no CUDA; use --backend cpu)" : "");
        return -1;
    }
    memset(mach, 0, sizeof *mach);
    snprintf(mach->uuid, sizeof mach->uuid, "%s", info.uuid);
    snprintf(mach->name, sizeof mach->name, "%s", info.name);
    mach->backend = "cuda";
    mach->cc_major = info.cc_major;
    mach->cc_minor = info.cc_minor;
    mach->sm_count = info.sm_count;
    mach->mem_bytes = info.mem_bytes;
    mach->l2_bytes = info.l2_bytes;
    mach->driver_version = info.driver_version;
    mach->runtime_version = info.runtime_version;
    if (!measure_gpu)
        return 0;
    void *buf = NULL;
    double ms = 0;
    if (dh_dev_alloc(&buf, BW_ELEMS * sizeof(uint32_t)) == DRTOPK_OK) {
        if (dh_dev_generate(buf, BW_ELEMS, DRTOPK_DIST_UD, DRTOPK_U32, o->seed, NULL) == DRTOPK_OK &&
            dh_dev_read_ms(buf, BW_ELEMS * sizeof(uint32_t), BW_REPS, &ms) == DRTOPK_OK && ms > 0)
            mach->read_gbps = (double)BW_ELEMS * sizeof(uint32_t) / (ms * 1e6);
        dh_dev_free(buf);
    }
    if (dh_microbench_cycles(o->gpu, &mach->c_global, &mach->c_shfl) != DRTOPK_OK)
        mach->c_global = mach->c_shfl = 0;
    fprintf(stderr, "tuner: %s (%s), %d SMs, read %.0f GB/s, C_global %.1f cycles, C_shfl %.1f cycles\n",
            mach->name, mach->uuid, mach->sm_count, mach->read_gbps, mach->c_global, mach->c_shfl);
    return 0;
}
