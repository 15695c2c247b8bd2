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
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NEW_FILE_MODE 0666          /* as fopen(path, "w") creates: umask applies */
#define LIVE_SETS_MAX 8             /* output sets open at once in one process    */
#define MEMINFO_LINE 256
#define KIB 1024ull
#define GIB (1024.0 * 1024.0 * 1024.0)
#define CGROUP_UNLIMITED (1ull << 62) /* cgroup v1 writes "no limit" as ~2^63 */

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

int dh_parse_u64(const char *s, uint64_t *out)
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

double dh_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

const char *dh_timing_name(dh_timing t)
{
    return t == DRTOPK_TIMING_GPU ? "gpu" : "call";
}

int dh_timing_parse(const char *s, dh_timing *out)
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

double dh_median(double *v, size_t n)
{
    if (v == NULL || n == 0) return 0.0;
    qsort(v, n, sizeof *v, cmp_double);
    return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int dh_ilog2_floor(uint64_t x)
{
    int r = -1;          /* x == 0 has no log; -1 marks it */
    while (x) { x >>= 1; ++r; }
    return r;
}

int dh_ilog2_ceil(uint64_t x)
{
    if (x <= 1) return 0;
    return dh_ilog2_floor(x - 1) + 1;
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

int dh_check_regular_file(const char *path, char *err, size_t err_len)
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

/* The output sets holding temporaries, for the signal handler: a slot is
 * filled before the set's first temporary is created and emptied after its
 * last one is renamed or removed. */
static dh_outputs *volatile live_sets[LIVE_SETS_MAX];
static volatile sig_atomic_t cleanup_installed;
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* Remove every live temporary, then die of the signal as the default would
 * (the parent sees the signal, not an exit status).  unlink() and raise()
 * are async-signal-safe. */
static void cleanup_on_signal(int sig)
{
    for (int i = 0; i < LIVE_SETS_MAX; ++i) {
        dh_outputs *o = live_sets[i];
        for (int j = 0; o && j < o->count; ++j) unlink(o->tmp[j]);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_cleanup(void)
{
    if (cleanup_installed) return;
    cleanup_installed = 1;
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof cleanup_signals[0]; ++i) {
        struct sigaction old, sa;
        if (sigaction(cleanup_signals[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = cleanup_on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(cleanup_signals[i], &sa, NULL);
    }
}

static void set_live(dh_outputs *o, int live)
{
    for (int i = 0; i < LIVE_SETS_MAX; ++i)
        if (live ? live_sets[i] == NULL : live_sets[i] == o) {
            live_sets[i] = live ? o : NULL;
            return;
        }
}

int dh_outputs_add(dh_outputs *o, const char *path, const char **tmp, char *err, size_t err_len)
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
    install_cleanup();
    if (o->count == 0) set_live(o, 1);
    ++o->count;                   /* counted before it exists: a signal now removes it too */
    int fd = open(t, O_WRONLY | O_CREAT | O_TRUNC, NEW_FILE_MODE);
    if (fd < 0) {
        set_err(err, err_len, "cannot write '%s': %s", path, strerror(errno));
        if (--o->count == 0) set_live(o, 0);
        return -1;
    }
    close(fd);
    *tmp = t;
    return 0;
}

void dh_outputs_abort(dh_outputs *o)
{
    for (int i = 0; i < o->count; ++i)
        unlink(o->tmp[i]);
    o->count = 0;
    set_live(o, 0);
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

int dh_outputs_commit(dh_outputs *o, char *err, size_t err_len)
{
    for (int i = 0; i < o->count; ++i) {
        int fd = open(o->tmp[i], O_RDONLY);
        if (fd < 0 || fsync(fd) != 0) {
            set_err(err, err_len, "cannot write '%s': %s", o->path[i], strerror(errno));
            if (fd >= 0) close(fd);
            dh_outputs_abort(o);
            return -1;
        }
        close(fd);
    }
    for (int i = 0; i < o->count; ++i) {
        if (rename(o->tmp[i], o->path[i]) != 0) {
            set_err(err, err_len, "cannot rename '%s' to '%s': %s", o->tmp[i], o->path[i], strerror(errno));
            dh_outputs_abort(o);
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
    set_live(o, 0);
    return 0;
}

/* a "Key:   N kB" line of /proc/meminfo, in bytes; 0 when absent */
static uint64_t meminfo_bytes(const char *key)
{
    char line[MEMINFO_LINE];
    uint64_t kb = 0;
    const size_t n = strlen(key);
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':') {
            kb = strtoull(line + n + 1, NULL, 10);
            break;
        }
    fclose(f);
    return kb * KIB;
}

/* the first number in file `path`; 0 when absent or not a number ("max") */
static uint64_t file_number(const char *path)
{
    char line[MEMINFO_LINE];
    uint64_t v = 0;
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    if (fgets(line, sizeof line, f) && line[0] >= '0' && line[0] <= '9') v = strtoull(line, NULL, 10);
    fclose(f);
    return v;
}

/* Room left under this process's cgroup memory limit (v2: memory.max of the
 * cgroup /proc/self/cgroup names, or of the namespace's root; v1: the
 * memory controller's root as a container sees it); *limited 0 when none. */
static uint64_t cgroup_room(int *limited)
{
    static const char *const v1[2] = { "/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                       "/sys/fs/cgroup/memory/memory.usage_in_bytes" };
    char rel[MEMINFO_LINE] = "", line[MEMINFO_LINE], v2[2][DRTOPK_PATH_MAX];
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (f) {
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "0::", 3) == 0) {
                snprintf(rel, sizeof rel, "%s", strcmp(line + 3, "/\n") ? line + 3 : "");
                rel[strcspn(rel, "\n")] = '\0';
            }
        fclose(f);
    }
    snprintf(v2[0], sizeof v2[0], "/sys/fs/cgroup%s/memory.max", rel);
    snprintf(v2[1], sizeof v2[1], "/sys/fs/cgroup%s/memory.current", rel);
    const char *const *files[] = { (const char *const[]){ v2[0], v2[1] }, v1 };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        const uint64_t limit = file_number(files[i][0]);
        if (limit == 0 || limit >= CGROUP_UNLIMITED) continue;
        const uint64_t used = file_number(files[i][1]);
        *limited = 1;
        return limit > used ? limit - used : 0;
    }
    *limited = 0;
    return 0;
}

int dh_host_mem_check(uint64_t bytes, const char *what, char *err, size_t err_len)
{
    int limited;
    uint64_t avail = meminfo_bytes("MemAvailable");
    const uint64_t room = cgroup_room(&limited);
    if (limited && (avail == 0 || room < avail)) avail = room;
    if ((avail == 0 && !limited) || bytes <= avail) return 0;
    set_err(err, err_len, "out of host memory: %s needs %.2f GiB; %.2f GiB are available (free memory, or room "
            "under this cgroup's limit)", what, (double)bytes / GIB, (double)avail / GIB);
    return -1;
}
