/*
 * dataset_write.c -- the outputs of drtopk dataset: the raw vector `drtopk
 * run --input` reads, tiled to a size as the paper tiled its Twitter data
 * (section 6), and Table 1's facts of a data set (distinct values, the k-th
 * value and its ties in both orders).
 */
#include "dataset_internal.h"
#include "keyorder.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WRITE_CHUNK_ELEMS (1u << 20)  /* elements encoded per fwrite                */
#define RADIX_BITS 16                 /* two passes of a 32-bit key                 */

/* ---- output ---------------------------------------------------------------------- */

/* `path` opened for writing; NULL with the reason in err */
static FILE *out_open(const char *path, char *err, size_t err_len)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) ds_fail(DRTOPK_ERR_IO, err, err_len, "cannot create '%s': %s", path, strerror(errno));
    return f;
}

/* Close; DRTOPK_ERR_IO naming the path and the OS reason when a write or the
 * close failed (`ok` 0: a write already failed, errno still says why). */
static drtopk_status out_close(FILE *f, const char *path, int ok, char *err, size_t err_len)
{
    int saved = ok && !ferror(f) ? 0 : errno ? errno : EIO;
    if (fclose(f) != 0 && saved == 0) saved = errno;
    return saved == 0 ? DRTOPK_OK : ds_fail(DRTOPK_ERR_IO, err, err_len, "cannot write '%s': %s", path, strerror(saved));
}

drtopk_status dh_ds_write(const char *path, const void *data, uint64_t n, uint64_t tile,
                          dh_ds_progress progress, void *ctx, char *err, size_t err_len)
{
    const uint32_t *src = (const uint32_t *)data;
    const uint64_t total = tile ? tile : n;
    unsigned char *buf;
    FILE *f;
    int ok = 1;
    if (path == NULL || data == NULL || n == 0)
        return ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, err, err_len, "nothing to write");
    if (tile && tile < n)
        return ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, err, err_len, "--tile %" PRIu64 " is smaller than the %" PRIu64
                       " elements of the real vector; tiling repeats it and never cuts it", tile, n);
    if ((buf = (unsigned char *)malloc(WRITE_CHUNK_ELEMS * sizeof(uint32_t))) == NULL)
        return ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of host memory");
    if ((f = out_open(path, err, err_len)) == NULL) {
        free(buf);
        return DRTOPK_ERR_IO;
    }
    for (uint64_t done = 0, i = 0; done < total && ok;) {     /* i: position in the real vector */
        const size_t cnt = total - done < WRITE_CHUNK_ELEMS ? (size_t)(total - done) : WRITE_CHUNK_ELEMS;
        for (size_t e = 0; e < cnt; ++e) {
            const uint32_t x = src[i];
            buf[4 * e] = (unsigned char)x;
            buf[4 * e + 1] = (unsigned char)(x >> 8);
            buf[4 * e + 2] = (unsigned char)(x >> 16);
            buf[4 * e + 3] = (unsigned char)(x >> 24);
            if (++i == n) i = 0;
        }
        errno = 0;
        ok = fwrite(buf, sizeof(uint32_t), cnt, f) == cnt;
        done += cnt;
        if (progress) progress(ctx, done, total);
    }
    free(buf);
    return out_close(f, path, ok, err, err_len);
}

/* ---- Table 1's facts ----------------------------------------------------------- */

/* keys sorted ascending (LSD radix, RADIX_BITS at a time) */
static int radix_sort(uint32_t *keys, uint64_t n)
{
    const uint32_t buckets = 1u << RADIX_BITS;
    uint32_t *tmp = (uint32_t *)malloc((size_t)n * sizeof *tmp);
    uint64_t *count = (uint64_t *)malloc(buckets * sizeof *count);
    if (tmp == NULL || count == NULL) {
        free(tmp);
        free(count);
        return -1;
    }
    for (int shift = 0; shift < 32; shift += RADIX_BITS) {
        memset(count, 0, buckets * sizeof *count);
        for (uint64_t i = 0; i < n; ++i) ++count[(keys[i] >> shift) & (buckets - 1)];
        for (uint64_t b = 0, sum = 0; b < buckets; ++b) {
            const uint64_t c = count[b];
            count[b] = sum;
            sum += c;
        }
        for (uint64_t i = 0; i < n; ++i) tmp[count[(keys[i] >> shift) & (buckets - 1)]++] = keys[i];
        memcpy(keys, tmp, (size_t)n * sizeof *keys);
    }
    free(tmp);
    free(count);
    return 0;
}

