// SPDX-License-Identifier: GPL-2.0-only
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

#define ARENA_BLOCK_SIZE (64 * 1024)

struct arena_block {
	struct arena_block *prev;
	alignas(max_align_t) char data[];
};

void *arena__alloc(struct arena *a, size_t size)
{
	size_t align = alignof(max_align_t), used = (a->used + align - 1) & ~(align - 1);
	struct arena_block *b;
	size_t block_size;

	if (a->block && used <= a->size && size <= a->size - used) {
		a->used = used + size;
		return a->block->data + used;
	}
	/* A big object gets a block of its own, so the current one stays in use. */
	block_size = size > ARENA_BLOCK_SIZE / 4 ? size : ARENA_BLOCK_SIZE;
	b = malloc(sizeof(*b) + block_size);
	if (!b)
		return NULL;
	if (block_size != ARENA_BLOCK_SIZE && a->block) {
		b->prev = a->block->prev;
		a->block->prev = b;
		return b->data;
	}
	b->prev = a->block;
	a->block = b;
	a->size = block_size;
	a->used = size;
	return b->data;
}

void *arena__memdup(struct arena *a, const void *src, size_t size)
{
	void *p = arena__alloc(a, size);

	if (p && size)
		memcpy(p, src, size);
	return p;
}

char *arena__strdup(struct arena *a, const char *s)
{
	return arena__memdup(a, s, strlen(s) + 1);
}

void arena__free(struct arena *a)
{
	struct arena_block *b = a->block, *prev;

	for (; b; b = prev) {
		prev = b->prev;
		free(b);
	}
	*a = (struct arena){};
}
