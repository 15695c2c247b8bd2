/*
 * slice.c -- a rank's slice of a raw file for multi-GPU Dr. Top-k (paper
 * section 5.4): its element count, the read of one slice, and the sampled
 * checksum; see slice.h.
 */
#define _FILE_OFFSET_BITS 64
#include "slice.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_CHUNK_BYTES (1u << 30)   /* pread moves at most ~2 GiB per call on Linux */

#define SET_ERR(...) do { if (err && err_len) snprintf(err, err_len, __VA_ARGS__); } while (0)

static drtopk_status open_sized(const char *path, size_t elem_size, uint64_t *n, int *fd, char *err,
                                size_t err_len)
{
    struct stat sb;
    if (dh_check_regular_file(path, err, err_len) != 0) return DRTOPK_ERR_IO;   /* a FIFO would block open() */
    if ((*fd = open(path, O_RDONLY)) < 0) {
        SET_ERR("cannot open '%s': %s", path, strerror(errno));
        return DRTOPK_ERR_IO;
    }
    if (fstat(*fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        SET_ERR("'%s' is not a regular file", path);
        close(*fd);
        return DRTOPK_ERR_IO;
    }
    if (sb.st_size == 0 || (uint64_t)sb.st_size % elem_size != 0) {
        SET_ERR(sb.st_size == 0 ? "'%s' is empty: a raw vector needs at least one element"
                                : "size of '%s' is not a multiple of the element size", path);
        close(*fd);
        return DRTOPK_ERR_INVALID_ARGUMENT;
    }
    *n = (uint64_t)sb.st_size / elem_size;
    return DRTOPK_OK;
}

drtopk_status dh_raw_count(const char *path, size_t elem_size, uint64_t *n, char *err, size_t err_len)
{
    int fd;
    drtopk_status st = open_sized(path, elem_size, n, &fd, err, err_len);
    if (st == DRTOPK_OK) close(fd);
    return st;
}

drtopk_status dh_read_raw_slice(const char *path, size_t elem_size, uint64_t first, uint64_t count,
                                void *buf, char *err, size_t err_len)
{
    int fd;
    uint64_t n;
    drtopk_status st = open_sized(path, elem_size, &n, &fd, err, err_len);
    if (st != DRTOPK_OK) return st;
    if (first > n || count > n - first) {
        SET_ERR("'%s' holds %llu elements, fewer than the slice %llu + %llu needs", path,
                (unsigned long long)n, (unsigned long long)first, (unsigned long long)count);
        close(fd);
        return DRTOPK_ERR_INVALID_ARGUMENT;
    }
    unsigned char *out = (unsigned char *)buf;
    const uint64_t bytes = count * elem_size, offset = first * elem_size;
    for (uint64_t done = 0; done < bytes;) {
        const size_t want = bytes - done < READ_CHUNK_BYTES ? (size_t)(bytes - done) : READ_CHUNK_BYTES;
        const ssize_t got = pread(fd, out + done, want, (off_t)(offset + done));
        if (got <= 0) {
            SET_ERR("short read from '%s' at byte %llu: %s", path, (unsigned long long)(offset + done),
                    got < 0 ? strerror(errno) : "end of file");
            close(fd);
            return DRTOPK_ERR_IO;
        }
        done += (uint64_t)got;
    }
    close(fd);
    return DRTOPK_OK;    /* raw files are little-endian, as every host drtopk targets */
}

#define FNV_OFFSET 0xcbf29ce484222325ull   /* FNV-1a 64-bit parameters */
#define FNV_PRIME 0x100000001b3ull

static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t len)
{
    for (size_t i = 0; i < len; ++i) h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

drtopk_status dh_raw_sample_sum(const char *path, unsigned blocks, size_t block_bytes, uint64_t *sum,
                                char *err, size_t err_len)
{
    struct stat sb;
    const int fd = open(path, O_RDONLY);
    unsigned char *buf;
    uint64_t h = FNV_OFFSET;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        SET_ERR("cannot open '%s': %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        return DRTOPK_ERR_IO;
    }
    if ((buf = (unsigned char *)malloc(block_bytes ? block_bytes : 1)) == NULL) {
        close(fd);
        return DRTOPK_ERR_OUT_OF_MEMORY;
    }
    const uint64_t size = (uint64_t)sb.st_size;
    h = fnv1a(h, (const unsigned char *)&size, sizeof size);
    const uint64_t span = size > block_bytes ? size - block_bytes : 0;   /* last block start */
    for (unsigned b = 0; b < blocks && size > 0; ++b) {
        /* block b starts b/(blocks-1) of the way to the last block (no overflow: span < 2^48) */
        const uint64_t at = blocks > 1 ? span * b / (blocks - 1) : 0;
        const size_t want = size - at < block_bytes ? (size_t)(size - at) : block_bytes;
        const ssize_t got = pread(fd, buf, want, (off_t)at);
        if (got != (ssize_t)want) {
            SET_ERR("short read from '%s' at byte %llu: %s", path, (unsigned long long)at,
                    got < 0 ? strerror(errno) : "end of file");
            free(buf);
            close(fd);
            return DRTOPK_ERR_IO;
        }
        h = fnv1a(h, buf, want);
        if (span == 0) break;   /* one block held the whole file */
    }
    free(buf);
    close(fd);
    *sum = h;
    return DRTOPK_OK;
}
