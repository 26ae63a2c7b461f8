// SPDX-License-Identifier: GPL-2.0-only
/*
 * Opening an ELF's DWARF for worker threads, which take its CUs in chunks
 * from a queue (dwarf_chunks.c).
 *
 * All workers read the one Dwarf handle.  What libdw and libelf share
 * between units is made before the workers start, in the main thread:
 * dwarf_loader__open() starts the scan of the units (dwarf_scan.c: libdw
 * reads every unit header, so that the workers' taking of units and
 * dwarf_offdie only search libdw's tree of units; for a large file in a
 * thread of its own, which the workers may run beside where nothing has
 * them search that tree) and finds .debug_info for die_reader (so that no
 * worker calls libelf).  Taking the next chunk is serialized under the
 * queue mutex, to hand out units in order; reading the DIEs of a unit a worker took needs
 * no lock: libdw (>= 0.178) allocates and fills its abbreviation tables
 * thread-safely, and the encoder follows a reference into another unit
 * only where the units are one (dwarf_loader__merged()), whose every
 * abbreviation libdw reads here before the workers start, so that workers
 * reading DIEs of one unit share only lookups.  libdw's
 * location lists are cached per unit without a lock: dwarf_getlocation()
 * and friends are called under the unit's lock (unit_locks.h), never
 * from die_attrs.c.  tests/test_helgrind.sh checks it under helgrind and
 * drd, which see inside libdw.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libelf.h>

#include "dwarf_loader_priv.h"
#include "dwarf_reloc.h"
#include "lib/darray.h"
#include "lib/elf_scn.h"
#include "lib/elfutils.h"
#include "lib/leb128.h"
#include "lib/par_for.h"
#include "lib/populate.h"

/* Separate debug files are never looked for: the input carries its DWARF. */
static int find_no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			     Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			     GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = find_no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/*
 * Calls @fn on each relocation section of @elf, a file of @size bytes
 * mapped at @map, that applies to a .debug_* section (not allocated, with
 * bytes in the file): both within the file.
 */
static void dwarf_loader__debug_relocs(Elf *elf, char *map, uint64_t size,
				       void (*fn)(char *map, const GElf_Shdr *rel,
						  const GElf_Shdr *target))
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr rel, target;
		Elf_Scn *tscn;
		const char *name;

		if (!gelf_getshdr(scn, &rel) || (rel.sh_type != SHT_RELA && rel.sh_type != SHT_REL))
			continue;
		tscn = elf_getscn(elf, rel.sh_info);
		if (!tscn || !gelf_getshdr(tscn, &target) || target.sh_type == SHT_NOBITS ||
		    (target.sh_flags & SHF_ALLOC))
			continue;
		name = elf_strptr(elf, shstrndx, target.sh_name);
		if (!name || strncmp(name, ".debug_", 7) || rel.sh_offset > size ||
		    rel.sh_size > size - rel.sh_offset || target.sh_offset > size ||
		    target.sh_size > size - target.sh_offset)
			continue;
		fn(map, &rel, &target);
	}
}

/*
 * Relocating writes every page of a debug section: in a private mapping
 * of the file, a copy-on-write fault per page, which costs a module more
 * than reading its DWARF.  Those pages are made writable in one call per
 * section instead.
 */
static void populate_target(char *map, const GElf_Shdr *rel, const GElf_Shdr *target)
{
	/* A section of few relocations (.debug_line's) has pages only read. */
	if (rel->sh_entsize && rel->sh_size / rel->sh_entsize >= target->sh_size / 4096)
		populate__write(map + target->sh_offset, target->sh_size);
}

/* libdwfl also zeroes every relocation it applied (elfutils 0.188's relocate.c, partial mode). */
static void populate_rel(char *map, const GElf_Shdr *rel, const GElf_Shdr *target)
{
	(void)target;
	populate__write(map + rel->sh_offset, rel->sh_size);
}

/*
 * Once the debug sections are relocated (by dwarf_reloc, or by libdwfl
 * all at once when the module's DWARF is first asked for:
 * __libdwfl_relocate()), their relocation sections are of no more use
 * (libdwfl zeroed each relocation it applied, and set the section's size
 * to 0 where it applied all).  Their pages, libdwfl's private copies or
 * the file's pages read, are let go: as many bytes again as .debug_info
 * (mlx5_core.ko: 28.6 MB of .rela.debug_info), held to the end of the
 * run, and at its peak.  Only pages wholly inside a relocation section
 * go: a page it shares with a relocated section keeps its bytes.
 */
