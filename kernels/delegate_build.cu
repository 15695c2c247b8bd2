/*
 * delegate_build.cu -- step 1 of Dr. Top-k, the delegate vector (paper 4.1,
 * 4.3, 5.1, 5.3): the entry point, which checks its arguments and dispatches
 * on dtype and position width (i32 keys to the u32 kernels, which flip their
 * sign bit with the order mask).  The kernels and their launch shapes are in
 * delegate_build.cuh; each (dtype, position width) pair's instantiations are
 * compiled from delegate_build_inst.cu.
 */
#include "delegate_build.cuh"

template <int T>
static drtopk_status by_pos(const delegate_args *a, cudaStream_t st)
{
    return a->pos64 ? delegate_launch<T, uint64_t>::run(a, st) : delegate_launch<T, uint32_t>::run(a, st);
}

extern "C" drtopk_status delegate_build(const delegate_args *a, cudaStream_t st)
{
    if (a == NULL || a->v == NULL || a->n == 0 || a->alpha < DRTOPK_ALPHA_MIN ||
        a->alpha > DRTOPK_ALPHA_MAX || a->d_keys == NULL || a->d_pos == NULL)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    switch (a->dtype) {
    case DRTOPK_U32:
    case DRTOPK_I32: return by_pos<DRTOPK_U32>(a, st);
    case DRTOPK_F32: return by_pos<DRTOPK_F32>(a, st);
    default: return DRTOPK_ERR_INVALID_ARGUMENT;
    }
}
