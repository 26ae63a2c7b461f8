// SPDX-License-Identifier: GPL-2.0-only
/* Buffers grown by mremap() once large: see grow.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "grow.h"
#include "populate.h"
#include "zpages.h"

/*
 * ThreadSanitizer does not intercept mremap() (google/sanitizers#1099):
 * the addresses a buffer leaves keep its accesses in the shadow memory,
 * and a buffer of another thread moved there later is reported as racing
 * with them.  Under it, a mapping grows by a new mapping and a copy, which
 * it sees; the bytes are the same.
 */
#if defined(__SANITIZE_THREAD__)
#define GROW_MREMAP 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GROW_MREMAP 0
#endif
#endif
#ifndef GROW_MREMAP
#define GROW_MREMAP 1
#endif

void *grow__realloc(void *p, size_t cap, size_t new_cap)
{
	void *q;

	if (new_cap < cap) {
		errno = EINVAL;
		return NULL;
	}
	if (new_cap < GROW_MAP && cap < POPULATE_WINDOW)
		return realloc(p, new_cap ?: 1);
	/* A mapping: in huge pages where the kernel has them (zpages.h). */
	if (cap >= GROW_MAP && GROW_MREMAP)
		return zpages__grow(p, cap, new_cap);
	/*
	 * Else a copy, into pages mapped first (populate.h), not faulted a
	 * page at a time as the copy writes them, as realloc() would.
	 */
	q = new_cap < GROW_MAP ? malloc(new_cap) : zpages__alloc(new_cap);
	if (!q)
		return NULL;
	if (cap) {
		populate__write(q, cap);
		memcpy(q, p, cap);
	}
	grow__free(p, cap);
	return q;
}

void *grow__copy(const void *src, size_t len)
{
	void *q = grow__realloc(NULL, 0, len);

	if (!q)
		return NULL;
	populate__write(q, len);
	/* A buffer of nothing may be at NULL: memcpy() takes no NULL. */
	if (len)
		memcpy(q, src, len);
	return q;
}

int grow__room(void *p, uint32_t *cap, uint32_t want, size_t size)
{
	void **at = p;

	if (want <= *cap)
		return 0;
	free(*at);
	*cap = 0;
	*at = malloc((size_t)want * size);
	if (!*at)
		return -ENOMEM;
	*cap = want;
	return 1;
}

void grow__free(void *p, size_t cap)
{
	if (!p)
		return;
	if (cap >= GROW_MAP)
		zpages__free(p, cap);
	else
		free(p);
}
