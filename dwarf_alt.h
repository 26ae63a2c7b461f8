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
	Dwarf *dwarf; /* libdw's, closed with the file's Dwarf; NULL when none was found */
	const char *link; /* the alternate file .gnu_debugaltlink names, or NULL */
	/* The partial units of the alternate file the file imports, in their order there. */
	DARRAY(Dwarf_Die) units;
};

/*
 * Finds the alternate file of @dwarf, if it names one, and the partial
 * units of it that @dwarf needs.  0, or -ENOMEM.
 */
int dwarf_alt__find(struct dwarf_alt *alt, Dwarf *dwarf);
void dwarf_alt__free(struct dwarf_alt *alt);

/* The size of the alternate file's .debug_info, or 0. */
uint64_t dwarf_alt__info_size(const struct dwarf_alt *alt);

#endif /* _DWARF_ALT_H_ */
