-- fig09_beta.sql -- Figure 9 (paper 4.3): Dr.-radix median ms per beta on UD at
-- Rule 4's alpha (const 3) with the default flags, every n and k.
-- Output: n|k|beta|ms
SELECT n, k, beta, median_ms FROM m
WHERE algorithm = 'dr-radix' AND dist = 'UD' AND alpha = rule4_alpha AND flags = rule4_flags AND beta > 0
ORDER BY n, k, beta;
