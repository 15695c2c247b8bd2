/*
 * sort_choose.cu -- sort-and-choose top-k, the baseline of paper section 2.2
 * ("sort the input vector ... like in THRUST [6] and choose the top-k"): sort
 * the (ordered key, position) pairs in descending key order and take the
 * first k.  Two sorters: CUB DeviceRadixSort::SortPairsDescending
 * (DRTOPK_ALGO_SORT_CUB) and thrust::stable_sort_by_key with
 * thrust::greater (DRTOPK_ALGO_SORT_THRUST, the paper's [6]; Thrust sends it
 * to its own radix sort).
 *
 * Both first materialise the pairs into the workspace (RAW input needs the key
 * transform and the positions anyway).  The length may live on the device
 * (*d_n) while a sort takes a host count, so n_max pairs are sorted and the
 * slots past *d_n get key 0: both sorts are stable, so such padding sorts
 * after every real key 0 and never reaches the first k <= *d_n.  Thrust
 * allocates its temporaries through an allocator that carves them out of the
 * caller's workspace (no cudaMalloc inside a call) and runs with par_nosync
 * (no host synchronisation).  skip_last_digit is ignored (exact k and T).
 */
#include <new>
#include <cub/device/device_radix_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include "keyorder.h"
#include "baselines.h"

#define SC_BLOCK 256
#define SC_MAX_BLOCKS 65535u        /* grid-stride beyond this many blocks     */
#define SC_THRUST_SLACK (64u << 10) /* Thrust aligns each of its temporaries  */
#define SC_INT_NUM_ITEMS_MAX 0x7FFFFFFFull /* int item counts (32-bit offsets) */

/* Pairs of the input into keys[] / pos[], n_max of them, padding with key 0. */
template <int SRC, int DT, class P>
__global__ void sc_materialise_kernel(topk_input in, uint32_t *keys, P *pos)
{
    const uint64_t n = in.d_n ? *in.d_n : in.n_max;
    for (uint64_t i = blockIdx.x * (uint64_t)SC_BLOCK + threadIdx.x; i < in.n_max;
         i += (uint64_t)gridDim.x * SC_BLOCK) {
        uint32_t key = 0;
        P p = 0;
        if (i < n) {
            if (SRC == TOPK_SRC_RAW) {
                key = drtopk_key_from_bits(((const uint32_t *)in.raw)[i], (drtopk_dtype)DT, in.order);
                p = (P)i;
            } else {
                key = in.keys[i];
                p = ((const P *)in.pos)[i];
            }
        }
        keys[i] = key;
        pos[i] = p;
    }
}

/* The first k sorted pairs are the answer; the k-th key is the threshold. */
template <class P>
__global__ void sc_take(const uint32_t *keys, const P *pos, uint64_t k, topk_output out)
{
    P *opos = (P *)out.pos;
    for (uint64_t i = blockIdx.x * (uint64_t)SC_BLOCK + threadIdx.x; i < k; i += (uint64_t)gridDim.x * SC_BLOCK) {
        out.keys[i] = keys[i];
        opos[i] = pos[i];
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *out.d_count = k;
        *out.d_threshold = keys[k - 1];
    }
}

static unsigned sc_blocks(uint64_t n)
{
    uint64_t b = (n + SC_BLOCK - 1) / SC_BLOCK;
    return (unsigned)(b == 0 ? 1 : (b < SC_MAX_BLOCKS ? b : SC_MAX_BLOCKS));
}

/* CUB's temporary bytes for n pairs with P positions (host-side query). */
template <class P>
static drtopk_status sc_cub_temp(uint64_t n, int wide, size_t *bytes)
{
    cub::DoubleBuffer<uint32_t> k(NULL, NULL);
    cub::DoubleBuffer<P> v(NULL, NULL);
    *bytes = 0;
    if (n <= SC_INT_NUM_ITEMS_MAX && !wide)
        DRTOPK_CUDA_TRY(cub::DeviceRadixSort::SortPairsDescending(NULL, *bytes, k, v, (int)n));
    else
        DRTOPK_CUDA_TRY(cub::DeviceRadixSort::SortPairsDescending(NULL, *bytes, k, v, (long long)n));
    return DRTOPK_OK;
}

