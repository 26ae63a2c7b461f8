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
 * huge pages (MADV_HUGEPAGE) for each whole 2 MB of it (the tail past them
 * is in 4 kB pages, as without: no memory held that the table lacks), so
 * that filling one costs a fault per 2 MB where the kernel gives them, not
 * one per 4 kB.  A fault is microseconds, and in a virtual machine each
 * 4 kB page touched the first time costs some more even when it was
 * mapped ahead (MADV_POPULATE_WRITE): 5 MB written the first time took 11
 * to 21 ms there, in huge pages 1 ms.  One owner, no locking.
 */
#include <stddef.h>

void *zpages__alloc(size_t size);
/*
 * The zpages__alloc(@new_size) that holds what the one of @size at @p held,
 * its pages moved, not copied (mremap()), into a mapping at a 2 MB boundary
 * where it is 2 MB or more, so that its huge pages stay huge; @p is gone.
 * NULL (errno set, @p as it was) when out of memory.
 */
void *zpages__grow(void *p, size_t size, size_t new_size);
/* @size as given to zpages__alloc(); NULL is ignored. */
void zpages__free(void *p, size_t size);

#endif /* _LIB_ZPAGES_H_ */
