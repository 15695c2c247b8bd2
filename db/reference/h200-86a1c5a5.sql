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
INSERT INTO machines VALUES(1,'GPU-86a1c5a5-d907-4624-2355-e6c8e6c0bcd7','NVIDIA H200','cuda',9,0,132,150109880320,62914560,4264.1293227044088781,13000,13000,'2026-11-27T14:28:09.780Z',619.91674804687499997,23.998779296875);
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
INSERT INTO runs VALUES(1,'325efe3d6aa59b54b0b9a3633fd9ad09',1,'tuner','/tmp/b64/tuner --gpu 0 --batch --verify-every 1 --max-minutes 5 --db /root/out/results.sqlite','62c00b4e8a52','2026-11-27T14:28:09.780Z','2026-11-27T14:28:47.121Z','done',554,'vm');
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
INSERT INTO batch_measurements VALUES(1,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','uniform',1,65536,64,1,'ok',NULL,7,0.046112000942230224609,1,1,'2026-11-27T14:28:10.035Z','gpu');
INSERT INTO batch_measurements VALUES(2,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','uniform',1,65536,64,1,'ok',NULL,7,0.070431999862194061279,1,1,'2026-11-27T14:28:10.041Z','gpu');
INSERT INTO batch_measurements VALUES(3,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','uniform',1,65536,64,2,'ok',NULL,7,0.049504000693559646606,1,1,'2026-11-27T14:28:10.083Z','gpu');
INSERT INTO batch_measurements VALUES(4,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','uniform',1,65536,64,2,'ok',NULL,7,0.070335999131202697753,1,1,'2026-11-27T14:28:10.090Z','gpu');
INSERT INTO batch_measurements VALUES(5,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','uniform',1,65536,64,4,'ok',NULL,7,0.055808000266551971435,1,1,'2026-11-27T14:28:10.163Z','gpu');
INSERT INTO batch_measurements VALUES(6,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','uniform',1,65536,64,4,'ok',NULL,7,0.070528000593185424804,1,1,'2026-11-27T14:28:10.177Z','gpu');
INSERT INTO batch_measurements VALUES(7,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','uniform',1,65536,64,8,'ok',NULL,7,0.068736001849174499511,1,1,'2026-11-27T14:28:10.313Z','gpu');
INSERT INTO batch_measurements VALUES(8,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','uniform',1,65536,64,8,'ok',NULL,7,0.070335999131202697753,1,1,'2026-11-27T14:28:10.337Z','gpu');
INSERT INTO batch_measurements VALUES(9,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','uniform',1,65536,64,16,'ok',NULL,7,0.094431996345520019531,1,1,'2026-11-27T14:28:10.553Z','gpu');
INSERT INTO batch_measurements VALUES(10,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','uniform',1,65536,64,16,'ok',NULL,7,0.069504000246524810791,1,1,'2026-11-27T14:28:10.617Z','gpu');
INSERT INTO batch_measurements VALUES(11,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','uniform',1,65536,64,32,'ok',NULL,7,0.14595200121402740478,1,1,'2026-11-27T14:28:11.034Z','gpu');
INSERT INTO batch_measurements VALUES(12,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','uniform',1,65536,64,32,'ok',NULL,7,0.063135996460914611816,1,1,'2026-11-27T14:28:11.228Z','gpu');
INSERT INTO batch_measurements VALUES(13,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','uniform',1,65536,256,1,'ok',NULL,7,0.043584000319242477416,1,1,'2026-11-27T14:28:11.749Z','gpu');
INSERT INTO batch_measurements VALUES(14,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','uniform',1,65536,256,1,'ok',NULL,7,0.09417600184679031372,1,1,'2026-11-27T14:28:11.756Z','gpu');
INSERT INTO batch_measurements VALUES(15,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','uniform',1,65536,256,2,'ok',NULL,7,0.047008000314235687255,1,1,'2026-11-27T14:28:11.853Z','gpu');
INSERT INTO batch_measurements VALUES(16,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','uniform',1,65536,256,2,'ok',NULL,7,0.097248002886772155761,1,1,'2026-11-27T14:28:11.862Z','gpu');
INSERT INTO batch_measurements VALUES(17,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','uniform',1,65536,256,4,'ok',NULL,7,0.053087998181581497192,1,1,'2026-11-27T14:28:12.001Z','gpu');
INSERT INTO batch_measurements VALUES(18,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','uniform',1,65536,256,4,'ok',NULL,7,0.10102400183677673339,1,1,'2026-11-27T14:28:12.023Z','gpu');
INSERT INTO batch_measurements VALUES(19,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','uniform',1,65536,256,8,'ok',NULL,7,0.065760001540184020996,1,1,'2026-11-27T14:28:12.219Z','gpu');
INSERT INTO batch_measurements VALUES(20,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','uniform',1,65536,256,8,'ok',NULL,7,0.10691200196743011474,1,1,'2026-11-27T14:28:12.257Z','gpu');
INSERT INTO batch_measurements VALUES(21,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','uniform',1,65536,256,16,'ok',NULL,7,0.091583997011184692382,1,1,'2026-11-27T14:28:12.619Z','gpu');
INSERT INTO batch_measurements VALUES(22,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','uniform',1,65536,256,16,'ok',NULL,7,0.11222399771213531494,1,1,'2026-11-27T14:28:12.700Z','gpu');
INSERT INTO batch_measurements VALUES(23,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','uniform',1,65536,256,32,'ok',NULL,7,0.1427520066499710083,1,1,'2026-11-27T14:28:13.366Z','gpu');
INSERT INTO batch_measurements VALUES(24,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','uniform',1,65536,256,32,'ok',NULL,7,0.1145280003547668457,1,1,'2026-11-27T14:28:13.550Z','gpu');
INSERT INTO batch_measurements VALUES(25,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','variable',1,65536,64,1,'ok',NULL,7,0.15795199573040008544,1,1,'2026-11-27T14:28:13.646Z','gpu');
INSERT INTO batch_measurements VALUES(26,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','variable',1,65536,64,1,'ok',NULL,7,0.1854400038719177246,1,1,'2026-11-27T14:28:13.652Z','gpu');
INSERT INTO batch_measurements VALUES(27,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','variable',1,65536,64,2,'ok',NULL,7,0.16201600432395935058,1,1,'2026-11-27T14:28:13.685Z','gpu');
INSERT INTO batch_measurements VALUES(28,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','variable',1,65536,64,2,'ok',NULL,7,0.18559999763965606689,1,1,'2026-11-27T14:28:13.693Z','gpu');
INSERT INTO batch_measurements VALUES(29,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','variable',1,65536,64,4,'ok',NULL,7,0.1689919978380203247,1,1,'2026-11-27T14:28:13.747Z','gpu');
INSERT INTO batch_measurements VALUES(30,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','variable',1,65536,64,4,'ok',NULL,7,0.18572799861431121826,1,1,'2026-11-27T14:28:13.761Z','gpu');
INSERT INTO batch_measurements VALUES(31,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','variable',1,65536,64,8,'ok',NULL,7,0.18454399704933166503,1,1,'2026-11-27T14:28:13.867Z','gpu');
INSERT INTO batch_measurements VALUES(32,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','variable',1,65536,64,8,'ok',NULL,7,0.18598400056362152099,1,1,'2026-11-27T14:28:13.896Z','gpu');
INSERT INTO batch_measurements VALUES(33,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','variable',1,65536,64,16,'ok',NULL,7,0.21315200626850128173,1,1,'2026-11-27T14:28:14.093Z','gpu');
INSERT INTO batch_measurements VALUES(34,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','variable',1,65536,64,16,'ok',NULL,7,0.18451200425624847412,1,1,'2026-11-27T14:28:14.168Z','gpu');
INSERT INTO batch_measurements VALUES(35,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','variable',1,65536,64,32,'ok',NULL,7,0.2726719975471496582,1,1,'2026-11-27T14:28:14.545Z','gpu');
INSERT INTO batch_measurements VALUES(36,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','variable',1,65536,64,32,'ok',NULL,7,0.18665599822998046875,1,1,'2026-11-27T14:28:14.737Z','gpu');
INSERT INTO batch_measurements VALUES(37,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','variable',1,65536,256,1,'ok',NULL,7,0.16131199896335601806,1,1,'2026-11-27T14:28:15.128Z','gpu');
INSERT INTO batch_measurements VALUES(38,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','variable',1,65536,256,1,'ok',NULL,7,0.22115199267864227294,1,1,'2026-11-27T14:28:15.137Z','gpu');
INSERT INTO batch_measurements VALUES(39,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','variable',1,65536,256,2,'ok',NULL,7,0.16489599645137786865,1,1,'2026-11-27T14:28:15.219Z','gpu');
INSERT INTO batch_measurements VALUES(40,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','variable',1,65536,256,2,'ok',NULL,7,0.22371199727058410644,1,1,'2026-11-27T14:28:15.236Z','gpu');
INSERT INTO batch_measurements VALUES(41,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','variable',1,65536,256,4,'ok',NULL,7,0.17225599288940429687,1,1,'2026-11-27T14:28:15.357Z','gpu');
INSERT INTO batch_measurements VALUES(42,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','variable',1,65536,256,4,'ok',NULL,7,0.22809599339962005615,1,1,'2026-11-27T14:28:15.380Z','gpu');
INSERT INTO batch_measurements VALUES(43,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','variable',1,65536,256,8,'ok',NULL,7,0.18780800700187683105,1,1,'2026-11-27T14:28:15.549Z','gpu');
INSERT INTO batch_measurements VALUES(44,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','variable',1,65536,256,8,'ok',NULL,7,0.23311999440193176269,1,1,'2026-11-27T14:28:15.586Z','gpu');
INSERT INTO batch_measurements VALUES(45,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','variable',1,65536,256,16,'ok',NULL,7,0.21654400229454040527,1,1,'2026-11-27T14:28:15.905Z','gpu');
INSERT INTO batch_measurements VALUES(46,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','variable',1,65536,256,16,'ok',NULL,7,0.23801599442958831787,1,1,'2026-11-27T14:28:15.983Z','gpu');
INSERT INTO batch_measurements VALUES(47,1,1,'62c00b4e8a52','tiny_max_k','tiny','f32','variable',1,65536,256,32,'ok',NULL,7,0.27535998821258544921,1,1,'2026-11-27T14:28:16.564Z','gpu');
INSERT INTO batch_measurements VALUES(48,1,1,'62c00b4e8a52','tiny_max_k','staged','f32','variable',1,65536,256,32,'ok',NULL,7,0.23948800563812255859,1,1,'2026-11-27T14:28:16.758Z','gpu');
INSERT INTO batch_measurements VALUES(49,1,1,'62c00b4e8a52','warp_max_k','warp','f32','uniform',1,16384,1024,8,'ok',NULL,7,0.9238719940185546875,1,1,'2026-11-27T14:28:17.327Z','gpu');
INSERT INTO batch_measurements VALUES(50,1,1,'62c00b4e8a52','warp_max_k','staged','f32','uniform',1,16384,1024,8,'ok',NULL,7,0.068191997706890106201,1,1,'2026-11-27T14:28:17.340Z','gpu');
INSERT INTO batch_measurements VALUES(51,1,1,'62c00b4e8a52','warp_max_k','warp','f32','uniform',1,16384,1024,32,'ok',NULL,7,1.4035199880599975585,1,1,'2026-11-27T14:28:17.634Z','gpu');
INSERT INTO batch_measurements VALUES(52,1,1,'62c00b4e8a52','warp_max_k','staged','f32','uniform',1,16384,1024,32,'ok',NULL,7,0.079231999814510345458,1,1,'2026-11-27T14:28:17.693Z','gpu');
INSERT INTO batch_measurements VALUES(53,1,1,'62c00b4e8a52','warp_max_k','warp','f32','uniform',1,16384,1024,128,'ok',NULL,7,1.0790400505065917968,1,1,'2026-11-27T14:28:18.613Z','gpu');
INSERT INTO batch_measurements VALUES(54,1,1,'62c00b4e8a52','warp_max_k','staged','f32','uniform',1,16384,1024,128,'ok',NULL,7,0.090687997639179229736,1,1,'2026-11-27T14:28:18.872Z','gpu');
INSERT INTO batch_measurements VALUES(55,1,1,'62c00b4e8a52','warp_max_k','warp','f32','uniform',1,16384,1024,256,'ok',NULL,7,1.9042880535125732421,1,1,'2026-11-27T14:28:20.523Z','gpu');
INSERT INTO batch_measurements VALUES(56,1,1,'62c00b4e8a52','warp_max_k','staged','f32','uniform',1,16384,1024,256,'ok',NULL,7,0.11023999750614166259,1,1,'2026-11-27T14:28:21.105Z','gpu');
INSERT INTO batch_measurements VALUES(57,1,1,'62c00b4e8a52','warp_max_k','warp','f32','uniform',1,2048,8192,8,'ok',NULL,7,0.44844800233840942382,1,1,'2026-11-27T14:28:21.623Z','gpu');
INSERT INTO batch_measurements VALUES(58,1,1,'62c00b4e8a52','warp_max_k','staged','f32','uniform',1,2048,8192,8,'ok',NULL,7,0.041407998651266098022,1,1,'2026-11-27T14:28:21.625Z','gpu');
INSERT INTO batch_measurements VALUES(59,1,1,'62c00b4e8a52','warp_max_k','warp','f32','uniform',1,2048,8192,32,'ok',NULL,7,0.85292798280715942382,1,1,'2026-11-27T14:28:21.735Z','gpu');
INSERT INTO batch_measurements VALUES(60,1,1,'62c00b4e8a52','warp_max_k','staged','f32','uniform',1,2048,8192,32,'ok',NULL,7,0.049343999475240707397,1,1,'2026-11-27T14:28:21.745Z','gpu');
INSERT INTO batch_measurements VALUES(61,1,1,'62c00b4e8a52','warp_max_k','warp','f32','uniform',1,2048,8192,128,'ok',NULL,7,0.39750400185585021972,1,1,'2026-11-27T14:28:21.966Z','gpu');
INSERT INTO batch_measurements VALUES(62,1,1,'62c00b4e8a52','warp_max_k','staged','f32','uniform',1,2048,8192,128,'ok',NULL,7,0.056223999708890914916,1,1,'2026-11-27T14:28:22.006Z','gpu');
INSERT INTO batch_measurements VALUES(63,1,1,'62c00b4e8a52','warp_max_k','warp','f32','uniform',1,2048,8192,256,'ok',NULL,7,0.60707199573516845703,1,1,'2026-11-27T14:28:22.375Z','gpu');
INSERT INTO batch_measurements VALUES(64,1,1,'62c00b4e8a52','warp_max_k','staged','f32','uniform',1,2048,8192,256,'ok',NULL,7,0.099936001002788543701,1,1,'2026-11-27T14:28:22.463Z','gpu');
INSERT INTO batch_measurements VALUES(65,1,1,'62c00b4e8a52','warp_max_k','warp','f32','uniform',1,512,32768,8,'ok',NULL,7,0.83756798505783081054,1,1,'2026-11-27T14:28:22.982Z','gpu');
INSERT INTO batch_measurements VALUES(66,1,1,'62c00b4e8a52','warp_max_k','staged','f32','uniform',1,512,32768,8,'ok',NULL,7,0.047008000314235687255,1,1,'2026-11-27T14:28:22.983Z','gpu');
INSERT INTO batch_measurements VALUES(67,1,1,'62c00b4e8a52','warp_max_k','warp','f32','uniform',1,512,32768,32,'ok',NULL,7,1.428959965705871582,1,1,'2026-11-27T14:28:23.076Z','gpu');
INSERT INTO batch_measurements VALUES(68,1,1,'62c00b4e8a52','warp_max_k','staged','f32','uniform',1,512,32768,32,'ok',NULL,7,0.056928001344203948974,1,1,'2026-11-27T14:28:23.080Z','gpu');
INSERT INTO batch_measurements VALUES(69,1,1,'62c00b4e8a52','warp_max_k','warp','f32','uniform',1,512,32768,128,'ok',NULL,7,0.79779201745986938476,1,1,'2026-11-27T14:28:23.200Z','gpu');
INSERT INTO batch_measurements VALUES(70,1,1,'62c00b4e8a52','warp_max_k','staged','f32','uniform',1,512,32768,128,'ok',NULL,7,0.070943996310234069824,1,1,'2026-11-27T14:28:23.212Z','gpu');
INSERT INTO batch_measurements VALUES(71,1,1,'62c00b4e8a52','warp_max_k','warp','f32','uniform',1,512,32768,256,'ok',NULL,7,1.0519039630889892578,1,1,'2026-11-27T14:28:23.387Z','gpu');
INSERT INTO batch_measurements VALUES(72,1,1,'62c00b4e8a52','warp_max_k','staged','f32','uniform',1,512,32768,256,'ok',NULL,7,0.11468800157308578491,1,1,'2026-11-27T14:28:23.411Z','gpu');
INSERT INTO batch_measurements VALUES(73,1,1,'62c00b4e8a52','staged_max_len','staged','f32','variable',1,4096,4096,32,'ok',NULL,7,0.11161600053310394287,1,1,'2026-11-27T14:28:23.869Z','gpu');
INSERT INTO batch_measurements VALUES(74,1,1,'62c00b4e8a52','staged_max_len','split','f32','variable',1,4096,4096,32,'ok',NULL,7,16.589567184448242187,1,1,'2026-11-27T14:28:24.020Z','gpu');
INSERT INTO batch_measurements VALUES(75,1,1,'62c00b4e8a52','staged_max_len','staged','f32','variable',1,4096,4096,256,'ok',NULL,7,0.17916800081729888916,1,1,'2026-11-27T14:28:24.610Z','gpu');
INSERT INTO batch_measurements VALUES(76,1,1,'62c00b4e8a52','staged_max_len','split','f32','variable',1,4096,4096,256,'ok',NULL,7,16.659936904907226562,1,1,'2026-11-27T14:28:24.905Z','gpu');
INSERT INTO batch_measurements VALUES(77,1,1,'62c00b4e8a52','staged_max_len','staged','f32','variable',1,1024,16384,32,'ok',NULL,7,0.10063999891281127929,1,1,'2026-11-27T14:28:25.308Z','gpu');
INSERT INTO batch_measurements VALUES(78,1,1,'62c00b4e8a52','staged_max_len','split','f32','variable',1,1024,16384,32,'ok',NULL,7,4.4986557960510253906,1,1,'2026-11-27T14:28:25.350Z','gpu');
INSERT INTO batch_measurements VALUES(79,1,1,'62c00b4e8a52','staged_max_len','staged','f32','variable',1,1024,16384,256,'ok',NULL,7,0.13974399864673614501,1,1,'2026-11-27T14:28:25.574Z','gpu');
INSERT INTO batch_measurements VALUES(80,1,1,'62c00b4e8a52','staged_max_len','split','f32','variable',1,1024,16384,256,'ok',NULL,7,4.5036802291870117187,1,1,'2026-11-27T14:28:25.656Z','gpu');
INSERT INTO batch_measurements VALUES(81,1,1,'62c00b4e8a52','staged_max_len','staged','f32','variable',1,512,32768,32,'ok',NULL,7,0.10668800026178359985,1,1,'2026-11-27T14:28:26.040Z','gpu');
INSERT INTO batch_measurements VALUES(82,1,1,'62c00b4e8a52','staged_max_len','split','f32','variable',1,512,32768,32,'ok',NULL,7,2.4543039798736572265,1,1,'2026-11-27T14:28:26.063Z','gpu');
INSERT INTO batch_measurements VALUES(83,1,1,'62c00b4e8a52','staged_max_len','staged','f32','variable',1,512,32768,256,'ok',NULL,7,0.1433279961347579956,1,1,'2026-11-27T14:28:26.215Z','gpu');
INSERT INTO batch_measurements VALUES(84,1,1,'62c00b4e8a52','staged_max_len','split','f32','variable',1,512,32768,256,'ok',NULL,7,2.461215972900390625,1,1,'2026-11-27T14:28:26.257Z','gpu');
INSERT INTO batch_measurements VALUES(85,1,1,'62c00b4e8a52','staged_max_len','staged','f32','variable',1,256,65536,32,'ok',NULL,7,0.45036798715591430664,1,1,'2026-11-27T14:28:26.613Z','gpu');
INSERT INTO batch_measurements VALUES(86,1,1,'62c00b4e8a52','staged_max_len','split','f32','variable',1,256,65536,32,'ok',NULL,7,1.3837120532989501953,1,1,'2026-11-27T14:28:26.627Z','gpu');
INSERT INTO batch_measurements VALUES(87,1,1,'62c00b4e8a52','staged_max_len','staged','f32','variable',1,256,65536,256,'ok',NULL,7,0.4569599926471710205,1,1,'2026-11-27T14:28:26.734Z','gpu');
INSERT INTO batch_measurements VALUES(88,1,1,'62c00b4e8a52','staged_max_len','split','f32','variable',1,256,65536,256,'ok',NULL,7,1.3853759765625,1,1,'2026-11-27T14:28:26.759Z','gpu');
INSERT INTO batch_measurements VALUES(89,1,1,'62c00b4e8a52','block_max_len','batched','f32','uniform',1,128,262144,64,'ok',NULL,7,0.10316800326108932495,1,1,'2026-11-27T14:28:27.756Z','gpu');
INSERT INTO batch_measurements VALUES(90,1,1,'62c00b4e8a52','block_max_len','pipeline','f32','uniform',1,128,262144,64,'ok',NULL,7,2.0004799365997314453,1,1,'2026-11-27T14:28:27.880Z','gpu');
INSERT INTO batch_measurements VALUES(91,1,1,'62c00b4e8a52','block_max_len','batched','f32','uniform',1,128,262144,1024,'ok',NULL,7,0.31312000751495361328,1,1,'2026-11-27T14:28:28.183Z','gpu');
INSERT INTO batch_measurements VALUES(92,1,1,'62c00b4e8a52','block_max_len','pipeline','f32','uniform',1,128,262144,1024,'ok',NULL,7,2.0207679271697998046,1,1,'2026-11-27T14:28:28.234Z','gpu');
INSERT INTO batch_measurements VALUES(93,1,1,'62c00b4e8a52','block_max_len','batched','f32','uniform',1,32,1048576,64,'ok',NULL,7,0.09459199756383895874,1,1,'2026-11-27T14:28:29.086Z','gpu');
INSERT INTO batch_measurements VALUES(94,1,1,'62c00b4e8a52','block_max_len','pipeline','f32','uniform',1,32,1048576,64,'ok',NULL,7,0.67711997032165527343,1,1,'2026-11-27T14:28:29.094Z','gpu');
INSERT INTO batch_measurements VALUES(95,1,1,'62c00b4e8a52','block_max_len','batched','f32','uniform',1,32,1048576,1024,'ok',NULL,7,0.40687999129295349121,1,1,'2026-11-27T14:28:29.251Z','gpu');
INSERT INTO batch_measurements VALUES(96,1,1,'62c00b4e8a52','block_max_len','pipeline','f32','uniform',1,32,1048576,1024,'ok',NULL,7,0.69737601280212402343,1,1,'2026-11-27T14:28:29.266Z','gpu');
INSERT INTO batch_measurements VALUES(97,1,1,'62c00b4e8a52','block_max_len','batched','f32','uniform',1,8,4194304,64,'ok',NULL,7,0.093887999653816223144,1,1,'2026-11-27T14:28:30.089Z','gpu');
INSERT INTO batch_measurements VALUES(98,1,1,'62c00b4e8a52','block_max_len','pipeline','f32','uniform',1,8,4194304,64,'ok',NULL,7,0.12073600292205810546,1,1,'2026-11-27T14:28:30.092Z','gpu');
INSERT INTO batch_measurements VALUES(99,1,1,'62c00b4e8a52','block_max_len','batched','f32','uniform',1,8,4194304,1024,'ok',NULL,7,0.41459199786186218261,1,1,'2026-11-27T14:28:30.213Z','gpu');
INSERT INTO batch_measurements VALUES(100,1,1,'62c00b4e8a52','block_max_len','pipeline','f32','uniform',1,8,4194304,1024,'ok',NULL,7,0.14137600362300872802,1,1,'2026-11-27T14:28:30.218Z','gpu');
INSERT INTO batch_measurements VALUES(101,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','uniform',1,65536,64,1,'ok',NULL,7,0.05894400179386138916,1,1,'2026-11-27T14:28:30.288Z','gpu');
INSERT INTO batch_measurements VALUES(102,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','uniform',1,65536,64,1,'ok',NULL,7,0.057280000299215316772,1,1,'2026-11-27T14:28:30.295Z','gpu');
INSERT INTO batch_measurements VALUES(103,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','uniform',1,65536,64,2,'ok',NULL,7,0.065824002027511596679,1,1,'2026-11-27T14:28:30.336Z','gpu');
INSERT INTO batch_measurements VALUES(104,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','uniform',1,65536,64,2,'ok',NULL,7,0.059647999703884124755,1,1,'2026-11-27T14:28:30.351Z','gpu');
INSERT INTO batch_measurements VALUES(105,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','uniform',1,65536,64,4,'ok',NULL,7,0.079584002494812011718,1,1,'2026-11-27T14:28:30.415Z','gpu');
INSERT INTO batch_measurements VALUES(106,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','uniform',1,65536,64,4,'ok',NULL,7,0.061280000954866409301,1,1,'2026-11-27T14:28:30.435Z','gpu');
INSERT INTO batch_measurements VALUES(107,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','uniform',1,65536,64,8,'ok',NULL,7,0.10723199695348739624,1,1,'2026-11-27T14:28:30.554Z','gpu');
INSERT INTO batch_measurements VALUES(108,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','uniform',1,65536,64,8,'ok',NULL,7,0.062399998307228088378,1,1,'2026-11-27T14:28:30.591Z','gpu');
INSERT INTO batch_measurements VALUES(109,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','uniform',1,65536,64,16,'ok',NULL,7,0.16300800442695617675,1,1,'2026-11-27T14:28:30.837Z','gpu');
INSERT INTO batch_measurements VALUES(110,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','uniform',1,65536,64,16,'ok',NULL,7,0.063104003667831420898,1,1,'2026-11-27T14:28:30.934Z','gpu');
INSERT INTO batch_measurements VALUES(111,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','uniform',1,65536,64,32,'ok',NULL,7,0.27443200349807739257,1,1,'2026-11-27T14:28:31.399Z','gpu');
INSERT INTO batch_measurements VALUES(112,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','uniform',1,65536,64,32,'ok',NULL,7,0.063455998897552490234,1,1,'2026-11-27T14:28:31.608Z','gpu');
INSERT INTO batch_measurements VALUES(113,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','uniform',1,65536,256,1,'ok',NULL,7,0.061919998377561569213,1,1,'2026-11-27T14:28:31.892Z','gpu');
INSERT INTO batch_measurements VALUES(114,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','uniform',1,65536,256,1,'ok',NULL,7,0.083360001444816589355,1,1,'2026-11-27T14:28:31.899Z','gpu');
INSERT INTO batch_measurements VALUES(115,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','uniform',1,65536,256,2,'ok',NULL,7,0.06739199906587600708,1,1,'2026-11-27T14:28:31.980Z','gpu');
INSERT INTO batch_measurements VALUES(116,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','uniform',1,65536,256,2,'ok',NULL,7,0.086623996496200561523,1,1,'2026-11-27T14:28:31.995Z','gpu');
INSERT INTO batch_measurements VALUES(117,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','uniform',1,65536,256,4,'ok',NULL,7,0.080544002354145050048,1,1,'2026-11-27T14:28:32.110Z','gpu');
INSERT INTO batch_measurements VALUES(118,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','uniform',1,65536,256,4,'ok',NULL,7,0.09129600226879119873,1,1,'2026-11-27T14:28:32.135Z','gpu');
INSERT INTO batch_measurements VALUES(119,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','uniform',1,65536,256,8,'ok',NULL,7,0.10592000186443328857,1,1,'2026-11-27T14:28:32.326Z','gpu');
INSERT INTO batch_measurements VALUES(120,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','uniform',1,65536,256,8,'ok',NULL,7,0.097631998360157012939,1,1,'2026-11-27T14:28:32.376Z','gpu');
INSERT INTO batch_measurements VALUES(121,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','uniform',1,65536,256,16,'ok',NULL,7,0.16035200655460357666,1,1,'2026-11-27T14:28:32.753Z','gpu');
INSERT INTO batch_measurements VALUES(122,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','uniform',1,65536,256,16,'ok',NULL,7,0.10332799702882766723,1,1,'2026-11-27T14:28:32.857Z','gpu');
INSERT INTO batch_measurements VALUES(123,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','uniform',1,65536,256,32,'ok',NULL,7,0.27164798974990844726,1,1,'2026-11-27T14:28:33.587Z','gpu');
INSERT INTO batch_measurements VALUES(124,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','uniform',1,65536,256,32,'ok',NULL,7,0.1054079979658126831,1,1,'2026-11-27T14:28:33.786Z','gpu');
INSERT INTO batch_measurements VALUES(125,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','variable',1,65536,64,1,'ok',NULL,7,0.18921600282192230224,1,1,'2026-11-27T14:28:33.829Z','gpu');
INSERT INTO batch_measurements VALUES(126,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','variable',1,65536,64,1,'ok',NULL,7,0.21059200167655944824,1,1,'2026-11-27T14:28:33.835Z','gpu');
INSERT INTO batch_measurements VALUES(127,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','variable',1,65536,64,2,'ok',NULL,7,0.19750399887561798095,1,1,'2026-11-27T14:28:33.866Z','gpu');
INSERT INTO batch_measurements VALUES(128,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','variable',1,65536,64,2,'ok',NULL,7,0.21468800306320190429,1,1,'2026-11-27T14:28:33.876Z','gpu');
INSERT INTO batch_measurements VALUES(129,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','variable',1,65536,64,4,'ok',NULL,7,0.21292799711227416992,1,1,'2026-11-27T14:28:33.923Z','gpu');
INSERT INTO batch_measurements VALUES(130,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','variable',1,65536,64,4,'ok',NULL,7,0.21843199431896209716,1,1,'2026-11-27T14:28:33.938Z','gpu');
INSERT INTO batch_measurements VALUES(131,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','variable',1,65536,64,8,'ok',NULL,7,0.24515199661254882812,1,1,'2026-11-27T14:28:34.033Z','gpu');
INSERT INTO batch_measurements VALUES(132,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','variable',1,65536,64,8,'ok',NULL,7,0.22198399901390075683,1,1,'2026-11-27T14:28:34.067Z','gpu');
INSERT INTO batch_measurements VALUES(133,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','variable',1,65536,64,16,'ok',NULL,7,0.31036800146102905273,1,1,'2026-11-27T14:28:34.257Z','gpu');
INSERT INTO batch_measurements VALUES(134,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','variable',1,65536,64,16,'ok',NULL,7,0.22742399573326110839,1,1,'2026-11-27T14:28:34.331Z','gpu');
INSERT INTO batch_measurements VALUES(135,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','variable',1,65536,64,32,'ok',NULL,7,0.43779200315475463867,1,1,'2026-11-27T14:28:34.672Z','gpu');
INSERT INTO batch_measurements VALUES(136,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','variable',1,65536,64,32,'ok',NULL,7,0.23142400383949279785,1,1,'2026-11-27T14:28:34.842Z','gpu');
INSERT INTO batch_measurements VALUES(137,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','variable',1,65536,256,1,'ok',NULL,7,0.19555200636386871337,1,1,'2026-11-27T14:28:34.996Z','gpu');
INSERT INTO batch_measurements VALUES(138,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','variable',1,65536,256,1,'ok',NULL,7,0.25648000836372375488,1,1,'2026-11-27T14:28:35.002Z','gpu');
INSERT INTO batch_measurements VALUES(139,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','variable',1,65536,256,2,'ok',NULL,7,0.20348800718784332275,1,1,'2026-11-27T14:28:35.053Z','gpu');
INSERT INTO batch_measurements VALUES(140,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','variable',1,65536,256,2,'ok',NULL,7,0.2602240145206451416,1,1,'2026-11-27T14:28:35.065Z','gpu');
INSERT INTO batch_measurements VALUES(141,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','variable',1,65536,256,4,'ok',NULL,7,0.2189760059118270874,1,1,'2026-11-27T14:28:35.156Z','gpu');
INSERT INTO batch_measurements VALUES(142,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','variable',1,65536,256,4,'ok',NULL,7,0.26704001426696777343,1,1,'2026-11-27T14:28:35.181Z','gpu');
INSERT INTO batch_measurements VALUES(143,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','variable',1,65536,256,8,'ok',NULL,7,0.25129601359367370605,1,1,'2026-11-27T14:28:35.340Z','gpu');
INSERT INTO batch_measurements VALUES(144,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','variable',1,65536,256,8,'ok',NULL,7,0.27663999795913696289,1,1,'2026-11-27T14:28:35.386Z','gpu');
INSERT INTO batch_measurements VALUES(145,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','variable',1,65536,256,16,'ok',NULL,7,0.31327998638153076171,1,1,'2026-11-27T14:28:35.666Z','gpu');
INSERT INTO batch_measurements VALUES(146,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','variable',1,65536,256,16,'ok',NULL,7,0.28307199478149414062,1,1,'2026-11-27T14:28:35.753Z','gpu');
INSERT INTO batch_measurements VALUES(147,1,1,'62c00b4e8a52','tiny_max_k','tiny','u64','variable',1,65536,256,32,'ok',NULL,7,0.44038400053977966308,1,1,'2026-11-27T14:28:36.302Z','gpu');
INSERT INTO batch_measurements VALUES(148,1,1,'62c00b4e8a52','tiny_max_k','staged','u64','variable',1,65536,256,32,'ok',NULL,7,0.2856959998607635498,1,1,'2026-11-27T14:28:36.483Z','gpu');
INSERT INTO batch_measurements VALUES(149,1,1,'62c00b4e8a52','warp_max_k','warp','u64','uniform',1,16384,1024,8,'ok',NULL,7,0.91110402345657348632,1,1,'2026-11-27T14:28:36.727Z','gpu');
INSERT INTO batch_measurements VALUES(150,1,1,'62c00b4e8a52','warp_max_k','staged','u64','uniform',1,16384,1024,8,'ok',NULL,7,0.078432001173496246337,1,1,'2026-11-27T14:28:36.739Z','gpu');
INSERT INTO batch_measurements VALUES(151,1,1,'62c00b4e8a52','warp_max_k','warp','u64','uniform',1,16384,1024,32,'ok',NULL,7,1.3996160030364990234,1,1,'2026-11-27T14:28:36.959Z','gpu');
INSERT INTO batch_measurements VALUES(152,1,1,'62c00b4e8a52','warp_max_k','staged','u64','uniform',1,16384,1024,32,'ok',NULL,7,0.092384003102779388427,1,1,'2026-11-27T14:28:37.009Z','gpu');
INSERT INTO batch_measurements VALUES(153,1,1,'62c00b4e8a52','warp_max_k','warp','u64','uniform',1,16384,1024,128,'ok',NULL,7,1.0845760107040405273,1,1,'2026-11-27T14:28:37.764Z','gpu');
INSERT INTO batch_measurements VALUES(154,1,1,'62c00b4e8a52','warp_max_k','staged','u64','uniform',1,16384,1024,128,'ok',NULL,7,0.10876800119876861572,1,1,'2026-11-27T14:28:38.006Z','gpu');
INSERT INTO batch_measurements VALUES(155,1,1,'62c00b4e8a52','warp_max_k','warp','u64','uniform',1,16384,1024,256,'ok',NULL,7,1.9154880046844482421,1,1,'2026-11-27T14:28:39.378Z','gpu');
INSERT INTO batch_measurements VALUES(156,1,1,'62c00b4e8a52','warp_max_k','staged','u64','uniform',1,16384,1024,256,'ok',NULL,7,0.13635200262069702148,1,1,'2026-11-27T14:28:39.899Z','gpu');
INSERT INTO batch_measurements VALUES(157,1,1,'62c00b4e8a52','warp_max_k','warp','u64','uniform',1,2048,8192,8,'ok',NULL,7,0.48096001148223876953,1,1,'2026-11-27T14:28:40.091Z','gpu');
INSERT INTO batch_measurements VALUES(158,1,1,'62c00b4e8a52','warp_max_k','staged','u64','uniform',1,2048,8192,8,'ok',NULL,7,0.053183998912572860717,1,1,'2026-11-27T14:28:40.093Z','gpu');
INSERT INTO batch_measurements VALUES(159,1,1,'62c00b4e8a52','warp_max_k','warp','u64','uniform',1,2048,8192,32,'ok',NULL,7,0.83228802680969238281,1,1,'2026-11-27T14:28:40.163Z','gpu');
INSERT INTO batch_measurements VALUES(160,1,1,'62c00b4e8a52','warp_max_k','staged','u64','uniform',1,2048,8192,32,'ok',NULL,7,0.058272000402212142944,1,1,'2026-11-27T14:28:40.171Z','gpu');
INSERT INTO batch_measurements VALUES(161,1,1,'62c00b4e8a52','warp_max_k','warp','u64','uniform',1,2048,8192,128,'ok',NULL,7,0.40115201473236083984,1,1,'2026-11-27T14:28:40.343Z','gpu');
INSERT INTO batch_measurements VALUES(162,1,1,'62c00b4e8a52','warp_max_k','staged','u64','uniform',1,2048,8192,128,'ok',NULL,7,0.076191999018192291259,1,1,'2026-11-27T14:28:40.377Z','gpu');
INSERT INTO batch_measurements VALUES(163,1,1,'62c00b4e8a52','warp_max_k','warp','u64','uniform',1,2048,8192,256,'ok',NULL,7,0.6142399907112121582,1,1,'2026-11-27T14:28:40.669Z','gpu');
INSERT INTO batch_measurements VALUES(164,1,1,'62c00b4e8a52','warp_max_k','staged','u64','uniform',1,2048,8192,256,'ok',NULL,7,0.10572800040245056152,1,1,'2026-11-27T14:28:40.741Z','gpu');
INSERT INTO batch_measurements VALUES(165,1,1,'62c00b4e8a52','warp_max_k','warp','u64','uniform',1,512,32768,8,'ok',NULL,7,0.83785599470138549804,1,1,'2026-11-27T14:28:40.930Z','gpu');
INSERT INTO batch_measurements VALUES(166,1,1,'62c00b4e8a52','warp_max_k','staged','u64','uniform',1,512,32768,8,'ok',NULL,7,0.062079999595880508422,1,1,'2026-11-27T14:28:40.932Z','gpu');
INSERT INTO batch_measurements VALUES(167,1,1,'62c00b4e8a52','warp_max_k','warp','u64','uniform',1,512,32768,32,'ok',NULL,7,1.3972480297088623046,1,1,'2026-11-27T14:28:40.987Z','gpu');
INSERT INTO batch_measurements VALUES(168,1,1,'62c00b4e8a52','warp_max_k','staged','u64','uniform',1,512,32768,32,'ok',NULL,7,0.066880002617835998535,1,1,'2026-11-27T14:28:40.990Z','gpu');
INSERT INTO batch_measurements VALUES(169,1,1,'62c00b4e8a52','warp_max_k','warp','u64','uniform',1,512,32768,128,'ok',NULL,7,0.79571199417114257812,1,1,'2026-11-27T14:28:41.073Z','gpu');
INSERT INTO batch_measurements VALUES(170,1,1,'62c00b4e8a52','warp_max_k','staged','u64','uniform',1,512,32768,128,'ok',NULL,7,0.091168001294136047363,1,1,'2026-11-27T14:28:41.083Z','gpu');
INSERT INTO batch_measurements VALUES(171,1,1,'62c00b4e8a52','warp_max_k','warp','u64','uniform',1,512,32768,256,'ok',NULL,7,1.0504319667816162109,1,1,'2026-11-27T14:28:41.206Z','gpu');
INSERT INTO batch_measurements VALUES(172,1,1,'62c00b4e8a52','warp_max_k','staged','u64','uniform',1,512,32768,256,'ok',NULL,7,0.1468479931354522705,1,1,'2026-11-27T14:28:41.227Z','gpu');
INSERT INTO batch_measurements VALUES(173,1,1,'62c00b4e8a52','staged_max_len','staged','u64','variable',1,4096,4096,32,'ok',NULL,7,0.16335999965667724609,1,1,'2026-11-27T14:28:41.415Z','gpu');
INSERT INTO batch_measurements VALUES(174,1,1,'62c00b4e8a52','staged_max_len','split','u64','variable',1,4096,4096,32,'ok',NULL,7,20.748704910278320313,1,1,'2026-11-27T14:28:41.598Z','gpu');
INSERT INTO batch_measurements VALUES(175,1,1,'62c00b4e8a52','staged_max_len','staged','u64','variable',1,4096,4096,256,'ok',NULL,7,0.21129600703716278076,1,1,'2026-11-27T14:28:42.101Z','gpu');
INSERT INTO batch_measurements VALUES(176,1,1,'62c00b4e8a52','staged_max_len','split','u64','variable',1,4096,4096,256,'ok',NULL,7,20.863231658935546875,1,1,'2026-11-27T14:28:42.427Z','gpu');
INSERT INTO batch_measurements VALUES(177,1,1,'62c00b4e8a52','staged_max_len','staged','u64','variable',1,1024,16384,32,'ok',NULL,7,0.14966399967670440673,1,1,'2026-11-27T14:28:42.648Z','gpu');
INSERT INTO batch_measurements VALUES(178,1,1,'62c00b4e8a52','staged_max_len','split','u64','variable',1,1024,16384,32,'ok',NULL,7,5.3438401222229003906,1,1,'2026-11-27T14:28:42.697Z','gpu');
INSERT INTO batch_measurements VALUES(179,1,1,'62c00b4e8a52','staged_max_len','staged','u64','variable',1,1024,16384,256,'ok',NULL,7,0.17433600127696990966,1,1,'2026-11-27T14:28:42.899Z','gpu');
INSERT INTO batch_measurements VALUES(180,1,1,'62c00b4e8a52','staged_max_len','split','u64','variable',1,1024,16384,256,'ok',NULL,7,5.35721588134765625,1,1,'2026-11-27T14:28:42.980Z','gpu');
INSERT INTO batch_measurements VALUES(181,1,1,'62c00b4e8a52','staged_max_len','staged','u64','variable',1,512,32768,32,'ok',NULL,7,0.76006400585174560546,1,1,'2026-11-27T14:28:43.129Z','gpu');
INSERT INTO batch_measurements VALUES(182,1,1,'62c00b4e8a52','staged_max_len','split','u64','variable',1,512,32768,32,'ok',NULL,7,2.8727679252624511718,1,1,'2026-11-27T14:28:43.154Z','gpu');
INSERT INTO batch_measurements VALUES(183,1,1,'62c00b4e8a52','staged_max_len','staged','u64','variable',1,512,32768,256,'ok',NULL,7,0.77798402309417724609,1,1,'2026-11-27T14:28:43.267Z','gpu');
INSERT INTO batch_measurements VALUES(184,1,1,'62c00b4e8a52','staged_max_len','split','u64','variable',1,512,32768,256,'ok',NULL,7,2.8811199665069580078,1,1,'2026-11-27T14:28:43.309Z','gpu');
INSERT INTO batch_measurements VALUES(185,1,1,'62c00b4e8a52','staged_max_len','staged','u64','variable',1,256,65536,32,'ok',NULL,7,1.6037119626998901367,1,1,'2026-11-27T14:28:43.462Z','gpu');
INSERT INTO batch_measurements VALUES(186,1,1,'62c00b4e8a52','staged_max_len','split','u64','variable',1,256,65536,32,'ok',NULL,7,1.6015039682388305664,1,1,'2026-11-27T14:28:43.477Z','gpu');
INSERT INTO batch_measurements VALUES(187,1,1,'62c00b4e8a52','staged_max_len','staged','u64','variable',1,256,65536,256,'ok',NULL,7,1.6223360300064086914,1,1,'2026-11-27T14:28:43.562Z','gpu');
INSERT INTO batch_measurements VALUES(188,1,1,'62c00b4e8a52','staged_max_len','split','u64','variable',1,256,65536,256,'ok',NULL,7,1.6210880279541015625,1,1,'2026-11-27T14:28:43.585Z','gpu');
INSERT INTO batch_measurements VALUES(189,1,1,'62c00b4e8a52','block_max_len','batched','u64','uniform',1,128,262144,64,'ok',NULL,7,0.12960000336170196533,1,1,'2026-11-27T14:28:43.954Z','gpu');
INSERT INTO batch_measurements VALUES(190,1,1,'62c00b4e8a52','block_max_len','pipeline','u64','uniform',1,128,262144,64,'ok',NULL,7,14.746111869812011718,1,1,'2026-11-27T14:28:44.874Z','gpu');
INSERT INTO batch_measurements VALUES(191,1,1,'62c00b4e8a52','block_max_len','batched','u64','uniform',1,128,262144,1024,'ok',NULL,7,0.5657920241355895996,1,1,'2026-11-27T14:28:45.074Z','gpu');
INSERT INTO batch_measurements VALUES(192,1,1,'62c00b4e8a52','block_max_len','pipeline','u64','uniform',1,128,262144,1024,'ok',NULL,7,15.77859210968017578,1,1,'2026-11-27T14:28:46.030Z','gpu');
INSERT INTO batch_measurements VALUES(193,1,1,'62c00b4e8a52','block_max_len','batched','u64','uniform',1,32,1048576,64,'ok',NULL,7,0.12787200510501861572,1,1,'2026-11-27T14:28:46.411Z','gpu');
INSERT INTO batch_measurements VALUES(194,1,1,'62c00b4e8a52','block_max_len','pipeline','u64','uniform',1,32,1048576,64,'ok',NULL,7,4.1986560821533203125,1,1,'2026-11-27T14:28:46.463Z','gpu');
INSERT INTO batch_measurements VALUES(195,1,1,'62c00b4e8a52','block_max_len','batched','u64','uniform',1,32,1048576,1024,'ok',NULL,7,0.44742399454116821289,1,1,'2026-11-27T14:28:46.575Z','gpu');
INSERT INTO batch_measurements VALUES(196,1,1,'62c00b4e8a52','block_max_len','pipeline','u64','uniform',1,32,1048576,1024,'ok',NULL,7,4.3370881080627441406,1,1,'2026-11-27T14:28:46.635Z','gpu');
INSERT INTO batch_measurements VALUES(197,1,1,'62c00b4e8a52','block_max_len','batched','u64','uniform',1,8,4194304,64,'ok',NULL,7,0.47996801137924194335,1,1,'2026-11-27T14:28:47.004Z','gpu');
INSERT INTO batch_measurements VALUES(198,1,1,'62c00b4e8a52','block_max_len','pipeline','u64','uniform',1,8,4194304,64,'ok',NULL,7,0.17295999825000762939,1,1,'2026-11-27T14:28:47.007Z','gpu');
INSERT INTO batch_measurements VALUES(199,1,1,'62c00b4e8a52','block_max_len','batched','u64','uniform',1,8,4194304,1024,'ok',NULL,7,0.48278400301933288574,1,1,'2026-11-27T14:28:47.103Z','gpu');
INSERT INTO batch_measurements VALUES(200,1,1,'62c00b4e8a52','block_max_len','pipeline','u64','uniform',1,8,4194304,1024,'ok',NULL,7,0.19273599982261657714,1,1,'2026-11-27T14:28:47.109Z','gpu');
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
INSERT INTO batch_choices VALUES(1,1,'62c00b4e8a52','tiny_max_k',8,24,'2026-11-27T14:28:47.121Z');
INSERT INTO batch_choices VALUES(2,1,'62c00b4e8a52','warp_max_k',0,24,'2026-11-27T14:28:47.121Z');
INSERT INTO batch_choices VALUES(3,1,'62c00b4e8a52','staged_max_len',65536,16,'2026-11-27T14:28:47.121Z');
INSERT INTO batch_choices VALUES(4,1,'62c00b4e8a52','block_max_len',1048576,6,'2026-11-27T14:28:47.121Z');
INSERT INTO batch_choices VALUES(5,1,'62c00b4e8a52','tiny_max_k_64',2,24,'2026-11-27T14:28:47.121Z');
INSERT INTO batch_choices VALUES(6,1,'62c00b4e8a52','block_max_len_64',1048576,6,'2026-11-27T14:28:47.121Z');
CREATE INDEX measurements_fit ON measurements (machine_id, git_commit, dtype, algorithm, beta);
CREATE INDEX peer_measurements_table ON peer_measurements (machine_id, dtype, n);
COMMIT;
