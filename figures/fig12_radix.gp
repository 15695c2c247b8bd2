# fig12_radix.gp -- Figure 12 (paper 5.1): speedup of the flag-based in-place
# radix top-k over GGKS in-place radix top-k vs k (UD); log2 k, log2 speedup.
# Data: "k radix_ms ggks_ms speedup".
load gpdir.'/common.gp'
eval log2x
set logscale y 2
set xlabel 'k'
set ylabel 'speedup over GGKS in-place radix (x)'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#555555'
plot data using 1:4 with linespoints title 'flag-based radix vs GGKS radix, |V| = '.n_label, \
     paper_mean + 0 with lines ls 21 title 'the paper: mean '.paper_mean.'x (V100S)'
