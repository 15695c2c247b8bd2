/*
 * slice.c -- slices of V over ranks, raw-file slices, and the host half of
 * the ranks' agreement on the k-th key and the compaction of the selected
 * elements for multi-GPU Dr. Top-k (paper section 5.4); see slice.h.
 */
#define _FILE_OFFSET_BITS 64
#include "slice.h"
#include "util.h"
#include "keyorder.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_CHUNK_BYTES (1u << 30)   /* pread moves at most ~2 GiB per call on Linux */

#define SET_ERR(...) do { if (err && err_len) snprintf(err, err_len, __VA_ARGS__); } while (0)

void drtopk_slice(uint64_t n, uint64_t parts, uint64_t r, uint64_t *first, uint64_t *count)
{
    const uint64_t base = n / parts, extra = n % parts;
    *first = r * base + (r < extra ? r : extra);
    *count = base + (r < extra ? 1 : 0);
}

static drtopk_status open_sized(const char *path, size_t elem_size, uint64_t *n, int *fd, char *err,
                                size_t err_len)
{
    struct stat sb;
    if (drtopk_check_regular_file(path, err, err_len) != 0) return DRTOPK_ERR_IO;   /* a FIFO would block open() */
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

drtopk_status drtopk_raw_count(const char *path, size_t elem_size, uint64_t *n, char *err, size_t err_len)
{
    int fd;
    drtopk_status st = open_sized(path, elem_size, n, &fd, err, err_len);
    if (st == DRTOPK_OK) close(fd);
    return st;
}

drtopk_status drtopk_read_raw_slice(const char *path, size_t elem_size, uint64_t first, uint64_t count,
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

drtopk_status drtopk_raw_sample_sum(const char *path, unsigned blocks, size_t block_bytes, uint64_t *sum,
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

/* a before b in canonical order: the better ordered key, then the smaller position. */
static int canon_before(uint64_t ka, uint64_t pa, uint64_t kb, uint64_t pb)
{
    return ka > kb || (ka == kb && pa < pb);
}

typedef struct {
    uint64_t key, bits, pos;
} canon_item;

static int canon_cmp(const void *x, const void *y)
{
    const canon_item *a = (const canon_item *)x, *b = (const canon_item *)y;
    return canon_before(a->key, a->pos, b->key, b->pos) ? -1 : canon_before(b->key, b->pos, a->key, a->pos);
}

drtopk_status drtopk_topk_canon(drtopk_dtype t, drtopk_order o, void *vals, uint64_t *pos, uint64_t n)
{
    canon_item *it = (canon_item *)malloc((size_t)(n ? n : 1) * sizeof *it);
    if (!it) return DRTOPK_ERR_OUT_OF_MEMORY;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t b = drtopk_bits_at(vals, i, t);
        it[i] = (canon_item){ drtopk_key_any(b, t, o), b, pos[i] };
    }
    qsort(it, (size_t)n, sizeof *it, canon_cmp);
    for (uint64_t i = 0; i < n; ++i) {
        drtopk_bits_store(vals, i, t, it[i].bits);
        pos[i] = it[i].pos;
    }
    free(it);
    return DRTOPK_OK;
}

void drtopk_key_hist(const void *vals, uint64_t n, drtopk_dtype t, drtopk_order o, uint64_t prefix, int shift,
                     uint64_t *hist)
{
    const uint64_t mask = drtopk_radix_prefix_mask(t, shift);
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t key = drtopk_key_at(vals, i, t, o);
        if ((key & mask) == prefix) ++hist[(key >> shift) & (DRTOPK_RADIX_BINS - 1)];
    }
}

unsigned drtopk_radix_pick(const uint64_t *hist, uint64_t need, uint64_t *above)
{
    uint64_t sum = 0;
    unsigned d = DRTOPK_RADIX_BINS - 1;
    while (d > 0 && sum + hist[d] < need) sum += hist[d--];
    *above = sum;
    return d;
}

uint64_t drtopk_key_compact(const void *vals, const uint64_t *pos, uint64_t n, drtopk_dtype t, drtopk_order o,
                            uint64_t thr, uint64_t ties, uint64_t first, void *out_vals, uint64_t *out_pos)
{
    uint64_t m = 0, taken = 0;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t key = drtopk_key_at(vals, i, t, o);
        if (key > thr || (key == thr && taken++ < ties)) {
            drtopk_bits_store(out_vals, m, t, drtopk_bits_at(vals, i, t));
            out_pos[m++] = pos[i] + first;
        }
    }
    return m;
}
