# table.gp -- a table of the paper (Tables 1-3) or a figure's rows drawn as
# text: one line of `data` per row (a header first), monospace, top down;
# 30 lines fill the panel, longer tables shrink to fit, and so do wider ones:
# the longest line sets the font, so no column is cut at the right edge.
load gpdir.'/common.gp'
unset border
unset tics
unset key
unset grid
set datafile separator "\t"
set offsets 0, 0, 0, 0
TABLE_LINES = 30
TABLE_FONT_MAX = 10          # points: 30 lines of up to 127 characters
TABLE_WIDTH_PX = 1120.0      # the text's room across the 1200-pixel panel, from its left edge
MONO_PX_PER_PT = 0.88        # DejaVu Sans Mono's advance per point of size, as pngcairo draws it
stats data using (0) nooutput
stats data using (strlen(strcol(1))) nooutput name 'WIDTH'
table_font = WIDTH_max * MONO_PX_PER_PT * TABLE_FONT_MAX > TABLE_WIDTH_PX ? \
             TABLE_WIDTH_PX / (WIDTH_max * MONO_PX_PER_PT) : TABLE_FONT_MAX
set yrange [-(STATS_records > TABLE_LINES ? STATS_records : TABLE_LINES):1]
set xrange [0:1]
plot data using (0.02):(-$0):1 with labels left font sprintf('DejaVu Sans Mono,%.1f', table_font) noenhanced
