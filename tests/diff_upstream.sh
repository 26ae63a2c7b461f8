#!/usr/bin/env bash
# diff_upstream.sh: run our pahole and an upstream pahole side by side on any
# inputs, and print one line per input with btfcanon's difference count and
# the kinds that differ.  For developers; CI compares with the stored
# references instead (tests/test_corpus.sh).
#
#   tests/diff_upstream.sh [OPTIONS] FILE...
#   find /lib/debug/modules -name '*.ko' | tests/diff_upstream.sh --vmlinux VMLINUX -
#
# A FILE ending in .ko is a module: it is encoded as split BTF on the BTF that
# the upstream pahole encodes for --vmlinux (made once, cached in OUTDIR), by
# both.  Any other FILE is encoded alone.  "-" reads the FILEs from stdin.
#
# Options:
#   --upstream PAHOLE   the oracle (default: $UPSTREAM_PAHOLE, else
#                       build/upstream-v1.31/build/pahole, which
#                       ../shared/tools/upstream-pahole builds from fetched
#                       snapshots of acmel/dwarves and libbpf/libbpf)
#   --ours PAHOLE       our binary (default: build/pahole)
#   --release REL       the release ours is run as (PAHOLE_COMPAT=REL): v1.31
#                       or v1.32; default: the oracle's (its --numeric_version),
#                       so the v1.32 of ../shared/tools/debian-pahole OUTDIR
#                       LIBBPF_GIT is compared with ours in v1.32 mode
#   --vmlinux FILE      the kernel that modules are split over
#   --features LIST     --btf_features for both (default: "default"); "" for none
#   --opts "OPTS"       more options for both (e.g. "--lang_exclude=rust")
#   --jobs N            inputs encoded at once (default: nproc)
#   --outdir DIR        where outputs and logs go (default: build/diff-upstream)
#   --keep              keep each input's outputs, not only those that differ
#
# Each line: NAME, then "differences: N" and the kinds that differ with how
# many types are only in upstream's (-) and only in ours (+); or what went
# wrong: "CRASH" (ours died of a signal), "ours failed (exit N)", "upstream
# wrote nothing" and the like; "refused as upstream" where both write nothing
# (v1.31 exits 0 there, we exit 1 with the cause), which counts as agreeing.  Then a summary.  Exit status 0 only when every
# input has 0 differences and neither side failed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
upstream=${UPSTREAM_PAHOLE:-$top/build/upstream-v1.31/build/pahole}
ours=$top/build/pahole
vmlinux=
release=
features=default
opts=
jobs=$(nproc)
outdir=$top/build/diff-upstream
keep=0
files=()

usage()
{
	sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 64
}

while [ $# -gt 0 ]; do
	case $1 in
	--upstream) upstream=$2; shift 2 ;;
	--ours) ours=$2; shift 2 ;;
	--release) release=$2; shift 2 ;;
	--vmlinux) vmlinux=$2; shift 2 ;;
	--features) features=$2; shift 2 ;;
	--opts) opts=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--outdir) outdir=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	-h | --help) usage ;;
	-) mapfile -t -O "${#files[@]}" files; shift ;;
	-*) echo "diff_upstream.sh: unknown option $1" >&2; usage ;;
	*) files+=("$1"); shift ;;
	esac
done
[ ${#files[@]} -gt 0 ] || usage
[ -x "$upstream" ] || {
	echo "diff_upstream.sh: no upstream pahole at $upstream: build one with" >&2
	echo "  ../shared/tools/upstream-pahole DWARVES_GIT LIBBPF_GIT v1.31 build/upstream-v1.31" >&2
	exit 1
}
[ -x "$ours" ] || { echo "diff_upstream.sh: no pahole at $ours (make build)" >&2; exit 1; }
if [ -z "$release" ]; then
	case $("$upstream" --numeric_version 2> /dev/null) in
	131) release=v1.31 ;;
	132) release=v1.32 ;;
	*) echo "diff_upstream.sh: which release is $upstream? (--release)" >&2; exit 1 ;;
	esac
fi
export PAHOLE_COMPAT=$release
echo "diff_upstream.sh: ours as $release ($("$ours" --version)) against $upstream ($("$upstream" --version))" >&2
btfcanon=$top/../shared/tools/btfcanon
[ -e "$btfcanon" ] || { echo "diff_upstream.sh: $btfcanon is missing" >&2; exit 1; }
mkdir -p "$outdir" || exit 1

common=(-J ${features:+--btf_features=$features})
# shellcheck disable=SC2206 # --opts is a list of words
common+=($opts)

base=
if [ -n "$vmlinux" ]; then
	base=$outdir/base.$(basename "$vmlinux").btf
	if [ ! -s "$base" ] || [ "$base" -ot "$vmlinux" ]; then
		"$upstream" "${common[@]}" -j --btf_encode_detached="$base" "$vmlinux" \
			> "$outdir/base.log" 2>&1 || {
			echo "diff_upstream.sh: upstream cannot encode $vmlinux (see $outdir/base.log)" >&2
			exit 1
		}
	fi
fi

