/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_ELF_SCN_H_
#define _LIB_ELF_SCN_H_ 1

/*
 * Finding an ELF section by name, for every reader and writer of ours; and
 * the checks an ELF file passes before libdw reads its DWARF.
 */
#include <stdint.h>
#include <gelf.h>

/*
 * The first section of @elf called @name in *@scn, its header in *@shdr;
 * as libdw looks sections up, one in a section group does not count (a
 * relocatable file's COMDAT type units, -fdebug-types-section, come in a
 * .debug_info of their own there).  0, -ENOENT when there is none, -EINVAL
 * when the section headers or their names cannot be read.
 */
int elf_scn__find(Elf *elf, const char *name, Elf_Scn **scn, GElf_Shdr *shdr);

/*
 * Whether libdw may read the DWARF of @elf, a file of @file_size bytes:
 * its ELF header in *@ehdr, its section headers and every section's
 * contents within the file, its DWARF string sections ending with a NUL
 * (libdw hands out pointers into them without checking that a string ends
 * in its section), and a .debug_info (or GNU's compressed .zdebug_info),
 * whose size goes to *@info_size (0 when compressed).  0; -ENOEXEC, or
 * -ENODATA for no DWARF, with *@cause in words; libelf's errors as they
 * are (lib/elfutils.h tells which ran out of memory).
 */
int elf_scn__check_dwarf(Elf *elf, uint64_t file_size, GElf_Ehdr *ehdr, uint64_t *info_size,
			 const char **cause);

#endif /* _LIB_ELF_SCN_H_ */
