// SPDX-License-Identifier: GPL-2.0-only
/*
 * str_sort: str_sort() against qsort() with the same comparison, on sets of
 * names made to reach every path of the radix sort: shared prefixes ending
 * on either side of each 8-byte word, keys that begin others, equal keys
 * (ordered by id, given out of order), ranges short enough for insertion,
 * and names past the depth where it falls back to qsort().  Each set is
 * made by a fixed generator, so every run sorts the same names.
 *
 * Exits 0 when every set sorts as qsort() sorts it ("str_sort: N sets: ok"),
 * 1 with the first difference otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/str_sort.h"

#define MAX_NAMES 20000
#define MAX_LEN 600

static int item_cmp(const void *a, const void *b)
{
	return str_sort_item__cmp(a, b);
}

/* A fixed sequence (a 64-bit LCG's high bits), so that the sets are the same every run. */
static uint32_t next(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return *state >> 33;
}

/*
 * Set @seed: @n names from a small alphabet, each a shared prefix of one of
 * a few lengths (the word boundaries and their neighbours, and a deep one)
 * and a short random tail; ids a permutation, so equal keys meet out of id
 * order.
 */
static void make_set(uint64_t seed, char *buf, struct str_sort_item *v, size_t n)
{
	static const size_t prefix_lens[] = { 0, 1, 7, 8, 9, 15, 16, 17, 24, 300 };
	uint64_t st = seed;
	size_t i, j, off = 0;

	for (i = 0; i < n; i++) {
		size_t plen = prefix_lens[next(&st) % (sizeof(prefix_lens) / sizeof(*prefix_lens))];
		size_t tail = next(&st) % (seed % 3 ? 4 : 12);
		char *s = buf + off;

		for (j = 0; j < plen; j++)
			s[j] = 'a' +
			       (j * 7 + seed) % 3; /* the same prefix for every name of the set */
		for (j = 0; j < tail; j++)
			s[plen + j] = 'a' + next(&st) % (seed % 2 ? 2 : 26);
		v[i] = (struct str_sort_item){ s, plen + tail, 0 };
		off += plen + tail;
	}
	for (i = 0; i < n; i++)
		v[i].id = i;
	for (i = n; i > 1; i--) {
		uint32_t k = next(&st) % i, id = v[i - 1].id;

		v[i - 1].id = v[k].id;
		v[k].id = id;
	}
}

int main(void)
{
	static const size_t sizes[] = { 0, 1, 2, 5, 31, 32, 33, 100, 1000, MAX_NAMES };
	struct str_sort_item *a = malloc(MAX_NAMES * sizeof(*a)),
			     *b = malloc(MAX_NAMES * sizeof(*b));
	char *buf = malloc((size_t)MAX_NAMES * MAX_LEN);
	unsigned int sets = 0;
	uint64_t seed;
	size_t k, i;

	if (!a || !b || !buf) {
		fprintf(stderr, "str_sort: out of memory\n");
		return 1;
	}
	for (k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
		for (seed = 1; seed <= 12; seed++, sets++) {
			size_t n = sizes[k];

			make_set(seed, buf, a, n);
			memcpy(b, a, n * sizeof(*a));
			if (str_sort(a, n)) {
				fprintf(stderr, "str_sort: out of memory on %zu names\n", n);
				return 1;
			}
			qsort(b, n, sizeof(*b), item_cmp);
			for (i = 0; i < n; i++) {
				if (a[i].s == b[i].s && a[i].id == b[i].id)
					continue;
				fprintf(stderr,
					"str_sort: set %llu of %zu names: item %zu is \"%.*s\" id %u, qsort() has \"%.*s\" id %u\n",
					(unsigned long long)seed, n, i, (int)a[i].len, a[i].s,
					a[i].id, (int)b[i].len, b[i].s, b[i].id);
				return 1;
			}
		}
	}
	printf("str_sort: %u sets: ok\n", sets);
	free(a);
	free(b);
	free(buf);
	return 0;
}
