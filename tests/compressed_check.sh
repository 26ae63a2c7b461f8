#!/usr/bin/env bash
# compressed_check.sh: a kernel's vmlinux and every module recompressed with
# zstd and with zlib (objcopy --compress-debug-sections), each encoded by
# our pahole in both releases, against the BTF of the uncompressed file:
# the same bytes.  For developers (docs/status.md); CI runs
# tests/test_compressed.sh.
#
#   tests/compressed_check.sh [--jobs N] [--sample K] KDIR -- PAHOLE_OPTIONS...
#
# KDIR holds vmlinux and modules/ (../shared/tools/debian-kernel makes it).
# Modules are split on ours' BTF of the plain vmlinux, in each release.
# --sample K takes every K-th module.  Prints a line per release and
# compression with how many files gave the same bytes, then each that did
# not; exit 0 only when all did.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
pahole=${PAHOLE:-$top/build/pahole}
jobs=$(nproc)
sample=1
while [ $# -gt 0 ]; do
	case $1 in
	--jobs) jobs=$2; shift 2 ;;
	--sample) sample=$2; shift 2 ;;
	--) shift; break ;;
	*) kdir=$1; shift ;;
	esac
done
[ -n "${kdir:-}" ] && [ -e "$kdir/vmlinux" ] || {
	sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 64
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compressed_check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export pahole tmp
opts=$*
export opts
bad=0

# one FILE REL [BASE]: FILE plain, zstd and zlib; prints "REL Z same|DIFF NAME".
one()
{
	local f=$1 rel=$2 base=${3:-} n z b=()
	n=$(basename "$f")
	[ -n "$base" ] && b=(--btf_base "$base")
	# shellcheck disable=SC2086
	PAHOLE_COMPAT=$rel "$pahole" -J $opts "${b[@]}" --btf_encode_detached="$tmp/$n.$rel.btf" \
		"$f" 2> /dev/null
	for z in zstd zlib; do
		objcopy --compress-debug-sections=$z "$f" "$tmp/$n.$rel.$z" 2> /dev/null
		# shellcheck disable=SC2086
		PAHOLE_COMPAT=$rel "$pahole" -J $opts "${b[@]}" \
			--btf_encode_detached="$tmp/$n.$rel.$z.btf" "$tmp/$n.$rel.$z" 2> "$tmp/$n.err"
		if [ -s "$tmp/$n.$rel.btf" ] && cmp -s "$tmp/$n.$rel.btf" "$tmp/$n.$rel.$z.btf"; then
			echo "$rel $z same $n"
		else
			echo "$rel $z DIFF $n $(head -n 1 "$tmp/$n.err")"
		fi
		rm -f "$tmp/$n.$rel.$z" "$tmp/$n.$rel.$z.btf"
	done
	[ -n "$base" ] && rm -f "$tmp/$n.$rel.btf"
}
export -f one

for rel in v1.31 v1.32; do
	one "$kdir/vmlinux" $rel > "$tmp/vmlinux.$rel.out"
	cp "$tmp/vmlinux.$rel.btf" "$tmp/base.$rel.btf"
	find -L "$kdir/modules" -name '*.ko' | sort | awk -v k="$sample" '(NR - 1) % k == 0' |
		xargs -P "$jobs" -I{} bash -c 'one "$1" "$2" "$3"' _ {} $rel "$tmp/base.$rel.btf" \
			> "$tmp/modules.$rel.out"
	for z in zstd zlib; do
		total=$(cat "$tmp/vmlinux.$rel.out" "$tmp/modules.$rel.out" | grep -c "^$rel $z ")
		same=$(cat "$tmp/vmlinux.$rel.out" "$tmp/modules.$rel.out" | grep -c "^$rel $z same ")
		echo "$rel $z: $same of $total files (vmlinux and modules) the same bytes"
		[ "$same" -eq "$total" ] || bad=1
	done
	grep -h DIFF "$tmp/vmlinux.$rel.out" "$tmp/modules.$rel.out" | head -n 20
done
exit $bad
