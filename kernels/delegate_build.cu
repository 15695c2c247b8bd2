/*
 * delegate_build.cu -- step 1 of Dr. Top-k, the delegate vector (paper 4.1,
 * 4.3, 5.1, 5.3): the entry point, which checks its arguments and dispatches
 * on dtype and position width.  The kernels and their launch shapes are in
 * delegate_build.cuh; each (dtype, position width) pair's instantiations are
 * compiled from delegate_build_inst.cu.
 */
#include "delegate_build.cuh"

extern "C" drtopk_status delegate_build(const delegate_args *a, cudaStream_t st)
{
    if (a == NULL || a->v == NULL || a->n == 0 || a->alpha < DRTOPK_ALPHA_MIN ||
        a->alpha > DRTOPK_ALPHA_MAX || a->d_keys == NULL || a->d_pos == NULL)
        return DRTOPK_ERR_INVALID_ARGUMENT;
    return drtopk_dispatch<delegate_launch>(a->dtype, a->pos64, a, st);
}
