#!/usr/bin/env bash
# run_gen.sh: a differential sweep of random C programs.  gen_c.py writes one
# random translation unit per seed; this compiles each seed in many ways,
# encodes every object with our pahole and with an upstream pahole, both as
#   PAHOLE -J --btf_features=default --btf_encode_detached=OUT.btf FILE
# and compares the two BTFs by meaning with btfcanon.  For developers: CI does
# not run it (it is not in tests/CMakeLists.txt).
#
#   tests/gen/run_gen.sh [OPTIONS] [N]
#
# N: seeds 1..N (default 20).  Options:
#   --outdir DIR        where everything goes (default: build/gen)
#   --upstream PAHOLE   the oracle (default: $UPSTREAM_PAHOLE, else
#                       build/upstream-v1.31/build/pahole, which
#                       ../shared/tools/upstream-pahole builds)
#   --ours PAHOLE       our binary (default: build/pahole)
#   --jobs N            compiles and encodings at once (default: 1)
#
# Needs: python3 (stdlib only), ../shared/tools/btfcanon (or $BTFCANON), gcc
# (with -m32) and clang with its aarch64, riscv64, powerpc64le, s390x, i386
# and arm targets (objects only: no libraries or headers are used), GNU ld
# and lld (clang's LTO).  Made with gcc 12.2, clang 14, binutils 2.40.
#
# The matrix.  For every seed, gcc and clang, -O0..-O3 with -g (DWARF 5, the
# compilers' default) and -O2 with -gdwarf-4.  For every SO_GROUP seeds and
# each compiler, their -O2 -fPIC objects linked into a shared object (its
# units have same-named static functions with different prototypes), and
# their -O2 objects linked "ld -r" (an ET_REL of several units, as a module)
# and "ld -e 0" (an ET_EXEC, as vmlinux).  Seeds 1..VSEEDS also get variants:
# -ffunction-sections (and their "ld -r"), -gz, -Os, -Og, -fno-var-tracking,
# an LTO .so per compiler, clang aarch64/riscv64/ppc64le/s390x (s390x's
# big-endian BTF is byte-swapped by btf_bswap.py for btfcanon) and 32-bit
# gcc -m32 and clang i386 and arm.
#
# Output, under the outdir: src/ (the programs), obj/ (objects and the
# compilers' messages), btf/NAME.{up,ours}.{btf,log} and NAME.diff (btfcanon
# diff, A = upstream, B = ours), results.txt with one line per input:
#   NAME differences: N kinds: KIND=UPSTREAM/OURS(-ONLY_UPSTREAM,+ONLY_OURS) ...
# (the kinds whose counts or members differ; "(same counts)" if none), or
#   NAME ERROR: upstream rc=RC ours rc=RC
# ("nobtf": exit 0 but no BTF written), and summary.txt: per kind of input
# (the name without its seeds) how many inputs, how many with 0 differences,
# how many differ and how many failed.  A source is rewritten only when its
# bytes change and an object rebuilt only when older than its source, so a
# second run re-runs only the paholes.  The same N and settings give the
# same sources and objects (gen_c.py is deterministic).
#
# Environment: FUNCS, STATICS, TYPES (gen_c.py sizes; default 200, 80, 30),
# GENFLAGS (more gen_c.py options; default --no-complex), COMPILERS (default
# "gcc clang"), OPTS (default "0 1 2 3"), SO_GROUP (default 4), VSEEDS
# (default 5), NICE (niceness of compilers and paholes; default 10),
# BTFCANON.  If our binary is missing (being rebuilt) the run waits for it
# for up to 10 minutes.
#
# Known differences with v1.31: gcc -flto (lto-sN-gcc) -- functions whose
# DIEs point into another unit (DW_AT_abstract_origin), which ours does not
# follow and v1.31 does; and files with _Complex (with feature float) or
# _Atomic, which both refuse (v1.31 exit 0 and no BTF, ours exit 1): left out
# of the programs by --no-complex and gen_c.py's default extras.
#
# Exit status: 0 when the sweep ran (whatever the differences; see
# summary.txt), 1 when something needed is missing or a compile failed.

# shellcheck disable=SC2317 # build_one, compare_one, ... run under xargs
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$HERE/../.." && pwd)

usage()
{
	sed -n '2,/^$/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 64
}

N=20
OUT=$top/build/gen
UPSTREAM=${UPSTREAM_PAHOLE:-$top/build/upstream-v1.31/build/pahole}
OURS=$top/build/pahole
JOBS=1
while [ $# -gt 0 ]; do
	case $1 in
	--outdir) OUT=$2; shift 2 ;;
	--upstream) UPSTREAM=$2; shift 2 ;;
	--ours) OURS=$2; shift 2 ;;
	--jobs) JOBS=$2; shift 2 ;;
	-h | --help) usage ;;
	-*) echo "run_gen.sh: unknown option $1" >&2; usage ;;
	*) N=$1; shift ;;
	esac
