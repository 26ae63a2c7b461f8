/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_BTF_BUILD_H_
#define _LIB_BTF_BUILD_H_ 1

/*
 * A BTF built in buffers of ours: the types one after another as BTF lays
 * them out, an index of where each begins, and the strings each once
 * (lib/str_set.h, the empty one at 0).  Each btf_build__add_*() appends a
 * type as libbpf 1.1's btf__add_*() of the same name does (facts from
 * libbpf v1.1.2's src/btf.c): the same checks, refused with the same
 * negative errno, the same info word as members, values and parameters are
 * added (a vlen past 65,535 wraps as libbpf's does), the new type's ID
 * returned (the first is 1).  Names are string offsets from
 * btf_build__add_str(), 0 for none: where libbpf wants a non-empty name, 0
 * is -EINVAL.  Referenced IDs may point forward (0 to fill in later, through
 * btf_build__type()).
 *
 * One owner, no locking.  btf_build__reset() empties it and keeps its
 * memory, so that a worker builds chunk after chunk in the same pages.
 *	struct btf_build b = {};
 *	int s = btf_build__add_str(&b, "s"), id = btf_build__add_composite(&b, BTF_KIND_STRUCT, s, 4);
 *	btf_build__free(&b);
 */
#include <stdint.h>

#include <linux/btf.h>

#include "lib/str_set.h"

/*
 * Its buffers are lib/grow.h's, of the capacities it holds: btf_build__free()
 * frees them.  Of each, the part mapped (populate.h) is kept too: appends
 * map the pages ahead of them a window at a time, not a fault per page.
 */
struct btf_build {
	char *types;
	uint32_t types_len, types_cap, types_mapped;
	uint32_t *offs; /* offs[id - 1]: where type @id begins in @types */
	uint32_t nr, offs_cap, offs_mapped; /* types, not counting void */
	struct str_set strs;
	int ptr_size; /* a pointer's size, as btf__set_pointer_size() sets it: the owner's to set */
};

/* The offset of @s among the strings, added if new; "" is 0.  Or -ENOMEM. */
int btf_build__add_str(struct btf_build *b, const char *s);
/* The string at @off (an offset btf_build__add_str() gave). */
const char *btf_build__str(const struct btf_build *b, uint32_t off);

/* 1 + the number of types: the ID the next one gets. */
static inline uint32_t btf_build__type_cnt(const struct btf_build *b)
{
	return b->nr + 1;
}

/* Type @id (0 < @id < btf_build__type_cnt()), to read or change in place until the next add. */
static inline struct btf_type *btf_build__type(const struct btf_build *b, uint32_t id)
{
	return (struct btf_type *)(b->types + b->offs[id - 1]);
}

/* Type @id as btf__type_by_id() has it: void's (all zero) for 0, NULL past the last. */
const struct btf_type *btf_build__type_by_id(const struct btf_build *b, uint32_t id);

int btf_build__add_int(struct btf_build *b, uint32_t name, uint32_t size, int encoding);
int btf_build__add_float(struct btf_build *b, uint32_t name, uint32_t size);
/* PTR, CONST, VOLATILE, RESTRICT; TYPEDEF and TYPE_TAG, which need a name. */
int btf_build__add_ref(struct btf_build *b, unsigned int kind, uint32_t name, uint32_t type);
int btf_build__add_array(struct btf_build *b, uint32_t index_type, uint32_t elem_type,
			 uint32_t nelems);
/* A STRUCT or UNION of no members yet. */
int btf_build__add_composite(struct btf_build *b, unsigned int kind, uint32_t name, uint32_t size);
/* A member of the last type, a STRUCT or UNION: 0 or a negative errno. */
int btf_build__add_field(struct btf_build *b, uint32_t name, uint32_t type, uint32_t bit_off,
			 uint32_t bit_size);
/* An ENUM (@kind BTF_KIND_ENUM) or ENUM64 of no values yet. */
int btf_build__add_enum(struct btf_build *b, unsigned int kind, uint32_t name, uint32_t size,
			int is_signed);
