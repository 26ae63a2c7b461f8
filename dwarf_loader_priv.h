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
#include "dwarf_loader.h"
#include "elf_image.h"

/*
 * The reading of the unit headers and their abbreviation tables for
 * DW_FORM_ref_addr (dwarf_loader__scan_units()): @refs_across, what it
 * found, is the thread's to write while @running.
 */
struct abbrev_scan {
	Dwarf *dwarf;
	/* In a thread, what it drops the pages of once done: fields set before it starts. */
	const struct dwarf_loader *drops;
	const unsigned char *abbrevs, *end; /* .debug_abbrev */
	bool refs_across;
	bool running;
	pthread_t thread;
};

/* The size of .debug_abbrev from which its tables are read in a thread of their own. */
#define ABBREV_SCAN_THREAD_BYTES (1u << 20)

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

/* Has the abbreviation scan's thread joined, and its answer taken into l->merged. */
void dwarf_loader__join_scan(struct dwarf_loader *l);
/* Has libdw read the abbreviations of every unit, by @threads threads (the units are one). */
void dwarf_loader__intern_all_abbrevs(struct dwarf_loader *l, unsigned int threads);
/* Drops the pages of .debug_info that lie wholly in [@start, @end), if it is the file's. */
void dwarf_loader__drop_info(const struct dwarf_loader *l, Dwarf_Off start, Dwarf_Off end);

#endif /* _DWARF_LOADER_PRIV_H_ */
