/*
 * import_peers.c -- `tuner --import-peers FILE.jsonl`: reads
 * the JSON lines of the modern peers (experiments/peers/cub_topk_peer.cu,
 * torch_topk.py, run_peers.sh) and stores them in peer_measurements, so that
 * the paper's section 6 comparison table shows today's library top-k beside
 * the baselines, from the same database.
 *
 * The lines are flat JSON objects; the reader below accepts exactly that
 * (strings, numbers, true/false/null, and arrays of numbers for reps_ms) and
 * refuses anything else with the line number, before anything is written.
 */
#include "import_peers.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "util.h"

#define MAX_FIELDS 32               /* keys of one line; the peers print <= 14   */
#define KEY_MAX 32
#define STR_MAX 256
#define MSG_MAX 256
#define PEERS_LEGACY_SEED 20211114ull   /* the peers' fixed seed before their lines
                                           carried a "seed" field               */
#define NAME_UUID_PREFIX "gpu-name:"    /* machines.uuid of a GPU known by name only */
#define UTF8_1BYTE_MAX 0x7f
#define UTF8_2BYTE_MAX 0x7ff
#define HEX_DIGITS 4                    /* \uXXXX                               */

typedef enum { J_STR, J_NUM, J_BOOL, J_NULL, J_ARRAY } jtype;

typedef struct {
    char key[KEY_MAX];
    jtype type;
    char text[STR_MAX];     /* J_STR: the decoded string; J_NUM: the number token */
    char *array;            /* J_ARRAY: "[a,b,...]" with the number tokens (malloc) */
    int count;              /* J_ARRAY: its length                                */
    int truth;              /* J_BOOL                                             */
} jfield;

typedef struct {
    jfield f[MAX_FIELDS];
    int n;
} jline;

typedef struct {
    const char *p;
    char msg[MSG_MAX];
} cursor;

