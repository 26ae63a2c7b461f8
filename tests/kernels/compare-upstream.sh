#!/usr/bin/env bash
# compare-upstream.sh - encode a kernel built by build-kernel.sh (its vmlinux
# and modules) with our pahole and with upstream's, and count the
# differences (btfcanon) and whether ours gives the same bytes at -j1 and -j2.
#
# Usage:
#   tests/kernels/compare-upstream.sh OUTDIR [FEATURES]
#     OUTDIR    what build-kernel.sh made: OUTDIR/out/vmlinux, OUTDIR/out/*.ko
#     FEATURES  --btf_features list (default: default)
#
# Environment:
#   PAHOLE           ours (default: build/pahole; PAHOLE_COMPAT=v1.31 makes it
#                    v1.31, to compare with v1.31)
#   OPTS             more options for both, e.g. "--lang_exclude=rust" (a
#                    kernel with Rust: its own scripts pass it)
#   UPSTREAM_PAHOLE  upstream's (default: build/upstream-v1.31/build/pahole;
#                    ../shared/tools/upstream-pahole builds it)
#
# Prints a line per file: "FILE: N differences, -j1/-j2 same bytes" (or
# that upstream wrote nothing, then ours' size) and exits 1 if any file
# differs, or if ours gives other bytes at -j2.  The
# modules are split BTF over upstream's vmlinux BTF, for both.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: compare-upstream.sh OUTDIR [FEATURES]}/out
features=${2:-default}
OPTS=${OPTS:-}
ours=${PAHOLE:-$top/build/pahole}
upstream=${UPSTREAM_PAHOLE:-$top/build/upstream-v1.31/build/pahole}
btfcanon=$top/../shared/tools/btfcanon
for f in "$ours" "$upstream"; do
	[ -x "$f" ] || { echo "compare-upstream: $f is not executable" >&2; exit 2; }
done
[ -e "$btfcanon" ] || { echo "compare-upstream: $btfcanon is missing" >&2; exit 2; }
[ -f "$out/vmlinux" ] || { echo "compare-upstream: no $out/vmlinux" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0

# compare LABEL FILE [BASE]: one file, both ways.
compare()
{
	local label=$1 file=$2 base=${3:-} diffs same=same opts=(-J --btf_features="$features" $OPTS)
	[ -z "$base" ] || opts+=(--btf_base "$base")
	rm -f "$tmp/up.btf"
	"$upstream" "${opts[@]}" -j --btf_encode_detached="$tmp/up.btf" "$file" > /dev/null || true
	"$ours" "${opts[@]}" -j1 --btf_encode_detached="$tmp/j1.btf" "$file"
	"$ours" "${opts[@]}" -j2 --btf_encode_detached="$tmp/j2.btf" "$file"
	cmp -s "$tmp/j1.btf" "$tmp/j2.btf" || { same="OTHER"; bad=1; }
	# Where upstream writes nothing (a module of Rust's units first, with
	# LTO: README, Rust), there is nothing to compare with.
	if [ ! -s "$tmp/up.btf" ]; then
		echo "$label: upstream wrote nothing; ours $(stat -c %s "$tmp/j1.btf") bytes, -j1/-j2 $same bytes"
		return
	fi
	if [ -z "$base" ]; then
		diffs=$(python3 "$btfcanon" diff "$tmp/up.btf" "$tmp/j1.btf" | tail -n 1)
	else
		diffs=$(python3 "$btfcanon" diff --base-a "$base" --base-b "$base" \
			"$tmp/up.btf" "$tmp/j1.btf" | tail -n 1)
	fi
	diffs=${diffs#differences: }
	[ "$diffs" = 0 ] || bad=1
	echo "$label: $diffs differences, -j1/-j2 $same bytes"
}

compare vmlinux "$out/vmlinux"
# shellcheck disable=SC2086
"$upstream" -J --btf_features="$features" $OPTS -j --btf_encode_detached="$tmp/vmlinux.btf" \
	"$out/vmlinux" > /dev/null
for ko in "$out"/*.ko; do
	[ -e "$ko" ] || continue
	compare "$(basename "$ko")" "$ko" "$tmp/vmlinux.btf"
done
exit $bad
