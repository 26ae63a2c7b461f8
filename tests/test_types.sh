#!/usr/bin/env bash
# test_types: the BTF that `pahole -J` writes for every C type construct.
#
# Each tests/fixtures/types_*.c is compiled with gcc and clang (-g -O2 -c,
# with -gdwarf-4 and -gdwarf-5, and -gdwarf-2 where it says so) and encoded in several feature modes.  For
# each object and mode:
#   encode  pahole exits 0 and writes the raw BTF file
#   libbpf  bpftool (libbpf) parses it
#   expect  its canonical lines (see btf_canon in lib.sh) are exactly those
#           of tests/fixtures/types_*.expect, written by hand from the C
#           source (see expect_lines in lib.sh for the syntax)
#   canon   bpftool's and btfcanon's canonical forms agree (only when
#           ../shared/tools/btfcanon is there, in the modes of CROSS_MODES;
#           keeps the fallback honest)
#   kernel  the running kernel accepts it ($BTF_LOAD; skipped, with a note,
#           when the bpf syscall is not permitted here)
# A fixture containing a line "compilers: NAME..." is only built with those.
# The modes are v1.31's (tests/lib.sh) but default_v132, v1.32's default
# (token v132: its multi-dimensional arrays).
#
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
make_tmp

FIXTURES=$SRCDIR/tests/fixtures

# NAME|PAHOLE OPTIONS|TOKENS: the tokens select lines in the .expect files.
MODES=(
	"default|--btf_features=default|float enum64 typetag"
	"plain||enum64 typetag"
	"skip_enum64|--skip_encoding_btf_enum64|typetag"
	"features_no_enum64|--btf_features=var,float,decl_tag,type_tag|float typetag"
	"skip_type_tag|--skip_encoding_btf_type_tag|enum64"
	"features_no_type_tag|--btf_features=var,float,decl_tag,enum64|float enum64"
	"default_v132|--compat=v1.32 --btf_features=default|float enum64 typetag v132"
)


command -v bpftool > /dev/null || skip "bpftool is not installed"

COMPILERS=()
for cc in gcc clang; do
	if command -v "$cc" > /dev/null; then
		COMPILERS+=("$cc")
	else
		note_skip "$cc is not installed: its objects are not tested"
	fi
