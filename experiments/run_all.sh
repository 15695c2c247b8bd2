#!/bin/bash
# run_all.sh -- regenerates every figure and table of the paper (Gaihre et al.,
# SC'21, sections 3-6) from the results database.  Each experiment is
# one script, experiments/figNN_subject.sh or tabN_subject.sh (then exp_*.sh,
# beyond the paper: exp_batch.sh, batched top-k; exp_py_bench.sh, drtopk.topk from
# Python; plot only), run in order with
# a progress line (elapsed, ETA); with a GPU each first measures what the
# database lacks through bin/tuner (resumable: a rerun measures only what is
# missing), then every one queries its rows and plots them with gnuplot into
# PNG and SVG; figures/index.html sets the paper's claims beside ours.  A
# figure whose data cannot exist yet gets a "not measured on this machine"
# panel with the reason; the run still exits 0.  A summary table ends the run.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
EXP_DIR="$ROOT/experiments"
REF_DIR="$ROOT/db/reference"
DEFAULT_DB="$ROOT/db/results.sqlite"   # as DRTOPK_STORE_DEFAULT_PATH (src/harness/store.h)
BIN_DIR="${DRTOPK_BIN_DIR:-$ROOT/bin}" # the tuner (tests/gpu/run.sh may carry its own programs)
EXIT_USAGE=2

