PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
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
CREATE TABLE "choices" (
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
INSERT INTO "machines" VALUES(1,'GPU-0ecb5c3a-3928-85e2-1366-1639ef2c3d2d','NVIDIA H100 80GB HBM3','cuda',NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'2026-11-27T04:27:24.551Z',NULL,NULL);
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
INSERT INTO "peer_measurements" VALUES(1,1,1,'4c54adff09d8','batch.drtopk','4c54adff09d8 token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.107136,0.106208,0.10784,'[0.106208,0.10784,0.107136,0.106592,0.106368,0.107776,0.107168]',1,'2026-11-27T04:27:24.551Z','gpu');
INSERT INTO "peer_measurements" VALUES(2,1,1,'4c54adff09d8','batch.drtopk','4c54adff09d8 token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.18,0.178496,0.181024,'[0.181024,0.180576,0.179936,0.17904,0.178496,0.18,0.180352]',1,'2026-11-27T04:27:24.551Z','gpu');
INSERT INTO "peer_measurements" VALUES(3,1,1,'4c54adff09d8','batch.drtopk','4c54adff09d8 moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.065344,0.065248,0.065376,'[0.065312,0.065376,0.065344,0.065344,0.06528,0.065248,0.065376]',1,'2026-11-27T04:27:24.551Z','gpu');
INSERT INTO "peer_measurements" VALUES(4,1,1,'4c54adff09d8','batch.drtopk','4c54adff09d8 ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,0.244512,0.243872,0.24592,'[0.24592,0.244672,0.24432,0.244192,0.243872,0.244512,0.245376]',1,'2026-11-27T04:27:24.551Z','gpu');
INSERT INTO "peer_measurements" VALUES(5,1,1,'4c54adff09d8','batch.drtopk','4c54adff09d8 ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,0.204448,0.203648,0.205248,'[0.205248,0.205216,0.204448,0.20448,0.203648,0.204224,0.203904]',1,'2026-11-27T04:27:24.551Z','gpu');
INSERT INTO "peer_measurements" VALUES(6,1,1,'4c54adff09d8','batch.drtopk','4c54adff09d8 long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,0.489376,0.485952,0.496544,'[0.496544,0.496256,0.485984,0.489376,0.485952,0.491776,0.487424]',1,'2026-11-27T04:27:24.551Z','gpu');
INSERT INTO "peer_measurements" VALUES(7,1,1,'4c54adff09d8','batch.drtopk','4c54adff09d8 long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,1.716544,1.712832,1.71808,'[1.71808,1.71632,1.712832,1.716544,1.71584,1.717024,1.717504]',1,'2026-11-27T04:27:24.551Z','gpu');
INSERT INTO "peer_measurements" VALUES(8,1,1,'4c54adff09d8','batch.drtopk','4c54adff09d8 plaw-small plaw-small.u64','UD','f32',1,30003811,50,'ok',NULL,7,0.396672,0.39312,0.400352,'[0.39312,0.39536,0.396672,0.3968,0.39664,0.396864,0.400352]',1,'2026-11-27T04:27:24.551Z','gpu');
INSERT INTO "peer_measurements" VALUES(9,1,1,'4c54adff09d8','batch.drtopk','4c54adff09d8 plaw-large plaw-large.u64','UD','f32',1,22700570,50,'ok',NULL,7,0.524736,0.5216,0.529504,'[0.524928,0.522016,0.524736,0.523264,0.526336,0.529504,0.5216]',1,'2026-11-27T04:27:24.551Z','gpu');
INSERT INTO "peer_measurements" VALUES(10,1,1,'4c54adff09d8','batch.torch_topk','torch 2.11.0+cu130; token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.4912,0.4892,0.4921,NULL,1,'2026-11-27T04:27:24.551Z','gpu');
INSERT INTO "peer_measurements" VALUES(11,1,1,'4c54adff09d8','batch.read_once','torch.sum; token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.052,0.0508,0.0523,NULL,1,'2026-11-27T04:27:24.551Z','gpu');
INSERT INTO "peer_measurements" VALUES(12,1,1,'4c54adff09d8','batch.torch_topk','torch 2.11.0+cu130; token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.8851,0.8834,0.8867,NULL,1,'2026-11-27T04:27:24.551Z','gpu');
INSERT INTO "peer_measurements" VALUES(13,1,1,'4c54adff09d8','batch.read_once','torch.sum; token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.0942,0.094,0.0954,NULL,1,'2026-11-27T04:27:24.551Z','gpu');
INSERT INTO "peer_measurements" VALUES(14,1,1,'4c54adff09d8','batch.torch_topk','torch 2.11.0+cu130; moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.8348,0.8348,0.8349,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(15,1,1,'4c54adff09d8','batch.read_once','torch.sum; moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.0299,0.0297,0.0308,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(16,1,1,'4c54adff09d8','batch.torch_topk','torch 2.11.0+cu130; ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,1.416,1.4143,1.4166,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(17,1,1,'4c54adff09d8','batch.read_once','torch.sum; ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,0.1419,0.1412,0.1421,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(18,1,1,'4c54adff09d8','batch.torch_topk','torch 2.11.0+cu130; ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,1.1702,1.1686,1.1723,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(19,1,1,'4c54adff09d8','batch.read_once','torch.sum; ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,0.127,0.1261,0.1277,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(20,1,1,'4c54adff09d8','batch.torch_topk','torch 2.11.0+cu130; long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,3.2607,3.2597,3.2615,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(21,1,1,'4c54adff09d8','batch.read_once','torch.sum; long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,0.3526,0.3516,0.3531,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(22,1,1,'4c54adff09d8','batch.torch_topk','torch 2.11.0+cu130; long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,14.4284,14.425,14.4338,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(23,1,1,'4c54adff09d8','batch.read_once','torch.sum; long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,1.3814,1.3799,1.3818,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(24,1,1,'4c54adff09d8','batch.torch_topk','torch 2.11.0+cu130; plaw-small 65536 segs, 8 bins','UD','f32',1,30003811,50,'ok',NULL,7,1.3385,1.3352,1.3487,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(25,1,1,'4c54adff09d8','batch.read_once','torch.sum; plaw-small 65536 segs, 8 bins','UD','f32',1,30003811,50,'ok',NULL,7,0.0465,0.0463,0.0474,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(26,1,1,'4c54adff09d8','batch.torch_topk','torch 2.11.0+cu130; plaw-large 16384 segs, 17 bins','UD','f32',1,22700570,50,'ok',NULL,7,1.6067,1.5959,1.6102,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(27,1,1,'4c54adff09d8','batch.read_once','torch.sum; plaw-large 16384 segs, 17 bins','UD','f32',1,22700570,50,'ok',NULL,7,0.038,0.0373,0.0394,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(28,1,1,'4c54adff09d8','batch.cub_batched_topk','CCCL 3.5.0 token-131k','UD','f32',1,33554432,50,'skipped','not supported: segments of 131072..131072 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T04:27:24.552Z','call');
INSERT INTO "peer_measurements" VALUES(29,1,1,'4c54adff09d8','batch.cub_batched_topk','CCCL 3.5.0 token-262k','UD','f32',1,67108864,50,'skipped','not supported: segments of 262144..262144 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T04:27:24.552Z','call');
INSERT INTO "peer_measurements" VALUES(30,1,1,'4c54adff09d8','batch.cub_batched_topk','CCCL 3.5.0 moe','UD','f32',1,16777216,8,'ok',NULL,7,0.1413,0.1411,0.1415,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(31,1,1,'4c54adff09d8','batch.cub_batched_topk','CCCL 3.5.0 ann-10000','UD','f32',1,100000000,100,'skipped','not supported: segments of 10000..10000 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T04:27:24.552Z','call');
INSERT INTO "peer_measurements" VALUES(32,1,1,'4c54adff09d8','batch.cub_batched_topk','CCCL 3.5.0 ann-8192','UD','f32',1,81920000,100,'ok',NULL,7,0.4292,0.4291,0.4299,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(33,1,1,'4c54adff09d8','batch.cub_batched_topk','CCCL 3.5.0 long-2^24','UD','f32',1,268435456,1024,'skipped','not supported: segments of 16777216..16777216 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T04:27:24.552Z','call');
INSERT INTO "peer_measurements" VALUES(34,1,1,'4c54adff09d8','batch.cub_batched_topk','CCCL 3.5.0 long-2^28','UD','f32',1,1073741824,1024,'skipped','not supported: segments of 268435456..268435456 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T04:27:24.552Z','call');
INSERT INTO "peer_measurements" VALUES(35,1,1,'4c54adff09d8','batch.cub_batched_topk','CCCL 3.5.0 plaw-small','UD','f32',1,30003811,50,'ok',NULL,7,2.4451,2.4447,2.4455,NULL,1,'2026-11-27T04:27:24.552Z','gpu');
INSERT INTO "peer_measurements" VALUES(36,1,1,'4c54adff09d8','batch.cub_batched_topk','CCCL 3.5.0 plaw-large','UD','f32',1,22700570,50,'skipped','not supported: segments of 64..6702602 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T04:27:24.552Z','call');
CREATE TABLE "runs" (
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
INSERT INTO "runs" VALUES(1,'808be0d7b7103b3f4747e696cbf65a9c',1,'tuner','bin/tuner --import-peers /root/out/batch/batch.jsonl --db /root/out/results.sqlite','4c54adff09d8','2026-11-27T04:27:24.551Z','2026-11-27T04:27:24.552Z','done',2166,'vm');
CREATE TABLE schema_version (
    version    INTEGER NOT NULL
);
INSERT INTO "schema_version" VALUES(10);
CREATE INDEX measurements_fit ON measurements (machine_id, git_commit, dtype, algorithm, beta);
CREATE INDEX peer_measurements_table ON peer_measurements (machine_id, dtype, n);
COMMIT;
