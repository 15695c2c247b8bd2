-- fig_rows.sql -- prelude of every figure query (experiments/lib/common.sh,
-- docs/artifact.md): temp table `mall` holds machine @machine's successful, verified
-- (or unchecked) measurements of order largest, every dtype and seed, the
-- latest row of each configuration across commits (a rerun at a newer commit
-- replaces older rows, older commits still fill what it lacks); temp table `m`
-- those of dtype u32 and seed @seed (the generated data of the figures), with
--   base  the algorithm without "dr-", dr 1 for the delegate pipeline,
-- and, as every measurement, the store's rule4_alpha (Rule 4's alpha with the
-- paper's const 3) and rule4_flags (the flags drtopk_plan_rule4 gives a dr-
-- plan at the row's alpha; db/schema.sql, migration 11).
-- Temp table `p` holds the machine's peer rows (CUB DeviceTopK, torch.topk) the same way,
-- one per configuration: a peer named "FAMILY.CONFIG" (cub_device_topk.i32.3.5.0: item
-- count width and CCCL version) is a configuration of FAMILY.  Temp table `pb` holds each
-- family's fastest valid configuration per point (min median over its configurations
-- whose result passed the peer's check: the peers at their best), with
-- `family` and `configs` (how many it was chosen from).
-- A panel draws the rows of one commit: @commit (experiments/lib/common.sh
-- exp_pick sets it: the newest commit whose query gives rows); NULL: the latest
-- row of each configuration across commits.  Rows of a tree with uncommitted
-- changes ("-dirty") never draw for a GPU (the CPU backend's rows are checks of
-- the commands, drawn also from a modified tree).  @verified = 1 keeps only rows checked against
-- the reference (verify_ok = 1); else unchecked rows count too (the verdict then
-- says "unverified").
CREATE TEMP TABLE mall AS
SELECT * FROM (
    SELECT x.*,
           CASE WHEN x.algorithm LIKE 'dr-%' THEN substr(x.algorithm, 4) ELSE x.algorithm END AS base,
           x.algorithm LIKE 'dr-%' AS dr,
           row_number() OVER (PARTITION BY x.algorithm, x.first_algo, x.second_algo, x.dtype, x.dist, x.seed,
                                           x.n, x.k, x.alpha, x.beta, x.flags
                              ORDER BY x.measured_at DESC, x.id DESC) AS rn
    FROM measurements x
    WHERE x.machine_id = @machine AND x.sort_order = 'largest'
      AND x.status = 'ok' AND x.median_ms IS NOT NULL
      AND (x.git_commit NOT LIKE '%-dirty' OR @machine IN (SELECT id FROM machines WHERE backend = 'cpu')) AND (@commit IS NULL OR x.git_commit = @commit)
      AND CASE WHEN @verified = 1 THEN x.verify_ok = 1 ELSE coalesce(x.verify_ok, 1) = 1 END
      AND x.algorithm NOT LIKE 'auto-%'     -- the automatic plan (tuner --regret): no algorithm of a figure
) WHERE rn = 1;
CREATE TEMP TABLE m AS SELECT * FROM mall WHERE dtype = 'u32' AND seed = @seed;
CREATE TEMP TABLE p AS
SELECT * FROM (
    SELECT y.*, row_number() OVER (PARTITION BY y.peer, y.dist, y.n, y.k
                                   ORDER BY y.measured_at DESC, y.id DESC) AS rn
    FROM peer_measurements y
    WHERE y.machine_id = @machine AND y.dtype = 'u32' AND y.status = 'ok' AND y.median_ms IS NOT NULL
) WHERE rn = 1;
CREATE TEMP TABLE pb AS
SELECT * FROM (
    SELECT f.*, row_number() OVER (PARTITION BY f.family, f.dist, f.n, f.k ORDER BY f.median_ms, f.peer) AS best,
           count(*) OVER (PARTITION BY f.family, f.dist, f.n, f.k) AS configs
    FROM (SELECT p.*, CASE WHEN instr(p.peer, '.') > 0 THEN substr(p.peer, 1, instr(p.peer, '.') - 1)
                           ELSE p.peer END AS family
          FROM p WHERE p.verified = 1) f
) WHERE best = 1;
