/*
 * topk_list.h -- top-k lists on the GPU for multi-GPU Dr. Top-k (paper
 * section 5.4): the device half of the ranks' exchange (mgpu.h holds the
 * host half, which the CPU backend runs): the histogram of a rank's list for
 * one round of the radix select of the global k-th key, the compaction of
 * what the rank sends (the keys above that key, and its share of the ties),
 * a rank's whole list with global positions and rank 0's selection of the k
 * best of the gathered lists (when it gathers them all, mgpu.h), and rank
 * 0's ordering of the gathered result best first (--sorted), all in
 * device memory, so the exchange never sorts or counts on the host.  Any key
 * width (16, 32, 64 bits; raw element bits of dtype t, compared by
 * keyorder.h's ordered key), positions uint64.  CUDA build:
 * kernels/topk_list.cu; --cpu-only build: topk_list_stub.c
 * (DRTOPK_ERR_NO_BACKEND).  Every call runs on the legacy default stream and
 * returns when its work is done.  A module of the library, internal, over
 * the public API alone (mgpu.h says how programs link it).
 */
#ifndef DRTOPK_TOPK_LIST_H
#define DRTOPK_TOPK_LIST_H
#include <stdint.h>
#include "drtopk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct topk_list_dev topk_list_dev;

/* Scratch for the exchange of lists of dtype t in order o and, when
 * order_k > 0, for ordering lists of up to order_k elements.  flags
 * DRTOPK_DETERMINISTIC (else 0): the ordering and the selection keep equal
 * keys in their input order (the ties at the k-th key of the smallest
 * indices; sorted, equal keys by index). */
drtopk_status topk_list_dev_create(drtopk_dtype t, drtopk_order o, uint64_t order_k, unsigned flags,
                                   topk_list_dev **out);
void topk_list_dev_destroy(topk_list_dev *m);
/* in_v / in_p (n <= order_k, any order) best first into out_v / out_p, each
 * position plus `first`.  out must not alias in. */
drtopk_status topk_list_dev_order(topk_list_dev *m, const void *in_v, const uint64_t *in_p, uint64_t n,
                                  uint64_t first, void *out_v, uint64_t *out_p);
/* hist (host memory, DRTOPK_RADIX_BINS counters) += the histogram of the
 * device list vals (n) for the round at `shift` under `prefix`, as
 * drtopk_key_hist (mgpu.h). */
drtopk_status topk_list_dev_hist(topk_list_dev *m, const void *vals, uint64_t n, uint64_t prefix, int shift,
                                 uint64_t *hist);
/* As drtopk_key_compact on device lists, for a list holding exactly `above`
 * keys above thr and at least `ties` equal to it (the histograms counted
 * them): the keys above thr go first, then any `ties` of the equal ones
 * (which ones is not promised); above + ties elements are written. */
drtopk_status topk_list_dev_compact(topk_list_dev *m, const void *vals, const uint64_t *pos, uint64_t n, uint64_t thr,
                                    uint64_t above, uint64_t ties, uint64_t first, void *out_v, uint64_t *out_p);

/* The whole list in_v / in_p (n) into out_v / out_p, each position plus
 * `first`: a rank's part when rank 0 gathers every list (mgpu.h). */
drtopk_status topk_list_dev_shift(topk_list_dev *m, const void *in_v, const uint64_t *in_p, uint64_t n,
                                  uint64_t first, void *out_v, uint64_t *out_p);
/* The k best of in_v / in_p (n >= k, any order) into out_v / out_p, best
 * first when `sorted`, by the library's automatic plan; positions carried.
 * out must not alias in. */
drtopk_status topk_list_dev_select(topk_list_dev *m, const void *in_v, const uint64_t *in_p, uint64_t n, uint64_t k,
                                   int sorted, void *out_v, uint64_t *out_p);

/* ---- lists between processes of one node: CUDA IPC ------------------------
 * A rank exports its list's device allocations once; a rank of the same node
 * whose GPU reaches that GPU (the same GPU, or peer access) opens them once
 * and copies the list GPU to GPU each time it is ready, with no host copy.
 * The exporter must keep the allocations until every opener has closed them. */
#define TOPK_IPC_HANDLE_BYTES 64        /* cudaIpcMemHandle_t (CUDA_IPC_HANDLE_SIZE) */
typedef struct {
    unsigned char bytes[TOPK_IPC_HANDLE_BYTES];
} topk_ipc_handle;

/* *yes = 1 when this process's GPU `dev` can read GPU `peer`'s memory
 * directly: the same GPU, or cudaDeviceCanAccessPeer (ordinals of this process). */
drtopk_status topk_ipc_reachable(int dev, int peer, int *yes);
/* A handle to the device allocation that starts at `base` (cudaMalloc'd). */
drtopk_status topk_ipc_export(void *base, topk_ipc_handle *h);
/* Maps another process's exported allocation into this one: *p. */
drtopk_status topk_ipc_open(const topk_ipc_handle *h, void **p);
/* Unmaps what topk_ipc_open mapped (NULL: nothing). */
drtopk_status topk_ipc_close(void *p);
/* `bytes` from src to dst, device memory of any GPU this process reaches (a
 * mapped peer allocation included), enqueued: the copies of one gather
 * overlap, and topk_ipc_wait returns when every copy enqueued is done. */
drtopk_status topk_ipc_copy(void *dst, const void *src, size_t bytes);
drtopk_status topk_ipc_wait(void);

#ifdef __cplusplus
}
#endif
#endif
