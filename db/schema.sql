-- schema.sql -- the drtopk results database (DESIGN.md "Measurements").
-- Every measurement names its machine, its run (program, arguments, commit) and
-- its full configuration; the tuner's Rule 4 fits (paper section 5.2) and the
-- per-k-range plan choices (the tuning table the CLI loads and passes to
-- drtopk_plan_auto) live beside them.
--
-- Versioned: src/harness/store.c embeds this file and applies, in order, every
-- "-- @migration N" block above the database's schema_version, each in one
-- transaction.  Never edit a released block; append a new one instead.  A
-- database whose version is newer than the last block here is refused.

-- @migration 1: machines, runs, measurements, fits
CREATE TABLE schema_version (
    version    INTEGER NOT NULL
);
INSERT INTO schema_version (version) VALUES (0);

CREATE TABLE machines (
    id              INTEGER PRIMARY KEY,
    uuid            TEXT NOT NULL UNIQUE,   -- GPU UUID, or "cpu:<host>" for the CPU backend
    name            TEXT NOT NULL,          -- GPU (or CPU) model
    backend         TEXT NOT NULL CHECK (backend IN ('cpu', 'cuda')),
    cc_major        INTEGER,
    cc_minor        INTEGER,
    sm_count        INTEGER,
    mem_bytes       INTEGER,
    l2_bytes        INTEGER,
    read_gbps       REAL,                   -- measured streaming read bandwidth
    driver_version  INTEGER,
    runtime_version INTEGER,
    first_seen      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    run_uuid    TEXT NOT NULL UNIQUE,       -- random; matches runs across merged databases
    machine_id  INTEGER NOT NULL REFERENCES machines(id),
    program     TEXT NOT NULL,
    argv        TEXT NOT NULL,              -- the full command line, space separated
    git_commit  TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    ended_at    TEXT,
    status      TEXT NOT NULL CHECK (status IN ('running', 'done', 'interrupted',
                                                 'time-limit', 'failed'))
);

