// SPDX-License-Identifier: GPL-2.0-only
/* Finding an ELF section by name: see elf_scn.h. */
#include <errno.h>
#include <string.h>

#include "lib/elf_scn.h"

int elf_scn__find(Elf *elf, const char *name, Elf_Scn **scn, GElf_Shdr *shdr)
{
	Elf_Scn *s = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return -EINVAL;
	while ((s = elf_nextscn(elf, s)) != NULL) {
		const char *n;

		if (!gelf_getshdr(s, shdr))
			return -EINVAL;
		n = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (n && !strcmp(n, name) && !(shdr->sh_flags & SHF_GROUP)) {
			*scn = s;
			return 0;
		}
	}
	return -ENOENT;
}
