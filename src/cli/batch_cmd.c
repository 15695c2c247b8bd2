/*
 * batch_cmd.c -- `drtopk batch`: batched and segmented top-k (drtopk.h,
 * drtopk_batch_*) over uniform rows (--rows R --cols C) or segments given by
 * a file of offsets (--segments FILE.u64), of the seeded vector `drtopk run`
 * generates (here of rows*cols or offsets[last] elements) or of a raw file; on
 * the GPU (warp queue, block radix select, the Dr. Top-k pipeline of paper
 * sections 4-5 for long rows) or the CPU backend.  Times the call (median of
 * repetitions; on the GPU its GPU time by default, --timing), verifies every segment on the host and writes the result
 * atomically, with the data, verify, json and output options of `drtopk run`
 * (runopt.c).
 */
#include "drtopk.h"
#include "batch_check.h"
#include "cli.h"
#include "device.h"
#include "gen.h"
#include "util.h"
#include "version.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_REPS_CUDA 7       /* as drtopk run */
#define DEFAULT_REPS_CPU 1
#define DEFAULT_WARMUP_CUDA 1
#define DEFAULT_WARMUP_CPU 0
#define PROGRESS_MIN_N (1ull << 26) /* host loops this long take seconds: say so */
#define BYTES_PER_GB 1e9
#define MS_PER_S 1e3

const char help_batch[] =
    "usage: drtopk batch --rows R --cols C --k K [options]\n"
    "       drtopk batch --segments FILE.u64 --k K [options]\n"
    "       drtopk batch --input FILE.{u32,...,f64} (--cols C | --segments FILE.u64) --k K [options]\n"
    "\n"
    "Selects the top K of every row (uniform rows of C elements) or of every segment\n"
    "(segment s is elements offsets[s] .. offsets[s+1]-1; FILE.u64 holds segments+1\n"
    "little-endian uint64 offsets).  Results: K slots per segment, positions within the\n"
    "segment; a segment shorter than K (or with a smaller --ks entry) fills k_s =\n"
    "min(ks[s], K, length) slots and pads the rest with index 2^64-1 and value 0.\n"
    "With --rows/--cols, K larger than C is an error.\n"
    "\n"
    "shape:\n"
    "  --rows R           number of rows (with --cols; from --input's size if omitted)\n"
    "  --cols C           elements per row\n"
    "  --segments FILE    segment offsets (.u64), instead of --rows/--cols\n"
    "  --k K              result slots per segment (required)\n"
    "  --ks FILE          a k per segment (.u64, one per segment; each clamped to K)\n"
    "data:\n"
    "  --dist D, --seed S, --dtype T, --input FILE, --smallest   as in `drtopk run`; the\n"
    "                     seeded vector has rows*cols (or offsets[last]) elements\n"
    "plan (GPU crossovers; defaults from drtopk_batch_plan_auto):\n"
    "  --warp-max-k K     largest k of the warp queue (0..256)\n"
    "  --warp-max-len N   longest segment a warp selects from\n"
    "  --tiny-max-k K     largest k of the register select of rows <= 256 keys (0: off,\n"
    "                     at most 32)\n"
    "  --block-max-len N  longest uniform row of the radix selects (longer: Dr. Top-k)\n"
    "                     (--tiny-max-k and --block-max-len set the plan field of --dtype's key\n"
    "                     width: tiny_max_k_64 and block_max_len_64 for 64-bit keys)\n"
    "  --dr-min-len N     segments (--segments) longer than N run the Dr. Top-k pipeline (0: off)\n"
    "  --filter-min-len N segments longer than N run the filter select where it applies (keys of\n"
    "                     at most 32 bits, candidates that fit a block; 0: off)\n"
    "  --sorted           results best first\n"
    "  --deterministic    each segment's ties at its k-th value keep the smallest positions, and\n"
    "                     with --sorted equal values come by position (as drtopk run's)\n"
    "execution and output:\n"
    "  --backend B, --gpu G, --reps R, --warmup W, --verify, --json   as in `drtopk run`\n"
    "  --timing gpu|call  gpu (default on cuda): each call's GPU time, the stream held by a\n"
    "                     blocking kernel until the call is enqueued (as tuner --timing);\n"
    "                     call (the CPU backend's only method): the host clock around the\n"
    "                     call and a device synchronisation\n"
    "  --output PREFIX    PREFIX.values (segments*K elements) and PREFIX.indices\n"
    "                     (segments*K uint64), little-endian raw, written atomically\n";

