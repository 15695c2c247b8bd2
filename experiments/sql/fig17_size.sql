-- fig17_size.sql -- Figure 17 (paper 6.1): median ms vs |V| at k = @k on UD, each
-- standalone algorithm, each Dr.-assisted one (Rule 4 alpha with const 3,
-- beta 2, default flags), and the modern peers, each at its fastest valid
-- configuration per point (fig_rows.sql's pb).  Output: series|n|ms
SELECT algorithm, n, median_ms FROM m
WHERE dist = 'UD' AND k = @k
  AND ((dr = 0 AND beta = 0) OR (dr = 1 AND alpha = rule4_alpha AND beta = 2 AND flags = rule4_flags))
UNION ALL
SELECT 'peer ' || family, n, median_ms FROM pb WHERE dist = 'UD' AND k = @k
ORDER BY 1, 2;
