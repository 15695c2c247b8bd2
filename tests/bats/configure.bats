#!/usr/bin/env bats
# configure.sh's choice of device code: the local GPUs' architectures (a fake
# nvidia-smi on PATH stands for them), portable PTX where there is no GPU,
# --fat's list, --arch's one; a GPU older than the oldest supported one and
# --arch with --fat are refused with a message; source line tables only with
# --lineinfo; without MPI, a build file that still loads.  Runs a copy of configure.sh in
# a scratch directory (--build-only --no-install: checks, installs nothing).

setup() {
    command -v nvcc > /dev/null || [ -x /usr/local/cuda/bin/nvcc ] || skip "no CUDA toolkit: configure picks no device code"
    DIR="$BATS_TEST_TMPDIR/tree"
    mkdir -p "$DIR" "$BATS_TEST_TMPDIR/fake"
    cp "$BATS_TEST_DIRNAME/../../configure.sh" "$DIR/"
}

# fake_smi LINES...: an nvidia-smi that prints LINES for --query-gpu=compute_cap
fake_smi() {
    printf '#!/bin/sh\nprintf "%%s\\n" %s\n' "$*" > "$BATS_TEST_TMPDIR/fake/nvidia-smi"
    chmod +x "$BATS_TEST_TMPDIR/fake/nvidia-smi"
}

# configure ARGS...: run the copy with the fake directory first on PATH, then
# print build/config.ninja's gencode line
configure() {
    (cd "$DIR" && PATH="$BATS_TEST_TMPDIR/fake:$PATH" ./configure.sh --build-only --no-install "$@")
}
gencode() { sed -n 's/^gencode = //p' "$DIR/build/config.ninja"; }

@test "no GPU: PTX for compute_80 only, and the run says so" {
    printf '#!/bin/sh\necho "NVIDIA-SMI has failed" >&2\nexit 9\n' > "$BATS_TEST_TMPDIR/fake/nvidia-smi"
    chmod +x "$BATS_TEST_TMPDIR/fake/nvidia-smi"
    run configure
    [ "$status" -eq 0 ]
    [[ "$output" == *"no GPU found: PTX for compute_80 only"*"--fat or --arch=sm_XX"* ]]
    [ "$(gencode)" = "-gencode=arch=compute_80,code=compute_80" ]
}

@test "the local GPUs: machine code for each architecture once, PTX of the newest" {
    fake_smi 9.0 10.0 9.0
    run configure
    [ "$status" -eq 0 ]
    [ "$(gencode)" = "-gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_100,code=sm_100 -gencode=arch=compute_100,code=compute_100" ]
    [[ "$output" == *"sm_90, sm_100 + PTX 100"* ]]
}

@test "--fat: sm_80, sm_90 and sm_100 whatever the machine has; --arch: that one" {
    fake_smi 9.0
    run configure --fat
    [ "$status" -eq 0 ]
    [ "$(gencode)" = "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_100,code=sm_100 -gencode=arch=compute_100,code=compute_100" ]
    run configure --arch=sm_86
    [ "$status" -eq 0 ]
    [ "$(gencode)" = "-arch=sm_86" ]
}

@test "a GPU older than sm_80, and --arch with --fat, are refused" {
    fake_smi 7.0
    run configure
    [ "$status" -eq 1 ]
    [[ "$output" == *"compute capability 7.0; drtopk needs 8.0 or newer"* ]]
    run configure --fat --arch=sm_90
    [ "$status" -eq 2 ]
    [[ "$output" == *"give --arch=sm_XX or --fat, not both"* ]]
}

@test "device code without line tables unless --lineinfo asks for them" {
    fake_smi 9.0
    run configure --arch=sm_90
    [ "$status" -eq 0 ]
    grep -qx 'lineinfo = ' "$DIR/build/config.ninja"
    run configure --arch=sm_90 --lineinfo
    [ "$status" -eq 0 ]
    grep -qx 'lineinfo = -lineinfo' "$DIR/build/config.ninja"
    grep -q 'nvflags = .*\$lineinfo' "$BATS_TEST_DIRNAME/../../build.ninja"
}

@test "without MPI the build file still loads: the phony target mpi is empty; with MPI it is bin/drtopk-mpi" {
    fake_smi 9.0
    cp "$BATS_TEST_DIRNAME/../../build.ninja" "$DIR/"
    # a PATH of the fake nvidia-smi, the CUDA toolkit's directory and every other command but mpicc (ninja
    # refuses a path list entry that expands to nothing, which an empty $mpi_programs was)
    cuda=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")
    nompi="$BATS_TEST_TMPDIR/nompi"
    mkdir -p "$nompi"
    for d in /usr/local/bin /usr/bin /bin; do
        for f in "$d"/*; do
            name=${f##*/}
            [ "$name" = mpicc ] || [ -e "$nompi/$name" ] || ln -s "$f" "$nompi/$name"
        done
    done
    run env PATH="$BATS_TEST_TMPDIR/fake:$cuda:$nompi" sh -c "cd '$DIR' && ./configure.sh --build-only --no-install"
    [ "$status" -eq 0 ]
    grep -qx 'build mpi: phony ' "$DIR/build/config.ninja"
    run ninja -C "$DIR" -t query test
    [ "$status" -eq 0 ]
    grep -qx '    | mpi' <<< "$output"
    run ninja -C "$DIR" -t query mpi
    [ "$status" -eq 0 ]
    [[ "$output" != *drtopk-mpi* ]]
    command -v mpicc > /dev/null || skip "no mpicc here: the case with MPI is not checked"
    run configure
    [ "$status" -eq 0 ]
    run ninja -C "$DIR" -t query mpi
    [ "$status" -eq 0 ]
    [[ "$output" == *bin/drtopk-mpi* ]]
}
