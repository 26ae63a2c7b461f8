// SPDX-License-Identifier: GPL-2.0-only
/* btf__dedup() with newer libbpf's pointer rule: see btf_dedup.h. */
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
