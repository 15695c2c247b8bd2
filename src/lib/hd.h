/*
 * hd.h -- one macro that lets the small inline cores (key order, seeded
 * generator) compile unchanged as C11 host code and as CUDA device code, so
 * the CPU reference and the kernels share one definition, bit for bit.
 */
#ifndef DRTOPK_HD_H
#define DRTOPK_HD_H
#ifdef __CUDACC__
#define DRTOPK_HD static inline __host__ __device__
#else
#define DRTOPK_HD static inline
#endif
/* DRTOPK_HD for a one-expression function that CUDA templates also take as a
 * compile-time constant (a template argument). */
#ifdef __CUDACC__
#define DRTOPK_HD_CONST static constexpr __host__ __device__
#else
#define DRTOPK_HD_CONST static inline
#endif
#endif
