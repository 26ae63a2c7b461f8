// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dedup's FWD pass (btf_dedup_priv.h): between the structs' pass and
 * the references', each struct or union declaration that no type graph
 * resolved takes the one struct or union of its name, base or module, when
 * there is exactly one (libbpf v1.1.2's btf_dedup_resolve_fwds(), the rule
 * every release since follows).
 */
#include <errno.h>
#include <stdlib.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf_dedup_priv.h"

/* A name's structs and unions that stand for themselves: how many, the first. */
struct fwd_name {
	uint32_t name_off, nr, id;
};

static int fwd_name__cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct fwd_name *)a)->name_off;
	uint32_t y = ((const struct fwd_name *)b)->name_off;

	return x < y ? -1 : x > y;
}

static void fwd_names__count(struct fwd_name *names, size_t n, const struct btf_type *t,
			     uint32_t id)
{
	struct fwd_name key = { .name_off = t->name_off }, *f;

	f = bsearch(&key, names, n, sizeof(*names), fwd_name__cmp);
	if (f && !f->nr++)
		f->id = id;
}

/*
 * FWDs no graph resolved: to the struct or union of their name, when
 * exactly one of the base's and the module's stands for itself.  Those
 * FWDs are listed once: the types are walked twice, not four times.
 */
int dedup__resolve_fwds(struct dedup *d)
{
	DARRAY(uint32_t) fwds = {};
	struct fwd_name *names = NULL;
	size_t n, i, j;
	uint32_t id, *slot;
	int err = 0;

	for (id = d->nb; id < d->nr && !err; id++) {
		if (!btf_is_fwd(split_type(d, id)) || map_of(d, id) != id)
			continue;
		slot = darray__push(&fwds);
		if (slot)
			*slot = id;
		else
			err = -ENOMEM;
	}
	n = fwds.nr;
	if (!err && n) {
		names = calloc(n, sizeof(*names));
		err = names ? 0 : -ENOMEM;
	}
	if (err || !n)
		goto out;
	for (i = 0; i < n; i++)
		names[i].name_off = split_type(d, fwds.data[i])->name_off;
	qsort(names, n, sizeof(*names), fwd_name__cmp);
	for (i = j = 0; i < n; i++)
		if (!j || names[j - 1].name_off != names[i].name_off)
			names[j++] = names[i];
	/* Of the base's, only those named as a module type is (a FWD is one): in ID order, as the module's. */
	for (i = 0; i < d->base_composites.nr; i++) {
		id = d->base_composites.data[i];
		if (map_of(d, id) == id)
			fwd_names__count(names, j, type_of(d, id), id);
	}
	for (id = d->nb; id < d->nr; id++) {
		const struct btf_type *t = split_type(d, id);

		if (btf_is_composite(t) && map_of(d, id) == id)
			fwd_names__count(names, j, t, id);
	}
	for (i = 0; i < n; i++) {
		const struct btf_type *t = split_type(d, fwds.data[i]), *c;
		struct fwd_name key = { .name_off = t->name_off }, *f;

		f = bsearch(&key, names, j, sizeof(*names), fwd_name__cmp);
		if (!f || f->nr != 1)
			continue;
		c = type_of(d, f->id);
		if (btf_kind(c) == fwd_kind(t))
			map_set(d, fwds.data[i], f->id);
	}
out:
	free(names);
	darray__free(&fwds);
	return err;
}
