// SPDX-License-Identifier: GPL-2.0-only
/* Pages faulted in at once: see populate.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "populate.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14's <linux/mman.h> */
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* A page's size less one, to round addresses with. */
static uintptr_t page_mask(void)
{
	long page = sysconf(_SC_PAGESIZE);

	return (page > 0 ? (uintptr_t)page : 4096) - 1;
}

static void populate(const void *p, size_t len, int advice)
{
	uintptr_t mask = page_mask();
	uintptr_t start = (uintptr_t)p & ~mask, end = ((uintptr_t)p + len + mask) & ~mask;

	if (len && end > start)
		madvise((void *)start, end - start, advice);
}

void populate__read(const void *p, size_t len)
{
	populate(p, len, MADV_POPULATE_READ);
}

void populate__write(void *p, size_t len)
{
	populate(p, len, MADV_POPULATE_WRITE);
}

void *populate__calloc(size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	if (n * size < POPULATE_WINDOW)
		return calloc(n, size);
	/*
	 * calloc() zeroes only memory the heap had used (mapped already, as
	 * glibc trims only the heap's top); a block fresh from the kernel,
	 * zero already, is mapped here, not written a page at a time.
	 */
	p = calloc(n, size);
	if (p)
		populate__write(p, n * size);
	return p;
}

size_t populate__pages(size_t len)
{
	return (len + page_mask()) & ~(size_t)page_mask();
}

void populate__drop(const void *start, const void *end)
{
	uintptr_t mask = page_mask();
	uintptr_t from = ((uintptr_t)start + mask) & ~mask, to = (uintptr_t)end & ~mask;

	if (start < end && from < to)
		madvise((void *)from, to - from, MADV_DONTNEED);
}
