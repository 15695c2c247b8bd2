# fig13_alpha.gp -- Figure 13 (paper 5.2): Dr.-radix time vs alpha, one line
# per |V|, Rule 4's alpha marked (const 3: open circles, the fitted const:
# crosses); log ms.  Data: data (blocks "|V| = 2^e", "alpha ms"), marks
# ("alpha ms" at Rule 4's alpha, const 3 then fitted, blocks 0 and 1).
load gpdir.'/common.gp'
set logscale y 2
set xlabel 'alpha (subrange = 2^{alpha} elements)'
set ylabel 'time (ms, median)'
set xtics 1
set key outside right top
plot for [i = 0:nseries - 1] data index i using 1:2 with linespoints title columnheader(1), \
     marks index 0 using 1:2 with points pt 6 ps 2.5 lw 2 lc rgb 'black' title 'Rule 4, const 3', \
     marks index 1 using 1:2 with points pt 2 ps 2.5 lw 2 lc rgb '#d62728' title 'Rule 4, fitted const'
