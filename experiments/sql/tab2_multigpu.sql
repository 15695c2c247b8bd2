-- tab2_multigpu.sql -- Table 2 (paper 6.3; issue 12): Dr.-radix over MPI ranks,
-- rows of runs whose program is the multi-GPU one (name containing "mpi"), on
-- machine @machine.  Output (header first): |V||k|program arguments|median ms
SELECT '|V|', 'k', 'run', 'median ms'
UNION ALL
SELECT * FROM (
    SELECT x.n, x.k, r.argv, printf('%.3f', x.median_ms)
    FROM measurements x JOIN runs r ON r.id = x.run_id
    WHERE x.machine_id = @machine AND r.program LIKE '%mpi%' AND x.status = 'ok'
    ORDER BY x.n, x.k, r.argv
);
