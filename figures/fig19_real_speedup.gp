# fig19_real_speedup.gp -- Figure 19 (paper 6.1): speedup of Dr.-assisted over
# plain top-k vs k, one line per (data set, algorithm); log2 k, log2 speedup.
# Data: blocks "dataset algorithm", "k speedup".
load gpdir.'/common.gp'
eval log2x
set logscale y 2
set xlabel 'k'
set ylabel 'speedup of Dr.-assisted (x)'
set key outside right top
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#555555'
plot for [i = 0:nseries - 1] data index i using 1:2 with linespoints title columnheader(1)