static int bad(cursor *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static void skip_ws(cursor *c)
{
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\r' || *c->p == '\n')
        ++c->p;
}

static int put_utf8(char *out, size_t cap, size_t *at, unsigned cp)
{
    unsigned char b[3];
    size_t len;
    if (cp <= UTF8_1BYTE_MAX) {
        b[0] = (unsigned char)cp;
        len = 1;
    } else if (cp <= UTF8_2BYTE_MAX) {
        b[0] = (unsigned char)(0xc0 | (cp >> 6));
        b[1] = (unsigned char)(0x80 | (cp & 0x3f));
        len = 2;
    } else {
        b[0] = (unsigned char)(0xe0 | (cp >> 12));
        b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        b[2] = (unsigned char)(0x80 | (cp & 0x3f));
        len = 3;
    }
    if (*at + len >= cap)
        return -1;
    memcpy(out + *at, b, len);
    *at += len;
    return 0;
}

/* A JSON string into out (NUL-terminated, at most cap - 1 bytes). */
static int parse_string(cursor *c, char *out, size_t cap)
{
    if (*c->p != '"')
        return bad(c, "expected a string");
    ++c->p;
    size_t at = 0;
    for (;;) {
        unsigned char ch = (unsigned char)*c->p;
        if (ch == 0)
            return bad(c, "unterminated string");
        ++c->p;
        if (ch == '"')
            break;
        if (ch < 0x20)
            return bad(c, "control character in a string");
        if (ch == '\\') {
            char e = *c->p++;
            unsigned cp = 0;
            switch (e) {
            case '"': case '\\': case '/': cp = (unsigned char)e; break;
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'n': cp = '\n'; break;
            case 'r': cp = '\r'; break;
            case 't': cp = '\t'; break;
            case 'u':
                for (int i = 0; i < HEX_DIGITS; ++i) {
                    char h = *c->p++;
                    int v = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                          : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                    if (v < 0)
                        return bad(c, "bad \\u escape");
                    cp = cp * 16 + (unsigned)v;
                }
                break;
            default:
                return bad(c, "bad escape '\\%c'", e ? e : '0');
            }
            if (put_utf8(out, cap, &at, cp) != 0)
                return bad(c, "string longer than %d bytes", (int)cap - 1);
            continue;
        }
        if (at + 1 >= cap)
            return bad(c, "string longer than %d bytes", (int)cap - 1);
        out[at++] = (char)ch;
    }
    out[at] = 0;
    return 0;
}

static int is_digit(char ch) { return ch >= '0' && ch <= '9'; }

/* A JSON number (its grammar checked) copied as its token. */
static int parse_number(cursor *c, char *out, size_t cap)
{
    const char *s = c->p, *p = s;
    if (*p == '-')
        ++p;
    if (*p == '0')
        ++p;
    else if (is_digit(*p))
        while (is_digit(*p)) ++p;
    else
        return bad(c, "bad number");
    if (*p == '.') {
        ++p;
        if (!is_digit(*p))
            return bad(c, "bad number");
        while (is_digit(*p)) ++p;
    }
    if (*p == 'e' || *p == 'E') {
        ++p;
        if (*p == '+' || *p == '-')
            ++p;
        if (!is_digit(*p))
            return bad(c, "bad number");
        while (is_digit(*p)) ++p;
    }
    size_t len = (size_t)(p - s);
    if (len >= cap)
        return bad(c, "number too long");
    memcpy(out, s, len);
    out[len] = 0;
    c->p = p;
    return 0;
}

static int parse_literal(cursor *c, const char *word)
{
    size_t len = strlen(word);
    if (strncmp(c->p, word, len) != 0)
        return -1;
    c->p += len;
    return 0;
}

/* [number, ...] into f->array as "[a,b,...]". */
static int parse_array(cursor *c, jfield *f)
{
    size_t cap = STR_MAX, at = 0;
    char *a = malloc(cap);
    if (!a)
        return bad(c, "out of memory");
    a[at++] = '[';
    ++c->p;
    skip_ws(c);
    f->count = 0;
    while (*c->p != ']') {
        char tok[STR_MAX];
        if (f->count > 0) {
            if (*c->p != ',') {
                free(a);
                return bad(c, "expected ',' or ']' in the array of \"%s\"", f->key);
            }
            ++c->p;
            skip_ws(c);
        }
        if (parse_number(c, tok, sizeof tok) != 0) {
            free(a);
            return bad(c, "the array \"%s\" may hold numbers only", f->key);
        }
        size_t len = strlen(tok);
        if (at + len + 3 > cap) {
            cap = 2 * cap + len;
            char *g = realloc(a, cap);
            if (!g) {
                free(a);
                return bad(c, "out of memory");
            }
            a = g;
        }
        if (f->count > 0)
            a[at++] = ',';
        memcpy(a + at, tok, len);
        at += len;
        ++f->count;
        skip_ws(c);
    }
    ++c->p;
    a[at++] = ']';
    a[at] = 0;
    f->array = a;
    return 0;
}

static void free_line(jline *l)
{
    for (int i = 0; i < l->n; ++i)
        free(l->f[i].array);
    l->n = 0;
}

/* One flat JSON object that makes up the whole line. */
static int parse_line(const char *text, jline *l, char *msg, size_t msg_len)
{
    cursor c = { .p = text };
    l->n = 0;
    int rc = -1;
    skip_ws(&c);
    if (*c.p != '{') {
        bad(&c, "not a JSON object");
        goto out;
    }
    ++c.p;
    skip_ws(&c);
    if (*c.p == '}') {
        ++c.p;
    } else {
        for (;;) {
            if (l->n == MAX_FIELDS) {
                bad(&c, "more than %d keys", MAX_FIELDS);
                goto out;
            }
            jfield *f = &l->f[l->n];
            memset(f, 0, sizeof *f);
            if (*c.p != '"') {
                bad(&c, "expected a key");
                goto out;
            }
            if (parse_string(&c, f->key, sizeof f->key) != 0)
                goto out;
            for (int i = 0; i < l->n; ++i)
                if (!strcmp(l->f[i].key, f->key)) {
                    bad(&c, "key \"%s\" twice", f->key);
                    goto out;
                }
            skip_ws(&c);
            if (*c.p != ':') {
                bad(&c, "expected ':' after \"%s\"", f->key);
                goto out;
            }
            ++c.p;
            skip_ws(&c);
            int r;
            if (*c.p == '"') {
                f->type = J_STR;
                r = parse_string(&c, f->text, sizeof f->text);
            } else if (*c.p == '[') {
                f->type = J_ARRAY;
                r = parse_array(&c, f);
            } else if (*c.p == '{') {
                r = bad(&c, "nested object in \"%s\" (flat lines only)", f->key);
            } else if (parse_literal(&c, "true") == 0) {
                f->type = J_BOOL;
                f->truth = 1;
                r = 0;
            } else if (parse_literal(&c, "false") == 0) {
                f->type = J_BOOL;
                r = 0;
            } else if (parse_literal(&c, "null") == 0) {
                f->type = J_NULL;
                r = 0;
            } else {
                f->type = J_NUM;
                r = parse_number(&c, f->text, sizeof f->text);
                if (r != 0)
                    bad(&c, "bad value of \"%s\"", f->key);
            }
            if (r != 0)
                goto out;
            ++l->n;
            skip_ws(&c);
            if (*c.p == ',') {
                ++c.p;
                skip_ws(&c);
                continue;
            }
            if (*c.p == '}') {
                ++c.p;
                break;
            }
            bad(&c, "expected ',' or '}' after \"%s\"", f->key);
            goto out;
        }
    }
    skip_ws(&c);
    if (*c.p) {
        bad(&c, "text after the object");
        goto out;
    }
    rc = 0;
out:
    if (rc != 0) {
        snprintf(msg, msg_len, "%s", c.msg);
        free_line(l);
    }
    return rc;
}

static const jfield *get(const jline *l, const char *key)
{
    for (int i = 0; i < l->n; ++i)
        if (!strcmp(l->f[i].key, key))
            return &l->f[i];
    return NULL;
}

/* ---- a line into a peer row ------------------------------------------------ */

typedef struct {
    dh_store_peer p;
    char gpu[STR_MAX];          /* "" when the line names none                  */
    char uuid[64];
    char *reps_ms;              /* owned                                        */
    int64_t machine_id;
} entry;

typedef struct {
    const jline *l;
    char *msg;
    size_t msg_len;
} conv;

static int cbad(conv *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->msg, v->msg_len, fmt, ap);
    va_end(ap);
    return -1;
}

