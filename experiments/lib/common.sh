# common.sh -- sourced by every experiments/figNN_*.sh and tabN_*.sh script
# (docs/artifact.md): the one way a figure (a) makes sure its measurements are in the
# database (bin/tuner, only with a GPU), (b) queries them with SQL into a data
# file, (c) plots them with its gnuplot script in figures/ to PNG and SVG, or
# draws the "not measured on this machine" panel, and (d) records a status line
# (rows used, GPU, status, the paper's claim beside ours, the verdict) that
# run_all.sh sums up and experiments/lib/index_html.sh lays out.
#
# Environment (set by experiments/run_all.sh; defaults for a script run alone):
#   DRTOPK_EXP_DB       the database (default $DRTOPK_DB, else db/results.sqlite)
#   DRTOPK_EXP_OUT      output folder (default figures/): images in it, data files
#                       in data/, status lines in data/status/
#   DRTOPK_EXP_GPU      GPU index to measure on; empty: measure nothing
#   DRTOPK_EXP_BACKEND  cuda (default) or cpu: the tuner's backend; cpu scales the
#                       paper's sizes down (exp_n) so the same commands run on a CPU
#   DRTOPK_EXP_QUICK    1: fit one 10-minute GPU call: measuring stops at the deadline
#                       (the synthetic sweeps are the paper's ranges either way;
#                       lib/real_data.sh measures the real data sets at fewer k)
#   DRTOPK_EXP_DEADLINE with --quick: epoch second by which measuring stops
#   DRTOPK_EXP_VERIFY_EVERY  the tuner's --verify-every for the timing sweeps (default: the tuner's)
#   DRTOPK_EXP_COMMIT   the commit stamped on every output (default: git describe)
#   DRTOPK_BIN_DIR      where bin/tuner is (default bin/; tests/gpu/run.sh's carried programs)
#   DRTOPK_EXP_PRELUDE  a folder where the figures share fig_rows.sql's tables (exp_prelude;
#                       run_all.sh sets it only while the database cannot change)
# A script exits 0 when each of its panels is plotted or drawn as not measured,
# 1 when a query or a plot failed (its panel then says so), 2 on a usage error.
set -eu

EXP_ROOT=$(cd "$(dirname "$0")/.." && pwd)
EXP_SQL="$EXP_ROOT/experiments/sql"
EXP_GP="$EXP_ROOT/figures"
EXP_DB="${DRTOPK_EXP_DB:-${DRTOPK_DB:-$EXP_ROOT/db/results.sqlite}}"
EXP_OUT="${DRTOPK_EXP_OUT:-$EXP_ROOT/figures}"
EXP_GPU="${DRTOPK_EXP_GPU:-}"
EXP_BACKEND="${DRTOPK_EXP_BACKEND:-cuda}"
EXP_QUICK="${DRTOPK_EXP_QUICK:-0}"
EXP_ALL_RUNS="${DRTOPK_EXP_ALL_RUNS:-0}"    # run_all.sh --all-runs: draw every run, not one per GPU model
EXP_MEASURE_ONLY="${DRTOPK_EXP_MEASURE_ONLY:-0}"   # run_all.sh --measure-only: no queries, no plots
EXP_SEED=1                      # the tuner's default seed: the rows every figure uses
CPU_SHIFT=14                    # --backend cpu: 2^30 -> 2^16, still many subranges
CPU_MIN_LOG2=10                 # ... but never below 2^10 elements
EXP_QUICK_MINUTES=2             # --quick: each tuner call stops cleanly after this
EXP_MIN_CALL_S=20               # --quick: less time left than this: measure nothing more
EXP_FULL_MINUTES=60             # full sweeps: each call stops after this (rerun resumes)
EXP_TERM_GRACE_S=20             # --quick: a measuring program still running this long after
                                # the deadline (start-up, a last slow config) gets SIGTERM
                                # (the tuner stops after its current config) ...
EXP_KILL_GRACE_S=15             # ... and SIGKILL this much later: the budget is a hard bound
EXP_DB_WAIT_MS=60000            # a query waits this long for a lock: the experiments open the
                                # database many at once, and the first reader of a WAL database
                                # (the tuner's) recovers it, the others meanwhile see it locked