/* Workspace: keys[0], pos[0], keys[1], pos[1] (n_max each), then the sorter's
 * temporaries; Thrust gets everything after pos[0] as one arena. */
struct sc_layout {
    uint32_t *keys[2];
    void *pos[2];
    void *temp;
    size_t temp_bytes;
    size_t total;
};

static drtopk_status sc_plan(const topk_input *in, int thrust_sort, void *ws, sc_layout *l)
{
    const size_t ps = in->pos64 ? sizeof(uint64_t) : sizeof(uint32_t);
    size_t cub_bytes, off = 0;
    /* Thrust counts items in 64 bits: its CUB temporaries follow that */
    drtopk_status rc = in->pos64 ? sc_cub_temp<uint64_t>(in->n_max, thrust_sort, &cub_bytes)
                                 : sc_cub_temp<uint32_t>(in->n_max, thrust_sort, &cub_bytes);
    if (rc != DRTOPK_OK) return rc;
    l->temp_bytes = drtopk_align_up(cub_bytes, DRTOPK_WS_ALIGN) + (thrust_sort ? SC_THRUST_SLACK : 0);
    for (int b = 0; b < 2; ++b) {
        l->keys[b] = (uint32_t *)drtopk_carve((char *)ws, &off, in->n_max * sizeof(uint32_t));
        l->pos[b] = drtopk_carve((char *)ws, &off, in->n_max * ps);
    }
    l->temp = drtopk_carve((char *)ws, &off, l->temp_bytes);
    l->total = off;
    return DRTOPK_OK;
}

/* The pairs of the input, for its source kind, dtype and position width
 * (drtopk_dispatch_source). */
template <int SRC, int DT, class P>
struct sc_materialise {
    static drtopk_status run(const topk_input *in, uint32_t *keys, void *pos, cudaStream_t s)
    {
        sc_materialise_kernel<SRC, DT, P><<<sc_blocks(in->n_max), SC_BLOCK, 0, s>>>(*in, keys, (P *)pos);
        DRTOPK_LAUNCH_CHECK();
        return DRTOPK_OK;
    }
};

