#!/usr/bin/env bash
# make_seeds.sh OUTDIR [SRCDIR]: the seed corpus of fuzz_encode.
#
# Each tests/fixtures/*.c compiled -g -O2 -c with gcc and clang (those its
# "compilers:" line names, if it has one), -gdwarf-4 and -gdwarf-5; the
# objects of each multi-file fixture (NAME_a.c, NAME_b.c...) linked with
# ld -r (several CUs) and ld -e 0 (an ET_EXEC, like vmlinux); a few with
# compressed DWARF (-gz=zlib, -gz=zstd, objcopy's zstd; and the bad ones of
# tests/fixtures/bad_compressed.py) or linked as a shared object; and copies of a
# few seeds with fuzz_encode's variant bytes set (e_ident[9] bit 0: two
# workers; e_ident[10] bit 0: global_var, bit 1: pahole's features without
# --btf_features, bit 2: split BTF on a base, bit 3: true_signature), among
# them gcc's clones and clang 19's changed conventions
# (tests/fixtures/true_signature) with true_signature; and two-file inputs,
# dwz'd objects with the file they name (below).  A compiler or dwz that is
# missing or fails is left out.
set -u
OUT=$1
SRCDIR=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
FIXTURES=$SRCDIR/tests/fixtures
mkdir -p "$OUT"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fuzz_seeds.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

compilers_of()
{
	local only
	only=$(sed -n 's/.*compilers: *\([a-z ]*\).*/\1/p' "$1" | head -n 1)
	echo "${only:-gcc clang}"
}