if [ -z "${DRTOPK_EXP_COMMIT:-}" ]; then
    DRTOPK_EXP_COMMIT=$(git -C "$EXP_ROOT" describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
fi
EXP_COMMIT="$DRTOPK_EXP_COMMIT"

# exp_sqlite ARGS...: the sqlite3 shell, waiting up to EXP_DB_WAIT_MS for a lock
# rather than failing at once (the shell's default)
exp_sqlite() { sqlite3 -cmd ".timeout $EXP_DB_WAIT_MS" "$@"; }

. "$(dirname "${BASH_SOURCE[0]}")/claims.sh"     # the paper's claims and their verdicts

exp_die() {
    echo "$EXP_ID: $*" >&2
    exit 2
}

# exp_n LOG2: the size 2^LOG2 of the paper, scaled down for the CPU backend.
exp_n() {
    if [ "$EXP_BACKEND" = cpu ]; then
        l=$(($1 - CPU_SHIFT))
        [ "$l" -ge "$CPU_MIN_LOG2" ] || l=$CPU_MIN_LOG2
        echo $((1 << l))
    else
        echo $((1 << $1))
    fi
}

# exp_pow2_list FROM TO STEP: "2^FROM,2^(FROM+STEP),...,2^TO" (k and n lists).
exp_pow2_list() {
    awk -v a="$1" -v b="$2" -v s="$3" 'BEGIN { for (e = a; e <= b; e += s) printf "%s2^%d", (e > a ? "," : ""), e }'
}

# exp_begin ID TITLE: start a figure; machines come from the database.
exp_begin() {
    EXP_ID="$1"
    EXP_TITLE="$2"
    EXP_DATA="$EXP_OUT/data"
    EXP_STATUS_FILE="$EXP_DATA/status/$EXP_ID.tsv"
    EXP_FAILED=0
    EXP_PROV_COMMIT="-"             # the measuring commit and date of the panel (exp_pick)
    EXP_PROV_DATE="-"
    EXP_VERIFIED=""
    # the paper's claim, typed from the paper into figures/claims.tsv (id, claim, where);
    # an experiment beyond the paper (exp_*) has its target there under its full id
    EXP_CLAIM=$(exp_claim_text)
    exp_claims_begin
    mkdir -p "$EXP_DATA/status"
    : > "$EXP_STATUS_FILE.tmp"
    [ "$EXP_MEASURE_ONLY" = 1 ] && return 0      # measuring needs only bin/tuner (and ncu for Table 3)
    command -v sqlite3 > /dev/null 2>&1 || exp_die "the sqlite3 shell is not installed (./configure.sh installs it)"
    command -v gnuplot > /dev/null 2>&1 || exp_die "gnuplot is not installed (./configure.sh installs gnuplot-nox)"
}

# exp_measure TUNER_ARGS...: with a GPU (DRTOPK_EXP_GPU), make sure these
# configurations are in the database: bin/tuner measures what this machine lacks
# at this commit (--resume) and stops cleanly at the time limit (rerun resumes).
# Without a GPU it only says what it would run.
exp_measure() {
    if [ -z "$EXP_GPU" ]; then
        return 0
    fi
    mins=$EXP_FULL_MINUTES
    if [ "$EXP_QUICK" = 1 ]; then
        # each call gets at most EXP_QUICK_MINUTES and never more than what is left
        exp_budget || return 0
        mins=$(awk -v q="$EXP_QUICK_MINUTES" -v l="$EXP_LEFT" 'BEGIN { m = q; if (l / 60 < m) m = l / 60; printf "%.2f", m }')
    fi
    # the tuner checks every row by default (on the GPU where the result lies);
    # DRTOPK_EXP_VERIFY_EVERY sets another interval; --bmw counts, it times nothing
    case " $* " in *" --bmw "*) ;; *) [ -z "${DRTOPK_EXP_VERIFY_EVERY:-}" ] || set -- "$@" --verify-every "$DRTOPK_EXP_VERIFY_EVERY" ;; esac
    # the paper's figures are u32 unless a script names its key type (a later --dtype wins)
    if [ "$EXP_BACKEND" = cpu ]; then
        set -- --backend cpu --dtype u32 "$@"
    else
        set -- --gpu "$EXP_GPU" --backend "$EXP_BACKEND" --dtype u32 "$@"
    fi
    set -- "${DRTOPK_BIN_DIR:-$EXP_ROOT/bin}/tuner" --db "$EXP_DB" --max-minutes "$mins" "$@"
    echo "$EXP_ID: $*" >&2
    if ! exp_bounded "$@" > "$EXP_DATA/$EXP_ID.tuner.log" 2>&1; then
        tail -5 "$EXP_DATA/$EXP_ID.tuner.log" >&2
        echo "$EXP_ID: the tuner failed (log: $EXP_DATA/$EXP_ID.tuner.log); plotting what the database holds" >&2
    fi
}

# exp_budget: with --quick, set EXP_LEFT to the seconds left before
# DRTOPK_EXP_DEADLINE (run_all.sh) and succeed when a measuring call still
# fits (EXP_MIN_CALL_S); else say so and fail.  Without --quick or a deadline
# there is no budget (EXP_LEFT empty).
exp_budget() {
    EXP_LEFT=""
    [ "$EXP_QUICK" = 1 ] && [ -n "${DRTOPK_EXP_DEADLINE:-}" ] || return 0
    EXP_LEFT=$(( DRTOPK_EXP_DEADLINE - $(date +%s) ))
    if [ "$EXP_LEFT" -lt "$EXP_MIN_CALL_S" ]; then
        echo "$EXP_ID: the --quick time budget is spent: measuring nothing more (a rerun resumes)" >&2
        return 1
    fi
}

# exp_bounded COMMAND...: run a measuring command; under a --quick budget it is
# stopped (SIGTERM, then SIGKILL) once it runs EXP_TERM_GRACE_S past the
# deadline, so that the whole run keeps to one GPU call (what it stored stays:
# a rerun resumes).  Status 124/137: stopped.
exp_bounded() {
    exp_budget || return 0
    if [ -z "$EXP_LEFT" ]; then
        "$@"
        return
    fi
    timeout -k "$EXP_KILL_GRACE_S" "$((EXP_LEFT + EXP_TERM_GRACE_S))" "$@"
    rc=$?
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        echo "$EXP_ID: stopped at the --quick deadline: $1 (a rerun resumes)" >&2
    fi
    return "$rc"
}

