#!/bin/sh
# pkgconfig.sh -- writes drtopk.pc (pkg-config) from its template at build
# time: the install prefix, the version from drtopk.h's DRTOPK_VERSION_MAJOR
# and _MINOR, and the static archive's private link flags.
#
#   sh src/lib/pkgconfig.sh TEMPLATE HEADER PREFIX "LIBS_PRIVATE" > drtopk.pc
set -eu
[ $# -eq 4 ] || { echo "usage: pkgconfig.sh TEMPLATE HEADER PREFIX LIBS_PRIVATE" >&2; exit 2; }
version_part() { sed -n "s/^#define DRTOPK_VERSION_$1 *\([0-9][0-9]*\).*/\1/p" "$2"; }
major=$(version_part MAJOR "$2")
minor=$(version_part MINOR "$2")
[ -n "$major" ] && [ -n "$minor" ] || { echo "pkgconfig.sh: no DRTOPK_VERSION_MAJOR/MINOR in $2" >&2; exit 1; }
libs_private=$(echo $4)     # unquoted: one space between flags, none at the ends
sed -e "s|@prefix@|$3|" -e "s|@version@|$major.$minor|" -e "s|@libs_private@|$libs_private|" "$1"
