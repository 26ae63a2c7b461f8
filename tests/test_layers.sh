#!/bin/bash
# test_layers: the encoder's files call one another in one direction only.
#
# btf_encoder_priv.h lists the encoder's files from the top (the merge after
# the join) to the bottom (reading the CU's DIEs); each may call only files
# below it.  This reads the list from the header and, for every object of
# the library built from a listed file, the functions it defines and those
# it calls (nm): a call from a file into one at or above it in the list
# fails, as does a file of the family (btf_encoder*.c, btf_merge*.c)
# that the list leaves out.  The symbols are the compiler's, so a call
# through a table of functions (die_ops[]) counts as well.  Last, the files
# of the whole library must call each other without a cycle.
. "$(dirname "$0")/lib.sh"
need_tools nm tsort
make_tmp

HDR=$SRCDIR/btf_encoder_priv.h
OBJDIR=$BUILDDIR/CMakeFiles/btfenc.dir
[ -d "$OBJDIR" ] || die "no objects in $OBJDIR (build first)"

# The files in the header's order, top first.
mapfile -t order < <(sed -n 's/^ \*   \(btf_\(encoder\|merge\)_\?[a-z]*\.c\) .*/\1/p' "$HDR")
[ "${#order[@]}" -ge 10 ] || die "cannot read the list of files from $HDR (${#order[@]} found)"

declare -A rank
for i in "${!order[@]}"; do
	rank[${order[$i]}]=$i
done

# Every file of the family in the tree is in the list.
for src in "$SRCDIR"/btf_encoder*.c "$SRCDIR"/btf_merge*.c; do
	f=$(basename "$src")
	if [ -n "${rank[$f]+set}" ]; then
		ok "$f is in btf_encoder_priv.h's list (place ${rank[$f]})"
	else
		not_ok "$f is not in btf_encoder_priv.h's list of the encoder's files"
	fi
done

# Which listed file defines each global function.
declare -A owner
for f in "${order[@]}"; do
	obj=$OBJDIR/$f.o
	[ -f "$obj" ] || die "no object $obj"
	while read -r sym; do
		owner[$sym]=$f
	done < <(nm --defined-only "$obj" | awk '$2 ~ /^[TDRB]$/ { print $3 }')
done

# Each call into another file of the family goes down the list.
edges=0
for f in "${order[@]}"; do
	bad=""
	while read -r sym; do
		to=${owner[$sym]:-}
		[ -n "$to" ] && [ "$to" != "$f" ] || continue
		edges=$((edges + 1))
		if [ "${rank[$to]}" -le "${rank[$f]}" ]; then
			bad="$bad $sym ($to)"
		fi
	done < <(nm --undefined-only "$OBJDIR/$f.o" | awk '{ print $2 }')
	if [ -z "$bad" ]; then
		ok "$f calls only files below it"
	else
		not_ok "$f calls up the list:$bad"
	fi
done
# A list that nothing calls across would prove nothing.
[ "$edges" -gt 20 ] || not_ok "only $edges calls between the encoder's files: is nm reading them?"

# The shared function table is below the encoder: elf_functions.h and .c
# include nothing of it (btf_encoder*.h), directly or through the headers
# they include; what a node holds is btf_func_state.h's.
# includes FILE: FILE's own headers ("..."), and theirs, each once.
includes()
{
	local todo=("$1") seen=" " f h
	while [ ${#todo[@]} -gt 0 ]; do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		while read -r h; do
			[[ $seen == *" $h "* ]] && continue
			seen="$seen$h "
			echo "$h"
			[ -f "$SRCDIR/$h" ] && todo+=("$SRCDIR/$h")
		done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
	done
}
for f in elf_functions.h elf_functions.c; do
	bad=$(includes "$SRCDIR/$f" | grep -E '(^|/)btf_encoder[a-z_]*\.h$' | paste -sd' ')
	if [ -z "$bad" ]; then
		ok "$f includes nothing of the encoder"
	else
		not_ok "$f includes the encoder's $bad"
	fi
done

# The whole library: no two files reach each other through their calls
# (tsort finds every cycle of the file graph).
declare -A lib_owner
objs=()
for src in "$SRCDIR"/*.c "$SRCDIR"/lib/*.c; do
	rel=${src#"$SRCDIR"/}
	[ -f "$OBJDIR/$rel.o" ] || continue
	objs+=("$rel")
	while read -r sym; do
		lib_owner[$sym]=$rel
	done < <(nm --defined-only "$OBJDIR/$rel.o" | awk '$2 ~ /^[TDRB]$/ { print $3 }')
done
[ "${#objs[@]}" -ge 30 ] || die "only ${#objs[@]} objects of the library in $OBJDIR"
for rel in "${objs[@]}"; do
	echo "$rel $rel"
	while read -r sym; do
		to=${lib_owner[$sym]:-}
		[ -n "$to" ] && [ "$to" != "$rel" ] && echo "$rel $to"
	done < <(nm --undefined-only "$OBJDIR/$rel.o" | awk '{ print $2 }')
done | sort -u > "$TMP/graph"
if tsort "$TMP/graph" > /dev/null 2> "$TMP/tsort.err"; then
	ok "the ${#objs[@]} files of the library call each other without a cycle"
else
	not_ok "a cycle among the library's files:"
	sed 's/^/    /' "$TMP/tsort.err"
fi
finish
