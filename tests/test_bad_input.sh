#!/usr/bin/env bash
# Bad input gets one clear line on stderr, exit status 1, and leaves no trace:
# no output file, input unchanged, no crash.  An ELF without DWARF only warns
# (one line) and exits 0.  Usage errors exit 64; --version prints v1.31.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
make_tmp
CC=${CC:-gcc}

# Inputs.
missing=$TMP/does-not-exist.o
adir=$TMP/a-directory
empty=$TMP/empty.o
text=$TMP/notes.txt
trunc=$TMP/truncated.o
nodwarf=$TMP/no-dwarf.o
mkdir "$adir"
: > "$empty"
printf 'this is not an ELF file\nit is some text\n' > "$text"
$CC -g -O2 -c "$SRCDIR/tests/fixtures/sample.c" -o "$TMP/full.o" || die "$CC -g failed"
head -c 100 "$TMP/full.o" > "$trunc"
$CC -O2 -c "$SRCDIR/tests/fixtures/sample.c" -o "$nodwarf" || die "$CC failed"
if readelf -S "$nodwarf" | grep -q '\.debug_info'; then
	die "$nodwarf has DWARF although built without -g"
fi

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

# check_one_line WHAT INPUT: stderr is exactly one line that names INPUT and
# says something more (a cause).
check_one_line()
{
	local what=$1 input=$2 n line rest
	n=$(nlines "$TMP/stderr")
	line=$(head -n 1 "$TMP/stderr")
	if [ "$n" -ne 1 ]; then
		not_ok "$what: $n lines on stderr, want 1:"
		sed 's/^/	| /' "$TMP/stderr"
		return
	fi
	ok "$what: one line on stderr: $line"
	case "$line" in
	*"$input"*) ok "$what: the line names the file" ;;
	*) not_ok "$what: the line does not contain the path $input" ;;
	esac
	rest=${line//"$input"/}
	rest=${rest//pahole/}
	if grep -qE '[A-Za-z]{3,}' <<< "$rest"; then
		ok "$what: the line gives a cause"
	else
		not_ok "$what: the line gives no cause beyond the path"
	fi
}

check_no_crash()
{
	if [ "$RC" -lt 128 ]; then
		ok "$1: no crash (exit $RC)"
	else
		not_ok "$1: killed by signal $((RC - 128))"
	fi
}

check_rc()
{
	if [ "$RC" -eq "$2" ]; then ok "$1: exit $RC"; else not_ok "$1: exit $RC, want $2"; fi
}

# bad_input WHAT INPUT: detached encoding of INPUT must fail cleanly.
bad_input()
{
	local what=$1 input=$2 before out=$TMP/out
	rm -rf "$out"
	mkdir "$out"
	before=$(sha256 "$input")
	run -J --btf_encode_detached="$out/out.btf" "$input"
	check_no_crash "$what"
	check_rc "$what" 1
	check_one_line "$what" "$input"
	if [ -z "$(find "$out" -mindepth 1)" ]; then
		ok "$what: nothing written"
	else
		not_ok "$what: left files behind: $(find "$out" -mindepth 1 -printf '%f ')"
	fi
	[ -e "$input" ] || [ "$before" = absent ] || not_ok "$what: input was removed"
	if [ "$(sha256 "$input")" = "$before" ]; then
		ok "$what: input unchanged"
	else
		not_ok "$what: input changed"
	fi
}

bad_input "missing file" "$missing"
bad_input "directory" "$adir"
bad_input "empty file" "$empty"
bad_input "text file" "$text"
bad_input "truncated ELF" "$trunc"

# An ELF without DWARF: one warning line, exit 0.  Writing nothing is fine;
# if a file is written it must at least be BTF.
what="ELF without DWARF"
rm -rf "$TMP/out" && mkdir "$TMP/out"
before=$(sha256 "$nodwarf")
run -J --btf_encode_detached="$TMP/out/out.btf" "$nodwarf"
check_no_crash "$what"
check_rc "$what" 0
check_one_line "$what" "$nodwarf"
if [ ! -e "$TMP/out/out.btf" ]; then
	ok "$what: no output written"
elif [ "$(head -c 2 "$TMP/out/out.btf" | od -An -tx1 | tr -d ' \n')" = 9feb ]; then
	ok "$what: output written is BTF"
else
	not_ok "$what: output written is not BTF"
fi
if [ "$(sha256 "$nodwarf")" = "$before" ]; then
	ok "$what: input unchanged"
else
	not_ok "$what: input changed"
fi

# In place (no --btf_encode_detached): same contract.
what="in place, missing file"
run -J "$missing"
check_no_crash "$what"
check_rc "$what" 1
check_one_line "$what" "$missing"
if [ -e "$missing" ]; then not_ok "$what: created $missing"; else ok "$what: nothing created"; fi

what="in place, text file"
before=$(sha256 "$text")
run -J "$text"
check_no_crash "$what"
check_rc "$what" 1
check_one_line "$what" "$text"
if [ "$(sha256 "$text")" = "$before" ]; then
	ok "$what: input unchanged"
else
	not_ok "$what: input changed"
fi

# Usage errors and --version.
what="unknown option"
run --no-such-option-xyz "$TMP/full.o"
check_no_crash "$what"
check_rc "$what" 64
if [ -s "$TMP/stderr" ]; then ok "$what: says so on stderr"; else not_ok "$what: stderr is empty"; fi

what="--version"
run --version
check_rc "$what" 0
if [ "$(cat "$TMP/stdout")" = v1.31 ] && [ "$(nlines "$TMP/stdout")" -eq 1 ]; then
	ok "$what: prints v1.31"
else
	not_ok "$what: prints '$(head -c 200 "$TMP/stdout")', want 'v1.31'"
fi

finish
