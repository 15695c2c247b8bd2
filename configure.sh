#!/usr/bin/env bash
# configure.sh -- checks (and on Debian/Ubuntu as root, installs) what drtopk
# needs, detects the compute capability of the machine's GPUs, and writes
# build/config.ninja, which the hand-written build.ninja includes.
#
#   ./configure.sh [--prefix=DIR] [--arch=sm_XX | --fat] [--cpu-only] [--no-install]
#                  [--build-only] [--sysroot=DIR] [--sanitize] [--lineinfo]
set -euo pipefail

usage() {
    cat <<'TXT'
usage: ./configure.sh [--prefix=DIR] [--arch=sm_XX | --fat] [--cpu-only] [--no-install]
                      [--build-only] [--sysroot=DIR] [--sanitize] [--lineinfo]
  --prefix=DIR   where `ninja install` puts include/drtopk.h, lib/libdrtopk.{a,so}
                 and lib/pkgconfig/drtopk.pc (default /usr/local)
  default        machine code for the architectures of this machine's GPUs
                 (nvidia-smi) with PTX for the newest; with no GPU visible,
                 portable PTX for compute_80 only, which any GPU of compute
                 capability 8.0 or newer compiles once when the library first
                 loads (the quickest build: no machine code is generated)
  --arch=sm_XX   machine code for this one CUDA architecture (and its PTX)
  --fat          one fat binary for sm_80, sm_90 and sm_100 with PTX for the
                 newest (A100, H100, H200, B200 and later): for a build that is
                 copied to other machines
  --cpu-only     build without CUDA: the library has only the CPU backend
  --no-install   never install packages, only report what is missing
  --build-only   check only what `ninja` itself needs (gcc, ninja, the SQLite and
                 zlib headers and static libraries, nvcc), not the tools of the
                 tests and experiments: a machine that only builds and runs
  --sysroot=DIR  take sqlite3.h and zlib.h from DIR/include and libsqlite3.a and
                 libz.a from DIR/lib (tests/gpu/archive.sh pack copies them there)
  --sanitize     the CPU backend (implies --cpu-only) built with AddressSanitizer and
                 UBSan, for `ninja test-sanitize` (the unit and Bats suites under them)
  --lineinfo     device code with source line tables (nvcc -lineinfo), for profilers
                 and compute-sanitizer reports that name a line; the same machine
                 code in a library 1.6 to 2.1 times the size, so not the default
TXT
}

arch=""
cpu_only=0
prefix=/usr/local
FAT_ARCHS="80 90 100"   # A100, H100/H200, B200: cp.async and the shared-memory sizes need sm_80+
OLDEST_ARCH=${FAT_ARCHS%% *}  # the PTX of a machine without a GPU: runs on every supported GPU
fat=0
may_install=1
build_only=0
sysroot=""
sanitize=0
lineinfo=0
# every object and link of a --sanitize build (UBSan findings abort, as ASan's do)
SANITIZE_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
for a in "$@"; do
    case "$a" in
        --arch=sm_[0-9]*) arch="${a#--arch=}" ;;
        --fat) fat=1 ;;
        --arch=*) echo "configure: bad --arch '${a#--arch=}' (expected sm_NN, e.g. sm_90)" >&2; exit 2 ;;
        --prefix=?*) prefix="${a#--prefix=}" ;;
        --prefix=) echo "configure: --prefix needs a directory" >&2; exit 2 ;;
        --cpu-only) cpu_only=1 ;;
        --no-install) may_install=0 ;;
        --build-only) build_only=1 ;;
        --sanitize) sanitize=1; cpu_only=1 ;;
        --lineinfo) lineinfo=1 ;;
        --sysroot=?*) sysroot="${a#--sysroot=}" ;;
        --sysroot=) echo "configure: --sysroot needs a directory" >&2; exit 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "configure: unknown option '$a'" >&2; usage >&2; exit 2 ;;
    esac
done

