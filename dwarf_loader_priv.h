/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DWARF_LOADER_PRIV_H_
#define _DWARF_LOADER_PRIV_H_ 1

/*
 * What dwarf_loader.c (opening the file, reading what the units share) and
 * dwarf_chunks.c (the queue of chunks and the workers that take them)
 * share of a loader: the main thread's, but for the workers' reading of
 * what is set before they start.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <libelf.h>

#include "dwarf_alt.h"
#include "dwarf_cu_lang.h"
#include "lib/darray.h"
#include "dwarf_loader.h"
#include "elf_image.h"

/* The offset in .debug_info of the unit whose DIE is @cu_die (no byte of it read). */
static inline Dwarf_Off dwarf_unit__offset(Dwarf_Die *cu_die)
{
	return dwarf_dieoffset(cu_die) - dwarf_cuoffset(cu_die);
}

/*
 * What the reading of the units at open (dwarf_loader__scan_units()) keeps
 * of each unit libdw lists, in its order: where it ends in .debug_info (0:
 * not known, its header is read again) and its DW_AT_language, read while
 * its header's page is mapped, so that the queue need not map it again.
 */
struct dwarf_unit_info {
	Dwarf_Off start, end;
	int lang;
	bool has_lang; /* false: not read, dwarf_srclang() is to say */
};

/*
 * The reading of the unit headers at open: libdw interns every unit (so
 * that the workers' dwarf_get_units and dwarf_offdie only search its tree),
 * the abbreviation tables are read for DW_FORM_ref_addr (@check_refs:
 * unless the LTO note says whether the units are one) and @units noted.
 * In a thread of its own for a large file, beside the main thread's
 * reading of the symbols, which calls no libdw until it has joined
 * (dwarf_loader__join_scan()): @refs_across, @partial_units and @units are
 * the thread's to write while @running.
 */
struct abbrev_scan {
	struct dwarf_loader *l;
	const unsigned char *abbrevs, *end; /* .debug_abbrev, or NULLs */
	bool check_refs;
	bool big_endian; /* the file's */
	bool refs_across;
	bool partial_units;
	DARRAY(struct dwarf_unit_info) units;
	bool running;
	pthread_t thread;
};

/*
 * The size of .debug_abbrev from which the units are read in a thread of
 * their own (a build may set it lower, to have helgrind see the thread on
 * small inputs).
 */
/* How much of .debug_info the scan reads the headers of between two drops of their pages. */
#define SCAN_DROP_BYTES (1u << 20)

#ifndef ABBREV_SCAN_THREAD_BYTES
#define ABBREV_SCAN_THREAD_BYTES (1u << 20)
#endif

struct dwarf_loader {
	int fd;
	/* The file with its compressed sections decompressed, when it has any; l->elf reads it. */
	struct elf_image image;
	char image_why[192]; /* why it could not be made */
	Elf *elf;
	Dwarf *dwarf; /* owned by dwfl when the file is relocatable */
	Dwfl *dwfl;
	Dwfl_Module *module;
	/* .debug_info as mapped from the file, when it is (NULL otherwise), and that mapping. */
	const char *info;
	size_t info_size;
	const char *raw;
	size_t raw_size;
	/* The size of .debug_info, when it is not compressed (0 otherwise). */
	uint64_t info_sec_size;
	bool merged; /* see dwarf_loader__merged(); with @scan's result once it is joined */
	struct abbrev_scan scan;
	bool partial_units; /* see dwarf_loader__partial_units() */
	struct dwarf_alt alt; /* see dwarf_loader__alt() */
	unsigned int partial_skipped; /* see dwarf_loader__partial_skipped() */
	/* .debug_info as libdw reads it (relocated, decompressed), or NULLs. */
	const unsigned char *debug_info, *debug_info_end;
	/* A relocatable file's private mapping, which libdwfl reads and relocates. */
	char *rel_map;
	uint64_t rel_size;
};

/* Has the scan of the units joined, and its answers taken into l. */
void dwarf_loader__join_scan(struct dwarf_loader *l);
/*
 * What the scan noted of the @index-th unit libdw lists, whose DIE is
 * @cu_die, or NULL when it is not known; only once joined.
 */
const struct dwarf_unit_info *dwarf_loader__unit(const struct dwarf_loader *l, uint32_t index,
						 Dwarf_Die *cu_die);
/* Has libdw read the abbreviations of every unit, by @threads threads (the units are one). */
void dwarf_loader__intern_all_abbrevs(struct dwarf_loader *l, unsigned int threads);
/* Drops the pages of .debug_info that lie wholly in [@start, @end), if it is the file's. */
void dwarf_loader__drop_info(const struct dwarf_loader *l, Dwarf_Off start, Dwarf_Off end);

#endif /* _DWARF_LOADER_PRIV_H_ */
