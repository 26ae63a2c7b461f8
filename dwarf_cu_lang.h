/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DWARF_CU_LANG_H_
#define _DWARF_CU_LANG_H_ 1

/*
 * A unit's DW_AT_language read from its bytes (dwarf_cu_lang.c), by the
 * open's scan of the units and by die_reader for the unit it starts on:
 * libdw's dwarf_srclang() has libdw find the unit DIE's abbreviation in
 * its table of the unit and allocate it, and its memory for the unit's
 * abbreviations (on 7.2's vmlinux, a tenth of the page faults of a -j1
 * run).  Pure: any thread.
 */
#include <stdbool.h>
#include <stdint.h>

/* A unit DIE and its abbreviation table, to read its language. */
struct dwarf_cu_bytes {
	const unsigned char *die, *end; /* the unit DIE, and where the unit ends */
	const unsigned char *abbrev, *abbrev_end; /* its table, and where .debug_abbrev ends */
	uint8_t addr_size, offset_size;
	uint16_t version;
	bool big_endian;
};

/*
 * Reads @u's DW_AT_language into *@lang as dwarf_srclang() would, from the
 * bytes (dwarf_cu_lang.c); false when something is unusual: libdw is then
 * to say.
 */
bool dwarf_cu__lang(const struct dwarf_cu_bytes *u, int *lang);

/*
 * The form of @u's unit DIE attribute @at and where its value lies, as
 * dwarf_attr() finds them (the first @at of the abbreviation; an implicit
 * constant's value in the abbreviation); false when the DIE has none or
 * something is unusual (a form not sized here before it): libdw is then to
 * say.
 */
bool dwarf_cu__attr(const struct dwarf_cu_bytes *u, unsigned int at, unsigned int *form,
		    const unsigned char **valp);

#endif /* _DWARF_CU_LANG_H_ */
