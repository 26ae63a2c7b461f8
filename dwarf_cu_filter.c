// SPDX-License-Identifier: GPL-2.0-only
/* Which units are encoded (--lang, --lang_exclude, -X): see dwarf_loader.h. */
#include <stdbool.h>
#include <string.h>

#include <elfutils/libdw.h>

#include "dwarf_loader.h"

static bool lang_listed(const int *langs, int lang)
{
	for (; langs && *langs; langs++)
		if (*langs == lang)
			return true;
	return false;
}

const char *dwarf_cu_filter__why(const struct dwarf_cu_filter *filter, Dwarf_Die *cu_die)
{
	return filter ? dwarf_cu_filter__why_lang(filter, cu_die, dwarf_srclang(cu_die)) : NULL;
}

const char *dwarf_cu_filter__why_lang(const struct dwarf_cu_filter *filter, Dwarf_Die *cu_die,
				      int lang)
{
	const char *name;

	if (!filter)
		return NULL;
	if (lang_listed(filter->lang_exclude, lang))
		return "language excluded";
	if (filter->lang_include && *filter->lang_include &&
	    !lang_listed(filter->lang_include, lang))
		return "language not included";
	/* The unit's name only when asked for: reading it is a lookup of libdw's, under a lock. */
	if (!filter->name_exclude)
		return NULL;
	name = dwarf_diename(cu_die);
	if (!name || !strncmp(name, filter->name_exclude, strlen(filter->name_exclude)))
		return "name excluded";
	return NULL;
}

bool dwarf_cu_filter__excludes(const struct dwarf_cu_filter *filter, Dwarf_Die *cu_die)
{
	return dwarf_cu_filter__why(filter, cu_die) != NULL;
}
