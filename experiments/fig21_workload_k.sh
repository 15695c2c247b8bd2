#!/bin/bash
# fig21_workload_k.sh -- Figure 21 (paper 6.2): workload of the first top-k
# (|D|), the second (|C|) and their sum as % of |V| vs k at |V| = 2^30,
# Dr.-radix, UD, beta 2.  Verdict: the sum's share rises from the smallest to
# the largest k.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/workload.sh"
exp_begin fig21_workload_k "Figure 21: Dr.-radix workload vs k (UD, beta 2)"
N30=$(exp_n 30)
ks=$(exp_pow2_list 0 24 1)
exp_measure --n "$N30" --k "$ks" --dist UD --algo dr-radix --alpha-span 0 --beta 2
workload_run k "$N30"
exp_end
