-- real_data.sql -- Table 1 and Figure 19 (paper 6, 6.1; issue 14): rows
-- measured on real data sets, i.e. whose dist is not one of drtopk gen's
-- synthetic distributions; the data set's name is the dist.  Each plain
-- algorithm with its Dr.-assisted version at Rule 4 alpha (const 3), beta 2.
-- Output: dataset|n|k|base|plain ms|Dr. ms ('-' where not measured)
WITH r AS (
    SELECT * FROM m WHERE dist NOT IN ('UD', 'ND', 'CD', 'ASC', 'DESC', 'FEW', 'EQ', 'SPECIAL')
)
SELECT a.dist, a.n, a.k, a.base, a.median_ms,
       coalesce((SELECT d.median_ms FROM r d WHERE d.dist = a.dist AND d.n = a.n AND d.k = a.k
                 AND d.base = a.base AND d.dr = 1 AND d.alpha = d.a3 AND d.beta = 2
                 AND d.flags = d.dflags), '-')
FROM r a WHERE a.dr = 0 AND a.beta = 0
ORDER BY a.dist, a.base, a.k;
