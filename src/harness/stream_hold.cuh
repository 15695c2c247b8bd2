/*
 * stream_hold.cuh -- GPU-only timing of a call (the measurement method of every
 * timed row: the tuner's, paper section 5.2's sweep, and the modern peers' of
 * experiments/peers).  Events recorded around a call on an
 * idle stream also time the host's enqueue (plan checks, launch latency): the
 * GPU reaches the start event at once and then waits for each launch.  A hold
 * kernel enqueued first keeps the stream busy until the host has enqueued the
 * start event, the call and the end event, so the span between the events is
 * GPU time with the launch queue primed (as nvbench's blocking kernel).
 *
 * The kernel spins on a host-mapped release word, or until its own timeout (so
 * a release that never comes, or a call that synchronises inside, cannot hang
 * the stream), and reports which of the two ended it: a timed-out hold means
 * the measurement was not primed.  With a release word that is never set it is
 * a timed hold of `timeout_ns` (for a call that synchronises itself).
 *
 * Header-only (the kernel and inline host helpers) so that the harness
 * (device_util.cu) and the standalone CUB peer (experiments/peers/
 * cub_topk_peer.cu, built on the GPU machine from its one source) share it.
 */
#ifndef DRTOPK_STREAM_HOLD_CUH
#define DRTOPK_STREAM_HOLD_CUH
#include <cuda_runtime.h>
#include <stdint.h>

/* Far longer than any enqueue (microseconds to a millisecond), short enough
 * that a lost release costs one visible stall, never a hang. */
#define DRTOPK_HOLD_TIMEOUT_NS 100000000ull
#define DRTOPK_HOLD_POLL_NS 100u     /* __nanosleep between polls: light on the SM */

enum { DRTOPK_HOLD_WAITING = 0, DRTOPK_HOLD_RELEASED = 1, DRTOPK_HOLD_TIMED_OUT = 2 };

/* word[0]: the host's release (0 hold, 1 release); word[1]: how the hold ended. */
typedef struct {
    volatile int *word;          /* host view of the mapped pair */
    int *d_word;                 /* its device address           */
} drtopk_stream_hold;

static __device__ __forceinline__ unsigned long long drtopk_hold_now_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static __global__ void drtopk_hold_kernel(volatile int *word, unsigned long long timeout_ns)
{
    const unsigned long long t0 = drtopk_hold_now_ns();
    while (word[0] == 0) {
        if (drtopk_hold_now_ns() - t0 > timeout_ns) {
            word[1] = DRTOPK_HOLD_TIMED_OUT;
            __threadfence_system();
            return;
        }
        __nanosleep(DRTOPK_HOLD_POLL_NS);
    }
    word[1] = DRTOPK_HOLD_RELEASED;
    __threadfence_system();
}

static inline cudaError_t drtopk_hold_create(drtopk_stream_hold *h)
{
    void *host = NULL, *dev = NULL;
    cudaError_t e = cudaHostAlloc(&host, 2 * sizeof(int), cudaHostAllocMapped);
    if (e == cudaSuccess) e = cudaHostGetDevicePointer(&dev, host, 0);
    if (e != cudaSuccess) {
        if (host) cudaFreeHost(host);
        h->word = NULL;
        h->d_word = NULL;
        return e;
    }
    h->word = (volatile int *)host;
    h->d_word = (int *)dev;
    return cudaSuccess;
}

static inline void drtopk_hold_destroy(drtopk_stream_hold *h)
{
    if (h->word) cudaFreeHost((void *)h->word);
    h->word = NULL;
    h->d_word = NULL;
}

/* Enqueue the hold on stream s: it ends at drtopk_hold_release or after timeout_ns. */
static inline cudaError_t drtopk_hold_begin(drtopk_stream_hold *h, cudaStream_t s, unsigned long long timeout_ns)
{
    h->word[0] = 0;
    h->word[1] = DRTOPK_HOLD_WAITING;
    drtopk_hold_kernel<<<1, 1, 0, s>>>(h->d_word, timeout_ns);
    return cudaGetLastError();
}

static inline void drtopk_hold_release(drtopk_stream_hold *h)
{
    __sync_synchronize();        /* what the host wrote before is visible first */
    h->word[0] = 1;
}

/* After the stream synchronised: 1 when the hold was released (the span was
 * primed), 0 when it timed out. */
static inline int drtopk_hold_primed(const drtopk_stream_hold *h)
{
    return h->word[1] == DRTOPK_HOLD_RELEASED;
}
#endif
