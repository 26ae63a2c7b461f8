#!/usr/bin/env bash
# test_helgrind: the workers share libdw and libelf state only as
# dwarf_loader.h and btf_encoder.h say, as seen by valgrind's race
# detectors, which (unlike ThreadSanitizer) see inside libdw and libelf:
# each input is encoded at -j4 under helgrind, and some under drd; each run
# must report 0 errors and write the bytes pahole writes without valgrind.
#   multi-cu   the type and function fixtures, compiled (gcc -g -O2) and
#              linked with ld -r: many CUs, in several chunks
#   lto        gcc -flto with several partitions: units that refer into
#              each other, encoded as one CU by one worker
#   clang      the C sources of this tree by clang -O2 -gdwarf-5, in v1.32
#              mode: location lists by index, which libdw reads, entry
#              values in them read in libdw's one unit of the file's lists;
#              and with its chunks in parts (PAHOLE_SPLIT_CHUNKS)
#   module     the corpus's nf_conntrack.ko, split over its vmlinux's BTF
#   dwz        dwz's partial units, imported by CUs that are encoded one by
#              one (a Linux no-LTO note), in v1.32 mode: every worker whose
#              CU imports one reads its DIEs.  The C sources of this tree
#              (gcc -g -O0), in 40-odd CUs sharing their headers, make
#              enough of them for libdw's first reads of their
#              abbreviations to meet (dwarf_loader.c reads them first)
# tests/helgrind.supp has what helgrind and drd cannot judge (C11 atomics).
#
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
need_tools valgrind gcc clang ld pkg-config objcopy
need_corpus
make_tmp

FIXTURES=$SRCDIR/tests/fixtures
CORPUS=$(corpus_dir)

# race TOOL LABEL INPUT [OPTIONS...]: encode INPUT at -j4 under TOOL.
race()
{
	local tool=$1 label=$2 input=$3 log=$TMP/$1.$2.log rc
	shift 3
	"$PAHOLE" -J -j4 --btf_features=default "$@" --btf_encode_detached="$TMP/plain.btf" \
		"$input" > /dev/null 2>&1 || { not_ok "$label: pahole failed without valgrind"; return; }
	valgrind --tool="$tool" --error-exitcode=9 --suppressions="$SRCDIR/tests/helgrind.supp" \
		"$PAHOLE" -J -j4 --btf_features=default "$@" \
		--btf_encode_detached="$TMP/$tool.btf" "$input" > "$log" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || ! grep -q 'ERROR SUMMARY: 0 errors' "$log"; then
		not_ok "$label under $tool: exit $rc, $(grep -o 'ERROR SUMMARY: [0-9]* errors' "$log")"
		grep -A20 -m3 'Possible data race\|Conflicting\|lock order' "$log" | head -60 |
			sed 's/^/    /'
		return
	fi
	if cmp -s "$TMP/plain.btf" "$TMP/$tool.btf"; then
		ok "$label under $tool: 0 errors, the same $(stat -c %s "$TMP/plain.btf") bytes"
	else
		not_ok "$label under $tool: other bytes than without valgrind"
	fi
}

objs=()
for src in "$FIXTURES"/types_*.c "$FIXTURES"/funcs_static_*.c "$FIXTURES"/funcs_abi.c; do
	obj=$TMP/$(basename "$src" .c).o
	gcc -g -O2 -c "$src" -o "$obj" 2> "$obj.err" || die "cannot compile $(basename "$src")"
	objs+=("$obj")
done
ld -r -o "$TMP/multi.o" "${objs[@]}" || die "ld -r failed"
race helgrind "multi-cu (${#objs[@]} CUs)" "$TMP/multi.o"

if gcc -g -O2 -flto -flto-partition=max -fPIC -nostdlib -shared -o "$TMP/lto.so" \
   "$FIXTURES/funcs_lto.c" "$FIXTURES/funcs_abi.c" 2> "$TMP/lto.err"; then
	race helgrind lto "$TMP/lto.so"
