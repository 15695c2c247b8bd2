-- peer_configs.sql -- the modern peers' configurations a figure chose from
-- (fig_rows.sql's pb), dist @dist and k @k on machine @machine: per peer family,
-- the configurations measured, and the one chosen at the largest |V| with its
-- median.  Output: family|configs measured|chosen at max n|n|ms
SELECT b.family,
       (SELECT group_concat(peer, ' ') FROM (
            SELECT DISTINCT q.peer FROM p q
            WHERE q.dist = b.dist AND q.k = b.k AND q.verified = 1
              AND (q.peer = b.family OR q.peer LIKE b.family || '.%') ORDER BY q.peer)),
       b.peer, b.n, printf('%.3f', b.median_ms)
FROM pb b
WHERE b.dist = @dist AND b.k = @k AND b.n = (SELECT max(n) FROM pb c WHERE c.family = b.family AND c.dist = @dist AND c.k = @k)
ORDER BY b.family;
