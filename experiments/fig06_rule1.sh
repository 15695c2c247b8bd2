#!/bin/bash
# fig06_rule1.sh -- Figure 6 (paper 4.1): Dr.-radix stage breakdown vs k with Rule 1 alone: one delegate per subrange, no Rule 2 filtering, no early stop, no shared-memory delegate build.
# Measured through bin/tuner (dr-radix, Rule 4 alpha, beta 1, --no-filter --no-skip-last-digit --no-shared-delegate), plotted by
# figures/stages.gp (experiments/lib/stages.sh).
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/stages.sh"
exp_begin fig06_rule1 "Figure 6: Dr.-radix stage times vs k, Rule 1 only (|V| = 2^30, UD, beta 1, no filtering)"
stages_run 1 1 "--no-filter --no-skip-last-digit --no-shared-delegate" 0 0 flat-delegate
exp_end