CREATE TABLE measurements (
    id              INTEGER PRIMARY KEY,
    machine_id      INTEGER NOT NULL REFERENCES machines(id),
    run_id          INTEGER NOT NULL REFERENCES runs(id),
    git_commit      TEXT NOT NULL,
    -- configuration (all NOT NULL: SQLite's UNIQUE treats NULLs as distinct)
    algorithm       TEXT NOT NULL,          -- "dr-radix", "bucket", ... (dr- = delegate pipeline)
    first_algo      TEXT NOT NULL,          -- '' for standalone algorithms
    second_algo     TEXT NOT NULL,
    dtype           TEXT NOT NULL,
    dist            TEXT NOT NULL,
    seed            INTEGER NOT NULL,
    n               INTEGER NOT NULL,
    k               INTEGER NOT NULL,
    alpha           INTEGER NOT NULL,       -- 0 for standalone algorithms
    beta            INTEGER NOT NULL,       -- 0 for standalone algorithms
    flags           INTEGER NOT NULL,       -- DRTOPK_* plan flags
    sort_order      TEXT NOT NULL CHECK (sort_order IN ('largest', 'smallest')),
    -- outcome
    status          TEXT NOT NULL CHECK (status IN ('ok', 'unsupported', 'error')),
    error           TEXT,
    reps            INTEGER NOT NULL,
    median_ms       REAL,
    min_ms          REAL,
    max_ms          REAL,
    reps_ms         TEXT,                   -- JSON array of every repetition
    ms_delegate     REAL,                   -- per-stage medians
    ms_first        REAL,
    ms_concat       REAL,
    ms_second       REAL,
    delegate_len    INTEGER,
    first_selected  INTEGER,
    concat_len      INTEGER,
    scanned_subranges INTEGER,
    verified        INTEGER NOT NULL CHECK (verified IN (0, 1)),  -- checked against the reference
    verify_ok       INTEGER CHECK (verify_ok IN (0, 1)),          -- NULL when not checked
    verify_error    TEXT,
    measured_at     TEXT NOT NULL,
    UNIQUE (machine_id, git_commit, algorithm, first_algo, second_algo, dtype, dist,
            seed, n, k, alpha, beta, flags, sort_order)
);
CREATE INDEX measurements_fit ON measurements (machine_id, git_commit, dtype, algorithm, beta);

CREATE TABLE fits (
    id              INTEGER PRIMARY KEY,
    machine_id      INTEGER NOT NULL REFERENCES machines(id),
    git_commit      TEXT NOT NULL,
    dtype           TEXT NOT NULL,
    algorithm       TEXT NOT NULL,
    beta            INTEGER NOT NULL,
    const_time      REAL NOT NULL,          -- least total time lost vs the oracle alpha (used)
    const_lsq       REAL NOT NULL,          -- least squares on 2 alpha* - log2 n + log2 k
    mean_slowdown   REAL NOT NULL,          -- of Rule 4 with const_time vs the oracle
    worst_slowdown  REAL NOT NULL,
    points          INTEGER NOT NULL,       -- (dist, n, k) groups used
    fitted_at       TEXT NOT NULL,
    UNIQUE (machine_id, dtype, algorithm, beta)
);

-- @migration 2: microbenchmarked Eq. 11 constant, per-k-range plan choices
ALTER TABLE machines ADD COLUMN c_global REAL;   -- cycles of one dependent global load
ALTER TABLE machines ADD COLUMN c_shfl REAL;     -- cycles of one dependent __shfl_sync
ALTER TABLE fits ADD COLUMN const_theory REAL;   -- Eq. 11 from c_global, c_shfl

CREATE TABLE choices (
    id              INTEGER PRIMARY KEY,
    machine_id      INTEGER NOT NULL REFERENCES machines(id),
    git_commit      TEXT NOT NULL,
    dtype           TEXT NOT NULL,
    log2k_min       INTEGER NOT NULL,       -- this choice holds for log2k_min <= floor(log2 k) <= log2k_max
    log2k_max       INTEGER NOT NULL,
    algorithm       TEXT NOT NULL,
    beta            INTEGER NOT NULL,       -- 0 for standalone algorithms
    rule4_const     REAL NOT NULL,          -- the fitted const_time for (algorithm, beta)
    mean_slowdown   REAL NOT NULL,          -- of this choice vs the fastest measured config
    points          INTEGER NOT NULL,
    fitted_at       TEXT NOT NULL,
    UNIQUE (machine_id, dtype, log2k_min)
);

-- @migration 3: the modern peers (CUB DeviceTopK, torch.topk)
-- One row per JSON line of experiments/peers/run_peers.sh, imported with
-- `tuner --import-peers FILE.jsonl`.  A peer that did not run (not built, no
-- torch, no GPU) is a row with status 'skipped', its reason, and '' / 0 in the
-- configuration columns.
CREATE TABLE peer_measurements (
    id              INTEGER PRIMARY KEY,
    machine_id      INTEGER NOT NULL REFERENCES machines(id),
    run_id          INTEGER NOT NULL REFERENCES runs(id),   -- the import
    git_commit      TEXT NOT NULL,
    peer            TEXT NOT NULL,          -- "cub_device_topk", "torch_topk"
    peer_version    TEXT NOT NULL,          -- CCCL / torch version; '' unknown
    dist            TEXT NOT NULL,
    dtype           TEXT NOT NULL,
    seed            INTEGER NOT NULL,
    n               INTEGER NOT NULL,
    k               INTEGER NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('ok', 'skipped', 'error')),
    reason          TEXT,                   -- why skipped / the error
    reps            INTEGER NOT NULL,
    median_ms       REAL,
    min_ms          REAL,
    max_ms          REAL,
    reps_ms         TEXT,                   -- JSON array of every repetition, if printed
    verified        INTEGER NOT NULL CHECK (verified IN (0, 1)),  -- passed the peer's O(n) check
    measured_at     TEXT NOT NULL,          -- time of the import (the lines carry none)
    UNIQUE (machine_id, git_commit, peer, dist, dtype, seed, n, k)
);
CREATE INDEX peer_measurements_table ON peer_measurements (machine_id, dtype, n);

