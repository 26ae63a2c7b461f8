#!/usr/bin/env bash
# test_funcs: which functions and variables `pahole -J` encodes, with which
# prototype, and which it leaves out and why.
#
# Each case below is one rule, with fixtures tests/fixtures/funcs_<case>*.c
# compiled (-g -O2, -gdwarf-4 and -gdwarf-5, with gcc and/or clang) and
# linked into a real ELF file three ways (DWARF 4 the first two), so that
# the symbol table is what a linker makes:
#   exec  ld -e 0: an ET_EXEC, like vmlinux (objects built -fno-pie); as in
#         vmlinux, .data..percpu stays a section of its own
#   rel   ld -r: an ET_REL, like a module (same objects)
#   dyn   gcc -nostdlib -shared: an ET_DYN (objects built -fPIC)
# and encoded in several modes (feature sets).  For each file and mode:
#   encode  pahole -J -V exits 0 and writes the BTF
#   expect  its FUNC, VAR, DATASEC and DECL_TAG definitions (btf_canon in
#           lib.sh) are exactly those of tests/fixtures/funcs_<case>.expect,
#           written by hand from the C source (expect_lines syntax)
#   verbose for each function left out, -V says so in exactly one line
#           ("skipping function NAME: REASON") whose reason matches the
#           "skipped NAME REGEX" line of the .expect file, and it names no
#           other function
#   kernel  the running kernel accepts the BTF ($BTF_LOAD; skipped, with a
#           note, when the bpf syscall is not permitted here)
# Some expectations hold only if the compiler did what the fixture asks of
# it (made a clone, split a function...).  Each case checks that first, on
# the linked file, with readelf; when the compiler did something else, the
# lines about that function are not checked, with a note saying why.
#
# shellcheck disable=SC2317 # precheck_* are called as "precheck_$case"
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
make_tmp

FIXTURES=$SRCDIR/tests/fixtures

need_tools bpftool readelf ld


# add_mode NAME OPTIONS TOKENS NEEDS: a way to run pahole.  TOKENS say what
# its features are, for the .expect files (with NAME itself): consistent
# (consistent_func), decltag, kfuncs (decl_tag_kfuncs), globalvar, truesig
# (true_signature).  NEEDS:
# the features pahole must support for the mode to be run.
declare -A MODE_OPTS MODE_TOKENS MODE_NEEDS
add_mode()
{
	MODE_OPTS[$1]=$2
	MODE_TOKENS[$1]="$1 $3"
	MODE_NEEDS[$1]=$4
}
NO_DECL_TAG=encode_force,var,float,type_tag,enum64,optimized_func,consistent_func,decl_tag_kfuncs
NO_KFUNCS=encode_force,var,float,decl_tag,type_tag,enum64,optimized_func,consistent_func
add_mode default "--btf_features=default" "consistent decltag kfuncs" ""
add_mode plain "" "decltag" ""
add_mode global_var "--btf_features=default,global_var" "consistent decltag kfuncs globalvar" \
	"global_var"
add_mode skip_decl_tag "--skip_encoding_btf_decl_tag" "" ""
# decl_tag_kfuncs without decl_tag: no kfunc tags either, as pahole v1.31.
add_mode no_decl_tag "--btf_features=$NO_DECL_TAG" "consistent" ""
add_mode no_kfuncs "--btf_features=$NO_KFUNCS" "consistent decltag" ""
add_mode attributes "--btf_features=default,attributes" "consistent decltag kfuncs attributes" \
	"attributes"
# After v1.31 (upstream 1436daf): clones also by their symbols' names.
add_mode true_signature "--btf_features=default,true_signature" \
	"consistent decltag kfuncs truesig" "true_signature"
# v1.32's rules (btf_release.h, BTF_RULE_FUNCS_V132), token v132: the
# strong definition, function-pointer parameters compared, the skips
# without consistent_func too; the other modes are v1.31's (tests/lib.sh).
add_mode default_v132 "--compat=v1.32 --btf_features=default" "consistent decltag kfuncs v132" ""
add_mode plain_v132 "--compat=v1.32" "decltag v132" ""
add_mode true_signature_v132 "--compat=v1.32 --btf_features=default,true_signature" \
	"consistent decltag kfuncs truesig v132" "true_signature"
