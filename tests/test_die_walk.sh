#!/usr/bin/env bash
# die_reader's walk of the DIEs against libdw's own (tests/die_walk.c): the
# same DIEs met by child and sibling, the same tags, the same attributes
# handed over, where libdw would point at them.  The types' fixtures built
# by gcc (DWARF 2, 4 and 5, -O0 and -O2) and clang (DWARF 4 and 5, x86-64,
# arm64 and big-endian s390x), the functions' by gcc and clang (DWARF 5,
# -O2, x86-64), and the corpus: its modules, and (not under TEST_FAST) both
# vmlinux, 14 and 18 million DIEs.

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
make_tmp
WALK=$BUILDDIR/tests/die_walk
[ -x "$WALK" ] || die "no $WALK: build first"

# walk WHAT FILE...: die_walk's line for each file says "the same".
walk()
{
	local what=$1
	shift
	file_lines "$WALK" "the same" "$what" "$@"
}

variants=$(fast_or "gcc:-gdwarf-5:-O2 clang:-gdwarf-5:-O2 clang:-gdwarf-5:-O2:--target=s390x-linux-gnu" \
	"gcc:-gdwarf-2:-O2 gcc:-gdwarf-4:-O2 gcc:-gdwarf-5:-O2 gcc:-gdwarf-5:-O0 clang:-gdwarf-4:-O2 clang:-gdwarf-5:-O2 clang:-gdwarf-5:-O2:--target=aarch64-linux-gnu clang:-gdwarf-5:-O2:--target=s390x-linux-gnu")
for v in $variants; do
	IFS=: read -r cc dw opt target <<< "$v"
	command -v "$cc" > /dev/null || { note_skip "$cc not installed"; continue; }
	dir=$TMP/${v//[:=-]/_}
	mkdir -p "$dir"
	objs=()
	# The functions' fixtures in the two main variants: compiling is most of the time.
	srcs=("$SRCDIR"/tests/fixtures/types_*.c)
	[ "$dw$opt$target" = "-gdwarf-5-O2" ] && srcs+=("$SRCDIR"/tests/fixtures/funcs_*.c)
	for src in "${srcs[@]}"; do
		obj=$dir/$(basename "$src" .c).o
		# shellcheck disable=SC2086 # an empty target is no argument
		"$cc" -g "$dw" "$opt" $target -c "$src" -o "$obj" 2> /dev/null && objs+=("$obj")
	done
	[ ${#objs[@]} -gt 0 ] || { not_ok "$v: no fixture builds"; continue; }
	walk "$v" "${objs[@]}"
done

CORPUS=$(corpus_dir)
walk corpus "$CORPUS"/modules/*.ko
if [ "${TEST_FAST:-0}" != 1 ]; then
	walk corpus "$CORPUS"/vmlinux-*
fi
finish
