#!/usr/bin/env bash
# test_compressed: compressed DWARF (SHF_COMPRESSED: zstd, which libdw 0.188
# cannot read, and zlib) gives the BTF of the same file uncompressed.
#
# The files are compressed here with objcopy --compress-debug-sections
# (=zstd and =zlib), as a kernel's DEBUG_INFO_COMPRESSED_ZSTD/_ZLIB link
# and a debug package's tools do.  For each, in both releases:
#   fixtures  tests/fixtures/{sample,types_struct,types_enum,funcs_vars}.c
#             by gcc and clang, DWARF 4 and 5 (5 alone with TEST_FAST=1):
#             the same bytes as the plain object, at -j1 and -j2
#   dwz       a dwz -m pair (v1.32 reads it), the object and its alternate
#             file both compressed
#   modules   the corpus modules split on v1.31's vmlinux BTF, and on that
#             BTF as the .BTF of an ELF file whose DWARF is compressed
#   in place  -J on a compressed object adds .BTF and changes no other
#             section: the compressed ones keep their bytes
#
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
make_tmp
FIX=$SRCDIR/tests/fixtures
objcopy --compress-debug-sections=zstd "$PAHOLE" "$TMP/probe" 2> /dev/null ||
	skip "objcopy cannot compress with zstd (binutils 2.40 or later can)"

# same WHAT A B: files A and B have the same bytes.
same()
{
	if cmp -s "$2" "$3"; then
		ok "$1: the same bytes"
	else
		not_ok "$1: other bytes ($(stat -c %s "$2") and $(stat -c %s "$3"))"
	fi
}

# encode REL OUT ARGS...: pahole as release REL, detached to OUT; fails the
# case (not the test) with the line pahole wrote.
encode()
{
	local rel=$1 out=$2
	shift 2
	rm -f "$out"
	PAHOLE_COMPAT=$rel "$PAHOLE" -J --btf_encode_detached="$out" "$@" 2> "$out.err" ||
		not_ok "pahole $* ($rel): $(head -n 1 "$out.err")"
}

# compressions FILE: FILE.zstd and FILE.zlib beside it.
compressions()
{
	local z
	for z in zstd zlib; do
		objcopy --compress-debug-sections=$z "$1" "$1.$z" || die "objcopy $z failed on $1"
		readelf -St "$1.$z" | grep -q COMPRESSED || die "objcopy left $1.$z uncompressed"
	done
}

echo "== fixtures"
for src in sample types_struct types_enum funcs_vars; do
	for cc in gcc clang; do
		command -v $cc > /dev/null || { note_skip "$cc is not installed"; continue; }
		for v in $(fast_or 5 "4 5"); do
			obj=$TMP/$src.$cc.$v.o
			$cc -g -gdwarf-$v -O2 -c "$FIX/$src.c" -o "$obj" || die "$cc failed on $src.c"
			compressions "$obj"
			for rel in v1.31 v1.32; do
				encode $rel "$obj.btf" --btf_features=default "$obj"
				for z in zstd zlib; do
					encode $rel "$obj.$z.btf" --btf_features=default "$obj.$z"
					same "$src $cc DWARF $v, $z, $rel" "$obj.btf" "$obj.$z.btf"
				done
				encode $rel "$obj.zstd.j2.btf" -j2 --btf_features=default "$obj.zstd"
				same "$src $cc DWARF $v, zstd -j2, $rel" "$obj.btf" "$obj.zstd.j2.btf"
			done
		done
	done
done

echo "== dwz"
if command -v dwz > /dev/null; then
	d=$TMP/dwz
	mkdir -p "$d/z"
	gcc -g -O2 -fPIC -nostdlib -shared "$FIX/dwz_a.c" "$FIX/dwz_b.c" -o "$d/one.so" &&
		gcc -g -O2 -fPIC -nostdlib -shared "$FIX/dwz_a.c" -o "$d/two.so" &&
		(cd "$d" && dwz -m common.alt -M common.alt one.so two.so) || die "dwz failed"
	for f in one.so common.alt; do
		objcopy --compress-debug-sections=zstd "$d/$f" "$d/z/$f" || die "objcopy failed on $f"
	done
	encode v1.32 "$d/one.btf" --btf_features=default "$d/one.so"
	encode v1.32 "$d/z/one.btf" --btf_features=default "$d/z/one.so"
	same "dwz -m, object and alternate file in zstd, v1.32" "$d/one.btf" "$d/z/one.btf"
else
	note_skip "dwz is not installed: the compressed alternate file"
fi

echo "== modules"
if corpus=$(corpus_dir 2> /dev/null); then
	base=$corpus/reference/vmlinux.default.btf
	# The base as an ELF file's .BTF, its DWARF compressed: what --btf_base
	# vmlinux reads in a kernel built with DEBUG_INFO_COMPRESSED_ZSTD.
	gcc -g -O2 -c "$FIX/sample.c" -o "$TMP/base.o" &&
		objcopy --compress-debug-sections=zstd --add-section .BTF="$base" \
			"$TMP/base.o" "$TMP/base.elf" || die "cannot make the base ELF file"
	for ko in "$corpus"/modules/*.ko; do
		m=$TMP/$(basename "$ko" .ko)
		cp "$ko" "$m.ko"
		compressions "$m.ko"
		for rel in v1.31 v1.32; do
			encode $rel "$m.btf" --btf_features=default --btf_base "$base" "$m.ko"
			for z in zstd zlib; do
				encode $rel "$m.$z.btf" --btf_features=default --btf_base "$base" "$m.ko.$z"
				same "$(basename "$m") $z, $rel" "$m.btf" "$m.$z.btf"
			done
			encode $rel "$m.elfbase.btf" --btf_features=default --btf_base "$TMP/base.elf" \
				"$m.ko.zstd"
			same "$(basename "$m") zstd on a base ELF in zstd, $rel" "$m.btf" "$m.elfbase.btf"
		done
	done
else
	need_corpus
fi

echo "== in place"
obj=$TMP/inplace.o
gcc -g -O2 -c "$FIX/types_struct.c" -o "$obj" && objcopy --compress-debug-sections=zstd "$obj" ||
	die "cannot make the object"
cp "$obj" "$obj.before"
if "$PAHOLE" -J --btf_features=default "$obj"; then
	ok "in place: encoded"
	check "in place: only .BTF added, the compressed sections as they were" \
		elf_cmp_sections "$obj.before" "$obj" .shstrtab+ .BTF
	readelf -St "$obj" | grep -q COMPRESSED || not_ok "in place: nothing compressed any more"
	"$PAHOLE" -J --btf_features=default --btf_encode_detached="$TMP/inplace.btf" "$obj.before"
	objcopy --dump-section .BTF="$TMP/inplace.section" "$obj" "$TMP/inplace.dump"
	same "in place: .BTF is the detached BTF" "$TMP/inplace.btf" "$TMP/inplace.section"
else
	not_ok "in place: pahole failed"
fi

finish