# Tables of later schema versions whose rows also make a machine one of the
# figures' (multi_gpu: schema 6, bin/drtopk-mpi; counters: schema 7).
EXP_MACHINE_TABLES="multi_gpu counters"

# exp_machines: id|uuid|name|backend|driver|runtime|read_gbps of every machine
# with measurements, GPUs first.
exp_machines() {
    [ -f "$EXP_DB" ] || { echo "$EXP_ID: database $EXP_DB does not exist" >&2; return 1; }
    more=""
    for t in $EXP_MACHINE_TABLES; do
        if exp_has_table "$t"; then more="$more OR EXISTS (SELECT 1 FROM $t z WHERE z.machine_id = m.id)"; fi
    done
    exp_sqlite -readonly -batch -bail -noheader -separator '|' "$EXP_DB" "
        SELECT id, uuid, name, backend,
               CASE WHEN driver_version > 0 THEN printf('%d.%d', driver_version / 1000,
                    (driver_version % 1000) / 10) ELSE '-' END,
               CASE WHEN runtime_version > 0 THEN printf('%d.%d', runtime_version / 1000,
                    (runtime_version % 1000) / 10) ELSE '-' END,
               coalesce(printf('%.0f', read_gbps), '-')
        FROM machines m
        WHERE EXISTS (SELECT 1 FROM measurements x WHERE x.machine_id = m.id)
           OR EXISTS (SELECT 1 FROM peer_measurements y WHERE y.machine_id = m.id) $more
        ORDER BY backend = 'cpu', name, id;"
}

# exp_param VAR NAME VALUE: appends to VAR the sqlite3 shell's line setting
# @NAME to VALUE, an SQL literal (in the shell itself: a query sets several, and
# a command substitution would fork for each).  VALUE goes in double quotes,
# which the shell's dot-command parser strips (after its backslash escapes): a
# single-quoted literal unquoted by it would be read as SQL, and a text such as
# the commit 898e44584286 is a number there (Inf), which no text column equals.
exp_param() {
    local v="${3//\\/\\\\}" line
    printf -v line '.parameter set @%s "%s"\n' "$2" "${v//\"/\\\"}"
    printf -v "$1" '%s%s' "${!1}" "$line"
}

# exp_query SQLFILE NAME=VALUE...: experiments/sql/fig_rows.sql (temp tables m
# and p of machine @machine) then SQLFILE, with the @NAME parameters (VALUE an
# SQL literal), @commit and @verified from exp_pick; '|'-separated rows.
# With DRTOPK_EXP_PRELUDE (exp_prelude), fig_rows.sql's tables come from there.
exp_query() {
    local params=".parameter init
" p query pre
    exp_param params seed "$EXP_SEED"
    [ -z "${EXP_PICK_COMMIT:-}" ] || exp_param params commit "'$EXP_PICK_COMMIT'"
    [ -z "${EXP_PICK_VERIFIED:-}" ] || exp_param params verified "$EXP_PICK_VERIFIED"
    for p in "${@:2}"; do
        exp_param params "${p%%=*}" "${p#*=}"
    done
    # the SQL read by the shell itself (read returns 1 at the end of the file it read)
    IFS= read -r -d '' query < "$EXP_SQL/$1" || true
    if exp_prelude "$params"; then
        pre="ATTACH '${EXP_PRELUDE_FILE//\'/\'\'}' AS exp_prelude;
"
    else
        IFS= read -r -d '' pre < "$EXP_SQL/fig_rows.sql" || true
    fi
    exp_sqlite -readonly -batch -bail -noheader -separator '|' "$EXP_DB" <<< "$params$pre$query"
}

# exp_prelude_scan SQL: EXP_PRELUDE_TABLES, the temp tables fig_rows.sql's text
# SQL makes (empty: exp_prelude cannot stand in for it), and EXP_PRELUDE_NAMES,
# the parameters it reads; exp_for_machines reads them once per script.
exp_prelude_scan() {
    local rest="$1" creates=0 tables=0 t IFS=$' \t\n'
    EXP_PRELUDE_TABLES="" EXP_PRELUDE_NAMES=" "
    while [[ "$rest" =~ CREATE[[:space:]]+TEMP[[:space:]]+TABLE[[:space:]]+([A-Za-z_][A-Za-z_0-9]*)[[:space:]]+AS[[:space:]] ]]; do
        EXP_PRELUDE_TABLES="$EXP_PRELUDE_TABLES ${BASH_REMATCH[1]}"
        tables=$((tables + 1))
        rest="${rest#*"${BASH_REMATCH[0]}"}"
    done
    rest="${1^^}"
    while [[ "$rest" == *CREATE* ]]; do creates=$((creates + 1)); rest="${rest#*CREATE}"; done
    rest="$1"
    while [[ "$rest" =~ @([A-Za-z_][A-Za-z_0-9]*) ]]; do
        EXP_PRELUDE_NAMES="$EXP_PRELUDE_NAMES${BASH_REMATCH[1]} "
        rest="${rest#*"${BASH_REMATCH[0]}"}"
    done
    [ "$creates" = "$tables" ] || EXP_PRELUDE_TABLES=""
    for t in $EXP_PRELUDE_TABLES; do
        ! exp_has_table "$t" || EXP_PRELUDE_TABLES=""
    done
}

