// SPDX-License-Identifier: GPL-2.0-only
/*
 * A module's DWARF relocated as libdwfl 0.188 relocates it: see
 * dwarf_reloc.h.  The rules are docs/libdwfl_relocation.md's, from
 * elfutils-0.188's libdwfl/dwfl_report_elf.c (the layout), relocate.c (the
 * relocations, partial mode) and backends/x86_64_symbol.c (the plain
 * kinds).  libdwfl spends some 540 instructions a relocation (symbols
 * looked up through libelf, a callback per kind); a module's .debug_info
 * has tens of thousands.  So the headers, symbols and relocations are read
 * straight from the mapping, each symbol judged once, not through libelf.
 */
#include <elf.h>
#include <endian.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf_reloc.h"

/* libdwfl's first address for an offline module (OFFLINE_REDZONE), a multiple of its 0x100. */
#define RELOC_BASE 0x10000u

/* What x86_64 relocations libdwfl applies, by the bytes they write (0: skipped, left). */
static const uint8_t reloc_bytes[] = {
	[R_X86_64_64] = 8, [R_X86_64_32] = 4, [R_X86_64_32S] = 4,
	[R_X86_64_16] = 2, [R_X86_64_8] = 1,
};

/*
 * The sections libdwfl's debug pass relocates (libebl's default_debugscn_p()
 * lists 28 names) that we relocate too: those a compiler writes now.
 */
static const char *const reloc_debug_names[] = {
	".debug_info",	      ".debug_abbrev", ".debug_line",	  ".debug_frame",
	".debug_str",	      ".debug_loc",    ".debug_ranges",	  ".debug_aranges",
	".debug_str_offsets", ".debug_addr",   ".debug_line_str", ".debug_loclists",
	".debug_rnglists",    ".debug_macro",  ".debug_names",	  ".debug_types",
};

/* What a symbol gives the relocations against it: a value, or libdwfl leaves them, or fails. */
enum reloc_sym_state {
	RELOC_SYM_VALUE,
	RELOC_SYM_LEFT,
	RELOC_SYM_BAD
};

struct reloc_sym {
	uint64_t value; /* with RELOC_SYM_VALUE, once the sections are laid out */
	uint8_t state;
};

struct reloc_file {
	char *map;
	uint64_t size;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	unsigned int shnum, symtab;
	const Elf64_Sym *syms;
	uint64_t nr_syms, strtab_size;
	struct reloc_sym *rs; /* by symbol: reloc_file__judge_syms(), reloc_file__sym_values() */
};

/* Whether [@off, @off + @len) lies in the file, clear of its ELF header and section headers. */
static bool reloc_file__in(const struct reloc_file *f, uint64_t off, uint64_t len)
{
	uint64_t sh_end = f->eh->e_shoff + (uint64_t)f->shnum * sizeof(Elf64_Shdr);

	if (off > f->size || len > f->size - off || off < f->eh->e_ehsize)
		return false;
	return !len || off >= sh_end || off + len <= f->eh->e_shoff;
}

static const char *reloc_file__name(const struct reloc_file *f, const Elf64_Shdr *s)
{
	const Elf64_Shdr *str = &f->sh[f->eh->e_shstrndx];

	if (s->sh_name >= str->sh_size)
		return NULL;
	/* A name runs to a NUL within the section. */
	if (!memchr(f->map + str->sh_offset + s->sh_name, 0, str->sh_size - s->sh_name))
		return NULL;
	return f->map + str->sh_offset + s->sh_name;
}

/* The one symbol table, with a string table, and no extended section indexes. */
static bool reloc_file__symtab(struct reloc_file *f)
{
	unsigned int i;

	f->symtab = 0;
	for (i = 1; i < f->shnum; i++) {
		const Elf64_Shdr *s = &f->sh[i];

		if (s->sh_type == SHT_SYMTAB_SHNDX || (s->sh_type == SHT_SYMTAB && f->symtab))
			return false;
		if (s->sh_type == SHT_SYMTAB)
			f->symtab = i;
	}
	if (!f->symtab)
		return false;
	const Elf64_Shdr *s = &f->sh[f->symtab];

	/* Uncompressed, as libdwfl would have them; the strings' section named, as it looks it up. */
	if (s->sh_entsize != sizeof(Elf64_Sym) || s->sh_offset % 8 ||
	    (s->sh_flags & SHF_COMPRESSED) || !reloc_file__in(f, s->sh_offset, s->sh_size) ||
	    !s->sh_link || s->sh_link >= f->shnum)
		return false;
	const Elf64_Shdr *str = &f->sh[s->sh_link];
	const char *name = reloc_file__name(f, str);

	if (str->sh_type != SHT_STRTAB || (str->sh_flags & SHF_COMPRESSED) || !name ||
	    !strncmp(name, ".zdebug", 7) || !reloc_file__in(f, str->sh_offset, str->sh_size))
		return false;
	f->syms = (const Elf64_Sym *)(f->map + s->sh_offset);
	f->nr_syms = s->sh_size / sizeof(Elf64_Sym);
	f->strtab_size = str->sh_size;
	return true;
}

