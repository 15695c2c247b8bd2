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
INSERT INTO "machines" VALUES(1,'GPU-0240810c-4baf-ee8c-5d5d-9e3ef7281f5d','NVIDIA H200','cuda',NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'2026-11-27T04:49:46.553Z',NULL,NULL);
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
INSERT INTO "peer_measurements" VALUES(1,1,1,'3a15aeb50792','batch.drtopk','3a15aeb50792 token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.10032,0.099264,0.10112,'[0.099776,0.10032,0.10096,0.099264,0.099904,0.10112,0.100576]',1,'2026-11-27T04:49:46.553Z','gpu');
INSERT INTO "peer_measurements" VALUES(2,1,1,'3a15aeb50792','batch.drtopk','3a15aeb50792 token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.169984,0.169056,0.171008,'[0.169184,0.170112,0.169056,0.16976,0.169984,0.170304,0.171008]',1,'2026-11-27T04:49:46.553Z','gpu');
INSERT INTO "peer_measurements" VALUES(3,1,1,'3a15aeb50792','batch.drtopk','3a15aeb50792 moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.06608,0.065824,0.066176,'[0.06608,0.065824,0.06608,0.066176,0.066048,0.066112,0.066112]',1,'2026-11-27T04:49:46.553Z','gpu');
INSERT INTO "peer_measurements" VALUES(4,1,1,'3a15aeb50792','batch.drtopk','3a15aeb50792 ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,0.227968,0.227264,0.229216,'[0.229216,0.227968,0.227488,0.228192,0.227264,0.22784,0.228288]',1,'2026-11-27T04:49:46.553Z','gpu');
INSERT INTO "peer_measurements" VALUES(5,1,1,'3a15aeb50792','batch.drtopk','3a15aeb50792 ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,0.192032,0.190944,0.192736,'[0.192736,0.192032,0.190944,0.19248,0.191936,0.192192,0.191904]',1,'2026-11-27T04:49:46.553Z','gpu');
INSERT INTO "peer_measurements" VALUES(6,1,1,'3a15aeb50792','batch.drtopk','3a15aeb50792 long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,0.377792,0.37216,0.385824,'[0.380352,0.377792,0.378816,0.385824,0.37216,0.376384,0.377152]',1,'2026-11-27T04:49:46.553Z','gpu');
INSERT INTO "peer_measurements" VALUES(7,1,1,'3a15aeb50792','batch.drtopk','3a15aeb50792 long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,1.294304,1.29216,1.297344,'[1.29216,1.297344,1.296416,1.294304,1.294176,1.293824,1.294496]',1,'2026-11-27T04:49:46.553Z','gpu');
INSERT INTO "peer_measurements" VALUES(8,1,1,'3a15aeb50792','batch.drtopk','3a15aeb50792 plaw-small plaw-small.u64','UD','f32',1,30003811,50,'ok',NULL,7,0.391488,0.384832,0.396064,'[0.393984,0.3912,0.384832,0.391488,0.386976,0.396064,0.393728]',1,'2026-11-27T04:49:46.553Z','gpu');
INSERT INTO "peer_measurements" VALUES(9,1,1,'3a15aeb50792','batch.drtopk','3a15aeb50792 plaw-large plaw-large.u64','UD','f32',1,22700570,50,'ok',NULL,7,0.518464,0.5144,0.525856,'[0.52144,0.525856,0.51696,0.518912,0.518464,0.5144,0.515168]',1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(10,1,1,'3a15aeb50792','batch.torch_topk','torch 2.11.0+cu130; token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.467,0.4659,0.4682,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(11,1,1,'3a15aeb50792','batch.read_once','torch.sum; token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.0393,0.0386,0.0401,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(12,1,1,'3a15aeb50792','batch.torch_topk','torch 2.11.0+cu130; token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.8399,0.8384,0.8426,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(13,1,1,'3a15aeb50792','batch.read_once','torch.sum; token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.0687,0.0674,0.0691,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(14,1,1,'3a15aeb50792','batch.torch_topk','torch 2.11.0+cu130; moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.8412,0.8411,0.8413,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(15,1,1,'3a15aeb50792','batch.read_once','torch.sum; moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.0237,0.0236,0.0244,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(16,1,1,'3a15aeb50792','batch.torch_topk','torch 2.11.0+cu130; ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,1.3299,1.3276,1.3308,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(17,1,1,'3a15aeb50792','batch.read_once','torch.sum; ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,0.106,0.105,0.1067,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(18,1,1,'3a15aeb50792','batch.torch_topk','torch 2.11.0+cu130; ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,1.1035,1.1025,1.106,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(19,1,1,'3a15aeb50792','batch.read_once','torch.sum; ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,0.0987,0.0976,0.0996,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(20,1,1,'3a15aeb50792','batch.torch_topk','torch 2.11.0+cu130; long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,3.0895,3.0863,3.0897,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(21,1,1,'3a15aeb50792','batch.read_once','torch.sum; long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,0.2511,0.2498,0.2519,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(22,1,1,'3a15aeb50792','batch.torch_topk','torch 2.11.0+cu130; long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,13.7396,13.7267,13.7423,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(23,1,1,'3a15aeb50792','batch.read_once','torch.sum; long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,0.981,0.9774,0.9824,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(24,1,1,'3a15aeb50792','batch.torch_topk','torch 2.11.0+cu130; plaw-small 65536 segs, 8 bins','UD','f32',1,30003811,50,'ok',NULL,7,1.302,1.2983,1.3053,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(25,1,1,'3a15aeb50792','batch.read_once','torch.sum; plaw-small 65536 segs, 8 bins','UD','f32',1,30003811,50,'ok',NULL,7,0.0354,0.0352,0.0363,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(26,1,1,'3a15aeb50792','batch.torch_topk','torch 2.11.0+cu130; plaw-large 16384 segs, 17 bins','UD','f32',1,22700570,50,'ok',NULL,7,1.5471,1.5271,1.5564,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(27,1,1,'3a15aeb50792','batch.read_once','torch.sum; plaw-large 16384 segs, 17 bins','UD','f32',1,22700570,50,'ok',NULL,7,0.0299,0.0292,0.0302,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(28,1,1,'3a15aeb50792','batch.cub_batched_topk','CCCL 3.5.0 token-131k','UD','f32',1,33554432,50,'skipped','not supported: segments of 131072..131072 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T04:49:46.554Z','call');
INSERT INTO "peer_measurements" VALUES(29,1,1,'3a15aeb50792','batch.cub_batched_topk','CCCL 3.5.0 token-262k','UD','f32',1,67108864,50,'skipped','not supported: segments of 262144..262144 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T04:49:46.554Z','call');
INSERT INTO "peer_measurements" VALUES(30,1,1,'3a15aeb50792','batch.cub_batched_topk','CCCL 3.5.0 moe','UD','f32',1,16777216,8,'ok',NULL,7,0.1423,0.1421,0.1425,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(31,1,1,'3a15aeb50792','batch.cub_batched_topk','CCCL 3.5.0 ann-10000','UD','f32',1,100000000,100,'skipped','not supported: segments of 10000..10000 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T04:49:46.554Z','call');
INSERT INTO "peer_measurements" VALUES(32,1,1,'3a15aeb50792','batch.cub_batched_topk','CCCL 3.5.0 ann-8192','UD','f32',1,81920000,100,'ok',NULL,7,0.4322,0.4313,0.4338,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(33,1,1,'3a15aeb50792','batch.cub_batched_topk','CCCL 3.5.0 long-2^24','UD','f32',1,268435456,1024,'skipped','not supported: segments of 16777216..16777216 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T04:49:46.554Z','call');
INSERT INTO "peer_measurements" VALUES(34,1,1,'3a15aeb50792','batch.cub_batched_topk','CCCL 3.5.0 long-2^28','UD','f32',1,1073741824,1024,'skipped','not supported: segments of 268435456..268435456 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T04:49:46.554Z','call');
INSERT INTO "peer_measurements" VALUES(35,1,1,'3a15aeb50792','batch.cub_batched_topk','CCCL 3.5.0 plaw-small','UD','f32',1,30003811,50,'ok',NULL,7,2.4612,2.4605,2.4625,NULL,1,'2026-11-27T04:49:46.554Z','gpu');
INSERT INTO "peer_measurements" VALUES(36,1,1,'3a15aeb50792','batch.cub_batched_topk','CCCL 3.5.0 plaw-large','UD','f32',1,22700570,50,'skipped','not supported: segments of 64..6702602 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T04:49:46.555Z','call');
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
INSERT INTO "runs" VALUES(1,'0f109629448c849cce16517532611363',1,'tuner','bin/tuner --import-peers /root/out/batch/batch.jsonl --db /root/out/results.sqlite','3a15aeb50792','2026-11-27T04:49:46.553Z','2026-11-27T04:49:46.555Z','done',2431,'vm');
CREATE TABLE schema_version (
    version    INTEGER NOT NULL
);
INSERT INTO "schema_version" VALUES(10);
CREATE INDEX measurements_fit ON measurements (machine_id, git_commit, dtype, algorithm, beta);
CREATE INDEX peer_measurements_table ON peer_measurements (machine_id, dtype, n);
COMMIT;
