-- tab2_multigpu.sql -- Table 2 (paper 6.3): runs of bin/drtopk-mpi
-- stored in table multi_gpu (schema 6) on machine @machine (rank 0's GPU),
-- k = @k, the latest row of each configuration across commits.  speedup: the
-- total of one rank at the same |V| (in core when measured, else the fastest
-- out-of-core one) over this row's total.
-- Output: n|ranks|gpus|device_cap|out_of_core|chunks|total_ms|reload_ms|comm_ms|speedup
WITH r AS (
    SELECT * FROM (
        SELECT g.*, row_number() OVER (PARTITION BY g.algorithm, g.dtype, g.dist, g.n, g.alpha, g.beta,
                                                    g.flags, g.ranks, g.gpus, g.device_cap
                                       ORDER BY g.measured_at DESC, g.id DESC) AS rn
        FROM multi_gpu g
        WHERE g.machine_id = @machine AND g.k = @k AND g.sort_order = 'largest' AND coalesce(g.verify_ok, 1) = 1
    ) WHERE rn = 1
),
one AS (
    SELECT n, coalesce(min(CASE WHEN out_of_core = 0 THEN total_ms END), min(total_ms)) AS ms
    FROM r WHERE ranks = 1 GROUP BY n
)
SELECT r.n, r.ranks, r.gpus,
       -- the sub-vector length: rows stored before drtopk-mpi recorded it kept the asked cap even where
       -- a slice outgrew its GPU and streamed in 2^30 pieces (a cap no shorter than the slice): slice / chunks
       CASE WHEN r.out_of_core = 1 AND r.device_cap * r.ranks >= r.n
            THEN ((r.n + r.ranks - 1) / r.ranks + r.chunks - 1) / r.chunks ELSE r.device_cap END,
       r.out_of_core, r.chunks, printf('%.3f', r.total_ms),
       printf('%.3f', r.reload_ms), printf('%.3f', r.comm_ms),
       coalesce(printf('%.2f', one.ms / r.total_ms), '-')
FROM r LEFT JOIN one ON one.n = r.n
ORDER BY r.n, r.out_of_core, r.gpus, r.ranks, r.device_cap DESC;
