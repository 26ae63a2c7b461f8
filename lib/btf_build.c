// SPDX-License-Identifier: GPL-2.0-only
/* A BTF built in buffers of ours, as libbpf 1.1 builds one: see btf_build.h. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf_build.h"
#include "btf_types.h"
#include "grow.h"
#include "populate.h"

#define BTF_MAX_ID 0x7fffffffu /* libbpf's BTF_MAX_NR_TYPES: the largest ID it takes */

/* libbpf's btf_type_info(): a vlen past 16 bits spills into the unused bits, as there. */
static uint32_t type_info(unsigned int kind, uint32_t vlen, int kflag)
{
	return ((uint32_t) !!kflag << 31) | (kind << 24) | vlen;
}

int btf_build__add_str(struct btf_build *b, const char *s)
{
	int err;

	/* The empty string first, as every BTF's string section begins. */
	if (!b->strs.len) {
		err = str_set__add(&b->strs, "");
		if (err < 0)
			return err;
	}
	return *s ? str_set__add(&b->strs, s) : 0;
}

const struct btf_type *btf_build__type_by_id(const struct btf_build *b, uint32_t id)
{
	static const struct btf_type void_type;

	if (!id)
		return &void_type;
	return id < btf_build__type_cnt(b) ? btf_build__type(b, id) : NULL;
}

const char *btf_build__str(const struct btf_build *b, uint32_t off)
{
	return off < b->strs.len ? b->strs.data + off : "";
}

/*
 * Where the part of a buffer of @cap bytes mapped ends, @mapped bytes in,
 * once @need are: a window (populate.h) past what is needed now mapped in
 * one call, as the types of a chunk are appended (some 2,000 faults a
 * worker's first chunk took, each ten times a page mapped so).
 */
static size_t btf_build__map_ahead(void *buf, size_t mapped, size_t need, size_t cap)
{
	size_t end = need + POPULATE_WINDOW;

	if (end > cap)
		end = cap;
	if (end <= mapped)
		return mapped;
	populate__write((char *)buf + mapped, end - mapped);
	return end;
}

/* btf_build__room() where either buffer is to grow, or to be mapped further. */
static __attribute__((noinline)) void *btf_build__grow(struct btf_build *b, uint32_t size)
{
	if (size > UINT32_MAX - b->types_len)
		return NULL;
	if (b->types_len + size > b->types_cap) {
		uint32_t cap = b->types_cap ? b->types_cap : 1u << 16;
		char *types;

		while (cap < b->types_len + size)
			cap = cap > UINT32_MAX / 2 ? UINT32_MAX : 2 * cap;
		types = grow__realloc(b->types, b->types_cap, cap);
		if (!types)
			return NULL;
		b->types = types;
		b->types_cap = cap;
	}
	if (b->nr == b->offs_cap) {
		uint32_t cap = b->offs_cap ? 2 * b->offs_cap : 4096, *offs;

		offs = grow__realloc(b->offs, (size_t)b->offs_cap * sizeof(*offs),
				     (size_t)cap * sizeof(*offs));
		if (!offs)
			return NULL;
		b->offs = offs;
		b->offs_cap = cap;
	}
	b->types_mapped = btf_build__map_ahead(b->types, b->types_mapped,
					       (size_t)b->types_len + size, b->types_cap);
	if (b->nr >= b->offs_mapped)
		b->offs_mapped = btf_build__map_ahead(b->offs, b->offs_mapped * sizeof(*b->offs),
						      (b->nr + (size_t)1) * sizeof(*b->offs),
						      b->offs_cap * sizeof(*b->offs)) /
				 sizeof(*b->offs);
	return b->types + b->types_len;
}

/*
 * Room for @size more bytes of types and one more type; NULL when out of
 * memory.  Inline where there is room, mapped: a call for each of a
 * kernel's millions of members and parameters.
 */
static inline void *btf_build__room(struct btf_build *b, uint32_t size)
{
	if (size <= b->types_mapped - b->types_len && b->nr < b->offs_mapped)
		return b->types + b->types_len;
	return btf_build__grow(b, size);
}

/*
 * Appends a type of @size bytes whose fixed part is @t; its ID, or -ENOMEM.
 * Inline, as btf_build__extend(): its callers' sizes are constants, and
 * the memcpy() of one then takes a few stores, not a call.
 */
