# fig23_gpus.gp -- Figure 23 (paper 6.5): the same Dr.-radix sweep (time vs k)
# on every GPU of the database side by side; log2 k, log ms.
# Data: blocks per GPU ("name (read GB/s)"), "k ms".
load gpdir.'/common.gp'
eval log2x
set logscale y 2
set xlabel 'k'
set ylabel 'time (ms, median)'
plot for [i = 0:nseries - 1] data index i using 1:2 with linespoints title columnheader(1)