done
case $N in '' | *[!0-9]*) echo "run_gen.sh: N must be a number" >&2; usage ;; esac

BTFCANON=${BTFCANON:-$top/../shared/tools/btfcanon}
FUNCS=${FUNCS:-200}
STATICS=${STATICS:-80}
TYPES=${TYPES:-30}
# v1.31 refuses _Complex types with feature float (no output), as ours does
GENFLAGS=${GENFLAGS:---no-complex}
COMPILERS=${COMPILERS:-gcc clang}
OPTS=${OPTS:-0 1 2 3}
SO_GROUP=${SO_GROUP:-4}
VSEEDS=${VSEEDS:-5}
NICE=${NICE:-10}

[ -x "$UPSTREAM" ] || {
	echo "run_gen.sh: no upstream pahole at $UPSTREAM: build one with" >&2
	echo "  ../shared/tools/upstream-pahole DWARVES_GIT LIBBPF_GIT v1.31 build/upstream-v1.31" >&2
	echo "or set UPSTREAM_PAHOLE" >&2
	exit 1
}
[ -e "$BTFCANON" ] || { echo "run_gen.sh: $BTFCANON is missing (set BTFCANON)" >&2; exit 1; }
mkdir -p "$OUT" || exit 1
OUT=$(cd "$OUT" && pwd)
export OURS UPSTREAM BTFCANON OUT NICE HERE

mkdir -p "$OUT/src" "$OUT/obj" "$OUT/btf" || exit 1
CFLAGS_COMMON="-w -Wno-psabi"
failed=0

# one "NAME<TAB>OUTPUT<TAB>compile command without -o" line per input
LIST=$OUT/list.txt
: > "$LIST"
add() { printf '%s\t%s\t%s\n' "$1" "$OUT/obj/$2" "$3" >> "$LIST"; }
gen()
{
	local src=$1
	shift
	python3 "$HERE/gen_c.py" --funcs "$FUNCS" --statics "$STATICS" \
		--types "$TYPES" "$@" --out "$src.tmp" || exit 1
	# keep the old file (and so the objects' timestamps) if unchanged
	if cmp -s "$src.tmp" "$src"; then rm -f "$src.tmp"; else mv "$src.tmp" "$src"; fi
}
CC_=$CFLAGS_COMMON
for s in $(seq 1 "$N"); do
	src=$OUT/src/seed$s.c
	# shellcheck disable=SC2086
	gen "$src" --seed "$s" $GENFLAGS
	for cc in $COMPILERS; do
		for o in $OPTS; do
			add "s$s-$cc-O$o" "s$s-$cc-O$o.o" "$cc $CC_ -g -O$o -c $src"
			if [ "$o" = 2 ]; then
				add "s$s-$cc-O$o-dw4" "s$s-$cc-O$o-dw4.o" "$cc $CC_ -gdwarf-4 -O$o -c $src"
			fi
		done
	done
	[ "$s" -le "$VSEEDS" ] || continue
	# variants: other flags, LTO, other targets
	add "s$s-gcc-O2-ffs" "s$s-gcc-O2-ffs.o" "gcc $CC_ -g -O2 -ffunction-sections -fdata-sections -c $src"
	add "s$s-clang-O2-ffs" "s$s-clang-O2-ffs.o" "clang $CC_ -g -O2 -ffunction-sections -fdata-sections -c $src"
	add "s$s-gcc-O2-gz" "s$s-gcc-O2-gz.o" "gcc $CC_ -g -gz=zlib -O2 -c $src"
	add "s$s-gcc-Os" "s$s-gcc-Os.o" "gcc $CC_ -g -Os -c $src"
	add "s$s-gcc-Og" "s$s-gcc-Og.o" "gcc $CC_ -g -Og -c $src"
	add "s$s-clang-Os" "s$s-clang-Os.o" "clang $CC_ -g -Os -c $src"
	add "s$s-gcc-O2-novt" "s$s-gcc-O2-novt.o" "gcc $CC_ -g -O2 -fno-var-tracking -c $src"
	add "lto-s$s-gcc" "lto-s$s-gcc.so" "gcc $CC_ -g -O2 -flto -fPIC -shared -nostdlib $src"
	add "lto-s$s-clang" "lto-s$s-clang.so" "clang $CC_ -fuse-ld=lld -g -O2 -flto -fPIC -shared -nostdlib $src"
	p64=$OUT/src/seed$s-p64.c
	gen "$p64" --seed "$s" --no-complex --no-float128
	for t in aarch64-linux-gnu riscv64-linux-gnu powerpc64le-linux-gnu s390x-linux-gnu; do
		add "s$s-clang-O2-${t%%-*}" "s$s-clang-O2-${t%%-*}.o" "clang --target=$t $CC_ -g -O2 -c $p64"
	done
	p32=$OUT/src/seed$s-p32.c
	gen "$p32" --seed "$s" --no-complex --no-float128 --ilp32
	add "s$s-gcc-O2-m32" "s$s-gcc-O2-m32.o" "gcc -m32 $CC_ -g -O2 -c $p32"
	add "s$s-clang-O2-i386" "s$s-clang-O2-i386.o" "clang --target=i386-linux-gnu $CC_ -g -O2 -c $p32"
	add "s$s-clang-O2-arm" "s$s-clang-O2-arm.o" "clang --target=arm-linux-gnueabihf $CC_ -g -O2 -c $p32"
