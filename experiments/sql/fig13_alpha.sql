-- fig13_alpha.sql -- Figure 13 (paper 5.2): Dr.-radix median ms vs alpha on UD,
-- beta 2, default flags, at the k nearest to @k (log scale, ties to the smaller)
-- among those measured at 3 or more alphas, every n; with Rule 4's alpha for
-- the paper's const 3 and for this machine's fitted const_time (fits table).
-- Output: n|k|alpha|ms|alpha const 3|alpha fitted ('-' without a fit)
WITH kk AS (
    SELECT k FROM m WHERE algorithm = 'dr-radix' AND dist = 'UD' AND beta = 2 AND flags = rule4_flags
    GROUP BY k HAVING count(DISTINCT alpha) >= 3
    ORDER BY abs(log2(k) - log2(@k)), k LIMIT 1
),
cf AS (
    SELECT (SELECT const_time FROM fits WHERE machine_id = @machine AND dtype = 'u32'
                                         AND algorithm = 'dr-radix' AND beta = 2) AS c
)
SELECT m.n, m.k, m.alpha, m.median_ms, m.rule4_alpha,
       coalesce(max(1, min(max(1, min(24, CAST(ceil(log2(m.n)) AS INTEGER))),
                           CAST(round(0.5 * (cf.c + log2(m.n) - log2(m.k))) AS INTEGER))), '-')
FROM m JOIN kk ON kk.k = m.k, cf
WHERE m.algorithm = 'dr-radix' AND m.dist = 'UD' AND m.beta = 2 AND m.flags = m.rule4_flags
ORDER BY m.n, m.alpha;