enum { B_ROWS = R_HELP + 1, B_COLS, B_SEGMENTS, B_KS, B_WARP_K, B_WARP_LEN, B_BLOCK_LEN, B_DR_LEN, B_TINY_K,
       B_FILTER_LEN };

static const opt_spec batch_specs[] = {
    { "rows", B_ROWS, 1 }, { "cols", B_COLS, 1 }, { "segments", B_SEGMENTS, 1 }, { "ks", B_KS, 1 },
    { "warp-max-k", B_WARP_K, 1 }, { "warp-max-len", B_WARP_LEN, 1 }, { "block-max-len", B_BLOCK_LEN, 1 },
    { "dr-min-len", B_DR_LEN, 1 }, { "tiny-max-k", B_TINY_K, 1 }, { "timing", R_TIMING, 1 },
    { "filter-min-len", B_FILTER_LEN, 1 }, { "k", R_K, 1 }, { "dist", R_DIST, 1 }, { "seed", R_SEED, 1 }, { "dtype", R_DTYPE, 1 },
    { "smallest", R_SMALLEST, 0 }, { "backend", R_BACKEND, 1 }, { "gpu", R_GPU, 1 }, { "reps", R_REPS, 1 },
    { "warmup", R_WARMUP, 1 }, { "verify", R_VERIFY, 0 }, { "json", R_JSON, 0 }, { "output", R_OUTPUT, 1 },
    { "input", R_INPUT, 1 }, { "sorted", R_SORTED, 0 }, { "deterministic", R_DETERMINISTIC, 0 },
    { "help", R_HELP, 0 }, { NULL, 0, 0 }
};

typedef struct {
    run_cfg run;                /* the options shared with drtopk run (n = total elements) */
    uint64_t rows, cols, warp_max_k, warp_max_len, block_max_len, dr_min_len, tiny_max_k, filter_min_len;
    int have_rows, have_cols, have_warp_k, have_warp_len, have_block_len, have_dr_len, have_tiny_k, have_filter_len;
    const char *segments, *ks_file;
} batch_cfg;

static int batch_option(void *ctx, int id, const char *opt, const char *val)
{
    batch_cfg *b = (batch_cfg *)ctx;
    switch (id) {
    case B_ROWS: b->have_rows = 1; return parse_size(opt, val, &b->rows);
    case B_COLS: b->have_cols = 1; return parse_size(opt, val, &b->cols);
    case B_SEGMENTS: b->segments = val; return 0;
    case B_KS: b->ks_file = val; return 0;
    case B_WARP_K: b->have_warp_k = 1; return parse_size(opt, val, &b->warp_max_k);
    case B_WARP_LEN: b->have_warp_len = 1; return parse_size(opt, val, &b->warp_max_len);
    case B_BLOCK_LEN: b->have_block_len = 1; return parse_size(opt, val, &b->block_max_len);
    case B_DR_LEN: b->have_dr_len = 1; return parse_size(opt, val, &b->dr_min_len);
    case B_FILTER_LEN: b->have_filter_len = 1; return parse_size(opt, val, &b->filter_min_len);
    case B_TINY_K: b->have_tiny_k = 1; return parse_size(opt, val, &b->tiny_max_k);
    default: return run_option(&b->run, id, opt, val);
    }
}

/* Everything the command owns; released in one place. */
typedef struct {
    void *host_v, *vals, *host_ws;
    uint64_t *offsets, *ks, *idx;
    void *dev_v, *dev_offsets, *dev_ks, *dev_ws, *dev_vals, *dev_idx;
    double *ms, *enqueue_ms;
    int cuda_selected;
} batch_mem;

static void batch_mem_free(batch_mem *m)
{
    free(m->host_v);
    free(m->vals);
    free(m->host_ws);
    free(m->offsets);
    free(m->ks);
    free(m->idx);
    free(m->ms);
    free(m->enqueue_ms);
    if (m->cuda_selected) {
        void *dev[] = { m->dev_v, m->dev_offsets, m->dev_ks, m->dev_ws, m->dev_vals, m->dev_idx };
        for (size_t i = 0; i < sizeof dev / sizeof dev[0]; ++i)
            if (dev[i]) dh_dev_free(dev[i]);
    }
}

