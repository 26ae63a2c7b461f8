// SPDX-License-Identifier: GPL-2.0-only
/* Zeroed tables from the kernel: see zpages.h. */
#include <stdint.h>
#include <sys/mman.h>

#include "zpages.h"

#define HUGE_PAGE (2u << 20)

static size_t zpages__len(size_t size)
{
	return (size + 4095) & ~(size_t)4095;
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
	/* Trimmed to start on a 2 MB boundary: each whole 2 MB of it may be a huge page. */
	head = (HUGE_PAGE - ((uintptr_t)p & (HUGE_PAGE - 1))) & (HUGE_PAGE - 1);
	if (head)
		munmap(p, head);
	if (slack - head)
		munmap(p + head + len, slack - head);
	p += head;
	/*
	 * Advice only: without transparent huge pages the table is the same.
	 * A tail past the last whole 2 MB stays in 4 kB pages: a huge page is
	 * only where 2 MB of the mapping lie at a 2 MB boundary.
	 */
	madvise(p, len, MADV_HUGEPAGE);
	return p;
}

void *zpages__grow(void *p, size_t size, size_t new_size)
{
	size_t len = zpages__len(size), new_len = zpages__len(new_size), head;
	unsigned char *q, *at;

	if (new_len < HUGE_PAGE) {
		q = mremap(p, len, new_len, MREMAP_MAYMOVE);
		return q == MAP_FAILED ? NULL : q;
	}
	/* A place at a 2 MB boundary, reserved, for the pages to move to. */
	q = mmap(NULL, new_len + HUGE_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0);
	if (q == MAP_FAILED)
		return NULL;
	head = (HUGE_PAGE - ((uintptr_t)q & (HUGE_PAGE - 1))) & (HUGE_PAGE - 1);
	at = mremap(p, len, new_len, MREMAP_MAYMOVE | MREMAP_FIXED, q + head);
	if (at == MAP_FAILED) {
		munmap(q, new_len + HUGE_PAGE);
		return NULL;
	}
	if (head)
		munmap(q, head);
	if (HUGE_PAGE - head)
		munmap(at + new_len, HUGE_PAGE - head);
	madvise(at, new_len, MADV_HUGEPAGE);
	return at;
}

void zpages__free(void *p, size_t size)
{
	if (p)
		munmap(p, zpages__len(size));
}
