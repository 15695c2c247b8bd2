-- fig22_filter_beta.sql -- Figure 22 (paper 6.2): Dr.-radix median ms vs k at
-- |V| = @n on UD, Rule 4 alpha (const 3), with the optimized delegate build, for
-- three plans: Rule 2 filtering alone (beta 1), beta = 2 delegates alone (no
-- filtering: default flags minus DRTOPK_FILTER = 2), and both (beta 2, default).
-- Output: plan|k|ms
SELECT CASE WHEN beta = 1 THEN 'filtering only (beta 1)'
            WHEN flags = rule4_flags THEN 'filtering + beta 2'
            ELSE 'beta 2 only (no filtering)' END, k, median_ms
FROM m
WHERE algorithm = 'dr-radix' AND dist = 'UD' AND n = @n AND alpha = rule4_alpha
  AND ((beta = 1 AND flags = rule4_flags) OR (beta = 2 AND flags IN (rule4_flags, rule4_flags - 2)))
ORDER BY 1, k;
