/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_ELF_SCN_H_
#define _LIB_ELF_SCN_H_ 1

/* Finding an ELF section by name, for every reader and writer of ours. */
#include <gelf.h>

/*
 * The first section of @elf called @name in *@scn, its header in *@shdr;
 * as libdw looks sections up, one in a section group does not count (a
 * relocatable file's COMDAT type units, -fdebug-types-section, come in a
 * .debug_info of their own there).  0, -ENOENT when there is none, -EINVAL
 * when the section headers or their names cannot be read.
 */
int elf_scn__find(Elf *elf, const char *name, Elf_Scn **scn, GElf_Shdr *shdr);

#endif /* _LIB_ELF_SCN_H_ */