-- @migration 4: concurrent tuners share the work
-- A run records its process (pid on host) so that a later tuner on that host
-- can mark a run whose process is gone as 'killed'; runs is rebuilt for the
-- new status (SQLite cannot alter a CHECK), keeping every id.  A claim says
-- which run is measuring a configuration now (keyed like the measurement);
-- storing the measurement deletes it, and a claim whose run is no longer
-- 'running' or that is stale is taken over.
CREATE TABLE runs_v4 (
    id          INTEGER PRIMARY KEY,
    run_uuid    TEXT NOT NULL UNIQUE,
    machine_id  INTEGER NOT NULL REFERENCES machines(id),
    program     TEXT NOT NULL,
    argv        TEXT NOT NULL,
    git_commit  TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    ended_at    TEXT,
    status      TEXT NOT NULL CHECK (status IN ('running', 'done', 'interrupted',
                                                 'time-limit', 'failed', 'killed')),
    pid         INTEGER,                    -- the process, on host
    host        TEXT                        -- gethostname() of the run
);
INSERT INTO runs_v4 (id, run_uuid, machine_id, program, argv, git_commit, started_at, ended_at, status)
    SELECT id, run_uuid, machine_id, program, argv, git_commit, started_at, ended_at, status FROM runs;
DROP TABLE runs;
ALTER TABLE runs_v4 RENAME TO runs;

CREATE TABLE claims (
    id              INTEGER PRIMARY KEY,
    machine_id      INTEGER NOT NULL REFERENCES machines(id),
    run_id          INTEGER NOT NULL REFERENCES runs(id),
    git_commit      TEXT NOT NULL,
    algorithm       TEXT NOT NULL,
    first_algo      TEXT NOT NULL,
    second_algo     TEXT NOT NULL,
    dtype           TEXT NOT NULL,
    dist            TEXT NOT NULL,
    seed            INTEGER NOT NULL,
    n               INTEGER NOT NULL,
    k               INTEGER NOT NULL,
    alpha           INTEGER NOT NULL,
    beta            INTEGER NOT NULL,
    flags           INTEGER NOT NULL,
    sort_order      TEXT NOT NULL,
    claimed_at      TEXT NOT NULL,
    UNIQUE (machine_id, git_commit, algorithm, first_algo, second_algo, dtype, dist,
            seed, n, k, alpha, beta, flags, sort_order)
);

