#!/usr/bin/env bash
# The real kernels: encode the corpus 6.1 vmlinux with --btf_features=default,
# with no --btf_features and with default,global_var, the 6.12 vmlinux with
# Linux 6.12's options, and the 6.1 modules as split BTF (one also with Linux
# 6.1's options: default's bytes), and compare each with what
# pahole v1.31 encodes (../shared/reference) by meaning, with btfcanon; then
# the same in v1.32 mode (PAHOLE_COMPAT unset) against what pahole v1.32
# encodes (the corpus's reference/v1.32).  Skips without ../shared, fails
# without it under CI=true.
# TEST_FAST=1 (the sanitizer passes of make check, where a vmlinux encode
# is several times slower): the 6.1 vmlinux with global_var (every feature
# of default, and the variables) in v1.31 mode and with default in v1.32
# mode, and the modules in both; the other encodings are the plain pass's.

# The BTF kinds compared; empty compares every kind.
KINDS=${KINDS:-}
# Options given to every encoding, e.g. PAHOLE_JOBS=-j1 to encode serially.
PAHOLE_JOBS=${PAHOLE_JOBS:--j}
# Seconds one encoding may take before it counts as hung.
ENCODE_TIMEOUT=${ENCODE_TIMEOUT:-900}

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_corpus
need_pahole
make_tmp
corpus=$(corpus_dir) || exit
vmlinux=$corpus/vmlinux-6.1.0-57-cloud-amd64

# encode NAME REFERENCE [OPTIONS...]: encode vmlinux into $TMP/NAME.btf with
# OPTIONS and compare it with $corpus/reference/REFERENCE.
# verifier_verdict LOG: the last line of a BTF load log, type IDs taken out
# (ours and the reference number types differently).
verifier_verdict()
{
	grep -v -e '^--' -e '^[[:space:]]*$' "$1" | tail -n 1 |
		sed -E 's/type_id=[0-9]+/type_id=N/g; s/\[[0-9]+\]/[N]/g; s/^[[:space:]]+//'
}

encode()
{
	local name=$1 ref=$corpus/reference/$2 out=$TMP/$1.btf start end rc
	shift 2
	start=$(date +%s.%N)
	# shellcheck disable=SC2086 # PAHOLE_JOBS: zero or more words
	timeout "$ENCODE_TIMEOUT" "$PAHOLE" -J $PAHOLE_JOBS "$@" \
		--btf_encode_detached="$out" "$vmlinux" > "$TMP/$name.log" 2>&1
	rc=$?
	end=$(date +%s.%N)
	echo "== $name: pahole -J $PAHOLE_JOBS${*:+ $*} (exit $rc, $(awk "BEGIN { printf \"%.1f\", $end - $start }") s)"
	sed 's/^/	| /' "$TMP/$name.log" | head -n 20
	if [ "$rc" -ne 0 ]; then
		not_ok "$name: pahole exited $rc"
		return
	fi
	if [ ! -s "$out" ]; then
		not_ok "$name: no output written"
		return
	fi
	btfcanon summary ${BASE:+--base "$BASE"} "$out"
	# The kernel's verifier judges what we write (split BTF needs its base loaded: vmlinux only).
	if [ -z "${BASE:-}" ] && [ -x "${BTF_LOAD:-}" ]; then
		"$BTF_LOAD" "$out" > "$TMP/$name.load" 2>&1
		case $? in
		0) ok "$name: the kernel's BTF verifier accepts it" ;;
		77) echo "$name: the bpf syscall is refused here: kernel check skipped" ;;
		*)
			# global_var: the weak and strong bpf_*_proto sit at one offset
			# of .rodata, which the kernel rejects in v1.31's output too:
			# it must say the same of both (type IDs aside).
			"$BTF_LOAD" "$ref" > "$TMP/$name.refload" 2>&1
			why=$(verifier_verdict "$TMP/$name.load")
			if [ "$why" = "$(verifier_verdict "$TMP/$name.refload")" ]; then
				ok "$name: the kernel rejects it as it rejects $(basename "$ref"): $why"
			else
				not_ok "$name: the kernel rejects it: $why; $(basename "$ref"):" \
					"$(verifier_verdict "$TMP/$name.refload")"
			fi
			;;
		esac
	fi
	btfcanon diff "$ref" "$out" ${KINDS:+--kinds "$KINDS"} ${BASE:+--base-a "$BASE" --base-b "$BASE"} \
		--max 10 > "$TMP/$name.diff" 2>&1
	cat "$TMP/$name.diff"
	if grep -qx 'differences: 0' "$TMP/$name.diff"; then
		ok "$name: same ${KINDS:-all} types as pahole ${RELEASE:-v1.31}"
	else
		not_ok "$name: differs from $(basename "$ref") ($(grep '^differences:' "$TMP/$name.diff"))"
	fi
}

