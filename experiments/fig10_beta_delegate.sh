#!/bin/bash
# fig10_beta_delegate.sh -- Figure 10 (paper 4.3): as Figure 7 with beta = 2 delegates (Rule 3) and the first top-k's early stop.
# Measured through bin/tuner (dr-radix, Rule 4 alpha, beta 2, --no-shared-delegate), plotted by
# figures/stages.gp (experiments/lib/stages.sh).
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/stages.sh"
exp_begin fig10_beta_delegate "Figure 10: Dr.-radix stage times vs k, + beta = 2 delegates (|V| = 2^30, UD)"
stages_run 2 11 "--no-shared-delegate" 1 3 total
exp_end
