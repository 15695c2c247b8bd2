-- peers.sql -- the modern peers' columns of the algorithm table (CUB
-- DeviceTopK as "cub-topk", torch.topk as "torch-topk") for the rows of
-- baselines.sql: machine @machine, |V| @n, dtype @dtype, each (dist, k) that
-- the algorithms have at commit @commit.  A peer row of a seed the algorithms
-- used wins over one of another seed, then one of @commit, then the newest.
-- Output, '|'-separated, for experiments/report.sh:
--   Q|column                    one per peer column, in display order
--   P|dist|k|column|cell
-- A cell is the median ms with '*' when measured on another seed than the
-- algorithms' (same distribution, other data), or: wrong (failed the peer's
-- check), err, skip (the peer did not run on this machine), - (not measured).
WITH m AS (
    SELECT DISTINCT dist, k, seed FROM measurements
    WHERE machine_id = @machine AND git_commit = @commit AND n = @n AND dtype = @dtype
      AND sort_order = 'largest'
),
p AS (
    SELECT x.*,
           CASE x.peer WHEN 'cub_device_topk' THEN 'cub-topk' WHEN 'torch_topk' THEN 'torch-topk'
                       ELSE x.peer END AS col,
           EXISTS (SELECT 1 FROM m WHERE m.dist = x.dist AND m.k = x.k AND m.seed = x.seed) AS same_seed
    FROM peer_measurements x
    WHERE x.machine_id = @machine AND ((x.n = @n AND x.dtype = @dtype) OR x.status = 'skipped')
),
cols AS (
    SELECT col, CASE col WHEN 'cub-topk' THEN 0 WHEN 'torch-topk' THEN 1 ELSE 2 END AS rank,
           max(status = 'skipped') AS any_skip
    FROM p GROUP BY col
),
best AS (
    SELECT p.*, row_number() OVER (PARTITION BY col, dist, k
                                   ORDER BY same_seed DESC, git_commit = @commit DESC,
                                            measured_at DESC, id DESC) AS pick
    FROM p WHERE status <> 'skipped'
),
keys AS (
    SELECT DISTINCT dist, k FROM m
)
SELECT tag, a, b, c, d FROM (
    SELECT 'Q' AS tag, col AS a, NULL AS b, NULL AS c, NULL AS d, rank AS r FROM cols
    UNION ALL
    SELECT 'P', keys.dist, keys.k, cols.col,
           CASE WHEN b.status = 'ok' AND b.verified = 0 THEN 'wrong'
                WHEN b.status = 'ok' THEN printf('%.3f', b.median_ms) || CASE WHEN b.same_seed THEN '' ELSE '*' END
                WHEN b.status = 'error' THEN 'err'
                WHEN cols.any_skip THEN 'skip'
                ELSE '-' END,
           cols.rank
    FROM keys CROSS JOIN cols
    LEFT JOIN best b ON b.col = cols.col AND b.dist = keys.dist AND b.k = keys.k AND b.pick = 1
)
ORDER BY tag DESC, r, a, b;
