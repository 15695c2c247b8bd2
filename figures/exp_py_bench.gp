# exp_py_bench.gp -- drtopk.topk from Python beside torch.topk (beyond the
# paper): per workload a group of bars, microseconds per call of drtopk.topk,
# torch.topk and our GPU time alone (the same calls replayed from a CUDA
# graph), log scale; above each group torch.topk's time over ours.
# Data (experiments/exp_py_bench.sh): "label" ours torch graph "ratio" top, NaN
# where a series has no valid row; top: the tallest bar of the group.
load gpdir.'/common.gp'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y 10
set format y '%g'
set ylabel 'time per call (us, median; log scale)'
set xtics noenhanced rotate by -50 left scale 0 font ',9'   # steep: long workload names never overlap
set bmargin 15                # room for the rotated names above the caption
set rmargin 14                # and for the last one's tail
set grid noxtics ytics
set key top left box opaque noenhanced
set offsets 0, 0, graph 0.12, 0
set datafile missing 'NaN'
LABEL_LIFT = 1.5             # the ratio label this far above the tallest bar (log axis)
plot data using 2:xtic(1) title 'drtopk.topk (from Python)', \
     '' using 3 title 'torch.topk', \
     '' using 4 title 'our GPU time (CUDA graph replay)', \
     '' using ($0):($6 * LABEL_LIFT):5 with labels font ',10' noenhanced notitle