/* A .u64 file of `what` (--segments, --ks) read whole. */
static int read_u64_file(const char *opt, const char *path, uint64_t **out, uint64_t *count)
{
    char err[512];
    drtopk_dtype t;
    if (dh_dtype_from_path(path, &t) != DRTOPK_OK || t != DRTOPK_U64)
        return usage_error("--%s %s: the file must be raw little-endian uint64 named *.u64", opt, path);
    if (dh_check_regular_file(path, err, sizeof err) != 0) return usage_error("--%s: %s", opt, err);
    const drtopk_status st = dh_read_raw(path, sizeof(uint64_t), (void **)out, count, err, sizeof err);
    if (st == DRTOPK_ERR_OUT_OF_MEMORY) return runtime_error("--%s: %s", opt, err);
    if (st != DRTOPK_OK) return usage_error("--%s: %s", opt, err);
    return 0;
}

/* The shape options, the offsets and ks files and the data: fills p's sizes
 * (values left NULL) and c->run.n with the number of elements. */
static int resolve_shape(batch_cfg *b, batch_mem *m, drtopk_batch_problem *p)
{
    run_cfg *c = &b->run;
    uint64_t count;
    int rc;
    if (!c->have_k) return usage_error("missing --k (result slots per segment)");
    if (c->k == 0) return usage_error("--k is 0: select at least one element per segment");
    if (b->segments && (b->have_rows || b->have_cols))
        return usage_error("--segments gives the shape: it does not combine with --%s", b->have_rows ? "rows" : "cols");
    if (!b->segments && !b->have_cols)
        return usage_error("missing the shape: --rows R --cols C, or --segments FILE.u64");
    if (b->have_warp_k && b->warp_max_k > DRTOPK_WARP_K_MAX)
        return usage_error("--warp-max-k %" PRIu64 " is above %d", b->warp_max_k, DRTOPK_WARP_K_MAX);
    if (b->have_tiny_k && b->tiny_max_k > DRTOPK_BATCH_TINY_K_MAX)
        return usage_error("--tiny-max-k %" PRIu64 " is above %d (a warp's lanes keep one round each)", b->tiny_max_k,
                           DRTOPK_BATCH_TINY_K_MAX);
    if (c->input) {             /* dtype and n from the file (resolve_inputs' checks) */
        c->have_n = 0;
        c->k = 1;               /* resolve_inputs checks k <= n; the batch checks its own */
        if ((rc = resolve_inputs(c, &m->host_v)) != 0) return rc;
        c->k = p->k;
    }
    if (b->segments) {
        if ((rc = read_u64_file("segments", b->segments, &m->offsets, &count)) != 0) return rc;
        if (count < 2)
            return usage_error("--segments %s holds %" PRIu64 " offsets: it needs segments+1 offsets, at least one "
                               "segment", b->segments, count);
        for (uint64_t s = 0; s + 1 < count; ++s)
            if (m->offsets[s + 1] < m->offsets[s])
                return usage_error("--segments %s: offset %" PRIu64 " (%" PRIu64 ") is below offset %" PRIu64
                                   " (%" PRIu64 "): offsets must not decrease", b->segments, s + 1,
                                   m->offsets[s + 1], s, m->offsets[s]);
        p->segments = count - 1;
        p->offsets = m->offsets;
        if (c->input && m->offsets[count - 1] > c->n)
            return usage_error("--segments %s ends at offset %" PRIu64 " past --input %s (%" PRIu64 " elements)",
                               b->segments, m->offsets[count - 1], c->input, c->n);
        if (!c->input) c->n = m->offsets[count - 1];
        p->total = m->offsets[count - 1];
    } else {
        if (b->cols == 0) return usage_error("--cols is 0: rows must not be empty (use --segments for empty ones)");
        if (c->input) {
            if (c->n % b->cols != 0)
                return usage_error("--input %s holds %" PRIu64 " elements, not a multiple of --cols %" PRIu64,
                                   c->input, c->n, b->cols);
            if (b->have_rows && b->rows != c->n / b->cols)
                return usage_error("--rows %" PRIu64 " conflicts with --input %s: %" PRIu64 " elements are %" PRIu64
                                   " rows of %" PRIu64, b->rows, c->input, c->n, c->n / b->cols, b->cols);
            b->rows = c->n / b->cols;
        } else if (!b->have_rows) {
            return usage_error("missing --rows (or give --input FILE to take the rows from its size)");
        }
        if (b->rows == 0) return usage_error("--rows is 0: the batch must hold at least one row");
        if (b->rows != 0 && b->cols > UINT64_MAX / b->rows)
            return usage_error("--rows %" PRIu64 " x --cols %" PRIu64 " overflows", b->rows, b->cols);
        if (c->k > b->cols)
            return usage_error("--k %" PRIu64 " is larger than --cols %" PRIu64 " (uniform rows; --segments clamps "
                               "k to each segment's length instead)", c->k, b->cols);
        p->segments = b->rows;
        p->len = b->cols;
        c->n = b->rows * b->cols;
    }
    if (b->ks_file) {
        if ((rc = read_u64_file("ks", b->ks_file, &m->ks, &count)) != 0) return rc;
        if (count != p->segments)
            return usage_error("--ks %s holds %" PRIu64 " entries for %" PRIu64 " segments (one k per segment)",
                               b->ks_file, count, p->segments);
        p->ks = m->ks;
    }
    if (c->n > SIZE_MAX / sizeof(uint64_t) || (p->segments && c->k > SIZE_MAX / sizeof(uint64_t) / p->segments))
        return usage_error("%" PRIu64 " elements or %" PRIu64 " x %" PRIu64 " result slots do not fit in memory",
                           c->n, p->segments, c->k);
    return 0;
}

