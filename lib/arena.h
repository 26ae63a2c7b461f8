/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_ARENA_H_
#define _LIB_ARENA_H_ 1

/*
 * A bump allocator for many small objects freed all at once:
 *	struct arena a = {};
 *	char *copy = arena__strdup(&a, name);	// NULL when out of memory
 *	arena__free(&a);
 * Allocations are aligned for any scalar type.  One owner, no locking.
 */
#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *block; /* the one being filled; it links to the older ones */
	size_t used, size; /* of block's bytes */
};

void *arena__alloc(struct arena *a, size_t size);
void *arena__memdup(struct arena *a, const void *src, size_t size);
char *arena__strdup(struct arena *a, const char *s);
void arena__free(struct arena *a);

#endif /* _LIB_ARENA_H_ */
