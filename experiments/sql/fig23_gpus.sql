-- fig23_gpus.sql -- Figure 23 (paper 6.5): Dr.-radix median ms vs k at |V| = @n
-- on UD, Rule 4 alpha (const 3), beta 2, default flags, on machine @machine.
-- Output: k|ms
SELECT k, median_ms FROM m
WHERE algorithm = 'dr-radix' AND dist = 'UD' AND n = @n AND alpha = rule4_alpha AND beta = 2 AND flags = rule4_flags
ORDER BY k;
