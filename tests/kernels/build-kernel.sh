#!/usr/bin/env bash
# build-kernel.sh - build a small clang-compiled Linux kernel (6.1 or 7.2:
# vmlinux + a few modules) with DWARF debug info, as input for BTF encoder
# comparisons (our encoder vs. upstream `pahole -J`), and with PAHOLE set, a
# kernel whose own scripts encode its BTF with that pahole.
#
# Usage:
#   tests/kernels/build-kernel.sh ARCH OUTDIR [scripts/config args...]
#     ARCH    x86_64 | arm64
#     OUTDIR  work directory; the kernel source is unpacked into
#             OUTDIR/linux-source-$KVER (only if not already there) and the
#             results are copied to OUTDIR/out/:
#               out/vmlinux, out/*.ko, out/config, out/System.map
#
# Environment:
#   EXTRA_CONFIG  extra scripts/config arguments, applied after the base
#                 config, e.g.
#                   EXTRA_CONFIG="--enable LTO_CLANG_THIN --disable LTO_NONE"
#                 (extra command-line arguments after OUTDIR are appended)
#   DWARF         4 (default) | 5 | default  (toolchain default DWARF version)
#   JOBS          parallel make jobs (default: nproc)
#   KVER          the kernel: 6.1 (default) or 7.2
#   KSRC_TARBALL  default /usr/src/linux-source-$KVER.tar.xz (Debian's
#                 linux-source-6.1; 7.2's is sid's: tests/kernels/sid-tools.sh
#                 fetches it, with bindgen)
#   LLVM          the kernel's LLVM= (default 1: clang, lld...; -22:
#                 clang-22, ld.lld-22... from this Debian release's updates)
#   RUST          1: Rust in the kernel (7.2): RUST, the rust_minimal sample
#                 as a module; needs RUSTC (default /usr/bin/rustc, Debian's
#                 rustc-web, with rust-web-src) and BINDGEN (sid-tools.sh's
#                 wrapper of sid's bindgen 0.72)
#   RUST_LTO      1: drop `&& !LTO` from the RUST entry of init/Kconfig, so
#                 that RUST may be built with LTO and BTF (the tree in OUTDIR
#                 is changed; give such a build an OUTDIR of its own)
#   PAHOLE        a pahole to build the kernel's own BTF with: turns on
#                 DEBUG_INFO_BTF, DEBUG_INFO_BTF_MODULES and what a boot
#                 with an initramfs needs (tests/kernels/boot-btf.sh), and
#                 also builds the boot image (out/bzImage or out/Image)
#
# Requirements (Debian 12):
#   apt-get install linux-source-6.1 clang lld llvm bc bison flex \
#                   libssl-dev libelf-dev make gcc xz-utils file
#   7.2: clang-22 lld-22 llvm-22 (LLVM=-22; 7.2 wants LLVM 15 or later);
#   with RUST=1 also rustc-web rust-web-src libclang-22-dev.
#   No cross gcc is needed for arm64: LLVM makes clang use --target.
#
# The config starts from `tinyconfig` and turns on BPF, ftrace/kprobes,
# networking (INET, netfilter), block, a few filesystems, virtio, a serial
# driver and module support, so the DWARF has a realistic mix of types and
# functions. DEBUG_INFO_BTF is OFF (the build needs no pahole);
# DEBUG_INFO_REDUCED/SPLIT/COMPRESSED are OFF so vmlinux carries plain,
# full .debug_info. Note: without DEBUG_INFO_BTF the kernel's .BTF_ids
# section (kfunc sets) is empty/absent. Optimisation is -O2, not tinyconfig's -Os.
#
# Time on 2 cores (nice -n 10, clang 14): about 12-13 min per arch from
# scratch (measured: x86_64 11m24s, arm64 13m01s, incl. ~20 s unpacking);
# re-runs are incremental. Disk: ~2.2 GiB per OUTDIR (source + objects).

set -euo pipefail

usage() { sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }

[[ $# -ge 2 ]] || usage
ARCH=$1
OUTDIR=$2
shift 2

case "$ARCH" in
x86_64) SERIAL=SERIAL_8250 ;;
arm64)  SERIAL=SERIAL_AMBA_PL011 ;;
-h|--help) usage 0 ;;
*) echo "error: ARCH must be x86_64 or arm64 (got '$ARCH')" >&2; exit 2 ;;
esac

