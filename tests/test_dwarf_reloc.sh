#!/usr/bin/env bash
# dwarf_reloc, our relocation of a module's DWARF, against libdwfl's on the
# same file (tests/dwarf_reloc.c): every section's address, every size but
# the relocation sections' and every .debug_* byte the same.
# x86_64 objects built by gcc and clang (DWARF 4 and 5, -O0 and -O2) and the
# corpus's modules are relocated by us; arm64 and s390x objects are left
# to libdwfl (checked too: they must not be taken), and so is a file whose
# first allocated section has an address.

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
make_tmp
RELOC=$BUILDDIR/tests/dwarf_reloc
[ -x "$RELOC" ] || die "no $RELOC: build first"

# reloc WANT WHAT FILE...: dwarf_reloc's line for each file says WANT
# ("the same" or "left to libdwfl").
reloc()
{
	local want=$1 what=$2
	shift 2
	file_lines "$RELOC" "$want" "$what" "$@"
}

for v in gcc:-gdwarf-4:-O2 gcc:-gdwarf-5:-O0 clang:-gdwarf-5:-O2 \
	clang:-gdwarf-5:-O2:--target=aarch64-linux-gnu clang:-gdwarf-5:-O2:--target=s390x-linux-gnu; do
	IFS=: read -r cc dw opt target <<< "$v"
	command -v "$cc" > /dev/null || { note_skip "$cc not installed"; continue; }
	objs=()
	for src in "$SRCDIR"/tests/fixtures/types_*.c "$SRCDIR"/tests/fixtures/funcs_*.c; do
		obj=$TMP/${v//[:=-]/_}_$(basename "$src" .c).o
		# shellcheck disable=SC2086 # an empty target is no argument
		"$cc" -g "$dw" "$opt" $target -c "$src" -o "$obj" 2> /dev/null && objs+=("$obj")
	done
	[ ${#objs[@]} -gt 0 ] || { not_ok "$v: no fixture builds"; continue; }
	if [ -n "$target" ]; then
		reloc "left to libdwfl" "$v" "${objs[@]}"
	else
		reloc "the same" "$v" "${objs[@]}"
	fi
done

# Addresses the file sets (ld -r with a script, as Linux 6.12's modules
# have some): libdwfl keeps a later section's where it is the next anyway and
# lays the others out; a first allocated section with one is left to it.
srcs=("$SRCDIR"/tests/fixtures/funcs_*.c)
src=${srcs[0]}
if gcc -g -O2 -c "$src" -o "$TMP/set.o" 2> /dev/null; then
	printf 'SECTIONS { .data 0x2a0 : { *(.data) } }\n' > "$TMP/later.lds"
	printf 'SECTIONS { .text 0x1000 : { *(.text) } }\n' > "$TMP/first.lds"
	if ! ld -r -T "$TMP/later.lds" "$TMP/set.o" -o "$TMP/later.o" ||
		! ld -r -T "$TMP/first.lds" "$TMP/set.o" -o "$TMP/first.o"; then
		die "ld -r with a script failed"
	fi
	reloc "the same" "a later section's address set" "$TMP/later.o"
	reloc "left to libdwfl" "the first section's address set" "$TMP/first.o"
else
	not_ok "gcc cannot build $src"
fi

CORPUS=$(corpus_dir)
reloc "the same" corpus "$CORPUS"/modules/*.ko
finish
