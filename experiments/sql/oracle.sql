-- oracle.sql -- the oracle-vs-tuned table (paper section 5.2, Rule 4,
-- Figure 14's data): per (dist, n, k) the oracle alpha* (fastest measured
-- alpha) and its ms, Rule 4's alpha with the fitted const_time of this machine
-- and with the paper's const 3, their ms and slowdowns vs the oracle, then the
-- mean and worst slowdown.  When Rule 4's alpha was not measured, the nearest
-- measured alpha (ties to the smaller) stands in and the alpha shows '~', as
-- in the tuner's own table.  Only points measured at 3 or more alphas count
-- (DRTOPK_FIT_MIN_ALPHAS, as in the fit): a fixed-plan sweep's single alpha
-- says nothing of alpha*.  Parameters: @machine, @commit, @dtype, @algo, @beta.
-- Output: dist|log2 n|k|alpha*|oracle ms|alpha fit|fit ms|fit slow|alpha c=3|c=3 ms|c=3 slow
WITH pts AS (
    SELECT dist, n, k, alpha, avg(median_ms) AS ms, max(rule4_alpha) AS a3 FROM measurements
    WHERE machine_id = @machine AND git_commit = @commit AND dtype = @dtype AND algorithm = @algo
      AND beta = @beta AND sort_order = 'largest' AND status = 'ok'
      AND flags = rule4_flags   -- drtopk_plan_rule4's at this alpha (fig_rows.sql)
      AND coalesce(verify_ok, 1) = 1 AND median_ms IS NOT NULL
    GROUP BY dist, n, k, alpha
),
grp AS (
    SELECT dist, n, k, min(ms) AS best, max(a3) AS a3 FROM pts GROUP BY dist, n, k HAVING count(*) >= 3
),
want AS (       -- Rule 4's alpha for the fitted const: the store's (fit_alphas), as a3 is for 3
    SELECT g.*,
           (SELECT min(alpha) FROM pts p
            WHERE p.dist = g.dist AND p.n = g.n AND p.k = g.k AND p.ms = g.best) AS astar,
           (SELECT fa.alpha FROM fit_alphas fa JOIN fits f USING (machine_id, dtype, algorithm, beta, const_time)
            WHERE fa.machine_id = @machine AND fa.dtype = @dtype AND fa.algorithm = @algo
              AND fa.beta = @beta AND fa.n = g.n AND fa.k = g.k) AS afit
    FROM grp g
),
near AS (      -- nearest measured alpha: min of |alpha - a| * ALPHA_KEY + alpha, where
               -- ALPHA_KEY = 64 > every alpha breaks ties to the smaller alpha
    SELECT w.*,
           (SELECT min(abs(p.alpha - w.afit) * 64 + p.alpha) FROM pts p
            WHERE p.dist = w.dist AND p.n = w.n AND p.k = w.k) % 64 AS nfit,
           (SELECT min(abs(p.alpha - w.a3) * 64 + p.alpha) FROM pts p
            WHERE p.dist = w.dist AND p.n = w.n AND p.k = w.k) % 64 AS n3
    FROM want w
),
tab AS (
    SELECT n.*,
           CASE WHEN n.afit IS NOT NULL THEN
               (SELECT ms FROM pts p WHERE p.dist = n.dist AND p.n = n.n AND p.k = n.k AND p.alpha = n.nfit)
           END AS tfit,
           (SELECT ms FROM pts p WHERE p.dist = n.dist AND p.n = n.n AND p.k = n.k AND p.alpha = n.n3) AS t3
    FROM near n
)
SELECT dist, log2n, k, astar, oracle, afit, tfit, sfit, a3, t3, s3 FROM (
    SELECT dist, printf('%.2f', log2(n)) AS log2n, k, astar, printf('%.4f', best) AS oracle,
           coalesce(afit || CASE WHEN nfit <> afit THEN '~' ELSE '' END, '-') AS afit,
           CASE WHEN tfit IS NULL THEN '-' ELSE printf('%.4f', tfit) END AS tfit,
           CASE WHEN tfit IS NULL THEN '-' ELSE printf('%.3fx', tfit / best) END AS sfit,
           a3 || CASE WHEN n3 <> a3 THEN '~' ELSE '' END AS a3,
           printf('%.4f', t3) AS t3, printf('%.3fx', t3 / best) AS s3,
           0 AS part, CASE dist WHEN 'UD' THEN 0 WHEN 'ND' THEN 1 WHEN 'CD' THEN 2 ELSE 3 END AS drank,
           n AS nn, k AS kk
    FROM tab
    UNION ALL
    SELECT 'mean', '', '', '', '', '', '', CASE WHEN count(tfit) = 0 THEN '-' ELSE printf('%.3fx', avg(tfit / best)) END, '', '',
           printf('%.3fx', avg(t3 / best)), 1, 0, 0, 0
    FROM tab HAVING count(*) > 0
    UNION ALL
    SELECT 'worst', '', '', '', '', '', '', CASE WHEN count(tfit) = 0 THEN '-' ELSE printf('%.3fx', max(tfit / best)) END, '', '',
           printf('%.3fx', max(t3 / best)), 2, 0, 0, 0
    FROM tab HAVING count(*) > 0
)
ORDER BY part, drank, dist, nn, kk;
