#!/usr/bin/env bats
# readme.bats -- every command in README.md and docs/*.md runs as written.
# Each fenced code block names its kind after the opening fence:
#   ```sh [TAG]      shell lines, run with bash -e from the repository root
#   ```c NAME.c [TAG]  a C program, compiled against the build tree's static
#                    library and run (it must exit 0)
#   ```python [TAG]  run with the package of the tree (PYTHONPATH=python)
#   ```text          output or a synopsis, never run
# and TAG says why a block is not run here: gpu (needs a GPU; a C block is
# still compiled where the CUDA toolkit is installed), setup
# (configures, builds or installs: the set-up this test runs on), long (takes
# minutes; its checks live in the test named beside it in the doc).  Each
# skipped block is reported on the TAP stream with its file, line and tag.
# Blocks run in document order in one scratch directory per document, which
# holds a link to every top-level entry of the repository: a block sees the
# tree as from its root, and the files it writes stay in the scratch
# directory.  Runs on a CPU-only build (./configure.sh --cpu-only); a block
# that needs a GPU must say so.

bats_require_minimum_version 1.5.0

ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
BLOCK_TIMEOUT=300        # seconds a block may run: the slowest CPU block takes a few
KINDS="sh c python text" # the kinds a block may name
TAGS="gpu setup long"    # the reasons a block may give for not running here

setup_file() {
    [ -x "$ROOT/bin/drtopk" ] && [ -f "$ROOT/build/libdrtopk.a" ] && [ -f "$ROOT/build/drtopk.pc" ] ||
        { echo "readme.bats: bin/drtopk, build/libdrtopk.a or build/drtopk.pc missing (run ninja first)" >&2; return 1; }
    # hermetic: no tuning from a results database lying in the tree
    export DRTOPK_DB="$BATS_FILE_TMPDIR/no-tuning.sqlite"
}

# blocks FILE: one line per fenced block, "LINE<TAB>KIND<TAB>WORDS...", and
# its body in $BATS_TEST_TMPDIR/blocks/LINE.  An unterminated block is an error.
blocks() {
    local dir="$BATS_TEST_TMPDIR/blocks"
    mkdir -p "$dir"
    awk -v dir="$dir" '
        !inb && /^```/ { inb = 1; start = NR; info = substr($0, 4); body = dir "/" NR; printf "" > body
                         n = split(info, w, " "); kind = n ? w[1] : "-"; rest = ""
                         for (i = 2; i <= n; ++i) rest = rest " " w[i]
                         print NR "\t" kind "\t" substr(rest, 2); next }
        inb && /^```[ \t]*$/ { inb = 0; close(body); next }
        inb { print > body }
        END { if (inb) { print "unterminated code block opened at line " start > "/dev/stderr"; exit 1 } }
    ' "$1"
}

in_list() { case " $2 " in *" $1 "*) return 0 ;; esac; return 1; }

find_python() {
    for py in "${DRTOPK_PYTHON:-}" python3 /usr/bin/python3; do
        [ -n "$py" ] && "$py" -c 'import numpy' 2>/dev/null && { PY="$py"; return 0; }
    done
    echo "no python3 with numpy: run ./configure.sh (it installs python3-numpy)" >&2
    return 1
}

