/*
 * drtopk_mpi.c -- `drtopk-mpi`: multi-GPU and out-of-core Dr. Top-k over MPI
 * (paper section 5.4, Table 2).  Run under mpirun with the options of
 * `drtopk run`.  V is split into disjoint contiguous slices, one per rank
 * (mgpu.h); each rank binds a GPU by its node-local rank, generates its slice
 * with the seeded generator (the same global V for any rank count) or reads
 * it from the --input file (slice.h), and selects its local top k with the library's
 * automatic plan -- in core when the slice and its workspace fit the GPU's
 * free memory, out of core (ooc.h) only when they do not or when --device-cap
 * asks for the paper's sub-vectors.  The result's order is `drtopk run`'s
 * contract: best first with --sorted, else unspecified, so one rank without
 * --sorted orders nothing.  Several ranks select their local top k in no
 * order and agree on the global k-th key exactly: a radix select over the
 * union of their lists, one round per 8-bit digit of the ordered key (a
 * histogram of each list on its GPU, added over the ranks by MPI_Allreduce,
 * every rank picking the same digit; mgpu.h, topk_list.h).  Each rank then
 * compacts the elements above that key and its share of the ties (the ranks'
 * tie counts by MPI_Exscan, lower ranks first, so exactly k in all) with
 * global positions, and rank 0 gathers them into the result at each rank's
 * offset: about k elements move in all and nothing merges.  With --sorted
 * rank 0 orders the k on its GPU.  Where the ranks' lists are short (R lists
 * of k within policy.h's bound, every part GPU to GPU) the rounds cost more
 * than moving the lists: each rank sends its whole list and rank 0 selects
 * the k best of them with the library (mgpu.h: drtopk_mgpu_gather_all; the
 * CPU backend always runs the rounds).  A rank's part moves GPU to GPU by CUDA
 * IPC where rank 0 shares its node and reaches its GPU (handles exchanged and
 * opened once per run), else from device memory through CUDA-aware MPI when
 * Open MPI has it, else through one pinned staging copy each way; the CPU
 * backend does the same steps in host memory (mgpu.h).  Compute,
 * host-to-device reload, the threshold's selection and communication are
 * timed apart.  --deterministic (in core): each rank's list is its
 * deterministic selection best first, equal keys by position, so its part is
 * a prefix of it (its keys above the k-th and its first ties), the lower
 * ranks' ties go first, and the gathered lists' order among equal keys is
 * global position order, which the deterministic selection or ordering on
 * rank 0 keeps: the k best (key, global position) pairs, as one GPU gives
 * them.  Before any work the ranks check
 * that they run the same configuration on the same input; every collective
 * phase starts with an agreement on each rank's status, so a rank that fails
 * makes every rank exit with its one message.
 *
 * Exit codes: 0 success, 1 runtime failure, 2 bad arguments, 3 verification failed.
 */
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>            /* MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support */
#endif

#include "drtopk.h"
#include "device.h"
#include "gen.h"
#include "keyorder.h"
#include "mgpu.h"
#include "ooc.h"
#include "runopt.h"
#include "slice.h"
#include "store.h"
#include "topk_list.h"
#include "util.h"
#include "version.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PAPER_SUB_VECTOR (1ull << 30) /* the paper's sub-vector size (section 5.4): the longest one streamed
                                          when a slice outgrows its GPU */
#define NO_DEVICE_CAP 0           /* --device-cap not given: in core whenever the slice fits */
#define SAMPLE_BLOCKS 64          /* --input checksum: blocks read, spread over the file ... */
#define SAMPLE_BLOCK_BYTES 4096   /* ... of a page each: milliseconds even for a 2^36-byte file */
#define GPU_FREE_USABLE 0.95      /* share of a GPU's free memory a rank plans on (allocator rounding, the library's caches) */
#define LIST_COPIES 8             /* k-long lists a rank holds on its GPU: selection output, compacted or
                                     gathered result, ordered result, the ordering's indices and keys
                                     (2 each), with room for the selection's own output */
#define DEFAULT_REPS_CUDA 7       /* as drtopk run */
#define DEFAULT_REPS_CPU 1
#define DEFAULT_WARMUP_CUDA 1
#define DEFAULT_WARMUP_CPU 0
#define GPU_LIST_MAX 64           /* --gpu entries (GPUs of one node)         */
#define MSG_LEN 1024              /* the failing rank's message, sent to rank 0 */
#define NO_MESSAGE "drtopk-mpi: error: failed without a message\n"
#define MSG_CHUNK_BYTES (1 << 30) /* MPI counts are int: larger lists go in pieces */
#define TAG_VALUES 1
#define TAG_POSITIONS 2
#define TAG_CONTROL 3             /* the exchange's setup; a rank's text to rank 0 */
#define TAG_STRIDE 4              /* tags of one list's pieces: tag + TAG_STRIDE * piece */
#define EX_WHY_LEN 200            /* why an edge of one node's ranks is not CUDA IPC */
#define MS_PER_S 1e3
#define BYTES_PER_GB 1e9
#define LINK_PROBE_MAX_BYTES (1ull << 30) /* a copy this long runs at the link's rate */

enum { M_DEVICE_CAP = 1000, M_DB, M_NO_IPC };

static const opt_spec mpi_extra_specs[] = {
    { "device-cap", M_DEVICE_CAP, 1 }, { "db", M_DB, 1 }, { "no-ipc", M_NO_IPC, 0 }, { NULL, 0, 0 }
};

/* How one rank's part moves to rank 0: JSON keys and text. */
enum { EX_NONE = -1, EX_HOST, EX_IPC, EX_CUDA_AWARE, EX_STAGED, EX_KINDS };
static const char *const ex_keys[EX_KINDS] = { "host", "cuda-ipc", "cuda-aware-mpi", "pinned-staging" };
static const char *const ex_text[EX_KINDS] = {
    "host memory through MPI", "CUDA IPC (GPU to GPU: rank 0 copies the sender's mapped part)",
    "device buffers through CUDA-aware MPI", "device buffers through one pinned host staging copy each way"
};

static const char help_mpi[] =
    "usage: mpirun -np R drtopk-mpi --n N --k K [options]\n"
    "       mpirun -np R drtopk-mpi --input FILE.{u32,i32,f32,f16,bf16,u64,i64,f64} --k K [options]\n"
    "\n"
    "Multi-GPU Dr. Top-k (paper 5.4): each rank selects the top k of its slice of V on the\n"
    "GPU of its node-local rank; the ranks agree on the k-th key and rank 0 gathers\n"
    "what lies above it (and the ties it needs) and reports.  The options of\n"
    "`drtopk run`, with these differences:\n"
    "  --gpu G[,G...]     GPU of node-local rank r: the list's entry r mod its length\n"
    "                     (default: node-local rank mod the visible GPUs)\n"
    "  --device-cap E     stream a slice longer than E elements from pinned host memory in\n"
    "                     sub-vectors of E (the paper's out-of-core experiment); default: none,\n"
    "                     a slice stays on its GPU when it fits the free memory with its workspace,\n"
    "                     else it streams in sub-vectors of at most 2^30 that fit\n"
    "  --db PATH          store the run (Table 2 row: ranks, total/compute/reload/comm ms)\n"
    "  --no-ipc           move the ranks' parts through MPI even between GPUs of one node\n"
    "                     that reach each other (default: CUDA IPC, GPU to GPU, there)\n"
    "  --sorted           the result best first, as in drtopk run; without it the order is\n"
    "                     not promised (one rank returns its selection's own order)\n"
    "  --deterministic    ties at the k-th value by smallest global position, sorted equal\n"
    "                     values by position, as in drtopk run (in core only)\n"
    "  --timing           not taken: a repetition is timed by the host clock across the ranks\n"
    "Every rank must be given the same options (but --gpu, --output, --json, --db, which\n"
    "only rank 0 or each node reads) and see the same --input file: the ranks compare them\n"
    "first and stop with exit 2 where they differ.\n"
    "\n";

/* ---- the options ----------------------------------------------------------- */

typedef struct {
    run_cfg run;
    uint64_t device_cap;
    const char *db;
    int no_ipc;
    const char *gpu_text;
    int gpus[GPU_LIST_MAX], n_gpus;
} mpi_cfg;

static int mpi_option(void *ctx, int id, const char *opt, const char *val)
{
    mpi_cfg *c = (mpi_cfg *)ctx;
    switch (id) {
    case M_DEVICE_CAP:
        if (parse_size(opt, val, &c->device_cap) != 0) return EXIT_USAGE;
        if (c->device_cap == 0) return usage_error("--device-cap must be at least 1 element");
        return 0;
    case M_DB: c->db = val; return 0;
    case M_NO_IPC: c->no_ipc = 1; return 0;
    case R_GPU: {     /* a list: one GPU per node-local rank */
        char *copy = strdup(val), *save = NULL;
        int rc = 0;
        if (!copy) return runtime_error("out of host memory");
        c->gpu_text = val;
        c->n_gpus = 0;
        for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
            if (c->n_gpus == GPU_LIST_MAX) rc = usage_error("--gpu: more than %d GPUs listed", GPU_LIST_MAX);
            else rc = parse_int_range(opt, t, 0, GPU_INDEX_MAX, &c->gpus[c->n_gpus++]);
        }
        free(copy);
        if (rc == 0 && c->n_gpus == 0) rc = usage_error("--gpu: no GPU index in '%s'", val);
        c->run.have_gpu = 1;
        return rc;
    }
    default: return run_option(&c->run, id, opt, val);
    }
}

/* run_specs followed by the extra options of this program. */
static opt_spec *all_specs(void)
{
    size_t a = 0, b = 0;
    while (run_specs[a].name) ++a;
    while (mpi_extra_specs[b].name) ++b;
    opt_spec *s = (opt_spec *)malloc((a + b + 1) * sizeof *s);
    if (!s) return NULL;
    memcpy(s, run_specs, a * sizeof *s);
    memcpy(s + a, mpi_extra_specs, (b + 1) * sizeof *s);
    return s;
}

/* ---- one message, every rank out ------------------------------------------ */

typedef struct {
    int rank, ranks, local_rank;
    MPI_Comm node;
    char *msg;                  /* this rank's captured messages (run_errout)  */
    size_t msg_len;
    FILE *msg_stream;
} world;

/* Every rank calls this with its status at the end of a phase.  When some
 * rank failed, rank 0 prints the first failing rank's message and every rank
 * returns that rank's exit code; else 0.  No rank waits forever on a peer
 * that has given up. */
static int agree(world *w, int rc)
{
    int mine = rc ? w->rank : w->ranks, first;
    fflush(w->msg_stream);
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == w->ranks) {
        if (w->rank == 0) fwrite(w->msg, 1, w->msg_len, stderr);   /* warnings, progress */
        rewind(w->msg_stream);
        return 0;
    }
    char text[MSG_LEN] = "";
    int code = rc;
    /* (after a rewind the buffer is not terminated at msg_len: print that many) */
    if (w->rank == first)
        snprintf(text, sizeof text, "%.*s", w->msg_len ? (int)w->msg_len : (int)strlen(NO_MESSAGE),
                 w->msg_len ? w->msg : NO_MESSAGE);
    MPI_Bcast(text, sizeof text, MPI_CHAR, first, MPI_COMM_WORLD);
    MPI_Bcast(&code, 1, MPI_INT, first, MPI_COMM_WORLD);
    if (w->rank == 0) {
        if (w->ranks > 1) fprintf(stderr, "drtopk-mpi: rank %d of %d failed:\n", first, w->ranks);
        fputs(text, stderr);
        if (text[0] && text[strlen(text) - 1] != '\n') fputc('\n', stderr);
    }
    rewind(w->msg_stream);
    return code;
}

