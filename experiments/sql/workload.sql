-- workload.sql -- Figures 20 and 21 (paper 6.2): Dr.-radix's workloads on UD,
-- beta 2, Rule 4 alpha (const 3), default flags: the first top-k's input |D|
-- (delegate_len) and the second's |C| (concat_len), every n and k.
-- Output: n|k|delegate_len|concat_len
SELECT n, k, delegate_len, concat_len FROM m
WHERE algorithm = 'dr-radix' AND dist = 'UD' AND beta = 2 AND alpha = rule4_alpha AND flags = rule4_flags
  AND delegate_len IS NOT NULL AND concat_len IS NOT NULL
ORDER BY n, k;
