#!/usr/bin/env bash
# Feature options taken in order, as pahole v1.31 takes them: the first
# --btf_features turns every feature off and then on what it lists; an older
# option (--btf_gen_*, --skip_encoding_btf_*) sets or clears its feature where
# it stands; --btf_gen_all is --btf_features=all, which names no feature.
# tests/fixtures/sample.c has floats and a 64-bit enum: FLOAT and ENUM64 say
# which features held (each case checked against v1.31).
# Then v1.32's (PAHOLE_COMPAT unset): "all" and --btf_gen_all are every
# feature but distilled_base, --features is --btf_features, and the options
# of its --help that go with -J are taken, each with its meaning (checked
# against v1.32): the same bytes as the feature they name, or as without
# them where they change no BTF; --lang and -X leave CUs out; -V says each
# type in upstream's format.

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
make_tmp
gcc -g -O2 -c "$SRCDIR/tests/fixtures/sample.c" -o "$TMP/sample.o" || die "gcc failed"

# kinds OPTIONS...: "FLOAT=n ENUM64=m" of the BTF that OPTIONS give.
kinds()
{
	"$PAHOLE" -J "$@" --btf_encode_detached="$TMP/out.btf" "$TMP/sample.o" || return
	btf_canon "$TMP/out.btf" | awk -F'\t' '
		{ n[$1]++ } END { printf "FLOAT=%d ENUM64=%d\n", n["FLOAT"], n["ENUM64"] }'
}

# case WANT OPTIONS...
case_()
{
	local want=$1 got
	shift
	got=$(kinds "$@")
	check "$* -> $want (got $got)" [ "$got" = "$want" ]
}

case_ "FLOAT=0 ENUM64=1"
case_ "FLOAT=3 ENUM64=1" --btf_features=default
case_ "FLOAT=0 ENUM64=0" --btf_gen_all
case_ "FLOAT=0 ENUM64=0" --btf_gen_all --skip_encoding_btf_inconsistent_proto
case_ "FLOAT=0 ENUM64=0" --btf_features=all
case_ "FLOAT=3 ENUM64=0" --btf_features=default --skip_encoding_btf_enum64
case_ "FLOAT=3 ENUM64=1" --skip_encoding_btf_enum64 --btf_features=default
case_ "FLOAT=3 ENUM64=0" --btf_features=var --btf_gen_floats
case_ "FLOAT=0 ENUM64=0" --btf_gen_floats --btf_features=var
case_ "FLOAT=3 ENUM64=1" --btf_features=var --btf_features=float,enum64

echo "== v1.32"
unset PAHOLE_COMPAT
case_ "FLOAT=3 ENUM64=1" --btf_gen_all
case_ "FLOAT=3 ENUM64=1" --btf_features=all
case_ "FLOAT=3 ENUM64=0" --btf_gen_all --skip_encoding_btf_enum64
case_ "FLOAT=3 ENUM64=1" --features=default
case_ "FLOAT=0 ENUM64=1" --features=var,enum64

# same_bytes DESC "OPTIONS A" "OPTIONS B": both give the same bytes.
same_bytes()
{
	local desc=$1 a=$2 b=$3
	# shellcheck disable=SC2086 # the options are words
	if "$PAHOLE" -J $a --btf_encode_detached="$TMP/a.btf" "$TMP/two.o" &&
		"$PAHOLE" -J $b --btf_encode_detached="$TMP/b.btf" "$TMP/two.o" &&
		cmp -s "$TMP/a.btf" "$TMP/b.btf"; then
		ok "$desc: '$a' gives the bytes of '$b'"
	else
		not_ok "$desc: '$a' and '$b' differ"
	fi
}
# Two CUs: sample.c and one more, for --lang and -X.
printf 'struct only_here { int x; } only_here_too;\n' > "$TMP/other.c"
gcc -g -O2 -c "$TMP/other.c" -o "$TMP/other.o" || die "gcc failed"
ld -r "$TMP/sample.o" "$TMP/other.o" -o "$TMP/two.o" || die "ld failed"
ALL=encode_force,var,float,decl_tag,type_tag,enum64,optimized_func,consistent_func,decl_tag_kfuncs
ALL=$ALL,reproducible_build,global_var,attributes,true_signature,layout
same_bytes "all" "--btf_features=all" "--btf_features=$ALL"
same_bytes "--btf_gen_all" "--btf_gen_all" "--btf_features=$ALL"
same_bytes "--features" "--features=default,global_var" "--btf_features=default,global_var"
same_bytes "--btf_encode_force" "--btf_features=var --btf_encode_force" "--btf_features=var,encode_force"
same_bytes "--btf_attributes" "--btf_features=default --btf_attributes" "--btf_features=default,attributes"
same_bytes "--reproducible_build" "--reproducible_build" ""
same_bytes "-q" "-q" ""
same_bytes "--skip_emitting_atomic_typedefs" "--skip_emitting_atomic_typedefs" ""
same_bytes "--lang=c11,c99,c89,c" "--lang=c11,c99,c89,c" ""
# names KEPT_STRUCT OPTIONS...: whether struct KEPT_STRUCT is in the BTF, and only_here not.
if "$PAHOLE" -J -X "$TMP/other" --btf_encode_detached="$TMP/x.btf" "$TMP/two.o" &&
	bpftool btf dump file "$TMP/x.btf" | grep -q "STRUCT 'sample" &&
	! bpftool btf dump file "$TMP/x.btf" | grep -q "only_here"; then
	ok "-X PREFIX: the CU named so is left out, the other kept"
