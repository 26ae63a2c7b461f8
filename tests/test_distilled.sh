#!/usr/bin/env bash
# test_distilled: --btf_features=distilled_base on the corpus modules, in
# place, gives the .BTF.base and .BTF that pahole v1.31 gives
# (tests/fixtures/distilled/, made by it; btfcanon: 0 differences); a
# detached output stays plain split BTF, as v1.31 writes it.
#
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
need_corpus
need_tools objcopy python3
make_tmp
CORPUS=$(corpus_dir)
REF=$CORPUS/reference
FIX=$SRCDIR/tests/fixtures/distilled

for m in fuse nf_conntrack virtio_blk; do
	ko=$TMP/$m.ko
	cp "$CORPUS/modules/$m.ko" "$ko"
	if ! "$PAHOLE" -J --btf_features=default,distilled_base --btf_base "$REF/vmlinux.default.btf" \
	     "$ko" 2> "$TMP/err" || [ -s "$TMP/err" ]; then
		not_ok "$m: pahole -J distilled_base in place: $(head -n 2 "$TMP/err")"
		continue
	fi
	if ! objcopy --dump-section .BTF="$TMP/$m.btf" --dump-section .BTF.base="$TMP/$m.base.btf" \
	     "$ko" "$TMP/junk.o" 2> "$TMP/err"; then
		not_ok "$m: no .BTF and .BTF.base: $(head -n 1 "$TMP/err")"
		continue
	fi
	d=$(btfcanon diff "$FIX/$m.base.btf" "$TMP/$m.base.btf" | tail -n 1)
	check "$m: .BTF.base as v1.31's ($d)" test "$d" = "differences: 0"
	d=$(btfcanon diff --base-a "$FIX/$m.base.btf" --base-b "$TMP/$m.base.btf" \
		"$FIX/$m.btf" "$TMP/$m.btf" | tail -n 1)
	check "$m: .BTF on it as v1.31's ($d)" test "$d" = "differences: 0"
	# Detached: split BTF on the full base, as without distilled_base.
	"$PAHOLE" -J --btf_features=default,distilled_base --btf_base "$REF/vmlinux.default.btf" \
		--btf_encode_detached="$TMP/$m.detached" "$CORPUS/modules/$m.ko"
	"$PAHOLE" -J --btf_features=default --btf_base "$REF/vmlinux.default.btf" \
		--btf_encode_detached="$TMP/$m.split" "$CORPUS/modules/$m.ko"
	check "$m: detached, the split BTF of the full base" cmp -s "$TMP/$m.detached" "$TMP/$m.split"
done
finish