/* The file, if it is one we relocate as libdwfl would: an x86_64 ELF64 object in our byte order. */
static bool reloc_file__init(struct reloc_file *f, char *map, uint64_t size)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)map;

	*f = (struct reloc_file){ .map = map, .size = size, .eh = eh };
	if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || size < sizeof(*eh) ||
	    memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_type != ET_REL ||
	    eh->e_machine != EM_X86_64 || eh->e_phnum || eh->e_ehsize < sizeof(*eh) ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) || !eh->e_shnum || eh->e_shoff % 8 ||
	    eh->e_shoff > size || (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > size - eh->e_shoff ||
	    !eh->e_shstrndx || eh->e_shstrndx >= eh->e_shnum)
		return false;
	f->sh = (Elf64_Shdr *)(map + eh->e_shoff);
	f->shnum = eh->e_shnum;
	if (!reloc_file__in(f, f->sh[eh->e_shstrndx].sh_offset, f->sh[eh->e_shstrndx].sh_size))
		return false;
	return reloc_file__symtab(f);
}

/*
 * The allocated sections laid out as libdwfl 0.188's
 * __libdwfl_elf_address_range() lays out an ET_REL file: in section order,
 * each at the first address past the last one's end that its alignment
 * allows, from RELOC_BASE.  A section whose address the file sets keeps it
 * where that end needs no padding for it, or nothing was laid out before
 * it; so does the first allocated one (then libdwfl gives the module a
 * bias: left to it).  False,
 * and nothing written, where libdwfl would do more than that: the bias, or
 * a layout started over from a base of a larger alignment.  With @write,
 * the addresses go into the section headers.
 */
static bool reloc_file__layout(struct reloc_file *f, bool write)
{
	uint64_t start = RELOC_BASE, end = RELOC_BASE, base = RELOC_BASE;
	bool first = true;
	unsigned int i;

	for (i = 1; i < f->shnum; i++) {
		Elf64_Shdr *s = &f->sh[i];
		uint64_t align = s->sh_addralign ?: 1, next = (end + align - 1) & -align;

		if (!(s->sh_flags & SHF_ALLOC))
			continue;
		if (!s->sh_addr || (end > start && end != next)) {
			if (end == base)
				start = base = next;
			else if (base & (align - 1))
				return false;
			end = next + s->sh_size;
			if (write)
				s->sh_addr = next;
		} else if (first) {
			return false;
		} else {
			/* Where it is: the module's span and base follow it (no bias). */
			if (end < s->sh_addr + s->sh_size)
				end = s->sh_addr + s->sh_size;
			if ((s->sh_addr + base) & (align - 1))
				base = (base + align - 1) & -align;
		}
		first = false;
	}
	return true;
}

/* What a relocation section applies to: nothing we relocate, a debug section we do, else. */
enum reloc_target {
	RELOC_NONE,
	RELOC_DEBUG,
	RELOC_OTHER
};

static enum reloc_target reloc_file__target(const struct reloc_file *f, const Elf64_Shdr *rel)
{
	const Elf64_Shdr *t = &f->sh[rel->sh_info];
	const char *name = reloc_file__name(f, t);
	size_t i;

	if (!name)
		return RELOC_OTHER;
	if (t->sh_flags & SHF_ALLOC)
		/* libdwfl relocates those later, for its ELF: only .BTF_ids of them is read. */
		return strcmp(name, ".BTF_ids") ? RELOC_NONE : RELOC_OTHER;
	for (i = 0; i < sizeof(reloc_debug_names) / sizeof(*reloc_debug_names); i++)
		if (!strcmp(name, reloc_debug_names[i]))
			return RELOC_DEBUG;
	/* Another debug section may be on libdwfl's list: left to it. */
	if (!strncmp(name, ".debug", 6) || !strncmp(name, ".zdebug", 7) ||
	    !strncmp(name, ".gnu.debuglto_", 14) || !strcmp(name, ".gdb_index") ||
	    !strcmp(name, ".line"))
		return RELOC_OTHER;
	return RELOC_NONE;
}

