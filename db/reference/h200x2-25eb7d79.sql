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
INSERT INTO machines VALUES(1,'GPU-25eb7d79-96a9-776f-080b-e327827ec733','NVIDIA H200','cuda',9,0,132,150109880320,62914560,NULL,13000,13000,'2026-11-28T12:42:38.680Z',NULL,NULL);
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
INSERT INTO runs VALUES(1,'1793eb7b5d4ef034bb05fdbcfac5c7ae',1,'drtopk-mpi','/work/main/.dev/src/new/bin/drtopk-mpi --backend cuda --n 2^32 --reps 3 --verify --db /root/out/t2.sqlite --json --gpu 0 --k 128','34f7bf6bc893','2026-11-28T12:42:38.680Z','2026-11-28T12:42:38.680Z','done',8027,'vm');
INSERT INTO runs VALUES(2,'9ea1eed5a2b741d727c6d669fe1059a2',1,'drtopk-mpi','/work/main/.dev/src/new/bin/drtopk-mpi --backend cuda --n 2^32 --reps 3 --verify --db /root/out/t2.sqlite --json --gpu 0 --k 128 --device-cap 2^30','34f7bf6bc893','2026-11-28T12:43:00.821Z','2026-11-28T12:43:00.824Z','done',8085,'vm');
INSERT INTO runs VALUES(3,'96de6dc759013eaebab54df359d968ca',1,'drtopk-mpi','/work/main/.dev/src/new/bin/drtopk-mpi --backend cuda --n 2^32 --reps 3 --verify --db /root/out/t2.sqlite --json --gpu 0,1 --k 128','34f7bf6bc893','2026-11-28T12:43:18.267Z','2026-11-28T12:43:18.271Z','done',8147,'vm');
INSERT INTO runs VALUES(4,'5f6f49329a5a329380277360f1ace9b2',1,'drtopk-mpi','/work/main/.dev/src/new/bin/drtopk-mpi --backend cuda --n 2^32 --reps 3 --verify --db /root/out/t2.sqlite --json --gpu 0,1 --k 128 --device-cap 2^30','34f7bf6bc893','2026-11-28T12:43:31.583Z','2026-11-28T12:43:31.586Z','done',8206,'vm');
INSERT INTO runs VALUES(5,'cf7d7912cc6b0407f357ecfd63eeeef0',1,'drtopk-mpi','/work/main/.dev/src/new/bin/drtopk-mpi --backend cuda --n 2^32 --reps 3 --verify --db /root/out/t2.sqlite --json --gpu 0 --k 2^20','34f7bf6bc893','2026-11-28T12:43:57.924Z','2026-11-28T12:43:57.925Z','done',8280,'vm');
INSERT INTO runs VALUES(6,'5d8ca4ff35e72ba6d6683ce56f2b37fc',1,'drtopk-mpi','/work/main/.dev/src/new/bin/drtopk-mpi --backend cuda --n 2^32 --reps 3 --verify --db /root/out/t2.sqlite --json --gpu 0 --k 2^20 --device-cap 2^30','34f7bf6bc893','2026-11-28T12:44:20.425Z','2026-11-28T12:44:20.428Z','done',8338,'vm');
INSERT INTO runs VALUES(7,'d5fcd140cf42515b99b7e6bf4b47f891',1,'drtopk-mpi','/work/main/.dev/src/new/bin/drtopk-mpi --backend cuda --n 2^32 --reps 3 --verify --db /root/out/t2.sqlite --json --gpu 0,1 --k 2^20','34f7bf6bc893','2026-11-28T12:44:35.811Z','2026-11-28T12:44:35.814Z','done',8400,'vm');
INSERT INTO runs VALUES(8,'8ba35c24fc81d35e886ee29bfa127119',1,'drtopk-mpi','/work/main/.dev/src/new/bin/drtopk-mpi --backend cuda --n 2^32 --reps 3 --verify --db /root/out/t2.sqlite --json --gpu 0,1 --k 2^20 --device-cap 2^30','34f7bf6bc893','2026-11-28T12:44:47.519Z','2026-11-28T12:44:47.523Z','done',8459,'vm');
INSERT INTO runs VALUES(9,'34983e39f425ab2f7607a01e4519e2de',1,'drtopk-mpi','/work/main/.dev/src/new/bin/drtopk-mpi --backend cuda --n 2^32 --reps 3 --verify --db /root/out/t2.sqlite --json --gpu 0 --k 2^24','34f7bf6bc893','2026-11-28T12:45:16.508Z','2026-11-28T12:45:16.510Z','done',8529,'vm');
INSERT INTO runs VALUES(10,'7f0dda669ef05eece0f2ae105a8a4e54',1,'drtopk-mpi','/work/main/.dev/src/new/bin/drtopk-mpi --backend cuda --n 2^32 --reps 3 --verify --db /root/out/t2.sqlite --json --gpu 0 --k 2^24 --device-cap 2^30','34f7bf6bc893','2026-11-28T12:45:42.285Z','2026-11-28T12:45:42.288Z','done',8591,'vm');
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
INSERT INTO multi_gpu VALUES(1,1,1,'34f7bf6bc893','onepass','','onepass','u32','UD',1,4294967296,128,0,0,0,'largest',1,1,0,0,1,0,3,3.8901199999963864684,3.8896710000117309391,0.0,3.3999967854470014572e-05,NULL,'[3.897275, 3.889532, 3.890120]',1,1,'2026-11-28T12:42:38.680Z');
INSERT INTO multi_gpu VALUES(2,1,2,'34f7bf6bc893','onepass','','onepass','u32','UD',1,4294967296,128,0,0,0,'largest',1,1,1073741824,1,4,3221225215,3,312.37939700001152232,2.4254845957038924098,309.94601440429687499,0.00024999998277053236961,55.460771062047207633,'[312.187498, 312.379397, 312.576510]',1,1,'2026-11-28T12:43:00.824Z');
INSERT INTO multi_gpu VALUES(3,1,3,'34f7bf6bc893','onepass','','onepass','u32','UD',1,4294967296,128,0,0,0,'largest',2,2,0,0,1,0,3,2.1173300000373274087,2.0297920000157319009,0.0,0.077296999981626868247,NULL,'[2.117330, 2.110549, 2.148355]',1,1,'2026-11-28T12:43:18.271Z');
INSERT INTO multi_gpu VALUES(4,1,4,'34f7bf6bc893','onepass','','onepass','u32','UD',1,4294967296,128,0,0,0,'largest',2,2,1073741824,1,2,2147483391,3,158.40338499995414167,2.3402964316774159669,155.978912353515625,0.070638999983202666044,55.390823238989547404,'[158.403385, 158.017539, 158.940864]',1,1,'2026-11-28T12:43:31.586Z');
INSERT INTO multi_gpu VALUES(5,1,5,'34f7bf6bc893','onepass','','onepass','u32','UD',1,4294967296,1048576,0,0,0,'largest',1,1,0,0,1,0,3,4.2117449999786913394,4.211057000036817044,0.0,5.9999991208314895629e-05,NULL,'[4.222670, 4.211745, 4.208473]',1,1,'2026-11-28T12:43:57.925Z');
INSERT INTO multi_gpu VALUES(6,1,6,'34f7bf6bc893','onepass','','onepass','u32','UD',1,4294967296,1048576,0,0,0,'largest',1,1,1073741824,1,4,3219304063,3,313.653214999998454,3.3861348159261979162,310.25965118408203125,0.00018699996871873736381,55.368524888870702229,'[314.142977, 313.653215, 313.611788]',1,1,'2026-11-28T12:44:20.428Z');
INSERT INTO multi_gpu VALUES(7,1,7,'34f7bf6bc893','onepass','','onepass','u32','UD',1,4294967296,1048576,0,0,0,'largest',2,2,0,0,1,0,3,4.3992260000086389482,2.2981400000280700623,0.0,2.0968160000047646462,NULL,'[4.653444, 4.399226, 4.242262]',1,1,'2026-11-28T12:44:35.814Z');
INSERT INTO multi_gpu VALUES(8,1,8,'34f7bf6bc893','onepass','','onepass','u32','UD',1,4294967296,1048576,0,0,0,'largest',2,2,1073741824,1,2,2145387701,3,161.41366999997990205,3.4089970688801258802,155.68669128417968749,2.2949519999674521386,55.426871960056807607,'[161.328453, 161.413670, 162.020208]',1,1,'2026-11-28T12:44:47.523Z');
INSERT INTO multi_gpu VALUES(9,1,9,'34f7bf6bc893','onepass','','onepass','u32','UD',1,4294967296,16777216,0,0,0,'largest',1,1,0,0,1,0,3,6.5784889999777078628,6.5779839999740943312,0.0,3.4999975468963384628e-05,NULL,'[6.585804, 6.578489, 6.569430]',1,1,'2026-11-28T12:45:16.510Z');
INSERT INTO multi_gpu VALUES(10,1,10,'34f7bf6bc893','onepass','','onepass','u32','UD',1,4294967296,16777216,0,0,0,'largest',1,1,1073741824,1,4,3190472049,3,341.77745399996638298,32.087801796384155749,309.68329620361328125,0.00017700000898912549018,55.483236750209897537,'[341.589973, 341.777454, 342.020847]',1,1,'2026-11-28T12:45:42.288Z');
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
