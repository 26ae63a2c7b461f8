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
 * starts: libdw opens the alternate file itself (dwarf_getalt(): the path
 * the section names, absolute or beside the file, else by build ID under
 * /usr/lib/debug/.build-id), which changes state that the workers then
 * only read.  Read-only afterwards.
 */
#include <stdbool.h>
#include <elfutils/libdw.h>

#include "lib/darray.h"

struct dwarf_alt {
	Dwarf *dwarf; /* libdw's, or @sup; NULL when none was found */
	const char *link; /* the file .gnu_debugaltlink or .debug_sup names, or NULL */
	/* A supplementary file (.debug_sup), which we open: ended after the file's Dwarf. */
	Dwarf *sup;
	int sup_fd;
	/* The partial units of the alternate file the file imports, in their order there. */
	DARRAY(Dwarf_Die) units;
};

/*
 * Finds the alternate file of @dwarf (read from the file @path), if it
 * names one, and the partial units of it that @dwarf needs.  0, or
 * -ENOMEM.  Call dwarf_alt__free() after ending @dwarf.
 */
int dwarf_alt__find(struct dwarf_alt *alt, Dwarf *dwarf, const char *path);
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
