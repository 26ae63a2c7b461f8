// SPDX-License-Identifier: GPL-2.0-only
/*
 * A dwz alternate file and the partial units a file imports from it: see
 * dwarf_alt.h.  The forms are those of dwz and of the GNU DWARF extensions
 * (DW_FORM_GNU_ref_alt, 0x1f20); libdw resolves them (dwarf_formref_die()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>
#include <gelf.h>

#include <dwarf.h>

#include "dwarf_alt.h"
#include "lib/elf_scn.h"
#include "lib/elfutils.h"
#include "lib/leb128.h"
#include "lib/ptr_map.h"

struct alt_scan {
	struct dwarf_alt *alt;
	struct ptr_map seen; /* the units added, by offset + 1 */
	int err;
};

/* Adds the unit of the alternate file that @target is in, once. */
static void alt_scan__add(struct alt_scan *s, Dwarf_Die *target)
{
	Dwarf_Die unit, *slot;
	uint32_t v;
	void *key;

	if (dwarf_cu_getdwarf(target->cu) != s->alt->dwarf ||
	    !dwarf_diecu(target, &unit, NULL, NULL) || dwarf_tag(&unit) != DW_TAG_partial_unit)
		return;
	key = (void *)(uintptr_t)(dwarf_dieoffset(&unit) + 1);
	if (ptr_map__find(&s->seen, key, &v))
		return;
	if (ptr_map__add(&s->seen, key, 0) || !(slot = darray__push(&s->alt->units)))
		s->err = -ENOMEM;
	else
		*slot = unit;
}

