// SPDX-License-Identifier: GPL-2.0-only
/*
 * die_walk: die_reader's walk of every unit of a file against libdw's own.
 *
 *	die_walk FILE...
 *
 * Each unit of .debug_info is walked twice, depth first: once with
 * dwarf_child(), dwarf_siblingof() and dwarf_getattrs(), once with
 * die_reader__child(), die_reader__sibling() and die_reader__getattrs()
 * asked for every attribute.  The two must meet the same DIEs (address and
 * tag, and the same return codes at every step) and hand over the same
 * attributes (name, form, and where the value lies: libdw's own pointer,
 * in the DIE or, for an implicit constant, in the abbreviation); every
 * eighth DIE's lookups by name (die_reader__attr()) must find what
 * dwarf_attr() finds, and a DIE with children, once they are walked, must
 * have dwarf_tag()'s tag by its plan (die_reader__tag_of()).  Prints a
 * line per file (DIEs and attributes compared) and the first difference;
 * exit 0 when all agree, 1 on a difference, 2 on a file it cannot read.
 * Relocations are not applied: the walk reads offsets and forms, not the
 * relocated values.  Each unit's language is read from the bytes too
 * (dwarf_cu__lang(), as the open reads it), and must be dwarf_srclang()'s
 * where it is read so: some unit of each file must be.
 */
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>

#include "die_reader.h"
#include "dwarf_loader_priv.h"
#include "lib/darray.h"

/* One attribute handed over: what both walks must agree on. */
struct seen_attr {
	unsigned int name, form;
	const void *valp;
};

struct walk_log {
	DARRAY(struct seen_attr) attrs;
	int failed;
};

static int log_attr(Dwarf_Attribute *attr, void *arg)
{
	struct walk_log *log = arg;
	struct seen_attr *a = darray__push(&log->attrs);

	if (!a) {
		log->failed = -ENOMEM;
		return DWARF_CB_ABORT;
	}
	*a = (struct seen_attr){ attr->code, attr->form, attr->valp };
	return DWARF_CB_OK;
}

static unsigned int every_attr(unsigned int at, unsigned int form)
{
	(void)at;
	(void)form;
	return 1;
}

struct walker {
	const char *file;
	struct die_reader r;
	struct walk_log lib, ours;
	unsigned long dies, attrs, units, langs;
	bool differs;
};

static void differ(struct walker *w, Dwarf_Die *die, const char *what)
{
	if (!w->differs)
		printf("die_walk: %s: DIE at 0x%llx: %s\n", w->file,
		       (unsigned long long)dwarf_dieoffset(die), what);
	w->differs = true;
}

static bool same_attrs(const struct seen_attr *a, const struct seen_attr *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i].name != b[i].name || a[i].form != b[i].form || a[i].valp != b[i].valp)
			return false;
	return true;
}

/*
 * The attributes of @die, read both ways: the reader hands over libdw's
 * list, or, where it left a DIE to libdw half-way, the first k of it and
 * then libdw's whole list (die_reader.h: the callback may see one twice).
 */
static void walker__attrs(struct walker *w, Dwarf_Die *die)
{
	const struct seen_attr *lib, *ours;
	Dwarf_Die copy = *die;
	size_t n, k;

	w->lib.attrs.nr = 0;
	w->ours.attrs.nr = 0;
	dwarf_getattrs(&copy, log_attr, &w->lib, 0);
	die_reader__getattrs(&w->r, die, log_attr, &w->ours);
	lib = w->lib.attrs.data;
	ours = w->ours.attrs.data;
	n = w->lib.attrs.nr;
	k = w->ours.attrs.nr - n;
	if (w->ours.attrs.nr < n || k >= (n ?: 1) || !same_attrs(ours, lib, k) ||
	    !same_attrs(ours + k, lib, n))
		differ(w, die, "the attributes differ");
	w->attrs += n;
}

/*
 * die_reader__attr() against dwarf_attr() on @die, for each name of its
 * @n attributes @lib (libdw's list) and one it may lack: the first of a
 * name, or none, where libdw finds it.  For every eighth DIE.
 */
static void walker__lookups(struct walker *w, Dwarf_Die *die, const struct seen_attr *lib, size_t n)
{
	size_t i;

	for (i = 0; i <= n; i++) {
		unsigned int at = i < n ? lib[i].name : DW_AT_byte_size;
		Dwarf_Attribute a, b, *ours, *theirs;
		Dwarf_Die copy = *die;

		ours = die_reader__attr(&w->r, die, at, &a);
		theirs = dwarf_attr(&copy, at, &b);
		if (!ours != !theirs ||
		    (ours && (a.code != b.code || a.form != b.form || a.valp != b.valp))) {
			differ(w, die, "die_reader__attr() and dwarf_attr() differ");
			return;
		}
	}
}

