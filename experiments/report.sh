#!/bin/sh
# report.sh -- plain-text tables from the results database (docs/tuning.md;
# paper sections 5.2 and 6): (a) every top-k algorithm standalone and
# Dr.-assisted, median ms and speedup per (dist, k), and the modern peers (CUB
# DeviceTopK, torch.topk) on the same GPU; (b) the oracle alpha* vs
# Rule 4's alpha with the fitted const and with const 3, per (dist, n, k), and
# the Rule 4 fits (const_time, const_lsq, Eq. 11's const_theory, C_global,
# C_shfl).  The queries live in experiments/sql/*.sql; this script picks the
# machine, commit and n, runs them with the sqlite3 CLI and lays out the text.
set -eu

SQL_DIR="$(cd "$(dirname "$0")" && pwd)/sql"
DEFAULT_DB="db/results.sqlite"      # as DRTOPK_STORE_DEFAULT_PATH (src/store.h)
DEFAULT_DTYPE=u32
DEFAULT_ALGO=dr-radix               # drtopk_plan_auto's plan ...
DEFAULT_BETA=2                      # ... and its beta
EXIT_USAGE=2
TABLES_SCHEMA_MIN=12    # the store's rule4_alpha, rule4_flags and fit_alphas, which the queries read (db/schema.sql)

usage() {
    cat <<EOF
usage: experiments/report.sh [--db PATH] [--machine UUID] [--commit C] [--n N]
                             [--dtype T] [--algo A] [--beta B]
  Prints (a) the algorithm table: per (dist, k) each algorithm's median ms standalone
  and Dr.-assisted (Rule 4 alpha with const 3, beta B) and the speedup, then the
  modern peers' ms (cub-topk, torch-topk; from tuner --import-peers); (b) the
  oracle table: oracle alpha* vs Rule 4's alpha with the fitted const and with 3
  (algorithm A, beta B), and the Rule 4 fits.
  --db PATH      the database (default \$DRTOPK_DB, else $DEFAULT_DB)
  --machine UUID the machine (default: the one with the most measurements)
  --commit C     the commit (default: each table's most recent)
  --n N          |V| of table (a), e.g. 2^30 (default: the largest measured)
  --dtype T      u32, i32 or f32 (default $DEFAULT_DTYPE)
  --algo A       the Dr. variant of table (b) (default $DEFAULT_ALGO)
  --beta B       beta of the Dr. columns and of table (b) (default $DEFAULT_BETA)
EOF
}

die() {
    echo "report.sh: $*" >&2
    exit "$EXIT_USAGE"
}

db="${DRTOPK_DB:-$DEFAULT_DB}"
machine_uuid=""
commit=""
n=""
dtype="$DEFAULT_DTYPE"
algo="$DEFAULT_ALGO"
beta="$DEFAULT_BETA"
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --db|--machine|--commit|--n|--dtype|--algo|--beta)
            [ $# -ge 2 ] || die "$1 needs a value"
            case "$1" in
                --db) db="$2" ;;
                --machine) machine_uuid="$2" ;;
                --commit) commit="$2" ;;
                --n) n="$2" ;;
                --dtype) dtype="$2" ;;
                --algo) algo="$2" ;;
                --beta) beta="$2" ;;
            esac
            shift 2 ;;
        *) usage >&2; die "unknown argument '$1'" ;;
    esac
done

command -v sqlite3 > /dev/null 2>&1 || die "the sqlite3 command-line shell is not installed"
[ -f "$db" ] || die "database $db does not exist"
version=$(sqlite3 -readonly "$db" "SELECT version FROM schema_version" 2>&1) ||
    die "database $db is not a drtopk database ($version)"
case "$version" in ''|*[!0-9]*) die "database $db is damaged: its schema_version table holds '$version'" ;; esac
[ "$version" -ge "$TABLES_SCHEMA_MIN" ] ||
    die "database $db has schema version $version; the tables read columns of version $TABLES_SCHEMA_MIN on: bring it up to date with bin/tuner --migrate --db $db"
# Values go into the queries as SQL string literals: keep them to plain names.
for v in "$machine_uuid" "$commit" "$dtype" "$algo"; do
    case "$v" in *[!A-Za-z0-9:._+-]*) die "unexpected characters in '$v'" ;; esac
