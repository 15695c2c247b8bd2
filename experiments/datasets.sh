#!/usr/bin/env bash
# datasets.sh -- the real inputs of the paper's Table 1 / Figure 19 (section 6;
# docs/cli.md) from what Debian ships, prepared with `drtopk dataset`:
#
#   fmnist-knn-m<M>  L2 distances from the first M Fashion-MNIST images to all
#                    70,000 (dataset-fashion-mnist); M = 7670 gives |V| =
#                    536,900,000 ~ 2^29 like the paper's ANN_SIFT1B input
#   fmnist-knn-1     one query alone: 70,000 distances (k-NN's usual case)
#   graph-<name>     degree per vertex of graph-tool's collection graphs
#                    (python3-graph-tool: pgp-strong-2009, as-22july06,
#                    email-Enron), tiled to --tile elements (2^30)
#   tweets-favorites favourite count per tweet of dslabs' trump_tweets
#   tweets-sentiment Bing-lexicon sentiment per tweet (words of tidytext's
#                    `sentiments`: +1 positive, -1 negative), both tiled
#                    (r-cran-dslabs, r-cran-tidytext; exported with Rscript)
#
# Phase 1 (sources): installs the packages when missing and copies / exports
# the source files into DIR/src (small: carry that folder to a machine without
# the packages or the network, e.g. the GPU machine, and pass --sources).
# Phase 2 (vectors): DIR/<dataset>.f32|.u32, each with its Table 1 facts in
# DIR/stats/<dataset>.tsv; DIR/manifest.tsv records each file's sha256 and
# recipe (the drtopk command and the sha256 of its sources).  A rerun checks
# the sha256 of every cached file whose recipe is unchanged (a mismatch is an
# error), remakes the others, and with --rebuild remakes all and requires the
# recorded sha256 again (reproducibility).  A vector whose file and recipe
# appear in experiments/datasets_reference.tsv (the default run's manifest,
# made on a CPU) must have its sha256 there too: on a GPU that checks the
# GPU's k-NN distances bit for bit.  DIR/table1.tsv gathers the stats:
# dataset n package transformation distinct order k kth_value ties_at_k
# (experiments/datasets_table1.tsv: the default run's).
# Phase 3 (with --db; alone with --measure-only): Figure 19's runs of each
# vector in the manifest through bin/tuner --input (radix, bucket, bitonic,
# plain and Dr.-assisted at Rule 4's alpha, beta 2, several k), stored in the
# database with the data set's name as the configuration's dist (seed 0);
# resumable like every tuner sweep.  experiments/tab1_datasets.sh and
# fig19_real_speedup.sh plot those rows.
set -euo pipefail
cd "$(dirname "$0")/.."

KNN_FULL_QUERIES=7670           # 7670 x 70,000 = 536,900,000 ~ 2^29 (the paper's AN size)
DEFAULT_TILE='2^30'             # the paper's |V| for its tiled Twitter data
GRAPHS="pgp-strong-2009 as-22july06 email-Enron"
FMNIST_DIR=/usr/share/datasets/fashion-mnist
FMNIST_FILES="train-images-idx3-ubyte.gz t10k-images-idx3-ubyte.gz"   # 60,000 + 10,000 images
GT_DIR=/usr/lib/python3/dist-packages/graph_tool/collection
PACKAGES="dataset-fashion-mnist python3-graph-tool r-base-core r-cran-dslabs r-cran-tidytext"
EXIT_USAGE=2
FIG19_ALGOS=radix,dr-radix,bucket,dr-bucket,bitonic,dr-bitonic   # the paper's Figure 19
FIG19_K='2^0,2^4,2^8,2^12,2^16,2^20,2^24'                        # k of Figure 19 (<= |V|)
REFERENCE=${DATASETS_REFERENCE:-experiments/datasets_reference.tsv}   # (tests point it elsewhere)

usage() {
    cat <<EOF
usage: experiments/datasets.sh [--dir DIR] [--sources SRC] [--knn-queries M] [--tile N]
                               [--sources-only] [--rebuild] [--no-install] [--drtopk BIN]
  --dir DIR         cache folder (default out/datasets, ignored by git)
  --sources SRC     take the source files from SRC (a DIR/src made elsewhere) instead
                    of the packages: nothing is installed
  --knn-queries M   queries of the k-NN data set (default $KNN_FULL_QUERIES, |V| ~ 2^29;
                    on a CPU that takes minutes: a smaller M is a smaller data set)
  --tile N          tiled size of the graph and tweet vectors (default $DEFAULT_TILE)
  --sources-only    phase 1 alone (install, copy, export)
  --rebuild         remake every vector and require its recorded sha256
  --no-install      report missing packages instead of installing them
  --drtopk BIN      the drtopk binary (default bin/drtopk)
  --db PATH         then measure every vector into PATH (Figure 19, Table 1): bin/tuner
                    --input, the data set's name as its dist; resumable
  --measure-only    phase 3 alone, on the vectors of DIR/manifest.tsv (with --db)
  --gpu G           measure on GPU G (default 0)  --backend cuda|cpu (default cuda)
  --k LIST          k of the measurements (default $FIG19_K)
  --max-minutes M   the measuring stops cleanly after M minutes (rerun to go on)
  --tuner BIN       the tuner binary (default bin/tuner)
EOF
}

