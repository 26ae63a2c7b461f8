// SPDX-License-Identifier: GPL-2.0-only
/*
 * par_for: every item run exactly once, at any number of threads and for
 * counts about the size of a block, and a failing item's error returned,
 * and no item run twice.
 *
 * Exits 0 when all hold ("par_for: N cases: ok"), 1 with the first failure.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/par_for.h"

struct count_ctx {
	atomic_uint *runs; /* by item */
	unsigned int nr_threads;
	size_t fail_at; /* the item that fails, or (size_t)-1 */
	atomic_int bad_thread;
};

static int count_one(void *arg, size_t i, unsigned int thread)
{
	struct count_ctx *c = arg;

	if (thread >= c->nr_threads)
		atomic_store(&c->bad_thread, 1);
	atomic_fetch_add(&c->runs[i], 1);
	return i == c->fail_at ? -(int)(i % 100 + 1) : 0;
}

int main(void)
{
	static const size_t counts[] = { 0, 1, 255, 256, 257, 1000, 10000 };
	static const unsigned int threads[] = { 1, 2, 3, 8, 64 };
	unsigned int cases = 0, t, k;
	size_t i;

	for (k = 0; k < sizeof(counts) / sizeof(*counts); k++) {
		for (t = 0; t < sizeof(threads) / sizeof(*threads); t++) {
			size_t n = counts[k];
			struct count_ctx c = { .runs = calloc(n ?: 1, sizeof(*c.runs)),
					       .nr_threads = threads[t],
					       .fail_at = n > 2 ? n / 2 : (size_t)-1 };
			int err;

			if (!c.runs) {
				fprintf(stderr, "par_for: out of memory\n");
				return 1;
			}
			/* Once with no failure: each item once. */
			c.fail_at = (size_t)-1;
			err = par_for(threads[t], n, count_one, &c);
			for (i = 0; i < n && !err; i++)
				if (atomic_load(&c.runs[i]) != 1)
					err = 1;
			if (err || atomic_load(&c.bad_thread)) {
				fprintf(stderr,
					"par_for: %zu items on %u threads: item %zu ran %u times (%d)\n",
					n, threads[t], i, i < n ? atomic_load(&c.runs[i]) : 0, err);
				return 1;
			}
			/* Then with item n/2 failing: its error, and no item run twice. */
			if (n > 2) {
				c.fail_at = n / 2;
				for (i = 0; i < n; i++)
					atomic_store(&c.runs[i], 0);
				err = par_for(threads[t], n, count_one, &c);
				for (i = 0; i < n; i++)
					if (atomic_load(&c.runs[i]) > 1)
						break;
				if (err != -(int)(n / 2 % 100 + 1) || i < n ||
				    atomic_load(&c.runs[n / 2]) != 1) {
					fprintf(stderr,
						"par_for: %zu items on %u threads, item %zu failing: %d\n",
						n, threads[t], n / 2, err);
					return 1;
				}
			}
			free(c.runs);
			cases++;
		}
	}
	printf("par_for: %u cases: ok\n", cases);
	return 0;
}