-- @migration 5: the decision table over (dtype, log2 n, log2 k) and its held-out check
-- A choice now holds for a log2 n range too, names the delegate build (the
-- shared/staged build up to shared_build_max_alpha, 0: the library's default),
-- its worst slowdown over the distributions measured at its grid point, and
-- whether the held-out check kept it ('kept'), dropped it for the default plan
-- ('dropped'), or has not run yet ('unchecked').
CREATE TABLE choices_v5 (
    id              INTEGER PRIMARY KEY,
    machine_id      INTEGER NOT NULL REFERENCES machines(id),
    git_commit      TEXT NOT NULL,
    dtype           TEXT NOT NULL,
    log2n_min       INTEGER NOT NULL,       -- holds for log2n_min <= floor(log2 n) <= log2n_max
    log2n_max       INTEGER NOT NULL,
    log2k_min       INTEGER NOT NULL,       -- and log2k_min <= floor(log2 k) <= log2k_max
    log2k_max       INTEGER NOT NULL,
    algorithm       TEXT NOT NULL,
    beta            INTEGER NOT NULL,
    rule4_const     REAL NOT NULL,          -- gives the chosen alpha at the grid point
    shared_build_max_alpha INTEGER NOT NULL DEFAULT 0,
    mean_slowdown   REAL NOT NULL,          -- vs the fastest measured config, over the distributions
    worst_slowdown  REAL NOT NULL DEFAULT 0,
    points          INTEGER NOT NULL,       -- measurements (distributions) the choice was made from
    status          TEXT NOT NULL DEFAULT 'unchecked' CHECK (status IN ('unchecked', 'kept', 'dropped')),
    fitted_at       TEXT NOT NULL,
    UNIQUE (machine_id, dtype, log2n_min, log2k_min)
);
INSERT INTO choices_v5 (machine_id, git_commit, dtype, log2n_min, log2n_max, log2k_min, log2k_max,
                        algorithm, beta, rule4_const, mean_slowdown, worst_slowdown, points, fitted_at)
    SELECT machine_id, git_commit, dtype, 0, 63, log2k_min, log2k_max, algorithm, beta, rule4_const,
           mean_slowdown, mean_slowdown, points, fitted_at FROM choices;
DROP TABLE choices;
ALTER TABLE choices_v5 RENAME TO choices;

-- One row per point the tuner checked a choice at: held-out points ('heldout',
-- n and k between the grid's) and the points of `tuner --compare`
-- ('compare').  default_ms_a/_b (and tuned_ms_a/_b) are two measurements of
-- the same plan taken apart in time: their difference is the run-to-run noise.
CREATE TABLE checks (
    id              INTEGER PRIMARY KEY,
    machine_id      INTEGER NOT NULL REFERENCES machines(id),
    git_commit      TEXT NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('heldout', 'compare')),
    dtype           TEXT NOT NULL,
    dist            TEXT NOT NULL,
    seed            INTEGER NOT NULL,
    n               INTEGER NOT NULL,
    k               INTEGER NOT NULL,
    tuned_algorithm TEXT NOT NULL,
    tuned_alpha     INTEGER NOT NULL,
    tuned_beta      INTEGER NOT NULL,
    tuned_flags     INTEGER NOT NULL,
    default_alpha   INTEGER NOT NULL,
    default_beta    INTEGER NOT NULL,
    default_flags   INTEGER NOT NULL,
    default_ms_a    REAL NOT NULL,
    default_ms_b    REAL NOT NULL,
    tuned_ms_a      REAL NOT NULL,
    tuned_ms_b      REAL NOT NULL,
    best_ms         REAL,                   -- 'compare': the fastest measured plan at this point
    best_config     TEXT,                   -- its algorithm, alpha, beta, flags
    checked_at      TEXT NOT NULL,
    UNIQUE (machine_id, git_commit, kind, dtype, dist, seed, n, k, tuned_algorithm, tuned_alpha,
            tuned_beta, tuned_flags)
);

-- @migration 6: multi-GPU and out-of-core runs of bin/drtopk-mpi (paper
-- section 5.4, Table 2).  One row per run: the configuration (as a measurement's,
-- plus the rank count and the sub-vector cap), the medians of the total, the
-- slowest rank's compute and host-to-device reload, and rank 0's reduction.
CREATE TABLE multi_gpu (
    id              INTEGER PRIMARY KEY,
    machine_id      INTEGER NOT NULL REFERENCES machines(id),   -- rank 0's GPU (or host)
    run_id          INTEGER NOT NULL REFERENCES runs(id),
    git_commit      TEXT NOT NULL,
    algorithm       TEXT NOT NULL,
    first_algo      TEXT NOT NULL,
    second_algo     TEXT NOT NULL,
    dtype           TEXT NOT NULL,
    dist            TEXT NOT NULL,          -- '' for --input data
    seed            INTEGER NOT NULL,
    n               INTEGER NOT NULL,
    k               INTEGER NOT NULL,
    alpha           INTEGER NOT NULL,
    beta            INTEGER NOT NULL,
    flags           INTEGER NOT NULL,
    sort_order      TEXT NOT NULL CHECK (sort_order IN ('largest', 'smallest')),
    ranks           INTEGER NOT NULL,
    gpus            INTEGER NOT NULL,       -- distinct GPUs the ranks used (0 on the CPU backend)
    device_cap      INTEGER NOT NULL,       -- sub-vector length of out-of-core slices
    out_of_core     INTEGER NOT NULL CHECK (out_of_core IN (0, 1)),
    chunks          INTEGER NOT NULL,       -- sub-vectors of the largest slice (1 in core)
    filtered        INTEGER NOT NULL,       -- elements the carried k-th value dropped (all ranks)
    reps            INTEGER NOT NULL,
    total_ms        REAL NOT NULL,          -- medians over the repetitions
    compute_ms      REAL NOT NULL,
    reload_ms       REAL NOT NULL,
    comm_ms         REAL NOT NULL,
    link_gbps       REAL,                   -- host-to-device link measured alone (out of core on a GPU)
    reps_ms         TEXT NOT NULL,          -- JSON array of every repetition's total
    verified        INTEGER NOT NULL CHECK (verified IN (0, 1)),
    verify_ok       INTEGER CHECK (verify_ok IN (0, 1)),
    measured_at     TEXT NOT NULL,
    UNIQUE (machine_id, git_commit, algorithm, first_algo, second_algo, dtype, dist, seed, n, k, alpha,
            beta, flags, sort_order, ranks, gpus, device_cap)
);

-- @migration 7: counts a run does not time (Figure 24, Table 3).  One
-- row per (configuration, source, counter), the configuration keyed as a
-- measurement's.  source 'bmw': host counts of src/harness/bmw.c on the
-- generated data (tuner --bmw): bmw_evaluated, the elements a BMW-style scan
-- with blocks of 2^alpha evaluates, and dr_workload, Dr. Top-k's |D| + |C|
-- under the plan (paper 6.6).  source 'ncu': an NVIDIA Nsight Compute metric of
-- one `drtopk run` call, summed over its kernels (paper 6.4;
-- experiments/tab3_transactions.sh, imported with tuner --import-counters).
CREATE TABLE counters (
    id              INTEGER PRIMARY KEY,
    machine_id      INTEGER NOT NULL REFERENCES machines(id),
    run_id          INTEGER NOT NULL REFERENCES runs(id),
    git_commit      TEXT NOT NULL,
    algorithm       TEXT NOT NULL,
    first_algo      TEXT NOT NULL,
    second_algo     TEXT NOT NULL,
    dtype           TEXT NOT NULL,
    dist            TEXT NOT NULL,
    seed            INTEGER NOT NULL,
    n               INTEGER NOT NULL,
    k               INTEGER NOT NULL,
    alpha           INTEGER NOT NULL,
    beta            INTEGER NOT NULL,
    flags           INTEGER NOT NULL,
    sort_order      TEXT NOT NULL CHECK (sort_order IN ('largest', 'smallest')),
    source          TEXT NOT NULL,          -- 'bmw', 'ncu'
    counter         TEXT NOT NULL,          -- 'bmw_evaluated', 'dr_workload', an ncu metric name
    value           REAL NOT NULL,
    kernels         INTEGER,                -- ncu: kernels summed; NULL for host counts
    tool_version    TEXT NOT NULL,          -- ncu's version; '' for host counts
    measured_at     TEXT NOT NULL,
    UNIQUE (machine_id, git_commit, algorithm, first_algo, second_algo, dtype, dist, seed, n, k, alpha, beta,
            flags, sort_order, source, counter)
);

-- @migration 8: how a row's times were taken
-- 'gpu': the GPU time of the call, the stream held by a blocking kernel until
-- the call was enqueued (src/harness/stream_hold.cuh; the peers the same way);
-- 'call': events (or the host clock, CPU backend) around the call on an idle
-- stream, which include the host's enqueue -- every row stored before this
-- version.  Not part of the unique keys: a configuration measured with the
-- other method is measured again with tuner --force.
ALTER TABLE measurements ADD COLUMN timing TEXT NOT NULL DEFAULT 'call' CHECK (timing IN ('call', 'gpu'));
ALTER TABLE peer_measurements ADD COLUMN timing TEXT NOT NULL DEFAULT 'call' CHECK (timing IN ('call', 'gpu'));

-- @migration 9: the batched top-k's crossovers (tuner --batch,
-- tuner/batch_tune.c).  batch_measurements: one row per (crossover, candidate,
-- workload): the time of drtopk_batch_select with the plan that sends the
-- workload to that candidate (e.g. crossover 'tiny_max_k', candidates 'tiny'
-- and 'staged').  segs 'uniform' rows of len, or 'variable' segments of
-- seeded lengths in [len/2, len].  batch_choices: the plan field values
-- decided from them per machine and commit (tuner/batch_decide.c), which
-- `tuner --emit-table` compiles into the library.
CREATE TABLE batch_measurements (
    id              INTEGER PRIMARY KEY,
    machine_id      INTEGER NOT NULL REFERENCES machines(id),
    run_id          INTEGER NOT NULL REFERENCES runs(id),
    git_commit      TEXT NOT NULL,
    crossover       TEXT NOT NULL,          -- the plan field it decides: 'tiny_max_k', ...
    candidate       TEXT NOT NULL,          -- 'tiny', 'staged', 'warp', 'split', 'batched', 'pipeline'
    dtype           TEXT NOT NULL,
    segs            TEXT NOT NULL CHECK (segs IN ('uniform', 'variable')),
    seed            INTEGER NOT NULL,
    rows            INTEGER NOT NULL,
    len             INTEGER NOT NULL,
    k               INTEGER NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('ok', 'error')),
    error           TEXT,
    reps            INTEGER NOT NULL,
    median_ms       REAL,
    verified        INTEGER NOT NULL CHECK (verified IN (0, 1)),
    verify_ok       INTEGER CHECK (verify_ok IN (0, 1)),
    measured_at     TEXT NOT NULL,
    UNIQUE (machine_id, git_commit, crossover, candidate, dtype, segs, seed, rows, len, k)
);
CREATE TABLE batch_choices (
    id              INTEGER PRIMARY KEY,
    machine_id      INTEGER NOT NULL REFERENCES machines(id),
    git_commit      TEXT NOT NULL,
    field           TEXT NOT NULL,          -- a drtopk_batch_plan field
    value           INTEGER NOT NULL,
    points          INTEGER NOT NULL,       -- workloads the decision compared
    decided_at      TEXT NOT NULL,
    UNIQUE (machine_id, git_commit, field)
);

