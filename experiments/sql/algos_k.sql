-- algos_k.sql -- Figures 4 and 18 (paper 3.1, 6.1): per distribution and k at
-- |V| = @n, the median ms of each standalone algorithm and of its Dr.-assisted
-- version (Rule 4 alpha with const 3, beta 2, default flags).
-- Output: dist|algorithm|k|ms|base|dr
SELECT dist, algorithm, k, median_ms, base, dr FROM m
WHERE n = @n AND dist IN ('UD', 'ND', 'CD')
  AND ((dr = 0 AND beta = 0) OR (dr = 1 AND alpha = rule4_alpha AND beta = 2 AND flags = rule4_flags))
ORDER BY dist, dr, algorithm, k;