/*
 * Each symbol judged as libdwfl's relocate_getsym() and resolve_symbol()
 * would: STN_UNDEF 0; an undefined one (no other module to find it in)
 * leaves its relocations; an absolute one its value, a common one 0; one
 * of a section a value once the sections are laid out
 * (reloc_file__sym_values()); one of another special index fails, and so
 * does an undefined or common one whose name is past the strings
 * (resolve_symbol() reads it).  False when out of memory.
 */
static bool reloc_file__judge_syms(struct reloc_file *f)
{
	uint64_t i;

	f->rs = calloc(f->nr_syms ?: 1, sizeof(*f->rs));
	if (!f->rs)
		return false;
	for (i = 1; i < f->nr_syms; i++) {
		const Elf64_Sym *s = &f->syms[i];
		struct reloc_sym *r = &f->rs[i];

		if ((s->st_shndx == SHN_UNDEF || s->st_shndx == SHN_COMMON) && s->st_name &&
		    s->st_name >= f->strtab_size)
			r->state = RELOC_SYM_BAD;
		else if (s->st_shndx == SHN_UNDEF)
			r->state = RELOC_SYM_LEFT;
		else if (s->st_shndx == SHN_ABS)
			r->value = s->st_value;
		else if (s->st_shndx != SHN_COMMON &&
			 (s->st_shndx >= SHN_LORESERVE || s->st_shndx >= f->shnum))
			r->state = RELOC_SYM_BAD;
	}
	return true;
}

/* The values of the symbols of sections: plus the section's address where it is allocated. */
static void reloc_file__sym_values(struct reloc_file *f)
{
	uint64_t i;

	for (i = 1; i < f->nr_syms; i++) {
		const Elf64_Sym *s = &f->syms[i];
		const Elf64_Shdr *sec;

		if (f->rs[i].state != RELOC_SYM_VALUE || s->st_shndx == SHN_ABS ||
		    s->st_shndx == SHN_COMMON)
			continue;
		sec = &f->sh[s->st_shndx];
		f->rs[i].value = s->st_value + ((sec->sh_flags & SHF_ALLOC) ? sec->sh_addr : 0);
	}
}

/*
 * The value relocation @r writes into target @t, in *@v: 1 to write it, 0
 * where libdwfl leaves the relocation (a kind it does not apply, an
 * undefined symbol), -1 where libdwfl would fail.
 */
static inline int reloc_file__value(const struct reloc_file *f, const Elf64_Shdr *t,
				    const Elf64_Rela *r, uint64_t *v)
{
	uint32_t type = ELF64_R_TYPE(r->r_info), sym = ELF64_R_SYM(r->r_info);
	uint8_t bytes = type < sizeof(reloc_bytes) ? reloc_bytes[type] : 0;

	if (type == R_X86_64_NONE)
		return 1;
	if (!bytes)
		return 0;
	if (sym >= f->nr_syms || f->rs[sym].state == RELOC_SYM_BAD)
		return -1;
	if (f->rs[sym].state == RELOC_SYM_LEFT)
		return 0;
	if (r->r_offset > t->sh_size || bytes > t->sh_size - r->r_offset)
		return -1;
	*v = f->rs[sym].value + r->r_addend;
	return 1;
}

/* @v's low @bytes at @p: the file is little-endian, as we are. */
static inline void reloc_write(char *p, uint64_t v, uint8_t bytes)
{
	uint32_t w = v;
	uint16_t h = v;

	switch (bytes) {
	case 8:
		memcpy(p, &v, 8);
		break;
	case 4:
		memcpy(p, &w, 4);
		break;
	case 2:
		memcpy(p, &h, 2);
		break;
	default:
		*p = (char)v;
		break;
	}
}

/* Whether relocation section @rel (of RELOC_DEBUG) is one libdwfl would relocate as we do. */
static bool reloc_file__rel_plain(const struct reloc_file *f, const Elf64_Shdr *rel)
{
	const Elf64_Shdr *t = &f->sh[rel->sh_info];
	const Elf64_Rela *r = (const Elf64_Rela *)(f->map + rel->sh_offset);
	uint64_t i, n, v;

	if (rel->sh_entsize != sizeof(*r) || rel->sh_offset % 8 || rel->sh_size % sizeof(*r) ||
	    rel->sh_link != f->symtab || (t->sh_flags & SHF_COMPRESSED) ||
	    !reloc_file__in(f, rel->sh_offset, rel->sh_size))
		return false;
	if (t->sh_type == SHT_NOBITS || !t->sh_size)
		return true;
	if (!reloc_file__in(f, t->sh_offset, t->sh_size))
		return false;
	n = rel->sh_size / sizeof(*r);
	for (i = 0; i < n; i++)
		if (reloc_file__value(f, t, &r[i], &v) < 0)
			return false;
	return true;
}

