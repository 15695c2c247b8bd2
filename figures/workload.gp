# workload.gp -- Figures 20 and 21 (paper 6.2): the first top-k's workload
# |D|, the second's |C| and their sum as % of |V|, vs xname (|V| or k); log2 x,
# log y.  Data: "x first% second% sum%".  key: the corner the curves leave
# free ('right': they fall along x, Figure 20; else they rise, Figure 21).
load gpdir.'/common.gp'
eval log2x
set logscale y 10
set format y '10^{%L}'
set xlabel xname
set ylabel 'workload (% of |V|)'
if (key eq 'right') { set key top right } else { set key top left }
plot data using 1:2 with linespoints title 'first top-k: |D|', \
     data using 1:3 with linespoints title 'second top-k: |C|', \
     data using 1:4 with linespoints title 'sum |D| + |C|', \
     paper using 1:2 with points ls 20 title 'the paper: |D| + |C| (V100S)'