n=0
for src in "$FIXTURES"/*.c; do
	name=$(basename "$src" .c)
	for cc in $(compilers_of "$src"); do
		command -v "$cc" > /dev/null || continue
		for dwarf in 4 5; do
			obj=$OUT/$name.$cc.dwarf$dwarf.o
			if "$cc" -g -O2 -gdwarf-$dwarf -fno-pie -c "$src" -o "$obj" 2> /dev/null; then
				n=$((n + 1))
			else
				rm -f "$obj"
			fi
		done
	done
done

# Multi-file fixtures: link NAME_*.CC.dwarfN.o together.
for a in "$OUT"/*_a.*.o; do
	[ -f "$a" ] || continue
	stem=$(basename "$a")
	group=${stem%%_a.*}
	suffix=${stem#"${group}_a."}
	objs=("$OUT/${group}"_[a-z]."$suffix")
	[ ${#objs[@]} -gt 1 ] || continue
	ld -r -o "$OUT/$group.${suffix%.o}.rel" "${objs[@]}" 2> /dev/null && n=$((n + 1))
	ld -e 0 -o "$OUT/$group.${suffix%.o}.exec" "${objs[@]}" 2> /dev/null && n=$((n + 1))
done

# Other shapes of ELF file: compressed DWARF sections (SHF_COMPRESSED), an
# ET_DYN (a shared object, like test_funcs' "dyn").
for src in "$FIXTURES"/sample.c "$FIXTURES"/funcs_kfunc.c "$FIXTURES"/types_struct.c \
	"$FIXTURES"/funcs_clone.c "$FIXTURES"/funcs_optimized.c; do
	[ -f "$src" ] || continue
	name=$(basename "$src" .c)
	gcc -g -O2 -gz=zlib -fno-pie -c "$src" -o "$OUT/$name.gcc.gz.o" 2> /dev/null && n=$((n + 1))
	gcc -g -O2 -fPIC -shared -nostdlib "$src" -o "$OUT/$name.gcc.so" 2> /dev/null && n=$((n + 1))
done

# zstd's compressed DWARF (-gz=zstd, objcopy, which also compresses a
# module's), and the bad compressed sections of test_bad_input (part 9).
for src in "$FIXTURES"/sample.c "$FIXTURES"/types_struct.c; do
	name=$(basename "$src" .c)
	gcc -g -O2 -gz=zstd -fno-pie -c "$src" -o "$OUT/$name.gcc.zstd.o" 2> /dev/null && n=$((n + 1))
done
for f in "$OUT"/types_enum.clang.dwarf4.o "$OUT"/funcs_split.gcc.dwarf5.rel; do
	[ -f "$f" ] || continue
	objcopy --compress-debug-sections=zstd "$f" "${f%.*}.objcopy-zstd.${f##*.}" 2> /dev/null &&
		n=$((n + 1))
done
if command -v python3 > /dev/null && [ -f "$OUT/sample.gcc.dwarf5.o" ] &&
	objcopy --compress-debug-sections=zstd "$OUT/sample.gcc.dwarf5.o" "$TMP/zstd.o" 2> /dev/null &&
	objcopy --compress-debug-sections=zlib "$OUT/sample.gcc.dwarf5.o" "$TMP/zlib.o" 2> /dev/null; then
	mkdir "$TMP/bad"
	python3 "$FIXTURES/bad_compressed.py" "$TMP/zstd.o" "$TMP/zlib.o" "$TMP/bad" > /dev/null &&
		for f in "$TMP"/bad/*.o; do
			cp "$f" "$OUT/compressed-$(basename "$f")" && n=$((n + 1))
		done
fi

# Hand-made units that refer into each other, a chunk each, sound and not.
if command -v python3 > /dev/null; then
	for v in ok mid_die cycle header; do
		python3 "$FIXTURES/bad_xunit.py" "$v" > "$TMP/xunit.s" 2> /dev/null &&
			gcc -c "$TMP/xunit.s" -o "$OUT/xunit-$v.o" 2> /dev/null && n=$((n + 1))
	done
fi

# set_byte FILE OFFSET VALUE OUT: a copy of FILE with one byte changed.
set_byte()
{
	cp "$1" "$4"
	# shellcheck disable=SC2059 # the format is the octal escape of the byte
	printf "$(printf '\\%03o' "$3")" | dd of="$4" bs=1 seek="$2" conv=notrunc status=none
}
for f in "$OUT"/sample.gcc.dwarf5.o "$OUT"/funcs_split.gcc.dwarf5.rel "$OUT"/funcs_vars.gcc.dwarf5.o \
	"$OUT"/types_tag.clang.dwarf5.o; do
	[ -f "$f" ] || continue
	set_byte "$f" 9 1 "$f.j2" && n=$((n + 1))
	set_byte "$f" 10 1 "$f.global_var" && n=$((n + 1))
	set_byte "$f" 10 2 "$f.plain" && n=$((n + 1))
	set_byte "$f" 10 4 "$f.split" && n=$((n + 1))
done
for f in "$OUT"/funcs_clone.gcc.so "$OUT"/funcs_optimized.gcc.so \
	"$FIXTURES"/true_signature/truesig_clang.*.so; do
	[ -f "$f" ] || continue
	set_byte "$f" 10 8 "$OUT/$(basename "$f").true_signature" && n=$((n + 1))
done
# Two-file inputs (fuzz_encode.c): a dwz'd shared object and the file it
# names "alt", by dwz -m (.gnu_debugaltlink) and dwz -5 -m (.debug_sup),
# DWARF 4 and 5; one of each in v1.31's rules too, and at -j2.
# pair OBJ ALT OUT: "PAHOLE2\0", OBJ's length (4 bytes, little-endian), OBJ, ALT.
pair()
{
	local len
	len=$(stat -c %s "$1")
	{
		printf 'PAHOLE2\0'
		# shellcheck disable=SC2059 # the format is the octal escapes of the length
		printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((len & 255)) $((len >> 8 & 255)) \
			$((len >> 16 & 255)) $((len >> 24 & 255)))"
		cat "$1" "$2"
	} > "$3"
}
if command -v dwz > /dev/null; then
	for v in 4 5; do
		for m in "-m" "-5 -m"; do
			d=$TMP/dwz$v${m// /}
			mkdir -p "$d"
			gcc -g -gdwarf-$v -O2 -fPIC -nostdlib -shared "$FIXTURES/dwz_a.c" \
				"$FIXTURES/dwz_b.c" "$FIXTURES/types_enum.c" -o "$d/one.so" 2> /dev/null &&
				gcc -g -gdwarf-$v -O2 -fPIC -nostdlib -shared "$FIXTURES/dwz_a.c" \
					"$FIXTURES/types_struct.c" -o "$d/two.so" 2> /dev/null &&
				# shellcheck disable=SC2086 # $m is dwz's options
				(cd "$d" && dwz $m alt -M alt one.so two.so 2> /dev/null) || continue
			for so in one two; do
				pair "$d/$so.so" "$d/alt" "$OUT/dwz$v${m// /}.$so.pair" && n=$((n + 1))
			done
			set_byte "$d/one.so" 9 2 "$d/one.v131.so" &&
				pair "$d/one.v131.so" "$d/alt" "$OUT/dwz$v${m// /}.one.v131.pair" &&
				n=$((n + 1))
			set_byte "$d/two.so" 9 1 "$d/two.j2.so" &&
				pair "$d/two.j2.so" "$d/alt" "$OUT/dwz$v${m// /}.two.j2.pair" && n=$((n + 1))
		done
	done
fi
echo "make_seeds: $n seeds in $OUT"
[ "$n" -gt 0 ]
