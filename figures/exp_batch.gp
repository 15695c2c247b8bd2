# exp_batch.gp -- batched and segmented top-k (beyond the
# paper): per workload a group of bars, median ms of ours, torch.topk, CUB
# DeviceBatchedTopK and the read floor (torch.sum), log ms; above each group
# the best peer's time over ours ("-" where no peer ran).
# Data (experiments/exp_batch.sh): "label" ours torch cub floor "ratio" top, NaN
# where a series has no valid row; top: the tallest bar of the group.
load gpdir.'/common.gp'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y 10
set format y '%g'
set ylabel 'time (ms, median; log scale)'
set xtics noenhanced rotate by -50 left scale 0 font ',9'   # steep: long workload names never overlap
set bmargin 15                # room for the rotated names (40 characters) above the caption
set rmargin 14                # and for the last one's tail
set grid noxtics ytics
set key top left box opaque noenhanced
set offsets 0, 0, graph 0.12, 0
set datafile missing 'NaN'
LABEL_LIFT = 1.5             # the ratio label this far above the tallest bar (log axis)
plot data using 2:xtic(1) title 'ours (drtopk batch)', \
     '' using 3 title 'torch.topk', \
     '' using 4 title 'CUB DeviceBatchedTopK', \
     '' using 5 title 'read the input once (torch.sum)', \
     '' using ($0):($7 * LABEL_LIFT):6 with labels font ',10' noenhanced notitle
