# fig17_size.gp -- Figure 17: top-k time vs |V| at k = 1024 (paper 6.1), every
# algorithm plain (solid) and Dr.-assisted (dashed), and the modern peers; log2
# |V|, log ms.  dashes: the dash type per series (experiments/lib/common.sh).
# Data: experiments/fig17_size.sh (blocks: series, then "n ms" lines).
load gpdir.'/common.gp'
eval log2x
set logscale y 10
set xlabel '|V| (elements, u32, UD)'
set ylabel 'time (ms, median)'
set key outside right top
# note: which configuration of each modern peer was plotted (fig17_size.sh)
if (exists('note') && strlen(note) > 0) set label 901 note at screen 0.01, 0.045 left font ',9' noenhanced
plot for [i = 0:nseries - 1] data index i using 1:2 with linespoints dt int(word(dashes, i + 1)) title columnheader(1)
