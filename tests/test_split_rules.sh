#!/usr/bin/env bash
# The rules of split BTF's dedup in which the releases' libbpfs differ
# (btf_dedup.h, struct btf_dedup_rules): tests/fixtures/split_rules, a base
# (base.c) and a module of two CUs (module.c, module_td.c) in C, built by
# gcc and clang; the base encoded alone, the module split on it, in each
# release; which types the module keeps is written in split_rules.expect,
# and distilled_base's split BTF (detached) is the same.
# Then the base in every shape a newer encoder writes it (libbpf 1.8's
# 32-byte header, with and without a layout section; either byte order;
# an ELF file's .BTF): the module's BTF the same bytes on each.  And a
# big-endian base and module (clang for s390x): split BTF in the module's
# byte order, the same types as on the base in ours.

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
need_tools bpftool python3
make_tmp
FIX=$SRCDIR/tests/fixtures/split_rules
REWRITE=$SRCDIR/tests/btf_rewrite.py

# build CC DIR [FLAGS...]: base.o, m1.o (module.c), and mod.o (m1.o and module_td.c, ld -r) into DIR.
build()
{
	local cc=$1 dir=$2
	shift 2
	mkdir -p "$dir"
	"$cc" "$@" -g -O2 -c "$FIX/base.c" -o "$dir/base.o" &&
		"$cc" "$@" -g -O2 -DMODULE -c "$FIX/module.c" -o "$dir/m1.o" &&
		"$cc" "$@" -g -O2 -c "$FIX/module_td.c" -o "$dir/m2.o" || return
	# No linker here takes s390x objects: there the module is module.c's alone.
	[ $# -gt 0 ] || ld -r -o "$dir/mod.o" "$dir/m1.o" "$dir/m2.o"
}

# count BASE SPLIT KIND NAME: how many types of KIND named NAME SPLIT has of its own.
count()
{
	bpftool -B "$1" btf dump file "$2" | awk -v k="$3" -v n="'$4'" '
		$2 == k && $3 == n { c++ } END { print c + 0 }'
}

# encode REL DIR: DIR/base.REL.btf, then DIR/mod.REL.btf split on it.
encode()
{
	PAHOLE_COMPAT=$1 "$PAHOLE" -J --btf_features=default \
		--btf_encode_detached="$2/base.$1.btf" "$2/base.o" &&
		PAHOLE_COMPAT=$1 "$PAHOLE" -J --btf_features=default --btf_base "$2/base.$1.btf" \
			--btf_encode_detached="$2/mod.$1.btf" "$2/mod.o"
}

# rules CC: the expectations, in both releases.
rules()
{
	local cc=$1 dir=$TMP/$1 rel col kind name want got
	build "$cc" "$dir" || { not_ok "$cc: the fixtures do not build"; return; }
	for rel in v1.31 v1.32; do
		encode "$rel" "$dir" || { not_ok "$cc $rel: pahole failed"; continue; }
		col=3
		[ "$rel" = v1.32 ] && col=4
		while read -r kind name v131 v132; do
			want=$v131
			[ "$col" = 4 ] && want=$v132
			got=$(count "$dir/base.$rel.btf" "$dir/mod.$rel.btf" "$kind" "$name")
			check "$cc $rel: the module keeps $want $kind $name (got $got)" [ "$got" = "$want" ]
		done < <(grep -v '^#' "$FIX/split_rules.expect")
		# distilled_base distills this dedup's split BTF, which a detached file holds.
		PAHOLE_COMPAT=$rel "$PAHOLE" -J --btf_features=default,distilled_base \
			--btf_base "$dir/base.$rel.btf" --btf_encode_detached="$dir/mod.$rel.dist" \
			"$dir/mod.o"
		check "$cc $rel: distilled_base's split BTF, detached, is the module's" \
			cmp -s "$dir/mod.$rel.dist" "$dir/mod.$rel.btf"
	done
}

# reshaped WHAT REL DIR ORDER HDR [--layout]: DIR's module on its base
# rewritten in that byte order and header: the same bytes as on the base as written.
reshaped()
{
	local what=$1 rel=$2 dir=$3 b=$3/base.$2.$4.$5${6:+L}.btf
	python3 "$REWRITE" "$dir/base.$rel.btf" "$b" --order "$4" --hdr "$5" ${6:-} ||
		{ not_ok "$what $rel: btf_rewrite.py ${*:4} failed"; return; }
	PAHOLE_COMPAT=$rel "$PAHOLE" -J --btf_features=default --btf_base "$b" \
		--btf_encode_detached="$b.mod" "$dir/mod.o" ||
		{ not_ok "$what $rel: base ${*:4}: pahole failed"; return; }
	check "$what $rel: base ${*:4}: the module's BTF as on the base as written" \
		cmp -s "$b.mod" "$dir/mod.$rel.btf"
}

# shapes CC: the module on its base rewritten in every shape: the same bytes.
shapes()
{
	local dir=$TMP/$1 rel shape
	for rel in v1.31 v1.32; do
		for shape in "little 24" "big 24" "little 32" "big 32" "little 32 --layout" \
			"big 32 --layout"; do
			# shellcheck disable=SC2086 # the shape is words
			reshaped "$1" "$rel" "$dir" $shape
		done
		# An ELF file's .BTF, added in place.
		cp "$dir/base.o" "$dir/base.elf.o"
		PAHOLE_COMPAT=$rel "$PAHOLE" -J --btf_features=default "$dir/base.elf.o" &&
			PAHOLE_COMPAT=$rel "$PAHOLE" -J --btf_features=default \
				--btf_base "$dir/base.elf.o" --btf_encode_detached="$dir/elf.mod" \
				"$dir/mod.o"
		check "$rel: base in an ELF's .BTF: the module's BTF as on the raw base" \
			cmp -s "$dir/elf.mod" "$dir/mod.$rel.btf"
	done
}

# order FILE: "big" or "little", from raw BTF's magic.
order()
{
	case $(od -An -tx1 -N2 "$1" | tr -d ' ') in
	eb9f) echo big ;;
	9feb) echo little ;;
	*) echo none ;;
	esac
}

