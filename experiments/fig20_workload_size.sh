#!/bin/bash
# fig20_workload_size.sh -- Figure 20 (paper 6.2): workload of the first top-k
# (|D|), the second (|C|) and their sum as % of |V| vs |V| at k = 2^19 (or the
# nearest k measured at two or more sizes), Dr.-radix, UD, beta 2.  Verdict:
# the sum's share falls from the smallest to the largest |V|.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/workload.sh"
exp_begin fig20_workload_size "Figure 20: Dr.-radix workload vs |V| (UD, beta 2)"
K19=$((1 << 19))
sizes=$(exp_pow2_list 22 30 1)
[ "$EXP_BACKEND" = cpu ] && sizes="$(exp_n 26),$(exp_n 30)"
exp_measure --n "$sizes" --k $K19 --dist UD --algo dr-radix --alpha-span 0 --beta 2
workload_run n $K19
exp_end
