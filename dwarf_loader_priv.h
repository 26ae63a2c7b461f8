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
 * What the scan of the units (dwarf_scan.c) keeps of each unit libdw lists,
 * in its order: where it ends in .debug_info (0: not known, its header is
 * read again) and its DW_AT_language, read without libdw, so that the queue
 * need not map its header again; and, once libdw has interned it, its DIE.
 */
struct dwarf_unit_info {
	Dwarf_Off start, end;
	int lang;
	bool has_lang; /* false: not read, dwarf_srclang() is to say */
	uint8_t unit_type; /* as dwarf_get_units() says it */
	Dwarf_Die cu_die;
	double published; /* when the scan published it (CLOCK_MONOTONIC), for -V */
};

/*
 * The scan of the units at open (dwarf_scan.c): the look at their bytes,
 * then libdw's interning of every unit (so that the workers' taking of
 * chunks and dwarf_offdie only search its tree).  In a thread of its own
 * for a large file, beside the main thread's reading of the symbols, which
 * calls no libdw until it has joined (dwarf_loader__join_scan()), or, with
 * @overlap, until the workers are done: @refs_across, @partial_units,
 * @overlap and @units are the thread's to write until @looked, and the
 * entries of @units its alone until published.
 */
struct unit_scan {
	struct dwarf_loader *l; /* NULL: not started */
	const unsigned char *abbrevs, *end; /* .debug_abbrev, or NULLs */
	bool abbrevs_mapped; /* in the file's mapping: its pages may be dropped */
	bool has_types; /* a .debug_types, whose units libdw lists after .debug_info's */
	/* Where the look reads the bytes of .debug_info: the file at @file_off (-1: its memory). */
	int fd;
	uint64_t file_off;
	bool check_refs; /* no LTO note: DW_FORM_ref_addr makes the units one */
	bool big_endian; /* the file's */
	bool look; /* the units are looked at first, in the thread */
	bool refs_across;
	bool partial_units;
	/*
	 * The look found nothing that would have a worker search libdw's tree
	 * of units (dwarf_scan.c): the workers take the units it publishes
	 * as the interning goes on.
	 */
	bool overlap;
	DARRAY(struct dwarf_unit_info) units;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* Under @lock: */
	size_t published; /* the units from the first on that the queue may take */
	bool looked, done;
	/* The main thread's: */
	bool running, took_look;
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
	Dwarf *dwarf; /* owned by dwfl where libdwfl relocated the file */
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
	struct unit_scan scan;
	bool partial_units; /* see dwarf_loader__partial_units() */
	struct dwarf_alt alt; /* see dwarf_loader__alt() */
	unsigned int partial_skipped; /* see dwarf_loader__partial_skipped() */
	/* .debug_info as libdw reads it (relocated, decompressed), or NULLs. */
	const unsigned char *debug_info, *debug_info_end;
	/* A relocatable file's private mapping, which libdwfl reads and relocates. */
	char *rel_map;
	uint64_t rel_size;
	/* That mapping's ELF where we relocated it ourselves (dwarf_reloc.h), else NULL. */
	Elf *rel_elf;
};

/*
 * Starts the scan of the units on l->scan's inputs (its abbreviations, byte
 * order, .debug_types, check_refs): the last call of libdw in the open.
 */
void unit_scan__start(struct dwarf_loader *l);
/* Takes what the scan of the units found into @l (main thread). */
void dwarf_loader__take_scan(struct dwarf_loader *l);
/* Has the scan of the units joined, and its answers taken into l (main thread). */
void dwarf_loader__join_scan(struct dwarf_loader *l);
/*
 * Waits for the look at the units, and takes its answers into @l; joins
 * the scan unless the workers may take units beside it (main thread).
 */
void dwarf_loader__wait_look(struct dwarf_loader *l);
/*
 * The @index-th unit libdw lists, once the scan has published it (adding
 * the time waited for it to *@waited); NULL when the scan is done and has
 * not: libdw's tree is then the caller's to search.  Any thread.
 */
const struct dwarf_unit_info *dwarf_loader__wait_unit(struct dwarf_loader *l, size_t index,
						      double *waited);
/* Joins the scan and frees what it kept. */
void dwarf_loader__free_scan(struct dwarf_loader *l);
/*
 * Has libdw read every abbreviation of partial unit @unit: where each unit
 * is a CU, every worker whose CU imports it reads its DIEs, and libdw puts
 * an abbreviation it meets the first time in the unit's table (and moves
 * the unit's read position), which is no lookup to share.  Afterwards,
 * they only look them up.  A table that cannot be read ends the loop:
 * libdw says so to the reader that meets it.
 */
void dwarf_loader__intern_abbrevs(Dwarf_Die *unit);
/* Has libdw read the abbreviations of every unit, by @threads threads (the units are one). */
void dwarf_loader__intern_all_abbrevs(struct dwarf_loader *l, unsigned int threads);
/* Drops the pages of .debug_info that lie wholly in [@start, @end), if it is the file's. */
void dwarf_loader__drop_info(const struct dwarf_loader *l, Dwarf_Off start, Dwarf_Off end);

#endif /* _DWARF_LOADER_PRIV_H_ */
