-- tab3_transactions.sql -- Table 3 (paper 6.4): global load and store sectors
-- per algorithm, plain and Dr.-assisted, at |V| = @n, k = @k on UD, from table
-- counters (schema 7, source 'ncu': experiments/tab3_transactions.sh imported
-- with tuner --import-counters), machine @machine, the latest of each
-- configuration across commits.
-- Output: base|plain loads|Dr. loads|plain stores|Dr. stores ('-' where missing)
WITH c AS (
    SELECT * FROM (
        SELECT x.*, CASE WHEN x.algorithm LIKE 'dr-%' THEN substr(x.algorithm, 4) ELSE x.algorithm END AS base,
               x.algorithm LIKE 'dr-%' AS dr,
               row_number() OVER (PARTITION BY x.algorithm, x.counter ORDER BY x.measured_at DESC, x.id DESC) AS rn
        FROM counters x
        WHERE x.machine_id = @machine AND x.source = 'ncu' AND x.dtype = 'u32' AND x.dist = 'UD'
          AND x.n = @n AND x.k = @k AND x.sort_order = 'largest' AND (x.git_commit NOT LIKE '%-dirty' OR @machine IN (SELECT id FROM machines WHERE backend = 'cpu'))
          AND (@commit IS NULL OR x.git_commit = @commit)
    ) WHERE rn = 1
)
SELECT b.base,
       coalesce((SELECT printf('%.0f', value) FROM c WHERE base = b.base AND dr = 0 AND counter = 'global_load_sectors'), '-'),
       coalesce((SELECT printf('%.0f', value) FROM c WHERE base = b.base AND dr = 1 AND counter = 'global_load_sectors'), '-'),
       coalesce((SELECT printf('%.0f', value) FROM c WHERE base = b.base AND dr = 0 AND counter = 'global_store_sectors'), '-'),
       coalesce((SELECT printf('%.0f', value) FROM c WHERE base = b.base AND dr = 1 AND counter = 'global_store_sectors'), '-')
FROM (SELECT DISTINCT base FROM c) b
ORDER BY CASE b.base WHEN 'radix' THEN 0 WHEN 'bucket' THEN 1 WHEN 'bitonic' THEN 2 ELSE 3 END, b.base;
