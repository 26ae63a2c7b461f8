// SPDX-License-Identifier: GPL-2.0-only
/* The ELF symbol table and section headers, copied out of libelf once. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "elf_symtab.h"
#include "lib/elfutils.h"
#include "lib/populate.h"
#include "lib/zpages.h"

struct elf_symtab {
	struct elf_sym *syms;
	size_t nr_syms, syms_cap;
	struct elf_section *sections;
	size_t nr_sections;
	int relocatable;
	char *names; /* after elf_symtab__own_names(): every name, copied */
};

/*
 * Reads the section headers; sets *@symtab_scn to .symtab and *@xndx_scn to
 * the SHT_SYMTAB_SHNDX section linked to it, which holds the section index of
 * each symbol whose st_shndx is SHN_XINDEX (in files of 65,280 sections or more).
 */
static int elf_symtab__read_sections(struct elf_symtab *st, Elf *elf, Elf_Scn **symtab_scn,
				     Elf_Scn **xndx_scn)
{
	size_t shstrndx, nr;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0 || elf_getshdrnum(elf, &nr) != 0)
		return -EINVAL;
	st->sections = calloc(nr ?: 1, sizeof(*st->sections));
	if (!st->sections)
		return -ENOMEM;
	st->nr_sections = nr;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		struct elf_section *s = &st->sections[elf_ndxscn(scn)];
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr))
			return -EINVAL;
		s->name = elf_strptr(elf, shstrndx, shdr.sh_name) ?: "";
		s->addr = shdr.sh_addr;
		s->size = shdr.sh_size;
		s->flags = shdr.sh_flags;
		s->type = shdr.sh_type;
		s->index = elf_ndxscn(scn);
		if (shdr.sh_type == SHT_SYMTAB)
			*symtab_scn = scn;
		s->link = shdr.sh_link;
	}
	for (scn = NULL; *symtab_scn && (scn = elf_nextscn(elf, scn)) != NULL;) {
		struct elf_section *s = &st->sections[elf_ndxscn(scn)];

		if (s->type == SHT_SYMTAB_SHNDX && s->link == elf_ndxscn(*symtab_scn))
			*xndx_scn = scn;
	}
	return 0;
}

static int elf_symtab__read_syms(struct elf_symtab *st, Elf *elf, Elf_Scn *scn, Elf_Scn *xndx_scn)
{
	Elf_Data *data = elf_getdata(scn, NULL), *xdata = NULL;
	GElf_Shdr shdr;
	size_t i, nr;

	if (!data || !gelf_getshdr(scn, &shdr) || !shdr.sh_entsize)
		return -EINVAL;
	if (xndx_scn && !(xdata = elf_getdata(xndx_scn, NULL)))
		return -EINVAL;
	nr = shdr.sh_size / shdr.sh_entsize;
	st->syms = zpages__alloc((nr ?: 1) * sizeof(*st->syms));
	if (!st->syms)
		return -ENOMEM;
	st->syms_cap = nr ?: 1;
	for (i = 0; i < nr; i++) {
		struct elf_sym *s = &st->syms[st->nr_syms];
		Elf32_Word xndx;
		GElf_Sym sym;

		if (!gelf_getsymshndx(data, xdata, i, &sym, &xndx))
			return -EINVAL;
		s->name = elf_strptr(elf, shdr.sh_link, sym.st_name);
		if (!s->name)
			continue;
		s->addr = s->value = sym.st_value;
		s->size = sym.st_size;
		s->shndx = sym.st_shndx == SHN_XINDEX ? xndx : sym.st_shndx;
		s->type = GELF_ST_TYPE(sym.st_info);
		s->bind = GELF_ST_BIND(sym.st_info);
		/*
		 * In a relocatable file values are offsets in their section:
		 * make them addresses in the layout the DWARF was relocated to.
		 */
		if (st->relocatable && s->shndx && s->shndx < st->nr_sections)
			s->addr += st->sections[s->shndx].addr;
		st->nr_syms++;
	}
	return 0;
}

