# fig18_speedup.gp -- Figure 18 (paper 6.1): speedup (plain ms / Dr.-assisted
# ms) of radix, bucket and bitonic vs k, one panel per distribution; log2 k,
# log2 speedup (the paper clips a linear axis at 128 instead), 1x marked.
# Data: data_UD, data_ND, data_CD (blocks: algorithm, then "k speedup").
load gpdir.'/common.gp'
set multiplot layout 1, 3 title title noenhanced font ',13'
unset title
eval log2x
set logscale y 2
set xlabel 'k'
set ylabel 'speedup of Dr.-assisted (x)'
set key top right font ',9'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#555555'
set title 'UD'
if (n_UD > 0) { plot for [i = 0:n_UD - 1] data_UD index i using 1:2 with linespoints title columnheader(1) } else { eval empty_panel }
set title 'ND'
unset label 900
if (n_ND > 0) { plot for [i = 0:n_ND - 1] data_ND index i using 1:2 with linespoints title columnheader(1) } else { eval empty_panel }
set title 'CD'
if (n_CD > 0) { plot for [i = 0:n_CD - 1] data_CD index i using 1:2 with linespoints title columnheader(1) } else { eval empty_panel }
unset multiplot
