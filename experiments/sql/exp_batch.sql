-- exp_batch.sql -- batched and segmented top-k (beyond the
-- paper): the rows experiments/batch_bench.sh stores as peer rows on machine
-- @machine (f32, UD, seed @seed, largest, values + indices unsorted): peers
-- batch.drtopk (ours), batch.torch_topk, batch.cub_batched_topk and
-- batch.read_once (torch.sum, the floor), the latest row of each (peer, n, k)
-- across commits.  A workload is one (n, k); its name is the second word of
-- our peer_version ("COMMIT NAME SHAPE"), else the first word after "; " of
-- torch's ("torch V; NAME SHAPE"), else the third word of CUB's ("CCCL V NAME").
-- Output, one row per workload in the order they were stored (batch_bench.sh's):
--   name|n|k|ours|torch|cub|floor|cub_skipped
-- ms medians, '-' where the peer has no valid row; cub_skipped 1 where the
-- CUB peer said it does not support the workload (segments over its bound).
WITH r AS (
    SELECT * FROM (
        SELECT y.*, row_number() OVER (PARTITION BY y.peer, y.n, y.k ORDER BY y.measured_at DESC, y.id DESC) AS rn
        FROM peer_measurements y
        WHERE y.machine_id = @machine AND y.peer LIKE 'batch.%' AND y.dtype = 'f32' AND y.dist = 'UD'
          AND y.seed = @seed
    ) WHERE rn = 1
),
w AS (
    SELECT r.*,
           CASE WHEN r.peer IN ('batch.torch_topk', 'batch.read_once') AND instr(r.peer_version, '; ') > 0
                THEN substr(r.peer_version, instr(r.peer_version, '; ') + 2)
                WHEN r.peer = 'batch.drtopk' THEN substr(r.peer_version, instr(r.peer_version, ' ') + 1)
                WHEN r.peer = 'batch.cub_batched_topk'
                THEN substr(substr(r.peer_version, instr(r.peer_version, ' ') + 1),
                            instr(substr(r.peer_version, instr(r.peer_version, ' ') + 1), ' ') + 1)
           END AS rest,
           r.status = 'ok' AND r.median_ms IS NOT NULL AND r.verified = 1 AS valid
    FROM r
),
named AS (
    SELECT w.*, CASE WHEN w.rest IS NULL OR w.rest = '' THEN NULL
                     ELSE substr(w.rest, 1, instr(w.rest || ' ', ' ') - 1) END AS wname,
           CASE w.peer WHEN 'batch.drtopk' THEN 0 WHEN 'batch.torch_topk' THEN 1 ELSE 2 END AS name_rank
    FROM w
),
cell AS (
    SELECT n, k, peer, CASE WHEN valid THEN printf('%.6g', median_ms) ELSE '-' END AS ms, status
    FROM named
)
SELECT coalesce((SELECT wname FROM named x WHERE x.n = g.n AND x.k = g.k AND x.wname IS NOT NULL
                 ORDER BY x.name_rank LIMIT 1), printf('n%d-k%d', g.n, g.k)),
       g.n, g.k,
       coalesce((SELECT ms FROM cell c WHERE c.n = g.n AND c.k = g.k AND c.peer = 'batch.drtopk'), '-'),
       coalesce((SELECT ms FROM cell c WHERE c.n = g.n AND c.k = g.k AND c.peer = 'batch.torch_topk'), '-'),
       coalesce((SELECT ms FROM cell c WHERE c.n = g.n AND c.k = g.k AND c.peer = 'batch.cub_batched_topk'), '-'),
       coalesce((SELECT ms FROM cell c WHERE c.n = g.n AND c.k = g.k AND c.peer = 'batch.read_once'), '-'),
       EXISTS (SELECT 1 FROM cell c WHERE c.n = g.n AND c.k = g.k AND c.peer = 'batch.cub_batched_topk'
                                      AND c.status = 'skipped')
FROM (SELECT n, k, min(id) AS first FROM named GROUP BY n, k) g
WHERE EXISTS (SELECT 1 FROM cell c WHERE c.n = g.n AND c.k = g.k AND c.ms <> '-')
ORDER BY g.first;
