#!/usr/bin/env bash
# Bad input and faults get one clear line on stderr and a non-zero exit, and
# leave no trace: no crash (no exit by a signal), no output file, inputs
# byte-identical, no temporary file.  Each case is a row of the table
# "Bad input and faults" in README.md.  Checked here:
#  1. the input: missing, a directory, a FIFO, empty, text, random bytes, ELF
#     magic then junk, ELF truncated at ten points (inside .debug_info,
#     .debug_abbrev, .debug_str, .symtab and the section header table among
#     them), .debug_info, .debug_abbrev or .debug_str cut short (sh_size),
#     in place too; an ELF without
#     DWARF only warns (one line) and exits 0;
#  2. hand-made DWARF (tests/fixtures/bad_dwarf.py): type references past the
#     CU, past .debug_info, into the middle of a DIE, to a variable and to the
#     CU, reference cycles (typedef -> const -> volatile -> typedef, a pointer
#     to itself, a typedef of itself), an unknown abbreviation code, an
#     unknown form, a unit length past the section; two sound controls;
#  3. 32-bit (gcc -m32 or clang --target=i386) and big-endian (clang
#     --target=s390x and powerpc64) objects of tests/fixtures/bad_arch.c:
#     the BTF must be bad_arch.expect, in the ELF's byte order, or the input
#     refused with one line;
#  4. --btf_base that is not BTF (missing, a directory, empty, text, an ELF
#     without .BTF, truncated raw BTF); a base unrelated to the input (split
#     BTF that shares nothing with it, exit 0);
#  5. options: unknown --btf_features names with and without strict, -j0,
#     -j100000, -jx, --jobs=0 (usage errors: exit 64; argp's "Try --help"
#     line may follow the message); unknown options; --version;
#  6. the output: in a missing directory, over a directory, in a directory
#     we may not write (as nobody when root), into a full device (a symlink
#     to /dev/full);
#  7. SIGTERM and SIGINT mid-run with detached output (strace holds the
#     input's open, or the output's creation): exit 1, one line, nothing
#     written;
#  8. the second file a dwz'd object names (dwz -m's alternate file in
#     .gnu_debugaltlink, dwz -5 -m's supplementary file in .debug_sup):
#     missing, a directory, a FIFO (never waited on), the object itself,
#     another byte order, an ELF without DWARF, empty, not ELF: one line
#     naming the object and the file it names;
#  9. compressed sections (tests/fixtures/bad_compressed.py, from sample.c's
#     object compressed by objcopy with zstd and zlib): zstd data that are
#     no frame, that end within one, that decompress to more or less than
#     the header says, a header that says 2^46 bytes (also under ulimit -v:
#     the memory limit), corrupt zlib data, an unknown compression type, a
#     header cut short, a compressed SHT_NOBITS section and string table:
#     one line naming the file and the section, never "corrupt DWARF";
# 10. units that refer into each other, each a chunk of its own
#     (tests/fixtures/bad_xunit.py): a reference past .debug_info, into the
#     middle of another unit's DIE, to its variable, to its unit DIE, a
#     cycle through three units, a unit header that runs past the section:
#     one line and exit 1 at -j1, -j2 and -j8; the sound control encodes.
# Read-only inputs written in place, a full disk (tmpfs) and signals during
# in-place writing are in tests/test_inplace.sh.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
make_tmp
CC=${CC:-gcc}
FIX=$SRCDIR/tests/fixtures
command -v python3 > /dev/null || skip "python3 is not installed"
command -v "$CC" > /dev/null || skip "$CC is not installed"

# Inputs all live in $IN (checked byte for byte around every run), outputs
# go to $OUT (emptied before every run).
IN=$TMP/in
OUT=$TMP/out
mkdir "$IN" "$OUT"

missing=$IN/does-not-exist.o
adir=$IN/a-directory
empty=$IN/empty.o
text=$IN/notes.txt
trunc=$IN/truncated.o
nodwarf=$IN/no-dwarf.o
full=$IN/full.o
mkdir "$adir"
: > "$empty"
printf 'this is not an ELF file\nit is some text\n' > "$text"
$CC -g -O2 -c "$FIX/sample.c" -o "$full" || die "$CC -g failed"
head -c 100 "$full" > "$trunc"
$CC -O2 -c "$FIX/sample.c" -o "$nodwarf" || die "$CC failed"
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

# Causes that say nothing (libbpf's private errno values, EIO for "not BTF").
VAGUE='Unknown error|Input/output error|Success$'

