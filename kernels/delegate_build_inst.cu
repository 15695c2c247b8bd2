/*
 * delegate_build_inst.cu -- the delegate build's kernels (paper 4.1, 5.1,
 * 5.3; delegate_build.cuh) for one dtype and position width, DB_INST_DTYPE and
 * DB_INST_POS, which build.ninja sets: it compiles this file once per pair,
 * so that each unit's compile time stays short.
 */
#include "delegate_build.cuh"

template struct delegate_launch<DB_INST_DTYPE, DB_INST_POS>;
