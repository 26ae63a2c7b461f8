// SPDX-License-Identifier: GPL-2.0-only
/* The dedup's candidates in libbpf's order: see btf_dedup_cands.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "btf_dedup_cands.h"
#include "lib/grow.h"
#include "lib/populate.h"

#define NO_ENTRY UINT32_MAX

static uint64_t cand_bucket(const struct cand_table *c, uint64_t key)
{
	return (key * 0x9e3779b97f4a7c15ull) >> 32 & c->mask;
}

/* Room for @buckets chains, all empty; what they held is done with. */
static int cand_table__heads(struct cand_table *c, uint32_t buckets)
{
	if (grow__room(&c->heads, &c->heads_cap, buckets, sizeof(*c->heads)) < 0)
		return -ENOMEM;
	c->mask = buckets - 1;
	populate__write(c->heads, buckets * sizeof(*c->heads));
	memset(c->heads, 0xff, buckets * sizeof(*c->heads));
	return 0;
}

/*
 * Twice the chains, the entries linked again in the order they came, so
 * that each key's entries keep their order (cand_table__get()).
 */
static int cand_table__more_chains(struct cand_table *c)
{
	uint32_t e;

	if (cand_table__heads(c, 2 * (c->mask + 1)))
		return -ENOMEM;
	for (e = 0; e < c->nr; e++) {
		uint32_t *head = &c->heads[cand_bucket(c, c->v[e].key)];

		c->v[e].next = *head;
		*head = e;
	}
	return 0;
}

int cand_table__init(struct cand_table *c, uint32_t max, uint32_t chains)
{
	uint32_t buckets = 16;

	while (buckets < chains)
		buckets *= 2;
	c->nr = 0;
	c->seen = 0;
	c->libbpf_cap = 0;
	c->grows = 0;
	/* What the tables held is done with: not copied over as realloc() would. */
	if (grow__room(&c->v, &c->cap, max, sizeof(*c->v)) < 0)
		return -ENOMEM;
	return cand_table__heads(c, buckets);
}

void cand_table__free(struct cand_table *c)
{
	free(c->v);
	darray__free(&c->out);
	darray__free(&c->aside);
	free(c->heads);
	*c = (struct cand_table){};
}

/*
 * @n more entries in libbpf's map, which grows as it would, by half again
 * of its capacity at most at a time, so never twice for one entry: CAND_BACK
 * if the last goes at the back.
 */
static uint32_t cand_table__count(struct cand_table *c, uint32_t n)
{
	c->seen += n;
	if (n && !c->libbpf_cap) {
		c->libbpf_cap = 4;
		c->grows++;
	}
	while (c->seen * 4 / 3 > c->libbpf_cap) {
		c->libbpf_cap *= 2;
		c->grows++;
	}
	return c->grows & 1 ? CAND_BACK : 0;
}

void cand_table__skip(struct cand_table *c, uint32_t n)
{
	cand_table__count(c, n);
}

int cand_table__add(struct cand_table *c, uint64_t key, uint32_t id)
{
	uint32_t *head;

	if (c->nr > c->mask && cand_table__more_chains(c))
		return -ENOMEM;
	head = &c->heads[cand_bucket(c, key)];
	if (c->nr == c->cap) {
		struct cand *v = realloc(c->v, 2 * c->cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		c->v = v;
		c->cap *= 2;
	}
	populate__ahead(c->v, c->nr, c->cap, sizeof(*c->v));
	c->v[c->nr] = (struct cand){ key, id | cand_table__count(c, 1), *head };
	*head = c->nr++;
	return 0;
}

/* Room for @n entries at *@data, which has room for *@cap, what it holds kept. */
static bool cand_table__room(uint32_t **data, size_t *cap, size_t n)
{
	return n <= *cap || darray__grow((void **)data, cap, sizeof(**data), n);
}

int cand_table__get(struct cand_table *c, uint64_t key)
{
	uint32_t lead_back = c->grows & 1 ? CAND_BACK : 0, n = 0, aside = 0, e;

	/*
	 * One walk of the chain, which has them newest first: those at the
	 * end read first lead, newest first, straight into c->out; the others
	 * are set aside, to follow oldest first (from the end, newest last).
	 * The counts kept here, in registers, not in the arrays.
	 */
	for (e = c->heads[cand_bucket(c, key)]; e != NO_ENTRY; e = c->v[e].next) {
		uint32_t id = c->v[e].id;

		if (c->v[e].key != key)
			continue;
		if ((id & CAND_BACK) == lead_back) {
			if (!cand_table__room(&c->out.data, &c->out.capacity, n + 1))
				return -ENOMEM;
			c->out.data[n++] = id & ~CAND_BACK;
		} else {
			if (!cand_table__room(&c->aside.data, &c->aside.capacity, aside + 1))
				return -ENOMEM;
			c->aside.data[aside++] = id & ~CAND_BACK;
		}
	}
	if (aside && !cand_table__room(&c->out.data, &c->out.capacity, n + aside))
		return -ENOMEM;
	while (aside)
		c->out.data[n++] = c->aside.data[--aside];
	c->out.nr = n;
	return n;
}
