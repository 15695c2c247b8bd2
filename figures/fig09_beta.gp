# fig09_beta.gp -- Figure 9 (paper 4.3): Dr.-radix performance per beta,
# normalized to beta = 1 (ms at beta 1 / ms at beta), (a) vs k at |V| = 2^30,
# (b) vs |V| at the k of kb_label; log2 axes.  Data: data_a, data_b (blocks:
# "beta = b", then "x ratio"), na, nb their series counts.
load gpdir.'/common.gp'
set multiplot layout 1, 2 title title noenhanced font ',13'
unset title
eval log2x
set ylabel 'performance vs beta = 1 (x)'
set key top left
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#555555'
set title '(a) vs k, |V| = '.n_label noenhanced
set xlabel 'k'
if (na > 0) { plot for [i = 0:na - 1] data_a index i using 1:2 with linespoints title columnheader(1), \
                   paper using 1:2 with points ls 20 title 'the paper: beta 2 (V100S)' } else { eval empty_panel }
unset label 900
set title '(b) vs |V|, k = '.kb_label noenhanced
set xlabel '|V| (elements)'
if (nb > 0) { plot for [i = 0:nb - 1] data_b index i using 1:2 with linespoints title columnheader(1) } else { eval empty_panel }
unset multiplot
