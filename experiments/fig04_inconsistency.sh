#!/bin/bash
# fig04_inconsistency.sh -- Figure 4 (paper 3.1): time of radix, bucket,
# bitonic and sort-and-choose top-k across UD/ND/CD vs k at |V| = 2^30 -- the
# inconsistency Dr. Top-k removes -- with the Dr.-assisted version of each
# beside it.  Verdict: the largest spread of one algorithm's time across the
# distributions at one k is smaller Dr.-assisted than plain.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/algos_k.sh"
exp_begin fig04_inconsistency "Figure 4: top-k time vs k on UD, ND, CD, plain and Dr.-assisted (|V| = 2^30)"
algos_k_run radix,dr-radix,bucket,dr-bucket,bitonic,dr-bitonic,sort-cub fig04_inconsistency.gp time
exp_end
