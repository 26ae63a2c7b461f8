# shellcheck shell=bash
# tests/lib.sh: shared helpers for tests/test_*.sh.  Source it, do not run it:
#
#	. "$(dirname "$0")/lib.sh"
#
# ctest sets PAHOLE (our binary), SRCDIR (repo root), BUILDDIR and BTF_LOAD.
# When a script is run by hand the defaults below find them in ./build.
# A test exits 0 on pass, 77 on skip (after printing why), anything else on
# failure.

set -u

SRCDIR=${SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILDDIR=${BUILDDIR:-$SRCDIR/build}
PAHOLE=${PAHOLE:-$BUILDDIR/pahole}
BTF_LOAD=${BTF_LOAD:-$BUILDDIR/tests/btf_load}
SHARED=${SHARED:-$SRCDIR/../shared}
BTFCANON=$SHARED/tools/btfcanon
TEST_NAME=$(basename "$0" .sh)
# The release whose rules a test's expectations are (btf_release.h): v1.31's
# unless the caller or the test says otherwise; a test of both sets it per run.
export PAHOLE_COMPAT=${PAHOLE_COMPAT-v1.31}

# skip WHY: end the test as skipped.
skip()
{
	echo "$TEST_NAME: $*: skipped"
	exit 77
}

# die WHY: end the test as failed at once (for broken preconditions).
die()
{
	echo "$TEST_NAME: FAIL: $*" >&2
	exit 1
}

# TEST_FAST=1 (make check-fast): the tests of the "fast" label run the part
# of their matrix that differs most (DWARF 5 alone where they also build 4).
# fast_or FAST FULL: FAST under TEST_FAST=1, else FULL.
fast_or()
{
	if [ "${TEST_FAST:-0}" = 1 ]; then echo "$1"; else echo "$2"; fi
}

# Checks are counted; finish() reports and sets the exit status.
N_OK=0
N_FAIL=0
N_SKIP=0

# note_skip WHY: a part of the test not run (the test goes on); counted.
note_skip()
{
	N_SKIP=$((N_SKIP + 1))
	echo "skip: $*"
}

ok()
{
	N_OK=$((N_OK + 1))
	echo "ok: $*"
}

not_ok()
{
	N_FAIL=$((N_FAIL + 1))
	echo "FAIL: $*"
}

# check DESC COMMAND...: run COMMAND, count it as ok when it succeeds.
check()
{
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# finish: the summary line; fails when a check failed, or when none ran
# (every case skipped is no pass).
finish()
{
	echo "$TEST_NAME: $N_OK checks ok, $N_FAIL failed, $N_SKIP parts skipped"
	if [ "$N_OK" -eq 0 ] && [ "$N_FAIL" -eq 0 ]; then
		echo "$TEST_NAME: FAIL: no check ran"
		exit 1
	fi
	[ "$N_FAIL" -eq 0 ]
	exit
}

# The running kernel as a judge of the BTF we write (BTF_LOAD: BPF_BTF_LOAD).
# kernel_load FILE LOG: 0 when the kernel takes FILE, 1 when it refuses it
# (LOG says why, KERNEL_RC is btf_load's exit status), 2 when the kernel is
# not asked: BTF_LOAD is missing or the bpf syscall is not permitted here,
# noted once as a skipped part.
KERNEL=1
KERNEL_RC=0
kernel_load()
{
	if [ "$KERNEL" -eq 1 ] && [ ! -x "$BTF_LOAD" ]; then
		note_skip "BTF_LOAD=$BTF_LOAD is not an executable: kernel checks not run"
		KERNEL=0
	fi
	[ "$KERNEL" -eq 1 ] || return 2
	"$BTF_LOAD" "$1" > "$2" 2>&1
	KERNEL_RC=$?
	if [ "$KERNEL_RC" -eq 77 ]; then
		note_skip "kernel checks: $(cat "$2")"
		KERNEL=0
		return 2
	fi
	[ "$KERNEL_RC" -eq 0 ] || return 1
}

# A private scratch directory, $TMP, removed on exit.
make_tmp()
{
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/$TEST_NAME.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$TMP'" EXIT
}

# --- Running as another user ---------------------------------------------
#
# A test run by root runs some cases as user nobody (permissions, process
# limits).  Nothing of the checkout may be assumed reachable by nobody: a
# clone in root's home or under a `mktemp -d` directory (mode 0700) is not.
# So what nobody runs or reads is copied into $TMP/for-nobody, with $TMP
# opened to others for the search (0711): the test's own files stay
# unlisted.  AS_NOBODY is the command prefix that runs as nobody.

# nobody_setup: 0 when nobody can reach $TMP/for-nobody (made here), with
# AS_NOBODY set; else 1, saying why on stdout (a TMPDIR under a closed
# directory): the caller skips those cases and says so.
AS_NOBODY=()
nobody_setup()
{
	local uid
	uid=$(id -u nobody 2> /dev/null) || { echo "note: no user nobody"; return 1; }
	command -v setpriv > /dev/null || { echo "note: setpriv is not installed"; return 1; }
	AS_NOBODY=(setpriv --reuid="$uid" --regid="$uid" --clear-groups)
	mkdir -p "$TMP/for-nobody" && chmod 0711 "$TMP" && chmod 0755 "$TMP/for-nobody" ||
		return 1
	if ! "${AS_NOBODY[@]}" test -x "$TMP/for-nobody"; then
		echo "note: user nobody cannot reach $TMP (a parent directory of TMPDIR is closed)"
		return 1
	fi
}

# for_nobody FILE: a copy of FILE in $TMP/for-nobody that nobody may read
# (and run, if FILE is executable); prints its path.
for_nobody()
{
	local copy
	copy=$TMP/for-nobody/$(basename "$1")
	cp "$1" "$copy" && chmod a+r "$copy" && { [ ! -x "$1" ] || chmod a+x "$copy"; } &&
		echo "$copy"
}

# need_tools TOOL...: skip the test, naming the first TOOL not installed.
need_tools()
{
	local t
	for t in "$@"; do
		command -v "$t" > /dev/null || skip "$t is not installed"
	done
}

need_pahole()
{
	[ -x "$PAHOLE" ] || die "PAHOLE=$PAHOLE is not an executable file"
}

# need_corpus: skip the test when ../shared is not there, or fail it under CI
# (CI=true), where the corpus is always laid out: a CI run without it would
# check no kernel at all.
need_corpus()
{
	[ -e "$SHARED/tools/corpus" ] && return
	[ "${CI:-}" = true ] && die "corpus not available (../shared missing) under CI=true"
	skip "corpus not available (../shared missing)"
}

# file_lines TOOL WANT WHAT FILE...: TOOL run on the FILEs says a line a file
# ("NAME: FILE: ..."): one check per line, that it says WANT, and one that
# TOOL exited 0 with a line for each file (not killed half-way).
file_lines()
{
	local tool=$1 want=$2 what=$3 name line rc=0 n=0
	shift 3
	name=$(basename "$tool")
	"$tool" "$@" > "$TMP/lines.out" 2>&1 || rc=$?
	while IFS= read -r line; do
		n=$((n + 1))
		case $line in
		*": $want"*) ok "$what: ${line#"$name": }" ;;
		*) not_ok "$what: ${line#"$name": } (wanted: $want)" ;;
		esac
	done < "$TMP/lines.out"
	check "$what: $name exit 0 ($rc), a line for each of the $# files ($n)" \
		test "$rc" -eq 0 -a "$n" -eq $#
}

