-- oracle_scope.sql -- which commit the oracle-vs-tuned table shows for
-- machine @machine: @commit, else the commit of the most recent measurement
-- of @algo at beta @beta and dtype @dtype.  Output: commit (no row: nothing).
SELECT git_commit FROM (
    SELECT coalesce(@commit,
                    (SELECT git_commit FROM measurements
                     WHERE machine_id = @machine AND dtype = @dtype AND algorithm = @algo AND beta = @beta
                     ORDER BY measured_at DESC, id DESC LIMIT 1)) AS git_commit
)
WHERE git_commit IS NOT NULL;
