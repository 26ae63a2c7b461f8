#!/usr/bin/env bash
# test_rust: Rust's units, as each release of upstream pahole encodes them,
# and --lang_exclude=rust where LTO ties them to C's.
#
# tests/fixtures/rust/objects.tar.xz (made by tests/fixtures/rust/make.sh
# with Debian's rustc-web 1.96, gcc, clang and clang-22/lld-22) holds the
# objects and, for each, the BTF pahole v1.31 and v1.32 write for it with
# --btf_features=default (default), with no option (plain) and with both
# and --lang_exclude=rust (exclude); where a release writes the wrong BTF
# for an LTO object (make.sh says which), what it writes for the same
# units in another order.  For each object, set of options and release:
#   same    ours (PAHOLE_COMPAT=release) is that BTF by meaning: Rust's
#           structs with their members by offset, enums' signs, methods'
#           FUNCs; with exclude, the C units' types and functions alone
#   none    where the release writes nothing (every unit left out), ours
#           writes nothing and exits 0
#   kernel  with exclude, the running kernel takes ours (no Rust name)
# The LTO objects also give the same bytes at -j1, -j2 and -j3.
# Then the rule behind Rust's enum on a signed type, in C++ (g++, clang++;
# tests/fixtures/enum_signs.cc): an ENUM is signed by its values.
#
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
make_tmp

FIX=$SRCDIR/tests/fixtures
tar -xJf "$FIX/rust/objects.tar.xz" -C "$TMP" || die "cannot unpack rust/objects.tar.xz"
OBJ=$TMP/objects

# opts NAME: the options of set NAME.
opts()
{
	case $1 in
	default) echo --btf_features=default ;;
	exclude) echo --btf_features=default --lang_exclude=rust ;;
	esac
}

# Each output against its reference, by meaning: btfcanon's diff of all the
# pairs in one process when ../shared has it (tests/btfcanon_batch.py),
# else bpftool's canonical lines, pair by pair.
pairs=$TMP/pairs
: > "$pairs"
n_ref=0
for ref in "$OBJ"/refs/*; do
	[[ $(basename "$ref") =~ ^(.*)\.(default|plain|exclude)\.(v1\.3[12])\.(btf|none)$ ]] ||
		die "refs/$(basename "$ref"): not NAME.SET.RELEASE.btf or .none"
	name=${BASH_REMATCH[1]} set=${BASH_REMATCH[2]} rel=${BASH_REMATCH[3]}
	n_ref=$((n_ref + 1))
	out=$TMP/$name.$set.$rel
	# shellcheck disable=SC2046
	PAHOLE_COMPAT=$rel "$PAHOLE" -J $(opts $set) --btf_encode_detached="$out.btf" \
		"$OBJ/$name" > "$out.log" 2>&1
	rc=$?
	if [ "${BASH_REMATCH[4]}" = none ]; then
		if [ $rc -eq 0 ] && [ ! -e "$out.btf" ]; then
			ok "$name $set $rel: nothing written, exit 0 (every unit left out)"
		else
			not_ok "$name $set $rel: exit $rc, $(ls "$out.btf" 2> /dev/null || echo nothing) written where the release writes nothing"
		fi
		continue
	fi
	if [ $rc -ne 0 ] || [ ! -s "$out.btf" ]; then
		not_ok "$name $set $rel: exit $rc, no BTF: $(head -n 2 "$out.log")"
		continue
	fi
	echo "$ref $out.btf $out.diff" >> "$pairs"
	if [ "$set" = exclude ]; then
		kernel_load "$out.btf" "$out.kernel"
		case $? in
		0) ok "$name $set $rel: the kernel takes it" ;;
		1) not_ok "$name $set $rel: the kernel refuses it: $(tail -n 2 "$out.kernel")" ;;
		esac
	fi
done
# 19 objects, each with 6 references but lto-xlang-cfirst, with 2 (make.sh).
[ "$n_ref" -eq 110 ] || not_ok "objects.tar.xz holds $n_ref references, 110 expected"

if [ -f "$BTFCANON" ] && command -v python3 > /dev/null; then
	python3 "$SRCDIR/tests/btfcanon_batch.py" "$BTFCANON" - < "$pairs" ||
		die "btfcanon_batch.py failed"
else
	while read -r a b out; do
		if diff <(btf_canon_bpftool "$a") <(btf_canon_bpftool "$b") > "$out.lines"; then
			echo "differences: 0" > "$out"
		else
			{ cat "$out.lines"; echo "differences: $(grep -c '^[<>]' "$out.lines")"; } > "$out"
		fi
	done < "$pairs"
fi
while read -r _ b out; do
	label=$(basename "${b%.btf}")
	if grep -qx "differences: 0" "$out"; then
		ok "$label: the release's BTF"
	else
		not_ok "$label: not the release's BTF"
		grep -v '^[A-Z_0-9]* *A *[0-9]* *B *[0-9]*$' "$out" | head -n 12 | sed 's/^/	/'
	fi
done < "$pairs"

# Every -j the same bytes where the units are one.
for f in "$OBJ"/lto-* "$OBJ"/mod-*-note.o; do
	name=$(basename "$f")
	sums=$(for j in 1 2 3; do
		PAHOLE_COMPAT=v1.32 "$PAHOLE" -J -j$j --btf_features=default \
			--btf_encode_detached="$TMP/j$j.btf" "$f" > /dev/null 2>&1
		sha256 "$TMP/j$j.btf"
	done | sort -u | wc -l)
	check "$name: the same bytes at -j1, -j2, -j3" test "$sums" -eq 1
done

# enum_signs.cc: which ENUMs are signed, per compiler; tokens: the compiler.
for cxx in g++ clang++; do
	if ! command -v $cxx > /dev/null; then
		note_skip "$cxx is not installed: enum_signs.cc not built with it"
		continue
	fi
	$cxx -g -c "$FIX/enum_signs.cc" -o "$TMP/enum_signs.$cxx.o" || die "$cxx failed"
	for rel in v1.31 v1.32; do
		out=$TMP/enum_signs.$cxx.$rel.btf
		PAHOLE_COMPAT=$rel "$PAHOLE" -J --btf_features=default --btf_encode_detached="$out" \
			"$TMP/enum_signs.$cxx.o" || { not_ok "enum_signs $cxx $rel: pahole failed"; continue; }
		if diff <(expect_lines "$FIX/enum_signs.expect" "${cxx%++}") \
			<(btf_canon "$out" | grep -P '^ENUM(64)?\t' | cut -f2-) > "$TMP/enum.diff"; then
			ok "enum_signs $cxx $rel: signed by the values (ENUM), the type (ENUM64)"
		else
			not_ok "enum_signs $cxx $rel:"
			sed 's/^/	/' "$TMP/enum.diff"
		fi
	done
done

finish
