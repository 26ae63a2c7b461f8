/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DWARF_CU_LANG_H_
#define _DWARF_CU_LANG_H_ 1

/*
 * A unit's DW_AT_language read from its bytes (dwarf_cu_lang.c) by the
 * open's scan of the units, in a thread of its own: libdw's dwarf_srclang()
 * would have libdw find the unit DIE's abbreviation in its table of the
 * unit and allocate it.  Pure: any thread.
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

#endif /* _DWARF_CU_LANG_H_ */
