# helpers.bash -- shared by the fault suite (tests/fault/*.bats): the programs,
# a kill at the moment an output's temporary file exists, small tmpfs mounts
# (root only) and the "nothing left behind" check.

DRTOPK="${DRTOPK:-$BATS_TEST_DIRNAME/../../bin/drtopk}"
DRTOPK_MPI="${DRTOPK_MPI:-$BATS_TEST_DIRNAME/../../bin/drtopk-mpi}"
TUNER="${TUNER:-$BATS_TEST_DIRNAME/../../bin/tuner}"
POLL_LIMIT_S=60          # a program that never creates its temporary file fails the test by then

# no_temporaries DIR: no "*.tmp.*" file is left in DIR
no_temporaries() {
    local left
    left=$(find "$1" -maxdepth 1 -name '*.tmp*' 2>/dev/null)
    [ -z "$left" ] || { echo "left behind: $left" >&2; return 1; }
}

MISSED_TRIES=3           # a write that ended before the poll saw its temporary is retried

# kill_mid_write SIGNAL DIR -- COMMAND...: run COMMAND in the background (with
# the default disposition of every signal: a script's background job starts
# with SIGINT ignored),
# send SIGNAL once a temporary file (DIR/*.tmp.*) exists, i.e. mid-write;
# $status gets its exit status.  Fails when no temporary file appears.
kill_mid_write() {
    local sig="$1" dir="$2" pid t0 try seen
    shift 3
    for ((try = 0; try < MISSED_TRIES; ++try)); do
        env --default-signal "$@" > "$BATS_TEST_TMPDIR/kill.out" 2>&1 &
        pid=$!
        t0=$SECONDS
        seen=0
        while kill -0 "$pid" 2>/dev/null && [ $((SECONDS - t0)) -lt "$POLL_LIMIT_S" ]; do
            if compgen -G "$dir/*.tmp.*" > /dev/null; then seen=1; break; fi
        done
        if [ "$seen" = 1 ] && kill -"$sig" "$pid" 2>/dev/null; then
            status=0
            wait "$pid" || status=$?
            return 0
        fi
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    echo "no temporary file was seen in $dir while '$*' ran ($MISSED_TRIES tries)" >&2
    cat "$BATS_TEST_TMPDIR/kill.out" >&2
    return 1
}

# small_fs SIZE DIR: a tmpfs of SIZE mounted on DIR (unmounted by teardown);
# skips the test when this is not root or mounting is not allowed
small_fs() {
    [ "$(id -u)" = 0 ] || skip "mounting a small tmpfs needs root (the full and read-only file system cases)"
    mkdir -p "$2"
    mount -t tmpfs -o "size=$1" tmpfs "$2" 2>/dev/null || skip "cannot mount a tmpfs here (a container without CAP_SYS_ADMIN?)"
    MOUNTS+=("$2")
}

# fill_fs DIR: take every free byte of the file system under DIR
fill_fs() {
    dd if=/dev/zero of="$1/filler" bs=64k 2>/dev/null || true
}

unmount_all() {
    local m
    for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
    MOUNTS=()
}