# exp_prelude PARAMS: with DRTOPK_EXP_PRELUDE (a folder run_all.sh makes when it
# plots, measuring nothing: the database does not change while the experiments
# run), fig_rows.sql's temp tables for the values PARAMS (exp_query's parameter
# lines) gives its parameters, made once per run into a database file of that
# folder named by those values, its path in EXP_PRELUDE_FILE: every figure's
# query of a machine runs fig_rows.sql over all that machine's rows, and the
# figures ask for the same few machines and commits.  Fails (exp_query then runs
# fig_rows.sql itself, and reports its errors) without the folder, when the
# tables cannot be made, or when fig_rows.sql makes more than temp tables or
# one of them is named as a table of the database (then it would not shadow it).
exp_prelude() {
    local dir="${DRTOPK_EXP_PRELUDE:-}" sql rest line name key="" t copy="" uri IFS=$' \t\n'
    [ -n "$dir" ] || return 1
    IFS= read -r -d '' sql < "$EXP_SQL/fig_rows.sql" || true
    [ -n "${EXP_PRELUDE_TABLES+set}" ] || exp_prelude_scan "$sql"
    [ -n "$EXP_PRELUDE_TABLES" ] || return 1
    # the file's name: the lines of the parameters fig_rows.sql reads, '%' written
    # as %25 first, then '/', '\', the quotes and the blanks as %XX (never two sets
    # of values under one name); in the shell itself, without a process: each
    # query of every figure asks for it
    rest="$1"
    while [ -n "$rest" ]; do
        line="${rest%%$'\n'*}"
        if [[ "$rest" == *$'\n'* ]]; then rest="${rest#*$'\n'}"; else rest=""; fi
        name="${line#.parameter set @}"
        name="${name%% *}"
        [ "$name" != "$line" ] && [[ "$EXP_PRELUDE_NAMES" == *" $name "* ]] || continue
        key+="${line#.parameter set @}"$'\n'
    done
    key="${key//%/%25}"
    key="${key//\//%2F}"
    key="${key//\\/%5C}"
    key="${key//\"/%22}"
    key="${key//\'/%27}"
    key="${key// /%20}"
    key="${key//$'\t'/%09}"
    key="${key//$'\n'/%0A}"
    EXP_PRELUDE_FILE="$dir/prelude-$key.sqlite"
    [ ! -f "$EXP_PRELUDE_FILE" ] || return 0
    for t in $EXP_PRELUDE_TABLES; do copy+="CREATE TABLE main.$t AS SELECT * FROM temp.$t;
"; done
    # the database read-only, attached by a URI ('%', '?' and '#' escaped)
    uri="${EXP_DB//%/%25}"
    uri="${uri//\?/%3f}"
    uri="${uri//#/%23}"
    uri="file:${uri//\'/\'\'}?mode=ro"
    exp_sqlite -batch -bail "$EXP_PRELUDE_FILE.$$.tmp" > /dev/null 2>&1 <<< "PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
ATTACH '$uri' AS exp_db;
$1$sql$copy" || { rm -f "$EXP_PRELUDE_FILE.$$.tmp"; return 1; }
    mv -f "$EXP_PRELUDE_FILE.$$.tmp" "$EXP_PRELUDE_FILE"     # whole, or not at all
}

# exp_query_memo VAR SQLFILE NAME=VALUE...: exp_query's rows into VAR; a query
# asked again (exp_for_machines draws the chosen runs after a pass over all of
# them) is answered from memory: the database does not change while a script plots.
declare -A EXP_MEMO
exp_query_memo() {
    local var="$1" key="" a out
    shift
    for a in "$@" "${EXP_PICK_COMMIT:-}" "${EXP_PICK_VERIFIED:-}"; do key+="$a"$'\x1f'; done
    if [ -z "${EXP_MEMO[$key]+set}" ]; then
        out=$(exp_query "$@") || return 1
        EXP_MEMO[$key]=$out
    fi
    printf -v "$var" '%s' "${EXP_MEMO[$key]}"
}

# exp_slug NAME UUID: file-name part of one machine, e.g. nvidia-h200-0593d0f2.
# (In bash, without a process: each of the figures' many machines asks for it.)
exp_slug() {
    local u="${2#GPU-}" s
    u="${u#cpu:}"
    s="$1-${u:0:8}"
    s="${s,,}"
    s="${s//[^abcdefghijklmnopqrstuvwxyz0123456789]/-}"
    while [[ "$s" == *--* ]]; do s="${s//--/-}"; done
    printf '%s' "$s"
}

