#!/usr/bin/env bash
# Chunks deduplicated on their own must not bind a declaration where one
# dedup of the whole file would not (glibc's two struct _IO_FILE: its
# _IO_lock_t is void in the public headers, a struct in libio).  Two worlds
# define struct S, one with a void lock, one with a struct lock; a third CU
# only declares what the others define.  Generated padding CUs put the first
# world and the others in different chunks.  pahole v1.31, deduplicating
# once, keeps one S (and W, J, lock_t) per world: so must we, at any -j.
#  fwd_graph:  p.c declares struct J, which a chunk's graph comparison tied
#              to the struct-lock world's J (a mix no CU has: 3 S);
#  fwd_unique: p.c declares struct W, which a chunk holding one W resolved
#              to it, where the whole file has two.

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
make_tmp
FIX=$SRCDIR/tests/fixtures/dedup

# pad NAME: 300 structs of distinct layouts, one variable each.
pad()
{
	awk -v p="$1" 'BEGIN { for (i = 0; i < 300; i++)
		printf "struct %s%d { int a%d; long b%d; char c%d[%d]; } g%s%d;\n", p, i, i, i, i, i + 1, p, i }'
}

# count FILE KIND NAME: how many types of KIND are named NAME.
count()
{
	btf_canon "$1" | awk -F'\t' -v k="$2" -v n="$3" '
		$1 == k { split($2, w, " "); if (w[2] == n) c++ } END { print c + 0 }'
}

# world CASE LINK_ORDER... NAME=N...: link, encode at -j1 and -j2, check counts.
world()
{
	local name=$1 order=$2 f want kind n got
	shift 2
	pad pad > "$TMP/pad1.c"
	pad qad > "$TMP/pad2.c"
	for f in v p s; do
		cp "$FIX/${name}_$f.c" "$TMP/$f.c"
	done
	(cd "$TMP" && gcc -g -O2 -fPIC -c v.c p.c s.c pad1.c pad2.c) || die "$name: gcc failed"
	# shellcheck disable=SC2086 # the link order is a list of objects
	(cd "$TMP" && gcc -shared -o "$name.so" $order) || die "$name: link failed"
	for j in 1 2; do
		"$PAHOLE" -J -j$j --btf_features=default --btf_encode_detached="$TMP/$name.j$j.btf" \
			"$TMP/$name.so" || { not_ok "$name -j$j: exit $?"; continue; }
	done
	# The second encoding, without the features that set up the first (kfuncs).
	"$PAHOLE" -J --btf_encode_detached="$TMP/$name.plain.btf" "$TMP/$name.so"
	check "$name: no --btf_features: exit 0 (got $?)" [ $? -eq 0 ]
	got=$(count "$TMP/$name.plain.btf" STRUCT S)
	check "$name: no --btf_features: STRUCT S $got times, want 2" [ "$got" = 2 ]
	check "$name: -j1 and -j2 give the same bytes" cmp -s "$TMP/$name.j1.btf" "$TMP/$name.j2.btf"
	for want in "$@"; do
		kind=${want%%:*}
		n=${want#*:}
		got=$(count "$TMP/$name.j2.btf" "$kind" "${n%=*}")
		check "$name: $kind ${n%=*} $got times, want ${n#*=}" [ "$got" = "${n#*=}" ]
	done
}

world fwd_graph "v.o pad1.o p.o s.o pad2.o" STRUCT:S=2 STRUCT:W=2 STRUCT:J=2 TYPEDEF:lock_t=2 FWD:J=0
world fwd_unique "p.o s.o pad1.o v.o" STRUCT:S=2 STRUCT:W=2 TYPEDEF:lock_t=2 FWD:W=0
finish
