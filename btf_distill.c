// SPDX-License-Identifier: GPL-2.0-only
/* Distilling the base of split BTF: see btf_distill.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf_distill.h"
#include "lib/btf_types.h"

struct distill {
	const struct btf *base;
	const struct btf *split;
	uint32_t nr_base; /* type IDs below this are the base's */
	uint32_t *map; /* old ID -> new ID; base IDs also marked USED */
	int err;
};

#define USED UINT32_MAX

static bool is_named_composite(const struct btf_type *t)
{
	return btf_is_composite(t) && t->name_off;
}

static int mark_used(uint32_t id, void *ctx);

/* Marks base type @id, and what it refers to, as needed by the split types. */
static int distill__mark(struct distill *d, uint32_t id)
{
	const struct btf_type *t;

	if (!id || id >= d->nr_base || d->map[id])
		return 0;
	t = btf__type_by_id(d->base, id);
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_FWD:
	case BTF_KIND_ARRAY:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_PTR:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_FUNC_PROTO:
	case BTF_KIND_TYPE_TAG:
		break;
	default:
		/* Split BTF has no business referring to base FUNCs or VARs. */
		return -EINVAL;
	}
	d->map[id] = USED;
	/* A named struct or union goes to the base memberless: its members are not needed. */
	if (is_named_composite(t))
		return 0;
	return btf_type__read_ids(t, mark_used, d);
}

static int mark_used(uint32_t id, void *ctx)
{
	return distill__mark(ctx, id);
}

/* Whether used base type @t is described in the distilled base (else copied to split). */
static bool goes_to_base(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_FWD:
		return true;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return t->name_off;
	default:
		return false;
	}
}

static int distill__add_base_type(struct distill *d, struct btf *base, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(d->base, id);
	const char *name = btf__name_by_offset(d->base, t->name_off);

	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
		return btf__add_struct(base, name, t->size);
	case BTF_KIND_UNION:
		return btf__add_union(base, name, t->size);
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		/* Found again in the real base by name and size, either kind. */
		return btf__add_enum(base, name, t->size);
	default:
		return btf__add_type(base, d->base, t);
	}
}

static int remap_id(uint32_t *id, void *ctx)
{
	const struct distill *d = ctx;

	if (*id)
		*id = d->map[*id];
	return 0;
}

int btf_distill__run(const struct btf *split, struct btf **new_base, struct btf **new_split)
{
	struct distill d = { .base = btf__base_btf(split), .split = split };
	struct btf *base = NULL, *out = NULL;
	uint32_t id, end = btf__type_cnt(split), first_new;
	int err = -EINVAL;

	if (!d.base)
		return -EINVAL;
	d.nr_base = btf__type_cnt(d.base);
	d.map = calloc(end, sizeof(*d.map));
	if (!d.map)
		return -ENOMEM;
	for (id = d.nr_base; id < end; id++) {
		err = btf_type__read_ids(btf__type_by_id(split, id), mark_used, &d);
		if (err)
			goto out;
	}
	err = -ENOMEM;
	base = btf__new_empty();
	if (!base)
		goto out;
	for (id = 1; id < d.nr_base; id++) {
		int new_id;

		if (!d.map[id] || !goes_to_base(btf__type_by_id(d.base, id)))
			continue;
		new_id = distill__add_base_type(&d, base, id);
		if (new_id < 0) {
			err = new_id;
			goto out;
		}
		d.map[id] = new_id;
	}
	out = btf__new_empty_split(base);
	if (!out)
		goto out;
	first_new = btf__type_cnt(out);
	/* What the split types reach in the base, then the split types themselves. */
	for (id = 1; id < end; id++) {
		const struct btf *from = id < d.nr_base ? d.base : split;
		int new_id;

		if (id < d.nr_base && (!d.map[id] || goes_to_base(btf__type_by_id(d.base, id))))
			continue;
		new_id = btf__add_type(out, from, btf__type_by_id(from, id));
		if (new_id < 0) {
			err = new_id;
			goto out;
		}
		d.map[id] = new_id;
	}
	for (id = first_new; id < btf__type_cnt(out); id++)
		btf_type__visit_ids(btf_type__mut(out, id), remap_id, &d);
	err = 0;
out:
	free(d.map);
	if (err) {
		btf__free(out);
		btf__free(base);
		return err;
	}
	*new_base = base;
	*new_split = out;
	return 0;
}
