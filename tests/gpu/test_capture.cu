/*
 * test_capture.cu -- one drtopk_select call enqueues only
 * stream work (no host synchronisation, allocation or host read), so it can
 * be captured into a CUDA graph.  Captures the whole Dr. Top-k pipeline (and
 * standalone plans, the one-read top-k and the fused small-input top-k --
 * a cooperative kernel node -- among them) once per plan, then replays the
 * graph on freshly generated data of the same size and checks every replay's
 * result against V as the device holds it (copied back: no host regeneration
 * of 2^26 keys per replay) with the exact O(n) counting check (oracle.h).  A
 * case over a second prints its time.  A call that synchronised would fail
 * the capture (cudaErrorStreamCaptureUnsupported and friends).  Plans come
 * from drtopk_plan_rule4 with the paper's const (hermetic).  Also: an error the caller's earlier work left pending is taken by
 * drtopk_select at its start and reported as pending before the call
 * (drtopk.h), so that its launch checks see their own launches' errors.
 * DRTOPK_DETERMINISTIC plans (onepass's own tie step, a cooperative node;
 * the fix-up after any plan) are captured too, each replay's result then
 * the CPU backend's (k best (key, position) pairs).
 * Output:
 * gpu_test.h's "ok N ..." lines, last "N passed, N failed".
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "drtopk.h"
#include "det_pairs.h"
#include "gen.h"
#include "gpu_test.h"
#include "keyorder.h"
#include "oracle.h"
#include "util.h"

#define REPLAYS 3             /* each replay on new data: the graph is reusable */
#define POISON_BYTE 0xFF

typedef struct {
    uint64_t n, k;
    drtopk_dtype dtype;
    dh_dist dist;
    int delegate;       /* Dr. Top-k pipeline, else standalone algo */
    int alpha;          /* 0: Rule 4 */
    drtopk_algo algo;   /* both steps of the pipeline, or the standalone one */
    unsigned flags;     /* added to the plan's: DRTOPK_DETERMINISTIC, DRTOPK_SORTED */
} capture_case;

/* DRTOPK_DETERMINISTIC: the result is the CPU backend's on the same V (hp on
 * the host), slot for slot when sorted, as a set of (position, value bits)
 * pairs otherwise (both ordered by position here); "" when it is, else why
 * not. */
static void same_as_cpu(const drtopk_problem *hp, unsigned flags, const void *vals, const uint64_t *idx, char *why,
                        size_t len)
{
    const size_t k = (size_t)hp->k;
    drtopk_plan plan;
    size_t bytes = 0;
    void *ws = NULL, *cv = malloc(k * drtopk_dtype_size(hp->dtype));
    uint64_t *ci = (uint64_t *)malloc(k * sizeof(uint64_t));
    det_pair *g = (det_pair *)malloc(k * sizeof(det_pair)), *c = (det_pair *)malloc(k * sizeof(det_pair));
    why[0] = 0;
    drtopk_status st = cv && ci && g && c ? drtopk_plan_auto(&plan, hp, NULL) : DRTOPK_ERR_OUT_OF_MEMORY;
    plan.flags |= flags;
    if (st == DRTOPK_OK) st = drtopk_select_workspace(hp, &plan, &bytes);
    if (st == DRTOPK_OK && !(ws = malloc(bytes + 1))) st = DRTOPK_ERR_OUT_OF_MEMORY;
    if (st == DRTOPK_OK) st = drtopk_select(hp, &plan, ws, bytes, cv, ci, NULL, NULL);
    if (st != DRTOPK_OK) {
        snprintf(why, len, "the CPU backend: %s", drtopk_status_string(st));
    } else {
        det_pairs_of(vals, idx, k, hp->dtype, (flags & DRTOPK_SORTED) != 0, k, g);
        det_pairs_of(cv, ci, k, hp->dtype, (flags & DRTOPK_SORTED) != 0, k, c);
        for (size_t i = 0; i < k && !why[0]; ++i)
            if (g[i].pos != c[i].pos || g[i].bits != c[i].bits)
                snprintf(why, len, "%s %zu: GPU position %llu, the CPU backend's %llu",
                         flags & DRTOPK_SORTED ? "slot" : "by position, pair", i, (unsigned long long)g[i].pos,
                         (unsigned long long)c[i].pos);
    }
    free(ws);
    free(cv);
    free(ci);
    free(g);
    free(c);
}

