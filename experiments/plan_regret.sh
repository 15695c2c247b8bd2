#!/bin/sh
# plan_regret.sh -- the regret of the library's automatic plan
# against every forced plan that can run at a point, over the regret grid,
# through the tuner (bin/tuner --regret: every row in the results database with
# its GPU, commit and plan; no timing path of its own), then a table per key
# type from that database (experiments/sql/plan_regret.sql):
#   grid:    u32 f32 f16 u64 (--dtypes) x UD ND CD (--dists) x n = 2^12 .. 2^32
#            by 4x (--n-log2) x k = 1 .. min(n, 2^24) by 4x (--k-max-log2);
#   forced:  dr-radix at Rule 4's alpha (const 3) +-1 and beta 2, radix,
#            onepass, fused, sort-cub (--algos);
#   auto:    `tuner --regret builtin`: the automatic plan without a tuning
#            database (the compiled-in table of the GPU model, else the size
#            rules), stored as algorithm 'auto-builtin' with the plan it
#            resolved; with --tuned also `tuner --quick` on the same card, then
#            `tuner --regret tuned` over the same grid ('auto-tuned': the plan
#            with this machine's tuning from --db).
#   regret = auto ms / min(auto ms, the fastest forced plan's ms) at the same
#            (machine, commit, dtype, dist, seed, n, k): 1.00 where the
#            automatic plan is at least as fast as every forced plan, and
#            where the fastest forced plan is the automatic plan itself (one
#            plan timed twice: the table's noise column).  Every
#            forced row of that point and commit counts, also another sweep's
#            (--tuned's tuner --quick: dr-radix at more alphas and betas), so
#            the table printed last can be stricter than the tuner's own
#            regret lines printed before that sweep.
# Why dr-radix at alpha +-1, beta 2 only: the regret asks whether the automatic
# plan picks the right executor, and the automatic plan is always one of the
# rows compared (its own alpha, beta and flags, whatever table gave them); the
# forced dr-radix rows stand for the delegate pipeline near Rule 4, where the
# paper's figures put its best plans (Fig. 9: beta 2; Fig. 13: Rule 4's alpha).
# A wider alpha/beta search is the tuner's own sweep (tuner --quick: +-3,
# beta 1..3), 7x these dr-radix configs at every point; where a dr-radix plan
# further from Rule 4 would beat every contender, this regret is an
# underestimate (the reference sweeps, db/reference: dr-radix's best alpha at
# beta 2 is more than 1 from Rule 4's and over 5% faster than the best within
# +-1 at 99 of 1219 H100/H200 points, mostly 2^24 keys at k >= 2^16; at the 23
# points that also measured radix/onepass/fused/sort-cub, the fastest of all
# with alpha +-1 was within 2.1% of the fastest with every alpha).
# A data set that does not fit the card is skipped with a message, never run:
# n x (bytes per key) x MEM_FACTOR must fit the GPU's memory (nvidia-smi); the
# u64 2^32 input is 32 GiB (fits an H100 or H200).  A forced plan whose
# workspace does not fit is the tuner's error row, which the regret ignores
# (and which makes that tuner run's status non-zero).
# Timings are benchmarks, never pass/fail (the targets, worst <= 1.05
# and median <= 1.01, are printed beside the table): the exit status only says
# whether the tuner runs succeeded (a run stopped by the time budget did; the
# table then says it is incomplete, and the same command goes on).
#   experiments/plan_regret.sh [--db DB] [--bin DIR] [--gpu G] [--backend cpu]
#                              [--dtypes LIST] [--dists LIST] [--n-log2 A..B]
#                              [--k-max-log2 K] [--algos LIST] [--tuned]
#                              [--minutes M] [--reps R] [--verify-every N] [--allow-dirty]
# --n-log2 A..B: n = 2^A, 2^(A+2), ... <= 2^B; --k-max-log2 K: k = 1, 4, ...
# <= min(n, 2^K) (the tuner leaves out k > n at each n); both taken as given
# on either backend.  --minutes: the measuring budget of the whole script
# (default 60), shared by its tuner runs in turn; a rerun resumes (the tuner
# skips what this machine measured at this commit).  --reps: repetitions per
# plan (the tuner's default: 7 on a GPU, 3 on the CPU).  --verify-every N:
# check every N-th config of each tuner run with the exact counting check (on
# the GPU where the result lies; 0: none; the tuner's default: every one).
# --backend cpu: the same commands on the CPU backend with the default sizes
# scaled down 2^14 times, n >= 2^10 (as experiments/lib/common.sh; a check of the commands,
# tests/bats/plan_regret.bats).  --allow-dirty: put rows of a tuner built from
# a tree with uncommitted changes in the table (a check of the commands;
# plan_regret.sql keeps them out of every table and figure otherwise).
set -u
cd "$(dirname "$0")/.." || exit 1
ME=plan_regret.sh
DB=${DRTOPK_DB:-db/results.sqlite}
BIN=bin
GPU=0
BACKEND=cuda
DTYPES=u32,f32,f16,u64
DISTS=UD,ND,CD
N_LOG2=""
K_MAX_LOG2=""
ALGOS=dr-radix,radix,onepass,fused,sort-cub
TUNED=0
MINUTES=60                      # the whole grid on one GPU: resumable, so a budget, not a guess of its length
REPS=""
VERIFY_EVERY=""
ALLOW_DIRTY=0
GRID_N_LOG2=12..32              # the grid: n = 2^12 .. 2^32 by 4x
GRID_K_MAX_LOG2=24              # ... k = 1 .. min(n, 2^24) by 4x (the paper's largest k)
STEP_LOG2=2                     # by 4x, n and k
CPU_SHIFT=14                    # --backend cpu: sizes 2^14 times smaller (experiments/lib/common.sh) ...
CPU_MIN_LOG2=10                 # ... never below 2^10 keys
N_LOG2_MAX=40                   # 2^40 keys: more than any GPU holds; a larger --n-log2 is a typo
ALPHA_SPAN=1                    # dr-radix at Rule 4's alpha +-1 (header: why)
BETA=2                          # ... at the paper's beta
MEM_FACTOR=2                    # the input and as much again for a plan's workspace and results
MIN_CALL_S=10                   # less budget left than this: no further tuner run (a rerun goes on)
WORST_TARGET=1.05               # the targets, reported beside the table, never asserted:
MEDIAN_TARGET=1.01              # worst regret <= 5%, median <= 1%
OPTIONS="--db --bin --gpu --backend --dtypes --dists --n-log2 --k-max-log2 --algos --tuned --minutes --reps --verify-every --allow-dirty"