# exp_machine LINE: set M_ID M_UUID M_NAME M_BACKEND M_DRIVER M_RUNTIME M_GBPS
# M_SLUG M_CAPTION from one exp_machines line.
exp_machine() {
    IFS='|' read -r M_ID M_UUID M_NAME M_BACKEND M_DRIVER M_RUNTIME M_GBPS <<EOF
$1
EOF
    M_SLUG=$(exp_slug "$M_NAME" "$M_UUID")
    if [ "$M_BACKEND" = cuda ]; then
        M_CAPTION="GPU: $M_NAME ($M_UUID), CUDA driver $M_DRIVER, runtime $M_RUNTIME"
    else
        M_CAPTION="CPU backend: $M_NAME ($M_UUID)"
    fi
    M_CAPTION0="$M_CAPTION"
    EXP_PICK_COMMIT=""
    EXP_PICK_VERIFIED=""
    EXP_VERIFIED=""
    EXP_PROV_COMMIT="-"
    EXP_PROV_DATE="-"
}

# Tables whose rows carry git_commit and measured_at (the commits a panel can draw).
EXP_COMMIT_TABLES="measurements counters multi_gpu peer_measurements"

# exp_commit_index: EXP_COMMITS[ID], the clean commits of machine ID (any on the
# CPU backend, whose rows check the commands), newest measurement first (ties: by
# name), and EXP_COMMIT_DAYS[ID|COMMIT], the days machine ID measured at COMMIT
# ("D" or "D1..D2"), of every machine in one query, once per script; with
# DRTOPK_EXP_PRELUDE (the database does not change meanwhile) once per run,
# kept in that folder for the other scripts.
declare -A EXP_COMMITS EXP_COMMIT_DAYS
exp_commit_index() {
    local u="" t id c days index="" cache="${DRTOPK_EXP_PRELUDE:+$DRTOPK_EXP_PRELUDE/commit-index}"
    EXP_COMMITS_READ=1
    if [ -n "$cache" ] && [ -f "$cache" ]; then
        index=$(< "$cache")
    else
        # each table's commits with their first and last measurement, then merged
        # (ISO times: the first day is the day of the first time)
        for t in $EXP_COMMIT_TABLES; do
            exp_has_table "$t" || continue
            u="$u${u:+ UNION ALL }SELECT machine_id, git_commit, min(measured_at) AS lo, max(measured_at) AS hi
                FROM $t GROUP BY machine_id, git_commit"
        done
        index=$(exp_sqlite -readonly -batch -noheader "$EXP_DB" "SELECT u.machine_id, u.git_commit,
            CASE WHEN date(min(u.lo)) = date(max(u.hi)) THEN date(min(u.lo))
                 ELSE date(min(u.lo)) || '..' || date(max(u.hi)) END
            FROM ($u) u JOIN machines m ON m.id = u.machine_id
            WHERE u.git_commit NOT LIKE '%-dirty' OR m.backend = 'cpu'
            GROUP BY u.machine_id, u.git_commit ORDER BY u.machine_id, max(u.hi) DESC, u.git_commit") || index=""
        if [ -n "$cache" ]; then
            printf '%s\n' "$index" > "$cache.$$.tmp" && mv -f "$cache.$$.tmp" "$cache"    # whole, or not at all
        fi
    fi
    while IFS='|' read -r id c days; do
        [ -n "$id" ] || continue
        EXP_COMMITS[$id]="${EXP_COMMITS[$id]:-}${EXP_COMMITS[$id]:+ }$c"
        EXP_COMMIT_DAYS[$id|$c]=$days
    done <<< "$index"
}

# exp_pick SQLFILE NAME=VALUE...: the panel's rows into $rows, of one commit: the
# newest clean commit of machine M_ID whose query gives rows.  Sets
# EXP_PICK_COMMIT (later exp_query calls of the panel use it), EXP_VERIFIED (1:
# the same rows with only verified rows, 0: unverified rows feed the panel),
# EXP_PROV_COMMIT, EXP_PROV_DATE and M_CAPTION (GPU, commit, date).  Returns 1
# when no commit gives rows ($rows empty), 2 when a query fails.
exp_pick() {
    local c rv
    EXP_PICK_VERIFIED=""
    [ -n "${EXP_COMMITS_READ:-}" ] || exp_commit_index
    for c in ${EXP_COMMITS[$M_ID]:-}; do
        EXP_PICK_COMMIT="$c"
        exp_query_memo rows "$@" || return 2
        [ -n "$rows" ] || continue
        EXP_PICK_VERIFIED=1
        exp_query_memo rv "$@" || return 2
        EXP_PICK_VERIFIED=""
        if [ "$rv" = "$rows" ]; then EXP_VERIFIED=1; else EXP_VERIFIED=0; fi
        exp_provenance
        return 0
    done
    EXP_PICK_COMMIT=""
    rows=""
    return 1
}

# exp_provenance: EXP_PROV_COMMIT, EXP_PROV_DATE (the days machine M_ID measured
# at EXP_PICK_COMMIT) and the caption naming them.
exp_provenance() {
    EXP_PROV_DATE="${EXP_COMMIT_DAYS[$M_ID|$EXP_PICK_COMMIT]:-}"
    EXP_PROV_COMMIT="${EXP_PICK_COMMIT:0:12}"
    M_CAPTION="$M_CAPTION0; measured at commit $EXP_PROV_COMMIT on $EXP_PROV_DATE"
    [ "$EXP_VERIFIED" = 1 ] || M_CAPTION="$M_CAPTION (unverified rows)"
}

# exp_gpstr TEXT: TEXT fit for a single-quoted gnuplot string (' becomes ’).
exp_gpstr() {
    printf '%s' "${1//\'/’}"
}

# exp_gnuplot SCRIPT BASE TITLE CAPTION VAR=VALUE...: figures/SCRIPT to
# BASE.png and BASE.svg (written beside, then renamed: never half written).
# VALUEs are gnuplot string values.  Returns non-zero when gnuplot fails.
exp_gnuplot() {
    [ "${EXP_DRY:-0}" = 0 ] || return 0        # exp_for_machines' first pass: numbers, no image
    gp="$EXP_GP/$1"
    base="$2"
    title=$(exp_gpstr "$3")
    caption=$(exp_gpstr "$4")
    shift 4
    vars=""
    for v in "$@"; do
        vars="$vars ${v%%=*}='$(exp_gpstr "${v#*=}")';"
    done
    # one gnuplot for both images: the script drawn to PNG, then, from its defaults
    # again (reset), to SVG
    vars="title='$title'; caption='$caption'; commit='$EXP_COMMIT'; gpdir='$EXP_GP'; $vars"
    if ! gnuplot -e "fmt='png'; out='$base.tmp.png'; $vars" "$gp" \
                 -e "reset; fmt='svg'; out='$base.tmp.svg'; $vars" "$gp" 2> "$base.gnuplot.log"; then
        cat "$base.gnuplot.log" >&2
        rm -f "$base.tmp.png" "$base.tmp.svg"
        return 1
    fi
    mv -f "$base.tmp.png" "$base.png" && mv -f "$base.tmp.svg" "$base.svg"
    rm -f "$base.gnuplot.log"
}

# exp_record SLUG GPU ROWS STATUS OURS VERDICT: one status line of this figure:
# id, slug, GPU, rows used, status (ok, not measured, failed), title, the
# paper's claim, ours, verdict (exp_verdict's words, or not measured), the
# measuring commit, its date, the GPU's UUID, verified (1, 0, - without rows),
# image (1: drawn, 0: numbers only), tab-separated.
exp_record() {
    local vf="${EXP_VERIFIED:--}" line
    [ "$3" != 0 ] || vf=-
    printf -v line '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$EXP_ID" "$1" "$2" "$3" "$4" "$EXP_TITLE" \
        "$EXP_CLAIM" "$5" "$6" "$EXP_PROV_COMMIT" "$EXP_PROV_DATE" "${M_UUID:--}" "$vf" "$((1 - ${EXP_DRY:-0}))"
    printf '%s' "${line//$'\r'/}" >> "$EXP_STATUS_FILE.tmp"
}

# exp_panel_missing BASE CAPTION REASON: the "not measured on this machine" panel.
exp_panel_missing() {
    exp_gnuplot not_measured.gp "$1" "$EXP_TITLE" "$2" "reason=$3" "what=not measured on this machine"
}

# exp_missing SLUG GPU CAPTION REASON: draw the panel and record it.
exp_missing() {
    base="$EXP_OUT/${EXP_ID}-$1"
    if exp_panel_missing "$base" "$3" "$4"; then
        exp_record "$1" "$2" 0 "not measured" "$4" "not measured"
    else
        EXP_FAILED=1
        exp_record "$1" "$2" 0 "failed" "gnuplot failed on the not-measured panel" "not measured"
    fi
}

# exp_fail SLUG GPU CAPTION WHY: a query or plot failed: an error panel,
# a failed status; the other figures go on.
exp_fail() {
    EXP_FAILED=1
    echo "$EXP_ID: $4" >&2
    exp_gnuplot not_measured.gp "$EXP_OUT/${EXP_ID}-$1" "$EXP_TITLE" "$3" "reason=$4" \
        "what=failed: see the run's messages" || true
    exp_record "$1" "$2" 0 "failed" "$4" "not measured"
}

# exp_for_machines FUNC: FUNC once per machine (exp_machine set), or, in a
# database without measurements, one not-measured panel for "no machine";
# under run_all.sh --measure-only a "measured only" status line, and the
# script ends there (what follows queries and plots).
exp_for_machines() {
    if [ "$EXP_MEASURE_ONLY" = 1 ]; then
        exp_record none - 0 "measured only" "plot with run_all.sh --from-db --db $(basename "$EXP_DB")" "not plotted"
        exp_end                 # the rest of a script queries and plots
    fi
    if ! lines=$(exp_machines); then
        exp_fail none - "database $EXP_DB" "cannot read the database $EXP_DB"
        return 0
    fi
    if [ -z "$lines" ]; then
        exp_missing none - "database $EXP_DB" "the database holds no measurements"
        return 0
    fi
    exp_has_table measurements || true      # the table list, read once here (not in each subshell)
    if [ -n "${DRTOPK_EXP_PRELUDE:-}" ]; then
        IFS= read -r -d '' EXP_PRELUDE_SQL < "$EXP_SQL/fig_rows.sql" || true
        exp_prelude_scan "$EXP_PRELUDE_SQL"
    fi
    if [ "${EXP_ALL_RUNS:-0}" = 1 ]; then
        exp_each_machine "$1" "$lines"
        return 0
    fi
    # first pass: every machine's numbers and verdicts, no image; then the
    # panel of each GPU model (exp_chosen) drawn
    EXP_DRY=1
    exp_each_machine "$1" "$lines"
    EXP_DRY=0
    chosen=$(exp_chosen "$EXP_STATUS_FILE.tmp")
    for uuid in $chosen; do
        awk -F'\t' -v u="$uuid" '$12 != u' "$EXP_STATUS_FILE.tmp" > "$EXP_STATUS_FILE.tmp2"
        mv -f "$EXP_STATUS_FILE.tmp2" "$EXP_STATUS_FILE.tmp"
        exp_claims_drop "$uuid"
        exp_each_machine "$1" "$(printf '%s\n' "$lines" | awk -F'|' -v u="$uuid" '$2 == u')"
    done
}

# exp_each_machine FUNC LINES: FUNC once per exp_machines line of LINES.
exp_each_machine() {
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        exp_machine "$line"
        "$1"
    done <<EOF
$2
EOF
}

# exp_chosen STATUSFILE: the UUID of the panel drawn per GPU model: the newest
# at-spec run, i.e. of the ok lines whose claims were measured (where a run of
# the model has them) with at least half the rows of that model's fullest such
# panel, a run whose every row was checked first (only checked rows give a
# verdict without "unverified"), then the latest measuring date (ties: more
# rows, then the smaller UUID, so that the choice never depends on the
# database's row order); a model without an ok line: its first line (the
# not-measured panel, with its reason).
exp_chosen() {
    awk -F'\t' 'NR == FNR { if ($5 == "ok" && $9 !~ /^not measured/) judged[$3] = 1; next }
                { g[FNR] = $3; ok[FNR] = ($5 == "ok" && (!($3 in judged) || $9 !~ /^not measured/)); rows[FNR] = $4 + 0; nl = FNR
                  if (ok[FNR] && rows[FNR] > most[$3]) most[$3] = rows[FNR]; if (!($3 in first)) first[$3] = FNR
                  d[FNR] = $11; u[FNR] = $12; v[FNR] = ($13 == 1) }
        END { for (i = 1; i <= nl; ++i) { m = g[i]
                  if (!ok[i] || rows[i] * 2 < most[m]) continue
                  b = best[m]
                  if (!(m in best) || v[i] > v[b] || (v[i] == v[b] && (d[i] > d[b] || (d[i] == d[b] && (rows[i] > rows[b] ||
                      (rows[i] == rows[b] && u[i] < u[b])))))) best[m] = i }
              for (m in first) print (m in best) ? u[best[m]] : u[first[m]] }' "$1" "$1" | sort -u
}

# exp_rows TEXT: the number of lines of TEXT (0 when empty).
exp_rows() {
    if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l | tr -d ' '; fi
}

# exp_end: publish the status lines; the exit status says whether all worked.
# A GPU model measured on several machines (reference dumps of several runs)
# keeps the lines of those that have rows: its "not measured" lines go where
# another of its machines has rows, and stay once (the drawn one) where none has.
exp_end() {
    awk -F'\t' 'NR == FNR { if ($5 != "not measured") plotted[$3] = 1; else if ($14 == 1) drawn[$3] = 1; next }
                 $5 == "not measured" && (($3 in plotted) || (($3 in drawn) && $14 != 1) || seen[$3]++) {
                     print $2 > "/dev/stderr"; next }
                 { print }' "$EXP_STATUS_FILE.tmp" "$EXP_STATUS_FILE.tmp" \
        2> "$EXP_STATUS_FILE.dropped" > "$EXP_STATUS_FILE.kept"
    while IFS= read -r slug; do
        rm -f "$EXP_OUT/${EXP_ID}-$slug.png" "$EXP_OUT/${EXP_ID}-$slug.svg"
    done < "$EXP_STATUS_FILE.dropped"
    rm -f "$EXP_STATUS_FILE.dropped" "$EXP_STATUS_FILE.tmp"
    # one order whatever the database's row order: by GPU model, then UUID
    LC_ALL=C sort -t "$(printf '\t')" -k3,3 -k12,12 -s "$EXP_STATUS_FILE.kept" > "$EXP_STATUS_FILE" &&
        rm -f "$EXP_STATUS_FILE.kept"
    exp_claims_publish
    exit "$EXP_FAILED"
}

# exp_write FILE: stdin to FILE after a comment line stamping the figure, the
# commit and the database (gnuplot skips it), written beside and renamed
# (never half written).
exp_write() {
    local body
    IFS= read -r -d '' body || true         # all of stdin (read returns 1 at its end)
    printf '# %s, drawn at commit %s from %s\n%s' "$EXP_ID" "$EXP_COMMIT" "${EXP_DB##*/}" "$body" > "$1.tmp" &&
        mv -f "$1.tmp" "$1"
}

# exp_blocks: '|'-separated rows "series|x|y..." (grouped by series) to gnuplot
# data blocks, one per series, each opening with the series name as its column
# header (plot ... index i title columnheader(1)), two blank lines between them.
exp_blocks() {
    awk -F'|' '$1 != prev { if (NR > 1) printf "\n\n"; printf "\"%s\"\n", $1; prev = $1 }
               { line = $2; for (i = 3; i <= NF; ++i) line = line " " $i; print line }'
}

# exp_nblocks FILE: how many series exp_blocks wrote.
exp_nblocks() {
    grep -c '^"' "$1" || true
}

# exp_data NAME ROWS: ROWS as blocks into data/ID-NAME.dat; prints the path.
exp_data() {
    f="$EXP_DATA/${EXP_ID}-$1.dat"
    printf '%s\n' "$2" | exp_blocks | exp_write "$f"
    echo "$f"
}

# exp_p2 N: "2^e" when N is a power of two, else N (labels).
exp_p2() {
    local m="$1" e=0
    case "$m" in ''|*[!0-9]*|0*) printf '%s' "$1"; return ;; esac    # not a positive integer
    while [ "$m" -gt 1 ] && [ $((m % 2)) = 0 ]; do m=$((m / 2)); e=$((e + 1)); done
    if [ "$m" = 1 ]; then printf '2^%d' "$e"; else printf '%s' "$1"; fi
}

# exp_has_table NAME: whether the database has table NAME (tables that later
# schema migrations add: the figure draws the not-measured panel until then).
exp_has_table() {
    # the tables, read once per script (a figure asks per machine)
    local names
    if [ -z "${EXP_TABLES:-}" ]; then
        names=$(exp_sqlite -readonly -batch "$EXP_DB" "SELECT name FROM sqlite_master WHERE type = 'table'") ||
            { echo "$EXP_ID: cannot read the tables of the database $EXP_DB" >&2; exit 1; }
        EXP_TABLES=" $(printf '%s\n' "$names" | tr '\n' ' ')"
    fi
    case "$EXP_TABLES" in *" $1 "*) return 0 ;; *) return 1 ;; esac
}

