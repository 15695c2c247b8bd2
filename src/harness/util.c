/*
 * util.c -- small host helpers (util.h): sizes written as 2^p, 2^p+q or plain
 * decimals (the CLI's --n/--k take the paper's 2^30-style sizes), a monotonic
 * millisecond clock for host-side stage timings, medians for repeated runs,
 * integer log2 used by Rule 4 (paper section 5.2), and the file helpers
 * of the CLI and the store: a regular-file check by stat() alone and outputs
 * replaced atomically.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NEW_FILE_MODE 0666          /* as fopen(path, "w") creates: umask applies */

#define U64_BITS 64

/* Parse a run of decimal digits at *s into *out; advances *s.  -1 on no
 * digit, DRTOPK_PARSE_RANGE when the digits overflow uint64. */
static int parse_decimal(const char **s, uint64_t *out)
{
    const char *p = *s;
    uint64_t v = 0;
    int over = 0;
    if (*p < '0' || *p > '9') return -1;
    for (; *p >= '0' && *p <= '9'; ++p) {
        uint64_t d = (uint64_t)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) over = 1;
        v = v * 10 + d;
    }
    *s = p;
    *out = v;
    return over ? DRTOPK_PARSE_RANGE : 0;
}

int drtopk_parse_u64(const char *s, uint64_t *out)
{
    uint64_t base, add = 0;
    int range = 0, rc;
    if (s == NULL || out == NULL) return -1;
    if ((rc = parse_decimal(&s, &base)) == -1) return -1;
    range |= rc != 0;
    if (*s == '^') {
        /* "2^p": only base 2 is meaningful for sizes */
        uint64_t e;
        ++s;
        if (base != 2 || (rc = parse_decimal(&s, &e)) == -1) return -1;
        range |= rc != 0 || e >= U64_BITS;
        base = range ? 0 : 1ull << e;
        if (*s == '+') {
            ++s;
            if ((rc = parse_decimal(&s, &add)) == -1) return -1;
            range |= rc != 0 || add > UINT64_MAX - base;
        }
    }
    if (*s != '\0') return -1;
    if (range) return DRTOPK_PARSE_RANGE;
    *out = base + add;
    return 0;
}

double drtopk_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

const char *drtopk_timing_name(drtopk_timing t)
{
    return t == DRTOPK_TIMING_GPU ? "gpu" : "call";
}

int drtopk_timing_parse(const char *s, drtopk_timing *out)
{
    if (s && !strcmp(s, "gpu")) *out = DRTOPK_TIMING_GPU;
    else if (s && !strcmp(s, "call")) *out = DRTOPK_TIMING_CALL;
    else return -1;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double drtopk_median(double *v, size_t n)
{
    if (v == NULL || n == 0) return 0.0;
    qsort(v, n, sizeof *v, cmp_double);
    return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int drtopk_ilog2_floor(uint64_t x)
{
    int r = -1;          /* x == 0 has no log; -1 marks it */
    while (x) { x >>= 1; ++r; }
    return r;
}

int drtopk_ilog2_ceil(uint64_t x)
{
    if (x <= 1) return 0;
    return drtopk_ilog2_floor(x - 1) + 1;
}

static void set_err(char *err, size_t len, const char *fmt, ...)
{
    if (!err || !len) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

int drtopk_check_regular_file(const char *path, char *err, size_t err_len)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        set_err(err, err_len, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        set_err(err, err_len, "'%s' is %s, not a regular file", path, file_kind(st.st_mode));
        return -1;
    }
    return 0;
}

int drtopk_outputs_add(drtopk_outputs *o, const char *path, const char **tmp, char *err, size_t err_len)
{
    struct stat st;
    if (o->count == DRTOPK_OUTPUTS_MAX) {
        set_err(err, err_len, "more than %d outputs at once", DRTOPK_OUTPUTS_MAX);
        return -1;
    }
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        set_err(err, err_len, "cannot write '%s': it exists and is %s", path, file_kind(st.st_mode));
        return -1;
    }
    char *t = o->tmp[o->count];
    if (snprintf(o->path[o->count], DRTOPK_PATH_MAX, "%s", path) >= DRTOPK_PATH_MAX ||
        snprintf(t, DRTOPK_PATH_MAX, "%s.tmp.%ld", path, (long)getpid()) >= DRTOPK_PATH_MAX) {
        set_err(err, err_len, "cannot write '%s': path too long", path);
        return -1;
    }
    int fd = open(t, O_WRONLY | O_CREAT | O_TRUNC, NEW_FILE_MODE);
    if (fd < 0) {
        set_err(err, err_len, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    close(fd);
    ++o->count;
    *tmp = t;
    return 0;
}

void drtopk_outputs_abort(drtopk_outputs *o)
{
    for (int i = 0; i < o->count; ++i)
        unlink(o->tmp[i]);
    o->count = 0;
}

/* The directory part of path ("." when it has none). */
static void dir_of(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == path)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

int drtopk_outputs_commit(drtopk_outputs *o, char *err, size_t err_len)
{
    for (int i = 0; i < o->count; ++i) {
        int fd = open(o->tmp[i], O_RDONLY);
        if (fd < 0 || fsync(fd) != 0) {
            set_err(err, err_len, "cannot write '%s': %s", o->path[i], strerror(errno));
            if (fd >= 0) close(fd);
            drtopk_outputs_abort(o);
            return -1;
        }
        close(fd);
    }
    for (int i = 0; i < o->count; ++i) {
        if (rename(o->tmp[i], o->path[i]) != 0) {
            set_err(err, err_len, "cannot write '%s': %s", o->path[i], strerror(errno));
            drtopk_outputs_abort(o);
            return -1;
        }
        /* the rename reaches the disk with its directory */
        char dir[DRTOPK_PATH_MAX];
        dir_of(o->path[i], dir, sizeof dir);
        int dfd = open(dir, O_RDONLY);
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
    }
    o->count = 0;
    return 0;
}