else
	not_ok "gcc -flto: compiling or linking failed"
	sed 's/^/    /' "$TMP/lto.err"
fi

if command -v dwz > /dev/null; then
	# LINUX_ELFNOTE_LTO_INFO (include/linux/elfnote-lto.h), 0: no LTO.
	printf '\006\000\000\000\004\000\000\000\001\001\000\000Linux\000\000\000\000\000\000\000' \
		> "$TMP/nolto.note"
	mkdir "$TMP/src"
	read -ra cflags <<< "$(pkg-config --cflags libdw libbpf)"
	# _Atomic is left out: a file that has one is refused.
	for src in "$SRCDIR"/*.c "$SRCDIR"/lib/*.c; do
		gcc -g -O0 -fPIC -D_GNU_SOURCE -D_Atomic= -I"$SRCDIR" -I"$SRCDIR/lib" \
			"${cflags[@]}" -c "$src" \
			-o "$TMP/src/$(basename "$src" .c).o" || die "cannot compile $(basename "$src")"
	done
	gcc -nostdlib -shared -o "$TMP/dwz.so" "$TMP"/src/*.o && dwz "$TMP/dwz.so" &&
		objcopy --add-section .note.Linux="$TMP/nolto.note" \
			--set-section-flags .note.Linux=alloc,readonly "$TMP/dwz.so" "$TMP/dwz.nolto.so" \
			2> /dev/null || die "cannot build dwz.nolto.so"
	PAHOLE_COMPAT=v1.32 race helgrind "dwz, units one by one" "$TMP/dwz.nolto.so"
	PAHOLE_COMPAT=v1.32 race drd "dwz, units one by one" "$TMP/dwz.nolto.so"
else
	note_skip "dwz not installed: the partial units"
fi

# clang's DWARF 5 lists (DW_FORM_loclistx, address indexes) are read by
# libdw, and an entry value's block in one by libdw's unit of all the
# file's lists: every worker's, under the file's lock (unit_locks.h).
mkdir "$TMP/clang"
read -ra cflags <<< "$(pkg-config --cflags libdw libbpf)"
# _Atomic is left out, as above; clang's <stdatomic.h> then does not
# compile, and the files that include it are left out too.
for src in "$SRCDIR"/*.c "$SRCDIR"/lib/*.c; do
	clang -g -gdwarf-5 -O2 -fPIC -D_GNU_SOURCE -D_Atomic= -I"$SRCDIR" -I"$SRCDIR/lib" \
		"${cflags[@]}" -c "$src" -o "$TMP/clang/$(basename "$src" .c).o" 2> /dev/null
done
n=$(find "$TMP/clang" -name '*.o' | wc -l)
[ "$n" -ge 20 ] || die "clang compiled $n of this tree's sources, not 20"
ld -r -o "$TMP/clang.o" "$TMP"/clang/*.o || die "ld -r failed"
PAHOLE_COMPAT=v1.32 race helgrind "clang -O2 DWARF 5, lists read by libdw" "$TMP/clang.o"
PAHOLE_COMPAT=v1.32 race drd "clang -O2 DWARF 5, lists read by libdw" "$TMP/clang.o"
# Its chunks in parts (PAHOLE_SPLIT_CHUNKS), and the backs of others' units,
# however small, taken by the workers before each chunk (dwarf_chunks.c):
# the ranges' words, the parts' encoders, the chunk's wait for its parts.
PAHOLE_COMPAT=v1.32 PAHOLE_SPLIT_CHUNKS=1 race helgrind "clang -O2 DWARF 5, chunks in parts" \
	"$TMP/clang.o"
PAHOLE_COMPAT=v1.32 PAHOLE_SPLIT_CHUNKS=1 race drd "clang -O2 DWARF 5, chunks in parts" "$TMP/clang.o"

base=$CORPUS/reference/vmlinux.default.btf
# Under helgrind alone: drd reads the same accesses, for a minute of CI.
race helgrind module "$CORPUS/modules/nf_conntrack.ko" --btf_base "$base"

finish