# full: whether this is the whole form (not TEST_FAST's).
full()
{
	[ "${TEST_FAST:-0}" != 1 ]
}
full && encode default vmlinux.default.btf --btf_features=default
full && encode plain vmlinux.plain.btf
encode global_var vmlinux.global_var.btf --btf_features=default,global_var
# The whole form's encodings of vmlinux, to "fi # full" (not indented: a
# Python program is among them).
if full; then
# layout (upstream after v1.31): the types of default, and a kind layout
# section of 80 bytes between the types and the strings: per kind, the bytes
# after struct btf_type, fixed and per vlen item, as in BTF's definition
# (Documentation/bpf/btf.rst); not for split BTF.
if "$PAHOLE" -J --btf_features=default,layout --btf_encode_detached="$TMP/layout.btf" \
   "$vmlinux" 2> "$TMP/layout.err" && [ ! -s "$TMP/layout.err" ]; then
	# The types and strings of default's output (compared by btfcanon
	# above), byte for byte.
	got=$(python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read()
hdr_len, = struct.unpack_from("<I", d, 4)
type_off, type_len, str_off, str_len, lay_off, lay_len = struct.unpack_from("<6I", d, 8)
ok = hdr_len == 32 and lay_off == type_off + type_len and str_off == lay_off + lay_len
p = open(sys.argv[2], "rb").read()
p_hdr, = struct.unpack_from("<I", p, 4)
p_toff, p_tlen, p_soff, p_slen = struct.unpack_from("<4I", p, 8)
same = (d[hdr_len + type_off:hdr_len + type_off + type_len] == p[p_hdr + p_toff:p_hdr + p_toff + p_tlen]
        and d[hdr_len + str_off:hdr_len + str_off + str_len] == p[p_hdr + p_soff:p_hdr + p_soff + p_slen])
print(ok, same, " ".join("%d/%d/%d" % struct.unpack_from("<BBH", d, hdr_len + lay_off + i)
                         for i in range(0, lay_len, 4)))' "$TMP/layout.btf" "$TMP/default.btf")
	# UNKN INT PTR ARRAY STRUCT UNION ENUM FWD TYPEDEF VOLATILE CONST RESTRICT
	# FUNC FUNC_PROTO VAR DATASEC FLOAT DECL_TAG TYPE_TAG ENUM64
	want="True True 0/0/0 4/0/0 0/0/0 12/0/0 0/12/0 0/12/0 0/8/0 0/0/0 0/0/0 0/0/0 0/0/0 0/0/0"
	want+=" 0/0/0 0/8/0 4/0/0 0/12/0 0/0/0 4/0/0 0/0/0 0/12/0"
	check "layout: default's types and strings, and an 80-byte section of the 20 kinds between them" \
		test "$got" = "$want"
else
	not_ok "layout: pahole failed: $(head -n 2 "$TMP/layout.err")"
fi

# Linux 6.12's scripts/Makefile.btf, on its kernel.
vmlinux=$corpus/vmlinux-6.12.117+deb12-cloud-amd64 encode linux612 vmlinux-6.12.default.btf \
	--btf_features=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs \
	--lang_exclude=rust

# true_signature (upstream after v1.31): what it changes against our default
# is what it changes in upstream 1436daf's output (tests/sig_delta.py).
# sig_delta NAME DEFAULT_BTF REFERENCE_GZ VMLINUX
sig_delta()
{
	local name=$1 dflt=$2 ref=$3 in=$4

	# shellcheck disable=SC2086 # PAHOLE_JOBS: zero or more words
	if ! "$PAHOLE" -J $PAHOLE_JOBS --btf_features=default,true_signature \
	     --btf_encode_detached="$TMP/$name.btf" "$in" 2> "$TMP/$name.err"; then
		not_ok "$name: pahole failed: $(head -n 2 "$TMP/$name.err")"
		return
	fi
	btfcanon diff --max 1000000 "$dflt" "$TMP/$name.btf" > "$TMP/$name.diff"
	btfcanon canon "$dflt" > "$TMP/$name.canon"
	check "$name: changes what it changes upstream" \
		python3 "$(dirname "$0")/sig_delta.py" "$ref" "$TMP/$name.diff" "$TMP/$name.canon"
}
sig_delta true_signature "$TMP/default.btf" \
	"$(dirname "$0")/fixtures/true_signature/vmlinux-6.1.upstream-1436daf.gz" \
	"$corpus/vmlinux-6.1.0-57-cloud-amd64"
sig_delta true_signature612 "$TMP/linux612.btf" \
	"$(dirname "$0")/fixtures/true_signature/vmlinux-6.12.upstream-1436daf.gz" \
	"$corpus/vmlinux-6.12.117+deb12-cloud-amd64"
fi # full

# Modules: split BTF on the reference vmlinux BTF.
BASE=$corpus/reference/vmlinux.default.btf
for m in virtio_blk nf_conntrack fuse; do
	vmlinux=$corpus/modules/$m.ko encode "$m" "$m.default.btf" --btf_features=default \
		--btf_base "$BASE"
done
# What Linux 6.1's scripts/pahole-flags.sh passes: the same BTF as default
# (on a module: the same options, a tenth of vmlinux's time).
"$PAHOLE" -J --btf_gen_floats --lang_exclude=rust --skip_encoding_btf_inconsistent_proto \
	--btf_gen_optimized --btf_base "$BASE" --btf_encode_detached="$TMP/linux61.btf" \
	"$corpus/modules/nf_conntrack.ko"
check "linux61: the same bytes as --btf_features=default (nf_conntrack)" \
	cmp -s "$TMP/nf_conntrack.btf" "$TMP/linux61.btf"
# No layout section in split BTF: the same bytes as without the feature.
"$PAHOLE" -J --btf_features=default,layout --btf_base "$BASE" \
	--btf_encode_detached="$TMP/fuse.layout.btf" "$corpus/modules/fuse.ko"
check "layout: split BTF (fuse) has none" cmp -s "$TMP/fuse.btf" "$TMP/fuse.layout.btf"
# Nor does true_signature change a module, upstream's or ours: in ET_REL the
# DWARF's addresses are not the symbols' values, so no clone matches one.
for m in virtio_blk nf_conntrack fuse; do
	"$PAHOLE" -J --btf_features=default,true_signature --btf_base "$BASE" \
		--btf_encode_detached="$TMP/$m.ts.btf" "$corpus/modules/$m.ko"
	check "true_signature: $m unchanged" cmp -s "$TMP/$m.btf" "$TMP/$m.ts.btf"
done

# v1.32, our default, against its references.
echo "=== v1.32"
unset PAHOLE_COMPAT BASE
RELEASE=v1.32
[ -d "$corpus/reference/v1.32" ] || die "no $corpus/reference/v1.32 (../shared/tools/corpus unpacks it)"
vmlinux=$corpus/vmlinux-6.1.0-57-cloud-amd64
encode default.v1.32 v1.32/vmlinux.default.btf --btf_features=default
if full; then
	encode plain.v1.32 v1.32/vmlinux.plain.btf
	encode global_var.v1.32 v1.32/vmlinux.global_var.btf --btf_features=default,global_var
	vmlinux=$corpus/vmlinux-6.12.117+deb12-cloud-amd64 encode linux612.v1.32 \
		v1.32/vmlinux-6.12.default.btf \
		--btf_features=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs \
		--lang_exclude=rust
fi
BASE=$corpus/reference/v1.32/vmlinux.default.btf
for m in virtio_blk nf_conntrack fuse; do
	vmlinux=$corpus/modules/$m.ko encode "$m.v1.32" "v1.32/$m.default.btf" --btf_features=default \
		--btf_base "$BASE"
done

finish