/* ---- the ranks agree on the run ------------------------------------------- */

#define CONTENTS_LINE "--input contents"   /* config_text's line of the file's checksum */

/* This rank's configuration as lines "--option value", one per option that
 * shapes the result or the timing loop (defaults resolved, so an option given
 * on one rank and defaulted on another compares by its value), and for
 * --input the file's size (--n) and a checksum of sampled blocks.  Returns a
 * malloc'd string, or NULL with a message. */
static char *config_text(const mpi_cfg *c)
{
    const run_cfg *r = &c->run;
    char *text = NULL, err[512];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        runtime_error("out of host memory");
        return NULL;
    }
    fprintf(f, "--help %d\n--backend %s\n--n %" PRIu64 "\n--k %" PRIu64 "\n--dtype %s\n--smallest %d\n", r->help,
            r->backend == DRTOPK_BACKEND_CUDA ? "cuda" : "cpu", r->n, r->k, drtopk_dtype_name(r->dtype),
            r->order == DRTOPK_SMALLEST);
    fprintf(f, "--reps %d\n--warmup %d\n--verify %d\n--device-cap %" PRIu64 "\n--no-ipc %d\n", r->reps, r->warmup,
            r->verify, c->device_cap, c->no_ipc);
    fprintf(f, "--algo %s\n--alpha %d\n--beta %d\n--const %.17g\n--sorted %d\n--deterministic %d\n--no-filter %d\n"
            "--no-skip-last-digit %d\n--no-shared-delegate %d\n", r->algo_text ? r->algo_text : "(automatic)",
            r->have_alpha ? r->alpha : -1, r->have_beta ? r->beta : -1, r->have_const ? r->rule4_const : -1.0,
            r->sorted, r->deterministic, r->no_filter, r->no_skip, r->no_shared);
    if (r->input) {
        uint64_t sum = 0;
        if (dh_raw_sample_sum(r->input, SAMPLE_BLOCKS, SAMPLE_BLOCK_BYTES, &sum, err, sizeof err) != DRTOPK_OK) {
            fclose(f);
            free(text);
            usage_error("--input: %s", err);
            return NULL;
        }
        /* the contents, not the path: nodes may name one file differently */
        fprintf(f, CONTENTS_LINE " %016" PRIx64 "\n", sum);
    } else {
        fprintf(f, "--dist %s\n--seed %" PRIu64 "\n", dh_dist_name(r->dist), r->seed);
    }
    fclose(f);
    return text;
}

/* The first line where mine differs from rank 0's: a usage error naming it. */
static int config_mismatch(const mpi_cfg *c, const char *mine, const char *root)
{
    while (*mine || *root) {
        const size_t a = strcspn(mine, "\n"), b = strcspn(root, "\n");
        if (a != b || memcmp(mine, root, a) != 0) {
            if (strncmp(mine, CONTENTS_LINE, strlen(CONTENTS_LINE)) == 0)
                return usage_error("--input %s: this rank's file holds other data than rank 0's (a checksum of %d "
                                   "sampled blocks differs): every rank must read the same file", c->run.input,
                                   SAMPLE_BLOCKS);
            /* the option is the line's first word */
            const char *sp = memchr(mine, ' ', a);
            const int name = sp ? (int)(sp - mine) : (int)a;
            return usage_error("this rank runs with %.*s where rank 0 runs with %.*s: every rank must be given "
                               "the same %.*s", (int)a, mine, (int)b, root, name, mine);
        }
        mine += a + (mine[a] == '\n');
        root += b + (root[b] == '\n');
    }
    return 0;
}

/* Rank 0's configuration goes to every rank; each compares it with its own,
 * so a mismatch ends every rank (exit 2) with the first differing rank's one
 * message before any rank starts a loop the others would not match. */