done
case "$beta" in ''|*[!0-9]*) die "bad --beta '$beta'" ;; esac
case "$n" in
    '') ;;
    2^*) e="${n#2^}"
         case "$e" in ''|*[!0-9]*) die "bad --n '$n'" ;; esac
         [ "$e" -le 62 ] || die "bad --n '$n'"
         n=$((1 << e)) ;;
    *[!0-9]*) die "bad --n '$n'" ;;
esac

lit() { if [ -n "$1" ]; then printf "'%s'" "$1"; else printf NULL; fi; }

# query FILE NAME=VALUE...: run experiments/sql/FILE with the @NAME parameters
# (VALUE already an SQL literal); '|'-separated rows, NULL as '-'.  VALUE goes
# in double quotes, which the shell's dot-command parser strips (after its
# backslash escapes): a single-quoted literal unquoted by it would be read as
# SQL, and a commit such as 898e44584286 is a number there (Inf).
query() {
    file="$SQL_DIR/$1"
    shift
    {
        echo ".parameter init"
        for p in "$@"; do
            printf '.parameter set @%s "%s"\n' "${p%%=*}" "$(printf '%s' "${p#*=}" | sed 's/[\\"]/\\&/g')"
        done
        cat "$file"
    } | sqlite3 -readonly -batch -bail -noheader -separator '|' -nullvalue - "$db"
}

# columns LEFT: align '|'-separated lines (the first one the header) into
# columns, the first LEFT columns to the left, the others to the right.
columns() {
    awk -F'|' -v left="$1" '
        { rows[NR] = $0; if (NF > nf) nf = NF
          for (i = 1; i <= NF; ++i) if (length($i) > w[i]) w[i] = length($i) }
        END {
            for (r = 1; r <= NR; ++r) {
                m = split(rows[r], f, "|"); line = ""
                for (i = 1; i <= m; ++i) {
                    fmt = (i <= left ? "%-" : "%") w[i] "s"
                    line = line (i > 1 ? "  " : "") sprintf(fmt, f[i])
                }
                sub(/ +$/, "", line); print line
                if (r == 1) { rule = ""; for (i = 1; i <= nf; ++i) rule = rule (i > 1 ? "  " : "") sprintf("%" w[i] "s", "")
                              gsub(/ /, "-", rule); print rule }
            }
        }'
}

# log2 of a power of two as "2^e", anything else as is.
pretty_n() {
    awk -v n="$1" 'BEGIN { e = 0; m = n; while (m > 1 && m % 2 == 0) { m /= 2; ++e }
                           if (m == 1) printf "2^%d", e; else printf "%s", n }'
}

minfo=$(query machine.sql "uuid=$(lit "$machine_uuid")") || die "cannot read $db"
[ -n "$minfo" ] || {
    [ -n "$machine_uuid" ] && die "no machine $machine_uuid in $db"
    die "no machine in $db"
}
IFS='|' read -r mid muuid mname mbackend mdriver mruntime mcount <<EOF
$minfo
EOF
echo "results of $db: $mcount measurements on this machine"
echo
if [ "$mbackend" = cuda ]; then
    where="GPU: $mname ($muuid), driver CUDA $mdriver, runtime CUDA $mruntime"
else
    where="CPU backend: $mname ($muuid)"
fi

# ---- (a) the algorithms standalone and Dr.-assisted ---------------------------
scope=$(query baselines_scope.sql "machine=$mid" "dtype=$(lit "$dtype")" "commit=$(lit "$commit")" \
              "n=${n:-NULL}")
echo "== (a) top-k algorithms standalone and Dr.-assisted, median ms"
if [ -z "$scope" ]; then
    echo "   $where"
    echo "   no standalone measurements of $dtype on this machine${commit:+ at commit $commit}"
