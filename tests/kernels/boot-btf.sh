#!/usr/bin/env bash
# boot-btf.sh - boot a kernel that build-kernel.sh built with PAHOLE=ours
# (so its .BTF and its modules' are ours) in qemu, and check that the
# kernel took them: /sys/kernel/btf/vmlinux is there, and each module loads
# (the kernel verifies a module's BTF on load and, without
# MODULE_ALLOW_BTF_MISMATCH, refuses the module if it is bad) and has its
# /sys/kernel/btf/MODULE.
#
# Usage:
#   tests/kernels/boot-btf.sh OUTDIR
#     OUTDIR  what build-kernel.sh made (x86_64): OUTDIR/out/bzImage, *.ko
#
# Needs qemu-system-x86 and busybox-static (Debian packages); BOOT_KVM=1
# uses KVM (off by default: emulation boots the small kernel in seconds,
# and a nested KVM can hang).  Prints the guest's "btf:" lines and a last line
# "boot-btf: ok" or "boot-btf: FAILED (...)", and exits 0 or 1.
set -euo pipefail
out=${1:?usage: boot-btf.sh OUTDIR}/out
busybox=$(command -v busybox || true)
[ -f "$out/bzImage" ] || { echo "boot-btf: no $out/bzImage (build with PAHOLE=...)" >&2; exit 2; }
[ -n "$busybox" ] && file -L "$busybox" | grep -q 'statically linked' ||
	{ echo "boot-btf: needs a static busybox (apt-get install busybox-static)" >&2; exit 2; }
command -v qemu-system-x86_64 > /dev/null ||
	{ echo "boot-btf: needs qemu-system-x86_64 (apt-get install qemu-system-x86)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

root=$tmp/root
mkdir -p "$root"/{bin,dev,proc,sys,modules,tmp}
cp "$busybox" "$root/bin/busybox"
cp "$out"/*.ko "$root/modules/" 2> /dev/null || true
cat > "$root/init" << 'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2> /dev/null
fail=0
if [ -s /sys/kernel/btf/vmlinux ]; then
	echo "btf: vmlinux $(wc -c < /sys/kernel/btf/vmlinux) bytes"
else
	echo "btf: no /sys/kernel/btf/vmlinux"
	fail=1
fi
# Load the modules, again and again while some wait for others they need.
left=$(ls /modules)
pass=0
while [ -n "$left" ] && [ $pass -lt 16 ]; do
	next=""
	for m in $left; do
		if insmod "/modules/$m" 2> "/tmp/$m.err"; then
			name=$(echo "${m%.ko}" | tr - _)
			if [ -s "/sys/kernel/btf/$name" ]; then
				echo "btf: module $name $(wc -c < "/sys/kernel/btf/$name") bytes"
			else
				echo "btf: module $name loaded without /sys/kernel/btf/$name"
				fail=1
			fi
		else
			next="$next $m"
		fi
	done
	left=$next
	pass=$((pass + 1))
done
for m in $left; do
	echo "btf: module $m not loaded: $(cat "/tmp/$m.err")"
	fail=1
done
dmesg | grep -i 'btf' | grep -iv 'btf: module' | sed 's/^/btf: dmesg: /' | head -n 20
echo "btf-result: $fail"
# Without ACPI poweroff only halts; a reboot ends qemu (-no-reboot).
reboot -f
EOF
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet) > "$tmp/initramfs.cpio"

accel=()
[ "${BOOT_KVM:-0}" = 1 ] && accel=(-enable-kvm)
timeout 300 qemu-system-x86_64 "${accel[@]}" -m 512 -nographic -no-reboot \
	-kernel "$out/bzImage" -initrd "$tmp/initramfs.cpio" \
	-append "console=ttyS0 panic=-1" > "$tmp/console" 2>&1 || true
grep -a '^btf' "$tmp/console" | tr -d '\r' | sed 's/^/  /' || true
if grep -aq '^btf-result: 0' "$tmp/console"; then
	echo "boot-btf: ok"
	exit 0
fi
echo "boot-btf: FAILED (last console lines below)"
tail -n 30 "$tmp/console" | tr -d '\r' | sed 's/^/  | /'
exit 1
