/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_U32_SORT_H_
#define _LIB_U32_SORT_H_ 1

/* Arrays of uint32_t (type IDs, string offsets) sorted, searched and made unique. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* qsort()'s and bsearch()'s comparison of two uint32_t. */
static inline int u32__cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts @v's @n values and keeps each once: how many are left. */
static inline size_t u32__sort_unique(uint32_t *v, size_t n)
{
	size_t i, j;

	if (n < 2)
		return n;
	qsort(v, n, sizeof(*v), u32__cmp);
	for (i = j = 1; i < n; i++)
		if (v[i] != v[j - 1])
			v[j++] = v[i];
	return j;
}

#endif /* _LIB_U32_SORT_H_ */