/* V (host for the CPU backend or --verify; the device for cuda), offsets
 * and ks on the device. */
static int place_batch(const batch_cfg *b, const drtopk_batch_problem *hp, batch_mem *m, drtopk_batch_problem *p)
{
    const run_cfg *c = &b->run;
    const size_t bytes = (size_t)c->n * drtopk_dtype_size(hp->dtype);
    drtopk_status st = DRTOPK_OK;
    if (!m->host_v && (hp->backend == DRTOPK_BACKEND_CPU || c->verify)) {
        const int rc = host_room(bytes, "V");
        if (rc != 0) return rc;
        if ((m->host_v = malloc(bytes ? bytes : 1)) == NULL)
            return runtime_error("out of host memory for V (%zu bytes)", bytes);
        if (c->n >= PROGRESS_MIN_N) progress(c->json, "generating %" PRIu64 " elements on the host", c->n);
        dh_gen_host(m->host_v, c->n, c->dist, hp->dtype, c->seed);
    }
    *p = *hp;
    p->values = m->host_v;
    if (hp->backend == DRTOPK_BACKEND_CPU) return 0;
    if ((st = dh_dev_alloc(&m->dev_v, bytes ? bytes : 1)) != DRTOPK_OK)
        return runtime_error("cannot allocate V on the GPU (%zu bytes): %s", bytes, drtopk_status_string(st));
    if (c->input) st = dh_dev_copy(m->dev_v, m->host_v, bytes, DRTOPK_COPY_H2D);
    else if (c->n > 0) st = dh_dev_generate(m->dev_v, c->n, c->dist, hp->dtype, c->seed, NULL);
    if (st == DRTOPK_OK && hp->offsets) {
        const size_t ob = (size_t)(hp->segments + 1) * sizeof(uint64_t);
        if ((st = dh_dev_alloc(&m->dev_offsets, ob)) == DRTOPK_OK)
            st = dh_dev_copy(m->dev_offsets, hp->offsets, ob, DRTOPK_COPY_H2D);
        p->offsets = (const uint64_t *)m->dev_offsets;
    }
    if (st == DRTOPK_OK && hp->ks && hp->segments) {
        const size_t kb = (size_t)hp->segments * sizeof(uint64_t);
        if ((st = dh_dev_alloc(&m->dev_ks, kb)) == DRTOPK_OK)
            st = dh_dev_copy(m->dev_ks, hp->ks, kb, DRTOPK_COPY_H2D);
        p->ks = (const uint64_t *)m->dev_ks;
    }
    if (st == DRTOPK_OK) st = dh_dev_sync();
    if (st != DRTOPK_OK) return runtime_error("cannot place the batch on the GPU: %s", drtopk_status_string(st));
    p->values = m->dev_v;
    return 0;
}

typedef struct {
    double ms_median, ms_min, ms_max, gbps;
    double enqueue_median;      /* host ms of the call itself (CUDA: the enqueue), median */
    size_t ws_bytes;
    int verified;               /* -1 not run, 0 FAIL, 1 PASS */
    int unprimed;               /* --timing gpu: calls whose stream hold timed out */
    char why[300];
    dh_device_info dev;
    const char *backend_reason;
} batch_result;

/* Workspace and outputs, the warm-up and the timed calls (dh_batch_timed
 * by `timing`), the result on the host. */