/* A reference into the alternate file, from the file or within the alternate file. */
static int alt_scan__attr(Dwarf_Attribute *attr, void *arg)
{
	struct alt_scan *s = arg;
	unsigned int form = dwarf_whatform(attr);
	Dwarf_Die target;

	if ((form == DW_FORM_GNU_ref_alt || form == DW_FORM_ref_sup4 || form == DW_FORM_ref_sup8 ||
	     form == DW_FORM_ref_addr) &&
	    dwarf_alt__ref_die(attr, &target))
		alt_scan__add(s, &target);
	return s->err ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/* Every DIE of @die's subtree: the units they refer to in the alternate file. */
static void alt_scan__walk(struct alt_scan *s, Dwarf_Die *die, int depth)
{
	Dwarf_Die child;

	/*
	 * Nothing of inlined expansions and call sites is read for BTF, by
	 * v1.32 or by us: what only they refer to is not loaded (measured).
	 */
	switch (dwarf_tag(die)) {
	case DW_TAG_inlined_subroutine:
	case DW_TAG_call_site:
	case DW_TAG_GNU_call_site:
		return;
	default:
		break;
	}
	dwarf_getattrs(die, alt_scan__attr, s, 0);
	if (s->err || depth > 256 || dwarf_child(die, &child) != 0)
		return;
	do
		alt_scan__walk(s, &child, depth + 1);
	while (!s->err && dwarf_siblingof(&child, &child) == 0);
}

/* The units alternate unit @unit imports (its DW_TAG_imported_unit children). */
static void alt_scan__imports(struct alt_scan *s, Dwarf_Die *unit)
{
	Dwarf_Attribute attr;
	Dwarf_Die child;

	if (dwarf_child(unit, &child) != 0)
		return;
	do {
		if (dwarf_tag(&child) == DW_TAG_imported_unit &&
		    dwarf_attr(&child, DW_AT_import, &attr))
			alt_scan__attr(&attr, s);
	} while (!s->err && dwarf_siblingof(&child, &child) == 0);
}

static int die_cmp(const void *a, const void *b)
{
	Dwarf_Off x = dwarf_dieoffset((Dwarf_Die *)a), y = dwarf_dieoffset((Dwarf_Die *)b);

	return x < y ? -1 : x > y;
}

/* The path of @name, in the directory of @path unless it is absolute, in *@out (to free). */
static int beside(const char *path, const char *name, char **out)
{
	const char *slash = strrchr(path, '/');

	if (name[0] == '/' || !slash)
		*out = strdup(name);
	else if (asprintf(out, "%.*s/%s", (int)(slash - path), path, name) < 0)
		*out = NULL;
	return *out ? 0 : -ENOMEM;
}

/* The build ID path of @id (@len bytes): /usr/lib/debug/.build-id/XX/REST.debug, in *@out. */
static int by_build_id(const unsigned char *id, size_t len, char **out)
{
	size_t i, n;

	*out = malloc(sizeof("/usr/lib/debug/.build-id//.debug") + 2 * len);
	if (!*out)
		return -ENOMEM;
	n = sprintf(*out, "/usr/lib/debug/.build-id/%02x/", id[0]);
	for (i = 1; i < len; i++)
		n += sprintf(*out + n, "%02x", id[i]);
	strcpy(*out + n, ".debug");
	return 0;
}

/*
 * What the file opened as @fd is, as an alternate file of @main: NULL when
 * it will do, its compressed sections decompressed into a->image.
 */
static const char *alt_file__judge(struct dwarf_alt *a, int fd, const struct stat *main,
				   const unsigned char *ident, Elf **elf)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	const unsigned char *id;
	uint64_t info_size;
	const char *cause;
	GElf_Ehdr ehdr;
	struct stat st;

	if (fstat(fd, &st))
		return strerror(errno);
	if (S_ISDIR(st.st_mode))
		return "is a directory";
	if (!S_ISREG(st.st_mode))
		return "not a regular file";
	if (st.st_dev == main->st_dev && st.st_ino == main->st_ino)
		return "is the file itself";
	if (!st.st_size)
		return "empty file";
	*elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!*elf || elf_kind(*elf) != ELF_K_ELF)
		return "not an ELF file";
	id = (const unsigned char *)elf_getident(*elf, NULL);
	if (!id || id[EI_DATA] != ident[EI_DATA])
		return "in the other byte order";
	if (id[EI_CLASS] != ident[EI_CLASS])
		return "of the other ELF class";
	if (elf_image__unpack(*elf, fd, st.st_size, cpus > 0 ? cpus : 1, &a->image, a->image_why,
			      sizeof(a->image_why)))
		return a->image_why;
	if (a->image.fd >= 0) {
		elf_end(*elf);
		*elf = elf_begin(a->image.fd, ELF_C_READ_MMAP, NULL);
		if (!*elf)
			return "cannot read its decompressed sections";
		st.st_size = a->image.size;
	}
	return elf_scn__check_dwarf(*elf, st.st_size, &ehdr, &info_size, &cause) ? cause : NULL;
}

/*
 * @file, if it is there, as the alternate file of @dwarf: 1 when it is (set
 * as libdw's), 0 when there is no such file, or a negative errno with
 * *@cause.  O_NONBLOCK: a FIFO is refused, never waited on.
 */
static int alt_file__try(struct dwarf_alt *a, Dwarf *dwarf, const char *file,
			 const struct stat *main, const unsigned char *ident, const char **cause)
{
	Elf *elf = NULL;

	a->fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (a->fd < 0 && (errno == ENOENT || errno == ENOTDIR || errno == ENAMETOOLONG))
		return 0;
	if (a->fd < 0) {
		*cause = strerror(errno);
		return errno == ENOMEM ? -ENOMEM : -EACCES;
	}
	a->image_why[0] = '\0';
	*cause = alt_file__judge(a, a->fd, main, ident, &elf);
	if (!*cause) {
		a->elf = elf;
		a->dwarf = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
		if (a->dwarf) {
			dwarf_setalt(dwarf, a->dwarf);
			return 1;
		}
		*cause = "corrupt DWARF: libdw cannot read it";
		a->elf = NULL;
	}
	if (elf)
		elf_end(elf);
	elf_image__close(&a->image);
	close(a->fd);
	a->fd = -1;
	return elfutils__err(-EINVAL) == -ENOMEM ? -ENOMEM : -ENOEXEC;
}

