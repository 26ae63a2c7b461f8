// SPDX-License-Identifier: GPL-2.0-only
/*
 * str_sort(): most significant word first, each range of items that share
 * their first @off bytes sorted by the next eight (a 64-bit word, big-endian
 * so that integers order as bytes do, zero past a key's end, where a key has
 * no NUL: so a key sorts before the longer ones it begins) with a stable
 * least significant digit radix sort, and each run of equal words taken
 * further.  Short ranges go to insertion, deep ones (hostile names) to
 * qsort(), which bounds the recursion.
 */
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "populate.h"
#include "str_sort.h"

#define STR_SORT_SHORT 32 /* items below which a range is sorted by insertion */
#define STR_SORT_DEEP 256 /* bytes past which a range goes to qsort() */

struct keyed {
	uint64_t word;
	uint32_t pos; /* in the range being sorted */
};

/* The buffers the ranges share, each range using them only before its runs go further. */
struct str_sorter {
	struct keyed *keys, *keys_tmp;
	struct str_sort_item *items_tmp;
};

int str_sort_item__cmp(const struct str_sort_item *a, const struct str_sort_item *b)
{
	size_t len = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->s, b->s, len);

	if (c)
		return c;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

static int item__qsort_cmp(const void *a, const void *b)
{
	return str_sort_item__cmp(a, b);
}

/* The eight bytes of @it's key from @off, zero past its end, as a big-endian word. */
static uint64_t item__word(const struct str_sort_item *it, size_t off)
{
	uint64_t w = 0;
	size_t i;

	if (off + sizeof(w) <= it->len) {
		memcpy(&w, it->s + off, sizeof(w));
		return be64toh(w);
	}
	for (i = 0; i < sizeof(w); i++)
		w = w << 8 | (off + i < it->len ? (unsigned char)it->s[off + i] : 0);
	return w;
}

static void insertion_sort(struct str_sort_item *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct str_sort_item x = v[i];

		for (j = i; j > 0 && str_sort_item__cmp(&v[j - 1], &x) > 0; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Sorts @k[0..@n) by word, stably, a byte per pass; those where all share the byte are skipped. */
static void keys__radix(struct keyed *k, struct keyed *tmp, size_t n)
{
	static const unsigned int bytes = sizeof(k->word);
	uint32_t count[sizeof(k->word)][256] = {};
	size_t i;
	struct keyed *src = k, *dst = tmp, *swap;
	unsigned int b;

	for (i = 0; i < n; i++)
		for (b = 0; b < bytes; b++)
			count[b][(k[i].word >> (8 * b)) & 0xff]++;
	for (b = 0; b < bytes; b++) {
		uint32_t *c = count[b], sum = 0, x;
		unsigned int d;

		if (c[(src[0].word >> (8 * b)) & 0xff] == n)
			continue;
		for (d = 0; d < 256; d++) {
			x = c[d];
			c[d] = sum;
			sum += x;
		}
		for (i = 0; i < n; i++)
			dst[c[(src[i].word >> (8 * b)) & 0xff]++] = src[i];
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != k)
		memcpy(k, src, n * sizeof(*k));
}

/* Sorts @v[0..@n), whose keys share their first @off bytes. */
static void str_sorter__range(struct str_sorter *st, struct str_sort_item *v, size_t n, size_t off)
{
	size_t i, j;

	if (n < STR_SORT_SHORT) {
		insertion_sort(v, n);
		return;
	}
	if (off >= STR_SORT_DEEP) {
		qsort(v, n, sizeof(*v), item__qsort_cmp);
		return;
	}
	for (i = 0; i < n; i++) {
		st->keys[i].word = item__word(&v[i], off);
		st->keys[i].pos = i;
	}
	keys__radix(st->keys, st->keys_tmp, n);
	for (i = 0; i < n; i++)
		st->items_tmp[i] = v[st->keys[i].pos];
	memcpy(v, st->items_tmp, n * sizeof(*v));
	/* The buffers are free again: the runs are found from the items. */
	for (i = 0; i < n; i = j) {
		uint64_t word = item__word(&v[i], off);
		bool longer = v[i].len > off + sizeof(word);

		for (j = i + 1; j < n && item__word(&v[j], off) == word; j++)
			longer |= v[j].len > off + sizeof(word);
		if (j - i < 2)
			continue;
		if (longer)
			str_sorter__range(st, v + i, j - i, off + sizeof(word));
		else /* equal keys: by id */
			qsort(v + i, j - i, sizeof(*v), item__qsort_cmp);
	}
}

int str_sort(struct str_sort_item *v, size_t n)
{
	struct str_sorter st;
	int err = 0;

	if (n < STR_SORT_SHORT) {
		insertion_sort(v, n);
		return 0;
	}
	st.keys = malloc(n * sizeof(*st.keys));
	st.keys_tmp = malloc(n * sizeof(*st.keys_tmp));
	st.items_tmp = malloc(n * sizeof(*st.items_tmp));
	if (!st.keys || !st.keys_tmp || !st.items_tmp) {
		err = -ENOMEM;
	} else {
		/* All three written whole: their pages mapped together (lib/populate.h). */
		populate__write(st.keys, n * sizeof(*st.keys));
		populate__write(st.keys_tmp, n * sizeof(*st.keys_tmp));
		populate__write(st.items_tmp, n * sizeof(*st.items_tmp));
		str_sorter__range(&st, v, n, 0);
	}
	free(st.keys);
	free(st.keys_tmp);
	free(st.items_tmp);
	return err;
}
