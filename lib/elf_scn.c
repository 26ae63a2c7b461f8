// SPDX-License-Identifier: GPL-2.0-only
/* Finding an ELF section by name: see elf_scn.h. */
#include <errno.h>
#include <stdbool.h>
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

/*
 * Whether @elf has DWARF: .debug_info, or GNU's older compressed
 * .zdebug_info (objcopy --compress-debug-sections=zlib-gnu), which libdw
 * decompresses as it opens it.  *@size is its size, 0 when compressed.
 */
static bool elf_has_debug_info(Elf *elf, uint64_t *size)
{
	GElf_Shdr shdr;
	Elf_Scn *scn;

	if (!elf_scn__find(elf, ".debug_info", &scn, &shdr)) {
		*size = shdr.sh_flags & SHF_COMPRESSED ? 0 : shdr.sh_size;
		return true;
	}
	*size = 0;
	return !elf_scn__find(elf, ".zdebug_info", &scn, &shdr);
}

/*
 * Whether the DWARF string sections end with a NUL: libdw hands out
 * pointers into them without checking that the string ends in the section.
 */
static bool elf_strings_terminated(Elf *elf)
{
	static const char *const names[] = { ".debug_str", ".debug_line_str" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		GElf_Shdr shdr;
		Elf_Scn *scn;
		Elf_Data *d;

		if (elf_scn__find(elf, names[i], &scn, &shdr) || shdr.sh_type == SHT_NOBITS)
			continue;
		/* Check what libdw will read: the decompressed strings. */
		if ((shdr.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
			return false;
		d = elf_getdata(scn, NULL);
		if (!d || (d->d_size && ((const char *)d->d_buf)[d->d_size - 1] != '\0'))
			return false;
	}
	return true;
}

/* Whether the section header table, and every section's contents, lie in the file. */
static bool elf_headers_fit(Elf *elf, const GElf_Ehdr *ehdr, uint64_t file_size)
{
	Elf_Scn *scn = NULL;
	size_t nr;

	if (elf_getshdrnum(elf, &nr) != 0 || !nr || !ehdr->e_shoff || !ehdr->e_shentsize ||
	    ehdr->e_shoff > file_size || (file_size - ehdr->e_shoff) / ehdr->e_shentsize < nr)
		return false;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr))
			return false;
		if (shdr.sh_type != SHT_NOBITS &&
		    (shdr.sh_offset > file_size || shdr.sh_size > file_size - shdr.sh_offset))
			return false;
	}
	return true;
}

int elf_scn__check_dwarf(Elf *elf, uint64_t file_size, GElf_Ehdr *ehdr, uint64_t *info_size,
			 const char **cause)
{
	size_t shstrndx;

	if (!gelf_getehdr(elf, ehdr) || elf_getshdrstrndx(elf, &shstrndx) != 0 ||
	    !elf_headers_fit(elf, ehdr, file_size)) {
		*cause = "truncated or corrupt ELF file";
		return -ENOEXEC;
	}
	if (!elf_strings_terminated(elf)) {
		*cause = "corrupt DWARF: a string section does not end its last string";
		return -ENOEXEC;
	}
	if (!elf_has_debug_info(elf, info_size)) {
		*cause = "no DWARF (.debug_info) in the file";
		return -ENODATA;
	}
	return 0;
}
