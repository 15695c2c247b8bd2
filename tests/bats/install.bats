#!/usr/bin/env bats
# install.bats -- `ninja install` and the installed library as its users see
# it.  The install is staged under a temporary DESTDIR, so
# the tree keeps its configuration and nothing is rebuilt; out of the tree, a
# small C program (shared library) and a small C++ program (static archive)
# build with pkg-config alone (tests/install/topk.{c,cpp}) and select a top-k
# on the CPU backend; the installed libraries hold no SQLite and export only
# drtopk_* symbols.

bats_require_minimum_version 1.5.0

ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"

setup_file() {
    export PREFIX STAGE INST
    PREFIX=$(sed -n 's/^prefix = //p' "$ROOT/build/config.ninja")
    [ -n "$PREFIX" ] || { echo "no prefix in build/config.ninja: run ./configure.sh" >&2; return 1; }
    STAGE="$BATS_FILE_TMPDIR/stage"
    INST="$STAGE$PREFIX"
    DESTDIR="$STAGE" ninja -C "$ROOT" install > "$BATS_FILE_TMPDIR/install.log" 2>&1 ||
        { cat "$BATS_FILE_TMPDIR/install.log" >&2; return 1; }
}

# pkg-config over the staged copy (its prefix moved under DESTDIR), with the
# flags on one line, single spaces, none at the ends
pc() {
    local flags
    flags=$(PKG_CONFIG_PATH="$INST/lib/pkgconfig" pkg-config --define-variable=prefix="$INST" "$@" drtopk) ||
        return 1
    echo $flags
}

@test "ninja install puts the header, both libraries and drtopk.pc under the prefix" {
    [ -f "$INST/include/drtopk.h" ]
    [ -f "$INST/lib/libdrtopk.a" ]
    [ -f "$INST/lib/libdrtopk.so.0" ]
    [ "$(readlink "$INST/lib/libdrtopk.so")" = libdrtopk.so.0 ]
    [ -f "$INST/lib/pkgconfig/drtopk.pc" ]
    # the shared library's soname is the installed file's name
    objdump -p "$INST/lib/libdrtopk.so.0" | grep -q 'SONAME *libdrtopk.so.0'
    # drtopk.pc: the configured prefix and the header's version
    grep -qx "prefix=$PREFIX" "$INST/lib/pkgconfig/drtopk.pc"
    major=$(sed -n 's/^#define DRTOPK_VERSION_MAJOR *//p' "$ROOT/src/lib/drtopk.h")
    minor=$(sed -n 's/^#define DRTOPK_VERSION_MINOR *//p' "$ROOT/src/lib/drtopk.h")
    [ "$(pc --modversion)" = "$major.$minor" ]
    [ "$(pc --cflags)" = "-I$INST/include" ]
    [ "$(pc --libs)" = "-L$INST/lib -Wl,-rpath,$INST/lib -ldrtopk" ]
    # the static archive's needs: the CUDA runtime with the CUDA backend, libm
    # always (a ./configure.sh --sanitize build adds the sanitizers' flags, which
    # a program linking its archive needs too)
    static=$(pc --static --libs)
    if grep -q '^sanitize = yes' "$ROOT/build/config.ninja"; then
        [[ "$static" == *"-fsanitize="* ]]
        static=$(tr ' ' '\n' <<< "$static" | grep -Ev '^-f(no-)?sanitize|^-fno-omit-frame-pointer$' | paste -sd ' ')
    fi
    if grep -q '^backend = cuda' "$ROOT/build/config.ninja"; then
        [[ "$static" == *"-lcudart_static -lstdc++ -ldl -lrt -lpthread -lm" ]]
    else
        [ "$static" = "-L$INST/lib -Wl,-rpath,$INST/lib -ldrtopk -lm" ]
    fi
}

@test "a C program builds out of the tree against the installed shared library and runs from that prefix" {
    cd "$BATS_TEST_TMPDIR"
    cp "$ROOT/tests/install/topk.c" .
    cc -std=c11 -Wall -Wextra -Werror -o topk_c topk.c $(pc --cflags --libs)
    # no LD_LIBRARY_PATH: the rpath of drtopk.pc's Libs finds the library under the prefix
    [[ "$(env -u LD_LIBRARY_PATH ldd ./topk_c)" == *"libdrtopk.so.0 => $INST/lib/libdrtopk.so.0"* ]]
    run env -u LD_LIBRARY_PATH ./topk_c
    [ "$status" -eq 0 ]
    [[ "$output" == "ok: "*"from C" ]]
}

@test "a C++ program builds out of the tree against the installed static archive and selects a top-k" {
    cd "$BATS_TEST_TMPDIR"
    cp "$ROOT/tests/install/topk.cpp" .
    # -l:libdrtopk.a: the archive, though the shared library lies beside it
    c++ -std=c++17 -Wall -Wextra -Werror -o topk_cpp topk.cpp $(pc --cflags) \
        $(pc --static --libs | sed 's/-ldrtopk/-l:libdrtopk.a/')
    [[ "$(ldd ./topk_cpp)" != *libdrtopk* ]]
    run ./topk_cpp
    [ "$status" -eq 0 ]
    [[ "$output" == "ok: "*"from C++" ]]
}

@test "the installed libraries hold no SQLite and export only drtopk_* symbols" {
    for lib in "$INST/lib/libdrtopk.a" "$INST/lib/libdrtopk.so.0"; do
        run nm "$lib"
        [ "$status" -eq 0 ]
        [[ "${output,,}" != *sqlite* ]]
    done
    # defined global symbols (the archive) and dynamic exports (the shared library)
    run nm -g --defined-only "$INST/lib/libdrtopk.a"
    [ "$status" -eq 0 ]
    api=$(awk 'NF == 3 { print $3 }' <<< "$output")
    [ -n "$api" ]
    bad=$(grep -v '^drtopk_' <<< "$api" || true)
    [ -z "$bad" ] || { echo "unprefixed in libdrtopk.a: $bad" >&2; false; }
    run nm -D --defined-only "$INST/lib/libdrtopk.so.0"
    [ "$status" -eq 0 ]
    bad=$(awk 'NF == 3 { print $3 }' <<< "$output" | grep -v '^drtopk_' || true)
    [ -z "$bad" ] || { echo "unprefixed in libdrtopk.so.0: $bad" >&2; false; }
    # and every public function of drtopk.h is exported by both
    for f in drtopk_plan_auto drtopk_plan_rule4 drtopk_select drtopk_select_workspace drtopk_last_error; do
        grep -qx "$f" <<< "$api"
        grep -q " T $f\$" <<< "$output"
    done
}