/* Capture one select, then replay it on REPLAYS seeds; 0 when the capture
 * itself failed. */
static int run_case(const capture_case *c)
{
    const double t0 = dh_now_ms();
    const size_t esz = drtopk_dtype_size(c->dtype);
    char what[256];
    void *d_v = NULL, *d_vals = NULL, *ws = NULL, *h_v = NULL, *h_vals = NULL;
    uint64_t *d_idx = NULL, *h_idx = NULL;
    cudaStream_t s = NULL;
    cudaGraph_t g = NULL;
    cudaGraphExec_t ge = NULL;
    size_t bytes = 0;
    int ok = 1;
    drtopk_status st = DRTOPK_OK;
    cudaError_t ce = cudaSuccess;
    drtopk_problem p = { DRTOPK_BACKEND_CUDA, c->dtype, DRTOPK_LARGEST, c->n, c->k, NULL };
    drtopk_plan plan;
    const double paper_const = DRTOPK_RULE4_CONST_DEFAULT;

    snprintf(what, sizeof what, "n=%llu k=%llu %s %s %s%s%s%s", (unsigned long long)c->n,
             (unsigned long long)c->k, drtopk_dtype_name(c->dtype), dh_dist_name(c->dist),
             c->delegate ? "dr-" : "", drtopk_algo_name(c->algo),
             c->flags & DRTOPK_DETERMINISTIC ? " deterministic" : "", c->flags & DRTOPK_SORTED ? " sorted" : "");
    ok = cudaMalloc(&d_v, c->n * esz) == cudaSuccess && cudaMalloc(&d_vals, c->k * esz) == cudaSuccess &&
         cudaMalloc((void **)&d_idx, c->k * sizeof(uint64_t)) == cudaSuccess &&
         cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess;
    h_v = malloc(c->n * esz);
    h_vals = malloc(c->k * esz);
    h_idx = (uint64_t *)malloc(c->k * sizeof(uint64_t));
    ok = ok && h_v && h_vals && h_idx;
    p.values = d_v;
    ok = ok && drtopk_plan_rule4(&plan, &p, paper_const) == DRTOPK_OK;
    if (ok && !c->delegate) plan.flags &= ~(unsigned)DRTOPK_DELEGATE;
    if (ok && c->alpha) plan.alpha = c->alpha;
    if (ok) plan.first_algo = plan.second_algo = c->algo;
    if (ok) plan.flags |= c->flags;
    ok = ok && drtopk_select_workspace(&p, &plan, &bytes) == DRTOPK_OK &&
         (bytes == 0 || cudaMalloc(&ws, bytes) == cudaSuccess);
    if (!ok) {
        gt_checkf(0, "allocation, plan or workspace query failed", "capture %s: setup", what);
        goto done;
    }
    /* capture: the call must enqueue work only */
    ok = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess;
    st = drtopk_select(&p, &plan, ws, bytes, d_vals, d_idx, s, NULL);
    ce = cudaStreamEndCapture(s, &g);
    ok = ok && st == DRTOPK_OK && ce == cudaSuccess &&
         cudaGraphInstantiate(&ge, g, 0) == cudaSuccess;
    {
        char why[256];
        snprintf(why, sizeof why, "%s, %s", drtopk_status_string(st), cudaGetErrorString(ce));
        gt_checkf(ok, why, "capture %s", what);
    }
    if (!ok) {
        cudaGetLastError();
        goto done;
    }
    for (int r = 0; r < REPLAYS; ++r) {
        const uint64_t seed = 1000 + (uint64_t)r;
        int rok = dh_dev_generate(d_v, c->n, c->dist, c->dtype, seed, s) == DRTOPK_OK &&
                  cudaMemsetAsync(d_vals, POISON_BYTE, c->k * esz, s) == cudaSuccess &&
                  cudaMemsetAsync(d_idx, POISON_BYTE, c->k * sizeof(uint64_t), s) == cudaSuccess &&
                  cudaGraphLaunch(ge, s) == cudaSuccess && cudaStreamSynchronize(s) == cudaSuccess &&
                  cudaMemcpy(h_v, d_v, c->n * esz, cudaMemcpyDeviceToHost) == cudaSuccess &&
                  cudaMemcpy(h_vals, d_vals, c->k * esz, cudaMemcpyDeviceToHost) == cudaSuccess &&
                  cudaMemcpy(h_idx, d_idx, c->k * sizeof(uint64_t), cudaMemcpyDeviceToHost) == cudaSuccess;
        drtopk_problem hp = p;
        dh_check_result cr = { 0, "" };
        hp.backend = DRTOPK_BACKEND_CPU;
        hp.values = h_v;
        if (rok) cr = dh_check(&hp, h_vals, h_idx, NULL);
        if (rok && cr.ok && (c->flags & DRTOPK_DETERMINISTIC)) {
            same_as_cpu(&hp, c->flags, h_vals, h_idx, cr.why, sizeof cr.why);
            cr.ok = cr.why[0] == 0;
        }
        gt_checkf(rok && cr.ok, rok ? cr.why : "launch failed", "capture %s replay %d", what, r);
    }
done:
    if (ge) cudaGraphExecDestroy(ge);
    if (g) cudaGraphDestroy(g);
    if (s) cudaStreamDestroy(s);
    cudaFree(ws);
    cudaFree(d_idx);
    cudaFree(d_vals);
    cudaFree(d_v);
    free(h_v);
    free(h_vals);
    free(h_idx);
    gt_slow(what, dh_now_ms() - t0);
    return ok;
}

