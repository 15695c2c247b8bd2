-- real_data.sql -- Table 1 and Figure 19 (paper 6, 6.1): the rows
-- measured on real data sets (bin/tuner --input, run by experiments/datasets.sh:
-- seed 0, the data set's name as the dist, any key type), each plain algorithm
-- beside its Dr.-assisted version at Rule 4's alpha (const 3), beta 2 and the
-- default flags.
-- Output: dataset|n|dtype|k|base|plain ms|Dr. ms ('-' where not measured)
WITH r AS (
    SELECT * FROM mall WHERE seed = 0 AND dist NOT IN ('UD', 'ND', 'CD', 'ASC', 'DESC', 'FEW', 'EQ', 'SPECIAL')
)
SELECT a.dist, a.n, a.dtype, a.k, a.base, a.median_ms,
       coalesce((SELECT d.median_ms FROM r d WHERE d.dist = a.dist AND d.dtype = a.dtype AND d.n = a.n
                 AND d.k = a.k AND d.base = a.base AND d.dr = 1 AND d.alpha = d.rule4_alpha AND d.beta = 2
                 AND d.flags = d.rule4_flags), '-')
FROM r a WHERE a.dr = 0 AND a.beta = 0
ORDER BY a.dist, a.base, a.k;
