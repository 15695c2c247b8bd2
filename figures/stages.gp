# stages.gp -- Figures 6, 7, 10, 15 (paper 4.1-4.3, 5.3): Dr.-radix time per
# stage (delegate construction, first top-k, concatenation, second top-k),
# stacked, vs k at |V| = 2^30 (UD).  Data: "k delegate first concat second total".
load gpdir.'/common.gp'
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.75
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
set xlabel 'k (log_2 k under each bar)'
set ylabel 'time (ms, median per stage)'
set xtics rotate by 0
set key top left
plot data using 2:xtic(sprintf('%d', log($1) / log(2) + 0.5)) title 'delegate construction' ls 1, \
     '' using 3 title 'first top-k' ls 2, \
     '' using 4 title 'concatenation' ls 3, \
     '' using 5 title 'second top-k' ls 4