int elf_symtab__new(Elf *elf, struct elf_symtab **out)
{
	struct elf_symtab *st = calloc(1, sizeof(*st));
	Elf_Scn *symtab_scn = NULL, *xndx_scn = NULL;
	GElf_Ehdr ehdr;
	int err;

	*out = NULL;
	if (!st)
		return -ENOMEM;
	errno = 0;
	err = gelf_getehdr(elf, &ehdr) ? 0 : -EINVAL;
	st->relocatable = ehdr.e_type == ET_REL;
	err = err ?: elf_symtab__read_sections(st, elf, &symtab_scn, &xndx_scn);
	if (!err && !symtab_scn)
		err = -ENOENT;
	err = err ?: elf_symtab__read_syms(st, elf, symtab_scn, xndx_scn);
	if (err == -EINVAL)
		err = elfutils__err(err);
	if (err) {
		elf_symtab__delete(st);
		return err;
	}
	*out = st;
	return 0;
}

/* Copies @s to *@p and moves *@p past its NUL: the copy (NULL stays NULL). */
static const char *names__put(char **p, const char *s)
{
	const char *copy = *p;

	if (!s)
		return NULL;
	*p = stpcpy(*p, s) + 1;
	return copy;
}

int elf_symtab__own_names(struct elf_symtab *st)
{
	size_t len = 0, i;
	char *p;

	for (i = 0; i < st->nr_syms; i++)
		len += strlen(st->syms[i].name) + 1;
	for (i = 0; i < st->nr_sections; i++)
		len += st->sections[i].name ? strlen(st->sections[i].name) + 1 : 0;
	st->names = p = malloc(len ?: 1);
	if (!p)
		return -ENOMEM;
	populate__write(p, len);
	for (i = 0; i < st->nr_syms; i++)
		st->syms[i].name = names__put(&p, st->syms[i].name);
	for (i = 0; i < st->nr_sections; i++)
		st->sections[i].name = names__put(&p, st->sections[i].name);
	return 0;
}

void elf_symtab__delete(struct elf_symtab *st)
{
	if (!st)
		return;
	free(st->names);
	zpages__free(st->syms, st->syms_cap * sizeof(*st->syms));
	free(st->sections);
	free(st);
}

size_t elf_symtab__nr_syms(const struct elf_symtab *st)
{
	return st->nr_syms;
}

const struct elf_sym *elf_symtab__sym(const struct elf_symtab *st, size_t i)
{
	return &st->syms[i];
}

const struct elf_section *elf_symtab__section(const struct elf_symtab *st, uint32_t shndx)
{
	return shndx && shndx < st->nr_sections ? &st->sections[shndx] : NULL;
}

const struct elf_section *elf_symtab__data_section_at(const struct elf_symtab *st, uint64_t addr)
{
	size_t i;

	for (i = 1; i < st->nr_sections; i++) {
		const struct elf_section *s = &st->sections[i];

		if ((s->type == SHT_PROGBITS || s->type == SHT_NOBITS) && addr >= s->addr &&
		    addr - s->addr < s->size)
			return s;
	}
	return NULL;
}

bool elf_symtab__has_object(const struct elf_symtab *st, const char *name, uint32_t shndx)
{
	size_t i;

	for (i = 0; i < st->nr_syms; i++)
		if (st->syms[i].shndx == shndx && st->syms[i].type == STT_OBJECT &&
		    !strcmp(st->syms[i].name, name))
			return true;
	return false;
}

uint32_t elf_symtab__find_section(const struct elf_symtab *st, const char *name)
{
	size_t i;

	for (i = 1; i < st->nr_sections; i++)
		if (!strcmp(st->sections[i].name, name))
			return i;
	return 0;
}

int elf_symtab__is_relocatable(const struct elf_symtab *st)
{
	return st->relocatable;
}
