/*
 * machine.h -- the machine a tuner run measures on, as the results store
 * keys it (paper section 5.2 tunes per GPU): the GPU's identity, and for a
 * measuring run its read bandwidth and the microbenchmarked C_global and
 * C_shfl of Eq. 11; or the host for the CPU backend.  Above options.h;
 * includes no mode.  Program-internal.
 */
#ifndef DRTOPK_TUNER_MACHINE_H
#define DRTOPK_TUNER_MACHINE_H
#include "options.h"
#include "store.h"

/* Fill *mach for o->backend (o->gpu on CUDA); measure_gpu: also time the
 * bandwidth and the microbenchmarks (0 where nothing is measured).  0, or -1
 * with a message on stderr when the GPU is not usable. */
int machine_identify(const options *o, dh_store_machine *mach, int measure_gpu);

#endif
