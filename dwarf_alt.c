// SPDX-License-Identifier: GPL-2.0-only
/*
 * A dwz alternate file and the partial units a file imports from it: see
 * dwarf_alt.h.  The forms are those of dwz and of the GNU DWARF extensions
 * (DW_FORM_GNU_ref_alt, 0x1f20); libdw resolves them (dwarf_formref_die()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>
#include <gelf.h>

#include <dwarf.h>

#include "dwarf_alt.h"
#include "lib/elf_scn.h"
#include "lib/leb128.h"
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

	if ((form == DW_FORM_GNU_ref_alt || form == DW_FORM_ref_sup4 || form == DW_FORM_ref_sup8 ||
	     form == DW_FORM_ref_addr) &&
	    dwarf_alt__ref_die(attr, &target))
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

/* The path of @name, in @dir unless it is absolute, in *@out (to free). */
static int sup_path(const char *dir, const char *name, char **out)
{
	if (name[0] == '/' || !dir)
		*out = strdup(name);
	else if (asprintf(out, "%s/%s", dir, name) < 0)
		*out = NULL;
	return *out ? 0 : -ENOMEM;
}

/* @dwarf's supplementary file opened from @path, for libdw to read strings in (dwarf_setalt()). */
static int dwarf_alt__open_sup(struct dwarf_alt *a, Dwarf *dwarf, const char *path)
{
	a->sup_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (a->sup_fd < 0)
		return errno == ENOMEM ? -ENOMEM : 0;
	a->sup = dwarf_begin(a->sup_fd, DWARF_C_READ);
	if (!a->sup) {
		close(a->sup_fd);
		a->sup_fd = -1;
		return 0;
	}
	dwarf_setalt(dwarf, a->sup);
	a->dwarf = a->sup;
	return 0;
}

/*
 * A DWARF 5 supplementary file (.debug_sup, dwz -5 -m's), which libdw
 * 0.188 does not look for (dwarf_getalt() reads .gnu_debugaltlink alone):
 * the file the section names, absolute or beside the file @path, else by
 * the checksum dwz puts there, the build ID, under /usr/lib/debug/.build-id,
 * as libdw finds a dwz alternate file.  The section: its version (2 bytes,
 * 5), is_supplementary (1, 0 here), the file name, then the checksum
 * (ULEB128 length, bytes).
 */
static int dwarf_alt__find_sup(struct dwarf_alt *a, Dwarf *dwarf, const char *path)
{
	const unsigned char *p, *end;
	char *dir = NULL, *file = NULL, *slash;
	uint64_t len = 0;
	Elf_Data *data;
	Elf_Scn *scn;
	GElf_Shdr shdr;
	int err = 0;
	size_t i;

	if (elf_scn__find(dwarf_getelf(dwarf), ".debug_sup", &scn, &shdr) ||
	    !(data = elf_getdata(scn, NULL)) || data->d_size < 4)
		return 0;
	p = data->d_buf;
	end = p + data->d_size;
	if (p[0] != 5 || p[1] != 0 || p[2] != 0 || !memchr(p + 3, '\0', end - (p + 3)))
		return 0;
	a->link = (const char *)p + 3;
	p += 3 + strlen(a->link) + 1;
	dir = path ? strdup(path) : NULL;
	if (dir && (slash = strrchr(dir, '/')))
		*slash = '\0';
	else if (dir)
		strcpy(dir, ".");
	err = sup_path(dir, a->link, &file) ?: dwarf_alt__open_sup(a, dwarf, file);
	free(file);
	free(dir);
	if (err || a->dwarf || !leb128__read(&p, end, &len, false) || len < 2 ||
	    len > (uint64_t)(end - p))
		return err;
	/* By build ID: .build-id/XX/REST.debug. */
	file = malloc(sizeof("/usr/lib/debug/.build-id//.debug") + 2 * len);
	if (!file)
		return -ENOMEM;
	i = sprintf(file, "/usr/lib/debug/.build-id/%02x/", p[0]);
	for (p++, len--; len; p++, len--)
		i += sprintf(file + i, "%02x", p[0]);
	strcpy(file + i, ".debug");
	err = dwarf_alt__open_sup(a, dwarf, file);
	free(file);
	return err;
}

int dwarf_alt__find(struct dwarf_alt *a, Dwarf *dwarf, const char *path)
{
	struct alt_scan s = { .alt = a };
	Dwarf_CU *cu = NULL;
	Dwarf_Die cu_die;
	const void *build_id;
	size_t i;
	int err;

	memset(a, 0, sizeof(*a));
	a->sup_fd = -1;
	if (dwelf_dwarf_gnu_debugaltlink(dwarf, &a->link, &build_id) <= 0)
		a->link = NULL;
	if (a->link)
		a->dwarf = dwarf_getalt(dwarf);
	else if ((err = dwarf_alt__find_sup(a, dwarf, path)))
		return err;
	if (!a->dwarf)
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
	/* After the file's Dwarf, as dwarf_setalt() asks. */
	if (a->sup)
		dwarf_end(a->sup);
	if (a->sup_fd >= 0)
		close(a->sup_fd);
	a->sup = NULL;
	a->sup_fd = -1;
}

Dwarf_Die *dwarf_alt__ref_die(Dwarf_Attribute *attr, Dwarf_Die *out)
{
	unsigned int form = dwarf_whatform(attr), size = form == DW_FORM_ref_sup4 ? 4 : 8;
	unsigned char b[8];
	const char *ident;
	bool big_endian;
	uint64_t off = 0;
	unsigned int i;
	Dwarf *alt;
	Elf *elf;

	if (form != DW_FORM_ref_sup4 && form != DW_FORM_ref_sup8)
		return dwarf_formref_die(attr, out);
	/* libdw 0.188 takes the offset in the file's own .debug_info: read it here. */
	alt = dwarf_getalt(dwarf_cu_getdwarf(attr->cu));
	elf = dwarf_getelf(dwarf_cu_getdwarf(attr->cu));
	if (!alt || !elf || !attr->valp)
		return NULL;
	ident = elf_getident(elf, NULL);
	big_endian = ident && ident[EI_DATA] == ELFDATA2MSB;
	memcpy(b, attr->valp, size);
	for (i = 0; i < size; i++)
		off = off << 8 | b[big_endian ? i : size - 1 - i];
	return dwarf_offdie(alt, off, out);
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