/* A string field into out; *present = 0 when missing (an error if required). */
static int str_field(conv *v, const char *key, int required, char *out, size_t cap)
{
    const jfield *f = get(v->l, key);
    out[0] = 0;
    if (!f || f->type == J_NULL)
        return required ? cbad(v, "missing \"%s\"", key) : 0;
    if (f->type != J_STR)
        return cbad(v, "\"%s\" must be a string", key);
    if (strlen(f->text) >= cap)
        return cbad(v, "\"%s\" longer than %d bytes", key, (int)cap - 1);
    snprintf(out, cap, "%s", f->text);
    return 0;
}

/* A non-negative integer field (up to 2^64 - 1); dflt when missing and not required. */
static int u64_field(conv *v, const char *key, int required, uint64_t dflt, uint64_t *out)
{
    const jfield *f = get(v->l, key);
    *out = dflt;
    if (!f)
        return required ? cbad(v, "missing \"%s\"", key) : 0;
    const char *s = f->text;
    if (f->type != J_NUM || !*s || strspn(s, "0123456789") != strlen(s))
        return cbad(v, "\"%s\" must be a non-negative integer", key);
    errno = 0;
    char *end;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno == ERANGE)
        return cbad(v, "\"%s\" out of range", key);
    *out = (uint64_t)x;
    return 0;
}

