/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_PTR_MAP_H_
#define _LIB_PTR_MAP_H_ 1

/*
 * A map from pointers to 32-bit values, by pointer identity: one hash of
 * the address and no look at what it points to.  One owner, no locking.
 *	struct ptr_map m = {};
 *	if (!ptr_map__find(&m, p, &val)) ptr_map__add(&m, p, val);
 *	ptr_map__clear(&m);	// empty, memory kept
 *	ptr_map__free(&m);
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ptr_map_slot;

struct ptr_map {
	struct ptr_map_slot *slots;
	size_t nr, capacity; /* capacity is 0 or a power of 2 */
};

bool ptr_map__find(const struct ptr_map *m, const void *key, uint32_t *val);
/* 0, or -ENOMEM.  @key must not be NULL nor in the map already. */
int ptr_map__add(struct ptr_map *m, const void *key, uint32_t val);
/* Maps @key (not NULL) to @val, in the map already or not; 0, or -ENOMEM. */
int ptr_map__set(struct ptr_map *m, const void *key, uint32_t val);
void ptr_map__clear(struct ptr_map *m);
void ptr_map__free(struct ptr_map *m);

#endif /* _LIB_PTR_MAP_H_ */