template <class P>
static drtopk_status sc_cub_run(const topk_input *in, const topk_output *out, const sc_layout *l, cudaStream_t s)
{
    cub::DoubleBuffer<uint32_t> k(l->keys[0], l->keys[1]);
    cub::DoubleBuffer<P> v((P *)l->pos[0], (P *)l->pos[1]);
    size_t tb = l->temp_bytes;
    if (in->n_max <= SC_INT_NUM_ITEMS_MAX)
        DRTOPK_CUDA_TRY(cub::DeviceRadixSort::SortPairsDescending(l->temp, tb, k, v, (int)in->n_max, 0,
                                                                  DRTOPK_KEY_BITS, s));
    else
        DRTOPK_CUDA_TRY(cub::DeviceRadixSort::SortPairsDescending(l->temp, tb, k, v, (long long)in->n_max, 0,
                                                                  DRTOPK_KEY_BITS, s));
    sc_take<P><<<sc_blocks(in->k), SC_BLOCK, 0, s>>>(k.Current(), v.Current(), in->k, *out);
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

/* Thrust temporaries come from this bump allocator over the workspace; a
 * request past its end throws, which the launcher reports as too small. */
struct sc_arena {
    typedef char value_type;
    char *base;
    size_t size, used;
    char *allocate(std::ptrdiff_t n)
    {
        size_t off = drtopk_align_up(used, DRTOPK_WS_ALIGN);
        if (n < 0 || off + (size_t)n > size) throw std::bad_alloc();
        used = off + (size_t)n;
        return base + off;
    }
    void deallocate(char *, size_t) {}
};

template <class P>
static drtopk_status sc_thrust_run(const topk_input *in, const topk_output *out, const sc_layout *l,
                                   cudaStream_t s)
{
    /* Thrust's alternate key/value buffers and CUB temporaries: everything
     * after pos[0], i.e. keys[1], pos[1] and temp (contiguous) */
    sc_arena ar = { (char *)l->keys[1], l->total - (size_t)((char *)l->keys[1] - (char *)l->keys[0]), 0 };
    try {
        thrust::stable_sort_by_key(thrust::cuda::par_nosync(ar).on(s), l->keys[0], l->keys[0] + in->n_max,
                                   (P *)l->pos[0], thrust::greater<uint32_t>());
    } catch (const std::bad_alloc &) {
        drtopk_error_set("thrust::stable_sort_by_key: its temporaries exceed the workspace");
        return DRTOPK_ERR_WORKSPACE_TOO_SMALL;
    } catch (const std::exception &e) {
        drtopk_error_set("thrust::stable_sort_by_key: %s", e.what());
        return DRTOPK_ERR_CUDA;
    } catch (...) {
        drtopk_error_set("thrust::stable_sort_by_key failed");
        return DRTOPK_ERR_CUDA;
    }
    DRTOPK_LAUNCH_CHECK();
    sc_take<P><<<sc_blocks(in->k), SC_BLOCK, 0, s>>>(l->keys[0], (const P *)l->pos[0], in->k, *out);
    DRTOPK_LAUNCH_CHECK();
    return DRTOPK_OK;
}

static drtopk_status sc_workspace(const topk_input *in, int thrust_sort, size_t *bytes)
{
    if (!in || !bytes) return DRTOPK_ERR_INVALID_ARGUMENT;
    sc_layout l;
    drtopk_status rc = sc_plan(in, thrust_sort, NULL, &l);
    if (rc == DRTOPK_OK) *bytes = l.total;
    return rc;
}

static drtopk_status sc_run(const topk_input *in, const topk_output *out, void *ws, size_t ws_bytes,
                            cudaStream_t s, int thrust_sort)
{
    size_t need;
    drtopk_status rc = topk_check_input(in);
    if (rc == DRTOPK_OK) rc = sc_workspace(in, thrust_sort, &need);
    if (rc == DRTOPK_OK) rc = topk_check_run(in, out, ws, ws_bytes, need);
    if (rc != DRTOPK_OK) return rc;
    sc_layout l;
    rc = sc_plan(in, thrust_sort, ws, &l);
    if (rc == DRTOPK_OK)
        rc = drtopk_dispatch_source<sc_materialise>(in->src, in->dtype, in->pos64, in, l.keys[0], l.pos[0], s);
    if (rc != DRTOPK_OK) return rc;
    if (thrust_sort) return in->pos64 ? sc_thrust_run<uint64_t>(in, out, &l, s) : sc_thrust_run<uint32_t>(in, out, &l, s);
    return in->pos64 ? sc_cub_run<uint64_t>(in, out, &l, s) : sc_cub_run<uint32_t>(in, out, &l, s);
}

extern "C" drtopk_status sort_cub_topk_workspace(const topk_input *in, size_t *bytes)
{
    return sc_workspace(in, 0, bytes);
}

extern "C" drtopk_status sort_cub_topk(const topk_input *in, const topk_output *out, void *ws, size_t ws_bytes,
                                       cudaStream_t s)
{
    return sc_run(in, out, ws, ws_bytes, s, 0);
}

extern "C" drtopk_status sort_thrust_topk_workspace(const topk_input *in, size_t *bytes)
{
    return sc_workspace(in, 1, bytes);
}

extern "C" drtopk_status sort_thrust_topk(const topk_input *in, const topk_output *out, void *ws,
                                          size_t ws_bytes, cudaStream_t s)
{
    return sc_run(in, out, ws, ws_bytes, s, 1);
}
