-- fig14_oracle.sql -- Figure 14 (paper 5.2): per k at |V| = @n (UD, dr-radix,
-- beta 2, default flags), the oracle alpha* (fastest of 5 or more measured
-- alphas: at least fig14_oracle.sh's --quick sweep, Rule 4's alpha +-2; Rule
-- 4's alpha +-1 alone, as plan_regret.sh measures, would make Rule 4 its own
-- oracle's neighbour) and its ms, and the ms at Rule 4's alpha with the paper's const 3 and
-- with this machine's fitted const_time (fit_alphas: the store's
-- drtopk_rule4_alpha for the fit) ('-' where that alpha was not measured).
-- Output: k|alpha*|oracle ms|alpha c=3|ms c=3|alpha fit|ms fit
WITH pts AS (
    SELECT k, alpha, median_ms AS ms, rule4_alpha AS a3, n FROM m
    WHERE algorithm = 'dr-radix' AND dist = 'UD' AND n = @n AND beta = 2 AND flags = rule4_flags
),
grp AS (
    SELECT k, min(ms) AS best, max(a3) AS a3, max(n) AS n FROM pts GROUP BY k HAVING count(DISTINCT alpha) >= 5
),
g2 AS (
    SELECT g.*, (SELECT min(alpha) FROM pts p WHERE p.k = g.k AND p.ms = g.best) AS astar,
           (SELECT fa.alpha FROM fit_alphas fa JOIN fits f USING (machine_id, dtype, algorithm, beta, const_time)
            WHERE fa.machine_id = @machine AND fa.dtype = 'u32' AND fa.algorithm = 'dr-radix'
              AND fa.beta = 2 AND fa.n = g.n AND fa.k = g.k) AS afit
    FROM grp g
)
SELECT k, astar, best, a3,
       coalesce((SELECT ms FROM pts p WHERE p.k = g2.k AND p.alpha = g2.a3), '-'),
       coalesce(afit, '-'),
       coalesce((SELECT ms FROM pts p WHERE p.k = g2.k AND p.alpha = g2.afit), '-')
FROM g2 ORDER BY k;
