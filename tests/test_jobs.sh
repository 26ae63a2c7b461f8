#!/usr/bin/env bash
# test_jobs: `pahole -J -jN` writes the same bytes whatever N is.
#
# Each input is encoded with --btf_features=default and -j1, -j2, -j3, -j8,
# -j16, -j64 (JOBS_LIST: more workers than chunks, too); every output must
# be byte for byte the -j1 one (cmp):
#   fixtures   each tests/fixtures/types_*.c, and sample.c, compiled -g -O2 -c
#              (gcc, or the compiler a "compilers:" line names): one CU each
#   multi-cu   many generated CUs sharing types and function names (static
#              functions of one name in every CU, some with differing
#              prototypes, out-of-line copies of header inlines) plus the
#              fixtures, as one relocatable (ld -r) and as an executable
#   lto        units that refer into each other, one CU shared out by chunks,
#              each taking the DIEs of others it refers to: gcc -flto (early
#              debug and LTRANS units), bad_xunit.py's three hand-made
#              units, test_rust's LTO objects (clang-22 ThinLTO and full
#              LTO with Rust's units, and modules shaped as rust_minimal.ko),
#              and a dwz'd object (units tied by DW_TAG_imported_unit)
#   modules    the corpus modules, split BTF on the reference vmlinux BTF
#   vmlinux    the corpus vmlinux, with true_signature too, and as v1.32
#              (the tests run as v1.31: tests/lib.sh), and VMLINUX_RUNS (3)
#              runs of -j8 must agree
# Each also at -j3 and -j1 with its chunks in parts (PAHOLE_SPLIT_CHUNKS: the
# back of each encoded apart, as a worker with no chunk left takes it from
# another); the multi-cu objects and vmlinux must have been parted.
# The corpus parts are skipped (with a note) when ../shared is missing.
#
# Under ThreadSanitizer (SANITIZER=thread, set by tests/CMakeLists.txt in a
# -DSANITIZE_THREAD=ON build) a TSan report fails the pahole run that made it
# (TSAN_OPTIONS exitcode=66), -j4 joins JOBS_LIST, and vmlinux, slow and big
# under TSan (~30 s and 2.2 GB a run), is encoded once with -j4 only (and
# global_var), to be checked for races (TEST_JOBS_VMLINUX=full: the whole
# vmlinux part as without TSan, =0: none).
#
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_pahole
make_tmp

VMLINUX_RUNS=${VMLINUX_RUNS:-3}
ENCODE_TIMEOUT=${ENCODE_TIMEOUT:-900}
SANITIZER=${SANITIZER:-}
if [ "$SANITIZER" = thread ]; then
	JOBS_LIST=${JOBS_LIST:-1 2 3 4 8}
	TEST_JOBS_VMLINUX=${TEST_JOBS_VMLINUX:-tsan}
	# A report makes pahole exit 66; keep an outer setting if there is one.
	export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1 exitcode=66}
	echo "note: ThreadSanitizer build; TSAN_OPTIONS=$TSAN_OPTIONS"
else
	JOBS_LIST=${JOBS_LIST:-1 2 3 8 16 64}
	TEST_JOBS_VMLINUX=${TEST_JOBS_VMLINUX:-full}
fi
FIXTURES=$SRCDIR/tests/fixtures

# now: seconds since the epoch, with decimals.
now()
{
	date +%s.%N
}

# elapsed START: seconds since START, one decimal.
elapsed()
{
	awk -v s="$1" -v e="$(now)" 'BEGIN { printf "%.1f", e - s }'
}

# encode LABEL OUT INPUT [OPTION...]: pahole -J OPTION... --btf_encode_detached=OUT
# --btf_features=default INPUT.  Counts a failure (with pahole's output, e.g.
# a TSan report) and returns 1 when pahole fails or writes nothing.
encode()
{
	local label=$1 out=$2 input=$3 rc
	shift 3
	timeout "$ENCODE_TIMEOUT" "$PAHOLE" -J "$@" --btf_features=default \
		--btf_encode_detached="$out" "$input" > "$out.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || [ ! -s "$out" ]; then
		if [ $rc -eq 66 ]; then
			not_ok "$label: ThreadSanitizer report (pahole $*)"
		elif [ $rc -eq 124 ]; then
			not_ok "$label: pahole $* timed out after $ENCODE_TIMEOUT s"
		else
			not_ok "$label: pahole $* exited $rc$([ -s "$out" ] || echo ", no output")"
		fi
		head -n 80 "$out.log" | sed 's/^/    | /'
		return 1
	fi
	if grep -q 'ThreadSanitizer' "$out.log"; then
		not_ok "$label: ThreadSanitizer report (pahole $*)"
		head -n 80 "$out.log" | sed 's/^/    | /'
		return 1
	fi
	return 0
}

