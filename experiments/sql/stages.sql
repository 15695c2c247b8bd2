-- stages.sql -- Figures 6, 7, 10, 15 (paper 4.1-4.3, 5.3): Dr.-radix's median
-- stage times vs k at |V| = @n on UD, Rule 4 alpha (const 3), beta @beta, plan
-- flags @flags (-1: the default flags of that alpha).  Output:
-- k|delegate ms|first ms|concat ms|second ms|total ms|plan flags
SELECT k, ms_delegate, ms_first, ms_concat, ms_second, median_ms, flags FROM m
WHERE algorithm = 'dr-radix' AND dist = 'UD' AND n = @n AND alpha = rule4_alpha AND beta = @beta
  AND flags = CASE WHEN @flags < 0 THEN rule4_flags ELSE @flags END
ORDER BY k;