__global__ void no_op_kernel() {}

/* One input for the pending-error checks. */
typedef struct {
    uint64_t n, k, seed;
    void *d_v, *d_vals, *ws;
    uint64_t *d_idx;
    size_t ws_bytes;
    uint32_t *h_v;
    drtopk_problem p;
} pending_fixture;

#define PENDING_K 100

static int pending_setup(pending_fixture *f, uint64_t n)
{
    memset(f, 0, sizeof *f);
    f->n = n;
    f->k = PENDING_K;
    f->seed = 7;
    f->h_v = (uint32_t *)malloc(n * sizeof(uint32_t));
    f->p = drtopk_problem{ DRTOPK_BACKEND_CUDA, DRTOPK_U32, DRTOPK_LARGEST, n, f->k, NULL };
    int ok = f->h_v && cudaMalloc(&f->d_v, n * sizeof(uint32_t)) == cudaSuccess &&
             cudaMalloc(&f->d_vals, f->k * sizeof(uint32_t)) == cudaSuccess &&
             cudaMalloc((void **)&f->d_idx, f->k * sizeof(uint64_t)) == cudaSuccess;
    f->p.values = f->d_v;
    ok = ok && dh_dev_generate(f->d_v, n, DRTOPK_DIST_UD, DRTOPK_U32, f->seed, NULL) == DRTOPK_OK &&
         cudaDeviceSynchronize() == cudaSuccess;
    if (ok) dh_gen_host(f->h_v, n, DRTOPK_DIST_UD, DRTOPK_U32, f->seed);
    return ok;
}

static void pending_teardown(pending_fixture *f)
{
    cudaFree(f->ws);
    cudaFree(f->d_idx);
    cudaFree(f->d_vals);
    cudaFree(f->d_v);
    free(f->h_v);
}

/* Leave a launch error pending (a grid of zero blocks: the caller's mistake),
 * run the plan, and return the call's status and what is pending afterwards
 * (which is then cleared). */
static drtopk_status select_with_pending(pending_fixture *f, const drtopk_plan *plan, cudaError_t *pending,
                                         cudaError_t *after)
{
    no_op_kernel<<<0, 1>>>();
    *pending = cudaPeekAtLastError();
    const drtopk_status st = drtopk_select(&f->p, plan, f->ws, f->ws_bytes, f->d_vals, f->d_idx, NULL, NULL);
    *after = cudaGetLastError();
    return st;
}

static void check_exact(pending_fixture *f, const char *name)
{
    uint64_t h_idx[PENDING_K];
    uint32_t h_vals[PENDING_K];
    drtopk_problem hp = f->p;
    dh_check_result cr = { 0, "copy failed" };
    const int ok = cudaDeviceSynchronize() == cudaSuccess &&
                   cudaMemcpy(h_vals, f->d_vals, sizeof h_vals, cudaMemcpyDeviceToHost) == cudaSuccess &&
                   cudaMemcpy(h_idx, f->d_idx, sizeof h_idx, cudaMemcpyDeviceToHost) == cudaSuccess;
    hp.backend = DRTOPK_BACKEND_CPU;
    hp.values = f->h_v;
    if (ok) cr = dh_check(&hp, h_vals, h_idx, NULL);
    gt_checkf(ok && cr.ok, cr.why, "pending caller error: %s: the answer is exact", name);
}

