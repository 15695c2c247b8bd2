-- fits.sql -- the tuner's Rule 4 fits (paper section 5.2) of machine @machine
-- and dtype @dtype: const_time (least time lost vs the oracle alpha, used by
-- the library), const_lsq (least squares on alpha*), const_theory (Eq. 11
-- from the microbenchmarked C_global and C_shfl, shown beside it), and the
-- fit's slowdowns.  The variant of the oracle table (@algo, @beta) comes first.
-- Output: algorithm|beta|const_time|const_lsq|const_theory|C_global|C_shfl|mean slow|worst slow|points|commit
SELECT f.algorithm, f.beta, printf('%.3f', f.const_time), printf('%.3f', f.const_lsq),
       CASE WHEN f.const_theory IS NULL THEN '-' ELSE printf('%.3f', f.const_theory) END,
       CASE WHEN m.c_global IS NULL THEN '-' ELSE printf('%.1f', m.c_global) END,
       CASE WHEN m.c_shfl IS NULL THEN '-' ELSE printf('%.1f', m.c_shfl) END,
       printf('%.3fx', f.mean_slowdown), printf('%.3fx', f.worst_slowdown), f.points, f.git_commit
FROM fits f JOIN machines m ON m.id = f.machine_id
WHERE f.machine_id = @machine AND f.dtype = @dtype
ORDER BY (f.algorithm = @algo AND f.beta = @beta) DESC, f.algorithm, f.beta;
