PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE schema_version (
    version    INTEGER NOT NULL
);
INSERT INTO schema_version VALUES(7);
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
INSERT INTO machines VALUES(1,'GPU-e3fcdd08-83ff-e10e-ac6c-3b4dc1b454ed','NVIDIA H200','cuda',9,0,132,150109880320,62914560,NULL,13000,13000,'2026-11-23T03:22:30.003Z',NULL,NULL);
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
    measured_at     TEXT NOT NULL,          -- time of the import (the lines carry none)
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
INSERT INTO runs VALUES(1,'ba5fd7c8618bc3227512eb520c92cf79',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^30 --gpu 0 --device-cap 2^36','1d4e20eac301','2026-11-23T03:22:30.003Z','2026-11-23T03:22:30.003Z','done',2179,'vm');
INSERT INTO runs VALUES(2,'8f4ce39481f7a42de1959e32d8d75a81',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^30 --gpu 0,1 --device-cap 2^36','1d4e20eac301','2026-11-23T03:22:31.147Z','2026-11-23T03:22:31.147Z','done',2227,'vm');
INSERT INTO runs VALUES(3,'b05b3a7d07ea840d4fb230228c9db5df',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^31 --gpu 0 --device-cap 2^36','1d4e20eac301','2026-11-23T03:22:32.091Z','2026-11-23T03:22:32.091Z','done',2280,'vm');
INSERT INTO runs VALUES(4,'52ee621bb4a055309906bb6dd94dcfc4',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^31 --gpu 0,1 --device-cap 2^36','1d4e20eac301','2026-11-23T03:22:33.104Z','2026-11-23T03:22:33.104Z','done',2328,'vm');
INSERT INTO runs VALUES(5,'9c027020e401fe8450a5b9ec50bf124e',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^32 --gpu 0 --device-cap 2^36','1d4e20eac301','2026-11-23T03:22:34.118Z','2026-11-23T03:22:34.118Z','done',2381,'vm');
INSERT INTO runs VALUES(6,'2bab1e736696168b58cb9cd5fa6760bc',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^32 --gpu 0,1 --device-cap 2^36','1d4e20eac301','2026-11-23T03:22:35.144Z','2026-11-23T03:22:35.146Z','done',2429,'vm');
INSERT INTO runs VALUES(7,'d65456ab29c4c04702a2429b0aeedaca',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^33 --gpu 0 --device-cap 2^36','1d4e20eac301','2026-11-23T03:22:36.159Z','2026-11-23T03:22:36.160Z','done',2482,'vm');
INSERT INTO runs VALUES(8,'99bdffd7b56c25e5baf6fbd6e3e7d106',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^33 --gpu 0,1 --device-cap 2^36','1d4e20eac301','2026-11-23T03:22:37.268Z','2026-11-23T03:22:37.269Z','done',2530,'vm');
INSERT INTO runs VALUES(9,'15caf4ff0da4ffe524f2c83e708f25ef',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^34 --gpu 0 --device-cap 2^36','1d4e20eac301','2026-11-23T03:22:38.357Z','2026-11-23T03:22:38.358Z','done',2587,'vm');
INSERT INTO runs VALUES(10,'0849754cfe451a68a34ce9bf080b2ef2',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^34 --gpu 0,1 --device-cap 2^36','1d4e20eac301','2026-11-23T03:22:39.504Z','2026-11-23T03:22:39.505Z','done',2635,'vm');
INSERT INTO runs VALUES(11,'fe3446a82afdb4f4b09e279260b81fd0',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^31 --gpu 0 --device-cap 2^30','1d4e20eac301','2026-11-23T03:22:44.820Z','2026-11-23T03:22:44.820Z','done',2688,'vm');
INSERT INTO runs VALUES(12,'ea0ce2e23d4f5eb0d8b14f0838e812b8',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^31 --gpu 0 --device-cap 2^28','1d4e20eac301','2026-11-23T03:22:50.499Z','2026-11-23T03:22:50.500Z','done',2736,'vm');
INSERT INTO runs VALUES(13,'559667233347e7de103f0c922adb35ac',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^32 --gpu 0 --device-cap 2^30','1d4e20eac301','2026-11-23T03:23:00.683Z','2026-11-23T03:23:00.684Z','done',2788,'vm');
INSERT INTO runs VALUES(14,'b9340290d1f7b297e55d1906f298f109',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^32 --gpu 0 --device-cap 2^28','1d4e20eac301','2026-11-23T03:23:11.676Z','2026-11-23T03:23:11.679Z','done',2840,'vm');
INSERT INTO runs VALUES(15,'81808a79c349621e1ca423deb26d13d0',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^33 --gpu 0,1 --device-cap 2^30','1d4e20eac301','2026-11-23T03:23:25.557Z','2026-11-23T03:23:25.562Z','done',2892,'vm');
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
INSERT INTO multi_gpu VALUES(1,1,1,'1d4e20eac301','dr-radix','radix','radix','u32','UD',1,1073741824,128,14,2,11,'largest',1,1,68719476736,0,1,0,5,1.0337470000013126991,1.0331949999963399022,0.0,0.00014899999951012432575,NULL,'[1.053236, 1.043254, 1.032339, 1.033747, 1.032282]',0,NULL,'2026-11-23T03:22:30.003Z');
INSERT INTO multi_gpu VALUES(2,1,2,'1d4e20eac301','dr-radix','radix','radix','u32','UD',1,1073741824,128,13,2,11,'largest',2,2,68719476736,0,1,0,5,0.59982699999818578362,0.5898850000012316741,0.0,0.0045339999996940605342,NULL,'[0.621123, 0.594412, 0.600554, 0.599827, 0.588895]',0,NULL,'2026-11-23T03:22:31.147Z');
INSERT INTO multi_gpu VALUES(3,1,3,'1d4e20eac301','dr-radix','radix','radix','u32','UD',1,2147483648,128,14,2,11,'largest',1,1,68719476736,0,1,0,5,1.9623150000043096952,1.9617070000022067688,0.0,0.00014999999984866008162,NULL,'[1.967396, 1.964634, 1.962315, 1.962300, 1.960497]',0,NULL,'2026-11-23T03:22:32.091Z');
INSERT INTO multi_gpu VALUES(4,1,4,'1d4e20eac301','dr-radix','radix','radix','u32','UD',1,2147483648,128,14,2,11,'largest',2,2,68719476736,0,1,0,5,1.0467179999977815896,1.0426359999983105808,0.0,0.0025949999981094151735,NULL,'[1.088831, 1.046718, 1.053065, 1.045585, 1.042178]',0,NULL,'2026-11-23T03:22:33.104Z');
INSERT INTO multi_gpu VALUES(5,1,5,'1d4e20eac301','dr-radix','radix','radix','u32','UD',1,4294967296,128,16,2,11,'largest',1,1,68719476736,0,1,0,5,3.8014540000003762543,3.7969210000010207295,0.0,0.00095400000282097607851,NULL,'[3.794971, 3.801454, 3.786668, 3.814370, 3.801567]',0,NULL,'2026-11-23T03:22:34.118Z');
INSERT INTO multi_gpu VALUES(6,1,6,'1d4e20eac301','dr-radix','radix','radix','u32','UD',1,4294967296,128,14,2,11,'largest',2,2,68719476736,0,1,0,5,1.9721950000093784183,1.9683979999972507357,0.0,0.002496000000974163413,NULL,'[1.994291, 1.971049, 1.972195, 1.969792, 1.972496]',0,NULL,'2026-11-23T03:22:35.146Z');
INSERT INTO multi_gpu VALUES(7,1,7,'1d4e20eac301','dr-radix','radix','radix','u32','UD',1,8589934592,128,16,2,11,'largest',1,1,68719476736,0,1,0,5,7.4604430000035790726,7.4554510000016307458,0.0,0.0010699999984353780746,NULL,'[7.467338, 7.467562, 7.460443, 7.441619, 7.436482]',0,NULL,'2026-11-23T03:22:36.160Z');
INSERT INTO multi_gpu VALUES(8,1,8,'1d4e20eac301','dr-radix','radix','radix','u32','UD',1,8589934592,128,16,2,11,'largest',2,2,68719476736,0,1,0,5,3.7756809999991673976,3.7700870000116992741,0.0,0.0030770000012125819921,NULL,'[3.805804, 3.775681, 3.784503, 3.771757, 3.774203]',0,NULL,'2026-11-23T03:22:37.269Z');
INSERT INTO multi_gpu VALUES(9,1,9,'1d4e20eac301','dr-radix','radix','radix','u32','UD',1,17179869184,128,17,2,11,'largest',1,1,68719476736,0,1,0,5,14.768288000006577931,14.761660000003757886,0.0,0.0010820000024978071451,NULL,'[14.768288, 14.764803, 14.771827, 14.768977, 14.765177]',0,NULL,'2026-11-23T03:22:38.358Z');
INSERT INTO multi_gpu VALUES(10,1,10,'1d4e20eac301','dr-radix','radix','radix','u32','UD',1,17179869184,128,16,2,11,'largest',2,2,68719476736,0,1,0,5,7.4645310000050812959,7.4467440000007627531,0.0,0.0053979999938746914267,NULL,'[7.496405, 7.464531, 7.462752, 7.459924, 7.464788]',0,NULL,'2026-11-23T03:22:39.504Z');
INSERT INTO multi_gpu VALUES(11,1,11,'1d4e20eac301','dr-radix','radix','radix','u32','UD',1,2147483648,128,14,2,11,'largest',1,1,1073741824,1,2,1073741668,5,157.13498299999628215,2.28818569726718124,154.839935302734375,0.00091200000315438956022,55.425223930556157371,'[157.125337, 157.134983, 157.090453, 157.210525, 157.297801]',0,NULL,'2026-11-23T03:22:44.820Z');
INSERT INTO multi_gpu VALUES(12,1,12,'1d4e20eac301','dr-radix','radix','radix','u32','UD',1,2147483648,128,13,2,11,'largest',1,1,268435456,1,8,1879047821,5,155.60715299998992122,0.65689700085204094648,154.87865447998046875,0.00045700000191573053598,55.447846508815565869,'[155.607153, 156.220076, 155.537092, 155.466457, 155.625886]',0,NULL,'2026-11-23T03:22:50.500Z');
INSERT INTO multi_gpu VALUES(13,1,13,'1d4e20eac301','dr-radix','radix','radix','u32','UD',1,4294967296,128,14,2,11,'largest',1,1,1073741824,1,4,3221225215,5,313.00301099999342114,2.3739084819389972835,310.61823272705078125,0.0013089999993098899722,55.421197039015552832,'[312.132135, 313.003011, 313.080096, 312.401016, 313.853606]',0,NULL,'2026-11-23T03:23:00.684Z');
INSERT INTO multi_gpu VALUES(14,1,14,'1d4e20eac301','dr-radix','radix','radix','u32','UD',1,4294967296,128,13,2,11,'largest',1,1,268435456,1,16,4026531382,5,310.22984299999370706,0.68970187976083252578,309.5210895538330078,0.000448999999207444489,55.517757835979061552,'[310.420321, 310.199651, 310.197675, 310.284519, 310.229843]',0,NULL,'2026-11-23T03:23:11.679Z');
INSERT INTO multi_gpu VALUES(15,1,15,'1d4e20eac301','dr-radix','radix','radix','u32','UD',1,8589934592,128,14,2,11,'largest',2,2,1073741824,1,4,6442450469,5,319.08210600000165868,2.358150237298104912,316.75045776367187499,0.01852500000677537173,55.085919992801208877,'[323.367470, 324.233728, 315.523850, 316.109746, 319.082106]',0,NULL,'2026-11-23T03:23:25.562Z');
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
CREATE INDEX measurements_fit ON measurements (machine_id, git_commit, dtype, algorithm, beta);
CREATE INDEX peer_measurements_table ON peer_measurements (machine_id, dtype, n);
COMMIT;
