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

/*
 * A mapping of @len bytes (>= HUGE_PAGE) with @prot at a 2 MB boundary,
 * trimmed out of one 2 MB larger, or NULL.
 */
static unsigned char *map_aligned(size_t len, int prot)
{
	unsigned char *p = mmap(NULL, len + HUGE_PAGE, prot,
				MAP_PRIVATE | MAP_ANONYMOUS | (prot ? 0 : MAP_NORESERVE), -1, 0);
	size_t head;

	if (p == MAP_FAILED)
		return NULL;
	head = (HUGE_PAGE - ((uintptr_t)p & (HUGE_PAGE - 1))) & (HUGE_PAGE - 1);
	if (head)
		munmap(p, head);
	if (HUGE_PAGE - head)
		munmap(p + head + len, HUGE_PAGE - head);
	return p + head;
}

void *zpages__alloc(size_t size)
{
	size_t len = zpages__len(size);
	unsigned char *p;

	if (!size)
		return NULL;
	if (len < HUGE_PAGE) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
	p = map_aligned(len, PROT_READ | PROT_WRITE);
	/*
	 * Advice only: without transparent huge pages the table is the same.
	 * A tail past the last whole 2 MB stays in 4 kB pages: a huge page is
	 * only where 2 MB of the mapping lie at a 2 MB boundary.
	 */
	if (p)
		madvise(p, len, MADV_HUGEPAGE);
	return p;
}

void *zpages__grow(void *p, size_t size, size_t new_size)
{
	size_t len = zpages__len(size), new_len = zpages__len(new_size);
	unsigned char *at;

	if (new_len < HUGE_PAGE) {
		at = mremap(p, len, new_len, MREMAP_MAYMOVE);
		return at == MAP_FAILED ? NULL : at;
	}
	/* The pages moved into a place reserved at a 2 MB boundary, which they replace. */
	at = map_aligned(new_len, PROT_NONE);
	if (!at)
		return NULL;
	if (mremap(p, len, new_len, MREMAP_MAYMOVE | MREMAP_FIXED, at) == MAP_FAILED) {
		munmap(at, new_len);
		return NULL;
	}
	madvise(at, new_len, MADV_HUGEPAGE);
	return at;
}

void zpages__free(void *p, size_t size)
{
	if (p)
		munmap(p, zpages__len(size));
}
