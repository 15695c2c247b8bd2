/*
 * emit_table.c -- `tuner --emit-table FILE`: the generator of the library's
 * compiled-in tuning tables (src/lib/tuning_builtin.c), kept beside the tuner
 * as RAFT keeps the generator of its learned select-k choice.  For every GPU
 * model of the database that has a decision table it writes the entries
 * dh_store_load_checked_tuning gives for that model (the cells a held-out
 * check kept; elsewhere the default plan, then -- unless the sweep measured onepass --
 * Rule 4 with the fitted const from the smallest size the fit measured up),
 * so the library runs on each GPU model what the tuner chose there
 * (paper section 5.2), with the algorithms measured on the machine whose
 * entries it writes (drtopk_tuning.algos_measured).  A model whose sweep
 * measured neither onepass nor fused is left out: its table cannot decide
 * against the plans the library's size rules choose.  The output depends on the database alone
 * (no time, no commit of the generator): the same database gives the same
 * file.  Written to a temporary beside FILE and renamed, so FILE is never partly
 * written (util.h's dh_outputs).
 */
#include "emit_table.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_decide.h"
#include "store.h"
#include "util.h"

#define MAX_GPUS 64                 /* GPU models one table holds              */
#define IDENT_LEN 96

typedef struct {
    char name[MAX_GPUS][256];
    int count;
} gpu_list;

static int add_gpu(const char *name, void *ctx)
{
    gpu_list *g = ctx;
    if (g->count == MAX_GPUS)
        return 1;
    snprintf(g->name[g->count++], sizeof g->name[0], "%s", name);
    return 0;
}

/* A C identifier from a GPU name: lower case, runs of other characters as
 * one '_'. */
static void ident_of(const char *name, char *out, size_t len)
{
    size_t at = 0;
    int gap = 0;
    for (const char *p = name; *p && at + 2 < len; ++p) {
        if (isalnum((unsigned char)*p)) {
            if (gap && at)
                out[at++] = '_';
            out[at++] = (char)tolower((unsigned char)*p);
            gap = 0;
        } else {
            gap = 1;
        }
    }
    out[at] = 0;
}

static const char *dtype_enum(drtopk_dtype t)
{
    static char buf[32];
    snprintf(buf, sizeof buf, "DRTOPK_%s", drtopk_dtype_name(t));
    for (char *p = buf; *p; ++p)
        *p = (char)toupper((unsigned char)*p);
    return buf;
}

static const char *algo_enum(drtopk_algo a)
{
    static char buf[48];
    snprintf(buf, sizeof buf, "DRTOPK_ALGO_%s", drtopk_algo_name(a));
    for (char *p = buf; *p; ++p)
        *p = *p == '-' ? '_' : (char)toupper((unsigned char)*p);
    return buf;
}

