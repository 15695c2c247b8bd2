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
INSERT INTO machines VALUES(1,'GPU-5325cf13-eb98-da9d-baa9-319ac4a57818','NVIDIA H100 80GB HBM3','cuda',NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'2026-11-27T11:49:01.887Z',NULL,NULL);
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
INSERT INTO peer_measurements VALUES(1,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.10723199999999999398,0.10604800000000000337,0.10854400000000000159,'[0.108544,0.1064,0.108064,0.107232,0.108448,0.106368,0.106048]',1,'2026-11-27T11:49:01.887Z','gpu');
INSERT INTO peer_measurements VALUES(2,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.1794560000000000044,0.17846400000000001151,0.18240000000000000657,'[0.17888,0.1824,0.179456,0.178464,0.180448,0.178784,0.181248]',1,'2026-11-27T11:49:01.887Z','gpu');
INSERT INTO peer_measurements VALUES(3,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.06620800000000000296,0.065920000000000006368,0.066400000000000000688,'[0.066208,0.0664,0.06592,0.06624,0.066176,0.066048,0.066208]',1,'2026-11-27T11:49:01.887Z','gpu');
INSERT INTO peer_measurements VALUES(4,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,0.23273599999999999843,0.23049600000000000643,0.23360000000000000208,'[0.232896,0.232736,0.230496,0.233152,0.231712,0.2336,0.230624]',1,'2026-11-27T11:49:01.887Z','gpu');
INSERT INTO peer_measurements VALUES(5,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,0.20492799999999999904,0.20371200000000000418,0.20671999999999998709,'[0.206432,0.204928,0.204896,0.204672,0.203712,0.20544,0.20672]',1,'2026-11-27T11:49:01.887Z','gpu');
INSERT INTO peer_measurements VALUES(6,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,0.49171199999999998242,0.49052800000000001956,0.50300800000000001066,'[0.49696,0.490784,0.490528,0.492448,0.503008,0.491424,0.491712]',1,'2026-11-27T11:49:01.887Z','gpu');
INSERT INTO peer_measurements VALUES(7,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,1.7116480000000000583,1.7096000000000000085,1.7152639999999998998,'[1.713888,1.7112,1.7112,1.711648,1.7096,1.714784,1.715264]',1,'2026-11-27T11:49:01.887Z','gpu');
INSERT INTO peer_measurements VALUES(8,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d plaw-small plaw-small.u64','UD','f32',1,30003811,50,'ok',NULL,7,0.39919999999999999928,0.39657599999999998408,0.4026560000000000139,'[0.399264,0.3992,0.400768,0.402656,0.396576,0.39856,0.398592]',1,'2026-11-27T11:49:01.887Z','gpu');
INSERT INTO peer_measurements VALUES(9,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d plaw-large plaw-large.u64','UD','f32',1,22700570,50,'ok',NULL,7,0.535583999999999949,0.52863999999999999879,0.54028799999999999048,'[0.535584,0.536448,0.535936,0.535296,0.5288,0.540288,0.52864]',1,'2026-11-27T11:49:01.887Z','gpu');
INSERT INTO peer_measurements VALUES(10,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.49180000000000001492,0.48990000000000000213,0.49209999999999998188,NULL,1,'2026-11-27T11:49:01.887Z','gpu');
INSERT INTO peer_measurements VALUES(11,1,1,'18dc421fcd0d','batch.read_once','torch.sum; token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.051700000000000002897,0.051200000000000002453,0.052100000000000000477,NULL,1,'2026-11-27T11:49:01.887Z','gpu');
INSERT INTO peer_measurements VALUES(12,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.8864999999999999547,0.88429999999999997495,0.88839999999999996749,NULL,1,'2026-11-27T11:49:01.887Z','gpu');
INSERT INTO peer_measurements VALUES(13,1,1,'18dc421fcd0d','batch.read_once','torch.sum; token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.094399999999999997801,0.093399999999999996913,0.094799999999999995381,NULL,1,'2026-11-27T11:49:01.887Z','gpu');
INSERT INTO peer_measurements VALUES(14,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.84070000000000000284,0.84070000000000000284,0.84089999999999998081,NULL,1,'2026-11-27T11:49:01.887Z','gpu');
INSERT INTO peer_measurements VALUES(15,1,1,'18dc421fcd0d','batch.read_once','torch.sum; moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.029999999999999998889,0.029700000000000000704,0.030800000000000000988,NULL,1,'2026-11-27T11:49:01.887Z','gpu');
INSERT INTO peer_measurements VALUES(16,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,1.4196999999999999619,1.4186000000000000831,1.4207000000000000738,NULL,1,'2026-11-27T11:49:01.888Z','gpu');
INSERT INTO peer_measurements VALUES(17,1,1,'18dc421fcd0d','batch.read_once','torch.sum; ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,0.14199999999999998734,0.14139999999999999791,0.14260000000000000452,NULL,1,'2026-11-27T11:49:01.888Z','gpu');
INSERT INTO peer_measurements VALUES(18,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,1.1715999999999999747,1.169100000000000028,1.1726000000000000866,NULL,1,'2026-11-27T11:49:01.888Z','gpu');
INSERT INTO peer_measurements VALUES(19,1,1,'18dc421fcd0d','batch.read_once','torch.sum; ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,0.12700000000000000177,0.12640000000000001234,0.12770000000000000794,NULL,1,'2026-11-27T11:49:01.888Z','gpu');
INSERT INTO peer_measurements VALUES(20,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,3.2692000000000001058,3.2684000000000001939,3.2711999999999998856,NULL,1,'2026-11-27T11:49:01.888Z','gpu');
INSERT INTO peer_measurements VALUES(21,1,1,'18dc421fcd0d','batch.read_once','torch.sum; long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,0.35170000000000001261,0.35060000000000002273,0.35320000000000001394,NULL,1,'2026-11-27T11:49:01.888Z','gpu');
INSERT INTO peer_measurements VALUES(22,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,14.480100000000000193,14.477700000000000458,14.482699999999999462,NULL,1,'2026-11-27T11:49:01.888Z','gpu');
INSERT INTO peer_measurements VALUES(23,1,1,'18dc421fcd0d','batch.read_once','torch.sum; long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,1.3805000000000000603,1.3781000000000001026,1.3828000000000000291,NULL,1,'2026-11-27T11:49:01.888Z','gpu');
INSERT INTO peer_measurements VALUES(24,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; plaw-small 65536 segs, 8 bins','UD','f32',1,30003811,50,'ok',NULL,7,1.348200000000000065,1.3376999999999998891,1.3519000000000001016,NULL,1,'2026-11-27T11:49:01.888Z','gpu');
INSERT INTO peer_measurements VALUES(25,1,1,'18dc421fcd0d','batch.read_once','torch.sum; plaw-small 65536 segs, 8 bins','UD','f32',1,30003811,50,'ok',NULL,7,0.046699999999999998456,0.046499999999999999666,0.047300000000000001765,NULL,1,'2026-11-27T11:49:01.888Z','gpu');
INSERT INTO peer_measurements VALUES(26,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; plaw-large 16384 segs, 17 bins','UD','f32',1,22700570,50,'ok',NULL,7,1.6115999999999999214,1.5915999999999999037,1.6146000000000000351,NULL,1,'2026-11-27T11:49:01.888Z','gpu');
INSERT INTO peer_measurements VALUES(27,1,1,'18dc421fcd0d','batch.read_once','torch.sum; plaw-large 16384 segs, 17 bins','UD','f32',1,22700570,50,'ok',NULL,7,0.038199999999999997846,0.037600000000000001476,0.042999999999999996558,NULL,1,'2026-11-27T11:49:01.888Z','gpu');
INSERT INTO peer_measurements VALUES(28,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 token-131k','UD','f32',1,33554432,50,'skipped','not supported: segments of 131072..131072 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T11:49:01.888Z','call');
INSERT INTO peer_measurements VALUES(29,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 token-262k','UD','f32',1,67108864,50,'skipped','not supported: segments of 262144..262144 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T11:49:01.888Z','call');
INSERT INTO peer_measurements VALUES(30,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 moe','UD','f32',1,16777216,8,'ok',NULL,7,0.1423999999999999988,0.14230000000000000981,0.14249999999999998778,NULL,1,'2026-11-27T11:49:01.888Z','gpu');
INSERT INTO peer_measurements VALUES(31,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 ann-10000','UD','f32',1,100000000,100,'skipped','not supported: segments of 10000..10000 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T11:49:01.888Z','call');
INSERT INTO peer_measurements VALUES(32,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 ann-8192','UD','f32',1,81920000,100,'ok',NULL,7,0.43219999999999997308,0.4320999999999999841,0.43259999999999998454,NULL,1,'2026-11-27T11:49:01.888Z','gpu');
INSERT INTO peer_measurements VALUES(33,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 long-2^24','UD','f32',1,268435456,1024,'skipped','not supported: segments of 16777216..16777216 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T11:49:01.888Z','call');
INSERT INTO peer_measurements VALUES(34,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 long-2^28','UD','f32',1,1073741824,1024,'skipped','not supported: segments of 268435456..268435456 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T11:49:01.888Z','call');
INSERT INTO peer_measurements VALUES(35,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 plaw-small','UD','f32',1,30003811,50,'ok',NULL,7,2.4624999999999999111,2.4620999999999999552,2.4634000000000000341,NULL,1,'2026-11-27T11:49:01.888Z','gpu');
INSERT INTO peer_measurements VALUES(36,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 plaw-large','UD','f32',1,22700570,50,'skipped','not supported: segments of 64..6702602 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T11:49:01.888Z','call');
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
INSERT INTO runs VALUES(1,'019606df1054b053e6e1ce37c49cb09f',1,'tuner','.dev/arch/src/h58/bin/tuner --import-peers /root/out/batch/batch.jsonl --db /root/out/results.sqlite','18dc421fcd0d','2026-11-27T11:49:01.887Z','2026-11-27T11:49:01.889Z','done',1530,'vm');
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