die() { echo "$ME: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
    --tuned) TUNED=1; shift; continue ;;
    --allow-dirty) ALLOW_DIRTY=1; shift; continue ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --db|--bin|--gpu|--backend|--dtypes|--dists|--n-log2|--k-max-log2|--algos|--minutes|--reps|--verify-every)
        [ $# -ge 2 ] || die "$1 needs a value (see --help)" ;;
    *) die "unknown option '$1' ($OPTIONS)" ;;
    esac
    case $1 in
    --db) DB=$2 ;;
    --bin) BIN=$2 ;;
    --gpu) GPU=$2 ;;
    --backend) BACKEND=$2 ;;
    --dtypes) DTYPES=$2 ;;
    --dists) DISTS=$2 ;;
    --n-log2) N_LOG2=$2 ;;
    --k-max-log2) K_MAX_LOG2=$2 ;;
    --algos) ALGOS=$2 ;;
    --minutes) MINUTES=$2 ;;
    --reps) REPS=$2 ;;
    --verify-every) VERIFY_EVERY=$2 ;;
    esac
    shift 2
done

# The comma list $2 (option $1) must hold only words of the list $3.
check_list() {
    opt=$1 list=$2 allowed=$3
    # shellcheck disable=SC2046 # one word per entry
    set -- $(echo "$list" | tr ',' ' ')
    [ $# -gt 0 ] || die "$opt '$list' is empty (one or more of $allowed)"
    for w in "$@"; do
        case ",$allowed," in *",$w,"*) ;; *) die "$opt '$list': '$w' is not one of $allowed" ;; esac
    done
}
check_list --dtypes "$DTYPES" u32,i32,f32,f16,bf16,u64,i64,f64
check_list --dists "$DISTS" UD,ND,CD
case ",$ALGOS," in
*,auto*) die "--algos '$ALGOS': the automatic plan is what --regret measures beside the forced plans; name only forced ones (e.g. dr-radix,radix,onepass)" ;;
*,,*) die "--algos '$ALGOS' has an empty entry (e.g. dr-radix,radix,onepass,fused,sort-cub)" ;;
esac
case $GPU in ''|*[!0-9]*) die "--gpu '$GPU': a GPU index such as 0" ;; esac
case $REPS in *[!0-9]*|0) die "--reps '$REPS': a positive integer" ;; esac
case $VERIFY_EVERY in *[!0-9]*) die "--verify-every '$VERIFY_EVERY': a count of configs, 0 for none" ;; esac
awk -v m="$MINUTES" 'BEGIN { exit !(m ~ /^[0-9]+(\.[0-9]*)?$/ && m > 0) }' ||
    die "--minutes '$MINUTES': a positive number of minutes"
