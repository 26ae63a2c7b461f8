// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "populate.h"
#include "ptr_map.h"

struct ptr_map_slot {
	const void *key; /* NULL: free */
	uint32_t val;
};

/* Fibonacci hashing: the multiply spreads the aligned, clustered addresses. */
static size_t ptr_map__hash(const struct ptr_map *m, const void *key)
{
	return ((uintptr_t)key * 0x9e3779b97f4a7c15ull) >> 32 & (m->capacity - 1);
}

bool ptr_map__find(const struct ptr_map *m, const void *key, uint32_t *val)
{
	size_t i;

	if (!m->capacity)
		return false;
	for (i = ptr_map__hash(m, key); m->slots[i].key; i = (i + 1) & (m->capacity - 1)) {
		if (m->slots[i].key == key) {
			*val = m->slots[i].val;
			return true;
		}
	}
	return false;
}

static void ptr_map__insert(struct ptr_map *m, const void *key, uint32_t val)
{
	size_t i = ptr_map__hash(m, key);

	while (m->slots[i].key)
		i = (i + 1) & (m->capacity - 1);
	m->slots[i].key = key;
	m->slots[i].val = val;
	m->nr++;
}

/* Keeps the load at most a half, so that probes stay short. */
static int ptr_map__grow(struct ptr_map *m)
{
	struct ptr_map old = *m;
	size_t i;

	m->capacity = old.capacity ? old.capacity * 2 : 1024;
	m->slots = populate__calloc(m->capacity, sizeof(*m->slots));
	if (!m->slots) {
		*m = old;
		return -ENOMEM;
	}
	m->nr = 0;
	for (i = 0; i < old.capacity; i++)
		if (old.slots[i].key)
			ptr_map__insert(m, old.slots[i].key, old.slots[i].val);
	free(old.slots);
	return 0;
}

int ptr_map__add(struct ptr_map *m, const void *key, uint32_t val)
{
	if ((m->nr + 1) * 2 > m->capacity && ptr_map__grow(m))
		return -ENOMEM;
	ptr_map__insert(m, key, val);
	return 0;
}

int ptr_map__set(struct ptr_map *m, const void *key, uint32_t val)
{
	size_t i;

	for (i = m->capacity ? ptr_map__hash(m, key) : 0; m->capacity && m->slots[i].key;
	     i = (i + 1) & (m->capacity - 1)) {
		if (m->slots[i].key == key) {
			m->slots[i].val = val;
			return 0;
		}
	}
	return ptr_map__add(m, key, val);
}

void ptr_map__clear(struct ptr_map *m)
{
	if (m->nr)
		memset(m->slots, 0, m->capacity * sizeof(*m->slots));
	m->nr = 0;
}

void ptr_map__free(struct ptr_map *m)
{
	free(m->slots);
	*m = (struct ptr_map){};
}