# exp_table SQLFILE REASON VAR=VALUE...: a table of the paper drawn as text
# (figures/table.gp) from SQLFILE's '|'-separated rows, the first row the
# header; REASON on the not-measured panel when there are no rows.
exp_table() {
    tsql="$1"; treason="$2"; shift 2
    rc=0; exp_pick "$tsql" "machine=$M_ID" "$@" || rc=$?
    case $rc in
        0) ;;
        1) exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" "$treason"; return ;;
        *) exp_fail "$M_SLUG" "$M_NAME" "$M_CAPTION" "query $tsql failed"; return ;;
    esac
    [ "$(exp_rows "$rows")" -gt 1 ] || { exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" "$treason"; return; }
    data="$EXP_DATA/${EXP_ID}-$M_SLUG.txt"
    printf '%s\n' "$rows" | awk -F'|' '{ r[NR] = $0; for (i = 1; i <= NF; ++i) if (length($i) > w[i]) w[i] = length($i) }
        END { for (n = 1; n <= NR; ++n) { m = split(r[n], f, "|"); line = ""
                  for (i = 1; i <= m; ++i) line = line sprintf("%" w[i] + 2 "s", f[i]); print line } }' | exp_write "$data"
    exp_gnuplot table.gp "$EXP_OUT/${EXP_ID}-$M_SLUG" "$EXP_TITLE" "$M_CAPTION" "data=$data" ||
        { exp_fail "$M_SLUG" "$M_NAME" "$M_CAPTION" "gnuplot failed on table.gp"; return; }
    TABLE_ROWS=$(($(exp_rows "$rows") - 1))
}

