// SPDX-License-Identifier: GPL-2.0-only
/*
 * A dwz alternate file and the partial units a file imports from it: see
 * dwarf_alt.h.  The forms are those of dwz and of the GNU DWARF extensions
 * (DW_FORM_GNU_ref_alt, 0x1f20); libdw resolves them (dwarf_formref_die()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdwelf.h>

#include <dwarf.h>

#include "dwarf_alt.h"
#include "lib/ptr_map.h"

struct alt_scan {
	struct dwarf_alt *alt;
	struct ptr_map seen; /* the units added, by offset + 1 */
	int err;
};

/* Adds the unit of the alternate file that @target is in, once. */
static void alt_scan__add(struct alt_scan *s, Dwarf_Die *target)
{
	Dwarf_Die unit, *slot;
	uint32_t v;
	void *key;

	if (dwarf_cu_getdwarf(target->cu) != s->alt->dwarf ||
	    !dwarf_diecu(target, &unit, NULL, NULL) || dwarf_tag(&unit) != DW_TAG_partial_unit)
		return;
	key = (void *)(uintptr_t)(dwarf_dieoffset(&unit) + 1);
	if (ptr_map__find(&s->seen, key, &v))
		return;
	if (ptr_map__add(&s->seen, key, 0) || !(slot = darray__push(&s->alt->units)))
		s->err = -ENOMEM;
	else
		*slot = unit;
}

/* A reference into the alternate file, from the file or within the alternate file. */
static int alt_scan__attr(Dwarf_Attribute *attr, void *arg)
{
	struct alt_scan *s = arg;
	unsigned int form = dwarf_whatform(attr);
	Dwarf_Die target;

	if ((form == DW_FORM_GNU_ref_alt || form == DW_FORM_ref_addr) &&
	    dwarf_formref_die(attr, &target))
		alt_scan__add(s, &target);
	return s->err ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/* Every DIE of @die's subtree: the units they refer to in the alternate file. */
static void alt_scan__walk(struct alt_scan *s, Dwarf_Die *die, int depth)
{
	Dwarf_Die child;

	/*
	 * Nothing of inlined expansions and call sites is read for BTF, by
	 * v1.32 or by us: what only they refer to is not loaded (measured).
	 */
	switch (dwarf_tag(die)) {
	case DW_TAG_inlined_subroutine:
	case DW_TAG_call_site:
	case DW_TAG_GNU_call_site:
		return;
	default:
		break;
	}
	dwarf_getattrs(die, alt_scan__attr, s, 0);
	if (s->err || depth > 256 || dwarf_child(die, &child) != 0)
		return;
	do
		alt_scan__walk(s, &child, depth + 1);
	while (!s->err && dwarf_siblingof(&child, &child) == 0);
}

/* The units alternate unit @unit imports (its DW_TAG_imported_unit children). */
static void alt_scan__imports(struct alt_scan *s, Dwarf_Die *unit)
{
	Dwarf_Attribute attr;
	Dwarf_Die child;

	if (dwarf_child(unit, &child) != 0)
		return;
	do {
		if (dwarf_tag(&child) == DW_TAG_imported_unit &&
		    dwarf_attr(&child, DW_AT_import, &attr))
			alt_scan__attr(&attr, s);
	} while (!s->err && dwarf_siblingof(&child, &child) == 0);
}

static int die_cmp(const void *a, const void *b)
{
	Dwarf_Off x = dwarf_dieoffset((Dwarf_Die *)a), y = dwarf_dieoffset((Dwarf_Die *)b);

	return x < y ? -1 : x > y;
}

int dwarf_alt__find(struct dwarf_alt *a, Dwarf *dwarf)
{
	struct alt_scan s = { .alt = a };
	Dwarf_CU *cu = NULL;
	Dwarf_Die cu_die;
	size_t i;

	const void *build_id;

	memset(a, 0, sizeof(*a));
	if (dwelf_dwarf_gnu_debugaltlink(dwarf, &a->link, &build_id) <= 0)
		a->link = NULL;
	if (!a->link || !(a->dwarf = dwarf_getalt(dwarf)))
		return 0;
	while (!s.err && dwarf_get_units(dwarf, cu, &cu, NULL, NULL, &cu_die, NULL) == 0)
		alt_scan__walk(&s, &cu_die, 0);
	/*
	 * What those import in turn, those found on the way included; not
	 * what their DIEs refer to (v1.32 does not load those units: measured,
	 * the types that refer into them are void there).
	 */
	for (i = 0; !s.err && i < a->units.nr; i++) {
		Dwarf_Die unit = a->units.data[i];

		alt_scan__imports(&s, &unit);
	}
	ptr_map__free(&s.seen);
	if (!s.err)
		qsort(a->units.data, a->units.nr, sizeof(*a->units.data), die_cmp);
	return s.err;
}

void dwarf_alt__free(struct dwarf_alt *a)
{
	darray__free(&a->units);
}

uint64_t dwarf_alt__info_size(const struct dwarf_alt *a)
{
	Dwarf_Off off = 0, next;
	size_t header_size;

	if (!a->dwarf)
		return 0;
	while (dwarf_next_unit(a->dwarf, off, &next, &header_size, NULL, NULL, NULL, NULL, NULL,
			       NULL) == 0)
		off = next;
	return off;
}