/* An error the caller left pending makes drtopk_select refuse before it
 * enqueues anything, naming the error as pending before the call, and clear
 * it; the next call runs and is exact.  For a plan of the library's own
 * kernels and one that sorts with CUB, first call and warm. */
static void caller_pending_error(uint64_t n)
{
    pending_fixture f;
    drtopk_plan plans[2];
    cudaError_t pending, after;
    char name[64];
    size_t own_bytes = 0;
    int ok = pending_setup(&f, n) && drtopk_plan_rule4(&plans[0], &f.p, DRTOPK_RULE4_CONST_DEFAULT) == DRTOPK_OK;
    plans[1] = plans[0];
    plans[1].flags |= DRTOPK_SORTED;
    plans[1].first_algo = plans[1].second_algo = DRTOPK_ALGO_SORT_CUB;
    /* one workspace for both plans */
    ok = ok && drtopk_select_workspace(&f.p, &plans[0], &own_bytes) == DRTOPK_OK &&
         drtopk_select_workspace(&f.p, &plans[1], &f.ws_bytes) == DRTOPK_OK;
    if (own_bytes > f.ws_bytes) f.ws_bytes = own_bytes;
    ok = ok && cudaMalloc(&f.ws, f.ws_bytes) == cudaSuccess;
    gt_check(ok, "pending caller error: setup", "allocation, generation or plan failed");
    if (!ok) {
        pending_teardown(&f);
        return;
    }
    for (int i = 0; i < 2; ++i)
        for (int warm = 0; warm <= 1; ++warm) {
            snprintf(name, sizeof name, "%s, %s", i ? "dr-sort-cub sorted" : "dr-radix",
                     warm ? "warm" : "first call");
            const drtopk_status st = select_with_pending(&f, &plans[i], &pending, &after);
            gt_checkf(pending != cudaSuccess, "nothing pending", "pending caller error: %s: provoked", name);
            gt_checkf(st == DRTOPK_ERR_CUDA && strstr(drtopk_last_error(), cudaGetErrorName(pending)) != NULL &&
                      strstr(drtopk_last_error(), "pending before the call") != NULL,
                      drtopk_last_error(), "pending caller error: %s: refused, naming the error", name);
            gt_checkf(after == cudaSuccess, cudaGetErrorName(after), "pending caller error: %s: cleared", name);
            const drtopk_status st2 = drtopk_select(&f.p, &plans[i], f.ws, f.ws_bytes, f.d_vals, f.d_idx, NULL,
                                                    NULL);
            gt_checkf(st2 == DRTOPK_OK, drtopk_last_error(), "pending caller error: %s: the next call runs", name);
            if (st2 == DRTOPK_OK) check_exact(&f, name);
        }
    pending_teardown(&f);
}