/* A value of the last type, an ENUM (@value in [INT_MIN, UINT_MAX]) or ENUM64. */
int btf_build__add_enum_value(struct btf_build *b, uint32_t name, int64_t value);
int btf_build__add_enum64_value(struct btf_build *b, uint32_t name, uint64_t value);
/* A FWD of a struct or union (@kind BTF_KIND_STRUCT or BTF_KIND_UNION), or an ENUM of none. */
int btf_build__add_fwd(struct btf_build *b, uint32_t name, unsigned int kind);
int btf_build__add_func_proto(struct btf_build *b, uint32_t ret_type);
/* A parameter of the last type, a FUNC_PROTO: 0 or a negative errno. */
int btf_build__add_func_param(struct btf_build *b, uint32_t name, uint32_t type);
int btf_build__add_decl_tag(struct btf_build *b, uint32_t value, uint32_t type, int component);
/* A FUNC of @linkage (enum btf_func_linkage) whose prototype is @proto. */
int btf_build__add_func(struct btf_build *b, uint32_t name, int linkage, uint32_t proto);
/* A VAR of @linkage (enum btf_var_linkage). */
int btf_build__add_var(struct btf_build *b, uint32_t name, int linkage, uint32_t type);
/* A DATASEC of no variables yet. */
int btf_build__add_datasec(struct btf_build *b, uint32_t name, uint32_t size);
/* A variable of the last type, a DATASEC: 0 or a negative errno. */
int btf_build__add_datasec_var_info(struct btf_build *b, uint32_t var, uint32_t offset,
				    uint32_t size);
/* A copy of @t, with what follows it, whose string offsets are already @b's: its ID. */
int btf_build__add_type(struct btf_build *b, const struct btf_type *t);

/*
 * The size of type @id as libbpf 1.1's btf__resolve_size() has it: through
 * typedefs, modifiers and tags, arrays multiplying, a pointer @b->ptr_size;
 * -EINVAL where it has none or past 32 steps, -E2BIG past 32 bits.
 */
int64_t btf_build__resolve_size(const struct btf_build *b, uint32_t id);

/*
 * The offset of @s among the strings, or -ENOENT (as btf__find_str(), which
 * finds "" at 0).
 */
int btf_build__find_str(const struct btf_build *b, const char *s);

/*
 * Where each string of an appended BTF went, by its offset there: memory an
 * owner appending BTF after BTF keeps from one append to the next (NULL
 * for none: each string reference is then looked up again).
 */
struct btf_build_strmap {
	uint32_t *to; /* to[off]: 1 + the string's offset in the BTF appended to; 0: not yet */
	uint32_t cap;
};

void btf_build_strmap__free(struct btf_build_strmap *map);

/*
 * Appends all of @src's types to @b, as libbpf 1.1's btf__add_btf() appends
 * a BTF to one of its own: their IDs moved past @b's, their strings @b's
 * (each added in the order libbpf visits them, those @b has reused;
 * through @map, unless NULL, each string of @src is looked up once).  The
 * ID of the first (the next ID, when @src has none), or a negative errno
 * (@b then holds what was appended: no use but to free it).
 */
int btf_build__append(struct btf_build *b, const struct btf_build *src,
		      struct btf_build_strmap *map);

/*
 * @b, empty, made the raw BTF at @raw of @size bytes (btf_build__raw()'s
 * layout, this machine's byte order, from a source we trust: a dedup of
 * ours), copied: for reading (it has no index of its strings to add more).
 * 0, -EINVAL or -ENOMEM.
 */
int btf_build__load_raw(struct btf_build *b, const void *raw, uint32_t size);

/*
 * The raw bytes of the BTF (btf__raw_data()'s layout, this machine's byte
 * order), to free: *@size of them; or NULL.
 */
void *btf_build__raw(const struct btf_build *b, uint32_t *size);

/* No types nor strings, the memory kept. */
void btf_build__reset(struct btf_build *b);
/* Its memory freed, @b empty (NULL: nothing). */
void btf_build__free(struct btf_build *b);

#endif /* _LIB_BTF_BUILD_H_ */