static inline __attribute__((always_inline)) int btf_build__commit(struct btf_build *b,
								   const void *t, uint32_t size)
{
	void *at = btf_build__room(b, size);

	if (!at)
		return -ENOMEM;
	memcpy(at, t, size);
	b->offs[b->nr++] = b->types_len;
	b->types_len += size;
	return b->nr;
}

/* Appends @size bytes to the last type, whose info becomes @info; 0 or -ENOMEM. */
static inline __attribute__((always_inline)) int
btf_build__extend(struct btf_build *b, const void *item, uint32_t size, uint32_t info)
{
	void *at;

	/* The room for one more type is not needed, but harmless. */
	at = btf_build__room(b, size);
	if (!at)
		return -ENOMEM;
	memcpy(at, item, size);
	b->types_len += size;
	btf_build__type(b, b->nr)->info = info;
	return 0;
}

/* The last type, when it is of @kind; else NULL (libbpf: -EINVAL). */
static struct btf_type *btf_build__last(const struct btf_build *b, unsigned int kind)
{
	struct btf_type *t = b->nr ? btf_build__type(b, b->nr) : NULL;

	return t && btf_kind(t) == kind ? t : NULL;
}

static bool size_is_pow2(uint32_t size, uint32_t max)
{
	return size && !(size & (size - 1)) && size <= max;
}

int btf_build__add_int(struct btf_build *b, uint32_t name, uint32_t size, int encoding)
{
	struct {
		struct btf_type t;
		uint32_t bits;
	} v = { { name, type_info(BTF_KIND_INT, 0, 0), { size } }, 0 };

	if (!name || !size_is_pow2(size, 16) ||
	    (encoding & ~(BTF_INT_SIGNED | BTF_INT_CHAR | BTF_INT_BOOL)))
		return -EINVAL;
	v.bits = ((uint32_t)encoding << 24) | (size * 8);
	return btf_build__commit(b, &v, sizeof(v));
}

int btf_build__add_float(struct btf_build *b, uint32_t name, uint32_t size)
{
	struct btf_type t = { name, type_info(BTF_KIND_FLOAT, 0, 0), { size } };

	if (!name || (size != 2 && size != 4 && size != 8 && size != 12 && size != 16))
		return -EINVAL;
	return btf_build__commit(b, &t, sizeof(t));
}

int btf_build__add_ref(struct btf_build *b, unsigned int kind, uint32_t name, uint32_t type)
{
	struct btf_type t = { name, type_info(kind, 0, 0), { type } };

	if (type > BTF_MAX_ID || (!name && (kind == BTF_KIND_TYPEDEF || kind == BTF_KIND_TYPE_TAG)))
		return -EINVAL;
	return btf_build__commit(b, &t, sizeof(t));
}

int btf_build__add_array(struct btf_build *b, uint32_t index_type, uint32_t elem_type,
			 uint32_t nelems)
{
	struct {
		struct btf_type t;
		struct btf_array a;
	} v = { { 0, type_info(BTF_KIND_ARRAY, 0, 0), { 0 } }, { elem_type, index_type, nelems } };

	if (index_type > BTF_MAX_ID || elem_type > BTF_MAX_ID)
		return -EINVAL;
	return btf_build__commit(b, &v, sizeof(v));
}

int btf_build__add_composite(struct btf_build *b, unsigned int kind, uint32_t name, uint32_t size)
{
	struct btf_type t = { name, type_info(kind, 0, 0), { size } };

	return btf_build__commit(b, &t, sizeof(t));
}

int btf_build__add_field(struct btf_build *b, uint32_t name, uint32_t type, uint32_t bit_off,
			 uint32_t bit_size)
{
	/* The last type, looked at once: a STRUCT or a UNION. */
	struct btf_type *t = b->nr ? btf_build__type(b, b->nr) : NULL;
	unsigned int kind = t ? btf_kind(t) : BTF_KIND_UNKN;
	struct btf_member m = { name, type, bit_off | (bit_size << 24) };
	bool bitfield = bit_size || bit_off % 8;

	if ((kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION) || type > BTF_MAX_ID)
		return -EINVAL;
	if (bitfield && (!bit_size || bit_size > 255 || bit_off > 0xffffff))
		return -EINVAL;
	if (kind == BTF_KIND_UNION && bit_off)
		return -EINVAL;
	return btf_build__extend(b, &m, sizeof(m),
				 type_info(kind, btf_vlen(t) + 1, bitfield || btf_kflag(t)));
}

