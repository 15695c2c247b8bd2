#!/bin/sh
# ab.sh -- before/after timings of `drtopk run` for several builds on one
# card, the way docs/changelog.md's A/Bs are made: every case runs each build
# in turn, ROUNDS times over (1, 2, ..., 1, 2, ...), so that a drift of the
# card's clocks or temperature reaches every build alike; each run is
# `drtopk run ... --reps R --json` and keeps its median.  No tuning database
# (DRTOPK_DB names a file that does not exist): every build plans from its
# compiled-in table, as the GPU suites do.
#
#   tests/gpu/ab.sh [--dir DIR] [--algo A | --batch] [--reps R] [--rounds N]
#                   [--run-args "ARGS"] [--kernel REGEX] BUILD... -- CASE...
#
#   BUILD  NAME, the tree archive.sh built (DIR/src/NAME/bin/drtopk, DIR
#          default .dev), or NAME=PATH, a drtopk program
#   CASE   "DTYPE DIST N K", one argument (e.g. "f32 CD 2^26 1"); with
#          --batch "DTYPE DIST ROWS COLS K" (e.g. "bf16 UD 256 131072 50")
#   --algo     forced on every run (default: the automatic plan)
#   --batch    time `drtopk batch` (uniform rows) instead of `drtopk run`;
#              its plan options go in --run-args (e.g. "--sorted")
#   --reps     timed repetitions a run (default 9); --rounds runs a build
#              and case (default 2); --run-args more `drtopk run` options
#              (e.g. "--sorted", "--deterministic", "--order smallest")
#   --kernel   time one kernel instead of the call: each run goes under
#              Nsight Compute ($NCU, default ncu; clocks not locked, only
#              gpu__time_duration.sum) and keeps the median duration of the
#              launches whose name matches REGEX (e.g. small_n_kernel): the
#              kernel's own time, without launch latency.  Give a REGEX that
#              matches one kernel a call; a run that matches none is ERR.
#
# Output: the GPU (nvidia-smi, where there is one) and each build's commit,
# then a markdown table, a row a case: each build's lowest and highest median
# in microseconds and the plan it ran, then each later build's lowest median
# over the first build's.  A run that fails shows ERR (its message on
# stderr) and the table goes on.  Exit 0, or 2 for bad arguments.
set -u

die() { echo "ab.sh: $*" >&2; exit 2; }

DIR=.dev
ALGO=
BATCH=
REPS=9
ROUNDS=2
RUN_ARGS=
KERNEL=
NCU=${NCU:-ncu}
while [ $# -gt 0 ]; do
    case $1 in
    --dir) [ $# -ge 2 ] || die "--dir needs a folder"; DIR=$2; shift 2 ;;
    --algo) [ $# -ge 2 ] || die "--algo needs an algorithm (drtopk run --help lists them)"; ALGO=$2; shift 2 ;;
    --batch) BATCH=1; shift ;;
    --reps) [ $# -ge 2 ] || die "--reps needs a count"; REPS=$2; shift 2 ;;
    --rounds) [ $# -ge 2 ] || die "--rounds needs a count"; ROUNDS=$2; shift 2 ;;
    --run-args) [ $# -ge 2 ] || die "--run-args needs drtopk run options in one argument"; RUN_ARGS=$2; shift 2 ;;
    --kernel) [ $# -ge 2 ] || die "--kernel needs a kernel name's regex (e.g. small_n_kernel)"
        [ -n "$2" ] || die "--kernel needs a kernel name's regex (e.g. small_n_kernel), not ''"
        KERNEL=$2; shift 2 ;;
    --) die "no BUILD before --: name at least one build (NAME or NAME=PATH)" ;;
    -*) die "unknown option $1 (see the head of tests/gpu/ab.sh)" ;;
    *) break ;;
    esac
done
[ -n "$BATCH" ] && [ -n "$ALGO" ] &&
    die "--algo forces a plan of drtopk run; with --batch give the batched plan's options in --run-args"
for v in "$REPS" "$ROUNDS"; do
    case $v in '' | *[!0-9]* | 0) die "--reps and --rounds take a positive whole number, not '$v'" ;; esac
done

# The builds: "name path" lines in $builds.
tmp=$(mktemp -d) || die "cannot make a temporary folder"
trap 'rm -rf "$tmp"' EXIT
builds=$tmp/builds
: > "$builds"
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case $1 in
    *' '*) die "'$1' looks like a case: put -- between the builds and the cases" ;;
    *=*) name=${1%%=*}; path=${1#*=} ;;
    *) name=$1; path=$DIR/src/$1/bin/drtopk ;;
    esac
    case $name in '' | *[!A-Za-z0-9._-]*) die "build name '$name': letters, digits, '.', '_' and '-' only" ;; esac
    [ -x "$path" ] || die "build $name: $path is not an executable drtopk (archive.sh build $DIR $name -- bin/drtopk)"
    grep -q "^$name " "$builds" && die "build $name is named twice"
    echo "$name $path" >> "$builds"
    shift
done
[ -s "$builds" ] || die "no BUILD: name at least one (NAME or NAME=PATH)"
if [ -n "$BATCH" ]; then
    form="DTYPE DIST ROWS COLS K" example="bf16 UD 256 131072 50" nwords=5
else
    form="DTYPE DIST N K" example="f32 CD 2^26 1" nwords=4
