-- tab2_multigpu.sql -- Table 2 (paper 6.3): runs of bin/drtopk-mpi stored in
-- table multi_gpu (schema 6) on machine @machine (rank 0's GPU), 32-bit
-- unsigned keys, the latest row of each configuration across commits, one
-- output row per (|V|, k, ranks) with the in-core run (device_cap 0: every
-- slice on its GPU) and the out-of-core run (the longest --device-cap
-- measured) side by side.  speedup: one rank's total at the same |V|, k and
-- placement over this row's.
-- Output: n|k|ranks|gpus|in_total_ms|in_comm_ms|in_speedup|ooc_cap|ooc_chunks|ooc_total_ms|ooc_reload_ms|
--         ooc_comm_ms|ooc_speedup|in_exchange   ('-' where not measured; in_exchange: how the in-core
--         run's parts reached rank 0, db/schema.sql migration 12)
WITH r AS (
    SELECT * FROM (
        SELECT g.*, row_number() OVER (PARTITION BY g.n, g.k, g.ranks, g.out_of_core
                                       ORDER BY g.device_cap DESC, g.measured_at DESC, g.id DESC) AS rn
        FROM multi_gpu g
        WHERE g.machine_id = @machine AND g.dtype = 'u32' AND g.sort_order = 'largest'
          AND (g.git_commit NOT LIKE '%-dirty' OR @machine IN (SELECT id FROM machines WHERE backend = 'cpu'))
          AND (@commit IS NULL OR g.git_commit = @commit)
          AND CASE WHEN @verified = 1 THEN g.verify_ok = 1 ELSE coalesce(g.verify_ok, 1) = 1 END
    ) WHERE rn = 1
),
one AS (SELECT n, k, out_of_core, total_ms AS ms FROM r WHERE ranks = 1),
cfg AS (SELECT n, k, ranks, max(gpus) AS gpus FROM r GROUP BY n, k, ranks)
SELECT c.n, c.k, c.ranks, c.gpus,
       -- (printf of NULL is '0.000' in SQLite: not measured is '-')
       iif(i.id IS NULL, '-', printf('%.3f', i.total_ms)), iif(i.id IS NULL, '-', printf('%.3f', i.comm_ms)),
       iif(i.id IS NULL OR i1.ms IS NULL, '-', printf('%.2f', i1.ms / i.total_ms)),
       -- the sub-vector length: rows stored before drtopk-mpi recorded it kept the asked cap even where a
       -- slice outgrew its GPU and streamed in 2^30 pieces (a cap no shorter than the slice): slice / chunks
       coalesce(CASE WHEN o.device_cap * o.ranks >= o.n THEN ((o.n + o.ranks - 1) / o.ranks + o.chunks - 1) / o.chunks
                     ELSE o.device_cap END, '-'),
       coalesce(o.chunks, '-'), iif(o.id IS NULL, '-', printf('%.3f', o.total_ms)),
       iif(o.id IS NULL, '-', printf('%.3f', o.reload_ms)), iif(o.id IS NULL, '-', printf('%.3f', o.comm_ms)),
       iif(o.id IS NULL OR o1.ms IS NULL, '-', printf('%.2f', o1.ms / o.total_ms)),
       coalesce(i.exchange, '-')
FROM cfg c
LEFT JOIN r i ON i.n = c.n AND i.k = c.k AND i.ranks = c.ranks AND i.out_of_core = 0
LEFT JOIN r o ON o.n = c.n AND o.k = c.k AND o.ranks = c.ranks AND o.out_of_core = 1
LEFT JOIN one i1 ON i1.n = c.n AND i1.k = c.k AND i1.out_of_core = 0
LEFT JOIN one o1 ON o1.n = c.n AND o1.k = c.k AND o1.out_of_core = 1
ORDER BY c.n, c.k, c.ranks;