# check_one_line WHAT FILE [RE [BAD_RE]]: stderr is exactly one line that
# names FILE and says something more (a cause), matching the extended
# regular expression RE if given and neither BAD_RE nor $VAGUE.
check_one_line()
{
	local what=$1 input=$2 re=${3:-} bad=${4:-} n line rest
	n=$(nlines "$TMP/stderr")
	line=$(head -n 1 "$TMP/stderr")
	if [ "$n" -ne 1 ]; then
		not_ok "$what: $n lines on stderr, want 1:"
		head -n 5 "$TMP/stderr" | sed 's/^/	| /'
		return
	fi
	ok "$what: one line on stderr: $line"
	case "$line" in
	*"$input"*) ok "$what: the line names the file" ;;
	*) not_ok "$what: the line does not contain the path $input" ;;
	esac
	rest=${line//"$input"/}
	rest=${rest//pahole/}
	if ! grep -qE '[A-Za-z]{3,}' <<< "$rest"; then
		not_ok "$what: the line gives no cause beyond the path"
	elif grep -qE "$VAGUE" <<< "$rest"; then
		not_ok "$what: the cause says nothing (/$VAGUE/)"
	elif [ -n "$bad" ] && grep -qE "$bad" <<< "$rest"; then
		not_ok "$what: the cause is wrong (/$bad/)"
	elif [ -n "$re" ] && ! grep -qiE "$re" <<< "$rest"; then
		not_ok "$what: the cause does not say /$re/"
	else
		ok "$what: the line gives a cause"
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

# snapshot: the sha256 of every file under $IN.
snapshot()
{
	(cd "$IN" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum)
}

# attempt WHAT ARGS...: empty $OUT, run pahole ARGS; then check what every
# run must give: no crash, the inputs unchanged, no temporary file left
# beside an input, in $OUT or in $TMP (beside $OUT).
attempt()
{
	local what=$1 before left
	shift
	rm -rf "$OUT"
	mkdir "$OUT"
	before=$(snapshot)
	run "$@"
	check_no_crash "$what"
	if [ "$(snapshot)" = "$before" ]; then
		ok "$what: inputs unchanged"
	else
		not_ok "$what: an input changed"
	fi
	left=$( (pahole_temps "$TMP"; pahole_temps "$IN"; pahole_temps "$OUT") | paste -sd' ')
	if [ -z "$left" ]; then
		ok "$what: no temporary file left"
	else
		not_ok "$what: temporary files left: $left"
	fi
}

# nothing_written WHAT
nothing_written()
{
	if [ -z "$(find "$OUT" -mindepth 1)" ]; then
		ok "$1: nothing written"
	else
		not_ok "$1: left files behind: $(find "$OUT" -mindepth 1 -printf '%f ')"
	fi
}

# refused WHAT STATUS FILE [RE [BAD_RE]]: the last attempt exited STATUS with
# one line on stderr naming FILE (see check_one_line) and wrote nothing.
refused()
{
	check_rc "$1" "$2"
	check_one_line "$1" "$3" "${4:-}" "${5:-}"
	nothing_written "$1"
}

# bad_input WHAT INPUT [RE [BAD_RE]]: detached encoding of INPUT must fail
# with exit 1 and one line naming INPUT.
bad_input()
{
	local what=$1 input=$2
	attempt "$what" -J --btf_encode_detached="$OUT/out.btf" "$input"
	refused "$what" 1 "$input" "${3:-}" "${4:-}"
	[ -e "$input" ] || [ "$input" = "$missing" ] || not_ok "$what: input was removed"
}

# bad_inplace WHAT INPUT [RE [BAD_RE]]: the same, writing INPUT in place.
bad_inplace()
{
	local what=$1 input=$2
	attempt "$what" -J "$input"
	refused "$what" 1 "$input" "${3:-}" "${4:-}"
}

# ---------------------------------------------------------------------------
echo "== 1. the input"
bad_input "missing file" "$missing" 'No such file'
bad_input "directory" "$adir" 'directory'
bad_input "empty file" "$empty" 'empty'
bad_input "text file" "$text" 'not an ELF'
bad_input "truncated ELF" "$trunc"
head -c 4096 /dev/urandom > "$IN/random.bin"
bad_input "random bytes" "$IN/random.bin" 'not an ELF'
{ printf '\177ELF\002\001\001'; head -c 600 /dev/urandom; } > "$IN/elf-magic-junk.o"
bad_input "ELF magic, then junk" "$IN/elf-magic-junk.o"

# A FIFO is not a regular file: it must be refused, not opened and waited on.
what="FIFO"
mkfifo "$IN/fifo.o"
rm -rf "$OUT" && mkdir "$OUT"
timeout -s KILL 5 "$PAHOLE" -J --btf_encode_detached="$OUT/out.btf" "$IN/fifo.o" \
	> "$TMP/stdout" 2> "$TMP/stderr"
RC=$?
if [ "$RC" -eq 137 ]; then
	not_ok "$what: pahole still waits on the FIFO after 5 s (killed)"
else
	check_no_crash "$what"
	refused "$what" 1 "$IN/fifo.o" 'regular'
fi
rm -f "$IN/fifo.o"

# An ELF file with DWARF, truncated at ten points spread over it.
elf_layout "$full" > "$TMP/layout" || die "cannot read the layout of $full"
# at NAME FRACTION: the offset FRACTION (e.g. 0.5) into NAME's bytes.
at()
{
	awk -v n="$1" -v f="$2" '$1 == n { printf "%d\n", $2 + $3 * f; found = 1 }
		END { exit !found }' "$TMP/layout" || die "$full has no $1"
}
size=$(stat -c %s "$full")
cuts=("10 inside the ELF identification"
	"63 one byte short of the ELF header"
	"$(at .text 0.5) in .text"
	"$(($(at .debug_info 0) + 8)) in .debug_info's first unit header"
	"$(at .debug_info 0.5) in the middle of .debug_info"
	"$(at .debug_abbrev 0.5) in .debug_abbrev"
	"$(at .debug_str 0.5) in .debug_str"
	"$(at .symtab 0.5) in .symtab"
	"$(at '[shdrs]' 0.5) in the section header table"
	"$((size - 1)) one byte short of the end (the section header table)")
for c in "${cuts[@]}"; do
	n=${c%% *}
	head -c "$n" "$full" > "$IN/cut-$n.o"
	bad_input "ELF truncated at $n of $size bytes (${c#* })" "$IN/cut-$n.o"
	rm -f "$IN/cut-$n.o"
done
head -c "$(at .debug_info 0.5)" "$full" > "$IN/cut-inplace.o"
bad_inplace "in place, ELF truncated in .debug_info" "$IN/cut-inplace.o"
rm -f "$IN/cut-inplace.o"

# The sections are all there, but one is cut short: a consistent ELF file
# whose DWARF ends too soon.  (A relocation section cut short is not
# among them: fewer relocations are still a valid ELF file.)
for s in .debug_info .debug_abbrev .debug_str; do
	f=$IN/short${s//./_}.o
	cp "$full" "$f"
	elf_set_section_size "$f" "$s" $((($(at "$s" 1) - $(at "$s" 0)) / 2)) ||
		die "cannot cut $s short"
	bad_input "$s cut to half its size" "$f"
	rm -f "$f"
done

# An ELF without DWARF: one warning line, exit 0.  Writing nothing is fine;
# if a file is written it must at least be BTF.
what="ELF without DWARF"
attempt "$what" -J --btf_encode_detached="$OUT/out.btf" "$nodwarf"
check_rc "$what" 0
check_one_line "$what" "$nodwarf" 'DWARF|debug'
if [ ! -e "$OUT/out.btf" ]; then
	ok "$what: no output written"
elif [ "$(head -c 2 "$OUT/out.btf" | od -An -tx1 | tr -d ' \n')" = 9feb ]; then
	ok "$what: output written is BTF"
else
	not_ok "$what: output written is not BTF"
fi
what="in place, ELF without DWARF"
attempt "$what" -J "$nodwarf"
check_rc "$what" 0
check_one_line "$what" "$nodwarf" 'DWARF|debug'

# A symbol table libelf cannot read (sh_entsize 0): no silent BTF without
# functions, but one line and exit 1.
badsym=$IN/bad-symtab
$CC -g -O2 -shared -fPIC "$FIX/sample.c" -o "$badsym" || die "$CC -shared failed"
elf_set_section_entsize "$badsym" .symtab 0 || die "cannot set .symtab's sh_entsize"
bad_input "a .symtab with sh_entsize 0" "$badsym" 'symbol table'

# DWARF without a single type (an assembler file built with -g): as pahole
# v1.31, nothing written, in place or not; and one warning line.
notypes=$IN/no-types.o
printf '.text\n.globl f\nf: ret\n' > "$TMP/no-types.s"
$CC -g -c "$TMP/no-types.s" -o "$notypes" || die "$CC cannot assemble no-types.s"
what="DWARF without types"
attempt "$what" -J --btf_encode_detached="$OUT/out.btf" "$notypes"
check_rc "$what" 0
check_one_line "$what" "$notypes" 'no types'
check "$what: no output written" [ ! -e "$OUT/out.btf" ]
what="in place, DWARF without types"
attempt "$what" -J "$notypes"
check_rc "$what" 0
check_one_line "$what" "$notypes" 'no types'

# In place (no --btf_encode_detached): same contract.
what="in place, missing file"
attempt "$what" -J "$missing"
refused "$what" 1 "$missing"
if [ -e "$missing" ]; then not_ok "$what: created $missing"; else ok "$what: nothing created"; fi
bad_inplace "in place, text file" "$text"
bad_inplace "in place, directory" "$adir"

# ---------------------------------------------------------------------------
echo "== 2. hand-made DWARF"
DWARF_GEN=$FIX/bad_dwarf.py
# bad_dwarf VARIANT: assemble the variant into $IN/dwarf_VARIANT.o.
bad_dwarf()
{
	if ! python3 "$DWARF_GEN" "$1" > "$TMP/$1.s" || ! $CC -c "$TMP/$1.s" -o "$IN/dwarf_$1.o"; then
		die "cannot make the bad_dwarf.py variant $1"
	fi
}
for v in ok ptr_to_struct; do
	bad_dwarf "$v"
	what="sound hand-made DWARF ($v)"
	attempt "$what" -J --btf_encode_detached="$OUT/out.btf" "$IN/dwarf_$v.o"
	check_rc "$what" 0
	if [ -s "$TMP/stderr" ]; then not_ok "$what: says $(head -n 1 "$TMP/stderr")"; fi
	want="typedef good_t = int int size=4 enc=1 off=0 bits=32"
	[ "$v" = ptr_to_struct ] && want="struct node size=8 {next@0:ptr(struct node)}"
	if btf_canon_bpftool "$OUT/out.btf" 2> /dev/null | cut -f2- | grep -qxF "$want"; then
		ok "$what: the BTF has '$want'"
	else
		not_ok "$what: the BTF lacks '$want'"
	fi
done
# past_section (a DW_FORM_ref_addr past .debug_info) is not among them: the
# encoder does not follow references into other CUs yet and takes every
# DW_FORM_ref_addr for void (README, "Known gaps").
# Where the encoder finds the defect, the line names its .debug_info offset.
for v in past_cu high_bits mid_die nontype cu_die bad_abbrev bad_form; do
	bad_dwarf "$v"
	bad_input "DWARF defect $v" "$IN/dwarf_$v.o" 'corrupt DWARF at \.debug_info offset 0x[0-9a-f]+: '
done
bad_dwarf cu_too_long
bad_input "DWARF defect cu_too_long" "$IN/dwarf_cu_too_long.o"
for v in cycle_qual cycle_ptr cycle_typedef; do
	bad_dwarf "$v"
	bad_input "DWARF reference cycle $v" "$IN/dwarf_$v.o" 'cycl|loop'
done

# ---------------------------------------------------------------------------
echo "== 3. 32-bit and big-endian ELF"
# arch_case WHAT OBJ TOKENS MAGIC: OBJ is encoded as bad_arch.expect says
# for TOKENS, as BTF whose first bytes are MAGIC (9feb little-endian, eb9f
# big-endian), and in place too; or it is refused with one line.
arch_case()
{
	local what=$1 obj=$2 tokens=$3 magic=$4 got
	attempt "$what" -J --btf_encode_detached="$OUT/out.btf" "$obj"
	if [ "$RC" -ne 0 ]; then
		echo "($what: refused)"
		refused "$what" 1 "$obj"
		return
	fi
	if [ -s "$TMP/stderr" ]; then not_ok "$what: says $(head -n 1 "$TMP/stderr")"; fi
	got=$(head -c 2 "$OUT/out.btf" | od -An -tx1 | tr -d ' \n')
	if [ "$got" = "$magic" ]; then
		ok "$what: the BTF is in the ELF's byte order ($got)"
	else
		not_ok "$what: the BTF starts with $got, want $magic (the ELF's byte order)"
	fi
	expect_lines "$FIX/bad_arch.expect" "$tokens" > "$TMP/arch.expected" ||
		die "bad_arch.expect is broken"
	btf_canon_bpftool "$OUT/out.btf" | cut -f2- | LC_ALL=C sort > "$TMP/arch.canon"
	if cmp -s "$TMP/arch.expected" "$TMP/arch.canon"; then
		ok "$what: the BTF is bad_arch.expect [$tokens]"
	else
		not_ok "$what: the BTF differs from bad_arch.expect [$tokens]:"
		diff "$TMP/arch.expected" "$TMP/arch.canon" | head -n 10 | sed 's/^/	| /'
	fi
	# In place; objcopy may not know the machine, so .BTF is cut out by hand.
	cp "$OUT/out.btf" "$TMP/arch.detached.btf"
	cp "$obj" "$OUT/inplace.o"
	run -J "$OUT/inplace.o"
	if [ "$RC" -ne 0 ]; then
		not_ok "$what: in place: exit $RC: $(head -n 1 "$TMP/stderr")"
		return
	fi
	read -r off size < <(elf_layout "$OUT/inplace.o" | awk '$1 == ".BTF" { print $2, $3 }')
	tail -c +$((${off:-0} + 1)) "$OUT/inplace.o" | head -c "${size:-0}" > "$TMP/arch.dumped.btf"
	if readelf_clean "$OUT/inplace.o" -S && cmp -s "$TMP/arch.dumped.btf" "$TMP/arch.detached.btf"; then
		ok "$what: in place: readelf is happy, .BTF is the detached output"
	else
		not_ok "$what: in place: .BTF is not the detached output"
	fi
}
# compile WHAT OUT CC...: compile bad_arch.c with CC..., quietly.
compile()
{
	"${@:3}" -g -O2 -c "$FIX/bad_arch.c" -o "$2" 2> /dev/null
}
# The little-endian 64-bit control: bad_arch.expect itself is right.
if compile x86-64 "$IN/arch_gcc64.o" "$CC"; then
	arch_case "x86-64 ($CC, the control)" "$IN/arch_gcc64.o" "gcc lp64" 9feb
fi
n32=0
if compile i386 "$IN/arch_gcc32.o" "$CC" -m32; then
	arch_case "32-bit x86 ($CC -m32)" "$IN/arch_gcc32.o" "gcc ilp32" 9feb
	n32=$((n32 + 1))
fi
if command -v clang > /dev/null &&
   compile i386 "$IN/arch_clang32.o" clang --target=i386-linux-gnu; then
	arch_case "32-bit x86 (clang)" "$IN/arch_clang32.o" "clang ilp32" 9feb
	n32=$((n32 + 1))
fi
[ "$n32" -gt 0 ] || echo "(32-bit ELF: skipped: neither $CC -m32 nor clang --target=i386-linux-gnu works)"
nbe=0
for target in s390x-linux-gnu powerpc64-linux-gnu; do
	# v1.32 knows no argument registers of powerpc64: it leaves its functions out.
	nofunc=
	[ "$target" = powerpc64-linux-gnu ] && [ "$PAHOLE_COMPAT" = v1.32 ] && nofunc=" nofunc"
	if command -v clang > /dev/null &&
	   compile "$target" "$IN/arch_$target.o" clang --target="$target"; then
		arch_case "big-endian $target (clang)" "$IN/arch_$target.o" "clang lp64$nofunc" eb9f
		nbe=$((nbe + 1))
	elif command -v "$target-gcc" > /dev/null &&
	     compile "$target" "$IN/arch_$target.o" "$target-gcc"; then
		arch_case "big-endian $target (gcc)" "$IN/arch_$target.o" "gcc lp64$nofunc" eb9f
		nbe=$((nbe + 1))
	fi
done
[ "$nbe" -gt 0 ] || echo "(big-endian ELF: skipped: no clang or cross gcc for s390x or powerpc64)"

# ---------------------------------------------------------------------------
echo "== 4. --btf_base"
# bad_base WHAT BASE [RE [BAD_RE]]: encoding $full on BASE must fail with one
# line naming BASE.
bad_base()
{
	attempt "$1" -J --btf_base="$2" --btf_encode_detached="$OUT/out.btf" "$full"
	refused "$1" 1 "$2" "${3:-}" "${4:-}"
}
"$PAHOLE" -J --btf_encode_detached="$IN/good.btf" "$full" || die "cannot encode $full"
head -c 30 "$IN/good.btf" > "$IN/truncated.btf"
bad_base "base: missing file" "$missing" 'No such file'
bad_base "base: a directory" "$adir" 'directory'
bad_base "base: empty file" "$empty" '' 'No such file'
bad_base "base: text file" "$text" '' 'No such file'
bad_base "base: ELF without .BTF" "$nodwarf" 'BTF' 'No such file'
bad_base "base: raw BTF cut to 30 bytes" "$IN/truncated.btf" '' 'No such file'
# Whole, but a type refers past the last type, or names past the strings:
# the base is read as it is (btf_base.c), so these are checked.
python3 - "$IN/good.btf" "$IN/bad_id.btf" "$IN/bad_name.btf" "$IN/bad_kind.btf" \
	"$IN/bad_member.btf" "$IN/bad_enumerator.btf" "$IN/bad_param.btf" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
hdr_len, toff, tlen, soff, slen = struct.unpack_from("<IIIII", data, 4)
start = hdr_len + toff
SIZES = {1: (4, 0), 3: (12, 0), 4: (0, 12), 5: (0, 12), 6: (0, 8), 13: (0, 8), 14: (4, 0),
         15: (0, 12), 17: (4, 0), 19: (0, 12)}

def first(d, want):
    """The offset of the first type of kind @want with items, past the fixed part."""
    q = start
    while q < start + tlen:
        name, info, size = struct.unpack_from("<III", d, q)
        kind, vlen = (info >> 24) & 0x1F, info & 0xFFFF
        extra, item = SIZES.get(kind, (0, 0))
        if kind == want and (vlen or not item):
            return q + 12 + extra
        q += 12 + extra + item * vlen
    sys.exit("no type of kind %d in the base" % want)

# The first type: its name past the strings, its kind unknown; the first PTR: its
# type past the types; the first struct's first member's type, enum's first
# enumerator's name, prototype's first parameter's type, each past its end.
for out, how in ((sys.argv[3], "name"), (sys.argv[4], "kind"), (sys.argv[2], "id"),
                 (sys.argv[5], "member"), (sys.argv[6], "enumerator"), (sys.argv[7], "param")):
    d = bytearray(data)
    if how == "name":
        struct.pack_into("<I", d, start, slen + 100)
    elif how == "kind":
        info, = struct.unpack_from("<I", d, start + 4)
        struct.pack_into("<I", d, start + 4, (info & ~(0x1F << 24)) | (30 << 24))
    elif how == "id":
        struct.pack_into("<I", d, first(d, 2) - 4, 0x7fffff00)
    elif how == "member":
        struct.pack_into("<I", d, first(d, 4) + 4, 0x7fffff00)
    elif how == "enumerator":
        struct.pack_into("<I", d, first(d, 6), slen + 100)
    else:
        struct.pack_into("<I", d, first(d, 13) + 4, 0x7fffff00)
    open(out, "wb").write(d)
PY
bad_base "base: a type ID past the last type" "$IN/bad_id.btf" 'corrupt BTF'
bad_base "base: a name past the strings" "$IN/bad_name.btf" 'corrupt BTF'
bad_base "base: an unknown kind" "$IN/bad_kind.btf" 'corrupt BTF'
bad_base "base: a member's type past the last type" "$IN/bad_member.btf" 'corrupt BTF'
bad_base "base: an enumerator's name past the strings" "$IN/bad_enumerator.btf" 'corrupt BTF'
bad_base "base: a parameter's type past the last type" "$IN/bad_param.btf" 'corrupt BTF'

# A base that has nothing to do with the input: pahole cannot tell (neither
# can upstream's): the split BTF is written and holds every type of the
# input, none deduplicated against the base.
what="base: unrelated BTF"
$CC -g -c "$FIX/bad_base.c" -o "$IN/base.o" || die "$CC -c bad_base.c failed"
"$PAHOLE" -J --btf_encode_detached="$IN/base.btf" "$IN/base.o" || die "cannot encode bad_base.c"
"$PAHOLE" -J --btf_encode_detached="$TMP/alone.btf" "$full" || die "cannot encode $full"
attempt "$what" -J --btf_base="$IN/base.btf" --btf_encode_detached="$OUT/split.btf" "$full"
check_rc "$what" 0
if [ -s "$TMP/stderr" ]; then not_ok "$what: says $(head -n 1 "$TMP/stderr")"; fi
nbase=$(bpftool btf dump file "$IN/base.btf" | grep -c '^\[')
first=$(bpftool -B "$IN/base.btf" btf dump file "$OUT/split.btf" 2> /dev/null |
	sed -n '1s/^\[\([0-9]*\)\].*/\1/p')
if [ "$first" = $((nbase + 1)) ]; then
	ok "$what: split BTF, its first type is $first (after the base's $nbase)"
else
	not_ok "$what: the first type is '$first', want $((nbase + 1))"
fi
if cmp -s <(bpftool -B "$IN/base.btf" btf dump file "$OUT/split.btf" format raw |
	btf_canon_awk | LC_ALL=C sort) <(btf_canon_bpftool "$TMP/alone.btf"); then
	ok "$what: the split BTF has the types of the input alone, none from the base"
else
	not_ok "$what: the split BTF differs from the input's BTF without a base"
fi

# ---------------------------------------------------------------------------
echo "== 5. options"
"$PAHOLE" -J --btf_features=default --btf_encode_detached="$TMP/default.btf" "$full" ||
	die "cannot encode $full"
what="unknown --btf_features name"
attempt "$what" -J --btf_features=default,no_such_feature --btf_encode_detached="$OUT/out.btf" "$full"
check_rc "$what" 0
if [ -s "$TMP/stderr" ]; then
	not_ok "$what: says $(head -n 1 "$TMP/stderr"), want silence (as upstream)"
else
	ok "$what: ignored silently"
fi
if cmp -s "$OUT/out.btf" "$TMP/default.btf"; then
	ok "$what: the output is that of --btf_features=default"
else
	not_ok "$what: the output differs from that of --btf_features=default"
fi
what="unknown --btf_features_strict name"
attempt "$what" -J --btf_features_strict=default,no_such_feature \
	--btf_encode_detached="$OUT/out.btf" "$full"
refused "$what" 1 no_such_feature 'unknown|not supported'

# usage_error WHAT WORD ARGS...: exit 64, the first line names WORD (the
# option, or its value) and says why; argp may add its line
# "Try `pahole --help' or `pahole --usage' for more information.", nothing
# else; nothing written.
usage_error()
{
	local what=$1 word=$2 n line
	shift 2
	attempt "$what" "$@"
	check_rc "$what" 64
	n=$(nlines "$TMP/stderr")
	line=$(head -n 1 "$TMP/stderr")
	if [ "$n" -eq 1 ] || { [ "$n" -eq 2 ] && sed -n 2p "$TMP/stderr" | grep -q '^Try .*--help'; }; then
		ok "$what: the message and at most argp's 'Try --help' line: $line"
	else
		not_ok "$what: $n lines on stderr:"
		head -n 5 "$TMP/stderr" | sed 's/^/	| /'
	fi
	if grep -qF -- "$word" <<< "$line"; then
		ok "$what: the line names '$word'"
	else
		not_ok "$what: the line does not name '$word'"
	fi
	nothing_written "$what"
}
usage_error "-j0" "'0'" -J -j0 --btf_encode_detached="$OUT/out.btf" "$full"
usage_error "-j100000" "100000" -J -j100000 --btf_encode_detached="$OUT/out.btf" "$full"
usage_error "-jx" "'x'" -J -jx --btf_encode_detached="$OUT/out.btf" "$full"
usage_error "--jobs=0" "'0'" -J --jobs=0 --btf_encode_detached="$OUT/out.btf" "$full"
usage_error "unknown option" no-such-option-xyz -J --no-such-option-xyz "$full"
usage_error "two FILEs" FILE -J "$full" "$nodwarf"

what="--version"
run --version
check_rc "$what" 0
if [ "$(cat "$TMP/stdout")" = "$PAHOLE_COMPAT" ] && [ "$(nlines "$TMP/stdout")" -eq 1 ]; then
	ok "$what: prints $PAHOLE_COMPAT"
else
	not_ok "$what: prints '$(head -c 200 "$TMP/stdout")', want '$PAHOLE_COMPAT'"
fi

# ---------------------------------------------------------------------------
echo "== 6. the output"
what="output in a missing directory"
attempt "$what" -J --btf_encode_detached="$OUT/no/such/dir/out.btf" "$full"
refused "$what" 1 "$OUT/no/such/dir/out.btf" 'No such file'

what="output over a directory"
attempt "$what" -J --btf_encode_detached="$OUT" "$full"
check_rc "$what" 1
check_one_line "$what" "$OUT" 'directory'
if [ -d "$OUT" ] && [ -z "$(ls -A "$OUT")" ]; then
	ok "$what: the directory is still there, empty"
else
	not_ok "$what: the directory changed"
fi

# A directory we may not write to: as nobody when we are root (root may write
# anywhere), else as ourselves.
ro_dir=$TMP/ro-out
mkdir "$ro_dir"
chmod 0555 "$ro_dir"
as_user=() ro_pahole=$PAHOLE ro_input=$full
if [ "$(id -u)" -eq 0 ]; then
	# Copies that nobody can reach, wherever the checkout lies (tests/lib.sh).
	if nobody_setup && ro_pahole=$(for_nobody "$PAHOLE") && ro_input=$(for_nobody "$full"); then
		as_user=("${AS_NOBODY[@]}")
	else
		as_user=(none)
	fi
fi
what="output in a 0555 directory${as_user:+ (as nobody, a copy of pahole)}"
if [ "${as_user[0]:-}" = none ]; then
	note_skip "$what: cannot run pahole as an unprivileged user"
else
	before=$(snapshot)
	"${as_user[@]}" "$ro_pahole" -J --btf_encode_detached="$ro_dir/out.btf" "$ro_input" \
		> "$TMP/stdout" 2> "$TMP/stderr"
	RC=$?
	check_no_crash "$what"
	check_rc "$what" 1
	check_one_line "$what" "$ro_dir/out.btf" 'denied|not permitted|read-only'
	if [ -z "$(ls -A "$ro_dir")" ]; then ok "$what: nothing written"; else not_ok "$what: files left"; fi
	[ "$(snapshot)" = "$before" ] || not_ok "$what: an input changed"
fi

# A full device: a symlink to /dev/full.  The write must fail with ENOSPC
# and the symlink must stay (not be replaced by a regular file).
what="output into a full device (a symlink to /dev/full)"
if [ -c /dev/full ]; then
	rm -rf "$OUT" && mkdir "$OUT"
	ln -s /dev/full "$OUT/full-link"
	before=$(snapshot)
	run -J --btf_encode_detached="$OUT/full-link" "$full"
	check_no_crash "$what"
	check_rc "$what" 1
	check_one_line "$what" "$OUT/full-link" 'No space left|not a regular file'
	if [ -L "$OUT/full-link" ] && [ "$(readlink "$OUT/full-link")" = /dev/full ]; then
		ok "$what: the symlink is still there"
	else
		not_ok "$what: the symlink was replaced by a $(stat -c %F "$OUT/full-link")"
	fi
	[ -c /dev/full ] || not_ok "$what: /dev/full is no longer a character device"
	[ "$(snapshot)" = "$before" ] || not_ok "$what: an input changed"
	if [ -z "$(pahole_temps "$OUT")" ]; then
		ok "$what: no temporary file left"
	else
		not_ok "$what: temporary files left"
	fi
else
	echo "($what: skipped: no /dev/full)"
fi

# ---------------------------------------------------------------------------
echo "== 7. SIGTERM and SIGINT mid-run, detached output"
# strace holds the syscall that opens PATH for 2 s (on its way out); the
# signal comes while it is held.
if ! command -v strace > /dev/null; then
	echo "(signals: skipped: no strace; tests/test_inplace.sh sends them in place)"
elif ! strace -qq -o /dev/null true 2> /dev/null; then
	echo "(signals: skipped: strace cannot trace here)"
else
	for where in input output; do
		for sig in TERM INT; do
			what="SIG$sig while the $where is opened"
			path=$full
			[ "$where" = output ] && path=$OUT
			rm -rf "$OUT" && mkdir "$OUT"
			before=$(snapshot)
			: > "$TMP/strace.log"
			strace -D -qq -o "$TMP/strace.log" -P "$path" -e trace=openat,open \
				-e inject=openat,open:delay_exit=2000000 \
				"$PAHOLE" -J --btf_encode_detached="$OUT/out.btf" "$full" \
				> "$TMP/stdout" 2> "$TMP/stderr" &
			pid=$!
			for _ in $(seq 500); do
				grep -q open "$TMP/strace.log" && break
				sleep 0.01
			done
			kill -s "$sig" "$pid" 2> /dev/null
			wait "$pid"
			RC=$?
			check_no_crash "$what"
			refused "$what" 1 "$full" 'interrupt|signal'
			[ "$(snapshot)" = "$before" ] || not_ok "$what: an input changed"
			[ -z "$(pahole_temps "$OUT")" ] || not_ok "$what: temporary files left"
		done
	done
fi

# ---------------------------------------------------------------------------
echo "== 8. the file a dwz'd object names"
# alt_case WHAT OBJ NAMED SECTION: OBJ, whose SECTION names NAMED (as it is
# now), is refused with one line naming both, within 10 s.
alt_case()
{
	local what=$1 obj=$2 named=$3 section=$4
	rm -rf "$OUT" && mkdir "$OUT"
	before=$(snapshot)
	timeout -s KILL 10 "$PAHOLE" -J --btf_features=default \
		--btf_encode_detached="$OUT/out.btf" "$obj" > "$TMP/stdout" 2> "$TMP/stderr"
	RC=$?
	if [ "$RC" -eq 137 ]; then
		not_ok "$what: pahole still runs after 10 s (killed)"
		return
	fi
	check_no_crash "$what"
	refused "$what" 1 "$obj" "$(basename "$named") \\($section\\)"
	[ "$(snapshot)" = "$before" ] || not_ok "$what: an input changed"
}
if ! command -v dwz > /dev/null; then
	note_skip "dwz is not installed: the files a dwz'd object names"
else
	# Another byte order: s390x, else none (then that case is left out).
	other=
	command -v clang > /dev/null &&
		clang --target=s390x-linux-gnu -g -c "$FIX/sample.c" -o "$TMP/s390x.o" 2> /dev/null &&
		other=$TMP/s390x.o
	for mode in "-m .gnu_debugaltlink" "-5 -m .debug_sup"; do
		set -- $mode
		section=${!#}
		d=$IN/dwz${section}
		mkdir "$d"
		$CC -g -O2 -fPIC -nostdlib -shared "$FIX/dwz_a.c" "$FIX/dwz_b.c" -o "$d/one.so" &&
			$CC -g -O2 -fPIC -nostdlib -shared "$FIX/dwz_a.c" -o "$d/two.so" &&
			(cd "$d" && dwz "${@:1:$#-1}" common.alt -M common.alt one.so two.so) ||
			die "cannot make the dwz ${*:1:$#-1} files"
		# The control: v1.32 reads it; v1.31 refuses the imported units (test_refuse).
		attempt "$section: the file there" -J --btf_features=default \
			--btf_encode_detached="$OUT/out.btf" "$d/one.so"
		if [ "$PAHOLE_COMPAT" = v1.31 ]; then
			refused "$section: the file there" 1 "$d/one.so" 'imported_unit'
		else
			check_rc "$section: the file there" 0
		fi
		mv "$d/common.alt" "$TMP/common.alt"
		alt_case "$section: missing" "$d/one.so" "$d/common.alt" "$section"
		mkdir "$d/common.alt"
		alt_case "$section: a directory" "$d/one.so" "$d/common.alt" "$section"
		rmdir "$d/common.alt"
		mkfifo "$d/common.alt"
		alt_case "$section: a FIFO" "$d/one.so" "$d/common.alt" "$section"
		rm "$d/common.alt"
		ln "$d/one.so" "$d/common.alt"
		alt_case "$section: the object itself" "$d/one.so" "$d/common.alt" "$section"
		rm "$d/common.alt"
		if [ -n "$other" ]; then
			cp "$other" "$d/common.alt"
			alt_case "$section: another byte order" "$d/one.so" "$d/common.alt" "$section"
			rm "$d/common.alt"
		fi
		cp "$TMP/common.alt" "$d/common.alt" && strip --strip-debug "$d/common.alt"
		alt_case "$section: an ELF without DWARF" "$d/one.so" "$d/common.alt" "$section"
		: > "$d/common.alt"
		alt_case "$section: empty" "$d/one.so" "$d/common.alt" "$section"
		echo text > "$d/common.alt"
		alt_case "$section: not ELF" "$d/one.so" "$d/common.alt" "$section"
		rm -r "$d"
	done
fi

# ---------------------------------------------------------------------------
echo "== 9. compressed sections"
# compressed_case NAME RE: the object NAME of bad_compressed.py is refused,
# its line naming the section and saying RE, and never "corrupt DWARF"
# (the file's DWARF is sound; its compression is not).
compressed_case()
{
	bad_input "compressed: $1" "$IN/compressed/$1.o" "section \.[a-z_]+: .*$2" 'corrupt DWARF'
}
if ! objcopy --compress-debug-sections=zstd "$full" "$TMP/full.zst.o" 2> /dev/null; then
	note_skip "objcopy cannot compress with zstd: the compressed sections"
else
	objcopy --compress-debug-sections=zlib "$full" "$TMP/full.zlib.o" || die "objcopy failed"
	mkdir "$IN/compressed"
	python3 "$FIX/bad_compressed.py" "$TMP/full.zst.o" "$TMP/full.zlib.o" "$IN/compressed" ||
		die "bad_compressed.py failed"
	compressed_case zstd-frame 'corrupt zstd data'
	compressed_case zstd-cut 'end within a frame'
	compressed_case zstd-longer 'less than its header says'
	compressed_case zstd-shorter 'more than its header says'
	compressed_case zstd-huge 'less than its header says'
	compressed_case zlib-stream 'corrupt zlib data'
	compressed_case unknown-type 'unknown compression type 7'
	compressed_case chdr-cut 'compression header is truncated'
	compressed_case nobits 'SHT_NOBITS'
	compressed_case strtab 'compressed string table'
	# Under a memory limit, the header's size is refused before anything is
	# made (not under a sanitizer, whose shadow memory needs more room).
	what="compressed: zstd-huge under ulimit -v"
	if [ -n "${SANITIZER:-}" ]; then
		note_skip "$what: not under a sanitizer"
	else
		printf '#!/bin/sh\nulimit -v 4000000 && exec "%s" "$@"\n' "$PAHOLE" > "$TMP/limited"
		chmod +x "$TMP/limited"
		PAHOLE=$TMP/limited attempt "$what" -J --btf_encode_detached="$OUT/out.btf" \
			"$IN/compressed/zstd-huge.o"
		refused "$what" 1 "$IN/compressed/zstd-huge.o" 'beyond the memory limit'
	fi
fi

# ---------------------------------------------------------------------------
echo "== 10. units that refer into each other"
for v in ok past_section mid_die nontype unit_die cycle header; do
	python3 "$FIX/bad_xunit.py" "$v" > "$TMP/xunit_$v.s" &&
		$CC -c "$TMP/xunit_$v.s" -o "$IN/xunit_$v.o" || die "cannot make bad_xunit.py's $v"
done
for j in -j1 -j2 -j8; do
	attempt "xunit ok $j" -J $j --btf_encode_detached="$OUT/out.btf" "$IN/xunit_ok.o"
	check_rc "xunit ok $j" 0
	for v in past_section mid_die nontype unit_die; do
		attempt "xunit $v $j" -J $j --btf_encode_detached="$OUT/out.btf" "$IN/xunit_$v.o"
		refused "xunit $v $j" 1 "$IN/xunit_$v.o" 'corrupt DWARF.*(no type|past)'
	done
	attempt "xunit cycle $j" -J $j --btf_encode_detached="$OUT/out.btf" "$IN/xunit_cycle.o"
	refused "xunit cycle $j" 1 "$IN/xunit_cycle.o" 'cycle'
	attempt "xunit header $j" -J $j --btf_encode_detached="$OUT/out.btf" "$IN/xunit_header.o"
	refused "xunit header $j" 1 "$IN/xunit_header.o" 'corrupt DWARF'
done

finish
