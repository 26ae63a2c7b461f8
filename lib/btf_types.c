// SPDX-License-Identifier: GPL-2.0-only
/* Per-kind operations on raw BTF types: see btf_types.h. */
#include <byteswap.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf_kinds.h"
#include "btf_types.h"
#include "populate.h"

struct btf_kind_ops {
	/* Calls @visit on each type-ID field of @t. */
	int (*visit_ids)(struct btf_type *t, int (*visit)(uint32_t *id, void *ctx), void *ctx);
	/* Bytes after struct btf_type: fixed, and per vlen item. */
	uint8_t extra, item;
	/* Whether each vlen item starts with a name offset. */
	bool named_items;
	/* Where visit_ids finds them (enum btf_kind_ids): max_refs() reads them in bulk. */
	uint8_t ids;
};

static int visit_none(struct btf_type *t, int (*visit)(uint32_t *, void *), void *ctx)
{
	(void)t, (void)visit, (void)ctx;
	return 0;
}

static int visit_type(struct btf_type *t, int (*visit)(uint32_t *, void *), void *ctx)
{
	return visit(&t->type, ctx);
}

static int visit_array(struct btf_type *t, int (*visit)(uint32_t *, void *), void *ctx)
{
	struct btf_array *a = btf_array(t);
	int err = visit(&a->type, ctx);

	return err ?: visit(&a->index_type, ctx);
}

/* Each item's type ID, at @off within items of @size bytes. */
static int visit_items(struct btf_type *t, size_t size, size_t off,
		       int (*visit)(uint32_t *, void *), void *ctx)
{
	char *item = (char *)(t + 1);
	int i, err = 0;

	for (i = 0; !err && i < btf_vlen(t); i++, item += size)
		err = visit((uint32_t *)(item + off), ctx);
	return err;
}

static int visit_members(struct btf_type *t, int (*visit)(uint32_t *, void *), void *ctx)
{
	return visit_items(t, sizeof(struct btf_member), offsetof(struct btf_member, type), visit,
			   ctx);
}

static int visit_proto(struct btf_type *t, int (*visit)(uint32_t *, void *), void *ctx)
{
	int err = visit(&t->type, ctx);

	return err   ?:
		       visit_items(t, sizeof(struct btf_param), offsetof(struct btf_param, type),
				   visit, ctx);
}

static int visit_datasec(struct btf_type *t, int (*visit)(uint32_t *, void *), void *ctx)
{
	return visit_items(t, sizeof(struct btf_var_secinfo),
			   offsetof(struct btf_var_secinfo, type), visit, ctx);
}