# scratch DIR: DIR with a link to every top-level entry of the repository
scratch() {
    mkdir -p "$1"
    local e
    for e in "$ROOT"/* "$ROOT"/.[!.]*; do
        [ -e "$e" ] && ln -s "$e" "$1/$(basename "$e")"
    done
}

# cuda_include: CUDA_INC, the CUDA runtime's header folder when the toolkit is
# installed (a gpu-tagged C block is then compiled, not run), else empty
cuda_include() {
    local nvcc
    CUDA_INC=
    nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    [ -f "$(dirname "$nvcc")/../include/cuda_runtime.h" ] && CUDA_INC="$(dirname "$nvcc")/../include"
    return 0
}

# run_doc FILE: run FILE's blocks as the header says; fail naming the first
# block that fails, with its output.  Every block reads /dev/null: the list of
# blocks is this loop's stdin, and a command that reads stdin (mpirun does)
# would otherwise swallow the blocks after it unrun.
run_doc() {
    local doc="$ROOT/$1" work="$BATS_TEST_TMPDIR/work" list line kind words tag name rc libs
    [ -f "$doc" ] || { echo "$1 does not exist" >&2; return 1; }
    scratch "$work"
    list=$(blocks "$doc") || return 1
    libs=$(sed -n 's/^Libs.private: *//p' "$ROOT/build/drtopk.pc")
    cuda_include
    while IFS=$'\t' read -r line kind words; do
        [ -n "$line" ] || continue
        name=
        [ "$kind" = c ] && { name=${words%% *}; words=${words#"$name"}; words=${words# }; }
        tag=$words
        if [ -n "$tag" ]; then
            if [ "$kind" = c ] && [ "$tag" = gpu ] && [ -n "$CUDA_INC" ]; then
                # not run, but compiled: the CUDA runtime's headers are here
                cp "$BATS_TEST_TMPDIR/blocks/$line" "$work/$name"
                (cd "$work" && cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I src/lib -I "$CUDA_INC" "$name") \
                    > "$BATS_TEST_TMPDIR/out" 2>&1 ||
                    { echo "$1:$line: the c block does not compile:" >&2; sed 's/^/    /' "$BATS_TEST_TMPDIR/out" >&2; return 1; }
                echo "# $1:$line: c block compiled, not run ($tag)" >&3
                continue
            fi
            echo "# $1:$line: $kind block skipped ($tag)" >&3
            continue
        fi
        rc=0
        case "$kind" in
        text) continue ;;
        sh)
            (cd "$work" && timeout "$BLOCK_TIMEOUT" bash -e -o pipefail "$BATS_TEST_TMPDIR/blocks/$line") \
                < /dev/null > "$BATS_TEST_TMPDIR/out" 2>&1 || rc=$? ;;
        python)
            find_python || return 1
            (cd "$work" && PYTHONPATH="$ROOT/python" timeout "$BLOCK_TIMEOUT" "$PY" "$BATS_TEST_TMPDIR/blocks/$line") \
                < /dev/null > "$BATS_TEST_TMPDIR/out" 2>&1 || rc=$? ;;
        c)
            cp "$BATS_TEST_TMPDIR/blocks/$line" "$work/$name"
            # shellcheck disable=SC2086 # $libs is a list of linker flags
            (cd "$work" && cc -std=c11 -Wall -Wextra -Werror -I src/lib "$name" -o "${name%.c}" \
                build/libdrtopk.a $libs && timeout "$BLOCK_TIMEOUT" "./${name%.c}") < /dev/null > "$BATS_TEST_TMPDIR/out" 2>&1 || rc=$? ;;
        esac
        if [ "$rc" -ne 0 ]; then
            echo "$1:$line: the $kind block failed (exit $rc):" >&2
            sed 's/^/    /' "$BATS_TEST_TMPDIR/out" >&2
            return 1
        fi
    done <<< "$list"
}