# types BASE SPLIT: the kinds and names of SPLIT's own types, sorted.
types()
{
	bpftool -B "$1" btf dump file "$2" | awk '/^\[/ { print $2, $3 }' | LC_ALL=C sort
}

# big_endian: clang's s390x objects (module.c alone); their base in both orders and headers.
big_endian()
{
	local dir=$TMP/s390x rel shape
	build clang "$dir" --target=s390x-linux-gnu ||
		{ not_ok "clang --target=s390x-linux-gnu cannot build the fixtures"; return; }
	cp "$dir/m1.o" "$dir/mod.o"
	for rel in v1.31 v1.32; do
		encode "$rel" "$dir" || { not_ok "s390x $rel: pahole failed"; continue; }
		check "s390x $rel: the base's BTF is big-endian" [ "$(order "$dir/base.$rel.btf")" = big ]
		check "s390x $rel: the module's BTF is big-endian" [ "$(order "$dir/mod.$rel.btf")" = big ]
		check "s390x $rel: bpftool reads the module on its base" \
			bpftool -B "$dir/base.$rel.btf" btf dump file "$dir/mod.$rel.btf" > /dev/null
		for shape in "little 24" "little 32 --layout" "big 32" "big 32 --layout"; do
			# shellcheck disable=SC2086 # the shape is words
			reshaped s390x "$rel" "$dir" $shape
		done
		# The types that clang's x86-64 module.c keeps on its base, by the same rules.
		PAHOLE_COMPAT=$rel "$PAHOLE" -J --btf_features=default \
			--btf_base "$TMP/clang/base.$rel.btf" --btf_encode_detached="$dir/x86.$rel.btf" \
			"$TMP/clang/m1.o"
		check "s390x $rel: the module keeps what the x86-64 one keeps" \
			[ "$(types "$dir/base.$rel.btf" "$dir/mod.$rel.btf")" = \
				"$(types "$TMP/clang/base.$rel.btf" "$dir/x86.$rel.btf")" ]
	done
}

rules gcc
shapes gcc
if command -v clang > /dev/null; then
	rules clang
	big_endian
else
	note_skip "clang is not installed: its objects and the big-endian ones not checked"
fi
finish
