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
INSERT INTO machines VALUES(1,'GPU-a5aa8e80-e727-ad65-9279-fd4272caba36','NVIDIA H200','cuda',9,0,132,150109880320,62914560,NULL,13000,13000,'2026-11-27T15:57:05.715Z',NULL,NULL);
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
INSERT INTO runs VALUES(1,'ad7dde9d75196ce6687b7f55ba5cce74',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^30 --gpu 0 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:57:05.715Z','2026-11-27T15:57:05.715Z','done',4065,'vm');
INSERT INTO runs VALUES(2,'bba1cc01ad04e9a604468c1f6fed5a7d',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^30 --gpu 0,1 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:57:07.795Z','2026-11-27T15:57:07.796Z','done',4153,'vm');
INSERT INTO runs VALUES(3,'ae4e928147eb50acffcb75dbfcdada86',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^30 --gpu 0,1,2,3 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:57:10.167Z','2026-11-27T15:57:10.168Z','done',4246,'vm');
INSERT INTO runs VALUES(4,'87bbee015ab5943911e98416107eb2d6',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^31 --gpu 0 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:57:11.812Z','2026-11-27T15:57:11.816Z','done',4349,'vm');
INSERT INTO runs VALUES(5,'6d52d2af8e1b5dcad99df7abab47e19f',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^31 --gpu 0,1 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:57:13.903Z','2026-11-27T15:57:13.904Z','done',4441,'vm');
INSERT INTO runs VALUES(6,'20b51d4bc02c9bff454418136ca56a31',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^31 --gpu 0,1,2,3 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:57:16.225Z','2026-11-27T15:57:16.226Z','done',4534,'vm');
INSERT INTO runs VALUES(7,'4c1b0a839c1ef261ee4040d7fc3a3e54',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^32 --gpu 0 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:57:17.833Z','2026-11-27T15:57:17.834Z','done',4637,'vm');
INSERT INTO runs VALUES(8,'7f303380e97a0e1748e16545ff4ecf02',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^32 --gpu 0,1 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:57:19.841Z','2026-11-27T15:57:19.842Z','done',4725,'vm');
INSERT INTO runs VALUES(9,'6d93b4a143c372f4bb4b76b3d1938a76',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^32 --gpu 0,1,2,3 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:57:22.178Z','2026-11-27T15:57:22.182Z','done',4818,'vm');
INSERT INTO runs VALUES(10,'ad60c507ac2d486a9ef50da6206ae8ef',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^33 --gpu 0 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:57:23.858Z','2026-11-27T15:57:23.859Z','done',4925,'vm');
INSERT INTO runs VALUES(11,'0063aa60637100b29b9801dfbf043e43',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^33 --gpu 0,1 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:57:25.926Z','2026-11-27T15:57:25.926Z','done',5013,'vm');
INSERT INTO runs VALUES(12,'cc759e2bc340c8024105988ad63b30ff',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^33 --gpu 0,1,2,3 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:57:28.262Z','2026-11-27T15:57:28.263Z','done',5106,'vm');
INSERT INTO runs VALUES(13,'c72a0d2f1462b17ce4bfb7bd5b0ad45a',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^34 --gpu 0 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:57:29.983Z','2026-11-27T15:57:29.984Z','done',5209,'vm');
INSERT INTO runs VALUES(14,'67b140eccb241199dd53c5f48dbb2fbe',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^34 --gpu 0,1 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:57:32.115Z','2026-11-27T15:57:32.116Z','done',5298,'vm');
INSERT INTO runs VALUES(15,'75dbf82eeac6d95d81795ce458b87f4e',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^34 --gpu 0,1,2,3 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:57:34.549Z','2026-11-27T15:57:34.550Z','done',5395,'vm');
INSERT INTO runs VALUES(16,'9df2165694e82d370b47a23d54fb6e99',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^35 --gpu 0 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:58:55.067Z','2026-11-27T15:58:55.071Z','done',5498,'vm');
INSERT INTO runs VALUES(17,'89e7611042e58f1f430cc78a440c7341',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^35 --gpu 0,1 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:59:09.750Z','2026-11-27T15:59:09.752Z','done',5623,'vm');
INSERT INTO runs VALUES(18,'28a10bb47efd043bebe9ccb76ba2ec66',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^35 --gpu 0,1,2,3 --device-cap 2^36','dc15b05b7e8f','2026-11-27T15:59:12.250Z','2026-11-27T15:59:12.251Z','done',5716,'vm');
INSERT INTO runs VALUES(19,'f12a1bb4cc94ebb126ea345d47a9eb9e',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^31 --gpu 0 --device-cap 2^30','dc15b05b7e8f','2026-11-27T15:59:18.379Z','2026-11-27T15:59:18.384Z','done',5821,'vm');
INSERT INTO runs VALUES(20,'80a2b19812798912ab80f6f15f560b7e',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^31 --gpu 0 --device-cap 2^28','dc15b05b7e8f','2026-11-27T15:59:25.046Z','2026-11-27T15:59:25.048Z','done',5907,'vm');
INSERT INTO runs VALUES(21,'86d06cf476441cd871a81afaf21d4e91',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^32 --gpu 0 --device-cap 2^30','dc15b05b7e8f','2026-11-27T15:59:36.267Z','2026-11-27T15:59:36.272Z','done',5998,'vm');
INSERT INTO runs VALUES(22,'18b43cf5a5e7daa983ab2fd8e4a2d28a',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^32 --gpu 0 --device-cap 2^28','dc15b05b7e8f','2026-11-27T15:59:47.755Z','2026-11-27T15:59:47.759Z','done',6088,'vm');
INSERT INTO runs VALUES(23,'87ceb6eb4e82293770be82c9af9e1689',1,'drtopk-mpi','/tmp/drtopk-carried-bin/bin/drtopk-mpi --backend cuda --k 128 --reps 5 --db /root/out/results.sqlite --json --n 2^34 --gpu 0,1,2,3 --device-cap 2^30','dc15b05b7e8f','2026-11-27T16:00:02.418Z','2026-11-27T16:00:02.422Z','done',6181,'vm');
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
INSERT INTO multi_gpu VALUES(1,1,1,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,1073741824,128,14,2,11,'largest',1,1,68719476736,0,1,0,5,1.1031290000100852921,1.0998639999888837337,0.0,0.0010330000077374279499,NULL,'[1.123274, 1.111778, 1.103129, 1.099095, 1.085600]',0,NULL,'2026-11-27T15:57:05.715Z');
INSERT INTO multi_gpu VALUES(2,1,2,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,1073741824,128,13,2,11,'largest',2,2,68719476736,0,1,0,5,0.59801200000219978392,0.59190899999521207064,0.0,0.0025670000031823292374,NULL,'[0.627147, 0.598012, 0.603110, 0.596266, 0.593721]',0,NULL,'2026-11-27T15:57:07.796Z');
INSERT INTO multi_gpu VALUES(3,1,3,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,1073741824,128,13,2,11,'largest',4,4,68719476736,0,1,0,5,0.38458800000080373138,0.36844999999448191374,0.0,0.0081179999979212880134,NULL,'[0.436951, 0.407820, 0.378277, 0.384588, 0.371093]',0,NULL,'2026-11-27T15:57:10.168Z');
INSERT INTO multi_gpu VALUES(4,1,4,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,2147483648,128,14,2,11,'largest',1,1,68719476736,0,1,0,5,2.0314769999968120828,2.0299840000079711899,0.0,0.00055299999075941741466,NULL,'[2.043815, 2.032417, 2.029973, 2.030460, 2.031477]',0,NULL,'2026-11-27T15:57:11.816Z');
INSERT INTO multi_gpu VALUES(5,1,5,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,2147483648,128,14,2,11,'largest',2,2,68719476736,0,1,0,5,1.0980270000000018626,1.0883899999898858368,0.0,0.0044239999988349154591,NULL,'[1.122286, 1.097031, 1.078376, 1.099444, 1.098027]',0,NULL,'2026-11-27T15:57:13.903Z');
INSERT INTO multi_gpu VALUES(6,1,6,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,2147483648,128,13,2,11,'largest',4,4,68719476736,0,1,0,5,0.63607500000216532498,0.62227500000153668224,0.0,0.010328999997000209987,NULL,'[0.683491, 0.650660, 0.632532, 0.631128, 0.636075]',0,NULL,'2026-11-27T15:57:16.226Z');
INSERT INTO multi_gpu VALUES(7,1,7,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,4294967296,128,16,2,11,'largest',1,1,68719476736,0,1,0,5,3.8585670000029494985,3.857914000007440336,0.0,0.00022899999748915433883,NULL,'[3.870690, 3.861371, 3.858567, 3.853096, 3.857919]',0,NULL,'2026-11-27T15:57:17.834Z');
INSERT INTO multi_gpu VALUES(8,1,8,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,4294967296,128,14,2,11,'largest',2,2,68719476736,0,1,0,5,2.0625759999966248869,2.0514969999931054189,0.0,0.0045360000076470896601,NULL,'[2.116045, 2.078871, 2.062576, 2.047013, 2.041437]',0,NULL,'2026-11-27T15:57:19.842Z');
INSERT INTO multi_gpu VALUES(9,1,9,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,4294967296,128,14,2,11,'largest',4,4,68719476736,0,1,0,5,1.0937279999925522133,1.0775719999946886673,0.0,0.014443000007304362952,NULL,'[1.122709, 1.093728, 1.106712, 1.081450, 1.086924]',0,NULL,'2026-11-27T15:57:22.182Z');
INSERT INTO multi_gpu VALUES(10,1,10,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,8589934592,128,16,2,11,'largest',1,1,68719476736,0,1,0,5,7.6655610000016167759,7.658006999990902841,0.0,0.0013340000004973262548,NULL,'[7.689637, 7.672775, 7.664192, 7.665561, 7.659495]',0,NULL,'2026-11-27T15:57:23.859Z');
INSERT INTO multi_gpu VALUES(11,1,11,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,8589934592,128,16,2,11,'largest',2,2,68719476736,0,1,0,5,3.9282880000100703909,3.9077370000013615936,0.0,0.0069229999935487285256,NULL,'[3.986149, 3.944128, 3.926398, 3.928288, 3.921717]',0,NULL,'2026-11-27T15:57:25.926Z');
INSERT INTO multi_gpu VALUES(12,1,12,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,8589934592,128,14,2,11,'largest',4,4,68719476736,0,1,0,5,2.0803200000082142651,2.055443999997805804,0.0,0.021183000004384666681,NULL,'[2.128869, 2.080320, 2.077758, 2.090049, 2.074508]',0,NULL,'2026-11-27T15:57:28.263Z');
INSERT INTO multi_gpu VALUES(13,1,13,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,17179869184,128,17,2,11,'largest',1,1,68719476736,0,1,0,5,15.072860999993281438,15.072031999996397643,0.0,0.00018899998394772410392,NULL,'[15.076294, 15.070288, 15.063107, 15.072861, 15.082942]',0,NULL,'2026-11-27T15:57:29.984Z');
INSERT INTO multi_gpu VALUES(14,1,14,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,17179869184,128,16,2,11,'largest',2,2,68719476736,0,1,0,5,7.6283849999890662729,7.6120550000050570815,0.0,0.0076570000092033296823,NULL,'[7.642189, 7.624808, 7.620651, 7.634245, 7.628385]',0,NULL,'2026-11-27T15:57:32.116Z');
INSERT INTO multi_gpu VALUES(15,1,15,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,17179869184,128,16,2,11,'largest',4,4,68719476736,0,1,0,5,3.946097999985795468,3.9090319999959319829,0.0,0.021222999988822266459,NULL,'[3.978011, 3.950624, 3.939485, 3.946098, 3.917462]',0,NULL,'2026-11-27T15:57:34.550Z');
INSERT INTO multi_gpu VALUES(16,1,16,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,34359738368,128,14,2,11,'largest',1,1,1073741824,1,32,33285996017,5,2481.1881489999941549,2.3472022924688644707,2478.8857727050781249,0.0011080000258516520261,55.409392561755915094,'[2485.205734, 2482.693900, 2481.188149, 2479.283517, 2478.875510]',0,NULL,'2026-11-27T15:58:55.071Z');
INSERT INTO multi_gpu VALUES(17,1,17,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,34359738368,128,17,2,11,'largest',2,2,68719476736,0,1,0,5,15.178484000003663823,15.137795999995432794,0.0,0.018869000021368265151,NULL,'[15.193860, 15.156553, 15.170373, 15.178484, 15.181821]',0,NULL,'2026-11-27T15:59:09.752Z');
INSERT INTO multi_gpu VALUES(18,1,18,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,34359738368,128,16,2,11,'largest',4,4,68719476736,0,1,0,5,7.6763510000018868595,7.6405859999940730631,0.0,0.020075999986147508025,NULL,'[7.711344, 7.676351, 7.676221, 7.680683, 7.666169]',0,NULL,'2026-11-27T15:59:12.251Z');
INSERT INTO multi_gpu VALUES(19,1,19,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,2147483648,128,14,2,11,'largest',1,1,1073741824,1,2,1073741668,5,157.02071300000534393,2.2323288818297442048,154.78102111816406249,0.00094999998691491782665,55.468011662650404504,'[157.020713, 157.006899, 157.073552, 157.053754, 156.880077]',0,NULL,'2026-11-27T15:59:18.383Z');
INSERT INTO multi_gpu VALUES(20,1,20,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,2147483648,128,13,2,11,'largest',1,1,268435456,1,8,1879047821,5,155.56137400001171045,0.78279452453716658055,154.77728080749511718,0.001493999996455386281,55.443723500253014437,'[155.495447, 155.554498, 155.561374, 155.771112, 155.834821]',0,NULL,'2026-11-27T15:59:25.048Z');
INSERT INTO multi_gpu VALUES(21,1,21,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,4294967296,128,14,2,11,'largest',1,1,1073741824,1,4,3221225215,5,311.99306999999680556,2.2450397211941890418,309.720611572265625,0.0010320000001229345798,55.491314632311429023,'[312.177580, 312.483945, 311.772038, 311.993070, 311.921136]',0,NULL,'2026-11-27T15:59:36.272Z');
INSERT INTO multi_gpu VALUES(22,1,22,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,4294967296,128,13,2,11,'largest',1,1,268435456,1,16,4026531382,5,310.216960999998264,0.68594852089881896972,309.51791763305664061,0.00097300001652911305427,55.489296308659092462,'[310.468202, 310.599041, 310.156541, 310.190105, 310.216961]',0,NULL,'2026-11-27T15:59:47.759Z');
INSERT INTO multi_gpu VALUES(23,1,23,'dc15b05b7e8f','dr-radix','radix','radix','u32','UD',1,17179869184,128,14,2,11,'largest',4,4,1073741824,1,4,12884900975,5,504.53307100001256913,2.3326987734762951731,502.22656249999999998,0.030826999980490654706,27.774456172763596129,'[475.822507, 490.714415, 508.544412, 504.533071, 550.785492]',0,NULL,'2026-11-27T16:00:02.422Z');
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
