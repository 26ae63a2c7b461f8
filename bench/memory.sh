#!/usr/bin/env bash
# bench/memory.sh: the memory a kernel's BTF needs, for sizing containers.
#
#   bench/memory.sh [STEP_MB]
#
# For the corpus 6.1 and 6.12 vmlinux at -j1, -j2 and -j8, and the largest
# corpus module (nf_conntrack.ko, split on the 6.1 base) at -j1: the peak RSS
# of an unlimited run, and the smallest address-space limit (ulimit -v) from
# which every limit tried, in steps of STEP_MB (default 50) up to 2 GB,
# succeeds.  Prints a table.  A script, not a test.
set -euo pipefail
cd "$(dirname "$0")/.."
step=${1:-50}
pahole=${PAHOLE_OURS:-build/pahole}
corpus=$(../shared/tools/corpus build/corpus)
out=$(mktemp -d -p "$([ -w /dev/shm ] && echo /dev/shm || echo /tmp)")
trap 'rm -rf "$out"' EXIT

# rss OPTIONS...: the peak RSS in MB of one unlimited run.
rss()
{
	/usr/bin/time -f %M -o "$out/time" "$pahole" "$@" > /dev/null 2>&1
	echo $(($(cat "$out/time") / 1024))
}

# floor OPTIONS...: the smallest limit (MB) from which every step up to 2 GB passes.
floor()
{
	local mb best=none
	for ((mb = 2048; mb >= step; mb -= step)); do
		if (ulimit -v $((mb * 1024)) && exec "$pahole" "$@") > /dev/null 2>&1; then
			best=$mb
		else
			break
		fi
	done
	echo "$best"
}

printf "%-28s %14s %22s\n" input "peak RSS (MB)" "smallest -v (MB)"
for k in "6.1 vmlinux-6.1.0-57-cloud-amd64" "6.12 vmlinux-6.12.117+deb12-cloud-amd64"; do
	set -- $k
	for j in -j1 -j2 -j8; do
		opts=(-J "$j" --btf_features=default --btf_encode_detached="$out/o.btf" "$corpus/$2")
		printf "%-28s %14s %22s\n" "$1 vmlinux $j" "$(rss "${opts[@]}")" "$(floor "${opts[@]}")"
	done
done
opts=(-J -j1 --btf_features=default --btf_base "$corpus/reference/vmlinux.default.btf"
	--btf_encode_detached="$out/o.btf" "$corpus/modules/nf_conntrack.ko")
printf "%-28s %14s %22s\n" "nf_conntrack.ko -j1" "$(rss "${opts[@]}")" "$(floor "${opts[@]}")"