usage() {
    cat <<EOF
usage: experiments/run_all.sh [--gpu N] [--quick] [--budget S] [--measure-only] [--from-db] [--db PATH]
                              [--out DIR] [--only fig13,tab3] [--list] [--backend cuda|cpu] [--all-runs]
  Regenerates the paper's figures and tables from the results database into
  DIR (default figures/): one PNG and one SVG per figure and GPU, the data files
  and status lines in DIR/data/, and DIR/index.html (the paper's claims beside
  ours).  Without a GPU it plots what the database holds; with one (nvidia-smi
  lists GPU 0) it measures on GPU 0 first, as --gpu 0.
  --gpu N     measure on GPU N what the database lacks (bin/tuner, resumable), then plot
  --quick     with --gpu: measuring 7 minutes at most (fits one 10-minute call; a rerun at
              the same commit on the same database goes on where it stopped); the synthetic
              sweeps are the paper's ranges either way, the real data sets fewer k
  --budget S  with --quick: measure for S seconds at most (default $QUICK_MEASURE_DEFAULT_S); calls of
              --quick --measure-only --budget 480 fit 9-minute GPU calls and go on where the
              last stopped (the rows of one commit: rebuild nothing between the calls)
  --all-runs  draw every run's panel (default: the newest at-spec run per GPU model; the
              others' numbers and verdicts are on DIR/runs.html)
  --measure-only  with --gpu: measure into the database and stop, no queries and no plots
              (a GPU node without gnuplot or the sqlite3 shell: copy the database to a
              machine with them and run run_all.sh --from-db --db PATH there)
  --from-db   measure nothing, plot from the database (the default without --gpu)
  --db PATH   the database (default \$DRTOPK_DB, else db/results.sqlite when it exists,
              else the reference results db/reference/*.sql.gz loaded into DIR/data/)
  --out DIR   where the figures, data and index.html go (default figures/)
  --only LIST comma-separated experiments, by number (fig13, tab3) or full name
  --list      list the experiments and exit
  --backend B with --gpu: the tuner's backend (default cuda); cpu runs the same sweeps
              with the paper's sizes scaled down 2^14 times, to check them without a GPU
EOF
}

die() {
    echo "run_all.sh: $*" >&2
    exit "$EXIT_USAGE"
}

QUICK_MEASURE_DEFAULT_S=420     # --quick: measuring fits one 10-minute call with the plots
gpu=""
quick=0
budget=$QUICK_MEASURE_DEFAULT_S
all_runs=0
measure_only=0
from_db=0
db=""
out="$ROOT/figures"
only=""
list=0
backend=cuda
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --quick) quick=1; shift ;;
        --from-db) from_db=1; shift ;;
        --measure-only) measure_only=1; shift ;;
        --list) list=1; shift ;;
        --all-runs) all_runs=1; shift ;;
        --gpu|--db|--out|--only|--backend|--budget)
            [ $# -ge 2 ] || die "$1 needs a value (see --help)"
            case "$1" in
                --gpu) gpu="$2"; case "$gpu" in ''|*[!0-9]*) die "--gpu '$gpu': give a GPU index such as 0" ;; esac ;;
                --db) db="$2" ;;
                --budget) budget="$2"; case "$budget" in ''|*[!0-9]*) die "--budget '$budget': give seconds, e.g. 480" ;; esac ;;
                --out) out="$2" ;;
                --only) only="$2" ;;
                --backend) backend="$2"; case "$backend" in cuda|cpu) ;; *) die "--backend '$backend': cuda or cpu" ;; esac ;;
            esac
            shift 2 ;;
        *) usage >&2; die "unknown argument '$1'" ;;
    esac
done
[ "$from_db" = 1 ] && [ -n "$gpu" ] && die "--from-db measures nothing: leave out --gpu $gpu (or --from-db)"
[ "$from_db" = 1 ] && [ "$measure_only" = 1 ] && die "--measure-only and --from-db exclude each other: measure, or plot"

# The experiments, in the paper's order, then those beyond the paper (exp_*.sh),
# and their titles (a script's exp_begin line).
# The paper's order: Table 1 opens section 6, Table 2 is 6.3, Table 3 6.4.
PAPER_ORDER="fig04 fig06 fig07 fig09 fig10 fig12 fig13 fig14 fig15 tab1 fig17 fig18 fig19 fig20 fig21 fig22 tab2 tab3 fig23 fig24"
scripts=$(cd "$EXP_DIR" && { for p in $PAPER_ORDER; do ls "$p"_*.sh 2>/dev/null; done
                              ls fig[0-9][0-9]_*.sh tab[0-9]_*.sh 2>/dev/null | sort | while read -r f; do
                                  case " $PAPER_ORDER " in *" ${f%%_*} "*) ;; *) echo "$f" ;; esac; done
                              ls exp_*.sh 2>/dev/null | sort; })
title_of() { sed -n 's/^exp_begin [^ ]* "\(.*\)"$/\1/p' "$EXP_DIR/$1"; }
if [ "$list" = 1 ]; then
    for s in $scripts; do printf '%-26s %s\n' "${s%.sh}" "$(title_of "$s")"; done
    exit 0
fi
if [ -n "$only" ]; then
    sel=""
    for want in $(printf '%s' "$only" | tr ',' ' '); do
        hit=""
        for s in $scripts; do
            n="${s%.sh}"
            if [ "$want" = "$n" ] || [ "$want" = "${n%%_*}" ]; then hit="$s"; fi
        done
        [ -n "$hit" ] || die "--only: no experiment '$want' (run_all.sh --list names them)"
        case " $sel " in *" $hit "*) ;; *) sel="$sel $hit" ;; esac
    done
    scripts="$sel"
fi

if [ "$measure_only" = 0 ]; then
    command -v sqlite3 > /dev/null 2>&1 ||
        die "the sqlite3 shell is missing: run ./configure.sh (it installs sqlite3), or measure with --gpu N --measure-only and plot elsewhere"
    command -v gnuplot > /dev/null 2>&1 ||
        die "gnuplot is missing: run ./configure.sh (it installs gnuplot-nox), or measure with --gpu N --measure-only and plot elsewhere"
fi
mkdir -p "$out/data/status" || die "cannot create $out/data"
out=$(cd "$out" && pwd)

# The indexes the figure queries need beyond the store's own (db/schema.sql),
# added to the cached reference database: a point of one machine and commit
# (plan_regret.sql joins every forced plan of a point to its automatic plan:
# without it each of a sweep's points scans the machine's rows), and a
# machine's rows by algorithm (plan_regret.sql's per-machine 'count' and
# 'superseded': the automatic plan's rows of every card of a model, 3-5x
# faster than a scan of those cards' rows).
REF_INDEXES="CREATE INDEX IF NOT EXISTS measurements_point
                 ON measurements (machine_id, git_commit, dtype, dist, seed, n, k);
             CREATE INDEX IF NOT EXISTS measurements_machine_algorithm
                 ON measurements (machine_id, algorithm, measured_at);"

# The cached reference databases kept (each ~200 MB, a new one whenever the
# dumps change): the one in use and the one used before it (another checkout's
# dumps); older ones are deleted when a new one is built.
REF_CACHE_KEEP=2

# load_reference DB: the dumps of db/reference/*.sql.gz merged into DB, kept in the
# cache (DRTOPK_CACHE, default ~/.cache/drtopk) under a hash of the dumps' hashes,
# this build's schema (db/schema.sql and its version) and how it is built
# (REF_INDEXES), linked as DB:
# another output folder or a rerun loads nothing; the first dump loads as is,
# the others merge through bin/tuner, which brings it to this build's schema.
# A database used is touched, so that the REF_CACHE_KEEP kept are the ones
# used last.
load_reference() {
    link="$1"
    set -- "$REF_DIR"/*.sql.gz
    [ -f "$1" ] || die "no database: no --db, no $DEFAULT_DB and no reference dump in $REF_DIR"
    cache="${DRTOPK_CACHE:-${HOME:-/tmp}/.cache/drtopk}"
    mkdir -p "$cache" || die "cannot create the cache $cache (set DRTOPK_CACHE)"
    key=$({ sha256sum "$@" "$ROOT/db/schema.sql" | cut -c1-64; echo "schema $SCHEMA_VERSION"; printf '%s\n' "$REF_INDEXES"; } |
          sha256sum | cut -c1-16)
    target="$cache/reference-$key.sqlite"
    ln -sfn "$target" "$link"
    if [ -f "$target" ]; then
        touch "$target" 2> /dev/null || true
        return 0
    fi
    echo "run_all.sh: loading the reference results $* into $target"
    # each dump loads into a database of its own (named as the dump), as many at
    # once as there are cores; then the first is the database as is and one
    # bin/tuner run merges the others into it, in the dumps' order (each merge
    # derives only what its own rows need): the ids never depend on the timing
    [ $# -eq 1 ] || [ -x "$BIN_DIR/tuner" ] || die "merging the reference dumps needs $BIN_DIR/tuner: run ninja first"
    parts="$target.parts"
    rm -rf "$target.tmp" "$parts"
    mkdir -p "$parts" || die "cannot create $parts"
    local files=("$@") part=() pids=() merges=() i loads
    loads=$(nproc 2>/dev/null || echo 2)
    for ((i = 0; i < ${#files[@]}; ++i)); do
        part[i]="$parts/$(basename "${files[i]}" .sql.gz).sqlite"
        if [ "$i" -ge "$loads" ]; then
            wait "${pids[i - loads]}" || die "cannot load ${files[i - loads]}"
        fi
        (set -o pipefail; gzip -dc "${files[i]}" | sqlite3 -bail "${part[i]}") &
        pids[i]=$!
    done
    for ((i = ${#files[@]} > loads ? ${#files[@]} - loads : 0; i < ${#files[@]}; ++i)); do
        wait "${pids[i]}" || die "cannot load ${files[i]}"
    done
    mv -f "${part[0]}" "$target.tmp" || die "cannot move ${part[0]} to $target.tmp"
    for ((i = 1; i < ${#files[@]}; ++i)); do merges+=(--merge "${part[i]}"); done
    [ ${#merges[@]} -eq 0 ] || "$BIN_DIR/tuner" "${merges[@]}" --db "$target.tmp" > /dev/null ||
        die "cannot merge the reference dumps into $target.tmp (the tuner names the dump above)"
    rm -rf "$parts"
    # a rollback journal, not the merge's WAL: the experiments, many at once,
    # open it read-only, and a WAL database makes each first reader recover it
    # (a reader that meets another's recovery fails with "database is locked")
    sqlite3 -bail "$target.tmp" "$REF_INDEXES PRAGMA journal_mode = DELETE;" > /dev/null ||
        die "cannot finish $target.tmp"
    mv -f "$target.tmp" "$target"
    # hex names: no blanks for the list to split on
    ls -1t "$cache"/reference-*.sqlite | tail -n +$((REF_CACHE_KEEP + 1)) | while IFS= read -r old; do
        echo "run_all.sh: removing the older cached reference results $old"
        rm -f "$old"
    done
}

# check_db DB: a readable, undamaged drtopk database of a schema version this
# build reads, holding the tables every figure queries; else exit 2 naming what
# is wrong (never a plot of a damaged file, nor one error per experiment).
SCHEMA_VERSION=$(sed -n 's/^#define DRTOPK_STORE_SCHEMA_VERSION \([0-9]*\).*/\1/p' "$ROOT/src/harness/store.h")
FIGURES_SCHEMA_MIN=12   # the store's rule4_alpha, rule4_flags and fit_alphas, which the figure queries read (db/schema.sql)
CORE_TABLES="machines runs measurements fits choices"   # in every schema version (db/schema.sql's first block)
DB_WAIT_MS=60000    # a check waits this long for another process's lock (lib/common.sh EXP_DB_WAIT_MS)
check_db() {
    local v t qc
    [ -r "$1" ] || die "database $1: cannot read it: $(cat "$1" 2>&1 >/dev/null)"
    [ -s "$1" ] || die "database $1 is empty: not a drtopk database (plot from another --db)"
    qc=$(sqlite3 -cmd ".timeout $DB_WAIT_MS" -readonly "$1" "PRAGMA quick_check" 2>&1 | head -n 3 | tr '\n' ' ') || true
    [ "$qc" = "ok " ] || die "database $1 is damaged or not a SQLite database (${qc% }): restore it from a copy"
    v=$(sqlite3 -cmd ".timeout $DB_WAIT_MS" -readonly "$1" "SELECT version FROM schema_version" 2>&1 | tr '\n' ' ') ||
        die "database $1 is not a drtopk database (${v% })"
    v=${v% }
    case "$v" in ''|*[!0-9]*) die "database $1 is damaged: its schema_version table holds '$v', not one version" ;; esac
    [ "$v" -le "$SCHEMA_VERSION" ] ||
        die "database $1 has schema version $v; this build reads versions up to $SCHEMA_VERSION (a newer drtopk wrote it?)"
    [ "$v" -ge "$FIGURES_SCHEMA_MIN" ] ||
        die "database $1 has schema version $v; the figures read columns of version $FIGURES_SCHEMA_MIN on: bring it up to date with $BIN_DIR/tuner --migrate --db $1"
    for t in $CORE_TABLES; do
        [ "$(sqlite3 -cmd ".timeout $DB_WAIT_MS" -readonly "$1" "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '$t'")" = 1 ] ||
            die "database $1 lacks the table $t: it is damaged; restore it from a copy"
    done
}

# A GPU and no --gpu/--from-db: measure on GPU 0 (the README's first command).
if [ -z "$gpu" ] && [ "$from_db" = 0 ] && command -v nvidia-smi > /dev/null 2>&1 &&
   nvidia-smi -L 2>/dev/null | grep -q '^GPU 0'; then
    gpu=0
    echo "run_all.sh: found $(nvidia-smi -L | sed -n '1s/ (UUID.*//p'): measuring on it (--from-db: plot only)"
fi
[ "$quick" = 1 ] && [ -z "$gpu" ] && die "--quick shortens the GPU sweeps: give --gpu N with it"
[ "$measure_only" = 1 ] && [ -z "$gpu" ] && die "--measure-only measures: give --gpu N with it"
[ "$backend" = cpu ] && [ -z "$gpu" ] && die "--backend cpu chooses how --gpu N measures: give --gpu 0 with it"

if [ -n "$db" ]; then
    [ -f "$db" ] || [ -n "$gpu" ] || die "database $db does not exist"
    source_note="the database $db"
elif [ -f "${DRTOPK_DB:-$DEFAULT_DB}" ] || [ -n "$gpu" ]; then
    db="${DRTOPK_DB:-$DEFAULT_DB}"
    source_note="the database $db"
else
    db="$out/data/reference.sqlite"
    load_reference "$db"
    source_note="the reference results shipped in db/reference/ (no local database)"
fi
case "$db" in /*) ;; *) db="$PWD/$db" ;; esac
[ -n "$gpu" ] || check_db "$db"     # plotting alone: the file must hold what the figures read

if [ -n "$gpu" ]; then
    [ -x "$BIN_DIR/tuner" ] || die "$BIN_DIR/tuner is missing: run ninja first"
    BIN_DIR=$(cd "$BIN_DIR" && pwd)
    how="GPU $gpu"
    [ "$backend" = cpu ] && how="the CPU backend (sizes scaled down)"
    [ "$quick" = 1 ] && how="$how, quick sweeps"
    if [ "$measure_only" = 1 ]; then
        echo "run_all.sh: $how: measuring what $db lacks (--measure-only: no plots)"
    else
        echo "run_all.sh: $how: measuring what $db lacks, then plotting"
    fi
else
    echo "run_all.sh: no GPU given (--gpu N): measuring nothing, plotting $source_note"
fi

# --quick measures for at most this long (each measuring call stops cleanly at
# the deadline, and is stopped 20 + 15 s past it at the latest: lib/common.sh
# exp_bounded); querying and plotting fit in the rest of one 10-minute GPU call
QUICK_PLOT_S=5                  # --quick ETA: an experiment's queries and plots, measuring nothing
deadline=""
[ "$quick" = 1 ] && deadline=$(( $(date +%s) + budget ))
commit=$(git -C "$ROOT" describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
export DRTOPK_EXP_DB="$db" DRTOPK_EXP_OUT="$out" DRTOPK_EXP_GPU="$gpu" DRTOPK_EXP_QUICK="$quick" \
       DRTOPK_EXP_COMMIT="$commit" DRTOPK_EXP_BACKEND="$backend" DRTOPK_BIN_DIR="$BIN_DIR" \
       DRTOPK_EXP_DEADLINE="$deadline" DRTOPK_EXP_MEASURE_ONLY="$measure_only" DRTOPK_EXP_ALL_RUNS="$all_runs"
# a reference run's rows (a GPU's) must trace to a commit: the store refuses a modified
# tree's; the CPU backend's sweeps check the commands, they make no reference
[ -z "$gpu" ] || [ "$backend" != cuda ] || export DRTOPK_STORE_CLEAN=1

fmt_s() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
SUMMARY_WIDTH=100          # the summary table's lines: a terminal's width, verdicts wrapped
SUMMARY_MIN_VERDICT=30     # the verdict column keeps this much room however wide the others
total=$(printf '%s\n' $scripts | grep -c . || true)
start=$(date +%s)
i=0
failed=0
# run_one SCRIPT: one experiment into its log and status (a failure still leaves a status
# line), its .rc file written last: its presence says the experiment is done
run_one() {
    s="$1"; name="${s%.sh}"
    rm -f "$out/data/status/$name.tsv" "$out/data/$name.rc"
    if "$EXP_DIR/$s" > "$out/data/$name.log" 2>&1; then echo ok; else echo "failed (status $?)"; fi > "$out/data/$name.rc.tmp"
    if [ ! -s "$out/data/status/$name.tsv" ]; then
        printf '%s\t-\t-\t0\tfailed\t%s\t\tthe script wrote no status (log: %s)\tnot measured\t-\t-\t-\t-\t0\n' \
            "$name" "$(title_of "$s")" "$out/data/$name.log" > "$out/data/status/$name.tsv"
    fi
    mv "$out/data/$name.rc.tmp" "$out/data/$name.rc"
}
report_one() {
    s="$1"; name="${s%.sh}"; i=$((i + 1))
    st=$(cat "$out/data/$name.rc")
    [ "$st" = ok ] || failed=$((failed + 1))
    now=$(date +%s); el=$((now - start))
    eta=$(( (el * (total - i) + i - 1) / i ))
    if [ -n "$deadline" ]; then
        bound=$(( (deadline > now ? deadline - now : 0) + (total - i) * QUICK_PLOT_S ))
        [ "$bound" -lt "$eta" ] && eta=$bound
    fi
    printf '[%2d/%d] %-24s %-18s elapsed %s  ETA %s\n' "$i" "$total" "$name" "$st" "$(fmt_s "$el")" "$(fmt_s "$eta")"
    [ "$st" = ok ] || sed 's/^/        /' "$out/data/$name.log" | tail -5
}
# report_finished: report_one for each experiment done since the last call
reported=" "
report_finished() {
    for s in $scripts; do
        case "$reported" in *" $s "*) continue ;; esac
        [ -f "$out/data/${s%.sh}.rc" ] || continue
        report_one "$s"
        reported="$reported$s "
    done
}
unset DRTOPK_EXP_PRELUDE    # set below only while the database cannot change
if [ -n "$gpu" ]; then
    # one GPU: the experiments measure one after the other
    for s in $scripts; do run_one "$s"; report_one "$s"; done
else
    # plotting only: as many experiments at once as there are cores, the slowest (the
    # regret table's queries) first, each reported as it ends; the database does not
    # change meanwhile, so that the figures share the tables of fig_rows.sql
    # they query (lib/common.sh exp_prelude), made once into a folder removed at the end
    DRTOPK_EXP_PRELUDE=$(mktemp -d "${TMPDIR:-/tmp}/drtopk-prelude.XXXXXX") ||
        { echo "run_all.sh: cannot make a temporary folder (set TMPDIR)" >&2; exit 1; }
    trap 'rm -rf "$DRTOPK_EXP_PRELUDE"' EXIT
    export DRTOPK_EXP_PRELUDE
    jobs_max=$(nproc 2>/dev/null || echo 2)
    running=0
    # no .rc of an earlier run may pass for one of this run before its experiment starts
    for s in $scripts; do rm -f "$out/data/${s%.sh}.rc"; done
    for s in $(printf '%s\n' $scripts | grep '^exp_plan_regret') $(printf '%s\n' $scripts | grep -v '^exp_plan_regret'); do
        run_one "$s" &
        running=$((running + 1))
        if [ "$running" -ge "$jobs_max" ]; then
            wait -n || true
            running=$((running - 1))
            report_finished
        fi
    done
    while [ "$running" -gt 0 ]; do
        wait -n || true
        running=$((running - 1))
        report_finished
    done
    report_finished
fi

# index.html from the status lines of every experiment (also those not rerun).
if [ "$measure_only" = 0 ]; then
    python3 "$EXP_DIR/lib/index_html.py" "$out" "$db" "$commit" "$(printf '%s\n' $scripts | sed 's/\.sh$//' | tr '\n' ' ')" || { echo "run_all.sh: index.html failed" >&2; failed=$((failed + 1)); }
fi

echo
echo "summary ($source_note; outputs in $out; commit $commit)"
{
    printf 'figure\tGPU\trows used\tstatus\tverdict\n'
    for s in $scripts; do
        cut -f1,3,4,5,9 "$out/data/status/${s%.sh}.tsv"
    done
} | awk -F'\t' -v width="$SUMMARY_WIDTH" -v min_room="$SUMMARY_MIN_VERDICT" '
    # columns padded to their widest cell; the verdict (last) wrapped at word
    # boundaries onto lines of its own, indented under its column
    { r[NR] = $0; for (i = 1; i < NF; ++i) if (length($i) > w[i]) w[i] = length($i) }
    END { for (n = 1; n <= NR; ++n) { m = split(r[n], f, "\t"); line = ""
              for (i = 1; i < m; ++i) line = line sprintf("%-" w[i] + 2 "s", f[i])
              ind = length(line); room = width - ind; if (room < min_room) room = min_room
              text = f[m]; pad = sprintf("%" ind "s", "")
              while (length(text) > room) {
                  cut = room; while (cut > 0 && substr(text, cut + 1, 1) != " ") --cut
                  if (cut == 0) cut = room       # one word longer than the room: split it
                  out = line substr(text, 1, cut); sub(/ +$/, "", out); print out
                  line = pad; text = substr(text, cut + 1); sub(/^ +/, "", text)
              }
              out = line text; sub(/ +$/, "", out); print out } }'
# of the panels drawn (one a GPU model, what index.html and extra.html show): those not
# measured, and the claims not measured; the other runs are on runs.html
nm=$(for s in $scripts; do f="$out/data/claims/${s%.sh}.tsv"; [ ! -f "$f" ] || cat "$f"; done | awk -F'\t' '$12 == 1 && $7 ~ /^not measured/' | wc -l | tr -d ' ')
read -r nd np < <(for s in $scripts; do cat "$out/data/status/${s%.sh}.tsv"; done |
                  awk -F'\t' '$14 == 1 { ++d; if ($9 ~ /^not measured/) ++p } END { print d + 0, p + 0 }')
if [ "$measure_only" = 1 ]; then
    echo "$total experiments, $failed failed; measured into $db (--measure-only): plot with run_all.sh --from-db --db PATH"
else
    echo "$total experiments, $failed failed; $np of the $nd panels drawn and $nm of their claims not measured (see index.html for why)"
fi
[ "$failed" -eq 0 ]
