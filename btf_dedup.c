// SPDX-License-Identifier: GPL-2.0-only
/* btf__dedup() with newer libbpf's pointer rule: see btf_dedup.h. */
#include <errno.h>
#include <stdlib.h>

#include <string.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf_dedup.h"
#include "lib/btf_build.h"
#include "lib/btf_types.h"
#include "lib/ptr_map.h"

/*
 * The types the pointer rule reads and rewrites: a build's, or those of a
 * libbpf BTF past its base's (for distilled_base, whose dedup is libbpf's).
 */
struct ptr_types {
	struct btf_build *build;
	struct btf *btf; /* when @build is NULL */
	uint32_t first, end; /* the IDs of its own types */
};

static struct ptr_types ptr_types__build(const struct btf_build *b)
{
	return (struct ptr_types){ .build = (struct btf_build *)b,
				   .first = 1,
				   .end = btf_build__type_cnt(b) };
}

static struct ptr_types ptr_types__btf(const struct btf *btf)
{
	const struct btf *base = btf__base_btf(btf);

	return (struct ptr_types){ .btf = (struct btf *)btf,
				   .first = base ? btf__type_cnt(base) : 1,
				   .end = btf__type_cnt(btf) };
}

static struct btf_type *ptr_types__type(const struct ptr_types *p, uint32_t id)
{
	return p->build ? btf_build__type(p->build, id) : btf_type__mut(p->btf, id);
}

struct ptr_merge {
	uint32_t first; /* the first type ID of the BTF's own */
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
 * Finds, in m->to, the pointers of @p's types that the pointer rule merges
 * into an earlier one (0 for the others); *@any says whether there is one.
 * The target ID + 1 is the key: ptr_map takes pointers, never NULL.  Only
 * pointers whose target IDs are equal are merged, as libbpf compares them.
 */
static int ptr_merge__find(const struct ptr_types *p, struct ptr_merge *m, bool *any)
{
	uint32_t id, canon;
	struct ptr_map seen = {};
	int err = 0;

	m->first = p->first;
	m->to = NULL;
	*any = false;
	if (p->end <= p->first)
		return 0;
	m->to = calloc(p->end - p->first, sizeof(*m->to));
	if (!m->to)
		return -ENOMEM;
	for (id = p->first; id < p->end && !err; id++) {
		const struct btf_type *t = ptr_types__type(p, id);
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

static int ptr_types__merge(const struct ptr_types *p)
{
	uint32_t id;
	struct ptr_merge m;
	bool any;
	int err = ptr_merge__find(p, &m, &any);

	/* The merged pointers stay, unreferenced: dedup folds them into the first. */
	for (id = m.first; id < p->end && any && !err; id++)
		err = btf_type__visit_ids(ptr_types__type(p, id), ptr_merge__remap, &m);
	free(m.to);
	return err;
}

int btf_dedup__merge_ptrs(struct btf_build *b)
{
	struct ptr_types p = ptr_types__build(b);

	return ptr_types__merge(&p);
}

int btf_dedup__ptrs_unique(const struct btf_build *b)
{
	struct ptr_types p = ptr_types__build(b);
	struct ptr_merge m;
	bool any;
	int err = ptr_merge__find(&p, &m, &any);

	free(m.to);
	return err ?: !any;
}

int btf_dedup__run(struct btf *btf, bool ptrs_unique)
{
	struct ptr_types p = ptr_types__btf(btf);

	return (ptrs_unique ? 0 : ptr_types__merge(&p)) ?: btf__dedup(btf, NULL);
}