/* The C string literal of s (GPU names are printable ASCII; others escaped). */
static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(f, "\\%03o", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* The batch plans of the database: per GPU model the built-in defaults with
 * the fields `tuner --batch` decided there. */
typedef struct {
    char name[MAX_GPUS][256];
    drtopk_batch_plan plan[MAX_GPUS];
    int count;
    char unknown[64];           /* a field this tuner does not know */
} batch_list;

static int add_batch_choice(const char *gpu, const char *field, uint64_t value, void *ctx)
{
    batch_list *b = ctx;
    const int f = batch_field_of(field);
    if (f < 0) {
        snprintf(b->unknown, sizeof b->unknown, "%s", field);
        return 1;
    }
    if (b->count == 0 || strcmp(b->name[b->count - 1], gpu)) {
        if (b->count == MAX_GPUS)
            return 1;
        const drtopk_batch_problem cpu = { .backend = DRTOPK_BACKEND_CPU };
        snprintf(b->name[b->count], sizeof b->name[0], "%s", gpu);
        drtopk_batch_plan_auto(&b->plan[b->count++], &cpu);    /* the defaults: the CPU is never tuned */
    }
    *batch_field(&b->plan[b->count - 1], f) = value;
    return 0;
}

static void write_batch(FILE *f, const batch_list *b)
{
    fprintf(f, "\n/* The batch plans (tuner --batch, tuner/batch_decide.c), one per GPU model: the\n"
               " * built-in defaults with the crossovers measured there.  The last row only ends\n"
               " * the list. */\n"
               "const drtopk_batch_tuning drtopk_builtin_batch_tunings[] = {\n");
    for (int i = 0; i < b->count; ++i) {
        const drtopk_batch_plan *p = &b->plan[i];
        fprintf(f, "    { ");
        put_string(f, b->name[i]);
        fprintf(f, ", { .warp_max_k = %llu, .warp_max_len = %llu, .block_max_len = %llu, .tiny_max_k = %llu,\n"
                   "        .staged_max_len = %llu, .dr_min_len = %llu, .tiny_max_k_64 = %llu,\n"
                   "        .block_max_len_64 = %llu, .filter_min_len = %llu } },\n",
                (unsigned long long)p->warp_max_k, (unsigned long long)p->warp_max_len,
                (unsigned long long)p->block_max_len, (unsigned long long)p->tiny_max_k,
                (unsigned long long)p->staged_max_len, (unsigned long long)p->dr_min_len,
                (unsigned long long)p->tiny_max_k_64, (unsigned long long)p->block_max_len_64,
                (unsigned long long)p->filter_min_len);
    }
    fprintf(f, "    { NULL, { 0 } },\n"
               "};\n"
               "const size_t drtopk_builtin_batch_tuning_count =\n"
               "    sizeof drtopk_builtin_batch_tunings / sizeof drtopk_builtin_batch_tunings[0] - 1;\n");
}

/* The checked tuning dh_store_load_checked_tuning gives GPU model `name` in
 * *t.  0, or -1 with a message. */
static int load_model(const char *db_path, const char *name, dh_store_tuning *t)
{
    char err[DRTOPK_STORE_ERR_LEN];
    if (dh_store_load_checked_tuning(db_path, NULL, name, t, err, sizeof err) == DRTOPK_OK)
        return 0;
    fprintf(stderr, "tuner: --emit-table: %s\n", err);
    return -1;
}

static int write_table(FILE *f, const char *db_path, const gpu_list *g)
{
    char ident[MAX_GPUS][IDENT_LEN];
    uint32_t measured[MAX_GPUS];
    fprintf(f,
            "/*\n"
            " * tuning_builtin.c -- GENERATED by `tuner --emit-table` (tuner/emit_table.c)\n"
            " * from the shipped reference results (the SQL dumps in db/reference/, loaded\n"
            " * by tuner/emit_builtin.sh); do not edit by hand: rerun the generator.\n"
            " *\n"
            " * The tuning tables compiled into the library, one per GPU model (matched by\n"
            " * the CUDA device name): the tuner's decision table over (dtype, log2 n,\n"
            " * log2 k), each cell the plan with the least worst slowdown over UD/ND/CD\n"
            " * that passed the held-out check (a cell dropped or never checked runs the\n"
            " * default plan), then, unless the sweep measured onepass, Rule 4 with the\n"
            " * fitted const from the smallest size the fit measured up (paper section 5.2).\n"
            " * drtopk_plan_auto uses them on the CUDA backend when the caller's table has\n"
            " * no entry for the problem (plan->const_source = DRTOPK_CONST_BUILTIN), but\n"
            " * not over an untuned standalone plan (fused, onepass) the sweep never measured.\n"
            " */\n"
            "#include \"tuning.h\"\n");
    for (int i = 0; i < g->count; ++i) {
        dh_store_tuning t;
        if (load_model(db_path, g->name[i], &t) != 0)
            return -1;
        ident_of(g->name[i], ident[i], sizeof ident[i]);
        measured[i] = t.table.algos_measured;
        fprintf(f, "\n/* %s (machine %s): %zu %s, the sweep measured", g->name[i], t.machine_uuid,
                t.table.count, t.table.count == 1 ? "entry" : "entries");
        for (int a = 0; a < DRTOPK_ALGO_COUNT; ++a)
            if (measured[i] & (UINT32_C(1) << a))
                fprintf(f, " %s", drtopk_algo_name((drtopk_algo)a));
        fprintf(f, "%s.\n", measured[i] ? "" : " no algorithm recorded");
        fprintf(f, " * { dtype, log2 n min, max, log2 k min, max, algorithm, beta, Rule 4 const,\n"
                   " *   shared/staged delegate build up to alpha (0: the library's default) } */\n");
        fprintf(f, "static const drtopk_tuning_entry %s_entries[] = {\n", ident[i]);
        for (size_t e = 0; e < t.table.count; ++e) {
            const drtopk_tuning_entry *x = &t.table.entries[e];
            fprintf(f, "    { %s, %d, %d, %d, %d, %s, %d, %.17g, %d },\n", dtype_enum(x->dtype), x->log2n_min,
                    x->log2n_max, x->log2k_min, x->log2k_max, algo_enum(x->algo), x->beta, x->rule4_const,
                    x->shared_build_max_alpha);
        }
        if (t.table.count == 0)
            fprintf(f, "    { DRTOPK_U32, 1, 0, 1, 0, DRTOPK_ALGO_RADIX, 2, 3.0, 0 }, /* matches nothing */\n");
        fprintf(f, "};\n");
        dh_store_tuning_free(&t);
    }
    fprintf(f, "\n/* The last row only ends the list (C has no empty arrays). */\n"
               "const drtopk_tuning drtopk_builtin_tunings[] = {\n");
    for (int i = 0; i < g->count; ++i) {
        fprintf(f, "    { ");
        put_string(f, g->name[i]);
        fprintf(f, ", %s_entries, sizeof %s_entries / sizeof %s_entries[0],\n      ", ident[i], ident[i],
                ident[i]);
        int first = 1;
        for (int a = 0; a < DRTOPK_ALGO_COUNT; ++a)
            if (measured[i] & (UINT32_C(1) << a)) {
                fprintf(f, "%s1u << %s", first ? "" : " | ", algo_enum((drtopk_algo)a));
                first = 0;
            }
        fprintf(f, "%s },\n", first ? "0" : "");
    }
    fprintf(f, "    { NULL, NULL, 0, 0 },\n"
               "};\n"
               "const size_t drtopk_builtin_tuning_count =\n"
               "    sizeof drtopk_builtin_tunings / sizeof drtopk_builtin_tunings[0] - 1;\n");
    return 0;
}

/* The plans the library's size rules choose beside the pipeline
 * (src/lib/policy.h): a tuning that never measured them cannot decide
 * against them. */
#define CONTENDERS ((UINT32_C(1) << DRTOPK_ALGO_ONEPASS) | (UINT32_C(1) << DRTOPK_ALGO_FUSED))

/* Drop from g the GPU models whose tuning's sweep did not measure the
 * CONTENDERS (a sweep older than they are), each named on stderr.  0, or -1
 * with a message. */
static int keep_contender_sweeps(const char *db_path, gpu_list *g)
{
    int kept = 0;
    for (int i = 0; i < g->count; ++i) {
        dh_store_tuning t;
        if (load_model(db_path, g->name[i], &t) != 0)
            return -1;
        if ((t.table.algos_measured & CONTENDERS) == CONTENDERS)
            memmove(g->name[kept++], g->name[i], sizeof g->name[i]);
        else
            fprintf(stderr, "tuner: --emit-table: %s (machine %s) left out: its sweep measured neither onepass nor "
                            "fused, which the library's size rules choose (tuner --gpu G --quick measures them)\n",
                    g->name[i], t.machine_uuid);
        dh_store_tuning_free(&t);
    }
    g->count = kept;
    return 0;
}

int emit_table(const char *db_path, const char *out_path)
{
    dh_store *db;
    char err[DRTOPK_PATH_MAX + DRTOPK_STORE_ERR_LEN];     /* a store's message, or a path and errno text */
    if (dh_store_open(db_path, DRTOPK_STORE_READONLY, &db, err, sizeof err) != DRTOPK_OK) {
        fprintf(stderr, "tuner: --emit-table: %s\n", err);
        return -1;
    }
    gpu_list g = { .count = 0 };
    batch_list b = { .count = 0 };
    drtopk_status st = dh_store_each_tuned_gpu(db, add_gpu, &g);
    if (st == DRTOPK_OK)
        st = dh_store_each_batch_choice(db, add_batch_choice, &b);
    if (st != DRTOPK_OK)
        fprintf(stderr, "tuner: --emit-table: %s: %s\n", db_path, dh_store_errmsg(db));
    dh_store_close(db);
    if (st != DRTOPK_OK)
        return -1;
    if (b.unknown[0] || b.count == MAX_GPUS) {
        fprintf(stderr, "tuner: --emit-table: %s: %s\n", db_path,
                b.unknown[0] ? "a batch choice names a field this tuner does not know (a newer tuner's?)"
                             : "more batch-tuned GPU models than one table holds");
        return -1;
    }
    if (g.count == MAX_GPUS) {
        fprintf(stderr, "tuner: --emit-table: %s has more than %d tuned GPU models\n", db_path, MAX_GPUS - 1);
        return -1;
    }
    if (keep_contender_sweeps(db_path, &g) != 0)
        return -1;
    if (g.count == 0)
        fprintf(stderr, "tuner: --emit-table: %s has no decision table of any GPU that measured the library's "
                        "plans: the generated table is empty (the library then uses its size rules)\n", db_path);
    dh_outputs outs = { 0 };
    const char *tmp;
    if (dh_outputs_add(&outs, out_path, &tmp, err, sizeof err) != 0) {
        fprintf(stderr, "tuner: --emit-table: %s\n", err);
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "tuner: --emit-table: cannot write %s: %s\n", tmp, strerror(errno));
        dh_outputs_abort(&outs);
        return -1;
    }
    int rc = write_table(f, db_path, &g);
    if (rc == 0)
        write_batch(f, &b);
    if (fflush(f) != 0 || ferror(f)) {
        fprintf(stderr, "tuner: --emit-table: writing %s: %s\n", tmp, strerror(errno));
        rc = -1;
    }
    if (fclose(f) != 0 && rc == 0) {
        fprintf(stderr, "tuner: --emit-table: closing %s: %s\n", tmp, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && dh_outputs_commit(&outs, err, sizeof err) != 0) {
        fprintf(stderr, "tuner: --emit-table: %s\n", err);
        rc = -1;
    }
    if (rc != 0)
        dh_outputs_abort(&outs);
    else
        printf("tuner: wrote %s: %d GPU models, %d batch plans from %s\n", out_path, g.count, b.count, db_path);
    return rc;
}