-- @migration 10: how a batched row's time was taken (tuner --batch): 'gpu',
-- the GPU time of the call with the stream held until it was enqueued (as
-- migration 8's rows; src/harness/stream_hold.cuh), or 'call', the host clock
-- around the call and a device synchronisation (every row stored before this
-- version).  Not part of the unique key: tuner --batch --force measures again.
ALTER TABLE batch_measurements ADD COLUMN timing TEXT NOT NULL DEFAULT 'call' CHECK (timing IN ('call', 'gpu'));

-- @migration 11: the paper's plan beside each row, so that queries compare
-- against it without recomputing the library's rules.  rule4_alpha: the alpha
-- Rule 4 gives at (n, k) with the paper's const (drtopk_rule4_alpha(n, k,
-- DRTOPK_RULE4_CONST_DEFAULT), paper section 5.2); rule4_flags: the flags
-- drtopk_plan_rule4 gives the delegate pipeline where Rule 4 lands on the
-- row's alpha (Rule 2 filtering, skip-last-digit, and the shared-memory
-- delegate build of paper 5.3 up to its alpha), 0 for a standalone row or an
-- alpha Rule 4 never gives at (n, k).  The store writes both with each row;
-- 0 in rule4_alpha (never an alpha) marks a row that does not have them yet
-- (stored before this version, merged from an older database, or written by
-- another tool), which the store derives when it next opens the database
-- for writing (src/harness/store.c, derive_rule4).
ALTER TABLE measurements ADD COLUMN rule4_alpha INTEGER NOT NULL DEFAULT 0;
ALTER TABLE measurements ADD COLUMN rule4_flags INTEGER NOT NULL DEFAULT 0;

