-- fig24_bmw.sql -- Figure 24 (paper 6.6): the elements a BMW-style scan fully
-- evaluates over Dr. Top-k's |D| + |C| per (dist, k), from table counters
-- (schema 7; tuner --bmw: host counts of src/harness/bmw.c at Rule 4's alpha,
-- beta 2), dtype u32, seed @seed, machine @machine; the latest count of each
-- configuration across commits.  Output: dist|k|ratio|n
WITH c AS (
    SELECT * FROM (
        SELECT x.*, row_number() OVER (PARTITION BY x.algorithm, x.dist, x.n, x.k, x.alpha, x.beta, x.flags,
                                                    x.counter ORDER BY x.measured_at DESC, x.id DESC) AS rn
        FROM counters x
        WHERE x.machine_id = @machine AND x.source = 'bmw' AND x.dtype = 'u32' AND x.seed = @seed
          AND x.sort_order = 'largest' AND (x.git_commit NOT LIKE '%-dirty' OR @machine IN (SELECT id FROM machines WHERE backend = 'cpu'))
          AND (@commit IS NULL OR x.git_commit = @commit)
    ) WHERE rn = 1
)
SELECT b.dist, b.k, b.value / d.value, b.n
FROM c b JOIN c d ON d.algorithm = b.algorithm AND d.dist = b.dist AND d.n = b.n AND d.k = b.k
                 AND d.alpha = b.alpha AND d.beta = b.beta AND d.flags = b.flags
WHERE b.counter = 'bmw_evaluated' AND d.counter = 'dr_workload' AND d.value > 0
  AND b.n = (SELECT max(n) FROM c)
ORDER BY b.dist, b.k;
