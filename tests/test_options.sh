#!/usr/bin/env bash
# Feature options taken in order, as pahole v1.31 takes them: the first
# --btf_features turns every feature off and then on what it lists; an older
# option (--btf_gen_*, --skip_encoding_btf_*) sets or clears its feature where
# it stands; --btf_gen_all is --btf_features=all, which names no feature.
# tests/fixtures/sample.c has floats and a 64-bit enum: FLOAT and ENUM64 say
# which features held (each case checked against v1.31).

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
finish
