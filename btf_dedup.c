// SPDX-License-Identifier: GPL-2.0-only
/* btf__dedup() with newer libbpf's pointer rule, and IDs carried through: see btf_dedup.h. */
#include <errno.h>
#include <stdlib.h>

#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf_dedup.h"
#include "lib/btf_types.h"
#include "lib/ptr_map.h"

struct ptr_merge {
	uint32_t first; /* the first type ID of @btf's own */
	uint32_t *to; /* to[id - first]: the pointer that stands for pointer id, or 0 */
};

static int ptr_merge__remap(uint32_t *id, void *ctx)
{
	const struct ptr_merge *m = ctx;

	if (*id >= m->first && m->to[*id - m->first])
		*id = m->to[*id - m->first];
	return 0;
}

/*
 * Finds, in m->to, the pointers of @btf's own types that the pointer rule
 * merges into an earlier one (0 for the others); *@any says whether there
 * is one.  The target ID + 1 is the key: ptr_map takes pointers, never
 * NULL.  Only pointers whose target IDs are equal are merged, as libbpf
 * compares them.
 */
static int ptr_merge__find(const struct btf *btf, struct ptr_merge *m, bool *any)
{
	const struct btf *base = btf__base_btf(btf);
	uint32_t end = btf__type_cnt(btf), id, canon;
	struct ptr_map seen = {};
	int err = 0;

	m->first = base ? btf__type_cnt(base) : 1;
	m->to = NULL;
	*any = false;
	if (end <= m->first)
		return 0;
	m->to = calloc(end - m->first, sizeof(*m->to));
	if (!m->to)
		return -ENOMEM;
	for (id = m->first; id < end && !err; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const void *key = (const void *)((uintptr_t)t->type + 1);

		if (!btf_is_ptr(t))
			continue;
		if (ptr_map__find(&seen, key, &canon)) {
			m->to[id - m->first] = canon;
			*any = true;
		} else {
			err = ptr_map__add(&seen, key, id);
		}
	}
	ptr_map__free(&seen);
	return err;
}

int btf_dedup__merge_ptrs(struct btf *btf)
{
	uint32_t end = btf__type_cnt(btf), id;
	struct ptr_merge m;
	bool any;
	int err = ptr_merge__find(btf, &m, &any);

	/* The merged pointers stay, unreferenced: dedup folds them into the first. */
	for (id = m.first; id < end && any && !err; id++)
		err = btf_type__visit_ids(btf_type__mut(btf, id), ptr_merge__remap, &m);
	free(m.to);
	return err;
}

int btf_dedup__ptrs_unique(const struct btf *btf)
{
	struct ptr_merge m;
	bool any;
	int err = ptr_merge__find(btf, &m, &any);

	free(m.to);
	return err ?: !any;
}

int btf_dedup__run(struct btf *btf, bool ptrs_unique)
{
	return (ptrs_unique ? 0 : btf_dedup__merge_ptrs(btf)) ?: btf__dedup(btf, NULL);
}

#define CARRIER_PREFIX "\x01pahole-carrier-"
#define CARRIER_MAX 0xffff

static void carrier__name(char *buf, size_t size, uint32_t nr)
{
	snprintf(buf, size, CARRIER_PREFIX "%u", nr);
}

/*
 * Adds the carriers of the non-zero IDs of @ids[0..@nr) after @btf's types
 * (void is 0 before and after); their count, or a negative errno.
 */
static int carriers__add(struct btf *btf, const uint32_t *ids, size_t nr)
{
	char name[sizeof(CARRIER_PREFIX) + 10];
	uint32_t nr_carriers = 0, members = CARRIER_MAX;
	size_t i;
	int err;

	for (i = 0; i < nr; i++) {
		if (!ids[i])
			continue;
		if (members == CARRIER_MAX) {
			carrier__name(name, sizeof(name), nr_carriers++);
			err = btf__add_union(btf, name, 0);
			if (err < 0)
				return err;
			members = 0;
		}
		err = btf__add_field(btf, NULL, ids[i], 0, 0);
		if (err)
			return err;
		members++;
	}
	return nr_carriers;
}

/*
 * Reads the non-zero IDs of @ids[0..@nr) back from the @nr_carriers
 * carriers, which must be the last types of @btf, each as full as
 * carriers__add() made it; the ID of the first in *@first.
 */
static int carriers__read(const struct btf *btf, uint32_t nr_carriers, uint32_t *ids, size_t nr,
			  uint32_t *first)
{
	char name[sizeof(CARRIER_PREFIX) + 10];
	uint32_t end = btf__type_cnt(btf), i;
	size_t n = 0;

	if (end < nr_carriers + 1)
		return -EPROTO;
	*first = end - nr_carriers;
	for (i = 0; i < nr_carriers; i++) {
		const struct btf_type *t = btf__type_by_id(btf, *first + i);
		const struct btf_member *m = btf_members(t);
		uint16_t j;

		carrier__name(name, sizeof(name), i);
		if (!btf_is_union(t) || strcmp(btf__name_by_offset(btf, t->name_off), name) ||
		    (i + 1 < nr_carriers && btf_vlen(t) != CARRIER_MAX))
			return -EPROTO;
		for (j = 0; j < btf_vlen(t); j++, n++) {
			while (n < nr && !ids[n])
				n++;
			if (n == nr)
				return -EPROTO;
			ids[n] = m[j].type;
		}
	}
	/* As many members as IDs: the last carrier was not cut short. */
	while (n < nr && !ids[n])
		n++;
	return n == nr ? 0 : -EPROTO;
}

int btf_dedup__carry(struct btf *btf, uint32_t *ids, size_t nr, uint32_t *nr_types)
{
	const struct btf *base = btf__base_btf(btf);
	uint32_t first = btf__type_cnt(btf);
	int nr_carriers, err;

	nr_carriers = carriers__add(btf, ids, nr);
	if (nr_carriers < 0)
		return nr_carriers;
	err = btf__dedup(btf, NULL);
	if (!err && nr_carriers)
		err = carriers__read(btf, nr_carriers, ids, nr, &first);
	if (!err)
		*nr_types = (nr_carriers ? first : btf__type_cnt(btf)) -
			    (base ? btf__type_cnt(base) : 1);
	return err;
}