/* How the file names its alternate file, besides the name (dwarf_alt.link). */
struct alt_link {
	const unsigned char *id; /* its build ID (.debug_sup: its checksum), id_len bytes */
	uint64_t id_len;
	bool sup; /* named by .debug_sup (DWARF 5, DW_FORM_ref_sup4/8) */
};

/* Where a .debug_sup names its file: 0 and *@name, *@id (*@id_len bytes), or -ENOENT. */
static int debug_sup__read(Dwarf *dwarf, const unsigned char *ident, const char **name,
			   const unsigned char **id, uint64_t *id_len)
{
	const unsigned char *p, *end;
	Elf_Data *data;
	Elf_Scn *scn;
	GElf_Shdr shdr;
	unsigned int version;

	if (elf_scn__find(dwarf_getelf(dwarf), ".debug_sup", &scn, &shdr) ||
	    !(data = elf_getdata(scn, NULL)) || data->d_size < 4)
		return -ENOENT;
	p = data->d_buf;
	end = p + data->d_size;
	/* Its version (a uhalf, 5), is_supplementary (0 here), the file name, the checksum. */
	version = ident[EI_DATA] == ELFDATA2MSB ? p[0] << 8 | p[1] : p[1] << 8 | p[0];
	if (version != 5 || p[2] != 0 || !memchr(p + 3, '\0', end - (p + 3)))
		return -ENOENT;
	*name = (const char *)p + 3;
	p += 3 + strlen(*name) + 1;
	*id = p;
	*id_len = 0;
	if (!leb128__read(id, end, id_len, false) || *id_len > (uint64_t)(end - *id))
		*id_len = 0;
	return 0;
}

/*
 * The file the section names: each place in turn, the first there is the
 * one.  .gnu_debugaltlink as libdw 0.188's dwarf_getalt() looks (facts from
 * elfutils' libdw/dwarf_getalt.c): by the build ID (3 to 64 bytes) under
 * /usr/lib/debug/.build-id, then the name, beside the file unless absolute.
 * .debug_sup, which libdw does not look for: the name, then the checksum
 * dwz puts there as a build ID.
 */
static int alt_file__find(struct dwarf_alt *a, Dwarf *dwarf, const struct alt_link *l,
			  const char *path, const struct stat *main, const unsigned char *ident,
			  char *why, size_t len)
{
	const char *what = l->sup ? "DWARF 5 supplementary file" : "dwz alternate file";
	const char *section = l->sup ? ".debug_sup" : ".gnu_debugaltlink";
	const char *cause = NULL;
	char *places[2] = { NULL, NULL };
	bool by_id = l->id_len >= 3 && l->id_len <= 64;
	size_t nr = 0, i;
	int err = 0;

	if (by_id && !l->sup)
		err = by_build_id(l->id, l->id_len, &places[nr++]);
	err = err ?: beside(path, a->link, &places[nr++]);
	if (!err && by_id && l->sup)
		err = by_build_id(l->id, l->id_len, &places[nr++]);
	for (i = 0; !err && i < nr && !a->dwarf; i++) {
		err = alt_file__try(a, dwarf, places[i], main, ident, &cause);
		if (err < 0)
			snprintf(why, len, "its %s %s (%s): %s", what, places[i], section, cause);
	}
	if (!err && !a->dwarf) {
		err = -ENOENT;
		snprintf(why, len,
			 "its %s %s (%s) cannot be read: not found beside the file nor by its "
			 "build ID under /usr/lib/debug/.build-id",
			 what, a->link, section);
	}
	if (err == -ENOMEM)
		snprintf(why, len, "%s", strerror(ENOMEM));
	free(places[0]);
	free(places[1]);
	return err < 0 ? err : 0;
}

