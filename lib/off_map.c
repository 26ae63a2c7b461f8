// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "off_map.h"
#include "populate.h"

static void off_map__insert(struct off_map *m, uint32_t key1, uint32_t val)
{
	size_t i = off_map__slot(m, key1 - 1);

	while (m->slots[i].key1)
		i = (i + 1) & (m->capacity - 1);
	m->slots[i] = (struct off_map_slot){ .key1 = key1, .val = val };
	m->nr++;
}

/* Keeps the load at most three quarters: a smaller table misses the cache less. */
static int off_map__grow(struct off_map *m)
{
	struct off_map old = *m;
	size_t i;

	m->capacity = old.capacity ? old.capacity * 2 : 1024;
	m->slots = populate__calloc(m->capacity, sizeof(*m->slots));
	if (!m->slots) {
		*m = old;
		return -ENOMEM;
	}
	m->nr = 0;
	for (i = 0; i < old.capacity; i++)
		if (old.slots[i].key1)
			off_map__insert(m, old.slots[i].key1, old.slots[i].val);
	free(old.slots);
	return 0;
}

int off_map__add(struct off_map *m, uint32_t key, uint32_t val)
{
	if (key > OFF_MAP_KEY_MAX)
		return -EINVAL;
	if ((m->nr + 1) * 4 > m->capacity * 3 && off_map__grow(m))
		return -ENOMEM;
	off_map__insert(m, key + 1, val);
	return 0;
}

void off_map__clear(struct off_map *m)
{
	if (m->nr)
		memset(m->slots, 0, m->capacity * sizeof(*m->slots));
	m->nr = 0;
}

void off_map__free(struct off_map *m)
{
	free(m->slots);
	*m = (struct off_map){};
}