# same_bytes LABEL REF OUT: OUT has the bytes of REF.
same_bytes()
{
	if cmp "$2" "$3" > "$3.cmp" 2>&1; then
		return 0
	fi
	not_ok "$1: $(basename "$3") differs from $(basename "$2"): $(head -n 1 "$3.cmp")"
	return 1
}

# same_as_first LABEL FIRST_VAR OUT INPUT [OPTION...]: encode INPUT into OUT;
# the first output (FIRST_VAR, a variable name, still empty) becomes the one
# that later outputs must equal byte for byte.
same_as_first()
{
	local label=$1 out=$3 input=$4
	local -n first_out=$2
	shift 4
	encode "$label" "$out" "$input" "$@" || return 1
	if [ -z "$first_out" ]; then
		first_out=$out
	else
		same_bytes "$label" "$first_out" "$out"
	fi
}

# jobs_agree LABEL INPUT [OPTION...]: encode INPUT with each -jN of JOBS_LIST,
# and at -j1 and -j3 with every chunk of two CUs and more in two parts, the
# second encoded apart as a worker that takes the back of another's chunk
# does (PAHOLE_SPLIT_CHUNKS, dwarf_chunks.c); one "ok" line when every output
# has the bytes of the first.  JOBS_PARTS: the parts the -j1 split run took
# (its -V line), for the caller to check that there were some.
jobs_agree()
{
	local label=$1 input=$2 name first="" out n bad=0 start list=""
	shift 2
	name=$(echo "$label" | tr -c 'A-Za-z0-9_.\n-' '_')
	start=$(now)
	for n in $JOBS_LIST; do
		list+="${list:+, }-j$n"
		out=$TMP/$name.j$n.btf
		same_as_first "$label -j$n" first "$out" "$input" -j"$n" "$@" || bad=1
	done
	JOBS_PARTS=
	for n in 3 1; do
		list+=", -j$n in parts"
		out=$TMP/$name.split.j$n.btf
		PAHOLE_SPLIT_CHUNKS=1 same_as_first "$label -j$n, chunks in parts" first "$out" \
			"$input" -j"$n" -V "$@" || bad=1
		JOBS_PARTS=$(sed -n 's/^pahole: parts of chunks taken: \([0-9]*\),.*/\1/p' "$out.log")
	done
	[ $bad -eq 0 ] && [ -n "$first" ] &&
		ok "$label: $list ($JOBS_PARTS parts) give the same $(stat -c %s "$first") bytes ($(elapsed "$start") s)"
	rm -f "$TMP/$name".j*.btf "$TMP/$name".j*.btf.log "$TMP/$name".split.*
	return $bad
}

# parts_taken LABEL: the last jobs_agree's split run took parts of chunks.
parts_taken()
{
	if [ "${JOBS_PARTS:-0}" -gt 0 ]; then
		ok "$1: the split run took $JOBS_PARTS parts of chunks"
	else
		not_ok "$1: the split run took no part of a chunk (-V: '${JOBS_PARTS:-no line}')"
	fi
}

# compile SRC OBJ: compile a fixture with -g -O2 -c, with gcc unless its
# "compilers:" line leaves gcc out.
compile()
{
	local src=$1 obj=$2 only cc=gcc
	only=$(sed -n 's/.*compilers: *\([a-z ]*\).*/\1/p' "$src" | head -n 1)
	if [ -n "$only" ] && [[ " $only " != *" gcc "* ]]; then
		cc=${only%% *}
	fi
	if ! command -v "$cc" > /dev/null; then
		note_skip "$(basename "$src"): $cc is not installed"
		return 2
	fi
	if ! "$cc" -g -O2 -c "$src" -o "$obj" > "$obj.err" 2>&1; then
		not_ok "$(basename "$src"): $cc -g -O2 -c failed"
		sed 's/^/    /' "$obj.err"
		return 1
	fi
}

command -v gcc > /dev/null || skip "gcc is not installed"

# --- fixtures: one CU each ----------------------------------------------------

FIXTURE_OBJS=()
for src in "$FIXTURES"/types_*.c "$FIXTURES/sample.c"; do
	[ -f "$src" ] || continue
	fixture=$(basename "$src" .c)
	obj=$TMP/$fixture.o
	compile "$src" "$obj" || continue
	FIXTURE_OBJS+=("$obj")
	jobs_agree "$fixture" "$obj"
