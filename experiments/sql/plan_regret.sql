-- plan_regret.sql -- the automatic plan's regret: at each
-- point (machine, commit, dtype, dist, seed, n, k) that `tuner --regret`
-- measured, the library's automatic plan (a measurement row with algorithm
-- 'auto-builtin': no tuning database, the compiled-in table or the size rules;
-- or 'auto-tuned': with this machine's tuning) against the forced plans of the
-- same run (every other algorithm's row at that point), the fastest of which
-- the tuner times again right beside the automatic plan (a row labelled
-- 'auto-builtin-ref' or 'auto-tuned-ref' with that plan: the card's clocks
-- drift by 10% and more over a sweep of minutes, so a regret compares two
-- times of one moment; where that row is missing, the forced plan's own):
--   regret = auto_ms / min(auto_ms, the fastest forced plan's median_ms)
-- 1.00 where the automatic plan is at least as fast as every forced plan,
-- and 1.00 where the fastest forced plan is the automatic plan itself: the
-- two times are then one plan timed twice, and their ratio is the run's
-- noise, not a choice the planner got wrong ('noise' in the summary).
-- Rows used: status 'ok' with a median, verified correct or not checked
-- (verify_ok 1 or NULL), order largest, the same timing method (a 'gpu' row
-- is never set against a 'call' row), the same commit (a point never mixes
-- commits), and no commit of a tree with uncommitted changes ('...-dirty':
-- not reproducible) unless @dirty = 1 (a check of the commands only).  A point
-- with no usable forced row has no regret and is left out; failed, skipped and
-- unsupported forced rows are ignored.  Parameters: @dirty (0 or 1), @part,
-- @drawn (@part 'verified': a commit),
-- @machine (a machine id; -1: every machine, for @part 'summary'),
-- @worst_target (@part 'summary': the regret a point counts as over, the
-- target's 1.05).  Output by @part:
--   'summary': one row per (machine, commit, tuning, dtype), latest commit first:
--       machine|uuid|commit|tuning|dtype|points|worst|worst dist|worst n|worst k|
--       auto plan there|best plan there|median|points over @worst_target|noise
--       (noise: the largest auto ms / fastest ms where the two are one plan,
--       '-' where no point has the automatic plan as its fastest forced plan)
--   'points': machine @machine's rows for the figure, of one commit: the latest
--       commit with usable automatic-plan rows (a panel never mixes commits),
--       the worst distribution per cell:
--       commit|tuning|dtype|n|k|worst regret|its dist|points in cell
--   'count': machine @machine's automatic-plan rows: all|of clean commits|1
--       where a machine of its GPU model has such rows (of a clean commit
--       unless @dirty = 1), else
--       0 (why a panel has no rows, and whether another card's panel stands
--       for its model).
--   'verified': machine @machine's rows of status ok at commit @drawn (the
--       commit 'points' drew): all|verified (the panel's provenance).
--   'superseded': the uuid of another machine of @machine's GPU model whose
--       latest automatic-plan row is newer than @machine's (the figure draws
--       one run per GPU model, the newest), or no row.
-- 'count' and 'superseded' match the automatic plan's rows by GLOB, which can
-- range over an index on (machine_id, algorithm) (run_all.sh's REF_INDEXES),
-- where LIKE, case-insensitive, cannot.
-- No math functions (log2): Python's sqlite3 module may lack them
-- (experiments/plan_regret.sh prints the summary through it).
-- A plan is written "dr-radix a11 b2 f11" (the delegate pipeline: first/second
-- algorithm, alpha, beta, DRTOPK_* flags) or by its algorithm ("onepass").
CREATE TEMP TABLE regret_rows AS
SELECT x.id, x.machine_id, x.git_commit, x.algorithm, x.dtype, x.dist, x.seed, x.n, x.k, x.timing, x.median_ms,
       x.measured_at,
       CASE WHEN x.algorithm LIKE 'auto-%-ref' THEN substr(x.algorithm, 6, length(x.algorithm) - 9)
            WHEN x.algorithm LIKE 'auto-%' THEN substr(x.algorithm, 6) END AS tuning,
       x.algorithm LIKE 'auto-%-ref' AS is_ref,
       CASE WHEN x.flags & 1 THEN
                 CASE WHEN x.first_algo = x.second_algo OR x.first_algo = '' THEN 'dr-' || x.second_algo
                      ELSE 'dr-' || x.first_algo || '/' || x.second_algo END
                 || printf(' a%d b%d f%d', x.alpha, x.beta, x.flags)
            WHEN x.algorithm LIKE 'auto-%' THEN coalesce(nullif(x.second_algo, ''), nullif(x.first_algo, ''), '?')
            ELSE x.algorithm END AS plan
FROM measurements x
WHERE @part IN ('summary', 'points')      -- 'count', 'verified' and 'superseded' read measurements only
  AND x.algorithm LIKE 'auto-%' AND (@machine < 0 OR x.machine_id = @machine)
  AND x.status = 'ok' AND x.median_ms IS NOT NULL AND coalesce(x.verify_ok, 1) = 1
  AND x.sort_order = 'largest' AND (@dirty = 1 OR x.git_commit NOT LIKE '%-dirty');

-- the automatic plan per point and tuning: the latest row (a second tuned run at
-- one commit may have resolved another plan)
CREATE TEMP TABLE regret_auto AS
SELECT * FROM (
    SELECT r.*, row_number() OVER (PARTITION BY r.machine_id, r.git_commit, r.tuning, r.dtype, r.dist, r.seed,
                                                r.n, r.k, r.timing
                                   ORDER BY r.measured_at DESC, r.id DESC) AS rn
    FROM regret_rows r WHERE NOT r.is_ref
) WHERE rn = 1;

-- the fastest forced plan timed again beside the automatic plan: the latest per point and tuning
CREATE TEMP TABLE regret_ref AS
SELECT * FROM (
    SELECT r.*, row_number() OVER (PARTITION BY r.machine_id, r.git_commit, r.tuning, r.dtype, r.dist, r.seed,
                                                r.n, r.k, r.timing
                                   ORDER BY r.measured_at DESC, r.id DESC) AS rn
    FROM regret_rows r WHERE r.is_ref
) WHERE rn = 1;

-- the forced plans' rows at those points only (a database of other sweeps costs a scan)
INSERT INTO regret_rows
SELECT x.id, x.machine_id, x.git_commit, x.algorithm, x.dtype, x.dist, x.seed, x.n, x.k, x.timing, x.median_ms,
       x.measured_at, NULL, 0,
       CASE WHEN x.flags & 1 THEN
                 CASE WHEN x.first_algo = x.second_algo OR x.first_algo = '' THEN 'dr-' || x.second_algo
                      ELSE 'dr-' || x.first_algo || '/' || x.second_algo END
                 || printf(' a%d b%d f%d', x.alpha, x.beta, x.flags)
            ELSE x.algorithm END
FROM measurements x
JOIN (SELECT DISTINCT machine_id, git_commit, dtype, dist, seed, n, k, timing FROM regret_auto) a
  ON a.machine_id = x.machine_id AND a.git_commit = x.git_commit AND a.dtype = x.dtype AND a.dist = x.dist
 AND a.seed = x.seed AND a.n = x.n AND a.k = x.k AND a.timing = x.timing
WHERE x.algorithm NOT LIKE 'auto-%'
  AND x.status = 'ok' AND x.median_ms IS NOT NULL AND coalesce(x.verify_ok, 1) = 1 AND x.sort_order = 'largest';

-- the fastest forced plan per point (ties: the first plan by name)
CREATE TEMP TABLE regret_best AS
SELECT * FROM (
    SELECT r.*, row_number() OVER (PARTITION BY r.machine_id, r.git_commit, r.dtype, r.dist, r.seed, r.n, r.k,
                                                r.timing
                                   ORDER BY r.median_ms, r.plan) AS rn,
           count(*) OVER (PARTITION BY r.machine_id, r.git_commit, r.dtype, r.dist, r.seed, r.n, r.k,
                                       r.timing) AS forced
    FROM regret_rows r WHERE r.tuning IS NULL
) WHERE rn = 1;

CREATE TEMP TABLE regret_points AS
SELECT a.machine_id, a.git_commit, a.tuning, a.dtype, a.dist, a.seed, a.n, a.k, a.timing,
       a.median_ms AS auto_ms, a.plan AS auto_plan, coalesce(f.median_ms, b.median_ms) AS best_ms,
       coalesce(f.plan, b.plan) AS best_plan, b.forced,
       a.plan IN (b.plan, coalesce(f.plan, b.plan)) AS same_plan,
       CASE WHEN a.plan IN (b.plan, coalesce(f.plan, b.plan)) THEN 1.0
            ELSE a.median_ms / min(a.median_ms, coalesce(f.median_ms, b.median_ms)) END AS regret,
       a.median_ms / min(a.median_ms, coalesce(f.median_ms, b.median_ms)) AS raw_regret,
       a.measured_at
FROM regret_auto a
JOIN regret_best b ON b.machine_id = a.machine_id AND b.git_commit = a.git_commit AND b.dtype = a.dtype
                  AND b.dist = a.dist AND b.seed = a.seed AND b.n = a.n AND b.k = a.k AND b.timing = a.timing
LEFT JOIN regret_ref f ON f.machine_id = a.machine_id AND f.git_commit = a.git_commit AND f.tuning = a.tuning
                      AND f.dtype = a.dtype AND f.dist = a.dist AND f.seed = a.seed AND f.n = a.n AND f.k = a.k
                      AND f.timing = a.timing;

-- per group: the worst point (ties: the largest n, then k) and the median
CREATE TEMP TABLE regret_summary AS
WITH o AS (
    SELECT p.*,
           row_number() OVER (PARTITION BY p.machine_id, p.git_commit, p.tuning, p.dtype
                              ORDER BY p.regret DESC, p.n DESC, p.k DESC, p.dist, p.seed) AS worst_rank,
           row_number() OVER (PARTITION BY p.machine_id, p.git_commit, p.tuning, p.dtype ORDER BY p.regret) AS up,
           count(*) OVER (PARTITION BY p.machine_id, p.git_commit, p.tuning, p.dtype) AS points
    FROM regret_points p
)
SELECT w.machine_id, w.git_commit, w.tuning, w.dtype, w.points, w.regret AS worst, w.dist AS worst_dist,
       w.n AS worst_n, w.k AS worst_k, w.auto_plan AS worst_auto, w.best_plan AS worst_best,
       (SELECT avg(m.regret) FROM o m WHERE m.machine_id = w.machine_id AND m.git_commit = w.git_commit
                                        AND m.tuning = w.tuning AND m.dtype = w.dtype
                                        AND m.up IN ((m.points + 1) / 2, m.points / 2 + 1)) AS median,
       (SELECT count(*) FROM o v WHERE v.machine_id = w.machine_id AND v.git_commit = w.git_commit
                                   AND v.tuning = w.tuning AND v.dtype = w.dtype AND v.regret > @worst_target) AS over,
       (SELECT max(measured_at) FROM o l WHERE l.machine_id = w.machine_id AND l.git_commit = w.git_commit)
           AS latest,
       (SELECT max(z.raw_regret) FROM o z WHERE z.machine_id = w.machine_id AND z.git_commit = w.git_commit
                                            AND z.tuning = w.tuning AND z.dtype = w.dtype AND z.same_plan) AS noise
FROM o w WHERE w.worst_rank = 1;

SELECT m.name, m.uuid, s.git_commit, s.tuning, s.dtype, s.points, printf('%.3f', s.worst), s.worst_dist,
       s.worst_n, s.worst_k, s.worst_auto, s.worst_best, printf('%.3f', s.median), s.over,
       CASE WHEN s.noise IS NULL THEN '-' ELSE printf('%.3f', s.noise) END
FROM regret_summary s JOIN machines m ON m.id = s.machine_id
WHERE @part = 'summary'
ORDER BY m.backend = 'cpu', m.name, m.uuid, s.latest DESC, s.git_commit,
         CASE s.tuning WHEN 'builtin' THEN 0 ELSE 1 END, s.tuning,
         CASE s.dtype WHEN 'u32' THEN 0 WHEN 'i32' THEN 1 WHEN 'f32' THEN 2 WHEN 'f16' THEN 3 WHEN 'bf16' THEN 4
                      WHEN 'u64' THEN 5 WHEN 'i64' THEN 6 WHEN 'f64' THEN 7 ELSE 8 END, s.dtype;

SELECT p.git_commit, p.tuning, p.dtype, p.n, p.k,
       printf('%.4f', max(p.regret)),
       (SELECT q.dist FROM regret_points q WHERE q.machine_id = p.machine_id AND q.git_commit = p.git_commit
            AND q.tuning = p.tuning AND q.dtype = p.dtype AND q.n = p.n AND q.k = p.k
        ORDER BY q.regret DESC, q.dist LIMIT 1),
       count(*)
FROM regret_points p
WHERE @part = 'points' AND p.machine_id = @machine
  AND p.git_commit = (SELECT q.git_commit FROM regret_points q WHERE q.machine_id = @machine
                      GROUP BY q.git_commit ORDER BY max(q.measured_at) DESC, q.git_commit LIMIT 1)
GROUP BY p.tuning, p.dtype, p.n, p.k
ORDER BY CASE p.tuning WHEN 'builtin' THEN 0 ELSE 1 END, p.tuning,
         CASE p.dtype WHEN 'u32' THEN 0 WHEN 'i32' THEN 1 WHEN 'f32' THEN 2 WHEN 'f16' THEN 3 WHEN 'bf16' THEN 4
                      WHEN 'u64' THEN 5 WHEN 'i64' THEN 6 WHEN 'f64' THEN 7 ELSE 8 END, p.dtype, p.n, p.k;

SELECT * FROM (
    SELECT count(*), coalesce(sum(x.git_commit NOT LIKE '%-dirty'), 0),
           EXISTS (SELECT 1 FROM machines m2 JOIN measurements x2 ON x2.machine_id = m2.id
                   WHERE m2.name = (SELECT m.name FROM machines m WHERE m.id = @machine)
                     AND x2.algorithm GLOB 'auto-*' AND (@dirty = 1 OR x2.git_commit NOT LIKE '%-dirty'))
    FROM measurements x WHERE x.machine_id = @machine AND x.algorithm GLOB 'auto-*'
) WHERE @part = 'count';

-- the rows of the commit 'points' drew, and how many of them were checked
-- against the reference (the panel's provenance: every row verified or not)
SELECT * FROM (
    SELECT count(*), coalesce(sum(x.verified), 0)
    FROM measurements x
    WHERE x.machine_id = @machine AND x.status = 'ok' AND x.git_commit = @drawn
) WHERE @part = 'verified';

SELECT m2.uuid
FROM machines m2 JOIN measurements x2 ON x2.machine_id = m2.id
WHERE @part = 'superseded' AND m2.id <> @machine
  AND m2.name = (SELECT m.name FROM machines m WHERE m.id = @machine)
  AND x2.algorithm GLOB 'auto-*' AND (@dirty = 1 OR x2.git_commit NOT LIKE '%-dirty')
GROUP BY m2.id
HAVING max(x2.measured_at) > coalesce((SELECT max(x.measured_at) FROM measurements x
                                       WHERE x.machine_id = @machine AND x.algorithm GLOB 'auto-*'
                                         AND (@dirty = 1 OR x.git_commit NOT LIKE '%-dirty')), '')
ORDER BY max(x2.measured_at) DESC, m2.uuid LIMIT 1;
