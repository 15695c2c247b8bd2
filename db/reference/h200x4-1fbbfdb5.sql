PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE schema_version (
    version    INTEGER NOT NULL
);
INSERT INTO schema_version VALUES(12);
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
, c_global REAL, c_shfl REAL);
INSERT INTO machines VALUES(1,'GPU-1fbbfdb5-36a0-0c76-b5da-e0b9e1cc07c1','NVIDIA H200','cuda',9,0,132,150109880320,62914560,NULL,13000,13000,'2026-11-28T21:19:20.436Z',NULL,NULL);
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
    measured_at     TEXT NOT NULL, timing TEXT NOT NULL DEFAULT 'call' CHECK (timing IN ('call', 'gpu')), rule4_alpha INTEGER NOT NULL DEFAULT 0, rule4_flags INTEGER NOT NULL DEFAULT 0,
    UNIQUE (machine_id, git_commit, algorithm, first_algo, second_algo, dtype, dist,
            seed, n, k, alpha, beta, flags, sort_order)
);
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
    fitted_at       TEXT NOT NULL, const_theory REAL,
    UNIQUE (machine_id, dtype, algorithm, beta)
);
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
    measured_at     TEXT NOT NULL, timing TEXT NOT NULL DEFAULT 'call' CHECK (timing IN ('call', 'gpu')),          -- time of the import (the lines carry none)
    UNIQUE (machine_id, git_commit, peer, dist, dtype, seed, n, k)
);
CREATE TABLE IF NOT EXISTS "runs" (
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
INSERT INTO runs VALUES(1,'9fb2806bc86acb580728450259e6e825',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^30 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0 --k 128','c9c5e81ff436','2026-11-28T21:19:20.436Z','2026-11-28T21:19:20.437Z','done',1849,'vm');
INSERT INTO runs VALUES(2,'9ca6215d6934176e06555f0abbd54445',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^30 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1 --k 128','c9c5e81ff436','2026-11-28T21:19:26.528Z','2026-11-28T21:19:26.529Z','done',1947,'vm');
INSERT INTO runs VALUES(3,'dc653dd5c4ab6d3189811dfdf89e1830',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^30 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1,2,3 --k 128','c9c5e81ff436','2026-11-28T21:19:31.050Z','2026-11-28T21:19:31.051Z','done',2046,'vm');
INSERT INTO runs VALUES(4,'7eb2eb5f4852f73061a167c826ef5a4f',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^30 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0 --k 2^20','c9c5e81ff436','2026-11-28T21:19:41.084Z','2026-11-28T21:19:41.089Z','done',2178,'vm');
INSERT INTO runs VALUES(5,'ce9d75ad1207969fe2263b7d69fa7f3f',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^30 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1 --k 2^20','c9c5e81ff436','2026-11-28T21:19:47.512Z','2026-11-28T21:19:47.513Z','done',2277,'vm');
INSERT INTO runs VALUES(6,'7fe1204413cdbe8723bf56e4b960e83d',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^30 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1,2,3 --k 2^20','c9c5e81ff436','2026-11-28T21:19:52.741Z','2026-11-28T21:19:52.742Z','done',2376,'vm');
INSERT INTO runs VALUES(7,'36ce43f88e6e27bc2fccb9fe2f8d03ee',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^30 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0 --k 2^24','c9c5e81ff436','2026-11-28T21:20:05.871Z','2026-11-28T21:20:05.872Z','done',2506,'vm');
INSERT INTO runs VALUES(8,'e452afc8e0ae268907ab0c1f3e5e15f7',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^30 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1 --k 2^24','c9c5e81ff436','2026-11-28T21:20:14.412Z','2026-11-28T21:20:14.413Z','done',2605,'vm');
INSERT INTO runs VALUES(9,'9bf2773bca054d220b17d6829676f4f9',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^30 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1,2,3 --k 2^24','c9c5e81ff436','2026-11-28T21:20:30.389Z','2026-11-28T21:20:30.390Z','done',2811,'vm');
INSERT INTO runs VALUES(10,'2b7c63bb9b4072f39f09df8346f4ae79',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0 --k 128','c9c5e81ff436','2026-11-28T21:21:12.989Z','2026-11-28T21:21:12.990Z','done',3083,'vm');
INSERT INTO runs VALUES(11,'d7d38698270a93a502cbc86d834ffe61',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0 --k 128 --device-cap 2^30','c9c5e81ff436','2026-11-28T21:21:42.532Z','2026-11-28T21:21:42.537Z','done',3189,'vm');
INSERT INTO runs VALUES(12,'32761e7789078d5fc6cc258bbaaeb29e',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1 --k 128','c9c5e81ff436','2026-11-28T21:22:02.328Z','2026-11-28T21:22:02.333Z','done',3296,'vm');
INSERT INTO runs VALUES(13,'6355fb3fb7b42cea73fa5756e4a5cb87',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1 --k 128 --device-cap 2^30','c9c5e81ff436','2026-11-28T21:22:18.757Z','2026-11-28T21:22:18.764Z','done',3403,'vm');
INSERT INTO runs VALUES(14,'9c528585c27453b3979c59fe494d1559',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1,2,3 --k 128','c9c5e81ff436','2026-11-28T21:22:30.673Z','2026-11-28T21:22:30.678Z','done',3511,'vm');
INSERT INTO runs VALUES(15,'fb193c1ac006635229ec126ae4efca5f',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1,2,3 --k 128 --device-cap 2^30','c9c5e81ff436','2026-11-28T21:22:41.359Z','2026-11-28T21:22:41.365Z','done',3624,'vm');
INSERT INTO runs VALUES(16,'a91c81c881ff278d66e7be662152884b',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0 --k 2^20','c9c5e81ff436','2026-11-28T21:23:12.805Z','2026-11-28T21:23:12.807Z','done',3754,'vm');
INSERT INTO runs VALUES(17,'4b092d87e6e6f2d81a6030a566de443d',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0 --k 2^20 --device-cap 2^30','c9c5e81ff436','2026-11-28T21:23:41.622Z','2026-11-28T21:23:41.628Z','done',3860,'vm');
INSERT INTO runs VALUES(18,'5a81d810873b1ba413dad7488581670a',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1 --k 2^20','c9c5e81ff436','2026-11-28T21:24:01.564Z','2026-11-28T21:24:01.570Z','done',3966,'vm');
INSERT INTO runs VALUES(19,'ce8b42fd7c7493bf2e994402cf424349',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1 --k 2^20 --device-cap 2^30','c9c5e81ff436','2026-11-28T21:24:16.410Z','2026-11-28T21:24:16.412Z','done',4073,'vm');
INSERT INTO runs VALUES(20,'59d975fded2aec6b2a1e40fe3d129b1d',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1,2,3 --k 2^20','c9c5e81ff436','2026-11-28T21:24:27.959Z','2026-11-28T21:24:27.964Z','done',4177,'vm');
INSERT INTO runs VALUES(21,'bd98831db0b09cbcd003fedccee858d5',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1,2,3 --k 2^20 --device-cap 2^30','c9c5e81ff436','2026-11-28T21:24:38.361Z','2026-11-28T21:24:38.365Z','done',4295,'vm');
INSERT INTO runs VALUES(22,'9d19e80bcced9f7259801848fb682eab',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0 --k 2^24','c9c5e81ff436','2026-11-28T21:25:12.017Z','2026-11-28T21:25:12.018Z','done',4427,'vm');
INSERT INTO runs VALUES(23,'b61a52fb7634da086ed1dad34970ece5',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0 --k 2^24 --device-cap 2^30','c9c5e81ff436','2026-11-28T21:25:40.801Z','2026-11-28T21:25:40.806Z','done',4533,'vm');
INSERT INTO runs VALUES(24,'0bc056280a5f8ca17cc99c6b3a0b40ff',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1 --k 2^24','c9c5e81ff436','2026-11-28T21:26:00.519Z','2026-11-28T21:26:00.523Z','done',4639,'vm');
INSERT INTO runs VALUES(25,'071f33001af78e18d6ecbf8c4a3bfbd0',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1 --k 2^24 --device-cap 2^30','c9c5e81ff436','2026-11-28T21:26:37.046Z','2026-11-28T21:26:37.046Z','done',4854,'vm');
INSERT INTO runs VALUES(26,'e5be7a6ca9d4480115f7491441db9038',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1,2,3 --k 2^24','c9c5e81ff436','2026-11-28T21:26:51.047Z','2026-11-28T21:26:51.048Z','done',4961,'vm');
INSERT INTO runs VALUES(27,'14ae6d4a34e1f3ef45f701d39a129c4b',1,'drtopk-mpi','/work/main/.dev/src/fin/bin/drtopk-mpi --backend cuda --n 2^32 --reps 5 --verify --db /root/out/t2.sqlite --json --gpu 0,1,2,3 --k 2^24 --device-cap 2^30','c9c5e81ff436','2026-11-28T21:27:15.331Z','2026-11-28T21:27:15.334Z','done',5187,'vm');
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
CREATE TABLE IF NOT EXISTS "choices" (
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
    measured_at     TEXT NOT NULL, timing TEXT NOT NULL DEFAULT 'call' CHECK (timing IN ('call', 'gpu')),
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
CREATE TABLE IF NOT EXISTS "multi_gpu" (
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
INSERT INTO multi_gpu VALUES(1,1,1,'c9c5e81ff436','dr-radix','radix','radix','u32','UD',1,1073741824,128,16,1,11,'largest',1,1,0,0,1,0,5,1.0316599999932805076,1.0289239999983692541,0.0,0.00010800000745803117752,NULL,'[1.049257, 1.037360, 1.024224, 1.026713, 1.031660]',1,1,'2026-11-28T21:19:20.436Z','none');
INSERT INTO multi_gpu VALUES(2,1,2,'c9c5e81ff436','dr-radix','radix','radix','u32','UD',1,1073741824,128,16,1,11,'largest',2,2,0,0,1,0,5,0.67793499999970663338,0.54784800000197719782,0.0,0.12569400000211317092,NULL,'[0.700544, 0.677935, 0.680307, 0.677803, 0.675338]',1,1,'2026-11-28T21:19:26.529Z','cuda-ipc');
INSERT INTO multi_gpu VALUES(3,1,3,'c9c5e81ff436','dr-radix','radix','radix','u32','UD',1,1073741824,128,16,1,11,'largest',4,4,0,0,1,0,5,0.4836360000044805929,0.31866000000445637851,0.0,0.16515800000343006104,NULL,'[0.536587, 0.505728, 0.483636, 0.477456, 0.481543]',1,1,'2026-11-28T21:19:31.051Z','cuda-ipc');
INSERT INTO multi_gpu VALUES(4,1,4,'c9c5e81ff436','onepass','','onepass','u32','UD',1,1073741824,1048576,0,0,0,'largest',1,1,0,0,1,0,5,1.1158770000038202852,1.1136199999891687184,0.0,0.00024999999732244759798,NULL,'[1.129313, 1.116386, 1.115877, 1.112314, 1.108822]',1,1,'2026-11-28T21:19:41.089Z','none');
INSERT INTO multi_gpu VALUES(5,1,5,'c9c5e81ff436','onepass','','onepass','u32','UD',1,1073741824,1048576,0,0,0,'largest',2,2,0,0,1,0,5,0.82015699999465141445,0.62628100000438280403,0.0,0.19007399999827612191,NULL,'[0.840477, 0.820157, 0.804561, 0.825420, 0.815569]',1,1,'2026-11-28T21:19:47.513Z','cuda-ipc');
INSERT INTO multi_gpu VALUES(6,1,6,'c9c5e81ff436','onepass','','onepass','u32','UD',1,1073741824,1048576,0,0,0,'largest',4,4,0,0,1,0,5,0.61758099999860860407,0.38420000000041909515,0.0,0.22938000000431202352,NULL,'[0.631834, 0.622611, 0.613332, 0.617581, 0.613626]',1,1,'2026-11-28T21:19:52.742Z','cuda-ipc');
INSERT INTO multi_gpu VALUES(7,1,7,'c9c5e81ff436','onepass','','onepass','u32','UD',1,1073741824,16777216,0,0,0,'largest',1,1,0,0,1,0,5,1.5098029999935533851,1.5075179999985266476,0.0,3.9000005926936864852e-05,NULL,'[1.512116, 1.504860, 1.509803, 1.513542, 1.506037]',1,1,'2026-11-28T21:20:05.872Z','none');
INSERT INTO multi_gpu VALUES(8,1,8,'c9c5e81ff436','onepass','','onepass','u32','UD',1,1073741824,16777216,0,0,0,'largest',2,2,0,0,1,0,5,1.5963240000128280371,0.93706399999791756272,0.0,0.65287399999215267598,NULL,'[1.610307, 1.596324, 1.588951, 1.587286, 1.603588]',1,1,'2026-11-28T21:20:14.413Z','cuda-ipc');
INSERT INTO multi_gpu VALUES(9,1,9,'c9c5e81ff436','onepass','','onepass','u32','UD',1,1073741824,16777216,0,0,0,'largest',4,4,0,0,1,0,5,1.4920359999814536422,0.64465400000335648655,0.0,0.83934000000590458512,NULL,'[1.554083, 1.480814, 1.492036, 1.490212, 1.493731]',1,1,'2026-11-28T21:20:30.390Z','cuda-ipc');
INSERT INTO multi_gpu VALUES(10,1,10,'c9c5e81ff436','onepass','','onepass','u32','UD',1,4294967296,128,0,0,0,'largest',1,1,0,0,1,0,5,3.8919219999806955456,3.8874249999935273081,0.0,0.00017099999240599572658,NULL,'[3.907258, 3.900383, 3.891922, 3.885379, 3.881701]',1,1,'2026-11-28T21:21:12.990Z','none');
INSERT INTO multi_gpu VALUES(11,1,11,'c9c5e81ff436','dr-radix','radix','radix','u32','UD',1,4294967296,128,16,1,11,'largest',1,1,1073741824,1,4,3221225215,5,312.0640060000005178,2.2902784887701272964,309.78943634033203125,7.7999982750043272972e-05,55.422937588353491378,'[312.050910, 312.064006, 312.028818, 312.368692, 312.405045]',1,1,'2026-11-28T21:21:42.537Z','none');
INSERT INTO multi_gpu VALUES(12,1,12,'c9c5e81ff436','dr-radix','radix','radix','u32','UD',1,4294967296,128,16,1,11,'largest',2,2,0,0,1,0,5,2.1228030000056605786,1.9664810000103898346,0.0,0.14982500000041909515,NULL,'[2.181959, 2.122803, 2.116744, 2.117292, 6.426080]',1,1,'2026-11-28T21:22:02.333Z','cuda-ipc');
INSERT INTO multi_gpu VALUES(13,1,13,'c9c5e81ff436','dr-radix','radix','radix','u32','UD',1,4294967296,128,16,1,11,'largest',2,2,1073741824,1,2,2147483391,5,163.57817300001624971,2.3452106210752390325,160.83107757568359375,0.41504100000020116567,53.434877493811676176,'[166.520003, 166.294409, 162.248902, 162.403407, 163.578173]',1,1,'2026-11-28T21:22:18.764Z','cuda-ipc');
INSERT INTO multi_gpu VALUES(15,1,15,'c9c5e81ff436','dr-radix','radix','radix','u32','UD',1,4294967296,128,16,1,11,'largest',4,4,0,0,1,0,5,1.2464250000193715095,1.0268580000265501439,0.0,0.20280799997271969914,NULL,'[1.277856, 1.222685, 1.246425, 1.226828, 1.247519]',1,1,'2026-11-28T21:22:41.365Z','cuda-ipc');
INSERT INTO multi_gpu VALUES(16,1,16,'c9c5e81ff436','onepass','','onepass','u32','UD',1,4294967296,1048576,0,0,0,'largest',1,1,0,0,1,0,5,4.0262319999746978282,4.0231510000303387641,0.0,0.00028000003658235073089,NULL,'[4.039977, 4.026232, 4.020659, 4.041606, 4.018153]',1,1,'2026-11-28T21:23:12.807Z','none');
INSERT INTO multi_gpu VALUES(17,1,17,'c9c5e81ff436','onepass','','onepass','u32','UD',1,4294967296,1048576,0,0,0,'largest',1,1,1073741824,1,4,3219304063,5,313.60180599999148399,3.2186152964131906628,310.32176208496093749,0.00017600000137463212013,55.166163243379870094,'[314.964781, 313.601806, 313.693396, 313.448560, 313.216027]',1,1,'2026-11-28T21:23:41.628Z','none');
INSERT INTO multi_gpu VALUES(18,1,18,'c9c5e81ff436','onepass','','onepass','u32','UD',1,4294967296,1048576,0,0,0,'largest',2,2,0,0,1,0,5,2.30167100002290681,2.0905580000253394246,0.0,0.20962099998723715543,NULL,'[2.318189, 2.292865, 2.299385, 2.334393, 2.301671]',1,1,'2026-11-28T21:24:01.570Z','cuda-ipc');
INSERT INTO multi_gpu VALUES(19,1,19,'c9c5e81ff436','onepass','','onepass','u32','UD',1,4294967296,1048576,0,0,0,'largest',2,2,1073741824,1,2,2145387701,5,163.04339499998604878,3.2496398832881823182,159.36911773681640625,0.41863400000147521495,55.0532957824069058,'[162.359684, 163.043395, 164.500028, 164.135250, 162.285801]',1,1,'2026-11-28T21:24:16.412Z','cuda-ipc');
INSERT INTO multi_gpu VALUES(21,1,21,'c9c5e81ff436','onepass','','onepass','u32','UD',1,4294967296,1048576,0,0,0,'largest',4,4,0,0,1,0,5,1.3738759999978356063,1.1090139999869279563,0.0,0.25424400001065805554,NULL,'[1.438495, 1.373876, 1.362804, 1.389845, 1.369299]',1,1,'2026-11-28T21:24:38.365Z','cuda-ipc');
INSERT INTO multi_gpu VALUES(22,1,22,'c9c5e81ff436','onepass','','onepass','u32','UD',1,4294967296,16777216,0,0,0,'largest',1,1,0,0,1,0,5,4.6409760000533424317,4.6354280000086873769,0.0,0.00020200002472847700119,NULL,'[4.656136, 4.640976, 4.628488, 4.644456, 4.633305]',1,1,'2026-11-28T21:25:12.018Z','none');
INSERT INTO multi_gpu VALUES(23,1,23,'c9c5e81ff436','onepass','','onepass','u32','UD',1,4294967296,16777216,0,0,0,'largest',1,1,1073741824,1,4,3190472049,5,340.89299199997913092,30.422197315434459596,310.6063995361328125,0.00013499998021870851516,55.353814435287993942,'[340.777741, 341.848650, 341.498469, 340.892992, 340.403904]',1,1,'2026-11-28T21:25:40.806Z','none');
INSERT INTO multi_gpu VALUES(24,1,24,'c9c5e81ff436','onepass','','onepass','u32','UD',1,4294967296,16777216,0,0,0,'largest',2,2,0,0,1,0,5,3.269712999986950308,2.5952170000527985394,0.0,0.66465300001436844468,NULL,'[3.289076, 3.244928, 3.272248, 3.239147, 3.269713]',1,1,'2026-11-28T21:26:00.523Z','cuda-ipc');
INSERT INTO multi_gpu VALUES(25,1,25,'c9c5e81ff436','onepass','','onepass','u32','UD',1,4294967296,16777216,0,0,0,'largest',2,2,1073741824,1,2,2113937033,5,194.84329400002025067,37.034974582493305206,156.95446014404296874,0.88732000003801658749,55.349068688432161875,'[194.991573, 196.109235, 194.843294, 194.799972, 194.612146]',1,1,'2026-11-28T21:26:37.046Z','cuda-ipc');
INSERT INTO multi_gpu VALUES(27,1,27,'c9c5e81ff436','onepass','','onepass','u32','UD',1,4294967296,16777216,0,0,0,'largest',4,4,0,0,1,0,5,2.3972940000239759683,1.5253549999324604868,0.0,0.85641300003044307231,NULL,'[2.400185, 2.379470, 2.402546, 2.386955, 2.397294]',1,1,'2026-11-28T21:27:15.334Z','cuda-ipc');
CREATE INDEX measurements_fit ON measurements (machine_id, git_commit, dtype, algorithm, beta);
CREATE INDEX peer_measurements_table ON peer_measurements (machine_id, dtype, n);
COMMIT;
