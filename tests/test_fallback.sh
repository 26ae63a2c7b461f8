#!/usr/bin/env bash
# test_fallback: installed as `pahole`, ours hands every invocation that does
# not encode BTF to the pahole it stands in for (pahole_fallback.h):
#   1. a stand-in fallback that records its arguments, on PATH: each
#      non-encoding form reaches it exactly (arguments, exit status, stdin and
#      stdout passed through), -V adding nothing; the encoding forms and
#      --version, --supported_btf_features, --help stay ours;
#   2. a link to ours earlier on PATH is skipped, so is a copy of ours; PAHOLE_FALLBACK wins over
#      PATH; PAHOLE_FALLBACK naming ours is refused, not looped on;
#   3. no fallback (PAHOLE_FALLBACK=none, or none on PATH): exit 64 and one line;
#   4. with dwarves' pahole installed (Debian's dwarves): `pahole -C
#      task_struct` on the corpus vmlinux prints what /usr/bin/pahole prints.
#
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
need_tools timeout
TIMEOUT=$(command -v timeout)
make_tmp
unset PAHOLE_FALLBACK

mkdir -p "$TMP/bin" "$TMP/first" "$TMP/alone"
# The stand-in: its arguments one per line, stdin to stdout, exit 42.
cat > "$TMP/bin/pahole" <<EOF
#!/bin/bash
printf '%s\n' "\$@" > "$TMP/args"
cat
exit 42
EOF
chmod +x "$TMP/bin/pahole"
ln -s "$PAHOLE" "$TMP/first/pahole"
ln -s "$PAHOLE" "$TMP/alone/pahole"
STANDIN_PATH="$TMP/first:$TMP/bin:$PATH"

# handed DESC ARGS...: run as `pahole ARGS` with the stand-in on PATH; it got ARGS.
handed()
{
	local desc=$1 rc
	shift
	rm -f "$TMP/args"
	echo "input of $desc" | PATH=$STANDIN_PATH pahole "$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ ! -f "$TMP/args" ]; then
		not_ok "$desc: not handed on (exit $rc: $(head -c 200 "$TMP/err"))"
		return
	fi
	if [ "$(cat "$TMP/args")" = "$(printf '%s\n' "$@")" ]; then
		ok "$desc: handed on with its arguments"
	else
		not_ok "$desc: handed on with '$(tr '\n' ' ' < "$TMP/args")'"
	fi
	[ $rc -eq 42 ] && ok "$desc: its exit status" || not_ok "$desc: exit $rc, not 42"
	if [ "$(cat "$TMP/out")" = "input of $desc" ] && [ ! -s "$TMP/err" ]; then
		ok "$desc: stdin and stdout passed through, nothing of ours said"
	else
		not_ok "$desc: stdout '$(head -c 200 "$TMP/out")', stderr '$(head -c 200 "$TMP/err")'"
	fi
}

# kept DESC WANT_RC ARGS...: ours answers (the stand-in is not run) with WANT_RC.
kept()
{
	local desc=$1 want=$2 rc
	shift 2
	rm -f "$TMP/args"
	PATH=$STANDIN_PATH pahole "$@" > "$TMP/out" 2> "$TMP/err" < /dev/null
	rc=$?
	if [ ! -f "$TMP/args" ] && [ $rc -eq "$want" ]; then
		ok "$desc: ours, exit $rc"
	else
		not_ok "$desc: exit $rc (want $want), handed on: $([ -f "$TMP/args" ] && echo yes || echo no)"
	fi
}

