// SPDX-License-Identifier: GPL-2.0-only
#include "darray.h"

/* Grows geometrically so that pushing n elements costs O(n). */
void *darray__grow(void **data, size_t *capacity, size_t elem_size, size_t min)
{
	size_t cap = *capacity ? *capacity * 2 : 16;
	void *p;

	while (cap < min)
		cap *= 2;
	p = realloc(*data, cap * elem_size);
	if (!p)
		return NULL;
	*data = p;
	*capacity = cap;
	return p;
}