-- @migration 12: Rule 4's alpha for the fitted const beside each fit, so that
-- queries read the alpha the library's rule gives instead of recomputing it:
-- per fit (machine, dtype, algorithm, beta) and per (n, k) the machine
-- measured in that dtype, drtopk_rule4_alpha(n, k, const_time) (paper
-- section 5.2) for the const_time it was derived from.  Never written by
-- hand: the store derives the rows whenever it opens the database for writing
-- and after each fit, replacing those whose const_time is no longer the fit's
-- (src/harness/store_schema.c, store_derive_fit_alphas); a merge leaves them
-- to the target.
CREATE TABLE fit_alphas (
    machine_id      INTEGER NOT NULL REFERENCES machines(id),
    dtype           TEXT NOT NULL,
    algorithm       TEXT NOT NULL,
    beta            INTEGER NOT NULL,
    n               INTEGER NOT NULL,
    k               INTEGER NOT NULL,
    const_time      REAL NOT NULL,          -- the fit's const_time when derived
    alpha           INTEGER NOT NULL,       -- drtopk_rule4_alpha(n, k, const_time)
    PRIMARY KEY (machine_id, dtype, algorithm, beta, n, k)
) WITHOUT ROWID;

-- ... and multi_gpu's rows (migration 6) say how the ranks' parts travelled to
-- rank 0: exchange 'none' (one rank), 'host' (the CPU backend), 'cuda-ipc',
-- 'cuda-aware-mpi', 'pinned-staging', or 'mixed' (ranks took different ways);
-- 'unknown' for a row stored before this version.  Part of the row's key, so
-- that runs that differ only in it (drtopk-mpi --no-ipc) keep a row each.
CREATE TABLE multi_gpu_v12 (
    id              INTEGER PRIMARY KEY,
    machine_id      INTEGER NOT NULL REFERENCES machines(id),
    run_id          INTEGER NOT NULL REFERENCES runs(id),
    git_commit      TEXT NOT NULL,
    algorithm       TEXT NOT NULL,
    first_algo      TEXT NOT NULL,
    second_algo     TEXT NOT NULL,
    dtype           TEXT NOT NULL,
    dist            TEXT NOT NULL,
    seed            INTEGER NOT NULL,
    n               INTEGER NOT NULL,
    k               INTEGER NOT NULL,
    alpha           INTEGER NOT NULL,
    beta            INTEGER NOT NULL,
    flags           INTEGER NOT NULL,
    sort_order      TEXT NOT NULL CHECK (sort_order IN ('largest', 'smallest')),
    ranks           INTEGER NOT NULL,
    gpus            INTEGER NOT NULL,
    device_cap      INTEGER NOT NULL,
    out_of_core     INTEGER NOT NULL CHECK (out_of_core IN (0, 1)),
    chunks          INTEGER NOT NULL,
    filtered        INTEGER NOT NULL,
    reps            INTEGER NOT NULL,
    total_ms        REAL NOT NULL,
    compute_ms      REAL NOT NULL,
    reload_ms       REAL NOT NULL,
    comm_ms         REAL NOT NULL,
    link_gbps       REAL,
    reps_ms         TEXT NOT NULL,
    verified        INTEGER NOT NULL CHECK (verified IN (0, 1)),
    verify_ok       INTEGER CHECK (verify_ok IN (0, 1)),
    measured_at     TEXT NOT NULL,
    exchange        TEXT NOT NULL DEFAULT 'unknown',
    UNIQUE (machine_id, git_commit, algorithm, first_algo, second_algo, dtype, dist, seed, n, k, alpha,
            beta, flags, sort_order, ranks, gpus, device_cap, exchange)
);
INSERT INTO multi_gpu_v12 (id, machine_id, run_id, git_commit, algorithm, first_algo, second_algo, dtype, dist,
                           seed, n, k, alpha, beta, flags, sort_order, ranks, gpus, device_cap, out_of_core, chunks,
                           filtered, reps, total_ms, compute_ms, reload_ms, comm_ms, link_gbps, reps_ms, verified,
                           verify_ok, measured_at)
    SELECT id, machine_id, run_id, git_commit, algorithm, first_algo, second_algo, dtype, dist, seed, n, k, alpha,
           beta, flags, sort_order, ranks, gpus, device_cap, out_of_core, chunks, filtered, reps, total_ms,
           compute_ms, reload_ms, comm_ms, link_gbps, reps_ms, verified, verify_ok, measured_at FROM multi_gpu;
DROP TABLE multi_gpu;
ALTER TABLE multi_gpu_v12 RENAME TO multi_gpu;
