#!/bin/sh
# archive.sh -- build several commits side by side on a machine that only
# builds and runs (the GPU machine: no package installs, no SQLite or zlib
# headers), so that one call times them on the same card (docs/changelog.md,
# "A/B ... on the same card").  Two steps:
#
#   tests/gpu/archive.sh pack DIR [NAME=]REV...     here (a git checkout)
#       DIR/src/NAME: `git archive REV` (NAME defaults to REV with every
#       character but letters, digits, '.', '_' and '-' made '_'); the
#       archive carries its commit (src/cli/archive_commit, .gitattributes
#       export-subst), so every row a build writes names it.  db/reference is
#       left out (not needed to build; the carry stays small).
#       DIR/sysroot: sqlite3.h, zlib.h, zconf.h, libsqlite3.a and libz.a of
#       this machine (Debian libsqlite3-dev and zlib1g-dev).
#   tests/gpu/archive.sh build DIR [--arch=sm_XX] [NAME...] [-- TARGET...]
#       there: in every tree (all of DIR/src by default), `./configure.sh
#       --build-only --no-install --sysroot=DIR/sysroot --arch=...` (default:
#       the local GPU's, from nvidia-smi) and `ninja TARGET...` (default: the
#       programs of tests/gpu/run.sh, named one by one: plain `ninja` builds
#       no GPU test program), the trees at once; DIR/src/NAME/build.log
#       each; one line a tree, and the exit status of the first that failed.
#       A tree builds this way from the commit that brought this script on
#       (older ones lack configure.sh --build-only and the archived commit).
#
# Example (one GPU call, two commits; see the device tool's carry):
#   tests/gpu/archive.sh pack .dev main=main h47=HEAD      # here, .dev ignored
#   tests/gpu/archive.sh build .dev -- bin/drtopk          # there (carry .dev)
#   .dev/src/main/bin/drtopk batch ...; .dev/src/h47/bin/drtopk batch ...
set -u

GPU_PROGRAMS="drtopk tuner test_gpu test_radix test_algos test_bitonic test_capture test_knn test_batch test_onepass test_small_n test_check"
SYSROOT_FILES="include/sqlite3.h include/zlib.h include/zconf.h lib/libsqlite3.a lib/libz.a"

die() { echo "archive.sh: $*" >&2; exit 2; }

# The system file that provides sysroot entry $1, or nothing.
system_file() {
    case $1 in
    include/*) for d in /usr/include /usr/local/include; do [ -f "$d/${1#include/}" ] && { echo "$d/${1#include/}"; return; }; done ;;
    lib/*) for d in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib; do
               [ -f "$d/${1#lib/}" ] && { echo "$d/${1#lib/}"; return; }; done ;;
    esac
}

pack() {
    [ $# -ge 2 ] || die "usage: archive.sh pack DIR [NAME=]REV..."
    dir=$1; shift
    git rev-parse --git-dir > /dev/null 2>&1 || die "pack runs in a git checkout of drtopk"
    mkdir -p "$dir/sysroot/include" "$dir/sysroot/lib" "$dir/src" || die "cannot create $dir"
    for f in $SYSROOT_FILES; do
        src=$(system_file "$f")
        [ -n "$src" ] || die "no $f on this machine: install libsqlite3-dev and zlib1g-dev"
        cp "$src" "$dir/sysroot/$f" || die "cannot copy $src"
    done
    for spec in "$@"; do
        case $spec in
        *=*) name=${spec%%=*}; rev=${spec#*=} ;;
        *) name=$(printf '%s' "$spec" | tr -c 'A-Za-z0-9._-' '_'); rev=$spec ;;
        esac
        [ -n "$name" ] && [ "$name" = "$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_')" ] ||
            die "tree name '$name': letters, digits, '.', '_' and '-' only"
        commit=$(git rev-parse --verify -q "$rev^{commit}") || die "no commit '$rev'"
        rm -rf "$dir/src/$name" && mkdir -p "$dir/src/$name" || die "cannot create $dir/src/$name"
        git archive "$commit" | tar -x -C "$dir/src/$name" --exclude=db/reference ||
            die "git archive $rev failed"
        echo "packed $name: $(git rev-parse --short=12 "$commit") ($(du -sk "$dir/src/$name" | cut -f1) KB)"
    done
}

build() {
    [ $# -ge 1 ] || die "usage: archive.sh build DIR [--arch=sm_XX] [NAME...] [-- TARGET...]"
    dir=$(cd "$1" 2>/dev/null && pwd) || die "no directory $1"
    shift
    arch="" names="" targets=""
    while [ $# -gt 0 ]; do
        case $1 in
        --arch=sm_[0-9]*) arch=${1#--arch=} ;;
        --arch=*) die "bad --arch '${1#--arch=}' (expected sm_NN)" ;;
        --) shift; targets="$*"; break ;;
        -*) die "unknown option '$1'" ;;
        *) names="$names $1" ;;
        esac
        shift
    done
    for f in $SYSROOT_FILES; do [ -f "$dir/sysroot/$f" ] || die "$dir/sysroot/$f is missing: run pack first"; done
    [ -n "$names" ] || names=$(ls "$dir/src")
    [ -n "$names" ] || die "no trees under $dir/src"
    if [ -z "$arch" ]; then
        cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
        [ -n "$cc" ] || die "no GPU answered nvidia-smi: give --arch=sm_XX"
        arch=sm_$cc
    fi
    [ -n "$targets" ] || for p in $GPU_PROGRAMS; do targets="$targets bin/$p"; done
    n=$(echo $names | wc -w)
    jobs=$(( $(nproc) / n + 1 ))
    pids=""
    for t in $names; do
        [ -f "$dir/src/$t/configure.sh" ] || die "$dir/src/$t is not a packed tree"
        (
            cd "$dir/src/$t" || exit 1
            s=$(date +%s)
            { ./configure.sh --build-only --no-install --sysroot="$dir/sysroot" --arch="$arch" &&
                ninja -j "$jobs" $targets; } > build.log 2>&1
            rc=$?
            echo "built $t ($(sed -n '1p' src/cli/archive_commit | cut -c1-12), $arch): rc=$rc, $(( $(date +%s) - s )) s"
            [ $rc = 0 ] || tail -15 build.log
            exit $rc
        ) &
        pids="$pids $!"
    done
    rc=0
    for p in $pids; do wait "$p" || { r=$?; [ $rc = 0 ] && rc=$r; }; done
    return $rc
}

case ${1:-} in
pack) shift; pack "$@" ;;
build) shift; build "$@" ;;
*) die "usage: archive.sh pack DIR [NAME=]REV... | build DIR [--arch=sm_XX] [NAME...] [-- TARGET...]" ;;
esac
