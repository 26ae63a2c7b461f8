#!/usr/bin/env bash
# bench/jobs.sh: how ours scales with -j on the corpus vmlinux: median wall
# time and peak RSS of -j1, -j2 and -j8, runs alternating.
#
#   bench/jobs.sh [RUNS]      default 5
#
# Prints the table and the ratios -j2/-j1 (wall) and -j8/-j1 (peak RSS).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
[ -x build/pahole ] || { echo "bench: build first (make build)" >&2; exit 1; }
[ -x ../shared/tools/corpus ] || { echo "bench: needs ../shared (the corpus)" >&2; exit 1; }
vmlinux=$(../shared/tools/corpus build/corpus)/vmlinux-6.1.0-57-cloud-amd64
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in $(seq "$runs"); do
	for j in 1 2 8; do
		/usr/bin/time -f "%e %M" -a -o "$tmp/j$j" build/pahole -J "-j$j" --btf_features=default \
			--btf_encode_detached="$tmp/out.btf" "$vmlinux" > /dev/null 2>&1
	done
done
median() { sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'; }
printf "%-4s %10s %14s\n" jobs "wall (s)" "peak RSS (MB)"
for j in 1 2 8; do
	printf "%-4s %10s %14d\n" "-j$j" "$(median "$tmp/j$j" 1)" "$(( $(median "$tmp/j$j" 2) / 1024 ))"
done
awk -v a="$(median "$tmp/j2" 1)" -v b="$(median "$tmp/j1" 1)" 'BEGIN { printf "-j2/-j1 wall: %.2f\n", a / b }'
awk -v a="$(median "$tmp/j8" 2)" -v b="$(median "$tmp/j1" 2)" 'BEGIN { printf "-j8/-j1 peak RSS: %.2f\n", a / b }'
