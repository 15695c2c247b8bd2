#!/bin/bash
# fig07_filter.sh -- Figure 7 (paper 4.2): as Figure 6 with delegate top-k enabled filtering (Rule 2).
# Measured through bin/tuner (dr-radix, Rule 4 alpha, beta 1, --no-skip-last-digit --no-shared-delegate), plotted by
# figures/stages.gp (experiments/lib/stages.sh).
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/stages.sh"
exp_begin fig07_filter "Figure 7: Dr.-radix stage times vs k, + Rule 2 filtering (|V| = 2^30, UD, beta 1)"
stages_run 1 3 "--no-skip-last-digit --no-shared-delegate" 1 1 second
exp_end
