-- baselines.sql -- the algorithm table (paper section 6, Figure 4's
-- baselines): per (dist, k) and top-k algorithm, the median ms standalone and
-- Dr.-assisted (the delegate pipeline with that algorithm as first and second
-- top-k, at Rule 4's alpha with the paper's const 3 and beta @beta), and the
-- speedup standalone / Dr.  Parameters: @machine (machines.id), @commit, @n,
-- @dtype, @beta.
-- Output, '|'-separated, for experiments/report.sh to pivot:
--   C|||algorithm|has_dr|||     one per column group, in display order
--   R|dist|k|algorithm||alone|dr|speedup
-- A cell is the ms, or: wrong (failed verification), skip (the tuner's
-- --skip-after-s rule), err, n/a (unsupported), - (not measured).
WITH m AS (
    SELECT * FROM measurements
    WHERE machine_id = @machine AND git_commit = @commit AND n = @n AND dtype = @dtype
      AND sort_order = 'largest' AND algorithm NOT LIKE 'auto-%'   -- tuner --regret's automatic plan
),
cells AS (
    SELECT m.dist, m.k,
           CASE WHEN m.algorithm LIKE 'dr-%' THEN substr(m.algorithm, 4) ELSE m.algorithm END AS base,
           m.algorithm LIKE 'dr-%' AS dr,
           avg(CASE WHEN m.status = 'ok' AND coalesce(m.verify_ok, 1) = 1 THEN m.median_ms END) AS ms,
           CASE WHEN max(coalesce(m.verify_ok, 1) = 0) THEN 'wrong'
                WHEN count(CASE WHEN m.status = 'ok' THEN 1 END) > 0
                     THEN printf('%.3f', avg(CASE WHEN m.status = 'ok' THEN m.median_ms END))
                WHEN max(m.error LIKE 'skipped: %') THEN 'skip'
                WHEN max(m.status = 'error') THEN 'err'
                ELSE 'n/a' END AS cell
    FROM m
    WHERE (m.algorithm NOT LIKE 'dr-%' AND m.beta = 0)
       OR (m.algorithm LIKE 'dr-%' AND m.alpha = m.rule4_alpha AND m.beta = @beta
           -- drtopk_plan_rule4's flags (the store's rule4_flags): not the tuner's other
           -- delegate build or experiments' flag variants
           AND m.flags = m.rule4_flags)
    GROUP BY 1, 2, 3, 4
),
groups AS (
    SELECT DISTINCT dist, k, base FROM cells
),
bases AS (
    SELECT base, max(dr) AS has_dr,
           coalesce(nullif(instr(',radix,radix-ggks,radix-ggks-oop,bucket,bucket-oop,bitonic,sort-cub,sort-thrust,',
                                 ',' || base || ','), 0), 1000) AS rank
    FROM cells GROUP BY base
)
SELECT tag, dist, k, base, has_dr, alone, dr, speedup FROM (
    SELECT 'C' AS tag, NULL AS dist, NULL AS k, base, has_dr, NULL AS alone, NULL AS dr, NULL AS speedup,
           0 AS drank, 0 AS kk, rank
    FROM bases
    UNION ALL
    SELECT 'R', g.dist, g.k, g.base, NULL, coalesce(a.cell, '-'), coalesce(d.cell, '-'),
           CASE WHEN a.ms > 0 AND d.ms > 0 THEN printf('%.2f', a.ms / d.ms) ELSE '-' END,
           CASE g.dist WHEN 'UD' THEN 0 WHEN 'ND' THEN 1 WHEN 'CD' THEN 2 ELSE 3 END, g.k, b.rank
    FROM groups g
    JOIN bases b ON b.base = g.base
    LEFT JOIN cells a ON a.dist = g.dist AND a.k = g.k AND a.base = g.base AND a.dr = 0
    LEFT JOIN cells d ON d.dist = g.dist AND d.k = g.k AND d.base = g.base AND d.dr = 1
)
ORDER BY tag, drank, dist, kk, rank, base;