static int agree_config(world *w, const mpi_cfg *c)
{
    char *mine = config_text(c), *root = NULL;
    int rc = mine ? 0 : EXIT_USAGE;
    long long len = w->rank == 0 && mine ? (long long)strlen(mine) + 1 : 0;
    if ((rc = agree(w, rc)) != 0) {
        free(mine);
        return rc;
    }
    MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    root = w->rank == 0 ? mine : (char *)malloc((size_t)len);
    rc = root ? 0 : runtime_error("out of host memory");
    if ((rc = agree(w, rc)) == 0) {
        MPI_Bcast(root, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
        rc = agree(w, w->rank == 0 ? 0 : config_mismatch(c, mine, root));
    }
    if (root != mine) free(root);
    free(mine);
    return rc;
}

/* ---- the run --------------------------------------------------------------- */

typedef struct {
    uint64_t first, count;      /* this rank's slice of V                      */
    uint64_t k_local;           /* min(k, count): the local list's length       */
    uint64_t k_list;            /* min(k, n): the result's length               */
    size_t esz;                 /* bytes of one element                          */
    int root;                   /* rank 0: it gathers and reports               */
    int ooc;                    /* streamed from host memory                    */
    uint64_t cap;               /* its sub-vector length                        */
    char why[300];              /* why in core or out of core                   */
    int gpu;                    /* the GPU bound, or -1                         */
    int sharing;                /* ranks of this node on that GPU               */
    int cuda_aware;             /* MPI takes device buffers                     */
    int exchanges;              /* several ranks: they agree on the k-th key and
                                   rank 0 gathers                               */
    int ordered;                /* one rank, --sorted: its list best first      */
    void *host_v;               /* slice on the host (CPU, --input, ooc, verify) */
    void *dev_v, *dev_ws;
    void *host_ws;
    size_t ws_bytes;
    /* lists, in the backend's memory (device on CUDA): the local selection
     * (k_local, any order; slice positions in core, global out of core: add
     * pos_first); with several ranks the compacted part (k_local), which on
     * rank 0 is the start of the gathered result (k_list); rank 0's result
     * ordered best first when --sorted asks and the selection did not (CUDA,
     * k_list); res_v / res_p: rank 0's result, one of those */
    void *list_v, *gath_v, *ord_v, *res_v;
    uint64_t *list_p, *gath_p, *ord_p, *res_p;
    uint64_t pos_first;
    uint64_t sent;              /* this rank's part: its elements above the k-th key and ties taken,
                                   or its whole list (gather_all) */
    uint64_t gathered;          /* rank 0: the parts' elements in all         */
    int rounds;                 /* the threshold's radix rounds               */
    int gather_all;             /* rank 0 gathers every whole list and selects
                                   (mgpu.h: drtopk_mgpu_gather_all), the same on
                                   every rank; else the threshold's rounds      */
    void *stage_v;              /* pinned staging of a part (CUDA, MPI not CUDA-aware) */
    uint64_t *stage_p;
    /* the exchange: how this rank's part moves to rank 0 (EX_*), and on rank
     * 0 each rank's way, part length and offset in the result, and the parts
     * mapped by CUDA IPC (ranks entries each) */
    int send_ex;
    int *recv_ex;
    uint64_t *counts, *offsets;
    void **peer_v;
    uint64_t **peer_p;
    char ex_why[EX_WHY_LEN];            /* the first rank of rank 0's node whose
                                           part is not CUDA IPC, and why      */
    topk_list_dev *lists;       /* the device histograms, compaction, ordering (CUDA) */
    dh_device_info dev;
    const char *tuning_db;
    double link_gbps;           /* host-to-device, measured (out of core, CUDA)  */
    drtopk_ooc_args ooc_args;   /* out of core: the streaming run's arguments    */
    drtopk_ooc *stream;         /* and its buffers, kept across the reps         */
} rank_state;

typedef struct {
    double total, compute, reload, comm, thr;      /* ms; thr (the k-th key and the compaction) is part of comm */
    uint64_t chunks, filtered;
} rep_times;

static int is_cuda(const mpi_cfg *c) { return c->run.backend == DRTOPK_BACKEND_CUDA; }

/* bytes of the backend's memory: the GPU's on CUDA, the host's on the CPU */
static drtopk_status mem_alloc(const mpi_cfg *c, void **p, size_t bytes)
{
    if (is_cuda(c)) return dh_dev_alloc(p, bytes ? bytes : 1);
    *p = malloc(bytes ? bytes : 1);
    return *p ? DRTOPK_OK : DRTOPK_ERR_OUT_OF_MEMORY;
}

static void mem_free(const mpi_cfg *c, void *p)
{
    if (p == NULL) return;
    if (is_cuda(c)) dh_dev_free(p);
    else free(p);
}

static void state_free(const mpi_cfg *c, rank_state *s)
{
    drtopk_ooc_destroy(s->stream);
    topk_list_dev_destroy(s->lists);
    if (s->ooc) drtopk_ooc_host_free(c->run.backend, s->host_v);
    else free(s->host_v);
    free(s->host_ws);
    drtopk_ooc_host_free(c->run.backend, s->stage_v);
    drtopk_ooc_host_free(c->run.backend, s->stage_p);
    free(s->recv_ex);
    free(s->counts);
    free(s->offsets);
    free(s->peer_v);
    free(s->peer_p);
    void *mine[] = { s->dev_v, s->dev_ws, s->list_v, s->list_p, s->gath_v, s->gath_p, s->ord_v, s->ord_p };
    for (size_t i = 0; i < sizeof mine / sizeof mine[0]; ++i) mem_free(c, mine[i]);
}

/* Whether Open MPI moves device buffers itself (built with CUDA and says so
 * at run time); else lists go through one pinned staging copy each way. */
static int cuda_aware_mpi(void)
{
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return MPIX_Query_cuda_support();
#else
    return 0;
#endif
}

static int bind_gpu(const world *w, const mpi_cfg *c, rank_state *s)
{
    int visible = 0;
    drtopk_status st;
    s->gpu = -1;
    if (c->run.backend != DRTOPK_BACKEND_CUDA) return 0;
    if (c->n_gpus) {
        s->gpu = c->gpus[w->local_rank % c->n_gpus];
    } else {
        while (visible <= GPU_INDEX_MAX && dh_dev_info(visible, &s->dev) == DRTOPK_OK) ++visible;
        if (visible == 0) return runtime_error("rank %d: no CUDA GPU visible", w->rank);
        s->gpu = w->local_rank % visible;
    }
    if ((st = dh_dev_select(s->gpu)) != DRTOPK_OK) {
        const int gpu = s->gpu;
        dh_device_info probe;
        s->gpu = -1;
        while (visible <= GPU_INDEX_MAX && dh_dev_info(visible, &probe) == DRTOPK_OK) ++visible;
        if (visible == 0) return runtime_error("rank %d: no CUDA GPU visible", w->rank);
        if (gpu >= visible)
            return usage_error("--gpu %d (node-local rank %d): this node shows %d GPU%s (0..%d): give --gpu "
                               "indices below %d", gpu, w->local_rank, visible, visible == 1 ? "" : "s",
                               visible - 1, visible);
        return usage_error("--gpu %d (node-local rank %d): cannot use this GPU: %s", gpu, w->local_rank,
                           drtopk_status_string(st));
    }
    if ((st = dh_dev_info(s->gpu, &s->dev)) != DRTOPK_OK)
        return runtime_error("cannot query GPU %d: %s", s->gpu, drtopk_status_string(st));
    return 0;
}

/* The slice on the host: read from the file, or generated (on the GPU when
 * there is one, in pieces of the device buffer `stage`). */
static int slice_to_host(const mpi_cfg *c, rank_state *s, void *stage, uint64_t stage_len)
{
    const size_t esz = drtopk_dtype_size(c->run.dtype);
    drtopk_status st = s->ooc ? drtopk_ooc_host_alloc(c->run.backend, &s->host_v, (size_t)s->count * esz)
                              : ((s->host_v = malloc((size_t)s->count * esz)) ? DRTOPK_OK : DRTOPK_ERR_OUT_OF_MEMORY);
    char err[512];
    if (st != DRTOPK_OK)
        return runtime_error("cannot allocate %s host memory for the slice (%" PRIu64 " elements): %s",
                             s->ooc && c->run.backend == DRTOPK_BACKEND_CUDA ? "pinned" : "", s->count,
                             drtopk_status_string(st));
    if (c->run.input) {
        if ((st = dh_read_raw_slice(c->run.input, esz, s->first, s->count, s->host_v, err, sizeof err)) != DRTOPK_OK)
            return usage_error("--input: %s", err);
        return 0;
    }
    if (stage == NULL) {
        dh_gen_host_at(s->host_v, s->first, s->count, c->run.dist, c->run.dtype, c->run.seed);
        return 0;
    }
    for (uint64_t at = 0; at < s->count; at += stage_len) {
        const uint64_t len = s->count - at < stage_len ? s->count - at : stage_len;
        st = dh_dev_generate_at(stage, s->first + at, len, c->run.dist, c->run.dtype, c->run.seed, NULL);
        if (st == DRTOPK_OK) st = dh_dev_copy((char *)s->host_v + at * esz, stage, (size_t)len * esz,
                                              DRTOPK_COPY_D2H);
        if (st != DRTOPK_OK) return runtime_error("cannot generate the slice on the GPU: %s", drtopk_status_string(st));
    }
    return 0;
}

/* The lists of the exchange (rank_state) and, on CUDA, the device
 * histograms, compaction and ordering and the staging buffers. */
static int alloc_lists(const mpi_cfg *c, int ranks, rank_state *s)
{
    /* rank 0 gathers into its part's buffer: every whole list where it may
     * gather them all (GPU to GPU, the larger bound), and selects the result
     * from them into the ordered lists */
    const int all = is_cuda(c) && drtopk_mgpu_gather_all(s->k_list, ranks, c->run.dtype, 1);
    const uint64_t part = s->root ? (all ? (uint64_t)ranks * s->k_list : s->k_list) : s->k_local;
    const int order_after = s->root && (c->run.sorted || all) && (s->exchanges || s->ooc);
    const size_t pair = s->esz + sizeof(uint64_t);
    drtopk_status st = DRTOPK_OK;
    if ((st = mem_alloc(c, &s->list_v, (size_t)s->k_local * s->esz)) != DRTOPK_OK ||
        (st = mem_alloc(c, (void **)&s->list_p, (size_t)s->k_local * sizeof(uint64_t))) != DRTOPK_OK ||
        (s->exchanges && ((st = mem_alloc(c, &s->gath_v, (size_t)part * s->esz)) != DRTOPK_OK ||
                       (st = mem_alloc(c, (void **)&s->gath_p, (size_t)part * sizeof(uint64_t))) != DRTOPK_OK)) ||
        (is_cuda(c) && order_after &&
         ((st = mem_alloc(c, &s->ord_v, (size_t)s->k_list * s->esz)) != DRTOPK_OK ||
          (st = mem_alloc(c, (void **)&s->ord_p, (size_t)s->k_list * sizeof(uint64_t))) != DRTOPK_OK)))
        return runtime_error("cannot allocate the top-k lists (%" PRIu64 " elements) %s: %s", part,
                             is_cuda(c) ? "on the GPU" : "in host memory", drtopk_status_string(st));
    if (s->root && s->exchanges) {
        s->recv_ex = (int *)calloc((size_t)ranks, sizeof(int));
        s->counts = (uint64_t *)calloc((size_t)ranks, sizeof(uint64_t));
        s->offsets = (uint64_t *)calloc((size_t)ranks, sizeof(uint64_t));
        s->peer_v = (void **)calloc((size_t)ranks, sizeof(void *));
        s->peer_p = (uint64_t **)calloc((size_t)ranks, sizeof(uint64_t *));
        if (!s->recv_ex || !s->counts || !s->offsets || !s->peer_v || !s->peer_p)
            return runtime_error("out of host memory for the exchange with %d ranks", ranks);
    }
    if (!is_cuda(c) || (!s->exchanges && !order_after)) return 0;
    if ((st = topk_list_dev_create(c->run.dtype, c->run.order, order_after ? s->k_list : 0,
                                   c->run.deterministic ? DRTOPK_DETERMINISTIC : 0u, &s->lists)) != DRTOPK_OK)
        return runtime_error("cannot allocate the exchange's scratch for %" PRIu64 "-element lists on GPU %d: %s",
                             s->k_list, s->gpu, drtopk_status_string(st));
    if (s->exchanges && !s->cuda_aware &&
        ((st = drtopk_ooc_host_alloc(c->run.backend, &s->stage_v, (size_t)part * s->esz)) != DRTOPK_OK ||
         (st = drtopk_ooc_host_alloc(c->run.backend, (void **)&s->stage_p, (size_t)part * sizeof(uint64_t))) !=
             DRTOPK_OK))
        return runtime_error("cannot allocate pinned host memory to stage the parts (%zu bytes): %s",
                             (size_t)part * pair, drtopk_status_string(st));
    return 0;
}

/* Puts the slice where the local top-k reads it and allocates the rest. */
static int place(const mpi_cfg *c, int ranks, const drtopk_problem *lp, const drtopk_plan *plan, rank_state *s)
{
    const size_t esz = s->esz;
    const int cuda = is_cuda(c);
    drtopk_status st;
    int rc;
    if ((rc = alloc_lists(c, ranks, s)) != 0) return rc;
    if (s->ooc) {
        void *stage = NULL;
        const uint64_t stage_len = s->cap < s->count ? s->cap : s->count;
        if (cuda && !c->run.input && (st = dh_dev_alloc(&stage, (size_t)stage_len * esz)) != DRTOPK_OK)
            return runtime_error("cannot allocate %zu bytes on GPU %d: %s", (size_t)stage_len * esz, s->gpu,
                                 drtopk_status_string(st));
        rc = slice_to_host(c, s, stage, stage_len);
        if (stage) dh_dev_free(stage);
        if (rc == 0) {
            const uint64_t bytes = (uint64_t)stage_len * esz;
            st = drtopk_ooc_link_gbps(c->run.backend, s->host_v,
                                      bytes < LINK_PROBE_MAX_BYTES ? (size_t)bytes : LINK_PROBE_MAX_BYTES,
                                      &s->link_gbps);
            if (st != DRTOPK_OK) rc = runtime_error("cannot measure the host-to-device link: %s", drtopk_status_string(st));
        }
        if (rc == 0) {
            const drtopk_ooc_args a = { c->run.backend, c->run.dtype, c->run.order, s->host_v, s->count, s->first,
                                        s->k_local, s->cap, plan };
            s->ooc_args = a;
            if ((st = drtopk_ooc_create(&s->ooc_args, &s->stream)) != DRTOPK_OK)
                rc = runtime_error("cannot allocate the out-of-core buffers (2 x %" PRIu64 " elements and %" PRIu64
                                   " candidates) on GPU %d: %s (use a smaller --device-cap)", stage_len,
                                   s->k_local + stage_len, s->gpu, drtopk_status_string(st));
        }
        return rc;
    }
    if (!cuda || c->run.input) {
        if ((rc = slice_to_host(c, s, NULL, 0)) != 0) return rc;
    }
    if ((st = drtopk_select_workspace(lp, plan, &s->ws_bytes)) != DRTOPK_OK)
        return api_error("workspace query failed", st);
    if (!cuda) {
        if (s->ws_bytes && (s->host_ws = malloc(s->ws_bytes)) == NULL)
            return runtime_error("out of host memory for the workspace (%zu bytes)", s->ws_bytes);
        return 0;
    }
    if ((st = dh_dev_alloc(&s->dev_v, (size_t)s->count * esz)) != DRTOPK_OK ||
        (s->ws_bytes && (st = dh_dev_alloc(&s->dev_ws, s->ws_bytes)) != DRTOPK_OK))
        return runtime_error("cannot allocate the slice (%" PRIu64 " elements) and its workspace on GPU %d: %s "
                             "(give --device-cap to stream it)", s->count, s->gpu, drtopk_status_string(st));
    st = s->host_v ? dh_dev_copy(s->dev_v, s->host_v, (size_t)s->count * esz, DRTOPK_COPY_H2D)
                   : dh_dev_generate_at(s->dev_v, s->first, s->count, c->run.dist, c->run.dtype, c->run.seed, NULL);
    if (st == DRTOPK_OK) st = dh_dev_sync();
    if (st != DRTOPK_OK) return runtime_error("cannot place the slice on GPU %d: %s", s->gpu, drtopk_status_string(st));
    if (c->run.verify && !s->host_v) {  /* the check reads the slice on the host: the GPU made it faster */
        if ((s->host_v = malloc((size_t)s->count * esz)) == NULL)
            return runtime_error("out of host memory for the slice's copy --verify reads (%" PRIu64 " elements)",
                                 s->count);
        if ((st = dh_dev_copy(s->host_v, s->dev_v, (size_t)s->count * esz, DRTOPK_COPY_D2H)) != DRTOPK_OK)
            return runtime_error("cannot copy the slice from GPU %d: %s", s->gpu, drtopk_status_string(st));
    }
    return 0;
}

/* The local top k into s->list_v / s->list_p (any order; s->pos_first makes
 * its positions global).  One rank is the result (s->res_v / res_p): in core
 * its plan is sorted when --sorted asks, out of core the stream's output is
 * then ordered after it (the library's sorted selection on the GPU; the CPU
 * backend's canonical order: equal values by smaller position).  With one
 * rank and no --sorted nothing is ordered: the contract of `drtopk run`. */
static int local_topk(const mpi_cfg *c, const drtopk_problem *lp, const drtopk_plan *plan, rank_state *s,
                      rep_times *t)
{
    drtopk_status st;
    const int cuda = is_cuda(c), order_after = !s->exchanges && c->run.sorted && (s->ooc || !cuda);
    const double t0 = dh_now_ms();
    if (s->ooc) {
        drtopk_ooc_stats os;
        if ((st = drtopk_ooc_run(s->stream, s->list_v, s->list_p, &os)) != DRTOPK_OK)
            return api_error("out-of-core top-k failed", st);
        t->reload = os.reload_ms;
        t->chunks = os.chunks;
        t->filtered = os.filtered;
        s->pos_first = 0;               /* the stream gives global positions */
    } else {
        st = drtopk_select(lp, plan, cuda ? s->dev_ws : s->host_ws, s->ws_bytes, s->list_v, s->list_p, NULL, NULL);
        if (st != DRTOPK_OK) return api_error("drtopk_select failed", st);
        t->chunks = 1;
        s->pos_first = s->first;        /* the selection gives slice indices */
    }
    s->res_v = s->list_v;               /* one rank: its slice starts at 0 */
    s->res_p = s->list_p;
    if (cuda && order_after) {
        s->res_v = s->ord_v;
        s->res_p = s->ord_p;
        st = topk_list_dev_order(s->lists, s->list_v, s->list_p, s->k_local, 0, s->ord_v, s->ord_p);
    } else if (cuda) {
        st = dh_dev_sync();
    } else if (order_after) {
        st = drtopk_topk_canon(c->run.dtype, c->run.order, s->list_v, s->list_p, s->k_local);
    }
    if (st != DRTOPK_OK)
        return runtime_error("cannot %s the local result %s: %s", order_after ? "order" : "finish",
                             cuda ? "on the GPU" : "on the host", drtopk_status_string(st));
    t->compute = dh_now_ms() - t0 - t->reload;
    return 0;
}

/* Non-blocking send or receive of `bytes` (> 0) in pieces MPI's int counts
 * hold; returns the requests posted. */
static int post_bytes(void *buf, uint64_t bytes, int peer, int tag, int sends, MPI_Request *req, int max_req)
{
    int n = 0;
    for (uint64_t at = 0; at < bytes; at += MSG_CHUNK_BYTES) {
        const int len = (int)(bytes - at < MSG_CHUNK_BYTES ? bytes - at : MSG_CHUNK_BYTES);
        if (n == max_req) return -1;
        if (sends) MPI_Isend((char *)buf + at, len, MPI_BYTE, peer, tag + TAG_STRIDE * n, MPI_COMM_WORLD, &req[n]);
        else MPI_Irecv((char *)buf + at, len, MPI_BYTE, peer, tag + TAG_STRIDE * n, MPI_COMM_WORLD, &req[n]);
        ++n;
    }
    return n;
}

/* A rank that cannot go on with the exchange cannot tell the others
 * (they wait on its message): it ends the job. */
static void reduce_abort(const world *w, const char *what, drtopk_status st)
{
    fprintf(stderr, "drtopk-mpi: error: rank %d: %s: %s\n", w->rank, what, drtopk_status_string(st));
    MPI_Abort(MPI_COMM_WORLD, EXIT_RUNTIME);
}

/* ---- the exchange: how each rank's part moves to rank 0 ------------------- */

/* What a sender offers its receiver once per run. */
typedef struct {
    int leader;                 /* world rank of its node's first rank: the node  */
    int exported;               /* v and p are valid                              */
    char uuid[sizeof(((dh_device_info *)0)->uuid)];    /* its GPU            */
    topk_ipc_handle v, p;       /* its part's values and positions                */
    char why[EX_WHY_LEN];       /* why not exported                               */
} ipc_offer;

/* This process's ordinal of the GPU with that uuid, or -1. */
static int gpu_ordinal(const char *uuid)
{
    dh_device_info d;
    for (int i = 0; i <= GPU_INDEX_MAX && dh_dev_info(i, &d) == DRTOPK_OK; ++i)
        if (strcmp(d.uuid, uuid) == 0) return i;
    return -1;
}

/* A sender's half of the setup: its offer to rank 0, then rank 0's choice. */
static void offer_ipc(const world *w, const mpi_cfg *c, rank_state *s, int leader)
{
    ipc_offer o;
    drtopk_status st;
    memset(&o, 0, sizeof o);
    o.leader = leader;
    snprintf(o.uuid, sizeof o.uuid, "%s", s->dev.uuid);
    if (c->no_ipc)
        snprintf(o.why, sizeof o.why, "--no-ipc");
    else if ((st = topk_ipc_export(s->gath_v, &o.v)) != DRTOPK_OK || (st = topk_ipc_export(s->gath_p, &o.p)) != DRTOPK_OK)
        snprintf(o.why, sizeof o.why, "rank %d cannot export its part (cudaIpcGetMemHandle: %s)", w->rank,
                 drtopk_status_string(st));
    else
        o.exported = 1;
    MPI_Send(&o, (int)sizeof o, MPI_BYTE, 0, TAG_CONTROL, MPI_COMM_WORLD);
    MPI_Recv(&s->send_ex, 1, MPI_INT, 0, TAG_CONTROL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Rank 0's half for rank `peer`: CUDA IPC when the sender shares this node,
 * exported its part, its GPU is one rank 0's GPU reaches, and the part maps
 * here; else through MPI.  Returns the choice, also sent back. */
static int accept_ipc(const world *w, rank_state *s, int leader, int peer)
{
    ipc_offer o;
    char why[EX_WHY_LEN] = "";
    int mode = s->cuda_aware ? EX_CUDA_AWARE : EX_STAGED, theirs, reach = 0;
    drtopk_status st;
    MPI_Recv(&o, (int)sizeof o, MPI_BYTE, peer, TAG_CONTROL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (o.leader != leader) {
        /* another node: MPI is the only way, nothing to explain */
    } else if (!o.exported) {
        snprintf(why, sizeof why, "%s", o.why);
    } else if ((theirs = gpu_ordinal(o.uuid)) < 0) {
        snprintf(why, sizeof why, "rank %d's GPU (%s) is not visible to rank %d", peer, o.uuid, w->rank);
    } else if ((st = topk_ipc_reachable(s->gpu, theirs, &reach)) != DRTOPK_OK || !reach) {
        snprintf(why, sizeof why, "GPU %d (rank %d) has no peer access to GPU %d (rank %d)", s->gpu, w->rank, theirs,
                 peer);
    } else if ((st = topk_ipc_open(&o.v, &s->peer_v[peer])) != DRTOPK_OK ||
               (st = topk_ipc_open(&o.p, (void **)&s->peer_p[peer])) != DRTOPK_OK) {
        topk_ipc_close(s->peer_v[peer]);   /* the first may have mapped: the fallback holds nothing */
        s->peer_v[peer] = NULL;
        snprintf(why, sizeof why, "rank %d cannot map rank %d's part (cudaIpcOpenMemHandle: %s)", w->rank, peer,
                 drtopk_status_string(st));
    } else {
        mode = EX_IPC;
    }
    if (why[0] && !s->ex_why[0]) snprintf(s->ex_why, sizeof s->ex_why, "%s", why);
    MPI_Send(&mode, 1, MPI_INT, peer, TAG_CONTROL, MPI_COMM_WORLD);
    return mode;
}

/* Once per run, after the parts are allocated (they must not move): each
 * rank's way of moving its part to rank 0, both ends agreeing.  Collective;
 * a way that fails falls back to MPI and says why (s->ex_why), it never ends
 * the run. */
static void exchange_setup(const world *w, const mpi_cfg *c, rank_state *s)
{
    int leader = w->rank;
    s->send_ex = EX_NONE;
    if (!s->exchanges) return;
    MPI_Bcast(&leader, 1, MPI_INT, 0, w->node);
    if (s->root) s->recv_ex[0] = EX_NONE;
    for (int r = 1; r < w->ranks; ++r) {
        if (!is_cuda(c)) {
            if (s->root) s->recv_ex[r] = EX_HOST;
            else if (w->rank == r) s->send_ex = EX_HOST;
        } else if (s->root) {
            s->recv_ex[r] = accept_ipc(w, s, leader, r);
        } else if (w->rank == r) {
            offer_ipc(w, c, s, leader);
        }
    }
}

/* After the setup: rank 0 chooses between gathering every whole list and
 * the threshold's rounds (mgpu.h), GPU to GPU when every part moves by CUDA
 * IPC, and tells every rank.  The CPU backend runs the rounds.  Collective. */
static void exchange_choose(const world *w, const mpi_cfg *c, rank_state *s)
{
    int ipc = 1;
    s->gather_all = 0;
    if (!s->exchanges || !is_cuda(c)) return;
    for (int r = 1; s->root && r < w->ranks; ++r) ipc = ipc && s->recv_ex[r] == EX_IPC;
    if (s->root) s->gather_all = drtopk_mgpu_gather_all(s->k_list, w->ranks, c->run.dtype, ipc);
    MPI_Bcast(&s->gather_all, 1, MPI_INT, 0, MPI_COMM_WORLD);
}

/* Rank 0 unmaps the parts it mapped; then every rank waits for all, so no
 * rank frees a part rank 0 still maps.  Collective. */
static void exchange_close(const world *w, rank_state *s)
{
    if (!s->exchanges) return;
    for (int r = 0; s->peer_v && r < w->ranks; ++r) {
        if (topk_ipc_close(s->peer_v[r]) != DRTOPK_OK || topk_ipc_close(s->peer_p[r]) != DRTOPK_OK)
            fprintf(stderr, "drtopk-mpi: warning: rank 0 cannot unmap rank %d's part\n", r);
        s->peer_v[r] = NULL;
        s->peer_p[r] = NULL;
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The global k-th key: the radix rounds over the ranks' lists (mgpu.h);
 * then this rank's part compacted (on rank 0, at the start of the result):
 * its elements above that key and its share of the ties, global positions.
 * Collective. */
static void threshold_compact(const world *w, const mpi_cfg *c, rank_state *s)
{
    const drtopk_dtype t = c->run.dtype;
    const drtopk_order o = c->run.order;
    uint64_t hist[DRTOPK_RADIX_BINS], sum[DRTOPK_RADIX_BINS], prefix = 0, need = c->run.k, above = 0, ties = 0,
             before = 0;
    drtopk_status st = DRTOPK_OK;
    s->rounds = drtopk_radix_rounds(t);
    for (int round = 0; round < s->rounds; ++round) {
        const int shift = drtopk_radix_shift(t, round);
        uint64_t better;
        memset(hist, 0, sizeof hist);
        if (is_cuda(c)) st = topk_list_dev_hist(s->lists, s->list_v, s->k_local, prefix, shift, hist);
        else drtopk_key_hist(s->list_v, s->k_local, t, o, prefix, shift, hist);
        if (st != DRTOPK_OK) reduce_abort(w, "cannot count the list's digits on the GPU", st);
        MPI_Allreduce(hist, sum, DRTOPK_RADIX_BINS, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
        /* the lists hold sum(min(k, slice)) >= k keys: some digit reaches need */
        const unsigned d = drtopk_radix_pick(sum, need, &better);
        need -= better;
        prefix |= (uint64_t)d << shift;
        for (unsigned e = d + 1; e < DRTOPK_RADIX_BINS; ++e) above += hist[e];
        ties = hist[d];
    }
    /* need: the ties of the k-th key the result takes, the lower ranks' first */
    MPI_Exscan(&ties, &before, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (s->root) before = 0;            /* MPI_Exscan leaves rank 0's undefined */
    const uint64_t take = need > before ? (need - before < ties ? need - before : ties) : 0;
    s->sent = above + take;
    if (is_cuda(c) && c->run.deterministic) {
        /* the list is best first, equal keys by position: the part is its first above + take */
        st = topk_list_dev_shift(s->lists, s->list_v, s->list_p, s->sent, s->pos_first, s->gath_v, s->gath_p);
        if (st != DRTOPK_OK) reduce_abort(w, "cannot copy the part on the GPU", st);
    } else if (is_cuda(c)) {
        st = topk_list_dev_compact(s->lists, s->list_v, s->list_p, s->k_local, prefix, above, take, s->pos_first,
                                   s->gath_v, s->gath_p);
        if (st != DRTOPK_OK) reduce_abort(w, "cannot compact the part on the GPU", st);
    } else {
        drtopk_key_compact(s->list_v, s->list_p, s->k_local, t, o, prefix, take, s->pos_first, s->gath_v, s->gath_p);
    }
}

/* This rank's part to rank 0, into the result at the rank's offset (the
 * parts' lengths by MPI_Gather): copied GPU to GPU by rank 0 over CUDA IPC
 * (the sender's part is complete before its length is sent, and changes
 * again only after the next repetition's barrier, which rank 0 reaches after
 * its copies), else through MPI from device memory (CUDA-aware) or through
 * the pinned staging buffers.  Collective. */
static void gather_parts(const world *w, const mpi_cfg *c, rank_state *s)
{
    enum { PIECES = 2 * 64 };           /* MPI pieces of a part: 2 arrays of up to 64 GiB each */
    const size_t pv = s->esz, pp = sizeof(uint64_t);
    drtopk_status st;
    MPI_Gather(&s->sent, 1, MPI_UINT64_T, s->counts, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (!s->root) {
        MPI_Request req[PIECES];
        void *v = s->gath_v, *p = s->gath_p;
        if (s->send_ex == EX_IPC) return;
        if (s->send_ex == EX_STAGED) {
            if ((st = dh_dev_copy(s->stage_v, s->gath_v, s->sent * pv, DRTOPK_COPY_D2H)) != DRTOPK_OK ||
                (st = dh_dev_copy(s->stage_p, s->gath_p, s->sent * pp, DRTOPK_COPY_D2H)) != DRTOPK_OK)
                reduce_abort(w, "cannot stage the part for sending", st);
            v = s->stage_v;
            p = s->stage_p;
        }
        const int a = post_bytes(v, s->sent * pv, 0, TAG_VALUES, 1, req, PIECES / 2);
        const int b = post_bytes(p, s->sent * pp, 0, TAG_POSITIONS, 1, req + a, PIECES / 2);
        MPI_Waitall(a + b, req, MPI_STATUSES_IGNORE);
        return;
    }
    MPI_Request *req = (MPI_Request *)malloc((size_t)w->ranks * PIECES * sizeof *req);
    uint64_t at = 0;
    int posted = 0;
    if (!req) reduce_abort(w, "out of host memory for the gather's requests", DRTOPK_ERR_OUT_OF_MEMORY);
    for (int r = 0; r < w->ranks; ++r) {
        s->offsets[r] = at;
        at += s->counts[r];
    }
    if (s->gather_all ? at < c->run.k : at != c->run.k)
        reduce_abort(w, s->gather_all ? "the ranks' lists hold fewer than k elements" : "the ranks' parts do not add up to k",
                     DRTOPK_ERR_INVALID_ARGUMENT);
    s->gathered = at;
    for (int r = 1; r < w->ranks; ++r) {
        const int staged = s->recv_ex[r] == EX_STAGED;
        if (s->recv_ex[r] == EX_IPC) continue;
        void *v = (char *)(staged ? s->stage_v : s->gath_v) + s->offsets[r] * pv;
        void *p = (char *)(staged ? (void *)s->stage_p : (void *)s->gath_p) + s->offsets[r] * pp;
        posted += post_bytes(v, s->counts[r] * pv, r, TAG_VALUES, 0, req + posted, PIECES / 2);
        posted += post_bytes(p, s->counts[r] * pp, r, TAG_POSITIONS, 0, req + posted, PIECES / 2);
    }
    for (int r = 1; r < w->ranks; ++r) {
        if (s->recv_ex[r] != EX_IPC) continue;
        if ((st = topk_ipc_copy((char *)s->gath_v + s->offsets[r] * pv, s->peer_v[r], s->counts[r] * pv)) != DRTOPK_OK ||
            (st = topk_ipc_copy(s->gath_p + s->offsets[r], s->peer_p[r], s->counts[r] * pp)) != DRTOPK_OK)
            reduce_abort(w, "cannot copy a rank's part GPU to GPU (CUDA IPC)", st);
    }
    if (s->root && s->gathered > 0 && is_cuda(c) && (st = topk_ipc_wait()) != DRTOPK_OK)
        reduce_abort(w, "cannot copy a rank's part GPU to GPU (CUDA IPC)", st);
    MPI_Waitall(posted, req, MPI_STATUSES_IGNORE);
    free(req);
    for (int r = 1; r < w->ranks; ++r) {
        if (s->recv_ex[r] != EX_STAGED || s->counts[r] == 0) continue;
        if ((st = dh_dev_copy((char *)s->gath_v + s->offsets[r] * pv, (char *)s->stage_v + s->offsets[r] * pv,
                              s->counts[r] * pv, DRTOPK_COPY_H2D)) != DRTOPK_OK ||
            (st = dh_dev_copy(s->gath_p + s->offsets[r], s->stage_p + s->offsets[r], s->counts[r] * pp,
                              DRTOPK_COPY_H2D)) != DRTOPK_OK)
            reduce_abort(w, "cannot copy a received part to the GPU", st);
    }
}

/* Several ranks: the k-th key, the parts, and on rank 0 the result
 * (s->res_v / res_p), best first with --sorted.  *thr_ms gets the time of
 * the k-th key and the compaction. */
static void exchange(const world *w, const mpi_cfg *c, rank_state *s, double *thr_ms)
{
    double t0 = dh_now_ms();
    drtopk_status st = DRTOPK_OK;
    if (s->gather_all) {
        s->rounds = 0;
        s->sent = s->k_local;
        if ((st = topk_list_dev_shift(s->lists, s->list_v, s->list_p, s->k_local, s->pos_first, s->gath_v,
                                      s->gath_p)) != DRTOPK_OK)
            reduce_abort(w, "cannot copy the list into the part on the GPU", st);
        *thr_ms = dh_now_ms() - t0;
        gather_parts(w, c, s);
        if (!s->root) return;
        t0 = dh_now_ms();
        st = topk_list_dev_select(s->lists, s->gath_v, s->gath_p, s->gathered, c->run.k, c->run.sorted, s->ord_v,
                                  s->ord_p);
        if (st != DRTOPK_OK) reduce_abort(w, "cannot select the result from the gathered lists", st);
        *thr_ms += dh_now_ms() - t0;
        s->res_v = s->ord_v;
        s->res_p = s->ord_p;
        return;
    }
    threshold_compact(w, c, s);
    *thr_ms = dh_now_ms() - t0;
    gather_parts(w, c, s);
    if (!s->root) return;
    s->res_v = s->gath_v;
    s->res_p = s->gath_p;
    if (!c->run.sorted) return;
    if (is_cuda(c)) {
        st = topk_list_dev_order(s->lists, s->gath_v, s->gath_p, c->run.k, 0, s->ord_v, s->ord_p);
        s->res_v = s->ord_v;
        s->res_p = s->ord_p;
    } else {
        st = drtopk_topk_canon(c->run.dtype, c->run.order, s->gath_v, s->gath_p, c->run.k);
    }
    if (st != DRTOPK_OK) reduce_abort(w, "cannot order the gathered result", st);
}

/* ---- verification: each rank checks its slice, rank 0 adds up ------------- */

static void bcast_bytes(void *buf, uint64_t bytes)
{
    for (uint64_t at = 0; at < bytes; at += MSG_CHUNK_BYTES)
        MPI_Bcast((char *)buf + at, (int)(bytes - at < MSG_CHUNK_BYTES ? bytes - at : MSG_CHUNK_BYTES), MPI_BYTE,
                  0, MPI_COMM_WORLD);
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The result (k values and positions, on rank 0, in any order) is exact when its
 * positions are distinct and inside V, each value is bit-equal to V at its
 * position, and V holds as many elements strictly better than the worst
 * value as the result does, and enough ties of it.  Every rank checks its
 * slice; the others' result buffers (k long) receive rank 0's.  Returns 1
 * (PASS) or 0 with why, on rank 0. */
static int verify(const world *w, const mpi_cfg *c, const rank_state *s, void *vals, uint64_t *pos,
                  char *why, size_t why_len)
{
    const uint64_t k = c->run.k;
    const drtopk_dtype t = c->run.dtype;
    const drtopk_order o = c->run.order;
    const void *v = s->host_v;
    uint64_t local[3] = { 0, 0, 0 }, total[3];     /* better, tied, wrong values */
    uint64_t better = 0, bad_pos = 0;
    bcast_bytes(vals, k * s->esz);
    bcast_bytes(pos, k * sizeof(uint64_t));
    uint64_t worst = UINT64_MAX;        /* the result's worst key, in whatever order it comes */
    for (uint64_t i = 0; i < k; ++i) {
        const uint64_t key = drtopk_key_at(vals, i, t, o);
        if (key < worst) worst = key;
    }
    for (uint64_t i = 0; i < s->count; ++i) {
        const uint64_t key = drtopk_key_at(v, i, t, o);
        local[0] += key > worst;
        local[1] += key == worst;
    }
    for (uint64_t i = 0; i < k; ++i)
        if (pos[i] >= s->first && pos[i] - s->first < s->count)
            local[2] += drtopk_bits_at(v, pos[i] - s->first, t) != drtopk_bits_at(vals, i, t);
    MPI_Reduce(local, total, 3, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (w->rank != 0) return 1;
    uint64_t *sp = (uint64_t *)malloc((size_t)k * sizeof(uint64_t));
    if (!sp) {
        snprintf(why, why_len, "out of host memory checking the positions");
        return 0;
    }
    memcpy(sp, pos, (size_t)k * sizeof(uint64_t));
    qsort(sp, (size_t)k, sizeof *sp, cmp_u64);
    for (uint64_t i = 0; i < k; ++i) bad_pos += sp[i] >= c->run.n || (i && sp[i] == sp[i - 1]);
    free(sp);
    for (uint64_t i = 0; i < k; ++i) better += drtopk_key_at(vals, i, t, o) > worst;
    if (bad_pos) snprintf(why, why_len, "%" PRIu64 " positions repeat or lie outside V", bad_pos);
    else if (total[2]) snprintf(why, why_len, "%" PRIu64 " values differ from V at their positions", total[2]);
    else if (total[0] != better)
        snprintf(why, why_len, "V holds %" PRIu64 " elements better than the k-th value, the result %" PRIu64,
                 total[0], better);
    else if (total[0] + total[1] < k) snprintf(why, why_len, "V holds too few ties of the k-th value");
    else return 1;
    return 0;
}

/* ---- report ---------------------------------------------------------------- */

/* The text of the lowest rank for which `has` holds, on rank 0 (into out,
 * len bytes: text is at most that long); returns that rank, or -1 when no
 * rank has one.  Collective. */
static int first_text(const world *w, int has, const char *text, char *out, size_t len)
{
    int first = w->ranks;
    const int mine = has ? w->rank : w->ranks;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == w->ranks) return -1;
    if (first == 0 && w->rank == 0) {
        snprintf(out, len, "%s", text);
    } else if (w->rank == first) {
        MPI_Send(text, (int)strlen(text) + 1, MPI_CHAR, 0, TAG_CONTROL, MPI_COMM_WORLD);
    } else if (w->rank == 0) {
        MPI_Recv(out, (int)len, MPI_CHAR, first, TAG_CONTROL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    return first;
}

typedef struct {
    double total, compute, reload, comm, thr;    /* medians, ms (thr is part of comm) */
    double *totals;                         /* every repetition's total */
    uint64_t chunks, filtered;
    uint64_t device_cap;                    /* the longest sub-vector of the ranks out of core; 0: all in core */
    int ooc_ranks, gpus;
    double link_gbps;                       /* the slowest measured link (0: none) */
    double reload_gbps;                     /* the largest slice over the median reload */
    char why[300];                          /* rank 0's placement and why */
    char why_other[300];                    /* the first rank placed otherwise, and why */
    int why_other_rank;                     /* that rank (0: none) */
    int edges[EX_KINDS];                    /* the ranks' parts by how they moved to rank 0 */
    int rounds;                             /* the radix rounds of the k-th key */
    char ex_why[EX_WHY_LEN];                /* the first rank of rank 0's node whose part is not CUDA IPC, and why */
    int ex_why_rank;                        /* the rank that said so, rank 0 (-1: none) */
    int verified;                           /* -1 not run, 0 FAIL, 1 PASS */
    char why_verify[300];
} report;

/* How the parts travelled: the one way every rank's took ("none": one rank),
 * or "mixed". */
static const char *exchange_key(const report *r)
{
    int kinds = 0, last = 0;
    for (int x = 0; x < EX_KINDS; ++x)
        if (r->edges[x]) {
            ++kinds;
            last = x;
        }
    return kinds == 0 ? "none" : kinds == 1 ? ex_keys[last] : "mixed";
}

static void print_text(const world *w, const mpi_cfg *c, const drtopk_plan *plan, const rank_state *s,
                       const report *r)
{
    char nbuf[64], kbuf[64];
    size_text(nbuf, sizeof nbuf, c->run.n);
    size_text(kbuf, sizeof kbuf, c->run.k);
    printf("backend:   %s, %d ranks", c->run.backend == DRTOPK_BACKEND_CUDA ? "cuda" : "cpu", w->ranks);
    if (c->run.backend == DRTOPK_BACKEND_CUDA) printf(" on %d GPU%s (rank 0: %s)", r->gpus, r->gpus == 1 ? "" : "s",
                                                      s->dev.name);
    putchar('\n');
    if (c->run.input) printf("input:     %s: n = %s, %s\n", c->run.input, nbuf, drtopk_dtype_name(c->run.dtype));
    else printf("input:     n = %s, %s, dist %s, seed %" PRIu64 "\n", nbuf, drtopk_dtype_name(c->run.dtype),
                dh_dist_name(c->run.dist), c->run.seed);
    printf("select:    k = %s %s, %s\n", kbuf, c->run.order == DRTOPK_SMALLEST ? "smallest" : "largest",
           c->run.sorted ? "best first (--sorted)" : "in no promised order (--sorted orders them)");
    printf("plan:      %s%s, alpha = %d, beta = %d (rank 0's slice)\n", (plan->flags & DRTOPK_DELEGATE) ? "dr-" : "",
           drtopk_algo_name(plan->second_algo), plan->alpha, plan->beta);
    printf("slices:    %s; %d of %d rank%s out of core", c->run.n % (uint64_t)w->ranks ? "uneven" : "even",
           r->ooc_ranks, w->ranks, w->ranks == 1 ? "" : "s");
    if (r->ooc_ranks)
        printf(" (sub-vectors of %" PRIu64 " elements at most, %" PRIu64 " of them, %" PRIu64
               " elements filtered out by the carried k-th value)", r->device_cap, r->chunks, r->filtered);
    printf("\nplacement: rank 0 %s\n", r->why);
    if (r->why_other_rank) printf("           rank %d %s\n", r->why_other_rank, r->why_other);
    if (w->ranks == 1) {
        printf("exchange:  none: one rank, no part moves\n");
    } else {
        const char *sep = "";
        printf("exchange:  %s (", exchange_key(r));
        for (int x = 0; x < EX_KINDS; ++x)
            if (r->edges[x]) {
                printf("%s%d part%s by %s", sep, r->edges[x], r->edges[x] == 1 ? "" : "s", ex_text[x]);
                sep = ", ";
            }
        if (s->gather_all)
            printf(") to rank 0: every rank's whole list, short enough to move whole (GPU to GPU); rank 0 "
                   "selects the k best of them%s on the GPU\n", c->run.sorted ? ", best first," : "");
        else
            printf(") to rank 0 at the k-th key, which a radix select of %d rounds over the ranks' lists fixed; "
                   "%s %s\n", r->rounds, c->run.sorted ? "counting, compaction and ordering" : "counting and compaction",
                   is_cuda(c) ? "on the GPU" : "on the host");
        if (r->ex_why_rank >= 0) printf("           not CUDA IPC at rank %d: %s\n", r->ex_why_rank, r->ex_why);
    }
    printf("time:      total %.4f ms: compute %.4f, reload %.4f, communication %.4f of which %s %.4f (medians of %d reps; compute and reload of the slowest rank)\n", r->total, r->compute,
           r->reload, r->comm, s->gather_all ? "the lists' copy and rank 0's selection" : "the k-th key and compaction",
           r->thr, c->run.reps);
    if (r->link_gbps > 0)
        printf("reload:    %.1f GB/s, the link measured %.1f GB/s (%.0f%%)\n", r->reload_gbps, r->link_gbps,
               100 * r->reload_gbps / r->link_gbps);
    if (c->run.output) printf("output:    %s.values, %s.indices\n", c->run.output, c->run.output);
    if (r->verified >= 0)
        printf("verify:    %s%s%s\n", r->verified ? "PASS" : "FAIL", r->verified ? "" : ": ", r->why_verify);
}

static void print_json(const world *w, const mpi_cfg *c, const drtopk_plan *plan, const rank_state *s,
                       const report *r)
{
    FILE *f = stdout;
    fputs("{\"command\": \"mpi\", \"git_commit\": ", f);
    json_string(f, DRTOPK_GIT_COMMIT);
    fprintf(f, ", \"backend\": \"%s\", \"ranks\": %d, \"gpus\": %d, \"gpu\": ",
            c->run.backend == DRTOPK_BACKEND_CUDA ? "cuda" : "cpu", w->ranks, r->gpus);
    if (c->run.backend == DRTOPK_BACKEND_CUDA) {
        fputs("{\"name\": ", f);
        json_string(f, s->dev.name);
        fputs(", \"uuid\": ", f);
        json_string(f, s->dev.uuid);
        fprintf(f, ", \"driver_version\": %d, \"runtime_version\": %d}", s->dev.driver_version,
                s->dev.runtime_version);
    } else {
        fputs("null", f);
    }
    fprintf(f, ", \"n\": %" PRIu64 ", \"k\": %" PRIu64 ", \"dtype\": \"%s\", \"order\": \"%s\", \"sorted\": %s, "
            "\"deterministic\": %s, \"input\": ", c->run.n, c->run.k, drtopk_dtype_name(c->run.dtype),
            c->run.order == DRTOPK_SMALLEST ? "smallest" : "largest", c->run.sorted ? "true" : "false",
            c->run.deterministic ? "true" : "false");
    if (c->run.input) {
        json_string(f, c->run.input);
        fputs(", \"dist\": null, \"seed\": null", f);
    } else {
        fprintf(f, "null, \"dist\": \"%s\", \"seed\": %" PRIu64, dh_dist_name(c->run.dist), c->run.seed);
    }
    fprintf(f, ", \"algo\": \"%s%s\", \"plan\": {\"alpha\": %d, \"beta\": %d, \"first_algo\": \"%s\", "
            "\"second_algo\": \"%s\", \"flags\": %u}",
            (plan->flags & DRTOPK_DELEGATE) ? "dr-" : "", drtopk_algo_name(plan->second_algo), plan->alpha,
            plan->beta, drtopk_algo_name(plan->first_algo), drtopk_algo_name(plan->second_algo), plan->flags);
    fprintf(f, ", \"device_cap\": %" PRIu64 ", \"out_of_core_ranks\": %d, \"placement\": {\"rank0\": ",
            r->device_cap, r->ooc_ranks);
    json_string(f, r->why);
    fputs(", \"other\": ", f);
    if (r->why_other_rank) {
        fprintf(f, "{\"rank\": %d, \"why\": ", r->why_other_rank);
        json_string(f, r->why_other);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fprintf(f, "}, \"exchange\": \"%s\", \"exchange_method\": \"%s\", \"threshold_rounds\": %d, "
            "\"exchange_edges\": {", exchange_key(r), w->ranks > 1 ? (s->gather_all ? "gather-select" : "radix-threshold-gather") : "none", r->rounds);
    for (int x = 0; x < EX_KINDS; ++x) fprintf(f, "%s\"%s\": %d", x ? ", " : "", ex_keys[x], r->edges[x]);
    fputs("}, \"exchange_fallback\": ", f);
    if (r->ex_why_rank >= 0) {
        fprintf(f, "{\"rank\": %d, \"why\": ", r->ex_why_rank);
        json_string(f, r->ex_why);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fprintf(f, ", \"chunks\": %" PRIu64 ", \"filtered\": %" PRIu64 ", \"warmup\": %d, \"reps\": ", r->chunks,
            r->filtered, c->run.warmup);
    json_numbers(f, r->totals, c->run.reps);
    json_field(f, "ms_median", r->total);
    json_field(f, "compute_ms", r->compute);
    json_field(f, "reload_ms", r->reload);
    json_field(f, "comm_ms", r->comm);
    json_field(f, "threshold_ms", r->thr);
    json_field(f, "reload_gbps", r->link_gbps > 0 ? r->reload_gbps : NAN);
    json_field(f, "link_gbps", r->link_gbps > 0 ? r->link_gbps : NAN);
    fputs(", \"output\": ", f);
    if (c->run.output) json_string(f, c->run.output);
    else fputs("null", f);
    fprintf(f, ", \"verify\": %s, \"verify_reason\": ",
            r->verified < 0 ? "null" : r->verified ? "\"PASS\"" : "\"FAIL\"");
    json_string(f, r->verified == 0 ? r->why_verify : "");
    fputs("}\n", f);
}

/* The Table 2 row, on rank 0. */
static int store_row(const mpi_cfg *c, const drtopk_plan *plan, const rank_state *s, const report *r, int ranks,
                     int argc, char **argv)
{
    char err[DRTOPK_STORE_ERR_LEN], *args = NULL, *reps = NULL;
    size_t len = 1, rlen = 0;
    FILE *rf;
    dh_store *db;
    dh_store_machine mach;
    dh_store_multi m;
    int64_t mid, rid;
    int rc = 0;
    memset(&mach, 0, sizeof mach);
    memset(&m, 0, sizeof m);
    if (c->run.backend == DRTOPK_BACKEND_CPU) {
        dh_store_cpu_machine(&mach);
    } else {
        snprintf(mach.uuid, sizeof mach.uuid, "%s", s->dev.uuid);
        snprintf(mach.name, sizeof mach.name, "%s", s->dev.name);
        mach.backend = "cuda";
        mach.cc_major = s->dev.cc_major;
        mach.cc_minor = s->dev.cc_minor;
        mach.sm_count = s->dev.sm_count;
        mach.mem_bytes = s->dev.mem_bytes;
        mach.l2_bytes = s->dev.l2_bytes;
        mach.driver_version = s->dev.driver_version;
        mach.runtime_version = s->dev.runtime_version;
    }
    for (int i = 0; i < argc; ++i) len += strlen(argv[i]) + 1;
    if ((args = (char *)calloc(1, len)) == NULL) return runtime_error("out of host memory");
    for (int i = 0; i < argc; ++i) {
        if (i) strcat(args, " ");
        strcat(args, argv[i]);
    }
    if ((rf = open_memstream(&reps, &rlen)) == NULL) {
        free(args);
        return runtime_error("out of host memory");
    }
    json_numbers(rf, r->totals, c->run.reps);
    fclose(rf);
    snprintf(m.cfg.algorithm, sizeof m.cfg.algorithm, "%s%s", (plan->flags & DRTOPK_DELEGATE) ? "dr-" : "",
             drtopk_algo_name(plan->second_algo));
    snprintf(m.cfg.first_algo, sizeof m.cfg.first_algo, "%s",
             (plan->flags & DRTOPK_DELEGATE) ? drtopk_algo_name(plan->first_algo) : "");
    snprintf(m.cfg.second_algo, sizeof m.cfg.second_algo, "%s", drtopk_algo_name(plan->second_algo));
    snprintf(m.cfg.dtype, sizeof m.cfg.dtype, "%s", drtopk_dtype_name(c->run.dtype));
    snprintf(m.cfg.dist, sizeof m.cfg.dist, "%s", c->run.input ? "" : dh_dist_name(c->run.dist));
    snprintf(m.cfg.order, sizeof m.cfg.order, "%s", c->run.order == DRTOPK_SMALLEST ? "smallest" : "largest");
    m.cfg.seed = c->run.input ? 0 : c->run.seed;
    m.cfg.n = c->run.n;
    m.cfg.k = c->run.k;
    m.cfg.alpha = (plan->flags & DRTOPK_DELEGATE) ? plan->alpha : 0;
    m.cfg.beta = (plan->flags & DRTOPK_DELEGATE) ? plan->beta : 0;
    m.cfg.flags = plan->flags;
    m.ranks = ranks;
    m.gpus = r->gpus;
    m.device_cap = r->device_cap;
    m.out_of_core = r->ooc_ranks > 0;
    m.chunks = r->chunks;
    m.filtered = r->filtered;
    m.reps = c->run.reps;
    m.total_ms = r->total;
    m.compute_ms = r->compute;
    m.reload_ms = r->reload;
    m.comm_ms = r->comm;
    m.link_gbps = r->link_gbps;
    m.reps_ms = reps;
    m.verified = r->verified >= 0;
    m.verify_ok = r->verified == 1;
    m.exchange = exchange_key(r);
    if (dh_store_open(c->db, 0, &db, err, sizeof err) != DRTOPK_OK) {
        rc = runtime_error("--db: %s", err);
    } else {
        if (dh_store_put_machine(db, &mach, &mid) != DRTOPK_OK ||
            dh_store_begin_run(db, mid, "drtopk-mpi", args, DRTOPK_GIT_COMMIT, &rid) != DRTOPK_OK ||
            dh_store_put_multi(db, mid, rid, DRTOPK_GIT_COMMIT, &m) != DRTOPK_OK ||
            dh_store_end_run(db, rid, "done") != DRTOPK_OK)
            rc = runtime_error("--db %s: %s", c->db, dh_store_errmsg(db));
        dh_store_close(db);
    }
    free(args);
    free(reps);
    return rc;
}

/* ---- main ------------------------------------------------------------------ */

static int setup(const world *w, mpi_cfg *c, int argc, char **argv)
{
    int rc;
    opt_spec *specs = all_specs();
    if (!specs) return runtime_error("out of host memory");
    rc = parse_options(NULL, specs, argc - 1, argv + 1, mpi_option, c);
    free(specs);
    if (rc != 0 || c->run.help) return rc;
    if (!c->run.have_k) return usage_error("missing --k (the number of elements to select)");
    if (c->run.have_timing)
        return usage_error("--timing is drtopk run's: drtopk-mpi times each repetition by the host clock "
                           "across the ranks (its local compute, exchange and total)");
    const int cuda_ok = dh_cuda_available();
    if (c->run.have_backend && c->run.backend == DRTOPK_BACKEND_CUDA && !cuda_ok)
        return usage_error("--backend cuda: no usable CUDA GPU (this build has no CUDA backend or no GPU is "
                           "visible); use --backend cpu");
    if (!c->run.have_backend) c->run.backend = cuda_ok ? DRTOPK_BACKEND_CUDA : DRTOPK_BACKEND_CPU;
    if (c->run.have_gpu && c->run.backend == DRTOPK_BACKEND_CPU)
        return usage_error("--gpu applies only to --backend cuda");
    if (!c->run.have_reps) c->run.reps = c->run.backend == DRTOPK_BACKEND_CUDA ? DEFAULT_REPS_CUDA : DEFAULT_REPS_CPU;
    if (!c->run.have_warmup)
        c->run.warmup = c->run.backend == DRTOPK_BACKEND_CUDA ? DEFAULT_WARMUP_CUDA : DEFAULT_WARMUP_CPU;
    if ((rc = resolve_inputs(&c->run, NULL)) != 0) return rc;
    if (c->run.n < (uint64_t)w->ranks)
        return usage_error("n = %" PRIu64 " is smaller than the %d ranks: every rank needs an element", c->run.n,
                           w->ranks);
    return 0;
}

/* One repetition: local top-k, then with several ranks the exchange; rank
 * 0's s->res_v / res_p hold the result. */
static int one_rep(world *w, const mpi_cfg *c, const drtopk_problem *lp, const drtopk_plan *plan, rank_state *s,
                   rep_times *t)
{
    double mine[2], most[2];
    uint64_t fl, fl_sum, ch, ch_max;
    memset(t, 0, sizeof *t);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = dh_now_ms();
    int rc = agree(w, local_topk(c, lp, plan, s, t));
    if (rc) return rc;
    const double tc = dh_now_ms();
    if (s->exchanges) exchange(w, c, s, &t->thr);
    t->comm = dh_now_ms() - tc;
    t->total = dh_now_ms() - t0;
    mine[0] = t->compute;
    mine[1] = t->reload;
    fl = t->filtered;
    ch = t->chunks;
    MPI_Reduce(mine, most, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&fl, &fl_sum, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&ch, &ch_max, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
    if (w->rank == 0) {
        t->compute = most[0];
        t->reload = most[1];
        t->filtered = fl_sum;
        t->chunks = ch_max;
    }
    return 0;
}

/* Distinct GPUs among the ranks (by uuid), on rank 0. */
static int count_gpus(const world *w, const rank_state *s)
{
    enum { UUID = sizeof s->dev.uuid };
    char *all = w->rank == 0 ? (char *)calloc((size_t)w->ranks, UUID) : NULL;
    char mine[UUID];
    int distinct = 0;
    snprintf(mine, sizeof mine, "%s", s->gpu >= 0 ? s->dev.uuid : "");
    if (w->rank == 0 && !all) MPI_Abort(MPI_COMM_WORLD, EXIT_RUNTIME);
    MPI_Gather(mine, UUID, MPI_CHAR, all, UUID, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (w->rank != 0) return 0;
    for (int i = 0; i < w->ranks; ++i) {
        int seen = all[(size_t)i * UUID] == '\0';
        for (int j = 0; j < i && !seen; ++j) seen = strcmp(all + (size_t)i * UUID, all + (size_t)j * UUID) == 0;
        distinct += !seen;
    }
    free(all);
    return distinct;
}

/* Ranks of this node bound to the same GPU as this one (they share its
 * memory); collective over the node. */
static int ranks_sharing_gpu(const world *w, const rank_state *s)
{
    int size, same = 0;
    MPI_Comm_size(w->node, &size);
    int *all = (int *)malloc((size_t)size * sizeof(int));
    if (!all) return size;              /* the safe guess: every rank of the node */
    MPI_Allgather(&s->gpu, 1, MPI_INT, all, 1, MPI_INT, w->node);
    for (int i = 0; i < size; ++i) same += all[i] == s->gpu;
    free(all);
    return same;
}

#define GIB (1024.0 * 1024.0 * 1024.0)

/* Device bytes a rank needs besides its workspace: the slice (in core) or
 * two sub-vectors and the candidates (out of core), and the lists. */
static double device_need(const rank_state *s, uint64_t slice_len, uint64_t cap)
{
    const double pair = (double)s->esz + sizeof(uint64_t);
    double need = (double)LIST_COPIES * (double)s->k_list * pair;
    if (cap == 0) need += (double)slice_len * s->esz;
    else need += 2.0 * (double)cap * s->esz + (double)(s->k_local + cap) * pair + 2.0 * (double)s->k_local * pair;
    return need;
}

/* In core or out of core, the sub-vector length, the plan for the longest
 * top-k call, and why (s->why): out of core when the slice is longer than
 * --device-cap, or (CUDA) when it and its workspace do not fit this rank's
 * share of the GPU's free memory; then in the paper's 2^30 sub-vectors, or
 * shorter ones that fit. */
static int choose_placement(const mpi_cfg *c, drtopk_problem *lp, rank_state *s, drtopk_plan *plan)
{
    uint64_t free_b = 0, total_b = 0;
    size_t ws = 0;
    drtopk_status st;
    int rc;
    lp->n = s->count;
    if ((rc = build_plan(&c->run, lp, &s->dev, &s->tuning_db, plan)) != 0) return rc;
    if (s->ordered) plan->flags |= DRTOPK_SORTED;   /* in core the selection orders the list */
    /* deterministic: with an exchange each list best first, equal keys by
     * position, so a rank's ties follow its keys above them in position order */
    if (c->run.deterministic) plan->flags |= DRTOPK_DETERMINISTIC | (s->exchanges ? DRTOPK_SORTED : 0u);
    s->ooc = 0;
    s->cap = 0;
    if (c->device_cap != NO_DEVICE_CAP && s->count > c->device_cap) {
        s->ooc = 1;
        s->cap = c->device_cap;
        snprintf(s->why, sizeof s->why, "out of core: the slice (%" PRIu64 " elements) is longer than --device-cap "
                 "%" PRIu64 ", so it streams in sub-vectors of that length", s->count, c->device_cap);
    } else if (!is_cuda(c)) {
        snprintf(s->why, sizeof s->why, "in core: the CPU backend selects the slice in host memory");
    } else {
        if ((st = dh_dev_mem_info(&free_b, &total_b)) != DRTOPK_OK)
            return runtime_error("cannot read GPU %d's free memory: %s", s->gpu, drtopk_status_string(st));
        if ((st = drtopk_select_workspace(lp, plan, &ws)) != DRTOPK_OK) return api_error("workspace query failed", st);
        const double usable = GPU_FREE_USABLE * (double)free_b / s->sharing;
        const double need = device_need(s, s->count, 0) + (double)ws;
        if (need <= usable) {
            snprintf(s->why, sizeof s->why, "in core: the slice, its workspace and the lists (%.2f GiB) fit %.2f GiB "
                     "of GPU %d's free memory%s", need / GIB, usable / GIB, s->gpu,
                     s->sharing > 1 ? " (this rank's share)" : "");
        } else {
            s->ooc = 1;
            s->cap = PAPER_SUB_VECTOR < s->count ? PAPER_SUB_VECTOR : s->count;
            while (s->cap > 1 && device_need(s, s->count, s->cap) + (double)ws > usable) s->cap /= 2;
            snprintf(s->why, sizeof s->why, "out of core: the slice, its workspace and the lists (%.2f GiB) exceed "
                     "%.2f GiB of GPU %d's free memory%s, so it streams in sub-vectors of %" PRIu64 " elements",
                     need / GIB, usable / GIB, s->gpu, s->sharing > 1 ? " (this rank's share)" : "", s->cap);
        }
    }
    if (s->ooc && c->run.deterministic)
        return usage_error("--deterministic is not implemented out of core (%s): run the slices in core (more "
                           "ranks or GPUs, or no --device-cap) or leave out --deterministic", s->why);
    if (s->ooc) {   /* plan for the longest top-k call: a sub-vector beside the running top k */
        const uint64_t sub = s->cap < s->count ? s->cap : s->count;
        lp->n = sub + s->k_local < s->count ? sub + s->k_local : s->count;
        rc = build_plan(&c->run, lp, &s->dev, &s->tuning_db, plan);
        plan->flags &= ~(unsigned)DRTOPK_SORTED;    /* the stream's output is ordered after it, if at all */
    }
    return rc;
}

/* Rank 0's result, copied to host memory (k elements), for the check and
 * --output; the other ranks get k-long buffers that verify() fills. */
static int result_to_host(const world *w, const mpi_cfg *c, const rank_state *s, void **vals, uint64_t **pos)
{
    const uint64_t k = c->run.k;
    drtopk_status st = DRTOPK_OK;
    *vals = malloc((size_t)k * s->esz);
    *pos = (uint64_t *)malloc((size_t)k * sizeof(uint64_t));
    if (!*vals || !*pos) return runtime_error("out of host memory for the result (%" PRIu64 " elements)", k);
    if (w->rank != 0) return 0;
    if (is_cuda(c)) {
        st = dh_dev_copy(*vals, s->res_v, (size_t)k * s->esz, DRTOPK_COPY_D2H);
        if (st == DRTOPK_OK) st = dh_dev_copy(*pos, s->res_p, (size_t)k * sizeof(uint64_t), DRTOPK_COPY_D2H);
    } else {
        memcpy(*vals, s->res_v, (size_t)k * s->esz);
        memcpy(*pos, s->res_p, (size_t)k * sizeof(uint64_t));
    }
    return st == DRTOPK_OK ? 0 : runtime_error("cannot read the result back from the GPU: %s", drtopk_status_string(st));
}

static int run(world *w, mpi_cfg *c, int argc, char **argv)
{
    rank_state s;
    report r;
    drtopk_problem lp;
    drtopk_plan plan;
    rep_times t;
    void *res_v = NULL;
    uint64_t *res_p = NULL;
    double *compute = NULL, *reload = NULL, *comm = NULL, *thr = NULL;
    int rc, ooc;

    memset(&s, 0, sizeof s);
    memset(&r, 0, sizeof r);
    s.gpu = -1;
    r.verified = -1;
    drtopk_slice(c->run.n, (uint64_t)w->ranks, (uint64_t)w->rank, &s.first, &s.count);
    s.k_local = c->run.k < s.count ? c->run.k : s.count;
    s.k_list = c->run.k;                /* k <= n: resolve_inputs checked it */
    s.esz = drtopk_dtype_size(c->run.dtype);
    lp = (drtopk_problem){ c->run.backend, c->run.dtype, c->run.order, s.count, s.k_local, NULL };

    s.root = w->rank == 0;
    s.exchanges = w->ranks > 1;
    s.ordered = !s.exchanges && c->run.sorted;
    rc = bind_gpu(w, c, &s);
    if ((rc = agree(w, rc)) != 0) goto done;
    s.sharing = ranks_sharing_gpu(w, &s);
    s.cuda_aware = is_cuda(c) && cuda_aware_mpi();
    rc = choose_placement(c, &lp, &s, &plan);
    if ((rc = agree(w, rc)) != 0) goto done;
    lp.n = s.count;
    if (w->rank == 0 && c->run.n >= (1ull << 26) && !c->run.json)
        progress(0, "placing %" PRIu64 " elements over %d ranks", c->run.n, w->ranks);
    rc = place(c, w->ranks, &lp, &plan, &s);
    if ((rc = agree(w, rc)) != 0) goto done;
    exchange_setup(w, c, &s);
    exchange_choose(w, c, &s);
    lp.values = s.gpu >= 0 ? s.dev_v : s.host_v;

    r.totals = (double *)calloc((size_t)c->run.reps, sizeof(double));
    compute = (double *)calloc((size_t)c->run.reps, sizeof(double));
    reload = (double *)calloc((size_t)c->run.reps, sizeof(double));
    comm = (double *)calloc((size_t)c->run.reps, sizeof(double));
    thr = (double *)calloc((size_t)c->run.reps, sizeof(double));
    rc = r.totals && compute && reload && comm && thr ? 0 : runtime_error("out of host memory for timings");
    if ((rc = agree(w, rc)) != 0) goto done;
    for (int i = 0; i < c->run.warmup + c->run.reps; ++i) {
        if ((rc = one_rep(w, c, &lp, &plan, &s, &t)) != 0) goto done;
        if (i < c->run.warmup) continue;
        r.totals[i - c->run.warmup] = t.total;
        compute[i - c->run.warmup] = t.compute;
        reload[i - c->run.warmup] = t.reload;
        comm[i - c->run.warmup] = t.comm;
        thr[i - c->run.warmup] = t.thr;
        r.chunks = t.chunks;
        r.filtered = t.filtered;
    }
    ooc = s.ooc;
    MPI_Reduce(&ooc, &r.ooc_ranks, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    {   /* the longest sub-vector of the ranks out of core (0: every rank in core) */
        const uint64_t mine = s.ooc ? s.cap : 0;
        MPI_Reduce(&mine, &r.device_cap, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
    }
    {   /* why: rank 0's placement, and the first other rank's that differs */
        MPI_Bcast(&ooc, 1, MPI_INT, 0, MPI_COMM_WORLD);
        snprintf(r.why, sizeof r.why, "%s", s.why);
        const int first = first_text(w, s.ooc != ooc, s.why, r.why_other, sizeof r.why_other);
        r.why_other_rank = first > 0 ? first : 0;
    }
    {   /* the parts by how they moved, and the first that is not CUDA IPC on rank 0's node, and why */
        for (int i = 1; s.root && s.exchanges && i < w->ranks; ++i) ++r.edges[s.recv_ex[i]];
        r.rounds = s.exchanges ? s.rounds : 0;
        r.ex_why_rank = first_text(w, s.ex_why[0] != '\0', s.ex_why, r.ex_why, sizeof r.ex_why);
    }
    {   /* the slowest link among the ranks that measured one */
        const double mine = s.link_gbps > 0 ? s.link_gbps : HUGE_VAL;
        MPI_Reduce(&mine, &r.link_gbps, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
        if (r.link_gbps == HUGE_VAL) r.link_gbps = 0;
    }
    r.gpus = count_gpus(w, &s);
    {
        double *tmp = (double *)malloc((size_t)c->run.reps * sizeof(double));
        if (tmp) {
            memcpy(tmp, r.totals, (size_t)c->run.reps * sizeof(double));
            r.total = dh_median(tmp, (size_t)c->run.reps);
            free(tmp);
        }
        r.compute = dh_median(compute, (size_t)c->run.reps);
        r.reload = dh_median(reload, (size_t)c->run.reps);
        r.comm = dh_median(comm, (size_t)c->run.reps);
        r.thr = dh_median(thr, (size_t)c->run.reps);
        /* rank 0 holds the longest slice */
        r.reload_gbps = r.reload > 0 ? (double)s.count * s.esz / (r.reload / MS_PER_S) / BYTES_PER_GB : 0;
    }
    rc = agree(w, result_to_host(w, c, &s, &res_v, &res_p));
    if (rc != 0) goto done;
    if (c->run.verify) {
        r.verified = verify(w, c, &s, res_v, res_p, r.why_verify, sizeof r.why_verify);
        if (w->rank == 0 && r.verified && c->run.sorted) {
            drtopk_problem gp = { c->run.backend, c->run.dtype, c->run.order, c->run.n, c->run.k, NULL };
            r.verified = check_sorted(&gp, res_v, r.why_verify, sizeof r.why_verify);
        }
    }
    if (w->rank == 0) {
        drtopk_problem gp = { c->run.backend, c->run.dtype, c->run.order, c->run.n, c->run.k, NULL };
        if (c->run.output) rc = write_outputs(c->run.output, &gp, res_v, res_p);
        if (rc == 0 && c->db) rc = store_row(c, &plan, &s, &r, w->ranks, argc, argv);
        if (rc == 0) {
            if (c->run.json) print_json(w, c, &plan, &s, &r);
            else print_text(w, c, &plan, &s, &r);
            fflush(stdout);
        }
        if (rc == 0 && r.verified == 0) {
            fprintf(w->msg_stream, "drtopk-mpi: verification FAILED: %s\n", r.why_verify);
            rc = EXIT_VERIFY;
        }
    }
    rc = agree(w, rc);
done:
    exchange_close(w, &s);
    free(res_v);
    free(res_p);
    free(r.totals);
    free(compute);
    free(reload);
    free(comm);
    free(thr);
    state_free(c, &s);
    return rc;
}

int main(int argc, char **argv)
{
    world w;
    mpi_cfg c;
    int rc;
    MPI_Init(&argc, &argv);
    memset(&w, 0, sizeof w);
    MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &w.ranks);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w.rank, MPI_INFO_NULL, &w.node);
    MPI_Comm_rank(w.node, &w.local_rank);
    run_prog = "drtopk-mpi";
    /* every message goes to this rank's buffer; agree() prints one */
    if ((w.msg_stream = open_memstream(&w.msg, &w.msg_len)) == NULL) {
        fprintf(stderr, "drtopk-mpi: rank %d: out of host memory\n", w.rank);
        MPI_Abort(MPI_COMM_WORLD, EXIT_RUNTIME);
    }
    run_errout = w.msg_stream;

    memset(&c, 0, sizeof c);
    c.run.seed = DEFAULT_SEED;
    c.run.dist = DRTOPK_DIST_UD;
    c.run.dtype = DRTOPK_U32;
    c.run.order = DRTOPK_LARGEST;
    c.run.algo = DRTOPK_ALGO_RADIX;
    c.run.delegate = 1;
    c.device_cap = NO_DEVICE_CAP;
    rc = agree(&w, setup(&w, &c, argc, argv));
    if (rc == 0) rc = agree_config(&w, &c);
    if (rc == 0 && c.run.help) {
        if (w.rank == 0) printf("%s%s", help_mpi, run_help_options);
    } else if (rc == 0) {
        rc = run(&w, &c, argc, argv);
    }
    run_errout = NULL;
    fclose(w.msg_stream);
    free(w.msg);
    MPI_Comm_free(&w.node);
    MPI_Finalize();
    return rc;
}
