PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE schema_version (
    version    INTEGER NOT NULL
);
INSERT INTO schema_version VALUES(10);
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
INSERT INTO machines VALUES(1,'GPU-44c5e1bf-45ec-5991-49d8-0c969b43e3c6','NVIDIA H100 80GB HBM3','cuda',9,0,132,85017493504,52428800,NULL,13000,13000,'2026-11-27T09:06:38.062Z',NULL,NULL);
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
    measured_at     TEXT NOT NULL, timing TEXT NOT NULL DEFAULT 'call' CHECK (timing IN ('call', 'gpu')),
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
INSERT INTO runs VALUES(1,'b35d156ed35da331f2bfa83d96855209',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^30 --gpu 0 --device-cap 2^36','33dff4d1a353','2026-11-27T09:06:38.062Z','2026-11-27T09:06:38.062Z','done',4017,'vm');
INSERT INTO runs VALUES(2,'d54d8ecacc5d114a9d67cddfac43b06a',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^30 --gpu 0,1 --device-cap 2^36','33dff4d1a353','2026-11-27T09:06:40.132Z','2026-11-27T09:06:40.134Z','done',4105,'vm');
INSERT INTO runs VALUES(3,'b56f44a186d025da561cbf21c767073f',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^30 --gpu 0,1,2,3 --device-cap 2^36','33dff4d1a353','2026-11-27T09:06:42.495Z','2026-11-27T09:06:42.495Z','done',4198,'vm');
INSERT INTO runs VALUES(4,'44845e958ec5769f99d63c777dfdebbe',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^31 --gpu 0 --device-cap 2^36','33dff4d1a353','2026-11-27T09:06:44.122Z','2026-11-27T09:06:44.123Z','done',4302,'vm');
INSERT INTO runs VALUES(5,'221bc2f7a6e17eb4b19e6648eba4e391',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^31 --gpu 0,1 --device-cap 2^36','33dff4d1a353','2026-11-27T09:06:46.103Z','2026-11-27T09:06:46.103Z','done',4393,'vm');
INSERT INTO runs VALUES(6,'447cec8a43faf9b9209a6a573f817db1',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^31 --gpu 0,1,2,3 --device-cap 2^36','33dff4d1a353','2026-11-27T09:06:48.427Z','2026-11-27T09:06:48.430Z','done',4487,'vm');
INSERT INTO runs VALUES(7,'1b5f4987102263b5b37865ab05149095',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^32 --gpu 0 --device-cap 2^36','33dff4d1a353','2026-11-27T09:06:50.075Z','2026-11-27T09:06:50.076Z','done',4591,'vm');
INSERT INTO runs VALUES(8,'fb740c517d254eef6ed640a81149b87a',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^32 --gpu 0,1 --device-cap 2^36','33dff4d1a353','2026-11-27T09:06:52.173Z','2026-11-27T09:06:52.174Z','done',4679,'vm');
INSERT INTO runs VALUES(9,'3524a6a1a20424b8a4e45bc3a7e05731',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^32 --gpu 0,1,2,3 --device-cap 2^36','33dff4d1a353','2026-11-27T09:06:54.627Z','2026-11-27T09:06:54.628Z','done',4772,'vm');
INSERT INTO runs VALUES(10,'2d78e918f092ce6aa45dae71922ba688',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^33 --gpu 0 --device-cap 2^36','33dff4d1a353','2026-11-27T09:06:56.450Z','2026-11-27T09:06:56.450Z','done',4879,'vm');
INSERT INTO runs VALUES(11,'b9038e248a3e53ac374ffe28fb16636d',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^33 --gpu 0,1 --device-cap 2^36','33dff4d1a353','2026-11-27T09:06:58.475Z','2026-11-27T09:06:58.479Z','done',4967,'vm');
INSERT INTO runs VALUES(12,'686a729f520c1652d1fdb47c14907e51',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^33 --gpu 0,1,2,3 --device-cap 2^36','33dff4d1a353','2026-11-27T09:07:00.795Z','2026-11-27T09:07:00.796Z','done',5060,'vm');
INSERT INTO runs VALUES(13,'994fa2f757c2c322f933e0d186578672',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^34 --gpu 0 --device-cap 2^36','33dff4d1a353','2026-11-27T09:07:02.646Z','2026-11-27T09:07:02.647Z','done',5163,'vm');
INSERT INTO runs VALUES(14,'45f9e228f9f21d7c1e5e5999c1e87619',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^34 --gpu 0,1 --device-cap 2^36','33dff4d1a353','2026-11-27T09:07:04.824Z','2026-11-27T09:07:04.825Z','done',5251,'vm');
INSERT INTO runs VALUES(15,'fff0e2fe1c8fc5cae2022fdb46a77762',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^34 --gpu 0,1,2,3 --device-cap 2^36','33dff4d1a353','2026-11-27T09:07:07.346Z','2026-11-27T09:07:07.347Z','done',5348,'vm');
INSERT INTO runs VALUES(16,'dde99e41c7b666c892a120763ad99dec',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^35 --gpu 0 --device-cap 2^36','33dff4d1a353','2026-11-27T09:08:25.731Z','2026-11-27T09:08:25.735Z','done',5451,'vm');
INSERT INTO runs VALUES(17,'311854ae9d11718a125ac63e81666445',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^35 --gpu 0,1 --device-cap 2^36','33dff4d1a353','2026-11-27T09:08:42.926Z','2026-11-27T09:08:42.927Z','done',5576,'vm');
INSERT INTO runs VALUES(18,'82b7ea254ff0d5f18c342217fdb9b075',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^35 --gpu 0,1,2,3 --device-cap 2^36','33dff4d1a353','2026-11-27T09:08:45.473Z','2026-11-27T09:08:45.474Z','done',5669,'vm');
INSERT INTO runs VALUES(19,'16a883031e3a7212c4936790b3634dac',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^31 --gpu 0 --device-cap 2^30','33dff4d1a353','2026-11-27T09:08:52.182Z','2026-11-27T09:08:52.187Z','done',5776,'vm');
INSERT INTO runs VALUES(20,'9c3c8c1114ef8fd890ee39f5c7fdbc13',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^31 --gpu 0 --device-cap 2^28','33dff4d1a353','2026-11-27T09:08:59.835Z','2026-11-27T09:08:59.836Z','done',5863,'vm');
INSERT INTO runs VALUES(21,'5ba6fc1a5c070571c2b0d5e8f6d52487',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^32 --gpu 0 --device-cap 2^30','33dff4d1a353','2026-11-27T09:09:10.979Z','2026-11-27T09:09:10.982Z','done',5953,'vm');
INSERT INTO runs VALUES(22,'82f33b13acc32b4dfeb5c8eca1beec44',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^32 --gpu 0 --device-cap 2^28','33dff4d1a353','2026-11-27T09:09:23.590Z','2026-11-27T09:09:23.594Z','done',6043,'vm');
INSERT INTO runs VALUES(23,'f92d16775867e140b5c3f0e6442edb1c',1,'drtopk-mpi','/tmp/b/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^34 --gpu 0,1,2,3 --device-cap 2^30','33dff4d1a353','2026-11-27T09:09:37.970Z','2026-11-27T09:09:37.973Z','done',6140,'vm');
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
INSERT INTO multi_gpu VALUES(1,1,1,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,1073741824,128,14,2,11,'largest',1,1,68719476736,0,1,0,5,1.5166500000050291419,1.5158359999913955107,0.0,0.00035400000342633575201,NULL,'[1.516650, 1.509807, 1.516348, 1.530364, 1.526292]',0,NULL,'2026-11-27T09:06:38.062Z');
INSERT INTO multi_gpu VALUES(2,1,2,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,1073741824,128,16,1,11,'largest',2,2,68719476736,0,1,0,5,0.83045700000366196036,0.82112500000221189111,0.0,0.0047880000056466087698,NULL,'[0.882617, 0.843154, 0.829475, 0.830457, 0.826799]',0,NULL,'2026-11-27T09:06:40.134Z');
INSERT INTO multi_gpu VALUES(3,1,3,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,1073741824,128,16,1,11,'largest',4,4,68719476736,0,1,0,5,0.47611599999072495847,0.46398200000112410634,0.0,0.0082249999977648258209,NULL,'[0.532364, 0.498299, 0.472998, 0.476116, 0.470199]',0,NULL,'2026-11-27T09:06:42.495Z');
INSERT INTO multi_gpu VALUES(4,1,4,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,2147483648,128,14,2,11,'largest',1,1,68719476736,0,1,0,5,2.9038049999944632872,2.9031950000062352046,0.0,0.00022599998919758945703,NULL,'[2.914378, 2.906934, 2.901800, 2.903805, 2.901838]',0,NULL,'2026-11-27T09:06:44.123Z');
INSERT INTO multi_gpu VALUES(5,1,5,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,2147483648,128,14,2,11,'largest',2,2,68719476736,0,1,0,5,1.5339099999982863664,1.5284630000096512958,0.0,0.0033699999912641942501,NULL,'[1.555620, 1.532962, 1.528216, 1.533910, 1.546993]',0,NULL,'2026-11-27T09:06:46.103Z');
INSERT INTO multi_gpu VALUES(6,1,6,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,2147483648,128,16,1,11,'largest',4,4,68719476736,0,1,0,5,0.84920899999269749969,0.82354399999894667416,0.0,0.0089250000019092112779,NULL,'[0.878981, 0.852922, 0.842354, 0.849209, 0.831962]',0,NULL,'2026-11-27T09:06:48.430Z');
INSERT INTO multi_gpu VALUES(7,1,7,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,4294967296,128,16,2,11,'largest',1,1,68719476736,0,1,0,5,5.6375920000136829912,5.6348030000081053003,0.0,0.00074799999129027128219,NULL,'[5.635239, 5.637592, 5.623235, 5.641650, 5.657854]',0,NULL,'2026-11-27T09:06:50.076Z');
INSERT INTO multi_gpu VALUES(8,1,8,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,4294967296,128,14,2,11,'largest',2,2,68719476736,0,1,0,5,2.960955999995348975,2.9435499999963212758,0.0,0.0067920000001322478055,NULL,'[2.999906, 2.960956, 2.966125, 2.958740, 2.954392]',0,NULL,'2026-11-27T09:06:52.174Z');
INSERT INTO multi_gpu VALUES(9,1,9,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,4294967296,128,14,2,11,'largest',4,4,68719476736,0,1,0,5,1.5815120000042952597,1.5552440000028582289,0.0,0.022053000007872469723,NULL,'[1.612699, 1.594188, 1.575108, 1.581512, 1.569664]',0,NULL,'2026-11-27T09:06:54.628Z');
INSERT INTO multi_gpu VALUES(10,1,10,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,8589934592,128,16,2,11,'largest',1,1,68719476736,0,1,0,5,11.169956000012462027,11.163337999998475425,0.0,0.0013689999905182048678,NULL,'[11.162764, 11.168126, 11.174408, 11.169956, 11.170045]',0,NULL,'2026-11-27T09:06:56.450Z');
INSERT INTO multi_gpu VALUES(11,1,11,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,8589934592,128,16,2,11,'largest',2,2,68719476736,0,1,0,5,5.6399109999911161139,5.62759800000640098,0.0,0.0037190000002738088369,NULL,'[5.655445, 5.631575, 5.632566, 5.639911, 5.640193]',0,NULL,'2026-11-27T09:06:58.479Z');
INSERT INTO multi_gpu VALUES(12,1,12,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,8589934592,128,14,2,11,'largest',4,4,68719476736,0,1,0,5,2.9786200000089593231,2.9396019999985583126,0.0,0.020266999985324218869,NULL,'[2.998001, 2.978620, 2.964002, 2.992053, 2.956902]',0,NULL,'2026-11-27T09:07:00.796Z');
INSERT INTO multi_gpu VALUES(13,1,13,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,17179869184,128,17,2,11,'largest',1,1,68719476736,0,1,0,5,22.229550999996718018,22.222116000019013881,0.0,0.0013289999915286898612,NULL,'[22.186662, 22.229551, 22.234603, 22.232333, 22.226618]',0,NULL,'2026-11-27T09:07:02.647Z');
INSERT INTO multi_gpu VALUES(14,1,14,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,17179869184,128,16,2,11,'largest',2,2,68719476736,0,1,0,5,11.206080999982077628,11.171742000005906447,0.0,0.012965000001713633537,NULL,'[11.206182, 11.206081, 11.205466, 11.206887, 11.204068]',0,NULL,'2026-11-27T09:07:04.825Z');
INSERT INTO multi_gpu VALUES(15,1,15,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,17179869184,128,16,2,11,'largest',4,4,68719476736,0,1,0,5,5.7084090000134892761,5.6668190000054892152,0.0,0.021406000014394521713,NULL,'[5.724838, 5.722925, 5.693138, 5.708409, 5.686047]',0,NULL,'2026-11-27T09:07:07.347Z');
INSERT INTO multi_gpu VALUES(16,1,16,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,34359738368,128,14,2,11,'largest',1,1,68719476736,1,32,33285996017,5,2604.2351999999955296,2.5403480864188168197,2601.6866989135742187,0.0015439999988302588462,55.281318391187504344,'[2668.768576, 2604.235200, 2493.997380, 2646.421444, 2590.045333]',0,NULL,'2026-11-27T09:08:25.735Z');
INSERT INTO multi_gpu VALUES(17,1,17,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,34359738368,128,17,2,11,'largest',2,2,68719476736,0,1,0,5,22.285977999999886378,22.232508000015513971,0.0,0.011873000010382384061,NULL,'[22.297579, 22.256749, 22.250749, 22.293649, 22.285978]',0,NULL,'2026-11-27T09:08:42.927Z');
INSERT INTO multi_gpu VALUES(18,1,18,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,34359738368,128,16,2,11,'largest',4,4,68719476736,0,1,0,5,11.224178000004030764,11.168119000009028241,0.0,0.020281000004615634679,NULL,'[11.246824, 11.224178, 11.203508, 11.229039, 11.195107]',0,NULL,'2026-11-27T09:08:45.474Z');
INSERT INTO multi_gpu VALUES(19,1,19,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,2147483648,128,14,2,11,'largest',1,1,1073741824,1,2,1073741668,5,167.23171700001694261,2.4310978403082117438,164.80739593505859374,0.0012059999862685799598,52.681591333370946018,'[165.594544, 171.939847, 167.231717, 165.003243, 187.000372]',0,NULL,'2026-11-27T09:08:52.187Z');
INSERT INTO multi_gpu VALUES(20,1,20,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,2147483648,128,16,1,11,'largest',1,1,268435456,1,8,1879047821,5,158.12524500000290573,0.71758973729447461664,157.41513633728027344,0.0012609999976120889186,54.97103983609479627,'[157.694891, 163.783291, 165.246705, 158.125245, 156.885483]',0,NULL,'2026-11-27T09:08:59.836Z');
INSERT INTO multi_gpu VALUES(21,1,21,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,4294967296,128,14,2,11,'largest',1,1,1073741824,1,4,3221225215,5,313.09583199996268375,2.4652696826378814876,310.61273956298828125,0.0014259999734349548816,55.284228268279420603,'[313.145402, 312.924055, 317.463792, 313.095832, 313.082639]',0,NULL,'2026-11-27T09:09:10.982Z');
INSERT INTO multi_gpu VALUES(22,1,22,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,4294967296,128,16,1,11,'largest',1,1,268435456,1,16,4026531382,5,318.45835600001737475,0.72874194831820204854,317.72128105163574217,0.0012189999688416719436,55.348431993029599596,'[312.710305, 358.631087, 318.458356, 313.849549, 321.343744]',0,NULL,'2026-11-27T09:09:23.594Z');
INSERT INTO multi_gpu VALUES(23,1,23,'33dff4d1a353','dr-radix','radix','radix','u32','UD',1,17179869184,128,14,2,11,'largest',4,4,1073741824,1,4,12884900975,5,391.48934199998620896,2.4280652080196887254,388.97084045410156251,0.037234999996144324541,44.324426120581506436,'[408.421922, 409.272635, 382.642923, 391.489342, 390.685102]',0,NULL,'2026-11-27T09:09:37.973Z');
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
CREATE INDEX measurements_fit ON measurements (machine_id, git_commit, dtype, algorithm, beta);
CREATE INDEX peer_measurements_table ON peer_measurements (machine_id, dtype, n);
COMMIT;
