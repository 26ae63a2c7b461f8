/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _ELF_SYMTAB_H_
#define _ELF_SYMTAB_H_ 1

/* The ELF symbol table of the input, read once and then only read. */
#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

struct elf_symtab;

struct elf_sym {
	const char *name;
	uint64_t addr; /* in a relocatable file, the section's address added */
	uint64_t value; /* st_value as the file has it */
	uint64_t size;
	uint32_t shndx;
	uint8_t type; /* STT_* */
	uint8_t bind; /* STB_* */
};

struct elf_section {
	const char *name;
	uint64_t addr;
	uint64_t size;
	uint64_t flags; /* SHF_* */
	uint32_t type; /* SHT_* */
	uint32_t index;
	uint32_t link; /* sh_link */
};

/*
 * Reads .symtab of @elf into *@out: 0, -ENOENT when there is none, -EINVAL
 * when it cannot be read (corrupt), -ENOMEM.
 */
int elf_symtab__new(Elf *elf, struct elf_symtab **out);
void elf_symtab__delete(struct elf_symtab *symtab);

/*
 * Copies the names of the symbols and sections into the table's own memory,
 * so that it outlives the ELF handle it was read from; before anything
 * takes a name from it.  0 or -ENOMEM.
 */
int elf_symtab__own_names(struct elf_symtab *symtab);

size_t elf_symtab__nr_syms(const struct elf_symtab *symtab);
const struct elf_sym *elf_symtab__sym(const struct elf_symtab *symtab, size_t i);

/* The section with index @shndx, or NULL. */
const struct elf_section *elf_symtab__section(const struct elf_symtab *symtab, uint32_t shndx);
/*
 * The first PROGBITS or NOBITS section whose [sh_addr, sh_addr + sh_size)
 * holds @addr, allocated or not, or NULL: where pahole v1.31 looks for a
 * variable (get_elf_section).
 */
const struct elf_section *elf_symtab__data_section_at(const struct elf_symtab *symtab,
						      uint64_t addr);
/* Whether an STT_OBJECT symbol called @name is in section @shndx (a linear search). */
bool elf_symtab__has_object(const struct elf_symtab *symtab, const char *name, uint32_t shndx);
/* The index of the section called @name, or 0. */
uint32_t elf_symtab__find_section(const struct elf_symtab *symtab, const char *name);
/* Whether symbol addresses are section offsets (ET_REL) rather than addresses. */
int elf_symtab__is_relocatable(const struct elf_symtab *symtab);

#endif /* _ELF_SYMTAB_H_ */