case $BACKEND in
cuda) TARGET="--gpu $GPU"
      N_LOG2=${N_LOG2:-$GRID_N_LOG2}
      K_MAX_LOG2=${K_MAX_LOG2:-$GRID_K_MAX_LOG2} ;;
cpu)  TARGET="--backend cpu"
      lo=$((${GRID_N_LOG2%..*} - CPU_SHIFT)); [ "$lo" -ge "$CPU_MIN_LOG2" ] || lo=$CPU_MIN_LOG2
      N_LOG2=${N_LOG2:-$lo..$((${GRID_N_LOG2#*..} - CPU_SHIFT))}
      K_MAX_LOG2=${K_MAX_LOG2:-$((GRID_K_MAX_LOG2 - CPU_SHIFT))} ;;
*) die "--backend '$BACKEND': cuda or cpu" ;;
esac
echo "$N_LOG2" | grep -Eq '^[0-9]+\.\.[0-9]+$' ||
    die "--n-log2 '$N_LOG2': A..B with whole numbers, e.g. 12..32 (n = 2^A .. 2^B by 4x)"
N_LO=${N_LOG2%..*} N_HI=${N_LOG2#*..}
[ "$N_LO" -le "$N_HI" ] || die "--n-log2 '$N_LOG2': A must not be larger than B"
[ "$N_HI" -le "$N_LOG2_MAX" ] || die "--n-log2 '$N_LOG2': at most 2^$N_LOG2_MAX keys"
case $K_MAX_LOG2 in ''|*[!0-9]*) die "--k-max-log2 '$K_MAX_LOG2': a whole number, e.g. 24 (k <= 2^24)" ;; esac
[ -x "$BIN/tuner" ] || die "$BIN/tuner is missing: run ninja (or give --bin DIR)"
"$BIN/tuner" --help 2>&1 | grep -q -- '--regret' ||
    die "$BIN/tuner has no --regret (the automatic plan's measurement): build a tuner that has it"
command -v python3 > /dev/null 2>&1 || die "python3 is missing: it prints the table from $DB"

width() { case $1 in u32|i32|f32) echo 4 ;; f16|bf16) echo 2 ;; *) echo 8 ;; esac; }
# pow2_list LO HI: "2^LO,2^(LO+STEP),..." up to 2^HI
pow2_list() {
    awk -v a="$1" -v b="$2" -v s="$STEP_LOG2" 'BEGIN { for (e = a; e <= b; e += s) printf "%s2^%d", (e > a ? "," : ""), e }'
}
gib() { awk -v b="$1" 'BEGIN { printf "%.3g GiB", b / 1073741824 }'; }

# The card's memory (bytes) and name: every data set must fit it.
MEM=""
if [ "$BACKEND" = cuda ]; then
    if line=$(nvidia-smi -i "$GPU" --query-gpu=memory.total,name --format=csv,noheader,nounits 2>/dev/null) &&
       [ -n "$line" ]; then
        MEM=$(( ${line%%,*} * 1048576 ))
        CARD="GPU $GPU (${line#*, }, $(gib "$MEM"))"
    else
        echo "$ME: cannot read GPU $GPU's memory (nvidia-smi): sizes are not checked against it; a data set" \
             "that does not fit becomes the tuner's error row" >&2
    fi
fi