static void drop_reloc(char *map, const GElf_Shdr *rel, const GElf_Shdr *target)
{
	(void)target;
	populate__drop(map + rel->sh_offset, map + rel->sh_offset + rel->sh_size);
}

/* Relocatable objects (modules) need their .rela.debug_* applied: dwarf_reloc or libdwfl. */
static int dwarf_loader__open_relocated(struct dwarf_loader *l, const char *path)
{
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	int fd = l->image.fd >= 0 ? l->image.fd : l->fd;
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	l->rel_size = st.st_size;
	l->rel_map = mmap(NULL, l->rel_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (l->rel_map == MAP_FAILED) {
		l->rel_map = NULL;
		return -errno;
	}
	dwarf_loader__debug_relocs(l->elf, l->rel_map, l->rel_size, populate_target);
	/* Where it is plain, as libdwfl would, for a tenth of its cost (dwarf_reloc.h). */
	if (dwarf_reloc__apply(l->rel_map, l->rel_size)) {
		l->rel_elf = elf_memory(l->rel_map, l->rel_size);
		l->dwarf = l->rel_elf ? dwarf_begin_elf(l->rel_elf, DWARF_C_READ, NULL) : NULL;
		if (!l->dwarf)
			return -EBADMSG;
		dwarf_loader__debug_relocs(l->elf, l->rel_map, l->rel_size, drop_reloc);
		return 0;
	}
	dwarf_loader__debug_relocs(l->elf, l->rel_map, l->rel_size, populate_rel);
	l->dwfl = dwfl_begin(&offline_callbacks);
	if (!l->dwfl)
		return -ENOMEM;
	mod = dwfl_report_offline_memory(l->dwfl, path, path, l->rel_map, l->rel_size);
	if (!mod || dwfl_report_end(l->dwfl, NULL, NULL) != 0)
		return -ENOEXEC;
	l->module = mod;
	l->dwarf = dwfl_module_getdwarf(mod, &bias);
	/* There is a .debug_info: failing to read it is an error, not "no DWARF". */
	if (!l->dwarf)
		return -EBADMSG;
	dwarf_loader__debug_relocs(l->elf, l->rel_map, l->rel_size, drop_reloc);
	return 0;
}

/*
 * Notes where .debug_info lies when libelf serves it straight from the
 * file's mapping, not from memory of its own (converted, decompressed or
 * relocated data): only then may pages of it be dropped.
 */
static void dwarf_loader__find_mapped_info(struct dwarf_loader *l)
{
	size_t raw_size;
	char *raw = elf_rawfile(l->elf, &raw_size);
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf_Data *d = raw && !elf_scn__find(l->elf, ".debug_info", &scn, &shdr) ?
			      elf_getdata(scn, NULL) :
			      NULL;

	if (d && (char *)d->d_buf >= raw && (char *)d->d_buf + d->d_size <= raw + raw_size &&
	    (char *)d->d_buf == raw + shdr.sh_offset) {
		l->info = d->d_buf;
		l->info_size = d->d_size;
		l->raw = raw;
		l->raw_size = raw_size;
	}
}

bool dwarf_loader__file_mapped(const struct dwarf_loader *l, const void *start, const void *end)
{
	return l->raw && (const char *)start >= l->raw &&
	       (const char *)start <= (const char *)end &&
	       (const char *)end <= l->raw + l->raw_size;
}

/* Opening failed with @err, @what in words, unless memory ran out (lib/elfutils.h). */
static int open_failed(int err, const char *what, const char **cause)
{
	err = elfutils__err(err);
	*cause = err == -ENOMEM ? "out of memory" : what;
	return err;
}

/*
 * Compressed sections (zstd, which libdw 0.188 cannot read, and zlib)
 * decompressed at once by as many threads as there are cores, into an
 * image that l->elf then reads (elf_image.h); *@size becomes its size.
 * The file stays l->fd, which dwarf_alt.c compares its files with.
 */
static int dwarf_loader__unpack(struct dwarf_loader *l, uint64_t file_size, uint64_t *size,
				const char **cause)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int err = elf_image__unpack(l->elf, l->fd, file_size, cpus > 0 ? cpus : 1, &l->image,
				    l->image_why, sizeof(l->image_why));

	if (err) {
		*cause = l->image_why;
		return err;
	}
	if (l->image.fd < 0)
		return 0;
	elf_end(l->elf);
	l->elf = elf_begin(l->image.fd, ELF_C_READ_MMAP, NULL);
	if (!l->elf)
		return open_failed(-ENOMEM, "cannot read its decompressed sections", cause);
	*size = l->image.size;
	return 0;
}

