/*
 * key_of.cuh -- keyorder.h's ordered key for templates over the element's
 * unsigned type (uint16_t, uint32_t, uint64_t): one overload per width, so a
 * kernel written once serves every key type of the library (paper 5.1 selects
 * on ordered unsigned keys).  Device code of the library's out-of-core and
 * multi-GPU modules (ooc.cu, topk_list.cu).
 */
#ifndef DRTOPK_KEY_OF_CUH
#define DRTOPK_KEY_OF_CUH
#include <stdint.h>
#include "keyorder.h"

static __device__ __forceinline__ uint16_t key_of(uint16_t b, drtopk_dtype t, drtopk_order o)
{
    return drtopk_key16_from_bits(b, t, o);
}
static __device__ __forceinline__ uint32_t key_of(uint32_t b, drtopk_dtype t, drtopk_order o)
{
    return drtopk_key_from_bits(b, t, o);
}
static __device__ __forceinline__ uint64_t key_of(uint64_t b, drtopk_dtype t, drtopk_order o)
{
    return drtopk_key64_from_bits(b, t, o);
}

#endif
