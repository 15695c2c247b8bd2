#!/bin/bash
# tab2_multigpu.sh -- Table 2 (paper 6.3): scalability of Dr.-radix on 1, 2, 4,
# ... GPUs, |V| = 2^30 and up, k = 128.  The rows come from the multi-GPU issue
# (12, MPI); until they exist the table is the "not measured" panel.  Verdict:
# not measured (a verdict on scaling needs the rank count in the schema).
. "$(dirname "$0")/lib/common.sh"
exp_begin tab2_multigpu "Table 2: multi-GPU scalability of Dr.-radix, k = 128"
plot_one() {
    TABLE_ROWS=0
    exp_table tab2_multigpu.sql "no multi-GPU rows yet (issue 12: Dr. Top-k over MPI)"
    [ "$TABLE_ROWS" -gt 0 ] || return 0
    exp_record "$M_SLUG" "$M_NAME" "$TABLE_ROWS" ok "$TABLE_ROWS multi-GPU rows (see the table)" "not measured"
}
exp_for_machines plot_one
exp_end
