#!/usr/bin/env bash
# emit_builtin.sh -- regenerates src/lib/tuning_builtin.c, the library's
# compiled-in tuning tables, from the reference results shipped in
# db/reference/*.sql.gz (SQL dumps, gzip-compressed: real tuner runs on each
# GPU model, paper section 5.2): each dump is loaded into its own database,
# merged into one, and `tuner --emit-table` writes the C source.  `ninja
# builtin-table` runs it;
# tests/bats/tuner.bats checks that the committed file is what it writes.
#
#   tuner/emit_builtin.sh [OUT.c]     (default src/lib/tuning_builtin.c)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-src/lib/tuning_builtin.c}"
tuner="${TUNER:-bin/tuner}"
command -v sqlite3 > /dev/null 2>&1 || { echo "emit_builtin: the sqlite3 shell is not installed (Debian: sqlite3)" >&2; exit 2; }
[ -x "$tuner" ] || { echo "emit_builtin: $tuner is not built (run ninja)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for dump in db/reference/*.sql.gz; do
    [ -e "$dump" ] || continue
    i=$((i + 1))
    gzip -dc "$dump" | sqlite3 -bail "$tmp/$i.sqlite"
    "$tuner" --merge "$tmp/$i.sqlite" --db "$tmp/reference.sqlite" > /dev/null
done
[ "$i" -gt 0 ] || { echo "emit_builtin: no reference dumps in db/reference/" >&2; exit 2; }
"$tuner" --emit-table "$out" --db "$tmp/reference.sqlite"
