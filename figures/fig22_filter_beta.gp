# fig22_filter_beta.gp -- Figure 22 (paper 6.2): Dr.-radix time vs k with Rule 2
# filtering alone, beta = 2 delegates alone, and both; log2 k, log ms.
# Data: blocks per plan, "k ms".
load gpdir.'/common.gp'
eval log2x
set logscale y 2
set xlabel 'k'
set ylabel 'time (ms, median)'
plot for [i = 0:nseries - 1] data index i using 1:2 with linespoints title columnheader(1), \
     paper using 1:2 with points ls 20 title 'the paper at k = 2^24: filtering, beta, both (V100S ms)'