# one FILE: encode with both, compare, print one line.
one()
{
	local f=$1 name dir split=() rc_u rc_o line
	name=$(basename "$f")
	dir=$(mktemp -d "$outdir/$name.XXXX")
	if [[ $f == *.ko ]]; then
		[ -n "$base" ] || { echo "$name: a module needs --vmlinux"; rm -rf "$dir"; return; }
		split=(--btf_base "$base")
	fi
	timeout 600 "$upstream" "${common[@]}" "${split[@]}" --btf_encode_detached="$dir/upstream.btf" \
		"$f" > "$dir/upstream.log" 2>&1
	rc_u=$?
	timeout 600 "$ours" "${common[@]}" "${split[@]}" --btf_encode_detached="$dir/ours.btf" "$f" \
		> "$dir/ours.log" 2>&1
	rc_o=$?
	if [ "$rc_o" -gt 128 ]; then
		line="CRASH: ours died of signal $((rc_o - 128))"
	elif [ "$rc_u" -ne 0 ] && [ "$rc_o" -ne 0 ]; then
		line="both failed (upstream exit $rc_u, ours exit $rc_o)"
	elif [ "$rc_o" -ne 0 ] && [ "$rc_o" -lt 128 ] && [ ! -s "$dir/upstream.btf" ]; then
		# v1.31 writes nothing and exits 0 where it cannot encode; we exit 1.
		line="refused as upstream: both wrote nothing: $(head -n 1 "$dir/ours.log")"
	elif [ "$rc_o" -ne 0 ]; then
		line="ours failed (exit $rc_o): $(head -n 1 "$dir/ours.log")"
	elif [ "$rc_u" -ne 0 ]; then
		line="upstream failed (exit $rc_u), ours did not"
	elif [ ! -s "$dir/upstream.btf" ] && [ ! -s "$dir/ours.btf" ]; then
		line="both wrote nothing"
	elif [ ! -s "$dir/upstream.btf" ]; then
		line="upstream wrote nothing, ours did: $(grep -m1 -v '^$' "$dir/upstream.log")"
	elif [ ! -s "$dir/ours.btf" ]; then
		line="ours wrote nothing, upstream did"
	elif [ ${#split[@]} -gt 0 ]; then
		# Compared by btfcanon_batch.py once all are encoded, on one parse of the base.
		echo "$dir/upstream.btf $dir/ours.btf $dir/diff" > "$dir/pending"
		echo "$f" > "$dir/input"
		return
	else
		python3 "$btfcanon" diff "$dir/upstream.btf" "$dir/ours.btf" --max 20 > "$dir/diff" 2>&1
		line=$(summarize "$dir/diff")
	fi
	report "$name" "$line" "$dir" "$f"
}

# summarize DIFF: btfcanon diff's output as one line.
summarize()
{
	awk '
		/only in A:/ { a = $0; sub(/.*only in A: */, "", a); sub(/ .*/, "", a)
			       b = $0; sub(/.*only in B: */, "", b)
			       if (a + b) kinds = kinds sprintf(" %s(-%d/+%d)", $1, a, b) }
		/^differences:/ { n = $2 }
		END { if (n == "") print "btfcanon failed"
		      else printf "differences: %s%s\n", n, kinds ? "  kinds:" kinds : "" }' "$1"
}

# report NAME LINE DIR INPUT: print the line; keep DIR only if it differs (or --keep).
report()
{
	echo "$1  $2"
	if { [ "$2" = "differences: 0" ] || [[ $2 == "refused as upstream"* ]]; } &&
		[ "$keep" = 0 ]; then
		rm -rf "$3"
	else
		echo "$4" > "$3/input"
	fi
}
export -f one summarize report
export upstream ours base outdir keep btfcanon
export common_str="${common[*]}"

printf '%s\n' "${files[@]}" |
	xargs -d '\n' -P "$jobs" -I{} bash -c 'common=($common_str); one "$1"' _ {} |
	tee "$outdir/results.txt"
# The modules: their diffs, then their lines.
pending=$(find "$outdir" -mindepth 2 -maxdepth 2 -name pending | sort)
if [ -n "$pending" ]; then
	# shellcheck disable=SC2086 # one path per line
	cat $pending | python3 "$top/tests/btfcanon_batch.py" "$btfcanon" "$base" ||
		echo "diff_upstream.sh: btfcanon_batch.py failed" >&2
	for p in $pending; do
		dir=$(dirname "$p")
		rm -f "$p"
		report "$(basename "$(cat "$dir/input")")" "$(summarize "$dir/diff")" "$dir" \
			"$(cat "$dir/input")"
	done | tee -a "$outdir/results.txt"
fi
total=$(wc -l < "$outdir/results.txt")
same=$(grep -c '  differences: 0$' "$outdir/results.txt")
refused=$(grep -c '  refused as upstream' "$outdir/results.txt")
echo "== $same of $total inputs with 0 differences, $refused refused by both (upstream" \
	"exit 0, ours exit 1); the others' outputs and logs are in $outdir"
same=$((same + refused))
[ "$same" -eq "$total" ]