static int run_batch(const run_cfg *c, const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                     dh_timing timing, batch_mem *m, batch_result *r)
{
    const uint64_t slots = p->segments * p->k;
    const size_t vbytes = (size_t)slots * drtopk_dtype_size(p->dtype), ibytes = (size_t)slots * sizeof(uint64_t);
    const int cuda = p->backend == DRTOPK_BACKEND_CUDA;
    void *ws, *ov, *oi;
    drtopk_status st = drtopk_batch_workspace(p, plan, &r->ws_bytes);
    if (st != DRTOPK_OK) return api_error("workspace query failed", st);
    const int rc = host_room(vbytes + ibytes + (cuda ? 0 : r->ws_bytes), "the result slots and workspace");
    if (rc != 0) return rc;
    m->vals = malloc(vbytes ? vbytes : 1);
    m->idx = (uint64_t *)malloc(ibytes ? ibytes : 1);
    m->ms = (double *)calloc((size_t)c->reps, sizeof(double));
    m->enqueue_ms = (double *)calloc((size_t)c->reps, sizeof(double));
    if (!m->vals || !m->idx || !m->ms || !m->enqueue_ms) return runtime_error("out of host memory for the result");
    if (!cuda) {
        if ((m->host_ws = malloc(r->ws_bytes ? r->ws_bytes : 1)) == NULL)
            return runtime_error("out of host memory for the workspace (%zu bytes)", r->ws_bytes);
        ws = m->host_ws;
        ov = m->vals;
        oi = m->idx;
    } else {
        if ((r->ws_bytes && (st = dh_dev_alloc(&m->dev_ws, r->ws_bytes)) != DRTOPK_OK) ||
            (st = dh_dev_alloc(&m->dev_vals, vbytes ? vbytes : 1)) != DRTOPK_OK ||
            (st = dh_dev_alloc(&m->dev_idx, ibytes ? ibytes : 1)) != DRTOPK_OK)
            return runtime_error("cannot allocate the workspace (%zu bytes) and result on the GPU: %s", r->ws_bytes,
                                 drtopk_status_string(st));
        ws = m->dev_ws;
        ov = m->dev_vals;
        oi = m->dev_idx;
    }
    if (!cuda && c->n >= PROGRESS_MIN_N)
        progress(c->json, "running %d warm-up + %d timed batches on the CPU backend", c->warmup, c->reps);
    for (int i = 0; i < c->warmup + c->reps; ++i) {
        double ms = 0, enqueue = 0;
        st = dh_batch_timed(p, plan, ws, r->ws_bytes, ov, (uint64_t *)oi, timing, &ms, &enqueue, &r->unprimed);
        if (st != DRTOPK_OK) return api_error("drtopk_batch_select failed", st);
        if (i >= c->warmup) {
            m->ms[i - c->warmup] = ms;
            m->enqueue_ms[i - c->warmup] = enqueue;
        }
    }
    if (r->unprimed)
        fprintf(stderr, "drtopk: %d of %d calls were not primed (the stream hold timed out): their times include "
                        "the enqueue\n", r->unprimed, c->warmup + c->reps);
    if (cuda && slots) {
        if ((st = dh_dev_copy(m->vals, m->dev_vals, vbytes, DRTOPK_COPY_D2H)) != DRTOPK_OK ||
            (st = dh_dev_copy(m->idx, m->dev_idx, ibytes, DRTOPK_COPY_D2H)) != DRTOPK_OK)
            return runtime_error("cannot read the result back from the GPU: %s", drtopk_status_string(st));
    }
    r->ms_min = r->ms_max = m->ms[0];
    for (int i = 1; i < c->reps; ++i) {
        if (m->ms[i] < r->ms_min) r->ms_min = m->ms[i];
        if (m->ms[i] > r->ms_max) r->ms_max = m->ms[i];
    }
    double *sorted = (double *)malloc((size_t)c->reps * sizeof(double));
    if (!sorted) return runtime_error("out of host memory for timings");
    memcpy(sorted, m->ms, (size_t)c->reps * sizeof(double));
    r->ms_median = dh_median(sorted, (size_t)c->reps);
    free(sorted);
    r->enqueue_median = dh_median(m->enqueue_ms, (size_t)c->reps);
    r->gbps = r->ms_median > 0 ? (double)c->n * drtopk_dtype_size(p->dtype) / (r->ms_median / MS_PER_S) / BYTES_PER_GB
                               : NAN;
    return 0;
}

static const char *const order_names[] = { "largest", "smallest" };

