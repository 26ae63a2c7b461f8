/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_OFF_MAP_H_
#define _LIB_OFF_MAP_H_ 1

/*
 * A map from 32-bit offsets (into one string section, say) to 32-bit
 * values: what ptr_map does for pointers, in slots half the size, so that
 * a map looked up millions of times stays in the cache.  One owner, no
 * locking.
 *	struct off_map m = {};
 *	if (!off_map__find(&m, off, &val)) off_map__add(&m, off, val);
 *	off_map__clear(&m);	// empty, memory kept
 *	off_map__free(&m);
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest key: a slot keeps its key plus one, 0 for a free slot. */
#define OFF_MAP_KEY_MAX (UINT32_MAX - 1)

struct off_map_slot {
	uint32_t key1; /* the key plus one; 0: free */
	uint32_t val;
};

struct off_map {
	struct off_map_slot *slots;
	size_t nr, capacity; /* capacity is 0 or a power of 2 */
};

static inline size_t off_map__slot(const struct off_map *m, uint32_t key)
{
	/* Fibonacci hashing spreads the offsets of neighbouring strings. */
	return (size_t)(((uint64_t)key * 0x9e3779b97f4a7c15ull) >> 32) & (m->capacity - 1);
}

/* Inline: the encoder asks for every member's name. */
static inline bool off_map__find(const struct off_map *m, uint32_t key, uint32_t *val)
{
	size_t i;

	if (!m->capacity)
		return false;
	for (i = off_map__slot(m, key); m->slots[i].key1; i = (i + 1) & (m->capacity - 1)) {
		if (m->slots[i].key1 == key + 1) {
			*val = m->slots[i].val;
			return true;
		}
	}
	return false;
}

/* 0, or -ENOMEM.  @key must be at most OFF_MAP_KEY_MAX and not in the map already. */
int off_map__add(struct off_map *m, uint32_t key, uint32_t val);
void off_map__clear(struct off_map *m);
void off_map__free(struct off_map *m);

#endif /* _LIB_OFF_MAP_H_ */
