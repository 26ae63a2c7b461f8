#!/usr/bin/env bash
# test_refuse: DWARF that pahole v1.31 refuses to encode (it prints "Error
# while encoding BTF.", or nothing for an imported unit, exits 0 and writes
# nothing) is refused by ours too: exit 1, one line on stderr naming the file
# and the cause, nothing written.  What v1.31 encodes, we encode.  The rows of
# CASES are the table "Types pahole v1.31 refuses" in README.md:
#  1. compiled: tests/fixtures/refuse.c (gcc, clang), refuse.cc (g++,
#     clang++), refuse.F90 (gfortran), one object per -DCASE_ and compiler
#     installed; the refused types in them (_Atomic, _Complex with the float
#     feature, C++ references, pointers to members, enums on __int128,
#     Fortran strings, a bit field 2 MiB into its struct) and controls that
#     are encoded (_Complex without float, complex integers, __int128,
#     _Float16, decimal floats, _BitInt, char8_t, C++ without references,
#     _Atomic with -gdwarf-4 -gstrict-dwarf, which writes no atomic type);
#  2. hand-made DWARF (tests/fixtures/refuse_dwarf.py): what no C compiler
#     writes (imaginary floats, odd float and enum sizes, interface types,
#     imported units) and where a refused type may hide (unreferenced, in a
#     block, a struct, a namespace, a subroutine type);
#  3. variables (global_var): a name BTF does not take refuses the file
#     without encode_force, and is left out with it (default has it);
#  4. a refused type in a CU that --lang_exclude skips is no refusal; -j2,
#     and in place (the file unchanged, no temporary file left);
#  5. partial and imported units (dwz, dwz -m) in both releases: written
#     expectations, the BTF of a dwz'd file against the file's before dwz,
#     and against pahole v1.32 when it is at hand ($UPSTREAM132_PAHOLE, else
#     $BUILDDIR/upstream-debian/bin/pahole).
# When pahole v1.31 is at hand ($UPSTREAM_PAHOLE, else
# $BUILDDIR/upstream-v1.31/build/pahole), every case goes through it too: it
# must write nothing where we refuse, and what we write (btfcanon, 0
# differences) where we encode.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
make_tmp
FIX=$SRCDIR/tests/fixtures
# gcc assembles refuse_dwarf.py's output.
need_tools python3 gcc

UPSTREAM=${UPSTREAM_PAHOLE:-$BUILDDIR/upstream-v1.31/build/pahole}
[ -x "$UPSTREAM" ] || UPSTREAM=
[ -n "$UPSTREAM" ] || echo "note: no pahole v1.31 (UPSTREAM_PAHOLE): not compared with it"
# The later release's v1.32 (../shared/tools/debian-pahole) is compared where it is at hand.
UPSTREAM132=${UPSTREAM132_PAHOLE:-$BUILDDIR/upstream-debian/bin/pahole}
[ -x "$UPSTREAM132" ] || UPSTREAM132=
# Parts 1-4 run as the release the test runs as, compared with its upstream.
REL=$PAHOLE_COMPAT
UPSTREAM_REL=$UPSTREAM
[ "$REL" = v1.32 ] && UPSTREAM_REL=$UPSTREAM132
HAVE_BTFCANON=0
[ -f "$BTFCANON" ] && HAVE_BTFCANON=1

OBJ=$TMP/obj
OUT=$TMP/out
mkdir "$OBJ" "$OUT"

