// SPDX-License-Identifier: GPL-2.0-only
/* Zeroed tables from the kernel: see zpages.h. */
#include <stdint.h>
#include <sys/mman.h>

#include "zpages.h"

#define HUGE_PAGE (2u << 20)

static size_t zpages__len(size_t size)
{
	size_t page = size >= HUGE_PAGE ? HUGE_PAGE : 4096;

	return (size + page - 1) & ~(page - 1);
}

void *zpages__alloc(size_t size)
{
	size_t len = zpages__len(size), slack = 0, head;
	unsigned char *p;

	if (!size)
		return NULL;
	if (len >= HUGE_PAGE)
		slack = HUGE_PAGE;
	p = mmap(NULL, len + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (!slack)
		return p;
	/* Trimmed to a 2 MB boundary at both ends: what is left is whole huge pages. */
	head = (HUGE_PAGE - ((uintptr_t)p & (HUGE_PAGE - 1))) & (HUGE_PAGE - 1);
	if (head)
		munmap(p, head);
	if (slack - head)
		munmap(p + head + len, slack - head);
	p += head;
	/* Advice only: without transparent huge pages the table is the same. */
	madvise(p, len, MADV_HUGEPAGE);
	return p;
}

void zpages__free(void *p, size_t size)
{
	if (p)
		munmap(p, zpages__len(size));
}
