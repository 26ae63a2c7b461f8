// SPDX-License-Identifier: GPL-2.0-only
/*
 * dwarf_reloc: dwarf_reloc__apply() against libdwfl on the same file.
 * Each FILE is mapped twice, privately: one relocated by dwarf_reloc, the
 * other handed to libdwfl as dwarf_loader.c hands it
 * (dwfl_report_offline_memory(), then dwfl_module_getdwarf()); then every
 * section's address, the size of every section but the relocation
 * sections (libdwfl clears what it applied and shrinks them, dwarf_reloc
 * leaves them: nothing reads them after) and the bytes of every .debug_*
 * section must be the same.  One line a file:
 *	dwarf_reloc: FILE: the same (N sections, M debug bytes)
 *	dwarf_reloc: FILE: left to libdwfl
 *	dwarf_reloc: FILE: <what differs>
 * Exits 1 when a file differs or cannot be read, else 0.
 */
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dwarf_reloc.h"

static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks callbacks = {
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* Compares @ours (relocated by dwarf_reloc) with libdwfl's ELF @theirs; says so for @path. */
static int compare(const char *path, const char *ours, Elf *theirs)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)ours;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(ours + eh->e_shoff);
	const Elf64_Shdr *str = &sh[eh->e_shstrndx];
	unsigned long bytes = 0;
	unsigned int i;

	for (i = 1; i < eh->e_shnum; i++) {
		Elf_Scn *scn = elf_getscn(theirs, i);
		const char *name = ours + str->sh_offset + sh[i].sh_name;
		Elf_Data *d;
		GElf_Shdr s;

		if (!scn || !gelf_getshdr(scn, &s)) {
			printf("dwarf_reloc: %s: libdwfl has no section %u\n", path, i);
			return 1;
		}
		/*
		 * libdwfl clears the relocations it applied and shrinks their
		 * sections (its ELF's, the others' too); dwarf_reloc leaves them.
		 */
		bool rel = s.sh_type == SHT_RELA || s.sh_type == SHT_REL;

		if (s.sh_addr != sh[i].sh_addr || (!rel && s.sh_size != sh[i].sh_size)) {
			printf("dwarf_reloc: %s: section %u %s at %#llx of %llu bytes, libdwfl's at %#llx of %llu\n",
			       path, i, name, (unsigned long long)sh[i].sh_addr,
			       (unsigned long long)sh[i].sh_size, (unsigned long long)s.sh_addr,
			       (unsigned long long)s.sh_size);
			return 1;
		}
		if (strncmp(name, ".debug_", 7) || s.sh_type == SHT_NOBITS)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || d->d_size != sh[i].sh_size ||
		    memcmp(d->d_buf, ours + sh[i].sh_offset, d->d_size)) {
			printf("dwarf_reloc: %s: section %u %s: other bytes than libdwfl's\n", path,
			       i, name);
			return 1;
		}
		bytes += d->d_size;
	}
	printf("dwarf_reloc: %s: the same (%u sections, %lu debug bytes)\n", path, eh->e_shnum,
	       bytes);
	return 0;
}

static int check(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 1;
	char *ours = MAP_FAILED, *theirs = MAP_FAILED;
	Dwfl *dwfl = NULL;
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	struct stat st;

	if (fd < 0 || fstat(fd, &st)) {
		printf("dwarf_reloc: %s: cannot open it\n", path);
		goto out;
	}
	ours = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	theirs = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (ours == MAP_FAILED || theirs == MAP_FAILED) {
		printf("dwarf_reloc: %s: cannot map it\n", path);
		goto out;
	}
	if (!dwarf_reloc__apply(ours, st.st_size)) {
		printf("dwarf_reloc: %s: left to libdwfl\n", path);
		err = 0;
		goto out;
	}
	dwfl = dwfl_begin(&callbacks);
	mod = dwfl ? dwfl_report_offline_memory(dwfl, path, path, theirs, st.st_size) : NULL;
	if (!mod || dwfl_report_end(dwfl, NULL, NULL) || !dwfl_module_getdwarf(mod, &bias) ||
	    !dwfl_module_getelf(mod, &bias)) {
		printf("dwarf_reloc: %s: libdwfl cannot read it: %s\n", path, dwfl_errmsg(-1));
		goto out;
	}
	err = compare(path, ours, dwfl_module_getelf(mod, &bias));
out:
	if (dwfl)
		dwfl_end(dwfl);
	if (ours != MAP_FAILED)
		munmap(ours, st.st_size);
	if (theirs != MAP_FAILED)
		munmap(theirs, st.st_size);
	if (fd >= 0)
		close(fd);
	return err;
}

int main(int argc, char **argv)
{
	int i, err = 0;

	elf_version(EV_CURRENT);
	for (i = 1; i < argc; i++)
		err |= check(argv[i]);
	return err;
}