# KIND CASE FEATURES EXPECT: build CASE as KIND says, encode each object with
# --btf_features=FEATURES ("-": none); EXPECT is "ok" (exit 0, silent, BTF
# written) or an extended regular expression the one line must match; one
# that starts "v131:" is v1.31's alone (v1.32 encodes the case).  The test
# runs in the release PAHOLE_COMPAT says (tests/CMakeLists.txt runs it as
# both), compared with that release's upstream where it is at hand.
#   c: refuse.c with gcc and clang; gcc, clang: with that one only
#   c++: refuse.cc with g++ and clang++; fortran: refuse.F90 with gfortran
#   strict4: refuse.c with gcc -gdwarf-4 -gstrict-dwarf
#   dwarf: refuse_dwarf.py CASE
#   dwz: two shared objects of the type fixtures, through dwz -m (a
#     .gnu_debugaltlink file, partial units imported from it)
CASES=(
	# 1. compiled
	"c atomic default atomic_type"
	"c atomic - atomic_type"
	"c atomic_local default atomic_type"
	"c atomic_member - atomic_type"
	"strict4 atomic default ok"
	"c complex default complex_float"
	"c complex - ok"
	"c complex_local default complex_float"
	"c complex_int default ok"
	"c bitfield_2mib default 'bit field'"
	"c bitfield_2mib - 'bit field'"
	"c ints default ok"
	"c ints - ok"
	"gcc gcc_floats default ok"
	"gcc gcc_floats - ok"
	"clang bitint default ok"
	"c++ reference default reference_type"
	"c++ reference - reference_type"
	"c++ rvalue_reference default rvalue_reference_type"
	"c++ ptr_to_member default ptr_to_member_type"
	"c++ reference_local default 'reference_type'"
	"c++ enum_int128 default enum"
	"c++ enum_int128 - enum"
	"c++ cxx_plain default ok"
	"c++ utf default ok"
	"fortran string default string_type"
	"fortran string - string_type"
	"fortran complex default complex_float"
	"fortran complex - ok"
	# 2. hand-made DWARF
	"dwarf imaginary_float default imaginary_float"
	"dwarf imaginary_float - ok"
	"dwarf float_size1 default 'floating-point type of that size'"
	"dwarf float_size10 default 'floating-point type of that size'"
	"dwarf float_size32 default 'floating-point type of that size'"
	"dwarf float_size10 - ok"
	"dwarf interface_type default interface_type"
	"dwarf atomic_unused default atomic_type"
	"dwarf atomic_lexblock default atomic_type"
	"dwarf atomic_proto default atomic_type"
	"dwarf atomic_struct default atomic_type"
	"dwarf atomic_namespace default atomic_type"
	"dwarf atomic_enum default ok"
	"dwarf enum_size3 default enum"
	"dwarf enum_size0 default ok"
	"dwarf imported_unit default v131:imported_unit"
	"dwarf imported_unit - v131:imported_unit"
	"dwz multifile default v131:imported_unit"
	"dwarf set_type default ok"
	"dwarf file_type default ok"
	"dwarf subrange_type default ok"
	"dwarf ate_lo_user default ok"
	# 3. variables
	"c long_var_name global_var 'variable.s name'"
	"c long_var_name default,global_var ok"
	"c long_var_name encode_force,global_var ok"
	"dwarf bad_var_name global_var 'variable.s name'"
	"dwarf bad_var_name var,global_var 'variable.s name'"
	"dwarf bad_var_name default,global_var ok"
)

# build KIND CASE: compile CASE into $OBJ, print the objects made (none when
# no compiler for KIND is installed); fails when an installed one fails.
build()
{
	local kind=$1 c=$2 cc src flags=() ccs=() o
	case $kind in
	c) ccs=(gcc clang) src=$FIX/refuse.c ;;
	gcc | clang) ccs=("$kind") src=$FIX/refuse.c ;;
	strict4) ccs=(gcc) src=$FIX/refuse.c flags=(-gdwarf-4 -gstrict-dwarf) ;;
	c++) ccs=(g++ clang++) src=$FIX/refuse.cc flags=(-std=c++20) ;;
	fortran) ccs=(gfortran) src=$FIX/refuse.F90 flags=(-cpp) ;;
	dwz)
		command -v dwz > /dev/null || return 0
		o=$OBJ/dwz-$c.so
		[ -e "$o" ] || {
			gcc -g -O2 -fPIC -nostdlib -shared "$FIX/types_struct.c" "$FIX/funcs_abi.c" \
				-o "$o" &&
			gcc -g -O2 -fPIC -nostdlib -shared "$FIX/types_struct.c" "$FIX/types_enum.c" \
				-o "$OBJ/dwz-$c.2.so" &&
			dwz -m "$OBJ/dwz-$c.alt" "$o" "$OBJ/dwz-$c.2.so"
		} || return 1
		echo "$o"
		return 0 ;;
	dwarf)
		o=$OBJ/dwarf-$c.o
		[ -e "$o" ] || { python3 "$FIX/refuse_dwarf.py" "$c" > "$TMP/$c.s" &&
				 gcc -c "$TMP/$c.s" -o "$o"; } || return 1
		echo "$o"
		return 0 ;;
	esac
	for cc in "${ccs[@]}"; do
		command -v "$cc" > /dev/null || continue
		o=$OBJ/$kind-$c.$cc.o
		[ -e "$o" ] || "$cc" -g -c "${flags[@]}" -DCASE_"$c" "$src" -o "$o" || return 1
		echo "$o"
	done
}

