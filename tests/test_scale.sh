#!/usr/bin/env bash
# Past BTF's and ELF's 16-bit limits, made at run time:
#  1. one CU of 70,000 functions, each in a section of its own (-ffunction-sections:
#     70,000 sections, so extended section numbering, SHN_XINDEX) with two
#     prototypes: every function is encoded, at -j1 and -j2 alike;
#  2. a struct of 70,000 members and an enum of 70,000 values: BTF's vlen has
#     16 bits and wraps, and libbpf's dedup keeps as many as it then says; pahole
#     v1.31 writes the first 70,000 mod 65,536 = 4,464, and so do we, with one
#     warning line for each.

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
make_tmp
N=${SCALE_N:-70000}
CC=${SCALE_CC:-$(command -v clang || echo gcc)}
KEPT=$((N % 65536))

# --- 1. many functions, many sections ---------------------------------------
awk -v n="$N" 'BEGIN {
	for (i = 0; i < n; i++)
		if (i % 2) printf "long f%d(long a) { return a + %d; }\n", i, i
		else printf "int f%d(int a) { return a + %d; }\n", i, i
}' > "$TMP/funcs.c"
"$CC" -g -O0 -ffunction-sections -c "$TMP/funcs.c" -o "$TMP/funcs.o" || die "$CC cannot build funcs.c"
nsec=$(readelf -h "$TMP/funcs.o" | awk '/Number of section headers/ { gsub(/[()]/, "", $NF); print $NF }')
if [ "$nsec" -gt 65280 ]; then
	ok "funcs.o has $nsec sections: extended numbering"
else
	not_ok "funcs.o has $nsec sections, fewer than SHN_LORESERVE: the test tests nothing"
fi
for j in 1 2; do
	"$PAHOLE" -J -j$j --btf_features=default --btf_encode_detached="$TMP/funcs.j$j.btf" \
		"$TMP/funcs.o" > "$TMP/funcs.j$j.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$TMP/funcs.j$j.log" ]; then
		ok "-j$j: encoded, nothing on stderr"
	else
		not_ok "-j$j: exit $rc: $(head -n 2 "$TMP/funcs.j$j.log")"
	fi
done
if cmp -s "$TMP/funcs.j1.btf" "$TMP/funcs.j2.btf"; then
	ok "-j1 and -j2 give the same bytes"
else
	not_ok "-j1 and -j2 differ"
fi
btf_canon "$TMP/funcs.j2.btf" | awk -F'\t' '$1 == "FUNC" { print $2 }' | sed 's/ linkage.*//' |
	LC_ALL=C sort > "$TMP/funcs.got"
awk -v n="$N" 'BEGIN { for (i = 0; i < n; i++) printf "func f%d\n", i }' | LC_ALL=C sort > "$TMP/funcs.want"
if cmp -s "$TMP/funcs.got" "$TMP/funcs.want"; then
	ok "all $N functions are FUNCs"
else
	not_ok "FUNCs: $(comm -13 "$TMP/funcs.got" "$TMP/funcs.want" | wc -l) missing," \
		"$(comm -23 "$TMP/funcs.got" "$TMP/funcs.want" | wc -l) extra"
fi
protos=$(btf_canon "$TMP/funcs.j2.btf" | grep -c '^FUNC_PROTO')
check "two FUNC_PROTOs (got $protos)" [ "$protos" = 2 ]

# --- 2. many members, many values -------------------------------------------
awk -v n="$N" 'BEGIN {
	print "struct wide {"; for (i = 0; i < n; i++) printf "\tchar m%d;\n", i; print "};"
	print "enum many {"; for (i = 0; i < n; i++) printf "\tE%d,\n", i; print "};"
	print "int use(struct wide *p, enum many x) { return p->m0 + x; }"
}' > "$TMP/wide.c"
"$CC" -g -O0 -c "$TMP/wide.c" -o "$TMP/wide.o" || die "$CC cannot build wide.c"
"$PAHOLE" -J --btf_features=default --btf_encode_detached="$TMP/wide.btf" "$TMP/wide.o" \
	> "$TMP/wide.log" 2>&1
rc=$?
check "wide.o: exit 0 (got $rc)" [ $rc -eq 0 ]
for name in wide many; do
	if grep -q "warning: $name has $N members or values.*first $KEPT are encoded" "$TMP/wide.log"; then
		ok "$name: one warning line"
	else
		not_ok "$name: no warning that only $KEPT of $N are encoded: $(head -n 2 "$TMP/wide.log")"
	fi
done
check "wide.o: two lines on stderr" [ "$(wc -l < "$TMP/wide.log")" = 2 ]
want=$(awk -v k="$KEPT" 'BEGIN { s = "struct wide size='"$N"' {"
	for (i = 0; i < k; i++) s = s sprintf("%sm%d@%d:int char size=1 enc=1 off=0 bits=8", i ? "; " : "", i, 8 * i)
	print s "}" }')
got=$(btf_canon "$TMP/wide.btf" | awk -F'\t' '$1 == "STRUCT" { print $2 }')
check "struct wide: its first $KEPT members" [ "$got" = "$want" ]
want=$(awk -v k="$KEPT" 'BEGIN { s = "enum many size=4 signed=0 {"
	for (i = 0; i < k; i++) s = s sprintf("%sE%d=%d", i ? "," : "", i, i)
	print s "}" }')
got=$(btf_canon "$TMP/wide.btf" | awk -F'\t' '$1 == "ENUM" { print $2 }')
check "enum many: its first $KEPT values" [ "$got" = "$want" ]
finish