DWARF=${DWARF:-4}
JOBS=${JOBS:-$(nproc)}
KVER=${KVER:-6.1}
KSRC_TARBALL=${KSRC_TARBALL:-/usr/src/linux-source-$KVER.tar.xz}
LLVM=${LLVM:-1}

mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
KSRC=$OUTDIR/linux-source-$KVER

log() { printf '[build-kernel %s] %s\n' "$(date +%T)" "$*"; }
START=$SECONDS

# ---- 1. unpack the source (once) --------------------------------------------
if [[ ! -f $KSRC/Makefile ]]; then
	[[ -f $KSRC_TARBALL ]] || {
		echo "error: $KSRC_TARBALL missing (apt-get install linux-source-$KVER)" >&2
		exit 1
	}
	log "unpacking $KSRC_TARBALL into $OUTDIR"
	tar -xJf "$KSRC_TARBALL" -C "$OUTDIR"
fi

if [[ ${RUST_LTO:-} == 1 ]] && grep -q '^	depends on !DEBUG_INFO_BTF || (PAHOLE_HAS_LANG_EXCLUDE && !LTO)$' "$KSRC/init/Kconfig"; then
	# A Rust kernel may have LTO and BTF where pahole leaves out Rust's
	# units when LTO ties them to C's: ours does (README, Rust).
	log "init/Kconfig: RUST without '&& !LTO'"
	sed -i 's/^\(	depends on !DEBUG_INFO_BTF || (PAHOLE_HAS_LANG_EXCLUDE\) && !LTO)$/\1)/' \
		"$KSRC/init/Kconfig"
fi

KMAKE=(make -C "$KSRC" LLVM="$LLVM" ARCH="$ARCH")
BTF_CONFIG=(--disable DEBUG_INFO_BTF)
RUST_CONFIG=()
if [[ ${RUST:-} == 1 ]]; then
	KMAKE+=(RUSTC="${RUSTC:-/usr/bin/rustc}" BINDGEN="${BINDGEN:?RUST=1 wants BINDGEN}")
	RUST_CONFIG=(--enable RUST --enable SAMPLES --enable SAMPLES_RUST
		--module SAMPLE_RUST_MINIMAL)
fi
TARGETS=(vmlinux modules)
if [[ -n ${PAHOLE:-} ]]; then
	# The kernel's link runs this pahole -J on vmlinux and every module.
	KMAKE+=(PAHOLE="$PAHOLE")
	BTF_CONFIG=(--enable DEBUG_INFO_BTF --enable DEBUG_INFO_BTF_MODULES
		--disable MODULE_ALLOW_BTF_MISMATCH
		--enable BLK_DEV_INITRD --enable DEVTMPFS --enable EARLY_PRINTK)
	case "$ARCH" in
	x86_64) TARGETS+=(bzImage) ;;
	arm64) TARGETS+=(Image) ;;
	esac
fi
CFG=(bash "$KSRC/scripts/config" --file "$KSRC/.config")

# ---- 2. configuration -------------------------------------------------------
log "tinyconfig (ARCH=$ARCH)"
"${KMAKE[@]}" tinyconfig >/dev/null

case "$DWARF" in
4)       DWARF_OPT=DEBUG_INFO_DWARF4 ;;
5)       DWARF_OPT=DEBUG_INFO_DWARF5 ;;
default) DWARF_OPT=DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT ;;
*) echo "error: DWARF must be 4, 5 or default" >&2; exit 2 ;;
esac

BASE_CONFIG=(
	# core
	--enable 64BIT --enable PRINTK --enable BUG --enable MULTIUSER
	--enable CC_OPTIMIZE_FOR_PERFORMANCE --disable CC_OPTIMIZE_FOR_SIZE
	--enable MODULES --enable MODULE_UNLOAD
	--enable BINFMT_ELF --enable BINFMT_SCRIPT
	# debug info: full DWARF in vmlinux, no BTF (so no pahole needed)
	--enable DEBUG_KERNEL --disable DEBUG_INFO_NONE --enable "$DWARF_OPT"
	--disable DEBUG_INFO_REDUCED --disable DEBUG_INFO_SPLIT
	--disable DEBUG_INFO_COMPRESSED "${BTF_CONFIG[@]}"
	# BPF
	--enable BPF --enable BPF_SYSCALL --enable BPF_JIT
	# tracing
	--enable PERF_EVENTS --enable FTRACE --enable FUNCTION_TRACER
	--enable DYNAMIC_FTRACE --enable KPROBES --enable KPROBE_EVENTS
	--enable BPF_EVENTS
	# filesystems / block
	--enable BLOCK --enable FILE_LOCKING --enable PROC_FS --enable SYSFS
	--enable SHMEM --enable TMPFS --module FUSE_FS
	# networking
	--enable NET --enable UNIX --enable PACKET --enable INET
	--enable NETFILTER --enable NETFILTER_ADVANCED --module NF_CONNTRACK
	--enable NETDEVICES --enable NET_CORE
	# virtio / PCI
	--enable PCI --enable VIRTIO_MENU --enable VIRTIO --enable VIRTIO_PCI
	--module VIRTIO_BLK --module VIRTIO_NET
	# console
	--enable TTY --enable "$SERIAL" --enable "${SERIAL}_CONSOLE"
	${RUST_CONFIG[@]+"${RUST_CONFIG[@]}"}
)