int btf_build__add_enum(struct btf_build *b, unsigned int kind, uint32_t name, uint32_t size,
			int is_signed)
{
	struct btf_type t = { name, type_info(kind, 0, is_signed), { size } };

	if (!size_is_pow2(size, 8))
		return -EINVAL;
	return btf_build__commit(b, &t, sizeof(t));
}

int btf_build__add_enum_value(struct btf_build *b, uint32_t name, int64_t value)
{
	struct btf_type *t = btf_build__last(b, BTF_KIND_ENUM);
	struct btf_enum v = { name, (int32_t)value };
	uint32_t info;

	if (!t || !name)
		return -EINVAL;
	if (value < INT_MIN || value > UINT_MAX)
		return -E2BIG;
	info = type_info(BTF_KIND_ENUM, btf_vlen(t) + 1, btf_kflag(t));
	/* A negative value makes it signed, the vlen read back through its 16 bits. */
	if (value < 0)
		info = type_info(BTF_KIND_ENUM, (btf_vlen(t) + 1) & 0xffff, 1);
	return btf_build__extend(b, &v, sizeof(v), info);
}

int btf_build__add_enum64_value(struct btf_build *b, uint32_t name, uint64_t value)
{
	struct btf_type *t = btf_build__last(b, BTF_KIND_ENUM64);
	struct btf_enum64 v = { name, (uint32_t)value, value >> 32 };

	if (!t || !name)
		return -EINVAL;
	return btf_build__extend(b, &v, sizeof(v),
				 type_info(BTF_KIND_ENUM64, btf_vlen(t) + 1, btf_kflag(t)));
}

int btf_build__add_fwd(struct btf_build *b, uint32_t name, unsigned int kind)
{
	struct btf_type t = { name, type_info(BTF_KIND_FWD, 0, kind == BTF_KIND_UNION), { 0 } };

	if (!name)
		return -EINVAL;
	/* An enum's FWD is an ENUM of no values, of an int's size. */
	if (kind == BTF_KIND_ENUM)
		return btf_build__add_enum(b, BTF_KIND_ENUM, name, 4, 0);
	if (kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION)
		return -EINVAL;
	return btf_build__commit(b, &t, sizeof(t));
}

int btf_build__add_func_proto(struct btf_build *b, uint32_t ret_type)
{
	return ret_type > BTF_MAX_ID ? -EINVAL :
				       btf_build__add_ref(b, BTF_KIND_FUNC_PROTO, 0, ret_type);
}

int btf_build__add_func_param(struct btf_build *b, uint32_t name, uint32_t type)
{
	struct btf_type *t = btf_build__last(b, BTF_KIND_FUNC_PROTO);
	struct btf_param p = { name, type };

	if (type > BTF_MAX_ID || !t)
		return -EINVAL;
	return btf_build__extend(b, &p, sizeof(p),
				 type_info(BTF_KIND_FUNC_PROTO, btf_vlen(t) + 1, btf_kflag(t)));
}

int btf_build__add_decl_tag(struct btf_build *b, uint32_t value, uint32_t type, int component)
{
	struct {
		struct btf_type t;
		struct btf_decl_tag d;
	} v = { { value, type_info(BTF_KIND_DECL_TAG, 0, 0), { type } }, { component } };

	if (!value || component < -1 || type > BTF_MAX_ID)
		return -EINVAL;
	return btf_build__commit(b, &v, sizeof(v));
}

int btf_build__add_func(struct btf_build *b, uint32_t name, int linkage, uint32_t proto)
{
	struct btf_type t = { name, type_info(BTF_KIND_FUNC, linkage, 0), { proto } };

	if (!name || proto > BTF_MAX_ID ||
	    (linkage != BTF_FUNC_STATIC && linkage != BTF_FUNC_GLOBAL &&
	     linkage != BTF_FUNC_EXTERN))
		return -EINVAL;
	return btf_build__commit(b, &t, sizeof(t));
}

int btf_build__add_var(struct btf_build *b, uint32_t name, int linkage, uint32_t type)
{
	struct {
		struct btf_type t;
		struct btf_var v;
	} v = { { name, type_info(BTF_KIND_VAR, 0, 0), { type } }, { linkage } };

	if (!name || type > BTF_MAX_ID ||
	    (linkage != BTF_VAR_STATIC && linkage != BTF_VAR_GLOBAL_ALLOCATED &&
	     linkage != BTF_VAR_GLOBAL_EXTERN))
		return -EINVAL;
	return btf_build__commit(b, &v, sizeof(v));
}