nlines()
{
	awk 'END { print NR }' "$1"
}

# run_ours WHAT FILE EXPECT ARGS...: run our pahole ARGS... and check EXPECT.
run_ours()
{
	local what=$1 file=$2 expect=$3 n line
	shift 3
	rm -f "$OUT"/*
	"$PAHOLE" "$@" > "$TMP/stdout" 2> "$TMP/stderr"
	RC=$?
	if [ "$expect" = ok ]; then
		if [ "$RC" -eq 0 ] && [ ! -s "$TMP/stderr" ] && [ -s "$OUT/ours.btf" ]; then
			ok "$what: encoded"
		else
			not_ok "$what: exit $RC, want 0 and BTF: $(head -n 1 "$TMP/stderr")"
		fi
		return
	fi
	n=$(nlines "$TMP/stderr")
	line=$(head -n 1 "$TMP/stderr")
	if [ "$RC" -ne 1 ]; then
		not_ok "$what: exit $RC, want 1 (refused)"
	elif [ "$n" -ne 1 ]; then
		not_ok "$what: $n lines on stderr, want 1"
	elif [[ $line != *"$file"* ]]; then
		not_ok "$what: the line does not name $file: $line"
	elif ! grep -qE -- "$expect" <<< "$line" || ! grep -q 'pahole v1.31' <<< "$line"; then
		not_ok "$what: the line does not say /$expect/ and pahole v1.31: $line"
	else
		ok "$what: refused: $line"
	fi
	if [ -n "$(ls -A "$OUT")" ]; then not_ok "$what: wrote $(ls "$OUT")"; fi
}

# upstream WHAT EXPECT FEATURES FILE: what upstream pahole of the release
# ($UPSTREAM_REL) does with FILE agrees.
upstream()
{
	local what=$1 expect=$2 features=$3 file=$4 f=()
	[ -n "$UPSTREAM_REL" ] || return 0
	[ "$features" = - ] || f=(--btf_features="$features")
	rm -f "$OUT/up.btf"
	"$UPSTREAM_REL" -J "${f[@]}" --btf_encode_detached="$OUT/up.btf" "$file" > /dev/null 2>&1
	if [ "$expect" != ok ]; then
		if [ -s "$OUT/up.btf" ]; then
			not_ok "$what: pahole $REL encodes it"
		else
			ok "$what: pahole $REL writes nothing either"
		fi
	elif [ ! -s "$OUT/up.btf" ]; then
		not_ok "$what: pahole $REL writes nothing"
	elif [ "$HAVE_BTFCANON" = 1 ]; then
		if btfcanon diff "$OUT/up.btf" "$OUT/ours.btf" | tail -n 1 |
			grep -qx 'differences: 0'; then
			ok "$what: the BTF of pahole $REL"
		else
			not_ok "$what: differs from pahole $REL's BTF"
		fi
	fi
}

echo "== 1-3. refused types and controls"
for row in "${CASES[@]}"; do
	eval "set -- $row"
	kind=$1 c=$2 features=$3 expect=$4
	case $expect in
	v131:*) [ "$REL" = v1.31 ] && expect=${expect#v131:} || expect=ok ;;
	esac
	objs=$(build "$kind" "$c") || { not_ok "$kind $c: does not build"; continue; }
	[ -n "$objs" ] || { echo "($kind $c: skipped: no compiler)"; continue; }
	f=()
	[ "$features" = - ] || f=(--btf_features="$features")
	for o in $objs; do
		what="$(basename "$o" .o) [${features/#-/no features}]"
		run_ours "$what" "$o" "$expect" -J "${f[@]}" --btf_encode_detached="$OUT/ours.btf" "$o"
		upstream "$what" "$expect" "$features" "$o"
	done
done

# The variable left out with encode_force: the other one is there.
o=$(build c long_var_name | head -n 1)
if [ -n "$o" ] && command -v bpftool > /dev/null &&
   "$PAHOLE" -J --btf_features=default,global_var --btf_encode_detached="$TMP/vars.btf" "$o"; then
	vars=$(bpftool btf dump file "$TMP/vars.btf" | awk '$2 == "VAR" { print $3 }' | paste -sd' ')
	if [ "$vars" = "'short_name'" ]; then
		ok "long_var_name [default,global_var]: only short_name is a VAR"
	else
		not_ok "long_var_name [default,global_var]: the VARs are $vars, want 'short_name'"
	fi
fi

echo "== 4. --lang_exclude, -j2, in place"
# A C99 CU with an _Atomic type (refuse_dwarf.py's CUs are C99) beside a
# C11 one (gcc's default) that holds none.
if ! atomic=$(build dwarf atomic_unused) || ! ints=$(build gcc ints) ||
   ! ld -r "$atomic" "$ints" -o "$OBJ/mixed.o"; then
	die "cannot link the mixed object"
fi
mixed=$OBJ/mixed.o
run_ours "mixed C99 and C11 CUs" "$mixed" atomic_type \
	-J --btf_features=default --btf_encode_detached="$OUT/ours.btf" "$mixed"
upstream "mixed C99 and C11 CUs" atomic_type default "$mixed"
run_ours "mixed, --lang_exclude=c99" "$mixed" ok -J --btf_features=default --lang_exclude=c99 \
	--btf_encode_detached="$OUT/ours.btf" "$mixed"
if [ -n "$UPSTREAM_REL" ]; then
	rm -f "$OUT/up.btf"
	"$UPSTREAM_REL" -J --btf_features=default --lang_exclude=c99 \
		--btf_encode_detached="$OUT/up.btf" "$mixed" > /dev/null 2>&1
	if [ "$HAVE_BTFCANON" = 1 ] && [ -s "$OUT/up.btf" ] &&
	   btfcanon diff "$OUT/up.btf" "$OUT/ours.btf" | tail -n 1 | grep -qx 'differences: 0'; then
		ok "mixed, --lang_exclude=c99: the BTF of pahole $REL"
	elif [ "$HAVE_BTFCANON" = 1 ]; then
		not_ok "mixed, --lang_exclude=c99: not the BTF of pahole $REL"
	fi
fi
run_ours "mixed, -j2" "$mixed" atomic_type \
	-J -j2 --btf_features=default --btf_encode_detached="$OUT/ours.btf" "$mixed"

what="in place"
cp "$mixed" "$OUT/inplace.o"
before=$(sha256 "$OUT/inplace.o")
"$PAHOLE" -J --btf_features=default "$OUT/inplace.o" > /dev/null 2> "$TMP/stderr"
RC=$?
if [ "$RC" -eq 1 ] && [ "$(nlines "$TMP/stderr")" -eq 1 ] &&
   grep -q "$OUT/inplace.o: .*atomic_type" "$TMP/stderr"; then
	ok "$what: refused: $(cat "$TMP/stderr")"
else
	not_ok "$what: exit $RC: $(head -n 2 "$TMP/stderr" | paste -sd'|')"
fi
if [ "$(sha256 "$OUT/inplace.o")" = "$before" ]; then
	ok "$what: the file is unchanged"
else
	not_ok "$what: the file changed"
fi
left=$(pahole_temps "$OUT" | paste -sd' ')
if [ -z "$left" ]; then ok "$what: no temporary file left"; else not_ok "$what: left $left"; fi

echo "== 5. partial and imported units (dwz): v1.32 reads them, v1.31 does not"

# names REL FILE [FEATURES]: the names of FILE's BTF types as REL encodes it
# with FEATURES (default "default"), or "exit N: LINE".
names()
{
	local rel=$1 file=$2 features=${3-default}
	rm -f "$OUT"/*
	PAHOLE_COMPAT=$rel "$PAHOLE" -J --btf_features="$features" \
		--btf_encode_detached="$OUT/ours.btf" "$file" > "$TMP/stdout" 2> "$TMP/stderr"
	RC=$?
	if [ "$RC" -ne 0 ] || [ ! -s "$OUT/ours.btf" ]; then
		echo "exit $RC: $(head -n 1 "$TMP/stderr")"
		return
	fi
	bpftool btf dump file "$OUT/ours.btf" | sed -n "s/^\[[0-9]*\] [A-Z_]* '\([^']*\)'.*/\1/p" |
		LC_ALL=C sort | paste -sd' '
}

