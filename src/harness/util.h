/*
 * util.h -- small host helpers shared by the CLI, tests and tuner: parsing of
 * sizes written as 2^p or plain numbers, a monotonic clock, medians, and file
 * helpers: a regular-file check that never opens the path, and outputs
 * replaced atomically (temporary files beside them, renamed when complete).
 */
#ifndef DRTOPK_UTIL_H
#define DRTOPK_UTIL_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Parse "2^30", "1073741824", "1000003" (optionally "2^30+17").  Returns 0 on
 * success, DRTOPK_PARSE_RANGE for a well-formed number above 2^64 - 1 (e.g.
 * "2^64"), -1 on anything else (empty, junk). */
#define DRTOPK_PARSE_RANGE (-2)
int dh_parse_u64(const char *s, uint64_t *out);
double dh_now_ms(void);                     /* CLOCK_MONOTONIC in ms      */
double dh_median(double *v, size_t n);      /* sorts v in place           */
int dh_ilog2_floor(uint64_t x);             /* x > 0                      */
int dh_ilog2_ceil(uint64_t x);              /* x > 0                      */

/* How a row's times were taken, stored with it (measurements.timing,
 * peer_measurements.timing): "gpu", the GPU time of the call with the stream
 * held until it was enqueued (device.h's dh_dev_time_held); "call",
 * events (or the host clock, CPU backend) around the call on an idle stream,
 * which include the host's enqueue. */
typedef enum { DRTOPK_TIMING_GPU = 0, DRTOPK_TIMING_CALL } dh_timing;
const char *dh_timing_name(dh_timing t);
int dh_timing_parse(const char *s, dh_timing *out);  /* 0, or -1: neither name */

/* 0 when path names a regular file.  Else -1 and err names the path and what
 * is wrong (missing, a directory, a FIFO, ...).  Only stat()s: a FIFO or a
 * device is never opened, so nothing blocks. */
int dh_check_regular_file(const char *path, char *err, size_t err_len);

/* A set of output files that appear together or not at all: each is written
 * to a temporary file in its own directory ("PATH.tmp.PID"), and
 * dh_outputs_commit renames them all only when every one is complete and
 * on disk.  On any failure the temporaries are removed and whatever was at
 * the final paths before is left as it was.  While a set holds temporaries
 * they are also removed when the process is ended by SIGINT, SIGTERM or
 * SIGHUP (whose handlers dh_outputs_add installs where they are still
 * the default; a program with its own handler removes them itself). */
#define DRTOPK_OUTPUTS_MAX 4
#define DRTOPK_PATH_MAX 4096
typedef struct {
    int count;
    char path[DRTOPK_OUTPUTS_MAX][DRTOPK_PATH_MAX];     /* the final names   */
    char tmp[DRTOPK_OUTPUTS_MAX][DRTOPK_PATH_MAX];      /* written first     */
} dh_outputs;

/* Refuse a final path that exists and is not a regular file, then create its
 * empty temporary file; *tmp gets its name to write to.  -1 with err (path
 * and errno text) on failure. */
int dh_outputs_add(dh_outputs *o, const char *path, const char **tmp, char *err, size_t err_len);
/* fsync every temporary file, then rename each over its final path.  -1 with
 * err on failure (the temporaries are removed). */
int dh_outputs_commit(dh_outputs *o, char *err, size_t err_len);
/* Remove the temporaries (after a failed write). */
void dh_outputs_abort(dh_outputs *o);

/* 0 when `bytes` more of host memory are available (MemAvailable of
 * /proc/meminfo, and the room left under the cgroup's memory limit).  Else
 * -1 and err says how much `what` needs and how much there is: the caller
 * fails cleanly before malloc succeeds lazily and the kernel's OOM killer
 * ends the process later.  Where neither figure can be read, 0. */
int dh_host_mem_check(uint64_t bytes, const char *what, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif
#endif
