PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE schema_version (
    version    INTEGER NOT NULL
);
INSERT INTO schema_version VALUES(11);
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
INSERT INTO machines VALUES(1,'GPU-44010bf2-eeee-a41a-3086-207405376fea','NVIDIA H200','cuda',NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'2026-11-28T15:26:25.969Z',NULL,NULL);
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
    measured_at     TEXT NOT NULL, timing TEXT NOT NULL DEFAULT 'call' CHECK (timing IN ('call', 'gpu')), rule4_alpha INTEGER NOT NULL DEFAULT 0, rule4_flags INTEGER NOT NULL DEFAULT 0,
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
INSERT INTO peer_measurements VALUES(1,1,1,'f5932a2f1628','py.drtopk_topk','decode-4k 1x4096 torch 2.11.0+cu130','UD','f32',1,4096,16,'ok',NULL,5,0.017537120580673217634,0.0174160003662109375,0.017633279561996461487,'[0.017416000366210938,0.017435359954833984,0.017537120580673218,0.017592320442199706,0.01763327956199646]',1,'2026-11-28T15:26:25.969Z','call');
INSERT INTO peer_measurements VALUES(2,1,1,'f5932a2f1628','py.torch_topk','decode-4k 1x4096 torch 2.11.0+cu130','UD','f32',1,4096,16,'ok',NULL,5,0.028710238933563232699,0.028702719211578367475,0.02873568058013915849,'[0.028702719211578367,0.0287062406539917,0.028710238933563233,0.028720319271087646,0.02873568058013916]',1,'2026-11-28T15:26:25.969Z','call');
INSERT INTO peer_measurements VALUES(3,1,1,'f5932a2f1628','py.drtopk_graph','decode-4k 1x4096 torch 2.11.0+cu130','UD','f32',1,4096,16,'ok',NULL,5,0.0084372800588607792249,0.0084305602312088005062,0.0084827202558517451891,'[0.0084305602312088,0.00843168020248413,0.00843728005886078,0.008437439799308777,0.008482720255851745]',1,'2026-11-28T15:26:25.969Z','gpu');
INSERT INTO peer_measurements VALUES(4,1,1,'f5932a2f1628','py.drtopk_topk','decode-64k 1x65536 torch 2.11.0+cu130','UD','f32',1,65536,16,'ok',NULL,5,0.023282399177551271057,0.022740800380706787525,0.023968000411987305103,'[0.022740800380706788,0.02306864023208618,0.02328239917755127,0.023386878967285155,0.023968000411987305]',1,'2026-11-28T15:26:25.969Z','call');
INSERT INTO peer_measurements VALUES(5,1,1,'f5932a2f1628','py.torch_topk','decode-64k 1x65536 torch 2.11.0+cu130','UD','f32',1,65536,16,'ok',NULL,5,0.098323202133178716488,0.097691364288330084786,0.099973602294921873334,'[0.09769136428833008,0.09784607887268067,0.09832320213317872,0.09860976219177246,0.09997360229492187]',1,'2026-11-28T15:26:25.969Z','call');
INSERT INTO peer_measurements VALUES(6,1,1,'f5932a2f1628','py.drtopk_graph','decode-64k 1x65536 torch 2.11.0+cu130','UD','f32',1,65536,16,'ok',NULL,5,0.016727039813995359801,0.016719039678573608537,0.016758719682693479918,'[0.01671903967857361,0.016720800399780272,0.01672703981399536,0.016728320121765138,0.01675871968269348]',1,'2026-11-28T15:26:25.969Z','gpu');
INSERT INTO peer_measurements VALUES(7,1,1,'f5932a2f1628','py.drtopk_topk','decode-128k 1x131072 torch 2.11.0+cu130','UD','f32',1,131072,50,'ok',NULL,5,0.023821599483489989956,0.023662240505218506969,0.02392143964767455902,'[0.023662240505218507,0.02381392002105713,0.02382159948348999,0.02383392095565796,0.02392143964767456]',1,'2026-11-28T15:26:25.969Z','call');
INSERT INTO peer_measurements VALUES(8,1,1,'f5932a2f1628','py.torch_topk','decode-128k 1x131072 torch 2.11.0+cu130','UD','f32',1,131072,50,'ok',NULL,5,0.096184158325195306948,0.094605922698974609375,0.097153759002685552426,'[0.09460592269897461,0.09604784011840821,0.09618415832519531,0.09691632270812989,0.09715375900268555]',1,'2026-11-28T15:26:25.969Z','call');
INSERT INTO peer_measurements VALUES(9,1,1,'f5932a2f1628','py.drtopk_graph','decode-128k 1x131072 torch 2.11.0+cu130','UD','f32',1,131072,50,'ok',NULL,5,0.021645920276641847368,0.021637759208679198386,0.021691360473632813332,'[0.0216377592086792,0.021645760536193846,0.021645920276641847,0.021647520065307617,0.021691360473632813]',1,'2026-11-28T15:26:25.969Z','gpu');
INSERT INTO peer_measurements VALUES(10,1,1,'f5932a2f1628','py.drtopk_topk','sampling-128k 256x131072 torch 2.11.0+cu130','UD','f32',1,33554432,50,'ok',NULL,5,0.10380895614624023604,0.10377759933471679409,0.10392064094543457253,'[0.1037775993347168,0.10380767822265625,0.10380895614624024,0.10385104179382325,0.10392064094543457]',1,'2026-11-28T15:26:25.969Z','call');
INSERT INTO peer_measurements VALUES(11,1,1,'f5932a2f1628','py.torch_topk','sampling-128k 256x131072 torch 2.11.0+cu130','UD','f32',1,33554432,50,'ok',NULL,5,0.47602401733398436167,0.47532222747802732598,0.47646209716796872335,'[0.4753222274780273,0.4756601715087891,0.47602401733398436,0.4760655975341797,0.4764620971679687]',1,'2026-11-28T15:26:25.970Z','call');
INSERT INTO peer_measurements VALUES(12,1,1,'f5932a2f1628','py.drtopk_graph','sampling-128k 256x131072 torch 2.11.0+cu130','UD','f32',1,33554432,50,'ok',NULL,5,0.10064911842346191406,0.1005398368835449252,0.10087280273437500277,'[0.10053983688354493,0.10057968139648438,0.10064911842346191,0.10071760177612304,0.100872802734375]',1,'2026-11-28T15:26:25.970Z','gpu');
INSERT INTO peer_measurements VALUES(13,1,1,'f5932a2f1628','py.drtopk_topk','sampling-256k 256x262144 torch 2.11.0+cu130','UD','f32',1,67108864,50,'ok',NULL,5,0.15781184196472167191,0.15777055740356446533,0.15810000419616698774,'[0.15777055740356447,0.15777952194213868,0.15781184196472167,0.15785856246948243,0.158100004196167]',1,'2026-11-28T15:26:25.970Z','call');
INSERT INTO peer_measurements VALUES(14,1,1,'f5932a2f1628','py.torch_topk','sampling-256k 256x262144 torch 2.11.0+cu130','UD','f32',1,67108864,50,'ok',NULL,5,0.85085441589355470526,0.85056480407714840641,0.85106674194335940608,'[0.8505648040771484,0.8506371307373047,0.8508544158935547,0.8509646606445312,0.8510667419433594]',1,'2026-11-28T15:26:25.970Z','call');
INSERT INTO peer_measurements VALUES(15,1,1,'f5932a2f1628','py.drtopk_graph','sampling-256k 256x262144 torch 2.11.0+cu130','UD','f32',1,67108864,50,'ok',NULL,5,0.15447279930114746204,0.15442768096923828458,0.15452608108520507479,'[0.15442768096923828,0.15444479942321776,0.15447279930114746,0.15452320098876954,0.15452608108520507]',1,'2026-11-28T15:26:25.970Z','gpu');
INSERT INTO peer_measurements VALUES(16,1,1,'f5932a2f1628','py.drtopk_topk','moe 65536x256 torch 2.11.0+cu130','UD','f32',1,16777216,8,'ok',NULL,5,0.065794081687927247203,0.065784959793090819202,0.065865440368652342084,'[0.06578495979309082,0.0657916784286499,0.06579408168792725,0.06581552028656006,0.06586544036865234]',1,'2026-11-28T15:26:25.970Z','call');
INSERT INTO peer_measurements VALUES(17,1,1,'f5932a2f1628','py.torch_topk','moe 65536x256 torch 2.11.0+cu130','UD','f32',1,16777216,8,'ok',NULL,5,0.9204425811767578125,0.92035278320312496891,0.9205863952636719194,'[0.920352783203125,0.9204257965087891,0.9204425811767578,0.920482406616211,0.9205863952636719]',1,'2026-11-28T15:26:25.970Z','call');
INSERT INTO peer_measurements VALUES(18,1,1,'f5932a2f1628','py.drtopk_graph','moe 65536x256 torch 2.11.0+cu130','UD','f32',1,16777216,8,'ok',NULL,5,0.063556962013244622244,0.06354415893554687944,0.063578882217407220456,'[0.06354415893554688,0.0635531187057495,0.06355696201324462,0.0635750389099121,0.06357888221740722]',1,'2026-11-28T15:26:25.970Z','gpu');
INSERT INTO peer_measurements VALUES(19,1,1,'f5932a2f1628','py.drtopk_topk','ann-8192 10000x8192 torch 2.11.0+cu130','UD','f32',1,81920000,100,'ok',NULL,5,0.29299152374267578569,0.29290464401245119852,0.29309583663940430575,'[0.2929046440124512,0.2929705619812012,0.2929915237426758,0.29308128356933594,0.2930958366394043]',1,'2026-11-28T15:26:25.970Z','call');
INSERT INTO peer_measurements VALUES(20,1,1,'f5932a2f1628','py.torch_topk','ann-8192 10000x8192 torch 2.11.0+cu130','UD','f32',1,81920000,100,'ok',NULL,5,1.1666942596435547763,1.1662335968017578657,1.1671903991699219549,'[1.1662335968017579,1.1665122985839844,1.1666942596435548,1.1669044494628906,1.167190399169922]',1,'2026-11-28T15:26:25.970Z','call');
INSERT INTO peer_measurements VALUES(21,1,1,'f5932a2f1628','py.drtopk_graph','ann-8192 10000x8192 torch 2.11.0+cu130','UD','f32',1,81920000,100,'ok',NULL,5,0.29158399581909177911,0.29137008666992186833,0.29204320907592773437,'[0.29137008666992187,0.29145328521728514,0.2915839958190918,0.29195791244506836,0.29204320907592773]',1,'2026-11-28T15:26:25.970Z','gpu');
INSERT INTO peer_measurements VALUES(22,1,1,'f5932a2f1628','py.drtopk_topk','ann-10000 10000x10000 torch 2.11.0+cu130','UD','f32',1,100000000,100,'ok',NULL,5,0.35418683930305439044,0.35380918427375751544,0.35423240015062235075,'[0.3538091842737575,0.3538346586927856,0.3541868393030544,0.35419696872517215,0.35423240015062235]',1,'2026-11-28T15:26:25.970Z','call');
INSERT INTO peer_measurements VALUES(23,1,1,'f5932a2f1628','py.torch_topk','ann-10000 10000x10000 torch 2.11.0+cu130','UD','f32',1,100000000,100,'ok',NULL,5,1.3943465065821416537,1.3940738311595162191,1.394630906272069204,'[1.3940738311595162,1.394252108988789,1.3943465065821417,1.3943475410763153,1.3946309062720692]',1,'2026-11-28T15:26:25.970Z','call');
INSERT INTO peer_measurements VALUES(24,1,1,'f5932a2f1628','py.drtopk_graph','ann-10000 10000x10000 torch 2.11.0+cu130','UD','f32',1,100000000,100,'ok',NULL,5,0.35148527932032352927,0.35122549197094588002,0.35239539712162343265,'[0.3512254919709459,0.351369394420904,0.35148527932032353,0.35188519752631753,0.35239539712162343]',1,'2026-11-28T15:26:25.970Z','gpu');
INSERT INTO peer_measurements VALUES(25,1,1,'f5932a2f1628','py.drtopk_topk','long-rows 16x16777216 torch 2.11.0+cu130','UD','f32',1,268435456,1024,'ok',NULL,5,0.38277184208737141668,0.38227887696857693056,0.3842592360098150972,'[0.38227887696857693,0.382520313504376,0.3827718420873714,0.38369864451734326,0.3842592360098151]',1,'2026-11-28T15:26:25.970Z','call');
INSERT INTO peer_measurements VALUES(26,1,1,'f5932a2f1628','py.torch_topk','long-rows 16x16777216 torch 2.11.0+cu130','UD','f32',1,268435456,1024,'ok',NULL,5,3.1328951678698575555,3.1322357564032832222,3.133087158203125,'[3.1322357564032832,3.1325876742978638,3.1328951678698576,3.1329600660106802,3.133087158203125]',1,'2026-11-28T15:26:25.970Z','call');
INSERT INTO peer_measurements VALUES(27,1,1,'f5932a2f1628','py.drtopk_graph','long-rows 16x16777216 torch 2.11.0+cu130','UD','f32',1,268435456,1024,'ok',NULL,5,0.37535677076895024306,0.37517974950090238195,0.37552729739418511112,'[0.3751797495009024,0.3752344348762609,0.37535677076895024,0.3754122528848769,0.3755272973941851]',1,'2026-11-28T15:26:25.970Z','gpu');
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
INSERT INTO runs VALUES(1,'d64a61a805d357a685ce7a3e16c4198b',1,'tuner','/work/main/.dev/src/new/bin/tuner --import-peers /root/out/py/py_bench.jsonl --db /root/out/py/results.sqlite','f5932a2f1628','2026-11-28T15:26:25.969Z','2026-11-28T15:26:25.970Z','done',1611,'vm');
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