else
    acommit="${scope%%|*}"
    an="${scope#*|}"
    echo "   $where, commit $acommit"
    echo "   |V| = $(pretty_n "$an"), $dtype, largest; Dr. = delegate pipeline with the algorithm in steps 2 and 4,"
    echo "   Rule 4 alpha (const 3), beta $beta; x = standalone ms / Dr. ms;"
    echo "   skip = over the tuner's time limit, n/a = unsupported, err = failed, wrong = failed verification"
    peers=""
    if [ "$(query peers_scope.sql)" -eq 1 ]; then
        peers=$(query peers.sql "machine=$mid" "commit=$(lit "$acommit")" "n=$an" "dtype=$(lit "$dtype")")
    fi
    if [ -n "$peers" ]; then
        echo "   cub-topk = CUB DeviceTopK, torch-topk = torch.topk (modern peers, same GPU, tuner --import-peers);"
        echo "   * = the peer ran on another seed of the same distribution, skip = the peer did not run"
    fi
    echo
    rows=$(query baselines.sql "machine=$mid" "commit=$(lit "$acommit")" "n=$an" "dtype=$(lit "$dtype")" \
                 "beta=$beta")
    printf '%s\n%s\n' "$rows" "$peers" | awk -F'|' '
        $1 == "C" { base[++nb] = $4; hasdr[$4] = $5 + 0; next }
        $1 == "Q" { peer[++np] = $2; next }
        $1 == "P" { pcell[$2 SUBSEP $3, $4] = $5; next }
        $1 == "R" { key = $2 SUBSEP $3
                    if (!(key in seen)) { seen[key] = 1; order[++nr] = key; dist[nr] = $2; k[nr] = $3 }
                    alone[key, $4] = $6; dr[key, $4] = $7; x[key, $4] = $8 }
        END {
            h = "dist|k"
            for (b = 1; b <= nb; ++b)
                h = h "|" base[b] (hasdr[base[b]] ? "|dr-" base[b] "|x" : "")
            for (p = 1; p <= np; ++p)
                h = h "|" peer[p]
            print h
            for (r = 1; r <= nr; ++r) {
                key = order[r]; line = dist[r] "|" k[r]
                for (b = 1; b <= nb; ++b) {
                    c = (key SUBSEP base[b]) in alone ? alone[key, base[b]] : "-"
                    line = line "|" c
                    if (hasdr[base[b]]) {
                        d = (key SUBSEP base[b]) in dr ? dr[key, base[b]] : "-"
                        s = (key SUBSEP base[b]) in x ? x[key, base[b]] : "-"
                        line = line "|" d "|" (s == "-" ? s : s "x")
                    }
                }
                for (p = 1; p <= np; ++p)
                    line = line "|" ((key SUBSEP peer[p]) in pcell ? pcell[key, peer[p]] : "-")
                print line
            }
        }' | columns 1
fi
echo

# ---- (b) oracle alpha vs Rule 4, and the fits ---------------------------------
bcommit=$(query oracle_scope.sql "machine=$mid" "dtype=$(lit "$dtype")" "algo=$(lit "$algo")" \
                "beta=$beta" "commit=$(lit "$commit")")
echo "== (b) oracle alpha* vs Rule 4's alpha, $algo beta $beta, $dtype, median ms"
if [ -z "$bcommit" ]; then
    echo "   $where"
    echo "   no $algo beta $beta measurements of $dtype on this machine${commit:+ at commit $commit}"
else
    echo "   $where, commit $bcommit"
    echo "   fit = Rule 4 with this machine's fitted const_time, c=3 = with the paper's const;"
    echo "   slow = ms / oracle ms; ~ = Rule 4's alpha was not measured, the nearest measured alpha stands in"
    echo
    rows=$(query oracle.sql "machine=$mid" "commit=$(lit "$bcommit")" "dtype=$(lit "$dtype")" \
                 "algo=$(lit "$algo")" "beta=$beta")
    {
        echo "dist|log2 n|k|alpha*|oracle ms|alpha fit|fit ms|fit slow|alpha c=3|c=3 ms|c=3 slow"
        echo "$rows"
    } | columns 1
fi
echo
echo "== Rule 4 fits, $dtype ($where)"
fits=$(query fits.sql "machine=$mid" "dtype=$(lit "$dtype")" "algo=$(lit "$algo")" "beta=$beta")
if [ -z "$fits" ]; then
    echo "   no fits of $dtype on this machine"
else
    echo "   const_time: least time lost vs the oracle (the library uses it); const_lsq: least squares on"
    echo "   alpha*; const_theory: Eq. 11 from C_global and C_shfl (cycles); slowdowns of const_time"
    echo
    {
        echo "algorithm|beta|const_time|const_lsq|const_theory|C_global|C_shfl|mean slow|worst slow|points|commit"
        echo "$fits"
    } | columns 1
fi
