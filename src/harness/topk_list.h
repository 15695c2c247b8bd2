/*
 * topk_list.h -- top-k lists on the GPU for multi-GPU Dr. Top-k (paper
 * section 5.4): a rank's local result put best first, and the exact merge of
 * two best-first lists keeping the best k, both in device memory, so the
 * reduction never sorts or merges on the host.  Any key width (16, 32, 64
 * bits; raw element bits of dtype t, compared by keyorder.h's ordered key),
 * positions uint64.  Ordering: the library's sorted selection of the whole
 * list (equal keys in any order); the merge (a merge-path kernel) takes the
 * first list's element on equal keys.  The
 * host half of the same steps is slice.h's (the CPU backend).  CUDA build:
 * topk_list_cuda.cu; --cpu-only build: topk_list_stub.c (DRTOPK_ERR_NO_BACKEND).
 * Every call runs on the legacy default stream and returns when its work is
 * done.
 */
#ifndef DRTOPK_TOPK_LIST_H
#define DRTOPK_TOPK_LIST_H
#include <stdint.h>
#include "drtopk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct topk_list_dev topk_list_dev;

/* Scratch for lists of up to k elements of dtype t in order o. */
drtopk_status topk_list_dev_create(drtopk_dtype t, drtopk_order o, uint64_t k, topk_list_dev **out);
void topk_list_dev_destroy(topk_list_dev *m);
/* in_v / in_p (n <= k, any order) best first into out_v / out_p, each
 * position plus `first` (a slice's local index to its global position).  out
 * must not alias in. */
drtopk_status topk_list_dev_order(topk_list_dev *m, const void *in_v, const uint64_t *in_p, uint64_t n,
                                  uint64_t first, void *out_v, uint64_t *out_p);
/* Positions p[0 .. n) plus `first`, in place (a slice's local indices to
 * global positions, for a list the selection already put best first). */
drtopk_status topk_list_dev_offset(uint64_t *p, uint64_t n, uint64_t first);
/* Best-first lists a (na) and b (nb) merged; the best min(k, na + nb) of them
 * replace a (whose buffers hold k); *len gets that count. */
drtopk_status topk_list_dev_merge(topk_list_dev *m, void *a_v, uint64_t *a_p, uint64_t na, const void *b_v,
                                  const uint64_t *b_p, uint64_t nb, uint64_t *len);

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
 * mapped peer allocation included); returns when the copy is done. */
drtopk_status topk_ipc_copy(void *dst, const void *src, size_t bytes);

#ifdef __cplusplus
}
#endif
#endif