die() { echo "datasets.sh: $*" >&2; exit "${2:-1}"; }
say() { echo "datasets.sh: $*" >&2; }

dir=out/datasets
sources=""
knn_m=$KNN_FULL_QUERIES
tile=$DEFAULT_TILE
sources_only=0
rebuild=0
may_install=1
drtopk=bin/drtopk
db=""
measure_only=0
gpu=0
backend=cuda
ks=$FIG19_K
max_minutes=""
tuner=bin/tuner
while [ $# -gt 0 ]; do
    case "$1" in
        --dir) dir="${2:?--dir needs a folder}"; shift ;;
        --sources) sources="${2:?--sources needs a folder}"; shift ;;
        --knn-queries) knn_m="${2:?--knn-queries needs a number}"; shift ;;
        --tile) tile="${2:?--tile needs a size}"; shift ;;
        --sources-only) sources_only=1 ;;
        --rebuild) rebuild=1 ;;
        --no-install) may_install=0 ;;
        --drtopk) drtopk="${2:?--drtopk needs a path}"; shift ;;
        --db) db="${2:?--db needs a path}"; shift ;;
        --measure-only) measure_only=1 ;;
        --gpu) gpu="${2:?--gpu needs a GPU index}"; shift ;;
        --backend) backend="${2:?--backend needs cuda or cpu}"; shift ;;
        --k) ks="${2:?--k needs a list}"; shift ;;
        --max-minutes) max_minutes="${2:?--max-minutes needs a number}"; shift ;;
        --tuner) tuner="${2:?--tuner needs a path}"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option '$1'" "$EXIT_USAGE" ;;
    esac
    shift
done
case "$knn_m" in ''|*[!0-9]*|0) die "--knn-queries '$knn_m': expected a positive integer" "$EXIT_USAGE" ;; esac
case "$gpu" in ''|*[!0-9]*) die "--gpu '$gpu': expected a GPU index such as 0" "$EXIT_USAGE" ;; esac
case "$backend" in cuda|cpu) ;; *) die "--backend '$backend': cuda or cpu" "$EXIT_USAGE" ;; esac
[ "$measure_only" = 0 ] || [ -n "$db" ] || die "--measure-only measures into --db PATH: give it" "$EXIT_USAGE"
[ "$measure_only" = 0 ] || [ "$sources_only" = 0 ] || die "--measure-only and --sources-only exclude each other" "$EXIT_USAGE"
[ -x "$drtopk" ] || [ "$sources_only" = 1 ] || [ "$measure_only" = 1 ] ||
    die "no drtopk binary at $drtopk (build it: ninja bin/drtopk)"
[ -z "$db" ] || [ -x "$tuner" ] || die "no tuner binary at $tuner (build it: ninja bin/tuner)"
t_start=$(date +%s)

# ---- phase 3: Figure 19's runs of every prepared vector, through bin/tuner ------

measure_all() {
    local manifest="$dir/manifest.tsv" file name i=0 total rc=0
    [ -s "$manifest" ] || die "no vectors to measure: $manifest is missing (run experiments/datasets.sh first)"
    total=$(grep -c . "$manifest")
    local how=(--gpu "$gpu")
    [ "$backend" = cpu ] && how=(--backend cpu)
    local limit=()
    [ -n "$max_minutes" ] && limit=(--max-minutes "$max_minutes")
    # shellcheck disable=SC2013 # one file name per manifest line, no spaces
    for file in $(cut -f1 "$manifest" | sort); do
        i=$((i + 1))
        name=${file%.*}
        [ -f "$dir/$file" ] || die "$dir/$file is in $manifest but missing: rerun experiments/datasets.sh"
        say "[$i/$total, $(( $(date +%s) - t_start )) s] measuring $name into $db"
        "$tuner" "${how[@]}" --input "$dir/$file" --name "$name" --k "$ks" --algo "$FIG19_ALGOS" --alpha-span 0 \
            --beta 2 --db "$db" "${limit[@]}" >&2 || rc=$?
        [ "$rc" = 0 ] || die "the tuner failed on $name (status $rc); a rerun goes on where it stopped" "$rc"
    done
    say "measured $total data sets into $db in $(( $(date +%s) - t_start )) s"
}
if [ "$measure_only" = 1 ]; then
    measure_all
    exit 0
