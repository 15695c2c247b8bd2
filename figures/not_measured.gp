# not_measured.gp -- the panel a figure draws where its data do not exist on
# this machine yet: `what` in large type, `reason` below it, no data.
load gpdir.'/common.gp'
unset border
unset tics
unset key
unset grid
set label 1 what at graph 0.5, 0.62 center font ',22' noenhanced
set label 2 reason at graph 0.5, 0.45 center font ',12' noenhanced
plot [0:1] [0:1] NaN notitle
