/*
 * slice.h -- a rank's slice of a raw file for multi-GPU Dr. Top-k (paper
 * section 5.4, Table 2): the element count of a raw file, the read of the
 * elements of one slice (src/lib/mgpu.h's drtopk_slice says which), and a
 * checksum of sampled blocks of the file (so ranks can tell they read the
 * same file).  The harness's half of the multi-GPU path: the library does no
 * file I/O.
 */
#ifndef DRTOPK_SLICE_H
#define DRTOPK_SLICE_H
#include <stddef.h>
#include <stdint.h>
#include "drtopk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of elem_size elements in a raw file (size checks as dh_read_raw). */
drtopk_status dh_raw_count(const char *path, size_t elem_size, uint64_t *n, char *err, size_t err_len);
/* Read elements first .. first + count - 1 of a raw little-endian file into
 * buf (count * elem_size bytes). */
drtopk_status dh_read_raw_slice(const char *path, size_t elem_size, uint64_t first, uint64_t count,
                                void *buf, char *err, size_t err_len);

/* A 64-bit checksum (FNV-1a) of the file's size and of `blocks` blocks of
 * `block_bytes` spread evenly over it, the first and the last included (the
 * whole file when it is shorter than that): ranks that read one path on
 * different nodes compare it before they trust their slices. */
drtopk_status dh_raw_sample_sum(const char *path, unsigned blocks, size_t block_bytes, uint64_t *sum,
                                char *err, size_t err_len);

#ifdef __cplusplus
}
#endif
#endif