# corpus_dir: unpack ../shared's corpus into $BUILDDIR/corpus (once, under a
# lock so that tests running in parallel do not race) and print its path.
# Skips the test when ../shared is not there (fails under CI).
corpus_dir()
{
	need_corpus
	mkdir -p "$BUILDDIR"
	flock "$BUILDDIR/.corpus.lock" bash "$SHARED/tools/corpus" "$BUILDDIR/corpus" ||
		die "could not unpack the corpus into $BUILDDIR/corpus"
}

# The interpreter that python3 names, found once and exported: behind a
# version manager's shim (pyenv's is a shell script) every start of python3
# costs ~0.6 s, and the tests start it thousands of times.
if [ -z "${PYTHON:-}" ] && command -v python3 > /dev/null; then
	PYTHON=$(python3 -c 'import sys; print(sys.executable)' 2> /dev/null)
fi
export PYTHON
if [ -n "${PYTHON:-}" ]; then
	# -S: no site module (pyenv's imports certifi, doubling a start); the
	# tests' Python needs the standard library only.
	python3()
	{
		"$PYTHON" -S "$@"
	}
fi

btfcanon()
{
	python3 "$BTFCANON" "$@"
}

# fsig FILE: what any write to FILE, or a rename over it, changes: its inode,
# size, and modification and change times (ns).  A test that must show a big
# input left alone compares it before and after rather than hash the file.
fsig()
{
	stat -c '%i %s %y %z' "$1"
}

