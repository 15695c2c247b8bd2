/*
 * gen.h -- host side of the seeded data sets (gen_core.h) and raw binary
 * input/output of vectors (.u32 .i32 .f32 .f16 .bf16 .u64 .i64 .f64:
 * little-endian, no header).
 */
#ifndef DRTOPK_GEN_H
#define DRTOPK_GEN_H
#include "drtopk.h"
#include "gen_core.h"

#ifdef __cplusplus
extern "C" {
#endif

const char *dh_dist_name(dh_dist d);           /* "UD", "ND", ...   */
drtopk_status dh_dist_parse(const char *s, dh_dist *out); /* case-insensitive */

/* out: n elements of t (drtopk_dtype_size(t) bytes each), bit-identical to
 * dh_dev_generate. */
void dh_gen_host(void *out, uint64_t n, dh_dist d, drtopk_dtype t, uint64_t seed);
/* out: elements first .. first + n - 1 of the same data set (a slice of V). */
void dh_gen_host_at(void *out, uint64_t first, uint64_t n, dh_dist d, drtopk_dtype t, uint64_t seed);

/* Write n elements to `path`. */
drtopk_status dh_write_raw(const char *path, const void *data, size_t elem_size, uint64_t n);
/* Read a whole raw file: its size must be a multiple of elem_size and non-zero;
 * *data is malloc'ed.  Errors set `err` (may be NULL) to a readable message. */
drtopk_status dh_read_raw(const char *path, size_t elem_size, void **data, uint64_t *n,
                          char *err, size_t err_len);
/* dtype from a file name's extension, a short dtype name (.u32, .bf16, ...);
 * DRTOPK_ERR_INVALID_ARGUMENT if none. */
drtopk_status dh_dtype_from_path(const char *path, drtopk_dtype *out);

#ifdef __cplusplus
}
#endif
#endif