# Per key type: the sizes that fit (the others said once), the k list.
plan_type() {
    t=$1 w=$(width "$1")
    NS="" hi=-1 e=$N_LO
    while [ "$e" -le "$N_HI" ]; do
        need=$(( (1 << e) * w * MEM_FACTOR ))
        if [ -n "$MEM" ] && [ "$need" -gt "$MEM" ]; then
            echo "$ME: $t n = 2^$e skipped: its $(gib $(( (1 << e) * w ))) input, with as much again for the plans'" \
                 "workspaces, does not fit $CARD; a card with more memory measures it" >&2
        else
            NS="$NS${NS:+,}2^$e" hi=$e
        fi
        e=$((e + STEP_LOG2))
    done
    kh=$K_MAX_LOG2
    [ "$hi" -ge 0 ] && [ "$hi" -lt "$kh" ] && kh=$hi
    KS=$(pow2_list 0 "$kh")
}

SINCE=$(date -u +%Y-%m-%dT%H:%M:%S)
T0=$(date +%s)
BUDGET_S=$(awk -v m="$MINUTES" 'BEGIN { printf "%d", m * 60 }')
LOG=$(mktemp "${TMPDIR:-/tmp}/plan_regret.XXXXXX") || exit 1
trap 'rm -f "$LOG" "$LOG.rc"' EXIT INT TERM
TOTAL=$(( $(echo "$DTYPES" | tr ',' '\n' | grep -c .) * (1 + TUNED) + TUNED ))
CALL=0 RC=0 STOPPED=0 SKIPPED=0

fmt_s() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
# tuner WHAT ARGS...: one tuner run with what is left of the budget; its output to stderr
tuner() {
    what=$1; shift
    CALL=$((CALL + 1))
    el=$(($(date +%s) - T0))
    left=$((BUDGET_S - el))
    eta=""
    [ "$CALL" -gt 1 ] && eta=", ETA $(fmt_s $((el * (TOTAL - CALL + 1) / (CALL - 1))))"
    if [ "$left" -lt "$MIN_CALL_S" ]; then
        echo "$ME: [$CALL/$TOTAL] $what: the --minutes $MINUTES budget is spent: not run (the same command goes on)" >&2
        SKIPPED=$((SKIPPED + 1))
        return 0
    fi
    echo "$ME: [$CALL/$TOTAL] $what (elapsed $(fmt_s "$el")$eta, budget left $(fmt_s "$left"))" >&2
    # shellcheck disable=SC2086 # TARGET is two words
    set -- "$BIN/tuner" $TARGET "$@" ${REPS:+--reps "$REPS"} ${VERIFY_EVERY:+--verify-every "$VERIFY_EVERY"} --max-minutes \
        "$(awk -v s="$left" 'BEGIN { printf "%.2f", s / 60 }')" --db "$DB"
    echo "$ME: $*" >&2
    { "$@" 2>&1; echo $? > "$LOG.rc"; } | tee "$LOG" >&2
    rc=$(cat "$LOG.rc")
    if [ "$rc" != 0 ]; then
        RC=1
        echo "$ME: [$CALL/$TOTAL] $what: the tuner exited with status $rc ($(grep -c 'FAILED\|WRONG RESULT' "$LOG")" \
             "failed or wrong configs above)" >&2
    elif grep -q "time budget reached" "$LOG"; then
        STOPPED=$((STOPPED + 1))
    fi
}

# regret MODE: tuner --regret MODE over the grid, one run per key type
regret() {
    for t in $(echo "$DTYPES" | tr ',' ' '); do
        plan_type "$t"
        if [ -z "$NS" ]; then
            CALL=$((CALL + 1))
            echo "$ME: [$CALL/$TOTAL] regret $1 $t: no size fits, nothing to run" >&2
            continue
        fi
        tuner "regret $1 $t: n ${NS%%,*}..${NS##*,}, k 1..2^$kh (k <= n), $DISTS, $ALGOS" \
            --regret "$1" --dtype "$t" --dist "$DISTS" --n "$NS" --k "$KS" --algo "$ALGOS" \
            --alpha-span "$ALPHA_SPAN" --beta "$BETA"
    done
}

