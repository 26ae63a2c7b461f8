#!/usr/bin/env bash
# pahole -J FILE without --btf_encode_detached writes the BTF into FILE as its
# .BTF section: added if absent, replaced if present.  Checked here:
#  1. fixtures (.o, ELF32 .o, shared object, executable; .BTF absent, the
#     same size, bigger, smaller, SHF_ALLOC): the .BTF is the detached output
#     byte for byte, readelf is happy, every other section keeps its header
#     and bytes, .shstrtab only grows, the file still links/loads/runs,
#     mode (setuid/setgid too) and owner are kept, no temporary file is left,
#     and encoding the same .BTF again does not grow the file;
#  2. the corpus vmlinux (its .BTF removed first): the same BTF as pahole
#     v1.31 (btfcanon) and byte for byte the detached output, every other
#     section unchanged;
#  3. SIGKILL, SIGTERM and SIGINT at evenly spaced moments of an in-place encode of
#     a big input: the file is as it was (or, when the signal came after the
#     rename, the complete new file), no temporary file is left; SIGTERM and
#     SIGINT give exit 1 and one line naming the file; and SIGTERM exactly
#     while a temporary file has a name (strace holds the syscalls that make
#     names) leaves no temporary file;
#  4. a full disk (a small tmpfs, root only): exit 1, one line naming the
#     file and "No space left on device", nothing changed or left behind;
#  5. read-only: a 0444 file, a 0555 directory (as an unprivileged user),
#     an immutable file or directory and a read-only mount (as root): exit 1,
#     one line naming the file, nothing changed or left behind;
#  6. a detached output over a hard-linked file, a symlink (each then a file
#     of its own holding the BTF, the other name and the target untouched)
#     and a directory (exit 1, one line, the directory still there).
# KILL_TRIES (8) and SIG_TRIES (2) set how many SIGKILLs, and SIGTERMs and
# SIGINTs each, part 3 spreads evenly over one run (fewer when encoding is slow).
KILL_TRIES=${KILL_TRIES:-8}
SIG_TRIES=${SIG_TRIES:-2}

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
make_tmp
CC=${CC:-gcc}
for tool in objcopy readelf python3 "$CC"; do
	command -v "$tool" > /dev/null || skip "$tool is not installed"
