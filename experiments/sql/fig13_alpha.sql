-- fig13_alpha.sql -- Figure 13 (paper 5.2): Dr.-radix median ms vs alpha on UD,
-- beta 2, default flags, at the k nearest to @k (log scale, ties to the smaller)
-- among those measured at 3 or more alphas, every n; with Rule 4's alpha for
-- the paper's const 3 and for this machine's fitted const_time (fit_alphas:
-- the store's drtopk_rule4_alpha for the fit, never recomputed here).
-- Output: n|k|alpha|ms|alpha const 3|alpha fitted ('-' without a fit)
WITH kk AS (
    SELECT k FROM m WHERE algorithm = 'dr-radix' AND dist = 'UD' AND beta = 2 AND flags = rule4_flags
    GROUP BY k HAVING count(DISTINCT alpha) >= 3
    ORDER BY abs(log2(k) - log2(@k)), k LIMIT 1
)
SELECT m.n, m.k, m.alpha, m.median_ms, m.rule4_alpha,
       coalesce((SELECT fa.alpha FROM fit_alphas fa JOIN fits f USING (machine_id, dtype, algorithm, beta, const_time)
                 WHERE fa.machine_id = @machine AND fa.dtype = 'u32' AND fa.algorithm = 'dr-radix'
                   AND fa.beta = 2 AND fa.n = m.n AND fa.k = m.k), '-')
FROM m JOIN kk ON kk.k = m.k
WHERE m.algorithm = 'dr-radix' AND m.dist = 'UD' AND m.beta = 2 AND m.flags = m.rule4_flags
ORDER BY m.n, m.alpha;