# drtopk.pc names the prefix: make it absolute, and refuse what a .pc file or
# the install commands cannot carry
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
case "$prefix" in *[[:space:]\|\"\'\$]*)
    echo "configure: --prefix '$prefix' holds a space, quote, '|' or '\$'; choose another directory" >&2
    exit 2 ;;
esac
prefix="${prefix%/}"
[ -n "$prefix" ] || prefix=/
if [ -n "$sysroot" ]; then
    sysroot=$(cd "$sysroot" 2>/dev/null && pwd) || { echo "configure: --sysroot: no directory" >&2; exit 2; }
    for f in include/sqlite3.h include/zlib.h lib/libsqlite3.a lib/libz.a; do
        [ -f "$sysroot/$f" ] || { echo "configure: --sysroot $sysroot has no $f" >&2; exit 2; }
    done
fi

cd "$(dirname "$0")"

# Debian package that provides each tool or file the README's two commands
# need (build and test; gnuplot, sqlite3 and gzip for experiments/run_all.sh; Open
# MPI for bin/drtopk-mpi and its tests; GNU parallel runs the Bats files side
# by side).
declare -A pkg_of=(
    [gcc]=gcc [ninja]=ninja-build [bats]=bats [gnuplot]=gnuplot-nox
    [sqlite3]=sqlite3 [libsqlite3.a]=libsqlite3-dev [dejavu]=fonts-dejavu-core [zlib.h]=zlib1g-dev
    [git]=git [pkg-config]=pkg-config [parallel]=parallel [gzip]=gzip
    [mpicc]=libopenmpi-dev [mpirun]=openmpi-bin
    [numpy]=python3-numpy [setuptools]=python3-setuptools [pip]=python3-pip [venv]=python3-venv
    [chromium]=chromium-headless-shell
)
sqlite_a=""
find_sqlite_a() {
    sqlite_a=""
    [ -n "$sysroot" ] && { sqlite_a="$sysroot/lib/libsqlite3.a"; return 0; }
    for d in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib; do
        if [ -f "$d/libsqlite3.a" ] && [ -f /usr/include/sqlite3.h -o -f /usr/local/include/sqlite3.h ]; then
            sqlite_a="$d/libsqlite3.a"; return 0
        fi
    done
    return 1
}
# whether python3 or /usr/bin/python3 imports module $1
python_with() {
    local py
    for py in python3 /usr/bin/python3; do
        command -v "$py" >/dev/null 2>&1 && "$py" -c "import $1" >/dev/null 2>&1 && return 0
    done
    return 1
}
missing_pkgs() {
    local miss=() tools="gcc ninja bats gnuplot sqlite3 gzip git pkg-config mpicc mpirun parallel"
    [ "$build_only" = 1 ] && tools="gcc ninja"
    for t in $tools; do
        command -v "$t" >/dev/null 2>&1 || miss+=("${pkg_of[$t]}")
    done
    find_sqlite_a || miss+=("${pkg_of[libsqlite3.a]}")
    if [ "$build_only" = 1 ]; then
        [ -n "$sysroot" ] || [ -f /usr/include/zlib.h ] || miss+=("${pkg_of[zlib.h]}")
        echo "${miss[@]:-}"
        return
    fi
    # the font of figures/common.gp (pngcairo, svg): without it cairo falls back silently
    [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || miss+=("${pkg_of[dejavu]}")
    [ -f /usr/include/zlib.h ] || miss+=("${pkg_of[zlib.h]}")   # gzip input of drtopk dataset
    # the Python package's tests (tests/bats/python.bats): Debian's python3 with NumPy, setuptools, pip, venv
    if ! python_with numpy; then miss+=("${pkg_of[numpy]}"); fi
    if ! python_with setuptools; then miss+=("${pkg_of[setuptools]}"); fi
    if ! python_with pip; then miss+=("${pkg_of[pip]}"); fi
    if ! python_with ensurepip; then miss+=("${pkg_of[venv]}"); fi
    # the browser that loads figures/index.html in tests/bats/experiments.bats
    command -v chromium-headless-shell >/dev/null 2>&1 || command -v chromium >/dev/null 2>&1 ||
        miss+=("${pkg_of[chromium]}")
    echo "${miss[@]:-}"
}

miss=$(missing_pkgs)
if [ -n "$miss" ]; then
    cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $miss"
    if [ "$may_install" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "configure: installing: $miss"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $miss >/dev/null
        miss=$(missing_pkgs)
    fi
    if [ -n "$miss" ]; then
        echo "configure: missing packages: $miss" >&2
        echo "configure: install them with:  sudo sh -c '$cmd'" >&2
        exit 1
    fi
fi
find_sqlite_a

# CUDA toolkit (brings CUB and Thrust).
nvcc=""
cuda_home=""
if [ "$cpu_only" = 0 ]; then
    nvcc=$(command -v nvcc || true)
    [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
    if [ -z "$nvcc" ]; then
        echo "configure: nvcc not found. Install the CUDA Toolkit (https://developer.nvidia.com/cuda-downloads)" >&2
        echo "configure: or configure with --cpu-only for the CPU backend alone." >&2
        exit 1
    fi
    cuda_home=$(cd "$(dirname "$nvcc")/.." && pwd)
    cub_inc=""
    for d in "$cuda_home/include/cccl" "$cuda_home/include"; do
        [ -f "$d/cub/cub.cuh" ] && cub_inc="$d" && break
    done
    if [ -z "$cub_inc" ]; then
        echo "configure: CUB headers not found under $cuda_home/include" >&2; exit 1
    fi
    # Which device code: --arch's one architecture; --fat's list; else the
    # local GPUs' architectures (machine code for each, PTX of the newest,
    # which the driver compiles for GPUs newer than all); else, with no GPU to
    # run on, PTX only (one front-end pass a kernel file, no ptxas).
    [ -n "$arch" ] && [ "$fat" = 1 ] && { echo "configure: give --arch=sm_XX or --fat, not both" >&2; exit 2; }
    if [ -n "$arch" ]; then
        gencode="-arch=$arch"
    else
        archs=""
        if [ "$fat" = 1 ]; then
            archs=$FAT_ARCHS
        elif command -v nvidia-smi > /dev/null 2>&1; then
            archs=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d ' .' |
                    grep -E '^[0-9]+$' | sort -n -u | tr '\n' ' ') || archs=""
            archs=${archs% }
            for a in $archs; do
                if [ "$a" -lt "$OLDEST_ARCH" ]; then
                    echo "configure: this machine's GPU has compute capability ${a%?}.${a: -1}; drtopk needs $((OLDEST_ARCH / 10)).0 or newer" >&2
                    exit 1
                fi
            done
        fi
        if [ -n "$archs" ]; then
            gencode=""
            for a in $archs; do gencode="$gencode -gencode=arch=compute_$a,code=sm_$a"; done
            newest=${archs##* }
            gencode="${gencode# } -gencode=arch=compute_$newest,code=compute_$newest"
            arch="sm_${archs// /, sm_} + PTX $newest"
            [ "$fat" = 1 ] && arch="fat: $arch"
        else
            gencode="-gencode=arch=compute_$OLDEST_ARCH,code=compute_$OLDEST_ARCH"
            arch="no GPU found: PTX for compute_$OLDEST_ARCH only, compiled by the driver when the library first loads on a GPU; --fat or --arch=sm_XX for machine code"
        fi
    fi
    # every device image compressed (PTX too; decompressed once, when the
    # library loads): 5x smaller at no build cost (CUDA 13's --compress-mode=size
    # is 1.5x smaller again but costs 10 s of CPU a kernel file)
    fatbin_compress="-Xfatbin=-compress-all"
fi

mkdir -p build bin
{
    echo "# written by configure.sh $(date -u +%Y-%m-%dT%H:%M:%SZ); do not edit"
    echo "configure_args = $*"
    echo "cc = gcc$([ "$sanitize" = 1 ] && echo " $SANITIZE_FLAGS")"
    echo "sanitize = $([ "$sanitize" = 1 ] && echo yes || echo no)"
    echo "prefix = $prefix"
    echo "sqlite_a = $sqlite_a"
    # --sysroot: its headers and libraries (before the system's)
    echo "sys_incs = ${sysroot:+-isystem $sysroot/include}"
    echo "sys_libdirs = ${sysroot:+-L$sysroot/lib}"
    echo "mpicc = $(command -v mpicc)$([ "$sanitize" = 1 ] && echo " $SANITIZE_FLAGS")"
    # `mpi`: bin/drtopk-mpi where MPI is installed, else nothing (a build-only
    # machine may lack it; a phony target, as ninja refuses a path variable that is empty)
    echo "build mpi: phony $(command -v mpicc >/dev/null && echo bin/drtopk-mpi)"
    if [ "$cpu_only" = 1 ]; then
        echo "backend = cpu"
        echo "nvcc = false"
        echo "gencode ="
        echo "cuda_ldflags ="
        # (a program linking the sanitized libdrtopk.a needs the sanitizers' runtimes: drtopk.pc's Libs)
        echo "cuda_solibs =$([ "$sanitize" = 1 ] && echo " $SANITIZE_FLAGS")"
        echo "fatbin_compress ="
        echo "lineinfo ="
    else
        echo "backend = cuda"
        echo "nvcc = $nvcc"
        echo "gencode = $gencode"
        echo "cuda_ldflags = -L$cuda_home/lib64 -lcudart_static -lstdc++ -ldl -lrt -lpthread"
        echo "cuda_solibs = -L$cuda_home/lib64 -lcudart_static -lstdc++ -ldl -lrt -lpthread"
        echo "fatbin_compress = $fatbin_compress"
        echo "lineinfo = $([ "$lineinfo" = 1 ] && echo -lineinfo)"
    fi
} > build/config.ninja


echo "configure: backend=$([ "$cpu_only" = 1 ] && echo cpu || echo "cuda ($arch, $nvcc)"), sqlite=$sqlite_a"
echo "configure: install prefix $prefix (ninja install)"
echo "configure: wrote build/config.ninja; now run: ninja"
