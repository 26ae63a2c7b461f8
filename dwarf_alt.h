/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DWARF_ALT_H_
#define _DWARF_ALT_H_ 1

/*
 * dwarf_alt: the dwz alternate file of a file (dwz -m writes the DIEs that
 * several files share into one file, which each names in
 * .gnu_debugaltlink and refers into with DW_FORM_GNU_ref_alt), and the
 * partial units of it that the file imports, directly or through another
 * of them.  Those units are what the file had before dwz; the others
 * belong to other files.
 *
 * DWARF 5's supplementary file is the same, named in .debug_sup and
 * referred into with DW_FORM_ref_sup4/8 (dwz -5 -m); we open it.
 *
 * Found by the main thread when the file is opened, before any worker
 * starts, and checked as any input is (a regular ELF file with DWARF libdw
 * can read, in the file's byte order and class, not the file itself): we
 * open it and make it libdw's (dwarf_setalt()), so that libdw never looks
 * for it itself (it would open whatever the section names, a FIFO too, and
 * wait).  Read-only afterwards.
 */
#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdw.h>

#include "elf_image.h"
#include "lib/darray.h"

struct dwarf_alt {
	/*
	 * The file's alternate file, NULL when it names none: opened by us, and
	 * ended (with @elf and @fd) after the file's Dwarf, as dwarf_setalt() asks.
	 */
	Dwarf *dwarf;
	Elf *elf;
	int fd;
	/* The file with its compressed sections decompressed (elf_image.h), which @elf reads. */
	struct elf_image image;
	char image_why[192]; /* why the image could not be made */
	const char *link; /* the file .gnu_debugaltlink or .debug_sup names, or NULL */
	/* The partial units of the alternate file the file imports, in their order there. */
	DARRAY(Dwarf_Die) units;
};

/*
 * The alternate or supplementary file that @dwarf's file (@path, its ELF
 * @elf, open as @fd) names, if it names one: found where libdw would look
 * (the build ID under /usr/lib/debug/.build-id, the name beside the file),
 * checked, and made libdw's alternate file of @dwarf.  0 when none is
 * named or it is found; else a negative errno, and in @why (@len bytes)
 * the file named and why it cannot be read (a directory, a FIFO, the file
 * itself, not found, ...).  Call dwarf_alt__free() after ending @dwarf.
 */
int dwarf_alt__open(struct dwarf_alt *alt, Dwarf *dwarf, Elf *elf, int fd, const char *path,
		    char *why, size_t len);

/* The partial units of the alternate file that @dwarf needs, in alt->units: 0 or -ENOMEM. */
int dwarf_alt__units(struct dwarf_alt *alt, Dwarf *dwarf);
void dwarf_alt__free(struct dwarf_alt *alt);

/*
 * The DIE @attr refers to, as dwarf_formref_die() gives it, but for
 * DW_FORM_ref_sup4/8, into the supplementary file, which libdw 0.188
 * resolves as an offset in the file's own .debug_info: looked up in the
 * alternate file here.  NULL when there is none.  Any thread, once found.
 */
Dwarf_Die *dwarf_alt__ref_die(Dwarf_Attribute *attr, Dwarf_Die *out);

/* The size of the alternate file's .debug_info, or 0. */
uint64_t dwarf_alt__info_size(const struct dwarf_alt *alt);

#endif /* _DWARF_ALT_H_ */