# With several CUs: the same with two threads (on DWARF 5's exec and rel).
add_mode default_j2 "-j2 --btf_features=default" "consistent decltag kfuncs" ""
add_mode plain_j2 "-j2" "decltag" ""

# CASE|FIXTURES (tests/fixtures/funcs_FIXTURE.c, linked in this order)|
# COMPILERS|MODES|FEATURES NEEDED (else the case is skipped, with a note).
# The expectations are in tests/fixtures/funcs_CASE.expect.
CASES=(
	"static_differ|static_differ_a static_differ_b|gcc clang|default plain default_j2 plain_j2 default_v132 plain_v132|consistent_func"
	"inline_copy|inline_copy_a inline_copy_b|gcc clang|default plain default_v132 plain_v132 true_signature_v132|consistent_func"
	"static_same|static_same_a static_same_b|gcc clang|default plain default_j2 plain_j2|consistent_func"
	"static_sections|static_sections_a static_sections_b|gcc clang|default plain default_j2 plain_j2|consistent_func"
	"clone|clone|gcc|default plain true_signature default_v132 plain_v132|consistent_func optimized_func"
	"optimized|optimized|gcc clang|default plain true_signature default_v132 plain_v132|consistent_func optimized_func"
	"regs|regs|gcc clang|default plain default_v132 plain_v132|consistent_func"
	"abi|abi|gcc clang|default plain|consistent_func"
	"nested|nested|gcc|default plain|"
	"weak|weak_a weak_b|gcc clang|default plain default_j2 plain_j2 default_v132 plain_v132|consistent_func"
	"unnamed|unnamed|gcc clang|default plain|"
	"split|split_a split_b|gcc|default plain default_j2 plain_j2|"
	"vars|vars|gcc|default plain global_var|var"
	"vars_shrunk|vars_shrunk|clang|default global_var|var"
	"decltag|decltag|clang|default plain skip_decl_tag no_decl_tag|decl_tag"
	"kfunc|kfunc|gcc clang|default plain no_kfuncs no_decl_tag attributes|decl_tag_kfuncs"
	"lto|lto|gcc|default plain default_j2|consistent_func"
)

SUPPORTED=" $("$PAHOLE" --supported_btf_features | tr ',' ' ') "
# pahole v1.31's features: every case needs only these, so one that ours
# does not support is a failure, not a skip.
V131_FEATURES="encode_force var float decl_tag type_tag enum64 optimized_func consistent_func"
V131_FEATURES+=" decl_tag_kfuncs reproducible_build distilled_base global_var attributes"
for f in $V131_FEATURES; do
	[[ "$SUPPORTED" == *" $f "* ]] ||
		not_ok "--supported_btf_features lacks $f, which pahole v1.31 has"
done

# --- what the compiler must have done (see the fixtures) ----------------------
#
# precheck_CASE ELF CC: print "NAME WHY" for each function whose expectations
# do not apply to ELF because the compiler did not do what the fixture needs.

# has_sym NAME: the ELF file being checked defines a FUNC symbol NAME
# ($TMP/syms lists them).
has_sym()
{
	grep -qx -- "$1" "$TMP/syms"
}

# has_sym_like ERE: it defines a FUNC symbol matching ERE (the whole name).
has_sym_like()
{
	grep -qxE -- "$1" "$TMP/syms"
}

# param_names LINE: the parameter names of a dwarf_params line.
param_names()
{
	printf '%s\n' "$1" | awk '{ s = ""; for (i = 2; i <= NF; i++) { p = $i; sub(/[@=].*/, "", p); s = s " " p } print substr(s, 2) }'
}