static void print_text(const batch_cfg *b, const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                       const batch_result *r)
{
    const int wide = drtopk_batch_wide_keys(p->dtype);     /* the key width's crossovers */
    const run_cfg *c = &b->run;
    printf("backend:   %s (%s)\n", p->backend == DRTOPK_BACKEND_CUDA ? "cuda" : "cpu", r->backend_reason);
    if (p->backend == DRTOPK_BACKEND_CUDA)
        printf("gpu:       %d: %s (sm_%d%d, %d SMs)\n", c->gpu, r->dev.name, r->dev.cc_major, r->dev.cc_minor,
               r->dev.sm_count);
    if (c->input) printf("input:     %s: n = %" PRIu64 ", %s\n", c->input, c->n, drtopk_dtype_name(p->dtype));
    else
        printf("input:     n = %" PRIu64 ", %s, dist %s, seed %" PRIu64 "\n", c->n, drtopk_dtype_name(p->dtype),
               dh_dist_name(c->dist), c->seed);
    if (p->offsets) printf("shape:     %" PRIu64 " segments from %s\n", p->segments, b->segments);
    else printf("shape:     %" PRIu64 " rows x %" PRIu64 " cols\n", p->segments, p->len);
    printf("select:    k = %" PRIu64 "%s%s %s, %s%s\n", c->k, b->ks_file ? " slots, per-segment k from " : "",
           b->ks_file ? b->ks_file : "", order_names[p->order], (plan->flags & DRTOPK_SORTED) ? "sorted" : "unsorted",
           (plan->flags & DRTOPK_DETERMINISTIC) ? ", deterministic" : "");
    printf("plan:      register select for k <= %" PRIu64 " (0: off) on rows <= 256, warp queue for k <= %" PRIu64
           " (0: off) and segments <= %" PRIu64 ", the filter select beyond %" PRIu64 " (0: off), radix selects up to %"
           PRIu64 ", Dr. Top-k beyond (segments: beyond %" PRIu64 ", 0: off)\n",
           wide ? plan->tiny_max_k_64 : plan->tiny_max_k, plan->warp_max_k, plan->warp_max_len, plan->filter_min_len,
           wide ? plan->block_max_len_64 : plan->block_max_len, plan->dr_min_len);
    printf("workspace: %zu bytes\n", r->ws_bytes);
    printf("time:      median %.4f ms, min %.4f, max %.4f (%d reps after %d warm-up; %s)\n", r->ms_median,
           r->ms_min, r->ms_max, c->reps, c->warmup,
           b->run.timing == DRTOPK_TIMING_GPU ? "GPU time, the stream held until enqueued"
                                              : "host clock around the call");
    printf("host:      median %.4f ms in the call itself (%s)\n", r->enqueue_median,
           p->backend == DRTOPK_BACKEND_CUDA ? "enqueueing its work: back-to-back calls take at least this"
                                             : "the whole selection");
    if (isfinite(r->gbps)) printf("bandwidth: %.2f GB/s reading V once\n", r->gbps);
    else printf("bandwidth: n/a (time too short to measure)\n");
    if (c->output) printf("output:    %s.values, %s.indices\n", c->output, c->output);
    if (r->verified >= 0) printf("verify:    %s%s%s\n", r->verified ? "PASS" : "FAIL", r->verified ? "" : ": ", r->why);
}

