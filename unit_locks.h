/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _UNIT_LOCKS_H_
#define _UNIT_LOCKS_H_ 1

/*
 * unit_locks: the locks around libdw's location readers, one per unit.
 *
 * What libdw learns while it reads a location or an address is kept in the
 * unit it reads (elfutils 0.188, dwarf_getlocation.c: the expressions in
 * the Dwarf_CU's tree of locations, its base address, its bases in
 * .debug_addr and .debug_loclists), and the unit is filled without a lock;
 * its memory comes from libdw's allocator, which is thread-safe (a tail per
 * thread).  So two threads may read the locations of two units at once, not
 * of one.  A unit is read by the worker that took it, but for a partial
 * unit that several import: the lock of a unit serializes what several
 * workers read of it, and costs a worker nothing where it is alone.
 *
 * But for the file's own units: an attribute that dwarf_getlocation_attr()
 * makes of an operation of a location list (an entry value's block, a
 * constant) belongs to a unit libdw keeps for all of .debug_loc, of
 * .debug_loclists or of .debug_addr (elfutils 0.188,
 * dwarf_getlocation_attr.c: fake_loc_cu, fake_loclists_cu, fake_addr_cu),
 * which every unit's lists share: reading its locations takes the file's
 * lock (unit_locks__file()).
 *
 * The units' locks are a fixed set, a unit's chosen by its address: no
 * lookup, no allocation, units that share a lock only wait for each other.
 * Set up before the workers start and destroyed after they end; in between
 * every worker may take one unit's lock at a time (holding two could
 * deadlock), and the file's lock inside it, never the other way.
 */
#include <pthread.h>
#include <elfutils/libdw.h>

#define UNIT_LOCKS 64

struct unit_locks {
	struct {
		pthread_mutex_t mutex;
	} __attribute__((aligned(64))) lock[UNIT_LOCKS], file;
};

void unit_locks__init(struct unit_locks *l);
void unit_locks__destroy(struct unit_locks *l);

/* The lock of the unit @cu: take it around every location read of libdw in @cu. */
pthread_mutex_t *unit_locks__of(struct unit_locks *l, const Dwarf_CU *cu);

/* The lock of libdw's units of the whole file: taken inside a unit's lock. */
pthread_mutex_t *unit_locks__file(struct unit_locks *l);

#endif /* _UNIT_LOCKS_H_ */
