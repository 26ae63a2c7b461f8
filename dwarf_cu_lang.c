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

#include "die_reader.h"
#include "dwarf_cu_lang.h"
#include "lib/dwarf_form.h"
#include "lib/leb128.h"

/* Moves *@p past the value of @form, which runs to @end at most; false if it cannot. */
static bool skip_value(const struct dwarf_cu_bytes *u, unsigned int form, const unsigned char **p,
		       const unsigned char *end)
{
	uint8_t size = dwarf_form__fixed_size(form, u->addr_size, u->offset_size, u->version);
	uint64_t v;

	if (size != DWARF_FORM_VARIES) {
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

/*
 * The form of @u's unit DIE attribute @at and where its value lies, as
 * dwarf_attr() finds them (the first @at of the abbreviation; an implicit
 * constant's value in the abbreviation); false when the DIE has none or
 * something is unusual (a form not sized here before it).
 */
static bool dwarf_cu__attr(const struct dwarf_cu_bytes *u, unsigned int at, unsigned int *form,
			   const unsigned char **valp)
{
	const unsigned char *p = u->die, *a = u->abbrev, *implicit;
	uint64_t code, c, tag, name, f, v;

	if (!leb128__read(&p, u->end, &code, false) || !code)
		return false;
	/* The unit DIE's abbreviation: an assembler's first, gcc's late (its codes go by use). */
	for (;;) {
		if (!leb128__read(&a, u->abbrev_end, &c, false) || !c ||
		    !leb128__read(&a, u->abbrev_end, &tag, false) || a++ >= u->abbrev_end)
			return false;
		if (c == code)
			break;
		do {
			if (!leb128__read(&a, u->abbrev_end, &name, false) ||
			    !leb128__read(&a, u->abbrev_end, &f, false) ||
			    (f == DW_FORM_implicit_const &&
			     !leb128__read(&a, u->abbrev_end, &v, true)))
				return false;
		} while (name || f);
	}
	for (;;) {
		if (!leb128__read(&a, u->abbrev_end, &name, false) ||
		    !leb128__read(&a, u->abbrev_end, &f, false) || (!name && !f))
			return false;
		implicit = a;
		if (f == DW_FORM_implicit_const && !leb128__read(&a, u->abbrev_end, &v, true))
			return false;
		if (name == at) {
			*form = f;
			/* libdw's attribute points at an implicit constant's value in the abbreviation. */
			*valp = f == DW_FORM_implicit_const ? implicit : p;
			return true;
		}
		if (!skip_value(u, f, &p, u->end))
			return false;
	}
}

bool dwarf_cu__lang(const struct dwarf_cu_bytes *u, int *lang)
{
	const unsigned char *valp;
	unsigned int form;
	uint64_t v;

	if (!dwarf_cu__attr(u, DW_AT_language, &form, &valp) ||
	    !die_reader__constant(form, valp,
				  form == DW_FORM_implicit_const ? u->abbrev_end : u->end,
				  u->big_endian, &v))
		return false;
	/* dwarf_srclang() takes what dwarf_formudata() reads, as an int. */
	*lang = (int)v;
	return true;
}
