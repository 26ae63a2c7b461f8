#!/usr/bin/env bash
# run_gen: random C programs (gen_c.py) through our pahole and upstream's.
#
#   run_gen.sh [N]          seeds 1..N (default 20)
#
# For each seed, compiler (gcc, clang) and -O0..-O3 it compiles the program
# with -g -c (DWARF 5, the compilers' default) and, at -O2, also with
# -gdwarf-4; and for each compiler it links groups of SO_GROUP seeds (built
# -O2 -fPIC) into a shared object, whose units have same-named static
# functions with different prototypes; and links the same seeds' -O2
# objects with "ld -r" (an ET_REL of several units, as a module) and "ld -e 0"
# (an ET_EXEC, as vmlinux).  Then it runs
#   PAHOLE -J --btf_features=default --btf_encode_detached=OUT.btf FILE
# with both paholes and prints, for each input, one line:
#   NAME differences: N kinds: KIND=UPSTREAM/OURS(-ONLY_UPSTREAM,+ONLY_OURS) ...
# (the kinds that differ; "(same counts)" if none)
# The sources, objects, BTF and diffs stay under $OUT (default /work/inputs/gen).
#
# Environment: OURS, UPSTREAM (the two paholes), BTFCANON, OUT, FUNCS,
# STATICS, TYPES (gen_c.py sizes), GENFLAGS (more gen_c.py options,
# default --no-complex), COMPILERS, OPTS, JOBS (parallel inputs,
# default 1), SO_GROUP (default 4), NICE (default 10), VSEEDS (seeds
# 1..VSEEDS also get variants: -ffunction-sections, -gz, -Os, -Og,
# -fno-var-tracking, an LTO .so, clang aarch64/riscv64/ppc64le/s390x and
# 32-bit i386 (gcc -m32, clang)/arm; default 5).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
N=${1:-20}
OURS=${OURS:-/work/main/build/pahole}
UPSTREAM=${UPSTREAM:-/work/upstream-v1.31/build/pahole}
BTFCANON=${BTFCANON:-/work/shared/tools/btfcanon}
OUT=${OUT:-/work/inputs/gen}
FUNCS=${FUNCS:-150}
STATICS=${STATICS:-60}
TYPES=${TYPES:-30}
# v1.31 fails on _Complex types with feature float (no output): left out
GENFLAGS=${GENFLAGS:---no-complex}
COMPILERS=${COMPILERS:-gcc clang}
OPTS=${OPTS:-0 1 2 3}
JOBS=${JOBS:-1}
SO_GROUP=${SO_GROUP:-4}
VSEEDS=${VSEEDS:-5}
NICE=${NICE:-10}
export OURS UPSTREAM BTFCANON OUT NICE HERE

mkdir -p "$OUT/src" "$OUT/obj" "$OUT/btf"
CFLAGS_COMMON="-w -Wno-psabi"

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
		# shellcheck disable=SC2086
		nice -n "$NICE" $cmd -o "$obj.tmp" 2> "$OUT/obj/$name.cc.err" &&
			mv "$obj.tmp" "$obj" || { echo "$name COMPILE FAILED"; return 1; }
	fi
}

# wait_ours: our binary is rebuilt by others; wait for it to be there
wait_ours()
{
	local i
	for i in $(seq 1 120); do
		[ -x "$OURS" ] && return 0
		sleep 5
	done
	echo "our pahole $OURS is missing" >&2
	return 1
}

compare_one()
{
	local name=$1 file=$2 b=$OUT/btf/$1
	local rc_up rc_ours
	rm -f "$b.up.btf" "$b.ours.btf" "$b.diff"
	nice -n "$NICE" "$UPSTREAM" -J --btf_features=default \
		--btf_encode_detached="$b.up.btf" "$file" > "$b.up.log" 2>&1
	rc_up=$?
	wait_ours || return 1
	nice -n "$NICE" "$OURS" -J --btf_features=default \
		--btf_encode_detached="$b.ours.btf" "$file" > "$b.ours.log" 2>&1
	rc_ours=$?
	if [ $rc_ours -eq 126 ] || [ $rc_ours -eq 127 ]; then
		# replaced while we ran it: once more
		sleep 5
		wait_ours || return 1
		nice -n "$NICE" "$OURS" -J --btf_features=default \
			--btf_encode_detached="$b.ours.btf" "$file" > "$b.ours.log" 2>&1
		rc_ours=$?
	fi
	# v1.31 may say "Error while encoding BTF." and exit 0 without output
	[ -s "$b.up.btf" ] || [ $rc_up -ne 0 ] || rc_up=nobtf
	[ -s "$b.ours.btf" ] || [ $rc_ours -ne 0 ] || rc_ours=nobtf
	if [ "$rc_up" != 0 ] || [ "$rc_ours" != 0 ]; then
		echo "$name ERROR: upstream rc=$rc_up ours rc=$rc_ours (see $b.*.log)"
		return 0
	fi
	"$BTFCANON" diff --max 20 "$b.up.btf" "$b.ours.btf" > "$b.diff" 2>&1
	if grep -q "bad BTF magic" "$b.diff"; then
		# big-endian BTF: btfcanon reads little-endian only
		python3 "$HERE/btf_bswap.py" "$b.up.btf" "$b.up.le.btf" &&
			python3 "$HERE/btf_bswap.py" "$b.ours.btf" "$b.ours.le.btf" &&
			"$BTFCANON" diff --max 20 "$b.up.le.btf" "$b.ours.le.btf" > "$b.diff" 2>&1
	fi
	local nd kinds
	nd=$(sed -n 's/^differences: *//p' "$b.diff")
	# KIND=UPSTREAM/OURS(-only in upstream,+only in ours)
	kinds=$(awk '$2 == "A" && $4 == "B" && ($3 != $5 || $6 == "only") {
		s = sprintf(" %s=%s/%s", $1, $3, $5)
		if ($6 == "only") s = s sprintf("(-%s,+%s)", $9, $13)
		printf "%s", s }' "$b.diff")
	echo "$name differences: ${nd:-?} kinds:${kinds:- (same counts)}"
}
export -f build_one compare_one wait_ours

# objects
tr '\t' '\n' < "$LIST" | xargs -d '\n' -n 3 -P "$JOBS" bash -c 'build_one "$1" "$2" "$3"' _

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
					{ echo "pic-s$s-$cc COMPILE FAILED"; continue; }
				stale=1
			fi
			objs+=("$o")
		done
		if [ $stale = 1 ] || [ ! -e "$so" ]; then
			nice -n "$NICE" $cc -shared -nostdlib "${objs[@]}" -o "$so" ||
				{ echo "$so LINK FAILED"; continue; }
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
				{ echo "$out LINK FAILED"; continue; }
			echo "$kind$first-$last-$cc	$out" >> "$SOLIST"
		done
	done
done

# compare
{
	while IFS=$'\t' read -r name obj cmd; do
		[ -e "$obj" ] && printf '%s\t%s\n' "$name" "$obj"
	done < "$LIST"
	cat "$SOLIST"
} | tr '\t' '\n' | xargs -d '\n' -n 2 -P "$JOBS" bash -c 'compare_one "$1" "$2"' _ |
	tee "$OUT/results.txt"
