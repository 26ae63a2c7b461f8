/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _BTF_DEDUP_PRIV_H_
#define _BTF_DEDUP_PRIV_H_ 1

/*
 * What the parts of our dedup share: btf_dedup_split.c decides each
 * type's representative, as libbpf would, btf_dedup_fwds.c that of the
 * FWDs no type graph resolved; btf_dedup_io.c loads the types
 * (a module's over a base, or a BTF of its own), runs it and writes the
 * types kept.  One thread, one dedup.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf_base.h"
#include "btf_dedup.h"
#include "btf_dedup_cands.h"
#include "lib/darray.h"
#include "lib/str_set.h"

#define ID_UNSEEN UINT32_MAX /* not yet given a representative */
#define ID_ON_PATH (UINT32_MAX - 1) /* being deduplicated: a reference cycle */
#define ID_MAX 0x7fffffffu /* libbpf's BTF_MAX_NR_TYPES */

/*
 * A type's representative and its pair in the hypothetical map, side by
 * side: the type-graph walk (equiv()) reads both of a canonical type, one
 * cache line instead of two, for each of the millions of types it visits.
 */
struct dedup_id {
	uint32_t map, hypot;
};

/*
 * A canonical type the hypothetical map pairs, and the kinds of it and of
 * its pair, as equiv() read them: hypot_merge() reads a type again only
 * where one has come to stand for another since.
 */
struct dedup_hypot {
	uint32_t canon;
	uint8_t canon_kind, cand_kind;
};

struct dedup {
	const struct btf_base *base; /* NULL: a BTF of its own (btf_dedup__whole()) */
	unsigned int out_threads; /* that write the output (dedup__write()): 0 or 1, the caller */
	uint32_t nb; /* base types with void: the module's first type ID */
	uint32_t nr; /* base and module types with void */
	/* The module's types, in its BTF, rewritten in place: IDs after the base's. */
	struct btf_type **types; /* types[id - nb] */
	struct dedup_id *ids; /* by type ID, of the base and the module */
	DARRAY(struct dedup_hypot) pairs; /* those of the hypothetical map, in order */
	/* The module's types that stand for themselves, in order (dedup__kept()). */
	DARRAY(uint32_t) kept;
	/*
	 * The base's structs and unions that are candidates (dedup__base()), in
	 * order: those a module FWD may be resolved to by name (every other is
	 * named as no module type is).
	 */
	DARRAY(uint32_t) base_composites;
	bool adjust_canon;
	/* Which libbpf's rules: typedefs by graph, identical types (btf_dedup.h). */
	struct btf_dedup_rules rules;
	struct cand_table cands;
	/*
	 * Without a base, the enums among the candidates by all they hold, and
	 * those without values by name (dedup_enum_indexed()): an unnamed
	 * enum's candidates are every unnamed one, which a kernel has
	 * hundreds of.
	 */
	struct cand_table enum_values, enum_decls;
	/*
	 * Kept from one dedup to the next (btf_dedup__new()): the room of
	 * @types and @ids, the strings written and the output.
	 */
	uint32_t types_cap, ids_cap;
	struct str_set strs;
	void *out;
	uint32_t out_cap;
};

static const struct btf_type btf_void;

/* The module's type @id (@id >= nb). */
static inline struct btf_type *split_type(const struct dedup *d, uint32_t id)
{
	return d->types[id - d->nb];
}

static inline const struct btf_type *type_of(const struct dedup *d, uint32_t id)
{
	if (!id)
		return &btf_void;
	return id < d->nb ? btf_base__type(d->base, id) : split_type(d, id);
}

/*
 * d->ids keeps its values encoded so that zeroed memory says
 * what a dedup starts from: each base type its own representative, and no
 * type in the hypothetical map.  A module's dedup, in memory fresh from the
 * kernel, then writes (and faults in) only the pages of the IDs it meets,
 * not those of the base's 100,000 types.  Every ID's entry is XORed with
 * the ID itself, the module's too (dedup__init() writes each of those): one
 * XOR, where telling the base's IDs from the module's would cost a compare
 * on each of the dedup's hundreds of millions of reads.
 */
static inline uint32_t map_of(const struct dedup *d, uint32_t id)
{
	return d->ids[id].map ^ id;
}

static inline void map_set(struct dedup *d, uint32_t id, uint32_t to)
{
	d->ids[id].map = to ^ id;
}

static inline uint32_t hypot_of(const struct dedup *d, uint32_t id)
{
	return d->ids[id].hypot ^ ID_UNSEEN;
}

static inline void hypot_set(struct dedup *d, uint32_t id, uint32_t to)
{
	d->ids[id].hypot = to ^ ID_UNSEEN;
}

static inline bool is_mapped(const struct dedup *d, uint32_t id)
{
	return map_of(d, id) <= ID_MAX;
}

/* The kind a FWD declares: its kflag says a union. */
static inline unsigned int fwd_kind(const struct btf_type *t)
{
	return btf_kflag(t) ? BTF_KIND_UNION : BTF_KIND_STRUCT;
}

/* The representative of @id as far as it is known. */
static inline uint32_t resolve(const struct dedup *d, uint32_t id)
{
	uint32_t to;

	/* Each entry read once a step: 0 encodes a type its own representative. */
	while (d->ids[id].map && (to = map_of(d, id)) <= ID_MAX)
		id = to;
	return id;
}

/*
 * Every base type a representative of itself; the candidates: those of the
 * base that a module type could take, counted as libbpf's are, and room for
 * the module's.
 */
int dedup__base(struct dedup *d);
/* libbpf's passes over the module's types: each one's representative in d->ids. */
int dedup__types(struct dedup *d);
/*
 * dedup__types() in two: the passes before libbpf resolves FWDs (primitive
 * types, enums, structs and unions, typedefs by graph), which read no type
 * but those they are run on and those they refer to; then the rest.
 */
int dedup__types_first(struct dedup *d);
int dedup__types_rest(struct dedup *d);
/*
 * dedup__types_rest() in its two steps: the FWDs no graph resolved, then
 * the reference types from ID @from on, in order (those before @from done
 * already: a type refers to none after them).
 */
int dedup__resolve_fwds(struct dedup *d);
int dedup__refs(struct dedup *d, uint32_t from);
/* Whether dedup__types_first() deduplicates @t (or else leaves it alone). */
bool dedup__first_meets(const struct dedup *d, const struct btf_type *t);

#endif /* _BTF_DEDUP_PRIV_H_ */
