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
	/*
	 * elf_symtab__data_section_at()'s answers, by address: where a
	 * PROGBITS or NOBITS section begins or ends a span begins, holding
	 * the first such section (by index) of all that hold it, or none.
	 */
	struct data_span *spans;
	size_t nr_spans;
};

struct data_span {
	uint64_t start;
	const struct elf_section *first; /* NULL: no such section holds it */
};

static bool data_section__holds(const struct elf_section *s, uint64_t addr)
{
	return (s->type == SHT_PROGBITS || s->type == SHT_NOBITS) && addr >= s->addr &&
	       addr - s->addr < s->size;
}

static int u64__cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The spans of elf_symtab__data_section_at(): the sections' starts and
 * ends sorted, and for each span between two the first section that holds
 * it, as the walk over the sections would find it for any address there.
 * A vmlinux asks for 30,000 variables' sections among its 80.
 */
static int elf_symtab__data_spans(struct elf_symtab *st)
{
	uint64_t *bounds = malloc((2 * st->nr_sections + 1) * sizeof(*bounds));
	size_t n = 0, i, j;

	if (!bounds)
		return -ENOMEM;
	for (i = 1; i < st->nr_sections; i++) {
		const struct elf_section *s = &st->sections[i];

		if ((s->type != SHT_PROGBITS && s->type != SHT_NOBITS) || !s->size)
			continue;
		bounds[n++] = s->addr;
		/* A section that ends past the address space holds the rest of it. */
		if (s->addr + s->size > s->addr)
			bounds[n++] = s->addr + s->size;
	}
	qsort(bounds, n, sizeof(*bounds), u64__cmp);
	st->spans = malloc((n ?: 1) * sizeof(*st->spans));
	if (!st->spans) {
		free(bounds);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const struct elf_section *first = NULL;

		if (i && bounds[i] == bounds[i - 1])
			continue;
		/* Every address of the span is held by the same sections as its start. */
		for (j = 1; j < st->nr_sections && !first; j++)
			if (data_section__holds(&st->sections[j], bounds[i]))
				first = &st->sections[j];
		st->spans[st->nr_spans++] = (struct data_span){ bounds[i], first };
	}
	free(bounds);
	return 0;
}

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
	err = err ?: elf_symtab__data_spans(st);
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
	free(st->spans);
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
	size_t lo = 0, hi = st->nr_spans;

	/* The last span that starts at or before @addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->spans[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? st->spans[lo - 1].first : NULL;
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