# clone_check ELF NAME SUFFIX ORDER: NAME exists only as NAME.SUFFIX.N, and
# the DWARF parameter order of that clone is the declared one (ORDER=same)
# or not (ORDER=reordered).
clone_check()
{
	local elf=$1 name=$2 suffix=$3 order=$4 params declared instance
	if has_sym "$name" || ! has_sym_like "$name\\.$suffix\\.[0-9]+"; then
		echo "$name gcc did not make $name.$suffix.N the only symbol of $name"
		return
	fi
	params=$(dwarf_params "$elf" "$name")
	declared=$(param_names "$(grep '^declared' <<< "$params" | head -n 1)")
	instance=$(param_names "$(grep '^instance' <<< "$params" | head -n 1)")
	if [ -z "$declared" ] || [ -z "$instance" ]; then
		echo "$name no abstract and concrete DWARF instances of $name"
	elif [ "$order" = same ] && [ "$declared" != "$instance" ]; then
		echo "$name the clone's DWARF lists its parameters as ($instance), not ($declared)"
	elif [ "$order" = reordered ] && [ "$declared" = "$instance" ]; then
		echo "$name the clone's DWARF keeps the declared parameter order ($declared)"
	fi
}

precheck_clone()
{
	clone_check "$1" cp_last constprop same
	clone_check "$1" cp_first constprop reordered
	clone_check "$1" cp_swap constprop reordered
	clone_check "$1" isra_last isra same
	clone_check "$1" isra_first isra reordered
}

precheck_optimized()
{
	local elf=$1 cc=$2 params
	if [ "$cc" = gcc ]; then
		clone_check "$elf" drop_last constprop same
		clone_check "$elf" drop_mid constprop reordered
		return
	fi
	# clang: dead argument elimination, no clone.
	params=$(dwarf_params "$elf" drop_last)
	[ "$params" = "declared a@rdi unused" ] ||
		echo "drop_last clang did not drop its unused parameter the expected way ($params)"
	params=$(dwarf_params "$elf" drop_mid)
	[ "$params" = "declared a@rdi unused c@rsi" ] ||
		echo "drop_mid clang did not move c to rsi ($params)"
}

precheck_split()
{
	local elf=$1
	if ! has_sym hot_path || ! has_sym_like 'hot_path\.cold(\.[0-9]+)?'; then
		echo "hot_path gcc did not split off hot_path.cold"
	fi
	if has_sym_like 'maybe_slow(\.(isra|constprop)\.[0-9]+)*' ||
	   ! has_sym_like 'maybe_slow\.part\.[0-9]+'; then
		echo "maybe_slow gcc did not leave maybe_slow as maybe_slow.part.N only"
	fi
}

# The LTO case needs units that refer into each other: gcc's LTRANS units
# point into the early-debug unit with DW_FORM_ref_addr.
precheck_lto()
{
	local elf=$1 name
	if ! readelf --debug-dump=abbrev "$elf" 2> /dev/null | grep -q DW_FORM_ref_addr; then
		for name in f_lto s_isra callee uses_pair pair_diff; do
			echo "$name gcc's LTO units do not refer into each other"
		done
	fi
}

# The variable must be what the fixture says clang makes of it.
precheck_vars_shrunk()
{
	if ! readelf --debug-dump=info "$1" 2> /dev/null | grep -q 'DW_OP_deref_size: 1'; then
		echo "flag clang did not shrink flag to a byte"
	fi
}

# --- building -----------------------------------------------------------------

# The default linker script puts .data.* input sections, and so
# .data..percpu, into .data; the kernel's keeps .data..percpu apart.
cat > "$TMP/percpu.ld" << 'EOF'
SECTIONS
{
	.data..percpu : { *(.data..percpu) }
}
INSERT AFTER .data;
EOF