static int dwarf_loader__open_elf(struct dwarf_loader *l, const char *path, uint64_t file_size,
				  const char **cause)
{
	const char *what;
	GElf_Ehdr ehdr;
	int err;

	errno = 0;
	l->elf = elf_begin(l->fd, ELF_C_READ_MMAP, NULL);
	if (!l->elf || elf_kind(l->elf) != ELF_K_ELF)
		return open_failed(-ENOEXEC, "not an ELF file", cause);
	err = dwarf_loader__unpack(l, file_size, &file_size, cause);
	if (err)
		return err;
	err = elf_scn__check_dwarf(l->elf, file_size, &ehdr, &l->info_sec_size, &what);
	if (err)
		return open_failed(err, what, cause);
	if (ehdr.e_type == ET_REL) {
		err = dwarf_loader__open_relocated(l, path);

		if (err)
			return open_failed(err,
					   err == -EBADMSG ?
						   "corrupt DWARF: cannot read or relocate it" :
						   "cannot read or relocate its DWARF",
					   cause);
		return 0;
	}
	l->dwarf = dwarf_begin_elf(l->elf, DWARF_C_READ, NULL);
	if (!l->dwarf)
		return open_failed(-ENOEXEC, dwarf_errmsg(-1), cause);
	dwarf_loader__find_mapped_info(l);
	return 0;
}

/*
 * The bytes of DWARF section .debug_@name as libdw reads them (relocated,
 * decompressed: libdw decompresses a GNU .zdebug_@name in place as it
 * opens the file), or false.
 */
static bool dwarf_loader__section(Dwarf *dwarf, const char *name, const unsigned char **start,
				  const unsigned char **end)
{
	Elf *elf = dwarf_getelf(dwarf);
	char scn_name[32];
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	GElf_Shdr shdr;

	snprintf(scn_name, sizeof(scn_name), ".debug_%s", name);
	if (elf && elf_scn__find(elf, scn_name, &scn, &shdr)) {
		snprintf(scn_name, sizeof(scn_name), ".zdebug_%s", name);
		if (elf_scn__find(elf, scn_name, &scn, &shdr))
			scn = NULL;
	}
	data = scn ? elf_getdata(scn, NULL) : NULL;
	if (!data || !data->d_buf)
		return false;
	*start = data->d_buf;
	*end = *start + data->d_size;
	return true;
}

/* The units whose abbreviations libdw reads, one each, by several threads. */
struct abbrev_units {
	DARRAY(Dwarf_Die) dies;
};

static int abbrev_units__intern(void *ctx, size_t i, unsigned int thread)
{
	struct abbrev_units *u = ctx;

	(void)thread;
	dwarf_loader__intern_abbrevs(&u->dies.data[i]);
	return 0;
}

/*
 * Where the units are one, workers read the DIEs of units other than
 * their chunk's (btf_encoder_foreign.c): libdw reads every abbreviation of
 * every unit here first (and of the alternate file's partial units the
 * file imports), as of partial units, so that they share only lookups.
 * libdw fills each unit's table of its own, thread-safely: the units are
 * shared out to @threads threads.  Out of memory, the units left out are
 * read as the workers meet them, as before libdw 0.178 made that safe.
 */
void dwarf_loader__intern_all_abbrevs(struct dwarf_loader *l, unsigned int threads)
{
	struct abbrev_units u = {};
	Dwarf_CU *cu = NULL;
	Dwarf_Die die, *slot;
	size_t i;

	while (dwarf_get_units(l->dwarf, cu, &cu, NULL, NULL, &die, NULL) == 0) {
		if (!(slot = darray__push(&u.dies)))
			break;
		*slot = die;
	}
	for (i = 0; i < l->alt.units.nr && (slot = darray__push(&u.dies)); i++)
		*slot = l->alt.units.data[i];
	par_for(threads, u.dies.nr, abbrev_units__intern, &u);
	darray__free(&u.dies);
}