echo "== 1. what is handed on, and what is ours"
handed "-C" -C task_struct vmlinux
handed "--sizes" --sizes vmlinux
handed "-F btf" -F btf --class_name=task_struct /sys/kernel/btf/vmlinux
handed "-CJ (the class named J)" -CJ vmlinux
handed "-C -J (the class named -J)" -C -J vmlinux
handed "a file named -J after --" -- -J
handed "-V" -V -E -C 'struct with spaces' "an arg with spaces"
handed "no argument at all"
handed "--btf_encode_force? no: unknown to us, dwarves' to judge" --btf_encode_force_x vmlinux
# The version queries name the release we are (btf_release.h), in each mode,
# never the dwarves behind us.
# version_is DESC WANT ARGS...: ours answers ARGS with the one line WANT.
version_is()
{
	local desc=$1 want=$2
	shift 2
	kept "$desc" 0 "$@"
	[ "$(cat "$TMP/out")" = "$want" ] && ok "$desc: $want" || not_ok "$desc: '$(cat "$TMP/out")', want $want"
}
saved_compat=${PAHOLE_COMPAT-unset}
unset PAHOLE_COMPAT
version_is "--version" v1.32 --version
version_is "--numeric_version" 132 --numeric_version
version_is "--compat=v1.31 --version" v1.31 --compat=v1.31 --version
version_is "--numeric_version --compat v1.31" 131 --numeric_version --compat v1.31
export PAHOLE_COMPAT=v1.31
version_is "PAHOLE_COMPAT=v1.31 --version" v1.31 --version
version_is "PAHOLE_COMPAT=v1.31 --numeric_version" 131 --numeric_version
version_is "PAHOLE_COMPAT=v1.31 --compat=v1.32 --version" v1.32 --compat=v1.32 --version
PAHOLE_COMPAT= version_is "PAHOLE_COMPAT= --numeric_version" 132 --numeric_version
PAHOLE_COMPAT=v1.30 kept "PAHOLE_COMPAT=v1.30" 2 --version
[ "$(cat "$TMP/err")" = "pahole: PAHOLE_COMPAT=v1.30: no such release (v1.31 or v1.32)" ] &&
	[ ! -s "$TMP/out" ] && ok "PAHOLE_COMPAT=v1.30: one line naming it" ||
	not_ok "PAHOLE_COMPAT=v1.30: said '$(cat "$TMP/err")' '$(cat "$TMP/out")'"
kept "--compat=1.31" 2 --compat=1.31 -J "$TMP/missing.o"
[ "$(cat "$TMP/err")" = "pahole: --compat=1.31: no such release (v1.31 or v1.32)" ] &&
	ok "--compat=1.31: one line naming it" || not_ok "--compat=1.31: said '$(cat "$TMP/err")'"
[ "$saved_compat" = unset ] && unset PAHOLE_COMPAT || export PAHOLE_COMPAT=$saved_compat
kept "--supported_btf_features" 0 --supported_btf_features
kept "--help" 0 --help
kept "--usage" 0 --usage
kept "-J on a missing file" 1 -J "$TMP/missing.o"
kept "-VJ on a missing file" 1 -VJ "$TMP/missing.o"
kept "-j -J on a missing file" 1 -j -J "$TMP/missing.o"
kept "--btf_encode on a missing file" 1 --btf_encode "$TMP/missing.o"
kept "--btf_encode_detached=OUT on a missing file" 1 --btf_encode_detached="$TMP/o.btf" "$TMP/missing.o"
kept "--btf_encode_detached OUT on a missing file" 1 --btf_encode_detached "$TMP/o.btf" "$TMP/missing.o"
kept "--btf_encode_d=OUT (argp's abbreviation)" 1 --btf_encode_d="$TMP/o.btf" "$TMP/missing.o"

echo "== 2. which pahole"
rm -f "$TMP/args"
PATH=$STANDIN_PATH "$TMP/first/pahole" -C x vmlinux > /dev/null 2>&1 < /dev/null
[ -f "$TMP/args" ] && ok "run through a link on PATH: the link to ours skipped" ||
	not_ok "run through a link: the stand-in was not found past the link to ours"