# sha256 FILE: print FILE's sha256 (or "absent").
sha256()
{
	if [ -f "$1" ]; then sha256sum < "$1" | cut -d' ' -f1; else echo absent; fi
}

# --- BTF canonical form ------------------------------------------------------
#
# btfcanon (../shared/tools/btfcanon) prints one line per type, "KIND<TAB>
# definition", where named structs/unions/enums/typedefs/fwds are referred to
# by kind and name and every other type is spelled out inline.  The helpers
# below give the same lines without ../shared, from `bpftool btf dump` (so
# they also check that libbpf can parse the file).  One difference: bpftool
# does not print a struct's kind_flag, so a struct counts as kind_flag when
# one of its members has a bitfield_size (libbpf sets it exactly then).

# btf_canon_bpftool FILE: btfcanon-style sorted canonical lines, from bpftool.
btf_canon_bpftool()
{
	local dump
	dump=$(bpftool btf dump file "$1" format raw) || return 1
	printf '%s\n' "$dump" | btf_canon_awk | LC_ALL=C sort
}

# btf_canon_awk: stdin `bpftool btf dump ... format raw`, stdout unsorted
# canonical lines (tests/btf_canon.awk).
btf_canon_awk()
{
	awk -f "$SRCDIR/tests/btf_canon.awk"
}

# btf_canon FILE: sorted canonical lines of FILE, by btfcanon when ../shared
# has it, else by bpftool.
btf_canon()
{
	if [ -f "$BTFCANON" ] && command -v python3 > /dev/null; then
		python3 "$BTFCANON" canon "$1" | LC_ALL=C sort
	else
		btf_canon_bpftool "$1"
	fi
}