# expect_names WHAT REL FILE WANT STDERR: FILE's type names under REL are WANT,
# and stderr is empty ("") or one line matching STDERR.
expect_names()
{
	local what=$1 rel=$2 file=$3 want=$4 err=$5 got
	got=$(names "$rel" "$file")
	if [ "$got" != "$want" ]; then
		not_ok "$what [$rel]: types '$got', want '$want'"
	elif [ -z "$err" ] && [ -s "$TMP/stderr" ]; then
		not_ok "$what [$rel]: said $(head -n 1 "$TMP/stderr")"
	elif [ -n "$err" ] && { [ "$(nlines "$TMP/stderr")" -ne 1 ] ||
				! grep -q -- "$file: warning: .*$err" "$TMP/stderr"; }; then
		not_ok "$what [$rel]: stderr is not one warning /$err/: $(paste -sd'|' "$TMP/stderr")"
	else
		ok "$what [$rel]: $want${err:+, one warning}"
	fi
}

# expect_line WHAT REL FILE RE: REL fails on FILE: exit 1, one line
# "pahole: FILE: ..." matching RE after the file's name, nothing written.
expect_line()
{
	local what=$1 rel=$2 file=$3 re=$4
	rm -f "$OUT"/*
	PAHOLE_COMPAT=$rel "$PAHOLE" -J --btf_features=default --btf_encode_detached="$OUT/ours.btf" \
		"$file" > /dev/null 2> "$TMP/stderr"
	RC=$?
	if [ "$RC" -eq 1 ] && [ "$(nlines "$TMP/stderr")" -eq 1 ] && [ ! -e "$OUT/ours.btf" ] &&
		grep -qE -- "^pahole: $file: $re" "$TMP/stderr"; then
		ok "$what [$rel]: $(cat "$TMP/stderr")"
	else
		not_ok "$what [$rel]: exit $RC, want one line /$re/: $(paste -sd'|' "$TMP/stderr")"
	fi
}

# expect_refused WHAT REL FILE PATTERN: REL refuses to encode FILE (PATTERN says why).
expect_refused()
{
	expect_line "$1" "$2" "$3" "encoding BTF failed: .*$4"
}

# expect_unreadable WHAT REL FILE PATTERN: FILE is bad input when opened (its
# alternate file, say), PATTERN after its name.
expect_unreadable()
{
	expect_line "$1" "$2" "$3" "$4"
}

# same_btf WHAT A B: btfcanon finds no difference between BTF files A and B.
same_btf()
{
	if btfcanon diff "$2" "$3" | tail -n 1 | grep -qx 'differences: 0'; then
		ok "$1"
	else
		not_ok "$1: $(btfcanon diff "$2" "$3" | tail -n 1)"
	fi
}

need_tools bpftool
pu=$(build dwarf partial_unit) && iu=$(build dwarf imported_unit) &&
	iu_nolto=$(build dwarf imported_unit_nolto) || die "cannot build the partial unit fixtures"
# A partial unit nothing imports, the units one by one: both releases skip it.
expect_names "partial unit, not imported" v1.32 "$pu" "good_t int" ""
expect_names "partial unit, not imported" v1.31 "$pu" "good_t int" "partial units"
# Imported by DW_FORM_ref_addr, so the units are one CU: its types are the CU's.
expect_names "imported unit" v1.32 "$iu" "good_t int long int partial_t" ""
expect_refused "imported unit" v1.31 "$iu" "imported_unit.*pahole v1.31"
# Units one by one (a kernel's LTO note): v1.32 walks the partial unit in
# the CU, as if its DIEs were the CU's.
expect_names "imported unit, no-LTO note" v1.32 "$iu_nolto" "good_t int long int partial_t" ""
expect_refused "imported unit, no-LTO note" v1.31 "$iu_nolto" "imported_unit.*pahole v1.31"
if [ -n "$UPSTREAM132" ]; then
	for o in "$pu" "$iu" "$iu_nolto"; do
		rm -f "$OUT"/*
		PAHOLE_COMPAT=v1.32 "$PAHOLE" -J --btf_features=default \
			--btf_encode_detached="$OUT/ours.btf" "$o" 2> /dev/null
		"$UPSTREAM132" -J --btf_features=default --btf_encode_detached="$OUT/up.btf" "$o" \
			> /dev/null 2>&1
		same_btf "$(basename "$o"): the BTF of pahole v1.32" "$OUT/up.btf" "$OUT/ours.btf"
	done
fi

# as_before_dwz LABEL PLAIN DWZ: in v1.32 mode, DWZ (PLAIN through dwz) encodes
# silently to PLAIN's BTF, and to pahole v1.32's where it is at hand; with
# default, no features and default,global_var.
as_before_dwz()
{
	local label=$1 plain=$2 dwzd=$3 f o
	for f in default "" default,global_var; do
		for o in "$plain" "$dwzd"; do
			PAHOLE_COMPAT=v1.32 "$PAHOLE" -J --btf_features="$f" \
				--btf_encode_detached="$o.btf" "$o" 2> "$TMP/stderr"
			RC=$?
			[ "$RC" -eq 0 ] && [ ! -s "$TMP/stderr" ] ||
				not_ok "$(basename "$o") [$f]: exit $RC: $(head -n 1 "$TMP/stderr")"
		done
		same_btf "$label [${f:-no features}]: the BTF before dwz" "$plain.btf" "$dwzd.btf"
		[ -n "$UPSTREAM132" ] || continue
		"$UPSTREAM132" -J --btf_features="$f" --btf_encode_detached="$TMP/up.btf" "$dwzd" \
			> /dev/null 2>&1
		same_btf "$label [${f:-no features}]: the BTF of pahole v1.32" "$TMP/up.btf" "$dwzd.btf"
	done
}

# What dwz makes of two CUs that share a header, DWARF 4 and 5: in v1.32
# mode, the BTF of the file before dwz.
if command -v dwz > /dev/null; then
	for v in 4 5; do
		so=$OBJ/dwz$v.so
		gcc -gdwarf-$v -O2 -fPIC -nostdlib -shared "$FIX/dwz_a.c" "$FIX/dwz_b.c" -o "$so" &&
			cp "$so" "$OBJ/dwz$v.dwz.so" && dwz "$OBJ/dwz$v.dwz.so" ||
			die "cannot build dwz$v.dwz.so"
		if ! grep -q imported_unit <(readelf -wi "$OBJ/dwz$v.dwz.so"); then
			not_ok "dwz$v.dwz.so: dwz imported no partial unit"
			continue
		fi
		as_before_dwz "dwz$v.dwz.so" "$so" "$OBJ/dwz$v.dwz.so"
		expect_refused "dwz$v.dwz.so" v1.31 "$OBJ/dwz$v.dwz.so" "imported_unit.*pahole v1.31"
	done
	# dwz -m: the shared partial units go to an alternate file, which
	# v1.32 reads (libdw finds it beside the file or by build ID): the BTF
	# of each file before dwz.  Without it: refused, naming it.
	mkdir "$OBJ/multi"
	m=$OBJ/multi
	gcc -g -O2 -fPIC -nostdlib -shared "$FIX/dwz_a.c" "$FIX/dwz_b.c" "$FIX/types_enum.c" \
		-o "$m/one.so" &&
		gcc -g -O2 -fPIC -nostdlib -shared "$FIX/dwz_a.c" "$FIX/types_struct.c" \
			-o "$m/two.so" &&
		cp "$m/one.so" "$m/one.plain.so" && cp "$m/two.so" "$m/two.plain.so" &&
		dwz -m "$m/common.alt" "$m/one.so" "$m/two.so" || die "cannot build the dwz -m files"
	for so in one two; do
		as_before_dwz "dwz -m $so.so" "$m/$so.plain.so" "$m/$so.so"
	done
	expect_refused "dwz -m" v1.31 "$m/one.so" "imported_unit.*pahole v1.31"
	mv "$m/common.alt" "$m/common.hidden"
	for rel in v1.31 v1.32; do
		expect_unreadable "dwz -m, its alternate file gone" $rel "$m/one.so" \
			"its dwz alternate file .*common.alt \(.gnu_debugaltlink\) cannot be read: not found"
	done
	mv "$m/common.hidden" "$m/common.alt"
	# dwz -5 -m: DWARF 5's supplementary file (.debug_sup, DW_FORM_ref_sup4),
	# which we open and resolve into ourselves (libdw 0.188 takes such a
	# reference for an offset in the file itself, and so does v1.32, whose
	# BTF is not compared here): the BTF of each file before dwz.
	mkdir "$OBJ/sup"
	m=$OBJ/sup
	for so in one two; do
		cp "$OBJ/multi/$so.plain.so" "$m/$so.so" && cp "$m/$so.so" "$m/$so.plain.so" ||
			die "cannot copy the dwz -5 -m files"
	done
	dwz -5 -m "$m/common.sup" -M common.sup "$m/one.so" "$m/two.so" ||
		die "cannot build the dwz -5 -m files"
	if grep -q "debug_sup" <(readelf -S "$m/one.so"); then
		for so in one two; do
			UPSTREAM132="" as_before_dwz "dwz -5 -m $so.so" "$m/$so.plain.so" "$m/$so.so"
		done
		expect_refused "dwz -5 -m" v1.31 "$m/one.so" "imported_unit.*pahole v1.31"
		mv "$m/common.sup" "$m/common.hidden"
		for rel in v1.31 v1.32; do
			expect_unreadable "dwz -5 -m, its supplementary file gone" $rel "$m/one.so" \
				"its DWARF 5 supplementary file common.sup \(.debug_sup\) cannot be read: not found"
		done
		mv "$m/common.hidden" "$m/common.sup"
	else
		not_ok "dwz -5 -m wrote no .debug_sup"
	fi
else
	note_skip "dwz not installed: the dwz'd files"
fi

echo "== 6. reordered parameters: v1.32 leaves the function out"
# refuse_fn's out-of-line copy lists its parameters in another order than
# its declaration (gcc's ext4_es_can_be_merged in Linux 6.1): v1.32 leaves
# it out with or without consistent_func; v1.31 only with it (default),
# its rule of registers.  In the declared order it is kept by both.
reord=$(build dwarf reordered_params) && ord=$(build dwarf ordered_params) ||
	die "cannot build the parameter-order fixtures"
for row in "v1.32 default" "v1.32 -" "v1.31 default" "v1.31 -"; do
	read -r rel f <<< "$row"
	[ "$f" = - ] && f=""
	want="good_t int long int"
	[ "$rel" = v1.31 ] && [ -z "$f" ] && want="(anon) good_t int long int refuse_fn"
	got=$(names "$rel" "$reord" "$f")
	check "reordered parameters [$rel, ${f:-no features}]: types '$want'" [ "$got" = "$want" ]
	got=$(names "$rel" "$ord" "$f")
	check "declared order [$rel, ${f:-no features}]: refuse_fn kept" \
		[ "$got" = "(anon) good_t int long int refuse_fn" ]
done
for o in "$reord" "$ord"; do
	for f in default ""; do
		rm -f "$OUT"/*
		PAHOLE_COMPAT=v1.31 "$PAHOLE" -J --btf_features="$f" \
			--btf_encode_detached="$OUT/ours.btf" "$o" 2> /dev/null
		if [ -n "$UPSTREAM" ]; then
			"$UPSTREAM" -J --btf_features="$f" --btf_encode_detached="$OUT/up.btf" "$o" \
				> /dev/null 2>&1
			same_btf "$(basename "$o") [${f:-no features}]: the BTF of pahole v1.31" \
				"$OUT/up.btf" "$OUT/ours.btf"
		fi
		[ -n "$UPSTREAM132" ] || continue
		PAHOLE_COMPAT=v1.32 "$PAHOLE" -J --btf_features="$f" \
			--btf_encode_detached="$OUT/ours132.btf" "$o" 2> /dev/null
		"$UPSTREAM132" -J --btf_features="$f" --btf_encode_detached="$OUT/up132.btf" "$o" \
			> /dev/null 2>&1
		same_btf "$(basename "$o") [${f:-no features}]: the BTF of pahole v1.32" \
			"$OUT/up132.btf" "$OUT/ours132.btf"
	done
done

finish
