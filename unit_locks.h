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
 * The locks are a fixed set, a unit's chosen by its address: no lookup, no
 * allocation, units that share a lock only wait for each other.  Set up
 * before the workers start and destroyed after they end; in between every
 * worker may take any lock, one at a time (holding two could deadlock).
 */
#include <pthread.h>
#include <elfutils/libdw.h>

#define UNIT_LOCKS 64

struct unit_locks {
	struct {
		pthread_mutex_t mutex;
	} __attribute__((aligned(64))) lock[UNIT_LOCKS];
};

void unit_locks__init(struct unit_locks *l);
void unit_locks__destroy(struct unit_locks *l);

/* The lock of the unit @cu: take it around every location read of libdw in @cu. */
pthread_mutex_t *unit_locks__of(struct unit_locks *l, const Dwarf_CU *cu);

#endif /* _UNIT_LOCKS_H_ */
