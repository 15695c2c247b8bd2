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
INSERT INTO machines VALUES(1,'GPU-c4fd4b97-cedf-db27-c9b8-4cc125b05fbc','NVIDIA H100 80GB HBM3','cuda',NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'2026-11-27T16:43:26.353Z',NULL,NULL);
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
INSERT INTO peer_measurements VALUES(1,1,1,'0b122c980052','batch.drtopk','0b122c980052 token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.10681599999999999428,0.10588799999999999601,0.10966399999999999759,'[0.106944,0.106144,0.106816,0.106912,0.105888,0.109664,0.106752]',1,'2026-11-27T16:43:26.353Z','gpu');
INSERT INTO peer_measurements VALUES(2,1,1,'0b122c980052','batch.drtopk','0b122c980052 token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.17993600000000001259,0.17599999999999998978,0.1812159999999999882,'[0.18064,0.181216,0.179936,0.180256,0.178496,0.176256,0.176]',1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(3,1,1,'0b122c980052','batch.drtopk','0b122c980052 moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.065920000000000006368,0.065792000000000003256,0.066143999999999994465,'[0.066144,0.065792,0.06592,0.065888,0.066048,0.065888,0.065952]',1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(4,1,1,'0b122c980052','batch.drtopk','0b122c980052 ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,0.23305600000000001315,0.23075200000000001265,0.23388800000000001255,'[0.233056,0.230752,0.233056,0.23168,0.233888,0.233568,0.231616]',1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(5,1,1,'0b122c980052','batch.drtopk','0b122c980052 ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,0.20547199999999998798,0.20345599999999999796,0.20640000000000000013,'[0.2064,0.206272,0.205344,0.20512,0.203456,0.205824,0.205472]',1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(6,1,1,'0b122c980052','batch.drtopk','0b122c980052 long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,0.46617599999999997928,0.46300799999999997513,0.47439999999999998836,'[0.4744,0.467584,0.463232,0.466176,0.4688,0.463008,0.465696]',1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(7,1,1,'0b122c980052','batch.drtopk','0b122c980052 long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,1.500064000000000064,1.4976959999999999162,1.5068159999999999332,'[1.50496,1.499552,1.497696,1.499488,1.506816,1.50432,1.500064]',1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(8,1,1,'0b122c980052','batch.drtopk','0b122c980052 plaw-small plaw-small.u64','UD','f32',1,30003811,50,'ok',NULL,7,0.34479999999999999538,0.34156799999999998274,0.34825600000000000999,'[0.3448,0.342944,0.341568,0.34336,0.348256,0.345184,0.346816]',1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(9,1,1,'0b122c980052','batch.drtopk','0b122c980052 plaw-large plaw-large.u64','UD','f32',1,22700570,50,'ok',NULL,7,0.41680000000000000381,0.40924800000000000066,0.4436479999999999868,'[0.443296,0.443648,0.4168,0.409248,0.412096,0.416128,0.42208]',1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(10,1,1,'0b122c980052','batch.torch_topk','torch 2.11.0+cu130; token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.49259999999999998232,0.49130000000000001447,0.49390000000000000568,NULL,1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(11,1,1,'0b122c980052','batch.read_once','torch.sum; token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.051499999999999997168,0.050799999999999997934,0.051799999999999998823,NULL,1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(12,1,1,'0b122c980052','batch.torch_topk','torch 2.11.0+cu130; token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.88880000000000003446,0.88570000000000004281,0.89019999999999999129,NULL,1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(13,1,1,'0b122c980052','batch.read_once','torch.sum; token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.094399999999999997801,0.093499999999999999777,0.095799999999999996269,NULL,1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(14,1,1,'0b122c980052','batch.torch_topk','torch 2.11.0+cu130; moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.84240000000000003765,0.84230000000000004867,0.84260000000000001563,NULL,1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(15,1,1,'0b122c980052','batch.read_once','torch.sum; moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.029899999999999999494,0.029800000000000000099,0.030099999999999998284,NULL,1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(16,1,1,'0b122c980052','batch.torch_topk','torch 2.11.0+cu130; ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,1.4180999999999999161,1.4172000000000000152,1.4199999999999999289,NULL,1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(17,1,1,'0b122c980052','batch.read_once','torch.sum; ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,0.14180000000000000937,0.14060000000000000275,0.14219999999999999307,NULL,1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(18,1,1,'0b122c980052','batch.torch_topk','torch 2.11.0+cu130; ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,1.1710000000000000408,1.1685000000000000941,1.1761999999999999122,NULL,1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(19,1,1,'0b122c980052','batch.read_once','torch.sum; ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,0.12659999999999999031,0.1259000000000000119,0.1275999999999999912,NULL,1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(20,1,1,'0b122c980052','batch.torch_topk','torch 2.11.0+cu130; long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,3.2707999999999999296,3.2688000000000001499,3.2719999999999997974,NULL,1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(21,1,1,'0b122c980052','batch.read_once','torch.sum; long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,0.35149999999999997912,0.35110000000000002318,0.35210000000000002406,NULL,1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(22,1,1,'0b122c980052','batch.torch_topk','torch 2.11.0+cu130; long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,14.467100000000000292,14.459500000000000241,14.471700000000000229,NULL,1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(23,1,1,'0b122c980052','batch.read_once','torch.sum; long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,1.3810000000000000053,1.3808000000000000273,1.3824000000000000731,NULL,1,'2026-11-27T16:43:26.354Z','gpu');
INSERT INTO peer_measurements VALUES(24,1,1,'0b122c980052','batch.torch_topk','torch 2.11.0+cu130; plaw-small 65536 segs, 8 bins','UD','f32',1,30003811,50,'ok',NULL,7,1.3450999999999999623,1.3370999999999999552,1.3548000000000000042,NULL,1,'2026-11-27T16:43:26.355Z','gpu');
INSERT INTO peer_measurements VALUES(25,1,1,'0b122c980052','batch.read_once','torch.sum; plaw-small 65536 segs, 8 bins','UD','f32',1,30003811,50,'ok',NULL,7,0.046800000000000001321,0.046399999999999996802,0.047899999999999998134,NULL,1,'2026-11-27T16:43:26.355Z','gpu');
INSERT INTO peer_measurements VALUES(26,1,1,'0b122c980052','batch.torch_topk','torch 2.11.0+cu130; plaw-large 16384 segs, 17 bins','UD','f32',1,22700570,50,'ok',NULL,7,1.6074999999999999289,1.5901000000000000689,1.6132999999999999563,NULL,1,'2026-11-27T16:43:26.355Z','gpu');
INSERT INTO peer_measurements VALUES(27,1,1,'0b122c980052','batch.read_once','torch.sum; plaw-large 16384 segs, 17 bins','UD','f32',1,22700570,50,'ok',NULL,7,0.03810000000000000192,0.037299999999999999822,0.038199999999999997846,NULL,1,'2026-11-27T16:43:26.355Z','gpu');
INSERT INTO peer_measurements VALUES(28,1,1,'0b122c980052','batch.cub_batched_topk','CCCL 3.5.0 token-131k','UD','f32',1,33554432,50,'skipped','not supported: segments of 131072..131072 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T16:43:26.355Z','call');
INSERT INTO peer_measurements VALUES(29,1,1,'0b122c980052','batch.cub_batched_topk','CCCL 3.5.0 token-262k','UD','f32',1,67108864,50,'skipped','not supported: segments of 262144..262144 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T16:43:26.355Z','call');
INSERT INTO peer_measurements VALUES(30,1,1,'0b122c980052','batch.cub_batched_topk','CCCL 3.5.0 moe','UD','f32',1,16777216,8,'ok',NULL,7,0.14349999999999998867,0.14280000000000001025,0.14360000000000000541,NULL,1,'2026-11-27T16:43:26.355Z','gpu');
INSERT INTO peer_measurements VALUES(31,1,1,'0b122c980052','batch.cub_batched_topk','CCCL 3.5.0 ann-10000','UD','f32',1,100000000,100,'skipped','not supported: segments of 10000..10000 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T16:43:26.355Z','call');
INSERT INTO peer_measurements VALUES(32,1,1,'0b122c980052','batch.cub_batched_topk','CCCL 3.5.0 ann-8192','UD','f32',1,81920000,100,'ok',NULL,7,0.43259999999999998454,0.43240000000000000657,0.43380000000000001891,NULL,1,'2026-11-27T16:43:26.355Z','gpu');
INSERT INTO peer_measurements VALUES(33,1,1,'0b122c980052','batch.cub_batched_topk','CCCL 3.5.0 long-2^24','UD','f32',1,268435456,1024,'skipped','not supported: segments of 16777216..16777216 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T16:43:26.355Z','call');
INSERT INTO peer_measurements VALUES(34,1,1,'0b122c980052','batch.cub_batched_topk','CCCL 3.5.0 long-2^28','UD','f32',1,1073741824,1024,'skipped','not supported: segments of 268435456..268435456 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T16:43:26.355Z','call');
INSERT INTO peer_measurements VALUES(35,1,1,'0b122c980052','batch.cub_batched_topk','CCCL 3.5.0 plaw-small','UD','f32',1,30003811,50,'ok',NULL,7,2.463299999999999823,2.4628999999999998671,2.464100000000000179,NULL,1,'2026-11-27T16:43:26.355Z','gpu');
INSERT INTO peer_measurements VALUES(36,1,1,'0b122c980052','batch.cub_batched_topk','CCCL 3.5.0 plaw-large','UD','f32',1,22700570,50,'skipped','not supported: segments of 64..6702602 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T16:43:26.355Z','call');
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
INSERT INTO runs VALUES(1,'f78bcdd5110d608079928e10cf7f8b13',1,'tuner','/tmp/drtopk-carried-bin/bin/tuner --import-peers /root/out/batch/batch.jsonl --db /root/out/results.sqlite','0b122c980052','2026-11-27T16:43:26.353Z','2026-11-27T16:43:26.355Z','done',708,'vm');
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