# build CASE SOURCES CC DWARF: compile the sources into $TMP, then link them
# as exec, rel and dyn: $TMP/CASE.CC.dwarfN.{exec,rel,dyn}.  Sets BUILT to
# the link kinds built.
build()
{
	local case=$1 sources=$2 cc=$3 dwarf=$4 src f cflags objs=() pic_objs=()
	local base=$TMP/$case.$cc.dwarf$dwarf
	BUILT=""
	for f in $sources; do
		src=$FIXTURES/funcs_$f.c
		cflags=$(sed -n 's/.*cflags: *\(.*\)$/\1/p' "$src" | head -n 1)
		# shellcheck disable=SC2086 # $cflags is a list of options
		if ! "$cc" -g -O2 -gdwarf-$dwarf -fno-pie $cflags -c "$src" -o "$base.$f.o" \
		     > "$base.err" 2>&1 ||
		   ! "$cc" -g -O2 -gdwarf-$dwarf -fPIC $cflags -c "$src" -o "$base.$f.pic.o" \
		     >> "$base.err" 2>&1; then
			not_ok "$case $cc -gdwarf-$dwarf: compiling funcs_$f.c failed"
			sed 's/^/    /' "$base.err"
			return
		fi
		objs+=("$base.$f.o")
		pic_objs+=("$base.$f.pic.o")
	done
	# LTO objects are linked by the compiler, which runs the LTO, and as a
	# shared object only (what "ld -r" makes of them is no LTO).
	if [[ " $cflags " == *" -flto "* ]]; then
		# shellcheck disable=SC2086 # $cflags is a list of options
		if "$cc" -g -O2 -gdwarf-$dwarf $cflags -nostdlib -shared -o "$base.dyn" \
		   "${pic_objs[@]}" > "$base.err" 2>&1; then
			BUILT="dyn"
		else
			not_ok "$case $cc -gdwarf-$dwarf: linking a shared object with LTO failed"
			sed 's/^/    /' "$base.err"
		fi
		return
	fi
	if ld -e 0 -T "$TMP/percpu.ld" -o "$base.exec" "${objs[@]}" > "$base.err" 2>&1; then
		BUILT="$BUILT exec"
	else
		not_ok "$case $cc -gdwarf-$dwarf: ld -e 0 failed"
		sed 's/^/    /' "$base.err"
	fi
	if ld -r -o "$base.rel" "${objs[@]}" > "$base.err" 2>&1; then
		BUILT="$BUILT rel"
	else
		not_ok "$case $cc -gdwarf-$dwarf: ld -r failed"
		sed 's/^/    /' "$base.err"
	fi
	# TEST_FAST: the executable and the relocatable object only.
	[ "${TEST_FAST:-0}" = 1 ] && return
	if "$cc" -nostdlib -shared -Wl,-T,"$TMP/percpu.ld" -o "$base.dyn" "${pic_objs[@]}" \
	   > "$base.err" 2>&1; then
		BUILT="$BUILT dyn"
	else
		not_ok "$case $cc -gdwarf-$dwarf: linking a shared object failed"
		sed 's/^/    /' "$base.err"
	fi
}

# --- checking -------------------------------------------------------------------

# show_diff EXPECTED GOT: the lines only in one of the two sorted files.
show_diff()
{
	LC_ALL=C comm -23 "$1" "$2" | sed 's/^/	missing:    /'
	LC_ALL=C comm -13 "$1" "$2" | sed 's/^/	unexpected: /'
}

# drop_ignored FILE: FILE's lines less those about the functions in
# $TMP/ignored (one name per line): "func NAME ...", "decl_tag ... on func
# NAME", "skipped NAME ...".
drop_ignored()
{
	awk -v ignored="$TMP/ignored" '
	BEGIN { while ((getline n < ignored) > 0) IGN[n] = 1 }
	{
		if ($1 == "func" && ($2 in IGN)) next
		if ($1 == "skipped" && ($2 in IGN)) next
		if ($1 == "decl_tag" && $(NF - 1) == "func" && ($NF in IGN)) next
		print
	}' "$1"
}

# check_verbose LABEL STDERR EXPECTED_SKIPS: the "skipping function" lines
# of STDERR against the "skipped NAME REGEX" lines.
check_verbose()
{
	local label=$1 err=$2 skips=$3 name re lines n bad=()
	# Every function -V says it left out must be expected to be left out.
	while read -r name; do
		[ -n "$name" ] || continue
		if ! awk -v n="$name" '$2 == n { f = 1 } END { exit !f }' "$skips"; then
			bad+=("unexpected: $(grep -m1 -F "skipping function $name:" "$err")")
		fi
	done < <(sed -n 's/^skipping function \([^:]*\): .*/\1/p' "$err" | LC_ALL=C sort -u)
	# Each one expected: exactly one line, with the expected reason.
	while read -r _ name re; do
		lines=$(grep -F "skipping function $name:" "$err")
		n=$(printf '%s' "$lines" | grep -c '^')
		if [ "$n" -ne 1 ]; then
			bad+=("$n lines say $name is left out, expected 1 matching /$re/${lines:+: $lines}")
		elif ! grep -qiE -- "$re" <<< "${lines#*: }"; then
			bad+=("reason for $name does not match /$re/: $lines")
		fi
	done < "$skips"
	verdict "$label: verbose" "${bad[@]}"
}