# expect_lines FILE TOKEN...: the lines that expectation FILE gives for the
# situation described by the TOKENs (e.g. "gcc dwarf5 float"), sorted.
#
# Expectation file syntax, one item per line:
#	# comment                (and blank lines) ignored
#	@def NAME TEXT           defines $NAME as TEXT (expanded when defined)
#	COND[,COND...]: LINE     LINE applies only if every COND holds; COND is
#	                         a TOKEN (given) or !TOKEN (not given)
#	LINE                     applies always
# LINE may be "@def ..." too, and may use $NAME anywhere.
expect_lines()
{
	local file=$1
	shift
	awk -v tokens="$*" '
	BEGIN {
		n = split(tokens, tk, " ")
		for (i = 1; i <= n; i++)
			have[tk[i]] = 1
	}
	function holds(conds,   n, c, i, neg) {
		n = split(conds, c, ",")
		for (i = 1; i <= n; i++) {
			neg = sub(/^!/, "", c[i])
			if (neg == (c[i] in have))
				return 0
		}
		return 1
	}
	function expand(s,   out, name) {
		out = ""
		while (match(s, /\$[A-Za-z_][A-Za-z0-9_]*/)) {
			name = substr(s, RSTART + 1, RLENGTH - 1)
			if (!(name in def)) {
				printf "%s:%d: undefined $%s\n", FILENAME, FNR, name > "/dev/stderr"
				bad = 1
			}
			out = out substr(s, 1, RSTART - 1) def[name]
			s = substr(s, RSTART + RLENGTH)
		}
		return out s
	}
	/^[ \t]*(#|$)/ { next }
	{
		line = $0
		if (match(line, /^!?[a-z0-9_]+(,!?[a-z0-9_]+)*: /)) {
			if (!holds(substr(line, 1, RLENGTH - 2)))
				next
			line = substr(line, RLENGTH + 1)
		}
		if (line ~ /^@def /) {
			sub(/^@def /, "", line)
			name = line
			sub(/ .*/, "", name)
			sub(/^[^ ]* ?/, "", line)
			def[name] = expand(line)
			next
		}
		print expand(line)
	}
	END { exit bad }' "$file" | LC_ALL=C sort
	return "${PIPESTATUS[0]}"
}

# --- ELF and DWARF facts, from readelf ----------------------------------------

# elf_func_symbols FILE: the names of FILE's defined STT_FUNC symbols, sorted,
# one per line (a name defined twice is listed twice).
elf_func_symbols()
{
	readelf -sW "$1" 2> /dev/null |
		awk '$4 == "FUNC" && $7 != "UND" && NF >= 8 { print $8 }' | LC_ALL=C sort
}

# dwarf_params FILE NAME: the parameters of function NAME in FILE's DWARF,
# one line per DW_TAG_subprogram DIE:
#	declared P...   the DIE that carries the name (the definition, or the
#	                abstract instance of an inlined or cloned function)
#	instance P...   an out-of-line instance of it (DW_AT_abstract_origin),
#	                e.g. a clone's
# Each P is a DW_TAG_formal_parameter child, in DIE order: its name (taken
# from its abstract origin when it has none), then "@REG" when its
# DW_AT_location is a single register (e.g. "x@rdi"), "@list" for a location
# list, "=const" for a DW_AT_const_value, nothing when it has neither.
dwarf_params()
{
	readelf --debug-dump=info "$1" 2> /dev/null | awk -v fname="$2" '
	function hex(s,   n, i, c) {
		n = 0
		s = tolower(s)
		sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1))
			if (!c)
				break
			n = n * 16 + c - 1
		}
		return n
	}
	/^ *<[0-9]+><[0-9a-f]+>: Abbrev Number: [0-9]+ \(DW_TAG_/ {
		split($1, p, /[<>]/)
		depth = p[2] + 0
		cur = hex(p[4])
		tag = $0
		sub(/.*\(DW_TAG_/, "", tag)
		sub(/\).*/, "", tag)
		TAG[cur] = tag
		stack[depth] = cur
		if (depth)
			KIDS[stack[depth - 1]] = KIDS[stack[depth - 1]] " " cur
		ORDER[++n] = cur
		next
	}
	/^ *<[0-9a-f]+> +DW_AT_name *:/ {
		v = $0
		sub(/.*: /, "", v)
		NAME[cur] = v
		next
	}
	/^ *<[0-9a-f]+> +DW_AT_abstract_origin *:/ {
		v = $0
		sub(/.*<0x/, "", v)
		sub(/>.*/, "", v)
		ORIGIN[cur] = hex(v)
		next
	}
	/^ *<[0-9a-f]+> +DW_AT_location *:/ {
		if ($0 ~ /location list/)
			LOC[cur] = "@list"
		else if (match($0, /\(DW_OP_reg[0-9]+ \([a-z0-9]+\)\)$/))
			LOC[cur] = "@" substr($0, RSTART + 1, RLENGTH - 1)
		else
			LOC[cur] = "@expr"
		sub(/^@DW_OP_reg[0-9]+ \(/, "@", LOC[cur])
		sub(/\)\)$/, "", LOC[cur])
		next
	}
	/^ *<[0-9a-f]+> +DW_AT_const_value *:/ {
		LOC[cur] = "=const"
		next
	}
	function pname(o) {
		if (o in NAME)
			return NAME[o]
		if ((o in ORIGIN) && (ORIGIN[o] in NAME))
			return NAME[ORIGIN[o]]
		return "?"
	}
	function params(o,   k, i, m, s) {
		m = split(KIDS[o], k, " ")
		s = ""
		for (i = 1; i <= m; i++)
			if (TAG[k[i]] == "formal_parameter")
				s = s " " pname(k[i]) LOC[k[i]]
		return s
	}
	END {
		for (i = 1; i <= n; i++) {
			o = ORDER[i]
			if (TAG[o] != "subprogram")
				continue
			if (NAME[o] == fname)
				print "declared" params(o)
			else if ((o in ORIGIN) && NAME[ORIGIN[o]] == fname)
				print "instance" params(o)
		}
	}'
}

# --- ELF files rewritten in place --------------------------------------------

