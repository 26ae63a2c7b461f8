// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scan of the units at open (struct unit_scan, dwarf_loader_priv.h):
 * what the workers need to know of the units before they take any, and
 * libdw's interning of every unit, which the workers' taking of chunks
 * then reads.
 *
 * libdw interns a unit (__libdw_intern_next_unit: its header read, a
 * Dwarf_CU made and put in the Dwarf's tree of units) the first time it is
 * listed, touching the page of its header: a vmlinux's 2,000 to 3,000
 * units take 50 ms so, most of it the first touch of each header's page
 * in a virtual machine.  The workers only need a unit interned when they
 * take it, and where no worker looks a unit up in libdw's tree, the
 * interning may go on beside them.  So the scan is two passes, in a thread
 * of its own for a large file:
 *   the look: every unit header and the unit DIE's abbreviation read from
 *     the bytes, with pread() from the file where .debug_info is its
 *     mapping (no page of it mapped): where each unit ends, its language,
 *     and whether anything would make a worker search libdw's tree of
 *     units (a reference into another unit or file, a type unit, a
 *     partial or skeleton unit; the units one, as the LTO note or
 *     DW_FORM_ref_addr says), which the main thread waits for;
 *   the interning: libdw lists every unit, and the units it has interned
 *     are published to the queue (dwarf_chunks.c) as it goes, where
 *     nothing would search the tree (@overlap), else all of them before
 *     the workers start, as the main thread then joins the thread first.
 * A small file (.debug_abbrev under ABBREV_SCAN_THREAD_BYTES) is scanned
 * in the open, by the interning pass alone.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <gelf.h>

#include "die_reader.h"
#include "dwarf_loader_priv.h"
#include "lib/clock.h"
#include "lib/leb128.h"
#include "lib/populate.h"

/* How many bytes of a unit the look reads: its header and its DIE's first attributes. */
#define LOOK_BYTES 256

/* What an abbreviation table holds that matters before the workers start. */
enum {
	ABBREV_REF_ADDR = 1, /* a DW_FORM_ref_addr: the units may refer into each other */
	/* a form or attribute that has libdw search its tree of units, or is not read here */
	ABBREV_SHARED = 2,
	ABBREV_BAD = 4, /* a table that cannot be read to its end */
};

static unsigned int abbrev_form_flags(uint64_t form)
{
	switch (form) {
	case DW_FORM_ref_addr:
		return ABBREV_REF_ADDR | ABBREV_SHARED;
	case DW_FORM_ref_sig8:
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_ref_sup4:
	case DW_FORM_ref_sup8:
	case DW_FORM_GNU_strp_alt:
	case DW_FORM_strp_sup:
	case DW_FORM_indirect:
		return ABBREV_SHARED;
	default:
		return 0;
	}
}

/*
 * Reads the abbreviation table at @p (of .debug_abbrev, which ends at
 * @end) to its end: the ABBREV_* it holds, and in *@entry and *@tag the
 * entry of abbreviation @code (NULL if none).  Read from the bytes:
 * dwarf_getabbrev() would keep every abbreviation of every unit in libdw's
 * memory, where the workers have libdw read only those they meet.
 */
static unsigned int abbrev_table__look(const unsigned char *p, const unsigned char *end,
				       uint64_t code, const unsigned char **entry, uint64_t *tag)
{
	uint64_t c, t, name, form, value;
	unsigned int flags = 0;
	const unsigned char *start;

	*entry = NULL;
	for (;;) {
		start = p;
		/* A LEB128 past ten bytes (none that a compiler writes) ends the table's reading. */
		if (!leb128__read(&p, end, &c, false))
			return flags | ABBREV_BAD;
		if (!c)
			return flags;
		if (!leb128__read(&p, end, &t, false) || p++ >= end)
			return flags | ABBREV_BAD;
		if (c == code && !*entry) {
			*entry = start;
			*tag = t;
		}
		for (;;) {
			if (!leb128__read(&p, end, &name, false) ||
			    !leb128__read(&p, end, &form, false))
				return flags | ABBREV_BAD;
			if (!name && !form)
				break;
			flags |= abbrev_form_flags(form);
			/* A skeleton unit of split DWARF: libdw looks for its other half. */
			if (name == DW_AT_GNU_dwo_id || name == DW_AT_dwo_name)
				flags |= ABBREV_SHARED;
			if (form == DW_FORM_implicit_const && !leb128__read(&p, end, &value, true))
				return flags | ABBREV_BAD;
		}
	}
}

/* A unit header as the look reads it. */
struct unit_head {
	uint64_t next, abbrev_off;
	size_t size;
	uint16_t version;
	uint8_t unit_type, addr_size, offset_size;
};

/*
 * Reads the header of the unit at @off, whose first @len bytes are at @b,
 * of a .debug_info of @info_size bytes; false if it is not one libdw
 * surely reads alike (libdw then says what it is).
 */
static bool unit_head__read(struct unit_head *h, const unsigned char *b, size_t len, uint64_t off,
			    uint64_t info_size, bool big_endian)
{
	const unsigned char *p = b, *end = b + len;
	uint64_t length;

	if (len < 4)
		return false;
	length = die_reader__fixed(p, 4, big_endian);
	p += 4;
	h->offset_size = 4;
	if (length == 0xffffffff) {
		if (len < 12)
			return false;
		length = die_reader__fixed(p, 8, big_endian);
		p += 8;
		h->offset_size = 8;
	} else if (length >= 0xfffffff0) {
		return false;
	}
	if (length > info_size - off - (size_t)(p - b))
		return false;
	h->next = off + (size_t)(p - b) + length;
	if (end - p < 2)
		return false;
	h->version = die_reader__fixed(p, 2, big_endian);
	p += 2;
	if (h->version < 2 || h->version > 5)
		return false;
	if (h->version == 5) {
		if (end - p < 2 + h->offset_size)
			return false;
		h->unit_type = *p++;
		h->addr_size = *p++;
		h->abbrev_off = die_reader__fixed(p, h->offset_size, big_endian);
		p += h->offset_size;
		/* Only compile and partial units: the others carry more, and mean more. */
		if (h->unit_type != DW_UT_compile && h->unit_type != DW_UT_partial)
			return false;
	} else {
		if (end - p < 1 + h->offset_size)
			return false;
		h->abbrev_off = die_reader__fixed(p, h->offset_size, big_endian);
		p += h->offset_size;
		h->addr_size = *p++;
		h->unit_type = DW_UT_compile; /* or partial, by the unit DIE's tag */
	}
	h->size = p - b;
	return h->size <= h->next - off;
}

/* Reads @len bytes of .debug_info at @off into @buf: how many it could. */
static size_t unit_scan__bytes(const struct unit_scan *scan, uint64_t off, unsigned char *buf,
			       size_t len)
{
	const struct dwarf_loader *l = scan->l;
	size_t size = l->debug_info_end - l->debug_info;
	ssize_t n;

	if (off >= size)
		return 0;
	if (len > size - off)
		len = size - off;
	if (scan->fd < 0) {
		memcpy(buf, l->debug_info + off, len);
		return len;
	}
	do
		n = pread(scan->fd, buf, len, scan->file_off + off);
	while (n < 0 && errno == EINTR);
	return n > 0 ? (size_t)n : 0;
}

/*
 * Looks at the unit at @off: notes it, and says whether all is as the
 * workers may take it beside the interning (false ends the look).
 */
static bool unit_scan__look_unit(struct unit_scan *scan, uint64_t off, uint64_t *next)
{
	const struct dwarf_loader *l = scan->l;
	uint64_t info_size = l->debug_info_end - l->debug_info, code, tag = 0;
	unsigned char buf[LOOK_BYTES];
	size_t len = unit_scan__bytes(scan, off, buf, sizeof(buf));
	struct dwarf_unit_info *u;
	struct dwarf_cu_bytes bytes;
	const unsigned char *p, *entry;
	struct unit_head h;
	unsigned int flags;

	if (!unit_head__read(&h, buf, len, off, info_size, scan->big_endian) ||
	    h.abbrev_off >= (size_t)(scan->end - scan->abbrevs))
		return false;
	p = buf + h.size;
	bytes = (struct dwarf_cu_bytes){ .die = p,
					 .end = buf + (h.next - off < len ? h.next - off : len),
					 .abbrev_end = scan->end,
					 .addr_size = h.addr_size,
					 .offset_size = h.offset_size,
					 .version = h.version,
					 .big_endian = scan->big_endian };
	if (!leb128__read(&p, bytes.end, &code, false) || !code)
		return false;
	flags = abbrev_table__look(scan->abbrevs + h.abbrev_off, scan->end, code, &entry, &tag);
	if (flags & ABBREV_REF_ADDR)
		scan->refs_across = true;
	if (h.version < 5 && tag == DW_TAG_partial_unit)
		h.unit_type = DW_UT_partial;
	if (h.unit_type == DW_UT_partial)
		scan->partial_units = true;
	if ((flags & (ABBREV_SHARED | ABBREV_BAD)) || !entry ||
	    (tag != DW_TAG_compile_unit && tag != DW_TAG_partial_unit) ||
	    !(u = darray__push(&scan->units)))
		return false;
	*u = (struct dwarf_unit_info){ .start = off, .end = h.next, .unit_type = h.unit_type };
	bytes.abbrev = entry;
	u->has_lang = dwarf_cu__lang(&bytes, &u->lang);
	*next = h.next;
	return true;
}

/*
 * The first pass: every unit looked at, from the bytes; @overlap set when
 * the workers may take the units as libdw's pass interns them.  The
 * units' ends and languages stand either way.
 */
static void unit_scan__look(struct unit_scan *scan)
{
	const struct dwarf_loader *l = scan->l;
	uint64_t off = 0, size = l->debug_info_end - l->debug_info;
	bool ok = l->debug_info && scan->abbrevs && !l->merged && !scan->has_types;

	while (ok && off < size)
		ok = unit_scan__look_unit(scan, off, &off);
	scan->overlap = ok && off == size && !scan->refs_across && !scan->partial_units;
	/* Else the interning notes every unit, as without the look. */
	if (!scan->overlap)
		scan->units.nr = 0;
	/* The tables read: each worker maps its units' again. */
	if (scan->abbrevs_mapped)
		populate__drop(scan->abbrevs, scan->end);
}

/*
 * Notes unit @die, which libdw has just interned, in @u (NULL: out of
 * memory, not noted, read again by the queue): where it ends and its
 * language; and, while the units are not known to be one, whether its
 * abbreviation table refers into other units.  Its header is read again by
 * dwarf_next_unit(), which neither allocates nor changes the Dwarf: the
 * page is mapped.
 */
static void unit_scan__note(struct unit_scan *scan, Dwarf_Die *die, Dwarf_Off *last_abbrev,
			    struct dwarf_unit_info *u)
{
	struct dwarf_loader *l = scan->l;
	Dwarf_Off off = dwarf_unit__offset(die), next, abbrev_off;
	struct dwarf_cu_bytes bytes = { .die = die->addr, .big_endian = scan->big_endian };
	struct dwarf_unit_info none;
	const unsigned char *entry;
	size_t header_size;
	uint64_t tag;

	u = u ?: &none;
	u->start = off;
	if (!l->debug_info || bytes.die < l->debug_info || bytes.die >= l->debug_info_end ||
	    dwarf_next_unit(l->dwarf, off, &next, &header_size, &bytes.version, &abbrev_off,
			    &bytes.addr_size, &bytes.offset_size, NULL, NULL) != 0 ||
	    next <= off || next > (size_t)(l->debug_info_end - l->debug_info))
		return;
	u->end = next;
	if (!scan->abbrevs || abbrev_off >= (size_t)(scan->end - scan->abbrevs))
		return;
	bytes.end = l->debug_info + next;
	bytes.abbrev = scan->abbrevs + abbrev_off;
	bytes.abbrev_end = scan->end;
	u->has_lang = dwarf_cu__lang(&bytes, &u->lang);
	if (scan->check_refs && !scan->refs_across && abbrev_off != *last_abbrev) {
		scan->refs_across = abbrev_table__look(bytes.abbrev, scan->end, 0, &entry, &tag) &
				    ABBREV_REF_ADDR;
		*last_abbrev = abbrev_off;
	}
}

/* Publishes the units before @nr to the queue, with the time (for -V). */
static void unit_scan__publish(struct unit_scan *scan, size_t nr, bool done)
{
	double now = clock__now();
	size_t i;

	pthread_mutex_lock(&scan->lock);
	for (i = scan->published; i < nr; i++)
		scan->units.data[i].published = now;
	if (nr > scan->published)
		scan->published = nr;
	scan->done = done;
	pthread_cond_broadcast(&scan->cond);
	pthread_mutex_unlock(&scan->lock);
}

/*
 * Whether the @i-th unit libdw lists, @die of type @unit_type, is the one
 * the look noted @i-th, which then takes what libdw made of it.
 */
static bool unit_scan__take_die(struct unit_scan *scan, size_t i, Dwarf_Die *die, uint8_t unit_type)
{
	struct dwarf_unit_info *u = i < scan->units.nr ? &scan->units.data[i] : NULL;

	if (!u || u->start != dwarf_unit__offset(die) || u->unit_type != unit_type)
		return false;
	u->cu_die = *die;
	return true;
}

/*
 * The second pass: libdw interns every unit, noted (without the look) and
 * published as it goes; the pages of the headers are dropped as the scan
 * goes: they would all stay resident until their chunks are done (some 20
 * MB of a vmlinux's peak), each fault mapping 64 kB around.  Partial units
 * have their abbreviations read too (dwarf_loader__intern_abbrevs()).
 * Published are the units libdw lists first that are noted in order: one
 * that is not (out of memory; with @overlap, one listed otherwise than the
 * look saw it) stops the publishing, and the queue reads the rest from
 * libdw once the scan is done.
 */
static void unit_scan__intern(struct unit_scan *scan)
{
	struct dwarf_loader *l = scan->l;
	Dwarf_Off last_abbrev = (Dwarf_Off)-1, dropped = 0, off;
	size_t i, publish = 0;
	bool publishing = true;
	Dwarf_CU *cu = NULL;
	uint8_t unit_type;
	Dwarf_Die die;

	for (i = 0; dwarf_get_units(l->dwarf, cu, &cu, NULL, &unit_type, &die, NULL) == 0; i++) {
		struct dwarf_unit_info *u = NULL;

		off = dwarf_unit__offset(&die);
		if (scan->overlap) {
			publishing = publishing && unit_scan__take_die(scan, i, &die, unit_type);
		} else {
			u = publishing ? darray__push(&scan->units) : NULL;
			publishing = u != NULL;
			if (u)
				*u = (struct dwarf_unit_info){ .cu_die = die,
							       .unit_type = unit_type };
			unit_scan__note(scan, &die, &last_abbrev, u);
		}
		if (publishing)
			publish = i + 1;
		if (off > dropped && off - dropped >= SCAN_DROP_BYTES) {
			dwarf_loader__drop_info(l, dropped, off);
			dropped = off;
			/* Only units whose pages the scan drops no more: those before this one. */
			if (scan->overlap)
				unit_scan__publish(scan, publish < i ? publish : i, false);
		}
		if (unit_type != DW_UT_partial || scan->overlap)
			continue;
		scan->partial_units = true;
		dwarf_loader__intern_abbrevs(&die);
	}
	dwarf_loader__drop_info(l, dropped, l->info_size);
	unit_scan__publish(scan, publish, true);
}

static void *unit_scan__run(void *arg)
{
	struct unit_scan *scan = arg;

	if (scan->look) {
		unit_scan__look(scan);
		pthread_mutex_lock(&scan->lock);
		scan->looked = true;
		pthread_cond_broadcast(&scan->cond);
		pthread_mutex_unlock(&scan->lock);
	}
	unit_scan__intern(scan);
	return NULL;
}

/* Where the look reads .debug_info: the file, when it is the file's mapping. */
static void unit_scan__source(struct unit_scan *scan)
{
	const struct dwarf_loader *l = scan->l;

	scan->fd = -1;
	if (!l->info || l->info != (const char *)l->debug_info)
		return;
	scan->fd = l->image.fd >= 0 ? l->image.fd : l->fd;
	scan->file_off = l->info - l->raw;
}

void dwarf_loader__drop_info(const struct dwarf_loader *l, Dwarf_Off start, Dwarf_Off end)
{
	if (l->info && start < end && end <= l->info_size)
		populate__drop(l->info + start, l->info + end);
}

void dwarf_loader__intern_abbrevs(Dwarf_Die *unit)
{
	Dwarf_Off off = 0;
	size_t len;

	for (;;) {
		len = 0;
		/* At the table's end libdw returns no length. */
		if (!dwarf_getabbrev(unit, off, &len) || !len)
			break;
		off += len;
	}
}

void unit_scan__start(struct dwarf_loader *l)
{
	struct unit_scan *scan = &l->scan;

	scan->l = l;
	pthread_mutex_init(&scan->lock, NULL);
	pthread_cond_init(&scan->cond, NULL);
	unit_scan__source(scan);
	scan->look = (size_t)(scan->end - scan->abbrevs) >= ABBREV_SCAN_THREAD_BYTES;
	scan->running = scan->look &&
			pthread_create(&scan->thread, NULL, unit_scan__run, scan) == 0;
	if (!scan->running) {
		scan->look = false;
		unit_scan__intern(scan);
		dwarf_loader__take_scan(l);
	}
}

/* Takes what the scan of the units found into @l: the look's, or all once it is done. */
void dwarf_loader__take_scan(struct dwarf_loader *l)
{
	l->merged |= l->scan.refs_across;
	l->partial_units |= l->scan.partial_units;
}

void dwarf_loader__join_scan(struct dwarf_loader *l)
{
	if (!l->scan.running)
		return;
	pthread_join(l->scan.thread, NULL);
	l->scan.running = false;
	dwarf_loader__take_scan(l);
}

void dwarf_loader__wait_look(struct dwarf_loader *l)
{
	struct unit_scan *scan = &l->scan;

	if (!scan->running || scan->took_look)
		return;
	pthread_mutex_lock(&scan->lock);
	while (!scan->looked && !scan->done)
		pthread_cond_wait(&scan->cond, &scan->lock);
	pthread_mutex_unlock(&scan->lock);
	scan->took_look = true;
	if (scan->overlap)
		dwarf_loader__take_scan(l);
	else
		dwarf_loader__join_scan(l);
}

const struct dwarf_unit_info *dwarf_loader__wait_unit(struct dwarf_loader *l, size_t index,
						      double *waited)
{
	struct unit_scan *scan = &l->scan;
	const struct dwarf_unit_info *u;
	double start = 0;

	pthread_mutex_lock(&scan->lock);
	if (index >= scan->published && !scan->done)
		start = clock__now();
	while (index >= scan->published && !scan->done)
		pthread_cond_wait(&scan->cond, &scan->lock);
	u = index < scan->published ? &scan->units.data[index] : NULL;
	pthread_mutex_unlock(&scan->lock);
	if (start)
		*waited += clock__now() - start;
	return u;
}

void dwarf_loader__free_scan(struct dwarf_loader *l)
{
	struct unit_scan *scan = &l->scan;

	if (!scan->l)
		return;
	dwarf_loader__join_scan(l);
	darray__free(&scan->units);
	pthread_cond_destroy(&scan->cond);
	pthread_mutex_destroy(&scan->lock);
	scan->l = NULL;
}