int btf_build__add_datasec(struct btf_build *b, uint32_t name, uint32_t size)
{
	struct btf_type t = { name, type_info(BTF_KIND_DATASEC, 0, 0), { size } };

	return name ? btf_build__commit(b, &t, sizeof(t)) : -EINVAL;
}

int btf_build__add_datasec_var_info(struct btf_build *b, uint32_t var, uint32_t offset,
				    uint32_t size)
{
	struct btf_type *t = btf_build__last(b, BTF_KIND_DATASEC);
	struct btf_var_secinfo v = { var, offset, size };

	if (!t || var > BTF_MAX_ID)
		return -EINVAL;
	return btf_build__extend(b, &v, sizeof(v),
				 type_info(BTF_KIND_DATASEC, btf_vlen(t) + 1, btf_kflag(t)));
}

int btf_build__add_type(struct btf_build *b, const struct btf_type *t)
{
	return btf_build__commit(b, t, btf_type__size(t));
}

/* libbpf 1.1's btf__resolve_size() (v1.1.2's src/btf.c): see btf_build.h. */
int64_t btf_build__resolve_size(const struct btf_build *btf, uint32_t id)
{
	const struct btf_type *t = btf_build__type_by_id(btf, id);
	uint32_t nelems = 1;
	int64_t size = -1;
	int i;

	for (i = 0; i < 32 && t && btf_kind(t) != BTF_KIND_UNKN && size < 0; i++) {
		switch (btf_kind(t)) {
		case BTF_KIND_INT:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_DATASEC:
		case BTF_KIND_FLOAT:
			size = t->size;
			continue;
		case BTF_KIND_PTR:
			size = btf->ptr_size;
			continue;
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_VAR:
		case BTF_KIND_DECL_TAG:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			break;
		case BTF_KIND_ARRAY:
			if (nelems && btf_array(t)->nelems > UINT32_MAX / nelems)
				return -E2BIG;
			nelems *= btf_array(t)->nelems;
			id = btf_array(t)->type;
			break;
		default:
			return -EINVAL;
		}
		t = btf_build__type_by_id(btf, id);
	}
	if (size < 0)
		return -EINVAL;
	if (nelems && size > UINT32_MAX / nelems)
		return -E2BIG;
	return nelems * size;
}

int btf_build__find_str(const struct btf_build *b, const char *s)
{
	size_t len = strlen(s);

	if (!*s)
		return 0;
	return str_set__find(&b->strs, s, len, str_set__hash(s, len));
}

struct append {
	struct btf_build *dst;
	const struct btf_build *src;
	uint32_t shift; /* what the IDs move by */
	uint32_t *to; /* a btf_build_strmap's, or NULL */
};

static int append_str(uint32_t *off, void *ctx)
{
	const struct append *a = ctx;
	int at;

	if (!*off)
		return 0;
	if (a->to && *off < a->src->strs.len && a->to[*off]) {
		*off = a->to[*off] - 1;
		return 0;
	}
	at = btf_build__add_str(a->dst, btf_build__str(a->src, *off));
	if (at < 0)
		return at;
	if (a->to && *off < a->src->strs.len)
		a->to[*off] = at + 1;
	*off = at;
	return 0;
}

static int append_id(uint32_t *id, void *ctx)
{
	if (*id)
		*id += ((const struct append *)ctx)->shift;
	return 0;
}

/* @map's room for @len offsets, all unset: 0 or -ENOMEM. */
static int btf_build_strmap__reset(struct btf_build_strmap *map, uint32_t len)
{
	if (len > map->cap) {
		/* Zeroed below: not copied over as realloc() would. */
		free(map->to);
		map->cap = 0;
		map->to = malloc((size_t)len * sizeof(*map->to));
		if (!map->to)
			return -ENOMEM;
		map->cap = len;
	}
	populate__write(map->to, (size_t)len * sizeof(*map->to));
	if (len)
		memset(map->to, 0, (size_t)len * sizeof(*map->to));
	return 0;
}

void btf_build_strmap__free(struct btf_build_strmap *map)
{
	if (!map)
		return;
	free(map->to);
	*map = (struct btf_build_strmap){};
}