/* The kinds' rows (lib/btf_kinds.h): what this file needs of each. */
static const struct btf_kind_ops btf_kind_ops[NR_BTF_KINDS] = {
#define BTF_KIND_OPS(kind, name, extra, item, named, ids, ...) \
	[BTF_KIND_##kind] = { visit_##ids, extra, item, named, BTF_IDS_##ids },
	BTF_KINDS(BTF_KIND_OPS)
#undef BTF_KIND_OPS
};

int btf_type__visit_ids(struct btf_type *t, int (*visit)(uint32_t *, void *), void *ctx)
{
	return btf_kind_ops[btf_kind(t)].visit_ids(t, visit, ctx);
}

struct read_ids {
	int (*visit)(uint32_t id, void *ctx);
	void *ctx;
};

static int read_id(uint32_t *id, void *ctx)
{
	const struct read_ids *r = ctx;

	return r->visit(*id, r->ctx);
}

int btf_type__read_ids(const struct btf_type *t, int (*visit)(uint32_t, void *), void *ctx)
{
	struct read_ids r = { visit, ctx };

	/* read_id() writes nothing: the table's visitors serve both. */
	return btf_kind_ops[btf_kind(t)].visit_ids((struct btf_type *)t, read_id, &r);
}

struct btf_type *btf_type__mut(struct btf *btf, uint32_t id)
{
	return (struct btf_type *)btf__type_by_id(btf, id);
}

void btf_kind__sizes(unsigned int kind, uint8_t *extra, uint8_t *item)
{
	*extra = btf_kind_ops[kind].extra;
	*item = btf_kind_ops[kind].item;
}

size_t btf_type__size(const struct btf_type *t)
{
	const struct btf_kind_ops *ops = &btf_kind_ops[btf_kind(t)];

	return sizeof(*t) + ops->extra + (size_t)ops->item * btf_vlen(t);
}

/*
 * The largest of *@max_word and word @word of each of @vlen items of @step
 * words at @w: with constant @step and @word, a loop of its own (inline).
 */
static inline void max_words(const uint32_t *w, unsigned int vlen, unsigned int step,
			     unsigned int word, uint32_t *max_word)
{
	uint32_t max = *max_word;
	unsigned int i;

	for (i = 0; i < vlen; i++, w += step)
		max = w[word] > max ? w[word] : max;
	*max_word = max;
}

/* As max_words(), for the two words of items that are a name and a type (members, params). */
static inline void max_named_ids(const uint32_t *w, unsigned int vlen, unsigned int step,
				 uint32_t *max_id, uint32_t *max_str)
{
	uint32_t id = *max_id, str = *max_str;
	unsigned int i;

	for (i = 0; i < vlen; i++, w += step) {
		str = w[0] > str ? w[0] : str;
		id = w[1] > id ? w[1] : id;
	}
	*max_id = id;
	*max_str = str;
}

/*
 * The items of members or params, @step words each, a name then a type:
 * their types into *@max_id and, unless @max_str is NULL, their names
 * into *@max_str.
 */
static inline void max_item_refs(const uint32_t *w, unsigned int vlen, unsigned int step,
				 uint32_t *max_id, uint32_t *max_str)
{
	if (max_str)
		max_named_ids(w, vlen, step, max_id, max_str);
	else
		max_words(w, vlen, step, 1, max_id);
}

/*
 * Raises *@max_id to the largest type ID @t refers to (those visit_ids
 * visits) and, unless @max_str is NULL, *@max_str to its largest string
 * offset (those of btf_type__visit_strs()); @t of kind table entry @ops,
 * with @vlen items: the kind's layout by the IDS column, each item loop
 * with its stride fixed.
 */
static inline void max_refs(const struct btf_type *t, const struct btf_kind_ops *ops,
			    unsigned int vlen, uint32_t *max_id, uint32_t *max_str)
{
	const uint32_t *items = (const uint32_t *)((const char *)(t + 1) + ops->extra);
	const struct btf_array *a;

	if (max_str)
		*max_str = t->name_off > *max_str ? t->name_off : *max_str;
	switch (ops->ids) {
	case BTF_IDS_type:
		*max_id = t->type > *max_id ? t->type : *max_id;
		break;
	case BTF_IDS_array:
		a = btf_array(t);
		*max_id = a->type > *max_id ? a->type : *max_id;
		*max_id = a->index_type > *max_id ? a->index_type : *max_id;
		break;
	case BTF_IDS_members:
		max_item_refs(items, vlen, sizeof(struct btf_member) / 4, max_id, max_str);
		break;
	case BTF_IDS_proto:
		*max_id = t->type > *max_id ? t->type : *max_id;
		max_item_refs(items, vlen, sizeof(struct btf_param) / 4, max_id, max_str);
		break;
	case BTF_IDS_datasec:
		max_words(items, vlen, sizeof(struct btf_var_secinfo) / 4, 0, max_id);
		break;
	default:
		/* Enums: named items, no IDs. */
		if (max_str && ops->named_items)
			max_words(items, vlen, ops->item / 4, 0, max_str);
		break;
	}
}

int btf_types__index(const void *types, uint32_t len, uint32_t *offs, uint32_t cap, uint32_t *nr,
		     uint32_t *max_id, uint32_t *max_str)
{
	const char *start = types, *p = start, *end = start + len;
	uint32_t n = *nr, id = 0, str = 0;

	while (p < end) {
		const struct btf_type *t = (const struct btf_type *)p;
		const struct btf_kind_ops *ops;
		unsigned int kind, vlen;
		size_t size;

		if ((size_t)(end - p) < sizeof(*t))
			return -EINVAL;
		kind = btf_kind(t);
		if (kind == BTF_KIND_UNKN || kind >= NR_BTF_KINDS || n >= cap)
			return -EINVAL;
		ops = &btf_kind_ops[kind];
		vlen = btf_vlen(t);
		size = sizeof(*t) + ops->extra + (size_t)ops->item * vlen;
		if (size > (size_t)(end - p))
			return -EINVAL;
		max_refs(t, ops, vlen, &id, &str);
		populate__ahead(offs, n, cap, sizeof(*offs));
		offs[n++] = p - start;
		p += size;
	}
	*nr = n;
	*max_id = id;
	*max_str = str;
	return 0;
}

uint32_t btf_type__max_id(const struct btf_type *t, uint32_t max)
{
	max_refs(t, &btf_kind_ops[btf_kind(t)], btf_vlen(t), &max, NULL);
	return max;
}

int btf_type__visit_strs(struct btf_type *t, int (*visit)(uint32_t *off, void *ctx), void *ctx)
{
	const struct btf_kind_ops *ops = &btf_kind_ops[btf_kind(t)];
	char *item = (char *)(t + 1) + ops->extra;
	int i, err = visit(&t->name_off, ctx);

	for (i = 0; !err && ops->named_items && i < btf_vlen(t); i++, item += ops->item)
		err = visit((uint32_t *)item, ctx);
	return err;
}

static int shift_str(uint32_t *off, void *ctx)
{
	if (*off)
		*off += *(const uint32_t *)ctx;
	return 0;
}

void btf_type__shift_strs(struct btf_type *t, uint32_t delta)
{
	btf_type__visit_strs(t, shift_str, &delta);
}

int btf_types__swap(void *types, size_t len, bool to_native)
{
	char *p = types, *end = p + len;

	while (p < end) {
		uint32_t *w = (uint32_t *)p;
		size_t size, i, head = sizeof(struct btf_type) / 4;

		if ((size_t)(end - p) < sizeof(struct btf_type))
			return -EINVAL;
		/* The kind and vlen are read in our byte order: after, or before, the swap. */
		for (i = 0; to_native && i < head; i++)
			w[i] = bswap_32(w[i]);
		if (btf_kind((struct btf_type *)p) == BTF_KIND_UNKN ||
		    btf_kind((struct btf_type *)p) >= NR_BTF_KINDS)
			return -EINVAL;
		size = btf_type__size((struct btf_type *)p);
		if (size > (size_t)(end - p))
			return -EINVAL;
		for (i = to_native ? head : 0; i < size / 4; i++)
			w[i] = bswap_32(w[i]);
		p += size;
	}
	return 0;
}

void btf_header__swap(struct btf_header *hdr)
{
	hdr->magic = bswap_16(hdr->magic);
	hdr->hdr_len = bswap_32(hdr->hdr_len);
	hdr->type_off = bswap_32(hdr->type_off);
	hdr->type_len = bswap_32(hdr->type_len);
	hdr->str_off = bswap_32(hdr->str_off);
	hdr->str_len = bswap_32(hdr->str_len);
}

int btf_raw__swap_out(void *raw, size_t size)
{
	struct btf_header *hdr = raw;
	int err;

	if (size < sizeof(*hdr) || hdr->hdr_len != sizeof(*hdr) ||
	    size - sizeof(*hdr) < (uint64_t)hdr->type_off + hdr->type_len)
		return -EINVAL;
	err = btf_types__swap((char *)(hdr + 1) + hdr->type_off, hdr->type_len, false);
	if (err)
		return err;
	btf_header__swap(hdr);
	return 0;
}
