/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_POPULATE_H_
#define _LIB_POPULATE_H_ 1

/*
 * Faulting in, in one call, pages that are about to be read or written
 * whole: a page fault costs microseconds (some 11 us in a virtual machine,
 * against 0.6 us a page for the kernel to map many at once), and a run
 * that reads a 4.7 MB base or copies a chunk's BTF takes one per 4 kB (one
 * per 64 kB for file pages that are cached).  Advice only (Linux 5.14's
 * MADV_POPULATE_READ/WRITE): on an older kernel, or when memory is short,
 * the pages come as before, one fault at a time.  Any thread, on memory it
 * owns or only reads.
 */
#include <stddef.h>

/* The pages of @p..@p+@len (any alignment), mapped for reading. */
void populate__read(const void *p, size_t len);

/* The pages of @p..@p+@len (any alignment), mapped for writing: private copies, zeroed ones. */
void populate__write(void *p, size_t len);

/*
 * The pages wholly inside @start..@end let go (MADV_DONTNEED): only for a
 * mapping of a file, whose pages come back from it when read again (a
 * private copy's writes are lost: only for those no longer needed); never
 * for memory whose contents are ours.
 */
void populate__drop(const void *start, const void *end);

/*
 * calloc()'s zeroed block of @n elements of @size bytes, whose pages are
 * mapped at once where it is a window or more: for a table about to be
 * written all over (a hash table rehashed into, a map every ID of which is
 * set), which would otherwise take a fault per 4 kB.  NULL when out of
 * memory.
 */
void *populate__calloc(size_t n, size_t size);

/* @len rounded up to whole pages: the length of a mapping of @len bytes. */
size_t populate__pages(size_t len);

/* How far ahead populate__ahead() maps an array that is filled in order. */
#define POPULATE_WINDOW (64u << 10)

/*
 * For an array of @cap elements of @size bytes at @array, filled in order
 * up to a count not known in advance: called before element @i is written,
 * maps the next POPULATE_WINDOW bytes whenever @i begins a window, so that
 * a fault per 4 kB becomes a call per 64 kB and at most one window is
 * mapped ahead of what is written.
 */
static inline void populate__ahead(void *array, size_t i, size_t cap, size_t size)
{
	size_t at = i * size, left;

	if ((at & (POPULATE_WINDOW - 1)) >= size || i >= cap)
		return;
	left = (cap - i) * size;
	populate__write((char *)array + at, left < POPULATE_WINDOW ? left : POPULATE_WINDOW);
}

#endif /* _LIB_POPULATE_H_ */