regret builtin
if [ "$TUNED" = 1 ]; then
    # this card's tuning into --db (the tuner's own quick grid, for the key types and
    # distributions of the table; on the CPU backend at the grid's small sizes)
    quick_n=""
    [ "$BACKEND" = cpu ] && quick_n="--n $(pow2_list "$N_LO" "$N_HI")"
    # shellcheck disable=SC2086 # quick_n: two words or none
    tuner "tuning: tuner --quick, $DTYPES, $DISTS" --quick --dtype "$DTYPES" --dist "$DISTS" $quick_n
    regret tuned
fi

python3 - "$DB" experiments/sql/plan_regret.sql "$SINCE" "$DTYPES" "$DISTS" "$TUNED" "$ALLOW_DIRTY" "$WORST_TARGET" \
    "$MEDIAN_TARGET" "$ALGOS" "$ALPHA_SPAN" "$BETA" "$STOPPED" "$SKIPPED" <<'EOF' || RC=1
import os, sqlite3, sys
db, sql, since, dtypes, dists, tuned, allow_dirty, worst_t, median_t, algos, span, beta, stopped, skipped = sys.argv[1:]
dtypes = dtypes.split(",")
tunings = ["builtin"] + (["tuned"] if tuned == "1" else [])
if not os.path.exists(db):
    print("plan regret: %s does not exist: no tuner run stored anything (see the messages above)" % db)
    sys.exit(0)
con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
def run(part, **more):
    """Every statement of plan_regret.sql in turn; the rows of the last one that gave any."""
    params = dict(dirty=int(allow_dirty), part=part, machine=-1, worst_target=float(worst_t), drawn="", **more)
    rows, buf = [], ""
    for line in open(sql):
        buf += line
        if sqlite3.complete_statement(buf):
            got = con.execute(buf, params).fetchall()
            rows = got or rows
            buf = ""
    return rows
label = lambda v: "1" if v == 1 else "2^%d" % (v.bit_length() - 1) if v & (v - 1) == 0 else str(v)
measured = con.execute("SELECT DISTINCT m.name, m.uuid, r.git_commit FROM runs r JOIN machines m ON m.id = r.machine_id "
                       "WHERE r.program = 'tuner' AND r.argv LIKE '% --regret %' AND r.started_at >= ? "
                       "ORDER BY m.name, m.uuid, r.git_commit", (since,)).fetchall()
if not measured:
    print("plan regret: no tuner --regret run in this call (see the messages above)")
    sys.exit(0)
summary = run("summary")
for name, uuid, commit in measured:
    print("plan regret on %s (%s), commit %s: the automatic plan's median ms over the fastest forced plan's "
          "(%s; dr-* at Rule 4's alpha +-%s, beta %s), per point of %s" % (name, uuid, commit, algos, span, beta,
                                                                             dists.replace(",", "/")))
    if commit.endswith("-dirty") and allow_dirty != "1":
        print("  not tabled: the tuner was built from a tree with uncommitted changes (commit %s): commit and rebuild "
              "(or --allow-dirty, a check of the commands only)" % commit)
        continue
    print("| tuning | dtype | points | worst | worst at (dist n k) | auto plan there | best forced plan there "
          "| median | points > %s | noise |" % worst_t)
    print("| --- | --- | ---: | ---: | --- | --- | --- | ---: | ---: | ---: |")
    got = {(r[3], r[4]): r for r in summary if r[1] == uuid and r[2] == commit}
    for tuning in tunings:
        for t in dtypes:
            r = got.get((tuning, t))
            if r is None:
                print("| %s | %s | 0 | - | - | - | - | - | - | - |" % (tuning, t))
            else:
                print("| %s | %s | %d | %s | %s %s %s | %s | %s | %s | %d | %s |"
                      % (tuning, t, r[5], r[6], r[7], label(r[8]), label(r[9]), r[10], r[11], r[12], r[13], r[14]))
print("targets (benchmarks, never pass/fail): worst <= %s, median <= %s; regret = auto ms / min(auto ms, "
      "best forced ms) at one commit, rows of status ok (verified or unchecked), 1.000 where the fastest forced "
      "plan is the automatic plan itself; noise: the largest auto ms / best ms where the two are that one plan "
      "timed twice" % (worst_t, median_t))
if int(stopped) or int(skipped):
    print("incomplete: %s tuner run(s) stopped at the --minutes budget, %s not run: the same command goes on where "
          "they stopped" % (stopped, skipped))
EOF
exit $RC
