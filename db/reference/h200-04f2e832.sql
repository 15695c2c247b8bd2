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
INSERT INTO machines VALUES(1,'GPU-04f2e832-2af7-ea8a-e55a-9bdb86b0ebe7','NVIDIA H200','cuda',NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'2026-11-27T11:45:58.725Z',NULL,NULL);
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
INSERT INTO peer_measurements VALUES(1,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.096640000000000003677,0.095135999999999998344,0.098336000000000006737,'[0.09664,0.096288,0.098336,0.097888,0.095136,0.09616,0.097472]',1,'2026-11-27T11:45:58.725Z','gpu');
INSERT INTO peer_measurements VALUES(2,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.15817600000000001103,0.1566079999999999972,0.15993599999999999483,'[0.156608,0.157792,0.158176,0.157856,0.158496,0.159936,0.159488]',1,'2026-11-27T11:45:58.725Z','gpu');
INSERT INTO peer_measurements VALUES(3,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.065759999999999999009,0.065600000000000005528,0.065951999999999996737,'[0.065952,0.065888,0.06576,0.065728,0.065888,0.0656,0.065728]',1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(4,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,0.20467199999999999282,0.20211200000000001386,0.20560000000000000497,'[0.202976,0.205152,0.204192,0.202112,0.205184,0.2056,0.204672]',1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(5,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,0.18160000000000001141,0.18003199999999999758,0.18265600000000001279,'[0.182656,0.1816,0.181664,0.180032,0.180768,0.181664,0.181376]',1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(6,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,0.37296000000000001373,0.36780800000000002381,0.37375999999999998113,'[0.373088,0.37296,0.37312,0.369472,0.369056,0.37376,0.367808]',1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(7,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,1.2721279999999999255,1.2700160000000000337,1.2741439999999999432,'[1.270656,1.274144,1.272128,1.273792,1.271616,1.273216,1.270016]',1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(8,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d plaw-small plaw-small.u64','UD','f32',1,30003811,50,'ok',NULL,7,0.39196799999999998309,0.388384000000000007,0.39715200000000000501,'[0.391296,0.39168,0.397152,0.391968,0.394688,0.393824,0.388384]',1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(9,1,1,'18dc421fcd0d','batch.drtopk','18dc421fcd0d plaw-large plaw-large.u64','UD','f32',1,22700570,50,'ok',NULL,7,0.52156800000000003159,0.51625600000000004818,0.53001600000000004264,'[0.521568,0.52032,0.518144,0.530016,0.524224,0.522784,0.516256]',1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(10,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.46910000000000001696,0.46839999999999998303,0.47170000000000000817,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(11,1,1,'18dc421fcd0d','batch.read_once','torch.sum; token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.03810000000000000192,0.037800000000000000266,0.039500000000000000388,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(12,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.84970000000000001083,0.84889999999999998792,0.85070000000000001172,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(13,1,1,'18dc421fcd0d','batch.read_once','torch.sum; token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.066900000000000001132,0.066199999999999994959,0.06750000000000000444,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(14,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.84070000000000000284,0.84070000000000000284,0.84079999999999999182,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(15,1,1,'18dc421fcd0d','batch.read_once','torch.sum; moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.023500000000000000055,0.02340000000000000066,0.024500000000000000943,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(16,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,1.348300000000000054,1.3462000000000000632,1.3494999999999999218,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(17,1,1,'18dc421fcd0d','batch.read_once','torch.sum; ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,0.10509999999999999897,0.10399999999999999522,0.10549999999999999655,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(18,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,1.1171999999999999708,1.1165000000000000479,1.1188000000000000166,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(19,1,1,'18dc421fcd0d','batch.read_once','torch.sum; ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,0.098900000000000001798,0.09750000000000000333,0.10000000000000000555,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(20,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,3.1303000000000000824,3.1290000000000000035,3.132899999999999796,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(21,1,1,'18dc421fcd0d','batch.read_once','torch.sum; long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,0.24649999999999999689,0.24540000000000000701,0.24759999999999998676,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(22,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,13.975600000000000022,13.960599999999999454,13.979900000000000659,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(23,1,1,'18dc421fcd0d','batch.read_once','torch.sum; long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,0.96330000000000004511,0.95920000000000005258,0.96479999999999999094,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(24,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; plaw-small 65536 segs, 8 bins','UD','f32',1,30003811,50,'ok',NULL,7,1.2873000000000001108,1.2842999999999999971,1.294000000000000039,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(25,1,1,'18dc421fcd0d','batch.read_once','torch.sum; plaw-small 65536 segs, 8 bins','UD','f32',1,30003811,50,'ok',NULL,7,0.034799999999999997601,0.034599999999999998812,0.035999999999999997279,NULL,1,'2026-11-27T11:45:58.726Z','gpu');
INSERT INTO peer_measurements VALUES(26,1,1,'18dc421fcd0d','batch.torch_topk','torch 2.11.0+cu130; plaw-large 16384 segs, 17 bins','UD','f32',1,22700570,50,'ok',NULL,7,1.5202999999999999847,1.5,1.5304999999999999715,NULL,1,'2026-11-27T11:45:58.727Z','gpu');
INSERT INTO peer_measurements VALUES(27,1,1,'18dc421fcd0d','batch.read_once','torch.sum; plaw-large 16384 segs, 17 bins','UD','f32',1,22700570,50,'ok',NULL,7,0.02939999999999999905,0.028199999999999999372,0.030200000000000001149,NULL,1,'2026-11-27T11:45:58.727Z','gpu');
INSERT INTO peer_measurements VALUES(28,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 token-131k','UD','f32',1,33554432,50,'skipped','not supported: segments of 131072..131072 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T11:45:58.727Z','call');
INSERT INTO peer_measurements VALUES(29,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 token-262k','UD','f32',1,67108864,50,'skipped','not supported: segments of 262144..262144 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T11:45:58.727Z','call');
INSERT INTO peer_measurements VALUES(30,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 moe','UD','f32',1,16777216,8,'ok',NULL,7,0.14260000000000000452,0.14230000000000000981,0.14289999999999999924,NULL,1,'2026-11-27T11:45:58.727Z','gpu');
INSERT INTO peer_measurements VALUES(31,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 ann-10000','UD','f32',1,100000000,100,'skipped','not supported: segments of 10000..10000 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T11:45:58.727Z','call');
INSERT INTO peer_measurements VALUES(32,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 ann-8192','UD','f32',1,81920000,100,'ok',NULL,7,0.43240000000000000657,0.43169999999999997264,0.43319999999999997397,NULL,1,'2026-11-27T11:45:58.727Z','gpu');
INSERT INTO peer_measurements VALUES(33,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 long-2^24','UD','f32',1,268435456,1024,'skipped','not supported: segments of 16777216..16777216 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T11:45:58.727Z','call');
INSERT INTO peer_measurements VALUES(34,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 long-2^28','UD','f32',1,1073741824,1024,'skipped','not supported: segments of 268435456..268435456 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T11:45:58.727Z','call');
INSERT INTO peer_measurements VALUES(35,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 plaw-small','UD','f32',1,30003811,50,'ok',NULL,7,2.4653999999999998138,2.4649999999999998578,2.4655000000000000248,NULL,1,'2026-11-27T11:45:58.727Z','gpu');
INSERT INTO peer_measurements VALUES(36,1,1,'18dc421fcd0d','batch.cub_batched_topk','CCCL 3.5.0 plaw-large','UD','f32',1,22700570,50,'skipped','not supported: segments of 64..6702602 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T11:45:58.727Z','call');
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
INSERT INTO runs VALUES(1,'56f27dcecdb2d24ff57e2af03432f9d5',1,'tuner','.dev/arch/src/h58/bin/tuner --import-peers /root/out/batch/batch.jsonl --db /root/out/results.sqlite','18dc421fcd0d','2026-11-27T11:45:58.725Z','2026-11-27T11:45:58.727Z','done',1649,'vm');
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
