#!/usr/bin/env bash
# bench/compressed.sh: what compressed DWARF costs ours and a peer, on one
# vmlinux plain and recompressed (objcopy --compress-debug-sections=zstd,
# or =zlib), runs alternating, medians printed.
#
#   bench/compressed.sh [--runs N] [--zlib] VMLINUX -- PAHOLE_OPTIONS...
#
# PAHOLE_OURS names our binary (default build/pahole), PAHOLE_PEER the peer
# (default build/upstream-debian/bin/pahole, v1.32, which reads zstd with
# sid's libdw: ../shared/tools/debian-pahole).  Each file is encoded
# detached at -j1 and -j2.  Prints wall, CPU and peak RSS per configuration
# and ours/peer's wall on each file: compression should not raise it.  A
# script, not a test: it asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5
z=zstd
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--zlib) z=zlib; shift ;;
	--) shift; break ;;
	*) vmlinux=$1; shift ;;
	esac
done
[ -n "${vmlinux:-}" ] || { sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 64; }
ours=${PAHOLE_OURS:-build/pahole}
peer=${PAHOLE_PEER:-build/upstream-debian/bin/pahole}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_compressed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
objcopy --compress-debug-sections=$z "$vmlinux" "$tmp/vmlinux.$z"
opts=$*

# run NAME BIN FILE JOBS: one timed run, appended to $tmp/NAME as "wall cpu rss_kb"
run()
{
	# shellcheck disable=SC2086
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$2" -J $opts "$4" \
		--btf_encode_detached="$tmp/out.btf" "$3" > /dev/null 2>&1
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/time" >> "$tmp/$1"
}

for _ in $(seq "$runs"); do
	for j in 1 2; do
		for f in plain $z; do
			file=$vmlinux
			[ $f = plain ] || file=$tmp/vmlinux.$z
			run "ours-$f-j$j" "$ours" "$file" "-j$j"
			run "peer-$f-j$j" "$peer" "$file" "-j$j"
		done
	done
done

median() # FILE COLUMN
{
	sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}

printf "%-16s %10s %10s %14s\n" config "wall (s)" "cpu (s)" "peak RSS (MB)"
for j in 1 2; do
	for f in plain $z; do
		for who in ours peer; do
			n=$who-$f-j$j
			printf "%-16s %10s %10s %14d\n" "$n" "$(median "$tmp/$n" 1)" \
				"$(median "$tmp/$n" 2)" $(($(median "$tmp/$n" 3) / 1024))
		done
	done
done
for j in 1 2; do
	for f in plain $z; do
		echo "ours/peer wall, $f -j$j: $(awk -v a="$(median "$tmp/ours-$f-j$j" 1)" \
			-v b="$(median "$tmp/peer-$f-j$j" 1)" 'BEGIN { printf "%.3f", a / b }')"
	done
done
