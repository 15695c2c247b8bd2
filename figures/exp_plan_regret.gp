# exp_plan_regret.gp -- the automatic plan's regret (beyond
# the paper): one heat map per (tuning, key type), x log2 n, y log2 k, each
# cell coloured by the regret of its worst distribution (auto ms / min(auto
# ms, the fastest forced plan's ms)), labelled with the % it loses where it
# is over label_min (the median target).
# Data (experiments/exp_plan_regret.sh): one block per panel that has rows, in
# the order of `blocks`: "log2n log2k regret dist".  Variables: data; panels,
# one word per grid position ("builtin:u32"); blocks, the data block of each
# position (-1: not measured); nrows, ncols the grid; label_min; note, the
# line under the title.
load gpdir.'/common.gp'
REGRET_CB_MAX = 1.5          # colours saturate here: 1.05 is the worst-case target, 1.5 far past it
PERCENT = 100                # labels: how much slower than the fastest forced plan, in %
CELL = 1                     # half a cell: n and k go by 4x, 2 on the log2 axes
# the panels fill the page: the caption (common.gp) keeps the bottom 8% and a line more for each
# line it wraps to (the x label sits above it), the title and note the top 11%
set multiplot layout int(nrows), int(ncols) title title."\n".note noenhanced font ',12' \
    margins 0.05, 0.93, 0.10 + (caption_lines - 1) * CAPTION_LINE, 0.89 spacing 0.06, 0.12
set palette defined (1.0 '#1a9850', 1.02 '#a6d96a', 1.05 '#fee08b', 1.2 '#fc8d59', REGRET_CB_MAX '#d73027')
set cbrange [1:REGRET_CB_MAX]
set cbtics 0.1 font ',8'
set style fill solid 1.0 noborder
set xlabel 'log_2 n' font ',9'
set ylabel 'log_2 k' font ',9'
set tics font ',8'
set xtics 4
set ytics 4
set grid front lc rgb '#ffffff' lw 0.5
unset key
do for [i = 1:words(panels)] {
    b = int(word(blocks, i))
    p = word(panels, i)
    set title sprintf('%s, %s', p[1:strstrt(p, ':') - 1], p[strstrt(p, ':') + 1:]) noenhanced font ',10'
    if (i % int(ncols) == 0) { set colorbox } else { unset colorbox }
    if (b < 0) {
        eval empty_panel
    } else {
        set autoscale xfix; set autoscale yfix
        set offsets CELL, CELL, CELL, CELL
        plot data index b using 1:2:($1 - CELL):($1 + CELL):($2 - CELL):($2 + CELL):($3 > REGRET_CB_MAX ? REGRET_CB_MAX : $3) \
                 with boxxyerror fc palette notitle, \
             '' index b using 1:2:($3 > real(label_min) ? sprintf('%.0f', ($3 - 1) * PERCENT) : '') \
                 with labels font ',7' notitle
    }
    unset label 900
}
unset multiplot
