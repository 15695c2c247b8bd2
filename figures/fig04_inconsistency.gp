# fig04_inconsistency.gp -- Figure 4 (paper 3.1): time of radix, bucket,
# bitonic and sort top-k vs k, one panel per distribution (UD, ND, CD), each
# with its Dr.-assisted version; log2 k, log ms.  Data: data_UD, data_ND,
# data_CD (blocks: series, then "k ms" lines), n_UD ... their series counts,
# dash_UD ... the dash type per series (Dr.-assisted dashed).
load gpdir.'/common.gp'
set multiplot layout 1, 3 title title noenhanced font ',13'
unset title
eval log2x
set logscale y 10
set xlabel 'k'
set ylabel 'time (ms, median)'
set key top left font ',8'
set title 'UD'
if (n_UD > 0) { plot for [i = 0:n_UD - 1] data_UD index i using 1:2 with linespoints dt int(word(dash_UD, i + 1)) title columnheader(1) } else { eval empty_panel }
set title 'ND'
unset label 900
if (n_ND > 0) { plot for [i = 0:n_ND - 1] data_ND index i using 1:2 with linespoints dt int(word(dash_ND, i + 1)) title columnheader(1) } else { eval empty_panel }
set title 'CD'
if (n_CD > 0) { plot for [i = 0:n_CD - 1] data_CD index i using 1:2 with linespoints dt int(word(dash_CD, i + 1)) title columnheader(1) } else { eval empty_panel }
unset multiplot
