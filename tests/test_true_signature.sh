#!/usr/bin/env bash
# test_true_signature: what --btf_features=default,true_signature changes
# against --btf_features=default is what it changes in upstream pahole's
# output (acmel/dwarves 1436daf), on clang 19's changed calling conventions
# (DW_CC_nocall): tests/fixtures/true_signature/truesig_clang.c, built for
# x86-64 and arm64 (the binaries are kept: Debian 12's clang marks no changed
# convention), compared with upstream's change lines stored beside them by
# tests/sig_delta.py.  The corpus kernels' gcc clones: test_corpus.
#
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
# It compares by btfcanon's meaning: ../shared's (need_corpus fails under CI=true).
need_corpus
make_tmp

D=$SRCDIR/tests/fixtures/true_signature
for arch in x86_64 aarch64; do
	in=$D/truesig_clang.$arch.so
	for f in default default,true_signature; do
		"$PAHOLE" -J --btf_features=$f --btf_encode_detached="$TMP/$arch.$f.btf" "$in" \
			> "$TMP/$arch.$f.log" 2>&1 || not_ok "$arch $f: pahole failed: $(head -n 2 "$TMP/$arch.$f.log")"
	done
	btfcanon diff --max 100000 "$TMP/$arch.default.btf" "$TMP/$arch.default,true_signature.btf" \
		> "$TMP/$arch.diff"
	btfcanon canon "$TMP/$arch.default.btf" > "$TMP/$arch.canon"
	check "$arch: true_signature changes what it changes upstream" \
		python3 "$SRCDIR/tests/sig_delta.py" "$D/truesig_clang.$arch.upstream-1436daf" \
		"$TMP/$arch.diff" "$TMP/$arch.canon"
done
# Spelled out (upstream's lines hold it too): on x86-64 use16's struct
# arrives as its member s.b alone, in rdi.
check "x86_64: use16(s__b)" grep -q '+ func use16 linkage=0 fn(s__b:int long ' "$TMP/x86_64.diff"
finish