EXTRA=()
if [[ -n ${EXTRA_CONFIG:-} ]]; then
	read -r -a EXTRA <<<"$EXTRA_CONFIG"
fi
EXTRA+=("$@")

log "applying config options${EXTRA[*]:+ (extra: ${EXTRA[*]})}"
"${CFG[@]}" "${BASE_CONFIG[@]}" ${EXTRA[@]+"${EXTRA[@]}"}
"${KMAKE[@]}" olddefconfig >/dev/null

# Report options that olddefconfig dropped (unmet dependencies); the core
# ones are fatal.
check_opts() { # args: scripts/config args
	local want=() i=0 args=("$@") st bad=0
	while ((i < ${#args[@]})); do
		case ${args[i]} in
		--enable|-e) want+=("${args[i+1]}=y") ;;
		--module|-m) want+=("${args[i+1]}=m") ;;
		--disable|-d) want+=("${args[i+1]}=n") ;;
		--set-val) want+=("${args[i+1]}=${args[i+2]}"); ((++i)) ;;
		*) ((i += 1)); continue ;;
		esac
		((i += 2))
	done
	for w in "${want[@]}"; do
		st=$("${CFG[@]}" --state "${w%%=*}")
		case $st in undef) st=n ;; esac
		[[ $st == "${w#*=}" ]] && continue
		echo "warning: wanted CONFIG_$w, got '$st'" >&2
		bad=1
	done
	return $bad
}
check_opts "${BASE_CONFIG[@]}" ${EXTRA[@]+"${EXTRA[@]}"} || true
for opt in 64BIT BPF_SYSCALL DEBUG_INFO FTRACE FUNCTION_TRACER MODULES; do
	[[ $("${CFG[@]}" --state "$opt") == y ]] || {
		echo "error: CONFIG_$opt is not set after olddefconfig" >&2
		exit 1
	}
done
if [[ -n ${PAHOLE:-} ]]; then
	[[ $("${CFG[@]}" --state DEBUG_INFO_BTF) == y ]] || {
		echo "error: CONFIG_DEBUG_INFO_BTF is not set with PAHOLE=$PAHOLE" >&2
		exit 1
	}
elif [[ $("${CFG[@]}" --state DEBUG_INFO_BTF) == y ]]; then
	echo "error: CONFIG_DEBUG_INFO_BTF got enabled (would need pahole)" >&2
	exit 1
fi

# ---- 3. build ---------------------------------------------------------------
log "building vmlinux and modules with -j$JOBS"
"${KMAKE[@]}" -j"$JOBS" "${TARGETS[@]}"

# ---- 4. collect results -----------------------------------------------------
rm -rf "$OUTDIR/out"
mkdir -p "$OUTDIR/out"
cp "$KSRC/vmlinux" "$KSRC/System.map" "$OUTDIR/out/"
cp "$KSRC/.config" "$OUTDIR/out/config"
for img in arch/x86/boot/bzImage arch/arm64/boot/Image; do
	[[ ${PAHOLE:-} && -f $KSRC/$img ]] && cp "$KSRC/$img" "$OUTDIR/out/"
done
find "$KSRC" -name '*.ko' -type f -exec cp -t "$OUTDIR/out/" {} +

if ! readelf -S "$OUTDIR/out/vmlinux" | grep -q '\.debug_info'; then
	echo "error: vmlinux has no .debug_info" >&2
	exit 1
fi

log "done in $(((SECONDS - START) / 60))m$(((SECONDS - START) % 60))s:"
ls -l "$OUTDIR/out/"
