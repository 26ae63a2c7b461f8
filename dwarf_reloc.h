/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DWARF_RELOC_H_
#define _DWARF_RELOC_H_ 1

/*
 * dwarf_reloc: a relocatable file's (a module's) DWARF relocated in place
 * as libdwfl 0.188 relocates it when libdw first asks for it
 * (docs/libdwfl_relocation.md): the allocated sections laid out from
 * 0x10000 in the section headers, every plain relocation of a .debug_*
 * section applied, the others left (the relocation sections themselves
 * are not cleared as libdwfl clears them: nothing reads them after).
 * Only where everything is
 * plain: an x86_64 ELF64 in the host's byte order, RELA relocations of
 * kinds libdwfl applies or skips, symbols it resolves, every offset in
 * range.  Anything else is left to libdwfl, which then sees the file as
 * it was: the caller's mapping is not written before all of it is known.
 * One thread, the loader's.
 */
#include <stdint.h>

/*
 * Relocates the file of @size bytes mapped (private, writable) at @map:
 * 1 when done, 0 when it is left to libdwfl (@map untouched).
 */
int dwarf_reloc__apply(char *map, uint64_t size);

#endif /* _DWARF_RELOC_H_ */