static void print_json(const batch_cfg *b, const drtopk_batch_problem *p, const drtopk_batch_plan *plan,
                       const batch_result *r, const double *reps_ms)
{
    const run_cfg *c = &b->run;
    FILE *f = stdout;
    fputs("{\"command\": \"batch\", \"git_commit\": ", f);
    json_string(f, DRTOPK_GIT_COMMIT);
    fprintf(f, ", \"backend\": \"%s\", \"backend_reason\": ", p->backend == DRTOPK_BACKEND_CUDA ? "cuda" : "cpu");
    json_string(f, r->backend_reason);
    if (p->backend == DRTOPK_BACKEND_CUDA) {
        fprintf(f, ", \"gpu\": {\"index\": %d, \"name\": ", c->gpu);
        json_string(f, r->dev.name);
        fputs(", \"uuid\": ", f);
        json_string(f, r->dev.uuid);
        fprintf(f, ", \"cc\": \"%d.%d\", \"sm_count\": %d}", r->dev.cc_major, r->dev.cc_minor, r->dev.sm_count);
    } else {
        fputs(", \"gpu\": null", f);
    }
    fprintf(f, ", \"n\": %" PRIu64 ", \"segments\": %" PRIu64 ", \"cols\": ", c->n, p->segments);
    if (p->offsets) fputs("null", f);
    else fprintf(f, "%" PRIu64, p->len);
    fputs(", \"segments_file\": ", f);
    if (p->offsets) json_string(f, b->segments);
    else fputs("null", f);
    fprintf(f, ", \"k\": %" PRIu64 ", \"ks_file\": ", c->k);
    if (b->ks_file) json_string(f, b->ks_file);
    else fputs("null", f);
    fprintf(f, ", \"dtype\": \"%s\", \"order\": \"%s\", \"sorted\": %s, \"deterministic\": %s",
            drtopk_dtype_name(p->dtype), order_names[p->order], json_bool(plan->flags & DRTOPK_SORTED),
            json_bool(plan->flags & DRTOPK_DETERMINISTIC));
    if (c->input) {
        fputs(", \"input\": ", f);
        json_string(f, c->input);
        fputs(", \"dist\": null, \"seed\": null", f);
    } else {
        fprintf(f, ", \"input\": null, \"dist\": \"%s\", \"seed\": %" PRIu64, dh_dist_name(c->dist), c->seed);
    }
    fprintf(f, ", \"plan\": {\"warp_max_k\": %" PRIu64 ", \"warp_max_len\": %" PRIu64 ", \"block_max_len\": %" PRIu64
            ", \"dr_min_len\": %" PRIu64 ", \"tiny_max_k\": %" PRIu64 ", \"staged_max_len\": %" PRIu64
            ", \"tiny_max_k_64\": %" PRIu64 ", \"block_max_len_64\": %" PRIu64 ", \"filter_min_len\": %" PRIu64
            "}, \"workspace_bytes\": %zu, "
            "\"warmup\": %d, \"timing\": \"%s\", \"unprimed\": %d, \"reps\": ",
            plan->warp_max_k, plan->warp_max_len, plan->block_max_len, plan->dr_min_len, plan->tiny_max_k,
            plan->staged_max_len, plan->tiny_max_k_64, plan->block_max_len_64, plan->filter_min_len, r->ws_bytes, c->warmup,
            dh_timing_name(b->run.timing), r->unprimed);
    json_numbers(f, reps_ms, c->reps);
    fputs(", \"ms_median\": ", f);
    json_number_or_null(f, r->ms_median);
    fputs(", \"ms_min\": ", f);
    json_number_or_null(f, r->ms_min);
    fputs(", \"ms_max\": ", f);
    json_number_or_null(f, r->ms_max);
    fputs(", \"enqueue_ms_median\": ", f);
    json_number_or_null(f, r->enqueue_median);
    fputs(", \"read_gbps\": ", f);
    json_number_or_null(f, r->gbps);
    fputs(", \"output\": ", f);
    if (c->output) json_string(f, c->output);
    else fputs("null", f);
    fputs(", \"verify\": ", f);
    fputs(r->verified < 0 ? "null" : r->verified ? "\"PASS\"" : "\"FAIL\"", f);
    fputs(", \"verify_reason\": ", f);
    json_string(f, r->verified == 0 ? r->why : "");
    fputs("}\n", f);
}

