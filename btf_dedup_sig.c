// SPDX-License-Identifier: GPL-2.0-only
/*
 * The signatures and equalities of single types, as libbpf v1.1.2's
 * btf_hash_*() and btf_equal_*() (src/btf.c) and, for typedefs, 1.7's
 * btf_hash_typedef(): see btf_dedup_sig.h.
 */
#include <string.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf_dedup_sig.h"
#include "lib/btf_types.h"

/* libbpf's hash_combine(), on its long, as unsigned (the same bits). */
static uint64_t mix(uint64_t h, uint32_t v)
{
	return h * 31 + v;
}

uint64_t btf_sig__hash_common(const struct btf_type *t)
{
	return mix(mix(mix(0, t->name_off), t->info), t->size);
}

uint64_t btf_sig__hash_int_tag(const struct btf_type *t)
{
	return mix(btf_sig__hash_common(t), *(const uint32_t *)(t + 1));
}

uint64_t btf_sig__hash_enum(const struct btf_type *t)
{
	/* The name alone: an enum without values meets those with. */
	return mix(0, t->name_off);
}

uint64_t btf_sig__hash_enum_values(const struct btf_type *t)
{
	size_t item = btf_is_enum(t) ? sizeof(struct btf_enum) : sizeof(struct btf_enum64);
	const uint32_t *w = (const uint32_t *)(t + 1);
	size_t i, n = item / sizeof(*w) * btf_vlen(t);
	uint64_t h = btf_sig__hash_common(t);

	for (i = 0; i < n; i++)
		h = mix(h, w[i]);
	return h;
}

uint64_t btf_sig__hash_struct(const struct btf_type *t)
{
	const struct btf_member *m = btf_members(t);
	uint64_t h = btf_sig__hash_common(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++, m++)
		h = mix(mix(h, m->name_off), m->offset);
	return h;
}

/* libbpf 1.7's btf_hash_typedef(): the name and info, not the type it names. */
uint64_t btf_sig__hash_typedef(const struct btf_type *t)
{
	return mix(mix(0, t->name_off), t->info);
}

uint64_t btf_sig__hash_array(const struct btf_type *t)
{
	const struct btf_array *a = btf_array(t);

	return mix(mix(mix(btf_sig__hash_common(t), a->type), a->index_type), a->nelems);
}

uint64_t btf_sig__hash_proto(const struct btf_type *t)
{
	const struct btf_param *p = btf_params(t);
	uint64_t h = btf_sig__hash_common(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++, p++)
		h = mix(mix(h, p->name_off), p->type);
	return h;
}

bool btf_sig__equal_common(const struct btf_type *a, const struct btf_type *b)
{
	return a->name_off == b->name_off && a->info == b->info && a->size == b->size;
}

bool btf_sig__equal_int_tag(const struct btf_type *a, const struct btf_type *b)
{
	return btf_sig__equal_common(a, b) &&
	       *(const uint32_t *)(a + 1) == *(const uint32_t *)(b + 1);
}

bool btf_sig__equal_enum(const struct btf_type *a, const struct btf_type *b)
{
	size_t item = btf_is_enum(a) ? sizeof(struct btf_enum) : sizeof(struct btf_enum64);

	/* Each item is a name offset and the value: compared as bytes. */
	return btf_sig__equal_common(a, b) && !memcmp(a + 1, b + 1, item * btf_vlen(a));
}

bool btf_sig__is_enum_decl(const struct btf_type *t)
{
	return btf_is_any_enum(t) && !btf_vlen(t);
}

/* An enum without values is of a kind with any enum (or enum64) of its name. */
bool btf_sig__compat_enum(const struct btf_type *a, const struct btf_type *b)
{
	if (!btf_sig__is_enum_decl(a) && !btf_sig__is_enum_decl(b))
		return btf_sig__equal_enum(a, b);
	return a->name_off == b->name_off && btf_is_any_enum(a) && btf_is_any_enum(b);
}

/* The same but for the members' types. */
bool btf_sig__shallow_equal_struct(const struct btf_type *a, const struct btf_type *b)
{
	const struct btf_member *m = btf_members(a), *n = btf_members(b);
	int i;

	if (!btf_sig__equal_common(a, b))
		return false;
	for (i = 0; i < btf_vlen(a); i++)
		if (m[i].name_off != n[i].name_off || m[i].offset != n[i].offset)
			return false;
	return true;
}

bool btf_sig__shallow_equal_typedef(const struct btf_type *a, const struct btf_type *b)
{
	return a->name_off == b->name_off && a->info == b->info;
}

bool btf_sig__equal_array(const struct btf_type *a, const struct btf_type *b)
{
	return btf_sig__equal_common(a, b) &&
	       !memcmp(btf_array(a), btf_array(b), sizeof(struct btf_array));
}

bool btf_sig__equal_proto(const struct btf_type *a, const struct btf_type *b)
{
	return btf_sig__equal_common(a, b) &&
	       !memcmp(btf_params(a), btf_params(b), sizeof(struct btf_param) * btf_vlen(a));
}

/* The same but for the types referred to. */
bool btf_sig__compat_proto(const struct btf_type *a, const struct btf_type *b)
{
	const struct btf_param *p = btf_params(a), *q = btf_params(b);
	int i;

	if (a->name_off != b->name_off || a->info != b->info)
		return false;
	for (i = 0; i < btf_vlen(a); i++)
		if (p[i].name_off != q[i].name_off)
			return false;
	return true;
}