else
	not_ok "-X PREFIX: $(bpftool btf dump file "$TMP/x.btf" 2>&1 | grep -c STRUCT) structs"
fi
lang=$(readelf --debug-dump=info "$TMP/sample.o" | awk '/DW_AT_language/ { print $NF; exit }')
case $lang in
*C11*) only=c11 ;; *C99*) only=c99 ;; *) only=c89 ;;
esac
check "--lang=rust: no CU, nothing written, exit 0" \
	"$PAHOLE" -J --lang=rust --btf_encode_detached="$TMP/none.btf" "$TMP/two.o"
check "--lang=rust: no file" test ! -e "$TMP/none.btf"
same_bytes "--lang=$only (the CUs' own)" "--lang=$only" ""
# -V: each type written in upstream's format, on standard output (btf_log.c).
cat > "$TMP/vb.c" <<'EOF2'
enum color { RED, GREEN = 5 };
struct bits { int i; int bf : 3; };
struct multidim { int a1d[5]; int a2d[3][4]; char s[8]; } g_m;
struct bits g_b;
enum color g_c;
int vsum(int n, ...) { return n; }
EOF2
gcc -g -O2 -c "$TMP/vb.c" -o "$TMP/vb.o" || die "gcc failed"
"$PAHOLE" -J -V --btf_encode_detached="$TMP/vb.btf" "$TMP/vb.o" > "$TMP/vb.out" 2> /dev/null
for re in '\[[0-9]+\] INT int size=4 nr_bits=32 encoding=SIGNED' \
	'\[[0-9]+\] STRUCT multidim size=76' '	a2d type_id=[0-9]+ bits_offset=160' \
	'\[[0-9]+\] ARRAY \(anon\) type_id=[0-9]+ index_type_id=[0-9]+ nr_elems=3' \
	'\[[0-9]+\] STRUCT bits size=8' '	i type_id=[0-9]+ bits_offset=0' \
	'	bf type_id=[0-9]+ bitfield_size=3 bits_offset=32' '\[[0-9]+\] ENUM color size=4' \
	'	GREEN val=5' '\[[0-9]+\] FUNC_PROTO \(anon\) return=[0-9]+ args=\([0-9]+ n, vararg\)' \
	'\[[0-9]+\] FUNC vsum type_id=[0-9]+'; do
	if grep -qxE -- "$re" "$TMP/vb.out"; then
		ok "-V: a line /$re/"
	else
		not_ok "-V: no line /$re/ in: $(head -c 600 "$TMP/vb.out")"
	fi
done
n=$(grep -cE '^\[[0-9]+\] ' "$TMP/vb.out")
want=$(bpftool btf dump file "$TMP/vb.btf" | grep -c '^\[')
check "-V: a line per type ($n, bpftool counts $want)" test "$n" = "$want"

dv=$("$PAHOLE" --devel_version)
[[ $dv =~ ^v1\.32(-g[0-9a-f]{12})?$ ]] && ok "--devel_version: $dv" || not_ok "--devel_version: '$dv'"
dv=$(PAHOLE_COMPAT=v1.31 "$PAHOLE" --devel_version)
[[ $dv =~ ^v1\.31(-g[0-9a-f]{12})?$ ]] && ok "v1.31 --devel_version: $dv" || not_ok "v1.31 --devel_version: '$dv'"
finish
