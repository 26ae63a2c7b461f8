#!/usr/bin/env bash
# upstream_truesig.sh: upstream pahole's own scripts for true_signature
# (its tests/ at 1436daf: clang_parm_*.sh, gcc_true_signatures.sh), run with
# our pahole doing the BTF encoding and upstream's pfunct reading it, give
# what they give with upstream's pahole: the same exit status, and the same
# "BTF: ... DWARF: ..." line, the signature the script checks.
#
# The clang scripts need a clang that marks changed conventions (clang 19;
# Debian 12's clang 14 marks none and the scripts skip): CLANG names it
# (default clang-19).  Needs upstream built at 1436daf in $UPSTREAM_NEW_DIR
# (default build/upstream-1436daf, as ../shared/tools/upstream-pahole makes
# it): without it, or without the compiler, it stops, saying so.  A script
# run by hand, not a ctest test: CI has neither, and checks the same rules by
# tests/test_true_signature.sh and its stored references.
#   bash tests/upstream_truesig.sh      (finds build/ by itself)
#
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
UP=${UPSTREAM_NEW_DIR:-$BUILDDIR/upstream-1436daf}
CLANG=${CLANG:-clang-19}
if [ ! -x "$UP/build/pahole" ] || [ ! -x "$UP/build/pfunct" ] ||
   [ ! -f "$UP/tests/clang_parm_optimized.sh" ]; then
	skip "no upstream 1436daf in $UP (../shared/tools/upstream-pahole builds it)"
fi
command -v "$CLANG" > /dev/null || skip "no $CLANG (CLANG=...): the scripts need clang 19's DW_CC_nocall"
need_tools gcc objcopy
make_tmp

# Our pahole for every encoding, upstream's for everything else; $CLANG as clang.
upstream_paths "$UP"
mkdir "$TMP/cc"
ln -s "$(command -v "$CLANG")" "$TMP/cc/clang"

# run WHO SCRIPT: its exit status; its output in $TMP/WHO.out
run()
{
	(cd "$UP/tests" && PATH="$TMP/$1:$TMP/cc:$PATH" VERBOSE=1 bash "./$2") > "$TMP/$1.out" 2>&1
}

# The signature line, the script's temporary paths taken out.
signature()
{
	grep -E 'BTF: ' "$1" | sed -E 's/tmp\.[A-Za-z0-9]+//g'
}

for path in "$UP"/tests/clang_parm_*.sh "$UP"/tests/gcc_true_signatures.sh; do
	script=$(basename "$path")
	run up "$script"
	up_rc=$?
	run ours "$script"
	ours_rc=$?
	# Exit 2 is upstream's test_skip(): nothing was compared.
	if [ "$ours_rc" -eq 2 ] && [ "$up_rc" -eq 2 ]; then
		note_skip "$script: skipped by both (the compiler made nothing it checks)"
	elif [ "$ours_rc" -ne "$up_rc" ]; then
		not_ok "$script: exits $ours_rc, upstream's $up_rc"
		sed 's/^/    /' "$TMP/ours.out" | tail -n 5
	elif [ "$(signature "$TMP/ours.out")" != "$(signature "$TMP/up.out")" ]; then
		not_ok "$script: $(signature "$TMP/ours.out") where upstream's has $(signature "$TMP/up.out")"
	else
		ok "$script: exit $ours_rc, as upstream's; $(signature "$TMP/ours.out" | sed 's/^ *//')"
	fi
done
finish