fi
[ $# -gt 0 ] || die "no -- before the cases: BUILD... -- \"$form\"..."
shift
[ $# -gt 0 ] || die "no CASE after --: give \"$form\", e.g. \"$example\""
words() { # the words of $1, unglobbed
    set -f
    # shellcheck disable=SC2086
    set -- $1
    set +f
    echo $#
}
for c in "$@"; do
    [ "$(words "$c")" -eq "$nwords" ] || die "case '$c': $form, $nwords words in one argument"
done
if [ -n "$KERNEL" ] && ! command -v "$NCU" > /dev/null 2>&1; then
    die "--kernel needs Nsight Compute: '$NCU' is not a program here (set NCU to its path)"
fi

export DRTOPK_DB="$tmp/none.sqlite"   # never created: the compiled-in table

# The median, in microseconds, of the gpu__time_duration.sum lines of ncu's
# report on stdin (units nsecond/ns, usecond/us, msecond/ms or second/s;
# thousands may be comma-separated); nothing where there is none.
kernel_median_us() {
    awk '$1 == "gpu__time_duration.sum" {
             v = $NF; u = $(NF - 1); gsub(/,/, "", v)
             print v * (u ~ /^n/ ? 0.001 : u ~ /^m/ ? 1000 : u ~ /^s/ ? 1e6 : 1) }' |
        sort -g | awk '{ a[NR] = $1 } END { if (NR) print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'
}

# One run of build $1 (program $2) on the case's words $3...: "median_us
# plan", or "ERR -" (a batched run names no algorithm: plan -).
run_one() {
    b=$1 p=$2
    shift 2
    c="$*"
    if [ -n "$BATCH" ]; then
        set -- "$p" batch --dtype "$1" --dist "$2" --rows "$3" --cols "$4" --k "$5" --reps "$REPS" --json
    else
        set -- "$p" run --dtype "$1" --dist "$2" --n "$3" --k "$4" ${ALGO:+--algo "$ALGO"} --reps "$REPS" --json
    fi
    if [ -n "$KERNEL" ]; then
        set -- "$NCU" --clock-control none --kernel-name "regex:$KERNEL" --metrics gpu__time_duration.sum "$@"
    fi
    # shellcheck disable=SC2086
    if "$@" $RUN_ARGS > "$tmp/out" 2> "$tmp/err"; then
        ms=$(sed -n 's/.*"ms_median": *\([0-9.eE+-]*\).*/\1/p' "$tmp/out")
        algo=$(sed -n 's/.*"algo": *"\([^"]*\)".*/\1/p' "$tmp/out")
        if [ -n "$KERNEL" ]; then
            us=$(kernel_median_us < "$tmp/out")
            [ -n "$us" ] && { awk -v u="$us" -v a="${algo:--}" 'BEGIN { printf "%.1f %s\n", u, a }'; return; }
            echo "no launch of a kernel matching '$KERNEL' in ncu's report" >> "$tmp/err"
        elif [ -n "$ms" ]; then
            awk -v m="$ms" -v a="${algo:--}" 'BEGIN { printf "%.1f %s\n", 1000 * m, a }'
            return
        fi
    fi
    echo "ab.sh: build $b, case $c: $(tail -n 1 "$tmp/err")" >&2
    echo "ERR -"
}

gpu=$(nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
echo "GPU: ${gpu:-none found by nvidia-smi}"
while read -r name path; do
    echo "build $name: $("$path" version 2>/dev/null | head -n 1)"
done < "$builds"
what="microseconds (lowest-highest median, plan)"
[ -n "$KERNEL" ] && what="microseconds of kernels matching '$KERNEL' under ncu (lowest-highest median, plan)"
cmd=run
[ -n "$BATCH" ] && cmd=batch
echo "drtopk $cmd ${ALGO:+--algo $ALGO }--reps $REPS${RUN_ARGS:+ $RUN_ARGS}; rounds: $ROUNDS; $what"
echo

names=$(cut -d' ' -f1 "$builds" | tr '\n' ' ')
first=${names%% *}
header="| case |"
rule="| --- |"
for n in $names; do header="$header $n |"; rule="$rule --- |"; done
for n in $names; do
    [ "$n" = "$first" ] && continue
    header="$header $n / $first |"
    rule="$rule ---: |"
done
echo "$header"
echo "$rule"

# One table row: case $1 (its words), every build ROUNDS times.
run_case() {
    set -f
    # shellcheck disable=SC2086
    set -- $1
    set +f
    : > "$tmp/rows"
    r=0
    while [ "$r" -lt "$ROUNDS" ]; do
        while read -r name path; do
            echo "$name $(run_one "$name" "$path" "$@" < /dev/null)" >> "$tmp/rows"
        done < "$builds"
        r=$((r + 1))
    done
    awk -v names="$names" -v c="$*" '
        { if ($2 == "ERR") err[$1] = 1
          else { if (!($1 in lo) || $2 + 0 < lo[$1]) lo[$1] = $2 + 0
                 if (!($1 in hi) || $2 + 0 > hi[$1]) hi[$1] = $2 + 0
                 if (!($1 in plan)) plan[$1] = $3
                 else if (index("," plan[$1] ",", "," $3 ",") == 0) plan[$1] = plan[$1] "," $3 } }
        END {
            nb = split(names, b, " ")
            row = "| " c " |"
            for (i = 1; i <= nb; ++i) {
                n = b[i]
                if (n in lo) row = row " " sprintf("%.1f-%.1f %s", lo[n], hi[n], plan[n]) ((n in err) ? " (and ERR)" : "") " |"
                else row = row " ERR |"
            }
            for (i = 2; i <= nb; ++i)
                row = row " " (((b[1] in lo) && (b[i] in lo) && lo[b[1]] > 0) ? sprintf("%.3f", lo[b[i]] / lo[b[1]]) : "-") " |"
            print row
        }' "$tmp/rows"
}

for c in "$@"; do run_case "$c"; done
