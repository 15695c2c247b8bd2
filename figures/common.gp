# common.gp -- loaded by every figure script of figures/: the
# terminal (fmt = 'png': pngcairo, 'svg': svg) writing to `out`, the title, and
# the caption at the bottom (GPU, data) stamped with the commit that drew it.
# Variables from experiments/lib/common.sh: fmt out title caption commit gpdir.
if (fmt eq 'png') {
    set terminal pngcairo size 1200,760 enhanced font 'DejaVu Sans,11' background rgb 'white'
} else {
    set terminal svg size 1200,760 enhanced font 'DejaVu Sans,11' background rgb 'white'
}
set output out
set encoding utf8
set title title noenhanced font ',13'
# the caption wrapped at spaces into lines that fit the panel's width, the
# last line at the bottom
CAPTION_CHARS = 175          # characters of a 9-point line across 1200 pixels, with room
CAPTION_LINE = 0.018         # a 9-point line, as a fraction of the 760-pixel height
caption_rest = caption."  |  drawn at commit ".commit
caption_text = ''
caption_lines = 1
while (strlen(caption_rest) > CAPTION_CHARS) {
    caption_cut = CAPTION_CHARS
    while (caption_cut > 1 && caption_rest[caption_cut:caption_cut] ne ' ') { caption_cut = caption_cut - 1 }
    if (caption_cut == 1) { caption_cut = CAPTION_CHARS }
    caption_text = caption_text.caption_rest[1:caption_cut]."\n"
    caption_rest = caption_rest[caption_cut + 1:]
    caption_lines = caption_lines + 1
}
set label 900 caption_text.caption_rest at screen 0.01, 0.02 + (caption_lines - 1) * CAPTION_LINE left font ',9' noenhanced
set bmargin 6
set grid lc rgb '#dddddd'
set key top left box opaque noenhanced
set offsets graph 0.03, graph 0.03, 0, 0
set style line 1 lc rgb '#1f77b4' lw 2 pt 7
set style line 2 lc rgb '#d62728' lw 2 pt 5
set style line 3 lc rgb '#2ca02c' lw 2 pt 9
set style line 4 lc rgb '#9467bd' lw 2 pt 11
set style line 5 lc rgb '#ff7f0e' lw 2 pt 13
set style line 6 lc rgb '#8c564b' lw 2 pt 3
set style line 7 lc rgb '#e377c2' lw 2 pt 2
set style line 8 lc rgb '#7f7f7f' lw 2 pt 1
set style line 9 lc rgb '#bcbd22' lw 2 pt 4
set style line 10 lc rgb '#17becf' lw 2 pt 6
set style increment user
# log2 axis of sizes and k: ticks as 2^e
log2x = 'set logscale x 2; set format x "2^{%L}"'
# the paper's numbers (Gaihre et al., V100S): open black circles, dashed black lines
set style line 20 lc rgb '#000000' lw 2 pt 6 ps 2.2
set style line 21 lc rgb '#000000' lw 1.5 dt 3
# a panel of a multiplot without data: eval empty_panel
empty_panel = "unset logscale; set format x '%g'; set label 10 'not measured' at graph 0.5, 0.5 center font ',14'; plot [0:1] [0:1] NaN notitle; unset label 10"