# elf_cmp_sections BEFORE AFTER [NAME...]: every section of the ELF file
# BEFORE, but those called NAME, is in the ELF file AFTER (matched by name,
# and by order among sections of the same name) with the same section header
# (offset included) and the same bytes; the program headers are the same, and
# so is the ELF header but for e_shoff and e_shnum.  A NAME ending in "+"
# (e.g. .shstrtab+) may move and grow, but must start with its old bytes.
# Prints the differences (at most 10) and fails if there are any, else prints
# how many sections were compared.  Reads the files with mmap, so it is quick
# on a big vmlinux.
elf_cmp_sections()
{
	python3 - "$@" <<'EOF'
import mmap, struct, sys

def load(path):
    f = open(path, 'rb')
    m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    if m[:4] != b'\x7fELF':
        sys.exit('%s: not an ELF file' % path)
    is64, end = m[4] == 2, '<' if m[5] == 1 else '>'
    eh = end + ('16sHHIQQQIHHHHHH' if is64 else '16sHHIIIIIHHHHHH')
    sh = end + ('IIQQQQIIQQ' if is64 else 'IIIIIIIIII')
    e = struct.unpack_from(eh, m, 0)
    phoff, shoff, phentsize, phnum = e[5], e[6], e[9], e[10]
    shentsize, shnum, shstrndx = e[11], e[12], e[13]
    first = struct.unpack_from(sh, m, shoff) if shoff else None
    if first and shnum == 0:
        shnum = first[5]
    if first and shstrndx == 0xffff:
        shstrndx = first[6]
    shdrs = [struct.unpack_from(sh, m, shoff + i * shentsize) for i in range(shnum)]
    strs = shdrs[shstrndx] if shstrndx < shnum else None
    def name(s):
        if not strs:
            return '?'
        o = strs[4] + s[0]
        return m[o:m.find(b'\0', o)].decode('latin-1')
    secs, seen = {}, {}
    for i, s in enumerate(shdrs):
        n = name(s)
        k = seen.get(n, 0)
        seen[n] = k + 1
        secs[(n, k)] = (i, s)
    ehdr = list(e)
    ehdr[6] = ehdr[12] = None
    return dict(m=m, ehdr=ehdr, phdrs=m[phoff:phoff + phentsize * phnum], secs=secs)

before, after = sys.argv[1], sys.argv[2]
skip = set(n for n in sys.argv[3:] if not n.endswith('+'))
grow = set(n[:-1] for n in sys.argv[3:] if n.endswith('+'))
a, b = load(before), load(after)
diffs = []
if a['ehdr'] != b['ehdr']:
    diffs.append('the ELF headers differ (beyond e_shoff, e_shnum)')
if a['phdrs'] != b['phdrs']:
    diffs.append('the program headers differ')
fields = ('sh_name', 'sh_type', 'sh_flags', 'sh_addr', 'sh_offset', 'sh_size',
          'sh_link', 'sh_info', 'sh_addralign', 'sh_entsize')
n = 0
for key, (i, s) in a['secs'].items():
    if key[0] in skip:
        continue
    n += 1
    what = '[%d] %s%s' % (i, key[0], ' #%d' % key[1] if key[1] else '')
    if key not in b['secs']:
        diffs.append('%s: missing in %s' % (what, after))
        continue
    j, t = b['secs'][key]
    if key[0] in grow:
        if s[1] != 8 and (t[5] < s[5] or a['m'][s[4]:s[4] + s[5]] != b['m'][t[4]:t[4] + s[5]]):
            diffs.append('%s: does not start with its old bytes' % what)
        continue
    bad = [f for f, x, y in zip(fields, s, t) if x != y]
    if i != j:
        bad.insert(0, 'index %d' % j)
    if bad:
        diffs.append('%s: header differs: %s' % (what, ', '.join(bad)))
        continue
    if s[1] == 8:  # SHT_NOBITS
        continue
    off, size, step = s[4], s[5], 1 << 26
    for o in range(off, off + size, step):
        l = min(step, off + size - o)
        if a['m'][o:o + l] != b['m'][o:o + l]:
            diffs.append('%s: bytes differ at offset %#x' % (what, o))
            break
for d in diffs[:10]:
    print('\t' + d)
if diffs:
    sys.exit(1)
print('\t%d sections the same' % n)
EOF
}

# readelf_clean FILE [OPTION...]: readelf -W OPTIONs (default -a) reads FILE
# with exit status 0 and without a warning or an error; prints them if not.
readelf_clean()
{
	local file=$1 out rc
	shift
	out=$(LC_ALL=C readelf -W "${@:--a}" "$file" 2>&1 > /dev/null)
	rc=$?
	[ "$rc" -eq 0 ] && ! grep -qiE 'warning|error' <<< "$out" && return 0
	echo "	readelf -W ${*:--a} $file: exit $rc"
	head -n 5 <<< "$out" | sed 's/^/	| /'
	return 1
}

# pahole_temps DIR: list the temporary files that writing a FILE in DIR
# in place uses (.FILE.pahole-XXXXXX); prints nothing when there are none.
pahole_temps()
{
	find "$1" -maxdepth 1 -name '.*.pahole-*' -printf '%f\n'
}

