# table.gp -- a table of the paper (Tables 1-3) or a figure's rows drawn as
# text: one line of `data` per row (a header first), monospace, top down;
# 30 lines fill the panel, longer tables shrink to fit.
load gpdir.'/common.gp'
unset border
unset tics
unset key
unset grid
set datafile separator "\t"
set offsets 0, 0, 0, 0
TABLE_LINES = 30
stats data using (0) nooutput
set yrange [-(STATS_records > TABLE_LINES ? STATS_records : TABLE_LINES):1]
set xrange [0:1]
plot data using (0.02):(-$0):1 with labels left font 'DejaVu Sans Mono,10' noenhanced