mkdir -p "$TMP/copy"
cp "$PAHOLE" "$TMP/copy/pahole"
rm -f "$TMP/args"
PATH="$TMP/copy:$STANDIN_PATH" "$TIMEOUT" 10 "$TMP/first/pahole" -C x vmlinux > /dev/null 2>&1 < /dev/null
[ -f "$TMP/args" ] && ok "a copy of ours on PATH is passed over too (no hand-off back and forth)" ||
	not_ok "a copy of ours on PATH: the stand-in was not reached"
mkdir -p "$TMP/other"
cp "$TMP/bin/pahole" "$TMP/other/pahole"
sed -i "s|$TMP/args|$TMP/args.other|" "$TMP/other/pahole"
rm -f "$TMP/args" "$TMP/args.other"
PAHOLE_FALLBACK=$TMP/other/pahole PATH=$STANDIN_PATH pahole -C x vmlinux > /dev/null 2>&1 < /dev/null
[ -f "$TMP/args.other" ] && [ ! -f "$TMP/args" ] && ok "PAHOLE_FALLBACK wins over PATH" ||
	not_ok "PAHOLE_FALLBACK did not win over PATH"
PAHOLE_FALLBACK=$TMP/first/pahole PATH=$TMP/alone "$TIMEOUT" 10 "$PAHOLE" -C x vmlinux \
	> /dev/null 2> "$TMP/err" < /dev/null
rc=$?
[ $rc -eq 126 ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] &&
	ok "PAHOLE_FALLBACK naming ours: refused, one line: $(cat "$TMP/err")" ||
	not_ok "PAHOLE_FALLBACK naming ours: exit $rc, '$(head -c 200 "$TMP/err")'"

echo "== 3. no fallback"
for how in "PAHOLE_FALLBACK=none" "none on PATH"; do
	rm -f "$TMP/args"
	if [ "$how" = "none on PATH" ] && [ -n "${PAHOLE_BUILT_FALLBACK:-}" ]; then
		echo "note: this build names a fallback of its own ($PAHOLE_BUILT_FALLBACK): $how not run"
		continue
	fi
	if [ "$how" = "PAHOLE_FALLBACK=none" ]; then
		PAHOLE_FALLBACK=none PATH=$STANDIN_PATH pahole -C x vmlinux > "$TMP/out" 2> "$TMP/err"
	else
		PATH=$TMP/alone pahole -C x vmlinux > "$TMP/out" 2> "$TMP/err"
	fi
	rc=$?
	if [ $rc -eq 64 ] && [ ! -f "$TMP/args" ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] &&
		grep -q "only encodes BTF.*dwarves' pahole does the rest" "$TMP/err" && [ ! -s "$TMP/out" ]; then
		ok "$how: exit 64, one line: $(cat "$TMP/err")"
	else
		not_ok "$how: exit $rc, stderr '$(head -c 300 "$TMP/err")'"
	fi
done

echo "== 4. dwarves' pahole"
dwarves=/usr/bin/pahole
if [ -x "$dwarves" ] && ! [ "$dwarves" -ef "$PAHOLE" ] && [ -e "$SHARED/tools/corpus" ]; then
	CORPUS=$(corpus_dir)
	vm=$CORPUS/vmlinux-6.1.0-57-cloud-amd64
	PATH="$TMP/first:/usr/bin:$PATH" timeout 300 pahole -C task_struct "$vm" > "$TMP/ours.txt" 2>&1
	timeout 300 "$dwarves" -C task_struct "$vm" > "$TMP/dwarves.txt" 2>&1
	if [ -s "$TMP/dwarves.txt" ] && grep -q '^struct task_struct {' "$TMP/ours.txt" &&
		cmp -s "$TMP/ours.txt" "$TMP/dwarves.txt"; then
		ok "pahole -C task_struct: dwarves' struct ($(wc -l < "$TMP/ours.txt") lines)"
	else
		not_ok "pahole -C task_struct: '$(head -c 200 "$TMP/ours.txt")'"
	fi
else
	echo "note: no dwarves' pahole at $dwarves (apt-get install dwarves), or no corpus: part 4 not run"
fi
finish
