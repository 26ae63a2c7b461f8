/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DWARF_LOCS_H_
#define _DWARF_LOCS_H_ 1

/*
 * dwarf_locs: the location expressions of a DW_AT_location, as
 * dwarf_getlocations() hands them out (every entry of a list in order, an
 * empty one too; one for an expression), read from the bytes that libdw
 * reads but without libdw's expression cache.
 *
 * libdw keeps every expression it decodes in a tree per unit until the
 * DWARF is closed (40 MB of a vmlinux when every parameter's list is read),
 * and fills that tree without a lock of its own.  So the common forms are
 * read here: an expression block, and a list in .debug_loc (DWARF 4) or
 * .debug_loclists (DWARF 5) whose entries carry their addresses (no index
 * into .debug_addr).  Everything else (other forms, split units, address
 * indexes, references into .debug_info, anything a check of libdw's could
 * refuse) is handed to libdw whole, under the lock: an attribute is read by
 * one of the two ways from its first entry to its last, so what comes out,
 * for corrupt DWARF too, is what libdw gives.
 *
 * One per worker, never shared: it remembers the last unit asked about.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

#include "lib/darray.h"
#include "unit_locks.h"

/* An operation of an expression, as the readers of parameters take it. */
struct loc_op {
	unsigned int atom;
	uint64_t number; /* its first operand (a piece's size); 0 for none */
	/* DW_OP_entry_value: the atom of its block's one operation, else -1. */
	int entry_atom;
};

struct loc_entry {
	size_t first, nr; /* its operations in dwarf_locs.ops */
};

struct dwarf_locs {
	/* .debug_loc and .debug_loclists as libdw reads them, or NULLs. */
	const unsigned char *loc, *loc_end, *loclists, *loclists_end;
	bool big_endian;
	struct unit_locks *unit_locks; /* around every call into libdw's location readers */
	/* The unit of the last list read, and whether its lists may be read here. */
	Dwarf_CU *cu;
	uint16_t version;
	uint8_t addr_size;
	bool unit_known, lists_here;
	/* What dwarf_attr() finds of DW_AT_low_pc on the DIE of @low_pc_cu (dwarf_locs__unit_low_pc()). */
	Dwarf_CU *low_pc_cu;
	Dwarf_Attribute low_pc;
	bool has_low_pc;
	/* Where the lists read here since dwarf_locs__take_span() begin: the least and the most. */
	const unsigned char *span_lo, *span_hi;
	DARRAY(struct loc_op) ops;
	DARRAY(struct loc_entry) entries;
};

/*
 * Called for each location of an attribute, the @nr-th of its list (from
 * 0), with its @n operations (0 for an empty one); true stops the walk.
 */
typedef bool (*dwarf_loc_fn)(void *ctx, const struct loc_op *ops, size_t n, int nr);

/* Sets @l up to read what libdw reads of the two sections; @locks serialize libdw. */
void dwarf_locs__init(struct dwarf_locs *l, const unsigned char *loc, const unsigned char *loc_end,
		      const unsigned char *loclists, const unsigned char *loclists_end,
		      bool big_endian, struct unit_locks *locks);
void dwarf_locs__free(struct dwarf_locs *l);

/*
 * Tells @l what dwarf_attr() finds of DW_AT_low_pc on the DIE of unit @cu
 * (NULL: none), read by the caller's own reader, so that the base address
 * of the unit's lists is not looked up by libdw, which would read the
 * unit's abbreviations for it.  For another unit, libdw says.
 */
void dwarf_locs__unit_low_pc(struct dwarf_locs *l, Dwarf_CU *cu, const Dwarf_Attribute *low_pc);

/*
 * Calls @fn for each location of @attr, in order, until it returns true or
 * one cannot be read (as dwarf_getlocations() stops).  @fn runs under the
 * unit's lock when libdw reads the attribute: it must take no unit lock.
 * -ENOMEM when out of memory, else 0.
 */
int dwarf_locs__walk(struct dwarf_locs *l, Dwarf_Attribute *attr, dwarf_loc_fn fn, void *ctx);

/*
 * Where the lists read here since the last call lie, [*@lo, *@hi) in
 * .debug_loc or .debug_loclists, the last list's tail past *@hi (its
 * start): for the pages of a chunk's lists to be dropped behind it, as
 * those of .debug_info are.  NULLs when none was read.
 */
void dwarf_locs__take_span(struct dwarf_locs *l, const unsigned char **lo,
			   const unsigned char **hi);

#endif /* _DWARF_LOCS_H_ */
