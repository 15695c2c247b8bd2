#!/usr/bin/env bats
# archive.bats -- tests/gpu/archive.sh, the way several commits are built side
# by side on a machine that only builds and runs: pack writes each commit's
# tree (with its commit, src/cli/archive_commit) and a sysroot of SQLite and
# zlib; build configures every tree --build-only against that sysroot and runs
# ninja; src/cli/version.sh stamps the archived commit even where the tree lies
# inside another repository; the errors name the input.

bats_require_minimum_version 1.5.0

ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
ARCHIVE="$ROOT/tests/gpu/archive.sh"

setup() {
    cd "$ROOT"
    DIR="$BATS_TEST_TMPDIR/a"
}

@test "pack writes each commit's tree with its commit, without db/reference, and the sysroot" {
    run "$ARCHIVE" pack "$DIR" here=HEAD HEAD
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "packed here: $(git rev-parse --short=12 HEAD) ($(du -sk "$DIR/src/here" | cut -f1) KB)" ]
    [ "$(cat "$DIR/src/here/src/cli/archive_commit")" = "$(git rev-parse HEAD)" ]
    [ -f "$DIR/src/HEAD/configure.sh" ]
    [ ! -e "$DIR/src/here/db/reference" ]
    [ -f "$DIR/src/here/db/schema.sql" ]
    for f in include/sqlite3.h include/zlib.h include/zconf.h lib/libsqlite3.a lib/libz.a; do
        [ -s "$DIR/sysroot/$f" ]
    done
}

@test "build configures a packed tree --build-only against the sysroot and stamps the archived commit" {
    command -v nvcc > /dev/null || [ -x /usr/local/cuda/bin/nvcc ] || skip "no CUDA toolkit"
    "$ARCHIVE" pack "$DIR" t=HEAD
    run "$ARCHIVE" build "$DIR" --arch=sm_90 t -- build/version.h
    [ "$status" -eq 0 ]
    [ "$output" = "built t ($(git rev-parse --short=12 HEAD), sm_90): rc=0, ${output##*rc=0, }" ]
    grep -qx "sqlite_a = $DIR/sysroot/lib/libsqlite3.a" "$DIR/src/t/build/config.ninja"
    grep -qx "sys_incs = -isystem $DIR/sysroot/include" "$DIR/src/t/build/config.ninja"
    grep -qx "gencode = -arch=sm_90" "$DIR/src/t/build/config.ninja"
    grep -q "DRTOPK_GIT_COMMIT \"$(git rev-parse --short=12 HEAD)\"" "$DIR/src/t/build/version.h"
}

@test "version.sh stamps the archived commit inside another repository, the checkout's own commit here" {
    outer="$BATS_TEST_TMPDIR/outer"
    git init -q "$outer"
    git -C "$outer" -c user.name=t -c user.email=t@t commit -q --allow-empty -m outer
    mkdir -p "$outer/tree"
    git archive HEAD | tar -x -C "$outer/tree"
    (cd "$outer/tree" && sh src/cli/version.sh "$BATS_TEST_TMPDIR/v.h")
    grep -q "DRTOPK_GIT_COMMIT \"$(git rev-parse --short=12 HEAD)\"" "$BATS_TEST_TMPDIR/v.h"
    # a tree that is no checkout and holds no archived commit: unknown
    printf '$Format:%%H$\n' > "$outer/tree/src/cli/archive_commit"
    (cd "$outer/tree" && sh src/cli/version.sh "$BATS_TEST_TMPDIR/v2.h")
    grep -q 'DRTOPK_GIT_COMMIT "unknown"' "$BATS_TEST_TMPDIR/v2.h"
    # the checkout itself: its HEAD
    sh src/cli/version.sh "$BATS_TEST_TMPDIR/v3.h"
    grep -q "DRTOPK_GIT_COMMIT \"$(git rev-parse --short=12 HEAD)" "$BATS_TEST_TMPDIR/v3.h"
}

@test "pack and build refuse a missing commit, a bad tree name and a missing sysroot, naming them" {
    run "$ARCHIVE" pack "$DIR" no-such-commit-xyz
    [ "$status" -eq 2 ]
    [ "$output" = "archive.sh: no commit 'no-such-commit-xyz'" ]
    run "$ARCHIVE" pack "$DIR" 'a/b=HEAD'
    [ "$status" -eq 2 ]
    [ "$output" = "archive.sh: tree name 'a/b': letters, digits, '.', '_' and '-' only" ]
    mkdir -p "$BATS_TEST_TMPDIR/empty"
    run "$ARCHIVE" build "$BATS_TEST_TMPDIR/empty" --arch=sm_90
    [ "$status" -eq 2 ]
    [ "$output" = "archive.sh: $BATS_TEST_TMPDIR/empty/sysroot/include/sqlite3.h is missing: run pack first" ]
    run "$ARCHIVE" build "$BATS_TEST_TMPDIR/empty" --arch=90
    [ "$status" -eq 2 ]
    [ "$output" = "archive.sh: bad --arch '90' (expected sm_NN)" ]
}

@test "configure.sh --sysroot names the file it lacks" {
    mkdir -p "$BATS_TEST_TMPDIR/sr/include" "$BATS_TEST_TMPDIR/sr/lib"
    touch "$BATS_TEST_TMPDIR/sr/include/sqlite3.h"
    git archive HEAD configure.sh | tar -x -C "$BATS_TEST_TMPDIR"
    run "$BATS_TEST_TMPDIR/configure.sh" --build-only --no-install --sysroot="$BATS_TEST_TMPDIR/sr"
    [ "$status" -eq 2 ]
    [ "$output" = "configure: --sysroot $BATS_TEST_TMPDIR/sr has no include/zlib.h" ]
}