# --- Damaging ELF files on purpose (tests/test_bad_input.sh) ------------------

# elf_layout FILE: one line "NAME OFFSET SIZE" (decimal) per section of the
# ELF file FILE (SHT_NOBITS ones have size 0), then "[ehdr] 0 SIZE" and
# "[shdrs] OFFSET SIZE" for the ELF header and the section header table.
elf_layout()
{
	python3 - "$1" <<'PYEOF'
import struct, sys
b = open(sys.argv[1], 'rb').read()
is64, end = b[4] == 2, '<' if b[5] == 1 else '>'
e = struct.unpack_from(end + ('16sHHIQQQIHHHHHH' if is64 else '16sHHIIIIIHHHHHH'), b, 0)
shoff, ehsize, shentsize, shnum, shstrndx = e[6], e[8], e[11], e[12], e[13]
sh = end + ('IIQQQQIIQQ' if is64 else 'IIIIIIIIII')
shdrs = [struct.unpack_from(sh, b, shoff + i * shentsize) for i in range(shnum)]
strs = shdrs[shstrndx][4]
for s in shdrs[1:]:
    name = b[strs + s[0]:b.index(b'\0', strs + s[0])].decode('latin-1')
    print(name, s[4], 0 if s[1] == 8 else s[5])
print('[ehdr]', 0, ehsize)
print('[shdrs]', shoff, shnum * shentsize)
PYEOF
}

# upstream_paths UPSTREAM_DIR: $TMP/up holds the pahole and pfunct built in
# UPSTREAM_DIR/build, to put first in PATH; $TMP/ours the same but a pahole
# that runs ours ($PAHOLE) for every BTF encoding (-J, --btf_encode*), so
# that upstream's scripts encode with ours and read with theirs.
upstream_paths()
{
	local up=$1

	mkdir "$TMP/ours" "$TMP/up"
	cat > "$TMP/ours/pahole" << EOF
#!/bin/bash
for a in "\$@"; do
	case \$a in -J | --btf_encode | --btf_encode_detached*) exec "$PAHOLE" "\$@" ;; esac
done
exec "$up/build/pahole" "\$@"
EOF
	chmod +x "$TMP/ours/pahole"
	ln -s "$up/build/pfunct" "$TMP/ours/pfunct"
	ln -s "$up/build/pahole" "$TMP/up/pahole"
	ln -s "$up/build/pfunct" "$TMP/up/pfunct"
}

# elf_set_shdr FILE NAME FIELD VALUE: set the FIELD (size or entsize) of
# FILE's section NAME to VALUE in place; a size is rounded down to a multiple
# of the section's sh_entsize, if any.  Nothing else changes.
elf_set_shdr()
{
	python3 - "$@" <<'PYEOF'
import struct, sys
path, name, field, value = sys.argv[1], sys.argv[2].encode(), sys.argv[3], int(sys.argv[4])
b = bytearray(open(path, 'rb').read())
is64, end = b[4] == 2, '<' if b[5] == 1 else '>'
e = struct.unpack_from(end + ('16sHHIQQQIHHHHHH' if is64 else '16sHHIIIIIHHHHHH'), b, 0)
shoff, shentsize, shnum, shstrndx = e[6], e[11], e[12], e[13]
sh = end + ('IIQQQQIIQQ' if is64 else 'IIIIIIIIII')
at = {'size': 32 if is64 else 20, 'entsize': 56 if is64 else 36}[field]
strs = struct.unpack_from(sh, b, shoff + shstrndx * shentsize)[4]
for i in range(shnum):
    s = struct.unpack_from(sh, b, shoff + i * shentsize)
    if b[strs + s[0]:b.index(b'\0', strs + s[0])] == name:
        if field == 'size' and s[9]:
            value -= value % s[9]
        struct.pack_into(end + ('Q' if is64 else 'I'), b, shoff + i * shentsize + at, value)
        open(path, 'wb').write(b)
        sys.exit(0)
sys.exit('%s: no section %s' % (path, name.decode()))
PYEOF
}

# elf_set_section_size FILE NAME SIZE, elf_set_section_entsize FILE NAME N.
elf_set_section_size() { elf_set_shdr "$1" "$2" size "$3"; }
elf_set_section_entsize() { elf_set_shdr "$1" "$2" entsize "$3"; }
