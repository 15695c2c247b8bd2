#!/usr/bin/env bash
# configure.sh -- checks (and on Debian/Ubuntu as root, installs) what drtopk
# needs, detects the GPU's compute capability, and writes build/config.ninja,
# which the hand-written build.ninja includes.
#
#   ./configure.sh [--arch=sm_XX] [--cpu-only] [--no-install]
set -euo pipefail

usage() {
    cat <<'TXT'
usage: ./configure.sh [--arch=sm_XX] [--cpu-only] [--no-install]
  --arch=sm_XX   CUDA architecture to build for (default: detected with
                 nvidia-smi, sm_90 when no GPU is visible)
  --cpu-only     build without CUDA: the library has only the CPU backend
  --no-install   never install packages, only report what is missing
TXT
}

arch=""
cpu_only=0
may_install=1
for a in "$@"; do
    case "$a" in
        --arch=sm_[0-9]*) arch="${a#--arch=}" ;;
        --arch=*) echo "configure: bad --arch '${a#--arch=}' (expected sm_NN, e.g. sm_90)" >&2; exit 2 ;;
        --cpu-only) cpu_only=1 ;;
        --no-install) may_install=0 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "configure: unknown option '$a'" >&2; usage >&2; exit 2 ;;
    esac
done

cd "$(dirname "$0")"

# Debian package that provides each required tool or file.
declare -A pkg_of=(
    [gcc]=gcc [ninja]=ninja-build [bats]=bats [gnuplot]=gnuplot-nox
    [sqlite3]=sqlite3 [libsqlite3.a]=libsqlite3-dev [mpicc]=libopenmpi-dev
    [mpirun]=openmpi-bin [git]=git [pkg-config]=pkg-config
)
sqlite_a=""
find_sqlite_a() {
    sqlite_a=""
    for d in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib; do
        if [ -f "$d/libsqlite3.a" ] && [ -f /usr/include/sqlite3.h -o -f /usr/local/include/sqlite3.h ]; then
            sqlite_a="$d/libsqlite3.a"; return 0
        fi
    done
    return 1
}
missing_pkgs() {
    local miss=()
    for t in gcc ninja bats gnuplot sqlite3 mpicc mpirun git pkg-config; do
        command -v "$t" >/dev/null 2>&1 || miss+=("${pkg_of[$t]}")
    done
    find_sqlite_a || miss+=("${pkg_of[libsqlite3.a]}")
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
    if [ -z "$arch" ]; then
        cc=""
        if command -v nvidia-smi >/dev/null 2>&1; then
            cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d ' .' || true)
        fi
        if [[ "$cc" =~ ^[0-9]+$ ]]; then arch="sm_$cc"; else arch="sm_90"; fi
    fi
fi

# Open MPI's compile and link flags (the multi-GPU driver uses them).
mpi_cflags=$(mpicc --showme:compile 2>/dev/null || true)
mpi_ldflags=$(mpicc --showme:link 2>/dev/null || true)

mkdir -p build bin
{
    echo "# written by configure.sh $(date -u +%Y-%m-%dT%H:%M:%SZ); do not edit"
    echo "configure_args = $*"
    echo "cc = gcc"
    echo "sqlite_a = $sqlite_a"
    echo "mpi_cflags = $mpi_cflags"
    echo "mpi_ldflags = $mpi_ldflags"
    if [ "$cpu_only" = 1 ]; then
        echo "backend = cpu"
        echo "nvcc = false"
        echo "arch = none"
        echo "cuda_ldflags ="
        echo "gpu_default = no-gpu-programs"
    else
        echo "backend = cuda"
        echo "nvcc = $nvcc"
        echo "arch = $arch"
        echo "cuda_ldflags = -L$cuda_home/lib64 -lcudart_static -lstdc++ -ldl -lrt -lpthread"
        echo "gpu_default = gpu-programs"
    fi
} > build/config.ninja

# ---- CCCL >= 3.2 headers for the CUB DeviceTopK peer (issue 4, item 6) ----
# Only experiments/peers/cub_topk_peer.cu uses them (the library builds with
# the toolkit's CUB).  They come from PyPI's nvidia-cuda-cccl wheel, unpacked
# into build/cccl/include; without PyPI the peer is simply not built.
cccl_peer_inc=""
cccl_dir=build/cccl
cccl_probe=cub/device/device_topk.cuh
if [ "$cpu_only" = 0 ]; then
    if [ ! -f "$cccl_dir/include/$cccl_probe" ] && command -v python3 >/dev/null 2>&1; then
        rm -rf "$cccl_dir/wheel" "$cccl_dir/unpacked"
        if timeout 300 python3 -m pip download -q --no-deps --only-binary=:all: nvidia-cuda-cccl \
                -d "$cccl_dir/wheel" >/dev/null 2>&1 &&
           python3 -m zipfile -e "$cccl_dir"/wheel/*.whl "$cccl_dir/unpacked" >/dev/null 2>&1; then
            probe=$(find "$cccl_dir/unpacked" -path "*/$cccl_probe" | head -n1)
            [ -n "$probe" ] && rm -rf "$cccl_dir/include" && mv "${probe%/$cccl_probe}" "$cccl_dir/include"
        fi
        rm -rf "$cccl_dir/wheel" "$cccl_dir/unpacked"
    fi
    [ -f "$cccl_dir/include/$cccl_probe" ] && cccl_peer_inc="$cccl_dir/include"
fi
echo "cccl_peer_inc = $cccl_peer_inc" >> build/config.ninja
echo "configure: CUB DeviceTopK peer: ${cccl_peer_inc:-skipped (nvidia-cuda-cccl headers not fetched)}"
# ---- end of the CCCL peer block ---------------------------------------------

echo "configure: backend=$([ "$cpu_only" = 1 ] && echo cpu || echo "cuda ($arch, $nvcc)"), sqlite=$sqlite_a"
echo "configure: wrote build/config.ninja; now run: ninja"