int btf_build__append(struct btf_build *b, const struct btf_build *src,
		      struct btf_build_strmap *map)
{
	struct append a = { b, src, b->nr, NULL };
	uint32_t first = b->nr + 1, id;
	int err = map ? btf_build_strmap__reset(map, src->strs.len) : 0;

	a.to = map ? map->to : NULL;
	/* The room for all of @src's types, its pages mapped together (populate.h). */
	if (!err && src->types_len) {
		if (!btf_build__room(b, src->types_len))
			return -ENOMEM;
		populate__write(b->types + b->types_len, src->types_len);
	}
	for (id = 1; id <= src->nr && !err; id++) {
		const struct btf_type *t = btf_build__type(src, id);
		int at = btf_build__add_type(b, t);
		struct btf_type *copy;

		if (at < 0)
			return at;
		copy = btf_build__type(b, at);
		/* A copy's strings, then its IDs, as libbpf's: a string added for one is @b's for the next. */
		err = btf_type__visit_strs(copy, append_str, &a);
		err = err ?: btf_type__visit_ids(copy, append_id, &a);
	}
	return err ?: (int)first;
}

int btf_build__load_raw(struct btf_build *b, const void *raw, uint32_t size)
{
	const struct btf_header *hdr = raw;
	const char *start = (const char *)(hdr + 1);
	/* Each type takes 12 bytes at least: room for the index in one walk. */
	uint32_t off, cap = hdr->type_len / sizeof(struct btf_type) + 1;

	if (size < sizeof(*hdr) || hdr->hdr_len != sizeof(*hdr) ||
	    size - sizeof(*hdr) < (uint64_t)hdr->str_off + hdr->str_len ||
	    (uint64_t)hdr->type_off + hdr->type_len > hdr->str_off)
		return -EINVAL;
	/*
	 * The capacities set with each buffer: they tell btf_build__free() its
	 * kind (grow.h).  The types and strings are copied into pages mapped
	 * at once; the index is not mapped ahead (nothing is appended after).
	 */
	b->types = grow__copy(start + hdr->type_off, hdr->type_len);
	b->types_cap = b->types_mapped = b->types ? hdr->type_len : 0;
	b->offs = grow__realloc(NULL, 0, cap * sizeof(*b->offs));
	b->offs_cap = b->offs ? cap : 0;
	b->offs_mapped = 0;
	b->strs.data = grow__copy(start + hdr->str_off, hdr->str_len);
	b->strs.cap = b->strs.data ? hdr->str_len : 0;
	if (!b->types || !b->offs || !b->strs.data)
		return -ENOMEM;
	b->types_len = hdr->type_len;
	b->strs.len = hdr->str_len;
	for (off = 0, b->nr = 0; off < hdr->type_len && b->nr < cap; b->nr++) {
		b->offs[b->nr] = off;
		off += btf_type__size(btf_build__type(b, b->nr + 1));
	}
	return off == hdr->type_len ? 0 : -EINVAL;
}

void *btf_build__raw(const struct btf_build *b, uint32_t *size)
{
	uint32_t str_len = b->strs.len ?: 1;
	struct btf_header *hdr;
	char *p;

	if (b->types_len > UINT32_MAX - sizeof(*hdr) - str_len)
		return NULL;
	hdr = malloc(sizeof(*hdr) + b->types_len + str_len);
	if (!hdr)
		return NULL;
	*hdr = (struct btf_header){ .magic = BTF_MAGIC,
				    .version = BTF_VERSION,
				    .hdr_len = sizeof(*hdr),
				    .type_len = b->types_len,
				    .str_off = b->types_len,
				    .str_len = str_len };
	p = (char *)(hdr + 1);
	/* An empty build may have no buffer yet: memcpy() takes no NULL. */
	if (b->types_len)
		memcpy(p, b->types, b->types_len);
	if (b->strs.len)
		memcpy(p + b->types_len, b->strs.data, b->strs.len);
	else
		p[b->types_len] = 0;
	*size = sizeof(*hdr) + b->types_len + str_len;
	return hdr;
}

void btf_build__reset(struct btf_build *b)
{
	b->types_len = 0;
	b->nr = 0;
	str_set__clear(&b->strs);
}

void btf_build__free(struct btf_build *b)
{
	if (!b)
		return;
	grow__free(b->types, b->types_cap);
	grow__free(b->offs, (size_t)b->offs_cap * sizeof(*b->offs));
	str_set__free(&b->strs);
	*b = (struct btf_build){};
}
