// SPDX-License-Identifier: GPL-2.0-only
/*
 * The language of a unit read from its bytes at open (see abbrev_scan in
 * dwarf_loader_priv.h): what dwarf_srclang() says, without libdw finding
 * and allocating the unit DIE's abbreviation in a thread of the open,
 * which took 0.1 s of a 7.2 vmlinux's 3,000 units.  Only the forms unit
 * DIEs are seen to have (gcc's, clang's, rustc's) are sized; anything else
 * is left to libdw.
 */
#include <string.h>

#include <dwarf.h>

#include "dwarf_loader_priv.h"
#include "lib/leb128.h"

/* The @size-byte unsigned value at @p, in the file's byte order. */
static uint64_t fixed(const unsigned char *p, unsigned int size, bool big_endian)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[big_endian ? size - 1 - i : i] << (8 * i);
	return v;
}

/* The size of a value of @form that does not vary, 0 for none, -1 for one that varies or is not sized. */
static int form_size(const struct dwarf_cu_bytes *u, unsigned int form)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1:
	case DW_FORM_flag:
	case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2:
	case DW_FORM_strx2:
	case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3:
	case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4:
	case DW_FORM_strx4:
	case DW_FORM_addrx4:
		return 4;
	case DW_FORM_data8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return u->addr_size;
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_sec_offset:
	case DW_FORM_strp_sup:
	case DW_FORM_GNU_strp_alt:
		return u->offset_size;
	default:
		return -1;
	}
}

/* Moves *@p past the value of @form, which runs to @end at most; false if it cannot. */
static bool skip_value(const struct dwarf_cu_bytes *u, unsigned int form, const unsigned char **p,
		       const unsigned char *end)
{
	int size = form_size(u, form);
	uint64_t v;

	if (size >= 0) {
		if (end - *p < size)
			return false;
		*p += size;
		return true;
	}
	switch (form) {
	case DW_FORM_udata:
	case DW_FORM_sdata:
	case DW_FORM_strx:
	case DW_FORM_addrx:
		return leb128__read(p, end, &v, false);
	case DW_FORM_string: {
		const unsigned char *nul = memchr(*p, '\0', end - *p);

		if (!nul)
			return false;
		*p = nul + 1;
		return true;
	}
	default:
		return false;
	}
}

/* The constant of @form at @p (..@end), or of the abbreviation's @implicit, as dwarf_formudata() reads it. */
static bool read_constant(const struct dwarf_cu_bytes *u, unsigned int form, const unsigned char *p,
			  const unsigned char *end, int64_t implicit, uint64_t *v)
{
	switch (form) {
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
		if (end - p < form_size(u, form))
			return false;
		*v = fixed(p, form_size(u, form), u->big_endian);
		return true;
	case DW_FORM_udata:
		return leb128__read(&p, end, v, false);
	case DW_FORM_sdata:
		return leb128__read(&p, end, v, true);
	case DW_FORM_implicit_const:
		*v = implicit;
		return true;
	default:
		return false;
	}
}

bool dwarf_cu__lang(const struct dwarf_cu_bytes *u, int *lang)
{
	const unsigned char *p = u->die, *a = u->abbrev;
	uint64_t code, c, tag, name, form, v;
	int64_t implicit = 0;

	if (!leb128__read(&p, u->end, &code, false) || !code)
		return false;
	/* The unit DIE's abbreviation: most often the table's first. */
	for (;;) {
		if (!leb128__read(&a, u->abbrev_end, &c, false) || !c ||
		    !leb128__read(&a, u->abbrev_end, &tag, false) || a++ >= u->abbrev_end)
			return false;
		if (c == code)
			break;
		do {
			if (!leb128__read(&a, u->abbrev_end, &name, false) ||
			    !leb128__read(&a, u->abbrev_end, &form, false) ||
			    (form == DW_FORM_implicit_const &&
			     !leb128__read(&a, u->abbrev_end, &v, true)))
				return false;
		} while (name || form);
	}
	for (;;) {
		if (!leb128__read(&a, u->abbrev_end, &name, false) ||
		    !leb128__read(&a, u->abbrev_end, &form, false) || (!name && !form))
			return false;
		if (form == DW_FORM_implicit_const &&
		    !leb128__read(&a, u->abbrev_end, (uint64_t *)&implicit, true))
			return false;
		if (name == DW_AT_language) {
			/* dwarf_srclang() takes what dwarf_formudata() reads, as an int. */
			if (!read_constant(u, form, p, u->end, implicit, &v))
				return false;
			*lang = (int)v;
			return true;
		}
		if (!skip_value(u, form, &p, u->end))
			return false;
	}
}
