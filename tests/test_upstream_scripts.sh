#!/usr/bin/env bash
# test_upstream_scripts: upstream pahole's own regression scripts (its
# tests/ directory at v1.31), run with our pahole doing every BTF encoding
# (-J, --btf_encode_detached) and upstream's for the printing steps
# (pahole -F, pfunct), on the corpus vmlinux, pass as they pass with
# upstream's alone:
#   reproducible_build.sh  the same BTF at -j1..-jNPROC, and exactly N
#                          encoding threads running for -jN
#   btf_functions.sh       every FUNC matches the DWARF, and the functions
#                          left out (read from -V on standard output, in
#                          v1.31's words) are left out for the reasons said;
#                          its count of them must be v1.31's, and not 0
# Needs pahole v1.31 built in $UPSTREAM_DIR (default build/upstream-v1.31,
# as ../shared/tools/upstream-pahole makes it, with its tests/): without it
# the test is skipped, saying so (CI judges by the stored references).
# UPSTREAM_SCRIPTS_KERNELS picks the corpus kernels (default: 6.1).
#
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
UP=${UPSTREAM_DIR:-$BUILDDIR/upstream-v1.31}
for f in build/pahole build/pfunct tests/reproducible_build.sh tests/btf_functions.sh; do
	[ -e "$UP/$f" ] || skip "no pahole v1.31 in $UP ($f; ../shared/tools/upstream-pahole builds it)"
done
need_corpus
need_tools bpftool ps
make_tmp
CORPUS=$(corpus_dir)

# Our pahole for every encoding, upstream's for everything else.
upstream_paths "$UP"

declare -A VMLINUX=(
	[6.1]=$CORPUS/vmlinux-6.1.0-57-cloud-amd64
	[6.12]=$CORPUS/vmlinux-6.12.117+deb12-cloud-amd64
)

# run WHO SCRIPT VMLINUX: the script's exit status, its output in $TMP/WHO.out
run()
{
	(cd "$UP/tests" && PATH="$TMP/$1:$PATH" VERBOSE=1 bash "./$2" "$3") > "$TMP/$1.out" 2>&1
}

for k in ${UPSTREAM_SCRIPTS_KERNELS:-6.1}; do
	vm=${VMLINUX[$k]:-}
	[ -n "$vm" ] || die "UPSTREAM_SCRIPTS_KERNELS: no corpus kernel $k"
	if run ours reproducible_build.sh "$vm"; then
		ok "$k reproducible_build.sh: passes"
	else
		not_ok "$k reproducible_build.sh: $(grep -m1 ERROR "$TMP/ours.out")"
	fi
	run ours btf_functions.sh "$vm"
	rc=$?
	ours=$(grep -m1 -o 'Skipped encoding [0-9]* functions' "$TMP/ours.out")
	if [ $rc -ne 0 ] || grep -q ERROR "$TMP/ours.out"; then
		not_ok "$k btf_functions.sh: exit $rc: $(grep -m3 ERROR "$TMP/ours.out")"
		continue
	fi
	run up btf_functions.sh "$vm"
	up=$(grep -m1 -o 'Skipped encoding [0-9]* functions' "$TMP/up.out")
	if [ -n "$ours" ] && [ "$ours" = "$up" ] && [ "$ours" != "Skipped encoding 0 functions" ]; then
		ok "$k btf_functions.sh: passes; $ours, as v1.31"
	else
		not_ok "$k btf_functions.sh: ours '${ours:-no count}', v1.31 '${up:-no count}'"
	fi
done
finish
