-- fig12_radix.sql -- Figure 12 (paper 5.1): the flag-based in-place radix
-- top-k ("radix") and GGKS in-place radix ("radix-ggks") standalone on UD at
-- |V| = @n: k|radix ms|radix-ggks ms|speedup
SELECT a.k, a.median_ms, g.median_ms, g.median_ms / a.median_ms
FROM m a JOIN m g ON g.k = a.k AND g.n = a.n AND g.dist = a.dist
WHERE a.algorithm = 'radix' AND g.algorithm = 'radix-ggks' AND a.dist = 'UD' AND a.n = @n
ORDER BY a.k;