static int ms_field(conv *v, const char *key, double *out)
{
    const jfield *f = get(v->l, key);
    if (!f)
        return cbad(v, "missing \"%s\"", key);
    if (f->type != J_NUM)
        return cbad(v, "\"%s\" must be a number", key);
    *out = strtod(f->text, NULL);
    if (!isfinite(*out) || *out < 0)
        return cbad(v, "\"%s\" must be a finite number >= 0", key);
    return 0;
}

static int name_ok(const char *s)
{
    return *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == strlen(s);
}

static int to_entry(const jline *l, entry *e, char *msg, size_t msg_len)
{
    conv v = { l, msg, msg_len };
    dh_store_peer *p = &e->p;
    memset(e, 0, sizeof *e);
    if (str_field(&v, "peer", 1, p->peer, sizeof p->peer) != 0)
        return -1;
    if (!name_ok(p->peer))
        return cbad(&v, "bad peer name \"%s\"", p->peer);
    if (str_field(&v, "gpu", 0, e->gpu, sizeof e->gpu) != 0 ||
        str_field(&v, "uuid", 0, e->uuid, sizeof e->uuid) != 0)
        return -1;
    if (e->uuid[0] && !e->gpu[0])
        return cbad(&v, "\"uuid\" without \"gpu\"");
    static const char *const version_keys[] = { "peer_version", "torch", "cccl" };
    for (size_t i = 0; i < sizeof version_keys / sizeof *version_keys && !p->peer_version[0]; ++i)
        if (str_field(&v, version_keys[i], 0, p->peer_version, sizeof p->peer_version) != 0)
            return -1;
    char skipped[STR_MAX], error[STR_MAX];
    if (str_field(&v, "skipped", 0, skipped, sizeof skipped) != 0 ||
        str_field(&v, "error", 0, error, sizeof error) != 0)
        return -1;
    int measured = !skipped[0] && !error[0];
    if (skipped[0] && error[0])
        return cbad(&v, "both \"skipped\" and \"error\"");
    p->status = skipped[0] ? DRTOPK_PEER_SKIPPED : error[0] ? DRTOPK_PEER_ERROR : DRTOPK_PEER_OK;
    snprintf(p->reason, sizeof p->reason, "%s", skipped[0] ? skipped : error);
    if (measured && !e->gpu[0])
        return cbad(&v, "missing \"gpu\"");

    /* The configuration: required of a measurement, else what the line says. */
    char dist[STR_MAX], dtype[STR_MAX];
    if (str_field(&v, "dist", measured, dist, sizeof dist) != 0 ||
        str_field(&v, "dtype", measured, dtype, sizeof dtype) != 0 ||
        u64_field(&v, "n", measured, 0, &p->n) != 0 || u64_field(&v, "k", measured, 0, &p->k) != 0 ||
        u64_field(&v, "seed", 0, PEERS_LEGACY_SEED, &p->seed) != 0)
        return -1;
    if (dist[0]) {
        dh_dist d;
        if (dh_dist_parse(dist, &d) != DRTOPK_OK)
            return cbad(&v, "unknown dist \"%s\"", dist);
        snprintf(p->dist, sizeof p->dist, "%s", dh_dist_name(d));
    }
    if (dtype[0]) {
        drtopk_dtype t;
        if (drtopk_dtype_parse(dtype, &t) != DRTOPK_OK)
            return cbad(&v, "unknown dtype \"%s\"", dtype);
        snprintf(p->dtype, sizeof p->dtype, "%s", drtopk_dtype_name(t));
    }
    char timing[STR_MAX];
    dh_timing t = DRTOPK_TIMING_CALL;       /* lines without the field: events around the call */
    if (str_field(&v, "timing", 0, timing, sizeof timing) != 0)
        return -1;
    if (timing[0] && dh_timing_parse(timing, &t) != 0)
        return cbad(&v, "\"timing\" must be \"gpu\" or \"call\", not \"%s\"", timing);
    p->timing = dh_timing_name(t);
    if (!measured)
        return 0;
    if (p->n == 0 || p->k == 0 || p->k > p->n)
        return cbad(&v, "need 1 <= k <= n (n %llu, k %llu)", (unsigned long long)p->n,
                    (unsigned long long)p->k);
    uint64_t reps;
    if (ms_field(&v, "ms_median", &p->median_ms) != 0 || ms_field(&v, "ms_min", &p->min_ms) != 0 ||
        ms_field(&v, "ms_max", &p->max_ms) != 0 || u64_field(&v, "reps", 1, 0, &reps) != 0)
        return -1;
    if (!(p->min_ms <= p->median_ms && p->median_ms <= p->max_ms))
        return cbad(&v, "need ms_min <= ms_median <= ms_max");
    if (reps == 0 || reps > INT32_MAX)
        return cbad(&v, "\"reps\" must be at least 1");
    p->reps = (int)reps;
    const jfield *f = get(l, "verified");
    if (!f)
        return cbad(&v, "missing \"verified\"");
    if (f->type == J_BOOL)
        p->verified = f->truth;
    else if (f->type == J_NUM && (!strcmp(f->text, "0") || !strcmp(f->text, "1")))
        p->verified = f->text[0] == '1';
    else
        return cbad(&v, "\"verified\" must be 0, 1, true or false");
    f = get(l, "reps_ms");
    if (f && f->type != J_NULL) {
        if (f->type != J_ARRAY)
            return cbad(&v, "\"reps_ms\" must be an array of numbers");
        if (f->count != p->reps)
            return cbad(&v, "\"reps_ms\" has %d values, \"reps\" says %d", f->count, p->reps);
        e->reps_ms = strdup(f->array);
        if (!e->reps_ms)
            return cbad(&v, "out of memory");
        p->reps_ms = e->reps_ms;
    }
    return 0;
}