int dwarf_alt__open(struct dwarf_alt *a, Dwarf *dwarf, Elf *elf, int fd, const char *path,
		    char *why, size_t len)
{
	const unsigned char *ident = (const unsigned char *)elf_getident(elf, NULL);
	struct alt_link l = {};
	const void *build_id;
	struct stat main;
	ssize_t n;

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	a->image.fd = -1;
	n = dwelf_dwarf_gnu_debugaltlink(dwarf, &a->link, &build_id);
	if (n > 0) {
		l.id = build_id;
		l.id_len = n;
	} else if (!ident || debug_sup__read(dwarf, ident, &a->link, &l.id, &l.id_len)) {
		a->link = NULL;
		return 0;
	} else {
		l.sup = true;
	}
	if (fstat(fd, &main)) {
		snprintf(why, len, "%s", strerror(errno));
		return -errno;
	}
	return alt_file__find(a, dwarf, &l, path, &main, ident, why, len);
}

int dwarf_alt__units(struct dwarf_alt *a, Dwarf *dwarf)
{
	struct alt_scan s = { .alt = a };
	Dwarf_CU *cu = NULL;
	Dwarf_Die cu_die;
	size_t i;

	if (!a->dwarf)
		return 0;
	while (!s.err && dwarf_get_units(dwarf, cu, &cu, NULL, NULL, &cu_die, NULL) == 0)
		alt_scan__walk(&s, &cu_die, 0);
	/*
	 * What those import in turn, those found on the way included; not
	 * what their DIEs refer to (v1.32 does not load those units: measured,
	 * the types that refer into them are void there).
	 */
	for (i = 0; !s.err && i < a->units.nr; i++) {
		Dwarf_Die unit = a->units.data[i];

		alt_scan__imports(&s, &unit);
	}
	ptr_map__free(&s.seen);
	/* Not qsort() of none: its array may be NULL. */
	if (!s.err && a->units.nr > 1)
		qsort(a->units.data, a->units.nr, sizeof(*a->units.data), die_cmp);
	return s.err;
}

void dwarf_alt__free(struct dwarf_alt *a)
{
	darray__free(&a->units);
	/* After the file's Dwarf, as dwarf_setalt() asks. */
	if (a->dwarf)
		dwarf_end(a->dwarf);
	if (a->elf)
		elf_end(a->elf);
	if (a->fd >= 0)
		close(a->fd);
	elf_image__close(&a->image);
	a->dwarf = NULL;
	a->elf = NULL;
	a->fd = -1;
}

Dwarf_Die *dwarf_alt__ref_die(Dwarf_Attribute *attr, Dwarf_Die *out)
{
	unsigned int form = dwarf_whatform(attr), size = form == DW_FORM_ref_sup4 ? 4 : 8;
	unsigned char b[8];
	const char *ident;
	bool big_endian;
	uint64_t off = 0;
	unsigned int i;
	Dwarf *alt;
	Elf *elf;

	if (form != DW_FORM_ref_sup4 && form != DW_FORM_ref_sup8)
		return dwarf_formref_die(attr, out);
	/* libdw 0.188 takes the offset in the file's own .debug_info: read it here. */
	alt = dwarf_getalt(dwarf_cu_getdwarf(attr->cu));
	elf = dwarf_getelf(dwarf_cu_getdwarf(attr->cu));
	if (!alt || !elf || !attr->valp)
		return NULL;
	ident = elf_getident(elf, NULL);
	big_endian = ident && ident[EI_DATA] == ELFDATA2MSB;
	memcpy(b, attr->valp, size);
	for (i = 0; i < size; i++)
		off = off << 8 | b[big_endian ? i : size - 1 - i];
	return dwarf_offdie(alt, off, out);
}

uint64_t dwarf_alt__info_size(const struct dwarf_alt *a)
{
	Dwarf_Off off = 0, next;
	size_t header_size;

	if (!a->dwarf)
		return 0;
	while (dwarf_next_unit(a->dwarf, off, &next, &header_size, NULL, NULL, NULL, NULL, NULL,
			       NULL) == 0)
		off = next;
	return off;
}
