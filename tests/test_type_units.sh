#!/usr/bin/env bash
# Type units (-fdebug-types-section), as pahole v1.31 reads them: not at all.
# tests/fixtures/type_units.c built by gcc and clang, DWARF 4 and 5, as an
# object and a shared object: encoded (exit 0, nothing on stderr), f's
# parameter a pointer to void, no struct s.  (v1.31 itself crashes on gcc's
# DWARF 5 shared object.)  A compiler that makes no type units (clang 14
# ignores the option on Linux) tests nothing: its cases are left out, saying so.

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
make_tmp
SRC=$SRCDIR/tests/fixtures/type_units.c
N=0

for cc in gcc clang; do
	command -v "$cc" > /dev/null || { echo "$cc not installed: its cases left out"; continue; }
	for dw in 4 5; do
		for kind in o so; do
			out=$TMP/$cc.$dw.$kind
			flags=(-g -gdwarf-$dw -fdebug-types-section -O2)
			if [ $kind = o ]; then
				"$cc" "${flags[@]}" -c "$SRC" -o "$out" || die "$cc cannot build it"
			else
				"$cc" "${flags[@]}" -shared -fPIC "$SRC" -o "$out" || die "$cc cannot link it"
			fi
			what="$cc -gdwarf-$dw .$kind"
			if ! readelf -S "$out" | grep -q '\.debug_types' &&
			   ! readelf --debug-dump=info "$out" 2> /dev/null | grep -q DW_UT_type; then
				echo "$what: $cc made no type unit: left out"
				continue
			fi
			"$PAHOLE" -J --btf_features=default --btf_encode_detached="$out.btf" "$out" \
				> "$out.log" 2>&1
			rc=$?
			N=$((N + 1))
			if [ $rc -eq 0 ] && [ ! -s "$out.log" ]; then
				ok "$what: exit 0, nothing on stderr"
			else
				not_ok "$what: exit $rc: $(head -n 1 "$out.log")"
			fi
			[ -s "$out.btf" ] || continue
			got=$(btf_canon "$out.btf" | awk -F'\t' '$1 == "FUNC" { print $2 }')
			case $got in
			"func f linkage=0 fn(p:ptr(void)) -> "*) ok "$what: f takes a pointer to void" ;;
			*) not_ok "$what: f should take a pointer to void, got: $got" ;;
			esac
			check "$what: no struct" [ "$(btf_canon "$out.btf" | grep -c '^STRUCT')" = 0 ]
		done
	done
done
[ $N -gt 0 ] || die "no compiler made a type unit: nothing was tested"
finish
