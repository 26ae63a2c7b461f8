/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_ZPAGES_H_
#define _LIB_ZPAGES_H_ 1

/*
 * Large zeroed tables straight from the kernel, for maps indexed by offset
 * that are mostly touched:
 *	uint32_t *map = zpages__alloc(n * sizeof(*map));	// NULL when out of memory
 *	zpages__free(map, n * sizeof(*map));
 * The pages come zeroed and are faulted in on first touch, never cleared by
 * us; a table of 2 MB or more is aligned to 2 MB and asks for transparent
 * huge pages (MADV_HUGEPAGE), so that filling one costs a fault per 2 MB
 * where the kernel gives them, not one per 4 kB (a fault is microseconds,
 * more in a virtual machine).  One owner, no locking.
 */
#include <stddef.h>

void *zpages__alloc(size_t size);
/* @size as given to zpages__alloc(); NULL is ignored. */
void zpages__free(void *p, size_t size);

#endif /* _LIB_ZPAGES_H_ */