void dwarf_loader__debug_info(const struct dwarf_loader *l, const unsigned char **start,
			      const unsigned char **end)
{
	*start = l->debug_info;
	*end = l->debug_info_end;
}

void dwarf_loader__debug_abbrev(const struct dwarf_loader *l, const unsigned char **start,
				const unsigned char **end)
{
	if (!l->dwarf || !dwarf_loader__section(l->dwarf, "abbrev", start, end))
		*start = *end = NULL;
}

void dwarf_loader__debug_strs(const struct dwarf_loader *l, const char **str, const char **str_end,
			      const char **line_str, const char **line_str_end)
{
	const unsigned char *s, *e;

	*str = *str_end = *line_str = *line_str_end = NULL;
	if (l->dwarf && dwarf_loader__section(l->dwarf, "str", &s, &e)) {
		*str = (const char *)s;
		*str_end = (const char *)e;
	}
	if (l->dwarf && dwarf_loader__section(l->dwarf, "line_str", &s, &e)) {
		*line_str = (const char *)s;
		*line_str_end = (const char *)e;
	}
}

void dwarf_loader__debug_locs(const struct dwarf_loader *l, const unsigned char **loc,
			      const unsigned char **loc_end, const unsigned char **loclists,
			      const unsigned char **loclists_end)
{
	if (!l->dwarf || !dwarf_loader__section(l->dwarf, "loc", loc, loc_end))
		*loc = *loc_end = NULL;
	if (!l->dwarf || !dwarf_loader__section(l->dwarf, "loclists", loclists, loclists_end))
		*loclists = *loclists_end = NULL;
}

/* linux/elfnote-lto.h: a note "Linux" of this type says whether the kernel is LTO-built. */
#define LINUX_ELFNOTE_LTO_INFO 0x101

/* Whether @elf has the kernel's LTO note; if so, its value in *@lto. */
static bool elf_lto_note(Elf *elf, bool *lto)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data = NULL;
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		while ((data = elf_getdata(scn, data))) {
			size_t off = 0, name_off, desc_off;
			GElf_Nhdr nhdr;

			while ((off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off))) {
				if (nhdr.n_type != LINUX_ELFNOTE_LTO_INFO || nhdr.n_namesz != 6 ||
				    memcmp((char *)data->d_buf + name_off, "Linux", 6) ||
				    nhdr.n_descsz < sizeof(int))
					continue;
				*lto = *(int *)((char *)data->d_buf + desc_off) != 0;
				return true;
			}
		}
	}
	return false;
}

/*
 * Starts the scan of the units (dwarf_scan.c) on what it reads of the
 * file: .debug_abbrev, whether the LTO note says the units are one.
 */
static void dwarf_loader__scan_units(struct dwarf_loader *l)
{
	const char *ident = elf_getident(dwarf_loader__elf(l), NULL);
	struct unit_scan *scan = &l->scan;
	const unsigned char *types, *types_end;
	bool lto;

	scan->big_endian = ident && ident[EI_DATA] == ELFDATA2MSB;
	if (!dwarf_loader__section(l->dwarf, "abbrev", &scan->abbrevs, &scan->end))
		scan->abbrevs = scan->end = NULL;
	scan->abbrevs_mapped = scan->abbrevs &&
			       dwarf_loader__file_mapped(l, scan->abbrevs, scan->end);
	scan->has_types = dwarf_loader__section(l->dwarf, "types", &types, &types_end);
	if (elf_lto_note(dwarf_loader__elf(l), &lto))
		l->merged = lto;
	else
		scan->check_refs = scan->abbrevs != NULL;
	unit_scan__start(l);
}

bool dwarf_loader__merged(struct dwarf_loader *l)
{
	dwarf_loader__wait_look(l);
	return l->merged;
}

bool dwarf_loader__partial_units(struct dwarf_loader *l)
{
	dwarf_loader__wait_look(l);
	return l->partial_units;
}

Dwarf *dwarf_loader__alt(const struct dwarf_loader *l, Dwarf **main, const char **link,
			 uint64_t *info_size)
{
	*main = l->dwarf;
	*link = l->alt.link;
	*info_size = dwarf_alt__info_size(&l->alt);
	return l->alt.units.nr ? l->alt.dwarf : NULL;
}