/* Walks the children of @parent both ways, in step. */
static void walker__children(struct walker *w, Dwarf_Die *parent, unsigned int depth)
{
	Dwarf_Die lib, ours;
	int rl, ro;

	if (depth > 512 || w->differs)
		return;
	rl = dwarf_child(parent, &lib);
	ro = die_reader__child(&w->r, parent, &ours);
	for (;;) {
		if (rl != ro || (rl == 0 && lib.addr != ours.addr)) {
			differ(w, parent,
			       rl != ro ? "a child or sibling call's result differs" :
					  "a child or sibling is another DIE");
			return;
		}
		if (rl != 0)
			return;
		w->dies++;
		/* The reader's tag is its own reading of the abbreviation (die_reader_abbrev.c). */
		if (dwarf_tag(&lib) != die_reader__tag(&w->r, &ours)) {
			differ(w, &lib, "the tag differs");
			return;
		}
		walker__attrs(w, &ours);
		if (w->dies % 8 == 0)
			walker__lookups(w, &ours, w->lib.attrs.data, w->lib.attrs.nr);
		if (dwarf_haschildren(&lib) > 0) {
			walker__children(w, &ours, depth + 1);
			/* No longer the DIE just walked: its tag by the plan of its code. */
			if (!w->differs && die_reader__tag_of(&w->r, &ours) != dwarf_tag(&lib))
				differ(w, &lib, "die_reader__tag_of() and dwarf_tag() differ");
		}
		if (w->differs)
			return;
		rl = dwarf_siblingof(&lib, &lib);
		ro = die_reader__sibling(&w->r, &ours);
	}
}

/* The language of unit @cu, at @off of .debug_info (@info), read from its bytes against libdw. */
static void walker__lang(struct walker *w, Dwarf *dwarf, Dwarf_Off off, Dwarf_Die *cu,
			 const Elf_Data *info, const Elf_Data *abbrev, bool big_endian)
{
	struct dwarf_cu_bytes b = { .die = cu->addr, .big_endian = big_endian };
	Dwarf_Off next, abbrev_off;
	size_t header_size;
	int lang;

	w->units++;
	if (!info || !abbrev ||
	    dwarf_next_unit(dwarf, off, &next, &header_size, &b.version, &abbrev_off, &b.addr_size,
			    &b.offset_size, NULL, NULL) != 0 ||
	    next > info->d_size || abbrev_off >= abbrev->d_size)
		return;
	b.end = (const unsigned char *)info->d_buf + next;
	b.abbrev = (const unsigned char *)abbrev->d_buf + abbrev_off;
	b.abbrev_end = (const unsigned char *)abbrev->d_buf + abbrev->d_size;
	if (!dwarf_cu__lang(&b, &lang))
		return;
	w->langs++;
	if (lang != dwarf_srclang(cu))
		differ(w, cu, "the language read from the bytes differs");
}

static int walk_file(const char *file)
{
	struct walker w = { .file = file };
	Dwarf_Off off = 0, next;
	size_t header_size;
	Elf_Data *info = NULL, *abbrev = NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	Dwarf *dwarf;
	GElf_Ehdr ehdr;
	int fd, rc = 2;
	Elf *elf;

	fd = open(file, O_RDONLY);
	elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);
	dwarf = elf ? dwarf_begin_elf(elf, DWARF_C_READ, NULL) : NULL;
	if (!dwarf || !gelf_getehdr(elf, &ehdr) || elf_getshdrstrndx(elf, &shstrndx)) {
		printf("die_walk: %s: cannot read its DWARF\n", file);
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		const char *name =
			gelf_getshdr(scn, &shdr) ? elf_strptr(elf, shstrndx, shdr.sh_name) : NULL;

		if (name && !strcmp(name, ".debug_info"))
			info = elf_getdata(scn, NULL);
		else if (name && !strcmp(name, ".debug_abbrev"))
			abbrev = elf_getdata(scn, NULL);
	}
	die_reader__init(&w.r, info ? info->d_buf : NULL,
			 info ? (const unsigned char *)info->d_buf + info->d_size : NULL,
			 abbrev ? abbrev->d_buf : NULL,
			 abbrev ? (const unsigned char *)abbrev->d_buf + abbrev->d_size : NULL);
	while (!w.differs && dwarf_nextcu(dwarf, off, &next, &header_size, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dwarf, off + header_size, &cu)) {
			die_reader__begin_cu(&w.r, &cu, ehdr.e_ident[EI_DATA] == ELFDATA2MSB,
					     every_attr);
			w.dies++;
			walker__lang(&w, dwarf, off, &cu, info, abbrev,
				     ehdr.e_ident[EI_DATA] == ELFDATA2MSB);
			walker__attrs(&w, &cu);
			walker__children(&w, &cu, 0);
		}
		off = next;
	}
	if (!w.differs && !w.langs)
		printf("die_walk: %s: no unit's language read from the bytes (of %lu)\n", file,
		       w.units);
	rc = w.differs || !w.langs || w.lib.failed || w.ours.failed;
	if (!rc)
		printf("die_walk: %s: %lu DIEs, %lu attributes, %lu of %lu languages: the same\n",
		       file, w.dies, w.attrs, w.langs, w.units);
	die_reader__free(&w.r);
	darray__free(&w.lib.attrs);
	darray__free(&w.ours.attrs);
out:
	dwarf_end(dwarf);
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	return rc;
}

int main(int argc, char **argv)
{
	int i, rc = 0, one;

	if (argc < 2) {
		fprintf(stderr, "usage: die_walk FILE...\n");
		return 2;
	}
	elf_version(EV_CURRENT);
	for (i = 1; i < argc; i++) {
		one = walk_file(argv[i]);
		if (one > rc)
			rc = one;
	}
	return rc;
}
