#!/usr/bin/env bash
# same_bytes.sh: a kernel's vmlinux and every module encoded by two builds
# of ours (the one before a change and the one after), in both releases:
# the same bytes.  For developers, before each commit that should change no
# output (docs/testing.md); CI compares with the releases instead.
#
#   tests/same_bytes.sh [--jobs N] [--sample K] OLD NEW KDIR -- PAHOLE_OPTIONS...
#
# KDIR holds vmlinux and modules/ (../shared/tools/debian-kernel makes it).
# Modules are split on each build's own BTF of the vmlinux, in each release.
# --sample K takes every K-th module.  Prints a line per release with how
# many files gave the same bytes, then each that did not; exit 0 only when
# all did.
set -u
jobs=$(nproc)
sample=1
args=()
while [ $# -gt 0 ]; do
	case $1 in
	--jobs) jobs=$2; shift 2 ;;
	--sample) sample=$2; shift 2 ;;
	--) shift; break ;;
	*) args+=("$1"); shift ;;
	esac
done
if [ ${#args[@]} -ne 3 ] || [ ! -x "${args[0]}" ] || [ ! -x "${args[1]}" ] ||
	[ ! -e "${args[2]}/vmlinux" ]; then
	sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 64
fi
old=${args[0]} new=${args[1]} kdir=${args[2]}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/same_bytes.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
opts=$*
export old new tmp opts
bad=0

# one FILE REL [BASE]: FILE by both builds; prints "same|DIFF NAME".
one()
{
	local f=$1 rel=$2 n w b=() s=()
	n=$(basename "$f")
	for w in old new; do
		b=()
		[ -n "${3:-}" ] && b=(--btf_base "$3.$w")
		# shellcheck disable=SC2086
		PAHOLE_COMPAT=$rel "${!w}" -J $opts "${b[@]}" \
			--btf_encode_detached="$tmp/$n.$rel.$w" "$f" 2> "$tmp/$n.$rel.$w.err"
		s+=($?)
	done
	if [ "${s[0]}" = "${s[1]}" ] && cmp -s "$tmp/$n.$rel.old.err" "$tmp/$n.$rel.new.err" &&
		{ [ ! -e "$tmp/$n.$rel.old" ] && [ ! -e "$tmp/$n.$rel.new" ] ||
		  cmp -s "$tmp/$n.$rel.old" "$tmp/$n.$rel.new"; }; then
		echo "same $n"
	else
		echo "DIFF $n (exit ${s[0]} and ${s[1]})"
	fi
	[ -n "${3:-}" ] && rm -f "$tmp/$n.$rel".*
}
export -f one

# shellcheck disable=SC2016 # xargs's bash -c expands its own arguments
for rel in v1.31 v1.32; do
	one "$kdir/vmlinux" $rel > "$tmp/out.$rel"
	for w in old new; do
		cp "$tmp/vmlinux.$rel.$w" "$tmp/base.$rel.$w" 2> /dev/null
	done
	find -L "$kdir/modules" -name '*.ko' | sort | awk -v k="$sample" '(NR - 1) % k == 0' |
		xargs -P "$jobs" -I{} bash -c 'one "$1" "$2" "$3"' _ {} $rel "$tmp/base.$rel" \
			>> "$tmp/out.$rel"
	echo "$rel: $(grep -c '^same ' "$tmp/out.$rel") of $(wc -l < "$tmp/out.$rel") files" \
		"(vmlinux and modules) the same bytes"
	grep DIFF "$tmp/out.$rel" | head -n 20
	grep -q DIFF "$tmp/out.$rel" && bad=1
done
exit $bad
