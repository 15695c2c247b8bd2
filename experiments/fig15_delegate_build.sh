#!/bin/bash
# fig15_delegate_build.sh -- Figure 15 (paper 5.3): as Figure 10 with the optimized (shared-memory) delegate build: the library's default plan.
# Measured through bin/tuner (dr-radix, Rule 4 alpha, beta 2), plotted by
# figures/stages.gp (experiments/lib/stages.sh).
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/stages.sh"
exp_begin fig15_delegate_build "Figure 15: Dr.-radix stage times vs k, + optimized delegate build (|V| = 2^30, UD)"
stages_run 2 -1 "" 2 11 delegate
exp_end
