-- baselines_scope.sql -- which commit and |V| the algorithm table shows for machine
-- @machine and dtype @dtype: @commit, else the commit of the most recent
-- standalone measurement; @n, else the largest n with standalone measurements
-- at that commit.  Output: commit|n (no row when there is nothing to show).
WITH c AS (
    SELECT coalesce(@commit,
                    (SELECT git_commit FROM measurements
                     WHERE machine_id = @machine AND dtype = @dtype AND beta = 0
                     ORDER BY measured_at DESC, id DESC LIMIT 1)) AS git_commit
)
SELECT c.git_commit,
       coalesce(@n, (SELECT max(n) FROM measurements x
                     WHERE x.machine_id = @machine AND x.dtype = @dtype AND x.beta = 0
                       AND x.git_commit = c.git_commit)) AS n
FROM c
WHERE c.git_commit IS NOT NULL;
