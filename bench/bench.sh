#!/usr/bin/env bash
# bench/bench.sh: wall time, CPU time and peak RSS of build/pahole against a
# peer pahole on the corpus vmlinux, runs alternating, medians printed.
#
#   bench/bench.sh [RUNS]          default 5 runs of each configuration
#
# PAHOLE_OURS names our binary (default build/pahole), e.g. a build of an
# earlier commit to compare with.  PAHOLE_PEER names the peer binary
# (default: the installed pahole, Debian's 1.24).  Each runs with the options Linux 6.1's scripts/pahole-flags.sh gives
# its version: ours -J --btf_features=default, 1.24 -J --btf_gen_floats
# --lang_exclude=rust; both with --btf_encode_detached, at -j1 and -j2.
# BENCH_FEATURES replaces "default" for ours and for a peer after 1.24, e.g.
# default,true_signature against upstream 1436daf.
# Prints a table and the ratios ours/peer and ours -j2 / ours -j1, and the
# phase times of one -V run of ours.  A script, not a test: it asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shared=../shared
peer=${PAHOLE_PEER:-$(command -v pahole || true)}
ours=${PAHOLE_OURS:-build/pahole}
[ -x "$ours" ] || { echo "bench: build first (make build)" >&2; exit 1; }
[ -n "$peer" ] && [ -x "$peer" ] || { echo "bench: no peer pahole (apt-get install dwarves, or PAHOLE_PEER=...)" >&2; exit 1; }
[ -x "$shared/tools/corpus" ] || { echo "bench: needs ../shared (the corpus)" >&2; exit 1; }
corpus=$("$shared/tools/corpus" build/corpus)
vmlinux=$corpus/vmlinux-6.1.0-57-cloud-amd64
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

features=${BENCH_FEATURES:-default}
ours_opts="-J --btf_features=$features"
case $("$peer" --version) in
v1.2[0-4]*) peer_opts="-J --btf_gen_floats --lang_exclude=rust" ;;
*) peer_opts="-J --btf_features=$features" ;;
esac

# run NAME BIN OPTS JOBS: one timed run, appended to $tmp/NAME as "wall cpu rss_kb"
run()
{
	local name=$1 bin=$2 opts=$3 jobs=$4
	# shellcheck disable=SC2086
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$bin" $opts "$jobs" \
		--btf_encode_detached="$tmp/out.btf" "$vmlinux" > /dev/null 2>&1
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/time" >> "$tmp/$name"
}

for i in $(seq "$runs"); do
	for j in 1 2; do
		run "ours-j$j" "$ours" "$ours_opts" "-j$j"
		run "peer-j$j" "$peer" "$peer_opts" "-j$j"
	done
done

median() # FILE COLUMN
{
	sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}

printf "%-10s %10s %10s %12s\n" config "wall (s)" "cpu (s)" "peak RSS (MB)"
for name in ours-j1 peer-j1 ours-j2 peer-j2; do
	printf "%-10s %10s %10s %12d\n" "$name" "$(median "$tmp/$name" 1)" "$(median "$tmp/$name" 2)" \
		"$(( $(median "$tmp/$name" 3) / 1024 ))"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo
for j in 1 2; do
	echo "ours/peer -j$j: wall $(ratio "$(median "$tmp/ours-j$j" 1)" "$(median "$tmp/peer-j$j" 1)")," \
		"cpu $(ratio "$(median "$tmp/ours-j$j" 2)" "$(median "$tmp/peer-j$j" 2)")," \
		"peak RSS $(ratio "$(median "$tmp/ours-j$j" 3)" "$(median "$tmp/peer-j$j" 3)")"
done
echo "ours -j2/-j1: wall $(ratio "$(median "$tmp/ours-j2" 1)" "$(median "$tmp/ours-j1" 1)")," \
	"peak RSS $(ratio "$(median "$tmp/ours-j2" 3)" "$(median "$tmp/ours-j1" 3)")"
echo
echo "phases of ours (-V, -j1 and -j2):"
for j in 1 2; do
	# shellcheck disable=SC2086
	"$ours" $ours_opts -V "-j$j" --btf_encode_detached="$tmp/out.btf" "$vmlinux" 2>&1 |
		grep -E '^(pahole|btf_encoder): [a-z]+ .*[0-9] s' | sed 's/^/  /'
done