# the documents this file runs: the README and every page of docs/
documents() {
    echo README.md
    (cd "$ROOT" && ls docs/*.md)
}

@test "readme: every code block names a known kind, tag and file name" {
    local doc line kind words bad=0
    for doc in $(documents); do
        while IFS=$'\t' read -r line kind words; do
            [ -n "$line" ] || continue
            if ! in_list "$kind" "$KINDS"; then
                echo "$doc:$line: block of kind '$kind': give one of $KINDS after the fence" >&2
                bad=1
                continue
            fi
            local w=($words)
            if [ "$kind" = c ]; then
                [[ "${w[0]:-}" == *.c ]] || { echo "$doc:$line: a c block names its file first (\`\`\`c name.c)" >&2; bad=1; }
                w=("${w[@]:1}")
            fi
            [ "${#w[@]}" -le 1 ] && { [ "${#w[@]}" -eq 0 ] || in_list "${w[0]}" "$TAGS"; } ||
                { echo "$doc:$line: tag '${w[*]}' is not one of: $TAGS" >&2; bad=1; }
        done <<< "$(blocks "$ROOT/$doc")"
    done
    [ "$bad" -eq 0 ]
}

@test "readme: the checker catches an untagged block and a failing one" {
    mkdir -p "$BATS_TEST_TMPDIR/fake/docs"
    printf '# x\n\n```sh\nfalse\n```\n' > "$BATS_TEST_TMPDIR/fake/docs/fail.md"
    ROOT_SAVED=$ROOT
    # a failing block fails run_doc and names its line
    ROOT="$BATS_TEST_TMPDIR/fake"
    ln -s "$ROOT_SAVED/build" "$ROOT/build"
    run run_doc docs/fail.md
    ROOT=$ROOT_SAVED
    [ "$status" -ne 0 ]
    [[ "$output" == *"docs/fail.md:3: the sh block failed"* ]]
    # a block that reads stdin (as mpirun does) leaves the blocks after it to run
    printf '# x\n\n```sh\ncat > /dev/null\n```\n\n```sh\nfalse\n```\n' > "$BATS_TEST_TMPDIR/fake/docs/stdin.md"
    ROOT="$BATS_TEST_TMPDIR/fake"
    run run_doc docs/stdin.md
    ROOT=$ROOT_SAVED
    [ "$status" -ne 0 ]
    [[ "$output" == *"docs/stdin.md:7: the sh block failed"* ]]
    # a block with no kind is reported by blocks() as kind "-"
    printf '```\nls\n```\n' > "$BATS_TEST_TMPDIR/fake/untagged.md"
    run blocks "$BATS_TEST_TMPDIR/fake/untagged.md"
    [[ "$output" == "1"$'\t'"-"$'\t'* ]]
}

@test "readme: README.md" { run_doc README.md; }
@test "readme: docs/artifact.md" { run_doc docs/artifact.md; }
@test "readme: docs/architecture.md" { run_doc docs/architecture.md; }
@test "readme: docs/c-api.md" { run_doc docs/c-api.md; }
@test "readme: docs/changelog.md" { run_doc docs/changelog.md; }
@test "readme: docs/cli.md" { run_doc docs/cli.md; }
@test "readme: docs/maintainers.md" { run_doc docs/maintainers.md; }
@test "readme: docs/multi-gpu.md" { run_doc docs/multi-gpu.md; }
@test "readme: docs/performance.md" { run_doc docs/performance.md; }
@test "readme: docs/python.md" { run_doc docs/python.md; }
@test "readme: docs/tuning.md" { run_doc docs/tuning.md; }

@test "readme: every page of docs/ has its test above" {
    local doc
    for doc in $(documents); do
        grep -q "^@test \"readme: $doc\"" "$BATS_TEST_FILENAME" ||
            { echo "$doc has no @test in readme.bats: add one" >&2; return 1; }
    done
}

@test "readme: every relative link of the documents names a file that exists" {
    local doc target bad=0
    for doc in $(documents); do
        # [text](target): targets without a scheme, the #anchor cut off
        while IFS= read -r target; do
            target=${target%%#*}
            [ -n "$target" ] || continue
            [ -e "$(dirname "$ROOT/$doc")/$target" ] || { echo "$doc: link to $target: no such file" >&2; bad=1; }
        done < <(grep -o '](\([^)]*\))' "$ROOT/$doc" | sed 's/^](\(.*\))$/\1/' | grep -v '^[a-z]*:')
    done
    [ "$bad" -eq 0 ]
}

@test "readme: every reference dump is in performance.md's table of dumps, and the table names no other" {
    local table dump name bad=0
    table=$(sed -n '/^## Reference dumps/,/^## /p' "$ROOT/docs/performance.md" | grep '^| `')
    [ -n "$table" ]
    for dump in "$ROOT"/db/reference/*.sql.gz; do
        name=$(basename "$dump" .sql.gz)
        grep -q "\`$name\`" <<< "$table" || { echo "db/reference/$name.sql.gz is not in docs/performance.md's table of dumps" >&2; bad=1; }
    done
    # the other way: a name in the table's first column with no dump
    while IFS= read -r name; do
        [ -e "$ROOT/db/reference/$name.sql.gz" ] || { echo "docs/performance.md's table names $name: no such dump" >&2; bad=1; }
    done < <(cut -d'|' -f2 <<< "$table" | grep -o '`[^`]*`' | tr -d '`')
    [ "$bad" -eq 0 ]
}