# exp_fetch SQLFILE REASON PARAM...: the rows of SQLFILE for the current machine
# (exp_machine) into $rows; when the query fails or gives no rows, draws the
# failed or the not-measured (REASON) panel and returns 1.
exp_fetch() {
    fsql="$1"; freason="$2"; shift 2
    rc=0; exp_pick "$fsql" "machine=$M_ID" "$@" || rc=$?
    case $rc in
        0) return 0 ;;
        1) exp_missing "$M_SLUG" "$M_NAME" "$M_CAPTION" "$freason"; return 1 ;;
        *) exp_fail "$M_SLUG" "$M_NAME" "$M_CAPTION" "query $fsql failed"; return 1 ;;
    esac
}

# exp_plot GP TITLE VAR=VALUE...: figures/GP for the current machine; on a
# gnuplot error draws the failed panel and returns 1.
exp_plot() {
    pgp="$1"; ptitle="$2"; shift 2
    exp_gnuplot "$pgp" "$EXP_OUT/${EXP_ID}-$M_SLUG" "$ptitle" "$M_CAPTION" "$@" ||
        { exp_fail "$M_SLUG" "$M_NAME" "$M_CAPTION" "gnuplot failed on $pgp"; return 1; }
}

# exp_columns NAME ROWS: '|'-separated ROWS as space-separated columns into
# data/ID-NAME.dat; prints the path.
exp_columns() {
    f="$EXP_DATA/${EXP_ID}-$1.dat"
    printf '%s\n' "$2" | tr '|' ' ' | exp_write "$f"
    echo "$f"
}

# exp_dashes FILE: per series of FILE (exp_blocks), 2 for a Dr.-assisted one
# ("dr-..."), else 1: the dash types figures draw them with (word(dashes, i+1)).
exp_dashes() {
    awk '/^"/ { printf "%s%d", (n++ ? " " : ""), (index($0, "\"dr-") == 1) ? 2 : 1 }' "$1"
}
