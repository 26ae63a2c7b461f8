/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_STR_SORT_H_
#define _LIB_STR_SORT_H_ 1

/*
 * Sorting many strings (a vmlinux's 100,000 function names) at the cost of
 * a few passes over them: a radix sort eight bytes at a time, where qsort()
 * would compare each pair of names from their first byte, some 1.7 million
 * calls.  One caller, no shared state.
 *	struct str_sort_item v[] = { { "b", 1, 0 }, { "a", 1, 1 } };
 *	str_sort(v, 2);		// v[0] is "a"
 */
#include <stddef.h>
#include <stdint.h>

struct str_sort_item {
	const char *s; /* its first @len bytes are the key: none of them NUL */
	size_t len;
	uint32_t id; /* orders items of equal keys */
};

/*
 * Sorts @v by key, a key before the longer keys it begins, as memcmp() of
 * the common length then the lengths order them, and items of equal keys by
 * @id: the order qsort() gives with that comparison, whatever the input's
 * order when the ids are distinct.  0 or -ENOMEM (@v is then unchanged).
 */
int str_sort(struct str_sort_item *v, size_t n);

/* The comparison str_sort() sorts by: <0, 0 (same key and id) or >0. */
int str_sort_item__cmp(const struct str_sort_item *a, const struct str_sort_item *b);

#endif /* _LIB_STR_SORT_H_ */
