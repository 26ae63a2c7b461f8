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
 * Only pointers whose target IDs are equal are merged, as libbpf compares
 * them: the first pointer to each target is found by the target's ID, in
 * an array as long as the types (a module's merged BTF holds a million).
 */
static int ptr_merge__find(const struct ptr_types *p, struct ptr_merge *m, bool *any)
{
	uint32_t id, *first;
	int err = 0;

	m->first = p->first;
	m->to = NULL;
	*any = false;
	if (p->end <= p->first)
		return 0;
	m->to = calloc(p->end - p->first, sizeof(*m->to));
	first = calloc(p->end, sizeof(*first));
	if (!m->to || !first) {
		free(first);
		return -ENOMEM;
	}
	for (id = p->first; id < p->end && !err; id++) {
		const struct btf_type *t = ptr_types__type(p, id);

		if (!btf_is_ptr(t))
			continue;
		if (t->type >= p->end)
			err = -EINVAL;
		else if (first[t->type])
			m->to[id - m->first] = first[t->type];
		else
			first[t->type] = id;
		*any |= m->to[id - m->first] != 0;
	}
	free(first);
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
