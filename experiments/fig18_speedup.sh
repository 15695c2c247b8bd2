#!/bin/bash
# fig18_speedup.sh -- Figure 18 (paper 6.1): speedup of Dr.-assisted radix,
# bucket and bitonic top-k over the plain algorithm vs k on UD, ND and CD at
# |V| = 2^30.  Verdict: the speedup is >= 1 at every measured (dist, k).
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/algos_k.sh"
exp_begin fig18_speedup "Figure 18: speedup of Dr.-assisted over plain top-k vs k on UD, ND, CD (|V| = 2^30)"
algos_k_run radix,dr-radix,bucket,dr-bucket,bitonic,dr-bitonic fig18_speedup.gp speedup
exp_end