/*
 * The relocations of section @rel applied, those libdwfl applies.  Unlike
 * libdwfl, which clears each it applied and shrinks the section (its
 * partial mode), the relocation section is left as it is: nothing reads it
 * after (libdw takes the debug sections alone), and its pages, as many
 * bytes as the DWARF, are then never copied.
 */
static void reloc_file__apply_rel(struct reloc_file *f, const Elf64_Shdr *rel)
{
	const Elf64_Shdr *t = &f->sh[rel->sh_info];
	const Elf64_Rela *r = (const Elf64_Rela *)(f->map + rel->sh_offset);
	char *target = f->map + t->sh_offset;
	uint64_t i, n = rel->sh_size / sizeof(*r), v;

	if (t->sh_type == SHT_NOBITS || !t->sh_size)
		return;
	for (i = 0; i < n; i++) {
		uint32_t type = ELF64_R_TYPE(r[i].r_info);

		if (type != R_X86_64_NONE && reloc_file__value(f, t, &r[i], &v) > 0)
			reloc_write(target + r[i].r_offset, v, reloc_bytes[type]);
	}
}

/* A range of the file's bytes that the relocating reads or writes. */
struct reloc_range {
	uint64_t off, len;
};

static int reloc_range__cmp(const void *a, const void *b)
{
	const struct reloc_range *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * Whether the symbol table, the debug sections' relocation sections and
 * their targets lie apart: where one overlapped another, a write would
 * change what a later relocation reads.  Not seen in a compiler's output.
 */
static bool reloc_file__apart(const struct reloc_file *f)
{
	const Elf64_Shdr *sym = &f->sh[f->symtab];
	struct reloc_range *r = malloc((2 * (size_t)f->shnum + 1) * sizeof(*r));
	size_t n = 0, k;
	unsigned int i;
	bool apart = true;

	if (!r)
		return false;
	r[n++] = (struct reloc_range){ sym->sh_offset, sym->sh_size };
	for (i = 1; i < f->shnum; i++) {
		const Elf64_Shdr *rel = &f->sh[i], *t;

		if (rel->sh_type != SHT_RELA || !rel->sh_size ||
		    reloc_file__target(f, rel) != RELOC_DEBUG)
			continue;
		t = &f->sh[rel->sh_info];
		r[n++] = (struct reloc_range){ rel->sh_offset, rel->sh_size };
		if (t->sh_type != SHT_NOBITS && t->sh_size)
			r[n++] = (struct reloc_range){ t->sh_offset, t->sh_size };
	}
	qsort(r, n, sizeof(*r), reloc_range__cmp);
	for (k = 1; k < n && apart; k++)
		apart = r[k - 1].off + r[k - 1].len <= r[k].off;
	free(r);
	return apart;
}

/* Whether every relocation section is one we relocate as libdwfl would, or leave as it does. */
static bool reloc_file__plain(const struct reloc_file *f)
{
	unsigned int i;

	for (i = 1; i < f->shnum; i++) {
		const Elf64_Shdr *rel = &f->sh[i];

		if (rel->sh_type == SHT_REL)
			return false;
		if (rel->sh_type != SHT_RELA || !rel->sh_size)
			continue;
		if (!rel->sh_info || rel->sh_info >= f->shnum)
			return false;
		switch (reloc_file__target(f, rel)) {
		case RELOC_OTHER:
			return false;
		case RELOC_DEBUG:
			if (!reloc_file__rel_plain(f, rel))
				return false;
			break;
		case RELOC_NONE:
			break;
		}
	}
	return true;
}

int dwarf_reloc__apply(char *map, uint64_t size)
{
	struct reloc_file f;
	unsigned int i;
	int done = 0;

	if (!reloc_file__init(&f, map, size))
		return 0;
	/* All of it checked before a byte is written: else libdwfl reads the file as it was. */
	if (reloc_file__layout(&f, false) && reloc_file__judge_syms(&f) && reloc_file__plain(&f) &&
	    reloc_file__apart(&f)) {
		reloc_file__layout(&f, true);
		reloc_file__sym_values(&f);
		for (i = 1; i < f.shnum; i++) {
			const Elf64_Shdr *rel = &f.sh[i];

			if (rel->sh_type == SHT_RELA && rel->sh_size &&
			    reloc_file__target(&f, rel) == RELOC_DEBUG)
				reloc_file__apply_rel(&f, rel);
		}
		done = 1;
	}
	free(f.rs);
	return done;
}
