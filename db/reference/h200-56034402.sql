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
INSERT INTO machines VALUES(1,'GPU-56034402-5f91-e8fd-2c35-9647a3e90062','NVIDIA H200','cuda',NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'2026-11-27T16:31:55.384Z',NULL,NULL);
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
INSERT INTO peer_measurements VALUES(1,1,1,'eb8f87c0390b','batch.drtopk','eb8f87c0390b token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.097248000000000001108,0.0955199999999999938,0.097888000000000002787,'[0.096064,0.097696,0.097888,0.09552,0.096032,0.09744,0.097248]',1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(2,1,1,'eb8f87c0390b','batch.drtopk','eb8f87c0390b token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.15823999999999999177,0.15753600000000000935,0.1597439999999999971,'[0.15824,0.159744,0.157824,0.159072,0.157536,0.157984,0.15888]',1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(3,1,1,'eb8f87c0390b','batch.drtopk','eb8f87c0390b moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.065920000000000006368,0.065823999999999993626,0.066175999999999998713,'[0.066048,0.065888,0.065984,0.066176,0.06592,0.065824,0.06592]',1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(4,1,1,'eb8f87c0390b','batch.drtopk','eb8f87c0390b ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,0.20598400000000000042,0.20463999999999998857,0.20649600000000001287,'[0.205984,0.20464,0.206496,0.205152,0.20464,0.20624,0.206048]',1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(5,1,1,'eb8f87c0390b','batch.drtopk','eb8f87c0390b ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,0.18131200000000000094,0.18041599999999999304,0.18399999999999999689,'[0.180928,0.181312,0.180416,0.180672,0.184,0.181824,0.182656]',1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(6,1,1,'eb8f87c0390b','batch.drtopk','eb8f87c0390b long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,0.3543999999999999928,0.35167999999999999261,0.3634240000000000248,'[0.363424,0.3544,0.35536,0.354112,0.353152,0.356224,0.35168]',1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(7,1,1,'eb8f87c0390b','batch.drtopk','eb8f87c0390b long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,1.0635520000000000528,1.0626880000000000769,1.0647679999999999367,'[1.064512,1.064768,1.063136,1.064608,1.062976,1.063552,1.062688]',1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(8,1,1,'eb8f87c0390b','batch.drtopk','eb8f87c0390b plaw-small plaw-small.u64','UD','f32',1,30003811,50,'ok',NULL,7,0.35059200000000001473,0.34393600000000001948,0.35321599999999997443,'[0.349184,0.351584,0.352864,0.353216,0.343936,0.350592,0.34592]',1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(9,1,1,'eb8f87c0390b','batch.drtopk','eb8f87c0390b plaw-large plaw-large.u64','UD','f32',1,22700570,50,'ok',NULL,7,0.4124479999999999813,0.39798400000000000442,0.4222400000000000042,'[0.405408,0.41712,0.42224,0.397984,0.4168,0.412448,0.398944]',1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(10,1,1,'eb8f87c0390b','batch.torch_topk','torch 2.11.0+cu130; token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.4668999999999999817,0.46510000000000001341,0.46860000000000001652,NULL,1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(11,1,1,'eb8f87c0390b','batch.read_once','torch.sum; token-131k 256x131072','UD','f32',1,33554432,50,'ok',NULL,7,0.03869999999999999829,0.038399999999999996636,0.039600000000000003252,NULL,1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(12,1,1,'eb8f87c0390b','batch.torch_topk','torch 2.11.0+cu130; token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.84040000000000003588,0.83989999999999997992,0.84109999999999995878,NULL,1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(13,1,1,'eb8f87c0390b','batch.read_once','torch.sum; token-262k 256x262144','UD','f32',1,67108864,50,'ok',NULL,7,0.068599999999999994315,0.067400000000000001576,0.069900000000000003796,NULL,1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(14,1,1,'eb8f87c0390b','batch.torch_topk','torch 2.11.0+cu130; moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.8409999999999999698,0.84089999999999998081,0.84109999999999995878,NULL,1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(15,1,1,'eb8f87c0390b','batch.read_once','torch.sum; moe 65536x256','UD','f32',1,16777216,8,'ok',NULL,7,0.023699999999999998845,0.023500000000000000055,0.024099999999999999894,NULL,1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(16,1,1,'eb8f87c0390b','batch.torch_topk','torch 2.11.0+cu130; ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,1.3315999999999998948,1.3306000000000000049,1.3327999999999999847,NULL,1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(17,1,1,'eb8f87c0390b','batch.read_once','torch.sum; ann-10000 10000x10000','UD','f32',1,100000000,100,'ok',NULL,7,0.10580000000000000515,0.10509999999999999897,0.10680000000000000603,NULL,1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(18,1,1,'eb8f87c0390b','batch.torch_topk','torch 2.11.0+cu130; ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,1.1047000000000000152,1.1021000000000000795,1.1050999999999999712,NULL,1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(19,1,1,'eb8f87c0390b','batch.read_once','torch.sum; ann-8192 10000x8192','UD','f32',1,81920000,100,'ok',NULL,7,0.099099999999999993649,0.098400000000000001354,0.099699999999999996957,NULL,1,'2026-11-27T16:31:55.385Z','gpu');
INSERT INTO peer_measurements VALUES(20,1,1,'eb8f87c0390b','batch.torch_topk','torch 2.11.0+cu130; long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,3.0901000000000000689,3.0878000000000001001,3.0920000000000000817,NULL,1,'2026-11-27T16:31:55.386Z','gpu');
INSERT INTO peer_measurements VALUES(21,1,1,'eb8f87c0390b','batch.read_once','torch.sum; long-2^24 16x16777216','UD','f32',1,268435456,1024,'ok',NULL,7,0.25040000000000001145,0.24970000000000000528,0.25209999999999999076,NULL,1,'2026-11-27T16:31:55.386Z','gpu');
INSERT INTO peer_measurements VALUES(22,1,1,'eb8f87c0390b','batch.torch_topk','torch 2.11.0+cu130; long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,13.74039999999999928,13.736100000000000421,13.745400000000000062,NULL,1,'2026-11-27T16:31:55.386Z','gpu');
INSERT INTO peer_measurements VALUES(23,1,1,'eb8f87c0390b','batch.read_once','torch.sum; long-2^28 4x268435456','UD','f32',1,1073741824,1024,'ok',NULL,7,0.97819999999999995843,0.97650000000000003463,0.98380000000000000781,NULL,1,'2026-11-27T16:31:55.386Z','gpu');
INSERT INTO peer_measurements VALUES(24,1,1,'eb8f87c0390b','batch.torch_topk','torch 2.11.0+cu130; plaw-small 65536 segs, 8 bins','UD','f32',1,30003811,50,'ok',NULL,7,1.3009999999999999342,1.2971999999999999086,1.3058000000000000717,NULL,1,'2026-11-27T16:31:55.386Z','gpu');
INSERT INTO peer_measurements VALUES(25,1,1,'eb8f87c0390b','batch.read_once','torch.sum; plaw-small 65536 segs, 8 bins','UD','f32',1,30003811,50,'ok',NULL,7,0.0355999999999999997,0.035099999999999999256,0.036299999999999998934,NULL,1,'2026-11-27T16:31:55.386Z','gpu');
INSERT INTO peer_measurements VALUES(26,1,1,'eb8f87c0390b','batch.torch_topk','torch 2.11.0+cu130; plaw-large 16384 segs, 17 bins','UD','f32',1,22700570,50,'ok',NULL,7,1.5341000000000000191,1.5282000000000000028,1.5379000000000000447,NULL,1,'2026-11-27T16:31:55.386Z','gpu');
INSERT INTO peer_measurements VALUES(27,1,1,'eb8f87c0390b','batch.read_once','torch.sum; plaw-large 16384 segs, 17 bins','UD','f32',1,22700570,50,'ok',NULL,7,0.029499999999999998445,0.028699999999999999816,0.029899999999999999494,NULL,1,'2026-11-27T16:31:55.386Z','gpu');
INSERT INTO peer_measurements VALUES(28,1,1,'eb8f87c0390b','batch.cub_batched_topk','CCCL 3.5.0 token-131k','UD','f32',1,33554432,50,'skipped','not supported: segments of 131072..131072 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T16:31:55.386Z','call');
INSERT INTO peer_measurements VALUES(29,1,1,'eb8f87c0390b','batch.cub_batched_topk','CCCL 3.5.0 token-262k','UD','f32',1,67108864,50,'skipped','not supported: segments of 262144..262144 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T16:31:55.386Z','call');
INSERT INTO peer_measurements VALUES(30,1,1,'eb8f87c0390b','batch.cub_batched_topk','CCCL 3.5.0 moe','UD','f32',1,16777216,8,'ok',NULL,7,0.14249999999999998778,0.1423999999999999988,0.14299999999999998823,NULL,1,'2026-11-27T16:31:55.386Z','gpu');
INSERT INTO peer_measurements VALUES(31,1,1,'eb8f87c0390b','batch.cub_batched_topk','CCCL 3.5.0 ann-10000','UD','f32',1,100000000,100,'skipped','not supported: segments of 10000..10000 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T16:31:55.386Z','call');
INSERT INTO peer_measurements VALUES(32,1,1,'eb8f87c0390b','batch.cub_batched_topk','CCCL 3.5.0 ann-8192','UD','f32',1,81920000,100,'ok',NULL,7,0.43140000000000000568,0.43130000000000001669,0.43169999999999997264,NULL,1,'2026-11-27T16:31:55.386Z','gpu');
INSERT INTO peer_measurements VALUES(33,1,1,'eb8f87c0390b','batch.cub_batched_topk','CCCL 3.5.0 long-2^24','UD','f32',1,268435456,1024,'skipped','not supported: segments of 16777216..16777216 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T16:31:55.386Z','call');
INSERT INTO peer_measurements VALUES(34,1,1,'eb8f87c0390b','batch.cub_batched_topk','CCCL 3.5.0 long-2^28','UD','f32',1,1073741824,1024,'skipped','not supported: segments of 268435456..268435456 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T16:31:55.386Z','call');
INSERT INTO peer_measurements VALUES(35,1,1,'eb8f87c0390b','batch.cub_batched_topk','CCCL 3.5.0 plaw-small','UD','f32',1,30003811,50,'ok',NULL,7,2.4615999999999997882,2.4611999999999998323,2.4620000000000001882,NULL,1,'2026-11-27T16:31:55.386Z','gpu');
INSERT INTO peer_measurements VALUES(36,1,1,'eb8f87c0390b','batch.cub_batched_topk','CCCL 3.5.0 plaw-large','UD','f32',1,22700570,50,'skipped','not supported: segments of 64..6702602 keys (one block per segment takes at most 8192 f32 pairs; this peer also needs k <= every segment)',0,NULL,NULL,NULL,NULL,0,'2026-11-27T16:31:55.386Z','call');
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
INSERT INTO runs VALUES(1,'1c2bdcedc9d3620067bc45cbff5ed142',1,'tuner','/tmp/drtopk-carried-bin/bin/tuner --import-peers /root/out/batch/batch.jsonl --db /root/out/results.sqlite','eb8f87c0390b','2026-11-27T16:31:55.385Z','2026-11-27T16:31:55.386Z','done',707,'vm');
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
