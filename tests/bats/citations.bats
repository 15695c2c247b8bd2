#!/usr/bin/env bats
# citations.bats -- code comments, user-facing text and docs cite the paper's
# sections or the project's documents, never an internal tracker's numbers,
# which nobody outside the project can look up.  Scans every text file of the
# source, test, experiment, figure, database and documentation trees, the
# README and the build files, for a tracker citation ("issue" or "issues"
# followed by a number, also across a line break inside a comment).

bats_require_minimum_version 1.5.0

ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
SCANNED="src kernels tuner experiments tests python figures db docs README.md build.ninja configure.sh
         setup.py pyproject.toml .ci"

# citations DIR PATHS...: one "file:line: text" per tracker citation under DIR
citations() {
    local dir="$1"
    shift
    (cd "$dir" && find "$@" -type f ! -path '*/__pycache__/*' -print0 2>/dev/null |
        xargs -0 -r perl -0777 -ne '
            next if -B $ARGV;       # binary files (images, compiled Python)
            while (/\bissues?[ \t-]*(?:\n[ \t]*(?:#|\*|--|\/\/)?[ \t]*)?#?[0-9]+/gi) {
                my $line = 1 + (substr($_, 0, $-[0]) =~ tr/\n//);
                (my $text = $&) =~ s/\s+/ /g;
                print "$ARGV:$line: $text\n";
            }')
}

@test "citations: no internal tracker numbers in code, user text or docs" {
    # shellcheck disable=SC2086 # $SCANNED is a list of paths
    run citations "$ROOT" $SCANNED
    [ "$status" -eq 0 ]
    if [ -n "$output" ]; then
        echo "cite the paper's section or a document (docs/...) instead of:" >&2
        echo "$output" >&2
        return 1
    fi
}

@test "citations: the scan finds a citation on one line and across a comment's line break" {
    local d="$BATS_TEST_TMPDIR/tree" w=issue   # the word apart, so that this file passes the scan
    mkdir -p "$d/src"
    printf 'int x; /* fixed for %s 7 */\n' "$w" > "$d/src/a.c"
    printf '/*\n * as %ss\n * 12 and 13 asked\n */\n' "$w" > "$d/src/b.c"
    printf '# the t%s 3 of a word, and an %s without a number\n' "$w" "$w" > "$d/src/c.sh"
    run citations "$d" src
    [ "$status" -eq 0 ]
    [[ "$output" == *"src/a.c:1: $w 7"* ]]
    [[ "$output" == *"src/b.c:2: ${w}s * 12"* ]]
    [[ "$output" != *"src/c.sh"* ]]
}
