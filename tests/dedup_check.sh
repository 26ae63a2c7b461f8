#!/usr/bin/env bash
# dedup_check.sh: our split dedup (btf_dedup__split()) against libbpf's own
# btf__dedup(), at the libbpf commit whose rules the release follows, on the
# same input: for each module, the BTF our pahole hands its last dedup
# (PAHOLE_DEDUP_INPUT) is deduplicated on the same base by libbpf too, and
# the two outputs are compared by meaning (btfcanon) and, for modules, by
# their type and string sections' bytes (a vmlinux's types are in the
# order its chunks are merged in, not the whole file's).  For developers; libbpf is built from a snapshot
# (what a fetch of github:libbpf/libbpf returns), never by CI.
#
#   tests/dedup_check.sh --libbpf-git DIR [--base BTF] [OPTIONS] FILE...
#   find DIR -name '*.ko' | tests/dedup_check.sh --libbpf-git DIR --base BTF -
#
# A FILE ending in .ko is a module, split on --base.  Any other FILE (a
# vmlinux) is encoded alone, as ours runs, and once more with the input
# saved: then the chunks are not deduplicated on their own, so the input is
# the whole file's, as upstream hands it to libbpf, and libbpf's dedup of
# it is compared with ours (its chunks deduplicated by libbpf 1.1, then
# merged and deduplicated again).
#
# Options:
#   --libbpf-git DIR    a git directory of libbpf/libbpf (default: $LIBBPF_GIT)
#   --release REL       ours as REL (PAHOLE_COMPAT): v1.32 (default) or v1.31
#   --rev REV           the libbpf commit (default: HEAD for v1.32, the commit
#                       pahole v1.31 pins, 374f7807, for v1.31)
#   --base BTF          the base modules are split on (a vmlinux's BTF)
#   --features LIST     --btf_features (default: "default"); "" for none
#   --opts "OPTS"       more options (e.g. "--lang_exclude=rust")
#   --ours PAHOLE       our binary (default: build/pahole)
#   --jobs N            modules at once (default: nproc)
#   --outdir DIR        outputs and logs (default: build/dedup-check)
#
# Each line: NAME, "differences: N" (by meaning) and, for a module whose
# meaning is the same but bytes are not, "bytes differ"; or what failed.  Then a
# summary.  Exit status 0 only when every input has 0 differences (and a
# module the same bytes), and neither side failed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
lbgit=${LIBBPF_GIT:-}
release=v1.32
rev=
base=
features=default
opts=
ours=$top/build/pahole
jobs=$(nproc)
outdir=$top/build/dedup-check
files=()

usage()
{
	sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 64
}

while [ $# -gt 0 ]; do
	case $1 in
	--libbpf-git) lbgit=$2; shift 2 ;;
	--release) release=$2; shift 2 ;;
	--rev) rev=$2; shift 2 ;;
	--base) base=$2; shift 2 ;;
	--features) features=$2; shift 2 ;;
	--opts) opts=$2; shift 2 ;;
	--ours) ours=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--outdir) outdir=$2; shift 2 ;;
	-h | --help) usage ;;
	-) mapfile -t -O "${#files[@]}" files; shift ;;
	-*) echo "dedup_check.sh: unknown option $1" >&2; usage ;;
	*) files+=("$1"); shift ;;
	esac
done
[ ${#files[@]} -gt 0 ] && [ -n "$lbgit" ] || usage
case $release in
v1.32) rev=${rev:-HEAD} ;;
v1.31) rev=${rev:-374f7807} ;;
*) echo "dedup_check.sh: --release v1.31 or v1.32" >&2; exit 64 ;;
esac
[ -x "$ours" ] || { echo "dedup_check.sh: no pahole at $ours (make build)" >&2; exit 1; }
[ -z "$base" ] || [ -s "$base" ] || { echo "dedup_check.sh: no base BTF at $base" >&2; exit 1; }
btfcanon=$top/../shared/tools/btfcanon
[ -e "$btfcanon" ] || { echo "dedup_check.sh: $btfcanon is missing" >&2; exit 1; }
commit=$(git --git-dir="$lbgit" rev-parse --verify "$rev^{commit}" 2> /dev/null) ||
	{ echo "dedup_check.sh: $lbgit has no commit $rev" >&2; exit 1; }

# libbpf at that commit, static, and the oracle linked with it: once per commit.
lb=$top/build/libbpf-${commit:0:12}
oracle=$lb/dedup_oracle
if [ ! -x "$oracle" ] || [ "$oracle" -ot "$top/tests/dedup_oracle/dedup_oracle.c" ]; then
	rm -rf "$lb" && mkdir -p "$lb/src" "$lb/obj" || exit 1
	git --git-dir="$lbgit" archive "$commit" | tar -x -C "$lb/src" || exit 1
	{ make -C "$lb/src/src" -j"$(nproc)" BUILD_STATIC_ONLY=y OBJDIR="$lb/obj" &&
		make -C "$lb/src/src" install_headers DESTDIR="$lb/root" &&
		cc -O2 -I"$lb/root/usr/include" -I"$lb/src/include/uapi" -o "$oracle" \
			"$top/tests/dedup_oracle/dedup_oracle.c" "$lb/obj/libbpf.a" -lelf -lz; } \
		> "$lb/build.log" 2>&1 ||
		{ tail -5 "$lb/build.log" >&2; echo "dedup_check.sh: cannot build libbpf $rev" >&2; exit 1; }