done

build_one()
{
	local name=$1 obj=$2 cmd=$3
	local src=${cmd##* }
	if [ ! -e "$obj" ] || [ "$src" -nt "$obj" ]; then
		# shellcheck disable=SC2086 # cmd is a list of words
		if ! nice -n "$NICE" $cmd -o "$obj.tmp" 2> "$OUT/obj/$name.cc.err"; then
			echo "$name COMPILE FAILED (see $OUT/obj/$name.cc.err)"
			return 1
		fi
		mv "$obj.tmp" "$obj"
	fi
}

# wait_ours: our binary may be being rebuilt; wait for it to be there
wait_ours()
{
	local i=0
	while [ "$i" -lt 120 ]; do
		[ -x "$OURS" ] && return 0
		sleep 5
		i=$((i + 1))
	done
	echo "our pahole $OURS is missing" >&2
	return 1
}

# encode NAME FILE WHO PAHOLE: PAHOLE's BTF of FILE; prints its exit status
encode()
{
	local b=$OUT/btf/$1
	nice -n "$NICE" "$4" -J --btf_features=default \
		--btf_encode_detached="$b.$3.btf" "$2" > "$b.$3.log" 2>&1
	echo $?
}

compare_one()
{
	local name=$1 file=$2 b=$OUT/btf/$1
	local rc_up rc_ours line
	rm -f "$b.up.btf" "$b.ours.btf" "$b.up.le.btf" "$b.ours.le.btf" "$b.diff" "$b.line"
	rc_up=$(encode "$name" "$file" up "$UPSTREAM")
	wait_ours || return 1
	rc_ours=$(encode "$name" "$file" ours "$OURS")
	if [ "$rc_ours" -eq 126 ] || [ "$rc_ours" -eq 127 ]; then
		# replaced while we ran it: once more
		sleep 5
		wait_ours || return 1
		rc_ours=$(encode "$name" "$file" ours "$OURS")
	fi
	# v1.31 may say "Error while encoding BTF." and exit 0 without output
	[ -s "$b.up.btf" ] || [ "$rc_up" -ne 0 ] || rc_up=nobtf
	[ -s "$b.ours.btf" ] || [ "$rc_ours" -ne 0 ] || rc_ours=nobtf
	if [ "$rc_up" != 0 ] || [ "$rc_ours" != 0 ]; then
		line="$name ERROR: upstream rc=$rc_up ours rc=$rc_ours (see $b.*.log)"
	else
		python3 "$BTFCANON" diff --max 20 "$b.up.btf" "$b.ours.btf" > "$b.diff" 2>&1
		if grep -q "bad BTF magic" "$b.diff"; then
			# big-endian BTF: btfcanon reads little-endian only
			python3 "$HERE/btf_bswap.py" "$b.up.btf" "$b.up.le.btf" &&
				python3 "$HERE/btf_bswap.py" "$b.ours.btf" "$b.ours.le.btf" &&
				python3 "$BTFCANON" diff --max 20 "$b.up.le.btf" "$b.ours.le.btf" > "$b.diff" 2>&1
		fi
		local nd kinds
		nd=$(sed -n 's/^differences: *//p' "$b.diff")
		# KIND=UPSTREAM/OURS(-only in upstream,+only in ours)
		kinds=$(awk '$2 == "A" && $4 == "B" && ($3 != $5 || $6 == "only") {
			s = sprintf(" %s=%s/%s", $1, $3, $5)
			if ($6 == "only") s = s sprintf("(-%s,+%s)", $9, $13)
			printf "%s", s }' "$b.diff")
		line="$name differences: ${nd:-?} kinds:${kinds:- (same counts)}"
	fi
	echo "$line" > "$b.line"
	echo "$line"
}
export -f build_one compare_one encode wait_ours

# objects
# shellcheck disable=SC2016 # $1.. are bash -c's
tr '\t' '\n' < "$LIST" | xargs -d '\n' -n 3 -P "$JOBS" bash -c 'build_one "$1" "$2" "$3"' _ ||
	failed=1

# shared objects: groups of SO_GROUP seeds, -O2 -fPIC
SOLIST=$OUT/solist.txt
: > "$SOLIST"
for cc in $COMPILERS; do
	for first in $(seq 1 "$SO_GROUP" "$N"); do
		last=$((first + SO_GROUP - 1))
		[ $last -gt "$N" ] && last=$N
		so=$OUT/obj/so$first-$last-$cc.so
		objs=()
		stale=0
		for s in $(seq "$first" "$last"); do
			o=$OUT/obj/pic-s$s-$cc-O2.o
			src=$OUT/src/seed$s.c
			if [ ! -e "$o" ] || [ "$src" -nt "$o" ]; then
				# shellcheck disable=SC2086
				nice -n "$NICE" $cc $CFLAGS_COMMON -g -O2 -fPIC -c "$src" -o "$o" ||
					{ echo "pic-s$s-$cc COMPILE FAILED"; failed=1; continue; }
				stale=1
			fi
			objs+=("$o")
		done
		if [ $stale = 1 ] || [ ! -e "$so" ]; then
			nice -n "$NICE" "$cc" -shared -nostdlib "${objs[@]}" -o "$so" 2> /dev/null ||
				{ echo "$so LINK FAILED"; failed=1; continue; }
		fi
		echo "so$first-$last-$cc	$so" >> "$SOLIST"
		# the same seeds' -O2 objects (not PIC) linked "ld -r" into one
		# ET_REL, as a module is, and "ld -e 0" into an ET_EXEC, as
		# vmlinux is; and, for the seeds with variants, the
		# -ffunction-sections ones "ld -r"
		for kind in rel exe relffs; do
			objs=()
			for s in $(seq "$first" "$last"); do
				case $kind in
				relffs) o=$OUT/obj/s$s-$cc-O2-ffs.o ;;
				*) o=$OUT/obj/s$s-$cc-O2.o ;;
				esac
				[ -e "$o" ] && objs+=("$o")
			done
			[ ${#objs[@]} -ge 2 ] || continue
			out=$OUT/obj/$kind$first-$last-$cc.o
			case $kind in
			exe) link=(ld -e 0 --unresolved-symbols=ignore-all) ;;
			*) link=(ld -r) ;;
			esac
			nice -n "$NICE" "${link[@]}" "${objs[@]}" -o "$out" 2> /dev/null ||
				{ echo "$out LINK FAILED"; failed=1; continue; }
			echo "$kind$first-$last-$cc	$out" >> "$SOLIST"
		done
	done