# verdict WHAT PROBLEM...: ok when there is none, else not ok with each.
verdict()
{
	local what=$1
	shift
	if [ $# -eq 0 ]; then
		ok "$what"
	else
		not_ok "$what"
		printf '	%s\n' "$@"
	fi
}

# check_said LABEL STDOUT EXPECTED: each "said NAME TEXT" line of EXPECTED
# is a line of STDOUT, in v1.32's words (how two prototypes differ).
check_said()
{
	local label=$1 out=$2 said=$3 name text bad=()
	[ -s "$said" ] || return 0
	while read -r _ name text; do
		grep -Fxq "$name : skipping BTF encoding of function due to $text" "$out" ||
			bad+=("no \"$name : ... due to $text\"")
	done < "$said"
	verdict "$label: v1.32's -V lines" "${bad[@]}"
}

# check_oracle LABEL ELF BTF MODE: with FUNCS_ORACLE_V132 (pahole v1.32, as
# ../shared/tools/debian-pahole makes it), a v1.32 mode's BTF has the meaning
# of v1.32's own (btfcanon diff): how the expectations were checked.
check_oracle()
{
	local label=$1 elf=$2 btf=$3 mode=$4 opts
	[ -n "${FUNCS_ORACLE_V132:-}" ] && [[ $mode == *_v132 ]] || return 0
	opts=${MODE_OPTS[$mode]/--compat=v1.32/}
	# shellcheck disable=SC2086 # the options are a list
	"$FUNCS_ORACLE_V132" -J $opts --btf_encode_detached="$btf.v132" "$elf" > /dev/null 2>&1
	if python3 "$BTFCANON" diff "$btf" "$btf.v132" 2>&1 | grep -qx 'differences: 0'; then
		ok "$label: as pahole v1.32"
	else
		not_ok "$label: not as pahole v1.32: $(python3 "$BTFCANON" diff "$btf" "$btf.v132" 2>&1 |
			grep '^    ' | head -5)"
	fi
}

# check_file CASE LABEL ELF TOKENS MODE: encode ELF in MODE and check it.
check_file()
{
	local case=$1 label=$2 elf=$3 tokens=$4 mode=$5
	local btf=$elf.$mode.btf base rc
	base=${btf%.btf}
	# shellcheck disable=SC2086 # the options are a list
	if ! "$PAHOLE" -J -V ${MODE_OPTS[$mode]} --btf_encode_detached="$btf" "$elf" \
	     > "$base.out" 2> "$base.err" || [ ! -s "$btf" ]; then
		not_ok "$label: encode (pahole -J ${MODE_OPTS[$mode]} failed or wrote nothing)"
		head -c 2000 "$base.err" | sed 's/^/    /'
		return
	fi

	expect_lines "$FIXTURES/funcs_$case.expect" "$tokens" > "$base.all-expected" ||
		die "bad expectation file funcs_$case.expect"
	drop_ignored "$base.all-expected" > "$base.expected-all"
	grep -Ev '^(skipped|said) ' "$base.expected-all" > "$base.expected"
	grep '^skipped ' "$base.expected-all" > "$base.skips"
	grep '^said ' "$base.expected-all" > "$base.said" || true

	# bpftool's lines: the same as btfcanon's (test_types checks that the
	# two agree) from one quick process rather than a Python start.
	if ! btf_canon_bpftool "$btf" > "$base.canon" 2> "$base.canonerr"; then
		not_ok "$label: canonical form (bpftool cannot read it)"
		head -c 2000 "$base.canonerr" | sed 's/^/    /'
		return
	fi
	# What the compiler left to check: nothing is a failure, not a pass.
	if [ ! -s "$base.expected" ] && [ ! -s "$base.skips" ]; then
		not_ok "$label: checks nothing (every function of funcs_$case.expect ignored)"
		return
	fi
	cut -f2- "$base.canon" | grep -E '^(func|var|datasec|decl_tag) ' > "$base.got-all"
	drop_ignored "$base.got-all" | LC_ALL=C sort > "$base.got"
	if cmp -s "$base.expected" "$base.got"; then
		ok "$label: expect"
	else
		not_ok "$label: expect: BTF differs from funcs_$case.expect [$tokens]:"
		show_diff "$base.expected" "$base.got"
	fi

	check_verbose "$label" "$base.err" "$base.skips"
	check_said "$label" "$base.out" "$base.said"
	check_oracle "$label" "$elf" "$btf" "$mode"

	kernel_load "$btf" "$base.load"
	case $? in
	0) ok "$label: kernel" ;;
	1)
		if [ "$mode" = attributes ] && grep -qi 'kind_flag\|kflag' "$base.load"; then
			# Type attributes (kind_flag on TYPE_TAG) came with Linux 6.16.
			note_skip "$label: kernel: this kernel predates type attributes: $(uname -r)"
		else
			not_ok "$label: kernel rejected it (btf_load exit $KERNEL_RC):"
			head -c 4000 "$base.load" | sed 's/^/	/'
		fi
		;;
	esac
}

