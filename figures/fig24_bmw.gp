# fig24_bmw.gp -- Figure 24 (paper 6.6): BMW's fully evaluated workload over
# Dr. Top-k's (|D| + |C|) vs k, one line per distribution; log2 k, log2 ratio.
# Data: blocks per distribution, "k ratio".
load gpdir.'/common.gp'
eval log2x
set logscale y 2
set xlabel 'k'
set ylabel 'BMW workload / Dr. Top-k workload (x)'
set key outside right top     # beside the panel: the legend never covers a point
plot for [i = 0:nseries - 1] data index i using 1:2 with linespoints title columnheader(1), \
     paper_ud + 0 with lines ls 21 title 'the paper: UD mean '.paper_ud.'x', \
     paper_nd + 0 with lines ls 21 dt 2 title 'the paper: ND mean '.paper_nd.'x'