done
[ ${#COMPILERS[@]} -gt 0 ] || skip "neither gcc nor clang is installed"

USE_BTFCANON=0
# The modes whose files btfcanon reads too (the canon check), a Python start
# each: every kind and both releases' arrays; the others are bpftool's alone.
CROSS_MODES="default default_v132"
if [ -f "$BTFCANON" ] && command -v python3 > /dev/null; then
	USE_BTFCANON=1
else
	echo "note: $BTFCANON not available, canonical forms come from bpftool"
fi

# show_diff EXPECTED GOT: the lines only in one of the two sorted files.
show_diff()
{
	LC_ALL=C comm -23 "$1" "$2" | sed 's/^/	missing:    /'
	LC_ALL=C comm -13 "$1" "$2" | sed 's/^/	unexpected: /'
}

# strip_kind: "KIND<TAB>definition" -> "definition", sorted.
strip_kind()
{
	cut -f2- | LC_ALL=C sort
}

# check_btf LABEL BTF EXPECT_FILE TOKENS MODE: the libbpf, expect, canon and
# kernel checks of one file encoded in MODE; prints one line for all of them.
check_btf()
{
	local label=$1 btf=$2 expect=$3 tokens=$4 mode=$5
	local base=${btf%.btf} failed=() details=() rc cross=0
	[ $USE_BTFCANON -eq 1 ] && [[ " $CROSS_MODES " == *" $mode "* ]] && cross=1

	if bpftool btf dump file "$btf" format raw > "$base.dump" 2> "$base.dumperr"; then
		btf_canon_awk < "$base.dump" | strip_kind > "$base.bpftool-canon"
	else
		failed+=(libbpf)
		details+=("bpftool btf dump failed: $(head -c 2000 "$base.dumperr")")
	fi

	if ! expect_lines "$expect" "$tokens" > "$base.expected"; then
		die "bad expectation file $expect"
	fi
	if [ $cross -eq 1 ]; then
		if python3 "$BTFCANON" canon "$btf" > "$base.canon-raw" 2> "$base.canonerr"; then
			strip_kind < "$base.canon-raw" > "$base.canon"
		else
			failed+=(btfcanon)
			details+=("btfcanon failed: $(head -c 2000 "$base.canonerr")")
		fi
	elif [ -f "$base.bpftool-canon" ]; then
		cp "$base.bpftool-canon" "$base.canon"
	fi
	if [ -f "$base.canon" ]; then
		if ! cmp -s "$base.expected" "$base.canon"; then
			failed+=(expect)
			details+=("BTF differs from $(basename "$expect") [$tokens]:"$'\n'"$(show_diff "$base.expected" "$base.canon")")
		fi
		if [ $cross -eq 1 ] && [ -f "$base.bpftool-canon" ] &&
		   ! cmp -s "$base.canon" "$base.bpftool-canon"; then
			failed+=(canon)
			details+=("btfcanon (expected) and bpftool (got) disagree:"$'\n'"$(show_diff "$base.canon" "$base.bpftool-canon")")
		fi
	fi

	kernel_load "$btf" "$base.load"
	if [ $? -eq 1 ]; then
		failed+=(kernel)
		details+=("kernel rejected it (btf_load exit $KERNEL_RC):"$'\n'"$(head -c 4000 "$base.load" | sed 's/^/	/')")
	fi

	if [ ${#failed[@]} -eq 0 ]; then
		ok "$label"
	else
		not_ok "$label: ${failed[*]}"
		printf '%s\n' "${details[@]}" | sed 's/^/    /'
	fi
}

for src in "$FIXTURES"/types_*.c; do
	fixture=$(basename "$src" .c)
	expect=$FIXTURES/$fixture.expect
	[ -f "$expect" ] || die "$fixture.c has no $fixture.expect"
	only=$(sed -n 's/.*compilers: *\([a-z ]*\).*/\1/p' "$src" | head -n 1)
	# "dwarf2: yes": also -gdwarf-2 -gstrict-dwarf, whose member offsets
	# are DW_OP_plus_uconst blocks and bit fields DW_AT_bit_offset.
	dwarfs=$(fast_or "5" "4 5")
	grep -q 'dwarf2: yes' "$src" && dwarfs=$(fast_or "2 5" "2 4 5")

	for cc in "${COMPILERS[@]}"; do
		if [ -n "$only" ] && [[ " $only " != *" $cc "* ]]; then
			continue
		fi
		for dwarf in $dwarfs; do
			obj=$TMP/$fixture.$cc.dwarf$dwarf.o
			strict=()
			[ "$dwarf" = 2 ] && strict=(-gstrict-dwarf)
			if ! "$cc" -g -O2 -gdwarf-$dwarf "${strict[@]}" -c "$src" -o "$obj" \
			     2> "$obj.err"; then
				not_ok "$fixture $cc -gdwarf-$dwarf: compile failed"
				sed 's/^/    /' "$obj.err"
				continue
			fi
			for mode in "${MODES[@]}"; do
				IFS='|' read -r mname mopts mtokens <<< "$mode"
				label="$fixture $cc -gdwarf-$dwarf $mname"
				btf=$TMP/$fixture.$cc.dwarf$dwarf.$mname.btf
				# shellcheck disable=SC2086 # $mopts is a list of options
				if ! "$PAHOLE" -J $mopts --btf_encode_detached="$btf" "$obj" \
				     > "$btf.out" 2>&1 || [ ! -s "$btf" ]; then
					not_ok "$label: encode (pahole -J $mopts failed or wrote nothing)"
					head -c 2000 "$btf.out" | sed 's/^/    /'
					continue
				fi
				check_btf "$label" "$btf" "$expect" "$cc dwarf$dwarf $mtokens" "$mname"
			done
		done
	done
done

# gcc's BTF tags (DW_AT_GNU_annotation chains), from hand-made DWARF: Debian
# 12's gcc writes none.
python3 "$SRCDIR/tests/fixtures/refuse_dwarf.py" gnu_annotations > "$TMP/gnu.s" &&
	gcc -c "$TMP/gnu.s" -o "$TMP/gnu.o" || die "cannot make the gnu_annotations object"
for mode in "${MODES[@]}"; do
	IFS='|' read -r mname mopts mtokens <<< "$mode"
	btf=$TMP/gnu.$mname.btf
	# shellcheck disable=SC2086 # $mopts is a list of options
	if "$PAHOLE" -J $mopts --btf_encode_detached="$btf" "$TMP/gnu.o" > "$btf.out" 2>&1 &&
	   [ -s "$btf" ]; then
		check_btf "gnu_annotations $mname" "$btf" "$FIXTURES/gnu_annotations.expect" "$mtokens" \
			"$mname"
	else
		not_ok "gnu_annotations $mname: encode: $(head -n 2 "$btf.out")"
	fi
done

# Compressed DWARF reads as the plain one: SHF_COMPRESSED sections (zlib)
# and GNU's older .zdebug_* ones (zlib-gnu), which pahole v1.31 reads too.
src=$FIXTURES/types_struct.c
if gcc -g -O2 -c "$src" -o "$TMP/z.o" && gcc -g -O2 -fPIC -nostdlib -shared "$src" -o "$TMP/z.so" &&
   "$PAHOLE" -J --btf_encode_detached="$TMP/z.o.btf" "$TMP/z.o" &&
   "$PAHOLE" -J --btf_encode_detached="$TMP/z.so.btf" "$TMP/z.so"; then
	for kind in zlib zlib-gnu; do
		for f in z.o z.so; do
			objcopy --compress-debug-sections=$kind "$TMP/$f" "$TMP/$kind.$f" ||
				die "objcopy --compress-debug-sections=$kind failed"
			if "$PAHOLE" -J --btf_encode_detached="$TMP/$kind.$f.btf" "$TMP/$kind.$f" \
			   > "$TMP/$kind.out" 2>&1 && cmp -s "$TMP/$f.btf" "$TMP/$kind.$f.btf"; then
				ok "types_struct $f, DWARF compressed $kind: the same BTF"
			else
				not_ok "types_struct $f, DWARF compressed $kind: $(head -n 2 "$TMP/$kind.out")"
			fi
		done
	done
else
	not_ok "types_struct: compiling or encoding for the compressed DWARF checks failed"
fi

finish
