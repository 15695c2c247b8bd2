#!/bin/sh
# install.sh -- `ninja install`: copies the public header, the static and the
# shared library (with its soname link) and drtopk.pc under PREFIX, staged
# under $DESTDIR when that is set (packaging, and tests/bats/install.bats).
#
#   [DESTDIR=DIR] sh src/lib/install.sh PREFIX SO_VERSION
set -eu
[ $# -eq 2 ] || { echo "usage: install.sh PREFIX SO_VERSION" >&2; exit 2; }
root="${DESTDIR:-}$1"
so="libdrtopk.so.$2"
install -d "$root/include" "$root/lib/pkgconfig"
install -m 644 src/lib/drtopk.h "$root/include/drtopk.h"
install -m 644 build/libdrtopk.a "$root/lib/libdrtopk.a"
install -m 755 build/libdrtopk.so "$root/lib/$so"
ln -sf "$so" "$root/lib/libdrtopk.so"
install -m 644 build/drtopk.pc "$root/lib/pkgconfig/drtopk.pc"
echo "installed into $root: include/drtopk.h, lib/libdrtopk.a, lib/$so, lib/libdrtopk.so, lib/pkgconfig/drtopk.pc"