/* ---- reading and storing ----------------------------------------------------- */

static void set_err(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

static void free_entries(entry *e, int n)
{
    for (int i = 0; i < n; ++i)
        free(e[i].reps_ms);
    free(e);
}

/* Every non-blank line of path as an entry; -1 with "path:line: why". */
static int read_entries(const char *path, entry **out, int *count, int *lines, char *err, size_t err_len)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        set_err(err, err_len, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    entry *e = NULL;
    int n = 0, cap = 0, lineno = 0, rc = 0;
    char *buf = NULL;
    size_t bufcap = 0;
    ssize_t got;
    jline *l = malloc(sizeof *l);
    if (!l) {
        fclose(fp);
        set_err(err, err_len, "out of memory");
        return -1;
    }
    while ((got = getline(&buf, &bufcap, fp)) >= 0) {
        ++lineno;
        if ((size_t)got != strlen(buf)) {
            set_err(err, err_len, "%s:%d: NUL byte in the line", path, lineno);
            rc = -1;
            break;
        }
        if (strspn(buf, " \t\r\n") == (size_t)got)
            continue;
        char msg[MSG_MAX];
        if (parse_line(buf, l, msg, sizeof msg) != 0) {
            set_err(err, err_len, "%s:%d: malformed JSON line: %s", path, lineno, msg);
            rc = -1;
            break;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            entry *g = realloc(e, (size_t)cap * sizeof *e);
            if (!g) {
                free_line(l);
                set_err(err, err_len, "out of memory");
                rc = -1;
                break;
            }
            e = g;
        }
        int r = to_entry(l, &e[n], msg, sizeof msg);
        free_line(l);
        if (r != 0) {
            free(e[n].reps_ms);
            set_err(err, err_len, "%s:%d: %s", path, lineno, msg);
            rc = -1;
            break;
        }
        ++n;
    }
    if (rc == 0 && ferror(fp)) {
        set_err(err, err_len, "reading %s: %s", path, strerror(errno));
        rc = -1;
    }
    free(l);
    free(buf);
    fclose(fp);
    *lines = n;
    if (rc != 0) {
        free_entries(e, n);
        return -1;
    }
    *out = e;
    *count = n;
    return 0;
}

/* The machine of a line that names a GPU: by uuid (created or updated), else
 * the most recent machine of that name, else a new one known by name only. */
static drtopk_status line_machine(dh_store *db, const entry *e, int64_t *id)
{
    dh_store_machine m;
    memset(&m, 0, sizeof m);
    m.backend = "cuda";
    snprintf(m.name, sizeof m.name, "%s", e->gpu);
    if (e->uuid[0]) {
        snprintf(m.uuid, sizeof m.uuid, "%s", e->uuid);
        return dh_store_put_machine(db, &m, id);
    }
    int found = 0;
    drtopk_status r = dh_store_machine_by_name(db, e->gpu, "cuda", id, &found);
    if (r != DRTOPK_OK || found)
        return r;
    snprintf(m.uuid, sizeof m.uuid, NAME_UUID_PREFIX "%.*s", (int)(sizeof m.uuid - sizeof NAME_UUID_PREFIX),
             e->gpu);
    return dh_store_put_machine(db, &m, id);
}

static drtopk_status store_all(dh_store *db, entry *e, int n, const char *git_commit,
                               const char *argv, import_peers_stats *st)
{
    int64_t run_machine = 0;
    int have = 0;
    drtopk_status r = DRTOPK_OK;
    for (int i = 0; i < n && r == DRTOPK_OK; ++i) {
        if (!e[i].gpu[0])
            continue;
        int j = 0;              /* the same GPU as an earlier line: its machine */
        while (j < i && (strcmp(e[j].gpu, e[i].gpu) || strcmp(e[j].uuid, e[i].uuid)))
            ++j;
        if (j < i)
            e[i].machine_id = e[j].machine_id;
        else
            r = line_machine(db, &e[i], &e[i].machine_id);
        if (!have) {
            run_machine = e[i].machine_id;
            have = 1;
        }
    }
    if (r == DRTOPK_OK && !have) {
        /* Only peers that did not run, and no GPU named: this host. */
        dh_store_machine m;
        dh_store_cpu_machine(&m);
        r = dh_store_put_machine(db, &m, &run_machine);
    }
    int64_t run_id = 0;
    if (r == DRTOPK_OK)
        r = dh_store_begin_run(db, run_machine, "tuner", argv, git_commit, &run_id);
    for (int i = 0; i < n && r == DRTOPK_OK; ++i) {
        int added = 0;
        r = dh_store_put_peer(db, e[i].gpu[0] ? e[i].machine_id : run_machine, run_id, git_commit,
                              &e[i].p, &added);
        st->added += added;
        st->present += !added;
        st->skipped += e[i].p.status == DRTOPK_PEER_SKIPPED;
        st->errors += e[i].p.status == DRTOPK_PEER_ERROR;
        st->unverified += e[i].p.status == DRTOPK_PEER_OK && !e[i].p.verified;
    }
    if (r == DRTOPK_OK)
        r = dh_store_end_run(db, run_id, "done");
    return r;
}

int import_peers(dh_store *db, const char *path, const char *git_commit, const char *argv,
                 import_peers_stats *st, char *err, size_t err_len)
{
    memset(st, 0, sizeof *st);
    entry *e = NULL;
    int n = 0;
    if (read_entries(path, &e, &n, &st->lines, err, err_len) != 0)
        return -1;
    if (n == 0) {
        free_entries(e, n);
        set_err(err, err_len, "%s: no peer lines", path);
        return -1;
    }
    drtopk_status r = dh_store_begin(db);
    if (r == DRTOPK_OK)
        r = store_all(db, e, n, git_commit, argv, st);
    if (r == DRTOPK_OK)
        r = dh_store_commit(db);
    if (r != DRTOPK_OK) {
        set_err(err, err_len, "storing the peers of %s: %s", path, dh_store_errmsg(db));
        dh_store_rollback(db);
        memset(st, 0, sizeof *st);
    }
    free_entries(e, n);
    return r == DRTOPK_OK ? 0 : -1;
}