int main(int argc, char **argv)
{
    gt_begin();
    const int small = argc > 1 && strcmp(argv[1], "--small") == 0;
    const uint64_t big = small ? (1u << 16) + 3 : (1ull << 26) + 5;
    /* every algorithm, standalone and in both pipeline steps, on a smaller
     * input: bitonic and sort-and-choose are slow at the big size */
    const uint64_t per_algo_n = small ? (1u << 14) + 7 : (1u << 20) + 7;
    const capture_case cases[] = {
        { big, 1, DRTOPK_U32, DRTOPK_DIST_UD, 1, 0, DRTOPK_ALGO_RADIX },
        { big, 1024, DRTOPK_F32, DRTOPK_DIST_ND, 1, 0, DRTOPK_ALGO_RADIX },
        { big, big / 16, DRTOPK_U32, DRTOPK_DIST_CD, 1, 0, DRTOPK_ALGO_RADIX },
        /* shared-memory delegate build */
        { big, 4096, DRTOPK_I32, DRTOPK_DIST_FEW, 1, 4, DRTOPK_ALGO_RADIX },
        { big, 100, DRTOPK_U32, DRTOPK_DIST_UD, 0, 0, DRTOPK_ALGO_RADIX },
        { 1000, 1000, DRTOPK_U32, DRTOPK_DIST_EQ, 1, 0, DRTOPK_ALGO_RADIX }, /* k = n */
        /* 16-bit keys: widened, then the pipeline; 64-bit keys: radix select, sort-cub */
        { big, 1024, DRTOPK_F16, DRTOPK_DIST_ND, 1, 0, DRTOPK_ALGO_RADIX },
        { big, 4096, DRTOPK_BF16, DRTOPK_DIST_SPECIAL, 1, 4, DRTOPK_ALGO_RADIX },
        { big, 1000, DRTOPK_U64, DRTOPK_DIST_UD, 0, 0, DRTOPK_ALGO_RADIX },
        { big, big / 16, DRTOPK_I64, DRTOPK_DIST_FEW, 0, 0, DRTOPK_ALGO_RADIX },
        { per_algo_n, 100, DRTOPK_F64, DRTOPK_DIST_SPECIAL, 0, 0, DRTOPK_ALGO_SORT_CUB },
        /* the one-read top-k: its select, take and fallback steps are all
         * enqueued, gated on the device (UD at large k selects, EQ takes),
         * 16- and 64-bit keys read at their own width */
        { big, big / 64, DRTOPK_U32, DRTOPK_DIST_UD, 0, 0, DRTOPK_ALGO_ONEPASS },
        { big, 4096, DRTOPK_F16, DRTOPK_DIST_ND, 0, 0, DRTOPK_ALGO_ONEPASS },
        { big, 1000, DRTOPK_U32, DRTOPK_DIST_EQ, 0, 0, DRTOPK_ALGO_ONEPASS },
        { big, big / 64, DRTOPK_BF16, DRTOPK_DIST_UD, 0, 0, DRTOPK_ALGO_ONEPASS },
        { big, big / 64, DRTOPK_F64, DRTOPK_DIST_SPECIAL, 0, 0, DRTOPK_ALGO_ONEPASS },
        { big, 1000, DRTOPK_U64, DRTOPK_DIST_EQ, 0, 0, DRTOPK_ALGO_ONEPASS },
        /* the fused top-k at 16 and 64 bits: a cooperative kernel node (the
         * sampled pass at the big size), and on V in shared memory */
        { big, 1000, DRTOPK_U64, DRTOPK_DIST_ND, 0, 0, DRTOPK_ALGO_FUSED },
        { per_algo_n, per_algo_n / 3, DRTOPK_F64, DRTOPK_DIST_SPECIAL, 0, 0, DRTOPK_ALGO_FUSED },
        { big, 1000, DRTOPK_BF16, DRTOPK_DIST_ND, 0, 0, DRTOPK_ALGO_FUSED },
        { per_algo_n, 4096, DRTOPK_F16, DRTOPK_DIST_FEW, 0, 0, DRTOPK_ALGO_FUSED },
        /* deterministic: onepass settling its SELECT (few ties: u32; ties among
         * the candidates: f32 UD's equally spaced values; 64-bit), its TAKE
         * left to the fix-up (FEW), and the fix-up after the pipeline */
        { big, big / 64, DRTOPK_U32, DRTOPK_DIST_UD, 0, 0, DRTOPK_ALGO_ONEPASS, DRTOPK_DETERMINISTIC },
        { big, big / 64, DRTOPK_F32, DRTOPK_DIST_UD, 0, 0, DRTOPK_ALGO_ONEPASS, DRTOPK_DETERMINISTIC | DRTOPK_SORTED },
        { big, 1000, DRTOPK_U64, DRTOPK_DIST_ND, 0, 0, DRTOPK_ALGO_ONEPASS, DRTOPK_DETERMINISTIC },
        { big, 1000, DRTOPK_U32, DRTOPK_DIST_FEW, 0, 0, DRTOPK_ALGO_ONEPASS, DRTOPK_DETERMINISTIC },
        { big, 4096, DRTOPK_I32, DRTOPK_DIST_FEW, 1, 4, DRTOPK_ALGO_RADIX, DRTOPK_DETERMINISTIC | DRTOPK_SORTED },
    };
    if (!dh_cuda_available()) return gt_no_gpu("test_capture");
    /* not in the sanitizer-sized set: compute-sanitizer reports the
     * deliberate invalid launch (and every peek at it) as API errors */
    if (!small) caller_pending_error(per_algo_n);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        run_case(&cases[i]);
    for (int a = 0; a < DRTOPK_ALGO_COUNT; ++a)
        for (int delegate = 0; delegate <= (a != DRTOPK_ALGO_ONEPASS && a != DRTOPK_ALGO_FUSED); ++delegate) {
            /* onepass and fused: standalone only */
            const capture_case c = { per_algo_n, 1000, DRTOPK_F32, DRTOPK_DIST_UD, delegate, 0,
                                     (drtopk_algo)a };
            run_case(&c);
        }
    return gt_finish();
}
