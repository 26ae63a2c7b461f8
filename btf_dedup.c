// SPDX-License-Identifier: GPL-2.0-only
/* btf__dedup() with the pointer rule of newer libbpf: see btf_dedup.h. */
#include <errno.h>
#include <stdlib.h>

#include <bpf/btf.h>

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
 * The target ID + 1 is the key: ptr_map takes pointers, never NULL.  Only
 * pointers whose target IDs are equal are merged, as libbpf compares them.
 */
static int btf_dedup__merge_ptrs(struct btf *btf)
{
	const struct btf *base = btf__base_btf(btf);
	struct ptr_merge m = { .first = base ? btf__type_cnt(base) : 1 };
	uint32_t end = btf__type_cnt(btf), id, canon;
	struct ptr_map seen = {};
	bool any = false;
	int err = 0;

	if (end <= m.first)
		return 0;
	m.to = calloc(end - m.first, sizeof(*m.to));
	if (!m.to)
		return -ENOMEM;
	for (id = m.first; id < end && !err; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const void *key = (const void *)((uintptr_t)t->type + 1);

		if (!btf_is_ptr(t))
			continue;
		if (ptr_map__find(&seen, key, &canon)) {
			m.to[id - m.first] = canon;
			any = true;
		} else {
			err = ptr_map__add(&seen, key, id);
		}
	}
	/* The merged pointers stay, unreferenced: dedup folds them into the first. */
	for (id = m.first; id < end && any && !err; id++)
		err = btf_type__visit_ids((struct btf_type *)btf__type_by_id(btf, id),
					  ptr_merge__remap, &m);
	ptr_map__free(&seen);
	free(m.to);
	return err;
}

int btf_dedup__run(struct btf *btf)
{
	return btf_dedup__merge_ptrs(btf) ?: btf__dedup(btf, NULL);
}
