#!/usr/bin/env bash
# test_fuzz_regress: the inputs that once broke pahole (mostly found by the
# fuzzer, tests/fuzz/fuzz_encode.c) must not break it again.
#
# Each file of tests/fixtures/fuzz_regress/ is encoded by `pahole -J
# --btf_encode_detached`, with the options that fuzz_encode's variant bytes
# in the file ask for (e_ident[9] bit 0: -j2; e_ident[10] bit 0:
# --btf_features=default,global_var, bit 1: no --btf_features, bit 2: split
# BTF on a base, here sample.c's BTF, bit 3: true_signature too).  Whatever pahole makes of the file,
# it must not crash or hang: exit status below 128 (a sanitizer report exits
# 67 or 68 in an ASan build, see tests/CMakeLists.txt), within
# REGRESS_TIMEOUT seconds, with at most one line on stderr (an error says
# what is wrong in one line; a sanitizer report is longer).  A file named
# NAME.ok must moreover be encoded (exit 0, BTF written).  e_ident[9] bit 1
# asks for v1.31's rules (PAHOLE_COMPAT=v1.31), else v1.32's, as the
# fuzzer reads it.  A two-file input (it starts "PAHOLE2\0", fuzz_encode.c)
# is written out as "main" and "alt" in a directory of its own, and main is
# encoded there, its variant bytes read from main.
#
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
make_tmp

REGRESS_DIR=$SRCDIR/tests/fixtures/fuzz_regress
REGRESS_TIMEOUT=${REGRESS_TIMEOUT:-30}

files=()
for f in "$REGRESS_DIR"/*; do
	[ -f "$f" ] && files+=("$f")
done
[ ${#files[@]} -gt 0 ] || skip "no reproducers in $REGRESS_DIR"

# byte FILE OFFSET: the byte at OFFSET of FILE, as a number (0 past the end).
byte()
{
	local v
	v=$(od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' ')
	echo "${v:-0}"
}

BASE=""
base_btf()
{
	if [ -z "$BASE" ]; then
		gcc -g -O2 -c "$SRCDIR/tests/fixtures/sample.c" -o "$TMP/base.o" ||
			die "cannot compile sample.c for the base BTF"
		"$PAHOLE" -J --btf_features=default --btf_encode_detached="$TMP/base.btf" \
			"$TMP/base.o" || die "cannot encode the base BTF"
		BASE=$TMP/base.btf
	fi
	echo "$BASE"
}

# unpair FILE: a two-file input written out; prints the path of its main file.
unpair()
{
	local d=$TMP/pair.$1 len
	mkdir -p "$d"
	len=$(od -An -tu4 -j 8 -N 4 --endian=little "$2" | tr -d ' ')
	tail -c +13 "$2" | head -c "$len" > "$d/main"
	tail -c +$((13 + len)) "$2" > "$d/alt"
	echo "$d/main"
}

for f in "${files[@]}"; do
	name=$(basename "$f")
	[ "$(head -c 8 "$f" | tr '\0' '@')" = PAHOLE2@ ] && f=$(unpair "$name" "$f")
	jobs=$(byte "$f" 9)
	feat=$(byte "$f" 10)
	rel=v1.32
	((jobs & 2)) && rel=v1.31
	opts=(-J -j$(((jobs & 1) + 1)))
	if ((feat & 2)); then
		:
	else
		features=default
		((feat & 1)) && features+=,global_var
		((feat & 8)) && features+=,true_signature
		opts+=("--btf_features=$features")
	fi
	if ((feat & 4)); then
		opts+=(--btf_base "$(base_btf)")
	fi
	out=$TMP/$name.btf
	rm -f "$out"
	PAHOLE_COMPAT=$rel timeout "$REGRESS_TIMEOUT" "$PAHOLE" "${opts[@]}" \
		--btf_encode_detached="$out" "$f" > "$TMP/stdout" 2> "$TMP/stderr"
	rc=$?
	lines=$(awk 'END { print NR }' "$TMP/stderr")
	what="$name (pahole ${opts[*]}, $rel)"
	if [ $rc -eq 124 ]; then
		not_ok "$what: timed out after $REGRESS_TIMEOUT s"
	elif [ $rc -ge 128 ]; then
		not_ok "$what: killed by signal $((rc - 128))"
	elif [ "$lines" -gt 1 ]; then
		not_ok "$what: exit $rc, $lines lines on stderr, want at most 1"
	elif [[ $name == *.ok ]] && { [ $rc -ne 0 ] || [ ! -s "$out" ]; }; then
		not_ok "$what: exit $rc$([ -s "$out" ] || echo ", no BTF written"), want it encoded"
	else
		ok "$what: exit $rc, $lines line(s) on stderr"
		continue
	fi
	head -n 60 "$TMP/stderr" | sed 's/^/    | /'
done

finish
