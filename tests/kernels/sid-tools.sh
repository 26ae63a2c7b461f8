#!/usr/bin/env bash
# sid-tools.sh - what a Linux 7.2 kernel with Rust needs that Debian 12 lacks,
# from Debian unstable (sid): the kernel's source and bindgen.
#
# Usage:
#   tests/kernels/sid-tools.sh OUTDIR
#
# Downloads sid's linux-source-7.2 and bindgen (0.72; 7.2 wants 0.71.1 or
# later) with the C library bindgen is built for, through an apt list of
# its own (the system's lists are left as they are), unpacks them into
# OUTDIR/root, and writes OUTDIR/bin/bindgen: a wrapper that starts sid's
# bindgen with sid's dynamic loader and C library, on Debian 12's libclang
# 22 (LIBCLANG_PATH, from libclang-22-dev).  Prints two lines for
# build-kernel.sh:
#   KSRC_TARBALL=OUTDIR/root/usr/src/linux-source-7.2.tar.xz
#   BINDGEN=OUTDIR/bin/bindgen
# Idempotent.  Needs apt-get (as root) and the Debian mirror this machine uses.
set -euo pipefail
out=${1:?usage: sid-tools.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tarball=$out/root/usr/src/linux-source-7.2.tar.xz
report()
{
	echo "KSRC_TARBALL=$tarball"
	echo "BINDGEN=$out/bin/bindgen"
}
[ -x "$out/bin/bindgen" ] && [ -f "$tarball" ] && { report; exit 0; }

apt=$out/apt
mkdir -p "$apt/lists/partial" "$apt/debs"
uri=$({ cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2> /dev/null || true; } |
	grep -E "^URIs:|^deb " | grep -v '\[' | head -1 | awk '{print $2}')
[ -n "$uri" ] || { echo "sid-tools: no Debian mirror found in /etc/apt" >&2; exit 1; }
echo "deb [trusted=yes] $uri sid main" > "$apt/sid.list"
A=(-o Dir::Etc::sourcelist="$apt/sid.list" -o Dir::Etc::sourceparts=-
	-o Dir::State::Lists="$apt/lists" -o APT::Get::List-Cleanup=0)
apt-get "${A[@]}" update > "$apt/update.log" 2>&1 || { tail -3 "$apt/update.log" >&2; exit 1; }
for p in linux-source-7.2 bindgen libc6 libgcc-s1; do
	(cd "$apt/debs" && apt-get "${A[@]}" download "$p" > /dev/null 2>&1) ||
		{ echo "sid-tools: cannot download $p from sid" >&2; exit 1; }
done
rm -rf "$out/root"
mkdir -p "$out/root" "$out/bin"
for d in "$apt"/debs/*.deb; do dpkg-deb -x "$d" "$out/root"; done
lib=$out/root/usr/lib/x86_64-linux-gnu
libclang=${LIBCLANG_PATH:-/usr/lib/llvm-22/lib}
printf '#!/bin/sh\nLIBCLANG_PATH=%s exec %s --library-path %s %s "$@"\n' \
	"$libclang" "$lib/ld-linux-x86-64.so.2" "$lib" "$out/root/usr/bin/bindgen" > "$out/bin/bindgen"
chmod +x "$out/bin/bindgen"
"$out/bin/bindgen" --version > /dev/null || { echo "sid-tools: sid's bindgen does not run" >&2; exit 1; }
report