int cmd_batch(int argc, char **argv)
{
    batch_cfg b;
    batch_mem m;
    batch_result r;
    drtopk_batch_problem hp, p;
    drtopk_batch_plan plan;
    run_cfg *c = &b.run;
    int rc;
    const int cuda_ok = dh_cuda_available();

    memset(&b, 0, sizeof b);
    memset(&m, 0, sizeof m);
    memset(&r, 0, sizeof r);
    memset(&hp, 0, sizeof hp);
    c->seed = DEFAULT_SEED;
    c->dist = DRTOPK_DIST_UD;
    c->dtype = DRTOPK_U32;
    c->order = DRTOPK_LARGEST;
    c->delegate = 1;            /* resolve_inputs: no pipeline options to refuse */
    r.verified = -1;
    if ((rc = parse_options("batch", batch_specs, argc, argv, batch_option, &b)) != 0) return rc;
    if (c->help) {
        fputs(help_batch, stdout);
        return 0;
    }
    if (c->have_backend && c->backend == DRTOPK_BACKEND_CUDA && !cuda_ok)
        return usage_error("--backend cuda: no usable CUDA GPU (this build has no CUDA backend or no GPU is "
                           "visible); use --backend cpu");
    if (!c->have_backend) c->backend = cuda_ok ? DRTOPK_BACKEND_CUDA : DRTOPK_BACKEND_CPU;
    r.backend_reason = c->have_backend ? "--backend" : cuda_ok ? "default: a CUDA GPU is available"
                                                               : "default: no CUDA GPU available";
    if (c->have_gpu && c->backend == DRTOPK_BACKEND_CPU)
        return usage_error("--gpu applies only to --backend cuda (and needs a usable CUDA GPU)");
    if (!c->have_reps) c->reps = c->backend == DRTOPK_BACKEND_CUDA ? DEFAULT_REPS_CUDA : DEFAULT_REPS_CPU;
    if (!c->have_warmup) c->warmup = c->backend == DRTOPK_BACKEND_CUDA ? DEFAULT_WARMUP_CUDA : DEFAULT_WARMUP_CPU;
    if (c->backend == DRTOPK_BACKEND_CPU && c->have_timing && c->timing == DRTOPK_TIMING_GPU)
        return usage_error("--timing gpu needs --backend cuda; the CPU backend times the call (--timing call)");
    if (!c->have_timing) c->timing = c->backend == DRTOPK_BACKEND_CUDA ? DRTOPK_TIMING_GPU : DRTOPK_TIMING_CALL;
    hp.k = c->k;
    if ((rc = resolve_shape(&b, &m, &hp)) != 0) goto done;
    hp.backend = c->backend;
    hp.dtype = c->dtype;
    hp.order = c->order;
    hp.k = c->k;
    if (!c->input && (c->backend == DRTOPK_BACKEND_CPU || c->verify)) {
        /* V and the result slots on the host, before V is generated (malloc succeeds
         * lazily: the kernel's OOM killer would end the run once they are touched) */
        const uint64_t esz = drtopk_dtype_size(hp.dtype);
        if ((rc = host_room(c->n * esz + hp.segments * hp.k * (esz + sizeof(uint64_t)), "V and the result slots")) != 0)
            goto done;
    }
    if (drtopk_batch_plan_auto(&plan, &hp) != DRTOPK_OK) {
        rc = api_error("cannot plan this batch", DRTOPK_ERR_INVALID_ARGUMENT);
        goto done;
    }
    if (b.have_warp_k) plan.warp_max_k = b.warp_max_k;
    if (b.have_warp_len) plan.warp_max_len = b.warp_max_len;
    const int wide = drtopk_batch_wide_keys(hp.dtype);     /* the key width's crossovers */
    if (b.have_block_len) *(wide ? &plan.block_max_len_64 : &plan.block_max_len) = b.block_max_len;
    if (b.have_tiny_k) *(wide ? &plan.tiny_max_k_64 : &plan.tiny_max_k) = b.tiny_max_k;
    if (b.have_dr_len) plan.dr_min_len = b.dr_min_len;
    if (b.have_filter_len) plan.filter_min_len = b.filter_min_len;
    if (c->sorted) plan.flags |= DRTOPK_SORTED;
    if (c->deterministic) plan.flags |= DRTOPK_DETERMINISTIC;
    if (c->backend == DRTOPK_BACKEND_CUDA) {
        drtopk_status st = dh_dev_select(c->gpu);
        if (st != DRTOPK_OK) {
            rc = usage_error("--gpu %d: cannot use this GPU: %s", c->gpu, drtopk_status_string(st));
            goto done;
        }
        m.cuda_selected = 1;
        if ((st = dh_dev_info(c->gpu, &r.dev)) != DRTOPK_OK) {
            rc = runtime_error("cannot query GPU %d: %s", c->gpu, drtopk_status_string(st));
            goto done;
        }
    }
    if ((rc = place_batch(&b, &hp, &m, &p)) != 0) goto done;
    if ((rc = run_batch(c, &p, &plan, c->timing, &m, &r)) != 0) goto done;
    if (c->verify) {
        hp.values = m.host_v;
        if (c->n >= PROGRESS_MIN_N) progress(c->json, "verifying on the host");
        const dh_check_result cr = dh_batch_check(&hp, (plan.flags & DRTOPK_SORTED) != 0, m.vals, m.idx);
        r.verified = cr.ok;
        snprintf(r.why, sizeof r.why, "%s", cr.why);
    }
    if (c->output) {            /* the --output writer of drtopk run, over segments * k slots */
        const drtopk_problem out = { hp.backend, hp.dtype, hp.order, c->n, hp.segments * hp.k, NULL };
        if ((rc = write_outputs(c->output, &out, m.vals, m.idx)) != 0) goto done;
    }
    if (c->json) print_json(&b, &hp, &plan, &r, m.ms);
    else print_text(&b, &hp, &plan, &r);
    if (r.verified == 0) {
        fprintf(stderr, "drtopk: verification FAILED: %s\n", r.why);
        rc = EXIT_VERIFY;
    }
done:
    batch_mem_free(&m);
    return rc;
}