done
FIX=$SRCDIR/tests/fixtures
IS_ROOT=false
[ "$(id -u)" -eq 0 ] && IS_ROOT=true
# Mount points to unmount on exit, before $TMP goes.
MOUNTS=()
# shellcheck disable=SC2317 # called by the trap
cleanup()
{
	local m
	for m in "${MOUNTS[@]}"; do
		chattr -R -i "$m" 2> /dev/null
		umount "$m" 2> /dev/null || umount -l "$m" 2> /dev/null
	done
	chattr -R -i "$TMP" 2> /dev/null
	chmod -R u+rwX "$TMP" 2> /dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
chmod 0711 "$TMP"	# for part 5's unprivileged user

# run ARGS...: run pahole, leaving RC, $TMP/stdout and $TMP/stderr.
run()
{
	"$PAHOLE" "$@" > "$TMP/stdout" 2> "$TMP/stderr"
	RC=$?
}

nlines()
{
	awk 'END { print NR }' "$1"
}

# fhash FILE: sha256 of FILE, by openssl when there is one (it is quicker
# than sha256sum on the 590 MB vmlinux).
if command -v openssl > /dev/null; then
	fhash()
	{
		if [ -f "$1" ]; then
			openssl dgst -sha256 -r "$1" | cut -d' ' -f1
		else
			echo absent
		fi
	}
else
	fhash()
	{
		sha256 "$1"
	}
fi

# dump_btf FILE OUT: objcopy's view of FILE's .BTF into OUT.
dump_btf()
{
	rm -f "$2"
	# An SHF_ALLOC .BTF that pahole filled lies past every segment, as the
	# kernel's build wants it, and objcopy says so: no error.
	objcopy --dump-section .BTF="$2" "$1" "$TMP/objcopy.junk" 2> "$TMP/objcopy.err" &&
		! grep -v "allocated section \`.BTF' not in segment" "$TMP/objcopy.err" | grep -q .
	local rc=$?
	rm -f "$TMP/objcopy.junk"
	return $rc
}

# check_stderr_line WHAT FILE [REGEX]: stderr ($TMP/stderr) is exactly one
# line, naming FILE, giving a cause (matching REGEX if given).
check_stderr_line()
{
	local what=$1 file=$2 re=${3:-} n line rest
	n=$(nlines "$TMP/stderr")
	line=$(head -n 1 "$TMP/stderr")
	if [ "$n" -ne 1 ]; then
		not_ok "$what: $n lines on stderr, want 1"
		head -n 5 "$TMP/stderr" | sed 's/^/	| /'
		return 1
	fi
	rest=${line//"$file"/}
	rest=${rest//pahole/}
	if [[ $line != *"$file"* ]]; then
		not_ok "$what: the line does not name $file: $line"
	elif [ -n "$re" ] && ! grep -qE "$re" <<< "$line"; then
		not_ok "$what: the line does not say /$re/: $line"
	elif ! grep -qE '[A-Za-z]{3,}' <<< "$rest"; then
		not_ok "$what: the line gives no cause: $line"
	else
		ok "$what: one line on stderr: $line"
		return 0
	fi
	return 1
}

# check_no_temps WHAT DIR
check_no_temps()
{
	local left
	left=$(pahole_temps "$2")
	if [ -z "$left" ]; then
		ok "$1: no temporary file left"
	else
		not_ok "$1: temporary files left in $2: $(paste -sd' ' <<< "$left")"
	fi
}

# check_fails WHAT FILE HASH [REGEX]: the run (RC, stderr) failed cleanly on
# FILE, whose sha256 was HASH.
check_fails()
{
	local what=$1 file=$2 hash=$3 re=${4:-}
	if [ "$RC" -eq 1 ]; then
		ok "$what: exit 1"
	else
		not_ok "$what: exit $RC, want 1"
	fi
	check_stderr_line "$what" "$file" "$re"
	if [ "$(fhash "$file")" = "$hash" ]; then
		ok "$what: input unchanged"
	else
		not_ok "$what: input changed"
	fi
	check_no_temps "$what" "$(dirname "$file")"
}

# ---------------------------------------------------------------------------
# 1. Fixtures.
echo "== 1. fixtures"
FEATURES=(--btf_features=default)
P=$TMP/pristine
mkdir "$TMP/fx" "$P"
echo 'int main(void) { return 0; }' > "$TMP/main.c"
$CC -g -O2 -c "$FIX/sample.c" -o "$P/sample.o" || die "$CC -c sample.c failed"
$CC -g -O2 -c "$FIX/types_struct.c" -o "$P/types_struct.o" || die "$CC -c types_struct.c failed"
$CC -g -O2 -c "$FIX/funcs_vars.c" -o "$P/funcs_vars.o" || die "$CC -c funcs_vars.c failed"
$CC -g -O2 -fPIC -shared "$FIX/sample.c" -o "$P/sample.so" || die "$CC -shared sample.c failed"
$CC -g -O2 -fPIC -shared "$FIX/types_struct.c" -o "$P/types_struct.so" ||
	die "$CC -shared types_struct.c failed"
$CC -g -O2 "$TMP/main.c" "$FIX/sample.c" -o "$P/sample.exe" || die "$CC sample.c main.c failed"
if ! $CC -m32 -g -O2 -c "$FIX/sample.c" -o "$P/sample32.o" 2> /dev/null; then
	echo "(no ELF32 fixture: $CC -m32 does not work here)"
	rm -f "$P/sample32.o"
fi
cp "$P"/* "$TMP/fx/"

# still_works WHAT FILE: FILE still links, loads or runs.
still_works()
{
	local what=$1 file=$2
	case $file in
	*.o)
		[[ $file == *32.o ]] && return 0	# no 32-bit libc to link with
		if $CC "$TMP/main.c" "$file" -o "$TMP/linked" 2> "$TMP/ld.err" && "$TMP/linked"; then
			ok "$what: still links (and runs)"
		else
			not_ok "$what: does not link any more: $(head -n 3 "$TMP/ld.err")"
		fi ;;
	*.so)
		if python3 -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1])' "$file" 2> "$TMP/ld.err"; then
			ok "$what: still loads"
		else
			not_ok "$what: does not load any more: $(tail -n 1 "$TMP/ld.err")"
		fi ;;
	*.exe)
		if "$file"; then ok "$what: still runs"; else not_ok "$what: does not run any more"; fi ;;
	esac
}

# section_count FILE
section_count()
{
	LC_ALL=C readelf -h "$1" | awk '/Number of section headers/ { print $NF }'
}

# inplace WHAT FILE MODE [OWNER]: encode FILE in place (with its mode set to
# MODE and, as root, its owner to OWNER first) and check the result against
# the detached output and the file as it was.
inplace()
{
	local what=$1 file=$2 mode=$3 owner=${4:-} before=$TMP/before had_btf=false
	local n_before n_after want
	# chown first: it clears the setuid and setgid bits.
	if [ -n "$owner" ] && $IS_ROOT; then
		chown "$owner" "$file"
	fi
	chmod "$mode" "$file"
	owner=$(stat -c %u:%g "$file")
	mode=$(stat -c %a "$file")
	cp -p "$file" "$before"
	LC_ALL=C readelf -S -W "$file" | grep -q ' \.BTF ' && had_btf=true
	n_before=$(section_count "$file")
	run -J "${FEATURES[@]}" --btf_encode_detached="$TMP/detached.btf" "$before"
	[ "$RC" -eq 0 ] || { not_ok "$what: detached encoding exited $RC"; return; }
	run -J "${FEATURES[@]}" "$file"
	if [ "$RC" -ne 0 ] || [ -s "$TMP/stderr" ]; then
		not_ok "$what: pahole -J in place: exit $RC: $(head -n 3 "$TMP/stderr")"
		return
	fi
	if dump_btf "$file" "$TMP/dumped.btf" && cmp -s "$TMP/detached.btf" "$TMP/dumped.btf"; then
		ok "$what: objcopy's .BTF is the detached output ($(stat -c %s "$TMP/dumped.btf") bytes)"
	else
		not_ok "$what: objcopy's .BTF differs from the detached output"
	fi
	if readelf_clean "$file" -S && readelf_clean "$file" -a; then
		ok "$what: readelf -S and -a: no warning"
	else
		not_ok "$what: readelf complains"
	fi
	n_after=$(section_count "$file")
	want=$((n_before + 1))
	$had_btf && want=$n_before
	if [ "$n_after" -eq "$want" ]; then
		ok "$what: $n_before sections, then $n_after"
	else
		not_ok "$what: $n_before sections, then $n_after"
	fi
	if $had_btf; then
		check "$what: every other section unchanged" elf_cmp_sections "$before" "$file" .BTF
		# Encoding again what is already there should not grow the file.
		if dump_btf "$before" "$TMP/old.btf" && cmp -s "$TMP/old.btf" "$TMP/detached.btf"; then
			if [ "$(stat -c %s "$file")" -eq "$(stat -c %s "$before")" ]; then
				ok "$what: the same .BTF again: the file keeps its size"
			else
				not_ok "$what: the same .BTF again: the file grew from" \
					"$(stat -c %s "$before") to $(stat -c %s "$file") bytes"
			fi
		fi
	else
		check "$what: every other section unchanged, .shstrtab only grew" \
			elf_cmp_sections "$before" "$file" .BTF .shstrtab+
	fi
	still_works "$what" "$file"
	if [ "$(stat -c '%a %u:%g' "$file")" = "$mode $owner" ]; then
		ok "$what: mode $mode and owner $owner kept"
	else
		not_ok "$what: mode and owner $(stat -c '%a %u:%g' "$file"), were $mode $owner"
	fi
	check_no_temps "$what" "$(dirname "$file")"
}

for f in "$TMP"/fx/*; do
	name=$(basename "$f")
	inplace "$name: add" "$f" 0751 1234:5678
	inplace "$name: replace" "$f" 0750 4321:8765
done

# A .BTF bigger than the new one (it may stay where it is), a smaller one (it
# has to move), and setuid/setgid bits, which a chown after the chmod drops.
head -c 100000 /dev/urandom > "$TMP/big.junk"
printf 'short' > "$TMP/small.junk"
objcopy --add-section .BTF="$TMP/big.junk" "$P/sample.exe" "$TMP/fx/big_btf.exe" ||
	die "objcopy --add-section failed"
inplace "sample.exe with a bigger .BTF" "$TMP/fx/big_btf.exe" 0755
objcopy --add-section .BTF="$TMP/small.junk" "$P/sample.o" "$TMP/fx/small_btf.o" ||
	die "objcopy --add-section failed"
inplace "sample.o with a smaller .BTF" "$TMP/fx/small_btf.o" 0644
cp "$P/sample.o" "$TMP/fx/setid.o"
inplace "sample.o, mode 6755" "$TMP/fx/setid.o" 6755 1234:5678
inplace "sample.o, mode 2755, replace" "$TMP/fx/setid.o" 2755 4321:8765

# An empty .BTF loaded with the image is filled, as the kernel's build has
# pahole do in .tmp_vmlinux.btf (its linker script makes the section).
printf '' > "$TMP/empty.junk"
objcopy --add-section .BTF="$TMP/empty.junk" --set-section-flags .BTF=alloc,readonly \
	"$P/sample.exe" "$TMP/fx/empty_alloc_btf.exe" || die "objcopy --add-section failed"
inplace "sample.exe with an empty SHF_ALLOC .BTF" "$TMP/fx/empty_alloc_btf.exe" 0755
if LC_ALL=C readelf -S -W "$TMP/fx/empty_alloc_btf.exe" | grep ' \.BTF ' | grep -q ' A '; then
	ok "sample.exe with an empty SHF_ALLOC .BTF: the .BTF keeps SHF_ALLOC"
else
	not_ok "sample.exe with an empty SHF_ALLOC .BTF: the .BTF lost SHF_ALLOC"
fi

# A .BTF loaded with the image, with bytes, cannot be replaced.
what="sample.o with an SHF_ALLOC .BTF"
f=$TMP/fx/alloc_btf.o
objcopy --add-section .BTF="$TMP/small.junk" --set-section-flags .BTF=alloc,readonly \
	"$P/sample.o" "$f" || die "objcopy --add-section failed"
hash=$(fhash "$f")
run -J "${FEATURES[@]}" "$f"
check_fails "$what" "$f" "$hash"

# ---------------------------------------------------------------------------
# 2. The corpus vmlinux.
echo "== 2. the corpus vmlinux (at ${SECONDS}s)"
BIG=
if [ -e "$SHARED/tools/corpus" ]; then
	corpus=$(corpus_dir) || exit
	mkdir "$TMP/vm"
	BIG=$TMP/vm/vmlinux
	cp "$corpus/vmlinux-6.1.0-57-cloud-amd64" "$BIG" || die "cannot copy vmlinux"
	objcopy --remove-section .BTF "$BIG" || die "objcopy --remove-section .BTF failed"
	cp "$BIG" "$TMP/vmlinux.nobtf"
	hash_nobtf=$(fhash "$BIG")
	start=$(date +%s%N)
	run -J "${FEATURES[@]}" "$BIG"
	end=$(date +%s%N)
	RUNTIME_MS=$(((end - start) / 1000000))
	if [ "$RC" -eq 0 ] && [ ! -s "$TMP/stderr" ]; then
		ok "vmlinux: in place in $RUNTIME_MS ms"
	else
		not_ok "vmlinux: in place: exit $RC: $(head -n 3 "$TMP/stderr")"
	fi
	hash_btf=$(fhash "$BIG")
	dump_btf "$BIG" "$TMP/vm.dumped.btf" || not_ok "vmlinux: objcopy cannot dump .BTF"
	btfcanon diff "$corpus/reference/vmlinux.default.btf" "$TMP/vm.dumped.btf" --max 10 \
		> "$TMP/vm.diff" 2>&1
	if grep -qx 'differences: 0' "$TMP/vm.diff"; then
		ok "vmlinux: .BTF has the same types as pahole v1.31"
	else
		not_ok "vmlinux: .BTF differs from vmlinux.default.btf ($(grep '^differences:' "$TMP/vm.diff"))"
		head -n 20 "$TMP/vm.diff" | sed 's/^/	| /'
	fi
	run -J "${FEATURES[@]}" --btf_encode_detached="$TMP/vm.detached.btf" "$TMP/vmlinux.nobtf"
	if [ "$RC" -eq 0 ] && cmp -s "$TMP/vm.detached.btf" "$TMP/vm.dumped.btf"; then
		ok "vmlinux: .BTF is the detached output byte for byte"
	else
		not_ok "vmlinux: .BTF differs from the detached output (detached: exit $RC)"
	fi
	check "vmlinux: every other section unchanged" \
		elf_cmp_sections "$TMP/vmlinux.nobtf" "$BIG" .BTF .shstrtab
	if readelf_clean "$BIG" -h -l -S; then
		ok "vmlinux: readelf -h -l -S: no warning"
	else
		not_ok "vmlinux: readelf complains"
	fi
	check_no_temps "vmlinux" "$TMP/vm"
else
	[ "${CI:-}" = true ] && die "corpus not available (../shared missing) under CI=true"
	echo "(corpus not available: ../shared missing; part 2 skipped, part 3 uses a generated fixture)"
fi

# ---------------------------------------------------------------------------
# 3. Signals at evenly spaced moments: the same moments on every run.
echo "== 3. signals (at ${SECONDS}s)"
if [ -z "$BIG" ]; then
	# sample.o with 256 MB of padding: encoding is quick, but copying
	# and syncing the file takes a while.
	mkdir "$TMP/vm"
	head -c 256M /dev/urandom > "$TMP/pad"
	objcopy --add-section .pad="$TMP/pad" "$P/sample.o" "$TMP/vmlinux.nobtf" ||
		die "objcopy --add-section .pad failed"
	rm -f "$TMP/pad"
	cp "$TMP/vmlinux.nobtf" "$TMP/vm/big.o"
	BIG=$TMP/vm/big.o
	hash_nobtf=$(fhash "$BIG")
	start=$(date +%s%N)
	run -J "${FEATURES[@]}" "$BIG"
	end=$(date +%s%N)
	RUNTIME_MS=$(((end - start) / 1000000))
	[ "$RC" -eq 0 ] || die "encoding $BIG in place failed: $(head -n 3 "$TMP/stderr")"
	echo "(big.o: $(stat -c %s "$BIG") bytes, in place in $RUNTIME_MS ms)"
	hash_btf=$(fhash "$BIG")
	run -J "${FEATURES[@]}" --btf_encode_detached="$TMP/vm.detached.btf" "$TMP/vmlinux.nobtf"
fi
# Two targets: $BIG has a .BTF (replaced), $NOBTF has none (added).  Either
# may end up as the complete result of its encoding, which is $hash_btf.
NOBTF=$TMP/vm/nobtf_$(basename "$BIG")
cp "$TMP/vmlinux.nobtf" "$NOBTF"
declare -A HASH=([$BIG]=$hash_btf [$NOBTF]=$hash_nobtf)
SPAN_MS=$((RUNTIME_MS + RUNTIME_MS / 10 + 1))
# A slow build (sanitizers) gets fewer tries: about 100 s in all.
if [ $(((KILL_TRIES + 2 * SIG_TRIES) * RUNTIME_MS / 2)) -gt 100000 ]; then
	KILL_TRIES=$((140000 / RUNTIME_MS + 1))
	[ "$KILL_TRIES" -gt 5 ] || KILL_TRIES=5
	SIG_TRIES=2
	echo "(an encode takes $RUNTIME_MS ms: $KILL_TRIES SIGKILLs, $SIG_TRIES SIGTERMs and SIGINTs)"
fi

# signal_try SIG DELAY_MS FILE: start an in-place encode of FILE, send SIG
# after DELAY_MS; leaves OUTCOME (unchanged, new, BAD...) and RC.
signal_try()
{
	local sig=$1 delay=$2 file=$3 pid now before
	# An untouched file (fsig in lib.sh) needs no hashing.
	before=$(fsig "$file")
	"$PAHOLE" -J "${FEATURES[@]}" "$file" > "$TMP/stdout" 2> "$TMP/stderr" &
	pid=$!
	sleep "$(awk -v ms="$delay" 'BEGIN { printf "%.3f", ms / 1000 }')"
	kill -s "$sig" "$pid" 2> /dev/null
	wait "$pid" 2> /dev/null
	RC=$?
	if [ "$(fsig "$file")" = "$before" ]; then
		now=${HASH[$file]}
	else
		now=$(fhash "$file")
	fi
	if [ "$now" = "${HASH[$file]}" ]; then
		OUTCOME=unchanged
	elif [ "$now" = "$hash_btf" ]; then
		OUTCOME=new
		HASH[$file]=$now
	elif dump_btf "$file" "$TMP/sig.btf" && cmp -s "$TMP/sig.btf" "$TMP/vm.detached.btf" &&
	     readelf_clean "$file" -h -l -S > /dev/null &&
	     elf_cmp_sections "$TMP/vmlinux.nobtf" "$file" .BTF .shstrtab+ > /dev/null; then
		# A complete result, though not the same bytes as the first one
		# (a replaced .BTF may stay where it was).
		OUTCOME=new
		HASH[$file]=$now
	else
		OUTCOME="BAD: the file changed and is not a complete result"
		cp "$TMP/vmlinux.nobtf" "$file"
		HASH[$file]=$hash_nobtf
	fi
	LEFT=$(pahole_temps "$(dirname "$file")" | paste -sd' ')
	rm -f "$(dirname "$file")"/.*.pahole-*
}

n_unchanged=0 n_new=0 n_done=0 bad=0
for i in $(seq "$KILL_TRIES"); do
	if [ $((i % 2)) -eq 0 ]; then file=$BIG; else file=$NOBTF; fi
	delay=$(((2 * i - 1) * SPAN_MS / (2 * KILL_TRIES)))
	signal_try KILL "$delay" "$file"
	desc="SIGKILL after $delay ms ($(basename "$file"))"
	if [ "$RC" -eq 0 ]; then
		n_done=$((n_done + 1))
	elif [ "$RC" -ne 137 ]; then
		not_ok "$desc: exit $RC: $(head -n 1 "$TMP/stderr")"
		bad=$((bad + 1))
		continue
	fi
	case $OUTCOME in
	unchanged) n_unchanged=$((n_unchanged + 1)) ;;
	new) n_new=$((n_new + 1)) ;;
	*) not_ok "$desc (exit $RC): $OUTCOME"; bad=$((bad + 1)) ;;
	esac
	# A finished run leaves the complete result (re-encoding gives the same bytes).
	if [ "$RC" -eq 0 ] && [ "${HASH[$file]}" != "$hash_btf" ] && [ "$file" = "$NOBTF" ]; then
		not_ok "$desc: pahole finished but the file was not rewritten"
		bad=$((bad + 1))
	fi
	if [ -n "$LEFT" ]; then
		not_ok "$desc: temporary files left: $LEFT"
		bad=$((bad + 1))
	fi
done
if [ "$bad" -eq 0 ]; then
	ok "SIGKILL x$KILL_TRIES: file unchanged $n_unchanged times, complete new file $n_new times" \
		"(pahole had finished $n_done times), never damaged, no temporary file left"
fi

for sig in TERM INT; do
	for i in $(seq "$SIG_TRIES"); do
		if [ $((i % 2)) -eq 0 ]; then file=$BIG; else file=$NOBTF; fi
		# Not in the first 50 ms: the handler is not installed at once.
		delay=$((50 + (2 * i - 1) * (SPAN_MS > 50 ? SPAN_MS - 50 : 1) / (2 * SIG_TRIES)))
		signal_try "$sig" "$delay" "$file"
		desc="SIG$sig after $delay ms ($(basename "$file"))"
		if [ "$RC" -eq 0 ]; then
			# Finished before the signal came: nothing to check but the file.
			if [ "$OUTCOME" = new ] || [ "$OUTCOME" = unchanged ]; then
				ok "$desc: pahole had already finished (the file is complete)"
			else
				not_ok "$desc: exit 0 but $OUTCOME"
			fi
			continue
		fi
		if [ "$RC" -eq 1 ]; then
			ok "$desc: exit 1"
		else
			not_ok "$desc: exit $RC, want 1"
		fi
		check_stderr_line "$desc" "$file"
		case $OUTCOME in
		unchanged) ok "$desc: file unchanged" ;;
		new) ok "$desc: came after the rename: the file is the complete new one" ;;
		*) not_ok "$desc: $OUTCOME" ;;
		esac
		if [ -z "$LEFT" ]; then
			ok "$desc: no temporary file left"
		else
			not_ok "$desc: temporary files left: $LEFT"
		fi
	done
done
rm -rf "$TMP/vm" "$TMP/vmlinux.nobtf"

# SIGTERM while a temporary file of pahole's has a name, made likely by
# strace holding each syscall that can create a name for 50 ms on its way
# out (a signal then comes as the syscall returns): the handler must remove
# the name, or the name must not exist before the handler knows it.
what="SIGTERM while the temporary file has a name"
if ! command -v strace > /dev/null; then
	echo "($what: skipped, no strace)"
elif ! strace -qq -o /dev/null true 2> /dev/null; then
	echo "($what: skipped, strace cannot trace here)"
else
	mkdir "$TMP/st"
	cp "$P/sample.o" "$TMP/st/ref.o"
	run -J "${FEATURES[@]}" "$TMP/st/ref.o"
	hash_ref=$(fhash "$TMP/st/ref.o")
	calls='?open,?openat,?openat2,?creat,?link,?linkat,?rename,?renameat,?renameat2,?mknodat'
	handled=0
	for i in 1 2 3; do
		f=$TMP/st/sample.o
		cp "$P/sample.o" "$f"
		hash=$(fhash "$f")
		strace -D -qq -o /dev/null -e trace="$calls" -e inject="$calls":delay_exit=50000 \
			"$PAHOLE" -J "${FEATURES[@]}" "$f" > "$TMP/stdout" 2> "$TMP/stderr" &
		pid=$!
		seen=
		while kill -0 "$pid" 2> /dev/null; do
			seen=$(pahole_temps "$TMP/st")
			[ -n "$seen" ] && break
			sleep 0.005
		done
		kill -TERM "$pid" 2> /dev/null
		wait "$pid" 2> /dev/null
		RC=$?
		desc="$what ($(paste -sd' ' <<< "$seen"), try $i)"
		if [ -z "$seen" ]; then
			echo "($what, try $i: pahole exited $RC before a temporary name was seen)"
			continue
		fi
		if [ "$RC" -eq 0 ] && [ "$(fhash "$f")" = "$hash_ref" ] && [ ! -s "$TMP/stderr" ]; then
			# On a loaded machine the signal may come after the rename
			# and the exit: the complete new file and no line are right.
			ok "$desc: pahole had finished (exit 0, the complete new file)"
			check_no_temps "$desc" "$TMP/st"
			rm -f "$TMP"/st/.*.pahole-*
			continue
		fi
		handled=$((handled + 1))
		if [ "$RC" -eq 1 ]; then ok "$desc: exit 1"; else not_ok "$desc: exit $RC, want 1"; fi
		check_stderr_line "$desc" "$f"
		case $(fhash "$f") in
		"$hash") ok "$desc: file unchanged" ;;
		"$hash_ref") ok "$desc: came after the rename: the file is the complete new one" ;;
		*) not_ok "$desc: the file changed and is not the complete result" ;;
		esac
		check_no_temps "$desc" "$TMP/st"
		rm -f "$TMP"/st/.*.pahole-*
	done
	# Three tries that all came too late tested no handler.
	if [ "$handled" -eq 0 ]; then
		not_ok "$what: no try's signal came while pahole ran"
	fi
fi

# ---------------------------------------------------------------------------
# 4. A full disk.
echo "== 4. full disk (at ${SECONDS}s)"
# mount_tmpfs DIR SIZE: mount a tmpfs of SIZE on DIR (made here).
mount_tmpfs()
{
	mkdir -p "$1"
	mount -t tmpfs -o "size=$2,mode=0755" tmpfs "$1" 2> /dev/null || return 1
	MOUNTS+=("$1")
}

# elf_of_size SIZE OUT: sample.o padded with a non-loaded section to SIZE bytes.
elf_of_size()
{
	local pad
	pad=$((($1) - $(stat -c %s "$TMP/sample.o") - 64 * 2 - 8))
	head -c "$pad" /dev/zero > "$TMP/pad"
	objcopy --add-section .pad="$TMP/pad" "$TMP/sample.o" "$TMP/padded.o" || return 1
	# objcopy aligns things: correct the pad by what is off.
	pad=$((pad + ($1) - $(stat -c %s "$TMP/padded.o")))
	head -c "$pad" /dev/zero > "$TMP/pad"
	objcopy --add-section .pad="$TMP/pad" "$TMP/sample.o" "$TMP/padded.o" || return 1
	[ "$(stat -c %s "$TMP/padded.o")" -eq $(($1)) ] || return 1
	cp "$TMP/padded.o" "$2"
}
$CC -g -O2 -c "$FIX/sample.c" -o "$TMP/sample.o" || die "$CC -c sample.c failed"
if ! $IS_ROOT || ! mount_tmpfs "$TMP/full" 1M; then
	echo "(part 4 skipped: cannot mount a tmpfs; needs root)"
else
	# The copy cannot complete: 700K + 700K > 1M.
	f=$TMP/full/big.o
	elf_of_size 700000 "$f" || die "cannot make a 700000-byte ELF file"
	hash=$(fhash "$f")
	run -J "${FEATURES[@]}" "$f"
	check_fails "full disk, the copy does not fit" "$f" "$hash" 'No space left on device'
	rm -f "$f"
	# The copy fits, to the last page; the new .BTF does not.
	f=$TMP/full/half.o
	elf_of_size $((512 * 1024 - 64)) "$f" || die "cannot make a $((512 * 1024 - 64))-byte ELF file"
	hash=$(fhash "$f")
	run -J "${FEATURES[@]}" "$f"
	check_fails "full disk, the .BTF does not fit" "$f" "$hash" 'No space left on device'
	rm -f "$f"
	# A file big enough for its copy to begin while it is encoded (4 MB and
	# more, btf_writer__copy_start()): the copy's thread meets the full disk.
	if mount_tmpfs "$TMP/full2" 10M; then
		f=$TMP/full2/early.o
		elf_of_size 6000000 "$f" || die "cannot make a 6000000-byte ELF file"
		hash=$(fhash "$f")
		run -J "${FEATURES[@]}" "$f"
		check_fails "full disk, the copy begun early does not fit" "$f" "$hash" \
			'No space left on device'
		rm -f "$f"
	else
		not_ok "cannot mount a second tmpfs"
	fi
	# Detached output into a full tmpfs.
	what="full disk, detached"
	head -c 2M /dev/zero > "$TMP/full/filler" 2> /dev/null
	run -J "${FEATURES[@]}" --btf_encode_detached="$TMP/full/out.btf" "$TMP/sample.o"
	if [ "$RC" -eq 1 ]; then ok "$what: exit 1"; else not_ok "$what: exit $RC, want 1"; fi
	check_stderr_line "$what" "$TMP/full/out.btf" 'No space left on device'
	rm -f "$TMP/full/filler"
	if [ -z "$(ls -A "$TMP/full")" ]; then
		ok "$what: nothing written"
	else
		not_ok "$what: left files: $(ls -A "$TMP/full")"
	fi
fi

# ---------------------------------------------------------------------------
# 5. Read-only.
echo "== 5. read-only (at ${SECONDS}s)"
# as_user CMD...: run CMD as an unprivileged user when root, else as we are.
# As root, nobody runs a copy of ours that it can reach, wherever the
# checkout lies (tests/lib.sh).
NOBODY= USER_PAHOLE=$PAHOLE
if $IS_ROOT; then
	if nobody_setup && USER_PAHOLE=$(for_nobody "$PAHOLE"); then
		NOBODY=$(id -u nobody)
		echo "(the unprivileged cases run a copy of pahole, $USER_PAHOLE, as nobody)"
	else
		note_skip "user nobody cannot run a copy of pahole: the unprivileged cases"
	fi
fi
as_user()
{
	if $IS_ROOT; then
		"${AS_NOBODY[@]}" "$@"
	else
		"$@"
	fi
}

# ro_case WHAT FILE [REGEX]: pahole -J FILE (run by as_user when USER_RUN is
# set) must fail cleanly.
ro_case()
{
	local what=$1 file=$2 hash
	hash=$(fhash "$file")
	if [ -n "${USER_RUN:-}" ]; then
		as_user "$USER_PAHOLE" -J "${FEATURES[@]}" "$file" > "$TMP/stdout" 2> "$TMP/stderr"
		RC=$?
	else
		run -J "${FEATURES[@]}" "$file"
	fi
	check_fails "$what" "$file" "$hash" "${3:-denied|[Rr]ead-only|not permitted}"
}

if ! $IS_ROOT || [ -n "$NOBODY" ]; then
	who=$($IS_ROOT && echo " (as nobody)")
	mkdir "$TMP/ro1"
	cp "$TMP/sample.o" "$TMP/ro1/sample.o"
	chmod 0444 "$TMP/ro1/sample.o"
	$IS_ROOT && chown -R "$NOBODY:$NOBODY" "$TMP/ro1"
	USER_RUN=1 ro_case "a 0444 file$who" "$TMP/ro1/sample.o"

	mkdir "$TMP/ro2"
	cp "$TMP/sample.o" "$TMP/ro2/sample.o"
	chmod 0644 "$TMP/ro2/sample.o"
	$IS_ROOT && chown -R "$NOBODY:$NOBODY" "$TMP/ro2"
	chmod 0555 "$TMP/ro2"
	USER_RUN=1 ro_case "a 0644 file in a 0555 directory$who" "$TMP/ro2/sample.o"
	chmod 0755 "$TMP/ro2"
fi
if $IS_ROOT; then
	mkdir "$TMP/ro3"
	cp "$TMP/sample.o" "$TMP/ro3/sample.o"
	if chattr +i "$TMP/ro3/sample.o" 2> /dev/null; then
		ro_case "an immutable file (root)" "$TMP/ro3/sample.o"
		chattr -i "$TMP/ro3/sample.o"
		chattr +i "$TMP/ro3"
		ro_case "a file in an immutable directory (root)" "$TMP/ro3/sample.o"
		chattr -i "$TMP/ro3"
	else
		echo "(chattr +i does not work here: immutable cases skipped)"
	fi
	if mount_tmpfs "$TMP/ro4" 4M; then
		cp "$TMP/sample.o" "$TMP/ro4/sample.o"
		if mount -o remount,ro "$TMP/ro4" 2> /dev/null; then
			ro_case "a read-only mount (root)" "$TMP/ro4/sample.o"
		else
			echo "(cannot remount a tmpfs read-only: that case skipped)"
		fi
	else
		echo "(cannot mount a tmpfs: the read-only mount case skipped)"
	fi
fi

# ---------------------------------------------------------------------------
# 6. A detached output where something is already (btf_writer.c: over a
# regular file the names are exchanged and the old file unlinked, else a
# rename): the BTF, whole, where the name was, and nothing else moved.
echo "== 6. a detached output over what is there"
d=$TMP/over
mkdir "$d"
"$PAHOLE" -J --btf_features=default --btf_encode_detached="$d/ref.btf" "$TMP/sample.o" ||
	die "sample.o: detached encoding failed"
echo old > "$d/file.btf"
ln "$d/file.btf" "$d/link.btf"
echo target > "$d/target"
ln -s target "$d/sym.btf"
mkdir "$d/dir.btf"
for name in file.btf sym.btf; do
	what="over a $([ "$name" = sym.btf ] && echo symlink || echo hard-linked file)"
	if "$PAHOLE" -J --btf_features=default --btf_encode_detached="$d/$name" "$TMP/sample.o" &&
		[ -f "$d/$name" ] && [ ! -L "$d/$name" ] && cmp -s "$d/ref.btf" "$d/$name"; then
		ok "$what: the BTF is there, a file of its own"
	else
		not_ok "$what: no BTF of its own at $name"
	fi
	check_no_temps "$what" "$d"
done
[ "$(cat "$d/link.btf")" = old ] && ok "over a hard-linked file: its other name keeps the old bytes" ||
	not_ok "over a hard-linked file: its other name lost the old bytes"
[ "$(cat "$d/target")" = target ] && ok "over a symlink: its target is untouched" ||
	not_ok "over a symlink: its target changed"
"$PAHOLE" -J --btf_features=default --btf_encode_detached="$d/dir.btf" "$TMP/sample.o" \
	> /dev/null 2> "$TMP/stderr"
RC=$?
[ "$RC" -eq 1 ] && ok "over a directory: exit 1" || not_ok "over a directory: exit $RC, want 1"
check_stderr_line "over a directory" "$d/dir.btf"
[ -d "$d/dir.btf" ] && ok "over a directory: it is still there" ||
	not_ok "over a directory: it is gone"
check_no_temps "over a directory" "$d"

finish