unsigned int dwarf_loader__partial_skipped(const struct dwarf_loader *l)
{
	return l->partial_skipped;
}

int dwarf_loader__open(const char *path, struct dwarf_loader **out, char *why, size_t len)
{
	const char *what = NULL, **cause = &what;
	struct dwarf_loader *l;
	struct stat st;
	int err;

	l = calloc(1, sizeof(*l));
	if (!l) {
		snprintf(why, len, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	l->alt.fd = -1;
	l->alt.image.fd = -1;
	l->image.fd = -1;
	elf_version(EV_CURRENT);
	/* O_NONBLOCK: a FIFO must be refused below, not waited on. */
	l->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (l->fd < 0) {
		err = -errno;
		*cause = strerror(errno);
		goto fail;
	}
	if (fstat(l->fd, &st) != 0) {
		err = -errno;
		*cause = strerror(errno);
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		err = -EISDIR;
		*cause = "is a directory";
		goto fail;
	}
	if (!S_ISREG(st.st_mode) || st.st_size == 0) {
		err = -ENOEXEC;
		*cause = !S_ISREG(st.st_mode) ? "not a regular file" : "empty file";
		goto fail;
	}
	err = dwarf_loader__open_elf(l, path, st.st_size, cause);
	if (err)
		goto fail;
	/* Before anything of libdw's could look for the alternate file itself. */
	err = dwarf_alt__open(&l->alt, l->dwarf, l->elf, l->fd, path, why, len);
	if (err)
		goto fail_alt;
	err = dwarf_alt__units(&l->alt, l->dwarf);
	if (err) {
		*cause = strerror(-err);
		goto fail;
	}
	/*
	 * libdw looks for the alternate file the first time it is asked for one
	 * (dwarf_getalt(): a DW_FORM_GNU_strp_alt or strp_sup string's
	 * dwarf_formstring() asks) and notes what it found, or that there is
	 * none, without a lock: asked here, before the workers, theirs only
	 * read that (a fuzzed file whose unit names were strp_sup: two workers'
	 * lookups at once crashed in libdw).
	 */
	(void)dwarf_getalt(l->dwarf);
	/* As v1.32: with partial units from an alternate file, the units are one. */
	l->merged |= l->alt.units.nr > 0;
	if (!dwarf_loader__section(l->dwarf, "info", &l->debug_info, &l->debug_info_end))
		l->debug_info = l->debug_info_end = NULL;
	/* The last use of libdw here: the scan may go on in a thread. */
	dwarf_loader__scan_units(l);
	*out = l;
	return 0;
fail:
	snprintf(why, len, "%s", what);
fail_alt:
	dwarf_loader__close(l);
	return err;
}

void dwarf_loader__release(struct dwarf_loader *l)
{
	dwarf_loader__free_scan(l);
	if (l->dwfl)
		dwfl_end(l->dwfl);
	else if (l->dwarf)
		dwarf_end(l->dwarf);
	if (l->rel_elf)
		elf_end(l->rel_elf);
	l->rel_elf = NULL;
	if (l->rel_map)
		munmap(l->rel_map, l->rel_size);
	l->rel_map = NULL;
	if (l->elf)
		elf_end(l->elf);
	if (l->fd >= 0)
		close(l->fd);
	elf_image__close(&l->image);
	l->dwfl = NULL;
	l->module = NULL;
	l->dwarf = NULL;
	l->elf = NULL;
	l->info = NULL;
	l->raw = NULL;
	l->debug_info = l->debug_info_end = NULL;
	l->fd = -1;
	dwarf_alt__free(&l->alt);
}

void dwarf_loader__close(struct dwarf_loader *l)
{
	if (!l)
		return;
	dwarf_loader__release(l);
	free(l);
}

Elf *dwarf_loader__elf(const struct dwarf_loader *l)
{
	Dwarf_Addr bias;

	/* Relocated, the file has the section addresses its DWARF was relocated to. */
	if (l->rel_elf)
		return l->rel_elf;
	if (l->dwfl && l->module)
		return dwfl_module_getelf(l->module, &bias) ?: l->elf;
	return l->elf;
}