done

# compare; results.txt in the order of the inputs, whatever JOBS
INPUTS=$OUT/inputs.txt
{
	while IFS=$'\t' read -r name obj cmd; do
		[ -e "$obj" ] && printf '%s\t%s\n' "$name" "$obj"
	done < "$LIST"
	cat "$SOLIST"
} > "$INPUTS"
# shellcheck disable=SC2016 # $1.. are bash -c's
tr '\t' '\n' < "$INPUTS" | xargs -d '\n' -n 2 -P "$JOBS" bash -c 'compare_one "$1" "$2"' _
cut -f1 "$INPUTS" | while read -r name; do
	cat "$OUT/btf/$name.line" 2> /dev/null || echo "$name NOT COMPARED"
done > "$OUT/results.txt"

# summary per kind of input: the name without its seed numbers
sed -E 's/^s[0-9]+-//; s/^lto-s[0-9]+-/lto-/; s/^(so|relffs|rel|exe)[0-9]+-[0-9]+-/\1-/' \
	"$OUT/results.txt" | awk '
	!($1 in n) { order[++k] = $1 }
	{ n[$1]++ }
	$2 == "differences:" && $3 == "0" { zero[$1]++; next }
	$2 == "differences:" { diff[$1]++; next }
	{ err[$1]++ }
	END {
		printf "%-22s %6s %6s %6s %6s\n", "kind", "inputs", "0diff", "differ", "failed"
		for (i = 1; i <= k; i++) {
			t = order[i]
			printf "%-22s %6d %6d %6d %6d\n", t, n[t], zero[t], diff[t], err[t]
			N += n[t]; Z += zero[t]; D += diff[t]; E += err[t]
		}
		printf "%-22s %6d %6d %6d %6d\n", "total", N, Z, D, E
	}' > "$OUT/summary.txt"
cat "$OUT/summary.txt"
echo "results: $OUT/results.txt"
exit $failed