fi
echo "dedup_check.sh: ours as $release ($(PAHOLE_COMPAT=$release "$ours" --version)) against libbpf ${commit:0:12}'s btf__dedup()" >&2
mkdir -p "$outdir" || exit 1
rm -f "$outdir/results.txt"

common=(-J ${features:+--btf_features=$features})
# shellcheck disable=SC2206 # --opts is a list of words
common+=($opts)

# one FILE: ours with its dedup's input saved, libbpf on that input.  A
# module is split on the base; any other file is encoded alone twice: as
# ours runs, and with the input saved (then the whole file's, as upstream
# dedups it), which libbpf deduplicates.
one()
{
	local f=$1 name dir rc split=() base_arg=- out=whole.btf
	name=$(basename "$f")
	dir=$(mktemp -d "$outdir/$name.XXXX")
	echo "$f" > "$dir/input"
	if [[ $f == *.ko ]]; then
		[ -n "$base" ] || { echo "$name  a module needs --base"; return; }
		split=(--btf_base "$base")
		base_arg=$base
		out=ours.btf
	else
		PAHOLE_COMPAT=$release timeout 600 "$ours" "${common[@]}" -j \
			--btf_encode_detached="$dir/ours.btf" "$f" > "$dir/ours.log" 2>&1 ||
			{ echo "$name  ours failed (exit $?): $(head -n 1 "$dir/ours.log")"; return; }
	fi
	PAHOLE_COMPAT=$release PAHOLE_DEDUP_INPUT=$dir/dedup-input.btf timeout 600 "$ours" \
		"${common[@]}" "${split[@]}" --btf_encode_detached="$dir/$out" "$f" > "$dir/ours.log" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "$name  ours failed (exit $rc): $(head -n 1 "$dir/ours.log")"
		return
	fi
	if [ ! -s "$dir/dedup-input.btf" ]; then
		echo "$name  ours wrote no dedup input"
		return
	fi
	"$oracle" "$base_arg" "$dir/dedup-input.btf" "$dir/libbpf.btf" > "$dir/libbpf.log" 2>&1 ||
		{ echo "$name  libbpf failed: $(head -n 1 "$dir/libbpf.log")"; return; }
	if [ ${#split[@]} -gt 0 ]; then
		echo "$dir/libbpf.btf $dir/ours.btf $dir/diff" > "$dir/pending"
	else
		python3 "$btfcanon" diff "$dir/libbpf.btf" "$dir/ours.btf" --max 20 > "$dir/diff" 2>&1
		touch "$dir/pending.whole"
	fi
}
export -f one
export release ours outdir oracle base btfcanon
export common_str="${common[*]}"

printf '%s\n' "${files[@]}" |
	xargs -d '\n' -P "$jobs" -I{} bash -c 'common=($common_str); one "$1"' _ {} |
	tee -a "$outdir/results.txt"
# same_body A B: whether raw BTF A and B hold the same types and strings, byte for byte.
same_body()
{
	python3 -S -c '
import struct, sys
def body(path):
    d = open(path, "rb").read()
    hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from("<5I", d, 4)
    h = d[hdr_len:]
    return h[type_off:type_off + type_len], h[str_off:str_off + str_len]
sys.exit(body(sys.argv[1]) != body(sys.argv[2]))' "$1" "$2"
}

pending=$(find "$outdir" -mindepth 2 -maxdepth 2 -name pending | sort)
whole=$(find "$outdir" -mindepth 2 -maxdepth 2 -name pending.whole | sort)
if [ -n "$pending" ]; then
	# shellcheck disable=SC2086 # one path per line
	cat $pending | python3 "$top/tests/btfcanon_batch.py" "$btfcanon" "$base" ||
		echo "dedup_check.sh: btfcanon_batch.py failed" >&2
fi
if [ -n "$pending$whole" ]; then
	for p in $pending $whole; do
		dir=$(dirname "$p")
		rm -f "$p"
		n=$(awk '/^differences:/ { print $2 }' "$dir/diff")
		line="differences: ${n:-?}"
		# A module's sections after the header (libbpf's may be longer: layout_off,
		# _len); a vmlinux's types come in the chunks' order, not the whole file's.
		[[ $p == *.whole ]] || same_body "$dir/libbpf.btf" "$dir/ours.btf" ||
			line="$line  bytes differ"
		echo "$(basename "$(cat "$dir/input")")  $line"
		[ "$line" = "differences: 0" ] && rm -rf "$dir"
	done | tee -a "$outdir/results.txt"
fi
total=$(wc -l < "$outdir/results.txt")
same=$(grep -c '  differences: 0$' "$outdir/results.txt")
echo "== $same of $total inputs: libbpf ${commit:0:12}'s dedup and ours the same (meaning and bytes)"
[ "$same" -eq "$total" ]
