# fig14_oracle.gp -- Figure 14 (paper 5.2): Dr.-radix time at the oracle alpha
# vs at Rule 4's alpha (the paper's const 3 and this machine's fitted const),
# vs k at |V| = n_label; log2 k, log ms.  Data: "k astar oracle a3 ms3 afit msfit"
# ('-' = not measured).
load gpdir.'/common.gp'
eval log2x
set logscale y 2
set datafile missing '-'
set xlabel 'k'
set ylabel 'time (ms, median)'
plot data using 1:3 with linespoints title 'oracle alpha (fastest measured)', \
     data using 1:5 with linespoints title 'Rule 4 alpha, const 3 (paper)', \
     data using 1:7 with linespoints title 'Rule 4 alpha, fitted const (tuner)'