for entry in "${CASES[@]}"; do
	IFS='|' read -r case sources compilers modes needs <<< "$entry"
	# FUNCS_CASES="weak clone": only those cases (a change's inner loop).
	[ -z "${FUNCS_CASES:-}" ] || [[ " $FUNCS_CASES " == *" $case "* ]] || continue
	missing=""
	for f in $needs; do
		[[ "$SUPPORTED" == *" $f "* ]] || missing="$missing $f"
	done
	if [ -n "$missing" ]; then
		not_ok "case $case: $PAHOLE does not support$missing (--supported_btf_features)"
		continue
	fi
	for cc in $compilers; do
		if ! command -v "$cc" > /dev/null; then
			note_skip "case $case: $cc is not installed"
			continue
		fi
		for dwarf in $(fast_or "5" "4 5"); do
			build "$case" "$sources" "$cc" "$dwarf"
			for link in $BUILT; do
				# DWARF 4 as kernels have it (vmlinux, modules); a shared
				# object's symbols are DWARF 5's to test.
				[ "$dwarf" = 4 ] && [ "$link" = dyn ] && continue
				elf=$TMP/$case.$cc.dwarf$dwarf.$link
				elf_func_symbols "$elf" > "$TMP/syms"
				: > "$TMP/ignored"
				if declare -F "precheck_$case" > /dev/null; then
					"precheck_$case" "$elf" "$cc" > "$TMP/precheck"
					while read -r name why; do
						note_skip "$case $cc -gdwarf-$dwarf $link: $name not checked: $why"
						echo "$name" >> "$TMP/ignored"
					done < "$TMP/precheck"
				fi
				for mode in $modes; do
					# TEST_FAST: -j2's modes are test_jobs' to compare; but
					# ThreadSanitizer's pass runs those alone, where the
					# workers can race.
					if [ "${SANITIZER:-}" = thread ]; then
						[[ $mode == *_j2 ]] || continue
					elif [[ $mode == *_j2 ]] &&
						{ [ "${TEST_FAST:-0}" = 1 ] || [ "$dwarf" = 4 ] ||
							[ "$link" = dyn ]; }; then
						# The whole form: -j2 on DWARF 5's exec and rel,
						# the two kinds of symbol table it merges by.
						continue
					fi
					missing=""
					for f in ${MODE_NEEDS[$mode]}; do
						[[ "$SUPPORTED" == *" $f "* ]] || missing="$missing $f"
					done
					if [ -n "$missing" ]; then
						not_ok "$case: mode $mode needs$missing"
						continue
					fi
					check_file "$case" "$case $cc -gdwarf-$dwarf $link $mode" "$elf" \
						"$cc dwarf$dwarf $link ${MODE_TOKENS[$mode]}" "$mode"
				done
			done
		done
	done
done

# Each skip said why above; counted here.  A run that checked nothing fails (finish).
# Skipped parts: functions the compiler did not shape as a fixture needs, kernel checks.
finish
