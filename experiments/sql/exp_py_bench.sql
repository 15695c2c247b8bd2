-- exp_py_bench.sql -- drtopk.topk from Python beside torch.topk (beyond the
-- paper): the rows experiments/py_bench.py stores as peer rows on machine
-- @machine (f32, UD, largest, sorted): peers py.drtopk_topk (our call from
-- Python, CUDA events around back-to-back calls), py.torch_topk (torch.topk
-- timed the same way) and py.drtopk_graph (the same calls replayed from a CUDA
-- graph: our GPU time alone), the latest row of each (peer, workload) at
-- commit @commit (NULL: across commits).  The workload is the first word of
-- peer_version ("NAME RxC torch V"), its shape the second.  @verified = 1 keeps
-- only rows whose result matched torch.topk's.
-- Output, one row per workload in the order py_bench.py stored them:
--   name|shape|k|ours|torch|graph
-- ms medians, '-' where the peer has no valid row.
WITH r AS (
    SELECT * FROM (
        SELECT y.*, substr(y.peer_version, 1, instr(y.peer_version || ' ', ' ') - 1) AS wname,
               row_number() OVER (PARTITION BY y.peer, substr(y.peer_version, 1, instr(y.peer_version || ' ', ' ') - 1)
                                  ORDER BY y.measured_at DESC, y.id DESC) AS rn
        FROM peer_measurements y
        WHERE y.machine_id = @machine AND y.peer IN ('py.drtopk_topk', 'py.torch_topk', 'py.drtopk_graph')
          AND y.dtype = 'f32' AND y.dist = 'UD' AND (@commit IS NULL OR y.git_commit = @commit)
    ) WHERE rn = 1
),
cell AS (
    SELECT wname, peer, n, k, id, peer_version,
           CASE WHEN status = 'ok' AND median_ms IS NOT NULL AND (verified = 1 OR coalesce(@verified, 0) <> 1)
                THEN printf('%.6g', median_ms) ELSE '-' END AS ms
    FROM r
)
SELECT g.wname,
       coalesce((SELECT substr(c.peer_version || ' ', instr(c.peer_version || ' ', ' ') + 1,
                               instr(substr(c.peer_version || ' ', instr(c.peer_version || ' ', ' ') + 1), ' ') - 1)
                 FROM cell c WHERE c.wname = g.wname ORDER BY c.id LIMIT 1), '-'),
       g.k,
       coalesce((SELECT ms FROM cell c WHERE c.wname = g.wname AND c.peer = 'py.drtopk_topk'), '-'),
       coalesce((SELECT ms FROM cell c WHERE c.wname = g.wname AND c.peer = 'py.torch_topk'), '-'),
       coalesce((SELECT ms FROM cell c WHERE c.wname = g.wname AND c.peer = 'py.drtopk_graph'), '-')
FROM (SELECT wname, min(k) AS k, min(id) AS first FROM cell GROUP BY wname) g
WHERE EXISTS (SELECT 1 FROM cell c WHERE c.wname = g.wname AND c.ms <> '-')
ORDER BY g.first;