done
[ ${#FIXTURE_OBJS[@]} -gt 0 ] || die "no fixture compiled"

# --- many CUs -----------------------------------------------------------------

# gen_multi_cu DIR N: N C files sharing common.h, and main.c.
gen_multi_cu()
{
	local dir=$1 n=$2 i
	mkdir -p "$dir"
	cat > "$dir/common.h" <<-'EOF'
	struct shared_list { struct shared_list *next, *prev; };
	struct shared_obj {
		struct shared_list node;
		unsigned long flags;
		int (*op)(struct shared_obj *obj, int arg);
		union { long l; double d; } u;
		char name[16];
	};
	typedef struct shared_obj shared_obj_t;
	enum shared_state { SHARED_IDLE, SHARED_BUSY = 4, SHARED_DEAD = -1 };

	/* An out-of-line copy in every CU that calls it: one name, many addresses. */
	static inline __attribute__((noinline)) int header_helper(struct shared_obj *obj, int v)
	{
		return obj->name[v & 15] + (int)obj->flags;
	}
	int shared_global(struct shared_obj *obj, enum shared_state st);
	extern int shared_counter;
	EOF
	for ((i = 0; i < n; i++)); do
		cat > "$dir/cu$i.c" <<-EOF
		#include "common.h"
		struct cu${i}_priv { shared_obj_t *obj; int id; unsigned int bits : $((i % 7 + 1)); };
		struct cu${i}_priv cu${i}_privs[$((i + 1))];
		int cu${i}_value = $i;
		/* Static, one name in every CU; the prototype changes every third CU. */
		static __attribute__((noinline)) int local_fn($([ $((i % 3)) -eq 0 ] && echo long || echo int) x, struct cu${i}_priv *p)
		{
			return (int)x + p->id + header_helper(p->obj, (int)x);
		}
		/* Static, one name and one prototype in every CU. */
		static __attribute__((noinline)) long same_fn(struct shared_obj *obj, int v)
		{
			return obj->u.l * v + shared_counter;
		}
		int cu${i}_entry(struct shared_obj *obj, int v)
		{
			cu${i}_privs[0].obj = obj;
			cu${i}_privs[0].id = v;
			return local_fn(v, &cu${i}_privs[0]) + (int)same_fn(obj, v) + shared_global(obj, SHARED_BUSY);
		}
		EOF
	done
	{
		echo '#include "common.h"'
		echo 'int shared_counter;'
		echo 'int shared_global(struct shared_obj *obj, enum shared_state st) { return obj ? (int)st : 0; }'
		for ((i = 0; i < n; i++)); do
			echo "int cu${i}_entry(struct shared_obj *obj, int v);"
		done
		echo 'int main(int argc, char **argv) { struct shared_obj o = { 0 }; int r = 0; (void)argv;'
		for ((i = 0; i < n; i++)); do
			echo "	r += cu${i}_entry(&o, argc);"
		done
		echo '	return r & 1; }'
	} > "$dir/main.c"
}

# Enough CUs for many chunks (dwarf_loader.h), so that workers share the work.
NR_CUS=${NR_CUS:-150}
MC=$TMP/multi
gen_multi_cu "$MC" "$NR_CUS"
MC_OBJS=()
for src in "$MC"/*.c; do
	obj=${src%.c}.o
	if ! gcc -g -O2 -c "$src" -o "$obj" > "$obj.err" 2>&1; then
		sed 's/^/    /' "$obj.err"
		die "cannot compile the generated $(basename "$src")"
	fi
	MC_OBJS+=("$obj")
done
if ld -r -o "$TMP/multi_rel.o" "${MC_OBJS[@]}" "${FIXTURE_OBJS[@]}" 2> "$TMP/ld.err"; then
	jobs_agree "multi-cu relocatable ($((${#MC_OBJS[@]} + ${#FIXTURE_OBJS[@]})) CUs)" "$TMP/multi_rel.o"
	parts_taken "multi-cu relocatable"
else
	not_ok "multi-cu relocatable: ld -r failed"
	sed 's/^/    /' "$TMP/ld.err"
fi
if gcc -g -O2 -o "$TMP/multi_exe" "${MC_OBJS[@]}" "${FIXTURE_OBJS[@]}" 2> "$TMP/link.err"; then
	jobs_agree "multi-cu executable ($((${#MC_OBJS[@]} + ${#FIXTURE_OBJS[@]})) CUs + crt)" "$TMP/multi_exe"
	# Split BTF over a base, as for a module: the workers' chunks all meet that base.
	if encode "multi-cu base" "$TMP/multi_base.btf" "$MC/cu0.o" -j1; then
		jobs_agree "multi-cu relocatable, split over a base" "$TMP/multi_rel.o" \
			--btf_base "$TMP/multi_base.btf"
		parts_taken "multi-cu relocatable, split over a base"
	fi
else
	not_ok "multi-cu executable: gcc link failed"
	sed 's/^/    /' "$TMP/link.err"
fi

# Units that refer into each other (LTO): one CU shared out by chunks.
if gcc -g -O2 -flto -flto-partition=max -fPIC -nostdlib -shared \
   -o "$TMP/lto.so" "$SRCDIR/tests/fixtures/funcs_lto.c" "$MC"/cu[0-9].c 2> "$TMP/lto.err"; then
	jobs_agree "gcc -flto shared object, units merged" "$TMP/lto.so"
	PAHOLE_COMPAT=v1.32 jobs_agree "gcc -flto shared object, units merged, v1.32" "$TMP/lto.so"
else
	not_ok "gcc -flto shared object: compiling or linking failed"
	sed 's/^/    /' "$TMP/lto.err"
fi
# dwz's partial units, imported (DW_TAG_imported_unit): the same path, a unit a chunk.
if command -v dwz > /dev/null; then
	gcc -g -O2 -fPIC -nostdlib -shared "$FIXTURES/dwz_a.c" "$FIXTURES/dwz_b.c" \
		-o "$TMP/dwz.so" && dwz "$TMP/dwz.so" || die "cannot build dwz.so"
	PAHOLE_COMPAT=v1.32 jobs_agree "dwz'd object, partial units imported" "$TMP/dwz.so"
else
	note_skip "dwz is not installed: the imported partial units"
fi
python3 "$FIXTURES/bad_xunit.py" ok > "$TMP/xunit.s" && gcc -c "$TMP/xunit.s" -o "$TMP/xunit.o" ||
	die "cannot make bad_xunit.py's ok"
jobs_agree "three units referring into each other, a chunk each" "$TMP/xunit.o"
mkdir "$TMP/rust"
tar -xJf "$FIXTURES/rust/objects.tar.xz" -C "$TMP/rust" || die "cannot unpack rust/objects.tar.xz"
for f in "$TMP"/rust/objects/lto-thin-rfirst "$TMP"/rust/objects/lto-full-cfirst \
	"$TMP"/rust/objects/lto-xlang-cfirst "$TMP"/rust/objects/mod-thin-rfirst-note.o; do
	PAHOLE_COMPAT=v1.32 jobs_agree "LTO with Rust: $(basename "$f")" "$f"
	PAHOLE_COMPAT=v1.32 jobs_agree "LTO with Rust: $(basename "$f"), --lang_exclude=rust" "$f" \
		--lang_exclude=rust
done

# --- the corpus ---------------------------------------------------------------

if [ ! -e "$SHARED/tools/corpus" ]; then
	[ "${CI:-}" = true ] && die "corpus not available (../shared missing) under CI=true"
	note_skip "corpus: not available (../shared missing)"
	finish
fi
corpus=$(corpus_dir) || exit
BASE=$corpus/reference/vmlinux.default.btf

for m in virtio_blk nf_conntrack fuse; do
	jobs_agree "module $m" "$corpus/modules/$m.ko" --btf_base "$BASE"
done

vmlinux=$corpus/vmlinux-6.1.0-57-cloud-amd64
if [ "$TEST_JOBS_VMLINUX" = 0 ]; then
	note_skip "vmlinux: left out (TEST_JOBS_VMLINUX=0)"
elif [ "$TEST_JOBS_VMLINUX" = tsan ]; then
	note_skip "vmlinux: one -j4 run only under ThreadSanitizer (TEST_JOBS_VMLINUX=full: all)"
	start=$(now)
	# global_var and true_signature too: the workers encode every variable
	# and read every parameter's locations as well.
	encode "vmlinux -j4" "$TMP/vmlinux.j4.btf" "$vmlinux" -j4 \
		--btf_features=global_var,true_signature &&
		ok "vmlinux: -j4 (default,global_var,true_signature) encodes without a ThreadSanitizer report ($(elapsed "$start") s)"
	rm -f "$TMP/vmlinux.j4.btf"
else
	jobs_agree vmlinux "$vmlinux"
	parts_taken vmlinux
	jobs_agree "vmlinux, true_signature" "$vmlinux" --btf_features=true_signature
	# The later release's rules (arrays, FUNCs) in the same chunks.
	PAHOLE_COMPAT=v1.32 jobs_agree "vmlinux, v1.32" "$vmlinux"
	parts_taken "vmlinux, v1.32"
	# Repeated runs with the most threads: scheduling differs every time.
	start=$(now)
	bad=0
	ref=""
	for ((r = 1; r <= VMLINUX_RUNS; r++)); do
		out=$TMP/vmlinux.j8.run$r.btf
		same_as_first "vmlinux -j8 run $r" ref "$out" "$vmlinux" -j8 || bad=1
		[ "$out" = "$ref" ] || rm -f "$out"
	done
	[ $bad -eq 0 ] && [ -n "$ref" ] &&
		ok "vmlinux: $VMLINUX_RUNS runs of -j8 give the same bytes ($(elapsed "$start") s)"
fi

finish
