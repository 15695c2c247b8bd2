#!/bin/sh
# embed_schema.sh -- turns db/schema.sql into a C header (one string literal)
# so that src/harness/store_schema.c carries the migrations and needs no file at run time.
#   sh db/embed_schema.sh db/schema.sql build/schema_sql.h
in="$1"
out="$2"
{
    printf '/* generated from %s by db/embed_schema.sh */\n' "$in"
    printf 'static const char drtopk_schema_sql[] =\n'
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n"/' "$in"
    printf ';\n'
} > "$out.tmp" && mv "$out.tmp" "$out"
