// SPDX-License-Identifier: GPL-2.0-only
/* The locks of libdw's units: see unit_locks.h. */
#include <stdint.h>

#include "unit_locks.h"

void unit_locks__init(struct unit_locks *l)
{
	int i;

	for (i = 0; i < UNIT_LOCKS; i++)
		pthread_mutex_init(&l->lock[i].mutex, NULL);
	pthread_mutex_init(&l->file.mutex, NULL);
}

void unit_locks__destroy(struct unit_locks *l)
{
	int i;

	for (i = 0; i < UNIT_LOCKS; i++)
		pthread_mutex_destroy(&l->lock[i].mutex);
	pthread_mutex_destroy(&l->file.mutex);
}

pthread_mutex_t *unit_locks__of(struct unit_locks *l, const Dwarf_CU *cu)
{
	/* Units lie a few hundred bytes apart: the middle bits of a product spread them. */
	uint64_t h = (uint64_t)(uintptr_t)cu * 0x9e3779b97f4a7c15ull;

	return &l->lock[h >> 58].mutex;
}

pthread_mutex_t *unit_locks__file(struct unit_locks *l)
{
	return &l->file.mutex;
}