/* raw bits of the element whose largest-order key is `key` */
static uint32_t bits_of_key(uint32_t key, drtopk_dtype t)
{
    if (t == DRTOPK_U32) return key;
    if (t == DRTOPK_I32) return key ^ DRTOPK_SIGN_BIT;
    return (key & DRTOPK_SIGN_BIT) ? key ^ DRTOPK_SIGN_BIT : ~key;
}

static void value_text(char *buf, size_t len, uint32_t b, drtopk_dtype t)
{
    float f;
    if (t == DRTOPK_U32) snprintf(buf, len, "%" PRIu32, b);
    else if (t == DRTOPK_I32) snprintf(buf, len, "%" PRId32, (int32_t)b);
    else {
        memcpy(&f, &b, sizeof f);
        snprintf(buf, len, "%.9g", (double)f);
    }
}

drtopk_status dh_ds_write_stats(const char *path, const char *name, const void *data, uint64_t n,
                                drtopk_dtype t, uint64_t tile, const uint64_t *ks, int nks,
                                char *err, size_t err_len)
{
    const uint32_t *src = (const uint32_t *)data;
    const uint64_t total = tile ? tile : n, copies = total / n, rest = total % n;
    uint32_t *all = (uint32_t *)malloc((size_t)n * sizeof *all);
    uint32_t *head = (uint32_t *)malloc((size_t)(rest ? rest : 1) * sizeof *head);
    uint32_t *uniq = NULL;
    uint64_t *mult = NULL, nu = 0;
    drtopk_status st = DRTOPK_OK;
    if (tile && tile < n)
        st = ds_fail(DRTOPK_ERR_INVALID_ARGUMENT, err, err_len, "--tile %" PRIu64 " is below the %" PRIu64 " elements",
                     tile, n);
    if (st == DRTOPK_OK && (all == NULL || head == NULL))
        st = ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of host memory for the statistics of %s", name);
    if (st == DRTOPK_OK) {
        for (uint64_t i = 0; i < n; ++i) all[i] = drtopk_key_from_bits(src[i], t, DRTOPK_LARGEST);
        memcpy(head, all, (size_t)rest * sizeof *head);
        if (radix_sort(all, n) != 0 || radix_sort(head, rest) != 0)
            st = ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of host memory sorting %s", name);
    }
    if (st == DRTOPK_OK) {                   /* distinct keys, with their count in the tiled vector */
        uniq = all;                          /* compacted in place */
        mult = (uint64_t *)malloc((size_t)n * sizeof *mult);
        if (mult == NULL) st = ds_fail(DRTOPK_ERR_OUT_OF_MEMORY, err, err_len, "out of host memory");
        for (uint64_t i = 0, h = 0; st == DRTOPK_OK && i < n;) {
            const uint32_t key = all[i];
            uint64_t c = 0, ch = 0;
            while (i < n && all[i] == key) ++i, ++c;
            while (h < rest && head[h] < key) ++h;
            while (h < rest && head[h] == key) ++h, ++ch;
            uniq[nu] = key;
            mult[nu++] = c * copies + ch;
        }
    }
    FILE *f;
    if (st == DRTOPK_OK && (f = out_open(path, err, err_len)) == NULL) st = DRTOPK_ERR_IO;
    if (st == DRTOPK_OK) {
        fprintf(f, "name\tn\tdistinct\torder\tk\tkth_value\tties_at_k\n");
        for (int o = 0; o < 2; ++o)
            for (int q = 0; q < nks; ++q) {
                char val[64];
                uint64_t seen = 0, u = 0;
                if (ks[q] == 0 || ks[q] > total) continue;
                for (; u < nu; ++u) {               /* from the best end of the order */
                    seen += mult[o == 0 ? nu - 1 - u : u];
                    if (seen >= ks[q]) break;
                }
                const uint64_t at = o == 0 ? nu - 1 - u : u;
                value_text(val, sizeof val, bits_of_key(uniq[at], t), t);
                fprintf(f, "%s\t%" PRIu64 "\t%" PRIu64 "\t%s\t%" PRIu64 "\t%s\t%" PRIu64 "\n", name, total, nu,
                        o == 0 ? "largest" : "smallest", ks[q], val, mult[at]);
            }
        st = out_close(f, path, 1, err, err_len);
    }
    free(all);
    free(head);
    free(mult);
    return st;
}