fi
mkdir -p "$dir/src" "$dir/stats"
src="$dir/src"

# ---- phase 1: sources ---------------------------------------------------------

missing_packages() {
    local miss=""
    for p in $PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || miss="$miss $p"
    done
    echo "${miss# }"
}

install_packages() {
    local miss
    miss=$(missing_packages)
    [ -z "$miss" ] && return 0
    local cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $miss"
    if [ "$may_install" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        say "installing $miss (a few minutes: R and graph-tool bring their libraries)"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $miss >/dev/null
        miss=$(missing_packages)
    fi
    [ -z "$miss" ] || die "missing Debian packages: $miss; install them with: sudo sh -c '$cmd'"
}

# the tweets with their two scores; text kept to exercise quoted CSV fields
export_tweets() {
    local out="$1"
    Rscript --vanilla - "$out" <<'RSCRIPT'
args <- commandArgs(trailingOnly = TRUE)
data("trump_tweets", package = "dslabs")
data("sentiments", package = "tidytext")        # Bing et al.'s lexicon: word, positive/negative
t <- trump_tweets
stopifnot(!anyNA(t$favorite_count))
value <- ifelse(sentiments$sentiment == "positive", 1L, -1L)
names(value) <- sentiments$word
words <- strsplit(tolower(gsub("https?://[^[:space:]]+", " ", t$text)), "[^a-z0-9'-]+")
score <- vapply(words, function(w) sum(value[w], na.rm = TRUE), integer(1))
out <- data.frame(id_str = t$id_str, created_at = format(t$created_at, "%Y-%m-%dT%H:%M:%SZ", tz = "UTC"),
                  favorite_count = t$favorite_count, retweet_count = t$retweet_count,
                  sentiment = score, text = t$text)
tmp <- paste0(args[1], ".tmp")
write.csv(out, tmp, row.names = FALSE, fileEncoding = "UTF-8")
invisible(file.rename(tmp, args[1]))
RSCRIPT
}

source_files() {
    echo $FMNIST_FILES
    for g in $GRAPHS; do echo "$g.gt.gz"; done
    echo tweets.csv
}

prepare_sources() {
    if [ -n "$sources" ]; then
        for f in $(source_files); do
            [ -f "$sources/$f" ] || die "--sources $sources lacks $f (make it with --sources-only where the packages are)"
            if ! [ "$sources" -ef "$src" ]; then
                cp "$sources/$f" "$src/$f.tmp"
                mv "$src/$f.tmp" "$src/$f"
            fi
        done
        # the sums made beside the packages check the copy
        if [ -f "$sources/SHA256SUMS" ] && ! [ "$sources" -ef "$src" ]; then
            cp "$sources/SHA256SUMS" "$src/SHA256SUMS"
        fi
    else
        install_packages
        for f in $FMNIST_FILES; do cp "$FMNIST_DIR/$f" "$src/$f.tmp" && mv "$src/$f.tmp" "$src/$f"; done
        for g in $GRAPHS; do cp "$GT_DIR/$g.gt.gz" "$src/$g.gt.gz.tmp" && mv "$src/$g.gt.gz.tmp" "$src/$g.gt.gz"; done
        say "exporting dslabs' trump_tweets with Rscript"
        export_tweets "$src/tweets.csv"
    fi
    # the sources' checksums: recorded once, checked on every rerun
    if [ -f "$src/SHA256SUMS" ]; then
        (cd "$src" && sha256sum --quiet -c SHA256SUMS) ||
            die "the sources in $src differ from their recorded sha256 ($src/SHA256SUMS): a package changed? remove $src to start over"
    else
        (cd "$src" && sha256sum $(source_files) > SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS)
    fi
    say "sources in $src ($(du -sh "$src" | cut -f1)), sha256 in $src/SHA256SUMS"
}

prepare_sources
[ "$sources_only" = 1 ] && exit 0

# ---- phase 2: vectors ------------------------------------------------------------

manifest="$dir/manifest.tsv"
touch "$manifest"
src_sum() { grep "  $1\$" "$src/SHA256SUMS" | cut -c1-16; }

# prepare NAME FILE PACKAGE TRANSFORMATION SOURCES -- drtopk dataset ARGS...
steps_total=$((2 + $(echo $GRAPHS | wc -w) + 2))
step=0
prepare() {
    local name="$1" file="$2" package="$3" transform="$4" inputs="$5"
    shift 6
    step=$((step + 1))
    local out="$dir/$file" stats="$dir/stats/$name.tsv"
    local recipe="$*"
    for i in $inputs; do recipe="$recipe $i=$(src_sum "$i")"; done
    local row old_sum old_recipe
    row=$(awk -F'\t' -v f="$file" '$1 == f' "$manifest")
    old_sum=$(printf '%s' "$row" | cut -f2)
    old_recipe=$(printf '%s' "$row" | cut -f3)
    local elapsed=$(( $(date +%s) - t_start ))
    if [ "$rebuild" = 0 ] && [ -n "$row" ] && [ "$old_recipe" = "$recipe" ] && [ -f "$out" ] && [ -f "$stats" ]; then
        say "[$step/$steps_total, ${elapsed} s] $name: cached; checking the sha256 of $out ($(du -h "$out" | cut -f1))"
        local sum
        sum=$(sha256sum "$out" | cut -d' ' -f1)
        [ "$sum" = "$old_sum" ] ||
            die "$out: sha256 $sum differs from the recorded $old_sum ($manifest): the file changed since it was made; delete it to remake it"
    else
        say "[$step/$steps_total, ${elapsed} s] $name: $drtopk dataset $*"
        "$drtopk" dataset "$@" --out "$out" --stats "$stats" --name "$name" >&2
        local sum
        sum=$(sha256sum "$out" | cut -d' ' -f1)
        if [ -n "$old_sum" ] && [ "$old_recipe" = "$recipe" ] && [ "$sum" != "$old_sum" ]; then
            die "$out: remade with the same recipe, sha256 $sum differs from the recorded $old_sum: not reproducible"
        fi
        awk -F'\t' -v f="$file" '$1 != f' "$manifest" > "$manifest.tmp"
        printf '%s\t%s\t%s\n' "$file" "$sum" "$recipe" >> "$manifest.tmp"
        mv "$manifest.tmp" "$manifest"
        [ -n "$old_sum" ] && [ "$old_recipe" = "$recipe" ] && say "$name: sha256 as recorded (reproducible)"
    fi
    # the same recipe made elsewhere (another machine, the CPU) must agree
    local ref
    ref=$(awk -F'\t' -v f="$file" -v r="$recipe" '$1 == f && $3 == r { print $2 }' "$REFERENCE" 2>/dev/null)
    if [ -n "$ref" ]; then
        sum=$(awk -F'\t' -v f="$file" '$1 == f { print $2 }' "$manifest")
        [ "$sum" = "$ref" ] || die "$out: sha256 $sum differs from the reference $ref ($REFERENCE) of the same recipe"
        say "$name: sha256 as the reference ($REFERENCE)"
    fi
    # Table 1 rows: the stats with the package and the transformation
    awk -F'\t' -v OFS='\t' -v p="$package" -v t="$transform" 'NR > 1 { print $1, $2, p, t, $3, $4, $5, $6, $7 }' \
        "$stats" >> "$dir/table1.tsv.tmp"
}

printf 'dataset\tn\tpackage\ttransformation\tdistinct\torder\tk\tkth_value\tties_at_k\n' > "$dir/table1.tsv.tmp"
fm_inputs="$FMNIST_FILES"
fm_args="--vectors $src/train-images-idx3-ubyte.gz --vectors $src/t10k-images-idx3-ubyte.gz"
# shellcheck disable=SC2086
prepare "fmnist-knn-m$knn_m" "fmnist-knn-m$knn_m.f32" dataset-fashion-mnist \
    "L2 distances of the first $knn_m of 70000 images (28x28) to all 70000" "$fm_inputs" -- knn $fm_args --queries "$knn_m"
# shellcheck disable=SC2086
prepare fmnist-knn-1 fmnist-knn-1.f32 dataset-fashion-mnist "L2 distances of image 0 to all 70000 images" \
    "$fm_inputs" -- knn $fm_args --queries 1
for g in $GRAPHS; do
    prepare "graph-$g" "graph-$g.u32" python3-graph-tool "degree (in + out) per vertex, tiled to $tile" "$g.gt.gz" -- \
        degrees --graph "$src/$g.gt.gz" --tile "$tile"
done
prepare tweets-favorites tweets-favorites.f32 r-cran-dslabs "favourite count per tweet of trump_tweets, tiled to $tile" \
    tweets.csv -- scores --csv "$src/tweets.csv" --column favorite_count --tile "$tile"
prepare tweets-sentiment tweets-sentiment.f32 "r-cran-dslabs + r-cran-tidytext" \
    "Bing-lexicon sentiment (positive - negative words) per tweet, tiled to $tile" tweets.csv -- \
    scores --csv "$src/tweets.csv" --column sentiment --tile "$tile"
mv "$dir/table1.tsv.tmp" "$dir/table1.tsv"
say "done in $(( $(date +%s) - t_start )) s: the vectors in $dir, sha256 and recipes in $manifest, Table 1 rows in $dir/table1.tsv"
[ -z "$db" ] || measure_all
